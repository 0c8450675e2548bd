use grundy_heap::rule::parse_code;
use grundy_sparse::Engine;
use std::io::Write;
fn main() {
    let bits: u32 = std::env::args().nth(1).unwrap().parse().unwrap();
    let code = parse_code("4!.0").unwrap();
    let t = std::time::Instant::now();
    let mut e = Engine::new(&code).unwrap();
    e.advance((1u64 << bits) + 1, &mut |_| true);
    eprintln!(
        "{:.2}s {:?} mask {} rare {} last {:?} max {:?}",
        t.elapsed().as_secs_f64(),
        e.stats(),
        e.mask(),
        e.rare_count(),
        e.last_rare(),
        e.max_value()
    );
    let v = e.values();
    let mut f = std::fs::File::create(format!("/tmp/ana/g{bits}.bin")).unwrap();
    let bytes: Vec<u8> = v.iter().flat_map(|&x| (x as u16).to_le_bytes()).collect();
    f.write_all(&bytes).unwrap();
}
