//! The straightforward misère search over sums of heaps: memoised, with a budget.
//!
//! A position is a multiset of heaps (a non-decreasing `Vec<u16>`, no empty heaps). It is a
//! P-position in misère play when it has at least one move and every move leads to an
//! N-position; a position without moves is an N-position (the player to move has already won).
//! This is the reference the quotient engine is built and tested on.
//!
//! ```
//! use grundy_misere::{heaps::HeapOptions, search::MisereSearch};
//! let nim = HeapOptions::new("0.[3]", 3).unwrap();
//! let mut s = MisereSearch::new(nim, 100_000);
//! assert!(s.is_p(&[1]).unwrap());      // *1: the mover takes the last counter and loses
//! assert!(!s.is_p(&[1, 1]).unwrap());
//! assert!(s.is_p(&[2, 2]).unwrap());
//! ```

use grundy_core::FxHashMap;

use crate::error::MisereError;
use crate::heaps::HeapOptions;
use crate::representatives::Classes;

/// A known quotient for the heaps below some size, used to answer those positions at once.
#[derive(Clone, Debug)]
pub(crate) struct Shortcut {
    /// Heaps `< below` are covered.
    pub below: u16,
    /// Φ of each heap `< below`.
    pub phi: Vec<u32>,
    /// The multiplication table, `order * order`.
    pub table: Vec<u32>,
    /// The number of elements.
    pub order: usize,
    /// P-portion membership.
    pub p: Vec<bool>,
}

impl Shortcut {
    fn answer(&self, pos: &[u16]) -> Option<bool> {
        if pos.last().is_some_and(|&h| h >= self.below) {
            return None;
        }
        let mut x = 0u32;
        for &h in pos {
            x = self.table[x as usize * self.order + self.phi[h as usize] as usize];
        }
        Some(self.p[x as usize])
    }
}

/// Memoised misère outcomes of sums of heaps of one rule.
pub struct MisereSearch {
    opts: HeapOptions,
    memo: FxHashMap<Vec<u16>, bool>,
    budget: usize,
    pub(crate) shortcut: Option<Shortcut>,
}

impl MisereSearch {
    /// A search over the heaps of `opts`, remembering at most `budget` positions.
    pub fn new(opts: HeapOptions, budget: usize) -> Self {
        MisereSearch {
            opts,
            memo: FxHashMap::default(),
            budget,
            shortcut: None,
        }
    }

    /// The heap options searched over.
    pub fn options(&self) -> &HeapOptions {
        &self.opts
    }

    /// Replaces the heap options by a table for a larger bound (the same rule: the options of
    /// the heaps already tabulated must not change, so the memo stays valid).
    pub(crate) fn widen(&mut self, opts: HeapOptions) {
        self.opts = opts;
    }

    /// Remembers at most `budget` positions from now on.
    pub(crate) fn set_budget(&mut self, budget: usize) {
        self.budget = budget;
    }

    /// Positions remembered so far.
    pub fn memo_len(&self) -> usize {
        self.memo.len()
    }

    /// True when the sum `heaps` (any order, zeros allowed) is a misère P-position.
    pub fn is_p(&mut self, heaps: &[u16]) -> Result<bool, MisereError> {
        let mut pos: Vec<u16> = heaps.iter().copied().filter(|&h| h > 0).collect();
        pos.sort_unstable();
        if let Some(&h) = pos.last() {
            if h as u64 > self.opts.bound() {
                return Err(MisereError::HeapBeyondBound {
                    heap: h as u64,
                    bound: self.opts.bound(),
                });
            }
        }
        self.p_sorted(&pos)
    }

    pub(crate) fn p_sorted(&mut self, pos: &[u16]) -> Result<bool, MisereError> {
        if let Some(s) = &self.shortcut {
            if let Some(a) = s.answer(pos) {
                return Ok(a);
            }
        }
        if let Some(&v) = self.memo.get(pos) {
            return Ok(v);
        }
        if self.memo.len() >= self.budget {
            return Err(MisereError::Limit {
                what: "misère search positions",
                limit: self.budget,
            });
        }
        let mut has_move = false;
        let mut p = true;
        let mut next: Vec<u16> = Vec::with_capacity(pos.len() + 4);
        // Two passes: first the options the known quotient answers at once (moves in the only
        // heap beyond it), then the rest by recursion. A P-option found in the first pass
        // settles the position without searching below it.
        let below = self.shortcut.as_ref().map_or(0, |s| s.below);
        let beyond = pos.len() - pos.partition_point(|&h| h < below);
        'outer: for pass in 0..2 {
            for i in 0..pos.len() {
                if i > 0 && pos[i] == pos[i - 1] {
                    continue;
                }
                // In the first pass only the single heap beyond the quotient moves.
                let at_once = beyond == 1 && pos[i] >= below;
                if (pass == 0) != at_once {
                    continue;
                }
                let h = pos[i] as usize;
                for k in 0..self.opts.of(h).len() {
                    has_move = true;
                    next.clear();
                    next.extend_from_slice(&pos[..i]);
                    next.extend_from_slice(&pos[i + 1..]);
                    next.extend_from_slice(&self.opts.of(h)[k]);
                    next.sort_unstable();
                    let child = next.clone();
                    if self.p_sorted(&child)? {
                        p = false;
                        break 'outer;
                    }
                }
            }
        }
        let v = has_move && p;
        self.memo.insert(pos.to_vec(), v);
        Ok(v)
    }
}

