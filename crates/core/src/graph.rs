//! Games on a directed graph: the textbook model of every finite impartial game.
//!
//! Tokens sit on vertices; a move slides one token along an edge; a player who cannot move
//! loses. A vertex's Grundy value is the mex of its successors' values, and a set of tokens is
//! the sum of one-token games, valued by the XOR of their vertices' values.
//!
//! Text format: one edge `FROM TO` per line; vertex names are any whitespace-free tokens; a
//! line with one name declares a vertex (e.g. a sink with no edges); `#` starts a comment.
//!
//! [`analyze`] answers the whole question in one call: every vertex's value and, with tokens,
//! the outcome and every winning move by vertex names ([`GraphAnalysis`], which serializes to
//! the JSON of `grundy graph`). Misère play is searched over whole token placements, within
//! [`DEFAULT_BUDGET`] unless [`GraphOptions::budget`] says otherwise.
//! Loading is near-linear: repeated edges are found in a hash set.

use crate::budget::{Budget, Limit, MisereBudget};
use std::fmt;

use crate::catalogue::{shorten, Move, Position};
use crate::fxhash::FxHashMap;
use crate::game::{Game, Outcome};
use crate::mex::Mex;
use crate::nim::Play;
use crate::solver::Solver;
use crate::text::{escape, quote};

/// The default budget of a misère search of token placements: one million placements, which
/// take about 150 MB and 2 seconds with four tokens, and 1 GiB (each memoised placement holds
/// its token list, the memo's overhead and its share of the search stack: see
/// [`placement_bytes`]). Raise it with [`GraphOptions::budget`].
pub const DEFAULT_BUDGET: Budget = Budget::new(1_000_000, 1 << 30);

/// The estimated bytes a misère search holds for a placement of `tokens` tokens: the sorted
/// token list (its `Vec` and 8 bytes a token) and the memo's [`crate::budget::ENTRY_OVERHEAD`].
pub fn placement_bytes(tokens: usize) -> usize {
    Budget::entry_bytes::<Vec<usize>>() + 8 * tokens
}

/// Why a graph, or a request about it, was rejected. Every name in a message is escaped
/// ([`quote`]), so the message stays on one line whatever bytes the file holds.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GraphError {
    /// A line with more than two names.
    #[error(
        "line {line}: expected 'FROM TO' or one vertex name, found extra token {}",
        quote(token)
    )]
    Malformed {
        /// The line (1-based).
        line: usize,
        /// The first token too many.
        token: String,
    },
    /// No vertex at all (an empty file, or only comments).
    #[error("the graph has no vertices")]
    Empty,
    /// A cycle, as vertex names: `path[0] -> path[1] -> … -> path[0]`.
    #[error("the graph has a cycle: {}", cycle_text(.path))]
    Cycle {
        /// The vertices of the cycle, in order.
        path: Vec<String>,
    },
    /// A token on a vertex the graph does not have.
    #[error("unknown vertex {}", quote(.0))]
    UnknownVertex(String),
    /// The misère search of the token placements passed its budget (positions or memory).
    #[error(transparent)]
    Limit(#[from] Limit),
}

fn cycle_text(path: &[String]) -> String {
    let mut s = path
        .iter()
        .map(|n| escape(n))
        .collect::<Vec<_>>()
        .join(" -> ");
    if let Some(first) = path.first() {
        s.push_str(" -> ");
        s.push_str(&escape(first));
    }
    s
}

/// A directed graph with named vertices (in order of first appearance).
#[derive(Clone, Debug, Default)]
pub struct DiGraph {
    names: Names,
    succ: Successors,
    /// The number of edges (each once).
    edges: usize,
    /// The edges out of vertices of more than [`SCAN_DEGREE`] successors, once the lists
    /// are edited one edge at a time, so that a repeated edge is found in constant time there
    /// (a scan of the successor list made loading quadratic on a vertex of high degree); a
    /// shorter list is scanned, which reads no more memory than the push that follows.
    hubs: FxHashMap<(usize, usize), ()>,
}

/// The successor lists of a [`DiGraph`]: compact as [`DiGraph::parse`] builds them (one
/// array of every list, one after another, and where each starts: two allocations for the
/// whole graph), or one list per vertex once edges are added one at a time.
#[derive(Clone, Debug)]
enum Successors {
    /// Vertex `v`'s list is `targets[offsets[v]..offsets[v + 1]]`.
    Compact {
        offsets: Vec<usize>,
        targets: Vec<usize>,
    },
    /// One list per vertex.
    Lists(Vec<Vec<usize>>),
}

impl Default for Successors {
    fn default() -> Self {
        Successors::Lists(Vec::new())
    }
}

impl Successors {
    fn get(&self, v: usize) -> &[usize] {
        match self {
            Successors::Compact { offsets, targets } => &targets[offsets[v]..offsets[v + 1]],
            Successors::Lists(lists) => &lists[v],
        }
    }

    /// Adds a vertex without successors.
    fn push(&mut self) {
        match self {
            Successors::Compact { offsets, .. } => {
                offsets.push(offsets.last().copied().unwrap_or(0))
            }
            Successors::Lists(lists) => lists.push(Vec::new()),
        }
    }
}

/// The compact successor lists of `n` vertices with `edges` (in file order), each repeated
/// edge kept once where it first appears, and the number of edges kept: one counting sort,
/// then each list cut down to its distinct targets (a short list by a scan, a long one with a
/// set). The sort's reads and writes do not wait on one another, so they overlap.
fn compact(n: usize, edges: &[(usize, usize)]) -> (Vec<usize>, Vec<usize>, usize) {
    let mut offsets = vec![0usize; n + 1];
    for &(a, _) in edges {
        offsets[a + 1] += 1;
    }
    for v in 0..n {
        offsets[v + 1] += offsets[v];
    }
    let mut fill = offsets.clone();
    let mut targets = vec![0usize; edges.len()];
    for &(a, b) in edges {
        targets[fill[a]] = b;
        fill[a] += 1;
    }
    drop(fill);
    let mut kept = 0;
    let mut seen: FxHashMap<usize, ()> = FxHashMap::default();
    for v in 0..n {
        let (start, end) = (offsets[v], offsets[v + 1]);
        offsets[v] = kept;
        if end - start > SCAN_DEGREE {
            seen.clear();
        }
        for i in start..end {
            let b = targets[i];
            let repeat = if end - start > SCAN_DEGREE {
                seen.insert(b, ()).is_some()
            } else {
                targets[offsets[v]..kept].contains(&b)
            };
            if !repeat {
                targets[kept] = b;
                kept += 1;
            }
        }
    }
    offsets[n] = kept;
    targets.truncate(kept);
    targets.shrink_to_fit();
    (offsets, targets, kept)
}

