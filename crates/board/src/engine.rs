//! The search engine: nim values of vertex-deletion games on a small graph, by component
//! decomposition and the Lemoine–Viennot question.
//!
//! A position is a set of vertices of a fixed [`Graph`]. It falls apart into connected
//! components, and its value is the XOR of theirs. Each component is named by a canonical
//! [`Key`]: on a lattice ([`Graph::grid_shape`]) its cell shape cropped to its bounding box and
//! brought to the least of its images under the plane's eight symmetries; elsewhere, for at most
//! [`SMALL_COMPONENT`] vertices, its adjacency matrix after a relabelling by degree (which may
//! miss an isomorphism, never invent one), and otherwise the least of its vertex set's
//! translates in the vertex numbering that are isomorphic to it by the shift, and of its
//! reversed image's when the reversal of the numbering is an isomorphism
//! (`Engine::vertex_set_key`). Equal keys are always isomorphic components.
//!
//! Values are found as in Lemoine and Viennot's "Nimbers are inevitable" (TCS 462, 2012): a
//! component's value is the least `n` such that no option has value `n`, and each "has an
//! option value `n`?" asks of each option (a sum of components) whether `A + B + … + *n` is a
//! P-position, by valuing every part but the largest (small parts are cheap, and usually known)
//! and asking the question of the largest with the heap adjusted. That question, "is the value
//! of `C` in the set `R`?", is answered by Beling and Rogalski's pruning ("On pruning search
//! trees of impartial games", AI 283, 2020): a set of candidate values `0..=k` for `k` options;
//! an option of known value removes its value; the others are asked whether their value lies
//! among the candidates but the largest, and a "no" removes the largest; the search stops as
//! soon as no candidate is in `R`. Only exact values are stored in the table; the key cache (by
//! cell set, on lattices of at most 48 cells) also keeps, in spare bits of its entries, a set's
//! value or the values below 14 it was shown not to have, so a question asked again skips the
//! scan of the options and a known part skips the table. (Components with a bound of 127 or
//! more fall back to the plain questions, with "not n" masks in the table.) Pruning besides: a
//! question whose set lies above the component's bound on its value (its longest play) is
//! answered no at once; on a lattice, a component that is its own image under the half turn,
//! with no cell or domino its own image or next to it, is 0 by the mirror strategy, without
//! search; for Cram, a cell keeps only one of its pendant neighbours, a cell whose neighbours
//! all have another pendant is dropped (`reduce_grid`), and two equal components of an option
//! cancel. Move ordering: options whose parts are all known first, then the rest by the size of
//! their largest unknown part, smallest first (sizes taken in pairs: the component's size less
//! 2 or 3, less 4 or 5, …, so that a cell the reductions drop does not outrank the centre: a
//! fifth to a third fewer nodes), and among equals the move nearest the
//! component's centre first (it splits the component most evenly; the distance across the
//! short side of the component's box counts twice when that side has 5 cells or more, and at
//! equal distance a domino across the short side goes first when that side has 4 cells or
//! more): 2 to 3 times fewer nodes on Cram than any fixed order (and the weights a third fewer
//! again on 5x7, a tenth on 4x9).
//!
//! The [`Table`] has a fixed size ([`Options::max_memory`]); when it is full, light entries give
//! way. A bit filter of the keys ever valued sits in front of it, so that looking up a
//! component never valued (most of the large ones) costs no cache miss in the table. A search can be bounded in nodes ([`Options::max_nodes`]), stopped from another thread
//! ([`Options::stop`]) and watched ([`Engine::set_progress`]); it can be saved and resumed
//! ([`Engine::save`], [`Engine::load`]).
//!
//! Threads ([`Options::threads`]): on a lattice of at most 48 cells the table is compact
//! (one atomic word an entry), so helper threads share it and the filter: a Lemoine–Viennot
//! question of a component of [`PARALLEL_SIZE`] cells or more ("has an option value `n`?")
//! hands its options to the helpers one by one, and the first "yes" stops the rest.

use crate::graph::{Graph, VertexSet};
use crate::table::{Key, LoadError, Table};
use serde::Serialize;
use std::cell::Cell;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Components of at most this many vertices (on graphs without a lattice shape) are keyed by
/// their relabelled adjacency matrix, so isomorphic copies anywhere in the graph share a key.
pub const SMALL_COMPONENT: usize = 15;

/// Words of the filter in front of the table (128 KiB: with the 256 KiB key cache it stays
/// in a 512 KiB L2 cache beside the table's hot lines; a 256 KiB filter took 7 to 10 % more
/// CPU time on Cram 5x7 and 4x9 for the same instructions).
const FILTER_WORDS: usize = 1 << 14;

/// Lattices of at most this many cells get a filter and a key cache a quarter the size
/// ([`SMALL_FILTER_WORDS`], [`SMALL_KEY_CACHE`]): their searches meet few distinct components
/// (Cram 5x7: 21 000 table entries, 4x9: 16 000), so the smaller ones keep their hit rates,
/// sit better in the L2 cache and leave less memory resident (Cram 4x9 and 5x7: 4 to 6 % less
/// CPU time, 0.2 to 0.3 MB less peak memory; on 5x8, 128 000 entries, the small sizes cost
/// 3 %).
const SMALL_LATTICE: usize = 36;

/// [`FILTER_WORDS`] on a lattice of at most [`SMALL_LATTICE`] cells (32 KiB).
const SMALL_FILTER_WORDS: usize = 1 << 12;

/// The default [`Options::threads`].
pub const DEFAULT_THREADS: usize = 1;

/// Components of at least this many cells ask their questions on several threads
/// ([`Options::threads`]).
pub const PARALLEL_SIZE: u32 = 20;

/// The default table size: 256 MiB.
pub const DEFAULT_MAX_MEMORY: usize = 256 << 20;

/// The rule of a vertex-deletion game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rules {
    /// A move deletes a vertex and all its neighbours.
    NodeKayles,
    /// A move deletes both ends of an edge (a loop: its one vertex). Cram is Arc Kayles on the
    /// grid graph of a board's empty cells.
    ArcKayles,
}

impl Rules {
    /// The game's registry name (`node-kayles`, `arc-kayles`).
    pub fn name(self) -> &'static str {
        match self {
            Rules::NodeKayles => "node-kayles",
            Rules::ArcKayles => "arc-kayles",
        }
    }
}

/// A move of a vertex-deletion game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Move {
    /// Node Kayles: the vertex chosen.
    Vertex(usize),
    /// Arc Kayles: the edge's two ends (`u ≤ v`; equal for a loop).
    Edge(usize, usize),
}

/// Limits and controls of a search.
#[derive(Clone, Debug)]
pub struct Options {
    /// The transposition table's size in bytes (the search's memory, bar a small stack and a
    /// fixed 128 KiB filter in front of the table and, on lattices of at most 48 cells, a
    /// fixed 256 KiB key cache, whose spare bits also hold values and "not" answers; both a
    /// quarter of that on lattices of at most 36 cells).
    pub max_memory: usize,
    /// The most search nodes (component questions) before giving up with
    /// [`SearchError::NodeLimit`]; `None` for no limit.
    pub max_nodes: Option<u64>,
    /// Set to `true` from anywhere to stop the search with [`SearchError::Stopped`] (the table
    /// keeps what it learned, so it can be saved and the search resumed).
    pub stop: Option<Arc<AtomicBool>>,
    /// How often, in nodes, the stop flag and limits are checked and progress is reported.
    pub check_every: u64,
    /// Threads that search the options of a large component side by side (sharing one
    /// table), where the table is compact ([`Table::compact`]: lattices of at most 48
    /// cells); elsewhere, and with 1, the search is single-threaded. While they run, the
    /// progress callback is not called; the stop flag and node limit hold for them too.
    pub threads: usize,
    /// Value components that the half-turn mirror strategy proves 0 without search (on a
    /// lattice); `false` searches them too (a check of the shortcut, never a different value).
    pub mirror: bool,
    /// Where and how often the running search saves its table; `None`: only when the caller
    /// saves it.
    pub checkpoint: Option<Checkpoint>,
}

/// A running search's table saved to `path` every `every` of search time (checked with the
/// stop flag, every [`Options::check_every`] nodes), through a temporary file renamed over
/// it. A run ended by anything the search cannot catch (a kill, a crash, the machine going
/// down) then loses at most that much work: the file is read back like any saved table
/// (`load`), and the table holds only proven values, so a table saved mid-search is as sound
/// as one saved at the end.
#[derive(Clone, Debug)]
pub struct Checkpoint {
    /// The table file.
    pub path: std::path::PathBuf,
    /// The search time between two saves.
    pub every: Duration,
}

impl Checkpoint {
    /// The table saved to `path` every [`CHECKPOINT_EVERY`], as the catalogue's searches do.
    pub fn new(path: impl Into<std::path::PathBuf>) -> Checkpoint {
        Checkpoint {
            path: path.into(),
            every: CHECKPOINT_EVERY,
        }
    }

    /// Whether a save is due, the table last saved at `saved`.
    pub(crate) fn due(&self, saved: Instant) -> bool {
        saved.elapsed() >= self.every
    }
}

/// The checkpoint period the catalogue's searches use with a table file (`--table`): a few
/// seconds of writing (a table of some GB) every ten minutes of search.
pub const CHECKPOINT_EVERY: Duration = Duration::from_secs(600);

impl Default for Options {
    fn default() -> Options {
        Options {
            max_memory: DEFAULT_MAX_MEMORY,
            max_nodes: None,
            stop: None,
            check_every: 1 << 14,
            threads: DEFAULT_THREADS,
            mirror: true,
            checkpoint: None,
        }
    }
}

/// Why a search gave no answer. Every variant is a limit or a request, never a wrong input
/// that the types could have caught.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    /// The stop flag was raised.
    #[error("search stopped after {nodes} nodes")]
    Stopped {
        /// Nodes searched.
        nodes: u64,
    },
    /// [`Options::max_nodes`] was reached.
    #[error("search passed the limit of {limit} nodes (max_nodes)")]
    NodeLimit {
        /// The limit.
        limit: u64,
    },
    /// [`Options::max_memory`] cannot hold even a minimal table.
    #[error("max_memory of {bytes} bytes is below the table's minimum of {min} bytes")]
    MemoryTooSmall {
        /// The memory asked for.
        bytes: usize,
        /// The least that works.
        min: usize,
    },
    /// A position names vertices the graph does not have.
    #[error("position has vertices outside the graph's {count}")]
    BadPosition {
        /// The graph's vertex count.
        count: usize,
    },
    /// The option lists of the components under search ([`crate::search::Search`]), or the
    /// memo of an [`crate::expand::Expansion`], passed a quarter of [`Options::max_memory`].
    #[error("the search's option lists or memo passed a quarter of max_memory ({bytes} bytes)")]
    Buffers {
        /// The bytes they held.
        bytes: usize,
    },
    /// Saving or loading the table failed.
    #[error("table file: {0}")]
    Table(#[from] LoadError),
}

/// A snapshot of a running search, for progress displays.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Progress {
    /// Nodes searched so far.
    pub nodes: u64,
    /// Table slots in use.
    pub entries: usize,
    /// Table slots in all.
    pub capacity: usize,
    /// Entries evicted so far.
    pub replaced: u64,
    /// Time since the engine was made.
    pub elapsed: Duration,
}

/// A component of a position: its vertices, key and size.
#[derive(Clone, Copy, Debug)]
struct Part {
    set: VertexSet,
    key: Key,
    size: u32,
    /// Known to be 0 by the mirror strategy (see [`grid_key`]).
    zero: bool,
}

type ProgressFn = Box<dyn FnMut(&Progress) + Send>;

/// The engine: a game's rule on a graph, with its table. Reuse one engine for many positions
/// of the same graph: the table carries over.
pub struct Engine {
    rules: Rules,
    graph: Graph,
    closed: Vec<VertexSet>,
    table: Table,
    opts: Options,
    nodes: u64,
    next_check: u64,
    start: Instant,
    /// When the table was last saved by the [`Options::checkpoint`] (or the search began).
    saved: Instant,
    progress: Option<ProgressFn>,
    grid: Option<GridShape>,
    /// Option buffers not in use (see [`Opts`]).
    free: Vec<Opts>,
    /// One bit per hash of every key whose value was ever recorded: a lookup of a component
    /// whose bit is clear (most unknown components) skips the table and its cache miss.
    /// Shared with the helper threads; a bit set by a plain load and store may be lost to a
    /// race, which only costs a look-up skipped (the table never holds a wrong value).
    filter: Arc<[AtomicU64]>,
    /// A helper thread's engine: raised when its work is no longer needed.
    abort: Option<Arc<AtomicBool>>,
    /// On lattices of at most 48 cells: the canonical keys of recently keyed cell sets, by
    /// set (see [`Engine::key`]).
    key_cache: Vec<[Cell<u64>; 2]>,
    /// Off the lattices, on graphs of more than [`SMALL_COMPONENT`] vertices: the keys of
    /// recently keyed vertex sets, `[set, key]`, by set (see [`Engine::key_off_lattice`]);
    /// a helper thread has its own, of the same size, as it has its own key cache.
    set_keys: Vec<[Cell<u128>; 2]>,
    /// On a lattice: each cell's row and column (for [`Engine::dist`], without divisions).
    coords: Vec<[u8; 2]>,
}

/// Values (from 0) whose "not this value" a key cache entry can hold.
const NOT_BITS: u32 = 14;

