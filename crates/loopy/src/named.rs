//! Loopy games on a graph file: the text format of [`grundy_core::graph`] (one edge `FROM TO`
//! per line, a lone name declares a vertex, `#` starts a comment), cycles allowed.
//!
//! [`analyze`] answers `grundy graph` for a loopy graph: every vertex's value, outcome,
//! remoteness and good moves, and with tokens their sum by Smith's rule with the moves of the
//! sum ([`LoopyGraphAnalysis`], which serializes to the JSON of `grundy graph`);
//! [`LoopyGraph::explain`] says in words why a vertex is won, lost or drawn.

use std::fmt::{self, Write as _};

use grundy_core::graph::{
    pad, push_json_members, push_json_str, push_json_u64, DiGraph, GraphError, PushJson,
    TokenMoves, JSON_PIECE,
};
use grundy_core::text::JsonU64;
use grundy_core::Move;

use crate::digraph::{Digraph, DigraphError};
use crate::label::{LabelledGraph, ValueTable};
use crate::value::Grundy;
use grundy_core::Outcome;

/// Why a loopy graph, or a question about it, was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoopyGraphError {
    /// The text is malformed, empty, or a token names no vertex (never a cycle here).
    #[error(transparent)]
    Graph(#[from] GraphError),
    /// More vertices or edges than can be numbered.
    #[error(transparent)]
    Size(#[from] DigraphError),
}

/// A graph with named vertices, labelled: cycles allowed.
#[derive(Clone, Debug)]
pub struct LoopyGraph {
    names: DiGraph,
    labelled: LabelledGraph,
}

/// One vertex: value, outcome, remoteness and good moves.
///
/// Serializes as `{"name", "grundy", "outcome", "remoteness", "winning_moves",
/// "drawing_moves"}`; `remoteness` is absent for a draw. The moves are the catalogue's
/// [`Move`]s of one token on the vertex, built by [`TokenMoves`] (`to` the graph with the token
/// moved, abbreviated to the token past [`grundy_core::graph::FULL_TO_UP_TO`] for the whole
/// answer), with the remoteness of the vertex moved onto in `at` (absent for a draw).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct LoopyVertex {
    /// The vertex's name.
    pub name: String,
    /// Its generalized Sprague–Grundy value.
    pub grundy: Grundy,
    /// Its outcome.
    pub outcome: Outcome,
    /// Its remoteness (Smith), absent for a draw.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "crate::digraph::json_u64_opt"
    )]
    pub remoteness: Option<u64>,
    /// The moves to P-positions, fastest win first.
    pub winning_moves: Vec<Move>,
    /// For a draw, the moves that keep it.
    pub drawing_moves: Vec<Move>,
}

/// Tokens on the graph: their sum's value by Smith's rule, outcome and good moves.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct LoopyTokenReport {
    /// The tokens' vertices, as given.
    pub tokens: Vec<String>,
    /// The sum's value.
    pub grundy: Grundy,
    /// Its outcome: `"D"` when neither player can force a win.
    pub outcome: Outcome,
    /// In an N-position, every move to a P-position, built by [`TokenMoves`] (`grundy` the
    /// sum's value after the move).
    pub winning_moves: Vec<Move>,
    /// In a drawn position, every move that keeps the draw (outcome `D`).
    pub drawing_moves: Vec<Move>,
    /// Each token's value (for the text; not serialized).
    #[serde(skip)]
    pub token_grundy: Vec<Grundy>,
    /// The winning and the drawing moves as [`LoopyGraphAnalysis::describe`] words them,
    /// written from the typed moves beside the [`Move`]s.
    #[serde(skip)]
    lines: [Vec<String>; 2],
}

/// The answer to `grundy graph` on a loopy graph.
///
/// Serializes as `{"vertices": [...], "tokens", "grundy", "outcome", "winning_moves",
/// "drawing_moves"}`, the fields after `vertices` only with tokens.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct LoopyGraphAnalysis {
    /// Every vertex, in order of first appearance in the file.
    pub vertices: Vec<LoopyVertex>,
    /// The tokens' answer, when tokens were given.
    #[serde(flatten)]
    pub tokens: Option<LoopyTokenReport>,
}

