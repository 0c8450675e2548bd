//! Wythoff's game: two heaps; take any number from one heap, or the same number from both.
//!
//! The P-positions are (⌊jφ⌋, ⌊jφ²⌋) and their mirror images, j = 0, 1, 2, … (φ the golden
//! ratio). They are computed here with exact integer arithmetic for heaps of any size:
//! ⌊jφ⌋ = ⌊(j + ⌊√(5j²)⌋)/2⌋ by nesting floors, and ⌊jφ²⌋ = ⌊jφ⌋ + j. The two sequences
//! partition the positive integers (Beatty), so every heap size has exactly one partner, which
//! gives every winning move directly. [`GrundyTable`] gives Grundy values of small positions;
//! [`analyze`] answers one position completely as a serializable [`WythoffAnalysis`].
//!
//! ```
//! use grundy_games::{wythoff, UBig};
//!
//! let a = wythoff::analyze(&UBig::from(10u32), &UBig::from(20u32))?;
//! assert_eq!(a.outcome, grundy_core::Outcome::N);
//! assert_eq!(a.grundy, Some(28));
//! assert_eq!(a.winning_moves[0].to.text, "10 6");
//! assert_eq!(a.winning_moves[0].at["take_second"], "14");
//! assert_eq!(a.winning_moves[0].text, "take 14 from the second heap: (10, 20) -> (10, 6)");
//! # Ok::<(), grundy_games::GameError>(())
//! ```

use crate::error::{GameError, Result};
use crate::number::big_json;
use dashu::base::SquareRoot;
use dashu::integer::UBig;
use grundy_core::{Move, Outcome};
use serde::Serialize;
use std::fmt::Write as _;

/// Positions with both heaps below this get a Grundy value from [`analyze`].
pub const GRUNDY_UP_TO: u64 = 2000;

/// ⌊jφ⌋, the smaller coordinate of the j-th P-position.
pub fn lower(j: &UBig) -> UBig {
    let five_j2 = j * j * 5u32;
    (j + five_j2.sqrt()) >> 1
}

/// ⌊jφ²⌋ = ⌊jφ⌋ + j, the larger coordinate of the j-th P-position.
pub fn upper(j: &UBig) -> UBig {
    lower(j) + j
}

/// The j-th P-position (⌊jφ⌋, ⌊jφ²⌋).
pub fn p_position(j: &UBig) -> (UBig, UBig) {
    let a = lower(j);
    let b = &a + j;
    (a, b)
}

/// The unique heap size that pairs with `v` in a P-position (0 pairs with 0).
pub fn partner(v: &UBig) -> UBig {
    if v.is_zero() {
        return UBig::ZERO;
    }
    // ⌊v/φ⌋ = ⌊(⌊v√5⌋ − v)/2⌋; if v = ⌊jφ⌋ then j = ⌊v/φ⌋ + 1.
    let v_sqrt5 = (v * v * 5u32).sqrt();
    let j = ((&v_sqrt5 - v) >> 1) + UBig::ONE;
    if lower(&j) == *v {
        return v + j;
    }
    // Otherwise v = ⌊jφ²⌋ for j near v/φ² = v − v/φ; search the few candidates exactly.
    let approx = v - &j;
    let lo = if approx > UBig::from(2u32) {
        &approx - UBig::from(2u32)
    } else {
        UBig::ONE
    };
    let mut j = lo;
    loop {
        let b = upper(&j);
        if b == *v {
            return v - j;
        }
        assert!(
            b < v + UBig::from(4u32),
            "Beatty partition: v is in one of the sequences"
        );
        j += UBig::ONE;
    }
}

/// True when (x, y) is a P-position: the player to move loses.
pub fn is_p_position(x: &UBig, y: &UBig) -> bool {
    partner(x) == *y
}

/// The index j of a P-position (⌊jφ⌋, ⌊jφ²⌋) or its mirror image: the difference of the heaps.
pub fn p_index(x: &UBig, y: &UBig) -> UBig {
    if x <= y {
        y - x
    } else {
        x - y
    }
}

