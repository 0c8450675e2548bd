//! `Summary` and `Progress` serialize under their field names, for front ends' JSON.

mod common;

#[test]
fn summary_serializes_field_by_field() {
    let code = common::code("0.16");
    let opts = grundy_sparse::RunOptions {
        upto: 2000,
        threads: 1,
        checkpoint: None,
        checkpoint_every: std::time::Duration::from_secs(300),
        save: None,
        find_period: true,
        window: false,
        window_depth: None,
    };
    let mut first = None;
    let out = grundy_sparse::run(&code, &opts, &mut |p| {
        first.get_or_insert(p);
        true
    })
    .unwrap();
    let s = &out.summary;
    let j = serde_json::to_value(s).unwrap();
    assert_eq!(j["rule"], "0.16");
    assert_eq!(j["n"], 2000);
    assert_eq!(j["rare_count"], s.rare_count);
    assert_eq!(j["mask"], s.mask);
    assert_eq!(j["max_value"], s.max_value);
    assert_eq!(j["max_first"], s.max_first);
    assert_eq!(j["histogram"].as_array().unwrap().len(), s.histogram.len());
    assert_eq!(j["last_rare"], serde_json::json!(s.last_rare));
    assert_eq!(j["period_searched"], true);
    // 0.16's period is far beyond 2000 heaps.
    assert!(j["period"].is_null() || j["period"]["status"] == "observed");
    let p = serde_json::to_value(first.unwrap()).unwrap();
    assert_eq!(
        p,
        serde_json::json!({"done": 0, "total": 2001, "resumed_at": 0})
    );
}