/// The first three words of a line before any `#`, words split at whitespace as
/// `str::split_whitespace` splits them. An ASCII line (the usual case) is scanned byte by
/// byte; any other goes through `split_whitespace` itself (Unicode has more spaces).
fn first_words(line: &str) -> (Option<&str>, Option<&str>, Option<&str>) {
    if !line.is_ascii() {
        let content = line.split('#').next().unwrap_or("");
        let mut words = content.split_whitespace();
        return (words.next(), words.next(), words.next());
    }
    let b = line.as_bytes();
    let mut found: [Option<&str>; 3] = [None; 3];
    let mut n = 0;
    let mut i = 0;
    while n < 3 {
        // The whitespace of `char::is_whitespace` in ASCII: tab to carriage return, space.
        while i < b.len() && matches!(b[i], b'\t'..=b'\r' | b' ') {
            i += 1;
        }
        if i == b.len() || b[i] == b'#' {
            break;
        }
        let start = i;
        while i < b.len() && !matches!(b[i], b'\t'..=b'\r' | b' ' | b'#') {
            i += 1;
        }
        found[n] = Some(&line[start..i]);
        n += 1;
        if i < b.len() && b[i] == b'#' {
            break;
        }
    }
    (found[0], found[1], found[2])
}

/// The lines [`DiGraph::parse`] reads ahead at a time.
pub const PARSE_BATCH: usize = 64;

/// The successor lists this long or shorter are scanned for a repeated edge; longer ones are
/// looked up in [`DiGraph`]'s set of hub edges.
const SCAN_DEGREE: usize = 16;

/// The vertices' names: all in one string, and a table from name to vertex.
///
/// The table is open addressing (linear probing, at most half full), each slot holding the
/// vertex, the name's length and its first 8 bytes: finding a name reads one slot, and the
/// name's own bytes only when it is longer than 8 bytes. Loading a graph looks up two names
/// per edge, and a table of `String`s (a bucket, then the string's bytes elsewhere) spent
/// most of the load time waiting on memory.
#[derive(Clone, Debug, Default)]
struct Names {
    /// Every name, one after another.
    text: String,
    /// Where each name ends in `text`.
    ends: Vec<usize>,
    /// A power of two of slots (or none yet).
    slots: Vec<Slot>,
}

/// One slot of [`Names`]' table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Slot {
    /// The name's first 8 bytes, little-endian, zero-padded.
    head: u64,
    /// 0 for an empty slot; else (vertex + 1) << 24 | min(length, [`LEN_MASK`]).
    meta: u64,
}

/// The bits of [`Slot::meta`] that hold the name's length (saturated).
const LEN_MASK: u64 = (1 << 24) - 1;

impl Slot {
    fn new(v: usize, name: &str) -> Slot {
        Slot {
            head: head(name),
            meta: ((v as u64 + 1) << 24) | (name.len() as u64).min(LEN_MASK),
        }
    }

    /// The slot's vertex (the slot is not empty).
    fn vertex(self) -> usize {
        ((self.meta >> 24) - 1) as usize
    }
}

/// A name's first 8 bytes, little-endian, zero-padded.
fn head(name: &str) -> u64 {
    let b = name.as_bytes();
    match b.first_chunk::<8>() {
        Some(first) => u64::from_le_bytes(*first),
        None => b
            .iter()
            .rev()
            .fold(0, |word, &byte| word << 8 | u64::from(byte)),
    }
}

/// The table's hash of a name.
fn name_hash(name: &str) -> usize {
    use std::hash::BuildHasher;
    std::hash::BuildHasherDefault::<crate::FxHasher>::default().hash_one(name) as usize
}

impl Names {
    fn len(&self) -> usize {
        self.ends.len()
    }

    fn get(&self, v: usize) -> &str {
        let start = if v == 0 { 0 } else { self.ends[v - 1] };
        &self.text[start..self.ends[v]]
    }

    /// The vertex named `name` (of [`name_hash`] `hash`), or the empty slot where it would
    /// go.
    fn find(&self, name: &str, hash: usize) -> Result<usize, usize> {
        if self.slots.is_empty() {
            return Err(usize::MAX);
        }
        let mask = self.slots.len() - 1;
        let want = Slot::new(0, name);
        let mut i = hash & mask;
        loop {
            let slot = self.slots[i];
            if slot.meta == 0 {
                return Err(i);
            }
            if slot.head == want.head && slot.meta & LEN_MASK == want.meta & LEN_MASK {
                let v = slot.vertex();
                if name.len() <= 8 || self.get(v) == name {
                    return Ok(v);
                }
            }
            i = (i + 1) & mask;
        }
    }

    /// Reads the home slots of `names` (name and hash; a hash of `usize::MAX` is skipped),
    /// then, for names longer than 8 bytes, where the name of the vertex found there ends and
    /// its first bytes: what finding them reads, read ahead all at once so that the reads
    /// overlap (see [`DiGraph::parse`]). Changes nothing.
    fn read_ahead(&self, names: &[(&str, usize)]) {
        if self.slots.is_empty() {
            return;
        }
        let mask = self.slots.len() - 1;
        let mut seen = 0u64;
        for &(_, hash) in names {
            if hash != usize::MAX {
                seen ^= self.slots[hash & mask].meta;
            }
        }
        let long = |&&(name, hash): &&(&str, usize)| hash != usize::MAX && name.len() > 8;
        let found = |hash: usize| {
            let slot = self.slots[hash & mask];
            (slot.meta != 0).then(|| slot.vertex())
        };
        for &(_, hash) in names.iter().filter(long) {
            if let Some(v) = found(hash) {
                seen ^= self.ends[v] as u64;
                seen ^= self.ends[v.saturating_sub(1)] as u64;
            }
        }
        for &(_, hash) in names.iter().filter(long) {
            if let Some(v) = found(hash) {
                seen ^= u64::from(self.get(v).as_bytes().first().copied().unwrap_or(0));
            }
        }
        std::hint::black_box(seen);
    }

    /// The vertex named `name` (of [`name_hash`] `hash`), added if new.
    fn intern(&mut self, name: &str, hash: usize) -> usize {
        let empty = match self.find(name, hash) {
            Ok(v) => return v,
            Err(i) => i,
        };
        let v = self.len();
        self.text.push_str(name);
        self.ends.push(self.text.len());
        if 2 * (v + 1) > self.slots.len() {
            self.grow();
        } else {
            self.slots[empty] = Slot::new(v, name);
        }
        v
    }

    /// Doubles the table (at least 1024 slots) and puts every name back, [`PARSE_BATCH`]
    /// names at a time with their home slots read ahead (as [`DiGraph::parse`] does).
    fn grow(&mut self) {
        let size = (2 * self.slots.len()).max(1024);
        self.slots = vec![Slot::default(); size];
        let mask = size - 1;
        let mut batch: Vec<(Slot, usize)> = Vec::with_capacity(PARSE_BATCH);
        for start in (0..self.len()).step_by(PARSE_BATCH) {
            batch.clear();
            batch.extend((start..(start + PARSE_BATCH).min(self.len())).map(|v| {
                let name = self.get(v);
                (Slot::new(v, name), name_hash(name) & mask)
            }));
            let mut seen = 0u64;
            for &(_, i) in &batch {
                seen ^= self.slots[i].meta;
            }
            std::hint::black_box(seen);
            for &(slot, mut i) in &batch {
                while self.slots[i].meta != 0 {
                    i = (i + 1) & mask;
                }
                self.slots[i] = slot;
            }
        }
    }
}

impl DiGraph {
    /// An empty graph.
    pub fn new() -> Self {
        DiGraph::default()
    }

