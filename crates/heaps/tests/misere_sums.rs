//! Misère sums answered from the quotient against the search over whole positions (the
//! yardstick, `EngineChoice::Reference`), sums far past what a search can reach, and the
//! quotient directory: a file is used only after it is proven again.

use std::collections::BTreeSet;

use grundy_core::{Budget, Outcome};
use grundy_heaps::{quotients, Compute, EngineChoice, MiserePosition, DEFAULT_MISERE_BUDGET};
use proptest::prelude::*;

fn rule(text: &str) -> grundy_heap::Rule {
    grundy_heap::parse(text).unwrap()
}

fn misere(r: &str, heaps: &[u64], c: &Compute<'_>) -> MiserePosition {
    grundy_heaps::analyze_position_misere(&rule(r), heaps, &DEFAULT_MISERE_BUDGET, c).unwrap()
}

/// The positions the winning moves leave, as typed back (`to.text`).
fn tos(p: &MiserePosition) -> BTreeSet<String> {
    p.winning_moves.iter().map(|m| m.to.text.clone()).collect()
}

/// A directory of its own for each test.
fn dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("grundy-heaps-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]
    #[test]
    fn the_quotient_answers_as_the_search_does(
        r in prop::sample::select(vec!["kayles", "0.75", "sub:1,3,4", "0.07", "0.137", "dawsons-kayles", "4!.0", "0.31"]),
        heaps in prop::collection::vec(0u64..=9, 1..5),
    ) {
        let fast = misere(r, &heaps, &Compute::default());
        let slow = misere(r, &heaps, &Compute::new().engine(EngineChoice::Reference));
        prop_assert_eq!(slow.method, "search");
        prop_assert_eq!(fast.outcome, slow.outcome, "{} {:?}", r, heaps);
        prop_assert_eq!(tos(&fast), tos(&slow), "{} {:?}", r, heaps);
        prop_assert!(fast.unlisted_heaps.is_empty());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// The value alone (a front end's `--moves value`) is the full answer's outcome, with no
    /// move looked at, by the quotient and by the search.
    #[test]
    fn the_outcome_alone_is_the_full_answers(
        r in prop::sample::select(vec!["kayles", "0.75", "sub:1,3,4", "0.07", "4!.0"]),
        heaps in prop::collection::vec(0u64..=9, 1..5),
        reference in any::<bool>(),
    ) {
        let c = if reference { Compute::new().engine(EngineChoice::Reference) } else { Compute::default() };
        let full = misere(r, &heaps, &c);
        let value =
            grundy_heaps::analyze_position_misere_value(&rule(r), &heaps, &DEFAULT_MISERE_BUDGET, &c)
                .unwrap();
        prop_assert_eq!(value.outcome, full.outcome, "{} {:?}", r, heaps);
        prop_assert_eq!(value.method, full.method);
        prop_assert!(value.winning_moves.is_empty() && value.unlisted_heaps.is_empty());
        // The search from the root alone opens no more positions than the search that then
        // asks each option.
        prop_assert!(value.positions_searched <= full.positions_searched);
    }

    /// Under normal play too: the heaps' values and their XOR as the full answer has them.
    #[test]
    fn the_value_alone_is_the_full_answers(
        r in prop::sample::select(vec!["kayles", "0.137", "sub:1,3,4", "4!.0", "0.31"]),
        heaps in prop::collection::vec(0u64..=300, 1..6),
    ) {
        let full = grundy_heaps::analyze_position(&rule(r), &heaps, &mut Compute::default()).unwrap();
        let value =
            grundy_heaps::analyze_position_value(&rule(r), &heaps, &mut Compute::default()).unwrap();
        prop_assert_eq!(&value.analysis.heap_values, &full.analysis.heap_values);
        prop_assert_eq!(value.analysis.grundy, full.analysis.grundy);
        prop_assert_eq!(value.analysis.outcome, full.analysis.outcome);
        prop_assert!(value.analysis.winning_moves.is_empty());
    }
}

#[test]
fn kayles_answers_any_heap_from_its_proven_quotient() {
    let c = Compute::new().quotient_cache(dir("kayles"));
    let p = misere("0.77", &[65, 10], &c);
    assert_eq!((p.method, p.quotient_order), ("quotient", Some(40)));
    // A heap of 10^12: Φ is periodic (period 12 from heap 71), proven by the exact check.
    let big = misere("kayles", &[1_000_000_000_000, 65, 10], &c);
    let period = big.quotient_period.expect("proven for every heap");
    assert_eq!((period.preperiod, period.period), (71, 12));
    // The big heap pretends to be the heap of its class: the same outcome as 71 + 10^12 mod 12.
    let same = 71 + (1_000_000_000_000u64 - 71) % 12;
    assert_eq!(misere("kayles", &[same, 65, 10], &c).outcome, big.outcome);
    // Its moves are not walked (about 10^12 of them); it has winning ones, named.
    assert_eq!(big.outcome, Outcome::N);
    assert!(big.unlisted_heaps.contains(&0), "{:?}", big.unlisted_heaps);
    assert!(big
        .describe(&rule("kayles"))
        .contains("proven for every heap"));
}

#[test]
fn ten_thousand_heaps_are_a_product() {
    let c = Compute::new().quotient_cache(dir("many"));
    let heaps: Vec<u64> = (0..10_000u64).map(|i| 1 + (i * 7919) % 100).collect();
    let t = std::time::Instant::now();
    let p = misere("kayles", &heaps, &c);
    assert_eq!(p.method, "quotient");
    // The moves listed are bounded: their positions hold at most 2^20 heap sizes together.
    let listed: usize = p.winning_moves.len() * (heaps.len() + 4);
    assert!(listed <= 1 << 20, "{listed}");
    // Each listed move leaves a misère P-position, checked in the quotient again.
    for m in p.winning_moves.iter().take(5) {
        let after: Vec<u64> = m.to.text.split(' ').map(|t| t.parse().unwrap()).collect();
        assert_eq!(
            misere("kayles", &after, &c).outcome,
            Outcome::P,
            "{}",
            m.text
        );
    }
    if p.outcome == Outcome::N {
        assert!(!p.winning_moves.is_empty() || !p.unlisted_heaps.is_empty());
    }
    // A generous bound against a hang, not a timing: the whole answer is a product.
    assert!(t.elapsed().as_secs() < 120);
}

#[test]
fn the_search_is_the_yardstick_and_keeps_its_budget() {
    let c = Compute::new().engine(EngineChoice::Reference);
    let e = grundy_heaps::analyze_position_misere(
        &rule("kayles"),
        &[70, 71, 72, 73],
        &Budget::positions(1000),
        &c,
    )
    .unwrap_err();
    assert!(matches!(e, grundy_heaps::Error::Limit(_)), "{e}");
    // A rule without a quotient here (a named game counted with a shift) is searched.
    let shifted = misere("treblecross", &[3, 4], &Compute::default());
    assert_eq!(shifted.method, "search");
}

#[test]
fn a_stop_flag_ends_the_quotient_too() {
    let stop = std::sync::atomic::AtomicBool::new(true);
    let c = Compute::new().stop_when(&stop);
    let e =
        grundy_heaps::analyze_position_misere(&rule("0.07"), &[20, 21], &DEFAULT_MISERE_BUDGET, &c)
            .unwrap_err();
    assert!(matches!(e, grundy_heaps::Error::Stopped { .. }), "{e}");
}

#[test]
fn a_corrupt_file_is_rebuilt_and_a_stale_one_refused() {
    let d = dir("files");
    let r = rule("0.75");
    let c = Compute::new().quotient_cache(d.clone());
    let first = misere("0.75", &[30, 4], &c);
    let path = quotients::cache_path(&d, &r);
    let good = std::fs::read_to_string(&path).unwrap();
    assert!(good.starts_with(quotients::FORMAT));
    assert!(quotients::read(&d, &r).is_ok());

    // A flipped byte in the body: the checksum refuses it; the next call rebuilds the file.
    let corrupt = good.replacen("order 8", "order 9", 1);
    std::fs::write(&path, &corrupt).unwrap();
    let why = quotients::read(&d, &r).err().unwrap();
    assert!(why.starts_with("corrupt"), "{why}");
    quotients::clear_memory();
    let again = misere("0.75", &[30, 4], &c);
    assert_eq!((again.outcome, tos(&again)), (first.outcome, tos(&first)));
    assert!(quotients::read(&d, &r).is_ok(), "rebuilt");

    // Another format version: stale, refused even with a valid checksum.
    let stale = good.replacen(quotients::FORMAT, "grundy-quotient-cache 0", 1);
    std::fs::write(&path, &stale).unwrap();
    let why = quotients::read(&d, &r).err().unwrap();
    assert!(why.starts_with("stale"), "{why}");

    // Another rule's file under this rule's name: foreign.
    let other = rule("sub:1,3,4");
    misere("sub:1,3,4", &[5], &c);
    let theirs = std::fs::read_to_string(quotients::cache_path(&d, &other)).unwrap();
    std::fs::write(&path, &theirs).unwrap();
    let why = quotients::read(&d, &r).err().unwrap();
    assert!(why.starts_with("foreign"), "{why}");

    // A forged quotient with a valid checksum: proven again, refused.
    let payload_start = good.find("rule ").unwrap();
    let payload = &good[payload_start..];
    let p_line = payload.lines().find(|l| l.starts_with("p ")).unwrap();
    let forged_payload = payload.replacen(p_line, "p 1", 1);
    let forged = format!(
        "{}\ncrc32 {:08x}\n{forged_payload}",
        quotients::FORMAT,
        crc32fast_hash(forged_payload.as_bytes())
    );
    std::fs::write(&path, &forged).unwrap();
    let why = quotients::read(&d, &r).err().unwrap();
    assert!(why.starts_with("invalid"), "{why}");
    quotients::clear_memory();
    let rebuilt = misere("0.75", &[30, 4], &c);
    assert_eq!(rebuilt.outcome, first.outcome);
    assert!(quotients::read(&d, &r).is_ok());
    let _ = std::fs::remove_dir_all(&d);
}

/// The CRC-32 (IEEE) the quotient files carry, written out here so that the test does not
/// share the crate's code for it.
fn crc32fast_hash(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}
