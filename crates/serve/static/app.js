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
// `kind`, and every move is one of the server's, sent back by its `to.text`.
const P = { game: null, script: null, turn: null, toMove: "you", history: [], log: [], busy: false, hinted: null, games: {} };

async function loadGames() {
  const sel = $("play-game");
  const list = (await api("/api/games", {})).games;
  sel.textContent = "";
  for (const g of list) {
    P.games[g.name] = g;
    sel.append(el("option", { value: g.name, text: g.family ? `${g.name} (a family)` : g.name, title: g.summary }));
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
  $("play-summary").textContent = g.summary + " — position: " + g.position;
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

/// Plays `move` (an entry of turn.moves) for whoever is to move.
async function play(move) {
  if (P.busy || !P.turn) return;
  P.busy = true;
  const mine = P.toMove === "you";
  try {
    P.history.push({ position: P.turn.position_text, toMove: P.toMove, log: P.log.length });
    P.log.push((mine ? "You: " : "Engine: ") + move.text);
    P.toMove = mine ? "engine" : "you";
    P.hinted = null;
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
    setStatus(winner === "you" ? "You win! No move is left." : "The engine wins. No move is left.", winner === "you" ? "win" : "lose");
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
    setStatus((last.startsWith("Engine") ? last.replace("Engine: ", "The engine played: ") + ". " : "") + "Your move.");
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

function render() {
  const t = P.turn;
  const board = $("play-board");
  board.textContent = "";
  const pos = t.position;
  if (pos.kind === "heaps") drawHeaps(board, pos.heaps.map(Number), (i, k) => moveTo((to) => {
    const want = pos.heaps.map(String); want[i] = String(k);
    return to.heaps && to.heaps.map(String).join(" ") === want.join(" ");
  }));
  else if (pos.kind === "pile" && Number(pos.pile) <= 200) drawHeaps(board, [Number(pos.pile)], (_, k) => moveTo((to) => String(to.pile) === String(k)),
    `take at most ${pos.limit}`);
  else if (pos.kind === "pair") drawWythoff(board, t);
  else if (pos.kind === "rows") drawChomp(board, t);
  else if (pos.kind === "maze") drawMaze(board, t);
  else if (pos.kind === "hackenbush") drawHackenbush(board, t);
  else drawText(board, t);
  const list = $("play-moves");
  list.textContent = "";
  const shown = t.moves.slice(0, 200);
  for (const m of shown) {
    const b = el("button", { text: m.text, title: m.text, onclick: () => { if (yourTurn()) play(m); } });
    if (P.hinted && m.to.text === P.hinted.to.text) b.classList.add("primary");
    b.disabled = !yourTurn();
    list.append(b);
  }
  if (t.moves.length > shown.length) list.append(el("div", { class: "note", text: `… and ${t.moves.length - shown.length} more (click the board)` }));
  const log = $("play-log");
  log.textContent = "";
  for (const l of P.log) log.append(el("li", { text: l }));
  for (const b of ["play-hint", "play-why", "play-undo"]) $(b).disabled = false;
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
      tok.addEventListener("click", () => { if (m && yourTurn()) play(m); });
      tokens.push(tok);
      row.append(tok);
    }
    if (h > 60) row.append(el("span", { class: "note", text: "…" }));
    board.append(row);
  });
  if (note) board.append(el("div", { class: "note", text: note }));
}

function drawWythoff(board, t) {
  const x = Number(t.position.x), y = Number(t.position.y);
  if (Math.max(x, y) > 40) { board.append(el("div", { class: "note", text: `queen at (${x}, ${y}): pick a move from the list` })); return; }
  const grid = el("div", { class: "grid" });
  grid.style.gridTemplateColumns = `repeat(${y + 1}, 26px)`;
  for (let a = 0; a <= x; a++) for (let b = 0; b <= y; b++) {
    const m = moveTo((to) => Number(to.x) === a && Number(to.y) === b);
    const c = el("button", { class: "cell" + (a === x && b === y ? " here" : m ? " target" : ""), title: `(${a}, ${b})` });
    if (a === x && b === y) c.textContent = "♛";
    if (m) c.addEventListener("click", () => { if (yourTurn()) play(m); });
    grid.append(c);
  }
  board.append(grid, el("div", { class: "note", text: "The queen moves left, up or diagonally up-left; whoever reaches the corner (0, 0) wins." }));
}

function drawChomp(board, t) {
  const rows = t.position.rows, cols = rows.length ? rows[0] : 0;
  const grid = el("div", { class: "grid" });
  grid.style.gridTemplateColumns = `repeat(${Math.max(cols, 1)}, 34px)`;
  rows.forEach((len, r) => {
    for (let c = 0; c < cols; c++) {
      if (c >= len) { grid.append(el("div", { class: "cell gone" })); continue; }
      if (r === 0 && c === 0) { grid.append(el("div", { class: "cell poison", text: "☠", title: "poison" })); continue; }
      const m = moveAt((at) => at.cell && at.cell[0] === r && at.cell[1] === c);
      grid.append(el("button", { class: "cell choc", title: `bite at (${r}, ${c})`, onclick: () => { if (m && yourTurn()) play(m); } }));
    }
  });
  board.append(grid, el("div", { class: "note", text: "A bite eats the square and everything below and to its right; whoever is left with only the poison loses." }));
}

function drawMaze(board, t) {
  const lines = t.position.rows, [fr, fc] = t.position.figure;
  const grid = el("div", { class: "grid" });
  grid.style.gridTemplateColumns = `repeat(${lines[0].length}, 26px)`;
  lines.forEach((line, r) => [...line].forEach((ch, c) => {
    const m = moveTo((to) => to.figure && to.figure[0] === r && to.figure[1] === c);
    const here = r === fr && c === fc;
    const cls = ch === "#" ? "wall" : here ? "here" : m ? "target" : "";
    const cell = el("button", { class: "cell " + cls, title: `(${r}, ${c})` });
    if (here) cell.textContent = "●";
    if (m) cell.addEventListener("click", () => { if (yourTurn()) play(m); });
    grid.append(cell);
  }));
  board.append(grid, el("div", { class: "note", text: "The figure moves any distance left or up, never through a wall; whoever cannot move loses." }));
}

/// Green Hackenbush: the ground at the bottom, each vertex at its distance from the ground,
/// every edge a stalk to click (cut). Edges to the ground stand on the ground line under their
/// other end; a loop is a small circle, parallel edges bow apart.
function drawHackenbush(board, t) {
  const edges = t.position.edges || [];
  const NS = "http://www.w3.org/2000/svg";
  const svgEl = (tag, attrs) => { const e = document.createElementNS(NS, tag); for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); return e; };
  // Each vertex's distance from the ground, from the library (ground first, breadth-first).
  const rows = [];
  for (const [v, d] of (t.position.levels || []).slice(1)) (rows[d] = rows[d] || []).push(v);
  const W = 360, step = 64, depth = Math.max(rows.length - 1, 1), H = depth * step + 40, ground = H - 20;
  const at = new Map();
  rows.forEach((vs, d) => vs.forEach((v, i) => at.set(v, [W * (i + 1) / (vs.length + 1), ground - d * step])));
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, width: "100%", class: "hackenbush", role: "img" });
  svg.style.maxWidth = W + "px";
  svg.append(svgEl("line", { x1: 0, y1: ground, x2: W, y2: ground, class: "ground" }));
  const seen = new Map();
  edges.forEach(([u, v], i) => {
    const key = Math.min(u, v) + "-" + Math.max(u, v), k = seen.get(key) || 0;
    seen.set(key, k + 1);
    const m = moveAt((a) => a.edge === i);
    let shape;
    if (u === v) {
      const [x, y] = u === 0 ? [W / 2, ground] : at.get(u);
      shape = svgEl("circle", { cx: x, cy: y - 12 - 6 * k, r: 12 + 6 * k });
    } else {
      const top = u === 0 ? v : v === 0 ? u : null;
      const [x1, y1] = top !== null ? [at.get(top)[0] + 10 * k, ground] : at.get(u);
      const [x2, y2] = top !== null ? at.get(top) : at.get(v);
      const bow = (k % 2 ? 1 : -1) * Math.ceil(k / 2) * 18;
      const mx = (x1 + x2) / 2 + bow, my = (y1 + y2) / 2;
      shape = svgEl("path", { d: `M ${x1} ${y1} Q ${mx} ${my} ${x2} ${y2}` });
    }
    shape.setAttribute("class", "stalk" + (m ? " cut" : ""));
    shape.setAttribute("data-edge", i);
    const title = svgEl("title", {});
    title.textContent = m ? m.text : `edge ${u}-${v}`;
    shape.append(title);
    if (m) shape.addEventListener("click", () => { if (yourTurn()) play(m); });
    svg.append(shape);
  });
  for (const [v, [x, y]] of at) svg.append(svgEl("circle", { cx: x, cy: y, r: 4, class: "node" }));
  board.append(svg, el("div", { class: "note", text: "Click an edge to cut it: everything no longer joined to the ground falls away; whoever cannot cut loses." }));
}

/// Any other kind: its rows (boards) or its notation, and the moves listed beside it.
function drawText(board, t) {
  const rows = t.position.rows || t.position_text.split(/[|;\n]/);
  board.append(el("pre", { class: "position", text: rows.join("\n") }));
  board.append(el("div", { class: "note", text: `value ${t.grundy === null || t.grundy === undefined ? "—" : JSON.stringify(t.grundy)}, outcome ${t.outcome}: pick a move from the list` }));
}

$("play-new").addEventListener("click", () => newGame());
$("play-undo").addEventListener("click", undo);
$("play-hint").addEventListener("click", () => {
  if (!P.turn) return;
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

function plot(values, p) {
  const cv = $("ex-plot"), ctx = cv.getContext("2d");
  const W = cv.width, H = cv.height, L = 44, R = 12, T = 14, B = 30;
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
  for (const v of [0, Math.round(max / 2), max]) ctx.fillText(String(v), L - 6, Y(v) + 4);
  ctx.textAlign = "center";
  for (let k = 0; k <= 5; k++) { const i = Math.round((n - 1) * k / 5); ctx.fillText(String(i), X(i), H - B + 16); }
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
