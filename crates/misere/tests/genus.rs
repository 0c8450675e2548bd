//! Genus and misère Grundy values of heap rules against CGSuite's test expectations
//! (testdata/cgsuite/heap_sequences.txt).

use grundy_misere::genus::{genus_of_rule, genus_text};

struct Block {
    code: String,
    misere: Vec<u32>,
    genus: Vec<String>,
}

fn blocks() -> Vec<Block> {
    let text = include_str!("../../../testdata/cgsuite/heap_sequences.txt");
    let mut out = Vec::new();
    let mut code = None;
    let mut misere = None;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        if let Some(c) = line.strip_prefix("code: ") {
            code = Some(c.trim().to_string());
        } else if let Some(m) = line.strip_prefix("misere[0..20]: ") {
            misere = Some(m.split(',').map(|x| x.trim().parse().unwrap()).collect());
        } else if let Some(g) = line.strip_prefix("genus[0..20]: ") {
            // split at top-level commas (not inside parentheses)
            let mut parts = Vec::new();
            let mut depth = 0;
            let mut cur = String::new();
            for ch in g.trim().chars() {
                match ch {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    _ => {}
                }
                if ch == ',' && depth == 0 {
                    parts.push(std::mem::take(&mut cur));
                } else {
                    cur.push(ch);
                }
            }
            parts.push(cur);
            out.push(Block {
                code: code.take().unwrap(),
                misere: misere.take().unwrap(),
                genus: parts,
            });
        }
    }
    out
}

#[test]
fn every_genus_and_misere_line_is_reproduced() {
    let bs = blocks();
    let mut matched = 0;
    assert_eq!(bs.len(), 7);
    for b in bs {
        let gs = genus_of_rule(&b.code, 20).unwrap();
        let misere: Vec<u32> = gs.iter().map(|g| g.gamma[0]).collect();
        assert_eq!(misere, b.misere, "misère values of {}", b.code);
        for (h, (g, want)) in gs.iter().zip(&b.genus).enumerate() {
            assert_eq!(&g.text, want, "genus of heap {h} of {}", b.code);
            matched += 1;
        }
    }
    assert_eq!(matched, 147);
}

#[test]
fn text_of_simple_genera() {
    assert_eq!(genus_text(0, &[1, 2, 0, 2, 0, 2]), "0");
    assert_eq!(genus_text(1, &[0, 3, 1, 3, 1, 3]), "1");
    assert_eq!(genus_text(0, &[0, 2, 0, 2, 0, 2]), "0^0");
}

#[test]
fn json_has_g_gamma_text() {
    let gs = genus_of_rule("0.77", 5).unwrap();
    let v = serde_json::to_value(&gs[5]).unwrap();
    assert_eq!(v["g"], 4);
    assert_eq!(v["text"], "4^146");
    assert!(v["gamma"].as_array().unwrap().len() >= 8);
}
