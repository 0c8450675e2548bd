//! A catalogue question ([`Ask`]) answered on the engine: the one path by which `node-kayles`,
//! `arc-kayles` and `cram` search, so every door gets every shortcut of the engine.
//!
//! At [`Detail::Value`] only the root is valued (components XORed, symmetric lattices settled
//! by the mirror strategy, the table's known values); at [`Detail::Winning`] each option is
//! asked only "is it a P-position?" (the Lemoine–Viennot question, [`Engine::is_p`]), never
//! valued in full; at [`Detail::All`] every option is valued. The question's budget bounds the
//! nodes and the table's memory, its stop flag and progress callback reach the search, and the
//! entry's params choose the threads (`threads`), the mirror shortcut (`no-mirror`) and a table
//! file (`table`: read back when it exists, written every ten minutes of search
//! ([`crate::engine::CHECKPOINT_EVERY`]) and when the search ends, stops or reaches its node
//! limit, so that a long search runs over as many sittings as it needs and a run killed
//! outright loses at most ten minutes).

use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use grundy_core::budget::{Limit, Resource};
use grundy_core::catalogue::{
    explain_by_options, explain_value, explain_winning, Ask, Detail, Error, ErrorKind, Param,
    Progress, Report,
};

use std::sync::atomic::AtomicBool;

use crate::engine::{Checkpoint, Engine, Move, Options, SearchError};
use crate::expand::{Expansion, WideSet};
use crate::graph::VertexSet;
use crate::table::{LoadError, SLOT_BYTES};

/// The least table memory a search accepts: below 1 MiB it would hold too little to search
/// anything but tiny boards, so a smaller cap is refused as a memory [`Limit`].
pub const MIN_MEMORY: u64 = 1 << 20;

/// The engine's params, declared by every entry that searches on it.
pub const THREADS: Param = Param::count(
    "threads",
    "threads searching large parts side by side (about twice as fast with 2 on an idle machine)",
    1,
    64,
)
.local();
/// See [`THREADS`].
pub const TABLE: Param = Param::file(
    "table",
    "the search's table file: read when it exists, written every 10 minutes of search and when \
     the search ends, is stopped or reaches its limit (run again to resume)",
);
/// See [`THREADS`].
pub const NO_MIRROR: Param = Param::flag(
    "no-mirror",
    "search even where the half-turn mirror strategy already proves the value 0",
);

/// What a search found for a question, at the question's detail; `S` is a position (the
/// engine's [`VertexSet`], the expansion's [`WideSet`]).
#[derive(Clone, Debug, Default)]
pub struct Found<S = VertexSet> {
    /// The root's value.
    pub grundy: u32,
    /// The root's legal moves, in the engine's order.
    pub count: usize,
    /// The moves to a P-position ([`Detail::Winning`] and [`Detail::All`]).
    pub winning: Vec<(Move, S)>,
    /// Every move with the value it leaves ([`Detail::All`]).
    pub all: Vec<(Move, S, u32)>,
    /// Search nodes of this question.
    pub nodes: u64,
    /// Table entries read back from the table file (0 without one).
    pub resumed: u64,
    /// Table entries at the end.
    pub entries: u64,
}

/// What [`search`] asks of a search: the [`Engine`] on graphs of at most 128 vertices, the
/// [`Expansion`] past them. Both value a position, answer "is it a P-position?", list its
/// moves, count their nodes, keep a table that a file saves and restores, and stop on a flag.
pub trait Searcher {
    /// A position.
    type Set: Clone;
    /// The position's value.
    fn value(&mut self, pos: &Self::Set) -> Result<u32, SearchError>;
    /// Whether the position is a P-position (the Lemoine–Viennot question for 0).
    fn is_zero(&mut self, pos: &Self::Set) -> Result<bool, SearchError>;
    /// The position's moves with the positions they leave.
    fn options(&self, pos: &Self::Set) -> Vec<(Move, Self::Set)>;
    /// Nodes searched so far.
    fn nodes(&self) -> u64;
    /// Entries of the table (or memo).
    fn entries(&self) -> u64;
    /// Reads a saved table back; the entries read.
    fn load(&mut self, path: &Path) -> Result<u64, SearchError>;
    /// Saves the table.
    fn save(&self, path: &Path) -> Result<(), SearchError>;
    /// What a table file of this search must be of, in words.
    fn domain(&self) -> String;
    /// The stop flag the search was made with.
    fn stop_flag(&self) -> Option<Arc<AtomicBool>>;
    /// Calls `f` with the nodes searched so far as the search goes.
    fn watch(&mut self, f: Box<dyn Fn(u64) + Send + Sync>);
}

