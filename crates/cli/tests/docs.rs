//! The docs cannot drift: every output README.md and docs/json.md show is what the program
//! prints now. Each example is tied to the command that makes it, in a form read here:
//!
//! - README.md: a ```text block that starts with `$ `: a transcript. Each `$ grundy ARGS` line
//!   is run (from the repository root) and its standard output must be the lines that follow,
//!   exactly. `$ grundy serve &` starts the web server (its first line is compared with the
//!   port it chose written as 8080) and each `$ curl -s 'URL'` that follows asks it; the answer
//!   must be the JSON object shown (compared as JSON).
//! - docs/json.md: a ```json block preceded by a line `<!-- grundy ARGS -->` (a command; several
//!   joined by ` && ` run in turn, the last one's output compared; `inspect DIR` is the library's
//!   `grundy::heap::inspect`) or `<!-- GET /api/… -->` (a request to the web server). The block
//!   must be the JSON printed, compared as JSON; with ` (abridged)` at the end of the comment it
//!   is abridged: `…` stands for any value, for any items of an array or for the other keys of an
//!   object, a string ending in `…` for any string it begins, and every key and value shown must
//!   be in the output.
//!
//! `$TMP` in a command is a scratch directory of its own. Every example runs in well under a
//! second in a test build; this file is run by `cargo test -p grundy-cli --test docs`.

mod common;

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// The repository root: commands run from there, as the docs' relative paths (`examples/…`)
/// assume.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(doc: &str) -> String {
    std::fs::read_to_string(root().join(doc)).unwrap_or_else(|e| panic!("{doc}: {e}"))
}

/// A command line split into words as a shell would: single and double quotes group.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quote = None;
    let mut any = false;
    for c in line.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.push(c),
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                any = true;
            }
            None if c.is_whitespace() => {
                if any {
                    out.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            None => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(word);
    }
    out
}

/// A scratch directory for `$TMP`, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("grundy-docs-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs one `grundy …` command line (with `$TMP` replaced) and returns its standard output.
fn run(line: &str, tmp: &Path) -> String {
    let line = line.replace("$TMP", &tmp.to_string_lossy());
    let args = words(&line);
    assert_eq!(args.first().map(String::as_str), Some("grundy"), "{line}");
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(&args[1..])
        .current_dir(root())
        .env("GRUNDY_CACHE_DIR", common::test_cache_dir())
        .stdin(Stdio::null())
        .output()
        .expect("the grundy binary runs");
    assert!(
        out.status.success(),
        "{line}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("stdout is UTF-8")
}

/// `grundy serve` on a port of its own, stopped when dropped.
struct Server {
    child: Child,
    addr: String,
    first_line: String,
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args(["serve", "--addr", "127.0.0.1:0"])
            .current_dir(root())
            .env("GRUNDY_CACHE_DIR", common::test_cache_dir())
            .stderr(Stdio::piped())
            .spawn()
            .expect("grundy serve starts");
        let mut first_line = String::new();
        BufReader::new(child.stderr.as_mut().unwrap())
            .read_line(&mut first_line)
            .unwrap();
        let addr = first_line
            .split("http://")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .unwrap_or_else(|| panic!("no address in {first_line:?}"))
            .to_string();
        Server {
            child,
            addr,
            first_line,
        }
    }

    /// The body of `GET path` (any status: the docs show error bodies too).
    fn get(&self, path: &str) -> Value {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        write!(
            s,
            "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut buf = Vec::new();
        s.read_to_end(&mut buf).unwrap();
        let text = String::from_utf8(buf).unwrap();
        let (_, body) = text.split_once("\r\n\r\n").unwrap();
        serde_json::from_str(body).unwrap_or_else(|e| panic!("GET {path}: {e}: {body}"))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The wildcard an abridged example's `…` becomes.
const ANY: &str = "\u{2026}";

/// An abridged example as JSON: each `…` outside a string becomes the string `"…"`, or the
/// entry `"…": "…"` where an object's key would stand.
fn abridged(text: &str) -> Value {
    let mut out = String::new();
    let mut in_string = false;
    let mut escaped = false;
    // The open brackets, and whether the next token in an object is a key.
    let mut stack: Vec<char> = Vec::new();
    let mut key_next = false;
    for c in text.chars() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                key_next = false;
                out.push(c);
            }
            '{' | '[' => {
                stack.push(c);
                key_next = c == '{';
                out.push(c);
            }
            '}' | ']' => {
                stack.pop();
                key_next = false;
                out.push(c);
            }
            ',' => {
                key_next = stack.last() == Some(&'{');
                out.push(c);
            }
            '\u{2026}' if key_next => {
                out.push_str("\"\u{2026}\":\"\u{2026}\"");
                key_next = false;
            }
            '\u{2026}' => out.push_str("\"\u{2026}\""),
            _ => out.push(c),
        }
    }
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("the example is not JSON: {e}\n{out}"))
}

