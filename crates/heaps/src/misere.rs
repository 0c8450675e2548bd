//! Sums of heaps under misère play, by one of two engines with one contract (the outcome and
//! every winning move, or no answer): the rule's misère quotient, a product of the heaps'
//! elements (any number of heaps, and heaps of any size once Φ is proven periodic), and the
//! search over whole positions, the yardstick, within a budget.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;

use grundy_core::budget::MisereBudget;
use grundy_core::{Budget, Move, Outcome};
use grundy_heap::rule::Rule;
use grundy_heap::sum::{heap_move, ListBudget};

use crate::compute::{Compute, EngineChoice};
use crate::error::{Error, Result};
use crate::position::{unlisted_lines, LIST_SPLITS_LIMIT};
use crate::quotients;
use crate::sequence::describe_rule;

/// [`analyze_position_misere`]'s budget unless the caller says otherwise: a million positions
/// (about a second and a few hundred MB) and 1 GiB, each position estimated at
/// [`misere_position_bytes`].
pub const DEFAULT_MISERE_BUDGET: Budget = Budget::new(1_000_000, 1 << 30);

/// The estimated bytes the misère search holds for a position of `heaps` heaps: the sorted
/// heap list (its `Vec` and 8 bytes a heap) and the memo's
/// [`grundy_core::budget::ENTRY_OVERHEAD`].
pub fn misere_position_bytes(heaps: usize) -> usize {
    Budget::entry_bytes::<Vec<u64>>() + 8 * heaps
}

/// The period of Φ that lets a quotient answer every heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct QuotientPeriod {
    /// Φ(h + period) = Φ(h) for every heap h ≥ preperiod.
    pub preperiod: u64,
    /// The period.
    pub period: u64,
}

/// A sum of heaps under misère play (the player who makes the last move loses): the outcome
/// and every winning move.
///
/// Serialized: `{"rule", "heaps", "play": "misere", "outcome", "winning_moves",
/// "positions_searched", "method", "quotient_order"}` (and `quotient_period`, `unlisted_heaps`
/// when set), each move as in [`crate::Position`] (outcome `P`, no `grundy`). There is no
/// `grundy`: misère play has no Sprague–Grundy value that adds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MiserePosition {
    /// The rule.
    pub rule: String,
    /// The heap sizes, in the order given.
    #[serde(serialize_with = "grundy_heap::json_int::seq")]
    pub heaps: Vec<u64>,
    /// Always `"misere"`.
    pub play: &'static str,
    /// `N` when the player to move wins under misère play.
    pub outcome: Outcome,
    /// Every move to a misère P-position, built by [`heap_move`], except those in the heaps
    /// of `unlisted_heaps`.
    pub winning_moves: Vec<Move>,
    /// Whole positions the search opened (0 when the quotient answered).
    pub positions_searched: u64,
    /// How it was answered: `"quotient"` (a product in the rule's misère quotient, verified
    /// exactly when computed and again when read back) or `"search"` (over whole positions).
    pub method: &'static str,
    /// The order of the quotient that answered (absent for a search).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quotient_order: Option<usize>,
    /// When the quotient covers every heap: the proven period of Φ (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quotient_period: Option<QuotientPeriod>,
    /// Heaps (indices) that have winning moves not listed: too many to walk (a splitting
    /// heap past [`LIST_SPLITS_LIMIT`]) or to hand back (the position's size times its moves
    /// past [`ListBudget::DEFAULT`]). Absent when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unlisted_heaps: Vec<usize>,
}

impl MiserePosition {
    /// The position in words: who wins under misère play and every winning move.
    pub fn describe(&self, rule: &Rule) -> String {
        let heaps: Vec<String> = self.heaps.iter().map(|h| h.to_string()).collect();
        let mut out = format!(
            "{}, misère play (the last mover loses): heaps {}\n",
            describe_rule(rule),
            heaps.join(" ")
        );
        match self.outcome {
            Outcome::P | Outcome::D => {
                out.push_str("P: the player to move loses (every move leaves a winning position)\n")
            }
            Outcome::N if self.winning_moves.is_empty() && self.unlisted_heaps.is_empty() => out
                .push_str("N: no move is possible, so under misère play the player to move wins\n"),
            Outcome::N => {
                let listed = if self.unlisted_heaps.is_empty() {
                    ""
                } else {
                    " listed"
                };
                let _ = writeln!(
                    out,
                    "N: the player to move wins; winning moves ({}{listed}):",
                    self.winning_moves.len()
                );
                for m in &self.winning_moves {
                    let _ = writeln!(out, "  {}", m.text);
                }
                unlisted_lines(
                    &mut out,
                    &self.heaps,
                    &self.unlisted_heaps,
                    "has winning moves too, not listed",
                );
            }
        }
        let _ = writeln!(out, "({})", self.how());
        out
    }

