//! Green Hackenbush: a graph of green edges, some vertices on the ground (here the one vertex
//! `0`). A move cuts one edge; every edge no longer connected to the ground falls away. Whoever
//! cannot move (no edge left) loses.
//!
//! Any graph is allowed: loops (`3-3`), several edges between the same two vertices, cycles
//! through the ground and edges that are not connected to the ground at all (they are not part of
//! the game and fall away at once). A graph is written as a list of edges `U-V` separated by
//! commas or spaces, vertex 0 being the ground: `0-1,1-2,2-0` is a triangle standing on the
//! ground.
//!
//! The value comes from two principles of Winning Ways (ch. 7), in linear time:
//! - **Fusion**: the vertices of a cycle may be fused into one vertex without changing the
//!   value, its edges becoming loops. Fusing every 2-edge-connected component (found with the
//!   bridges of the graph) leaves a tree of bridges with loops at its vertices, and a loop is a
//!   stalk of one edge (value 1), so a component with `k` edges inside it weighs `k mod 2`.
//! - **Colon principle** on the tree: a vertex's value is the XOR of its loops and of
//!   `value(child) + 1` over the bridges to its children.
//!
//! The winning moves are the cuts that leave value 0. Each bridge is decided in O(1) by asking,
//! top down, which value each subtree would need for the whole to be 0; an edge inside a
//! component (not a bridge) changes only that component, which is valued again with the rest of
//! the tree folded into numbers at its vertices: O(size²) per component, within
//! [`MAX_MOVE_WORK`]. [`brute_force`] (a memoised mex over edge sets) is the oracle. A graph
//! is answered whole (value, every winning cut) by the catalogue entry ([`HackenbushEntry`]),
//! the one door of every front end.
//!
//! ```
//! use grundy_core::catalogue::{Ask, Entry, Play};
//! use grundy_games::hackenbush::{value, Graph, HackenbushEntry};
//!
//! // A triangle on the ground is *1: cut the edge opposite the ground (two stalks *1 + *1).
//! assert_eq!(value(&Graph::parse("0-1,1-2,2-0")?), 1);
//! let mut rules = HackenbushEntry.open("hackenbush")?;
//! let triangle = rules.parse("0-1,1-2,2-0")?;
//! let r = rules.analyze(&triangle, &Ask::new(Play::Normal))?;
//! assert_eq!(r.details["winning_edges"], serde_json::json!([1]));
//! assert_eq!(r.winning_moves[0].to.text, "0-1,2-0");
//! assert_eq!(r.winning_moves[0].text, "cut edge 1 (1-2)");
//! assert_eq!(r.winning_moves[0].at["edge"], 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::error::{GameError, Result};
use grundy_core::text::quote;
use grundy_core::{Move, Outcome};
use serde::Serialize;
use std::collections::HashMap;
use std::fmt::Write as _;

/// The most edges a graph may have.
pub const MAX_EDGES: usize = 1_000_000;

/// The largest vertex label.
pub const MAX_VERTEX: u32 = 1_000_000_000;

/// The most characters of graph text [`Graph::parse`] reads (about 16 MB).
pub const MAX_TEXT: usize = 1 << 24;

/// The most work (edges cut inside components × component size, summed) that the analysis
/// spends on the winning moves inside cycles; bridges and loops cost O(1) each. A single
/// cycle of about 5000 edges fits.
pub const MAX_MOVE_WORK: u64 = 50_000_000;

/// The most edges of [`brute_force`], which keeps one value per reachable edge set.
pub const MAX_BRUTE_EDGES: usize = 24;

/// At most this many winning moves are written out in full ([`Move`], with the
/// graph after the move); the details' `winning_edges` names every one.
pub const MAX_LISTED_MOVES: usize = 100;

/// The most characters of `to` text, summed over the listed moves (a big graph lists fewer).
pub const MAX_LISTED_TEXT: usize = 4_000_000;

/// A green Hackenbush graph: edges between vertices labelled by numbers, `0` the ground.
///
/// The edges keep their input order; moves name them by their place in it, from 0.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Graph {
    edges: Vec<(u32, u32)>,
}

