//! The engines against reference data nobody here computed (copied from shared/data into
//! tests/data with their headers): OEIS, CGSuite's tests, tczajka/octal-games, contest problems.

use std::collections::BTreeMap;
use std::fs;
use std::path::PathBuf;

use grundy_heap::periodicity::{self, Status};
use grundy_heap::rule::parse;
use grundy_heap::{engine, sum};

fn data(path: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(path);
    fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn seq(rule: &str, n: u64) -> Vec<u32> {
    engine::sequence(&parse(rule).unwrap_or_else(|e| panic!("{rule}: {e}")), n).unwrap()
}

/// Code tokens (`.137`, `4.41`, ranges `.074-.077`) in a text, with the `a(n-k)` shift that
/// follows them: the INDEX.tsv convention is "X has a(n-k)" meaning G_X(n) = a(n-k). Codes in
/// the first `;`-separated segment without a shift are the sequence itself (k = 0); codes in
/// later segments without a shift are only mentioned (e.g. "computed to 2^27") and skipped.
fn codes_with_shifts(desc: &str) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    for (seg_no, seg) in desc.split(';').enumerate() {
        let b = seg.as_bytes();
        let mut pending: Vec<String> = Vec::new();
        let mut i = 0;
        while i < b.len() {
            if seg[i..].starts_with("a(n-") {
                let rest = &seg[i + 4..];
                let end = rest.find(')').unwrap();
                let k: u64 = rest[..end].parse().unwrap();
                out.extend(pending.drain(..).map(|c| (c, k)));
                i += 4 + end;
                continue;
            }
            let prev_ok = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'.');
            let start_four = b[i] == b'4' && b.get(i + 1) == Some(&b'.');
            if prev_ok && (b[i] == b'.' || start_four) {
                let dot = if start_four { i + 1 } else { i };
                let mut j = dot + 1;
                while j < b.len() && (b'0'..=b'7').contains(&b[j]) {
                    j += 1;
                }
                let after_ok = j > dot + 1 && !(j < b.len() && b[j].is_ascii_digit());
                if after_ok {
                    let code = &seg[i..j];
                    // A range .074-.077: same prefix, last digit from .. to.
                    if seg[j..].starts_with("-.") || seg[j..].starts_with("-4.") {
                        let k = j + 1;
                        let mut m = k + if b[k] == b'4' { 2 } else { 1 };
                        while m < b.len() && b[m].is_ascii_digit() {
                            m += 1;
                        }
                        let to = &seg[k..m];
                        assert_eq!(to.len(), code.len(), "range {code}-{to}");
                        let (lo, hi) =
                            (code.as_bytes()[code.len() - 1], to.as_bytes()[to.len() - 1]);
                        for d in lo..=hi {
                            pending.push(format!("{}{}", &code[..code.len() - 1], d as char));
                        }
                        i = m;
                    } else {
                        pending.push(code.to_string());
                        i = j;
                    }
                    continue;
                }
            }
            i += 1;
        }
        if seg_no == 0 {
            out.extend(pending.drain(..).map(|c| (c, 0)));
        }
    }
    out
}

