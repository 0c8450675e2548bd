//! The report functions (`grundy_penney::report`): the published tables, brute force over
//! every candidate, the independent dense Markov chain, and the exact JSON `grundy penney`
//! printed before the reports existed.

use dashu::integer::{IBig, UBig};
use dashu::rational::RBig;
use grundy_penney::game::{prob_second_wins, ReplySearch};
use grundy_penney::report::{self, Fraction, Method, RaceOptions, SimulationRequest};
use grundy_penney::{chain, correlation, Alphabet, Race};
use proptest::prelude::*;
use serde_json::Value;

fn data_lines(text: &str) -> impl Iterator<Item = Vec<&str>> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_whitespace().collect())
}

fn none() -> impl FnMut(u64) {
    |_| {}
}

fn sum(xs: impl IntoIterator<Item = RBig>) -> RBig {
    xs.into_iter().fold(RBig::ZERO, |a, x| a + x)
}

fn half() -> RBig {
    RBig::from_parts(IBig::ONE, UBig::from(2u8))
}

#[test]
fn race_report_reproduces_penney3() {
    let coin = Alphabet::coin();
    let mut rows = 0;
    for f in data_lines(include_str!("../../../testdata/penney/penney3.txt")) {
        let r = report::race(
            coin.clone(),
            &[f[0], f[1]],
            &RaceOptions::default(),
            &mut none(),
        )
        .unwrap();
        assert_eq!(r.patterns[1].win.to_string(), f[2], "{} {}", f[0], f[1]);
        assert_eq!(r.expected_tosses.to_string(), f[4], "{} {}", f[0], f[1]);
        assert_eq!(
            r.methods_agreeing,
            [
                Method::CorrelationSystem,
                Method::MarkovChain,
                Method::Conway
            ]
        );
        assert_eq!(sum(r.patterns.iter().map(|p| p.win.0.clone())), RBig::ONE);
        let c = r.conway.as_ref().unwrap();
        assert_eq!(c.odds_b_to_a.to_string(), f[3]);
        assert_eq!(c.prob_b_first, r.patterns[1].win);
        let bits = &c.leading_numbers;
        assert_eq!(
            [&bits.aa, &bits.ab, &bits.bb, &bits.ba],
            [f[5], f[6], f[7], f[8]]
        );
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(v["patterns"][1]["win"], f[2]);
        assert_eq!(v["conway"]["odds_b_to_a"], f[3]);
        assert_eq!(v["conway"]["leading_numbers"]["BA"], f[8]);
        assert_eq!(v["expected_tosses"], f[4]);
        rows += 1;
    }
    assert_eq!(rows, 56);
}

#[test]
fn race_report_reproduces_binary_waiting_times() {
    let coin = Alphabet::coin();
    for f in data_lines(include_str!(
        "../../../testdata/penney/waiting_times_binary.txt"
    )) {
        let r = report::race(coin.clone(), &[f[0]], &RaceOptions::default(), &mut none()).unwrap();
        assert_eq!(r.expected_tosses.to_string(), f[1], "{}", f[0]);
        assert_eq!(r.patterns[0].waiting_time.to_string(), f[1]);
        assert_eq!(r.patterns[0].win.0, RBig::ONE);
        let w = coin.encode(f[0]).unwrap();
        assert_eq!(
            r.variance,
            Some(Fraction(correlation::waiting_time_variance(&coin, &w)))
        );
        assert!(r.conway.is_none());
    }
}