impl Graph {
    /// A graph with these edges (any labels up to [`MAX_VERTEX`], at most [`MAX_EDGES`]).
    pub fn new(edges: Vec<(u32, u32)>) -> Result<Graph> {
        if edges.len() > MAX_EDGES {
            return Err(GameError::TooLarge(format!(
                "graph has {} edges (at most {MAX_EDGES})",
                edges.len()
            )));
        }
        if let Some(&(u, v)) = edges.iter().find(|&&(u, v)| u.max(v) > MAX_VERTEX) {
            return Err(GameError::Invalid(format!(
                "vertex {} too large in edge {u}-{v} (at most {MAX_VERTEX})",
                u.max(v)
            )));
        }
        Ok(Graph { edges })
    }

    /// Parses an edge list: `U-V` items separated by commas and/or spaces, e.g.
    /// `0-1,1-2,2-0`; vertex 0 is the ground. The empty list is the empty graph (value 0).
    pub fn parse(text: &str) -> Result<Graph> {
        if text.len() > MAX_TEXT {
            return Err(GameError::TooLarge(format!(
                "graph text has {} bytes (at most {MAX_TEXT})",
                text.len()
            )));
        }
        let mut edges = Vec::new();
        for (i, item) in text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|s| !s.is_empty())
            .enumerate()
        {
            if edges.len() == MAX_EDGES {
                return Err(GameError::TooLarge(format!(
                    "graph has more than {MAX_EDGES} edges"
                )));
            }
            let bad = || {
                GameError::Invalid(format!(
                    "edge {i}: {} is not of the form U-V (two vertex numbers, 0 the ground)",
                    quote(item)
                ))
            };
            let (a, b) = item.split_once('-').ok_or_else(bad)?;
            let vertex = |s: &str| -> Result<u32> {
                if s.is_empty() || !s.bytes().all(|c| c.is_ascii_digit()) {
                    return Err(bad());
                }
                match s.parse::<u64>() {
                    Ok(v) if v <= MAX_VERTEX as u64 => Ok(v as u32),
                    _ => Err(GameError::Invalid(format!(
                        "edge {i}: vertex {} too large (at most {MAX_VERTEX})",
                        quote(s)
                    ))),
                }
            };
            edges.push((vertex(a)?, vertex(b)?));
        }
        Ok(Graph { edges })
    }

    /// A stalk (path) of `n` edges standing on the ground: `0-1,1-2,…`; its value is `n`.
    pub fn stalk(n: u32) -> Result<Graph> {
        Graph::new((0..n).map(|i| (i, i + 1)).collect())
    }

    /// The edges in input order.
    pub fn edges(&self) -> &[(u32, u32)] {
        &self.edges
    }

    /// The vertices by their distance from the ground, for drawing: `levels[0]` is `[0]` (the
    /// ground) and `levels[d]` lists the vertices `d` edges away, in breadth-first order from
    /// the ground with the edges taken in input order. A vertex cut off from the ground is in
    /// no level. (The web page and the terminal draw level `d` as a row above the ground.)
    pub fn levels(&self) -> Vec<Vec<u32>> {
        let mut adj: HashMap<u32, Vec<u32>> = HashMap::new();
        for &(u, v) in &self.edges {
            adj.entry(u).or_default().push(v);
            adj.entry(v).or_default().push(u);
        }
        let mut level: HashMap<u32, usize> = HashMap::from([(0, 0)]);
        let mut levels = vec![vec![0u32]];
        let mut order = vec![0u32];
        let mut i = 0;
        while i < order.len() {
            let d = level[&order[i]] + 1;
            for &w in adj.get(&order[i]).into_iter().flatten() {
                if let std::collections::hash_map::Entry::Vacant(e) = level.entry(w) {
                    e.insert(d);
                    order.push(w);
                    if levels.len() <= d {
                        levels.push(Vec::new());
                    }
                    levels[d].push(w);
                }
            }
            i += 1;
        }
        levels
    }

    /// The edge list as text, `0-1,1-2`: the notation [`Graph::parse`] reads.
    pub fn to_text(&self) -> String {
        let mut s = String::with_capacity(self.edges.len() * 6);
        for (i, (u, v)) in self.edges.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            let _ = write!(s, "{u}-{v}");
        }
        s
    }

    /// Which edges are in the game (connected to the ground, vertex 0), by index: the edges
    /// a move may cut.
    pub fn in_game(&self) -> Vec<bool> {
        self.grounded(None)
    }

    /// Which edges are connected to the ground with edge `skip` removed, by index.
    fn grounded(&self, skip: Option<usize>) -> Vec<bool> {
        let c = Compact::new(&self.edges);
        let mut seen = vec![false; c.n];
        let mut stack = Vec::new();
        if let Some(r) = c.ground {
            seen[r] = true;
            stack.push(r);
        }
        while let Some(v) = stack.pop() {
            for &(w, e) in c.neighbours(v) {
                if Some(e as usize) != skip && !seen[w as usize] {
                    seen[w as usize] = true;
                    stack.push(w as usize);
                }
            }
        }
        (0..self.edges.len())
            .map(|e| Some(e) != skip && seen[c.ends[e].0 as usize])
            .collect()
    }

    /// The graph without its edges that are not connected to the ground (same labels and
    /// order): the position the game really is.
    pub fn grounded_part(&self) -> Graph {
        let keep = self.grounded(None);
        Graph {
            edges: self
                .edges
                .iter()
                .zip(keep)
                .filter(|&(_, k)| k)
                .map(|(&e, _)| e)
                .collect(),
        }
    }

    /// The position after cutting edge `index` (from 0): that edge and every edge no longer
    /// connected to the ground are gone; the others keep their labels and order.
    pub fn cut(&self, index: usize) -> Result<Graph> {
        if index >= self.edges.len() {
            return Err(GameError::Invalid(format!(
                "no edge {} (the graph has {})",
                index + 1,
                self.edges.len()
            )));
        }
        let keep = self.grounded(Some(index));
        Ok(Graph {
            edges: self
                .edges
                .iter()
                .zip(keep)
                .filter(|&(_, k)| k)
                .map(|(&e, _)| e)
                .collect(),
        })
    }
}