/// One homomorphism from sums of heaps `< n` to a finite monoid, part of the oracle's key.
#[derive(Clone, Debug)]
pub(crate) struct KeyPart {
    /// The image of each heap `< n` (entries for larger heaps are ignored).
    pub phi: Vec<u32>,
    /// The multiplication table, `order * order`.
    pub table: Vec<u32>,
    pub order: usize,
}

impl KeyPart {
    fn mul(&self, a: u32, b: u32) -> u32 {
        self.table[a as usize * self.order + b as usize]
    }
}

/// The key of a sum of smaller heaps: its image under each part (unused parts stay 0).
type Key = [u32; 3];

/// Misère outcomes of sums `X + k·G` (G the newest heap n, X a sum of smaller heaps) computed
/// on *elements*, the extension step of Plambeck and Siegel: X is replaced by its key κ(X) (its
/// element in the proven quotient Q′ of the heaps below n, times its image in any further key
/// parts), and κ(X) by a fixed **representative**, the least sum with that key in the multiset
/// order (compare the heaps from the largest down). The outcome of (κ, k) is the misère rule
/// applied to the options of representative + k·G: R′ + k·G for each option R′ of the
/// representative (an option is less than the sum in the multiset order, so its key's
/// representative is too) and R + L + (k − 1)·G for each option L of G. The recursion is
/// finite (one entry per key and k, computed a layer of k at a time) and deterministic: no
/// position is searched.
///
/// It is exact when the key is fine enough: when sums with one key stay indistinguishable once
/// heap n is present. When they do not (an element of Q′ splits, as in 0.07 at heaps 10 and
/// 25), the quotient engine finds a sum whose answer breaks the misère rule at its options and
/// goes on with another oracle (see `quotient.rs`). Every candidate is verified exactly, so an
/// answer that is wrong can cost time, never correctness.
pub(crate) struct RepOracle {
    /// The newest heap.
    n: u16,
    /// Part 0 is the proven quotient of heaps `< n` (its P-portion is `p`).
    parts: Vec<KeyPart>,
    p: Vec<bool>,
    /// The classes (keys reachable from the empty sum) and their representatives.
    classes: Classes<Key>,
    /// `layers[k - 1][class]`: the outcome of the class's sums plus k copies of heap n.
    layers: Vec<Vec<bool>>,
    budget: usize,
}

impl RepOracle {
    /// The oracle for heap `n` keyed by `parts` (part 0: the quotient of the heaps below n,
    /// with P-portion `p`; at most 3 parts). Every option of every heap must leave only
    /// smaller heaps (true of every heap rule here); `budget` bounds the classes and the
    /// outcomes remembered.
    pub(crate) fn new(
        opts: &HeapOptions,
        n: u16,
        parts: Vec<KeyPart>,
        p: &[bool],
        budget: usize,
    ) -> Result<Self, MisereError> {
        for h in 1..=n as usize {
            if opts.of(h).iter().flatten().any(|&x| x as usize >= h) {
                return Err(MisereError::Parse(format!(
                    "internal: an option of heap {h} leaves a heap as large"
                )));
            }
        }
        let mut o = RepOracle {
            n,
            parts: Vec::new(),
            p: p.to_vec(),
            classes: Classes::empty(),
            layers: Vec::new(),
            budget,
        };
        o.rekey(parts)?;
        Ok(o)
    }

    /// Replaces the key parts (part 0 must stay the proven quotient of the heaps below n) and
    /// recomputes the classes and representatives. Forgets the outcomes (they were computed
    /// on the old representatives).
    fn rekey(&mut self, parts: Vec<KeyPart>) -> Result<(), MisereError> {
        if parts.is_empty() || parts.len() > 3 {
            return Err(MisereError::Parse("internal: 1 to 3 key parts".into()));
        }
        self.parts = parts;
        self.layers.clear();
        let (parts, budget) = (&self.parts, self.budget);
        self.classes = Classes::build(
            self.n,
            [0; 3],
            |k, x| times(parts, k, &[x]),
            |len| {
                if len >= budget {
                    Err(MisereError::Limit {
                        what: "misère search positions",
                        limit: budget,
                    })
                } else {
                    Ok(())
                }
            },
        )?;
        Ok(())
    }

