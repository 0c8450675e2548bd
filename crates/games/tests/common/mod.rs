//! Reading the reference data files of the games tests.

#![allow(dead_code)] // each test file uses its own subset

use std::str::FromStr;

/// The data lines of a reference file: blank lines and `#` comments skipped.
pub fn data_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
}

/// The comma-separated values of the first `other_heap_games.txt` row starting with `name`
/// (its fourth `|` field).
pub fn cgsuite_row<T: FromStr>(text: &str, name: &str) -> Vec<T>
where
    T::Err: std::fmt::Debug,
{
    let line = data_lines(text)
        .find(|l| l.starts_with(name))
        .unwrap_or_else(|| panic!("no row '{name}'"));
    line.split('|')
        .nth(3)
        .expect("a fourth field")
        .trim()
        .split(',')
        .map(|v| v.parse().expect("a value"))
        .collect()
}
