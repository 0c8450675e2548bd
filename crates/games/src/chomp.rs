//! Chomp: a rectangular bar with a poisoned square at the top-left corner (row 0, column 0).
//! A bite at (r, c) removes every remaining square at row ≥ r and column ≥ c; whoever has to
//! take the poison loses.
//!
//! Equivalently (normal play), biting the poison is not a move and the player facing the lone
//! poison square loses. Every position is a staircase (non-increasing row lengths), so an
//! R × C bar has C(R+C, R) positions. Strategy stealing shows every rectangle larger than 1×1
//! is a first-player win, but says nothing about the move: it is found here by the generic
//! [`Solver`] over staircases. [`analyze`] solves a bar within a position budget and returns a
//! serializable [`ChompAnalysis`].
//!
//! ```
//! use grundy_games::chomp;
//!
//! let a = chomp::analyze(4, 7, &chomp::DEFAULT_BUDGET)?;
//! assert_eq!(a.outcome, grundy_core::Outcome::N);
//! assert_eq!(a.winning_moves[0].at["cell"], serde_json::json!([2, 3]));
//! assert_eq!(a.winning_moves[0].to.data["rows"], serde_json::json!([7, 7, 3, 3]));
//! assert_eq!(a.winning_moves[0].text, "bite at row 2, column 3, leaving rows of lengths 7, 7, 3, 3");
//! # Ok::<(), grundy_games::GameError>(())
//! ```

use crate::error::{GameError, Result};
use grundy_core::{Budget, Game, Move, Outcome, Solver};
use serde::Serialize;
use std::fmt::Write as _;

/// The most rows (row lengths are packed 8 bits each into a `u128`).
pub const MAX_ROWS: usize = 16;

/// The most columns.
pub const MAX_COLS: usize = 255;

/// The default budget of [`analyze`]: a bar has C(rows + cols, rows) staircases. A million
/// positions: 11×11 (705 432 positions) answers in about 3 seconds; 12×11 (1.35 million) would
/// take 7 and is refused unless the budget is raised. Lower than Cram's default because every
/// Chomp position has up to rows × cols options. Memory: 1 GiB, an entry estimated at
/// [`Budget::entry_bytes`] of a [`Staircase`] (64 bytes), so positions bind first.
pub const DEFAULT_BUDGET: Budget = Budget::new(1_000_000, 1 << 30);

/// A staircase: row lengths, 8 bits each, row 0 in the low byte; lengths never increase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Staircase(u128);

impl Staircase {
    /// The full `rows × cols` bar (1 ≤ rows ≤ 16, 1 ≤ cols ≤ 255).
    pub fn rectangle(rows: usize, cols: usize) -> Result<Self> {
        check_size(rows, cols)?;
        Ok(Staircase(
            (0..rows).fold(0u128, |acc, r| acc | (cols as u128) << (8 * r)),
        ))
    }

    /// Length of row `r` (0 beyond the board).
    pub fn row(&self, r: usize) -> usize {
        if r >= MAX_ROWS {
            0
        } else {
            (self.0 >> (8 * r) & 0xff) as usize
        }
    }

    /// All row lengths down to the last non-empty row.
    pub fn rows(&self) -> Vec<usize> {
        (0..MAX_ROWS)
            .map(|r| self.row(r))
            .take_while(|&l| l > 0)
            .collect()
    }

    /// The position after biting at (r, c); None if (r, c) is the poison or already eaten.
    pub fn bite(&self, r: usize, c: usize) -> Option<Staircase> {
        if (r, c) == (0, 0) || c >= self.row(r) {
            return None;
        }
        let mut x = self.0;
        for i in r..MAX_ROWS {
            let l = self.row(i);
            if l <= c {
                break;
            }
            x = (x & !(0xffu128 << (8 * i))) | (c as u128) << (8 * i);
        }
        Some(Staircase(x))
    }

