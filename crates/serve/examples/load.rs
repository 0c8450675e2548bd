//! A bounded load test of `grundy serve` over loopback:
//!
//! ```text
//! cargo run --release -p grundy-serve --example load [-- REQUESTS CLIENTS [MIX [GRUNDY]]]
//! ```
//!
//! Starts the server in this process (default limits) on a free port, then CLIENTS threads
//! (default 32) send REQUESTS requests in all (default 2000), each on its own connection, from
//! a fixed mix. MIX `mixed` (the default): cheap questions (Nim, Wythoff, Fibonacci Nim, small
//! Kayles, through `/api/analyze` and its aliases; the game list; health), expensive ones (a
//! play turn, heap sequences to 100 000, a Penney race with a simulation, Kayles positions,
//! Grundy's game, Cram 5x7 through `/api/analyze`) and malformed ones (bad numbers, unknown
//! rules, oversized bodies, bad UTF-8). MIX `grundy`: half Grundy's-game tables
//! (`/api/heap?rule=grundy&upto=20000`), half `/api/analyze?game=nim&position=3 4 5` and
//! `/api/nim?heaps=3,4,5` (the case of issue 39). MIX `restart` measures instead the price of
//! the cheap attempt: each expensive question alone, twice: the first time it starts cheap and
//! moves, the second time the server knows it (its wall times, and the cheap attempt's). MIX
//! `door` (`-- ROUNDS 1 door [GRUNDY]`) measures the web door beside the command line: Nim
//! 3 4 5 and Cram values asked ROUNDS times each by `/api/analyze` and by the command
//! (`target/release/grundy` unless GRUNDY is given), interleaved, wall and CPU medians.
//! Otherwise a separate thread times `/api/health` every 20 ms meanwhile. It prints
//! throughput, latency percentiles, status counts and latencies for each request of the mix,
//! the health latencies and the process's peak memory and CPU time, and exits 1 if any answer was a 5xx other than 503, a cheap request was shed (503), a
//! malformed request was not a 4xx (or a 503: shed while busy, when its fault shows only inside
//! the library call), health was slow (p99 over 100 ms) or peak memory passed 2 GiB.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Kind {
    Cheap,
    Expensive,
    Malformed,
}

/// One request of the mix, measured: its latencies and how many answers had each status.
type PathStats = (Vec<Duration>, BTreeMap<u16, usize>);

fn mix(name: &str) -> Vec<(Kind, String, Option<Vec<u8>>)> {
    let get = |k, p: &str| (k, p.to_string(), None);
    if name == "grundy" {
        return vec![
            get(Kind::Expensive, "/api/heap?rule=grundy&upto=20000"),
            get(Kind::Cheap, "/api/analyze?game=nim&position=3%204%205"),
            get(Kind::Expensive, "/api/heap?rule=grundy&upto=20000"),
            get(Kind::Cheap, "/api/nim?heaps=3,4,5"),
        ];
    }
    let big = vec![b'x'; 2 << 20];
    vec![
        get(Kind::Cheap, "/api/nim?heaps=3,4,5"),
        get(Kind::Cheap, "/api/analyze?game=nim&position=3%204%205"),
        get(Kind::Cheap, "/api/nim?heaps=10,12,5,7,9,11&misere=true"),
        get(Kind::Cheap, "/api/wythoff?a=1000000&b=1618034"),
        get(Kind::Cheap, "/api/analyze?game=kayles&position=5%207%209"),
        get(Kind::Cheap, "/api/fib?n=1000"),
        get(Kind::Cheap, "/api/games"),
        get(Kind::Expensive, "/api/play?game=kayles&position=5%207%209"),
        get(Kind::Expensive, "/api/heap?rule=kayles&upto=300"),
        get(Kind::Cheap, "/api/health"),
        get(Kind::Expensive, "/api/heap?rule=0.137&upto=100000"),
        get(Kind::Expensive, "/api/heap?rule=4!.0&upto=100000"),
        get(Kind::Expensive, "/api/heap?rule=kayles&period=true"),
        get(
            Kind::Expensive,
            "/api/heap/analyze?rule=kayles&heaps=700,900,1200",
        ),
        get(
            Kind::Expensive,
            "/api/penney?patterns=HTHT,THHT,HHTT&simulate=200000&seed=3",
        ),
        get(Kind::Expensive, "/api/play?game=chomp&position=6x7"),
        get(Kind::Expensive, "/api/heap?rule=grundy&upto=20000"),
        get(Kind::Expensive, "/api/analyze?game=cram&position=5x7"),
        get(Kind::Malformed, "/api/nim?heaps=99999999999999999999999"),
        get(Kind::Malformed, "/api/heap?rule=0.9z&upto=10"),
        get(Kind::Malformed, "/api/heap?rule=kayles&upto=1e12"),
        get(Kind::Malformed, "/api/penney?patterns=H%FFT"),
        get(Kind::Malformed, "/api/wythoff?a=x&b=1"),
        (Kind::Malformed, "/api/nim".to_string(), Some(big)),
        (
            Kind::Malformed,
            "/api/heap".to_string(),
            Some(vec![0xff, 0xfe, b'{']),
        ),
    ]
}

