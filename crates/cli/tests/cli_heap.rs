//! `grundy heap` run as a user would run it.

mod common;

use common::*;

#[test]
fn malformed_rules_and_counts() {
    bad(&["heap", "0.W", "--upto", "10"], "'W'");
    bad(&["heap", "0.7.7"], "second '.'");
    bad(&["heap", "4!."], "4!.");
    bad(&["heap", "sub:"], "sub:");
    bad(&["heap", "sub:0"], "element 0");
    bad(&["heap", "0.["], "never closed");
    bad(&["heap", "frobnicate"], "frobnicate");
    bad(
        &["heap", "kayles", "--upto", "100000000000000"],
        "--upto 100000000000000",
    );
    bad(&["heap", "kayles", "--upto", "-3"], "-3");
    bad(&["heap", "kayles", "--upto", "ten"], "ten");
    bad(
        &["heap", "kayles", "--upto", "99999999999999999999999"],
        "99999999999999999999999",
    );
    bad(&["heap", "kayles", "--position", "3", "-1"], "-1");
    bad(&["heap", "kayles", "--position", "3", "x"], "'x'");
    bad(&["heap", "kayles", "--format", "csv"], "csv");
    bad(
        &["heap", "kayles", "--plot", "/tmp/grundy-heap-plot.gif"],
        ".gif",
    );
}

#[test]
fn sequences_in_every_format() {
    let table = ok(&["heap", "kayles", "--upto", "20"]);
    assert!(table.contains(" 0: 0 1 2 3 1 4 3 2 1 4"), "{table}");
    let bfile = ok(&["heap", "0.07", "--upto", "5", "--format", "bfile"]);
    assert_eq!(bfile, "0 0\n1 0\n2 1\n3 1\n4 2\n5 0\n");
    let j = json(&["heap", "sub:1,3,4", "--upto", "40", "--json"]);
    assert_eq!(j["rule"], "sub:1,3,4");
    assert_eq!(j["values"][7], 0);
    assert_eq!(j["period"]["period"], 7);
    assert_eq!(j["period"]["preperiod"], 0);
    assert_eq!(j["period"]["saltus"], 0);
    assert_eq!(j["period"]["status"], "proven");
    let g = json(&["heap", "grundys-game", "--upto", "300", "--json"]);
    assert_ne!(g["period"]["status"], "proven");
    let a = json(&["heap", "allbut:2,3,7", "--upto", "200", "--json"]);
    assert_eq!(a["period"]["status"], "observed");
    assert_eq!(a["period"]["saltus"], 2);
    let c = json(&["heap", "crosses", "--upto", "6", "--json"]);
    assert_eq!(c["shift"], 2);
    assert_eq!(c["values"][6], 0);
}

#[test]
fn period_until_proven() {
    let out = ok(&[
        "heap",
        "kayles",
        "--upto",
        "50",
        "--period",
        "--prove-upto",
        "100000",
    ]);
    let last = out.lines().last().unwrap();
    assert!(
        last.starts_with("period 12, preperiod 71 (proven"),
        "{last}"
    );
    let out = ok(&["heap", "grundys-game", "--upto", "100", "--period"]);
    assert!(!out.contains("proven:"), "{out}");
}

