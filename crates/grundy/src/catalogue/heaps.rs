//! Heap games in the catalogue: Nim and misère Nim (closed form), every named heap rule
//! (`kayles`, `grundys-game`, …) and the rule families (take-and-break codes such as `0.137`
//! or `4!.0`, subtraction sets `sub:1,3,4`, `allbut:…`). They live in the facade because their
//! values come from the facade's engine choice ([`crate::heap`]).
//!
//! A position is a list of heap sizes (`5 7 9`, commas allowed, counts such as `2^20`): a sum
//! of heaps of one rule. Kind `"heaps"`, field `heaps` (numbers up to 2^53, strings beyond).

use grundy_core::catalogue::{
    Ask, Entry, Error, Grundy, Info, Move, Param, Position, Report, Result, Rules,
};
use grundy_heap::named;

use crate::heap::{self, Compute, Rule};
use crate::Outcome;

/// The heap engines' params: threads of the record engine.
const THREADS: Param = Param::count(
    "threads",
    "threads of the record engine for splitting codes (0: one per core)",
    0,
    64,
)
.local();

/// The params every heap rule declares.
const HEAP_PARAMS: [Param; 1] = [THREADS];

/// The most legal moves a listed position may have.
pub const MAX_MOVES: u64 = 20_000;
/// The largest heap whose moves are listed (every option is valued).
pub const MAX_LISTED_HEAP: u64 = 5_000;
/// The most heaps in a position.
pub const MAX_HEAPS: usize = 100_000;

/// The built-in heap games, in the order `grundy games` lists them.
pub fn entries() -> Vec<Box<dyn Entry>> {
    let mut out: Vec<Box<dyn Entry>> = vec![
        Box::new(super::nim::NimEntry { misere: false }),
        Box::new(super::nim::NimEntry { misere: true }),
    ];
    for g in named::GAMES.iter().filter(|g| g.name != "nim") {
        out.push(Box::new(NamedEntry(g)));
    }
    for family in FAMILIES {
        out.push(Box::new(FamilyEntry(family)));
    }
    out
}

/// Reads a list of heap sizes: counts separated by spaces or commas.
pub fn parse_heaps(text: &str) -> Result<Vec<u64>> {
    let heaps: Vec<u64> = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .map(|t| crate::input::parse_count(t).map_err(|e| Error::input(format!("heap {e}"))))
        .collect::<Result<_>>()?;
    if heaps.is_empty() {
        return Err(Error::input(
            "a position needs at least one heap (0 for an empty one)",
        ));
    }
    if heaps.len() > MAX_HEAPS {
        return Err(Error::limit(format!(
            "{} heaps: a position has at most {MAX_HEAPS}",
            heaps.len()
        )));
    }
    Ok(heaps)
}

fn heaps_of(pos: &Position) -> Result<Vec<u64>> {
    parse_heaps(&pos.text)
}

pub(crate) const HEAPS_GRAMMAR: &str =
    "heap sizes separated by spaces or commas (a sum of heaps): \
`5 7 9`; sizes may be written 2^20, 1e6 or 1_000";

fn too_many_moves() -> Error {
    Error::limit(format!(
        "the position has more than {MAX_MOVES} moves: too many to list"
    ))
}

