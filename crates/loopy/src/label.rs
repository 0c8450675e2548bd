//! The generalized Sprague–Grundy labelling of an explicit graph (Smith 1966; Fraenkel and
//! Yesha, "Theory of annihilation games — I", JCTA 43 (1986)), with Smith's remoteness.
//!
//! A vertex `u` has the finite value `m` when
//! (a) no option of `u` has value `m`, (b) `u` has an option of every value `j < m`, and
//! (c) every option of `u` whose value is larger than `m` or infinite has an option of value
//! `m` (the opponent's escape is answered by returning to `m`), with the answers well founded
//! (every play that keeps returning to `m` ends). Vertices never given a finite value get
//! `∞(K)`, `K` the finite values of their options.
//!
//! The labelling runs level by level, `m = 0, 1, 2, …`, each level a retrograde pass with
//! counters, as in win/lose/draw analysis: a vertex *eligible* for `m` (its labelled options
//! already hold `0..m`) keeps a counter of its options not yet labelled; a vertex labelled `m`
//! *marks* every unlabelled predecessor (it reaches `m`, so it cannot be `m`), and a marked
//! vertex decrements the counters of its eligible predecessors; an eligible vertex whose
//! counter reaches zero, unmarked, is labelled `m`. A level costs time linear in the
//! eligible vertices and in the edges into the vertices it labels or marks; only the marked
//! eligible vertices stay eligible for `m + 1`, so the work shrinks from level to level, and
//! when a level labels nothing the rest are infinite.
//!
//! Level 0 is exactly retrograde win/lose analysis: its labelled vertices are the
//! P-positions and its marked ones the N-positions, and processing them in breadth-first
//! order gives Smith's **remoteness**: 0 at a terminal position, `1 + min` over the P-options
//! for an N-position (the winner hurries), `1 + max` over the options for a P-position (the
//! loser delays).

use std::collections::BTreeSet;

use crate::digraph::Digraph;
use crate::value::Grundy;
use grundy_core::graph::{push_json_u64, PushJson};
use grundy_core::Outcome;

const NONE: u32 = u32::MAX;

/// A graph with every vertex's generalized Sprague–Grundy value, outcome and remoteness.
///
/// ```
/// use grundy_loopy::{Digraph, LabelledGraph, Outcome, Grundy};
///
/// // a <-> b, b -> c: a cycle with one exit.
/// let g = Digraph::from_edges(3, &[(0, 1), (1, 0), (1, 2)])?;
/// let l = LabelledGraph::new(g);
/// assert_eq!(l.value(0), Grundy::Finite(0)); // a: P, must move to b
/// assert_eq!(l.value(1), Grundy::Finite(1)); // b: N, move to c
/// assert_eq!(l.remoteness(0), Some(2));
/// // a <-> b alone: a drawn cycle.
/// let l = LabelledGraph::new(Digraph::from_edges(2, &[(0, 1), (1, 0)])?);
/// assert_eq!(l.value(0), Grundy::infinite([]));
/// assert_eq!(l.outcome(0), Outcome::D);
/// assert_eq!(l.drawing_moves(0), [1]);
/// # Ok::<(), grundy_loopy::DigraphError>(())
/// ```
#[derive(Clone, Debug)]
pub struct LabelledGraph {
    graph: Digraph,
    /// The finite value of each vertex, or `NONE` for an infinite one.
    level: Vec<u32>,
    /// Smith's remoteness of a P- or N-position, `NONE` for a draw.
    remote: Vec<u32>,
    /// Number of levels the labelling ran (one more than the largest finite value).
    levels: u32,
}

/// One option of a position: where the move goes and what that position is worth.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct OptionInfo {
    /// The vertex the move goes to.
    pub to: usize,
    /// Its value.
    pub grundy: Grundy,
    /// Its outcome (for the player to move there, the opponent).
    pub outcome: Outcome,
    /// Its remoteness; absent (also from JSON) for a draw.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "crate::digraph::json_u64_opt"
    )]
    pub remoteness: Option<u64>,
}

/// A vertex's value, written as its [`Grundy`] is without building it: made by
/// [`LabelledGraph::value_of`] (`K` read from the options as it is written) or
/// [`ValueTable::value_of`] (`K` read from the table's mask).
#[derive(Clone, Copy, Debug)]
pub struct ValueOf<'a> {
    labels: &'a LabelledGraph,
    v: usize,
    /// `K` as a [`ValueTable`] keeps it, when known.
    mask: Option<u32>,
}

