//! The exact extension step: the quotient of heaps `1..=n` computed from the quotient of heaps
//! `1..n`, with the split elements computed rather than learnt.
//!
//! The engine works on a slightly larger class of games than misère play, because the
//! extension step needs it. A **veto game** over the heaps of a rule is given by a finite
//! commutative monoid B (the *base*), an image φ_B(h) ∈ B of every heap, and a predicate
//! β ⊆ B (stored as the base's `p`): a sum X is a P-position when β(φ_B(X)) holds and no
//! option of X is a P-position. Misère play is the veto game whose base records whether a sum
//! has a move ([`moved_base`](crate::quotient::moved_base)): β = "X has a move".
//!
//! Adding heap G = n to the quotient M of heaps below n: a sum is X + k·G, X of heaps below n.
//! The sums X with X + k·G a P-position form the set L_k, and
//!
//! - L_0 is read off M;
//! - X ∈ L_k (k ≥ 1) exactly when β(φ_B(X)·φ_B(G)^k) holds, no option L of G has X + L in
//!   L_(k−1), and no option X′ of X is in L_k.
//!
//! So L_k is the P-set of a veto game on the heaps below n whose base is M_(k−1) × B (M_k the
//! quotient of L_k) with β_k(q, b) = β(b·φ_B(G)^k) and q·Φ_(k−1)(L) ∉ P for every option L of
//! G. Its quotient M_k is computed by the same engine, heap by heap (a recursion on fewer
//! heaps). The sequence (M_k, φ_B(G)^k) is determined by its previous term, so it repeats; the
//! quotient of heaps `1..=n` is then the minimal automaton of the product of M_0, …, M_K with
//! a counter of copies of G. Nothing is learnt: it is exact by construction, and still checked
//! exactly ([`check`]) before it is returned.
//!
//! The recursion is only taken where it is needed: first each heap is tried by the extension
//! step on representatives (the elements of M × B, each represented by its least sum, the
//! outcome of representative + k·G found by the rule at its options), which is exact unless an
//! element splits once G is present; the exact check tells.

use grundy_core::FxHashMap;

use crate::error::MisereError;
use crate::heaps::HeapOptions;
use crate::quotient::{check, minimise, Dfa, Monoid};
use crate::representatives::Classes;

/// The deepest recursion of the exact extension step.
const MAX_DEPTH: usize = 16;

/// The most copies of the new heap the exact step follows before the sequence of quotients
/// must have repeated.
const MAX_COPIES: usize = 256;

/// What one exact extension may spend: automaton states and classes built, over the whole
/// recursion, and the verification's states per check.
pub(crate) struct Budget {
    pub(crate) left: usize,
    pub(crate) limit: usize,
    pub(crate) max_verify: usize,
    /// The largest quotient the recursion may build (the non-convergence detector).
    pub(crate) max_order: usize,
    /// Heaps at which the step on representatives was not exact and the recursion ran (one
    /// entry per such heap, with its depth).
    pub(crate) exact_steps: Vec<(usize, usize)>,
}

impl Budget {
    pub(crate) fn new(limit: usize, max_verify: usize, max_order: usize) -> Self {
        Budget {
            left: limit,
            limit,
            max_verify,
            max_order,
            exact_steps: Vec::new(),
        }
    }

    fn spend(&mut self, n: usize) -> Result<(), MisereError> {
        if self.left < n {
            return Err(MisereError::Limit {
                what: "misère extension states",
                limit: self.limit,
            });
        }
        self.left -= n;
        Ok(())
    }

    /// The minimal monoid of `dfa`, refused past the size cap while heap `h` is added.
    fn minimise(&self, dfa: &Dfa, h: usize) -> Result<Monoid, MisereError> {
        let (m, _) = minimise(dfa);
        if m.order > self.max_order {
            return Err(MisereError::NotConverged {
                heap: h as u64,
                cap: self.max_order,
            });
        }
        Ok(m)
    }
}

/// The quotient of the veto game (`opts`, `base`) on heaps `0..=upto`.
pub(crate) fn veto_quotient(
    opts: &HeapOptions,
    base: &Monoid,
    upto: usize,
    budget: &mut Budget,
    depth: usize,
) -> Result<Monoid, MisereError> {
    let mut m = Monoid {
        order: 1,
        table: vec![0],
        p: vec![base.p[0]],
        phi: vec![0],
    };
    for h in 1..=upto {
        m = step(opts, base, &m, h, budget, depth)?;
    }
    Ok(m)
}

