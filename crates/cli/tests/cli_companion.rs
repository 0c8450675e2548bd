//! `grundy` and `grundy-full`: the commands `grundy` hands over (`script`, `play`, `serve`) work
//! through it as if it ran them, and a missing or stale `grundy-full` is said in one line.

mod common;

use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

fn kayles() -> String {
    format!(
        "{}/../../examples/games/kayles.lua",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// A fresh directory holding copies of the programs named (removed when dropped).
struct Install(PathBuf);

impl Install {
    fn new(tag: &str, programs: &[&str]) -> Install {
        let dir =
            std::env::temp_dir().join(format!("grundy-companion-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for p in programs {
            let from = match *p {
                "grundy" => env!("CARGO_BIN_EXE_grundy"),
                _ => env!("CARGO_BIN_EXE_grundy-full"),
            };
            // Copied by `cp`, a process of its own, so that this test process never holds a
            // descriptor open for writing on the copy: a child that another test thread
            // forks meanwhile would inherit it until its exec, and exec'ing the copy in that
            // window fails with "Text file busy" (seen on a loaded machine).
            let to = dir.join(p);
            let copied = Command::new("cp")
                .arg(from)
                .arg(&to)
                .status()
                .is_ok_and(|s| s.success());
            if !copied {
                std::fs::copy(from, &to).unwrap();
            }
        }
        Install(dir)
    }
    fn path(&self, program: &str) -> PathBuf {
        self.0.join(program)
    }
    fn run(&self, args: &[&str]) -> std::process::Output {
        Command::new(self.path("grundy"))
            .args(args)
            .output()
            .unwrap()
    }
}

impl Drop for Install {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn set_age(path: &Path, seconds_ago: u64) {
    let when = std::time::SystemTime::now() - std::time::Duration::from_secs(seconds_ago);
    // Opened for reading only, for the reason `Install::new` copies by `cp`.
    std::fs::File::open(path)
        .unwrap()
        .set_modified(when)
        .unwrap();
}

#[test]
fn handed_commands_run_through_grundy() {
    let out = ok(&["script", &kayles(), "7", "9", "12"]);
    assert!(out.contains("their XOR is 2"), "{out}");
    let j = json(&["script", &kayles(), "--json", "7", "9", "12"]);
    assert_eq!(j["outcome"], "N");
    assert_eq!(j["grundy"], 2);
}

#[test]
fn help_lists_every_command_and_each_handed_command_has_its_own() {
    let top = ok(&["--help"]);
    for c in ["heap", "survey", "script", "play", "serve"] {
        assert!(top.contains(&format!("  {c} ")), "{c} missing from:\n{top}");
    }
    for args in [vec!["script", "--help"], vec!["help", "script"]] {
        let text = ok(&args);
        assert!(
            text.contains("FILE.lua") && text.contains("--max-steps"),
            "{args:?}: {text}"
        );
    }
    assert!(ok(&["serve", "--help"]).contains("--max-upto"));
    assert!(ok(&["play", "--help"]).contains("--first"));
    assert_eq!(
        ok(&["--version"]),
        format!("grundy {}\n", env!("CARGO_PKG_VERSION"))
    );
    assert_eq!(
        ok(&["script", "--version"]),
        format!("grundy-script {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn usage_errors_of_handed_commands_read_as_grundy_s_own() {
    bad(&["script"], "FILE.lua");
    bad(&["script", &kayles(), "--upto", "ten"], "--upto");
    bad(&["serve", "--max-upto", "lots"], "--max-upto");
    bad(&["play", "kayles", "3", "--first", "nobody"], "--first");
}

#[test]
fn a_missing_companion_is_named_with_how_to_install_it() {
    let alone = Install::new("alone", &["grundy"]);
    // The engines' commands need nothing else.
    let out = alone.run(&["nim", "3", "4", "5"]);
    assert!(out.status.success());
    let out = alone.run(&["script", &kayles(), "7"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(out.stdout.is_empty());
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.starts_with("grundy: error: ")
            && err.contains("grundy-full")
            && err.contains("cargo install --path crates/cli"),
        "{err}"
    );
}

#[test]
fn a_stale_companion_is_warned_of_and_still_runs() {
    let both = Install::new("stale", &["grundy", "grundy-full"]);
    let fresh = both.run(&["script", &kayles(), "7"]);
    assert!(fresh.status.success());
    assert!(
        fresh.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&fresh.stderr)
    );
    set_age(&both.path("grundy-full"), 3600);
    let stale = both.run(&["script", &kayles(), "7"]);
    let err = String::from_utf8_lossy(&stale.stderr);
    assert!(stale.status.success(), "{err}");
    assert_eq!(stale.stdout, fresh.stdout);
    assert!(
        err.starts_with("grundy: warning: ") && err.contains("stale"),
        "{err}"
    );
}
