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
    assert!(out.contains("odds B:A = 7:1"), "{out}");
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
    ];
    for (args, token) in cases {
        let (code, out, err) = grundy(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(token), "{args:?}: {err}");
    }
}
