//! Ctrl-C (SIGINT) and SIGTERM stop a long run cleanly: a checkpointed run writes what it
//! finished, says how to resume, exits 130; rerunning says "resuming from heap N" and ends
//! with exactly the uninterrupted result.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_grundy"))
}

/// Starts `args`, sends `signal` once the checkpoint directory holds a state file (the run
/// is under way), and returns (exit code, stderr).
fn interrupt(args: &[&str], dir: &std::path::Path, signal: &str) -> (Option<i32>, String) {
    let child = bin()
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("grundy starts");
    let start = Instant::now();
    // Give it time to be well inside the computation (the store is created at once).
    while start.elapsed() < Duration::from_millis(1500) && !dir.join("state.bin").exists() {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(700));
    let status = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let out = child.wait_with_output().expect("grundy ends");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn ctrl_c_keeps_finished_work_and_the_rerun_resumes() {
    let dir = std::env::temp_dir().join(format!("grundy-cli-stop-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let args = [
        "heap",
        "4!.0",
        "--upto",
        "2^22",
        "--checkpoint",
        d,
        "--summary",
        "--json",
        "--threads",
        "1",
    ];
    for signal in ["-INT", "-TERM"] {
        let (code, err) = interrupt(&args, &dir, signal);
        if code == Some(0) {
            // The machine was fast enough to finish first: nothing to resume.
            break;
        }
        assert_eq!(code, Some(130), "{signal}: {err}");
        assert!(
            err.contains("run the same command again to resume"),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    let resumed = bin().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&resumed.stderr);
    assert!(resumed.status.success(), "{err}");
    let whole = bin()
        .args([
            "heap",
            "4!.0",
            "--upto",
            "2^22",
            "--summary",
            "--json",
            "--threads",
            "1",
        ])
        .output()
        .unwrap();
    assert!(whole.status.success());
    assert_eq!(resumed.stdout, whole.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ctrl_c_without_a_checkpoint_stops_at_once() {
    let dir = std::env::temp_dir().join("grundy-cli-stop-none");
    let (code, err) = interrupt(
        &[
            "heap",
            "4!.0",
            "--upto",
            "2^24",
            "--summary",
            "--threads",
            "1",
        ],
        &dir,
        "-INT",
    );
    assert_eq!(code, Some(130), "{err}");
    assert!(err.contains("stopped"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// Ctrl-C stops a long Cram search: the table is written to `--table FILE`, the message says
/// how to resume, exit 130; a later run reads the table back (a table of shapes serves every
/// board, so a small board shows it at once).
#[test]
fn ctrl_c_keeps_the_cram_table() {
    let t = std::env::temp_dir().join(format!("grundy-cli-stop-cram-{}.table", std::process::id()));
    let _ = std::fs::remove_file(&t);
    let path = t.to_str().unwrap();
    let child = bin()
        .args(["cram", "6", "7", "--force", "--table", path, "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("grundy starts");
    std::thread::sleep(Duration::from_millis(1500));
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let out = child.wait_with_output().expect("grundy ends");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(out.stdout.is_empty());
    assert!(err.contains("board 6x7: stopped after"), "{err}");
    assert!(err.contains("again to resume"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(t.exists());
    let again = bin()
        .args(["cram", "4", "5", "--table", path, "--json"])
        .output()
        .unwrap();
    assert!(again.status.success());
    let v: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(v["grundy"], 2, "cram.txt: 4x5");
    assert!(v["details"]["resumed"].as_u64().unwrap() > 0, "{v}");
    let _ = std::fs::remove_file(&t);
}

/// `timeout -s INT` signals the run and then its whole process group, so the run gets two
/// SIGINTs a moment apart. They are one stop, not a second Ctrl-C: the run still writes its
/// table and says how to resume (before, the second signal quit at once and lost the table's
/// latest work). Skipped where `timeout` (GNU coreutils) is missing.
#[test]
fn a_stop_signalled_twice_at_once_is_one_stop() {
    if Command::new("timeout").arg("--version").output().is_err() {
        eprintln!("skipped: no `timeout` here");
        return;
    }
    let t = std::env::temp_dir().join(format!(
        "grundy-cli-stop-twice-{}.table",
        std::process::id()
    ));
    for _ in 0..3 {
        let _ = std::fs::remove_file(&t);
        let out = Command::new("timeout")
            .args(["-s", "INT", "1.5"])
            .arg(env!("CARGO_BIN_EXE_grundy"))
            .args(["cram", "6", "7", "--force", "--json", "--table"])
            .arg(&t)
            .output()
            .expect("timeout runs");
        let err = String::from_utf8_lossy(&out.stderr);
        // timeout's own status for a command it stopped.
        assert_eq!(out.status.code(), Some(124), "{err}");
        assert!(err.contains("board 6x7: stopped after"), "{err}");
        assert!(err.contains("again to resume"), "{err}");
        assert!(t.exists(), "{err}");
    }
    let _ = std::fs::remove_file(&t);
}