    /// How the answer was found, in a sentence without a final stop: `answered in the rule's
    /// misère quotient, of order 40, proven for every heap: Φ has period 12 from heap 71; a
    /// product, no search`, or `searched 812 whole positions: misère values do not add`.
    pub fn how(&self) -> String {
        match (self.quotient_order, self.quotient_period) {
            (Some(order), Some(p)) => format!(
                "answered in the rule's misère quotient, of order {order}, proven for every heap: Φ has period {} from heap {}; a product, no search",
                p.period, p.preperiod
            ),
            (Some(order), None) => format!(
                "answered in the rule's misère quotient, of order {order}: a product, no search"
            ),
            _ => format!(
                "searched {} whole positions: misère values do not add",
                self.positions_searched
            ),
        }
    }
}

/// One misère engine: the outcome and winning moves of a sum, or `None` when it cannot answer
/// (the caller then asks the next one).
trait MisereEngine {
    fn answer(
        &self,
        rule: &Rule,
        heaps: &[u64],
        budget: &Budget,
        c: &Compute<'_>,
        moves: bool,
    ) -> Result<Option<MiserePosition>>;
}

/// The rule's misère quotient, as far as the largest heap (kept between calls, see
/// [`crate::quotients`]).
struct ByQuotient;

/// The search over whole positions: the yardstick, always an answer within its budget.
struct BySearch;

/// The misère outcome and every winning move of the sum of heaps `heaps` of `rule`.
///
/// The engine is chosen for the rule: its misère quotient where one is found (computed as far
/// as the largest heap, or until Φ is proven periodic, within [`quotients::limits_for`] the
/// position budget; kept in
/// this process and in [`Compute::quotient_dir`] for the next call), a product in it for any
/// number of heaps; else a search over whole positions within `budget` (positions, and memory
/// at [`misere_position_bytes`] a position; [`Error::Limit`] past either, naming the cap
/// reached). [`EngineChoice::Reference`] asks for the search. The stop flag of `c` ends either
/// with [`Error::Stopped`].
pub fn analyze_position_misere(
    rule: &Rule,
    heaps: &[u64],
    budget: &Budget,
    c: &Compute<'_>,
) -> Result<MiserePosition> {
    misere(rule, heaps, budget, c, true)
}

/// The misère outcome of the sum of heaps `heaps` of `rule`, no move looked at: the same
/// engines as [`analyze_position_misere`], the quotient's product of the heaps' elements
/// (no heap's options walked) or the search from the root alone (no option's outcome asked
/// once the root's is known). `winning_moves` and `unlisted_heaps` are empty: the moves were
/// not asked for (a front end's `--moves value`).
pub fn analyze_position_misere_value(
    rule: &Rule,
    heaps: &[u64],
    budget: &Budget,
    c: &Compute<'_>,
) -> Result<MiserePosition> {
    misere(rule, heaps, budget, c, false)
}

/// [`analyze_position_misere`], or with `moves` false [`analyze_position_misere_value`].
fn misere(
    rule: &Rule,
    heaps: &[u64],
    budget: &Budget,
    c: &Compute<'_>,
    moves: bool,
) -> Result<MiserePosition> {
    if heaps.is_empty() {
        return Err(Error::Invalid("a position needs at least one heap".into()));
    }
    let engines: &[&dyn MisereEngine] = match c.engine {
        EngineChoice::Reference => &[&BySearch],
        _ => &[&ByQuotient, &BySearch],
    };
    for engine in engines {
        if let Some(answer) = engine.answer(rule, heaps, budget, c, moves)? {
            return Ok(answer);
        }
    }
    Err(Error::Invalid(format!(
        "no misère engine answers {rule} here"
    )))
}

