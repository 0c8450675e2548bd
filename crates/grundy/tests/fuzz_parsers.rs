//! Fuzzing every user-facing parser of the library, through the facade as a front end calls
//! it: heap rules, counts, Nim heaps (whole and streamed), nimber values, graph text, mazes,
//! walls and Cram boards, Chomp sizes, Fibonacci Nim and Wythoff numbers of any size, card rows,
//! Penney alphabets, probabilities and patterns, and checkpoint/save directories holding
//! random, mutated and forged (validly checksummed) files.
//!
//! Inputs are random strings over each parser's own alphabet, any Unicode (control bytes,
//! NULs, line separators), very long tokens, and mutations of valid inputs. The property is
//! the same everywhere: the call returns (no panic, no hang: a case over [`SLOW`] fails), and
//! an error's message is one line with no control character in it (tokens are quoted with
//! `grundy::text::quote`). Where a parser has a second way to reach the same answer (the
//! streaming Nim parser against the whole-buffer one, a rule printed and parsed again) the two
//! must agree.
//!
//! Budget: `GRUNDY_FUZZ_CASES` cases per target (default 500, so `cargo test` stays quick; the
//! checkpoint and Penney targets, which compute, run a tenth); `GRUNDY_FUZZ_SEED` picks the
//! random stream (default fixed, printed). The full run, about 1.2·10^6 inputs, is part of
//! `scripts/fuzz`:
//!
//! ```text
//! GRUNDY_FUZZ_CASES=100000 cargo test -p grundy --test fuzz_parsers -- --nocapture
//! ```
//!
//! Each target prints `fuzz <target>: N inputs, A accepted, R refused` at the end.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{select, Index};
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};

use grundy::heap::{self, Compute};

/// A single input taking longer than this is a hang finding.
const SLOW: Duration = Duration::from_secs(10);

/// Cases per target (`GRUNDY_FUZZ_CASES`, default 500).
fn cases() -> u32 {
    std::env::var("GRUNDY_FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(500)
}

/// The seed of the random stream (`GRUNDY_FUZZ_SEED`, default fixed).
fn seed() -> u64 {
    std::env::var("GRUNDY_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x6772_756e_6479)
}

/// An input as printed in a report: its first 3000 characters.
fn current_text(s: &str) -> String {
    s.chars().take(3000).collect()
}

/// What one input did: accepted, or refused with a message.
enum Verdict {
    Accepted,
    Refused(String),
}

/// The registry's answer to `position` of `game` within a small budget (the one door of every
/// game).
fn ask(game: &str, position: &str) -> grundy::Result<grundy::catalogue::Report> {
    let small = grundy::catalogue::Ask::new(grundy::catalogue::Play::Normal)
        .budget(grundy::Budget::positions(20_000));
    grundy::catalogue::Registry::new().ask(game, position, &small)
}

fn verdict<T, E: std::fmt::Display>(r: &Result<T, E>) -> Verdict {
    match r {
        Ok(_) => Verdict::Accepted,
        Err(e) => Verdict::Refused(e.to_string()),
    }
}

/// An error message a user may see: one line, no control character.
fn check_message(msg: &str) -> Result<(), TestCaseError> {
    if msg.is_empty() {
        return Err(TestCaseError::fail("empty error message"));
    }
    if let Some(c) = msg.chars().find(|c| c.is_control()) {
        return Err(TestCaseError::fail(format!(
            "error message holds the control character {c:?}: {msg:?}"
        )));
    }
    Ok(())
}

/// Runs `target` on `cases()` inputs of `strategy`; every refusal must be one clean line.
/// Panics (with the smallest failing input proptest finds) on any failure.
fn fuzz<S: Strategy>(name: &str, strategy: S, target: impl Fn(S::Value) -> Vec<Verdict>)
where
    S::Value: std::fmt::Debug,
{
    fuzz_n(name, cases(), strategy, target)
}

fn fuzz_n<S: Strategy>(
    name: &str,
    cases: u32,
    strategy: S,
    target: impl Fn(S::Value) -> Vec<Verdict>,
) where
    S::Value: std::fmt::Debug,
{
    let config = Config {
        cases,
        failure_persistence: None,
        max_shrink_iters: 300,
        ..Config::default()
    };
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed().to_le_bytes());
    bytes[8..8 + name.len().min(24)].copy_from_slice(&name.as_bytes()[..name.len().min(24)]);
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &bytes);
    let mut runner = TestRunner::new_with_rng(config, rng);
    let (inputs, accepted, refused) = (AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0));
    // A watchdog: an input still running after 3·SLOW is a hang; it is printed and the run
    // ends (a case that never returns cannot fail by itself).
    let current: &'static std::sync::Mutex<Option<(Instant, String)>> =
        Box::leak(Box::new(std::sync::Mutex::new(None)));
    let watched = name.to_string();
    std::thread::spawn(move || loop {
        std::thread::sleep(Duration::from_secs(1));
        if let Some((start, input)) = current.lock().unwrap().as_ref() {
            if start.elapsed() > 3 * SLOW {
                eprintln!(
                    "fuzz {watched}: hang: an input has run {:?}: {input}",
                    start.elapsed()
                );
                std::process::exit(101);
            }
        }
    });
    let result = runner.run(&strategy, |input| {
        inputs.fetch_add(1, Ordering::Relaxed);
        let start = Instant::now();
        let shown = format!("{input:?}");
        *current.lock().unwrap() = Some((start, shown.clone()));
        let verdicts = target(input);
        *current.lock().unwrap() = None;
        if start.elapsed() > SLOW {
            eprintln!(
                "fuzz {name}: slow input ({:?}): {}",
                start.elapsed(),
                current_text(&shown)
            );
            return Err(TestCaseError::fail(format!(
                "took {:?} (a hang on a small input)",
                start.elapsed()
            )));
        }
        for v in verdicts {
            match v {
                Verdict::Accepted => accepted.fetch_add(1, Ordering::Relaxed),
                Verdict::Refused(msg) => {
                    check_message(&msg)?;
                    refused.fetch_add(1, Ordering::Relaxed)
                }
            };
        }
        Ok(())
    });
    eprintln!(
        "fuzz {name}: {} inputs (seed {}), {} calls accepted, {} refused in one line",
        inputs.load(Ordering::Relaxed),
        seed(),
        accepted.load(Ordering::Relaxed),
        refused.load(Ordering::Relaxed)
    );
    if let Err(e) = result {
        panic!("fuzz {name}: {e}");
    }
}

