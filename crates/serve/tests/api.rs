//! The JSON API over a real socket: answers equal to the library's results serialized,
//! a game played to the end through `/api/play`, 100 malformed requests answered 4xx with a
//! JSON error, busy and slow requests answered 503 and 422, and the server healthy after.

mod common;

use common::{enc, get, post, raw, start};
use grundy::catalogue::{Ask, Detail, Play};
use grundy_serve::Config;
use serde_json::Value;
use std::time::{Duration, Instant};

fn lib<T: serde::Serialize>(x: &T) -> Value {
    serde_json::to_value(x).unwrap()
}

/// The registry's answer, as the library serializes it.
fn registry(game: &str, position: &str, detail: Detail) -> Value {
    let ask = Ask::new(Play::Normal).detail(detail);
    lib(&grundy::catalogue::Registry::new()
        .ask(game, position, &ask)
        .unwrap())
}

#[test]
fn endpoints_answer_the_library_results() {
    let addr = start(Config::default());
    let h = get(addr, "/api/health");
    assert_eq!(h.status, 200);
    assert_eq!(h.json()["status"], "ok");

    // The one door and its aliases: the registry's report, the same JSON for each.
    let want = registry("nim", "3 4 5", Detail::Winning);
    let r = get(addr, "/api/nim?heaps=3,4,5&misere=false");
    assert_eq!(r.status, 200);
    assert_eq!(r.content_type, "application/json");
    assert_eq!(r.json(), want);
    assert_eq!(
        get(
            addr,
            &format!("/api/analyze?game=nim&position={}", enc("3 4 5"))
        )
        .json(),
        want
    );
    let body = br#"{"game": "nim", "position": "3 4 5"}"#;
    assert_eq!(
        post(addr, "/api/analyze", "application/json", body).json(),
        want
    );
    let value = get(addr, "/api/nim?heaps=3,4,5&moves=value").json();
    assert_eq!(value, registry("nim", "3 4 5", Detail::Value));
    assert!(value.get("winning_moves").is_none(), "{value}");

    let rule = grundy::heap::parse("0.137").unwrap();
    let seq = grundy::heap::sequence(&rule, 1000, &mut Default::default()).unwrap();
    assert_eq!(
        get(addr, "/api/heap?rule=0.137&upto=1000").json(),
        lib(&seq)
    );

    let kayles = grundy::heap::parse("kayles").unwrap();
    let p = grundy::heap::find_period(&kayles, &mut Default::default()).unwrap();
    let r = get(addr, "/api/heap?rule=kayles&period=true").json();
    assert_eq!(r, lib(&p));
    assert_eq!(r["period"]["period"], 12);
    assert_eq!(r["period"]["status"], "proven");

    assert_eq!(
        get(addr, "/api/heap/analyze?rule=kayles&heaps=7,9,12").json(),
        registry("kayles", "7 9 12", Detail::Winning)
    );
    assert_eq!(
        get(addr, "/api/wythoff?a=3&b=5").json(),
        registry("wythoff", "3 5", Detail::Winning)
    );
    assert_eq!(
        get(addr, "/api/fib?n=1000").json(),
        registry("fib", "1000", Detail::Winning)
    );
    assert_eq!(
        get(addr, "/api/fib?n=100&k=3&moves=all").json(),
        lib(&grundy::catalogue::Registry::new()
            .ask(
                "fib",
                "100",
                &Ask::new(Play::Normal).detail(Detail::All).set("k", "3")
            )
            .unwrap())
    );
    // `/api/analyze` takes the detail and the game's own params from the query string: the
    // library's answer to the same Ask.
    let cram = |detail, no_mirror: bool| {
        let mut ask = Ask::new(Play::Normal).detail(detail);
        if no_mirror {
            ask = ask.set("no-mirror", "true");
        }
        lib(&grundy::catalogue::Registry::new()
            .ask("cram", "2x4", &ask)
            .unwrap())
    };
    for (query, detail, no_mirror) in [
        ("&moves=value", Detail::Value, false),
        ("&moves=winning", Detail::Winning, false),
        ("&moves=all", Detail::All, false),
        ("&moves=value&no-mirror=true", Detail::Value, true),
    ] {
        let r = get(addr, &format!("/api/analyze?game=cram&position=2x4{query}"));
        assert_eq!(r.status, 200, "{query}: {}", r.text());
        assert_eq!(r.json(), cram(detail, no_mirror), "{query}");
    }
    // Refused, each a 400 naming the parameter: a detail that is not one, a param the game
    // does not declare, a param offered only on the user's own machine (threads, files), a
    // count out of its range.
    for (query, what) in [
        ("&moves=some", "some"),
        ("&bogus=1", "bogus"),
        ("&threads=2", "threads"),
        ("&table=%2Ftmp%2Fx", "table"),
    ] {
        let r = get(addr, &format!("/api/analyze?game=cram&position=2x4{query}"));
        assert_eq!(r.status, 400, "{query}: {}", r.text());
        let e = r.json()["error"].as_str().unwrap().to_string();
        assert!(e.contains(what) && !e.contains('\n'), "{query}: {e}");
    }

    use grundy::penney::report::{self, RaceOptions};
    let al = grundy::penney::Alphabet::from_spec(None, None).unwrap();
    let race = report::race(al, &["HTH", "THH"], &RaceOptions::default(), &mut |_| {}).unwrap();
    let r = get(addr, "/api/penney?patterns=HTH,THH").json();
    assert_eq!(r, lib(&race));
    assert_eq!(r["patterns"][0]["win"], "1/2");
    let r = get(
        addr,
        &format!("/api/penney?patterns=HHH,THH&prob={}", enc("H=2/3,T=1/3")),
    );
    assert_eq!(r.status, 200, "{}", r.text());

    // The page itself, embedded.
    let page = get(addr, "/");
    assert_eq!(page.status, 200);
    assert!(page.text().contains("grundy"));
    assert_eq!(get(addr, "/app.js").status, 200);
    assert_eq!(get(addr, "/style.css").status, 200);
}

