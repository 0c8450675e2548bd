//! The periodicity proof against brute force: whenever a period is reported proven from
//! G(0..=N), the relation must keep holding far beyond N, and the reported period and
//! preperiod must be the smallest.

use grundy_heap::code::{Digit, TakeBreak};
use grundy_heap::periodicity::{self, Status};
use grundy_heap::reference;
use proptest::prelude::*;

fn code(d0: u8, masks: &[u8]) -> TakeBreak {
    let mut digits = vec![Digit {
        mask: d0,
        ..Digit::default()
    }];
    digits.extend(masks.iter().map(|&mask| Digit {
        mask,
        ..Digit::default()
    }));
    TakeBreak {
        digits,
        repeat_from: None,
    }
}

fn check(c: &TakeBreak, n: u64, far: u64) -> Result<(), TestCaseError> {
    let values = reference::sequence(c, n);
    let Some(p) = periodicity::find(&values, periodicity::code_bound(c)) else {
        return Ok(());
    };
    if p.status != Status::Proven {
        return Ok(());
    }
    let more = reference::sequence(c, far);
    let (e, per) = (p.preperiod as usize, p.period as usize);
    for i in e..=(far as usize - per) {
        prop_assert_eq!(
            more[i + per],
            more[i],
            "{:?}: period {} from {} fails at {}",
            c,
            per,
            e,
            i
        );
    }
    if e > 0 {
        prop_assert_ne!(
            more[e - 1 + per],
            more[e - 1],
            "preperiod {} not minimal",
            e
        );
    }
    for d in (1..per).filter(|d| per % d == 0) {
        let holds = (e..=(far as usize - d)).all(|i| more[i + d] == more[i]);
        prop_assert!(!holds, "{:?}: smaller period {} also holds", c, d);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn proven_octal_periods_hold_far_out(d0 in prop::sample::select(vec![0u8, 4]),
                                         masks in prop::collection::vec(0u8..8, 1..4)) {
        check(&code(d0, &masks), 1500, 5000)?;
    }

    #[test]
    fn proven_hexadecimal_periods_hold_far_out(masks in prop::collection::vec(0u8..16, 1..3)) {
        check(&code(0, &masks), 400, 900)?;
    }
}