/// Whether `actual` has everything the abridged `shown` shows (see the file's doc).
fn covers(shown: &Value, actual: &Value) -> bool {
    match (shown, actual) {
        (Value::String(s), _) if s == ANY => true,
        (Value::String(s), Value::String(a)) if s.ends_with(ANY) => {
            a.starts_with(s.trim_end_matches(ANY))
        }
        (Value::Object(s), Value::Object(a)) => s
            .iter()
            .filter(|(k, _)| k.as_str() != ANY)
            .all(|(k, v)| a.get(k).is_some_and(|x| covers(v, x))),
        (Value::Array(s), Value::Array(a)) => array_covers(s, a),
        _ => shown == actual,
    }
}

/// An array shown with `…` items: the items between them must appear in order, the first run at
/// the start and (unless `…` ends it) the last run at the end.
fn array_covers(shown: &[Value], actual: &[Value]) -> bool {
    let any = |v: &Value| v.as_str() == Some(ANY);
    let runs: Vec<&[Value]> = shown.split(|v| any(v)).collect();
    let mut at = 0;
    let last = runs.len() - 1;
    for (i, run) in runs.iter().enumerate() {
        let fits = |start: usize| {
            start + run.len() <= actual.len()
                && run.iter().zip(&actual[start..]).all(|(s, a)| covers(s, a))
        };
        let start = if i == 0 {
            if !fits(0) {
                return false;
            }
            0
        } else if i == last && !run.is_empty() {
            let start = actual.len().saturating_sub(run.len());
            if start < at || !fits(start) {
                return false;
            }
            start
        } else {
            match (at..=actual.len()).find(|&s| fits(s)) {
                Some(s) => s,
                None => return false,
            }
        };
        at = start + run.len();
    }
    // Without a `…` the array is shown whole.
    runs.len() > 1 || at == actual.len()
}

/// Compares an example with the output, as JSON: exactly, or as an abridged example.
fn check_json(place: &str, shown: &str, abridge: bool, actual: &Value) {
    if abridge {
        let pattern = abridged(shown);
        assert!(
            covers(&pattern, actual),
            "{place}: the example is not in the output\nshown:  {pattern}\noutput: {actual}"
        );
    } else {
        let pattern: Value = serde_json::from_str(shown).unwrap_or_else(|e| {
            panic!("{place}: the example is not JSON (mark it abridged?): {e}")
        });
        assert_eq!(
            &pattern, actual,
            "{place}: the example differs from the output"
        );
    }
}

/// The fenced blocks of a Markdown text: (line of the fence, info string, body, the line before).
fn blocks(text: &str) -> Vec<(usize, String, String, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if let Some(info) = lines[i].strip_prefix("```") {
            let start = i;
            let before = if i > 0 { lines[i - 1] } else { "" };
            let mut body = String::new();
            i += 1;
            while i < lines.len() && lines[i] != "```" {
                body.push_str(lines[i]);
                body.push('\n');
                i += 1;
            }
            out.push((start + 1, info.to_string(), body, before.to_string()));
        }
        i += 1;
    }
    out
}

