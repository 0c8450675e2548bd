//! Value histograms of the hard octal games 0.014, 0.034, 0.161, 0.167 and 0.172 at N = 2^16 and
//! 2^20, as published by M. Rogalski (data/value_histograms.txt, heaps 1..=N counted).

mod common;

use std::collections::BTreeMap;

fn published() -> BTreeMap<(String, u64), BTreeMap<u32, u64>> {
    let mut out: BTreeMap<(String, u64), BTreeMap<u32, u64>> = BTreeMap::new();
    let mut current = None;
    for line in include_str!("../../../testdata/octal/value_histograms.txt").lines() {
        if let Some(rest) = line.strip_prefix("## ") {
            let mut it = rest.split_whitespace();
            let game = it.next().unwrap().to_string();
            let n: u64 = it.next().unwrap().parse().unwrap();
            current = Some((game, n));
            out.insert(current.clone().unwrap(), BTreeMap::new());
        } else if !line.starts_with('#') && !line.trim().is_empty() {
            let mut it = line.split_whitespace();
            let v: u32 = it.next().unwrap().parse().unwrap();
            let c: u64 = it.next().unwrap().parse().unwrap();
            out.get_mut(current.as_ref().unwrap()).unwrap().insert(v, c);
        }
    }
    out
}

fn check(game: &str) {
    let data = published();
    let code = common::code(game);
    let mut engine = grundy_sparse::Engine::new(&code).unwrap().with_threads(2);
    for n in [1u64 << 16, 1 << 20] {
        engine.advance(n + 1, &mut |_| true);
        let values = engine.values();
        let mut mine: BTreeMap<u32, u64> = BTreeMap::new();
        for &v in &values[1..=n as usize] {
            *mine.entry(v).or_default() += 1;
        }
        let want = &data[&(game.to_string(), n)];
        assert_eq!(&mine, want, "{game} at N = {n}");
        // The engine's own histogram counts heap 0 too.
        let h = engine.histogram();
        assert_eq!(h.iter().sum::<u64>(), n + 1);
    }
}

#[test]
fn octal_014() {
    check("0.014");
}
#[test]
fn octal_034() {
    check("0.034");
}
#[test]
fn octal_161() {
    check("0.161");
}
#[test]
fn octal_167() {
    check("0.167");
}
#[test]
fn octal_172() {
    check("0.172");
}
