//! Conway's genus (ONAG ch. 12): g^{γ0γ1γ2…}, where g is the normal-play Grundy value of G
//! and γi the misère Grundy value of G + i·*2.
//!
//! The misère Grundy value of a game is 1 when it has no options and otherwise the mex of its
//! options' misère Grundy values. The sequence γ is eventually periodic with period 2; the
//! genus is printed as CGSuite prints it ([`Genus::text`]): the shortest prefix of γ after
//! which the digits follow the default continuation of the game's [`Phylum`], the digits run
//! together unless one is 10 or more (then they are separated by commas in parentheses), and
//! plain `g` in the nim-heap phylum. The phylum is decided on the misère canonical form, from
//! the game's own γ and its options' phyla ([`phylum_of`]); on CGSuite's test data this
//! reproduces 143 of 147 genera (four Kayles heaps, 7, 10, 13, 14, come out wild where CGSuite
//! prints them generally tame).
//!
//! ```
//! use grundy_misere::genus::genus_of_rule;
//! let kayles = genus_of_rule("0.77", 6).unwrap();
//! assert_eq!(kayles[5].text, "4^146");
//! assert_eq!(kayles[4].text, "1");
//! ```

use grundy_core::{mex, FxHashMap};
use serde::Serialize;

use crate::canonical::{FormId, Forms};
use crate::error::MisereError;
use crate::heaps::HeapOptions;

/// How many γ's are computed: enough to see the eventual period 2 of every game tested.
pub const GAMMA_LEN: usize = 12;

/// The genus of one game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Genus {
    /// The normal-play Grundy value g⁺.
    pub g: u32,
    /// γ0, γ1, …: the misère Grundy values of G, G + *2, G + *2 + *2, … ([`GAMMA_LEN`] of them).
    pub gamma: Vec<u32>,
    /// CGSuite's notation, e.g. `4^146`, `0^20`, `6^(1,9,10,8)`, `3`.
    pub text: String,
}

impl Genus {
    /// The genus with normal value `g` and misère values `gamma`, its text derived from the
    /// sequence alone (the phylum guessed from the digits; [`genus_of_rule`] and
    /// [`crate::canonical::Forms::phylum`] decide it on the game).
    pub fn new(g: u32, gamma: Vec<u32>) -> Self {
        let text = genus_text(g, &gamma);
        Genus { g, gamma, text }
    }
}

/// How a genus continues beyond its printed digits (CGSuite's phyla), decided hereditarily on
/// the canonical form: a game is in a phylum when its own γ follows that phylum's continuation
/// and every option is in it (or a narrower one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Phylum {
    /// Behaves like the nim heap *g: printed as plain `g`.
    NimHeap,
    /// γi = g ⊕ 2·(i mod 2) for i ≥ 1.
    GenerallyTame,
    /// γi = b ⊕ 2·(i mod 2) for i ≥ 1, b = γ0 when γ0 < 4, else g.
    GenerallyRestive,
    /// Anything else: γ alternates between its last two printed digits.
    Wild,
}

/// The phylum of a game with genus `genus` whose options have phyla `options`.
pub fn phylum_of(genus: &Genus, options: &[Phylum]) -> Phylum {
    let (g, gamma) = (genus.g, &genus.gamma);
    let worst = options.iter().copied().max().unwrap_or(Phylum::NimHeap);
    let nim = (0..gamma.len()).all(|i| gamma[i] == nim_default(g, i));
    let tame_tail = (1..gamma.len()).all(|i| gamma[i] == g ^ (2 * (i as u32 % 2)));
    let b = if gamma[0] < 4 { gamma[0] } else { g };
    let restive_tail = (1..gamma.len()).all(|i| gamma[i] == b ^ (2 * (i as u32 % 2)));
    if nim && worst == Phylum::NimHeap {
        Phylum::NimHeap
    } else if tame_tail && worst <= Phylum::GenerallyRestive {
        Phylum::GenerallyTame
    } else if restive_tail && worst <= Phylum::GenerallyRestive {
        Phylum::GenerallyRestive
    } else {
        Phylum::Wild
    }
}

/// CGSuite's text for a genus in a known phylum.
pub fn genus_text_in(g: u32, gamma: &[u32], phylum: Phylum) -> String {
    let len = gamma.len();
    let k = match phylum {
        Phylum::NimHeap => return g.to_string(),
        Phylum::GenerallyTame | Phylum::GenerallyRestive => {
            let b = if phylum == Phylum::GenerallyTame || gamma[0] >= 4 {
                g
            } else {
                gamma[0]
            };
            let mut k = 1;
            while k < len && !(k..len).all(|i| gamma[i] == b ^ (2 * (i as u32 % 2))) {
                k += 1;
            }
            k
        }
        Phylum::Wild => {
            let mut k = 2.min(len);
            while k < len && !(k..len).all(|i| gamma[i] == gamma[i - 2]) {
                k += 1;
            }
            k
        }
    };
    let digits = &gamma[..k];
    let sup = if digits.iter().any(|&d| d >= 10) {
        format!(
            "({})",
            digits
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(",")
        )
    } else {
        digits.iter().map(|d| d.to_string()).collect()
    };
    format!("{g}^{sup}")
}

/// γ of the nim heap *g: 1 − g then alternating for g < 2; g, g ⊕ 2, g, … otherwise.
fn nim_default(g: u32, i: usize) -> u32 {
    if i == 0 && g < 2 {
        1 - g
    } else {
        g ^ (2 * (i as u32 % 2))
    }
}