/// A named heap rule (`kayles`, `dawsons-kayles`, `grundys-game`, …).
struct NamedEntry(&'static named::NamedGame);

impl Entry for NamedEntry {
    fn info(&self) -> Info {
        let g = self.0;
        Info {
            name: g.name.into(),
            aliases: g.aliases.iter().map(|a| a.to_string()).collect(),
            summary: format!("{} (heap = {}; rule {})", g.description, g.size, g.rule),
            example: "5 7 9".into(),
            example_game: None,
            position: HEAPS_GRAMMAR.into(),
            kind: "heaps".into(),
            family: false,
            misere: true,
            loopy: false,
            scoring: false,
            params: HEAP_PARAMS.to_vec(),
        }
    }

    fn matches(&self, name: &str) -> bool {
        self.0.name == name || self.0.aliases.contains(&name)
    }

    fn open(&self, name: &str) -> Result<Box<dyn Rules>> {
        HeapRules::open(name)
    }
}

/// A parametric family of heap rules.
struct Family {
    pattern: &'static str,
    summary: &'static str,
    example_game: &'static str,
    /// True when a parsed rule belongs to the family.
    member: fn(&str, &Rule) -> bool,
}

const FAMILIES: &[Family] = &[
    Family {
        pattern: "CODE",
        summary: "Take-and-break games by their code in CGSuite's notation: octal `0.137`, \
                  hexadecimal `0.8f`, Grundy's game `4!.0`",
        example_game: "0.137",
        member: |_, r| matches!(r, Rule::Code(_)),
    },
    Family {
        pattern: "sub:S",
        summary: "Subtraction games: take s tokens for s in S (`sub:1,3,4`, `sub:odd`, `sub:fib`)",
        example_game: "sub:1,3,4",
        member: |_, r| matches!(r, Rule::Subtraction(_)),
    },
    Family {
        pattern: "allbut:S",
        summary: "All-but subtraction games: take any number not in S (`allbut:1,2`)",
        example_game: "allbut:1,2",
        member: |_, r| matches!(r, Rule::AllBut(_)),
    },
];

struct FamilyEntry(&'static Family);

impl Entry for FamilyEntry {
    fn info(&self) -> Info {
        let f = self.0;
        Info {
            name: f.pattern.into(),
            aliases: vec![],
            summary: f.summary.into(),
            example: "5 7 9".into(),
            example_game: Some(f.example_game.into()),
            position: HEAPS_GRAMMAR.into(),
            kind: "heaps".into(),
            family: true,
            misere: true,
            loopy: false,
            scoring: false,
            params: HEAP_PARAMS.to_vec(),
        }
    }

    fn matches(&self, name: &str) -> bool {
        named::find(name).is_none() && heap::parse(name).is_ok_and(|r| (self.0.member)(name, &r))
    }

    fn open(&self, name: &str) -> Result<Box<dyn Rules>> {
        HeapRules::open(name)
    }
}

/// A heap rule's rules: values from the facade's engines, moves from the rule's one source
/// of moves.
struct HeapRules {
    name: String,
    rule: Rule,
    /// G(0..) in natural sizes, as far as listed moves needed them.
    values: Vec<u32>,
    /// G_base(0..=shift) of a named game's base rule.
    base_small: Vec<u32>,
}

impl HeapRules {
    fn open(name: &str) -> Result<Box<dyn Rules>> {
        let rule = heap::parse(name).map_err(|e| Error::input(e.to_string()))?;
        let (base, shift) = rule.base_and_shift();
        let base_small = if shift > 0 {
            heap::engine::sequence(base, shift).map_err(|e| Error::input(e.to_string()))?
        } else {
            Vec::new()
        };
        Ok(Box::new(HeapRules {
            name: name.to_string(),
            rule,
            values: Vec::new(),
            base_small,
        }))
    }

    fn ensure_values(&mut self, max: u64) -> Result<()> {
        if (max as usize) < self.values.len() {
            return Ok(());
        }
        let want = (max.max(64)).max(self.values.len() as u64 * 2);
        self.values = heap::sequence(&self.rule, want, &mut Compute::default())
            .map_err(to_catalogue)?
            .values;
        Ok(())
    }

    /// A move of the sum as [`heap::heap_move`] builds it, its text prefixed with the heap's
    /// index ("heap 1: from the heap of 9, …": two heaps of one size are told apart).
    fn heap_move(
        i: usize,
        removed: u64,
        leaves: &[u64],
        heaps: &[u64],
        outcome: Outcome,
        grundy: Option<u64>,
    ) -> Move {
        labelled(heap::heap_move(heaps, i, removed, leaves, outcome, grundy))
    }
}

/// The heap engines' settings for a question: its stop flag and progress callback (heaps
/// done of heaps to compute) and the `threads` param.
fn compute(ask: &Ask) -> Compute<'_> {
    let mut c = Compute::new();
    if let Ok(Some(t)) = ask.settings.count(THREADS.name, &HEAP_PARAMS) {
        c = c.threads(t as usize);
    }
    if let Some(stop) = &ask.stop {
        c = c.stop_when(stop);
    }
    if ask.progress.is_some() {
        c = c.on_progress(move |p| {
            ask.report(p.done, p.total, "heaps");
        });
    }
    c
}

/// A heap move's text prefixed with the index of its heap (its `at.heap`).
fn labelled(mut m: Move) -> Move {
    if let Some(i) = m.at.get("heap").and_then(serde_json::Value::as_u64) {
        m.text = format!("heap {i}: {}", m.text);
    }
    m
}

/// The facade's error as the catalogue's.
pub(crate) fn to_catalogue(e: crate::Error) -> Error {
    match e {
        crate::Error::Stopped { .. } => Error {
            kind: grundy_core::catalogue::ErrorKind::Stopped,
            message: e.to_string(),
            parameter: None,
        },
        crate::Error::Catalogue(c) => c,
        crate::Error::Limit(l) => l.into(),
        e if e.is_limit() => Error::limit(e.to_string()),
        e if e.is_input() => Error::input(e.to_string()),
        e => Error::failure(e.to_string()),
    }
}

impl Rules for HeapRules {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn parse(&self, text: &str) -> Result<Position> {
        Ok(Position::heaps(&parse_heaps(text)?))
    }

    fn moves(&mut self, pos: &Position, ask: &Ask) -> Result<Vec<Move>> {
        let heaps = heaps_of(pos)?;
        check_listable(&heaps)?;
        let wins = if ask.play.is_misere() {
            let a = heap::analyze_position_misere(&self.rule, &heaps, &ask.budget, &compute(ask))
                .map_err(to_catalogue)?;
            Some(misere_wins(&a)?)
        } else {
            None
        };
        self.every_move(&heaps, wins)
    }

    fn analyze(&mut self, pos: &Position, ask: &Ask) -> Result<Report> {
        let heaps = heaps_of(pos)?;
        // The engine is asked for no more than the question: the value alone walks no move.
        let winning = ask.detail.wants_winning();
        if ask.detail.wants_all() {
            check_listable(&heaps)?;
        }
        if ask.play.is_misere() {
            let (rule, budget, c) = (&self.rule, &ask.budget, &compute(ask));
            let a = if winning {
                heap::analyze_position_misere(rule, &heaps, budget, c)
            } else {
                heap::analyze_position_misere_value(rule, &heaps, budget, c)
            }
            .map_err(to_catalogue)?;
            let mut r = Report::new(
                self.name(),
                Position::heaps(&heaps),
                ask.play,
                a.outcome,
                None,
            );
            r.winning_moves = a.winning_moves.iter().cloned().map(labelled).collect();
            r.explanation = vec![format!("Misère values do not add: {}.", a.how())];
            r.details = details(&a, winning);
            return r.finish(ask.detail, || {
                let wins = misere_wins(&a)?;
                self.every_move(&heaps, Some(wins))
            });
        }
        let a = if winning {
            heap::analyze_position(&self.rule, &heaps, &mut compute(ask))
        } else {
            heap::analyze_position_value(&self.rule, &heaps, &mut compute(ask))
        }
        .map_err(to_catalogue)?;
        let s = &a.analysis;
        let mut r = Report::new(
            self.name(),
            Position::heaps(&heaps),
            ask.play,
            s.outcome,
            Some(Grundy::Finite(s.grundy)),
        );
        r.winning_moves = s.winning_moves.iter().cloned().map(labelled).collect();
        let sizes: Vec<String> = heaps.iter().map(u64::to_string).collect();
        let values: Vec<String> = s.heap_values.iter().map(u64::to_string).collect();
        r.explanation = vec![format!(
            "The heaps {} have values {}; the value of their sum is the XOR, {}.",
            sizes.join(", "),
            values.join(", "),
            s.grundy
        )];
        if !s.unlisted_heaps.is_empty() || !s.unchecked_heaps.is_empty() {
            r.explanation.push(
                "Some heaps have too many splits to list their winning moves (details names them)."
                    .into(),
            );
        }
        r.details = details(&a, winning);
        r.finish(ask.detail, || self.every_move(&heaps, None))
    }
}

/// Refuses to list every move of a position with a heap past [`MAX_LISTED_HEAP`].
fn check_listable(heaps: &[u64]) -> Result<()> {
    let max = heaps.iter().copied().max().unwrap_or(0);
    if max > MAX_LISTED_HEAP {
        return Err(Error::limit(format!(
            "heap {max}: moves are listed for heaps up to {MAX_LISTED_HEAP}"
        )));
    }
    Ok(())
}

/// The texts of the positions a misère answer's winning moves leave, refused when some heap's
/// winning moves were not listed (every move's outcome would then be wrong there).
fn misere_wins(a: &heap::MiserePosition) -> Result<std::collections::HashSet<String>> {
    if !a.unlisted_heaps.is_empty() {
        return Err(Error::limit(format!(
            "{} heaps with winning moves too many to list: every move's outcome is not listed for a position this large",
            a.unlisted_heaps.len()
        )));
    }
    Ok(a.winning_moves.iter().map(|m| m.to.text.clone()).collect())
}

/// The engine's result as the report's `details`, without its winning moves (the report's
/// own `winning_moves` are they: a sum of 10^4 heaps would carry each move's position twice);
/// for the value alone, without the (empty, not asked) lists of heaps whose moves were not
/// listed either.
fn details(a: &impl serde::Serialize, winning: bool) -> serde_json::Value {
    let mut v = serde_json::to_value(a).unwrap_or_default();
    if let Some(o) = v.as_object_mut() {
        o.remove("winning_moves");
        if !winning {
            o.remove("unlisted_heaps");
            o.remove("unchecked_heaps");
        }
    }
    v
}

impl HeapRules {
    /// Every legal move of `heaps`, each with the outcome (and under normal play the value)
    /// of the position it leaves; under misère play `misere_wins` holds the texts of the positions
    /// the winning moves leave.
    fn every_move(
        &mut self,
        heaps: &[u64],
        misere_wins: Option<std::collections::HashSet<String>>,
    ) -> Result<Vec<Move>> {
        check_listable(heaps)?;
        let max = heaps.iter().copied().max().unwrap_or(0);
        self.ensure_values(max)?;
        let mut raw = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut over = false;
        for (i, &h) in heaps.iter().enumerate() {
            grundy_heap::sum::for_each_move(&self.rule, h, &self.base_small, |removed, leaves| {
                if over || !seen.insert((i, leaves.to_vec())) {
                    return;
                }
                if raw.len() as u64 >= MAX_MOVES {
                    over = true;
                    return;
                }
                raw.push((i, removed, leaves.to_vec()));
            });
        }
        if over {
            return Err(too_many_moves());
        }
        let mut out = Vec::with_capacity(raw.len());
        for (i, removed, leaves) in raw {
            let mut m = Self::heap_move(i, removed, &leaves, heaps, Outcome::N, None);
            match &misere_wins {
                Some(wins) if wins.contains(&m.to.text) => m.outcome = Outcome::P,
                Some(_) => {}
                None => {
                    let g = heaps
                        .iter()
                        .enumerate()
                        .filter(|&(j, _)| j != i)
                        .map(|(_, &x)| x)
                        .chain(leaves.iter().copied())
                        .fold(0u64, |a, x| a ^ self.values[x as usize] as u64);
                    m.outcome = Outcome::from_grundy(g);
                    m.grundy = Some(Grundy::Finite(g));
                }
            }
            out.push(m);
        }
        Ok(out)
    }
}
