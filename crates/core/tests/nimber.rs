//! Nim arithmetic against reference data nobody here computed, and the field laws (proptest).
//!
//! `data/nimber_products.txt` (products, inverses, Fermat squares, the 16×16 table) and the
//! finite entries of `data/nim_arithmetic.txt` (CGSuite's tests) are copies of
//! `shared/data/games/` and `shared/data/cgsuite/`.

use grundy_core::{NimWord, Nimber};
use proptest::prelude::*;

const PRODUCTS: &str = include_str!("../../../testdata/games/nimber_products.txt");
const CGSUITE: &str = include_str!("../../../testdata/cgsuite/nim_arithmetic.txt");

fn num(s: &str) -> u128 {
    s.trim()
        .parse()
        .unwrap_or_else(|_| panic!("bad number {s:?}"))
}

fn mul(a: u128, b: u128) -> u128 {
    let p = a.nim_mul(b);
    if let (Ok(a), Ok(b)) = (u64::try_from(a), u64::try_from(b)) {
        assert_eq!(
            u128::from(a.nim_mul(b)),
            p,
            "u64 and u128 disagree on {a} * {b}"
        );
    }
    p
}

#[test]
fn nimber_products_file() {
    let (mut products, mut inverses, mut squares, mut rows) = (0, 0, 0, 0);
    for line in PRODUCTS.lines().filter(|l| !l.starts_with('#')) {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words[0] {
            "inv" => {
                let (a, want) = (num(words[1]) as u64, num(words[2]) as u64);
                assert_eq!(a.nim_inv(), Some(want), "inv {a}");
                assert_eq!(u128::from(a).nim_inv(), Some(u128::from(want)));
                assert_eq!(Nimber(a) * Nimber(want), Nimber(1));
                inverses += 1;
            }
            "sq" => {
                let (a, want) = (num(words[1]), num(words[2]));
                assert_eq!(mul(a, a), want, "sq {a}");
                assert_eq!(a.nim_square(), want);
                assert_eq!(want.nim_sqrt(), a, "sqrt {want}");
                squares += 1;
            }
            "row" => {
                let a = num(words[1].trim_end_matches(':'));
                for (b, w) in words[2..].iter().enumerate() {
                    assert_eq!(mul(a, b as u128), num(w), "{a} * {b}");
                }
                rows += 1;
            }
            _ => {
                let (a, b, want) = (num(words[0]), num(words[1]), num(words[2]));
                assert_eq!(mul(a, b), want, "{a} * {b}");
                assert_eq!(mul(b, a), want);
                if want != 0 {
                    assert_eq!(Nimber(want).checked_div(Nimber(b)), Some(Nimber(a)));
                }
                products += 1;
            }
        }
    }
    assert_eq!((products, inverses, squares, rows), (20, 9, 7, 16));
}

#[test]
fn cgsuite_finite_nim_arithmetic() {
    let mut checked = 0;
    for line in CGSUITE.lines().filter(|l| l.starts_with('[')) {
        // "[11 NimProduct n for n from 1 to 16]   = 8,12,4,..."
        let (lhs, rhs) = line.split_once('=').unwrap();
        let words: Vec<&str> = lhs
            .trim_matches(|c| c == '[' || c == ']' || c == ' ')
            .split_whitespace()
            .collect();
        let want: Vec<u128> = rhs.split(',').map(num).collect();
        for (i, &w) in want.iter().enumerate() {
            let n = i as u128 + 1;
            let got = match (words[0], words[1]) {
                (c, "NimSum") => num(c) ^ n,
                (c, "NimProduct") => mul(num(c), n),
                (c, "NimDiv") => num(c).nim_mul(n.nim_inv().unwrap()),
                ("n.NimInverse", _) => n.nim_inv().unwrap(),
                (_, "UglyProduct") => continue, // not the nim product
                other => panic!("unexpected line {other:?}"),
            };
            assert_eq!(got, w, "{line}: n = {n}");
            checked += 1;
        }
    }
    assert_eq!(checked, 64);
    // "property: n NimProduct n.NimInverse == 1 for n = 1..3000"
    for n in 1..=3000u64 {
        assert_eq!(n.nim_mul(n.nim_inv().unwrap()), 1);
    }
    // Conway products of nimbers: *4·*4 = *6, *19·*23 = *86, *5·*6 = *8, *2·*5 = *10.
    assert!(CGSUITE.contains("*19 ConwayProduct *23 = *86"));
    for (a, b, c) in [(4u64, 4, 6), (19, 23, 86), (5, 6, 8), (2, 5, 10)] {
        assert_eq!(Nimber(a) * Nimber(b), Nimber(c));
    }
    assert_eq!(0u64.nim_inv(), None);
}

