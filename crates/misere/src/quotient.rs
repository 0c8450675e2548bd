//! Misère quotients of heap rules (Plambeck and Siegel).
//!
//! For a heap rule and a bound `n`, let A be the sums of heaps `0..=n`. Two sums G, H are
//! *indistinguishable* when G + X and H + X have the same misère outcome for every X in A. The
//! classes form a commutative monoid Q (the misère quotient), the classes of P-positions its
//! P-portion, and Φ(h), the class of a single heap h, is the pretending function: the outcome
//! of a sum is decided by whether Φ(h1)·Φ(h2)·… lies in P.
//!
//! # Method
//!
//! Because addition is commutative, indistinguishability is exactly the Myhill–Nerode
//! equivalence of the set of P-positions read as a language over the alphabet of heaps, so Q is
//! the minimal automaton of that language and its product is "read the other element's word".
//! The engine adds heaps one at a time. For heap n it learns a candidate automaton from an
//! observation table (rows: sums reached by adding one heap at a time; columns: test sums X;
//! entries: the misère outcome of row + X). Sums of smaller heaps alone are answered at once by
//! the quotient Q′ already proven for heap n − 1. A sum X + k·n (X of smaller heaps) is answered
//! by the **extension step** of Plambeck and Siegel, computed on elements: X is replaced by a
//! fixed representative of Φ′(X) ∈ Q′ (the least sum with that element, heaps compared from
//! the largest down), and the outcome of (Φ′(X), k) is the misère rule at the options of
//! representative + k·n, each again an element (see `RepOracle` in `search.rs`): at most |Q′| entries per
//! k, no position searched. That identification assumes that sums merged in Q′ stay
//! indistinguishable once heap n is present. When they do not (an element of Q′ splits, as in
//! 0.07 at heaps 10 and 25, Kayles at 9), the oracle breaks the misère rule at some sum, which
//! the exact check below finds. Then the split is computed rather than learnt: the sums X with
//! X + k·n a P-position are the P-positions of a game on the smaller heaps whose quotient is
//! computed heap by heap by the same method, recursively (the **exact extension step**, see
//! `extension.rs`); Q_n is the product of those quotients with a counter of copies of heap n.
//! Only when that runs out of its budget does the engine fall back on the older stages: it
//! answers by the misère rule at a sum's options,
//! each answered through its element of the latest candidate (a look-ahead, at most
//! `LOOKAHEAD_ROUNDS` rounds: enough for 0.07 at heap 10 and Kayles at 9), then by the older
//! recursion over real options whose memo is keyed by element, with keys found split
//! remembered by position, and as a last resort by the plain position search [`MisereSearch`].
//! Whatever the oracle, a candidate is only accepted after it is **verified exactly**:
//!
//! 1. its transitions commute, so every sum has one well-defined image ψ(G);
//! 2. for every sum G, "ψ(G) ∈ P" agrees with the misère rule applied to the images of G's
//!    options. The image of an option G − h + L is ψ(G − h)·Φ(L), so it suffices to visit every
//!    reachable tuple (ψ(G), ψ(G − h) for each heap h in G), a finite set explored breadth
//!    first. By induction on the game, the candidate then gives every sum's outcome.
//!
//! A failed check yields a sum whose outcome the candidate gets wrong; the suffix of its word
//! that separates two wrongly merged rows (Rivest–Schapire) becomes a new column, and learning
//! resumes. Every round adds a state, so a size cap ([`Limits::max_order`]) stops quotients
//! that do not converge (0.3122 up to heap 7 is infinite) with [`MisereError::NotConverged`].
//! The verified automaton is minimised: that is Q itself (the reduction to the true quotient).
//!
//! The presentation is printed as MisereSolver does: generators a, b, c, … in order of first
//! appearance in Φ(1), Φ(2), …; each element's normal form is its least word (by degree, then
//! lexicographically on the sorted letters); the relations are the minimal words that are not
//! normal forms, `word = normal form`, sorted lexicographically.
//!
//! ```
//! use grundy_misere::quotient::quotient;
//! let t2 = quotient("0.[3]", 3).unwrap(); // misère Nim, heaps < 4
//! assert_eq!(t2.presentation, "a^2 = 1, b^3 = b");
//! assert_eq!(t2.name.as_deref(), Some("T_2"));
//! assert_eq!(t2.p_portion, ["a", "b^2"]);
//! ```

use std::fmt::Write as _;

use grundy_core::Move;
use grundy_core::{FxHashMap, Outcome};
use grundy_heap::rule::{self, Rule};
use serde::Serialize;

use crate::error::MisereError;
use crate::extension;
use crate::heaps::HeapOptions;
use crate::search::{ElementSearch, KeyPart, MisereSearch, RepOracle, Shortcut};
use crate::solution::{self, Solution};

/// Budgets of a quotient computation. Each is a limit, reported as an error when reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most states of a candidate automaton (an upper bound on |Q|): the non-convergence
    /// detector. At most 65 000. The default, 1024, is nearly three times the largest quotient
    /// this crate is meant to reach (Dawson's Kayles at heap 30, 360 elements) and stops
    /// 0.3122 at heap 7 (infinite) in about 15 s; the time to reach the cap grows faster
    /// than the cap (0.3122 to heap 7: 0.4 s at 256, 2.4 s at 512, 15 s at 1024 on the 2-core
    /// development machine, see `docs/benchmarks.md`).
    pub max_order: usize,
    /// The most positions the misère search remembers.
    pub max_search: usize,
    /// The most tuples the exact verification visits for one heap.
    pub max_verify: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_order: 1024,
            max_search: 5_000_000,
            max_verify: 2_000_000,
        }
    }
}

/// How many rounds of the look-ahead one heap may take before the split-key search answers it
/// (see `QuotientEngine::learn_by_elements`).
const LOOKAHEAD_ROUNDS: usize = 4;

/// A generator of the quotient: its letter and the heap whose Φ it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Generator {
    /// The letter (a, b, c, …).
    pub name: String,
    /// The first heap h with Φ(h) equal to it.
    pub heap: u64,
}

/// One relation of the presentation: `lhs = rhs`, `rhs` the normal form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Relation {
    /// A minimal word that is not a normal form.
    pub lhs: String,
    /// The normal form of the same element.
    pub rhs: String,
}

/// A period of Φ: Φ(h + period) = Φ(h) for every heap h ≥ preperiod — proven for every heap
/// when the quotient has a [`Solution`], else seen up to the bound over at least three periods
/// (observed, not proven).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Period {
    /// The first heap of the periodic part.
    pub preperiod: u64,
    /// The period.
    pub period: u64,
}

/// A maximal subgroup of the quotient: the group of units of eQ for an idempotent e.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Subgroup {
    /// The idempotent e (its identity).
    pub idempotent: String,
    /// The number of elements.
    pub order: usize,
    /// Its elements (normal forms).
    pub elements: Vec<String>,
}

/// The structure of a quotient asked for on request: idempotents and maximal subgroups.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Structure {
    /// Every idempotent (e² = e), as normal forms.
    pub idempotents: Vec<String>,
    /// The maximal subgroup at each idempotent, in the same order.
    pub subgroups: Vec<Subgroup>,
}

/// The misère quotient of a heap rule up to a bound, with everything derived from it.
///
/// Serializes with the fields below (the multiplication table and options are internal; see
/// [`QuotientEngine::save_text`] for the file format that reloads).
#[derive(Clone, Debug, Serialize)]
pub struct Quotient {
    /// The rule, as given.
    pub rule: String,
    /// The heap bound: heaps `0..=upto` are covered and shown (`phi`); with a `solution`,
    /// every heap is covered.
    pub upto: u64,
    /// |Q|.
    pub order: usize,
    /// |P|.
    pub p_size: usize,
    /// The presentation in MisereSolver's notation, e.g. `a^2 = 1, b^3 = b` (empty for the
    /// trivial quotient).
    pub presentation: String,
    /// The generators, in order of first appearance.
    pub generators: Vec<Generator>,
    /// The relations, as in `presentation`.
    pub relations: Vec<Relation>,
    /// The elements' normal forms; element ids index this list (0 is the identity `1`).
    pub elements: Vec<String>,
    /// The P-portion, as normal forms.
    pub p_portion: Vec<String>,
    /// Φ(h) for h = 0..=upto, as normal forms.
    pub phi: Vec<String>,
    /// The heap at which the presentation (or |Q|, |P|) last changed.
    pub changes_at: u64,
    /// The period of Φ: the proven one of `solution`, else an apparent one when it shows.
    pub period: Option<Period>,
    /// Set when Φ is proven periodic: the quotient then covers every heap, of any size
    /// (MisereSolver's "solution found"; see [`crate::solution`]).
    pub solution: Option<Solution>,
    /// True when the quotient is tame: isomorphic to the quotient T_k of misère Nim.
    pub tame: bool,
    /// `T_k` when tame (T_0 trivial, T_1 = ⟨a | a² = 1⟩ with P = {a}, T_k of 2^k + 2 elements).
    pub name: Option<String>,
    #[serde(skip)]
    table: Vec<u32>,
    #[serde(skip)]
    in_p: Vec<bool>,
    #[serde(skip)]
    phi_ids: Vec<u32>,
    #[serde(skip)]
    opts: HeapOptions,
    /// The rule, for the moves of heaps past the tabulated ones.
    #[serde(skip)]
    rule_parsed: Rule,
}

