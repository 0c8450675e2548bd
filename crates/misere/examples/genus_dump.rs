//! Prints the genus (g and γ0..γ11), its text and the phylum of heaps 0..=N of a rule:
//! `genus_dump RULE N`.
use grundy_misere::canonical::Forms;
use grundy_misere::genus::{forms_of_heaps, genus_of_rule};
use grundy_misere::heaps::HeapOptions;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let rule = a.get(1).map(String::as_str).unwrap_or("0.77");
    let n: u64 = a.get(2).and_then(|x| x.parse().ok()).unwrap_or(20);
    let mut forms = Forms::new();
    let heaps = forms_of_heaps(&HeapOptions::new(rule, n).unwrap(), &mut forms);
    for (h, g) in genus_of_rule(rule, n).unwrap().iter().enumerate() {
        let p = forms.phylum(heaps[h]);
        println!("{h}: {} {:?} {} {p:?}", g.g, g.gamma, g.text);
    }
}
