//! Sums of heaps under normal play: each heap's value from the engine chosen for the largest
//! heap (or from the proven period, for heaps past what is worth computing), their XOR, and
//! every winning move within the listing budget.

use std::fmt::Write as _;

use serde::Serialize;

use grundy_heap::periodicity::{self, Status};
use grundy_heap::rule::Rule;
use grundy_heap::sum::{ListBudget, SumAnalysis};

use crate::compute::Compute;
use crate::engines::{self, proof_limit, sparse_code};
use crate::error::{Error, Result};
use crate::sequence::{describe_rule, until_proven, values, values_at};

/// [`analyze_position`]: heaps up to this size are computed directly; beyond it, a rule that a
/// theorem covers is evaluated through its proven period.
pub const DIRECT_POSITION_LIMIT: u64 = 100_000;
/// [`analyze_position`]: the largest heap whose moves are listed when a move may split (they
/// are about as many as the heap).
pub const LIST_SPLITS_LIMIT: u64 = 2_000_000;
/// [`analyze_position`]: how far to compute while looking for a proven period, with the sparse
/// engine and with the others (the reference engine is quadratic for splitting codes).
const POSITION_PROOF_LIMIT_FAST: u64 = 1 << 20;
const POSITION_PROOF_LIMIT: u64 = 1 << 14;

/// A sum of heaps of one rule: each heap's value, their XOR, the outcome and every winning
/// move.
///
/// Serialized: `{"rule", "heaps", "heap_values", "grundy", "outcome", "winning_moves",
/// "unlisted_heaps", …}` with each move the workspace's one [`grundy_core::Move`], as
/// [`grundy_heap::sum::heap_move`] builds it: `{"text", "short", "to", "outcome", "grundy",
/// "at"}`, `at` holding `{"heap", "from", "removed", "leaves"}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Position {
    /// The rule.
    pub rule: String,
    /// Value, outcome and winning moves.
    #[serde(flatten)]
    pub analysis: SumAnalysis,
    /// For each winning move, the values of the heaps it leaves (shown to people; the JSON
    /// reader has `heap_values` and can look the rest up).
    #[serde(skip)]
    pub leaves_values: Vec<Vec<u32>>,
}

impl Position {
    /// The position in words: the heaps' values, their XOR, who wins and every winning move.
    pub fn describe(&self, rule: &Rule) -> String {
        let a = &self.analysis;
        let join = |v: &mut dyn Iterator<Item = String>| v.collect::<Vec<_>>().join(" ");
        let mut out = format!(
            "{}: heaps {} have values {}; their XOR is {}\n",
            describe_rule(rule),
            join(&mut a.heaps.iter().map(|h| h.to_string())),
            join(&mut a.heap_values.iter().map(|h| h.to_string())),
            a.grundy
        );
        match a.outcome {
            grundy_core::Outcome::P | grundy_core::Outcome::D => {
                out.push_str("P: the player to move loses (every move leaves a nonzero XOR)\n")
            }
            grundy_core::Outcome::N => {
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
                for (m, v) in a.winning_moves.iter().zip(&self.leaves_values) {
                    let m = &m.text;
                    let left = match v.len() {
                        0 => "nothing is left there".to_string(),
                        1 => format!("the heap left has value {}", v[0]),
                        _ => {
                            let vs: Vec<String> = v.iter().map(|x| x.to_string()).collect();
                            format!("the heaps left have values {}", vs.join(" and "))
                        }
                    };
                    let _ = writeln!(out, "  {m} ({left}; the XOR becomes 0)");
                }
                unlisted_lines(
                    &mut out,
                    &a.heaps,
                    &a.unlisted_heaps,
                    "has winning moves too, not listed",
                );
                unlisted_lines(
                    &mut out,
                    &a.heaps,
                    &a.unchecked_heaps,
                    "may have winning moves too, not checked",
                );
            }
        }
        out
    }
}

/// One line per heap size among `which` (indices into `heaps`): `  (the heap of 94 has
/// winning moves too, not listed: …)`, with how many heaps of that size when more than one.
pub(crate) fn unlisted_lines(out: &mut String, heaps: &[u64], which: &[usize], what: &str) {
    let sizes: Vec<u64> = which.iter().map(|&i| heaps[i]).collect();
    let mut counts: std::collections::HashMap<u64, usize> = std::collections::HashMap::new();
    for &h in &sizes {
        *counts.entry(h).or_default() += 1;
    }
    let mut seen = std::collections::HashSet::new();
    for h in sizes {
        if !seen.insert(h) {
            continue;
        }
        let n = counts[&h];
        let whose = if n == 1 {
            format!("the heap of {h}")
        } else {
            format!("each of the {n} heaps of {h}")
        };
        let _ = writeln!(
            out,
            "  ({whose} {what}: too many splits, or too many moves to list in a position this large)"
        );
    }
}

