//! grundy-script: games written in Lua, solved by the engine.
//!
//! A game is a Lua file (Lua 5.1 syntax, run by a sandboxed [Luau](https://luau.org) state)
//! that defines `moves(p)`, the list of every option of position `p`:
//!
//! ```lua
//! -- kayles.lua: knock down one pin or two adjacent pins from a row
//! name = "Kayles"
//! function moves(n)
//!   local out = {}
//!   for k = 1, 2 do
//!     for a = 0, n - k do
//!       local b = n - k - a
//!       if a <= b then out[#out + 1] = sum(a, b) end   -- two independent rows
//!     end
//!   end
//!   return out
//! end
//! ```
//!
//! - A **position** ([`Position`]) is an integer, a string, a boolean or an array of positions,
//!   compared by value. `sum(p1, p2, …)` (provided by the engine) is a move to a disjunctive
//!   sum: its value is the XOR of its parts, each valued and memoised separately.
//! - Optional: `split(p)` returns the independent components of `p`; `canon(p)` one canonical
//!   representative of `p`'s symmetry class (options are memoised by it); `show(p)` the text
//!   shown for `p`.
//! - Nothing from the operating system is visible: `io`, `os`, `debug`, `require`, `load`,
//!   `loadstring`, `dofile`, `pcall` and `print` raise an error naming themselves.
//!
//! The game implements the core [`grundy_core::Game`] trait, so the generic memoised solver
//! (exact keys, explicit stack, cycles detected, normal and misère play, sums) does the game
//! theory.
//!
//! **Loopy games.** A script declares nothing: when the search meets a cycle (a position
//! reachable from itself), normal play switches to the loopy solver of `grundy-loopy`: every
//! position reachable from the one asked about is explored (within [`Limits::budget`]),
//! the move graph is built and labelled with Smith's generalized values ([`Grundy`]: `m` or
//! `∞(K)`), and every explored position's value and remoteness are kept for the session. A
//! position then may be a draw ([`Outcome::D`]); its analysis lists the moves that keep the
//! draw, and [`Session::explain`] says in words why. Positions valued by the ordinary solver
//! (no cycle below them) keep their ordinary values, which are Smith's too. Misère play of a
//! loopy game is refused ([`ScriptError::Cycle`]). The exploration reads the option lists the
//! search that met the cycle already got, rather than asking Lua again.
//!
//! Each distinct position's `moves` is called once per query (the options of the
//! positions asked about are kept for listing their moves; a position valued by an earlier
//! query whose moves are then listed is expanded once more); a cached position never calls
//! back into Lua.
//!
//! ## The API
//!
//! [`Script`] is the loaded, checked script: source, name and [`Limits`]. It is `Send + Sync`
//! and cheap to clone; each [`Session`] (from [`Script::session`], one per thread) owns a Lua
//! state and a memo, and answers the questions:
//!
//! | call | result |
//! |---|---|
//! | [`Session::analyze`] (a sum of positions, normal or misère) | [`ScriptAnalysis`]: `grundy`, `outcome`, `winning_moves` ([`Move`]s: `to`, `text`) |
//! | [`Session::sequence`] (positions 0..=N) | [`ScriptSequence`]: `values`, `period` (observed, with its repeats) |
//! | [`Session::table`] (positions `{a, b}`) | [`ScriptTable`]: `values` by row, `p_positions` |
//! | [`Session::explain`] (one position) | [`Explanation`]: every option with its value |
//!
//! [`Script`] has the same four calls, each on a fresh session. Position literals (`7`,
//! `{3, 3, 3}`, `"abc"`) parse with [`parse_position`]. Every failure is a [`ScriptError`]
//! whose text is one line.
//!
//! ```
//! use grundy_script::{parse_position, Limits, Play, Script, Grundy};
//!
//! let kayles = r#"
//!   name = "Kayles"
//!   function moves(n)
//!     local out = {}
//!     for k = 1, 2 do
//!       for a = 0, n - k do
//!         local b = n - k - a
//!         if a <= b then out[#out + 1] = sum(a, b) end
//!       end
//!     end
//!     return out
//!   end"#;
//! let script = Script::load("kayles.lua", kayles, Limits::default())?;
//! let mut s = script.session()?;
//! let seq = s.sequence(11)?;
//! assert_eq!(seq.finite_values().unwrap(), [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
//! // Each row of 0..=11 pins was expanded once (the sums of two rows need no Lua).
//! assert_eq!(s.stats().moves_calls, 12);
//! // Rows of 7, 9 and 12 pins side by side, in a fresh session (another thread could do it).
//! let parts: Vec<_> = ["7", "9", "12"].iter().map(|t| parse_position(t).unwrap()).collect();
//! let mut s = script.session()?;
//! let a = s.analyze(&parts, Play::Normal)?;
//! assert_eq!(a.grundy, Some(Grundy::Finite(2 ^ 4 ^ 4)));
//! assert_eq!(a.winning_moves.len(), 5);
//! assert_eq!(s.stats().moves_calls, 13);
//! # Ok::<(), grundy_script::ScriptError>(())
//! ```

#![deny(unsafe_code)]

