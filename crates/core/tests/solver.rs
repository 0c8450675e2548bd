//! The generic solver against closed forms: Nim (normal and misère, Bouton), subtraction games,
//! a 10^6-move chain (explicit stack), heterogeneous sums and cycle detection.

use grundy_core::nim::NimGame;
use grundy_core::{Game, Outcome, SideMove, Solver, Sum, SumMove, SumPos};

/// Subtract 1 or 2 from a heap: value n mod 3.
struct Sub12;

impl Game for Sub12 {
    type Position = u64;
    fn options(&self, &n: &u64, out: &mut Vec<u64>) {
        out.extend([1, 2].iter().filter(|&&s| s <= n).map(|s| n - s));
    }
}

/// A game with a cycle: 0 -> 1 -> 2 -> 0, and 3 -> 0.
struct Cyclic;

impl Game for Cyclic {
    type Position = u8;
    fn options(&self, &n: &u8, out: &mut Vec<u8>) {
        out.push(match n {
            0 => 1,
            1 => 2,
            _ => 0,
        });
    }
}

fn all_positions(max_heaps: usize, max_size: u64) -> Vec<Vec<u64>> {
    let mut all = vec![vec![]];
    let mut layer = vec![vec![]];
    for _ in 0..max_heaps {
        let mut next = Vec::new();
        for p in &layer {
            for h in 0..=max_size {
                let mut q: Vec<u64> = p.clone();
                q.push(h);
                next.push(q);
            }
        }
        all.extend(next.iter().cloned());
        layer = next;
    }
    all
}

fn xor(p: &[u64]) -> u64 {
    p.iter().fold(0, |a, &b| a ^ b)
}

/// Bouton's misère rule: the mover loses iff (all heaps <= 1 and an odd number of 1s) or
/// (some heap >= 2 and the nim-sum is 0).
fn misere_p(p: &[u64]) -> bool {
    if p.iter().all(|&h| h <= 1) {
        p.iter().filter(|&&h| h == 1).count() % 2 == 1
    } else {
        xor(p) == 0
    }
}

fn sorted(mut v: Vec<Vec<u64>>) -> Vec<Vec<u64>> {
    v.sort();
    v
}

#[test]
fn nim_up_to_4_heaps_of_7_normal_play() {
    let mut s = Solver::new(NimGame);
    for p in all_positions(4, 7) {
        let x = xor(&p);
        assert_eq!(s.grundy(&p), x, "{p:?}");
        assert_eq!(s.outcome(&p), Outcome::from_grundy(x));
        let mut expected = Vec::new();
        for (i, &h) in p.iter().enumerate() {
            if h ^ x < h {
                let mut q = p.clone();
                q[i] = h ^ x;
                expected.push(q);
            }
        }
        assert_eq!(sorted(s.winning_moves(&p)), sorted(expected), "{p:?}");
    }
}

#[test]
fn nim_up_to_4_heaps_of_7_misere_play() {
    let mut s = Solver::new(NimGame);
    for p in all_positions(4, 7) {
        let want = if misere_p(&p) { Outcome::P } else { Outcome::N };
        assert_eq!(s.misere_outcome(&p), want, "{p:?}");
        let mut expected = Vec::new();
        for (i, &h) in p.iter().enumerate() {
            for to in 0..h {
                let mut q = p.clone();
                q[i] = to;
                if misere_p(&q) {
                    expected.push(q);
                }
            }
        }
        assert_eq!(
            sorted(s.misere_winning_moves(&p)),
            sorted(expected),
            "{p:?}"
        );
    }
}

#[test]
fn misere_differs_from_normal_where_bouton_says() {
    let mut s = Solver::new(NimGame);
    assert_eq!(s.outcome(&vec![1, 1]), Outcome::P);
    assert_eq!(s.misere_outcome(&vec![1, 1]), Outcome::N);
    assert_eq!(s.misere_outcome(&vec![1]), Outcome::P);
    assert_eq!(s.misere_outcome(&vec![]), Outcome::N);
    assert_eq!(s.misere_winning_moves(&vec![1, 1, 2]), vec![vec![1, 1, 1]]);
}

#[test]
fn subtraction_game_and_homogeneous_sums() {
    let mut s = Solver::new(Sub12);
    for n in 0..300 {
        assert_eq!(s.grundy(&n), n % 3);
    }
    assert_eq!(s.sum_grundy(&[4, 5]), 1 ^ 2);
    // 4 (value 1) + 5 (value 2), total 3: move 4 to value 2 (heap 2) or 5 to value 1 (heap 4).
    let moves = s.sum_winning_moves(&[4, 5]);
    assert_eq!(
        moves,
        vec![
            SumMove {
                component: 0,
                to: 2
            },
            SumMove {
                component: 1,
                to: 4
            }
        ]
    );
    assert!(s.sum_winning_moves(&[3, 6]).is_empty());
}

#[test]
fn chain_of_a_million_moves_does_not_overflow() {
    struct Chain;
    impl Game for Chain {
        type Position = u32;
        fn options(&self, &n: &u32, out: &mut Vec<u32>) {
            if n > 0 {
                out.push(n - 1);
            }
        }
    }
    let mut s = Solver::new(Chain);
    assert_eq!(s.grundy(&1_000_000), 0);
    assert_eq!(s.grundy(&999_999), 1);
    assert_eq!(s.memo_len(), 1_000_001);
    let mut m = Solver::new(Chain);
    // Misère: 0 is N (no move), so even n are N, odd n are P.
    assert_eq!(m.misere_outcome(&1_000_000), Outcome::N);
    assert_eq!(m.misere_outcome(&999_999), Outcome::P);
}