/// The quotient of heaps `1..=h` of the veto game (`opts`, `base`), from `m`, its quotient of
/// heaps `1..h`: by representatives when that is exact, else by the recursion.
pub(crate) fn step(
    opts: &HeapOptions,
    base: &Monoid,
    m: &Monoid,
    h: usize,
    budget: &mut Budget,
    depth: usize,
) -> Result<Monoid, MisereError> {
    let c = by_representatives(opts, base, m, h, budget)?;
    if check(&c, opts, base, budget.max_verify)?.is_none() {
        return Ok(c);
    }
    exact(opts, base, m, h, budget, depth)
}

/// The exact step alone (the recursion), checked.
pub(crate) fn exact(
    opts: &HeapOptions,
    base: &Monoid,
    m: &Monoid,
    h: usize,
    budget: &mut Budget,
    depth: usize,
) -> Result<Monoid, MisereError> {
    if depth >= MAX_DEPTH {
        return Err(MisereError::Limit {
            what: "misère extension depth",
            limit: MAX_DEPTH,
        });
    }
    budget.exact_steps.push((h, depth));
    let g = base.phi[h];
    let mut ms: Vec<Monoid> = vec![m.clone()];
    let mut seen: FxHashMap<(Vec<u32>, u32), usize> = FxHashMap::default();
    seen.insert((canon(m), 0), 0);
    let mut gk = 0u32;
    let restart = loop {
        if ms.len() > MAX_COPIES {
            return Err(MisereError::Limit {
                what: "misère extension copies of a heap",
                limit: MAX_COPIES,
            });
        }
        gk = base.mul(gk, g);
        let prev = ms.last().unwrap_or(m);
        // The base of L_k: M_(k-1) × B over heaps below h, reduced to what β_k tells apart.
        let dfa = automaton(
            h - 1,
            vec![0, 0],
            |s, x| {
                vec![
                    prev.mul(s[0], prev.phi[x as usize]),
                    base.mul(s[1], base.phi[x as usize]),
                ]
            },
            |s| {
                base.p[base.mul(s[1], gk) as usize]
                    && opts.of(h).iter().all(|l| {
                        let y = l
                            .iter()
                            .fold(s[0], |y, &j| prev.mul(y, prev.phi[j as usize]));
                        !prev.p[y as usize]
                    })
            },
            budget,
        )?;
        let bk = budget.minimise(&dfa, h)?;
        let mk = veto_quotient(opts, &bk, h - 1, budget, depth + 1)?;
        let key = (canon(&mk), gk);
        if let Some(&j) = seen.get(&key) {
            break j;
        }
        seen.insert(key, ms.len());
        ms.push(mk);
    };
    let copies = ms.len();
    let next = |i: u32| -> u32 {
        if (i as usize) + 1 < copies {
            i + 1
        } else {
            restart as u32
        }
    };
    // The product of M_0 … M_K and the count of copies of h (its index in that sequence).
    let mut start = vec![0u32; copies + 1];
    start[copies] = 0;
    let dfa = automaton(
        h,
        start,
        |s, x| {
            let mut t = s.to_vec();
            if x as usize == h {
                t[copies] = next(s[copies]);
            } else {
                for (j, mj) in ms.iter().enumerate() {
                    t[j] = mj.mul(s[j], mj.phi[x as usize]);
                }
            }
            t
        },
        |s| {
            let i = s[copies] as usize;
            ms[i].p[s[i] as usize]
        },
        budget,
    )?;
    let q = budget.minimise(&dfa, h)?;
    if check(&q, opts, base, budget.max_verify)?.is_some() {
        return Err(MisereError::Parse(
            "internal: the exact extension step failed its check".into(),
        ));
    }
    Ok(q)
}