fn request(addr: SocketAddr, path: &str, body: Option<&[u8]>) -> u16 {
    let Ok(mut s) = TcpStream::connect(addr) else {
        return 0;
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(60)));
    let head = match body {
        None => format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
        Some(b) => format!(
            "POST {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            b.len()
        ),
    };
    let _ = s.write_all(head.as_bytes());
    if let Some(b) = body {
        let _ = s.write_all(b);
    }
    let mut buf = Vec::new();
    let _ = s.read_to_end(&mut buf);
    let text = String::from_utf8_lossy(&buf[..buf.len().min(64)]);
    text.split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn peak_rss_mib() -> f64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    s.lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|k| k.parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

/// The JSON body of `GET path`.
fn get_json(addr: SocketAddr, path: &str) -> String {
    let mut s = TcpStream::connect(addr).expect("connect");
    let _ = s.set_read_timeout(Some(Duration::from_secs(60)));
    let _ = write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    );
    let mut buf = String::new();
    let _ = s.read_to_string(&mut buf);
    buf.split_once("\r\n\r\n")
        .map_or(String::new(), |(_, b)| b.to_string())
}

/// A number field of a flat JSON object (the health answer).
fn field(json: &str, name: &str) -> f64 {
    let key = format!("\"{name}\":");
    json.split(&key)
        .nth(1)
        .and_then(|r| r.split([',', '}']).next())
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0.0)
}

/// MIX `restart`: the price of the cheap attempt. Each expensive question of the list alone on
/// the server, twice: the first time it starts cheap and moves (its wall time, and the time its
/// cheap attempt spent before it moved, from `/api/health`'s `moved_ms`), the second time the
/// server knows it and starts it on the expensive pool (its wall time).
fn restart(addr: SocketAddr) {
    let paths = [
        "/api/analyze?game=cram&position=4x7",
        "/api/analyze?game=cram&position=5x6",
        "/api/analyze?game=cram&position=5x7&moves=value",
        "/api/analyze?game=cram&position=4x9&moves=value",
        "/api/analyze?game=node-kayles&position=grid:4x8",
        "/api/heap?rule=grundy&upto=20000",
        "/api/heap?rule=grundy&upto=50000",
        "/api/heap?rule=0.137&upto=100000",
        "/api/heap/analyze?rule=kayles&heaps=700,900,1200",
        "/api/play?game=chomp&position=6x7",
        "/api/misere/quotient?rule=0.75&upto=20",
    ];
    println!(
        "| question | status | first: wall ms | its cheap attempt ms | second (known): wall ms |"
    );
    println!("|---|---|---|---|---|");
    for path in paths {
        let before = field(&get_json(addr, "/api/health"), "moved_ms");
        let t = Instant::now();
        let status = request(addr, path, None);
        let first = ms(t.elapsed());
        let cheap = field(&get_json(addr, "/api/health"), "moved_ms") - before;
        let t = Instant::now();
        request(addr, path, None);
        let second = ms(t.elapsed());
        println!("| `{path}` | {status} | {first:.0} | {cheap:.0} | {second:.0} |");
    }
}

