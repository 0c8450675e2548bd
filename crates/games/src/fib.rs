//! Fibonacci Nim and its k-multiplier family, solved from the greedy (Zeckendorf) representation.
//!
//! One pile of `n` counters. The first move takes 1..n−1 counters; afterwards a player may take
//! at most `k` times what the opponent just took (`k = 2` is Fibonacci Nim); taking the last
//! counter wins. A position is a pile and the current limit (the most the mover may take).
//!
//! The losing pile sizes are H(0) = 1 and H(j+1) = H(j) + H(m), m = min{i : k·H(i) ≥ H(j)}
//! (the Fibonacci numbers for k = 2, the powers of two for k = 1). Every n ≥ 1 is uniquely a sum
//! of these chosen greedily (the Zeckendorf representation for k = 2), and the position
//! (n, limit) is a first-player win exactly when the limit reaches the smallest term of that
//! representation; taking that term is a winning move. [`MultiplierNim`] answers for piles of
//! any size (exact [`UBig`] arithmetic); [`MoveTable`] lists every winning move for piles up to
//! millions; [`GrundyTable`] gives Grundy values of small positions; [`textbook`] keeps the
//! classic dynamic programs as independent checks. A position is answered whole (outcome,
//! representation, every winning move, the Grundy value of small piles) by the catalogue
//! entries ([`FibEntry`], [`FibFamilyEntry`]), the one door of every front end.
//!
//! ```
//! use grundy_games::fib::MultiplierNim;
//! use grundy_games::UBig;
//!
//! // 100 = 89 + 8 + 3: take 3 (the smallest term), and the opponent may not take 8.
//! let terms = MultiplierNim::fibonacci().representation(&UBig::from(100u32))?;
//! assert_eq!(terms, [UBig::from(89u8), UBig::from(8u8), UBig::from(3u8)]);
//! # Ok::<(), grundy_games::GameError>(())
//! ```

use crate::catalogue::shown;
use crate::error::{GameError, Result};
use crate::number::big_json;
use dashu::base::BitTest;
use dashu::integer::UBig;
use grundy_core::{Move, Outcome};
use serde::Serialize;

/// The largest multiplier accepted: beyond it the losing sizes grow too slowly to list.
pub const MAX_MULTIPLIER: u64 = 1000;

/// At most this many losing sizes are generated (guards absurd piles with a large `k`).
const MAX_LOSING_SIZES: usize = 5_000_000;

/// The most 64-bit words the losing sizes may occupy together (128 MiB): the table of a
/// 10 000-digit pile takes about 100 MiB for k = 2, while a large k multiplies the number of
/// sizes and would otherwise run out of memory.
const MAX_LOSING_WORDS: usize = 16 << 20;

/// The most decimal digits of a pile the analysis accepts. The greedy representation keeps every
/// losing size up to the pile (about 4.8 per digit for k = 2, each as long as the pile), so
/// memory grows with the square of the digits: 10 000 digits answer in well under a second,
/// 60 000 would need gigabytes.
pub const MAX_PILE_DIGITS: usize = 10_000;

/// Piles up to this size get every winning move listed by the analysis (one pass over the pile).
pub const LIST_ALL_UP_TO: u64 = 1_000_000;

/// Piles up to this size get a Grundy value from the analysis (a quadratic table).
pub const GRUNDY_UP_TO: u64 = 2000;

/// The k-multiplier take-away game (Fibonacci Nim for k = 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MultiplierNim {
    k: u64,
}

/// What the greedy representation says about one position, before [`analyze`] adds the moves
/// in words, every winning move of small piles and the Grundy value.
struct Solution {
    /// The most the player to move may take (already capped at the pile).
    limit: UBig,
    /// `N` when the player to move wins.
    outcome: Outcome,
    /// The greedy representation of the pile, largest term first (empty for an empty pile).
    representation: Vec<UBig>,
    /// The canonical winning take (the smallest term), when the player to move wins.
    winning_take: Option<UBig>,
}

impl MultiplierNim {
    /// The game where each move takes at most `k` times the previous one; `1 ≤ k ≤ 1000`.
    pub fn new(k: u64) -> Result<Self> {
        if k == 0 || k > MAX_MULTIPLIER {
            return Err(GameError::Invalid(format!(
                "multiplier {k} out of range 1..={MAX_MULTIPLIER}"
            )));
        }
        Ok(MultiplierNim { k })
    }

    /// Fibonacci Nim (k = 2).
    pub fn fibonacci() -> Self {
        MultiplierNim { k: 2 }
    }

    /// The multiplier k.
    pub fn k(&self) -> u64 {
        self.k
    }

