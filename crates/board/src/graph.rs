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
//!                                  attacks the other, 1 <= N <= 11; Node Kayles on it is the
//!                                  non-attacking queens game, OEIS A344227)
//! edges    := [N ":"] edge ("," edge)*     (vertices 0..N-1; N defaults to 1 + the largest)
//! edge     := U "-" V              (U = V is a loop: in Arc Kayles, a move deleting U alone)
//! ```
//!
//! Whitespace around tokens is ignored; family names are case-insensitive. At most
//! [`MAX_VERTICES`] vertices (positions are 128-bit sets). Repeated edges are merged. Every
//! error is one line naming the problem ([`GraphError`]).
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
    /// More vertices than [`MAX_VERTICES`].
    #[error("{0} vertices: at most 128 are supported")]
    TooManyVertices(usize),
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

fn check_count(n: usize) -> Result<(), GraphError> {
    if n > MAX_VERTICES {
        Err(GraphError::TooManyVertices(n))
    } else {
        Ok(())
    }
}

impl Graph {
    fn empty(n: usize, notation: String) -> Graph {
        Graph {
            adj: vec![0; n],
            loops: 0,
            grid: None,
            board: None,
            notation,
        }
    }

    fn add_edge(&mut self, u: usize, v: usize) {
        if u == v {
            self.loops |= bit(u);
        } else {
            self.adj[u] |= bit(v);
            self.adj[v] |= bit(u);
        }
    }

    /// The path on `n` vertices `0-1-…-(n-1)` (`path:N`), kept as the `1 × n` grid.
    pub fn path(n: usize) -> Result<Graph, GraphError> {
        if n == 0 {
            return Err(GraphError::BadSize {
                family: "path",
                size: n,
                range: "1..=128",
            });
        }
        check_count(n)?;
        let mut g = Graph::grid(1, n)?;
        g.notation = format!("path:{n}");
        Ok(g)
    }

    /// The cycle on `n ≥ 3` vertices (`cycle:N`).
    pub fn cycle(n: usize) -> Result<Graph, GraphError> {
        if n < 3 {
            return Err(GraphError::BadSize {
                family: "cycle",
                size: n,
                range: "3..=128",
            });
        }
        check_count(n)?;
        let mut g = Graph::empty(n, format!("cycle:{n}"));
        for v in 0..n {
            g.add_edge(v, (v + 1) % n);
        }
        Ok(g)
    }

    /// The `rows × cols` lattice (`grid:RxC`), vertex `r * cols + c`.
    pub fn grid(rows: usize, cols: usize) -> Result<Graph, GraphError> {
        if rows == 0 || cols == 0 {
            return Err(GraphError::BadSize {
                family: "grid",
                size: rows.min(cols),
                range: "sides >= 1",
            });
        }
        check_count(rows.saturating_mul(cols))?;
        let mut g = Graph::empty(rows * cols, format!("grid:{rows}x{cols}"));
        for r in 0..rows {
            for c in 0..cols {
                let v = r * cols + c;
                if c + 1 < cols {
                    g.add_edge(v, v + 1);
                }
                if r + 1 < rows {
                    g.add_edge(v, v + cols);
                }
            }
        }
        g.grid = Some((rows, cols));
        g.board = g.grid;
        Ok(g)
    }

    /// The ladder `2 × n` (`ladder:N`).
    pub fn ladder(n: usize) -> Result<Graph, GraphError> {
        let mut g = Graph::grid(2, n).map_err(|e| match e {
            GraphError::BadSize { size, .. } => GraphError::BadSize {
                family: "ladder",
                size,
                range: "1..=64",
            },
            e => e,
        })?;
        g.notation = format!("ladder:{n}");
        Ok(g)
    }

    /// The star: vertex 0 joined to `k` leaves (`star:K`).
    pub fn star(k: usize) -> Result<Graph, GraphError> {
        check_count(k.saturating_add(1))?;
        let mut g = Graph::empty(k + 1, format!("star:{k}"));
        for v in 1..=k {
            g.add_edge(0, v);
        }
        Ok(g)
    }

    /// The complete graph `K_n` (`complete:N`, `n ≥ 1`).
    pub fn complete(n: usize) -> Result<Graph, GraphError> {
        if n == 0 {
            return Err(GraphError::BadSize {
                family: "complete",
                size: n,
                range: "1..=128",
            });
        }
        check_count(n)?;
        let mut g = Graph::empty(n, format!("complete:{n}"));
        for u in 0..n {
            for v in u + 1..n {
                g.add_edge(u, v);
            }
        }
        Ok(g)
    }

    /// The complete bipartite graph `K_{m,n}` (`complete:M,N`): vertices `0..m` on one side.
    pub fn complete_bipartite(m: usize, n: usize) -> Result<Graph, GraphError> {
        if m == 0 || n == 0 {
            return Err(GraphError::BadSize {
                family: "complete",
                size: m.min(n),
                range: "sides >= 1",
            });
        }
        check_count(m.saturating_add(n))?;
        let mut g = Graph::empty(m + n, format!("complete:{m},{n}"));
        for u in 0..m {
            for v in m..m + n {
                g.add_edge(u, v);
            }
        }
        Ok(g)
    }

