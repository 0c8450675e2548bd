//! Heaps per second of each engine, one run each (the long runs criterion would repeat ten
//! times). Run: `cargo run --release -p grundy-heap --example heap_speed` (several minutes:
//! the last rows, squares and primes to 10^6, are the slow ones).

use grundy_heap::rule::InfiniteSet;
use grundy_heap::subtraction::direct_sequence;
use grundy_heap::{engine, reference, rule};
use std::time::Instant;

fn report(what: &str, n: u64, run: impl FnOnce() -> Vec<u32>) {
    let t = Instant::now();
    let v = run();
    let s = t.elapsed().as_secs_f64();
    assert_eq!(v.len() as u64, n + 1);
    println!(
        "{what:<40} {n:>10} heaps {s:>8.2} s {:>14.0} heaps/s",
        (n + 1) as f64 / s
    );
}

fn main() {
    let kayles = rule::parse_code("0.77").unwrap();
    for n in [10_000u64, 100_000] {
        report("reference engine, Kayles 0.77", n, || {
            reference::sequence(&kayles, n)
        });
    }
    let n = 10_000_000;
    let code = rule::parse("sub:1,3,4").unwrap().take_break().unwrap();
    report("reference engine, sub:1,3,4 (0.3033)", n, || {
        reference::sequence(&code, n)
    });
    for r in [
        "sub:1,3,4",
        "allbut:1,2",
        "nim",
        "sub:odd",
        "odd-even-nim",
        "sub:fib",
        "sub:pow2",
    ] {
        let rule = rule::parse(r).unwrap();
        report(&format!("engine, {r}"), n, || {
            engine::sequence(&rule, n).unwrap()
        });
    }
    let n = 1_000_000;
    for (r, set) in [
        ("sub:squares", InfiniteSet::Squares),
        ("sub:primes", InfiniteSet::Primes),
    ] {
        let rule = rule::parse(r).unwrap();
        report(&format!("engine, {r}"), n, || {
            engine::sequence(&rule, n).unwrap()
        });
        let members = set.members_upto(n);
        report(&format!("direct scan, {r}"), n, || {
            direct_sequence(&members, n)
        });
    }
}
