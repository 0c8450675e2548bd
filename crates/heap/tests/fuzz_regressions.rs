//! Findings of `crates/grundy/tests/fuzz_parsers.rs` in the rule parser, kept as tests: every
//! error is one line with the offending text escaped (a newline, a NUL or a terminal control
//! byte in a rule never reaches the terminal raw).

use grundy_heap::rule::parse;

/// The message of a rule that must be refused.
fn refusal(text: &str) -> String {
    parse(text).expect_err(text).to_string()
}

fn assert_clean(msg: &str) {
    assert!(!msg.chars().any(char::is_control), "{msg:?}");
}

#[test]
fn control_characters_in_rules_are_escaped() {
    // Fuzz finding: "!\u{7f}\0" was echoed raw inside "unknown rule '…'".
    let m = refusal("!\u{7f}\0");
    assert_clean(&m);
    assert!(m.contains(r"'!\u{7f}\0'"), "{m}");
    for text in [
        "kay\nles",
        "0.7\n7",
        "0.7\x1b[31m",
        "sub:1,\x01",
        "sub:1,x\ty",
        "allbut:\x02",
        "0.[3\n",
        "4!\n.0",
        "0.7!!\u{85}",
    ] {
        let m = refusal(text);
        assert_clean(&m);
    }
}

#[test]
fn long_rules_are_cut_in_messages() {
    let m = refusal(&"z".repeat(100_000));
    assert!(m.len() < 1000, "{} bytes", m.len());
    let m = refusal(&format!("sub:{}", "9".repeat(100_000)));
    assert!(m.len() < 1000, "{} bytes", m.len());
}

#[test]
fn a_finite_set_with_a_far_element_is_linear() {
    // Fuzz finding (`fuzz_cli`): `grundy heap sub:1,1000000 --upto 10**6` took 7 minutes: the
    // engine scanned every one of the code's million digits for every heap. It now visits only
    // the removals that have a move.
    use grundy_heap::engine;
    let rule = parse("sub:1,1000000").unwrap();
    let n = 2_000_000u64;
    let start = std::time::Instant::now();
    let v = engine::sequence(&rule, n).unwrap();
    // The mex of the two options, directly.
    let mut want = vec![0u32; n as usize + 1];
    for h in 1..=n as usize {
        let mut opts = vec![want[h - 1]];
        if h >= 1_000_000 {
            opts.push(want[h - 1_000_000]);
        }
        want[h] = (0..).find(|g| !opts.contains(g)).unwrap();
    }
    assert_eq!(v, want);
    assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
}

#[test]
fn moves_of_a_finite_set_are_its_elements() {
    // Fuzz finding (`fuzz_cli`, second seed): `grundy heap sub:1,1000000 --position 1e19
    // --misere` ran for minutes: every position the misère search opened scanned the set's
    // code, a million digits. A finite set now lists its own elements, the same moves.
    use grundy_heap::rule::Rule;
    use grundy_heap::sum::for_each_move;
    let moves = |rule: &Rule, h: u64| {
        let mut v = Vec::new();
        for_each_move(rule, h, &[], |removed, left| {
            v.push((removed, left.to_vec()))
        });
        v.sort();
        v
    };
    for text in ["sub:1,3,4", "sub:2,5,7,11", "sub:1,1000000", "sub:3"] {
        let rule = parse(text).unwrap();
        let code = Rule::Code(rule.take_break().unwrap());
        for h in (0..200).chain([999_999, 1_000_000, 1_000_001]) {
            assert_eq!(moves(&rule, h), moves(&code, h), "{text} at {h}");
        }
    }
    let rule = parse("sub:1,1000000").unwrap();
    let start = std::time::Instant::now();
    for i in 0..100_000u64 {
        assert_eq!(moves(&rule, 10_000_000_000_000_000_000 - i).len(), 2);
    }
    assert!(start.elapsed().as_secs() < 5, "{:?}", start.elapsed());
}
