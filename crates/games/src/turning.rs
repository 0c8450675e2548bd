//! Coin-turning games (Winning Ways ch. 14) given by CGSuite's turning codes.
//!
//! A row of coins, each heads (`H`) or tails (`T`), numbered 0, 1, … from the left in everything
//! a user reads or types (move texts, `at.coins`, the heads' positions; the rules below count
//! from 1, as CGSuite does, and the code keeps that count inside). A move turns
//! over a set of coins allowed by the rules, the rightmost of which must go from heads to
//! tails; whoever cannot move loses (normal play) or wins (misère play).
//!
//! # Turning codes
//!
//! The grammar accepted, which is the one CGSuite documents for `game.strip.Turning`:
//!
//! ```text
//! code     := element ("," element)*          any element's moves are allowed
//! element  := count modifier*
//! count    := N | N "-" M | N "+"              exactly N, N to M, at least N coins (N ≥ 1)
//! modifier := "C"       the coins turned are consecutive
//!           | "C(" W ")" they all lie within W adjacent coins
//!           | "E"       they are equally spaced
//!           | "S"       they are symmetrically placed (a_i + a_{k+1-i} the same for all i)
//!           | "F"       the leftmost coin of the row is among them
//! ```
//!
//! Spaces are ignored and modifiers may come in any order (`4FS` = `4SF`). The counts include
//! the rightmost coin. Names of the games of Winning Ways are accepted too ([`NAMED`]):
//! `mock-turtles` is `1-3`, `ruler` is `1+C`, `grunt` is `4FS`, ….
//!
//! # Values
//!
//! In normal play a row is worth the XOR of the values of its heads, each valued as if it were
//! the only head (the *heap representation*: a head at n is a heap n that a move replaces by
//! heaps at the other coins turned, and two equal heaps cancel). The value of a single head at
//! n is the mex of the XORs of the other coins' values over all moves from n; it is computed
//! for n = 1, 2, … with bitsets of the reachable XORs (a count-by-count dynamic programme over
//! the coins that may join the move, kept from one n to the next when the coins allowed are all
//! those below n). The heap representation does not hold in misère play: the whole rows are
//! searched (at most [`MISERE_MAX_COINS`] coins up to the last head). A row is answered by the
//! catalogue entry ([`TurningEntry`], `turning:CODE`), the one door of every front end.
//!
//! ```
//! use grundy_core::catalogue::{Ask, Entry, Play};
//! use grundy_games::turning::TurningEntry;
//!
//! // Mock Turtles on HTTHTHTTH (CGSuite: Turning("1-3")("htththtth").NimValue = 29).
//! let mut rules = TurningEntry.open("turning:mock-turtles")?;
//! let row = rules.parse("HTTHTHTTH")?;
//! let r = rules.analyze(&row, &Ask::new(Play::Normal))?;
//! assert_eq!(r.grundy, Some(29u64.into()));
//! assert_eq!(r.details["coin_values"], serde_json::json!([1, 7, 11, 16]));
//! let m = &r.winning_moves[0];
//! assert_eq!(m.at["coins"], serde_json::json!([6, 8])); // coin 6 is worth 13 = 29 ^ 16, coin 8's value
//! assert_eq!(m.to.text, "HTTHTHHTT");
//! # Ok::<(), grundy_core::catalogue::Error>(())
//! ```

use crate::error::{GameError, Result};
use grundy_core::text::quote;
use grundy_core::{Move, Outcome};
use serde::Serialize;
use std::collections::HashMap;

/// The most coins in a row (and the largest head position).
pub const MAX_COINS: usize = 100_000;

/// The most characters of a turning code.
pub const MAX_CODE_LEN: usize = 200;

/// The largest number in a turning code (counts and spans).
pub const MAX_CODE_NUMBER: u32 = 100_000;

/// Single-coin values must stay below 2^`MAX_VALUE_BITS` (Motley, `1+`, doubles each coin, so
/// it reaches this at coin 25).
pub const MAX_VALUE_BITS: u32 = 24;

/// The default work budget (64-bit word operations on bitsets, about a second or two).
pub const DEFAULT_MAX_WORK: u64 = 2_000_000_000;

/// The default number of positions a misère search may keep.
pub const DEFAULT_MAX_MISERE_POSITIONS: u64 = 2_000_000;

/// The most coins, up to the last head, of a row searched in misère play.
pub const MISERE_MAX_COINS: usize = 30;

/// The most moves (all heads together) a misère search may list.
pub const MAX_MISERE_MOVES: usize = 2_000_000;

/// The most memory (bytes) of the prefix tables that guide the search for winning moves from
/// one head; past it, moves of a few coins are found by direct search, others refused.
pub const MAX_TABLE_BYTES: u64 = 32 << 20;

/// The most coins besides the fixed ones that the direct search for winning moves picks.
pub const MAX_DIRECT_DEPTH: u32 = 4;

/// At most this many winning moves are listed.
pub const MAX_LISTED_MOVES: usize = 100;

/// The games of Winning Ways ch. 14 by name, with their turning codes and rules in words.
pub const NAMED: &[(&str, &str, &str)] = &[
    ("turning-turtles", "1-2", "turn one or two coins"),
    ("mock-turtles", "1-3", "turn up to three coins"),
    ("moebius", "1-5", "turn up to five coins"),
    ("mogul", "1-7", "turn up to seven coins"),
    ("moidores", "1-9", "turn up to nine coins"),
    ("motley", "1+", "turn any number of coins"),
    ("twins", "2", "turn exactly two coins"),
    ("triplets", "3", "turn exactly three coins"),
    ("ruler", "1+C", "turn any number of consecutive coins"),
    (
        "mock-turtle-fives",
        "1-3C(5)",
        "turn up to three coins within five adjacent ones",
    ),
    (
        "triplet-fives",
        "3C(5)",
        "turn exactly three coins within five adjacent ones",
    ),
    ("ruler-fives", "1-5C", "turn up to five consecutive coins"),
    ("turnips", "3E", "turn three equally spaced coins"),
    (
        "grunt",
        "4FS",
        "turn four symmetrically placed coins, the leftmost coin among them",
    ),
    (
        "sym",
        "1+S",
        "turn any number of symmetrically placed coins",
    ),
    (
        "sympler",
        "1+FS",
        "turn any number of symmetrically placed coins, the leftmost coin among them",
    ),
];

/// One element of a turning code: how many coins, and how they must lie.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Element {
    lo: u32,
    hi: Option<u32>,
    consecutive: bool,
    equal: bool,
    symmetric: bool,
    first: bool,
    window: Option<u32>,
}

impl Element {
    /// Whether the coins `c` (ascending, distinct, the last one the head) are a move.
    fn allows(&self, c: &[u32]) -> bool {
        let k = c.len() as u32;
        if k < self.lo || self.hi.is_some_and(|h| k > h) || c.is_empty() {
            return false;
        }
        let (a, n) = (c[0], c[c.len() - 1]);
        if self.first && a != 1 {
            return false;
        }
        if self.window.is_some_and(|w| n - a + 1 > w) {
            return false;
        }
        if self.consecutive && n - a + 1 != k {
            return false;
        }
        if self.equal && c.windows(2).any(|p| p[1] - p[0] != c[1] - c[0]) {
            return false;
        }
        if self.symmetric && (0..c.len()).any(|i| c[i] + c[c.len() - 1 - i] != a + n) {
            return false;
        }
        true
    }
}

/// A coin-turning ruleset: a parsed turning code (or a named game).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    code: String,
    name: Option<&'static str>,
    elements: Vec<Element>,
}

