//! Loopy games given by their rules: the positions reachable from a start are explored
//! (breadth first, within a budget), the move graph is built and labelled.
//!
//! Any [`grundy_core::Game`] works, whether or not its play can return to a position (the
//! trait's promise of an acyclic graph is not needed here). The whole position is played:
//! [`Game::options`] gives the moves, [`Game::components`] is not used.
//!
//! The budget is the catalogue's one [`Budget`]: `max_positions` caps the positions found,
//! `max_bytes` the memory of the exploration and labelling, estimated from the fixed size of a
//! position (`size_of`, twice: the list and the index), 40 bytes of bookkeeping per position
//! and 8 per move; memory a position owns on the heap (a `Vec`'s elements) is not counted.

use std::hash::Hash;

use grundy_core::catalogue::Budget;
use grundy_core::{FxHashMap, Game};

use crate::digraph::{Digraph, DigraphError};
use crate::label::LabelledGraph;
use crate::value::Grundy;
use grundy_core::Outcome;

/// Bytes of bookkeeping per position beside the position itself: index entry, offsets and
/// the labelling's five arrays.
const BYTES_PER_POSITION: usize = 40;
/// Bytes per move: the successor and the predecessor entry.
const BYTES_PER_MOVE: u64 = 8;

/// An exploration that passed its budget.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LimitError {
    /// More positions are reachable than the budget allows.
    #[error("the loopy search passed the limit of {limit} positions (max_positions)")]
    Positions {
        /// The limit passed.
        limit: u64,
    },
    /// The estimated memory passed the budget.
    #[error(
        "the loopy search passed the memory limit of {limit} bytes after {positions} positions"
    )]
    Memory {
        /// The limit passed, in bytes.
        limit: u64,
        /// Positions found when it was passed.
        positions: usize,
    },
    /// The graph is too large to number.
    #[error(transparent)]
    Graph(#[from] DigraphError),
}

/// The positions reachable from a start, numbered in breadth-first order (the start is 0), and
/// their labelled move graph.
#[derive(Clone, Debug)]
pub struct Explored<P> {
    positions: Vec<P>,
    index: FxHashMap<P, u32>,
    labelled: LabelledGraph,
}

/// Explores every position reachable from `start` and labels the move graph; past `budget`,
/// a [`LimitError`].
///
/// ```
/// use grundy_core::catalogue::Budget;
/// use grundy_core::Game;
/// use grundy_loopy::{explore, Grundy};
///
/// /// A counter that moves down by one, and from 1 back up to 2: a cycle with one exit.
/// struct UpDown;
/// impl Game for UpDown {
///     type Position = u32;
///     fn options(&self, &n: &u32, out: &mut Vec<u32>) {
///         if n > 0 { out.push(n - 1); }
///         if n == 1 { out.push(2); }
///     }
/// }
/// let e = explore(&UpDown, &2, &Budget::default())?;
/// assert_eq!(e.positions(), [2, 1, 0]);
/// assert_eq!(e.value(&2), Some(Grundy::Finite(0))); // must move to 1, which moves to 0
/// assert_eq!(e.value(&1), Some(Grundy::Finite(1)));
/// let tiny = Budget { max_positions: 2, ..Budget::default() };
/// assert!(explore(&UpDown, &2, &tiny).is_err());
/// # Ok::<(), grundy_loopy::LimitError>(())
/// ```
pub fn explore<G: Game>(
    game: &G,
    start: &G::Position,
    budget: &Budget,
) -> Result<Explored<G::Position>, LimitError> {
    let per_position = (2 * std::mem::size_of::<G::Position>() + BYTES_PER_POSITION) as u64;
    let mut positions = vec![start.clone()];
    let mut index = FxHashMap::default();
    index.insert(start.clone(), 0u32);
    let mut offsets = vec![0u32];
    let mut targets: Vec<u32> = Vec::new();
    let mut out = Vec::new();
    let mut next = 0;
    let check = |positions: usize, moves: usize| {
        if positions as u64 > budget.max_positions {
            return Err(LimitError::Positions {
                limit: budget.max_positions,
            });
        }
        let bytes = (positions as u64)
            .saturating_mul(per_position)
            .saturating_add((moves as u64).saturating_mul(BYTES_PER_MOVE));
        if bytes > budget.max_bytes {
            return Err(LimitError::Memory {
                limit: budget.max_bytes,
                positions,
            });
        }
        if positions >= u32::MAX as usize || moves >= u32::MAX as usize {
            let (what, count) = if moves >= u32::MAX as usize {
                ("edges", moves)
            } else {
                ("vertices", positions)
            };
            return Err(DigraphError::TooLarge { what, count }.into());
        }
        Ok(())
    };
    check(1, 0)?;
    while next < positions.len() {
        out.clear();
        game.options(&positions[next], &mut out);
        for p in out.drain(..) {
            let id = match index.get(&p) {
                Some(&id) => id,
                None => {
                    let id = positions.len() as u32;
                    check(positions.len() + 1, targets.len() + 1)?;
                    index.insert(p.clone(), id);
                    positions.push(p);
                    id
                }
            };
            targets.push(id);
            check(positions.len(), targets.len())?;
        }
        offsets.push(targets.len() as u32);
        next += 1;
    }
    // Well formed by construction; sizes checked above.
    let graph = Digraph::with_reverse(offsets, targets);
    Ok(Explored {
        positions,
        index,
        labelled: LabelledGraph::new(graph),
    })
}