/// A graph with vertices renumbered 0..n and adjacency lists (loops left out of them).
struct Compact {
    n: usize,
    /// The compact number of the ground, if it has an edge.
    ground: Option<usize>,
    ends: Vec<(u32, u32)>,
    start: Vec<usize>,
    adj: Vec<(u32, u32)>,
}

impl Compact {
    fn new(edges: &[(u32, u32)]) -> Compact {
        let top = edges.iter().map(|&(u, v)| u.max(v)).max().unwrap_or(0) as usize;
        if top <= 4 * edges.len() + 64 {
            // Small labels (the usual case): a direct table instead of hashing.
            let mut ids = vec![NONE; top + 1];
            let mut n = 0u32;
            let mut id = |v: u32| {
                let slot = &mut ids[v as usize];
                if *slot == NONE {
                    *slot = n;
                    n += 1;
                }
                *slot
            };
            let ends: Vec<(u32, u32)> = edges.iter().map(|&(u, v)| (id(u), id(v))).collect();
            let ground = (ids[0] != NONE).then_some(ids[0] as usize);
            return Compact::from_ends(n as usize, ground, ends);
        }
        let mut ids: HashMap<u32, u32> = HashMap::new();
        let mut id = |v: u32| {
            let next = ids.len() as u32;
            *ids.entry(v).or_insert(next)
        };
        let ends: Vec<(u32, u32)> = edges.iter().map(|&(u, v)| (id(u), id(v))).collect();
        let ground = ids.get(&0).map(|&g| g as usize);
        Compact::from_ends(ids.len(), ground, ends)
    }

    fn from_ends(n: usize, ground: Option<usize>, ends: Vec<(u32, u32)>) -> Compact {
        let mut degree = vec![0usize; n + 1];
        for &(a, b) in &ends {
            if a != b {
                degree[a as usize] += 1;
                degree[b as usize] += 1;
            }
        }
        let mut start = vec![0usize; n + 1];
        for v in 0..n {
            start[v + 1] = start[v] + degree[v];
        }
        let mut fill = start.clone();
        let mut adj = vec![(0u32, 0u32); start[n]];
        for (e, &(a, b)) in ends.iter().enumerate() {
            if a != b {
                adj[fill[a as usize]] = (b, e as u32);
                fill[a as usize] += 1;
                adj[fill[b as usize]] = (a, e as u32);
                fill[b as usize] += 1;
            }
        }
        Compact {
            n,
            ground,
            ends,
            start,
            adj,
        }
    }

