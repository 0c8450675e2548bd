//! Maze games: a figure moves any number of cells left or up, never through a wall.
//!
//! The Grundy value of a floor cell is the mex of the values of the cells it can reach: the
//! floor cells to its left up to the nearest wall in its row, and above it up to the nearest wall
//! in its column. Filling the grid row by row, each row segment and each column segment keeps the
//! set of values seen so far as a bitset, so a cell costs one scan for the first hole in the union
//! of two bitsets: a 2000×2000 maze takes a fraction of a second. Several mazes with a figure each
//! form a sum: the position is lost iff the XOR of the figures' values is 0.
//!
//! Text format: `.` floor, `#` wall, `@` the figure (on a floor cell); mazes are separated by
//! blank lines. A [`Maze`] is also a [`Game`] (positions are cells), which lets the generic
//! solver check the fast engine. [`analyze`] solves a sum of mazes as a serializable
//! [`MazeAnalysis`].
//!
//! ```
//! use grundy_games::maze;
//!
//! let mazes = maze::parse_mazes("...\n.#.\n..@\n")?;
//! let a = maze::analyze(&mazes, false);
//! assert_eq!(a.outcome, grundy_core::Outcome::N);
//! let m = &a.winning_moves[0];
//! assert_eq!(m.at["cell"], serde_json::json!([2, 1]));
//! assert_eq!(m.to.text, "...|.#.|.@.");
//! assert_eq!(m.text, "move the figure left 1 from (2, 2) to (2, 1)");
//! # Ok::<(), grundy_games::GameError>(())
//! ```

use crate::error::{GameError, Result};
use grundy_core::{Game, Move, Outcome};
use serde::ser::{SerializeStruct, Serializer};
use serde::Serialize;
use std::fmt::Write as _;

/// Mazes up to this many cells carry their value grid in a [`MazeAnalysis`]'s JSON unless
/// every grid is asked for.
pub const GRID_UP_TO: usize = 40_000;

/// The most cells one maze may have.
pub const MAX_CELLS: usize = 25_000_000;

/// A rectangular maze of floor and wall cells, with an optional figure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Maze {
    rows: usize,
    cols: usize,
    wall: Vec<bool>,
    figure: Option<(usize, usize)>,
}

/// A cell as (row, column), both counted from 0 at the top-left corner.
pub type Cell = (usize, usize);

impl Maze {
    /// A maze from a wall mask in row-major order; the figure, if any, must be on floor.
    pub fn new(rows: usize, cols: usize, wall: Vec<bool>, figure: Option<Cell>) -> Result<Self> {
        if rows == 0 || cols == 0 {
            return Err(GameError::Invalid(format!(
                "maze must not be empty ({rows}x{cols})"
            )));
        }
        let cells = rows
            .checked_mul(cols)
            .filter(|&c| c <= MAX_CELLS)
            .ok_or_else(|| GameError::TooLarge(format!("maze {rows}x{cols} too large")))?;
        if wall.len() != cells {
            return Err(GameError::Invalid(format!(
                "wall mask has {} cells, expected {cells}",
                wall.len()
            )));
        }
        if let Some((r, c)) = figure {
            if r >= rows || c >= cols || wall[r * cols + c] {
                return Err(GameError::Invalid(format!(
                    "figure at ({r},{c}) is not on floor"
                )));
            }
        }
        Ok(Maze {
            rows,
            cols,
            wall,
            figure,
        })
    }

    /// A maze without walls.
    pub fn open(rows: usize, cols: usize) -> Result<Self> {
        let cells = rows.saturating_mul(cols);
        if cells > MAX_CELLS {
            return Err(GameError::TooLarge(format!("maze {rows}x{cols} too large")));
        }
        Maze::new(rows, cols, vec![false; cells], None)
    }

