//! Findings of `crates/grundy/tests/fuzz_parsers.rs` in the number parser every game shares,
//! kept as tests: a token with a control character or a newline is escaped in the one-line
//! error, never echoed raw.

use grundy_games::{parse_bounded, parse_count};

mod common;

#[test]
fn control_characters_in_numbers_are_escaped() {
    // Fuzz findings: "\u{7f}" as Chomp rows and "\0" as a Wythoff heap were echoed raw.
    for text in ["\u{7f}", "\0", "1\n2", "-\x1b[2J", "\u{2028}"] {
        let m = parse_count(text, "heap").unwrap_err().to_string();
        assert!(!m.chars().any(char::is_control), "{m:?}");
        let m = parse_bounded(text, "rows", 1, 16).unwrap_err().to_string();
        assert!(!m.chars().any(char::is_control), "{m:?}");
    }
    let m = parse_count("1\n2", "pile").unwrap_err().to_string();
    assert!(m.contains(r"'1\n2'"), "{m}");
}

#[test]
fn out_of_range_numbers_are_quoted_and_cut() {
    let m = parse_bounded(&"9".repeat(50_000), "rows", 1, 16)
        .unwrap_err()
        .to_string();
    assert!(m.len() < 1000, "{} bytes", m.len());
    let m = parse_bounded("-5", "rows", 1, 16).unwrap_err().to_string();
    assert!(m.contains("'-5'"), "{m}");
}

#[test]
fn a_long_corridor_takes_little_memory() {
    // Fuzz finding: a maze file of one 435482-cell line made `grundy maze` allocate 23.7 GB
    // (one bitset per column as wide as rows + columns) and abort. Wide mazes are now solved
    // transposed; a floor corridor is Nim: the cell in column c has value c.
    use grundy_games::maze;
    let n = 400_000;
    let mut text = ".".repeat(n);
    text.push('@');
    let mazes = maze::parse_mazes(&text).unwrap();
    let v = mazes[0].grundy_values();
    for c in [0, 1, 2, 1000, n - 1, n] {
        assert_eq!(v.get((0, c)), Some(c as u64));
    }
    let a = common::report("maze", &text);
    assert_eq!(a.grundy, Some(grundy_core::Grundy::Finite(n as u64)));
    // A wall line of the same length: no floor, no figure.
    let walls = maze::parse_mazes(&"#".repeat(n)).unwrap();
    assert_eq!(walls[0].grundy_values().max(), None);
}
