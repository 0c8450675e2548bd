//! Complete, checked answers to the questions a user asks about pattern races, each one typed
//! result that serializes itself (`serde::Serialize`) to the JSON the `grundy penney` command
//! prints.
//!
//! - [`race`]: who appears first and when, solved by every exact method that fits (the
//!   correlation system always, the Markov chain when small enough, Conway's leading numbers
//!   for two patterns) and refused unless they all agree; optionally the length distribution
//!   and a seeded simulation beside the exact numbers.
//! - [`best_reply`], [`best_first`], [`table`], [`cycle`]: the game built on top.
//!
//! Exact values are [`Fraction`]s (strings such as `"7/8"` in JSON); each comes with a
//! [`Decimal`] for readers (a JSON number when it fits an `f64`, else a string in scientific
//! notation). [`decimal`] renders a fraction as text the same way.
//!
//! ```
//! use grundy_penney::report::{self, RaceOptions};
//! use grundy_penney::Alphabet;
//!
//! let r = report::race(Alphabet::coin(), &["HHH", "THH"], &RaceOptions::default(), &mut |_| {})?;
//! assert_eq!(r.patterns[1].win.to_string(), "7/8");
//! assert_eq!(r.expected_tosses.to_string(), "7");
//! assert_eq!(r.methods_agreeing.len(), 3); // correlation system, Markov chain, Conway
//! let json = serde_json::to_value(&r).unwrap();
//! assert_eq!(json["conway"]["odds_b_to_a"], "7:1");
//! # Ok::<(), grundy_penney::PenneyError>(())
//! ```

use crate::alphabet::Alphabet;
use crate::error::{PenneyError, Result};
use crate::game::{self, ReplySearch};
use crate::race::Race;
use crate::{chain, conway, correlation, correlation_system, simulate};
use dashu::base::BitTest;
use dashu::integer::{IBig, UBig};
use dashu::rational::RBig;
use serde::{Serialize, Serializer};
use std::fmt;

/// Most patterns in one race (the exact correlation system is cubic in their number).
pub const MAX_PATTERNS: usize = 200;
/// Most transient states the exact Markov chain is solved for.
pub const CHAIN_LIMIT: usize = 20_000;
/// Most `states × (patterns + 1)² × (1 + longest/64)` for the chain (about a second); beyond
/// it only the correlation system (and Conway) run, without conditional lengths (and without
/// the variance unless there is one pattern).
pub const CHAIN_WORK_LIMIT: usize = 500_000;
/// Most candidates for an exhaustive best-reply search (beyond it: the family `x·A[..m−1]`).
pub const REPLY_LIMIT: usize = 1 << 14;
/// Most patterns of one length for [`best_first`] (it evaluates all pairs).
pub const FIRST_LIMIT: usize = 512;
/// Most patterns of one length for [`table`].
pub const TABLE_LIMIT: usize = 64;
/// Longest pattern length the game questions ([`best_first`], [`table`], [`cycle`]) accept.
pub const LENGTH_LIMIT: usize = 64;
/// Most tosses for the length distribution.
pub const DISTRIBUTION_LIMIT: usize = 10_000;
/// Most distribution steps × automaton states.
pub const DISTRIBUTION_WORK_LIMIT: usize = 20_000_000;
/// Most races one simulation may run.
pub const SIMULATION_TRIALS_LIMIT: u64 = 1_000_000_000;
/// Most tosses a simulation may make in total.
pub const SIMULATION_TOSS_LIMIT: u64 = 2_000_000_000;

/// An exact rational value; serialized as its reduced fraction in a string (`"7/8"`, `"6"`),
/// since its numerator and denominator may have thousands of digits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fraction(pub RBig);

impl Fraction {
    /// The exact value.
    pub fn value(&self) -> &RBig {
        &self.0
    }

    /// The value in decimal for readers, as [`decimal`] writes it.
    pub fn decimal(&self) -> String {
        decimal(&self.0)
    }
}

impl From<RBig> for Fraction {
    fn from(x: RBig) -> Self {
        Fraction(x)
    }
}

impl fmt::Display for Fraction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl Serialize for Fraction {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

/// An approximate decimal beside an exact value: a JSON number when the value fits an `f64`,
/// otherwise the scientific-notation string of [`decimal`] (e.g. `"1.001001001e348"`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Decimal {
    /// The nearest `f64`.
    Number(f64),
    /// Too large or too small for an `f64`: ten significant digits and an exponent.
    Text(String),
}

impl Decimal {
    /// The decimal of an exact value.
    pub fn of(x: &RBig) -> Self {
        let f = x.to_f64().value();
        if f.is_finite() && (f != 0.0 || x.is_zero()) {
            Decimal::Number(f)
        } else {
            Decimal::Text(decimal(x))
        }
    }
}

