//! `POST /api/script`: a game written in Lua on the page, analysed and tabulated, and the
//! limits every script posted to the server runs under (here and in `POST /api/play`).

use std::time::Duration;

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::errors::{ApiError, ApiResult};
use crate::params::{json_body, BodyBytes};
use crate::pools::{Attempt, Start};
use crate::AppState;

/// Largest `upto` of a script (every position runs Lua).
pub const SCRIPT_UPTO: u64 = 10_000;

/// The name scripts run under (in their error messages).
pub const SCRIPT_NAME: &str = "script.lua";

/// The Lua memory of a script's full attempt; its cheap attempt has a quarter.
const SCRIPT_MEMORY: usize = 64 << 20;

/// The positions a script's full attempt may value.
const SCRIPT_POSITIONS: u64 = 1_000_000;

/// The limits a script posted to the server runs under in `attempt`: 10^7 Lua steps a call,
/// the attempt's time (less a margin to answer in, on the full attempt) and positions (at most
/// 10^6), and 64 MiB of Lua memory (16 MiB on the cheap attempt, whose every limit moves the
/// script to the expensive pool).
pub fn script_limits(attempt: &Attempt) -> grundy::script::Limits {
    let (time, memory) = if attempt.is_cheap() {
        (attempt.time, SCRIPT_MEMORY / 4)
    } else {
        let margin = (attempt.time / 10).min(Duration::from_millis(100));
        (attempt.time.saturating_sub(margin), SCRIPT_MEMORY)
    };
    grundy::script::Limits {
        steps_per_call: 10_000_000,
        setup_steps: 10_000_000,
        memory,
        budget: grundy::catalogue::Budget {
            max_positions: attempt.budget.max_positions.min(SCRIPT_POSITIONS),
            ..grundy::catalogue::Budget::DEFAULT
        },
        time_limit: Some(time),
    }
}

/// The body of `POST /api/script`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ScriptRequest {
    /// The Lua source.
    source: String,
    /// Positions (Lua literals) played side by side, e.g. `"7 9 12"` or `"{3, 3}"`.
    #[serde(default)]
    position: Option<String>,
    /// Values of the positions 0..=upto.
    #[serde(default)]
    upto: Option<u64>,
    /// Misère play for `position`.
    #[serde(default)]
    misere: bool,
}

/// The answer of `POST /api/script`: the CLI's `grundy script FILE POSITION… --json`
/// (`analysis`) and `grundy script FILE --upto N --json` (`sequence`), each when asked.
#[derive(Serialize)]
struct ScriptReply {
    game: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    analysis: Option<grundy::script::ScriptAnalysis>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sequence: Option<grundy::script::ScriptSequence>,
}

impl ScriptRequest {
    /// The analysis and the sequence asked for, within `attempt`.
    fn run(&self, attempt: &Attempt) -> ApiResult<ScriptReply> {
        use grundy::script::{parse_position, Play, Script};
        // A script's errors keep the line they are at (`ApiError::line`).
        let script = Script::load(SCRIPT_NAME, &self.source, script_limits(attempt))?;
        let mut session = script.session()?;
        let analysis = match self.position.as_deref().map(str::trim) {
            Some(p) if !p.is_empty() => {
                let parts = match parse_position(p) {
                    Ok(one) => vec![one],
                    Err(e) => p
                        .split_whitespace()
                        .map(parse_position)
                        .collect::<Result<Vec<_>, _>>()
                        .map_err(|_| ApiError::bad(format!("position: {e}")))?,
                };
                let play = Play::from_misere(self.misere);
                Some(session.analyze(&parts, play)?)
            }
            _ => None,
        };
        let sequence = match self.upto {
            Some(n) => Some(session.sequence(n)?),
            None => None,
        };
        Ok(ScriptReply {
            game: script.title().to_string(),
            analysis,
            sequence,
        })
    }
}

/// `POST /api/script` `{"source", "position"?, "upto"?, "misere"?}`.
pub async fn script(State(s): State<AppState>, body: BodyBytes) -> Response {
    let req = (|| {
        let req: ScriptRequest = json_body(body, "{\"source\", \"position\", \"upto\"}")?;
        if req.upto.is_some_and(|n| n > SCRIPT_UPTO) {
            return Err(ApiError::limit(format!(
                "upto: at most {SCRIPT_UPTO} for a script here"
            )));
        }
        Ok(req)
    })();
    match req {
        Ok(req) => {
            let key =
                crate::pools::key(&("script", &req.source, &req.position, req.upto, req.misere));
            s.pools.run(Start::Cheap, key, move |a| req.run(a)).await
        }
        Err(e) => e.into_response(),
    }
}