/// The bit of a [`ValueTable`] mask that says `K` holds a value above 30 (read from the
/// options then).
const K_OVERFLOW: u32 = 1 << 31;

/// Every vertex's value made ready to write many times: each infinite value's set `K` kept as
/// a bit mask (values 0 to 30; a larger one marks the mask, and that `K` is read from the
/// options), computed in one pass over the edges. Writing the values of a large graph, each
/// infinite value is written for its vertex and for every move onto it; reading its `K` from
/// its options each time waited on memory three times over (offsets, targets, labels).
/// Made by [`LabelledGraph::value_table`]; 4 bytes per vertex.
#[derive(Clone, Debug)]
pub struct ValueTable<'a> {
    labels: &'a LabelledGraph,
    k: Vec<u32>,
}

impl<'a> ValueTable<'a> {
    /// Reads ahead, all at once, the labels (value, remoteness and `K`) of every option of
    /// the vertices `vs`: what writing their rows and moves reads, so that the reads overlap
    /// (see [`grundy_core::graph::DiGraph::read_ahead`]). Changes nothing.
    pub fn read_ahead(&self, vs: std::ops::Range<usize>) {
        let l = self.labels;
        let mut seen = 0u32;
        for &w in l.graph.successors_of(vs) {
            let w = w as usize;
            seen ^= l.level[w] ^ l.remote[w] ^ self.k[w];
        }
        std::hint::black_box(seen);
    }

    /// The value of `v`, to write: as [`LabelledGraph::value_of`], `K` read from the mask.
    pub fn value_of(&self, v: usize) -> ValueOf<'a> {
        ValueOf {
            labels: self.labels,
            v,
            mask: Some(self.k[v]),
        }
    }
}

impl ValueOf<'_> {
    /// `K` of an infinite value: the finite values of the options, in increasing order, each
    /// once.
    fn k(&self) -> impl Iterator<Item = u64> {
        let (bits, list) = match self.mask {
            Some(m) if m & K_OVERFLOW == 0 => (Some(m), None),
            _ => {
                let l = self.labels;
                let mut k: Vec<u64> = l
                    .graph
                    .successors(self.v)
                    .iter()
                    .filter_map(|&w| l.finite(w as usize))
                    .collect();
                k.sort_unstable();
                k.dedup();
                (None, Some(k))
            }
        };
        let bits = bits
            .into_iter()
            .flat_map(|m| (0..31u64).filter(move |&i| m >> i & 1 == 1));
        bits.chain(list.into_iter().flatten())
    }
}

/// As [`Grundy`]'s: `3`, `∞`, `∞(0,2)`.
impl std::fmt::Display for ValueOf<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(m) = self.labels.finite(self.v) {
            return write!(f, "{m}");
        }
        let mut k = self.k().peekable();
        if k.peek().is_none() {
            return f.write_str("∞");
        }
        f.write_str("∞(")?;
        for (i, m) in k.enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{m}")?;
        }
        f.write_str(")")
    }
}

/// As [`Grundy`]'s JSON: an integer, or `{"infinite": [0, 2]}`.
impl PushJson for ValueOf<'_> {
    fn push_json(&self, out: &mut String) {
        if let Some(m) = self.labels.finite(self.v) {
            return push_json_u64(out, m);
        }
        out.push_str("{\"infinite\":[");
        for (i, m) in self.k().enumerate() {
            if i > 0 {
                out.push(',');
            }
            push_json_u64(out, m);
        }
        out.push_str("]}");
    }
}

