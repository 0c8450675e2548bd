//! `GET /api/misere/quotient`: the quotient as `grundy misere quotient --json` gives it, with
//! its multiplication table; bad input answered 4xx with a JSON error; the budget holds.

mod common;

use common::{get, start};
use grundy_serve::Config;

#[test]
fn quotient_with_its_table() {
    let addr = start(Config::default());
    let r = get(addr, "/api/misere/quotient?rule=0.75&upto=12");
    assert_eq!(r.status, 200);
    let v = r.json();
    let q = grundy::misere::quotient("0.75", 12).unwrap();
    let mut want = serde_json::to_value(&q).unwrap();
    want["table"] = serde_json::json!(q.table());
    assert_eq!(v, want);
    // R_8: the table is 8 × 8, 1 (element 0) is its identity, and it is commutative
    let t = v["table"].as_array().unwrap();
    assert_eq!(t.len(), 8);
    for (x, row) in t.iter().enumerate() {
        assert_eq!(t[0][x], x);
        for (y, z) in row.as_array().unwrap().iter().enumerate() {
            assert_eq!(*z, t[y][x]);
        }
    }
    assert_eq!(v["presentation"], "a^2 = 1, b^3 = b, bc = ab, c^2 = b^2");
}

#[test]
fn bad_input_and_the_budget() {
    let addr = start(Config::default());
    for (path, status, needle) in [
        ("/api/misere/quotient?rule=0.W&upto=5", 400, "W"),
        ("/api/misere/quotient?rule=0.75", 400, "upto"),
        ("/api/misere/quotient?upto=5", 400, "rule"),
        ("/api/misere/quotient?rule=0.75&upto=x", 400, "upto"),
        ("/api/misere/quotient?rule=0.75&upto=5&frob=1", 400, "frob"),
        ("/api/misere/quotient?rule=0.75&upto=1000", 422, "upto 1000"),
        // misère 0.3122 up to heap 7 has an infinite quotient: past the cap (or a search
        // budget), a 422 that says which
        ("/api/misere/quotient?rule=0.3122&upto=7", 422, "limit"),
    ] {
        let r = get(addr, path);
        assert_eq!(
            r.status,
            status,
            "{path}: {}",
            String::from_utf8_lossy(&r.body)
        );
        assert_eq!(r.content_type, "application/json", "{path}");
        let e = r.json()["error"].as_str().unwrap().to_string();
        assert!(e.contains(needle), "{path}: {e}");
    }
    assert_eq!(get(addr, "/api/health").status, 200);
}
