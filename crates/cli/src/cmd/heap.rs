//! `grundy heap`: heap games (subtraction games, take-and-break codes, named games):
//! sequences, periods, plots, and sums of heaps with every winning move.

use std::fmt::Write as _;
use std::path::Path;

use crate::common::{print_json, print_out, progress_bar, CliError, CliResult};
use grundy_heap::periodicity::{self, Periodicity, Status};
use grundy_heap::reference::EngineError;
use grundy_heap::rule::{self, Rule};
use grundy_heap::{engine, sum};
use serde_json::json;

/// Heap count used when neither `--upto` nor `--position` is given.
const DEFAULT_UPTO: u64 = 100;
/// With `--period` and no `--upto`: how far to keep computing for a rule whose period a
/// theorem can prove (stopping as soon as it is proven) ...
const DEFAULT_PROOF_LIMIT: u64 = 1 << 22;
/// ... and how far to look for a rule that no theorem covers (the period is only observed).
const DEFAULT_OBSERVE_UPTO: u64 = 10_000;
/// Memory assumed when /proc/meminfo cannot be read.
const FALLBACK_MEMORY: u64 = 4 << 30;

#[derive(clap::Args, Debug)]
#[command(after_help = "Rules:
  0.77  .07  0.137  4!.0  0.3F  0.[3]  0.[12]   take-and-break codes (CGSuite notation;
                                               ! unequal, ? not all equal, = all equal)
  sub:1,3,4  sub:odd|even|fib|pow2|squares|primes  allbut:1,2   subtraction games
  nim kayles dawsons-kayles dawsons-chess treblecross officers grundys-game pimber
  odd-even-nim polygon-chords crosses kings    named games (natural heap sizes)

Examples:
  grundy heap kayles --period                 period 12, preperiod 71, proven
  grundy heap kayles --upto 100 --period      the sequence and what G(0..100) shows
  grundy heap 0.07 --upto 1000 --format bfile OEIS b-file lines `n G(n)`
  grundy heap sub:1,3,4 --upto 50 --json      one JSON object: rule, values, period
  grundy heap 0.137 --period --prove-upto 100000   compute until the period is proven
  grundy heap kayles --upto 200 --plot kayles.svg
  grundy heap kayles --position 7 9 12        value, outcome and every winning move")]
pub struct Args {
    /// The rule: a take-and-break code, a subtraction set or a game name (see below).
    #[arg(value_name = "RULE", allow_hyphen_values = true)]
    pub rule: String,
    /// Compute G(0..=N) (default 100).
    #[arg(long = "upto", value_name = "N", allow_hyphen_values = true)]
    upto_text: Option<String>,
    /// The parsed `--upto` (filled in by `run`).
    #[arg(skip)]
    pub upto: Option<u64>,
    /// Output format of the sequence: `table` (default) or `bfile` (OEIS `n value` lines).
    #[arg(long, value_name = "FORMAT", default_value = "table")]
    pub format: String,
    /// Print one JSON object: rule, code, shift, values and a `period` object
    /// {period, preperiod, saltus, status: proven|observed|none}; with --position: heaps,
    /// heap_values, grundy, outcome, winning_moves.
    #[arg(long)]
    pub json: bool,
    /// Report the smallest period, the preperiod and the saltus, and whether it is proven.
    /// Without --upto, keep computing until a theorem proves the period (up to 2^22 heaps;
    /// --prove-upto sets the limit), or look at 10000 heaps where no theorem applies.
    #[arg(long)]
    pub period: bool,
    /// Keep doubling N (from --upto) until the period is proven or N reaches LIMIT.
    #[arg(long, value_name = "LIMIT", allow_hyphen_values = true)]
    pub prove_upto: Option<String>,
    /// Draw G(n) against n to FILE (.svg with labels, .png without text); the periodic
    /// part is shaded.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<std::path::PathBuf>,
    /// Analyse the sum of heaps of these sizes: value, outcome, every winning move.
    #[arg(long, value_name = "HEAP", num_args = 1.., allow_negative_numbers = true)]
    pub position: Vec<String>,
    #[command(flatten)]
    pub long: super::heap_long::LongRunArgs,
}