impl Rules {
    /// Parses a turning code (`1-3`, `1+C`, `1-3C(5)`, `4FS`, `2-3,6C`, …; see the module
    /// documentation for the grammar) or a name from [`NAMED`] (`mock-turtles`, `ruler`, …;
    /// case and `_`/space/`-` are not significant in names).
    pub fn parse(text: &str) -> Result<Rules> {
        let t = text.trim();
        if t.len() > MAX_CODE_LEN {
            return Err(GameError::TooLarge(format!(
                "turning code has {} characters (at most {MAX_CODE_LEN})",
                t.len()
            )));
        }
        let key: String = t
            .chars()
            .map(|c| match c {
                '_' | ' ' => '-',
                c => c.to_ascii_lowercase(),
            })
            .collect();
        if let Some(&(name, code, _)) = NAMED.iter().find(|(n, _, _)| *n == key) {
            let mut r = Rules::parse_code(code)?;
            r.name = Some(name);
            return Ok(r);
        }
        // A code starts with a count; a word is a name, and an unknown one lists the names.
        if t.starts_with(|c: char| c.is_alphabetic()) {
            let names: Vec<&str> = NAMED.iter().map(|(n, _, _)| *n).collect();
            return Err(GameError::Invalid(format!(
                "unknown coin-turning game {}: give a turning code (1-3, 1+C, 3E) or one of \
                 the names {}",
                quote(t),
                names.join(", ")
            )));
        }
        let mut r = Rules::parse_code(t)?;
        r.name = NAMED
            .iter()
            .find(|(_, code, _)| *code == r.code)
            .map(|(n, _, _)| *n);
        Ok(r)
    }

    fn parse_code(t: &str) -> Result<Rules> {
        let compact: String = t.chars().filter(|c| !c.is_whitespace()).collect();
        let bad = |why: String| GameError::Invalid(format!("turning code {}: {why}", quote(t)));
        if compact.is_empty() {
            return Err(bad(
                "empty (try 1-3, 1+C, 3E or a name like mock-turtles)".into()
            ));
        }
        let mut elements = Vec::new();
        for part in compact.split(',') {
            let b = part.as_bytes();
            let mut i = 0;
            let number = |i: &mut usize| -> Result<u32> {
                let s = *i;
                while *i < b.len() && b[*i].is_ascii_digit() {
                    *i += 1;
                }
                let digits = &part[s..*i];
                if digits.is_empty() {
                    return Err(bad(format!("expected a number in {}", quote(part))));
                }
                match digits.parse::<u32>() {
                    Ok(v) if v <= MAX_CODE_NUMBER => Ok(v),
                    _ => Err(bad(format!(
                        "number {digits} too large (at most {MAX_CODE_NUMBER})"
                    ))),
                }
            };
            let lo = number(&mut i)?;
            let hi = if i < b.len() && b[i] == b'-' {
                i += 1;
                Some(number(&mut i)?)
            } else if i < b.len() && b[i] == b'+' {
                i += 1;
                None
            } else {
                Some(lo)
            };
            if lo == 0 {
                return Err(bad("a move turns at least 1 coin (the rightmost)".into()));
            }
            if let Some(h) = hi {
                if h < lo {
                    return Err(bad(format!("empty range {lo}-{h}")));
                }
            }
            let mut e = Element {
                lo,
                hi,
                consecutive: false,
                equal: false,
                symmetric: false,
                first: false,
                window: None,
            };
            while i < b.len() {
                let c = b[i].to_ascii_uppercase();
                i += 1;
                let flag = match c {
                    b'C' if i < b.len() && b[i] == b'(' => {
                        i += 1;
                        let w = number(&mut i)?;
                        if i >= b.len() || b[i] != b')' {
                            return Err(bad(format!("missing ')' after C({w}")));
                        }
                        i += 1;
                        if w == 0 {
                            return Err(bad("C(0): a span holds at least 1 coin".into()));
                        }
                        if e.window.is_some() {
                            return Err(bad("C(W) given twice".into()));
                        }
                        e.window = Some(w);
                        continue;
                    }
                    b'C' => &mut e.consecutive,
                    b'E' => &mut e.equal,
                    b'S' => &mut e.symmetric,
                    b'F' => &mut e.first,
                    _ => {
                        return Err(bad(format!(
                            "unknown modifier {} (use C, C(W), E, S, F)",
                            quote(&part[i - 1..])
                        )))
                    }
                };
                if *flag {
                    return Err(bad(format!("modifier {} given twice", c as char)));
                }
                *flag = true;
            }
            elements.push(e);
        }
        Ok(Rules {
            code: compact,
            name: None,
            elements,
        })
    }

    /// The turning code (spaces removed), e.g. `1-3`.
    pub fn code(&self) -> &str {
        &self.code
    }

    /// The Winning Ways name when the code is one of [`NAMED`].
    pub fn name(&self) -> Option<&'static str> {
        self.name
    }

    /// Whether turning the coins `coins` (positions from 1, any order) is a move when the
    /// rightmost of them is heads: the rules straight from the code, no search.
    pub fn allows(&self, coins: &[u32]) -> bool {
        let mut c = coins.to_vec();
        c.sort_unstable();
        if c.windows(2).any(|p| p[0] == p[1]) || c.first() == Some(&0) {
            return false;
        }
        self.elements.iter().any(|e| e.allows(&c))
    }
}

/// A row of coins; `true` is heads. Coin 1 is the first (leftmost).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Row {
    coins: Vec<bool>,
}

impl Row {
    /// Parses a row: letters `H`/`T` (either case), the leftmost coin first, e.g. `THHTH`
    /// (CGSuite writes `thhth`); or a list of head positions from 0, e.g. `1,2,4` (the same row:
    /// it ends at the last head).
    pub fn parse(text: &str) -> Result<Row> {
        let t = text.trim();
        if t.len() > 8 * MAX_COINS {
            return Err(GameError::TooLarge(format!(
                "row text has {} bytes (at most {})",
                t.len(),
                8 * MAX_COINS
            )));
        }
        if t.is_empty() {
            return Err(GameError::Invalid(
                "no coins: give a row like THHTH or head positions like 2,3,5".into(),
            ));
        }
        if t.chars().all(|c| matches!(c, 'H' | 'T' | 'h' | 't')) {
            if t.len() > MAX_COINS {
                return Err(GameError::TooLarge(format!(
                    "row has {} coins (at most {MAX_COINS})",
                    t.len()
                )));
            }
            return Ok(Row {
                coins: t.chars().map(|c| c == 'H' || c == 'h').collect(),
            });
        }
        let mut heads = Vec::new();
        for item in t
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|s| !s.is_empty())
        {
            let ok = !item.is_empty() && item.bytes().all(|c| c.is_ascii_digit());
            match item.parse::<usize>() {
                Ok(p) if ok && p < MAX_COINS => heads.push(p as u32 + 1),
                Ok(_) if ok => {
                    return Err(GameError::Invalid(format!(
                        "head position {} out of range 0..={}",
                        quote(item),
                        MAX_COINS - 1
                    )))
                }
                _ => {
                    return Err(GameError::Invalid(format!(
                        "{} is neither a row of H and T nor a head position (from 0)",
                        quote(item)
                    )))
                }
            }
        }
        Row::from_heads(&heads)
    }

    /// The row whose heads are at `heads` (positions from 1, as the rules count: what
    /// [`Row::parse`] reads as `0` is `1` here; each once), ending at the last. Its errors
    /// name coins from 0, as users type them.
    pub fn from_heads(heads: &[u32]) -> Result<Row> {
        let len = heads.iter().copied().max().unwrap_or(0) as usize;
        if len > MAX_COINS || heads.contains(&0) {
            return Err(GameError::Invalid(format!(
                "head positions must lie in 1..={MAX_COINS}"
            )));
        }
        let mut coins = vec![false; len];
        for &h in heads {
            if coins[h as usize - 1] {
                return Err(GameError::Invalid(format!("head {} listed twice", h - 1)));
            }
            coins[h as usize - 1] = true;
        }
        Ok(Row { coins })
    }

    /// The row from coin flags (`true` heads), coin 1 first.
    pub fn from_coins(coins: Vec<bool>) -> Result<Row> {
        if coins.len() > MAX_COINS {
            return Err(GameError::TooLarge(format!(
                "row has {} coins (at most {MAX_COINS})",
                coins.len()
            )));
        }
        Ok(Row { coins })
    }

    /// The coins, coin 1 first (`true` heads).
    pub fn coins(&self) -> &[bool] {
        &self.coins
    }

    /// The positions of the heads (from 1), ascending.
    pub fn heads(&self) -> Vec<u32> {
        (0..self.coins.len())
            .filter(|&i| self.coins[i])
            .map(|i| i as u32 + 1)
            .collect()
    }

    /// The row as `H`/`T` letters, coin 1 first.
    pub fn to_text(&self) -> String {
        self.coins
            .iter()
            .map(|&h| if h { 'H' } else { 'T' })
            .collect()
    }

    /// The row after turning `coins` (positions from 1; positions outside the row are
    /// ignored).
    pub fn turned(&self, coins: &[u32]) -> Row {
        let mut r = self.clone();
        for &c in coins {
            if let Some(coin) = (c as usize).checked_sub(1).and_then(|i| r.coins.get_mut(i)) {
                *coin ^= true;
            }
        }
        r
    }
}

