//! The catalogue: one registry of every game, which every front end iterates.
//!
//! A game is one [`Entry`] in one family crate (or, for the heap games that need the facade's
//! engine choice, in [`heaps`]); the [`Registry`] lists them all, finds a game by its name and
//! opens its [`Rules`]. `grundy games`, `GET /api/games` and Python's `grundy.games()` print
//! [`Registry::list`]; `grundy analyze`, `GET /api/analyze` and `grundy.analyze` call
//! [`Registry::analyze`] and print its [`Report`]; the terminal and web games play any
//! registered game through [`Rules::moves`]. No front end names a game.
//!
//! Adding a game to a family touches three files: its module (the game, its [`Entry`] and
//! [`Rules`]: [`Solved`] gives them for free to any [`crate::Game`] with a [`Notation`]), its
//! family's list of entries (`entries()` in the family crate), and its test.
//!
//! ```
//! use grundy::catalogue::{Budget, Play, Registry};
//!
//! let registry = Registry::new();
//! assert!(registry.list().iter().any(|g| g.name == "node-kayles"));
//! let report = registry.analyze("kayles", "5 7 9", Play::Normal, &Budget::default())?;
//! assert_eq!(report.outcome, grundy::Outcome::N);
//! // Kayles heaps 5, 7, 9 have values 4, 2, 4: their XOR is 2.
//! assert_eq!(report.grundy, Some(2u64.into()));
//! # Ok::<(), grundy::Error>(())
//! ```

pub mod graph;
pub mod heaps;
pub mod script;

pub use grundy_core::catalogue::*;

use crate::text::quote;

/// Every game the library knows, in the order `grundy games` lists them, plus games registered
/// at run time (Lua scripts).
pub struct Registry {
    entries: Vec<Box<dyn Entry>>,
}

impl Default for Registry {
    fn default() -> Self {
        Registry::new()
    }
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.entries.iter().map(|e| e.info().name))
            .finish()
    }
}

impl Registry {
    /// The built-in games: heap games (Nim, misère Nim, every named rule, the rule families),
    /// the catalogue games of `grundy-games`, games on directed graphs.
    pub fn new() -> Registry {
        let mut entries = heaps::entries();
        entries.extend(grundy_games::entries());
        entries.push(Box::new(graph::DigraphEntry));
        entries.extend(grundy_board::catalogue::entries());
        entries.extend(grundy_loopy::catalogue::entries());
        Registry { entries }
    }

    /// Adds a game known only at run time (a Lua script); it is found before the built-ins.
    pub fn register(&mut self, entry: Box<dyn Entry>) {
        self.entries.insert(0, entry);
    }

    /// What `grundy games` lists: every game's [`Info`].
    pub fn list(&self) -> Vec<Info> {
        self.entries.iter().map(|e| e.info()).collect()
    }

    /// The entries themselves.
    pub fn entries(&self) -> impl Iterator<Item = &dyn Entry> {
        self.entries.iter().map(|e| e.as_ref())
    }

    /// The entry that knows `name` (case-insensitive).
    pub fn find(&self, name: &str) -> crate::Result<&dyn Entry> {
        let key = name.trim().to_ascii_lowercase();
        self.entries
            .iter()
            .find(|e| e.matches(&key))
            .map(|e| e.as_ref())
            .ok_or_else(|| {
                // A member of a heap family that does not parse (`sub:x`, `0.9x`): the rule's
                // own error, which says what the family accepts.
                let family = ["sub:", "allbut:"].iter().any(|p| key.starts_with(p))
                    || key.starts_with(|c: char| c.is_ascii_digit());
                if let (true, Err(e)) = (family, crate::heap::parse(name.trim())) {
                    return Error::input(e.to_string()).into();
                }
                Error::input(format!(
                    "unknown game {}: not a game of the catalogue nor a heap rule (the list: grundy games)",
                    quote(name.trim())
                ))
                .into()
            })
    }

    /// Opens the game `name`.
    pub fn open(&self, name: &str) -> crate::Result<Box<dyn Rules>> {
        let key = name.trim().to_ascii_lowercase();
        Ok(self.find(name)?.open(&key)?)
    }

    /// Answers `ask` about `position` of the game `name`: the one call behind every game
    /// command (`grundy cram 5 7`), `grundy analyze`, `GET /api/analyze` and
    /// `grundy.analyze`. The question's settings are checked against the params the game's
    /// entry declares first (an unknown one is refused, naming those it takes).
    pub fn ask(&self, name: &str, position: &str, ask: &Ask) -> crate::Result<Report> {
        let entry = self.find(name)?;
        ask.settings.check(&entry.info().params)?;
        let key = name.trim().to_ascii_lowercase();
        let mut rules = entry.open(&key)?;
        let pos = rules.parse(position)?;
        Ok(rules.analyze(&pos, ask)?)
    }

