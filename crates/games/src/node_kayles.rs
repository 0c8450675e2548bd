//! Node Kayles: a move picks a vertex of a graph and deletes it with all its neighbours; the
//! player who cannot move loses (Winning Ways ch. 2; on a path it is Dawson's Chess, 0.137).
//!
//! Positions are graphs of at most [`MAX_VERTICES`] vertices, written as a named graph
//! (`path:N`, `cycle:N`, `grid:RxC`, `ladder:N`, `star:K`, `complete:N`, `complete:M,N`), an
//! edge list `0-1,1-2,2-0` (a lone number is a vertex without edges), or `empty`. A position
//! is kept as the adjacency of its vertices renumbered `0..n` in order, so a move's `to` is
//! again such a graph, printed as an edge list. Components are valued separately and XORed
//! (the solver's split), each renumbered on its own so that equal components share a memo
//! entry. Values come from the plain memoised solver ([`grundy_core::catalogue::Solved`]);
//! the registry's `node-kayles` runs on the board search engine (`grundy-board`), and this
//! plain solver stays as its independent oracle.
//!
//! ```
//! use grundy_core::catalogue::{Ask, Play, Rules};
//! use grundy_games::node_kayles;
//!
//! let mut rules = node_kayles::rules();
//! let grid = rules.parse("grid:3x4")?;
//! let r = rules.analyze(&grid, &Ask::new(Play::Normal))?;
//! assert_eq!(r.grundy, Some(0u64.into())); // OEIS A316632: a(4) = 0
//! # Ok::<(), grundy_core::catalogue::Error>(())
//! ```

use grundy_core::catalogue::{self as cat, Notation, Solved};
use grundy_core::Game;

/// The most vertices a Node Kayles graph may have.
pub const MAX_VERTICES: usize = 128;

/// A graph of at most [`MAX_VERTICES`] vertices `0..n`: bit `w` of `adj[v]` is the edge v–w.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Graph {
    /// Each vertex's neighbours as a bit set.
    pub adj: Vec<u128>,
}

impl Graph {
    /// The graph with vertices `0..n` and the given edges (loops ignored).
    pub fn from_edges(n: usize, edges: &[(usize, usize)]) -> Graph {
        let mut adj = vec![0u128; n];
        for &(a, b) in edges {
            if a != b {
                adj[a] |= 1 << b;
                adj[b] |= 1 << a;
            }
        }
        Graph { adj }
    }

    /// The subgraph induced by the vertex set `keep`, renumbered `0..k` in order.
    pub fn induced(&self, keep: u128) -> Graph {
        let old: Vec<usize> = (0..self.adj.len())
            .filter(|&v| keep >> v & 1 == 1)
            .collect();
        let adj = old
            .iter()
            .map(|&v| {
                old.iter()
                    .enumerate()
                    .filter(|&(_, &w)| self.adj[v] >> w & 1 == 1)
                    .fold(0u128, |a, (i, _)| a | 1 << i)
            })
            .collect();
        Graph { adj }
    }

    /// Every vertex as a set.
    pub fn all(&self) -> u128 {
        if self.adj.len() == 128 {
            u128::MAX
        } else {
            (1u128 << self.adj.len()) - 1
        }
    }

    /// The vertex sets of the connected components.
    pub fn components(&self) -> Vec<u128> {
        let mut left = self.all();
        let mut out = Vec::new();
        while left != 0 {
            let mut comp = 1u128 << left.trailing_zeros();
            loop {
                let mut grown = comp;
                let mut bits = comp;
                while bits != 0 {
                    let v = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    grown |= self.adj[v];
                }
                if grown == comp {
                    break;
                }
                comp = grown;
            }
            left &= !comp;
            out.push(comp);
        }
        out
    }

    /// The edges `(v, w)` with `v < w`.
    pub fn edges(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (v, &a) in self.adj.iter().enumerate() {
            for w in v + 1..self.adj.len() {
                if a >> w & 1 == 1 {
                    out.push((v, w));
                }
            }
        }
        out
    }
}

/// Node Kayles as a [`Game`]: a position is a graph.
#[derive(Clone, Copy, Debug, Default)]
pub struct NodeKayles;

impl Game for NodeKayles {
    type Position = Graph;

    fn options(&self, g: &Graph, out: &mut Vec<Graph>) {
        let all = g.all();
        for v in 0..g.adj.len() {
            out.push(g.induced(all & !(g.adj[v] | 1 << v)));
        }
    }

    fn components(&self, g: &Graph, out: &mut Vec<Graph>) -> bool {
        let comps = g.components();
        if comps.len() < 2 {
            return false;
        }
        out.extend(comps.into_iter().map(|c| g.induced(c)));
        true
    }
}

fn bad(text: &str, why: &str) -> cat::Error {
    cat::Error::input(format!(
        "bad graph {}: {why}",
        grundy_core::text::quote(text.trim())
    ))
}

fn number(text: &str, token: &str, what: &str) -> cat::Result<usize> {
    token.trim().parse::<usize>().map_err(|_| {
        bad(
            text,
            &format!(
                "{what} {} is not a number",
                grundy_core::text::quote(token.trim())
            ),
        )
    })
}