    /// Parses the text format (see the module docs). Repeated edges count once.
    ///
    /// Lines are read [`PARSE_BATCH`] at a time: the table slots of their names are read
    /// ahead for the whole batch before any name is looked up. Each of those reads waits on
    /// memory on a large graph, and reads that do not wait on one another overlap (about ten
    /// times cheaper than one after another). The successor lists are built at the end, all
    /// in one array.
    pub fn parse(text: &str) -> Result<Self, GraphError> {
        let mut g = DiGraph::new();
        let mut lines = text.lines().enumerate();
        // Each name of a batch with its hash; `None` for a line's missing second name.
        let mut names: Vec<(&str, usize)> = Vec::with_capacity(2 * PARSE_BATCH);
        // Every edge in file order, repeats too: the lists are built at the end.
        let mut edges: Vec<(usize, usize)> = Vec::new();
        loop {
            names.clear();
            // Lines of one name end with a second entry of hash `usize::MAX`: no edge.
            for (i, line) in lines.by_ref() {
                match first_words(line) {
                    (None, _, _) => continue,
                    (Some(v), None, _) => {
                        names.push((v, name_hash(v)));
                        names.push(("", usize::MAX));
                    }
                    (Some(a), Some(b), None) => {
                        names.push((a, name_hash(a)));
                        names.push((b, name_hash(b)));
                    }
                    (Some(_), Some(_), Some(extra)) => {
                        return Err(GraphError::Malformed {
                            line: i + 1,
                            token: extra.to_string(),
                        })
                    }
                }
                if names.len() >= 2 * PARSE_BATCH {
                    break;
                }
            }
            if names.is_empty() {
                break;
            }
            g.names.read_ahead(&names);
            for pair in names.chunks_exact(2) {
                let a = g.names.intern(pair[0].0, pair[0].1);
                if pair[1].1 != usize::MAX {
                    edges.push((a, g.names.intern(pair[1].0, pair[1].1)));
                }
            }
        }
        if g.is_empty() {
            return Err(GraphError::Empty);
        }
        let (offsets, targets, kept) = compact(g.len(), &edges);
        g.succ = Successors::Compact { offsets, targets };
        g.edges = kept;
        Ok(g)
    }

    /// [`DiGraph::add_vertex`] for a name whose [`name_hash`] is known.
    fn add_hashed(&mut self, (name, hash): (&str, usize)) -> usize {
        let known = self.names.len();
        let v = self.names.intern(name, hash);
        if v == known {
            self.succ.push();
        }
        v
    }

    /// The vertex named `name`, added if new.
    pub fn add_vertex(&mut self, name: &str) -> usize {
        self.add_hashed((name, name_hash(name)))
    }

    /// Adds the edge `a -> b` (once: a repeated edge is ignored, in constant time). The first
    /// edge added to a parsed graph gives each vertex its own list (linear, once).
    pub fn add_edge(&mut self, a: usize, b: usize) {
        let mut lists = match std::mem::take(&mut self.succ) {
            Successors::Lists(lists) => lists,
            Successors::Compact { offsets, targets } => {
                let lists: Vec<Vec<usize>> = (0..self.len())
                    .map(|v| targets[offsets[v]..offsets[v + 1]].to_vec())
                    .collect();
                for (v, list) in lists.iter().enumerate() {
                    if list.len() >= SCAN_DEGREE {
                        self.hubs.extend(list.iter().map(|&w| ((v, w), ())));
                    }
                }
                lists
            }
        };
        self.add_listed(&mut lists, a, b);
        self.succ = Successors::Lists(lists);
    }

    /// [`DiGraph::add_edge`] on lists of their own.
    fn add_listed(&mut self, lists: &mut [Vec<usize>], a: usize, b: usize) {
        let list = &mut lists[a];
        if list.len() < SCAN_DEGREE {
            if list.contains(&b) {
                return;
            }
            list.push(b);
            if list.len() == SCAN_DEGREE {
                self.hubs.extend(list.iter().map(|&w| ((a, w), ())));
            }
        } else if self.hubs.insert((a, b), ()).is_none() {
            list.push(b);
        } else {
            return;
        }
        self.edges += 1;
    }

    /// Number of edges (each counted once).
    pub fn edge_count(&self) -> usize {
        self.edges
    }

    /// Number of vertices.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// True if there is no vertex.
    pub fn is_empty(&self) -> bool {
        self.names.len() == 0
    }

    /// The vertex with this name.
    pub fn vertex(&self, name: &str) -> Result<usize, GraphError> {
        self.names
            .find(name, name_hash(name))
            .map_err(|_| GraphError::UnknownVertex(name.to_string()))
    }

    /// The name of vertex `v`.
    pub fn name(&self, v: usize) -> &str {
        self.names.get(v)
    }

    /// Reads ahead what naming `vertices` reads (where each name ends, then its first byte),
    /// all at once, so that the reads overlap: on a large graph each waits on memory, and
    /// reads that do not wait on one another cost about a tenth of reads one after another.
    /// A writer of many rows calls it for the next rows' vertices before naming them (as
    /// [`DiGraph::parse`] reads its table ahead). Changes nothing.
    pub fn read_ahead(&self, vertices: impl Iterator<Item = usize> + Clone) {
        let mut seen = 0usize;
        for v in vertices.clone() {
            seen ^= self.names.ends[v];
        }
        for v in vertices {
            let start = if v == 0 { 0 } else { self.names.ends[v - 1] };
            seen ^= usize::from(self.names.text.as_bytes().get(start).copied().unwrap_or(0));
        }
        std::hint::black_box(seen);
    }

    /// The vertices one move from `v`.
    pub fn successors(&self, v: usize) -> &[usize] {
        self.succ.get(v)
    }

    /// The Grundy value of every vertex, or the first cycle found.
    ///
    /// One iterative depth-first search: a vertex is valued when it is left, after all its
    /// successors; meeting a vertex still on the search path closes a cycle.
    pub fn grundy_values(&self) -> Result<Vec<u64>, GraphError> {
        const NEW: u8 = 0;
        const OPEN: u8 = 1;
        const DONE: u8 = 2;
        let n = self.len();
        let mut state = vec![NEW; n];
        let mut value = vec![0u64; n];
        let mut stack: Vec<(usize, usize)> = Vec::new();
        let mut mex = Mex::new();
        for root in 0..n {
            if state[root] != NEW {
                continue;
            }
            state[root] = OPEN;
            stack.push((root, 0));
            while let Some(&mut (v, ref mut next)) = stack.last_mut() {
                if let Some(&w) = self.succ.get(v).get(*next) {
                    *next += 1;
                    match state[w] {
                        NEW => {
                            state[w] = OPEN;
                            stack.push((w, 0));
                        }
                        OPEN => {
                            let from = stack.iter().position(|&(u, _)| u == w).unwrap_or(0);
                            let path = stack[from..]
                                .iter()
                                .map(|&(u, _)| self.name(u).to_string())
                                .collect();
                            return Err(GraphError::Cycle { path });
                        }
                        _ => {}
                    }
                } else {
                    let succ = self.succ.get(v);
                    value[v] = mex.of_iter(succ.len(), succ.iter().map(|&w| value[w]));
                    state[v] = DONE;
                    stack.pop();
                }
            }
        }
        Ok(value)
    }
}

/// A graph is a [`Game`] whose positions are single-token vertices.
impl Game for DiGraph {
    type Position = usize;
    fn options(&self, &v: &usize, out: &mut Vec<usize>) {
        out.extend_from_slice(self.succ.get(v));
    }
}

