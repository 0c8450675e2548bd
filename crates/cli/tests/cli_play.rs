//! `grundy play` in a real pseudo-terminal (a tmux session): start, choose who moves first,
//! move, hint, why, undo, quit (q and Ctrl-C), and the terminal restored afterwards; without
//! a terminal it says so and exits 2. Node Kayles, Arc Kayles, Cram and tokens on a digraph
//! are drawn (braille lines, a boxed board) and played to the end, after which no move is
//! offered.
//!
//! tmux is installed by `scripts/test-browser` (which runs this test with
//! `GRUNDY_REQUIRE_TMUX=1`); a plain `cargo test` without tmux skips the pty tests, saying so.

mod common;

use common::grundy;
use std::process::Command;
use std::time::{Duration, Instant};

/// A detached tmux session running `grundy play ARGS`, then the terminal's modes and exit
/// status printed by the shell once it returns.
struct Pane {
    name: String,
}

fn have_tmux() -> bool {
    let ok = Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var_os("GRUNDY_REQUIRE_TMUX").is_none(),
            "tmux is required (GRUNDY_REQUIRE_TMUX) but not installed"
        );
        eprintln!("cli_play: SKIPPED the pty tests: tmux is not installed (scripts/test-browser installs it)");
    }
    ok
}

impl Pane {
    fn start(name: &str, args: &str) -> Pane {
        let name = format!("grundy-test-{name}-{}", std::process::id());
        let bin = env!("CARGO_BIN_EXE_grundy");
        // After the game: whether the terminal is back in cooked mode with echo, and the
        // exit status; then wait so the pane can be read.
        let script = format!(
            "stty sane; {bin} play {args}; echo EXIT=\\$?; echo MODES: \\$(stty -a | tr ' ' '\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' ') DONE; sleep 60"
        );
        let st = Command::new("tmux")
            .args(["new-session", "-d", "-s", &name, "-x", "120", "-y", "36"])
            .arg(format!("bash --norc --noprofile -c \"{script}\""))
            .status()
            .unwrap();
        assert!(st.success());
        Pane { name }
    }

