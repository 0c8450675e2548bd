"""Browser tests of `grundy serve` in headless Chromium (run by scripts/test-browser).

Starts the server on a free loopback port, then: loads the page, wins a Nim game as the
first player by following the hint button, loses one as the second player from a
P-position (every hint says "every move loses"), plays Node Kayles, Arc Kayles, Cram and
tokens on a digraph to the end by clicks on their drawings, and Clobber, Cannibal Clobber
and NoGo on their boards of stones at 1280 px and at 390 px (a click on two stones that are
no capture, or on a taken point, answers the library's one-line reason), opens every game of
`/api/games` at 1280 px and at a phone's 390 px and checks each play view (no horizontal
overflow, no control under 32 px high, no raw JSON or Markdown in the visible text),
computes Kayles and checks the period the page shows and plots, races HHH against THH on a
coin and checks the exact odds, runs a script with a syntax error and checks the line shown
(when the server has scripts), and fails on any JavaScript error in the console.
Screenshots of each view go to target/browser/ (every game's play view as
game-WIDTH-NAME.png).
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError as e:  # checked in main(): the tests are skipped with the reason
    webdriver = None
    SELENIUM_MISSING = str(e)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "target", "browser")
BIN = os.environ.get("GRUNDY_BIN", os.path.join(ROOT, "target", "debug", "grundy"))
passed = []


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def start_server():
    p = subprocess.Popen([BIN, "serve", "--addr", "127.0.0.1:0"], stderr=subprocess.PIPE, text=True)
    line = p.stderr.readline()
    m = re.search(r"http://(127\.0\.0\.1:\d+)/", line)
    check(m, "server did not say where it listens: %r" % line)
    return p, "http://" + m.group(1)


def browser():
    o = webdriver.ChromeOptions()
    o.binary_location = CHROMIUM
    for a in ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
              "--disable-background-networking", "--disable-component-update", "--disable-sync",
              "--disable-dev-shm-usage", "--window-size=1280,1000",
              "--user-data-dir=" + tempfile.mkdtemp(prefix="grundy-chromium-")]:
        o.add_argument(a)
    o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=o)


def shot(d, name):
    d.save_screenshot(os.path.join(OUT, name + ".png"))


def status(d):
    return d.find_element(By.ID, "play-status")


def wait_turn(d):
    """Waits until it is your move or the game is over; returns the status text."""
    WebDriverWait(d, 20).until(lambda d: "Your move" in status(d).text or status(d).get_attribute("data-winner"))
    return status(d).text


def new_game(d, game, position, first, rule=None):
    d.find_element(By.ID, "tab-play").click()
    Select(d.find_element(By.ID, "play-game")).select_by_value(game)
    if rule is not None:
        r = d.find_element(By.ID, "play-rule")
        r.clear()
        r.send_keys(rule)
    pos = d.find_element(By.ID, "play-position")
    pos.clear()
    pos.send_keys(position)
    Select(d.find_element(By.ID, "play-first")).select_by_value(first)
    d.find_element(By.ID, "play-new").click()


def play_with_hints(d):
    """Plays your moves by the hint until the game ends; returns (winner, hints seen)."""
    hints = []
    for _ in range(100):
        wait_turn(d)
        if status(d).get_attribute("data-winner"):
            return status(d).get_attribute("data-winner"), hints
        d.find_element(By.ID, "play-hint").click()
        hint = d.find_element(By.ID, "play-hint-text").text
        hints.append(hint)
        marked = d.find_elements(By.CSS_SELECTOR, "#play-moves button.primary")
        button = marked[0] if marked else d.find_elements(By.CSS_SELECTOR, "#play-moves button")[0]
        if marked:
            check(hint == "Hint: " + button.text, "hint %r is not the marked move %r" % (hint, button.text))
        played = len(d.find_elements(By.CSS_SELECTOR, "#play-log li"))
        button.click()
        # Your move and the engine's reply are logged (or the game is over).
        WebDriverWait(d, 30).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#play-log li")) >= played + 2
                                   or status(d).get_attribute("data-winner"))
    raise AssertionError("the game did not end")


def test_page(d, url):
    d.get(url)
    check("grundy" in d.title, "title: %r" % d.title)
    WebDriverWait(d, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#play-board .token"))
    passed.append("page loads")


def test_nim_win(d):
    new_game(d, "nim", "3 4 5", "you")
    WebDriverWait(d, 30).until(lambda d: "Your move" in status(d).text)
    d.find_element(By.ID, "play-why").click()
    why = d.find_element(By.ID, "play-why-box").text
    check("nim-sum" in why and "010" in why, "why shows the nim-sum in binary: %r" % why)
    d.find_element(By.ID, "play-hint").click()
    shot(d, "play-nim")
    winner, hints = play_with_hints(d)
    check(winner == "you", "following the hints from 3 4 5 should win, got %r" % winner)
    check(all("every move loses" not in h for h in hints), "a hint said every move loses: %r" % hints)
    check("You win" in status(d).text, status(d).text)
    # The log holds every move, the engine's too.
    log = [li.text for li in d.find_elements(By.CSS_SELECTOR, "#play-log li")]
    check(len(log) == 2 * len(hints) - 1, "log %r, hints %r" % (log, hints))
    shot(d, "play-nim-won")
    passed.append("Nim won as first player with %d hints" % len(hints))


def test_nim_lose(d):
    # The engine moves first from 1 4 6 (nim-sum 3) to a P-position: you, second, lose.
    new_game(d, "nim", "1 4 6", "engine")
    winner, hints = play_with_hints(d)
    check(winner == "engine", "the second player from a P-position should lose, got %r" % winner)
    check(hints and all(h == "Hint: every move loses" for h in hints), "hints: %r" % hints)
    check("The engine wins" in status(d).text, status(d).text)
    # Undo goes back to your previous move.
    before = len(d.find_elements(By.CSS_SELECTOR, "#play-log li"))
    d.find_element(By.ID, "play-undo").click()
    WebDriverWait(d, 30).until(lambda d: "Your move" in status(d).text)
    after = len(d.find_elements(By.CSS_SELECTOR, "#play-log li"))
    check(after == before - 2, "undo: %d log lines before, %d after" % (before, after))
    passed.append("Nim lost as second player from a P-position (%d hints: every move loses), undo" % len(hints))


def test_boards(d):
    for game, pos, name in [("wythoff", "6 9", "play-wythoff"), ("chomp", "4x6", "play-chomp")]:
        new_game(d, game, pos, "you")
        WebDriverWait(d, 30).until(lambda d: "Your move" in status(d).text)
        cells = d.find_elements(By.CSS_SELECTOR, "#play-board .cell")
        check(len(cells) > 10, "%s board has %d cells" % (game, len(cells)))
        shot(d, name)
    # A Chomp bite is found by the server's `at` cell: biting (1, 1) leaves rows 4 1 1 1 1 1.
    new_game(d, "chomp", "2x3", "you")
    WebDriverWait(d, 30).until(lambda d: "Your move" in status(d).text)
    d.find_element(By.CSS_SELECTOR, "#play-board .cell.choc[title='bite at (1, 1)']").click()
    WebDriverWait(d, 30).until(lambda d: "bite at row 1, column 1" in d.find_element(By.ID, "play-log").text)
    # Green Hackenbush drawn as a picture: a triangle on a stalk, one clickable edge each.
    new_game(d, "hackenbush", "0-1,1-2,2-3,3-1", "you")
    WebDriverWait(d, 30).until(lambda d: "Your move" in status(d).text)
    stalks = d.find_elements(By.CSS_SELECTOR, "#play-board svg.hackenbush .stalk.cut")
    check(len(stalks) == 4, "hackenbush draws %d clickable edges, not 4" % len(stalks))
    shot(d, "play-hackenbush")
    d.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", stalks[0])
    WebDriverWait(d, 30).until(lambda d: "cut edge 0 (0-1)" in d.find_element(By.ID, "play-log").text)
    passed.append("Wythoff, Chomp and Hackenbush boards drawn and played by clicks")


def svg_click(d, e):
    """Clicks an SVG element (selenium's click needs an HTML element's box)."""
    d.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", e)


def play_by_clicks(d, click_once, what):
    """Plays your moves with `click_once(d)` (one move on the drawing) until the game ends;
    returns (winner, moves you played)."""
    mine = 0
    for _ in range(80):
        wait_turn(d)
        winner = status(d).get_attribute("data-winner")
        if winner:
            moves = d.find_elements(By.CSS_SELECTOR, "#play-moves button")
            check(not moves, "%s: %d moves still offered after the game" % (what, len(moves)))
            return winner, mine
        played = len(d.find_elements(By.CSS_SELECTOR, "#play-log li"))
        click_once(d)
        mine += 1
        WebDriverWait(d, 30).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#play-log li")) > played)
    raise AssertionError("%s: the game did not end" % what)


def click_vertex(d):
    """Node Kayles: the hinted vertex when there is one, else the first that is a move."""
    d.find_element(By.ID, "play-hint").click()
    hint = d.find_element(By.ID, "play-hint-text").text
    m = re.search(r"take vertex (\d+)", hint)
    sel = "#play-board svg.graph .vertex.move" + ("[data-vertex='%s']" % m.group(1) if m else "")
    svg_click(d, d.find_elements(By.CSS_SELECTOR, sel)[0])


def click_edge(d):
    svg_click(d, d.find_elements(By.CSS_SELECTOR, "#play-board svg.graph .edge.move")[0])


def click_domino(d):
    """Cram: a free cell, then the first cell marked as completing a domino with it."""
    svg_click(d, d.find_elements(By.CSS_SELECTOR, "#play-board svg.cram .sq.free")[0])
    partner = WebDriverWait(d, 5).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#play-board svg.cram .sq.partner"))
    svg_click(d, partner[0])


def click_token_move(d):
    svg_click(d, d.find_elements(By.CSS_SELECTOR, "#play-board svg.digraph .vertex.move")[0])


def test_drawn_games(d):
    """Node Kayles, Arc Kayles, Cram and tokens on a digraph, played to the end by clicks on
    the drawing; the graphs are drawn with their numbered vertices."""
    new_game(d, "node-kayles", "grid:3x4", "you")
    wait_turn(d)
    labels = sorted(int(t.text) for t in d.find_elements(By.CSS_SELECTOR, "#play-board svg.graph .vertex text"))
    check(labels == list(range(12)), "node-kayles grid:3x4 vertex labels %r" % labels)
    shot(d, "play-node-kayles")
    # grid:3x4 is a P-position: the engine opens, and the hinted vertices win from there.
    new_game(d, "node-kayles", "grid:3x4", "engine")
    winner, n = play_by_clicks(d, click_vertex, "node-kayles")
    check(winner == "you", "Node Kayles grid:3x4 by the hinted vertices: %r won" % winner)
    shot(d, "play-node-kayles-won")
    new_game(d, "arc-kayles", "cycle:7", "you")
    wait_turn(d)
    check(len(d.find_elements(By.CSS_SELECTOR, "#play-board svg.graph .edge")) == 7, "cycle:7 draws 7 edges")
    shot(d, "play-arc-kayles")
    winner_a, a = play_by_clicks(d, click_edge, "arc-kayles")
    new_game(d, "cram", "3x4", "you")
    wait_turn(d)
    check(len(d.find_elements(By.CSS_SELECTOR, "#play-board svg.cram .sq")) == 12, "cram 3x4 draws 12 cells")
    winner_c, c = play_by_clicks(d, click_domino, "cram")
    dominoes = len(d.find_elements(By.CSS_SELECTOR, "#play-board svg.cram .domino"))
    check(dominoes >= 2 * c - 1, "cram: %d dominoes drawn after %d of yours" % (dominoes, c))
    shot(d, "play-cram-over")
    new_game(d, "digraph", "a b; b c; a c; c d; @ a b", "you")
    wait_turn(d)
    check(len(d.find_elements(By.CSS_SELECTOR, "#play-board svg.digraph path.arrow")) == 4, "digraph: 4 arrows")
    shot(d, "play-digraph")
    winner_g, g = play_by_clicks(d, click_token_move, "digraph")
    passed.append("played to the end by clicks: Node Kayles (won in %d moves), Arc Kayles (%s, %d), "
                  "Cram (%s, %d), digraph tokens (%s, %d)" % (n, winner_a, a, winner_c, c, winner_g, g))


STONES = "#play-board svg.stones"


def click_capture(d):
    """Clobber: the first stone marked as able to capture, then the first stone marked as one
    it captures."""
    svg_click(d, d.find_elements(By.CSS_SELECTOR, STONES + " .point.live")[0])
    partner = WebDriverWait(d, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, STONES + " .point.partner"))
    svg_click(d, partner[0])


def click_placement(d):
    """NoGo: the colour that has a legal point (x first, else o), then its first such point."""
    for colour in ("x", "o"):
        svg_click(d, d.find_element(By.CSS_SELECTOR, "#play-board button[data-stone='%s']" % colour))
        WebDriverWait(d, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#play-board button[data-stone='%s'].primary" % colour))
        live = d.find_elements(By.CSS_SELECTOR, STONES + " .point.live")
        if live:
            svg_click(d, live[0])
            return
    raise AssertionError("nogo: no point marked for either colour while moves are listed")


def wait_stones(d, points, stones):
    """Waits until the new game's board is drawn: `points` points on the board, `stones` of
    them holding a stone (the last game's board and status stay until the new one loads)."""
    def drawn(d):
        p = len(d.find_elements(By.CSS_SELECTOR, STONES + " .point"))
        s = len(d.find_elements(By.CSS_SELECTOR, STONES + " .stone"))
        return p == points and s == stones and not status(d).get_attribute("data-winner")
    WebDriverWait(d, 30).until(drawn)
    wait_turn(d)


def pick_error(d):
    """The one-line reason shown under the board after clicks that are no move."""
    e = WebDriverWait(d, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#play-board .pick-error"))
    return e[0].text


def test_stones(d):
    """Clobber, Cannibal Clobber and NoGo at 1280 px and 390 px: the board drawn point by
    point (x black, o white, # off the board), clicks that are no move answered by the
    library's one-line reason, each game played to the end by clicks, the moves logged in the
    game's notation."""
    played = []
    for width in (1280, 390):
        d.set_window_size(width, 900)
        try:
            new_game(d, "clobber", "xox|o#o|xox", "you")
            wait_stones(d, 8, 8)
            check(len(d.find_elements(By.CSS_SELECTOR, STONES + " .stone.x")) == 4, "clobber: 4 x stones drawn")
            check(len(d.find_elements(By.CSS_SELECTOR, STONES + " .stone.o")) == 4, "clobber: 4 o stones drawn")
            check(len(d.find_elements(By.CSS_SELECTOR, STONES + " .off")) == 1, "clobber: the # drawn off the board")
            wide = d.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
            check(wide <= 1, "clobber at %d px: the page is %d px too wide" % (width, wide))
            shot(d, "play-clobber-%d" % width)
            # (0, 0) and (2, 2) are no capture: the library says why, in one line.
            svg_click(d, d.find_element(By.CSS_SELECTOR, STONES + " [data-point='0,0']"))
            WebDriverWait(d, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, STONES + " .point.partner"))
            shot(d, "play-clobber-picked-%d" % width)
            svg_click(d, d.find_element(By.CSS_SELECTOR, STONES + " [data-point='2,2']"))
            e = pick_error(d)
            check("cannot capture" in e and "\n" not in e, "clobber: illegal pair said %r" % e)
            shot(d, "play-clobber-illegal-%d" % width)
            winner, n = play_by_clicks(d, click_capture, "clobber")
            log = [li.text for li in d.find_elements(By.CSS_SELECTOR, "#play-log li")]
            check(log and all(re.match(r"(You|Engine): move the [xo] on \(\d, \d\) onto the [xo] on \(\d, \d\), capturing it$", l) for l in log),
                  "clobber: the log is not in the game's notation: %r" % log)
            shot(d, "play-clobber-over-%d" % width)
            new_game(d, "cannibal-clobber", "xxo|oox", "you")
            wait_stones(d, 6, 6)
            winner_k, k = play_by_clicks(d, click_capture, "cannibal-clobber")
            new_game(d, "nogo", "3x3", "you")
            wait_stones(d, 9, 0)
            check(len(d.find_elements(By.CSS_SELECTOR, STONES + " .point")) == 9, "nogo 3x3 draws 9 points")
            check(len(d.find_elements(By.CSS_SELECTOR, "#play-board button[data-stone]")) == 2, "nogo: two colour buttons")
            shot(d, "play-nogo-%d" % width)
            svg_click(d, d.find_element(By.CSS_SELECTOR, "#play-board button[data-stone='o']"))
            WebDriverWait(d, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#play-board button[data-stone='o'].primary"))
            played_before = len(d.find_elements(By.CSS_SELECTOR, "#play-log li"))
            svg_click(d, d.find_element(By.CSS_SELECTOR, STONES + " [data-point='1,1']"))
            WebDriverWait(d, 30).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#play-log li")) > played_before)
            first = d.find_elements(By.CSS_SELECTOR, "#play-log li")[0].text
            check(first == "You: place an o on (1, 1)", "nogo: first move logged as %r" % first)
            wait_turn(d)
            # A taken point is no move.
            if not status(d).get_attribute("data-winner"):
                svg_click(d, d.find_element(By.CSS_SELECTOR, STONES + " [data-point='1,1']"))
                e = pick_error(d)
                check("(1, 1) is taken" in e and "\n" not in e, "nogo: a taken point said %r" % e)
                shot(d, "play-nogo-taken-%d" % width)
            winner_g, g = play_by_clicks(d, click_placement, "nogo")
            log = [li.text for li in d.find_elements(By.CSS_SELECTOR, "#play-log li")]
            check(all(re.match(r"(You|Engine): place an [xo] on \(\d, \d\)$", l) for l in log), "nogo log %r" % log)
            shot(d, "play-nogo-over-%d" % width)
            played.append("%d px: clobber (%s, %d), cannibal clobber (%s, %d), nogo (%s, %d)"
                          % (width, winner, n, winner_k, k, winner_g, g + 1))
        finally:
            d.set_window_size(1280, 1000)
    passed.append("boards of stones drawn, illegal clicks answered in one line, played to the end by clicks: "
                  + "; ".join(played))


# What a play view must not show: raw JSON, Markdown backticks, unrendered values.
RAW = ['{"', "`", '"infinite"', "[object Object]", "undefined", "NaN"]

CHECK_VIEW = """
const out = {overflow: document.documentElement.scrollWidth - window.innerWidth, small: [], board: 0, text: document.body.innerText};
const board = document.getElementById('play-board');
out.board = board.scrollWidth - board.clientWidth;
for (const b of document.querySelectorAll('button, select, input')) {
  const r = b.getBoundingClientRect();
  if (!r.width && !r.height) continue;
  const inBoard = !!b.closest('#play-board');
  const least = inBoard ? 12 : 32;
  if (b.type !== 'checkbox' && r.height < least) out.small.push((b.textContent || b.id || b.className).slice(0, 40) + ' ' + Math.round(r.height) + 'px');
}
for (const e of document.querySelectorAll('#play-board svg .move')) {
  const r = e.getBoundingClientRect();
  if (r.width < 10 && r.height < 10) out.small.push('svg ' + e.getAttribute('class') + ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
}
return out;
"""


def shot_whole(d, name, width):
    """A screenshot of the whole page at this width (the window grown to its height)."""
    h = d.execute_script("return Math.max(document.documentElement.scrollHeight, 600)")
    d.set_window_size(width, min(h + 160, 4000))
    shot(d, name)


def test_every_game(d, url):
    """Every game of /api/games from its example, at 1280 px and 390 px: the play view fits,
    its controls are readable and nothing raw is shown."""
    games = json.load(urllib.request.urlopen(url + "/api/games"))["games"]
    seen = []
    for width in (1280, 390):
        d.set_window_size(width, 900)
        d.get(url)
        WebDriverWait(d, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#play-board .token"))
        for g in games:
            if any(p.get("type") == "file" and not p.get("local") for p in g.get("params", [])):
                continue
            name = g["name"]
            options = [o.get_attribute("value") for o in d.find_elements(By.CSS_SELECTOR, "#play-game option")]
            if name not in options:
                continue
            d.set_window_size(width, 900)
            new_game(d, name, g["example"], "you", g.get("example_game"))
            WebDriverWait(d, 20).until(lambda d: "Your move" in status(d).text or status(d).get_attribute("data-winner")
                                       or "lose" in status(d).get_attribute("class"))
            v = d.execute_script(CHECK_VIEW)
            safe = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
            shot_whole(d, "game-%d-%s" % (width, safe), width)
            check("lose" not in status(d).get_attribute("class") or status(d).get_attribute("data-winner"),
                  "%s at %d px: %s" % (name, width, status(d).text))
            check(v["overflow"] <= 1, "%s at %d px: the page is %d px too wide" % (name, width, v["overflow"]))
            check(v["board"] <= 1, "%s at %d px: the board is %d px too wide for its box" % (name, width, v["board"]))
            check(not v["small"], "%s at %d px: collapsed controls %r" % (name, width, v["small"][:5]))
            raw = [r for r in RAW if r in v["text"]]
            check(not raw, "%s at %d px: raw text %r in %r" % (name, width, raw, v["text"][:400]))
            seen.append(name)
    d.set_window_size(1280, 1000)
    passed.append("every game's play view at 1280 and 390 px fits, no control under 32 px, nothing raw (%d views)" % len(seen))


def fill(d, element_id, text):
    """Replaces the text of the input `element_id`; returns the element."""
    e = d.find_element(By.ID, element_id)
    e.clear()
    e.send_keys(text)
    return e


def test_explore(d):
    d.find_element(By.ID, "tab-explore").click()
    fill(d, "ex-rule", "kayles")
    fill(d, "ex-upto", "300")
    d.find_element(By.ID, "ex-go").click()
    s = d.find_element(By.ID, "ex-summary")
    WebDriverWait(d, 20).until(lambda d: s.get_attribute("data-status"))
    check(s.get_attribute("data-period") == "12", "period: %r" % s.text)
    check(s.get_attribute("data-preperiod") == "71", "preperiod: %r" % s.text)
    check(s.get_attribute("data-status") == "proven", "status: %r" % s.text)
    check("period 12, preperiod 71 — proven" in s.text, s.text)
    inked = d.execute_script(
        "const c = document.getElementById('ex-plot'); const x = c.getContext('2d')"
        ".getImageData(0, 0, c.width, c.height).data; let n = 0;"
        "for (let i = 3; i < x.length; i += 4) if (x[i]) n++; return n;")
    check(inked > 5000, "the plot is empty (%d pixels)" % inked)
    cells = d.find_elements(By.CSS_SELECTOR, "#ex-table td")
    check(len(cells) == 301, "table cells: %d" % len(cells))
    check([c.text for c in cells[:12]] == "0 1 2 3 1 4 3 2 1 4 2 6".split(), "G(0..11) of Kayles")
    shot(d, "explore-kayles")
    # A subtraction set with its period proven by the window argument.
    fill(d, "ex-rule", "sub:1,3,4")
    d.find_element(By.ID, "ex-go").click()
    WebDriverWait(d, 20).until(lambda d: "sub:1,3,4" in s.text)
    check(s.get_attribute("data-period") == "7", "sub:1,3,4 period: %r" % s.text)
    passed.append("Kayles: period 12 from 71, proven, plotted; sub:1,3,4 period 7")
    # The misère quotient of 0.75: Plambeck and Siegel's R_8 = <a, b, c | a^2 = 1, b^3 = b,
    # bc = ab, c^2 = b^2>, P = {a, b^2}, read back from the multiplication table on the page.
    fill(d, "ex-rule", "0.75")
    fill(d, "mq-upto", "12")
    d.find_element(By.ID, "mq-go").click()
    m = d.find_element(By.ID, "mq-summary")
    WebDriverWait(d, 30).until(lambda d: "|Q|" in m.text or "lose" in m.get_attribute("class"))
    check("|Q| = 8, |P| = 2" in m.text, "0.75 quotient: %r" % m.text)
    rows = d.find_elements(By.CSS_SELECTOR, "#mq-table tr")
    heads = [h.text for h in rows[0].find_elements(By.TAG_NAME, "th")][1:]
    check(len(heads) == 8 and len(rows) == 9, "R_8 table: %d × %d" % (len(rows) - 1, len(heads)))
    table = {r.find_element(By.TAG_NAME, "th").text: [c.text for c in r.find_elements(By.TAG_NAME, "td")]
             for r in rows[1:]}
    times = lambda x, y: table[x][heads.index(y)]
    for x, y, want in [("a", "a", "1"), ("b", "c", "ab"), ("c", "c", "b^2"), ("b", "b^2", "b"), ("1", "ac", "ac")]:
        check(times(x, y) == want, "%s·%s = %r, want %s" % (x, y, times(x, y), want))
    marked = {c.text for c in d.find_elements(By.CSS_SELECTOR, "#mq-table td.per")}
    check(marked == {"a", "b^2"}, "cells marked as P: %r" % marked)
    shot(d, "explore-quotient")
    passed.append("0.75's misère quotient R_8 in the Explore table")


def test_penney(d):
    d.find_element(By.ID, "tab-penney").click()
    p = d.find_element(By.ID, "pe-patterns")
    p.clear()
    p.send_keys("HHH,THH")
    d.find_element(By.ID, "pe-go").click()
    WebDriverWait(d, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#pe-table tr[data-pattern]"))
    odds = {r.get_attribute("data-pattern"): r.find_element(By.CSS_SELECTOR, "td.exact").text
            for r in d.find_elements(By.CSS_SELECTOR, "#pe-table tr[data-pattern]")}
    check(odds == {"HHH": "1/8", "THH": "7/8"}, "odds: %r" % odds)
    WebDriverWait(d, 30).until(lambda d: "100,000 simulated" in d.find_element(By.ID, "pe-sim").text
                               or "1,000,000 simulated" in d.find_element(By.ID, "pe-sim").text)
    sim = float(d.find_element(By.ID, "pe-sim-1").text)
    check(abs(sim - 0.875) < 0.01, "simulated THH %r far from 7/8" % sim)
    WebDriverWait(d, 20).until(lambda d: "Best reply" in d.find_element(By.ID, "pe-reply").text)
    check("THH" in d.find_element(By.ID, "pe-reply").text, d.find_element(By.ID, "pe-reply").text)
    shot(d, "penney")
    p.clear()
    p.send_keys("HTH,THH")
    d.find_element(By.ID, "pe-go").click()
    WebDriverWait(d, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#pe-table tr[data-pattern='HTH']"))
    WebDriverWait(d, 20).until(lambda d: "simulated" in d.find_element(By.ID, "pe-sim").text)
    WebDriverWait(d, 20).until(lambda d: "Best reply" in d.find_element(By.ID, "pe-reply").text)
    shot(d, "penney-hth-thh")
    passed.append("Penney: HHH vs THH exactly 1/8 vs 7/8, simulation within 0.01, best reply")


def test_script(d, url):
    try:
        urllib.request.urlopen(urllib.request.Request(url + "/api/script", data=b"{}", method="POST"))
    except urllib.error.HTTPError as e:
        if e.code in (404, 405):
            print("test-browser: the server has no /api/script; script test skipped")
            return
    d.find_element(By.ID, "tab-script").click()
    src = d.find_element(By.ID, "sc-source")
    src.clear()
    src.send_keys("-- a broken game\nfunction moves(n)\n  return {n - 1\nend\n")
    d.find_element(By.ID, "sc-run").click()
    err = d.find_element(By.ID, "sc-error")
    WebDriverWait(d, 20).until(lambda d: err.text)
    line = err.get_attribute("data-line")
    check(line in ("3", "4"), "error line %r: %r" % (line, err.text))
    bad = d.find_elements(By.CSS_SELECTOR, "#sc-lines .bad")
    check(len(bad) == 1 and bad[0].text == line, "the gutter marks line %s" % line)
    shot(d, "script-error")
    passed.append("script syntax error shown at line %s" % line)


def test_phone(d, url):
    """At a phone's width (390 px): no view is wider than the screen, the tab bar fits or
    scrolls inside itself, and a game of every kind can still be started."""
    d.set_window_size(390, 844)
    try:
        d.get(url)
        WebDriverWait(d, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#play-board .token"))
        inner = d.execute_script("return window.innerWidth")
        for tab in ["play", "explore", "penney", "script"]:
            d.find_element(By.ID, "tab-" + tab).click()
            wide = d.execute_script("return document.documentElement.scrollWidth")
            check(wide <= inner + 1, "the %s view is %d px wide at a %d px viewport" % (tab, wide, inner))
            shot(d, "phone-" + tab)
        d.find_element(By.ID, "tab-play").click()
        new_game(d, "node-kayles", "grid:3x4", "you")
        WebDriverWait(d, 30).until(lambda d: "Your move" in status(d).text)
        check(d.find_elements(By.CSS_SELECTOR, "#play-moves button"), "node-kayles lists its moves")
        shot(d, "phone-node-kayles")
        passed.append("at 390 px wide every view fits (viewport %d px) and Node Kayles plays" % inner)
    finally:
        d.set_window_size(1280, 1000)


def test_tutor(d):
    """A move that throws a win away gets the tutor's note with the winning move."""
    new_game(d, "nim", "3 4 5", "you")
    WebDriverWait(d, 30).until(lambda d: "Your move" in status(d).text)
    losing = [b for b in d.find_elements(By.CSS_SELECTOR, "#play-moves button")
              if "take 2 from the heap of 3" not in b.text]
    losing[0].click()
    note = d.find_element(By.ID, "play-tutor-text")
    WebDriverWait(d, 30).until(lambda d: "Tutor:" in note.text)
    check("winning move was" in note.text, "tutor: %r" % note.text)
    passed.append("the tutor names the winning move after a losing one")


def console_errors(d):
    errors = [e for e in d.get_log("browser") if e["level"] == "SEVERE" and e.get("source") != "network"]
    check(not errors, "console errors: %s" % json.dumps(errors, indent=1))
    passed.append("no console errors")


def missing():
    """Why the browser tests cannot run here (None when they can): no selenium, no Chromium
    or no chromedriver."""
    if webdriver is None:
        return "selenium is not installed (%s)" % SELENIUM_MISSING
    for what, path in [("Chromium", CHROMIUM), ("chromedriver", CHROMEDRIVER)]:
        if not os.access(path, os.X_OK):
            return "%s is not at %s" % (what, path)
    if not os.access(BIN, os.X_OK):
        return "no grundy binary at %s (cargo build -p grundy-cli)" % BIN
    return None


def main():
    why = missing()
    if why:
        print("test-browser: SKIPPED: %s" % why, flush=True)
        return 0
    os.makedirs(OUT, exist_ok=True)
    server, url = start_server()
    d = None
    try:
        d = browser()
        for name, test in [("page", lambda: test_page(d, url)), ("nim win", lambda: test_nim_win(d)),
                           ("nim lose", lambda: test_nim_lose(d)), ("boards", lambda: test_boards(d)),
                           ("drawn games", lambda: test_drawn_games(d)), ("stones", lambda: test_stones(d)),
                           ("every game", lambda: test_every_game(d, url)),
                           ("explore", lambda: test_explore(d)), ("penney", lambda: test_penney(d)),
                           ("script", lambda: test_script(d, url)), ("tutor", lambda: test_tutor(d)),
                           ("phone", lambda: test_phone(d, url)), ("console", lambda: console_errors(d))]:
            print("test-browser:", name, "…", flush=True)
            test()
    except Exception:
        if d is not None:
            shot(d, "failure")
        raise
    finally:
        if d is not None:
            d.quit()
        server.terminate()
        server.wait()
    for p in passed:
        print("test-browser: ok:", p)
    print("test-browser: %d checks passed; screenshots in %s" % (len(passed), OUT))


if __name__ == "__main__":
    sys.exit(main())
