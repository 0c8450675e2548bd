//! Graphs too large for the engine: Node Kayles and Arc Kayles on graphs of more than
//! [`MAX_VERTICES`] vertices (the queens graphs past 11 × 11, OEIS A344227), valued by
//! expanding their first moves until every position left fits the engine.
//!
//! The engine holds a position as a 128-bit vertex set. A move of Node Kayles deletes a vertex
//! with all its neighbours, so on a dense graph positions shrink fast: on the 12 × 12 queens
//! graph (144 vertices) every first move leaves at most 110 vertices, on the 13 × 13 one at
//! most 132 and after a second move fewer than 128. An [`Expansion`] asks of a position `P`
//! of a [`WideGraph`] Lemoine and Viennot's question, "is `P + *k` a P-position?" (is `k` its
//! value?), as the engine does: while `P` has more than [`Expansion::leaf`] vertices (at most
//! 128), by asking its options — `k` is `P`'s value when no option has the value `k` and, for
//! each `j < k`, one has the value `j`, each scan stopping at its first answer, smallest
//! options first; a smaller `P` is a leaf: the subgraph induced on it, renumbered, is asked
//! the question by a fresh [`Engine`] with the expansion's [`Options`] ([`Engine::is_p`]:
//! decomposition, table, pruning; one leaf at a time, so the table memory is one leaf's).
//! The value of the root is the least `k` it is shown to have. Positions are brought to the
//! least image under the automorphisms the graph was given ([`WideGraph::queens`]: the
//! square's eight) and memoised with their value or the values they were shown not to have,
//! so a position that two orders of the same moves reach is asked once.
//!
//! A position first falls apart into parts, as the engine's do: its connected components,
//! valued apart and XORed, a sum's question going to its largest part with the heap adjusted
//! (the others valued). On a lattice each component is a part keyed by its shape wherever it
//! lies (a path's pieces by their length); elsewhere the components small enough for a leaf
//! are gathered into leaves, and only a connected part past the leaf size is expanded. So a
//! sparse graph past 128 vertices is valued by its pieces (Node Kayles on `path:1000`: 999
//! memo entries, 7 CPU seconds), while a graph that stays connected as it shrinks (a ladder
//! under Arc Kayles) is expanded level by level and is out of reach past a few levels.
//!
//! The levels above the leaves have none of the engine's tables or move ordering beyond the
//! memo and "smallest first": the cost is the leaves', one engine search per question. The
//! memo holds only what was proven; it can be saved and read back ([`Expansion::save`],
//! [`Expansion::load`]) and is saved by the [`Options::checkpoint`] between leaves, so that a
//! run of hours resumes where it stopped and loses at most the leaf under search.

use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufWriter, Write};
use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

use crate::engine::{Engine, Move, Options, Rules, SearchError};
use crate::graph::{edge_notation, Graph, GraphError, Spec, MAX_VERTICES};
use crate::table::LoadError;

/// The most vertices of a [`WideGraph`].
pub const MAX_WIDE_VERTICES: usize = 1024;

/// A set of a [`WideGraph`]'s vertices: bit `v % 64` of word `v / 64` is vertex `v`.
pub type WideSet = Vec<u64>;

/// An undirected graph of up to [`MAX_WIDE_VERTICES`] vertices, with automorphisms to fold
/// into the [`Expansion`]'s memo.
#[derive(Clone, Debug)]
pub struct WideGraph {
    /// Its notation ([`crate::graph`]'s: `queens:14`, or an edge list).
    name: String,
    words: usize,
    adj: Vec<WideSet>,
    /// Each vertex's neighbours as a list (`adj` by rows), for the walks that visit a few
    /// vertices of a graph of many words.
    nbrs: Vec<Vec<u32>>,
    loops: WideSet,
    /// See [`WideGraph::board_shape`].
    board: Option<(usize, usize)>,
    /// `(rows, cols)` for a lattice (`grid`, `ladder`, `path`), numbered row by row.
    lattice: Option<(usize, usize)>,
    /// A cycle (`cycle:N`), whose proper connected subsets are paths.
    ring: bool,
    /// Vertex permutations that are automorphisms (the identity left out).
    symmetries: Vec<Vec<u32>>,
}

/// A graph of the notation held as the engine holds it when it fits (at most
/// [`MAX_VERTICES`] vertices), else as a [`WideGraph`] for the [`Expansion`].
#[derive(Clone, Debug)]
pub enum AnyGraph {
    /// At most [`MAX_VERTICES`] vertices: the engine's.
    Small(Graph),
    /// More: the expansion's.
    Wide(WideGraph),
}

impl AnyGraph {
    /// Reads [`crate::graph`]'s notation, up to [`MAX_WIDE_VERTICES`] vertices.
    pub fn parse(text: &str) -> Result<AnyGraph, GraphError> {
        let spec = Spec::parse(text, MAX_WIDE_VERTICES)?;
        if spec.n <= MAX_VERTICES {
            Graph::held(spec).map(AnyGraph::Small)
        } else {
            WideGraph::held(spec).map(AnyGraph::Wide)
        }
    }

    /// The graph on `n` vertices with `edges`, held by its size.
    pub fn from_edges(n: usize, edges: &[(usize, usize)]) -> Result<AnyGraph, GraphError> {
        if n <= MAX_VERTICES {
            Graph::from_edges(n, edges).map(AnyGraph::Small)
        } else {
            WideGraph::from_edges(n, edges).map(AnyGraph::Wide)
        }
    }

