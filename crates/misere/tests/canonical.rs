//! Misère canonical forms against CGSuite's test expectations (testdata/cgsuite/misere_canonical.txt):
//! birthday, genus (g and γ0), misère Grundy value, normal value, misère outcome, and the mate
//! where the expected mate is the game itself. The output-notation column is not printed by
//! this crate (it prints entry notation), and the tame/restive/restless columns are not
//! computed.

use grundy_core::Outcome;
use grundy_misere::canonical::Forms;

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