/// Characters every text strategy mixes in: controls, separators, signs, wide characters.
const SPECIAL: &str =
    "\0\n\r\t\x1b\x7f\u{85}\u{2028}\u{feff} -+_eE^*/=,.:;|#@!?[]()x\u{e9}\u{20ac}\u{1f600}";

fn chars_of(alphabet: &'static str) -> Vec<char> {
    let mut v: Vec<char> = alphabet.chars().collect();
    v.extend(SPECIAL.chars());
    v.sort_unstable();
    v.dedup();
    v
}

/// Random text: mostly over `alphabet`, sometimes any Unicode, sometimes one very long token.
fn garbage(alphabet: &'static str, max: usize) -> BoxedStrategy<String> {
    let own: Vec<char> = alphabet.chars().collect();
    let mixed = chars_of(alphabet);
    prop_oneof![
        4 => vec(select(own.clone()), 0..max).prop_map(|v| v.into_iter().collect()),
        3 => vec(select(mixed), 0..max).prop_map(|v| v.into_iter().collect()),
        1 => vec(any::<char>(), 0..max).prop_map(|v| v.into_iter().collect()),
        1 => (select(own), 1..20_000usize).prop_map(|(c, n)| c.to_string().repeat(n)),
    ]
    .boxed()
}

/// One edit of a mutation: insert, delete, replace a character, or repeat a span.
#[derive(Clone, Debug)]
enum Edit {
    Insert(Index, char),
    Delete(Index),
    Replace(Index, char),
    Repeat(Index, usize, usize),
}

fn apply(seed: &str, edits: &[Edit]) -> String {
    let mut v: Vec<char> = seed.chars().collect();
    for e in edits {
        let n = v.len();
        match *e {
            Edit::Insert(i, c) => v.insert(i.index(n + 1), c),
            Edit::Delete(i) if n > 0 => {
                v.remove(i.index(n));
            }
            Edit::Replace(i, c) if n > 0 => v[i.index(n)] = c,
            Edit::Repeat(i, len, times) if n > 0 => {
                let at = i.index(n);
                let span: Vec<char> = v[at..(at + len).min(n)].to_vec();
                let tail = v.split_off(at);
                for _ in 0..times {
                    v.extend_from_slice(&span);
                }
                v.extend(tail);
            }
            _ => {}
        }
    }
    v.into_iter().collect()
}