/// The most (moves listed) × (edges + vertices of the graph) for which every move's `to`
/// carries the whole graph (about 20 MB of JSON at most). Past it each `to` is abbreviated to
/// the tokens alone; see [`token_moves`].
pub const FULL_TO_UP_TO: usize = 1 << 20;

/// Moves of tokens on a graph as the catalogue's [`Move`]s, built once for a whole list:
/// `steps` holds (token, vertex it moves onto, outcome and value of the position left).
///
/// The text is "move token 1 from c to d" ("move the token …" when there is one token), the
/// short text "c → d", [`Move::at`] holds `token` (0-based, in the order given), `from` and
/// `onto` (vertex names). `to` is the position after the move, kind `"digraph"`, as
/// [`token_position`] writes it, while `steps.len()` × (edges + vertices) is at most
/// [`FULL_TO_UP_TO`]; past it (a hub with a million successors would otherwise repeat the
/// whole graph in every one of its moves) each `to` keeps only the tokens: `text` is the line
/// `@ V W …`, `tokens` the names, no `edges`, and `"abbreviated": true`.
pub fn token_moves(
    g: &DiGraph,
    tokens: &[usize],
    steps: &[(usize, usize, Outcome, Option<crate::Grundy>)],
) -> Vec<Move> {
    TokenMoves::new(g, steps.len()).moves(tokens, steps)
}

/// The builder behind [`token_moves`], for an answer that lists the moves of several token
/// placements on one graph (the loopy crate lists every vertex's moves): the rule of
/// [`FULL_TO_UP_TO`] is applied to the whole answer's count of moves, and the graph's text,
/// which every full `to` repeats, is written once.
#[derive(Clone, Debug)]
pub struct TokenMoves<'g> {
    g: &'g DiGraph,
    /// The graph's lines joined by `; ` and its edges as JSON, when every `to` is full;
    /// `None` when each is abbreviated to the tokens.
    graph: Option<(String, serde_json::Value)>,
    /// The same as JSON text for [`MoveView::push_json`]: the lines escaped (no quotes) and
    /// the edges.
    json: Option<(String, String)>,
}

impl<'g> TokenMoves<'g> {
    /// A builder for an answer listing `moves` moves in all on `g`: each `to` carries the
    /// whole graph while `moves` × (edges + vertices) is at most [`FULL_TO_UP_TO`], else only
    /// the tokens.
    pub fn new(g: &'g DiGraph, moves: usize) -> TokenMoves<'g> {
        let size = g.edge_count() + g.len();
        let graph = (moves.saturating_mul(size) <= FULL_TO_UP_TO).then(|| {
            if moves == 0 {
                return (String::new(), serde_json::Value::Null);
            }
            let (lines, edges) = graph_lines(g);
            let edges = serde_json::to_value(edges).unwrap_or_default();
            (lines.join("; "), edges)
        });
        let json = graph.as_ref().map(|(text, edges)| {
            let mut escaped = String::new();
            push_json_contents(&mut escaped, text);
            (escaped, edges.to_string())
        });
        TokenMoves { g, graph, json }
    }

    /// True when each `to` is abbreviated to the tokens.
    pub fn abbreviated(&self) -> bool {
        self.graph.is_none()
    }

    /// The most moves an answer on `g` may list with every `to` carrying the whole graph:
    /// [`FULL_TO_UP_TO`] / (edges + vertices). An answer that streams its moves counts them
    /// only up to one past this (a count past it abbreviates every `to` whatever its size), so
    /// on a large graph the count stops at its first move.
    pub fn full_up_to(g: &DiGraph) -> usize {
        FULL_TO_UP_TO / (g.edge_count() + g.len()).max(1)
    }

    /// The move of token `token` of `tokens` onto `onto`, leaving a position of this
    /// `outcome` and `grundy`, as a [`MoveView`]: serialized exactly as the [`Move`] that
    /// [`TokenMoves::moves`] builds for the same step, but written straight from the indices.
    pub fn view<'a, G>(
        &'a self,
        tokens: &'a [usize],
        token: usize,
        onto: usize,
        outcome: Outcome,
        grundy: Option<G>,
    ) -> MoveView<'a, G> {
        MoveView {
            moves: self,
            tokens,
            token,
            onto,
            outcome,
            grundy,
            extra: None,
        }
    }

    /// The moves of tokens at `tokens`, as [`token_moves`] builds them: `steps` holds (token,
    /// vertex it moves onto, outcome and value of the position left).
    pub fn moves(
        &self,
        tokens: &[usize],
        steps: &[(usize, usize, Outcome, Option<crate::Grundy>)],
    ) -> Vec<Move> {
        let g = self.g;
        steps
            .iter()
            .map(|&(token, onto, outcome, ref grundy)| {
                let from = tokens[token];
                let mut after = tokens.to_vec();
                after[token] = onto;
                let names: Vec<&str> = after.iter().map(|&t| g.name(t)).collect();
                let at_line = format!("@ {}", names.join(" ")).trim_end().to_string();
                let to = match &self.graph {
                    Some((graph_text, edges)) => {
                        let text = if graph_text.is_empty() {
                            at_line
                        } else {
                            format!("{graph_text}; {at_line}")
                        };
                        Position::text("digraph", text)
                            .with("edges", edges)
                            .with("tokens", &names)
                    }
                    None => Position::text("digraph", at_line)
                        .with("tokens", &names)
                        .with("abbreviated", true),
                };
                let who = if tokens.len() == 1 {
                    "the token".to_string()
                } else {
                    format!("token {token}")
                };
                let (a, b) = (g.name(from), g.name(onto));
                let mut m = Move::new(
                    format!("move {who} from {a} to {b}"),
                    &format!("{a} → {b}"),
                    to,
                    outcome,
                    None,
                )
                .at("token", token)
                .at("from", a)
                .at("onto", b);
                m.grundy = grundy.clone();
                m
            })
            .collect()
    }
}

/// One move of tokens on a graph as [`TokenMoves::view`] makes it, to write as JSON:
/// [`MoveView::push_json`] writes the same bytes as serde_json writes for the [`Move`] that
/// [`TokenMoves::moves`] builds for that step, but straight from vertex indices (no `Move`,
/// `Position` or JSON value is built), so an answer listing millions of moves is written as
/// it is produced, in constant memory. `G` is the value written as the move's `grundy`
/// (absent when `None`).
#[derive(Clone, Copy, Debug)]
pub struct MoveView<'a, G> {
    moves: &'a TokenMoves<'a>,
    tokens: &'a [usize],
    token: usize,
    onto: usize,
    outcome: Outcome,
    grundy: Option<G>,
    /// One more entry of `at` (a name and a count, written as the project's JSON integer).
    extra: Option<(&'static str, u64)>,
}

/// A value that a streamed answer writes as JSON text by hand: the bytes serde_json writes
/// for it.
pub trait PushJson {
    /// Appends the value's JSON to `out`.
    fn push_json(&self, out: &mut String);
}

/// As its `Serialize`: an integer (a decimal string past 2^53), or `{"infinite": [...]}`.
impl PushJson for crate::Grundy {
    fn push_json(&self, out: &mut String) {
        match self {
            crate::Grundy::Finite(m) => push_json_u64(out, *m),
            crate::Grundy::Infinite(k) => {
                out.push_str("{\"infinite\":[");
                for (i, &m) in k.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    push_json_u64(out, m);
                }
                out.push_str("]}");
            }
        }
    }
}