/// The flag of a key cache entry's facts (bits 48 to 62 of its second word) that says they
/// are the exact value (its low 8 bits) rather than a "not" mask.
const EXACT: u32 = 1 << 14;

/// Entries of the key cache (256 KiB).
const KEY_CACHE: usize = 1 << 14;

/// Entries of the cache of vertex-set keys off the lattices (512 KiB): a component's key
/// there ([`Engine::vertex_set_key`]) costs a pass over its vertices per shift tried, and the
/// same sets come back all the time, as on the lattices.
const SET_KEYS: usize = 1 << 14;

/// The bytes of one entry of the cache of vertex-set keys (`[set, key]`).
const SET_KEY_BYTES: usize = 32;

/// [`KEY_CACHE`] on a lattice of at most [`SMALL_LATTICE`] cells (64 KiB).
const SMALL_KEY_CACHE: usize = 1 << 12;

/// The filter's word and bit for `k`.
fn filter_bit(k: &Key, words: usize) -> (usize, u32) {
    let lo = k.bits as u64;
    let hi = (k.bits >> 64) as u64;
    let h = (lo ^ hi.rotate_left(29) ^ (k.tag as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_mul(0xD6E8_FEB8_6659_FD93);
    let h = h ^ h >> 31;
    ((h >> 6) as usize & (words - 1), h as u32 & 63)
}

#[derive(Clone, Copy)]
struct GridShape {
    cols: usize,
    /// Every cell but the first column.
    not_first: VertexSet,
    /// Every cell but the last column.
    not_last: VertexSet,
    /// At most 64 cells: flood fills in one word.
    small: bool,
}

impl GridShape {
    /// The cells next to the cells `x` across a side, on a lattice of at most 64 cells
    /// ([`GridShape::small`]): one word, no fill.
    #[inline]
    fn near64(&self, x: u64) -> u64 {
        let sh = self.cols as u32;
        (x << 1 & self.not_first as u64)
            | (x >> 1 & self.not_last as u64)
            | x.checked_shl(sh).unwrap_or(0)
            | x.checked_shr(sh).unwrap_or(0)
    }
}

fn shl(m: u128, k: usize) -> u128 {
    if k >= 128 {
        0
    } else {
        m << k
    }
}

fn shr(m: u128, k: usize) -> u128 {
    if k >= 128 {
        0
    } else {
        m >> k
    }
}

fn low(n: usize) -> u128 {
    if n >= 128 {
        u128::MAX
    } else {
        (1u128 << n) - 1
    }
}

/// The result of analysing a position: serializes to the project's JSON vocabulary.
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    /// `node-kayles` or `arc-kayles`.
    pub game: &'static str,
    /// `"N"` or `"P"`.
    pub outcome: grundy_core::Outcome,
    /// The position's nim value.
    pub grundy: u64,
    /// Every move to a P-position.
    pub winning_moves: Vec<Move>,
    /// Search nodes used (cumulative for the engine).
    pub nodes: u64,
}

impl Engine {
    /// An engine for `rules` on `graph` with an empty table of `opts.max_memory` bytes.
    pub fn new(rules: Rules, graph: Graph, opts: Options) -> Result<Engine, SearchError> {
        // On a lattice of at most 64 cells every key's set fits 64 bits (a shape has one bit
        // per cell of its bounding box): 16-byte slots, half as many entries again per byte.
        let cells = graph.grid_shape().map(|(r, c)| r * c);
        let graph_shape = graph.grid_shape();
        // On a lattice of at most 48 cells every shape fits the 48 bits of a compact slot.
        // The cache of vertex-set keys (off the lattices) is paid for out of the cap.
        let set_keys = Engine::set_keys(&graph, opts.max_memory);
        let table = if cells.is_some_and(|n| n <= 48) {
            Table::compact(opts.max_memory)
        } else if cells.is_some_and(|n| n <= 64) {
            Table::narrow(opts.max_memory)
        } else {
            Table::with_bytes(opts.max_memory - set_keys.len() * SET_KEY_BYTES)
        };
        let table = table.ok_or(SearchError::MemoryTooSmall {
            bytes: opts.max_memory,
            min: Table::MIN_BYTES,
        })?;
        let closed = (0..graph.vertex_count())
            .map(|v| graph.neighbors(v) | 1u128 << v)
            .collect();
        let grid = graph.grid_shape().map(|(rows, cols)| {
            let mut first = 0u128;
            for r in 0..rows {
                first |= 1u128 << (r * cols);
            }
            let all = low(rows * cols);
            GridShape {
                cols,
                not_first: all & !first,
                not_last: all & !shl(first, cols - 1),
                small: rows * cols <= 64,
            }
        });
        Ok(Engine {
            rules,
            graph,
            closed,
            table,
            next_check: opts.check_every.max(1),
            opts,
            nodes: 0,
            start: Instant::now(),
            saved: Instant::now(),
            progress: None,
            grid,
            free: Vec::new(),
            filter: (0..Engine::filter_words(cells))
                .map(|_| AtomicU64::new(0))
                .collect(),
            abort: None,
            key_cache: Engine::key_cache(cells),
            set_keys,
            coords: Engine::coords(&graph_shape),
        })
    }

    /// Calls `f` every [`Options::check_every`] nodes with the search's progress.
    pub fn set_progress(&mut self, f: impl FnMut(&Progress) + Send + 'static) {
        self.progress = Some(Box::new(f));
    }

    /// The game's rule.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The graph.
    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    /// The table (for its size and statistics).
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// Nodes searched so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// A snapshot of the search's progress.
    pub fn progress(&self) -> Progress {
        Progress {
            nodes: self.nodes,
            entries: self.table.len(),
            capacity: self.table.capacity(),
            replaced: self.table.replaced(),
            elapsed: self.start.elapsed(),
        }
    }

    /// The string a saved table is tied to: the rule, and the graph where keys are vertex sets
    /// of it (lattice keys are shapes, valid on every lattice).
    pub fn domain(&self) -> String {
        match self.grid {
            Some(_) => format!("{} lattice", self.rules.name()),
            None => format!("{} {}", self.rules.name(), self.graph.notation()),
        }
    }

    /// Writes the table to `path` (to resume later with [`Engine::load`]).
    pub fn save(&self, path: &Path) -> Result<(), SearchError> {
        let tmp = path.with_extension("tmp");
        let f = std::fs::File::create(&tmp).map_err(LoadError::Io)?;
        let mut w = std::io::BufWriter::new(f);
        self.table
            .save(&self.domain(), &mut w)
            .and_then(|_| std::io::Write::flush(&mut w))
            .map_err(LoadError::Io)?;
        drop(w);
        std::fs::rename(&tmp, path).map_err(LoadError::Io)?;
        Ok(())
    }

    /// Reads a table saved by [`Engine::save`] for the same domain; returns the entries read.
    pub fn load(&mut self, path: &Path) -> Result<u64, SearchError> {
        let f = std::fs::File::open(path).map_err(LoadError::Io)?;
        let mut r = std::io::BufReader::new(f);
        let n = self.table.load(&self.domain(), &mut r)?;
        for k in self.table.exact_keys() {
            self.mark(&k);
        }
        Ok(n)
    }

    fn check_position(&self, pos: VertexSet) -> Result<(), SearchError> {
        if pos & !self.graph.all() != 0 {
            return Err(SearchError::BadPosition {
                count: self.graph.vertex_count(),
            });
        }
        Ok(())
    }

    /// The nim value of the position `pos` (a set of the graph's vertices).
    pub fn grundy(&mut self, pos: VertexSet) -> Result<u32, SearchError> {
        self.check_position(pos)?;
        let mut parts = Vec::new();
        self.split(pos, &mut parts);
        let mut v = 0;
        for p in &parts {
            v ^= self.value(p)?;
        }
        Ok(v)
    }

    /// Whether `pos + *n` is a P-position (the Lemoine–Viennot question), without valuing
    /// `pos`'s largest component in full.
    pub fn is_p(&mut self, pos: VertexSet, n: u32) -> Result<bool, SearchError> {
        self.check_position(pos)?;
        let mut parts = Vec::new();
        self.split(pos, &mut parts);
        let mut r = n;
        parts.retain(|p| match self.known(p) {
            Some(v) => {
                r ^= v;
                false
            }
            None => true,
        });
        self.sum_is_p(&mut parts, r)
    }

    /// The stop flag the engine was made with ([`Options::stop`]).
    pub fn stop_flag(&self) -> Option<Arc<AtomicBool>> {
        self.opts.stop.clone()
    }

    /// The moves of `pos` and the positions they lead to ([`moves`] on this engine's game).
    pub fn moves(&self, pos: VertexSet) -> Vec<(Move, VertexSet)> {
        moves(self.rules, &self.graph, pos)
    }

    /// The nim value, outcome and every winning move of `pos`.
    pub fn analyze(&mut self, pos: VertexSet) -> Result<Analysis, SearchError> {
        let g = self.grundy(pos)?;
        let mut winning_moves = Vec::new();
        if g != 0 {
            for (m, to) in self.moves(pos) {
                if self.is_p(to, 0)? {
                    winning_moves.push(m);
                }
            }
        }
        Ok(Analysis {
            game: self.rules.name(),
            outcome: if g == 0 {
                grundy_core::Outcome::P
            } else {
                grundy_core::Outcome::N
            },
            grundy: u64::from(g),
            winning_moves,
            nodes: self.nodes,
        })
    }

    fn tick(&mut self) -> Result<(), SearchError> {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + self.opts.check_every.max(1);
            for s in [&self.opts.stop, &self.abort].into_iter().flatten() {
                if s.load(Ordering::Relaxed) {
                    return Err(SearchError::Stopped { nodes: self.nodes });
                }
            }
            if let Some(limit) = self.opts.max_nodes {
                if self.nodes >= limit {
                    return Err(SearchError::NodeLimit { limit });
                }
            }
            if self.progress.is_some() {
                let p = self.progress();
                if let Some(f) = self.progress.as_mut() {
                    f(&p);
                }
            }
            if let Some(c) = self.opts.checkpoint.as_ref().filter(|c| c.due(self.saved)) {
                self.save(&c.path)?;
                self.saved = Instant::now();
            }
        } else if let Some(limit) = self.opts.max_nodes {
            if self.nodes >= limit {
                return Err(SearchError::NodeLimit { limit });
            }
        }
        Ok(())
    }

    /// The live vertices of `pos` split into components, each with its key.
    fn split(&self, pos: VertexSet, out: &mut Vec<Part>) {
        out.clear();
        self.split_into(pos, out);
    }

    /// [`Engine::split`], appending to `out`.
    fn split_into(&self, pos: VertexSet, out: &mut Vec<Part>) {
        let mut rest = pos;
        if let Some(g) = self.reducible() {
            rest = reduce_grid(rest, &g);
        }
        if self.rules == Rules::ArcKayles {
            // A vertex with no live neighbour and no loop can never be deleted by a move.
            let mut live = self.graph.loops() & pos;
            match self.grid {
                Some(g) if g.small => {
                    let (p, sh) = (pos as u64, g.cols as u32);
                    let nb = (p << 1 & g.not_first as u64)
                        | (p >> 1 & g.not_last as u64)
                        | p.checked_shl(sh).unwrap_or(0)
                        | p.checked_shr(sh).unwrap_or(0);
                    live |= (nb & p) as u128;
                }
                Some(g) => live |= grid_neighbors(pos, &g) & pos,
                None => {
                    for v in bits(pos) {
                        if self.graph.neighbors(v) & pos != 0 {
                            live |= 1u128 << v;
                        }
                    }
                }
            }
            rest &= live;
        }
        while rest != 0 {
            let seed = rest & rest.wrapping_neg();
            let comp = match self.grid {
                Some(g) if g.small => {
                    // The same flood fill in 64-bit words: cheaper shifts.
                    let (r, nf, nl) = (rest as u64, g.not_first as u64, g.not_last as u64);
                    let sh = g.cols as u32;
                    let mut c = seed as u64;
                    loop {
                        let next = (c
                            | (c << 1 & nf)
                            | (c >> 1 & nl)
                            | c.checked_shl(sh).unwrap_or(0)
                            | c.checked_shr(sh).unwrap_or(0))
                            & r;
                        if next == c {
                            break c as u128;
                        }
                        c = next;
                    }
                }
                Some(g) => {
                    let mut c = seed;
                    loop {
                        let next = (c | grid_neighbors(c, &g)) & rest;
                        if next == c {
                            break c;
                        }
                        c = next;
                    }
                }
                None => {
                    let mut c = seed;
                    let mut frontier = seed;
                    while frontier != 0 {
                        let v = frontier.trailing_zeros() as usize;
                        frontier &= frontier - 1;
                        let new = self.graph.neighbors(v) & rest & !c;
                        c |= new;
                        frontier |= new;
                    }
                    c
                }
            };
            rest &= !comp;
            self.push_part(comp, out);
        }
    }

    /// Appends the component `comp` with its key.
    #[inline]
    fn push_part(&self, comp: VertexSet, out: &mut Vec<Part>) {
        self.push_sized(comp, comp.count_ones(), out);
    }

    /// [`Engine::push_part`] of a component of `size` cells, counted by the caller (the
    /// build has no population count instruction: a count of 128 bits is about 25
    /// instructions, one for each part of every option scanned).
    #[inline]
    fn push_sized(&self, comp: VertexSet, size: u32, out: &mut Vec<Part>) {
        let (key, zero) = self.key(comp);
        out.push(Part {
            set: comp,
            key,
            size,
            zero,
        });
    }

    /// [`Engine::split_into`] for a Cram option of the connected component `from` (on a
    /// lattice of at most 64 cells), already reduced to `to` ([`reduce_grid`]). Every
    /// component of `to` holds a cell next to a cell of `from` that is gone (the domino, or
    /// one the reductions dropped): a path of `from` from any cell of `to` to a gone cell
    /// enters the first from such a cell. So the fills start from those cells only, and once
    /// one of them is left, the live cells not yet placed are its component: the last part
    /// costs no fill, nor does a part whose fill has reached every seed left (then it is the
    /// last: the fill stops there instead of running on to the far end of the part).
    #[inline(always)]
    fn split_option(&self, g: GridShape, from: VertexSet, to: VertexSet, out: &mut Vec<Part>) {
        let nb = |x: u64| g.near64(x);
        let t = to as u64;
        // Live cells: those with a neighbour left (the others can never be covered).
        let mut rest = t & nb(t);
        let mut seeds = nb((from & !to) as u64) & rest;
        while seeds != 0 {
            let comp = if seeds & (seeds - 1) == 0 {
                rest
            } else {
                let mut c = seeds & seeds.wrapping_neg();
                loop {
                    let next = (c | nb(c)) & rest;
                    if next & seeds == seeds {
                        // Every seed reached: every part left holds one, so this is the last.
                        break rest;
                    }
                    if next == c {
                        break c;
                    }
                    c = next;
                }
            };
            rest &= !comp;
            seeds &= !comp;
            self.push_sized(comp as u128, comp.count_ones(), out);
        }
    }

    /// Whether a Cram move from the connected `comp` to `to` (two cells fewer) leaves one
    /// component of at least two cells, by a look around the removed domino only: the cells
    /// next to it that remain are linked within the 3 x 4 box around it (then any path of
    /// `comp` through the domino has a detour). `false` means "not shown": split in full.
    #[inline]
    fn stays_connected(&self, comp: VertexSet, to: VertexSet) -> bool {
        let Some(g) = self.grid else { return false };
        // (Fewer than two cells: `x & (x - 1) == 0`, cheaper than a count on this build.)
        if !g.small || self.rules != Rules::ArcKayles || to & to.wrapping_sub(1) == 0 {
            return false;
        }
        let (c, d) = (to as u64, (comp & !to) as u64);
        let (nf, nl, sh) = (g.not_first as u64, g.not_last as u64, g.cols as u32);
        let nb = |x: u64| g.near64(x);
        let near = nb(d) & c;
        if near & near.wrapping_sub(1) == 0 {
            return near != 0;
        }
        let row = d | (d << 1 & nf) | (d >> 1 & nl);
        let window =
            (row | row.checked_shl(sh).unwrap_or(0) | row.checked_shr(sh).unwrap_or(0)) & c;
        let mut x = near & near.wrapping_neg();
        loop {
            let next = (x | nb(x)) & window;
            if next == x {
                return near & !x == 0;
            }
            x = next;
        }
    }

    /// The lattice when positions are Cram positions (Arc Kayles, no loops), whose
    /// reductions [`reduce_grid`] applies.
    fn reducible(&self) -> Option<GridShape> {
        match self.grid {
            Some(g) if self.rules == Rules::ArcKayles && self.graph.loops() == 0 => Some(g),
            _ => None,
        }
    }

    /// Twice the centre of the bounding box of a lattice component, and the weights of
    /// [`Engine::dist`] (the zero centre off lattices).
    fn centre(&self, set: VertexSet) -> Centre {
        let Some(g) = self.grid else {
            return Centre::default();
        };
        let cols = g.cols;
        let first = set.trailing_zeros() as usize / cols;
        let last = (127 - set.leading_zeros() as usize) / cols;
        let mut or = 0u128;
        let mut rest = shr(set, first * cols);
        while rest != 0 {
            or |= rest & low(cols);
            rest = shr(rest, cols);
        }
        let minc = or.trailing_zeros() as usize;
        let maxc = 127 - or.leading_zeros() as usize;
        let (h, w) = (last - first + 1, maxc - minc + 1);
        // Across a short side of 5 cells or more the distance counts twice (Cram nodes: 5x6
        // 71 694 to 52 780, 5x7 507 090 to 326 817, 5x8 2.60 M to 2.49 M; boards 4 or fewer
        // high never have such a box, and weighting there was worse: 4x11 10.1 M to 10.8 M).
        // Distances are doubled, so that a half unit can put, at equal distance, a domino
        // across the short side before one along it when that side has 4 cells or more (4x7
        // 19 365 to 17 396 nodes, 4x9 307 647 to 279 285; on 3 x n boxes it cost nodes).
        let short = h.min(w);
        let (row_weight, col_weight) = match (short >= 5, h <= w) {
            (false, _) => (2, 2),
            (true, true) => (4, 2),
            (true, false) => (2, 4),
        };
        let (along_rows, along_cols) = match (short >= 4, h <= w) {
            (false, _) => (0, 0),
            (true, true) => (1, 0),
            (true, false) => (0, 1),
        };
        Centre {
            row: (first + last) as u32,
            col: (minc + maxc) as u32,
            row_weight,
            col_weight,
            along_rows,
            along_cols,
        }
    }

    /// The distance (in quarter cells, Manhattan, weighted by `centre`'s weights) from
    /// `centre` to the middle of the cells of `gone`, plus `centre`'s tie-break for a domino
    /// along the box's long side.
    fn dist(&self, centre: Centre, gone: VertexSet) -> u32 {
        if self.coords.is_empty() || gone == 0 {
            return 0;
        }
        let a = gone.trailing_zeros() as usize;
        let rest = gone & (gone - 1);
        let [mut r, mut c] = self.coords[a].map(u32::from);
        if rest != 0 {
            let [r2, c2] = self.coords[rest.trailing_zeros() as usize];
            r += u32::from(r2);
            c += u32::from(c2);
        }
        // A domino lying along a row has an odd sum of columns, one along a column an odd
        // sum of rows.
        centre.row_weight * r.abs_diff(centre.row)
            + centre.col_weight * c.abs_diff(centre.col)
            + centre.along_rows * (c & 1)
            + centre.along_cols * (r & 1)
    }

    /// Whether [`reduce_grid`] leaves `pos` as it is (always, off Cram).
    #[cfg(test)]
    fn unreduced(&self, pos: VertexSet) -> bool {
        match self.reducible() {
            Some(g) => reduce_once(pos, &g) == pos,
            None => true,
        }
    }

    /// Each cell's row and column on a lattice of `rows × cols` cells (none off lattices).
    fn coords(shape: &Option<(usize, usize)>) -> Vec<[u8; 2]> {
        match *shape {
            Some((rows, cols)) => (0..rows * cols)
                .map(|v| [(v / cols) as u8, (v % cols) as u8])
                .collect(),
            None => Vec::new(),
        }
    }

    /// An empty key cache for a lattice of `cells` cells (none unless at most 48; small on
    /// a small lattice, see [`SMALL_LATTICE`]).
    fn key_cache(cells: Option<usize>) -> Vec<[Cell<u64>; 2]> {
        let n = match cells {
            Some(n) if n <= SMALL_LATTICE => SMALL_KEY_CACHE,
            Some(n) if n <= 48 => KEY_CACHE,
            _ => 0,
        };
        (0..n).map(|_| Default::default()).collect()
    }

    /// An empty cache of vertex-set keys off the lattices, when the graph has more than
    /// [`SMALL_COMPONENT`] vertices (else none): [`SET_KEYS`] entries, or the largest power of
    /// two within an eighth of `max_memory` when that is less (none below 64). Its bytes come
    /// out of the table's share of the cap ([`Engine::new`]).
    fn set_keys(graph: &Graph, max_memory: usize) -> Vec<[Cell<u128>; 2]> {
        let fit = (max_memory / 8 / SET_KEY_BYTES).min(SET_KEYS);
        let n = if graph.grid_shape().is_none()
            && graph.vertex_count() > SMALL_COMPONENT
            && fit >= 64
        {
            1 << (usize::BITS - 1 - fit.leading_zeros())
        } else {
            0
        };
        (0..n).map(|_| Default::default()).collect()
    }

    /// The filter's words for a graph of `cells` cells if a lattice (see [`SMALL_LATTICE`]).
    fn filter_words(cells: Option<usize>) -> usize {
        match cells {
            Some(n) if n <= SMALL_LATTICE => SMALL_FILTER_WORDS,
            _ => FILTER_WORDS,
        }
    }

    /// The component's key, and whether it is known to be 0 by symmetry.
    ///
    /// On a lattice of at most 48 cells, through a direct-mapped cache by cell set: the same
    /// sets come back all the time (the options of a component asked again with another
    /// set of values, transpositions), and a hit costs a hash instead of eight images. An
    /// entry is `[set | tag << 48, shape | facts << 48 | zero << 63]` (sets and shapes fit 48
    /// bits; `facts`: the set's value, or values it is known not to have, see
    /// [`Engine::cached_facts`]).
    ///
    /// Inlined (a call per part of every option scanned, 2.4 M on Cram 4x9: the call cost
    /// about as much as a cache hit); the miss is [`Engine::key_missed`].
    #[inline(always)]
    fn key(&self, comp: VertexSet) -> (Key, bool) {
        match self.grid {
            Some(g) if !self.key_cache.is_empty() => {
                let set = comp as u64;
                let slot = self.cache_slot(set);
                let w0 = slot[0].get();
                if w0 & ((1 << 48) - 1) == set && set != 0 {
                    let w1 = slot[1].get();
                    let key = Key {
                        bits: (w1 & ((1 << 48) - 1)) as u128,
                        tag: (w0 >> 48) as u16,
                    };
                    return (key, w1 >> 63 != 0);
                }
                Engine::key_missed(slot, comp, g.cols)
            }
            Some(g) => grid_key_zero(comp, g.cols),
            None => self.key_off_lattice(comp),
        }
    }

    /// [`Engine::key`] on a key cache miss: the key found, and kept in `slot`.
    #[inline(never)]
    fn key_missed(slot: &[Cell<u64>; 2], comp: VertexSet, cols: usize) -> (Key, bool) {
        let (key, zero) = grid_key_zero(comp, cols);
        slot[0].set(comp as u64 | (key.tag as u64) << 48);
        slot[1].set(key.bits as u64 | (zero as u64) << 63);
        (key, zero)
    }

    /// [`Engine::key`] off lattices: through the cache of vertex-set keys when the graph has
    /// one (a component of at most [`SMALL_COMPONENT`] vertices costs a sort and a square of
    /// its size to key, a larger one a pass per shift tried: half the time of Node Kayles on
    /// the 3 x 27 grid as an edge list went there before the cache).
    #[inline(never)]
    fn key_off_lattice(&self, comp: VertexSet) -> (Key, bool) {
        let k = comp.count_ones() as usize;
        let tag = if k <= SMALL_COMPONENT {
            k as u16
        } else {
            u16::MAX
        };
        let fresh = || {
            if k <= SMALL_COMPONENT {
                self.small_key(comp, k).bits
            } else {
                self.vertex_set_key(comp)
            }
        };
        let bits = if self.set_keys.is_empty() {
            fresh()
        } else {
            let h = (comp as u64 ^ ((comp >> 64) as u64).rotate_left(29))
                .wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let slot = &self.set_keys[(h >> (64 - self.set_keys.len().trailing_zeros())) as usize];
            if slot[0].get() == comp {
                slot[1].get()
            } else {
                let bits = fresh();
                slot[0].set(comp);
                slot[1].set(bits);
                bits
            }
        };
        (Key { bits, tag }, false)
    }

    /// The key of a component of more than [`SMALL_COMPONENT`] vertices off the lattices: the
    /// least of its vertex set's translates in the vertex numbering ([`Engine::least_translate`])
    /// and, when reversing the numbering (`v ↦ n − 1 − v`) maps the component onto an
    /// isomorphic one, of that one's translates too. Each candidate is isomorphic to `comp`, so
    /// the key is exact. A graph numbered regularly (a grid row by row, a path, a ladder, a
    /// circulant, a prism) then shares one key among a component's translates and, where the
    /// reversal is the half turn (a grid row by row), its half-turn images, as the lattice
    /// keys do. Node Kayles on the 3 x 28 grid given as an edge list took 105.3 M nodes with
    /// vertex sets as keys, 38.2 M with translates and 18.8 M with the half turn too (the
    /// lattice, with all four symmetries of the rectangle: 10.3 M).
    fn vertex_set_key(&self, comp: VertexSet) -> VertexSet {
        let t = self.least_translate(comp);
        let n = self.graph.vertex_count();
        let rev = |s: VertexSet| s.reverse_bits() >> (128 - n);
        let image = rev(comp);
        if self.maps_onto(comp, image, rev, |v| n - 1 - v) {
            t.min(self.least_translate(image))
        } else {
            t
        }
    }

    /// The lowest translate of `comp` in the vertex numbering, `comp >> d` for the largest
    /// `d` such that `v ↦ v − d` maps the component onto `comp >> d` edge for edge and loop for
    /// loop; `comp` itself when no shift does. (Such shifts compose, so every translate
    /// isomorphic this way has the same lowest one.) Shifts are tried from the largest down,
    /// and a failing one mostly fails at its first vertex.
    fn least_translate(&self, comp: VertexSet) -> VertexSet {
        for d in (1..=comp.trailing_zeros() as usize).rev() {
            let image = comp >> d;
            if self.maps_onto(comp, image, |s| s >> d, |v| v - d) {
                return image;
            }
        }
        comp
    }

    /// Whether the vertex map `at` (with `set`, the same map on vertex sets) takes `comp`
    /// onto `image` edge for edge and loop for loop: an isomorphism of the two components.
    #[inline]
    fn maps_onto(
        &self,
        comp: VertexSet,
        image: VertexSet,
        set: impl Fn(VertexSet) -> VertexSet,
        at: impl Fn(usize) -> usize,
    ) -> bool {
        let loops = self.graph.loops();
        set(loops & comp) == loops & image
            && bits(comp)
                .all(|v| set(self.graph.neighbors(v) & comp) == self.graph.neighbors(at(v)) & image)
    }

    /// The adjacency matrix (upper triangle, then loops) of `comp` after ordering its
    /// vertices by (degree, sum of neighbours' degrees, vertex number).
    fn small_key(&self, comp: VertexSet, k: usize) -> Key {
        let mut vs: [(u32, u32, usize); SMALL_COMPONENT] = [(0, 0, 0); SMALL_COMPONENT];
        for (i, v) in bits(comp).enumerate() {
            vs[i] = ((self.graph.neighbors(v) & comp).count_ones(), 0, v);
        }
        for i in 0..k {
            let v = vs[i].2;
            let nv = self.graph.neighbors(v);
            let s = vs[..k]
                .iter()
                .filter(|w| nv & 1u128 << w.2 != 0)
                .map(|w| w.0)
                .sum();
            vs[i].1 = s;
        }
        vs[..k].sort_unstable();
        let mut out = 0u128;
        let mut b = 0;
        for i in 0..k {
            let ni = self.graph.neighbors(vs[i].2);
            for vj in vs.iter().take(k).skip(i + 1) {
                if ni & 1u128 << vj.2 != 0 {
                    out |= 1u128 << b;
                }
                b += 1;
            }
        }
        for (i, vi) in vs.iter().take(k).enumerate() {
            if self.graph.loops() & 1u128 << vi.2 != 0 {
                out |= 1u128 << (b + i);
            }
        }
        Key {
            bits: out,
            tag: k as u16,
        }
    }

    /// A bound on a component's value: its longest play.
    fn bound(&self, p: &Part) -> u32 {
        match self.rules {
            Rules::NodeKayles => p.size,
            Rules::ArcKayles => (p.size + (p.set & self.graph.loops()).count_ones()) / 2,
        }
    }

    /// The value of `p` if known without search.
    ///
    /// The filter and the table are [`Engine::known_in_table`].
    fn known(&self, p: &Part) -> Option<u32> {
        match (self.rules, p.size) {
            (Rules::NodeKayles, 1 | 2) => Some(1),
            (Rules::ArcKayles, 2) if p.set & self.graph.loops() == 0 => Some(1),
            _ if p.zero && self.opts.mirror => Some(0),
            _ => {
                if let Some(v) = self.cached_value(p.set) {
                    return Some(v);
                }
                self.known_in_table(p)
            }
        }
    }

    /// [`Engine::known`] past the key cache: the filter, then the table.
    #[inline(never)]
    fn known_in_table(&self, p: &Part) -> Option<u32> {
        let (w, b) = filter_bit(&p.key, self.filter.len());
        if self.filter[w].load(Ordering::Relaxed) >> b & 1 == 0 {
            return None;
        }
        let v = self.table.get(&p.key).value;
        if let Some(v) = v {
            self.cache_value(p.set, v);
        }
        v
    }

    /// The key cache's slot for the cell set `set` (the cache must not be empty).
    #[inline]
    fn cache_slot(&self, set: u64) -> &[Cell<u64>; 2] {
        let h = set.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        &self.key_cache[(h >> (64 - self.key_cache.len().trailing_zeros())) as usize]
    }

    /// The facts a key cache entry holds about the component `set` (bits 48 to 62 of its
    /// second word: [`EXACT`] and the value, or the "not" mask), 0 when the entry holds
    /// another set or there is no cache.
    #[inline]
    fn cached_facts(&self, set: VertexSet) -> u32 {
        if self.key_cache.is_empty() {
            return 0;
        }
        let slot = self.cache_slot(set as u64);
        if slot[0].get() & ((1 << 48) - 1) == set as u64 {
            (slot[1].get() >> 48) as u32 & 0x7FFF
        } else {
            0
        }
    }

    /// The value of the component `set`, if its key cache entry holds it: a hit spares the
    /// filter's hash and the table's look-up (and its cache miss).
    #[inline]
    fn cached_value(&self, set: VertexSet) -> Option<u32> {
        let f = self.cached_facts(set);
        (f & EXACT != 0).then_some(f & 0xFF)
    }

    /// The values below [`NOT_BITS`] that the component `set` is known not to have, from
    /// its key cache entry (0 when the entry holds another set, or there is no cache).
    #[inline]
    fn cached_not(&self, set: VertexSet) -> u32 {
        let f = self.cached_facts(set);
        match f & EXACT {
            0 => f & ((1 << NOT_BITS) - 1),
            _ => ((1 << NOT_BITS) - 1) & !(1u32.checked_shl(f & 0xFF).unwrap_or(0)),
        }
    }

    /// Notes the value `v` of the component `set` in its key cache entry, if the entry is
    /// still that set's (a value is a fact: it never has to be taken back).
    #[inline]
    fn cache_value(&self, set: VertexSet, v: u32) {
        if self.key_cache.is_empty() || v > 0xFF {
            return;
        }
        let slot = self.cache_slot(set as u64);
        if slot[0].get() & ((1 << 48) - 1) == set as u64 {
            let w1 = slot[1].get() & !(0x7FFF << 48);
            slot[1].set(w1 | u64::from(EXACT | v) << 48);
        }
    }

    /// Notes in the key cache entry of the component `set` (if it is still that set's) that
    /// its value is not in `r` (the values below [`NOT_BITS`] of it). The table keeps only
    /// exact values (the "not" answers were three quarters of its entries), but these bits
    /// cost no memory and spare a component asked the same question again its scan of the
    /// options (Cram 5x6: a fifth of the scans that end early repeat an earlier question).
    #[inline]
    fn cache_not(&self, set: VertexSet, r: u128) {
        if self.key_cache.is_empty() {
            return;
        }
        let slot = self.cache_slot(set as u64);
        let w1 = slot[1].get();
        if slot[0].get() & ((1 << 48) - 1) == set as u64 && (w1 >> 48) as u32 & EXACT == 0 {
            let bits = (r as u64 & ((1 << NOT_BITS) - 1)) << 48;
            slot[1].set(w1 | bits);
        }
    }

    /// Records `p`'s value in the table and its key in the filter.
    fn set_value(&mut self, p: &Part, v: u32) {
        self.mark(&p.key);
        self.table.set_value(&p.key, p.size, v);
        self.cache_value(p.set, v);
    }

    /// Sets `k`'s bit in the filter.
    fn mark(&self, k: &Key) {
        let (w, b) = filter_bit(k, self.filter.len());
        let f = &self.filter[w];
        let old = f.load(Ordering::Relaxed);
        if old >> b & 1 == 0 {
            f.store(old | 1 << b, Ordering::Relaxed);
        }
    }

    fn value(&mut self, p: &Part) -> Result<u32, SearchError> {
        if let Some(v) = self.known(p) {
            return Ok(v);
        }
        self.value_lv(p)
    }

    /// [`Engine::value`] by the Lemoine–Viennot questions, one value after another.
    fn value_lv(&mut self, p: &Part) -> Result<u32, SearchError> {
        self.tick()?;
        let not = self.table.get(&p.key).not;
        let mut opts: Option<Opts> = None;
        let mut n = 0;
        let found = loop {
            if !excluded(not, n) {
                let reached = match opts.as_mut() {
                    Some(list) => self.has_option_value(p, list, n),
                    None => match self.options_until(p, n) {
                        None => Ok(true),
                        Some(list) => self.has_option_value(p, opts.insert(list), n),
                    },
                };
                match reached {
                    Ok(true) => {}
                    Ok(false) => break Ok(n),
                    Err(e) => break Err(e),
                }
            }
            n += 1;
        };
        if let Some(o) = opts {
            self.give_back(o);
        }
        let n = found?;
        self.set_value(p, n);
        Ok(n)
    }

    /// "Is `parts + *n` a P-position?" for parts of unknown value.
    fn sum_is_p(&mut self, parts: &mut [Part], n: u32) -> Result<bool, SearchError> {
        match parts.len() {
            0 => Ok(n == 0),
            1 => self.is_value(&parts[0], n),
            _ => {
                parts.sort_unstable_by_key(|p| p.size);
                let (last, rest) = parts.split_last().expect("two parts");
                let mut r = n;
                for p in rest {
                    r ^= self.value(p)?;
                }
                self.is_value(last, r)
            }
        }
    }

    /// Empty buffers for an option list, from the free list when there are some (the search
    /// allocates only while it goes deeper than ever before).
    fn take_bufs(&mut self) -> Opts {
        self.free.pop().unwrap_or_default()
    }

    fn give_back(&mut self, mut o: Opts) {
        o.list.clear();
        o.parts.clear();
        o.tos.clear();
        self.free.push(o);
    }

    /// The positions the moves of `pos` lead to, appended to `out` (without the moves).
    fn option_sets(&self, pos: VertexSet, out: &mut Vec<VertexSet>) {
        match (self.rules, self.grid) {
            (Rules::ArcKayles, Some(g)) if self.graph.loops() == 0 && g.small => {
                // The same in 64-bit words.
                let (p, sh) = (pos as u64, g.cols as u32);
                let mut h = p & (p >> 1) & g.not_last as u64;
                while h != 0 {
                    let u = h & h.wrapping_neg();
                    h &= h - 1;
                    out.push((p & !(u | u << 1)) as u128);
                }
                let mut v = p & p.checked_shr(sh).unwrap_or(0);
                while v != 0 {
                    let u = v & v.wrapping_neg();
                    v &= v - 1;
                    out.push((p & !(u | u << sh)) as u128);
                }
            }
            (Rules::ArcKayles, Some(g)) if self.graph.loops() == 0 => {
                // Dominoes: a cell and its right or lower neighbour.
                let mut h = pos & (pos >> 1) & g.not_last;
                while h != 0 {
                    let u = h & h.wrapping_neg();
                    h &= h - 1;
                    out.push(pos & !(u | u << 1));
                }
                let mut v = pos & shr(pos, g.cols);
                while v != 0 {
                    let u = v & v.wrapping_neg();
                    v &= v - 1;
                    out.push(pos & !(u | shl(u, g.cols)));
                }
            }
            (Rules::NodeKayles, _) => {
                for v in bits(pos) {
                    out.push(pos & !self.closed[v]);
                }
            }
            (Rules::ArcKayles, _) => {
                for u in bits(pos) {
                    if self.graph.loops() & pos & 1u128 << u != 0 {
                        out.push(pos & !(1u128 << u));
                    }
                    for v in bits(self.graph.neighbors(u) & pos & !low(u + 1)) {
                        out.push(pos & !(1u128 << u | 1u128 << v));
                    }
                }
            }
        }
    }

    /// The options of `p`, each as its parts of unknown value and the XOR of the known ones;
    /// options all of whose parts are known come first, the rest by the size of their largest
    /// part, smallest first; options with the same parts (symmetric moves) appear once. `None`
    /// as soon as an option of known value `n` appears (so `p` is not `n`; not recorded):
    /// most questions end there, before the other options are even split.
    fn options_until(&mut self, p: &Part, n: u32) -> Option<Opts> {
        let mut o = self.take_bufs();
        self.option_sets(p.set, &mut o.tos);
        let centre = self.centre(p.set);
        for i in 0..o.tos.len() {
            let start = o.parts.len();
            let to = o.tos[i];
            let (xor, largest) = self.option_parts(p.set, p.size, to, &mut o.parts);
            let k = o.parts.len();
            if k == start && xor == n {
                // Not recorded: asking again costs this one node, and these answers were
                // three quarters of the table (Cram 5x6: 95 000 of 112 000 entries; without
                // them 3.5 times less memory, 45% more nodes, about the same time).
                self.give_back(o);
                return None;
            }
            let dist = self.dist(centre, p.set & !to);
            o.list.push(Opt {
                order: order_key(
                    k != start,
                    p.size - largest.min(p.size),
                    dist,
                    xor,
                    &o.parts[start..k],
                ),
                xor,
                start: start as u32,
                len: (k - start) as u32,
            });
        }
        sort_dedup_options(&mut o);
        Some(o)
    }

    /// Whether some option of `p` has value `n` (then `p` does not; recorded).
    fn has_option_value(&mut self, p: &Part, o: &mut Opts, n: u32) -> Result<bool, SearchError> {
        // Options whose value is known: no search.
        for opt in o.list.iter_mut() {
            if opt.len == 0 {
                if opt.xor == n {
                    self.table.set_not(&p.key, p.size, n);
                    return Ok(true);
                }
            } else {
                // Parts may have been valued since: fold them in.
                let start = opt.start as usize;
                let (known, k) = self.fold_known(&mut o.parts, start, opt.range().end);
                let xor = opt.xor ^ known;
                if k != start + opt.len as usize {
                    opt.xor = xor;
                    opt.len = (k - start) as u32;
                    if opt.len == 0 && opt.xor == n {
                        self.table.set_not(&p.key, p.size, n);
                        return Ok(true);
                    }
                }
            }
        }
        if self.opts.threads > 1
            && self.abort.is_none()
            && p.size >= PARALLEL_SIZE
            && self.table.is_compact()
        {
            let found = self.any_option_p(o, n)?;
            if found {
                self.table.set_not(&p.key, p.size, n);
            }
            return Ok(found);
        }
        for i in 0..o.list.len() {
            let opt = o.list[i];
            if opt.len != 0 && self.sum_is_p(&mut o.parts[opt.range()], n ^ opt.xor)? {
                self.table.set_not(&p.key, p.size, n);
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether some option of `o` (parts of unknown value) plus `*n` is a P-position, asked
    /// on [`Options::threads`] helper threads that share the table and the filter: each takes
    /// the next option in order; the first "yes" stops the others (by their abort flag).
    fn any_option_p(&mut self, o: &Opts, n: u32) -> Result<bool, SearchError> {
        let tasks: Vec<(Vec<Part>, u32)> = o
            .list
            .iter()
            .filter(|opt| opt.len != 0)
            .map(|opt| (o.parts[opt.range()].to_vec(), n ^ opt.xor))
            .collect();
        let next = AtomicUsize::new(0);
        let abort = Arc::new(AtomicBool::new(false));
        let helpers: Vec<Engine> = (0..self.opts.threads)
            .map(|_| self.helper(abort.clone()))
            .collect();
        let outcomes: Vec<(Result<bool, SearchError>, u64)> = std::thread::scope(|sc| {
            let handles: Vec<_> = helpers
                .into_iter()
                .map(|mut h| {
                    let (tasks, next, abort) = (&tasks, &next, &abort);
                    sc.spawn(move || {
                        let r = loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            if i >= tasks.len() || abort.load(Ordering::Relaxed) {
                                break Ok(false);
                            }
                            let mut parts = tasks[i].0.clone();
                            match h.sum_is_p(&mut parts, tasks[i].1) {
                                Ok(false) => {}
                                Ok(true) => {
                                    abort.store(true, Ordering::Relaxed);
                                    break Ok(true);
                                }
                                Err(e) => {
                                    abort.store(true, Ordering::Relaxed);
                                    break Err(e);
                                }
                            }
                        };
                        (r, h.nodes)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a search thread panicked"))
                .collect()
        });
        let mut found = false;
        let mut err = None;
        for (r, nodes) in outcomes {
            self.nodes += nodes;
            match r {
                Ok(f) => found |= f,
                // A helper stopped by the abort flag yields to another's real error.
                Err(e) => {
                    if !matches!(err, Some(ref x) if !matches!(x, SearchError::Stopped { .. })) {
                        err = Some(e);
                    }
                }
            }
        }
        if found {
            return Ok(true);
        }
        match err {
            // A helper stopped by the user's flag or a limit: so is the search.
            Some(SearchError::Stopped { .. }) => Err(SearchError::Stopped { nodes: self.nodes }),
            Some(SearchError::NodeLimit { .. }) => Err(SearchError::NodeLimit {
                limit: self.opts.max_nodes.unwrap_or(self.nodes),
            }),
            Some(e) => Err(e),
            None => Ok(false),
        }
    }

    /// An engine for a helper thread: the same game, the shared table and filter, its own
    /// buffers and node count; it stops when `abort` is raised (checked every 256 nodes), and
    /// never starts threads of its own.
    fn helper(&self, abort: Arc<AtomicBool>) -> Engine {
        let mut opts = self.opts.clone();
        opts.check_every = 256;
        // The helpers share what is left of the node limit.
        let share = self.opts.threads.max(1) as u64;
        // The main engine saves the shared table; a helper never does.
        opts.checkpoint = None;
        opts.max_nodes = opts
            .max_nodes
            .map(|m| (m.saturating_sub(self.nodes) / share).max(1));
        Engine {
            rules: self.rules,
            graph: self.graph.clone(),
            closed: self.closed.clone(),
            table: self.table.share().expect("a compact table"),
            next_check: opts.check_every,
            opts,
            nodes: 0,
            start: self.start,
            saved: self.saved,
            progress: None,
            grid: self.grid,
            free: Vec::new(),
            filter: self.filter.clone(),
            abort: Some(abort),
            key_cache: Engine::key_cache(self.graph.grid_shape().map(|(r, c)| r * c)),
            set_keys: (0..self.set_keys.len())
                .map(|_| Default::default())
                .collect(),
            coords: self.coords.clone(),
        }
    }

    /// The value of `p` if it lies in the set `r` (bit `n`: value `n`), else `None` (then
    /// the value is not in `r`), by Beling and Rogalski's pruning ("On pruning search trees
    /// of impartial games", AI 283, 2020).
    ///
    /// `cand` holds the values `p` may still have: at first `0..=k` (`k` bounds the value:
    /// the number of options, the longest play). An option of known value `v` removes `v`.
    /// The others are asked, smallest first, whether their value lies in `cand` without its
    /// largest element, cut at `max r`: an answer `v` removes `v`, an answer "no" removes
    /// the largest element of `cand`. Then the least `s` of `cand` is the value when every
    /// answer was exact or `s <= max r` (every `x < s` was removed by an exact answer, as a
    /// "no" only ever removes the largest, which is above `s`; and no option has value `s`,
    /// since the "no"s were asked about every element of `cand` but its largest); otherwise
    /// the value exceeds `max r`. `cand` and `r` disjoint at any point: the value is not in
    /// `r`.
    fn in_set(&mut self, p: &Part, r: u128) -> Result<Option<u32>, SearchError> {
        if let Some(v) = self.known(p) {
            return Ok(Some(v));
        }
        // The value is at most the longest play `top`: only `r`'s values up to it matter.
        let top = self.bound(p);
        debug_assert!(top < 127);
        // Nor the values the key cache knows it does not have.
        let r = r & low(top as usize + 1) & !u128::from(self.cached_not(p.set));
        if r == 0 {
            return Ok(None);
        }
        self.tick()?;
        // `cand` is `0..=k` for `k` options (elements from 128 on counted in `hi`): `cand`
        // keeps more elements than options left to ask, so a "no" always has a largest to take.
        let mut cand = ALL;
        let mut hi = 0;
        let Some(mut o) = self.options_br(p, &mut cand, &mut hi, r) else {
            self.cache_not(p.set, r);
            return Ok(None);
        };
        let maxr = 127 - r.leading_zeros();
        let upto = low(maxr as usize + 1);
        let mut exact = true;
        let mut i = 0;
        let out = loop {
            if cand & r == 0 {
                break Ok(None);
            }
            if i == o.list.len() {
                let s = cand.trailing_zeros();
                if exact || s <= maxr {
                    self.set_value(p, s);
                    break Ok(Some(s));
                }
                break Ok(None);
            }
            let opt = o.list[i];
            i += 1;
            // Parts may have been valued since: fold them in.
            let start = opt.start as usize;
            let (known, k) = self.fold_known(&mut o.parts, start, opt.range().end);
            let mut xor = opt.xor ^ known;
            if k == start {
                cand &= !(1u128 << xor);
                continue;
            }
            // Every part but the largest valued in full.
            let mut failed = None;
            for j in start..k - 1 {
                let q = o.parts[j];
                match self.value(&q) {
                    Ok(v) => xor ^= v,
                    Err(e) => {
                        failed = Some(e);
                        break;
                    }
                }
            }
            if let Some(e) = failed {
                break Err(e);
            }
            let largest = if hi > 0 {
                0
            } else {
                1u128 << (127 - cand.leading_zeros())
            };
            let ask = cand & !largest & upto;
            let answer = if ask == 0 {
                Ok(None)
            } else {
                let last = o.parts[k - 1];
                self.in_set(&last, xor_set(ask, xor))
            };
            match answer {
                Ok(Some(v)) => cand &= !(1u128 << (v ^ xor)),
                Ok(None) => {
                    if hi > 0 {
                        hi -= 1;
                    } else {
                        cand &= !largest;
                    }
                    exact = false;
                }
                Err(e) => break Err(e),
            }
        };
        self.give_back(o);
        if let Ok(None) = out {
            self.cache_not(p.set, r);
        }
        out
    }

    /// Moves the parts of `parts[start..end]` whose value is not known to the front of that
    /// range, in order; returns the XOR of the known parts' values and the end of the unknown
    /// ones.
    #[inline]
    fn fold_known(&self, parts: &mut [Part], start: usize, end: usize) -> (u32, usize) {
        let mut xor = 0;
        let mut k = start;
        for j in start..end {
            let q = parts[j];
            match self.known(&q) {
                Some(v) => xor ^= v,
                None => {
                    parts[k] = q;
                    k += 1;
                }
            }
        }
        (xor, k)
    }

    /// Appends to `parts` the parts of the option `to` of `from` whose value is not known,
    /// sorted by size and key with equal pairs cancelled, and returns the XOR of the known
    /// parts' values and the size of the largest part appended (0 if none).
    #[inline]
    fn option_parts(
        &mut self,
        from: VertexSet,
        from_size: u32,
        to: VertexSet,
        parts: &mut Vec<Part>,
    ) -> (u32, u32) {
        let start = parts.len();
        match self.reducible() {
            Some(g) if g.small => {
                let once = reduce_once_small(to as u64, &g) as u128;
                if once == to && self.stays_connected(from, to) {
                    // One part, found without a flood fill: the domino's two cells fewer.
                    self.push_sized(to, from_size - 2, parts);
                } else {
                    self.split_cram_option(g, from, to, once, parts);
                }
            }
            _ => self.split_into(to, parts),
        }
        self.finish_option(parts, start)
    }

    /// The parts of a Cram option `to` of `from` that [`Engine::stays_connected`] did not
    /// show to be one part, given `once`, `to` after one round of [`reduce_once`].
    #[inline]
    fn split_cram_option(
        &self,
        g: GridShape,
        from: VertexSet,
        to: VertexSet,
        once: VertexSet,
        parts: &mut Vec<Part>,
    ) {
        let reduced = if once == to {
            to
        } else {
            // `g` is small: the rounds in 64-bit words.
            reduce_grid_small(once as u64, &g) as u128
        };
        self.split_option(g, from, reduced, parts);
    }

    /// Folds the known parts of `parts[start..]` (one option's) into their XOR, sorts the
    /// others by size and key and cancels equal pairs; returns the XOR and the size of the
    /// largest part left (0 if none).
    #[inline]
    fn finish_option(&self, parts: &mut Vec<Part>, start: usize) -> (u32, u32) {
        let end = parts.len();
        let (xor, k) = self.fold_known(parts, start, end);
        parts.truncate(k);
        match k - start {
            0 | 1 => {}
            // Two parts (most splits): one comparison, no sort.
            2 => {
                let (a, b) = (parts[start], parts[start + 1]);
                if a.key == b.key {
                    parts.truncate(start);
                } else if (b.size, b.key) < (a.size, a.key) {
                    parts.swap(start, start + 1);
                }
            }
            _ => {
                parts[start..].sort_unstable_by_key(|q| (q.size, q.key));
                cancel_pairs(parts, start);
            }
        }
        let largest = parts[start..].last().map_or(0, |q| q.size);
        (xor, largest)
    }

    /// The options of `p` whose value is not known (as [`Engine::options_until`] lists them),
    /// after removing the values of the known ones from `cand`; `None` as soon as `cand` and
    /// `r` are disjoint.
    ///
    /// On Cram (a lattice of at most 64 cells) the options that split `p` are scanned
    /// first and those that leave it in one piece after them: a scan that ends early mostly
    /// ends at an option that splits (its parts are small and known; Cram 5x6: 88 % of the
    /// scans that end early), and the list is sorted afterwards, so the order of the scan
    /// changes only how soon it ends. The sort keys (the distance from the centre, the
    /// fingerprint of the parts) are computed once the scan is over, for the scans that
    /// need them (Cram 4x9 and 5x7: 3 % fewer instructions).
    fn options_br(&mut self, p: &Part, cand: &mut u128, hi: &mut usize, r: u128) -> Option<Opts> {
        let mut o = self.take_bufs();
        self.option_sets(p.set, &mut o.tos);
        *cand = low(o.tos.len() + 1);
        *hi = (o.tos.len() + 1).saturating_sub(128);
        let cram = self.reducible().filter(|g| g.small);
        // Options that stay in one piece, put off to a second pass (moved to the front of
        // `o.tos`, already reduced).
        let mut later = 0;
        for pass in 0..2 {
            let count = if pass == 0 { o.tos.len() } else { later };
            for i in 0..count {
                let start = o.parts.len();
                let to = o.tos[i];
                match cram {
                    Some(g) if pass == 0 => {
                        let once = reduce_once_small(to as u64, &g) as u128;
                        if once == to && self.stays_connected(p.set, to) {
                            o.tos[later] = to;
                            later += 1;
                            continue;
                        }
                        self.split_cram_option(g, p.set, to, once, &mut o.parts);
                    }
                    Some(_) => self.push_sized(to, p.size - 2, &mut o.parts),
                    None => self.split_into(to, &mut o.parts),
                }
                let (xor, _) = self.finish_option(&mut o.parts, start);
                let k = o.parts.len();
                if k == start {
                    *cand &= !(1u128 << xor);
                    if *cand & r == 0 {
                        self.give_back(o);
                        return None;
                    }
                    continue;
                }
                // The order waits for the end of the scan (most scans end early, and
                // their options are never sorted): `order` holds the option's cells till then.
                o.list.push(Opt {
                    order: to,
                    xor,
                    start: start as u32,
                    len: (k - start) as u32,
                });
            }
            if cram.is_none() {
                break;
            }
        }
        let centre = self.centre(p.set);
        for i in 0..o.list.len() {
            let opt = o.list[i];
            let parts = &o.parts[opt.range()];
            // Parts are sorted by size: the last is the largest.
            let largest = parts[parts.len() - 1].size;
            let dist = self.dist(centre, p.set & !opt.order);
            o.list[i].order = order_key(false, p.size - largest.min(p.size), dist, opt.xor, parts);
        }
        sort_dedup_options(&mut o);
        Some(o)
    }

    /// Whether the component `p` has value `n`.
    fn is_value(&mut self, p: &Part, n: u32) -> Result<bool, SearchError> {
        if let Some(v) = self.known(p) {
            return Ok(v == n);
        }
        if self.bound(p) < 127 {
            if n >= 127 {
                return Ok(false);
            }
            return Ok(self.in_set(p, 1u128 << n)? == Some(n));
        }
        let not = self.table.get(&p.key).not;
        if excluded(not, n) {
            return Ok(false);
        }
        if n > self.bound(p) {
            return Ok(false);
        }
        self.tick()?;
        let Some(mut opts) = self.options_until(p, n) else {
            return Ok(false);
        };
        let r = self.is_value_with(p, &mut opts, not, n);
        self.give_back(opts);
        r
    }

    fn is_value_with(
        &mut self,
        p: &Part,
        opts: &mut Opts,
        not: u32,
        n: u32,
    ) -> Result<bool, SearchError> {
        if self.has_option_value(p, opts, n)? {
            return Ok(false);
        }
        // No option has value n, so the value is at most n: it is n unless smaller.
        for m in 0..n {
            if excluded(not, m) {
                continue;
            }
            if !self.has_option_value(p, opts, m)? {
                self.set_value(p, m);
                return Ok(false);
            }
        }
        self.set_value(p, n);
        Ok(true)
    }
}

/// Twice the centre of a component's bounding box (row, column), and how much a move's
/// distance from it across the rows and the columns weighs in the move order.
#[derive(Clone, Copy, Default)]
struct Centre {
    row: u32,
    col: u32,
    row_weight: u32,
    col_weight: u32,
    /// Added for a domino that lies along a row.
    along_rows: u32,
    /// Added for a domino that lies along a column.
    along_cols: u32,
}

/// An option of a component: its parts of unknown value (a range of [`Opts::parts`]), the
/// XOR of the others, and the size of its largest unknown part (for ordering).
#[derive(Clone, Copy)]
struct Opt {
    /// The search order ([`order_key`]): whether it has unknown parts, the size of its
    /// largest unknown part, how far the move lies from the component's centre, the XOR of
    /// the known parts and a fingerprint of the unknown parts' keys. (During the scan of
    /// [`Engine::options_br`], the option's cells: its order is computed after the scan.)
    order: u128,
    xor: u32,
    start: u32,
    len: u32,
}

impl Opt {
    fn range(&self) -> std::ops::Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }
}

/// The options of one component under search: one flat buffer of parts for all of them, so a
/// search node allocates nothing once the free list holds a set for every depth.
#[derive(Default)]
struct Opts {
    list: Vec<Opt>,
    parts: Vec<Part>,
    tos: Vec<VertexSet>,
}

/// Drops the pairs of equal keys from `parts[start..]` (sorted by size and key): `A + A = 0`.
fn cancel_pairs(parts: &mut Vec<Part>, start: usize) {
    let mut k = start;
    let mut j = start;
    while j < parts.len() {
        if j + 1 < parts.len() && parts[j].key == parts[j + 1].key {
            j += 2;
        } else {
            parts[k] = parts[j];
            k += 1;
            j += 1;
        }
    }
    parts.truncate(k);
}

/// One round of Cram's reductions, each of which leaves the value unchanged (so
/// components are smaller, split more often and meet known shapes more often):
///
/// - a cell with several pendant neighbours (a "tuft": a cell with one neighbour) keeps one:
///   the moves onto its pendants lead to the same positions, bar dead cells, and any other
///   move kills them all;
/// - a cell whose neighbours all have a pendant neighbour other than it is dropped: a move
///   from it onto a neighbour `c` leads where the move from `c` onto its pendant leads bar a
///   dead cell, and no other move touches it.
///
/// Both are proved by pairing the moves of the two games (a bisimulation), by induction.
fn reduce_once(p: VertexSet, g: &GridShape) -> VertexSet {
    if g.small {
        return reduce_once_small(p as u64, g) as u128;
    }
    let cols = g.cols;
    let right = (p >> 1) & g.not_last & p;
    let left = (p << 1) & g.not_first & p;
    let down = shr(p, cols) & p;
    let up = shl(p, cols) & p;
    let odd = right ^ left ^ down ^ up;
    let two = (right & left) | ((right | left) & (down | up)) | (down & up);
    let tufts = odd & !two;
    // The pendants by the side their centre lies on, and their centres.
    let (t_r, t_l, t_d, t_u) = (tufts & right, tufts & left, tufts & down, tufts & up);
    let (c_r, c_l, c_d, c_u) = (t_r << 1, t_l >> 1, shl(t_d, cols), shr(t_u, cols));
    let mut seen = c_d;
    let mut drop = t_r & (seen >> 1);
    seen |= c_r;
    drop |= t_u & shl(seen, cols);
    seen |= c_u;
    drop |= t_l & (seen << 1);
    seen |= c_l;
    let other = p & !(tufts | seen);
    let near_other = ((other >> 1) & g.not_last)
        | ((other << 1) & g.not_first)
        | shr(other, cols)
        | shl(other, cols);
    let bridges = other & !near_other;
    p & !(drop | bridges)
}

/// [`reduce_once`] on a lattice of at most 64 cells, in 64-bit words (cheaper shifts).
#[inline]
fn reduce_once_small(p: u64, g: &GridShape) -> u64 {
    let (cols, nf, nl) = (g.cols as u32, g.not_first as u64, g.not_last as u64);
    let shl = |m: u64| m.checked_shl(cols).unwrap_or(0);
    let shr = |m: u64| m.checked_shr(cols).unwrap_or(0);
    let right = (p >> 1) & nl & p;
    let left = (p << 1) & nf & p;
    let down = shr(p) & p;
    let up = shl(p) & p;
    let odd = right ^ left ^ down ^ up;
    let two = (right & left) | ((right | left) & (down | up)) | (down & up);
    let tufts = odd & !two;
    let (t_r, t_l, t_d, t_u) = (tufts & right, tufts & left, tufts & down, tufts & up);
    let (c_r, c_l, c_d, c_u) = (t_r << 1, t_l >> 1, shl(t_d), shr(t_u));
    let mut seen = c_d;
    let mut drop = t_r & (seen >> 1);
    seen |= c_r;
    drop |= t_u & shl(seen);
    seen |= c_u;
    drop |= t_l & (seen << 1);
    seen |= c_l;
    let other = p & !(tufts | seen);
    let near_other = ((other >> 1) & nl) | ((other << 1) & nf) | shr(other) | shl(other);
    let bridges = other & !near_other;
    p & !(drop | bridges)
}

/// [`reduce_once`] until nothing changes.
fn reduce_grid(mut p: VertexSet, g: &GridShape) -> VertexSet {
    if g.small {
        return reduce_grid_small(p as u64, g) as u128;
    }
    loop {
        let q = reduce_once(p, g);
        if q == p {
            return p;
        }
        p = q;
    }
}

/// [`reduce_grid`] on a lattice of at most 64 cells: every round in 64-bit words.
#[inline]
fn reduce_grid_small(mut p: u64, g: &GridShape) -> u64 {
    loop {
        let q = reduce_once_small(p, g);
        if q == p {
            return p;
        }
        p = q;
    }
}

/// Every value (as a set, bit `n` for value `n`).
const ALL: u128 = u128::MAX;

/// The set `{x ^ v : x in s}`, for values below 128.
fn xor_set(mut s: u128, v: u32) -> u128 {
    const HALVES: [u128; 7] = [
        0x5555_5555_5555_5555_5555_5555_5555_5555,
        0x3333_3333_3333_3333_3333_3333_3333_3333,
        0x0F0F_0F0F_0F0F_0F0F_0F0F_0F0F_0F0F_0F0F,
        0x00FF_00FF_00FF_00FF_00FF_00FF_00FF_00FF,
        0x0000_FFFF_0000_FFFF_0000_FFFF_0000_FFFF,
        0x0000_0000_FFFF_FFFF_0000_0000_FFFF_FFFF,
        0x0000_0000_0000_0000_FFFF_FFFF_FFFF_FFFF,
    ];
    for (i, m) in HALVES.iter().enumerate() {
        if v >> i & 1 != 0 {
            let k = 1 << i;
            s = (s & m) << k | (s >> k) & m;
        }
    }
    s
}

/// Whether the mask of values a component is known not to have includes `n`.
fn excluded(not: u32, n: u32) -> bool {
    n < 32 && not >> n & 1 != 0
}

/// The sort key of an option ([`Opt::order`]): `unknown` (has unknown parts: known options
/// first where they are listed), half the number `gone` of the component's cells that its
/// largest unknown part lacks (most first: the smallest largest part; halved, so that the
/// cell a reduction drops besides the domino does not outrank the distance: Cram nodes 4x7
/// 17 396 to 13 565, 4x9 279 285 to 191 416, 5x7 326 608 to 259 513), the (weighted)
/// distance `dist` of the move from the component's centre (nearest first: it splits the
/// component most evenly), then the XOR `xor` of its known parts and a fingerprint
/// of its unknown `parts` (sorted by size and key), which puts options with the same parts
/// (symmetric moves: a symmetry of the component keeps the distance from its centre) side by
/// side for [`sort_dedup_options`].
fn order_key(unknown: bool, gone: u32, dist: u32, xor: u32, parts: &[Part]) -> u128 {
    let mut fp = 0u64;
    for q in parts {
        let h =
            (q.key.bits as u64) ^ ((q.key.bits >> 64) as u64).rotate_left(17) ^ q.key.tag as u64;
        fp = (fp.rotate_left(23) ^ h).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    (unknown as u128) << 127
        | ((0x7FFF - (gone >> 1).min(0x7FFF)) as u128) << 112
        | (dist.min(0xFFFF) as u128) << 96
        | (xor as u128) << 64
        | fp as u128
}

/// Sorts the options by [`Opt::order`] and keeps one of each run with the same parts and the
/// same known XOR (symmetric moves; the fingerprint decides nothing alone: the keys are
/// compared).
fn sort_dedup_options(o: &mut Opts) {
    o.list.sort_unstable_by_key(|a| a.order);
    let parts = &o.parts;
    o.list.dedup_by(|a, b| {
        a.order == b.order
            && a.len == b.len
            && parts[a.range()]
                .iter()
                .zip(&parts[b.range()])
                .all(|(x, y)| x.key == y.key)
    });
}

/// The moves of `rules` from the vertex set `pos` of `graph`, and the vertex sets they leave.
pub fn moves(rules: Rules, graph: &Graph, pos: VertexSet) -> Vec<(Move, VertexSet)> {
    let mut out = Vec::new();
    match rules {
        Rules::NodeKayles => {
            for v in bits(pos) {
                out.push((Move::Vertex(v), pos & !(graph.neighbors(v) | 1u128 << v)));
            }
        }
        Rules::ArcKayles => {
            for u in bits(pos) {
                if graph.loops() & pos & 1u128 << u != 0 {
                    out.push((Move::Edge(u, u), pos & !(1u128 << u)));
                }
                for v in bits(graph.neighbors(u) & pos & !low(u + 1)) {
                    out.push((Move::Edge(u, v), pos & !(1u128 << u | 1u128 << v)));
                }
            }
        }
    }
    out
}

/// The vertices of a set, in increasing order.
pub fn bits(mut m: VertexSet) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let v = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(v)
        }
    })
}

fn grid_neighbors(m: VertexSet, g: &GridShape) -> VertexSet {
    ((m << 1) & g.not_first) | ((m >> 1) & g.not_last) | shl(m, g.cols) | shr(m, g.cols)
}

/// The canonical key of a set of lattice cells (`cols` per row): the shape cropped to its
/// bounding box, laid out row by row at its own width, the least encoding among the images
/// under the plane's symmetries that put the shorter side first (4, or 8 for a square box).
///
/// Whole rows are moved for the identity and the flips; the transposed images are built from
/// the set cells one by one (a component has few). No allocation, no per-cell closure.
#[cfg(test)]
fn grid_key(comp: VertexSet, cols: usize) -> Key {
    grid_key_zero(comp, cols).0
}

/// [`grid_key`], and whether the shape is a second-player win by the mirror strategy: it is
/// its own image under the half turn, and no cell or domino of it is its own image or next
/// to it (which holds unless the box's centre is a cell of the shape, or the midpoint of two
/// adjacent cells of it). Then every move, of Node Kayles or of Cram, has a disjoint mirror
/// answer that restores the symmetry, so the value is 0.
fn grid_key_zero(comp: VertexSet, cols: usize) -> (Key, bool) {
    if comp >> 64 == 0 {
        grid_key_zero_in!(comp as u64, cols, u64, 64, true)
    } else {
        grid_key_zero_in!(comp, cols, u128, 128, true)
    }
}

/// [`grid_key_zero`] without the 8 x 8 shortcut ([`key_in_8x8`]), its oracle.
#[cfg(test)]
fn grid_key_zero_general(comp: VertexSet, cols: usize) -> (Key, bool) {
    if comp >> 64 == 0 {
        grid_key_zero_in!(comp as u64, cols, u64, 64, false)
    } else {
        grid_key_zero_in!(comp, cols, u128, 128, false)
    }
}

/// [`grid_key_zero`] of a shape whose box (`h` rows, `w` columns) fits 8 x 8, given with row
/// `r` in byte `r` of `s8` (bit `8 r + c`: cell `(r, c)`). The eight images are a few word
/// operations in this layout (a byte swap flips the rows, a bit reversal inside the bytes
/// the columns, three delta swaps transpose), and since every image of one orientation has
/// the same rows, the least image there is the least in the dense layout too (both compare
/// the top row first, then the next): only the least is packed at its width.
fn key_in_8x8(s8: u64, h: usize, w: usize) -> (Key, bool) {
    // Row flip of a shape of `rows` rows.
    let vflip = |x: u64, rows: usize| x.swap_bytes() >> (8 * (8 - rows));
    // Column flip of a shape `width` wide.
    let hflip = |x: u64, width: usize| {
        const K1: u64 = 0x5555_5555_5555_5555;
        const K2: u64 = 0x3333_3333_3333_3333;
        const K4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
        let x = (x >> 1 & K1) | (x & K1) << 1;
        let x = (x >> 2 & K2) | (x & K2) << 2;
        let x = (x >> 4 & K4) | (x & K4) << 4;
        x >> (8 - width)
    };
    let d = vflip(hflip(s8, w), h);
    let half_turn = d == s8;
    let mut best = u64::MAX;
    if h <= w {
        best = best.min(s8).min(vflip(s8, h)).min(hflip(s8, w)).min(d);
    }
    if h >= w {
        let t = transpose_8x8(s8);
        let tc = hflip(t, h);
        best = best.min(t).min(vflip(t, w)).min(tc).min(vflip(tc, w));
    }
    let (th, tw) = if h <= w { (h, w) } else { (w, h) };
    let mut bits = 0u64;
    for r in 0..th {
        bits |= (best >> (8 * r) & 0xFF) << (r * tw);
    }
    // With a side odd, (h / 2, w / 2) is the centre cell or one of the two centre cells.
    let centre = s8 >> (8 * (h / 2) + w / 2) & 1 != 0;
    let zero = half_turn && (h.is_multiple_of(2) && w.is_multiple_of(2) || !centre);
    (
        Key {
            bits: bits as u128,
            tag: (th << 8 | tw) as u16,
        },
        zero,
    )
}

/// [`grid_key_zero`] of a shape whose box is `h <= 4` rows by `h < w <= 16` columns (boxes
/// too wide for [`key_in_8x8`] on boards 4 cells high: 4x9 and wider), given with row `r` in
/// the 16-bit lane `r` of `s16` (bit `16 r + c`: cell `(r, c)`). Only the four images that
/// keep the shorter side first count (the box is not square): the shape, its row flip (the
/// lanes reversed), its half turn (all 64 bits reversed, then shifted into place) and the row
/// flip of the half turn (the column flip). As in [`key_in_8x8`], every image has the same
/// rows, so the least in this layout is the least in the dense one.
fn key_in_4x16(s16: u64, h: usize, w: usize) -> (Key, bool) {
    debug_assert!(h <= 4 && h < w && w <= 16);
    // The lanes in reverse order (lane i to lane 3 - i), then down to `h` rows.
    let vflip = |x: u64| {
        let y = x.rotate_left(32);
        ((y & 0x0000_FFFF_0000_FFFF) << 16 | (y >> 16 & 0x0000_FFFF_0000_FFFF)) >> (16 * (4 - h))
    };
    // Bit 16 r + c to bit 16 (h - 1 - r) + (w - 1 - c).
    let rot = |x: u64| x.reverse_bits() >> (80 - 16 * h - w);
    let d = rot(s16);
    let v = vflip(s16);
    let best = s16.min(v).min(d).min(rot(v));
    let mut bits = 0u64;
    for r in 0..h {
        bits |= (best >> (16 * r) & 0xFFFF) << (r * w);
    }
    // With a side odd, (h / 2, w / 2) is the centre cell or one of the two centre cells.
    let centre = s16 >> (16 * (h / 2) + w / 2) & 1 != 0;
    let zero = d == s16 && (h.is_multiple_of(2) && w.is_multiple_of(2) || !centre);
    (
        Key {
            bits: bits as u128,
            tag: (h << 8 | w) as u16,
        },
        zero,
    )
}

/// The transpose of an 8 x 8 bit matrix (bit `8 r + c` to bit `8 c + r`), by three delta
/// swaps.
fn transpose_8x8(mut x: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0F0F_0F0F_0000_0000;
    let t = K4 & (x ^ x << 28);
    x ^= t ^ t >> 28;
    let t = K2 & (x ^ x << 14);
    x ^= t ^ t >> 14;
    let t = K1 & (x ^ x << 7);
    x ^= t ^ t >> 7;
    x
}

/// The body of [`grid_key_zero`] in words of `$t` (`$bits` bits) that hold the component.
macro_rules! grid_key_zero_in {
    ($comp:expr, $cols:expr, $t:ty, $bits:expr, $fast:expr) => {{
        let comp: $t = $comp;
        let cols: usize = $cols;
        let ones = |n: usize| -> $t {
            if n >= $bits {
                <$t>::MAX
            } else {
                (1 << n) - 1
            }
        };
        let first = comp.trailing_zeros() as usize / cols;
        let last = ($bits - 1 - comp.leading_zeros() as usize) / cols;
        let h = last - first + 1;
        let row_mask = ones(cols);
        // Every shift below is by less than `$bits`: the cells lie in the word.
        let s0 = comp >> (first * cols);
        let mut or: $t = 0;
        for r in 0..h {
            or |= s0 >> (r * cols) & row_mask;
        }
        let minc = or.trailing_zeros() as usize;
        let w = $bits - or.leading_zeros() as usize - minc;
        // The shape at the origin, still `cols` cells per row.
        let s = s0 >> minc;
        let wmask = ones(w);
        let row = |r: usize| s >> (r * cols) & wmask;
        if $fast && h <= 8 && w <= 8 {
            let mut s8 = 0u64;
            for r in 0..h {
                s8 |= (row(r) as u64) << (8 * r);
            }
            return key_in_8x8(s8, h, w);
        }
        if $fast && h <= 4 && w <= 16 {
            let mut s16 = 0u64;
            for r in 0..h {
                s16 |= (row(r) as u64) << (16 * r);
            }
            return key_in_4x16(s16, h, w);
        }
        if $fast && w <= 4 && h <= 16 {
            // Transposed into lanes: rows 0..8 and 8..16 as two 8 x 8 blocks of bytes,
            // each transposed (column `c` in byte `c`), their bytes `c` joined in lane `c`.
            let (mut lo, mut hi) = (0u64, 0u64);
            for r in 0..h.min(8) {
                lo |= (row(r) as u64) << (8 * r);
            }
            for r in 8..h {
                hi |= (row(r) as u64) << (8 * (r - 8));
            }
            let (lo, hi) = (transpose_8x8(lo), transpose_8x8(hi));
            let mut t16 = 0u64;
            for c in 0..w {
                t16 |= ((lo >> (8 * c) & 0xFF) | (hi >> (8 * c) & 0xFF) << 8) << (16 * c);
            }
            return key_in_4x16(t16, w, h);
        }
        // The images in a word of `$u` bits (u64 when the box has at most 64 cells).
        macro_rules! images {
            ($u:ty, $ubits:expr) => {{
                let mut best = <$u>::MAX;
                let mut half_turn = false;
                if h <= w {
                    let rev = |x: $u| x.reverse_bits() >> ($ubits - w);
                    let (mut a, mut b, mut c, mut d): ($u, $u, $u, $u) = (0, 0, 0, 0);
                    for r in 0..h {
                        let x = row(r) as $u;
                        let y = rev(x);
                        a |= x << (r * w);
                        b |= x << ((h - 1 - r) * w);
                        c |= y << (r * w);
                        d |= y << ((h - 1 - r) * w);
                    }
                    best = best.min(a).min(b).min(c).min(d);
                    half_turn = a == d;
                }
                if h >= w {
                    // The transposes: cell (r, c) of the shape is cell (c, r) of the image,
                    // `h` wide.
                    let (mut a, mut b, mut c, mut d): ($u, $u, $u, $u) = (0, 0, 0, 0);
                    for r in 0..h {
                        let mut x = row(r) as $u;
                        while x != 0 {
                            let col = x.trailing_zeros() as usize;
                            x &= x - 1;
                            let (i, j) = (col * h, (w - 1 - col) * h);
                            a |= 1 << (i + r);
                            b |= 1 << (i + h - 1 - r);
                            c |= 1 << (j + r);
                            d |= 1 << (j + h - 1 - r);
                        }
                    }
                    best = best.min(a).min(b).min(c).min(d);
                    half_turn = a == d;
                }
                (best as u128, half_turn)
            }};
        }
        let (best, half_turn) = if h * w <= 64 {
            images!(u64, 64)
        } else {
            images!(u128, 128)
        };
        let (th, tw) = if h <= w { (h, w) } else { (w, h) };
        let at = |r: usize, c: usize| s >> (r * cols + c) & 1 != 0;
        // With a side odd, (h / 2, w / 2) is the centre cell or one of the two centre cells
        // (which the symmetry makes both present or both absent).
        let zero = half_turn && (h.is_multiple_of(2) && w.is_multiple_of(2) || !at(h / 2, w / 2));
        (
            Key {
                bits: best,
                tag: (th << 8 | tw) as u16,
            },
            zero,
        )
    }};
}
use grid_key_zero_in;

#[cfg(test)]
mod tests {
    use super::*;

    /// The first implementation, kept as the oracle of the fast one.
    /// The canonical key of a set of lattice cells (`cols` per row): the shape cropped to its
    /// bounding box, laid out row by row at its own width, the least encoding among the images
    /// under the plane's symmetries that put the shorter side first (4, or 8 for a square box).
    fn grid_key_old(comp: VertexSet, cols: usize) -> Key {
        let first = comp.trailing_zeros() as usize / cols;
        let last = (127 - comp.leading_zeros() as usize) / cols;
        let h = last - first + 1;
        let row_mask = low(cols);
        let mut small = [0u128; 16];
        let mut big = Vec::new();
        let rows: &mut [u128] = if h <= 16 {
            &mut small[..h]
        } else {
            big.resize(h, 0u128);
            &mut big
        };
        let mut minc = usize::MAX;
        let mut maxc = 0;
        for (i, row) in rows.iter_mut().enumerate() {
            let r = shr(comp, (first + i) * cols) & row_mask;
            *row = r;
            if r != 0 {
                minc = minc.min(r.trailing_zeros() as usize);
                maxc = maxc.max(127 - r.leading_zeros() as usize);
            }
        }
        let w = maxc - minc + 1;
        for row in rows.iter_mut() {
            *row >>= minc;
        }
        let (hh, ww, grid) = (h, w, &rows[..h]);
        let encode = |get: &dyn Fn(usize, usize) -> bool, rh: usize, rw: usize| -> u128 {
            let mut out = 0u128;
            for r in 0..rh {
                for c in 0..rw {
                    if get(r, c) {
                        out |= 1u128 << (r * rw + c);
                    }
                }
            }
            out
        };
        let at = |r: usize, c: usize| grid[r] >> c & 1 != 0;
        let mut best: u128 = 0;
        let mut first_done = false;
        let mut consider = |v: u128| {
            if !first_done || v < best {
                best = v;
                first_done = true;
            }
        };
        if hh <= ww {
            // Fast path for the identity and flips: whole rows.
            let rev = |x: u128| x.reverse_bits() >> (128 - ww);
            let mut a = 0u128;
            let mut b = 0u128;
            let mut c = 0u128;
            let mut d = 0u128;
            for (r, &row) in grid.iter().enumerate() {
                a |= row << (r * ww);
                b |= row << ((hh - 1 - r) * ww);
                c |= rev(row) << (r * ww);
                d |= rev(row) << ((hh - 1 - r) * ww);
            }
            consider(a);
            consider(b);
            consider(c);
            consider(d);
            if hh == ww {
                // The transposes: cell (r, c) of the image is (c, r) of the shape.
                consider(encode(&|r, c| at(c, r), ww, hh));
                consider(encode(&|r, c| at(hh - 1 - c, r), ww, hh));
                consider(encode(&|r, c| at(c, ww - 1 - r), ww, hh));
                consider(encode(&|r, c| at(hh - 1 - c, ww - 1 - r), ww, hh));
            }
            Key {
                bits: best,
                tag: (hh << 8 | ww) as u16,
            }
        } else {
            // Taller than wide: the four images whose box is wide (the transpose and its flips).
            let (th, tw) = (ww, hh);
            consider(encode(&|r, c| at(c, r), th, tw));
            consider(encode(&|r, c| at(hh - 1 - c, r), th, tw));
            consider(encode(&|r, c| at(c, ww - 1 - r), th, tw));
            consider(encode(&|r, c| at(hh - 1 - c, ww - 1 - r), th, tw));
            Key {
                bits: best,
                tag: (th << 8 | tw) as u16,
            }
        }
    }

    #[test]
    fn xor_set_maps_every_value() {
        for v in 0..128u32 {
            for x in [0u32, 1, 5, 63, 64, 127] {
                assert_eq!(xor_set(1u128 << x, v), 1u128 << (x ^ v));
            }
        }
    }

    #[test]
    fn grid_keys_fold_symmetry() {
        // An L tromino in its four rotations on a 4x4 grid share a key.
        let cols = 4;
        let cell = |r: usize, c: usize| 1u128 << (r * cols + c);
        let a = cell(0, 0) | cell(1, 0) | cell(1, 1);
        let b = cell(2, 2) | cell(2, 3) | cell(3, 2);
        let c = cell(0, 3) | cell(1, 3) | cell(1, 2);
        assert_eq!(grid_key(a, cols), grid_key(b, cols));
        assert_eq!(grid_key(a, cols), grid_key(c, cols));
        // A vertical and a horizontal domino, and a 3x2 and 2x3 block.
        assert_eq!(
            grid_key(cell(0, 0) | cell(1, 0), cols),
            grid_key(cell(3, 1) | cell(3, 2), cols)
        );
        let v = cell(0, 0) | cell(1, 0) | cell(2, 0) | cell(0, 1) | cell(1, 1) | cell(2, 1);
        let h = cell(2, 0) | cell(2, 1) | cell(2, 2) | cell(3, 0) | cell(3, 1) | cell(3, 2);
        assert_eq!(grid_key(v, cols), grid_key(h, cols));
        // Different shapes differ.
        assert_ne!(
            grid_key(a, cols),
            grid_key(cell(0, 0) | cell(0, 1) | cell(0, 2), cols)
        );
    }

    /// A fixed stream of pseudo-random words (xorshift64 from `seed`) for the tests' random cell sets.
    fn xorshift(seed: u64) -> impl FnMut() -> u64 {
        let mut x = seed;
        move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        }
    }

    #[test]
    fn fast_grid_key_matches_the_first() {
        // Random cell sets (connected or not) on lattices of every shape up to 128 cells.
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        for rows in 1..=16usize {
            for cols in 1..=16usize {
                if rows * cols > 128 {
                    continue;
                }
                let all = low(rows * cols);
                for _ in 0..200 {
                    let m = ((next() as u128) << 64 | next() as u128) & all;
                    let sparse = m & ((next() as u128) << 64 | next() as u128);
                    for set in [m, sparse, m & m.wrapping_neg()] {
                        if set != 0 {
                            assert_eq!(
                                grid_key(set, cols),
                                grid_key_old(set, cols),
                                "{rows}x{cols} {set:#x}"
                            );
                        }
                    }
                }
            }
        }
        assert_eq!(grid_key(1u128 << 127, 1), grid_key_old(1u128 << 127, 1));
        assert_eq!(grid_key(u128::MAX, 128), grid_key_old(u128::MAX, 128));
        assert_eq!(grid_key(u128::MAX, 1), grid_key_old(u128::MAX, 1));
    }

    #[test]
    fn small_word_paths_match_the_wide_ones() {
        // The 64-bit reductions and Cram option lists against the 128-bit ones, on random
        // cell sets of lattices of at most 64 cells.
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        for (rows, cols) in [
            (1, 7),
            (2, 2),
            (3, 5),
            (5, 6),
            (4, 9),
            (6, 8),
            (8, 8),
            (1, 64),
        ] {
            let g = Graph::grid(rows, cols).unwrap();
            let mut e = Engine::new(Rules::ArcKayles, g, Options::default()).unwrap();
            let small = e.grid.unwrap();
            assert!(small.small);
            let wide = GridShape {
                small: false,
                ..small
            };
            for _ in 0..2000 {
                let x = next();
                let set = (x | x >> 9) as u128 & low(rows * cols);
                assert_eq!(reduce_once(set, &small), reduce_once(set, &wide));
                let (mut a, mut b) = (Vec::new(), Vec::new());
                e.option_sets(set, &mut a);
                e.grid = Some(wide);
                e.option_sets(set, &mut b);
                e.grid = Some(small);
                assert_eq!(a, b, "{rows}x{cols} {set:#x}");
            }
        }
    }

    #[test]
    fn cached_keys_are_the_keys() {
        // Random cell sets of a 6 x 8 lattice, each keyed twice (the second time from the
        // cache, or after its slot was taken by another set): always grid_key_zero's answer.
        let g = Graph::grid(6, 8).unwrap();
        let e = Engine::new(Rules::ArcKayles, g, Options::default()).unwrap();
        assert!(!e.key_cache.is_empty());
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        let mut sets = Vec::new();
        for _ in 0..50_000 {
            let x = next();
            let set = (x & x >> 5) as u128 & low(48);
            if set != 0 {
                sets.push(set);
            }
        }
        for round in 0..2 {
            for &set in &sets {
                assert_eq!(e.key(set), grid_key_zero(set, 8), "round {round} {set:#x}");
            }
        }
    }

    #[test]
    fn cached_set_keys_are_the_keys_and_within_the_cap() {
        // P(40, 2) is off the lattices: its cache of vertex-set keys takes an eighth of a small
        // cap and its table the rest, and random vertex sets keyed twice (the second time
        // from the cache, or after their slot was taken) get the uncached key.
        let g = Graph::petersen(40, 2).unwrap();
        let cap = 1 << 20;
        let opts = Options {
            max_memory: cap,
            ..Options::default()
        };
        let e = Engine::new(Rules::NodeKayles, g.clone(), opts).unwrap();
        assert_eq!(e.set_keys.len(), cap / 8 / SET_KEY_BYTES);
        assert!(e.table.max_bytes() + e.set_keys.len() * SET_KEY_BYTES <= cap);
        let full = Engine::new(Rules::NodeKayles, g, Options::default()).unwrap();
        assert_eq!(full.set_keys.len(), SET_KEYS);
        let tiny = Options {
            max_memory: 4096,
            ..Options::default()
        };
        let none = Engine::new(Rules::NodeKayles, Graph::petersen(40, 2).unwrap(), tiny).unwrap();
        assert!(none.set_keys.is_empty());
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        let mut sets = Vec::new();
        for _ in 0..20_000 {
            let (x, y) = (next(), next());
            let set = (x as u128 | (y as u128) << 64) & low(80);
            sets.push(set & set >> 1);
        }
        for round in 0..2 {
            for &set in &sets {
                let k = set.count_ones() as usize;
                let want = if k <= SMALL_COMPONENT {
                    e.small_key(set, k).bits
                } else {
                    e.vertex_set_key(set)
                };
                assert_eq!(
                    e.key_off_lattice(set).0.bits,
                    want,
                    "round {round} {set:#x}"
                );
                assert_eq!(none.key_off_lattice(set).0.bits, want);
            }
        }
    }

    #[test]
    fn transpose_8x8_moves_every_bit() {
        for r in 0..8 {
            for c in 0..8 {
                assert_eq!(transpose_8x8(1 << (8 * r + c)), 1 << (8 * c + r));
            }
        }
    }

    #[test]
    fn keys_in_8x8_match_the_general_images() {
        // Random cell sets whose box fits 8 x 8, placed on a lattice 16 wide: the byte
        // layout's key and mirror flag against the general images and the first keys.
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        let mut tested = 0;
        for _ in 0..200_000 {
            let (h, w) = (1 + next() as usize % 8, 1 + next() as usize % 8);
            let mut s8 = next() & next();
            if next().is_multiple_of(4) {
                s8 |= next() & next() & next() & 0x8142_2418_1824_4281;
            }
            let mut m = 0u64;
            for r in 0..h {
                m |= ((s8 >> (8 * r)) & ((1 << w) - 1)) << (8 * r);
            }
            if m == 0 {
                continue;
            }
            let mut wide = 0u128;
            for r in 0..8 {
                wide |= ((m >> (8 * r) & 0xFF) as u128) << (16 * r + 3);
            }
            let fast = grid_key_zero(wide, 16);
            let general = grid_key_zero_general(wide, 16);
            assert_eq!(fast, general, "{m:#x}");
            assert_eq!(fast.0, grid_key_old(wide, 16), "{m:#x}");
            tested += 1;
        }
        assert!(tested > 100_000);
    }

    #[test]
    fn keys_in_4x16_match_the_general_images() {
        // Random cell sets whose box is at most 4 high and 9 to 16 wide, or the transpose,
        // placed on a lattice 16 wide (or 4 wide, 16 high): the lane layout's key and mirror
        // flag against the general images and the first keys.
        let mut next = xorshift(0x6A09_E667_F3BC_C908);
        let mut tested = 0;
        for _ in 0..100_000 {
            let (h, w) = (1 + next() as usize % 4, 9 + next() as usize % 8);
            let mut rows = [0u64; 4];
            for row in rows.iter_mut().take(h) {
                *row = next() & next() & ((1 << w) - 1);
                if next().is_multiple_of(4) {
                    *row |= 1 | 1 << (w - 1);
                }
            }
            if rows.iter().all(|&r| r == 0) {
                continue;
            }
            // As rows of a lattice 16 wide, shifted one cell in.
            let mut wide = 0u128;
            for (r, &row) in rows.iter().enumerate() {
                wide |= (row as u128) << (16 * r + 1);
            }
            // The transpose, on a lattice 4 wide.
            let mut tall = 0u128;
            for (r, &row) in rows.iter().enumerate() {
                for c in 0..16 {
                    if row >> c & 1 != 0 {
                        tall |= 1u128 << (4 * c + r);
                    }
                }
            }
            for (set, cols) in [(wide, 16), (tall, 4)] {
                let fast = grid_key_zero(set, cols);
                assert_eq!(fast, grid_key_zero_general(set, cols), "{set:#x} on {cols}");
                assert_eq!(fast.0, grid_key_old(set, cols), "{set:#x} on {cols}");
            }
            tested += 1;
        }
        assert!(tested > 50_000);
    }

    /// Every option of every component of `rounds` random positions of a lattice of `cells`
    /// cells, as (the component, the cells the option leaves).
    fn random_options(e: &Engine, cells: usize, rounds: usize) -> Vec<(VertexSet, VertexSet)> {
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        let mut out = Vec::new();
        for _ in 0..rounds {
            let x = next();
            let mut comps = Vec::new();
            e.split((x | x >> 3) as u128 & low(cells), &mut comps);
            for c in comps {
                let mut tos = Vec::new();
                e.option_sets(c.set, &mut tos);
                out.extend(tos.into_iter().map(|to| (c.set, to)));
            }
        }
        out
    }

    #[test]
    fn seeded_option_split_agrees_with_the_flood_fill() {
        // Every move of every component of random positions of several lattices: the fills
        // from the neighbours of the cells gone (the domino, and those the reductions drop)
        // give the same parts as the full split.
        for (rows, cols) in [(5, 7), (4, 9), (6, 8), (1, 12), (3, 3)] {
            let g = Graph::grid(rows, cols).unwrap();
            let e = Engine::new(Rules::ArcKayles, g, Options::default()).unwrap();
            let shape = e.reducible().unwrap();
            let mut seen = 0;
            for (from, to) in random_options(&e, rows * cols, 1000) {
                let (mut a, mut b) = (Vec::new(), Vec::new());
                e.split(to, &mut a);
                e.split_option(shape, from, reduce_grid(to, &shape), &mut b);
                let sets = |v: &[Part]| {
                    let mut s: Vec<u128> = v.iter().map(|q| q.set).collect();
                    s.sort_unstable();
                    s
                };
                assert_eq!(sets(&a), sets(&b), "{rows}x{cols} {from:#x} -> {to:#x}");
                seen += usize::from(a.len() > 1);
            }
            assert!(seen > 0 || rows * cols < 12, "{rows}x{cols}: no split seen");
        }
    }

    #[test]
    fn cached_facts_belong_to_their_set() {
        // "Not in r" and values noted for a keyed set are read back for that set only, keep
        // the key, and are gone once another set takes the slot.
        let g = Graph::grid(6, 8).unwrap();
        let e = Engine::new(Rules::ArcKayles, g, Options::default()).unwrap();
        let set = 0b1111_0000_1111u128;
        let key = e.key(set);
        assert_eq!(e.cached_not(set), 0);
        e.cache_not(set, 0b101 | 1 << 40);
        assert_eq!(e.cached_not(set), 0b101);
        assert_eq!(e.key(set), key);
        assert_eq!(e.cached_not(set ^ 1), 0);
        assert_eq!(e.cached_value(set), None);
        // An exact value replaces the "not" facts, and stands for them.
        e.cache_value(set, 3);
        assert_eq!(e.cached_value(set), Some(3));
        assert_eq!(e.cached_not(set), ((1 << NOT_BITS) - 1) & !0b1000);
        e.cache_not(set, 0b1000);
        assert_eq!(e.cached_value(set), Some(3));
        assert_eq!(e.key(set), key);
        // Another set with the same slot evicts the facts.
        let other = (1..1u128 << 20)
            .map(|m| m << 1 | 1)
            .find(|&m| m != set && std::ptr::eq(e.cache_slot(m as u64), e.cache_slot(set as u64)))
            .unwrap();
        e.key(other);
        assert_eq!(e.cached_not(set), 0);
        assert_eq!(e.cached_value(set), None);
        assert_eq!(e.key(set), key);
        assert_eq!(e.cached_not(set), 0);
    }

    #[test]
    fn local_connectivity_agrees_with_the_flood_fill() {
        // Every move of every component of random 5 x 7 positions: when the look around the
        // domino says "one component", the full split says so too.
        let g = Graph::grid(5, 7).unwrap();
        let e = Engine::new(Rules::ArcKayles, g, Options::default()).unwrap();
        let (mut shown, mut total) = (0, 0);
        for (from, to) in random_options(&e, 35, 2000) {
            let mut parts = Vec::new();
            e.split(to, &mut parts);
            total += 1;
            if e.stays_connected(from, to) && e.unreduced(to) {
                shown += 1;
                assert_eq!(parts.len(), 1, "{from:#x} -> {to:#x}");
                assert_eq!(parts[0].set, to);
            }
        }
        assert!(shown * 4 > total, "{shown} of {total}");
    }
}
