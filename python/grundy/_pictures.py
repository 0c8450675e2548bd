"""Rendering for notebooks: the ``_repr_html_`` of every result, as small HTML and inline SVG.

Only rendering: every number, value and vertex place comes from the library (a graph's places
from ``grundy::picture::drawing``, the very layout the web page and the terminal game draw;
value plots from ``grundy::plot``). Every text taken from a result is escaped, and every
picture stays small: at most :data:`MAX_HTML` characters (long lists and tables are cut, with
the cut said).
"""

from __future__ import annotations

import html
import json
from fractions import Fraction
from typing import Any, Dict, Iterable, List, Optional, Sequence

from . import _grundy

__all__ = ["MAX_HTML", "value_text", "table", "graph_svg", "board_svg", "stones_svg", "report_html"]

#: The most characters one ``_repr_html_`` returns.
MAX_HTML = 200_000
#: The most rows (and columns) a table shows.
MAX_ROWS = 40
#: The most moves listed.
MAX_MOVES = 12

_STYLE = "font-family:sans-serif;font-size:13px"


def _e(x: Any) -> str:
    return html.escape(str(x), quote=True)


def value_text(v: Any) -> str:
    """A value as every front end writes it: ``*3`` for a nimber (``0`` for zero), ``∞(1)`` / ``∞`` for a loopy
    value, ``7/8`` for a fraction, ``—`` for none."""
    if v is None:
        return "—"
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, int):
        return f"*{v}" if v else "0"
    if isinstance(v, dict) and "infinite" in v:
        k = v["infinite"]
        return "∞" if not k else "∞(" + ",".join(str(x) for x in k) + ")"
    if isinstance(v, Fraction):
        return str(v)
    return str(v)


def _cell(v: Any) -> str:
    if isinstance(v, (list, dict)):
        text = json.dumps(v, ensure_ascii=False)
    else:
        text = "" if v is None else str(v)
    return _e(text if len(text) <= 200 else text[:197] + "...")


def table(
    rows: Sequence[Sequence[Any]],
    header: Optional[Sequence[Any]] = None,
    caption: str = "",
    row_names: Optional[Sequence[Any]] = None,
) -> str:
    """An HTML table of at most :data:`MAX_ROWS` rows and columns, every cell escaped."""
    out = [f"<table style='{_STYLE};border-collapse:collapse'>"]
    if caption:
        out.append(f"<caption style='text-align:left'>{_e(caption)}</caption>")
    cut_cols = header is not None and len(header) > MAX_ROWS
    if header is not None:
        hs = list(header)[:MAX_ROWS]
        corner = "<th></th>" if row_names is not None else ""
        out.append("<tr>" + corner + "".join(f"<th>{_cell(h)}</th>" for h in hs)
                   + ("<th>…</th>" if cut_cols else "") + "</tr>")
    for i, row in enumerate(rows):
        if i == MAX_ROWS:
            out.append(f"<tr><td colspan='{MAX_ROWS + 1}'>… {len(rows) - MAX_ROWS} more rows</td></tr>")
            break
        name = f"<th>{_cell(row_names[i])}</th>" if row_names is not None else ""
        cells = list(row)
        more = "<td>…</td>" if len(cells) > MAX_ROWS else ""
        out.append("<tr>" + name + "".join(
            f"<td style='padding:1px 6px;text-align:right'>{_cell(c)}</td>" for c in cells[:MAX_ROWS]
        ) + more + "</tr>")
    out.append("</table>")
    return "".join(out)


def fields(data: Dict[str, Any], caption: str) -> str:
    """A result's fields as a two-column table (long values cut)."""
    return table([[k, v] for k, v in data.items()], caption=caption)


