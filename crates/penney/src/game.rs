//! Game theory on pattern races: best replies, the first player's best pattern, the full pair
//! table and non-transitive cycles, all with exact probabilities from Conway's formula.

use crate::alphabet::Alphabet;
use crate::correlation::weighted_correlation_with;
use crate::error::{PenneyError, Result};
use crate::strings::prefix_function;
use dashu::rational::RBig;

/// Probability that `b` appears before `a`, for two distinct words of the same length (so
/// neither contains the other). Conway's formula without the duration.
pub fn prob_second_wins(alphabet: &Alphabet, a: &[usize], b: &[usize]) -> RBig {
    let pa = prefix_function(a);
    let pb = prefix_function(b);
    let aa = weighted_correlation_with(alphabet, a, a, &pa);
    let ab = weighted_correlation_with(alphabet, a, b, &pb);
    let bb = weighted_correlation_with(alphabet, b, b, &pb);
    let ba = weighted_correlation_with(alphabet, b, a, &pa);
    let for_b = aa - ab;
    let for_a = bb - ba;
    &for_b / (&for_b + for_a)
}

/// Which candidates a best-reply search looked at (serialized as its [`name`](Self::name)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ReplySearch {
    /// Every other pattern of the same length.
    Exhaustive,
    /// Only the family `x·A[0..m−1]` (every symbol `x` followed by all but the last symbol of
    /// `A`), which contains the optimal reply for the fair coin (Guibas–Odlyzko) and is the
    /// standard heuristic otherwise.
    Family,
}

impl ReplySearch {
    /// `"exhaustive"` or `"family"`.
    pub fn name(self) -> &'static str {
        match self {
            ReplySearch::Exhaustive => "exhaustive",
            ReplySearch::Family => "family",
        }
    }
}

/// The best reply found to a pattern.
#[derive(Clone, Debug, PartialEq)]
pub struct BestReply {
    /// A best reply (the first in symbol order among the ties).
    pub reply: Vec<usize>,
    /// Its probability of appearing before the given pattern.
    pub prob: RBig,
    /// Every candidate reaching that probability, in symbol order.
    pub ties: Vec<Vec<usize>>,
    /// What was searched.
    pub search: ReplySearch,
    /// How many candidates were evaluated.
    pub candidates: usize,
}

/// The reply to `target` maximising the second player's chance among patterns of the same
/// length: exhaustive when there are at most `exhaustive_limit` such patterns, otherwise over
/// the family `x·target[0..m−1]`.
pub fn best_reply(
    alphabet: &Alphabet,
    target: &[usize],
    exhaustive_limit: usize,
) -> Result<BestReply> {
    let m = target.len();
    if m == 0 {
        return Err(PenneyError::EmptyPattern);
    }
    let (cands, search) = match alphabet.all_words(m, exhaustive_limit) {
        Ok(all) => (all, ReplySearch::Exhaustive),
        Err(_) => {
            let fam = (0..alphabet.len())
                .map(|x| {
                    std::iter::once(x)
                        .chain(target[..m - 1].iter().copied())
                        .collect()
                })
                .collect();
            (fam, ReplySearch::Family)
        }
    };
    let mut best: Option<(RBig, Vec<Vec<usize>>)> = None;
    let mut count = 0;
    for b in cands.into_iter().filter(|b| b.as_slice() != target) {
        count += 1;
        let p = prob_second_wins(alphabet, target, &b);
        match &mut best {
            Some((bp, ties)) if *bp == p => ties.push(b),
            Some((bp, _)) if *bp > p => {}
            _ => best = Some((p, vec![b])),
        }
    }
    let (prob, ties) = best.ok_or_else(|| {
        PenneyError::NotApplicable(format!(
            "{} has no other pattern of the same length to reply with",
            crate::error::quote(&alphabet.decode(target))
        ))
    })?;
    Ok(BestReply {
        reply: ties[0].clone(),
        prob,
        ties,
        search,
        candidates: count,
    })
}

/// The first player's best pattern of length `m`: the one whose best reply (exhaustive) is
/// weakest, with the chance it guarantees and that best reply.
#[derive(Clone, Debug, PartialEq)]
pub struct BestFirst {
    /// The pattern.
    pub pattern: Vec<usize>,
    /// `1 − P(best reply wins)`: the first player's chance against the best reply.
    pub guaranteed: RBig,
    /// The opponent's best reply to it.
    pub reply: Vec<usize>,
}

