//! Prints the genus (g and γ0..γ11) of heaps 0..=N of a rule: `genus_dump RULE N`.
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let n: u64 = a.get(2).and_then(|x| x.parse().ok()).unwrap_or(20);
    for (h, g) in grundy_misere::genus_of_rule(&a[1], n)
        .unwrap()
        .iter()
        .enumerate()
    {
        println!("{h}: {} {:?} {}", g.g, g.gamma, g.text);
    }
}
