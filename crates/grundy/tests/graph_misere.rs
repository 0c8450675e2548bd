//! Misère Node Kayles and Arc Kayles through the catalogue, against facts nobody here wrote:
//! Arc Kayles on a path is Dawson's Kayles (0.07), whose misère values CGSuite publishes
//! (`testdata/cgsuite/heap_sequences.txt`), and Node Kayles on a path is Dawson's Chess
//! (0.137), valued by the heap engine's misère search, a separate program.

use grundy::catalogue::{analyze, Budget, Play};
use grundy::Outcome;

/// CGSuite's misère values of 0.07 for heaps 0..=20.
fn dawsons_kayles_misere() -> Vec<u64> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/cgsuite/heap_sequences.txt"
    ))
    .unwrap();
    let block = text
        .split("ruleset: game.heap.DawsonsKayles")
        .nth(1)
        .unwrap();
    let line = block
        .lines()
        .find_map(|l| l.strip_prefix("misere[0..20]:"))
        .unwrap();
    line.split(',').map(|v| v.trim().parse().unwrap()).collect()
}

fn misere(game: &str, position: &str) -> grundy::catalogue::Report {
    analyze(game, position, Play::Misere, &Budget::DEFAULT)
        .unwrap_or_else(|e| panic!("{game} {position}: {e}"))
}

#[test]
fn misere_arc_kayles_on_paths_is_cgsuites_misere_dawsons_kayles() {
    for (n, v) in dawsons_kayles_misere().into_iter().enumerate().skip(1) {
        let want = if v == 0 { Outcome::P } else { Outcome::N };
        let r = misere("arc-kayles", &format!("path:{n}"));
        assert_eq!(r.outcome, want, "arc-kayles path:{n}");
        // A path of one vertex has no move (N, nothing to list); otherwise N lists its wins.
        let stuck = n == 1;
        assert_eq!(
            r.winning_moves.is_empty(),
            want == Outcome::P || stuck,
            "path:{n}"
        );
    }
}

#[test]
fn misere_node_kayles_on_paths_is_misere_dawsons_chess() {
    for n in 1..=16 {
        let graph = misere("node-kayles", &format!("path:{n}"));
        let heap = misere("dawsons-chess", &n.to_string());
        assert_eq!(graph.outcome, heap.outcome, "path:{n}");
        // Counts may differ: the graph lists `path` + an isolated vertex and the mirror image
        // as two moves, the heap game lists the heaps {4, 1} once.
        assert_eq!(
            graph.winning_moves.is_empty(),
            heap.winning_moves.is_empty(),
            "path:{n}"
        );
    }
}

#[test]
fn every_misere_winning_move_leaves_a_misere_p_position() {
    for (game, pos) in [
        ("node-kayles", "cycle:9"),
        ("node-kayles", "grid:2x4"),
        ("node-kayles", "star:4"),
        ("arc-kayles", "grid:3x3"),
        ("arc-kayles", "0-1,1-2,2-0,2-3,3-3"),
    ] {
        let r = misere(game, pos);
        assert!(r.misere);
        assert!(
            r.grundy.is_none(),
            "{game} {pos}: no nim value in misère play"
        );
        for m in &r.winning_moves {
            let after = misere(game, &m.to.text);
            assert_eq!(after.outcome, Outcome::P, "{game} {pos}: {}", m.text);
        }
        // The position is N exactly when it has a winning move or no move at all.
        let n = !r.winning_moves.is_empty() || r.moves == Some(0);
        assert_eq!(r.outcome == Outcome::N, n, "{game} {pos}");
    }
}

#[test]
fn a_misere_graph_past_the_budget_is_a_limit() {
    let small = Budget {
        max_positions: 50,
        ..Budget::DEFAULT
    };
    let e = analyze("node-kayles", "grid:4x4", Play::Misere, &small).unwrap_err();
    assert!(e.is_limit(), "{e}");
}