    /// The graph's notation.
    pub fn notation(&self) -> &str {
        match self {
            AnyGraph::Small(g) => g.notation(),
            AnyGraph::Wide(g) => g.name(),
        }
    }

    /// The number of vertices.
    pub fn vertex_count(&self) -> usize {
        match self {
            AnyGraph::Small(g) => g.vertex_count(),
            AnyGraph::Wide(g) => g.vertex_count(),
        }
    }

    /// The edges `(u, v)`, `u ≤ v`, in increasing order (loops as `(u, u)`).
    pub fn edges(&self) -> Vec<(usize, usize)> {
        match self {
            AnyGraph::Small(g) => g.edges(),
            AnyGraph::Wide(g) => g.edges(),
        }
    }

    /// See [`Graph::board_shape`].
    pub fn board_shape(&self) -> Option<(usize, usize)> {
        match self {
            AnyGraph::Small(g) => g.board_shape(),
            AnyGraph::Wide(g) => g.board_shape(),
        }
    }
}

impl std::fmt::Display for AnyGraph {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.notation())
    }
}

/// The symmetries of a `rows × cols` board numbered row by row, as vertex permutations (the
/// identity left out): the half turn and the two reflections, and on a square board the
/// quarter turns and the diagonal reflections too.
fn board_symmetries(rows: usize, cols: usize) -> Vec<Vec<u32>> {
    type Map = fn(usize, usize, usize, usize) -> (usize, usize);
    let (rm, cm) = (rows - 1, cols - 1);
    let mut maps: Vec<Map> = vec![
        |rm, cm, r, c| (rm - r, cm - c),
        |_, cm, r, c| (r, cm - c),
        |rm, _, r, c| (rm - r, c),
    ];
    if rows == cols {
        maps.extend([
            (|_, cm, r, c| (c, cm - r)) as Map,
            |rm, _, r, c| (rm - c, r),
            |_, _, r, c| (c, r),
            |rm, cm, r, c| (cm - c, rm - r),
        ]);
    }
    let mut out: Vec<Vec<u32>> = Vec::new();
    for f in maps {
        let perm: Vec<u32> = (0..rows * cols)
            .map(|v| {
                let (r, c) = f(rm, cm, v / cols, v % cols);
                (r * cols + c) as u32
            })
            .collect();
        let identity = perm.iter().enumerate().all(|(v, &p)| p as usize == v);
        if !identity && !out.contains(&perm) {
            out.push(perm);
        }
    }
    out
}

fn has(s: &[u64], v: usize) -> bool {
    s[v / 64] >> (v % 64) & 1 != 0
}

fn set(s: &mut [u64], v: usize) {
    s[v / 64] |= 1 << (v % 64);
}

fn unset(s: &mut [u64], v: usize) {
    s[v / 64] &= !(1 << (v % 64));
}

/// The members of `s`, in increasing order.
fn members(s: &[u64]) -> impl Iterator<Item = usize> + '_ {
    s.iter().enumerate().flat_map(|(i, &w)| {
        let mut w = w;
        std::iter::from_fn(move || {
            (w != 0).then(|| {
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                i * 64 + b
            })
        })
    })
}

/// The keys in an option list (each option a list of parts).
fn keys(options: &[Vec<WideSet>]) -> usize {
    options.iter().map(Vec::len).sum()
}

fn count(s: &[u64]) -> usize {
    s.iter().map(|w| w.count_ones() as usize).sum()
}

impl WideGraph {
    /// The graph `spec` describes, at most [`MAX_WIDE_VERTICES`] vertices; a board's
    /// symmetries ([`WideGraph::board_shape`]: a lattice's or the queens graph's) are its
    /// automorphisms.
    pub(crate) fn held(spec: Spec) -> Result<WideGraph, GraphError> {
        let n = spec.n;
        if n > MAX_WIDE_VERTICES {
            return Err(GraphError::TooManyVertices {
                count: n,
                max: MAX_WIDE_VERTICES,
            });
        }
        let words = n.div_ceil(64).max(1);
        let mut g = WideGraph {
            name: spec.notation,
            words,
            adj: vec![vec![0; words]; n],
            nbrs: Vec::new(),
            loops: vec![0; words],
            board: spec.board,
            lattice: spec.grid,
            ring: spec.ring,
            symmetries: Vec::new(),
        };
        for (u, v) in spec.edges {
            if u == v {
                set(&mut g.loops, u);
            } else {
                set(&mut g.adj[u], v);
                set(&mut g.adj[v], u);
            }
        }
        g.nbrs = g
            .adj
            .iter()
            .map(|a| members(a).map(|w| w as u32).collect())
            .collect();
        if g.name.is_empty() {
            g.name = edge_notation(n, &g.edges());
        }
        if let Some((rows, cols)) = g.board {
            g.symmetries = board_symmetries(rows, cols);
        }
        Ok(g)
    }

    /// Reads [`crate::graph`]'s notation, up to [`MAX_WIDE_VERTICES`] vertices (see
    /// [`AnyGraph::parse`] to hold a small graph as the engine's).
    pub fn parse(text: &str) -> Result<WideGraph, GraphError> {
        WideGraph::held(Spec::parse(text, MAX_WIDE_VERTICES)?)
    }

