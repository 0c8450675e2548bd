//! Pictures of positions in the terminal: graphs (Node Kayles, Arc Kayles) and tokens on a
//! directed graph in braille lines, Green Hackenbush's stalks, Cram boards with their dominoes,
//! boards of stones (Clobber, NoGo) with a cursor, and rows of coins in box and block
//! characters.
//!
//! Everything drawn comes from the library: the position's tagged fields (`docs/json.md`),
//! what a move marks ([`grundy::picture::marks`]) and where each vertex stands
//! ([`grundy::picture::drawing`]). What is kept
//! here is drawing state only ([`View`]): the places of the vertices moved along from move to
//! move so that a picture does not jump, and the dominoes placed.

use std::collections::HashMap;

use grundy::catalogue::{Move, Position};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::canvas::{Canvas, Circle, Context, Line as CanvasLine};
use ratatui::widgets::Block;

/// What a picture keeps from one position to the next: where each vertex of a graph stands,
/// and the dominoes placed on a Cram board (the board itself only knows its filled cells).
#[derive(Clone, Debug, Default)]
pub(crate) struct View {
    /// Vertex `v` of the current graph at `coords[v]` (layout units, y down).
    pub coords: Option<Vec<(f64, f64)>>,
    /// The dominoes placed so far, each its two cells `[row, column]`.
    pub dominoes: Vec<[[u64; 2]; 2]>,
}

impl View {
    /// The view after `m`: the vertices it keeps keep their places, the domino it places is
    /// added ([`grundy::picture::Marks`]).
    pub fn after(&self, m: &Move) -> View {
        let mut next = self.clone();
        let marks = grundy::picture::marks(m);
        if let (Some(kept), Some(coords)) = (marks.kept, &self.coords) {
            next.coords = kept
                .iter()
                .map(|&v| coords.get(v as usize).copied())
                .collect();
        }
        next.dominoes.extend(marks.domino);
        next
    }
}

/// The edges of a `graph` or `hackenbush` position (its `edges`: pairs of vertex numbers).
fn edges_of(pos: &Position) -> Vec<(u64, u64)> {
    pos.data
        .get("edges")
        .and_then(|v| v.as_array())
        .into_iter()
        .flatten()
        .filter_map(|e| Some((e.get(0)?.as_u64()?, e.get(1)?.as_u64()?)))
        .collect()
}

/// The vertices of a `graph` position, where they stand: the view's places when they fit (kept
/// from the previous position), else the library's drawing ([`grundy::picture::drawing`]).
pub(crate) fn graph_coords(pos: &Position, view: &mut View) -> Vec<(f64, f64)> {
    let n = pos
        .data
        .get("vertices")
        .and_then(|v| v.as_u64())
        .unwrap_or(0) as usize;
    if let Some(c) = &view.coords {
        if c.len() == n {
            return c.clone();
        }
    }
    let coords: Vec<(f64, f64)> = grundy::picture::drawing(pos)
        .map(|d| d.at.iter().map(|&[x, y]| (x, y)).collect())
        .unwrap_or_default();
    view.coords = Some(coords.clone());
    coords
}

/// A canvas's x and y bounds and the map from layout to canvas coordinates.
type Bounds = ([f64; 2], [f64; 2], fn((f64, f64)) -> (f64, f64));

