//! `grundy wythoff`: Wythoff's game: P-positions, winning moves, Grundy values.

use crate::cmd::usage;
use crate::common::{print_out, print_result, CliError, CliResult, Output};
use grundy::games::wythoff::{self, GrundyTable};
use grundy::games::{parse_bounded, parse_count};

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Rules: two heaps; take any number from one heap, or the same number from \
both; taking the last counter wins. P-positions are (floor(j*phi), floor(j*phi^2)) and mirror \
images, computed exactly for heaps of any size.

Examples:
  grundy wythoff 1000000 1618034         a P-position: the mover loses
  grundy wythoff 10 20                   every winning move, explained
  grundy wythoff --nth 1000000000000     the P-position number 10^12
  grundy wythoff --table 12              Grundy values G(x, y) for x, y < 12
  grundy wythoff --table 400 --plot wythoff.png   the same as an image (.png or .svg)"
)]
pub struct Args {
    /// The first heap (any size).
    #[arg(value_name = "X", allow_negative_numbers = true)]
    x: Option<String>,
    /// The second heap (any size).
    #[arg(value_name = "Y", allow_negative_numbers = true)]
    y: Option<String>,
    /// Print the Grundy table G(x, y) for 0 <= x, y < N (N <= 5000) instead.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    table: Option<String>,
    /// With --table: draw the table to FILE (.png or .svg), P-positions black.
    #[arg(long, value_name = "FILE", requires = "table")]
    plot: Option<String>,
    /// Print the J-th P-position (floor(J*phi), floor(J*phi^2)) instead.
    #[arg(long, value_name = "J", allow_negative_numbers = true)]
    nth: Option<String>,
    #[command(flatten)]
    output: Output,
}

pub fn run(args: Args) -> CliResult {
    if let Some(t) = &args.table {
        return table(&args, t);
    }
    if let Some(j) = &args.nth {
        let j = parse_count(j, "index").map_err(usage)?;
        let p = wythoff::nth(&j);
        if args.output.json {
            return print_result(&p);
        }
        return print_out(&p.describe());
    }
    let (Some(xs), Some(ys)) = (&args.x, &args.y) else {
        return Err(CliError::usage(
            "give two heaps X Y, or --table N, or --nth J",
        ));
    };
    let x = parse_count(xs, "heap").map_err(usage)?;
    let y = parse_count(ys, "heap").map_err(usage)?;
    let a = wythoff::analyze(&x, &y).map_err(usage)?;
    if args.output.json {
        return print_result(&a);
    }
    print_out(&a.describe())
}

/// `--table` with `--plot`: the table's JSON and the file it was drawn to.
#[derive(serde::Serialize)]
struct TableWithPlot<'a> {
    #[serde(flatten)]
    table: &'a GrundyTable,
    #[serde(skip_serializing_if = "Option::is_none")]
    plot: Option<&'a str>,
}

fn table(args: &Args, n: &str) -> CliResult {
    if args.x.is_some() || args.nth.is_some() {
        return Err(CliError::usage("--table takes no heaps and no --nth"));
    }
    let n = parse_bounded(n, "table size", 1, wythoff::MAX_TABLE_SIDE as u64).map_err(usage)?;
    let n = n as usize;
    let t = GrundyTable::new(n).map_err(usage)?;
    if let Some(path) = &args.plot {
        plot(&t, path)?;
    }
    if args.output.json {
        return print_result(&TableWithPlot {
            table: &t,
            plot: args.plot.as_deref(),
        });
    }
    if let Some(path) = &args.plot {
        return print_out(&format!("Wrote a {n}x{n} plot of G(x, y) to {path}\n"));
    }
    print_out(&t.describe())
}

fn plot(t: &GrundyTable, path: &str) -> CliResult {
    use plotters::prelude::*;
    let n = t.side();
    let cell = (800 / n).max(1) as u32;
    let side = cell * n as u32;
    let lower = path.to_ascii_lowercase();
    let fail = |e: &dyn std::fmt::Display| {
        CliError::failure(format!(
            "cannot write plot {}: {e}",
            grundy::text::quote(path)
        ))
    };
    if lower.ends_with(".svg") || lower.ends_with(".png") {
        // Opened here first, so that a missing directory is reported in words (the image
        // encoder would say `ImageError(IoError(Os { code: 2, … }))`).
        std::fs::File::create(path).map_err(|e| fail(&e))?;
    }
    let result = if lower.ends_with(".svg") {
        draw(
            t,
            SVGBackend::new(path, (side, side)).into_drawing_area(),
            cell,
        )
    } else if lower.ends_with(".png") {
        draw(
            t,
            BitMapBackend::new(path, (side, side)).into_drawing_area(),
            cell,
        )
    } else {
        return Err(CliError::usage(format!(
            "plot file {} must end in .png or .svg",
            grundy::text::quote(path)
        )));
    };
    result.map_err(|e| fail(&e))
}

/// Paints one `cell`-pixel square per position: black for 0, a hue rising with the value.
fn draw<DB: plotters::prelude::DrawingBackend>(
    t: &GrundyTable,
    area: plotters::prelude::DrawingArea<DB, plotters::coord::Shift>,
    cell: u32,
) -> Result<(), String> {
    use plotters::prelude::*;
    let n = t.side();
    let max = (2 * n) as f64;
    area.fill(&WHITE).map_err(|e| e.to_string())?;
    for x in 0..n {
        for y in 0..n {
            let g = t.value(x, y).unwrap_or(0);
            let color = if g == 0 {
                BLACK.to_rgba()
            } else {
                HSLColor(0.8 * g as f64 / max, 0.8, 0.55).to_rgba()
            };
            let (px, py) = ((y as u32 * cell) as i32, (x as u32 * cell) as i32);
            area.draw(&Rectangle::new(
                [(px, py), (px + cell as i32, py + cell as i32)],
                color.filled(),
            ))
            .map_err(|e| e.to_string())?;
        }
    }
    area.present().map_err(|e| e.to_string())
}
