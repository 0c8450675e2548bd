//! Fuzzing the `grundy` binary as a user (or a script gone wrong) runs it: every one of the 12
//! commands with malformed rules, huge numbers (10^30, 2^64, -1, 1e999, 100 000 digits),
//! unknown and misplaced flags, garbage files and standard input (random bytes, NULs, megabyte
//! lines), plots into missing directories, and forged checkpoint directories (random bytes and
//! validly checksummed forgeries of a genuine state file and chunk).
//!
//! Each invocation runs in its own scratch directory under a 2 GB address-space limit
//! (`ulimit -v`, so a multi-gigabyte allocation fails instead of passing unnoticed) and a
//! [`TIMEOUT`] (then Ctrl-C; a run still alive [`GRACE`] later is a hang). Outcomes are
//! classified:
//!
//! - `ok`: exit 0 (with `--json`, stdout must be one JSON object on one line);
//! - `refused`: exit 2, one line on stderr without control characters, nothing on stdout;
//! - `failed`: exit 1 (an I/O failure), one line on stderr;
//! - `stopped`: a valid but long computation still running at [`TIMEOUT`] that stopped on
//!   Ctrl-C (SIGINT) within [`GRACE`], exit 130, with the stop notice and one error line;
//! - failures of the test: `panic` (stderr says "panicked"), `signal` (an abort or a crash),
//!   `hang` (no exit even after Ctrl-C), `bad-refusal` (exit 1 or 2 with a multi-line or
//!   raw-control-character message, or output on stdout), `bad-json`, `other-exit`.
//!
//! Budget: `GRUNDY_FUZZ_RUNS` invocations (default 300, about half a minute); the seed is
//! `GRUNDY_FUZZ_SEED` (default fixed, printed with the class counts). The full run of 10^4
//! invocations is part of `scripts/fuzz` (the test profile builds the binary optimized):
//!
//! ```text
//! GRUNDY_FUZZ_RUNS=10000 cargo test -p grundy-cli --test fuzz_cli fuzz_every_command -- --nocapture
//! ```

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A run longer than this gets Ctrl-C (SIGINT): a valid but long request (`heap C.0 --upto
/// 20000`) must then stop within [`GRACE`], saying so in one line (exit 130).
const TIMEOUT: Duration = Duration::from_secs(10);
/// How long a run may take to stop after Ctrl-C; past it, it is a hang.
const GRACE: Duration = Duration::from_secs(5);
/// The address-space limit of every run, in KiB (`ulimit -v`): 2 GB.
const MEMORY_KIB: u64 = 2_000_000;
/// The longest argument generated (the kernel refuses one over 128 KiB).
const MAX_ARG_BYTES: usize = 120_000;
/// The most bytes of all arguments together.
const MAX_ARGS_BYTES: usize = 1_000_000;
/// Stdout kept per run (the rest is read and dropped).
const KEEP_STDOUT: usize = 1 << 20;

fn runs() -> u64 {
    std::env::var("GRUNDY_FUZZ_RUNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300)
}

fn seed() -> u64 {
    std::env::var("GRUNDY_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x6772_756e_6479)
}

// ---------------------------------------------------------------------------------------
// A small deterministic random source (SplitMix64), so that a seed replays a run exactly.

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }
}

// ---------------------------------------------------------------------------------------
// Inputs.

/// Characters mixed into garbage: controls (no NUL: arguments cannot hold one), separators,
/// signs, wide characters.
const SPECIAL: &[char] = &[
    '\n', '\r', '\t', '\x1b', '\x07', '\x7f', '\u{85}', '\u{2028}', '\u{feff}', ' ', '-', '+', '_',
    'e', 'E', '^', '*', '/', '=', ',', '.', ':', ';', '|', '#', '@', '!', '?', '[', ']', '\'', '"',
    '\\', '%', 'é', '€', '😀', '٣', '１',
];

/// A random string: over `alphabet` and [`SPECIAL`], sometimes one very long token.
fn garbage(r: &mut Rng, alphabet: &str, max: u64) -> String {
    let own: Vec<char> = alphabet.chars().collect();
    if r.chance(5) && !own.is_empty() {
        let c = *r.pick(&own);
        return c.to_string().repeat(r.range(1000, 200_000) as usize);
    }
    let len = r.below(max + 1);
    (0..len)
        .map(|_| {
            if !own.is_empty() && r.chance(70) {
                *r.pick(&own)
            } else if r.chance(90) {
                *r.pick(SPECIAL)
            } else {
                char::from_u32(r.range(1, 0x10FFFF) as u32).unwrap_or('?')
            }
        })
        .collect()
}

/// A valid input with a few random edits.
fn mutate(r: &mut Rng, valid: &str, alphabet: &str) -> String {
    let mut v: Vec<char> = valid.chars().collect();
    let own: Vec<char> = alphabet.chars().chain(SPECIAL.iter().copied()).collect();
    for _ in 0..r.below(4) {
        let n = v.len();
        match r.below(4) {
            0 => v.insert(r.below(n as u64 + 1) as usize, *r.pick(&own)),
            1 if n > 0 => {
                v.remove(r.below(n as u64) as usize);
            }
            2 if n > 0 => {
                let i = r.below(n as u64) as usize;
                v[i] = *r.pick(&own);
            }
            3 if n > 0 => {
                let at = r.below(n as u64) as usize;
                let len = r.range(1, 6) as usize;
                let span: Vec<char> = v[at..(at + len).min(n)].to_vec();
                let times = r.range(1, 2000) as usize;
                let tail = v.split_off(at);
                for _ in 0..times {
                    v.extend_from_slice(&span);
                }
                v.extend(tail);
            }
            _ => {}
        }
    }
    v.into_iter().collect()
}

