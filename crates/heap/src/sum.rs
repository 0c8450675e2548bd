//! Sums of heaps of one rule: the value (XOR of the heaps' values), the outcome, and every
//! winning move, phrased as "from the heap of 12, remove 2 and split the rest into 3 + 7".
//!
//! ```
//! use grundy_heap::{engine, rule, sum};
//! let kayles = rule::parse("kayles").unwrap();
//! let values = engine::sequence(&kayles, 12).unwrap();
//! let a = sum::analyze(&kayles, &[7, 9, 12], &values).unwrap();
//! assert_eq!(a.outcome, sum::Outcome::N);
//! assert_eq!(a.winning_moves.len(), 5);
//! // a move may raise a heap's value: 12 (value 4) -> 11 (value 6) wins here
//! assert!(a.winning_moves.iter().any(|m| m.to.text == "7 9 11"));
//! ```
//!
//! Both result types serialize (serde) in the project's JSON vocabulary; heap sizes above
//! 2^53 become strings (see [`crate::json_int`]).

use grundy_core::catalogue::{Move, Position};
use serde::ser::Serializer;
use serde::Serialize;

use crate::engine;
use crate::json_int;
use crate::options::for_each_option;
use crate::reference::EngineError;
use crate::rule::{Rule, SubtractionSet};

/// Who wins a position with best play: the workspace's one outcome type, re-exported so that
/// the path `sum::Outcome` keeps working. Serializes as `"N"` or `"P"`.
pub use grundy_core::Outcome;

/// One move in one heap of a sum, in the rule's natural heap sizes, as the workspace's one
/// [`Move`]: heap `index` of `heaps` (of size `heaps[index]`) loses `removed` tokens and
/// leaves the heaps `leaves` (non-decreasing; empty when the heap is gone) in its place.
/// `outcome` and `grundy` are those of the position it leaves.
///
/// - `text`: the move in words, "from the heap of 12, remove 2 and split the rest into
///   3 + 7" (or "split the heap of 8 into 3 + 5", "from the heap of 12, remove 1, leaving
///   11", "from the heap of 2, remove all 2");
/// - `short`: "heap 2: 12 → 3+7" (cut to 30 columns);
/// - `to`: the whole position after the move, [`Position::heaps`] (kind `"heaps"`, what the
///   catalogue's entry of the rule reads back): the heaps of the sum in their input order,
///   with the moved heap replaced, in place, by `leaves` (so `7 9 12` with the 9 split into
///   2 + 5 becomes `7 2 5 12`);
/// - [`Move::at`]: `heap` (the index), `from` (its size), `removed` and `leaves`, every size
///   written by [`json_int`] (a string above 2^53).
///
/// ```
/// use grundy_heap::sum::heap_move;
/// use grundy_core::Outcome;
/// let m = heap_move(&[7, 9, 12], 1, 2, &[2, 5], Outcome::P, Some(0));
/// assert_eq!(m.text, "from the heap of 9, remove 2 and split the rest into 2 + 5");
/// assert_eq!((m.short.as_str(), m.to.text.as_str()), ("heap 1: 9 → 2+5", "7 2 5 12"));
/// assert_eq!(m.at["leaves"], serde_json::json!([2, 5]));
/// ```
pub fn heap_move(
    heaps: &[u64],
    index: usize,
    removed: u64,
    leaves: &[u64],
    outcome: Outcome,
    grundy: Option<u64>,
) -> Move {
    let heap = heaps[index];
    let mut to = Vec::with_capacity(heaps.len() + leaves.len());
    to.extend_from_slice(&heaps[..index]);
    to.extend_from_slice(leaves);
    to.extend_from_slice(&heaps[index + 1..]);
    let parts: Vec<String> = leaves.iter().map(u64::to_string).collect();
    let text = match (removed, leaves.len()) {
        (_, 0) if heap == 1 => "from the heap of 1, remove the last counter".to_string(),
        (_, 0) => format!("from the heap of {heap}, remove all {heap}"),
        (0, _) => format!("split the heap of {heap} into {}", parts.join(" + ")),
        (r, 1) => format!("from the heap of {heap}, remove {r}, leaving {}", parts[0]),
        (r, _) => format!(
            "from the heap of {heap}, remove {r} and split the rest into {}",
            parts.join(" + ")
        ),
    };
    let rest = if parts.is_empty() {
        "0".to_string()
    } else {
        parts.join("+")
    };
    Move::new(
        text,
        &format!("heap {index}: {heap} → {rest}"),
        Position::heaps(&to),
        outcome,
        grundy,
    )
    .at("heap", index)
    .at("from", json_int::Int(heap))
    .at("removed", json_int::Int(removed))
    .at("leaves", Sizes(leaves))
}