/// One move of Wythoff's game from (x, y) to `to`, which must lie on a row, column or
/// diagonal below it: the position left (kind `pair`), its outcome and value, and in
/// [`Move::at`] how many counters leave each heap (decimal strings):
/// `{"take_first": "0", "take_second": "14"}`, with `"p_index": "4"` (the index j of the
/// P-position reached) for a winning move under normal play.
fn step(x: &UBig, y: &UBig, to: &(UBig, UBig), outcome: Outcome, grundy: Option<u64>) -> Move {
    use crate::catalogue::shown;
    let (t1, t2) = (x - &to.0, y - &to.1);
    let what = if t2.is_zero() {
        format!("take {} from the first heap", shown(&t1))
    } else if t1.is_zero() {
        format!("take {} from the second heap", shown(&t2))
    } else {
        format!("take {} from both heaps", shown(&t1))
    };
    let text = format!(
        "{what}: ({}, {}) -> ({}, {})",
        shown(x),
        shown(y),
        shown(&to.0),
        shown(&to.1)
    );
    let short = if t2.is_zero() {
        format!("first -{t1} -> ({}, {})", to.0, to.1)
    } else if t1.is_zero() {
        format!("second -{t2} -> ({}, {})", to.0, to.1)
    } else {
        format!("both -{t1} -> ({}, {})", to.0, to.1)
    };
    Move::new(
        text,
        &short,
        WythoffRules::position(&to.0, &to.1),
        outcome,
        grundy,
    )
    .at("take_first", t1.to_string())
    .at("take_second", t2.to_string())
}

/// What a move takes, in words: "take 3 from the first heap", "… from both heaps".
fn action(take_first: &UBig, take_second: &UBig) -> String {
    if take_second.is_zero() {
        format!("take {take_first} from the first heap")
    } else if take_first.is_zero() {
        format!("take {take_second} from the second heap")
    } else {
        format!("take {take_first} from both heaps")
    }
}

/// The value a winning move leaves (0, a P-position) where [`analyze`] values positions.
fn zero_if_small(to: &(UBig, UBig)) -> Option<u64> {
    let small = |v: &UBig| u64::try_from(v).is_ok_and(|v| v < GRUNDY_UP_TO);
    (small(&to.0) && small(&to.1)).then_some(0)
}

/// Every winning move from (x, y): the moves to a P-position (none when (x, y) is one), by
/// destination. The position left has kind `pair`; [`Move::at`] says how many counters leave
/// each heap and which P-position is reached (decimal strings):
/// `{"take_first": "0", "take_second": "14", "p_index": "4"}`.
pub fn winning_moves(x: &UBig, y: &UBig) -> Vec<Move> {
    winning_targets(x, y)
        .iter()
        .map(|to| {
            step(x, y, to, Outcome::P, zero_if_small(to))
                .at("p_index", p_index(&to.0, &to.1).to_string())
        })
        .collect()
}

/// The positions the winning moves from (x, y) reach, sorted.
fn winning_targets(x: &UBig, y: &UBig) -> Vec<(UBig, UBig)> {
    let mut moves = Vec::new();
    let mk = |tx: UBig, ty: UBig| (tx, ty);
    let px = partner(y);
    if px < *x {
        moves.push(mk(px, y.clone()));
    }
    let py = partner(x);
    if py < *y {
        moves.push(mk(x.clone(), py));
    }
    // Same difference: the P-position (a_d, b_d), d = |x − y|.
    let (lo, d) = if x <= y { (x, y - x) } else { (y, x - y) };
    let a = lower(&d);
    if *lo > a {
        let t = lo - &a;
        moves.push(mk(x - &t, y - &t));
    }
    moves.sort();
    moves.dedup();
    moves
}

/// The outcome of (x, y).
pub fn outcome(x: &UBig, y: &UBig) -> Outcome {
    if is_p_position(x, y) {
        Outcome::P
    } else {
        Outcome::N
    }
}

