//! The reference method: the Aho–Corasick automaton of the patterns as an absorbing Markov
//! chain. States are trie nodes (at most total pattern length + 1, not the product of KMP
//! automata); a node is absorbing when some pattern ends there.
//!
//! With `Q` the transient part and `M = I − Q`, every quantity is one exact solve with `M`:
//! absorption probabilities `h_i = M⁻¹ r_i`, `t = E[N] = M⁻¹ 1`, `E[N·1{i wins}] = M⁻¹ h_i`
//! and `E[N²] = M⁻¹ (2t − 1)`.

use crate::error::{PenneyError, Result};
use crate::race::Race;
use crate::strings::AhoCorasick;
use dashu::integer::{IBig, UBig};
use dashu::rational::RBig;

/// Everything the chain says about the race started from scratch.
#[derive(Clone, Debug, PartialEq)]
pub struct ChainSolution {
    /// Probability that each pattern appears first (0 for patterns containing another).
    pub win: Vec<RBig>,
    /// `E[N]`, the expected number of tosses.
    pub expected: RBig,
    /// `Var[N]`.
    pub variance: RBig,
    /// `E[N | pattern i wins]` (`None` when `i` cannot win).
    pub expected_given_winner: Vec<Option<RBig>>,
    /// Number of transient states solved for.
    pub states: usize,
}

/// The automaton of the winnable patterns and the transient-state numbering.
struct Chain {
    ac: AhoCorasick,
    /// Original pattern index of each automaton word.
    act: Vec<usize>,
    /// Transient index of each node, `None` if absorbing.
    index: Vec<Option<usize>>,
    transient: Vec<usize>,
}

impl Chain {
    fn new(race: &Race) -> Self {
        let act = race.active();
        let words: Vec<Vec<usize>> = act.iter().map(|&i| race.word(i).to_vec()).collect();
        let ac = AhoCorasick::new(&words, race.alphabet().len());
        let mut index = vec![None; ac.len()];
        let mut transient = Vec::new();
        for &v in ac.bfs_order() {
            if ac.output(v).is_none() {
                index[v] = Some(transient.len());
                transient.push(v);
            }
        }
        Chain {
            ac,
            act,
            index,
            transient,
        }
    }
}

/// Number of transient states the chain of `race` has (the size of the exact solve).
pub fn state_count(race: &Race) -> usize {
    Chain::new(race).transient.len()
}

/// Solves the chain exactly by level-by-level elimination over the trie (every node an affine
/// form in `k` unknowns, fixed by the `k` pattern leaves): the cost is `states × |alphabet| × (k + quantities)` exact operations plus a
/// `k × k` solve, so thousands of states are fine. Refuses more than `max_states` states.
pub fn solve(race: &Race, max_states: usize) -> Result<ChainSolution> {
    let ch = Chain::new(race);
    let n = ch.transient.len();
    if n > max_states {
        return Err(PenneyError::TooLarge(format!(
            "the Markov chain has {n} states, more than the limit {max_states}"
        )));
    }
    let k = ch.act.len();
    let singular = || PenneyError::NotApplicable("the Markov chain system is singular".into());
    // Stage 1: h_i (boundary 1 at pattern i's leaf) and t (one per step).
    let stage1 = level_solve(
        &ch,
        race,
        k + 1,
        |_| {
            let mut r = vec![RBig::ZERO; k + 1];
            r[k] = RBig::ONE;
            r
        },
        |i| {
            let mut a = vec![RBig::ZERO; k + 1];
            a[i] = RBig::ONE;
            a
        },
    )
    .ok_or_else(singular)?;
    // Stage 2: E[N·1{i}] = M⁻¹ h_i and E[N²] = M⁻¹ (2t − 1). The right-hand sides are scaled
    // by the common denominator `l` of the stage-1 values so the elimination stays integral
    // for uniform alphabets; the root values are divided by `l` afterwards.
    let mut l = UBig::ONE;
    for &v in &ch.transient {
        for x in &stage1[v] {
            let d = x.denominator();
            if !d.is_one() && !(&l % d).is_zero() {
                let g = dashu::base::Gcd::gcd(&l, d);
                l = &l / &g * d;
            }
        }
    }
    let lr = RBig::from(l);
    let stage2 = level_solve(
        &ch,
        race,
        k + 1,
        |v| {
            let x = &stage1[v];
            let mut r: Vec<RBig> = x[..k].iter().map(|h| h * &lr).collect();
            r.push((RBig::from(2) * &x[k] - RBig::ONE) * &lr);
            r
        },
        |_| vec![RBig::ZERO; k + 1],
    )
    .ok_or_else(singular)?;
    let root2: Vec<RBig> = stage2[0].iter().map(|x| x / &lr).collect();
    Ok(assemble(race, &ch, &stage1[0], &root2, n))
}