/// Computes the misère quotient of `rule` for heaps up to `upto` with default [`Limits`].
pub fn quotient(rule: &str, upto: u64) -> Result<Quotient, MisereError> {
    let mut e = QuotientEngine::new(rule, Limits::default())?;
    e.extend_to(upto)?;
    Ok(e.quotient())
}

/// A finite commutative monoid with a P-portion and Φ: the proven quotient so far.
#[derive(Clone, Debug)]
pub(crate) struct Monoid {
    pub(crate) order: usize,
    pub(crate) table: Vec<u32>,
    pub(crate) p: Vec<bool>,
    /// Φ(h) for h = 0..=n.
    pub(crate) phi: Vec<u32>,
}

impl Monoid {
    fn trivial() -> Self {
        Monoid {
            order: 1,
            table: vec![0],
            p: vec![false],
            phi: vec![0],
        }
    }
    pub(crate) fn mul(&self, x: u32, y: u32) -> u32 {
        self.table[x as usize * self.order + y as usize]
    }
}

/// The incremental quotient computation: heap by heap, resumable from a saved text.
pub struct QuotientEngine {
    limits: Limits,
    search: MisereSearch,
    n: u64,
    columns: Vec<Vec<u16>>,
    rows: FxHashMap<Vec<u16>, Vec<bool>>,
    monoid: Monoid,
    changes_at: u64,
    last_presentation: (usize, usize, String),
    /// The oracle for sums that contain the heap being added, when not the position search.
    element: Option<Oracle>,
    /// True to answer every question by the position search (the older, slower method).
    position_search_only: bool,
    /// Heaps for which the element-keyed oracle was inconsistent and the position search
    /// answered instead.
    fallbacks: Vec<u64>,
    /// The sum at which the element-keyed oracle was found to break the misère rule.
    inconsistent_at: Option<Vec<u16>>,
    /// Recalibrations of the element-keyed oracle (an element of the smaller heaps' quotient
    /// found split), over all heaps.
    splits: usize,
    /// The latest minimised candidate of the heap being added.
    candidate: Option<Monoid>,
    /// Rounds of the look-ahead oracle, over all heaps.
    lookahead_rounds: usize,
    /// Heaps settled by the exact extension step (an element split).
    exact_heaps: Vec<u64>,
    /// Every recursion of the exact extension step: (heap added, heap of the inner game,
    /// depth).
    exact_steps: Vec<(u64, u64, usize)>,
    /// The rule, parsed.
    rule: Rule,
    /// Set once Φ is proven periodic: every heap is covered, and nothing is learnt any more.
    solution: Option<Solution>,
    /// The last guess the proof refuted: (preperiod, period, |Q|). Tried again only once one
    /// of them changes.
    refuted: Option<(u64, u64, usize)>,
    /// With a solution, the heaps shown by [`QuotientEngine::quotient`] (`0..=shown`, past the
    /// heaps learnt).
    shown: u64,
    /// Whether `extend_with` tries the proof after each heap.
    solving: bool,
}

/// How the engine answers a sum that contains the heap n being added.
enum Oracle {
    /// The extension step on elements of the smaller heaps' quotient (see [`RepOracle`]).
    Elements(RepOracle),
    /// The misère rule applied to a candidate's answers at the sum's options: the sum is a
    /// P-position when it has a move and no option is in P, an option's answer being the one
    /// [`settle`] gives its element of the candidate (a sum of smaller heaps: the proven
    /// quotient). Exact at every sum whose options are answered right, so a candidate that is
    /// right below some sum is corrected at that sum (see
    /// [`QuotientEngine::learn_by_elements`]).
    LookAhead(Monoid, Vec<bool>),
    /// The older extension step: a recursion over real options whose memo is keyed by the
    /// element of the smaller heaps' quotient, with keys found split remembered by position.
    SplitKeys(ElementSearch),
}

/// The outcomes that a candidate C (a monoid over heaps `1..=n`) implies when each of its
/// elements is represented by its least sum (heaps compared from the largest down) and that
/// sum's outcome is found by the misère rule at its options (sums of heaps below n by the
/// proven quotient `q`). Where C is right these are C's P-portion; where C merged sums wrongly,
/// the representatives' answers propagate through every level at once.
fn settle(c: &Monoid, q: &Monoid, opts: &HeapOptions, n: usize) -> Result<Vec<bool>, MisereError> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let bad =
        || MisereError::Parse("internal: a candidate's element without a representative".into());
    let mut reps: Vec<Option<Vec<u16>>> = vec![None; c.order];
    let mut order: Vec<u32> = Vec::with_capacity(c.order);
    let mut queue: BinaryHeap<Reverse<(Vec<u16>, u32)>> = BinaryHeap::new();
    queue.push(Reverse((Vec::new(), 0)));
    while let Some(Reverse((desc, x))) = queue.pop() {
        if reps[x as usize].is_some() {
            continue;
        }
        let mut rep = desc.clone();
        rep.reverse();
        reps[x as usize] = Some(rep);
        order.push(x);
        for h in 1..=n as u16 {
            let y = c.mul(x, c.phi[h as usize]);
            if reps[y as usize].is_none() {
                let mut d = desc.clone();
                let at = d.partition_point(|&g| g >= h);
                d.insert(at, h);
                queue.push(Reverse((d, y)));
            }
        }
    }
    let image = |t: &Monoid, xs: &mut dyn Iterator<Item = u16>| {
        xs.fold(0u32, |x, h| t.mul(x, t.phi[h as usize]))
    };
    let mut v = c.p.clone();
    let mut done = vec![false; c.order];
    for &x in &order {
        let rep = reps[x as usize].as_ref().ok_or_else(bad)?;
        let count_n = rep.iter().filter(|&&h| h as usize == n).count();
        if count_n == 0 {
            v[x as usize] = q.p[image(q, &mut rep.iter().copied()) as usize];
            done[x as usize] = true;
            continue;
        }
        let mut has_move = false;
        let mut p = true;
        'outer: for i in 0..rep.len() {
            if i > 0 && rep[i] == rep[i - 1] {
                continue;
            }
            let exact = count_n == 1 && rep[i] as usize == n;
            let t = if exact { q } else { c };
            let rest = image(
                t,
                &mut rep
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .map(|(_, &h)| h),
            );
            for l in opts.of(rep[i] as usize) {
                has_move = true;
                let y = l.iter().fold(rest, |x, &h| t.mul(x, t.phi[h as usize]));
                let in_p = if exact {
                    q.p[y as usize]
                } else {
                    if !done[y as usize] {
                        return Err(MisereError::Parse(
                            "internal: an option's representative is not below its sum's".into(),
                        ));
                    }
                    v[y as usize]
                };
                if in_p {
                    p = false;
                    break 'outer;
                }
            }
        }
        v[x as usize] = has_move && p;
        done[x as usize] = true;
    }
    Ok(v)
}

/// A candidate automaton over heaps 1..=n.
pub(crate) struct Dfa {
    pub(crate) n: usize,
    pub(crate) words: Vec<Vec<u16>>,
    pub(crate) reps: Vec<Vec<u16>>,
    pub(crate) delta: Vec<u32>,
    pub(crate) accept: Vec<bool>,
}

impl Dfa {
    fn step(&self, s: u32, h: u16) -> u32 {
        if h == 0 {
            s
        } else {
            self.delta[s as usize * self.n + h as usize - 1]
        }
    }
    fn run(&self, s: u32, word: &[u16]) -> u32 {
        word.iter().fold(s, |s, &h| self.step(s, h))
    }
}

fn merged(a: &[u16], b: &[u16]) -> Vec<u16> {
    let mut v: Vec<u16> = a.iter().chain(b).copied().filter(|&h| h > 0).collect();
    v.sort_unstable();
    v
}

impl QuotientEngine {
    /// A computation for `rule` that has covered no heap yet.
    pub fn new(rule: &str, limits: Limits) -> Result<Self, MisereError> {
        let opts = HeapOptions::new(rule, 0)?;
        let parsed = rule::parse(rule)?;
        Ok(QuotientEngine {
            limits: Limits {
                max_order: limits.max_order.min(65_000),
                ..limits
            },
            search: MisereSearch::new(opts, limits.max_search),
            n: 0,
            columns: vec![vec![]],
            rows: FxHashMap::default(),
            monoid: Monoid::trivial(),
            changes_at: 0,
            last_presentation: (1, 0, String::new()),
            element: None,
            position_search_only: false,
            fallbacks: Vec::new(),
            inconsistent_at: None,
            splits: 0,
            candidate: None,
            lookahead_rounds: 0,
            exact_heaps: Vec::new(),
            exact_steps: Vec::new(),
            rule: parsed,
            solution: None,
            refuted: None,
            shown: 0,
            solving: true,
        })
    }

