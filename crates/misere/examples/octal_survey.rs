//! Misère quotients of every two-digit octal game `0.d1d2` up to a heap bound:
//! `octal_survey [UPTO] [MAX_ORDER]` (defaults 16 and 400). One line per game, then a summary.

use std::time::Instant;

use grundy_misere::quotient::{Limits, QuotientEngine};

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let upto = args.first().copied().unwrap_or(16);
    let cap = args.get(1).copied().unwrap_or(400) as usize;
    let limits = Limits {
        max_order: cap,
        max_search: 2_000_000,
        max_verify: 1_000_000,
    };
    let (mut tame, mut done, mut stopped, mut largest) = (0, 0, 0, (0usize, String::new()));
    for d1 in 0..8 {
        for d2 in 0..8 {
            if d2 == 0 {
                continue; // 0.d1 is a one-digit game
            }
            let code = format!("0.{d1}{d2}");
            let t = Instant::now();
            let mut e = QuotientEngine::new(&code, limits).expect("valid code");
            let r = e.extend_to(upto);
            let q = e.quotient();
            let status = match &r {
                Ok(()) => {
                    done += 1;
                    if q.tame {
                        tame += 1;
                    }
                    if q.order > largest.0 {
                        largest = (q.order, code.clone());
                    }
                    "ok".to_string()
                }
                Err(err) => {
                    stopped += 1;
                    format!("stopped at heap {}: {err}", e.upto() + 1)
                }
            };
            println!(
                "{code}: heap {:2} |Q| = {:4} |P| = {:3} {:5} {:.2} s {status}",
                e.upto(),
                q.order,
                q.p_size,
                q.name.as_deref().unwrap_or("wild"),
                t.elapsed().as_secs_f64()
            );
        }
    }
    println!(
        "{done} games reached heap {upto}: {tame} tame; largest |Q| = {} ({}); {stopped} stopped early",
        largest.0, largest.1
    );
}
