//! Pictures of positions, as data: where each vertex of a graph stands.
//!
//! A board, a row of coins or heaps are drawn from the position's own fields (`docs/json.md`);
//! a graph needs a layout, and the layout is computed here, once, so that every front end (the
//! web page, the terminal game, a notebook) draws the same picture and only renders it:
//!
//! - a `graph` position (Node Kayles, Arc Kayles): a lattice or a queens graph (`layout.grid`:
//!   `grid:RxC`, `ladder:N`, `path:N`, `queens:N`) row by row, any other graph by a
//!   deterministic spring layout started on a circle (a cycle stays a ring);
//! - a `digraph` position (tokens on a directed graph): the vertices in layers (longest path
//!   from the sources, the back edges of a depth-first search left out so that cycles are
//!   drawn too), ordered in each layer by the mean place of their predecessors.
//!
//! - a `stones` position (Clobber, Cannibal Clobber, NoGo): its points row by row, each with
//!   what stands on it (`x`, `o`, `.` empty, `#` off the board).
//!
//! Other kinds have no [`Drawing`]: their fields are the picture.
//!
//! A board drawn this way takes clicks: [`pick`] maps the points a player clicked (a stone
//! and the stone it captures, a point and the colour to place there, two cells for a domino)
//! to the legal move they name, says which points complete a move begun, or answers a
//! one-line reason why the clicks are no move. Front ends send clicks and show the answer;
//! they never decide a move themselves.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use crate::catalogue::{Move, Position};

/// The most vertices a drawing places (a larger graph is shown as text).
pub const MAX_DRAWN: usize = 200;

/// Where the vertices of a graph position stand.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Drawing {
    /// The vertices as the moves name them: `"0"`, `"1"`, … for a `graph` (its vertex
    /// numbers), the vertex names for a `digraph`.
    pub names: Vec<String>,
    /// Where each vertex of `names` stands, `[x, y]` in layout units, `y` down: about one
    /// unit an edge for a graph; for a digraph `x` the place in the layer (centred on 0, one
    /// unit apart) and `y` the layer (0 the sources).
    pub at: Vec<[f64; 2]>,
    /// For a `stones` board only (empty, and absent from JSON, otherwise): what stands on each
    /// point of `names`: `"x"`, `"o"`, `"."` (an empty point) or `"#"` (off the board). The
    /// points are then named `"(r, c)"` as the moves' texts name them, and stand at
    /// `[c, r]`, one unit apart.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stones: Vec<String>,
}

/// The drawing of `pos`: a `graph` or `digraph` position of at most [`MAX_DRAWN`] vertices;
/// `None` for other kinds (their fields are the picture) and larger graphs.
///
/// ```
/// use grundy::catalogue::Registry;
/// let r = Registry::new();
/// let pos = r.open("node-kayles").unwrap().parse("grid:2x3").unwrap();
/// let d = grundy::picture::drawing(&pos).unwrap();
/// assert_eq!(d.names, ["0", "1", "2", "3", "4", "5"]);
/// assert_eq!(d.at[4], [1.0, 1.0]); // vertex 4: row 1, column 1
/// ```
pub fn drawing(pos: &Position) -> Option<Drawing> {
    match pos.kind {
        "graph" => graph_drawing(pos),
        "digraph" => digraph_drawing(pos),
        "stones" => stones_drawing(pos),
        _ => None,
    }
}

/// The rows of a board position (`rows`: one string a row), empty when it has none.
fn board_rows(pos: &Position) -> Vec<Vec<char>> {
    pos.data
        .get("rows")
        .and_then(|r| r.as_array())
        .into_iter()
        .flatten()
        .filter_map(|r| r.as_str().map(|r| r.chars().collect()))
        .collect()
}

fn stones_drawing(pos: &Position) -> Option<Drawing> {
    let rows = board_rows(pos);
    let points: usize = rows.iter().map(Vec::len).sum();
    if points == 0 || points > MAX_DRAWN {
        return None;
    }
    let mut d = Drawing {
        names: Vec::new(),
        at: Vec::new(),
        stones: Vec::new(),
    };
    for (r, row) in rows.iter().enumerate() {
        for (c, &ch) in row.iter().enumerate() {
            d.names.push(point_name([r as u64, c as u64]));
            d.at.push([c as f64, r as f64]);
            d.stones.push(ch.to_string());
        }
    }
    Some(d)
}