impl LabelledGraph {
    /// Labels every vertex of `graph` (see the module docs): time linear in the edges per
    /// value level, memory 24 bytes per vertex beside the graph.
    pub fn new(graph: Digraph) -> LabelledGraph {
        let n = graph.len();
        let mut level = vec![NONE; n];
        let mut remote = vec![NONE; n];
        // The mex of a vertex's labelled options so far; `NONE` once it is labelled.
        let mut mex = vec![0u32; n];
        // Options not yet labelled (kept across levels).
        let mut unlabelled_out: Vec<u32> =
            (0..n).map(|v| graph.successors(v).len() as u32).collect();
        // Per level: options neither labelled nor marked at this level.
        let mut count = vec![0u32; n];
        // `m + 1` when marked at level `m`.
        let mut marked = vec![0u32; n];
        let mut queue: Vec<u32> = Vec::new();

        // Level 0: retrograde win/lose analysis, breadth first for the remoteness.
        let mut eligible: Vec<u32> = Vec::new();
        for u in 0..n {
            count[u] = unlabelled_out[u];
            if count[u] == 0 {
                level[u] = 0;
                mex[u] = NONE;
                remote[u] = 0;
                queue.push(u as u32);
            }
        }
        let mut head = 0;
        while let Some(&u) = queue.get(head) {
            head += 1;
            let u = u as usize;
            if level[u] == 0 {
                for &p in graph.predecessors(u) {
                    let p = p as usize;
                    unlabelled_out[p] -= 1;
                    if level[p] == NONE && marked[p] == 0 {
                        marked[p] = 1;
                        mex[p] = 1;
                        eligible.push(p as u32);
                        remote[p] = remote[u] + 1;
                        queue.push(p as u32);
                    }
                }
            } else {
                for &q in graph.predecessors(u) {
                    let q = q as usize;
                    if mex[q] == 0 {
                        count[q] -= 1;
                        if count[q] == 0 {
                            level[q] = 0;
                            mex[q] = NONE;
                            remote[q] = remote[u] + 1;
                            queue.push(q as u32);
                        }
                    }
                }
            }
        }

        // The acyclic closure: a vertex whose options are all labelled has the ordinary mex
        // of their values (every option above it has an option of its value, so Smith's
        // conditions hold). Labelled here, by value, in `settled`.
        let mut settled: Vec<(u32, u32)> = Vec::new();
        queue.clear();
        for u in 0..n {
            if level[u] == NONE && unlabelled_out[u] == 0 {
                queue.push(u as u32);
            }
        }
        let mut ordinary = grundy_core::Mex::new();
        let mut head = 0;
        while let Some(&u) = queue.get(head) {
            head += 1;
            let u = u as usize;
            let succ = graph.successors(u);
            let g = ordinary.of_iter(
                succ.len(),
                succ.iter().map(|&w| u64::from(level[w as usize])),
            );
            level[u] = g as u32;
            mex[u] = NONE;
            settled.push((g as u32, u as u32));
            for &p in graph.predecessors(u) {
                let p = p as usize;
                unlabelled_out[p] -= 1;
                if level[p] == NONE && unlabelled_out[p] == 0 {
                    queue.push(p as u32);
                }
            }
        }
        settled.sort_unstable();
        let mut settled = settled.into_iter().peekable();

        // Levels 1, 2, …: the vertices the closure left, each level one retrograde pass. A
        // vertex the closure labelled `m` acts at level `m` as one labelled there (it marks
        // its predecessors); one labelled above `m` has an option of value `m`, so it never
        // holds up a counter and is not counted.
        eligible.retain(|&u| level[u as usize] == NONE);
        let mut next = Vec::new();
        let mut m = 1u32;
        while !eligible.is_empty() {
            queue.clear();
            for &u in &eligible {
                count[u as usize] = unlabelled_out[u as usize];
            }
            while settled.peek().is_some_and(|&(g, _)| g < m) {
                settled.next();
            }
            while let Some((_, u)) = settled.next_if(|&(g, _)| g == m) {
                for &p in graph.predecessors(u as usize) {
                    let p = p as usize;
                    if level[p] == NONE && marked[p] != m + 1 {
                        marked[p] = m + 1;
                        if mex[p] == m {
                            mex[p] = m + 1;
                            next.push(p as u32);
                        }
                        queue.push(p as u32);
                    }
                }
            }
            for &u in &eligible {
                let u = u as usize;
                if mex[u] == m && count[u] == 0 {
                    level[u] = m;
                    mex[u] = NONE;
                    queue.push(u as u32);
                }
            }
            let mut head = 0;
            while let Some(&u) = queue.get(head) {
                head += 1;
                let u = u as usize;
                if level[u] == m {
                    for &p in graph.predecessors(u) {
                        let p = p as usize;
                        unlabelled_out[p] -= 1;
                        if level[p] == NONE && marked[p] != m + 1 {
                            marked[p] = m + 1;
                            if mex[p] == m {
                                mex[p] = m + 1;
                                next.push(p as u32);
                            }
                            queue.push(p as u32);
                        }
                    }
                } else {
                    for &q in graph.predecessors(u) {
                        let q = q as usize;
                        if mex[q] == m {
                            count[q] -= 1;
                            if count[q] == 0 {
                                level[q] = m;
                                mex[q] = NONE;
                                queue.push(q as u32);
                            }
                        }
                    }
                }
            }
            std::mem::swap(&mut eligible, &mut next);
            next.clear();
            m += 1;
        }
        LabelledGraph {
            graph,
            level,
            remote,
            levels: if n == 0 { 0 } else { m },
        }
    }