mod engine;
mod key;
mod position;
#[allow(unsafe_code)]
mod read;

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub use grundy_core::catalogue::Budget;
use grundy_core::{CycleError, FxHashMap, Move, Outcome, Solver};
use grundy_loopy::{Explored, LimitError};
use serde::Serialize;

pub use engine::Stats;
use engine::{short, LuaGame};
pub use grundy_core::nim::Play;
pub use grundy_loopy::Grundy;
use key::Key;
pub use position::{parse_position, LiteralError, Position, MAX_LITERAL_DEPTH};

/// The limits a script runs under. Every one is checked; a script past one is stopped with a
/// [`ScriptError`] naming the limit and the position being expanded.
#[derive(Clone, Debug, PartialEq)]
pub struct Limits {
    /// Luau interrupts (one at every loop iteration and function call) one call of `moves`,
    /// `split`, `canon` or `show` may take. Default 10^8 (about a second of Lua).
    pub steps_per_call: u64,
    /// The same for the script's top-level code when it loads. Default 10^8.
    pub setup_steps: u64,
    /// Bytes the Lua state may hold (0: no cap). Default 512 MiB.
    pub memory: usize,
    /// The catalogue's one budget, for the engine's side: `max_positions`, the positions the
    /// solver may open in one session (sums valued on the spot included) and the positions a
    /// loopy exploration may find; `max_bytes`, the memory of the solver's tables (its memo,
    /// [`MEMO_ENTRY_BYTES`] a position) and of a loopy exploration's graph (its own
    /// estimate, see [`grundy_loopy::implicit`]). Default 10^7 positions and 2 GiB
    /// ([`Budget::DEFAULT`]). The Lua state's memory is [`Limits::memory`].
    pub budget: Budget,
    /// Wall-clock time each query (analyze, sequence, table, explain) may take. Default none.
    pub time_limit: Option<Duration>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            steps_per_call: DEFAULT_STEPS,
            setup_steps: DEFAULT_STEPS,
            memory: DEFAULT_MEMORY,
            budget: Budget::DEFAULT,
            time_limit: None,
        }
    }
}

/// Default [`Limits::steps_per_call`].
pub const DEFAULT_STEPS: u64 = 100_000_000;
/// Default [`Limits::memory`]: 512 MiB.
pub const DEFAULT_MEMORY: usize = 512 << 20;
/// Default `max_positions` of [`Limits::budget`] ([`Budget::DEFAULT`]'s).
pub const DEFAULT_MAX_POSITIONS: u64 = Budget::DEFAULT.max_positions;
/// Bytes a position the solver opens is taken to hold in its tables (a memo entry: the key,
/// the value and the hash table's slack), against `max_bytes` of [`Limits::budget`]. A sum
/// valued on the spot holds none.
pub const MEMO_ENTRY_BYTES: u64 = 64;
/// Largest `N` of [`Session::sequence`] and side of [`Session::table`] (each position is
/// solved; the position cap applies too).
pub const MAX_RANGE: u64 = 100_000_000;

/// Everything that can go wrong with a script. Each message is one line naming the script's
/// file, the call and the position where it happened.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ScriptError {
    /// The script does not parse.
    #[error("{file}:{line}:{column}: syntax error: {message}")]
    Syntax {
        /// The script's name.
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column (of the token the parser names).
        column: usize,
        /// Luau's message.
        message: String,
    },
    /// A Lua error while running the script.
    #[error("error in {call}: {message}")]
    Runtime {
        /// The call, e.g. `moves({3, 1})`.
        call: String,
        /// Lua's message with its `file:line:` (and the traceback line naming the script).
        message: String,
        /// The script's line the message names first, if it names one.
        line: Option<usize>,
    },
    /// A call of the script that returned something that is not a position.
    #[error("{call} returned an invalid position{}: {message}", if *index > 0 { format!(" (option {index})") } else { String::new() })]
    InvalidPosition {
        /// The call that returned it, e.g. `moves(7)`.
        call: String,
        /// Which option (1-based; 0 when not in a list).
        index: usize,
        /// What is wrong.
        message: String,
    },
    /// A call ran past [`Limits::steps_per_call`].
    #[error("{call} did not finish within {steps} steps (an endless loop? the limit is Limits::steps_per_call)")]
    StepLimit {
        /// The call, e.g. `moves(7)`.
        call: String,
        /// The limit.
        steps: u64,
    },
    /// The Lua state passed [`Limits::memory`].
    #[error("{call} needed more than {} MiB of Lua memory (the limit is Limits::memory)", bytes >> 20)]
    MemoryLimit {
        /// The call, e.g. `moves(7)`.
        call: String,
        /// The limit.
        bytes: usize,
    },
    /// The solver opened more than `max_positions` positions ([`Limits::budget`]).
    #[error("more than {limit} positions to solve (the limit is Limits::budget.max_positions)")]
    PositionLimit {
        /// The limit.
        limit: u64,
    },
    /// The solver's tables passed `max_bytes` of [`Limits::budget`] (by the estimate of
    /// [`MEMO_ENTRY_BYTES`] a position).
    #[error("the solver's tables needed more than {} MiB after {positions} positions (the limit is Limits::budget.max_bytes)", bytes >> 20)]
    ByteLimit {
        /// The limit.
        bytes: u64,
        /// Positions held when it was passed.
        positions: u64,
    },
    /// The query took longer than [`Limits::time_limit`].
    #[error("stopped after the time limit of {seconds} s")]
    TimeLimit {
        /// The limit in seconds.
        seconds: f64,
    },
    /// A position can be reached from itself, in misère play (Smith's theory of loopy games,
    /// which normal play uses, is for normal play).
    #[error("the game has a cycle: {} (misère play of a loopy game is not supported)", .positions.join(" → "))]
    Cycle {
        /// The cycle, its first position repeated at the end.
        positions: Vec<String>,
    },
    /// The loopy solver's exploration passed its memory estimate (or a graph size limit).
    #[error("{0}")]
    LoopyLimit(String),
    /// Input that is not acceptable (a position literal, a missing `moves`, a size).
    #[error("{0}")]
    Input(String),
    /// The caller's stop flag was set.
    #[error("stopped")]
    Stopped,
    /// The Lua runtime failed in a way no script should cause.
    #[error("internal error of the Lua runtime: {0}")]
    Internal(String),
}