    /// The losing pile sizes H(0) < H(1) < … that are ≤ `n` (at least H(0) = 1), ascending.
    pub fn losing_sizes(&self, n: &UBig) -> Result<Vec<UBig>> {
        let mut h = vec![UBig::ONE];
        let mut m = 0usize;
        let mut words = 0usize;
        loop {
            let last = h.last().expect("h starts non-empty");
            if last > n {
                h.pop();
                if h.is_empty() {
                    h.push(UBig::ONE);
                }
                return Ok(h);
            }
            words += 2 + last.bit_len() / 64;
            if h.len() >= MAX_LOSING_SIZES || words > MAX_LOSING_WORDS {
                return Err(GameError::TooLarge(format!(
                    "pile of {} digits too large for multiplier {}: its losing sizes would not \
                     fit in {} MiB",
                    n.to_string().len(),
                    self.k,
                    (MAX_LOSING_WORDS * 8) >> 20
                )));
            }
            // m = min{i : k·H(i) ≥ H(j)} never decreases as j grows.
            while &h[m] * self.k < *last {
                m += 1;
            }
            let next = last + &h[m];
            h.push(next);
        }
    }

    /// The greedy representation of `n`: its terms, largest first (empty for `n = 0`).
    ///
    /// Consecutive terms satisfy k·smaller < larger, which makes the representation unique.
    pub fn representation(&self, n: &UBig) -> Result<Vec<UBig>> {
        if n.is_zero() {
            return Ok(Vec::new());
        }
        let h = self.losing_sizes(n)?;
        let mut rest = n.clone();
        let mut terms = Vec::new();
        for term in h.iter().rev() {
            if rest.is_zero() {
                break;
            }
            if *term <= rest {
                rest -= term;
                terms.push(term.clone());
            }
        }
        debug_assert!(rest.is_zero());
        Ok(terms)
    }

    /// Solves the position (pile, limit): the mover may take 1..=min(limit, pile) counters.
    fn solve(&self, pile: &UBig, limit: &UBig) -> Result<Solution> {
        let limit = if limit > pile {
            pile.clone()
        } else {
            limit.clone()
        };
        let representation = self.representation(pile)?;
        let winning_take = match representation.last() {
            Some(smallest) if *smallest <= limit => Some(smallest.clone()),
            _ => None,
        };
        let outcome = if winning_take.is_some() {
            Outcome::N
        } else {
            Outcome::P
        };
        Ok(Solution {
            limit,
            outcome,
            representation,
            winning_take,
        })
    }

    /// The opening limit of a pile of `n`: the first move takes 1..n−1.
    fn opening_limit(pile: &UBig) -> UBig {
        if pile.is_zero() {
            UBig::ZERO
        } else {
            pile - UBig::ONE
        }
    }
}

/// One move of the k-multiplier game from `pile`: take `take` counters. The position left
/// (kind `pile`) has the limit k × `take` (capped at what is left); [`Move::at`] holds
/// `{"take": "3"}` (a decimal string).
fn take_move(pile: &UBig, take: &UBig, k: u64, outcome: Outcome, grundy: Option<u64>) -> Move {
    let rest = pile - take;
    let next = take * k;
    let next = if next > rest { rest.clone() } else { next };
    let (text, short) = FibRules::take_texts(pile, take, &rest);
    Move::new(
        text,
        &short,
        FibRules::position(&rest, &next),
        outcome,
        grundy,
    )
    .at("take", take.to_string())
}

/// Everything the report of one position of the k-multiplier game says; the fields not
/// skipped are its `details`:
/// `{"k", "pile", "limit", "opening", "representation", "all_winning_moves_listed"}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
struct Analysis {
    /// The multiplier: each move takes at most k times the previous one.
    k: u64,
    /// Counters in the pile (a decimal string in JSON).
    #[serde(serialize_with = "big_json::one")]
    pile: UBig,
    /// The most the player to move may take, capped at the pile (a decimal string in JSON).
    #[serde(serialize_with = "big_json::one")]
    limit: UBig,
    /// True when no limit was given: the opening move, which may take up to pile − 1.
    opening: bool,
    /// `N` when the player to move wins.
    #[serde(skip)]
    outcome: Outcome,
    /// The Sprague–Grundy value of (pile, limit), for piles up to [`GRUNDY_UP_TO`].
    #[serde(skip)]
    grundy: Option<u64>,
    /// The greedy (Zeckendorf for k = 2) representation of the pile, largest term first.
    #[serde(serialize_with = "big_json::seq")]
    representation: Vec<UBig>,
    /// Every winning move, smallest take first, for piles up to [`LIST_ALL_UP_TO`]; beyond,
    /// only the canonical one (take the smallest term). Empty in a P-position.
    #[serde(skip)]
    winning_moves: Vec<Move>,
    /// True when `winning_moves` is complete (piles up to [`LIST_ALL_UP_TO`]).
    all_winning_moves_listed: bool,
}

