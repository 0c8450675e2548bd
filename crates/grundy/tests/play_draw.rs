//! A loopy game played to a draw through `grundy::play::Session`, as the terminal plays it:
//! both sides keep the draw, the position comes back a third time, and the game ends there.

use grundy::play::{Game, PlayError, Player, Session, DRAW_BY_REPETITION};
use grundy::Outcome;

#[test]
fn a_drawn_windup_game_ends_when_a_position_comes_back_three_times() {
    // windup:8:3,5 from 1: ∞ with K = ∅, a draw (every move goes to another drawn position).
    let game = Game::new("windup:8:3,5", "1").unwrap();
    let mut s = Session::new(game, Player::You);
    assert_eq!(s.turn().unwrap().outcome, Outcome::D);
    let mut plies = 0;
    while !s.drawn() {
        assert!(plies < 40, "no repetition after {plies} plies");
        let t = s.turn().unwrap();
        assert_eq!(t.outcome, Outcome::D, "both sides keep the draw");
        match s.to_move() {
            Player::You => {
                let keep = t.moves.iter().find(|m| m.outcome == Outcome::D).unwrap();
                s.play(&keep.to.text).unwrap();
            }
            Player::Engine => {
                let m = s.engine_move().unwrap();
                assert_eq!(
                    m.outcome,
                    Outcome::D,
                    "the engine keeps the draw: {}",
                    m.text
                );
            }
        }
        plies += 1;
    }
    // Eight positions, two players to move: a third visit comes within 2 · 8 · 2 + 1 plies.
    assert!(plies <= 33, "{plies}");
    let here = s.position_text();
    assert_eq!(s.log().count(), plies);
    assert!(matches!(
        s.play("#0"),
        Err(PlayError::GameOver) | Err(PlayError::NotYourTurn(_))
    ));
    assert!(matches!(
        s.engine_move(),
        Err(PlayError::GameOver) | Err(PlayError::NotYourTurn(_))
    ));
    assert_eq!(s.position_text(), here, "nothing moved after the draw");
    let json = serde_json::to_value(&s).unwrap();
    assert_eq!(json["drawn"], true);
    assert!(DRAW_BY_REPETITION.contains("with best play this game never ends"));
    // Taking moves back undoes the draw.
    assert!(s.undo());
    assert!(!s.drawn());
}

#[test]
fn a_game_without_repetition_is_never_drawn() {
    let game = Game::new("nim", "3 4 5").unwrap();
    let mut s = Session::new(game, Player::Engine);
    while s.winner().unwrap().is_none() {
        assert!(!s.drawn());
        match s.to_move() {
            Player::Engine => {
                s.engine_move().unwrap();
            }
            Player::You => {
                let t = s.turn().unwrap();
                s.play(&t.moves[0].to.text).unwrap();
            }
        }
    }
    assert!(!s.drawn());
}

#[test]
fn the_draw_rule_counts_only_positions_with_the_same_player_to_move() {
    use grundy::play::repeated_thrice;
    // Oldest first; the current position is "a". With four earlier positions, those at even
    // distance (indices 0 and 2) had the same player to move as now.
    assert!(repeated_thrice(&["a", "b", "a", "b"], "a"));
    assert!(
        !repeated_thrice(&["b", "a", "b", "a"], "a"),
        "the other player moved there"
    );
    assert!(!repeated_thrice(&["a", "b"], "a"), "second visit only");
    assert!(!repeated_thrice::<&str>(&[], "a"));
}

#[test]
fn a_stateless_turn_is_drawn_from_its_history() {
    // The web page's way: a turn and the positions before it.
    let mut g = Game::new("windup:8:3,5", "1").unwrap();
    let start = g.start().clone();
    let t = g.turn(&start).unwrap();
    assert!(!t.drawn);
    let history = ["1", "4", "1", "4"];
    let t = g.turn(&start).unwrap().after_history(&history);
    assert!(t.drawn);
    assert!(t.reply.is_none());
    assert_eq!(t.hint, DRAW_BY_REPETITION);
    assert_eq!(serde_json::to_value(&t).unwrap()["drawn"], true);
    // A session's turn says the same once its position stands for the third time.
    let mut s = Session::new(Game::new("windup:8:3,5", "1").unwrap(), Player::You);
    while !s.drawn() {
        let keep = s.turn().unwrap().reply.unwrap();
        match s.to_move() {
            Player::You => s.play(&keep.to.text).map(|_| ()).unwrap(),
            Player::Engine => s.engine_move().map(|_| ()).unwrap(),
        }
    }
    assert!(s.turn().unwrap().drawn);
}
