//! Nim and misère Nim in closed form: nim-sum, outcome, every winning move, explained.
//!
//! Normal play (Bouton): the player to move loses iff the nim-sum `X` (XOR of the heaps) is 0;
//! otherwise the winning moves are exactly the heaps `h` with a 1 at the leading bit of `X`,
//! each reduced to `h ⊕ X`. Misère play (the last mover loses): play as in Nim unless the move
//! would leave only heaps of size ≤ 1; then leave an odd number of heaps of size 1.
//!
//! Heaps can be fed one at a time to a [`NimStream`], which keeps the running nim-sum and a few
//! counters; it stores the heaps themselves only when asked to (listing every winning move
//! needs them, since which heaps qualify depends on the final nim-sum). Heap lists in text are
//! parsed by [`HeapParser`], a byte-level parser meant for very long inputs.

use crate::catalogue::{shorten, Move, Position};
use crate::game::{Game, Outcome};
use crate::text::{quote, JsonU64};
use crate::Grundy;
use std::fmt::Write as _;

pub use crate::game::Play;

/// A move as the closed forms find it: reduce heap `heap` (0-based) from `from` counters to
/// `left`. Internal: the public API gives every move as the workspace's one [`Move`]
/// ([`NimAnalysis::moves`], [`winning_moves`], [`nim_move`]); this copy of three numbers is
/// what the lazy JSON and the explanation read, so that a position of millions of heaps is
/// never copied into each of its moves unless asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Step {
    heap: usize,
    from: u64,
    left: u64,
}

impl Step {
    /// Counters taken: `from − left`.
    fn removed(&self) -> u64 {
        self.from - self.left
    }

    /// The move in words, for students: "heap 0: take 1 from the heap of 10, leaving 9", or
    /// "heap 2: take all 3 counters" ("heap 1: take the last counter").
    fn text(&self) -> String {
        if self.left == 0 && self.from == 1 {
            format!("heap {}: take the last counter", self.heap)
        } else if self.left == 0 {
            format!("heap {}: take all {} counters", self.heap, self.from)
        } else {
            format!(
                "heap {}: take {} from the heap of {}, leaving {}",
                self.heap,
                self.removed(),
                self.from,
                self.left
            )
        }
    }

    /// The move in at most 30 columns: "heap 0: 10 → 9".
    fn short(&self) -> String {
        shorten(
            &format!("heap {}: {} → {}", self.heap, self.from, self.left),
            30,
        )
    }

    /// The heaps after the move.
    fn to(&self, heaps: &[u64]) -> Vec<u64> {
        let mut p = heaps.to_vec();
        p[self.heap] = self.left;
        p
    }

    /// The move as the catalogue's [`Move`] (see [`nim_move`] for its fields).
    fn into_move(self, heaps: &[u64], outcome: Outcome, grundy: Option<u64>) -> Move {
        self.with_position(Position::heaps(&self.to(heaps)), outcome, grundy)
    }

    /// The move as a [`Move`] that leaves `to`.
    fn with_position(self, to: Position, outcome: Outcome, grundy: Option<u64>) -> Move {
        Move::new(self.text(), &self.short(), to, outcome, grundy)
            .at("heap", self.heap)
            .at("from", JsonU64(self.from))
            .at("removed", JsonU64(self.removed()))
            .at("left", JsonU64(self.left))
    }
}

/// Any move of Nim, winning or not, as the workspace's one [`Move`]: reduce heap `heap`
/// (0-based) of `heaps` to `left` counters, with the outcome of the position it leaves (and,
/// in normal play, that position's nim-sum as `grundy`). `None` when there is no such heap
/// or `left` is not below its size.
///
/// The move's `text` is "heap 0: take 1 from the heap of 10, leaving 9" ("heap 2: take all 3
/// counters" when it empties the heap), `short` "heap 0: 10 → 9", `to` the position after it
/// ([`Position::heaps`], kind `"heaps"`, what the catalogue's `nim` and `misere-nim` entries
/// read back) and [`Move::at`] holds `heap` (the index), `from`, `removed` and `left` (sizes,
/// decimal strings above 2^53). Linear in the number of heaps.
///
/// ```
/// use grundy_core::nim::{nim_move, Play};
/// use grundy_core::Outcome;
/// let m = nim_move(&[10, 12, 5], 0, 9, Play::Normal).unwrap();
/// assert_eq!((m.to.text.as_str(), m.outcome), ("9 12 5", Outcome::P));
/// assert_eq!(m.at["left"], 9);
/// ```
pub fn nim_move(heaps: &[u64], heap: usize, left: u64, play: Play) -> Option<Move> {
    let from = *heaps.get(heap)?;
    if left >= from {
        return None;
    }
    let step = Step { heap, from, left };
    let mut after = NimStream::new(false);
    for h in after_sizes(step, heaps) {
        after.push(h);
    }
    let after = after.finish(play);
    let grundy = (play == Play::Normal).then_some(after.nim_sum);
    Some(step.into_move(heaps, after.outcome, grundy))
}

