//! `grundy play`: a full-screen terminal game against the engine (ratatui + crossterm).
//!
//! Everything the screen shows comes from [`grundy::play`]: the legal moves, the hint, the
//! explanation, the engine's reply, undo and the winner. This crate only draws and reads keys:
//! arrows pick a move (marked on the picture) and Enter plays it; a typed position (the
//! position after your move, e.g. `3 4 1`) and Enter plays that; `h` hint, `w` why, `u` undo,
//! `q` (or Esc, or Ctrl-C) quits. On a board of stones (Clobber, NoGo) the arrows move a
//! cursor over the board and Enter (or space) clicks the point under it, as the web page's
//! clicks: the library ([`grundy::picture::pick`]) answers the move, the stones a picked stone
//! captures, or why not; `x` and `o` choose the colour NoGo places (PgUp/PgDn pick in the
//! list). Positions are drawn by their kind (`picture.rs`, the
//! vertices where the library's `grundy::picture` places them): graphs and tokens on directed
//! graphs in braille lines, Cram boards with their dominoes, boards of stones, coins, stalks.
//! The terminal is restored on every way out: `q`, Ctrl-C, an error, and a panic (a hook
//! restores it before the panic message is printed).

#![forbid(unsafe_code)]

mod picture;

use std::io::{self, IsTerminal, Stdout};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use crossterm::{cursor, execute};
use grundy::play::{value_text, Game, Player, Session, Turn};
use grundy::Outcome;
use picture::{Cursor, View};
use ratatui::backend::CrosstermBackend;
use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, List, ListItem, ListState, Paragraph, Wrap};
use ratatui::{Frame, Terminal};

/// Why `grundy play` could not run: a one-line message and the exit code (2: bad input or no
/// terminal, 1: a terminal failure).
#[derive(Debug)]
pub struct PlayFailure {
    /// Exit code for the CLI.
    pub code: i32,
    /// The message, one line.
    pub message: String,
}

fn fail(code: i32, message: impl Into<String>) -> PlayFailure {
    PlayFailure {
        code,
        message: message.into(),
    }
}

/// Plays `game` from `position` in the terminal; `first` is who moves first (None: ask).
///
/// `stop` is the caller's signal flag (SIGTERM, SIGHUP): the game checks it a few times a
/// second and quits, restoring the terminal, once it is set. A closed terminal (its window
/// shut, its tmux session killed) raises SIGHUP, so the game never outlives its terminal.
pub fn run(
    game: &str,
    position: &str,
    first: Option<Player>,
    tutor: bool,
    stop: &AtomicBool,
) -> Result<(), PlayFailure> {
    if !io::stdout().is_terminal() || !io::stdin().is_terminal() {
        return Err(fail(
            2,
            "grundy play needs a terminal (stdin and stdout); for answers in text or JSON use \
             `grundy nim`, `grundy heap …` and the other commands",
        ));
    }
    let game = Game::new(game, position).map_err(|e| fail(2, e.to_string()))?;
    run_game(game, first, tutor, stop)
}

/// Plays a game already built (a Lua script game from [`Game::script`], say); `stop` as in
/// [`run`]. With `tutor`, a move that throws a win away is pointed out with the move that
/// would have won (`t` turns it on and off during the game).
pub fn run_game(
    game: Game,
    first: Option<Player>,
    tutor: bool,
    stop: &AtomicBool,
) -> Result<(), PlayFailure> {
    if !io::stdout().is_terminal() || !io::stdin().is_terminal() {
        return Err(fail(2, "grundy play needs a terminal (stdin and stdout)"));
    }
    let mut term = TerminalGuard::enter().map_err(|e| fail(1, format!("terminal: {e}")))?;
    let result = App::new(game, first, tutor).run(&mut term.terminal, stop);
    drop(term);
    result.map_err(|e| fail(1, format!("terminal: {e}")))
}

