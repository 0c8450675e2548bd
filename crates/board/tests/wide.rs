//! Node Kayles and Arc Kayles past the engine's 128 vertices through the catalogue (the door
//! of `grundy analyze`, Python and the web): the expansion answers at every detail, against
//! OEIS A002187 (Node Kayles on a path is Dawson's Chess) and A344227 (the queens graphs);
//! its memo is the `table` file; budgets, stops and misère play end in one-line errors.

use grundy_core::catalogue::{Ask, Detail, ErrorKind, Play, Report, Rules};
use grundy_core::{Budget, Grundy};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

mod check;

fn open(game: &str) -> Box<dyn Rules> {
    grundy_board::catalogue::entries()
        .into_iter()
        .find(|e| e.matches(game))
        .unwrap()
        .open(game)
        .unwrap()
}

fn ask(game: &str, text: &str, ask: &Ask) -> Result<Report, grundy_core::catalogue::Error> {
    let mut rules = open(game);
    let pos = rules.parse(text)?;
    rules.analyze(&pos, ask)
}

fn value(r: &Report) -> u64 {
    match r.grundy {
        Some(Grundy::Finite(g)) => g,
        ref g => panic!("{g:?}"),
    }
}

fn scratch(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("grundy-board-wide-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

fn dawson() -> Vec<u64> {
    check::terms(include_str!("../../../testdata/oeis/A002187.txt"))
        .into_iter()
        .map(|(_, v)| v)
        .collect()
}

#[test]
fn a_path_past_128_vertices_is_valued_with_every_option() {
    let d = dawson();
    assert!(d.len() > 131, "A002187 holds a(0..=131)");
    let r = ask(
        "node-kayles",
        "path:131",
        &Ask::new(Play::Normal).detail(Detail::All),
    )
    .unwrap();
    assert_eq!(value(&r), d[131]);
    assert_eq!(r.position.data["vertices"], 131);
    assert_eq!(
        r.position.data["layout"]["grid"],
        serde_json::json!([1, 131])
    );
    assert!(r.details["leaves"].as_u64().unwrap() > 0);
    assert_eq!(r.all_moves.len(), 131);
    for (v, m) in r.all_moves.iter().enumerate() {
        // Taking vertex v leaves paths of v - 1 and 129 - v vertices.
        let (a, b) = (v.saturating_sub(1), 131 - (v + 2).min(131));
        assert_eq!(m.grundy, Some(Grundy::Finite(d[a] ^ d[b])), "{}", m.text);
        assert_eq!(m.to.data["vertices"], (a + b) as u64);
        // The picture keeps each vertex where it stood.
        let kept = m.at["kept"].as_array().unwrap();
        assert_eq!(kept.len(), a + b);
        assert!(kept
            .iter()
            .all(|k| k.as_u64().unwrap().abs_diff(v as u64) > 1));
    }
    let winning: Vec<&str> = r.winning_moves.iter().map(|m| m.text.as_str()).collect();
    let zero: Vec<&str> = r
        .all_moves
        .iter()
        .filter(|m| m.grundy == Some(Grundy::Finite(0)))
        .map(|m| m.text.as_str())
        .collect();
    assert!(!winning.is_empty());
    assert_eq!(winning, zero);
    // The question for winning moves asks each option "P?" only, and finds the same.
    let w = ask("node-kayles", "path:131", &Ask::new(Play::Normal)).unwrap();
    let found: Vec<&str> = w.winning_moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(found, winning);
    assert_eq!(w.moves, Some(131));
}

/// Dawson's Chess past the b-file's last term by its period: A002187 is periodic with period
/// 34 from n = 52 on (Guy and Smith, 1956), which the b-file's own terms 52..=131 show.
fn dawson_at(d: &[u64], n: usize) -> u64 {
    assert!(
        (86..d.len()).all(|i| d[i] == d[i - 34]),
        "period 34 in the b-file"
    );
    if n < d.len() {
        d[n]
    } else {
        d[52 + (n - 52) % 34]
    }
}

/// A sparse graph past 128 vertices falls apart into components, as the engine's positions
/// do: the expansion values each apart (its largest asked the question with the heap
/// adjusted), and a path's pieces and a cycle's arcs are keyed by their length, so long paths
/// and cycles under both rules and 300 lone vertices are answered in seconds, not expanded
/// level by level.
#[test]
fn sparse_graphs_past_128_vertices_fall_apart_into_components() {
    let d = dawson();
    let value_only = Ask::new(Play::Normal).detail(Detail::Value);
    for n in [200, 333, 700] {
        let r = ask("node-kayles", &format!("path:{n}"), &value_only).unwrap();
        assert_eq!(value(&r), dawson_at(&d, n), "path:{n}");
    }
    // A cycle's first move leaves a path of n - 3 (Node Kayles) or n - 2 (Arc Kayles, Dawson's
    // Kayles of n - 2 = Dawson's Chess of n - 3): the cycle is 0 unless that path is.
    for (game, n) in [
        ("node-kayles", 300),
        ("node-kayles", 301),
        ("node-kayles", 143),
    ]
    .into_iter()
    .chain([("arc-kayles", 400), ("arc-kayles", 146)])
    {
        let r = ask(game, &format!("cycle:{n}"), &value_only).unwrap();
        let want = u64::from(dawson_at(&d, n - 3) == 0);
        assert_eq!(value(&r), want, "{game} cycle:{n}");
    }
    // Lone vertices: one move each.
    for n in [300usize, 301] {
        let r = ask("node-kayles", &format!("{n}:"), &value_only).unwrap();
        assert_eq!(value(&r), n as u64 % 2, "{n} lone vertices");
    }
    // Arc Kayles on a path of n vertices is Dawson's Kayles (0.07), Dawson's Chess of n - 1.
    let r = ask("arc-kayles", "path:500", &value_only).unwrap();
    assert_eq!(value(&r), dawson_at(&d, 499), "arc-kayles path:500");
    // The winning moves of a path of 200: each leaves two paths of equal Dawson values.
    let r = ask("node-kayles", "path:200", &Ask::new(Play::Normal)).unwrap();
    assert!(!r.winning_moves.is_empty());
    for m in &r.winning_moves {
        let v: usize = m.text["take vertex ".len()..]
            .split(',')
            .next()
            .and_then(|v| v.parse().ok())
            .unwrap();
        let (a, b) = (v.saturating_sub(1), 200 - (v + 2).min(200));
        assert_eq!(dawson_at(&d, a), dawson_at(&d, b), "{}", m.text);
    }
}

#[test]
fn the_queens_graph_past_11_gives_a344227() {
    let terms = check::terms(include_str!("../../../testdata/oeis/A344227.txt"));
    let (_, want) = terms.into_iter().find(|&(n, _)| n == 12).unwrap();
    let r = ask(
        "node-kayles",
        "queens:12",
        &Ask::new(Play::Normal).detail(Detail::Value),
    )
    .unwrap();
    assert_eq!(value(&r), want);
    assert_eq!(r.position.text, "queens:12");
    assert_eq!(
        r.position.data["layout"]["grid"],
        serde_json::json!([12, 12])
    );
}

#[test]
fn arc_kayles_past_128_vertices() {
    // A perfect matching of 65 or 66 edges: each edge is *1 in Arc Kayles and in Node Kayles.
    for (k, want) in [(65usize, 1u64), (66, 0)] {
        let edges: Vec<String> = (0..k).map(|i| format!("{}-{}", 2 * i, 2 * i + 1)).collect();
        let text = edges.join(",");
        for game in ["arc-kayles", "node-kayles"] {
            let r = ask(game, &text, &Ask::new(Play::Normal).detail(Detail::All)).unwrap();
            assert_eq!(value(&r), want, "{game} {k} edges");
            let moves = if game == "arc-kayles" { k } else { 2 * k };
            assert_eq!(r.all_moves.len(), moves, "{game}");
            // Every move leaves one edge fewer: 128 vertices or 130, the engine's or not.
            for m in &r.all_moves {
                assert_eq!(m.to.data["vertices"], (2 * k - 2) as u64);
                assert_eq!(m.grundy, Some(Grundy::Finite(1 - want)));
            }
        }
    }
}

#[test]
fn the_table_file_is_the_expansions_memo() {
    let table = scratch("memo");
    let o = Ask::new(Play::Normal)
        .detail(Detail::Value)
        .set("table", table.to_string_lossy());
    let first = ask("node-kayles", "path:130", &o).unwrap();
    assert_eq!(first.details["resumed"], 0);
    let text = std::fs::read_to_string(&table).unwrap();
    assert!(text.starts_with("grundy-board expansion node-kayles path:130 leaf 128\n"));
    let second = ask("node-kayles", "path:130", &o).unwrap();
    assert_eq!(value(&second), value(&first));
    assert!(second.details["resumed"].as_u64().unwrap() > 0);
    assert_eq!(second.details["leaves"], 0);
    // Another graph's memo, an engine's table or junk is refused in one line.
    let e = ask("node-kayles", "path:131", &o).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Input, "{e}");
    assert!(e.to_string().contains("path:130"), "{e}");
    let small = Ask::new(Play::Normal).set("table", table.to_string_lossy());
    let _ = std::fs::remove_file(&table);
    ask("node-kayles", "path:20", &small).unwrap();
    for junk in [None, Some(&b"hello\n"[..]), Some(&b"\xff\xfe\0binary"[..])] {
        if let Some(j) = junk {
            std::fs::write(&table, j).unwrap();
        }
        let e = ask("node-kayles", "path:130", &o).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Input, "{e}");
        assert!(!e.to_string().contains('\n'), "{e}");
    }
    let _ = std::fs::remove_file(&table);
}