/// A decimal rendering of an exact value for readers: at most ten decimals, trailing zeros
/// removed (`"0.5"`, `"6"`, `"5.6666666667"`) when it lies between 10⁻⁴ and 10¹⁵, otherwise
/// ten significant digits in scientific notation (`"1.980704063e28"`), exact in the digits
/// shown even far beyond the range of an `f64` (`"1.001001001e348"`).
///
/// ```
/// use grundy_penney::dashu::rational::RBig;
/// use grundy_penney::report::decimal;
///
/// assert_eq!(decimal(&RBig::from_parts(17.into(), 3u8.into())), "5.6666666667");
/// assert_eq!(decimal(&RBig::from(6)), "6");
/// ```
pub fn decimal(x: &RBig) -> String {
    let f = x.to_f64().value();
    if f == 0.0 && x.is_zero() {
        return "0".into();
    }
    if f.is_finite() && f != 0.0 && f.abs() >= 1e-300 {
        let a = f.abs();
        return if (1e-4..1e15).contains(&a) {
            let s = format!("{f:.10}");
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            format!("{f:.9e}")
        };
    }
    // Huge or tiny: exponent from bit lengths, then 17 significant digits by integer division.
    let (num, den) = (x.numerator().clone(), x.denominator().clone());
    let negative = num < IBig::ZERO;
    let num = UBig::try_from(if negative { -num } else { num }).unwrap_or_default();
    let bits = num.bit_len() as i64 - den.bit_len() as i64;
    let mut e = (bits as f64 * std::f64::consts::LOG10_2).floor() as i64;
    let ten = UBig::from(10u8);
    let digits = |e: i64| -> UBig {
        let shift = 17 - e;
        if shift >= 0 {
            &num * ten.pow(shift as usize) / &den
        } else {
            &num / (&den * ten.pow((-shift) as usize))
        }
    };
    let mut d = digits(e);
    while d >= ten.pow(18) {
        e += 1;
        d = digits(e);
    }
    while d < ten.pow(17) && d > UBig::ZERO {
        e -= 1;
        d = digits(e);
    }
    let s = d.to_string();
    format!(
        "{}{}.{}e{}",
        if negative { "-" } else { "" },
        &s[..1],
        &s[1..10],
        e
    )
}

/// A simulation to run beside the exact answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SimulationRequest {
    /// How many races (at most [`SIMULATION_TRIALS_LIMIT`]).
    pub trials: u64,
    /// Seed of the random generator: the same seed gives the same simulation.
    pub seed: u64,
}

/// What to compute beyond the exact odds and durations.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RaceOptions {
    /// `P(race ends at toss n)` for `n = 1..=distribution` (0: none; at most
    /// [`DISTRIBUTION_LIMIT`]).
    pub distribution: usize,
    /// A seeded simulation to show beside the exact numbers.
    pub simulate: Option<SimulationRequest>,
}

/// One of the independent exact methods that solved a race.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Method {
    /// The linear system over correlations (Li; Guibas–Odlyzko), any number of patterns.
    #[serde(rename = "correlation system")]
    CorrelationSystem,
    /// The absorbing Markov chain on the patterns' Aho–Corasick automaton.
    #[serde(rename = "Markov chain")]
    MarkovChain,
    /// Conway's leading numbers, two patterns.
    #[serde(rename = "Conway")]
    Conway,
}

impl Method {
    /// The method's name: `"correlation system"`, `"Markov chain"` or `"Conway"`.
    pub fn name(self) -> &'static str {
        match self {
            Method::CorrelationSystem => "correlation system",
            Method::MarkovChain => "Markov chain",
            Method::Conway => "Conway",
        }
    }
}

/// One pattern of a race and its exact chances.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PatternReport {
    /// The pattern as given.
    pub pattern: String,
    /// Probability that it appears before every other pattern.
    pub win: Fraction,
    /// [`win`](Self::win) in decimal.
    pub win_decimal: Decimal,
    /// False when it contains another pattern, which then always appears no later.
    pub can_win: bool,
    /// The other pattern it contains, if any.
    pub contains: Option<String>,
    /// Expected number of tosses until this pattern alone first appears.
    pub waiting_time: Fraction,
    /// `E[N | this pattern wins]`: absent when the Markov chain was not run, `null` (`Some(None)`)
    /// when the pattern cannot win.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_given_win: Option<Option<Fraction>>,
    /// Races this pattern won in the simulation (absent without one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub simulated_wins: Option<u64>,
    /// The fraction of simulated races it won (absent without a simulation).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub simulated_win_decimal: Option<f64>,
}

/// Conway's four leading numbers, named `AA`, `AB`, `BB`, `BA` in JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Leading<T> {
    /// `A∘A`.
    #[serde(rename = "AA")]
    pub aa: T,
    /// `A∘B`.
    #[serde(rename = "AB")]
    pub ab: T,
    /// `B∘B`.
    #[serde(rename = "BB")]
    pub bb: T,
    /// `B∘A`.
    #[serde(rename = "BA")]
    pub ba: T,
}

/// Odds for `B` against `A` as a reduced ratio; serialized as `"7:1"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Odds {
    /// `B`'s share.
    pub b: IBig,
    /// `A`'s share.
    pub a: UBig,
}

impl fmt::Display for Odds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.b, self.a)
    }
}

impl Serialize for Odds {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Conway's computation for a race of two patterns that can both win.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConwayReport {
    /// The first pattern, `A`.
    pub a: String,
    /// The second pattern, `B`.
    pub b: String,
    /// The leading numbers as bit strings, most significant bit = the full overlap.
    pub leading_numbers: Leading<String>,
    /// The leading numbers weighted by the letter probabilities (`A∘A` is `A`'s waiting time).
    pub weighted: Leading<Fraction>,
    /// `(A∘A − A∘B) : (B∘B − B∘A)`.
    pub odds_b_to_a: Odds,
    /// Probability that `B` appears before `A`.
    pub prob_b_first: Fraction,
}