    /// The generalized Petersen graph P(n, k) (`petersen:N,K`): the outer cycle `0..n`, the
    /// spokes `i – n + i`, and the inner vertices `n + i` joined to `n + (i + k mod n)`; `n ≥ 3`
    /// and `1 ≤ k < n/2` (so that it is a simple cubic graph). P(5, 2) is Petersen's graph;
    /// Node Kayles on P(n, 2) is OEIS A316533.
    pub fn petersen(n: usize, k: usize) -> Result<Graph, GraphError> {
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
        check_count(n.saturating_mul(2))?;
        let mut g = Graph::empty(2 * n, format!("petersen:{n},{k}"));
        for i in 0..n {
            g.add_edge(i, (i + 1) % n);
            g.add_edge(i, n + i);
            g.add_edge(n + i, n + (i + k) % n);
        }
        Ok(g)
    }

    /// The `n × n` queens graph (`queens:N`): square `r * n + c`, two squares joined when a
    /// queen on one attacks the other (same row, column or diagonal). Node Kayles on it is the
    /// non-attacking queens game (OEIS A344227: players place queens that attack none placed
    /// before, the last to place wins). `1 ≤ n ≤ 11`: the 11 × 11 board has 121 vertices, the
    /// 12 × 12 one 144, past [`MAX_VERTICES`]. It is not kept as a lattice
    /// ([`Graph::grid_shape`]): its edges are not the lattice's.
    pub fn queens(n: usize) -> Result<Graph, GraphError> {
        if n == 0 || n.saturating_mul(n) > MAX_VERTICES {
            return Err(GraphError::BadSize {
                family: "queens",
                size: n,
                range: "1..=11, at most 128 vertices",
            });
        }
        let mut g = Graph::empty(n * n, format!("queens:{n}"));
        for (a, b) in queens_edges(n) {
            g.add_edge(a, b);
        }
        g.board = Some((n, n));
        Ok(g)
    }

    /// A graph on vertices `0..n` with the given edges (`(u, u)` is a loop).
    pub fn from_edges(n: usize, edges: &[(usize, usize)]) -> Result<Graph, GraphError> {
        check_count(n)?;
        let mut g = Graph::empty(n, String::new());
        for &(u, v) in edges {
            for w in [u, v] {
                if w >= n {
                    return Err(GraphError::VertexOutOfRange {
                        edge: format!("{u}-{v}"),
                        vertex: w,
                        count: n,
                    });
                }
            }
            g.add_edge(u, v);
        }
        g.notation = g.edge_notation();
        Ok(g)
    }

    fn edge_notation(&self) -> String {
        let edges: Vec<String> = self
            .edges()
            .iter()
            .map(|(u, v)| format!("{u}-{v}"))
            .collect();
        let n = self.vertex_count();
        let implied = self.edges().iter().map(|&(u, v)| u.max(v) + 1).max();
        if edges.is_empty() || implied != Some(n) {
            format!("{n}:{}", edges.join(","))
        } else {
            edges.join(",")
        }
    }

    /// Reads the notation of the module documentation.
    pub fn parse(text: &str) -> Result<Graph, GraphError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(GraphError::Empty);
        }
        if let Some((name, arg)) = t.split_once(':') {
            let lname = name.trim().to_ascii_lowercase();
            if lname.bytes().all(|b| b.is_ascii_alphabetic()) && !lname.is_empty() {
                return match lname.as_str() {
                    "path" => Graph::path(number(arg)?),
                    "cycle" => Graph::cycle(number(arg)?),
                    "ladder" => Graph::ladder(number(arg)?),
                    "star" => Graph::star(number(arg)?),
                    "grid" => {
                        let (r, c) = arg
                            .split_once(['x', 'X'])
                            .ok_or_else(|| GraphError::BadNumber(arg.trim().to_string()))?;
                        Graph::grid(number(r)?, number(c)?)
                    }
                    "complete" => match arg.split_once(',') {
                        Some((m, n)) => Graph::complete_bipartite(number(m)?, number(n)?),
                        None => Graph::complete(number(arg)?),
                    },
                    "petersen" => {
                        let (n, k) = arg
                            .split_once(',')
                            .ok_or_else(|| GraphError::BadNumber(arg.trim().to_string()))?;
                        Graph::petersen(number(n)?, number(k)?)
                    }
                    "queens" => Graph::queens(number(arg)?),
                    _ => Err(GraphError::UnknownFamily(name.chars().take(20).collect())),
                };
            }
            // `N:edges`
            let n = number(name)?;
            check_count(n)?;
            let edges = parse_edges(arg)?;
            return Graph::from_edges(n, &edges);
        }
        if t.bytes().next().is_some_and(|b| b.is_ascii_alphabetic()) {
            return Err(GraphError::UnknownFamily(t.chars().take(20).collect()));
        }
        let edges = parse_edges(t)?;
        let n = edges.iter().map(|&(u, v)| u.max(v) + 1).max().unwrap_or(0);
        check_count(n)?;
        Graph::from_edges(n, &edges)
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

fn parse_edges(text: &str) -> Result<Vec<(usize, usize)>, GraphError> {
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
            if w >= MAX_VERTICES {
                return Err(GraphError::TooManyVertices(w + 1));
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