/// Everything [`analyze`] says about one position (x, y) of Wythoff's game.
///
/// Heaps are decimal strings in JSON (they may have thousands of digits).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WythoffAnalysis {
    /// The first heap.
    #[serde(serialize_with = "big_json::one")]
    pub x: UBig,
    /// The second heap.
    #[serde(serialize_with = "big_json::one")]
    pub y: UBig,
    /// `N` when the player to move wins.
    pub outcome: Outcome,
    /// G(x, y) when both heaps are below [`GRUNDY_UP_TO`].
    pub grundy: Option<u64>,
    /// The index j when (x, y) is the j-th P-position (or its mirror image).
    #[serde(serialize_with = "big_json::opt")]
    pub p_index: Option<UBig>,
    /// Every winning move (to a P-position), by destination; empty in a P-position. Each
    /// [`Move::at`] holds `take_first`, `take_second` and `p_index` (decimal strings).
    pub winning_moves: Vec<Move>,
}

/// Solves (x, y): outcome, every winning move, the P-position index, and the Grundy value of
/// small positions. Heaps of any size; only the Grundy value needs both below
/// [`GRUNDY_UP_TO`].
pub fn analyze(x: &UBig, y: &UBig) -> Result<WythoffAnalysis> {
    let outcome = outcome(x, y);
    let small = |v: &UBig| u64::try_from(v).ok().filter(|&v| v < GRUNDY_UP_TO);
    let grundy = match (small(x), small(y)) {
        (Some(a), Some(b)) => {
            GrundyTable::new(a.max(b) as usize + 1)?.value(a as usize, b as usize)
        }
        _ => None,
    };
    Ok(WythoffAnalysis {
        x: x.clone(),
        y: y.clone(),
        outcome,
        grundy: grundy.map(u64::from),
        p_index: (outcome == Outcome::P).then(|| p_index(x, y)),
        winning_moves: winning_moves(x, y),
    })
}

/// The j-th P-position, as [`nth`] reports it: `{"index": "2", "position": ["3", "5"]}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NthPosition {
    /// The index j.
    #[serde(serialize_with = "big_json::one")]
    pub index: UBig,
    /// (⌊jφ⌋, ⌊jφ²⌋).
    #[serde(serialize_with = "big_json::pair")]
    pub position: (UBig, UBig),
}

/// The j-th P-position (⌊jφ⌋, ⌊jφ²⌋), exact for any j.
pub fn nth(j: &UBig) -> NthPosition {
    NthPosition {
        index: j.clone(),
        position: p_position(j),
    }
}

/// The largest side of a [`GrundyTable`].
pub const MAX_TABLE_SIDE: usize = 5000;

/// Grundy values G(x, y) for 0 ≤ x, y < side.
///
/// Serializes as `{"size": side, "table": [[G(0,0), G(0,1), …], …]}` (row x, column y).
///
/// Cells are filled row by row; each row, column and diagonal keeps the set of values seen so
/// far as a bitset, and G(x, y) is the mex of the union of its three sets: O(side³/64).
#[derive(Clone, Debug)]
pub struct GrundyTable {
    side: usize,
    values: Vec<u32>,
}

impl GrundyTable {
    /// Computes the table; `side ≤ 5000`.
    pub fn new(side: usize) -> Result<Self> {
        if side == 0 {
            return Err(GameError::Invalid("table size must be at least 1".into()));
        }
        if side > MAX_TABLE_SIDE {
            return Err(GameError::TooLarge(format!(
                "table size {side} too large (at most {MAX_TABLE_SIDE})"
            )));
        }
        let words = (2 * side) / 64 + 1;
        let mut cols = vec![0u64; side * words];
        let mut diags = vec![0u64; (2 * side) * words];
        let mut row = vec![0u64; words];
        let mut values = vec![0u32; side * side];
        for x in 0..side {
            row.iter_mut().for_each(|w| *w = 0);
            for y in 0..side {
                let c = &cols[y * words..(y + 1) * words];
                let di = y + side - x;
                let d = &diags[di * words..(di + 1) * words];
                let mut g = 0usize;
                for i in 0..words {
                    let union = row[i] | c[i] | d[i];
                    if union != u64::MAX {
                        g = i * 64 + union.trailing_ones() as usize;
                        break;
                    }
                }
                values[x * side + y] = g as u32;
                let (w, bit) = (g / 64, 1u64 << (g % 64));
                row[w] |= bit;
                cols[y * words + w] |= bit;
                diags[di * words + w] |= bit;
            }
        }
        Ok(GrundyTable { side, values })
    }

