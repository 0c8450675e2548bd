//! Sequences G(0..=n) and periods: the engine chosen for the rule and the size, the proven
//! period used where it saves computing, and the sentences that describe them.

use serde::Serialize;

use grundy_heap::periodicity::{self, Periodicity, Status};
use grundy_heap::rule::{format_code, Rule};

use crate::compute::{Compute, EngineChoice, EngineUsed};
use crate::engines::{
    self, check_sparse, engine_for, proof_limit, proving_engine, SequenceEngine as _,
};
use crate::error::{Error, Result};

/// [`find_period`]: how far to compute for a rule whose period a theorem can prove (stopping
/// as soon as it is proven).
pub const DEFAULT_PROOF_LIMIT: u64 = 1 << 22;
/// [`find_period`]: how far to look for a rule that no theorem covers (the period can then
/// only be observed).
pub const DEFAULT_OBSERVE_UPTO: u64 = 10_000;
/// Heaps computed when the caller gives no count.
pub const DEFAULT_UPTO: u64 = 100;
/// [`sequence`] answers from a proven period, instead of computing every value, from this
/// many heaps on (below, computing them all takes moments).
pub const PERIOD_SHORTCUT_FROM: u64 = 1 << 16;

/// G(0..=upto) of a rule and the period found in it.
///
/// Serialized: `{"rule", "code", "shift", "upto", "values", "period": {"period", "preperiod",
/// "saltus", "status"}, "engine"}`, where `status` is `"proven"`, `"observed"` or `"none"` (then
/// the other three are null).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Sequence {
    /// The rule as the user can type it again.
    pub rule: String,
    /// Its take-and-break code, when it has one (CGSuite notation).
    pub code: Option<String>,
    /// Named games count heaps differently from their code: G(n) = G_code(n + shift).
    #[serde(serialize_with = "grundy_heap::json_int::serialize")]
    pub shift: u64,
    /// The last heap whose value is given: G(0..=upto).
    #[serde(serialize_with = "grundy_heap::json_int::serialize")]
    pub upto: u64,
    /// The last heap the engine computed, when it is below `upto`: the values past it follow
    /// from the proven period (G(n + period) = G(n) + saltus from the preperiod on), not from
    /// computing each one (see [`PERIOD_SHORTCUT_FROM`]). Serialized only then.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "grundy_heap::json_int::option"
    )]
    pub computed_upto: Option<u64>,
    /// G(0), G(1), …, G(upto). Left out of the JSON when a front end took them elsewhere (the
    /// CLI's `--values FILE`) and left this empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<u32>,
    /// The smallest period, when one was found.
    #[serde(serialize_with = "serialize_period")]
    pub period: Option<Periodicity>,
    /// Which engine computed the values.
    pub engine: EngineUsed,
}

/// The JSON `period` object: always an object, `status` `"none"` when no period was found.
pub(crate) fn serialize_period<S: serde::Serializer>(
    p: &Option<Periodicity>,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    use serde::ser::SerializeStruct;
    let mut st = s.serialize_struct("Period", 4)?;
    st.serialize_field("period", &p.map(|p| p.period))?;
    st.serialize_field("preperiod", &p.map(|p| p.preperiod))?;
    st.serialize_field("saltus", &p.map(|p| p.saltus))?;
    st.serialize_field("status", p.map_or("none", |p| p.status.as_str()))?;
    st.end()
}

impl Sequence {
    pub(crate) fn new(
        rule: &Rule,
        values: Vec<u32>,
        period: Option<Periodicity>,
        engine: EngineUsed,
    ) -> Self {
        Sequence {
            rule: rule.to_string(),
            code: rule.take_break().map(|c| format_code(&c)),
            shift: rule.base_and_shift().1,
            upto: values.len().saturating_sub(1) as u64,
            computed_upto: None,
            values,
            period,
            engine,
        }
    }

    /// When the values past some heap came from the proven period rather than the engine, a
    /// sentence saying so: `values past heap 4096 follow from the proven period (G(0..=4096)
    /// were computed)`.
    pub fn describe_shortcut(&self) -> Option<String> {
        let c = self.computed_upto?;
        let p = self.period.as_ref()?;
        let saltus = if p.saltus != 0 {
            format!(" + {}", p.saltus)
        } else {
            String::new()
        };
        Some(format!(
            "values past heap {c} follow from the proven period (G(n + {}) = G(n){saltus} for n >= {}); G(0..={c}) were computed",
            p.period, p.preperiod
        ))
    }
}

