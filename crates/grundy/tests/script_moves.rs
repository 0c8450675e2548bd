//! The moves of `grundy script FILE P…` (a sum of script positions) are the catalogue's one
//! `Move`: each `to` is the whole sum after the move, tagged `"script"`, and its text parses
//! back through the script's catalogue entry to a position of the outcome and value the move
//! claims — in normal play, in misère play, and for the moves that keep a loopy game's draw.

use grundy::catalogue::script::ScriptEntry;
use grundy::catalogue::{Budget, Entry, Play, Rules};
use grundy::script::{self, Limits, Position, Script};
use grundy::{Move, Outcome};

fn example(file: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/../../examples/games/{file}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

/// Parses `m.to.text` with the script's entry and checks the claimed outcome and value.
fn check_back(rules: &mut Box<dyn Rules>, m: &Move, play: Play) {
    assert_eq!(m.to.kind, "script", "{m:?}");
    let pos = rules.parse(&m.to.text).expect("to.text parses back");
    assert_eq!(pos.text, m.to.text, "printed as parsed");
    assert_eq!(pos.data["value"], m.to.data["value"], "{m:?}");
    let r = rules
        .analyze(
            &pos,
            &grundy::catalogue::Ask::new(play).budget(Budget::default()),
        )
        .expect("analyses");
    assert_eq!(r.outcome, m.outcome, "{}: {m:?}", m.to.text);
    assert_eq!(r.grundy, m.grundy, "{}", m.to.text);
}

fn ints(xs: &[i64]) -> Vec<Position> {
    xs.iter().map(|&x| Position::Int(x)).collect()
}

#[test]
fn a_sum_of_kayles_positions_moves_to_a_sum_that_parses_back() {
    let src = example("kayles.lua");
    let entry = ScriptEntry::new("kayles.lua", &src, Limits::default()).unwrap();
    let mut rules = entry.open("kayles.lua").unwrap();
    let s = Script::load("kayles.lua", &src, Limits::default()).unwrap();
    let a = s.analyze(&ints(&[7, 9, 12]), script::Play::Normal).unwrap();
    assert_eq!(a.outcome, Outcome::N);
    assert!(!a.winning_moves.is_empty());
    for m in &a.winning_moves {
        assert_eq!(m.outcome, Outcome::P);
        assert!(m.to.text.starts_with("sum("), "{m:?}");
        check_back(&mut rules, m, Play::Normal);
    }
    // The move "in part 3: 12 → 0 + 11" (kayles: take one pin from the end of 12 leaves
    // 11, or a pin next to it leaves 1 + 10, …): `at` says where, `to` the whole sum.
    let m = a
        .winning_moves
        .iter()
        .find(|m| m.text == "in part 3: 12 → 0 + 11")
        .expect("listed");
    assert_eq!(m.at["component"], 2);
    assert_eq!(m.at["from"], 12);
    assert_eq!(m.at["leaves"], serde_json::json!({"sum": [0, 11]}));
    assert_eq!(m.to.text, "sum(0, 7, 9, 11)");
    assert_eq!(
        m.to.data["value"],
        serde_json::json!({"sum": [0, 7, 9, 11]})
    );
    assert_eq!(m.grundy, Some(grundy::Grundy::Finite(0)));
    // One position: `to` is the part it leaves.
    let a = s.analyze(&ints(&[5]), script::Play::Normal).unwrap();
    for m in &a.winning_moves {
        assert!(!m.text.starts_with("in part"), "{m:?}");
        check_back(&mut rules, m, Play::Normal);
    }
}

#[test]
fn misere_moves_parse_back_with_their_outcome() {
    let src = example("kayles.lua");
    let entry = ScriptEntry::new("kayles.lua", &src, Limits::default()).unwrap();
    let mut rules = entry.open("kayles.lua").unwrap();
    let s = Script::load("kayles.lua", &src, Limits::default()).unwrap();
    let mut checked = 0;
    for parts in [&[2, 3, 5][..], &[4, 5], &[1, 2, 3], &[6, 7]] {
        let a = s.analyze(&ints(parts), script::Play::Misere).unwrap();
        for m in &a.winning_moves {
            assert_eq!((m.outcome, m.grundy.as_ref()), (Outcome::P, None));
            check_back(&mut rules, m, Play::Misere);
            checked += 1;
        }
    }
    assert!(checked > 0);
}

#[test]
fn a_drawn_sum_of_clocks_lists_moves_that_keep_the_draw() {
    // Clock (windup:12:2,5): 1 o'clock is ∞ (a draw), 9 is ∞(0); together ∞, a draw.
    let src = example("clock.lua");
    let entry = ScriptEntry::new("clock.lua", &src, Limits::default()).unwrap();
    let mut rules = entry.open("clock.lua").unwrap();
    let s = Script::load("clock.lua", &src, Limits::default()).unwrap();
    let a = s.analyze(&ints(&[1, 9]), script::Play::Normal).unwrap();
    assert_eq!(a.outcome, Outcome::D);
    assert!(!a.drawing_moves.is_empty());
    for m in &a.drawing_moves {
        assert_eq!(m.outcome, Outcome::D);
        check_back(&mut rules, m, Play::Normal);
    }
    // 9 alone is won by moving to 7; `to` is "7".
    let a = s.analyze(&ints(&[9]), script::Play::Normal).unwrap();
    assert_eq!(a.winning_moves.len(), 1);
    assert_eq!(a.winning_moves[0].to.text, "7");
    check_back(&mut rules, &a.winning_moves[0], Play::Normal);
}
