//! Lays out the functions that every `grundy` question runs side by side in the executable.
//!
//! The kernel maps a program's code into memory 64 KiB around each page first touched, so the
//! resident size of a short question is set by how many 64 KiB stretches of the 5.5 MB of code
//! its functions are scattered over: `grundy cram 4 9 --moves value` ran 320 functions (470 KB)
//! spread over 62 of the 87 stretches, 3 MB resident. `symbol-order.txt` lists those functions
//! (those of `--version`, `cram`, `analyze`, `node-kayles`, by `bench/symbol-order.sh`), and
//! the linker puts them first, together (docs/benchmarks.md, "Every door beside its engine").
//!
//! Only where rustc links with its own LLD (the default on x86_64 Linux from Rust 1.90), which
//! reads the list; names it does not find (another compiler, changed code) are skipped
//! silently: the order is a layout, never a change of behaviour.

use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=symbol-order.txt");
    println!("cargo:rerun-if-env-changed=CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER");
    let env = |k: &str| std::env::var(k).unwrap_or_default();
    if env("TARGET") != "x86_64-unknown-linux-gnu" || self_linker_unsure(&env) {
        return;
    }
    let order = Path::new(&env("CARGO_MANIFEST_DIR")).join("symbol-order.txt");
    if !order.is_file() {
        return;
    }
    println!(
        "cargo:rustc-link-arg-bin=grundy=-Wl,--symbol-ordering-file={}",
        order.display()
    );
    println!("cargo:rustc-link-arg-bin=grundy=-Wl,--no-warn-symbol-ordering");
}

/// True unless the link is rustc's own LLD: a rustc from 1.90 on, with no linker chosen by
/// the environment or the flags (GNU ld rejects the ordering option).
fn self_linker_unsure(env: &dyn Fn(&str) -> String) -> bool {
    if !env("CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER").is_empty() {
        return true;
    }
    let flags = env("CARGO_ENCODED_RUSTFLAGS");
    if flags.contains("linker") || flags.contains("link-self-contained") {
        return true;
    }
    let rustc = match env("RUSTC") {
        r if r.is_empty() => "rustc".to_string(),
        r => r,
    };
    let Ok(out) = Command::new(&rustc).arg("--version").output() else {
        return true;
    };
    // "rustc 1.95.0 (59807616e 2026-04-14)"
    let text = String::from_utf8_lossy(&out.stdout);
    let minor = text
        .split_whitespace()
        .nth(1)
        .and_then(|v| v.split('.').nth(1))
        .and_then(|m| m.parse::<u32>().ok());
    if !matches!(minor, Some(m) if m >= 90) {
        return true;
    }
    // A rustc without its own LLD in the sysroot (some distributions' builds) links with the
    // system's linker, which may be GNU ld.
    let Ok(out) = Command::new(&rustc).args(["--print", "sysroot"]).output() else {
        return true;
    };
    let sysroot = String::from_utf8_lossy(&out.stdout).trim().to_string();
    !Path::new(&sysroot)
        .join("lib/rustlib/x86_64-unknown-linux-gnu/bin/gcc-ld/ld.lld")
        .exists()
}