/// Raw mode and the alternate screen, undone on drop; a panic hook undoes them too.
struct TerminalGuard {
    terminal: Terminal<CrosstermBackend<Stdout>>,
}

fn restore() {
    let _ = disable_raw_mode();
    let _ = execute!(io::stdout(), LeaveAlternateScreen, cursor::Show);
}

impl TerminalGuard {
    fn enter() -> io::Result<Self> {
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            hook(info);
        }));
        enable_raw_mode()?;
        let mut out = io::stdout();
        if let Err(e) = execute!(out, EnterAlternateScreen, cursor::Hide) {
            restore();
            return Err(e);
        }
        let terminal = Terminal::new(CrosstermBackend::new(out)).inspect_err(|_| restore())?;
        Ok(TerminalGuard { terminal })
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore();
    }
}

/// What the side panel shows.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Panel {
    Moves,
    Why,
}

struct App {
    /// Set once the first player is chosen.
    session: Option<Session>,
    /// The game until then.
    pending: Option<Game>,
    turn: Option<Turn>,
    selected: ListState,
    input: String,
    message: String,
    hint: Option<String>,
    panel: Panel,
    quit: bool,
    /// Point out moves that throw a win away.
    tutor: bool,
    /// The tutor's note on your last move.
    note: Option<String>,
    /// What the pictures keep after each move played (`views[k]` after k moves): where the
    /// vertices stand, the dominoes placed.
    views: Vec<View>,
    /// On a board of stones: the cursor, the stone picked and the points completing it.
    cursor: Cursor,
    /// The colour NoGo places: `"x"` or `"o"`.
    stone: &'static str,
}

impl App {
    fn new(game: Game, first: Option<Player>, tutor: bool) -> App {
        let mut app = App {
            session: None,
            pending: Some(game),
            turn: None,
            selected: ListState::default(),
            input: String::new(),
            message: String::new(),
            hint: None,
            panel: Panel::Moves,
            quit: false,
            tutor,
            note: None,
            views: vec![View::default()],
            cursor: Cursor::default(),
            stone: "x",
        };
        match first {
            Some(p) => app.start(p),
            None => app.message = "Who moves first? press y (you) or e (the engine)".into(),
        }
        app
    }

    fn start(&mut self, first: Player) {
        let Some(game) = self.pending.take() else {
            return;
        };
        self.session = Some(Session::new(game, first));
        self.message = match first {
            Player::You => "Your move.".into(),
            Player::Engine => String::new(),
        };
        self.refresh();
        self.engine_turn();
    }

    fn refresh(&mut self) {
        if let Some(s) = &mut self.session {
            match s.turn() {
                Ok(t) => {
                    let open = !t.moves.is_empty() && !t.drawn;
                    self.selected.select(open.then_some(0));
                    self.turn = Some(t);
                    self.cursor.picked = None;
                    self.cursor.more.clear();
                    self.move_cursor(0, 0);
                }
                Err(e) => self.message = e.to_string(),
            }
        }
    }

    /// Lets the engine move while it is its turn and the game goes on.
    fn engine_turn(&mut self) {
        let Some(s) = &mut self.session else { return };
        if s.to_move() != Player::Engine
            || s.drawn()
            || self.turn.as_ref().is_none_or(|t| t.game_over)
        {
            self.announce();
            return;
        }
        match s.engine_move() {
            Ok(m) => {
                self.message = format!("The engine: {}. Your move.", m.text);
                self.moved(&m);
            }
            Err(e) => self.message = e.to_string(),
        }
        self.refresh();
        self.announce();
    }

    /// The pictures' view after the move `m`, the session's latest.
    fn moved(&mut self, m: &grundy::catalogue::Move) {
        let played = self.session.as_ref().map_or(0, |s| s.log().count());
        self.views.truncate(played.max(1));
        let last = self.views.last().cloned().unwrap_or_default();
        self.views.push(last.after(m));
    }

