//! Conway's genus (ONAG ch. 12): g^{γ0γ1γ2…}, where g is the normal-play Grundy value of G
//! and γi the misère Grundy value of G + i·*2.
//!
//! The misère Grundy value of a game is 1 when it has no options and otherwise the mex of its
//! options' misère Grundy values. The sequence γ is eventually periodic with period 2. The
//! genus is printed as CGSuite prints it ([`Genus::text`]), by the [`Phylum`] of the game's
//! misère canonical form ([`classify`], CGSuite's classification): plain `g` for a nim heap;
//! g^{γ0} for a tame or restive game, whose γ continues by default (γi = g ⊕ 2·(i mod 2), or
//! b ⊕ 2·(i mod 2) with b = γ0 < 4 ? γ0 : g for restive games, i ≥ 1); and otherwise the
//! digits of γ up to the point after which they alternate, at least two. Digits run together
//! unless one is 10 or more (then they are separated by commas in parentheses).
//!
//! The phylum cannot be read off γ: Kayles heaps 7 and 19 both have γ = 2, 0, 2, 0, … (checked
//! by brute force on heap + k·*2), yet heap 7 is reversibly tame (its one option that is not
//! generally tame, heap 5 of genus 4^146, is restless and has the option *2 with g+ = g− = 2,
//! so the move to it reverses) and prints `2^2`, while heap 19 is wild and prints `2^20`. With
//! this rule all 147 genera of CGSuite's test data are reproduced.
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

/// CGSuite's phyla of misère canonical forms (the classification of Dan Hoey's code in CGSuite,
/// after Conway, ONAG ch. 12: tame games, restive games, and games made tame or restive by
/// reversible moves), in CGSuite's order. The phylum decides how a genus prints: a nim heap as
/// plain `g`, a tame or restive game by g and γ0 alone (its γ continues by the phylum's
/// default), anything else by the digits of γ up to its period 2.
///
/// An odd game (G + *1 for an even G) has the phylum of its even part.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Phylum {
    /// A nim heap: every option a nim heap and the genus a nim heap's (g^g, 0^1 or 1^0).
    NimHeap,
    /// Tame genus (g^g, 0^1, 1^0) with every option a nim heap or hereditarily tame.
    HereditarilyTame,
    /// Tame genus with every option generally tame, or with each wild option reversible
    /// through a generally tame option of the same g+ and g− (ONAG's tame-reversible move).
    ReversiblyTame,
    /// Tame genus, made tame by tameable options; printed as a wild game.
    Tameable,
    /// Restive genus (g+ ∈ {0, 1}, not tame) with hereditarily tame options.
    HereditarilyRestive,
    /// Restive genus with generally tame options, or wild options reversible through restive
    /// or tame ones.
    ReversiblyRestive,
    /// g+ ≥ 2 and g− ∈ {0, 1}, every option generally tame.
    Restless,
    /// Anything else.
    Wild,
}

impl Phylum {
    /// Nim heap, hereditarily or reversibly tame (CGSuite's `isGenerallyTame`).
    pub fn is_generally_tame(self) -> bool {
        matches!(
            self,
            Phylum::NimHeap | Phylum::HereditarilyTame | Phylum::ReversiblyTame
        )
    }

    /// Generally tame or hereditarily / reversibly restive: the genus is g^{γ0} and γ continues
    /// by default.
    pub fn is_restive_or_tame(self) -> bool {
        self.is_generally_tame()
            || matches!(
                self,
                Phylum::HereditarilyRestive | Phylum::ReversiblyRestive
            )
    }
}

/// What the classification needs to know of one option of a game ([`classify`]).
#[derive(Clone, Debug)]
pub struct OptionFacts {
    /// The option's phylum.
    pub phylum: Phylum,
    /// The option's normal and misère Grundy values g+, g−.
    pub values: (u32, u32),
    /// g+ and g− of the option's even part (the option itself when even, else option + *1).
    pub even_values: (u32, u32),
    /// Phylum and (g+, g−) of each option of the option; needed only when the option is not
    /// generally tame (left empty otherwise).
    pub second: Vec<(Phylum, (u32, u32))>,
}

/// The kind of (g+, g−) pair: what the game would be if its options allowed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// g+ = g−, or both in {0, 1}.
    Tame,
    /// g+ ∈ {0, 1}, not tame.
    Restive,
    /// g− ∈ {0, 1}, not tame.
    Restless,
    /// Anything else.
    Wild,
}

fn mex_of(set: &[u32]) -> u32 {
    (0..).find(|m| !set.contains(m)).unwrap_or(0)
}