/// Canvas bounds that show `coords` (layout units, y down) whole in an area of `cols` × `rows`
/// cells, one unit as wide as it is tall on screen (a cell is about twice as tall as wide), and
/// the function from layout to canvas coordinates (y up).
fn fit(coords: &[(f64, f64)], cols: u16, rows: u16) -> Bounds {
    let (mut x0, mut x1, mut y0, mut y1) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for (i, &(x, y)) in coords.iter().enumerate() {
        if i == 0 {
            (x0, x1, y0, y1) = (x, x, y, y);
        }
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    let (cols, rows) = (f64::from(cols.max(4)), f64::from(rows.max(3)));
    // Cells per unit across, keeping a margin of two columns and one row.
    let scale = ((cols - 4.0) / (x1 - x0).max(1e-9))
        .min(2.0 * (rows - 2.0) / (y1 - y0).max(1e-9))
        .min(12.0);
    let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    let (half_w, half_h) = (cols / 2.0 / scale, rows / scale);
    (
        [cx - half_w, cx + half_w],
        [-cy - half_h, -cy + half_h],
        |(x, y): (f64, f64)| (x, -y),
    )
}

/// Where to print a label of `len` cells so that it sits on the cell of the braille dot at
/// `(x, y)`, centred: the canvas places dots and labels by two different roundings (a dot on
/// a grid of 2 × 4 per cell, a label on the cells), which part ways by a cell across a picture.
fn label_at(
    (x, y): (f64, f64),
    len: usize,
    xb: [f64; 2],
    yb: [f64; 2],
    cols: u16,
    rows: u16,
) -> (f64, f64) {
    let (w, h) = (xb[1] - xb[0], yb[1] - yb[0]);
    let (cols, rows) = (f64::from(cols.max(2)), f64::from(rows.max(2)));
    let dot_col = ((x - xb[0]) * (2.0 * cols - 1.0) / w).floor() / 2.0;
    let dot_row = ((yb[1] - y) * (4.0 * rows - 1.0) / h).floor() / 4.0;
    let col = (dot_col.floor() - ((len.max(1) - 1) / 2) as f64).max(0.0);
    let row = dot_row.floor();
    (
        (xb[0] + (col + 0.5) * w / (cols - 1.0)).min(xb[1]),
        (yb[1] - (row + 0.5) * h / (rows - 1.0)).max(yb[0]),
    )
}

const EDGE: Color = Color::Gray;
const MARK: Color = Color::Yellow;
const GONE: Color = Color::Red;

/// Node Kayles or Arc Kayles: the graph in braille lines, each vertex labelled with the number
/// the moves use. The `selected` move is marked: its vertex or edge in yellow, the vertices it
/// deletes in red.
pub(crate) fn graph_picture<'a>(
    pos: &Position,
    coords: Vec<(f64, f64)>,
    selected: Option<&Move>,
    block: Block<'a>,
    cols: u16,
    rows: u16,
) -> Canvas<'a, impl Fn(&mut Context<'_>) + 'a> {
    let edges = edges_of(pos);
    let marks = selected.map(grundy::picture::marks).unwrap_or_default();
    let kept = marks.kept;
    let vertex = marks.vertex;
    let edge = marks.ends.map(|[a, b]| (a, b));
    let (xb, yb, to) = fit(&coords, cols, rows);
    let at: Vec<(f64, f64)> = coords.iter().map(|&c| to(c)).collect();
    Canvas::default()
        .block(block)
        .x_bounds(xb)
        .y_bounds(yb)
        .paint(move |ctx| {
            for &(a, b) in &edges {
                let (Some(&p), Some(&q)) = (at.get(a as usize), at.get(b as usize)) else {
                    continue;
                };
                let chosen = edge.is_some_and(|(u, v)| (u, v) == (a, b) || (v, u) == (a, b));
                let color = if chosen { MARK } else { EDGE };
                if a == b {
                    ctx.draw(&Circle {
                        x: p.0,
                        y: p.1 + 0.25,
                        radius: 0.25,
                        color,
                    });
                } else {
                    ctx.draw(&CanvasLine::new(p.0, p.1, q.0, q.1, color));
                }
            }
            ctx.layer();
            for (v, &p) in at.iter().enumerate() {
                let (x, y) = label_at(p, v.to_string().len(), xb, yb, cols, rows);
                let v = v as u64;
                let color = if vertex == Some(v) {
                    MARK
                } else if kept.as_ref().is_some_and(|k| !k.contains(&v)) {
                    GONE
                } else {
                    Color::Cyan
                };
                ctx.print(
                    x,
                    y,
                    Span::styled(
                        v.to_string(),
                        Style::default().fg(color).add_modifier(Modifier::BOLD),
                    ),
                );
            }
        })
}