/// A valid input with a few random edits.
fn mutated(seeds: &'static [&'static str], alphabet: &'static str) -> BoxedStrategy<String> {
    let cs = chars_of(alphabet);
    let edit = prop_oneof![
        any::<Index>().prop_flat_map({
            let cs = cs.clone();
            move |i| select(cs.clone()).prop_map(move |c| Edit::Insert(i, c))
        }),
        any::<Index>().prop_map(Edit::Delete),
        any::<Index>()
            .prop_flat_map(move |i| select(cs.clone()).prop_map(move |c| Edit::Replace(i, c))),
        (any::<Index>(), 1..8usize, 1..3000usize).prop_map(|(i, l, t)| Edit::Repeat(i, l, t)),
    ];
    (select(seeds), vec(edit, 0..5))
        .prop_map(|(s, e)| apply(s, &e))
        .boxed()
}

/// Garbage or a mutated valid input, half and half.
fn text(
    seeds: &'static [&'static str],
    alphabet: &'static str,
    max: usize,
) -> BoxedStrategy<String> {
    prop_oneof![garbage(alphabet, max), mutated(seeds, alphabet)].boxed()
}

/// Numbers as users type them, and near misses: huge, negative, exponents, separators.
fn number() -> BoxedStrategy<String> {
    const SEEDS: &[&str] = &[
        "0",
        "1",
        "7",
        "100",
        "1000000",
        "1_000_000",
        "1e6",
        "2^30",
        "10**6",
        "18446744073709551615",
        "18446744073709551616",
        "340282366920938463463374607431768211455",
        "340282366920938463463374607431768211456",
        "1000000000000000000000000000000",
        "-1",
        "+5",
        "1e999",
        "2^64",
        " 42 ",
    ];
    text(SEEDS, "0123456789", 40)
}

// ---------------------------------------------------------------------------------------
// The targets.

#[test]
fn heap_rules() {
    const SEEDS: &[&str] = &[
        "0.77",
        ".07",
        "0.137",
        "4!.0",
        "4?.0",
        "4=.0",
        "8.0",
        "0.3F",
        "0.[3]",
        "0.[12]",
        "0.1![37]",
        "sub:1,3,4",
        "sub:odd",
        "sub:fib",
        "sub:1,1000000",
        "allbut:1,2",
        "kayles",
        "dawsons-kayles",
        "grundys-game",
        "nim",
        "treblecross",
    ];
    let alphabet = "0123456789.!?=[]:,abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_|";
    fuzz("heap_rules", text(SEEDS, alphabet, 30), |s| {
        let rule = heap::parse(&s);
        let mut out = vec![verdict(&rule)];
        if let Ok(rule) = rule {
            let again = heap::parse(&rule.to_string());
            assert!(
                again.is_ok(),
                "{s:?} prints as {rule}, which does not parse"
            );
            let mut c = Compute::new().threads(1);
            out.push(verdict(&heap::sequence(&rule, 24, &mut c)));
            out.push(verdict(&heap::analyze_position(&rule, &[3, 5, 9], &mut c)));
            let _ = heap::describe_rule(&rule);
        }
        out
    });
}

#[test]
fn counts() {
    fuzz("counts", number(), |s| {
        let r = grundy::input::parse_count(&s);
        if let Ok(n) = r {
            let plain: String = s.trim().chars().filter(|&c| c != '_').collect();
            if plain.bytes().all(|b| b.is_ascii_digit()) {
                assert_eq!(plain.parse::<u64>().ok(), Some(n), "{s:?}");
            }
        }
        vec![verdict(&r)]
    });
}

#[test]
fn nim_heaps() {
    use grundy::nim::{parse_heap, parse_heaps, HeapParser};
    let bytes = prop_oneof![
        text(
            &[
                "10 12 5",
                "18446744073709551615 1\n",
                "0\n1\n2\n",
                "7\t-3 x"
            ],
            "0123456789 \n\t",
            60
        )
        .prop_map(String::into_bytes),
        vec(any::<u8>(), 0..200),
        (1..30_000usize).prop_map(|n| "9".repeat(n).into_bytes()),
    ];
    let cuts = vec(any::<Index>(), 0..6);
    fuzz("nim_heaps", (bytes, cuts), |(input, cuts)| {
        let mut whole = Vec::new();
        let r = parse_heaps(&input, |h| whole.push(h));
        // The same bytes fed in random chunks give the same heaps or the same error.
        let mut at: Vec<usize> = cuts.iter().map(|i| i.index(input.len() + 1)).collect();
        at.push(0);
        at.push(input.len());
        at.sort_unstable();
        let mut parser = HeapParser::new();
        let mut streamed = Vec::new();
        let mut sink = |h| streamed.push(h);
        let mut rs: Result<u64, _> = Ok(0);
        for w in at.windows(2) {
            if let Err(e) = parser.feed(&input[w[0]..w[1]], &mut sink) {
                rs = Err(e);
                break;
            }
        }
        if rs.is_ok() {
            rs = parser.finish(&mut sink);
        }
        match (&r, &rs) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a, b);
                assert_eq!(whole, streamed);
            }
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{input:?}"),
            _ => panic!("whole {r:?} but streamed {rs:?} for {input:?}"),
        }
        let mut out = vec![verdict(&r)];
        for (i, token) in input.split(|b| b.is_ascii_whitespace()).enumerate().take(8) {
            out.push(verdict(&parse_heap(token, i as u64)));
        }
        if let Ok(_n) = r {
            let text: Vec<String> = whole.iter().map(u64::to_string).collect();
            let ask = grundy::catalogue::Ask::new(grundy::Play::Normal);
            let r = grundy::catalogue::Registry::new().ask("misere-nim", &text.join(" "), &ask);
            let _ = r.map(|r| r.describe(grundy::catalogue::Verbosity::Full));
        }
        out
    });
}