/// Heap sizes written through [`json_int::seq`].
struct Sizes<'a>(&'a [u64]);

impl Serialize for Sizes<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        json_int::seq(self.0, s)
    }
}

/// Value, outcome and winning moves of a position (a sum of heaps of one rule).
///
/// Serializes (derive) with the field names below; `heaps` through [`json_int`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SumAnalysis {
    /// The position analysed: the heap sizes, in input order.
    #[serde(serialize_with = "json_int::seq")]
    pub heaps: Vec<u64>,
    /// The Grundy value of each heap.
    pub heap_values: Vec<u64>,
    /// Their XOR: the value of the position.
    pub grundy: u64,
    /// `N` when `grundy` is not 0 (the player to move wins), else `P`.
    pub outcome: Outcome,
    /// Every move to a position of value 0, in heap order (empty when the outcome is P),
    /// except the moves in the heaps of `unlisted_heaps` and `unchecked_heaps`, whose moves
    /// were not walked; each built by [`heap_move`] (outcome `P`, value 0).
    pub winning_moves: Vec<Move>,
    /// The heaps each winning move leaves in place of the heap it moves in, typed, beside
    /// `winning_moves` (one entry a move; the JSON has them as each move's `at.leaves`).
    #[serde(skip)]
    pub winning_leaves: Vec<Vec<u64>>,
    /// Heaps (indices) whose winning moves were not listed but which certainly have one:
    /// their moves were not walked (see [`analyze_with`]) and the value the heap must be
    /// turned into is below its own value, so mex guarantees a move to it; or they were
    /// walked and their winning moves would pass the listing budget ([`analyze_within`]).
    pub unlisted_heaps: Vec<usize>,
    /// Heaps (indices) whose moves were not walked and which may or may not have a winning
    /// move: the value needed is above the heap's own value, and a move can raise a heap's
    /// value (in Kayles, 12 (value 4) → 11 (value 6)), but nothing guarantees one does.
    /// A front end should say "may also have winning moves (not checked)".
    pub unchecked_heaps: Vec<usize>,
}

/// Calls `f(removed, leaves)` for every move from a heap of natural size `h` of `rule`,
/// with `leaves` in natural sizes. `base_small` holds G_base(0..=shift) for named games.
pub fn for_each_move(rule: &Rule, h: u64, base_small: &[u32], mut f: impl FnMut(u64, &[u64])) {
    let (base, shift) = rule.base_and_shift();
    if let Rule::Subtraction(SubtractionSet::Infinite(set)) = base {
        for s in set.members_upto(h + shift) {
            let rest = h + shift - s;
            if rest == 0 {
                f(s, &[]);
            } else {
                f(s, &[rest - shift.min(rest)]);
            }
        }
        return;
    }
    if let Rule::Subtraction(SubtractionSet::Finite(set)) = base {
        // Its own elements, not the code's digits: {1, 10^6} is two moves, not a million digits
        // to scan for every position a search opens.
        // As the code's moves below: the heap left in natural size, or dropped.
        let total = h + shift;
        for &s in set.iter().take_while(|&&s| s <= total) {
            let rest = total - s;
            if rest > shift {
                f(h - (rest - shift), &[rest - shift]);
            } else if rest > 0 && base_small.get(rest as usize).copied().unwrap_or(0) != 0 {
                f(h, &[0]);
            } else {
                f(h, &[]);
            }
        }
        return;
    }
    let Some(code) = base.take_break() else {
        return;
    };
    let mut natural: Vec<u64> = Vec::with_capacity(4);
    for_each_option(&code, h + shift, |_, parts| {
        natural.clear();
        for &p in parts {
            // A base heap of size <= shift is no natural heap; it is only dropped when it is worth 0.
            if p > shift {
                natural.push(p - shift);
            } else if base_small.get(p as usize).copied().unwrap_or(0) != 0 {
                natural.push(0);
            }
        }
        let left: u64 = natural.iter().sum();
        f(h.saturating_sub(left), &natural);
    });
}

