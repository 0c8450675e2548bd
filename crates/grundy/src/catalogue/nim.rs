//! Nim and misère Nim in the catalogue: Bouton's closed forms (`grundy_core::nim`) for positions
//! of any number of heaps.
//!
//! A position is a list of heap sizes separated by spaces or commas, each in the one grammar of
//! counts (`2^10 3`, `1e6`), read by the core's byte parser ([`crate::nim::HeapParser`]): 10^7
//! heaps from a pipe cost one pass over the bytes. Such a position can be handed over in
//! pieces ([`Rules::feed`]): its text is then never held, and its heaps are kept only when the
//! winning moves are asked for (the value alone needs three counters). A long answer follows
//! the JSON's rules of [`crate::nim::JSON_LISTED_MOVES`] and
//! [`crate::nim::JSON_LISTED_SIZES`]: past 2^20 heaps the report's position is abbreviated,
//! and each listed move's `to` is abbreviated once the moves listed times the heaps pass 2^20.

use grundy_core::catalogue::{
    Ask, Entry, Error, Feed, Grundy, Info, Move, Param, Play, Position, Report, Result, Rules,
};
use serde::Serialize;

use crate::text::JsonU64;
use grundy_core::nim::{self, HeapParser, NimAnalysis, NimStream, JSON_LISTED_SIZES};

/// How many heaps the explanation writes out.
const SHOW: Param = Param::count(
    "show",
    "how many heaps the explanation writes out in binary (default 50)",
    0,
    1_000_000,
);

/// The params of `nim` and `misere-nim`.
const PARAMS: [Param; 1] = [SHOW];

/// Heaps written out when `show` is not given.
const DEFAULT_SHOW: u64 = 50;

/// The most legal moves a position may have for every move to be listed (each valued).
const MAX_MOVES: u64 = super::heaps::MAX_MOVES;

/// Nim (or misère Nim): Bouton's closed form.
pub(crate) struct NimEntry {
    /// Misère Nim: every question is asked under misère play.
    pub(crate) misere: bool,
}

impl Entry for NimEntry {
    fn info(&self) -> Info {
        let (name, summary) = if self.misere {
            (
                "misere-nim",
                "Misère Nim: take any number from one heap; whoever takes the last token loses",
            )
        } else {
            (
                "nim",
                "Nim: take any number of tokens from one heap; whoever takes the last wins",
            )
        };
        Info {
            name: name.into(),
            aliases: if self.misere {
                vec!["misère-nim".into()]
            } else {
                vec![]
            },
            summary: summary.into(),
            example: "3 4 5".into(),
            example_game: None,
            position: "heap sizes separated by spaces or commas (a sum of heaps, any number of \
                       them): `3 4 5`; sizes may be written 2^20, 1e6 or 1_000"
                .into(),
            kind: "heaps".into(),
            family: false,
            misere: true,
            loopy: false,
            scoring: false,
            params: PARAMS.to_vec(),
        }
    }

    fn matches(&self, name: &str) -> bool {
        if self.misere {
            name == "misere-nim" || name == "misère-nim"
        } else {
            name == "nim"
        }
    }

    fn open(&self, _name: &str) -> Result<Box<dyn Rules>> {
        Ok(Box::new(NimRules {
            misere: self.misere,
        }))
    }
}

struct NimRules {
    /// Misère Nim: every question is asked under misère play.
    misere: bool,
}

impl NimRules {
    fn name(misere: bool) -> &'static str {
        if misere {
            "misere-nim"
        } else {
            "nim"
        }
    }

    fn play(&self, play: Play) -> nim::Play {
        nim::Play::from_misere(self.misere || play.is_misere())
    }
}

/// Reads the heaps of `text` into `stream`.
fn read(text: &str, stream: &mut NimStream) -> Result<()> {
    let mut parser = HeapParser::new();
    let mut sink = |h| stream.push(h);
    parser.feed(text.as_bytes(), &mut sink).map_err(input)?;
    parser.finish(&mut sink).map_err(input)?;
    nonempty(stream)
}

fn input(e: nim::HeapError) -> Error {
    Error::input(e.to_string())
}