    fn screen(&self) -> String {
        let out = Command::new("tmux")
            .args(["capture-pane", "-p", "-t", &self.name])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Waits until the screen shows `text`; panics with the screen after 15 s.
    fn wait_for(&self, text: &str) -> String {
        self.wait_until(text, |s| s.contains(text))
    }

    /// Waits until `done` holds of the screen; panics with the screen (and `what`) after 15 s.
    fn wait_until(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let t = Instant::now();
        loop {
            let s = self.screen();
            if done(&s) {
                return s;
            }
            if t.elapsed() > Duration::from_secs(15) {
                panic!("waited for {what:?}; the screen is:\n{s}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Plays the hinted move (`h` marks it in the list, Enter plays it) until the game is over;
    /// returns the last screen and how many moves you played.
    fn play_hints_to_the_end(&self) -> (String, usize) {
        for played in 0..40 {
            let before = self.screen();
            if before.contains("game over") {
                return (before, played);
            }
            let position = position_line(&before);
            self.keys(&["h"]);
            self.wait_for("Hint:");
            self.keys(&["Enter"]);
            // Your move and the engine's reply change the position (or end the game).
            self.wait_until("the next position", |s| {
                s.contains("game over")
                    || (position_line(s) != position && s.contains("Your move."))
            });
        }
        panic!("the game did not end:\n{}", self.screen());
    }

    fn keys(&self, keys: &[&str]) {
        let st = Command::new("tmux")
            .args(["send-keys", "-t", &self.name])
            .args(keys)
            .status()
            .unwrap();
        assert!(st.success());
    }

    /// Sends literal text (no key names).
    fn type_text(&self, text: &str) {
        let st = Command::new("tmux")
            .args(["send-keys", "-l", "-t", &self.name, text])
            .status()
            .unwrap();
        assert!(st.success());
    }
}

impl Drop for Pane {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["kill-session", "-t", &self.name])
            .status();
    }
}

/// The board's line "position … · to move: …" of a screen.
fn position_line(s: &str) -> String {
    s.lines()
        .find(|l| l.contains("to move:"))
        .unwrap_or("")
        .to_string()
}

/// Braille cells on a screen: a picture drawn in lines.
fn braille(s: &str) -> usize {
    s.chars()
        .filter(|c| ('\u{2801}'..='\u{28ff}').contains(c))
        .count()
}

/// The end of a game: who won in one sentence with one full stop, no move offered, and Enter
/// says the game is over.
fn assert_over(p: &Pane, s: &str, winner: &str) {
    assert!(s.contains(winner), "{s}");
    assert!(s.contains("moves — game over"), "{s}");
    assert!(s.contains("The game is over: no move is left."), "{s}");
    assert!(!s.contains("..") && !s.contains("!."), "{s}");
    p.keys(&["Enter"]);
    p.wait_for("No move: the game is over");
}

/// The terminal after the game: out of the alternate screen, the shell's lines visible, in
/// cooked mode with echo.
fn assert_restored(p: &Pane, code: i32) {
    let s = p.wait_for(" DONE");
    assert!(s.contains(&format!("EXIT={code}")), "{s}");
    assert!(
        s.contains("icanon") && !s.contains("-icanon"),
        "not cooked mode:\n{s}"
    );
    assert!(
        s.contains("echo") && !s.contains("-echo "),
        "echo off:\n{s}"
    );
    assert!(
        !s.contains("Enter play"),
        "the game's screen is still shown:\n{s}"
    );
}

#[test]
fn play_nim_move_hint_why_undo_quit() {
    if !have_tmux() {
        return;
    }
    let p = Pane::start("nim", "nim 1 2 3");
    p.wait_for("Who moves first?");
    p.keys(&["y"]);
    let s = p.wait_for("Your move.");
    assert!(s.contains("heap 2 (  3) ● ● ●"), "{s}");
    // 1 2 3 has nim-sum 0: the hint says so.
    p.keys(&["h"]);
    p.wait_for("Hint: every move loses");
    // Why: the heaps and the nim-sum in binary.
    p.keys(&["w"]);
    let s = p.wait_for("nim-sum:  0 = 00");
    assert!(
        s.contains("heap   2: 3 = 11") && s.contains("heap   1: 2 = 10"),
        "{s}"
    );
    p.keys(&["w"]);
    // Type a move: the position after it. The engine answers with a winning move, back to
    // nim-sum 0.
    p.type_text("0 2 3");
    p.keys(&["Enter"]);
    let s = p.wait_for("The engine: heap 2: take 1 from the heap of 3, leaving 2");
    assert!(s.contains("position 0 2 2"), "{s}");
    // An illegal move is refused in words; nothing changes.
    p.type_text("5 5 5");
    p.keys(&["Enter"]);
    p.wait_for("illegal move");
    for _ in 0..5 {
        p.keys(&["BSpace"]);
    }
    // Pick with the arrows: the second listed move (heap 1: take all 2 counters).
    p.keys(&["Down", "Enter"]);
    // The engine empties the last heap and wins.
    let s = p.wait_for("The engine wins");
    assert!(s.contains("The engine: heap 2: take all 2 counters"), "{s}");
    assert!(
        s.contains("position 0 0 0") && s.contains("game over"),
        "{s}"
    );
    // Undo: back to 0 2 2, your move.
    p.keys(&["u"]);
    let s = p.wait_for("Undone. Your move.");
    assert!(s.contains("position 0 2 2"), "{s}");
    p.keys(&["q"]);
    assert_restored(&p, 0);
}

#[test]
fn play_to_the_end_and_ctrl_c() {
    if !have_tmux() {
        return;
    }
    // The engine moves first from an N-position and wins whatever you do.
    let p = Pane::start("end", "nim 1 2 --first engine");
    p.wait_for("The engine: heap 1: take 1 from the heap of 2, leaving 1");
    p.keys(&["Enter"]);
    let s = p.wait_for("The engine wins");
    assert!(s.contains("game over"), "{s}");
    // Ctrl-C quits and restores the terminal too.
    p.keys(&["C-c"]);
    assert_restored(&p, 0);

    // A heap rule and a board game start and answer a hint.
    let p = Pane::start("kayles", "kayles 5 7 --first you");
    p.wait_for("Your move.");
    p.keys(&["h"]);
    p.wait_for("Hint: heap");
    p.keys(&["q"]);
    assert_restored(&p, 0);
    let p = Pane::start("chomp", "chomp 3x4 --first you");
    p.wait_for("P # # #");
    p.keys(&["h"]);
    p.wait_for("Hint: bite at row");
    p.keys(&["Escape"]);
    assert_restored(&p, 0);
}

/// A loopy game where each position has one move, 1 → 3 → 1 in windup:4:2: the third time
/// you face 1 the game ends drawn, said in words, and no move is played after it.
#[test]
fn a_repeated_position_ends_the_game_as_a_draw() {
    if !have_tmux() {
        return;
    }
    let p = Pane::start("draw", "windup:4:2 1 --first you");
    p.wait_for("Your move.");
    p.keys(&["Enter"]);
    p.wait_for("The engine: ");
    p.keys(&["Enter"]);
    let s = p.wait_for("came back three times");
    assert!(s.contains("with best play this game never ends"), "{s}");
    assert!(s.contains("game over"), "{s}");
    // No move is offered after the draw.
    assert!(s.contains("The game is drawn: no move is offered."), "{s}");
    p.keys(&["Enter"]);
    p.wait_for("the game is over");
    p.keys(&["q"]);
    assert_restored(&p, 0);
}

/// Green Hackenbush is drawn as a picture: braille lines for the stalks, each labelled with
/// the number its move names ("cut edge 0" is the first edge).
#[test]
fn hackenbush_is_drawn_as_a_picture() {
    if !have_tmux() {
        return;
    }
    let p = Pane::start("hackenbush", "hackenbush 0-1,1-2,2-3,3-1 --first you");
    let s = p.wait_for("cut an edge by its number");
    assert!(
        braille(&s) > 20,
        "no picture ({} braille cells):\n{s}",
        braille(&s)
    );
    assert!(s.contains("cut 0-1"), "{s}");
    p.keys(&["q"]);
    assert_restored(&p, 0);
}

/// Node Kayles on a 3x4 grid is drawn as a lattice with its twelve vertices numbered as the
/// moves name them; it is a P-position, so with the engine opening, the hints win it.
#[test]
fn node_kayles_drawn_and_played_to_the_end() {
    if !have_tmux() {
        return;
    }
    let p = Pane::start("nk", "node-kayles grid:3x4 --first you");
    let s = p.wait_for("Your move.");
    assert!(braille(&s) > 40, "no lattice:\n{s}");
    let labels: Vec<&str> = s
        .lines()
        .flat_map(|l| l.split(|c: char| !c.is_ascii_digit()))
        .filter(|w| !w.is_empty())
        .collect();
    for v in 0..12 {
        assert!(labels.contains(&v.to_string().as_str()), "vertex {v}:\n{s}");
    }
    assert!(
        s.contains("take a vertex by its number") && s.contains("value 0"),
        "{s}"
    );
    p.keys(&["q"]);
    assert_restored(&p, 0);

    let p = Pane::start("nk-end", "node-kayles grid:3x4 --first engine");
    p.wait_for("The engine: take vertex");
    let (s, n) = p.play_hints_to_the_end();
    assert!(n >= 2, "{s}");
    assert_over(&p, &s, "You win! (u undoes, q quits)");
    p.keys(&["q"]);
    assert_restored(&p, 0);
}

/// Arc Kayles on a 7-cycle (drawn as a ring), Cram on 3x4 (a boxed board whose dominoes are
/// lettered as they are placed) and two tokens on a digraph (arrows, tokens as ●): each an
/// N-position, won to the end by the hints.
#[test]
fn arc_kayles_cram_and_a_digraph_played_to_the_end() {
    if !have_tmux() {
        return;
    }
    let p = Pane::start("ak", "arc-kayles cycle:7 --first you");
    let s = p.wait_for("Your move.");
    assert!(braille(&s) > 30 && s.contains("take an edge"), "{s}");
    let (s, _) = p.play_hints_to_the_end();
    assert_over(&p, &s, "You win! (u undoes, q quits)");
    p.keys(&["q"]);
    assert_restored(&p, 0);

    let p = Pane::start("cram", "cram 3x4 --first you");
    let s = p.wait_for("Your move.");
    assert!(s.contains("┌─") && s.contains(" 2 │ · · · · │"), "{s}");
    let (s, n) = p.play_hints_to_the_end();
    assert_over(&p, &s, "You win! (u undoes, q quits)");
    // Every domino placed is drawn, lettered a, b, … in the order played.
    for letter in ['a', 'b', 'c'].iter().take(2 * n - 1) {
        assert!(
            s.lines()
                .any(|l| l.contains(" │") && l.contains(&format!(" {letter}"))),
            "domino {letter}:\n{s}"
        );
    }
    p.keys(&["q"]);
    assert_restored(&p, 0);

    let p = Pane::start("digraph", "digraph 'a b; b c; a c; c d; @ a b' --first you");
    let s = p.wait_for("Your move.");
    assert!(
        s.contains("a●") && s.contains("b●") && braille(&s) > 10,
        "{s}"
    );
    let (s, _) = p.play_hints_to_the_end();
    assert_over(&p, &s, "You win! (u undoes, q quits)");
    p.keys(&["q"]);
    assert_restored(&p, 0);
}

/// The engine opens, you press `u` at once: nothing of yours to take back, and the game goes
/// on (it used to undo the engine's opening and leave nobody to move). Then a losing move
/// gets the tutor's note with the move that would have won.
#[test]
fn undo_after_the_engines_opening_and_the_tutor() {
    if !have_tmux() {
        return;
    }
    let p = Pane::start("undo", "nim 3 4 5 --first engine");
    p.wait_for("The engine: heap 0: take 2 from the heap of 3, leaving 1");
    p.keys(&["u"]);
    p.wait_for("Nothing to undo.");
    // 1 4 5 is a P-position: any move loses, and the engine answers.
    p.type_text("0 4 5");
    p.keys(&["Enter"]);
    let s = p.wait_for("The engine:");
    assert!(s.contains("Your move"), "{s}");
    // From the engine's P-position every move loses: no tutor note for a move that had no
    // better choice.
    assert!(!s.contains("Tutor:"), "{s}");
    p.keys(&["q"]);
    assert_restored(&p, 0);

    // You first from 3 4 5 (an N-position): taking from the heap of 5 throws the win away.
    let p = Pane::start("tutor", "nim 3 4 5 --first you");
    p.wait_for("Your move.");
    p.type_text("3 4 4");
    p.keys(&["Enter"]);
    p.wait_for("Tutor: that move lets");
    p.keys(&["q"]);
    assert_restored(&p, 0);
}

#[test]
fn play_needs_a_terminal_and_good_input() {
    // Without a terminal (stdout is a pipe here): one line, exit 2.
    let out = grundy(&["play", "nim", "3", "4", "5"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("needs a terminal"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(out.stdout.is_empty());
    let out = grundy(&["play", "nim", "--first", "me"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--first"));
}

#[test]
fn bad_games_are_refused_before_the_screen_opens() {
    if !have_tmux() {
        return;
    }
    for (args, msg) in [
        ("no-such-game 3", "unknown game"),
        ("nim 3 x", "'x' is not a number"),
        ("nim 30000", "too many to list"),
    ] {
        let p = Pane::start("bad", args);
        let s = p.wait_for(" DONE");
        assert!(s.contains("EXIT=2") && s.contains(msg), "{args}: {s}");
    }
}

#[test]
fn closing_the_terminal_ends_the_game() {
    if !have_tmux() {
        return;
    }
    // The game runs as the pane's own process (no shell after it); closing the terminal (the
    // tmux session killed) hangs it up, and the game must end rather than outlive it (it once
    // spun on end-of-file at full CPU for ever).
    // Heaps unlikely to be in any other test's command line (play allows heaps up to 5000).
    let marker = format!("nim 3 5 {}", 1000 + std::process::id() % 4000);
    let name = format!("grundy-test-hup-{}", std::process::id());
    let bin = env!("CARGO_BIN_EXE_grundy");
    let st = Command::new("tmux")
        .args(["new-session", "-d", "-s", &name, "-x", "120", "-y", "36"])
        .arg(format!("{bin} play {marker} --first you"))
        .status()
        .unwrap();
    assert!(st.success());
    let p = Pane { name };
    p.wait_for("Your move.");
    let running = || {
        Command::new("pgrep")
            .args(["-f", &format!("play {marker}")])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    assert!(running(), "the game should be running");
    let _ = Command::new("tmux")
        .args(["kill-session", "-t", &p.name])
        .status();
    let t = Instant::now();
    while running() && t.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!running(), "grundy play outlived its terminal");
}