impl Searcher for Engine {
    type Set = VertexSet;
    fn value(&mut self, pos: &VertexSet) -> Result<u32, SearchError> {
        self.grundy(*pos)
    }
    fn is_zero(&mut self, pos: &VertexSet) -> Result<bool, SearchError> {
        self.is_p(*pos, 0)
    }
    fn options(&self, pos: &VertexSet) -> Vec<(Move, VertexSet)> {
        self.moves(*pos)
    }
    fn nodes(&self) -> u64 {
        Engine::nodes(self)
    }
    fn entries(&self) -> u64 {
        self.table().len() as u64
    }
    fn load(&mut self, path: &Path) -> Result<u64, SearchError> {
        Engine::load(self, path)
    }
    fn save(&self, path: &Path) -> Result<(), SearchError> {
        Engine::save(self, path)
    }
    fn domain(&self) -> String {
        Engine::domain(self)
    }
    fn stop_flag(&self) -> Option<Arc<AtomicBool>> {
        Engine::stop_flag(self)
    }
    fn watch(&mut self, f: Box<dyn Fn(u64) + Send + Sync>) {
        self.set_progress(move |p| f(p.nodes));
    }
}

impl Searcher for Expansion {
    type Set = WideSet;
    fn value(&mut self, pos: &WideSet) -> Result<u32, SearchError> {
        self.value_of(pos)
    }
    fn is_zero(&mut self, pos: &WideSet) -> Result<bool, SearchError> {
        self.is_p(pos)
    }
    fn options(&self, pos: &WideSet) -> Vec<(Move, WideSet)> {
        self.moves(pos)
    }
    fn nodes(&self) -> u64 {
        Expansion::nodes(self)
    }
    fn entries(&self) -> u64 {
        self.memo_len() as u64
    }
    fn load(&mut self, path: &Path) -> Result<u64, SearchError> {
        Expansion::load(self, path)
    }
    fn save(&self, path: &Path) -> Result<(), SearchError> {
        Expansion::save(self, path)
    }
    fn domain(&self) -> String {
        Expansion::domain(self)
    }
    fn stop_flag(&self) -> Option<Arc<AtomicBool>> {
        Expansion::stop_flag(self)
    }
    fn watch(&mut self, f: Box<dyn Fn(u64) + Send + Sync>) {
        self.set_progress(f);
    }
}

/// The engine's options for `ask` (`what` names the position in a limit): the budget's node
/// cap (none when unlimited) and table memory (at least [`MIN_MEMORY`]), the stop flag (one is
/// made when the question has none, so that its progress callback can stop the search), the
/// threads and mirror params, and the checkpoint to the table file (`table`).
pub fn options(ask: &Ask, params: &[Param], what: &str) -> Result<Options, Error> {
    let budget = &ask.budget;
    if budget.max_bytes < MIN_MEMORY {
        return Err(Limit {
            what: what.to_string(),
            resource: Resource::Memory,
            max_positions: budget.max_positions,
            max_bytes: budget.max_bytes,
            entry_bytes: SLOT_BYTES as u64,
        }
        .into());
    }
    let threads = ask.settings.count(THREADS.name, params)?.unwrap_or(1);
    Ok(Options {
        max_memory: usize::try_from(budget.max_bytes).unwrap_or(usize::MAX),
        max_nodes: (budget.max_positions != u64::MAX).then_some(budget.max_positions),
        stop: Some(ask.stop.clone().unwrap_or_default()),
        threads: threads as usize,
        mirror: !ask.settings.flag(NO_MIRROR.name),
        checkpoint: ask.settings.text(TABLE.name).map(Checkpoint::new),
        ..Options::default()
    })
}

/// Answers `ask` about `root` on `engine` (made with [`options`]): the table file named by the
/// `table` param read back first and saved every ten minutes and at the end, the progress
/// callback reporting search nodes of the node cap. `what` names the position in errors.
pub fn search<E: Searcher>(
    engine: &mut E,
    root: E::Set,
    ask: &Ask,
    what: &str,
) -> Result<Found<E::Set>, Error> {
    if let Some(watch) = ask.progress.clone() {
        let total = ask.budget.max_positions;
        let total = if total == u64::MAX { 0 } else { total };
        let stop = engine.stop_flag();
        engine.watch(Box::new(move |nodes| {
            let go = watch(Progress {
                done: nodes,
                total,
                unit: "search nodes",
            });
            if !go {
                if let Some(s) = &stop {
                    s.store(true, Ordering::Relaxed);
                }
            }
        }));
    }
    let table = ask.settings.text(TABLE.name).map(Path::new);
    let resumed = match table {
        Some(p) if p.exists() => engine.load(p).map_err(|e| {
            Error::input(format!(
                "{}: {}",
                p.display(),
                table_words(e, &engine.domain())
            ))
        })?,
        _ => 0,
    };
    let start = engine.nodes();
    let result = answer(engine, root, ask.detail);
    if let Some(p) = table {
        if keeps_table(&result) {
            engine.save(p).map_err(|e| {
                Error::failure(format!(
                    "writing the table {}: {}",
                    p.display(),
                    table_words(e, &engine.domain())
                ))
            })?;
        }
    }
    let mut found = result.map_err(|e| search_error(e, ask, what, table))?;
    found.nodes = engine.nodes() - start;
    found.resumed = resumed;
    found.entries = engine.entries();
    Ok(found)
}