/// A point of a board as the moves' texts name it: `(1, 2)`, row then column.
fn point_name(p: [u64; 2]) -> String {
    format!("({}, {})", p[0], p[1])
}

/// What clicks on a drawn board amount to: see [`pick`].
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Pick {
    /// The clicks name this legal move (play it: its `text` is the move's notation, its
    /// `to` the position it leaves).
    Move(Move),
    /// The clicks begin a move (a Clobber stone, a Cram cell): the points that complete it,
    /// each `[row, column]`.
    More(Vec<[u64; 2]>),
}

/// What a move marks on the picture of the position it is made in: its [`Move::at`] read
/// once, typed, so that a front end marks a move (and follows it to the next picture) without
/// reading the move's JSON itself. A field the move's family does not give is empty.
///
/// ```
/// use grundy::play::Game;
/// let mut g = Game::new("cram", "2x2")?;
/// let pos = g.start().clone();
/// let m = &g.moves(&pos)?[0];
/// let marks = grundy::picture::marks(m);
/// assert_eq!(marks.domino, Some([[0, 0], [0, 1]]));
/// assert_eq!(marks.points, [[0, 0], [0, 1]]);
/// # Ok::<(), grundy::play::PlayError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Marks {
    /// The vertex taken (Node Kayles).
    pub vertex: Option<u64>,
    /// The edge taken, by its two ends (Arc Kayles).
    pub ends: Option<[u64; 2]>,
    /// The edge cut, by its index in the position's `edges` (Green Hackenbush).
    pub edge: Option<u64>,
    /// The vertices of the graph the move leaves, each by its number before the move (vertex
    /// `i` after the move is vertex `kept[i]` before), so that a picture keeps them where they
    /// stood; `None` where the move does not say.
    pub kept: Option<Vec<u64>>,
    /// The points of a board the move is made by clicking, in order, each `[row, column]`: a
    /// capture's stone, then the stone it captures (Clobber); a domino's two cells (Cram); the
    /// point a stone is placed on (NoGo), a bite (Chomp), a step's cell (a maze).
    pub points: Vec<[u64; 2]>,
    /// The domino placed (Cram): its two cells, clicked in either order.
    pub domino: Option<[[u64; 2]; 2]>,
    /// The stone placed, `"x"` or `"o"` (NoGo).
    pub stone: Option<String>,
    /// The coins turned, by their numbers from 0 (coin-turning games).
    pub coins: Vec<u64>,
    /// The token moved on a directed graph: the vertex it leaves and the one it moves onto.
    pub token: Option<[String; 2]>,
}

/// The [`Marks`] of a move: what it marks on its position's picture.
pub fn marks(m: &Move) -> Marks {
    let at = |k: &str| m.at.get(k);
    let point = |v: &serde_json::Value| -> Option<[u64; 2]> {
        Some([v.get(0)?.as_u64()?, v.get(1)?.as_u64()?])
    };
    let cells: Option<Vec<[u64; 2]>> = at("cells")
        .and_then(|c| c.as_array())
        .and_then(|c| c.iter().map(point).collect());
    let points = match (at("from").and_then(point), at("to").and_then(point)) {
        (Some(a), Some(b)) => vec![a, b],
        _ => match &cells {
            Some(cells) => cells.clone(),
            None => at("cell").and_then(point).into_iter().collect(),
        },
    };
    let name = |k: &str| at(k).and_then(|v| v.as_str()).map(str::to_string);
    Marks {
        vertex: at("vertex").and_then(|v| v.as_u64()),
        ends: at("edge").and_then(point),
        edge: at("edge").and_then(|v| v.as_u64()),
        kept: at("kept").map(|k| u64s(Some(k))),
        domino: match cells.as_deref() {
            Some(&[a, b]) => Some([a, b]),
            _ => None,
        },
        points,
        stone: name("stone"),
        coins: u64s(at("coins")),
        token: name("from").zip(name("onto")).map(|(a, b)| [a, b]),
    }
}

/// A move of a board with its [`Marks`] (the points it is made by clicking).
type Clicked<'a> = (&'a Move, Marks);