/// The first decimal digits of a long number, for error messages.
fn abbreviate(n: &UBig) -> String {
    let s = n.to_string();
    if s.len() <= 20 {
        s
    } else {
        format!("{}... ({} digits)", &s[..12], s.len())
    }
}

/// Solves the position (pile, limit) of the k-multiplier game: outcome, representation, every
/// winning move (piles up to [`LIST_ALL_UP_TO`]) and the Grundy value (piles up to
/// [`GRUNDY_UP_TO`]). Without a limit, the opening position: the mover may take pile − 1.
///
/// Refuses piles of more than [`MAX_PILE_DIGITS`] digits and multipliers outside 1..=1000.
fn analyze(pile: &UBig, limit: Option<&UBig>, k: u64) -> Result<Analysis> {
    let game = MultiplierNim::new(k)?;
    if *pile >= UBig::from(10u8).pow(MAX_PILE_DIGITS) {
        return Err(GameError::TooLarge(format!(
            "pile {} too large: at most {MAX_PILE_DIGITS} digits",
            abbreviate(pile)
        )));
    }
    let a = match limit {
        Some(l) => game.solve(pile, l)?,
        None => game.solve(pile, &MultiplierNim::opening_limit(pile))?,
    };
    let small = u64::try_from(pile).ok();
    // The limit is at most the pile, so it fits u64 whenever the pile does.
    let small_limit = u64::try_from(&a.limit).ok();
    let all = match (small, small_limit) {
        (Some(n), Some(l)) if n <= LIST_ALL_UP_TO => {
            Some(MoveTable::new(game, n)?.winning_moves(n, l))
        }
        _ => None,
    };
    let grundy = match (small, small_limit) {
        (Some(n), Some(l)) if n <= GRUNDY_UP_TO => GrundyTable::new(game, n)?.value(n, l),
        _ => None,
    };
    // A winning move leaves a P-position: value 0 where values are computed.
    let zero = grundy.map(|_| 0);
    let winning_move = a
        .winning_take
        .as_ref()
        .map(|t| take_move(pile, t, k, Outcome::P, zero));
    let winning_moves = match &all {
        Some(m) => m
            .iter()
            .map(|&t| take_move(pile, &UBig::from(t), k, Outcome::P, zero))
            .collect(),
        None => winning_move.iter().cloned().collect(),
    };
    Ok(Analysis {
        k,
        pile: pile.clone(),
        limit: a.limit,
        opening: limit.is_none(),
        outcome: a.outcome,
        grundy: grundy.map(u64::from),
        representation: a.representation,
        winning_moves,
        all_winning_moves_listed: all.is_some(),
    })
}

/// The smallest representation term of every pile up to a bound: every winning move at once.
///
/// A move taking `a` from (n, limit) wins iff `a ≤ limit` and either it empties the pile or
/// k·a is smaller than the smallest term of n − a (the opponent then cannot take it).
#[derive(Clone, Debug)]
pub struct MoveTable {
    k: u64,
    /// `smallest[m]` = smallest greedy term of m; `smallest[0]` = u64::MAX (no term).
    smallest: Vec<u64>,
}

/// The largest pile a [`MoveTable`] may cover (8 bytes per pile).
pub const MAX_TABLE_PILE: u64 = 10_000_000;

impl MoveTable {
    /// Tabulates piles `0..=n_max` for the multiplier of `game`, in O(n_max).
    pub fn new(game: MultiplierNim, n_max: u64) -> Result<Self> {
        if n_max > MAX_TABLE_PILE {
            return Err(GameError::TooLarge(format!(
                "pile {n_max} too large to list every move (at most {MAX_TABLE_PILE})"
            )));
        }
        let k = game.k;
        let len = usize::try_from(n_max + 1)
            .map_err(|_| GameError::TooLarge(format!("pile {n_max} too large")))?;
        let mut h: Vec<u64> = vec![1];
        let mut m = 0usize;
        let mut smallest = vec![u64::MAX; len];
        let mut top = 0usize; // index of the largest H ≤ current pile
        for pile in 1..=n_max {
            // Extend H past `pile` if needed.
            while *h.last().expect("non-empty") <= pile {
                let last = *h.last().expect("non-empty");
                while h[m].saturating_mul(k) < last {
                    m += 1;
                }
                h.push(last.saturating_add(h[m]));
            }
            while top + 1 < h.len() && h[top + 1] <= pile {
                top += 1;
            }
            let rest = pile - h[top];
            smallest[pile as usize] = if rest == 0 {
                pile
            } else {
                smallest[rest as usize]
            };
        }
        Ok(MoveTable { k, smallest })
    }