    /// Parses one maze from lines of `.`, `#` and `@`; `first_line` numbers errors.
    fn parse_block(lines: &[&str], first_line: usize) -> Result<Self> {
        let cols = lines[0].chars().count();
        let mut wall = Vec::with_capacity(lines.len() * cols);
        let mut figure = None;
        for (i, line) in lines.iter().enumerate() {
            let n = first_line + i;
            let len = line.chars().count();
            if len != cols {
                return Err(GameError::Parse {
                    line: n,
                    message: format!("ragged maze: {len} cells where the first row has {cols}"),
                });
            }
            for (c, ch) in line.chars().enumerate() {
                match ch {
                    '.' => wall.push(false),
                    '#' => wall.push(true),
                    '@' => {
                        if figure.is_some() {
                            return Err(GameError::Parse {
                                line: n,
                                message: "a second '@' in one maze".into(),
                            });
                        }
                        figure = Some((i, c));
                        wall.push(false);
                    }
                    other => {
                        return Err(GameError::Parse {
                            line: n,
                            message: format!(
                                "unknown character {other:?} in column {} (use '.', '#', '@')",
                                c + 1
                            ),
                        })
                    }
                }
            }
            if wall.len() > MAX_CELLS {
                return Err(GameError::TooLarge(format!(
                    "maze too large (over {MAX_CELLS} cells)"
                )));
            }
        }
        Maze::new(lines.len(), cols, wall, figure).map_err(|e| e.at_line(first_line))
    }

    /// Rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The figure's cell, if the maze has one.
    pub fn figure(&self) -> Option<Cell> {
        self.figure
    }

    /// True for a wall cell (and for cells outside the maze).
    pub fn is_wall(&self, (r, c): Cell) -> bool {
        r >= self.rows || c >= self.cols || self.wall[r * self.cols + c]
    }

    /// Grundy values of every floor cell (None on walls), row-major.
    ///
    /// The moves are symmetric under transposition (left ↔ up), so a maze wider than tall is
    /// solved transposed: the column bitsets then take at most cells/32 words, whatever the
    /// shape (a 1×400000 corridor would otherwise need 400000 sets of 6250 words, 20 GB).
    pub fn grundy_values(&self) -> Values {
        if self.cols > self.rows {
            let (rows, cols) = (self.rows, self.cols);
            let mut wall = vec![false; rows * cols];
            for r in 0..rows {
                for c in 0..cols {
                    wall[c * rows + r] = self.wall[r * cols + c];
                }
            }
            let t = Maze {
                rows: cols,
                cols: rows,
                wall,
                figure: None,
            };
            let tv = t.grundy_values_tall();
            let mut values = vec![NONE; rows * cols];
            for r in 0..rows {
                for c in 0..cols {
                    values[r * cols + c] = tv.values[c * rows + r];
                }
            }
            return Values { rows, cols, values };
        }
        self.grundy_values_tall()
    }

    /// [`Maze::grundy_values`] for a maze at least as tall as wide.
    fn grundy_values_tall(&self) -> Values {
        let (rows, cols) = (self.rows, self.cols);
        // A value never exceeds the number of options, < rows + cols.
        let words = (rows + cols) / 64 + 1;
        let mut col_sets = vec![0u64; cols * words];
        let mut col_used = vec![0usize; cols]; // words of each column set that may be non-zero
                                               // Leading words of each set that are full: the mex search starts past them, so a long
                                               // run of floor costs O(1) a cell, not a scan from 0.
        let mut col_full = vec![0usize; cols];
        let mut row_set = vec![0u64; words];
        let mut values = vec![NONE; rows * cols];
        let mut row_used = 0; // words of the row set that may be non-zero
        for r in 0..rows {
            row_set[..row_used].iter_mut().for_each(|w| *w = 0);
            row_used = 0;
            let mut row_full = 0;
            for c in 0..cols {
                if self.wall[r * cols + c] {
                    row_set[..row_used].iter_mut().for_each(|w| *w = 0);
                    (row_used, row_full) = (0, 0);
                    let used = col_used[c];
                    col_sets[c * words..c * words + used]
                        .iter_mut()
                        .for_each(|w| *w = 0);
                    (col_used[c], col_full[c]) = (0, 0);
                    continue;
                }
                let col_set = &mut col_sets[c * words..(c + 1) * words];
                let start = row_full.max(col_full[c]);
                let mut g = words * 64;
                for (i, (a, b)) in row_set.iter().zip(col_set.iter()).enumerate().skip(start) {
                    let union = a | b;
                    if union != u64::MAX {
                        g = i * 64 + union.trailing_ones() as usize;
                        break;
                    }
                }
                let (w, bit) = (g / 64, 1u64 << (g % 64));
                row_set[w] |= bit;
                col_set[w] |= bit;
                row_used = row_used.max(w + 1);
                col_used[c] = col_used[c].max(w + 1);
                while row_full < words && row_set[row_full] == u64::MAX {
                    row_full += 1;
                }
                while col_full[c] < words && col_set[col_full[c]] == u64::MAX {
                    col_full[c] += 1;
                }
                values[r * cols + c] = g as u32;
            }
        }
        Values { rows, cols, values }
    }

