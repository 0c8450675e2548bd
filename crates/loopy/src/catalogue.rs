//! Loopy games in the catalogue: the family `windup:N:S` and tokens on a directed graph that
//! may have cycles (`loopy-digraph`). Values are Smith's, outcomes P, N or D; a move's outcome
//! is that of the sum it leaves, so play can keep a draw.
//!
//! Positions of `windup:N:S`: the tokens' places `x y …` (a sum of tokens, `2` alone for one),
//! kind `"tokens"`, field `tokens`. Positions of `loopy-digraph`: the graph's edges `FROM TO`
//! separated by newlines or `;`, then `@` and the token vertices (`a b; b a; a c; @ a`), kind
//! `"digraph"`, fields `edges` and `tokens`.

use grundy_core::catalogue::{
    Ask, Detail, Entry, Error, Info, Move, Play, Position, Report, Result, Rules,
};
use grundy_core::graph::DiGraph;
use grundy_core::Outcome;

use crate::label::LabelledGraph;
use crate::windup::Windup;

/// The most tokens of a position.
pub const MAX_TOKENS: usize = 64;

/// The catalogue entries of this crate.
pub fn entries() -> Vec<Box<dyn Entry>> {
    vec![Box::new(WindupEntry), Box::new(LoopyDigraphEntry)]
}

/// A labelled graph with names for its vertices: what both loopy games analyse.
struct Labelled {
    graph: LabelledGraph,
    name: Box<dyn Fn(usize) -> String + Send>,
}

fn no_misere() -> Error {
    Error::input("misère play of loopy games is not supported (Smith's theory is for normal play)")
}

/// The report and moves of tokens `at` on a labelled graph.
fn tokens_moves(l: &Labelled, at: &[usize], position: &dyn Fn(&[usize]) -> Position) -> Vec<Move> {
    let mut out = Vec::new();
    for (i, &from) in at.iter().enumerate() {
        let mut seen = Vec::new();
        for w in l.graph.option_vertices(from) {
            if seen.contains(&w) {
                continue;
            }
            seen.push(w);
            let mut to = at.to_vec();
            to[i] = w;
            let v = l.graph.sum_value(&to);
            let mut m = Move::new(
                format!("move the token on {} to {}", (l.name)(from), (l.name)(w)),
                &format!("{} → {}", (l.name)(from), (l.name)(w)),
                position(&to),
                v.outcome(),
                None,
            );
            m.grundy = Some(v.clone());
            out.push(m);
        }
    }
    out
}

fn tokens_report(
    game: &str,
    l: &Labelled,
    at: &[usize],
    position: &dyn Fn(&[usize]) -> Position,
    detail: Detail,
) -> Report {
    let v = l.graph.sum_value(at);
    let moves = tokens_moves(l, at, position);
    let mut r = Report::new(
        game,
        position(at),
        Play::Normal,
        v.outcome(),
        Some(v.clone()),
    );
    r.moves = Some(moves.len() as u64);
    if at.len() == 1 {
        r.explanation = crate::named::explain_vertex(&l.graph, at[0], &*l.name)
            .lines()
            .map(str::to_string)
            .filter(|s| !s.trim().is_empty())
            .collect();
        r.details = serde_json::json!({ "remoteness": l.graph.remoteness(at[0]) });
    } else {
        let vals: Vec<String> = at
            .iter()
            .map(|&t| format!("{} has value {}", (l.name)(t), l.graph.value(t)))
            .collect();
        r.explanation = vec![format!(
            "Each token is a game of its own: {}; by Smith's rule the sum has value {v}.",
            vals.join(", ")
        )];
        if r.outcome == Outcome::D {
            r.explanation.push(
                "Neither player can force a win: with best play this game never ends.".into(),
            );
        }
    }
    let drawing: Vec<&Move> = moves.iter().filter(|m| m.outcome == Outcome::D).collect();
    if r.outcome == Outcome::D && !drawing.is_empty() {
        let keep: Vec<&str> = drawing.iter().map(|m| m.short.as_str()).collect();
        r.explanation.push(format!(
            "The moves that keep the draw: {}.",
            keep.join(", ")
        ));
    }
    r.detail = detail;
    r.with_moves(moves)
}

/// The family `windup:N:S`.
pub struct WindupEntry;

impl Entry for WindupEntry {
    fn info(&self) -> Info {
        Info {
            name: "windup:N:S".into(),
            aliases: vec![],
            summary: "Modular subtraction (loopy): from x ≠ 0 move to (x − s) mod N for s in S; \
                      0 has no move. Values m or ∞(K); draws"
                .into(),
            example: "2".into(),
            example_game: Some("windup:8:3,5".into()),
            position: "the tokens' places 0..N−1, e.g. `2` or `2 5` (a sum)".into(),
            kind: "tokens".into(),
            family: true,
            misere: false,
            loopy: true,
            scoring: false,
            params: Vec::new(),
        }
    }

    fn matches(&self, name: &str) -> bool {
        name.starts_with("windup:")
    }

    fn open(&self, name: &str) -> Result<Box<dyn Rules>> {
        let w = Windup::parse(name).map_err(|e| Error::input(e.to_string()))?;
        let graph = w.labelled();
        Ok(Box::new(WindupRules {
            name: w.code(),
            w,
            l: Labelled {
                graph,
                name: Box::new(|v| v.to_string()),
            },
        }))
    }
}