    /// The side of the table.
    pub fn side(&self) -> usize {
        self.side
    }

    /// G(x, y), or None outside the table.
    pub fn value(&self, x: usize, y: usize) -> Option<u32> {
        if x < self.side && y < self.side {
            Some(self.values[x * self.side + y])
        } else {
            None
        }
    }
}

impl Serialize for GrundyTable {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        /// One row of the table, serialized in place.
        struct Rows<'a>(&'a GrundyTable);
        impl Serialize for Rows<'_> {
            fn serialize<S: serde::Serializer>(
                &self,
                s: S,
            ) -> std::result::Result<S::Ok, S::Error> {
                let n = self.0.side;
                s.collect_seq(self.0.values.chunks(n.max(1)))
            }
        }
        let mut st = s.serialize_struct("GrundyTable", 2)?;
        st.serialize_field("size", &self.side)?;
        st.serialize_field("table", &Rows(self))?;
        st.end()
    }
}

/// G(x, y) straight from the definition (cubic time): the oracle for [`GrundyTable`].
pub fn grundy_naive(side: usize) -> Vec<Vec<u32>> {
    let mut g = vec![vec![0u32; side]; side];
    for x in 0..side {
        for y in 0..side {
            let mut seen = vec![false; x + y + 2];
            for x2 in 0..x {
                seen[g[x2][y] as usize] = true;
            }
            for y2 in 0..y {
                seen[g[x][y2] as usize] = true;
            }
            for t in 1..=x.min(y) {
                seen[g[x - t][y - t] as usize] = true;
            }
            g[x][y] = seen.iter().position(|s| !s).expect("mex exists") as u32;
        }
    }
    g
}

/// The i-th P-position of r-Wythoff (Fraenkel): (⌊iα⌋, ⌊iα⌋ + r·i) with
/// α = (2 − r + √(r² + 4))/2; r = 1 is Wythoff's game. Exact for any i and r ≥ 1:
/// ⌊iα⌋ = ⌊(⌊√(i²(r²+4))⌋ + 2i − r·i)/2⌋, and the numerator is never negative since
/// √(r² + 4) > r.
pub fn r_p_position(r: u64, i: &UBig) -> (UBig, UBig) {
    let disc = i * i * (UBig::from(r) * r + UBig::from(4u32));
    let a = (disc.sqrt() + i * 2u32 - i * r) >> 1;
    let b = &a + i * r;
    (a, b)
}

/// r-Wythoff (Fraenkel's generalisation): take any number from one heap, or `a` from one and
/// `b` from the other with a, b ≥ 1 and |a − b| < r. Positions are (x, y) heap pairs; the
/// generic solver values them (small heaps only), which checks [`r_p_position`].
#[derive(Clone, Copy, Debug)]
pub struct RWythoff {
    /// The tolerance r ≥ 1 (r = 1: Wythoff's game).
    pub r: u64,
}

impl grundy_core::Game for RWythoff {
    type Position = (u64, u64);

    fn options(&self, &(x, y): &(u64, u64), out: &mut Vec<(u64, u64)>) {
        out.extend((0..x).map(|x2| (x2, y)));
        out.extend((0..y).map(|y2| (x, y2)));
        for a in 1..=x {
            let lo = a.saturating_sub(self.r - 1).max(1);
            let hi = (a + self.r - 1).min(y);
            out.extend((lo..=hi).map(|b| (x - a, y - b)));
        }
    }
}