    /// Every legal bite (r, c), row by row.
    pub fn bites(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for r in 0..MAX_ROWS {
            let l = self.row(r);
            if l == 0 {
                break;
            }
            out.extend((0..l).filter(|&c| (r, c) != (0, 0)).map(|c| (r, c)));
        }
        out
    }
}

/// C(n, k) capped at `cap + 1` (n ≤ 271, so the running product never overflows).
fn binomial_capped(n: u128, k: u128, cap: u128) -> u128 {
    let mut acc: u128 = 1;
    for i in 0..k {
        acc = acc * (n - i) / (i + 1);
        if acc > cap {
            return cap.saturating_add(1);
        }
    }
    acc
}

fn check_size(rows: usize, cols: usize) -> Result<()> {
    if rows == 0 || cols == 0 {
        return Err(GameError::Invalid(format!(
            "board must not be empty ({rows}x{cols})"
        )));
    }
    if rows > MAX_ROWS || cols > MAX_COLS {
        return Err(GameError::TooLarge(format!(
            "board {rows}x{cols} too large (at most {MAX_ROWS} rows and {MAX_COLS} columns)"
        )));
    }
    Ok(())
}

/// The number of staircases inside a `rows × cols` bar, C(rows + cols, rows), capped at
/// `cap + 1`: every position a search from the full bar can meet.
pub fn positions_bound(rows: usize, cols: usize, cap: u64) -> u64 {
    let (small, n) = (rows.min(cols) as u128, (rows + cols) as u128);
    binomial_capped(n, small, cap as u128).min(u64::MAX as u128) as u64
}

/// The rules of Chomp over staircases (the poison is never a move).
#[derive(Clone, Copy, Debug, Default)]
pub struct Chomp;

impl Game for Chomp {
    type Position = Staircase;

    fn options(&self, pos: &Staircase, out: &mut Vec<Staircase>) {
        for (r, c) in pos.bites() {
            out.extend(pos.bite(r, c));
        }
    }
}

/// A staircase solved by the plain solver, before [`analyze`] puts its bites into words.
struct Solution {
    /// `N` when the player to move wins.
    outcome: Outcome,
    /// Grundy value of the position in the normal-play form.
    grundy: u64,
    /// Every winning bite (row, column), 0-based from the poison corner.
    winning_bites: Vec<(usize, usize)>,
    /// Positions searched.
    positions: usize,
}

/// Solves a staircase.
fn solve(pos: &Staircase) -> Solution {
    let mut solver = Solver::new(Chomp);
    let grundy = solver.grundy(pos);
    let mut winning_bites = Vec::new();
    if grundy != 0 {
        for (r, c) in pos.bites() {
            let next = pos.bite(r, c).expect("listed bites are legal");
            if solver.grundy(&next) == 0 {
                winning_bites.push((r, c));
            }
        }
    }
    Solution {
        outcome: Outcome::from_grundy(grundy),
        grundy,
        winning_bites,
        positions: solver.memo_len(),
    }
}

/// A bar solved by [`analyze`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChompAnalysis {
    /// Rows of the bar.
    pub rows: usize,
    /// Columns of the bar.
    pub cols: usize,
    /// `N` when the player to move wins (every bar but 1×1).
    pub outcome: Outcome,
    /// Grundy value in the normal-play form (the poison is not a move).
    pub grundy: u64,
    /// Every winning bite, row by row; empty in a P-position. The position left is the
    /// catalogue's (kind `chomp`, its row lengths); [`Move::at`] holds `{"cell": [r, c]}`, the
    /// square bitten from the poison corner.
    pub winning_moves: Vec<Move>,
    /// Positions searched.
    pub positions: u64,
    /// The winning bites as [`describe`](ChompAnalysis::describe) words them: (row, column,
    /// row lengths left), kept typed beside the moves so that the words never read the JSON.
    #[serde(skip)]
    bites: Vec<(usize, usize, Vec<usize>)>,
}

