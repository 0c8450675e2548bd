//! Coin-turning games against CGSuite's values (its strip test and its `Spawning` heap
//! sequences), known sequences of Winning Ways (odious numbers, the ruler function, Grundy's
//! game), and a brute force over whole rows built from the rules as the test itself reads them.

use grundy_core::catalogue::{Ask, Budget, Error, Play, Report};
use grundy_core::Outcome;
use grundy_games::turning::{self, Row, Rules, TurningOptions};
use grundy_games::GameError;
use proptest::prelude::*;
use std::collections::{BTreeSet, HashMap};

mod common;

/// The report of `row` in the turning game `code` under `play`, within `budget`.
fn analyze(code: &str, row: &Row, play: Play, budget: Budget) -> Result<Report, Error> {
    let ask = Ask::new(play).budget(budget);
    common::ask(&format!("turning:{code}"), &row.to_text(), &ask)
}

/// A report's value.
fn value(r: &Report) -> u64 {
    r.grundy.as_ref().and_then(|g| g.finite()).unwrap()
}

/// True when the report lists fewer winning moves than there are.
fn truncated(r: &Report) -> bool {
    r.details["winning_moves_truncated"] == true
}

/// The coins a move turns, read from its `at` (counted from 0, as users read them) and
/// counted from 1 as the rules are.
fn coins_of(m: &grundy_core::Move) -> Vec<u32> {
    let at: Vec<u32> = serde_json::from_value(m.at["coins"].clone()).unwrap();
    at.into_iter().map(|c| c + 1).collect()
}

const GRAPH_GRID: &str = include_str!("../../../testdata/cgsuite/graph_grid.txt");
const OTHER_HEAP_GAMES: &str = include_str!("../../../testdata/cgsuite/other_heap_games.txt");
const GRUNDYS_GAME: &str = include_str!("../../../testdata/oeis/A002188.txt");

fn opts() -> TurningOptions {
    TurningOptions::default()
}

/// CGSuite: `Turning("1-3")("htththtth").NimValue = 29` (coin 1 on the left, h = heads).
#[test]
fn cgsuite_strip_value() {
    let line = GRAPH_GRID
        .lines()
        .find(|l| l.starts_with("Turning("))
        .expect("Turning line");
    let code = line.split('"').nth(1).unwrap();
    let row = line.split('"').nth(3).unwrap();
    let want: u64 = line.rsplit("= ").next().unwrap().trim().parse().unwrap();
    assert_eq!((code, row, want), ("1-3", "htththtth", 29));
    let a = analyze(
        code,
        &Row::parse(row).unwrap(),
        Play::Normal,
        Budget::default(),
    )
    .unwrap();
    assert_eq!(value(&a), want);
    assert_eq!(a.details["name"], "mock-turtles");
    for m in &a.winning_moves {
        let b = analyze(
            code,
            &Row::parse(&m.to.text).unwrap(),
            Play::Normal,
            Budget::default(),
        );
        assert_eq!(value(&b.unwrap()), 0, "{}", m.text);
    }
}

/// CGSuite's `Spawning(code)` heap sequences (the heap representation of `Turning(code)`):
/// the values of a single head at coins 1..20, and the number of moves from coin 20.
#[test]
fn cgsuite_spawning_sequences() {
    let mut checked = 0;
    for line in OTHER_HEAP_GAMES.lines() {
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        if f.len() != 4 || !f[1].starts_with("game.heap.Spawning(") {
            continue;
        }
        let code = f[1].split('"').nth(1).unwrap();
        let rules = Rules::parse(code).unwrap();
        let want: Vec<u64> = f[3].split(',').map(|x| x.trim().parse().unwrap()).collect();
        let v = turning::values(&rules, 20, &opts()).unwrap();
        assert_eq!(&v[1..], &want[..], "{} ({code})", f[0]);
        // Names: each of these games is in the list of Winning Ways names.
        let name = f[0].to_lowercase().replace(' ', "-");
        assert_eq!(rules.name(), Some(name.as_str()), "{code}");
        assert_eq!(Rules::parse(&name).unwrap().code(), code);
        let moves: usize = f[2].parse().unwrap();
        assert_eq!(
            turning::move_count(&rules, 20, &opts()).unwrap(),
            moves,
            "{code}"
        );
        checked += 1;
    }
    assert_eq!(checked, 10);
}

