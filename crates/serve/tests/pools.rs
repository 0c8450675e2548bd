//! Pools by cost, not by endpoint: with the expensive pool saturated by long work (Grundy's
//! game tables, Cram boards and grid graphs asked through `/api/analyze`), cheap questions —
//! through the same endpoints — are never shed and are answered quickly. Bounded: three
//! seconds of load, a two-second time budget per request.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::{enc, get, start};
use grundy_serve::Config;

/// Questions the cheap attempt answers.
fn cheap() -> Vec<String> {
    vec![
        format!("/api/analyze?game=nim&position={}", enc("3 4 5")),
        "/api/wythoff?a=3&b=5".into(),
        format!(
            "/api/analyze?game=wythoff&position={}",
            enc("1000000 1618034")
        ),
        format!("/api/analyze?game=kayles&position={}", enc("5 7 9")),
        "/api/nim?heaps=10,12,5,7,9,11&misere=true".into(),
        "/api/heap?rule=kayles&upto=100".into(),
    ]
}

/// Questions that outgrow it, by the same endpoints.
fn expensive() -> Vec<String> {
    vec![
        "/api/heap?rule=grundy&upto=100000".into(),
        "/api/analyze?game=cram&position=5x7".into(),
        "/api/analyze?game=node-kayles&position=grid:4x8".into(),
        "/api/heap?rule=0.3F&upto=20000".into(),
    ]
}

#[test]
fn cheap_questions_are_never_shed_behind_expensive_work() {
    let config = Config {
        workers: 2,
        queue_wait: Duration::from_millis(50),
        timeout: Duration::from_secs(2),
        ..Config::default()
    };
    let addr = start(config);
    let stop = Arc::new(AtomicBool::new(false));
    let results: Arc<Mutex<Vec<(bool, u16, Duration)>>> = Arc::default();
    let mut clients = Vec::new();
    for (i, is_cheap) in (0..12).map(|i| (i, i % 3 == 0)) {
        let (stop, results) = (stop.clone(), results.clone());
        let paths = if is_cheap { cheap() } else { expensive() };
        clients.push(std::thread::spawn(move || {
            let mut k = i;
            while !stop.load(Ordering::Relaxed) {
                let path = &paths[k % paths.len()];
                k += 1;
                let t = Instant::now();
                let r = get(addr, path);
                results
                    .lock()
                    .unwrap()
                    .push((is_cheap, r.status, t.elapsed()));
                if is_cheap {
                    assert_eq!(r.status, 200, "{path}: {}", r.text());
                }
            }
        }));
    }
    std::thread::sleep(Duration::from_secs(3));
    stop.store(true, Ordering::Relaxed);
    for c in clients {
        c.join().unwrap();
    }
    let results = results.lock().unwrap();
    let mut cheap: Vec<Duration> = results.iter().filter(|r| r.0).map(|r| r.2).collect();
    cheap.sort();
    let expensive: Vec<u16> = results.iter().filter(|r| !r.0).map(|r| r.1).collect();
    let health = get(addr, "/api/health").json();
    eprintln!(
        "cheap: {} answered, median {:?}, max {:?}; expensive statuses {:?}; {health}",
        cheap.len(),
        cheap[cheap.len() / 2],
        cheap.last().unwrap(),
        expensive
    );
    // The expensive pool was full: some expensive requests were shed.
    assert!(expensive.contains(&503), "{expensive:?}");
    assert!(
        expensive.iter().all(|s| [200, 422, 503].contains(s)),
        "{expensive:?}"
    );
    // No cheap request was shed (each asserted 200 above), and they kept coming.
    assert!(cheap.len() >= 20, "{}", cheap.len());
    assert!(
        cheap[cheap.len() / 2] < Duration::from_millis(500),
        "median {:?}",
        cheap[cheap.len() / 2]
    );
    assert!(health["moved"].as_u64().unwrap() > 0, "{health}");
}

/// Work that outgrows its cheap attempt is answered by the expensive pool, the same answer
/// as the library's; work that fits it is answered there. (A cheap budget of 1000 search
/// nodes, so that which is which does not hang on the machine's speed.)
#[test]
fn outgrown_work_moves_and_is_answered() {
    let config = Config {
        cheap_budget: grundy::catalogue::Budget {
            max_positions: 1000,
            ..grundy_serve::CHEAP_BUDGET
        },
        ..Config::default()
    };
    let addr = start(config);
    let r = get(addr, "/api/analyze?game=cram&position=4x7");
    assert_eq!(r.status, 200, "{}", r.text());
    let want = grundy::catalogue::Registry::new()
        .ask(
            "cram",
            "4x7",
            &grundy::catalogue::Ask::new(grundy::catalogue::Play::Normal),
        )
        .unwrap();
    let got = r.json();
    assert_eq!(got["outcome"], serde_json::to_value(want.outcome).unwrap());
    assert_eq!(got["grundy"], serde_json::to_value(&want.grundy).unwrap());
    let h = get(addr, "/api/health").json();
    assert_eq!(h["moved"], 1, "{h}");
    assert_eq!(h["expensive_answered"], 1, "{h}");
    // A small board is answered by its cheap attempt.
    assert_eq!(get(addr, "/api/analyze?game=cram&position=2x3").status, 200);
    let h = get(addr, "/api/health").json();
    assert_eq!(h["moved"], 1, "{h}");
    assert_eq!(h["cheap_answered"], 1, "{h}");
}