    /// A graph on vertices `0..n` with the given edges (`(u, u)` is a loop), without
    /// automorphisms.
    pub fn from_edges(n: usize, edges: &[(usize, usize)]) -> Result<WideGraph, GraphError> {
        WideGraph::held(Spec::edge_list(n, edges.to_vec(), MAX_WIDE_VERTICES)?)
    }

    /// The `n × n` queens graph (as [`Graph::queens`], square `r * n + c`) for `1 ≤ n ≤ 32`,
    /// with the square's eight symmetries.
    pub fn queens(n: usize) -> Result<WideGraph, GraphError> {
        WideGraph::held(Spec::queens(n, MAX_WIDE_VERTICES)?)
    }

    /// `(rows, cols)` when the vertices are a board's squares, numbered row by row (as
    /// [`Graph::board_shape`]).
    pub fn board_shape(&self) -> Option<(usize, usize)> {
        self.board
    }

    /// The edges `(u, v)`, `u ≤ v`, in increasing order (loops as `(u, u)`).
    pub fn edges(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for u in 0..self.vertex_count() {
            if has(&self.loops, u) {
                out.push((u, u));
            }
            out.extend(members(&self.adj[u]).filter(|&v| v > u).map(|v| (u, v)));
        }
        out
    }

    /// The graph's notation (`queens:13`, or its edge list): its name in a saved memo.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.adj.len()
    }

    /// All vertices.
    pub fn all(&self) -> WideSet {
        let mut s = vec![0; self.words];
        for v in 0..self.vertex_count() {
            set(&mut s, v);
        }
        s
    }

    /// The automorphisms folded into positions' keys (the identity left out).
    pub fn symmetries(&self) -> &[Vec<u32>] {
        &self.symmetries
    }

    /// The moves of `pos` under `rules`, each with the position it leaves, in the engine's
    /// order (vertices, then edges, in increasing order).
    pub fn moves(&self, rules: Rules, pos: &[u64]) -> Vec<(Move, WideSet)> {
        let minus = |drop: &[usize]| {
            let mut s = pos.to_vec();
            for &v in drop {
                unset(&mut s, v);
            }
            s
        };
        let mut out = Vec::new();
        for v in members(pos) {
            match rules {
                Rules::NodeKayles => {
                    let mut s: WideSet =
                        pos.iter().zip(&self.adj[v]).map(|(p, a)| p & !a).collect();
                    unset(&mut s, v);
                    out.push((Move::Vertex(v), s));
                }
                Rules::ArcKayles => {
                    if has(&self.loops, v) {
                        out.push((Move::Edge(v, v), minus(&[v])));
                    }
                    for w in self.nbrs[v].iter().map(|&w| w as usize) {
                        if w <= v || !has(pos, w) {
                            continue;
                        }
                        out.push((Move::Edge(v, w), minus(&[v, w])));
                    }
                }
            }
        }
        out
    }

    /// Whether vertex `v` can still be deleted by a move of Arc Kayles in `pos`: it has a loop
    /// or a neighbour in `pos`.
    fn live(&self, pos: &[u64], v: usize) -> bool {
        has(&self.loops, v) || self.nbrs[v].iter().any(|&w| has(pos, w as usize))
    }

    /// The graph left on `pos`, renumbered in increasing order (for Arc Kayles without the
    /// vertices no move can delete any more), held by its size, and the vertices it keeps
    /// (its vertex `i` is `kept[i]` here).
    pub fn left(&self, rules: Rules, pos: &[u64]) -> Result<(AnyGraph, Vec<usize>), GraphError> {
        let kept: Vec<usize> = members(pos)
            .filter(|&v| v < self.vertex_count())
            .filter(|&v| rules == Rules::NodeKayles || self.live(pos, v))
            .collect();
        Ok((
            AnyGraph::from_edges(kept.len(), &self.edges_among(&kept))?,
            kept,
        ))
    }

    /// The edges between the vertices `kept` (in increasing order), renumbered: vertex
    /// `kept[i]` is `i`; loops kept.
    fn edges_among(&self, kept: &[usize]) -> Vec<(usize, usize)> {
        let index: HashMap<usize, usize> = kept.iter().enumerate().map(|(i, &v)| (v, i)).collect();
        let mut edges = Vec::new();
        for (i, &v) in kept.iter().enumerate() {
            if has(&self.loops, v) {
                edges.push((i, i));
            }
            for w in members(&self.adj[v]).filter(|&w| w > v) {
                if let Some(&j) = index.get(&w) {
                    edges.push((i, j));
                }
            }
        }
        edges
    }

    /// `pos` without the vertices no move of `rules` can delete any more (for Arc Kayles: no
    /// loop and no neighbour left; for Node Kayles, every vertex is a move).
    fn movable(&self, rules: Rules, pos: &[u64]) -> WideSet {
        let mut p = pos.to_vec();
        if rules == Rules::ArcKayles {
            for v in members(pos) {
                if !self.live(pos, v) {
                    unset(&mut p, v);
                }
            }
        }
        p
    }

    /// Whether the graph's connected pieces are keyed by their shape wherever they lie
    /// ([`WideGraph::canonical`]): a lattice's, and a cycle's arcs.
    fn shaped(&self) -> bool {
        self.lattice.is_some() || self.ring
    }

    /// The least of `p`'s images under the symmetries; with `corner` (a connected position of
    /// a lattice), each image moved to the board's top left corner, so that a shape has one
    /// key wherever it lies (a path's pieces are keyed by their length); on a cycle, an arc
    /// turned to start at vertex 0 (an arc's key is its length).
    fn canonical(&self, p: &[u64], corner: bool) -> WideSet {
        if self.ring && corner {
            let n = self.vertex_count();
            let start = members(p).find(|&v| !has(p, (v + n - 1) % n));
            if let Some(start) = start {
                let mut img = vec![0; self.words];
                for v in members(p) {
                    set(&mut img, (v + n - start) % n);
                }
                return img;
            }
        }
        let cols = self.lattice.filter(|_| corner).map(|(_, c)| c);
        let image = |perm: Option<&Vec<u32>>| -> WideSet {
            let cells: Vec<usize> = members(p)
                .map(|v| perm.map_or(v, |m| m[v] as usize))
                .collect();
            let shift = match cols {
                Some(cols) => {
                    let r0 = cells.iter().map(|&v| v / cols).min().unwrap_or(0);
                    let c0 = cells.iter().map(|&v| v % cols).min().unwrap_or(0);
                    r0 * cols + c0
                }
                None => 0,
            };
            let mut img = vec![0; self.words];
            for v in cells {
                set(&mut img, v - shift);
            }
            img
        };
        let mut best = image(None);
        for perm in &self.symmetries {
            let img = image(Some(perm));
            if img.iter().rev().lt(best.iter().rev()) {
                best = img;
            }
        }
        best
    }

    /// The connected components of `pos`, each as its vertices in the order a search from its
    /// least vertex meets them; components in the order of their least vertices.
    fn components(&self, pos: &[u64]) -> Vec<Vec<usize>> {
        let mut left = pos.to_vec();
        let mut out = Vec::new();
        loop {
            let Some(start) = members(&left).next() else {
                break;
            };
            unset(&mut left, start);
            let mut cells = vec![start];
            let mut i = 0;
            while i < cells.len() {
                for &w in &self.nbrs[cells[i]] {
                    let w = w as usize;
                    if has(&left, w) {
                        unset(&mut left, w);
                        cells.push(w);
                    }
                }
                i += 1;
            }
            out.push(cells);
        }
        out
    }

    /// For a lattice, the connected components of `pos`, each as the grid of its bounding box
    /// and its cells there (the engine keys a lattice's components by their shape, and pieces
    /// of an edge list by a slower general key); `None` off a lattice or when a box passes
    /// [`MAX_VERTICES`] cells. On a cycle, its arcs each as the path they are (`None` when
    /// the whole cycle is left).
    pub fn lattice_parts(&self, pos: &[u64]) -> Option<Vec<(Graph, u128)>> {
        if self.ring {
            let n = self.vertex_count();
            let mut parts = Vec::new();
            for cells in self.components(pos) {
                if cells.len() == n || cells.len() > MAX_VERTICES {
                    return None;
                }
                let g = Graph::path(cells.len()).ok()?;
                let all = g.all();
                parts.push((g, all));
            }
            return Some(parts);
        }
        let (_, cols) = self.lattice?;
        let mut parts = Vec::new();
        for cells in self.components(pos) {
            let rows = cells.iter().map(|&v| v / cols);
            let (r0, r1) = (rows.clone().min()?, rows.max()?);
            let across = cells.iter().map(|&v| v % cols);
            let (c0, c1) = (across.clone().min()?, across.max()?);
            let (h, w) = (r1 - r0 + 1, c1 - c0 + 1);
            if h * w > MAX_VERTICES {
                return None;
            }
            let g = Graph::grid(h, w).ok()?;
            let root = cells.iter().fold(0u128, |s, &v| {
                s | 1u128 << ((v / cols - r0) * w + (v % cols - c0))
            });
            parts.push((g, root));
        }
        Some(parts)
    }

    /// The subgraph induced on `pos` (at most [`MAX_VERTICES`] vertices), renumbered in
    /// increasing order.
    fn induced(&self, pos: &[u64]) -> Result<Graph, GraphError> {
        let kept: Vec<usize> = members(pos).collect();
        Graph::from_edges(kept.len(), &self.edges_among(&kept))
    }
}

