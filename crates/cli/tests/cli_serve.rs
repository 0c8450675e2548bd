//! `grundy serve` as a user starts it: every API endpoint answers exactly the JSON object the
//! matching CLI command prints with `--json` (`/api/analyze` and its aliases `/api/nim`,
//! `/api/wythoff`, `/api/fib`, `/api/heap/analyze` the object of `grundy analyze GAME
//! POSITION`); a bad address is one line and exit 2; SIGTERM stops the server cleanly.

mod common;

use common::grundy;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};

fn http_get(addr: &str, path: &str) -> (u16, Value) {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).unwrap();
    let text = String::from_utf8(buf).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, serde_json::from_str(body).unwrap())
}

fn cli_json(args: &[&str]) -> Value {
    let out = grundy(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn every_endpoint_answers_the_cli_json() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["serve", "--addr", "127.0.0.1:0"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stderr.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    assert!(addr.starts_with("127.0.0.1:"), "{addr}");

    let cases: &[(&str, &[&str])] = &[
        // The one door and its aliases: `grundy analyze GAME POSITION`.
        ("/api/nim?heaps=3,4,5", &["analyze", "nim", "3", "4", "5"]),
        (
            "/api/nim?heaps=1,1,2&misere=true",
            &["analyze", "nim", "--misere", "1", "1", "2"],
        ),
        (
            "/api/analyze?game=nim&position=10%2012%205",
            &["analyze", "nim", "10", "12", "5"],
        ),
        (
            "/api/analyze?game=kayles&position=5%207%209&moves=all",
            &["analyze", "kayles", "5", "7", "9", "--moves", "all"],
        ),
        (
            "/api/analyze?game=node-kayles&position=grid:3x4&moves=value",
            &["analyze", "node-kayles", "grid:3x4", "--moves", "value"],
        ),
        (
            "/api/heap?rule=0.137&upto=1000",
            &["heap", "0.137", "--upto", "1000"],
        ),
        (
            "/api/heap?rule=sub:1,3,4&upto=50",
            &["heap", "sub:1,3,4", "--upto", "50"],
        ),
        ("/api/heap?rule=kayles", &["heap", "kayles"]),
        (
            "/api/heap?rule=kayles&period=true",
            &["heap", "kayles", "--period"],
        ),
        (
            "/api/heap?rule=4!.0&upto=2000",
            &["heap", "4!.0", "--upto", "2000"],
        ),
        (
            "/api/heap/analyze?rule=kayles&heaps=7,9,12",
            &["analyze", "kayles", "7", "9", "12"],
        ),
        (
            "/api/heap/analyze?rule=kayles&heaps=4,5&misere=true",
            &["analyze", "kayles", "4", "5", "--misere"],
        ),
        ("/api/wythoff?a=3&b=5", &["analyze", "wythoff", "3", "5"]),
        (
            "/api/wythoff?a=10&b=20",
            &["analyze", "wythoff", "10", "20"],
        ),
        (
            "/api/wythoff?a=1000000&b=1618034",
            &["analyze", "wythoff", "1000000", "1618034"],
        ),
        ("/api/fib?n=1000", &["analyze", "fib", "1000"]),
        (
            "/api/fib?n=100&limit=3",
            &["analyze", "fib", "100", "--limit", "3"],
        ),
        ("/api/fib?n=100&k=3", &["analyze", "fib", "100", "--k", "3"]),
        // The game's own command is the same registry call.
        ("/api/fib?n=100&k=3", &["fib", "100", "--k", "3"]),
        ("/api/penney?patterns=HTH,THH", &["penney", "HTH", "THH"]),
        (
            "/api/penney?patterns=HHH,THH&prob=H%3D2%2F3%2CT%3D1%2F3",
            &["penney", "--prob", "H=2/3,T=1/3", "HHH", "THH"],
        ),
        (
            "/api/penney?patterns=666,123&alphabet=123456",
            &["penney", "--alphabet", "123456", "666", "123"],
        ),
        (
            "/api/penney?patterns=HTH,THH&simulate=10000&seed=7",
            &["penney", "HTH", "THH", "--simulate", "10000", "--seed", "7"],
        ),
        (
            "/api/penney?best_reply=HHTH",
            &["penney", "--best-reply", "HHTH"],
        ),
    ];
    for (path, args) in cases {
        let (status, got) = http_get(&addr, path);
        assert_eq!(status, 200, "{path}: {got}");
        let mut cli: Vec<&str> = args.to_vec();
        cli.push("--json");
        assert_eq!(
            got,
            cli_json(&cli),
            "{path} differs from grundy {}",
            args.join(" ")
        );
    }
    let (status, h) = http_get(&addr, "/api/health");
    assert_eq!((status, h["status"].as_str()), (200, Some("ok")));

    // SIGTERM: a clean stop, exit 0.
    let st = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(st.success());
    let code = child.wait().unwrap();
    assert!(code.success(), "{code:?}");
}

#[test]
fn bad_addresses_are_one_line() {
    let out = grundy(&["serve", "--addr", "not-an-address"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--addr 'not-an-address'"), "{err}");
    assert_eq!(err.trim().lines().count(), 1);
    // A port in use: a failure in words, exit 1.
    let busy = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = busy.local_addr().unwrap().to_string();
    let out = grundy(&["serve", "--addr", &addr]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot listen on"), "{err}");
}
