//! The crate's parsers on random and mutated input: `windup:N:S` codes and loopy graph text
//! (cycles, loops, tokens). Every call returns (no panic), an error is one line without
//! control characters, and an accepted input gives consistent answers (a windup code prints
//! and parses back to itself; every vertex of an accepted graph has a value whose outcome
//! matches the labelling's).
//!
//! `GRUNDY_FUZZ_CASES` sets the cases per target (default 500).

use grundy_loopy::{LoopyGraph, Windup};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

fn cases() -> u32 {
    std::env::var("GRUNDY_FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(500)
}

fn one_line(e: &str) -> Result<(), TestCaseError> {
    prop_assert!(!e.chars().any(char::is_control), "{:?}", e);
    Ok(())
}

/// Strings over a parser's alphabet plus any character.
fn text(alphabet: &'static str, max: usize) -> impl Strategy<Value = String> {
    let chars: Vec<char> = alphabet.chars().collect();
    prop::collection::vec(
        prop_oneof![
            8 => prop::sample::select(chars),
            1 => any::<char>(),
        ],
        0..max,
    )
    .prop_map(|v| v.into_iter().collect())
}

#[test]
fn fuzz_windup_codes() {
    let mut runner = TestRunner::new(Config {
        failure_persistence: None,
        ..Config::with_cases(cases())
    });
    let strategy = prop_oneof![
        text("windup:0123456789, -\n", 40),
        (1u64..200, prop::collection::vec(0u64..400, 0..6)).prop_map(|(n, s)| {
            let s: Vec<String> = s.iter().map(u64::to_string).collect();
            format!("windup:{n}:{}", s.join(","))
        }),
    ];
    runner
        .run(&strategy, |code| {
            match Windup::parse(&code) {
                Ok(w) => {
                    let again = Windup::parse(&w.code());
                    prop_assert_eq!(again.as_ref(), Ok(&w));
                    if w.n() <= 10_000 {
                        let l = w.labelled();
                        prop_assert_eq!(l.len() as u64, w.n());
                    }
                }
                Err(e) => one_line(&e.to_string())?,
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn fuzz_graph_text() {
    let mut runner = TestRunner::new(Config {
        failure_persistence: None,
        ..Config::with_cases(cases())
    });
    let strategy = (
        text("abc \n#\t", 200),
        prop::collection::vec(text("abcx", 3), 0..4),
    );
    runner
        .run(&strategy, |(graph, tokens)| {
            match LoopyGraph::parse(&graph) {
                Ok(g) => {
                    let l = g.labelled();
                    for v in 0..l.len() {
                        prop_assert_eq!(l.value(v).outcome(), l.outcome(v));
                        let _ = g.explain(g.names().name(v)).expect("own vertex");
                    }
                    if let Err(e) = g.explain_tokens(&tokens) {
                        one_line(&e.to_string())?;
                    }
                    match g.analyze(&tokens) {
                        Ok(a) => {
                            let _ = a.describe();
                            let _ = serde_json::to_string(&a).expect("serializes");
                        }
                        Err(e) => one_line(&e.to_string())?,
                    }
                }
                Err(e) => one_line(&e.to_string())?,
            }
            Ok(())
        })
        .unwrap();
}