/// Analyses the position `heaps` of `rule`. `values` must hold G(0..=max heap) in natural
/// sizes (as from [`engine::sequence`]).
pub fn analyze(rule: &Rule, heaps: &[u64], values: &[u32]) -> Result<SumAnalysis, EngineError> {
    analyze_with(rule, heaps, |h| values[h as usize], |_| true)
}

/// Analyses the position `heaps` of `rule` with G given as a function (for instance from a
/// proven period, for heaps far beyond what memory holds).
///
/// When the position's value g is not 0, every heap h is a candidate: a winning move turns
/// it into heaps of value `target = g ^ G(h)`, which may be below G(h) (then mex guarantees
/// such a move) or above it (a move can raise a component's value, unlike in Nim; only
/// walking the moves tells). The moves of h are walked, and the winning ones listed, only
/// when `list(h)` allows (it walks every move of the heap, about h of them for splitting
/// rules). A heap not walked goes into [`SumAnalysis::unlisted_heaps`] when target < G(h)
/// (a winning move certainly exists) and into [`SumAnalysis::unchecked_heaps`] otherwise.
pub fn analyze_with(
    rule: &Rule,
    heaps: &[u64],
    value: impl Fn(u64) -> u32,
    list: impl Fn(u64) -> bool,
) -> Result<SumAnalysis, EngineError> {
    analyze_within(rule, heaps, value, list, &ListBudget::UNLIMITED)
}

/// How much of a position's winning moves [`analyze_within`] lists: every listed move carries
/// the whole position it leaves, so a position of 10^4 heaps with 10^4 winning moves would
/// hand back 10^8 heap sizes. Past either bound the remaining heaps are reported, not walked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListBudget {
    /// The most heap sizes the listed moves' positions (`to`) hold together: moves × heaps.
    pub entries: u64,
    /// The most moves walked, as [`walk_cost`] counts them (equal heaps are walked once).
    pub walk: u64,
}

impl ListBudget {
    /// No bound: every heap `list` allows is walked and every winning move listed.
    pub const UNLIMITED: ListBudget = ListBudget {
        entries: u64::MAX,
        walk: u64::MAX,
    };
    /// The bound the library's sums use: 2^20 heap sizes in the listed positions (a few tens
    /// of MB of moves at most) and 2^24 moves walked (a fraction of a second).
    pub const DEFAULT: ListBudget = ListBudget {
        entries: 1 << 20,
        walk: 1 << 24,
    };
}

/// About how many moves a heap of `h` has under `rule`, as [`ListBudget::walk`] counts them:
/// h + 1 where a move may split the heap or the removals are unbounded, else the most tokens a
/// move removes, plus one.
pub fn walk_cost(rule: &Rule, h: u64) -> u64 {
    match crate::periodicity::rule_bound(rule) {
        Some(b) if b.max_heaps <= 1 => b.max_removal.saturating_add(1),
        _ => h.saturating_add(1),
    }
}