#[test]
fn nimbers() {
    let op = prop_oneof![
        select(vec!["add", "mul", "div", "inv", "sqrt", "pow"]).prop_map(String::from),
        garbage("addmulinvsqrtpowADD", 8),
    ];
    fuzz("nimbers", (op, vec(number(), 0..4)), |(op, operands)| {
        let ops: Vec<&str> = operands.iter().map(String::as_str).collect();
        let mut out = vec![verdict(&grundy::nimber::calculate(&op, &ops))];
        for o in &ops {
            out.push(verdict(&grundy::nimber::parse_value(o)));
        }
        out
    });
}

#[test]
fn graphs() {
    const SEEDS: &[&str] = &[
        "a b\nb c\nc d\n",
        "a\n",
        "# a comment\na b\na c\nb c\n",
        "x y\ny x\n",
        "s t u\n",
        "1 2\n2 3\n1 3\n3 4\n",
    ];
    let tokens = vec(garbage("abcdxyz1234", 3), 0..4);
    fuzz(
        "graphs",
        (text(SEEDS, "abcdxyz1234 \n#\t", 80), tokens, any::<bool>()),
        |(text, tokens, misere)| {
            let options = grundy::graph::GraphOptions {
                play: grundy::nim::Play::from_misere(misere),
                budget: grundy::Budget::positions(20_000),
            };
            vec![verdict(&grundy::graph::analyze(&text, &tokens, &options))]
        },
    );
}

#[test]
fn loopy_graphs() {
    // Graph text with cycles, loops and repeated edges through the loopy parser, then tokens
    // valued by Smith's rule and explained in words (`grundy graph FILE --token … --explain`).
    const SEEDS: &[&str] = &[
        "a b\nb a\na x\nc d\nd c\nc y\nb b\nd d\n",
        "x y\ny x\n",
        "a a\n",
        "s t\nt u\nu s\nu v\n",
        "1 2\n2 1\n1 2\n2 3\n",
        "# comment\na\n",
    ];
    let tokens = vec(garbage("abcdxyz1234", 3), 0..4);
    fuzz(
        "loopy graphs",
        (text(SEEDS, "abcdxyz1234 \n#\t", 80), tokens),
        |(text, tokens)| {
            let mut out = vec![verdict(&grundy::loopy::analyze(&text, &tokens))];
            if let Ok(g) = grundy::loopy::LoopyGraph::parse(&text) {
                out.push(verdict(&g.explain_tokens(&tokens)));
                if let Some(t) = tokens.first() {
                    out.push(verdict(&g.explain(t)));
                }
            }
            out
        },
    );
}

