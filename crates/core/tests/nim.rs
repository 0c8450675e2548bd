//! Nim and misère Nim in closed form: against the generic solver on every small position,
//! against the competitive-programming examples in `data/cp_games_reference.txt` (a copy of
//! `shared/data/games/`), and the streaming parser against whole-buffer parsing.

use grundy_core::nim::{
    analyze, explain, nim_move, parse_heap, parse_heaps, winning_moves, HeapError, HeapParser,
    NimAnalysis, NimGame, NimStream, Play, JSON_LISTED_MOVES, JSON_LISTED_SIZES,
};
use grundy_core::{Move, Outcome, Solver};
use proptest::prelude::*;

const CP: &str = include_str!("../../../testdata/games/cp_games_reference.txt");

/// The analysis without its heaps: what a counting stream gives.
fn summary(a: &NimAnalysis) -> NimAnalysis {
    NimAnalysis {
        heaps: None,
        ..a.clone()
    }
}

/// A size of a move's `at`: a JSON number, or a decimal string above 2^53.
fn size(v: &serde_json::Value) -> u64 {
    match v {
        serde_json::Value::String(s) => s.parse().unwrap(),
        v => v.as_u64().unwrap(),
    }
}

/// A move's (heap, from, left), from its `at`.
fn step(m: &Move) -> (usize, u64, u64) {
    let heap = m.at["heap"].as_u64().unwrap() as usize;
    (heap, size(&m.at["from"]), size(&m.at["left"]))
}

/// The position a move leaves, read back from its `to.text`, checked against `heaps` and the
/// move's `at` and the `to`'s own `heaps` field.
fn apply(heaps: &[u64], m: &Move) -> Vec<u64> {
    let (heap, from, left) = step(m);
    assert_eq!(heaps[heap], from);
    assert_eq!(size(&m.at["removed"]), from - left);
    let mut p = heaps.to_vec();
    p[heap] = left;
    let read: Vec<u64> = m.to.text.split(' ').map(|t| t.parse().unwrap()).collect();
    assert_eq!(read, p, "{}", m.to.text);
    assert_eq!(m.to.kind, "heaps");
    let field: Vec<u64> = m.to.data["heaps"]
        .as_array()
        .unwrap()
        .iter()
        .map(size)
        .collect();
    assert_eq!(field, p);
    assert!(m.short.chars().count() <= 30);
    p
}

#[test]
fn closed_form_matches_solver_up_to_4_heaps_of_7() {
    let mut solver = Solver::new(NimGame);
    let mut positions = vec![vec![]];
    let mut layer: Vec<Vec<u64>> = vec![vec![]];
    for _ in 0..4 {
        layer = layer
            .iter()
            .flat_map(|p| (0..=7).map(move |h| [p.clone(), vec![h]].concat()))
            .collect();
        positions.extend(layer.iter().cloned());
    }
    assert_eq!(positions.len(), 1 + 8 + 64 + 512 + 4096);
    for p in &positions {
        for play in [Play::Normal, Play::Misere] {
            let a = analyze(p, play);
            let mut closed: Vec<Vec<u64>> =
                winning_moves(p, play).iter().map(|m| apply(p, m)).collect();
            let (outcome, mut searched) = match play {
                Play::Normal => (solver.outcome(p), solver.winning_moves(p)),
                Play::Misere => (solver.misere_outcome(p), solver.misere_winning_moves(p)),
            };
            assert_eq!(a.outcome, outcome, "{play:?} {p:?}");
            closed.sort();
            searched.sort();
            assert_eq!(closed, searched, "{play:?} {p:?}");
            assert_eq!(a.winning_move_count, closed.len() as u64);
            let mut counting = NimStream::counting();
            p.iter().for_each(|&h| counting.push(h));
            assert_eq!(
                counting.finish(play).winning_move_count,
                a.winning_move_count
            );
        }
    }
}

/// Parses "[1, 2, 3]->answer" items from the line that starts with `label`.
fn examples(label: &str) -> Vec<(Vec<u64>, String)> {
    let line = CP
        .lines()
        .find(|l| l.trim_start().starts_with(label))
        .expect(label);
    let body = line.split_once(':').unwrap().1;
    body.split(';')
        .map(|item| {
            let (heaps, answer) = item.split_once("->").unwrap();
            let heaps = heaps.trim().trim_matches(|c| c == '[' || c == ']');
            let heaps = heaps
                .split(',')
                .map(|h| h.trim().parse().unwrap())
                .collect();
            (heaps, answer.trim().to_string())
        })
        .collect()
}

