//! Runs a researcher can continue and long sequences answered by their period: a record run
//! extended from its save directory, the directory read back (`heap::load`, `heap::inspect`),
//! directories of another rule refused, `heap::sequence` past a proven period, and the JSON
//! integer rule of the heap results.

use grundy::heap::{self, Compute, EngineChoice, EngineUsed, RecordOptions};

fn rule(text: &str) -> heap::Rule {
    heap::rule::parse(text).expect("rule")
}

fn fresh_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("grundy-records-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn computed(r: &heap::Rule, n: u64, engine: EngineChoice) -> Vec<u32> {
    heap::sequence(r, n, &mut Compute::new().engine(engine))
        .expect("sequence")
        .values
}

#[test]
fn a_long_sequence_past_a_proven_period_is_answered_by_the_period() {
    // Kayles, Dawson's chess and Dawson's Kayles (splitting codes, the record engine) and a
    // subtraction game.
    for (text, engine) in [
        ("kayles", EngineChoice::Sparse),
        ("0.137", EngineChoice::Sparse),
        ("dawsons-kayles", EngineChoice::Sparse),
        ("sub:1,3,4", EngineChoice::Reference),
    ] {
        let r = rule(text);
        let n = 100_000;
        let seq = heap::sequence(&r, n, &mut Compute::new()).expect("sequence");
        let c = seq
            .computed_upto
            .unwrap_or_else(|| panic!("{text}: not answered by the period: {:?}", seq.period));
        assert!(c < n / 4, "{text}: computed G(0..={c})");
        assert_eq!(seq.upto, n);
        assert_eq!(seq.values, computed(&r, n, engine), "{text}");
        let p = seq.period.expect("period");
        assert_eq!(p.status, heap::Status::Proven);
        let line = seq.describe_shortcut().expect("said so");
        assert!(
            line.contains(&format!(
                "values past heap {c} follow from the proven period"
            )),
            "{line}"
        );
        let j = serde_json::to_value(&seq).unwrap();
        assert_eq!(j["computed_upto"], c, "{text}");
        assert_eq!(j["upto"], n);
    }
}

#[test]
fn a_named_engine_or_a_short_or_unproven_run_computes_every_value() {
    let r = rule("kayles");
    let named = heap::sequence(
        &r,
        100_000,
        &mut Compute::new().engine(EngineChoice::Sparse),
    )
    .expect("sequence");
    assert_eq!(named.computed_upto, None);
    assert_eq!(named.engine, EngineUsed::Sparse);
    let short =
        heap::sequence(&r, heap::PERIOD_SHORTCUT_FROM - 1, &mut Compute::new()).expect("sequence");
    assert_eq!(short.computed_upto, None);
    assert!(short.describe_shortcut().is_none());
    let j = serde_json::to_value(&short).unwrap();
    assert!(
        j.get("computed_upto").is_none(),
        "only when answered by the period"
    );
    // 0.16's period (149459, preperiod 105351) is proven far past a quarter of 100000.
    let unproven = heap::sequence(&rule("0.16"), 100_000, &mut Compute::new()).expect("sequence");
    assert_eq!(unproven.computed_upto, None);
}

