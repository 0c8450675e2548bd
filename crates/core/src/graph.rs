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
use crate::text::{escape, quote, JsonU64};

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
    names: Vec<String>,
    index: FxHashMap<String, usize>,
    succ: Vec<Vec<usize>>,
    /// Every edge once, so that a repeated edge is found in constant time (a scan of the
    /// successor list made loading quadratic on a vertex of high degree).
    edges: FxHashMap<(usize, usize), ()>,
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

    /// Adds the edge `a -> b` (once: a repeated edge is ignored, in constant time).
    pub fn add_edge(&mut self, a: usize, b: usize) {
        if self.edges.insert((a, b), ()).is_none() {
            self.succ[a].push(b);
        }
    }

    /// Number of edges (each counted once).
    pub fn edge_count(&self) -> usize {
        self.edges.len()
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
        TokenMoves { g, graph }
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

/// One move of tokens on a graph as [`TokenMoves::view`] makes it: it serializes to the same
/// JSON, byte for byte, as the [`Move`] that [`TokenMoves::moves`] builds for that step, but
/// is written straight from vertex indices (no `Move`, `Position` or JSON value is built), so
/// an answer listing millions of moves is written as it is produced, in constant memory.
/// `G` is the value written as the move's `grundy` (absent when `None`).
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

impl<G> MoveView<'_, G> {
    /// Adds the entry `key` with the count `value` to the move's `at`, as
    /// `Move::at(key, JsonU64(value))` does.
    pub fn at(mut self, key: &'static str, value: u64) -> Self {
        self.extra = Some((key, value));
        self
    }

    /// The names of the tokens' vertices after the move.
    fn after(&self) -> impl Iterator<Item = &str> + Clone + '_ {
        let g = self.moves.g;
        (0..self.tokens.len()).map(move |i| {
            g.name(if i == self.token {
                self.onto
            } else {
                self.tokens[i]
            })
        })
    }

    /// The line `@ V W …` of the tokens after the move, as [`TokenMoves::moves`] writes it
    /// (trailing whitespace trimmed).
    fn write_at_line(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = self.after();
        let last = names.clone().last().unwrap_or("");
        if last.is_empty() || last.ends_with(char::is_whitespace) {
            // Names from a file never end so; one built by hand is trimmed as a whole.
            let joined: Vec<&str> = names.collect();
            return f.write_str(format!("@ {}", joined.join(" ")).trim_end());
        }
        f.write_str("@")?;
        for name in names {
            f.write_str(" ")?;
            f.write_str(name)?;
        }
        Ok(())
    }
}

/// Text written by a closure: a [`fmt::Display`], serialized as a JSON string written as it
/// is formatted (no `String` built).
struct Shown<F>(F);

impl<F: Fn(&mut fmt::Formatter<'_>) -> fmt::Result> fmt::Display for Shown<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (self.0)(f)
    }
}

impl<F: Fn(&mut fmt::Formatter<'_>) -> fmt::Result> serde::Serialize for Shown<F> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// The fields of [`Move`] in its order: `text`, `short`, `to`, `outcome`, `grundy`, `at`.
impl<G: serde::Serialize> serde::Serialize for MoveView<'_, G> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let g = self.moves.g;
        let (a, b) = (g.name(self.tokens[self.token]), g.name(self.onto));
        let token = self.token;
        let one = self.tokens.len() == 1;
        let mut m = s.serialize_struct("Move", 6)?;
        m.serialize_field(
            "text",
            &Shown(|f: &mut fmt::Formatter<'_>| {
                if one {
                    write!(f, "move the token from {a} to {b}")
                } else {
                    write!(f, "move token {token} from {a} to {b}")
                }
            }),
        )?;
        // "a → b" has at most as many characters as bytes: no cut when the bytes fit.
        if a.len() + b.len() + 3 <= SHORT_WIDTH {
            m.serialize_field(
                "short",
                &Shown(|f: &mut fmt::Formatter<'_>| write!(f, "{a} → {b}")),
            )?;
        } else {
            m.serialize_field("short", &shorten(&format!("{a} → {b}"), SHORT_WIDTH))?;
        }
        m.serialize_field("to", &ToView(self))?;
        m.serialize_field("outcome", &self.outcome)?;
        match &self.grundy {
            Some(v) => m.serialize_field("grundy", v)?,
            None => m.skip_field("grundy")?,
        }
        m.serialize_field("at", &AtView(self))?;
        m.end()
    }
}

/// The width of [`Move::short`].
const SHORT_WIDTH: usize = 30;