    fn neighbours(&self, v: usize) -> &[(u32, u32)] {
        &self.adj[self.start[v]..self.start[v + 1]]
    }
}

const NONE: u32 = u32::MAX;

/// The fusion/colon decomposition of a graph seen from a root vertex.
struct Decomposition {
    /// The component (2-edge-connected) of each vertex; `NONE` when not connected to the root.
    comp: Vec<u32>,
    /// Whether each edge is a bridge.
    bridge: Vec<bool>,
    /// Components in breadth-first order from the root's component (index 0 is the root's).
    order: Vec<u32>,
    /// The parent bridge of each component (`NONE` for the root's).
    parent_edge: Vec<u32>,
    /// The parent component of each component (`NONE` for the root's).
    parent: Vec<u32>,
    /// The value of each component with everything hanging below it.
    value: Vec<u64>,
    /// The number of edges inside each component (loops included).
    inside: Vec<u64>,
}

impl Decomposition {
    /// Decomposes the part of `c` connected to `root`; `weight[v]` is XORed into the value of
    /// the component of `v` (a subtree folded into a number), all 0 for a plain graph.
    fn new(c: &Compact, root: usize, weight: Option<&[u64]>) -> Decomposition {
        let n = c.n;
        let m = c.ends.len();
        let mut tin = vec![NONE; n];
        let mut low = vec![0u32; n];
        let mut bridge = vec![false; m];
        // Iterative DFS for bridges: (vertex, parent edge, next adjacency index).
        let mut stack: Vec<(u32, u32, usize)> = vec![(root as u32, NONE, c.start[root])];
        let mut timer = 0u32;
        tin[root] = timer;
        low[root] = timer;
        while let Some(top) = stack.last_mut() {
            let v = top.0 as usize;
            if top.2 < c.start[v + 1] {
                let (w, e) = c.adj[top.2];
                top.2 += 1;
                if e == top.1 {
                    continue;
                }
                let w = w as usize;
                if tin[w] == NONE {
                    timer += 1;
                    tin[w] = timer;
                    low[w] = timer;
                    stack.push((w as u32, e, c.start[w]));
                } else {
                    low[v] = low[v].min(tin[w]);
                }
            } else {
                let (_, pe, _) = stack.pop().expect("non-empty");
                if let Some(parent) = stack.last() {
                    let p = parent.0 as usize;
                    low[p] = low[p].min(low[v]);
                    if low[v] > tin[p] {
                        bridge[pe as usize] = true;
                    }
                }
            }
        }
        // Components: flood fill over non-bridge edges.
        let mut comp = vec![NONE; n];
        let mut count = 0u32;
        let mut fill = Vec::new();
        for s in 0..n {
            if tin[s] == NONE || comp[s] != NONE {
                continue;
            }
            comp[s] = count;
            fill.push(s);
            while let Some(v) = fill.pop() {
                for &(w, e) in c.neighbours(v) {
                    if !bridge[e as usize] && comp[w as usize] == NONE {
                        comp[w as usize] = count;
                        fill.push(w as usize);
                    }
                }
            }
            count += 1;
        }
        let k = count as usize;
        let mut inside = vec![0u64; k];
        let mut folded = vec![0u64; k];
        // Component tree over bridges, adjacency by component.
        let mut cdeg = vec![0usize; k + 1];
        for (e, &(a, b)) in c.ends.iter().enumerate() {
            let ca = comp[a as usize];
            if ca == NONE {
                continue;
            }
            if bridge[e] {
                cdeg[ca as usize] += 1;
                cdeg[comp[b as usize] as usize] += 1;
            } else {
                inside[ca as usize] += 1;
            }
        }
        if let Some(w) = weight {
            for v in 0..n {
                if comp[v] != NONE {
                    folded[comp[v] as usize] ^= w[v];
                }
            }
        }
        let mut cstart = vec![0usize; k + 1];
        for i in 0..k {
            cstart[i + 1] = cstart[i] + cdeg[i];
        }
        let mut cfill = cstart.clone();
        let mut cadj = vec![(0u32, 0u32); cstart[k]];
        for (e, &(a, b)) in c.ends.iter().enumerate() {
            if bridge[e] {
                let (ca, cb) = (comp[a as usize] as usize, comp[b as usize] as usize);
                cadj[cfill[ca]] = (cb as u32, e as u32);
                cfill[ca] += 1;
                cadj[cfill[cb]] = (ca as u32, e as u32);
                cfill[cb] += 1;
            }
        }
        let mut parent = vec![NONE; k];
        let mut parent_edge = vec![NONE; k];
        let mut order = Vec::with_capacity(k);
        let mut seen = vec![false; k];
        let rc = comp[root];
        seen[rc as usize] = true;
        order.push(rc);
        let mut i = 0;
        while i < order.len() {
            let x = order[i] as usize;
            i += 1;
            for &(y, e) in &cadj[cstart[x]..cstart[x + 1]] {
                if !seen[y as usize] {
                    seen[y as usize] = true;
                    parent[y as usize] = x as u32;
                    parent_edge[y as usize] = e;
                    order.push(y);
                }
            }
        }
        let mut value: Vec<u64> = (0..k).map(|x| (inside[x] & 1) ^ folded[x]).collect();
        for &x in order.iter().rev() {
            let p = parent[x as usize];
            if p != NONE {
                value[p as usize] ^= value[x as usize] + 1;
            }
        }
        Decomposition {
            comp,
            bridge,
            order,
            parent_edge,
            parent,
            value,
            inside,
        }
    }