impl ScriptError {
    /// The line of the script the error is at: a syntax error's, or the first `file:line:`
    /// a runtime error's message names.
    pub fn line(&self) -> Option<usize> {
        match self {
            ScriptError::Syntax { line, .. } => Some(*line),
            ScriptError::Runtime { line, .. } => *line,
            _ => None,
        }
    }
}

impl From<LiteralError> for ScriptError {
    fn from(e: LiteralError) -> Self {
        ScriptError::Input(e.to_string())
    }
}

/// A loaded script: its name, source and limits, checked once (it parses, its top-level code
/// runs, it defines `moves`). `Send + Sync`; each thread opens its own [`Session`].
#[derive(Clone, Debug)]
pub struct Script {
    name: Arc<str>,
    source: Arc<str>,
    limits: Limits,
    title: Option<String>,
}

impl Script {
    /// Loads the script `source` named `name` (used in messages, e.g. `kayles.lua`).
    pub fn load(name: &str, source: &str, limits: Limits) -> Result<Script, ScriptError> {
        let game = LuaGame::new(name, source, &limits)?;
        Ok(Script {
            name: name.into(),
            source: source.into(),
            limits,
            title: game.title(),
        })
    }

    /// The name given to [`Script::load`].
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The game's name: the script's `name = "…"`, else its file name.
    pub fn title(&self) -> &str {
        self.title.as_deref().unwrap_or(&self.name)
    }

    /// The limits it runs under.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// A new session: a Lua state and an empty memo, for this thread.
    pub fn session(&self) -> Result<Session, ScriptError> {
        let game = LuaGame::new(&self.name, &self.source, &self.limits)?;
        Ok(Session {
            script: self.clone(),
            solver: Solver::new(game),
            loopy: FxHashMap::default(),
            loopy_only: false,
            stop: None,
            progress: None,
        })
    }

    /// [`Session::analyze`] on a fresh session.
    pub fn analyze(&self, parts: &[Position], play: Play) -> Result<ScriptAnalysis, ScriptError> {
        self.session()?.analyze(parts, play)
    }

    /// [`Session::sequence`] on a fresh session.
    pub fn sequence(&self, n: u64) -> Result<ScriptSequence, ScriptError> {
        self.session()?.sequence(n)
    }

    /// [`Session::table`] on a fresh session.
    pub fn table(&self, rows: u64, cols: u64) -> Result<ScriptTable, ScriptError> {
        self.session()?.table(rows, cols)
    }

    /// [`Session::explain`] on a fresh session.
    pub fn explain(&self, p: &Position) -> Result<Explanation, ScriptError> {
        self.session()?.explain(p)
    }
}

/// Value, outcome and every winning move of a sum of positions.
///
/// Serialized: `{"game", "positions", "texts", "play", "values", "grundy", "outcome",
/// "remoteness", "winning_moves", "drawing_moves"}`; `values` and `grundy` only in normal play
/// (each an integer, or `{"infinite": [..]}` for `∞(K)`), `remoteness` only for one position
/// valued by the loopy solver, `drawing_moves` only for a draw (outcome `"D"`).
///
/// A move is the catalogue's one [`Move`]: `text` with the script's `show` ("in part 3: 12 →
/// 0 + 11", or "12 → 0 + 11" for one position), `to` the whole position after it tagged by
/// [`Position::tagged`] (kind `"script"`, the Lua literal the script's catalogue entry parses
/// back: the parts as a `sum(…)`, sorted, or the one part), `outcome` and `grundy` of that
/// position (no `grundy` in misère play), and in `at` the move's place in the parts as given:
/// `component` (0-based), `from` (that part before) and `leaves` (that part after).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScriptAnalysis {
    /// The game's name.
    pub game: String,
    /// The positions (the parts of the sum), as given.
    pub positions: Vec<Position>,
    /// Each as `show` writes it.
    pub texts: Vec<String>,
    /// Normal or misère play.
    pub play: Play,
    /// Each part's value (normal play): finite, or `∞(K)` in a loopy game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<Grundy>>,
    /// Their sum by Smith's rule (the XOR when all are finite): the sum's value (normal play;
    /// misère values do not add).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grundy: Option<Grundy>,
    /// Who wins: P, N, or D (a draw, only in a loopy game).
    pub outcome: Outcome,
    /// Smith's remoteness of a single position valued by the loopy solver (moves to the end
    /// with best play); absent for a draw, a sum, or a position valued by the ordinary solver.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remoteness: Option<u64>,
    /// Every move to a P-position (of the same play).
    pub winning_moves: Vec<Move>,
    /// In a draw, every move that keeps it (to a drawn position; every other move loses).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub drawing_moves: Vec<Move>,
}

