//! Misère canonical forms against CGSuite's test expectations (testdata/cgsuite/misere_canonical.txt):
//! birthday, genus (g and γ0), misère Grundy value, normal value, misère outcome, and the mate
//! where the expected mate is the game itself; the canonical form and the mate in CGSuite's
//! output notation; the tame / restive / restless columns.

use grundy_core::Outcome;
use grundy_misere::canonical::{Class, Forms};

#[test]
fn the_fourteen_rows() {
    let text = include_str!("../../../testdata/cgsuite/misere_canonical.txt");
    let mut rows = 0;
    for line in text
        .lines()
        .filter(|l| l.starts_with('*') && l.contains('|'))
    {
        let cols: Vec<&str> = line.split('|').map(str::trim).collect();
        let mut f = Forms::new();
        let g = f.parse(cols[0]).unwrap();
        let info = f.info(g);
        assert_eq!(
            info.birthday.to_string(),
            cols[2],
            "birthday of {}",
            cols[0]
        );
        assert_eq!(
            info.misere_grundy.to_string(),
            cols[4],
            "misère value of {}",
            cols[0]
        );
        assert_eq!(info.grundy.to_string(), cols[5], "value of {}", cols[0]);
        let o = if cols[6] == "P" {
            Outcome::P
        } else {
            Outcome::N
        };
        assert_eq!(info.outcome, o, "outcome of {}", cols[0]);
        // genus: g and γ0 always; the full text where it is printed the same way here
        let (g0, sup) = cols[3].split_once('^').unwrap_or((cols[3], ""));
        assert_eq!(info.genus.g.to_string(), g0, "genus of {}", cols[0]);
        if let Some(d) = sup.chars().next() {
            assert_eq!(
                info.genus.gamma[0],
                d.to_digit(10).unwrap(),
                "genus of {}",
                cols[0]
            );
        }
        if cols[1] == cols[7] {
            // self-mate: the mate's canonical form is the game's own
            assert_eq!(info.mate, info.canonical, "mate of {}", cols[0]);
        } else {
            assert_ne!(info.mate, info.canonical, "mate of {}", cols[0]);
        }
        assert_eq!(info.text, cols[1], "output notation of {}", cols[0]);
        assert_eq!(info.mate_text, cols[7], "mate of {}", cols[0]);
        // the classification columns: column 8 is "tame" exactly when tame; "restive" in
        // column 9, "restless" in column 10 when so (CGSuite's IsTame, IsRestive, IsRestless)
        let want = if cols[8] == "tame" {
            Class::Tame
        } else if cols[9] == "restive" {
            Class::Restive
        } else if cols[10] == "restless" {
            Class::Restless
        } else {
            Class::Other
        };
        assert_eq!(info.class, want, "class of {}", cols[0]);
        rows += 1;
    }
    assert_eq!(rows, 14);
}

#[test]
fn mates_of_the_restive_pair() {
    let mut f = Forms::new();
    let a = f.parse("*[[2],0]").unwrap();
    let b = f.parse("*[[2],1]").unwrap();
    let (ca, cb) = (f.canonical(a), f.canonical(b));
    assert_eq!(f.mate(ca), cb);
    assert_eq!(f.mate(cb), ca);
}

#[test]
fn simplification() {
    let mut f = Forms::new();
    // *1 + *1 = 0 in misère play
    let g = f.parse("*[1]+*[1]").unwrap();
    let c = f.canonical(g);
    assert_eq!(f.entry_text(c), "*[0]");
    // *2 + *2 is not 0 (a P-position)
    let g = f.parse("*[2]+*[2]").unwrap();
    let c = f.canonical(g);
    assert_eq!(f.birthday(c), 4);
    // *2 + *1 = *3
    let g = f.parse("*[2]+*[1]").unwrap();
    let c = f.canonical(g);
    assert_eq!(f.entry_text(c), "*[3]");
    assert!(f.parse("*[1,").is_err());
    assert!(f.parse("*[999]").is_err());
    assert!(f.parse("hello").is_err());
}

/// The binary operations of CGSuite's tests that this crate has: the sum, and MisereMinus
/// (the X with X + H = G) where it is defined.
#[test]
fn sums_and_differences() {
    let mut f = Forms::new();
    let two_sharp = f.parse("*[[2]]").unwrap();
    let two_sharp_sharp = f.parse("*[[[2]]]").unwrap();
    let four_sharp = f.parse("*[[4]]").unwrap();
    let two = f.nim(2);
    // *2 + *2 prints as 2[2] and is no nim heap
    let s = f.plus(two, two);
    assert_eq!(f.output_text(s), "*[2[2]]");
    // *1 + *1 = 0, *2 + *1 = *3
    let one = f.nim(1);
    let s = f.plus(one, one);
    assert_eq!(f.output_text(s), "*[0]");
    let s = f.plus(two, one);
    assert_eq!(f.output_text(s), "*[3]");
    // 2## − 2# = 2[##-2]0 (CGSuite's MisereMinus row in the data file), and its defining
    // property
    let d = f
        .minus(two_sharp_sharp, two_sharp)
        .expect("2## - 2# is defined");
    assert_eq!(f.output_text(d), "*[2[##-2]0]");
    let back = f.plus(d, two_sharp);
    assert_eq!(back, f.canonical(two_sharp_sharp));
    assert_eq!(f.options(d).len(), 2);
    let zero = f.game(vec![]);
    assert!(f.options(d).contains(&zero));
    // 2## − 4# is not defined
    assert_eq!(f.minus(two_sharp_sharp, four_sharp), None);
    // (G + H) − H = G for a few forms
    for (a, b) in [
        ("*[[2],0]", "*[[2],1]"),
        ("*[[2]]", "*[2]"),
        ("*[[[2]],[[2],1]]", "*[3]"),
    ] {
        let (ga, gb) = (f.parse(a).unwrap(), f.parse(b).unwrap());
        let s = f.plus(ga, gb);
        assert_eq!(f.minus(s, gb), Some(f.canonical(ga)), "({a} + {b}) - {b}");
    }
}

/// CGSuite's `GrundysGame(22).MisereCanonicalForm` (GameHeapTest.scala, in the data file).
#[test]
fn grundys_game_heap_22() {
    let text = include_str!("../../../testdata/cgsuite/misere_canonical.txt");
    let want = text
        .lines()
        .find_map(|l| l.strip_prefix("GrundysGame(22).MisereCanonicalForm = "))
        .unwrap()
        .trim();
    let mut f = Forms::new();
    let g = grundy_misere::genus::heap_form(&mut f, "grundy", 22).unwrap();
    assert_eq!(f.output_text(g), want);
    // and the form read back from entry notation is the same game
    let entry = f.entry_text(g);
    let again = f.parse(&entry).unwrap();
    assert_eq!(f.canonical(again), g);
}