/// Tokens on a directed graph: arrows in braille lines (an arrowhead at the vertex moved
/// onto), vertex names, each token a `●` beside its vertex. The `selected` move's arrow and
/// vertices are marked.
pub(crate) fn digraph_picture<'a>(
    pos: &Position,
    selected: Option<&Move>,
    block: Block<'a>,
    cols: u16,
    rows: u16,
) -> Option<Canvas<'a, impl Fn(&mut Context<'_>) + 'a>> {
    let edges: Vec<(String, String)> = pos
        .data
        .get("edges")
        .and_then(|e| e.as_array())
        .into_iter()
        .flatten()
        .filter_map(|e| {
            Some((
                e.get(0)?.as_str()?.to_string(),
                e.get(1)?.as_str()?.to_string(),
            ))
        })
        .collect();
    let tokens: Vec<String> = pos
        .data
        .get("tokens")
        .and_then(|t| t.as_array())
        .into_iter()
        .flatten()
        .filter_map(|t| t.as_str().map(str::to_string))
        .collect();
    // Where each vertex stands is the library's drawing: layers down, places across (wider
    // apart than tall, as a terminal cell is twice as tall as wide).
    let drawing = grundy::picture::drawing(pos)?;
    let names = drawing.names;
    if names.len() > 60 {
        return None;
    }
    let ix = |v: &str| names.iter().position(|n| n == v);
    let arcs: Vec<(usize, usize)> = edges
        .iter()
        .filter_map(|(a, b)| Some((ix(a)?, ix(b)?)))
        .collect();
    let coords: Vec<(f64, f64)> = drawing.at.iter().map(|&[x, y]| (x * 1.6, y)).collect();
    let layer: Vec<f64> = coords.iter().map(|c| c.1).collect();
    let (xb, yb, to) = fit(&coords, cols, rows);
    let at: Vec<(f64, f64)> = coords.iter().map(|&c| to(c)).collect();
    let token = selected.and_then(|m| grundy::picture::marks(m).token);
    let from = token.as_ref().and_then(|[a, _]| ix(a));
    let onto = token.as_ref().and_then(|[_, b]| ix(b));
    let mut count = vec![0usize; names.len()];
    for t in &tokens {
        if let Some(i) = ix(t) {
            count[i] += 1;
        }
    }
    Some(
        Canvas::default()
            .block(block)
            .x_bounds(xb)
            .y_bounds(yb)
            .paint(move |ctx| {
                for &(a, b) in &arcs {
                    let color = if Some(a) == from && Some(b) == onto {
                        MARK
                    } else {
                        EDGE
                    };
                    let (p, q) = (at[a], at[b]);
                    if a == b {
                        ctx.draw(&Circle {
                            x: p.0,
                            y: p.1 + 0.3,
                            radius: 0.3,
                            color,
                        });
                        continue;
                    }
                    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
                    let len = dx.hypot(dy).max(1e-9);
                    let (ux, uy) = (dx / len, dy / len);
                    // An arrow past a layer bows out by a third of its length (clear of the
                    // vertices it passes), one of a pair a ↔ b or going back up by a little.
                    let span = layer[b] - layer[a];
                    let bend = if span.abs() > 1.0 {
                        len / 3.0
                    } else if span <= 0.0 || arcs.contains(&(b, a)) {
                        0.3
                    } else {
                        0.0
                    };
                    let (mx, my) = ((p.0 + q.0) / 2.0 + uy * bend, (p.1 + q.1) / 2.0 - ux * bend);
                    // A quadratic curve in eight strokes, from near p to near q.
                    let point = |t: f64| {
                        let s = 1.0 - t;
                        (
                            s * s * p.0 + 2.0 * s * t * mx + t * t * q.0,
                            s * s * p.1 + 2.0 * s * t * my + t * t * q.1,
                        )
                    };
                    let (t0, t1) = (0.2 / len.max(0.4), 1.0 - 0.22 / len.max(0.44));
                    let mut last = point(t0);
                    for k in 1..=8 {
                        let next = point(t0 + (t1 - t0) * f64::from(k) / 8.0);
                        ctx.draw(&CanvasLine::new(last.0, last.1, next.0, next.1, color));
                        last = next;
                    }
                    // The head: two strokes back from the tip, along the curve's last part.
                    let before = point(t1 - 0.05);
                    let (hx, hy) = (last.0 - before.0, last.1 - before.1);
                    let hl = hx.hypot(hy).max(1e-9);
                    let (ux, uy) = (hx / hl, hy / hl);
                    for side in [-1.0, 1.0] {
                        let (ax, ay) = (
                            last.0 - ux * 0.16 + side * uy * 0.1,
                            last.1 - uy * 0.16 - side * ux * 0.1,
                        );
                        ctx.draw(&CanvasLine::new(last.0, last.1, ax, ay, color));
                    }
                }
                ctx.layer();
                for (i, name) in names.iter().enumerate() {
                    let (x, y) = label_at(at[i], name.chars().count(), xb, yb, cols, rows);
                    let color = if Some(i) == onto {
                        MARK
                    } else if Some(i) == from {
                        GONE
                    } else {
                        Color::Cyan
                    };
                    let mut spans = vec![Span::styled(
                        name.clone(),
                        Style::default().fg(color).add_modifier(Modifier::BOLD),
                    )];
                    if count[i] > 0 {
                        let dots = if count[i] > 3 {
                            format!("●×{}", count[i])
                        } else {
                            "●".repeat(count[i])
                        };
                        spans.push(Span::styled(dots, Style::default().fg(Color::LightRed)));
                    }
                    ctx.print(x, y, Line::from(spans));
                }
            }),
    )
}

