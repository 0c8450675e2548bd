// The grundy playground: plain JavaScript over the JSON API. Every answer (moves, values,
// hints, periods, odds) comes from the server; this file only draws and keeps the history.
"use strict";

const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

/// A request that is retried on 503 (busy) with back-off: 0.25 s, 0.5 s, 1 s, 2 s.
async function fetchRetry(url, init) {
  let wait = 250;
  for (let i = 0; ; i++) {
    const r = await fetch(url, init);
    if (r.status !== 503 || i === 4) return r;
    await new Promise((ok) => setTimeout(ok, wait));
    wait *= 2;
  }
}

/// Resolves to the JSON of a response, or rejects with the server's error message.
async function jsonOf(r) {
  let body;
  try { body = await r.json(); } catch (_) { body = { error: r.statusText }; }
  if (!r.ok) {
    const e = new Error(body.error || r.statusText);
    e.body = body;
    throw e;
  }
  return body;
}

/// GET an endpoint; resolves to the JSON, or rejects with the server's error message.
async function api(path, params) {
  return jsonOf(await fetchRetry(path + "?" + new URLSearchParams(params)));
}

/// POST JSON to an endpoint.
async function post(path, body) {
  return jsonOf(await fetchRetry(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }));
}

// ---------------------------------------------------------------- tabs
for (const t of document.querySelectorAll(".tab")) {
  t.addEventListener("click", () => {
    for (const u of document.querySelectorAll(".tab")) u.classList.toggle("active", u === t);
    for (const v of document.querySelectorAll(".view")) v.classList.toggle("active", v.id === "view-" + t.dataset.view);
  });
}

// ---------------------------------------------------------------- play
// The games come from the registry (GET /api/games); boards are drawn by the position's
// `kind`, and every move is one of the server's, sent back by its `to.text`. A click on the
// drawing finds the move by its `at` (a vertex, an edge, a cell, a coin); the page never
// decides what is legal.
const P = { game: null, script: null, turn: null, toMove: "you", history: [], log: [], busy: false, hinted: null, games: {}, view: {}, pick: null, more: null, stone: "x", pickError: "" };

/// A value as people read it, the library's rule (`grundy::play::value_text`): 0, a nimber
/// `*3`, Smith's loopy values `∞` and `∞(0,2)`; "—" where there is none (misère play).
function valueText(g) {
  if (g === null || g === undefined) return "—";
  if (typeof g === "object") {
    const k = g.infinite || [];
    return k.length ? `∞(${k.join(",")})` : "∞";
  }
  return String(g) === "0" ? "0" : "*" + g;
}

/// Text with `code` spans (the registry's summaries are written in Markdown): nodes to append.
function inline(text) {
  const out = [];
  for (const part of String(text).split(/(`[^`]+`)/)) {
    if (part.length > 2 && part.startsWith("`") && part.endsWith("`")) out.push(el("code", { text: part.slice(1, -1) }));
    else if (part) out.push(part.replace(/`/g, ""));
  }
  return out;
}

