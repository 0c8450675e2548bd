//! Famous heap games and contest games that are heap games in disguise, by name.
//!
//! Each entry gives the game's rules, the heap size a user types (the natural one: pins,
//! cells, vertices) and the underlying rule with the index shift:
//! `G_game(n) = G_rule(n + shift)`.
//!
//! ```
//! use grundy_heap::named;
//! let crosses = named::find("Crosses").unwrap();
//! assert_eq!((crosses.rule, crosses.shift), ("0.007", 2));
//! ```

/// A heap game known by name.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct NamedGame {
    /// The name typed on the command line.
    pub name: &'static str,
    /// Other accepted spellings.
    pub aliases: &'static [&'static str],
    /// The underlying rule in the rule language.
    pub rule: &'static str,
    /// `G_game(n) = G_rule(n + shift)`.
    pub shift: u64,
    /// What the heap size `n` counts.
    pub size: &'static str,
    /// The rules in one or two sentences.
    pub description: &'static str,
}

/// Every named game.
pub static GAMES: &[NamedGame] = &[
    NamedGame {
        name: "nim",
        aliases: &[],
        rule: "0.[3]",
        shift: 0,
        size: "tokens",
        description: "Remove any positive number of tokens from one heap.",
    },
    NamedGame {
        name: "kayles",
        aliases: &[],
        rule: "0.77",
        shift: 0,
        size: "pins in a row",
        description: "Knock down one pin or two adjacent pins; the row may split in two.",
    },
    NamedGame {
        name: "dawsons-kayles",
        aliases: &["dawson-kayles"],
        rule: "0.07",
        shift: 0,
        size: "pins in a row",
        description: "Knock down exactly two adjacent pins; the row may split in two.",
    },
    NamedGame {
        name: "dawsons-chess",
        aliases: &["dawson-chess"],
        rule: "0.137",
        shift: 0,
        size: "files of a 3×n board",
        description: "Pawns on ranks 1 and 3 of a 3×n board, captures compulsory: \
                      equivalent to removing one token (only a lone one), two (from an end), \
                      or three (possibly splitting).",
    },
    NamedGame {
        name: "treblecross",
        aliases: &[],
        rule: "0.007",
        shift: 2,
        size: "cells of a 1×n strip",
        description: "Players put crosses on a 1×n strip; whoever completes three in a row \
                      wins. Never play within two cells of a cross, so each move removes a \
                      5-cell zone: code 0.007 on a heap of n + 2.",
    },
    NamedGame {
        name: "crosses",
        aliases: &["crosses-and-crosses"],
        rule: "0.007",
        shift: 2,
        size: "cells of a 1×n strip",
        description: "Crosses-and-crosses (BOJ 3596): treblecross under another name; a \
                      position with marks splits into independent gaps.",
    },
    NamedGame {
        name: "officers",
        aliases: &[],
        rule: "0.6",
        shift: 0,
        size: "tokens",
        description: "Remove one token from a heap of at least two, leaving one or two heaps.",
    },
    NamedGame {
        name: "grundys-game",
        aliases: &["grundy", "grundys"],
        rule: "4!.0",
        shift: 0,
        size: "tokens",
        description: "Split one heap into two heaps of different sizes.",
    },
    NamedGame {
        name: "pimber",
        aliases: &[],
        rule: "sub:fib",
        shift: 0,
        size: "tokens",
        description: "Remove a Fibonacci number (1, 2, 3, 5, 8, …) of tokens from one heap.",
    },
    NamedGame {
        name: "odd-even-nim",
        aliases: &[],
        rule: "0.[12]",
        shift: 0,
        size: "tokens",
        description: "Take an odd number only if it empties the heap, an even number only if \
                      it does not (BOJ 11871).",
    },
    NamedGame {
        name: "polygon-chords",
        aliases: &["polygon"],
        rule: "0.07",
        shift: 0,
        size: "vertices of a convex polygon",
        description: "Draw a chord between two unused vertices that crosses no chord; each \
                      chord uses two vertices and splits the rest in two (BOJ 13034): \
                      Dawson's Kayles on the vertices.",
    },
    NamedGame {
        name: "kings",
        aliases: &[],
        rule: "0.[3]",
        shift: 0,
        size: "empty squares between the two kings on a bridge",
        description: "Two kings on a 1-wide bridge move toward each other any number of \
                      squares without passing: Nim on the gap between them.",
    },
];

/// The game with this name or alias (case-insensitive, `_` and `-` alike).
pub fn find(name: &str) -> Option<&'static NamedGame> {
    let key = name
        .trim()
        .to_ascii_lowercase()
        .replace(['_', '\''], "-")
        .replace("--", "-");
    GAMES
        .iter()
        .find(|g| g.name == key || g.aliases.contains(&key.as_str()))
}

/// All names, for error messages and help.
pub fn names() -> Vec<&'static str> {
    GAMES.iter().map(|g| g.name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_parses() {
        for g in GAMES {
            assert!(crate::rule::parse(g.rule).is_ok(), "{}", g.name);
            assert!(!matches!(
                crate::rule::parse(g.rule),
                Ok(crate::rule::Rule::Named { .. })
            ));
        }
        assert_eq!(find("Grundys_Game").unwrap().rule, "4!.0");
        assert!(find("nosuch").is_none());
    }
}