    /// The largest pile covered.
    pub fn max_pile(&self) -> u64 {
        (self.smallest.len() - 1) as u64
    }

    /// The smallest term of the greedy representation of `pile` (None for 0 or out of range).
    pub fn smallest_term(&self, pile: u64) -> Option<u64> {
        match self.smallest.get(usize::try_from(pile).ok()?) {
            Some(&s) if s != u64::MAX => Some(s),
            _ => None,
        }
    }

    /// True when the player to move from (pile, limit) loses. `pile` must be ≤ [`Self::max_pile`].
    pub fn is_losing(&self, pile: u64, limit: u64) -> bool {
        match self.smallest_term(pile) {
            None => true,
            Some(s) => s > limit,
        }
    }

    /// Every winning move (counters to take) from (pile, limit), ascending.
    pub fn winning_moves(&self, pile: u64, limit: u64) -> Vec<u64> {
        let top = limit.min(pile).min(self.max_pile());
        (1..=top)
            .filter(|&a| {
                let rest = pile - a;
                rest == 0 || self.smallest[rest as usize] > a.saturating_mul(self.k)
            })
            .collect()
    }
}

/// Grundy values of positions (pile, limit) for piles up to a small bound.
#[derive(Clone, Debug)]
pub struct GrundyTable {
    n_max: u64,
    /// Triangular: row `n` holds limits 0..=n at offset n(n+1)/2.
    values: Vec<u32>,
}

/// The largest pile a [`GrundyTable`] may cover (quadratic memory).
pub const MAX_GRUNDY_PILE: u64 = 5000;

impl GrundyTable {
    /// Computes G(n, limit) for all n ≤ n_max in O(n_max²): along a row the option set only
    /// grows with the limit, so one running mex per row suffices.
    pub fn new(game: MultiplierNim, n_max: u64) -> Result<Self> {
        if n_max > MAX_GRUNDY_PILE {
            return Err(GameError::TooLarge(format!(
                "pile {n_max} too large for a Grundy table (at most {MAX_GRUNDY_PILE})"
            )));
        }
        let n = n_max as usize;
        let mut values = vec![0u32; (n + 1) * (n + 2) / 2];
        let mut seen = vec![false; n + 2];
        let k = game.k as usize;
        for pile in 1..=n {
            seen[..pile + 2].iter_mut().for_each(|s| *s = false);
            let row = pile * (pile + 1) / 2;
            let mut mex = 0usize;
            for take in 1..=pile {
                let rest = pile - take;
                let next_limit = take.saturating_mul(k).min(rest);
                let v = values[rest * (rest + 1) / 2 + next_limit] as usize;
                if v < seen.len() {
                    seen[v] = true;
                }
                while seen[mex] {
                    mex += 1;
                }
                values[row + take] = mex as u32;
            }
        }
        Ok(GrundyTable { n_max, values })
    }

    /// G(pile, limit); the limit is capped at the pile. None beyond the table.
    pub fn value(&self, pile: u64, limit: u64) -> Option<u32> {
        if pile > self.n_max {
            return None;
        }
        let n = pile as usize;
        let l = limit.min(pile) as usize;
        Some(self.values[n * (n + 1) / 2 + l])
    }
}

/// The three textbook dynamic programs, kept as independent checks of the fast answers.
///
/// All three describe positions by (pile, limit) with the move rule of [`MultiplierNim`].
pub mod textbook {
    /// The O(N³) win table: `win[n][l]` for 0 ≤ l ≤ n ≤ n_max, straight from the definition.
    pub fn win_table(k: u64, n_max: usize) -> Vec<Vec<bool>> {
        let k = k as usize;
        let mut win: Vec<Vec<bool>> = Vec::with_capacity(n_max + 1);
        for n in 0..=n_max {
            let mut row = vec![false; n + 1];
            for (l, cell) in row.iter_mut().enumerate() {
                *cell = (1..=l).any(|a| {
                    let rest = n - a;
                    !win[rest][a.saturating_mul(k).min(rest)]
                });
            }
            win.push(row);
        }
        win
    }

    /// The O(N²) table of the smallest winning take `s[n]` from a pile with no limit
    /// (`usize::MAX` for n = 0): (n, l) is a win iff s(n) ≤ l.
    pub fn smallest_winning_take(k: u64, n_max: usize) -> Vec<usize> {
        let k = k as usize;
        let mut s = vec![usize::MAX; n_max + 1];
        for n in 1..=n_max {
            s[n] = (1..=n)
                .find(|&a| s[n - a] > a.saturating_mul(k))
                .expect("taking everything always wins");
        }
        s
    }