/// A position's value, outcome and remoteness.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PositionValue<P> {
    /// The position.
    pub position: P,
    /// Its generalized Sprague–Grundy value.
    pub grundy: Grundy,
    /// Its outcome.
    pub outcome: Outcome,
    /// Its remoteness; absent (also from JSON) for a draw.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "crate::digraph::json_u64_opt"
    )]
    pub remoteness: Option<u64>,
}

/// A position analysed: its value, every option's, and its good moves.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PositionAnalysis<P> {
    /// The position itself.
    #[serde(flatten)]
    pub this: PositionValue<P>,
    /// Every distinct option, in the order the rules list them.
    pub options: Vec<PositionValue<P>>,
    /// The options that are P-positions (a win for the mover), fastest first.
    pub winning_moves: Vec<PositionValue<P>>,
    /// In a drawn position, the options that keep the draw.
    pub drawing_moves: Vec<PositionValue<P>>,
}

impl<P: Clone + Eq + Hash> Explored<P> {
    /// Every position found, the start first, in breadth-first order (vertex numbers of
    /// [`Self::labelled`]).
    pub fn positions(&self) -> &[P] {
        &self.positions
    }

    /// The vertex number of `p`, if it was reached.
    pub fn index_of(&self, p: &P) -> Option<usize> {
        self.index.get(p).map(|&i| i as usize)
    }

    /// The labelled move graph.
    pub fn labelled(&self) -> &LabelledGraph {
        &self.labelled
    }

    /// The value of `p`, if it was reached.
    pub fn value(&self, p: &P) -> Option<Grundy> {
        self.index_of(p).map(|v| self.labelled.value(v))
    }

    /// The value, outcome and remoteness of vertex `v`.
    pub fn position_value(&self, v: usize) -> PositionValue<P> {
        PositionValue {
            position: self.positions[v].clone(),
            grundy: self.labelled.value(v),
            outcome: self.labelled.outcome(v),
            remoteness: self.labelled.remoteness(v),
        }
    }

    /// Why vertex `v` is won, lost or drawn, in words (see [`crate::LoopyGraph::explain`]),
    /// each position written by `show` (a script's `show`, or `Debug`).
    ///
    /// ```
    /// use grundy_core::catalogue::Budget;
    /// use grundy_loopy::{explore, Windup};
    ///
    /// let w = Windup::parse("windup:8:3,5")?;
    /// let e = explore(&w, &2, &Budget::default()).unwrap();
    /// let text = e.explain(0, &|x: &u64| x.to_string());
    /// assert!(text.starts_with("2 is a draw (value ∞)"), "{text}");
    /// assert!(text.contains("2 -> 7 keeps the draw"), "{text}");
    /// assert!(text.contains("2 -> 5 loses: the opponent answers 5 -> 0"), "{text}");
    /// # Ok::<(), grundy_loopy::WindupError>(())
    /// ```
    pub fn explain(&self, v: usize, show: &dyn Fn(&P) -> String) -> String {
        crate::named::explain_vertex(&self.labelled, v, &|w| show(&self.positions[w]))
    }

    /// Vertex `v` analysed: its value and its options' (0 is the start).
    pub fn analysis(&self, v: usize) -> PositionAnalysis<P> {
        let l = &self.labelled;
        let options: Vec<PositionValue<P>> = l
            .option_vertices(v)
            .into_iter()
            .map(|w| self.position_value(w))
            .collect();
        let mut winning_moves: Vec<PositionValue<P>> = options
            .iter()
            .filter(|o| o.outcome == Outcome::P)
            .cloned()
            .collect();
        winning_moves.sort_by_key(|o| o.remoteness);
        let drawing_moves = l
            .drawing_moves(v)
            .into_iter()
            .map(|w| self.position_value(w))
            .collect();
        PositionAnalysis {
            this: self.position_value(v),
            options,
            winning_moves,
            drawing_moves,
        }
    }
}

/// Explores from `start` and analyses it: its value, outcome, remoteness and every option's.
pub fn analyze_game<G: Game>(
    game: &G,
    start: &G::Position,
    budget: &Budget,
) -> Result<PositionAnalysis<G::Position>, LimitError> {
    Ok(explore(game, start, budget)?.analysis(0))
}