def graph_svg(
    drawing: Dict[str, Any],
    edges: Iterable[Sequence[Any]],
    directed: bool = False,
    tokens: Iterable[Any] = (),
) -> str:
    """A graph drawn at the library's vertex places (``drawing``: ``{"names", "at"}``), each
    vertex labelled with the name its moves use; a digraph with arrows, its tokens as filled
    vertices (with a count past one)."""
    names = [str(n) for n in drawing["names"]]
    at = drawing["at"]
    index = {n: i for i, n in enumerate(names)}
    if not at:
        return "<svg xmlns='http://www.w3.org/2000/svg' width='20' height='20'></svg>"
    unit = 48.0
    pad = 22.0
    xs = [p[0] for p in at]
    ys = [p[1] for p in at]
    x0, y0 = min(xs), min(ys)
    width = (max(xs) - x0) * unit + 2 * pad
    height = (max(ys) - y0) * unit + 2 * pad

    def place(i: int) -> tuple:
        return ((at[i][0] - x0) * unit + pad, (at[i][1] - y0) * unit + pad)

    counts: Dict[str, int] = {}
    for t in tokens:
        counts[str(t)] = counts.get(str(t), 0) + 1
    out = [
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{width:.0f}' height='{height:.0f}' "
        f"viewBox='0 0 {width:.0f} {height:.0f}' style='{_STYLE}'>",
    ]
    if directed:
        out.append(
            "<defs><marker id='grundy-arrow' viewBox='0 0 10 10' refX='10' refY='5' "
            "markerWidth='6' markerHeight='6' orient='auto-start-reverse'>"
            "<path d='M0,0L10,5L0,10z' fill='#555'/></marker></defs>"
        )
    r = 11.0
    edges = [(str(e[0]), str(e[1])) for e in edges]
    pairs = set(edges)
    for e in edges:
        a, b = index.get(str(e[0])), index.get(str(e[1]))
        if a is None or b is None:
            continue
        (ax, ay), (bx, by) = place(a), place(b)
        if a == b:
            out.append(f"<circle cx='{ax:.1f}' cy='{ay - r - 5:.1f}' r='6' fill='none' stroke='#555'/>")
            continue
        dx, dy = bx - ax, by - ay
        d = max((dx * dx + dy * dy) ** 0.5, 1e-9)
        marker = " marker-end='url(#grundy-arrow)'" if directed else ""
        # An edge that would cross another vertex, or that has its reverse (a -> b, b -> a),
        # bends to its right side, so that no two edges are drawn on one line.
        bend = (directed and (str(e[1]), str(e[0])) in pairs) or any(
            _near((ax, ay), (bx, by), place(i), r + 2) for i in range(len(names)) if i not in (a, b)
        )
        if not bend:
            sx, sy = ax + dx / d * r, ay + dy / d * r
            ex, ey = bx - dx / d * r, by - dy / d * r
            out.append(f"<line x1='{sx:.1f}' y1='{sy:.1f}' x2='{ex:.1f}' y2='{ey:.1f}' "
                       f"stroke='#555'{marker}/>")
            continue
        off = 14 + 0.2 * d
        cx, cy = (ax + bx) / 2 - dy / d * off, (ay + by) / 2 + dx / d * off
        # Start and end on the circles, towards the control point.
        def edge_point(px: float, py: float) -> tuple:
            ux, uy = cx - px, cy - py
            n = max((ux * ux + uy * uy) ** 0.5, 1e-9)
            return px + ux / n * r, py + uy / n * r

        (sx, sy), (ex, ey) = edge_point(ax, ay), edge_point(bx, by)
        out.append(f"<path d='M{sx:.1f},{sy:.1f} Q{cx:.1f},{cy:.1f} {ex:.1f},{ey:.1f}' "
                   f"fill='none' stroke='#555'{marker}/>")
    for i, n in enumerate(names):
        x, y = place(i)
        k = counts.get(n, 0)
        fill = "#2a6fdb" if k else "#fff"
        ink = "#fff" if k else "#000"
        out.append(f"<circle cx='{x:.1f}' cy='{y:.1f}' r='{r}' fill='{fill}' stroke='#333'/>")
        label = n if len(n) <= 4 else n[:3] + "…"
        out.append(f"<text x='{x:.1f}' y='{y + 4:.1f}' text-anchor='middle' font-size='11' "
                   f"fill='{ink}'>{_e(label)}</text>")
        if k > 1:
            out.append(f"<text x='{x + r:.1f}' y='{y - r:.1f}' font-size='10'>×{k}</text>")
    out.append("</svg>")
    return "".join(out)


def _near(p: tuple, q: tuple, c: tuple, dist: float) -> bool:
    """True when the point ``c`` lies within ``dist`` of the segment ``p``–``q``."""
    (px, py), (qx, qy), (cx, cy) = p, q, c
    vx, vy = qx - px, qy - py
    n = vx * vx + vy * vy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((cx - px) * vx + (cy - py) * vy) / n))
    x, y = px + t * vx - cx, py + t * vy - cy
    return x * x + y * y < dist * dist