    /// The same table in O(N) with a monotonic stack.
    ///
    /// s(n) = n − j for the largest j < n with k·j + s(j) > k·n. The stack keeps indices with
    /// strictly decreasing keys k·j + s(j); the threshold k·n only grows, so entries that fail
    /// it once are discarded for good.
    pub fn smallest_winning_take_stack(k: u64, n_max: usize) -> Vec<usize> {
        let k = k as u128;
        let mut s = vec![usize::MAX; n_max + 1];
        let key = |j: usize, s: &[usize]| -> u128 {
            if j == 0 {
                u128::MAX
            } else {
                k * j as u128 + s[j] as u128
            }
        };
        let mut stack: Vec<usize> = vec![0];
        for n in 1..=n_max {
            let threshold = k * n as u128;
            while key(*stack.last().expect("index 0 never leaves"), &s) <= threshold {
                stack.pop();
            }
            let j = *stack.last().expect("index 0 never leaves");
            s[n] = n - j;
            let kn = key(n, &s);
            while key(*stack.last().expect("index 0 never leaves"), &s) <= kn {
                stack.pop();
            }
            stack.push(n);
        }
        s
    }
}

/// The k-multiplier game for the generic solver: positions (pile, limit) with machine
/// integers; the test oracle of the fast answers and the misère search of [`FibRules`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FibGame {
    /// The multiplier.
    pub k: u64,
}

impl grundy_core::Game for FibGame {
    type Position = (u64, u64);

    fn options(&self, &(pile, limit): &(u64, u64), out: &mut Vec<(u64, u64)>) {
        for t in 1..=limit.min(pile) {
            let rest = pile - t;
            out.push((rest, t.saturating_mul(self.k).min(rest)));
        }
    }
}

/// The most counters a pile may hold for misère play (answered by search over every
/// (pile, limit) below it).
pub const MISERE_PILE: u64 = 1000;

/// Piles beyond [`LIST_ALL_UP_TO`] get their moves listed (each valued from the greedy
/// representation of what it leaves) only when there are at most this many.
const BIG_PILE_MOVES: u64 = 100;

/// Fibonacci Nim in the catalogue: `fib` (aliases `fibonacci-nim`, `fibonacci`).
///
/// Positions: a pile (`20`: the opening, where the first move may take up to 19), or
/// `pile limit` (`20 6`: the mover may take 1..=6). Counts accept `1_000`, `2^100`, `1e30`.
/// Kind `pile`: `{"pile": "20", "limit": "19"}` (decimal strings: piles may have thousands
/// of digits).
#[derive(Clone, Copy, Debug, Default)]
pub struct FibEntry;

/// The k-multiplier family in the catalogue: `fib:K` (1 ≤ K ≤ 1000), each move taking at most
/// K times the previous one; the same positions as [`FibEntry`].
#[derive(Clone, Copy, Debug, Default)]
pub struct FibFamilyEntry;

const FIB_POSITION: &str = "a pile (the opening: the first move takes up to pile - 1) or \
    'pile limit' (the mover may take 1..=limit); counts may be written 1_000, 2^100 or 1e30";

/// The options of `fib`: the multiplier (`fib:K` names the same game) and the limit of the
/// move to make (the position `pile limit` says the same).
const FIB_PARAMS: [grundy_core::catalogue::Param; 2] = [
    grundy_core::catalogue::Param::count(
        "k",
        "the multiplier: each move takes at most K times the previous one (fib:K)",
        1,
        MAX_MULTIPLIER,
    ),
    grundy_core::catalogue::Param::number(
        "limit",
        "the most the player to move may take (the position 'PILE LIMIT')",
    ),
];

impl grundy_core::catalogue::Entry for FibEntry {
    fn info(&self) -> grundy_core::catalogue::Info {
        grundy_core::catalogue::Info {
            name: "fib".into(),
            aliases: vec!["fibonacci-nim".into(), "fibonacci".into()],
            summary: "Fibonacci Nim: take from one pile, at most twice what the opponent just took"
                .into(),
            example: "20".into(),
            example_game: None,
            position: FIB_POSITION.into(),
            kind: "pile".into(),
            family: false,
            misere: true,
            loopy: false,
            scoring: false,
            params: FIB_PARAMS.to_vec(),
        }
    }

    fn matches(&self, name: &str) -> bool {
        matches!(name, "fib" | "fibonacci-nim" | "fibonacci")
    }

    fn open(
        &self,
        _name: &str,
    ) -> grundy_core::catalogue::Result<Box<dyn grundy_core::catalogue::Rules>> {
        Ok(Box::new(FibRules::new(2)?))
    }
}