pub fn run(mut args: Args) -> CliResult {
    args.upto = match &args.upto_text {
        Some(t) => Some(parse_count(t, "--upto")?),
        None => None,
    };
    if args.long.is_long_run() {
        return super::heap_long::run(&args);
    }
    let rule = rule::parse(&args.rule).map_err(|e| CliError::usage(e.to_string()))?;
    if !matches!(args.format.as_str(), "table" | "bfile") {
        return Err(CliError::usage(format!(
            "unknown --format '{}' (use table or bfile)",
            args.format
        )));
    }
    if !args.position.is_empty() {
        return run_position(&args, &rule);
    }
    // `--period` alone means "find the period": keep computing until it is proven.
    let period_only = args.period && args.upto.is_none();
    let provable = periodicity::rule_bound(&rule).is_some();
    let n = match args.upto {
        Some(n) => n,
        None if period_only && !provable => DEFAULT_OBSERVE_UPTO,
        None => DEFAULT_UPTO,
    };
    let limit = match &args.prove_upto {
        Some(t) => Some(parse_count(t, "--prove-upto")?.max(n)),
        None if period_only && provable => Some(DEFAULT_PROOF_LIMIT),
        None => None,
    };
    check_memory(
        &rule,
        limit.unwrap_or(n),
        if limit.is_some() {
            "--prove-upto"
        } else {
            "--upto"
        },
    )?;
    let (values, period) = match limit {
        Some(limit) => match super::heap_long::until_proven(&rule, n, limit, &args.long)? {
            Some(found) => found,
            None => {
                let bar = progress_bar(limit, "heap");
                let r = periodicity::until_proven(&rule, n, limit, &mut |h| bar.set_position(h));
                bar.finish_and_clear();
                r.map_err(engine_error)?
            }
        },
        None => {
            let values = compute(&rule, n, &args.long)?;
            let p = periodicity::analyze(&rule, &values);
            (values, p)
        }
    };
    if let Some(path) = &args.plot {
        write_plot(path, &rule, &values, period.as_ref())?;
    }
    if args.json {
        return print_json(&sequence_json(&rule, &values, period.as_ref()));
    }
    let mut out = if period_only && args.format == "table" {
        // The user asked for the period, not the (possibly long) list of values.
        format!("{}: ", rule_title(&rule))
    } else if args.format == "bfile" {
        bfile_text(&values)
    } else {
        table_text(&rule, &values)
    };
    if args.period || args.prove_upto.is_some() {
        if args.format == "bfile" {
            // Keep the b-file clean: the period goes to stderr.
            eprintln!(
                "{}",
                period_text(&rule, period.as_ref(), values.len() as u64 - 1)
            );
        } else {
            out.push_str(&period_text(
                &rule,
                period.as_ref(),
                values.len() as u64 - 1,
            ));
            out.push('\n');
        }
    }
    print_out(&out)
}

/// Parses a count given on the command line, naming the flag and the token on failure.
fn parse_count(t: &str, flag: &str) -> Result<u64, CliError> {
    let s = t.trim();
    if s.starts_with('-') {
        return Err(CliError::usage(format!("{flag}: negative number '{t}'")));
    }
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(CliError::usage(format!(
            "{flag}: '{t}' is not a whole number"
        )));
    }
    s.parse()
        .map_err(|_| CliError::usage(format!("{flag}: '{t}' is too large")))
}

fn engine_error(e: EngineError) -> CliError {
    CliError::usage(e.to_string())
}