    /// The floor cells reachable in one move from `cell`: left, then up, nearest first.
    pub fn moves_from(&self, (r, c): Cell) -> Vec<Cell> {
        let mut out = Vec::new();
        let mut cc = c;
        while cc > 0 && !self.is_wall((r, cc - 1)) {
            cc -= 1;
            out.push((r, cc));
        }
        let mut rr = r;
        while rr > 0 && !self.is_wall((rr - 1, c)) {
            rr -= 1;
            out.push((rr, c));
        }
        out
    }
}

/// Marks walls in [`Values`].
const NONE: u32 = u32::MAX;

/// Grundy values of a maze's floor cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Values {
    rows: usize,
    cols: usize,
    values: Vec<u32>,
}

impl Values {
    /// The value of a floor cell; None on walls and outside.
    pub fn get(&self, (r, c): Cell) -> Option<u64> {
        if r >= self.rows || c >= self.cols {
            return None;
        }
        let v = self.values[r * self.cols + c];
        (v != NONE).then_some(u64::from(v))
    }

    /// The largest value in the maze (None without floor).
    pub fn max(&self) -> Option<u64> {
        self.values
            .iter()
            .copied()
            .filter(|&v| v != NONE)
            .max()
            .map(u64::from)
    }
}

/// Rows of values, `null` on walls: `[[0, 1, null], …]`. Written row by row, never held as
/// one big value.
impl Serialize for Values {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        /// One row, serialized in place.
        struct Row<'a>(&'a [u32]);
        impl Serialize for Row<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
                s.collect_seq(self.0.iter().map(|&v| (v != NONE).then_some(v)))
            }
        }
        s.collect_seq(self.values.chunks(self.cols.max(1)).map(Row))
    }
}

impl Game for Maze {
    type Position = Cell;

    fn options(&self, pos: &Cell, out: &mut Vec<Cell>) {
        out.extend(self.moves_from(*pos));
    }
}

/// Parses text holding one or more mazes separated by blank lines.
pub fn parse_mazes(text: &str) -> Result<Vec<Maze>> {
    let mut mazes = Vec::new();
    let mut block: Vec<&str> = Vec::new();
    let mut start = 1;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end_matches(['\r', ' ', '\t']);
        if line.is_empty() {
            if !block.is_empty() {
                mazes.push(Maze::parse_block(&block, start)?);
                block.clear();
            }
            continue;
        }
        if block.is_empty() {
            start = i + 1;
        }
        block.push(line);
    }
    if !block.is_empty() {
        mazes.push(Maze::parse_block(&block, start)?);
    }
    if mazes.is_empty() {
        return Err(GameError::Parse {
            line: 1,
            message: "no maze in the input".into(),
        });
    }
    Ok(mazes)
}

/// The move of maze `i`'s figure from `from` to `to` in the sum `mazes`, leaving a position
/// of that outcome and value. The position left is, for one maze, the catalogue's (kind
/// `maze`: rows joined by `|`, the figure `@`); for a sum, kind `mazes`: the mazes' rows (`\n`)
/// separated by blank lines, as `grundy maze` reads them, with `"mazes"` holding each maze's
/// `rows` and `figure`. [`Move::at`]: `{"maze": 0, "from": [2, 2], "cell": [2, 1]}` (the
/// maze moved in, counted from 0, and the figure's cells before and after).
fn figure_move(
    mazes: &[Maze],
    i: usize,
    from: Cell,
    to: Cell,
    outcome: Outcome,
    grundy: Option<u64>,
) -> Move {
    let (text, short) = MazeRules::texts(from, to);
    let figure = |j: usize| if j == i { Some(to) } else { mazes[j].figure };
    let (text, short, position) = if mazes.len() == 1 {
        (text, short, MazeRules::position(&mazes[0], to))
    } else {
        let parts: Vec<grundy_core::catalogue::Position> = (0..mazes.len())
            .map(|j| MazeRules::drawn(&mazes[j], figure(j)))
            .collect();
        let text_of = |p: &grundy_core::catalogue::Position| p.text.replace('|', "\n");
        let all: Vec<String> = parts.iter().map(text_of).collect();
        let position = grundy_core::catalogue::Position::text("mazes", all.join("\n\n"))
            .with("mazes", parts.iter().map(|p| &p.data).collect::<Vec<_>>());
        (
            format!("in maze {}, {text}", i + 1),
            format!("maze {}: {short}", i + 1),
            position,
        )
    };
    Move::new(text, &short, position, outcome, grundy)
        .at("maze", i)
        .at("from", [from.0, from.1])
        .at("cell", [to.0, to.1])
}

