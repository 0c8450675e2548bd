//! Small undirected graphs in one line of text: the notation shared by Node Kayles and Arc
//! Kayles.
//!
//! # Grammar
//!
//! ```text
//! graph    := family | edges
//! family   := "path:" N          (N vertices in a row, N >= 1)
//!           | "cycle:" N         (N >= 3)
//!           | "grid:" R "x" C    (R rows of C vertices, 4-neighbour lattice)
//!           | "ladder:" N        (the 2 x N grid)
//!           | "star:" K          (a centre joined to K leaves, K + 1 vertices)
//!           | "complete:" N      (K_N)
//!           | "complete:" M "," N  (K_{M,N}, M + N vertices)
//!           | "petersen:" N "," K  (the generalized Petersen graph P(N, K), 2N vertices,
//!                                  N >= 3, 1 <= K < N/2; petersen:5,2 is Petersen's graph)
//!           | "queens:" N        (the N x N queens graph: squares joined when a queen on one
//!                                  attacks the other, N >= 1; Node Kayles on it is the
//!                                  non-attacking queens game, OEIS A344227)
//! edges    := [N ":"] edge ("," edge)*     (vertices 0..N-1; N defaults to 1 + the largest)
//! edge     := U "-" V              (U = V is a loop: in Arc Kayles, a move deleting U alone)
//! ```
//!
//! Whitespace around tokens is ignored; family names are case-insensitive. A [`Graph`] has at
//! most [`MAX_VERTICES`] vertices (the engine's positions are 128-bit sets); the same notation
//! read as a [`crate::expand::WideGraph`] (by the catalogue, for a larger graph) has at most
//! [`crate::expand::MAX_WIDE_VERTICES`]. Repeated edges are merged. Every error is one line
//! naming the problem ([`GraphError`]).
//!
//! Vertices of `grid:RxC` (and `ladder:N` = `grid:2xN`, `path:N` = `grid:1xN`) are numbered
//! row by row, `r * C + c`; such graphs keep their lattice shape ([`Graph::grid_shape`]), which
//! lets the engine fold the plane's eight symmetries into its component keys.

use std::fmt;

/// The most vertices a graph may have: positions are sets of vertices held in a `u128`.
pub const MAX_VERTICES: usize = 128;

/// A set of vertices, one bit per vertex.
pub type VertexSet = u128;

/// Why a graph's text was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GraphError {
    /// Nothing but whitespace.
    #[error("empty graph notation")]
    Empty,
    /// A family name that is not one of the grammar's.
    #[error("unknown graph family {0:?} (expected path, cycle, grid, ladder, star, complete, petersen, queens or an edge list like 0-1,1-2)")]
    UnknownFamily(String),
    /// A size or vertex number that is not a non-negative integer.
    #[error("bad number {0:?} in graph notation")]
    BadNumber(String),
    /// A size outside the family's range.
    #[error("{family}: size {size} out of range ({range})")]
    BadSize {
        /// The family.
        family: &'static str,
        /// The size given.
        size: usize,
        /// The allowed range, in words.
        range: &'static str,
    },
    /// More vertices than the notation's reader holds ([`MAX_VERTICES`] for the engine).
    #[error("{count} vertices: at most {max} are supported")]
    TooManyVertices {
        /// The vertices asked for.
        count: usize,
        /// The most the reader holds.
        max: usize,
    },
    /// An edge that is not `U-V`.
    #[error("bad edge {0:?} (expected U-V with vertex numbers)")]
    BadEdge(String),
    /// An edge naming a vertex at or past the declared count.
    #[error("edge {edge:?} names vertex {vertex} but the graph has {count} vertices")]
    VertexOutOfRange {
        /// The edge as written.
        edge: String,
        /// The vertex number.
        vertex: usize,
        /// The declared vertex count.
        count: usize,
    },
}

/// An undirected graph on at most [`MAX_VERTICES`] vertices, adjacency held as bit sets.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Graph {
    adj: Vec<VertexSet>,
    loops: VertexSet,
    grid: Option<(usize, usize)>,
    board: Option<(usize, usize)>,
    notation: String,
}