fn assemble(race: &Race, ch: &Chain, x1: &[RBig], x2: &[RBig], states: usize) -> ChainSolution {
    let k = ch.act.len();
    let expected = x1[k].clone();
    let variance = &x2[k] - &expected * &expected;
    let mut win = vec![RBig::ZERO; race.len()];
    let mut given = vec![None; race.len()];
    for (i, &p) in ch.act.iter().enumerate() {
        win[p] = x1[i].clone();
        if !win[p].is_zero() {
            given[p] = Some(&x2[i] / &win[p]);
        }
    }
    ChainSolution {
        win,
        expected,
        variance,
        expected_given_winner: given,
        states,
    }
}

/// Solves `x(v) = r(v) + Σ_c p_c x(goto(v,c))` on transient nodes with `x(w) = a(w)` on the
/// leaf of each pattern, for `q` quantities at once; returns `x` at every node (by node id).
///
/// Every node value is kept as an affine form in `k` unknowns: the root is the first unknown;
/// going down level by level, the equation of a node `v` involves only nodes no deeper than `v`
/// (already expressed) and `v`'s children; all children but the first become new unknowns and
/// the equation is solved for the first. A tree whose leaves are the `k` patterns gets exactly
/// `k` unknowns, fixed by the `k` leaf conditions.
fn level_solve(
    ch: &Chain,
    race: &Race,
    q: usize,
    r: impl Fn(usize) -> Vec<RBig>,
    a: impl Fn(usize) -> Vec<RBig>,
) -> Option<Vec<Vec<RBig>>> {
    let ac = &ch.ac;
    let al = race.alphabet();
    let k = ch.act.len();
    let width = k + q;
    let mut form: Vec<Option<Vec<RBig>>> = vec![None; ac.len()];
    let mut next_unknown = 0usize;
    let unknown = |next: &mut usize| {
        let mut f = vec![RBig::ZERO; width];
        f[*next] = RBig::ONE;
        *next += 1;
        f
    };
    form[0] = Some(unknown(&mut next_unknown));
    for &v in ac.bfs_order() {
        if ch.index[v].is_none() {
            continue;
        }
        let children: Vec<usize> = (0..al.len())
            .filter(|&c| ac.child(v, c).is_some())
            .collect();
        let (&first, rest) = children.split_first()?;
        for &c in rest {
            let u = ac.child(v, c)?;
            if next_unknown >= k {
                return None;
            }
            form[u] = Some(unknown(&mut next_unknown));
        }
        // p_first · x(u) = x(v) − r(v) − Σ_{c ≠ first} p_c x(goto(v,c))
        let mut acc = form[v].clone()?;
        for (j, rv) in r(v).into_iter().enumerate() {
            acc[k + j] -= rv;
        }
        for c in (0..al.len()).filter(|&c| c != first) {
            let w = ac.goto(v, c);
            let fw = form[w].as_ref()?;
            let pc = al.prob(c);
            for (x, y) in acc.iter_mut().zip(fw) {
                if !y.is_zero() {
                    *x -= pc * y;
                }
            }
        }
        let inv = RBig::ONE / al.prob(first);
        for x in acc.iter_mut() {
            if !x.is_zero() {
                *x *= &inv;
            }
        }
        form[ac.child(v, first)?] = Some(acc);
    }
    if next_unknown != k {
        return None;
    }
    // Leaf conditions: Σ_j coef_j(w) U_j + const(w) = a(w).
    let mut mat = Vec::with_capacity(k);
    let mut rhs = Vec::with_capacity(k);
    for (v, f) in form.iter().enumerate() {
        if ch.index[v].is_some() {
            continue;
        }
        let f = f.as_ref()?;
        let i = ac.output(v)?;
        mat.push(f[..k].to_vec());
        rhs.push(
            a(i).iter()
                .zip(&f[k..])
                .map(|(av, c)| av - c)
                .collect::<Vec<RBig>>(),
        );
    }
    let u = crate::linear::solve(&mat, &rhs)?;
    let values = form
        .into_iter()
        .map(|f| {
            let f = f.unwrap_or_default();
            (0..q)
                .map(|col| {
                    let mut x = f.get(k + col).cloned().unwrap_or(RBig::ZERO);
                    for (j, uj) in u.iter().enumerate() {
                        if !f[j].is_zero() {
                            x += &f[j] * &uj[col];
                        }
                    }
                    x
                })
                .collect()
        })
        .collect();
    Some(values)
}

