//! Running the `grundy` binary as a user would, for the CLI test files.
//!
//! Each helper has a `_stdin` twin that feeds standard input.

#![allow(dead_code)] // each test file uses its own subset

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// The quotient cache directory of this test process's runs (`GRUNDY_CACHE_DIR`): never the
/// user's own cache.
pub fn test_cache_dir() -> std::path::PathBuf {
    std::env::temp_dir().join(format!("grundy-cli-test-cache-{}", std::process::id()))
}

/// Runs `grundy ARGS` with `stdin` on standard input.
pub fn grundy_stdin(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .env("GRUNDY_CACHE_DIR", test_cache_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the grundy binary runs");
    let mut input = child.stdin.take().expect("stdin is piped");
    let data = stdin.to_vec();
    // A separate writer, so a large input cannot deadlock against a full stdout pipe.
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().expect("grundy finishes");
    writer.join().expect("the stdin writer finishes");
    out
}

pub fn grundy(args: &[&str]) -> Output {
    grundy_stdin(args, b"")
}

/// Stdout of a run that must succeed.
pub fn ok_stdin(args: &[&str], stdin: &[u8]) -> String {
    let out = grundy_stdin(args, stdin);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("stdout is UTF-8")
}

pub fn ok(args: &[&str]) -> String {
    ok_stdin(args, b"")
}

/// The one JSON object, on one line, of a run that must succeed.
pub fn json_stdin(args: &[&str], stdin: &[u8]) -> serde_json::Value {
    let text = ok_stdin(args, stdin);
    assert_eq!(text.lines().count(), 1, "one JSON object on one line");
    serde_json::from_str(&text).expect("valid JSON")
}

pub fn json(args: &[&str]) -> serde_json::Value {
    json_stdin(args, b"")
}

/// Exit code 2, nothing on stdout, one line on stderr that names `token`.
pub fn bad_stdin(args: &[&str], stdin: &[u8], token: &str) {
    let out = grundy_stdin(args, stdin);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(
        out.stdout.is_empty(),
        "{args:?} printed {:?}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    assert!(
        err.contains(token),
        "{args:?}: '{err}' does not name '{token}'"
    );
}

pub fn bad(args: &[&str], token: &str) {
    bad_stdin(args, b"", token)
}