    /// The value of the whole (the root's component).
    fn total(&self) -> u64 {
        self.value[self.order[0] as usize]
    }
}

/// The Grundy value of a green Hackenbush graph (fusion and colon principles, linear time).
pub fn value(g: &Graph) -> u64 {
    let c = Compact::new(&g.edges);
    match c.ground {
        Some(r) => Decomposition::new(&c, r, None).total(),
        None => 0,
    }
}

/// The move that cuts edge `i` (0-based) of `g`, leaving `to` (its grounded part, kind
/// `hackenbush`) of value `value`: "cut edge 1 (1-2)" (edges counted from 0, in words as in
/// JSON);
/// [`Move::at`] holds `{"edge": 1, "ends": [1, 2]}`, the edge's index in the position's
/// `edges` (from 0) and its two ends.
fn cut_move(g: &Graph, i: usize, to: &Graph, value: u64) -> Move {
    let (u, v) = g.edges[i];
    Move::new(
        format!("cut edge {i} ({u}-{v})"),
        &format!("cut {u}-{v}"),
        hb_position(to),
        Outcome::from_grundy(value),
        Some(value),
    )
    .at("edge", i)
    .at("ends", [u, v])
}

/// Everything the report of a green Hackenbush graph says; the fields not skipped are its
/// `details`: `{"edges", "winning_edges", "winning_moves_truncated"}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
struct Analysis {
    /// The number of edges in the game (connected to the ground).
    edges: usize,
    /// `N` when the player to move wins.
    #[serde(skip)]
    outcome: Outcome,
    /// The Grundy value.
    #[serde(skip)]
    grundy: u64,
    /// Every winning move's edge (place in the input list, from 0), ascending.
    winning_edges: Vec<usize>,
    /// The first winning moves in full (at most [`MAX_LISTED_MOVES`], fewer for big graphs);
    /// each [`Move::at`] holds `edge` (its index in the graph's edges, from 0) and `ends`.
    #[serde(skip)]
    winning_moves: Vec<Move>,
    /// True when `winning_moves` lists fewer moves than `winning_edges` names.
    winning_moves_truncated: bool,
}