#[test]
fn a_record_run_extends_from_its_save_directory_and_reads_back() {
    let dir = fresh_dir("extend");
    let r = rule("0.167");
    let first = RecordOptions {
        upto: 5_000,
        save: Some(dir.clone()),
        ..RecordOptions::default()
    };
    let rec = heap::record(&r, &first, &mut Compute::new()).expect("record");
    assert_eq!(rec.resumed_at, 0);
    let more = RecordOptions {
        upto: 12_000,
        ..first.clone()
    };
    let rec = heap::record(&r, &more, &mut Compute::new()).expect("extended");
    assert_eq!(rec.resumed_at, 5_001);
    assert_eq!(rec.upto, 12_000);

    let info = heap::inspect(&dir).expect("inspect");
    assert_eq!(
        info,
        heap::SavedRun {
            code: "0.167".into(),
            target: 12_000,
            saved: 12_001,
            finished: true
        }
    );
    let back = heap::load(&r, &dir, None, true).expect("load");
    let whole = computed(&r, 12_000, EngineChoice::Sparse);
    assert_eq!(back.values.as_deref(), Some(&whole[..]));
    assert_eq!(back.histogram, rec.histogram);
    assert_eq!(back.period, rec.period);
    assert_eq!(
        (back.rare_count, back.last_rare),
        (rec.rare_count, rec.last_rare)
    );
    let note = back.note.as_deref().unwrap_or_default();
    assert!(note.contains("G(0..=12000) saved"), "{note}");
    assert!(back.describe(&r, false).contains(note));
    let part = heap::load(&r, &dir, Some(300), true).expect("load");
    assert_eq!(
        (part.upto, part.values.as_deref()),
        (300, Some(&whole[..301]))
    );

    let e = heap::load(&r, &dir, Some(12_001), false)
        .unwrap_err()
        .to_string();
    assert!(e.contains("holds G(0..=12000)"), "{e}");
    let e = heap::load(&rule("4!.0"), &dir, None, false)
        .unwrap_err()
        .to_string();
    assert!(e.contains("holds a run of rule 0.167, not 4!.0"), "{e}");
    let e = heap::load(&rule("sub:1,3,4"), &dir, None, false)
        .unwrap_err()
        .to_string();
    assert!(e.contains("take-and-break"), "{e}");

    // A record run of another rule into the directory is refused and leaves it as it was.
    let other = RecordOptions {
        upto: 12_000,
        save: Some(dir.clone()),
        ..RecordOptions::default()
    };
    let e = heap::record(&rule("4!.0"), &other, &mut Compute::new())
        .unwrap_err()
        .to_string();
    assert!(e.contains("rule 0.167, not 4!.0"), "{e}");
    assert!(!e.contains('\n'));
    assert_eq!(heap::inspect(&dir).expect("inspect").saved, 12_001);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_named_game_with_a_shift_reads_back_in_its_own_heap_sizes() {
    let dir = fresh_dir("shift");
    let r = rule("treblecross");
    let opts = RecordOptions {
        upto: 3_000,
        save: Some(dir.clone()),
        keep_values: true,
        ..RecordOptions::default()
    };
    let rec = heap::record(&r, &opts, &mut Compute::new()).expect("record");
    let info = heap::inspect(&dir).expect("inspect");
    assert_eq!((info.code.as_str(), info.target), ("0.007", 3_002));
    let back = heap::load(&r, &dir, None, true).expect("load");
    assert_eq!(back.upto, 3_000);
    assert_eq!(back.values, rec.values);
    let part = heap::load(&r, &dir, Some(10), true).expect("load");
    assert_eq!(
        part.values.as_deref(),
        rec.values.as_ref().map(|v| &v[..11])
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn heap_results_write_every_count_by_one_rule() {
    // Counts and heap indices go through json_int in every heap result: numbers up to 2^53.
    let r = rule("0.167");
    let rec = heap::record(
        &r,
        &RecordOptions {
            upto: 2_000,
            ..RecordOptions::default()
        },
        &mut Compute::new(),
    )
    .expect("record");
    let j = serde_json::to_value(&rec).unwrap();
    for field in ["upto", "rare_count", "max_first", "last_rare"] {
        assert!(j[field].is_u64(), "{field}: {}", j[field]);
    }
    assert!(j["histogram"][0][1].is_u64());
    let big = heap::Progress {
        done: (1 << 53) + 1,
        total: 1 << 60,
        resumed_at: 0,
    };
    let p = serde_json::to_value(big).unwrap();
    assert_eq!(p["done"], "9007199254740993");
    assert_eq!(p["total"], "1152921504606846976");
    assert_eq!(p["resumed_at"], 0);
}