/// The extension step on representatives: each element (x, b) of M × B (sums of heaps below
/// h) is represented by its least sum R (heaps compared from the largest down), and the
/// outcome of (x, b) + k·h is the rule at the options of R + k·h, each option again an
/// element. Exact when no element splits once heap h is present; the caller checks.
fn by_representatives(
    opts: &HeapOptions,
    base: &Monoid,
    m: &Monoid,
    h: usize,
    budget: &mut Budget,
) -> Result<Monoid, MisereError> {
    type Key = (u32, u32);
    let times = |(x, b): Key, j: u16| -> Key {
        (
            m.mul(x, m.phi[j as usize]),
            base.mul(b, base.phi[j as usize]),
        )
    };
    let cs = Classes::build(h as u16, (0, 0), times, |_| budget.spend(1))?;
    let class = |k: Key| cs.class(k);
    let keys = &cs.keys;
    let classes = keys.len();
    let g = base.phi[h];
    let mut layers: Vec<Vec<bool>> = vec![keys.iter().map(|&(x, _)| m.p[x as usize]).collect()];
    let mut seen: FxHashMap<(Vec<bool>, u32), usize> = FxHashMap::default();
    seen.insert((layers[0].clone(), 0), 0);
    let mut gk = 0u32;
    let restart = loop {
        if layers.len() > MAX_COPIES {
            return Err(MisereError::Limit {
                what: "misère extension copies of a heap",
                limit: MAX_COPIES,
            });
        }
        budget.spend(classes)?;
        gk = base.mul(gk, g);
        let below = layers.last().cloned().unwrap_or_default();
        let mut layer = vec![false; classes];
        for c in 0..classes {
            let key = keys[c];
            let mut v = base.p[base.mul(key.1, gk) as usize];
            if v {
                for l in opts.of(h) {
                    if below[class(l.iter().fold(key, |k, &y| times(k, y)))?] {
                        v = false;
                        break;
                    }
                }
            }
            v = v && !cs.option_in(c, opts, (0, 0), times, &layer)?;
            layer[c] = v;
        }
        let key = (layer, gk);
        if let Some(&j) = seen.get(&key) {
            break j;
        }
        seen.insert(key.clone(), layers.len());
        layers.push(key.0);
    };
    let copies = layers.len();
    let mut steps: Vec<u32> = Vec::with_capacity(classes * h);
    for &key in keys {
        for x in 1..h as u16 {
            steps.push(class(times(key, x))? as u32);
        }
    }
    let dfa = automaton(
        h,
        vec![0, 0],
        |s, x| {
            if x as usize == h {
                let i = s[1] as usize + 1;
                vec![s[0], if i < copies { i as u32 } else { restart as u32 }]
            } else {
                vec![steps[s[0] as usize * (h - 1) + x as usize - 1], s[1]]
            }
        },
        |s| layers[s[1] as usize][s[0] as usize],
        budget,
    )?;
    budget.minimise(&dfa, h)
}

/// The automaton over heaps `1..=n` of the states reachable from `start` (breadth first, each
/// with its least word) under `step`, accepting where `accept` holds.
fn automaton(
    n: usize,
    start: Vec<u32>,
    step: impl Fn(&[u32], u16) -> Vec<u32>,
    accept: impl Fn(&[u32]) -> bool,
    budget: &mut Budget,
) -> Result<Dfa, MisereError> {
    let mut index: FxHashMap<Vec<u32>, u32> = FxHashMap::default();
    let mut states: Vec<Vec<u32>> = vec![start.clone()];
    let mut words: Vec<Vec<u16>> = vec![Vec::new()];
    index.insert(start, 0);
    let mut delta = Vec::new();
    let mut s = 0;
    while s < states.len() {
        for x in 1..=n as u16 {
            let t = step(&states[s], x);
            let id = match index.get(&t) {
                Some(&id) => id,
                None => {
                    budget.spend(1)?;
                    let id = states.len() as u32;
                    let mut w = words[s].clone();
                    w.push(x);
                    words.push(w);
                    index.insert(t.clone(), id);
                    states.push(t);
                    id
                }
            };
            delta.push(id);
        }
        s += 1;
    }
    let accept = states.iter().map(|t| accept(t)).collect();
    Ok(Dfa {
        n,
        reps: Vec::new(),
        words,
        delta,
        accept,
    })
}

/// The monoid renumbered breadth first from the identity over the heaps' images, written out:
/// equal for two monoids exactly when they recognise the same sets of sums the same way.
fn canon(m: &Monoid) -> Vec<u32> {
    let mut id = vec![u32::MAX; m.order];
    let mut order = vec![0u32];
    id[0] = 0;
    let mut i = 0;
    while i < order.len() {
        let x = order[i];
        for &g in &m.phi[1..] {
            let y = m.mul(x, g);
            if id[y as usize] == u32::MAX {
                id[y as usize] = order.len() as u32;
                order.push(y);
            }
        }
        i += 1;
    }
    let mut out = vec![m.order as u32];
    out.extend(m.phi.iter().map(|&x| id[x as usize]));
    out.extend(order.iter().map(|&x| u32::from(m.p[x as usize])));
    for &x in &order {
        for &y in &order {
            out.push(id[m.mul(x, y) as usize]);
        }
    }
    out
}