impl WythoffAnalysis {
    /// The analysis as text for a reader, the words every front end shows (`grundy wythoff X
    /// Y`): the Grundy value of small positions, the outcome and why, every winning move.
    ///
    /// ```
    /// use grundy_games::{wythoff, UBig};
    ///
    /// let a = wythoff::analyze(&UBig::from(3u8), &UBig::from(5u8))?;
    /// assert_eq!(a.describe().lines().nth(2), Some("Outcome: P - the player to move loses."));
    /// # Ok::<(), grundy_games::GameError>(())
    /// ```
    pub fn describe(&self) -> String {
        let (x, y) = (&self.x, &self.y);
        let mut s = format!("Wythoff's game at ({x}, {y})\n");
        if let Some(g) = self.grundy {
            let _ = writeln!(s, "Grundy value: {g}");
        }
        match (self.outcome, &self.p_index) {
            (Outcome::P, Some(j)) => {
                s.push_str("Outcome: P - the player to move loses.\n");
                let _ = writeln!(
                    s,
                    "({x}, {y}) is P-position number {j}: (floor({j}*phi), floor({j}*phi^2)) up \
                     to order. Every move changes one heap or the difference, so it leaves the \
                     P-positions, and the opponent can always return to one."
                );
            }
            _ => {
                s.push_str("Outcome: N - the player to move wins.\n");
                s.push_str("Winning moves (each reaches a P-position):\n");
                for to in winning_targets(&self.x, &self.y) {
                    let _ = writeln!(
                        s,
                        "  {} -> ({}, {}), P-position number {}",
                        action(&(&self.x - &to.0), &(&self.y - &to.1)),
                        to.0,
                        to.1,
                        p_index(&to.0, &to.1)
                    );
                }
            }
        }
        s
    }
}

impl NthPosition {
    /// One line of text: `P-position 2: (3, 5)`.
    ///
    /// ```
    /// use grundy_games::{wythoff, UBig};
    ///
    /// assert_eq!(wythoff::nth(&UBig::from(2u8)).describe(), "P-position 2: (3, 5)\n");
    /// ```
    pub fn describe(&self) -> String {
        let (a, b) = &self.position;
        format!("P-position {}: ({a}, {b})\n", self.index)
    }
}

impl GrundyTable {
    /// The table as text: a title, then row x as the values G(x, y), right-aligned.
    ///
    /// ```
    /// use grundy_games::wythoff::GrundyTable;
    ///
    /// let t = GrundyTable::new(3)?;
    /// assert_eq!(t.describe().lines().nth(2), Some("1 2 0"));
    /// # Ok::<(), grundy_games::GameError>(())
    /// ```
    pub fn describe(&self) -> String {
        let n = self.side;
        let width = (2 * n).to_string().len();
        let mut s = String::from("G(x, y) of Wythoff's game: row x, column y\n");
        for row in self.values.chunks(n.max(1)) {
            let row: Vec<String> = row.iter().map(|g| format!("{g:>width$}")).collect();
            let _ = writeln!(s, "{}", row.join(" "));
        }
        s
    }
}

/// True when (x, y) is a P-position of misère Wythoff (the player who takes the last counter
/// loses): (0, 1), (1, 0), (2, 2), and from j = 2 on the normal-play pairs (⌊jφ⌋, ⌊jφ²⌋) and
/// their mirror images.
pub fn is_misere_p_position(x: &UBig, y: &UBig) -> bool {
    let small = |v: &UBig| u64::try_from(v).ok().filter(|&v| v <= 2);
    if let (Some(a), Some(b)) = (small(x), small(y)) {
        return matches!((a, b), (0, 1) | (1, 0) | (2, 2));
    }
    is_p_position(x, y)
}

/// Every winning move of misère Wythoff from (x, y): the moves to a misère P-position (their
/// [`Move::at`] holds `take_first` and `take_second`).
pub fn misere_winning_moves(x: &UBig, y: &UBig) -> Vec<Move> {
    let differs = [(0u32, 0u32), (1, 2), (2, 1)];
    let mut moves: Vec<(UBig, UBig)> = winning_targets(x, y)
        .into_iter()
        .filter(|to| {
            !differs
                .iter()
                .any(|&(a, b)| *to == (UBig::from(a), UBig::from(b)))
        })
        .collect();
    for (a, b) in [(0u32, 1u32), (1, 0), (2, 2)] {
        let (a, b) = (UBig::from(a), UBig::from(b));
        let reachable =
            (a == *x && b < *y) || (b == *y && a < *x) || (a < *x && b < *y && x - &a == y - &b);
        if reachable {
            moves.push((a, b));
        }
    }
    moves.sort();
    moves
        .iter()
        .map(|to| step(x, y, to, Outcome::P, None))
        .collect()
}