    /// True when the sum `pos` (sorted, no empty heaps, every heap ≤ n) is a misère P-position
    /// by this oracle.
    pub(crate) fn p_sorted(
        &mut self,
        opts: &HeapOptions,
        pos: &[u16],
    ) -> Result<bool, MisereError> {
        let (xs, k) = older_and_newest(pos, self.n);
        let c = self.classes.class(times(&self.parts, [0; 3], xs))?;
        self.value(opts, c, k)
    }

    fn value(&mut self, opts: &HeapOptions, c: usize, k: usize) -> Result<bool, MisereError> {
        if k == 0 {
            return Ok(self.p[self.classes.keys[c][0] as usize]);
        }
        while self.layers.len() < k {
            self.next_layer(opts)?;
        }
        Ok(self.layers[k - 1][c])
    }

    /// The outcomes of (class, k) for every class, k one more than the layers known. Classes
    /// are numbered in the order of their representatives, and an option of a representative
    /// is less than it, so one pass in class order has every answer it needs.
    fn next_layer(&mut self, opts: &HeapOptions) -> Result<(), MisereError> {
        let k = self.layers.len() + 1;
        let classes = self.classes.len();
        if classes.saturating_mul(k) > self.budget.saturating_mul(4) {
            return Err(MisereError::Limit {
                what: "misère search positions",
                limit: self.budget,
            });
        }
        let n = self.n as usize;
        let parts = &self.parts;
        let times1 = |k, x| times(parts, k, &[x]);
        let mut layer = vec![false; classes];
        for c in 0..classes {
            let key = self.classes.keys[c];
            // Moves in one copy of heap n: one level down in k.
            let mut p = true;
            for l in opts.of(n) {
                let d = self.classes.class(times(parts, key, l))?;
                let down = if k == 1 {
                    self.p[self.classes.keys[d][0] as usize]
                } else {
                    self.layers[k - 2][d]
                };
                if down {
                    p = false;
                    break;
                }
            }
            // Misère play: a sum with no move at all is not a P-position.
            let has_move = !opts.of(n).is_empty()
                || self.classes.reps[c]
                    .iter()
                    .any(|&x| !opts.of(x as usize).is_empty());
            p = p && has_move && !self.classes.option_in(c, opts, [0; 3], times1, &layer)?;
            layer[c] = p;
        }
        self.layers.push(layer);
        Ok(())
    }
}

/// Misère outcomes of sums `X + k·G` (G the newest heap n, X a sum of smaller heaps) found by a
/// recursion whose memo is keyed by the *element* Φ(X) of the proven quotient of the smaller
/// heaps (and any further parts of the key) and by k — the extension step of Plambeck and
/// Siegel — not by the position X.
///
/// The recursion itself walks real options (X′ + k·G and X + L + (k − 1)·G for each option L
/// of G), so it is well founded; only its memo identifies positions. That identification is
/// exact when the sums of smaller heaps that the key merges stay indistinguishable once heap n
/// is present; when they do not (an old element splits), answers may be wrong. The quotient
/// engine therefore never trusts this oracle alone: every candidate it yields is verified
/// exactly; a sum where the oracle breaks the misère rule marks its key as split (such sums
/// are then remembered by position), and the position search [`MisereSearch`] is the last
/// resort.
pub(crate) struct ElementSearch {
    /// The newest heap.
    n: u16,
    /// Part 0 is the proven quotient of heaps `< n` (its P-portion is `p`).
    parts: Vec<KeyPart>,
    p: Vec<bool>,
    memo: FxHashMap<(Key, usize), bool>,
    /// Keys found split: sums with such a key are remembered by position.
    split: FxHashMap<(Key, usize), ()>,
    by_position: FxHashMap<Vec<u16>, bool>,
    /// Keys at which two sums were found to differ.
    conflicts: Vec<(Key, usize)>,
    known: usize,
    budget: usize,
}

impl ElementSearch {
    /// The oracle for heap `n` keyed by `parts` (part 0: the quotient of the heaps below n,
    /// with P-portion `p`; at most 3 parts).
    pub(crate) fn new(n: u16, parts: Vec<KeyPart>, p: &[bool], budget: usize) -> Self {
        assert!(!parts.is_empty() && parts.len() <= 3);
        ElementSearch {
            n,
            parts,
            p: p.to_vec(),
            memo: FxHashMap::default(),
            split: FxHashMap::default(),
            by_position: FxHashMap::default(),
            conflicts: Vec::new(),
            known: 0,
            budget,
        }
    }

