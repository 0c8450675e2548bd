//! Runs a researcher can continue: a finished run extended to a larger target from its
//! checkpoint or its save directory, save directories read back ([`grundy_sparse::load`],
//! [`grundy_sparse::inspect`], [`Saved::values`]), and directories of another rule or of a
//! longer run refused before anything is written.

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::code;
use grundy_sparse::{Error, RunOptions, Saved};

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grundy-extend-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn opts(upto: u64, checkpoint: Option<&Path>, save: Option<&Path>) -> RunOptions {
    RunOptions {
        upto,
        threads: 2,
        checkpoint: checkpoint.map(Path::to_path_buf),
        checkpoint_every: Duration::from_secs(3600),
        save: save.map(Path::to_path_buf),
        find_period: true,
        window: false,
        window_depth: None,
    }
}

fn run(rule: &str, o: &RunOptions) -> Result<grundy_sparse::Outcome, Error> {
    grundy_sparse::run(&code(rule), o, &mut |_| true)
}

#[test]
fn a_finished_checkpointed_run_extends_to_a_larger_target() {
    let dir = fresh_dir("ck");
    let first = run("4!.0", &opts(20_000, Some(&dir), None)).unwrap();
    assert_eq!(first.resumed_at, 0);
    let more = run("4!.0", &opts(50_000, Some(&dir), None)).unwrap();
    assert_eq!(more.resumed_at, 20_001, "resumed from the finished run");
    let whole = run("4!.0", &opts(50_000, None, None)).unwrap();
    assert_eq!(more.summary, whole.summary);
    assert_eq!(more.engine.values(), whole.engine.values());
    let state = grundy_sparse::inspect(&dir).unwrap();
    assert_eq!((state.target, state.done), (50_000, 50_001));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_finished_saved_run_extends_from_its_save_directory_alone() {
    let dir = fresh_dir("save");
    run("0.167", &opts(20_000, None, Some(&dir))).unwrap();
    let more = run("0.167", &opts(45_000, None, Some(&dir))).unwrap();
    assert_eq!(more.resumed_at, 20_001);
    let whole = grundy_sparse::values(&code("0.167"), 45_000, 1).unwrap();
    assert_eq!(more.engine.values(), whole);
    let mut saved = Saved::open(&dir, &code("0.167")).unwrap();
    assert_eq!(saved.len(), 45_001);
    assert_eq!(saved.state().target, 45_000);
    assert_eq!(saved.values(0, 45_001).unwrap(), whole);
    assert_eq!(saved.values(19_990, 20_010).unwrap(), whole[19_990..20_010]);
    assert!(matches!(saved.values(0, 45_002), Err(Error::TooLarge(_))));
    // Running the same command again computes nothing and keeps the save.
    let again = run("0.167", &opts(45_000, None, Some(&dir))).unwrap();
    assert_eq!(again.resumed_at, 45_001);
    assert_eq!(again.summary, more.summary);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_windowed_extension_from_a_save_gives_the_same_summary() {
    let dir = fresh_dir("window");
    run("4!.0", &opts(30_000, None, Some(&dir))).unwrap();
    let windowed = RunOptions {
        window: true,
        window_depth: Some(4096),
        ..opts(70_000, None, Some(&dir))
    };
    let more = run("4!.0", &windowed).unwrap();
    assert_eq!(more.resumed_at, 30_001);
    let whole = run("4!.0", &opts(70_000, None, None)).unwrap();
    assert_eq!(more.summary, whole.summary);
    let (_, loaded) = grundy_sparse::load(&dir, &code("4!.0"), None).unwrap();
    assert_eq!(loaded.values(), whole.engine.values());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_directory_of_another_rule_is_refused_before_anything_is_written() {
    for as_checkpoint in [false, true] {
        let dir = fresh_dir(&format!("foreign-{as_checkpoint}"));
        run("0.167", &opts(5_000, None, Some(&dir))).unwrap();
        let before = std::fs::read(dir.join(grundy_sparse::STATE_FILE)).unwrap();
        let o = if as_checkpoint {
            opts(5_000, Some(&dir), None)
        } else {
            opts(5_000, None, Some(&dir))
        };
        let e = run("4!.0", &o).err().expect("refused");
        assert!(matches!(e, Error::BadFile(_)), "{e:?}");
        let msg = e.to_string();
        assert!(msg.contains("rule 0.167, not 4!.0"), "{msg}");
        assert!(!msg.contains('\n'), "one line: {msg}");
        let after = std::fs::read(dir.join(grundy_sparse::STATE_FILE)).unwrap();
        assert_eq!(before, after, "the directory is untouched");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn a_directory_holding_more_than_the_run_keeps_is_refused() {
    let dir = fresh_dir("longer");
    run("0.167", &opts(8_000, None, Some(&dir))).unwrap();
    for o in [opts(5_000, None, Some(&dir)), opts(5_000, Some(&dir), None)] {
        let e = run("0.167", &o).err().expect("refused");
        let msg = e.to_string();
        assert!(matches!(e, Error::BadFile(_)), "{e:?}");
        assert!(
            msg.contains("holds G(0..=8000) of rule 0.167, more than a run to 5000 keeps"),
            "{msg}"
        );
        assert!(!msg.contains('\n'), "one line: {msg}");
    }
    assert_eq!(grundy_sparse::inspect(&dir).unwrap().done, 8_001);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn load_reads_a_save_back_and_refuses_what_is_not_there() {
    let dir = fresh_dir("load");
    let g = code("0.167");
    let out = run("0.167", &opts(6_000, None, Some(&dir))).unwrap();
    let (state, engine) = grundy_sparse::load(&dir, &g, None).unwrap();
    assert_eq!(
        (state.rule.as_str(), state.target, state.done),
        ("0.167", 6_000, 6_001)
    );
    assert_eq!(engine.values(), out.engine.values());
    assert_eq!(grundy_sparse::summarize(&g, &engine, true), out.summary);
    let (_, first) = grundy_sparse::load(&dir, &g, Some(99)).unwrap();
    assert_eq!(first.values(), out.engine.values()[..100]);

    let e = grundy_sparse::load(&dir, &g, Some(6_001)).err().unwrap();
    assert!(matches!(e, Error::TooLarge(_)), "{e:?}");
    assert!(e.to_string().contains("holds G(0..=6000)"), "{e}");
    let e = grundy_sparse::load(&dir, &code("4!.0"), None)
        .err()
        .unwrap();
    assert!(
        e.to_string()
            .contains("holds a run of rule 0.167, not 4!.0"),
        "{e}"
    );

    let missing = fresh_dir("load-missing");
    let e = grundy_sparse::load(&missing, &g, None).err().unwrap();
    assert!(
        e.to_string().contains("holds no grundy checkpoint or save"),
        "{e}"
    );
    assert!(!missing.exists(), "reading creates nothing");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn inspect_reports_an_unfinished_run() {
    let dir = fresh_dir("inspect");
    let g = code("4!.0");
    let mut blocks = 0;
    let stopped = grundy_sparse::run(&g, &opts(60_000, Some(&dir), None), &mut |_| {
        blocks += 1;
        blocks <= 2
    });
    let Err(Error::Stopped { done }) = stopped else {
        panic!("expected a stop, got {:?}", stopped.err());
    };
    let state = grundy_sparse::inspect(&dir).unwrap();
    assert_eq!(
        (state.rule.as_str(), state.target, state.done),
        ("4!.0", 60_000, done)
    );
    // An unfinished run may be retargeted too, as long as it keeps what is there.
    let out = run("4!.0", &opts(70_000, Some(&dir), None)).unwrap();
    assert_eq!(out.resumed_at, done);
    assert_eq!(
        out.engine.values(),
        grundy_sparse::values(&g, 70_000, 1).unwrap()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