def board_svg(rows: Sequence[str]) -> str:
    """A board of cells (``.`` empty, ``#`` filled; a stone letter drawn as it is)."""
    rows = list(rows)[:MAX_ROWS]
    cell = 22
    w = max((len(r) for r in rows), default=0)
    width, height = w * cell + 2, len(rows) * cell + 2
    out = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' style='{_STYLE}'>"]
    for i, row in enumerate(rows):
        for j, c in enumerate(row[:MAX_ROWS]):
            fill = "#444" if c == "#" else "#f4f1e8"
            out.append(f"<rect x='{j * cell + 1}' y='{i * cell + 1}' width='{cell}' height='{cell}' "
                       f"fill='{fill}' stroke='#999'/>")
            if c not in ".#":
                out.append(f"<text x='{j * cell + 12}' y='{i * cell + 16}' text-anchor='middle'>{_e(c)}</text>")
    out.append("</svg>")
    return "".join(out)


def stones_svg(drawing: Dict[str, Any]) -> str:
    """A board of stones (Clobber, NoGo) as the web page draws it, from the library's drawing
    (``{"names", "at", "stones"}``: each point's place and what stands on it): wood, the lines
    joining neighbouring points, ``x`` a black stone, ``o`` a white one, ``#`` off the board."""
    at = [(int(c), int(r)) for c, r in drawing["at"]]
    what = {(r, c): str(w) for (c, r), w in zip(at, drawing["stones"])}
    cols = max((c for c, _ in at), default=-1) + 1
    rows = max((r for _, r in at), default=-1) + 1
    s, m = 26, 16
    X = lambda c: m + c * s + s // 2  # noqa: E731
    Y = lambda r: m + r * s + s // 2  # noqa: E731

    def on(r: int, c: int) -> bool:
        return what.get((r, c), "#") != "#"

    out = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{cols * s + m + 2}' "
           f"height='{rows * s + m + 2}' style='{_STYLE}'>",
           f"<rect x='{m}' y='{m}' width='{cols * s}' height='{rows * s}' rx='5' fill='#e3c48f' stroke='#b08d55'/>"]
    for c in range(cols):
        out.append(f"<text x='{X(c)}' y='{m - 4}' text-anchor='middle' font-size='10'>{c}</text>")
    for r in range(rows):
        out.append(f"<text x='{m // 2}' y='{Y(r) + 4}' text-anchor='middle' font-size='10'>{r}</text>")
    for (r, c) in sorted(what):
        if not on(r, c):
            continue
        for (r2, c2) in ((r, c + 1), (r + 1, c)):
            if on(r2, c2):
                out.append(f"<line x1='{X(c)}' y1='{Y(r)}' x2='{X(c2)}' y2='{Y(r2)}' stroke='#6b5530' stroke-width='1.5'/>")
    for (r, c), w in sorted(what.items()):
        if w == "#":
            out.append(f"<rect x='{X(c) - s // 2 + 1}' y='{Y(r) - s // 2 + 1}' width='{s - 2}' "
                       f"height='{s - 2}' rx='3' fill='#4b5563'/>")
        elif w in ("x", "o"):
            fill, stroke = ("#1d1d1d", "#000") if w == "x" else ("#fbfbf8", "#444")
            out.append(f"<circle cx='{X(c)}' cy='{Y(r)}' r='{s * 0.4:.1f}' fill='{fill}' stroke='{stroke}' "
                       f"class='stone-{w}'/>")
    out.append("</svg>")
    return "".join(out)


def heaps_svg(heaps: Sequence[Any]) -> Optional[str]:
    """Heaps as bars of counters (small heaps only; large ones are their numbers)."""
    sizes = [int(h) for h in heaps if isinstance(h, int) or str(h).isdigit()]
    if not sizes or len(sizes) > 16 or max(sizes) > 30:
        return None
    c = 12
    width = max(max(sizes), 1) * c + 60
    height = len(sizes) * (c + 4) + 4
    out = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' style='{_STYLE}'>"]
    for i, n in enumerate(sizes):
        y = i * (c + 4) + 2
        out.append(f"<text x='0' y='{y + 10}' font-size='11'>{i}: {n}</text>")
        for j in range(n):
            out.append(f"<circle cx='{48 + j * c + c / 2}' cy='{y + c / 2}' r='{c / 2 - 1}' fill='#c98b2b'/>")
    out.append("</svg>")
    return "".join(out)


