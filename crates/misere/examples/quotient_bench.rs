//! Heaps per second of the misère quotient engine on a few rules.
//!
//! `cargo run --release -p grundy-misere --example quotient_bench -- [--max-order N] [--max-search N] [RULE UPTO]...`
//! (default: 0.75 to 30, 0.77 to 30, 0.07 to 20, 0.137 to 20; `--max-order` sets the |Q| cap
//! of [`Limits`], the non-convergence detector; `--max-search` its search budget, which also
//! bounds the states the exact extension step builds).

use std::time::Instant;

use grundy_misere::quotient::{Limits, QuotientEngine};

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut limits = Limits::default();
    loop {
        match args.first().map(String::as_str) {
            Some("--max-order") => {
                limits.max_order = args
                    .get(1)
                    .and_then(|x| x.parse().ok())
                    .expect("--max-order N");
            }
            Some("--max-search") => {
                limits.max_search = args
                    .get(1)
                    .and_then(|x| x.parse().ok())
                    .expect("--max-search N");
            }
            _ => break,
        }
        args.drain(..2);
    }
    let jobs: Vec<(String, u64)> = if args.len() >= 2 {
        args.chunks(2)
            .filter_map(|c| Some((c[0].clone(), c.get(1)?.parse().ok()?)))
            .collect()
    } else {
        vec![
            ("0.75".into(), 30),
            ("0.77".into(), 30),
            ("0.07".into(), 20),
            ("0.137".into(), 20),
        ]
    };
    for (rule, upto) in jobs {
        let mut e = match QuotientEngine::new(&rule, limits) {
            Ok(e) => e,
            Err(err) => {
                println!("{rule}: {err}");
                continue;
            }
        };
        let t = Instant::now();
        let mut stopped = None;
        for n in 1..=upto {
            let t0 = Instant::now();
            if let Err(err) = e.extend_to(n) {
                stopped = Some(err);
                break;
            }
            let q = e.quotient();
            let fb = if e.fallbacks().last() == Some(&n) {
                " (position search)"
            } else if e.exact_heaps().last() == Some(&n) {
                " (exact extension)"
            } else {
                ""
            };
            println!(
                "{rule} heap {n:3}: |Q| = {:4} |P| = {:3} {:>6.3} s{fb}",
                q.order,
                q.p_size,
                t0.elapsed().as_secs_f64()
            );
        }
        let secs = t.elapsed().as_secs_f64();
        let q = e.quotient();
        println!(
            "{rule}: to heap {} in {secs:.3} s ({:.2} heaps/s), |Q| = {}, |P| = {}, tame: {}, presentation: {}",
            e.upto(),
            e.upto() as f64 / secs,
            q.order,
            q.p_size,
            q.name.as_deref().unwrap_or("no"),
            q.presentation
        );
        println!(
            "{rule}: {} heaps with a split element, {} look-ahead rounds",
            e.splits(),
            e.lookahead_rounds()
        );
        if !e.exact_heaps().is_empty() {
            println!(
                "{rule}: the exact extension step settled heaps {:?} ({} recursions)",
                e.exact_heaps(),
                e.exact_steps().len()
            );
        }
        if !e.fallbacks().is_empty() {
            println!(
                "{rule}: the position search answered instead at heaps {:?}",
                e.fallbacks()
            );
        }
        if let Some(err) = stopped {
            println!("{rule}: stopped: {err}");
        }
    }
}
