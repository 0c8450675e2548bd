//! Periodicity of a Grundy sequence: the smallest period p, the preperiod e (the first index
//! from which G(n + p) = G(n) + s for every n), the saltus s, and how sure we are.
//!
//! **Proven** only where a theorem covers it: finite take-and-break codes with no `!`, `?` or
//! `=` constraint on splits (this includes finite subtraction sets) and saltus 0. The check
//! is the Guy–Smith theorem (Winning Ways ch. 4) generalised to moves leaving up to K heaps:
//!
//! > if G(n + p) = G(n) for all e <= n < B, with B = max(K·e + (K−1)·p + t, t + 1),
//! > t = the most tokens a move removes, then G(n + p) = G(n) for all n >= e.
//!
//! Proof sketch (induction on m >= B): a move from m + p removes i <= t tokens and leaves at
//! most K heaps summing to m + p − i, so the largest, L, is at least (m + p − t)/K >= e + p;
//! replacing L by L − p (same value, by induction, as e <= L − p < m) gives a move from m with
//! the same XOR. Conversely the largest heap left by a move from m is >= (m − t)/K >= e, and
//! growing it by p gives a move from m + p. Moves to no heaps need m = i <= t < B. For K = 2
//! this is the classic bound 2e + p + t; for K = 1 (subtraction sets) it is the window
//! argument (t repeated values after e). Constraints (`!`, `?`, `=`) break the step "replace
//! L by L − p" (L − p may equal another heap), so such rules, infinite codes and infinite sets
//! only get **observed** periods. A saltus s ≠ 0 (arithmetic periodicity, as in all-but
//! games and Nim) is reported as observed too.
//!
//! **Observed** means the relation G(n + p) = G(n) + s holds over the whole computed stretch
//! from e to the last value N, *and* that stretch is long enough to be evidence rather than
//! coincidence (see [`observed_enough`]):
//!
//! * it covers at least 4 whole periods (N + 1 − e >= 4p: the relation was checked at
//!   3p or more heaps) and at least 16 values, and
//! * it is a real share of the data: at least a quarter of the values computed
//!   (N + 1 − e >= (N + 1)/4).
//!
//! Any sequence ends with *some* short run that repeats (the last 17 of 200001 values of
//! 4.0772 happen to repeat with period 5); the share rule rejects such tails, and a real
//! period shows up once the range computed is about 4/3 of e + 4p. Nothing is reported
//! (`None`) when no period passes. Proven periods do not need this rule: the Guy–Smith
//! bound is their evidence.

use crate::code::{Constraint, TakeBreak};
use crate::engine;
use crate::reference::EngineError;
use crate::rule::Rule;

/// How sure a reported period is. Serializes as `"proven"` or `"observed"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// A theorem guarantees it for every heap.
    Proven,
    /// It holds over the computed range only.
    Observed,
}

impl Status {
    /// `"proven"` or `"observed"` (the JSON spelling).
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Proven => "proven",
            Status::Observed => "observed",
        }
    }
}

/// A period found in a sequence.
///
/// Serializes as `{"period", "preperiod", "saltus", "status"}` (status `"proven"` or
/// `"observed"`; period and preperiod through [`crate::json_int`], numbers in practice).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Periodicity {
    /// The smallest period p.
    #[serde(serialize_with = "crate::json_int::serialize")]
    pub period: u64,
    /// The preperiod e: G(n + p) = G(n) + saltus for all n >= e, not for n = e − 1.
    #[serde(serialize_with = "crate::json_int::serialize")]
    pub preperiod: u64,
    /// The saltus s (0 for plain periodicity).
    pub saltus: i64,
    /// Proven by a theorem, or only observed over the computed range.
    pub status: Status,
}

impl Periodicity {
    /// G(h) for any heap, from the computed `values` (which must reach e + p) when `h` lies beyond.
    pub fn value_at(&self, values: &[u32], h: u64) -> Option<u64> {
        if let Some(&v) = usize::try_from(h).ok().and_then(|i| values.get(i)) {
            return Some(v as u64);
        }
        if h < self.preperiod {
            return None;
        }
        let k = (h - self.preperiod) / self.period;
        let base = self.preperiod + (h - self.preperiod) % self.period;
        let v = *values.get(base as usize)? as i128 + k as i128 * self.saltus as i128;
        u64::try_from(v).ok()
    }
}

