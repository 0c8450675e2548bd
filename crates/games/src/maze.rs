//! Maze games: a figure moves any number of cells left or up, never through a wall.
//!
//! The Grundy value of a floor cell is the mex of the values of the cells it can reach: the
//! floor cells to its left up to the nearest wall in its row, and above it up to the nearest wall
//! in its column. Filling the grid row by row, each row segment and each column segment keeps the
//! set of values seen so far as a bitset, so a cell costs one scan for the first hole in the union
//! of two bitsets: a 2000×2000 maze takes a fraction of a second. Several mazes with a figure each
//! form a sum: the position is lost iff the XOR of the figures' values is 0.
//!
//! Text format: `.` floor, `#` wall, `@` the figure (on a floor cell); rows on lines (or
//! separated by `|`), mazes separated by blank lines (or `||`). A [`Maze`] is also a [`Game`]
//! (positions are cells), which lets the generic solver check the fast engine. A position, one
//! maze or a sum, is answered by the catalogue entry ([`MazeEntry`]), the one door of every
//! front end.
//!
//! ```
//! use grundy_games::maze;
//!
//! let mazes = maze::parse_mazes("...\n.#.\n..@\n")?;
//! let values = mazes[0].grundy_values();
//! assert_eq!(values.get((2, 2)), Some(1)); // mex of 0, 2 (left) and 0, 2 (up)
//! assert_eq!(values.get((1, 1)), None);
//! # Ok::<(), grundy_games::GameError>(())
//! ```

use crate::error::{GameError, Result};
use grundy_core::{Game, Move, Outcome};
use serde::ser::{SerializeStruct, Serializer};
use serde::Serialize;
use std::fmt::Write as _;

/// Mazes up to this many cells carry their value grid in a report's details unless every grid
/// is asked for (the param `grid`).
pub const GRID_UP_TO: usize = 40_000;

/// Mazes up to this many cells have their value grid drawn in a report's explanation unless
/// every grid is asked for.
pub const TEXT_GRID_UP_TO: usize = 400;

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
/// of that outcome and value (the position of [`MazeRules`]: kind `maze` for one maze,
/// `mazes` for a sum). [`Move::at`]: `{"maze": 0, "from": [2, 2], "cell": [2, 1]}` (the maze
/// moved in, counted from 0, and the figure's cells before and after).
fn figure_move(
    mazes: &[Maze],
    i: usize,
    from: Cell,
    to: Cell,
    outcome: Outcome,
    grundy: Option<u64>,
) -> Move {
    let (text, short) = MazeRules::texts(from, to);
    let mut after = mazes.to_vec();
    after[i].figure = Some(to);
    let (text, short) = if mazes.len() == 1 {
        (text, short)
    } else {
        (
            format!("in maze {}, {text}", i + 1),
            format!("maze {}: {short}", i + 1),
        )
    };
    Move::new(text, &short, MazeRules::position(&after), outcome, grundy)
        .at("maze", i)
        .at("from", [from.0, from.1])
        .at("cell", [to.0, to.1])
}