#[test]
fn positions_and_winning_moves() {
    let out = ok(&["heap", "kayles", "--position", "7", "9", "12"]);
    assert!(
        out.contains("from the heap of 7, remove 1 and split the rest into 3 + 3"),
        "{out}"
    );
    let j = json(&["heap", "nim", "--position", "3", "4", "5", "--json"]);
    assert_eq!(j["grundy"], 2);
    assert_eq!(j["outcome"], "N");
    assert_eq!(j["winning_moves"][0]["at"]["from"], 3);
    assert_eq!(j["winning_moves"][0]["at"]["left"], 1); // Nim's own entry
    assert_eq!(j["winning_moves"][0]["to"]["text"], "1 4 5");
    assert_eq!(j["winning_moves"][0]["outcome"], "P");
    let p = json(&["heap", "sub:2,5", "--position", "5", "12", "--json"]);
    assert_eq!(p["outcome"], "P");
    assert_eq!(p["winning_moves"].as_array().unwrap().len(), 0);
    // Heaps far beyond memory, through the proven period (sub:1,3,4 has period 7 from 0).
    let h = json(&[
        "heap",
        "sub:1,3,4",
        "--position",
        "10000000000",
        "5",
        "--json",
    ]);
    assert_eq!(h["details"]["heap_values"][0], 2); // 10^10 = 4 (mod 7), G(4) = 2
    assert_eq!(
        h["winning_moves"][0]["text"],
        "heap 1: from the heap of 5, remove 1, leaving 4"
    );
    let k = json(&["heap", "kayles", "--position", "1000000000000", "--json"]);
    assert_eq!(k["details"]["heap_values"][0], 1); // 10^12 = 76 + 12k and G(76) = 1
                                                   // The same question as the game's own command: one door.
    assert_eq!(k, json(&["kayles", "1000000000000", "--json"]));
    bad(
        &["heap", "grundys-game", "--position", "1000000000000"],
        "1000000000000",
    );
    let g = json(&["heap", "grundys-game", "--position", "12", "--json"]);
    for m in g["winning_moves"].as_array().unwrap() {
        let l = m["at"]["leaves"].as_array().unwrap();
        assert_ne!(l[0], l[1], "Grundy's game splits into unequal heaps");
    }
}