/// The data a proof needs: K (most heaps a move leaves) and t (most tokens removed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProofBound {
    /// K: the most heaps one move leaves.
    pub max_heaps: u64,
    /// t: the most tokens one move removes.
    pub max_removal: u64,
}

impl ProofBound {
    /// The Guy–Smith bound B(e, p): the relation must be checked for e <= n < B.
    pub fn bound(&self, e: u64, p: u64) -> u64 {
        let k = self.max_heaps;
        let t = self.max_removal;
        let linear = k
            .saturating_mul(e)
            .saturating_add(k.saturating_sub(1).saturating_mul(p))
            .saturating_add(t);
        linear.max(t + 1)
    }

    /// The last index the proof reads: B(e, p) − 1 + p.
    pub fn needs_upto(&self, e: u64, p: u64) -> u64 {
        self.bound(e, p).saturating_add(p).saturating_sub(1)
    }
}

/// The proof data of a code, when the theorem covers it.
pub fn code_bound(code: &TakeBreak) -> Option<ProofBound> {
    let t = code.max_removal()?;
    if code
        .digits
        .iter()
        .any(|d| d.mask >= 4 && d.constraint != Constraint::Any)
    {
        return None;
    }
    // K: the highest bit set in any digit (bit k = leave k heaps).
    let k = code
        .digits
        .iter()
        .map(|d| {
            if d.mask == 0 {
                0
            } else {
                7 - d.mask.leading_zeros() as u64
            }
        })
        .max()
        .unwrap_or(0);
    Some(ProofBound {
        max_heaps: k,
        max_removal: t,
    })
}

/// The proof data of a rule's base (see [`Rule::base_and_shift`]).
pub fn rule_bound(rule: &Rule) -> Option<ProofBound> {
    let (base, _) = rule.base_and_shift();
    match base {
        Rule::Code(c) => code_bound(c),
        Rule::Subtraction(crate::rule::SubtractionSet::Finite(_)) => {
            code_bound(&base.take_break()?)
        }
        _ => None,
    }
}

/// The smallest (period, preperiod, saltus) of `values`, proven when `bound` is given and its
/// check fits in the data, else observed when [`observed_enough`] accepts it; `None` when
/// nothing convincing is found (see the module documentation). The values may be stored in any
/// unsigned type (the record engine searches its u8 or u16 storage without a u32 copy).
///
/// ```
/// use grundy_heap::periodicity::{find, Status};
/// let v: Vec<u32> = (0..60).map(|n| [0, 1, 1, 2][n % 4]).collect();
/// let p = find(&v, None).unwrap();
/// assert_eq!((p.period, p.preperiod, p.status), (4, 0, Status::Observed));
/// // a short repeating tail after irregular values is no evidence
/// let mut w: Vec<u32> = (0..200).map(|n| (n * n % 37) as u32).collect();
/// w.extend([5, 6, 5, 6, 5, 6, 5, 6, 5, 6, 5, 6, 5, 6, 5, 6]);
/// assert_eq!(find(&w, None), None);
/// ```
pub fn find<T: Copy + Into<u32>>(values: &[T], bound: Option<ProofBound>) -> Option<Periodicity> {
    find_by(values.len() as u64, |i| values[i as usize].into(), bound)
}

/// [`find`] over values G(0..len) given by `at` (the record engine's packed values, which are
/// no slice).
pub fn find_by(
    len: u64,
    at: impl Fn(u64) -> u32,
    bound: Option<ProofBound>,
) -> Option<Periodicity> {
    if len < 2 {
        return None;
    }
    let last = len - 1;
    let at = |i: u64| i64::from(at(i));
    let mut observed: Option<Periodicity> = None;
    for p in 1..=last / 2 {
        if let Some(o) = observed {
            if p % o.period == 0 {
                continue;
            }
        }
        let s = at(last) - at(last - p);
        let mut e = last - p + 1;
        while e > 0 && at(e - 1 + p) - at(e - 1) == s {
            e -= 1;
        }
        if let Some(b) = bound {
            if s == 0 && b.needs_upto(e, p) <= last {
                return Some(refine(len, &at, e, p));
            }
        }
        if observed.is_none() && observed_enough(len, e, p) {
            observed = Some(Periodicity {
                period: p,
                preperiod: e,
                saltus: s,
                status: Status::Observed,
            });
            if bound.is_none() {
                return observed;
            }
        }
    }
    observed
}