    /// The winner, when the game is over: the last move's sentence, then who won.
    fn announce(&mut self) {
        let Some(s) = &mut self.session else { return };
        if s.drawn() {
            self.message = format!("{} (u undoes, q quits)", grundy::play::DRAW_BY_REPETITION);
            return;
        }
        if let Ok(Some(w)) = s.winner() {
            // "The engine: X. Your move." or "You: X." → "The engine: X. " / "You: X. ".
            let last = self.message.trim_end_matches(" Your move.").trim_end();
            let last = last.trim_end_matches('.');
            let prefix = if last.is_empty() || last.starts_with("Your move") {
                String::new()
            } else {
                format!("{last}. ")
            };
            self.message = match w {
                Player::You => format!("{prefix}You win! (u undoes, q quits)"),
                Player::Engine => format!("{prefix}The engine wins. (u undoes, q quits)"),
            };
        }
    }

    /// True once the game is over: no move left, or drawn by repetition.
    fn over(&self) -> bool {
        self.turn.as_ref().is_some_and(|t| t.game_over || t.drawn)
            || self.session.as_ref().is_some_and(Session::drawn)
    }

    fn play(&mut self, typed: String) {
        let Some(s) = &mut self.session else { return };
        match s.play(&typed) {
            Ok(m) => {
                self.message = format!("You: {}.", m.text);
                self.note = if self.tutor {
                    s.feedback().map(|f| format!("Tutor: {f}."))
                } else {
                    None
                };
                self.moved(&m);
                self.hint = None;
                self.input.clear();
                self.refresh();
                self.engine_turn();
            }
            Err(e) => self.message = e.to_string(),
        }
    }

    /// The drawing of the position when it is a board of stones (moved over by a cursor).
    fn stones(&self) -> Option<&grundy::picture::Drawing> {
        self.turn
            .as_ref()
            .and_then(|t| t.drawing.as_ref())
            .filter(|d| !d.stones.is_empty())
    }

    /// Moves the board's cursor by `dr` rows and `dc` columns, kept on the board.
    fn move_cursor(&mut self, dr: i64, dc: i64) {
        let Some(d) = self.stones() else { return };
        let rows = d.at.iter().map(|p| p[1] as i64 + 1).max().unwrap_or(1);
        let cols = d.at.iter().map(|p| p[0] as i64 + 1).max().unwrap_or(1);
        let [r, c] = self.cursor.at;
        self.cursor.at = [
            (r as i64 + dr).clamp(0, rows - 1) as u64,
            (c as i64 + dc).clamp(0, cols - 1) as u64,
        ];
    }

    /// A click on the point under the cursor: with the stone picked before it (a capture) or
    /// the colour chosen (NoGo), the library says what the clicks amount to.
    fn click(&mut self) {
        let Some(t) = &self.turn else { return };
        let places = t
            .moves
            .iter()
            .any(|m| grundy::picture::marks(m).stone.is_some());
        let at = self.cursor.at;
        if self.cursor.picked == Some(at) {
            self.cursor.picked = None;
            self.cursor.more.clear();
            self.message = "Nothing picked: choose a stone that captures.".into();
            return;
        }
        let mut cells: Vec<[u64; 2]> = self.cursor.picked.filter(|_| !places).into_iter().collect();
        cells.push(at);
        let stone = places.then_some(self.stone);
        match grundy::picture::pick(&t.position, &t.moves, &cells, stone) {
            Ok(grundy::picture::Pick::Move(m)) => {
                self.cursor.picked = None;
                self.cursor.more.clear();
                self.play(m.text);
            }
            Ok(grundy::picture::Pick::More(more)) => {
                self.cursor.picked = Some(at);
                self.cursor.more = more;
                self.message = "Now the stone it captures (marked): move there and press Enter; \
                    Enter on the picked stone starts over."
                    .into();
            }
            Err(e) => {
                self.cursor.picked = None;
                self.cursor.more.clear();
                self.message = e;
            }
        }
    }

