//! A loopy Lua game through the catalogue's script entry, as `grundy analyze`, `grundy play`
//! and the web server's `POST /api/play` use it: Smith's values, draws, the moves that keep
//! them, the words of why, and the engine keeping a draw in play. Reference values: the header
//! of examples/games/clock.lua (the same game as windup:12:2,5).

use grundy::catalogue::script::ScriptEntry;
use grundy::catalogue::{Budget, Entry, Grundy, Play};
use grundy::play::Game;
use grundy::script::Limits;
use grundy::Outcome;

fn clock() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/games/clock.lua"
    ))
    .unwrap()
}

#[test]
fn the_catalogue_values_a_loopy_script() {
    let entry = ScriptEntry::new("clock.lua", &clock(), Limits::default()).unwrap();
    assert!(entry.info().loopy);
    let mut rules = entry.open("clock.lua").unwrap();
    let b = Budget::default();
    let pos = rules.parse("1").unwrap();
    let r = rules
        .analyze(&pos, &grundy::catalogue::Ask::new(Play::Normal).budget(b))
        .unwrap();
    assert_eq!(r.outcome, Outcome::D);
    assert_eq!(r.grundy, Some(Grundy::infinite([])));
    assert!(r.winning_moves.is_empty());
    let words = r.explanation.join("\n");
    assert!(words.contains("is a draw"), "{words}");
    assert!(words.contains("keeps the draw"), "{words}");
    let moves = rules
        .moves(&pos, &grundy::catalogue::Ask::new(Play::Normal).budget(b))
        .unwrap();
    assert_eq!(moves.len(), 2);
    assert!(moves.iter().all(|m| m.outcome == Outcome::D));
    // 9 o'clock: ∞(0), won by moving to 7.
    let pos = rules.parse("9").unwrap();
    let r = rules
        .analyze(&pos, &grundy::catalogue::Ask::new(Play::Normal).budget(b))
        .unwrap();
    assert_eq!(r.outcome, Outcome::N);
    assert_eq!(r.grundy, Some(Grundy::infinite([0])));
    assert_eq!(r.winning_moves.len(), 1);
    assert_eq!(r.winning_moves[0].to.text, "7");
    // Misère play of a loopy script is refused, not a hang.
    assert!(rules
        .analyze(&pos, &grundy::catalogue::Ask::new(Play::Misere).budget(b))
        .is_err());
}

#[test]
fn playing_a_loopy_script_keeps_the_draw() {
    let mut g = Game::script("clock.lua", &clock(), "1", Limits::default()).unwrap();
    let start = g.start().clone();
    let t = g.turn(&start).unwrap();
    assert_eq!(t.outcome, Outcome::D);
    assert!(!t.game_over);
    // The engine's reply keeps the draw.
    let reply = t.reply.expect("the engine moves");
    assert_eq!(reply.outcome, Outcome::D, "{}", reply.text);
}