/// Limits of a computation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurningOptions {
    /// Word operations on bitsets the values and winning moves may spend.
    pub max_work: u64,
    /// Positions a misère search may keep.
    pub max_misere_positions: u64,
}

impl Default for TurningOptions {
    fn default() -> Self {
        TurningOptions {
            max_work: DEFAULT_MAX_WORK,
            max_misere_positions: DEFAULT_MAX_MISERE_POSITIONS,
        }
    }
}

/// Coins by value: for each single-coin value, the coins worth it, ascending (or, for a
/// family's own index, its units by value).
type CoinIndex = HashMap<u64, Vec<u32>>;

/// A set of small numbers (the XORs a move can reach), 64 per word.
type Bits = Vec<u64>;

/// Masks that swap the halves of every 2^b-bit block of a word (b = 0..6).
const SWAP: [u64; 6] = [
    0x5555_5555_5555_5555,
    0x3333_3333_3333_3333,
    0x0F0F_0F0F_0F0F_0F0F,
    0x00FF_00FF_00FF_00FF,
    0x0000_FFFF_0000_FFFF,
    0x0000_0000_FFFF_FFFF,
];

/// The bits of `w` moved from index i to i ^ c (c < 64).
fn permute(mut w: u64, c: u64) -> u64 {
    for (b, m) in SWAP.iter().enumerate() {
        if c >> b & 1 == 1 {
            let s = 1u32 << b;
            w = ((w & m) << s) | ((w >> s) & m);
        }
    }
    w
}

/// dst ∪= {x ^ c : x ∈ src}.
fn or_translated(dst: &mut [u64], src: &[u64], c: u64) {
    let (hi, lo) = ((c >> 6) as usize, c & 63);
    for (i, &w) in src.iter().enumerate() {
        if w != 0 {
            dst[i ^ hi] |= permute(w, lo);
        }
    }
}

/// s ∪= {x ^ c : x ∈ s}.
fn or_self_translated(s: &mut [u64], c: u64) {
    let (hi, lo) = ((c >> 6) as usize, c & 63);
    for i in 0..s.len() {
        let j = i ^ hi;
        if j == i {
            s[i] |= permute(s[i], lo);
        } else if i < j {
            let (a, b) = (s[i], s[j]);
            s[i] = a | permute(b, lo);
            s[j] = b | permute(a, lo);
        }
    }
}

fn contains(s: &[u64], x: u64) -> bool {
    let i = (x >> 6) as usize;
    i < s.len() && s[i] >> (x & 63) & 1 == 1
}

/// A budget of word operations.
struct Work {
    left: u64,
    limit: u64,
}

impl Work {
    fn spend(&mut self, n: u64) -> Result<()> {
        if n > self.left {
            return Err(GameError::TooLarge(format!(
                "coin-turning values need more than {} bitset word operations (the limit, \
                 max_work); use a shorter row",
                self.limit
            )));
        }
        self.left -= n;
        Ok(())
    }
}

/// A way of making a move from head n: the coins always turned (`fixed`, n among them) and
/// optional units (one coin, or a symmetric pair of coins) of which any subset may join, the
/// total number of coins lying in `lo..=hi` (`hi` None: unbounded).
struct Family {
    fixed: Vec<u32>,
    units: Vec<(u32, u32)>,
    lo: u32,
    hi: Option<u32>,
}

impl Family {
    fn weight(u: (u32, u32)) -> u32 {
        if u.1 == 0 {
            1
        } else {
            2
        }
    }

    fn unit_value(u: (u32, u32), v: &[u64]) -> u64 {
        v[u.0 as usize] ^ if u.1 == 0 { 0 } else { v[u.1 as usize] }
    }

    /// The number of count states: exact counts up to `hi`, or saturating at `lo`.
    fn cap(&self) -> u32 {
        self.hi.unwrap_or(self.lo)
    }

    /// Prefix reach tables: `tables[i][c]` = XORs of `fixed` (without the head) with subsets of
    /// the first i units whose coin count, fixed included, is c (the top state meaning "at
    /// least" when unbounded). Only the last table when `all` is false.
    fn tables(
        &self,
        v: &[u64],
        words: usize,
        all: bool,
        work: &mut Work,
    ) -> Result<Vec<Vec<Bits>>> {
        let cap = self.cap() as usize;
        let base = self.fixed.len() as u32;
        let mut states = vec![vec![0u64; words]; cap + 1];
        let mut out = Vec::new();
        let idx = |c: u32| -> Option<usize> {
            match self.hi {
                Some(h) if c > h => None,
                _ => Some((c as usize).min(cap)),
            }
        };
        let Some(b) = idx(base) else {
            return Ok(vec![states]);
        };
        let head = *self.fixed.last().expect("the head");
        let x0 = self
            .fixed
            .iter()
            .filter(|&&p| p != head)
            .fold(0, |x, &p| x ^ v[p as usize]);
        states[b][(x0 >> 6) as usize] |= 1 << (x0 & 63);
        if all {
            out.push(states.clone());
        }
        for &u in &self.units {
            work.spend(((cap + 1) * words) as u64 + 1)?;
            let x = Family::unit_value(u, v);
            let w = Family::weight(u);
            for c in (0..=cap).rev() {
                match idx(c as u32 + w) {
                    Some(d) if d == c => or_self_translated(&mut states[c], x),
                    Some(d) => {
                        let (lower, upper) = states.split_at_mut(d);
                        or_translated(&mut upper[0], &lower[c], x);
                    }
                    None => {}
                }
            }
            if all {
                out.push(states.clone());
            }
        }
        if !all {
            out.push(states);
        }
        Ok(out)
    }