async function loadGames() {
  const sel = $("play-game");
  const list = (await api("/api/games", {})).games;
  sel.textContent = "";
  for (const g of list) {
    P.games[g.name] = g;
    sel.append(el("option", { value: g.name, text: g.family ? `${g.name} (a family)` : g.name, title: g.summary.replace(/`/g, "") }));
  }
  sel.value = "nim";
  gameChanged();
}

function gameChanged() {
  const g = P.games[$("play-game").value];
  if (!g) return;
  $("play-rule-label").hidden = !g.family;
  $("play-rule").value = g.example_game || "";
  $("play-position").value = g.example;
  const s = $("play-summary");
  s.textContent = "";
  s.append(...inline(g.summary), " — position: ", ...inline(g.position));
}
$("play-game").addEventListener("change", gameChanged);

function gameName() {
  const g = P.games[$("play-game").value];
  return g && g.family ? $("play-rule").value.trim() : $("play-game").value;
}

function setStatus(text, cls) {
  const s = $("play-status");
  s.textContent = text;
  s.className = "status" + (cls ? " " + cls : "");
}

async function load(position, previous) {
  // The server decides everything, the draw by repetition too: it gets the earlier positions.
  const q = P.script ? { source: P.script, position } : { game: P.game, position };
  if (previous !== undefined && $("play-tutor").checked) q.previous = previous;
  q.history = recentHistory(20000);
  P.turn = await post("/api/play", q);
  render();
}

/// The earlier positions, oldest first, as many of the latest as fit in `chars` characters (the
/// server takes bodies up to 64 KiB, 3 bytes a character at worst; a longer game only loses its
/// oldest positions, for the draw rule).
function recentHistory(chars) {
  const out = [];
  let used = 0;
  for (let i = P.history.length - 1; i >= 0; i--) {
    used += P.history[i].position.length + 4;
    if (used > chars) break;
    out.push(P.history[i].position);
  }
  return out.reverse();
}

async function newGame(script) {
  P.script = typeof script === "string" ? script : null;
  P.game = P.script ? "your game" : gameName();
  P.history = [];
  P.log = [];
  P.hinted = null;
  P.view = {};
  P.pick = null;
  P.more = null;
  P.pickError = "";
  P.toMove = $("play-first").value;
  $("play-why-box").innerHTML = "<em>Press “Why?” to see the values of the options.</em>";
  $("play-hint-text").textContent = "";
  $("play-tutor-text").textContent = "";
  const pos = P.script ? $("sc-position").value : $("play-position").value;
  try {
    await load(pos);
    afterMove();
  } catch (e) {
    P.turn = null;
    $("play-board").textContent = "";
    $("play-moves").textContent = "";
    setStatus(e.message, "lose");
  }
}

/// What the drawing keeps from one position to the next (where each vertex stands, the
/// dominoes placed and by whom), moved along by a move's `at`: its `kept` vertices, its
/// `cells`.
function nextView(view, move, mine) {
  const at = move.at || {};
  const next = Object.assign({}, view);
  if (at.kept && view.coords) next.coords = at.kept.map((v) => view.coords[v]);
  if (at.cells) next.dominoes = (view.dominoes || []).concat([{ cells: at.cells, mine }]);
  return next;
}

/// Plays `move` (an entry of turn.moves) for whoever is to move.
async function play(move) {
  if (P.busy || !P.turn) return;
  P.busy = true;
  const mine = P.toMove === "you";
  try {
    P.history.push({ position: P.turn.position_text, toMove: P.toMove, log: P.log.length, view: P.view });
    P.log.push((mine ? "You: " : "Engine: ") + move.text);
    P.toMove = mine ? "engine" : "you";
    P.hinted = null;
    P.pick = null;
    P.more = null;
    P.pickError = "";
    P.view = nextView(P.view, move, mine);
    $("play-hint-text").textContent = "";
    await load(move.to.text, mine ? P.turn.position_text : undefined);
    if (mine) $("play-tutor-text").textContent = P.turn.feedback ? "Tutor: " + P.turn.feedback : "";
  } catch (e) {
    setStatus(e.message, "lose");
  } finally {
    P.busy = false;
  }
  afterMove();
}

function afterMove() {
  const t = P.turn;
  if (!t) return;
  if (t.game_over) {
    const moverWins = t.misere;
    const winner = moverWins ? P.toMove : (P.toMove === "you" ? "engine" : "you");
    const why = t.misere ? "No move is left, and under misère play that wins." : "No move is left.";
    setStatus(winner === "you" ? `You win! ${why}` : `The engine wins. ${why}`, winner === "you" ? "win" : "lose");
    $("play-status").dataset.winner = winner;
    return;
  }
  $("play-status").dataset.winner = "";
  if (t.drawn) {
    setStatus(t.hint, "");
    $("play-status").dataset.winner = "draw";
    return;
  }
  if (P.toMove === "engine") {
    setStatus("The engine is thinking…");
    setTimeout(() => { if (P.turn === t && P.toMove === "engine") play(t.reply); }, 300);
  } else {
    const last = P.log.length ? P.log[P.log.length - 1] : "";
    setStatus((last.startsWith("Engine: ") ? "The engine played: " + last.slice(8) + ". " : "") + "Your move.");
  }
}

function undo() {
  if (P.busy) return;
  // Back to your previous turn: your move and the engine's reply.
  let h = null;
  while (P.history.length) {
    h = P.history.pop();
    if (h.toMove === "you") break;
  }
  if (!h || h.toMove !== "you") { if (h) P.history.push(h); return; }
  P.toMove = "you";
  P.log.length = h.log;
  P.hinted = null;
  P.pick = null;
  P.more = null;
  P.pickError = "";
  P.view = h.view || {};
  $("play-hint-text").textContent = "";
  $("play-tutor-text").textContent = "";
  load(h.position).then(afterMove, (e) => setStatus(e.message, "lose"));
}

function moveTo(pred) {
  return P.turn.moves.find((m) => pred(m.to));
}

/// The move made at a place of the drawn position (the server's `at`: an edge, a cell).
function moveAt(pred) {
  return P.turn.moves.find((m) => m.at && pred(m.at));
}

function yourTurn() {
  return P.turn && !P.turn.game_over && !P.turn.drawn && P.toMove === "you";
}

/// True when `m` is the move the hint named (marked on the drawing as in the list).
function hinted(m) {
  return !!(m && P.hinted && m.to.text === P.hinted.to.text);
}

/// Plays `m` if it is your turn (a click on the drawing).
function click(m) {
  if (m && yourTurn()) play(m);
}

const OUTCOME = { N: "the player to move wins", P: "the player to move loses", D: "a draw with best play" };

/// The drawers of each position kind; each returns true when the drawing takes clicks (then
/// the move list is a second way to move, not the only one).
const DRAW = {
  heaps: (board, t) => drawHeaps(board, t.position.heaps.map(Number), (i, k) => moveTo((to) => {
    const want = t.position.heaps.map(String); want[i] = String(k);
    return to.heaps && to.heaps.map(String).join(" ") === want.join(" ");
  })),
  pile: (board, t) => Number(t.position.pile) <= 200 && drawHeaps(board, [Number(t.position.pile)], (_, k) => moveTo((to) => String(to.pile) === String(k)),
    `take at most ${t.position.limit}`),
  pair: drawWythoff,
  rows: drawChomp,
  maze: drawMaze,
  mazes: drawMaze,
  walls: drawWalls,
  hackenbush: drawHackenbush,
  graph: drawGraph,
  board: drawCram,
  stones: drawStones,
  digraph: drawDigraph,
  coins: drawCoins,
  cards: drawCards,
  tokens: drawRing,
};

function render() {
  const t = P.turn;
  const board = $("play-board");
  board.textContent = "";
  const over = t.game_over || t.drawn;
  const draw = DRAW[t.position.kind];
  let clickable = false;
  try {
    clickable = draw ? draw(board, t) : false;
  } catch (e) {
    board.textContent = "";
    console.warn("drawing failed", e);
  }
  if (!board.childNodes.length) drawText(board, t);
  const value = t.grundy === null || t.grundy === undefined ? "" : `value ${valueText(t.grundy)} · `;
  const line = `${value}outcome ${t.outcome}: ${OUTCOME[t.outcome] || ""}`;
  board.append(el("div", { class: "note value", text: over ? line.replace(/:.*/, "") : line + (clickable ? "" : " — pick a move from the list") }));
  const list = $("play-moves");
  list.textContent = "";
  if (over) {
    list.append(el("div", { class: "note", text: t.drawn ? "The game is drawn: no move is offered." : "The game is over: no move is left." }));
  } else {
    const shown = t.moves.slice(0, 200);
    for (const m of shown) {
      const b = el("button", { text: m.text, title: m.text, onclick: () => click(m) });
      if (P.hinted && m.to.text === P.hinted.to.text) b.classList.add("primary");
      b.disabled = !yourTurn();
      list.append(b);
    }
    if (t.moves.length > shown.length) list.append(el("div", { class: "note", text: `… and ${t.moves.length - shown.length} more (click the board)` }));
  }
  const log = $("play-log");
  log.textContent = "";
  for (const l of P.log) log.append(el("li", { text: l }));
  $("play-hint").disabled = over;
  $("play-why").disabled = false;
  $("play-undo").disabled = !P.history.some((h) => h.toMove === "you");
}

/// Rows of tokens; clicking token k of heap i leaves k there (when that is a move).
function drawHeaps(board, heaps, find, note) {
  heaps.forEach((h, i) => {
    const row = el("div", { class: "heap-row" }, el("span", { class: "label", text: (heaps.length > 1 ? `heap ${i}` : "pile") + ` (${h})` }));
    const tokens = [];
    for (let k = 0; k < Math.min(h, 60); k++) {
      const m = find(i, k);
      const tok = el("button", { class: "token", title: m ? m.text : "not a legal move" });
      tok.disabled = !m || !yourTurn();
      tok.addEventListener("mouseenter", () => { if (m && yourTurn()) tokens.slice(k).forEach((x) => x.classList.add("take")); });
      tok.addEventListener("mouseleave", () => tokens.forEach((x) => x.classList.remove("take")));
      tok.addEventListener("click", () => click(m));
      tokens.push(tok);
      row.append(tok);
    }
    if (h > 60) row.append(el("span", { class: "note", text: "…" }));
    board.append(row);
  });
  if (note) board.append(el("div", { class: "note", text: note }));
  return true;
}

/// The side of a grid cell in pixels: `most` (40) at most, smaller where `cols` cells must fit
/// the board's width (12 at least).
function cellSize(board, cols, most) {
  most = most || 40;
  const width = board.clientWidth || 340;
  return Math.max(12, Math.min(most, Math.floor((width - 8) / Math.max(cols, 1)) - 2));
}

function drawWythoff(board, t) {
  const x = Number(t.position.x), y = Number(t.position.y);
  if (Math.max(x, y) > 40) { board.append(el("pre", { class: "position", text: `queen at (${x}, ${y})` })); return false; }
  const grid = el("div", { class: "grid" });
  const size = cellSize(board, y + 1);
  grid.style.gridTemplateColumns = `repeat(${y + 1}, ${size}px)`;
  grid.style.setProperty("--cell", size + "px");
  for (let a = 0; a <= x; a++) for (let b = 0; b <= y; b++) {
    const m = moveTo((to) => Number(to.x) === a && Number(to.y) === b);
    const c = el("button", { class: "cell" + (a === x && b === y ? " here" : m ? " target" : ""), title: `(${a}, ${b})` });
    if (a === x && b === y) c.textContent = "♛";
    if (m) c.addEventListener("click", () => click(m));
    grid.append(c);
  }
  board.append(grid, el("div", { class: "note", text: "The queen moves left, up or diagonally up-left; whoever reaches the corner (0, 0) wins." }));
  return true;
}

function drawChomp(board, t) {
  const rows = t.position.rows, cols = rows.length ? rows[0] : 0;
  const grid = el("div", { class: "grid chomp" });
  const size = cellSize(board, cols, 44);
  grid.style.gridTemplateColumns = `repeat(${Math.max(cols, 1)}, ${size}px)`;
  rows.forEach((len, r) => {
    for (let c = 0; c < cols; c++) {
      if (c >= len) { grid.append(el("div", { class: "cell gone" })); continue; }
      if (r === 0 && c === 0) { grid.append(el("div", { class: "cell poison", text: "☠", title: "poison" })); continue; }
      const m = moveAt((at) => at.cell && at.cell[0] === r && at.cell[1] === c);
      grid.append(el("button", { class: "cell choc", title: `bite at (${r}, ${c})`, onclick: () => click(m) }));
    }
  });
  board.append(grid, el("div", { class: "note", text: "A bite eats the square and everything below and to its right; whoever is left with only the poison loses." }));
  return true;
}

/// One maze, or a sum of mazes (kind `mazes`: each drawn, `at.maze` naming which).
function drawMaze(board, t) {
  const mazes = t.position.mazes || [t.position];
  mazes.forEach((mz, i) => {
    const lines = mz.rows, [fr, fc] = mz.figure || [-1, -1];
    const grid = el("div", { class: "grid" });
    const size = cellSize(board, lines[0].length);
    grid.style.gridTemplateColumns = `repeat(${lines[0].length}, ${size}px)`;
    lines.forEach((line, r) => [...line].forEach((ch, c) => {
      const m = moveAt((at) => (at.maze || 0) === i && at.cell && at.cell[0] === r && at.cell[1] === c);
      const here = r === fr && c === fc;
      const cls = ch === "#" ? "wall" : here ? "here" : m ? "target" : "";
      const cell = el("button", { class: "cell " + cls, title: `(${r}, ${c})` });
      if (here) cell.textContent = "●";
      if (m) cell.addEventListener("click", () => click(m));
      grid.append(cell);
    }));
    if (mazes.length > 1) board.append(el("div", { class: "label", text: `maze ${i}` }));
    board.append(grid);
  });
  board.append(el("div", { class: "note", text: "The figure moves any distance left or up, never through a wall; whoever cannot move loses." }));
  return true;
}

/// The wall-making game: click a free cell to build there.
function drawWalls(board, t) {
  const rows = t.position.rows;
  const grid = el("div", { class: "grid" });
  const size = cellSize(board, rows[0].length, 44);
  grid.style.gridTemplateColumns = `repeat(${rows[0].length}, ${size}px)`;
  rows.forEach((line, r) => [...line].forEach((ch, c) => {
    const m = moveAt((at) => at.cell && at.cell[0] === r && at.cell[1] === c);
    const cell = el("button", { class: "cell " + (ch === "#" ? "wall" : m ? "target" : "open"), title: m ? m.text : ch === "X" ? `(${r}, ${c}) may not be picked` : `(${r}, ${c})` });
    if (ch === "X") cell.textContent = "×";
    if (m) cell.addEventListener("click", () => click(m));
    grid.append(cell);
  }));
  board.append(grid, el("div", { class: "note", text: "Click a free cell: walls grow from it across its whole piece; whoever cannot pick loses." }));
  return true;
}

const NS = "http://www.w3.org/2000/svg";
function svgEl(tag, attrs, ...children) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
}

/// A tooltip for an SVG shape.
function titled(shape, text) {
  shape.append(svgEl("title", {}, text));
  return shape;
}

/// An SVG of `w` × `h` user units that fills the board's width up to its natural size.
function svgBox(w, h, cls) {
  const svg = svgEl("svg", { viewBox: `0 0 ${w} ${h}`, width: "100%", class: cls, role: "img" });
  svg.style.maxWidth = w + "px";
  return svg;
}

/// Green Hackenbush: the ground at the bottom, each vertex at its distance from the ground,
/// every edge a stalk to click (cut), labelled with its number. Edges to the ground stand on
/// the ground line under their other end; a loop is a small circle, parallel edges bow apart.
function drawHackenbush(board, t) {
  const edges = t.position.edges || [];
  // A picture of a few hundred edges at most (a tree of 10^4 is listed as text).
  if (edges.length > 400 || (t.position.levels || []).length > 80) return false;
  // The vertices by their distance from the ground, from the library (levels[0] is the ground).
  const rows = (t.position.levels || [[0]]).map((vs, d) => (d === 0 ? [] : vs));
  const W = 360, step = 64, depth = Math.max(rows.length - 1, 1), H = depth * step + 40, ground = H - 20;
  const at = new Map();
  rows.forEach((vs, d) => vs.forEach((v, i) => at.set(v, [W * (i + 1) / (vs.length + 1), ground - d * step])));
  const svg = svgBox(W, H, "hackenbush");
  svg.append(svgEl("line", { x1: 0, y1: ground, x2: W, y2: ground, class: "ground" }));
  const seen = new Map();
  const labels = [];
  edges.forEach(([u, v], i) => {
    const key = Math.min(u, v) + "-" + Math.max(u, v), k = seen.get(key) || 0;
    seen.set(key, k + 1);
    const m = moveAt((a) => a.edge === i);
    let shape, lx, ly;
    if (u === v) {
      const [x, y] = u === 0 ? [W / 2, ground] : at.get(u);
      shape = svgEl("circle", { cx: x, cy: y - 12 - 6 * k, r: 12 + 6 * k });
      [lx, ly] = [x + 16 + 6 * k, y - 20 - 6 * k];
    } else {
      const top = u === 0 ? v : v === 0 ? u : null;
      const [x1, y1] = top !== null ? [at.get(top)[0] + 10 * k, ground] : at.get(u);
      const [x2, y2] = top !== null ? at.get(top) : at.get(v);
      const bow = (k % 2 ? 1 : -1) * Math.ceil(k / 2) * 18;
      const mx = (x1 + x2) / 2 + bow, my = (y1 + y2) / 2;
      shape = svgEl("path", { d: `M ${x1} ${y1} Q ${mx} ${my} ${x2} ${y2}` });
      [lx, ly] = [(x1 + 2 * mx + x2) / 4 + 9, (y1 + 2 * my + y2) / 4];
    }
    shape.setAttribute("class", "stalk" + (m ? " cut" : ""));
    shape.setAttribute("data-edge", i);
    titled(shape, m ? m.text : `edge ${i} (${u}-${v})`);
    shape.addEventListener("click", () => click(m));
    svg.append(shape);
    labels.push(svgEl("text", { x: lx, y: ly, class: "label" }, String(i)));
  });
  for (const [, [x, y]] of at) svg.append(svgEl("circle", { cx: x, cy: y, r: 4, class: "node" }));
  svg.append(...labels);
  board.append(svg, el("div", { class: "note", text: "Click an edge to cut it: everything no longer joined to the ground falls away; whoever cannot cut loses." }));
  return true;
}

/// Where the vertices of a graph stand, in layout units (about one unit an edge): the
/// library's drawing (`t.drawing.at`: a lattice row by row, any other graph by its spring
/// layout), kept from move to move (`nextView`) so that the picture does not jump.
function graphCoords(t) {
  const pos = t.position, n = Number(pos.vertices) || 0;
  if (P.view.coords && P.view.coords.length === n && P.view.coords.every(Boolean)) return P.view.coords;
  const xy = t.drawing && t.drawing.at.length === n ? t.drawing.at.map(([x, y]) => [x, y]) : Array.from({ length: n }, (_, v) => [v, 0]);
  P.view.coords = xy;
  return xy;
}

/// Node Kayles and Arc Kayles: the graph, vertices labelled with the numbers the moves use. A
/// click on a vertex (Node Kayles) or an edge (Arc Kayles) plays it; pointing at one shows
/// what the move deletes.
function drawGraph(board, t) {
  const pos = t.position, edges = pos.edges || [];
  const xy = graphCoords(t);
  const U = xy.length <= 40 ? 72 : 56, M = 22;
  const xs = xy.map((p) => p[0]), ys = xy.map((p) => p[1]);
  const x0 = Math.min(0, ...xs), y0 = Math.min(0, ...ys);
  const W = Math.max(...xs, x0) - x0, H = Math.max(...ys, y0) - y0;
  const X = (v) => M + (xy[v][0] - x0) * U, Y = (v) => M + (xy[v][1] - y0) * U;
  const svg = svgBox(Math.max(W * U + 2 * M, 2 * M), Math.max(H * U + 2 * M, 2 * M), "graph");
  const dots = [];
  const mark = (m, on) => {
    if (!m || !yourTurn()) return;
    const kept = new Set(m.at.kept || []);
    dots.forEach((d, v) => d.classList.toggle("doomed", on && !kept.has(v)));
  };
  for (const [a, b] of edges) {
    const m = moveAt((at) => Array.isArray(at.edge) && ((at.edge[0] === a && at.edge[1] === b) || (at.edge[0] === b && at.edge[1] === a)));
    const d = a === b ? `M ${X(a)} ${Y(a)} c -26 -34 26 -34 0 0` : `M ${X(a)} ${Y(a)} L ${X(b)} ${Y(b)}`;
    const g = svgEl("g", { class: "edge" + (m ? " move" : "") + (hinted(m) ? " hinted" : ""), "data-edge": `${a}-${b}` },
      svgEl("path", { d, class: "line" }), svgEl("path", { d, class: "hit" }));
    titled(g, m ? m.text : `edge ${a}-${b}`);
    if (m) {
      g.addEventListener("click", () => click(m));
      g.addEventListener("mouseenter", () => mark(m, true));
      g.addEventListener("mouseleave", () => mark(m, false));
    }
    svg.append(g);
  }
  for (let v = 0; v < xy.length; v++) {
    const m = moveAt((at) => at.vertex === v);
    const dot = svgEl("circle", { cx: X(v), cy: Y(v), r: 15, class: "dot" });
    const g = svgEl("g", { class: "vertex" + (m ? " move" : "") + (hinted(m) ? " hinted" : ""), "data-vertex": String(v) },
      dot, svgEl("text", { x: X(v), y: Y(v) + 5, class: "label" }, String(v)));
    titled(g, m ? m.text : `vertex ${v}`);
    if (m) {
      g.addEventListener("click", () => click(m));
      g.addEventListener("mouseenter", () => mark(m, true));
      g.addEventListener("mouseleave", () => mark(m, false));
    }
    dots.push(dot);
    svg.append(g);
  }
  const vertexGame = t.moves.some((m) => m.at && m.at.vertex !== undefined);
  if (!xy.length) board.append(el("div", { class: "note", text: "The graph is empty." }));
  else board.append(svg);
  board.append(el("div", { class: "note", text: vertexGame
    ? "Click a vertex: it goes with its neighbours (pointing at it shows which); whoever cannot move loses."
    : "Click an edge: it goes with both its ends (pointing at it shows which); whoever cannot move loses." }));
  return true;
}

/// Cram: the board, each domino placed in this game drawn as one piece; click two adjacent
/// free cells to place a domino on them.
function drawCram(board, t) {
  const rows = t.position.rows || [];
  const R = rows.length, C = R ? rows[0].length : 0;
  const S = cellSize(board, C, 48), M = 4;
  const svg = svgBox(C * S + 2 * M, R * S + 2 * M, "cram");
  const covered = new Set();
  for (const d of P.view.dominoes || []) for (const [r, c] of d.cells) covered.add(r + "," + c);
  const pick = P.pick;
  const partners = new Map();
  if (pick) for (const m of t.moves) {
    const cs = (m.at && m.at.cells) || [];
    const i = cs.findIndex(([r, c]) => r === pick[0] && c === pick[1]);
    if (i >= 0 && cs.length === 2) partners.set(cs[1 - i].join(","), m);
  }
  const usable = new Set();
  for (const m of t.moves) for (const [r, c] of (m.at && m.at.cells) || []) usable.add(r + "," + c);
  const hint = new Set(((P.hinted && P.hinted.at && P.hinted.at.cells) || []).map(([r, c]) => r + "," + c));
  rows.forEach((line, r) => [...line].forEach((ch, c) => {
    const key = r + "," + c;
    let cls = "sq";
    if (ch !== ".") cls += covered.has(key) ? " under" : " filled";
    else if (pick && pick[0] === r && pick[1] === c) cls += " picked";
    else if (partners.has(key)) cls += " partner";
    else if (usable.has(key)) cls += " free";
    else cls += " dead";
    if (hint.has(key)) cls += " hint";
    const rect = svgEl("rect", { x: M + c * S + 1, y: M + r * S + 1, width: S - 2, height: S - 2, rx: 3, class: cls, "data-cell": key });
    titled(rect, `(${r}, ${c})`);
    if (ch === ".") rect.addEventListener("click", () => {
      if (!yourTurn()) return;
      if (partners.has(key)) { click(partners.get(key)); return; }
      P.pick = usable.has(key) && !(pick && pick[0] === r && pick[1] === c) ? [r, c] : null;
      render();
    });
    svg.append(rect);
  }));
  for (const { cells: [[r1, c1], [r2, c2]], mine } of P.view.dominoes || []) {
    const r = Math.min(r1, r2), c = Math.min(c1, c2);
    svg.append(titled(svgEl("rect", { x: M + c * S + 4, y: M + r * S + 4, width: (Math.abs(c1 - c2) + 1) * S - 8, height: (Math.abs(r1 - r2) + 1) * S - 8, rx: 6, class: "domino" + (mine ? " mine" : " theirs") }),
      mine ? "your domino" : "the engine's domino"));
  }
  board.append(svg, el("div", { class: "note", text: pick
    ? "Now click a neighbouring free cell (marked) to place the domino; click the cell again to start over."
    : "Click two neighbouring free cells to place a domino on them (yours blue, the engine's orange); whoever cannot place one loses." }));
  return true;
}

/// Clobber, Cannibal Clobber and NoGo: the board point by point as the library draws it
/// (`t.drawing`: each point's place `at` and what stands on it, `stones`: x black, o white,
/// `.` empty, `#` off the board). The points clicked go to the library (`/api/pick`), which
/// answers the move they name, the points that complete a move begun (a Clobber stone's
/// captures), or why they are no move (shown under the board). NoGo places the colour chosen
/// with the two buttons above the board.
function drawStones(board, t) {
  const d = t.drawing;
  if (!d || !d.stones || !d.at.length) return false;
  const places = t.moves.some((m) => m.at && m.at.stone !== undefined);
  const C = Math.max(...d.at.map((p) => p[0])) + 1, R = Math.max(...d.at.map((p) => p[1])) + 1;
  const S = cellSize(board, C + 0.6, 52), M = Math.round(S * 0.6);
  const svg = svgBox(C * S + M + 4, R * S + M + 4, "stones");
  const X = (c) => M + c * S + S / 2, Y = (r) => M + r * S + S / 2;
  const what = new Map(d.at.map(([c, r], i) => [r + "," + c, d.stones[i]]));
  const on = (r, c) => { const w = what.get(r + "," + c); return w !== undefined && w !== "#"; };
  svg.append(svgEl("rect", { x: M, y: M, width: C * S, height: R * S, rx: 6, class: "wood" }));
  for (let c = 0; c < C; c++) svg.append(svgEl("text", { x: X(c), y: M * 0.7, class: "coord" }, String(c)));
  for (let r = 0; r < R; r++) svg.append(svgEl("text", { x: M * 0.45, y: Y(r) + 4, class: "coord" }, String(r)));
  // The lines joining neighbouring points on the board (a stone captures, or a group
  // breathes, along them).
  for (const [c, r] of d.at) {
    if (!on(r, c)) continue;
    if (on(r, c + 1)) svg.append(svgEl("line", { x1: X(c), y1: Y(r), x2: X(c + 1), y2: Y(r), class: "grid" }));
    if (on(r + 1, c)) svg.append(svgEl("line", { x1: X(c), y1: Y(r), x2: X(c), y2: Y(r + 1), class: "grid" }));
  }
  const key = (p) => p[0] + "," + p[1];
  const hint = new Set();
  if (P.hinted && P.hinted.at) for (const k of ["from", "to", "cell"]) if (P.hinted.at[k]) hint.add(key(P.hinted.at[k]));
  const more = new Set((P.more || []).map(key));
  // The points where a move can start (marked; the library's moves name them in `at`).
  const live = new Set();
  if (yourTurn()) for (const m of t.moves) {
    const a = m.at || {};
    if (a.from) live.add(key(a.from));
    if (a.cell && a.stone === P.stone) live.add(key(a.cell));
  }
  d.at.forEach(([c, r], i) => {
    const w = d.stones[i], k = r + "," + c;
    if (w === "#") {
      svg.append(titled(svgEl("rect", { x: X(c) - S / 2 + 1, y: Y(r) - S / 2 + 1, width: S - 2, height: S - 2, rx: 4, class: "off", "data-point": k }), `${d.names[i]}: off the board`));
      return;
    }
    let cls = "point";
    if (P.pick && key(P.pick) === k) cls += " picked";
    if (more.has(k)) cls += " partner";
    if (hint.has(k)) cls += " hint";
    if (live.has(k) && !P.pick) cls += " live";
    const g = svgEl("g", { class: cls, "data-point": k },
      svgEl("rect", { x: X(c) - S / 2, y: Y(r) - S / 2, width: S, height: S, class: "hit" }));
    if (w === "x" || w === "o") g.append(svgEl("circle", { cx: X(c), cy: Y(r), r: S * 0.4, class: "stone " + w }));
    else g.append(svgEl("circle", { cx: X(c), cy: Y(r), r: S * 0.4, class: "empty" }));
    titled(g, w === "x" ? `the x (black) on ${d.names[i]}` : w === "o" ? `the o (white) on ${d.names[i]}` : `${d.names[i]}: empty`);
    g.addEventListener("click", () => clickPoint(t, [r, c], places));
    svg.append(g);
  });
  if (places && t.moves.length) {
    const choose = (s) => { P.stone = s; P.pickError = ""; render(); };
    const b = (s, label) => el("button", { text: label, class: "stone-choice" + (P.stone === s ? " primary" : ""), "aria-pressed": String(P.stone === s), "data-stone": s, onclick: () => choose(s) });
    board.append(el("div", { class: "buttons stone-buttons" }, el("span", { class: "label", text: "Place:" }), b("x", "● x (black)"), b("o", "○ o (white)")));
  }
  board.append(svg);
  if (P.pickError) board.append(el("div", { class: "note pick-error", text: P.pickError }));
  board.append(el("div", { class: "note", text: places
    ? `Choose a colour, then click an empty point to place a stone of it (now: ${P.stone}). A placement may never leave a group, of either colour, without a liberty; whoever cannot place loses.`
    : P.pick
      ? "Now click the stone it captures (marked); click the stone again to start over."
      : "Click a stone, then a stone next to it (up, down, left or right) that it captures; whoever cannot capture loses." }));
  return true;
}

/// A click on point `p` of a board of stones: the points clicked so far go to the library,
/// whose answer plays a move, marks the points that complete one, or says why not.
async function clickPoint(t, p, places) {
  if (!yourTurn() || P.busy || P.turn !== t) return;
  const same = P.pick && P.pick[0] === p[0] && P.pick[1] === p[1];
  if (same) { P.pick = null; P.more = null; P.pickError = ""; render(); return; }
  const cells = (P.pick && !places ? [P.pick, p] : [p]).map((q) => q.join(",")).join(";");
  const q = { game: P.game, position: t.position_text, cells };
  if (places) q.stone = P.stone;
  let a;
  try {
    a = await api("/api/pick", q);
  } catch (e) {
    if (P.turn !== t) return;
    P.pick = null; P.more = null; P.pickError = e.message;
    render();
    return;
  }
  if (P.turn !== t) return;
  P.pickError = "";
  if (a.more) { P.pick = p; P.more = a.more; render(); }
  else if (a.move) play(a.move);
}

/// Tokens on the places 0..N−1 of `windup:N:S`, drawn round a ring (N from the game's name);
/// a click on a place moves a token there (with several tokens that could, click the token
/// first).
function drawRing(board, t) {
  const m = /^windup:(\d+):/.exec(String(P.game).trim().toLowerCase());
  const tokens = (t.position.tokens || []).map(Number);
  const n = m ? Number(m[1]) : 0;
  if (!n || n > 64 || tokens.some((x) => !(x >= 0 && x < n))) return false;
  const R = Math.max(60, n * 9), S = 2 * R + 60, r = 16;
  const svg = svgBox(S, S, "digraph ring");
  const at = (p) => [S / 2 + R * Math.sin(2 * Math.PI * p / n), S / 2 - R * Math.cos(2 * Math.PI * p / n)];
  const key = (xs) => xs.slice().sort((a, b) => a - b).join(" ");
  const from = P.pick && P.pick.place !== undefined ? P.pick.place : null;
  // The move that puts a token on `p`, taking it from `q` (any place when `q` is null).
  const onto = (p, q) => t.moves.filter((mv) => {
    const to = (mv.to.tokens || []).map(Number);
    return tokens.some((x, i) => (q === null || x === q) && key(tokens.map((y, j) => (j === i ? p : y))) === key(to));
  });
  svg.append(svgEl("circle", { cx: S / 2, cy: S / 2, r: R, class: "track" }));
  for (let p = 0; p < n; p++) {
    const [x, y] = at(p);
    const here = tokens.filter((v) => v === p).length;
    const targets = yourTurn() ? onto(p, from) : [];
    const g = svgEl("g", { class: "vertex" + (targets.length ? " move" : "") + (here ? " has-token" : "") + (from === p ? " picked" : ""), "data-vertex": String(p) },
      svgEl("circle", { cx: x, cy: y, r, class: "dot" }), svgEl("text", { x, y: y + 5, class: "label" }, String(p)));
    if (here) {
      g.append(svgEl("circle", { cx: x + r - 2, cy: y - r + 2, r: 8, class: "token-mark" }));
      if (here > 1) g.append(svgEl("text", { x: x + r - 2, y: y - r + 6, class: "token-count" }, String(here)));
    }
    titled(g, targets.length === 1 ? targets[0].text : `place ${p}`);
    g.addEventListener("click", () => {
      if (!yourTurn()) return;
      if (targets.length === 1) click(targets[0]);
      else if (here && tokens.length > 1) { P.pick = { place: p }; render(); }
      else if (targets.length > 1) $("play-hint-text").textContent = `Several tokens can move to ${p}: click the one to move first.`;
    });
    svg.append(g);
  }
  board.append(svg, el("div", { class: "note", text: "Click the place to move a token to; whoever cannot move loses (0 has no move)." }));
  return true;
}

/// Tokens on a directed graph (`digraph`, `loopy-digraph`): arrows, the tokens on their
/// vertices. A click on a vertex a token can move onto plays that move (with several tokens
/// that could, click the token first).
function drawDigraph(board, t) {
  const pos = t.position, edges = pos.edges || [], tokens = pos.tokens || [];
  // Where each vertex stands is the library's drawing: `at[i]` = [place in its layer, layer].
  if (!t.drawing || !t.drawing.names.length) return false;
  const names = t.drawing.names, at = t.drawing.at;
  const xs = at.map((p) => p[0]);
  const L = { layer: at.map((p) => p[1]), width: Math.max(...xs) - Math.min(...xs) + 1, depth: Math.max(...at.map((p) => p[1])) + 1 };
  const U = 76, V = 72, M = 30, R = 17;
  const W = Math.max(1, L.width) * U + 2 * M, H = Math.max(1, L.depth - 1) * V + 2 * M;
  const X = (i) => W / 2 + at[i][0] * U, Y = (i) => M + L.layer[i] * V;
  const svg = svgBox(W, H, "digraph");
  svg.append(svgEl("defs", {}, svgEl("marker", { id: "arrow", viewBox: "0 0 10 10", refX: "9", refY: "5", markerWidth: "7", markerHeight: "7", orient: "auto-start-reverse" },
    svgEl("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "head" }))));
  const index = new Map(names.map((v, i) => [v, i]));
  const pairs = new Set(edges.map(([a, b]) => a + "\u0000" + b));
  for (const [a, b] of edges) {
    const i = index.get(a), j = index.get(b);
    let d;
    if (i === j) d = `M ${X(i) - 8} ${Y(i) - R + 2} C ${X(i) - 30} ${Y(i) - 56}, ${X(i) + 30} ${Y(i) - 56}, ${X(i) + 8} ${Y(i) - R + 2}`;
    else {
      const x1 = X(i), y1 = Y(i), x2 = X(j), y2 = Y(j), len = Math.hypot(x2 - x1, y2 - y1) || 1;
      const ux = (x2 - x1) / len, uy = (y2 - y1) / len;
      // Curved when the reverse arrow exists or the arrow goes back up or along a layer.
      // (an arrow past a layer bows out by a third of its length, clear of the vertices it
      // passes).
      const bend = Math.abs(L.layer[j] - L.layer[i]) > 1 ? len / 3 : pairs.has(b + "\u0000" + a) || L.layer[j] <= L.layer[i] ? 22 : 0;
      const sx = x1 + ux * R, sy = y1 + uy * R, ex = x2 - ux * (R + 2), ey = y2 - uy * (R + 2);
      const mx = (sx + ex) / 2 - uy * bend, my = (sy + ey) / 2 + ux * bend;
      d = `M ${sx} ${sy} Q ${mx} ${my} ${ex} ${ey}`;
    }
    svg.append(svgEl("path", { d, class: "arrow", "marker-end": "url(#arrow)" }));
  }
  const sel = P.pick && P.pick.token !== undefined ? P.pick.token : null;
  const onto = (name) => t.moves.filter((m) => m.at && m.at.onto === name && (sel === null || m.at.token === sel));
  names.forEach((name, i) => {
    const here = tokens.map((v, k) => (v === name ? k : -1)).filter((k) => k >= 0);
    const targets = yourTurn() ? onto(name) : [];
    const g = svgEl("g", { class: "vertex" + (targets.length ? " move" : "") + (here.length ? " has-token" : "") + (here.includes(sel) ? " picked" : ""), "data-vertex": name },
      svgEl("circle", { cx: X(i), cy: Y(i), r: R, class: "dot" }),
      svgEl("text", { x: X(i), y: Y(i) + 5, class: "label" }, name));
    if (here.length) {
      g.append(svgEl("circle", { cx: X(i) + R - 2, cy: Y(i) - R + 2, r: 8, class: "token-mark" }));
      if (here.length > 1) g.append(svgEl("text", { x: X(i) + R - 2, y: Y(i) - R + 6, class: "token-count" }, String(here.length)));
    }
    titled(g, targets.length === 1 ? targets[0].text : here.length ? `token${here.length > 1 ? "s" : ""} on ${name}` : name);
    g.addEventListener("click", () => {
      if (!yourTurn()) return;
      const movable = here.filter((k) => t.moves.some((m) => m.at && m.at.token === k));
      if (targets.length === 1) click(targets[0]);
      else if (movable.length && tokens.length > 1 && sel === null) { P.pick = { token: movable[0] }; render(); }
      else if (targets.length > 1) { P.pick = null; $("play-hint-text").textContent = `Several tokens can move to ${name}: click the one to move first.`; }
      else if (sel !== null) { P.pick = null; render(); }
    });
    svg.append(g);
  });
  board.append(svg, el("div", { class: "note", text: tokens.length > 1
    ? "Click a token, then the vertex to move it to along an arrow (a vertex only one token can reach: just click it)."
    : "Click the vertex to move the token to, along an arrow; whoever cannot move loses." }));
  return true;
}

/// A row of coins, heads and tails, numbered from 0: click coins to choose them, then “Turn”
/// when they make a move (the rightmost a head).
function drawCoins(board, t) {
  const row = String(t.position.text);
  if (!/^[HTht]+$/.test(row) || row.length > 160) return false;
  const chosen = P.pick && P.pick.coins ? P.pick.coins : [];
  const key = (cs) => cs.slice().sort((a, b) => a - b).join(",");
  const match = t.moves.find((m) => m.at && m.at.coins && key(m.at.coins) === key(chosen));
  const line = el("div", { class: "coins" });
  [...row].forEach((c, i) => {
    const heads = c === "H" || c === "h";
    const b = el("button", { class: "coin " + (heads ? "heads" : "tails") + (chosen.includes(i) ? " chosen" : ""), title: `coin ${i}: ${heads ? "heads" : "tails"}`, "data-coin": String(i) },
      el("span", { class: "face", text: heads ? "H" : "T" }), el("span", { class: "index", text: String(i) }));
    b.disabled = !yourTurn();
    b.addEventListener("click", () => {
      const next = chosen.includes(i) ? chosen.filter((x) => x !== i) : chosen.concat([i]);
      P.pick = { coins: next };
      render();
    });
    line.append(b);
  });
  const turn = el("button", { class: match ? "primary" : "", text: match ? "Turn: " + match.short : "Turn", onclick: () => click(match) });
  turn.disabled = !match || !yourTurn();
  board.append(line, el("div", { class: "buttons" }, turn),
    el("div", { class: "note", text: "Choose the coins to turn over (the rightmost must be a head), then press Turn." }));
  return true;
}

/// The card game: the row of cards; take one from either end.
function drawCards(board, t) {
  const cards = t.position.cards || [];
  if (cards.length > 200) return false;
  const line = el("div", { class: "cards" });
  cards.forEach((v, i) => {
    const m = moveAt((at) => at.index === i);
    const b = el("button", { class: "card" + (m ? " end" : ""), text: String(v), title: m ? m.text : `card ${i}` });
    b.disabled = !m || !yourTurn();
    b.addEventListener("click", () => click(m));
    line.append(b);
  });
  board.append(line, el("div", { class: "note", text: "Take a card from either end; the higher total wins." }));
  return true;
}

/// Any other kind: its rows (boards) or its notation, one part a line (the first 4000
/// characters: a position of 10^4 edges is not read whole on a page).
function drawText(board, t) {
  const rows = t.position.rows || String(t.position_text).split(/[|;\n]/).map((s) => s.trim());
  let text = rows.join("\n");
  if (text.length > 4000) text = text.slice(0, 4000) + " …";
  board.append(el("pre", { class: "position", text }));
  return false;
}

$("play-new").addEventListener("click", () => newGame());
$("play-undo").addEventListener("click", undo);
$("play-hint").addEventListener("click", () => {
  if (!P.turn || P.turn.game_over || P.turn.drawn) return;
  P.hinted = P.turn.winning_moves[0] || null;
  $("play-hint-text").textContent = "Hint: " + P.turn.hint;
  render();
});
$("play-why").addEventListener("click", () => {
  if (!P.turn) return;
  const box = $("play-why-box");
  box.textContent = "";
  const b = P.turn.why.binary;
  if (b) {
    const table = el("table", { class: "binary" });
    b.heaps.forEach((bits, i) => table.append(el("tr", {}, el("td", { text: `heap ${i}` }), ...[...bits].map((d) => el("td", { class: d === "1" ? "one" : "", text: d })))));
    table.append(el("tr", { class: "sum" }, el("td", { text: "nim-sum" }), ...[...b.nim_sum].map((d) => el("td", { class: d === "1" ? "one" : "", text: d }))));
    box.append(table);
  }
  box.append(el("pre", { text: P.turn.why.text }));
});

// ---------------------------------------------------------------- explore
async function explore() {
  const rule = $("ex-rule").value.trim();
  const params = { rule };
  if ($("ex-prove").checked) params.period = "true"; else params.upto = $("ex-upto").value.trim();
  $("ex-summary").textContent = "computing…";
  $("ex-summary").className = "status";
  try {
    const s = await api("/api/heap", params);
    const p = s.period;
    let text = `${s.rule}${s.code && s.code !== s.rule ? " (code " + s.code + ")" : ""}: G(0..${s.upto}); `;
    if (p.status === "none") text += `no period seen up to ${s.upto}`;
    else text += `period ${p.period}, preperiod ${p.preperiod}` + (p.saltus ? `, saltus ${p.saltus}` : "") +
      (p.status === "proven" ? " — proven" : ` — observed up to ${s.upto}, not proven`);
    $("ex-summary").textContent = text;
    $("ex-summary").dataset.period = p.period === null ? "" : String(p.period);
    $("ex-summary").dataset.preperiod = p.preperiod === null ? "" : String(p.preperiod);
    $("ex-summary").dataset.status = p.status;
    plot(s.values, p);
    valueTable(s.values, p);
  } catch (e) {
    $("ex-summary").textContent = e.message;
    $("ex-summary").className = "status lose";
  }
}

/// Round ticks from 0 to `max`: steps of 1, 2 or 5 times a power of ten, about `count` of them.
function ticks(max, count) {
  if (max <= 0) return [0];
  const raw = max / count, mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map((k) => k * mag).find((s) => s >= raw);
  const out = [];
  for (let v = 0; v <= max + 1e-9; v += step) out.push(Math.round(v));
  return out;
}

function plot(values, p) {
  $("ex-plot").hidden = false;
  $("ex-legend").hidden = false;
  const cv = $("ex-plot"), ctx = cv.getContext("2d");
  // Drawn at the size it is shown (a phone's 360 px, not 960 scaled down), in device pixels.
  const W = Math.min(960, cv.parentElement.clientWidth || 960), H = Math.round(Math.max(180, Math.min(320, W / 3)));
  const dpr = window.devicePixelRatio || 1, L = 44, R = 12, T = 14, B = 30;
  cv.width = W * dpr; cv.height = H * dpr;
  cv.style.width = W + "px"; cv.style.height = H + "px";
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, W, H);
  const n = values.length, max = Math.max(1, ...values);
  const X = (i) => L + (W - L - R) * (n <= 1 ? 0 : i / (n - 1));
  const Y = (v) => H - B - (H - T - B) * (v / max);
  if (p.status !== "none") {
    ctx.fillStyle = "#e9e4d8"; ctx.fillRect(L, T, X(Math.min(p.preperiod, n - 1)) - L, H - T - B);
    ctx.fillStyle = "#d6e8f1"; ctx.fillRect(X(Math.min(p.preperiod, n - 1)), T, W - R - X(Math.min(p.preperiod, n - 1)), H - T - B);
    const a = X(Math.min(p.preperiod, n - 1)), b = X(Math.min(p.preperiod + p.period, n - 1));
    ctx.strokeStyle = "#c0572a"; ctx.lineWidth = 2; ctx.strokeRect(a, T + 1, Math.max(2, b - a), H - T - B - 2);
  }
  ctx.strokeStyle = "#667085"; ctx.lineWidth = 1;
  ctx.beginPath(); ctx.moveTo(L, T); ctx.lineTo(L, H - B); ctx.lineTo(W - R, H - B); ctx.stroke();
  ctx.fillStyle = "#667085"; ctx.font = "12px sans-serif";
  ctx.textAlign = "right";
  for (const v of ticks(max, 4)) ctx.fillText(String(v), L - 6, Y(v) + 4);
  ctx.textAlign = "center";
  for (const i of ticks(n - 1, 6)) ctx.fillText(String(i), X(i), H - B + 16);
  ctx.fillStyle = "#2f6f8f";
  const r = n > 600 ? 1.2 : 2.2;
  values.forEach((v, i) => { ctx.beginPath(); ctx.arc(X(i), Y(v), r, 0, 6.3); ctx.fill(); });
}

function valueTable(values, p) {
  const t = el("table", { class: "values" });
  const shown = Math.min(values.length, 1000);
  for (let row = 0; row < shown; row += 10) {
    const tr = el("tr", {}, el("th", { text: String(row) }));
    for (let i = row; i < Math.min(row + 10, shown); i++) {
      tr.append(el("td", { class: p.status !== "none" && i >= p.preperiod ? "per" : "", text: String(values[i]) }));
    }
    t.append(tr);
  }
  $("ex-table").textContent = "";
  $("ex-table").append(t);
}

$("ex-go").addEventListener("click", explore);
// The tab opens on the rule already filled in, computed (not on an empty plot).
$("tab-explore").addEventListener("click", () => { if (!$("ex-summary").textContent) explore(); });

// The misère quotient of the rule above and its multiplication table (P-positions marked).
async function misereQuotient() {
  const rule = $("ex-rule").value.trim();
  $("mq-summary").textContent = "computing…";
  $("mq-summary").className = "status";
  $("mq-table").textContent = "";
  try {
    const q = await api("/api/misere/quotient", { rule, upto: $("mq-upto").value.trim() });
    const name = q.name ? ` = ${q.name}` : "";
    $("mq-summary").textContent = `${q.rule}, heaps 0..${q.upto}: |Q| = ${q.order}, |P| = ${q.p_size}${name}` +
      (q.tame ? " (tame)" : " (wild)") + `; ${q.presentation || "trivial"}; P = {${q.p_portion.join(", ")}}` +
      `; Φ = ${q.phi.join(" ")}; last change at heap ${q.changes_at}`;
    const inP = new Set(q.p_portion);
    const t = el("table", { class: "values quotient" });
    t.append(el("tr", {}, el("th", { text: "×" }), ...q.elements.map((e) => el("th", { text: e }))));
    q.table.forEach((row, x) => {
      t.append(el("tr", {}, el("th", { text: q.elements[x] }),
        ...row.map((z) => el("td", { class: inP.has(q.elements[z]) ? "per" : "", text: q.elements[z] }))));
    });
    $("mq-table").append(t);
  } catch (e) {
    $("mq-summary").textContent = e.message;
    $("mq-summary").className = "status lose";
  }
}

$("mq-go").addEventListener("click", misereQuotient);

// ---------------------------------------------------------------- penney
let raceTimer = null;

async function penney() {
  const params = { patterns: $("pe-patterns").value.trim() };
  if ($("pe-alphabet").value.trim()) params.alphabet = $("pe-alphabet").value.trim();
  if ($("pe-prob").value.trim()) params.prob = $("pe-prob").value.trim();
  $("pe-summary").textContent = "solving…";
  $("pe-summary").className = "status";
  $("pe-reply").textContent = "";
  try {
    const r = await api("/api/penney", params);
    $("pe-summary").textContent = `Expected tosses until one pattern appears: ${r.expected_tosses} ≈ ${r.expected_tosses_decimal.toFixed(4)} (exact; ${r.methods_agreeing.join(", ")} agree)`;
    const table = $("pe-table");
    table.textContent = "";
    table.append(el("tr", {}, ...["pattern", "P(first)", "≈", "E[tosses | wins]", "alone: E[tosses]", "simulated"].map((h) => el("th", { text: h }))));
    r.patterns.forEach((p, i) => table.append(el("tr", { "data-pattern": p.pattern },
      el("td", { text: p.pattern }), el("td", { class: "exact", text: p.win }), el("td", { text: p.win_decimal.toFixed(6) }),
      el("td", { text: p.expected_given_win || "—" }), el("td", { text: p.waiting_time }), el("td", { class: "sim", id: "pe-sim-" + i, text: "…" }))));
    liveRace(r);
    simulate(params, r.patterns.length, 1000);
    if (r.patterns.length >= 1) {
      const first = r.patterns[0].pattern;
      const bp = { best_reply: first };
      if (params.alphabet) bp.alphabet = params.alphabet;
      if (params.prob) bp.prob = params.prob;
      api("/api/penney", bp).then((b) => {
        $("pe-reply").textContent = `Best reply to ${first}: ${b.best_reply}, which comes first with probability ${b.win} ≈ ${b.win_decimal.toFixed(4)} (${b.search} search of ${b.candidates} patterns).`;
      }, (e) => { $("pe-reply").textContent = e.message; });
    }
  } catch (e) {
    $("pe-summary").textContent = e.message;
    $("pe-summary").className = "status lose";
    $("pe-table").textContent = "";
  }
}

/// The server's seeded simulation, growing tenfold up to 10^6 races, beside the exact odds.
async function simulate(params, k, trials) {
  try {
    const r = await api("/api/penney", Object.assign({}, params, { simulate: String(trials), seed: "7" }));
    r.patterns.forEach((p, i) => { const c = $("pe-sim-" + i); if (c) c.textContent = p.simulated_win_decimal.toFixed(4); });
    $("pe-sim").textContent = `${trials.toLocaleString()} simulated races: mean length ${r.simulation.mean_length.toFixed(3)}`;
    if (trials < 1000000 && $("pe-patterns").value.trim() === params.patterns) setTimeout(() => simulate(params, k, trials * 10), 400);
  } catch (e) {
    $("pe-sim").textContent = e.message;
  }
}

/// One race drawn toss by toss with the exact letter probabilities (for the eye only).
function liveRace(r) {
  if (raceTimer) clearInterval(raceTimer);
  const letters = Object.entries(r.letter_probabilities).map(([s, f]) => {
    const [a, b] = f.split("/").map(Number);
    return [s, b ? a / b : a];
  });
  const pats = r.patterns.map((p) => p.pattern);
  let seq = "";
  const box = $("pe-tosses");
  box.textContent = "";
  raceTimer = setInterval(() => {
    let u = Math.random(), s = letters[letters.length - 1][0];
    for (const [l, q] of letters) { if (u < q) { s = l; break; } u -= q; }
    seq += s;
    const hit = pats.find((p) => seq.endsWith(p));
    box.textContent = "";
    if (hit) {
      box.append(seq.slice(0, seq.length - hit.length), el("span", { class: "hit", text: hit }));
      $("pe-sim").dataset.last = hit;
      clearInterval(raceTimer);
      raceTimer = setTimeout(() => liveRace(r), 1500);
    } else box.append(seq.slice(-60));
  }, 180);
}

$("pe-go").addEventListener("click", penney);

// ---------------------------------------------------------------- script
const SAMPLE = `-- A subtraction game: take 1, 2 or 5 counters; taking the last one wins.
function moves(n)
  local out = {}
  for _, k in ipairs({1, 2, 5}) do
    if k <= n then out[#out + 1] = n - k end
  end
  return out
end
`;
$("sc-source").value = SAMPLE;

function gutter(bad) {
  const n = $("sc-source").value.split("\n").length;
  const g = $("sc-lines");
  g.textContent = "";
  for (let i = 1; i <= n; i++) g.append(el("span", { class: i === bad ? "bad" : "", text: String(i) }));
}
$("sc-source").addEventListener("input", () => gutter(null));
gutter(null);

async function runScript() {
  $("sc-error").textContent = "";
  $("sc-result").textContent = "running…";
  $("sc-table").textContent = "";
  gutter(null);
  try {
    const upto = Number($("sc-upto").value);
    const r = await fetchRetry("/api/script", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ source: $("sc-source").value, position: $("sc-position").value, upto: Number.isFinite(upto) ? upto : 0 }),
    });
    const body = await r.json();
    if (!r.ok) {
      const line = body.line || null;
      $("sc-error").textContent = (line ? `line ${line}: ` : "") + body.error;
      $("sc-error").dataset.line = line ? String(line) : "";
      $("sc-result").textContent = "";
      gutter(line);
      return;
    }
    showScript(body);
  } catch (e) {
    $("sc-error").textContent = e.message;
    $("sc-result").textContent = "";
  }
}

/// The script's answer for people: the position's outcome and winning moves in words, the
/// values as a table and a plot.
function showScript(body) {
  const lines = [body.game];
  const a = body.analysis;
  if (a) {
    lines.push(`Position ${a.texts.join(" + ")}: outcome ${a.outcome}` + (a.grundy !== undefined ? `, value ${a.grundy}` : ""));
    for (const m of a.winning_moves) lines.push("  winning move: " + m.text);
    if (!a.winning_moves.length) lines.push(a.outcome === "P" ? "  every move loses" : "");
  }
  $("sc-result").textContent = lines.join("\n");
  const seq = body.sequence;
  const box = $("sc-table");
  box.textContent = "";
  if (!seq || !seq.values) return;
  const vals = seq.values;
  const table = el("table", { class: "values" });
  for (let r = 0; r < vals.length; r += 10) {
    const tr = el("tr", {}, el("th", { text: String(r) }));
    for (let c = r; c < Math.min(r + 10, vals.length); c++) tr.append(el("td", { text: String(vals[c]), title: `G(${c})` }));
    table.append(tr);
  }
  const canvas = el("canvas", { width: "960", height: "200", id: "sc-plot" });
  box.append(canvas, el("div", { class: "table-wrap" }, table));
  const ctx = canvas.getContext("2d"), max = Math.max(1, ...vals), w = canvas.width / Math.max(vals.length, 1);
  ctx.fillStyle = "#2f6f8f";
  vals.forEach((v, i) => ctx.fillRect(i * w, canvas.height - (v / max) * (canvas.height - 10), Math.max(w - 1, 1), (v / max) * (canvas.height - 10)));
}
$("sc-run").addEventListener("click", runScript);
$("sc-play").addEventListener("click", () => {
  $("tab-play").click();
  newGame($("sc-source").value);
});

loadGames().then(() => newGame(), (e) => setStatus(e.message, "lose"));
