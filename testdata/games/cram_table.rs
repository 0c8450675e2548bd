//! The reader of `cram.txt` (this folder) that every test of Cram includes with
//! `#[path = ".../testdata/games/cram_table.rs"] mod cram_table;`: one parser for one
//! reference table, next to it.

/// The values of `cram.txt`: `(rows, columns, value)` for each `rows: v v v …` line (columns
/// 4, 5, … in order); `-` and `?` entries (unknown) and `#` comment lines are skipped.
pub fn reference() -> Vec<(usize, usize, u64)> {
    let mut out = Vec::new();
    for line in include_str!("cram.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
    {
        let Some((r, vals)) = line.split_once(':') else {
            continue;
        };
        let Ok(r) = r.trim().parse::<usize>() else {
            continue;
        };
        for (i, v) in vals.split_whitespace().enumerate() {
            if let Ok(v) = v.parse() {
                out.push((r, 4 + i, v));
            }
        }
    }
    out
}