    fn key(&mut self, k: KeyEvent) {
        if k.kind == KeyEventKind::Release {
            return;
        }
        let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && matches!(k.code, KeyCode::Char('c') | KeyCode::Char('d')) {
            self.quit = true;
            return;
        }
        if self.session.is_none() {
            match k.code {
                KeyCode::Char('y') | KeyCode::Char('Y') => self.start(Player::You),
                KeyCode::Char('e') | KeyCode::Char('E') => self.start(Player::Engine),
                KeyCode::Char('q') | KeyCode::Esc => self.quit = true,
                _ => {}
            }
            return;
        }
        // After the game no move is offered: the list is empty and Enter says so.
        let n = if self.over() {
            0
        } else {
            self.turn.as_ref().map_or(0, |t| t.moves.len())
        };
        let board = n > 0 && self.stones().is_some();
        match k.code {
            KeyCode::Char('q') | KeyCode::Esc => self.quit = true,
            KeyCode::Up if board => self.move_cursor(-1, 0),
            KeyCode::Down if board => self.move_cursor(1, 0),
            KeyCode::Left if board => self.move_cursor(0, -1),
            KeyCode::Right if board => self.move_cursor(0, 1),
            KeyCode::Enter | KeyCode::Char(' ') if board && self.input.trim().is_empty() => {
                self.click()
            }
            KeyCode::Char(c @ ('x' | 'o')) if board => {
                self.stone = if c == 'x' { "x" } else { "o" };
                self.message =
                    format!("Placing {c}: Enter places one on the point under the cursor.");
            }
            KeyCode::Char('h') => {
                if let Some(t) = &self.turn {
                    self.hint = Some(t.hint.clone());
                    if let Some(w) = t.winning_moves.first() {
                        let i = t.moves.iter().position(|m| m.to == w.to);
                        self.selected.select(i);
                    }
                }
            }
            KeyCode::Char('t') => {
                self.tutor = !self.tutor;
                self.note = None;
                self.message = if self.tutor {
                    "Tutor on: a move that throws a win away is pointed out.".into()
                } else {
                    "Tutor off.".into()
                };
            }
            KeyCode::Char('w') => {
                self.panel = if self.panel == Panel::Why {
                    Panel::Moves
                } else {
                    Panel::Why
                }
            }
            KeyCode::Char('u') => {
                let undone = self.session.as_mut().is_some_and(Session::undo);
                let played = self.session.as_ref().map_or(0, |s| s.log().count());
                self.views.truncate(played + 1);
                self.note = None;
                self.message = if undone {
                    "Undone. Your move.".into()
                } else {
                    "Nothing to undo.".into()
                };
                self.hint = None;
                self.refresh();
            }
            KeyCode::Up if n > 0 => {
                let i = self.selected.selected().unwrap_or(0);
                self.selected
                    .select(Some(if i == 0 { n - 1 } else { i - 1 }));
            }
            KeyCode::Down if n > 0 => {
                let i = self.selected.selected().unwrap_or(0);
                self.selected.select(Some((i + 1) % n));
            }
            KeyCode::PageUp if n > 0 => {
                let i = self.selected.selected().unwrap_or(0);
                self.selected.select(Some(i.saturating_sub(10)));
            }
            KeyCode::PageDown if n > 0 => {
                let i = self.selected.selected().unwrap_or(0);
                self.selected.select(Some((i + 10).min(n - 1)));
            }
            KeyCode::Backspace => {
                self.input.pop();
            }
            KeyCode::Enter => {
                if self.over() {
                    self.input.clear();
                    self.message = "No move: the game is over (u undoes, q quits).".into();
                } else if !self.input.trim().is_empty() {
                    let typed = self.input.clone();
                    self.play(typed);
                } else if let Some(i) = self.selected.selected() {
                    self.play(format!("#{}", i + 1));
                }
            }
            KeyCode::Char(c)
                if (c.is_ascii_digit() || " ,#".contains(c)) && self.input.len() < 200 =>
            {
                self.input.push(c);
            }
            _ => {}
        }
    }

