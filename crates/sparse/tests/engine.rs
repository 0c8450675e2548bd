//! The sparse engine against the definition and against published data.

mod common;

use common::*;
use proptest::prelude::*;

#[test]
fn grundys_game_matches_oeis_a002188() {
    let data = read_pairs(include_str!("../../../testdata/oeis/A002188.txt"));
    let n = data.last().unwrap().0;
    let g = grundy_sparse::values(&grundys_game(), n, 1).unwrap();
    for (i, v) in data {
        assert_eq!(g[i as usize], v, "G({i})");
    }
}

#[test]
fn grundys_game_matches_reference_to_3000() {
    let code = grundys_game();
    assert_eq!(
        grundy_sparse::values(&code, 3000, 2).unwrap(),
        reference(&code, 3000)
    );
}

#[test]
fn parsed_codes_match_reference() {
    for text in [
        "4!.0", "0.16", "0.167", "0.014", "0.4", "0.6", "0.26", "4?.0", "4=.0", "0.4!", "0.5?",
    ] {
        let c = code(text);
        assert_eq!(
            grundy_sparse::values(&c, 4000, 2).unwrap(),
            reference(&c, 4000),
            "{text}"
        );
    }
}

#[test]
fn octal_016_matches_reference() {
    let code = octal(&[1, 6]);
    assert_eq!(
        grundy_sparse::values(&code, 5000, 2).unwrap(),
        reference(&code, 5000)
    );
}

