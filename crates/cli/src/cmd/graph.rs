//! `grundy graph`: a game on a directed graph read from a file: Grundy values, winning moves.

use crate::common::{print_json, print_out, CliError, CliResult};
use grundy_core::graph::{analyze_tokens, DiGraph};
use std::fmt::Write as _;
use std::io::Read;

#[derive(clap::Args, Debug)]
#[command(
    after_help = "File format: one edge 'FROM TO' per line (a move from FROM to TO); vertex
names are any tokens without spaces; a line with one name declares a vertex; '#' starts a
comment. The graph must have no cycle.

Examples:
  grundy graph game.txt                   Grundy value of every vertex
  grundy graph game.txt --token a c       tokens on a and c: outcome and winning moves
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
    /// Print one JSON object: vertices [{name, grundy}] and, with tokens, grundy, outcome and
    /// winning_moves [{token (0-based), from, to}].
    #[arg(long)]
    json: bool,
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
    let usage = |e: grundy_core::graph::GraphError| CliError::usage(format!("{}: {e}", args.file));
    let graph = DiGraph::parse(&text).map_err(usage)?;
    let values = graph.grundy_values().map_err(usage)?;
    let tokens = args
        .tokens
        .iter()
        .map(|t| graph.vertex(t).map_err(usage))
        .collect::<Result<Vec<_>, _>>()?;
    let analysis = (!tokens.is_empty()).then(|| analyze_tokens(&graph, &values, &tokens));

    if args.json {
        let vertices: Vec<_> = (0..graph.len())
            .map(|v| serde_json::json!({ "name": graph.name(v), "grundy": values[v] }))
            .collect();
        let mut obj = serde_json::json!({ "vertices": vertices });
        if let Some(t) = &analysis {
            obj["tokens"] = serde_json::json!(args.tokens);
            obj["grundy"] = serde_json::json!(t.grundy);
            obj["outcome"] = serde_json::json!(t.outcome.as_str());
            obj["winning_moves"] = t
                .winning_moves
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
    for v in 0..graph.len() {
        let _ = writeln!(s, "{:<width$}  {}", graph.name(v), values[v]);
    }
    if let Some(t) = &analysis {
        let terms: Vec<String> = tokens.iter().map(|&v| values[v].to_string()).collect();
        let verdict = if t.grundy == 0 {
            "P-position: the player to move loses"
        } else {
            "N-position: the player to move wins"
        };
        let _ = writeln!(
            s,
            "\ntokens on {}: value {} = {}, {verdict}",
            args.tokens.join(" "),
            terms.join(" ⊕ "),
            t.grundy
        );
        if !t.winning_moves.is_empty() {
            let _ = writeln!(s, "winning moves ({}):", t.winning_moves.len());
            for m in &t.winning_moves {
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
