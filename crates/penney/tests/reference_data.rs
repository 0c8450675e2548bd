//! The shared reference tables, reproduced exactly by every method.

use dashu::integer::UBig;
use dashu::rational::RBig;
use grundy_penney::{chain, conway, correlation, correlation_system, Alphabet, Race};

fn data_lines(text: &str) -> impl Iterator<Item = Vec<&str>> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_whitespace().collect())
}

#[test]
fn penney3_all_56_pairs() {
    let coin = Alphabet::coin();
    let mut rows = 0;
    for f in data_lines(include_str!("../../../testdata/penney/penney3.txt")) {
        let (a, b) = (coin.encode(f[0]).unwrap(), coin.encode(f[1]).unwrap());
        let r = conway::conway(&coin, &a, &b).unwrap();
        assert_eq!(r.prob_b_first.to_string(), f[2], "{} {}", f[0], f[1]);
        assert_eq!(
            format!("{}:{}", r.odds.0, r.odds.1),
            f[3],
            "{} {}",
            f[0],
            f[1]
        );
        assert_eq!(r.expected.to_string(), f[4], "{} {}", f[0], f[1]);
        assert_eq!(
            conway::leading_bits(&a, &b).to_vec(),
            f[5..9].to_vec(),
            "{} {}",
            f[0],
            f[1]
        );

        let race = Race::new(coin.clone(), &[f[0], f[1]]).unwrap();
        let sys = correlation_system::solve(&race).unwrap();
        let ch = chain::solve(&race, 100).unwrap();
        for (w, e) in [(&sys.win, &sys.expected), (&ch.win, &ch.expected)] {
            assert_eq!(w[1].to_string(), f[2]);
            assert_eq!(e.to_string(), f[4]);
        }
        rows += 1;
    }
    assert_eq!(rows, 56);
}

#[test]
fn binary_waiting_times() {
    let coin = Alphabet::coin();
    let mut rows = 0;
    for f in data_lines(include_str!(
        "../../../testdata/penney/waiting_times_binary.txt"
    )) {
        let w = coin.encode(f[0]).unwrap();
        assert_eq!(
            correlation::waiting_time(&coin, &w).to_string(),
            f[1],
            "{}",
            f[0]
        );
        assert_eq!(correlation::leading_number_bits(&w, &w), f[2], "{}", f[0]);
        let race = Race::new(coin.clone(), &[f[0]]).unwrap();
        let ch = chain::solve(&race, 100).unwrap();
        assert_eq!(ch.expected.to_string(), f[1]);
        assert_eq!(ch.variance, correlation::waiting_time_variance(&coin, &w));
        rows += 1;
    }
    assert_eq!(rows, 2 + 4 + 8 + 16 + 32 + 64);
}

#[test]
fn abracadabra() {
    let letters = Alphabet::uniform("ABCDEFGHIJKLMNOPQRSTUVWXYZ").unwrap();
    let w = letters.encode("ABRACADABRA").unwrap();
    let n = UBig::from(26u8);
    let expect = RBig::from(n.pow(11) + n.pow(4) + n);
    assert_eq!(correlation::waiting_time(&letters, &w), expect);
    let race = Race::new(letters, &["ABRACADABRA"]).unwrap();
    assert_eq!(correlation_system::solve(&race).unwrap().expected, expect);
    assert_eq!(chain::solve(&race, 100).unwrap().expected, expect);
}