/// The answer to `grundy graph` on a loopy graph as [`LoopyGraph::answer`] makes it: the
/// vertices as rows, each made from the labelling as it is read or written, and the tokens'
/// part.
///
/// [`LoopyAnswer::write_json`] writes the JSON of the [`LoopyGraphAnalysis`] (the same bytes,
/// piece by piece) and its [`fmt::Display`] is [`LoopyGraphAnalysis::describe`]'s text, both
/// row by row.
#[derive(Clone, Debug)]
pub struct LoopyAnswer<'g> {
    /// Every vertex, in order of first appearance in the file.
    pub vertices: LoopyRows<'g>,
    /// The tokens' answer, when tokens were given.
    pub tokens: Option<LoopyTokenReport>,
}

impl LoopyAnswer<'_> {
    /// Writes the answer's JSON, the bytes serde_json writes for the [`LoopyGraphAnalysis`]
    /// (`{"vertices": [...], …}`, each vertex a [`LoopyVertex`] object, and with tokens the
    /// fields of [`LoopyTokenReport`]), handing it to `emit` in pieces of about
    /// [`JSON_PIECE`] bytes as the rows are made; the first error of `emit` stops the writing
    /// and is returned (the caller's writer: the library does no I/O). No newline at the end.
    pub fn write_json<E>(&self, mut emit: impl FnMut(&str) -> Result<(), E>) -> Result<(), E> {
        let rows = &self.vertices;
        let g = rows.graph;
        let mut out = String::with_capacity(JSON_PIECE + 4096);
        out.push_str("{\"vertices\":[");
        let n = rows.len();
        for start in (0..n).step_by(ROWS_AHEAD) {
            // Every move's target is a vertex anywhere in the graph: its labels and name are
            // read ahead for the next rows at once (a third of the time went waiting on them
            // one by one).
            let ahead = start..(start + ROWS_AHEAD).min(n);
            rows.values.read_ahead(ahead.clone());
            let options = g.labelled.graph().successors_of(ahead.clone());
            g.names.read_ahead(options.iter().map(|&w| w as usize));
            for v in ahead {
                if v > 0 {
                    out.push(',');
                }
                LoopyRow { rows, v }.push_json(&mut out);
            }
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

/// The rows [`LoopyAnswer::write_json`] reads ahead at a time.
const ROWS_AHEAD: usize = 32;

/// Every vertex of a labelled graph as rows ([`LoopyRows::iter`]).
#[derive(Clone, Debug)]
pub struct LoopyRows<'g> {
    graph: &'g LoopyGraph,
    /// Builds every move of the answer (the 2^20 rule decided for the whole answer).
    moves: TokenMoves<'g>,
    /// Every value, ready to write.
    values: ValueTable<'g>,
}

impl LoopyRows<'_> {
    /// The rows, in vertex order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = LoopyRow<'_>> + '_ {
        (0..self.graph.names.len()).map(move |v| LoopyRow { rows: self, v })
    }

    /// The number of rows (vertices).
    pub fn len(&self) -> usize {
        self.graph.names.len()
    }

    /// True when there is no row.
    pub fn is_empty(&self) -> bool {
        self.graph.names.is_empty()
    }

    /// True when every move's `to` is abbreviated to the tokens (the answer's moves × the
    /// graph's size pass [`grundy_core::graph::FULL_TO_UP_TO`]).
    pub fn abbreviated(&self) -> bool {
        self.moves.abbreviated()
    }
}

/// One vertex of a [`LoopyAnswer`], read from the labelling: what a [`LoopyVertex`] holds,
/// made on demand ([`LoopyRow::push_json`] writes the same JSON, its moves written one by one
/// as [`grundy_core::graph::MoveView`]s).
#[derive(Clone, Copy, Debug)]
pub struct LoopyRow<'a> {
    rows: &'a LoopyRows<'a>,
    v: usize,
}

impl<'a> LoopyRow<'a> {
    /// The vertex's number.
    pub fn vertex(&self) -> usize {
        self.v
    }