/// `P(race ends at toss n)` and each pattern's share of it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DistributionStep {
    /// The toss, from 1.
    pub n: usize,
    /// Probability that the race ends exactly at toss `n`.
    pub prob: Fraction,
    /// [`prob`](Self::prob) in decimal.
    pub decimal: Decimal,
    /// Probability that pattern `i` ends the race exactly at toss `n`, in pattern order.
    pub by_pattern: Vec<Fraction>,
}

/// The simulation's own numbers.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SimulationReport {
    /// Races run.
    pub trials: u64,
    /// The seed used.
    pub seed: u64,
    /// Races each pattern won, in pattern order.
    pub wins: Vec<u64>,
    /// Mean number of tosses.
    pub mean_length: f64,
    /// Sample variance of the number of tosses.
    pub variance: f64,
}

/// Everything known about one race, checked by every exact method that ran.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RaceReport {
    /// The symbols tossed, in order.
    pub alphabet: String,
    /// Each symbol's exact probability, in alphabet order (a JSON object symbol → fraction).
    #[serde(serialize_with = "letter_map")]
    pub letter_probabilities: Vec<(char, Fraction)>,
    /// The patterns, in the order given.
    pub patterns: Vec<PatternReport>,
    /// `E[N]`, the expected number of tosses until the race ends.
    pub expected_tosses: Fraction,
    /// [`expected_tosses`](Self::expected_tosses) in decimal.
    pub expected_tosses_decimal: Decimal,
    /// `Var[N]`: from the Markov chain, or the closed form for one pattern; `None` when the
    /// chain was too large for several patterns.
    pub variance: Option<Fraction>,
    /// [`variance`](Self::variance) in decimal.
    pub variance_decimal: Option<Decimal>,
    /// The exact methods that ran and agreed.
    pub methods_agreeing: Vec<Method>,
    /// Transient states of the Markov chain (whether or not it ran).
    pub chain_states: usize,
    /// Conway's leading numbers, for two patterns that can both win.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conway: Option<ConwayReport>,
    /// The length distribution, when asked for.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub distribution: Vec<DistributionStep>,
    /// The simulation, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub simulation: Option<SimulationReport>,
}

impl RaceReport {
    /// Whether every symbol is equally likely.
    pub fn is_uniform(&self) -> bool {
        self.letter_probabilities
            .iter()
            .all(|(_, p)| *p == self.letter_probabilities[0].1)
    }

    /// Whether the Markov chain was skipped as too slow (then there are no conditional
    /// lengths, and no variance for several patterns).
    pub fn chain_skipped(&self) -> bool {
        !self.methods_agreeing.contains(&Method::MarkovChain)
    }

    /// Unknowns per state of the Markov chain: one per pattern that can win, plus one.
    pub fn unknowns_per_state(&self) -> usize {
        self.patterns.iter().filter(|p| p.can_win).count() + 1
    }
}

fn letter_map<S: Serializer>(
    letters: &[(char, Fraction)],
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    s.collect_map(letters.iter().map(|(c, p)| (c.to_string(), p)))
}

fn internal(e: PenneyError) -> PenneyError {
    match e {
        PenneyError::Internal(_) => e,
        other => PenneyError::Internal(other.to_string()),
    }
}

/// Validates `patterns` over `alphabet` (at most [`MAX_PATTERNS`]) and answers
/// [`race_report`] for them.
pub fn race<S: AsRef<str>>(
    alphabet: Alphabet,
    patterns: &[S],
    options: &RaceOptions,
    progress: &mut dyn FnMut(u64),
) -> Result<RaceReport> {
    if patterns.len() > MAX_PATTERNS {
        return Err(PenneyError::TooLarge(format!(
            "{} patterns is more than the limit {MAX_PATTERNS}",
            patterns.len()
        )));
    }
    race_report(&Race::new(alphabet, patterns)?, options, progress)
}