/// Valid small numbers, huge ones, near misses and garbage.
fn number(r: &mut Rng, small_hi: u64) -> String {
    const HUGE: &[&str] = &[
        "1e30",
        "10^30",
        "2^64",
        "2^63",
        "18446744073709551615",
        "18446744073709551616",
        "340282366920938463463374607431768211456",
        "-1",
        "-0",
        "1e999",
        "1e-3",
        "0x10",
        "NaN",
        "inf",
        "1.5",
        "+3",
        "--1",
        "",
        " ",
        "1_000",
        "10**6",
        "0",
        "٣",
        "１２",
        "99999999999999999999999999999999999999999",
        "1e19",
        "2^32",
        "4294967296",
    ];
    match r.below(10) {
        0..=4 => r.below(small_hi + 1).to_string(),
        5..=6 => r.pick(HUGE).to_string(),
        7 => format!("1{}", "0".repeat(r.range(20, 120_000) as usize)),
        8 => {
            let v = r.below(small_hi + 1).to_string();
            mutate(r, &v, "0123456789")
        }
        _ => garbage(r, "0123456789", 12),
    }
}

/// File contents: a mutated valid text, random bytes, NULs, or a megabyte line.
fn file_bytes(r: &mut Rng, valid: &[&str], alphabet: &str) -> Vec<u8> {
    match r.below(10) {
        0..=4 => {
            let v = *r.pick(valid);
            mutate(r, v, alphabet).into_bytes()
        }
        5 => r.pick(valid).as_bytes().to_vec(),
        6 => (0..r.below(2000)).map(|_| r.next() as u8).collect(),
        7 => vec![0u8; r.below(5000) as usize],
        8 => {
            let c = *r.pick(&alphabet.chars().collect::<Vec<_>>());
            let mut v = c.to_string().repeat(r.range(10_000, 1_500_000) as usize);
            v.push('\n');
            v.into_bytes()
        }
        _ => garbage(r, alphabet, 200).into_bytes(),
    }
}

/// One invocation: arguments, standard input and files in its scratch directory.
#[derive(Default)]
struct Case {
    args: Vec<String>,
    stdin: Vec<u8>,
    files: Vec<(String, Vec<u8>)>,
    /// Directories to create (relative to the scratch directory).
    dirs: Vec<String>,
}

impl Case {
    fn arg(&mut self, a: impl Into<String>) {
        self.args.push(a.into());
    }
    fn flag(&mut self, name: &str, value: String) {
        self.args.push(name.to_string());
        self.args.push(value);
    }
    /// A file argument: a generated file, stdin (`-`), a missing file, a directory, or
    /// /dev/null.
    fn file_arg(&mut self, r: &mut Rng, bytes: Vec<u8>) -> String {
        match r.below(12) {
            0 => "missing.txt".into(),
            1 => ".".into(),
            2 => "/dev/null".into(),
            3..=5 => {
                self.stdin = bytes;
                "-".into()
            }
            _ => {
                self.files.push(("input.txt".into(), bytes));
                "input.txt".into()
            }
        }
    }
}

/// Flags that no command has, or that belong to another command.
fn stray_flag(r: &mut Rng) -> String {
    r.pick(&[
        "--misere",
        "--foo",
        "-x",
        "--json=1",
        "--upto",
        "--",
        "-",
        "--table",
        "--position",
        "--help=no",
        "-1",
        "--checkpoint",
        "---",
        "--json\n",
    ])
    .to_string()
}

const RULES: &[&str] = &[
    "0.77",
    ".07",
    "0.137",
    "4!.0",
    "4?.0",
    "0.3F",
    "0.[3]",
    "0.[12]",
    "sub:1,3,4",
    "sub:odd",
    "sub:fib",
    "allbut:1,2",
    "kayles",
    "dawsons-kayles",
    "grundys-game",
    "nim",
    "treblecross",
    "8.0",
    "0.1![37]",
    "sub:1,1000000",
];
const RULE_ALPHABET: &str =
    "0123456789.!?=[]:,abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_|";

fn rule(r: &mut Rng) -> String {
    match r.below(4) {
        0 | 1 => r.pick(RULES).to_string(),
        2 => {
            let v = r.pick(RULES).to_string();
            mutate(r, &v, RULE_ALPHABET)
        }
        _ => garbage(r, RULE_ALPHABET, 16),
    }
}

/// A checkpoint or save directory argument: a forged directory, a missing one, a file, or
/// /dev/null.
fn store_dir(r: &mut Rng, c: &mut Case, forge: &Forge) -> String {
    match r.below(10) {
        0 => "/dev/null".into(),
        1 => {
            c.files
                .push(("plain.txt".into(), b"not a directory".to_vec()));
            "plain.txt".into()
        }
        2 => "new/ckpt".into(),
        3 => "/proc/no/such/dir".into(),
        _ => {
            c.dirs.push("ckpt".into());
            if let Some(s) = forge.state(r) {
                c.files.push(("ckpt/state.bin".into(), s));
            }
            if let Some(ch) = forge.chunk(r) {
                c.files.push(("ckpt/chunk-00000000.bin".into(), ch));
            }
            "ckpt".into()
        }
    }
}

fn plot_path(r: &mut Rng) -> String {
    r.pick(&[
        "out.svg",
        "out.png",
        "out.PNG",
        "missing/dir/out.png",
        "missing/dir/out.svg",
        "out.txt",
        "out",
        "/dev/null",
        "/proc/nope.png",
        ".",
        "a\nb.svg",
    ])
    .to_string()
}