impl ScriptAnalysis {
    /// The analysis in words.
    pub fn describe(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        let misere = self.play == Play::Misere;
        let _ = write!(out, "{}", self.game);
        if misere {
            out.push_str(", misère play (the last mover loses)");
        }
        let _ = writeln!(out, ": {}", self.texts.join(" + "));
        if let (Some(vs), Some(g)) = (&self.values, &self.grundy) {
            if vs.len() > 1 {
                let v: Vec<String> = vs.iter().map(|v| v.to_string()).collect();
                let op = if vs.iter().all(Grundy::is_finite) {
                    "their XOR"
                } else {
                    "by Smith's rule their sum"
                };
                let _ = writeln!(out, "values {}; {op} is {g}", v.join(" "));
            } else {
                let _ = writeln!(out, "value {g}");
            }
        }
        match self.outcome {
            Outcome::P => out.push_str("P: the player to move loses\n"),
            Outcome::D => {
                out.push_str(
                    "D: neither player can force a win: with best play this game never ends\n",
                );
                if !self.drawing_moves.is_empty() {
                    let _ = writeln!(
                        out,
                        "moves that keep the draw ({}; every other move loses):",
                        self.drawing_moves.len()
                    );
                    for m in &self.drawing_moves {
                        let _ = writeln!(out, "  {}", m.text);
                    }
                }
            }
            Outcome::N if self.winning_moves.is_empty() => out
                .push_str("N: no move is possible, so under misère play the player to move wins\n"),
            Outcome::N => {
                let _ = writeln!(
                    out,
                    "N: the player to move wins; winning moves ({}):",
                    self.winning_moves.len()
                );
                for m in &self.winning_moves {
                    let _ = writeln!(out, "  {}", m.text);
                }
            }
        }
        if let Some(r) = self.remoteness {
            let _ = writeln!(out, "remoteness {r} (moves to the end with best play)");
        }
        out
    }
}

/// A period seen in a script's sequence. A script's rule cannot be inspected, so a period is
/// never proven: `status` is always `"observed"`, with how often it repeated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ObservedPeriod {
    /// The smallest period p.
    pub period: u64,
    /// The preperiod e: G(n + p) = G(n) + saltus from n = e on (over the computed range).
    pub preperiod: u64,
    /// The saltus (0 for plain periodicity).
    pub saltus: i64,
    /// Always `"observed"`.
    pub status: &'static str,
    /// How many whole periods the computed values hold after the preperiod.
    pub repeats: u64,
}

impl ObservedPeriod {
    /// The period in words.
    pub fn describe(&self, upto: u64) -> String {
        let saltus = if self.saltus != 0 {
            format!(", saltus {}", self.saltus)
        } else {
            String::new()
        };
        format!(
            "period {}, preperiod {}{saltus} (observed: it repeats {} times in G(0..={upto}); a script's rule cannot be inspected, so nothing proves it continues)",
            self.period, self.preperiod, self.repeats
        )
    }
}

/// G(0..=upto) of a script whose positions are integers.
///
/// Serialized: `{"game", "upto", "values", "period"}` (`period` null when none is seen; a
/// value is an integer, or `{"infinite": [..]}` in a loopy game).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScriptSequence {
    /// The game's name.
    pub game: String,
    /// The last position.
    pub upto: u64,
    /// G(0), G(1), …, G(upto): finite, or `∞(K)` in a loopy game.
    pub values: Vec<Grundy>,
    /// The period the values show, if any.
    pub period: Option<ObservedPeriod>,
}

impl ScriptSequence {
    /// The values as integers, when every one is finite (`None` in a loopy game with a
    /// position of value `∞(K)`).
    pub fn finite_values(&self) -> Option<Vec<u64>> {
        self.values.iter().map(Grundy::finite).collect()
    }
}

/// The values of the positions `{a, b}`, `a` in `0..rows`, `b` in `0..cols`.
///
/// Serialized: `{"game", "rows", "cols", "values", "p_positions"}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScriptTable {
    /// The game's name.
    pub game: String,
    /// Rows (values of `a`: 0..rows).
    pub rows: u64,
    /// Columns (values of `b`: 0..cols).
    pub cols: u64,
    /// `values[a][b]` = G({a, b}) (`∞(K)` in a loopy game).
    pub values: Vec<Vec<Grundy>>,
    /// Every `[a, b]` of value 0, row by row.
    pub p_positions: Vec<[u64; 2]>,
}