struct WindupRules {
    name: String,
    w: Windup,
    l: Labelled,
}

impl WindupRules {
    fn read(&self, text: &str) -> Result<Vec<usize>> {
        let at: Vec<usize> = text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .map(|t| {
                let x: u64 = t.parse().map_err(|_| {
                    Error::input(format!("{} is not a position", grundy_core::text::quote(t)))
                })?;
                self.w
                    .position(x)
                    .map(|x| x as usize)
                    .map_err(|e| Error::input(e.to_string()))
            })
            .collect::<Result<_>>()?;
        if at.len() > MAX_TOKENS {
            return Err(Error::limit(format!("at most {MAX_TOKENS} tokens")));
        }
        Ok(at)
    }
}

fn tokens_position(at: &[usize]) -> Position {
    let text: Vec<String> = at.iter().map(usize::to_string).collect();
    Position::text("tokens", text.join(" ")).with("tokens", at)
}

impl Rules for WindupRules {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn parse(&self, text: &str) -> Result<Position> {
        Ok(tokens_position(&self.read(text)?))
    }

    fn moves(&mut self, pos: &Position, ask: &Ask) -> Result<Vec<Move>> {
        if ask.play.is_misere() {
            return Err(no_misere());
        }
        let at = self.read(&pos.text)?;
        Ok(tokens_moves(&self.l, &at, &tokens_position))
    }

    fn analyze(&mut self, pos: &Position, ask: &Ask) -> Result<Report> {
        if ask.play.is_misere() {
            return Err(no_misere());
        }
        let at = self.read(&pos.text)?;
        Ok(tokens_report(
            &self.name,
            &self.l,
            &at,
            &tokens_position,
            ask.detail,
        ))
    }
}

/// Tokens on a directed graph with cycles allowed.
pub struct LoopyDigraphEntry;

impl Entry for LoopyDigraphEntry {
    fn info(&self) -> Info {
        Info {
            name: "loopy-digraph".into(),
            aliases: vec![],
            summary: "Tokens on a directed graph that may have cycles: values m or ∞(K), draws"
                .into(),
            example: "a b; b a; a c; c d; @ a".into(),
            example_game: None,
            position: "the graph's edges `FROM TO` separated by newlines or `;`, then `@` and the \
                       token vertices: `a b; b a; a c; @ a`"
                .into(),
            kind: "digraph".into(),
            family: false,
            misere: false,
            loopy: true,
            scoring: false,
            params: Vec::new(),
        }
    }

    fn matches(&self, name: &str) -> bool {
        name == "loopy-digraph"
    }

    fn open(&self, _name: &str) -> Result<Box<dyn Rules>> {
        Ok(Box::new(LoopyDigraphRules))
    }
}

struct LoopyDigraphRules;

/// The most edges of a graph given as a position.
pub const MAX_EDGES: usize = 1_000_000;

struct ParsedGraph {
    names: std::sync::Arc<DiGraph>,
    l: Labelled,
    tokens: Vec<usize>,
}

fn read_graph(text: &str) -> Result<ParsedGraph> {
    let (lines, names) = grundy_core::graph::split_token_text(text);
    if lines.len() > MAX_EDGES {
        return Err(Error::limit(format!(
            "a graph has at most {MAX_EDGES} edges"
        )));
    }
    if names.len() > MAX_TOKENS {
        return Err(Error::limit(format!("at most {MAX_TOKENS} tokens")));
    }
    let g = crate::named::LoopyGraph::parse(&lines.join("\n"))
        .map_err(|e| Error::input(e.to_string()))?;
    let dg = std::sync::Arc::new(g.names().clone());
    let tokens = names
        .iter()
        .map(|n| dg.vertex(n).map_err(|e| Error::input(e.to_string())))
        .collect::<Result<Vec<_>>>()?;
    let names2 = dg.clone();
    Ok(ParsedGraph {
        names: dg,
        l: Labelled {
            graph: g.labelled().clone(),
            name: Box::new(move |v| names2.name(v).to_string()),
        },
        tokens,
    })
}

fn graph_position(g: &DiGraph, at: &[usize]) -> Position {
    grundy_core::graph::token_position(g, at)
}

impl Rules for LoopyDigraphRules {
    fn name(&self) -> String {
        "loopy-digraph".into()
    }

    fn parse(&self, text: &str) -> Result<Position> {
        let p = read_graph(text)?;
        Ok(graph_position(&p.names, &p.tokens))
    }

    fn moves(&mut self, pos: &Position, ask: &Ask) -> Result<Vec<Move>> {
        if ask.play.is_misere() {
            return Err(no_misere());
        }
        let p = read_graph(&pos.text)?;
        let names = p.names.clone();
        Ok(tokens_moves(&p.l, &p.tokens, &|at| {
            graph_position(&names, at)
        }))
    }

    fn analyze(&mut self, pos: &Position, ask: &Ask) -> Result<Report> {
        if ask.play.is_misere() {
            return Err(no_misere());
        }
        let p = read_graph(&pos.text)?;
        let names = p.names.clone();
        Ok(tokens_report(
            "loopy-digraph",
            &p.l,
            &p.tokens,
            &|at| graph_position(&names, at),
            ask.detail,
        ))
    }
}