/// As its `Serialize`: `"N"`, `"P"` or `"D"`.
impl PushJson for Outcome {
    fn push_json(&self, out: &mut String) {
        out.push_str(match self {
            Outcome::N => "\"N\"",
            Outcome::P => "\"P\"",
            Outcome::D => "\"D\"",
        });
    }
}

/// Appends `n` as the project's JSON integer ([`crate::text::JsonU64`]): a number up to 2^53, a decimal
/// string above.
pub fn push_json_u64(out: &mut String, n: u64) {
    use fmt::Write as _;
    let _ = if n <= crate::text::JSON_MAX_EXACT {
        write!(out, "{n}")
    } else {
        write!(out, "\"{n}\"")
    };
}

/// Appends `s` as a JSON string, escaped exactly as serde_json escapes it (a string with
/// nothing to escape, the usual case, is copied as it is).
pub fn push_json_str(out: &mut String, s: &str) {
    out.push('"');
    push_json_contents(out, s);
    out.push('"');
}

/// Appends the inside of `s` as a JSON string (escaped, without the quotes). JSON escapes
/// character by character, so pieces written one after another make the string of them
/// joined.
fn push_json_contents(out: &mut String, s: &str) {
    if s.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') {
        out.push_str(s);
    } else {
        let quoted = serde_json::to_string(s).unwrap_or_default();
        out.push_str(&quoted[1..quoted.len() - 1]);
    }
}

impl<G> MoveView<'_, G> {
    /// Adds the entry `key` (a name other than `from`, `onto` and `token`) with the count
    /// `value` to the move's `at`, as `Move::at(key, JsonU64(value))` does.
    pub fn at(mut self, key: &'static str, value: u64) -> Self {
        self.extra = Some((key, value));
        self
    }

    /// The names of the tokens' vertices after the move, `onto` the name of the vertex moved
    /// onto.
    fn after<'s>(&'s self, onto: &'s str) -> impl Iterator<Item = &'s str> + Clone + 's {
        let g = self.moves.g;
        (0..self.tokens.len()).map(move |i| {
            if i == self.token {
                onto
            } else {
                g.name(self.tokens[i])
            }
        })
    }

    /// Appends the line `@ V W …` of the tokens after the move, as [`TokenMoves::moves`]
    /// writes it (trailing whitespace trimmed), escaped for JSON.
    fn push_at_line(&self, out: &mut String, onto: &str) {
        let names = self.after(onto);
        let last = names.clone().last().unwrap_or("");
        if last.is_empty() || last.ends_with(char::is_whitespace) {
            // Names from a file never end so; one built by hand is trimmed as a whole.
            let joined: Vec<&str> = names.collect();
            push_json_contents(out, format!("@ {}", joined.join(" ")).trim_end());
            return;
        }
        out.push('@');
        for name in names {
            out.push(' ');
            push_json_contents(out, name);
        }
    }
}

impl<G: PushJson> MoveView<'_, G> {
    /// Appends the move's JSON to `out`: the bytes serde_json writes for the [`Move`] that
    /// [`TokenMoves::moves`] builds for the same step (`text`, `short`, `to`, `outcome`,
    /// `grundy`, `at`; `to`'s own fields, and `at`'s, sorted by name as a JSON map of the
    /// `Move` holds them).
    pub fn push_json(&self, out: &mut String) {
        let g = self.moves.g;
        let (a, b) = (g.name(self.tokens[self.token]), g.name(self.onto));
        out.push_str("{\"text\":\"");
        if self.tokens.len() == 1 {
            out.push_str("move the token from ");
        } else {
            out.push_str("move token ");
            push_json_u64(out, self.token as u64);
            out.push_str(" from ");
        }
        push_json_contents(out, a);
        out.push_str(" to ");
        push_json_contents(out, b);
        out.push_str("\",\"short\":");
        // "a → b" has at most as many characters as bytes: no cut when the bytes fit.
        if a.len() + b.len() + 3 <= SHORT_WIDTH {
            out.push('"');
            push_json_contents(out, a);
            out.push_str(" → ");
            push_json_contents(out, b);
            out.push('"');
        } else {
            push_json_str(out, &shorten(&format!("{a} → {b}"), SHORT_WIDTH));
        }
        out.push_str(",\"to\":{\"kind\":\"digraph\",\"text\":\"");
        match &self.moves.json {
            Some((text, edges)) => {
                if !text.is_empty() {
                    out.push_str(text);
                    out.push_str("; ");
                }
                self.push_at_line(out, b);
                out.push_str("\",\"edges\":");
                out.push_str(edges);
            }
            None => {
                self.push_at_line(out, b);
                out.push_str("\",\"abbreviated\":true");
            }
        }
        out.push_str(",\"tokens\":[");
        for (i, name) in self.after(b).enumerate() {
            if i > 0 {
                out.push(',');
            }
            push_json_str(out, name);
        }
        out.push_str("]},\"outcome\":");
        self.outcome.push_json(out);
        if let Some(v) = &self.grundy {
            out.push_str(",\"grundy\":");
            v.push_json(out);
        }
        out.push_str(",\"at\":{");
        // The extra entry goes before the first of `from`, `onto`, `token` it sorts before.
        let mut extra = self.extra;
        let mut entry = |out: &mut String, key: &str, write: &dyn Fn(&mut String)| {
            if let Some((k, value)) = extra.filter(|&(k, _)| k < key) {
                push_json_str(out, k);
                out.push(':');
                push_json_u64(out, value);
                out.push(',');
                extra = None;
            }
            push_json_str(out, key);
            out.push(':');
            write(out);
        };
        entry(out, "from", &|out| push_json_str(out, a));
        out.push(',');
        entry(out, "onto", &|out| push_json_str(out, b));
        out.push(',');
        entry(out, "token", &|out| push_json_u64(out, self.token as u64));
        if let Some((key, value)) = extra {
            out.push(',');
            push_json_str(out, key);
            out.push(':');
            push_json_u64(out, value);
        }
        out.push_str("}}");
    }
}

/// The width of [`Move::short`].
const SHORT_WIDTH: usize = 30;

/// The value, outcome and winning moves of tokens on a graph (vertices as indices).
#[derive(Clone, Debug, PartialEq)]
pub struct TokenAnalysis {
    /// XOR of the values of the tokens' vertices.
    pub grundy: u64,
    /// `N` when `grundy` is not 0.
    pub outcome: Outcome,
    /// Every winning move: a token moved onto a vertex of value `g(from) ⊕ grundy`; built by
    /// [`token_moves`].
    pub winning_moves: Vec<Move>,
}

/// Every winning move of tokens `tokens` of value `grundy` in normal play, as (token, vertex
/// it moves onto): onto a vertex of value `g(from) ⊕ grundy`.
fn normal_steps(
    graph: &DiGraph,
    values: &[u64],
    tokens: &[usize],
    grundy: u64,
) -> Vec<(usize, usize)> {
    let mut steps = Vec::new();
    if grundy != 0 {
        for (token, &from) in tokens.iter().enumerate() {
            let target = values[from] ^ grundy;
            for &onto in graph.successors(from) {
                if values[onto] == target {
                    steps.push((token, onto));
                }
            }
        }
    }
    steps
}

