//! Surveys against published data and the reference engine: the periods of the trivial octal
//! games (tczajka/octal-games), the equivalence tables of the same source, every equivalence
//! the expansion claims checked on the values themselves, and a family of subtraction sets.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use grundy::heap::{self, periodicity};
use grundy::survey::{self, Family, RunOptions, Status};

fn testdata(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata")
        .join(name)
}

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("grundy-survey-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `.137` → `0.137`, `4` → `4.0`, `4.72` stays.
fn code_name(game: &str) -> String {
    let g = game.trim();
    if let Some(rest) = g.strip_prefix('.') {
        format!("0.{rest}")
    } else if !g.contains('.') {
        format!("{g}.0")
    } else {
        g.to_string()
    }
}

/// The reference engine's G(0..=n) (the plain mex; no survey code involved).
fn reference(rule: &str, n: u64) -> Vec<u32> {
    let code = heap::parse(rule).unwrap().take_break().unwrap();
    heap::reference::sequence(&code, n)
}

/// (game, prefix, period) of `periodic_trivial.txt`.
fn trivial_games() -> Vec<(String, u64, u64)> {
    let text = std::fs::read_to_string(testdata("octal/periodic_trivial.txt")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            let prefix = f.get(1)?.parse().ok()?;
            let period = f.get(2)?.parse().ok()?;
            Some((code_name(f[0]), prefix, period))
        })
        .collect()
}