    /// Replaces the budgets (a computation read back continues under the caller's limits).
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = Limits {
            max_order: limits.max_order.min(65_000),
            ..limits
        };
        self.search.set_budget(limits.max_search);
    }

    /// The largest heap covered so far (with a [`Solution`] every heap is covered: this is the
    /// largest one asked for).
    pub fn upto(&self) -> u64 {
        self.n.max(self.shown)
    }

    /// The heaps whose quotient was learnt heap by heap (`0..=learnt()`); past them, with a
    /// solution, Φ follows from its proven period.
    pub fn learnt(&self) -> u64 {
        self.n
    }

    /// The proof that Φ is periodic, once found: the quotient then covers every heap.
    pub fn solution(&self) -> Option<Solution> {
        self.solution
    }

    /// Adds heaps one by one until heaps `0..=upto` are covered, or until Φ is proven periodic
    /// (then every heap is). On error the engine keeps the quotient of the last heap it
    /// completed (so it can be saved and resumed).
    pub fn extend_to(&mut self, upto: u64) -> Result<(), MisereError> {
        self.extend_with(upto, &mut |_| true)
    }

    /// [`QuotientEngine::extend_to`], asking `go(n)` before adding heap n: false stops with
    /// [`MisereError::Stopped`] (the quotient of the heaps before n kept).
    ///
    /// After each heap, when Φ shows a period over two periods (and 12 heaps) that the proof has
    /// not refuted for this quotient, the engine tries to prove it ([`crate::solution`]); once
    /// proven, nothing is learnt any more.
    pub fn extend_with(
        &mut self,
        upto: u64,
        go: &mut dyn FnMut(u64) -> bool,
    ) -> Result<(), MisereError> {
        if upto > crate::heaps::MAX_BOUND {
            return Err(MisereError::BoundTooLarge {
                bound: upto,
                max: crate::heaps::MAX_BOUND,
            });
        }
        if upto <= self.n {
            return Ok(());
        }
        if self.solution.is_some() {
            self.shown = self.shown.max(upto);
            return Ok(());
        }
        while self.n < upto {
            let n = self.n + 1;
            if self.search.options().bound() < n {
                // Tabulated a little ahead (twice the heaps learnt, plus 64), not to `upto`
                // at once: a heap of splits has about as many moves as tokens, and learning
                // usually ends (a proof, a budget) long before a far `upto`.
                let ahead = upto.min(n.saturating_mul(2).saturating_add(64));
                let opts = HeapOptions::from_rule(
                    &self.search.options().rule_text.clone(),
                    &self.rule,
                    ahead,
                )?;
                self.search.widen(opts);
            }
            if !go(n) {
                return Err(MisereError::Stopped { upto: self.n });
            }
            let m = self.add_heap(n as usize)?;
            self.monoid = m;
            self.n = n;
            self.search.shortcut = Some(Shortcut {
                below: n as u16 + 1,
                phi: self.monoid.phi.clone(),
                table: self.monoid.table.clone(),
                order: self.monoid.order,
                p: self.monoid.p.clone(),
            });
            let key = presentation_key(&self.monoid);
            if key != self.last_presentation {
                self.changes_at = n;
                self.last_presentation = key;
            }
            if self.solving && self.try_solve()? {
                self.shown = self.shown.max(upto);
                return Ok(());
            }
        }
        Ok(())
    }

    /// Whether [`QuotientEngine::extend_to`] tries to prove Φ periodic after each heap (on by
    /// default). Off, every heap is learnt: the reference the proof is tested against.
    pub fn solve_periods(&mut self, on: bool) {
        self.solving = on;
    }

    /// Tries to prove Φ periodic (see [`crate::solution`]) when it shows a period the proof has
    /// not refuted for the current quotient; true once a solution is known.
    pub fn try_solve(&mut self) -> Result<bool, MisereError> {
        if self.solution.is_some() {
            return Ok(true);
        }
        let Some((e, p)) = solution::apparent_period(&self.monoid.phi) else {
            return Ok(false);
        };
        let guess = (e, p, self.monoid.order);
        if self.refuted == Some(guess) {
            return Ok(false);
        }
        let rule_text = self.search.options().rule_text.clone();
        match solution::prove(
            &self.monoid,
            &self.rule,
            &rule_text,
            (e, p),
            self.limits.max_verify,
        )? {
            Some(s) => {
                self.solution = Some(s);
                Ok(true)
            }
            None => {
                self.refuted = Some(guess);
                Ok(false)
            }
        }
    }

    /// Answers membership questions by the position search only (true) or, by default, by
    /// the element-keyed extension step first (false). Both give the same verified quotient;
    /// the position search is kept as the reference the faster method is tested against.
    pub fn use_position_search(&mut self, on: bool) {
        self.position_search_only = on;
    }

    /// The number of heaps at which the extension step found an element of the smaller heaps'
    /// quotient split (its answer broke the misère rule at some sum), over all heaps added.
    pub fn splits(&self) -> usize {
        self.splits
    }

    /// The number of rounds the look-ahead oracle ran (after the extension step found
    /// an element split), over all heaps.
    pub fn lookahead_rounds(&self) -> usize {
        self.lookahead_rounds
    }

    /// The heaps at which an element of the smaller heaps' quotient split and the exact
    /// extension step (the split computed, not learnt) gave the quotient.
    pub fn exact_heaps(&self) -> &[u64] {
        &self.exact_heaps
    }

    /// Every step of the exact extension's recursion: (heap added, heap of the inner game
    /// where the step on representatives was not exact, depth).
    pub fn exact_steps(&self) -> &[(u64, u64, usize)] {
        &self.exact_steps
    }

    /// The heaps at which the extension step was inconsistent (an element of the smaller
    /// heaps' quotient split) and the position search answered instead.
    pub fn fallbacks(&self) -> &[u64] {
        &self.fallbacks
    }

    /// The misère outcome of a sorted sum of heaps `<= n`: by the element-keyed oracle when
    /// one is active, else by the position search.
    fn ask(&mut self, pos: &[u16]) -> Result<bool, MisereError> {
        match &mut self.element {
            Some(Oracle::Elements(e)) => e.p_sorted(self.search.options(), pos),
            Some(Oracle::SplitKeys(e)) => e.p_sorted(self.search.options(), pos),
            Some(Oracle::LookAhead(c, v)) => {
                let n = c.phi.len() as u16 - 1;
                if pos.last().is_none_or(|&h| h < n) {
                    // Sums of the smaller heaps: the proven quotient.
                    let m = &self.monoid;
                    let x = pos.iter().fold(0u32, |x, &h| m.mul(x, m.phi[h as usize]));
                    return Ok(m.p[x as usize]);
                }
                let opts = self.search.options();
                // Moving the only heap n leaves a sum of smaller heaps: the proven quotient
                // answers it; every other option is answered by C.
                let last_n = pos.len() < 2 || pos[pos.len() - 2] < n;
                let m = &self.monoid;
                let mut has_move = false;
                for i in 0..pos.len() {
                    if i > 0 && pos[i] == pos[i - 1] {
                        continue;
                    }
                    let (t, p): (&Monoid, &[bool]) = if last_n && pos[i] == n {
                        (m, &m.p)
                    } else {
                        (c, v)
                    };
                    let mut rest = 0u32;
                    for (j, &h) in pos.iter().enumerate() {
                        if j != i {
                            rest = t.mul(rest, t.phi[h as usize]);
                        }
                    }
                    for l in opts.of(pos[i] as usize) {
                        has_move = true;
                        let y = l.iter().fold(rest, |x, &h| t.mul(x, t.phi[h as usize]));
                        if p[y as usize] {
                            return Ok(false);
                        }
                    }
                }
                Ok(has_move)
            }
            None => self.search.p_sorted(pos),
        }
    }

    fn row(&mut self, pos: &[u16]) -> Result<Vec<bool>, MisereError> {
        let mut r = self.rows.remove(pos).unwrap_or_default();
        while r.len() < self.columns.len() {
            let c = &self.columns[r.len()];
            let q = merged(pos, c);
            r.push(self.ask(&q)?);
        }
        self.rows.insert(pos.to_vec(), r.clone());
        Ok(r)
    }

    fn truth(&mut self, word: &[u16]) -> Result<bool, MisereError> {
        let q = merged(word, &[]);
        self.ask(&q)
    }

    fn build(&mut self, n: usize) -> Result<Dfa, MisereError> {
        let mut index: FxHashMap<Vec<bool>, u32> = FxHashMap::default();
        let r0 = self.row(&[])?;
        index.insert(r0.clone(), 0);
        let mut dfa = Dfa {
            n,
            words: vec![vec![]],
            reps: vec![vec![]],
            delta: Vec::new(),
            accept: vec![r0[0]],
        };
        let mut s = 0;
        while s < dfa.reps.len() {
            for h in 1..=n as u16 {
                let pos = merged(&dfa.reps[s], &[h]);
                let sig = self.row(&pos)?;
                let id = match index.get(&sig) {
                    Some(&id) => id,
                    None => {
                        let id = dfa.reps.len() as u32;
                        if dfa.reps.len() >= self.limits.max_order {
                            return Err(MisereError::NotConverged {
                                heap: n as u64,
                                cap: self.limits.max_order,
                            });
                        }
                        let mut w = dfa.words[s].clone();
                        w.push(h);
                        dfa.words.push(w);
                        dfa.reps.push(pos);
                        dfa.accept.push(sig[0]);
                        index.insert(sig, id);
                        id
                    }
                };
                dfa.delta.push(id);
            }
            s += 1;
        }
        Ok(dfa)
    }

    /// Adds the column that a counterexample word (whose predicted outcome is wrong) yields.
    fn refine(&mut self, dfa: &Dfa, word: &[u16]) -> Result<(), MisereError> {
        let k = word.len();
        let mut states = vec![0u32];
        for &h in word {
            let s = dfa.step(*states.last().unwrap_or(&0), h);
            states.push(s);
        }
        let v0 = self.truth(word)?;
        let vk = dfa.accept[states[k] as usize];
        if v0 == vk {
            // With the element-keyed oracle this means the oracle itself breaks the misère
            // rule at `word`: its key is split (see `add_heap`).
            self.inconsistent_at = Some(merged(word, &[]));
            return Err(MisereError::Parse(
                "internal: counterexample predicted correctly".into(),
            ));
        }
        let (mut lo, mut hi) = (0usize, k);
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            let q = merged(&dfa.reps[states[mid] as usize], &word[mid..]);
            if self.ask(&q)? == v0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let col = merged(&word[lo + 1..], &[]);
        if self.columns.contains(&col) {
            return Err(MisereError::Parse(
                "internal: counterexample column already present".into(),
            ));
        }
        self.columns.push(col);
        Ok(())
    }

    /// A word whose predicted outcome is wrong, when the transitions do not commute.
    fn commutation_counterexample(&mut self, dfa: &Dfa) -> Result<Option<Vec<u16>>, MisereError> {
        let n = dfa.n as u16;
        for s in 0..dfa.reps.len() as u32 {
            for i in 1..=n {
                for j in i + 1..=n {
                    let s1 = dfa.step(dfa.step(s, i), j);
                    let s2 = dfa.step(dfa.step(s, j), i);
                    if s1 == s2 {
                        continue;
                    }
                    let r1 = self.row(&dfa.reps[s1 as usize].clone())?;
                    let r2 = self.row(&dfa.reps[s2 as usize].clone())?;
                    let c = (0..r1.len()).find(|&c| r1[c] != r2[c]).unwrap_or(0);
                    let x = self.columns[c].clone();
                    let mut w1 = dfa.words[s as usize].clone();
                    w1.extend([i, j]);
                    w1.extend(&x);
                    let mut w2 = dfa.words[s as usize].clone();
                    w2.extend([j, i]);
                    w2.extend(&x);
                    let t = self.truth(&w1)?;
                    for w in [w1, w2] {
                        if dfa.accept[dfa.run(0, &w) as usize] != t {
                            return Ok(Some(w));
                        }
                    }
                    for s12 in [s1, s2] {
                        let mut w = dfa.words[s12 as usize].clone();
                        w.extend(&x);
                        if dfa.accept[dfa.run(0, &w) as usize] != self.truth(&w)? {
                            return Ok(Some(w));
                        }
                    }
                    return Err(MisereError::Parse(
                        "internal: commutation failure without counterexample".into(),
                    ));
                }
            }
        }
        Ok(None)
    }

    /// The exact check of a commuting candidate (see [`check`]); a sum the candidate
    /// mispredicts when it fails.
    fn verify(&mut self, m: &Monoid, words: &[Vec<u16>]) -> Result<Option<Vec<u16>>, MisereError> {
        let n = m.phi.len() - 1;
        let base = moved_base(self.search.options(), n);
        match check(m, self.search.options(), &base, self.limits.max_verify)? {
            Some(w) => self.local_counterexample(m, words, w).map(Some),
            None => Ok(None),
        }
    }

    /// A sum mispredicted by the candidate: `word` itself or one of its options (one of them
    /// is, when `word` fails the local check).
    fn local_counterexample(
        &mut self,
        m: &Monoid,
        _words: &[Vec<u16>],
        word: Vec<u16>,
    ) -> Result<Vec<u16>, MisereError> {
        let pred =
            |w: &[u16]| m.p[w.iter().fold(0u32, |x, &h| m.mul(x, m.phi[h as usize])) as usize];
        for i in 0..word.len() {
            if word[..i].contains(&word[i]) {
                continue;
            }
            let h = word[i] as usize;
            for l in self.search.options().of(h).to_vec() {
                let mut w: Vec<u16> = word[..i].to_vec();
                w.extend(&word[i + 1..]);
                w.extend(&l);
                if pred(&w) != self.truth(&w)? {
                    return Ok(w);
                }
            }
        }
        Ok(word)
    }

    fn add_heap(&mut self, n: usize) -> Result<Monoid, MisereError> {
        let col = vec![n as u16];
        if !self.columns.contains(&col) {
            self.columns.push(col);
        }
        // Answers cached for the previous heap came from its oracle; the proven quotient
        // answers those sums again at once, so start from a clean table.
        self.rows.clear();
        if !self.position_search_only && n > 1 {
            let base = KeyPart {
                phi: self.monoid.phi.clone(),
                table: self.monoid.table.clone(),
                order: self.monoid.order,
            };
            let columns = self.columns.clone();
            self.candidate = None;
            let result = self.learn_by_elements(n, base);
            self.element = None;
            self.candidate = None;
            match result {
                Ok(m) => return Ok(m),
                // Limits on the verification (and on the oracle's classes) hold for both
                // methods.
                Err(e @ MisereError::Limit { .. }) => return Err(e),
                // A candidate past the size cap (which a wrong oracle may cause), too many
                // recalibrations, or any other failure of the fast method: ask the position
                // search instead.
                Err(_) => {
                    self.fallbacks.push(n as u64);
                    self.columns = columns;
                    self.rows.clear();
                }
            }
        }
        self.learn(n)
    }

    /// The quotient of heaps `1..=n` by the exact extension step (`extension.rs`), within the
    /// search budget (states built over the whole recursion) and the size cap (every quotient
    /// of the recursion).
    fn exact_extension(&mut self, n: usize) -> Result<Monoid, MisereError> {
        let opts = self.search.options();
        let mut budget = extension::Budget::new(
            self.limits.max_search,
            self.limits.max_verify,
            self.limits.max_order,
        );
        let result = extension::exact(opts, &moved_base(opts, n), &self.monoid, n, &mut budget, 0);
        self.exact_steps.extend(
            budget
                .exact_steps
                .iter()
                .map(|&(h, d)| (n as u64, h as u64, d)),
        );
        let m = result.map_err(|e| match e {
            MisereError::NotConverged { cap, .. } => MisereError::NotConverged {
                heap: n as u64,
                cap,
            },
            e => e,
        })?;
        self.exact_heaps.push(n as u64);
        Ok(m)
    }

    /// [`QuotientEngine::learn`] with the element-keyed oracles, in three stages.
    ///
    /// 1. The extension step on representatives ([`RepOracle`]): exact unless an element of
    ///    the smaller heaps' quotient splits once heap n is present.
    /// 2. If that oracle breaks the misère rule at some sum, at most [`LOOKAHEAD_ROUNDS`]
    ///    rounds of the look-ahead of the latest candidate C: a sum is answered by the misère
    ///    rule at its options, each option by the answer [`settle`] gives its element of C
    ///    (the rule applied at the element's least representative, all the way down). Each
    ///    look-ahead round that breaks the rule is followed by the extension step keyed also
    ///    by the new candidate restricted to the smaller heaps (the recalibration of Plambeck
    ///    and Siegel, the candidate standing in for the unknown quotient). That settles the
    ///    splits of 0.07 at heap 10 and Kayles at heap 9 (one round each); at 0.07's heap 25
    ///    the candidates grow each round (48, 64, 80, 96, 112, 200, … 992 by round 12, past
    ///    2000 by round 15 with the look-ahead alone) instead of converging, so the rounds are
    ///    capped.
    /// 3. Then the older split-key search ([`ElementSearch`]): keys found split are answered
    ///    by position (Kayles at heap 9).
    ///
    /// The caller asks the position search when all three fail.
    fn learn_by_elements(&mut self, n: usize, base: KeyPart) -> Result<Monoid, MisereError> {
        let p = self.monoid.p.clone();
        self.element = Some(Oracle::Elements(RepOracle::new(
            self.search.options(),
            n as u16,
            vec![base.clone()],
            &p,
            self.limits.max_search,
        )?));
        let mut rounds = 0usize;
        loop {
            self.inconsistent_at = None;
            let result = self.learn(n);
            let inconsistent = self.inconsistent_at.take();
            if result.is_ok() {
                return result;
            }
            let past_cap = matches!(result, Err(MisereError::NotConverged { .. }));
            if rounds == 0 && (inconsistent.is_some() || past_cap) {
                // An element of the smaller heaps' quotient split (the oracle broke the rule,
                // or its candidates grew past the cap): compute the split exactly (see
                // `extension.rs`). The older stages below remain for what it cannot finish
                // within its budget.
                self.splits += 1;
                match self.exact_extension(n) {
                    Ok(m) => return Ok(m),
                    Err(e @ MisereError::NotConverged { .. }) => return Err(e),
                    Err(_) => {}
                }
            }
            let Some(w) = inconsistent else {
                return result;
            };
            self.rows.clear();
            let candidate = self.candidate.take();
            match (&mut self.element, candidate) {
                (Some(Oracle::Elements(_)), Some(c)) if rounds < LOOKAHEAD_ROUNDS => {
                    rounds += 1;
                    self.lookahead_rounds += 1;
                    let v = settle(&c, &self.monoid, self.search.options(), n)?;
                    self.element = Some(Oracle::LookAhead(c, v));
                }
                (Some(Oracle::LookAhead(..)), Some(c)) if rounds < LOOKAHEAD_ROUNDS => {
                    // The look-ahead split elements: key the extension step also by the new
                    // candidate restricted to the smaller heaps (the recalibration).
                    let part = KeyPart {
                        phi: c.phi.clone(),
                        table: c.table.clone(),
                        order: c.order,
                    };
                    self.element = Some(Oracle::Elements(RepOracle::new(
                        self.search.options(),
                        n as u16,
                        vec![base.clone(), part],
                        &p,
                        self.limits.max_search,
                    )?));
                }
                (Some(Oracle::SplitKeys(e)), _) => {
                    // An element of the smaller heaps' quotient split by heap n: the oracle's
                    // answer at sum `w` came from another sum with the same key. Remember sums
                    // with that key by position and learn again.
                    if !e.mark_split(&w) {
                        return result;
                    }
                }
                _ => {
                    rounds = LOOKAHEAD_ROUNDS;
                    self.element = Some(Oracle::SplitKeys(ElementSearch::new(
                        n as u16,
                        vec![base.clone()],
                        &p,
                        self.limits.max_search,
                    )));
                }
            }
        }
    }

    /// Learns, checks and refines candidates for heaps `1..=n` until one passes the exact
    /// verification.
    fn learn(&mut self, n: usize) -> Result<Monoid, MisereError> {
        loop {
            let dfa = self.build(n)?;
            if let Some(w) = self.commutation_counterexample(&dfa)? {
                self.refine(&dfa, &w)?;
                continue;
            }
            let (m, words) = minimise(&dfa);
            if self.element.is_some() {
                self.candidate = Some(m.clone());
            }
            if let Some(w) = self.verify(&m, &words)? {
                self.refine(&dfa, &w)?;
                continue;
            }
            return Ok(m);
        }
    }

    /// The quotient covering heaps `0..=upto()` (and, with a solution, every heap: its
    /// [`Quotient::outcome`] and [`Quotient::winning_moves`] take heaps of any size).
    pub fn quotient(&self) -> Quotient {
        let opts = self.search.options().clone();
        let opts = if opts.bound() == self.n {
            opts
        } else {
            HeapOptions::from_rule(&opts.rule_text, &self.rule, self.n).unwrap_or(opts)
        };
        let mut m = self.monoid.clone();
        if let Some(s) = &self.solution {
            m.phi = solution::extend_phi(&m.phi, s.preperiod, s.period, self.upto());
        }
        describe(
            &m,
            opts,
            self.rule.clone(),
            self.upto(),
            self.changes_at,
            self.solution,
        )
    }

    /// The engine's state as text: the rule, the bound, the proven quotient (table, P, Φ) and
    /// the test sums learnt, so that [`QuotientEngine::load_text`] resumes where it stopped.
    pub fn save_text(&self) -> String {
        let m = &self.monoid;
        let mut s = String::new();
        let ids = |v: &mut String, it: &mut dyn Iterator<Item = u32>| {
            let parts: Vec<String> = it.map(|x| x.to_string()).collect();
            v.push_str(&parts.join(" "));
            v.push('\n');
        };
        s.push_str("grundy-misere-quotient 1\n");
        let _ = writeln!(s, "rule {}", self.search.options().rule_text);
        let _ = writeln!(s, "upto {}", self.n);
        let _ = writeln!(s, "changes_at {}", self.changes_at);
        let _ = writeln!(s, "order {}", m.order);
        s.push_str("p ");
        ids(
            &mut s,
            &mut (0..m.order as u32).filter(|&x| m.p[x as usize]),
        );
        s.push_str("phi ");
        ids(&mut s, &mut m.phi.iter().copied());
        for x in 0..m.order {
            s.push_str("row ");
            ids(
                &mut s,
                &mut m.table[x * m.order..(x + 1) * m.order].iter().copied(),
            );
        }
        // A column holding a heap past the last heap completed was added for the heap that
        // failed: it names a heap the saved quotient does not cover.
        for c in self
            .columns
            .iter()
            .filter(|c| c.iter().all(|&h| h as u64 <= self.n))
        {
            s.push_str("column ");
            ids(&mut s, &mut c.iter().map(|&h| h as u32));
        }
        if let Some(sol) = &self.solution {
            let _ = writeln!(s, "solution {} {}", sol.preperiod, sol.period);
        }
        s.push_str("end\n");
        s
    }

    /// Reloads a computation saved by [`QuotientEngine::save_text`].
    pub fn load_text(text: &str, limits: Limits) -> Result<Self, MisereError> {
        let bad = |m: &str| MisereError::Parse(format!("saved quotient: {m}"));
        let mut lines = text.lines();
        if lines.next().map(str::trim) != Some("grundy-misere-quotient 1") {
            return Err(bad("missing header `grundy-misere-quotient 1`"));
        }
        let mut rule = None;
        let (mut upto, mut changes, mut order) = (None, 0u64, None);
        let mut p = Vec::new();
        let mut phi = Vec::new();
        let mut table = Vec::new();
        let mut columns = Vec::new();
        let mut claimed = None;
        let mut ended = false;
        let nums = |rest: &str| -> Result<Vec<u64>, MisereError> {
            rest.split_whitespace()
                .map(|t| {
                    t.parse::<u64>()
                        .map_err(|_| bad(&format!("bad number {}", grundy_core::text::quote(t))))
                })
                .collect()
        };
        for line in lines.by_ref() {
            let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
            match key {
                "rule" => rule = Some(rest.to_string()),
                "upto" => upto = nums(rest)?.first().copied(),
                "changes_at" => changes = nums(rest)?.first().copied().unwrap_or(0),
                "order" => order = nums(rest)?.first().map(|&x| x as usize),
                "p" => p = nums(rest)?,
                "phi" => phi = nums(rest)?,
                "row" => table.extend(nums(rest)?),
                "solution" => {
                    let v = nums(rest)?;
                    if v.len() != 2 {
                        return Err(bad("a solution line needs a preperiod and a period"));
                    }
                    claimed = Some((v[0], v[1]));
                }
                "column" => columns.push(
                    nums(rest)?
                        .into_iter()
                        .map(|h| u16::try_from(h).map_err(|_| bad("heap too large")))
                        .collect::<Result<Vec<u16>, _>>()?,
                ),
                "end" => {
                    ended = true;
                    break;
                }
                "" => {}
                other => {
                    return Err(bad(&format!(
                        "unknown line {}",
                        grundy_core::text::quote(other)
                    )))
                }
            }
        }
        if !ended {
            return Err(bad("truncated (no `end` line)"));
        }
        let rule = rule.ok_or_else(|| bad("no rule"))?;
        let upto = upto.ok_or_else(|| bad("no upto"))?;
        let order = order.ok_or_else(|| bad("no order"))?;
        if order == 0 || order > 65_000 {
            return Err(bad("order out of range"));
        }
        if table.len() != order * order || phi.len() as u64 != upto + 1 {
            return Err(bad("table or phi of the wrong size"));
        }
        if table
            .iter()
            .chain(&p)
            .chain(&phi)
            .any(|&x| x as usize >= order)
        {
            return Err(bad("element id out of range"));
        }
        if columns.first().is_none_or(|c| !c.is_empty()) {
            return Err(bad("the first column must be the empty sum"));
        }
        if columns.iter().flatten().any(|&h| h as u64 > upto) {
            return Err(bad("a column has a heap beyond the bound"));
        }
        let mut in_p = vec![false; order];
        for &x in &p {
            in_p[x as usize] = true;
        }
        let monoid = Monoid {
            order,
            table: table.into_iter().map(|x| x as u32).collect(),
            p: in_p,
            phi: phi.into_iter().map(|x| x as u32).collect(),
        };
        let mut e = QuotientEngine::new(&rule, limits)?;
        e.search.widen(HeapOptions::new(&rule, upto)?);
        e.n = upto;
        e.columns = columns;
        e.changes_at = changes;
        let pres = presentation_of(&monoid);
        e.last_presentation = (
            monoid.order,
            monoid.p.iter().filter(|&&b| b).count(),
            pres.text,
        );
        if upto > 0 {
            e.search.shortcut = Some(Shortcut {
                below: upto as u16 + 1,
                phi: monoid.phi.clone(),
                table: monoid.table.clone(),
                order,
                p: monoid.p.clone(),
            });
        }
        e.monoid = monoid;
        if let Some(guess) = claimed {
            // Proven again here: a file's word is not a proof.
            let rule_text = e.search.options().rule_text.clone();
            match solution::prove(&e.monoid, &e.rule, &rule_text, guess, e.limits.max_verify)? {
                Some(s) if (s.preperiod, s.period) == guess => e.solution = Some(s),
                _ => return Err(bad("its solution (the period of Φ) does not hold")),
            }
        }
        Ok(e)
    }

    /// Reloads a computation saved by [`QuotientEngine::save_text`] from a file nobody vouches
    /// for (a cache): besides what [`QuotientEngine::load_text`] checks, the table must be a
    /// minimal commutative monoid whose elements are all images of sums, the exact check must
    /// hold for it on heaps `0..=upto` (or, with a solution, on every heap type), and the heap
    /// where the quotient last changed is computed from the table, not read. Whatever the
    /// file holds, a quotient that loads answers every sum correctly.
    pub fn load_verified(text: &str, limits: Limits) -> Result<Self, MisereError> {
        let bad = |m: &str| MisereError::Parse(format!("saved quotient: {m}"));
        let mut e = Self::load_text(text, limits)?;
        solution::validate(&e.monoid).map_err(|m| bad(&m))?;
        if e.solution.is_none() {
            let opts = e.search.options();
            let base = moved_base(opts, e.n as usize);
            if check(&e.monoid, opts, &base, e.limits.max_verify)?.is_some() {
                return Err(bad("its quotient fails the exact check"));
            }
        }
        e.changes_at = solution::changes_at(&e.monoid);
        Ok(e)
    }
}