    fn counts_ok(&self, c: usize) -> bool {
        c as u32 >= self.lo
    }

    /// Adds to `reach` every XOR a move of this family reaches.
    fn reach(&self, v: &[u64], reach: &mut Bits, work: &mut Work) -> Result<()> {
        if self.units.is_empty() {
            let k = self.fixed.len() as u32;
            if k >= self.lo && self.hi.is_none_or(|h| k <= h) {
                let head = *self.fixed.last().expect("the head");
                let x = self
                    .fixed
                    .iter()
                    .filter(|&&p| p != head)
                    .fold(0, |x, &p| x ^ v[p as usize]);
                reach[(x >> 6) as usize] |= 1 << (x & 63);
            }
            return Ok(());
        }
        let t = self.tables(v, reach.len(), false, work)?;
        for (c, s) in t[0].iter().enumerate() {
            if self.counts_ok(c) {
                for (r, w) in reach.iter_mut().zip(s) {
                    *r |= w;
                }
            }
        }
        Ok(())
    }

    /// Like [`Family::find`] with a target, without tables: picks the other units from the
    /// highest down, the last one looked up by its value. For few coins per move (at most
    /// [`MAX_DIRECT_DEPTH`] besides the fixed ones), on rows too long for the tables.
    fn find_direct(
        &self,
        v: &[u64],
        target: u64,
        coin_index: Option<&CoinIndex>,
        work: &mut Work,
        visit: &mut dyn FnMut(Vec<u32>) -> bool,
    ) -> Result<bool> {
        let hi = self.hi.expect("bounded");
        let head = *self.fixed.last().expect("the head");
        let x0 = self
            .fixed
            .iter()
            .filter(|&&p| p != head)
            .fold(0, |x, &p| x ^ v[p as usize]);
        let base = self.fixed.len() as u32;
        let vals: Vec<u64> = self
            .units
            .iter()
            .map(|&u| Family::unit_value(u, v))
            .collect();
        // Units that are the single coins from..from+len (the usual case) use the row's index
        // of coins by value; others get an index of their own.
        let from = self.units.first().map_or(0, |u| u.0);
        let plain = self
            .units
            .iter()
            .enumerate()
            .all(|(j, u)| u.1 == 0 && u.0 == from + j as u32);
        let mut own: HashMap<u64, Vec<u32>> = HashMap::new();
        let index = match coin_index {
            Some(ix) if plain => ix,
            _ => {
                for (j, &x) in vals.iter().enumerate() {
                    own.entry(x).or_default().push(j as u32);
                }
                work.spend(self.units.len() as u64)?;
                &own
            }
        };
        let shift = if plain && coin_index.is_some() {
            from
        } else {
            0
        };
        let emit = |chosen: &[usize], visit: &mut dyn FnMut(Vec<u32>) -> bool| {
            let mut coins = self.fixed.clone();
            for &j in chosen {
                let u = self.units[j];
                coins.push(u.0);
                if u.1 != 0 {
                    coins.push(u.1);
                }
            }
            coins.sort_unstable();
            visit(coins)
        };
        if base >= self.lo && x0 == target && !emit(&[], visit) {
            return Ok(false);
        }
        // Frames: (bound on the next unit's index, coins so far, xor so far, next unit to try).
        let mut chosen: Vec<usize> = Vec::new();
        let mut stack: Vec<(usize, u32, u64, usize)> = vec![(self.units.len(), base, x0, 0)];
        let mut fresh = true;
        while let Some(top) = stack.last_mut() {
            let (bound, count, x, _) = *top;
            if fresh {
                fresh = false;
                // The last unit, looked up by the value it must have.
                if let Some(list) = index.get(&(target ^ x)) {
                    let start = list.partition_point(|&p| p < shift);
                    for j in list[start..]
                        .iter()
                        .map(|&p| (p - shift) as usize)
                        .take_while(|&j| j < bound)
                    {
                        let c = count + Family::weight(self.units[j]);
                        work.spend(1)?;
                        if c >= self.lo && c <= hi {
                            chosen.push(j);
                            let go = emit(&chosen, visit);
                            chosen.pop();
                            if !go {
                                return Ok(false);
                            }
                        }
                    }
                }
            }
            // A unit with room for at least one more after it.
            if count + 1 >= hi {
                top.3 = bound;
            }
            let mut next = None;
            while top.3 < bound {
                let j = top.3;
                top.3 += 1;
                work.spend(1)?;
                if count + Family::weight(self.units[j]) < hi {
                    next = Some(j);
                    break;
                }
            }
            match next {
                Some(j) => {
                    chosen.push(j);
                    stack.push((j, count + Family::weight(self.units[j]), x ^ vals[j], 0));
                    fresh = true;
                }
                None => {
                    stack.pop();
                    chosen.pop();
                }
            }
        }
        Ok(true)
    }

    /// Calls `visit` with every move of this family whose XOR (head excluded) is `target`
    /// (every move when `target` is None) until it returns false. Returns false when stopped.
    fn find(
        &self,
        v: &[u64],
        words: usize,
        target: Option<u64>,
        coin_index: Option<&CoinIndex>,
        work: &mut Work,
        visit: &mut dyn FnMut(Vec<u32>) -> bool,
    ) -> Result<bool> {
        if self.hi.is_some_and(|h| self.fixed.len() as u32 > h) {
            return Ok(true);
        }
        let cap = self.cap() as usize;
        let bytes = (self.units.len() + 1) as u64 * (cap as u64 + 1) * words as u64 * 8;
        // The direct search costs about units^(extra coins - 1) steps, the tables
        // units × counts × words: take the cheaper (the tables only within their memory).
        let extra = self.hi.map(|h| h - (self.fixed.len() as u32).min(h));
        let direct_cost = extra
            .filter(|&d| d <= MAX_DIRECT_DEPTH)
            .map(|d| (self.units.len() as u64).saturating_pow(d.saturating_sub(1)));
        let table_cost = bytes / 8;
        let direct = direct_cost.is_some_and(|c| c <= table_cost || bytes > MAX_TABLE_BYTES);
        let tables = match target {
            Some(t) if direct => return self.find_direct(v, t, coin_index, work, visit),
            Some(_) if bytes > MAX_TABLE_BYTES => {
                return Err(GameError::TooLarge(format!(
                    "the winning moves from coin {} need {} MB of tables (the limit is {} MB); \
                     use a shorter row",
                    self.fixed.last().expect("the head"),
                    bytes >> 20,
                    MAX_TABLE_BYTES >> 20
                )));
            }
            Some(_) => self.tables(v, words, true, work)?,
            None => Vec::new(),
        };
        let cap = cap as u32;
        let base = self.fixed.len() as u32;
        // Depth-first over the units from the last; `chosen` are indices of units taken.
        let mut chosen: Vec<usize> = Vec::new();
        // Stack of (units left to decide, coins taken, xor taken, next choice 0 = take, 1 = skip, 2 = done).
        let mut stack: Vec<(usize, u32, u64, u8)> = vec![(self.units.len(), 0, 0, 0)];
        while let Some(top) = stack.last_mut() {
            let (i, w, x, step) = *top;
            let viable = |i: usize, w: u32, x: u64| -> bool {
                match target {
                    None => self.hi.is_none_or(|h| base + w <= h),
                    Some(t) => {
                        let s = &tables[i];
                        (0..=cap as usize).any(|c| {
                            let total = c as u32 + w;
                            let ok = if c as u32 == cap && self.hi.is_none() {
                                true
                            } else {
                                total >= self.lo && self.hi.is_none_or(|h| total <= h)
                            };
                            ok && contains(&s[c], t ^ x)
                        })
                    }
                }
            };
            if step == 0 && i == 0 {
                stack.pop();
                let k = base + w;
                if k >= self.lo && self.hi.is_none_or(|h| k <= h) {
                    let mut coins: Vec<u32> = self.fixed.clone();
                    for &j in &chosen {
                        let u = self.units[j];
                        coins.push(u.0);
                        if u.1 != 0 {
                            coins.push(u.1);
                        }
                    }
                    coins.sort_unstable();
                    if !visit(coins) {
                        return Ok(false);
                    }
                }
                if let Some(top) = stack.last_mut() {
                    if top.3 == 1 {
                        chosen.pop();
                    }
                }
                continue;
            }
            match step {
                0 => {
                    top.3 = 1;
                    let u = self.units[i - 1];
                    let (w2, x2) = (w + Family::weight(u), x ^ Family::unit_value(u, v));
                    work.spend(1)?;
                    if viable(i - 1, w2, x2) {
                        chosen.push(i - 1);
                        stack.push((i - 1, w2, x2, 0));
                    }
                }
                1 => {
                    top.3 = 2;
                    work.spend(1)?;
                    if viable(i - 1, w, x) {
                        stack.push((i - 1, w, x, 0));
                    }
                }
                _ => {
                    stack.pop();
                    if let Some(top) = stack.last_mut() {
                        if top.3 == 1 {
                            chosen.pop();
                        }
                    }
                }
            }
        }
        Ok(true)
    }
}

