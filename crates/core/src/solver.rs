//! The generic Sprague–Grundy solver: values, outcomes and winning moves of any [`Game`].
//!
//! Values are memoised in a transposition table keyed by the exact position (`Eq`, never a
//! hash alone) and computed with an explicit stack, so a chain of a million moves needs heap
//! memory, not call-stack depth. A position that [`Game::components`] splits is valued as the
//! XOR of its components' values (the Sprague–Grundy theorem).
//!
//! Misère play is searched directly over whole positions with its own memo: misère values do
//! not add, so the misère search never uses `components`.

use crate::fxhash::FxHashMap;
use crate::game::{Game, Outcome};
use crate::mex::Mex;

/// Memo marker for a position whose value is being computed (it is on the search stack).
const IN_PROGRESS: u64 = u64::MAX;

/// Misère memo states.
const M_P: u8 = 0;
const M_N: u8 = 1;
const M_IN_PROGRESS: u8 = 2;

/// The game broke the solver's contract: a position can be reached from itself.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the game has a cycle: a position at search depth {depth} repeats one on the search path")]
pub struct CycleError {
    /// Depth of the search path when the repetition was found.
    pub depth: usize,
}

/// A move in one component of a sum: which component, and its position after the move.
///
/// Not a [`crate::Move`]: a [`Game`]'s positions are only `Clone + Eq + Hash`, with no
/// notation to print or parse, so there is no `to.text` to give; a game with a notation
/// reaches the catalogue through [`crate::catalogue::Solved`], whose moves are `Move`s.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SumMove<P> {
    /// Index of the component moved in (0-based, in the order the components were given).
    pub component: usize,
    /// The component's new position.
    pub to: P,
}

/// Everything a player asks of one position under normal play: its value, who wins, and
/// every move that wins (the options of value 0; empty in a P-position).
///
/// The one answer shape of every game: catalogue games, graph games and heap sums all report
/// an `Analysis` (or a struct with these three fields first).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Analysis<P> {
    /// The Sprague–Grundy value.
    pub grundy: u64,
    /// `N` when the player to move wins, `P` otherwise.
    pub outcome: Outcome,
    /// Every option of value 0, each distinct position once.
    pub winning_moves: Vec<P>,
}

/// One position on the normal-play search stack.
struct Frame {
    /// Index of the position in the arena.
    pos: usize,
    /// Its children (components or options) are `arena[start..end]`.
    start: usize,
    end: usize,
    /// Next child to evaluate.
    next: usize,
    /// Values of evaluated children are `vals[vals..]`.
    vals: usize,
    /// Children are components (value = XOR) rather than options (value = mex).
    sum: bool,
}

/// One position on the misère search stack.
struct MisereFrame {
    pos: usize,
    start: usize,
    end: usize,
    next: usize,
    /// A child is a misère P-position, so this position is N.
    won: bool,
}

/// Sprague–Grundy solver for one game; keeps its memo tables between queries.
pub struct Solver<G: Game> {
    game: G,
    values: FxHashMap<G::Position, u64>,
    misere: FxHashMap<G::Position, u8>,
    /// Positions on the normal-play search stack and their children.
    arena: Vec<G::Position>,
    frames: Vec<Frame>,
    /// The same for the misère search (kept apart so that each can be cleaned up alone).
    marena: Vec<G::Position>,
    mframes: Vec<MisereFrame>,
    vals: Vec<u64>,
    /// Scratch for the components of a sum valued on the spot (see [`Solver::try_grundy`]).
    parts: Vec<G::Position>,
    mex: Mex,
}

impl<G: Game> Solver<G> {
    /// A solver with empty memo tables.
    pub fn new(game: G) -> Self {
        Solver {
            game,
            values: FxHashMap::default(),
            misere: FxHashMap::default(),
            arena: Vec::new(),
            frames: Vec::new(),
            marena: Vec::new(),
            mframes: Vec::new(),
            vals: Vec::new(),
            parts: Vec::new(),
            mex: Mex::new(),
        }
    }