/// Bytes of memory available, from /proc/meminfo (MemAvailable), else a fixed guess.
fn available_memory() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("MemAvailable:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
        })
        .map(|kb| kb.saturating_mul(1024))
        .unwrap_or(FALLBACK_MEMORY)
}

/// Refuses a run that would not fit in memory, before allocating anything.
fn check_memory(rule: &Rule, n: u64, flag: &str) -> CliResult {
    let need = engine::memory_estimate(rule, n);
    let have = available_memory();
    // Keep half the memory for output and the rest of the system.
    if need > have / 2 {
        return Err(CliError::usage(format!(
            "{flag} {n} needs about {} MiB, more than half of the {} MiB available",
            need >> 20,
            have >> 20
        )));
    }
    Ok(())
}

/// G(0..=n) of `rule` in natural heap sizes, from the fast engine where `grundy-sparse` has
/// one for the rule's code, else from this crate's engines.
pub(crate) fn compute(
    rule: &Rule,
    n: u64,
    long: &super::heap_long::LongRunArgs,
) -> Result<Vec<u32>, CliError> {
    let (base, shift) = rule.base_and_shift();
    if let Rule::Code(code) = base {
        let m = n
            .checked_add(shift)
            .ok_or_else(|| CliError::usage(format!("--upto {n} is too large")))?;
        if let Some(mut v) = super::heap_long::fast_values(code, m, long)? {
            v.drain(..shift as usize);
            return Ok(v);
        }
    }
    let bar = progress_bar(n, "heap");
    let r = engine::sequence_with_progress(rule, n, &mut |h| bar.set_position(h));
    bar.finish_and_clear();
    r.map_err(engine_error)
}

/// A one-line description of the rule: `kayles (code 0.77)`, `sub:1,3,4 (code 0.3033)`.
pub(crate) fn rule_title(rule: &Rule) -> String {
    let (_, shift) = rule.base_and_shift();
    let code = rule.take_break().map(|c| rule::format_code(&c));
    match (rule, code) {
        (Rule::Code(_), _) => format!("code {rule}"),
        (Rule::Named { game, .. }, _) if shift > 0 => {
            format!(
                "{} ({}; G(n) = G_{}(n + {shift}))",
                game.name, game.size, game.rule
            )
        }
        (Rule::Named { game, .. }, _) => format!("{} ({}; {})", game.name, game.size, game.rule),
        (_, Some(c)) => format!("{rule} (code {c})"),
        (_, None) => rule.to_string(),
    }
}

/// The readable table: ten values per row, each row labelled with its first n.
pub(crate) fn table_text(rule: &Rule, values: &[u32]) -> String {
    let mut out = format!(
        "G(n) of {}, n = 0..{}\n",
        rule_title(rule),
        values.len().saturating_sub(1)
    );
    let width = values.iter().max().map_or(1, |m| m.to_string().len());
    let label = (values.len().saturating_sub(1)).to_string().len();
    for (row, chunk) in values.chunks(10).enumerate() {
        let _ = write!(out, "{:>label$}:", row * 10);
        for v in chunk {
            let _ = write!(out, " {v:>width$}");
        }
        out.push('\n');
    }
    out
}

/// OEIS b-file lines `n G(n)`.
pub(crate) fn bfile_text(values: &[u32]) -> String {
    let mut out = String::with_capacity(values.len() * 8);
    for (n, v) in values.iter().enumerate() {
        let _ = writeln!(out, "{n} {v}");
    }
    out
}

/// One line on the period: what it is and how sure.
pub(crate) fn period_text(rule: &Rule, p: Option<&Periodicity>, n: u64) -> String {
    let Some(p) = p else {
        return format!("no period found in G(0..{n})");
    };
    let saltus = if p.saltus != 0 {
        format!(", saltus {}", p.saltus)
    } else {
        String::new()
    };
    let why = match p.status {
        Status::Proven => {
            let b = periodicity::rule_bound(rule).map(|b| b.bound(p.preperiod, p.period));
            match b {
                Some(b) => format!(
                    "proven: the Guy–Smith check holds for {} <= n < {b}",
                    p.preperiod
                ),
                None => "proven".into(),
            }
        }
        Status::Observed => format!("observed up to {n}, not proven"),
    };
    format!(
        "period {}, preperiod {}{saltus} ({why})",
        p.period, p.preperiod
    )
}