/// Known sequences: Mock Turtles gives the odious numbers (A000069, odd binary weight) with
/// coin n worth A000069(n-1); Ruler the ruler function (largest power of 2 dividing n,
/// A006519); Turning Turtles a Nim heap n; Twins a Nim heap n-1; Grunt Grundy's game
/// (A002188) at n-1.
#[test]
fn known_sequences() {
    let n = 2000;
    let v = turning::values(&Rules::parse("mock-turtles").unwrap(), n, &opts()).unwrap();
    let odious: Vec<u64> = (0u64..)
        .filter(|x| x.count_ones() % 2 == 1)
        .take(n)
        .collect();
    assert_eq!(&v[1..], &odious[..]);
    let v = turning::values(&Rules::parse("ruler").unwrap(), n, &opts()).unwrap();
    assert!((1..=n).all(|i| v[i] == 1 << i.trailing_zeros()));
    let v = turning::values(&Rules::parse("1-2").unwrap(), n, &opts()).unwrap();
    assert!((1..=n).all(|i| v[i] == i as u64));
    let v = turning::values(&Rules::parse("twins").unwrap(), n, &opts()).unwrap();
    assert!((1..=n).all(|i| v[i] == i as u64 - 1));
    let grundy: Vec<(usize, u64)> = GRUNDYS_GAME
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut it = l.split_whitespace();
            (
                it.next().unwrap().parse().unwrap(),
                it.next().unwrap().parse().unwrap(),
            )
        })
        .collect();
    let v = turning::values(&Rules::parse("grunt").unwrap(), grundy.len() + 1, &opts()).unwrap();
    for (h, g) in grundy {
        assert_eq!(v[h + 1], g, "Grunt coin {} = Grundy's game heap {h}", h + 1);
    }
}

/// A rule element as the test reads it, independent of the library's parser.
#[derive(Clone, Debug)]
struct Spec {
    lo: u32,
    hi: Option<u32>,
    c: bool,
    e: bool,
    s: bool,
    f: bool,
    w: Option<u32>,
}

impl Spec {
    fn code(&self) -> String {
        let mut s = match self.hi {
            Some(h) if h == self.lo => format!("{}", self.lo),
            Some(h) => format!("{}-{h}", self.lo),
            None => format!("{}+", self.lo),
        };
        for (on, l) in [(self.c, "C"), (self.e, "E"), (self.s, "S"), (self.f, "F")] {
            if on {
                s.push_str(l);
            }
        }
        if let Some(w) = self.w {
            s.push_str(&format!("C({w})"));
        }
        s
    }

    /// Whether turning the coins `c` (ascending, last the head) is allowed.
    fn allows(&self, c: &[u32]) -> bool {
        let k = c.len() as u32;
        let (a, n) = (c[0], *c.last().unwrap());
        k >= self.lo
            && self.hi.is_none_or(|h| k <= h)
            && (!self.c || c.windows(2).all(|p| p[1] == p[0] + 1))
            && (!self.e || c.windows(2).all(|p| p[1] - p[0] == c[1] - c[0]))
            && (!self.s || (0..c.len()).all(|i| c[i] + c[c.len() - 1 - i] == a + n))
            && (!self.f || a == 1)
            && self.w.is_none_or(|w| n - a < w)
    }
}

fn spec() -> impl Strategy<Value = Spec> {
    (
        1u32..=4,
        prop_oneof![Just(None), (0u32..=3).prop_map(Some)],
        any::<[bool; 4]>(),
        prop_oneof![3 => Just(None), 1 => (1u32..=6).prop_map(Some)],
    )
        .prop_map(|(lo, extra, [c, e, s, f], w)| Spec {
            lo,
            hi: extra.map(|x| lo + x),
            // Keep most elements to one or two modifiers so that each kind gets exercised.
            c: c && !e,
            e,
            s: s && !c,
            f,
            w,
        })
}

/// Every move from row `pos` (bit i-1 = coin i heads), as coin masks, from the test's rules.
fn moves(specs: &[Spec], pos: u32, len: u32) -> Vec<u32> {
    let mut out = BTreeSet::new();
    for n in 1..=len {
        if pos >> (n - 1) & 1 == 0 {
            continue;
        }
        for below in 0u32..1 << (n - 1) {
            let mut c: Vec<u32> = (1..n).filter(|&i| below >> (i - 1) & 1 == 1).collect();
            c.push(n);
            if specs.iter().any(|s| s.allows(&c)) {
                out.insert(below | 1 << (n - 1));
            }
        }
    }
    out.into_iter().collect()
}

fn normal(specs: &[Spec], pos: u32, len: u32, memo: &mut HashMap<u32, u64>) -> u64 {
    if let Some(&v) = memo.get(&pos) {
        return v;
    }
    let mut seen: Vec<u64> = moves(specs, pos, len)
        .into_iter()
        .map(|m| normal(specs, pos ^ m, len, memo))
        .collect();
    seen.sort_unstable();
    let mut g = 0;
    for s in seen {
        if s == g {
            g += 1;
        }
    }
    memo.insert(pos, g);
    g
}