impl grundy_core::catalogue::Entry for FibFamilyEntry {
    fn info(&self) -> grundy_core::catalogue::Info {
        grundy_core::catalogue::Info {
            name: "fib:K".into(),
            aliases: Vec::new(),
            summary: "K-multiplier Nim: take from one pile, at most K times what the opponent \
                      just took (K = 2 is Fibonacci Nim)"
                .into(),
            example: "20".into(),
            example_game: Some("fib:3".into()),
            position: FIB_POSITION.into(),
            kind: "pile".into(),
            family: true,
            misere: true,
            loopy: false,
            scoring: false,
            params: FIB_PARAMS[1..].to_vec(),
        }
    }

    fn matches(&self, name: &str) -> bool {
        name.starts_with("fib:")
    }

    fn open(
        &self,
        name: &str,
    ) -> grundy_core::catalogue::Result<Box<dyn grundy_core::catalogue::Rules>> {
        let k = name.strip_prefix("fib:").unwrap_or(name);
        let k = crate::number::parse_bounded(k, "multiplier", 1, MAX_MULTIPLIER)?;
        Ok(Box::new(FibRules::new(k)?))
    }
}

/// The rules of the k-multiplier game for the catalogue: the greedy representation answers
/// normal play for piles of any size; tables list every move of piles up to
/// [`LIST_ALL_UP_TO`] and value those up to [`GRUNDY_UP_TO`]; misère play is searched (piles
/// up to [`MISERE_PILE`]).
pub struct FibRules {
    game: MultiplierNim,
    moves: Option<MoveTable>,
    grundy: Option<GrundyTable>,
    misere: Option<crate::catalogue::Search<FibGame>>,
}

impl FibRules {
    /// The rules for multiplier `k` (1 ≤ k ≤ 1000).
    pub fn new(k: u64) -> Result<FibRules> {
        Ok(FibRules {
            game: MultiplierNim::new(k)?,
            moves: None,
            grundy: None,
            misere: None,
        })
    }

    fn position(pile: &UBig, limit: &UBig) -> grundy_core::catalogue::Position {
        let opening = !pile.is_zero() && limit + UBig::ONE == *pile;
        let text = if opening || pile.is_zero() {
            pile.to_string()
        } else {
            format!("{pile} {limit}")
        };
        grundy_core::catalogue::Position::text("pile", text)
            .with("pile", pile.to_string())
            .with("limit", limit.to_string())
    }

