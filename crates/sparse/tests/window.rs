//! The memory window gives exactly the values, histogram and summary of a full-memory run.

mod common;

use common::{code, grundys_game, random_code};
use grundy_heap::TakeBreak;
use grundy_sparse::{Engine, RunOptions, Store};
use proptest::prelude::*;
use std::time::Duration;

/// Runs `code` to G(0..=n) with a window of `depth` (None: automatic) whose gap source is the
/// full sequence, checking every value as soon as it is computed (then letting the window drop
/// it). Returns the engine at the end.
fn windowed(code: &TakeBreak, full: &[u32], depth: Option<u64>, threads: usize) -> Engine {
    let source = full.to_vec();
    let mut e = Engine::new(code)
        .unwrap()
        .with_threads(threads)
        // Helpers in every block: the threaded pipeline with the window, whatever it costs.
        .with_tuning(grundy_sparse::Tuning {
            pace: false,
            ..Default::default()
        })
        .with_window(Box::new(move |i| source[i as usize]), depth);
    let mut checked = 0u64;
    e.advance(full.len() as u64, &mut |e| {
        let got = e.values_range(checked, e.len());
        assert_eq!(
            got,
            &full[checked as usize..e.len() as usize],
            "from heap {checked}"
        );
        checked = e.len();
        e.set_durable(checked);
        true
    });
    assert_eq!(checked, full.len() as u64);
    e
}

fn same_summary(a: &Engine, b: &Engine) {
    assert_eq!(a.len(), b.len());
    assert_eq!(a.histogram(), b.histogram());
    assert_eq!(a.rare_count(), b.rare_count());
    assert_eq!(a.last_rare(), b.last_rare());
    assert_eq!(a.mask(), b.mask());
    assert_eq!(a.max_value(), b.max_value());
}

fn full_engine(code: &TakeBreak, len: u64) -> Engine {
    let mut e = Engine::new(code).unwrap();
    e.advance(len, &mut |_| true);
    e
}

#[test]
fn grundys_game_to_2_18_windowed_equals_full() {
    let g = grundys_game();
    let full = full_engine(&g, 1 << 18);
    let values = full.values();
    for depth in [None, Some(3000)] {
        let w = windowed(&g, &values, depth, 2);
        same_summary(&w, &full);
        assert!(w.values_in_memory() < 1 << 18, "{depth:?}: nothing dropped");
        if depth.is_some() {
            assert!(w.gap_fetches() > 0, "tiny window: gaps expected");
        }
        assert_eq!(w.stats().gap_fetches, w.gap_fetches());
    }
}

/// 0.167's values stay below 64, so its rows are bits and phase 1 prescans its first splits:
/// with two threads those lie past the lag, where a tiny window may have dropped them.
#[test]
fn octal_0167_tiny_window() {
    let c = code("0.167");
    let full = full_engine(&c, 50_000);
    for threads in [1, 2] {
        let w = windowed(&c, &full.values(), Some(100), threads);
        same_summary(&w, &full);
        assert!(w.gap_fetches() > 0);
    }
}