#[test]
fn competitive_programming_examples() {
    // koosaga moves first; "koosaga" means the player to move wins.
    let winner = |o: Outcome| {
        if o == Outcome::N {
            "koosaga"
        } else {
            "cubelover"
        }
    };
    let normal = examples("11868 normal Nim examples");
    assert_eq!(normal.len(), 8);
    for (heaps, answer) in &normal {
        assert_eq!(
            winner(analyze(heaps, Play::Normal).outcome),
            answer,
            "{heaps:?}"
        );
    }
    let misere = examples("same positions under misere (11694)");
    assert_eq!(misere.len(), 8);
    for (heaps, answer) in &misere {
        assert_eq!(
            winner(analyze(heaps, Play::Misere).outcome),
            answer,
            "{heaps:?}"
        );
    }
    let counts = examples("16895 winning first moves count");
    assert_eq!(counts.len(), 6);
    for (heaps, answer) in &counts {
        let a = analyze(heaps, Play::Normal);
        assert_eq!(a.winning_move_count.to_string(), *answer, "{heaps:?}");
        assert_eq!(
            winning_moves(heaps, Play::Normal).len().to_string(),
            *answer
        );
    }
}

#[test]
fn textbook_example_and_misere_endgames() {
    let heaps = [10, 12, 5];
    let a = analyze(&heaps, Play::Normal);
    assert_eq!((a.nim_sum, a.outcome), (3, Outcome::N));
    let steps = |h: &[u64], play| winning_moves(h, play).iter().map(step).collect::<Vec<_>>();
    assert_eq!(steps(&heaps, Play::Normal), vec![(0, 10, 9)]);
    let text = explain(&a, Some(&heaps), 50);
    assert!(text.contains("10 = 1010"), "{text}");
    assert!(text.contains("nim-sum:   3 = 0011"), "{text}");
    assert!(text.contains("10 ⊕ 3 = 9"), "{text}");

    assert_eq!(steps(&[1, 1, 2], Play::Misere), vec![(2, 2, 1)]);
    assert_eq!(steps(&[1, 2], Play::Misere), vec![(1, 2, 0)]);
    assert_eq!(winning_moves(&[1, 0, 1], Play::Misere).len(), 2);
    assert_eq!(analyze(&[1, 1, 1], Play::Misere).outcome, Outcome::P);
    assert_eq!(analyze(&[], Play::Misere).outcome, Outcome::N);
    assert_eq!(analyze(&[0, 0], Play::Normal).outcome, Outcome::P);
    let big = [u64::MAX, 1];
    assert_eq!(steps(&big, Play::Normal), vec![(0, u64::MAX, 1)]);
    assert!(explain(&analyze(&[1, 1, 2], Play::Misere), Some(&[1, 1, 2]), 50).contains("odd"));
}

#[test]
fn parser_errors_name_the_token() {
    let parse = |s: &str| parse_heaps(s.as_bytes(), |_| {});
    assert_eq!(parse(" 1 2\n3\t"), Ok(3));
    assert_eq!(parse(""), Ok(0));
    assert_eq!(
        parse("1 abc 3"),
        Err(HeapError::NotANumber {
            index: 1,
            token: "abc".into()
        })
    );
    assert_eq!(
        parse("-3"),
        Err(HeapError::Negative {
            index: 0,
            token: "-3".into()
        })
    );
    assert_eq!(parse("18446744073709551615"), Ok(1));
    assert_eq!(
        parse("7 18446744073709551616"),
        Err(HeapError::TooLarge {
            index: 1,
            token: "18446744073709551616".into()
        })
    );
    assert!(matches!(parse("12x"), Err(HeapError::NotANumber { .. })));
    assert!(matches!(parse("1.5"), Err(HeapError::NotANumber { .. })));
    // A sign is part of the count grammar every door shares (`+5` is 5, `-5` is refused).
    assert!(parse("+5").is_ok());
    let long = "9".repeat(200);
    assert!(matches!(parse(&long), Err(HeapError::TooLarge { .. })));
    assert_eq!(parse_heap(b"00042", 0), Ok(42));
    let msg = HeapError::Negative {
        index: 4,
        token: "-3".into(),
    }
    .to_string();
    assert!(msg.contains("'-3'"), "{msg}");
}

#[test]
fn long_tokens_split_across_chunks_are_reported() {
    let text = format!("1 {} 2", "x".repeat(500));
    let mut p = HeapParser::new();
    let mut err = None;
    for chunk in text.as_bytes().chunks(7) {
        if let Err(e) = p.feed(chunk, &mut |_| {}) {
            err = Some(e);
            break;
        }
    }
    match err {
        Some(HeapError::NotANumber { index: 1, token }) => assert!(token.starts_with("xxxx")),
        other => panic!("{other:?}"),
    }
}