/// What the memo knows of a position: its value, or values it was shown not to have.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Fact {
    /// The exact value, once known.
    value: Option<u32>,
    /// Bit `k`: the value is not `k` (for `k < 64`).
    not: u64,
}

/// A valuation of one [`WideGraph`]'s positions: the memo of what is known of each position,
/// and what was spent.
pub struct Expansion {
    rules: Rules,
    graph: WideGraph,
    opts: Options,
    leaf: usize,
    /// Value every position in full (the mex of its options' values, each leaf by
    /// [`Engine::grundy`]) instead of asking questions: the second path of docs/results.md.
    full: bool,
    memo: HashMap<WideSet, Fact>,
    /// The options of the expanded positions under question, by key (dropped once the
    /// position's value is known).
    options: HashMap<WideSet, Vec<Vec<WideSet>>>,
    /// The keys in `options`.
    stored: usize,
    /// The keys in the option lists being scanned (held by the questions under way, deeper
    /// and deeper as the expansion descends, so they count against the memory bound too).
    in_use: usize,
    nodes: u64,
    leaves: u64,
    saved: Instant,
    /// Told the nodes searched so far, from inside each leaf's search.
    progress: Option<Arc<dyn Fn(u64) + Send + Sync>>,
}

impl Expansion {
    /// A valuation of `graph`'s positions under `rules`, each leaf searched with `opts`
    /// ([`Options::max_nodes`] bounds the leaves' nodes together, [`Options::stop`] stops
    /// between leaves and inside one, [`Options::checkpoint`] saves the memo between leaves;
    /// a quarter of [`Options::max_memory`] bounds the memo and the option lists).
    pub fn new(rules: Rules, graph: WideGraph, opts: Options) -> Expansion {
        Expansion {
            rules,
            graph,
            opts,
            leaf: MAX_VERTICES,
            full: false,
            memo: HashMap::new(),
            options: HashMap::new(),
            stored: 0,
            in_use: 0,
            nodes: 0,
            leaves: 0,
            saved: Instant::now(),
            progress: None,
        }
    }

