//! Classes of sums of heaps under a finite key, each named by its least sum: the one piece
//! of the extension step on representatives (Plambeck and Siegel) that both of its users
//! share — the lazy oracle [`search::RepOracle`](crate::search) over the proven quotient of
//! the smaller heaps, and the exact extension step's [`by_representatives`] over the product
//! M × B of a quotient and a veto game's base (`extension.rs`).
//!
//! A key is a map from sums of heaps `1..h` into a finite set, given by the key of the empty
//! sum and how adding one heap changes it. Each class (a key reached from the empty sum) gets
//! its **representative**, the least sum with that key in the multiset order (heaps compared
//! from the largest down), and the classes are numbered in the order of their
//! representatives. An option of a representative (a move in one of its heaps) is a smaller
//! sum, so its class has a smaller number: one pass over the classes in order can settle each
//! from the classes below it.
//!
//! [`by_representatives`]: crate::extension

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::hash::Hash;

use grundy_core::FxHashMap;

use crate::error::MisereError;
use crate::heaps::HeapOptions;

/// The classes of the sums of heaps `1..h` under one key, with their representatives.
pub(crate) struct Classes<K> {
    class_of: FxHashMap<K, u32>,
    /// The key of each class, in class order.
    pub(crate) keys: Vec<K>,
    /// The representative of each class: its least sum, sorted, non-decreasing.
    pub(crate) reps: Vec<Vec<u16>>,
}

impl<K: Copy + Eq + Hash + Ord> Classes<K> {
    /// No classes yet (a placeholder until [`Classes::build`]).
    pub(crate) fn empty() -> Self {
        Classes {
            class_of: FxHashMap::default(),
            keys: Vec::new(),
            reps: Vec::new(),
        }
    }

    /// The classes of the sums of heaps `1..h` under the key whose empty sum is `zero` and
    /// which `times(key, x)` moves by one heap `x`. `admit(classes so far)` is asked before
    /// each new class: it returns the budget's error to stop.
    pub(crate) fn build(
        h: u16,
        zero: K,
        times: impl Fn(K, u16) -> K,
        mut admit: impl FnMut(usize) -> Result<(), MisereError>,
    ) -> Result<Self, MisereError> {
        // Least sums first: the least sum of a class is the least sum of some class plus one
        // heap, and adding a heap keeps the order, so settling classes in the order the queue
        // yields them gives each its least sum.
        let mut c = Classes::empty();
        let mut queue: BinaryHeap<Reverse<(Vec<u16>, K)>> = BinaryHeap::new();
        queue.push(Reverse((Vec::new(), zero)));
        while let Some(Reverse((desc, key))) = queue.pop() {
            if c.class_of.contains_key(&key) {
                continue;
            }
            admit(c.keys.len())?;
            c.class_of.insert(key, c.keys.len() as u32);
            c.keys.push(key);
            let mut rep = desc.clone();
            rep.reverse();
            c.reps.push(rep);
            for x in 1..h {
                let k2 = times(key, x);
                if !c.class_of.contains_key(&k2) {
                    let mut d = desc.clone();
                    let at = d.partition_point(|&y| y >= x);
                    d.insert(at, x);
                    queue.push(Reverse((d, k2)));
                }
            }
        }
        Ok(c)
    }

    /// How many classes.
    pub(crate) fn len(&self) -> usize {
        self.keys.len()
    }

    /// The class of a key reached from the empty sum.
    pub(crate) fn class(&self, key: K) -> Result<usize, MisereError> {
        self.class_of
            .get(&key)
            .map(|&c| c as usize)
            .ok_or_else(|| MisereError::Parse("internal: a key outside the classes".into()))
    }

    /// True when some option of class `c`'s representative (a move in one of its heaps, the
    /// key followed by `zero` and `times`) lies in a class marked in `layer`. Every such class
    /// is below `c` (checked), so `layer` needs only the classes below `c` settled.
    pub(crate) fn option_in(
        &self,
        c: usize,
        opts: &HeapOptions,
        zero: K,
        times: impl Fn(K, u16) -> K,
        layer: &[bool],
    ) -> Result<bool, MisereError> {
        let rep = &self.reps[c];
        for i in 0..rep.len() {
            if i > 0 && rep[i] == rep[i - 1] {
                continue;
            }
            let rest = rep
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .fold(zero, |k, (_, &y)| times(k, y));
            for l in opts.of(rep[i] as usize) {
                let d = self.class(l.iter().fold(rest, |k, &y| times(k, y)))?;
                if d >= c {
                    return Err(MisereError::Parse(
                        "internal: an option's class is not below its sum's".into(),
                    ));
                }
                if layer[d] {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }
}