    /// Draws and reads keys until the player quits or `stop` is set.
    ///
    /// Keys are read on a thread of their own and handed over a channel that this loop waits
    /// on with a timeout, so `stop` is seen within a quarter of a second whatever the terminal
    /// does: once a terminal is closed, crossterm's reader loops on end-of-file inside its own
    /// `poll` and never returns, and the SIGHUP that closing it raises only sets `stop`.
    fn run(
        mut self,
        term: &mut Terminal<CrosstermBackend<Stdout>>,
        stop: &AtomicBool,
    ) -> io::Result<()> {
        let (keys, events) = mpsc::channel();
        std::thread::spawn(move || loop {
            match event::read() {
                Ok(ev) => {
                    if keys.send(Ok(ev)).is_err() {
                        return;
                    }
                }
                Err(e) => {
                    let _ = keys.send(Err(e));
                    return;
                }
            }
        });
        let mut redraw = true;
        while !self.quit && !stop.load(Ordering::Relaxed) {
            if redraw {
                term.draw(|f| self.draw(f))?;
            }
            redraw = match events.recv_timeout(Duration::from_millis(250)) {
                Ok(ev) => {
                    if let Event::Key(k) = ev? {
                        self.key(k);
                    }
                    true
                }
                Err(mpsc::RecvTimeoutError::Timeout) => false,
                Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(()),
            };
        }
        Ok(())
    }

    fn draw(&mut self, f: &mut Frame) {
        let area = f.area();
        let rows = Layout::default()
            .direction(Direction::Vertical)
            .constraints([
                Constraint::Length(1),
                Constraint::Min(6),
                Constraint::Length(4),
                Constraint::Length(1),
            ])
            .split(area);
        let title = match (&self.session, &self.pending) {
            (Some(s), _) => format!(
                " grundy play {} — {}",
                s.game().name(),
                if s.game().misere() {
                    "misère: whoever cannot move wins"
                } else {
                    "whoever cannot move loses"
                }
            ),
            (None, Some(g)) => format!(" grundy play {}", g.name()),
            _ => " grundy play".into(),
        };
        f.render_widget(
            Paragraph::new(title).style(
                Style::default()
                    .fg(Color::White)
                    .bg(Color::Blue)
                    .add_modifier(Modifier::BOLD),
            ),
            rows[0],
        );
        let cols = Layout::default()
            .direction(Direction::Horizontal)
            .constraints([Constraint::Percentage(55), Constraint::Percentage(45)])
            .split(rows[1]);
        self.draw_board(f, cols[0]);
        self.draw_panel(f, cols[1]);
        let mut status = vec![Line::from(self.message.clone())];
        if let Some(n) = &self.note {
            status.push(Line::from(Span::styled(
                n.clone(),
                Style::default().fg(Color::Red),
            )));
        }
        if let Some(h) = &self.hint {
            status.push(Line::from(Span::styled(
                format!("Hint: {h}"),
                Style::default().fg(Color::Yellow),
            )));
        }
        f.render_widget(
            Paragraph::new(status)
                .wrap(Wrap { trim: true })
                .block(Block::default().borders(Borders::TOP)),
            rows[2],
        );
        let help = if self.session.is_none() {
            " y you first · e engine first · q quit".to_string()
        } else if self.stones().is_some() && !self.over() {
            format!(
                " Move: {}▏  ←↑↓→ cursor · Enter/space click · x/o colour · PgUp/PgDn list · h hint · w why · u undo · t tutor · q quit",
                self.input
            )
        } else {
            format!(
                " Move: {}▏  ↑↓ pick · Enter play · type a position · h hint · w why · u undo · t tutor · q quit",
                self.input
            )
        };
        f.render_widget(
            Paragraph::new(help).style(Style::default().add_modifier(Modifier::REVERSED)),
            rows[3],
        );
    }

