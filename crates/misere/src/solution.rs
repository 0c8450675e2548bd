//! A quotient for every heap: the proof that the pretending function Φ stays periodic, and the
//! checks a quotient read back from a file must pass before it is used.
//!
//! # The proof (MisereSolver's "solution found")
//!
//! The engine's quotient Q_n covers the sums of heaps `0..=n`. When Φ looks periodic in it,
//! Φ(h + p) = Φ(h) for e ≤ h ≤ n − p, extend Φ to every heap by that period (Φ*) and ask
//! whether Q_n with Φ* gives the outcome of every sum of every heap. The crate's exact check
//! ([`check`](crate::quotient) in `quotient.rs`) answers that for a finite set of heaps, and it
//! only looks at heap *types*: Φ*(h), whether h has a move, and the set of option images
//! Φ*(L). So the quotient is proven for every heap once the check passes on a range of heaps
//! that holds every type any heap has.
//!
//! For a rule the Guy–Smith theorem covers (finite take-and-break codes with unconstrained
//! splits into at most K heaps removing at most t tokens, and finite subtraction sets, K = 1),
//! the type of a heap h ≥ B = max(K·(e′ + p) + t, t + 1 + p), e′ = max(e, 1), is the type of
//! h − p: a move from h removes r ≤ t tokens and leaves j ≤ K heaps summing to h − r ≥
//! K·(e′ + p), so its largest heap a is at least e′ + p and a − p ≥ e′ ≥ 1 is a heap of a move
//! from h − p with Φ*(a − p) = Φ*(a); the other way, a move from h − p leaves heaps summing to
//! at least K·e′, the largest at least e′ ≥ e, and p more tokens in it give a move from h with
//! the same images. (For K = 0 heaps past t have no move at all, and h − p ≥ t + 1 has none
//! either.) Hence every heap's type is the type of a heap in `1..B + p`, and the check on
//! heaps `1..=B + p − 1` with Φ* proves: Φ is periodic with period p from e, the quotient
//! never changes again, and Q_n answers every sum of heaps of any size. A failed check proves
//! nothing; the engine goes on adding heaps.
//!
//! # A quotient read back
//!
//! A table from a file (a cache, a saved run) is used only after [`validate`]: it is a
//! commutative monoid whose elements are all reached from the identity by Φ, it is minimal
//! (no two elements answer every test sum alike), and then the exact check holds for it, so
//! every answer it gives is proven here, whatever the file said.

use grundy_core::FxHashMap;
use grundy_heap::periodicity::{rule_bound, ProofBound};
use grundy_heap::rule::Rule;
use serde::Serialize;

use crate::error::MisereError;
use crate::heaps::{HeapOptions, MAX_BOUND};
use crate::quotient::{check, minimise, moved_base, presentation_key, Dfa, Monoid};

/// Proven periodicity of Φ: the quotient covers every heap.
///
/// Serialized: `{"preperiod", "period", "types_from", "checked_upto"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Solution {
    /// Φ(h + period) = Φ(h) for every heap h ≥ `preperiod`.
    pub preperiod: u64,
    /// The period of Φ.
    pub period: u64,
    /// From this heap on, every heap has the type (Φ, a move or none, the images of its
    /// options) of the heap `period` below it (B in the module documentation).
    pub types_from: u64,
    /// The exact check passed on heaps `1..=checked_upto` (`types_from + period − 1`), which
    /// hold every heap type.
    pub checked_upto: u64,
}

impl Solution {
    /// A heap below `preperiod + period` with the same Φ as heap `h`.
    pub fn phi_heap(&self, h: u64) -> u64 {
        if h < self.preperiod + self.period {
            h
        } else {
            self.preperiod + (h - self.preperiod) % self.period
        }
    }

    /// A heap at most [`Solution::checked_upto`] with the same type as heap `h` (the same Φ and
    /// the same option images): its moves stand for `h`'s when only their images matter.
    pub fn type_heap(&self, h: u64) -> u64 {
        if h < self.types_from {
            h
        } else {
            self.types_from + (h - self.types_from) % self.period
        }
    }
}

/// The smallest apparent period p of `phi` (Φ(0..=n)) with the least preperiod e for it, seen
/// over at least two whole periods and 12 heaps (fewer makes a guess that the proof mostly
/// refutes, each refutation costing one exact check).
pub(crate) fn apparent_period(phi: &[u32]) -> Option<(u64, u64)> {
    let len = phi.len();
    for p in 1..=len / 2 {
        let mut e = len - p;
        while e > 0 && phi[e - 1] == phi[e - 1 + p] {
            e -= 1;
        }
        if len - e >= (2 * p).max(12) {
            return Some((e as u64, p as u64));
        }
    }
    None
}