/// A [`MoveView`]'s `to`: the [`Position`] of kind `"digraph"` that [`TokenMoves::moves`]
/// builds, its fields in the order a `Position` writes them (`kind`, `text`, then its own
/// fields sorted by name).
struct ToView<'v, 'a, G>(&'v MoveView<'a, G>);

impl<G> serde::Serialize for ToView<'_, '_, G> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let v = self.0;
        let mut m = s.serialize_struct("Position", 4)?;
        m.serialize_field("kind", "digraph")?;
        match &v.moves.graph {
            Some((graph_text, edges)) => {
                m.serialize_field(
                    "text",
                    &Shown(|f: &mut fmt::Formatter<'_>| {
                        if !graph_text.is_empty() {
                            f.write_str(graph_text)?;
                            f.write_str("; ")?;
                        }
                        v.write_at_line(f)
                    }),
                )?;
                m.serialize_field("edges", edges)?;
                m.serialize_field("tokens", &Names(v))?;
            }
            None => {
                m.serialize_field(
                    "text",
                    &Shown(|f: &mut fmt::Formatter<'_>| v.write_at_line(f)),
                )?;
                m.serialize_field("abbreviated", &true)?;
                m.serialize_field("tokens", &Names(v))?;
            }
        }
        m.end()
    }
}

/// The names of the tokens' vertices after a [`MoveView`]'s move, as a JSON list.
struct Names<'v, 'a, G>(&'v MoveView<'a, G>);

impl<G> serde::Serialize for Names<'_, '_, G> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.after())
    }
}

/// A [`MoveView`]'s `at`: `token`, `from`, `onto` and the extra entry, sorted by name as the
/// `at` map of a [`Move`] writes them.
struct AtView<'v, 'a, G>(&'v MoveView<'a, G>);

impl<G> serde::Serialize for AtView<'_, '_, G> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        /// One entry's value.
        enum Value<'n> {
            Name(&'n str),
            Count(u64),
        }
        let v = self.0;
        let g = v.moves.g;
        let mut entries = [
            ("from", Some(Value::Name(g.name(v.tokens[v.token])))),
            ("onto", Some(Value::Name(g.name(v.onto)))),
            ("token", Some(Value::Count(v.token as u64))),
            ("", None),
        ];
        if let Some((key, n)) = v.extra {
            entries[3] = (key, Some(Value::Count(n)));
        }
        entries.sort_by_key(|&(key, _)| key);
        let mut m = s.serialize_map(Some(3 + usize::from(v.extra.is_some())))?;
        for (key, value) in &entries {
            match value {
                Some(Value::Name(n)) => m.serialize_entry(key, n)?,
                Some(Value::Count(n)) => m.serialize_entry(key, &JsonU64(*n))?,
                None => {}
            }
        }
        m.end()
    }
}

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
                name: self.names[v].clone(),
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
    /// read or written (nothing per vertex is held but its value). It serializes to the same
    /// JSON and [`fmt::Display`]s as the same text as the [`GraphAnalysis`], so a front end
    /// writes a graph of millions of vertices in the memory of the graph itself.
    ///
    /// ```
    /// use grundy_core::graph::{DiGraph, GraphOptions};
    ///
    /// let g = DiGraph::parse("a b\nb c\n")?;
    /// let a = g.answer(&["a", "b"], &GraphOptions::default())?;
    /// let values: Vec<(&str, u64)> = a.vertices.iter().map(|r| (r.name, r.grundy)).collect();
    /// assert_eq!(values, [("a", 0), ("b", 1), ("c", 0)]);
    /// let old = g.analyze(&["a", "b"], &GraphOptions::default())?;
    /// assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&old).unwrap());
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
                    self.names[from].clone(),
                    self.names[onto].clone(),
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
/// Serializes as [`GraphAnalysis`] does, to the same bytes (`{"vertices": [{"name",
/// "grundy"}], …}` and the fields of [`TokenReport`] with tokens), and displays as
/// [`GraphAnalysis::describe`]'s text: both are written row by row.
#[derive(Clone, Debug, serde::Serialize)]
pub struct GraphAnswer<'g> {
    /// Every vertex with its value, in order of first appearance in the file.
    pub vertices: VertexRows<'g>,
    /// The tokens' answer, when tokens were given.
    #[serde(flatten)]
    pub tokens: Option<TokenReport>,
}

/// Every vertex of a graph with its Grundy value, as rows ([`VertexRows::iter`]); serializes
/// as the JSON list of the rows, written as they are made.
#[derive(Clone, Debug)]
pub struct VertexRows<'g> {
    graph: &'g DiGraph,
    values: Vec<u64>,
}

/// One vertex and its Grundy value, borrowed from the graph: what [`VertexValue`] holds, and
/// serialized the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
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

impl serde::Serialize for VertexRows<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
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