proptest! {
    /// Any chunking of the input gives the same heaps as one whole buffer.
    #[test]
    fn chunked_parsing_matches_whole(
        heaps in proptest::collection::vec(any::<u64>(), 0..40),
        seps in proptest::collection::vec(prop_oneof![Just(" "), Just("\n"), Just("\t "), Just("  \r\n")], 40),
        chunk in 1usize..30,
    ) {
        let mut text = String::new();
        for (h, s) in heaps.iter().zip(&seps) {
            text.push_str(&h.to_string());
            text.push_str(s);
        }
        let mut whole = Vec::new();
        parse_heaps(text.as_bytes(), |h| whole.push(h)).unwrap();
        prop_assert_eq!(&whole, &heaps);
        let mut parts = Vec::new();
        let mut p = HeapParser::new();
        for c in text.as_bytes().chunks(chunk) {
            p.feed(c, &mut |h| parts.push(h)).unwrap();
        }
        prop_assert_eq!(p.finish(&mut |h| parts.push(h)).unwrap(), heaps.len() as u64);
        prop_assert_eq!(&parts, &heaps);
    }

    /// The counting stream (no heaps kept) agrees with the full analysis; every listed move
    /// leaves a losing position for the opponent, and every other move does not.
    #[test]
    fn streams_agree_and_moves_are_exactly_the_winning_ones(
        heaps in proptest::collection::vec(prop_oneof![0u64..4, 0u64..40, any::<u64>()], 0..7),
        misere: bool,
    ) {
        let play = if misere { Play::Misere } else { Play::Normal };
        let a = analyze(&heaps, play);
        let mut c = NimStream::counting();
        heaps.iter().for_each(|&h| c.push(h));
        prop_assert_eq!(&c.finish(play), &summary(&a));
        let moves = winning_moves(&heaps, play);
        prop_assert_eq!(moves.len() as u64, a.winning_move_count);
        for m in &moves {
            prop_assert_eq!(analyze(&apply(&heaps, m), play).outcome, Outcome::P);
        }
        // A few other moves per heap: none of them wins.
        for (i, &h) in heaps.iter().enumerate() {
            for to in [0, 1, h / 2, h.saturating_sub(1)] {
                if to < h && !moves.iter().any(|m| step(m) == (i, h, to)) {
                    let mut p = heaps.clone();
                    p[i] = to;
                    prop_assert_eq!(analyze(&p, play).outcome, Outcome::N);
                }
            }
        }
    }
}

#[test]
fn counting_stream_on_many_heaps() {
    let mut x = 0x1234_5678_9abc_def0u64;
    let mut heaps = Vec::new();
    for i in 0..5000u64 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        heaps.push(if i % 3 == 0 { x } else { x >> (i % 60) });
    }
    for play in [Play::Normal, Play::Misere] {
        let a = analyze(&heaps, play);
        let mut c = NimStream::counting();
        heaps.iter().for_each(|&h| c.push(h));
        assert_eq!(c.finish(play), summary(&a));
        assert_eq!(
            a.winning_move_count,
            winning_moves(&heaps, play).len() as u64
        );
        assert!(a.winning_move_count > 500, "{}", a.winning_move_count);
    }
}

/// Parses `text` fed in chunks of `chunk` bytes: the heaps before the first error, and the
/// count or that error.
fn parse_chunked(text: &[u8], chunk: usize) -> (Vec<u64>, Result<u64, HeapError>) {
    let mut heaps = Vec::new();
    let mut p = HeapParser::new();
    for c in text.chunks(chunk) {
        if let Err(e) = p.feed(c, &mut |h| heaps.push(h)) {
            return (heaps, Err(e));
        }
    }
    let r = p.finish(&mut |h| heaps.push(h));
    (heaps, r)
}

proptest! {
    /// Any input, cut anywhere, parses exactly as the whole buffer does: the same heaps, and
    /// the same error naming the same token (long tokens included); never a panic.
    #[test]
    fn chunking_never_changes_the_answer(
        parts in proptest::collection::vec(
            prop_oneof![
                "[0-9]{1,25}",
                "-[0-9]{1,3}",
                "[0-9a-z.+-]{1,4}",
                "[0-9]{60,90}",
                "[0-9]{50,70}[a-z]",
                "-[0-9]{70}",
                "[ \t\n\r]{1,3}",
            ],
            0..12,
        ),
        chunk in 1usize..50,
    ) {
        let text = parts.join(" ");
        let whole = parse_chunked(text.as_bytes(), text.len().max(1));
        let mut heaps = Vec::new();
        let direct = parse_heaps(text.as_bytes(), |h| heaps.push(h));
        prop_assert_eq!(&whole, &(heaps, direct));
        prop_assert_eq!(parse_chunked(text.as_bytes(), chunk), whole);
    }
}