/// A Cram board in block characters: free cells `·`, filled cells `█`, each domino placed
/// in this game as a pair of letters of one colour; the `selected` move's cells marked.
pub(crate) fn cram_lines(
    pos: &Position,
    view: &View,
    selected: Option<&Move>,
) -> Vec<Line<'static>> {
    let rows: Vec<String> = pos
        .data
        .get("rows")
        .and_then(|r| r.as_array())
        .into_iter()
        .flatten()
        .filter_map(|r| r.as_str().map(str::to_string))
        .collect();
    let width = rows.first().map_or(0, |r| r.chars().count());
    let mut piece: HashMap<[u64; 2], usize> = HashMap::new();
    for (i, d) in view.dominoes.iter().enumerate() {
        for &c in d {
            piece.insert(c, i);
        }
    }
    let chosen: Vec<[u64; 2]> = selected
        .map(|m| grundy::picture::marks(m).points)
        .unwrap_or_default();
    const COLORS: [Color; 6] = [
        Color::Cyan,
        Color::Magenta,
        Color::Green,
        Color::Blue,
        Color::LightRed,
        Color::LightYellow,
    ];
    let letters: Vec<char> = ('a'..='z').chain('A'..='Z').collect();
    let mut out = Vec::new();
    let head: String = (0..width).map(|c| format!("{:>2}", c % 100)).collect();
    out.push(Line::from(format!("    {head}")));
    out.push(Line::from(format!("   ┌{}─┐", "──".repeat(width))));
    for (r, line) in rows.iter().enumerate() {
        let mut spans = vec![Span::raw(format!("{r:>2} │"))];
        for (c, ch) in line.chars().enumerate() {
            let key = [r as u64, c as u64];
            let span = if chosen.contains(&key) {
                Span::styled(" ▒", Style::default().fg(MARK).add_modifier(Modifier::BOLD))
            } else if ch == '.' {
                Span::styled(" ·", Style::default().fg(Color::DarkGray))
            } else if let Some(&i) = piece.get(&key) {
                Span::styled(
                    format!(" {}", letters.get(i).copied().unwrap_or('█')),
                    Style::default()
                        .fg(COLORS[i % COLORS.len()])
                        .add_modifier(Modifier::BOLD),
                )
            } else {
                Span::raw(" █")
            };
            spans.push(span);
        }
        spans.push(Span::raw(" │"));
        out.push(Line::from(spans));
    }
    out.push(Line::from(format!("   └{}─┘", "──".repeat(width))));
    out
}

/// Where the player is on a board of stones: the cursor, the stone picked (the first click
/// of a capture) and the points that complete its capture, as the library answered
/// ([`grundy::picture::pick`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Cursor {
    /// The point under the cursor, `[row, column]`.
    pub at: [u64; 2],
    /// The stone picked, waiting for the stone it captures.
    pub picked: Option<[u64; 2]>,
    /// The points that complete the capture begun at `picked`.
    pub more: Vec<[u64; 2]>,
}

