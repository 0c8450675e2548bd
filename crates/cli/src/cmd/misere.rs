//! `grundy misere`: misère theory — quotients (Plambeck–Siegel), genus, canonical forms.
//! Thin: flags → `grundy::misere` → text or JSON.

use std::path::{Path, PathBuf};

use crate::cmd::usage;
use crate::common::{count, print_out, print_result, CliError, CliResult, Output, STOP};
use grundy::heap::quotients;
use grundy::misere::quotient::{Limits, QuotientEngine};

/// The environment variable naming the directory of proven misère quotients (empty: keep
/// none on disk).
pub const CACHE_ENV: &str = "GRUNDY_CACHE_DIR";

/// Where proven misère quotients are kept between runs: `--cache-dir`, else
/// `$GRUNDY_CACHE_DIR` (empty: nowhere), else `$XDG_CACHE_HOME/grundy`, else
/// `~/.cache/grundy`. The directory is the user's to clear; a damaged file in it is ignored and
/// rebuilt.
pub(crate) fn cache_dir(flag: Option<&Path>) -> Option<PathBuf> {
    if let Some(dir) = flag {
        return Some(dir.to_path_buf());
    }
    if let Some(dir) = std::env::var_os(CACHE_ENV) {
        return (!dir.is_empty()).then(|| PathBuf::from(dir));
    }
    if let Some(xdg) = std::env::var_os("XDG_CACHE_HOME").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(xdg).join("grundy"));
    }
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(|h| PathBuf::from(h).join(".cache").join("grundy"))
}