/// The minimal automaton of a commuting candidate, as a monoid with identity 0, with a word
/// for each element.
#[allow(clippy::needless_range_loop)]
pub(crate) fn minimise(dfa: &Dfa) -> (Monoid, Vec<Vec<u16>>) {
    let ns = dfa.words.len();
    let n = dfa.n;
    let mut class: Vec<u32> = dfa.accept.iter().map(|&a| a as u32).collect();
    let mut count = 0usize;
    loop {
        let mut index: FxHashMap<Vec<u32>, u32> = FxHashMap::default();
        let mut next = vec![0u32; ns];
        for s in 0..ns {
            let mut key = Vec::with_capacity(n + 1);
            key.push(class[s]);
            for h in 1..=n {
                key.push(class[dfa.step(s as u32, h as u16) as usize]);
            }
            let len = index.len() as u32;
            next[s] = *index.entry(key).or_insert(len);
        }
        let c = index.len();
        class = next;
        if c == count {
            break;
        }
        count = c;
    }
    // Renumber: identity first, then by first appearance in breadth-first order.
    let mut renum = vec![u32::MAX; count];
    let mut rep_state = Vec::with_capacity(count);
    for s in 0..ns {
        let c = class[s] as usize;
        if renum[c] == u32::MAX {
            renum[c] = rep_state.len() as u32;
            rep_state.push(s);
        }
    }
    let id = |s: u32| renum[class[s as usize] as usize];
    let mut table = vec![0u32; count * count];
    for x in 0..count {
        for y in 0..count {
            let s = dfa.run(rep_state[x] as u32, &dfa.words[rep_state[y]]);
            table[x * count + y] = id(s);
        }
    }
    let p = (0..count).map(|x| dfa.accept[rep_state[x]]).collect();
    let mut phi = vec![0u32];
    for h in 1..=n {
        phi.push(id(dfa.step(0, h as u16)));
    }
    let words = rep_state.iter().map(|&s| dfa.words[s].clone()).collect();
    (
        Monoid {
            order: count,
            table,
            p,
            phi,
        },
        words,
    )
}