/// G(0..=n) of `rule` in its natural heap sizes, by the engine `c` asks for (or the best one),
/// with the period found in them.
///
/// With the engine chosen for you ([`EngineChoice::Auto`]) and from [`PERIOD_SHORTCUT_FROM`]
/// heaps on, a rule that a theorem covers is first computed until its period is proven (up to
/// a quarter of `n`, at most [`DEFAULT_PROOF_LIMIT`]); once it is, the values past the heaps
/// computed follow from the period ([`Sequence::computed_upto`] says where) instead of being
/// computed one by one. A named engine computes every value.
pub fn sequence(rule: &Rule, n: u64, c: &mut Compute<'_>) -> Result<Sequence> {
    check_sparse(rule, c.engine)?;
    if c.engine == EngineChoice::Auto && n >= PERIOD_SHORTCUT_FROM {
        if let Some(seq) = by_period(rule, n, c)? {
            return Ok(seq);
        }
    }
    c.check_memory(engines::memory_estimate(rule, n), &format!("G(0..={n})"))?;
    let (values, engine) = values(rule, n, c)?;
    let period = periodicity::analyze(rule, &values);
    Ok(Sequence::new(rule, values, period, engine))
}

/// G(0..=n) of `rule` from a prefix computed until its period is proven, extended by the
/// period; `None` when no theorem covers the rule or no period was proven in the prefix.
///
/// The prefix is computed on the rule's code (a named game's values are the code's from heap
/// `shift` on), so that a splitting code runs on the sparse engine whatever its shift.
fn by_period(rule: &Rule, n: u64, c: &mut Compute<'_>) -> Result<Option<Sequence>> {
    if periodicity::rule_bound(rule).is_none() {
        return Ok(None);
    }
    // The values handed back take 4 bytes a heap: refuse at once what cannot be held.
    c.check_memory(
        n.saturating_add(1).saturating_mul(4),
        &format!("G(0..={n})"),
    )?;
    let (base, shift) = rule.base_and_shift();
    let base = base.clone();
    let Some(m) = n.checked_add(shift) else {
        return Ok(None);
    };
    let limit = proof_limit(&base, c.engine, (m / 4).min(DEFAULT_PROOF_LIMIT));
    let prefix = until_proven(&base, 1024.min(limit), limit, c)?;
    let Some(p) = prefix.period.filter(|p| p.status == Status::Proven) else {
        return Ok(None);
    };
    let known = prefix.values.len() as u64;
    if known > m || known <= shift || known < p.preperiod.saturating_add(p.period) {
        // The prefix already reaches n, or (never for a proven period) does not hold a whole
        // period past the preperiod: compute every value instead.
        return Ok(None);
    }
    let len = usize::try_from(m + 1)
        .map_err(|_| Error::Invalid(format!("{n} heaps do not fit this machine")))?;
    let mut values = prefix.values;
    values.reserve_exact(len - values.len());
    let period = usize::try_from(p.period).unwrap_or(usize::MAX);
    let saltus = u32::try_from(p.saltus).ok();
    for h in values.len()..len {
        // h >= known >= preperiod + period: G(h) = G(h - period) + saltus.
        let v = saltus.and_then(|s| values[h - period].checked_add(s));
        let Some(v) = v else {
            return Err(Error::Invalid(format!(
                "G({h}) of {rule} is larger than 2^32: too large to list"
            )));
        };
        values.push(v);
    }
    values.drain(..shift as usize);
    let computed = known - 1 - shift;
    // The period in the rule's own heap counting, as `sequence` reports it.
    let found = periodicity::analyze(rule, &values[..=computed as usize]);
    if !found.is_some_and(|f| f.status == Status::Proven) {
        return Ok(None);
    }
    let mut seq = Sequence::new(rule, values, found, prefix.engine);
    seq.computed_upto = Some(computed);
    Ok(Some(seq))
}

/// G(0..=n), and the engine that computed it.
pub(crate) fn values(rule: &Rule, n: u64, c: &mut Compute<'_>) -> Result<(Vec<u32>, EngineUsed)> {
    values_of(rule, n, None, c)
}

/// G(h) for each heap h of `at` (each at most `n`), and the engine that computed them: the
/// record engine's own table is read, no copy of G(0..=n) made.
pub(crate) fn values_at(
    rule: &Rule,
    n: u64,
    at: &[u64],
    c: &mut Compute<'_>,
) -> Result<(Vec<u32>, EngineUsed)> {
    values_of(rule, n, Some(at), c)
}