    /// The vertex's name.
    pub fn name(&self) -> &'a str {
        self.rows.graph.names.name(self.v)
    }

    /// Its generalized Sprague–Grundy value.
    pub fn grundy(&self) -> Grundy {
        self.rows.graph.labelled.value(self.v)
    }

    /// Its outcome.
    pub fn outcome(&self) -> Outcome {
        self.rows.graph.labelled.outcome(self.v)
    }

    /// Its remoteness (Smith), `None` for a draw.
    pub fn remoteness(&self) -> Option<u64> {
        self.rows.graph.labelled.remoteness(self.v)
    }

    /// The vertices its winning moves go to, fastest win first, and those its drawing moves
    /// go to: the moves of [`LoopyVertex`], by vertex.
    pub fn steps(&self) -> (Vec<usize>, Vec<usize>) {
        self.rows.graph.vertex_steps(self.v)
    }

    /// Appends the row's JSON to `out`: the bytes serde_json writes for the [`LoopyVertex`]
    /// of [`LoopyGraph::analyze`] (`name`, `grundy`, `outcome`, `remoteness` unless a draw,
    /// `winning_moves`, `drawing_moves`).
    pub fn push_json(&self, out: &mut String) {
        let rows = self.rows;
        let l = &rows.graph.labelled;
        let v = self.v;
        out.push_str("{\"name\":");
        push_json_str(out, self.name());
        out.push_str(",\"grundy\":");
        rows.values.value_of(v).push_json(out);
        out.push_str(",\"outcome\":");
        l.outcome(v).push_json(out);
        if let Some(r) = l.remoteness(v) {
            out.push_str(",\"remoteness\":");
            push_json_u64(out, r);
        }
        let (wins, draws) = self.steps();
        let from = std::slice::from_ref(&self.v);
        for (key, list) in [
            (",\"winning_moves\":[", wins),
            (",\"drawing_moves\":[", draws),
        ] {
            out.push_str(key);
            for (i, &w) in list.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                let m = rows
                    .moves
                    .view(from, 0, w, l.outcome(w), Some(rows.values.value_of(w)));
                match l.remoteness(w) {
                    Some(r) => m.at("remoteness", r).push_json(out),
                    None => m.push_json(out),
                }
            }
            out.push(']');
        }
        out.push('}');
    }
}

/// The text of [`LoopyGraphAnalysis::describe`], written row by row (one pass first for the
/// columns' widths).
impl fmt::Display for LoopyAnswer<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = self.vertices.graph;
        let l = &g.labelled;
        let width = (0..g.names.len())
            .map(|v| g.names.name(v).chars().count())
            .max()
            .unwrap_or(0)
            .max(6);
        let mut value = String::new();
        let mut vwidth = 6;
        for v in 0..l.len() {
            value.clear();
            let _ = write!(value, "{}", self.vertices.values.value_of(v));
            vwidth = vwidth.max(value.chars().count());
        }
        table_head(f, width, vwidth)?;
        for row in self.vertices.iter() {
            value.clear();
            let _ = write!(value, "{}", self.vertices.values.value_of(row.v));
            table_row(
                f,
                [row.name(), &value],
                [width, vwidth],
                row.outcome(),
                row.remoteness(),
            )?;
        }
        match &self.tokens {
            Some(t) => write_token_text(f, t),
            None => Ok(()),
        }
    }
}

/// The head of the table of vertices: names `width` wide, values `vwidth`.
fn table_head(f: &mut dyn fmt::Write, width: usize, vwidth: usize) -> fmt::Result {
    pad(f, "vertex", width)?;
    f.write_str("  ")?;
    pad(f, "grundy", vwidth)?;
    f.write_str("  outcome  remoteness\n")
}

/// One line of the table of vertices: the name and the value's text, padded to `widths`, the
/// outcome and the remoteness (`-` for a draw).
fn table_row(
    f: &mut dyn fmt::Write,
    [name, value]: [&str; 2],
    [width, vwidth]: [usize; 2],
    outcome: Outcome,
    remoteness: Option<u64>,
) -> fmt::Result {
    pad(f, name, width)?;
    f.write_str("  ")?;
    pad(f, value, vwidth)?;
    match remoteness {
        Some(r) => writeln!(f, "  {outcome}        {r}"),
        None => writeln!(f, "  {outcome}        -"),
    }
}