/// Which moves win, described without listing them (the list can be as long as the input).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WinningMoves {
    /// No winning move: a P-position, or a misère position with no move at all.
    None,
    /// Every heap with a 1 at bit `bit` (the leading bit of `nim_sum`) goes to `h ⊕ nim_sum`.
    ReduceByNimSum {
        /// The leading bit of the nim-sum (0-based).
        bit: u32,
        /// The nim-sum.
        nim_sum: u64,
    },
    /// Misère, all heaps ≤ 1 and an even number of 1s: empty any heap of size 1.
    EmptyAOne,
    /// Misère, exactly one heap ≥ 2: this single move leaves an odd number of 1s.
    Single {
        /// Which heap is reduced (0-based, in input order).
        heap: usize,
        /// Its size before the move.
        from: u64,
        /// Its size after the move (0 or 1).
        left: u64,
    },
}

impl WinningMoves {
    /// The moves, given the heaps they were computed from.
    fn steps<'a>(&'a self, heaps: &'a [u64]) -> impl Iterator<Item = Step> + 'a {
        heaps
            .iter()
            .enumerate()
            .filter_map(move |(i, &h)| match *self {
                WinningMoves::None => None,
                WinningMoves::ReduceByNimSum { bit, nim_sum } => {
                    (h >> bit & 1 == 1).then_some(Step {
                        heap: i,
                        from: h,
                        left: h ^ nim_sum,
                    })
                }
                WinningMoves::EmptyAOne => (h == 1).then_some(Step {
                    heap: i,
                    from: 1,
                    left: 0,
                }),
                WinningMoves::Single { heap, from, left } => {
                    (heap == i).then_some(Step { heap, from, left })
                }
            })
    }
}

/// Most heap sizes that the `to` positions of [`NimAnalysis`]'s JSON `winning_moves` hold
/// together (2^20): while the moves listed × `heap_count` stays within it, each move's `to` is
/// the whole position after it; past it every `to` is abbreviated to
/// `{"kind": "heaps", "text": "", "abbreviated": true}` (the position is the input's heaps
/// with heap `at.heap` set to `at.left`), so that the JSON stays linear in the input (each
/// `to` would otherwise repeat the whole position: billions of numbers for 10^5 heaps). The
/// Rust API ([`NimAnalysis::moves`]) gives every move its whole position.
pub const JSON_LISTED_SIZES: u64 = 1 << 20;

/// Most winning moves [`NimAnalysis`]'s JSON lists (2^16, about 13 MB of abbreviated moves):
/// the first of them in heap order, with `all_winning_moves_listed` false past it. The Rust
/// API lists them all.
pub const JSON_LISTED_MOVES: u64 = 1 << 16;

/// The complete answer for a Nim position: what `grundy nim --json` prints.
///
/// Serializes (custom impl) as the object
/// `{"play", "heap_count", "grundy", "nim_sum", "outcome", "winning_move_count",
/// "winning_moves", "all_winning_moves_listed"}`, the last two only when the heaps were kept
/// (`heaps` is `Some`); `grundy` and `nim_sum` are the same number, a string above 2^53. Each
/// move is written, lazily, exactly as the [`Move`] of [`NimAnalysis::moves`] serializes
/// (`{"text", "short", "to", "outcome", "grundy", "at"}`), at most [`JSON_LISTED_MOVES`] of
/// them, with `to` abbreviated past [`JSON_LISTED_SIZES`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NimAnalysis {
    /// Normal or misère play.
    pub play: Play,
    /// Number of heaps (zeros included).
    pub heap_count: u64,
    /// XOR of all heaps: the normal-play Sprague–Grundy value of the position (reported as
    /// `grundy` too, under misère play as well, where it decides only when a heap is ≥ 2).
    pub nim_sum: u64,
    /// `N` if the player to move wins.
    pub outcome: Outcome,
    /// Which moves win; list them with [`NimAnalysis::moves`].
    pub winning_moves: WinningMoves,
    /// How many winning moves there are.
    pub winning_move_count: u64,
    /// Heaps of size 1 (the misère rule depends on them).
    pub ones: u64,
    /// Heaps of size ≥ 2 (the misère rule depends on them).
    pub big: u64,
    /// The heaps analysed, when kept (needed to list the moves; `None` from a counting
    /// stream or [`NimStream::finish`]).
    pub heaps: Option<Vec<u64>>,
}