/// Whether an element's moves are few enough to list one by one: consecutive or equally
/// spaced coins (one move per count and spacing).
fn is_explicit(e: &Element) -> bool {
    e.consecutive || e.equal
}

/// Calls `f(x, a, d, k)` for every move of a consecutive or equally spaced element from head
/// `n`: the coins a, a + d, …, n (k of them), x the XOR of their values without the head;
/// the XOR is kept from one count to the next, so each move costs O(1). Stops when `f`
/// returns false (and returns false).
fn explicit(
    e: &Element,
    n: u32,
    v: &[u64],
    work: &mut Work,
    f: &mut dyn FnMut(u64, u32, u32, u32) -> bool,
) -> Result<bool> {
    let in_window = |a: u32| e.window.is_none_or(|w| n - a < w);
    let allowed = |a: u32, k: u32| k >= e.lo && e.hi.is_none_or(|h| k <= h) && (!e.first || a == 1);
    if allowed(n, 1) && !f(0, n, 1, 1) {
        return Ok(false);
    }
    let spacings = if e.consecutive {
        1
    } else {
        n.saturating_sub(1)
    };
    for d in 1..=spacings {
        let mut x = 0u64;
        let mut k = 2u32;
        while (k - 1) as u64 * d as u64 <= (n - 1) as u64 {
            if e.hi.is_some_and(|h| k > h) {
                break;
            }
            let a = n - (k - 1) * d;
            if !in_window(a) {
                break;
            }
            x ^= v[a as usize];
            work.spend(1)?;
            if allowed(a, k) && !f(x, a, d, k) {
                return Ok(false);
            }
            k += 1;
        }
    }
    Ok(true)
}

/// The families of moves of element `e` from head `n`, given to `f` (symmetric and plain
/// elements; the consecutive and equally spaced ones go through [`explicit`]).
fn families(e: &Element, n: u32, f: &mut dyn FnMut(Family) -> Result<bool>) -> Result<bool> {
    let single = |coins: Vec<u32>| Family {
        fixed: coins,
        units: Vec::new(),
        lo: e.lo,
        hi: e.hi,
    };
    let in_window = |a: u32| e.window.is_none_or(|w| n - a < w);
    // The head alone (the plain family below includes it).
    let alone = e.lo <= 1 && (!e.first || n == 1);
    if (e.symmetric || n == 1) && alone && !f(single(vec![n]))? {
        return Ok(false);
    }
    if e.symmetric {
        let firsts = if e.first { 1..2.min(n) } else { 1..n };
        for a in firsts {
            if !in_window(a) {
                continue;
            }
            let s = a + n;
            let mut units: Vec<(u32, u32)> = (a + 1..n)
                .take_while(|&x| 2 * x < s)
                .map(|x| (x, s - x))
                .collect();
            if s.is_multiple_of(2) && s / 2 > a && s / 2 < n {
                units.push((s / 2, 0));
            }
            let fam = Family {
                fixed: vec![a, n],
                units,
                lo: e.lo,
                hi: e.hi,
            };
            if !f(fam)? {
                return Ok(false);
            }
        }
        return Ok(true);
    }
    // Any coins below n (within the window), coin 1 fixed under F.
    if n == 1 {
        return Ok(true); // the head alone was given above
    }
    if e.first && !in_window(1) {
        return Ok(true);
    }
    let start = if e.first { 2 } else { 1 };
    let from = match e.window {
        Some(w) if n > w => (n - w + 1).max(start),
        _ => start,
    };
    let fixed = if e.first { vec![1, n] } else { vec![n] };
    f(Family {
        fixed,
        units: (from..n).map(|p| (p, 0)).collect(),
        lo: e.lo,
        hi: e.hi,
    })
}

/// Whether an element's single-coin values can be kept from one head to the next: any coins
/// below the head may join (no C, E, S, C(W)).
fn incremental(e: &Element) -> bool {
    !e.consecutive && !e.equal && !e.symmetric && e.window.is_none()
}

/// The values of a single head at positions 0..=len (position 0 unused, value 0).
pub fn values(rules: &Rules, len: usize, options: &TurningOptions) -> Result<Vec<u64>> {
    if len > MAX_COINS {
        return Err(GameError::TooLarge(format!(
            "{len} coins (at most {MAX_COINS})"
        )));
    }
    let mut work = Work {
        left: options.max_work,
        limit: options.max_work,
    };
    values_with(rules, len, &mut work).map(|(v, _)| v)
}