proptest! {
    /// Brute force: the winning moves (Bouton's rule, and Bouton's misère rule) are exactly
    /// the options that the generic solver, searching the game, finds to be P-positions; the
    /// outcome agrees too.
    #[test]
    fn winning_moves_are_exactly_the_moves_to_p_positions(
        heaps in proptest::collection::vec(0u64..12, 0..5),
        misere: bool,
    ) {
        let play = Play::from_misere(misere);
        let a = analyze(&heaps, play);
        let mut solver = Solver::new(NimGame);
        let (outcome, mut want) = if misere {
            (solver.misere_outcome(&heaps), solver.misere_winning_moves(&heaps))
        } else {
            (solver.outcome(&heaps), solver.winning_moves(&heaps))
        };
        prop_assert_eq!(a.outcome, outcome);
        let mut got: Vec<Vec<u64>> = a.moves().map(|m| apply(&heaps, &m)).collect();
        prop_assert_eq!(got.len() as u64, a.winning_move_count);
        got.sort();
        want.sort();
        prop_assert_eq!(got, want);
    }
}

#[test]
fn analysis_json_shape() {
    let v = serde_json::to_value(analyze(&[10, 12, 5], Play::Normal)).unwrap();
    assert_eq!(
        v,
        serde_json::json!({
            "play": "normal", "heap_count": 3, "grundy": 3, "nim_sum": 3, "outcome": "N",
            "winning_move_count": 1,
            "winning_moves": [{
                "text": "heap 0: take 1 from the heap of 10, leaving 9",
                "short": "heap 0: 10 → 9",
                "to": {"kind": "heaps", "text": "9 12 5", "heaps": [9, 12, 5]},
                "outcome": "P", "grundy": 0,
                "at": {"heap": 0, "from": 10, "removed": 1, "left": 9}
            }],
            "all_winning_moves_listed": true
        })
    );
    let v = serde_json::to_value(analyze(&[1, 1, 3], Play::Misere)).unwrap();
    assert_eq!(v["play"], "misere");
    assert_eq!(v["grundy"], 3);
    // Under misère play a move has no value.
    assert_eq!(
        v["winning_moves"],
        serde_json::json!([{
            "text": "heap 2: take 2 from the heap of 3, leaving 1",
            "short": "heap 2: 3 → 1",
            "to": {"kind": "heaps", "text": "1 1 1", "heaps": [1, 1, 1]},
            "outcome": "P",
            "at": {"heap": 2, "from": 3, "removed": 2, "left": 1}
        }])
    );
    let v = serde_json::to_value(analyze(&[1, 1], Play::Misere)).unwrap();
    assert_eq!(
        v["winning_moves"][0]["text"],
        "heap 0: take the last counter"
    );
    assert_eq!(v["winning_moves"][0]["to"]["text"], "0 1");
    // Integers above 2^53 are strings; those up to it stay numbers.
    let v = serde_json::to_value(analyze(&[u64::MAX, 1, 1 << 53], Play::Normal)).unwrap();
    assert_eq!(v["grundy"], (u64::MAX ^ 1 ^ (1 << 53)).to_string());
    assert_eq!(v["nim_sum"], v["grundy"]);
    let m = &v["winning_moves"][0];
    assert_eq!(m["at"]["from"], u64::MAX.to_string());
    let left = (1u64 << 53) + 1;
    assert_eq!(m["at"]["left"], left.to_string());
    assert_eq!(
        m["to"]["heaps"],
        serde_json::json!([left.to_string(), 1, 1u64 << 53])
    );
    assert_eq!(m["to"]["text"], format!("{left} 1 {}", 1u64 << 53));
    // A counting stream has no heaps: moves counted, not listed.
    let mut c = NimStream::counting();
    [3, 4, 5].iter().for_each(|&h| c.push(h));
    let v = serde_json::to_value(c.into_analysis(Play::Normal)).unwrap();
    assert_eq!(v["winning_move_count"], 1);
    assert!(v.get("winning_moves").is_none() && v.get("all_winning_moves_listed").is_none());
}