impl NimAnalysis {
    /// Every winning move (none if the heaps were not kept), in heap order, each built lazily
    /// as a [`Move`] (fields as at [`nim_move`]): outcome `P`, and `grundy` 0 in normal play
    /// (none under misère play). Each move holds the whole position after it, so listing all
    /// the moves of a huge position is quadratic; take what you need.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        let heaps = self.heaps.as_deref().unwrap_or(&[]);
        let grundy = (self.play == Play::Normal).then_some(0);
        self.winning_moves
            .steps(heaps)
            .map(move |m| m.into_move(heaps, Outcome::P, grundy))
    }

    /// The winning moves a report lists, by the rules of the JSON: the first
    /// [`JSON_LISTED_MOVES`] in heap order, each `to` the whole position after it unless
    /// [`NimAnalysis::json_abbreviated`], then `{"kind": "heaps", "text": "", "abbreviated":
    /// true}` (the position is the heaps with heap `at.heap` set to `at.left`). Linear in the
    /// heaps whatever their number.
    pub fn listed_moves(&self) -> impl Iterator<Item = Move> + '_ {
        let heaps = self.heaps.as_deref().unwrap_or(&[]);
        let grundy = (self.play == Play::Normal).then_some(0);
        let abbreviated = self.json_abbreviated();
        self.winning_moves
            .steps(heaps)
            .take(usize::try_from(self.json_listed_moves()).unwrap_or(usize::MAX))
            .map(move |m| {
                if abbreviated {
                    m.with_position(abbreviated_position(), Outcome::P, grundy)
                } else {
                    m.into_move(heaps, Outcome::P, grundy)
                }
            })
    }

    /// How many winning moves the JSON `winning_moves` lists (see [`JSON_LISTED_MOVES`]).
    pub fn json_listed_moves(&self) -> u64 {
        self.winning_move_count.min(JSON_LISTED_MOVES)
    }

    /// True when the JSON abbreviates each listed move's `to` (see [`JSON_LISTED_SIZES`]).
    pub fn json_abbreviated(&self) -> bool {
        self.json_listed_moves()
            .saturating_mul(self.heap_count.max(1))
            > JSON_LISTED_SIZES
    }

    /// The textbook explanation (see [`explain`]) with at most `max_items` heaps and moves.
    pub fn explain(&self, max_items: usize) -> String {
        explain(self, self.heaps.as_deref(), max_items)
    }
}

impl serde::Serialize for NimAnalysis {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("play", &self.play)?;
        m.serialize_entry("heap_count", &self.heap_count)?;
        m.serialize_entry("grundy", &JsonU64(self.nim_sum))?;
        m.serialize_entry("nim_sum", &JsonU64(self.nim_sum))?;
        m.serialize_entry("outcome", &self.outcome)?;
        m.serialize_entry("winning_move_count", &self.winning_move_count)?;
        if let Some(heaps) = &self.heaps {
            let listed = self.json_listed_moves();
            m.serialize_entry("winning_moves", &JsonMoves(self, heaps, listed))?;
            m.serialize_entry(
                "all_winning_moves_listed",
                &(listed == self.winning_move_count),
            )?;
        }
        m.end()
    }
}

/// The first `.2` winning moves of an analysis, serialized lazily.
struct JsonMoves<'a>(&'a NimAnalysis, &'a [u64], u64);

impl serde::Serialize for JsonMoves<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let a = self.0;
        let abbreviated = a.json_abbreviated();
        let grundy = (a.play == Play::Normal).then_some(Grundy::Finite(0));
        s.collect_seq(
            a.winning_moves
                .steps(self.1)
                .take(usize::try_from(self.2).unwrap_or(usize::MAX))
                .map(|m| JsonMove {
                    step: m,
                    heaps: self.1,
                    abbreviated,
                    grundy: grundy.as_ref(),
                }),
        )
    }
}

/// One winning move, written as its [`Move`] serializes (outcome `P`) without building the
/// position after it.
struct JsonMove<'a> {
    step: Step,
    heaps: &'a [u64],
    abbreviated: bool,
    grundy: Option<&'a Grundy>,
}

impl serde::Serialize for JsonMove<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mv = self.step;
        let mut o = s.serialize_map(None)?;
        o.serialize_entry("text", &mv.text())?;
        o.serialize_entry("short", &mv.short())?;
        o.serialize_entry("to", &After(self))?;
        o.serialize_entry("outcome", &Outcome::P)?;
        if let Some(g) = self.grundy {
            o.serialize_entry("grundy", g)?;
        }
        // The keys of `at` in the order a serialized Move writes them (sorted).
        o.serialize_entry("at", &At(mv))?;
        o.end()
    }
}