    /// The rules this solver plays.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// Number of positions whose normal-play value is memoised.
    pub fn memo_len(&self) -> usize {
        self.values.len()
    }

    /// Number of positions whose misère outcome is memoised.
    pub fn misere_memo_len(&self) -> usize {
        self.misere.len()
    }

    /// Forgets every memoised value (normal and misère).
    pub fn clear(&mut self) {
        self.values.clear();
        self.misere.clear();
    }

    /// The memoised normal-play value of `pos`, if already computed.
    pub fn cached(&self, pos: &G::Position) -> Option<u64> {
        self.values.get(pos).copied().filter(|&v| v != IN_PROGRESS)
    }

    /// The Sprague–Grundy value of `pos`.
    ///
    /// # Panics
    /// If the game has a cycle reachable from `pos` (the [`Game`] contract forbids it); use
    /// [`Solver::try_grundy`] to get an error instead.
    pub fn grundy(&mut self, pos: &G::Position) -> u64 {
        match self.try_grundy(pos) {
            Ok(v) => v,
            Err(e) => panic!("{e}"),
        }
    }

    /// The Sprague–Grundy value of `pos`, or an error if a cycle is reachable from it.
    pub fn try_grundy(&mut self, pos: &G::Position) -> Result<u64, CycleError> {
        if !self.frames.is_empty() {
            // A previous search was unwound by a panic in the game's code: drop its marks.
            self.abandon();
        }
        if let Some(&v) = self.values.get(pos) {
            return Ok(v);
        }
        self.arena.clear();
        self.frames.clear();
        self.vals.clear();
        self.arena.push(pos.clone());
        self.open(0);
        loop {
            let top = self.frames.len() - 1;
            let f = &mut self.frames[top];
            if f.next < f.end {
                match self.values.get(&self.arena[f.next]) {
                    Some(&IN_PROGRESS) => {
                        let depth = self.frames.len();
                        self.abandon();
                        return Err(CycleError { depth });
                    }
                    Some(&v) => {
                        self.vals.push(v);
                        f.next += 1;
                    }
                    None => {
                        let child = f.next;
                        // A sum whose components are all known is valued on the spot, with no
                        // frame (and no memo entry where the game says that costs more than
                        // the XOR: see `Game::memoise_sum`).
                        self.parts.clear();
                        if self.game.components(&self.arena[child], &mut self.parts) {
                            match self.known_xor() {
                                Some(v) => {
                                    let p = &self.arena[child];
                                    if self.game.memoise_sum(p) {
                                        self.values.insert(p.clone(), v);
                                    }
                                    self.vals.push(v);
                                    self.frames[top].next += 1;
                                }
                                None => self.open_sum(child),
                            }
                        } else {
                            self.open_options(child);
                        }
                    }
                }
                continue;
            }
            let f = self.frames.pop().expect("stack is non-empty");
            let children = &self.vals[f.vals..];
            let v = if f.sum {
                children.iter().fold(0, |a, &b| a ^ b)
            } else {
                self.mex.of(children)
            };
            self.vals.truncate(f.vals);
            *self
                .values
                .get_mut(&self.arena[f.pos])
                .expect("opened positions are in the memo") = v;
            self.arena.truncate(f.start);
            match self.frames.last_mut() {
                Some(parent) => {
                    self.vals.push(v);
                    parent.next += 1;
                }
                None => return Ok(v),
            }
        }
    }

    /// Pushes a frame for `arena[idx]`: marks it in progress and lists its children.
    fn open(&mut self, idx: usize) {
        self.parts.clear();
        if self.game.components(&self.arena[idx], &mut self.parts) {
            self.open_sum(idx);
        } else {
            self.open_options(idx);
        }
    }