#[test]
fn trivial_octal_games_have_their_published_periods() {
    // Every 0.x code of the published table, surveyed as a file family.
    let games: Vec<_> = trivial_games()
        .into_iter()
        .filter(|(g, _, _)| g.starts_with("0."))
        .collect();
    assert!(games.len() >= 60, "{} games", games.len());
    let dir = temp_dir("trivial");
    let list: String = games.iter().map(|(g, _, _)| format!("{g}\n")).collect();
    std::fs::write(dir.join("games.txt"), list).unwrap();
    let family = Family::parse(&format!("file:{}", dir.join("games.txt").display())).unwrap();
    let opts = RunOptions {
        upto: 1 << 13,
        jobs: 2,
        ..Default::default()
    };
    let report = survey::run(&family, &dir.join("s.sqlite"), &opts, None, &mut |_| {}).unwrap();
    let rows: HashMap<_, _> = report.games.iter().map(|r| (r.rule.clone(), r)).collect();
    let mut checked = 0;
    for (g, prefix, period) in &games {
        let r = rows[g.as_str()];
        match r.status {
            Status::Periodic => {
                assert_eq!(
                    (r.preperiod, r.period, r.proven),
                    (Some(*prefix), Some(*period), Some(1)),
                    "{g}"
                );
                checked += 1;
            }
            // A game equal to an earlier one of the list: its representative was checked.
            Status::Equivalent => {}
            s => panic!("{g}: {s:?}"),
        }
    }
    assert!(checked >= 50, "{checked}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The published equivalence tables: code → the representative it is listed under.
fn published_classes() -> HashMap<String, String> {
    let text = std::fs::read_to_string(testdata("octal/equivalences.txt")).unwrap();
    let mut map = HashMap::new();
    for l in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = l.split('|').map(str::trim).collect();
        if f.len() != 8 || !f[0].ends_with('x') || f[0].starts_with("game") {
            continue;
        }
        let prefix = f[0].trim_end_matches('x');
        for (d, entry) in f[1..].iter().enumerate() {
            let code = code_name(&format!("{prefix}{}", d + 1));
            if *entry != "-" && !entry.is_empty() {
                map.insert(code, code_name(entry));
            }
        }
    }
    map
}

fn class_of(map: &HashMap<String, String>, code: &str) -> String {
    let mut c = code.to_string();
    for _ in 0..8 {
        match map.get(&c) {
            Some(next) if *next != c => c = next.clone(),
            _ => break,
        }
    }
    c
}

#[test]
fn equivalences_agree_with_the_published_tables_and_the_engine() {
    let published = published_classes();
    assert!(published.len() > 300, "{}", published.len());
    let mut checked = 0;
    for family in ["octal:3", "hex:2"] {
        let entries = survey::expand(&Family::parse(family).unwrap()).unwrap();
        let n = if family == "hex:2" { 200 } else { 400 };
        let mut cache: HashMap<String, Vec<u32>> = HashMap::new();
        let mut values = |rule: &str| {
            cache
                .entry(rule.to_string())
                .or_insert_with(|| reference(rule, n))
                .clone()
        };
        for e in &entries {
            let Some(eq) = &e.equals else { continue };
            // On the values: G(n) = G_eq(n + shift), 0 below.
            let (a, b) = (values(&e.rule), values(eq));
            for i in 0..=n as i64 {
                let j = i + e.shift;
                let want = if j < 0 {
                    0
                } else {
                    b.get(j as usize).copied().unwrap_or(a[i as usize])
                };
                assert_eq!(
                    a[i as usize], want,
                    "{} = {eq} shifted by {}: heap {i}",
                    e.rule, e.shift
                );
            }
            // In the published tables (octal codes of three digits), the same class.
            if family == "octal:3" {
                assert_eq!(
                    class_of(&published, &e.rule),
                    class_of(&published, eq),
                    "{} ~ {eq}",
                    e.rule
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 150, "{checked}");
}

#[test]
fn subtraction_family_against_the_reference_engine() {
    let dir = temp_dir("sub");
    let opts = RunOptions {
        upto: 1 << 12,
        jobs: 2,
        ..Default::default()
    };
    let report = survey::run(
        &Family::Sub(7),
        &dir.join("s.sqlite"),
        &opts,
        None,
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(report.total.games, 127);
    for r in &report.games {
        assert_eq!(
            (r.status, r.proven),
            (Status::Periodic, Some(1)),
            "{}",
            r.rule
        );
        // The reference engine's own values, and its own period search on them.
        let v = reference(&r.rule, 3000);
        let bound = periodicity::rule_bound(&heap::parse(&r.rule).unwrap());
        let p = periodicity::find(&v, bound).unwrap();
        assert_eq!(
            (Some(p.preperiod), Some(p.period)),
            (r.preperiod, r.period),
            "{}",
            r.rule
        );
        let (e, per) = (p.preperiod as usize, p.period as usize);
        assert!(
            (e..v.len()).all(|i| v[i] == v[e + (i - e) % per]),
            "{}",
            r.rule
        );
        assert_eq!(
            r.max_value,
            v[..=r.computed_upto.unwrap() as usize]
                .iter()
                .max()
                .map(|&m| m as u64)
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--misere`: each row gains its misère quotient (R_8 for 0.75, as the library computes it
/// for the others); a plain survey's rows are solved again when a misère survey follows,
/// and a second misère survey finds nothing left to do.
#[test]
fn misere_columns() {
    let dir = temp_dir("misere");
    std::fs::write(dir.join("games.txt"), "0.75\n0.77\n0.31\n").unwrap();
    let family = Family::parse(&format!("file:{}", dir.join("games.txt").display())).unwrap();
    let db = dir.join("s.sqlite");
    let plain = RunOptions {
        upto: 1 << 12,
        jobs: 1,
        ..Default::default()
    };
    let report = survey::run(&family, &db, &plain, None, &mut |_| {}).unwrap();
    assert!(report.games.iter().all(|r| r.misere_status.is_none()));
    assert_eq!(report.total.misere_quotients, 0);
    let opts = RunOptions {
        misere: Some(12),
        ..plain.clone()
    };
    let mut solved = 0;
    let report = survey::run(&family, &db, &opts, None, &mut |e| {
        if let survey::Event::Finished { .. } = e {
            solved += 1
        }
    })
    .unwrap();
    assert_eq!(solved, 3);
    let rows: HashMap<_, _> = report.games.iter().map(|r| (r.rule.clone(), r)).collect();
    let r = rows["0.75"];
    assert_eq!(
        (r.misere_upto, r.misere_order, r.misere_p, r.misere_tame),
        (Some(12), Some(8), Some(2), Some(0))
    );
    assert_eq!(r.misere_status.as_deref(), Some("quotient"));
    for rule in ["0.77", "0.31"] {
        let q = grundy::misere::quotient(rule, 12).unwrap();
        let r = rows[rule];
        assert_eq!(r.misere_order, Some(q.order as u64), "{rule}");
        assert_eq!(r.misere_p, Some(q.p_size as u64), "{rule}");
        assert_eq!(r.misere_tame, Some(u8::from(q.tame)), "{rule}");
    }
    assert_eq!(report.total.misere_quotients, 3);
    assert!(report.total.misere_largest >= 8);
    assert!(report.describe().contains("misère quotients (3)"));
    assert!(report
        .csv()
        .lines()
        .next()
        .unwrap()
        .ends_with(",misere_status"));
    let mut solved = 0;
    survey::run(&family, &db, &opts, None, &mut |e| {
        if let survey::Event::Finished { .. } = e {
            solved += 1
        }
    })
    .unwrap();
    assert_eq!(solved, 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A survey killed after an unknown game's sequence was saved but before its row was
/// committed (the window `grundy survey`'s kill test can land in) solves the game again from
/// the saved values alone: the row must be the one the first solve gave, the record engine's
/// name and rare-heap count included, although no engine ran the second time.
#[test]
fn a_game_resumed_whole_from_its_saved_values_gives_the_same_row() {
    let dir = temp_dir("resumed-whole");
    let opts = survey::SolveOptions {
        upto: 1 << 14,
        save: Some(dir.join("seqs")),
        threads: 1,
        ..Default::default()
    };
    let strip = |mut r: survey::GameRow| {
        r.seconds = None;
        r
    };
    // 0.6: no period to 2^14, computed by the record engine with rare heaps.
    let first = strip(survey::solve("0.6", &opts, None).unwrap());
    assert_eq!(first.status, Status::Unknown);
    assert_eq!(first.engine.as_deref(), Some("sparse"));
    assert!(first.rare_values.is_some_and(|n| n > 0), "{first:?}");
    let saved = survey::seqfile::load(&dir.join("seqs"), "0.6").unwrap();
    assert_eq!(saved.values.len() as u64, (1 << 14) + 1);
    let again = strip(survey::solve("0.6", &opts, None).unwrap());
    assert_eq!(again, first);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A survey raised to a larger limit continues each unknown game from its saved values on the
/// engine, mask and schedule the saving run stood at, and a game stopped part-way (Ctrl-C)
/// continues likewise: either way the row is the one an uninterrupted solve gives (0.6 stays
/// on the record engine, 0.04 drops it for the reference engine past 2^14 heaps, 0.45 is
/// proven periodic after a raise).
#[test]
fn a_resumed_game_gives_the_row_of_an_uninterrupted_solve() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let dir = temp_dir("resumed-part");
    let strip = |mut r: survey::GameRow| {
        r.seconds = None;
        r
    };
    let opts = |upto: u64, save: Option<PathBuf>| survey::SolveOptions {
        upto,
        save,
        threads: 1,
        ..Default::default()
    };
    for rule in ["0.6", "0.04"] {
        let started = std::time::Instant::now();
        let whole = strip(survey::solve(rule, &opts(1 << 16, None), None).unwrap());
        let took = started.elapsed();
        // Raised limits: 2^12, then 2^13, then 2^16.
        let seqs = dir.join(format!("raised-{rule}"));
        for upto in [1 << 12, 1 << 13] {
            let row = survey::solve(rule, &opts(upto, Some(seqs.clone())), None).unwrap();
            assert_eq!(row.status, Status::Unknown, "{rule} to {upto}");
        }
        let raised = strip(survey::solve(rule, &opts(1 << 16, Some(seqs)), None).unwrap());
        assert_eq!(raised, whole, "{rule}: raised limits");
        // Stopped part-way (each run after about a third of the whole solve's time, so the
        // stops fall before and after the record engine's 2^14-heap test), then resumed.
        let seqs = dir.join(format!("stopped-{rule}"));
        for _ in 0..3 {
            let stop = AtomicBool::new(false);
            std::thread::scope(|s| {
                s.spawn(|| {
                    std::thread::sleep(took / 3);
                    stop.store(true, Ordering::Relaxed);
                });
                let _ = survey::solve(rule, &opts(1 << 16, Some(seqs.clone())), Some(&stop));
            });
        }
        let resumed = strip(survey::solve(rule, &opts(1 << 16, Some(seqs)), None).unwrap());
        assert_eq!(resumed, whole, "{rule}: stopped and resumed");
    }
    // 0.45's period is proven at 2^11 heaps but not at 1030: a survey to 1030 leaves it
    // unknown, and raised to 2^16 it is proven where an uninterrupted run proves it (2^11,
    // the doubling schedule), not at twice 1030.
    let whole = strip(survey::solve("0.45", &opts(1 << 16, None), None).unwrap());
    assert_eq!(
        (whole.status, whole.computed_upto),
        (Status::Periodic, Some(2048))
    );
    let seqs = dir.join("raised-0.45");
    let first = survey::solve("0.45", &opts(1030, Some(seqs.clone())), None).unwrap();
    assert_eq!(first.status, Status::Unknown);
    let raised = strip(survey::solve("0.45", &opts(1 << 16, Some(seqs)), None).unwrap());
    assert_eq!(raised, whole);
    let _ = std::fs::remove_dir_all(&dir);
}
