//! `grundy graph`: a game on a directed graph read from a file: Grundy values, winning moves.

use crate::cmd::read_text;
use crate::common::{
    print_display, print_json_pieces, print_out, print_result, CliError, CliResult, MaxPositions,
    Output,
};
use grundy::graph::{DiGraph, GraphError, GraphOptions, DEFAULT_BUDGET};
use grundy::nim::Play;

#[derive(clap::Args, Debug)]
#[command(
    after_help = "File format: one edge 'FROM TO' per line (a move from FROM to TO); vertex
names are any tokens without spaces; a line with one name declares a vertex; '#' starts a
comment. A graph with a cycle is valued by Smith's generalized Sprague-Grundy values
(a value m, or ∞(K) with K the finite values of its options; outcome D for a draw), with the
moves that keep a draw (normal play only).

Examples:
  grundy graph game.txt                      Grundy value of every vertex
  grundy graph game.txt --token a c          tokens on a and c: outcome and winning moves
  grundy graph game.txt --token a c --misere the same under misère play
  grundy graph game.txt --token a --json
  grundy graph examples/graphs/draw-sum.txt --token a c   two won games that sum to a draw
  grundy graph examples/graphs/draw-sum.txt --token a c --explain   why, in words"
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
    /// Say in words why the tokens' position is won, lost or drawn (Smith's labelling: which
    /// moves win or keep the draw, and the opponent's answer to each move that loses). Needs
    /// --token; normal play; with --json, `{"tokens", "explanation"}`.
    #[arg(long)]
    explain: bool,
    #[command(flatten)]
    max_positions: MaxPositions,
    #[command(flatten)]
    output: Output,
}

pub fn run(args: Args) -> CliResult {
    let budget = args.max_positions.budget(DEFAULT_BUDGET)?;
    let text = read_text(&args.file, "graph")?;
    let file = args.file.escape_debug().to_string();
    if args.explain {
        return explain(&args, &text, &file);
    }
    let options = GraphOptions {
        play: Play::from_misere(args.misere),
        budget,
    };
    let graph_error = |e: GraphError| {
        let mut err = CliError::from(grundy::Error::from(e));
        err.message = format!("{file}: {}", err.message);
        err
    };
    // Parsed once; the answer is written row by row as the library makes it.
    let graph = DiGraph::parse(&text).map_err(graph_error)?;
    drop(text);
    match graph.answer(&args.tokens, &options) {
        Ok(answer) if args.output.json => return print_json_pieces(|emit| answer.write_json(emit)),
        Ok(answer) => return print_display(&answer),
        // A cycle: Smith's values, in normal play (misère play of loopy graphs is refused
        // with the cycle named, as before).
        Err(GraphError::Cycle { .. }) if !args.misere => {}
        Err(e) => return Err(graph_error(e)),
    }
    let fail = |e: grundy::loopy::LoopyGraphError| CliError::usage(format!("{file}: {e}"));
    let graph = grundy::loopy::LoopyGraph::from_digraph(graph).map_err(fail)?;
    let answer = graph.answer(&args.tokens).map_err(fail)?;
    if args.output.json {
        print_json_pieces(|emit| answer.write_json(emit))
    } else {
        print_display(&answer)
    }
}

/// `--explain`: the words of the loopy labelling (for a loopfree graph Smith's values are the
/// Grundy values, so one explanation serves both).
fn explain(args: &Args, text: &str, file: &str) -> CliResult {
    if args.tokens.is_empty() {
        return Err(CliError::usage("--explain needs --token V …"));
    }
    if args.misere {
        return Err(CliError::usage(
            "--explain is for normal play (Smith's labelling); drop --misere",
        ));
    }
    let fail = |e: grundy::loopy::LoopyGraphError| CliError::usage(format!("{file}: {e}"));
    let g = grundy::loopy::LoopyGraph::parse(text).map_err(fail)?;
    let words = match args.tokens.as_slice() {
        [one] => g.explain(one),
        many => g.explain_tokens(many),
    }
    .map_err(fail)?;
    if args.output.json {
        print_result(&serde_json::json!({ "tokens": args.tokens, "explanation": words }))
    } else {
        print_out(&words)
    }
}