/// Whether a relation G(n + p) = G(n) + s holding for every n from `e` to the end of `len`
/// computed values is enough evidence to report period p as observed: the stretch e..len
/// holds at least 4 periods and 16 values, and at least a quarter of the values.
pub fn observed_enough(len: u64, e: u64, p: u64) -> bool {
    let stretch = len.saturating_sub(e);
    stretch >= p.saturating_mul(4).max(16) && stretch.saturating_mul(4) >= len
}

/// Given a proven period p from e, the smallest period (a divisor of p) and its preperiod
/// (values G(0..len) given by `at`).
fn refine(len: u64, at: &impl Fn(u64) -> i64, e: u64, p: u64) -> Periodicity {
    let last = len - 1;
    let mut best = p;
    for d in (1..p).filter(|d| p.is_multiple_of(*d)) {
        if e + p - 1 + d > last {
            break;
        }
        if (e..e + p).all(|n| at(n + d) == at(n)) {
            best = d;
            break;
        }
    }
    let mut e0 = e;
    while e0 > 0 && at(e0 - 1 + best) == at(e0 - 1) {
        e0 -= 1;
    }
    Periodicity {
        period: best,
        preperiod: e0,
        saltus: 0,
        status: Status::Proven,
    }
}

/// Periodicity of `rule` from its natural-size values G(0..=n) (as from [`engine::sequence`]).
/// For named games with a shift the base sequence is used, then the preperiod translated.
pub fn analyze(rule: &Rule, values: &[u32]) -> Option<Periodicity> {
    let (base, shift) = rule.base_and_shift();
    let bound = rule_bound(rule);
    if shift == 0 {
        return find(values, bound);
    }
    let mut full = engine::sequence(base, shift - 1).ok()?;
    full.extend_from_slice(values);
    let mut r = find(&full, bound)?;
    r.preperiod = r.preperiod.saturating_sub(shift);
    Some(r)
}