/// Solves `race` by the correlation system, the Markov chain (when within [`CHAIN_LIMIT`] and
/// [`CHAIN_WORK_LIMIT`]) and Conway's formula (two patterns that can both win), and fails with
/// [`PenneyError::Internal`] unless they all agree on every win probability and `E[N]`.
/// Adds the length distribution and a simulation as `options` asks; `progress(done)` is
/// called during the simulation every 2^16 races.
///
/// Errors: [`PenneyError::TooLarge`] when the distribution or the simulation would be too much
/// work; [`PenneyError::Internal`] only for a bug.
pub fn race_report(
    race: &Race,
    options: &RaceOptions,
    progress: &mut dyn FnMut(u64),
) -> Result<RaceReport> {
    let al = race.alphabet();
    let dist_k = options.distribution;
    if dist_k > DISTRIBUTION_LIMIT {
        return Err(PenneyError::TooLarge(format!(
            "a distribution over {dist_k} tosses is more than the limit {DISTRIBUTION_LIMIT}"
        )));
    }
    if let Some(s) = options.simulate {
        if s.trials > SIMULATION_TRIALS_LIMIT {
            return Err(PenneyError::TooLarge(format!(
                "{} simulated races is more than the limit {SIMULATION_TRIALS_LIMIT}",
                s.trials
            )));
        }
    }

    // Method 1: the correlation system (always).
    let sys = correlation_system::solve(race).map_err(internal)?;
    // Method 2: the Markov chain when small enough.
    let states = chain::state_count(race);
    let k1 = race.active().len() + 1;
    let longest = race.words().iter().map(Vec::len).max().unwrap_or(1);
    let chain_ok = states <= CHAIN_LIMIT
        && states
            .saturating_mul(k1 * k1)
            .saturating_mul(1 + longest / 64)
            <= CHAIN_WORK_LIMIT;
    let ch = if chain_ok {
        Some(chain::solve(race, CHAIN_LIMIT).map_err(internal)?)
    } else {
        None
    };
    // Method 3: Conway for two patterns that can both win.
    let conway_res = if race.len() == 2 && race.active().len() == 2 {
        Some(conway::conway(al, race.word(0), race.word(1)).map_err(internal)?)
    } else {
        None
    };
    if let Some(c) = &ch {
        if c.win != sys.win || c.expected != sys.expected {
            return Err(PenneyError::Internal(
                "Markov chain and correlation system disagree".into(),
            ));
        }
    }
    if let Some(c) = &conway_res {
        if c.prob_b_first != sys.win[1] || c.expected != sys.expected {
            return Err(PenneyError::Internal(
                "Conway and correlation system disagree".into(),
            ));
        }
    }
    let variance = match (&ch, race.len()) {
        (Some(c), _) => Some(c.variance.clone()),
        (None, 1) => Some(correlation::waiting_time_variance(al, race.word(0))),
        _ => None,
    };

    if dist_k > 0 && dist_k.saturating_mul(states.max(1)) > DISTRIBUTION_WORK_LIMIT {
        return Err(PenneyError::TooLarge(format!(
            "a distribution over {dist_k} tosses with {states} automaton states is too much work (limit {DISTRIBUTION_WORK_LIMIT} steps × states)"
        )));
    }
    let distribution = if dist_k > 0 {
        chain::length_distribution(race, dist_k)
            .into_iter()
            .enumerate()
            .map(|(n, row)| {
                let total = row.iter().fold(RBig::ZERO, |a, x| a + x);
                DistributionStep {
                    n: n + 1,
                    decimal: Decimal::of(&total),
                    prob: Fraction(total),
                    by_pattern: row.into_iter().map(Fraction).collect(),
                }
            })
            .collect()
    } else {
        Vec::new()
    };

    let sim = match options.simulate {
        Some(SimulationRequest { trials, seed }) => {
            let e = sys.expected.to_f64().value();
            if !e.is_finite() {
                return Err(PenneyError::TooLarge(format!(
                    "{trials} simulated races: races are far too long to simulate"
                )));
            }
            if e * trials as f64 > SIMULATION_TOSS_LIMIT as f64 {
                return Err(PenneyError::TooLarge(format!(
                    "{trials} simulated races: about {:.3e} tosses expected, more than the limit {SIMULATION_TOSS_LIMIT}",
                    e * trials as f64
                )));
            }
            Some((
                seed,
                simulate::simulate(race, trials, seed, SIMULATION_TOSS_LIMIT, progress)?,
            ))
        }
        None => None,
    };

    let mut methods_agreeing = vec![Method::CorrelationSystem];
    if ch.is_some() {
        methods_agreeing.push(Method::MarkovChain);
    }
    if conway_res.is_some() {
        methods_agreeing.push(Method::Conway);
    }

    let patterns = (0..race.len())
        .map(|i| PatternReport {
            pattern: race.text(i).to_string(),
            win: Fraction(sys.win[i].clone()),
            win_decimal: Decimal::of(&sys.win[i]),
            can_win: race.blocked_by(i).is_none(),
            contains: race.blocked_by(i).map(|j| race.text(j).to_string()),
            waiting_time: Fraction(correlation::waiting_time(al, race.word(i))),
            expected_given_win: ch
                .as_ref()
                .map(|c| c.expected_given_winner[i].clone().map(Fraction)),
            simulated_wins: sim.as_ref().map(|(_, s)| s.wins[i]),
            simulated_win_decimal: sim
                .as_ref()
                .map(|(_, s)| s.wins[i] as f64 / s.trials.max(1) as f64),
        })
        .collect();

    let conway = conway_res.map(|c| {
        let [aa, ab, bb, ba] = conway::leading_bits(race.word(0), race.word(1));
        let (b, a) = c.odds;
        ConwayReport {
            a: race.text(0).to_string(),
            b: race.text(1).to_string(),
            leading_numbers: Leading { aa, ab, bb, ba },
            weighted: Leading {
                aa: Fraction(c.leading.aa),
                ab: Fraction(c.leading.ab),
                bb: Fraction(c.leading.bb),
                ba: Fraction(c.leading.ba),
            },
            odds_b_to_a: Odds { b, a },
            prob_b_first: Fraction(c.prob_b_first),
        }
    });

    Ok(RaceReport {
        alphabet: al.symbols_string(),
        letter_probabilities: al
            .symbols()
            .iter()
            .zip(al.probs())
            .map(|(&c, p)| (c, Fraction(p.clone())))
            .collect(),
        patterns,
        expected_tosses_decimal: Decimal::of(&sys.expected),
        expected_tosses: Fraction(sys.expected),
        variance_decimal: variance.as_ref().map(Decimal::of),
        variance: variance.map(Fraction),
        methods_agreeing,
        chain_states: states,
        conway,
        distribution,
        simulation: sim.map(|(seed, s)| SimulationReport {
            trials: s.trials,
            seed,
            wins: s.wins,
            mean_length: s.mean_length,
            variance: s.variance,
        }),
    })
}