/// The JSON `period` object.
pub(crate) fn period_json(p: Option<&Periodicity>) -> serde_json::Value {
    match p {
        Some(p) => json!({
            "period": p.period,
            "preperiod": p.preperiod,
            "saltus": p.saltus,
            "status": p.status.as_str(),
        }),
        None => json!({"period": null, "preperiod": null, "saltus": null, "status": "none"}),
    }
}

/// The JSON answer for a sequence.
pub(crate) fn sequence_json(
    rule: &Rule,
    values: &[u32],
    p: Option<&Periodicity>,
) -> serde_json::Value {
    let (_, shift) = rule.base_and_shift();
    json!({
        "rule": rule.to_string(),
        "code": rule.take_break().map(|c| rule::format_code(&c)),
        "shift": shift,
        "upto": values.len().saturating_sub(1),
        "values": values,
        "period": period_json(p),
    })
}

/// Heaps up to this size are computed directly in `--position`; beyond it, a rule that a
/// theorem covers is evaluated through its proven period.
const DIRECT_POSITION_LIMIT: u64 = 100_000;
/// How far `--position` computes while looking for a proven period: with the fast engine,
/// and with this crate's engines (the reference engine is quadratic for splitting codes).
const POSITION_PROOF_LIMIT_FAST: u64 = 1 << 20;
const POSITION_PROOF_LIMIT: u64 = 1 << 14;
/// Largest heap whose moves are listed when a move may split (they are about as many as the heap).
const LIST_SPLITS_LIMIT: u64 = 2_000_000;

fn run_position(args: &Args, rule: &Rule) -> CliResult {
    let mut heaps = Vec::with_capacity(args.position.len());
    for t in &args.position {
        heaps.push(parse_count(t, "--position")?);
    }
    let max = heaps.iter().copied().max().unwrap_or(0);
    let bound = periodicity::rule_bound(rule);
    let a = match bound {
        Some(b) if max > DIRECT_POSITION_LIMIT => {
            let (values, p) = match super::heap_long::until_proven(
                rule,
                1024,
                POSITION_PROOF_LIMIT_FAST,
                &args.long,
            )? {
                Some(found) => found,
                None => {
                    let bar = progress_bar(POSITION_PROOF_LIMIT, "heap");
                    let r = periodicity::until_proven(rule, 1024, POSITION_PROOF_LIMIT, &mut |h| {
                        bar.set_position(h)
                    });
                    bar.finish_and_clear();
                    r.map_err(engine_error)?
                }
            };
            let Some(p) = p.filter(|p| p.status == Status::Proven) else {
                return Err(CliError::usage(format!(
                    "--position heap {max}: too large to compute directly, and no period of {rule} was proven from G(0..={})", values.len() - 1
                )));
            };
            let value = |h: u64| p.value_at(&values, h).unwrap_or(0) as u32;
            let list = |h: u64| b.max_heaps <= 1 || h <= LIST_SPLITS_LIMIT;
            sum::analyze_with(rule, &heaps, value, list).map_err(engine_error)?
        }
        _ => {
            check_memory(rule, max, "--position heap")?;
            let values = compute(rule, max, &args.long)?;
            sum::analyze(rule, &heaps, &values).map_err(engine_error)?
        }
    };
    if args.json {
        let moves: Vec<serde_json::Value> = a
            .winning_moves
            .iter()
            .map(|m| {
                json!({
                    "heap": m.heap_index,
                    "from": m.heap,
                    "removed": m.removed,
                    "leaves": m.leaves,
                    "text": m.to_string(),
                })
            })
            .collect();
        return print_json(&json!({
            "rule": rule.to_string(),
            "heaps": heaps,
            "heap_values": a.heap_values,
            "grundy": a.grundy,
            "outcome": a.outcome.as_str(),
            "winning_moves": moves,
            "unlisted_heaps": a.unlisted_heaps,
        }));
    }
    let join = |v: &mut dyn Iterator<Item = String>| v.collect::<Vec<_>>().join(" ");
    let mut out = format!(
        "{}: heaps {} have values {}; their XOR is {}\n",
        rule_title(rule),
        join(&mut heaps.iter().map(|h| h.to_string())),
        join(&mut a.heap_values.iter().map(|h| h.to_string())),
        a.grundy
    );
    match a.outcome {
        sum::Outcome::P => {
            out.push_str("P: the player to move loses (every move leaves a nonzero XOR)\n")
        }
        sum::Outcome::N => {
            let listed = if a.unlisted_heaps.is_empty() {
                ""
            } else {
                " listed"
            };
            let _ = writeln!(
                out,
                "N: the player to move wins; winning moves ({}{listed}):",
                a.winning_moves.len()
            );
            for m in &a.winning_moves {
                let _ = writeln!(out, "  {m}");
            }
            for &i in &a.unlisted_heaps {
                let _ = writeln!(
                    out,
                    "  (the heap of {} has winning moves too, not listed: it has too many splits)",
                    heaps[i]
                );
            }
        }
    }
    print_out(&out)
}

