//! Pictures of positions, as data: where each vertex of a graph stands.
//!
//! A board, a row of coins or heaps are drawn from the position's own fields (`docs/json.md`);
//! a graph needs a layout, and the layout is computed here, once, so that every front end (the
//! web page, the terminal game, a notebook) draws the same picture and only renders it:
//!
//! - a `graph` position (Node Kayles, Arc Kayles): a lattice (`layout.grid`: `grid:RxC`,
//!   `ladder:N`, `path:N`) row by row, any other graph by a deterministic spring layout
//!   started on a circle (a cycle stays a ring);
//! - a `digraph` position (tokens on a directed graph): the vertices in layers (longest path
//!   from the sources, the back edges of a depth-first search left out so that cycles are
//!   drawn too), ordered in each layer by the mean place of their predecessors.
//!
//! Other kinds have no [`Drawing`]: their fields are the picture.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use crate::catalogue::Position;

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
        _ => None,
    }
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
    Some(Drawing { names, at })
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
}