fn bit(v: usize) -> VertexSet {
    1u128 << v
}

fn number(s: &str) -> Result<usize, GraphError> {
    let t = s.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) || t.len() > 9 {
        return Err(GraphError::BadNumber(t.chars().take(20).collect()));
    }
    t.parse().map_err(|_| GraphError::BadNumber(t.to_string()))
}

fn check_count(n: usize, max: usize) -> Result<(), GraphError> {
    if n > max {
        Err(GraphError::TooManyVertices { count: n, max })
    } else {
        Ok(())
    }
}

/// A graph as the notation describes it, before it is held: its vertices, edges and shapes.
/// One grammar for every size: [`Graph::parse`] reads it with at most [`MAX_VERTICES`]
/// vertices, [`crate::expand::WideGraph::parse`] with more.
#[derive(Clone, Debug)]
pub(crate) struct Spec {
    /// The number of vertices.
    pub(crate) n: usize,
    /// The edges (`(u, u)` a loop), possibly repeated.
    pub(crate) edges: Vec<(usize, usize)>,
    /// The notation it prints as (a family's `name:size`; empty for an edge list, whose
    /// notation is made from its edges).
    pub(crate) notation: String,
    /// See [`Graph::grid_shape`].
    pub(crate) grid: Option<(usize, usize)>,
    /// See [`Graph::board_shape`].
    pub(crate) board: Option<(usize, usize)>,
    /// A cycle `0 – 1 – … – (n − 1) – 0` (`cycle:N`): its rotations are automorphisms, and a
    /// proper connected subset of it is a path.
    pub(crate) ring: bool,
}

impl Spec {
    fn family(n: usize, notation: String, max: usize) -> Result<Spec, GraphError> {
        check_count(n, max)?;
        Ok(Spec {
            n,
            edges: Vec::new(),
            notation,
            grid: None,
            board: None,
            ring: false,
        })
    }

    fn path(n: usize, max: usize) -> Result<Spec, GraphError> {
        if n == 0 {
            return Err(GraphError::BadSize {
                family: "path",
                size: n,
                range: "N >= 1",
            });
        }
        let mut s = Spec::grid(1, n, max)?;
        s.notation = format!("path:{n}");
        Ok(s)
    }

    fn cycle(n: usize, max: usize) -> Result<Spec, GraphError> {
        if n < 3 {
            return Err(GraphError::BadSize {
                family: "cycle",
                size: n,
                range: "N >= 3",
            });
        }
        let mut s = Spec::family(n, format!("cycle:{n}"), max)?;
        s.edges = (0..n).map(|v| (v, (v + 1) % n)).collect();
        s.ring = true;
        Ok(s)
    }

    fn grid(rows: usize, cols: usize, max: usize) -> Result<Spec, GraphError> {
        if rows == 0 || cols == 0 {
            return Err(GraphError::BadSize {
                family: "grid",
                size: rows.min(cols),
                range: "sides >= 1",
            });
        }
        let mut s = Spec::family(
            rows.saturating_mul(cols),
            format!("grid:{rows}x{cols}"),
            max,
        )?;
        for r in 0..rows {
            for c in 0..cols {
                let v = r * cols + c;
                if c + 1 < cols {
                    s.edges.push((v, v + 1));
                }
                if r + 1 < rows {
                    s.edges.push((v, v + cols));
                }
            }
        }
        s.grid = Some((rows, cols));
        s.board = s.grid;
        Ok(s)
    }

    fn ladder(n: usize, max: usize) -> Result<Spec, GraphError> {
        let mut s = Spec::grid(2, n, max).map_err(|e| match e {
            GraphError::BadSize { size, .. } => GraphError::BadSize {
                family: "ladder",
                size,
                range: "N >= 1",
            },
            e => e,
        })?;
        s.notation = format!("ladder:{n}");
        Ok(s)
    }

    fn star(k: usize, max: usize) -> Result<Spec, GraphError> {
        let mut s = Spec::family(k.saturating_add(1), format!("star:{k}"), max)?;
        s.edges = (1..=k).map(|v| (0, v)).collect();
        Ok(s)
    }