    /// Marks the key of the sum `pos` (sorted, heaps ≤ n), and every key where two sums were
    /// seen to differ, as split: from now on sums with such a key are answered by their own
    /// options, not by the first sum met with the key. Forgets every answer so far (they may
    /// rest on a split key). False when nothing new was marked.
    pub(crate) fn mark_split(&mut self, pos: &[u16]) -> bool {
        let key = self.key_of(pos);
        let mut new = key.1 > 0 && self.split.insert(key, ()).is_none();
        for c in std::mem::take(&mut self.conflicts) {
            new |= self.split.insert(c, ()).is_none();
        }
        if !new {
            return false;
        }
        self.memo.clear();
        self.by_position.clear();
        self.known = 0;
        true
    }

    /// The key of a sorted sum: (image of its heaps below n, number of heaps n).
    pub(crate) fn key_of(&self, pos: &[u16]) -> (Key, usize) {
        let (xs, k) = older_and_newest(pos, self.n);
        (self.image(xs), k)
    }

    fn image(&self, xs: &[u16]) -> Key {
        times(&self.parts, [0; 3], xs)
    }

    /// True when the sum `pos` (sorted, no empty heaps, every heap ≤ n) is a misère P-position.
    pub(crate) fn p_sorted(
        &mut self,
        opts: &HeapOptions,
        pos: &[u16],
    ) -> Result<bool, MisereError> {
        let (xs, k) = older_and_newest(pos, self.n);
        let x = self.image(xs);
        self.value(opts, xs, x, k)
    }

    fn value(
        &mut self,
        opts: &HeapOptions,
        xs: &[u16],
        x: Key,
        k: usize,
    ) -> Result<bool, MisereError> {
        if k == 0 {
            return Ok(self.p[x[0] as usize]);
        }
        let exact = !self.split.is_empty() && self.split.contains_key(&(x, k));
        if exact {
            let mut pos = xs.to_vec();
            pos.extend(std::iter::repeat_n(self.n, k));
            if let Some(&v) = self.by_position.get(&pos) {
                return Ok(v);
            }
        } else if let Some(&v) = self.memo.get(&(x, k)) {
            return Ok(v);
        }
        if self.known >= self.budget {
            return Err(MisereError::Limit {
                what: "misère search positions",
                limit: self.budget,
            });
        }
        let mut has_move = false;
        let mut p = true;
        let mut next: Vec<u16> = Vec::with_capacity(xs.len() + 4);
        // Moves in one copy of heap n first: their results are one level down, mostly known.
        let n = self.n as usize;
        for l in opts.of(n) {
            has_move = true;
            let y = times(&self.parts, x, l);
            next.clear();
            next.extend_from_slice(xs);
            next.extend_from_slice(l);
            next.sort_unstable();
            let child = next.clone();
            if self.value(opts, &child, y, k - 1)? {
                p = false;
                break;
            }
        }
        if p {
            'outer: for i in 0..xs.len() {
                if i > 0 && xs[i] == xs[i - 1] {
                    continue;
                }
                for l in opts.of(xs[i] as usize) {
                    has_move = true;
                    next.clear();
                    next.extend_from_slice(&xs[..i]);
                    next.extend_from_slice(&xs[i + 1..]);
                    next.extend_from_slice(l);
                    next.sort_unstable();
                    let child = next.clone();
                    let y = self.image(&child);
                    if self.value(opts, &child, y, k)? {
                        p = false;
                        break 'outer;
                    }
                }
            }
        }
        let v = has_move && p;
        self.known += 1;
        if exact {
            let mut pos = xs.to_vec();
            pos.extend(std::iter::repeat_n(self.n, k));
            self.by_position.insert(pos, v);
            return Ok(v);
        }
        match self.memo.get(&(x, k)) {
            // A sum met inside this one had the same key and another outcome: the key is
            // split. Keep the first answer (the oracle stays a function) and report it.
            Some(&first) => {
                if first != v {
                    self.conflicts.push((x, k));
                }
                Ok(first)
            }
            None => {
                self.memo.insert((x, k), v);
                Ok(v)
            }
        }
    }
}

/// `key` times the heaps `xs`, in each part of the smaller heaps' quotient (the extension
/// step's key of a sum).
fn times(parts: &[KeyPart], mut key: Key, xs: &[u16]) -> Key {
    for (i, part) in parts.iter().enumerate() {
        for &h in xs {
            key[i] = part.mul(key[i], part.phi[h as usize]);
        }
    }
    key
}

/// A sorted sum split for the extension step: the heaps below the newest heap `n`, and how
/// many copies of `n` follow them.
fn older_and_newest(pos: &[u16], n: u16) -> (&[u16], usize) {
    let cut = pos.partition_point(|&h| h < n);
    (&pos[..cut], pos.len() - cut)
}