/// The best reply to a pattern: the pattern of the same length most likely to appear first.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BestReplyReport {
    /// The pattern replied to.
    pub pattern: String,
    /// A best reply (the first in symbol order among equally good ones).
    pub best_reply: String,
    /// Probability that the best reply appears before `pattern`.
    pub win: Fraction,
    /// [`win`](Self::win) in decimal.
    pub win_decimal: Decimal,
    /// Every equally good reply, in symbol order (the best reply first).
    pub ties: Vec<String>,
    /// `"exhaustive"` (every other pattern of that length) or `"family"` (only `x·A[..m−1]`).
    pub search: ReplySearch,
    /// How many candidates were evaluated.
    pub candidates: usize,
}

impl BestReplyReport {
    /// What was searched, in words: `"exhaustive over all 7 other patterns of length 3"` or
    /// `"the family x·HTH (2 candidates)"`.
    pub fn search_description(&self) -> String {
        match self.search {
            ReplySearch::Exhaustive => format!(
                "exhaustive over all {} other patterns of length {}",
                self.candidates,
                self.pattern.chars().count()
            ),
            ReplySearch::Family => {
                let n = self.pattern.chars().count();
                let stem: String = self.pattern.chars().take(n.saturating_sub(1)).collect();
                format!("the family x·{stem} ({} candidates)", self.candidates)
            }
        }
    }
}

/// The best reply to `pattern` among all patterns of its length: exhaustive up to
/// [`REPLY_LIMIT`] candidates, otherwise over the family `x·pattern[..m−1]`.
///
/// ```
/// use grundy_penney::{report, Alphabet};
///
/// let r = report::best_reply(&Alphabet::coin(), "HHH")?;
/// assert_eq!((r.best_reply.as_str(), r.win.to_string()), ("THH", "7/8".to_string()));
/// # Ok::<(), grundy_penney::PenneyError>(())
/// ```
pub fn best_reply(alphabet: &Alphabet, pattern: &str) -> Result<BestReplyReport> {
    let w = alphabet.encode(pattern)?;
    let r = game::best_reply(alphabet, &w, REPLY_LIMIT)?;
    Ok(BestReplyReport {
        pattern: pattern.to_string(),
        best_reply: alphabet.decode(&r.reply),
        win_decimal: Decimal::of(&r.prob),
        win: Fraction(r.prob),
        ties: r.ties.iter().map(|t| alphabet.decode(t)).collect(),
        search: r.search,
        candidates: r.candidates,
    })
}

fn check_length(length: usize) -> Result<()> {
    if length == 0 {
        return Err(PenneyError::EmptyPattern);
    }
    if length > LENGTH_LIMIT {
        return Err(PenneyError::TooLarge(format!(
            "length {length} is more than the limit {LENGTH_LIMIT}"
        )));
    }
    Ok(())
}

/// The first player's best pattern of one length.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BestFirstReport {
    /// The pattern length.
    pub length: usize,
    /// The first player's best pattern (the first in symbol order among equally good ones).
    pub pattern: String,
    /// The chance it keeps against the opponent's best reply.
    pub guaranteed: Fraction,
    /// [`guaranteed`](Self::guaranteed) in decimal.
    pub guaranteed_decimal: Decimal,
    /// The opponent's best reply to it.
    pub best_reply: String,
}

/// The first player's best pattern of length `length` (exhaustive, at most [`FIRST_LIMIT`]
/// patterns of that length).
pub fn best_first(alphabet: &Alphabet, length: usize) -> Result<BestFirstReport> {
    check_length(length)?;
    let b = game::best_first_pattern(alphabet, length, FIRST_LIMIT)?;
    Ok(BestFirstReport {
        length,
        pattern: alphabet.decode(&b.pattern),
        guaranteed_decimal: Decimal::of(&b.guaranteed),
        guaranteed: Fraction(b.guaranteed),
        best_reply: alphabet.decode(&b.reply),
    })
}

/// What [`TableReport::table`] holds, in words.
pub const TABLE_MEANING: &str = "table[i][j] = P(patterns[j] appears before patterns[i])";

/// Every pair of patterns of one length.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TableReport {
    /// The pattern length.
    pub length: usize,
    /// All patterns of that length, in symbol order.
    pub patterns: Vec<String>,
    /// [`TABLE_MEANING`].
    pub meaning: &'static str,
    /// `table[i][j] = P(patterns[j] appears before patterns[i])`, `None` (`null`) on the
    /// diagonal.
    pub table: Vec<Vec<Option<Fraction>>>,
}

/// The table of all pairs of patterns of length `length` (at most [`TABLE_LIMIT`] patterns).
pub fn table(alphabet: &Alphabet, length: usize) -> Result<TableReport> {
    check_length(length)?;
    let (words, tab) = game::pair_table(alphabet, length, TABLE_LIMIT)?;
    Ok(TableReport {
        length,
        patterns: words.iter().map(|w| alphabet.decode(w)).collect(),
        meaning: TABLE_MEANING,
        table: tab
            .into_iter()
            .map(|row| row.into_iter().map(|x| x.map(Fraction)).collect())
            .collect(),
    })
}

