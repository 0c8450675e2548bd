//! The sparse engine against the definition and against published data.

mod common;

use common::*;
use proptest::prelude::*;

#[test]
fn grundys_game_matches_oeis_a002188() {
    let data = read_pairs(include_str!("data/A002188.txt"));
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

/// A resume fed chunk by chunk holds the same values, switching to u32 storage when a value
/// no longer fits u16, and goes on computing exactly like an uninterrupted engine.
#[test]
fn loader_keeps_values_and_resumes_exactly() {
    let g = grundys_game();
    let full = grundy_sparse::values(&g, 5000, 1).unwrap();
    let mut loader = grundy_sparse::Loader::default();
    for chunk in full[..3000].chunks(700) {
        loader.push(chunk);
    }
    let mut e = loader.finish(&g, 2).unwrap();
    e.advance(5001, &mut |_| true);
    assert_eq!(e.values(), full);

    // Values past u16 (G(n) = (n - 1) / 2: within every bound the loader checks, though not
    // Grundy's game) switch the loader to u32 in the middle of a chunk.
    let big: Vec<u32> = (0..70_000u32).map(|n| n.saturating_sub(1) / 2).collect();
    let mut wide = grundy_sparse::Loader::default();
    wide.reserve(big.len() as u64);
    wide.push(&big[..40_000]);
    wide.push(&big[40_000..]);
    assert_eq!(wide.finish(&g, 2).unwrap().values(), big);

    // Values no heap can have are refused.
    let mut bad = grundy_sparse::Loader::default();
    bad.push(&[0, 0]);
    bad.push(&[40000, 1]);
    assert!(matches!(
        bad.finish(&g, 2),
        Err(grundy_sparse::Error::BadFile(_))
    ));
}