/// Generators, normal forms and relations of a monoid.
struct Presentation {
    text: String,
    generators: Vec<(u32, u64)>,
    /// Normal form (exponents over the generators) of each element.
    normal: Vec<Vec<u32>>,
    relations: Vec<(Vec<u32>, Vec<u32>)>,
}

fn letter(i: usize) -> String {
    if i < 26 {
        ((b'a' + i as u8) as char).to_string()
    } else {
        format!("g{}", i + 1)
    }
}

fn word_text(e: &[u32]) -> String {
    let mut s = String::new();
    for (i, &k) in e.iter().enumerate() {
        if k == 1 {
            s.push_str(&letter(i));
        } else if k > 1 {
            let _ = write!(s, "{}^{}", letter(i), k);
        }
    }
    if s.is_empty() {
        "1".into()
    } else {
        s
    }
}

/// The letters of a word, sorted: the string MisereSolver's lexicographic order compares.
fn letters(e: &[u32]) -> Vec<usize> {
    e.iter()
        .enumerate()
        .flat_map(|(i, &k)| std::iter::repeat_n(i, k as usize))
        .collect()
}

/// What says that a quotient changed: |Q|, |P| and the presentation.
pub(crate) fn presentation_key(m: &Monoid) -> (usize, usize, String) {
    (
        m.order,
        m.p.iter().filter(|&&b| b).count(),
        presentation_of(m).text,
    )
}