/// Value, outcome and every winning move of the sum of heaps `heaps` of `rule`.
///
/// Heaps up to [`DIRECT_POSITION_LIMIT`] are computed directly; larger ones through the
/// rule's proven period (refused when no period can be proven). Winning moves are checked in
/// every heap, since a move in a heap game may raise a heap's value; the heaps whose moves are
/// too many to list (splitting rules above [`LIST_SPLITS_LIMIT`], or past the listing budget
/// [`ListBudget::DEFAULT`] in a position of many heaps) are named in the result.
pub fn analyze_position(rule: &Rule, heaps: &[u64], c: &mut Compute<'_>) -> Result<Position> {
    position(rule, heaps, c, true)
}

/// The value and outcome of the sum of heaps `heaps` of `rule`, no move walked: each heap's
/// value from the same engines as [`analyze_position`] (directly, or through the proven
/// period past [`DIRECT_POSITION_LIMIT`]) and their XOR. `winning_moves`, `unlisted_heaps`
/// and `unchecked_heaps` are empty: the moves were not asked for (a front end's
/// `--moves value`).
pub fn analyze_position_value(rule: &Rule, heaps: &[u64], c: &mut Compute<'_>) -> Result<Position> {
    position(rule, heaps, c, false)
}

/// [`analyze_position`], or with `moves` false [`analyze_position_value`].
fn position(rule: &Rule, heaps: &[u64], c: &mut Compute<'_>, moves: bool) -> Result<Position> {
    if heaps.is_empty() {
        return Err(Error::Invalid("a position needs at least one heap".into()));
    }
    let max = heaps.iter().copied().max().unwrap_or(0);
    let budget = ListBudget::DEFAULT;
    let (analysis, leaves_values) = match periodicity::rule_bound(rule) {
        Some(b) if max > DIRECT_POSITION_LIMIT => {
            let limit = if sparse_code(rule, c.engine, POSITION_PROOF_LIMIT_FAST).is_some() {
                POSITION_PROOF_LIMIT_FAST
            } else {
                proof_limit(rule, c.engine, POSITION_PROOF_LIMIT)
            };
            let seq = until_proven(rule, 1024.min(limit), limit, c)?;
            let Some(p) = seq.period.filter(|p| p.status == Status::Proven) else {
                return Err(Error::Invalid(format!(
                    "heap {max}: too large to compute directly, and no period of {rule} was proven from G(0..={})",
                    seq.upto
                )));
            };
            let values = seq.values;
            let value = |h: u64| p.value_at(&values, h).unwrap_or(0) as u32;
            if !moves {
                let heap_values = heaps.iter().map(|&h| u64::from(value(h))).collect();
                (values_only(heaps, heap_values), Vec::new())
            } else {
                let list = |h: u64| b.max_heaps <= 1 || h <= LIST_SPLITS_LIMIT;
                let a = grundy_heap::sum::analyze_within(rule, heaps, value, list, &budget)?;
                let leaves = leaves_values(&a, value);
                (a, leaves)
            }
        }
        _ => {
            c.check_memory(engines::memory_estimate(rule, max), &format!("heap {max}"))?;
            if !moves {
                // The heaps' own values only: the record engine's table is read in place.
                let (at, _) = values_at(rule, max, heaps, c)?;
                (
                    values_only(heaps, at.into_iter().map(u64::from).collect()),
                    Vec::new(),
                )
            } else {
                let (values, _) = values(rule, max, c)?;
                let value = |h: u64| values[h as usize];
                let a = grundy_heap::sum::analyze_within(rule, heaps, value, |_| true, &budget)?;
                let leaves = leaves_values(&a, value);
                (a, leaves)
            }
        }
    };
    Ok(Position {
        rule: rule.to_string(),
        analysis,
        leaves_values,
    })
}

/// The heaps' values (`heap_values`, in the order of `heaps`) and their XOR, no move walked.
fn values_only(heaps: &[u64], heap_values: Vec<u64>) -> SumAnalysis {
    let grundy = heap_values.iter().fold(0, |a, &v| a ^ v);
    SumAnalysis {
        heaps: heaps.to_vec(),
        heap_values,
        grundy,
        outcome: grundy_core::Outcome::from_grundy(grundy),
        winning_moves: Vec::new(),
        winning_leaves: Vec::new(),
        unlisted_heaps: Vec::new(),
        unchecked_heaps: Vec::new(),
    }
}

/// The values of the heaps each winning move leaves.
fn leaves_values(a: &SumAnalysis, value: impl Fn(u64) -> u32) -> Vec<Vec<u32>> {
    a.winning_leaves
        .iter()
        .map(|leaves| leaves.iter().map(|&h| value(h)).collect())
        .collect()
}