// ---------------------------------------------------------------------------------------
// One generator per command.

fn gen_nim(r: &mut Rng, c: &mut Case) {
    if r.chance(30) {
        c.arg("-");
        c.stdin = file_bytes(
            r,
            &["10 12 5\n", "1 2 3\n4 5 6\n", "18446744073709551615 1\n"],
            "0123456789 \n\t",
        );
    } else {
        for _ in 0..r.range(0, 6) {
            c.arg(number(r, 1000));
        }
    }
    for (f, p) in [("--misere", 30), ("--json", 40), ("--count-only", 20)] {
        if r.chance(p) {
            c.arg(f);
        }
    }
    if r.chance(15) {
        c.flag("--show", number(r, 100));
    }
}

fn gen_nimber(r: &mut Rng, c: &mut Case) {
    let op = if r.chance(85) {
        r.pick(&["add", "mul", "div", "inv", "sqrt", "pow"])
            .to_string()
    } else {
        garbage(r, "addmulinvsqrt", 6)
    };
    c.arg(op);
    for _ in 0..r.range(0, 3) {
        c.arg(number(r, 1 << 20));
    }
    if r.chance(40) {
        c.arg("--json");
    }
}

fn gen_graph(r: &mut Rng, c: &mut Case) {
    let bytes = file_bytes(
        r,
        &[
            "a b\nb c\nc d\n",
            "a\n",
            "# comment\na b\na c\nb c\n",
            "x y\ny x\n",
            "1 2\n2 3\n1 3\n3 4\n",
        ],
        "abcdxyz1234 \n#\t",
    );
    let f = c.file_arg(r, bytes);
    c.arg(f);
    if r.chance(50) {
        c.arg("--token");
        for _ in 0..r.range(1, 4) {
            let t = if r.chance(70) {
                r.pick(&["a", "b", "c", "d", "x", "1"]).to_string()
            } else {
                garbage(r, "abcd", 4)
            };
            c.arg(t);
        }
    }
    if r.chance(30) {
        c.arg("--misere");
    }
    if r.chance(20) {
        c.flag("--max-positions", number(r, 100_000));
    }
    if r.chance(40) {
        c.arg("--json");
    }
}

fn gen_heap(r: &mut Rng, c: &mut Case, forge: &Forge) {
    c.arg(rule(r));
    if r.chance(60) {
        c.flag("--upto", number(r, 3000));
    }
    if r.chance(15) {
        let f = if r.chance(80) {
            r.pick(&["table", "bfile"]).to_string()
        } else {
            garbage(r, "tablefi", 6)
        };
        c.flag("--format", f);
    }
    if r.chance(15) {
        c.arg("--period");
    }
    if r.chance(8) {
        c.flag("--prove-upto", number(r, 5000));
    }
    if r.chance(10) {
        c.flag("--plot", plot_path(r));
    }
    if r.chance(20) {
        c.arg("--position");
        for _ in 0..r.range(0, 4) {
            c.arg(number(r, 200));
        }
        if r.chance(30) {
            c.arg("--misere");
        }
        if r.chance(15) {
            c.flag("--max-positions", number(r, 20_000));
        }
    }
    if r.chance(10) {
        let e = if r.chance(80) {
            r.pick(&["auto", "reference", "sparse"]).to_string()
        } else {
            garbage(r, "sparse", 6)
        };
        c.flag("--engine", e);
    }
    if r.chance(8) {
        c.flag("--threads", number(r, 4));
    }
    if r.chance(15) {
        let d = store_dir(r, c, forge);
        c.flag("--checkpoint", d);
        if r.chance(30) {
            c.flag("--checkpoint-every", number(r, 5));
        }
    }
    if r.chance(8) {
        let d = store_dir(r, c, forge);
        c.flag("--save", d);
    }
    if r.chance(15) {
        c.arg("--summary");
    }
    if r.chance(5) {
        c.arg("--window");
    }
    if r.chance(5) {
        let p = r.pick(&["hist.txt", "missing/hist.txt", "/dev/null", "."]);
        c.flag("--histogram", p.to_string());
    }
    if r.chance(40) {
        c.arg("--json");
    }
}

/// A whole number of any size (fib, wythoff): valid, huge, or malformed.
fn big(r: &mut Rng) -> String {
    match r.below(6) {
        0 => format!(
            "{}{}",
            r.range(1, 9),
            "7".repeat(r.range(10, 12_000) as usize)
        ),
        1 => (r.next() as u128 * r.next() as u128).to_string(),
        _ => number(r, 1_000_000),
    }
}

fn gen_fib(r: &mut Rng, c: &mut Case) {
    c.arg(big(r));
    if r.chance(30) {
        c.flag("--limit", big(r));
    }
    if r.chance(30) {
        c.flag("--k", number(r, 10));
    }
    if r.chance(40) {
        c.arg("--json");
    }
}

fn gen_wythoff(r: &mut Rng, c: &mut Case) {
    match r.below(4) {
        0 => {
            c.flag("--table", number(r, 40));
            if r.chance(40) {
                c.flag("--plot", plot_path(r));
            }
        }
        1 => c.flag("--nth", big(r)),
        _ => {
            for _ in 0..r.range(0, 3) {
                c.arg(big(r));
            }
        }
    }
    if r.chance(40) {
        c.arg("--json");
    }
}