#[test]
fn loopy_catalogue_positions() {
    // `windup:N:S` codes with their positions, and `loopy-digraph` positions (edges `;`, `@`,
    // tokens), as `grundy analyze` and the web page read them.
    use grundy::catalogue::{Budget, Play, Registry};
    let registry = Registry::new();
    let budget = Budget {
        max_positions: 20_000,
        max_bytes: 64 << 20,
    };
    const CODES: &[&str] = &[
        "windup:8:3,5",
        "windup:12:2,5",
        "windup:1:1",
        "windup:100:1,7,9",
    ];
    const POSITIONS: &[&str] = &["2", "2 5", "0", "7 7 7", "11,3"];
    fuzz(
        "windup positions",
        (
            text(CODES, "windup:0123456789,", 24),
            text(POSITIONS, "0123456789 ,-", 24),
            any::<bool>(),
        ),
        |(code, pos, misere)| {
            let mut out = vec![];
            match registry.open(&code) {
                Ok(mut rules) => {
                    let p = rules.parse(&pos);
                    out.push(verdict(&p));
                    if let Ok(p) = p {
                        out.push(verdict(&rules.analyze(
                            &p,
                            &grundy::catalogue::Ask::new(Play::from_misere(misere)).budget(budget),
                        )));
                        out.push(verdict(&rules.moves(
                            &p,
                            &grundy::catalogue::Ask::new(Play::from_misere(misere)).budget(budget),
                        )));
                    }
                }
                Err(e) => out.push(verdict::<(), _>(&Err(e))),
            }
            out
        },
    );
    const GRAPHS: &[&str] = &[
        "a b; b a; a c; c d; @ a",
        "x y\ny x\n@ x y",
        "a a; @ a a",
        "@",
    ];
    fuzz(
        "loopy-digraph positions",
        (text(GRAPHS, "abcdxy ;@\n#", 60), any::<bool>()),
        |(pos, misere)| {
            let mut rules = registry.open("loopy-digraph").expect("loopy-digraph opens");
            let p = rules.parse(&pos);
            let mut out = vec![verdict(&p)];
            if let Ok(p) = p {
                out.push(verdict(&rules.analyze(
                    &p,
                    &grundy::catalogue::Ask::new(Play::from_misere(misere)).budget(budget),
                )));
            }
            out
        },
    );
}

#[test]
fn mazes() {
    use grundy::games::maze;
    const SEEDS: &[&str] = &[
        "..#.\n.@..\n....\n",
        "@\n",
        "...\n.#.\n..@\n\n..@\n...\n",
        "###\n#@#\n",
        "....\n....\n",
    ];
    fuzz("mazes", text(SEEDS, ".#@\n X", 80), |s| {
        let r = maze::parse_mazes(&s);
        let mut out = vec![verdict(&r)];
        if r.is_ok() {
            out.push(verdict(&ask("maze", &s)));
        }
        out
    });
}

#[test]
fn walls_boards() {
    use grundy::games::walls;
    const SEEDS: &[&str] = &[
        "2 2\nX.\n..\n",
        "...\n.X.\n...\n",
        "3 4\n....\n.X..\n....\n",
        "......\n......\n......\n......\n",
        "1 1\n.\n",
    ];
    fuzz("walls_boards", text(SEEDS, ".X\n 0123456789", 60), |s| {
        let r = walls::Board::parse(&s);
        let mut out = vec![verdict(&r)];
        if r.is_ok() {
            out.push(verdict(&ask("walls", &s)));
        }
        out
    });
}

#[test]
fn cram_boards() {
    use grundy::board::cram;
    const SEEDS: &[&str] = &[
        ".........|##.######",
        "....|....|....",
        "..|..",
        ".#.|...|.#.",
        "........",
    ];
    fuzz("cram_boards", text(SEEDS, ".#|\n X", 60), |s| {
        let r = cram::Board::parse(&s);
        let mut out = vec![verdict(&r)];
        if let Ok(b) = r {
            let o = grundy::catalogue::Ask::new(grundy::catalogue::Play::Normal)
                .budget(grundy::Budget::positions(20_000));
            out.push(verdict(&cram::ask(&b, &o)));
        }
        out
    });
}

#[test]
fn chomp_sizes() {
    use grundy::games::{chomp, parse_bounded};
    fuzz("chomp_sizes", (number(), number()), |(r, c)| {
        let rows = parse_bounded(&r, "rows", 1, chomp::MAX_ROWS as u64);
        let cols = parse_bounded(&c, "columns", 1, chomp::MAX_COLS as u64);
        let mut out = vec![verdict(&rows), verdict(&cols)];
        if let (Ok(r), Ok(c)) = (rows, cols) {
            out.push(verdict(&ask("chomp", &format!("{r}x{c}"))));
        }
        out
    });
}