impl ScriptTable {
    /// The table as text: a header of columns, each row labelled; P-positions marked `*`.
    pub fn describe(&self) -> String {
        use std::fmt::Write as _;
        let w = self
            .values
            .iter()
            .flatten()
            .map(|m| m.to_string().chars().count())
            .max()
            .unwrap_or(1)
            .max(self.cols.saturating_sub(1).to_string().len())
            + 1;
        let l = self.rows.saturating_sub(1).to_string().len().max(3);
        let mut out = format!(
            "G({{a, b}}) of {}, a = 0..{} (rows), b = 0..{} (columns); * marks P-positions\n",
            self.game,
            self.rows.saturating_sub(1),
            self.cols.saturating_sub(1)
        );
        let _ = write!(out, "{:>l$} |", "a\\b");
        for b in 0..self.cols {
            let _ = write!(out, " {b:>w$}");
        }
        out.push('\n');
        for (a, row) in self.values.iter().enumerate() {
            let _ = write!(out, "{a:>l$} |");
            for v in row {
                let cell = if *v == Grundy::Finite(0) {
                    "0*".to_string()
                } else {
                    v.to_string()
                };
                let _ = write!(out, " {cell:>w$}");
            }
            out.push('\n');
        }
        out
    }

    /// The table as CSV: a header `a\b,0,1,…`, then one line per row; P-positions are the 0s.
    pub fn csv(&self) -> String {
        let mut out = String::from("a\\b");
        for b in 0..self.cols {
            out.push_str(&format!(",{b}"));
        }
        out.push('\n');
        for (a, row) in self.values.iter().enumerate() {
            out.push_str(&a.to_string());
            for v in row {
                out.push_str(&format!(",{v}"));
            }
            out.push('\n');
        }
        out
    }
}

/// One option of an explained position.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExplainedOption {
    /// The position after the move.
    pub to: Position,
    /// It, as `show` writes it.
    pub text: String,
    /// Its value (`∞(K)` in a loopy game).
    pub grundy: Grundy,
}

/// A position's options and their values: why it has its value (the mex of theirs; in a loopy
/// game, Smith's labelling, said in words).
///
/// Serialized: `{"game", "position", "text", "grundy", "outcome", "remoteness", "options",
/// "winning_moves", "drawing_moves", "why"}`; `remoteness` and `why` only for a position valued
/// by the loopy solver, `drawing_moves` only for a draw.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Explanation {
    /// The game's name.
    pub game: String,
    /// The position.
    pub position: Position,
    /// It, as `show` writes it.
    pub text: String,
    /// Its value: the mex of its options' values (or their XOR when it splits); in a loopy
    /// game Smith's value, `m` or `∞(K)`.
    pub grundy: Grundy,
    /// Who wins: P, N, or D (a draw).
    pub outcome: Outcome,
    /// Smith's remoteness (loopy solver only; absent for a draw).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remoteness: Option<u64>,
    /// Every option (each distinct one once), with its value.
    pub options: Vec<ExplainedOption>,
    /// The options of value 0.
    pub winning_moves: Vec<ExplainedOption>,
    /// In a draw, the options that keep it (drawn themselves; every other option is an
    /// N-position, a win for the opponent).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub drawing_moves: Vec<ExplainedOption>,
    /// For a position valued by the loopy solver: why it is won, lost or drawn, in words
    /// (which moves win, keep the draw, or lose, and the opponent's answer to each).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

impl Explanation {
    /// The explanation in words.
    pub fn describe(&self) -> String {
        use std::fmt::Write as _;
        let mut out = format!(
            "{}: {} has value {} ({})\n",
            self.game,
            self.text,
            self.grundy,
            match self.outcome {
                Outcome::P => "P: the player to move loses",
                Outcome::N => "N: the player to move wins",
                Outcome::D => "D: neither player can force a win",
            }
        );
        if let Some(why) = &self.why {
            out.push_str(why);
            if !why.ends_with('\n') {
                out.push('\n');
            }
            return out;
        }
        let mut seen: Vec<u64> = self
            .options
            .iter()
            .filter_map(|o| o.grundy.finite())
            .collect();
        seen.sort_unstable();
        seen.dedup();
        let vs: Vec<String> = seen.iter().map(|v| v.to_string()).collect();
        let _ = writeln!(
            out,
            "{} options, with values {{{}}}; the smallest value missing is {}",
            self.options.len(),
            vs.join(", "),
            grundy_core::mex(&seen)
        );
        for o in &self.options {
            let mark = if o.grundy == Grundy::Finite(0) {
                "  (winning move)"
            } else {
                ""
            };
            let _ = writeln!(out, "  → {}  value {}{mark}", o.text, o.grundy);
        }
        out
    }
}

/// A Lua state and a memo: answers questions about one script, on one thread.
pub struct Session {
    script: Script,
    solver: Solver<LuaGame>,
    /// Values and remoteness of the positions the loopy solver labelled.
    loopy: FxHashMap<Key, (Grundy, Option<u64>)>,
    /// Every position valued by the loopy solver (see [`Session::loopy_only`]).
    loopy_only: bool,
    stop: Option<Arc<AtomicBool>>,
    progress: Option<Box<dyn FnMut(u64, u64)>>,
}