impl MisereEngine for ByQuotient {
    fn answer(
        &self,
        rule: &Rule,
        heaps: &[u64],
        budget: &Budget,
        c: &Compute<'_>,
        moves: bool,
    ) -> Result<Option<MiserePosition>> {
        if c.stopped() {
            return Err(Error::Stopped { done: None });
        }
        let max = heaps.iter().copied().max().unwrap_or(0).max(1);
        let stop = c.stop_flag();
        let mut go = |_| !stop.is_some_and(|f| f.load(Ordering::Relaxed));
        // The caller's position budget bounds the quotient's work too.
        let limits = quotients::limits_for(budget.max_positions);
        let Some(cached) = quotients::quotient_for(rule, max, limits, c.quotient_dir(), &mut go)?
        else {
            return Ok(None);
        };
        let q = &cached.quotient;
        let split = grundy_heap::periodicity::rule_bound(rule).is_none_or(|b| b.max_heaps > 1);
        let Some((outcome, winning_moves, unlisted_heaps)) =
            quotient_answer(q, rule, heaps, split, &ListBudget::DEFAULT, moves)
        else {
            return Ok(None);
        };
        Ok(Some(MiserePosition {
            rule: rule.to_string(),
            heaps: heaps.to_vec(),
            play: "misere",
            outcome,
            winning_moves,
            positions_searched: 0,
            method: "quotient",
            quotient_order: Some(q.order),
            quotient_period: q.solution.map(|s| QuotientPeriod {
                preperiod: s.preperiod,
                period: s.period,
            }),
            unlisted_heaps,
        }))
    }
}

/// The outcome, the winning moves listed within `budget` and the heaps with winning moves
/// not listed, of `heaps` in the quotient `q` (`None` when a heap is beyond it). Equal heaps
/// are walked once: in a commutative monoid the rest of the sum is the same for each.
/// `moves_asked` false: the outcome alone. `split`: a heap's moves are about as many as the heap (heaps past [`LIST_SPLITS_LIMIT`] are
/// not walked; whether they have a winning move is decided on a heap of the same type, see
/// [`grundy_misere::Quotient::type_heap`]).
fn quotient_answer(
    q: &grundy_misere::Quotient,
    q_rule: &Rule,
    heaps: &[u64],
    split: bool,
    budget: &ListBudget,
    moves_asked: bool,
) -> Option<(Outcome, Vec<Move>, Vec<usize>)> {
    let k = heaps.len();
    let elems: Vec<usize> = heaps
        .iter()
        .map(|&h| q.heap_element(h).ok())
        .collect::<Option<_>>()?;
    let mul = |x: usize, y: usize| q.multiply(x, y).unwrap_or(0);
    let mut prefix = vec![0usize; k + 1];
    for i in 0..k {
        prefix[i + 1] = mul(prefix[i], elems[i]);
    }
    let outcome = if q.is_p(prefix[k]) {
        Outcome::P
    } else {
        Outcome::N
    };
    let mut moves = Vec::new();
    let mut unlisted = Vec::new();
    if outcome == Outcome::P || !moves_asked {
        return Some((outcome, moves, unlisted));
    }
    let mut suffix = vec![0usize; k + 1];
    for i in (0..k).rev() {
        suffix[i] = mul(suffix[i + 1], elems[i]);
    }
    // The winning leaves of each heap size walked (None: not walked).
    let mut walked: std::collections::HashMap<u64, Option<Vec<Vec<u64>>>> =
        std::collections::HashMap::new();
    let (mut walk, mut entries) = (0u64, 0u64);
    let size = k as u64 + 4;
    let wins_of = |h: u64, rest: usize| -> Vec<Vec<u64>> {
        let mut wins: Vec<Vec<u64>> = Vec::new();
        q.for_each_option(h, |leaves| {
            let x = leaves
                .iter()
                .try_fold(rest, |x, &l| q.heap_element(l).ok().map(|y| mul(x, y)));
            if x.is_some_and(|x| q.is_p(x)) {
                wins.push(leaves.to_vec());
            }
        });
        wins.sort();
        wins.dedup();
        wins
    };
    for i in 0..k {
        let h = heaps[i];
        let rest = mul(prefix[i], suffix[i + 1]);
        let wins = walked.entry(h).or_insert_with(|| {
            let cost = grundy_heap::sum::walk_cost(q_rule, h);
            let too_big = split && h > LIST_SPLITS_LIMIT;
            if too_big || walk.saturating_add(cost) > budget.walk {
                None
            } else {
                walk += cost;
                Some(wins_of(h, rest))
            }
        });
        match wins {
            Some(w)
                if entries.saturating_add((w.len() as u64).saturating_mul(size))
                    <= budget.entries =>
            {
                entries += w.len() as u64 * size;
                for leaves in w.iter() {
                    let removed = h - leaves.iter().sum::<u64>();
                    moves.push(heap_move(heaps, i, removed, leaves, Outcome::P, None));
                }
            }
            Some(w) => {
                if !w.is_empty() {
                    unlisted.push(i);
                }
            }
            None => {
                // Not walked: a heap of the same type answers whether a move wins.
                if !wins_of(q.type_heap(h), rest).is_empty() {
                    unlisted.push(i);
                }
            }
        }
    }
    Some((outcome, moves, unlisted))
}

