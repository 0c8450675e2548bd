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

/// The report of `position` of the game `game` (a game of this crate) for `ask`: the catalogue
/// entry, the one door of every game.
pub fn ask(
    game: &str,
    position: &str,
    ask: &grundy_core::catalogue::Ask,
) -> grundy_core::catalogue::Result<grundy_core::catalogue::Report> {
    let key = game.to_ascii_lowercase();
    let entry = grundy_games::entries()
        .into_iter()
        .find(|e| e.matches(&key))
        .unwrap_or_else(|| panic!("{game}: not a game of this crate"));
    let mut rules = entry.open(&key)?;
    let pos = rules.parse(position)?;
    rules.analyze(&pos, ask)
}

/// The report of `position` of `game` under normal play, its winning moves listed.
pub fn report(game: &str, position: &str) -> grundy_core::catalogue::Report {
    let normal = grundy_core::catalogue::Ask::new(grundy_core::Play::Normal);
    ask(game, position, &normal).unwrap_or_else(|e| panic!("{game} {position}: {e}"))
}

/// A sum of mazes in the notation the catalogue reads: rows joined by `|`, mazes by `||`.
pub fn maze_text(mazes: &[grundy_games::maze::Maze]) -> String {
    let one = |m: &grundy_games::maze::Maze| -> String {
        (0..m.rows())
            .map(|r| {
                (0..m.cols())
                    .map(|c| match (m.is_wall((r, c)), m.figure() == Some((r, c))) {
                        (true, _) => '#',
                        (false, true) => '@',
                        (false, false) => '.',
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("|")
    };
    mazes.iter().map(one).collect::<Vec<_>>().join("||")
}

/// A wall-making board in the notation the catalogue reads: rows joined by `|`.
pub fn board_text(board: &grundy_games::walls::Board) -> String {
    (0..board.rows())
        .map(|r| {
            (0..board.cols())
                .map(|c| if board.is_free(r, c) { '.' } else { 'X' })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("|")
}