fn presentation_of(m: &Monoid) -> Presentation {
    // Generators: Φ(h) not in the submonoid generated by the earlier ones.
    let mut generators: Vec<(u32, u64)> = Vec::new();
    let mut sub = vec![false; m.order];
    sub[0] = true;
    for (h, &x) in m.phi.iter().enumerate() {
        if sub[x as usize] {
            continue;
        }
        generators.push((x, h as u64));
        // close the submonoid under multiplication by x
        let mut stack: Vec<u32> = (0..m.order as u32).filter(|&y| sub[y as usize]).collect();
        while let Some(y) = stack.pop() {
            let z = m.mul(y, x);
            if !sub[z as usize] {
                sub[z as usize] = true;
                stack.push(z);
            }
            for w in 0..m.order as u32 {
                if sub[w as usize] {
                    let z = m.mul(y, w);
                    if !sub[z as usize] {
                        sub[z as usize] = true;
                        stack.push(z);
                    }
                }
            }
        }
    }
    let g = generators.len();
    let mut normal: Vec<Option<Vec<u32>>> = vec![None; m.order];
    normal[0] = Some(vec![0; g]);
    let mut is_normal: FxHashMap<Vec<u32>, u32> = FxHashMap::default();
    is_normal.insert(vec![0; g], 0);
    let mut frontier: Vec<Vec<u32>> = vec![vec![0; g]];
    let mut relations = Vec::new();
    while !frontier.is_empty() {
        let mut cands: Vec<Vec<u32>> = Vec::new();
        for w in &frontier {
            for i in 0..g {
                let mut c = w.clone();
                c[i] += 1;
                cands.push(c);
            }
        }
        // same degree: more of an earlier letter sorts first
        cands.sort_by(|a, b| b.cmp(a));
        cands.dedup();
        let mut next = Vec::new();
        for c in cands {
            let mut ok = true;
            let mut elem = 0u32;
            for i in 0..g {
                if c[i] > 0 {
                    let mut d = c.clone();
                    d[i] -= 1;
                    match is_normal.get(&d) {
                        Some(&x) => elem = m.mul(x, generators[i].0),
                        None => {
                            ok = false;
                            break;
                        }
                    }
                }
            }
            if !ok {
                continue;
            }
            match &normal[elem as usize] {
                Some(nf) => relations.push((c, nf.clone())),
                None => {
                    normal[elem as usize] = Some(c.clone());
                    is_normal.insert(c.clone(), elem);
                    next.push(c);
                }
            }
        }
        frontier = next;
    }
    relations.sort_by_key(|a| letters(&a.0));
    let text = relations
        .iter()
        .map(|(l, r)| format!("{} = {}", word_text(l), word_text(r)))
        .collect::<Vec<_>>()
        .join(", ");
    Presentation {
        text,
        generators,
        normal: normal.into_iter().map(|x| x.unwrap_or_default()).collect(),
        relations,
    }
}

/// Shortlex order on normal forms: degree, then the sorted letters lexicographically.
fn shortlex(a: &[u32], b: &[u32]) -> std::cmp::Ordering {
    let da: u32 = a.iter().sum();
    let db: u32 = b.iter().sum();
    da.cmp(&db).then_with(|| letters(a).cmp(&letters(b)))
}