/// One maze of a report's details.
///
/// JSON: `{"rows", "cols", "figure": [r, c] or null, "grundy": the figure's value or null,
/// "grid": rows of values with null on walls}`; `grid` only when asked for (the param `grid`,
/// or every move) or the maze has at most [`GRID_UP_TO`] cells.
#[derive(Clone, Debug)]
struct MazeReport {
    rows: usize,
    cols: usize,
    figure: Option<Cell>,
    grundy: Option<u64>,
    values: Values,
    grid_in_json: bool,
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

impl MazeReport {
    /// The value grid as text, two spaces in: each floor cell's value right-aligned, `@` after
    /// the figure's, `#` on walls.
    fn grid_text(&self, out: &mut Vec<String>) {
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
            out.push(format!("  {}", line.trim_end()));
        }
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

/// Mazes in the catalogue: `maze`. A position is one maze or a sum of mazes: rows of `.`
/// (floor), `#` (wall) and at most one `@` (the figure, on floor), separated by newlines or `|`;
/// mazes separated by a blank line or `||` (each moves its own figure; a maze without one only
/// adds its values to the report). Kind `maze` for one maze: `{"rows": ["...", ".#.", "..."],
/// "figure": [2, 2]}` (the rows without the figure); kind `mazes` for a sum: `{"mazes": [the
/// fields of each maze]}`, its text the mazes joined by `||`.
#[derive(Clone, Copy, Debug, Default)]
pub struct MazeEntry;

/// The param of `maze`: every cell's value, however large the maze.
const GRID: grundy_core::catalogue::Param = grundy_core::catalogue::Param::flag(
    "grid",
    "every cell's value, however large the mazes (their grids in the explanation and details)",
);

impl grundy_core::catalogue::Entry for MazeEntry {
    fn info(&self) -> grundy_core::catalogue::Info {
        grundy_core::catalogue::Info {
            name: "maze".into(),
            aliases: Vec::new(),
            summary: "A maze game: move the figure any number of cells left or up, never \
                      through a wall; several mazes are a sum"
                .into(),
            example: "...|.#.|..@".into(),
            example_game: None,
            position: "the maze's rows, separated by newlines or '|': '.' floor, '#' wall, \
                       '@' the figure (on floor); several mazes separated by a blank line or \
                       '||' are a sum (a file: @mazes.txt)"
                .into(),
            kind: "maze".into(),
            family: false,
            misere: true,
            loopy: false,
            scoring: false,
            params: vec![GRID],
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
    /// The mazes of a position: blocks of rows (`|` is a line break, so `||` a blank line).
    fn read(text: &str) -> grundy_core::catalogue::Result<Vec<Maze>> {
        let lines: Vec<&str> = text.split(['\n', '|']).map(str::trim).collect();
        Ok(parse_mazes(&lines.join("\n"))?)
    }

    /// The position of `mazes` with their figures: kind `maze` for one, `mazes` for a sum.
    fn position(mazes: &[Maze]) -> grundy_core::catalogue::Position {
        if let [maze] = mazes {
            return Self::drawn(maze);
        }
        let parts: Vec<grundy_core::catalogue::Position> = mazes.iter().map(Self::drawn).collect();
        let text: Vec<&str> = parts.iter().map(|p| p.text.as_str()).collect();
        grundy_core::catalogue::Position::text("mazes", text.join("||"))
            .with("mazes", parts.iter().map(|p| &p.data).collect::<Vec<_>>())
    }

    /// The position of one maze with its figure (kind `maze`).
    fn drawn(maze: &Maze) -> grundy_core::catalogue::Position {
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
                text.push(if Some((r, c)) == maze.figure { '@' } else { ch });
            }
            rows.push(row);
        }
        grundy_core::catalogue::Position::text("maze", text)
            .with("rows", rows)
            .with("figure", maze.figure.map(|f| [f.0, f.1]))
    }