/// The legal move that the points `cells` clicked on the drawn board of `pos` name, in
/// order, among `moves` (the position's legal moves, as [`crate::play::Turn::moves`] lists
/// them); `stone` is the colour to place (`"x"` or `"o"`) where a move places a stone (NoGo).
///
/// - Clobber and Cannibal Clobber: the stone that moves, then the stone it captures;
/// - NoGo: the empty point, with `stone`;
/// - Cram: the two cells of the domino, in either order.
///
/// The first click of a two-click move answers [`Pick::More`] with the points that complete
/// it. Clicks that name no legal move answer a one-line reason: an empty point or a point off
/// the board clicked as a stone, a stone that cannot capture there, a point taken, a
/// placement that would leave a group without liberties, no colour chosen.
///
/// ```
/// use grundy::catalogue::Registry;
/// use grundy::picture::{pick, Pick};
/// use grundy::play::Game;
///
/// let mut g = Game::new("clobber", "xo.|ox.")?;
/// let pos = g.start().clone();
/// let moves = g.moves(&pos)?;
/// // The x on (0, 0) can capture the o on (0, 1) or the o on (1, 0).
/// assert_eq!(pick(&pos, &moves, &[[0, 0]], None), Ok(Pick::More(vec![[0, 1], [1, 0]])));
/// let Ok(Pick::Move(m)) = pick(&pos, &moves, &[[0, 0], [0, 1]], None) else { panic!() };
/// assert_eq!(m.to.text, ".x.|ox.");
/// assert!(pick(&pos, &moves, &[[0, 0], [1, 1]], None).is_err());
/// # Ok::<(), grundy::play::PlayError>(())
/// ```
pub fn pick(
    pos: &Position,
    moves: &[Move],
    cells: &[[u64; 2]],
    stone: Option<&str>,
) -> Result<Pick, String> {
    let rows = board_rows(pos);
    let what = |p: [u64; 2]| -> Option<char> {
        rows.get(p[0] as usize)
            .and_then(|r| r.get(p[1] as usize))
            .copied()
    };
    let clicks: Vec<Clicked> = moves
        .iter()
        .map(|m| (m, marks(m)))
        .filter(|(_, k)| !k.points.is_empty())
        .collect();
    if moves.is_empty() {
        return Err("no move is left: the game is over".into());
    }
    if clicks.is_empty() {
        return Err("this position's moves are not made by clicking points".into());
    }
    let Some(&first) = cells.first() else {
        return Err("click a point of the board".into());
    };
    let most = clicks
        .iter()
        .map(|(_, k)| k.points.len())
        .max()
        .unwrap_or(0);
    if cells.len() > most {
        return Err(format!(
            "a move takes {most} click{}, not {}",
            if most == 1 { "" } else { "s" },
            cells.len()
        ));
    }
    for &p in cells {
        match what(p) {
            None => return Err(format!("{} is not on the board", point_name(p))),
            Some('#') => return Err(format!("{} is off the board", point_name(p))),
            _ => {}
        }
    }
    let places = clicks.iter().any(|(_, k)| k.stone.is_some());
    let stone = stone.map(|s| s.trim().to_ascii_lowercase());
    if places {
        match stone.as_deref() {
            None => return Err("choose the colour of the stone to place: x or o".into()),
            Some("x") | Some("o") => {}
            Some(s) => {
                return Err(format!(
                    "the stone to place is x or o, not {}",
                    crate::text::quote(s)
                ))
            }
        }
    }
    let unordered = clicks.iter().any(|(_, k)| k.domino.is_some());
    let begins = |c: &[[u64; 2]], s: Option<&str>| -> bool {
        if places && s != stone.as_deref() {
            return false;
        }
        if unordered && c.len() == 2 && cells.len() == 2 {
            return (c[0] == cells[0] && c[1] == cells[1])
                || (c[0] == cells[1] && c[1] == cells[0]);
        }
        if unordered && cells.len() == 1 {
            return c.contains(&first);
        }
        c.len() >= cells.len() && c[..cells.len()] == *cells
    };
    let fitting: Vec<&Clicked> = clicks
        .iter()
        .filter(|(_, k)| begins(&k.points, k.stone.as_deref()))
        .collect();
    if let Some((m, _)) = fitting.iter().find(|(_, k)| k.points.len() == cells.len()) {
        return Ok(Pick::Move((*m).clone()));
    }
    if !fitting.is_empty() {
        let mut next: Vec<[u64; 2]> = fitting
            .iter()
            .filter_map(|(_, k)| k.points.iter().find(|&&p| !cells.contains(&p)).copied())
            .collect();
        next.sort_unstable();
        next.dedup();
        return Ok(Pick::More(next));
    }
    Err(no_move(&clicks, cells, stone.as_deref(), &what, unordered))
}