fn misere_wins(specs: &[Spec], pos: u32, len: u32, memo: &mut HashMap<u32, bool>) -> bool {
    if let Some(&v) = memo.get(&pos) {
        return v;
    }
    let ms = moves(specs, pos, len);
    let w = ms.is_empty() || ms.iter().any(|&m| !misere_wins(specs, pos ^ m, len, memo));
    memo.insert(pos, w);
    w
}

fn mask_coins(m: u32) -> Vec<u32> {
    (1..=32).filter(|&i| m >> (i - 1) & 1 == 1).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Random codes of one or two elements on random rows of up to 10 coins: the value, the
    /// winning moves and the misère outcome and winning moves against whole-row search.
    #[test]
    fn rows_match_brute_force(
        specs in prop::collection::vec(spec(), 1..=2),
        coins in prop::collection::vec(any::<bool>(), 1..=10),
    ) {
        let code: Vec<String> = specs.iter().map(Spec::code).collect();
        let code = code.join(",");
        Rules::parse(&code).unwrap();
        let row = Row::from_coins(coins.clone()).unwrap();
        let len = coins.len() as u32;
        let pos = (0..coins.len()).filter(|&i| coins[i]).fold(0u32, |m, i| m | 1 << i);

        let mut memo = HashMap::new();
        let want = normal(&specs, pos, len, &mut memo);
        let a = analyze(&code, &row, Play::Normal, Budget::default()).unwrap();
        prop_assert_eq!(value(&a), want, "code {} row {}", &code, row.to_text());
        prop_assert_eq!(a.outcome, Outcome::from_grundy(want));
        let winning: Vec<Vec<u32>> = moves(&specs, pos, len)
            .into_iter()
            .filter(|&m| normal(&specs, pos ^ m, len, &mut memo) == 0)
            .map(mask_coins)
            .collect();
        let got: BTreeSet<Vec<u32>> = a.winning_moves.iter().map(coins_of).collect();
        prop_assert_eq!(got.len(), a.winning_moves.len(), "a move listed twice");
        let winning: BTreeSet<Vec<u32>> = winning.into_iter().collect();
        if truncated(&a) {
            prop_assert_eq!(got.len(), turning::MAX_LISTED_MOVES);
            prop_assert!(got.is_subset(&winning));
        } else {
            prop_assert_eq!(got, winning, "code {} row {}", &code, row.to_text());
        }

        let mut memo = HashMap::new();
        let wins = misere_wins(&specs, pos, len, &mut memo);
        let m = analyze(&code, &row, Play::Misere, Budget::default()).unwrap();
        prop_assert_eq!(m.outcome, if wins { Outcome::N } else { Outcome::P }, "misère {} {}", &code, row.to_text());
        let winning: BTreeSet<Vec<u32>> = moves(&specs, pos, len)
            .into_iter()
            .filter(|&mv| !misere_wins(&specs, pos ^ mv, len, &mut memo))
            .map(mask_coins)
            .collect();
        let got: BTreeSet<Vec<u32>> = m.winning_moves.iter().map(coins_of).collect();
        if truncated(&m) {
            prop_assert_eq!(got.len(), turning::MAX_LISTED_MOVES);
            prop_assert!(got.is_subset(&winning));
        } else {
            prop_assert_eq!(got, winning);
        }
    }
}

#[test]
fn rows_and_heads() {
    let r = Row::parse("THHTH").unwrap();
    assert_eq!(r.heads(), vec![2, 3, 5]);
    // Head positions are typed from 0, as move texts and `at.coins` write them.
    assert_eq!(Row::parse("1, 2 4").unwrap(), Row::parse("thhth").unwrap());
    assert_eq!(Row::parse("0").unwrap(), Row::parse("H").unwrap());
    for (bad, needle) in [
        ("", "no coins"),
        ("THX", "neither"),
        ("-1,3", "neither"),
        ("3,3", "listed twice"),
        ("1,999999999", "out of range"),
    ] {
        let e = Row::parse(bad).unwrap_err().to_string();
        assert!(e.contains(needle), "{bad}: {e}");
    }
}

#[test]
fn code_errors() {
    for (bad, needle) in [
        ("", "empty"),
        ("0-3", "at least 1"),
        ("3-1", "empty range"),
        ("1-3X", "unknown modifier"),
        ("1-3C(5", "missing ')'"),
        ("1-3CC", "twice"),
        ("1-", "expected a number"),
        ("1,,2", "expected a number"),
        ("99999999999", "too large"),
        // An unknown name lists the names known.
        ("mock turtle", "unknown coin-turning game 'mock turtle'"),
        ("foo", "the names turning-turtles, mock-turtles, moebius"),
    ] {
        let e = Rules::parse(bad).unwrap_err().to_string();
        assert!(e.contains(needle), "{bad}: {e}");
        assert!(!e.contains('\n'));
    }
    assert_eq!(Rules::parse("Mock Turtles").unwrap().code(), "1-3");
    assert_eq!(
        Rules::parse(" 1 - 3 ").unwrap().name(),
        Some("mock-turtles")
    );
    assert_eq!(Rules::parse("4SF").unwrap().code(), "4SF");
}