fn gen_maze(r: &mut Rng, c: &mut Case) {
    let bytes = file_bytes(
        r,
        &[
            "..#.\n.@..\n....\n",
            "@\n",
            "...\n.#.\n..@\n\n..@\n...\n",
            "###\n#@#\n",
        ],
        ".#@\n X",
    );
    let f = c.file_arg(r, bytes);
    c.arg(f);
    if r.chance(30) {
        c.arg("--grid");
    }
    if r.chance(40) {
        c.arg("--json");
    }
}

fn gen_walls(r: &mut Rng, c: &mut Case) {
    let bytes = file_bytes(
        r,
        &[
            "2 2\nX.\n..\n",
            "...\n.X.\n...\n",
            "3 4\n....\n.X..\n....\n",
            "1 1\n.\n",
        ],
        ".X\n 0123456789",
    );
    let f = c.file_arg(r, bytes);
    c.arg(f);
    if r.chance(40) {
        c.arg("--json");
    }
}

fn gen_cram(r: &mut Rng, c: &mut Case) {
    let small = r.chance(70);
    if r.chance(30) {
        let b = r.pick(&[".........|##.######", "....|....", "..|..", ".#.|...|.#."]);
        let b = b.to_string();
        let b = if r.chance(70) {
            mutate(r, &b, ".#|")
        } else {
            b
        };
        c.arg(b);
    } else {
        let hi = if small { 5 } else { 64 };
        c.arg(number(r, hi));
        c.arg(number(r, hi));
    }
    // Boards of up to 128 cells are searched: large ones get a small node limit, so that a
    // case ends within the timeout.
    if r.chance(20) || !small {
        c.flag("--max-positions", number(r, 50_000));
    } else if small && r.chance(10) {
        c.arg("--force");
    }
    if r.chance(15) {
        c.arg("--no-mirror");
    }
    if r.chance(15) {
        // A table file in the case's scratch directory: written by one run, read by the next.
        c.flag("--table", "cram.table".to_string());
    }
    if r.chance(40) {
        c.arg("--json");
    }
}

fn gen_chomp(r: &mut Rng, c: &mut Case) {
    let (rows, cols) = (number(r, 12), number(r, 12));
    c.arg(format!("{rows}x{cols}"));
    if r.chance(25) {
        c.flag("--max-positions", number(r, 50_000));
    }
    if r.chance(40) {
        c.arg("--json");
    }
}

fn gen_cards(r: &mut Rng, c: &mut Case) {
    if r.chance(35) {
        let bytes = file_bytes(
            r,
            &[
                "4 7 2 9\n",
                "1,2,5,2",
                "-3 -4\n5\n",
                "1000000000000 -1000000000000",
            ],
            "0123456789-, \n",
        );
        let f = c.file_arg(r, bytes);
        c.flag("--file", f);
    } else {
        for _ in 0..r.range(0, 8) {
            let v = match r.below(4) {
                0 => (r.next() as i64).to_string(),
                1 => format!("-{}", r.below(100)),
                _ => number(r, 100),
            };
            c.arg(v);
        }
    }
    if r.chance(20) {
        c.arg("--line");
    }
    if r.chance(40) {
        c.arg("--json");
    }
}

fn gen_penney(r: &mut Rng, c: &mut Case) {
    let pattern = |r: &mut Rng| match r.below(3) {
        0 => r.pick(&["HTH", "THH", "HHH", "HTT", "HH", "T"]).to_string(),
        1 => garbage(r, "HT", 8),
        _ => {
            let p = r.pick(&["HTHT", "THHT"]).to_string();
            mutate(r, &p, "HTX")
        }
    };
    match r.below(5) {
        0 => c.flag("--best-reply", pattern(r)),
        1 => c.flag("--best-first", number(r, 5)),
        2 => c.flag("--table", number(r, 4)),
        3 => c.flag("--cycle", number(r, 4)),
        _ => {
            for _ in 0..r.range(0, 4) {
                c.arg(pattern(r));
            }
        }
    }
    if r.chance(20) {
        let a = r.pick(&["HT", "123456", "ABC", "-+", "HTX"]).to_string();
        let a = if r.chance(50) {
            mutate(r, &a, "HTX")
        } else {
            a
        };
        c.flag("--alphabet", a);
    }
    if r.chance(20) {
        let p = r
            .pick(&["H=2/3,T=1/3", "H=0.5,T=0.5", "H=1/2,T=1/3", "H=1,T=0"])
            .to_string();
        let p = if r.chance(60) {
            mutate(r, &p, "HT=/0123456789.,")
        } else {
            p
        };
        c.flag("--prob", p);
    }
    if r.chance(15) {
        c.flag("--distribution", number(r, 30));
    }
    if r.chance(15) {
        c.flag("--simulate", number(r, 50));
    }
    if r.chance(10) {
        c.flag("--seed", number(r, 1000));
    }
    if r.chance(40) {
        c.arg("--json");
    }
}

const COMMANDS: &[&str] = &[
    "nim", "nimber", "graph", "heap", "fib", "wythoff", "maze", "walls", "cram", "chomp", "cards",
    "penney",
];

/// Cuts the long arguments: one may hold at most 128 KiB (Linux's MAX_ARG_STRLEN), all of
/// them together about 2 MB with the environment.
fn cap_args(c: &mut Case) {
    let mut room = MAX_ARGS_BYTES;
    for a in &mut c.args {
        let cap = MAX_ARG_BYTES.min(room);
        room -= a.len().min(cap);
        if a.len() > cap {
            let mut end = cap;
            while !a.is_char_boundary(end) {
                end -= 1;
            }
            a.truncate(end);
        }
    }
}

