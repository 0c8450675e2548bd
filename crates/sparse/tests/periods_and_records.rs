//! Published facts that take a long computation: 0.16's period (Gangolli–Plambeck) and
//! Flammenkamp's rare-value count for Grundy's game.

mod common;

use grundy_heap::periodicity::Status;

#[test]
fn octal_016_period_149459_is_proven() {
    let code = common::code("0.16");
    let (values, p) =
        grundy_sparse::until_proven(&code, 1 << 16, 1 << 21, 0, &mut |_| true).unwrap();
    let p = p.expect("a period");
    assert_eq!((p.period, p.status), (149459, Status::Proven));
    // The last exception is at heap 105350: the preperiod starts right after it.
    assert_eq!(p.preperiod, 105351);
    assert_ne!(values[105350], values[105350 + 149459]);
}

#[test]
fn grundys_game_rare_heaps_to_2_20() {
    // Under Flammenkamp's mask (v rare iff popcount(v >> 1) is even): 1274 rare heaps in
    // 0..=2^20 (heap 0 counted, as in the published 1287 for 2^26), the last at 82860.
    let values = grundy_sparse::values(&common::grundys_game(), 1 << 20, 0).unwrap();
    let rare: Vec<usize> = (0..values.len())
        .filter(|&h| (values[h] >> 1).count_ones().is_multiple_of(2))
        .collect();
    assert_eq!(rare.len(), 1274);
    assert_eq!(rare.last(), Some(&82860));
}

/// Slow (minutes): `cargo test --release -p grundy-sparse --test periods_and_records -- --ignored`
#[test]
#[ignore]
fn grundys_game_rare_heaps_to_2_26() {
    let values = grundy_sparse::values(&common::grundys_game(), 1 << 26, 0).unwrap();
    let rare: Vec<usize> = (0..values.len())
        .filter(|&h| (values[h] >> 1).count_ones().is_multiple_of(2))
        .collect();
    assert_eq!(rare.len(), 1287);
    assert_eq!(rare.last(), Some(&48399022));
}