#[test]
fn limits() {
    // Motley doubles: coin 25 is worth 2^24, past the value limit.
    let motley = Rules::parse("motley").unwrap();
    assert_eq!(turning::values(&motley, 24, &opts()).unwrap()[24], 1 << 23);
    let e = turning::values(&motley, 25, &opts()).unwrap_err();
    assert!(matches!(e, GameError::TooLarge(_)), "{e}");
    // A tiny work budget is refused with a message naming the limit.
    let small = TurningOptions {
        max_work: 100,
        ..opts()
    };
    let e = turning::values(&Rules::parse("1-3").unwrap(), 1000, &small).unwrap_err();
    assert!(e.to_string().contains("limit"), "{e}");
    // Misère play searches whole rows: long rows are refused, and the search stops at the
    // question's position cap.
    let row = Row::from_heads(&[40]).unwrap();
    assert!(analyze("1-3", &row, Play::Misere, Budget::default()).is_err());
    let row = Row::parse("HHHHHHHHHHHH").unwrap();
    let e = analyze("1-3", &row, Play::Misere, Budget::positions(10)).unwrap_err();
    assert!(e.is_limit(), "{e}");
}

#[test]
fn long_rows() {
    // Mock Turtles on 6000 coins, heads at every third coin: too long for the tables that
    // guide the search for winning moves, so the direct search finds them.
    let heads: Vec<u32> = (1..=6000).filter(|i| i % 3 == 0).collect();
    let row = Row::from_heads(&heads).unwrap();
    let rules = Rules::parse("mock-turtles").unwrap();
    let a = analyze("mock-turtles", &row, Play::Normal, Budget::default()).unwrap();
    let odious: Vec<u64> = (0u64..)
        .filter(|x| x.count_ones() % 2 == 1)
        .take(6000)
        .collect();
    let want = heads.iter().fold(0, |x, &h| x ^ odious[h as usize - 1]);
    assert_eq!(value(&a), want);
    assert!(!a.winning_moves.is_empty());
    for m in &a.winning_moves {
        let coins = coins_of(m);
        assert!(rules.allows(&coins));
        let after = coins
            .iter()
            .fold(value(&a), |x, &c| x ^ odious[c as usize - 1]);
        assert_eq!(after, 0, "{:?}", coins);
    }
}

#[test]
fn json_shape() {
    let row = Row::parse("THHT").unwrap();
    let a = analyze("ruler", &row, Play::Normal, Budget::default()).unwrap();
    let j = serde_json::to_value(&a).unwrap();
    assert_eq!(j["outcome"], "N");
    assert_eq!(j["grundy"], 3);
    assert_eq!(j["details"]["name"], "ruler");
    assert_eq!(j["details"]["coin_values"], serde_json::json!([2, 1]));
    assert!(j["winning_moves"][0]["to"]["text"].is_string());
    assert!(j["winning_moves"][0]["text"].is_string());
    assert!(j["winning_moves"][0]["at"]["coins"].is_array());
    let m = analyze("ruler", &row, Play::Misere, Budget::default()).unwrap();
    let j = serde_json::to_value(&m).unwrap();
    assert!(j["outcome"] == "N" || j["outcome"] == "P");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// Arbitrary text as a code and a row: never a panic; errors are one line without
    /// control characters; what parses can be analysed (within a small budget) without one.
    #[test]
    fn parsers_never_panic(
        code in prop_oneof![r"[0-9+\-,CESF()x ]{0,12}", any::<String>()],
        row in prop_oneof![r"[HTht0-9, ]{0,12}", any::<String>()],
    ) {
        let rules = Rules::parse(&code);
        let row = Row::parse(&row);
        for e in [rules.as_ref().err(), row.as_ref().err()].into_iter().flatten() {
            let m = e.to_string();
            prop_assert!(!m.chars().any(char::is_control), "{m:?}");
            prop_assert!(m.len() < 1000);
        }
        if let (Ok(_), Ok(row)) = (rules, row) {
            let _ = analyze(&code, &row, Play::Normal, Budget::positions(10_000));
            let _ = analyze(&code, &row, Play::Misere, Budget::positions(10_000));
        }
    }
}