#[test]
fn oeis_every_sequence_term_by_term() {
    let index = data("oeis/INDEX.tsv");
    let mut listed = 0;
    let mut checked_games = 0;
    let mut skipped = Vec::new();
    for line in index
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("anum"))
    {
        let cols: Vec<&str> = line.split('\t').collect();
        let (anum, desc) = (cols[0], cols[4]);
        listed += 1;
        let terms: Vec<(u64, u32)> = data(&format!("oeis/{anum}.txt"))
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| {
                let mut it = l.split_whitespace();
                (
                    it.next().unwrap().parse().unwrap(),
                    it.next().unwrap().parse().unwrap(),
                )
            })
            .collect();
        let mut games = codes_with_shifts(desc);
        if desc.starts_with("Grundy's game") {
            games.push(("grundys-game".into(), 0));
        }
        if desc.contains("Take-a-Square") {
            games.push(("sub:squares".into(), 0));
        }
        if desc.starts_with("Wythoff's game") {
            // A two-heap game (a table, not a heap sequence): grundy-games checks Wythoff.
            skipped.push(anum);
            continue;
        }
        assert!(!games.is_empty(), "{anum}: no game found in '{desc}'");
        let last = terms.last().unwrap().0;
        for (game, k) in games {
            let g = seq(&game, last + k);
            for &(n, a) in &terms {
                assert_eq!(
                    g[(n + k) as usize],
                    a,
                    "{anum}: {game} at heap {} (a({n}))",
                    n + k
                );
            }
            checked_games += 1;
        }
    }
    let files = fs::read_dir(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/oeis"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with('A')
        })
        .count();
    assert_eq!(listed, files, "every sequence file is in INDEX.tsv");
    assert_eq!(skipped, vec!["A004481"]);
    assert!(checked_games > 150, "{checked_games}");
}

#[test]
fn cgsuite_heap_sequences() {
    let text = data("cgsuite/heap_sequences.txt");
    let mut blocks = 0;
    for block in text.split("\n\n").filter(|b| b.contains("ruleset:")) {
        let field = |name: &str| {
            block
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{name}: ")))
                .map(str::trim)
                .unwrap()
        };
        let ruleset = field("ruleset");
        let ours = match ruleset {
            "game.heap.Nim" => "nim",
            "game.heap.GrundysGame" => "grundys-game",
            "game.heap.Kayles" => "kayles",
            "game.heap.DawsonsKayles" => "dawsons-kayles",
            "game.heap.Subtraction([2,3,7])" => "sub:2,3,7",
            "game.heap.Subtraction([2,3,7], allbut => true)" => "allbut:2,3,7",
            r if r.starts_with("game.heap.TakeAndBreak(\"") => &r[24..r.len() - 2],
            other => panic!("unmapped ruleset {other}"),
        };
        let code = field("code");
        let rule = parse(ours).unwrap();
        let as_code = grundy_heap::rule::format_code(&rule.take_break().unwrap());
        assert_eq!(as_code, code, "{ruleset}");
        let nim: Vec<u32> = field("nim[1..20]")
            .split(',')
            .map(|x| x.parse().unwrap())
            .collect();
        let from_rule = engine::sequence(&rule, 20).unwrap();
        let from_code = seq(code, 20);
        assert_eq!(from_rule[1..], nim[..], "{ruleset}");
        assert_eq!(from_code[1..], nim[..], "{ruleset} via its code");
        // Distinct option multisets of heap 20 (CGSuite's count).
        let mut opts = std::collections::BTreeSet::new();
        grundy_heap::options::for_each_option(&rule.take_break().unwrap(), 20, |_, p| {
            opts.insert(p.to_vec());
        });
        assert_eq!(opts.len().to_string(), field("opts20"), "{ruleset}");
        // CGSuite's periodicity, where it finds one, must be ours, proven.
        let period = field("period");
        if let Some(rest) = period.strip_prefix("Periodicity(Period => ") {
            let nums: Vec<u64> = rest
                .split(|c: char| !c.is_ascii_digit())
                .filter(|s| !s.is_empty())
                .map(|s| s.parse().unwrap())
                .collect();
            let (_, r) = periodicity::until_proven(&rule, 64, 100_000, &mut |_| true).unwrap();
            let r = r.unwrap();
            assert_eq!(
                (r.period, r.preperiod, r.saltus, r.status),
                (nums[0], nums[1], 0, Status::Proven),
                "{ruleset}"
            );
        }
        blocks += 1;
    }
    assert_eq!(blocks, text.matches("ruleset:").count());
    assert!(blocks >= 7);
}

fn base36(c: char) -> u32 {
    c.to_digit(36).unwrap()
}

