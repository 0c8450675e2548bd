//! Misère play of heap sums against an oracle nobody here wrote: misère Nim by Bouton's rule
//! (grundy::nim), and the misère search's own winning moves checked one by one.

use grundy::budget::Budget;
use grundy::heap::{self, analyze_position_misere, Compute, EngineChoice, DEFAULT_MISERE_BUDGET};
use grundy::nim::{self, Play};
use grundy::Outcome;
use proptest::prelude::*;

/// A number of a move's `at` (all small here).
fn at(m: &grundy::Move, key: &str) -> u64 {
    m.at[key].as_u64().unwrap()
}

/// The heaps a move leaves, its `to.heaps`.
fn after(m: &grundy::Move) -> Vec<u64> {
    m.to.data["heaps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_u64().unwrap())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn misere_nim_by_search_equals_bouton(heaps in proptest::collection::vec(0u64..7, 1..5)) {
        let rule = heap::parse("nim").unwrap();
        let by_search = analyze_position_misere(&rule, &heaps, &DEFAULT_MISERE_BUDGET, &Compute::default()).unwrap();
        let bouton = nim::winning_moves(&heaps, Play::Misere);
        // The player to move wins exactly when some move wins, or (misère) none is left.
        let ended = heaps.iter().all(|&h| h == 0);
        prop_assert_eq!(by_search.outcome == grundy::Outcome::N, ended || !bouton.is_empty());
        let mut a: Vec<(usize, u64)> = by_search
            .winning_moves
            .iter()
            .map(|m| (at(m, "heap") as usize, m.at["leaves"].get(0).map_or(0, |l| l.as_u64().unwrap())))
            .collect();
        let mut b: Vec<(usize, u64)> =
            bouton.iter().map(|m| (at(m, "heap") as usize, at(m, "left"))).collect();
        a.sort_unstable();
        b.sort_unstable();
        prop_assert_eq!(a, b);
    }

    #[test]
    fn every_misere_winning_move_leaves_a_misere_p_position(
        rule in prop::sample::select(vec!["kayles", "0.137", "sub:1,3,4", "4!.0", "dawsons-kayles"]),
        heaps in proptest::collection::vec(1u64..9, 1..4),
    ) {
        let r = heap::parse(rule).unwrap();
        let a = analyze_position_misere(&r, &heaps, &DEFAULT_MISERE_BUDGET, &Compute::default()).unwrap();
        // N exactly when a move wins, or when no move is possible (then the player to move
        // has already "lost the last move" and wins).
        let stuck = heaps.iter().all(|&h| {
            let mut any = false;
            grundy::heap::sum::for_each_move(&r, h, &[], |_, _| any = true);
            !any
        });
        prop_assert_eq!(a.outcome == Outcome::N, stuck || !a.winning_moves.is_empty());
        for m in &a.winning_moves {
            let after = analyze_position_misere(&r, &after(m), &DEFAULT_MISERE_BUDGET, &Compute::default()).unwrap();
            prop_assert_eq!(after.outcome, Outcome::P, "{} {:?}: {}", rule, heaps, m.text);
            prop_assert_eq!((m.outcome, &m.grundy), (Outcome::P, &None));
        }
    }
}

/// Four Kayles heaps searched over whole positions (the yardstick, `EngineChoice::Reference`:
/// by default they are a product in Kayles' misère quotient, with no search to stop).
const BEYOND_THE_QUOTIENT: [u64; 4] = [70, 71, 72, 73];

/// The whole-position search, asked for by name.
fn search() -> Compute<'static> {
    Compute::new().engine(EngineChoice::Reference)
}

#[test]
fn the_budget_is_a_clear_error() {
    let rule = heap::parse("kayles").unwrap();
    let e = analyze_position_misere(
        &rule,
        &BEYOND_THE_QUOTIENT,
        &Budget::positions(1000),
        &search(),
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .contains("more than 1000 positions (the position limit)"),
        "{e}"
    );
    assert!(e.is_input());
    // A limit the caller may raise, named by the library's parameter, not a CLI flag.
    assert_eq!(e.kind(), grundy::ErrorKind::Limit);
    assert_eq!(e.parameter(), Some("max_positions"));
    assert!(!e.to_string().contains("--"), "{e}");
}

/// The memory cap stops the misère search too: four heaps take 104 estimated bytes a position,
/// so 64 KiB holds 630 positions, fewer than the position cap; the error names memory.
#[test]
fn the_memory_cap_is_a_clear_error() {
    let rule = heap::parse("kayles").unwrap();
    assert_eq!(heap::misere_position_bytes(4), 104);
    let e = analyze_position_misere(
        &rule,
        &BEYOND_THE_QUOTIENT,
        &Budget::new(1_000_000, 64 << 10),
        &search(),
    )
    .unwrap_err();
    assert!(e.is_limit(), "{e}");
    assert_eq!(e.parameter(), Some("max_bytes"));
    assert!(
        e.to_string()
            .contains("more than 64 KiB of memory (the memory limit: 630 positions"),
        "{e}"
    );
}

#[test]
fn misere_kayles_small_cases() {
    // Worked by hand: one pin must be taken by the player to move (who then loses); from two
    // pins the winner takes one.
    let rule = heap::parse("kayles").unwrap();
    let one =
        analyze_position_misere(&rule, &[1], &DEFAULT_MISERE_BUDGET, &Compute::default()).unwrap();
    assert_eq!(one.outcome, Outcome::P); // the only move takes the last pin and loses
    let two =
        analyze_position_misere(&rule, &[2], &DEFAULT_MISERE_BUDGET, &Compute::default()).unwrap();
    assert_eq!(two.outcome, Outcome::N); // take one pin, leave one for the opponent
    assert_eq!(two.winning_moves.len(), 1);
    // Grundy's game: heaps of 1 and 2 cannot be split, so the player to move cannot move and
    // wins under misère play.
    let g = heap::parse("4!.0").unwrap();
    let stuck =
        analyze_position_misere(&g, &[1, 2], &DEFAULT_MISERE_BUDGET, &Compute::default()).unwrap();
    assert_eq!(stuck.outcome, Outcome::N);
    assert!(stuck.winning_moves.is_empty());
    assert!(stuck.describe(&g).contains("no move is possible"));
}

#[test]
fn a_stop_flag_ends_the_search() {
    let rule = heap::parse("kayles").unwrap();
    let stop = std::sync::atomic::AtomicBool::new(true);
    let c = Compute::new().stop_when(&stop);
    let e = analyze_position_misere(&rule, &[7, 9], &DEFAULT_MISERE_BUDGET, &c).unwrap_err();
    assert!(matches!(e, grundy::Error::Stopped { .. }), "{e}");
}