    /// The moves of `pos` with the positions they leave ([`WideGraph::moves`]).
    pub fn moves(&self, pos: &[u64]) -> Vec<(Move, WideSet)> {
        self.graph.moves(self.rules, pos)
    }

    /// The stop flag of the [`Options`] it was made with.
    pub fn stop_flag(&self) -> Option<Arc<std::sync::atomic::AtomicBool>> {
        self.opts.stop.clone()
    }

    /// Calls `f` with the engine nodes searched so far (all leaves together) as each leaf's
    /// engine reports its progress.
    pub fn set_progress(&mut self, f: impl Fn(u64) + Send + Sync + 'static) {
        self.progress = Some(Arc::new(f));
    }

    /// The same with leaves of at most `leaf` vertices (clamped to `1..=128`; the default is
    /// 128): smaller leaves expand more levels, which the tests use to check the expansion
    /// against the engine on graphs it can value whole.
    pub fn with_leaf(mut self, leaf: usize) -> Expansion {
        self.leaf = leaf.clamp(1, MAX_VERTICES);
        self
    }

    /// The same, valuing every position in full: above the leaves the least value none of
    /// its options has, all options valued; each leaf by [`Engine::grundy`]. No
    /// Lemoine–Viennot question is asked outside the engine, and (with another leaf size) the
    /// engine is handed other graphs: the second path that checks this module's new values
    /// (docs/results.md). It costs several times the questions' nodes (queens:12: 7.9 M
    /// nodes, not 0.73 M).
    pub fn with_full_values(mut self) -> Expansion {
        self.full = true;
        self
    }

    /// The most vertices of a position handed to the engine.
    pub fn leaf(&self) -> usize {
        self.leaf
    }

    /// The graph.
    pub fn graph(&self) -> &WideGraph {
        &self.graph
    }

    /// Engine nodes searched by the leaves so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Leaf questions searched so far (a position of at most [`Expansion::leaf`] vertices
    /// asked "is your value `k`?" by a fresh engine; an answer found in the memo is not
    /// searched again).
    pub fn leaves(&self) -> u64 {
        self.leaves
    }

    /// Positions in the memo.
    pub fn memo_len(&self) -> usize {
        self.memo.len()
    }

    /// The value of the whole graph.
    pub fn value(&mut self) -> Result<u32, SearchError> {
        let all = self.graph.all();
        self.value_of(&all)
    }

    /// The value of the position `pos` (a set of the graph's vertices; bits past the last
    /// vertex are an error): the XOR of its parts' values (its connected components, as the
    /// module documentation says), each the least `k` that the part is shown to have by the
    /// question "is `part + *k` a P-position?", asked for `k = 0, 1, …`.
    pub fn value_of(&mut self, pos: &[u64]) -> Result<u32, SearchError> {
        let parts = self.key_of(pos)?;
        // No list is being scanned (a search that ended in an error left its count).
        self.in_use = 0;
        self.sum_value(&parts)
    }

    /// Whether the position `pos` is a P-position (its value is 0): the one question "is
    /// `pos + *0` a P-position?" (by [`Expansion::with_full_values`]'s path, its value).
    pub fn is_p(&mut self, pos: &[u64]) -> Result<bool, SearchError> {
        let parts = self.key_of(pos)?;
        self.in_use = 0;
        self.sum_is(&parts, 0)
    }

    /// `pos`'s parts as memo keys, once `pos` is checked to be a set of the graph's vertices.
    fn key_of(&self, pos: &[u64]) -> Result<Vec<WideSet>, SearchError> {
        let outside =
            pos.len() != self.graph.words || members(pos).any(|v| v >= self.graph.vertex_count());
        if outside {
            return Err(SearchError::BadPosition {
                count: self.graph.vertex_count(),
            });
        }
        Ok(self.parts(pos))
    }