/// Wythoff's game in the catalogue: `wythoff`. Positions `x y` (two heaps of any size; counts
/// may be written `1_000`, `2^100`, `1e30`). Kind `pair`: `{"x": "3", "y": "5"}` (decimal
/// strings). Misère play is answered by its known P-positions, for heaps of any size.
#[derive(Clone, Copy, Debug, Default)]
pub struct WythoffEntry;

impl grundy_core::catalogue::Entry for WythoffEntry {
    fn info(&self) -> grundy_core::catalogue::Info {
        grundy_core::catalogue::Info {
            name: "wythoff".into(),
            aliases: Vec::new(),
            summary: "Wythoff's game: take any number from one heap, or the same number from both"
                .into(),
            example: "10 20".into(),
            example_game: None,
            position: "two heaps 'x y' (any size; counts may be written 1_000, 2^100 or 1e30), \
                       or 'p:J' for the J-th P-position (⌊Jφ⌋, ⌊Jφ²⌋)"
                .into(),
            kind: "pair".into(),
            family: false,
            misere: true,
            loopy: false,
            scoring: false,
            params: Vec::new(),
        }
    }

    fn matches(&self, name: &str) -> bool {
        name == "wythoff"
    }

    fn open(
        &self,
        _name: &str,
    ) -> grundy_core::catalogue::Result<Box<dyn grundy_core::catalogue::Rules>> {
        Ok(Box::new(WythoffRules::default()))
    }
}

/// The rules of Wythoff's game for the catalogue: the Beatty pairs answer any size; a Grundy
/// table (kept and grown between calls) values positions with both heaps below
/// [`GRUNDY_UP_TO`].
#[derive(Debug, Default)]
pub struct WythoffRules {
    table: Option<GrundyTable>,
}

impl WythoffRules {
    fn position(x: &UBig, y: &UBig) -> grundy_core::catalogue::Position {
        grundy_core::catalogue::Position::text("pair", format!("{x} {y}"))
            .with("x", x.to_string())
            .with("y", y.to_string())
    }

    fn read(text: &str) -> grundy_core::catalogue::Result<(UBig, UBig)> {
        if let Some(j) = text.trim().strip_prefix("p:") {
            let j = crate::number::parse_count(j, "index")?;
            let (x, y) = p_position(&j);
            return Ok((x, y));
        }
        let t = text.trim().trim_start_matches('(').trim_end_matches(')');
        let parts: Vec<&str> = t
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|p| !p.is_empty())
            .collect();
        match parts[..] {
            [x, y] => Ok((
                crate::number::parse_count(x, "heap")?,
                crate::number::parse_count(y, "heap")?,
            )),
            _ => Err(grundy_core::catalogue::Error::input(format!(
                "a position of Wythoff's game is two heaps 'x y', not {}",
                grundy_core::text::quote(text.trim())
            ))),
        }
    }

    /// The value of (x, y) from the table, when both heaps are below [`GRUNDY_UP_TO`].
    fn value(&mut self, x: u64, y: u64) -> Result<Option<u64>> {
        if x.max(y) >= GRUNDY_UP_TO {
            return Ok(None);
        }
        let side = x.max(y) as usize + 1;
        if self.table.as_ref().is_none_or(|t| t.side() < side) {
            self.table = Some(GrundyTable::new(side.max(64))?);
        }
        let t = self.table.as_ref().expect("built above");
        Ok(t.value(x as usize, y as usize).map(u64::from))
    }
}

impl grundy_core::catalogue::Rules for WythoffRules {
    fn name(&self) -> String {
        "wythoff".into()
    }

    fn parse(
        &self,
        text: &str,
    ) -> grundy_core::catalogue::Result<grundy_core::catalogue::Position> {
        let (x, y) = Self::read(text)?;
        Ok(Self::position(&x, &y))
    }