/// tczajka's game names: `.77` is 0.77, `4` is 4.0, `4.12` as is.
fn octal_name(name: &str) -> String {
    if name.starts_with('.') {
        format!("0{name}")
    } else if !name.contains('.') {
        format!("{name}.0")
    } else {
        name.to_string()
    }
}

#[test]
fn octal_periodic_trivial_all_82_proven() {
    let text = data("octal/periodic_trivial.txt");
    let mut n = 0;
    for line in text
        .lines()
        .filter(|l| l.contains('|') && !l.starts_with("game") && !l.starts_with(":-"))
    {
        let cols: Vec<&str> = line.split('|').map(str::trim).collect();
        let (game, prefix, period, nimbers) = (cols[0], cols[1], cols[2], cols[3]);
        let prefix: u64 = prefix.parse().unwrap();
        let period: u64 = period.parse().unwrap();
        let rule = parse(&octal_name(game)).unwrap();
        let (values, r) = periodicity::until_proven(&rule, 256, 1 << 16, &mut |_| true).unwrap();
        let r = r.unwrap_or_else(|| panic!("{game}: no period"));
        assert_eq!(
            (r.preperiod, r.period, r.status),
            (prefix, period, Status::Proven),
            "{game}"
        );
        let digits: Vec<u32> = nimbers
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .map(base36)
            .collect();
        assert_eq!(digits.len() as u64, prefix + period);
        assert_eq!(values[..digits.len()], digits[..], "{game}");
        n += 1;
    }
    assert_eq!(n, 82);
}

#[test]
fn octal_equivalences_up_to_a_shift() {
    let text = data("octal/equivalences.txt");
    let mut checked = 0;
    let mut cache: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    let mut get = |name: &str| {
        cache
            .entry(name.to_string())
            .or_insert_with(|| seq(&octal_name(name), 300))
            .clone()
    };
    for line in text.lines().filter(|l| l.contains('|')) {
        let cols: Vec<&str> = line.split('|').map(str::trim).collect();
        let row = cols[0];
        if !row.ends_with('x') {
            continue;
        }
        for (d, target) in cols[1..].iter().enumerate() {
            if *target == "-" || target.is_empty() {
                continue;
            }
            let game = row.replace('x', &(d + 1).to_string());
            let (a, b) = (get(&game), get(target));
            // "Equivalent" allows renumbering heaps by a constant (see the file's header).
            let found =
                (-4i64..=4).any(|k| (4..250).all(|n: i64| a[n as usize] == b[(n + k) as usize]));
            assert!(found, "{game} ~ {target}");
            checked += 1;
        }
    }
    assert!(checked > 500, "{checked}");
}

fn numbers_after(line: &str, marker: &str) -> Vec<u64> {
    let rest = &line[line.find(marker).unwrap() + marker.len()..];
    rest.split_whitespace()
        .map_while(|t| t.parse().ok())
        .collect()
}