/// Solves the full `rows × cols` bar. A bar has C(rows + cols, rows) staircases; more than
/// `budget` holds of them (positions, or memory at [`Budget::entry_bytes`] of a [`Staircase`]
/// each; with [`DEFAULT_BUDGET`] 11×11 fits, 12×11 does not) is refused with
/// [`GameError::Limit`] before any work.
pub fn analyze(rows: usize, cols: usize, budget: &Budget) -> Result<ChompAnalysis> {
    let start = Staircase::rectangle(rows, cols)?;
    let entry = Budget::entry_bytes::<Staircase>();
    let cap = budget.max_entries(entry);
    budget.check(
        || format!("board {rows}x{cols}"),
        positions_bound(rows, cols, cap),
        entry,
    )?;
    let a = solve(&start);
    let mut bites = Vec::new();
    let mut winning_moves = Vec::new();
    for &(r, c) in &a.winning_bites {
        let to = start.bite(r, c).expect("winning bites are legal");
        bites.push((r, c, to.rows()));
        winning_moves.push(ChompRules::to_move(r, c, &to, Outcome::P, Some(0)));
    }
    Ok(ChompAnalysis {
        rows,
        cols,
        outcome: a.outcome,
        grundy: a.grundy,
        winning_moves,
        positions: a.positions as u64,
        bites,
    })
}

/// Outcome by plain recursion over row-length vectors (exponential; tiny boards only): the
/// test oracle for [`Chomp`] under the solver.
pub fn outcome_brute_force(rows: &[usize]) -> Outcome {
    fn wins(rows: &[usize]) -> bool {
        for r in 0..rows.len() {
            for c in 0..rows[r] {
                if (r, c) == (0, 0) {
                    continue;
                }
                let next: Vec<usize> = rows
                    .iter()
                    .enumerate()
                    .map(|(i, &l)| if i >= r { l.min(c) } else { l })
                    .collect();
                if !wins(&next) {
                    return true;
                }
            }
        }
        false
    }
    if wins(rows) {
        Outcome::N
    } else {
        Outcome::P
    }
}

impl ChompAnalysis {
    /// The analysis as text for a reader, the words every front end shows (`grundy chomp`): the
    /// bar, the value, the outcome and every winning bite.
    ///
    /// ```
    /// use grundy_games::chomp;
    ///
    /// let a = chomp::analyze(1, 1, &chomp::DEFAULT_BUDGET)?;
    /// assert_eq!(
    ///     a.describe().lines().nth(2),
    ///     Some("Outcome: P - the player to move must take the poison and loses.")
    /// );
    /// # Ok::<(), grundy_games::GameError>(())
    /// ```
    pub fn describe(&self) -> String {
        let mut s = format!(
            "Chomp on a {}x{} bar, poison at (0, 0)\nGrundy value: {} ({} positions searched)\n",
            self.rows, self.cols, self.grundy, self.positions
        );
        match self.outcome {
            Outcome::P | Outcome::D => {
                s.push_str("Outcome: P - the player to move must take the poison and loses.\n")
            }
            Outcome::N => {
                s.push_str("Outcome: N - the player to move wins.\n");
                for (r, c, left) in &self.bites {
                    let lens: Vec<String> = left.iter().map(usize::to_string).collect();
                    let _ = writeln!(
                        s,
                        "Winning bite: ({r}, {c}), removing rows >= {r} from column {c} on; it \
                         leaves rows of lengths {}, a position where every bite loses.",
                        lens.join(", ")
                    );
                }
            }
        }
        s
    }
}

/// Chomp in the catalogue: `chomp`. A position is `RxC` (a full bar) or the row lengths, top
/// (poison) row first and never increasing (`5 5 3`); at most 16 rows of at most 255. Kind
/// `rows`: `{"rows": [5, 5, 3]}`; a full bar prints as `RxC`.
#[derive(Clone, Copy, Debug, Default)]
pub struct ChompEntry;