/// Invocation number `i` of the run seeded `seed`.
fn generate(seed: u64, i: u64, forge: &Forge) -> (String, Case) {
    let mut r = Rng(seed ^ i.wrapping_mul(0xA076_1D64_78BD_642F));
    r.next();
    let mut c = Case::default();
    if r.chance(2) {
        // No command, an unknown one, or garbage.
        for _ in 0..r.below(3) {
            let a = garbage(&mut r, "abcdefghijklmnopqrstuvwxyz-", 10);
            c.arg(a);
        }
        cap_args(&mut c);
        return ("(none)".into(), c);
    }
    let cmd = *r.pick(COMMANDS);
    c.arg(cmd);
    match cmd {
        "nim" => gen_nim(&mut r, &mut c),
        "nimber" => gen_nimber(&mut r, &mut c),
        "graph" => gen_graph(&mut r, &mut c),
        "heap" => gen_heap(&mut r, &mut c, forge),
        "fib" => gen_fib(&mut r, &mut c),
        "wythoff" => gen_wythoff(&mut r, &mut c),
        "maze" => gen_maze(&mut r, &mut c),
        "walls" => gen_walls(&mut r, &mut c),
        "cram" => gen_cram(&mut r, &mut c),
        "chomp" => gen_chomp(&mut r, &mut c),
        "cards" => gen_cards(&mut r, &mut c),
        _ => gen_penney(&mut r, &mut c),
    }
    // Unknown flags, shuffled arguments.
    if r.chance(12) {
        let at = r.range(1, c.args.len() as u64) as usize;
        c.args.insert(at, stray_flag(&mut r));
    }
    if r.chance(4) && c.args.len() > 2 {
        let i = r.range(1, c.args.len() as u64 - 1) as usize;
        let j = r.range(1, c.args.len() as u64 - 1) as usize;
        c.args.swap(i, j);
    }
    cap_args(&mut c);
    (cmd.to_string(), c)
}

// ---------------------------------------------------------------------------------------
// Forged checkpoints.

/// The last four bytes replaced by the CRC of the rest: a forgery that passes the checksum.
fn seal(mut b: Vec<u8>) -> Vec<u8> {
    if b.len() >= 4 {
        let n = b.len() - 4;
        let crc = crc32fast::hash(&b[..n]);
        b[n..].copy_from_slice(&crc.to_le_bytes());
    }
    b
}

/// A genuine state file (from a real run of `heap 4!.0 --upto 3000 --checkpoint`) and a
/// chunk-shaped file, to forge from.
struct Forge {
    state: Vec<u8>,
    /// Where the state's u64 fields (target, done, mask, payload length) start.
    fields: usize,
}

impl Forge {
    fn new(scratch: &Path) -> Forge {
        let dir = scratch.join("genuine");
        let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args([
                "heap",
                "4!.0",
                "--upto",
                "3000",
                "--summary",
                "--checkpoint",
            ])
            .arg(&dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let state = std::fs::read(dir.join("state.bin")).unwrap();
        let rule_len = u32::from_le_bytes(state[12..16].try_into().unwrap()) as usize;
        Forge {
            fields: 16 + rule_len,
            state,
        }
    }

    fn mutated(&self, r: &mut Rng, genuine: &[u8]) -> Vec<u8> {
        const INTERESTING: &[u64] = &[
            0,
            1,
            2,
            3000,
            3001,
            3002,
            1 << 22,
            (1 << 22) + 1,
            1 << 32,
            u64::MAX / 4,
            u64::MAX,
        ];
        let mut b = genuine.to_vec();
        for _ in 0..r.below(3) {
            let at = self.fields + 8 * r.below(4) as usize;
            let v = if r.chance(70) {
                *r.pick(INTERESTING)
            } else {
                r.next()
            };
            if at + 8 <= b.len() {
                b[at..at + 8].copy_from_slice(&v.to_le_bytes());
            }
        }
        for _ in 0..r.below(3) {
            let i = r.below(b.len() as u64) as usize;
            b[i] ^= (r.next() as u8).max(1);
        }
        if r.chance(15) {
            b.truncate(r.below(b.len() as u64 + 1) as usize);
        }
        if r.chance(85) {
            seal(b)
        } else {
            b
        }
    }

    fn state(&self, r: &mut Rng) -> Option<Vec<u8>> {
        match r.below(10) {
            0 => None,
            1 => Some((0..r.below(400)).map(|_| r.next() as u8).collect()),
            2 => Some(self.state.clone()),
            _ => Some(self.mutated(r, &self.state)),
        }
    }

    fn chunk(&self, r: &mut Rng) -> Option<Vec<u8>> {
        match r.below(4) {
            0 | 1 => None,
            2 => Some((0..r.below(100_000)).map(|_| r.next() as u8).collect()),
            _ => {
                // A chunk header on a state's body: magic swapped, fields forged, sealed.
                let mut b = self.state.clone();
                b[..8].copy_from_slice(b"GRUNDYCH");
                Some(self.mutated(r, &b))
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Running and classifying.

/// What one run did.
struct Outcome {
    code: Option<i32>,
    timed_out: bool,
    /// Still running at [`TIMEOUT`]: it was sent SIGINT (Ctrl-C).
    interrupted: bool,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    elapsed: Duration,
}

fn run_case(case: &Case, dir: &Path) -> Outcome {
    for d in &case.dirs {
        std::fs::create_dir_all(dir.join(d)).unwrap();
    }
    for (name, bytes) in &case.files {
        let p = dir.join(name);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(p, bytes).unwrap();
    }
    let mut args: Vec<OsString> = vec![
        "-c".into(),
        format!("ulimit -v {MEMORY_KIB} && exec \"$0\" \"$@\"").into(),
        env!("CARGO_BIN_EXE_grundy").into(),
    ];
    args.extend(case.args.iter().map(OsString::from));
    let start = Instant::now();
    let spawned = Command::new("sh")
        .args(&args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match spawned {
        Ok(child) => child,
        Err(e) => {
            let sizes: Vec<usize> = case.args.iter().map(String::len).collect();
            return Outcome {
                code: None,
                timed_out: false,
                interrupted: false,
                stdout: Vec::new(),
                stderr: format!("cannot start: {e}; argument sizes {sizes:?}").into_bytes(),
                elapsed: start.elapsed(),
            };
        }
    };
    let mut stdin = child.stdin.take().unwrap();
    let input = case.stdin.clone();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let _ = stdin.write_all(&input);
    });
    let mut out = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut buf = [0u8; 1 << 16];
        loop {
            match out.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) if kept.len() < KEEP_STDOUT => kept.extend_from_slice(&buf[..n]),
                Ok(_) => {}
            }
        }
        kept
    });
    let mut err = child.stderr.take().unwrap();
    let err_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err.read_to_end(&mut v);
        v
    });
    let (mut timed_out, mut interrupted) = (false, false);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > TIMEOUT && !interrupted {
            // Ctrl-C: a long computation must stop at once, in one line.
            interrupted = true;
            let _ = Command::new("kill")
                .args(["-INT", &child.id().to_string()])
                .status();
        }
        if start.elapsed() > TIMEOUT + GRACE {
            timed_out = true;
            let _ = child.kill();
            break child.wait().unwrap();
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let elapsed = start.elapsed();
    let _ = writer.join();
    Outcome {
        code: status.code(),
        timed_out,
        interrupted,
        stdout: reader.join().unwrap(),
        stderr: err_reader.join().unwrap(),
        elapsed,
    }
}