/// Why the clicks `cells` name no move (each point on the board): the one-line answer of
/// [`pick`].
fn no_move(
    clicks: &[Clicked],
    cells: &[[u64; 2]],
    stone: Option<&str>,
    what: &dyn Fn([u64; 2]) -> Option<char>,
    unordered: bool,
) -> String {
    let name = |p: [u64; 2]| point_name(p);
    let first = cells[0];
    let here = what(first).unwrap_or('.');
    if let Some(s) = stone {
        // A placement.
        if here != '.' {
            return format!("{} is taken: place a stone on an empty point", name(first));
        }
        return format!(
            "an {s} on {} would leave a group without liberties (in NoGo no stone is ever \
             captured, your own neither)",
            name(first)
        );
    }
    if unordered {
        return match cells {
            [a] => format!("no domino fits on {}", name(*a)),
            _ => format!(
                "no domino fits on {} and {}: a domino covers two free cells side by side",
                name(cells[0]),
                name(cells[1])
            ),
        };
    }
    // A capture: the stone that moves, then the stone it takes.
    if here == '.' {
        return format!("{} is empty: click a stone that can capture", name(first));
    }
    let starts = clicks.iter().any(|(_, k)| k.points.first() == Some(&first));
    if !starts {
        return format!(
            "the {here} on {} has no stone next to it to capture",
            name(first)
        );
    }
    let second = cells[1];
    let there = what(second).unwrap_or('.');
    if there == '.' {
        return format!(
            "{} is empty: the {here} on {} captures a stone next to it",
            name(second),
            name(first)
        );
    }
    let next_to = first[0].abs_diff(second[0]) + first[1].abs_diff(second[1]) == 1;
    // A neighbour of the other colour is always a capture; one of the same colour is in
    // Cannibal Clobber.
    let why = if next_to {
        "a stone captures only a stone of the other colour"
    } else {
        "a stone captures only a neighbour, up, down, left or right"
    };
    format!(
        "the {here} on {} cannot capture the {there} on {}: {why}",
        name(first),
        name(second)
    )
}

fn u64s(v: Option<&serde_json::Value>) -> Vec<u64> {
    v.and_then(|v| v.as_array())
        .into_iter()
        .flatten()
        .filter_map(|x| x.as_u64())
        .collect()
}

fn graph_drawing(pos: &Position) -> Option<Drawing> {
    let n = pos.data.get("vertices")?.as_u64()? as usize;
    if n > MAX_DRAWN {
        return None;
    }
    let edges: Vec<(usize, usize)> = pos
        .data
        .get("edges")
        .and_then(|e| e.as_array())
        .into_iter()
        .flatten()
        .filter_map(|e| Some((e.get(0)?.as_u64()? as usize, e.get(1)?.as_u64()? as usize)))
        .collect();
    let grid = u64s(pos.data.get("layout").and_then(|l| l.get("grid")));
    let at = match grid.as_slice() {
        [_, cols] if *cols > 0 => (0..n as u64)
            .map(|v| [(v % cols) as f64, (v / cols) as f64])
            .collect(),
        _ => force_layout(n, &edges),
    };
    Some(Drawing {
        names: (0..n).map(|v| v.to_string()).collect(),
        at,
        stones: Vec::new(),
    })
}