/// The value of a graph and every winning move. Errors with [`GameError::TooLarge`] when the
/// moves inside cycles would take more than [`MAX_MOVE_WORK`] (use [`value`] alone then).
fn analyze(g: &Graph) -> Result<Analysis> {
    let c = Compact::new(&g.edges);
    let graph = g.to_text();
    let Some(root) = c.ground else {
        return Ok(Analysis {
            edges: 0,
            outcome: Outcome::P,
            grundy: 0,
            winning_edges: Vec::new(),
            winning_moves: Vec::new(),
            winning_moves_truncated: false,
        });
    };
    let d = Decomposition::new(&c, root, None);
    let winning_edges = winning_edges(&c, root, &d)?;
    let in_game = c
        .ends
        .iter()
        .filter(|&&(a, _)| d.comp[a as usize] != NONE)
        .count();
    let mut winning_moves = Vec::new();
    let mut text_used = 0usize;
    for &e in &winning_edges {
        if winning_moves.len() == MAX_LISTED_MOVES || text_used > MAX_LISTED_TEXT {
            break;
        }
        let to = g.cut(e)?.grounded_part();
        let m = cut_move(g, e, &to, 0);
        text_used += m.to.text.len() + graph.len();
        winning_moves.push(m);
    }
    let grundy = d.total();
    Ok(Analysis {
        winning_moves_truncated: winning_moves.len() < winning_edges.len(),
        edges: in_game,
        outcome: Outcome::from_grundy(grundy),
        grundy,
        winning_edges,
        winning_moves,
    })
}

/// The edges (from 0) whose cut leaves value 0.
fn winning_edges(c: &Compact, root: usize, d: &Decomposition) -> Result<Vec<usize>> {
    let k = d.value.len();
    // need[x]: the value component x (with its subtree) must take for the total to be 0.
    let mut need: Vec<Option<u64>> = vec![None; k];
    need[d.order[0] as usize] = Some(0);
    for &x in &d.order[1..] {
        let x = x as usize;
        let p = d.parent[x] as usize;
        need[x] = need[p].and_then(|r| (r ^ d.value[p] ^ (d.value[x] + 1)).checked_sub(1));
    }
    let mut win = Vec::new();
    // Bridges: cutting the bridge above x drops x's subtree from its parent.
    for &x in &d.order[1..] {
        let x = x as usize;
        let p = d.parent[x] as usize;
        if need[p] == Some(d.value[p] ^ (d.value[x] + 1)) {
            win.push(d.parent_edge[x] as usize);
        }
    }
    // Loops: each flips its component's parity.
    for (e, &(a, b)) in c.ends.iter().enumerate() {
        let x = d.comp[a as usize];
        if a == b && x != NONE && need[x as usize] == Some(d.value[x as usize] ^ 1) {
            win.push(e);
        }
    }
    // Other edges inside a component: value the component again without the edge.
    let mut members: Vec<Vec<u32>> = vec![Vec::new(); k];
    for (v, &x) in d.comp.iter().enumerate() {
        if x != NONE && need[x as usize].is_some() && d.inside[x as usize] > 0 {
            members[x as usize].push(v as u32);
        }
    }
    let mut inner_edges: Vec<Vec<u32>> = vec![Vec::new(); k];
    for (e, &(a, _)) in c.ends.iter().enumerate() {
        let x = d.comp[a as usize];
        if x != NONE && !d.bridge[e] && need[x as usize].is_some() {
            inner_edges[x as usize].push(e as u32);
        }
    }
    let mut work = 0u64;
    for x in 0..k {
        let cuttable = inner_edges[x]
            .iter()
            .filter(|&&e| c.ends[e as usize].0 != c.ends[e as usize].1)
            .count() as u64;
        work =
            work.saturating_add(cuttable * (members[x].len() as u64 + inner_edges[x].len() as u64));
    }
    if work > MAX_MOVE_WORK {
        return Err(GameError::TooLarge(format!(
            "the winning moves inside this graph's cycles need {work} steps (the limit is \
             {MAX_MOVE_WORK}); ask for the value alone"
        )));
    }
    // The weight folded into each vertex: its child bridges' (value + 1), XORed.
    let mut weight = vec![0u64; c.n];
    for &y in &d.order[1..] {
        let y = y as usize;
        let e = d.parent_edge[y] as usize;
        let (a, b) = c.ends[e];
        let p = d.parent[y];
        let at = if d.comp[a as usize] == p { a } else { b };
        weight[at as usize] ^= d.value[y] + 1;
    }
    let mut local = vec![NONE; c.n];
    for x in 0..k {
        let Some(target) = need[x] else { continue };
        if inner_edges[x].iter().all(|&e| {
            let (a, b) = c.ends[e as usize];
            a == b
        }) {
            continue;
        }
        // The component's own vertices renumbered, rooted where it hangs.
        let attach = if d.parent_edge[x] == NONE {
            root as u32
        } else {
            let (a, b) = c.ends[d.parent_edge[x] as usize];
            if d.comp[a as usize] == x as u32 {
                a
            } else {
                b
            }
        };
        for (i, &v) in members[x].iter().enumerate() {
            local[v as usize] = i as u32;
        }
        let w: Vec<u64> = members[x].iter().map(|&v| weight[v as usize]).collect();
        let all: Vec<(u32, u32)> = inner_edges[x]
            .iter()
            .map(|&e| {
                let (a, b) = c.ends[e as usize];
                (local[a as usize], local[b as usize])
            })
            .collect();
        for (j, &e) in inner_edges[x].iter().enumerate() {
            let (a, b) = c.ends[e as usize];
            if a == b {
                continue;
            }
            let mut ends = all.clone();
            ends.swap_remove(j);
            let sub = Compact::from_ends(members[x].len(), None, ends);
            let sd = Decomposition::new(&sub, local[attach as usize] as usize, Some(&w));
            if sd.total() == target {
                win.push(e as usize);
            }
        }
    }
    win.sort_unstable();
    Ok(win)
}