/// Analyses tokens at `tokens` (vertices, repeats allowed), given every vertex's `values`.
pub fn analyze_tokens(graph: &DiGraph, values: &[u64], tokens: &[usize]) -> TokenAnalysis {
    let grundy = tokens.iter().fold(0, |a, &v| a ^ values[v]);
    let steps: Vec<_> = normal_steps(graph, values, tokens, grundy)
        .into_iter()
        .map(|(t, onto)| (t, onto, Outcome::P, Some(crate::Grundy::Finite(0))))
        .collect();
    TokenAnalysis {
        grundy,
        outcome: Outcome::from_grundy(grundy),
        winning_moves: token_moves(graph, tokens, &steps),
    }
}

/// Several tokens on a graph as one [`Game`]: a position is the sorted list of the tokens'
/// vertices, a move slides one token along an edge. It splits into one-token components, so
/// the normal-play solver values it by XOR; misère search plays the whole position.
#[derive(Clone, Copy, Debug)]
pub struct Tokens<'a>(pub &'a DiGraph);

impl Game for Tokens<'_> {
    type Position = Vec<usize>;

    fn options(&self, pos: &Vec<usize>, out: &mut Vec<Vec<usize>>) {
        for (i, &v) in pos.iter().enumerate() {
            // Tokens on the same vertex have the same moves: take the first of them only.
            if i > 0 && pos[i - 1] == v {
                continue;
            }
            for &w in self.0.successors(v) {
                let mut next = pos.clone();
                next[i] = w;
                next.sort_unstable();
                out.push(next);
            }
        }
    }

    fn components(&self, pos: &Vec<usize>, out: &mut Vec<Vec<usize>>) -> bool {
        if pos.len() < 2 {
            return false;
        }
        out.extend(pos.iter().map(|&v| vec![v]));
        true
    }
}

/// Misère play of tokens on an acyclic graph (the player who makes the last move loses):
/// the outcome and every winning move (built by [`token_moves`]), by direct search of the
/// whole token position (misère values do not add), within [`DEFAULT_BUDGET`]; see
/// [`misere_tokens_capped`].
pub fn misere_tokens(
    graph: &DiGraph,
    tokens: &[usize],
) -> Result<(Outcome, Vec<Move>), GraphError> {
    misere_tokens_capped(graph, tokens, &DEFAULT_BUDGET)
}

/// [`misere_tokens`] within `budget`: positions are token placements, each estimated at
/// [`placement_bytes`] (the work and memory grow with the placements reachable, which can be
/// astronomical: four tokens on a star of 1000 leaves reach about 4·10^10); past it,
/// [`GraphError::Limit`].
pub fn misere_tokens_capped(
    graph: &DiGraph,
    tokens: &[usize],
    budget: &Budget,
) -> Result<(Outcome, Vec<Move>), GraphError> {
    graph.grundy_values()?; // rejects a cycle, naming it
    let (outcome, steps) = misere_search(graph, tokens, budget, true)?;
    let steps: Vec<_> = steps
        .into_iter()
        .map(|(t, onto)| (t, onto, Outcome::P, None))
        .collect();
    Ok((outcome, token_moves(graph, tokens, &steps)))
}

/// The misère outcome alone of tokens on an acyclic graph, within `budget`: what
/// [`misere_tokens_capped`] answers without looking for the winning moves.
pub fn misere_outcome_capped(
    graph: &DiGraph,
    tokens: &[usize],
    budget: &Budget,
) -> Result<Outcome, GraphError> {
    graph.grundy_values()?; // rejects a cycle, naming it
    Ok(misere_search(graph, tokens, budget, false)?.0)
}

/// The misère search of [`misere_tokens_capped`] on a graph known to be acyclic: the outcome
/// and, when `moves` is set, every winning move as (token, vertex it moves onto).
fn misere_search(
    graph: &DiGraph,
    tokens: &[usize],
    budget: &Budget,
    moves: bool,
) -> Result<(Outcome, Vec<(usize, usize)>), GraphError> {
    let mut solver = Solver::new(MisereBudget::with_entry_bytes(
        Tokens(graph),
        budget,
        placement_bytes(tokens.len()),
    ));
    let too_many = |solver: &Solver<MisereBudget<Tokens>>| {
        solver
            .game()
            .check("the misère search of token placements")
            .err()
            .map(GraphError::from)
    };
    let mut sorted = tokens.to_vec();
    sorted.sort_unstable();
    let outcome = solver.misere_outcome(&sorted);
    if let Some(e) = too_many(&solver) {
        return Err(e);
    }
    let mut steps = Vec::new();
    if !moves {
        return Ok((outcome, steps));
    }
    for (token, &from) in tokens.iter().enumerate() {
        for &onto in graph.successors(from) {
            let mut next = tokens.to_vec();
            next[token] = onto;
            next.sort_unstable();
            let o = solver.misere_outcome(&next);
            if let Some(e) = too_many(&solver) {
                return Err(e);
            }
            if o == Outcome::P {
                steps.push((token, onto));
            }
        }
    }
    Ok((outcome, steps))
}

/// What [`analyze`] is asked: normal or misère play, and the misère search's budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GraphOptions {
    /// Normal play (the last mover wins; values add by XOR) or misère play (searched).
    pub play: Play,
    /// What a misère search may hold ([`DEFAULT_BUDGET`]); normal play needs none.
    pub budget: Budget,
}

impl Default for GraphOptions {
    fn default() -> Self {
        GraphOptions {
            play: Play::Normal,
            budget: DEFAULT_BUDGET,
        }
    }
}

/// One vertex and its Grundy value.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct VertexValue {
    /// The vertex's name.
    pub name: String,
    /// Its Sprague–Grundy value (normal play).
    pub grundy: u64,
}

/// Who wins with tokens on the graph, and how.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct TokenReport {
    /// The tokens' vertices, as given (a name twice: two tokens there).
    pub tokens: Vec<String>,
    /// Normal or misère play.
    pub play: Play,
    /// The position's value, the XOR of the tokens' vertices' values (normal play only:
    /// misère values do not add; absent from JSON then).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grundy: Option<u64>,
    /// `N` when the player to move wins.
    pub outcome: Outcome,
    /// Every winning move (token by token, edges in file order), built by [`token_moves`];
    /// empty in a P-position.
    pub winning_moves: Vec<Move>,
    /// The Grundy value of each token's vertex (for the text output; not serialized).
    #[serde(skip)]
    pub token_grundy: Vec<u64>,
    /// Each winning move as (token, from, onto, value of from, value of onto), kept typed
    /// beside the moves for [`GraphAnalysis::describe`].
    #[serde(skip)]
    steps: Vec<(usize, String, String, u64, u64)>,
}

/// The answer to `grundy graph`: every vertex's value and, with tokens, who wins and how.
///
/// Serializes as `{"vertices": [{"name", "grundy"}], "tokens", "play", "grundy", "outcome",
/// "winning_moves"}`, the fields after `vertices` only when tokens were given (those of
/// [`TokenReport`]).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct GraphAnalysis {
    /// Every vertex, in order of first appearance in the file.
    pub vertices: Vec<VertexValue>,
    /// The tokens' answer, when tokens were given.
    #[serde(flatten)]
    pub tokens: Option<TokenReport>,
}

