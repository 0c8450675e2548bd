//! `grundy heap` long runs: checkpoints survive kill -9 and resume to exactly the uninterrupted
//! result; corrupt, truncated and foreign checkpoints are refused; summaries and bad input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn grundy(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .output()
        .expect("run grundy")
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grundy-cli-long-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn expect_refusal(o: &Output, needle: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_ne!(o.status.code(), Some(0), "should fail: {err}");
    assert!(o.stdout.is_empty(), "no partial output");
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    assert!(err.contains(needle), "'{needle}' in: {err}");
}

/// Starts a checkpointed run of Grundy's game to `n` and kills it (SIGKILL) as soon as its first
/// checkpoint is on disk. Returns whether the kill landed part-way (the run had not finished).
fn kill_after_first_checkpoint(n: &str, dir: &Path) -> bool {
    let _ = std::fs::remove_dir_all(dir);
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args([
            "heap",
            "grundys-game",
            "--upto",
            n,
            "--checkpoint",
            dir.to_str().unwrap(),
            "--checkpoint-every",
            "0",
            "--threads",
            "1",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let state = dir.join("state.bin");
    let start = Instant::now();
    while !state.exists() && start.elapsed() < Duration::from_secs(120) {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let finished_early = child.try_wait().unwrap().is_some();
    child.kill().unwrap(); // SIGKILL on Unix
    child.wait().unwrap();
    assert!(state.exists(), "a checkpoint was written");
    !finished_early
}

#[test]
fn kill_nine_then_resume_gives_the_uninterrupted_result() {
    let dir = temp_dir("kill");
    let d = dir.to_str().unwrap();
    // A run takes about a second here; on a faster machine it may finish before the kill lands,
    // which would not test resuming at all, so the size grows until a kill lands part-way.
    let n = ["600000", "2400000", "9600000"]
        .into_iter()
        .find(|n| kill_after_first_checkpoint(n, &dir))
        .expect("no run was killed part-way, even at 9.6 million heaps");

    let whole = grundy(&[
        "heap",
        "grundys-game",
        "--upto",
        n,
        "--format",
        "bfile",
        "--summary",
        "--json",
    ]);
    assert!(whole.status.success());
    let hist_whole = dir.with_extension("whole.txt");
    let full = grundy(&[
        "heap",
        "grundys-game",
        "--upto",
        n,
        "--histogram",
        hist_whole.to_str().unwrap(),
        "--format",
        "bfile",
    ]);
    assert!(full.status.success());

    // Rerunning the same command resumes and prints exactly the uninterrupted values.
    let hist_resumed = dir.with_extension("resumed.txt");
    let resumed = grundy(&[
        "heap",
        "grundys-game",
        "--upto",
        n,
        "--checkpoint",
        d,
        "--histogram",
        hist_resumed.to_str().unwrap(),
        "--format",
        "bfile",
    ]);
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    assert_eq!(text(&resumed), text(&full), "resumed run differs");
    assert_eq!(
        std::fs::read(&hist_resumed).unwrap(),
        std::fs::read(&hist_whole).unwrap()
    );
    let summary = grundy(&[
        "heap",
        "grundys-game",
        "--upto",
        n,
        "--checkpoint",
        d,
        "--summary",
        "--json",
    ]);
    assert_eq!(text(&summary), text(&whole));
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_file(hist_whole);
    let _ = std::fs::remove_file(hist_resumed);
}

fn make_checkpoint(dir: &Path) {
    let o = grundy(&[
        "heap",
        "0.167",
        "--upto",
        "5000",
        "--checkpoint",
        dir.to_str().unwrap(),
        "--summary",
    ]);
    assert!(o.status.success());
}

#[test]
fn corrupt_truncated_and_foreign_checkpoints_are_refused() {
    let dir = temp_dir("bad");
    let d = dir.to_str().unwrap();
    let state = dir.join("state.bin");

    make_checkpoint(&dir);
    expect_refusal(
        &grundy(&["heap", "0.161", "--upto", "5000", "--checkpoint", d]),
        "rule 0.167, not 0.161",
    );
    // A larger --upto extends the run; a smaller one would drop what the directory holds.
    expect_refusal(
        &grundy(&["heap", "0.167", "--upto", "4000", "--checkpoint", d]),
        "holds G(0..=5000) of rule 0.167, more than a run to 4000 keeps",
    );

    let good = std::fs::read(&state).unwrap();
    let mut flipped = good.clone();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 0x40;
    std::fs::write(&state, &flipped).unwrap();
    expect_refusal(
        &grundy(&["heap", "0.167", "--upto", "5000", "--checkpoint", d]),
        "corrupt",
    );

    std::fs::write(&state, &good[..good.len() - 7]).unwrap();
    expect_refusal(
        &grundy(&["heap", "0.167", "--upto", "5000", "--checkpoint", d]),
        "corrupt or truncated",
    );

    std::fs::write(&state, b"hello, this is not a checkpoint at all").unwrap();
    expect_refusal(
        &grundy(&["heap", "0.167", "--upto", "5000", "--checkpoint", d]),
        "not a grundy checkpoint",
    );

    std::fs::write(&state, b"").unwrap();
    expect_refusal(
        &grundy(&["heap", "0.167", "--upto", "5000", "--checkpoint", d]),
        "truncated",
    );

    // The intact file still works.
    std::fs::write(&state, &good).unwrap();
    let o = grundy(&[
        "heap",
        "0.167",
        "--upto",
        "5000",
        "--checkpoint",
        d,
        "--summary",
    ]);
    assert!(o.status.success());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn summary_json_has_the_fields_and_no_values() {
    let o = grundy(&[
        "heap",
        "grundys-game",
        "--upto",
        "100000",
        "--summary",
        "--json",
    ]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v.get("values").is_none());
    assert_eq!(v["rare_count"], 1273);
    assert_eq!(v["last_rare"], 82860);
    assert_eq!(v["max_value"], 230);
    assert_eq!(v["max_first"], 45668);
    let total: u64 = v["histogram"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p[1].as_u64().unwrap())
        .sum();
    assert_eq!(total, 100001);
    assert_eq!(v["period"]["status"], "none");
}

#[test]
fn sparse_and_reference_engines_agree() {
    for rule in ["0.167", "4!.0", "0.16"] {
        let a = grundy(&[
            "heap", rule, "--upto", "6000", "--engine", "sparse", "--format", "bfile",
        ]);
        let b = grundy(&[
            "heap",
            rule,
            "--upto",
            "6000",
            "--engine",
            "reference",
            "--format",
            "bfile",
        ]);
        assert!(a.status.success() && b.status.success());
        assert_eq!(text(&a), text(&b), "{rule}");
    }
}

#[test]
fn bad_input_is_refused_with_one_line() {
    expect_refusal(
        &grundy(&["heap", "0.167", "--upto", "100", "--engine", "warp"]),
        "'warp'",
    );
    expect_refusal(
        &grundy(&["heap", "0.[3]", "--upto", "100", "--engine", "sparse"]),
        "'0.[3]'",
    );
    let dir = temp_dir("sub");
    expect_refusal(
        &grundy(&[
            "heap",
            "sub:1,2",
            "--upto",
            "100",
            "--checkpoint",
            dir.to_str().unwrap(),
        ]),
        "'sub:1,2'",
    );
    expect_refusal(
        &grundy(&["heap", "0.167", "--upto", "-5", "--summary"]),
        "'-5'",
    );
}

#[test]
fn save_directory_can_be_read_back() {
    let dir = temp_dir("save");
    let o = grundy(&[
        "heap",
        "0.16",
        "--upto",
        "20000",
        "--save",
        dir.to_str().unwrap(),
        "--summary",
    ]);
    assert!(o.status.success());
    let code = grundy::heap::rule::parse_code("0.16").unwrap();
    let mut saved = grundy::heap::sparse::Saved::open(&dir, &code).unwrap();
    let reference = grundy::heap::reference::sequence(&code, 20000);
    assert_eq!(saved.len(), 20001);
    for n in [0u64, 1, 17, 19999, 20000] {
        assert_eq!(saved.get(n).unwrap(), Some(reference[n as usize]));
    }
    assert_eq!(saved.get(20001).unwrap(), None);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_full_disk_is_a_clear_error_and_keeps_the_last_checkpoint() {
    // A file-size limit stands in for a full disk: writes past it fail with EFBIG.
    let dir = temp_dir("full");
    let d = dir.to_str().unwrap();
    let script = format!(
        "trap '' XFSZ; ulimit -f 60; exec '{}' heap 0.167 --upto 300000 --checkpoint '{d}' --checkpoint-every 0 --summary",
        env!("CARGO_BIN_EXE_grundy")
    );
    let o = Command::new("sh").arg("-c").arg(&script).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(o.stdout.is_empty());
    assert!(err.contains("state.bin") && err.contains("intact"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    // The last good checkpoint is still there and resumes to the right answer.
    let resumed = grundy(&[
        "heap",
        "0.167",
        "--upto",
        "300000",
        "--checkpoint",
        d,
        "--summary",
        "--json",
    ]);
    let fresh = grundy(&["heap", "0.167", "--upto", "300000", "--summary", "--json"]);
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    assert_eq!(text(&resumed), text(&fresh));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn window_needs_a_summary_and_a_directory_on_disk() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["heap", "4!.0", "--upto", "5000", "--summary", "--window"])
        .output()
        .expect("the grundy binary runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("--window"), "{err}");
}

#[test]
fn windowed_summary_equals_the_full_one() {
    let dir = std::env::temp_dir().join(format!("grundy-window-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run = |extra: &[&str]| {
        let mut args = vec!["heap", "4!.0", "--upto", "300000", "--summary", "--json"];
        args.extend_from_slice(extra);
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args(&args)
            .output()
            .expect("the grundy binary runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        v
    };
    let full = run(&[]);
    let d = dir.to_str().expect("UTF-8 temp dir");
    let windowed = run(&["--window", "--save", d]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(full, windowed);
}