    fn moves(
        &mut self,
        pos: &grundy_core::catalogue::Position,
        ask: &grundy_core::catalogue::Ask,
    ) -> grundy_core::catalogue::Result<Vec<grundy_core::catalogue::Move>> {
        let play = ask.play;
        let (x, y) = Self::read(&pos.text)?;
        let count = u64::try_from(&(&x + &y + x.clone().min(y.clone()))).unwrap_or(u64::MAX);
        crate::catalogue::check_moves(count, &format!("({x}, {y})"))?;
        let (a, b) = (
            u64::try_from(&x).unwrap_or(0),
            u64::try_from(&y).unwrap_or(0),
        );
        let mut targets = Vec::with_capacity(count as usize);
        targets.extend((0..a).rev().map(|i| (i, b)));
        targets.extend((0..b).rev().map(|j| (a, j)));
        targets.extend((1..=a.min(b)).map(|t| (a - t, b - t)));
        let mut out = Vec::with_capacity(targets.len());
        for (i, j) in targets {
            let to = (UBig::from(i), UBig::from(j));
            let (outcome, g) = if play.is_misere() {
                let p = is_misere_p_position(&to.0, &to.1);
                (if p { Outcome::P } else { Outcome::N }, None)
            } else {
                (outcome(&to.0, &to.1), self.value(i, j)?)
            };
            out.push(step(&x, &y, &to, outcome, g));
        }
        Ok(out)
    }

    fn analyze(
        &mut self,
        pos: &grundy_core::catalogue::Position,
        ask: &grundy_core::catalogue::Ask,
    ) -> grundy_core::catalogue::Result<grundy_core::catalogue::Report> {
        use grundy_core::catalogue::Report;
        let play = ask.play;
        let (x, y) = Self::read(&pos.text)?;
        let position = Self::position(&x, &y);
        let count = u64::try_from(&(&x + &y + x.clone().min(y.clone()))).ok();
        let j = p_index(&x, &y);
        if play.is_misere() {
            let p = is_misere_p_position(&x, &y);
            let outcome = if p { Outcome::P } else { Outcome::N };
            let mut r = Report::new("wythoff", position, play, outcome, None);
            r.moves = count;
            r.winning_moves = misere_winning_moves(&x, &y);
            r.explanation = vec![
                "Under misère play the P-positions are (0, 1), (1, 0), (2, 2) and, from j = 2 \
                 on, the normal-play pairs (⌊jφ⌋, ⌊jφ²⌋) with their mirror images."
                    .to_string(),
                if p {
                    format!("({x}, {y}) is one of them: every move leaves a position the opponent wins.")
                } else {
                    format!("({x}, {y}) is not one of them: a winning move reaches one.")
                },
            ];
            return r.finish(ask.detail, || self.moves(pos, ask));
        }
        let a = analyze(&x, &y)?;
        let grundy = a.grundy.map(grundy_core::catalogue::Grundy::Finite);
        let mut r = Report::new("wythoff", position, play, a.outcome, grundy);
        r.moves = count;
        r.winning_moves = a.winning_moves.clone();
        let mut lines = vec![
            "The P-positions are the pairs (⌊jφ⌋, ⌊jφ²⌋), j = 0, 1, 2, …, and their mirror \
             images (φ the golden ratio): the two sequences split the positive integers \
             (Beatty), so every heap size has exactly one partner."
                .to_string(),
        ];
        if a.outcome == Outcome::P {
            lines.push(format!(
                "({x}, {y}) is the pair with j = {j} (the difference of the heaps): every move \
                 leaves a position the opponent wins."
            ));
        } else {
            lines.push(format!(
                "({x}, {y}) is not such a pair: a winning move takes one heap to the partner of \
                 the other, or both heaps to the pair whose difference is theirs."
            ));
        }
        r.explanation = lines;
        r.details = serde_json::to_value(&a).unwrap_or_default();
        r.finish(ask.detail, || self.moves(pos, ask))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_p_positions() {
        let got: Vec<(u32, u32)> = (0u32..8)
            .map(|j| {
                let (a, b) = p_position(&UBig::from(j));
                (a.try_into().unwrap(), b.try_into().unwrap())
            })
            .collect();
        assert_eq!(
            got,
            vec![
                (0, 0),
                (1, 2),
                (3, 5),
                (4, 7),
                (6, 10),
                (8, 13),
                (9, 15),
                (11, 18)
            ]
        );
    }

    #[test]
    fn partners_are_symmetric() {
        for v in 0u32..2000 {
            let v = UBig::from(v);
            assert_eq!(partner(&partner(&v)), v);
        }
    }
}