/// A move's `at`: `{"from", "heap", "left", "removed"}`.
struct At(Step);

impl serde::Serialize for At {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mv = self.0;
        let mut o = s.serialize_map(Some(4))?;
        o.serialize_entry("from", &JsonU64(mv.from))?;
        o.serialize_entry("heap", &mv.heap)?;
        o.serialize_entry("left", &JsonU64(mv.left))?;
        o.serialize_entry("removed", &JsonU64(mv.removed()))?;
        o.end()
    }
}

/// The position after a move, as [`Position::heaps`] serializes it (or abbreviated),
/// written without building it.
struct After<'a, 'b>(&'a JsonMove<'b>);

impl serde::Serialize for After<'_, '_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let m = self.0;
        let mut o = s.serialize_map(None)?;
        o.serialize_entry("kind", "heaps")?;
        if m.abbreviated {
            o.serialize_entry("text", "")?;
            o.serialize_entry("abbreviated", &true)?;
        } else {
            o.serialize_entry("text", &AfterText(m.step, m.heaps))?;
            o.serialize_entry("heaps", &AfterSizes(m.step, m.heaps))?;
        }
        o.end()
    }
}

/// The heap sizes after a move: `heaps` with heap `.0.heap` set to `.0.left`.
fn after_sizes(step: Step, heaps: &[u64]) -> impl Iterator<Item = u64> + '_ {
    heaps
        .iter()
        .enumerate()
        .map(move |(i, &h)| if i == step.heap { step.left } else { h })
}

/// The text of the position after a move, written as it is serialized.
struct AfterText<'a>(Step, &'a [u64]);

impl std::fmt::Display for AfterText<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, h) in after_sizes(self.0, self.1).enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{h}")?;
        }
        Ok(())
    }
}

impl serde::Serialize for AfterText<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// The sizes after a move, written lazily.
struct AfterSizes<'a>(Step, &'a [u64]);

impl serde::Serialize for AfterSizes<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(after_sizes(self.0, self.1).map(JsonU64))
    }
}

/// The position of a move left out of a long answer, as its JSON writes it: `{"kind":
/// "heaps", "text": "", "abbreviated": true}`.
pub fn abbreviated_position() -> Position {
    Position::text("heaps", "").with("abbreviated", true)
}

/// XOR of the heaps.
pub fn nim_sum(heaps: &[u64]) -> u64 {
    heaps.iter().fold(0, |a, &h| a ^ h)
}

/// Analyses a list of heaps: nim-sum, outcome and every winning move (Bouton's rule, and
/// Bouton's misère rule under [`Play::Misere`]).
///
/// ```
/// use grundy_core::nim::{analyze, Play};
/// use grundy_core::Outcome;
///
/// let a = analyze(&[10, 12, 5], Play::Normal);
/// assert_eq!((a.nim_sum, a.outcome), (3, Outcome::N));
/// let moves: Vec<_> = a.moves().collect();
/// assert_eq!(moves[0].to.text, "9 12 5");
/// assert_eq!(moves[0].text, "heap 0: take 1 from the heap of 10, leaving 9");
/// // Misère: with one heap above 1, leave an odd number of 1s.
/// let m = analyze(&[1, 1, 2], Play::Misere);
/// assert_eq!(m.moves().map(|m| m.at["left"].clone()).collect::<Vec<_>>(), [1]);
/// ```
pub fn analyze(heaps: &[u64], play: Play) -> NimAnalysis {
    let mut s = NimStream::new(true);
    for &h in heaps {
        s.push(h);
    }
    s.into_analysis(play)
}

/// Every winning move of a list of heaps, as [`NimAnalysis::moves`] builds them.
pub fn winning_moves(heaps: &[u64], play: Play) -> Vec<Move> {
    analyze(heaps, play).moves().collect()
}

/// Analyses heaps fed one at a time, in memory independent of their number unless asked to
/// keep the heaps (needed to list the winning moves, not to count them).
#[derive(Clone, Debug)]
pub struct NimStream {
    /// The heaps, when kept.
    heaps: Option<Vec<u64>>,
    /// Per-bit counts of the heaps with that bit set, kept only when the heaps are not:
    /// bit-sliced, so `planes[j]` holds bit `j` of all 64 counters and adding a heap is a
    /// ripple-carry addition of 64 one-bit values at once.
    planes: Option<Box<[u64; 64]>>,
    count: u64,
    nim_sum: u64,
    ones: u64,
    big: u64,
    /// Index and size of the first heap ≥ 2.
    first_big: Option<(u64, u64)>,
}

