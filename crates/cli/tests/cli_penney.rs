//! `grundy penney` end to end: answers, JSON shape, and one-line errors with exit code 2.

use std::process::Command;

fn grundy(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .arg("penney")
        .args(args)
        .output()
        .expect("run grundy");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json(args: &[&str]) -> serde_json::Value {
    let mut a = args.to_vec();
    a.push("--json");
    let (code, out, err) = grundy(&a);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 1);
    serde_json::from_str(&out).expect("valid JSON")
}

#[test]
fn classic_race() {
    let (code, out, _) = grundy(&["HHH", "THH"]);
    assert_eq!(code, 0);
    assert!(out.contains("7/8"), "{out}");
    assert!(out.contains("odds of THH against HHH: 7 to 1"), "{out}");
    let v = json(&["HHH", "THH"]);
    assert_eq!(v["patterns"][1]["win"], "7/8");
    assert_eq!(v["patterns"][1]["win_decimal"], 0.875);
    assert_eq!(v["expected_tosses"], "7");
    assert_eq!(v["conway"]["leading_numbers"]["BA"], "011");
    assert_eq!(v["methods_agreeing"].as_array().unwrap().len(), 3);
}

#[test]
fn die_biased_coin_and_containment() {
    let v = json(&["--alphabet", "123456", "666", "123"]);
    assert_eq!(v["patterns"][1]["win"], "43/79");
    let v = json(&["--prob", "H=2/3,T=1/3", "HHH", "THH"]);
    assert_eq!(v["patterns"][0]["win"], "8/27");
    let v = json(&["HHTH", "HT", "TTT"]);
    assert_eq!(v["patterns"][0]["win"], "0");
    assert_eq!(v["patterns"][0]["contains"], "HT");
    assert_eq!(v["patterns"][1]["win"], "7/8");
    let v = json(&["--alphabet", "A", "AAA"]);
    assert_eq!(v["expected_tosses"], "3");
    assert_eq!(v["variance"], "0");
}

#[test]
fn waiting_time_abracadabra() {
    let v = json(&["--alphabet", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "ABRACADABRA"]);
    // 26^11 + 26^4 + 26
    assert_eq!(v["expected_tosses"], "3670344487444778");
}

#[test]
fn distribution_and_simulation() {
    let v = json(&[
        "HTH",
        "THH",
        "--distribution",
        "3",
        "--simulate",
        "20000",
        "--seed",
        "7",
    ]);
    let d = v["distribution"].as_array().unwrap();
    assert_eq!(d.len(), 3);
    assert_eq!(d[2]["prob"], "1/4");
    let wins = v["simulation"]["wins"].as_array().unwrap();
    let total: u64 = wins.iter().map(|w| w.as_u64().unwrap()).sum();
    assert_eq!(total, 20000);
    assert_eq!(
        json(&["HTH", "THH", "--simulate", "20000", "--seed", "7"])["simulation"],
        v["simulation"]
    );
}

#[test]
fn game_theory_modes() {
    let v = json(&["--best-reply", "HHH"]);
    assert_eq!(v["best_reply"], "THH");
    assert_eq!(v["win"], "7/8");
    assert_eq!(v["search"], "exhaustive");
    let v = json(&["--best-reply", "HTHTHTHTHTHTHTHTHTHT"]);
    assert_eq!(v["search"], "family");
    let v = json(&["--table", "3"]);
    assert_eq!(v["patterns"].as_array().unwrap().len(), 8);
    assert_eq!(v["table"][0][4], "7/8"); // THH against HHH
    assert!(v["table"][0][0].is_null());
    let v = json(&["--cycle", "3"]);
    assert_eq!(v["cycle"].as_array().unwrap().len(), 4);
    let v = json(&["--best-first", "3"]);
    assert_eq!(v["guaranteed"], "1/3");
    let (code, out, _) = grundy(&["--table", "2"]);
    assert_eq!(code, 0);
    assert!(out.contains("HH"));
}