/// The values and the word count of their bitsets.
fn values_with(rules: &Rules, len: usize, work: &mut Work) -> Result<(Vec<u64>, usize)> {
    let mut v = vec![0u64; len + 1];
    let mut words = 1usize;
    // Incremental elements: count states over the coins 1..n-1 (2..n-1 under F), exact up to
    // hi - fixed coins, or saturating at lo - fixed coins.
    struct Inc {
        fixed: u32,
        cap: usize,
        bounded: bool,
        states: Vec<Bits>,
    }
    let mut incs: Vec<Option<Inc>> = rules
        .elements
        .iter()
        .map(|e| {
            incremental(e).then(|| {
                let fixed = 1 + e.first as u32;
                let (cap, bounded) = match e.hi {
                    Some(h) => (h.saturating_sub(fixed) as usize, true),
                    None => (e.lo.saturating_sub(fixed) as usize, false),
                };
                let mut states = vec![vec![0u64; 1]; cap + 1];
                states[0][0] = 1;
                Inc {
                    fixed,
                    cap,
                    bounded,
                    states,
                }
            })
        })
        .collect();
    // Any number (at least lo) of consecutive coins, as in Ruler: the moves from n reach
    // P(n-1) ^ P(a-1) for the prefix XORs P, so the set of prefix XORs is kept instead.
    let mut prefix_sets: Vec<Option<Bits>> = rules
        .elements
        .iter()
        .map(|e| {
            (e.consecutive && e.hi.is_none() && !e.first && e.window.is_none())
                .then(|| vec![0u64; 1])
        })
        .collect();
    let mut prefix = vec![0u64; len + 1];
    let mut reach: Bits = Vec::new();
    for n in 1..=len as u32 {
        reach.clear();
        reach.resize(words, 0);
        for ((e, inc), pset) in rules
            .elements
            .iter()
            .zip(incs.iter_mut())
            .zip(prefix_sets.iter_mut())
        {
            if let Some(set) = pset {
                set.resize(words, 0);
                if n >= e.lo {
                    let p = prefix[(n - e.lo) as usize];
                    set[(p >> 6) as usize] |= 1 << (p & 63);
                }
                work.spend(words as u64)?;
                or_translated(&mut reach, set, prefix[n as usize - 1]);
                continue;
            }
            match inc {
                Some(inc) => {
                    if n == 1 {
                        if e.lo <= 1 {
                            reach[0] |= 1;
                        }
                    } else if !(e.first && e.hi.is_some_and(|h| h < 2)) {
                        let shift = if e.first { v[1] } else { 0 };
                        for (c, s) in inc.states.iter().enumerate() {
                            let k = c as u32 + inc.fixed;
                            let ok = if !inc.bounded && c == inc.cap {
                                true
                            } else {
                                k >= e.lo && e.hi.is_none_or(|h| k <= h)
                            };
                            if ok {
                                work.spend(s.len() as u64)?;
                                or_translated(&mut reach, s, shift);
                            }
                        }
                    }
                }
                None if is_explicit(e) => {
                    explicit(e, n, &v, work, &mut |x, _, _, _| {
                        reach[(x >> 6) as usize] |= 1 << (x & 63);
                        true
                    })?;
                }
                None => {
                    families(e, n, &mut |fam| {
                        fam.reach(&v, &mut reach, work)?;
                        work.spend(1)?;
                        Ok(true)
                    })?;
                }
            }
        }
        let g = reach
            .iter()
            .enumerate()
            .find(|(_, &w)| w != u64::MAX)
            .map(|(i, w)| i as u64 * 64 + w.trailing_ones() as u64)
            .unwrap_or(words as u64 * 64);
        if g >= 1 << MAX_VALUE_BITS {
            return Err(GameError::TooLarge(format!(
                "the value of coin {n} reaches 2^{MAX_VALUE_BITS} (the limit); use a shorter row"
            )));
        }
        v[n as usize] = g;
        prefix[n as usize] = prefix[n as usize - 1] ^ g;
        while g >= words as u64 * 64 {
            words *= 2;
        }
        // Let the incremental states take coin n in (coin 1 is fixed under F).
        for (e, inc) in rules.elements.iter().zip(incs.iter_mut()) {
            let Some(inc) = inc else { continue };
            for s in inc.states.iter_mut() {
                s.resize(words, 0);
            }
            if e.first && n == 1 {
                continue;
            }
            work.spend(((inc.cap + 1) * words) as u64)?;
            for c in (0..=inc.cap).rev() {
                if c == inc.cap {
                    if !inc.bounded {
                        or_self_translated(&mut inc.states[c], g);
                    }
                } else {
                    let (lower, upper) = inc.states.split_at_mut(c + 1);
                    or_translated(&mut upper[0], &lower[c], g);
                }
            }
        }
    }
    Ok((v, words))
}

/// The move that turns `coins` (positions from 1, ascending, written from 0 in its text and
/// `at.coins`; the last goes from heads to
/// tails) of `row`, leaving a row (kind `coins`) of that outcome and value: "turn coins 2, 3,
/// 9: BEFORE -> AFTER"; [`Move::at`] holds `{"coins": [2, 3, 9]}`.
fn turn_move(row: &Row, coins: Vec<u32>, outcome: Outcome, grundy: Option<u64>) -> Move {
    let to = row.turned(&coins);
    let coins: Vec<u32> = coins.iter().map(|c| c - 1).collect();
    let list: Vec<String> = coins.iter().map(|c| c.to_string()).collect();
    let what = if coins.len() == 1 { "coin" } else { "coins" };
    let text = format!(
        "turn {what} {}: {} -> {}",
        list.join(", "),
        row.to_text(),
        to.to_text()
    );
    Move::new(
        text,
        &format!("turn {}", list.join(",")),
        coins_position(&to),
        outcome,
        grundy,
    )
    .at("coins", coins)
}

/// Everything the report of a row in normal play says; the fields not skipped are its
/// `details`: `{"code", "name", "heads", "coin_values", "winning_moves_truncated"}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
struct Analysis {
    /// The turning code.
    code: String,
    /// The Winning Ways name of the game, if it has one.
    name: Option<String>,
    /// The heads (positions from 0).
    heads: Vec<u32>,
    /// `N` when the player to move wins.
    #[serde(skip)]
    outcome: Outcome,
    /// The Grundy value: the XOR of `coin_values`.
    #[serde(skip)]
    grundy: u64,
    /// The value of a single head at each head's position, in the order of `heads`.
    coin_values: Vec<u64>,
    /// Winning moves (to value 0), by head from the left; at most [`MAX_LISTED_MOVES`]. Each
    /// [`Move::at`] holds `coins`, the coins turned.
    #[serde(skip)]
    winning_moves: Vec<Move>,
    /// True when there are more winning moves than listed.
    winning_moves_truncated: bool,
}

/// The single-coin values known so far: the values, the words of their bitsets, and
/// optionally the coins by value (for the direct search of winning moves).
struct Known<'a> {
    v: &'a [u64],
    words: usize,
    index: Option<&'a CoinIndex>,
}

/// Calls `visit` with the moves from head `n` whose other coins XOR to `target` (all moves
/// when None), each once, until it returns false.
fn moves_from(
    rules: &Rules,
    n: u32,
    known: &Known,
    target: Option<u64>,
    work: &mut Work,
    visit: &mut dyn FnMut(Vec<u32>) -> bool,
) -> Result<()> {
    let (v, words, coin_index) = (known.v, known.words, known.index);
    // One element never gives the same move twice; several may (`1-3,2C`): remember the
    // moves given, as bit masks while the coins fit 64.
    let dedup = rules.elements.len() > 1;
    let mut seen_masks: std::collections::HashSet<u64> = std::collections::HashSet::new();
    let mut seen: std::collections::HashSet<Vec<u32>> = std::collections::HashSet::new();
    let mut go = true;
    let mut emit = |coins: Vec<u32>| {
        let new = !dedup
            || if n <= 64 {
                seen_masks.insert(coins.iter().fold(0u64, |m, &c| m | 1 << (c - 1)))
            } else {
                seen.insert(coins.clone())
            };
        if new {
            go = visit(coins);
        }
        go
    };
    for e in &rules.elements {
        let more = if is_explicit(e) {
            explicit(e, n, v, work, &mut |x, a, d, k| {
                if target.is_none_or(|t| t == x) {
                    emit((0..k).map(|i| a + i * d).collect())
                } else {
                    true
                }
            })?
        } else {
            families(e, n, &mut |fam| {
                if fam.units.is_empty() {
                    let k = fam.fixed.len() as u32;
                    let x = fam
                        .fixed
                        .iter()
                        .filter(|&&p| p != n)
                        .fold(0, |x, &p| x ^ v[p as usize]);
                    work.spend(1)?;
                    if k >= fam.lo && fam.hi.is_none_or(|h| k <= h) && target.is_none_or(|t| t == x)
                    {
                        return Ok(emit(fam.fixed));
                    }
                    return Ok(true);
                }
                fam.find(v, words, target, coin_index, work, &mut emit)
            })?
        };
        if !more {
            break;
        }
    }
    Ok(())
}