#[test]
fn repeating_and_three_heap_codes_are_refused() {
    let mut nim = octal(&[3]);
    nim.repeat_from = Some(1);
    assert!(grundy_sparse::Engine::new(&nim).is_err());
    assert!(grundy_sparse::Engine::new(&octal(&[8])).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn sparse_equals_reference(code in random_code(), n in 0usize..2500, threads in 1usize..3) {
        let fast = grundy_sparse::values(&code, n as u64, threads).unwrap();
        prop_assert_eq!(fast, reference(&code, n));
    }

    /// Values read in place from the engine's table (`values_at`) are the reference's.
    #[test]
    fn values_at_equals_reference(code in random_code(), n in 0usize..2500, picks in proptest::collection::vec(0usize..2500, 1..6)) {
        let at: Vec<u64> = picks.iter().map(|&h| (h % (n + 1)) as u64).collect();
        let want = reference(&code, n);
        let got = grundy_sparse::values_at(&code, n as u64, &at, 1, false, &mut |_| true).unwrap().unwrap();
        prop_assert_eq!(got, at.iter().map(|&h| want[h as usize]).collect::<Vec<_>>());
        prop_assert!(grundy_sparse::values_at(&code, n as u64, &[n as u64 + 1], 1, false, &mut |_| true).is_err());
    }

    /// Blocks, lags and row spans of any size (the tile pipeline's edge cases) change nothing.
    #[test]
    fn any_tuning_equals_reference(
        code in random_code(),
        n in 0usize..2000,
        threads in 1usize..4,
        block in 1usize..300,
        lag in proptest::option::of(0usize..200),
        span in proptest::option::of(1u32..300),
    ) {
        let Ok(engine) = grundy_sparse::Engine::new(&code) else { return Ok(()) };
        let tuning = grundy_sparse::Tuning { block, lag, span, pace: false };
        let mut e = engine.with_threads(threads).with_tuning(tuning);
        e.advance(n as u64 + 1, &mut |_| true);
        prop_assert_eq!(e.values(), reference(&code, n));
    }
}

/// Values are stored in the narrowest type that holds them: u8 while below 256, then u16, then
/// u32. Lowered switch points (a test knob) take both switches in a small run, with one and two
/// threads, and the values stay those of the reference engine.
#[test]
fn storage_widens_as_values_grow_and_values_stay_exact() {
    let c = code("0.7267"); // its values grow about as fast as n / 5
    let want = reference(&c, 3000);
    for threads in [1, 2] {
        let mut e = grundy_sparse::Engine::new(&c)
            .unwrap()
            .with_threads(threads)
            .with_tuning(grundy_sparse::Tuning {
                block: 256,
                pace: false,
                ..Default::default()
            })
            .with_storage_caps(64, 256);
        let mut widths = Vec::new();
        e.advance(3001, &mut |e| {
            widths.push(e.value_bytes());
            true
        });
        assert_eq!(e.values(), want);
        assert_eq!(widths.first(), Some(&1));
        assert!(widths.contains(&2), "{widths:?}");
        assert_eq!(widths.last(), Some(&4));
        assert!(widths.windows(2).all(|w| w[0] <= w[1]));
    }
    // With the real switch points: u8 while every value is below 256, u16 from the first heap
    // of value 256 on (the block over u8 stops before it and the u16 engine computes it).
    let mut small = grundy_sparse::Engine::new(&code("0.16")).unwrap();
    small.advance(5001, &mut |_| true);
    assert_eq!(small.value_bytes(), 1);
    let first = want.iter().position(|&v| v > 255).unwrap();
    assert_eq!(want[first], 256);
    assert!(want[..first].iter().any(|&v| v > 128));
    for threads in [1, 2] {
        for block in [64, 4096] {
            let tuning = grundy_sparse::Tuning {
                block,
                pace: false,
                ..Default::default()
            };
            let mut grown = grundy_sparse::Engine::new(&c)
                .unwrap()
                .with_threads(threads)
                .with_tuning(tuning);
            grown.advance(first as u64, &mut |_| true);
            assert_eq!(grown.value_bytes(), 1, "G(0..{first}) all fit in u8");
            grown.advance(3001, &mut |_| true);
            assert_eq!(grown.value_bytes(), 2);
            assert_eq!(grown.values(), want, "{threads} threads, blocks of {block}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// Any code, with storage switches at small values, equals the reference engine.
    #[test]
    fn early_storage_switches_equal_reference(
        code in random_code(),
        n in 0usize..2500,
        threads in 1usize..3,
        caps in prop_oneof![Just((64u32, 128u32)), Just((64, 64)), Just((128, 256))],
    ) {
        let Ok(engine) = grundy_sparse::Engine::new(&code) else { return Ok(()) };
        let tuning = grundy_sparse::Tuning { block: 512, pace: false, ..Default::default() };
        let mut e = engine.with_threads(threads).with_tuning(tuning).with_storage_caps(caps.0, caps.1);
        e.advance(n as u64 + 1, &mut |_| true);
        prop_assert_eq!(e.values(), reference(&code, n));
    }
}

/// A resume fed chunk by chunk holds the same values in the narrowest type (u8, then u16, then
/// u32 when a value no longer fits), and goes on computing exactly like an uninterrupted engine.
#[test]
fn loader_keeps_values_and_resumes_exactly() {
    let g = grundys_game();
    let full = grundy_sparse::values(&g, 5000, 1).unwrap();
    let mut loader = grundy_sparse::Loader::default();
    for chunk in full[..3000].chunks(700) {
        loader.push(chunk);
    }
    assert_eq!(loader.value_bytes(), 1);
    let mut e = loader.finish(&g, 2).unwrap();
    assert_eq!(e.value_bytes(), 1, "a resume keeps small values in bytes");
    e.advance(5001, &mut |_| true);
    assert_eq!(e.values(), full);

    // Values past u8 and then u16 (G(n) = (n - 1) / 2: within every bound the loader checks,
    // though not Grundy's game) switch the loader to u16 and u32 in the middle of a chunk.
    let big: Vec<u32> = (0..70_000u32).map(|n| n.saturating_sub(1) / 2).collect();
    let mut wide = grundy_sparse::Loader::default();
    wide.reserve(big.len() as u64);
    wide.push(&big[..300]);
    assert_eq!(wide.value_bytes(), 1);
    wide.push(&big[300..40_000]);
    assert_eq!(wide.value_bytes(), 2);
    wide.push(&big[40_000..]);
    assert_eq!(wide.value_bytes(), 4);
    let e = wide.finish(&g, 2).unwrap();
    assert_eq!(e.value_bytes(), 4);
    assert_eq!(e.values(), big);
    let mut narrow = grundy_sparse::Loader::default();
    narrow.push(&big[..40_000]);
    assert_eq!(narrow.finish(&g, 2).unwrap().values(), &big[..40_000]);

    // Values no heap can have are refused.
    let mut bad = grundy_sparse::Loader::default();
    bad.push(&[0, 0]);
    bad.push(&[40000, 1]);
    assert!(matches!(
        bad.finish(&g, 2),
        Err(grundy_sparse::Error::BadFile(_))
    ));
}

/// The mask, and with it the rare count and last rare heap a summary reports, depends only on
/// the values: not on block sizes, threads, pacing, or where a run stopped and was resumed.
#[test]
fn the_mask_depends_only_on_the_values() {
    use grundy_sparse::{Engine, Loader, Tuning};
    let summary = |e: &Engine| (e.mask(), e.rare_count(), e.last_rare());
    for (name, n) in [("0.167", 30_000u64), ("0.7267", 5_000), ("0.161", 30_000)] {
        let c = code(name);
        let mut base = Engine::new(&c).unwrap();
        base.advance(n, &mut |_| true);
        for (threads, block, pace) in [(1, 64, false), (2, 300, false), (2, 4096, true)] {
            let tuning = Tuning {
                block,
                pace,
                ..Default::default()
            };
            let mut e = Engine::new(&c)
                .unwrap()
                .with_threads(threads)
                .with_tuning(tuning);
            e.advance(n, &mut |_| true);
            assert_eq!(
                summary(&e),
                summary(&base),
                "{name}: {threads} threads, blocks of {block}"
            );
        }
        // Stopped at a length no block would end at by itself, then resumed from its values.
        let stop = n / 3 + 37;
        let mut first = Engine::new(&c).unwrap().with_threads(2);
        first.advance(stop, &mut |_| true);
        assert_eq!(first.len(), stop);
        let mut loader = Loader::default();
        loader.push(&first.values());
        let mut resumed = loader.finish(&c, first.mask()).unwrap();
        resumed.advance(n, &mut |_| true);
        assert_eq!(summary(&resumed), summary(&base), "{name}: resumed");
        assert!(
            base.stats().mask_changes > 0,
            "{name}: the mask never moved"
        );
    }
}