impl Session {
    /// The script.
    pub fn script(&self) -> &Script {
        &self.script
    }

    /// Counters so far: `moves` calls, options, positions opened, seconds inside Lua.
    pub fn stats(&self) -> Stats {
        self.solver.game().stats()
    }

    /// Positions whose value is memoised.
    pub fn memo_len(&self) -> usize {
        self.solver.memo_len()
    }

    /// Values every position with the loopy solver, cycle or not: a cross-check of the two
    /// solvers (slower: sums are explored as whole positions rather than split).
    pub fn loopy_only(&mut self, on: bool) {
        self.loopy_only = on;
    }

    /// Stops the current and later queries (with [`ScriptError::Stopped`]) once `flag` is set.
    pub fn stop_when(&mut self, flag: Arc<AtomicBool>) {
        self.stop = Some(flag.clone());
        self.solver.game().set_stop(Some(flag));
    }

    /// Calls `f(done, total)` as [`Session::sequence`] and [`Session::table`] go: after each
    /// position of the range (a front end's progress bar; it should be cheap).
    pub fn on_progress(&mut self, f: impl FnMut(u64, u64) + 'static) {
        self.progress = Some(Box::new(f));
    }

    /// Reports `done` of `total` positions to the progress callback, if any.
    fn report(&mut self, done: u64, total: u64) {
        if let Some(f) = &mut self.progress {
            f(done, total);
        }
    }

    /// Starts a query: the deadline from the time limit.
    fn begin(&mut self) {
        let d = self.script.limits.time_limit.map(|t| Instant::now() + t);
        self.solver.game().set_deadline(d);
    }

    /// The value of `p`, or the error the script caused on the way (the memo is then cleared:
    /// its last entries may be wrong). A cycle switches to the loopy solver.
    fn value(&mut self, p: &Position) -> Result<Grundy, ScriptError> {
        self.value_of(&Key::of(p))
    }

    fn value_of(&mut self, key: &Key) -> Result<Grundy, ScriptError> {
        if !self.loopy.is_empty() {
            if let Some((v, _)) = self.loopy.get(key) {
                return Ok(v.clone());
            }
        }
        if self.loopy_only {
            self.explore(key)?;
            return Ok(self.loopy[key].0.clone());
        }
        // Record the option lists the search gets: if it meets a cycle, the exploration
        // reads them rather than calling `moves` on the same positions again.
        self.solver.game().record(true);
        let r = self.solver.try_grundy(key);
        self.solver.game().record(false);
        if let Some(e) = self.solver.game().take_error() {
            self.solver.game().replay(false);
            self.forget();
            return Err(e);
        }
        match r {
            Ok(v) => {
                self.solver.game().replay(false);
                Ok(Grundy::Finite(v))
            }
            // The memo holds only finished positions, whose values stand (no cycle is below
            // them); the loopy solver values the rest.
            Err(CycleError { .. }) => {
                self.solver.game().replay(true);
                let r = self.explore(key);
                self.solver.game().replay(false);
                r?;
                Ok(self.loopy[key].0.clone())
            }
        }
    }

    /// Forgets every value: after a script's error the last ones may be wrong.
    fn forget(&mut self) {
        self.solver.clear();
        self.solver.game().cleared();
        self.loopy.clear();
    }

    /// Explores every position reachable from `key` (whole positions: a sum's moves are the
    /// moves of its parts), labels the move graph and keeps every explored position's value.
    fn explore(&mut self, key: &Key) -> Result<Explored<Key>, ScriptError> {
        let r = grundy_loopy::explore(self.solver.game(), key, &self.script.limits.budget);
        if let Some(e) = self.solver.game().take_error() {
            self.forget();
            return Err(e);
        }
        let e = r.map_err(|e| match e {
            LimitError::Positions { limit } => ScriptError::PositionLimit { limit },
            e => ScriptError::LoopyLimit(e.to_string()),
        })?;
        let l = e.labelled();
        self.loopy.reserve(e.positions().len());
        for (v, p) in e.positions().iter().enumerate() {
            self.loopy
                .entry(p.clone())
                .or_insert_with(|| (l.value(v), l.remoteness(v)));
        }
        Ok(e)
    }

    /// The remoteness of `p` if the loopy solver valued it.
    fn remoteness(&self, p: &Position) -> Option<u64> {
        self.loopy.get(&Key::of(p)).and_then(|&(_, r)| r)
    }

    /// Misère outcome of `p`, likewise.
    fn misere(&mut self, p: &Position) -> Result<Outcome, ScriptError> {
        let key = Key::of(p);
        let r = self.solver.try_misere_outcome(&key);
        if let Some(e) = self.solver.game().take_error() {
            self.forget();
            return Err(e);
        }
        match r {
            Ok(o) => Ok(o),
            Err(CycleError { .. }) => {
                self.solver.clear();
                self.solver.game().cleared();
                Err(self.find_cycle(p))
            }
        }
    }

    /// The distinct options of `p`.
    fn options(&mut self, p: &Position) -> Result<Vec<Position>, ScriptError> {
        let opts = self.solver.options(&Key::of(p));
        match self.solver.game().take_error() {
            Some(e) => Err(e),
            None => Ok(opts.iter().map(Key::position).collect()),
        }
    }