    fn complete(n: usize, max: usize) -> Result<Spec, GraphError> {
        if n == 0 {
            return Err(GraphError::BadSize {
                family: "complete",
                size: n,
                range: "N >= 1",
            });
        }
        let mut s = Spec::family(n, format!("complete:{n}"), max)?;
        s.edges = (0..n)
            .flat_map(|u| (u + 1..n).map(move |v| (u, v)))
            .collect();
        Ok(s)
    }

    fn complete_bipartite(m: usize, n: usize, max: usize) -> Result<Spec, GraphError> {
        if m == 0 || n == 0 {
            return Err(GraphError::BadSize {
                family: "complete",
                size: m.min(n),
                range: "sides >= 1",
            });
        }
        let mut s = Spec::family(m.saturating_add(n), format!("complete:{m},{n}"), max)?;
        s.edges = (0..m)
            .flat_map(|u| (m..m + n).map(move |v| (u, v)))
            .collect();
        Ok(s)
    }

    fn petersen(n: usize, k: usize, max: usize) -> Result<Spec, GraphError> {
        if n < 3 {
            return Err(GraphError::BadSize {
                family: "petersen",
                size: n,
                range: "N >= 3",
            });
        }
        if k == 0 || 2 * k >= n {
            return Err(GraphError::BadSize {
                family: "petersen",
                size: k,
                range: "1 <= K < N/2",
            });
        }
        let mut s = Spec::family(n.saturating_mul(2), format!("petersen:{n},{k}"), max)?;
        for i in 0..n {
            s.edges.push((i, (i + 1) % n));
            s.edges.push((i, n + i));
            s.edges.push((n + i, n + (i + k) % n));
        }
        Ok(s)
    }

    pub(crate) fn queens(n: usize, max: usize) -> Result<Spec, GraphError> {
        if n == 0 {
            return Err(GraphError::BadSize {
                family: "queens",
                size: n,
                range: "N >= 1",
            });
        }
        let mut s = Spec::family(n.saturating_mul(n), format!("queens:{n}"), max)?;
        s.edges = queens_edges(n);
        s.board = Some((n, n));
        Ok(s)
    }

    pub(crate) fn edge_list(
        n: usize,
        edges: Vec<(usize, usize)>,
        max: usize,
    ) -> Result<Spec, GraphError> {
        let mut s = Spec::family(n, String::new(), max)?;
        if let Some(&(u, v)) = edges.iter().find(|&&(u, v)| u.max(v) >= n) {
            return Err(GraphError::VertexOutOfRange {
                edge: format!("{u}-{v}"),
                vertex: u.max(v),
                count: n,
            });
        }
        s.edges = edges;
        Ok(s)
    }

    /// Reads the notation of the module documentation, with at most `max` vertices.
    pub(crate) fn parse(text: &str, max: usize) -> Result<Spec, GraphError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(GraphError::Empty);
        }
        if let Some((name, arg)) = t.split_once(':') {
            let lname = name.trim().to_ascii_lowercase();
            if lname.bytes().all(|b| b.is_ascii_alphabetic()) && !lname.is_empty() {
                let pair = |sep: &[char]| {
                    arg.split_once(sep)
                        .ok_or_else(|| GraphError::BadNumber(arg.trim().chars().take(20).collect()))
                };
                return match lname.as_str() {
                    "path" => Spec::path(number(arg)?, max),
                    "cycle" => Spec::cycle(number(arg)?, max),
                    "ladder" => Spec::ladder(number(arg)?, max),
                    "star" => Spec::star(number(arg)?, max),
                    "grid" => {
                        let (r, c) = pair(&['x', 'X'])?;
                        Spec::grid(number(r)?, number(c)?, max)
                    }
                    "complete" => match arg.split_once(',') {
                        Some((m, n)) => Spec::complete_bipartite(number(m)?, number(n)?, max),
                        None => Spec::complete(number(arg)?, max),
                    },
                    "petersen" => {
                        let (n, k) = pair(&[','])?;
                        Spec::petersen(number(n)?, number(k)?, max)
                    }
                    "queens" => Spec::queens(number(arg)?, max),
                    _ => Err(GraphError::UnknownFamily(name.chars().take(20).collect())),
                };
            }
            // `N:edges`
            let n = number(name)?;
            check_count(n, max)?;
            return Spec::edge_list(n, parse_edges(arg, max)?, max);
        }
        if t.bytes().next().is_some_and(|b| b.is_ascii_alphabetic()) {
            return Err(GraphError::UnknownFamily(t.chars().take(20).collect()));
        }
        let edges = parse_edges(t, max)?;
        let n = edges.iter().map(|&(u, v)| u.max(v) + 1).max().unwrap_or(0);
        Spec::edge_list(n, edges, max)
    }
}