/// The tokens' part of the text: their sum by Smith's rule and its good moves.
fn write_token_text(s: &mut dyn fmt::Write, t: &LoopyTokenReport) -> fmt::Result {
    let terms: Vec<String> = t.token_grundy.iter().map(Grundy::to_string).collect();
    let verdict = match t.outcome {
        Outcome::P => "P-position: the player to move loses",
        Outcome::N => "N-position: the player to move wins",
        Outcome::D => "a draw: neither player can force a win; with best play this game never ends",
    };
    writeln!(
        s,
        "\ntokens on {}: value {} = {}, {verdict}",
        t.tokens.join(" "),
        terms.join(" + "),
        t.grundy
    )?;
    for (title, lines) in ["winning moves", "moves that keep the draw"]
        .into_iter()
        .zip(&t.lines)
    {
        if lines.is_empty() {
            continue;
        }
        writeln!(s, "{title} ({}):", lines.len())?;
        for line in lines {
            writeln!(s, "{line}")?;
        }
    }
    Ok(())
}

/// Parses a graph (cycles allowed), labels it and, with `tokens` (vertex names), values
/// their sum.
///
/// ```
/// use grundy_loopy::{analyze, Outcome};
///
/// // A cycle a -> b -> c -> a with one exit c -> x: b must move to c, which escapes to x.
/// let a = analyze("a b\nb c\nc a\nc x\n", &[] as &[&str])?;
/// let values: Vec<String> = a.vertices.iter().map(|v| v.grundy.to_string()).collect();
/// assert_eq!(values, ["1", "0", "2", "0"]);
/// assert_eq!(a.vertices[0].remoteness, Some(3)); // a -> b -> c -> x
/// // Two tokens on the drawn cycle a <-> b: a draw, either token keeps it.
/// let a = analyze("a b\nb a\n", &["a", "b"])?;
/// let t = a.tokens.unwrap();
/// assert_eq!((t.grundy.to_string(), t.outcome), ("∞".to_string(), Outcome::D));
/// assert_eq!(t.drawing_moves.len(), 2);
/// # Ok::<(), grundy_loopy::LoopyGraphError>(())
/// ```
pub fn analyze<S: AsRef<str>>(
    text: &str,
    tokens: &[S],
) -> Result<LoopyGraphAnalysis, LoopyGraphError> {
    LoopyGraph::parse(text)?.analyze(tokens)
}

impl LoopyGraph {
    /// Parses the text format (the same parser as [`DiGraph::parse`]: same errors, repeated
    /// edges once) and labels the graph; cycles are fine.
    pub fn parse(text: &str) -> Result<LoopyGraph, LoopyGraphError> {
        LoopyGraph::from_digraph(DiGraph::parse(text)?)
    }

    /// Labels an already parsed graph (cycles are only refused by its own solver).
    pub fn from_digraph(names: DiGraph) -> Result<LoopyGraph, LoopyGraphError> {
        // The successor lists in order are already the compact form: no sort.
        let mut offsets = Vec::with_capacity(names.len() + 1);
        let mut targets = Vec::with_capacity(names.edge_count());
        offsets.push(0);
        for v in 0..names.len() {
            targets.extend(names.successors(v).iter().map(|&w| w as u32));
            offsets.push(u32::try_from(targets.len()).unwrap_or(u32::MAX));
        }
        let graph = Digraph::from_csr(offsets, targets)?;
        Ok(LoopyGraph {
            names,
            labelled: LabelledGraph::new(graph),
        })
    }

    /// The named graph.
    pub fn names(&self) -> &DiGraph {
        &self.names
    }

    /// The labelling (vertex numbers as in [`Self::names`]).
    pub fn labelled(&self) -> &LabelledGraph {
        &self.labelled
    }

    /// Vertex `v`'s good moves as vertices: the winning ones fastest first, the drawing ones.
    fn vertex_steps(&self, v: usize) -> (Vec<usize>, Vec<usize>) {
        let l = &self.labelled;
        let mut wins = l.winning_moves(v);
        wins.sort_by_key(|&(_, r)| r);
        (
            wins.into_iter().map(|(w, _)| w).collect(),
            l.drawing_moves(v),
        )
    }