#[test]
fn plots() {
    let dir = std::env::temp_dir().join(format!("grundy-heap-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("k.svg");
    let png = dir.join("k.png");
    ok(&[
        "heap",
        "kayles",
        "--upto",
        "200",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    ok(&[
        "heap",
        "kayles",
        "--upto",
        "200",
        "--plot",
        png.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("<svg") && text.contains("period 12, preperiod 71"));
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn period_alone_computes_until_proven() {
    let text = ok(&["heap", "kayles", "--period"]);
    assert!(text.contains("period 12, preperiod 71 (proven"), "{text}");
    let v = json(&["heap", "0.137", "--period", "--json"]);
    assert_eq!(v["period"]["period"], 34);
    assert_eq!(v["period"]["preperiod"], 52);
    assert_eq!(v["period"]["status"], "proven");
    // No theorem covers Grundy's game: never "proven".
    let v = json(&["heap", "grundys-game", "--period", "--json"]);
    assert_ne!(v["period"]["status"], "proven");
}

#[test]
fn values_go_to_a_bfile_and_the_json_stays_small() {
    let path = std::env::temp_dir().join(format!("grundy-values-{}.txt", std::process::id()));
    let p = path.to_str().unwrap();
    let j = json(&[
        "heap",
        "sub:1,3,4",
        "--upto",
        "1e5",
        "--values",
        p,
        "--json",
    ]);
    assert!(j.get("values").is_none(), "{j}");
    assert_eq!(j["period"]["period"], 7);
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 100_001);
    assert_eq!(text.lines().nth(7), Some("7 0"));
    let _ = std::fs::remove_file(&path);
}

#[test]
fn misere_positions_and_their_flags() {
    let out = ok(&["heap", "kayles", "--position", "2", "--misere"]);
    assert!(
        out.contains("N: the player to move wins\nWinning moves (1):"),
        "{out}"
    );
    let j = json(&["heap", "nim", "--position", "1", "1", "--misere", "--json"]);
    assert_eq!(j["outcome"], "N");
    assert_eq!(j["misere"], true);
    bad(&["heap", "kayles", "--misere"], "--position");
    // Learning the quotient, and the whole-position search, stop at the cap; by default
    // Kayles sums are products in its misère quotient, with no search at all.
    bad(
        &[
            "heap",
            "kayles",
            "--position",
            "70",
            "71",
            "72",
            "--misere",
            "--max-positions",
            "100",
        ],
        "more than 100 positions (the position limit)",
    );
    let j = json(&[
        "heap",
        "kayles",
        "--position",
        "30",
        "31",
        "32",
        "--misere",
        "--json",
    ]);
    assert_eq!(j["details"]["method"], "quotient");
}

#[test]
fn winning_moves_name_their_heap() {
    let out = ok(&["heap", "kayles", "--position", "7", "9", "12"]);
    assert!(
        out.contains("heap 2: from the heap of 12, remove 1, leaving 11\n"),
        "{out}"
    );
    assert!(out.contains("Winning moves (5)"), "{out}");
}

#[test]
fn png_plots_have_text_and_bad_paths_are_one_line() {
    let path = std::env::temp_dir().join(format!("grundy-plot-{}.png", std::process::id()));
    let out = grundy(&[
        "heap",
        "kayles",
        "--upto",
        "200",
        "--plot",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("wrote the plot"), "{err}");
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    let _ = std::fs::remove_file(&path);
    let out = grundy(&["heap", "kayles", "--plot", "/nonexistent-dir/k.png"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("No such file or directory"), "{err}");
    assert!(!err.contains("ImageError"), "{err}");
}

fn fresh_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("grundy-cli-heap-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn a_saved_run_extends_reads_back_and_refuses_other_rules() {
    let dir = fresh_dir("save");
    let d = dir.to_str().unwrap();
    let first = json(&[
        "heap",
        "0.167",
        "--upto",
        "5000",
        "--summary",
        "--save",
        d,
        "--json",
    ]);
    assert_eq!(first["upto"], 5000);
    // A larger --upto with the same directory continues the run from where it ended.
    let out = grundy(&[
        "heap",
        "0.167",
        "--upto",
        "9000",
        "--summary",
        "--save",
        d,
        "--json",
    ]);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("resuming from heap 5001"), "{err}");
    let more: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let whole = json(&["heap", "0.167", "--upto", "9000", "--summary", "--json"]);
    for field in [
        "upto",
        "rare_count",
        "last_rare",
        "max_value",
        "max_first",
        "histogram",
        "period",
    ] {
        assert_eq!(more[field], whole[field], "{field}");
    }

    // --load reads it back: the same summary, the values, a part of them.
    let back = json(&["heap", "0.167", "--load", d, "--summary", "--json"]);
    assert_eq!(back["histogram"], whole["histogram"]);
    assert_eq!(back["period"], whole["period"]);
    assert!(back["note"].as_str().unwrap().contains("G(0..=9000) saved"));
    let values = json(&["heap", "0.167", "--load", d, "--upto", "30", "--json"]);
    let direct = json(&["heap", "0.167", "--upto", "30", "--json"]);
    assert_eq!(values["values"], direct["values"]);
    let bfile = ok(&[
        "heap", "0.167", "--load", d, "--upto", "3", "--format", "bfile",
    ]);
    let direct_bfile = ok(&["heap", "0.167", "--upto", "3", "--format", "bfile"]);
    assert!(bfile.starts_with(&direct_bfile), "{bfile}");
    let text = ok(&["heap", "0.167", "--load", d, "--summary"]);
    assert!(
        text.contains(&format!("read from {d}: G(0..=9000) saved")),
        "{text}"
    );

    bad(
        &["heap", "0.167", "--load", d, "--upto", "9001"],
        "holds G(0..=9000)",
    );
    bad(
        &["heap", "4!.0", "--load", d],
        "holds a run of rule 0.167, not 4!.0",
    );
    bad(
        &["heap", "4!.0", "--upto", "9000", "--save", d],
        "rule 0.167, not 4!.0",
    );
    bad(
        &["heap", "0.167", "--upto", "4000", "--summary", "--save", d],
        "more than a run to 4000 keeps",
    );
    bad(&["heap", "0.167", "--load", d, "--save", d], "--save");
    let missing = fresh_dir("missing");
    bad(
        &["heap", "0.167", "--load", missing.to_str().unwrap()],
        "holds no grundy checkpoint or save",
    );
    assert!(!missing.exists());
    // The refusals left the directory as it was.
    let again = json(&["heap", "0.167", "--load", d, "--summary", "--json"]);
    assert_eq!(again["upto"], 9000);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_long_sequence_past_its_proven_period_says_so() {
    let j = json(&["heap", "kayles", "--upto", "1e6", "--json"]);
    assert_eq!(j["upto"], 1_000_000);
    let c = j["computed_upto"].as_u64().expect("computed_upto");
    assert!(c < 250_000, "{c}");
    assert_eq!(j["period"]["status"], "proven");
    let values = j["values"].as_array().unwrap();
    assert_eq!(values.len(), 1_000_001);
    // Kayles: period 12 from heap 71 (values 4 1 2 8 1 4 7 2 1 8 2 7 from heap 72).
    for n in [999_996usize, 1_000_000] {
        assert_eq!(values[n], values[n - 12 * 1000]);
    }
    assert_eq!(values[1_000_000], values[76], "1000000 = 76 (mod 12)");
    let text = ok(&["heap", "kayles", "--upto", "1e6"]);
    let last = text.lines().last().unwrap();
    assert!(
        last.starts_with(&format!(
            "values past heap {c} follow from the proven period"
        )),
        "{last}"
    );
    // A b-file stays clean: the line goes to stderr.
    let out = grundy(&["heap", "kayles", "--upto", "2^17", "--format", "bfile"]);
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).lines().count(),
        (1 << 17) + 1
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("follow from the proven period"));
    // Short runs and named engines compute every value, and say nothing.
    let short = json(&["heap", "kayles", "--upto", "1000", "--json"]);
    assert!(short.get("computed_upto").is_none());
    let named = json(&[
        "heap", "kayles", "--upto", "1e5", "--engine", "sparse", "--json",
    ]);
    assert!(named.get("computed_upto").is_none());
}

#[test]
fn misere_quotients_are_kept_in_the_cache_directory() {
    let dir = std::env::temp_dir().join(format!("grundy-cli-quotients-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let args = [
        "heap",
        "0.77",
        "--position",
        "65",
        "10",
        "--misere",
        "--cache-dir",
        d,
        "--json",
    ];
    let first = json(&args);
    assert_eq!(
        (
            &first["details"]["method"],
            &first["details"]["quotient_order"]
        ),
        (&"quotient".into(), &40.into())
    );
    let files: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
    assert_eq!(files.len(), 1, "one file for the rule");
    let path = files[0].path();
    assert_eq!(json(&args), first, "read back, the same answer");
    // A damaged file is not trusted: the answer is computed again and the file rewritten.
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replacen("order 40", "order 41", 1)).unwrap();
    assert_eq!(json(&args), first);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "rebuilt");
    // Kayles by name shares 0.77's quotient; a heap of 10^12 is answered once Φ is proven
    // periodic.
    let big = json(&[
        "heap",
        "kayles",
        "--position",
        "1e12",
        "65",
        "10",
        "--misere",
        "--cache-dir",
        d,
        "--json",
    ]);
    assert_eq!(big["details"]["quotient_period"]["period"], 12);
    assert_eq!(big["details"]["unlisted_heaps"], serde_json::json!([0]));
    let q = json(&[
        "misere",
        "quotient",
        "kayles",
        "--upto",
        "100",
        "--cache-dir",
        d,
        "--json",
    ]);
    assert_eq!(
        (&q["rule"], &q["order"], &q["changes_at"]),
        (&"kayles".into(), &40.into(), &27.into())
    );
    assert_eq!(q["solution"]["preperiod"], 71);
    assert_eq!(q["phi"].as_array().unwrap().len(), 101);
    bad(&["heap", "0.77", "--cache-dir", d], "--cache-dir");
    let _ = std::fs::remove_dir_all(&dir);
}