    fn draw_board(&self, f: &mut Frame, area: Rect) {
        let block = Block::default().borders(Borders::ALL).title(" position ");
        let Some(t) = &self.turn else {
            let text = match &self.pending {
                Some(g) => format!(
                    "{}\n\nWho moves first? y: you, e: the engine",
                    g.position_text(g.start())
                ),
                None => String::new(),
            };
            f.render_widget(Paragraph::new(text).block(block), area);
            return;
        };
        let over = self.over();
        // The move picked in the list, marked on the picture while the game goes on.
        let selected = if over {
            None
        } else {
            self.selected.selected().and_then(|i| t.moves.get(i))
        };
        let mut view = self.views.last().cloned().unwrap_or_default();
        let mut lines: Vec<Line> = Vec::new();
        let token = Style::default().fg(Color::Cyan);
        let heaps: Option<Vec<u64>> = (t.position.kind == "heaps")
            .then(|| {
                t.position
                    .text
                    .split_whitespace()
                    .map(|x| x.parse().ok())
                    .collect()
            })
            .flatten();
        // Kinds drawn on a canvas above the text: how many rows the canvas takes.
        let canvas_kinds = ["hackenbush", "graph", "digraph"];
        // (a picture of a few hundred lines at most: a tree of 10^4 edges is shown as text)
        let lines_drawn = t
            .position
            .data
            .get("edges")
            .and_then(|e| e.as_array())
            .map_or(0, Vec::len);
        let canvas =
            canvas_kinds.contains(&t.position.kind) && area.height > 12 && lines_drawn <= 400;
        match heaps {
            Some(h) => {
                for (i, &x) in h.iter().enumerate() {
                    let shown = (x as usize).min(area.width.saturating_sub(16) as usize / 2);
                    let more = if (x as usize) > shown { "…" } else { "" };
                    lines.push(Line::from(vec![
                        Span::raw(format!("heap {i} ({x:>3}) ")),
                        Span::styled("● ".repeat(shown), token),
                        Span::raw(more),
                    ]));
                }
            }
            // Chomp's row lengths: the bar, the poison at the top left.
            None if t.position.kind == "rows" => {
                let rows = t.position.data.get("rows").and_then(|r| r.as_array());
                for (i, len) in rows.into_iter().flatten().enumerate() {
                    let len = len.as_u64().unwrap_or(0) as usize;
                    let row: String = (0..len)
                        .map(|c| if (i, c) == (0, 0) { "P " } else { "# " })
                        .collect();
                    lines.push(Line::from(Span::styled(row, token)));
                }
                lines.push(Line::from("P is the poison: whoever must eat it loses"));
            }
            None if self.stones().is_some() => {
                if let Some(d) = &t.drawing {
                    let cursor = if over {
                        Cursor {
                            at: [u64::MAX; 2],
                            ..Cursor::default()
                        }
                    } else {
                        self.cursor.clone()
                    };
                    lines.extend(picture::stones_lines(d, &cursor, selected));
                }
                let places = t
                    .moves
                    .iter()
                    .any(|m| grundy::picture::marks(m).stone.is_some());
                lines.push(Line::from(if places {
                    format!(
                        "● x, ○ o, █ off the board; Enter places {} {} (x/o: the colour); no group may be left without a liberty",
                        self.stone,
                        if self.stone == "x" { "●" } else { "○" }
                    )
                } else {
                    "● x, ○ o, █ off the board; Enter on a stone, then on the stone next to it that it captures"
                        .to_string()
                }));
            }
            None if t.position.kind == "board" => {
                lines.extend(picture::cram_lines(&t.position, &view, selected));
                lines.push(Line::from(
                    "a domino covers two free cells (·) side by side; letters: dominoes placed",
                ));
            }
            None if t.position.kind == "coins" && t.position.text.len() <= 400 => {
                let width = area.width.saturating_sub(2) as usize;
                lines.extend(picture::coin_lines(&t.position, selected, width));
                lines.push(Line::from(
                    "turn coins over; the rightmost one turned goes from heads (H) to tails (T)",
                ));
            }
            None if canvas => {
                lines.push(Line::from(match t.position.kind {
                    "hackenbush" => {
                        "cut an edge by its number; what no longer reaches the ground falls"
                    }
                    "digraph" => "move a token (●) along an arrow; whoever cannot move loses",
                    _ if t
                        .moves
                        .iter()
                        .any(|m| grundy::picture::marks(m).vertex.is_some()) =>
                    {
                        "take a vertex by its number: it goes with its neighbours (red)"
                    }
                    _ => "take an edge: it goes with both its ends (red)",
                }));
            }
            // Every other kind is drawn by its own notation, a row a line (boards, mazes;
            // the first 2000 characters of a large one).
            None => {
                let text: String = t.position_text.chars().take(2000).collect();
                for l in text.split(['\n', '|', ';']) {
                    lines.push(Line::from(Span::styled(l.trim().to_string(), token)));
                }
            }
        }
        lines.push(Line::from(""));
        let whose = match self.session.as_ref().map(Session::to_move) {
            Some(Player::You) => "you",
            _ => "the engine",
        };
        let value = t.grundy.as_ref().map(value_text);
        let shown_text: String = t.position_text.trim().replace('\n', "/");
        let shown_text = if shown_text.chars().count() > 200 {
            let cut: String = shown_text.chars().take(200).collect();
            format!("{cut}…")
        } else {
            shown_text
        };
        lines.push(Line::from(format!(
            "position {shown_text}  ·  to move: {whose}{}",
            value.map(|v| format!("  ·  value {v}")).unwrap_or_default()
        )));
        if over {
            lines.push(Line::from(Span::styled(
                "game over",
                Style::default().add_modifier(Modifier::BOLD),
            )));
        }
        let area = if canvas {
            let text_rows = (lines.len() as u16 + 2).min(area.height / 2);
            let parts = Layout::default()
                .direction(Direction::Vertical)
                .constraints([Constraint::Min(6), Constraint::Length(text_rows)])
                .split(area);
            let (cols, rows) = (
                parts[0].width.saturating_sub(2),
                parts[0].height.saturating_sub(2),
            );
            match t.position.kind {
                "hackenbush" => f.render_widget(
                    picture::hackenbush_picture(&t.position, selected, block.clone()),
                    parts[0],
                ),
                "graph" => {
                    let coords = picture::graph_coords(&t.position, &mut view);
                    f.render_widget(
                        picture::graph_picture(
                            &t.position,
                            coords,
                            selected,
                            block.clone(),
                            cols,
                            rows,
                        ),
                        parts[0],
                    )
                }
                _ => {
                    match picture::digraph_picture(&t.position, selected, block.clone(), cols, rows)
                    {
                        Some(c) => f.render_widget(c, parts[0]),
                        None => f.render_widget(
                            Paragraph::new(t.position_text.replace(';', "\n")).block(block.clone()),
                            parts[0],
                        ),
                    }
                }
            }
            parts[1]
        } else {
            area
        };
        f.render_widget(
            Paragraph::new(lines)
                .block(block)
                .wrap(Wrap { trim: false }),
            area,
        );
    }

