//! `grundy survey` as a user runs it: a survey killed with SIGKILL loses no finished game and
//! leaves a sound database, and resuming gives the uninterrupted result; the report in text,
//! JSON and CSV; bad input refused in one line with exit code 2.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{bad, grundy, json, ok};

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("grundy-cli-survey-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Every row but the wall time, which differs between runs.
fn rows(db: &Path) -> Vec<serde_json::Value> {
    let mut v = json(&["survey", "--db", s(db), "--report", "--json"])["games"]
        .as_array()
        .unwrap()
        .clone();
    for r in &mut v {
        r.as_object_mut().unwrap().remove("seconds");
    }
    v
}

fn integrity(db: &Path) -> String {
    let c = rusqlite::Connection::open(db).unwrap();
    c.query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap()
}

/// Starts a survey, kills it (SIGKILL) once `rows_before_kill` rows are committed; returns the
/// rows seen just before the kill, or None when the survey finished first.
fn kill_part_way(
    args: &[&str],
    db: &Path,
    rows_before_kill: usize,
) -> Option<Vec<serde_json::Value>> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return None;
        }
        if db.exists() {
            let out = grundy(&["survey", "--db", s(db), "--report", "--json"]);
            if out.status.success() {
                let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
                let n = v["games"].as_array().unwrap().len();
                if n >= rows_before_kill {
                    let mut seen = v["games"].as_array().unwrap().clone();
                    for r in &mut seen {
                        r.as_object_mut().unwrap().remove("seconds");
                    }
                    child.kill().unwrap(); // SIGKILL on Unix
                    let status = child.wait().unwrap();
                    assert!(!status.success());
                    return Some(seen);
                }
            }
        }
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "the survey never got going"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn kill_nine_loses_no_finished_game_and_resumes_to_the_same_table() {
    let dir = temp_dir("kill");
    let (db, seqs) = (dir.join("s.sqlite"), dir.join("seqs"));
    // octal:2 records its 22 equivalent games first; kill once a few games are solved too.
    let args = |upto| {
        [
            "survey",
            "octal:2",
            "--db",
            s(&db),
            "--upto",
            upto,
            "--jobs",
            "2",
            "--save-sequences",
            s(&seqs),
        ]
    };
    let mut landed = None;
    for upto in ["2^14", "2^16", "2^18"] {
        let _ = std::fs::remove_file(&db);
        if let Some(seen) = kill_part_way(&args(upto), &db, 30) {
            landed = Some((upto, seen));
            break;
        }
    }
    let (upto, seen) = landed.expect("no survey was killed part-way");
    assert_eq!(integrity(&db), "ok");
    let after = rows(&db);
    for r in &seen {
        assert!(after.contains(r), "lost {r}");
    }
    assert!(after.len() < 63, "the kill landed after the end");
    // Resume to the end, and compare with an uninterrupted survey.
    let out = ok(&args(upto));
    assert!(out.contains("finished before"), "{out}");
    let fresh = dir.join("fresh.sqlite");
    ok(&[
        "survey",
        "octal:2",
        "--db",
        s(&fresh),
        "--upto",
        upto,
        "--jobs",
        "1",
    ]);
    assert_eq!(rows(&db), rows(&fresh));
    assert_eq!(integrity(&db), "ok");
    // A second run has nothing left to do.
    let again = ok(&["survey", "octal:2", "--db", s(&db), "--upto", upto]);
    assert!(
        again.contains("63 finished before") || again.contains(", 0 to solve"),
        "{again}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn report_text_json_and_csv() {
    let dir = temp_dir("report");
    let db = dir.join("s.sqlite");
    let text = ok(&["survey", "sub:4", "--db", s(&db), "--upto", "2^10"]);
    assert!(text.contains("sub:4: 15 games, 0 equivalent"), "{text}");
    assert!(text.contains("periodic (15):"), "{text}");
    let j = json(&["survey", "--db", s(&db), "--report", "--json"]);
    assert_eq!(j["total"]["games"], 15);
    assert_eq!(j["total"]["solved"], 15);
    assert_eq!(j["families"][0]["family"], "sub:4");
    let g = j["games"].as_array().unwrap();
    // sub:1,2 is G(n) = n mod 3.
    let r = g.iter().find(|r| r["rule"] == "sub:1,2").unwrap();
    assert_eq!(
        (
            r["preperiod"].as_u64(),
            r["period"].as_u64(),
            r["proven"].as_u64()
        ),
        (Some(0), Some(3), Some(1))
    );
    assert_eq!(r["status"], "periodic");
    let csv = ok(&["survey", "--db", s(&db), "--csv"]);
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "rule,status,preperiod,period,proven,computed_upto,max_value,rare_values,equals,seconds,engine,shift,saltus,family,error,misere_upto,misere_order,misere_p,misere_tame,misere_status"
    );
    let body: Vec<&str> = lines.collect();
    assert_eq!(body.len(), 15);
    assert!(
        body.iter()
            .any(|l| l.starts_with("\"sub:1,2\",periodic,0,3,1,")),
        "{csv}"
    );
    // --report prints the same tables the survey ended with (after its summary line).
    let report = ok(&["survey", "--db", s(&db), "--report"]);
    assert_eq!(Some(report.as_str()), text.split_once('\n').map(|x| x.1));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let dir = temp_dir("bad");
    let db = dir.join("s.sqlite");
    bad(&["survey", "fib:3", "--db", s(&db)], "fib");
    bad(&["survey", "octal:0", "--db", s(&db)], "octal:0");
    bad(
        &["survey", "octal:2", "--db", s(&db), "--upto", "lots"],
        "lots",
    );
    bad(
        &["survey", "octal:2", "--db", s(&db), "--budget", "-1"],
        "-1",
    );
    assert!(!db.exists(), "a refused survey created its database");
    bad(
        &["survey", "octal:2", "--db", "/nonexistent-dir/s.sqlite"],
        "/nonexistent-dir/s.sqlite",
    );
    bad(&["survey", "--db", s(&db), "--report"], "no such file");
    let missing = dir.join("missing.txt");
    bad(
        &["survey", &format!("file:{}", s(&missing)), "--db", s(&db)],
        "missing.txt",
    );
    let rules = dir.join("rules.txt");
    std::fs::write(&rules, "0.77\nnot-a-rule\n").unwrap();
    bad(
        &["survey", &format!("file:{}", s(&rules)), "--db", s(&db)],
        "line 2",
    );
    assert!(!db.exists());
    // A file that is not a database, and one that is a damaged one.
    let junk = dir.join("junk.sqlite");
    std::fs::write(&junk, vec![0x5a; 8192]).unwrap();
    bad(&["survey", "octal:1", "--db", s(&junk)], "junk.sqlite");
    bad(&["survey", "--db", s(&junk), "--report"], "junk.sqlite");
    let damaged = dir.join("damaged.sqlite");
    ok(&["survey", "octal:2", "--db", s(&damaged), "--upto", "2^8"]);
    let mut bytes = std::fs::read(&damaged).unwrap();
    let len = bytes.len();
    for b in &mut bytes[len / 2..] {
        *b = 0xa5;
    }
    std::fs::write(&damaged, &bytes).unwrap();
    bad(
        &["survey", "--db", s(&damaged), "--report"],
        "damaged.sqlite",
    );
    // Another program's database.
    let other = dir.join("other.sqlite");
    rusqlite::Connection::open(&other)
        .unwrap()
        .execute_batch("CREATE TABLE games (name TEXT);")
        .unwrap();
    bad(
        &["survey", "octal:1", "--db", s(&other)],
        "not a grundy survey database",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--misere N`: the misère columns and counts (0.75 gives R_8), and a bound past 64 refused.
#[test]
fn misere_quotients_in_the_table() {
    let dir = temp_dir("misere");
    std::fs::write(dir.join("g.txt"), "0.75\n0.31\n").unwrap();
    let db = dir.join("s.sqlite");
    let fam = format!("file:{}", dir.join("g.txt").display());
    let v = json(&[
        "survey",
        &fam,
        "--db",
        s(&db),
        "--upto",
        "2^10",
        "--misere",
        "10",
        "--json",
    ]);
    assert_eq!(v["total"]["misere_quotients"], 2);
    let r = v["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["rule"] == "0.75")
        .unwrap()
        .clone();
    assert_eq!(
        (
            &r["misere_order"],
            &r["misere_p"],
            &r["misere_tame"],
            &r["misere_status"]
        ),
        (
            &serde_json::json!(8),
            &serde_json::json!(2),
            &serde_json::json!(0),
            &serde_json::json!("quotient")
        )
    );
    let text = ok(&["survey", "--db", s(&db), "--report"]);
    assert!(text.contains("misère quotients (2): 2 verified"), "{text}");
    bad(
        &["survey", &fam, "--db", s(&db), "--misere", "100"],
        "--misere",
    );
}