    /// (pile, limit, opening) of a position's text.
    fn read(text: &str) -> grundy_core::catalogue::Result<(UBig, UBig, bool)> {
        let parts: Vec<&str> = text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|p| !p.is_empty())
            .collect();
        match parts[..] {
            [p] => {
                let pile = crate::number::parse_count(p, "pile")?;
                let limit = if pile.is_zero() {
                    UBig::ZERO
                } else {
                    &pile - UBig::ONE
                };
                Ok((pile, limit, true))
            }
            [p, l] => {
                let pile = crate::number::parse_count(p, "pile")?;
                let limit = crate::number::parse_count(l, "limit")?;
                let limit = if limit > pile { pile.clone() } else { limit };
                let opening = !pile.is_zero() && &limit + UBig::ONE == pile;
                Ok((pile, limit, opening))
            }
            _ => Err(grundy_core::catalogue::Error::input(format!(
                "a position of Fibonacci Nim is a pile or 'pile limit', not {}",
                grundy_core::text::quote(text.trim())
            ))),
        }
    }

    /// (pile, limit, opening) of a position's text under the question's settings: `k` switches
    /// these rules to that multiplier, `limit` replaces the position's limit.
    fn settle(
        &mut self,
        text: &str,
        ask: &grundy_core::catalogue::Ask,
    ) -> grundy_core::catalogue::Result<(UBig, UBig, bool)> {
        let (pile, mut limit, mut opening) = Self::read(text)?;
        if let Some(k) = ask.settings.count("k", &FIB_PARAMS)? {
            if k != self.game.k() {
                *self = FibRules::new(k)?;
            }
        }
        if let Some(l) = ask.settings.text("limit") {
            let l = crate::number::parse_count(l, "limit")?;
            limit = if l > pile { pile.clone() } else { l };
            opening = !pile.is_zero() && &limit + UBig::ONE == pile;
        }
        Ok((pile, limit, opening))
    }

    /// The move tables cover piles up to `pile` (built or grown on demand).
    fn tables(&mut self, pile: u64) -> Result<()> {
        if self.moves.as_ref().is_none_or(|t| t.max_pile() < pile) {
            self.moves = Some(MoveTable::new(self.game, pile.max(64))?);
        }
        if pile <= GRUNDY_UP_TO
            && self
                .grundy
                .as_ref()
                .is_none_or(|t| t.value(pile, 0).is_none())
        {
            self.grundy = Some(GrundyTable::new(self.game, pile.clamp(64, GRUNDY_UP_TO))?);
        }
        Ok(())
    }

    fn take_texts(pile: &UBig, take: &UBig, to: &UBig) -> (String, String) {
        let text = if to.is_zero() {
            format!("take all {} counters", shown(take))
        } else {
            format!(
                "take {} from the pile of {}, leaving {}",
                shown(take),
                shown(pile),
                shown(to)
            )
        };
        let short = if to.is_zero() {
            format!("take all {take}")
        } else {
            format!("take {take}, leave {to}")
        };
        (text, short)
    }

    /// Every move under normal play, valued by the tables (small piles) or the greedy
    /// representation (a few moves of a large pile).
    fn normal_moves(
        &mut self,
        pile: &UBig,
        limit: &UBig,
    ) -> grundy_core::catalogue::Result<Vec<grundy_core::catalogue::Move>> {
        let k = self.game.k();
        let count = u64::try_from(limit).unwrap_or(u64::MAX);
        crate::catalogue::check_moves(count, &format!("pile {}", abbreviate(pile)))?;
        let mut out = Vec::with_capacity(count as usize);
        match u64::try_from(pile).ok().filter(|&n| n <= LIST_ALL_UP_TO) {
            Some(n) => {
                self.tables(n)?;
                let table = self.moves.as_ref().expect("built above");
                for t in 1..=count {
                    let rest = n - t;
                    let next = t.saturating_mul(k).min(rest);
                    let outcome = if table.is_losing(rest, next) {
                        Outcome::P
                    } else {
                        Outcome::N
                    };
                    let g = self
                        .grundy
                        .as_ref()
                        .filter(|_| n <= GRUNDY_UP_TO)
                        .and_then(|g| g.value(rest, next))
                        .map(u64::from);
                    out.push(take_move(pile, &UBig::from(t), k, outcome, g));
                }
            }
            None => {
                if count > BIG_PILE_MOVES {
                    return Err(grundy_core::catalogue::Error::limit(format!(
                        "pile {} with limit {count}: too many moves to value (at most \
                         {BIG_PILE_MOVES} for piles over {LIST_ALL_UP_TO})",
                        abbreviate(pile)
                    )));
                }
                for t in 1..=count {
                    let take = UBig::from(t);
                    let rest = pile - &take;
                    let next = &take * k;
                    let next = if next > rest { rest.clone() } else { next };
                    let outcome = self.game.solve(&rest, &next)?.outcome;
                    out.push(take_move(pile, &take, k, outcome, None));
                }
            }
        }
        Ok(out)
    }

    /// Every move under misère play, by search (piles up to [`MISERE_PILE`]).
    fn misere_moves(
        &mut self,
        pile: &UBig,
        limit: &UBig,
        budget: &grundy_core::catalogue::Budget,
    ) -> grundy_core::catalogue::Result<Vec<grundy_core::catalogue::Move>> {
        let n = u64::try_from(pile)
            .ok()
            .filter(|&n| n <= MISERE_PILE)
            .ok_or_else(|| {
                grundy_core::catalogue::Error::limit(format!(
                    "pile {}: misère play is searched for piles up to {MISERE_PILE}",
                    abbreviate(pile)
                ))
            })?;
        let l = u64::try_from(limit).expect("the limit is at most the pile");
        let k = self.game.k();
        let search = self
            .misere
            .get_or_insert_with(|| crate::catalogue::Search::new(FibGame { k }));
        let children: Vec<(u64, u64)> = (1..=l)
            .map(|t| (n - t, t.saturating_mul(k).min(n - t)))
            .collect();
        let outcomes = search.run(budget, &format!("pile {n}"), |s| {
            children
                .iter()
                .map(|c| s.misere_outcome(c))
                .collect::<Vec<_>>()
        })?;
        Ok(children
            .iter()
            .zip(outcomes)
            .enumerate()
            .map(|(i, (_, outcome))| take_move(pile, &UBig::from(i + 1), k, outcome, None))
            .collect())
    }

    /// The explanation of a normal-play analysis, numbers of over 40 digits abbreviated.
    fn explain(&self, a: &Analysis) -> Vec<String> {
        let k = self.game.k();
        let show = |n: &UBig| {
            let s = n.to_string();
            if s.len() <= 40 {
                s
            } else {
                abbreviate(n)
            }
        };
        let join = |terms: &[UBig]| {
            let mut parts: Vec<String> = terms.iter().take(12).map(show).collect();
            if terms.len() > 12 {
                parts.push(format!("… ({} terms)", terms.len()));
            }
            parts.join(" + ")
        };
        let (kind, sizes) = if k == 2 {
            ("Zeckendorf", "Fibonacci numbers".to_string())
        } else {
            ("greedy", format!("losing sizes of the {k}-multiplier game"))
        };
        let mut lines = Vec::new();
        let Some(smallest) = a.representation.last() else {
            lines.push("The pile is empty: the player to move has lost.".to_string());
            return lines;
        };
        lines.push(format!(
            "The {kind} representation of the pile, as a sum of {sizes} none more than {k} \
             times the next: {} = {}.",
            show(&a.pile),
            join(&a.representation)
        ));
        if a.outcome == Outcome::N {
            let rest = &a.representation[..a.representation.len() - 1];
            match rest.last() {
                None => lines.push(format!(
                    "The pile is itself a losing size within reach: take all {}.",
                    show(smallest)
                )),
                Some(next) => lines.push(format!(
                    "Take the smallest term {}: what is left has smallest term {}, more than {k} \
                     times {} (the most the opponent may then take), so the opponent cannot \
                     take it.",
                    show(smallest),
                    show(next),
                    show(smallest)
                )),
            }
            if !a.all_winning_moves_listed {
                lines.push(format!(
                    "Only the canonical winning move is listed (every one is listed for piles \
                     up to {LIST_ALL_UP_TO})."
                ));
            }
        } else if a.representation.len() == 1 {
            lines.push(format!(
                "{} is itself a losing size: whatever you take, the opponent can take the \
                 smallest term of what is left.",
                show(&a.pile)
            ));
        } else {
            lines.push(format!(
                "The smallest term {} exceeds the limit {}: whatever you take, the opponent can \
                 take the smallest term of what is left and keep that property.",
                show(smallest),
                show(&a.limit)
            ));
        }
        lines
    }
}