/// Plays Nim through `/api/play` with the engine's reply on both sides and checks every
/// turn against Bouton's theorem computed here.
#[test]
fn a_nim_game_played_through_the_api() {
    let addr = start(Config::default());
    let mut position = "3 5 6".to_string();
    let mut plies = 0;
    loop {
        let t = get(
            addr,
            &format!("/api/play?game=nim&position={}", enc(&position)),
        )
        .json();
        let heaps: Vec<u64> = position.split(' ').map(|x| x.parse().unwrap()).collect();
        let x = heaps.iter().fold(0, |a, b| a ^ b);
        assert_eq!(t["outcome"], if x == 0 { "P" } else { "N" });
        assert_eq!(
            t["moves"].as_array().unwrap().len() as u64,
            heaps.iter().sum::<u64>()
        );
        for m in t["winning_moves"].as_array().unwrap() {
            assert_eq!(m["to"]["kind"], "heaps");
            let to: Vec<u64> = serde_json::from_value(m["to"]["heaps"].clone()).unwrap();
            assert_eq!(to.iter().fold(0, |a, b| a ^ b), 0);
        }
        if t["game_over"] == true {
            assert_eq!(heaps.iter().sum::<u64>(), 0);
            break;
        }
        position = t["reply"]["to"]["text"].as_str().unwrap().to_string();
        plies += 1;
        assert!(plies < 100);
    }
    // 3 5 6 has nim-sum 0: the first player loses, so the game lasts an even number of plies.
    assert_eq!(plies % 2, 0);
}