    fn draw_panel(&mut self, f: &mut Frame, area: Rect) {
        let Some(t) = &self.turn else {
            f.render_widget(Block::default().borders(Borders::ALL), area);
            return;
        };
        if self.panel == Panel::Why {
            // For Nim the text holds the heaps and the nim-sum in binary, in columns.
            let mut text = t.why.text.clone();
            text.push_str(match t.outcome {
                Outcome::N => "\nOutcome: N (the player to move wins)",
                Outcome::P => "\nOutcome: P (the player to move loses)",
                Outcome::D => "\nOutcome: D (neither player can force a win)",
            });
            if let Some(g) = &t.grundy {
                text.push_str(&format!("\nValue: {}", value_text(g)));
            }
            f.render_widget(
                Paragraph::new(text).wrap(Wrap { trim: false }).block(
                    Block::default()
                        .borders(Borders::ALL)
                        .title(" why (w: moves) "),
                ),
                area,
            );
            return;
        }
        if self.over() {
            let why = if t.drawn || self.session.as_ref().is_some_and(Session::drawn) {
                "The game is drawn: no move is offered."
            } else {
                "The game is over: no move is left."
            };
            f.render_widget(
                Paragraph::new(format!("{why}\n\nu undoes your last move, q quits."))
                    .wrap(Wrap { trim: false })
                    .block(
                        Block::default()
                            .borders(Borders::ALL)
                            .title(" moves — game over "),
                    ),
                area,
            );
            return;
        }
        let items: Vec<ListItem> = t
            .moves
            .iter()
            .map(|m| ListItem::new(m.short.clone()))
            .collect();
        let list = List::new(items)
            .block(
                Block::default()
                    .borders(Borders::ALL)
                    .title(format!(" moves ({}) — w: why ", t.moves.len())),
            )
            .highlight_style(Style::default().add_modifier(Modifier::REVERSED))
            .highlight_symbol("> ");
        f.render_stateful_widget(list, area, &mut self.selected);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(app: &mut App, code: KeyCode) {
        app.key(KeyEvent::new(code, KeyModifiers::NONE));
    }

    fn log(app: &App) -> Vec<String> {
        let s = app.session.as_ref().unwrap();
        s.log().map(|(_, t)| t.to_string()).collect()
    }

    #[test]
    fn clobber_is_played_with_the_cursor_and_enter() {
        let game = Game::new("clobber", "xo.|ox.").unwrap();
        let mut app = App::new(game, Some(Player::You), false);
        // The cursor starts on (0, 0), an x: Enter picks it, and the library marks its
        // captures.
        press(&mut app, KeyCode::Enter);
        assert_eq!(app.cursor.picked, Some([0, 0]));
        assert_eq!(app.cursor.more, vec![[0, 1], [1, 0]]);
        // (1, 1) is no capture: the library's reason, and nothing picked any more.
        press(&mut app, KeyCode::Down);
        press(&mut app, KeyCode::Right);
        press(&mut app, KeyCode::Enter);
        assert!(app.message.contains("cannot capture"), "{}", app.message);
        assert_eq!(app.cursor.picked, None);
        assert!(log(&app).is_empty());
        // The cursor stays on the board.
        for _ in 0..5 {
            press(&mut app, KeyCode::Right);
        }
        assert_eq!(app.cursor.at, [1, 2]);
        // Space picks as Enter does: the x on (0, 0), then the o on (0, 1).
        press(&mut app, KeyCode::Up);
        for _ in 0..3 {
            press(&mut app, KeyCode::Left);
        }
        press(&mut app, KeyCode::Char(' '));
        press(&mut app, KeyCode::Right);
        press(&mut app, KeyCode::Char(' '));
        let moves = log(&app);
        assert_eq!(
            moves[0],
            "move the x on (0, 0) onto the o on (0, 1), capturing it"
        );
        // The engine answered.
        assert_eq!(moves.len(), 2, "{moves:?}");
    }

    #[test]
    fn nogo_places_the_colour_chosen_under_the_cursor() {
        let game = Game::new("nogo", "xo.|...").unwrap();
        let mut app = App::new(game, Some(Player::You), false);
        press(&mut app, KeyCode::Enter);
        assert!(
            app.message.starts_with("(0, 0) is taken"),
            "{}",
            app.message
        );
        press(&mut app, KeyCode::Char('o'));
        press(&mut app, KeyCode::Down);
        press(&mut app, KeyCode::Enter);
        assert!(app.message.contains("without liberties"), "{}", app.message);
        press(&mut app, KeyCode::Right);
        press(&mut app, KeyCode::Enter);
        assert_eq!(log(&app)[0], "place an o on (1, 1)");
    }
}