    /// A position as a sum of parts, each a memo key (in increasing order of their words):
    /// its connected components apart, since a component past the leaf size can only be
    /// expanded by itself. On a lattice or a cycle every component is a part, keyed by its
    /// shape ([`WideGraph::canonical`]) so that it is searched once wherever it lies; elsewhere the
    /// components of at most [`Expansion::leaf`] vertices are gathered into as few parts of
    /// at most that size as the order allows (the engine splits each leaf itself), and a
    /// position that fits a leaf is one part.
    fn parts(&self, pos: &[u64]) -> Vec<WideSet> {
        let g = &self.graph;
        let p = g.movable(self.rules, pos);
        let lattice = g.shaped();
        if !lattice && count(&p) <= self.leaf {
            return vec![g.canonical(&p, false)];
        }
        let comps = g.components(&p);
        if comps.len() <= 1 {
            return vec![g.canonical(&p, lattice)];
        }
        let as_set = |cells: &[usize]| {
            let mut s = vec![0; g.words];
            for &v in cells {
                set(&mut s, v);
            }
            s
        };
        let mut parts = Vec::new();
        let mut bin: Vec<usize> = Vec::new();
        for c in comps {
            if lattice || c.len() > self.leaf {
                parts.push(g.canonical(&as_set(&c), lattice));
            } else {
                if bin.len() + c.len() > self.leaf {
                    parts.push(g.canonical(&as_set(&bin), false));
                    bin.clear();
                }
                bin.extend(c);
            }
        }
        if !bin.is_empty() {
            parts.push(g.canonical(&as_set(&bin), false));
        }
        parts.sort_unstable_by(|a, b| a.iter().rev().cmp(b.iter().rev()));
        parts
    }

    /// The value of a sum of parts: the XOR of theirs.
    fn sum_value(&mut self, parts: &[WideSet]) -> Result<u32, SearchError> {
        let mut x = 0;
        for p in parts {
            x ^= self.value_of_part(p)?;
        }
        Ok(x)
    }

    /// Whether a sum of parts has the value `k`: every part but the largest valued, and the
    /// largest asked with the heap adjusted (by [`Expansion::with_full_values`]'s path, the
    /// sum valued).
    fn sum_is(&mut self, parts: &[WideSet], k: u32) -> Result<bool, SearchError> {
        if self.full {
            return Ok(self.sum_value(parts)? == k);
        }
        let Some(big) = (0..parts.len()).max_by_key(|&i| (count(&parts[i]), usize::MAX - i)) else {
            return Ok(k == 0);
        };
        let mut x = k;
        for (i, p) in parts.iter().enumerate() {
            if i != big {
                x ^= self.value_of_part(p)?;
            }
        }
        self.is_value(&parts[big], x)
    }

    /// The value of the part `key`: a leaf's by one engine search, a larger one's as the least
    /// `k` it is shown to have (by [`Expansion::with_full_values`]'s path, the mex of its
    /// options' values).
    fn value_of_part(&mut self, key: &WideSet) -> Result<u32, SearchError> {
        if self.full {
            return self.full_value(key);
        }
        if let Some(v) = self.memo.get(key).and_then(|f| f.value) {
            return Ok(v);
        }
        if count(key) <= self.leaf {
            self.check_stop()?;
            let v = self.leaf_search(key, None)?;
            self.learn(key, Some(v), 0)?;
            return Ok(v);
        }
        let mut k = 0;
        while !self.is_value(key, k)? {
            k += 1;
        }
        Ok(k)
    }

    /// Whether the part `key` has the value `k`: for a leaf, the engine's Lemoine–Viennot
    /// question; above, no option has the value `k` and, for each `j < k`, one has the value
    /// `j` (options asked smallest first, each question stopping at its first answer).
    fn is_value(&mut self, key: &WideSet, k: u32) -> Result<bool, SearchError> {
        let fact = self.memo.get(key).copied().unwrap_or_default();
        if let Some(v) = fact.value {
            return Ok(v == k);
        }
        if k < 64 && fact.not >> k & 1 != 0 {
            return Ok(false);
        }
        self.check_stop()?;
        let yes = if count(key) <= self.leaf {
            self.leaf_is_value(key, k)?
        } else {
            let options = self.options_of(key)?;
            let mut yes = true;
            for o in &options {
                if self.sum_is(o, k)? {
                    yes = false;
                    break;
                }
            }
            for j in 0..k {
                if !yes {
                    break;
                }
                let mut some = false;
                for o in &options {
                    if self.sum_is(o, j)? {
                        some = true;
                        break;
                    }
                }
                if !some {
                    // No option has the value j (< k): j is the value.
                    self.learn(key, Some(j), 0)?;
                    yes = false;
                }
            }
            self.put_back(key, options);
            yes
        };
        if yes {
            self.learn(key, Some(k), 0)?;
        } else if k < 64 {
            self.learn(key, None, 1 << k)?;
        }
        if self.memo.get(key).is_some_and(|f| f.value.is_some()) {
            // Its options are asked no more.
            if let Some(o) = self.options.remove(key) {
                self.stored -= keys(&o);
            }
        }
        Ok(yes)
    }

    /// The options of the expanded part `key`, each as its parts, without repeats, smallest
    /// first (the cheap leaves settle most questions early; the order is the same from run to
    /// run).
    fn options_of(&mut self, key: &WideSet) -> Result<Vec<Vec<WideSet>>, SearchError> {
        if let Some(o) = self.options.remove(key) {
            self.stored -= keys(&o);
            self.in_use += keys(&o);
            return Ok(o);
        }
        let set: HashSet<Vec<WideSet>> = self
            .graph
            .moves(self.rules, key)
            .iter()
            .map(|(_, o)| self.parts(o))
            .collect();
        let mut options: Vec<Vec<WideSet>> = set.into_iter().collect();
        options.sort_by_cached_key(|o| {
            let size: usize = o.iter().map(|p| count(p)).sum();
            let words: Vec<u64> = o.iter().flat_map(|p| p.iter().rev().copied()).collect();
            (size, words)
        });
        self.check_memory(self.held() + keys(&options))?;
        self.in_use += keys(&options);
        Ok(options)
    }