/// One pattern of a non-transitive cycle.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CycleStep {
    /// The pattern.
    pub pattern: String,
    /// Probability that it appears before the previous pattern of the cycle (the first
    /// pattern's previous one is the last).
    pub beats_previous: Fraction,
    /// [`beats_previous`](Self::beats_previous) in decimal.
    pub decimal: Decimal,
}

/// A non-transitive cycle of best replies, if there is one.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CycleReport {
    /// The pattern length.
    pub length: usize,
    /// The cycle, each pattern beating the one before it; `None` (`null`) when following best
    /// replies finds none.
    pub cycle: Option<Vec<CycleStep>>,
}

/// A non-transitive cycle of patterns of length `length`, found by following best replies
/// (see [`game::nontransitive_cycle`]).
pub fn cycle(alphabet: &Alphabet, length: usize) -> Result<CycleReport> {
    check_length(length)?;
    let c = game::nontransitive_cycle(alphabet, length, REPLY_LIMIT)?;
    Ok(CycleReport {
        length,
        cycle: c.map(|c| {
            c.into_iter()
                .map(|(w, p)| CycleStep {
                    pattern: alphabet.decode(&w),
                    decimal: Decimal::of(&p),
                    beats_previous: Fraction(p),
                })
                .collect()
        }),
    })
}

/// Longest exact fraction the text reports print in full; a longer one is shown as its length
/// (its decimal is always printed beside it, and the JSON carries it whole).
pub const TEXT_FRACTION_LIMIT: usize = 60;

/// An exact value in a text report: the fraction, or `[N-character fraction; the JSON report has it whole]` when
/// it is longer than [`TEXT_FRACTION_LIMIT`].
fn short_fraction(x: &impl fmt::Display) -> String {
    let s = x.to_string();
    if s.len() <= TEXT_FRACTION_LIMIT {
        s
    } else {
        format!(
            "[{}-character fraction; the JSON report has it whole]",
            s.len()
        )
    }
}

impl RaceReport {
    /// The report as text for a reader, the words every front end shows (`grundy penney A B`):
    /// the alphabet, one row per pattern (chance to come first, exact and decimal, the mean
    /// number of tosses when it wins and the simulated share when known), the expected number
    /// of tosses and its variance, the odds for two patterns, the methods that agreed and the
    /// length distribution. `verbose` uses the literature's notation instead (`E[N | wins]`,
    /// `E[N]`, `Var[N]`) and adds Conway's leading numbers.
    ///
    /// ```
    /// use grundy_penney::report::{self, RaceOptions};
    /// use grundy_penney::Alphabet;
    ///
    /// let r = report::race(Alphabet::coin(), &["HHH", "THH"], &RaceOptions::default(), &mut |_| {})?;
    /// let text = r.describe(false);
    /// assert_eq!(text.lines().nth(3), Some("THH      7/8              0.875         53/7 (7.5714285714)"));
    /// # Ok::<(), grundy_penney::PenneyError>(())
    /// ```
    pub fn describe(&self, verbose: bool) -> String {
        let mut t = String::new();
        let probs: Vec<String> = self
            .letter_probabilities
            .iter()
            .map(|(c, p)| format!("{c}={p}"))
            .collect();
        t.push_str(&format!(
            "{} over {} ({})\n",
            if self.patterns.len() == 1 {
                "Waiting time".to_string()
            } else {
                format!("Race of {} patterns", self.patterns.len())
            },
            self.alphabet,
            if self.is_uniform() {
                format!("each {}", self.letter_probabilities[0].1)
            } else {
                probs.join(", ")
            }
        ));
        let width = self
            .patterns
            .iter()
            .map(|p| p.pattern.chars().count())
            .max()
            .unwrap_or(1)
            .clamp(7, 40);
        t.push_str(&format!(
            "{:<width$}  {:<16} {:<12}",
            "pattern", "P(first)", "decimal"
        ));
        if !self.chain_skipped() {
            t.push_str(if verbose {
                "  E[N | wins]"
            } else {
                "  mean tosses if it wins"
            });
        }
        if self.simulation.is_some() {
            t.push_str("  simulated");
        }
        t.push('\n');
        for p in &self.patterns {
            t.push_str(&format!(
                "{:<width$}  {:<16} {:<12}",
                p.pattern,
                short_fraction(&p.win),
                p.win.decimal()
            ));
            if let Some(e) = &p.expected_given_win {
                let e = e.as_ref().map_or("-".to_string(), |e| {
                    format!("{} ({})", short_fraction(e), e.decimal())
                });
                t.push_str(&format!("  {e}"));
            }
            if let Some(f) = p.simulated_win_decimal {
                t.push_str(&format!("  {f:.6}"));
            }
            if let Some(j) = &p.contains {
                t.push_str(&format!("  (contains {j}, can never win)"));
            }
            t.push('\n');
        }
        let (mean, var) = if verbose {
            ("E[N] = ", "   Var[N] = ")
        } else {
            ("expected number of tosses: ", ", variance ")
        };
        t.push_str(&format!(
            "{mean}{} ({})",
            short_fraction(&self.expected_tosses),
            self.expected_tosses.decimal()
        ));
        if let Some(v) = &self.variance {
            t.push_str(&format!("{var}{} ({})", short_fraction(v), v.decimal()));
        }
        if let Some(s) = &self.simulation {
            t.push_str(&format!(
                "\nsimulated: {} races, seed {}: mean {:.6}, variance {:.6}",
                s.trials, s.seed, s.mean_length, s.variance
            ));
        }
        t.push('\n');
        if let Some(c) = &self.conway {
            t.push_str(&if verbose {
                c.describe()
            } else {
                c.describe_odds()
            });
        }
        let methods: Vec<&str> = self.methods_agreeing.iter().map(|m| m.name()).collect();
        t.push_str(&format!("Exact methods agreeing: {}", methods.join(", ")));
        if self.chain_skipped() {
            t.push_str(&format!(
                " (Markov chain skipped: {} states, {} unknowns per state, too slow)",
                self.chain_states,
                self.unknowns_per_state()
            ));
        }
        t.push('\n');
        if !self.distribution.is_empty() {
            t.push_str("n  P(race ends at toss n)\n");
            for d in &self.distribution {
                t.push_str(&format!(
                    "{} {} ({})\n",
                    d.n,
                    short_fraction(&d.prob),
                    d.prob.decimal()
                ));
            }
        }
        t
    }
}