#[test]
fn budgets_stops_and_misere_play_are_one_line_errors() {
    let value_only = Ask::new(Play::Normal).detail(Detail::Value);
    let e = ask(
        "node-kayles",
        "queens:13",
        &value_only.clone().budget(Budget::positions(1000)),
    )
    .unwrap_err();
    assert!(e.is_limit(), "{e}");
    assert_eq!(e.parameter, Some("max_positions"));
    assert!(e.to_string().contains("queens:13"), "{e}");
    // The memo and the option lists count against the memory cap (a quarter of it: 256 KiB
    // of 1 MiB): Arc Kayles on the complete graph K200, given no symmetry, has 19 900
    // options, each its own key, in the first list.
    let e = ask(
        "arc-kayles",
        "complete:200",
        &value_only.clone().budget(Budget::new(u64::MAX, 1 << 20)),
    )
    .unwrap_err();
    assert!(e.is_limit(), "{e}");
    assert_eq!(e.parameter, Some("max_bytes"));
    assert!(!e.to_string().contains('\n'), "{e}");
    let stop = Arc::new(AtomicBool::new(true));
    let e = ask("node-kayles", "queens:13", &value_only.clone().stop(stop)).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Stopped, "{e}");
    let e = ask("node-kayles", "queens:13", &Ask::new(Play::Misere)).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Input, "{e}");
    assert!(e.to_string().contains("misère"), "{e}");
    for bad in ["queens:33", "1025:0-1", "0-2000", "grid:40x40"] {
        let e = open("node-kayles").parse(bad).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Input, "{bad}");
        assert!(e.to_string().contains("at most 1024"), "{bad}: {e}");
    }
}

/// Each move's position, read back and valued, has the value the move reports: the graph a
/// move leaves is the game left (Arc Kayles keeps a vertex with a loop, which a move can still
/// delete, and drops one with neither loop nor neighbour), below 128 vertices and past it.
#[test]
fn the_graph_a_move_leaves_is_the_game_left() {
    let wide_loops: Vec<String> = (0..66)
        .map(|i| format!("{}-{}", 2 * i, 2 * i + 1))
        .chain((0..4).map(|i| format!("{i}-{i}")))
        .collect();
    let wide_loops = wide_loops.join(",");
    for (game, text) in [
        ("arc-kayles", "0-0,1-1,0-1"),
        ("arc-kayles", "0-0,0-1,1-2,2-2,3-3"),
        ("node-kayles", "0-0,0-1,1-2"),
        ("arc-kayles", wide_loops.as_str()),
    ] {
        let r = ask(game, text, &Ask::new(Play::Normal).detail(Detail::All)).unwrap();
        for m in &r.all_moves {
            let again = ask(
                game,
                &m.to.text,
                &Ask::new(Play::Normal).detail(Detail::Value),
            );
            assert_eq!(again.unwrap().grundy, m.grundy, "{game} {text}: {}", m.text);
        }
    }
}
