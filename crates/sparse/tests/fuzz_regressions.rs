//! Findings of the fuzzers (`crates/grundy/tests/fuzz_parsers.rs`, `crates/cli/tests/fuzz_cli.rs`)
//! in checkpoint and save directories, kept as tests.

use grundy_heap::rule::format_code;
use grundy_heap::TakeBreak;
use grundy_sparse::{Error, Store, FORMAT_VERSION, STATE_FILE};

fn code(text: &str) -> TakeBreak {
    grundy_heap::rule::parse(text)
        .unwrap()
        .take_break()
        .unwrap()
}

#[test]
fn a_file_is_not_a_checkpoint_directory() {
    // Fuzz finding: `--checkpoint /dev/null` said "creating /dev/null: File exists (os error
    // 17)", an I/O failure, instead of naming the mistake.
    let file = std::env::temp_dir().join(format!("grundy-not-a-dir-{}", std::process::id()));
    std::fs::write(&file, b"x").unwrap();
    for path in [std::path::Path::new("/dev/null"), file.as_path()] {
        let e = Store::open(path, &code("4!.0"), 100).err().unwrap();
        assert!(matches!(e, Error::BadFile(_)), "{e:?}");
        assert!(e.to_string().contains("is not a directory"), "{e}");
    }
    let _ = std::fs::remove_file(&file);
}

#[test]
fn a_forged_rule_is_escaped_in_the_message() {
    // Fuzz finding: a sealed state file whose rule held the byte 0x14 was named raw in "is a
    // checkpoint of rule …".
    let dir = std::env::temp_dir().join(format!("grundy-forged-rule-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let genuine = format_code(&code("4!.0"));
    let forged = format!("\u{14}{}\n", &genuine[1..]);
    let mut b = b"GRUNDYST".to_vec();
    b.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    b.extend_from_slice(&(forged.len() as u32).to_le_bytes());
    b.extend_from_slice(forged.as_bytes());
    for x in [100u64, 0, 0, 0] {
        b.extend_from_slice(&x.to_le_bytes());
    }
    let crc = crc32fast::hash(&b);
    b.extend_from_slice(&crc.to_le_bytes());
    std::fs::write(dir.join(STATE_FILE), b).unwrap();
    let store = Store::open(&dir, &code("4!.0"), 100).unwrap();
    let e = store.read_state().unwrap_err().to_string();
    assert!(!e.chars().any(char::is_control), "{e:?}");
    assert!(e.contains(r"\u{14}"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}