/// Parses a graph (the text format of the module docs), values every vertex and, when
/// `tokens` (vertex names) are given, answers who wins with tokens there and how.
///
/// ```
/// use grundy_core::graph::{analyze, GraphOptions};
/// use grundy_core::Outcome;
///
/// let a = analyze("a b\nb c\n", &["a"], &GraphOptions::default())?;
/// assert_eq!(a.vertices[0].grundy, 0); // a -> b -> c: values 0, 1, 0
/// let t = a.tokens.unwrap();
/// assert_eq!(t.outcome, Outcome::P);
/// let a = analyze("a b\nb c\n", &["b", "b", "a"], &GraphOptions::default())?;
/// let t = a.tokens.unwrap();
/// assert_eq!((t.grundy, t.outcome), (Some(0), Outcome::P));
/// # Ok::<(), grundy_core::graph::GraphError>(())
/// ```
pub fn analyze<S: AsRef<str>>(
    text: &str,
    tokens: &[S],
    options: &GraphOptions,
) -> Result<GraphAnalysis, GraphError> {
    DiGraph::parse(text)?.analyze(tokens, options)
}

impl DiGraph {
    /// Values every vertex and, when `tokens` (vertex names) are given, answers who wins with
    /// tokens there and how; see [`analyze`]. The whole answer is built in memory (each
    /// vertex's name copied); [`DiGraph::answer`] gives the same answer as rows, to write as
    /// they are produced.
    pub fn analyze<S: AsRef<str>>(
        &self,
        tokens: &[S],
        options: &GraphOptions,
    ) -> Result<GraphAnalysis, GraphError> {
        let values = self.grundy_values()?;
        let report = self.token_report(&values, tokens, options)?;
        let vertices = (0..self.len())
            .map(|v| VertexValue {
                name: self.name(v).to_string(),
                grundy: values[v],
            })
            .collect();
        Ok(GraphAnalysis {
            vertices,
            tokens: report,
        })
    }

    /// The answer of [`DiGraph::analyze`] made to be written as it is produced: every
    /// vertex's value is one row of [`GraphAnswer::vertices`], made from the graph when it is
    /// read or written (nothing per vertex is held but its value). It writes the same JSON
    /// ([`GraphAnswer::write_json`]) and [`fmt::Display`]s as the same text as the
    /// [`GraphAnalysis`], so a front end writes a graph of millions of vertices in the memory
    /// of the graph itself.
    ///
    /// ```
    /// use grundy_core::graph::{DiGraph, GraphOptions};
    ///
    /// let g = DiGraph::parse("a b\nb c\n")?;
    /// let a = g.answer(&["a", "b"], &GraphOptions::default())?;
    /// let values: Vec<(&str, u64)> = a.vertices.iter().map(|r| (r.name, r.grundy)).collect();
    /// assert_eq!(values, [("a", 0), ("b", 1), ("c", 0)]);
    /// let old = g.analyze(&["a", "b"], &GraphOptions::default())?;
    /// let mut json = String::new();
    /// a.write_json(|piece| Ok::<(), ()>(json.push_str(piece))).unwrap();
    /// assert_eq!(json, serde_json::to_string(&old).unwrap());
    /// assert_eq!(a.to_string(), old.describe());
    /// # Ok::<(), grundy_core::graph::GraphError>(())
    /// ```
    pub fn answer<S: AsRef<str>>(
        &self,
        tokens: &[S],
        options: &GraphOptions,
    ) -> Result<GraphAnswer<'_>, GraphError> {
        let values = self.grundy_values()?;
        let tokens = self.token_report(&values, tokens, options)?;
        Ok(GraphAnswer {
            vertices: VertexRows {
                graph: self,
                values,
            },
            tokens,
        })
    }

    /// The tokens' part of an answer, given every vertex's `values`: `None` without tokens.
    fn token_report<S: AsRef<str>>(
        &self,
        values: &[u64],
        tokens: &[S],
        options: &GraphOptions,
    ) -> Result<Option<TokenReport>, GraphError> {
        if tokens.is_empty() {
            return Ok(None);
        }
        let at = tokens
            .iter()
            .map(|t| self.vertex(t.as_ref()))
            .collect::<Result<Vec<_>, _>>()?;
        let (grundy, outcome, steps) = match options.play {
            Play::Normal => {
                let g = at.iter().fold(0, |a, &v| a ^ values[v]);
                let steps: Vec<_> = normal_steps(self, values, &at, g)
                    .into_iter()
                    .map(|(t, onto)| (t, onto, Outcome::P, Some(crate::Grundy::Finite(0))))
                    .collect();
                (Some(g), Outcome::from_grundy(g), steps)
            }
            Play::Misere => {
                let (o, steps) = misere_search(self, &at, &options.budget, true)?;
                let steps = steps
                    .into_iter()
                    .map(|(t, onto)| (t, onto, Outcome::P, None))
                    .collect();
                (None, o, steps)
            }
        };
        let winning_moves = token_moves(self, &at, &steps);
        let steps = steps
            .iter()
            .map(|&(t, onto, _, _)| {
                let from = at[t];
                (
                    t,
                    self.name(from).to_string(),
                    self.name(onto).to_string(),
                    values[from],
                    values[onto],
                )
            })
            .collect();
        Ok(Some(TokenReport {
            tokens: tokens.iter().map(|t| t.as_ref().to_string()).collect(),
            play: options.play,
            grundy,
            outcome,
            winning_moves,
            token_grundy: at.iter().map(|&v| values[v]).collect(),
            steps,
        }))
    }
}

/// The answer to `grundy graph` on a loopfree graph as [`DiGraph::answer`] makes it: the
/// vertices as rows, made as they are read or written, and the tokens' part.
///
/// [`GraphAnswer::write_json`] writes the JSON of the [`GraphAnalysis`] (the same bytes, piece
/// by piece) and its [`fmt::Display`] is [`GraphAnalysis::describe`]'s text, both row by row.
#[derive(Clone, Debug)]
pub struct GraphAnswer<'g> {
    /// Every vertex with its value, in order of first appearance in the file.
    pub vertices: VertexRows<'g>,
    /// The tokens' answer, when tokens were given.
    pub tokens: Option<TokenReport>,
}

/// The size of the pieces that the streamed answers' `write_json` hand over (64 KiB).
pub const JSON_PIECE: usize = 1 << 16;

impl GraphAnswer<'_> {
    /// Writes the answer's JSON, the bytes serde_json writes for the [`GraphAnalysis`]
    /// (`{"vertices": [{"name", "grundy"}], …}`, the fields of [`TokenReport`] with tokens),
    /// handing it to `emit` in pieces of about [`JSON_PIECE`] bytes as the rows are made;
    /// the first error of `emit` stops the writing and is returned (the caller's writer: the
    /// library does no I/O). No newline at the end.
    pub fn write_json<E>(&self, mut emit: impl FnMut(&str) -> Result<(), E>) -> Result<(), E> {
        use fmt::Write as _;
        let mut out = String::with_capacity(JSON_PIECE + 1024);
        out.push_str("{\"vertices\":[");
        for (i, row) in self.vertices.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"name\":");
            push_json_str(&mut out, row.name);
            let _ = write!(out, ",\"grundy\":{}}}", row.grundy);
            if out.len() >= JSON_PIECE {
                emit(&out)?;
                out.clear();
            }
        }
        out.push(']');
        if let Some(t) = &self.tokens {
            push_json_members(&mut out, t);
        }
        out.push('}');
        emit(&out)
    }
}