#[test]
fn bad_input_is_one_line_exit_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["HTX", "THH"], "'X'"),
        (&["HT", "HT"], "'HT'"),
        (&["--prob", "H=1/2,T=1/3", "HH"], "5/6"),
        (&["--prob", "H=0,T=1", "HH"], "'H'"),
        (&["--prob", "H=-1/2,T=3/2", "HH"], "'H'"),
        (&["--prob", "H=abc,T=1/2", "HH"], "'abc'"),
        (&["--alphabet", "HH", "H"], "'H'"),
        (&["--simulate", "-5", "HT"], "'-5'"),
        (&["--simulate", "lots", "HT"], "'lots'"),
        (&["--distribution", "99999999", "HT"], "'99999999'"),
        (&["--table", "0"], "'0'"),
        (&["--table", "9"], "limit"),
        (&["--best-reply", "HQ"], "'Q'"),
        (&["--best-first", "-2"], "'-2'"),
        (
            &["--alphabet", "123", "--prob", "H=1/2,T=1/2", "HT"],
            "'123'",
        ),
        (&[], "patterns"),
        (&["--seed", "abc", "HT", "TH", "--simulate", "10"], "'abc'"),
        (&["--seed", "abc", "--table", "3"], "'abc'"),
        (&["--seed", "-1", "--cycle", "3"], "'-1'"),
        (&["--seed", "x7", "--best-reply", "HHH"], "'x7'"),
        // 1e3 is a count like any other (the one number grammar): the seed is refused
        // because it applies only to --simulate.
        (&["--seed", "1e3", "--best-first", "3"], "--simulate"),
        (&["--seed", "1.5e3", "--best-first", "3"], "'1.5e3'"),
        (
            &["--seed", "99999999999999999999", "HT", "--simulate", "1"],
            "too large",
        ),
        (&["--seed", "7", "--table", "3"], "--simulate"),
        (&["HTH", "THH", "--seed", "7"], "--simulate"),
    ];
    for (args, token) in cases {
        let (code, out, err) = grundy(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(token), "{args:?}: {err}");
    }
}

/// The text layout, byte for byte (the reports moved into the library without changing it).
#[test]
fn text_output_is_stable() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["HTH", "THH", "--verbose"],
            r#"Race of 2 patterns over HT (each 1/2)
pattern  P(first)         decimal       E[N | wins]
HTH      1/2              0.5           17/3 (5.6666666667)
THH      1/2              0.5           19/3 (6.3333333333)
E[N] = 6 (6)   Var[N] = 34/3 (11.3333333333)
Conway (A = HTH, B = THH): AA=101 AB=010 BB=100 BA=001; odds B:A = 1:1
Exact methods agreeing: correlation system, Markov chain, Conway
"#,
        ),
        (
            &["HTH", "THH"],
            r#"Race of 2 patterns over HT (each 1/2)
pattern  P(first)         decimal       mean tosses if it wins
HTH      1/2              0.5           17/3 (5.6666666667)
THH      1/2              0.5           19/3 (6.3333333333)
expected number of tosses: 6 (6), variance 34/3 (11.3333333333)
odds of THH against HTH: 1 to 1
Exact methods agreeing: correlation system, Markov chain, Conway
"#,
        ),
        (
            &[
                "HHTH",
                "HT",
                "TTT",
                "--simulate",
                "1000",
                "--distribution",
                "3",
            ],
            r#"Race of 3 patterns over HT (each 1/2)
pattern  P(first)         decimal       mean tosses if it wins  simulated
HHTH     0                0             -  0.000000  (contains HT, can never win)
HT       7/8              0.875         25/7 (3.5714285714)  0.871000
TTT      1/8              0.125         3 (3)  0.129000
expected number of tosses: 7/2 (3.5), variance 9/4 (2.25)
simulated: 1000 races, seed 1: mean 3.553000, variance 2.779971
Exact methods agreeing: correlation system, Markov chain
n  P(race ends at toss n)
1 0 (0)
2 1/4 (0.25)
3 3/8 (0.375)
"#,
        ),
        (
            &["--alphabet", "123456", "--best-reply", "1234"],
            r#"Best reply to 1234: 1123 appears first with probability 6/11 (0.5454545455); equally good: 2123 5123 6123
search: exhaustive over all 1295 other patterns of length 4
"#,
        ),
        (
            &["--cycle", "3"],
            r#"Non-transitive cycle of length-3 patterns (each beats the one before it):
  THH beats HHT with probability 3/4 (0.75)
  TTH beats THH with probability 2/3 (0.6666666667)
  HTT beats TTH with probability 3/4 (0.75)
  HHT beats HTT with probability 2/3 (0.6666666667)
"#,
        ),
        (
            &["--table", "1"],
            r#"P(column appears before row), patterns of length 1
      H   T
H     - 1/2
T   1/2   -
"#,
        ),
        (
            &["--best-first", "3"],
            r#"First player's best pattern of length 3: HTH wins with probability at least 1/3 (0.3333333333); the best reply is HHT
"#,
        ),
    ];
    for (args, expected) in cases {
        let (code, out, err) = grundy(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert_eq!(out, *expected, "{args:?}");
    }
}

#[test]
fn seed_only_with_simulate() {
    let a = json(&["HTH", "THH", "--simulate", "5000", "--seed", "3"]);
    let b = json(&["HTH", "THH", "--simulate", "5000", "--seed", "3"]);
    assert_eq!(a["simulation"], b["simulation"]);
    assert_eq!(a["simulation"]["seed"], 3);
    // Without --seed the seed is 1.
    assert_eq!(json(&["HT", "--simulate", "10"])["simulation"]["seed"], 1);
}