impl NimStream {
    /// A stream that keeps every heap (`keep_heaps`), or only counters.
    pub fn new(keep_heaps: bool) -> Self {
        NimStream {
            heaps: keep_heaps.then(Vec::new),
            planes: None,
            count: 0,
            nim_sum: 0,
            ones: 0,
            big: 0,
            first_big: None,
        }
    }

    /// A stream that keeps only counters and can count (not list) the winning moves.
    pub fn counting() -> Self {
        let mut s = NimStream::new(false);
        s.planes = Some(Box::new([0; 64]));
        s
    }

    /// Adds one heap.
    #[inline]
    pub fn push(&mut self, h: u64) {
        self.nim_sum ^= h;
        if h == 1 {
            self.ones += 1;
        } else if h >= 2 {
            if self.big == 0 {
                self.first_big = Some((self.count, h));
            }
            self.big += 1;
        }
        self.count += 1;
        if let Some(v) = &mut self.heaps {
            v.push(h);
        }
        if let Some(planes) = &mut self.planes {
            let mut carry = h;
            // At most 2^64 heaps, so the carry never leaves plane 63.
            for plane in planes.iter_mut() {
                if carry == 0 {
                    break;
                }
                let p = *plane;
                *plane = p ^ carry;
                carry &= p;
            }
        }
    }

    /// Number of heaps so far.
    pub fn len(&self) -> u64 {
        self.count
    }

    /// True before the first heap.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The heaps, if this stream keeps them.
    pub fn heaps(&self) -> Option<&[u64]> {
        self.heaps.as_deref()
    }

    /// The analysis of the heaps so far, without the heaps themselves (`heaps: None`: the
    /// moves are counted, not listed); see [`NimStream::into_analysis`].
    pub fn finish(&self, play: Play) -> NimAnalysis {
        self.finish_with(play, self.heaps.as_deref())
    }

    /// The analysis of the heaps, keeping them (when this stream kept them) so that the
    /// analysis lists its winning moves.
    pub fn into_analysis(mut self, play: Play) -> NimAnalysis {
        let heaps = self.heaps.take();
        let mut a = self.finish_with(play, heaps.as_deref());
        a.heaps = heaps;
        a
    }

    fn finish_with(&self, play: Play, heaps: Option<&[u64]>) -> NimAnalysis {
        let x = self.nim_sum;
        let normal = if x == 0 {
            WinningMoves::None
        } else {
            WinningMoves::ReduceByNimSum {
                bit: 63 - x.leading_zeros(),
                nim_sum: x,
            }
        };
        let (outcome, winning_moves) = match play {
            Play::Normal => (Outcome::from_grundy(x), normal),
            Play::Misere => match self.big {
                0 if self.ones % 2 == 1 => (Outcome::P, WinningMoves::None),
                // No heap at all: the mover cannot move and so wins.
                0 if self.ones == 0 => (Outcome::N, WinningMoves::None),
                0 => (Outcome::N, WinningMoves::EmptyAOne),
                1 => {
                    let (i, h) = self.first_big.expect("one big heap was seen");
                    // Leave an odd number of 1s: the big heap becomes 1 if the 1s are even.
                    let to = u64::from(self.ones & 1 == 0);
                    let heap = usize::try_from(i).unwrap_or(usize::MAX);
                    (
                        Outcome::N,
                        WinningMoves::Single {
                            heap,
                            from: h,
                            left: to,
                        },
                    )
                }
                _ => (Outcome::from_grundy(x), normal),
            },
        };
        let winning_move_count = match winning_moves {
            WinningMoves::None => 0,
            WinningMoves::EmptyAOne => self.ones,
            WinningMoves::Single { .. } => 1,
            WinningMoves::ReduceByNimSum { bit, .. } => match (&self.planes, heaps) {
                (Some(planes), _) => planes
                    .iter()
                    .enumerate()
                    .fold(0, |n, (j, p)| n | (p >> bit & 1) << j),
                (None, Some(h)) => h.iter().filter(|&&h| h >> bit & 1 == 1).count() as u64,
                // Unreachable through the public constructors: one of the two is kept.
                (None, None) => 0,
            },
        };
        NimAnalysis {
            play,
            heap_count: self.count,
            nim_sum: x,
            outcome,
            winning_moves,
            winning_move_count,
            ones: self.ones,
            big: self.big,
            heaps: None,
        }
    }
}

