//! Games given by rules: the `windup:N:S` family, implicit games explored within a budget
//! (loopy ones, the Lua examples' rules, and loopfree heap games against the OEIS corpus).

use grundy_core::catalogue::Budget;
use grundy_core::Game;
use grundy_loopy::{analyze_game, explore, Grundy, LimitError, Outcome, Windup};

fn outcomes(w: &Windup) -> String {
    let l = w.labelled();
    (0..w.n() as usize).map(|x| l.outcome(x).as_str()).collect()
}

#[test]
fn windup_small_families_by_hand() {
    // ±1 on a clock of 4: 1 and 3 reach 0, 2 must move to one of them.
    let w = Windup::parse("windup:4:1,3").unwrap();
    assert_eq!(w.values(), [0, 1, 0, 1].map(Grundy::Finite));
    // ±1 on a clock of 5: 2 and 3 only move to each other or to a won 1 or 4: drawn.
    let w = Windup::parse("windup:5:1,4").unwrap();
    assert_eq!(outcomes(&w), "PNDDN");
    let v: Vec<String> = w.values().iter().map(Grundy::to_string).collect();
    assert_eq!(v, ["0", "∞(0)", "∞", "∞", "∞(0)"]);
    // Take 1 only: no wrap ever happens (1 -> 0 ends it), values alternate.
    let w = Windup::parse("windup:9:1").unwrap();
    assert_eq!(w.values(), [0, 1, 0, 1, 0, 1, 0, 1, 0].map(Grundy::Finite));
    // The example: 3 and 5 reach 0; 2 -> 7 or 5, 7 -> 4 or 2, ... go round forever.
    let w = Windup::parse("windup:8:3,5").unwrap();
    assert_eq!(outcomes(&w), "PDDNDNDD");
    let l = w.labelled();
    assert_eq!(l.drawing_moves(2), [7]);
    // No moves at all: every position is terminal.
    let w = Windup::parse("windup:3:").unwrap();
    assert_eq!(outcomes(&w), "PPP");
    // s = 0 (or N) stays put: a pass, so everything but 0 is drawn or won.
    let w = Windup::parse("windup:3:3").unwrap();
    assert_eq!(w.subtractions(), [0]);
    assert_eq!(outcomes(&w), "PDD");
    assert_eq!(
        Windup::parse(" windup:8:5,3,13 ").unwrap().code(),
        "windup:8:3,5"
    );
}

#[test]
fn windup_explored_from_a_start_agrees() {
    for code in [
        "windup:8:3,5",
        "windup:12:3,5",
        "windup:10:2,3,7",
        "windup:7:1,6",
    ] {
        let w = Windup::parse(code).unwrap();
        let all = w.values();
        for x in 0..w.n() {
            let e = explore(&w, &x, &Budget::default()).unwrap();
            for (i, p) in e.positions().iter().enumerate() {
                assert_eq!(
                    e.labelled().value(i),
                    all[*p as usize],
                    "{code} from {x} at {p}"
                );
            }
        }
    }
}

#[test]
fn windup_parse_errors_are_one_line() {
    for (code, needle) in [
        ("windup", "expected windup:N:S"),
        ("subtract:8:3", "expected windup:N:S"),
        ("windup:8:3:4", "expected windup:N:S"),
        ("windup:0:1", "N must be a positive integer, found '0'"),
        ("windup:x:1", "found 'x'"),
        ("windup:8:1,,2", "S must be integers"),
        ("windup:8:-1", "found '-1'"),
        ("windup:99999999999:1", "above the limit"),
        ("windup:16777216:1,2,3,4,5", "moves in all"),
        ("windup:\n:1", "found '\\n'"),
    ] {
        let e = Windup::parse(code).expect_err(code).to_string();
        assert!(e.contains(needle), "{code}: {e}");
        assert!(!e.contains('\n'), "{e}");
    }
}

/// `examples/games/take-or-give.lua`: a heap of at most 6; take 1 or 2, or give one back
/// (add 1) while neither empty nor 6.
struct TakeOrGive;

impl Game for TakeOrGive {
    type Position = u32;
    fn options(&self, &n: &u32, out: &mut Vec<u32>) {
        out.extend([1, 2].into_iter().filter(|&s| s <= n).map(|s| n - s));
        if (1..6).contains(&n) {
            out.push(n + 1);
        }
    }
}

/// `examples/games/clock.lua`: a hand at hour h (0..12) turns back 2 or 5 hours; at 12
/// o'clock (0) it is stuck. The same game as `windup:12:2,5`.
struct Clock;

impl Game for Clock {
    type Position = u32;
    fn options(&self, &h: &u32, out: &mut Vec<u32>) {
        if h != 0 {
            out.extend([2, 5].into_iter().map(|s| (h + 12 - s) % 12));
        }
    }
}