fn describe(
    m0: &Monoid,
    opts: HeapOptions,
    rule: Rule,
    upto: u64,
    changes_at: u64,
    solution: Option<Solution>,
) -> Quotient {
    let pres0 = presentation_of(m0);
    // Renumber elements by normal form order.
    let mut order: Vec<usize> = (0..m0.order).collect();
    order.sort_by(|&x, &y| shortlex(&pres0.normal[x], &pres0.normal[y]));
    let mut new_id = vec![0u32; m0.order];
    for (i, &x) in order.iter().enumerate() {
        new_id[x] = i as u32;
    }
    let k = m0.order;
    let mut table = vec![0u32; k * k];
    for x in 0..k {
        for y in 0..k {
            table[new_id[x] as usize * k + new_id[y] as usize] =
                new_id[m0.mul(x as u32, y as u32) as usize];
        }
    }
    let mut in_p = vec![false; k];
    for x in 0..k {
        in_p[new_id[x] as usize] = m0.p[x];
    }
    let m = Monoid {
        order: k,
        table,
        p: in_p,
        phi: m0.phi.iter().map(|&x| new_id[x as usize]).collect(),
    };
    let pres = presentation_of(&m);
    let elements: Vec<String> = pres.normal.iter().map(|e| word_text(e)).collect();
    let p_portion: Vec<String> = (0..k)
        .filter(|&x| m.p[x])
        .map(|x| elements[x].clone())
        .collect();
    let phi: Vec<String> = m
        .phi
        .iter()
        .map(|&x| elements[x as usize].clone())
        .collect();
    let name = tame_name(&m);
    Quotient {
        rule: opts.rule_text.clone(),
        upto,
        order: k,
        p_size: p_portion.len(),
        presentation: pres.text.clone(),
        generators: pres
            .generators
            .iter()
            .enumerate()
            .map(|(i, &(_, h))| Generator {
                name: letter(i),
                heap: h,
            })
            .collect(),
        relations: pres
            .relations
            .iter()
            .map(|(l, r)| Relation {
                lhs: word_text(l),
                rhs: word_text(r),
            })
            .collect(),
        elements,
        p_portion,
        phi,
        changes_at,
        period: match solution {
            Some(s) => Some(Period {
                preperiod: s.preperiod,
                period: s.period,
            }),
            None => find_period(&m.phi),
        },
        solution,
        tame: name.is_some(),
        name,
        table: m.table,
        in_p: m.p,
        phi_ids: m.phi,
        opts,
        rule_parsed: rule,
    }
}

/// `T_k` when the monoid is the tame quotient of misère Nim on heaps < 2^k.
fn tame_name(m: &Monoid) -> Option<String> {
    let k = m.order;
    let ps: Vec<u32> = (0..k as u32).filter(|&x| m.p[x as usize]).collect();
    match k {
        1 => return ps.is_empty().then(|| "T_0".into()),
        2 => {
            return (ps == [1] && m.mul(1, 1) == 0).then(|| "T_1".into());
        }
        _ => {}
    }
    let g = k - 2;
    if !g.is_power_of_two() || ps.len() != 2 {
        return None;
    }
    // a: the P-element with a² = 1; e: the other, idempotent and the identity of the rest.
    for (a, e) in [(ps[0], ps[1]), (ps[1], ps[0])] {
        if a == 0 || m.mul(a, a) != 0 || m.mul(e, e) != e || m.mul(a, e) == e {
            continue;
        }
        let group: Vec<u32> = (0..k as u32).filter(|&x| x != 0 && x != a).collect();
        let ok = group.iter().all(|&x| {
            m.mul(x, e) == x
                && m.mul(x, x) == e
                && m.mul(a, x) != 0
                && m.mul(a, x) != a
                && group.iter().all(|&y| {
                    let z = m.mul(x, y);
                    z != 0 && z != a
                })
        });
        if ok {
            return Some(format!("T_{}", g.trailing_zeros()));
        }
    }
    None
}

fn find_period(phi: &[u32]) -> Option<Period> {
    let n = phi.len();
    for p in 1..=n / 3 {
        // the smallest preperiod e with phi[h] == phi[h + p] for all h >= e
        let mut e = n - p;
        while e > 0 && phi[e - 1] == phi[e - 1 + p] {
            e -= 1;
        }
        if n - e >= 3 * p {
            return Some(Period {
                preperiod: e as u64,
                period: p as u64,
            });
        }
    }
    None
}

impl Quotient {
    /// The element of Q a sum of heaps pretends to be: Φ(h1)·Φ(h2)·…
    pub fn element_of(&self, heaps: &[u64]) -> Result<usize, MisereError> {
        let mut x = 0u32;
        for &h in heaps {
            x = self.mul(x, self.phi_of(h)?);
        }
        Ok(x as usize)
    }

    /// Φ(h) as an element id: from the table up to [`Quotient::upto`], past it from the
    /// proven period when there is a [`Solution`].
    fn phi_of(&self, h: u64) -> Result<u32, MisereError> {
        let h = match &self.solution {
            Some(s) if h > self.upto => s.phi_heap(h),
            _ => h,
        };
        self.phi_ids
            .get(h as usize)
            .copied()
            .filter(|_| h <= self.upto)
            .ok_or(MisereError::HeapBeyondBound {
                heap: h,
                bound: self.upto,
            })
    }

    /// True when heap `h` is covered: at most [`Quotient::upto`], or any heap once Φ is
    /// proven periodic.
    pub fn covers(&self, h: u64) -> bool {
        h <= self.upto || self.solution.is_some()
    }

    /// The element Φ(h) of a single heap (an id indexing [`Quotient::elements`]).
    pub fn heap_element(&self, h: u64) -> Result<usize, MisereError> {
        self.phi_of(h).map(|x| x as usize)
    }

    /// A heap whose options have the same images as heap `h`'s (and the same Φ): `h` itself,
    /// or with a [`Solution`] and h past [`Solution::types_from`] a heap below
    /// [`Solution::checked_upto`] (see [`Solution::type_heap`]). Whether heap h has a move to
    /// some element is answered by that heap's moves, however large h is.
    pub fn type_heap(&self, h: u64) -> u64 {
        self.solution.map_or(h, |s| s.type_heap(h))
    }

    /// Calls `f(leaves)` for every move from heap `h` (leaves: the non-empty heaps left,
    /// non-decreasing): from the table up to the heaps learnt, past them from the rule.
    pub fn for_each_option(&self, h: u64, mut f: impl FnMut(&[u64])) {
        if h <= self.opts.bound() {
            let mut buf: Vec<u64> = Vec::with_capacity(4);
            for l in self.opts.of(h as usize) {
                buf.clear();
                buf.extend(l.iter().map(|&x| x as u64));
                f(&buf);
            }
            return;
        }
        let mut buf: Vec<u64> = Vec::with_capacity(4);
        grundy_heap::sum::for_each_move(&self.rule_parsed, h, &[], |_, left| {
            buf.clear();
            buf.extend(left.iter().copied().filter(|&x| x > 0));
            buf.sort_unstable();
            f(&buf);
        });
    }

    fn mul(&self, x: u32, y: u32) -> u32 {
        self.table[x as usize * self.order + y as usize]
    }

    /// The product of two elements (ids index [`Quotient::elements`]); `None` when an id is
    /// not below [`Quotient::order`].
    pub fn multiply(&self, x: usize, y: usize) -> Option<usize> {
        (x < self.order && y < self.order).then(|| self.mul(x as u32, y as u32) as usize)
    }

    /// True when element `x` lies in the P-portion (false for an id out of range).
    pub fn is_p(&self, x: usize) -> bool {
        self.in_p.get(x).copied().unwrap_or(false)
    }

    /// The misère outcome of the sum `heaps` (every heap at most [`Quotient::upto`], or any
    /// heap with a [`Solution`]): a product in Q and a look-up, linear in the number of heaps.
    pub fn outcome(&self, heaps: &[u64]) -> Result<Outcome, MisereError> {
        let x = self.element_of(heaps)?;
        Ok(if self.in_p[x] { Outcome::P } else { Outcome::N })
    }

    /// Every misère winning move of the sum `heaps`, in heap order (empty when it is a
    /// P-position), each built by [`grundy_heap::sum::heap_move`] (outcome `P`, no value:
    /// misère values do not add). Linear in the number of heaps times the options of one heap.
    pub fn winning_moves(&self, heaps: &[u64]) -> Result<Vec<Move>, MisereError> {
        let k = heaps.len();
        let mut prefix = vec![0u32; k + 1];
        for i in 0..k {
            prefix[i + 1] = self.mul(prefix[i], self.phi_of(heaps[i])?);
        }
        let mut suffix = vec![0u32; k + 1];
        for i in (0..k).rev() {
            suffix[i] = self.mul(suffix[i + 1], self.phi_of(heaps[i])?);
        }
        let mut moves = Vec::new();
        let mut wins: Vec<Vec<u64>> = Vec::new();
        for i in 0..k {
            let rest = self.mul(prefix[i], suffix[i + 1]);
            wins.clear();
            let mut bad = None;
            self.for_each_option(heaps[i], |l| {
                let mut x = rest;
                for &h in l {
                    match self.phi_of(h) {
                        Ok(y) => x = self.mul(x, y),
                        Err(e) => bad = Some(e),
                    }
                }
                if self.in_p[x as usize] {
                    wins.push(l.to_vec());
                }
            });
            if let Some(e) = bad {
                return Err(e);
            }
            wins.sort();
            wins.dedup();
            for leaves in &wins {
                let removed = heaps[i] - leaves.iter().sum::<u64>();
                moves.push(grundy_heap::sum::heap_move(
                    heaps,
                    i,
                    removed,
                    leaves,
                    Outcome::P,
                    None,
                ));
            }
        }
        Ok(moves)
    }