/// The notation of an edge list: `0-1,1-2`, with the vertex count first (`5:0-1`) when the
/// edges do not imply it. `edges` are in [`Graph::edges`]'s order.
pub(crate) fn edge_notation(n: usize, edges: &[(usize, usize)]) -> String {
    let words: Vec<String> = edges.iter().map(|(u, v)| format!("{u}-{v}")).collect();
    let implied = edges.iter().map(|&(u, v)| u.max(v) + 1).max();
    if words.is_empty() || implied != Some(n) {
        format!("{n}:{}", words.join(","))
    } else {
        words.join(",")
    }
}

impl Graph {
    /// The graph `spec` describes, at most [`MAX_VERTICES`] vertices.
    pub(crate) fn held(spec: Spec) -> Result<Graph, GraphError> {
        check_count(spec.n, MAX_VERTICES)?;
        let mut g = Graph {
            adj: vec![0; spec.n],
            loops: 0,
            grid: spec.grid,
            board: spec.board,
            notation: spec.notation,
        };
        for (u, v) in spec.edges {
            if u == v {
                g.loops |= bit(u);
            } else {
                g.adj[u] |= bit(v);
                g.adj[v] |= bit(u);
            }
        }
        if g.notation.is_empty() {
            g.notation = edge_notation(g.vertex_count(), &g.edges());
        }
        Ok(g)
    }

    /// The path on `n` vertices `0-1-…-(n-1)` (`path:N`), kept as the `1 × n` grid.
    pub fn path(n: usize) -> Result<Graph, GraphError> {
        Graph::held(Spec::path(n, MAX_VERTICES)?)
    }

    /// The cycle on `n ≥ 3` vertices (`cycle:N`).
    pub fn cycle(n: usize) -> Result<Graph, GraphError> {
        Graph::held(Spec::cycle(n, MAX_VERTICES)?)
    }

    /// The `rows × cols` lattice (`grid:RxC`), vertex `r * cols + c`.
    pub fn grid(rows: usize, cols: usize) -> Result<Graph, GraphError> {
        Graph::held(Spec::grid(rows, cols, MAX_VERTICES)?)
    }

    /// The ladder `2 × n` (`ladder:N`).
    pub fn ladder(n: usize) -> Result<Graph, GraphError> {
        Graph::held(Spec::ladder(n, MAX_VERTICES)?)
    }

    /// The star: vertex 0 joined to `k` leaves (`star:K`).
    pub fn star(k: usize) -> Result<Graph, GraphError> {
        Graph::held(Spec::star(k, MAX_VERTICES)?)
    }

    /// The complete graph `K_n` (`complete:N`, `n ≥ 1`).
    pub fn complete(n: usize) -> Result<Graph, GraphError> {
        Graph::held(Spec::complete(n, MAX_VERTICES)?)
    }

    /// The complete bipartite graph `K_{m,n}` (`complete:M,N`): vertices `0..m` on one side.
    pub fn complete_bipartite(m: usize, n: usize) -> Result<Graph, GraphError> {
        Graph::held(Spec::complete_bipartite(m, n, MAX_VERTICES)?)
    }

    /// The generalized Petersen graph P(n, k) (`petersen:N,K`): the outer cycle `0..n`, the
    /// spokes `i – n + i`, and the inner vertices `n + i` joined to `n + (i + k mod n)`; `n ≥ 3`
    /// and `1 ≤ k < n/2` (so that it is a simple cubic graph). P(5, 2) is Petersen's graph;
    /// Node Kayles on P(n, 2) is OEIS A316533.
    pub fn petersen(n: usize, k: usize) -> Result<Graph, GraphError> {
        Graph::held(Spec::petersen(n, k, MAX_VERTICES)?)
    }