#[test]
fn fib_and_wythoff_numbers() {
    use grundy::catalogue::{Ask, Play, Registry};
    use grundy::games::{fib, parse_bounded, parse_count, wythoff};
    let big = prop_oneof![
        3 => number(),
        1 => (1..12_000usize, 0..10u8).prop_map(|(n, d)| format!("{}{}", d.max(1), "7".repeat(n))),
    ];
    fuzz(
        "fib_and_wythoff_numbers",
        (big.clone(), proptest::option::of(number()), number(), big),
        |(pile, limit, k, other)| {
            let p = parse_count(&pile, "pile");
            let l = limit.as_deref().map(|l| parse_count(l, "limit"));
            let kk = parse_bounded(&k, "multiplier", 1, fib::MAX_MULTIPLIER);
            let y = parse_count(&other, "heap");
            let mut out = vec![verdict(&p), verdict(&kk), verdict(&y)];
            if let Some(l) = &l {
                out.push(verdict(l));
            }
            if let (Ok(p), Ok(k)) = (&p, &kk) {
                let position = match &l {
                    Some(Ok(l)) => format!("{p} {l}"),
                    _ => p.to_string(),
                };
                out.push(verdict(&ask(&format!("fib:{k}"), &position)));
            }
            if let (Ok(x), Ok(y)) = (&p, &y) {
                out.push(verdict(&ask("wythoff", &format!("{x} {y}"))));
                out.push(verdict(&ask("wythoff", &format!("p:{x}"))));
            }
            if let Ok(t) = parse_bounded(&k, "table size", 1, 60) {
                out.push(verdict(&wythoff::GrundyTable::new(t as usize)));
                let grid = Registry::new().values("wythoff", t - 1, &Ask::new(Play::Normal));
                out.push(verdict(&grid));
            }
            out
        },
    );
}

#[test]
fn card_rows() {
    use grundy::games::cards;
    let card = prop_oneof![
        any::<i64>(),
        -1000i64..1000,
        select(vec![
            i64::MIN,
            i64::MAX,
            cards::MAX_ABS_VALUE,
            -cards::MAX_ABS_VALUE,
            0
        ]),
    ];
    fuzz("card_rows", vec(card, 0..60), |row| {
        let text: Vec<String> = row.iter().map(i64::to_string).collect();
        vec![verdict(&ask("cards", &text.join(" ")))]
    });
}

#[test]
fn penney() {
    use grundy::penney::report::{self, RaceOptions, SimulationRequest};
    use grundy::penney::{alphabet::parse_fraction, Alphabet};
    let symbols = proptest::option::of(text(
        &["HT", "123456", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "01", "-+"],
        "HTABC0123",
        12,
    ));
    let probs = proptest::option::of(text(
        &[
            "H=2/3,T=1/3",
            "H=0.5,T=0.5",
            "a=0.5, b=0.25,c=1/4",
            "H=1/2,T=1/3",
        ],
        "HTabc=/0123456789.,- ",
        40,
    ));
    let patterns = vec(garbage("HTHTA1", 10), 0..4);
    // Simulations stay small: the library allows up to 2·10^9 tosses (tens of seconds, with a
    // progress bar), which is a long request, not a hang.
    let options = (0..30usize, proptest::option::of((0..20u64, any::<u64>())));
    fuzz_n(
        "penney",
        (cases() / 10).max(50),
        (symbols, probs, patterns, options),
        |(symbols, probs, patterns, (distribution, sim))| {
            let al = Alphabet::from_spec(symbols.as_deref(), probs.as_deref());
            let mut out = vec![verdict(&al)];
            if let Some(p) = &probs {
                for entry in p.split(',') {
                    if let Some((_, v)) = entry.split_once('=') {
                        out.push(verdict(&parse_fraction(v.trim())));
                    }
                }
            }
            if let Ok(al) = al {
                let options = RaceOptions {
                    distribution,
                    simulate: sim.map(|(trials, seed)| SimulationRequest { trials, seed }),
                };
                out.push(verdict(&report::race(
                    al.clone(),
                    &patterns,
                    &options,
                    &mut |_| {},
                )));
                if let Some(p) = patterns.first() {
                    out.push(verdict(&report::best_reply(&al, p)));
                }
                let m = patterns.len() + 1;
                out.push(verdict(&report::best_first(&al, m)));
                out.push(verdict(&report::cycle(&al, m)));
            }
            out
        },
    );
}

#[test]
fn quoting() {
    fuzz("quoting", garbage("abc\n\t\x1b", 400), |s| {
        let q = grundy::text::quote(&s);
        assert!(!q.chars().any(char::is_control), "{q:?}");
        assert!(
            q.chars().count() <= grundy::text::QUOTE_MAX_CHARS + 3,
            "{q:?}"
        );
        vec![Verdict::Refused(format!("token {q}"))]
    });
}

// ---------------------------------------------------------------------------------------
// Checkpoint and save directories.

/// The rule of the checkpoint fixtures: Grundy's game as a code (the sparse engine runs it).
const CODE: &str = "4!.0";
/// The target of the checkpoint fixtures.
const TARGET: u64 = 3000;
/// The store's layout, as documented in `grundy-sparse`'s `store.rs`: the state file's name
/// and the values in a chunk file.
const STATE_FILE: &str = "state.bin";
const CHUNK: u64 = 1 << 22;