fn nonempty(stream: &NimStream) -> Result<()> {
    if stream.is_empty() {
        return Err(Error::input(
            "a position needs at least one heap (0 for an empty one)",
        ));
    }
    Ok(())
}

/// The heaps of a position's text.
fn heaps_of(text: &str) -> Result<Vec<u64>> {
    let mut stream = NimStream::new(true);
    read(text, &mut stream)?;
    Ok(stream.heaps().unwrap_or_default().to_vec())
}

/// The position of `heaps`: its field `heaps` only up to [`JSON_LISTED_SIZES`] heaps.
fn position(heaps: &[u64]) -> Position {
    if heaps.len() as u64 <= JSON_LISTED_SIZES {
        return Position::heaps(heaps);
    }
    let mut text = String::with_capacity(heaps.len() * 8);
    for (i, h) in heaps.iter().enumerate() {
        if i > 0 {
            text.push(' ');
        }
        text.push_str(&h.to_string());
    }
    Position::text("heaps", text)
}

/// What a Nim report adds to outcome, value and moves (`details`).
#[derive(Serialize)]
struct Details {
    /// Normal or misère play.
    play: nim::Play,
    /// Heaps in the position, zeros included.
    heap_count: u64,
    /// The XOR of the heaps (it decides misère play only while a heap is at least 2).
    nim_sum: JsonU64,
    /// How many winning moves there are, listed or not.
    winning_move_count: u64,
    /// False when the report lists only the first [`nim::JSON_LISTED_MOVES`] of them (or,
    /// at the detail `value`, none).
    all_winning_moves_listed: bool,
}

/// The report of an analysis (with its heaps, when they were kept) at `ask`'s detail.
fn report(name: &str, a: &NimAnalysis, ask: &Ask) -> Result<Report> {
    let misere = a.play == nim::Play::Misere;
    let show = usize::try_from(
        ask.settings
            .count(SHOW.name, &PARAMS)?
            .unwrap_or(DEFAULT_SHOW),
    )
    .unwrap_or(usize::MAX);
    let heaps = a.heaps.as_deref();
    let pos = match heaps {
        Some(h) if a.heap_count <= JSON_LISTED_SIZES => Position::heaps(h),
        _ => nim::abbreviated_position().with("heap_count", a.heap_count),
    };
    let mut r = Report::new(
        name,
        pos,
        Play::from_misere(misere),
        a.outcome,
        (!misere).then_some(Grundy::Finite(a.nim_sum)),
    )
    .at(ask.detail);
    r.moves = heaps.and_then(|h| h.iter().try_fold(0u64, |s, &x| s.checked_add(x)));
    let listed = if ask.detail.wants_winning() && heaps.is_some() {
        r.winning_moves = a.listed_moves().collect();
        r.winning_moves.len() as u64
    } else {
        0
    };
    // The textbook's why: the binary, the rule, and (when the moves are asked for) how each
    // winning move follows from the nim-sum (`10 ⊕ 3 = 9`).
    let why = if ask.detail.wants_winning() {
        nim::explain(a, heaps, show)
    } else {
        nim::explain_rule(a, heaps, show)
    };
    r.explanation = why
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect();
    if listed < a.winning_move_count && ask.detail.wants_winning() {
        r.explanation.push(format!(
            "{} winning moves in all; the first {listed} are listed.",
            a.winning_move_count
        ));
    }
    if ask.detail.wants_all() {
        let heaps = heaps.unwrap_or_default();
        if r.moves.is_none_or(|m| m > MAX_MOVES) {
            return Err(Error::limit(format!(
                "the position has more than {MAX_MOVES} moves: too many to list"
            )));
        }
        let p = a.play;
        r.all_moves = heaps
            .iter()
            .enumerate()
            .flat_map(|(i, &x)| (0..x).rev().map(move |left| (i, left)))
            .filter_map(|(i, left)| nim::nim_move(heaps, i, left, p))
            .collect();
    }
    r.details = serde_json::to_value(Details {
        play: a.play,
        heap_count: a.heap_count,
        nim_sum: JsonU64(a.nim_sum),
        winning_move_count: a.winning_move_count,
        all_winning_moves_listed: listed == a.winning_move_count,
    })
    .unwrap_or_default();
    Ok(r)
}