/// `grundy misere`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  grundy misere quotient 0.75 --upto 20          R_8: a^2 = 1, b^3 = b, bc = ab, c^2 = b^2
  grundy misere quotient 0.[3] --upto 7           misère Nim on heaps < 8: T_3
  grundy misere quotient 0.07 --upto 16 --save dk.q --json
  grundy misere quotient 0.07 --upto 20 --load dk.q   resume a saved quotient
  grundy misere genus kayles --upto 20            Conway's genus, CGSuite's notation
  grundy misere form '*[[2],0]'                   the misère canonical form: *[2#0], restive
  grundy misere form '*2+*2'                      a misère sum: *[2[2]]
  grundy misere form '*[[[2]]]' --minus '*[[2]]'   the X with X + 2# = 2##")]
pub struct Args {
    #[command(subcommand)]
    what: What,
}

#[derive(clap::Subcommand, Debug)]
enum What {
    /// The misère quotient of a heap rule up to a heap bound: |Q|, |P|, presentation, Φ.
    #[command(after_help = "Examples:
  grundy misere quotient 0.75 --upto 20          R_8: a^2 = 1, b^3 = b, bc = ab, c^2 = b^2
  grundy misere quotient kayles --upto 30        |Q| = 40, |P| = 9
  grundy misere quotient 0.07 --upto 16 --save dk.q --json
  grundy misere quotient 0.07 --upto 20 --load dk.q   resume a saved quotient
  grundy misere quotient 0.3122 --upto 7 --max-order 64   not convergent (Weimerskirch)

Once Φ is proven periodic (Kayles: period 12 from heap 71, proven at heap 94) the quotient
covers every heap and nothing more is learnt. Quotients are kept in the cache directory
(--cache-dir, else $GRUNDY_CACHE_DIR, else $XDG_CACHE_HOME/grundy or ~/.cache/grundy) and
proven again when read back; a later run resumes from them.")]
    Quotient {
        /// The rule (a take-and-break code or subtraction set).
        rule: String,
        /// The largest heap.
        #[arg(long, value_name = "N")]
        upto: String,
        /// Also the idempotents and maximal subgroups.
        #[arg(long)]
        structure: bool,
        /// Write the quotient to FILE when done (or when stopped by a limit).
        #[arg(long, value_name = "FILE")]
        save: Option<String>,
        /// Resume from a quotient saved with --save.
        #[arg(long, value_name = "FILE")]
        load: Option<String>,
        /// Refuse quotients with more than N elements (the sign of an infinite one).
        #[arg(long, value_name = "N")]
        max_order: Option<String>,
        /// Keep proven quotients in DIR (default: $GRUNDY_CACHE_DIR, else
        /// $XDG_CACHE_HOME/grundy or ~/.cache/grundy).
        #[arg(long, value_name = "DIR")]
        cache_dir: Option<PathBuf>,
        #[command(flatten)]
        output: Output,
    },
    /// Conway's genus of every heap 0..=N of a rule.
    #[command(after_help = "Examples:
  grundy misere genus kayles --upto 20           0 1 2 3 1 4^146 3 2^2 …
  grundy misere genus 0.07 --upto 40 --json      {\"g\", \"gamma\", \"text\"} per heap")]
    Genus {
        /// The rule.
        rule: String,
        /// The largest heap.
        #[arg(long, value_name = "N", default_value = "20")]
        upto: String,
        #[command(flatten)]
        output: Output,
    },
    /// The misère canonical form of a game in CGSuite's entry notation (`*[[2],0]`; terms
    /// joined by `+` are added), printed in CGSuite's output notation (`*[2#0]`).
    #[command(after_help = "Examples:
  grundy misere form '*[[2],0]'                  *[2#0], restive
  grundy misere form '*2+*2'                     a misère sum: *[2[2]]
  grundy misere form '*[[[2]]]' --minus '*[[2]]'  the X with X + 2# = 2##")]
    Form {
        /// The game.
        game: String,
        /// Subtract this game: the answer is the X with X + H = GAME (misère play has no
        /// negatives; X exists only for some pairs).
        #[arg(long, value_name = "H")]
        minus: Option<String>,
        #[command(flatten)]
        output: Output,
    },
}

pub fn run(args: Args) -> CliResult {
    match args.what {
        What::Quotient {
            rule,
            upto,
            structure,
            save,
            load,
            max_order,
            cache_dir: cache_flag,
            output,
        } => {
            let upto = count(&upto, "--upto")?;
            let mut limits = Limits::default();
            if let Some(m) = max_order {
                limits.max_order = count(&m, "--max-order")? as usize;
            }
            let parsed = grundy::heap::parse(&rule).map_err(usage)?;
            let cache = cache_dir(cache_flag.as_deref());
            let cached = match (&load, &cache) {
                (None, Some(dir)) => quotients::read(dir, &parsed).ok(),
                _ => None,
            };
            let mut engine = match (&load, cached) {
                (Some(f), _) => {
                    let text = crate::cmd::read_text(f, "quotient")?;
                    QuotientEngine::load_text(&text, limits).map_err(usage)?
                }
                // The cache's state, proven again when read; it resumes from there.
                (None, Some((mut engine, _))) => {
                    engine.set_limits(limits);
                    engine
                }
                (None, None) => {
                    QuotientEngine::new(&quotients::key(&parsed), limits).map_err(usage)?
                }
            };
            let before = (engine.upto(), engine.solution());
            let result = engine.extend_with(upto, &mut |_| {
                !STOP.load(std::sync::atomic::Ordering::Relaxed)
            });
            if let Some(f) = &save {
                std::fs::write(f, engine.save_text()).map_err(|e| {
                    CliError::failure(format!("cannot write {}: {e}", grundy::text::quote(f)))
                })?;
            }
            if let Some(dir) = &cache {
                if load.is_none() && (engine.upto(), engine.solution()) != before {
                    // The answer does not depend on the cache: a failed write costs time only.
                    let _ = quotients::write(dir, &parsed, &engine, None);
                }
            }
            result.map_err(|e| match e {
                grundy::misere::MisereError::Stopped { .. } => {
                    CliError::from(grundy::Error::from(e))
                }
                e => usage(format!(
                    "{e} (finished up to heap {}{})",
                    engine.upto(),
                    if save.is_some() { ", saved" } else { "" }
                )),
            })?;
            let mut q = engine.quotient();
            // The engine runs the rule's code (`kayles` is 0.77's quotient); shown as given.
            q.rule = rule.clone();
            if output.json {
                let mut v =
                    serde_json::to_value(&q).map_err(|e| CliError::failure(e.to_string()))?;
                if structure {
                    v["structure"] = serde_json::to_value(q.structure())
                        .map_err(|e| CliError::failure(e.to_string()))?;
                }
                return print_result(&v);
            }
            let mut s = q.summary();
            if structure {
                s.push_str(&format!(
                    "structure: {}\n",
                    serde_json::to_string(&q.structure()).unwrap_or_default()
                ));
            }
            print_out(&s)
        }
        What::Genus { rule, upto, output } => {
            let upto = count(&upto, "--upto")?;
            let g = grundy::misere::genus_of_rule(&rule, upto).map_err(usage)?;
            if output.json {
                return print_result(&serde_json::json!({ "rule": rule, "genus": g }));
            }
            let lines: Vec<String> = g
                .iter()
                .enumerate()
                .map(|(n, g)| format!("{n:>4}  {}", g.text))
                .collect();
            print_out(&(lines.join("\n") + "\n"))
        }
        What::Form {
            game,
            minus,
            output,
        } => {
            let mut forms = grundy::misere::canonical::Forms::new();
            let mut id = forms.parse(&game).map_err(usage)?;
            if let Some(h) = &minus {
                let hid = forms.parse(h).map_err(usage)?;
                id = forms.minus(id, hid).ok_or_else(|| {
                    usage(format!(
                        "{} - {}: no game X with X + {} = {} (not subtractable)",
                        forms.output_text(id),
                        forms.output_text(hid),
                        forms.output_text(hid),
                        forms.output_text(id)
                    ))
                })?;
            }
            let info = forms.info(id);
            if output.json {
                return print_result(&info);
            }
            print_out(&format!(
                "{}\n  birthday {}, misère value {}, normal value {}, misère outcome {:?}\n  genus {}, {}, mate {}\n  entry notation {}\n",
                info.text,
                info.birthday,
                info.misere_grundy,
                info.grundy,
                info.outcome,
                info.genus.text,
                match info.class {
                    grundy::misere::canonical::Class::Tame => "tame",
                    grundy::misere::canonical::Class::Restive => "restive",
                    grundy::misere::canonical::Class::Restless => "restless",
                    grundy::misere::canonical::Class::Other => "neither tame, restive nor restless",
                },
                info.mate_text,
                info.canonical
            ))
        }
    }
}