    /// Vertex `v` reported, its moves built by `b`.
    fn vertex_with(
        &self,
        v: usize,
        steps: (Vec<usize>, Vec<usize>),
        b: &TokenMoves,
    ) -> LoopyVertex {
        let l = &self.labelled;
        let moves = |list: Vec<usize>| {
            let typed: Vec<_> = list
                .iter()
                .map(|&w| (0, w, l.outcome(w), Some(l.value(w))))
                .collect();
            b.moves(&[v], &typed)
                .into_iter()
                .zip(&list)
                .map(|(m, &w)| match l.remoteness(w) {
                    Some(r) => m.at("remoteness", JsonU64(r)),
                    None => m,
                })
                .collect()
        };
        LoopyVertex {
            name: self.names.name(v).to_string(),
            grundy: l.value(v),
            outcome: l.outcome(v),
            remoteness: l.remoteness(v),
            winning_moves: moves(steps.0),
            drawing_moves: moves(steps.1),
        }
    }

    /// Vertex `v` reported: its moves are [`Move`]s of one token on `v`.
    pub fn vertex(&self, v: usize) -> LoopyVertex {
        let steps = self.vertex_steps(v);
        let b = TokenMoves::new(&self.names, steps.0.len() + steps.1.len());
        self.vertex_with(v, steps, &b)
    }

    /// Every vertex's report and, with `tokens` (vertex names, repeats allowed), their sum's.
    /// Every move is a [`Move`] built by [`TokenMoves`], the rule of
    /// [`grundy_core::graph::FULL_TO_UP_TO`] applied to all the moves of the answer together:
    /// past it each `to` is abbreviated to the tokens. The whole answer is built in memory;
    /// [`LoopyGraph::answer`] gives the same answer as rows, to write as they are produced.
    pub fn analyze<S: AsRef<str>>(
        &self,
        tokens: &[S],
    ) -> Result<LoopyGraphAnalysis, LoopyGraphError> {
        let at = self.token_vertices(tokens)?;
        let steps: Vec<_> = (0..self.names.len())
            .map(|v| self.vertex_steps(v))
            .collect();
        let sum = (!at.is_empty()).then(|| self.labelled.analyze_tokens(&at));
        let count = steps.iter().map(|(w, d)| w.len() + d.len()).sum::<usize>()
            + sum
                .as_ref()
                .map_or(0, |s| s.winning_moves.len() + s.drawing_moves.len());
        let b = TokenMoves::new(&self.names, count);
        let vertices = steps
            .into_iter()
            .enumerate()
            .map(|(v, st)| self.vertex_with(v, st, &b))
            .collect();
        Ok(LoopyGraphAnalysis {
            vertices,
            tokens: sum.map(|sum| self.token_report(tokens, &at, &sum, &b)),
        })
    }