/// Plot geometry: pixel size, margins, and the data ranges.
struct Frame {
    w: i32,
    h: i32,
    left: i32,
    right: i32,
    top: i32,
    bottom: i32,
    n: f64,
    vmax: f64,
}

impl Frame {
    fn x(&self, i: f64) -> i32 {
        self.left + ((self.w - self.left - self.right) as f64 * i / self.n) as i32
    }
    fn y(&self, v: f64) -> i32 {
        (self.h - self.bottom) - ((self.h - self.top - self.bottom) as f64 * v / self.vmax) as i32
    }
}

/// Draws the points, axes, ticks and the shaded periodic part (no text).
fn draw_plot<DB: plotters::prelude::DrawingBackend>(
    area: plotters::prelude::DrawingArea<DB, plotters::coord::Shift>,
    f: &Frame,
    values: &[u32],
    p: Option<&Periodicity>,
) -> Result<(), String> {
    use plotters::prelude::*;
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    area.fill(&WHITE).map_err(e)?;
    let base = f.h - f.bottom;
    if let Some(p) = p {
        let color = if p.status == Status::Proven {
            RGBColor(220, 245, 220)
        } else {
            RGBColor(235, 235, 235)
        };
        area.draw(&Rectangle::new(
            [(f.x(p.preperiod as f64), f.top), (f.x(f.n), base)],
            color.filled(),
        ))
        .map_err(e)?;
    }
    let axis = BLACK.stroke_width(1);
    area.draw(&PathElement::new(
        vec![(f.left, f.top), (f.left, base), (f.w - f.right, base)],
        axis,
    ))
    .map_err(e)?;
    for t in ticks(f.n as u64) {
        let tx = f.x(t as f64);
        area.draw(&PathElement::new(vec![(tx, base), (tx, base + 6)], axis))
            .map_err(e)?;
    }
    for t in ticks(f.vmax as u64) {
        let ty = f.y(t as f64);
        area.draw(&PathElement::new(
            vec![(f.left - 6, ty), (f.left, ty)],
            axis,
        ))
        .map_err(e)?;
    }
    let radius = if values.len() > 2000 { 1 } else { 2 };
    for (i, &v) in values.iter().enumerate() {
        area.draw(&Circle::new(
            (f.x(i as f64), f.y(v as f64)),
            radius,
            BLUE.filled(),
        ))
        .map_err(e)?;
    }
    area.present().map_err(e)
}

