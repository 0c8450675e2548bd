//! Findings of `crates/grundy/tests/fuzz_parsers.rs` in pattern races, kept as tests: patterns,
//! symbols and probability entries are escaped in errors (one line, no raw control bytes).

use grundy_penney::report::{self, RaceOptions};
use grundy_penney::Alphabet;

fn clean(m: &str) {
    assert!(!m.chars().any(char::is_control), "{m:?}");
}

#[test]
fn control_characters_in_patterns_are_escaped() {
    // Fuzz finding: the pattern "\0" gave "pattern '\0' uses '\0', …" with raw NULs.
    let e = report::race(
        Alphabet::coin(),
        &["\0"],
        &RaceOptions::default(),
        &mut |_| {},
    )
    .unwrap_err()
    .to_string();
    clean(&e);
    assert!(e.contains(r"'\0'"), "{e}");
    let e = report::race(
        Alphabet::coin(),
        &["H\nT", "H\nT"],
        &RaceOptions::default(),
        &mut |_| {},
    )
    .unwrap_err()
    .to_string();
    clean(&e);
}

#[test]
fn control_characters_in_alphabets_and_probabilities_are_escaped() {
    for (symbols, probs) in [
        (Some("H\nH"), None),
        (None, Some("H=1/2,\x1b=x")),
        (None, Some("H=1/2\n")),
        (None, Some("H\x01=1/2,T=1/2")),
        (None, Some("\u{7f}=0,T=1")),
        (Some("A\nB"), Some("H=1/2,T=1/2")),
    ] {
        let e = Alphabet::from_spec(symbols, probs).unwrap_err().to_string();
        clean(&e);
    }
    // Patterns over an alphabet of control characters: replies and containment name them
    // escaped.
    let al = Alphabet::uniform("\x01").unwrap();
    let e = report::best_reply(&al, "\x01").unwrap_err().to_string();
    clean(&e);
}