impl ConwayReport {
    /// One line in words: the odds of the second pattern against the first.
    ///
    /// ```
    /// use grundy_penney::report::{self, RaceOptions};
    /// use grundy_penney::Alphabet;
    ///
    /// let r = report::race(Alphabet::coin(), &["HHH", "THH"], &RaceOptions::default(), &mut |_| {})?;
    /// assert_eq!(r.conway.unwrap().describe_odds(), "odds of THH against HHH: 7 to 1\n");
    /// # Ok::<(), grundy_penney::PenneyError>(())
    /// ```
    pub fn describe_odds(&self) -> String {
        format!(
            "odds of {} against {}: {} to {}\n",
            self.b,
            self.a,
            short_fraction(&self.odds_b_to_a.b),
            short_fraction(&self.odds_b_to_a.a)
        )
    }

    /// One line of text: the leading numbers (bit strings past 40 bits cut, with their length)
    /// and the odds for `B` against `A`.
    ///
    /// ```
    /// use grundy_penney::report::{self, RaceOptions};
    /// use grundy_penney::Alphabet;
    ///
    /// let r = report::race(Alphabet::coin(), &["HHH", "THH"], &RaceOptions::default(), &mut |_| {})?;
    /// assert_eq!(
    ///     r.conway.unwrap().describe(),
    ///     "Conway (A = HHH, B = THH): AA=111 AB=000 BB=100 BA=011; odds B:A = 7:1\n"
    /// );
    /// # Ok::<(), grundy_penney::PenneyError>(())
    /// ```
    pub fn describe(&self) -> String {
        let bits = &self.leading_numbers;
        let short = |b: &str| {
            if b.len() > 40 {
                format!("{}… ({} bits)", &b[..40], b.len())
            } else {
                b.to_string()
            }
        };
        format!(
            "Conway (A = {}, B = {}): AA={} AB={} BB={} BA={}; odds B:A = {}:{}\n",
            self.a,
            self.b,
            short(&bits.aa),
            short(&bits.ab),
            short(&bits.bb),
            short(&bits.ba),
            short_fraction(&self.odds_b_to_a.b),
            short_fraction(&self.odds_b_to_a.a)
        )
    }
}

impl BestReplyReport {
    /// The report as text: the best reply, its chance, the equally good replies and what was
    /// searched.
    ///
    /// ```
    /// use grundy_penney::{report, Alphabet};
    ///
    /// let r = report::best_reply(&Alphabet::coin(), "HHH")?;
    /// assert!(r.describe().starts_with("Best reply to HHH: THH appears first with probability 7/8 (0.875)\n"));
    /// # Ok::<(), grundy_penney::PenneyError>(())
    /// ```
    pub fn describe(&self) -> String {
        let ties = &self.ties[1.min(self.ties.len())..];
        format!(
            "Best reply to {}: {} appears first with probability {} ({}){}\nsearch: {}\n",
            self.pattern,
            self.best_reply,
            short_fraction(&self.win),
            self.win.decimal(),
            if ties.is_empty() {
                String::new()
            } else {
                format!("; equally good: {}", ties.join(" "))
            },
            self.search_description()
        )
    }
}

impl BestFirstReport {
    /// The report as one line of text: the pattern, the chance it guarantees and the reply.
    ///
    /// ```
    /// use grundy_penney::{report, Alphabet};
    ///
    /// let r = report::best_first(&Alphabet::coin(), 2)?;
    /// assert!(r.describe().starts_with("First player's best pattern of length 2: "));
    /// # Ok::<(), grundy_penney::PenneyError>(())
    /// ```
    pub fn describe(&self) -> String {
        format!(
            "First player's best pattern of length {}: {} wins with probability at least {} ({}); the best reply is {}\n",
            self.length,
            self.pattern,
            self.guaranteed,
            self.guaranteed.decimal(),
            self.best_reply
        )
    }
}