/// The number of moves from a single head at coin `n` (distinct sets of coins turned; CGSuite
/// counts the same for the heap `n` of the heap representation).
pub fn move_count(rules: &Rules, n: u32, options: &TurningOptions) -> Result<usize> {
    if n == 0 || n as usize > MAX_COINS {
        return Err(GameError::Invalid(format!(
            "coin {n} out of range 1..={MAX_COINS}"
        )));
    }
    let mut work = Work {
        left: options.max_work,
        limit: options.max_work,
    };
    let v = vec![0u64; n as usize + 1];
    let mut count = 0usize;
    moves_from(
        rules,
        n,
        &Known {
            v: &v,
            words: 1,
            index: None,
        },
        None,
        &mut work,
        &mut |_| {
            count += 1;
            true
        },
    )?;
    Ok(count)
}

/// Solves a row in normal play: its value by the heap representation and its winning moves.
/// Errors when the work budget ([`TurningOptions::max_work`]) or the value limit
/// ([`MAX_VALUE_BITS`]) is exceeded.
fn analyze(rules: &Rules, row: &Row, options: &TurningOptions) -> Result<Analysis> {
    let mut work = Work {
        left: options.max_work,
        limit: options.max_work,
    };
    let heads = row.heads();
    let last = heads.last().copied().unwrap_or(0) as usize;
    let (v, words) = values_with(rules, last, &mut work)?;
    let coin_values: Vec<u64> = heads.iter().map(|&h| v[h as usize]).collect();
    let grundy = coin_values.iter().fold(0, |x, &y| x ^ y);
    let mut winning_moves = Vec::new();
    let mut truncated = false;
    if grundy != 0 {
        let mut index: CoinIndex = HashMap::new();
        for (p, &x) in v.iter().enumerate().skip(1) {
            index.entry(x).or_default().push(p as u32);
        }
        for &h in &heads {
            let target = grundy ^ v[h as usize];
            if target >= words as u64 * 64 {
                continue; // no XOR of smaller values reaches it
            }
            moves_from(
                rules,
                h,
                &Known {
                    v: &v,
                    words,
                    index: Some(&index),
                },
                Some(target),
                &mut work,
                &mut |coins| {
                    if winning_moves.len() == MAX_LISTED_MOVES {
                        truncated = true;
                        return false;
                    }
                    winning_moves.push(turn_move(row, coins, Outcome::P, Some(0)));
                    true
                },
            )?;
            if truncated {
                break;
            }
        }
    }
    Ok(Analysis {
        code: rules.code.clone(),
        name: rules.name.map(str::to_string),
        heads: heads.iter().map(|h| h - 1).collect(),
        outcome: Outcome::from_grundy(grundy),
        grundy,
        coin_values,
        winning_moves,
        winning_moves_truncated: truncated,
    })
}

/// Everything the report of a row in misère play (the last player to move loses) says; the
/// fields not skipped are its `details`: `{"code", "name", "winning_moves_truncated",
/// "positions"}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
struct MisereAnalysis {
    /// The turning code.
    code: String,
    /// The Winning Ways name of the game, if it has one.
    name: Option<String>,
    /// `N` when the player to move wins in misère play.
    #[serde(skip)]
    outcome: Outcome,
    /// Every winning move (to a misère P-position), by head from the left; at most
    /// [`MAX_LISTED_MOVES`].
    #[serde(skip)]
    winning_moves: Vec<Move>,
    /// True when there are more winning moves than listed.
    winning_moves_truncated: bool,
    /// The positions the search valued.
    positions: u64,
}

/// Solves a row in misère play by searching whole rows (no heap representation): at most
/// [`MISERE_MAX_COINS`] coins up to the last head and
/// [`TurningOptions::max_misere_positions`] positions.
fn analyze_misere(rules: &Rules, row: &Row, options: &TurningOptions) -> Result<MisereAnalysis> {
    let heads = row.heads();
    let last = heads.last().copied().unwrap_or(0) as usize;
    if last > MISERE_MAX_COINS {
        return Err(GameError::TooLarge(format!(
            "misère play is searched over whole rows: the last head is coin {last} (at most \
             {MISERE_MAX_COINS})"
        )));
    }
    let mut work = Work {
        left: options.max_work,
        limit: options.max_work,
    };
    let v = vec![0u64; last + 1];
    // Every move from each head, as bit masks (bit i-1 for coin i).
    let mut moves: Vec<Vec<u64>> = vec![Vec::new(); last + 1];
    let mut total = 0usize;
    for n in 1..=last as u32 {
        let mut list = Vec::new();
        let mut over = false;
        moves_from(
            rules,
            n,
            &Known {
                v: &v,
                words: 1,
                index: None,
            },
            None,
            &mut work,
            &mut |coins| {
                total += 1;
                if total > MAX_MISERE_MOVES {
                    over = true;
                    return false;
                }
                list.push(coins.iter().fold(0u64, |m, &c| m | 1 << (c - 1)));
                true
            },
        )?;
        if over {
            return Err(GameError::TooLarge(format!(
                "misère search: more than {MAX_MISERE_MOVES} moves from the coins up to {last} \
                 (the limit); use a shorter row"
            )));
        }
        moves[n as usize] = list;
    }
    let root = heads.iter().fold(0u64, |m, &h| m | 1 << (h - 1));
    let mut memo: HashMap<u64, bool> = HashMap::new();
    let limit = options.max_misere_positions;
    let wins = |pos: u64, memo: &mut HashMap<u64, bool>| -> Result<bool> {
        misere_wins(pos, &moves, memo, limit)
    };
    let mut winning_moves = Vec::new();
    let mut truncated = false;
    let outcome = if wins(root, &mut memo)? {
        for &h in &heads {
            for &m in &moves[h as usize] {
                if !wins(root ^ m, &mut memo)? {
                    if winning_moves.len() == MAX_LISTED_MOVES {
                        truncated = true;
                        break;
                    }
                    let coins: Vec<u32> = (1..=last as u32)
                        .filter(|&c| m >> (c - 1) & 1 == 1)
                        .collect();
                    winning_moves.push(turn_move(row, coins, Outcome::P, None));
                }
            }
        }
        Outcome::N
    } else {
        Outcome::P
    };
    Ok(MisereAnalysis {
        code: rules.code.clone(),
        name: rules.name.map(str::to_string),
        outcome,
        winning_moves,
        winning_moves_truncated: truncated,
        positions: memo.len() as u64,
    })
}

