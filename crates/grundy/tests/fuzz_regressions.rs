//! Findings of the fuzzers (`tests/fuzz_parsers.rs`, `crates/cli/tests/fuzz_cli.rs`) in the
//! facade's own choices, kept as tests.

use grundy::heap::{self, Compute, EngineChoice, Status};

#[test]
fn a_period_search_nobody_bounded_stays_within_its_work_budget() {
    // Fuzz finding: `grundy heap 0.3F --period` ran for minutes: a code that splits a heap into
    // three is cubic for the plain engines, and the search went on towards 2^22 heaps. It now
    // stops within DEFAULT_WORK_BUDGET and says what it saw.
    let rule = heap::parse("0.3F").unwrap();
    let seq = heap::find_period(&rule, &mut Compute::new()).unwrap();
    assert!(seq.upto < heap::DEFAULT_PROOF_LIMIT, "{}", seq.upto);
    assert!(
        heap::engine::work_estimate(&rule, seq.upto) <= heap::DEFAULT_WORK_BUDGET,
        "{}",
        seq.upto
    );
    assert_eq!(seq.period.map(|p| p.status), Some(Status::Observed));
    // Rules the budget does not bind are searched as before: Kayles is proven by either engine.
    for engine in [EngineChoice::Auto, EngineChoice::Reference] {
        let k = heap::parse("kayles").unwrap();
        let seq = heap::find_period(&k, &mut Compute::new().engine(engine)).unwrap();
        let p = seq.period.unwrap();
        assert_eq!((p.period, p.preperiod, p.status), (12, 71, Status::Proven));
    }
}

#[test]
fn a_large_heap_of_a_cubic_rule_is_refused_in_time() {
    // The same search behind `--position` with a heap past the direct limit.
    let rule = heap::parse("0.3F").unwrap();
    let e = heap::analyze_position(&rule, &[200_000, 3], &mut Compute::new()).unwrap_err();
    assert!(
        e.to_string().contains("no period of 0.3F was proven"),
        "{e}"
    );
}

#[test]
fn counts_near_two_to_the_64_are_refused_not_overflowed() {
    // Fuzz finding (`fuzz_cli`): `grundy heap 8.0 --upto 2^63 --period --summary` and
    // `heap 0.1313… --upto 18446744073709551615` panicked with "attempt to add with overflow"
    // in the memory estimate (debug builds; release builds wrapped around).
    for (rule, n) in [
        ("8.0", 1u64 << 63),
        ("0.13131313", u64::MAX),
        ("kayles", u64::MAX),
    ] {
        let rule = heap::parse(rule).unwrap();
        assert!(heap::memory_estimate(&rule, n) > 1 << 40);
        let e = heap::sequence(&rule, n, &mut Compute::new()).unwrap_err();
        assert_eq!(e.to_string().lines().count(), 1, "{e}");
    }
}

#[test]
fn a_period_search_without_a_theorem_stays_within_its_work_budget() {
    // Fuzz finding (`fuzz_cli`, second seed): `grundy heap 0.1![37] --period` (an infinite code
    // whose every removal may split: cubic) looked at 10000 heaps, minutes of work.
    let rule = heap::parse("0.1![37]").unwrap();
    let seq = heap::find_period(&rule, &mut Compute::new()).unwrap();
    assert!(seq.upto < heap::DEFAULT_OBSERVE_UPTO, "{}", seq.upto);
    assert!(heap::engine::work_estimate(&rule, seq.upto) <= heap::DEFAULT_WORK_BUDGET);
}