    /// The answer of [`LoopyGraph::analyze`] made to be written as it is produced: each
    /// vertex is one row of [`LoopyAnswer::vertices`], its value and moves read from the
    /// labelling when the row is read or written (nothing per vertex is held). It writes the
    /// same JSON ([`LoopyAnswer::write_json`]) and [`fmt::Display`]s as the same text as the
    /// [`LoopyGraphAnalysis`],
    /// so a front end writes a graph of millions of vertices in the memory of the labelled
    /// graph itself. The rule of [`grundy_core::graph::FULL_TO_UP_TO`] is the same: the moves
    /// are counted first, but only up to one past [`TokenMoves::full_up_to`], so on a large
    /// graph the count stops at its first move.
    ///
    /// ```
    /// use grundy_loopy::LoopyGraph;
    ///
    /// let g = LoopyGraph::parse("a b\nb a\na x\n")?;
    /// let a = g.answer(&["a"])?;
    /// let rows: Vec<String> = a.vertices.iter().map(|r| format!("{} {}", r.name(), r.grundy())).collect();
    /// assert_eq!(rows, ["a 1", "b 0", "x 0"]);
    /// let old = g.analyze(&["a"])?;
    /// let mut json = String::new();
    /// a.write_json(|piece| Ok::<(), ()>(json.push_str(piece))).unwrap();
    /// assert_eq!(json, serde_json::to_string(&old).unwrap());
    /// assert_eq!(a.to_string(), old.describe());
    /// # Ok::<(), grundy_loopy::LoopyGraphError>(())
    /// ```
    pub fn answer<S: AsRef<str>>(&self, tokens: &[S]) -> Result<LoopyAnswer<'_>, LoopyGraphError> {
        let at = self.token_vertices(tokens)?;
        let sum = (!at.is_empty()).then(|| self.labelled.analyze_tokens(&at));
        let limit = TokenMoves::full_up_to(&self.names);
        let mut count = sum
            .as_ref()
            .map_or(0, |s| s.winning_moves.len() + s.drawing_moves.len());
        for v in 0..self.names.len() {
            if count > limit {
                break;
            }
            count += self.move_count(v);
        }
        let b = TokenMoves::new(&self.names, count);
        let tokens = sum.map(|sum| self.token_report(tokens, &at, &sum, &b));
        Ok(LoopyAnswer {
            vertices: LoopyRows {
                graph: self,
                moves: b,
                values: self.labelled.value_table(),
            },
            tokens,
        })
    }

    /// The vertices of the tokens named.
    fn token_vertices<S: AsRef<str>>(&self, tokens: &[S]) -> Result<Vec<usize>, LoopyGraphError> {
        Ok(tokens
            .iter()
            .map(|t| self.names.vertex(t.as_ref()))
            .collect::<Result<Vec<_>, _>>()?)
    }

    /// How many moves vertex `v` lists: its winning moves (an N-position) or those that keep
    /// its draw (a draw); a P-position lists none.
    fn move_count(&self, v: usize) -> usize {
        let l = &self.labelled;
        let keep = match l.outcome(v) {
            Outcome::P => return 0,
            Outcome::N => Outcome::P,
            Outcome::D => Outcome::D,
        };
        l.option_vertices(v)
            .into_iter()
            .filter(|&w| l.outcome(w) == keep)
            .count()
    }

    /// The tokens' part of an answer: the sum `sum` of the tokens `names` at vertices `at`,
    /// its moves built by `b`.
    fn token_report<S: AsRef<str>>(
        &self,
        names: &[S],
        at: &[usize],
        sum: &crate::sum::SumAnalysis,
        b: &TokenMoves,
    ) -> LoopyTokenReport {
        let moves = |list: &[crate::sum::TokenMove]| {
            let steps: Vec<_> = list
                .iter()
                .map(|m| (m.token, m.onto, m.grundy.outcome(), Some(m.grundy.clone())))
                .collect();
            b.moves(at, &steps)
        };
        let lines = |list: &[crate::sum::TokenMove]| {
            list.iter()
                .map(|m| {
                    format!(
                        "  token {}: {} -> {}   (sum becomes {})",
                        m.token,
                        self.names.name(m.from),
                        self.names.name(m.onto),
                        m.grundy
                    )
                })
                .collect()
        };
        LoopyTokenReport {
            tokens: names.iter().map(|t| t.as_ref().to_string()).collect(),
            grundy: sum.grundy.clone(),
            outcome: sum.outcome,
            winning_moves: moves(&sum.winning_moves),
            drawing_moves: moves(&sum.drawing_moves),
            token_grundy: at.iter().map(|&v| self.labelled.value(v)).collect(),
            lines: [lines(&sum.winning_moves), lines(&sum.drawing_moves)],
        }
    }

    /// Why the vertex `name` is won, lost or drawn, in words: for a draw, which moves keep it
    /// and how the opponent wins after any other move.
    ///
    /// ```
    /// use grundy_loopy::LoopyGraph;
    ///
    /// let g = LoopyGraph::parse("a b\nb a\na c\nc d\n")?;
    /// let text = g.explain("a")?;
    /// assert!(text.starts_with("a is a draw"), "{text}");
    /// assert!(text.contains("a -> b keeps the draw"), "{text}");
    /// assert!(text.contains("a -> c loses: the opponent answers c -> d"), "{text}");
    /// # Ok::<(), grundy_loopy::LoopyGraphError>(())
    /// ```
    pub fn explain(&self, name: &str) -> Result<String, LoopyGraphError> {
        let v = self.names.vertex(name)?;
        Ok(explain_vertex(&self.labelled, v, &|w| {
            self.names.name(w).to_string()
        }))
    }
}