impl TableReport {
    /// The table as text: a title, then one row per pattern, columns right-aligned to the
    /// widest entry, `-` on the diagonal.
    ///
    /// ```
    /// use grundy_penney::{report, Alphabet};
    ///
    /// let r = report::table(&Alphabet::coin(), 2)?;
    /// assert_eq!(r.describe().lines().nth(2), Some("HH    - 1/2 3/4 1/2"));
    /// # Ok::<(), grundy_penney::PenneyError>(())
    /// ```
    pub fn describe(&self) -> String {
        let cell = self
            .table
            .iter()
            .flatten()
            .flatten()
            .map(|p| p.to_string().len())
            .chain(self.patterns.iter().map(|n| n.chars().count()))
            .max()
            .unwrap_or(1);
        let mut t = format!(
            "P(column appears before row), patterns of length {}\n{:<cell$}",
            self.length, ""
        );
        for n in &self.patterns {
            t.push_str(&format!(" {n:>cell$}"));
        }
        t.push('\n');
        for (name, row) in self.patterns.iter().zip(&self.table) {
            t.push_str(&format!("{name:<cell$}"));
            for x in row {
                let s = x.as_ref().map_or("-".to_string(), |p| p.to_string());
                t.push_str(&format!(" {s:>cell$}"));
            }
            t.push('\n');
        }
        t
    }
}

impl CycleReport {
    /// The cycle as text, one line per pattern and the chance it beats the one before it, or a
    /// line saying there is none.
    ///
    /// ```
    /// use grundy_penney::{report, Alphabet};
    ///
    /// let r = report::cycle(&Alphabet::coin(), 1)?;
    /// assert_eq!(r.describe(), "No non-transitive cycle of best replies for length 1\n");
    /// # Ok::<(), grundy_penney::PenneyError>(())
    /// ```
    pub fn describe(&self) -> String {
        let Some(c) = &self.cycle else {
            return format!(
                "No non-transitive cycle of best replies for length {}\n",
                self.length
            );
        };
        let mut t = format!(
            "Non-transitive cycle of length-{} patterns (each beats the one before it):\n",
            self.length
        );
        for (k, step) in c.iter().enumerate() {
            let prev = &c[(k + c.len() - 1) % c.len()].pattern;
            t.push_str(&format!(
                "  {} beats {} with probability {} ({})\n",
                step.pattern,
                prev,
                step.beats_previous,
                step.beats_previous.decimal()
            ));
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frac(n: i64, d: u64) -> RBig {
        RBig::from_parts(n.into(), d.into())
    }

    #[test]
    fn decimals() {
        assert_eq!(decimal(&RBig::ZERO), "0");
        assert_eq!(decimal(&frac(1, 2)), "0.5");
        assert_eq!(decimal(&frac(-17, 3)), "-5.6666666667");
        assert_eq!(decimal(&frac(1, 100_000)), "1.000000000e-5");
        let big = RBig::from(UBig::from(10u8).pow(400) * UBig::from(3u8));
        assert_eq!(decimal(&big), "3.000000000e400");
        let tiny = RBig::from_parts(IBig::from(-7), UBig::from(10u8).pow(500));
        assert_eq!(decimal(&tiny), "-7.000000000e-500");
        assert_eq!(Decimal::of(&frac(7, 8)), Decimal::Number(0.875));
        assert_eq!(Decimal::of(&big), Decimal::Text("3.000000000e400".into()));
        assert_eq!(Decimal::of(&RBig::ZERO), Decimal::Number(0.0));
    }

    #[test]
    fn limits_are_errors() {
        let coin = Alphabet::coin();
        let many: Vec<String> = coin
            .all_words(8, 256)
            .unwrap()
            .iter()
            .map(|w| coin.decode(w))
            .collect();
        let none = &mut |_| {};
        assert!(matches!(
            race(coin.clone(), &many, &RaceOptions::default(), none),
            Err(PenneyError::TooLarge(_))
        ));
        let opts = RaceOptions {
            distribution: DISTRIBUTION_LIMIT + 1,
            simulate: None,
        };
        assert!(matches!(
            race(coin.clone(), &["HT"], &opts, none),
            Err(PenneyError::TooLarge(_))
        ));
        let opts = RaceOptions {
            distribution: 0,
            simulate: Some(SimulationRequest {
                trials: SIMULATION_TRIALS_LIMIT,
                seed: 1,
            }),
        };
        assert!(matches!(
            race(coin.clone(), &["HHHHHHHH"], &opts, none),
            Err(PenneyError::TooLarge(_))
        ));
        assert!(table(&coin, 0).is_err());
        assert!(table(&coin, 7).is_err());
        assert!(cycle(&coin, LENGTH_LIMIT + 1).is_err());
        assert!(best_first(&coin, 10).is_err());
        assert!(best_reply(&coin, "HQ").is_err());
    }

    #[test]
    fn search_descriptions() {
        let coin = Alphabet::coin();
        let r = best_reply(&coin, "HHH").unwrap();
        assert_eq!(
            r.search_description(),
            "exhaustive over all 7 other patterns of length 3"
        );
        let r = best_reply(&coin, "HTHTHTHTHTHTHTHTHTHT").unwrap();
        assert_eq!(r.search, ReplySearch::Family);
        assert_eq!(
            r.search_description(),
            "the family x·HTHTHTHTHTHTHTHTHTH (2 candidates)"
        );
    }
}
