//! `grundy graph`: a game on a directed graph read from a file: Grundy values, winning moves.

use crate::common::{print_json, print_out, CliError, CliResult};
use grundy_core::graph::{analyze_tokens, misere_tokens, DiGraph, GraphError, TokenMove};
use grundy_core::Outcome;
use std::fmt::Write as _;
use std::io::Read;

#[derive(clap::Args, Debug)]
#[command(
    after_help = "File format: one edge 'FROM TO' per line (a move from FROM to TO); vertex
names are any tokens without spaces; a line with one name declares a vertex; '#' starts a
comment. The graph must have no cycle.

Examples:
  grundy graph game.txt                      Grundy value of every vertex
  grundy graph game.txt --token a c          tokens on a and c: outcome and winning moves
  grundy graph game.txt --token a c --misere the same under misère play
  grundy graph game.txt --token a --json"
)]
pub struct Args {
    /// The graph file, or `-` for standard input.
    #[arg(value_name = "FILE")]
    file: String,
    /// Vertices holding a token (repeat a name for several tokens on it); a move slides one
    /// token along an edge.
    #[arg(long = "token", value_name = "V", num_args = 1..)]
    tokens: Vec<String>,
    /// Misère play for the tokens: the player who makes the last move loses. Searched over
    /// whole token placements (misère values do not add); vertex values stay normal-play.
    #[arg(long)]
    misere: bool,
    /// Print one JSON object: vertices [{name, grundy}] and, with tokens, outcome and
    /// winning_moves [{token (0-based), from, to}], plus grundy (normal play only).
    #[arg(long)]
    json: bool,
}

/// What the tokens' position comes to.
struct TokenAnswer {
    /// The XOR of the tokens' values (normal play only).
    grundy: Option<u64>,
    outcome: Outcome,
    moves: Vec<TokenMove>,
}

pub fn run(args: Args) -> CliResult {
    let bytes = if args.file == "-" {
        let mut b = Vec::new();
        std::io::stdin().lock().read_to_end(&mut b)?;
        b
    } else {
        std::fs::read(&args.file)
            .map_err(|e| CliError::usage(format!("cannot read graph file '{}': {e}", args.file)))?
    };
    let text = String::from_utf8(bytes)
        .map_err(|_| CliError::usage(format!("graph file '{}' is not UTF-8 text", args.file)))?;
    let usage = |e: GraphError| CliError::usage(format!("{}: {e}", args.file));
    let graph = DiGraph::parse(&text).map_err(usage)?;
    let values = graph.grundy_values().map_err(usage)?;
    let tokens = args
        .tokens
        .iter()
        .map(|t| graph.vertex(t).map_err(usage))
        .collect::<Result<Vec<_>, _>>()?;
    let answer = if tokens.is_empty() {
        None
    } else if args.misere {
        let (outcome, moves) = misere_tokens(&graph, &tokens).map_err(usage)?;
        Some(TokenAnswer {
            grundy: None,
            outcome,
            moves,
        })
    } else {
        let t = analyze_tokens(&graph, &values, &tokens);
        Some(TokenAnswer {
            grundy: Some(t.grundy),
            outcome: t.outcome,
            moves: t.winning_moves,
        })
    };

    if args.json {
        let vertices: Vec<_> = (0..graph.len())
            .map(|v| serde_json::json!({ "name": graph.name(v), "grundy": values[v] }))
            .collect();
        let mut obj = serde_json::json!({ "vertices": vertices });
        if let Some(t) = &answer {
            obj["tokens"] = serde_json::json!(args.tokens);
            obj["play"] = serde_json::json!(if args.misere { "misere" } else { "normal" });
            if let Some(g) = t.grundy {
                obj["grundy"] = serde_json::json!(g);
            }
            obj["outcome"] = serde_json::json!(t.outcome.as_str());
            obj["winning_moves"] = t
                .moves
                .iter()
                .map(|m| {
                    serde_json::json!({
                        "token": m.token, "from": graph.name(m.from), "to": graph.name(m.to)
                    })
                })
                .collect();
        }
        return print_json(&obj);
    }

    let mut s = String::new();
    let width = (0..graph.len())
        .map(|v| graph.name(v).chars().count())
        .max()
        .unwrap_or(0)
        .max(6);
    let _ = writeln!(s, "{:<width$}  grundy", "vertex");
    for (v, value) in values.iter().enumerate() {
        let _ = writeln!(s, "{:<width$}  {value}", graph.name(v));
    }
    if let Some(t) = &answer {
        let verdict = if t.outcome == Outcome::P {
            "P-position: the player to move loses"
        } else {
            "N-position: the player to move wins"
        };
        match t.grundy {
            Some(g) => {
                let terms: Vec<String> = tokens.iter().map(|&v| values[v].to_string()).collect();
                let _ = writeln!(
                    s,
                    "\ntokens on {}: value {} = {g}, {verdict}",
                    args.tokens.join(" "),
                    terms.join(" ⊕ ")
                );
            }
            None => {
                let _ = writeln!(
                    s,
                    "\ntokens on {}, misère play: {verdict}",
                    args.tokens.join(" ")
                );
            }
        }
        if !t.moves.is_empty() {
            let _ = writeln!(s, "winning moves ({}):", t.moves.len());
            for m in &t.moves {
                let _ = writeln!(
                    s,
                    "  token {}: {} -> {}   (value {} -> {})",
                    m.token,
                    graph.name(m.from),
                    graph.name(m.to),
                    values[m.from],
                    values[m.to]
                );
            }
        }
    }
    print_out(&s)
}