fn digraph_drawing(pos: &Position) -> Option<Drawing> {
    let strings = |key: &str| -> Vec<Vec<String>> {
        pos.data
            .get(key)
            .and_then(|e| e.as_array())
            .into_iter()
            .flatten()
            .map(|e| match e {
                serde_json::Value::Array(xs) => xs
                    .iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect(),
                serde_json::Value::String(s) => vec![s.clone()],
                _ => Vec::new(),
            })
            .collect()
    };
    let edges: Vec<Vec<String>> = strings("edges")
        .into_iter()
        .filter(|e| e.len() == 2)
        .collect();
    let tokens: Vec<String> = strings("tokens").into_iter().flatten().collect();
    let mut names: Vec<String> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut add = |v: &str| {
        if !index.contains_key(v) {
            index.insert(v.to_string(), names.len());
            names.push(v.to_string());
        }
    };
    for e in &edges {
        add(&e[0]);
        add(&e[1]);
    }
    // A vertex without arrows is a line of its own name in the position's text.
    for line in pos.text.split(';') {
        let w = line.trim();
        if !w.is_empty() && !w.starts_with('@') && !w.contains(char::is_whitespace) {
            add(w);
        }
    }
    for t in &tokens {
        add(t);
    }
    if names.is_empty() || names.len() > MAX_DRAWN {
        return None;
    }
    let arcs: Vec<(usize, usize)> = edges.iter().map(|e| (index[&e[0]], index[&e[1]])).collect();
    let at = layered(names.len(), &arcs);
    Some(Drawing {
        names,
        at,
        stones: Vec::new(),
    })
}

/// Fruchterman and Reingold's spring layout of `n` vertices joined by `edges`, started on a
/// circle (a cycle stays one) and deterministic, scaled so that the median edge is one unit
/// long.
pub fn force_layout(n: usize, edges: &[(usize, usize)]) -> Vec<[f64; 2]> {
    if n == 0 {
        return Vec::new();
    }
    let r0 = (n as f64 / std::f64::consts::TAU).max(1.0);
    let mut p: Vec<(f64, f64)> = (0..n)
        .map(|i| {
            let a = std::f64::consts::TAU * i as f64 / n as f64;
            (r0 * a.cos(), r0 * a.sin())
        })
        .collect();
    let links: Vec<(usize, usize)> = edges
        .iter()
        .copied()
        .filter(|&(a, b)| a != b && a < n && b < n)
        .collect();
    let mut temp = r0 / 2.0 + 0.5;
    for _ in 0..250 {
        let mut d = vec![(0.0, 0.0); n];
        for i in 0..n {
            for j in i + 1..n {
                let (dx, dy) = (p[i].0 - p[j].0, p[i].1 - p[j].1);
                let dist = dx.hypot(dy).max(0.05);
                let f = 1.0 / dist;
                d[i].0 += dx / dist * f;
                d[i].1 += dy / dist * f;
                d[j].0 -= dx / dist * f;
                d[j].1 -= dy / dist * f;
            }
        }
        for &(a, b) in &links {
            let (dx, dy) = (p[a].0 - p[b].0, p[a].1 - p[b].1);
            let dist = dx.hypot(dy).max(0.05);
            let f = dist * dist;
            d[a].0 -= dx / dist * f;
            d[a].1 -= dy / dist * f;
            d[b].0 += dx / dist * f;
            d[b].1 += dy / dist * f;
        }
        for i in 0..n {
            d[i].0 -= 0.1 * p[i].0;
            d[i].1 -= 0.1 * p[i].1;
            let len = d[i].0.hypot(d[i].1);
            let len = if len == 0.0 { 1.0 } else { len };
            let s = len.min(temp) / len;
            p[i].0 += d[i].0 * s;
            p[i].1 += d[i].1 * s;
        }
        temp = (temp * 0.97).max(0.01);
    }
    let mut lens: Vec<f64> = links
        .iter()
        .map(|&(a, b)| (p[a].0 - p[b].0).hypot(p[a].1 - p[b].1))
        .collect();
    lens.sort_by(f64::total_cmp);
    let unit = lens
        .get(lens.len() / 2)
        .copied()
        .filter(|&u| u > 0.0)
        .unwrap_or(1.0);
    p.into_iter().map(|(x, y)| [x / unit, y / unit]).collect()
}