#[test]
fn readme_transcripts_are_what_the_program_prints() {
    let text = read("README.md");
    let tmp = Scratch::new("readme");
    let mut server: Option<Server> = None;
    let mut checked = 0;
    for (line, info, body, _) in blocks(&text) {
        if info != "text" || !body.starts_with("$ ") {
            continue;
        }
        // Each command with the lines it prints.
        let mut steps: Vec<(String, String)> = Vec::new();
        for l in body.lines() {
            match l.strip_prefix("$ ") {
                Some(cmd) => steps.push((cmd.to_string(), String::new())),
                None => {
                    let (_, out) = steps.last_mut().unwrap();
                    out.push_str(l);
                    out.push('\n');
                }
            }
        }
        for (cmd, shown) in steps {
            let place = format!("README.md:{line}: {cmd}");
            if cmd == "grundy serve &" {
                let s = Server::start();
                let port = s.addr.rsplit(':').next().unwrap().to_string();
                let said = s.first_line.replace(&format!(":{port}/"), ":8080/");
                assert_eq!(shown, said, "{place}");
                server = Some(s);
            } else if let Some(url) = cmd.strip_prefix("curl -s ") {
                let url = url.trim_matches('\'');
                let path = url
                    .strip_prefix("http://127.0.0.1:8080")
                    .unwrap_or_else(|| panic!("{place}: not the server's address"));
                let s = server
                    .as_ref()
                    .unwrap_or_else(|| panic!("{place}: no `grundy serve &` before"));
                let actual = s.get(path);
                check_json(&place, shown.trim(), shown.contains('\u{2026}'), &actual);
            } else {
                let printed = run(&cmd, &tmp.0);
                assert_eq!(
                    shown, printed,
                    "{place}: the transcript differs from the output"
                );
            }
            checked += 1;
        }
    }
    assert!(
        checked >= 3,
        "README.md: only {checked} transcript commands found"
    );
}

#[test]
fn json_examples_are_what_the_program_prints() {
    let text = read("docs/json.md");
    let mut server: Option<Server> = None;
    let mut checked = 0;
    for (line, info, body, before) in blocks(&text) {
        if info != "json" {
            continue;
        }
        let place = format!("docs/json.md:{line}");
        let how = before
            .strip_prefix("<!-- ")
            .and_then(|r| r.strip_suffix(" -->"))
            .unwrap_or_else(|| {
                panic!(
                    "{place}: no `<!-- grundy … -->` or `<!-- GET … -->` line before the example"
                )
            });
        let (how, abridge) = match how.strip_suffix(" (abridged)") {
            Some(h) => (h, true),
            None => (how, false),
        };
        let place = format!("{place}: {how}");
        let actual: Value = if let Some(path) = how.strip_prefix("GET ") {
            server.get_or_insert_with(Server::start).get(path)
        } else {
            let tmp = Scratch::new(&line.to_string());
            let mut out = String::new();
            for cmd in how.split(" && ") {
                out = match cmd.strip_prefix("inspect ") {
                    // A saved run's state is a library call only: `grundy::heap::inspect`.
                    Some(dir) => {
                        let dir = dir.replace("$TMP", &tmp.0.to_string_lossy());
                        let saved = grundy::heap::inspect(Path::new(&dir))
                            .unwrap_or_else(|e| panic!("{place}: {e}"));
                        serde_json::to_string(&saved).unwrap()
                    }
                    None => run(cmd, &tmp.0),
                };
            }
            serde_json::from_str(&out).unwrap_or_else(|e| panic!("{place}: {e}: {out}"))
        };
        check_json(&place, &body, abridge, &actual);
        checked += 1;
    }
    assert!(checked >= 20, "docs/json.md: only {checked} examples found");
}

#[test]
fn abridged_examples_match_as_documented() {
    let actual: Value =
        serde_json::from_str(r#"{"a":[1,2,3,4],"b":{"c":"hello","d":5},"e":null}"#).unwrap();
    assert!(covers(&abridged(r#"{"a":[1,2,…],"b":{…}}"#), &actual));
    assert!(covers(
        &abridged(r#"{"a":[1,…,4],"b":{"c":"he…",…}}"#),
        &actual
    ));
    assert!(covers(&abridged(r#"{"a":[…],"e":null}"#), &actual));
    assert!(!covers(&abridged(r#"{"a":[2,…]}"#), &actual));
    assert!(!covers(&abridged(r#"{"a":[1,2]}"#), &actual));
    assert!(!covers(&abridged(r#"{"b":{"d":6}}"#), &actual));
    assert!(!covers(&abridged(r#"{"f":1}"#), &actual));
    assert_eq!(
        words("grundy maze '...|.#.|..@' --json"),
        ["grundy", "maze", "...|.#.|..@", "--json"]
    );
}