/// The phylum of an even game with normal value `gp`, misère value `gm` and the options
/// `options` (CGSuite's rule, a fact of its output, re-derived here):
///
/// 1. If every option is generally tame: a tame pair with only nim-heap options is a nim heap
///    unless (g+, g−) is (0, 0) or (1, 1); with nim heaps and hereditarily tame options, a tame
///    pair is hereditarily tame and a restive pair hereditarily restive; otherwise a tame pair
///    is reversibly tame, a restive pair reversibly restive, a restless pair restless.
/// 2. If some option is not generally tame and the pair is tame (restive), the game is
///    reversibly tame (restive) when every such option G′ has options G″ of the right phylum
///    with g+(G″) = g+(G) and g−(G″) = g−(G) (for restive games with the extra parity
///    conditions on the other value), and g+, g− are the mex of the generally tame options'
///    alone. A tame pair whose wild options are tameable or reversible through tameable
///    options is tameable when the mex over tame and tameable options gives g+, g−.
/// 3. Otherwise wild.
pub fn classify(gp: u32, gm: u32, options: &[OptionFacts]) -> Phylum {
    let kind = if gp == gm || (gp < 2 && gm < 2) {
        Kind::Tame
    } else if gp < 2 {
        Kind::Restive
    } else if gm < 2 {
        Kind::Restless
    } else {
        Kind::Wild
    };
    let all_tame = options.iter().all(|o| o.phylum.is_generally_tame());
    if all_tame {
        let wildest = options
            .iter()
            .map(|o| o.phylum)
            .max()
            .unwrap_or(Phylum::NimHeap);
        let hereditary = wildest <= Phylum::HereditarilyTame;
        return match kind {
            Kind::Tame if wildest == Phylum::NimHeap && (gp > 1 || gp != gm) => Phylum::NimHeap,
            Kind::Tame if hereditary => Phylum::HereditarilyTame,
            Kind::Restive if hereditary => Phylum::HereditarilyRestive,
            Kind::Tame => Phylum::ReversiblyTame,
            Kind::Restive => Phylum::ReversiblyRestive,
            Kind::Restless => Phylum::Restless,
            Kind::Wild => Phylum::Wild,
        };
    }
    if !matches!(kind, Kind::Tame | Kind::Restive) {
        return Phylum::Wild;
    }
    // Some option is not generally tame: is every such option reversible?
    let (mut reversible, mut tameable) = (true, kind == Kind::Tame);
    let (mut tame_p, mut tame_m) = (Vec::new(), Vec::new());
    let (mut tameable_p, mut tameable_m) = (Vec::new(), Vec::new());
    for o in options {
        if !(reversible || tameable) {
            return Phylum::Wild;
        }
        if o.phylum.is_generally_tame() {
            tame_p.push(o.values.0);
            tame_m.push(o.values.1);
            continue;
        }
        let (mut m_found, mut p_found) = (false, false);
        let (mut m_tameable, mut p_tameable) = (false, false);
        if tameable && o.phylum == Phylum::Tameable {
            // CGSuite records the even part's values here.
            tameable_p.push(o.even_values.0);
            tameable_m.push(o.even_values.1);
            (m_tameable, p_tameable) = (true, true);
        }
        for &(q, (sp, sm)) in &o.second {
            if kind == Kind::Tame && q.is_generally_tame() {
                m_found |= gm == sm;
                p_found |= gp == sp;
            } else if kind == Kind::Restive && q.is_restive_or_tame() {
                m_found |= gm == sm && (sp < 2 || (sp ^ gm) < 2);
                p_found |= gp == sp && (sm < 2 || (sm ^ gm) < 2);
            } else if tameable && q == Phylum::Tameable {
                m_tameable |= gm == sm;
                p_tameable |= gp == sp;
            }
        }
        if !(m_found && p_found) {
            reversible = false;
            if !(m_tameable && p_tameable) {
                tameable = false;
            }
        }
    }
    if reversible && (gp != mex_of(&tame_p) || gm != mex_of(&tame_m)) {
        reversible = false;
    }
    if tameable {
        tame_p.extend(tameable_p);
        tame_m.extend(tameable_m);
        if (gp != mex_of(&tame_p) || gm != mex_of(&tame_m)) && (!tame_p.is_empty() || gp > 0) {
            tameable = false;
        }
    }
    match (reversible, tameable, kind) {
        (true, _, Kind::Tame) => Phylum::ReversiblyTame,
        (true, _, _) => Phylum::ReversiblyRestive,
        (false, true, _) => Phylum::Tameable,
        _ => Phylum::Wild,
    }
}

/// CGSuite's text for a genus in a known phylum: plain `g` for a nim heap, g^{γ0} for a tame or
/// restive game (its γ continues by default), and otherwise the digits of γ up to the point
/// after which they alternate (at least two).
pub fn genus_text_in(g: u32, gamma: &[u32], phylum: Phylum) -> String {
    let len = gamma.len();
    let k = if phylum == Phylum::NimHeap {
        return g.to_string();
    } else if phylum.is_restive_or_tame() {
        1
    } else {
        let mut k = 2.min(len);
        while k < len && !(k..len).all(|i| gamma[i] == gamma[i - 2]) {
            k += 1;
        }
        k
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
