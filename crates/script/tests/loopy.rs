//! Loopy games written in Lua: a cycle met by the search switches to the loopy solver
//! (Smith's generalized values, draws, remoteness). The two loopy examples of
//! `examples/games/` against the values in their headers (worked by hand from Smith's
//! definition and checked on the same rules in `crates/loopy/tests/games.rs`) and against the
//! catalogue family `windup:12:2,5`; a loopfree script gives the same values through the
//! ordinary and the loopy solver.

use grundy_core::Outcome;
use grundy_loopy::{explore, Windup};
use grundy_script::{Budget, Grundy, Limits, Play, Position, Script};
use proptest::prelude::*;

fn load(file: &str) -> Script {
    let path = format!("{}/../../examples/games/{file}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).unwrap();
    Script::load(file, &src, Limits::default()).unwrap()
}

/// A part of a move's `at` (`from`, `leaves`) as a position again.
fn at_position(m: &grundy_core::Move, key: &str) -> Position {
    Position::from_json(&m.at[key]).expect("a position")
}

fn inf(k: &[u64]) -> Grundy {
    Grundy::infinite(k.iter().copied())
}

#[test]
fn clock_has_the_values_of_its_header_and_of_windup() {
    // Clock's header: 0 and 7 are 0; 2, 5, 9 are ∞(0); every other hour ∞.
    let want: Vec<Grundy> = (0..12)
        .map(|h| match h {
            0 | 7 => Grundy::Finite(0),
            2 | 5 | 9 => inf(&[0]),
            _ => inf(&[]),
        })
        .collect();
    let seq = load("clock.lua").sequence(11).unwrap();
    assert_eq!(seq.values, want);
    assert_eq!(seq.period, None, "no period is claimed for infinite values");
    // The same rules as the catalogue's modular subtraction windup:12:2,5.
    let w = Windup::parse("windup:12:2,5").unwrap();
    for h in 0..12u64 {
        let e = explore(&w, &h, &Budget::default()).unwrap();
        assert_eq!(e.value(&h).unwrap(), want[h as usize], "hour {h}");
    }
}

#[test]
fn clock_analysis_lists_winning_and_drawing_moves() {
    let s = load("clock.lua");
    let mut ses = s.session().unwrap();
    // 9 o'clock: ∞(0), won by turning back 2 hours to 7 (a P-position).
    let a = ses.analyze(&[Position::Int(9)], Play::Normal).unwrap();
    assert_eq!(a.outcome, Outcome::N);
    assert_eq!(a.grundy, Some(inf(&[0])));
    let to: Vec<_> = a
        .winning_moves
        .iter()
        .map(|m| at_position(m, "leaves"))
        .collect();
    assert_eq!(to, [Position::Int(7)]);
    // 9 → 7, then 7 → 5 or 2 (each ∞(0)), then to 0: remoteness 3; 7 has remoteness 2.
    assert_eq!(a.remoteness, Some(3));
    let p = ses.analyze(&[Position::Int(7)], Play::Normal).unwrap();
    assert_eq!((p.outcome, p.remoteness), (Outcome::P, Some(2)));
    // 1 o'clock is a draw: 1 → 11 keeps it, 1 → 8 keeps it (both ∞); no move loses.
    let d = ses.analyze(&[Position::Int(1)], Play::Normal).unwrap();
    assert_eq!(d.outcome, Outcome::D);
    assert_eq!(d.remoteness, None);
    let keep: Vec<_> = d
        .drawing_moves
        .iter()
        .map(|m| at_position(m, "leaves"))
        .collect();
    assert_eq!(keep, [Position::Int(11), Position::Int(8)]);
    assert!(d.describe().contains("never ends"), "{}", d.describe());
    let j = serde_json::to_value(&d).unwrap();
    assert_eq!(j["outcome"], "D");
    assert_eq!(j["grundy"], serde_json::json!({"infinite": []}));
    assert!(j.get("remoteness").is_none());
    // Two clocks at 9 o'clock: ∞(0) + ∞(0) = ∞, a draw (Smith's rule).
    let two = ses
        .analyze(&[Position::Int(9), Position::Int(9)], Play::Normal)
        .unwrap();
    assert_eq!((two.outcome, two.grundy), (Outcome::D, Some(inf(&[]))));
    assert!(!two.drawing_moves.is_empty());
    // Misère play of a loopy game is refused.
    assert!(ses.analyze(&[Position::Int(1)], Play::Misere).is_err());
}

#[test]
fn take_or_give_has_the_values_of_its_header() {
    let s = load("take-or-give.lua");
    let seq = s.sequence(6).unwrap();
    let want = [
        Grundy::Finite(0),
        inf(&[0]),
        inf(&[0]),
        inf(&[]),
        inf(&[]),
        inf(&[]),
        inf(&[]),
    ];
    assert_eq!(seq.values, want);
    let j = serde_json::to_value(&seq).unwrap();
    assert_eq!(j["values"][0], 0);
    assert_eq!(j["values"][1], serde_json::json!({"infinite": [0]}));
    // Why 4 is a draw, in words: 4 → 3 and 4 → 5 keep it, 4 → 2 hands the opponent the win.
    let e = s.explain(&Position::Int(4)).unwrap();
    assert_eq!(e.outcome, Outcome::D);
    let why = e.why.clone().unwrap();
    assert!(why.contains("4 is a draw"), "{why}");
    assert!(why.contains("4 -> 3 keeps the draw"), "{why}");
    assert!(
        why.contains("4 -> 2 loses: the opponent answers 2 -> 0"),
        "{why}"
    );
    let keep: Vec<_> = e.drawing_moves.iter().map(|o| o.to.clone()).collect();
    assert_eq!(keep, [Position::Int(3), Position::Int(5)]);
    assert!(e.describe().contains("keeps the draw"));
    // 1 and 2: won by taking everything (remoteness 1).
    let a = s.analyze(&[Position::Int(2)], Play::Normal).unwrap();
    assert_eq!((a.outcome, a.remoteness), (Outcome::N, Some(1)));
}

#[test]
fn a_loopy_script_past_the_position_limit_is_stopped() {
    let src = "function moves(n) return { (n + 1) % 1000 } end";
    let limits = Limits {
        budget: Budget {
            max_positions: 100,
            ..Budget::DEFAULT
        },
        ..Limits::default()
    };
    let s = Script::load("ring.lua", src, limits).unwrap();
    let e = s.analyze(&[Position::Int(0)], Play::Normal).unwrap_err();
    assert!(e.to_string().contains("positions"), "{e}");
}

#[test]
fn the_exploration_after_a_cycle_reuses_the_searchs_option_lists() {
    // windup:1000:1,2 as a script: the search from 1 goes round the whole ring before it
    // meets the cycle; the exploration then reads the option lists that search got, so
    // `moves` runs once a position, and again only for the search's root 1 (whose list is not
    // recorded) and for 0 (valued by the query before).
    let src = "function moves(x) if x == 0 then return {} end return { (x - 1) % 1000, (x - 2) % 1000 } end";
    let s = Script::load("ring.lua", src, Limits::default()).unwrap();
    let mut session = s.session().unwrap();
    let seq = session.sequence(999).unwrap();
    assert_eq!(session.stats().moves_calls, 1002);
    let w = Windup::parse("windup:1000:1,2").unwrap();
    let e = explore(&w, &1, &Budget::default()).unwrap();
    for x in 0..1000u64 {
        assert_eq!(Some(seq.values[x as usize].clone()), e.value(&x), "{x}");
    }
    // A later query reads the value the exploration kept.
    let again = session
        .analyze(&[Position::Int(500)], Play::Normal)
        .unwrap();
    assert_eq!(again.grundy, e.value(&500));
}

#[test]
fn a_loopy_script_past_the_byte_budget_is_stopped() {
    let src = "function moves(n) return { (n + 1) % 100000 } end";
    let limits = Limits {
        budget: Budget {
            max_bytes: 1 << 20,
            ..Budget::DEFAULT
        },
        ..Limits::default()
    };
    let s = Script::load("ring.lua", src, limits).unwrap();
    let e = s.analyze(&[Position::Int(0)], Play::Normal).unwrap_err();
    assert!(e.to_string().contains("Limits::budget.max_bytes"), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// A loopfree script (a subtraction game with splits, so sums appear) gives the same values
    /// through the ordinary solver and the loopy solver.
    #[test]
    fn loopfree_scripts_agree_through_both_solvers(
        set in prop::collection::btree_set(1u64..6, 1..4),
        split in any::<bool>(),
        n in 0u64..24,
    ) {
        let list: Vec<String> = set.iter().map(u64::to_string).collect();
        let src = format!(
            "local S = {{{}}}\nlocal SPLIT = {split}\nfunction moves(n)\n  local out = {{}}\n  \
             for _, s in ipairs(S) do\n    if s <= n then out[#out + 1] = n - s end\n    \
             if SPLIT and s + 2 <= n then out[#out + 1] = sum(1, n - s - 1) end\n  end\n  \
             return out\nend\n",
            list.join(", ")
        );
        let script = Script::load("sub.lua", &src, Limits::default()).unwrap();
        let plain = script.sequence(n).unwrap();
        let mut ses = script.session().unwrap();
        ses.loopy_only(true);
        let loopy = ses.sequence(n).unwrap();
        prop_assert_eq!(&plain.values, &loopy.values);
        prop_assert!(plain.values.iter().all(Grundy::is_finite));
        for x in [n, n / 2] {
            let a = ses.analyze(&[Position::Int(x as i64)], Play::Normal).unwrap();
            let b = script.analyze(&[Position::Int(x as i64)], Play::Normal).unwrap();
            prop_assert_eq!(a.grundy, b.grundy);
            prop_assert_eq!(a.winning_moves, b.winning_moves);
        }
    }
}