/// The JSON of `grundy penney … --json` as the command printed it before this module existed.
#[test]
fn json_is_unchanged() {
    let coin = Alphabet::coin();
    let r = report::race(
        coin.clone(),
        &["HHH", "THH"],
        &RaceOptions::default(),
        &mut none(),
    )
    .unwrap();
    let old: Value = serde_json::from_str(r#"{"alphabet":"HT","chain_states":5,"conway":{"a":"HHH","b":"THH","leading_numbers":{"AA":"111","AB":"000","BA":"011","BB":"100"},"odds_b_to_a":"7:1","prob_b_first":"7/8","weighted":{"AA":"14","AB":"0","BA":"6","BB":"8"}},"expected_tosses":"7","expected_tosses_decimal":7.0,"letter_probabilities":{"H":"1/2","T":"1/2"},"methods_agreeing":["correlation system","Markov chain","Conway"],"patterns":[{"can_win":true,"contains":null,"expected_given_win":"3","pattern":"HHH","waiting_time":"14","win":"1/8","win_decimal":0.125},{"can_win":true,"contains":null,"expected_given_win":"53/7","pattern":"THH","waiting_time":"8","win":"7/8","win_decimal":0.875}],"variance":"22","variance_decimal":22.0}"#).unwrap();
    assert_eq!(serde_json::to_value(&r).unwrap(), old);

    let opts = RaceOptions {
        distribution: 3,
        simulate: Some(SimulationRequest {
            trials: 20000,
            seed: 7,
        }),
    };
    let r = report::race(coin.clone(), &["HTH", "THH"], &opts, &mut none()).unwrap();
    let old: Value = serde_json::from_str(r#"{"alphabet":"HT","chain_states":5,"conway":{"a":"HTH","b":"THH","leading_numbers":{"AA":"101","AB":"010","BA":"001","BB":"100"},"odds_b_to_a":"1:1","prob_b_first":"1/2","weighted":{"AA":"10","AB":"4","BA":"2","BB":"8"}},"distribution":[{"by_pattern":["0","0"],"decimal":0.0,"n":1,"prob":"0"},{"by_pattern":["0","0"],"decimal":0.0,"n":2,"prob":"0"},{"by_pattern":["1/8","1/8"],"decimal":0.25,"n":3,"prob":"1/4"}],"expected_tosses":"6","expected_tosses_decimal":6.0,"letter_probabilities":{"H":"1/2","T":"1/2"},"methods_agreeing":["correlation system","Markov chain","Conway"],"patterns":[{"can_win":true,"contains":null,"expected_given_win":"17/3","pattern":"HTH","simulated_win_decimal":0.5002,"simulated_wins":10004,"waiting_time":"10","win":"1/2","win_decimal":0.5},{"can_win":true,"contains":null,"expected_given_win":"19/3","pattern":"THH","simulated_win_decimal":0.4998,"simulated_wins":9996,"waiting_time":"8","win":"1/2","win_decimal":0.5}],"simulation":{"mean_length":6.00635,"seed":7,"trials":20000,"variance":11.267873071153556,"wins":[10004,9996]},"variance":"34/3","variance_decimal":11.333333333333334}"#).unwrap();
    assert_eq!(serde_json::to_value(&r).unwrap(), old);

    let r = report::race(
        Alphabet::uniform("A").unwrap(),
        &["AAA"],
        &RaceOptions::default(),
        &mut none(),
    )
    .unwrap();
    let old: Value = serde_json::from_str(r#"{"alphabet":"A","chain_states":3,"expected_tosses":"3","expected_tosses_decimal":3.0,"letter_probabilities":{"A":"1"},"methods_agreeing":["correlation system","Markov chain"],"patterns":[{"can_win":true,"contains":null,"expected_given_win":"3","pattern":"AAA","waiting_time":"3","win":"1","win_decimal":1.0}],"variance":"0","variance_decimal":0.0}"#).unwrap();
    assert_eq!(serde_json::to_value(&r).unwrap(), old);

    let r = report::best_reply(&coin, "HHTH").unwrap();
    let old: Value = serde_json::from_str(r#"{"best_reply":"HHHT","candidates":15,"pattern":"HHTH","search":"exhaustive","ties":["HHHT"],"win":"2/3","win_decimal":0.6666666666666666}"#).unwrap();
    assert_eq!(serde_json::to_value(&r).unwrap(), old);

    let r = report::cycle(&coin, 3).unwrap();
    let old: Value = serde_json::from_str(r#"{"cycle":[{"beats_previous":"3/4","decimal":0.75,"pattern":"THH"},{"beats_previous":"2/3","decimal":0.6666666666666666,"pattern":"TTH"},{"beats_previous":"3/4","decimal":0.75,"pattern":"HTT"},{"beats_previous":"2/3","decimal":0.6666666666666666,"pattern":"HHT"}],"length":3}"#).unwrap();
    assert_eq!(serde_json::to_value(&r).unwrap(), old);
    let none_found = serde_json::to_value(report::cycle(&coin, 2).unwrap()).unwrap();
    assert_eq!(none_found, serde_json::json!({"length": 2, "cycle": null}));
}

#[test]
fn containment_and_huge_values() {
    let coin = Alphabet::coin();
    let r = report::race(
        coin.clone(),
        &["HHTH", "HT", "TTT"],
        &RaceOptions::default(),
        &mut none(),
    )
    .unwrap();
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(v["patterns"][0]["win"], "0");
    assert_eq!(v["patterns"][0]["can_win"], false);
    assert_eq!(v["patterns"][0]["contains"], "HT");
    assert!(v["patterns"][0]["expected_given_win"].is_null());
    assert_eq!(v["patterns"][1]["win"], "7/8");
    assert!(v.get("conway").is_none());
    assert_eq!(r.unknowns_per_state(), 3);

    // 116 tosses of a 1/1000 coin: E[N] ≈ 1.001e348 is beyond an f64, so its decimal is text.
    let biased = Alphabet::parse_probabilities("H=1/1000,T=999/1000").unwrap();
    let r = report::race(
        biased,
        &["H".repeat(116)],
        &RaceOptions::default(),
        &mut none(),
    )
    .unwrap();
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(v["expected_tosses_decimal"], "1.001001001e348");
    assert_eq!(v["variance_decimal"], "1.002003004e696");
}

#[test]
fn chain_skipped_for_many_long_patterns() {
    // 60 patterns of length 12: the chain would cost 373 states × 61² unknowns; only the
    // correlation system runs, and there is no variance.
    let coin = Alphabet::coin();
    let mut rng = grundy_penney::simulate::SplitMix64::new(5);
    let mut pats: Vec<String> = Vec::new();
    while pats.len() < 60 {
        let p: String = (0..12)
            .map(|_| if rng.below(2) == 0 { 'H' } else { 'T' })
            .collect();
        if !pats.contains(&p) {
            pats.push(p);
        }
    }
    let r = report::race(coin, &pats, &RaceOptions::default(), &mut none()).unwrap();
    assert!(r.chain_skipped());
    assert_eq!(r.methods_agreeing, [Method::CorrelationSystem]);
    assert!(r.variance.is_none());
    assert_eq!(sum(r.patterns.iter().map(|p| p.win.0.clone())), RBig::ONE);
    let v = serde_json::to_value(&r).unwrap();
    assert!(v["variance"].is_null());
    assert!(v["patterns"][0].get("expected_given_win").is_none());
}

/// An alphabet of 1–4 letters with random positive probabilities and 1–5 distinct patterns of
/// lengths 1–5.
fn instance() -> impl Strategy<Value = (Alphabet, Vec<String>)> {
    (1usize..=4)
        .prop_flat_map(|s| {
            (
                prop::collection::vec(1u64..=6, s),
                prop::collection::vec(prop::collection::vec(0..s, 1..=5), 1..=5),
                any::<bool>(),
            )
        })
        .prop_map(|(weights, mut words, uniform)| {
            let symbols: String = "abcd".chars().take(weights.len()).collect();
            let alphabet = if uniform {
                Alphabet::uniform(&symbols).unwrap()
            } else {
                let total: u64 = weights.iter().sum();
                let probs = weights
                    .iter()
                    .map(|&w| RBig::from_parts(IBig::from(w), UBig::from(total)))
                    .collect();
                Alphabet::with_probabilities(&symbols, probs).unwrap()
            };
            words.sort();
            words.dedup();
            let texts = words.iter().map(|w| alphabet.decode(w)).collect();
            (alphabet, texts)
        })
}

/// A 2- or 3-letter alphabet (random probabilities) and a pattern of length 1–4.
fn reply_instance() -> impl Strategy<Value = (Alphabet, Vec<usize>)> {
    (2usize..=3)
        .prop_flat_map(|s| {
            (
                prop::collection::vec(1u64..=5, s),
                prop::collection::vec(0..s, 1..=4),
            )
        })
        .prop_map(|(weights, word)| {
            let symbols: String = "xyz".chars().take(weights.len()).collect();
            let total: u64 = weights.iter().sum();
            let probs = weights
                .iter()
                .map(|&w| RBig::from_parts(IBig::from(w), UBig::from(total)))
                .collect();
            (Alphabet::with_probabilities(&symbols, probs).unwrap(), word)
        })
}

/// Every best reply to `a` by brute force: the maximal chance and every pattern reaching it.
fn brute_best_reply(al: &Alphabet, a: &[usize]) -> (RBig, Vec<String>) {
    let cands: Vec<(RBig, Vec<usize>)> = al
        .all_words(a.len(), usize::MAX)
        .unwrap()
        .into_iter()
        .filter(|b| b.as_slice() != a)
        .map(|b| (prob_second_wins(al, a, &b), b))
        .collect();
    let best = cands.iter().map(|(p, _)| p.clone()).max().unwrap();
    let ties = cands
        .iter()
        .filter(|(p, _)| *p == best)
        .map(|(_, b)| al.decode(b))
        .collect();
    (best, ties)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, ..ProptestConfig::default() })]

    /// The race report's probabilities sum to 1, every method that ran agreed (else it is an
    /// error), and the numbers equal the dense Markov chain, an independent reference.
    #[test]
    fn race_report_is_consistent((alphabet, patterns) in instance()) {
        let opts = RaceOptions { distribution: 6, simulate: None };
        let r = report::race(alphabet.clone(), &patterns, &opts, &mut none()).unwrap();
        let race = Race::new(alphabet.clone(), &patterns).unwrap();
        let dense = chain::solve_dense(&race, 1000).unwrap();
        prop_assert_eq!(sum(r.patterns.iter().map(|p| p.win.0.clone())), RBig::ONE);
        prop_assert_eq!(&r.expected_tosses.0, &dense.expected);
        prop_assert_eq!(r.variance.as_ref().map(|v| &v.0), Some(&dense.variance));
        prop_assert!(r.methods_agreeing.contains(&Method::CorrelationSystem));
        prop_assert!(r.methods_agreeing.contains(&Method::MarkovChain));
        let two_live = race.len() == 2 && race.active().len() == 2;
        prop_assert_eq!(r.methods_agreeing.contains(&Method::Conway), two_live);
        prop_assert_eq!(r.conway.is_some(), two_live);
        if let Some(c) = &r.conway {
            prop_assert_eq!(&c.prob_b_first, &r.patterns[1].win);
        }
        for (i, p) in r.patterns.iter().enumerate() {
            prop_assert_eq!(&p.pattern, &patterns[i]);
            prop_assert_eq!(&p.win.0, &dense.win[i]);
            prop_assert_eq!(p.can_win, race.blocked_by(i).is_none());
            prop_assert_eq!(p.can_win, !p.win.0.is_zero());
            prop_assert_eq!(
                p.expected_given_win.clone(),
                Some(dense.expected_given_winner[i].clone().map(Fraction))
            );
        }
        // The distribution: each step splits among the patterns, and no pattern collects
        // more than its win probability.
        prop_assert_eq!(r.distribution.len(), 6);
        for (n, d) in r.distribution.iter().enumerate() {
            prop_assert_eq!(d.n, n + 1);
            prop_assert_eq!(&d.prob.0, &sum(d.by_pattern.iter().map(|x| x.0.clone())));
        }
        for (i, p) in r.patterns.iter().enumerate() {
            let early = sum(r.distribution.iter().map(|d| d.by_pattern[i].0.clone()));
            prop_assert!(early <= p.win.0);
        }
        // JSON: fractions as strings, decimals as numbers here.
        let v = serde_json::to_value(&r).unwrap();
        for (i, p) in r.patterns.iter().enumerate() {
            prop_assert_eq!(&v["patterns"][i]["win"], &Value::from(p.win.to_string()));
            let d = v["patterns"][i]["win_decimal"].as_f64().unwrap();
            prop_assert!((d - p.win.0.to_f64().value()).abs() < 1e-12);
        }
    }

    /// The best-reply report is exactly the set of maximal candidates, by brute force.
    #[test]
    fn best_reply_report_is_brute_force_maximum((al, a) in reply_instance()) {
        let r = report::best_reply(&al, &al.decode(&a)).unwrap();
        let (best, ties) = brute_best_reply(&al, &a);
        prop_assert_eq!(&r.win.0, &best);
        prop_assert_eq!(&r.ties, &ties);
        prop_assert_eq!(&r.best_reply, &ties[0]);
        prop_assert_eq!(r.search, ReplySearch::Exhaustive);
        prop_assert_eq!(r.candidates, al.len().pow(a.len() as u32) - 1);
    }

    /// The first player's best pattern keeps exactly max over patterns of (1 − best reply).
    #[test]
    fn best_first_report_is_brute_force((al, a) in reply_instance()) {
        let m = a.len().min(3);
        let r = report::best_first(&al, m).unwrap();
        let best = al
            .all_words(m, usize::MAX)
            .unwrap()
            .iter()
            .map(|w| RBig::ONE - brute_best_reply(&al, w).0)
            .max()
            .unwrap();
        prop_assert_eq!(&r.guaranteed.0, &best);
        let w = al.encode(&r.pattern).unwrap();
        let reply = al.encode(&r.best_reply).unwrap();
        prop_assert_eq!(RBig::ONE - prob_second_wins(&al, &w, &reply), best);
    }

    /// Table entries are complementary and agree with Conway's formula; the diagonal is empty.
    #[test]
    fn table_report_is_complementary((al, a) in reply_instance()) {
        let m = a.len().min(3);
        let r = report::table(&al, m).unwrap();
        let words = al.all_words(m, usize::MAX).unwrap();
        prop_assert_eq!(r.patterns.len(), words.len());
        for i in 0..words.len() {
            prop_assert!(r.table[i][i].is_none());
            for j in 0..words.len() {
                if i != j {
                    let pij = &r.table[i][j].as_ref().unwrap().0;
                    let pji = &r.table[j][i].as_ref().unwrap().0;
                    prop_assert_eq!(pij + pji, RBig::ONE);
                    prop_assert_eq!(pij, &prob_second_wins(&al, &words[i], &words[j]));
                }
            }
        }
    }

    /// Each pattern of a cycle beats the one before it, with more than 1/2.
    #[test]
    fn cycle_report_beats_previous((al, a) in reply_instance()) {
        let r = report::cycle(&al, a.len()).unwrap();
        prop_assert_eq!(r.length, a.len());
        if let Some(c) = &r.cycle {
            prop_assert!(c.len() >= 2);
            for k in 0..c.len() {
                let prev = al.encode(&c[(k + c.len() - 1) % c.len()].pattern).unwrap();
                let cur = al.encode(&c[k].pattern).unwrap();
                prop_assert_eq!(&c[k].beats_previous.0, &prob_second_wins(&al, &prev, &cur));
                prop_assert!(c[k].beats_previous.0 > half());
            }
        }
    }
}

#[test]
fn simulation_is_seeded_and_close() {
    let opts = RaceOptions {
        distribution: 0,
        simulate: Some(SimulationRequest {
            trials: 100_000,
            seed: 3,
        }),
    };
    let mut calls = 0;
    let r = report::race(Alphabet::coin(), &["HHH", "THH"], &opts, &mut |_| {
        calls += 1
    })
    .unwrap();
    assert_eq!(calls, 1); // every 2^16 races
    let s = r.simulation.as_ref().unwrap();
    assert_eq!(s.seed, 3);
    assert_eq!(s.wins.iter().sum::<u64>(), 100_000);
    let f = r.patterns[1].simulated_win_decimal.unwrap();
    assert!((f - 0.875).abs() < 0.01, "{f}");
    let again = report::race(Alphabet::coin(), &["HHH", "THH"], &opts, &mut none()).unwrap();
    assert_eq!(r, again);
}