/// B: from this heap on a heap's type is the type of the heap `p` below (see the module
/// documentation); `None` on overflow.
pub(crate) fn types_from(b: ProofBound, e: u64, p: u64) -> Option<u64> {
    let e1 = e.max(1);
    let linear = b
        .max_heaps
        .checked_mul(e1.checked_add(p)?)?
        .checked_add(b.max_removal)?;
    Some(linear.max(b.max_removal.checked_add(1)?.checked_add(p)?))
}

/// Φ*(0..=upto): `phi` (Φ(0..=n)) extended by the period `p` from `e` (needs e + p ≤ n + 1).
pub(crate) fn extend_phi(phi: &[u32], e: u64, p: u64, upto: u64) -> Vec<u32> {
    let mut out: Vec<u32> = phi.to_vec();
    out.truncate(upto as usize + 1);
    for h in out.len() as u64..=upto {
        out.push(phi[(e + (h - e) % p) as usize]);
    }
    out
}

/// Tries to prove that `m` (the quotient of heaps `0..=n` of `rule`) with Φ extended by the
/// period `p` from `e` answers every sum of every heap: `Some` when the exact check passes on a
/// range of heaps holding every heap type, `None` when it fails, when the rule is one the
/// argument does not cover, or when that range passes [`MAX_BOUND`] or `max_verify`.
pub(crate) fn prove(
    m: &Monoid,
    rule: &Rule,
    rule_text: &str,
    (e, p): (u64, u64),
    max_verify: usize,
) -> Result<Option<Solution>, MisereError> {
    let n = m.phi.len() as u64 - 1;
    if p == 0 || e + p > n + 1 {
        return Ok(None);
    }
    let Some(bound) = rule_bound(rule) else {
        return Ok(None);
    };
    if rule.base_and_shift().1 != 0 {
        return Ok(None);
    }
    let Some(from) = types_from(bound, e, p) else {
        return Ok(None);
    };
    let upto = from + p - 1;
    if upto > MAX_BOUND {
        return Ok(None);
    }
    let opts = HeapOptions::from_rule(rule_text, rule, upto)?;
    let star = Monoid {
        order: m.order,
        table: m.table.clone(),
        p: m.p.clone(),
        phi: extend_phi(&m.phi, e, p, upto),
    };
    let base = moved_base(&opts, upto as usize);
    match check(&star, &opts, &base, max_verify) {
        Ok(None) => Ok(Some(Solution {
            preperiod: e,
            period: p,
            types_from: from,
            checked_upto: upto,
        })),
        Ok(Some(_)) | Err(MisereError::Limit { .. }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The distinct letters of `m`: the elements Φ(h), h = 1..=n, in order of first appearance.
fn letters(m: &Monoid) -> Vec<u32> {
    let mut seen = vec![false; m.order];
    let mut out = Vec::new();
    for &x in m.phi.iter().skip(1) {
        if !seen[x as usize] {
            seen[x as usize] = true;
            out.push(x);
        }
    }
    out
}

/// Checks a monoid read from a file before anything uses it: identity 0, commutative,
/// associative on the letters (so a sum's image does not depend on the order of its heaps),
/// every element reached from the identity, and minimal. The exact check is the caller's
/// (it needs the rule). A one-line reason when it fails.
pub(crate) fn validate(m: &Monoid) -> Result<(), String> {
    let k = m.order;
    if m.phi.first() != Some(&0) {
        return Err("Φ(0) is not the identity".into());
    }
    for x in 0..k as u32 {
        if m.mul(0, x) != x || m.mul(x, 0) != x {
            return Err("element 0 is not the identity".into());
        }
        for y in x + 1..k as u32 {
            if m.mul(x, y) != m.mul(y, x) {
                return Err("the table is not commutative".into());
            }
        }
    }
    let letters = letters(m);
    for &g in &letters {
        for x in 0..k as u32 {
            for y in 0..k as u32 {
                if m.mul(m.mul(x, y), g) != m.mul(x, m.mul(y, g)) {
                    return Err("the table is not associative".into());
                }
            }
        }
    }
    // Every element the image of some sum.
    let mut seen = vec![false; k];
    seen[0] = true;
    let mut stack = vec![0u32];
    while let Some(x) = stack.pop() {
        for &g in &letters {
            let y = m.mul(x, g);
            if !seen[y as usize] {
                seen[y as usize] = true;
                stack.push(y);
            }
        }
    }
    if seen.iter().any(|&s| !s) {
        return Err("an element is the image of no sum".into());
    }
    // Minimal: the classes of "same P-membership after every sum" are the elements.
    let mut class: Vec<u32> = m.p.iter().map(|&b| u32::from(b)).collect();
    let mut count = 0usize;
    loop {
        let mut index: FxHashMap<Vec<u32>, u32> = FxHashMap::default();
        let mut next = vec![0u32; k];
        for x in 0..k {
            let mut key = Vec::with_capacity(letters.len() + 1);
            key.push(class[x]);
            key.extend(letters.iter().map(|&g| class[m.mul(x as u32, g) as usize]));
            let len = index.len() as u32;
            next[x] = *index.entry(key).or_insert(len);
        }
        let c = index.len();
        class = next;
        if c == count {
            break;
        }
        count = c;
    }
    if count != k {
        return Err(format!(
            "the table is not minimal ({k} elements, {count} classes)"
        ));
    }
    Ok(())
}

/// The heap at which the quotient of `m` (covering heaps `0..=n`) last changed: its order,
/// |P| or presentation. The quotient of heaps `0..=h` is the minimal automaton of `m` read with
/// the letters Φ(1..=h) only; it can change only at a heap whose Φ is outside the submonoid of
/// the earlier ones (else every test sum with heap h has a twin without it), so only there is
/// it built and compared.
pub(crate) fn changes_at(m: &Monoid) -> u64 {
    let n = m.phi.len() - 1;
    let mut sub = vec![false; m.order];
    sub[0] = true;
    let mut last = (1usize, 0usize, String::new());
    let mut at = 0u64;
    for h in 1..=n {
        let x = m.phi[h];
        if sub[x as usize] {
            continue;
        }
        // Close the submonoid under x.
        let mut stack: Vec<u32> = (0..m.order as u32).filter(|&y| sub[y as usize]).collect();
        while let Some(y) = stack.pop() {
            let z = m.mul(y, x);
            if !sub[z as usize] {
                sub[z as usize] = true;
                stack.push(z);
            }
        }
        let key = presentation_key(&minimise(&restricted(m, h)).0);
        if key != last {
            last = key;
            at = h as u64;
        }
    }
    at
}

/// The automaton of `m` read with the letters Φ(1..=h): the elements reached from the
/// identity, in breadth-first order.
fn restricted(m: &Monoid, h: usize) -> Dfa {
    let mut id: FxHashMap<u32, u32> = FxHashMap::default();
    id.insert(0, 0);
    let mut dfa = Dfa {
        n: h,
        words: vec![vec![]],
        reps: vec![vec![]],
        delta: Vec::new(),
        accept: vec![m.p[0]],
    };
    let mut elems = vec![0u32];
    let mut s = 0;
    while s < elems.len() {
        for g in 1..=h {
            let y = m.mul(elems[s], m.phi[g]);
            let next = match id.get(&y) {
                Some(&i) => i,
                None => {
                    let i = elems.len() as u32;
                    id.insert(y, i);
                    elems.push(y);
                    let mut w = dfa.words[s].clone();
                    w.push(g as u16);
                    dfa.words.push(w.clone());
                    dfa.reps.push(w);
                    dfa.accept.push(m.p[y as usize]);
                    i
                }
            };
            dfa.delta.push(next);
        }
        s += 1;
    }
    dfa
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_apparent_period_needs_two_periods_and_twelve_heaps() {
        let phi: Vec<u32> = (0..30).map(|h| if h < 5 { h } else { 5 + h % 3 }).collect();
        assert_eq!(apparent_period(&phi), Some((5, 3)));
        assert_eq!(apparent_period(&phi[..12]), None);
        assert_eq!(apparent_period(&[0, 1, 1]), None);
    }

    #[test]
    fn types_repeat_from_the_guy_smith_point() {
        // Kayles: K = 2, t = 2; Φ has period 12 from 71.
        let b = ProofBound {
            max_heaps: 2,
            max_removal: 2,
        };
        assert_eq!(types_from(b, 71, 12), Some(2 * 83 + 2));
        // No heap left by any move: only the removal bound counts.
        let z = ProofBound {
            max_heaps: 0,
            max_removal: 3,
        };
        assert_eq!(types_from(z, 0, 2), Some(6));
        let s = Solution {
            preperiod: 4,
            period: 3,
            types_from: 10,
            checked_upto: 12,
        };
        assert_eq!((s.phi_heap(3), s.phi_heap(7), s.phi_heap(100)), (3, 4, 4));
        assert_eq!(
            (s.type_heap(9), s.type_heap(13), s.type_heap(101)),
            (9, 10, 11)
        );
    }
}