/// Reads a named graph or an edge list (see the module's grammar).
pub fn parse_graph(text: &str) -> cat::Result<Graph> {
    let t = text.trim().to_ascii_lowercase();
    let too_big = |n: usize| {
        cat::Error::limit(format!(
            "a graph of {n} vertices: Node Kayles takes at most {MAX_VERTICES}"
        ))
    };
    let sized = |n: usize| {
        if n > MAX_VERTICES {
            Err(too_big(n))
        } else {
            Ok(n)
        }
    };
    if t.is_empty() || t == "empty" {
        return Ok(Graph { adj: Vec::new() });
    }
    if let Some((name, arg)) = t.split_once(':') {
        let g = match name {
            "path" => {
                let n = sized(number(text, arg, "length")?)?;
                Graph::from_edges(n, &(1..n).map(|i| (i - 1, i)).collect::<Vec<_>>())
            }
            "cycle" => {
                let n = sized(number(text, arg, "length")?)?;
                if n < 3 {
                    return Err(bad(text, "a cycle has at least 3 vertices"));
                }
                Graph::from_edges(n, &(0..n).map(|i| (i, (i + 1) % n)).collect::<Vec<_>>())
            }
            "grid" | "ladder" => {
                let (r, c) = if name == "ladder" {
                    (2, number(text, arg, "length")?)
                } else {
                    let (r, c) = arg
                        .split_once('x')
                        .ok_or_else(|| bad(text, "a grid is written grid:RxC"))?;
                    (number(text, r, "rows")?, number(text, c, "columns")?)
                };
                let n = sized(r.saturating_mul(c))?;
                let mut e = Vec::new();
                for i in 0..r {
                    for j in 0..c {
                        if j + 1 < c {
                            e.push((i * c + j, i * c + j + 1));
                        }
                        if i + 1 < r {
                            e.push((i * c + j, (i + 1) * c + j));
                        }
                    }
                }
                Graph::from_edges(n, &e)
            }
            "star" => {
                let k = number(text, arg, "leaves")?;
                let n = sized(k.saturating_add(1))?;
                Graph::from_edges(n, &(1..n).map(|i| (0, i)).collect::<Vec<_>>())
            }
            "complete" => match arg.split_once(',') {
                None => {
                    let n = sized(number(text, arg, "size")?)?;
                    let e: Vec<_> = (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b))).collect();
                    Graph::from_edges(n, &e)
                }
                Some((m, k)) => {
                    let (m, k) = (number(text, m, "side")?, number(text, k, "side")?);
                    let n = sized(m.saturating_add(k))?;
                    let e: Vec<_> = (0..m).flat_map(|a| (m..n).map(move |b| (a, b))).collect();
                    Graph::from_edges(n, &e)
                }
            },
            _ => {
                return Err(bad(
                    text,
                    "not a named graph (path:N, cycle:N, grid:RxC, ladder:N, star:K, complete:N, complete:M,N) nor an edge list",
                ))
            }
        };
        return Ok(g);
    }
    let mut edges = Vec::new();
    let mut n = 0usize;
    for item in t
        .split([',', ' ', '\n', ';'])
        .filter(|s| !s.trim().is_empty())
    {
        let (a, b) = match item.split_once('-') {
            Some((a, b)) => (number(text, a, "vertex")?, number(text, b, "vertex")?),
            None => {
                let v = number(text, item, "vertex")?;
                (v, v)
            }
        };
        if a.max(b) >= MAX_VERTICES {
            return Err(too_big(a.max(b) + 1));
        }
        n = n.max(a.max(b) + 1);
        edges.push((a, b));
    }
    Ok(Graph::from_edges(n, &edges))
}

/// Prints a graph as an edge list (`empty` for no vertex; a vertex without edges alone).
pub fn print_graph(g: &Graph) -> String {
    if g.adj.is_empty() {
        return "empty".into();
    }
    let mut items: Vec<String> = Vec::new();
    for (v, &a) in g.adj.iter().enumerate() {
        if a == 0 {
            items.push(v.to_string());
        }
        for w in v + 1..g.adj.len() {
            if a >> w & 1 == 1 {
                items.push(format!("{v}-{w}"));
            }
        }
    }
    items.join(",")
}

impl Notation for NodeKayles {
    const KIND: &'static str = "graph";

    fn parse(&self, text: &str) -> cat::Result<Graph> {
        parse_graph(text)
    }

    fn print(&self, g: &Graph) -> String {
        print_graph(g)
    }

    fn data(&self, g: &Graph) -> serde_json::Map<String, serde_json::Value> {
        let mut m = serde_json::Map::new();
        m.insert("vertices".into(), g.adj.len().into());
        m.insert("edges".into(), serde_json::json!(g.edges()));
        m
    }

    fn move_text(&self, from: &Graph, to: &Graph) -> (String, String) {
        // The vertex taken: the one whose closed neighbourhood leaves `to`.
        let all = from.all();
        let v = (0..from.adj.len())
            .find(|&v| from.induced(all & !(from.adj[v] | 1 << v)) == *to)
            .unwrap_or(0);
        let gone = (from.adj[v] | 1 << v).count_ones();
        (
            format!("take vertex {v}, deleting it and its neighbours ({gone} vertices)"),
            format!("take vertex {v}"),
        )
    }
}

/// Node Kayles rules, ready to read graphs.
pub fn rules() -> Solved<NodeKayles> {
    Solved::new("node-kayles", NodeKayles)
}