/// Computes G(0..=n) for n = `start`, 2·`start`, … up to `limit` until a period is proven
/// (or, for rules no theorem covers, once). Returns the values and the last analysis.
///
/// `progress(heaps_done)` is called as in [`engine::sequence_with_progress`] (the count
/// restarts with each doubling); when it returns `false` the search stops with
/// [`EngineError::Stopped`].
pub fn until_proven(
    rule: &Rule,
    start: u64,
    limit: u64,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Result<(Vec<u32>, Option<Periodicity>), EngineError> {
    let mut n = start.min(limit).max(1);
    loop {
        let values = engine::sequence_with_progress(rule, n, progress)?;
        let r = analyze(rule, &values);
        let done = r.is_some_and(|p| p.status == Status::Proven)
            || rule_bound(rule).is_none()
            || n >= limit;
        if done {
            return Ok((values, r));
        }
        n = n.saturating_mul(2).min(limit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule::parse;

    #[test]
    fn kayles_and_dawson() {
        let k = parse("kayles").unwrap();
        let (v, r) = until_proven(&k, 100, 10_000, &mut |_| true).unwrap();
        let r = r.unwrap();
        assert_eq!(
            (r.period, r.preperiod, r.saltus, r.status),
            (12, 71, 0, Status::Proven)
        );
        assert!(v.len() >= 168);
        assert_eq!(
            r.value_at(&v, 1_000_000_000_000),
            Some(v[(71 + (1_000_000_000_000u64 - 71) % 12) as usize] as u64)
        );
        let d = parse("0.07").unwrap();
        let r = until_proven(&d, 100, 10_000, &mut |_| true)
            .unwrap()
            .1
            .unwrap();
        assert_eq!((r.period, r.preperiod, r.status), (34, 53, Status::Proven));
    }

    #[test]
    fn bounds() {
        let b = code_bound(&crate::rule::parse_code("0.77").unwrap()).unwrap();
        assert_eq!(
            b,
            ProofBound {
                max_heaps: 2,
                max_removal: 2
            }
        );
        assert_eq!(b.bound(71, 12), 2 * 71 + 12 + 2);
        let h = code_bound(&crate::rule::parse_code("0.3F").unwrap()).unwrap();
        assert_eq!(h.max_heaps, 3);
        assert!(code_bound(&crate::rule::parse_code("4!.0").unwrap()).is_none());
        assert!(code_bound(&crate::rule::parse_code("0.[3]").unwrap()).is_none());
    }

    #[test]
    fn arithmetic_and_observed() {
        let a = parse("allbut:2,3,7").unwrap();
        let v = engine::sequence(&a, 200).unwrap();
        let r = analyze(&a, &v).unwrap();
        assert_eq!(r.status, Status::Observed);
        assert!(r.saltus > 0);
        for n in r.preperiod..=200 - r.period {
            assert_eq!(
                v[(n + r.period) as usize] as i64,
                v[n as usize] as i64 + r.saltus
            );
        }
        let nim = parse("nim").unwrap();
        let r = analyze(&nim, &engine::sequence(&nim, 50).unwrap()).unwrap();
        assert_eq!((r.period, r.preperiod, r.saltus), (1, 0, 1));
        let s = parse("sub:2,3,7").unwrap();
        let r = analyze(&s, &engine::sequence(&s, 40).unwrap()).unwrap();
        assert_eq!((r.period, r.preperiod, r.status), (5, 0, Status::Proven));
    }

    #[test]
    fn a_coincidental_tail_is_no_period() {
        // irregular values, then the last 17 repeat with period 5 (the shape of 4.0772 to
        // 200000): not enough of the range to call it a period
        let mut v: Vec<u32> = (0..400u64)
            .map(|n| ((n * 7919) % 61 + n / 10) as u32)
            .collect();
        v.extend([3, 1, 4, 1, 5, 3, 1, 4, 1, 5, 3, 1, 4, 1, 5, 3, 1]);
        assert_eq!(find(&v, None), None);
        let fake = ProofBound {
            max_heaps: 2,
            max_removal: 4,
        };
        assert_eq!(find(&v, Some(fake)), None);
        // the same tail grown to a quarter of the data is evidence
        let tail: Vec<u32> = (0..140).map(|i| [3, 1, 4, 1, 5][i % 5]).collect();
        v.extend(tail);
        let p = find(&v, None).unwrap();
        assert_eq!((p.period, p.status), (5, Status::Observed));
        // real sequences with the same shape (the old rule, two periods and 12 heaps,
        // reported these): Grundy's game to 110 ends with 16 values of period 3 from 95, and
        // 0.143 to 2223 with 21 values of period 7 from 2203
        let grundy = engine::sequence(&parse("4!.0").unwrap(), 110).unwrap();
        assert_eq!(find(&grundy, None), None);
        let c = crate::rule::parse_code("0.143").unwrap();
        let v = crate::reference::sequence(&c, 2223);
        assert_eq!(find(&v, code_bound(&c)), None);
        assert!(observed_enough(100, 75, 5));
        assert!(!observed_enough(100, 76, 5));
        assert!(!observed_enough(100, 20, 21));
    }

    #[test]
    fn real_periods_are_still_observed() {
        // without a proof bound, Kayles and Dawson's Kayles are observed from a modest range
        let k = engine::sequence(&parse("0.77").unwrap(), 300).unwrap();
        let r = find(&k, None).unwrap();
        assert_eq!(
            (r.period, r.preperiod, r.status),
            (12, 71, Status::Observed)
        );
        let d = engine::sequence(&parse("0.07").unwrap(), 400).unwrap();
        let r = find(&d, None).unwrap();
        assert_eq!(
            (r.period, r.preperiod, r.status),
            (34, 53, Status::Observed)
        );
    }

    #[test]
    fn until_proven_stops_when_asked() {
        // Grundy's game: no period known, so a long quadratic run; stop it early
        let g = parse("4!.0").unwrap();
        let r = until_proven(&g, 1 << 20, 1 << 20, &mut |done| done < 5000);
        assert!(
            matches!(r, Err(EngineError::Stopped(h)) if h >= 5000),
            "{r:?}"
        );
    }

    #[test]
    fn json_shape() {
        let p = Periodicity {
            period: 12,
            preperiod: 71,
            saltus: 0,
            status: Status::Proven,
        };
        assert_eq!(
            serde_json::to_string(&p).unwrap(),
            r#"{"period":12,"preperiod":71,"saltus":0,"status":"proven"}"#
        );
        assert_eq!(
            serde_json::to_string(&Status::Observed).unwrap(),
            r#""observed""#
        );
    }
}