    /// The XOR of the values of `parts` when every one is memoised (and none is on the search
    /// stack: that case goes through a frame, which reports the cycle).
    fn known_xor(&self) -> Option<u64> {
        let mut x = 0;
        for q in &self.parts {
            match self.values.get(q) {
                Some(&v) if v != IN_PROGRESS => x ^= v,
                _ => return None,
            }
        }
        Some(x)
    }

    /// Pushes a frame for `arena[idx]`, a sum whose components are in `parts`.
    fn open_sum(&mut self, idx: usize) {
        let start = self.arena.len();
        self.arena.append(&mut self.parts);
        let p = self.arena[idx].clone();
        self.push_frame(p, idx, start, true);
    }

    /// Pushes a frame for `arena[idx]`, a position that does not split: its options.
    fn open_options(&mut self, idx: usize) {
        let start = self.arena.len();
        let p = self.arena[idx].clone();
        self.game.options(&p, &mut self.arena);
        self.push_frame(p, idx, start, false);
    }

    /// Marks `p` (= `arena[idx]`) in progress and pushes its frame over children
    /// `arena[start..]`.
    fn push_frame(&mut self, p: G::Position, idx: usize, start: usize, sum: bool) {
        self.values.insert(p, IN_PROGRESS);
        self.frames.push(Frame {
            pos: idx,
            start,
            end: self.arena.len(),
            next: start,
            vals: self.vals.len(),
            sum,
        });
    }

    /// Drops an interrupted search, removing its in-progress marks from the memo.
    fn abandon(&mut self) {
        for f in &self.frames {
            self.values.remove(&self.arena[f.pos]);
        }
        self.frames.clear();
        self.arena.clear();
        self.vals.clear();
    }

    /// Normal-play outcome of `pos`: `P` iff its value is 0.
    pub fn outcome(&mut self, pos: &G::Position) -> Outcome {
        Outcome::from_grundy(self.grundy(pos))
    }

    /// Every option of `pos` (each distinct position once, in the game's order).
    pub fn options(&self, pos: &G::Position) -> Vec<G::Position> {
        let mut out = Vec::new();
        self.game.options(pos, &mut out);
        dedup(out)
    }

    /// Every option of `pos` whose value is `target`.
    pub fn moves_to_value(&mut self, pos: &G::Position, target: u64) -> Vec<G::Position> {
        let opts = self.options(pos);
        opts.into_iter()
            .filter(|o| self.grundy(o) == target)
            .collect()
    }

    /// Value, outcome and every winning move of `pos` under normal play.
    pub fn analyze(&mut self, pos: &G::Position) -> Analysis<G::Position> {
        let grundy = self.grundy(pos);
        Analysis {
            grundy,
            outcome: Outcome::from_grundy(grundy),
            winning_moves: if grundy == 0 {
                Vec::new()
            } else {
                self.winning_moves(pos)
            },
        }
    }

    /// Every winning move of `pos` under normal play: the options of value 0.
    pub fn winning_moves(&mut self, pos: &G::Position) -> Vec<G::Position> {
        self.moves_to_value(pos, 0)
    }

    /// Value of the disjunctive sum of `parts` (positions of this game): the XOR of their values.
    pub fn sum_grundy(&mut self, parts: &[G::Position]) -> u64 {
        parts.iter().fold(0, |acc, p| acc ^ self.grundy(p))
    }

    /// Every winning move of the sum of `parts`: a move in component `i` to a position of
    /// value `g_i ⊕ X`, where `X` is the sum's value. Empty when `X = 0`.
    pub fn sum_winning_moves(&mut self, parts: &[G::Position]) -> Vec<SumMove<G::Position>> {
        let values: Vec<u64> = parts.iter().map(|p| self.grundy(p)).collect();
        let total = values.iter().fold(0, |a, &b| a ^ b);
        let mut moves = Vec::new();
        if total == 0 {
            return moves;
        }
        for (i, p) in parts.iter().enumerate() {
            for to in self.moves_to_value(p, values[i] ^ total) {
                moves.push(SumMove { component: i, to });
            }
        }
        moves
    }