/// MIX `door`: the web door beside the command line for the same questions, `rounds` times
/// each, interleaved (a CLI run, then the request): the wall time and CPU time of the command
/// `grundy` (the binary given, start-up included) and of the request (its wall time seen by
/// the client; the CPU time of this process across it, the server's work and the client's).
/// Medians; the last column is web / CLI.
fn door(addr: SocketAddr, rounds: usize, grundy: &str) {
    let cases: [(&str, &[&str]); 6] = [
        (
            "/api/analyze?game=nim&position=3%204%205",
            &["analyze", "nim", "3 4 5", "--json"],
        ),
        ("/api/nim?heaps=3,4,5", &["nim", "3", "4", "5", "--json"]),
        (
            "/api/analyze?game=cram&position=4x9&moves=value",
            &["analyze", "cram", "4x9", "--moves", "value", "--json"],
        ),
        (
            "/api/analyze?game=cram&position=4x9&moves=value",
            &["cram", "4", "9", "--moves", "value", "--json"],
        ),
        (
            "/api/analyze?game=cram&position=5x7&moves=value",
            &["analyze", "cram", "5x7", "--moves", "value", "--json"],
        ),
        (
            "/api/analyze?game=cram&position=4x7",
            &["analyze", "cram", "4x7", "--json"],
        ),
    ];
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    println!(
        "| question | command | command: wall ms, CPU ms | web: wall ms, CPU ms | web / command (wall, CPU) |"
    );
    println!("|---|---|---|---|---|");
    for (path, args) in cases {
        let (mut cw, mut cc, mut ww, mut wc) = (vec![], vec![], vec![], vec![]);
        for _ in 0..rounds.max(1) {
            let before = children_cpu_seconds();
            let t = Instant::now();
            let out = std::process::Command::new(grundy)
                .args(args)
                .output()
                .expect("the grundy binary runs");
            cw.push(ms(t.elapsed()));
            cc.push((children_cpu_seconds() - before) * 1000.0);
            assert!(
                out.status.success(),
                "{args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let before = cpu_seconds();
            let t = Instant::now();
            let status = request(addr, path, None);
            ww.push(ms(t.elapsed()));
            wc.push((cpu_seconds() - before) * 1000.0);
            assert_eq!(status, 200, "{path}");
        }
        let (cw, cc, ww, wc) = (median(cw), median(cc), median(ww), median(wc));
        println!(
            "| `{path}` | `grundy {}` | {cw:.1}, {cc:.0} | {ww:.1}, {wc:.0} | {:.2}, {:.2} |",
            args.join(" "),
            ww / cw,
            wc / cc.max(1.0),
        );
    }
}

/// The CPU time (user + system) of this process's children that have been waited for, in
/// seconds.
fn children_cpu_seconds() -> f64 {
    stat_seconds(13)
}

/// This process's CPU time so far (user + system), in seconds.
fn cpu_seconds() -> f64 {
    stat_seconds(11)
}

/// Two clock-tick fields of `/proc/self/stat` from `skip` (counted after the command's
/// closing parenthesis: utime, stime at 11; cutime, cstime at 13), summed, in seconds.
fn stat_seconds(skip: usize) -> f64 {
    let s = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let rest = s.rsplit(')').next().unwrap_or("");
    let f: Vec<f64> = rest
        .split_whitespace()
        .skip(skip)
        .take(2)
        .filter_map(|x| x.parse().ok())
        .collect();
    f.iter().sum::<f64>() / 100.0
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: usize| {
        args.get(i)
            .map_or(default, |a| a.parse().expect("REQUESTS CLIENTS [MIX]"))
    };
    let total = number(0, 2000);
    let clients = number(1, 32);
    let mix_name = args.get(2).map_or("mixed", String::as_str).to_string();
    let config = grundy_serve::Config::default();
    println!(
        "load ({mix_name}): {total} requests from {clients} clients; server: {} workers, queue wait {} ms, time budget {} ms, {} cores",
        config.workers,
        config.queue_wait.as_millis(),
        config.timeout.as_millis(),
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(l.local_addr().unwrap()).unwrap();
            grundy_serve::serve(l, config, std::future::pending())
                .await
                .unwrap();
        });
    });
    let addr = rx.recv().unwrap();
    if mix_name == "restart" {
        restart(addr);
        return;
    }
    if mix_name == "door" {
        let grundy = args.get(3).map_or("target/release/grundy", String::as_str);
        door(addr, total, grundy);
        return;
    }
    let rss_idle = peak_rss_mib();

    let mix = Arc::new(mix(&mix_name));
    let cpu_idle = cpu_seconds();
    // A fixed shuffle of the mix: request i takes entry (i * stride) mod len, the stride the
    // first from 7 that is coprime to len, so that every entry is taken equally often.
    let gcd = |mut a: usize, mut b: usize| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    let stride = (7..).find(|&s| gcd(s, mix.len()) == 1).unwrap_or(1);
    let next = Arc::new(AtomicUsize::new(0));
    let results: Arc<Mutex<Vec<(usize, u16, Duration)>>> = Arc::new(Mutex::new(Vec::new()));
    let done = Arc::new(AtomicBool::new(false));
    let health = {
        let done = done.clone();
        std::thread::spawn(move || {
            let mut times = Vec::new();
            let mut bad = 0;
            while !done.load(Ordering::Relaxed) {
                let t = Instant::now();
                if request(addr, "/api/health", None) != 200 {
                    bad += 1;
                }
                times.push(t.elapsed());
                std::thread::sleep(Duration::from_millis(20));
            }
            (times, bad)
        })
    };
    let start = Instant::now();
    let workers: Vec<_> = (0..clients)
        .map(|_| {
            let (mix, next, results) = (mix.clone(), next.clone(), results.clone());
            std::thread::spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= total {
                    break;
                }
                let entry = (i * stride) % mix.len();
                let (_, path, body) = &mix[entry];
                let t = Instant::now();
                let status = request(addr, path, body.as_deref());
                results.lock().unwrap().push((entry, status, t.elapsed()));
            })
        })
        .collect();
    for w in workers {
        w.join().unwrap();
    }
    let wall = start.elapsed();
    done.store(true, Ordering::Relaxed);
    let (mut htimes, hbad) = health.join().unwrap();
    htimes.sort();

    let cpu = cpu_seconds() - cpu_idle;
    let entries = results.lock().unwrap().clone();
    let results: Vec<(Kind, u16, Duration)> =
        entries.iter().map(|&(e, s, d)| (mix[e].0, s, d)).collect();
    // By request of the mix (one path may stand at several places: merged).
    let mut by_path: BTreeMap<(Kind, &str), PathStats> = BTreeMap::new();
    for &(e, s, d) in &entries {
        let x = by_path.entry((mix[e].0, mix[e].1.as_str())).or_default();
        x.0.push(d);
        *x.1.entry(s).or_default() += 1;
    }
    let mut all: Vec<Duration> = results.iter().map(|r| r.2).collect();
    all.sort();
    let mut statuses: BTreeMap<u16, usize> = BTreeMap::new();
    let mut by_kind: BTreeMap<Kind, (Vec<Duration>, BTreeMap<u16, usize>)> = BTreeMap::new();
    for (k, s, d) in results.iter() {
        *statuses.entry(*s).or_default() += 1;
        let e = by_kind.entry(*k).or_default();
        e.0.push(*d);
        *e.1.entry(*s).or_default() += 1;
    }
    println!(
        "throughput: {:.0} requests/s ({} in {:.2} s)",
        results.len() as f64 / wall.as_secs_f64(),
        results.len(),
        wall.as_secs_f64()
    );
    println!(
        "latency: p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        ms(percentile(&all, 0.5)),
        ms(percentile(&all, 0.9)),
        ms(percentile(&all, 0.99)),
        ms(*all.last().unwrap_or(&Duration::ZERO))
    );
    println!("statuses: {statuses:?}");
    for (k, (mut d, s)) in by_kind {
        d.sort();
        println!(
            "  {k:?}: {} requests, p50 {:.1} ms, p99 {:.1} ms, statuses {s:?}",
            d.len(),
            ms(percentile(&d, 0.5)),
            ms(percentile(&d, 0.99))
        );
    }
    for ((k, path), (mut d, s)) in by_path {
        d.sort();
        println!(
            "    {k:?} {path}: {} requests, p50 {:.1} ms, p99 {:.1} ms, statuses {s:?}",
            d.len(),
            ms(percentile(&d, 0.5)),
            ms(percentile(&d, 0.99))
        );
    }
    println!(
        "CPU (server and clients, user+sys): {cpu:.2} s in {:.2} s",
        wall.as_secs_f64()
    );
    println!("/api/health after: {}", get_json(addr, "/api/health"));
    let hp99 = percentile(&htimes, 0.99);
    println!(
        "/api/health during the load: {} probes, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms, {} not 200",
        htimes.len(),
        ms(percentile(&htimes, 0.5)),
        ms(hp99),
        ms(*htimes.last().unwrap_or(&Duration::ZERO)),
        hbad
    );
    let rss = peak_rss_mib();
    println!("peak memory (VmHWM, server and clients): {rss:.0} MiB (idle {rss_idle:.0} MiB)");

    let mut failures = Vec::new();
    for (k, s, _) in results.iter() {
        if *s >= 500 && *s != 503 || *s == 0 {
            failures.push(format!("{k:?} answered {s}"));
        }
        // A malformed request is refused (4xx), or shed with the rest when every worker is
        // busy (503) if its fault shows only once the library looks at it.
        if *k == Kind::Malformed && !(400..500).contains(s) && *s != 503 {
            failures.push(format!("a malformed request answered {s}"));
        }
        // Cheap requests have a pool of their own: never shed behind expensive work.
        if *k == Kind::Cheap && *s == 503 {
            failures.push("a cheap request was shed (503)".to_string());
        }
    }
    if hbad > 0 || hp99 > Duration::from_millis(100) {
        failures.push(format!("health slow or failing: p99 {hp99:?}, {hbad} bad"));
    }
    if rss > 2048.0 {
        failures.push(format!("peak memory {rss:.0} MiB"));
    }
    failures.dedup();
    if failures.is_empty() {
        println!("load: ok");
    } else {
        println!("load: FAILED: {}", failures.join("; "));
        std::process::exit(1);
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