/// After Ctrl-C: at most the notice "grundy: stopping …" and one error line, no control
/// character.
fn stopped_cleanly(err: &str) -> bool {
    let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
    (1..=2).contains(&lines.len())
        && lines.iter().all(|l| !l.chars().any(char::is_control))
        && lines
            .last()
            .is_some_and(|l| l.starts_with("grundy: error: "))
}

/// The class of an outcome, and whether it is a failure.
fn classify(case: &Case, o: &Outcome) -> (&'static str, bool) {
    let err = String::from_utf8_lossy(&o.stderr);
    let one_clean_line = {
        let t = err.trim_end_matches('\n');
        !t.is_empty() && !t.chars().any(char::is_control)
    };
    if o.timed_out {
        return ("hang", true);
    }
    if err.contains("panicked") {
        return ("panic", true);
    }
    let Some(code) = o.code else {
        return ("signal", true);
    };
    let meta = case
        .args
        .iter()
        .any(|a| ["--help", "-h", "--version", "-V", "help"].contains(&a.as_str()));
    match code {
        0 => {
            let json = case.args.iter().any(|a| a == "--json");
            if json && !meta {
                let text = String::from_utf8_lossy(&o.stdout);
                let ok = text.ends_with('\n')
                    && text.trim_end().lines().count() == 1
                    && serde_json::from_str::<serde_json::Value>(&text).is_ok();
                if !ok && o.stdout.len() < KEEP_STDOUT {
                    return ("bad-json", true);
                }
            }
            ("ok", false)
        }
        130 if o.interrupted && stopped_cleanly(&err) => ("stopped", false),
        2 if one_clean_line && o.stdout.is_empty() => ("refused", false),
        1 if one_clean_line => ("failed", false),
        1 | 2 => ("bad-refusal", true),
        _ => ("other-exit", true),
    }
}

fn show(case: &Case) -> String {
    let files: Vec<String> = case
        .files
        .iter()
        .map(|(n, b)| format!("{n} ({} bytes: {:?})", b.len(), preview(b)))
        .collect();
    format!(
        "args {:?}, stdin {} bytes {:?}, files {files:?}",
        case.args
            .iter()
            .map(|a| preview(a.as_bytes()))
            .collect::<Vec<_>>(),
        case.stdin.len(),
        preview(&case.stdin)
    )
}

fn preview(b: &[u8]) -> String {
    let s = String::from_utf8_lossy(&b[..b.len().min(80)]).into_owned();
    if b.len() > 80 {
        format!("{s}… ({} bytes)", b.len())
    } else {
        s
    }
}