/// Replaces the last four bytes by the CRC of the rest: a forged file that passes the checksum.
fn seal(mut bytes: Vec<u8>) -> Vec<u8> {
    if bytes.len() >= 4 {
        let n = bytes.len() - 4;
        let crc = crc32fast::hash(&bytes[..n]);
        bytes[n..].copy_from_slice(&crc.to_le_bytes());
    }
    bytes
}

struct Fixture {
    /// A genuine state file of a finished run of [`CODE`] to [`TARGET`].
    state: Vec<u8>,
    /// A genuine-looking chunk 0 (all values 0) in the store's layout.
    chunk: Vec<u8>,
    /// Byte offsets of the state file's u64 fields (target, done, mask, payload length).
    fields: usize,
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let dir = scratch("fixture");
        let rule = heap::parse(CODE).unwrap();
        let opts = heap::RecordOptions {
            upto: TARGET,
            checkpoint: Some(dir.clone()),
            keep_values: false,
            ..Default::default()
        };
        heap::record(&rule, &opts, &mut Compute::new().threads(1)).unwrap();
        let state = std::fs::read(dir.join(STATE_FILE)).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        // magic (8), version (4), rule length (4), rule, then the u64 fields.
        let rule_len = u32::from_le_bytes(state[12..16].try_into().unwrap()) as usize;
        let fields = 16 + rule_len;
        let mut chunk = state[..fields].to_vec();
        chunk[..8].copy_from_slice(b"GRUNDYCH");
        let n = CHUNK;
        let payload = lz4_flex::compress_prepend_size(&vec![0u8; (n * 4) as usize]);
        for x in [0, n, payload.len() as u64] {
            chunk.extend_from_slice(&x.to_le_bytes());
        }
        chunk.extend_from_slice(&payload);
        chunk.extend_from_slice(&[0; 4]);
        Fixture {
            state,
            chunk: seal(chunk),
            fields,
        }
    })
}