/// Draws G(n) against n to an SVG (with labels, written as plain SVG text: no fonts needed)
/// or a PNG (no text at all: the bitmap backend needs a font file to draw any, and we ship
/// none). The periodic part, when a period was found, is shaded: green when proven, grey when
/// observed.
pub(crate) fn write_plot(
    path: &Path,
    rule: &Rule,
    values: &[u32],
    p: Option<&Periodicity>,
) -> CliResult {
    use plotters::prelude::*;
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let f = Frame {
        w: 1000,
        h: 500,
        left: 70,
        right: 20,
        top: 40,
        bottom: 50,
        n: values.len().max(2) as f64 - 1.0,
        vmax: values.iter().copied().max().unwrap_or(0).max(1) as f64,
    };
    let size = (f.w as u32, f.h as u32);
    let fail = |e: String| CliError::failure(format!("cannot write plot {}: {e}", path.display()));
    match ext.as_deref() {
        Some("svg") => {
            let mut svg = String::new();
            draw_plot(
                SVGBackend::with_string(&mut svg, size).into_drawing_area(),
                &f,
                values,
                p,
            )
            .map_err(fail)?;
            let svg = add_svg_labels(svg, &f, rule, p);
            std::fs::write(path, svg).map_err(|e| fail(e.to_string()))
        }
        Some("png") => draw_plot(
            BitMapBackend::new(path, size).into_drawing_area(),
            &f,
            values,
            p,
        )
        .map_err(fail),
        _ => Err(CliError::usage(format!(
            "--plot '{}': the file name must end in .svg or .png",
            path.display()
        ))),
    }
}

/// Adds the title, tick numbers and axis names as SVG `<text>` elements.
fn add_svg_labels(svg: String, f: &Frame, rule: &Rule, p: Option<&Periodicity>) -> String {
    let title = match p {
        Some(p) => format!(
            "G(n) of {}: period {}, preperiod {}{} ({})",
            rule_title(rule),
            p.period,
            p.preperiod,
            if p.saltus != 0 {
                format!(", saltus {}", p.saltus)
            } else {
                String::new()
            },
            p.status.as_str()
        ),
        None => format!("G(n) of {}", rule_title(rule)),
    };
    let font = r#"font-family="sans-serif""#;
    let mut labels = format!(
        r#"<text x="{}" y="24" {font} font-size="16">{}</text>"#,
        f.left,
        escape(&title)
    );
    for t in ticks(f.n as u64) {
        let _ = write!(
            labels,
            r#"<text x="{}" y="{}" {font} font-size="12" text-anchor="middle">{t}</text>"#,
            f.x(t as f64),
            f.h - f.bottom + 20
        );
    }
    for t in ticks(f.vmax as u64) {
        let _ = write!(
            labels,
            r#"<text x="{}" y="{}" {font} font-size="12" text-anchor="end">{t}</text>"#,
            f.left - 10,
            f.y(t as f64) + 4
        );
    }
    let _ = write!(
        labels,
        r#"<text x="{}" y="{}" {font} font-size="14" text-anchor="middle">n</text><text x="16" y="{}" {font} font-size="14">G</text>"#,
        (f.w + f.left) / 2,
        f.h - 10,
        f.h / 2
    );
    match svg.rfind("</svg>") {
        Some(at) => format!("{}{labels}{}", &svg[..at], &svg[at..]),
        None => svg,
    }
}

/// About five round tick positions in 0..=max.
fn ticks(max: u64) -> Vec<u64> {
    let raw = (max / 5).max(1);
    let mag = 10u64.pow(raw.ilog10());
    let step = [1, 2, 5, 10]
        .iter()
        .map(|m| m * mag)
        .find(|&s| s >= raw)
        .unwrap_or(raw);
    (0..=max).step_by(step as usize).collect()
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