#[test]
fn lua_examples_rules() {
    let e = explore(&TakeOrGive, &6, &Budget::default()).unwrap();
    let values: Vec<String> = (0..=6)
        .map(|n| e.value(&n).expect("reached").to_string())
        .collect();
    assert_eq!(values, ["0", "∞(0)", "∞(0)", "∞", "∞", "∞", "∞"]);
    let a = analyze_game(&TakeOrGive, &2, &Budget::default()).unwrap();
    assert_eq!(a.this.outcome, Outcome::N);
    assert_eq!(a.this.remoteness, Some(1));
    assert_eq!(a.winning_moves.len(), 1);
    assert_eq!(a.winning_moves[0].position, 0);
    // From 4, moving to 2 hands the opponent the win; 3 and 5 keep the draw.
    let a = analyze_game(&TakeOrGive, &4, &Budget::default()).unwrap();
    assert_eq!(a.this.outcome, Outcome::D);
    let keep: Vec<u32> = a.drawing_moves.iter().map(|p| p.position).collect();
    assert_eq!(keep, [3, 5]);
    let w = Windup::parse("windup:12:2,5").unwrap().values();
    let e = explore(&Clock, &11, &Budget::default()).unwrap();
    for h in 0..12u32 {
        assert_eq!(e.value(&h).as_ref(), Some(&w[h as usize]), "hour {h}");
    }
    let text: Vec<String> = w.iter().map(Grundy::to_string).collect();
    assert_eq!(
        text,
        ["0", "∞", "∞(0)", "∞", "∞", "∞(0)", "∞", "0", "∞", "∞(0)", "∞", "∞"]
    );
    let a = analyze_game(&Clock, &1, &Budget::default()).unwrap();
    assert_eq!(a.this.outcome, Outcome::D);
    assert!(!a.drawing_moves.is_empty());
    // 7 is lost although play can go round: both its moves (to 5 and 2) reach 0.
    let a7 = analyze_game(&Clock, &7, &Budget::default()).unwrap();
    assert_eq!((a7.this.outcome, a7.this.remoteness), (Outcome::P, Some(2)));
    let json = serde_json::to_value(&a).unwrap();
    assert_eq!(json["outcome"], "D");
    assert_eq!(json["position"], 1);
}

/// A game that never stops finding new positions: n -> n + 1.
struct Forever;

impl Game for Forever {
    type Position = u64;
    fn options(&self, &n: &u64, out: &mut Vec<u64>) {
        out.push(n + 1);
    }
}

#[test]
fn budgets_are_limits() {
    let tiny = Budget {
        max_positions: 1000,
        ..Budget::default()
    };
    let e = explore(&Forever, &0, &tiny).expect_err("endless");
    assert_eq!(e, LimitError::Positions { limit: 1000 });
    assert!(e.to_string().contains("limit of 1000 positions"));
    let small = Budget {
        max_bytes: 10_000,
        ..Budget::default()
    };
    let e = explore(&Forever, &0, &small).expect_err("endless");
    assert!(matches!(e, LimitError::Memory { limit: 10_000, .. }), "{e}");
    assert!(e.to_string().contains("memory limit"));
}

/// Kayles as whole positions (sorted rows), with no split into components: the loopy
/// solver plays the whole position and must agree with the corpus.
struct Kayles;

impl Game for Kayles {
    type Position = Vec<u8>;
    fn options(&self, pos: &Vec<u8>, out: &mut Vec<Vec<u8>>) {
        for (i, &row) in pos.iter().enumerate() {
            for k in 1..=2u8 {
                for a in 0..=row.saturating_sub(k) {
                    if k > row {
                        continue;
                    }
                    let b = row - k - a;
                    let mut next: Vec<u8> = pos.clone();
                    next.remove(i);
                    next.extend([a, b].into_iter().filter(|&x| x > 0));
                    next.sort_unstable();
                    out.push(next);
                }
            }
        }
    }
}

/// Grundy's game: split a heap into two unequal heaps.
struct GrundysGame;

impl Game for GrundysGame {
    type Position = Vec<u8>;
    fn options(&self, pos: &Vec<u8>, out: &mut Vec<Vec<u8>>) {
        for (i, &heap) in pos.iter().enumerate() {
            for a in 1..heap.div_ceil(2) {
                let mut next = pos.clone();
                next.remove(i);
                next.extend([a, heap - a].into_iter().filter(|&x| x > 1));
                next.sort_unstable();
                out.push(next);
            }
        }
    }
}

fn oeis(name: &str) -> Vec<u64> {
    let path = format!(
        "{}/../../testdata/oeis/{name}.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path)
        .expect("corpus file")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            l.split_whitespace()
                .nth(1)
                .expect("n a(n)")
                .parse()
                .expect("number")
        })
        .collect()
}

#[test]
fn loopfree_games_equal_the_corpus() {
    let kayles = oeis("A002186");
    for (n, &want) in kayles.iter().enumerate().take(19) {
        let start = if n == 0 { vec![] } else { vec![n as u8] };
        let e = explore(&Kayles, &start, &Budget::default()).unwrap();
        assert_eq!(e.labelled().value(0), Grundy::Finite(want), "Kayles {n}");
    }
    let grundy = oeis("A002188");
    for (n, &want) in grundy.iter().enumerate().take(26) {
        let start = if n < 2 { vec![] } else { vec![n as u8] };
        let e = explore(&GrundysGame, &start, &Budget::default()).unwrap();
        assert_eq!(
            e.labelled().value(0),
            Grundy::Finite(want),
            "Grundy's game {n}"
        );
    }
}