impl grundy_core::catalogue::Entry for ChompEntry {
    fn info(&self) -> grundy_core::catalogue::Info {
        grundy_core::catalogue::Info {
            name: "chomp".into(),
            aliases: Vec::new(),
            summary: "Chomp: bite a square and everything below and right of it; the poisoned \
                      corner loses"
                .into(),
            example: "4x5".into(),
            example_game: None,
            position: format!(
                "a bar 'RxC', or the row lengths top row first, never increasing ('5 5 3'); at \
                 most {MAX_ROWS} rows of {MAX_COLS}"
            ),
            kind: "rows".into(),
            family: false,
            misere: true,
            loopy: false,
            scoring: false,
            params: Vec::new(),
        }
    }

    fn matches(&self, name: &str) -> bool {
        name == "chomp"
    }

    fn open(
        &self,
        _name: &str,
    ) -> grundy_core::catalogue::Result<Box<dyn grundy_core::catalogue::Rules>> {
        Ok(Box::new(ChompRules::default()))
    }
}

/// The rules of Chomp for the catalogue: the generic solver over staircases (normal and
/// misère play), held to the caller's budget, its memo kept between calls.
#[derive(Default)]
pub struct ChompRules {
    search: Option<crate::catalogue::Search<Chomp>>,
}

impl Staircase {
    /// The staircase with these row lengths, top row first (trailing empty rows dropped).
    pub fn from_rows(rows: &[usize]) -> Result<Staircase> {
        let rows: Vec<usize> = {
            let end = rows.iter().rposition(|&l| l > 0).map_or(0, |i| i + 1);
            rows[..end].to_vec()
        };
        if rows.is_empty() {
            return Err(GameError::Invalid(
                "no square left: the poison (row 0, column 0) is always there".into(),
            ));
        }
        check_size(rows.len(), rows[0])?;
        if let Some(i) = rows.windows(2).position(|w| w[1] > w[0]) {
            return Err(GameError::Invalid(format!(
                "row {} is longer than the row above it ({} > {}): rows never grow downwards",
                i + 2,
                rows[i + 1],
                rows[i]
            )));
        }
        Ok(Staircase(
            rows.iter()
                .enumerate()
                .fold(0u128, |acc, (r, &l)| acc | (l as u128) << (8 * r)),
        ))
    }
}

/// The number of staircases inside `s` (every position a game from `s` can reach, the lone
/// poison included), capped at `cap + 1`: lattice paths under its outline, counted row by row.
pub fn positions_within(s: &Staircase, cap: u64) -> u64 {
    let rows = s.rows();
    let Some(&first) = rows.first() else {
        return 0;
    };
    // ways[l]: sequences of the rows so far whose last length is l (row 0 at least 1).
    let mut ways = vec![0u64; first + 1];
    ways[1..].iter_mut().for_each(|w| *w = 1);
    for &len in &rows[1..] {
        let mut next = vec![0u64; first + 1];
        let mut suffix = 0u64;
        for l in (0..=first).rev() {
            suffix = suffix.saturating_add(ways[l]).min(cap.saturating_add(1));
            if l <= len {
                next[l] = suffix;
            }
        }
        ways = next;
    }
    ways.iter()
        .fold(0u64, |a, &w| a.saturating_add(w))
        .min(cap.saturating_add(1))
}

