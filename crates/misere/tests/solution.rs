//! Quotients for every heap (a proven period of Φ) against the crate's plain misère search
//! (`search::MisereSearch`, with no quotient to shortcut it) on sums of heaps past the heaps
//! learnt, and the checks a quotient read from a file must pass.

use grundy_core::Outcome;
use grundy_misere::heaps::HeapOptions;
use grundy_misere::quotient::{Limits, QuotientEngine};
use grundy_misere::search::MisereSearch;
use proptest::prelude::*;

/// Rules whose Φ the engine proves periodic early, so that the plain search can reach heaps
/// well past the proof.
/// (Each is proven by heap 20; the sums below reach heap 28.)
const SOLVED: [&str; 9] = [
    "0.75",
    "0.71",
    "sub:1,3,4",
    "sub:1,2,4",
    "sub:2,3,7",
    "0.31",
    "0.33",
    "0.51",
    "0.12",
];

fn solved(rule: &str) -> QuotientEngine {
    let mut e = QuotientEngine::new(rule, Limits::default()).unwrap();
    e.extend_to(120).unwrap();
    assert!(e.solution().is_some(), "{rule}: no solution by heap 120");
    e
}

/// The misère outcome and winning moves (the sums left, sorted) by the plain search.
fn by_search(s: &mut MisereSearch, heaps: &[u64]) -> (Outcome, Vec<Vec<u64>>) {
    let pos: Vec<u16> = heaps.iter().map(|&h| h as u16).collect();
    let p = s.is_p(&pos).unwrap();
    let mut wins = Vec::new();
    for i in 0..heaps.len() {
        for l in s.options().of(heaps[i] as usize).to_vec() {
            let mut to: Vec<u64> = heaps[..i].to_vec();
            to.extend(l.iter().map(|&h| h as u64));
            to.extend(&heaps[i + 1..]);
            let key: Vec<u16> = to.iter().map(|&h| h as u16).collect();
            if s.is_p(&key).unwrap() {
                let mut t = to.clone();
                t.retain(|&h| h > 0);
                t.sort_unstable();
                wins.push(t);
            }
        }
    }
    wins.sort();
    wins.dedup();
    (if p { Outcome::P } else { Outcome::N }, wins)
}