impl MisereEngine for BySearch {
    fn answer(
        &self,
        rule: &Rule,
        heaps: &[u64],
        budget: &Budget,
        c: &Compute<'_>,
        moves: bool,
    ) -> Result<Option<MiserePosition>> {
        search(rule, heaps, budget, c, moves).map(Some)
    }
}

/// A sum of heaps of one rule as one game over whole positions (a sorted list of heaps), for
/// the misère search, where values do not add.
struct HeapSum<'r> {
    rule: &'r Rule,
    /// Set by the caller to stop: every position then offers no move and the search ends.
    stop: Option<&'r AtomicBool>,
    /// G_base(0..=shift) for named games (see `grundy_heap::sum::for_each_move`).
    base_small: Vec<u32>,
}

impl HeapSum<'_> {
    /// The position after replacing heap `i` of `pos` by `leaves`, in `pos`'s order.
    fn after(pos: &[u64], i: usize, leaves: &[u64]) -> Vec<u64> {
        let mut next = Vec::with_capacity(pos.len() + leaves.len());
        next.extend_from_slice(&pos[..i]);
        next.extend_from_slice(leaves);
        next.extend_from_slice(&pos[i + 1..]);
        next
    }
}

impl grundy_core::Game for HeapSum<'_> {
    type Position = Vec<u64>;

    fn options(&self, pos: &Vec<u64>, out: &mut Vec<Vec<u64>>) {
        if self.stop.is_some_and(|f| f.load(Ordering::Relaxed)) {
            return;
        }
        for (i, &h) in pos.iter().enumerate() {
            if i > 0 && pos[i - 1] == h {
                continue; // equal heaps have the same moves
            }
            grundy_heap::sum::for_each_move(self.rule, h, &self.base_small, |_, leaves| {
                let mut next = HeapSum::after(pos, i, leaves);
                next.sort_unstable();
                out.push(next);
            });
        }
    }
}

/// The misère search over whole positions within `budget`; with `moves`, every option of an
/// N-position is then asked of the search's table (each a lookup where the root's search
/// settled it).
fn search(
    rule: &Rule,
    heaps: &[u64],
    budget: &Budget,
    c: &Compute<'_>,
    moves: bool,
) -> Result<MiserePosition> {
    let (base, shift) = rule.base_and_shift();
    let base_small = if shift > 0 {
        grundy_heap::engine::sequence(base, shift)?
    } else {
        Vec::new()
    };
    let game = HeapSum {
        rule,
        stop: c.stop_flag(),
        base_small,
    };
    let mut solver = grundy_core::Solver::new(MisereBudget::with_entry_bytes(
        game,
        budget,
        misere_position_bytes(heaps.len()),
    ));
    let mut start = heaps.to_vec();
    start.sort_unstable();
    let outcome = solver.misere_outcome(&start);
    let mut winning_moves = Vec::new();
    if outcome == Outcome::N && moves {
        let mut moves = Vec::new();
        for (i, &h) in heaps.iter().enumerate() {
            let g = solver.game().inner();
            grundy_heap::sum::for_each_move(rule, h, &g.base_small, |removed, leaves| {
                moves.push((i, removed, leaves.to_vec()));
            });
        }
        for (i, removed, leaves) in moves {
            let mut key = HeapSum::after(heaps, i, &leaves);
            key.sort_unstable();
            if solver.misere_outcome(&key) == Outcome::P {
                winning_moves.push(heap_move(heaps, i, removed, &leaves, Outcome::P, None));
            }
        }
    }
    let budget = solver.game();
    if c.stopped() {
        return Err(Error::Stopped { done: None });
    }
    budget.check("the misère search of this sum of heaps")?;
    Ok(MiserePosition {
        rule: rule.to_string(),
        heaps: heaps.to_vec(),
        play: "misere",
        outcome,
        winning_moves,
        positions_searched: budget.opened(),
        method: "search",
        quotient_order: None,
        quotient_period: None,
        unlisted_heaps: Vec::new(),
    })
}