impl ChompRules {
    fn read(text: &str) -> grundy_core::catalogue::Result<Staircase> {
        if let Some(dims) = crate::catalogue::dimensions(text, false) {
            let (r, c) = dims?;
            return Ok(Staircase::rectangle(r, c)?);
        }
        let parts: Vec<&str> = text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|p| !p.is_empty())
            .collect();
        if parts.len() > MAX_ROWS {
            return Err(grundy_core::catalogue::Error::limit(format!(
                "{} rows (at most {MAX_ROWS})",
                parts.len()
            )));
        }
        let rows = parts
            .iter()
            .map(|p| crate::number::parse_bounded(p, "row length", 0, MAX_COLS as u64))
            .map(|r| r.map(|v| v as usize))
            .collect::<Result<Vec<usize>>>()?;
        Ok(Staircase::from_rows(&rows)?)
    }

    fn position(s: &Staircase) -> grundy_core::catalogue::Position {
        let rows = s.rows();
        let text = if rows.iter().all(|&l| l == rows[0]) {
            format!("{}x{}", rows.len(), rows[0])
        } else {
            rows.iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        };
        grundy_core::catalogue::Position::text("rows", text).with("rows", rows)
    }

    /// Every bite, the position it leaves and that position's outcome and value; with the
    /// root's outcome (1 for N under misère play) or value.
    #[allow(clippy::type_complexity)]
    fn list(
        &mut self,
        s: &Staircase,
        play: grundy_core::catalogue::Play,
        budget: &grundy_core::catalogue::Budget,
    ) -> grundy_core::catalogue::Result<(
        Vec<(usize, usize, Staircase, Outcome, Option<u64>)>,
        u64,
        usize,
    )> {
        let misere = play.is_misere();
        let entry = Budget::entry_bytes::<Staircase>();
        let cap = budget.max_entries(entry);
        budget.check(
            || "Chomp from these rows".to_string(),
            positions_within(s, cap),
            entry,
        )?;
        let search = self
            .search
            .get_or_insert_with(|| crate::catalogue::Search::new(Chomp));
        let bites: Vec<(usize, usize, Staircase)> = s
            .bites()
            .into_iter()
            .map(|(r, c)| (r, c, s.bite(r, c).expect("listed bites are legal")))
            .collect();
        let rows = s.rows();
        let what = format!(
            "rows {}",
            rows.iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        );
        let (root, values) = search.run(budget, &what, |solver| {
            let root = if misere {
                u64::from(solver.misere_outcome(s) == Outcome::N)
            } else {
                solver.grundy(s)
            };
            let values: Vec<(Outcome, Option<u64>)> = bites
                .iter()
                .map(|(_, _, next)| {
                    if misere {
                        (solver.misere_outcome(next), None)
                    } else {
                        let g = solver.grundy(next);
                        (Outcome::from_grundy(g), Some(g))
                    }
                })
                .collect();
            (root, values)
        })?;
        let out = bites
            .into_iter()
            .zip(values)
            .map(|((r, c, next), (o, g))| (r, c, next, o, g))
            .collect();
        Ok((out, root, search.memo_len()))
    }

    fn to_move(
        r: usize,
        c: usize,
        next: &Staircase,
        o: Outcome,
        g: Option<u64>,
    ) -> grundy_core::catalogue::Move {
        let lens: Vec<String> = next.rows().iter().map(usize::to_string).collect();
        let text = format!(
            "bite at row {r}, column {c}, leaving rows of lengths {}",
            lens.join(", ")
        );
        let short = format!("bite ({r}, {c})");
        grundy_core::Move::new(text, &short, Self::position(next), o, g).at("cell", [r, c])
    }
}

impl grundy_core::catalogue::Rules for ChompRules {
    fn name(&self) -> String {
        "chomp".into()
    }

    fn parse(
        &self,
        text: &str,
    ) -> grundy_core::catalogue::Result<grundy_core::catalogue::Position> {
        Ok(Self::position(&Self::read(text)?))
    }

    fn moves(
        &mut self,
        pos: &grundy_core::catalogue::Position,
        ask: &grundy_core::catalogue::Ask,
    ) -> grundy_core::catalogue::Result<Vec<grundy_core::catalogue::Move>> {
        let play = ask.play;
        let budget = &ask.budget;
        let s = Self::read(&pos.text)?;
        let (list, _, _) = self.list(&s, play, budget)?;
        Ok(list
            .iter()
            .map(|(r, c, next, o, g)| Self::to_move(*r, *c, next, *o, *g))
            .collect())
    }

