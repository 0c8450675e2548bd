//! Findings of `crates/grundy/tests/fuzz_parsers.rs` in the rule parser, kept as tests: every
//! error is one line with the offending text escaped (a newline, a NUL or a terminal control
//! byte in a rule never reaches the terminal raw).

use grundy_heap::rule::parse;

/// The message of a rule that must be refused.
fn refusal(text: &str) -> String {
    parse(text).expect_err(text).to_string()
}

fn assert_clean(msg: &str) {
    assert!(!msg.chars().any(char::is_control), "{msg:?}");
}

#[test]
fn control_characters_in_rules_are_escaped() {
    // Fuzz finding: "!\u{7f}\0" was echoed raw inside "unknown rule '…'".
    let m = refusal("!\u{7f}\0");
    assert_clean(&m);
    assert!(m.contains(r"'!\u{7f}\0'"), "{m}");
    for text in [
        "kay\nles",
        "0.7\n7",
        "0.7\x1b[31m",
        "sub:1,\x01",
        "sub:1,x\ty",
        "allbut:\x02",
        "0.[3\n",
        "4!\n.0",
        "0.7!!\u{85}",
    ] {
        let m = refusal(text);
        assert_clean(&m);
    }
}

#[test]
fn long_rules_are_cut_in_messages() {
    let m = refusal(&"z".repeat(100_000));
    assert!(m.len() < 1000, "{} bytes", m.len());
    let m = refusal(&format!("sub:{}", "9".repeat(100_000)));
    assert!(m.len() < 1000, "{} bytes", m.len());
}
