//! Games on a directed graph in the catalogue (`digraph`): tokens on vertices, a move slides
//! one token along an edge.
//!
//! A position is the graph's text (one edge `FROM TO` a line, or a lone vertex name; `#`
//! starts a comment; lines may also be separated by `;`) followed by a line `@ V W …` naming
//! the vertices that hold a token (repeats allowed): `a b; b c; a c; @ a`. Kind `"digraph"`,
//! fields `edges` (pairs of names) and `tokens` (names). Reading a file by its path is the
//! CLI's convenience (`grundy graph FILE`); the library reads only text.

use grundy_core::catalogue::{
    explain_by_options, explain_misere, Ask, Entry, Error, Grundy, Info, Move, Play, Position,
    Report, Result, Rules,
};
use grundy_core::graph::{self, DiGraph};

use crate::Outcome;

/// The most edges a position's graph may have.
pub const MAX_EDGES: usize = 1_000_000;

/// The `digraph` entry.
pub struct DigraphEntry;

impl Entry for DigraphEntry {
    fn info(&self) -> Info {
        Info {
            name: "digraph".into(),
            aliases: vec!["graph".into()],
            summary: "Tokens on a directed acyclic graph: a move slides one token along an edge"
                .into(),
            example: "a b; b c; a c; c d; @ a b".into(),
            example_game: None,
            position: "the graph's edges `FROM TO` separated by newlines or `;`, then `@` and the \
                       token vertices: `a b; b c; @ a`"
                .into(),
            kind: "digraph".into(),
            family: false,
            misere: true,
            loopy: false,
            scoring: false,
            params: Vec::new(),
        }
    }

    fn matches(&self, name: &str) -> bool {
        name == "digraph" || name == "graph"
    }

    fn open(&self, _name: &str) -> Result<Box<dyn Rules>> {
        Ok(Box::new(DigraphRules))
    }
}

struct DigraphRules;

/// A parsed position: the graph, every vertex's value, the tokens.
struct Parsed {
    graph: DiGraph,
    values: Vec<u64>,
    tokens: Vec<usize>,
}

/// A graph search's error in the catalogue's words: its budget is a limit, the rest input.
fn graph_error(e: graph::GraphError) -> Error {
    match e {
        graph::GraphError::Limit(l) => l.into(),
        e => Error::input(e.to_string()),
    }
}

fn read(text: &str) -> Result<Parsed> {
    let (lines, names) = graph::split_token_text(text);
    if lines.len() > MAX_EDGES {
        return Err(Error::limit(format!(
            "{} lines: a graph has at most {MAX_EDGES} edges",
            lines.len()
        )));
    }
    let graph = DiGraph::parse(&lines.join("\n")).map_err(|e| Error::input(e.to_string()))?;
    let values = graph
        .grundy_values()
        .map_err(|e| Error::input(e.to_string()))?;
    let tokens = names
        .iter()
        .map(|n| graph.vertex(n).map_err(|e| Error::input(e.to_string())))
        .collect::<Result<Vec<_>>>()?;
    Ok(Parsed {
        graph,
        values,
        tokens,
    })
}

fn position(p: &Parsed, tokens: &[usize]) -> Position {
    graph::token_position(&p.graph, tokens)
}

impl Rules for DigraphRules {
    fn name(&self) -> String {
        "digraph".into()
    }

    fn parse(&self, text: &str) -> Result<Position> {
        let p = read(text)?;
        Ok(position(&p, &p.tokens))
    }

    fn moves(&mut self, pos: &Position, ask: &Ask) -> Result<Vec<Move>> {
        let (play, budget) = (ask.play, &ask.budget);
        let p = read(&pos.text)?;
        let mut out = Vec::new();
        for (i, &from) in p.tokens.iter().enumerate() {
            for &onto in p.graph.successors(from) {
                let mut to = p.tokens.clone();
                to[i] = onto;
                let (outcome, grundy) = match play {
                    Play::Normal => {
                        let g = to.iter().fold(0, |a, &v| a ^ p.values[v]);
                        (Outcome::from_grundy(g), Some(Grundy::Finite(g)))
                    }
                    Play::Misere => {
                        let o = graph::misere_outcome_capped(&p.graph, &to, budget)
                            .map_err(graph_error)?;
                        (o, None)
                    }
                };
                let text = format!(
                    "move the token on {} to {}",
                    p.graph.name(from),
                    p.graph.name(onto)
                );
                let short = format!("{} → {}", p.graph.name(from), p.graph.name(onto));
                // Where a picture takes the click: the token (its place in the list) and the
                // vertices it leaves and moves onto, as the loopy digraph's moves say it.
                let mut m = Move::new(text, &short, position(&p, &to), outcome, None)
                    .at("token", i)
                    .at("from", p.graph.name(from))
                    .at("onto", p.graph.name(onto));
                m.grundy = grundy;
                out.push(m);
            }
        }
        Ok(out)
    }

    fn analyze(&mut self, pos: &Position, ask: &Ask) -> Result<Report> {
        let play = ask.play;
        let p = read(&pos.text)?;
        let moves = self.moves(pos, ask)?;
        let (outcome, grundy) = match play {
            Play::Normal => {
                let g = p.tokens.iter().fold(0, |a, &v| a ^ p.values[v]);
                (Outcome::from_grundy(g), Some(g))
            }
            Play::Misere => {
                let o = graph::misere_outcome_capped(&p.graph, &p.tokens, &ask.budget)
                    .map_err(graph_error)?;
                (o, None)
            }
        };
        let mut r = Report::new(
            "digraph",
            position(&p, &p.tokens),
            play,
            outcome,
            grundy.map(Grundy::Finite),
        );
        r.explanation = match grundy {
            Some(g) if p.tokens.len() == 1 => explain_by_options(g, &moves),
            Some(g) => {
                let vals: Vec<String> = p
                    .tokens
                    .iter()
                    .map(|&v| format!("{} has value {}", p.graph.name(v), p.values[v]))
                    .collect();
                vec![format!(
                    "Each token is a game of its own: {}; the XOR is {g}.",
                    vals.join(", ")
                )]
            }
            None => explain_misere(outcome, &moves),
        };
        let values: serde_json::Map<String, serde_json::Value> = (0..p.graph.len())
            .map(|v| (p.graph.name(v).to_string(), p.values[v].into()))
            .collect();
        r.details = serde_json::json!({ "values": values });
        r.detail = ask.detail;
        Ok(r.with_moves(moves))
    }
}
