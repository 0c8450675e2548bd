//! `grundy misere form` run as a user would run it: CGSuite's output notation, the
//! classification, sums and differences.

mod common;

use common::*;

#[test]
fn form_prints_cgsuite_notation_and_class() {
    let v = json(&["misere", "form", "*[[2],0]", "--json"]);
    assert_eq!(v["text"], "*[2#0]");
    assert_eq!(v["mate_text"], "*[2#1]");
    assert_eq!(v["class"], "restive");
    assert_eq!(v["genus"]["text"], "1^2");
    let out = ok(&["misere", "form", "*[[2],1]"]);
    assert!(out.starts_with("*[2#1]\n"), "{out}");
    assert!(out.contains("restless"), "{out}");
}

#[test]
fn form_adds_and_subtracts() {
    let v = json(&["misere", "form", "*2+*2", "--json"]);
    assert_eq!(v["text"], "*[2[2]]");
    assert_eq!(v["outcome"], "P");
    let v = json(&[
        "misere",
        "form",
        "*[[2],0] + *[[2],1]",
        "--minus",
        "*[[2],1]",
        "--json",
    ]);
    assert_eq!(v["text"], "*[2#0]");
    let v = json(&["misere", "form", "*[[[2]]]", "--minus", "*[[2]]", "--json"]);
    assert_eq!(v["text"], "*[2[##-2]0]");
    bad(
        &["misere", "form", "*[[[2]]]", "--minus", "*[[4]]"],
        "not subtractable",
    );
    bad(&["misere", "form", "*[1,"], "*[1,");
    bad(&["misere", "form", "*2", "--minus", "hello"], "hello");
}