    /// The graph labelled.
    pub fn graph(&self) -> &Digraph {
        &self.graph
    }

    /// Number of vertices.
    pub fn len(&self) -> usize {
        self.level.len()
    }

    /// True when the graph has no vertex.
    pub fn is_empty(&self) -> bool {
        self.level.is_empty()
    }

    /// Grundy levels the labelling ran through, each one retrograde pass (at most the largest
    /// finite value plus two; 0 for an empty graph).
    pub fn levels(&self) -> u32 {
        self.levels
    }

    /// The finite value of `v`, or `None` when it is infinite (cheaper than [`Self::value`]).
    pub fn finite(&self, v: usize) -> Option<u64> {
        (self.level[v] != NONE).then_some(u64::from(self.level[v]))
    }

    /// The value of `v`: finite, or `∞(K)` with `K` read from its options.
    pub fn value(&self, v: usize) -> Grundy {
        match self.finite(v) {
            Some(m) => Grundy::Finite(m),
            None => Grundy::Infinite(
                self.graph
                    .successors(v)
                    .iter()
                    .filter_map(|&w| self.finite(w as usize))
                    .collect::<BTreeSet<u64>>(),
            ),
        }
    }

    /// The value of every vertex, in vertex order.
    pub fn values(&self) -> Vec<Grundy> {
        (0..self.len()).map(|v| self.value(v)).collect()
    }

    /// The outcome of `v`: `P` for value 0, `N` when it has a P-option, `D` otherwise.
    pub fn outcome(&self, v: usize) -> Outcome {
        if self.level[v] == 0 {
            Outcome::P
        } else if self.remote[v] != NONE {
            Outcome::N
        } else {
            Outcome::D
        }
    }

    /// Smith's remoteness of `v`: moves to the end of play when the winner wins as fast as
    /// possible and the loser loses as slowly as possible; `None` for a draw.
    pub fn remoteness(&self, v: usize) -> Option<u64> {
        (self.remote[v] != NONE).then_some(u64::from(self.remote[v]))
    }

    /// The distinct options of `v`, in edge order (a repeated edge once).
    pub fn option_vertices(&self, v: usize) -> Vec<usize> {
        let succ = self.graph.successors(v);
        let mut out: Vec<usize> = Vec::with_capacity(succ.len());
        if succ.len() <= 16 {
            // A few options (the usual case): a scan is cheaper than a set.
            for &w in succ {
                if !out.contains(&(w as usize)) {
                    out.push(w as usize);
                }
            }
        } else {
            let mut seen = BTreeSet::new();
            out.extend(succ.iter().map(|&w| w as usize).filter(|&w| seen.insert(w)));
        }
        out
    }

