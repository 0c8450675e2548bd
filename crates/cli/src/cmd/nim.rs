//! `grundy nim`: Nim and misère Nim: nim-sum, outcome, every winning move, explained.

use crate::cmd::usage;
use crate::common::{print_out, print_result, CliError, CliResult, Output};
use grundy::nim::{parse_heap, HeapParser, NimStream, Play};
use std::io::Read;

#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  grundy nim 10 12 5                 explain the position and its winning move
  grundy nim --misere 1 1 2          misère play (the last mover loses)
  grundy nim --json 3 4 5            one JSON object: nim_sum, outcome, winning_moves, ...
  seq 1 10000000 | grundy nim - --count-only")]
pub struct Args {
    /// Heap sizes (0 to 18446744073709551615), or a single `-` to read whitespace-separated
    /// sizes from standard input.
    #[arg(value_name = "HEAP", allow_negative_numbers = true)]
    heaps: Vec<String>,
    /// Misère play: the player who takes the last counter loses.
    #[arg(long)]
    misere: bool,
    #[command(flatten)]
    output: Output,
    /// Count the winning moves without listing them: the heaps are not kept, so memory stays
    /// constant however many are read (winning_moves is then absent from --json).
    #[arg(long)]
    count_only: bool,
    /// How many heaps and moves the text explanation writes out (the rest are summarised).
    #[arg(long, default_value_t = 50, value_name = "N")]
    show: usize,
}

pub fn run(args: Args) -> CliResult {
    let play = Play::from_misere(args.misere);
    let mut stream = if args.count_only {
        NimStream::counting()
    } else {
        NimStream::new(true)
    };
    if args.heaps.len() == 1 && args.heaps[0] == "-" {
        read_stdin(&mut stream)?;
    } else {
        for (i, token) in args.heaps.iter().enumerate() {
            if token == "-" {
                return Err(CliError::usage(format!(
                    "heap {i}: '-' (standard input) must be the only heap argument"
                )));
            }
            let h = parse_heap(token.as_bytes(), i as u64).map_err(usage)?;
            stream.push(h);
        }
    }
    if stream.is_empty() {
        return Err(CliError::usage(
            "no heaps given (pass heap sizes, or '-' to read them from standard input)",
        ));
    }
    let analysis = stream.into_analysis(play);
    if args.output.json {
        print_result(&analysis)
    } else {
        print_out(&analysis.explain(args.show))
    }
}

/// Streams heap sizes from standard input in large blocks straight into the parser.
fn read_stdin(stream: &mut NimStream) -> CliResult {
    let mut input = std::io::stdin().lock();
    let mut buf = vec![0u8; 1 << 20];
    let mut parser = HeapParser::new();
    let mut sink = |h| stream.push(h);
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(CliError::failure(format!("reading standard input: {e}"))),
        };
        parser.feed(&buf[..n], &mut sink).map_err(usage)?;
    }
    parser.finish(&mut sink).map_err(usage)?;
    Ok(())
}