/// Why a heap list was rejected; each names the offending token (its first 40 bytes if very
/// long), escaped by [`quote`] so that the message stays on one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HeapError {
    /// The token is not a decimal number.
    #[error("heap {index}: {} is not a number", quote(token))]
    NotANumber {
        /// The heap's position in the input (0-based).
        index: u64,
        /// The token as read.
        token: String,
    },
    /// The token is a negative number.
    #[error("heap {index}: negative heap size {}", quote(token))]
    Negative {
        /// The heap's position in the input (0-based).
        index: u64,
        /// The token as read.
        token: String,
    },
    /// The token is a number above `u64::MAX`.
    #[error(
        "heap {index}: {} is larger than the largest heap size {}",
        quote(token),
        u64::MAX
    )]
    TooLarge {
        /// The heap's position in the input (0-based).
        index: u64,
        /// The token as read.
        token: String,
    },
}

/// Longest token kept for an error message.
const TOKEN_SHOWN: usize = 40;

fn shown(token: &[u8]) -> String {
    let mut s = String::from_utf8_lossy(&token[..token.len().min(TOKEN_SHOWN)]).into_owned();
    if token.len() > TOKEN_SHOWN {
        s.push('…');
    }
    s
}

/// Parses one heap size, at most `u64::MAX`, in the one grammar of counts
/// ([`crate::count`]: `1000`, `1_000`, `2^10`, `1e6`; plain digits take a fast path). `index`
/// (0-based) is the heap's position, for the error message.
pub fn parse_heap(token: &[u8], index: u64) -> Result<u64, HeapError> {
    if !token.is_empty() && token.iter().all(u8::is_ascii_digit) {
        let mut v: u64 = 0;
        for &c in token {
            v = v
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(c - b'0')))
                .ok_or_else(|| token_error(token, true, index))?;
        }
        return Ok(v);
    }
    // Any other form of the one grammar of counts (`2^10`, `1e6`, `1_000`).
    if let Ok(text) = std::str::from_utf8(token) {
        match crate::count::parse_u64(text) {
            Ok(v) => return Ok(v),
            Err(crate::count::CountError::TooLarge(_)) => {
                return Err(HeapError::TooLarge {
                    index,
                    token: shown(token),
                })
            }
            Err(_) => {}
        }
    }
    Err(token_error(token, true, index))
}

/// True for a byte that separates heap sizes: ASCII white space or a comma.
#[inline]
fn separator(b: u8) -> bool {
    b.is_ascii_whitespace() || b == b','
}

/// The error for an invalid token known by its first bytes `token`; `rest_digits` says
/// whether the bytes not kept (if any) are all digits.
fn token_error(token: &[u8], rest_digits: bool, index: u64) -> HeapError {
    let digits = |t: &[u8]| t.iter().all(u8::is_ascii_digit);
    let shown_token = shown(token);
    if !token.is_empty() && digits(token) && rest_digits {
        HeapError::TooLarge {
            index,
            token: shown_token,
        }
    } else if token.len() > 1 && token[0] == b'-' && digits(&token[1..]) && rest_digits {
        HeapError::Negative {
            index,
            token: shown_token,
        }
    } else {
        HeapError::NotANumber {
            index,
            token: shown_token,
        }
    }
}

/// Streaming parser of heap sizes separated by white space or commas, fed chunks of bytes of
/// any size (a token may straddle two chunks); each size in the one grammar of counts
/// ([`parse_heap`]).
#[derive(Clone, Debug, Default)]
pub struct HeapParser {
    /// The start of a token cut by the end of the previous chunk (at most a few dozen bytes
    /// are kept: a longer token is invalid anyway).
    pending: Vec<u8>,
    pending_len: usize,
    /// A byte of the pending token past the kept ones is not a digit.
    pending_rest_nondigit: bool,
    /// The value of the pending token's digits so far, all of them (kept or not); `None` once
    /// it passed `u64::MAX` or met a non-digit. A long token of leading zeros ("000…07") is a
    /// number all the same.
    pending_value: Option<u64>,
    index: u64,
}

const PENDING_CAP: usize = 64;
// A cut token is shown by the same first bytes as a whole one.
const _: () = assert!(PENDING_CAP > TOKEN_SHOWN);

impl HeapParser {
    /// A parser at the start of the input.
    pub fn new() -> Self {
        HeapParser::default()
    }

    /// Number of heaps parsed so far.
    pub fn count(&self) -> u64 {
        self.index
    }

    fn emit(&mut self, token: &[u8], sink: &mut impl FnMut(u64)) -> Result<(), HeapError> {
        let v = parse_heap(token, self.index)?;
        sink(v);
        self.index += 1;
        Ok(())
    }