#[test]
fn contest_games() {
    let text = data("games/cp_games_reference.txt");
    let line = |start: &str| text.lines().find(|l| l.starts_with(start)).unwrap();
    let as_u32 = |v: Vec<u64>| v.into_iter().map(|x| x as u32).collect::<Vec<u32>>();

    // The Pimber values are on the line after the heading.
    let mut lines = text.lines();
    lines
        .find(|l| l.starts_with("== Pimber (subtract"))
        .unwrap();
    let pim: Vec<u32> = lines
        .next()
        .unwrap()
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(pim.len(), 100);
    assert_eq!(seq("pimber", 99), pim);
    let big = seq("pimber", 3_000_000);
    let firsts = [
        0u64, 1, 2, 3, 8, 9, 144, 145, 167, 627, 2677, 2725, 2726, 12071, 48652, 206025,
    ];
    for (k, &first) in firsts.iter().enumerate() {
        assert_eq!(
            big.iter().position(|&g| g == k as u32),
            Some(first as usize),
            "Pimber first {k}"
        );
    }
    assert_eq!(*big.iter().max().unwrap(), 15);
    assert_eq!(big.iter().filter(|&&g| g == 0).count(), 538351);
    assert_eq!(*big[..=100_000].iter().max().unwrap(), 14);

    let oen = as_u32(numbers_after(line("== Odd-even Nim"), "g(0..40): "));
    assert_eq!(seq("odd-even-nim", 40), oen);
    let odd_even = seq("odd-even-nim", 79);
    for p in 1..=79u64 {
        let formula = if p % 2 == 1 { p.div_ceil(2) } else { p / 2 - 1 };
        assert_eq!(odd_even[p as usize] as u64, formula);
    }

    let poly = as_u32(numbers_after(line("== Polygon game"), "g(0..60): "));
    assert_eq!(seq("polygon-chords", 60), poly);
    let losing = numbers_after(line("   losing N in [3,1000]"), "(answer 2): ");
    let p1000 = seq("polygon-chords", 1000);
    let ours: Vec<u64> = (3..=1000).filter(|&n| p1000[n as usize] == 0).collect();
    assert_eq!(ours[..losing.len()], losing[..]);

    let crosses = as_u32(numbers_after(line("== Crosses-and-crosses"), "g(1..60): "));
    assert_eq!(seq("crosses", 60)[1..], crosses[..]);
    let second = numbers_after(line("   N in [1,2000] where 2nd"), "(answer 2): ");
    let c2000 = seq("crosses", 2000);
    let ours: Vec<u64> = (1..=2000).filter(|&n| c2000[n as usize] == 0).collect();
    assert_eq!(ours, second);

    // S-Nim (Kattis snim): L = the player to move loses.
    let snim = line("== S-Nim");
    assert!(snim.contains("S={2,5} positions (5,12),(2,4,7),(2,3,7,12) -> LWW"));
    assert!(snim.contains("S={1,2,3,4,5} -> WWL"));
    for (rule, expect) in [("sub:2,5", "LWW"), ("sub:1,2,3,4,5", "WWL")] {
        let r = parse(rule).unwrap();
        let v = engine::sequence(&r, 12).unwrap();
        let got: String = [vec![5u64, 12], vec![2, 4, 7], vec![2, 3, 7, 12]]
            .iter()
            .map(|pos| match sum::analyze(&r, pos, &v).unwrap().outcome {
                sum::Outcome::P => 'L',
                sum::Outcome::N => 'W',
            })
            .collect();
        assert_eq!(got, expect, "{rule}");
    }
}

/// Treblecross on the strip itself, against `crosses` (code 0.007 shifted by 2). Marking a
/// cell within two cells of a cross lets the opponent complete three at once, so the safe
/// moves are the cells at distance >= 3 from every cross; whoever has no safe move loses.
/// This brute force works on whole boards (many gaps at once), not on the code.
#[test]
fn crosses_brute_force_on_strips() {
    fn wins(board: &mut Vec<bool>, memo: &mut BTreeMap<Vec<bool>, bool>) -> bool {
        if let Some(&w) = memo.get(board) {
            return w;
        }
        let n = board.len();
        let safe = |b: &Vec<bool>, i: usize| (i.saturating_sub(2)..(i + 3).min(n)).all(|j| !b[j]);
        let mut win = false;
        for i in 0..n {
            if !safe(board, i) {
                continue;
            }
            board[i] = true;
            let w = !wins(board, memo);
            board[i] = false;
            if w {
                win = true;
                break;
            }
        }
        memo.insert(board.clone(), win);
        win
    }
    let g = seq("crosses", 16);
    for (n, &value) in g.iter().enumerate().skip(1) {
        let mut memo = BTreeMap::new();
        assert_eq!(
            wins(&mut vec![false; n], &mut memo),
            value != 0,
            "strip of {n}"
        );
    }
}