/// Exhaustive search for the first player's best pattern of length `m` (at most `limit`
/// patterns of that length).
pub fn best_first_pattern(alphabet: &Alphabet, m: usize, limit: usize) -> Result<BestFirst> {
    let all = alphabet.all_words(m, limit)?;
    let mut best: Option<BestFirst> = None;
    for a in all {
        let r = best_reply(alphabet, &a, limit)?;
        let g = RBig::ONE - &r.prob;
        if best.as_ref().is_none_or(|b| g > b.guaranteed) {
            best = Some(BestFirst {
                pattern: a,
                guaranteed: g,
                reply: r.reply,
            });
        }
    }
    best.ok_or_else(|| PenneyError::NotApplicable("no patterns of that length".into()))
}

/// A table of all patterns of one length: the patterns, and `P(column before row)`.
pub type PairTable = (Vec<Vec<usize>>, Vec<Vec<Option<RBig>>>);

/// A non-transitive cycle: each pattern with the probability that it beats its predecessor.
pub type Cycle = Vec<(Vec<usize>, RBig)>;

/// All patterns of length `m` and the matrix `table[i][j] = P(pattern j appears before
/// pattern i)` (`None` on the diagonal).
pub fn pair_table(alphabet: &Alphabet, m: usize, limit: usize) -> Result<PairTable> {
    let all = alphabet.all_words(m, limit)?;
    let table = all
        .iter()
        .enumerate()
        .map(|(i, a)| {
            all.iter()
                .enumerate()
                .map(|(j, b)| (i != j).then(|| prob_second_wins(alphabet, a, b)))
                .collect()
        })
        .collect();
    Ok((all, table))
}

/// A non-transitive cycle of patterns of length `m`: each pattern beats the previous one (and
/// the first beats the last) with probability > 1/2. Found by following best replies from
/// `HH…H` (symbol 0 repeated) until the walk repeats; `None` when best replies do not all exceed 1/2 (e.g.
/// length ≤ 2 on a coin).
pub fn nontransitive_cycle(alphabet: &Alphabet, m: usize, limit: usize) -> Result<Option<Cycle>> {
    if m == 0 {
        return Ok(None);
    }
    let half = RBig::from_parts(1.into(), 2u8.into());
    let mut cur = vec![0usize; m];
    // walk[t+1] is the best reply to walk[t] and beats it with probability beats[t].
    let mut walk: Vec<Vec<usize>> = Vec::new();
    let mut beats: Vec<RBig> = Vec::new();
    let mut seen: std::collections::HashMap<Vec<usize>, usize> = std::collections::HashMap::new();
    const MAX_STEPS: usize = 100_000;
    while walk.len() < MAX_STEPS {
        if let Some(&pos) = seen.get(&cur) {
            let last = walk.len() - 1;
            let cycle: Cycle = (pos..walk.len())
                .map(|t| {
                    (
                        walk[t].clone(),
                        beats[if t == pos { last } else { t - 1 }].clone(),
                    )
                })
                .collect();
            let ok = cycle.len() >= 2 && cycle.iter().all(|(_, p)| *p > half);
            return Ok(ok.then_some(cycle));
        }
        let r = match best_reply(alphabet, &cur, limit) {
            Ok(r) => r,
            Err(PenneyError::NotApplicable(_)) => return Ok(None),
            Err(e) => return Err(e),
        };
        seen.insert(cur.clone(), walk.len());
        walk.push(std::mem::replace(&mut cur, r.reply));
        beats.push(r.prob);
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_reply_classic() {
        let c = Alphabet::coin();
        let r = best_reply(&c, &c.encode("HHH").unwrap(), 1 << 12).unwrap();
        assert_eq!(c.decode(&r.reply), "THH");
        assert_eq!(r.prob.to_string(), "7/8");
        assert_eq!(r.search, ReplySearch::Exhaustive);
        let f = best_reply(&c, &c.encode("HHH").unwrap(), 4).unwrap();
        assert_eq!(f.search, ReplySearch::Family);
        assert_eq!(c.decode(&f.reply), "THH");
    }

    #[test]
    fn best_first_length3() {
        let c = Alphabet::coin();
        let b = best_first_pattern(&c, 3, 1 << 12).unwrap();
        // Against best replies the first player gets at most 1/3 (HHT vs THH is 1/4; HTH vs HHT 1/3).
        assert_eq!(b.guaranteed.to_string(), "1/3");
    }

    #[test]
    fn cycles() {
        let c = Alphabet::coin();
        let cyc = nontransitive_cycle(&c, 3, 1 << 12).unwrap().unwrap();
        assert!(cyc.len() >= 3);
        for t in 0..cyc.len() {
            let prev = &cyc[(t + cyc.len() - 1) % cyc.len()].0;
            assert_eq!(prob_second_wins(&c, prev, &cyc[t].0), cyc[t].1);
        }
        assert!(nontransitive_cycle(&c, 2, 1 << 12).unwrap().is_none());
    }
}