impl LoopyGraph {
    /// Why tokens on `tokens` (vertex names) are won, lost or drawn, in words: the sum by
    /// Smith's rule, and for a draw which moves keep it and how the opponent wins after each
    /// other move (that winning reply named).
    ///
    /// ```
    /// use grundy_loopy::LoopyGraph;
    ///
    /// // a and c are each won (exits x and y) but together drawn.
    /// let g = LoopyGraph::parse("a x\na b\nb a\nb b\nc y\nc d\nd c\nd d\n")?;
    /// let text = g.explain_tokens(&["a", "c"])?;
    /// assert!(text.starts_with("tokens on a c: value ∞(0) + ∞(0) = ∞, a draw"), "{text}");
    /// assert!(text.contains("two or more tokens stand on infinite values"), "{text}");
    /// assert!(text.contains("token 0 a -> b keeps the draw"), "{text}");
    /// assert!(text.contains("token 0 a -> x loses: the opponent moves token 1 c -> y"), "{text}");
    /// # Ok::<(), grundy_loopy::LoopyGraphError>(())
    /// ```
    pub fn explain_tokens<S: AsRef<str>>(&self, tokens: &[S]) -> Result<String, LoopyGraphError> {
        let at = tokens
            .iter()
            .map(|t| self.names.vertex(t.as_ref()))
            .collect::<Result<Vec<_>, _>>()?;
        let l = &self.labelled;
        let name = |v: usize| self.names.name(v);
        let sum = l.analyze_tokens(&at);
        let terms: Vec<String> = at.iter().map(|&v| l.value(v).to_string()).collect();
        let on: Vec<&str> = at.iter().map(|&v| name(v)).collect();
        let mut s = String::new();
        let verdict = match sum.outcome {
            Outcome::P => "a P-position: the player to move loses",
            Outcome::N => "an N-position: the player to move wins",
            Outcome::D => "a draw",
        };
        let _ = writeln!(
            s,
            "tokens on {}: value {} = {}, {verdict}.",
            on.join(" "),
            terms.join(" + "),
            sum.grundy
        );
        if sum.outcome == Outcome::D {
            let infinite = at.iter().filter(|&&v| l.finite(v).is_none()).count();
            let why = if infinite >= 2 {
                "two or more tokens stand on infinite values, and by Smith's rule such a sum is \
                 ∞: neither player can force a win, and with best play the game never ends."
                    .to_string()
            } else {
                let k = at
                    .iter()
                    .map(|&v| l.value(v))
                    .find(|v| !v.is_finite())
                    .unwrap_or(Grundy::infinite([]));
                let n = at.iter().filter_map(|&v| l.finite(v)).fold(0, |a, b| a ^ b);
                format!(
                    "one token stands on an infinite value, {k}, and the others add up to {n}; \
                     by Smith's rule the sum is {}, which holds no 0, so no move reaches a \
                     P-position: neither player can force a win, and with best play the game \
                     never ends.",
                    sum.grundy
                )
            };
            let _ = writeln!(s, "Why: {why}");
        }
        let mut listed = 0;
        for (token, &from) in at.iter().enumerate() {
            for onto in l.option_vertices(from) {
                let mut after = at.clone();
                after[token] = onto;
                let a = l.analyze_tokens(&after);
                let verb = match (sum.outcome, a.outcome) {
                    (Outcome::N, Outcome::P) => "wins".to_string(),
                    (Outcome::D, Outcome::D) => "keeps the draw".to_string(),
                    (_, Outcome::N) => match a.winning_moves.first() {
                        Some(r) => format!(
                            "loses: the opponent moves token {} {} -> {} (value {})",
                            r.token,
                            name(r.from),
                            name(r.onto),
                            r.grundy
                        ),
                        None => "loses".to_string(),
                    },
                    _ => continue,
                };
                let _ = writeln!(
                    s,
                    "  token {token} {} -> {} {verb} (sum {}).",
                    name(from),
                    name(onto),
                    a.grundy
                );
                listed += 1;
                if listed >= EXPLAIN_MAX_MOVES {
                    let _ = writeln!(s, "  …");
                    return Ok(s);
                }
            }
        }
        Ok(s)
    }
}

/// Remoteness in words: "in 1 move", "in 3 moves".
fn moves_text(r: u64) -> String {
    if r == 1 {
        "1 move".to_string()
    } else {
        format!("{r} moves")
    }
}

/// The most moves an explanation lists one by one (the rest are counted).
pub const EXPLAIN_MAX_MOVES: usize = 50;