fn moves_left(q: &grundy_misere::Quotient, heaps: &[u64]) -> Vec<Vec<u64>> {
    let mut out: Vec<Vec<u64>> = q
        .winning_moves(heaps)
        .unwrap()
        .iter()
        .map(|m| {
            let mut t: Vec<u64> = m.to.data["heaps"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| h.as_u64().unwrap())
                .filter(|&h| h > 0)
                .collect();
            t.sort_unstable();
            t
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    #[test]
    fn a_solved_quotient_answers_heaps_past_the_proof(
        rule in prop::sample::select(SOLVED.to_vec()),
        a in 0u64..=28,
        b in 0u64..=10,
        c in 0u64..=3,
        count in 1usize..=3,
    ) {
        // One heap past the proof, two small ones: the plain search stays within its budget
        // on the splitting rules.
        let heaps = [a, b, c][..count].to_vec();
        let e = solved(rule);
        let q = e.quotient();
        let mut s = MisereSearch::new(HeapOptions::new(rule, 28).unwrap(), 2_000_000);
        let (outcome, wins) = by_search(&mut s, &heaps);
        prop_assert_eq!(q.outcome(&heaps).unwrap(), outcome, "{} {:?}", rule, heaps);
        prop_assert_eq!(moves_left(&q, &heaps), wins, "{} {:?}", rule, heaps);
    }
}

#[test]
fn the_proof_finds_the_published_periods() {
    // Kayles: Φ periodic with period 12 from heap 71, as its normal-play values are; the
    // quotient of 40 elements (|P| = 9) last changes at heap 27.
    let e = solved("0.77");
    let s = e.solution().unwrap();
    assert_eq!((s.preperiod, s.period), (71, 12));
    assert_eq!(e.learnt(), 94, "two periods past the preperiod");
    let q = e.quotient();
    assert_eq!((q.order, q.p_size, q.changes_at), (40, 9, 27));
    assert_eq!(q.upto, 120, "shown as far as asked");
    let big = 1_000_000_000_000u64;
    // Heap 10^12 pretends to be the heap of the same class mod 12 past the preperiod.
    let same = 71 + (big - 71) % 12;
    for other in [1u64, 2, 5, 64] {
        assert_eq!(
            q.outcome(&[big, other]).unwrap(),
            q.outcome(&[same, other]).unwrap()
        );
    }
    // 0.75 is R_8 from heap 5 on, Φ of period 2.
    let r8 = solved("0.75").quotient();
    assert_eq!(r8.presentation, "a^2 = 1, b^3 = b, bc = ab, c^2 = b^2");
}

#[test]
fn the_proof_agrees_with_learning_every_heap() {
    // Kayles learnt heap by heap to 110 (past the proof at 94 by more than a period): the same
    // quotient and the same Φ as the proof's periodic extension.
    let mut slow = QuotientEngine::new("0.77", Limits::default()).unwrap();
    slow.solve_periods(false);
    slow.extend_to(110).unwrap();
    assert!(slow.solution().is_none());
    let mut fast = QuotientEngine::new("0.77", Limits::default()).unwrap();
    fast.extend_to(110).unwrap();
    assert_eq!(fast.learnt(), 94);
    let (a, b) = (fast.quotient(), slow.quotient());
    assert_eq!(
        (a.order, a.p_size, &a.presentation, &a.phi, a.changes_at),
        (b.order, b.p_size, &b.presentation, &b.phi, b.changes_at)
    );
}

#[test]
fn quotients_that_still_change_are_never_solved() {
    // Dawson's Kayles changes at heaps 25, 27 and 30; misère Nim's Φ never repeats; Grundy's
    // game splits into unequal heaps, which the argument does not cover.
    for (rule, upto) in [("0.07", 24), ("0.[3]", 40), ("4!.0", 20)] {
        let mut e = QuotientEngine::new(rule, Limits::default()).unwrap();
        e.extend_to(upto).unwrap();
        assert!(e.solution().is_none(), "{rule}");
        assert_eq!(e.upto(), upto);
    }
}

#[test]
fn a_stop_keeps_the_heaps_finished() {
    let mut e = QuotientEngine::new("0.07", Limits::default()).unwrap();
    let err = e.extend_with(20, &mut |n| n <= 12).unwrap_err();
    assert!(
        matches!(err, grundy_misere::MisereError::Stopped { upto: 12 }),
        "{err}"
    );
    assert_eq!(e.upto(), 12);
    e.extend_to(14).unwrap();
    assert_eq!(e.upto(), 14);
}

/// Rewrites the line starting with `key` of a saved quotient.
fn with_line(text: &str, key: &str, line: &str) -> String {
    text.lines()
        .map(|l| if l.starts_with(key) { line } else { l })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

#[test]
fn a_quotient_from_a_file_is_proven_again() {
    let e = solved("0.75");
    let text = e.save_text();
    assert!(text.contains("\nsolution 8 2\n"), "{text}");
    let back = QuotientEngine::load_verified(&text, Limits::default()).unwrap();
    assert_eq!(back.solution(), e.solution());
    assert_eq!(back.quotient().presentation, e.quotient().presentation);
    // A forged heap of last change is not read: it is computed from the table.
    let forged = with_line(&text, "changes_at", "changes_at 3");
    let back = QuotientEngine::load_verified(&forged, Limits::default()).unwrap();
    assert_eq!(back.quotient().changes_at, 5);
    // A period that does not hold.
    let wrong = with_line(&text, "solution", "solution 8 3");
    assert!(QuotientEngine::load_verified(&wrong, Limits::default()).is_err());
    assert!(QuotientEngine::load_text(&wrong, Limits::default()).is_err());
    // P-portion changed: the exact check refutes it (or minimality does).
    let p_line = text.lines().find(|l| l.starts_with("p ")).unwrap();
    let fewer: Vec<&str> = p_line.split(' ').take(2).collect();
    let forged = with_line(&text, "p ", &fewer.join(" "));
    assert!(QuotientEngine::load_verified(&forged, Limits::default()).is_err());
    // Without the solution line, the quotient up to the heaps learnt is checked instead.
    let plain: String = text
        .lines()
        .filter(|l| !l.starts_with("solution"))
        .map(|l| format!("{l}\n"))
        .collect();
    let back = QuotientEngine::load_verified(&plain, Limits::default()).unwrap();
    assert!(back.solution().is_none());
    // A table that is not commutative.
    let mut rows: Vec<String> = text.lines().map(String::from).collect();
    let first_row = rows.iter().position(|l| l.starts_with("row ")).unwrap();
    let mut r1: Vec<String> = rows[first_row + 1].split(' ').map(String::from).collect();
    r1.swap(2, 3);
    rows[first_row + 1] = r1.join(" ");
    let forged = rows.join("\n") + "\n";
    assert!(QuotientEngine::load_verified(&forged, Limits::default()).is_err());
}

#[test]
fn a_stopped_quotient_saves_what_it_can_reload() {
    // Heap 25 of Dawson's Kayles fails under a tiny search budget: the saved text names only
    // heaps the quotient covers, and reloads.
    let limits = Limits {
        max_search: 20_000,
        ..Limits::default()
    };
    let mut e = QuotientEngine::new("0.07", limits).unwrap();
    assert!(e.extend_to(40).is_err());
    let back = QuotientEngine::load_verified(&e.save_text(), limits).unwrap();
    assert_eq!(back.upto(), e.upto());
}

#[test]
fn the_heap_of_last_change_is_computed_from_the_table() {
    for (rule, upto) in [("0.75", 12), ("0.07", 20), ("0.[3]", 15), ("0.137", 14)] {
        let mut e = QuotientEngine::new(rule, Limits::default()).unwrap();
        e.solve_periods(false);
        e.extend_to(upto).unwrap();
        let back = QuotientEngine::load_verified(&e.save_text(), Limits::default()).unwrap();
        assert_eq!(
            back.quotient().changes_at,
            e.quotient().changes_at,
            "{rule}"
        );
    }
}