/// `n` vertices joined by the arrows `edges` in layers: longest path from the sources, the
/// back edges of a depth-first search left out so that cycles are drawn too; ordered in each
/// layer by the mean place of their predecessors. Returns `[x, y]` a vertex: `x` its place in
/// its layer (centred on 0, one unit apart), `y` the layer.
pub fn layered(n: usize, edges: &[(usize, usize)]) -> Vec<[f64; 2]> {
    let edges: Vec<(usize, usize)> = edges
        .iter()
        .copied()
        .filter(|&(a, b)| a < n && b < n)
        .collect();
    let mut out = vec![Vec::new(); n];
    let mut has_in = vec![false; n];
    for &(a, b) in &edges {
        out[a].push(b);
        if a != b {
            has_in[b] = true;
        }
    }
    let mut state = vec![0u8; n];
    let mut order = Vec::new();
    let mut back = HashSet::new();
    let starts: Vec<usize> = (0..n).filter(|&v| !has_in[v]).chain(0..n).collect();
    for s in starts {
        if state[s] != 0 {
            continue;
        }
        state[s] = 1;
        let mut stack = vec![(s, 0usize)];
        while let Some(top) = stack.last_mut() {
            let (v, i) = *top;
            if i < out[v].len() {
                top.1 += 1;
                let w = out[v][i];
                if state[w] == 1 {
                    back.insert((v, w));
                } else if state[w] == 0 {
                    state[w] = 1;
                    stack.push((w, 0));
                }
            } else {
                state[v] = 2;
                order.push(v);
                stack.pop();
            }
        }
    }
    let mut layer = vec![0usize; n];
    for &v in order.iter().rev() {
        for &w in &out[v] {
            if w != v && !back.contains(&(v, w)) {
                layer[w] = layer[w].max(layer[v] + 1);
            }
        }
    }
    let depth = layer.iter().copied().max().map_or(0, |d| d + 1);
    let mut layers: Vec<Vec<usize>> = vec![Vec::new(); depth];
    for v in 0..n {
        layers[layer[v]].push(v);
    }
    let mut place = vec![0.0f64; n];
    for (d, vs) in layers.iter_mut().enumerate() {
        if d > 0 {
            let bary = |v: usize| {
                let ps: Vec<f64> = edges
                    .iter()
                    .filter(|&&(a, b)| b == v && layer[a] < d)
                    .map(|&(a, _)| place[a])
                    .collect();
                if ps.is_empty() {
                    0.0
                } else {
                    ps.iter().sum::<f64>() / ps.len() as f64
                }
            };
            vs.sort_by(|&a, &b| bary(a).total_cmp(&bary(b)));
        }
        let k = vs.len() as f64;
        for (i, &v) in vs.iter().enumerate() {
            place[v] = i as f64 - (k - 1.0) / 2.0;
        }
    }
    (0..n).map(|v| [place[v], layer[v] as f64]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cycle_is_laid_out_as_a_ring_of_unit_edges() {
        let edges: Vec<(usize, usize)> = (0..6).map(|i| (i, (i + 1) % 6)).collect();
        let p = force_layout(6, &edges);
        for &(a, b) in &edges {
            let len = (p[a][0] - p[b][0]).hypot(p[a][1] - p[b][1]);
            assert!((len - 1.0).abs() < 0.2, "edge {a}-{b} has length {len}");
        }
        assert_eq!(p, force_layout(6, &edges), "deterministic");
    }

    #[test]
    fn layers_follow_the_arrows_and_cycles_are_drawn() {
        // a → b → c → a (a cycle) and a → d.
        let p = layered(4, &[(0, 1), (1, 2), (2, 0), (0, 3)]);
        assert_eq!(p[0][1], 0.0);
        assert!(p[1][1] > p[0][1] && p[2][1] > p[1][1], "{p:?}");
        assert_eq!(p[3][1], 1.0);
        // Out-of-range arrows are ignored, not a panic.
        assert_eq!(layered(1, &[(0, 5)]), vec![[0.0, 0.0]]);
    }

    #[test]
    fn positions_drawn_by_kind() {
        let r = crate::catalogue::Registry::new();
        let pos = r.open("arc-kayles").unwrap().parse("cycle:5").unwrap();
        let d = drawing(&pos).unwrap();
        assert_eq!(d.names.len(), 5);
        // A queens graph stands on its board: square r * n + c at column c, row r.
        let pos = r.open("node-kayles").unwrap().parse("queens:4").unwrap();
        let d = drawing(&pos).unwrap();
        assert_eq!(
            (d.at[0], d.at[6], d.at[15]),
            ([0.0, 0.0], [2.0, 1.0], [3.0, 3.0])
        );
        // Past 128 vertices too (the expansion's graphs): the 14 x 14 board, and an edge list
        // of 150 vertices laid out by force.
        let pos = r.open("node-kayles").unwrap().parse("queens:14").unwrap();
        let d = drawing(&pos).unwrap();
        assert_eq!((d.names.len(), d.at[195]), (196, [13.0, 13.0]));
        let pos = r.open("node-kayles").unwrap().parse("150:0-1,1-2").unwrap();
        assert_eq!(drawing(&pos).unwrap().at.len(), 150);
        let pos = r
            .open("digraph")
            .unwrap()
            .parse("a b; b c; a c; c d; e; @ a b")
            .unwrap();
        let d = drawing(&pos).unwrap();
        assert!(d.names.contains(&"e".to_string()), "{:?}", d.names);
        let ix = |v: &str| d.names.iter().position(|n| n == v).unwrap();
        assert_eq!(d.at[ix("a")][1], 0.0);
        assert_eq!(d.at[ix("d")][1], 3.0);
        let pos = r.open("nim").unwrap().parse("3 4 5").unwrap();
        assert!(drawing(&pos).is_none());
    }

    fn turn_of(game: &str, position: &str) -> crate::play::Turn {
        let mut g = crate::play::Game::new(game, position).unwrap();
        let pos = g.start().clone();
        g.turn(&pos).unwrap()
    }

    #[test]
    fn a_board_of_stones_is_drawn_point_by_point() {
        let t = turn_of("nogo", "x.#|.o.");
        let d = t.drawing.unwrap();
        assert_eq!(d.names[4], "(1, 1)");
        assert_eq!(d.at[4], [1.0, 1.0]);
        assert_eq!(d.stones, ["x", ".", "#", ".", "o", "."]);
        let json = serde_json::to_value(drawing(&t.position).unwrap()).unwrap();
        assert_eq!(json["stones"][2], "#");
        // A graph's drawing has no stones, and none in JSON.
        let g = turn_of("node-kayles", "path:3").drawing.unwrap();
        assert!(serde_json::to_value(g).unwrap().get("stones").is_none());
    }

    #[test]
    fn clobber_clicks_name_the_capture_or_say_why_not() {
        for game in ["clobber", "cannibal-clobber"] {
            let t = turn_of(game, "xo.|ox.");
            let p = |cells: &[[u64; 2]]| pick(&t.position, &t.moves, cells, None);
            assert_eq!(p(&[[0, 0]]), Ok(Pick::More(vec![[0, 1], [1, 0]])), "{game}");
            let Ok(Pick::Move(m)) = p(&[[0, 1], [0, 0]]) else {
                panic!("{game}")
            };
            assert_eq!(m.to.text, "o..|ox.");
            assert!(t.moves.contains(&m));
            let e = p(&[[0, 0], [1, 1]]).unwrap_err();
            assert!(e.contains("cannot capture the x on (1, 1)"), "{e}");
            assert!(
                e.ends_with("only a neighbour, up, down, left or right"),
                "{e}"
            );
            assert!(!e.contains('\n'));
            let e = p(&[[0, 2]]).unwrap_err();
            assert!(e.starts_with("(0, 2) is empty"), "{e}");
            let e = p(&[[0, 0], [0, 2]]).unwrap_err();
            assert!(e.starts_with("(0, 2) is empty"), "{e}");
            let e = p(&[[5, 0]]).unwrap_err();
            assert_eq!(e, "(5, 0) is not on the board");
            let e = p(&[[0, 0], [0, 1], [0, 2]]).unwrap_err();
            assert_eq!(e, "a move takes 2 clicks, not 3");
            assert_eq!(p(&[]).unwrap_err(), "click a point of the board");
        }
        // Cannibal Clobber captures its own colour too.
        let t = turn_of("cannibal-clobber", "xx");
        let r = pick(&t.position, &t.moves, &[[0, 0], [0, 1]], None);
        assert!(matches!(r, Ok(Pick::Move(_))), "{r:?}");
        let t = turn_of("clobber", "xx.|#o.");
        let e = pick(&t.position, &t.moves, &[[0, 0]], None).unwrap_err();
        assert_eq!(e, "the x on (0, 0) has no stone next to it to capture");
        let e = pick(&t.position, &t.moves, &[[1, 0]], None).unwrap_err();
        assert_eq!(e, "(1, 0) is off the board");
        let t = turn_of("clobber", "xxo");
        let e = pick(&t.position, &t.moves, &[[0, 1], [0, 0]], None).unwrap_err();
        assert_eq!(
            e,
            "the x on (0, 1) cannot capture the x on (0, 0): a stone captures only a stone of \
             the other colour"
        );
    }

    #[test]
    fn every_family_marks_its_moves() {
        let first = |game: &str, position: &str| marks(&turn_of(game, position).moves[0]);
        let k = first("node-kayles", "path:3");
        assert_eq!(k.vertex, Some(0));
        assert_eq!(k.kept, Some(vec![2]));
        let k = first("arc-kayles", "path:3");
        assert_eq!((k.ends, k.edge), (Some([0, 1]), None));
        let k = first("hackenbush", "0-1,1-2");
        assert_eq!((k.ends, k.edge), (None, Some(0)));
        let k = first("clobber", "xo");
        assert_eq!((k.points, k.domino), (vec![[0, 0], [0, 1]], None));
        let k = first("nogo", "x..");
        // An o on (0, 1) would leave the x without a liberty; an x there joins it.
        assert_eq!((k.points, k.stone.as_deref()), (vec![[0, 1]], Some("x")));
        let k = first("cram", "1x2");
        assert_eq!(k.domino, Some([[0, 0], [0, 1]]));
        let k = first("digraph", "a b; @ a");
        assert_eq!(k.token, Some(["a".to_string(), "b".to_string()]));
        assert!(k.points.is_empty());
        let k = first("turning:1-3", "TTH");
        assert_eq!(k.coins, vec![2]);
        assert_eq!(first("nim", "3"), Marks::default());
    }

    #[test]
    fn every_legal_move_is_named_by_its_clicks() {
        for (game, position) in [
            ("clobber", "xox|oxo|x.#"),
            ("cannibal-clobber", "xxo|o.x"),
            ("nogo", "x..|.o.|#.."),
            ("cram", "3x3"),
        ] {
            let t = turn_of(game, position);
            let mut named = 0;
            for m in &t.moves {
                let k = marks(m);
                let got = pick(&t.position, &t.moves, &k.points, k.stone.as_deref());
                assert_eq!(got, Ok(Pick::Move(m.clone())), "{game} {}", m.text);
                named += 1;
            }
            assert!(named > 0 && named == t.moves.len(), "{game}");
        }
    }

    #[test]
    fn nogo_clicks_place_the_colour_chosen_or_say_why_not() {
        let t = turn_of("nogo", "xo.|...");
        let p = |cells: &[[u64; 2]], s| pick(&t.position, &t.moves, cells, s);
        let Ok(Pick::Move(m)) = p(&[[1, 1]], Some("o")) else {
            panic!()
        };
        assert_eq!(m.to.text, "xo.|.o.");
        assert_eq!(m.text, "place an o on (1, 1)");
        let Ok(Pick::Move(m)) = p(&[[1, 1]], Some("X")) else {
            panic!()
        };
        assert_eq!(m.to.text, "xo.|.x.");
        assert_eq!(
            p(&[[1, 1]], None).unwrap_err(),
            "choose the colour of the stone to place: x or o"
        );
        assert!(p(&[[1, 1]], Some("z")).unwrap_err().contains("x or o"));
        assert!(p(&[[0, 0]], Some("o"))
            .unwrap_err()
            .starts_with("(0, 0) is taken"));
        // An o on (1, 0) would leave the x on (0, 0) without a liberty.
        let e = p(&[[1, 0]], Some("o")).unwrap_err();
        assert!(e.contains("without liberties"), "{e}");
        assert_eq!(
            p(&[[1, 1], [1, 2]], Some("x")).unwrap_err(),
            "a move takes 1 click, not 2"
        );
    }

    #[test]
    fn a_finished_game_or_a_game_not_clicked_says_so() {
        let t = turn_of("clobber", "x.o");
        assert_eq!(
            pick(&t.position, &t.moves, &[[0, 0]], None).unwrap_err(),
            "no move is left: the game is over"
        );
        let t = turn_of("nim", "3");
        assert!(pick(&t.position, &t.moves, &[[0, 0]], None).is_err());
    }
}
