//! The shared corpus: every case in `testdata/` through every engine that claims it.
//!
//! `testdata/` holds reference data nobody on this project computed (OEIS, CGSuite's tests,
//! tczajka/octal-games, M. Rogalski's histograms, contest problems, the Penney tables), copied
//! with their source headers. [`load`] turns each file into [`Case`]s; [`ENGINES`] lists the
//! engines, one line each. Every case goes through every engine whose `claims` accepts its
//! kind; an engine that cannot take a particular case (a rule it refuses, a size beyond its
//! reach) answers [`Skip`]. Each answer is checked against the data and against the answers
//! of the other engines to the same case.
//!
//! The run ends with a table `engine | run | skipped | disagreements` and the line
//! `corpus: N passed, M failed`; the exit code is 1 when anything failed or when an engine
//! ran no case at all.
//!
//! ```text
//! cargo test -p grundy --test corpus            # everything
//! cargo test -p grundy --test corpus -- oeis/   # only cases whose name contains "oeis/"
//! ```

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use grundy::catalogue::{Budget as CatalogueBudget, Play as CPlay};
use grundy::game::{Game, Solver};
use grundy::heap::{Compute, Rule};
use grundy::nim::Play;
use grundy::penney::dashu::rational::RBig;
use grundy::penney::{chain, conway, correlation_system, Alphabet, Race};
use grundy::Outcome;
use grundy_heap::periodicity::{self, Periodicity, Status};
use grundy_heap::rule::{InfiniteSet, SubtractionSet};
use grundy_heap::TakeBreak;

// ---------------------------------------------------------------------------------------------
// Engines: adding one is adding one line here.
// ---------------------------------------------------------------------------------------------

/// One engine: what it claims (the kinds of case it answers) and how it answers one.
struct Engine {
    /// The name in the table.
    name: &'static str,
    /// True for the kinds of case this engine answers (heap, Nim, pattern race, registry game).
    claims: fn(&Case) -> bool,
    /// The engine's answer, or [`Skip`] when it cannot take this particular case.
    run: fn(&Case) -> Result<Answer, Skip>,
}

/// Every engine, in the order of the table.
#[rustfmt::skip]
const ENGINES: &[Engine] = &[
    Engine { name: "reference",          claims: is_heap, run: heap_reference },
    Engine { name: "subtraction",        claims: is_heap, run: heap_subtraction },
    Engine { name: "sparse-1t",          claims: is_heap, run: |c| heap_sparse(c, 1) },
    Engine { name: "sparse-2t",          claims: is_heap, run: |c| heap_sparse(c, 2) },
    Engine { name: "sparse-window",      claims: is_heap, run: heap_sparse_window },
    Engine { name: "sparse-run-window",  claims: is_heap, run: heap_sparse_run },
    Engine { name: "facade",             claims: is_heap, run: heap_facade },
    Engine { name: "heap-solver",        claims: is_heap_or_misere, run: heap_solver },
    Engine { name: "lua-script",         claims: is_heap, run: heap_script },
    Engine { name: "nim-closed-form",    claims: is_nim,  run: nim_closed_form },
    Engine { name: "solver",             claims: is_nim,  run: nim_solver },
    Engine { name: "conway",             claims: is_race, run: race_conway },
    Engine { name: "correlation-system", claims: is_race, run: race_correlation_system },
    Engine { name: "chain",              claims: is_race, run: race_chain },
    Engine { name: "catalogue",          claims: is_game, run: game_catalogue },
    Engine { name: "play",               claims: is_game, run: game_play },
    Engine { name: "moves-search",       claims: is_game, run: game_moves_search },
];

/// The plain mex engines handle splitting rules up to this many heaps (quadratic work).
const REFERENCE_SPLIT_LIMIT: u64 = 10_000;
/// Heaps any engine computes in this corpus (the histograms at 2^16 are the largest cases).
const HEAP_LIMIT: u64 = 1 << 16;
/// The memory window's depth and prefix in the windowed engines: small, so that values are
/// dropped and fetched back.
const WINDOW_DEPTH: u64 = 64;
/// Heaps the windowed engine computes between two hand-overs to its log (one block).
const WINDOW_STEP: u64 = 4096;
/// Largest chain the Markov-chain solver may build.
const CHAIN_STATES: usize = 10_000;
/// Cram boards of `games/cram.txt` up to this many cells join the corpus (the larger ones
/// are `crates/board`'s tests and `bench/boards.sh`'s).
const CRAM_CELLS: u64 = 20;
/// Arc Kayles on the paths of 1.. vertices, of the 50 that CGSuite's tests give.
const ARC_KAYLES_PATHS: usize = 50;
/// Node Kayles on the paths of 1..=131 vertices (A002187's lines, from 0: all of them; past
/// 128 vertices the expansion values them, through the same door).
const NODE_KAYLES_PATHS: usize = 132;
/// Node Kayles on 1..=DIAMONDS linked diamonds (A316781; 3n + 1 vertices).
const DIAMONDS: u64 = 30;
/// Node Kayles on the scalloped graphs P_4(3) … P_SCALLOPED(3) (A317367).
const SCALLOPED: u64 = 60;
/// Node Kayles on the generalized Petersen graphs P(5, 2) … P(PETERSEN, 2) (A316533).
const PETERSEN: u64 = 21;
/// Node Kayles on the queens graphs 1 x 1 … QUEENS x QUEENS (A344227; queens:12, 144
/// vertices, by the expansion, about 2 s a door).
const QUEENS: u64 = 12;

// ---------------------------------------------------------------------------------------------
// Cases and answers
// ---------------------------------------------------------------------------------------------

/// One reference fact.
struct Case {
    /// Where it comes from and what it is, e.g. `oeis/A002187 0.07 a(n-1)`.
    name: String,
    kind: Kind,
}

/// The kinds of fact in the corpus.
enum Kind {
    /// G(from), G(from + 1), … of a one-heap rule.
    Sequence {
        rule: String,
        from: u64,
        values: Vec<u32>,
    },
    /// The rule's sequence is periodic: preperiod, period, and G(0..preperiod + period).
    Period {
        rule: String,
        preperiod: u64,
        period: u64,
        values: Vec<u32>,
    },
    /// How many of the heaps 1..=n have each value.
    Histogram {
        rule: String,
        n: u64,
        counts: BTreeMap<u32, u64>,
    },
    /// The misère Grundy values of single heaps 0, 1, … of a one-heap rule (the `m` for which
    /// heap + *m is a misère P-position).
    Misere { rule: String, values: Vec<u32> },
    /// A Nim position (heaps), in normal or misère play.
    Nim {
        heaps: Vec<u64>,
        misere: bool,
        expect: NimFact,
    },
    /// A position of a registry game (`grundy::catalogue`) and one fact about it.
    Game {
        game: String,
        position: String,
        fact: GameFact,
    },
    /// A race of patterns on a fair coin: each pattern's chance to come first and the expected
    /// number of tosses (`win` is `None` where the data does not say).
    Race {
        patterns: Vec<String>,
        win: Vec<Option<RBig>>,
        expected: RBig,
    },
}

/// What a Nim case states.
#[derive(Clone, Copy, Debug, PartialEq)]
enum NimFact {
    /// Who wins.
    Outcome(Outcome),
    /// The Sprague–Grundy value (normal play).
    Value(u64),
    /// How many first moves win.
    WinningMoves(u64),
}

/// What a registry-game case states.
#[derive(Clone, Debug, PartialEq)]
enum GameFact {
    /// The Sprague–Grundy value (normal play).
    Value(u64),
    /// Who wins.
    Outcome(Outcome),
    /// The position wins, and these are the positions its winning moves leave (as text).
    WinningMoves(BTreeSet<String>),
    /// A scoring game: the first player's total with best play on both sides.
    FirstTotal(i64),
    /// No published fact: the engines must agree with each other.
    Agree,
}

/// A registry-game answer: all an engine knows of the position.
#[derive(Clone, Debug, PartialEq)]
struct GameAnswer {
    outcome: Outcome,
    /// The value, where the game has one.
    value: Option<u64>,
    /// The positions the winning moves leave, where the engine lists them.
    winning: Option<BTreeSet<String>>,
    /// The first player's total, in a scoring game.
    first_total: Option<i64>,
}

/// An engine's answer, in the terms of the case's kind.
#[derive(Clone, Debug, PartialEq)]
enum Answer {
    /// G(0..) in natural heap sizes (at least as far as the case needs), and the period the
    /// engine found, when it looked for one.
    Heap {
        values: Vec<u32>,
        period: Option<Periodicity>,
    },
    /// Misère Grundy values of heaps 0, 1, ….
    Misere(Vec<u32>),
    /// A Nim answer.
    Nim(NimFact),
    /// A registry-game answer.
    Game(GameAnswer),
    /// Each pattern's chance to come first, and the expected number of tosses.
    Race {
        win: Vec<Option<RBig>>,
        expected: RBig,
    },
}

/// Why an engine gave no answer.
enum Skip {
    /// It cannot take this case: a rule it refuses, a size beyond its reach (counted as
    /// skipped; the reason is printed with `--verbose`).
    Unsupported(String),
    /// It took the case and failed: an error, a panic, an inconsistent result (counted as a
    /// failure).
    Failed(String),
}

/// A failure of an engine that took the case.
fn failed<E: std::fmt::Display>(e: E) -> Skip {
    Skip::Failed(e.to_string())
}

fn is_heap(c: &Case) -> bool {
    matches!(
        c.kind,
        Kind::Sequence { .. } | Kind::Period { .. } | Kind::Histogram { .. }
    )
}
fn is_heap_or_misere(c: &Case) -> bool {
    is_heap(c) || matches!(c.kind, Kind::Misere { .. })
}
fn is_nim(c: &Case) -> bool {
    matches!(c.kind, Kind::Nim { .. })
}
fn is_game(c: &Case) -> bool {
    matches!(c.kind, Kind::Game { .. })
}
fn is_race(c: &Case) -> bool {
    matches!(c.kind, Kind::Race { .. })
}