    fn hold(&mut self, bytes: &[u8]) {
        let mut value = if self.pending_len == 0 {
            Some(0)
        } else {
            self.pending_value
        };
        for &b in bytes {
            value = value
                .filter(|_| b.is_ascii_digit())
                .and_then(|v| v.checked_mul(10)?.checked_add(u64::from(b - b'0')));
            if value.is_none() {
                break;
            }
        }
        self.pending_value = value;
        let room = PENDING_CAP.saturating_sub(self.pending.len());
        let (kept, dropped) = bytes.split_at(bytes.len().min(room));
        self.pending.extend_from_slice(kept);
        self.pending_rest_nondigit |= !dropped.iter().all(u8::is_ascii_digit);
        self.pending_len += bytes.len();
    }

    fn flush_pending(&mut self, sink: &mut impl FnMut(u64)) -> Result<(), HeapError> {
        let token = std::mem::take(&mut self.pending);
        let long = self.pending_len > token.len();
        let rest_digits = !std::mem::take(&mut self.pending_rest_nondigit);
        self.pending_len = 0;
        if let (true, Some(v)) = (long, self.pending_value.take()) {
            // Longer than any valid heap only by its leading zeros.
            sink(v);
            self.index += 1;
            return Ok(());
        }
        if long {
            // Longer than any valid heap: judged by its first bytes and the kind of the rest.
            return Err(token_error(&token, rest_digits, self.index));
        }
        self.emit(&token, sink)
    }

    /// Parses a chunk, calling `sink` with each complete heap size.
    pub fn feed(&mut self, chunk: &[u8], sink: &mut impl FnMut(u64)) -> Result<(), HeapError> {
        let len = chunk.len();
        let mut i = 0;
        if self.pending_len > 0 {
            let end = chunk.iter().position(|&b| separator(b)).unwrap_or(len);
            self.hold(&chunk[..end]);
            if end == len {
                return Ok(());
            }
            self.flush_pending(sink)?;
            i = end;
        }
        loop {
            while i < len && separator(chunk[i]) {
                i += 1;
            }
            if i == len {
                return Ok(());
            }
            let start = i;
            let mut v: u64 = 0;
            while i < len {
                let d = chunk[i].wrapping_sub(b'0');
                if d >= 10 {
                    break;
                }
                v = v.wrapping_mul(10).wrapping_add(u64::from(d));
                i += 1;
            }
            if i < len && separator(chunk[i]) && i - start < 20 {
                // At most 19 digits: no overflow is possible.
                sink(v);
                self.index += 1;
                continue;
            }
            while i < len && !separator(chunk[i]) {
                i += 1;
            }
            if i == len {
                self.hold(&chunk[start..]);
                return Ok(());
            }
            self.emit(&chunk[start..i], sink)?;
        }
    }

    /// Ends the input; returns the number of heaps parsed.
    pub fn finish(mut self, sink: &mut impl FnMut(u64)) -> Result<u64, HeapError> {
        if self.pending_len > 0 {
            self.flush_pending(sink)?;
        }
        Ok(self.index)
    }
}

/// Parses a whole buffer of heap sizes separated by white space or commas.
pub fn parse_heaps(bytes: &[u8], mut sink: impl FnMut(u64)) -> Result<u64, HeapError> {
    let mut p = HeapParser::new();
    p.feed(bytes, &mut sink)?;
    p.finish(&mut sink)
}

/// The textbook explanation of an analysis: heaps and nim-sum in binary, the rule that
/// decides, and the winning moves. `heaps` are those analysed (or `None` if not kept); at most
/// `max_items` heaps and moves are written out.
pub fn explain(a: &NimAnalysis, heaps: Option<&[u64]>, max_items: usize) -> String {
    let mut s = explain_rule(a, heaps, max_items);
    match (heaps, a.winning_move_count) {
        (_, 0) => {}
        (Some(h), n) => {
            let _ = writeln!(s, "Winning moves ({n}):");
            for m in a.winning_moves.steps(h).take(max_items) {
                let _ = match a.winning_moves {
                    WinningMoves::ReduceByNimSum { bit, nim_sum } => writeln!(
                        s,
                        "  heap {}: {} has a 1 at bit {bit}; reduce it to {} ⊕ {nim_sum} = {}",
                        m.heap, m.from, m.from, m.left
                    ),
                    _ => writeln!(s, "  heap {}: {} → {}", m.heap, m.from, m.left),
                };
            }
            if n > max_items as u64 {
                let _ = writeln!(
                    s,
                    "  … {} more (the JSON report lists them all)",
                    n - max_items as u64
                );
            }
        }
        (None, n) => {
            let _ = writeln!(s, "Winning moves: {n}");
        }
    }
    s
}