/// The value by exhaustive search: a memoised mex over the edge sets reachable by cutting (each
/// reduced to its part connected to the ground). The oracle of the tests; at most
/// [`MAX_BRUTE_EDGES`] edges.
pub fn brute_force(g: &Graph) -> Result<u64> {
    let m = g.edges.len();
    if m > MAX_BRUTE_EDGES {
        return Err(GameError::TooLarge(format!(
            "brute force takes at most {MAX_BRUTE_EDGES} edges (the graph has {m})"
        )));
    }
    let grounded = |mask: u32| -> u32 {
        let mut reach: Vec<u32> = vec![0];
        let mut keep = 0u32;
        let mut changed = true;
        while changed {
            changed = false;
            for (e, &(u, v)) in g.edges.iter().enumerate() {
                if mask >> e & 1 == 1 && keep >> e & 1 == 0 {
                    let (hu, hv) = (reach.contains(&u), reach.contains(&v));
                    if hu || hv {
                        keep |= 1 << e;
                        changed = true;
                        if !hu {
                            reach.push(u);
                        }
                        if !hv {
                            reach.push(v);
                        }
                    }
                }
            }
        }
        keep
    };
    fn solve(mask: u32, grounded: &dyn Fn(u32) -> u32, memo: &mut HashMap<u32, u64>) -> u64 {
        if let Some(&v) = memo.get(&mask) {
            return v;
        }
        let mut seen = Vec::new();
        for e in 0..32 {
            if mask >> e & 1 == 1 {
                seen.push(solve(grounded(mask & !(1 << e)), grounded, memo));
            }
        }
        seen.sort_unstable();
        let mut g = 0;
        for s in seen {
            if s == g {
                g += 1;
            }
        }
        memo.insert(mask, g);
        g
    }
    let full = if m == 32 { u32::MAX } else { (1u32 << m) - 1 };
    let mut memo = HashMap::new();
    Ok(solve(grounded(full), &grounded, &mut memo))
}

/// The most edges of a position whose moves are listed for play (each option is valued).
pub const MAX_PLAY_EDGES: usize = 2_000;

/// The `hackenbush` entry of the catalogue: green Hackenbush on an edge list, ground 0.
pub struct HackenbushEntry;

impl grundy_core::catalogue::Entry for HackenbushEntry {
    fn info(&self) -> grundy_core::catalogue::Info {
        grundy_core::catalogue::Info {
            name: "hackenbush".into(),
            aliases: vec!["green-hackenbush".into()],
            summary: "Green Hackenbush: cut an edge; whatever no longer reaches the ground falls"
                .into(),
            example: "0-1,1-2,2-0,2-3,3-4".into(),
            example_game: None,
            position: "an edge list U-V with the ground vertex 0 (`0-1,1-2,2-0`); loops and \
                       repeated edges allowed"
                .into(),
            kind: "hackenbush".into(),
            family: false,
            misere: false,
            loopy: false,
            scoring: false,
            params: Vec::new(),
        }
    }

