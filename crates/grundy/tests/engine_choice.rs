//! The automatic engine choice: the record engine where the rare/common split pays, the
//! reference engine where it does not (0.7267: half its heaps are rare), with the same values
//! either way (checked against the reference engine) and the engine that ran reported.

use grundy::heap::{self, Compute, EngineChoice, EngineUsed, RecordOptions};

fn rule(text: &str) -> heap::Rule {
    heap::rule::parse(text).expect("rule")
}

#[test]
fn a_code_whose_rare_list_does_not_pay_runs_on_the_reference_engine() {
    let r = rule("0.7267");
    let n = heap::sparse::PAYS_AFTER + 500;
    let opts = RecordOptions {
        upto: n,
        keep_values: true,
        ..Default::default()
    };
    let rec = heap::record(&r, &opts, &mut Compute::new()).expect("record");
    assert_eq!(rec.engine, EngineUsed::Reference);
    assert!(rec
        .note
        .as_deref()
        .is_some_and(|t| t.contains("does not pay")));
    assert!(rec.describe(&r, false).contains("engine: reference"));
    let code = heap::rule::parse_code("0.7267").expect("code");
    assert_eq!(
        rec.values.as_deref(),
        Some(&heap::reference::sequence(&code, n)[..])
    );

    let seq = heap::sequence(&r, n, &mut Compute::new()).expect("sequence");
    assert_eq!(seq.engine, EngineUsed::Reference);
    // Asked for by name, the record engine still runs it, and agrees.
    let mut sparse = Compute::new().engine(EngineChoice::Sparse);
    let forced = heap::sequence(&r, n, &mut sparse).expect("sequence");
    assert_eq!(forced.engine, EngineUsed::Sparse);
    assert_eq!(forced.values, seq.values);
}

#[test]
fn a_code_with_few_rare_heaps_runs_on_the_record_engine() {
    let r = rule("0.16");
    let opts = RecordOptions {
        upto: 40_000,
        ..Default::default()
    };
    let rec = heap::record(&r, &opts, &mut Compute::new().threads(1)).expect("record");
    assert_eq!(rec.engine, EngineUsed::Sparse);
    assert_eq!(rec.threads, 1);
    assert!(rec.note.is_none());
    let text = rec.describe(&r, true);
    assert!(
        text.contains("engine: the record engine (rare/common), 1 thread"),
        "{text}"
    );
    let seq = heap::sequence(&r, 40_000, &mut Compute::new()).expect("sequence");
    assert_eq!(seq.engine, EngineUsed::Sparse);
}

/// A summary-only run from `heap::PACK_FROM` heaps on keeps its dropped values packed in memory:
/// the same record (histogram, rare heaps, largest value, proven period) as a run that keeps
/// every value, whose values the summary is also checked against.
#[test]
fn a_long_summary_run_packs_its_values_and_summarises_the_same() {
    let r = rule("0.16");
    let upto = heap::PACK_FROM;
    let summary = RecordOptions {
        upto,
        ..Default::default()
    };
    let packed = heap::record(&r, &summary, &mut Compute::new()).expect("record");
    let kept = RecordOptions {
        keep_values: true,
        ..summary.clone()
    };
    let mut full = heap::record(&r, &kept, &mut Compute::new()).expect("record");
    let values = full.values.take().expect("values kept");
    assert_eq!(packed.histogram, full.histogram);
    assert_eq!(packed.period, full.period);
    assert_eq!(packed.rare_count, full.rare_count);
    assert_eq!(packed.last_rare, full.last_rare);
    assert_eq!(
        (packed.max_value, packed.max_first),
        (full.max_value, full.max_first)
    );
    // The same text but for the engine line: how many threads a run used depends on whether
    // helpers paid on this machine at that moment, not on packing.
    let text = |d: String| -> String {
        d.lines()
            .filter(|l| !l.starts_with("engine:"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(
        text(packed.describe(&r, true)),
        text(full.describe(&r, true))
    );
    let period = packed
        .period
        .flatten()
        .expect("0.16's period is proven by 2^20");
    // Period 149459, the last exception at heap 105350 (published).
    assert_eq!((period.period, period.preperiod), (149459, 105351));
    let mut histogram = vec![0u64; full.histogram.len()];
    for v in values {
        histogram[v as usize] += 1;
    }
    assert_eq!(packed.histogram, histogram);
}