/// 100 malformed requests: every one answered 4xx with `{"error": "..."}`, none 5xx, and the
/// server healthy after.
#[test]
fn malformed_requests_are_4xx_json_errors() {
    let addr = start(Config::default());
    let big = "9".repeat(5000);
    let mut gets: Vec<String> = vec![
        "/api/nim".into(),
        "/api/nim?heaps=".into(),
        "/api/nim?heaps=x".into(),
        "/api/nim?heaps=-1".into(),
        "/api/nim?heaps=99999999999999999999999".into(),
        format!("/api/nim?heaps={big}"),
        "/api/nim?heaps=1,2&misere=maybe".into(),
        "/api/nim?heaps=%FF%FE".into(),
        "/api/nim?heaps=1&bogus=1".into(),
        "/api/nim?heaps=%".into(),
        "/api/heap".into(),
        "/api/heap?rule=".into(),
        "/api/heap?rule=0.9z".into(),
        "/api/heap?rule=no-such-game".into(),
        "/api/heap?rule=sub:".into(),
        "/api/heap?rule=kayles&upto=1e100".into(),
        "/api/heap?rule=kayles&upto=2^64".into(),
        "/api/heap?rule=kayles&upto=10000000".into(),
        "/api/heap?rule=kayles&upto=-5".into(),
        "/api/heap?rule=kayles&upto=abc".into(),
        format!("/api/heap?rule=kayles&upto={big}"),
        "/api/heap?rule=%C3%28".into(),
        "/api/heap?rule=kayles&period=yes".into(),
        "/api/heap/analyze?rule=kayles".into(),
        "/api/heap/analyze?rule=kayles&heaps=".into(),
        "/api/heap/analyze?rule=kayles&heaps=a,b".into(),
        "/api/heap/analyze?rule=zzz&heaps=1".into(),
        "/api/heap/analyze?rule=kayles&heaps=99999999999999999999".into(),
        "/api/wythoff".into(),
        "/api/wythoff?a=3".into(),
        "/api/wythoff?a=x&b=5".into(),
        "/api/wythoff?a=-3&b=5".into(),
        "/api/wythoff?a=10%5E300000&b=5".into(),
        "/api/wythoff?a=3.5&b=5".into(),
        "/api/fib".into(),
        "/api/fib?n=".into(),
        "/api/fib?n=abc".into(),
        "/api/fib?n=10%5E300000".into(),
        "/api/fib?n=100&k=0".into(),
        "/api/fib?n=100&k=100000".into(),
        "/api/fib?n=100&limit=x".into(),
        "/api/penney".into(),
        "/api/penney?patterns=".into(),
        "/api/penney?patterns=HXH".into(),
        "/api/penney?patterns=HTH,HTH".into(),
        "/api/penney?patterns=HTH&prob=H=2".into(),
        "/api/penney?patterns=HTH&prob=H=1/2,T=1/3".into(),
        "/api/penney?patterns=HTH&alphabet=HH".into(),
        format!("/api/penney?patterns={}", "H".repeat(500)),
        format!("/api/penney?patterns={}", vec!["HT"; 50].join(",")),
        "/api/penney?patterns=HT&simulate=1e12".into(),
        "/api/penney?patterns=HT&seed=3".into(),
        "/api/penney?best_reply=".into(),
        format!("/api/penney?best_reply={}", "H".repeat(100)),
        "/api/play".into(),
        "/api/play?game=nim".into(),
        "/api/play?game=nim&position=".into(),
        "/api/play?game=nim&position=1000000".into(),
        "/api/play?game=nope&position=1".into(),
        "/api/play?game=wythoff&position=1".into(),
        "/api/play?game=chomp&position=16x255".into(),
        "/api/play?game=chomp&position=1%202".into(),
        "/api/play?game=fib&position=1%202%203".into(),
        format!(
            "/api/play?game=nim&position={}",
            enc(&vec!["1000"; 100].join(" "))
        ),
        "/api/nothing".into(),
        "/api".into(),
        "/api/heap/analyze/more".into(),
        "/nope.html".into(),
        "/api/health/x".into(),
    ];
    // Query strings that are not UTF-8 once decoded, in every parameter.
    for p in ["heaps", "rule", "a", "n", "patterns"] {
        gets.push(format!("/api/nim?{p}=%FF"));
    }
    let mut replies = Vec::new();
    for g in &gets {
        replies.push((g.clone(), get(addr, g)));
    }
    // Wrong methods, bodies where none belong, oversized and non-UTF-8 bodies.
    let huge = vec![b'x'; 2 << 20];
    let posts: Vec<(&str, &str, Vec<u8>)> = vec![
        ("/api/nim", "application/json", b"{}".to_vec()),
        ("/api/heap", "application/json", b"{".to_vec()),
        ("/api/health", "text/plain", b"x".to_vec()),
        ("/api/nim?heaps=1", "application/json", huge.clone()),
        ("/api/penney", "application/json", vec![0xff, 0xfe, 0x00]),
        ("/api/wythoff", "application/json", b"not json".to_vec()),
        ("/api/fib", "application/json", b"[1,2".to_vec()),
        ("/api/play", "application/json", b"{\"game\": 1}".to_vec()),
        ("/", "application/json", huge.clone()),
        ("/api/nothing", "application/json", huge.clone()),
        (
            "/api/heap/analyze",
            "application/x-www-form-urlencoded",
            b"rule=kayles".to_vec(),
        ),
        ("/api/nim", "application/json", vec![0xc3, 0x28]),
        ("/api/script", "application/json", b"{".to_vec()),
        (
            "/api/script",
            "application/json",
            vec![b'"', 0xff, 0xfe, b'"'],
        ),
        (
            "/api/script",
            "application/json",
            b"{\"source\": 7}".to_vec(),
        ),
        (
            "/api/script",
            "application/json",
            b"{\"source\": \"\", \"bogus\": 1}".to_vec(),
        ),
        ("/api/script", "application/json", huge.clone()),
        (
            "/api/script",
            "application/json",
            br#"{"source": "function moves(n) return {} end", "upto": 100000000}"#.to_vec(),
        ),
        (
            "/api/script",
            "application/json",
            br#"{"source": "function moves(n) while true do end end", "position": "3"}"#.to_vec(),
        ),
        (
            "/api/script",
            "application/json",
            br#"{"source": "os.exit(1)", "position": "3"}"#.to_vec(),
        ),
    ];
    for (path, ct, body) in &posts {
        replies.push((format!("POST {path}"), post(addr, path, ct, body)));
    }
    // A script whose position moves to itself is no longer refused: it is a loopy game, and
    // its only position is a draw.
    let r = post(
        addr,
        "/api/script",
        "application/json",
        br#"{"source": "function moves(n) return {n} end", "position": "3"}"#,
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    assert_eq!(v["analysis"]["outcome"], "D", "{v}");
    for m in ["PUT", "DELETE", "PATCH"] {
        let req = format!("{m} /api/nim?heaps=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        replies.push((m.to_string(), raw(addr, req.as_bytes())));
    }
    // A body announced larger than the limit, never sent.
    let req = "POST /api/nim HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 100000000\r\n\r\n";
    replies.push(("announced 100 MB".into(), raw(addr, req.as_bytes())));
    // Fill to 100 with heaps of random garbage tokens.
    let mut seed = 12345u64;
    while replies.len() < 100 {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let junk: String = (0..8)
            .map(|i| {
                let b = (seed >> (i * 8)) as u8;
                format!("%{b:02X}")
            })
            .collect();
        let ep = [
            "nim?heaps",
            "heap?rule",
            "wythoff?a",
            "fib?n",
            "penney?patterns",
        ][(seed >> 60) as usize % 5];
        let g = format!("/api/{ep}={junk}");
        replies.push((g.clone(), get(addr, &g)));
    }
    assert!(replies.len() >= 100);
    let mut counts = std::collections::BTreeMap::new();
    for (what, r) in &replies {
        assert!(
            (400..500).contains(&r.status),
            "{what}: status {} {}",
            r.status,
            r.text()
        );
        assert_eq!(r.content_type, "application/json", "{what}: {}", r.text());
        let j = r.json();
        let e = j["error"].as_str().unwrap_or_else(|| panic!("{what}: {j}"));
        assert!(!e.is_empty() && !e.contains('\n'), "{what}: {e:?}");
        *counts.entry(r.status).or_insert(0) += 1;
    }
    eprintln!(
        "malformed requests: {} answered, statuses {counts:?}",
        replies.len()
    );
    assert!(counts.contains_key(&400) && counts.contains_key(&413) && counts.contains_key(&422));
    // Still healthy, and still right.
    assert_eq!(get(addr, "/api/health").json()["status"], "ok");
    assert_eq!(get(addr, "/api/nim?heaps=1,2").json()["grundy"], 3);
}

/// One expensive worker: a slow request outgrows its cheap attempt and holds it, the next
/// slow one is answered 503 at once, while cheap questions (of the same endpoint too) are
/// answered beside them and health stays fast; the slow one stops at its time budget (422),
/// and the worker is free again.
#[test]
fn busy_is_503_fast_and_slow_is_422() {
    let config = Config {
        workers: 1,
        queue_wait: Duration::from_millis(20),
        timeout: Duration::from_millis(1500),
        ..Config::default()
    };
    let addr = start(config);
    // A rule that splits a heap in three: cubic work, far more than 1.5 s to 20000.
    let slow = std::thread::spawn(move || {
        let t = Instant::now();
        (get(addr, "/api/heap?rule=0.3F&upto=20000"), t.elapsed())
    });
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    let busy = get(addr, "/api/heap?rule=0.3F&upto=19000");
    assert_eq!(busy.status, 503, "{}", busy.text());
    assert!(busy.json()["error"].as_str().unwrap().contains("busy"));
    assert!(t.elapsed() < Duration::from_millis(1000));
    // Cheap work is answered by its cheap attempt, whatever the endpoint.
    for path in [
        "/api/heap?rule=kayles&upto=10",
        "/api/nim?heaps=1,2",
        "/api/analyze?game=kayles&position=5%207%209",
    ] {
        let cheap = get(addr, path);
        assert_eq!(cheap.status, 200, "{path}: {}", cheap.text());
    }
    let t = Instant::now();
    let h = get(addr, "/api/health").json();
    assert!(t.elapsed() < Duration::from_millis(500));
    assert_eq!(h["busy"], 1, "{h}");
    assert!(h["moved"].as_u64().unwrap() >= 2, "{h}");
    assert!(h["shed"].as_u64().unwrap() >= 1, "{h}");
    assert!(h["cheap_answered"].as_u64().unwrap() >= 3, "{h}");
    let (r, took) = slow.join().unwrap();
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(r.json()["error"].as_str().unwrap().contains("time budget"));
    assert!(took < Duration::from_secs(5), "{took:?}");
    // The engine saw the stop flag and let the worker go.
    let deadline = Instant::now() + Duration::from_secs(10);
    while get(addr, "/api/health").json()["busy"] != 0 {
        assert!(Instant::now() < deadline, "worker never freed");
        std::thread::sleep(Duration::from_millis(50));
    }
    let r = get(addr, "/api/heap?rule=0.3F&upto=300");
    assert_eq!(r.status, 200, "{}", r.text());
}

/// A script: its answer, and a syntax error reported at its line.
#[test]
fn scripts_run_and_errors_carry_their_line() {
    let addr = start(Config::default());
    let src = "function moves(n)\n  local out = {}\n  for _, k in ipairs({1, 2, 5}) do\n    if k <= n then out[#out + 1] = n - k end\n  end\n  return out\nend\n";
    let body = serde_json::json!({"source": src, "position": "10", "upto": 20}).to_string();
    let r = post(addr, "/api/script", "application/json", body.as_bytes());
    assert_eq!(r.status, 200, "{}", r.text());
    let j = r.json();
    // The native subtraction game {1, 2, 5} is the reference.
    let rule = grundy::heap::parse("sub:1,2,5").unwrap();
    let seq = grundy::heap::sequence(&rule, 20, &mut Default::default()).unwrap();
    let values: Vec<u64> = serde_json::from_value(j["sequence"]["values"].clone()).unwrap();
    assert_eq!(
        values,
        seq.values.iter().map(|&v| v as u64).collect::<Vec<_>>()
    );
    assert_eq!(j["analysis"]["grundy"], seq.values[10]);
    let bad = "-- line 1\nfunction moves(n)\n  return {n - 1\nend\n";
    let body = serde_json::json!({"source": bad, "position": "3"}).to_string();
    let r = post(addr, "/api/script", "application/json", body.as_bytes());
    assert_eq!(r.status, 400, "{}", r.text());
    let line = r.json()["line"].as_u64().unwrap();
    assert!((3..=4).contains(&line), "{}", r.text());
    let err = "function moves(n)\n  return nil + 1\nend\n";
    let body = serde_json::json!({"source": err, "position": "3"}).to_string();
    let r = post(addr, "/api/script", "application/json", body.as_bytes());
    assert_eq!(r.status, 400, "{}", r.text());
    assert_eq!(r.json()["line"], 2, "{}", r.text());
}

/// Statuses follow the library's error kind: a catalogue position past its budget is a limit
/// (422, as every other limit), a malformed one bad input (400), and a script's runaway loop a
/// limit whose message names the library's parameter, not a command-line flag.
#[test]
fn catalogue_and_script_errors_follow_their_kind() {
    let addr = start(Config::default());
    // A pile of 200001 digits is past what the library takes: a limit, refused before any work.
    let r = get(addr, "/api/analyze?game=fib&position=10%5E200000");
    assert_eq!(r.status, 422, "{}", r.text());
    let r = get(addr, "/api/analyze?game=node-kayles&position=path:x");
    assert_eq!(r.status, 400, "{}", r.text());
    let src = "function moves(n)\n  while true do end\nend\n";
    let body = serde_json::json!({"source": src, "position": "3"}).to_string();
    let r = post(addr, "/api/script", "application/json", body.as_bytes());
    assert_eq!(r.status, 422, "{}", r.text());
    let message = r.json()["error"].as_str().unwrap().to_string();
    assert!(message.contains("steps_per_call"), "{message}");
    assert!(!message.contains("--"), "{message}");
}

/// The draw by repetition is the server's call: the page sends the earlier positions (GET
/// `history` as a JSON array, or POST `{"game", "position", "history"}`) and the turn says
/// `drawn`, with the reason as its hint and no reply.
#[test]
fn a_position_back_for_the_third_time_is_a_draw() {
    let addr = start(Config::default());
    let history = r#"["1","4","1","4"]"#;
    let t = get(
        addr,
        &format!(
            "/api/play?game={}&position=1&history={}",
            enc("windup:8:3,5"),
            enc(history)
        ),
    );
    assert_eq!(t.status, 200, "{}", t.text());
    let t = t.json();
    assert_eq!(t["drawn"], true);
    assert_eq!(t["outcome"], "D");
    assert!(t["reply"].is_null());
    assert_eq!(t["hint"], grundy::play::DRAW_BY_REPETITION);
    // Twice only, or with the other player to move: no draw yet.
    for h in [r#"["1","4"]"#, r#"["4","1","4","1"]"#] {
        let t = get(
            addr,
            &format!(
                "/api/play?game={}&position=1&history={}",
                enc("windup:8:3,5"),
                enc(h)
            ),
        )
        .json();
        assert_eq!(t["drawn"], false, "{h}");
        assert!(t["reply"].is_object());
    }
    let body = format!(r#"{{"game":"windup:8:3,5","position":"1","history":{history}}}"#);
    let t = post(addr, "/api/play", "application/json", body.as_bytes());
    assert_eq!(t.status, 200, "{}", t.text());
    assert_eq!(t.json()["drawn"], true);
    // Tutor feedback through POST, as the page asks for it.
    let body = r#"{"game":"nim","position":"3 4 4","previous":"3 4 5"}"#;
    let t = post(addr, "/api/play", "application/json", body.as_bytes()).json();
    assert!(
        t["feedback"].as_str().unwrap().contains("winning move"),
        "{t}"
    );
    // Malformed: not an array, both game and source, neither.
    let bad = get(addr, "/api/play?game=nim&position=1&history=1,2");
    assert_eq!(bad.status, 400);
    assert!(bad.json()["error"].as_str().unwrap().contains("history"));
    for body in [
        r#"{"game":"nim","source":"x","position":"1"}"#,
        r#"{"position":"1"}"#,
        r#"{"game":"nim","position":"1","history":"x"}"#,
    ] {
        let r = post(addr, "/api/play", "application/json", body.as_bytes());
        assert_eq!(r.status, 400, "{body}: {}", r.text());
    }
}