/// A board of stones in block characters, from the library's drawing: `●` an x (black), `○`
/// an o (white), `·` an empty point, `█` off the board; the cursor in reverse video, the
/// stone picked and the stones it may capture marked, the `selected` move's points marked.
pub(crate) fn stones_lines(
    d: &grundy::picture::Drawing,
    cursor: &Cursor,
    selected: Option<&Move>,
) -> Vec<Line<'static>> {
    let chosen: Vec<[u64; 2]> = selected
        .map(|m| grundy::picture::marks(m).points)
        .unwrap_or_default();
    let cols = d.at.iter().map(|p| p[0] as usize + 1).max().unwrap_or(0);
    let rows = d.at.iter().map(|p| p[1] as usize + 1).max().unwrap_or(0);
    let mut grid = vec![vec!['#'; cols]; rows];
    for (p, s) in d.at.iter().zip(&d.stones) {
        grid[p[1] as usize][p[0] as usize] = s.chars().next().unwrap_or('#');
    }
    let mut out = Vec::new();
    let head: String = (0..cols).map(|c| format!("{:>2}", c % 100)).collect();
    out.push(Line::from(format!("    {head}")));
    out.push(Line::from(format!("   ┌{}─┐", "──".repeat(cols))));
    for (r, line) in grid.iter().enumerate() {
        let mut spans = vec![Span::raw(format!("{r:>2} │"))];
        for (c, &ch) in line.iter().enumerate() {
            let here = [r as u64, c as u64];
            let (glyph, mut style) = match ch {
                'x' => ("●", Style::default().add_modifier(Modifier::BOLD)),
                'o' => ("○", Style::default().add_modifier(Modifier::BOLD)),
                '.' => ("·", Style::default().fg(Color::DarkGray)),
                _ => ("█", Style::default().fg(Color::DarkGray)),
            };
            if cursor.picked == Some(here) {
                style = style.fg(Color::Magenta);
            } else if cursor.more.contains(&here) {
                style = style.fg(Color::Cyan);
            } else if chosen.contains(&here) {
                style = style.fg(MARK);
            }
            if cursor.at == here {
                style = style.add_modifier(Modifier::REVERSED);
            }
            spans.push(Span::raw(" "));
            spans.push(Span::styled(glyph, style));
        }
        spans.push(Span::raw(" │"));
        out.push(Line::from(spans));
    }
    out.push(Line::from(format!("   └{}─┘", "──".repeat(cols))));
    out
}

/// A row of coins: `H` and `T` with their numbers (from 0) under them; the `selected` move's
/// coins marked.
pub(crate) fn coin_lines(
    pos: &Position,
    selected: Option<&Move>,
    width: usize,
) -> Vec<Line<'static>> {
    let chosen = selected
        .map(|m| grundy::picture::marks(m).coins)
        .unwrap_or_default();
    let coins: Vec<char> = pos.text.chars().collect();
    let per_line = (width.saturating_sub(2) / 3).max(1);
    let mut out = Vec::new();
    for (k, chunk) in coins.chunks(per_line).enumerate() {
        let start = k * per_line;
        let mut faces = Vec::new();
        let mut numbers = String::new();
        for (j, &c) in chunk.iter().enumerate() {
            let i = (start + j) as u64;
            let heads = c == 'H' || c == 'h';
            let style = if chosen.contains(&i) {
                Style::default().fg(Color::Black).bg(MARK)
            } else if heads {
                Style::default()
                    .fg(Color::Yellow)
                    .add_modifier(Modifier::BOLD)
            } else {
                Style::default().fg(Color::DarkGray)
            };
            faces.push(Span::raw(" "));
            faces.push(Span::styled(
                format!("{}", if heads { 'H' } else { 'T' }),
                style,
            ));
            faces.push(Span::raw(" "));
            numbers.push_str(&format!("{:^3}", i % 1000));
        }
        out.push(Line::from(faces));
        out.push(Line::from(Span::styled(
            numbers,
            Style::default().fg(Color::DarkGray),
        )));
    }
    out
}