/// The straightforward reference for [`solve`]: dense exact elimination over all transient
/// states (cubic in their number, with big intermediate numbers; keep it small).
pub fn solve_dense(race: &Race, max_states: usize) -> Result<ChainSolution> {
    let ch = Chain::new(race);
    let n = ch.transient.len();
    if n > max_states {
        return Err(PenneyError::TooLarge(format!(
            "the Markov chain has {n} states, more than the limit {max_states}"
        )));
    }
    let al = race.alphabet();
    let d = RBig::from(al.denominator().clone());
    let k = ch.act.len();
    // Rows scaled by d: d·x(v) − Σ_c n_c x(goto(v,c)) = d·r(v).
    let mut m = vec![vec![RBig::ZERO; n]; n];
    let mut rhs1 = vec![vec![RBig::ZERO; k + 1]; n];
    for (row, &v) in ch.transient.iter().enumerate() {
        m[row][row] += &d;
        for c in 0..al.len() {
            let w = ch.ac.goto(v, c);
            let nc = RBig::from(al.weight(c).clone());
            match ch.index[w] {
                Some(col) => m[row][col] -= nc,
                None => {
                    let i = ch.ac.output(w).expect("absorbing node has an output");
                    rhs1[row][i] += nc;
                }
            }
        }
        rhs1[row][k] = d.clone();
    }
    let singular = || PenneyError::NotApplicable("the Markov chain system is singular".into());
    let x1 = crate::linear::solve(&m, &rhs1).ok_or_else(singular)?;
    let rhs2: Vec<Vec<RBig>> = x1
        .iter()
        .map(|row| {
            let mut r: Vec<RBig> = row[..k].iter().map(|h| h * &d).collect();
            r.push((RBig::from(2) * &row[k] - RBig::ONE) * &d);
            r
        })
        .collect();
    let x2 = crate::linear::solve(&m, &rhs2).ok_or_else(singular)?;
    let root = ch.index[0].expect("the root is transient: patterns are non-empty");
    let expected = x1[root][k].clone();
    let variance = &x2[root][k] - &expected * &expected;
    let mut win = vec![RBig::ZERO; race.len()];
    let mut given = vec![None; race.len()];
    for (i, &p) in ch.act.iter().enumerate() {
        win[p] = x1[root][i].clone();
        if !win[p].is_zero() {
            given[p] = Some(&x2[root][i] / &win[p]);
        }
    }
    Ok(ChainSolution {
        win,
        expected,
        variance,
        expected_given_winner: given,
        states: n,
    })
}

/// `P(N = n)` for `n = 1..=tosses`, and for each `n` which pattern's share: entry `[n-1][i]`
/// is the probability that pattern `i` wins exactly at toss `n`.
///
/// Exact forward propagation with integer masses scaled by `d^n` (`p_c = n_c/d`);
/// cost `tosses × states × |alphabet|` big-integer operations.
pub fn length_distribution(race: &Race, tosses: usize) -> Vec<Vec<RBig>> {
    let ch = Chain::new(race);
    let al = race.alphabet();
    let mut mass = vec![UBig::ZERO; ch.transient.len()];
    mass[0] = UBig::ONE;
    let mut scale = UBig::ONE;
    let mut out = Vec::with_capacity(tosses);
    for _ in 0..tosses {
        scale *= al.denominator();
        let mut next = vec![UBig::ZERO; ch.transient.len()];
        let mut ends = vec![UBig::ZERO; race.len()];
        for (row, &v) in ch.transient.iter().enumerate() {
            if mass[row].is_zero() {
                continue;
            }
            for c in 0..al.len() {
                let w = ch.ac.goto(v, c);
                let add = &mass[row] * al.weight(c);
                match ch.index[w] {
                    Some(col) => next[col] += add,
                    None => {
                        let i = ch.ac.output(w).expect("absorbing node has an output");
                        ends[ch.act[i]] += add;
                    }
                }
            }
        }
        mass = next;
        out.push(
            ends.into_iter()
                .map(|e| RBig::from_parts(IBig::from(e), scale.clone()))
                .collect(),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Alphabet;

    #[test]
    fn hth_vs_thh() {
        let race = Race::new(Alphabet::coin(), &["HTH", "THH"]).unwrap();
        let s = solve(&race, 100).unwrap();
        assert_eq!(s.win[0].to_string(), "1/2");
        assert_eq!(s.expected.to_string(), "6");
        let dist = length_distribution(&race, 3);
        let total: Vec<String> = dist
            .iter()
            .map(|r| r.iter().fold(RBig::ZERO, |a, x| a + x).to_string())
            .collect();
        assert_eq!(total, vec!["0", "0", "1/4"]);
    }

    #[test]
    fn single_pattern_variance() {
        // Waiting for HH: E = 6, Var = 22.
        let race = Race::new(Alphabet::coin(), &["HH"]).unwrap();
        let s = solve(&race, 100).unwrap();
        assert_eq!(s.expected, RBig::from(6));
        assert_eq!(s.variance, RBig::from(22));
    }

    #[test]
    fn one_letter_alphabet() {
        let race = Race::new(Alphabet::uniform("A").unwrap(), &["AAA", "AA"]).unwrap();
        let s = solve(&race, 100).unwrap();
        assert_eq!(s.win, vec![RBig::ZERO, RBig::ONE]);
        assert_eq!(s.expected, RBig::from(2));
        assert_eq!(s.variance, RBig::ZERO);
    }
}