/// [`analyze_with`] within `budget`: the heaps are walked in order while the budget lasts
/// (equal heaps once: their winning moves are the same, only the index differs); a heap whose
/// walk or whose moves would pass it goes, like one `list` refuses, to
/// [`SumAnalysis::unlisted_heaps`] or [`SumAnalysis::unchecked_heaps`].
pub fn analyze_within(
    rule: &Rule,
    heaps: &[u64],
    value: impl Fn(u64) -> u32,
    list: impl Fn(u64) -> bool,
    budget: &ListBudget,
) -> Result<SumAnalysis, EngineError> {
    let (base, shift) = rule.base_and_shift();
    let base_small = if shift > 0 {
        engine::sequence(base, shift)?
    } else {
        Vec::new()
    };
    let heap_values: Vec<u32> = heaps.iter().map(|&h| value(h)).collect();
    let grundy = heap_values.iter().fold(0, |a, &v| a ^ v);
    let mut winning_moves = Vec::new();
    let mut winning_leaves = Vec::new();
    let mut unlisted_heaps = Vec::new();
    let mut unchecked_heaps = Vec::new();
    if grundy != 0 {
        // The winning (removed, leaves) of each heap size walked: equal heaps share them.
        let mut walked: std::collections::HashMap<u64, Vec<(u64, Vec<u64>)>> =
            std::collections::HashMap::new();
        let (mut walk, mut entries) = (0u64, 0u64);
        let size = heaps.len() as u64 + 4;
        for (i, &h) in heaps.iter().enumerate() {
            let target = grundy ^ heap_values[i];
            let mut listed = list(h);
            if listed && !walked.contains_key(&h) {
                let cost = walk_cost(rule, h);
                if walk.saturating_add(cost) > budget.walk {
                    listed = false;
                } else {
                    walk += cost;
                    let mut wins = Vec::new();
                    for_each_move(rule, h, &base_small, |removed, leaves| {
                        let x = leaves.iter().fold(0, |a, &p| a ^ value(p));
                        if x == target {
                            wins.push((removed, leaves.to_vec()));
                        }
                    });
                    walked.insert(h, wins);
                }
            }
            let wins = walked.get(&h).filter(|_| listed);
            let need = wins.map_or(0, |w| (w.len() as u64).saturating_mul(size));
            if wins.is_none() || entries.saturating_add(need) > budget.entries {
                match wins {
                    // Walked: it has winning moves, too many to list.
                    Some(_) => unlisted_heaps.push(i),
                    None if target < heap_values[i] => unlisted_heaps.push(i),
                    None => unchecked_heaps.push(i),
                }
                continue;
            }
            entries += need;
            for (removed, leaves) in wins.into_iter().flatten() {
                winning_moves.push(heap_move(heaps, i, *removed, leaves, Outcome::P, Some(0)));
                winning_leaves.push(leaves.clone());
            }
        }
    }
    Ok(SumAnalysis {
        heaps: heaps.to_vec(),
        heap_values: heap_values.into_iter().map(u64::from).collect(),
        grundy: grundy.into(),
        outcome: Outcome::from_grundy(grundy as u64),
        winning_moves,
        winning_leaves,
        unlisted_heaps,
        unchecked_heaps,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule::parse;

    fn run(rule: &str, heaps: &[u64]) -> SumAnalysis {
        let r = parse(rule).unwrap();
        let v = engine::sequence(&r, *heaps.iter().max().unwrap()).unwrap();
        analyze(&r, heaps, &v).unwrap()
    }

    /// The index of the heap a move moves in.
    fn index(m: &Move) -> usize {
        m.at["heap"].as_u64().unwrap() as usize
    }

    /// The position a move leaves, read back from its `to.text`.
    fn to(m: &Move) -> Vec<u64> {
        m.to.text.split(' ').map(|t| t.parse().unwrap()).collect()
    }

    /// A move's `to.heaps` ([] when no heap is left, where the text says "0").
    fn to_heaps(m: &Move) -> Vec<u64> {
        m.to.data["heaps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| match h {
                serde_json::Value::String(s) => s.parse().unwrap(),
                h => h.as_u64().unwrap(),
            })
            .collect()
    }

    #[test]
    fn nim_and_kayles() {
        let a = run("nim", &[3, 4, 5]);
        assert_eq!((a.grundy, a.outcome), (2, Outcome::N));
        assert_eq!(a.winning_moves.len(), 1);
        assert_eq!(
            a.winning_moves[0].text,
            "from the heap of 3, remove 2, leaving 1"
        );
        let k = run("kayles", &[12]);
        assert_eq!(k.grundy, 4);
        assert_eq!(k.winning_leaves.len(), k.winning_moves.len());
        assert!(k
            .winning_moves
            .iter()
            .zip(&k.winning_leaves)
            .any(|(m, l)| l.len() == 2
                && l.iter().sum::<u64>() + m.at["removed"].as_u64().unwrap() == 12));
        assert_eq!(run("nim", &[5, 5]).outcome, Outcome::P);
        let m = heap_move(&[12], 0, 2, &[3, 7], Outcome::N, None);
        assert_eq!(
            m.text,
            "from the heap of 12, remove 2 and split the rest into 3 + 7"
        );
        assert_eq!(m.to.text, "3 7");
        let gone = heap_move(&[2, 4], 0, 2, &[], Outcome::N, Some(4));
        assert_eq!(gone.text, "from the heap of 2, remove all 2");
        assert_eq!(
            (gone.short.as_str(), gone.to.text.as_str()),
            ("heap 0: 2 → 0", "4")
        );
        let last = heap_move(&[2], 0, 2, &[], Outcome::N, None);
        assert_eq!(last.to.text, "0");
        assert!(to_heaps(&last).is_empty());
        assert_eq!(to_heaps(&gone), [4]);
        let split = heap_move(&[8], 0, 0, &[3, 5], Outcome::N, None);
        assert_eq!(split.text, "split the heap of 8 into 3 + 5");
    }

    #[test]
    fn huge_heaps_through_a_proven_period() {
        let r = parse("sub:1,3,4").unwrap();
        let (v, p) = crate::periodicity::until_proven(&r, 64, 1 << 12, &mut |_| true).unwrap();
        let p = p.unwrap();
        let big = 10_000_000_000_007u64;
        let value = |h: u64| p.value_at(&v, h).unwrap() as u32;
        let a = analyze_with(&r, &[big, 5], value, |_| true).unwrap();
        assert_eq!(a.heap_values[0], u64::from(v[(big % 7) as usize]));
        for (m, leaves) in a.winning_moves.iter().zip(&a.winning_leaves) {
            let rest = a.grundy ^ a.heap_values[index(m)];
            assert_eq!(leaves.iter().fold(rest, |x, &h| x ^ u64::from(value(h))), 0);
            assert_eq!(to(m).iter().fold(0, |x, &h| x ^ value(h)), 0);
            assert_eq!(to(m), to_heaps(m));
        }
    }

    #[test]
    fn kayles_7_9_12_has_five_winning_moves() {
        // G(7, 9, 12) = 2, 4, 4: XOR 2. The 7 must become value 0 (7 -> 3 + 3, 7 -> 1 + 4);
        // the 9 and the 12 must become value 6, above their own 4: 9 -> 2 + 5, 12 -> 11 and
        // 12 -> 2 + 9. A move can raise a heap's value.
        let a = run("kayles", &[7, 9, 12]);
        assert_eq!((a.heap_values.clone(), a.grundy), (vec![2, 4, 4], 2));
        let mut got: Vec<Vec<u64>> = a.winning_moves.iter().map(to).collect();
        got.sort();
        let mut want = vec![
            vec![3, 3, 9, 12],
            vec![1, 4, 9, 12],
            vec![7, 2, 5, 12],
            vec![7, 9, 11],
            vec![7, 9, 2, 9],
        ];
        want.sort();
        assert_eq!(got, want);
        let texts: Vec<&str> = a.winning_moves.iter().map(|m| m.text.as_str()).collect();
        assert!(texts.contains(&"from the heap of 12, remove 1, leaving 11"));
        assert!(texts.contains(&"from the heap of 9, remove 2 and split the rest into 2 + 5"));
        assert_eq!(a.winning_moves.len(), 5);
        assert!(a.unlisted_heaps.is_empty() && a.unchecked_heaps.is_empty());
        // every listed move leaves XOR 0, and says so
        let v = engine::sequence(&parse("kayles").unwrap(), 12).unwrap();
        for m in &a.winning_moves {
            assert_eq!(
                to(m).iter().fold(0, |x, &h| x ^ v[h as usize]),
                0,
                "{}",
                m.text
            );
            assert_eq!(
                (m.outcome, m.grundy.clone()),
                (Outcome::P, Some(0u64.into()))
            );
        }
    }

    #[test]
    fn unwalked_heaps_are_unlisted_or_unchecked() {
        let r = parse("kayles").unwrap();
        let v = engine::sequence(&r, 12).unwrap();
        // heaps 7, 9, 12: targets 0 (< 2), 6 (> 4), 6 (> 4)
        let a = analyze_with(&r, &[7, 9, 12], |h| v[h as usize], |_| false).unwrap();
        assert!(a.winning_moves.is_empty());
        assert_eq!(a.unlisted_heaps, vec![0]);
        assert_eq!(a.unchecked_heaps, vec![1, 2]);
    }

    #[test]
    fn json_shape() {
        let m = heap_move(
            &[5, 1 << 60],
            1,
            1,
            &[3, (1 << 60) - 4],
            Outcome::P,
            Some(0),
        );
        assert_eq!(
            serde_json::to_value(&m).unwrap(),
            serde_json::json!({
                "text": "from the heap of 1152921504606846976, remove 1 and split the rest into 3 + 1152921504606846972",
                "short": "heap 1: 1152921504606846976 →…",
                "to": {"kind": "heaps", "text": "5 3 1152921504606846972",
                       "heaps": [5, 3, "1152921504606846972"]},
                "outcome": "P",
                "grundy": 0,
                "at": {"heap": 1, "from": "1152921504606846976", "removed": 1,
                       "leaves": [3, "1152921504606846972"]},
            })
        );
        let a = run("nim", &[5, 5]);
        assert_eq!(
            serde_json::to_value(&a).unwrap(),
            serde_json::json!({
                "heaps": [5, 5],
                "heap_values": [5, 5],
                "grundy": 0,
                "outcome": "P",
                "winning_moves": [],
                "unlisted_heaps": [],
                "unchecked_heaps": [],
            })
        );
    }

    #[test]
    fn every_listed_move_wins() {
        for rule in [
            "0.77",
            "0.3F",
            "4!.0",
            "sub:1,3,4",
            "sub:squares",
            "crosses",
            "allbut:2",
        ] {
            let r = parse(rule).unwrap();
            let v = engine::sequence(&r, 40).unwrap();
            for heaps in [vec![7u64, 11, 13], vec![20, 9], vec![33]] {
                let a = analyze(&r, &heaps, &v).unwrap();
                for (mv, leaves) in a.winning_moves.iter().zip(&a.winning_leaves) {
                    let rest = a.grundy ^ a.heap_values[index(mv)];
                    let after = leaves
                        .iter()
                        .fold(rest, |x, &p| x ^ u64::from(v[p as usize]));
                    assert_eq!(after, 0, "{rule} {}", mv.text);
                    assert_eq!(mv.at["leaves"], serde_json::json!(leaves));
                }
                assert_eq!(
                    a.outcome == Outcome::N,
                    !a.winning_moves.is_empty(),
                    "{rule} {heaps:?}"
                );
            }
        }
    }
}