/// A fresh scratch directory for this test process.
fn scratch(name: &str) -> PathBuf {
    static N: AtomicU64 = AtomicU64::new(0);
    let dir = std::env::temp_dir().join(format!(
        "grundy-fuzz-{}-{name}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// How a file of the fuzzed directory is made.
#[derive(Clone, Debug)]
enum FileRecipe {
    /// Absent.
    Missing,
    /// Random bytes.
    Random(Vec<u8>),
    /// The genuine file with bytes changed, optionally sealed again (a forgery).
    Mutated {
        edits: Vec<(Index, u8)>,
        fields: Vec<(usize, u64)>,
        cut: Option<Index>,
        reseal: bool,
    },
}

fn recipe() -> impl Strategy<Value = FileRecipe> {
    let interesting = select(vec![
        0,
        1,
        2,
        3000,
        3001,
        3002,
        1 << 22,
        (1 << 22) + 1,
        (1 << 22) + 3001,
        1 << 32,
        u64::MAX / 4,
        u64::MAX - 1,
        u64::MAX,
    ]);
    prop_oneof![
        1 => Just(FileRecipe::Missing),
        2 => vec(any::<u8>(), 0..300).prop_map(FileRecipe::Random),
        8 => (
            vec((any::<Index>(), any::<u8>()), 0..4),
            vec((0..4usize, prop_oneof![interesting, any::<u64>()]), 0..3),
            proptest::option::weighted(0.2, any::<Index>()),
            proptest::bool::weighted(0.85),
        )
            .prop_map(|(edits, fields, cut, reseal)| FileRecipe::Mutated {
                edits,
                fields,
                cut,
                reseal
            }),
    ]
}

fn make(recipe: &FileRecipe, genuine: &[u8], fields_at: usize) -> Option<Vec<u8>> {
    match recipe {
        FileRecipe::Missing => None,
        FileRecipe::Random(b) => Some(b.clone()),
        FileRecipe::Mutated {
            edits,
            fields,
            cut,
            reseal,
        } => {
            let mut b = genuine.to_vec();
            for &(field, value) in fields {
                let at = fields_at + 8 * field;
                if at + 8 <= b.len() {
                    b[at..at + 8].copy_from_slice(&value.to_le_bytes());
                }
            }
            for &(i, x) in edits {
                let n = b.len();
                b[i.index(n)] ^= x.max(1);
            }
            if let Some(c) = cut {
                b.truncate(c.index(b.len() + 1));
            }
            Some(if *reseal { seal(b) } else { b })
        }
    }
}

fn write_dir(dir: &Path, state: Option<Vec<u8>>, chunk: Option<Vec<u8>>) {
    if let Some(s) = state {
        std::fs::write(dir.join(STATE_FILE), s).unwrap();
    }
    if let Some(c) = chunk {
        std::fs::write(dir.join("chunk-00000000.bin"), c).unwrap();
    }
}

#[test]
fn checkpoints() {
    let f = fixture();
    let cases = (cases() / 10).max(20);
    fuzz_n(
        "checkpoints",
        cases,
        (recipe(), recipe(), any::<bool>(), vec(any::<u64>(), 0..3)),
        |(state, chunk, resume, probes)| {
            let dir = scratch("ckpt");
            write_dir(
                &dir,
                make(&state, &f.state, f.fields),
                make(&chunk, &f.chunk, f.fields),
            );
            let rule = heap::parse(CODE).unwrap();
            let code = rule.take_break().unwrap();
            let code = &code;
            let mut out = Vec::new();
            // A save directory opened for queries.
            match grundy::heap::sparse::Saved::open(&dir, code) {
                Ok(mut saved) => {
                    out.push(Verdict::Accepted);
                    let len = saved.len();
                    for p in probes
                        .iter()
                        .copied()
                        .chain([0, len.saturating_sub(1), len])
                    {
                        let n = if len > 0 { p % (len + 1) } else { p };
                        out.push(verdict(&saved.get(n)));
                    }
                }
                Err(e) => out.push(Verdict::Refused(e.to_string())),
            }
            // A checkpoint resumed by a run to the fixture's target.
            if resume {
                let opts = heap::RecordOptions {
                    upto: TARGET,
                    checkpoint: Some(dir.clone()),
                    keep_values: true,
                    ..Default::default()
                };
                out.push(verdict(&heap::record(
                    &rule,
                    &opts,
                    &mut Compute::new().threads(1),
                )));
            }
            let _ = std::fs::remove_dir_all(&dir);
            out
        },
    );
}

/// The genuine fixture resumes to the same values as a fresh run (the fuzzing above starts
/// from honest files).
#[test]
fn checkpoint_fixture_is_genuine() {
    let f = fixture();
    let dir = scratch("genuine");
    write_dir(&dir, Some(f.state.clone()), None);
    let rule = heap::parse(CODE).unwrap();
    let opts = heap::RecordOptions {
        upto: TARGET,
        checkpoint: Some(dir.clone()),
        keep_values: true,
        ..Default::default()
    };
    let resumed = heap::record(&rule, &opts, &mut Compute::new().threads(1)).unwrap();
    let fresh = heap::sequence(&rule, TARGET, &mut Compute::new()).unwrap();
    assert_eq!(resumed.values.as_deref(), Some(&fresh.values[..]));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every game of the catalogue: its position parser (and analysis, under a small budget) on
/// mutations of its own example and on garbage, and the game names themselves. Covers the
/// parsers the catalogue added: Node Kayles graphs, Hackenbush edge lists, coin rows and
/// turning codes, windup codes and positions, loopy graphs.
#[test]
fn catalogue_positions() {
    use grundy::catalogue::{Budget, Play, Registry};
    let registry = Registry::new();
    let budget = Budget {
        max_positions: 20_000,
        max_bytes: 64 << 20,
    };
    let list = registry.list();
    let games: Vec<String> = list.iter().map(|i| i.game().to_string()).collect();
    let examples: Vec<&'static str> = list
        .iter()
        .map(|i| &*Box::leak(i.example.clone().into_boxed_str()))
        .collect();
    let seeds: &'static [&'static str] = Box::leak(examples.into_boxed_slice());
    let n = games.len();
    fuzz_n(
        "catalogue positions",
        cases() / 5 + 1,
        (
            0..n,
            text(seeds, "0123456789 -,:;@|.#xHTabg\n", 60),
            any::<bool>(),
        ),
        |(i, text, misere)| {
            let mut rules = registry.open(&games[i]).expect("registry games open");
            let pos = rules.parse(&text);
            let mut out = vec![verdict(&pos)];
            if let Ok(p) = pos {
                out.push(verdict(&rules.analyze(
                    &p,
                    &grundy::catalogue::Ask::new(Play::from_misere(misere)).budget(budget),
                )));
            }
            out
        },
    );
    const NAMES: &[&str] = &[
        "windup:8:3,5",
        "turning:1-3",
        "fib:3",
        "sub:1,3,4",
        "0.137",
        "node-kayles",
    ];
    fuzz(
        "catalogue names",
        text(NAMES, "windupturg:0123456789,.-+CEFS!", 30),
        |name| vec![verdict(&registry.open(&name))],
    );
}