/// One maze of a [`MazeAnalysis`].
///
/// JSON: `{"rows", "cols", "figure": [r, c] or null, "grundy": the figure's value or null,
/// "grid": rows of values with null on walls}`; `grid` only when asked for or the maze has at
/// most [`GRID_UP_TO`] cells.
#[derive(Clone, Debug)]
pub struct MazeReport {
    /// Rows of the maze.
    pub rows: usize,
    /// Columns of the maze.
    pub cols: usize,
    /// The figure's cell, if the maze has one.
    pub figure: Option<Cell>,
    /// The Grundy value of the figure's cell (None without a figure).
    pub grundy: Option<u64>,
    /// The value of every floor cell.
    pub values: Values,
    /// Whether `values` is written to JSON as `grid`.
    pub grid_in_json: bool,
}

impl Serialize for MazeReport {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("MazeReport", 5)?;
        st.serialize_field("rows", &self.rows)?;
        st.serialize_field("cols", &self.cols)?;
        st.serialize_field("figure", &self.figure)?;
        st.serialize_field("grundy", &self.grundy)?;
        if self.grid_in_json {
            st.serialize_field("grid", &self.values)?;
        } else {
            st.skip_field("grid")?;
        }
        st.end()
    }
}

/// A sum of mazes solved by [`analyze`]: every maze's values, the XOR of the figures' values,
/// the outcome and every winning move.
#[derive(Clone, Debug, Serialize)]
pub struct MazeAnalysis {
    /// The mazes in input order.
    pub mazes: Vec<MazeReport>,
    /// The XOR of the figures' values: the Grundy value of the sum.
    pub grundy: u64,
    /// `N` when the player to move wins.
    pub outcome: Outcome,
    /// Every winning move (empty in a P-position). Its `to` is, for one maze, the catalogue's
    /// position (kind `maze`: rows joined by `|`, the figure `@`); for a sum, kind `mazes` (the
    /// mazes as `grundy maze` reads them). Its [`Move::at`] is
    /// `{"maze": 0, "from": [2, 2], "cell": [2, 1]}`: the maze moved in, counted from 0, and
    /// the figure's cells before and after.
    pub winning_moves: Vec<Move>,
}

/// Solves the sum of `mazes` (one figure each; a maze without a figure only gets values).
/// With `all_grids`, every maze's value grid goes into the JSON, else only those of at most
/// [`GRID_UP_TO`] cells.
pub fn analyze(mazes: &[Maze], all_grids: bool) -> MazeAnalysis {
    let values: Vec<Values> = mazes.iter().map(Maze::grundy_values).collect();
    let figure_values: Vec<Option<u64>> = mazes
        .iter()
        .zip(&values)
        .map(|(m, v)| m.figure.and_then(|f| v.get(f)))
        .collect();
    let nim_sum = figure_values.iter().flatten().fold(0, |a, &b| a ^ b);
    let mut winning_moves = Vec::new();
    if nim_sum != 0 {
        for (i, maze) in mazes.iter().enumerate() {
            let (Some(from), Some(g)) = (maze.figure, figure_values[i]) else {
                continue;
            };
            // Usually target < g, but a move may also reach a larger value.
            let target = g ^ nim_sum;
            for to in maze.moves_from(from) {
                if values[i].get(to) == Some(target) {
                    winning_moves.push(figure_move(mazes, i, from, to, Outcome::P, Some(0)));
                }
            }
        }
    }
    let reports = mazes
        .iter()
        .zip(values)
        .zip(figure_values)
        .map(|((m, values), grundy)| MazeReport {
            rows: m.rows,
            cols: m.cols,
            figure: m.figure,
            grundy,
            values,
            grid_in_json: all_grids || m.rows * m.cols <= GRID_UP_TO,
        })
        .collect();
    MazeAnalysis {
        mazes: reports,
        grundy: nim_sum,
        outcome: Outcome::from_grundy(nim_sum),
        winning_moves,
    }
}