/// The explanation of [`LoopyGraph::explain`] for vertex `v`, naming vertices with `name`
/// (at most [`EXPLAIN_MAX_MOVES`] moves listed).
pub fn explain_vertex(l: &LabelledGraph, v: usize, name: &dyn Fn(usize) -> String) -> String {
    let mut s = String::new();
    let me = name(v);
    let value = l.value(v);
    let mut options = l.option_vertices(v);
    let more = options.len().saturating_sub(EXPLAIN_MAX_MOVES);
    options.truncate(EXPLAIN_MAX_MOVES);
    // The opponent's fastest win from an N-position `w`.
    let reply = |w: usize| {
        l.winning_moves(w)
            .into_iter()
            .min_by_key(|&(_, r)| r)
            .map(|(x, _)| x)
    };
    match l.outcome(v) {
        Outcome::P if options.is_empty() => {
            let _ = writeln!(
                s,
                "{me} is a P-position (value 0): there is no move, so the player to move loses."
            );
        }
        Outcome::P => {
            let r = l.remoteness(v).unwrap_or(0);
            let _ = writeln!(
                s,
                "{me} is a P-position (value 0): every move goes to an N-position, and the \
                 opponent wins; the player to move can delay the loss to {}.",
                moves_text(r)
            );
            for w in options {
                if let Some(x) = reply(w) {
                    let _ = writeln!(
                        s,
                        "  {me} -> {} loses: the opponent answers {} -> {} (a P-position) and \
                         wins; the game ends {} after {me} -> {}.",
                        name(w),
                        name(w),
                        name(x),
                        moves_text(l.remoteness(w).unwrap_or(0)),
                        name(w)
                    );
                }
            }
        }
        Outcome::N => {
            let r = l.remoteness(v).unwrap_or(0);
            let _ = writeln!(
                s,
                "{me} is an N-position (value {value}): the player to move wins in {} by \
                 moving to a P-position.",
                moves_text(r)
            );
            let mut wins = l.winning_moves(v);
            wins.sort_by_key(|&(_, r)| r);
            wins.truncate(EXPLAIN_MAX_MOVES);
            for (w, rw) in wins {
                let end = if rw == 0 {
                    "the opponent has no move".to_string()
                } else {
                    format!("the opponent loses in {} more", moves_text(rw))
                };
                let _ = writeln!(s, "  {me} -> {} wins: {end}.", name(w));
            }
        }
        Outcome::D => {
            let _ = writeln!(
                s,
                "{me} is a draw (value {value}): no move reaches a P-position, so the player to \
                 move cannot force a win, and the opponent cannot force one either as long as \
                 play stays on drawn positions; with best play the game never ends."
            );
            for w in options {
                match l.outcome(w) {
                    Outcome::D => {
                        let _ = writeln!(
                            s,
                            "  {me} -> {} keeps the draw ({} is a draw, value {}).",
                            name(w),
                            name(w),
                            l.value(w)
                        );
                    }
                    _ => {
                        if let Some(x) = reply(w) {
                            let _ = writeln!(
                                s,
                                "  {me} -> {} loses: the opponent answers {} -> {} (a \
                                 P-position) and wins; the game ends {} after {me} -> {}.",
                                name(w),
                                name(w),
                                name(x),
                                moves_text(l.remoteness(w).unwrap_or(0)),
                                name(w)
                            );
                        }
                    }
                }
            }
        }
    }
    if more > 0 {
        let _ = writeln!(s, "  … and {more} more moves");
    }
    s
}

impl LoopyGraphAnalysis {
    /// The analysis as text: a table of every vertex's value, outcome and remoteness, then,
    /// with tokens, their sum by Smith's rule and its good moves.
    pub fn describe(&self) -> String {
        let mut s = String::new();
        let width = self
            .vertices
            .iter()
            .map(|v| v.name.chars().count())
            .max()
            .unwrap_or(0)
            .max(6);
        let values: Vec<String> = self.vertices.iter().map(|v| v.grundy.to_string()).collect();
        let vwidth = values
            .iter()
            .map(|t| t.chars().count())
            .max()
            .unwrap_or(0)
            .max(6);
        let _ = table_head(&mut s, width, vwidth);
        for (v, value) in self.vertices.iter().zip(&values) {
            let _ = table_row(
                &mut s,
                [&v.name, value],
                [width, vwidth],
                v.outcome,
                v.remoteness,
            );
        }
        if let Some(t) = &self.tokens {
            let _ = write_token_text(&mut s, t);
        }
        s
    }
}
