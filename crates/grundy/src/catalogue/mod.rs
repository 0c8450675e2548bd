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
mod nim;
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

    /// [`Registry::ask`] for a position handed over in pieces (a front end reading a large file
    /// or standard input): feed the returned [`Feed`] each chunk of the text as it is read,
    /// then [`Feed::finish`] it for the report. A game that reads its positions as a stream
    /// (Nim) never holds the text; for the others the feed collects it (it must be UTF-8)
    /// and asks as [`Registry::ask`] does.
    pub fn feed(&self, name: &str, ask: &Ask) -> crate::Result<Box<dyn Feed>> {
        let entry = self.find(name)?;
        ask.settings.check(&entry.info().params)?;
        let key = name.trim().to_ascii_lowercase();
        let rules = entry.open(&key)?;
        Ok(match rules.feed(ask) {
            Some(feed) => feed,
            None => Box::new(Whole {
                rules,
                ask: ask.clone(),
                bytes: Vec::new(),
            }),
        })
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
    /// a Fibonacci pile), or of each position (x, y) with 0 ≤ x, y ≤ `upto` for a game of two
    /// heaps (positions of kind `pair`: Wythoff's game), its grid of values: the one call
    /// behind `grundy analyze GAME --upto N` (and its `--plot`). `ask` gives the play, the
    /// budget, the game's settings and the controls of long work (its detail is not used: each
    /// position is asked for its value only). A number the game refuses (past a `windup`
    /// family's last position) is an input error naming it; at most [`MAX_VALUES`] positions.
    pub fn values(&self, name: &str, upto: u64, ask: &Ask) -> crate::Result<Values> {
        let entry = self.find(name)?;
        let info = entry.info();
        ask.settings.check(&info.params)?;
        let side = (info.kind == "pair").then(|| upto.saturating_add(1));
        let count = match side {
            Some(n) => n.saturating_mul(n),
            None => upto.saturating_add(1),
        };
        if count > MAX_VALUES {
            return Err(Error::input(format!(
                "{count} positions to value: at most {MAX_VALUES} at once"
            ))
            .into());
        }
        let mut rules = entry.open(&name.trim().to_ascii_lowercase())?;
        let mut rows = Vec::with_capacity(count as usize);
        let each = ask.clone().detail(Detail::Value);
        for i in 0..count {
            let text = match side {
                Some(n) => format!("{} {}", i / n, i % n),
                None => i.to_string(),
            };
            let pos = rules.parse(&text)?;
            let r = rules.analyze(&pos, &each)?;
            rows.push(Value {
                position: pos.text,
                outcome: r.outcome,
                grundy: r.grundy,
            });
            if i % 4096 == 4095 && !ask.report(i + 1, count, "positions") {
                return Err(ask.stopped_error("valuing the positions").into());
            }
        }
        Ok(Values {
            game: rules.name(),
            misere: ask.play == Play::Misere,
            side,
            values: rows,
        })
    }
}

/// A position collected whole from its pieces, then asked as [`Registry::ask`] does: the feed
/// of the games that read their positions from text.
struct Whole {
    rules: Box<dyn Rules>,
    ask: Ask,
    bytes: Vec<u8>,
}

impl Feed for Whole {
    fn feed(&mut self, bytes: &[u8]) -> grundy_core::catalogue::Result<()> {
        self.bytes.extend_from_slice(bytes);
        Ok(())
    }

    fn finish(self: Box<Self>) -> grundy_core::catalogue::Result<Report> {
        let Whole {
            mut rules,
            ask,
            bytes,
        } = *self;
        let text =
            String::from_utf8(bytes).map_err(|_| Error::input("the position is not UTF-8 text"))?;
        let pos = rules.parse(&text)?;
        rules.analyze(&pos, &ask)
    }
}

/// The most positions [`Registry::values`] values in one call.
pub const MAX_VALUES: u64 = 1_000_000;

/// The positions `0..=upto` of one game, valued ([`Registry::values`]); for a game of two
/// heaps, the grid of positions (x, y), 0 ≤ x, y ≤ upto, row by row.
///
/// JSON: `{"game": "windup:8:3,5", "misere": false, "values": [{"position": "0",
/// "outcome": "P", "grundy": 0}, …]}`, `grundy` as in a [`Report`] (`{"infinite": [0, 2]}`
/// for ∞(0,2); `null` under misère play); a grid adds `"side": n` (its rows and columns), its
/// `values` row-major with positions `"x y"`.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Values {
    /// The game, as the registry names it.
    pub game: String,
    /// True under misère play.
    pub misere: bool,
    /// For a game of two heaps, the side of the grid (upto + 1): `values` is row x, column y
    /// at index x · side + y. `None` for a line of positions 0..=upto.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub side: Option<u64>,
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
    /// A table for people: `position  value  outcome`, one line each; a grid as the grid of
    /// values (row x, column y; an outcome letter where a position has no value).
    pub fn describe(&self) -> String {
        let misere = if self.misere { " (misère play)" } else { "" };
        let cell = |v: &Value| match &v.grundy {
            Some(g) => g.to_string(),
            None => v.outcome.to_string(),
        };
        if let Some(side) = self.side {
            let texts: Vec<String> = self.values.iter().map(cell).collect();
            let width = texts.iter().map(|t| t.chars().count()).max().unwrap_or(1);
            let mut s = format!("G(x, y) of {}{misere}: row x, column y\n", self.game);
            for row in texts.chunks(side.max(1) as usize) {
                let row: Vec<String> = row.iter().map(|t| format!("{t:>width$}")).collect();
                s.push_str(&row.join(" "));
                s.push('\n');
            }
            return s;
        }
        let width = self
            .values
            .iter()
            .map(|v| v.position.len())
            .max()
            .unwrap_or(1)
            .max(8);
        let mut s = format!(
            "{}{misere}\n{:width$}  {:8}  outcome\n",
            self.game, "position", "value",
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
pub fn values(name: &str, upto: u64, ask: &Ask) -> crate::Result<Values> {
    Registry::new().values(name, upto, ask)
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