    /// The `n × n` queens graph (`queens:N`): square `r * n + c`, two squares joined when a
    /// queen on one attacks the other (same row, column or diagonal). Node Kayles on it is the
    /// non-attacking queens game (OEIS A344227: players place queens that attack none placed
    /// before, the last to place wins). `1 ≤ n ≤ 11`: the 11 × 11 board has 121 vertices, the
    /// 12 × 12 one 144, past [`MAX_VERTICES`] (the catalogue values those by
    /// [`crate::expand`]). It is not kept as a lattice ([`Graph::grid_shape`]): its edges are
    /// not the lattice's.
    pub fn queens(n: usize) -> Result<Graph, GraphError> {
        Graph::held(Spec::queens(n, MAX_VERTICES)?)
    }

    /// A graph on vertices `0..n` with the given edges (`(u, u)` is a loop).
    pub fn from_edges(n: usize, edges: &[(usize, usize)]) -> Result<Graph, GraphError> {
        Graph::held(Spec::edge_list(n, edges.to_vec(), MAX_VERTICES)?)
    }

    /// Reads the notation of the module documentation (at most [`MAX_VERTICES`] vertices).
    pub fn parse(text: &str) -> Result<Graph, GraphError> {
        Graph::held(Spec::parse(text, MAX_VERTICES)?)
    }

    /// The graph's notation, normalised (a family as `name:size`, else an edge list); parsing
    /// it gives the same graph back.
    pub fn notation(&self) -> &str {
        &self.notation
    }

    /// The number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.adj.len()
    }

    /// All vertices as a set.
    pub fn all(&self) -> VertexSet {
        let n = self.vertex_count();
        if n == 128 {
            u128::MAX
        } else {
            (1u128 << n) - 1
        }
    }

    /// The neighbours of `v` (never `v` itself; loops are in [`Graph::loops`]).
    pub fn neighbors(&self, v: usize) -> VertexSet {
        self.adj[v]
    }

    /// The vertices with a loop.
    pub fn loops(&self) -> VertexSet {
        self.loops
    }

    /// The edges `(u, v)` with `u ≤ v` in increasing order (loops as `(u, u)`).
    pub fn edges(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for u in 0..self.vertex_count() {
            if self.loops & bit(u) != 0 {
                out.push((u, u));
            }
            let mut m = self.adj[u] >> u >> 1;
            let mut v = u + 1;
            while m != 0 {
                let z = m.trailing_zeros() as usize;
                v += z;
                out.push((u, v));
                m >>= z;
                m >>= 1;
                v += 1;
            }
        }
        out
    }

    /// `(rows, cols)` when the graph is a lattice numbered row by row (`grid`, `ladder`,
    /// `path`): the engine then keys components by their shape up to the plane's symmetries.
    pub fn grid_shape(&self) -> Option<(usize, usize)> {
        self.grid
    }

    /// `(rows, cols)` when the vertices are the squares of a board, numbered row by row: the
    /// lattices of [`Graph::grid_shape`] and the queens graphs. Pictures stand vertex `v` at row
    /// `v / cols`, column `v % cols`; the engine does not use it (a queens graph's edges are
    /// not the lattice's).
    pub fn board_shape(&self) -> Option<(usize, usize)> {
        self.board
    }
}

/// The edges `(a, b)`, `a < b`, of the `n × n` queens graph: squares `r * n + c` in the same
/// row, column or diagonal.
pub(crate) fn queens_edges(n: usize) -> Vec<(usize, usize)> {
    let attacks = |a: usize, b: usize| {
        let (r1, c1, r2, c2) = (a / n, a % n, b / n, b % n);
        r1 == r2 || c1 == c2 || r1.abs_diff(r2) == c1.abs_diff(c2)
    };
    (0..n * n)
        .flat_map(|a| (a + 1..n * n).map(move |b| (a, b)))
        .filter(|&(a, b)| attacks(a, b))
        .collect()
}

