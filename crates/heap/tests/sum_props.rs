//! Winning moves of sums of heaps against brute force: every option of every heap is
//! enumerated, the value of the whole position after it computed as the XOR of its heaps'
//! values, and `winning_moves` must be exactly the options that leave XOR 0.

use grundy_heap::rule::{parse, Rule};
use grundy_heap::{engine, sum};
use proptest::prelude::*;

const RULES: &[&str] = &[
    "0.77",
    "0.137",
    "4!.0",
    "0.3F",
    "0.07",
    "0.[12]",
    "4.07",
    "sub:1,3,4",
    "allbut:2",
    "crosses",
    "dawsons-kayles",
    "treblecross",
];

/// (heap index, removed, leaves, position after) of a move.
type Move = (usize, u64, Vec<u64>, Vec<u64>);

fn brute_force(rule: &Rule, heaps: &[u64], values: &[u32]) -> Vec<Move> {
    let (base, shift) = rule.base_and_shift();
    let base_small = if shift > 0 {
        engine::sequence(base, shift).unwrap()
    } else {
        Vec::new()
    };
    let mut wins = Vec::new();
    for (i, &h) in heaps.iter().enumerate() {
        sum::for_each_move(rule, h, &base_small, |removed, leaves| {
            let mut to = heaps[..i].to_vec();
            to.extend_from_slice(leaves);
            to.extend_from_slice(&heaps[i + 1..]);
            if to.iter().fold(0, |x, &p| x ^ values[p as usize]) == 0 {
                wins.push((i, removed, leaves.to_vec(), to));
            }
        });
    }
    wins.sort();
    wins
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn winning_moves_are_exactly_the_options_of_value_0(
        rule in prop::sample::select(RULES),
        heaps in prop::collection::vec(0u64..=60, 1..=4),
    ) {
        let r = parse(rule).unwrap();
        let values = engine::sequence(&r, 60).unwrap();
        let a = sum::analyze(&r, &heaps, &values).unwrap();
        prop_assert_eq!(a.winning_leaves.len(), a.winning_moves.len());
        let mut got: Vec<Move> = a
            .winning_moves
            .iter()
            .zip(&a.winning_leaves)
            .map(|(m, leaves)| {
                let index = m.at["heap"].as_u64().unwrap() as usize;
                let removed = m.at["removed"].as_u64().unwrap();
                let to = m.to.data["heaps"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|h| h.as_u64().unwrap())
                    .collect();
                (index, removed, leaves.clone(), to)
            })
            .collect();
        got.sort();
        let want = brute_force(&r, &heaps, &values);
        prop_assert_eq!(&got, &want, "{} {:?}", rule, heaps);
        prop_assert_eq!(a.outcome == sum::Outcome::N, !want.is_empty(), "{} {:?}", rule, heaps);
        prop_assert!(a.unlisted_heaps.is_empty() && a.unchecked_heaps.is_empty());
        for (m, leaves) in a.winning_moves.iter().zip(&a.winning_leaves) {
            let index = m.at["heap"].as_u64().unwrap() as usize;
            prop_assert_eq!(m.at["from"].as_u64(), Some(heaps[index]));
            prop_assert_eq!(&m.at["leaves"], &serde_json::json!(leaves));
            let removed = m.at["removed"].as_u64().unwrap();
            prop_assert_eq!(removed + leaves.iter().sum::<u64>(), heaps[index], "{} {}", rule, m.text);
            prop_assert_eq!(m.outcome, sum::Outcome::P);
        }
    }

    /// The moves `for_each_move` lists (in natural sizes, shift applied) are the moves the
    /// engine valued: mex over them gives back G(h).
    #[test]
    fn moves_give_back_the_values(rule in prop::sample::select(RULES), h in 0u64..=60) {
        let r = parse(rule).unwrap();
        let values = engine::sequence(&r, 60).unwrap();
        let (base, shift) = r.base_and_shift();
        let base_small = if shift > 0 { engine::sequence(base, shift).unwrap() } else { Vec::new() };
        let mut seen = vec![false; 256];
        sum::for_each_move(&r, h, &base_small, |_, leaves| {
            let x = leaves.iter().fold(0, |x, &p| x ^ values[p as usize]) as usize;
            if x < seen.len() {
                seen[x] = true;
            }
        });
        let mex = seen.iter().position(|&s| !s).unwrap() as u32;
        prop_assert_eq!(mex, values[h as usize], "{} {}", rule, h);
    }
}

/// The case that was wrong: moves that raise a heap's value were skipped.
#[test]
fn kayles_7_9_12() {
    let r = parse("kayles").unwrap();
    let values = engine::sequence(&r, 12).unwrap();
    let a = sum::analyze(&r, &[7, 9, 12], &values).unwrap();
    let mut texts: Vec<String> = a.winning_moves.iter().map(|m| m.text.clone()).collect();
    texts.sort();
    assert_eq!(
        texts,
        vec![
            "from the heap of 12, remove 1 and split the rest into 2 + 9",
            "from the heap of 12, remove 1, leaving 11",
            "from the heap of 7, remove 1 and split the rest into 3 + 3",
            "from the heap of 7, remove 2 and split the rest into 1 + 4",
            "from the heap of 9, remove 2 and split the rest into 2 + 5",
        ]
    );
    assert_eq!(brute_force(&r, &[7, 9, 12], &values).len(), 5);
    // the example of docs/json.md (heap library results)
    let text = r#"{"heaps":[7,9,12],"heap_values":[2,4,4],"grundy":2,"outcome":"N",
 "winning_moves":[
  {"text":"from the heap of 7, remove 1 and split the rest into 3 + 3","short":"heap 0: 7 → 3+3",
   "to":{"kind":"heaps","text":"3 3 9 12","heaps":[3,3,9,12]},"outcome":"P","grundy":0,
   "at":{"from":7,"heap":0,"leaves":[3,3],"removed":1}},
  {"text":"from the heap of 7, remove 2 and split the rest into 1 + 4","short":"heap 0: 7 → 1+4",
   "to":{"kind":"heaps","text":"1 4 9 12","heaps":[1,4,9,12]},"outcome":"P","grundy":0,
   "at":{"from":7,"heap":0,"leaves":[1,4],"removed":2}},
  {"text":"from the heap of 9, remove 2 and split the rest into 2 + 5","short":"heap 1: 9 → 2+5",
   "to":{"kind":"heaps","text":"7 2 5 12","heaps":[7,2,5,12]},"outcome":"P","grundy":0,
   "at":{"from":9,"heap":1,"leaves":[2,5],"removed":2}},
  {"text":"from the heap of 12, remove 1, leaving 11","short":"heap 2: 12 → 11",
   "to":{"kind":"heaps","text":"7 9 11","heaps":[7,9,11]},"outcome":"P","grundy":0,
   "at":{"from":12,"heap":2,"leaves":[11],"removed":1}},
  {"text":"from the heap of 12, remove 1 and split the rest into 2 + 9","short":"heap 2: 12 → 2+9",
   "to":{"kind":"heaps","text":"7 9 2 9","heaps":[7,9,2,9]},"outcome":"P","grundy":0,
   "at":{"from":12,"heap":2,"leaves":[2,9],"removed":1}}],
 "unlisted_heaps":[],"unchecked_heaps":[]}"#;
    let want: serde_json::Value = serde_json::from_str(text).unwrap();
    assert_eq!(serde_json::to_value(&a).unwrap(), want);
}
