//! `grundy heap --plot`: G(n) against n, drawn by the library (`grundy::plot`), written here.

use std::path::Path;

use crate::common::CliResult;
use grundy::heap::{describe_rule, Periodicity, Rule};

/// Draws G(n) of `rule` against n to `path` (SVG or PNG by its extension), the periodic part
/// shaded.
pub(crate) fn write_plot(
    path: &Path,
    rule: &Rule,
    values: &[u32],
    p: Option<&Periodicity>,
) -> CliResult {
    write_plot_of(path, &describe_rule(rule), values, p)
}

/// [`write_plot`] for any sequence: `name` is what the title says it is G(n) of (`grundy
/// script --plot` names the script's game).
pub fn write_plot_of(
    path: &Path,
    name: &str,
    values: &[u32],
    p: Option<&Periodicity>,
) -> CliResult {
    crate::cmd::write_plot(path, |f| grundy::plot::sequence(name, values, p, f))
}