    fn show(&self, p: &Position) -> Result<String, ScriptError> {
        self.solver.game().show(p)
    }

    /// Value, outcome and every winning move of the sum of `parts` (one position is a sum of
    /// one), in normal or misère play. A move is a move in one part.
    pub fn analyze(
        &mut self,
        parts: &[Position],
        play: Play,
    ) -> Result<ScriptAnalysis, ScriptError> {
        if parts.is_empty() {
            return Err(ScriptError::Input("a position is needed".into()));
        }
        self.begin();
        for p in parts {
            self.solver.game().keep(&Key::of(p));
        }
        let texts = parts
            .iter()
            .map(|p| self.show(p))
            .collect::<Result<Vec<_>, _>>()?;
        let mut winning_moves = Vec::new();
        let mut drawing_moves = Vec::new();
        let mut remoteness = None;
        let (values, grundy, outcome) = match play {
            Play::Normal => {
                let values = parts
                    .iter()
                    .map(|p| self.value(p))
                    .collect::<Result<Vec<_>, _>>()?;
                let total: Grundy = values.iter().cloned().sum();
                let outcome = total.outcome();
                if outcome != Outcome::P {
                    for (i, p) in parts.iter().enumerate() {
                        for o in self.options(p)? {
                            let vo = self.value(&o)?;
                            // The sum after the move, by Smith's rule.
                            let after: Grundy = values
                                .iter()
                                .enumerate()
                                .map(|(j, v)| if j == i { vo.clone() } else { v.clone() })
                                .sum();
                            match after.outcome() {
                                Outcome::P => winning_moves.push(self.make_move(
                                    parts,
                                    i,
                                    o,
                                    Outcome::P,
                                    Some(after),
                                )?),
                                Outcome::D if outcome == Outcome::D => drawing_moves
                                    .push(self.make_move(parts, i, o, Outcome::D, Some(after))?),
                                _ => {}
                            }
                        }
                    }
                }
                if parts.len() == 1 {
                    remoteness = self.remoteness(&parts[0]);
                }
                (Some(values), Some(total), outcome)
            }
            Play::Misere => {
                // Whole positions: misère values do not add. Keep the parts' option lists,
                // which the search revisits in every combination.
                self.solver.game().keep_all(true);
                let whole = Position::sum(parts.to_vec());
                let r = self.misere_moves(&whole, parts, &mut winning_moves);
                self.solver.game().keep_all(false);
                (None, None, r?)
            }
        };
        Ok(ScriptAnalysis {
            game: self.script.title().to_string(),
            positions: parts.to_vec(),
            texts,
            play,
            values,
            grundy,
            outcome,
            remoteness,
            winning_moves,
            drawing_moves,
        })
    }

    fn misere_moves(
        &mut self,
        whole: &Position,
        parts: &[Position],
        moves: &mut Vec<Move>,
    ) -> Result<Outcome, ScriptError> {
        let outcome = self.misere(whole)?;
        if outcome == Outcome::N {
            for (i, p) in parts.iter().enumerate() {
                for o in self.options(p)? {
                    let mut next = parts.to_vec();
                    next[i] = o.clone();
                    if self.misere(&Position::sum(next))? == Outcome::P {
                        moves.push(self.make_move(parts, i, o, Outcome::P, None)?);
                    }
                }
            }
        }
        Ok(outcome)
    }

    /// The move in part `i` of `parts` to `leaves`, after which the whole position has
    /// `outcome` and (normal play) value `grundy`.
    fn make_move(
        &self,
        parts: &[Position],
        i: usize,
        leaves: Position,
        outcome: Outcome,
        grundy: Option<Grundy>,
    ) -> Result<Move, ScriptError> {
        let mut to = parts.to_vec();
        to[i] = leaves.clone();
        let (a, b) = (self.show(&parts[i])?, self.show(&leaves)?);
        let text = if parts.len() == 1 {
            format!("{a} → {b}")
        } else {
            format!("in part {}: {a} → {b}", i + 1)
        };
        let mut m = Move::new(
            text.clone(),
            &text,
            Position::sum(to).tagged(),
            outcome,
            None,
        )
        .at("component", i)
        .at("from", &parts[i])
        .at("leaves", &leaves);
        m.grundy = grundy;
        Ok(m)
    }

    /// G(0..=n) for a script whose positions are integers, and the period the values show.
    pub fn sequence(&mut self, n: u64) -> Result<ScriptSequence, ScriptError> {
        if n > MAX_RANGE {
            return Err(ScriptError::Input(format!(
                "{n} positions: more than the limit of {MAX_RANGE}"
            )));
        }
        self.begin();
        let mut values = Vec::with_capacity(n as usize + 1);
        for i in 0..=n {
            values.push(self.value(&Position::Int(i as i64))?);
            self.report(i + 1, n + 1);
        }
        let period = observed_period(&values);
        Ok(ScriptSequence {
            game: self.script.title().to_string(),
            upto: n,
            values,
            period,
        })
    }