    /// The value grid and misère outcomes of `maze` (its figure aside).
    fn solve(&mut self, maze: &Maze) -> &(Maze, Values, Vec<Option<bool>>) {
        let mut bare = maze.clone();
        bare.figure = None;
        if self.cache.as_ref().is_none_or(|(m, _, _)| *m != bare) {
            let values = bare.grundy_values();
            let misere = misere_wins(&bare);
            self.cache = Some((bare, values, misere));
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

    /// Every maze's values, the figures' values, how many moves the sum has, and its moves,
    /// valued (under misère play: one maze only, by its misère outcomes): all of them, or with
    /// `winning` only those to a P-position (a corridor of 10^5 cells has 10^5 moves, each
    /// leaving a position of 10^5 cells: only what is asked is built).
    #[allow(clippy::type_complexity)]
    fn list(
        &mut self,
        mazes: &[Maze],
        play: grundy_core::catalogue::Play,
        winning: bool,
    ) -> grundy_core::catalogue::Result<(Vec<Values>, Vec<Option<u64>>, u64, Vec<Move>)> {
        if play.is_misere() && mazes.len() > 1 {
            return Err(grundy_core::catalogue::Error::input(
                "misère play is answered for one maze (a sum of mazes has no misère values)",
            ));
        }
        let values: Vec<Values> = mazes.iter().map(|m| self.solve(m).1.clone()).collect();
        let figures: Vec<Option<u64>> = mazes
            .iter()
            .zip(&values)
            .map(|(m, v)| m.figure.and_then(|f| v.get(f)))
            .collect();
        let total = figures.iter().flatten().fold(0, |a, &g| a ^ g);
        let mut count = 0u64;
        let mut moves = Vec::new();
        for (i, maze) in mazes.iter().enumerate() {
            let Some(from) = maze.figure else { continue };
            for to in maze.moves_from(from) {
                count += 1;
                let (outcome, g) = if play.is_misere() {
                    let wins = self.solve(maze).2[to.0 * maze.cols + to.1] == Some(true);
                    (if wins { Outcome::N } else { Outcome::P }, None)
                } else {
                    let g = total ^ figures[i].unwrap_or(0) ^ values[i].get(to).unwrap_or(0);
                    (Outcome::from_grundy(g), Some(g))
                };
                if !winning || outcome == Outcome::P {
                    moves.push(figure_move(mazes, i, from, to, outcome, g));
                }
            }
        }
        Ok((values, figures, count, moves))
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
        Ok(Self::position(&Self::read(text)?))
    }

    fn moves(
        &mut self,
        pos: &grundy_core::catalogue::Position,
        ask: &grundy_core::catalogue::Ask,
    ) -> grundy_core::catalogue::Result<Vec<grundy_core::catalogue::Move>> {
        Ok(self.list(&Self::read(&pos.text)?, ask.play, false)?.3)
    }

    fn analyze(
        &mut self,
        pos: &grundy_core::catalogue::Position,
        ask: &grundy_core::catalogue::Ask,
    ) -> grundy_core::catalogue::Result<grundy_core::catalogue::Report> {
        let play = ask.play;
        use grundy_core::catalogue::{Grundy, Report};
        let mazes = Self::read(&pos.text)?;
        let all_moves = ask.detail.wants_all();
        let (values, figures, count, moves) = self.list(&mazes, play, !all_moves)?;
        if all_moves {
            crate::catalogue::check_moves(count, "the position")?;
        }
        let position = Self::position(&mazes);
        let mut r: Report =
            if play.is_misere() {
                let wins = moves.iter().any(Move::wins);
                let outcome = if count == 0 || wins {
                    Outcome::N
                } else {
                    Outcome::P
                };
                let mut r = Report::new("maze", position, play, outcome, None);
                r.explanation = vec![match (count, wins) {
                    (0, _) => "No move is left: under misère play the player to move wins.",
                    (_, true) => "Some move leaves a misère P-position.",
                    (_, false) => "Every move leaves a misère N-position.",
                }
                .to_string()];
                r
            } else {
                let g = figures.iter().flatten().fold(0, |a, &g| a ^ g);
                let outcome = Outcome::from_grundy(g);
                let mut r = Report::new("maze", position, play, outcome, Some(Grundy::Finite(g)));
                let all = ask.settings.flag(GRID.name) || ask.detail.wants_all();
                let mut lines = Vec::new();
                let mut reports = Vec::new();
                for (i, (m, v)) in mazes.iter().zip(values).enumerate() {
                    let report = MazeReport {
                        rows: m.rows,
                        cols: m.cols,
                        figure: m.figure,
                        grundy: figures[i],
                        values: v,
                        grid_in_json: all || m.rows * m.cols <= GRID_UP_TO,
                    };
                    let fig = match (m.figure, figures[i]) {
                        (Some((row, col)), Some(g)) => {
                            format!("figure at ({row}, {col}), value {g}")
                        }
                        _ => "no figure: values only".to_string(),
                    };
                    if all || m.rows * m.cols <= TEXT_GRID_UP_TO {
                        lines.push(format!("Maze {} ({}x{}), {fig}:", i + 1, m.rows, m.cols));
                        report.grid_text(&mut lines);
                    } else if mazes.len() > 1 {
                        lines.push(format!("Maze {} ({}x{}), {fig}.", i + 1, m.rows, m.cols));
                    }
                    reports.push(report);
                }
                if mazes.len() > 1 {
                    let parts: Vec<String> = figures.iter().flatten().map(u64::to_string).collect();
                    lines.push(format!(
                    "The mazes are a sum: the value is the XOR of the figures' values, {} = {g}.",
                    if parts.is_empty() { "0".to_string() } else { parts.join(" XOR ") }
                ));
                } else if all_moves {
                    lines.extend(grundy_core::catalogue::explain_by_options(g, &moves));
                }
                lines.push(
                    "Each floor cell's value is the mex of the values of the cells it reaches: \
                 those to its left up to a wall, and those above it up to a wall."
                        .to_string(),
                );
                r.explanation = lines;
                r.details = serde_json::json!({ "mazes": reports });
                r
            };
        r.detail = ask.detail;
        if all_moves {
            return Ok(r.with_moves(moves));
        }
        r.moves = Some(count);
        Ok(r.with_winning(moves))
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