proptest! {
    /// The JSON writes each move lazily, exactly as the library's `Move` serializes (the same
    /// text too, keys in the same order), while it is not abbreviated.
    #[test]
    fn lazy_json_moves_are_the_moves(
        heaps in proptest::collection::vec(prop_oneof![0u64..4, 0u64..40, any::<u64>()], 0..7),
        misere: bool,
    ) {
        let a = analyze(&heaps, Play::from_misere(misere));
        prop_assert!(!a.json_abbreviated());
        let moves: Vec<Move> = a.moves().collect();
        let lazy = serde_json::to_string(&a).unwrap();
        let built = serde_json::to_string(&moves).unwrap();
        prop_assert!(lazy.contains(&format!("\"winning_moves\":{built},")), "{lazy}\n{built}");
        for (i, &h) in heaps.iter().enumerate() {
            for left in [0, h / 2, h.saturating_sub(1)] {
                match nim_move(&heaps, i, left, Play::from_misere(misere)) {
                    Some(m) => {
                        let after = apply(&heaps, &m);
                        let b = analyze(&after, Play::from_misere(misere));
                        prop_assert_eq!(m.outcome, b.outcome);
                        prop_assert_eq!(m.grundy.is_some(), !misere);
                        prop_assert_eq!(m.wins(), moves.contains(&m));
                    }
                    None => prop_assert!(left >= h),
                }
            }
        }
        prop_assert!(nim_move(&heaps, heaps.len(), 0, Play::Normal).is_none());
    }
}

/// Each move's `to` would repeat the whole position, so past `JSON_LISTED_SIZES` sizes in all
/// the JSON abbreviates every `to`, and it lists at most `JSON_LISTED_MOVES` moves: linear in
/// the input however many heaps and winning moves.
#[test]
fn json_abbreviates_a_huge_position() {
    let heaps: Vec<u64> = (1..=100_000).collect();
    let a = analyze(&heaps, Play::Normal);
    assert!(a.winning_move_count > 30_000 && a.winning_move_count < JSON_LISTED_MOVES);
    assert_eq!(a.json_listed_moves(), a.winning_move_count);
    assert!(a.json_abbreviated());
    let text = serde_json::to_string(&a).unwrap();
    // About 200 bytes a move, not 600 KB.
    assert!(
        (text.len() as u64) < 300 * a.winning_move_count,
        "{}",
        text.len()
    );
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let moves = v["winning_moves"].as_array().unwrap();
    assert_eq!(moves.len() as u64, a.winning_move_count);
    assert_eq!(v["all_winning_moves_listed"], true);
    for (m, full) in moves.iter().zip(a.moves()).take(50) {
        assert_eq!(
            m["to"],
            serde_json::json!({"kind": "heaps", "text": "", "abbreviated": true})
        );
        // Everything else is the move's.
        let mut full = serde_json::to_value(&full).unwrap();
        full["to"] = m["to"].clone();
        assert_eq!(m, &full);
    }
    // The Rust API gives every move its whole position (built lazily: take what you need).
    let first = a.moves().next().unwrap();
    assert_eq!(first.to.data["heaps"].as_array().unwrap().len(), 100_000);
    // More winning moves than are listed: the first JSON_LISTED_MOVES.
    let ones = vec![1u64; 2 * JSON_LISTED_MOVES as usize + 1];
    let a = analyze(&ones, Play::Normal);
    assert_eq!(a.json_listed_moves(), JSON_LISTED_MOVES);
    let v = serde_json::to_value(&a).unwrap();
    assert_eq!(
        v["winning_moves"].as_array().unwrap().len() as u64,
        JSON_LISTED_MOVES
    );
    assert_eq!(v["all_winning_moves_listed"], false);
    assert_eq!(v["winning_moves"][0]["to"]["abbreviated"], true);
    // A small position keeps its whole positions; one enormous position is abbreviated.
    let small: Vec<u64> = (1..=1000).collect();
    let a = analyze(&small, Play::Normal);
    assert!(!a.json_abbreviated() && a.json_listed_moves() == a.winning_move_count);
    let a = analyze(&vec![1; (JSON_LISTED_SIZES + 1) as usize], Play::Normal);
    assert!(a.json_abbreviated());
}

/// Regression: a token with a newline or a control byte was echoed raw in the one-line error.
#[test]
fn bad_tokens_are_escaped_in_errors() {
    let e = parse_heaps(b"1 a\x1b[2Jb 3", |_| {}).unwrap_err();
    assert_eq!(e.to_string(), "heap 1: 'a\\u{1b}[2Jb' is not a number");
    let e = parse_heaps(b"1\n-\x07", |_| {}).unwrap_err().to_string();
    assert!(!e.contains('\x07') && e.contains("\\u{7}"), "{e}");
}