    /// Keeps the option list of `key`, scanned, for its next question.
    fn put_back(&mut self, key: &WideSet, options: Vec<Vec<WideSet>>) {
        self.in_use -= keys(&options);
        self.stored += keys(&options);
        if let Some(old) = self.options.insert(key.clone(), options) {
            self.stored -= keys(&old);
        }
    }

    /// The keys held in option lists, stored and being scanned.
    fn held(&self) -> usize {
        self.stored + self.in_use
    }

    /// [`SearchError::Stopped`] once the stop flag is raised.
    fn check_stop(&self) -> Result<(), SearchError> {
        match &self.opts.stop {
            Some(s) if s.load(Ordering::Relaxed) => Err(SearchError::Stopped { nodes: self.nodes }),
            _ => Ok(()),
        }
    }

    /// Records what was learned of `key`, within the memory bound.
    fn learn(&mut self, key: &WideSet, value: Option<u32>, not: u64) -> Result<(), SearchError> {
        if !self.memo.contains_key(key) {
            self.check_memory(self.held())?;
        }
        let f = self.memo.entry(key.clone()).or_default();
        if value.is_some() {
            f.value = value;
        }
        f.not |= not;
        Ok(())
    }

    /// The memo (one more entry) and `held` option keys against a quarter of the memory.
    fn check_memory(&self, held: usize) -> Result<(), SearchError> {
        let key = self.graph.words * 8 + 24;
        let bytes = (self.memo.len() + 1) * (key + 48) + held * key;
        if bytes > self.opts.max_memory / 4 {
            return Err(SearchError::Buffers { bytes });
        }
        Ok(())
    }

    /// The engine's answer to "is `key + *k` a P-position?" on the subgraph induced on `key`.
    fn leaf_is_value(&mut self, key: &WideSet, k: u32) -> Result<bool, SearchError> {
        Ok(self.leaf_search(key, Some(k))? == 1)
    }

    /// A fresh engine on `g` from `root`: with `Some(k)`, whether `root + *k` is a
    /// P-position (1 or 0); with `None`, its value. Its nodes count against the expansion's
    /// limit and reach its progress.
    fn engine_answer(
        &mut self,
        g: Graph,
        root: u128,
        question: Option<u32>,
    ) -> Result<u32, SearchError> {
        let mut opts = self.opts.clone();
        opts.checkpoint = None;
        if let Some(limit) = self.opts.max_nodes {
            if self.nodes >= limit {
                return Err(SearchError::NodeLimit { limit });
            }
            opts.max_nodes = Some(limit - self.nodes);
        }
        let mut engine = Engine::new(self.rules, g, opts)?;
        if let Some(f) = self.progress.clone() {
            let base = self.nodes;
            engine.set_progress(move |p| f(base + p.nodes));
        }
        let got = match question {
            Some(k) => engine.is_p(root, k).map(u32::from),
            None => engine.grundy(root),
        };
        self.nodes += engine.nodes();
        match got {
            Err(SearchError::NodeLimit { .. }) => Err(SearchError::NodeLimit {
                limit: self.opts.max_nodes.unwrap_or(u64::MAX),
            }),
            Err(SearchError::Stopped { .. }) => Err(SearchError::Stopped { nodes: self.nodes }),
            r => r,
        }
    }

    /// The engine's answer for the leaf `key`: with `Some(k)`, whether `key + *k` is a
    /// P-position (1 or 0); with `None`, its value. On a lattice its components go to the
    /// engine on their own grids ([`WideGraph::lattice_parts`]), on any other graph the
    /// subgraph induced on it, renumbered. The answer is recorded when a checkpoint is due,
    /// then the memo saved.
    fn leaf_search(&mut self, key: &WideSet, question: Option<u32>) -> Result<u32, SearchError> {
        // A lattice's leaf goes to the engine component by component, each on the grid of its
        // bounding box, where the engine keys it by its shape; any other leaf as the subgraph
        // induced on it (at most `leaf` ≤ 128 vertices, so the graph is always made).
        let mut parts = match self.graph.lattice_parts(key) {
            Some(parts) => parts,
            None => {
                let g = self
                    .graph
                    .induced(key)
                    .map_err(|_| SearchError::BadPosition {
                        count: self.graph.vertex_count(),
                    })?;
                let all = g.all();
                vec![(g, all)]
            }
        };
        // One part is asked the question; several are valued and their values XORed.
        let got = if parts.len() == 1 {
            let (g, root) = parts.pop().expect("one part");
            self.engine_answer(g, root, question)?
        } else {
            let mut x = 0;
            for (g, root) in parts {
                x ^= self.engine_answer(g, root, None)?;
            }
            match question {
                Some(k) => u32::from(x == k),
                None => x,
            }
        };
        self.leaves += 1;
        if let Some(c) = self.opts.checkpoint.clone().filter(|c| c.due(self.saved)) {
            // This answer is not in the memo yet: save it with the others.
            match question {
                None => self.learn(key, Some(got), 0)?,
                Some(k) if got == 1 => self.learn(key, Some(k), 0)?,
                Some(k) if k < 64 => self.learn(key, None, 1 << k)?,
                Some(_) => {}
            }
            self.save(&c.path)?;
            self.saved = Instant::now();
        }
        Ok(got)
    }