#[test]
fn sum_of_different_games() {
    let mut s = Solver::new(Sum(NimGame, Sub12));
    // Nim heap 6 (value 6) beside subtraction heap 7 (value 1): total 7.
    let pos = SumPos::Both(vec![6], 7u64);
    assert_eq!(s.grundy(&pos), 7);
    assert_eq!(s.outcome(&pos), Outcome::N);
    let moves = s.side_winning_moves(&vec![6], &7);
    assert_eq!(moves, vec![SideMove::Left(vec![1])]);
    assert_eq!(moves[0].component(), 0);
    let whole = s.winning_moves(&pos);
    assert_eq!(whole, vec![SumPos::Both(vec![1], 7)]);
    // Nim heap 2 beside subtraction heap 5 (value 2): P.
    assert_eq!(s.grundy(&SumPos::Both(vec![2], 5)), 0);
    assert!(s.side_winning_moves(&vec![2], &5).is_empty());
    // Misère search of the sum ignores the XOR rule: Nim 1 + Sub12 1 is misère N.
    assert_eq!(s.misere_outcome(&SumPos::Both(vec![1], 1)), Outcome::N);
}

#[test]
fn cycles_are_errors_and_leave_the_memo_clean() {
    let mut s = Solver::new(Cyclic);
    assert!(s.try_grundy(&3).is_err());
    assert!(s.try_grundy(&0).is_err());
    assert!(s.try_misere_outcome(&3).is_err());
    assert_eq!(s.memo_len(), 0);
    assert_eq!(s.misere_memo_len(), 0);
}

#[test]
fn a_panic_in_the_game_leaves_the_solver_usable() {
    /// Chain n -> n-1 whose option generation panics at 5 while `armed`.
    struct Fragile(std::cell::Cell<bool>);
    impl Game for Fragile {
        type Position = u32;
        fn options(&self, &n: &u32, out: &mut Vec<u32>) {
            assert!(!(self.0.get() && n == 5), "boom");
            if n > 0 {
                out.push(n - 1);
            }
        }
    }
    let mut s = Solver::new(Fragile(std::cell::Cell::new(true)));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| s.grundy(&10)));
    assert!(r.is_err());
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| s.misere_outcome(&10)));
    assert!(r.is_err());
    s.game().0.set(false);
    assert_eq!(s.try_grundy(&10), Ok(0));
    assert_eq!(s.try_misere_outcome(&10), Ok(Outcome::N));
}

/// Kayles with explicit sums: a position is a list of rows, a move knocks down one pin or two
/// adjacent pins of one row; a list of two or more rows splits into its rows.
struct Rows {
    memoise_sums: bool,
}

impl Game for Rows {
    type Position = Vec<u64>;
    fn options(&self, p: &Vec<u64>, out: &mut Vec<Vec<u64>>) {
        for (i, &n) in p.iter().enumerate() {
            for k in 1..=2 {
                for a in 0..=n.saturating_sub(k) {
                    if a + k > n {
                        continue;
                    }
                    let mut q: Vec<u64> = p.clone();
                    q.remove(i);
                    q.extend([a, n - k - a].into_iter().filter(|&r| r > 0));
                    q.sort_unstable();
                    out.push(q);
                }
            }
        }
    }
    fn components(&self, p: &Vec<u64>, out: &mut Vec<Vec<u64>>) -> bool {
        if p.len() < 2 {
            return false;
        }
        out.extend(p.iter().map(|&n| vec![n]));
        true
    }
    fn memoise_sum(&self, p: &Vec<u64>) -> bool {
        self.memoise_sums || p.len() < 2
    }
}

/// Kayles' values (Winning Ways): period 12 from heap 71 on; these are G(0..=24).
const KAYLES: [u64; 25] = [
    0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4,
];

#[test]
fn sums_valued_on_the_spot_agree_whether_memoised_or_not() {
    for memoise_sums in [true, false] {
        let mut s = Solver::new(Rows { memoise_sums });
        for (n, &want) in KAYLES.iter().enumerate() {
            let p = if n == 0 { vec![] } else { vec![n as u64] };
            assert_eq!(
                s.grundy(&p),
                want,
                "Kayles({n}), memoise_sums {memoise_sums}"
            );
        }
        // Row 24's option 5 + 17 was valued from its rows' known values: memoised only when
        // the game says so.
        assert_eq!(s.cached(&vec![5, 17]).is_some(), memoise_sums);
        // A sum asked about directly is the XOR (and memoised, as every query's root is).
        let sum = vec![3, 9, 12];
        assert_eq!(s.grundy(&sum), KAYLES[3] ^ KAYLES[9] ^ KAYLES[12]);
        // A sum whose rows are not known yet goes through a frame and is memoised all the same.
        let fresh = vec![30, 31];
        assert_eq!(s.grundy(&fresh), s.grundy(&vec![30]) ^ s.grundy(&vec![31]));
    }
}