/// Green Hackenbush as a picture: the ground at the bottom, each vertex on the row of its
/// level (the position's `levels`, its distance from the ground, which the library computes),
/// every edge a line labelled with its number (the moves say "cut edge N", from 0); an edge
/// to the ground stands under its other end, a loop is a small circle. The `selected` move's
/// edge is marked.
pub(crate) fn hackenbush_picture<'a>(
    pos: &Position,
    selected: Option<&Move>,
    block: Block<'a>,
) -> Canvas<'a, impl Fn(&mut Context<'_>) + 'a> {
    let edges = edges_of(pos);
    let levels: Vec<Vec<u64>> = pos
        .data
        .get("levels")
        .and_then(|l| l.as_array())
        .into_iter()
        .flatten()
        .map(|vs| {
            vs.as_array()
                .into_iter()
                .flatten()
                .filter_map(|v| v.as_u64())
                .collect()
        })
        .collect();
    let cut = selected.and_then(|m| grundy::picture::marks(m).edge);
    let depth = levels.len().saturating_sub(1).max(1) as f64;
    let mut at: HashMap<u64, (f64, f64)> = HashMap::new();
    for (d, vs) in levels.iter().enumerate().skip(1) {
        for (i, &v) in vs.iter().enumerate() {
            let x = 100.0 * (i + 1) as f64 / (vs.len() + 1) as f64;
            at.insert(v, (x, 100.0 * d as f64 / depth));
        }
    }
    Canvas::default()
        .block(block)
        .x_bounds([0.0, 100.0])
        .y_bounds([-8.0, 110.0])
        .paint(move |ctx| {
            ctx.draw(&CanvasLine::new(0.0, 0.0, 100.0, 0.0, Color::Yellow));
            for (i, &(u, v)) in edges.iter().enumerate() {
                let color = if cut == Some(i as u64) {
                    GONE
                } else {
                    Color::Green
                };
                let label = Span::styled(i.to_string(), Style::default().fg(color));
                if u == v {
                    let (x, y) = at.get(&u).copied().unwrap_or((50.0, 0.0));
                    ctx.draw(&Circle {
                        x,
                        y: y + 6.0,
                        radius: 6.0,
                        color,
                    });
                    ctx.print(x + 7.0, y + 8.0, label);
                    continue;
                }
                let top = if u == 0 {
                    Some(v)
                } else if v == 0 {
                    Some(u)
                } else {
                    None
                };
                let ((x1, y1), (x2, y2)) = match top {
                    Some(w) => {
                        let p = at.get(&w).copied().unwrap_or((50.0, 50.0));
                        ((p.0, 0.0), p)
                    }
                    None => (
                        at.get(&u).copied().unwrap_or((50.0, 50.0)),
                        at.get(&v).copied().unwrap_or((50.0, 50.0)),
                    ),
                };
                ctx.draw(&CanvasLine::new(x1, y1, x2, y2, color));
                ctx.print((x1 + x2) / 2.0 + 1.5, (y1 + y2) / 2.0, label);
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_keeps_the_vertices_in_place_and_places_dominoes() {
        let view = View {
            coords: Some(vec![(0.0, 0.0), (1.0, 0.0), (2.0, 0.0)]),
            dominoes: Vec::new(),
        };
        let m = Move::new(
            "take vertex 0",
            "vertex 0",
            Position::text("graph", "1:"),
            grundy::Outcome::P,
            None,
        )
        .at("kept", [2])
        .at("cells", [[0, 1], [0, 2]]);
        let next = view.after(&m);
        assert_eq!(next.coords, Some(vec![(2.0, 0.0)]));
        assert_eq!(next.dominoes, vec![[[0, 1], [0, 2]]]);
    }

    #[test]
    fn a_board_of_stones_is_drawn_with_its_cursor_and_marks() {
        let mut g = grundy::play::Game::new("clobber", "xo.|o#x").unwrap();
        let pos = g.start().clone();
        let t = g.turn(&pos).unwrap();
        let d = t.drawing.unwrap();
        let cursor = Cursor {
            at: [1, 2],
            picked: Some([0, 0]),
            more: vec![[0, 1]],
        };
        let lines = stones_lines(&d, &cursor, None);
        let text: Vec<String> = lines
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.to_string()).collect())
            .collect();
        assert_eq!(text[0], "     0 1 2");
        assert_eq!(text[2], " 0 │ ● ○ · │");
        assert_eq!(text[3], " 1 │ ○ █ ● │");
        let style_of = |row: usize, col: usize| lines[row + 2].spans[2 + 2 * col].style;
        assert!(style_of(1, 2).add_modifier.contains(Modifier::REVERSED));
        assert_eq!(style_of(0, 0).fg, Some(Color::Magenta));
        assert_eq!(style_of(0, 1).fg, Some(Color::Cyan));
    }
}