impl Rules for NimRules {
    fn name(&self) -> String {
        Self::name(self.misere).into()
    }

    fn parse(&self, text: &str) -> Result<Position> {
        Ok(position(&heaps_of(text)?))
    }

    fn moves(&mut self, pos: &Position, ask: &Ask) -> Result<Vec<Move>> {
        let heaps = heaps_of(&pos.text)?;
        let total = heaps.iter().try_fold(0u64, |a, &h| a.checked_add(h));
        if total.is_none_or(|t| t > MAX_MOVES) {
            return Err(Error::limit(format!(
                "the position has more than {MAX_MOVES} moves: too many to list"
            )));
        }
        let p = self.play(ask.play);
        let mut out = Vec::new();
        for (i, &x) in heaps.iter().enumerate() {
            out.extend(
                (0..x)
                    .rev()
                    .filter_map(|left| nim::nim_move(&heaps, i, left, p)),
            );
        }
        Ok(out)
    }

    fn analyze(&mut self, pos: &Position, ask: &Ask) -> Result<Report> {
        let mut stream = NimStream::new(true);
        read(&pos.text, &mut stream)?;
        let a = stream.into_analysis(self.play(ask.play));
        report(Self::name(self.misere), &a, ask)
    }

    fn feed(&self, ask: &Ask) -> Option<Box<dyn Feed>> {
        // The heaps are kept only to list the winning moves; the value needs counters.
        let stream = if ask.detail.wants_winning() {
            NimStream::new(true)
        } else {
            NimStream::counting()
        };
        Some(Box::new(NimFeed {
            parser: HeapParser::new(),
            stream,
            head: Vec::new(),
            ask: ask.clone(),
            misere: self.misere,
        }))
    }
}

/// The most heaps a counting stream keeps to show its position (`3 4 5` read from stdin
/// reads back as itself, not as a position too long to repeat).
const HEAD_KEPT: usize = 64;

/// A Nim position read in pieces: the core's byte parser straight into a [`NimStream`].
struct NimFeed {
    parser: HeapParser,
    stream: NimStream,
    /// The first [`HEAD_KEPT`] heaps, kept while the stream counts without keeping heaps.
    head: Vec<u64>,
    ask: Ask,
    misere: bool,
}

/// Adds heap `h` to `stream`, and to `head` while the stream keeps no heaps and `head` is
/// short.
fn push_heap(stream: &mut NimStream, head: &mut Vec<u64>, h: u64) {
    stream.push(h);
    if head.len() < HEAD_KEPT && stream.heaps().is_none() {
        head.push(h);
    }
}

impl Feed for NimFeed {
    fn feed(&mut self, bytes: &[u8]) -> Result<()> {
        let (stream, head) = (&mut self.stream, &mut self.head);
        self.parser
            .feed(bytes, &mut |h| push_heap(stream, head, h))
            .map_err(input)?;
        let stream = &self.stream;
        // Kept heaps count against the memory budget (8 bytes each).
        if stream.heaps().is_some() && stream.len().saturating_mul(8) > self.ask.budget.max_bytes {
            return Err(Error {
                parameter: Some("max_bytes"),
                ..Error::limit(format!(
                    "{} heaps: listing the winning moves keeps every heap, more than the memory \
                     budget of {} MiB (the value alone keeps none: ask for the value only)",
                    stream.len(),
                    self.ask.budget.max_bytes >> 20
                ))
            });
        }
        if self.ask.stopped() {
            return Err(self.ask.stopped_error("reading the heaps"));
        }
        Ok(())
    }

    fn finish(self: Box<Self>) -> Result<Report> {
        let NimFeed {
            parser,
            mut stream,
            mut head,
            ask,
            misere,
        } = *self;
        parser
            .finish(&mut |h| push_heap(&mut stream, &mut head, h))
            .map_err(input)?;
        nonempty(&stream)?;
        let counted = stream.len();
        let mut a = stream.into_analysis(nim::Play::from_misere(misere || ask.play.is_misere()));
        if a.heaps.is_none() && counted <= HEAD_KEPT as u64 {
            a.heaps = Some(head);
        }
        report(NimRules::name(misere), &a, &ask)
    }
}
