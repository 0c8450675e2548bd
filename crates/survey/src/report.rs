//! The summary of a survey database: counts by family, the solved games with their periods,
//! the open games with how far they were pushed; as text, JSON and CSV.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use crate::row::{GameRow, Status};
use crate::store::COLUMNS;

/// Games of one family (the family whose survey wrote the row) by status.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// The family (`octal:3`), or `"total"`.
    pub family: String,
    /// Every row.
    pub games: u64,
    /// Periodic, proven.
    pub solved: u64,
    /// Periodic, observed only (rules no theorem covers).
    pub observed: u64,
    /// No period up to the limit or the time budget.
    pub unknown: u64,
    /// Equivalent to another game.
    pub equivalent: u64,
    /// Could not be computed.
    pub error: u64,
    /// With `--misere`: games whose misère quotient was found and verified to its bound.
    pub misere_quotients: u64,
    /// … of which tame (T_k).
    pub misere_tame: u64,
    /// … the largest |Q| among them (0 when none).
    pub misere_largest: u64,
    /// Games whose quotient grew past the size cap (it may be infinite).
    pub misere_not_converged: u64,
    /// Games whose quotient search or verification ran out of budget, or failed.
    pub misere_budget: u64,
}

impl Counts {
    fn add(&mut self, r: &GameRow) {
        self.games += 1;
        match r.status {
            Status::Periodic if r.proven == Some(1) => self.solved += 1,
            Status::Periodic => self.observed += 1,
            Status::Unknown => self.unknown += 1,
            Status::Equivalent => self.equivalent += 1,
            Status::Error => self.error += 1,
        }
        match r.misere_status.as_deref() {
            Some("quotient") => {
                self.misere_quotients += 1;
                if r.misere_tame == Some(1) {
                    self.misere_tame += 1;
                }
                self.misere_largest = self.misere_largest.max(r.misere_order.unwrap_or(0));
            }
            Some("not converged") => self.misere_not_converged += 1,
            Some(_) => self.misere_budget += 1,
            None => {}
        }
    }
}

/// The whole report.
///
/// Serialized: `{"families": [counts…], "total": counts, "games": [row…]}` with each counts
/// object `{"family", "games", "solved", "observed", "unknown", "equivalent", "error",
/// "misere_quotients", "misere_tame", "misere_largest", "misere_not_converged",
/// "misere_budget"}` and
/// each row the `games` table's columns.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// Counts by family, in name order.
    pub families: Vec<Counts>,
    /// Counts over every row.
    pub total: Counts,
    /// Every row, ordered by rule.
    pub games: Vec<GameRow>,
}

impl Report {
    /// The report of `rows`.
    pub fn new(rows: Vec<GameRow>) -> Report {
        let mut by: BTreeMap<String, Counts> = BTreeMap::new();
        let mut total = Counts {
            family: "total".into(),
            ..Counts::default()
        };
        for r in &rows {
            let f = r.family.clone().unwrap_or_else(|| "-".into());
            by.entry(f.clone())
                .or_insert_with(|| Counts {
                    family: f,
                    ..Counts::default()
                })
                .add(r);
            total.add(r);
        }
        Report {
            families: by.into_values().collect(),
            total,
            games: rows,
        }
    }