/// CGSuite's text for a genus (see the module documentation).
pub fn genus_text(g: u32, gamma: &[u32]) -> String {
    let len = gamma.len();
    // The digits kept: the shortest prefix after which γ follows a default continuation.
    let follows = |k: usize, f: &dyn Fn(usize) -> u32| (k..len).all(|i| gamma[i] == f(i));
    let is_nim = (0..len).all(|i| gamma[i] == nim_default(g, i));
    if is_nim {
        return g.to_string();
    }
    let mut k = 1;
    while k < len {
        let g0 = gamma[0];
        let tame = |i: usize| g ^ (2 * (i as u32 % 2));
        let restive_base = if g0 < 4 { g0 } else { g };
        let restive = |i: usize| restive_base ^ (2 * (i as u32 % 2));
        let (a, b) = (
            gamma[k - 1],
            if k >= 2 { gamma[k - 2] } else { gamma[k - 1] },
        );
        let wild = |i: usize| if (i - k).is_multiple_of(2) { b } else { a };
        if follows(k, &tame) || follows(k, &restive) || (k >= 2 && follows(k, &wild)) {
            break;
        }
        k += 1;
    }
    let digits = &gamma[..k.min(len)];
    let sup = if digits.iter().any(|&d| d >= 10) {
        format!(
            "({})",
            digits
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(",")
        )
    } else {
        digits.iter().map(|d| d.to_string()).collect()
    };
    format!("{g}^{sup}")
}

/// Misère Grundy values of sums of heaps of a rule with some extra *1s and *2s, memoised.
struct SumValues<'a> {
    opts: &'a HeapOptions,
    memo: FxHashMap<(Vec<u16>, u8, u8), u32>,
    budget: usize,
}

impl SumValues<'_> {
    fn value(&mut self, heaps: &[u16], ones: u8, twos: u8) -> Result<u32, MisereError> {
        let key = (heaps.to_vec(), ones, twos);
        if let Some(&v) = self.memo.get(&key) {
            return Ok(v);
        }
        if self.memo.len() >= self.budget {
            return Err(MisereError::Limit {
                what: "genus search positions",
                limit: self.budget,
            });
        }
        let mut vals = Vec::new();
        for i in 0..heaps.len() {
            if i > 0 && heaps[i] == heaps[i - 1] {
                continue;
            }
            for l in self.opts.of(heaps[i] as usize) {
                let mut next: Vec<u16> = heaps[..i].to_vec();
                next.extend(&heaps[i + 1..]);
                next.extend(l);
                next.sort_unstable();
                vals.push(self.value(&next, ones, twos)?);
            }
        }
        if ones > 0 {
            vals.push(self.value(heaps, ones - 1, twos)?);
        }
        if twos > 0 {
            vals.push(self.value(heaps, ones + 1, twos - 1)?);
            vals.push(self.value(heaps, ones, twos - 1)?);
        }
        let vals: Vec<u64> = vals.into_iter().map(u64::from).collect();
        let v = if vals.is_empty() {
            1
        } else {
            mex(&vals) as u32
        };
        self.memo.insert(key, v);
        Ok(v)
    }
}

/// The misère canonical forms of the heaps `0..=bound` of a tabulated rule, in `forms`.
pub fn forms_of_heaps(opts: &HeapOptions, forms: &mut Forms) -> Vec<FormId> {
    let mut heap_form: Vec<FormId> = Vec::with_capacity(opts.bound() as usize + 1);
    for h in 0..=opts.bound() as usize {
        let mut o = Vec::new();
        for l in opts.of(h) {
            let mut x = forms.game(vec![]);
            for &k in l {
                let s = forms.sum(x, heap_form[k as usize]);
                x = forms.canonical(s);
            }
            o.push(x);
        }
        let raw = forms.game(o);
        heap_form.push(forms.canonical(raw));
    }
    heap_form
}

/// The misère canonical form of heap `heap` of a rule, in `forms`
/// (`heap_form(&mut f, "grundy", 22)` is Grundy's game on 22 tokens).
pub fn heap_form(forms: &mut Forms, rule: &str, heap: u64) -> Result<FormId, MisereError> {
    let opts = HeapOptions::new(rule, heap)?;
    Ok(forms_of_heaps(&opts, forms)[heap as usize])
}

/// The genus of heaps `0..=upto` of a rule.
#[allow(clippy::needless_range_loop)]
pub fn genus_of_rule(rule: &str, upto: u64) -> Result<Vec<Genus>, MisereError> {
    let opts = HeapOptions::new(rule, upto)?;
    // Normal values: mex of the XOR of the heaps left.
    let mut normal = vec![0u32; upto as usize + 1];
    for h in 1..=upto as usize {
        let vals: Vec<u64> = opts
            .of(h)
            .iter()
            .map(|l| l.iter().fold(0u64, |x, &k| x ^ normal[k as usize] as u64))
            .collect();
        normal[h] = mex(&vals) as u32;
    }
    let opts_table = opts.clone();
    let mut sv = SumValues {
        opts: &opts,
        memo: FxHashMap::default(),
        budget: 20_000_000,
    };
    // canonical forms of the heaps, for the phyla
    let mut forms = Forms::new();
    let heap_form = forms_of_heaps(&opts_table, &mut forms);
    let mut out = Vec::new();
    for h in 0..=upto as usize {
        let c = heap_form[h];
        let heaps: Vec<u16> = if h == 0 { vec![] } else { vec![h as u16] };
        let mut gamma = Vec::with_capacity(GAMMA_LEN);
        for i in 0..GAMMA_LEN {
            gamma.push(sv.value(&heaps, 0, i as u8)?);
        }
        let phylum = forms.phylum(c);
        let text = genus_text_in(normal[h], &gamma, phylum);
        out.push(Genus {
            g: normal[h],
            gamma,
            text,
        });
    }
    Ok(out)
}