def position_picture(game: str, position: Dict[str, Any]) -> Optional[str]:
    """The picture of a tagged position, as the web page draws it: a graph at the library's
    vertex places, a board of stones as stones, a board's cells, heaps as counters; ``None``
    when its text is the picture."""
    kind = position.get("kind")
    if kind in ("graph", "digraph"):
        try:
            d = _grundy.picture_drawing(game, str(position.get("text", "")))
        except Exception:
            return None
        if d is None:
            return None
        return graph_svg(json.loads(d), position.get("edges", []), kind == "digraph",
                         position.get("tokens", []))
    if kind == "stones":
        try:
            d = _grundy.picture_drawing(game, str(position.get("text", "")))
        except Exception:
            d = None
        if d is not None:
            return stones_svg(json.loads(d))
    if kind in ("board", "stones", "walls") and isinstance(position.get("rows"), list):
        return board_svg(position["rows"])
    if kind == "heaps":
        return heaps_svg(position.get("heaps", []))
    return None


def moves_list(moves: Sequence[Any], caption: str, valued: bool = False) -> str:
    """Moves as a short list (the first :data:`MAX_MOVES`, with a count of the rest); with
    ``valued``, each with the outcome and value of the position it leaves."""
    if not moves:
        return f"<div>{_e(caption)}: none</div>"
    items = []
    for m in list(moves)[:MAX_MOVES]:
        d = m if isinstance(m, dict) else m.to_dict() if hasattr(m, "to_dict") else {"text": str(m)}
        text = str(d.get("text", d.get("short", "")))
        if valued and "outcome" in d:
            text += f" → {d['outcome']}"
            if d.get("grundy") is not None:
                text += f", {value_text(d['grundy'])}"
        items.append(f"<li>{_e(text)}</li>")
    more = f"<li>… {len(moves) - MAX_MOVES} more</li>" if len(moves) > MAX_MOVES else ""
    return f"<div>{_e(caption)} ({len(moves)}):<ul style='margin:2px 0'>{''.join(items)}{more}</ul></div>"


def report_html(d: Dict[str, Any], title: str = "") -> str:
    """A catalogue report (or a play turn): the position drawn, outcome and value, the
    winning moves, the explanation's first lines."""
    game = str(d.get("game", ""))
    pos = d.get("position") if isinstance(d.get("position"), dict) else {}
    text = pos.get("text", d.get("position_text", ""))
    play = " (misère)" if d.get("misere") else ""
    head = (f"<div><b>{_e(title or game)}</b>{_e(play)} <code>{_e(_cut(str(text), 300))}</code>: "
            f"outcome <b>{_e(d.get('outcome', '?'))}</b>")
    if "grundy" in d and d["grundy"] is not None:
        head += f", value <b>{_e(value_text(d['grundy']))}</b>"
    head += "</div>"
    parts = [head]
    pic = position_picture(game, pos) if pos else None
    if pic:
        parts.append(pic)
    if "winning_moves" in d:
        parts.append(moves_list(d["winning_moves"], "winning moves"))
    if d.get("all_moves"):
        parts.append(moves_list(d["all_moves"], "every move", valued=True))
    if d.get("drawing_moves"):
        parts.append(moves_list(d["drawing_moves"], "moves that keep the draw"))
    expl = d.get("explanation")
    if isinstance(expl, list) and expl:
        lines = "\n".join(_e(_cut(str(x), 400)) for x in expl[:8])
        more = f"\n… {len(expl) - 8} more lines" if len(expl) > 8 else ""
        parts.append(f"<pre style='color:#444;margin:4px 0;white-space:pre-wrap'>{lines}{more}</pre>")
    elif isinstance(expl, str) and expl:
        parts.append(f"<pre style='color:#444;margin:4px 0;white-space:pre-wrap'>{_e(_cut(expl, 800))}</pre>")
    return fit(f"<div style='{_STYLE}'>" + "".join(parts) + "</div>")


def _cut(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def fit(page: str) -> str:
    """``page`` if it is at most :data:`MAX_HTML` characters, else a short note saying so (a
    picture is never cut in the middle of a tag)."""
    if len(page) <= MAX_HTML:
        return page
    return f"<div style='{_STYLE}'>(a picture of {len(page)} characters, too large to show)</div>"


def plot_svg(game: str, misere: bool, side: Optional[int], cells: List[tuple]) -> str:
    """The library's plot of values (``grundy::plot``) as inline SVG text."""
    svg = _grundy.plot_values(game, misere, side, cells, "svg")
    return svg.decode("utf-8") if isinstance(svg, (bytes, bytearray)) else str(svg)