#[test]
fn fuzz_every_command() {
    let seed = seed();
    let total = runs();
    let root = std::env::temp_dir().join(format!("grundy-fuzz-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    let forge = Forge::new(&root);
    let next = AtomicU64::new(0);
    let classes: Mutex<BTreeMap<(&'static str, String), u64>> = Mutex::new(BTreeMap::new());
    let findings: Mutex<Vec<String>> = Mutex::new(Vec::new());
    // Examples of exit 1 (I/O failures: an unwritable plot, a missing file), for the report.
    let failed: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let slowest: Mutex<(Duration, String)> = Mutex::new((Duration::ZERO, String::new()));
    let workers = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(8);
    let started = Instant::now();
    std::thread::scope(|s| {
        for w in 0..workers {
            let (next, classes, findings, failed, slowest, forge, root) =
                (&next, &classes, &findings, &failed, &slowest, &forge, &root);
            s.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= total {
                    break;
                }
                let (cmd, case) = generate(seed, i, forge);
                let dir = root.join(format!("w{w}"));
                let _ = std::fs::remove_dir_all(&dir);
                std::fs::create_dir_all(&dir).unwrap();
                let o = run_case(&case, &dir);
                let (class, bad) = classify(&case, &o);
                *classes.lock().unwrap().entry((class, cmd)).or_default() += 1;
                {
                    let mut sl = slowest.lock().unwrap();
                    if o.elapsed > sl.0 {
                        *sl = (o.elapsed, show(&case));
                    }
                }
                if class == "failed" {
                    let mut f = failed.lock().unwrap();
                    if f.len() < 6 {
                        f.push(format!(
                            "{}: {}",
                            show(&case),
                            preview(&o.stderr).trim_end()
                        ));
                    }
                }
                if bad {
                    findings.lock().unwrap().push(format!(
                        "#{i} {class} (exit {:?}, {:?}): {}\n    stderr: {:?}\n    stdout: {:?}",
                        o.code,
                        o.elapsed,
                        show(&case),
                        preview(&o.stderr),
                        preview(&o.stdout)
                    ));
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(&root);
    let classes = classes.into_inner().unwrap();
    let mut by_class: BTreeMap<&str, u64> = BTreeMap::new();
    for ((class, _), n) in &classes {
        *by_class.entry(class).or_default() += n;
    }
    eprintln!(
        "fuzz_cli: {total} invocations (seed {seed}) in {:.1?} on {workers} workers",
        started.elapsed()
    );
    eprintln!("fuzz_cli classes: {by_class:?}");
    let mut by_cmd: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for ((class, cmd), n) in &classes {
        by_cmd.entry(cmd).or_default().push(format!("{class} {n}"));
    }
    for (cmd, v) in &by_cmd {
        eprintln!("  {cmd:8} {}", v.join(", "));
    }
    let (t, case) = slowest.into_inner().unwrap();
    eprintln!("fuzz_cli slowest run: {t:.1?}: {case}");
    for f in failed.into_inner().unwrap() {
        eprintln!("fuzz_cli failed (exit 1) e.g. {f}");
    }
    let findings = findings.into_inner().unwrap();
    for f in findings.iter().take(40) {
        eprintln!("{f}");
    }
    assert!(
        findings.is_empty(),
        "{} findings (replay with GRUNDY_FUZZ_SEED={seed})",
        findings.len()
    );
}

// ---------------------------------------------------------------------------------------
// Regression tests: each finding of this fuzzer, run as the user ran it.

/// Runs `grundy ARGS` (with `stdin`) under the fuzzer's memory limit and timeout, in a fresh
/// scratch directory holding `files`.
fn run_once(args: &[&str], stdin: &[u8], files: &[(&str, &[u8])]) -> Outcome {
    static N: AtomicU64 = AtomicU64::new(0);
    let dir = std::env::temp_dir().join(format!(
        "grundy-fuzz-reg-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let case = Case {
        args: args.iter().map(|a| a.to_string()).collect(),
        stdin: stdin.to_vec(),
        files: files
            .iter()
            .map(|(n, b)| (n.to_string(), b.to_vec()))
            .collect(),
        dirs: Vec::new(),
    };
    let o = run_case(&case, &dir);
    let _ = std::fs::remove_dir_all(&dir);
    o
}

/// A clean refusal (exit 2, one line naming `token`, nothing on stdout) under the limits.
fn refused(args: &[&str], token: &str) {
    refused_stdin(args, b"", token)
}

fn refused_stdin(args: &[&str], stdin: &[u8], token: &str) {
    let o = run_once(args, stdin, &[]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    let case = Case {
        args: args.iter().map(|a| a.to_string()).collect(),
        ..Case::default()
    };
    assert_eq!(classify(&case, &o), ("refused", false), "{args:?}: {err}");
    assert!(
        err.contains(token),
        "{args:?}: {err:?} does not name {token:?}"
    );
}

#[test]
fn unknown_flags_are_not_taken_as_values() {
    // Finding: `grundy wythoff --misere 3` read "--misere" as the first heap (positional
    // numbers and numeric options allowed any hyphen value). Negative numbers still reach the
    // commands' own messages.
    for args in [
        &["wythoff", "--misere", "3"][..],
        &["wythoff", "3", "--misere", "4"],
        &["wythoff", "--table", "--json"],
        &["wythoff", "--nth", "--json"],
        &["fib", "--k", "--json", "5"],
        &["fib", "--limit", "--json", "5"],
        &["fib", "--frobnicate", "5"],
        &["chomp", "3x4", "--threads", "2"],
        &["chomp", "3x4", "--max-positions", "--json"],
        &["cram", "3", "--json4"],
        &["cram", "3", "3", "--max-positions", "--json"],
        &["heap", "kayles", "--upto", "--json"],
        &["heap", "--frobnicate", "kayles"],
        &["heap", "kayles", "--prove-upto", "--json"],
        &["penney", "HT", "TH", "--simulate", "--json"],
        &["penney", "--table", "--json"],
        &["penney", "--best-reply", "--json"],
    ] {
        // clap's own words: "unexpected argument '--misere' found" or "a value is required
        // for '--table <N>'".
        refused(args, "");
        let err = String::from_utf8_lossy(&run_once(args, b"", &[]).stderr).into_owned();
        assert!(
            err.contains("unexpected argument") || err.contains("a value is required"),
            "{args:?}: {err}"
        );
    }
    // A missing argument is named on the one line (clap lists it on a line of its own).
    refused(&["heap", "--upto", "10"], "not provided: <RULE>");
    refused(&["wythoff", "-1", "3"], "negative heap '-1'");
    refused(&["fib", "-5"], "negative pile '-5'");
    refused(&["chomp", "-2x3"], "'-2'");
    refused(&["cram", "3", "-3"], "'-3'");
    refused(&["heap", "kayles", "--upto", "-1"], "negative number '-1'");
    refused(
        &["penney", "HT", "TH", "--simulate", "-5"],
        "negative number '-5'",
    );
    refused(&["nim", "-3"], "negative heap size '-3'");
}

#[test]
fn tokens_with_control_characters_are_escaped() {
    // Findings: a card, a --seed and other tokens holding a newline or an escape byte were
    // echoed raw, breaking the one-line error.
    refused(&["cards", "1", "x\ny"], r"'x\ny'");
    refused(
        &[
            "penney",
            "HT",
            "TH",
            "--simulate",
            "10",
            "--seed",
            "7 2\n01",
        ],
        r"'7 2\n01'",
    );
    refused(&["penney", "--best-first", "x\x1b[2J"], r"\u{1b}");
    refused(&["wythoff", "\x07", "3"], r"\u{7}");
    refused(&["chomp", "\u{7f}x3"], r"\u{7f}");
    refused(&["heap", "kay\nles"], r"'kay\nles'");
    refused(&["penney", "H\nT", "TH"], r"'H\nT'");
    refused(&["heap", "kayles", "--plot", "a\nb.txt"], r"'a\nb.txt'");
}

#[test]
fn a_file_is_not_a_checkpoint_directory() {
    // Finding: `--checkpoint /dev/null` said "creating /dev/null: File exists" (exit 1).
    refused(
        &["heap", "4!.0", "--upto", "100", "--checkpoint", "/dev/null"],
        "/dev/null is not a directory",
    );
    refused(
        &[
            "heap",
            "4!.0",
            "--upto",
            "100",
            "--save",
            "/dev/null",
            "--summary",
        ],
        "/dev/null is not a directory",
    );
}

#[test]
fn a_plot_into_a_missing_directory_fails_in_words() {
    // Finding: a PNG plot into a missing directory printed
    // `ImageError(IoError(Os { code: 2, … }))`.
    for args in [
        &[
            "heap",
            "kayles",
            "--upto",
            "50",
            "--plot",
            "missing/dir/k.png",
        ][..],
        &[
            "heap",
            "kayles",
            "--upto",
            "50",
            "--plot",
            "missing/dir/k.svg",
        ],
        &["wythoff", "--table", "8", "--plot", "missing/dir/w.png"],
        &["wythoff", "--table", "8", "--plot", "missing/dir/w.svg"],
    ] {
        let o = run_once(args, b"", &[]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.code, Some(1), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("cannot write plot"), "{err}");
        assert!(err.contains("No such file or directory"), "{err}");
        assert!(!err.contains("Os {"), "{err}");
    }
}

#[test]
fn huge_requests_are_refused_before_allocating() {
    // Under the 2 GB limit: refused in one line at once, never an abort.
    refused(
        &["heap", "0.137", "--upto", "5000000000"],
        "--upto 5000000000",
    );
    refused(&["heap", "0.137", "--upto", "2^64"], "too large");
    refused(
        &["heap", "sub:1,3,4", "--upto", "300000000", "--json"],
        "needs about",
    );
    refused(
        &["heap", "4!.0", "--upto", "1e12", "--summary"],
        "needs about",
    );
    refused(&["fib", &"9".repeat(120_000)], "digits");
    refused(
        &[
            "nimber",
            "mul",
            "340282366920938463463374607431768211456",
            "3",
        ],
        "",
    );
    // A corridor maze one line long: solved in little memory (it asked for 23.7 GB).
    let mut corridor = ".".repeat(435_481);
    corridor.push('@');
    let o = run_once(&["maze", "-", "--json"], corridor.as_bytes(), &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.code, Some(0), "{err}");
    let walls = "#".repeat(435_482);
    let o = run_once(&["maze", "-"], walls.as_bytes(), &[]);
    assert_eq!(o.code, Some(0), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn a_long_sequence_streams_within_the_memory_limit() {
    // `--json` of G(0..=3·10^7) is written as it is serialized, under the 2 GB limit.
    let o = run_once(&["heap", "sub:1,3,4", "--upto", "3e7", "--json"], b"", &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.code, Some(0), "{err}");
    assert!(!o.timed_out);
}

#[test]
fn a_period_search_of_a_cubic_rule_ends() {
    // Finding: `heap 0.3F --period` (moves split a heap into three) searched towards 2^22
    // heaps for minutes; the search now stays within a work budget.
    let o = run_once(&["heap", "0.3F", "--period", "--json"], b"", &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.code, Some(0), "{err}");
    assert!(!o.timed_out);
}

#[test]
fn a_long_valid_computation_stops_on_ctrl_c() {
    // `heap C.0 --upto 20000` (splits into two or three heaps: cubic) runs long by request; it
    // must stop on Ctrl-C at once, in one line after the notice, exit 130.
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["heap", "C.0", "--upto", "20000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let start = Instant::now();
    let out = loop {
        if child.try_wait().unwrap().is_some() {
            break child.wait_with_output().unwrap();
        }
        assert!(start.elapsed() < GRACE, "no exit after Ctrl-C");
        std::thread::sleep(Duration::from_millis(10));
    };
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(stopped_cleanly(&err), "{err:?}");
    assert!(out.stdout.is_empty());
}