    /// The value of `key` by [`Expansion::with_full_values`]'s path.
    fn full_value(&mut self, key: &WideSet) -> Result<u32, SearchError> {
        if let Some(v) = self.memo.get(key).and_then(|f| f.value) {
            return Ok(v);
        }
        self.check_stop()?;
        let v = if count(key) <= self.leaf {
            self.leaf_search(key, None)?
        } else {
            let options = self.options_of(key)?;
            let mut seen = Vec::new();
            for o in &options {
                let v = self.sum_value(o)? as usize;
                if seen.len() <= v {
                    seen.resize(v + 1, false);
                }
                seen[v] = true;
            }
            self.in_use -= keys(&options);
            seen.iter().position(|&s| !s).unwrap_or(seen.len()) as u32
        };
        self.learn(key, Some(v), 0)?;
        Ok(v)
    }

    /// The memo's first line in a file: what it is, the rule, the graph and the path.
    pub fn domain(&self) -> String {
        format!(
            "grundy-board expansion {} {} leaf {}{}",
            self.rules.name(),
            self.graph.name,
            self.leaf,
            if self.full { " full" } else { "" }
        )
    }

    /// Writes the memo to `path` (through a temporary file renamed over it): the domain line,
    /// then one line per position: its words in hexadecimal from the lowest, joined by `:`,
    /// then its value, or `not` and the mask of the values it does not have in hexadecimal.
    pub fn save(&self, path: &Path) -> Result<(), SearchError> {
        let tmp = path.with_extension("tmp");
        let write = || -> std::io::Result<()> {
            let mut w = BufWriter::new(std::fs::File::create(&tmp)?);
            writeln!(w, "{}", self.domain())?;
            let mut rows: Vec<(&WideSet, &Fact)> = self.memo.iter().collect();
            rows.sort_by_key(|&(k, _)| k);
            for (k, f) in rows {
                let words: Vec<String> = k.iter().map(|x| format!("{x:x}")).collect();
                match f.value {
                    Some(v) => writeln!(w, "{} {v}", words.join(":"))?,
                    None => writeln!(w, "{} not {:x}", words.join(":"), f.not)?,
                }
            }
            w.into_inner().map_err(|e| e.into_error())?.sync_all()?;
            std::fs::rename(&tmp, path)
        };
        write().map_err(|e| SearchError::Table(LoadError::Io(e)))
    }

    /// Reads back a memo saved by [`Expansion::save`] for the same rule, graph and leaf size;
    /// returns the positions read.
    pub fn load(&mut self, path: &Path) -> Result<u64, SearchError> {
        let file = std::fs::File::open(path).map_err(LoadError::Io)?;
        // A file that is not text (an engine's binary table) is not a memo.
        let read_error = |e: std::io::Error| match e.kind() {
            std::io::ErrorKind::InvalidData => LoadError::NotATable,
            _ => LoadError::Io(e),
        };
        let mut lines = std::io::BufReader::new(file).lines();
        let first = lines
            .next()
            .transpose()
            .map_err(read_error)?
            .ok_or(LoadError::NotATable)?;
        if !first.starts_with("grundy-board expansion ") {
            return Err(LoadError::NotATable.into());
        }
        if first != self.domain() {
            return Err(LoadError::Mismatch {
                expected: self.domain(),
                found: first,
            }
            .into());
        }
        let mut read = HashMap::new();
        for line in lines {
            let line = line.map_err(read_error)?;
            let (k, f) = line.split_once(' ').ok_or(LoadError::NotATable)?;
            let k: Option<WideSet> = k
                .split(':')
                .map(|w| u64::from_str_radix(w, 16).ok())
                .collect();
            let f = match f.strip_prefix("not ") {
                Some(m) => u64::from_str_radix(m, 16)
                    .ok()
                    .map(|not| Fact { value: None, not }),
                None => f.parse().ok().map(|v| Fact {
                    value: Some(v),
                    not: 0,
                }),
            };
            let (Some(k), Some(f)) = (k, f) else {
                return Err(LoadError::NotATable.into());
            };
            if k.len() != self.graph.words || members(&k).any(|x| x >= self.graph.vertex_count()) {
                return Err(LoadError::NotATable.into());
            }
            read.insert(k, f);
        }
        let n = read.len() as u64;
        self.memo.extend(read);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_queens_graphs_agree_with_the_notations() {
        for n in [1, 4, 7, 11] {
            let w = WideGraph::queens(n).unwrap();
            let g = Graph::queens(n).unwrap();
            for v in 0..n * n {
                let wide: Vec<usize> = members(&w.adj[v]).collect();
                let narrow: Vec<usize> = crate::engine::bits(g.neighbors(v)).collect();
                assert_eq!(wide, narrow, "queens:{n} vertex {v}");
            }
            // Every symmetry is an automorphism.
            for p in w.symmetries() {
                for v in 0..n * n {
                    let img: Vec<usize> = members(&w.adj[v]).map(|u| p[u] as usize).collect();
                    let mut img = img;
                    img.sort();
                    let at: Vec<usize> = members(&w.adj[p[v] as usize]).collect();
                    assert_eq!(img, at);
                }
            }
        }
        assert!(WideGraph::queens(0).is_err() && WideGraph::queens(33).is_err());
        assert!(WideGraph::from_edges(3, &[(0, 3)]).is_err());
        assert!(WideGraph::from_edges(2000, &[]).is_err());
    }
}
