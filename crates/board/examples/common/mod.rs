//! What the examples share: reading a memory size from the command line, and ending with an
//! error's one line and exit status 2.

/// A size in bytes from `64M`, `3G`, `512K` or a plain number of bytes.
pub fn bytes(s: &str) -> Result<usize, String> {
    let s = s.trim();
    let (num, mul) = match s.chars().last() {
        Some('K' | 'k') => (&s[..s.len() - 1], 1 << 10),
        Some('M' | 'm') => (&s[..s.len() - 1], 1 << 20),
        Some('G' | 'g') => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    num.parse::<usize>()
        .map(|n| n.saturating_mul(mul))
        .map_err(|_| format!("bad size {s:?} (expected e.g. 64M)"))
}

/// Ends the example: on an error, its one line on stderr and exit status 2.
pub fn finish(result: Result<(), String>) {
    if let Err(e) = result {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}