/// Whether the player to move wins `pos` in misère play: an iterative depth-first search (game
/// lines may be very long), memoised, at most `limit` positions.
fn misere_wins(
    root: u64,
    moves: &[Vec<u64>],
    memo: &mut HashMap<u64, bool>,
    limit: u64,
) -> Result<bool> {
    if let Some(&w) = memo.get(&root) {
        return Ok(w);
    }
    // (position, head being tried, index of its next move, has a move)
    let mut stack: Vec<(u64, usize, usize, bool)> = vec![(root, 0, 0, false)];
    let mut ret: Option<bool> = None;
    while let Some(top) = stack.last_mut() {
        if let Some(r) = ret.take() {
            if !r {
                let pos = top.0;
                memo.insert(pos, true);
                stack.pop();
                ret = Some(true);
                continue;
            }
        }
        // The next move of top.
        let mut child = None;
        while top.1 < moves.len() {
            let n = top.1;
            if n > 0 && top.0 >> (n - 1) & 1 == 1 && top.2 < moves[n].len() {
                child = Some(top.0 ^ moves[n][top.2]);
                top.2 += 1;
                break;
            }
            top.1 += 1;
            top.2 = 0;
        }
        match child {
            Some(c) => {
                top.3 = true;
                match memo.get(&c) {
                    Some(&false) => {
                        let pos = top.0;
                        memo.insert(pos, true);
                        stack.pop();
                        ret = Some(true);
                    }
                    Some(&true) => {}
                    None => {
                        if memo.len() as u64 + stack.len() as u64 >= limit {
                            return Err(grundy_core::Budget::UNLIMITED
                                .with_positions(limit)
                                .limit("misère coin-turning search", 0)
                                .into());
                        }
                        stack.push((c, 0, 0, false));
                    }
                }
            }
            None => {
                // No losing option: a loss, unless there was no move at all (misère: a win).
                let r = !top.3;
                let pos = top.0;
                memo.insert(pos, r);
                stack.pop();
                ret = Some(r);
            }
        }
    }
    Ok(*memo.get(&root).expect("root valued"))
}

/// The longest row whose moves are listed for play (every subset of the coins left of a head
/// is tried against the code).
pub const MAX_PLAY_COINS: usize = 16;

/// The family `turning:CODE` (and the Winning Ways names) in the catalogue.
pub struct TurningEntry;

impl grundy_core::catalogue::Entry for TurningEntry {
    fn info(&self) -> grundy_core::catalogue::Info {
        grundy_core::catalogue::Info {
            name: "turning:CODE".into(),
            aliases: vec![],
            summary: "Coin-turning games by CGSuite's code (turning:1-3 is Mock Turtles, \
                      turning:1+C Ruler, turning:3E Turnips) or Winning Ways name \
                      (turning:mock-turtles)"
                .into(),
            example: "HTTHTHTTH".into(),
            example_game: Some("turning:1-3".into()),
            position: "a row of coins, the leftmost first: `THHTH`, or the heads' positions \
                       from 0: `1,2,4`"
                .into(),
            kind: "coins".into(),
            family: true,
            misere: true,
            loopy: false,
            scoring: false,
            params: Vec::new(),
        }
    }

    fn matches(&self, name: &str) -> bool {
        name.starts_with("turning:")
    }

    fn open(
        &self,
        name: &str,
    ) -> grundy_core::catalogue::Result<Box<dyn grundy_core::catalogue::Rules>> {
        let code = &name["turning:".len()..];
        Ok(Box::new(TurningRules {
            name: name.to_string(),
            rules: Rules::parse(code)?,
            values: Vec::new(),
        }))
    }
}

struct TurningRules {
    name: String,
    rules: Rules,
    /// Single-coin values, index 0 unused.
    values: Vec<u64>,
}

/// The options of a question: the misère search held to the question's position cap too.
fn options(ask: &grundy_core::catalogue::Ask) -> TurningOptions {
    let d = TurningOptions::default();
    TurningOptions {
        max_misere_positions: d.max_misere_positions.min(ask.budget.max_positions),
        ..d
    }
}

/// A row as the catalogue carries it: `heads` counted from 0.
fn coins_position(row: &Row) -> grundy_core::catalogue::Position {
    let heads: Vec<u32> = row.heads().iter().map(|h| h - 1).collect();
    grundy_core::catalogue::Position::text("coins", row.to_text()).with("heads", heads)
}

impl TurningRules {
    fn value(&mut self, row: &Row) -> grundy_core::catalogue::Result<u64> {
        let len = row.coins().len();
        if self.values.len() <= len {
            self.values = values(&self.rules, len.max(16), &TurningOptions::default())?;
        }
        Ok(row
            .heads()
            .iter()
            .fold(0, |a, &h| a ^ self.values[h as usize]))
    }
}

impl grundy_core::catalogue::Rules for TurningRules {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn parse(
        &self,
        text: &str,
    ) -> grundy_core::catalogue::Result<grundy_core::catalogue::Position> {
        Ok(coins_position(&Row::parse(text)?))
    }

    fn moves(
        &mut self,
        pos: &grundy_core::catalogue::Position,
        ask: &grundy_core::catalogue::Ask,
    ) -> grundy_core::catalogue::Result<Vec<grundy_core::catalogue::Move>> {
        let play = ask.play;
        let row = Row::parse(&pos.text)?;
        let n = row.coins().len();
        if n > MAX_PLAY_COINS {
            return Err(grundy_core::catalogue::Error::limit(format!(
                "{n} coins: moves are listed for rows of at most {MAX_PLAY_COINS}"
            )));
        }
        let misere_wins = if play.is_misere() {
            let a = analyze_misere(&self.rules, &row, &options(ask))?;
            Some(
                a.winning_moves
                    .into_iter()
                    .map(|m| m.to.text)
                    .collect::<Vec<_>>(),
            )
        } else {
            None
        };
        let mut out = Vec::new();
        for head in row.heads() {
            for mask in 0u32..(1 << (head - 1)) {
                let mut coins: Vec<u32> = (0..head - 1)
                    .filter(|b| mask >> b & 1 == 1)
                    .map(|b| b + 1)
                    .collect();
                coins.push(head);
                if !self.rules.allows(&coins) {
                    continue;
                }
                let to = row.turned(&coins);
                let (outcome, grundy) = match &misere_wins {
                    Some(w) => (
                        if w.contains(&to.to_text()) {
                            grundy_core::Outcome::P
                        } else {
                            grundy_core::Outcome::N
                        },
                        None,
                    ),
                    None => {
                        let g = self.value(&to)?;
                        (grundy_core::Outcome::from_grundy(g), Some(g))
                    }
                };
                out.push(turn_move(&row, coins, outcome, grundy));
            }
        }
        Ok(out)
    }

    fn analyze(
        &mut self,
        pos: &grundy_core::catalogue::Position,
        ask: &grundy_core::catalogue::Ask,
    ) -> grundy_core::catalogue::Result<grundy_core::catalogue::Report> {
        let play = ask.play;
        let row = Row::parse(&pos.text)?;
        let opts = options(ask);
        if play.is_misere() {
            let a = analyze_misere(&self.rules, &row, &opts)?;
            let mut r = grundy_core::catalogue::Report::new(
                self.name.clone(),
                coins_position(&row),
                play,
                a.outcome,
                None,
            );
            r.explanation =
                vec!["Misère play has no heap representation: the whole row was searched.".into()];
            r.details = serde_json::to_value(&a).unwrap_or_default();
            r.winning_moves = a.winning_moves;
            return r.finish(ask.detail, || self.moves(pos, ask));
        }
        let a = analyze(&self.rules, &row, &opts)?;
        let mut r = grundy_core::catalogue::Report::new(
            self.name.clone(),
            coins_position(&row),
            play,
            a.outcome,
            Some(a.grundy.into()),
        );
        let heads: Vec<String> = a
            .heads
            .iter()
            .zip(&a.coin_values)
            .map(|(h, v)| format!("coin {h} has value {v}"))
            .collect();
        r.explanation = vec![format!(
            "A row is the sum of its heads, each valued alone (the heap representation): {}; \
             the XOR is {}.",
            heads.join(", "),
            a.grundy
        )];
        r.details = serde_json::to_value(&a).unwrap_or_default();
        r.winning_moves = a.winning_moves;
        r.finish(ask.detail, || self.moves(pos, ask))
    }
}
