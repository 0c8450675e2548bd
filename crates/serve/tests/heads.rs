//! Large positions and large requests: a position too long for a URL is answered 414 with a
//! JSON error, and the same position sent by POST is answered; heads too large are 431 in
//! JSON; requests that follow one another on one connection (bodies between them) all pass the
//! connection guard.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use common::{enc, get, post, raw, start};
use grundy::catalogue::{Ask, Play, Registry};
use grundy_serve::Config;

/// A Hackenbush tree of `n` edges (a binary tree hanging from the ground), in the game's
/// notation.
fn tree(n: usize) -> String {
    (1..=n)
        .map(|i| format!("{}-{i}", (i - 1) / 2))
        .collect::<Vec<_>>()
        .join(",")
}

#[test]
fn a_position_too_long_for_a_url_is_414_json_and_posted_is_answered() {
    let addr = start(Config::default());
    let position = tree(10_000);
    assert!(position.len() > 64 << 10, "{}", position.len());
    // GET: longer than the request line may be (and than hyper itself takes).
    let r = get(
        addr,
        &format!("/api/analyze?game=hackenbush&position={position}"),
    );
    assert_eq!(r.status, 414, "{}", r.text());
    assert_eq!(r.content_type, "application/json");
    let e = r.json()["error"].as_str().unwrap().to_string();
    assert!(e.contains("POST") && !e.contains('\n'), "{e}");
    // Just past the server's limit, below hyper's: the same answer.
    let r = get(addr, &format!("/api/nim?heaps={}", "1,".repeat(20_000)));
    assert_eq!(r.status, 414, "{}", r.text());
    // POST: answered, the registry's report.
    let body = serde_json::json!({"game": "hackenbush", "position": position}).to_string();
    let r = post(addr, "/api/analyze", "application/json", body.as_bytes());
    assert_eq!(r.status, 200, "{}", r.text());
    let want = Registry::new()
        .ask("hackenbush", &position, &Ask::new(Play::Normal))
        .unwrap();
    assert_eq!(r.json(), serde_json::to_value(&want).unwrap());
    // The params and the detail of a POST: JSON values of any plain type.
    let body = br#"{"game": "fib", "position": 100, "k": 3, "moves": "value", "misere": false}"#;
    let r = post(addr, "/api/analyze", "application/json", body);
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["detail"], "value");
    for (body, what) in [
        (
            &br#"{"game": "fib", "position": "100", "bogus": 1}"#[..],
            "bogus",
        ),
        (
            br#"{"game": "kayles", "position": "5", "threads": 2}"#,
            "threads",
        ),
        (br#"{"game": "fib", "position": "100", "k": [1]}"#, "'k'"),
        (br#"{"position": "100"}"#, "game"),
        (br#"[1, 2]"#, "JSON"),
    ] {
        let r = post(addr, "/api/analyze", "application/json", body);
        assert_eq!(r.status, 400, "{}", r.text());
        let e = r.json()["error"].as_str().unwrap().to_string();
        assert!(e.contains(what), "{what}: {e}");
    }
    // Still healthy.
    assert_eq!(get(addr, "/api/health").json()["status"], "ok");
}

/// `/api/play` takes large requests the same way: a turn whose history is too long for a URL is
/// a 414 in JSON by GET, and the same turn by POST is answered; a body over the limit is a 413
/// in JSON.
#[test]
fn a_play_turn_too_long_for_a_url_is_414_json_and_posted_is_answered() {
    let addr = start(Config::default());
    // 8,000 earlier positions of a heap of Nim, each once: no draw by repetition.
    let history: Vec<String> = (2..8002).rev().map(|n| n.to_string()).collect();
    let history = serde_json::to_string(&history).unwrap();
    assert!(history.len() > 40 << 10, "{}", history.len());
    let r = get(
        addr,
        &format!("/api/play?game=nim&position=1&history={}", enc(&history)),
    );
    assert_eq!(r.status, 414, "{}", r.text());
    assert_eq!(r.content_type, "application/json");
    let e = r.json()["error"].as_str().unwrap().to_string();
    assert!(e.contains("POST") && !e.contains('\n'), "{e}");
    let body = format!(r#"{{"game": "nim", "position": "1", "history": {history}}}"#);
    let r = post(addr, "/api/play", "application/json", body.as_bytes());
    assert_eq!(r.status, 200, "{}", r.text());
    let t = r.json();
    assert_eq!(t["grundy"], 1, "{t}");
    assert_eq!(t["drawn"], false, "{t}");
    // A body over the limit (1 MiB): 413, in JSON, for both POST doors.
    let huge = format!(
        r#"{{"game": "nim", "position": "{}"}}"#,
        "1 ".repeat(1 << 20)
    );
    for path in ["/api/play", "/api/analyze"] {
        let r = post(addr, path, "application/json", huge.as_bytes());
        assert_eq!(r.status, 413, "{path}: {}", r.text());
        assert_eq!(r.content_type, "application/json", "{path}");
        let e = r.json()["error"].as_str().unwrap().to_string();
        assert!(!e.is_empty() && !e.contains('\n'), "{path}: {e}");
    }
}

#[test]
fn heads_too_large_are_431_json() {
    let addr = start(Config::default());
    let many: String = (0..200).map(|i| format!("X-H{i}: v\r\n")).collect();
    let r = raw(
        addr,
        format!("GET /api/health HTTP/1.1\r\nHost: x\r\n{many}Connection: close\r\n\r\n")
            .as_bytes(),
    );
    assert_eq!(r.status, 431, "{}", r.text());
    assert!(r.json()["error"].as_str().unwrap().contains("head"));
    let big = format!("X-Big: {}\r\n", "v".repeat(100 << 10));
    let r = raw(
        addr,
        format!("GET /api/health HTTP/1.1\r\nHost: x\r\n{big}Connection: close\r\n\r\n").as_bytes(),
    );
    assert_eq!(r.status, 431, "{}", r.text());
    assert_eq!(r.content_type, "application/json");
}

/// Three requests on one connection, sent at once: a POST with a body, a GET, and a request
/// line too long — two answers and then the 414, in order.
#[test]
fn requests_in_a_row_on_one_connection() {
    let addr = start(Config::default());
    let body = br#"{"game": "nim", "position": "1 2"}"#;
    let mut req = format!(
        "POST /api/analyze HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    req.extend_from_slice(body);
    req.extend_from_slice(b"GET /api/nim?heaps=3,4 HTTP/1.1\r\nHost: x\r\n\r\n");
    req.extend_from_slice(
        format!(
            "GET /api/nim?heaps={} HTTP/1.1\r\nHost: x\r\n\r\n",
            "1,".repeat(40_000)
        )
        .as_bytes(),
    );
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    s.write_all(&req).unwrap();
    let mut buf = Vec::new();
    let _ = s.read_to_end(&mut buf);
    let text = String::from_utf8_lossy(&buf);
    let statuses: Vec<&str> = text
        .match_indices("HTTP/1.1 ")
        .map(|(i, _)| &text[i + 9..i + 12])
        .collect();
    assert_eq!(statuses, ["200", "200", "414"], "{text}");
    assert!(text.contains(r#""grundy":3"#), "{text}");
    assert!(text.contains(r#""grundy":7"#), "{text}");
    assert!(text.ends_with('}'), "{text}");
}