    fn analyze(
        &mut self,
        pos: &grundy_core::catalogue::Position,
        ask: &grundy_core::catalogue::Ask,
    ) -> grundy_core::catalogue::Result<grundy_core::catalogue::Report> {
        let play = ask.play;
        let budget = &ask.budget;
        use grundy_core::catalogue::{Grundy, Report};
        let s = Self::read(&pos.text)?;
        let (list, root, positions) = self.list(&s, play, budget)?;
        let moves: Vec<grundy_core::catalogue::Move> = list
            .iter()
            .map(|(r, c, next, o, g)| Self::to_move(*r, *c, next, *o, *g))
            .collect();
        let rows = s.rows();
        let mut r = if play.is_misere() {
            let outcome = if root == 1 { Outcome::N } else { Outcome::P };
            let mut r = Report::new("chomp", Self::position(&s), play, outcome, None);
            r.explanation = vec![
                "Misère Chomp: whoever takes the last square besides the poison loses.".to_string(),
            ];
            r.explanation
                .extend(grundy_core::catalogue::explain_misere(outcome, &moves));
            r
        } else {
            let g = root;
            let mut r = Report::new(
                "chomp",
                Self::position(&s),
                play,
                Outcome::from_grundy(g),
                Some(Grundy::Finite(g)),
            );
            r.explanation = grundy_core::catalogue::explain_by_options(g, &moves);
            if rows.len() * rows[0] > 1 && rows.iter().all(|&l| l == rows[0]) {
                r.explanation.push(
                    "Every bar larger than 1x1 is a first-player win (strategy stealing: if \
                     biting the far corner lost, the reply that wins would have been available \
                     at once); the search finds the move."
                        .to_string(),
                );
            }
            let winning = moves.iter().filter(|m| m.wins()).cloned().collect();
            let bites = list
                .iter()
                .filter(|(_, _, _, o, _)| *o == Outcome::P)
                .map(|(r, c, next, _, _)| (*r, *c, next.rows()))
                .collect();
            let old = ChompAnalysis {
                rows: rows.len(),
                cols: rows[0],
                outcome: Outcome::from_grundy(g),
                grundy: g,
                winning_moves: winning,
                positions: positions as u64,
                bites,
            };
            r.details = serde_json::to_value(old).unwrap_or_default();
            r
        };
        r.detail = ask.detail;
        Ok(r.with_moves(moves))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_rows_known_strategy() {
        // 2×n: the winning bite leaves rows (n, n−1).
        for n in 2..10 {
            let a = analyze(2, n, &DEFAULT_BUDGET).unwrap();
            assert_eq!(a.outcome, Outcome::N);
            let cells: Vec<_> = a
                .winning_moves
                .iter()
                .map(|m| m.at["cell"].clone())
                .collect();
            assert_eq!(cells, vec![serde_json::json!([1, n - 1])]);
        }
    }

    #[test]
    fn square_bite_is_1_1() {
        // n×n: bite (1,1), leaving an L with equal arms.
        for n in 2..7 {
            assert!(analyze(n, n, &DEFAULT_BUDGET)
                .unwrap()
                .winning_moves
                .iter()
                .any(|m| m.at["cell"] == serde_json::json!([1, 1])));
        }
    }

    #[test]
    fn size_limits() {
        assert!(Staircase::rectangle(0, 3).is_err());
        assert!(Staircase::rectangle(17, 3).is_err());
        assert!(Staircase::rectangle(16, 256).is_err());
        assert!(Staircase::rectangle(16, 200).is_ok());
        assert!(Staircase::rectangle(1, 255).is_ok());
        let e = analyze(16, 200, &DEFAULT_BUDGET).unwrap_err();
        assert!(matches!(e, GameError::Limit(_)));
        assert!(e.to_string().contains("16x200"), "{e}");
        // The library names the cap reached, never a command-line flag.
        assert!(e.to_string().contains("(the position limit)"), "{e}");
        assert!(!e.to_string().contains("--"), "{e}");
        assert!(analyze(1, 255, &DEFAULT_BUDGET).is_ok());
        assert_eq!(positions_bound(4, 7, 1000), 330);
    }
}
