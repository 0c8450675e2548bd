//! One row of the `games` table: what a survey knows about one game.

use serde::{Deserialize, Serialize};

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// A period was found: proven (`proven` = 1) where a theorem covers the rule, else
    /// observed (`proven` = 0; rules no theorem covers, such as all-but games).
    Periodic,
    /// No period was proven up to `computed_upto` (the limit or the time budget was reached).
    Unknown,
    /// Equivalent to the game in `equals` (not solved on its own).
    Equivalent,
    /// The game could not be computed (`error` says why, e.g. the memory limit).
    Error,
}

impl Status {
    /// `"periodic"`, `"unknown"`, `"equivalent"` or `"error"`: the text in the table.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Periodic => "periodic",
            Status::Unknown => "unknown",
            Status::Equivalent => "equivalent",
            Status::Error => "error",
        }
    }

    /// The status named by `text` (as stored in the table).
    pub fn from_text(text: &str) -> Option<Status> {
        match text {
            "periodic" => Some(Status::Periodic),
            "unknown" => Some(Status::Unknown),
            "equivalent" => Some(Status::Equivalent),
            "error" => Some(Status::Error),
            _ => None,
        }
    }
}

/// One game's row, exactly the columns of the `games` table (the JSON of a row uses the same
/// names; `proven` is 0 or 1 as in the table, absent values are null).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRow {
    /// The rule (primary key), spelled as `grundy heap` reads it.
    pub rule: String,
    /// Where it stands.
    pub status: Status,
    /// With a period: the first heap of the periodic part.
    pub preperiod: Option<u64>,
    /// The smallest period, when found.
    pub period: Option<u64>,
    /// 1 when the period is proven, 0 when only observed; null without a period.
    pub proven: Option<u8>,
    /// The last heap computed: G(0..=computed_upto) are known.
    pub computed_upto: Option<u64>,
    /// The largest value among G(0..=computed_upto).
    pub max_value: Option<u64>,
    /// Rare heaps (values outside the common pattern), when the record engine ran.
    pub rare_values: Option<u64>,
    /// For an equivalent game: the game it equals.
    pub equals: Option<String>,
    /// Seconds spent computing (wall clock; the one column that differs between two runs).
    pub seconds: Option<f64>,
    /// `"reference"` or `"sparse"`: the engine that computed the values.
    pub engine: Option<String>,
    /// For an equivalent game: G(n) = G_equals(n + shift) (0 where n + shift < 0), the sign
    /// of a named game's shift.
    pub shift: Option<i64>,
    /// With a period: G(n + period) = G(n) + saltus beyond the preperiod (0 for octal codes).
    pub saltus: Option<i64>,
    /// The family whose survey wrote the row first.
    pub family: Option<String>,
    /// For an `error` row: why.
    pub error: Option<String>,
    /// With `--misere` (schema version 3): the heap bound of the misère quotient.
    #[serde(default)]
    pub misere_upto: Option<u64>,
    /// |Q|, the order of the misère quotient for heaps up to `misere_upto` (also the size
    /// reached when it did not converge).
    #[serde(default)]
    pub misere_order: Option<u64>,
    /// |P|, the size of its P-portion.
    #[serde(default)]
    pub misere_p: Option<u64>,
    /// 1 when the quotient is tame (that of misère Nim, T_k), else 0.
    #[serde(default)]
    pub misere_tame: Option<u8>,
    /// `"quotient"` (found and verified up to `misere_upto`), `"not converged"` (it grew past
    /// the size cap: it may be infinite), `"budget"` (a search or verification budget ran
    /// out) or `"error"`; `misere_order` and `misere_p` are then those of the last heap
    /// reached, and `misere_upto` that heap.
    #[serde(default)]
    pub misere_status: Option<String>,
}

impl GameRow {
    /// A row with only the rule and status set.
    pub fn new(rule: impl Into<String>, status: Status) -> GameRow {
        GameRow {
            rule: rule.into(),
            status,
            preperiod: None,
            period: None,
            proven: None,
            computed_upto: None,
            max_value: None,
            rare_values: None,
            equals: None,
            seconds: None,
            engine: None,
            shift: None,
            saltus: None,
            family: None,
            error: None,
            misere_upto: None,
            misere_order: None,
            misere_p: None,
            misere_tame: None,
            misere_status: None,
        }
    }

    /// True when a later survey need not touch the game again up to `upto`: periodic,
    /// equivalent, or unknown having reached `upto`.
    pub fn is_finished(&self, upto: u64) -> bool {
        self.is_finished_with(upto, None)
    }

    /// [`GameRow::is_finished`], and with `misere` = Some(bound) also a misère quotient
    /// recorded to that bound (or one that stopped for good: not converged, an error).
    pub fn is_finished_with(&self, upto: u64, misere: Option<u64>) -> bool {
        if let Some(bound) = misere {
            if self.status != Status::Equivalent {
                let done = match self.misere_status.as_deref() {
                    Some("quotient") => self.misere_upto.is_some_and(|u| u >= bound),
                    Some("not converged") | Some("error") => true,
                    _ => false,
                };
                if !done {
                    return false;
                }
            }
        }
        match self.status {
            Status::Periodic | Status::Equivalent => true,
            Status::Unknown => self.computed_upto.is_some_and(|n| n >= upto),
            Status::Error => false,
        }
    }
}