/// The textbook explanation without the list of winning moves (the catalogue's report lists
/// them): the heaps and nim-sum in binary (at most `max_items` heaps written out) and the rule
/// that decides.
pub fn explain_rule(a: &NimAnalysis, heaps: Option<&[u64]>, max_items: usize) -> String {
    let mut s = String::new();
    let x = a.nim_sum;
    let play = match a.play {
        Play::Normal => "Nim",
        Play::Misere => "Misère Nim",
    };
    let _ = writeln!(
        s,
        "{play}, {} heap{}",
        a.heap_count,
        if a.heap_count == 1 { "" } else { "s" }
    );
    let width = heaps
        .map(|h| h.iter().fold(x, |m, &v| m.max(v)))
        .unwrap_or(x)
        .max(1);
    let bits = (64 - width.leading_zeros()) as usize;
    if let Some(h) = heaps {
        let dec = h
            .iter()
            .take(max_items)
            .map(|v| v.to_string().len())
            .max()
            .unwrap_or(1);
        let dec = dec.max(x.to_string().len());
        for (i, &v) in h.iter().enumerate().take(max_items) {
            let _ = writeln!(s, "  heap {i:>3}: {v:>dec$} = {v:0bits$b}");
        }
        if h.len() > max_items {
            let _ = writeln!(s, "  … {} more heaps", h.len() - max_items);
        }
        let _ = writeln!(
            s,
            "  nim-sum:  {x:>dec$} = {x:0bits$b}  (XOR of the heaps, bit by bit)"
        );
    } else {
        let _ = writeln!(s, "  nim-sum: {x} = {x:0bits$b}");
    }
    let mover_wins = a.outcome == Outcome::N;
    let verdict = if mover_wins {
        "N-position: the player to move wins."
    } else {
        "P-position: the player to move loses (the previous player wins)."
    };
    let small_endgame = a.play == Play::Misere && a.big <= 1;
    if !small_endgame {
        if x == 0 && a.ones == 0 && a.big == 0 {
            let _ = writeln!(s, "Every heap is empty: there is no move. {verdict}");
        } else if x == 0 {
            let _ = writeln!(
                s,
                "The nim-sum is 0. {verdict}\nEvery move changes one heap and so makes the \
                 nim-sum non-zero; the opponent can then restore 0."
            );
        } else {
            let bit = 63 - x.leading_zeros();
            let _ = writeln!(
                s,
                "The nim-sum is {x}, not 0. {verdict}\nIts leading 1 is bit {bit} (worth {}). \
                 A winning move takes a heap with a 1 at that bit and reduces it to heap ⊕ {x}, \
                 which is smaller and leaves nim-sum 0.",
                1u64 << bit
            );
        }
        if a.play == Play::Misere {
            let _ = writeln!(
                s,
                "Misère play: {} heaps are larger than 1, so the position is played exactly as \
                 in Nim (a nim-sum-0 move always leaves at least two heaps larger than 1).",
                a.big
            );
        }
    } else if a.big == 1 {
        let _ = writeln!(
            s,
            "Misère play with one heap larger than 1: {verdict}\nReduce that heap to 0 or 1 so \
             that an odd number of heaps of size 1 remains ({} now); the opponent must then \
             take the last one.",
            a.ones
        );
    } else if a.ones == 0 {
        let _ = writeln!(
            s,
            "Misère play with every heap empty: the player to move cannot move and so wins. \
             {verdict}"
        );
    } else {
        let _ = writeln!(
            s,
            "Misère play with only heaps of size ≤ 1 ({} of size 1): the player who takes the \
             last counter loses, so an odd number of 1s loses for the player to move. {verdict}",
            a.ones
        );
    }
    s
}

/// Nim as a [`Game`] for the generic solver: a position is a list of heaps, and a list of
/// several heaps splits into single heaps. The closed forms above need no search; this is the
/// game they are checked against.
#[derive(Clone, Copy, Debug, Default)]
pub struct NimGame;

impl Game for NimGame {
    type Position = Vec<u64>;

    fn options(&self, pos: &Vec<u64>, out: &mut Vec<Vec<u64>>) {
        for (i, &h) in pos.iter().enumerate() {
            for to in 0..h {
                let mut p = pos.clone();
                p[i] = to;
                out.push(p);
            }
        }
    }

    fn components(&self, pos: &Vec<u64>, out: &mut Vec<Vec<u64>>) -> bool {
        if pos.len() < 2 {
            return false;
        }
        out.extend(pos.iter().map(|&h| vec![h]));
        true
    }
}