// ---------------------------------------------------------------------------------------------
// Heap engines
// ---------------------------------------------------------------------------------------------

/// What a heap case asks an engine to compute: the rule, its base rule and shift, and the last
/// heap N (natural sizes) such that G(0..=N) answers the case.
struct HeapWork {
    rule: Rule,
    base: Rule,
    shift: u64,
    n: u64,
    wants_period: bool,
}

impl HeapWork {
    /// Heaps of the base rule: G_base(0..=m).
    fn m(&self) -> u64 {
        self.n + self.shift
    }
}

fn heap_work(c: &Case) -> Result<HeapWork, Skip> {
    let (text, n, wants_period) = match &c.kind {
        Kind::Sequence { rule, from, values } => (rule, from + values.len() as u64 - 1, false),
        Kind::Histogram { rule, n, .. } => (rule, *n, false),
        Kind::Period {
            rule,
            preperiod,
            period,
            ..
        } => {
            let r = grundy_heap::parse(rule).map_err(failed)?;
            // Far enough for the Guy–Smith check (or 6 periods past the preperiod when no
            // theorem covers the rule).
            let n = match periodicity::rule_bound(&r) {
                Some(b) => b.needs_upto(*preperiod, *period),
                None => preperiod + 6 * period,
            };
            // `periodicity::find` tries periods up to half the values it is given.
            (rule, n.max(preperiod + 2 * period), true)
        }
        _ => return Err(Skip::Unsupported("not a heap case".into())),
    };
    let rule = grundy_heap::parse(text).map_err(failed)?;
    let (base, shift) = rule.base_and_shift();
    let (base, shift) = (base.clone(), shift);
    if n + shift > HEAP_LIMIT {
        return Err(Skip::Unsupported(format!(
            "{} heaps is beyond this corpus' limit",
            n + shift
        )));
    }
    Ok(HeapWork {
        rule,
        base,
        shift,
        n,
        wants_period,
    })
}

/// The answer from G_base(0..=m): natural values, and the period where the case asks for one.
fn heap_answer(w: &HeapWork, mut base_values: Vec<u32>) -> Answer {
    base_values.drain(..w.shift as usize);
    let period = if w.wants_period {
        periodicity::analyze(&w.rule, &base_values)
    } else {
        None
    };
    Answer::Heap {
        values: base_values,
        period,
    }
}

fn splits(code: &TakeBreak) -> bool {
    code.digits.iter().any(|d| d.mask >= 4)
}

/// The plain mex method (`grundy_heap::reference`), or a direct scan of the set for infinite
/// subtraction sets: quadratic for splitting rules, so only up to [`REFERENCE_SPLIT_LIMIT`].
fn heap_reference(c: &Case) -> Result<Answer, Skip> {
    let w = heap_work(c)?;
    let values = match &w.base {
        Rule::Subtraction(SubtractionSet::Infinite(set)) => {
            grundy_heap::subtraction::direct_sequence(&set.members_upto(w.m()), w.m())
        }
        base => {
            let code = base
                .take_break()
                .ok_or_else(|| Skip::Unsupported("no code".into()))?;
            if splits(&code) && w.m() > REFERENCE_SPLIT_LIMIT {
                return Err(Skip::Unsupported(format!(
                    "{} heaps of a splitting code is too slow",
                    w.m()
                )));
            }
            grundy_heap::reference::try_sequence(&code, w.m(), &mut |_| true).map_err(failed)?
        }
    };
    Ok(heap_answer(&w, values))
}

/// The engines for moves that leave at most one heap (`grundy_heap::subtraction`).
fn heap_subtraction(c: &Case) -> Result<Answer, Skip> {
    let w = heap_work(c)?;
    let values = match &w.base {
        Rule::Subtraction(SubtractionSet::Infinite(set)) => {
            grundy_heap::subtraction::sparse_set_sequence(*set, w.m(), &mut |_| true)
                .map_err(failed)?
        }
        base => {
            let code = base
                .take_break()
                .ok_or_else(|| Skip::Unsupported("no code".into()))?;
            grundy_heap::subtraction::quaternary_sequence(&code, w.m(), &mut |_| true)
                .ok_or_else(|| Skip::Unsupported("moves that leave two heaps".into()))?
                .map_err(failed)?
        }
    };
    Ok(heap_answer(&w, values))
}

/// The code the sparse engine runs for a case, or why it cannot.
fn sparse_code(w: &HeapWork) -> Result<TakeBreak, Skip> {
    let code = match &w.base {
        Rule::Subtraction(SubtractionSet::Infinite(s))
            if !matches!(s, InfiniteSet::Odd | InfiniteSet::Even) =>
        {
            return Err(Skip::Unsupported("an infinite subtraction set".into()))
        }
        base => base
            .take_break()
            .ok_or_else(|| Skip::Unsupported("no code".into()))?,
    };
    grundy_sparse::Plan::new(&code).map_err(|e| Skip::Unsupported(e.to_string()))?;
    Ok(code)
}

/// The sparse engine, all values in memory, with `threads` threads.
fn heap_sparse(c: &Case, threads: usize) -> Result<Answer, Skip> {
    let w = heap_work(c)?;
    let code = sparse_code(&w)?;
    let values = grundy_sparse::values(&code, w.m(), threads).map_err(failed)?;
    Ok(heap_answer(&w, values))
}

/// The sparse engine with a tiny memory window (2 threads), advanced a block at a time: after
/// each step the new values go to a log and are declared durable, so the window drops them and
/// fetches them back from the log when a split needs them again. The answer is the log.
fn heap_sparse_window(c: &Case) -> Result<Answer, Skip> {
    let w = heap_work(c)?;
    let code = sparse_code(&w)?;
    let log: Arc<Mutex<Vec<u32>>> = Arc::default();
    let source = Arc::clone(&log);
    let mut e = grundy_sparse::Engine::new(&code)
        .map_err(failed)?
        .with_threads(2)
        .with_window(
            Box::new(move |i| source.lock().unwrap()[i as usize]),
            Some(WINDOW_DEPTH),
        );
    let total = w.m() + 1;
    while e.len() < total {
        let before = e.len();
        e.advance((before + WINDOW_STEP).min(total), &mut |_| true);
        if e.len() == before {
            return Err(failed(format!("the engine stopped at heap {before}")));
        }
        let fresh = e.values_range(before, e.len());
        log.lock().unwrap().extend(fresh);
        e.set_durable(e.len());
    }
    let values = std::mem::take(&mut *log.lock().unwrap());
    if values.len() as u64 != total {
        return Err(failed(format!(
            "the log holds {} values, not {total}",
            values.len()
        )));
    }
    // The engine's own histogram must be that of the values it handed out.
    if e.histogram() != histogram_of(&values) {
        return Err(failed(
            "the windowed engine's histogram is not that of its values",
        ));
    }
    WINDOW_FETCHES.fetch_add(e.gap_fetches(), Ordering::Relaxed);
    Ok(heap_answer(&w, values))
}

/// Values fetched back by the windowed engines over the whole corpus (printed with the table).
static WINDOW_FETCHES: AtomicU64 = AtomicU64::new(0);
static RUN_FETCHES: AtomicU64 = AtomicU64::new(0);