impl grundy_core::catalogue::Rules for FibRules {
    fn name(&self) -> String {
        match self.game.k() {
            2 => "fib".into(),
            k => format!("fib:{k}"),
        }
    }

    fn parse(
        &self,
        text: &str,
    ) -> grundy_core::catalogue::Result<grundy_core::catalogue::Position> {
        let (pile, limit, _) = Self::read(text)?;
        Ok(Self::position(&pile, &limit))
    }

    fn moves(
        &mut self,
        pos: &grundy_core::catalogue::Position,
        ask: &grundy_core::catalogue::Ask,
    ) -> grundy_core::catalogue::Result<Vec<grundy_core::catalogue::Move>> {
        let (pile, limit, _) = self.settle(&pos.text, ask)?;
        if ask.play.is_misere() {
            self.misere_moves(&pile, &limit, &ask.budget)
        } else {
            self.normal_moves(&pile, &limit)
        }
    }

    fn analyze(
        &mut self,
        pos: &grundy_core::catalogue::Position,
        ask: &grundy_core::catalogue::Ask,
    ) -> grundy_core::catalogue::Result<grundy_core::catalogue::Report> {
        use grundy_core::catalogue::Report;
        let (pile, limit, opening) = self.settle(&pos.text, ask)?;
        let position = Self::position(&pile, &limit);
        let count = u64::try_from(&limit).ok();
        if ask.play.is_misere() {
            let moves = self.misere_moves(&pile, &limit, &ask.budget)?;
            let outcome = crate::catalogue::misere_from_options(&moves);
            let mut r = Report::new(self.name(), position, ask.play, outcome, None).at(ask.detail);
            r.explanation = grundy_core::catalogue::explain_misere(outcome, &moves);
            return Ok(r.with_moves(moves));
        }
        let k = self.game.k();
        let a = analyze(&pile, (!opening).then_some(&limit), k)?;
        let grundy = a.grundy.map(grundy_core::catalogue::Grundy::Finite);
        let mut r = Report::new(self.name(), position, ask.play, a.outcome, grundy);
        r.moves = count;
        r.explanation = self.explain(&a);
        r.details = serde_json::to_value(&a).unwrap_or_default();
        r.winning_moves = a.winning_moves;
        r.finish(ask.detail, || self.normal_moves(&pile, &limit))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fibonacci_losing_sizes_are_fibonacci_numbers() {
        let h = MultiplierNim::fibonacci()
            .losing_sizes(&UBig::from(100u32))
            .unwrap();
        let want: Vec<UBig> = [1u32, 2, 3, 5, 8, 13, 21, 34, 55, 89]
            .map(UBig::from)
            .to_vec();
        assert_eq!(h, want);
    }

    #[test]
    fn k1_losing_sizes_are_powers_of_two() {
        let h = MultiplierNim::new(1)
            .unwrap()
            .losing_sizes(&UBig::from(100u32))
            .unwrap();
        let want: Vec<UBig> = [1u32, 2, 4, 8, 16, 32, 64].map(UBig::from).to_vec();
        assert_eq!(h, want);
    }

    #[test]
    fn rejects_bad_multiplier() {
        assert!(MultiplierNim::new(0).is_err());
        assert!(MultiplierNim::new(MAX_MULTIPLIER + 1).is_err());
    }
}