#[test]
fn operators_and_edge_cases() {
    let a = Nimber(21508u64);
    let b = Nimber(42689u64);
    assert_eq!(a * b, Nimber(35202));
    assert_eq!(a + b, Nimber(21508 ^ 42689));
    assert_eq!(a - b, a + b);
    assert_eq!((a * b) / b, a);
    assert_eq!(Nimber(2u64).pow(3), Nimber(2) * Nimber(2) * Nimber(2));
    // x^(2^64) = x in GF(2^64), so x^(2^64 - 1) = 1.
    assert_eq!(Nimber(12345u64).pow((1u128 << 64) - 1), Nimber(1));
    assert_eq!(Nimber(0u64).checked_div(Nimber(0)), None);
    assert_eq!(
        Nimber(u128::MAX).inv().unwrap() * Nimber(u128::MAX),
        Nimber(1)
    );
    assert_eq!(Nimber(0u128).sqrt(), Nimber(0));
    assert_eq!(format!("{}", Nimber(7u64)), "*7");
}

fn slow_pow_sqrt(x: u128) -> u128 {
    // sqrt(x) = x^(2^127) in GF(2^128): square 127 times.
    let mut r = x;
    for _ in 0..127 {
        r = r.nim_mul(r);
    }
    r
}

proptest! {
    #[test]
    fn field_laws_u64(a: u64, b: u64, c: u64) {
        let (a, b, c) = (Nimber(a), Nimber(b), Nimber(c));
        prop_assert_eq!(a * b, b * a);
        prop_assert_eq!((a * b) * c, a * (b * c));
        prop_assert_eq!(a * (b + c), a * b + a * c);
        prop_assert_eq!(a * Nimber(1), a);
        if a.0 != 0 {
            prop_assert_eq!(a * a.inv().unwrap(), Nimber(1));
            prop_assert_eq!((b * a) / a, b);
        }
        prop_assert_eq!(a.square(), a * a);
        prop_assert_eq!(a.sqrt() * a.sqrt(), a);
    }

    #[test]
    fn field_laws_u128(a: u128, b: u128, c: u128) {
        let (a, b, c) = (Nimber(a), Nimber(b), Nimber(c));
        prop_assert_eq!(a * b, b * a);
        prop_assert_eq!((a * b) * c, a * (b * c));
        prop_assert_eq!(a * (b + c), a * b + a * c);
        if a.0 != 0 {
            prop_assert_eq!(a * a.inv().unwrap(), Nimber(1));
        }
        prop_assert_eq!(a.square(), a * a);
        prop_assert_eq!(a.sqrt(), Nimber(slow_pow_sqrt(a.0)));
    }

    #[test]
    fn widths_agree(a: u32, b: u32) {
        prop_assert_eq!(u64::from(a.nim_mul(b)), u64::from(a).nim_mul(u64::from(b)));
        prop_assert_eq!(u128::from(a.nim_mul(b)), u128::from(a).nim_mul(u128::from(b)));
        if a != 0 {
            prop_assert_eq!(u64::from(a.nim_inv().unwrap()), u64::from(a).nim_inv().unwrap());
        }
    }

    /// Inverse by Fermat (x^(2^64 - 2)) agrees with the norm-based inverse.
    #[test]
    fn inverse_matches_fermat(a in 1u64..) {
        let fermat = Nimber(a).pow((1u128 << 64) - 2);
        prop_assert_eq!(Nimber(a).inv(), Some(fermat));
    }
}

#[test]
fn calculate_parses_computes_and_serializes() {
    use grundy_core::nimber::{calculate, NimberError, Op};
    let c = calculate("mul", &["21508", "42689"]).unwrap();
    assert_eq!(
        serde_json::to_value(&c).unwrap(),
        serde_json::json!({"op": "mul", "operands": ["21508", "42689"], "result": "35202"})
    );
    assert_eq!(calculate("inv", &["8"]).unwrap().result, 10);
    assert_eq!(calculate("div", &["11", "16"]).unwrap().result, 68);
    assert_eq!(calculate("add", &["11", "16"]).unwrap().result, 27);
    assert_eq!(calculate("sqrt", &["6"]).unwrap().result, 4);
    assert_eq!(calculate("pow", &["2", "3"]).unwrap().op, Op::Pow);
    let big = "18446744073709551616";
    assert_eq!(
        calculate("mul", &[big, big]).unwrap().result,
        27670116110564327424
    );
    let err = |op: &str, args: &[&str]| calculate(op, args).unwrap_err();
    assert_eq!(err("cube", &["3"]), NimberError::UnknownOp("cube".into()));
    assert_eq!(
        err("mul", &["1", "x7"]),
        NimberError::NotANumber("x7".into())
    );
    assert_eq!(err("mul", &["-4", "2"]), NimberError::Negative("-4".into()));
    let too_big = "340282366920938463463374607431768211456";
    assert_eq!(
        err("mul", &[too_big, "1"]),
        NimberError::TooLarge(too_big.into())
    );
    assert_eq!(err("div", &["5", "0"]), NimberError::NoInverse("0".into()));
    assert_eq!(
        err("mul", &["1", "2", "3"]).to_string(),
        "'mul' takes 2 values, got 3: unexpected '3'"
    );
    assert_eq!(err("inv", &[]).to_string(), "'inv' takes 1 value, got 0");
    // Control bytes in a token are escaped: the message stays one line.
    let msg = err("mul", &["1", "2\n3"]).to_string();
    assert_eq!(msg, "'2\\n3' is not a number");
    let msg = err("add\u{1b}", &["1"]).to_string();
    assert!(msg.starts_with("unknown operation 'add\\u{1b}'"), "{msg}");
}