    /// The report as text tables for a person: counts by family, the periodic games with
    /// their periods, the unknown games with how far they were computed.
    pub fn describe(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:<12} {:>6} {:>7} {:>9} {:>8} {:>11} {:>6}",
            "family", "games", "solved", "observed", "unknown", "equivalent", "error"
        );
        for c in self.families.iter().chain(std::iter::once(&self.total)) {
            let _ = writeln!(
                out,
                "{:<12} {:>6} {:>7} {:>9} {:>8} {:>11} {:>6}",
                c.family, c.games, c.solved, c.observed, c.unknown, c.equivalent, c.error
            );
        }
        let periodic: Vec<&GameRow> = self
            .games
            .iter()
            .filter(|r| r.status == Status::Periodic)
            .collect();
        if !periodic.is_empty() {
            let _ = writeln!(out, "\nperiodic ({}):", periodic.len());
            let _ = writeln!(
                out,
                "  {:<16} {:>10} {:>8} {:>7} {:>8}",
                "rule", "preperiod", "period", "saltus", "proven"
            );
            for r in periodic {
                let _ = writeln!(
                    out,
                    "  {:<16} {:>10} {:>8} {:>7} {:>8}",
                    r.rule,
                    opt(r.preperiod),
                    opt(r.period),
                    r.saltus.unwrap_or(0),
                    if r.proven == Some(1) {
                        "yes"
                    } else {
                        "observed"
                    }
                );
            }
        }
        let misere: Vec<&GameRow> = self
            .games
            .iter()
            .filter(|r| r.misere_status.is_some())
            .collect();
        if !misere.is_empty() {
            let t = &self.total;
            let _ = writeln!(
                out,
                "\nmisère quotients ({}): {} verified, {} tame, largest |Q| = {}, {} not converged, {} out of budget",
                misere.len(),
                t.misere_quotients,
                t.misere_tame,
                t.misere_largest,
                t.misere_not_converged,
                t.misere_budget
            );
            let _ = writeln!(
                out,
                "  {:<16} {:>6} {:>6} {:>6} {:>6}  status",
                "rule", "heaps", "|Q|", "|P|", "tame"
            );
            for r in misere {
                let _ = writeln!(
                    out,
                    "  {:<16} {:>6} {:>6} {:>6} {:>6}  {}",
                    r.rule,
                    opt(r.misere_upto),
                    opt(r.misere_order),
                    opt(r.misere_p),
                    match r.misere_tame {
                        Some(1) => "yes",
                        Some(_) => "no",
                        None => "-",
                    },
                    r.misere_status.as_deref().unwrap_or("-")
                );
            }
        }
        let open: Vec<&GameRow> = self
            .games
            .iter()
            .filter(|r| matches!(r.status, Status::Unknown | Status::Error))
            .collect();
        if !open.is_empty() {
            let _ = writeln!(out, "\nunknown ({}):", open.len());
            let _ = writeln!(
                out,
                "  {:<16} {:>14} {:>10} {:>12} {:>9}",
                "rule", "computed_upto", "max_value", "rare_values", "seconds"
            );
            for r in open {
                let secs = r.seconds.map_or("-".into(), |s| format!("{s:.1}"));
                let _ = writeln!(
                    out,
                    "  {:<16} {:>14} {:>10} {:>12} {:>9}{}",
                    r.rule,
                    opt(r.computed_upto),
                    opt(r.max_value),
                    opt(r.rare_values),
                    secs,
                    r.error
                        .as_ref()
                        .map_or(String::new(), |e| format!("  error: {e}"))
                );
            }
        }
        out
    }

    /// Every row as CSV (RFC 4180: a header line of the table's columns, fields quoted where
    /// they need it, empty for null).
    pub fn csv(&self) -> String {
        let mut out = COLUMNS.join(",");
        out.push('\n');
        for r in &self.games {
            let fields = [
                r.rule.clone(),
                r.status.as_str().to_string(),
                opt_empty(r.preperiod),
                opt_empty(r.period),
                opt_empty(r.proven),
                opt_empty(r.computed_upto),
                opt_empty(r.max_value),
                opt_empty(r.rare_values),
                r.equals.clone().unwrap_or_default(),
                r.seconds.map_or(String::new(), |s| format!("{s:.3}")),
                r.engine.clone().unwrap_or_default(),
                opt_empty(r.shift),
                opt_empty(r.saltus),
                r.family.clone().unwrap_or_default(),
                r.error.clone().unwrap_or_default(),
                opt_empty(r.misere_upto),
                opt_empty(r.misere_order),
                opt_empty(r.misere_p),
                opt_empty(r.misere_tame),
                r.misere_status.clone().unwrap_or_default(),
            ];
            let line: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
            out.push_str(&line.join(","));
            out.push('\n');
        }
        out
    }
}

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map_or("-".into(), |x| x.to_string())
}

fn opt_empty<T: ToString>(v: Option<T>) -> String {
    v.map_or(String::new(), |x| x.to_string())
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
fn csv_field(f: &str) -> String {
    if f.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", f.replace('"', "\"\""))
    } else {
        f.to_string()
    }
}