    /// Analyses `position` of the game `name` under `play` within `budget`, with its winning
    /// moves: [`Registry::ask`] with the default question.
    pub fn analyze(
        &self,
        name: &str,
        position: &str,
        play: Play,
        budget: &Budget,
    ) -> crate::Result<Report> {
        self.ask(name, position, &Ask::new(play).budget(*budget))
    }

    /// The value and outcome of each position `0`, `1`, …, `upto` of the game `name`, for the
    /// games whose positions are numbers (a heap rule's single heap, a `windup:N:S` position,
    /// a Fibonacci pile): the one call behind `grundy analyze GAME --upto N`. A number the
    /// game refuses (past a `windup` family's last position) is an input error naming it.
    pub fn values(
        &self,
        name: &str,
        upto: u64,
        play: Play,
        budget: &Budget,
    ) -> crate::Result<Values> {
        if upto > MAX_VALUES {
            return Err(crate::Error::Catalogue(
                grundy_core::catalogue::Error::input(format!(
                    "{upto} positions to value: at most {MAX_VALUES} at once"
                )),
            ));
        }
        let mut rules = self.open(name)?;
        let mut rows = Vec::new();
        let ask = Ask::new(play).budget(*budget).detail(Detail::Value);
        for n in 0..=upto {
            let pos = rules.parse(&n.to_string())?;
            let r = rules.analyze(&pos, &ask)?;
            rows.push(Value {
                position: pos.text,
                outcome: r.outcome,
                grundy: r.grundy,
            });
        }
        Ok(Values {
            game: rules.name(),
            misere: play == Play::Misere,
            values: rows,
        })
    }
}

/// The most positions [`Registry::values`] values in one call.
pub const MAX_VALUES: u64 = 1_000_000;

/// The positions `0..=upto` of one game, valued ([`Registry::values`]).
///
/// JSON: `{"game": "windup:8:3,5", "misere": false, "values": [{"position": "0",
/// "outcome": "P", "grundy": 0}, …]}`, `grundy` as in a [`Report`] (`{"infinite": [0, 2]}`
/// for ∞(0,2); `null` under misère play).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Values {
    /// The game, as the registry names it.
    pub game: String,
    /// True under misère play.
    pub misere: bool,
    /// One row per position, in order.
    pub values: Vec<Value>,
}

/// One valued position of [`Values`].
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Value {
    /// The position, in the game's notation.
    pub position: String,
    /// Who wins from it (`D` for a drawn position of a loopy game).
    pub outcome: crate::Outcome,
    /// Its value, where the question has one.
    pub grundy: Option<Grundy>,
}

impl Values {
    /// A table for people: `position  value  outcome`, one line each.
    pub fn describe(&self) -> String {
        let width = self
            .values
            .iter()
            .map(|v| v.position.len())
            .max()
            .unwrap_or(1)
            .max(8);
        let mut s = format!(
            "{}{}\n{:width$}  {:8}  outcome\n",
            self.game,
            if self.misere { " (misère play)" } else { "" },
            "position",
            "value",
        );
        for v in &self.values {
            let value = v.grundy.as_ref().map_or("-".to_string(), |g| g.to_string());
            s.push_str(&format!(
                "{:width$}  {:8}  {}\n",
                v.position, value, v.outcome
            ));
        }
        s
    }
}

/// Every built-in game's [`Info`] ([`Registry::list`] of [`Registry::new`]).
pub fn games() -> Vec<Info> {
    Registry::new().list()
}

/// [`Registry::values`] on the built-in games.
pub fn values(name: &str, upto: u64, play: Play, budget: &Budget) -> crate::Result<Values> {
    Registry::new().values(name, upto, play, budget)
}

/// [`Registry::analyze`] on the built-in games.
pub fn analyze(name: &str, position: &str, play: Play, budget: &Budget) -> crate::Result<Report> {
    Registry::new().analyze(name, position, play, budget)
}

/// A budget whose byte cap is the smaller of `budget`'s and the memory this process may use
/// ([`crate::limits`]).
pub fn within_memory(budget: Budget) -> Budget {
    let avail = crate::limits::memory_budget();
    Budget {
        max_bytes: budget.max_bytes.min(avail),
        ..budget
    }
}