impl MazeReport {
    /// The value grid as text, two spaces in: each floor cell's value right-aligned, `@` after
    /// the figure's, `#` on walls.
    fn grid_text(&self, s: &mut String) {
        let width = self.values.max().map_or(1, |g| g.to_string().len());
        for r in 0..self.rows {
            let mut line = String::new();
            for c in 0..self.cols {
                let mark = if self.figure == Some((r, c)) {
                    '@'
                } else {
                    ' '
                };
                let _ = match self.values.get((r, c)) {
                    Some(g) => write!(line, "{g:>width$}{mark}"),
                    None => write!(line, "{:>width$} ", "#"),
                };
            }
            let _ = writeln!(s, "  {}", line.trim_end());
        }
    }
}

impl MazeAnalysis {
    /// The analysis as text for a reader, the words every front end shows (`grundy maze`):
    /// each maze with its figure and value grid (the grids that go into the JSON), then the
    /// sum, the outcome and every winning move.
    ///
    /// ```
    /// use grundy_games::maze;
    ///
    /// let mazes = maze::parse_mazes("..@\n")?;
    /// let text = maze::analyze(&mazes, false).describe();
    /// assert_eq!(text.lines().nth(1), Some("  0 1 2@"));
    /// # Ok::<(), grundy_games::GameError>(())
    /// ```
    pub fn describe(&self) -> String {
        let mut s = String::new();
        for (i, r) in self.mazes.iter().enumerate() {
            let fig = match (r.figure, r.grundy) {
                (Some((row, col)), Some(g)) => format!("figure at ({row}, {col}) with value {g}"),
                _ => "no figure".to_string(),
            };
            let _ = writeln!(s, "Maze {} ({}x{}), {fig}:", i + 1, r.rows, r.cols);
            if r.grid_in_json {
                r.grid_text(&mut s);
            } else {
                let _ = writeln!(s, "  (grid of {} cells not shown)", r.rows * r.cols);
            }
        }
        let parts: Vec<String> = self
            .mazes
            .iter()
            .filter_map(|r| r.grundy)
            .map(|g| g.to_string())
            .collect();
        if parts.is_empty() {
            s.push_str("No figure on any maze: values only.\n");
            return s;
        }
        let _ = writeln!(
            s,
            "Sum of the figures' values: {} = {}",
            parts.join(" XOR "),
            self.grundy
        );
        match self.outcome {
            Outcome::P | Outcome::D => s.push_str(
                "Outcome: P - the player to move loses: every move changes one value and makes \
                 the XOR non-zero.\n",
            ),
            Outcome::N => {
                s.push_str("Outcome: N - the player to move wins.\n");
                for w in &self.winning_moves {
                    let cell = |k: &str| -> Option<Cell> {
                        let v = w.at.get(k)?.as_array()?;
                        Some((v.first()?.as_u64()? as usize, v.get(1)?.as_u64()? as usize))
                    };
                    let i = w.at.get("maze").and_then(|v| v.as_u64()).unwrap_or(0) as usize;
                    let (Some(from), Some(to)) = (cell("from"), cell("cell")) else {
                        continue;
                    };
                    let value = self
                        .mazes
                        .get(i)
                        .and_then(|m| m.values.get(to))
                        .unwrap_or(0);
                    let _ = writeln!(
                        s,
                        "Winning move: in maze {}, {}, value {value}; the XOR becomes 0.",
                        i + 1,
                        MazeRules::texts(from, to).0,
                    );
                }
            }
        }
        s
    }
}

/// Misère outcomes of every floor cell of a maze (the player who cannot move wins), row-major:
/// `Some(true)` where the player to move wins. One pass: a cell with no move is a win; else it
/// wins iff a misère P-cell lies to its left in its row segment or above it in its column
/// segment.
pub fn misere_wins(maze: &Maze) -> Vec<Option<bool>> {
    let (rows, cols) = (maze.rows, maze.cols);
    let mut out = vec![None; rows * cols];
    let mut col_has_p = vec![false; cols];
    for r in 0..rows {
        let mut row_has_p = false;
        for c in 0..cols {
            if maze.is_wall((r, c)) {
                row_has_p = false;
                col_has_p[c] = false;
                continue;
            }
            let stuck =
                maze.is_wall((r, c.wrapping_sub(1))) && maze.is_wall((r.wrapping_sub(1), c));
            let wins = stuck || row_has_p || col_has_p[c];
            if !wins {
                row_has_p = true;
                col_has_p[c] = true;
            }
            out[r * cols + c] = Some(wins);
        }
    }
    out
}