    fn matches(&self, name: &str) -> bool {
        name == "hackenbush" || name == "green-hackenbush"
    }

    fn open(
        &self,
        _name: &str,
    ) -> grundy_core::catalogue::Result<Box<dyn grundy_core::catalogue::Rules>> {
        Ok(Box::new(HackenbushRules))
    }
}

struct HackenbushRules;

fn hb_position(g: &Graph) -> grundy_core::catalogue::Position {
    grundy_core::catalogue::Position::text("hackenbush", g.to_text())
        .with("edges", g.edges())
        .with("levels", g.levels())
}

fn hb_misere() -> grundy_core::catalogue::Error {
    grundy_core::catalogue::Error::input("misère Hackenbush is not supported")
}

impl grundy_core::catalogue::Rules for HackenbushRules {
    fn name(&self) -> String {
        "hackenbush".into()
    }

    fn parse(
        &self,
        text: &str,
    ) -> grundy_core::catalogue::Result<grundy_core::catalogue::Position> {
        Ok(hb_position(&Graph::parse(text)?.grounded_part()))
    }

    fn moves(
        &mut self,
        pos: &grundy_core::catalogue::Position,
        ask: &grundy_core::catalogue::Ask,
    ) -> grundy_core::catalogue::Result<Vec<grundy_core::catalogue::Move>> {
        let play = ask.play;
        if play.is_misere() {
            return Err(hb_misere());
        }
        let g = Graph::parse(&pos.text)?.grounded_part();
        if g.edges().len() > MAX_PLAY_EDGES {
            return Err(grundy_core::catalogue::Error::limit(format!(
                "{} edges: moves are listed for at most {MAX_PLAY_EDGES}",
                g.edges().len()
            )));
        }
        let mut out = Vec::new();
        for i in 0..g.edges().len() {
            let to = g.cut(i)?.grounded_part();
            out.push(cut_move(&g, i, &to, value(&to)));
        }
        Ok(out)
    }

    fn analyze(
        &mut self,
        pos: &grundy_core::catalogue::Position,
        ask: &grundy_core::catalogue::Ask,
    ) -> grundy_core::catalogue::Result<grundy_core::catalogue::Report> {
        let play = ask.play;
        if play.is_misere() {
            return Err(hb_misere());
        }
        let g = Graph::parse(&pos.text)?.grounded_part();
        let a = analyze(&g)?;
        let mut r = grundy_core::catalogue::Report::new(
            "hackenbush",
            hb_position(&g),
            play,
            a.outcome,
            Some(a.grundy.into()),
        );
        r.moves = Some(g.edges().len() as u64);
        r.explanation = vec![
            "Each cycle fuses to a point (even) or a loop (odd), and each tree is valued by the \
             colon principle: a vertex's branches sum as nimbers, a branch on an edge adds one."
                .into(),
            format!("The value is {}.", a.grundy),
        ];
        r.details = serde_json::to_value(&a).unwrap_or_default();
        r.winning_moves = a.winning_moves;
        r.finish(ask.detail, || self.moves(pos, ask))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_values() {
        let v = |t: &str| value(&Graph::parse(t).unwrap());
        assert_eq!(v(""), 0);
        assert_eq!(v("0-1,1-2,2-3"), 3);
        assert_eq!(v("0-1,1-2,2-0"), 1);
        assert_eq!(v("0-1,1-2,2-3,3-0"), 0);
        assert_eq!(v("0-0"), 1);
        assert_eq!(v("0-1,0-1"), 0);
        assert_eq!(v("5-6,6-7"), 0);
        assert_eq!(v("0-1 1-1"), 2);
    }

    #[test]
    fn bad_lists() {
        for bad in ["0-", "a-b", "0-1,2", "0-1-2", "-1-2", "0-99999999999"] {
            let e = Graph::parse(bad).unwrap_err().to_string();
            assert!(!e.contains('\n'), "{e}");
        }
    }
}