/// Appends the members of `value`'s JSON object, after a comma (nothing for an object
/// without members): what `#[serde(flatten)]` writes for it in an enclosing object.
pub fn push_json_members(out: &mut String, value: &impl serde::Serialize) {
    let text = serde_json::to_string(value).unwrap_or_default();
    if let Some(inner) = text.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
        if !inner.is_empty() {
            out.push(',');
            out.push_str(inner);
        }
    }
}

/// Every vertex of a graph with its Grundy value, as rows ([`VertexRows::iter`]).
#[derive(Clone, Debug)]
pub struct VertexRows<'g> {
    graph: &'g DiGraph,
    values: Vec<u64>,
}

/// One vertex and its Grundy value, borrowed from the graph: what [`VertexValue`] holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VertexRow<'a> {
    /// The vertex's name.
    pub name: &'a str,
    /// Its Sprague–Grundy value (normal play).
    pub grundy: u64,
}

impl VertexRows<'_> {
    /// The rows, in vertex order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = VertexRow<'_>> + '_ {
        self.values
            .iter()
            .enumerate()
            .map(|(v, &grundy)| VertexRow {
                name: self.graph.name(v),
                grundy,
            })
    }

    /// Every vertex's value, in vertex order.
    pub fn values(&self) -> &[u64] {
        &self.values
    }

    /// The number of rows (vertices).
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// True when there is no row.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

/// The text of [`GraphAnalysis::describe`], written row by row.
impl fmt::Display for GraphAnswer<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = self.vertices.graph;
        let width = (0..g.len())
            .map(|v| g.name(v).chars().count())
            .max()
            .unwrap_or(0)
            .max(6);
        pad(f, "vertex", width)?;
        f.write_str("  grundy\n")?;
        for row in self.vertices.iter() {
            pad(f, row.name, width)?;
            writeln!(f, "  {}", row.grundy)?;
        }
        match &self.tokens {
            Some(t) => write_token_text(f, t),
            None => Ok(()),
        }
    }
}

/// Writes `text` and spaces up to `width` characters (by hand: a format width above 65535
/// panics, and names can be longer).
pub fn pad(f: &mut dyn fmt::Write, text: &str, width: usize) -> fmt::Result {
    const SPACES: &str = "                                ";
    f.write_str(text)?;
    let mut left = width.saturating_sub(text.chars().count());
    while left > 0 {
        let n = left.min(SPACES.len());
        f.write_str(&SPACES[..n])?;
        left -= n;
    }
    Ok(())
}

/// The tokens' part of the text of [`GraphAnalysis::describe`]: their value or misère verdict
/// and every winning move.
fn write_token_text(s: &mut dyn fmt::Write, t: &TokenReport) -> fmt::Result {
    let verdict = if t.outcome == Outcome::P {
        "P-position: the player to move loses"
    } else {
        "N-position: the player to move wins"
    };
    let on = t.tokens.join(" ");
    match t.grundy {
        Some(g) => {
            let terms: Vec<String> = t.token_grundy.iter().map(u64::to_string).collect();
            let terms = terms.join(" ⊕ ");
            writeln!(s, "\ntokens on {on}: value {terms} = {g}, {verdict}")?;
        }
        None => writeln!(s, "\ntokens on {on}, misère play: {verdict}")?,
    }
    if !t.steps.is_empty() {
        writeln!(s, "winning moves ({}):", t.steps.len())?;
        for (token, from, onto, gf, go) in &t.steps {
            writeln!(
                s,
                "  token {token}: {from} -> {onto}   (value {gf} -> {go})"
            )?;
        }
    }
    Ok(())
}

impl GraphAnalysis {
    /// The analysis as text for a reader, the words every front end shows (`grundy graph`): a
    /// table of every vertex's value, then, with tokens, their value (normal play) or misère
    /// verdict and every winning move.
    ///
    /// ```
    /// use grundy_core::graph::{analyze, GraphOptions};
    ///
    /// let a = analyze("a b\nb c\n", &["a", "b"], &GraphOptions::default())?;
    /// let text = a.describe();
    /// assert_eq!(text.lines().nth(1), Some("a       0"));
    /// assert!(text.contains("tokens on a b: value 0 ⊕ 1 = 1, N-position"));
    /// # Ok::<(), grundy_core::graph::GraphError>(())
    /// ```
    pub fn describe(&self) -> String {
        use std::fmt::Write as _;
        let mut s = String::new();
        let width = self
            .vertices
            .iter()
            .map(|v| v.name.chars().count())
            .max()
            .unwrap_or(0)
            .max(6);
        // Padded by hand: a format width above 65535 panics, and names can be longer.
        let pad = |s: &mut String, name: &str| {
            s.push_str(name);
            s.extend(std::iter::repeat_n(' ', width - name.chars().count()));
        };
        pad(&mut s, "vertex");
        s.push_str("  grundy\n");
        for v in &self.vertices {
            pad(&mut s, &v.name);
            let _ = writeln!(s, "  {}", v.grundy);
        }
        if let Some(t) = &self.tokens {
            let _ = write_token_text(&mut s, t);
        }
        s
    }
}

/// A position of tokens on a graph as the catalogue carries it (kind `"digraph"`): the
/// graph's edges `FROM TO` (and lone vertices) joined by `; `, then `@` and the token
/// vertices; fields `edges` (name pairs) and `tokens` (names). Linear in the graph's size.
pub fn token_position(g: &DiGraph, tokens: &[usize]) -> crate::catalogue::Position {
    let (mut lines, edges) = graph_lines(g);
    let names: Vec<&str> = tokens.iter().map(|&t| g.name(t)).collect();
    lines.push(format!("@ {}", names.join(" ")).trim_end().to_string());
    crate::catalogue::Position::text("digraph", lines.join("; "))
        .with("edges", edges)
        .with("tokens", names)
}

/// The graph's lines as [`token_position`] writes them (each edge `FROM TO`, each lone vertex
/// by its name) and its edges as name pairs.
fn graph_lines(g: &DiGraph) -> (Vec<String>, Vec<[&str; 2]>) {
    let mut has_in = vec![false; g.len()];
    for v in 0..g.len() {
        for &w in g.successors(v) {
            has_in[w] = true;
        }
    }
    let mut edges = Vec::new();
    let mut lines = Vec::new();
    for (v, &reached) in has_in.iter().enumerate() {
        if g.successors(v).is_empty() && !reached {
            lines.push(g.name(v).to_string());
        }
        for &w in g.successors(v) {
            edges.push([g.name(v), g.name(w)]);
            lines.push(format!("{} {}", g.name(v), g.name(w)));
        }
    }
    (lines, edges)
}

/// Splits a catalogue position of tokens on a graph into the graph's lines (separated by
/// newlines or `;`) and the token names (after `@`).
pub fn split_token_text(text: &str) -> (Vec<&str>, Vec<&str>) {
    let mut lines = Vec::new();
    let mut tokens = Vec::new();
    for line in text.split(['\n', ';']) {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix('@') {
            tokens.extend(rest.split_whitespace());
        } else if !t.is_empty() {
            lines.push(t);
        }
    }
    (lines, tokens)
}
