//! Games on a directed graph: the textbook model of every finite impartial game.
//!
//! Tokens sit on vertices; a move slides one token along an edge; a player who cannot move
//! loses. A vertex's Grundy value is the mex of its successors' values, and a set of tokens is
//! the sum of one-token games, valued by the XOR of their vertices' values.
//!
//! Text format: one edge `FROM TO` per line; vertex names are any whitespace-free tokens; a
//! line with one name declares a vertex (e.g. a sink with no edges); `#` starts a comment.

use crate::fxhash::FxHashMap;
use crate::game::{Game, Outcome};
use crate::mex::Mex;

/// Why a graph, or a request about it, was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GraphError {
    #[error("line {line}: expected 'FROM TO' or one vertex name, found extra token '{token}'")]
    Malformed { line: usize, token: String },
    #[error("the graph has no vertices")]
    Empty,
    /// A cycle, as vertex names: `path[0] -> path[1] -> … -> path[0]`.
    #[error("the graph has a cycle: {}", cycle_text(.path))]
    Cycle { path: Vec<String> },
    #[error("unknown vertex '{0}'")]
    UnknownVertex(String),
}

fn cycle_text(path: &[String]) -> String {
    let mut s = path.join(" -> ");
    if let Some(first) = path.first() {
        s.push_str(" -> ");
        s.push_str(first);
    }
    s
}

/// A directed graph with named vertices (in order of first appearance).
#[derive(Clone, Debug, Default)]
pub struct DiGraph {
    names: Vec<String>,
    index: FxHashMap<String, usize>,
    succ: Vec<Vec<usize>>,
}

impl DiGraph {
    /// An empty graph.
    pub fn new() -> Self {
        DiGraph::default()
    }

    /// Parses the text format (see the module docs). Repeated edges count once.
    pub fn parse(text: &str) -> Result<Self, GraphError> {
        let mut g = DiGraph::new();
        for (i, line) in text.lines().enumerate() {
            let content = line.split('#').next().unwrap_or("");
            let mut words = content.split_whitespace();
            match (words.next(), words.next(), words.next()) {
                (None, _, _) => {}
                (Some(v), None, _) => {
                    g.add_vertex(v);
                }
                (Some(a), Some(b), None) => {
                    let (a, b) = (g.add_vertex(a), g.add_vertex(b));
                    g.add_edge(a, b);
                }
                (Some(_), Some(_), Some(extra)) => {
                    return Err(GraphError::Malformed {
                        line: i + 1,
                        token: extra.to_string(),
                    })
                }
            }
        }
        if g.is_empty() {
            return Err(GraphError::Empty);
        }
        Ok(g)
    }

    /// The vertex named `name`, added if new.
    pub fn add_vertex(&mut self, name: &str) -> usize {
        if let Some(&v) = self.index.get(name) {
            return v;
        }
        let v = self.names.len();
        self.names.push(name.to_string());
        self.index.insert(name.to_string(), v);
        self.succ.push(Vec::new());
        v
    }

    /// Adds the edge `a -> b` (once).
    pub fn add_edge(&mut self, a: usize, b: usize) {
        if !self.succ[a].contains(&b) {
            self.succ[a].push(b);
        }
    }

    /// Number of vertices.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// True if there is no vertex.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The vertex with this name.
    pub fn vertex(&self, name: &str) -> Result<usize, GraphError> {
        self.index
            .get(name)
            .copied()
            .ok_or_else(|| GraphError::UnknownVertex(name.to_string()))
    }

    /// The name of vertex `v`.
    pub fn name(&self, v: usize) -> &str {
        &self.names[v]
    }

    /// The vertices one move from `v`.
    pub fn successors(&self, v: usize) -> &[usize] {
        &self.succ[v]
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
                if let Some(&w) = self.succ[v].get(*next) {
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
                                .map(|&(u, _)| self.names[u].clone())
                                .collect();
                            return Err(GraphError::Cycle { path });
                        }
                        _ => {}
                    }
                } else {
                    let succ = &self.succ[v];
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
        out.extend_from_slice(&self.succ[v]);
    }
}

/// Moving token `token` (its index in the token list) from vertex `from` to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TokenMove {
    pub token: usize,
    pub from: usize,
    pub to: usize,
}

/// The value, outcome and winning moves of tokens on a graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenAnalysis {
    /// XOR of the values of the tokens' vertices.
    pub grundy: u64,
    pub outcome: Outcome,
    /// Every winning move: a token moved to a vertex of value `g(from) ⊕ grundy`.
    pub winning_moves: Vec<TokenMove>,
}

/// Analyses tokens at `tokens` (vertices, repeats allowed), given every vertex's `values`.
pub fn analyze_tokens(graph: &DiGraph, values: &[u64], tokens: &[usize]) -> TokenAnalysis {
    let grundy = tokens.iter().fold(0, |a, &v| a ^ values[v]);
    let mut winning_moves = Vec::new();
    if grundy != 0 {
        for (token, &from) in tokens.iter().enumerate() {
            let target = values[from] ^ grundy;
            for &to in graph.successors(from) {
                if values[to] == target {
                    winning_moves.push(TokenMove { token, from, to });
                }
            }
        }
    }
    TokenAnalysis {
        grundy,
        outcome: Outcome::from_grundy(grundy),
        winning_moves,
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
/// the outcome and every winning move, by direct search of the whole token position (misère
/// values do not add). The work grows with the number of token placements reachable.
pub fn misere_tokens(
    graph: &DiGraph,
    tokens: &[usize],
) -> Result<(Outcome, Vec<TokenMove>), GraphError> {
    graph.grundy_values()?; // rejects a cycle, naming it
    let mut solver = crate::solver::Solver::new(Tokens(graph));
    let mut sorted = tokens.to_vec();
    sorted.sort_unstable();
    let outcome = solver.misere_outcome(&sorted);
    let mut moves = Vec::new();
    for (token, &from) in tokens.iter().enumerate() {
        for &to in graph.successors(from) {
            let mut next = tokens.to_vec();
            next[token] = to;
            next.sort_unstable();
            if solver.misere_outcome(&next) == Outcome::P {
                moves.push(TokenMove { token, from, to });
            }
        }
    }
    Ok((outcome, moves))
}