fn parse_edges(text: &str, max: usize) -> Result<Vec<(usize, usize)>, GraphError> {
    let mut edges = Vec::new();
    for part in text.split(',') {
        let p = part.trim();
        if p.is_empty() {
            continue;
        }
        let (u, v) = p
            .split_once('-')
            .ok_or_else(|| GraphError::BadEdge(p.chars().take(20).collect()))?;
        let u = number(u).map_err(|_| GraphError::BadEdge(p.chars().take(20).collect()))?;
        let v = number(v).map_err(|_| GraphError::BadEdge(p.chars().take(20).collect()))?;
        for w in [u, v] {
            if w >= max {
                return Err(GraphError::TooManyVertices { count: w + 1, max });
            }
        }
        edges.push((u, v));
    }
    Ok(edges)
}

impl fmt::Display for Graph {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.notation)
    }
}

impl std::str::FromStr for Graph {
    type Err = GraphError;
    fn from_str(s: &str) -> Result<Graph, GraphError> {
        Graph::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families() {
        let g = Graph::parse("grid:3x4").unwrap();
        assert_eq!(g.vertex_count(), 12);
        assert_eq!(g.edges().len(), 17);
        assert_eq!(Graph::parse("cycle:5").unwrap().edges().len(), 5);
        assert_eq!(Graph::parse("complete:2,3").unwrap().edges().len(), 6);
        assert_eq!(Graph::parse("complete:4").unwrap().edges().len(), 6);
        assert_eq!(Graph::parse("star:3").unwrap().edges().len(), 3);
        assert_eq!(Graph::parse("ladder:3").unwrap().edges().len(), 7);
        assert_eq!(Graph::parse("path:1").unwrap().edges().len(), 0);
        // Petersen's graph: 10 vertices, 15 edges, every vertex of degree three.
        let p = Graph::parse("petersen:5,2").unwrap();
        assert_eq!((p.vertex_count(), p.edges().len()), (10, 15));
        assert!((0..10).all(|v| p.edges().iter().filter(|&&(a, b)| a == v || b == v).count() == 3));
        assert_eq!(Graph::parse("Petersen: 7 , 3").unwrap().edges().len(), 21);
        // The 4 x 4 queens graph: a queen attacks 9 squares from a corner, 11 from the centre
        // four, 9 from the other edge squares: 16 · 9 + 4 · 2 = 152 ends, 76 edges.
        let q = Graph::parse("queens:4").unwrap();
        assert_eq!((q.vertex_count(), q.edges().len()), (16, 76));
        assert_eq!(q.neighbors(5).count_ones(), 11);
        assert_eq!(q.neighbors(0).count_ones(), 9);
        assert_eq!(q.grid_shape(), None);
        assert_eq!(q.board_shape(), Some((4, 4)));
        assert_eq!(Graph::parse("queens:11").unwrap().vertex_count(), 121);
    }

    #[test]
    fn round_trip() {
        for t in [
            "path:5",
            "cycle:7",
            "grid:3x4",
            "ladder:5",
            "star:4",
            "complete:6",
            "complete:2,3",
            "petersen:9,4",
            "queens:5",
            "0-1,1-2,0-2",
            "5:0-1",
            "0-0,0-1",
            "3:",
        ] {
            let g = Graph::parse(t).unwrap();
            assert_eq!(Graph::parse(g.notation()).unwrap(), g, "{t}");
        }
        assert_eq!(
            Graph::parse("2-0, 0-1,1-2").unwrap().notation(),
            "0-1,0-2,1-2"
        );
    }

    #[test]
    fn errors() {
        for t in [
            "",
            "blob:3",
            "path:0",
            "path:x",
            "path:200",
            "grid:12x12",
            "cycle:2",
            "0-1,1-",
            "0-1-2",
            "3:0-5",
            "0-300",
            "complete:0",
            "petersen:2,1",
            "petersen:6,3",
            "petersen:7,0",
            "petersen:7",
            "petersen:65,2",
            "queens:0",
            "queens:12",
            "path:99999999999999999999",
            "hello",
        ] {
            let e = Graph::parse(t).unwrap_err();
            assert!(!e.to_string().contains('\n'), "{t}");
        }
    }
}