/// Mazes in the catalogue: `maze`. A position is one maze: rows of `.` (floor), `#` (wall)
/// and one `@` (the figure, on floor), separated by newlines or `|`. Kind `maze`:
/// `{"rows": ["...", ".#.", "..."], "figure": [2, 2]}` (the rows without the figure).
#[derive(Clone, Copy, Debug, Default)]
pub struct MazeEntry;

impl grundy_core::catalogue::Entry for MazeEntry {
    fn info(&self) -> grundy_core::catalogue::Info {
        grundy_core::catalogue::Info {
            name: "maze".into(),
            aliases: Vec::new(),
            summary: "A maze game: move the figure any number of cells left or up, never \
                      through a wall"
                .into(),
            example: "...|.#.|..@".into(),
            example_game: None,
            position: "the maze's rows, separated by newlines or '|': '.' floor, '#' wall, \
                       '@' the figure (on floor)"
                .into(),
            kind: "maze".into(),
            family: false,
            misere: true,
            loopy: false,
            scoring: false,
            params: Vec::new(),
        }
    }

    fn matches(&self, name: &str) -> bool {
        name == "maze"
    }

    fn open(
        &self,
        _name: &str,
    ) -> grundy_core::catalogue::Result<Box<dyn grundy_core::catalogue::Rules>> {
        Ok(Box::new(MazeRules::default()))
    }
}

/// The rules of maze games for the catalogue: the value grid (and the misère outcomes) of the
/// last maze are kept, so that play in one maze values it once.
#[derive(Debug, Default)]
pub struct MazeRules {
    /// The last maze (without its figure), its values and its misère outcomes.
    cache: Option<(Maze, Values, Vec<Option<bool>>)>,
}

impl MazeRules {
    fn read(text: &str) -> grundy_core::catalogue::Result<(Maze, Cell)> {
        let rows = crate::catalogue::grid_rows(text, "maze")?;
        let mut mazes = parse_mazes(&rows.join("\n"))?;
        let mut maze = mazes.pop().expect("one block of rows");
        let Some(figure) = maze.figure.take() else {
            return Err(grundy_core::catalogue::Error::input(
                "the maze has no figure: mark its cell with '@'",
            ));
        };
        Ok((maze, figure))
    }

    fn position(maze: &Maze, figure: Cell) -> grundy_core::catalogue::Position {
        Self::drawn(maze, Some(figure))
    }

    /// The position of `maze` with its figure on `figure` (none: a maze of a sum that only
    /// gets values).
    fn drawn(maze: &Maze, figure: Option<Cell>) -> grundy_core::catalogue::Position {
        let mut rows = Vec::with_capacity(maze.rows);
        let mut text = String::with_capacity(maze.rows * (maze.cols + 1));
        for r in 0..maze.rows {
            let row: String = (0..maze.cols)
                .map(|c| if maze.is_wall((r, c)) { '#' } else { '.' })
                .collect();
            if r > 0 {
                text.push('|');
            }
            for (c, ch) in row.chars().enumerate() {
                text.push(if Some((r, c)) == figure { '@' } else { ch });
            }
            rows.push(row);
        }
        grundy_core::catalogue::Position::text("maze", text)
            .with("rows", rows)
            .with("figure", figure.map(|f| [f.0, f.1]))
    }

    /// The value grid and misère outcomes of `maze`.
    fn solve(&mut self, maze: &Maze) -> &(Maze, Values, Vec<Option<bool>>) {
        if self.cache.as_ref().is_none_or(|(m, _, _)| m != maze) {
            let values = maze.grundy_values();
            let misere = misere_wins(maze);
            self.cache = Some((maze.clone(), values, misere));
        }
        self.cache.as_ref().expect("filled above")
    }

    fn texts(from: Cell, to: Cell) -> (String, String) {
        let (dir, steps) = if from.0 == to.0 {
            ("left", from.1 - to.1)
        } else {
            ("up", from.0 - to.0)
        };
        (
            format!(
                "move the figure {dir} {steps} from ({}, {}) to ({}, {})",
                from.0, from.1, to.0, to.1
            ),
            format!("{dir} {steps} to ({}, {})", to.0, to.1),
        )
    }

