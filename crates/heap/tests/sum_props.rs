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
        let mut got: Vec<Move> = a
            .winning_moves
            .iter()
            .map(|m| (m.heap_index, m.removed, m.leaves.clone(), m.to.clone()))
            .collect();
        got.sort();
        let want = brute_force(&r, &heaps, &values);
        prop_assert_eq!(&got, &want, "{} {:?}", rule, heaps);
        prop_assert_eq!(a.outcome == sum::Outcome::N, !want.is_empty(), "{} {:?}", rule, heaps);
        prop_assert!(a.unlisted_heaps.is_empty() && a.unchecked_heaps.is_empty());
        for m in &a.winning_moves {
            prop_assert_eq!(m.heap, heaps[m.heap_index]);
            prop_assert_eq!(m.removed + m.leaves.iter().sum::<u64>(), m.heap, "{} {}", rule, m);
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
    let mut texts: Vec<String> = a.winning_moves.iter().map(|m| m.to_string()).collect();
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
  {"heap":0,"from":7,"removed":1,"leaves":[3,3],"to":[3,3,9,12],"text":"from the heap of 7, remove 1 and split the rest into 3 + 3"},
  {"heap":0,"from":7,"removed":2,"leaves":[1,4],"to":[1,4,9,12],"text":"from the heap of 7, remove 2 and split the rest into 1 + 4"},
  {"heap":1,"from":9,"removed":2,"leaves":[2,5],"to":[7,2,5,12],"text":"from the heap of 9, remove 2 and split the rest into 2 + 5"},
  {"heap":2,"from":12,"removed":1,"leaves":[11],"to":[7,9,11],"text":"from the heap of 12, remove 1, leaving 11"},
  {"heap":2,"from":12,"removed":1,"leaves":[2,9],"to":[7,9,2,9],"text":"from the heap of 12, remove 1 and split the rest into 2 + 9"}],
 "unlisted_heaps":[],"unchecked_heaps":[]}"#;
    let want: serde_json::Value = serde_json::from_str(text).unwrap();
    assert_eq!(serde_json::to_value(&a).unwrap(), want);
}