/// The search itself, at `detail`.
fn answer<E: Searcher>(
    engine: &mut E,
    root: E::Set,
    detail: Detail,
) -> Result<Found<E::Set>, SearchError> {
    let grundy = engine.value(&root)?;
    let mut found = Found {
        grundy,
        count: 0,
        winning: Vec::new(),
        all: Vec::new(),
        nodes: 0,
        resumed: 0,
        entries: 0,
    };
    if detail == Detail::Value {
        return Ok(found);
    }
    let moves = engine.options(&root);
    found.count = moves.len();
    for (m, to) in moves {
        if detail == Detail::All {
            let v = engine.value(&to)?;
            if v == 0 {
                found.winning.push((m, to.clone()));
            }
            found.all.push((m, to, v));
        } else if grundy != 0 && engine.is_zero(&to)? {
            found.winning.push((m, to));
        }
    }
    Ok(found)
}

/// The end of a search entry's report `r` (value `value`, moves already placed): the count of
/// legal moves where the detail wants winning moves, the explanation at the question's detail,
/// and the search's `details` (`nodes`, `resumed`, `table_entries`). Shared by the graph
/// games and the stones games.
pub(crate) fn finish_report(
    r: &mut Report,
    detail: Detail,
    value: u64,
    count: usize,
    winning: usize,
    (nodes, resumed, entries): (u64, u64, u64),
) {
    let outcome = grundy_core::Outcome::from_grundy(value);
    if detail.wants_winning() {
        r.moves = Some(count as u64);
    }
    r.explanation = match detail {
        Detail::Value => explain_value(Some(value), outcome),
        Detail::Winning => explain_winning(outcome, winning, count),
        Detail::All => explain_by_options(value, &r.all_moves),
    };
    r.details = serde_json::json!({
        "nodes": nodes,
        "resumed": resumed,
        "table_entries": entries,
    });
}

/// A search's error in the catalogue's words: the node limit is the budget's position
/// [`Limit`] naming the position, a stop is [`ErrorKind::Stopped`] (naming the table file that
/// keeps what the search learned), a table file that cannot be read is bad input.
pub fn search_error(e: SearchError, ask: &Ask, what: &str, saved: Option<&Path>) -> Error {
    let budget = &ask.budget;
    match e {
        SearchError::NodeLimit { .. } => Limit {
            what: what.to_string(),
            resource: Resource::Positions,
            max_positions: budget.max_positions,
            max_bytes: budget.max_bytes,
            entry_bytes: SLOT_BYTES as u64,
        }
        .into(),
        SearchError::Buffers { .. } => Limit {
            what: what.to_string(),
            resource: Resource::Memory,
            max_positions: budget.max_positions,
            max_bytes: budget.max_bytes,
            entry_bytes: SLOT_BYTES as u64,
        }
        .into(),
        SearchError::Stopped { nodes } => Error {
            kind: ErrorKind::Stopped,
            message: match saved {
                Some(p) => format!(
                    "{what}: stopped after {nodes} search nodes; the table in {} keeps what it \
                     learned: run the same question again to resume",
                    p.display()
                ),
                None => format!(
                    "{what}: stopped after {nodes} search nodes (a table file keeps what a \
                     search learned for the next run)"
                ),
            },
            parameter: None,
        },
        SearchError::Table(t) => Error::input(format!("table file: {t}")),
        e => Error::input(e.to_string()),
    }
}

/// A table file's error in words (without the engine's "table file:" prefix); `domain` names
/// what the table should be of ("node-kayles lattice", "this nogo board"). Shared by every
/// engine that keeps a table (`stones_rules.rs` too).
pub(crate) fn table_words(e: SearchError, domain: &str) -> String {
    match e {
        SearchError::Table(LoadError::Io(io)) if io.kind() == std::io::ErrorKind::UnexpectedEof => {
            "not a saved grundy-board table (it ends early)".into()
        }
        SearchError::Table(LoadError::Mismatch { found, .. }) => {
            format!("a table of {found}, not of {domain}")
        }
        SearchError::Table(t) => t.to_string(),
        e => e.to_string(),
    }
}

/// Whether a search's table is worth saving after `result`: it finished, or it stopped (the
/// flag or its node limit) with its work in the table, to resume from.
pub(crate) fn keeps_table<T>(result: &Result<T, SearchError>) -> bool {
    matches!(
        result,
        Ok(_) | Err(SearchError::Stopped { .. } | SearchError::NodeLimit { .. })
    )
}