    fn list(
        &mut self,
        maze: &Maze,
        figure: Cell,
        play: grundy_core::catalogue::Play,
    ) -> Vec<grundy_core::catalogue::Move> {
        let (_, values, misere) = self.solve(maze);
        maze.moves_from(figure)
            .into_iter()
            .map(|to| {
                let (outcome, g) = if play.is_misere() {
                    let wins = misere[to.0 * maze.cols + to.1] == Some(true);
                    (if wins { Outcome::N } else { Outcome::P }, None)
                } else {
                    let g = values.get(to).unwrap_or(0);
                    (Outcome::from_grundy(g), Some(g))
                };
                figure_move(std::slice::from_ref(maze), 0, figure, to, outcome, g)
            })
            .collect()
    }
}

impl grundy_core::catalogue::Rules for MazeRules {
    fn name(&self) -> String {
        "maze".into()
    }

    fn parse(
        &self,
        text: &str,
    ) -> grundy_core::catalogue::Result<grundy_core::catalogue::Position> {
        let (maze, figure) = Self::read(text)?;
        Ok(Self::position(&maze, figure))
    }

    fn moves(
        &mut self,
        pos: &grundy_core::catalogue::Position,
        ask: &grundy_core::catalogue::Ask,
    ) -> grundy_core::catalogue::Result<Vec<grundy_core::catalogue::Move>> {
        let (maze, figure) = Self::read(&pos.text)?;
        Ok(self.list(&maze, figure, ask.play))
    }

    fn analyze(
        &mut self,
        pos: &grundy_core::catalogue::Position,
        ask: &grundy_core::catalogue::Ask,
    ) -> grundy_core::catalogue::Result<grundy_core::catalogue::Report> {
        let play = ask.play;
        use grundy_core::catalogue::{Grundy, Report};
        let (maze, figure) = Self::read(&pos.text)?;
        let moves = self.list(&maze, figure, play);
        let position = Self::position(&maze, figure);
        let mut r: Report = if play.is_misere() {
            let outcome = crate::catalogue::misere_from_options(&moves);
            let mut r = Report::new("maze", position, play, outcome, None);
            r.explanation = grundy_core::catalogue::explain_misere(outcome, &moves);
            r
        } else {
            let (_, values, _) = self.solve(&maze);
            let g = values.get(figure).unwrap_or(0);
            let mut r = Report::new(
                "maze",
                position,
                play,
                Outcome::from_grundy(g),
                Some(Grundy::Finite(g)),
            );
            r.explanation = grundy_core::catalogue::explain_by_options(g, &moves);
            r.explanation.push(
                "Each floor cell's value is the mex of the values of the cells it reaches: \
                 those to its left up to a wall, and those above it up to a wall."
                    .to_string(),
            );
            let mut with_figure = maze.clone();
            with_figure.figure = Some(figure);
            r.details = serde_json::to_value(analyze(&[with_figure], false)).unwrap_or_default();
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
    fn small_maze_by_hand() {
        // (0,0) has no move; (0,1) and (1,0) reach only it; (1,1) reaches two 1s.
        let m = &parse_mazes("..#.\n....\n.#..\n@...\n").unwrap()[0];
        let v = m.grundy_values();
        assert_eq!(v.get((0, 0)), Some(0));
        assert_eq!(v.get((0, 2)), None);
        assert_eq!(v.get((1, 1)), Some(0));
        // The wall at (0,2) cuts (0,3) off; (1,2) reaches 0 and 1; (1,3) reaches 2, 0, 1 and 0.
        assert_eq!(v.get((0, 3)), Some(0));
        assert_eq!(v.get((1, 2)), Some(2));
        assert_eq!(v.get((1, 3)), Some(3));
    }

    #[test]
    fn parse_errors() {
        assert!(matches!(
            parse_mazes("..\n...\n"),
            Err(GameError::Parse { line: 2, .. })
        ));
        assert!(matches!(
            parse_mazes("..\n.x\n"),
            Err(GameError::Parse { line: 2, .. })
        ));
        assert!(matches!(
            parse_mazes("@@\n"),
            Err(GameError::Parse { line: 1, .. })
        ));
        assert!(parse_mazes("\n\n").is_err());
    }
}