/// The window's drop-and-reload path across both storage switches (lowered by the test knob,
/// so that a small run takes them): the same summary as the full engine, values checked as they
/// are computed, and dropped values fetched back.
#[test]
fn window_across_storage_switches_equals_full() {
    let c = code("0.7267");
    let full = full_engine(&c, 4000);
    let values = full.values();
    for threads in [1, 2] {
        let source = values.clone();
        let mut w = Engine::new(&c)
            .unwrap()
            .with_threads(threads)
            .with_tuning(grundy_sparse::Tuning {
                block: 300,
                pace: false,
                ..Default::default()
            })
            .with_storage_caps(64, 256)
            .with_window(Box::new(move |i| source[i as usize]), Some(200));
        let mut checked = 0u64;
        w.advance(values.len() as u64, &mut |e| {
            assert_eq!(
                e.values_range(checked, e.len()),
                &values[checked as usize..e.len() as usize]
            );
            checked = e.len();
            e.set_durable(checked);
            true
        });
        same_summary(&w, &full);
        assert_eq!(w.value_bytes(), 4);
        assert!(w.gap_fetches() > 0);
        assert!(w.values_in_memory() < values.len() as u64);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn window_equals_full(
        code in random_code(),
        n in 1u64..3000,
        depth in 1u64..300,
        threads in 1usize..3,
    ) {
        let Ok(_) = Engine::new(&code) else { return Ok(()) };
        let full = full_engine(&code, n);
        let w = windowed(&code, &full.values(), Some(depth), threads);
        same_summary(&w, &full);
    }
}

fn opts(upto: u64, dir: &std::path::Path, window: bool, depth: Option<u64>) -> RunOptions {
    RunOptions {
        upto,
        threads: 2,
        checkpoint: Some(dir.to_path_buf()),
        checkpoint_every: Duration::from_secs(3600),
        save: None,
        find_period: true,
        window,
        window_depth: depth,
    }
}

/// A checkpoint past the first chunk (so the window may drop values), resumed windowed, gives
/// exactly the summary of an uninterrupted full-memory run.
#[test]
fn resume_from_checkpoint_windowed() {
    let g = grundys_game();
    let upto = grundy_sparse::CHUNK + (1 << 19);
    let tmp = std::env::temp_dir().join(format!("grundy-window-{}", std::process::id()));
    let (full_dir, ck_dir) = (tmp.join("full"), tmp.join("ck"));
    let _ = std::fs::remove_dir_all(&tmp);
    let full = grundy_sparse::run(&g, &opts(upto, &full_dir, false, None), &mut |_| true).unwrap();
    // The interrupted run: its checkpoint holds chunk 0 and a tail.
    let stop = grundy_sparse::CHUNK + 12_345;
    let part = full_engine(&g, stop);
    let mut store = Store::open(&ck_dir, &g, upto).unwrap();
    store
        .write(stop, part.mask(), &|a, b| part.values_range(a, b))
        .unwrap();
    drop(part);
    let out = grundy_sparse::run(&g, &opts(upto, &ck_dir, true, None), &mut |_| true).unwrap();
    assert_eq!(out.resumed_at, stop);
    assert!(out.engine.is_windowed());
    assert!(out.engine.values_in_memory() < upto / 2);
    assert!(out.gap_fetches > 0);
    assert_eq!(out.summary, full.summary);
    // The checkpoint now holds the whole sequence, like the full run's.
    let a = Store::open(&ck_dir, &g, upto)
        .unwrap()
        .load()
        .unwrap()
        .unwrap()
        .1;
    let b = Store::open(&full_dir, &g, upto)
        .unwrap()
        .load()
        .unwrap()
        .unwrap()
        .1;
    assert!(a == b);
    let _ = std::fs::remove_dir_all(&tmp);
}

/// A chunk damaged after it was written ends a windowed run with an error naming it when the
/// window needs a value back from it: no panic, and nothing computed after is written.
#[test]
fn unreadable_chunk_is_an_error() {
    let c = code("0.16");
    let upto = grundy_sparse::CHUNK + (1 << 16);
    let dir = std::env::temp_dir().join(format!("grundy-window-bad-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let chunk0 = dir.join("chunk-00000000.bin");
    let mut damaged = false;
    let out = grundy_sparse::run(&c, &opts(upto, &dir, true, Some(3000)), &mut |_| {
        if !damaged && chunk0.exists() {
            std::fs::write(&chunk0, b"not a chunk").unwrap();
            damaged = true;
        }
        true
    });
    assert!(damaged, "chunk 0 was never written");
    let err = out.err().expect("the run must fail");
    assert!(
        err.to_string().contains("cannot read back heap"),
        "unexpected error: {err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A windowed resume holds only the first heaps and the last ones (from the last whole chunk,
/// here of 2^15 heaps, and at least 2^16), not every stored value; its window fetches the rest
/// when needed and the run goes on exactly as an uninterrupted one, with one thread or two.
#[test]
fn windowed_resume_holds_a_part_and_goes_on_exactly() {
    for (code, stored, len) in [
        (grundys_game(), 200_000u64, 1u64 << 18),
        (code("0.167"), 150_000, 200_000),
        (code("0.034"), 140_000, 160_000), // past the u8 -> u16 switch
    ] {
        let full = full_engine(&code, len);
        let values = full.values();
        let at = full_engine(&code, stored);
        let mut loader =
            grundy_sparse::Loader::windowed(&code, at.mask(), stored, 1 << 15).unwrap();
        for part in values[..stored as usize].chunks(1 << 15) {
            loader.push(part);
        }
        let held = loader.held();
        assert!(held <= 3 << 16 && held < stored, "held {held} of {stored}");
        for threads in [1, 2] {
            let mut loader =
                grundy_sparse::Loader::windowed(&code, at.mask(), stored, 1 << 15).unwrap();
            for part in values[..stored as usize].chunks(1 << 15) {
                loader.push(part);
            }
            let source = values.clone();
            let mut e = loader
                .finish(&code, at.mask())
                .unwrap()
                .with_threads(threads)
                .with_window(Box::new(move |i| source[i as usize]), None);
            assert_eq!(e.len(), stored);
            assert_eq!(e.values_in_memory(), held);
            same_summary(&e, &at);
            e.set_durable(stored);
            let mut checked = stored;
            e.advance(len, &mut |e| {
                let got = e.values_range(checked, e.len());
                assert_eq!(got, &values[checked as usize..e.len() as usize]);
                checked = e.len();
                e.set_durable(checked);
                true
            });
            assert_eq!(checked, len);
            same_summary(&e, &full);
        }
    }
    // Values no heap can have are refused by a windowed loader too.
    let g = grundys_game();
    let mut bad = grundy_sparse::Loader::windowed(&g, 2, 1 << 20, 1 << 15).unwrap();
    bad.push(&vec![0; 70_000]);
    bad.push(&[1_000_000]);
    assert!(matches!(
        bad.finish(&g, 2),
        Err(grundy_sparse::Error::BadFile(_))
    ));
}

/// A run without a directory, windowed: once values take two bytes, its dropped values live
/// packed in memory.
fn packed_opts(upto: u64, depth: Option<u64>, threads: usize) -> RunOptions {
    RunOptions {
        upto,
        threads,
        checkpoint: None,
        checkpoint_every: Duration::from_secs(3600),
        save: None,
        find_period: true,
        window: true,
        window_depth: depth,
    }
}

/// A windowed run without a directory of games whose values stay below 256, 0.16 (period 149459,
/// proven) and Dawson's Kayles (period 34): the engine keeps every value (packing would not pay)
/// and the summary, period included, is the full run's.
#[test]
fn a_window_without_a_directory_keeps_one_byte_values() {
    for (c, upto) in [("0.16", 1 << 20), ("0.07", 20_000)] {
        let c = code(c);
        let plain = grundy_sparse::run(&c, &packed_opts(upto, None, 1), &mut |_| true);
        let mut o = packed_opts(upto, None, 1);
        o.window = false;
        let full = grundy_sparse::run(&c, &o, &mut |_| true).unwrap();
        let packed = plain.unwrap();
        assert_eq!(packed.summary, full.summary);
        let tiny = grundy_sparse::run(&c, &packed_opts(upto, Some(64), 2), &mut |_| true).unwrap();
        assert_eq!(tiny.summary, full.summary);
        assert!(tiny.summary.period.is_some());
        // Values below 256 stay one byte a value in the engine: nothing is packed or dropped.
        assert_eq!(tiny.engine.values_in_memory(), upto + 1);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]
    /// Random codes, sizes, window depths and threads: a run whose window keeps its dropped
    /// values packed in memory gives exactly the summary (histogram, rare heaps, mask, largest
    /// value, period) of a run with every value in the engine.
    #[test]
    fn packed_window_equals_full(
        code in random_code(),
        n in 1u64..20_000,
        depth in 1u64..500,
        threads in 1usize..3,
    ) {
        let Ok(_) = Engine::new(&code) else { return Ok(()) };
        let mut o = packed_opts(n, Some(depth), threads);
        let packed = grundy_sparse::run(&code, &o, &mut |_| true).unwrap();
        o.window = false;
        let full = grundy_sparse::run(&code, &o, &mut |_| true).unwrap();
        prop_assert_eq!(&packed.summary, &full.summary);
    }

    /// The same on codes whose values pass 255 early, so that the engine takes two bytes a
    /// value and the run packs: the window then drops values (fewer in memory than computed)
    /// and reads them back from the packed copy.
    #[test]
    fn packed_window_after_widening_equals_full(
        which in 0usize..5,
        extra in 0u64..6000,
        depth in 1u64..500,
        threads in 1usize..3,
    ) {
        // Each code from a size a whole block past the block in which a value first passes 255
        // (0.7267: heap 916, 4.66: 2861, 0.1142: 10092, 0.014: 11058, 0.172: 13458; blocks
        // end every 4096 heaps): packing begins at the end of that block and the window drops
        // values at the end of the next.
        let (c, from) = [("0.7267", 2100), ("4.66", 8200), ("0.1142", 16_400), ("0.014", 16_400), ("0.172", 20_500)][which];
        let (c, n) = (code(c), from + extra);
        let mut o = packed_opts(n, Some(depth), threads);
        let packed = grundy_sparse::run(&c, &o, &mut |_| true).unwrap();
        o.window = false;
        let full = grundy_sparse::run(&c, &o, &mut |_| true).unwrap();
        prop_assert_eq!(&packed.summary, &full.summary);
        prop_assert_eq!(packed.engine.value_bytes(), 2);
        prop_assert!(packed.engine.values_in_memory() < n);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// The packed window on its own, with the storage widened early (at 64) so that random codes
    /// pack, small blocks and a tiny fixed depth, past the 8192 heaps a confirming scan may
    /// reach back (so the window also takes values back from the copy and cuts it): every value
    /// and the summary, period included, are the full engine's.
    #[test]
    fn packed_window_equals_full_engine(
        code in random_code(),
        n in 9000u64..16_000,
        depth in 1u64..300,
        block in 100usize..600,
        threads in 1usize..3,
    ) {
        let Ok(_) = Engine::new(&code) else { return Ok(()) };
        let full = full_engine(&code, n);
        let mut w = Engine::new(&code)
            .unwrap()
            .with_threads(threads)
            .with_tuning(grundy_sparse::Tuning {
                block,
                pace: false,
                ..Default::default()
            })
            .with_storage_caps(64, 256)
            .with_packed_window(Some(depth));
        w.advance(n, &mut |_| true);
        same_summary(&w, &full);
        for i in 0..n {
            prop_assert_eq!(w.value(i), full.value(i), "heap {}", i);
        }
        prop_assert_eq!(
            grundy_sparse::summarize(&code, &w, true),
            grundy_sparse::summarize(&code, &full, true)
        );
    }
}