    /// The value of `v` as [`Self::value`] gives it, to write: it displays and writes its
    /// JSON ([`PushJson`]) as that [`Grundy`] does, and builds no set (`K` is read from the options as it is
    /// written), so a table of a million values is written without a million sets.
    ///
    /// ```
    /// use grundy_core::graph::PushJson;
    /// use grundy_loopy::{Digraph, LabelledGraph};
    ///
    /// // a -> x, a <-> b, b -> b: a is ∞(0), x is 0, b is ∞.
    /// let l = LabelledGraph::new(Digraph::from_edges(3, &[(0, 1), (0, 2), (2, 0), (2, 2)])?);
    /// assert_eq!(l.value_of(0).to_string(), "∞(0)");
    /// for v in 0..3 {
    ///     assert_eq!(l.value_of(v).to_string(), l.value(v).to_string());
    ///     let mut json = String::new();
    ///     l.value_of(v).push_json(&mut json);
    ///     assert_eq!(json, serde_json::to_string(&l.value(v)).unwrap());
    /// }
    /// # Ok::<(), grundy_loopy::DigraphError>(())
    /// ```
    pub fn value_of(&self, v: usize) -> ValueOf<'_> {
        ValueOf {
            labels: self,
            v,
            mask: None,
        }
    }

    /// Every vertex's value made ready to write many times (a table of every infinite value's
    /// `K`, one pass over the edges); see [`ValueTable`].
    ///
    /// ```
    /// use grundy_loopy::{Digraph, LabelledGraph};
    ///
    /// let l = LabelledGraph::new(Digraph::from_edges(3, &[(0, 1), (0, 2), (2, 0), (2, 2)])?);
    /// let t = l.value_table();
    /// for v in 0..3 {
    ///     assert_eq!(t.value_of(v).to_string(), l.value(v).to_string());
    /// }
    /// # Ok::<(), grundy_loopy::DigraphError>(())
    /// ```
    pub fn value_table(&self) -> ValueTable<'_> {
        let k = (0..self.len())
            .map(|v| {
                if self.level[v] != NONE {
                    return 0;
                }
                self.graph
                    .successors(v)
                    .iter()
                    .fold(0, |m, &w| match self.level[w as usize] {
                        NONE => m,
                        l if l < 31 => m | 1 << l,
                        _ => m | K_OVERFLOW,
                    })
            })
            .collect();
        ValueTable { labels: self, k }
    }

    /// Every distinct option of `v` with its value, outcome and remoteness.
    pub fn options(&self, v: usize) -> Vec<OptionInfo> {
        self.option_vertices(v)
            .into_iter()
            .map(|w| OptionInfo {
                to: w,
                grundy: self.value(w),
                outcome: self.outcome(w),
                remoteness: self.remoteness(w),
            })
            .collect()
    }

    /// The winning moves of `v`: its options that are P-positions, each with its remoteness
    /// (the fastest win moves to the smallest); empty unless `v` is an N-position.
    pub fn winning_moves(&self, v: usize) -> Vec<(usize, u64)> {
        self.option_vertices(v)
            .into_iter()
            .filter(|&w| self.level[w] == 0)
            .map(|w| (w, u64::from(self.remote[w])))
            .collect()
    }

    /// The moves that keep a drawn `v` drawn: its options that are draws (every other
    /// option is an N-position, won by the opponent). Empty unless `v` is a draw.
    pub fn drawing_moves(&self, v: usize) -> Vec<usize> {
        if self.outcome(v) != Outcome::D {
            return Vec::new();
        }
        self.option_vertices(v)
            .into_iter()
            .filter(|&w| self.outcome(w) == Outcome::D)
            .collect()
    }

    /// The move a perfect player makes from `v`, the engine's choice in play: from an
    /// N-position the winning move of least remoteness (so the win comes, cycles or not);
    /// from a P-position the move of greatest remoteness (the loss as late as possible); from
    /// a draw a move that keeps it. `None` when `v` has no move.
    ///
    /// ```
    /// use grundy_loopy::{Digraph, LabelledGraph};
    ///
    /// // a -> b -> c -> a, c -> x: from a, move to b (P); from b, to c; from c, to x.
    /// let l = LabelledGraph::new(Digraph::from_edges(4, &[(0, 1), (1, 2), (2, 0), (2, 3)])?);
    /// assert_eq!([0, 1, 2, 3].map(|v| l.best_move(v)), [Some(1), Some(2), Some(3), None]);
    /// # Ok::<(), grundy_loopy::DigraphError>(())
    /// ```
    pub fn best_move(&self, v: usize) -> Option<usize> {
        let options = self.option_vertices(v);
        match self.outcome(v) {
            Outcome::N => options
                .into_iter()
                .filter(|&w| self.level[w] == 0)
                .min_by_key(|&w| self.remote[w]),
            Outcome::P => options.into_iter().max_by_key(|&w| self.remote[w]),
            Outcome::D => options.into_iter().find(|&w| self.outcome(w) == Outcome::D),
        }
    }
}