/// [`values`] (G(0..=n)) or, given the heaps `at`, [`values_at`].
fn values_of(
    rule: &Rule,
    n: u64,
    at: Option<&[u64]>,
    c: &mut Compute<'_>,
) -> Result<(Vec<u32>, EngineUsed)> {
    let shift = rule.base_and_shift().1;
    let m = n
        .checked_add(shift)
        .ok_or_else(|| Error::Invalid(format!("{n} heaps is too many")))?;
    let engine = engine_for(rule, c.engine, n);
    if engine.used() == EngineUsed::Sparse {
        let threads = c.threads;
        let mut tick = c.ticker(m.saturating_add(1));
        let v = match at {
            Some(at) => engine.values_at(n, at, threads, &mut tick)?,
            None => engine.values(n, threads, &mut tick)?,
        };
        if let Some(v) = v {
            return Ok((v, EngineUsed::Sparse));
        }
    }
    let reference = engines::Reference { rule };
    let mut tick = c.ticker(n.saturating_add(1));
    let v = match at {
        Some(at) => reference.values_at(n, at, 0, &mut tick)?,
        None => reference.values(n, 0, &mut tick)?,
    }
    .ok_or_else(|| Error::Invalid(format!("G(0..={n}) of {rule}: no engine")))?;
    Ok((v, EngineUsed::Reference))
}

/// Computes G(0..=n) for n = `start`, 2·`start`, … up to `limit` until a theorem proves the
/// period (or once, for rules no theorem covers). The sparse engine continues where it
/// stopped, so the doubling costs nothing extra there.
pub fn until_proven(rule: &Rule, start: u64, limit: u64, c: &mut Compute<'_>) -> Result<Sequence> {
    check_sparse(rule, c.engine)?;
    let limit = limit.max(start);
    c.check_memory(
        engines::memory_estimate(rule, limit),
        &format!("G(0..={limit})"),
    )?;
    let engine = proving_engine(rule, c.engine, limit);
    let threads = c.threads;
    let mut tick = c.ticker(limit.saturating_add(1));
    let (v, p) = engine.until_proven(start, limit, threads, &mut tick)?;
    Ok(Sequence::new(rule, v, p, engine.used()))
}

/// "What is the period of this rule?": computes until a theorem proves it, up to
/// [`DEFAULT_PROOF_LIMIT`] heaps; for a rule no theorem covers, looks at
/// [`DEFAULT_OBSERVE_UPTO`] heaps and reports what they show (an observed period, or none).
/// Either bound shrinks where the plain engines would need more than
/// [`DEFAULT_WORK_BUDGET`](crate::DEFAULT_WORK_BUDGET) moves to reach it (a rule that splits
/// heaps in three is cubic).
pub fn find_period(rule: &Rule, c: &mut Compute<'_>) -> Result<Sequence> {
    if periodicity::rule_bound(rule).is_some() {
        let limit = proof_limit(rule, c.engine, DEFAULT_PROOF_LIMIT);
        until_proven(rule, DEFAULT_UPTO.min(limit), limit, c)
    } else {
        // No theorem: look as far as the work budget allows (a cubic rule sees fewer heaps).
        sequence(rule, proof_limit(rule, c.engine, DEFAULT_OBSERVE_UPTO), c)
    }
}

/// A one-line description of a rule: `code 0.137`, `sub:1,3,4 (code 0.3033)`,
/// `kayles (pins in a row; 0.77)`.
pub fn describe_rule(rule: &Rule) -> String {
    let (_, shift) = rule.base_and_shift();
    let code = rule.take_break().map(|c| format_code(&c));
    match (rule, code) {
        (Rule::Code(_), _) => format!("code {rule}"),
        (Rule::Named { game, .. }, _) if shift > 0 => {
            format!(
                "{} ({}; G(n) = G_{}(n + {shift}))",
                game.name, game.size, game.rule
            )
        }
        (Rule::Named { game, .. }, _) => format!("{} ({}; {})", game.name, game.size, game.rule),
        (_, Some(c)) => format!("{rule} (code {c})"),
        (_, None) => rule.to_string(),
    }
}

/// One sentence on a period found in G(0..=n): what it is and how sure.
pub fn describe_period(rule: &Rule, p: Option<&Periodicity>, n: u64) -> String {
    let Some(p) = p else {
        return format!("no period found in G(0..{n})");
    };
    let saltus = if p.saltus != 0 {
        format!(", saltus {}", p.saltus)
    } else {
        String::new()
    };
    let why = match p.status {
        Status::Proven => {
            match periodicity::rule_bound(rule).map(|b| b.bound(p.preperiod, p.period)) {
                Some(b) => format!(
                    "proven: the Guy–Smith check holds for {} <= n < {b}",
                    p.preperiod
                ),
                None => "proven".into(),
            }
        }
        Status::Observed => format!("observed up to {n}, not proven"),
    };
    format!(
        "period {}, preperiod {}{saltus} ({why})",
        p.period, p.preperiod
    )
}