    /// The values of positions `{a, b}` for `a` in `0..rows`, `b` in `0..cols`.
    pub fn table(&mut self, rows: u64, cols: u64) -> Result<ScriptTable, ScriptError> {
        if rows.saturating_mul(cols) > MAX_RANGE {
            return Err(ScriptError::Input(format!(
                "a table of {rows} × {cols} positions: more than the limit of {MAX_RANGE}"
            )));
        }
        self.begin();
        let mut values = Vec::with_capacity(rows as usize);
        let mut p_positions = Vec::new();
        for a in 0..rows {
            let mut row = Vec::with_capacity(cols as usize);
            for b in 0..cols {
                let p = Position::List(vec![Position::Int(a as i64), Position::Int(b as i64)]);
                let v = self.value(&p)?;
                if v == Grundy::Finite(0) {
                    p_positions.push([a, b]);
                }
                row.push(v);
                self.report(a * cols + b + 1, rows * cols);
            }
            values.push(row);
        }
        Ok(ScriptTable {
            game: self.script.title().to_string(),
            rows,
            cols,
            values,
            p_positions,
        })
    }

    /// A position's value and every option with its own value; for a position the loopy
    /// solver valued, also why in words (`why`).
    pub fn explain(&mut self, p: &Position) -> Result<Explanation, ScriptError> {
        self.begin();
        let key = Key::of(p);
        self.solver.game().keep(&key);
        let grundy = self.value_of(&key)?;
        let mut options = Vec::new();
        for o in self.options(p)? {
            let v = self.value(&o)?;
            options.push(ExplainedOption {
                text: self.show(&o)?,
                to: o,
                grundy: v,
            });
        }
        let outcome = grundy.outcome();
        let winning_moves = options
            .iter()
            .filter(|o| o.grundy == Grundy::Finite(0))
            .cloned()
            .collect();
        let drawing_moves = match outcome {
            Outcome::D => options
                .iter()
                .filter(|o| o.grundy.outcome() == Outcome::D)
                .cloned()
                .collect(),
            _ => Vec::new(),
        };
        let (remoteness, why) = match self.loopy.contains_key(&key) {
            true => {
                let e = self.explore(&key)?;
                let game = self.solver.game();
                let show = |k: &Key| {
                    let q = k.position();
                    game.show(&q).unwrap_or_else(|_| short(&q))
                };
                (e.labelled().remoteness(0), Some(e.explain(0, &show)))
            }
            false => (None, None),
        };
        Ok(Explanation {
            game: self.script.title().to_string(),
            position: p.clone(),
            text: self.show(p)?,
            grundy,
            outcome,
            remoteness,
            options,
            winning_moves,
            drawing_moves,
            why,
        })
    }

    /// After the solver met a cycle: a depth-first search from `root` that names it.
    fn find_cycle(&mut self, root: &Position) -> ScriptError {
        let game = self.solver.game();
        let root = Key::of(root);
        let name = |k: &Key| short(&k.position());
        let mut state: HashMap<Key, bool> = HashMap::new(); // true: on the path
        let mut path: Vec<(Key, Vec<Key>, usize)> = Vec::new();
        let children = |p: &Key| {
            let mut out = Vec::new();
            if !grundy_core::Game::components(game, p, &mut out) {
                out.clear();
                grundy_core::Game::options(game, p, &mut out);
            }
            out
        };
        state.insert(root.clone(), true);
        path.push((root.clone(), children(&root), 0));
        while let Some((_, kids, next)) = path.last_mut() {
            if let Some(e) = game.take_error() {
                return e;
            }
            if *next == kids.len() {
                let (p, _, _) = path.pop().expect("non-empty");
                state.insert(p, false);
                continue;
            }
            let c = kids[*next].clone();
            *next += 1;
            match state.get(&c) {
                Some(true) => {
                    let start = path.iter().position(|(p, _, _)| *p == c).unwrap_or(0);
                    let mut names: Vec<String> =
                        path[start..].iter().map(|(p, _, _)| name(p)).collect();
                    names.push(name(&c));
                    if names.len() > 12 {
                        let n = names.len();
                        names.splice(5..n - 5, [format!("… {} more …", n - 10)]);
                    }
                    return ScriptError::Cycle { positions: names };
                }
                Some(false) => {}
                None => {
                    state.insert(c.clone(), true);
                    let kids = children(&c);
                    path.push((c, kids, 0));
                }
            }
        }
        ScriptError::Cycle {
            positions: vec![name(&root), "…".into(), name(&root)],
        }
    }
}

/// The period G(0..=n) shows (at least 4 periods and a quarter of the values), with how many
/// times it repeats after its preperiod.
fn observed_period(values: &[Grundy]) -> Option<ObservedPeriod> {
    let small: Vec<u32> = values
        .iter()
        .map(|v| u32::try_from(v.finite()?).ok())
        .collect::<Option<_>>()?;
    let p = grundy_heap::periodicity::find(&small, None)?;
    Some(ObservedPeriod {
        period: p.period,
        preperiod: p.preperiod,
        saltus: p.saltus,
        status: "observed",
        repeats: (values.len() as u64 - p.preperiod) / p.period,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<Script>();
        check::<ScriptAnalysis>();
        check::<ScriptError>();
    }
}