    /// Idempotents and maximal subgroups.
    pub fn structure(&self) -> Structure {
        let k = self.order;
        let idem: Vec<u32> = (0..k as u32).filter(|&e| self.mul(e, e) == e).collect();
        let subgroups = idem
            .iter()
            .map(|&e| {
                let eq: Vec<u32> = (0..k as u32).filter(|&x| self.mul(x, e) == x).collect();
                let els: Vec<String> = eq
                    .iter()
                    .filter(|&&x| eq.iter().any(|&y| self.mul(x, y) == e))
                    .map(|&x| self.elements[x as usize].clone())
                    .collect();
                Subgroup {
                    idempotent: self.elements[e as usize].clone(),
                    order: els.len(),
                    elements: els,
                }
            })
            .collect();
        Structure {
            idempotents: idem
                .iter()
                .map(|&e| self.elements[e as usize].clone())
                .collect(),
            subgroups,
        }
    }

    /// The multiplication table, `order × order` element ids (row x, column y: x·y).
    pub fn table(&self) -> Vec<Vec<usize>> {
        (0..self.order)
            .map(|x| {
                (0..self.order)
                    .map(|y| self.mul(x as u32, y as u32) as usize)
                    .collect()
            })
            .collect()
    }

    /// A short text for people: |Q|, |P|, the presentation, P, Φ.
    pub fn summary(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "misère quotient of {} up to heap {}",
            self.rule, self.upto
        );
        let _ = write!(s, "|Q| = {}, |P| = {}", self.order, self.p_size);
        if let Some(n) = &self.name {
            let _ = write!(s, " (tame: {n})");
        }
        s.push('\n');
        let gens: Vec<&str> = self.generators.iter().map(|g| g.name.as_str()).collect();
        let _ = writeln!(s, "Q = ⟨{} | {}⟩", gens.join(", "), self.presentation);
        let _ = writeln!(s, "P = {{{}}}", self.p_portion.join(", "));
        let _ = writeln!(s, "Φ = {}", self.phi.join(" "));
        let _ = writeln!(s, "last change at heap {}", self.changes_at);
        s
    }
}

/// The base of misère play: whether a sum has a move (element 1) or not (element 0), with P
/// (here: the sums allowed to be P-positions) = {1}. See [`check`].
pub(crate) fn moved_base(opts: &HeapOptions, n: usize) -> Monoid {
    Monoid {
        order: 2,
        table: vec![0, 1, 1, 1],
        p: vec![false, true],
        phi: (0..=n)
            .map(|h| u32::from(h > 0 && !opts.of(h).is_empty()))
            .collect(),
    }
}

/// The exact check of a commuting candidate `m` over heaps `1..=n` (n + 1 = `m.phi.len()`)
/// for the game whose P-positions are the sums X with β(X) true and no option in P, where
/// β(X) is `base.p` at the image of X in the finite monoid `base` (misère play:
/// [`moved_base`], β = "X has a move"). A sum that fails the check when it fails.
///
/// Heaps with the same Φ, the same base image and the same set of option images Φ(L) are
/// interchangeable, so a sum is a count per heap type. Two conditions:
///
/// 1. no P-element has a move to P: for every element y and type t with y·Φ(t) ∈ P, no
///    option image z of t has y·z ∈ P (every y is the image of some sum);
/// 2. every sum is in P exactly when β holds and no option is in P. Sums are built one type at
///    a time (counts beyond index + period of the type's images repeat); after some types the
///    state is (a, B, b): a the product so far, b its base image and B the set of elements R
///    such that, if the remaining types multiply to R, no heap placed so far has a move into
///    P. A sum fails when, at the end, a ∈ P and β(b) is false, or a ∉ P, β(b) and 1 ∈ B.
///
/// By induction on the game, a candidate that passes gives every sum's outcome.
#[allow(clippy::needless_range_loop)]
pub(crate) fn check(
    m: &Monoid,
    opts: &HeapOptions,
    base: &Monoid,
    max_verify: usize,
) -> Result<Option<Vec<u16>>, MisereError> {
    let n = m.phi.len() - 1;
    let k = m.order;
    let mut type_of: FxHashMap<(u32, u32, Vec<u32>), usize> = FxHashMap::default();
    let mut reps: Vec<u16> = Vec::new();
    let mut images: Vec<Vec<u32>> = Vec::new();
    for h in 1..=n {
        let mut imgs: Vec<u32> = opts
            .of(h)
            .iter()
            .map(|l| l.iter().fold(0u32, |x, &j| m.mul(x, m.phi[j as usize])))
            .collect();
        imgs.sort_unstable();
        imgs.dedup();
        let key = (m.phi[h], base.phi[h], imgs.clone());
        if let std::collections::hash_map::Entry::Vacant(e) = type_of.entry(key) {
            e.insert(reps.len());
            reps.push(h as u16);
            images.push(imgs);
        }
    }
    let nt = reps.len();
    let opt_p = |y: u32, t: usize| images[t].iter().any(|&z| m.p[m.mul(y, z) as usize]);
    // 1. P-positions have no move to P.
    for y in 0..k as u32 {
        for t in 0..nt {
            if m.p[m.mul(y, m.phi[reps[t] as usize]) as usize] && opt_p(y, t) {
                let mut w = word_of(m, y);
                w.push(reps[t]);
                return Ok(Some(w));
            }
        }
    }
    // 2. The rule at every sum.
    let blocks = k.div_ceil(64);
    type State = (u32, Vec<u64>, u32);
    let full: Vec<u64> = (0..blocks)
        .map(|b| {
            if (b + 1) * 64 <= k {
                u64::MAX
            } else {
                (1u64 << (k - b * 64)) - 1
            }
        })
        .collect();
    let mut layer: Vec<State> = vec![(0, full, 0)];
    // parents[i][j] = (index in layer i, count of type i) of state j of layer i + 1
    let mut parents: Vec<Vec<(u32, u32)>> = Vec::new();
    let mut total = 0usize;
    for t in 0..nt {
        let g = m.phi[reps[t] as usize];
        let gb = base.phi[reps[t] as usize];
        // powers of (g, gb) until they repeat: counts beyond s + p repeat
        let mut pows: Vec<(u32, u32)> = vec![(0, 0)];
        let (s, p) = loop {
            let (x, y) = *pows.last().unwrap_or(&(0, 0));
            let next = (m.mul(x, g), base.mul(y, gb));
            if let Some(i) = pows.iter().position(|&q| q == next) {
                break (i, pows.len() - i);
            }
            pows.push(next);
        };
        let top = s.max(1) + p;
        let pw = |c: usize| -> (u32, u32) {
            if c < pows.len() {
                pows[c]
            } else {
                pows[s + (c - s) % p]
            }
        };
        let mut index: FxHashMap<State, u32> = FxHashMap::default();
        let mut next_layer: Vec<State> = Vec::new();
        let mut par: Vec<(u32, u32)> = Vec::new();
        for (li, (a, b, bb)) in layer.iter().enumerate() {
            for c in 0..=top {
                let st: State = if c == 0 {
                    (*a, b.clone(), *bb)
                } else {
                    let (gc, gbc) = pw(c);
                    let before = m.mul(*a, pw(c - 1).0);
                    let mut nb = vec![0u64; blocks];
                    for r in 0..k as u32 {
                        let rr = m.mul(r, gc) as usize;
                        if b[rr / 64] >> (rr % 64) & 1 == 1 && !opt_p(m.mul(before, r), t) {
                            nb[r as usize / 64] |= 1 << (r % 64);
                        }
                    }
                    (m.mul(*a, gc), nb, base.mul(*bb, gbc))
                };
                if !index.contains_key(&st) {
                    total += 1;
                    if total >= max_verify {
                        return Err(MisereError::Limit {
                            what: "quotient verification states",
                            limit: max_verify,
                        });
                    }
                    index.insert(st.clone(), next_layer.len() as u32);
                    next_layer.push(st);
                    par.push((li as u32, c as u32));
                }
            }
        }
        parents.push(par);
        layer = next_layer;
    }
    for (j, (a, b, bb)) in layer.iter().enumerate() {
        let beta = base.p[*bb as usize];
        let fail = if m.p[*a as usize] {
            !beta
        } else {
            beta && b[0] & 1 == 1
        };
        if fail {
            let mut word = Vec::new();
            let mut idx = j;
            for t in (0..nt).rev() {
                let (li, c) = parents[t][idx];
                word.extend(std::iter::repeat_n(reps[t], c as usize));
                idx = li as usize;
            }
            return Ok(Some(word));
        }
    }
    Ok(None)
}

/// A sum whose image in `m` is `y` (breadth first over the heaps, least sums first).
fn word_of(m: &Monoid, y: u32) -> Vec<u16> {
    let mut word: Vec<Option<Vec<u16>>> = vec![None; m.order];
    word[0] = Some(Vec::new());
    let mut queue = std::collections::VecDeque::from([0u32]);
    while let Some(x) = queue.pop_front() {
        if x == y {
            break;
        }
        for h in 1..m.phi.len() {
            let z = m.mul(x, m.phi[h]);
            if word[z as usize].is_none() {
                let mut w = word[x as usize].clone().unwrap_or_default();
                w.push(h as u16);
                word[z as usize] = Some(w);
                queue.push_back(z);
            }
        }
    }
    word[y as usize].clone().unwrap_or_default()
}