    /// Misère-play outcome of `pos` (the player who cannot move wins), by direct search.
    ///
    /// # Panics
    /// If a cycle is reachable from `pos`; see [`Solver::try_misere_outcome`].
    pub fn misere_outcome(&mut self, pos: &G::Position) -> Outcome {
        match self.try_misere_outcome(pos) {
            Ok(o) => o,
            Err(e) => panic!("{e}"),
        }
    }

    /// Misère-play outcome of `pos`, or an error if a cycle is reachable from it.
    ///
    /// A position with no move is N (the mover cannot move and so wins); otherwise it is N iff
    /// some option is P. Searched over whole positions: `components` is not used.
    pub fn try_misere_outcome(&mut self, pos: &G::Position) -> Result<Outcome, CycleError> {
        if !self.mframes.is_empty() {
            // A previous search was unwound by a panic in the game's code: drop its marks.
            for f in &self.mframes {
                self.misere.remove(&self.marena[f.pos]);
            }
            self.mframes.clear();
        }
        if let Some(&m) = self.misere.get(pos) {
            return Ok(misere_outcome_of(m));
        }
        self.marena.clear();
        self.mframes.clear();
        self.marena.push(pos.clone());
        self.mopen(0);
        loop {
            let top = self.mframes.len() - 1;
            let f = &mut self.mframes[top];
            if !f.won && f.next < f.end {
                match self.misere.get(&self.marena[f.next]) {
                    Some(&M_IN_PROGRESS) => {
                        let depth = self.mframes.len();
                        for f in &self.mframes {
                            self.misere.remove(&self.marena[f.pos]);
                        }
                        self.mframes.clear();
                        self.marena.clear();
                        return Err(CycleError { depth });
                    }
                    Some(&M_P) => f.won = true,
                    Some(_) => f.next += 1,
                    None => {
                        let child = f.next;
                        self.mopen(child);
                    }
                }
                continue;
            }
            let f = self.mframes.pop().expect("stack is non-empty");
            let m = if f.won || f.start == f.end { M_N } else { M_P };
            *self
                .misere
                .get_mut(&self.marena[f.pos])
                .expect("opened positions are in the memo") = m;
            self.marena.truncate(f.start);
            match self.mframes.last_mut() {
                Some(parent) => {
                    if m == M_P {
                        parent.won = true;
                    } else {
                        parent.next += 1;
                    }
                }
                None => return Ok(misere_outcome_of(m)),
            }
        }
    }

    fn mopen(&mut self, idx: usize) {
        let p = self.marena[idx].clone();
        let start = self.marena.len();
        self.game.options(&p, &mut self.marena);
        self.misere.insert(p, M_IN_PROGRESS);
        self.mframes.push(MisereFrame {
            pos: idx,
            start,
            end: self.marena.len(),
            next: start,
            won: false,
        });
    }

    /// Every winning move of `pos` under misère play: the options that are misère P-positions.
    pub fn misere_winning_moves(&mut self, pos: &G::Position) -> Vec<G::Position> {
        let opts = self.options(pos);
        opts.into_iter()
            .filter(|o| self.misere_outcome(o) == Outcome::P)
            .collect()
    }
}

fn misere_outcome_of(m: u8) -> Outcome {
    if m == M_P {
        Outcome::P
    } else {
        Outcome::N
    }
}

/// Removes repeated positions, keeping the first occurrence of each.
fn dedup<P: Clone + Eq + std::hash::Hash>(items: Vec<P>) -> Vec<P> {
    let mut seen: FxHashMap<P, ()> = FxHashMap::default();
    items
        .into_iter()
        .filter(|p| seen.insert(p.clone(), ()).is_none())
        .collect()
}