/// `grundy_sparse::run`, the record-run driver (one thread): a temporary save directory, the memory window
/// on with a tiny depth, the period search on. The values are read back from the saved chunks
/// and the summary is checked against them. (The window drops only whole chunks already on
/// disk, `grundy_sparse::CHUNK` heaps each, more than any case here: this engine checks the
/// driver, the save and the summary; `sparse-window` checks dropping and fetching back.)
fn heap_sparse_run(c: &Case) -> Result<Answer, Skip> {
    let w = heap_work(c)?;
    let code = sparse_code(&w)?;
    let dir = temp_dir();
    let opts = grundy_sparse::RunOptions {
        upto: w.m(),
        // One thread: the 2-thread engines already run every case, and helper threads that
        // spin between blocks cost dearly on a busy 2-core machine.
        threads: 1,
        checkpoint: None,
        checkpoint_every: Duration::from_secs(3600),
        save: Some(dir.clone()),
        find_period: w.wants_period && w.shift == 0,
        window: true,
        window_depth: Some(WINDOW_DEPTH),
    };
    let result = (|| {
        let out = grundy_sparse::run(&code, &opts, &mut |_| true).map_err(failed)?;
        let (_, values) = grundy_sparse::Store::open(&dir, &code, w.m())
            .and_then(|mut s| s.load())
            .map_err(failed)?
            .ok_or_else(|| failed("the save directory holds no values"))?;
        RUN_FETCHES.fetch_add(out.gap_fetches, Ordering::Relaxed);
        let s = &out.summary;
        if values.len() as u64 != w.m() + 1 || s.n != w.m() {
            return Err(failed(format!(
                "saved {} values, summary n = {}",
                values.len(),
                s.n
            )));
        }
        if s.histogram != histogram_of(&values) {
            return Err(failed(
                "the summary's histogram is not that of the saved values",
            ));
        }
        let max = values.iter().copied().max().unwrap_or(0);
        let first = values.iter().position(|&v| v == max).unwrap_or(0) as u64;
        if (s.max_value, s.max_first) != (max, first) {
            return Err(failed(
                "the summary's largest value is not that of the saved values",
            ));
        }
        let mut answer = heap_answer(&w, values);
        if opts.find_period {
            // The run's own period search (over the values read back from the chunks).
            if let Answer::Heap { period, .. } = &mut answer {
                *period = s.period;
            }
        }
        Ok(answer)
    })();
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// The facade, `grundy::heap`, with the engine chosen automatically: `sequence` for values,
/// `find_period` for periods.
fn heap_facade(c: &Case) -> Result<Answer, Skip> {
    let w = heap_work(c)?;
    if w.wants_period {
        let s = grundy::heap::find_period(&w.rule, &mut Compute::default()).map_err(failed)?;
        return Ok(Answer::Heap {
            values: s.values,
            period: s.period,
        });
    }
    let s = grundy::heap::sequence(&w.rule, w.n, &mut Compute::default()).map_err(failed)?;
    Ok(Answer::Heap {
        values: s.values,
        period: None,
    })
}

/// Heaps the Lua script engine computes for codes that split (quadratic work in Lua), and for
/// the others.
const SCRIPT_SPLIT_LIMIT: u64 = 1000;
const SCRIPT_LIMIT: u64 = 10_000;

/// The rule as a game script (`grundy::script`): a subtraction set as its members, a code
/// (leaving at most two heaps, `!` allowed) as its digits' masks, solved by the Lua engine.
fn heap_script(c: &Case) -> Result<Answer, Skip> {
    use grundy::script::{Limits, Script};
    use grundy_heap::code::Constraint;
    let w = heap_work(c)?;
    let m = w.m();
    let source = match &w.base {
        Rule::Subtraction(SubtractionSet::Infinite(set)) => {
            if m > SCRIPT_LIMIT {
                return Err(Skip::Unsupported(format!("{m} heaps")));
            }
            let members: Vec<String> = set.members_upto(m).iter().map(|x| x.to_string()).collect();
            format!(
                "local S = {{{}}}\nfunction moves(n)\n  local out = {{}}\n  for _, s in ipairs(S) do if s <= n then out[#out + 1] = n - s end end\n  return out\nend\n",
                members.join(", ")
            )
        }
        base => {
            let code = base
                .take_break()
                .ok_or_else(|| Skip::Unsupported("no code".into()))?;
            if code.digits.iter().any(|d| d.mask >= 8) {
                return Err(Skip::Unsupported(
                    "moves that leave three heaps or more".into(),
                ));
            }
            if code
                .digits
                .iter()
                .any(|d| !matches!(d.constraint, Constraint::Any | Constraint::Unequal))
            {
                return Err(Skip::Unsupported("a constraint other than !".into()));
            }
            let limit = if splits(&code) {
                SCRIPT_SPLIT_LIMIT
            } else {
                SCRIPT_LIMIT
            };
            if m > limit {
                return Err(Skip::Unsupported(format!(
                    "{m} heaps of this code is too slow in Lua"
                )));
            }
            let digits: Vec<String> = code
                .digits
                .iter()
                .map(|d| format!("{{{}, {}}}", d.mask, d.constraint == Constraint::Unequal))
                .collect();
            let repeat = code.repeat_from.map_or(-1, |r| r as i64);
            format!(
                r#"local D, R = {{{}}}, {repeat}
local function digit(k)
  if k < #D then return D[k + 1] end
  if R < 0 then return nil end
  return D[R + 1 + (k - R) % (#D - R)]
end
function moves(n)
  local out = {{}}
  local top = n
  if R < 0 then top = math.min(n, #D - 1) end
  for k = 0, top do
    local d = digit(k)
    if d then
      local mask, unequal, r = d[1], d[2], n - k
      if k > 0 and mask % 2 == 1 and r == 0 then out[#out + 1] = 0 end
      if k > 0 and math.floor(mask / 2) % 2 == 1 and r > 0 then out[#out + 1] = r end
      if math.floor(mask / 4) % 2 == 1 then
        for a = 1, math.floor(r / 2) do
          if not (unequal and a == r - a) then out[#out + 1] = sum(a, r - a) end
        end
      end
    end
  end
  return out
end
"#,
                digits.join(", ")
            )
        }
    };
    let script = Script::load("corpus.lua", &source, Limits::default()).map_err(failed)?;
    let seq = script.sequence(m).map_err(failed)?;
    // A corpus game is loopfree: an infinite value (never expected) shows as u32::MAX and fails.
    let values = seq
        .values
        .iter()
        .map(|v| v.finite().map_or(u32::MAX, |v| v as u32))
        .collect();
    Ok(heap_answer(&w, values))
}

fn histogram_of(values: &[u32]) -> Vec<u64> {
    let mut h = vec![0u64; values.iter().copied().max().map_or(0, |m| m as usize + 1)];
    for &v in values {
        h[v as usize] += 1;
    }
    h
}

fn temp_dir() -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let k = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("grundy-corpus-{}-{k}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Heaps the generic solver computes for a heap case (each heap's options are listed and
/// memoised as positions).
const SOLVER_HEAP_LIMIT: u64 = 2000;
/// The largest misère value looked for.
const MISERE_VALUE_LIMIT: u32 = 64;

/// A take-and-break code as a [`Game`] for the generic solver, beside one Nim heap: a position
/// is the sorted list of the code's nonempty heaps and the size of the Nim heap. Normal play
/// splits it into single heaps; misère play searches whole positions.
struct CodeAndNim(TakeBreak);

type CodePos = (Vec<u64>, u64);

impl CodeAndNim {
    fn heap(h: u64) -> CodePos {
        (if h == 0 { vec![] } else { vec![h] }, 0)
    }
}

impl Game for CodeAndNim {
    type Position = CodePos;

    fn options(&self, (heaps, nim): &CodePos, out: &mut Vec<CodePos>) {
        for (i, &h) in heaps.iter().enumerate() {
            if i > 0 && heaps[i - 1] == h {
                continue;
            }
            grundy_heap::options::for_each_option(&self.0, h, |_, left| {
                let mut p = heaps.clone();
                p.remove(i);
                p.extend(left.iter().copied().filter(|&x| x > 0));
                p.sort_unstable();
                out.push((p, *nim));
            });
        }
        out.extend((0..*nim).map(|m| (heaps.clone(), m)));
    }

    fn components(&self, (heaps, nim): &CodePos, out: &mut Vec<CodePos>) -> bool {
        if heaps.len() + usize::from(*nim > 0) < 2 {
            return false;
        }
        out.extend(heaps.iter().map(|&h| (vec![h], 0)));
        if *nim > 0 {
            out.push((vec![], *nim));
        }
        true
    }
}

/// The generic memoised solver (`grundy::Solver`) over [`CodeAndNim`]: the values of single
/// heaps (normal play) and, for misère cases, the least m for which heap + *m is a misère
/// P-position. Codes only, up to [`SOLVER_HEAP_LIMIT`] heaps.
fn heap_solver(c: &Case) -> Result<Answer, Skip> {
    if let Kind::Misere { rule, values } = &c.kind {
        let r = grundy_heap::parse(rule).map_err(failed)?;
        let (base, shift) = r.base_and_shift();
        let code = base
            .take_break()
            .ok_or_else(|| Skip::Unsupported("no code".into()))?;
        let mut s = Solver::new(CodeAndNim(code));
        let mut out = Vec::new();
        for h in 0..values.len() as u64 {
            let (heaps, _) = CodeAndNim::heap(h + shift);
            let m = (0..=MISERE_VALUE_LIMIT)
                .find(|&m| s.misere_outcome(&(heaps.clone(), m as u64)) == Outcome::P)
                .ok_or_else(|| {
                    failed(format!(
                        "heap {h}: no misère value up to {MISERE_VALUE_LIMIT}"
                    ))
                })?;
            out.push(m);
        }
        return Ok(Answer::Misere(out));
    }
    let w = heap_work(c)?;
    let code = w
        .base
        .take_break()
        .ok_or_else(|| Skip::Unsupported("no code".into()))?;
    if w.m() > SOLVER_HEAP_LIMIT {
        return Err(Skip::Unsupported(format!(
            "{} heaps is too many for the generic solver",
            w.m()
        )));
    }
    let mut s = Solver::new(CodeAndNim(code));
    let values = (0..=w.m())
        .map(|h| s.grundy(&CodeAndNim::heap(h)) as u32)
        .collect();
    Ok(heap_answer(&w, values))
}

// ---------------------------------------------------------------------------------------------
// Nim engines
// ---------------------------------------------------------------------------------------------

fn nim_case(c: &Case) -> (&[u64], Play, NimFact) {
    match &c.kind {
        Kind::Nim {
            heaps,
            misere,
            expect,
        } => (
            heaps,
            if *misere { Play::Misere } else { Play::Normal },
            *expect,
        ),
        _ => unreachable!("claimed by is_nim"),
    }
}

/// Bouton's closed forms: the registry's `nim` and `misere-nim`.
fn nim_closed_form(c: &Case) -> Result<Answer, Skip> {
    let (heaps, play, expect) = nim_case(c);
    let game = if play == Play::Normal {
        "nim"
    } else {
        "misere-nim"
    };
    let text: Vec<String> = heaps.iter().map(u64::to_string).collect();
    let r = grundy::catalogue::Registry::new()
        .ask(
            game,
            &text.join(" "),
            &grundy::catalogue::Ask::new(CPlay::Normal),
        )
        .map_err(|e| Skip::Failed(e.to_string()))?;
    Ok(Answer::Nim(match expect {
        NimFact::Outcome(_) => NimFact::Outcome(r.outcome),
        NimFact::Value(_) if play == Play::Normal => match r.grundy {
            Some(grundy::Grundy::Finite(v)) => NimFact::Value(v),
            other => return Err(Skip::Failed(format!("value {other:?}"))),
        },
        NimFact::Value(_) => return Err(Skip::Unsupported("misère values".into())),
        NimFact::WinningMoves(_) => {
            NimFact::WinningMoves(r.details["winning_move_count"].as_u64().unwrap_or(u64::MAX))
        }
    }))
}

/// Nim for the generic solver, written here from the rules alone: a position is the sorted
/// list of its nonempty heaps, and a move lowers one heap. No split into components, so the
/// solver searches whole positions in both plays.
struct PlainNim;

impl PlainNim {
    fn position(heaps: &[u64]) -> Vec<u64> {
        let mut p: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
        p.sort_unstable();
        p
    }
}

impl Game for PlainNim {
    type Position = Vec<u64>;

    fn options(&self, pos: &Vec<u64>, out: &mut Vec<Vec<u64>>) {
        for (i, &h) in pos.iter().enumerate() {
            if i > 0 && pos[i - 1] == h {
                continue; // the same options as the heap before
            }
            for to in 0..h {
                let mut p = pos.clone();
                p[i] = to;
                out.push(PlainNim::position(&p));
            }
        }
    }
}

/// The memoised solver (`grundy::Solver`) over [`PlainNim`].
fn nim_solver(c: &Case) -> Result<Answer, Skip> {
    let (heaps, play, expect) = nim_case(c);
    let mut s = Solver::new(PlainNim);
    let outcome = |s: &mut Solver<PlainNim>, p: &Vec<u64>| match play {
        Play::Normal => s.outcome(p),
        Play::Misere => s.misere_outcome(p),
    };
    let pos = PlainNim::position(heaps);
    Ok(Answer::Nim(match expect {
        NimFact::Outcome(_) => NimFact::Outcome(outcome(&mut s, &pos)),
        NimFact::Value(_) if play == Play::Normal => NimFact::Value(s.grundy(&pos)),
        NimFact::Value(_) => return Err(Skip::Unsupported("misère values".into())),
        NimFact::WinningMoves(_) => {
            // Every move of the list as given (heap by heap), winning when it leaves a P-position.
            let mut count = 0;
            for (i, &h) in heaps.iter().enumerate() {
                for to in 0..h {
                    let mut after = heaps.to_vec();
                    after[i] = to;
                    if outcome(&mut s, &PlainNim::position(&after)) == Outcome::P {
                        count += 1;
                    }
                }
            }
            NimFact::WinningMoves(count)
        }
    }))
}

// ---------------------------------------------------------------------------------------------
// Registry-game engines: any game of `grundy::catalogue`, three ways
// ---------------------------------------------------------------------------------------------

fn game_case(c: &Case) -> (&str, &str, &GameFact) {
    match &c.kind {
        Kind::Game {
            game,
            position,
            fact,
        } => (game, position, fact),
        _ => unreachable!("claimed by is_game"),
    }
}

/// The winning moves of an answer as the texts of the positions they leave.
fn leaves(moves: &[grundy::catalogue::Move]) -> BTreeSet<String> {
    moves.iter().map(|m| m.to.text.clone()).collect()
}

/// The finite value of a report or a move, if it has one.
fn finite(g: &Option<grundy::catalogue::Grundy>) -> Option<u64> {
    g.as_ref().and_then(|g| g.finite())
}

/// `grundy::catalogue::analyze`, as every front end calls it.
fn game_catalogue(c: &Case) -> Result<Answer, Skip> {
    let (game, position, _) = game_case(c);
    let r = grundy::catalogue::analyze(game, position, CPlay::Normal, &CatalogueBudget::DEFAULT)
        .map_err(failed)?;
    let first_total = r.details.get("first_total").and_then(|v| {
        v.as_i64()
            .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
    });
    Ok(Answer::Game(GameAnswer {
        outcome: r.outcome,
        value: finite(&r.grundy),
        winning: Some(leaves(&r.winning_moves)),
        first_total: if r.scoring { first_total } else { None },
    }))
}

/// `grundy::play`, as the terminal and the web play: the turn's legal moves, each with the
/// outcome and value of what it leaves. The value is the mex of the moves' values, the
/// outcome N exactly when some move leaves a P-position; both must agree with the turn's own.
fn game_play(c: &Case) -> Result<Answer, Skip> {
    let (game, position, fact) = game_case(c);
    if let GameFact::FirstTotal(_) = fact {
        return Err(Skip::Unsupported(
            "a turn does not total a scoring game".into(),
        ));
    }
    // Play values every move within its own, smaller budget: a case past it is one play
    // refuses (in one line, as a player sees), not one it gets wrong.
    let refused = |e: grundy::play::PlayError| {
        if e.is_limit() {
            Skip::Unsupported(format!("past play's budget: {e}"))
        } else {
            failed(e)
        }
    };
    let mut g = grundy::play::Game::new(game, position).map_err(refused)?;
    let start = g.start().clone();
    let turn = g.turn(&start).map_err(refused)?;
    if turn.misere || turn.outcome == Outcome::D {
        let winning = leaves(&turn.winning_moves);
        return Ok(Answer::Game(GameAnswer {
            outcome: turn.outcome,
            value: None,
            winning: Some(winning),
            first_total: None,
        }));
    }
    let by_moves = if turn.moves.iter().any(|m| m.wins()) {
        Outcome::N
    } else {
        Outcome::P
    };
    let values: Option<Vec<u64>> = turn.moves.iter().map(|m| finite(&m.grundy)).collect();
    let value = values.map(|v| grundy::game::mex(&v));
    let scoring = turn.grundy.is_none() && value.is_none();
    if !scoring && by_moves != turn.outcome {
        return Err(Skip::Failed(format!(
            "the turn says {:?}, its moves say {by_moves:?}",
            turn.outcome
        )));
    }
    if let (Some(v), Some(t)) = (value, finite(&turn.grundy)) {
        if v != t {
            return Err(Skip::Failed(format!(
                "the turn says *{t}, the mex of its moves' values is {v}"
            )));
        }
    }
    let winning: BTreeSet<String> = turn
        .moves
        .iter()
        .filter(|m| m.wins())
        .map(|m| m.to.text.clone())
        .collect();
    if winning != leaves(&turn.winning_moves) {
        return Err(Skip::Failed(
            "the turn's winning moves are not its moves that win".into(),
        ));
    }
    Ok(Answer::Game(GameAnswer {
        outcome: turn.outcome,
        value,
        winning: Some(winning),
        first_total: None,
    }))
}

/// Positions the straightforward search below visits before it gives up on a case.
const MOVES_SEARCH_LIMIT: usize = 400;
/// Positions with more first moves than this are left to the other engines.
const MOVES_SEARCH_FIRST: usize = 24;

/// The straightforward solver over the registry's own move lists: a position's value is the
/// mex of the values of the positions its moves leave, memoised by position text, down to
/// the positions without a move — nothing of the game's analysis is used but its `moves`.
/// For the card game (a scoring game) it is the plain minimax of the margin instead: a move
/// scores the card it takes. Games that loop or are misère by nature, and cases past
/// [`MOVES_SEARCH_LIMIT`] positions, are skipped.
fn game_moves_search(c: &Case) -> Result<Answer, Skip> {
    let (game, position, _) = game_case(c);
    let registry = grundy::catalogue::Registry::new();
    let entry = registry.find(game).map_err(failed)?;
    let info = entry.info();
    if info.loopy {
        return Err(Skip::Unsupported("a loopy game: no mex recursion".into()));
    }
    let mut rules = registry.open(game).map_err(failed)?;
    let start = rules.parse(position).map_err(failed)?;
    let root = rules
        .analyze(
            &start,
            &grundy::catalogue::Ask::new(CPlay::Normal).budget(CatalogueBudget::DEFAULT),
        )
        .map_err(failed)?;
    if root.misere {
        return Err(Skip::Unsupported(
            "misère by nature: no mex recursion".into(),
        ));
    }
    // Counted before every first move is valued (`moves`), which a large case makes slow.
    if let Some(n) = root.moves.filter(|&n| n > MOVES_SEARCH_FIRST as u64) {
        return Err(Skip::Unsupported(format!(
            "{n} first moves (more than {MOVES_SEARCH_FIRST})"
        )));
    }
    let first = rules
        .moves(
            &start,
            &grundy::catalogue::Ask::new(CPlay::Normal).budget(CatalogueBudget::DEFAULT),
        )
        .map_err(failed)?;
    if first.len() > MOVES_SEARCH_FIRST {
        return Err(Skip::Unsupported(format!(
            "{} first moves (more than {MOVES_SEARCH_FIRST})",
            first.len()
        )));
    }
    struct Search<'a> {
        rules: &'a mut dyn grundy::catalogue::Rules,
        memo: HashMap<String, i64>,
        scoring: bool,
    }
    impl Search<'_> {
        fn cards(p: &grundy::catalogue::Position) -> i64 {
            p.data["cards"]
                .as_array()
                .map(|a| a.iter().filter_map(|v| v.as_i64()).sum())
                .unwrap_or(0)
        }
        /// The value (or, in the card game, the margin the mover secures) of `pos`.
        fn value(&mut self, pos: &grundy::catalogue::Position) -> Result<i64, Skip> {
            if let Some(&v) = self.memo.get(&pos.text) {
                return Ok(v);
            }
            if self.memo.len() >= MOVES_SEARCH_LIMIT {
                return Err(Skip::Unsupported(format!(
                    "more than {MOVES_SEARCH_LIMIT} positions"
                )));
            }
            let moves = self
                .rules
                .moves(
                    pos,
                    &grundy::catalogue::Ask::new(CPlay::Normal).budget(CatalogueBudget::DEFAULT),
                )
                .map_err(failed)?;
            let v = if self.scoring {
                let mut best: Option<i64> = None;
                for m in &moves {
                    let gain = Self::cards(pos) - Self::cards(&m.to) - self.value(&m.to)?;
                    best = Some(best.map_or(gain, |b| b.max(gain)));
                }
                best.unwrap_or(0)
            } else {
                let mut values = Vec::with_capacity(moves.len());
                for m in &moves {
                    values.push(self.value(&m.to)? as u64);
                }
                grundy::game::mex(&values) as i64
            };
            self.memo.insert(pos.text.clone(), v);
            Ok(v)
        }
    }
    let mut s = Search {
        rules: rules.as_mut(),
        memo: HashMap::new(),
        scoring: info.scoring,
    };
    let v = s.value(&start)?;
    if info.scoring {
        let total = Search::cards(&start);
        return Ok(Answer::Game(GameAnswer {
            outcome: if 2 * v >= 0 { Outcome::N } else { Outcome::P },
            value: None,
            winning: None,
            first_total: Some((total + v) / 2),
        }));
    }
    let mut winning = BTreeSet::new();
    for m in &first {
        if s.value(&m.to)? == 0 {
            winning.insert(m.to.text.clone());
        }
    }
    Ok(Answer::Game(GameAnswer {
        outcome: if v == 0 { Outcome::P } else { Outcome::N },
        value: Some(v as u64),
        winning: Some(winning),
        first_total: None,
    }))
}

// ---------------------------------------------------------------------------------------------
// Pattern-race engines
// ---------------------------------------------------------------------------------------------

fn race_patterns(c: &Case) -> &[String] {
    match &c.kind {
        Kind::Race { patterns, .. } => patterns,
        _ => unreachable!("claimed by is_race"),
    }
}

/// Conway's leading numbers: races of two patterns only.
fn race_conway(c: &Case) -> Result<Answer, Skip> {
    let p = race_patterns(c);
    if p.len() != 2 {
        return Err(Skip::Unsupported(
            "Conway's formula is for two patterns".into(),
        ));
    }
    let coin = Alphabet::coin();
    let a = coin.encode(&p[0]).map_err(failed)?;
    let b = coin.encode(&p[1]).map_err(failed)?;
    let r = conway::conway(&coin, &a, &b).map_err(failed)?;
    let first = RBig::ONE - &r.prob_b_first;
    Ok(Answer::Race {
        win: vec![Some(first), Some(r.prob_b_first)],
        expected: r.expected,
    })
}

/// The linear system of correlations, k patterns.
fn race_correlation_system(c: &Case) -> Result<Answer, Skip> {
    let race = Race::new(Alphabet::coin(), race_patterns(c)).map_err(failed)?;
    let s = correlation_system::solve(&race).map_err(failed)?;
    Ok(Answer::Race {
        win: s.win.into_iter().map(Some).collect(),
        expected: s.expected,
    })
}

/// The absorbing Markov chain on the patterns' trie.
fn race_chain(c: &Case) -> Result<Answer, Skip> {
    let race = Race::new(Alphabet::coin(), race_patterns(c)).map_err(failed)?;
    let s = chain::solve(&race, CHAIN_STATES).map_err(failed)?;
    Ok(Answer::Race {
        win: s.win.into_iter().map(Some).collect(),
        expected: s.expected,
    })
}

// ---------------------------------------------------------------------------------------------
// Checking
// ---------------------------------------------------------------------------------------------

/// Whether `a` states what the case's data says; `Err` says where it differs.
fn check_expected(c: &Case, a: &Answer) -> Result<(), String> {
    match (&c.kind, a) {
        (Kind::Sequence { from, values, .. }, Answer::Heap { values: got, .. }) => {
            let from = *from as usize;
            for (i, &want) in values.iter().enumerate() {
                match got.get(from + i) {
                    Some(&g) if g == want => {}
                    g => return Err(format!("G({}) = {g:?}, the data says {want}", from + i)),
                }
            }
            Ok(())
        }
        (
            Kind::Period {
                rule,
                preperiod,
                period,
                values,
            },
            Answer::Heap {
                values: got,
                period: p,
            },
        ) => {
            let p = p.ok_or("no period found")?;
            let proven = grundy_heap::parse(rule)
                .ok()
                .and_then(|r| periodicity::rule_bound(&r))
                .is_some();
            let status_ok = !proven || p.status == Status::Proven;
            if (p.preperiod, p.period, p.saltus) != (*preperiod, *period, 0) || !status_ok {
                return Err(format!(
                    "preperiod {} period {} saltus {} ({:?}), the data says preperiod {preperiod} period {period}",
                    p.preperiod, p.period, p.saltus, p.status
                ));
            }
            if got.len() < values.len() || got[..values.len()] != values[..] {
                let i = (0..values.len())
                    .find(|&i| got.get(i) != Some(&values[i]))
                    .unwrap_or(0);
                return Err(format!(
                    "G({i}) = {:?}, the data says {}",
                    got.get(i),
                    values[i]
                ));
            }
            Ok(())
        }
        (Kind::Histogram { n, counts, .. }, Answer::Heap { values, .. }) => {
            let n = *n as usize;
            if values.len() <= n {
                return Err(format!("only G(0..{}) computed", values.len()));
            }
            let mut mine: BTreeMap<u32, u64> = BTreeMap::new();
            for &v in &values[1..=n] {
                *mine.entry(v).or_default() += 1;
            }
            if &mine != counts {
                let v = mine
                    .keys()
                    .chain(counts.keys())
                    .find(|v| mine.get(v) != counts.get(v))
                    .copied()
                    .unwrap_or(0);
                return Err(format!(
                    "value {v} occurs {:?} times, the data says {:?}",
                    mine.get(&v),
                    counts.get(&v)
                ));
            }
            Ok(())
        }
        (Kind::Misere { values, .. }, Answer::Misere(got)) => {
            match (0..values.len()).find(|&i| got.get(i) != Some(&values[i])) {
                None => Ok(()),
                Some(i) => Err(format!(
                    "misère value of heap {i}: {:?}, the data says {}",
                    got.get(i),
                    values[i]
                )),
            }
        }
        (Kind::Game { fact, .. }, Answer::Game(got)) => {
            let ok = match fact {
                GameFact::Value(v) => got.value == Some(*v),
                GameFact::Outcome(o) => got.outcome == *o,
                GameFact::WinningMoves(w) => {
                    got.outcome == Outcome::N && got.winning.as_ref().is_none_or(|g| g == w)
                }
                GameFact::FirstTotal(t) => got.first_total == Some(*t),
                GameFact::Agree => true,
            };
            if ok {
                Ok(())
            } else {
                Err(format!("{got:?}, the data says {fact:?}"))
            }
        }
        (Kind::Nim { expect, .. }, Answer::Nim(got)) => {
            if got == expect {
                Ok(())
            } else {
                Err(format!("{got:?}, the data says {expect:?}"))
            }
        }
        (
            Kind::Race { win, expected, .. },
            Answer::Race {
                win: got,
                expected: e,
            },
        ) => {
            if e != expected {
                return Err(format!("expected length {e}, the data says {expected}"));
            }
            for (i, w) in win.iter().enumerate() {
                if let (Some(w), Some(Some(g))) = (w, got.get(i)) {
                    if w != g {
                        return Err(format!(
                            "pattern {i} first with probability {g}, the data says {w}"
                        ));
                    }
                } else if w.is_some() {
                    return Err(format!("no probability for pattern {i}"));
                }
            }
            Ok(())
        }
        _ => Err(format!("an answer of the wrong kind: {a:?}")),
    }
}

/// Whether two engines' answers to the same case agree where both say something.
fn check_same(a: &Answer, b: &Answer) -> Result<(), String> {
    match (a, b) {
        (
            Answer::Heap {
                values: va,
                period: pa,
            },
            Answer::Heap {
                values: vb,
                period: pb,
            },
        ) => {
            let common = va.len().min(vb.len());
            if let Some(i) = (0..common).find(|&i| va[i] != vb[i]) {
                return Err(format!("G({i}) = {} here, {} there", vb[i], va[i]));
            }
            if let (Some(pa), Some(pb)) = (pa, pb) {
                if (pa.preperiod, pa.period, pa.saltus) != (pb.preperiod, pb.period, pb.saltus) {
                    return Err(format!("period {pb:?} here, {pa:?} there"));
                }
            }
            Ok(())
        }
        (
            Answer::Race {
                win: wa,
                expected: ea,
            },
            Answer::Race {
                win: wb,
                expected: eb,
            },
        ) => {
            if ea != eb {
                return Err(format!("expected length {eb} here, {ea} there"));
            }
            for (x, y) in wa.iter().zip(wb) {
                if let (Some(x), Some(y)) = (x, y) {
                    if x != y {
                        return Err(format!("probability {y} here, {x} there"));
                    }
                }
            }
            Ok(())
        }
        (Answer::Game(x), Answer::Game(y)) => {
            let differ = x.outcome != y.outcome
                || matches!((x.value, y.value), (Some(a), Some(b)) if a != b)
                || matches!((&x.winning, &y.winning), (Some(a), Some(b)) if a != b)
                || matches!((x.first_total, y.first_total), (Some(a), Some(b)) if a != b);
            if differ {
                Err(format!("{y:?} here, {x:?} there"))
            } else {
                Ok(())
            }
        }
        (x, y) if x == y => Ok(()),
        (x, y) => Err(format!("{y:?} here, {x:?} there")),
    }
}

// ---------------------------------------------------------------------------------------------
// Loading testdata/
// ---------------------------------------------------------------------------------------------

fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata")
}

fn read(path: &str) -> String {
    let p = testdata().join(path);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Lines that are data: not empty, not `#` comments.
fn data_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
}

/// Every case in `testdata/`.
fn load() -> Vec<Case> {
    let mut cases = Vec::new();
    load_oeis(&mut cases);
    load_periodic(&mut cases);
    load_cgsuite(&mut cases);
    load_contest(&mut cases);
    load_histograms(&mut cases);
    load_penney(&mut cases);
    load_games(&mut cases);
    cases
}

/// `oeis/INDEX.tsv` and `oeis/A*.txt`: each game the index names for a sequence, with its
/// index shift ("X has a(n-k)": G_X(n) = a(n-k)), is one Sequence case.
fn load_oeis(cases: &mut Vec<Case>) {
    for line in data_lines(&read("oeis/INDEX.tsv")).filter(|l| !l.starts_with("anum")) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (anum, desc) = (cols[0], cols[4]);
        if desc.starts_with("Wythoff's game") {
            continue; // a two-heap table, not a heap sequence
        }
        let terms: Vec<(u64, u32)> = data_lines(&read(&format!("oeis/{anum}.txt")))
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
        assert!(!games.is_empty(), "{anum}: no game in '{desc}'");
        for (game, k) in games {
            let from = terms[0].0 + k;
            for (i, &(n, _)) in terms.iter().enumerate() {
                assert_eq!(n, terms[0].0 + i as u64, "{anum}: terms are consecutive");
            }
            let shift = if k > 0 {
                format!(" a(n-{k})")
            } else {
                String::new()
            };
            cases.push(Case {
                name: format!("oeis/{anum} {game}{shift}"),
                kind: Kind::Sequence {
                    rule: game,
                    from,
                    values: terms.iter().map(|t| t.1).collect(),
                },
            });
        }
    }
}

/// Code tokens (`.137`, `4.41`, ranges `.074-.077`) in an INDEX.tsv description, with the
/// `a(n-k)` shift that follows them. Codes in the first `;`-separated segment without a shift
/// are the sequence itself (k = 0); codes in later segments without a shift are only
/// mentioned (e.g. "computed to 2^27") and skipped.
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
                if j > dot + 1 && !(j < b.len() && b[j].is_ascii_digit()) {
                    let code = &seg[i..j];
                    if seg[j..].starts_with("-.") || seg[j..].starts_with("-4.") {
                        // A range .074-.077: same prefix, last digit from .. to.
                        let k = j + 1;
                        let mut m = k + if b[k] == b'4' { 2 } else { 1 };
                        while m < b.len() && b[m].is_ascii_digit() {
                            m += 1;
                        }
                        let to = &seg[k..m];
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

/// `octal/periodic_trivial.txt`: 82 Period cases (`game | prefix | period | nimbers`, the
/// nimbers in base 36 with the period in parentheses).
fn load_periodic(cases: &mut Vec<Case>) {
    let text = read("octal/periodic_trivial.txt");
    for line in text
        .lines()
        .filter(|l| l.contains('|') && !l.starts_with("game") && !l.starts_with(":-"))
    {
        let cols: Vec<&str> = line.split('|').map(str::trim).collect();
        let values: Vec<u32> = cols[3]
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .map(|c| c.to_digit(36).unwrap())
            .collect();
        cases.push(Case {
            name: format!("octal/periodic_trivial {}", cols[0]),
            kind: Kind::Period {
                rule: octal_name(cols[0]),
                preperiod: cols[1].parse().unwrap(),
                period: cols[2].parse().unwrap(),
                values,
            },
        });
    }
}

/// `cgsuite/heap_sequences.txt`: for each ruleset, its values G(1..=20) (a Sequence case on
/// CGSuite's own code) and its period where CGSuite finds one (a Period case); for Nim itself
/// also the Nim cases of single heaps (normal value, misère outcome from the misère value).
fn load_cgsuite(cases: &mut Vec<Case>) {
    let text = read("cgsuite/heap_sequences.txt");
    for block in text.split("\n\n").filter(|b| b.contains("ruleset:")) {
        let field = |name: &str| {
            block
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{name}: ")))
                .map(str::trim)
                .unwrap_or_else(|| panic!("no {name} in {block}"))
        };
        let ruleset = field("ruleset");
        let code = field("code").to_string();
        let list = |name: &str| -> Vec<u32> {
            field(name)
                .split(',')
                .map(|x| x.trim().parse().unwrap())
                .collect()
        };
        let nim = list("nim[1..20]");
        if ruleset == "game.heap.Nim" {
            for (i, &v) in nim.iter().enumerate() {
                let h = i as u64 + 1;
                cases.push(Case {
                    name: format!("cgsuite/Nim heap {h} value"),
                    kind: Kind::Nim {
                        heaps: vec![h],
                        misere: false,
                        expect: NimFact::Value(v as u64),
                    },
                });
            }
            for (h, &v) in list("misere[0..20]").iter().enumerate() {
                let outcome = if v == 0 { Outcome::P } else { Outcome::N };
                cases.push(Case {
                    name: format!("cgsuite/Nim heap {h} misère"),
                    kind: Kind::Nim {
                        heaps: vec![h as u64],
                        misere: true,
                        expect: NimFact::Outcome(outcome),
                    },
                });
            }
        }
        cases.push(Case {
            name: format!("cgsuite/{ruleset} {code} misère"),
            kind: Kind::Misere {
                rule: code.clone(),
                values: list("misere[0..20]"),
            },
        });
        let period = field("period");
        cases.push(Case {
            name: format!("cgsuite/{ruleset} {code}"),
            kind: Kind::Sequence {
                rule: code.clone(),
                from: 1,
                values: nim,
            },
        });
        if let Some(rest) = period.strip_prefix("Periodicity(Period => ") {
            let nums: Vec<u64> = rest
                .split(|c: char| !c.is_ascii_digit())
                .filter(|s| !s.is_empty())
                .map(|s| s.parse().unwrap())
                .collect();
            assert_eq!(nums[2], 0, "{ruleset}: saltus");
            // CGSuite gives no values beyond G(1..=20): G(0) = 0 and those.
            let mut values = vec![0];
            values.extend(list("nim[1..20]"));
            values.truncate((nums[1] + nums[0]) as usize);
            cases.push(Case {
                name: format!("cgsuite/{ruleset} {code} period"),
                kind: Kind::Period {
                    rule: code,
                    preperiod: nums[1],
                    period: nums[0],
                    values,
                },
            });
        }
    }
}

/// The numbers after `marker` on `line`, up to the first token that is not one.
fn numbers_after(line: &str, marker: &str) -> Vec<u64> {
    let rest = &line[line.find(marker).unwrap() + marker.len()..];
    rest.split_whitespace()
        .map_while(|t| t.parse().ok())
        .collect()
}

/// `games/cp_games_reference.txt`: the heap games' sequences (Pimber, odd-even Nim, the
/// polygon game, crosses-and-crosses) and the Nim and misère Nim examples.
fn load_contest(cases: &mut Vec<Case>) {
    let text = read("games/cp_games_reference.txt");
    let line = |start: &str| text.lines().find(|l| l.starts_with(start)).unwrap();
    let as_u32 = |v: Vec<u64>| v.into_iter().map(|x| x as u32).collect::<Vec<u32>>();
    let mut lines = text.lines();
    lines
        .find(|l| l.starts_with("== Pimber (subtract"))
        .unwrap();
    let pimber = as_u32(numbers_after(lines.next().unwrap(), ""));
    assert_eq!(pimber.len(), 100);
    let sequences = [
        ("pimber", 0, pimber),
        (
            "odd-even-nim",
            0,
            as_u32(numbers_after(line("== Odd-even Nim"), "g(0..40): ")),
        ),
        (
            "polygon-chords",
            0,
            as_u32(numbers_after(line("== Polygon game"), "g(0..60): ")),
        ),
        (
            "crosses",
            1,
            as_u32(numbers_after(line("== Crosses-and-crosses"), "g(1..60): ")),
        ),
    ];
    for (rule, from, values) in sequences {
        cases.push(Case {
            name: format!("games/cp_games_reference {rule}"),
            kind: Kind::Sequence {
                rule: rule.into(),
                from,
                values,
            },
        });
    }
    // `[1, 2]->koosaga` (the first player, koosaga, wins) or `->cubelover` (the second);
    // `[1, 2, 4]->1` (winning first moves).
    let examples = |l: &str| -> Vec<(Vec<u64>, String)> {
        l.split("; ")
            .filter_map(|item| {
                let item = item.trim();
                let open = item.find('[')?;
                let (pos, res) = item[open + 1..].split_once("]->")?;
                let heaps = pos.split(',').map(|h| h.trim().parse().unwrap()).collect();
                Some((heaps, res.trim().to_string()))
            })
            .collect()
    };
    let outcome = |who: &str| match who {
        "koosaga" => Outcome::N,
        "cubelover" => Outcome::P,
        other => panic!("who is {other}?"),
    };
    for (marker, misere) in [
        ("   11868 normal Nim examples", false),
        ("   same positions under misere", true),
    ] {
        for (heaps, who) in examples(line(marker)) {
            cases.push(Case {
                name: format!(
                    "games/cp_games_reference {} {heaps:?}",
                    if misere { "misère Nim" } else { "Nim" }
                ),
                kind: Kind::Nim {
                    heaps,
                    misere,
                    expect: NimFact::Outcome(outcome(&who)),
                },
            });
        }
    }
    for (heaps, count) in examples(line("   16895 winning first moves")) {
        cases.push(Case {
            name: format!("games/cp_games_reference Nim winning moves {heaps:?}"),
            kind: Kind::Nim {
                heaps,
                misere: false,
                expect: NimFact::WinningMoves(count.parse().unwrap()),
            },
        });
    }
}

/// `octal/value_histograms.txt` (`## game N` blocks of `value count`) and
/// `octal/value_frequencies.txt` (`game N | value:count …`): Histogram cases, for the sizes
/// this corpus can afford ([`HEAP_LIMIT`]); the larger ones are left out when loading.
fn load_histograms(cases: &mut Vec<Case>) {
    let mut found: BTreeMap<(String, u64), (String, BTreeMap<u32, u64>)> = BTreeMap::new();
    let mut current: Option<(String, u64)> = None;
    for line in read("octal/value_histograms.txt").lines() {
        if let Some(rest) = line.strip_prefix("## ") {
            let mut it = rest.split_whitespace();
            let key = (
                it.next().unwrap().to_string(),
                it.next().unwrap().parse().unwrap(),
            );
            found.insert(
                key.clone(),
                ("octal/value_histograms".into(), BTreeMap::new()),
            );
            current = Some(key);
        } else if !line.starts_with('#') && !line.trim().is_empty() {
            let mut it = line.split_whitespace();
            let v: u32 = it.next().unwrap().parse().unwrap();
            let c: u64 = it.next().unwrap().parse().unwrap();
            found
                .get_mut(current.as_ref().unwrap())
                .unwrap()
                .1
                .insert(v, c);
        }
    }
    for line in data_lines(&read("octal/value_frequencies.txt")) {
        let (head, counts) = line.split_once('|').unwrap();
        let mut it = head.split_whitespace();
        let key: (String, u64) = (
            it.next().unwrap().to_string(),
            it.next().unwrap().parse().unwrap(),
        );
        let counts: BTreeMap<u32, u64> = counts
            .split_whitespace()
            .map(|t| {
                let (v, c) = t.split_once(':').unwrap();
                (v.parse().unwrap(), c.parse().unwrap())
            })
            .filter(|&(_, c)| c > 0)
            .collect();
        match found.get(&key) {
            // The two files overlap: the same facts, once.
            Some((_, h)) => assert_eq!(h, &counts, "{key:?}: the two histogram files differ"),
            None => {
                found.insert(key, ("octal/value_frequencies".into(), counts));
            }
        }
    }
    for ((game, n), (file, counts)) in found {
        if n > HEAP_LIMIT {
            continue;
        }
        cases.push(Case {
            name: format!("{file} {game} N={n}"),
            kind: Kind::Histogram {
                rule: game,
                n,
                counts,
            },
        });
    }
}

/// Registry games: facts about positions of the catalogue's games (Wythoff, Fibonacci Nim,
/// Chomp, Cram, Node and Arc Kayles, the card game, coin turning, Hackenbush), and every
/// registry entry's example, which no data values but on which the engines must agree.
fn load_games(cases: &mut Vec<Case>) {
    let mut push = |name: String, game: &str, position: String, fact: GameFact| {
        cases.push(Case {
            name,
            kind: Kind::Game {
                game: game.into(),
                position,
                fact,
            },
        })
    };
    // Wythoff: A004481 reads the table T(a, b) by antidiagonals a + b = d (T is symmetric).
    let values: Vec<u64> = data_lines(&read("oeis/A004481.txt"))
        .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
        .collect();
    let mut cells = (0u64..).flat_map(|d| (0..=d).map(move |a| (a, d - a)));
    for v in values {
        let (a, b) = cells.next().unwrap();
        push(
            format!("oeis/A004481 wythoff {a} {b}"),
            "wythoff",
            format!("{a} {b}"),
            GameFact::Value(v),
        );
    }
    // Fibonacci Nim: `n W|L smallest all zeckendorf`; a first move of k leaves the pile
    // n − k with the limit 2k, in the text the game writes for it (`13` when 2k ≥ 12).
    let fib = grundy::catalogue::Registry::new().open("fib").unwrap();
    for line in data_lines(&read("games/fibonacci_nim.txt")) {
        let cols: Vec<&str> = line.split_whitespace().collect();
        let n: u64 = cols[0].parse().unwrap();
        let fact = match cols[1] {
            "L" => GameFact::Outcome(Outcome::P),
            "W" => GameFact::WinningMoves(
                cols[3]
                    .split(',')
                    .map(|k| {
                        let k: u64 = k.parse().unwrap();
                        fib.parse(&format!("{} {}", n - k, 2 * k)).unwrap().text
                    })
                    .collect(),
            ),
            other => panic!("fibonacci_nim.txt: {other}?"),
        };
        push(
            format!("games/fibonacci_nim {n}"),
            "fib",
            n.to_string(),
            fact,
        );
    }
    // Chomp, by theorems: every rectangle but 1×1 is won by the player to move (Gale's
    // strategy stealing, Amer. Math. Monthly 81 (1974)), and two-row Chomp's P-positions are
    // exactly the rows (a, a − 1) (Zeilberger, "Three-rowed Chomp", Adv. Appl. Math. 26 (2001)).
    for r in 1..=5 {
        for c in 1..=5 {
            let outcome = if r * c == 1 { Outcome::P } else { Outcome::N };
            push(
                format!("theorem/chomp rectangle {r}x{c}"),
                "chomp",
                format!("{r}x{c}"),
                GameFact::Outcome(outcome),
            );
        }
    }
    for a in 1..=12u64 {
        for b in 0..=a {
            let outcome = if b + 1 == a { Outcome::P } else { Outcome::N };
            let rows = if b == 0 {
                a.to_string()
            } else {
                format!("{a} {b}")
            };
            push(
                format!("theorem/chomp two rows {rows}"),
                "chomp",
                rows,
                GameFact::Outcome(outcome),
            );
        }
    }
    // Cram: the empty boards of games/cram.txt up to CRAM_CELLS cells, and CGSuite's board.
    let text = read("games/cram.txt");
    let mut columns: Vec<u64> = Vec::new();
    for line in data_lines(&text) {
        if let Some(rest) = line.strip_prefix("rows\\cols:") {
            columns = rest
                .split_whitespace()
                .map(|c| c.parse().unwrap())
                .collect();
        } else if let Some((r, rest)) = line.split_once(':') {
            let Ok(r) = r.trim().parse::<u64>() else {
                continue;
            };
            for (c, v) in columns.iter().zip(rest.split_whitespace()) {
                if let (Ok(v), true) = (v.parse::<u64>(), r * c <= CRAM_CELLS) {
                    push(
                        format!("games/cram {r}x{c}"),
                        "cram",
                        format!("{r}x{c}"),
                        GameFact::Value(v),
                    );
                }
            }
        }
    }
    let grid = read("cgsuite/graph_grid.txt");
    let line_after = |marker: &str| -> Vec<u64> {
        let mut lines = grid.lines().skip_while(|l| !l.contains(marker));
        lines
            .next()
            .unwrap_or_else(|| panic!("graph_grid.txt: {marker}"));
        lines
            .next()
            .unwrap()
            .split(',')
            .map(|v| v.trim().parse().unwrap())
            .collect()
    };
    for (i, v) in line_after("ArcKayles(Graph.Path(n)).NimValue for n from 1 to 50")
        .into_iter()
        .enumerate()
        .take(ARC_KAYLES_PATHS)
    {
        push(
            format!("cgsuite/graph_grid arc-kayles path:{}", i + 1),
            "arc-kayles",
            format!("path:{}", i + 1),
            GameFact::Value(v),
        );
    }
    for line in grid.lines() {
        let fact = |l: &str| {
            l.split("= *")
                .nth(1)
                .and_then(|v| v.split_whitespace().next()?.parse().ok())
        };
        if let (Some(board), Some(v)) = (
            line.strip_prefix("Cram(\"")
                .and_then(|r| r.split('"').next()),
            fact(line),
        ) {
            push(
                format!("cgsuite/graph_grid cram {board}"),
                "cram",
                board.into(),
                GameFact::Value(v),
            );
        }
        if let (Some(stalk), Some(v)) = (
            line.strip_prefix("Hackenbush(\"")
                .and_then(|r| r.split('"').next()),
            fact(line),
        ) {
            if stalk.chars().all(|ch| ch == 'e') {
                let edges: Vec<String> =
                    (0..stalk.len()).map(|i| format!("{i}-{}", i + 1)).collect();
                push(
                    format!("cgsuite/graph_grid hackenbush {stalk}"),
                    "hackenbush",
                    edges.join(","),
                    GameFact::Value(v),
                );
            }
        }
        if let Some(rest) = line.strip_prefix("Turning(\"") {
            let (code, rest) = rest.split_once("\")(\"").unwrap();
            let (coins, rest) = rest.split_once('"').unwrap();
            let v = rest.rsplit("= ").next().unwrap().trim().parse().unwrap();
            push(
                format!("cgsuite/graph_grid turning:{code} {coins}"),
                &format!("turning:{code}"),
                coins.to_uppercase(),
                GameFact::Value(v),
            );
        }
    }
    // Node Kayles on a path of n vertices is Dawson's Chess (0.137) on a heap of n: A002187.
    for line in data_lines(&read("oeis/A002187.txt")).take(NODE_KAYLES_PATHS) {
        let mut it = line.split_whitespace();
        let n: u64 = it.next().unwrap().parse().unwrap();
        let v: u64 = it.next().unwrap().parse().unwrap();
        if n > 0 {
            push(
                format!("oeis/A002187 node-kayles path:{n}"),
                "node-kayles",
                format!("path:{n}"),
                GameFact::Value(v),
            );
        }
    }
    // Node Kayles on three OEIS families of graphs, written as edge lists: n diamonds linked
    // at their vertices of degree three (A316781: v_0 … v_n along the chain, u_i and w_i the
    // two sides of diamond i), the path 1..n with the chords {i, i + 3} (A317367), and the
    // generalized Petersen graph P(n, 2) (A316533: the outer cycle 0..n, spokes i – n + i,
    // the inner star n + i – n + (i + 2 mod n)).
    let oeis = |anum: &str, limit: u64| -> Vec<(u64, u64)> {
        data_lines(&read(&format!("oeis/{anum}.txt")))
            .map(|l| {
                let (n, v) = l.split_once(' ').unwrap();
                (n.parse().unwrap(), v.trim().parse().unwrap())
            })
            .filter(|&(n, _)| n <= limit)
            .collect()
    };
    let edges = |e: Vec<(u64, u64)>| -> String {
        e.iter()
            .map(|(a, b)| format!("{a}-{b}"))
            .collect::<Vec<_>>()
            .join(",")
    };
    for (n, v) in oeis("A316781", DIAMONDS) {
        let (u, w) = (|i| n + i, |i| 2 * n + i);
        let e = (1..=n)
            .flat_map(|i| {
                [
                    (i - 1, i),
                    (i - 1, u(i)),
                    (i - 1, w(i)),
                    (u(i), i),
                    (w(i), i),
                ]
            })
            .collect();
        push(
            format!("oeis/A316781 node-kayles {n} diamonds"),
            "node-kayles",
            edges(e),
            GameFact::Value(v),
        );
    }
    for (n, v) in oeis("A317367", SCALLOPED) {
        let e = (0..n)
            .flat_map(|i| [(i, i + 1), (i, i + 3)])
            .filter(|&(_, j)| j < n)
            .collect();
        push(
            format!("oeis/A317367 node-kayles P_{n}(3)"),
            "node-kayles",
            edges(e),
            GameFact::Value(v),
        );
    }
    for (n, v) in oeis("A316533", PETERSEN) {
        let e = (0..n)
            .flat_map(|i| [(i, (i + 1) % n), (i, n + i), (n + i, n + (i + 2) % n)])
            .collect();
        push(
            format!("oeis/A316533 node-kayles P({n}, 2)"),
            "node-kayles",
            edges(e),
            GameFact::Value(v),
        );
    }
    // The non-attacking queens game (A344227, offset 0: a(0) is the empty board, which the
    // notation has no name for).
    for (n, v) in oeis("A344227", QUEENS).into_iter().filter(|&(n, _)| n >= 1) {
        push(
            format!("oeis/A344227 node-kayles queens:{n}"),
            "node-kayles",
            format!("queens:{n}"),
            GameFact::Value(v),
        );
    }
    // The card game: BOJ 11062's examples, the first player's best total.
    let contest = read("games/cp_games_reference.txt");
    let cards = contest
        .lines()
        .find(|l| l.starts_with("== Card game"))
        .unwrap();
    for item in cards.split(':').nth(1).unwrap().split(';') {
        let (row, total) = item.split_once("->").unwrap();
        let row = row
            .trim()
            .trim_start_matches('[')
            .trim_end_matches(']')
            .replace(',', " ");
        let total: i64 = total.split_whitespace().last().unwrap().parse().unwrap();
        push(
            format!("games/cp_games_reference cards {row}"),
            "cards",
            row,
            GameFact::FirstTotal(total),
        );
    }
    // Mazes and wall-making boards: no published values (BOJ 11717 gives outcomes without
    // its boards), so small boards from a fixed pattern on which the engines must agree.
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for k in 0..24 {
        let (rows, cols) = (2 + k % 3, 2 + k / 3 % 4);
        let mut cells: Vec<Vec<char>> = (0..rows)
            .map(|_| {
                (0..cols)
                    .map(|_| if next() % 4 == 0 { '#' } else { '.' })
                    .collect()
            })
            .collect();
        cells[rows - 1][cols - 1] = '@';
        let maze: Vec<String> = cells.iter().map(|r| r.iter().collect()).collect();
        push(
            format!("generated maze {}", maze.join("|")),
            "maze",
            maze.join("|"),
            GameFact::Agree,
        );
        let walls: Vec<String> = (0..rows)
            .map(|_| {
                (0..cols)
                    .map(|_| if next() % 3 == 0 { 'X' } else { '.' })
                    .collect()
            })
            .collect();
        push(
            format!("generated walls {}", walls.join("|")),
            "walls",
            walls.join("|"),
            GameFact::Agree,
        );
    }
    // Every entry's example: no published value, but every engine must give the same answer.
    for info in grundy::catalogue::games() {
        push(
            format!("registry example {} {}", info.game(), info.example),
            info.game(),
            info.example.clone(),
            GameFact::Agree,
        );
    }
}

/// `penney/penney3.txt` (56 races of two length-3 patterns: P(B first), expected length) and
/// `penney/waiting_times_binary.txt` (one pattern: expected waiting time).
fn load_penney(cases: &mut Vec<Case>) {
    let frac = |t: &str| grundy::penney::alphabet::parse_fraction(t).unwrap();
    for line in data_lines(&read("penney/penney3.txt")) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let b_first = frac(f[2]);
        cases.push(Case {
            name: format!("penney/penney3 {} {}", f[0], f[1]),
            kind: Kind::Race {
                patterns: vec![f[0].into(), f[1].into()],
                win: vec![Some(RBig::ONE - &b_first), Some(b_first)],
                expected: frac(f[4]),
            },
        });
    }
    for line in data_lines(&read("penney/waiting_times_binary.txt")) {
        let f: Vec<&str> = line.split_whitespace().collect();
        cases.push(Case {
            name: format!("penney/waiting_times_binary {}", f[0]),
            kind: Kind::Race {
                patterns: vec![f[0].into()],
                win: vec![Some(RBig::ONE)],
                expected: frac(f[1]),
            },
        });
    }
}

// ---------------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------------

#[derive(Default)]
struct Tally {
    run: u64,
    skipped: u64,
    disagreements: u64,
    time: Duration,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--list") {
        println!("corpus: test");
        return;
    }
    let verbose = args.iter().any(|a| a == "--verbose");
    // Words that are not flags filter the cases by name; libtest's flags (and the values of
    // those that take one) are accepted and ignored.
    let mut filters: Vec<&String> = Vec::new();
    let mut flag_value = false;
    for a in &args {
        if std::mem::take(&mut flag_value) {
            continue;
        }
        match a.as_str() {
            "--test-threads" | "--skip" | "--color" | "--format" | "--logfile" | "-Z" => {
                flag_value = true
            }
            f if f.starts_with('-') => {}
            _ => filters.push(a),
        }
    }
    let cases: Vec<Case> = load()
        .into_iter()
        .filter(|c| filters.is_empty() || filters.iter().any(|f| c.name.contains(f.as_str())))
        .collect();

    let start = Instant::now();
    let mut tallies: Vec<Tally> = ENGINES.iter().map(|_| Tally::default()).collect();
    let (mut passed, mut failed_runs) = (0u64, 0u64);
    let mut unanswered = Vec::new();
    let mut report = String::new();
    for case in &cases {
        let mut first: Option<(&str, Answer)> = None;
        let mut answered = 0;
        for (engine, tally) in ENGINES.iter().zip(&mut tallies) {
            if !(engine.claims)(case) {
                continue;
            }
            let t0 = Instant::now();
            let result = catch_unwind(AssertUnwindSafe(|| (engine.run)(case)))
                .unwrap_or_else(|p| Err(failed(panic_message(&p))));
            tally.time += t0.elapsed();
            if verbose && t0.elapsed() > Duration::from_millis(500) {
                let _ = writeln!(
                    report,
                    "slow {:<18} {}: {:.1} s",
                    engine.name,
                    case.name,
                    t0.elapsed().as_secs_f64()
                );
            }
            let answer = match result {
                Ok(a) => a,
                Err(Skip::Unsupported(why)) => {
                    tally.skipped += 1;
                    if verbose {
                        let _ = writeln!(report, "skip {:<18} {}: {why}", engine.name, case.name);
                    }
                    continue;
                }
                Err(Skip::Failed(why)) => {
                    tally.run += 1;
                    tally.disagreements += 1;
                    failed_runs += 1;
                    let _ = writeln!(
                        report,
                        "FAIL {:<18} {}: error: {why}",
                        engine.name, case.name
                    );
                    continue;
                }
            };
            tally.run += 1;
            answered += 1;
            let verdict = check_expected(case, &answer).and_then(|()| match &first {
                Some((other, a)) => {
                    check_same(a, &answer).map_err(|e| format!("against {other}: {e}"))
                }
                None => Ok(()),
            });
            match verdict {
                Ok(()) => passed += 1,
                Err(why) => {
                    tally.disagreements += 1;
                    failed_runs += 1;
                    let _ = writeln!(report, "FAIL {:<18} {}: {why}", engine.name, case.name);
                }
            }
            if first.is_none() {
                first = Some((engine.name, answer));
            }
        }
        if answered == 0 {
            unanswered.push(case.name.clone());
        }
    }

    print!("{report}");
    println!();
    println!(
        "{} cases from testdata/ in {:.1} s",
        cases.len(),
        start.elapsed().as_secs_f64()
    );
    println!(
        "{:<20} | {:>9} | {:>13} | {:>13} | {:>7}",
        "engine", "cases run", "cases skipped", "disagreements", "time"
    );
    println!(
        "{:-<20}-+-{:->9}-+-{:->13}-+-{:->13}-+-{:->7}",
        "", "", "", "", ""
    );
    let mut idle = Vec::new();
    for (engine, t) in ENGINES.iter().zip(&tallies) {
        println!(
            "{:<20} | {:>9} | {:>13} | {:>13} | {:>6.1}s",
            engine.name,
            t.run,
            t.skipped,
            t.disagreements,
            t.time.as_secs_f64()
        );
        if t.run == 0 {
            idle.push(engine.name);
        }
    }
    println!(
        "(dropped values fetched back: sparse-window {}, sparse-run-window {})",
        WINDOW_FETCHES.load(Ordering::Relaxed),
        RUN_FETCHES.load(Ordering::Relaxed)
    );
    for name in &unanswered {
        println!("no engine answered {name}");
    }
    for name in &idle {
        println!("engine {name} ran no case");
    }
    let failures = failed_runs + unanswered.len() as u64;
    println!("corpus: {passed} passed, {failures} failed");
    if failures > 0 || (!idle.is_empty() && filters.is_empty()) {
        std::process::exit(1);
    }
}

fn panic_message(p: &Box<dyn std::any::Any + Send>) -> String {
    let msg = p
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "a panic".into());
    format!("panicked: {msg}")
}
