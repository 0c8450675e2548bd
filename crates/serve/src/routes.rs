//! The handlers: each reads its request ([`crate::params`]), refuses bad input with a 4xx
//! before any worker is taken, and hands one library call to the pools ([`crate::pools`]).
//!
//! One door per question: `/api/analyze` (GET, or POST for large positions) is the registry's
//! [`Registry::ask`]; `/api/nim`, `/api/wythoff`, `/api/fib` and `/api/heap/analyze` are
//! aliases that build the same question from their own parameters ([`Question`]) and answer the
//! same JSON. What is not a game position (sequences, quotients, races) has its own endpoint.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use grundy::catalogue::{Detail, Play, Registry, Settings};
use grundy::heap;
use serde::Serialize;

use crate::errors::{ApiError, ApiResult};
use crate::params::{
    count, flag, flag_text, json_body, list, only, params, query_key, required, setting_text,
    BodyBytes, Params,
};
use crate::pools::{json_bytes, Attempt, Start};
use crate::AppState;

/// One question to the registry, as `/api/analyze` and its aliases read it: the game, the
/// position, the play, how much of the moves, and the game's own params.
#[derive(Clone, Debug)]
pub struct Question {
    game: String,
    position: String,
    play: Play,
    detail: Detail,
    settings: Settings,
}

/// The names `/api/analyze` reads itself; any other is one of the game's params.
const ANALYZE_NAMES: [&str; 4] = ["game", "position", "misere", "moves"];

impl Question {
    /// A question about `position` of `game`, with the default detail and no setting.
    fn new(game: &str, position: impl Into<String>, misere: bool) -> Question {
        Question {
            game: game.to_string(),
            position: position.into(),
            play: Play::from_misere(misere),
            detail: Detail::default(),
            settings: Settings::new(),
        }
    }

    /// Reads the `moves` parameter (`value`, `winning` or `all`) when given.
    fn moves(mut self, moves: Option<&str>) -> ApiResult<Question> {
        if let Some(m) = moves {
            self.detail = m.parse::<Detail>().map_err(grundy::Error::from)?;
        }
        Ok(self)
    }

    /// The game's params given, checked against what its entry declares for a server: an
    /// unknown param, or one offered only on the user's own machine ([`grundy::catalogue::Param::local`]),
    /// is a 400 naming it.
    fn checked(self, registry: &Registry) -> ApiResult<Question> {
        let info = registry.find(&self.game)?.info();
        self.settings
            .check_remote(&info.params)
            .map_err(grundy::Error::from)?;
        Ok(self)
    }

    /// The question's key for the pools' memory of expensive questions: the same question by
    /// any door has the same key.
    fn key(&self) -> u64 {
        let settings: Vec<(&str, &str)> = self.settings.iter().collect();
        crate::pools::key(&(
            "analyze",
            self.game.trim().to_ascii_lowercase(),
            &self.position,
            self.play.is_misere(),
            self.detail,
            settings,
        ))
    }

    /// The registry's answer within `attempt`.
    fn ask(&self, registry: &Registry, attempt: &Attempt) -> ApiResult<grundy::catalogue::Report> {
        let ask = attempt
            .ask(self.play, self.detail)
            .settings(self.settings.clone());
        Ok(registry.ask(&self.game, &self.position, &ask)?)
    }
}

/// Answers `q` (checked first) through the pools: a cheap attempt, then the expensive pool if
/// it outgrows it.
async fn answer(s: &AppState, q: ApiResult<Question>) -> Response {
    let q = match q.and_then(|q| q.checked(&s.registry)) {
        Ok(q) => q,
        Err(e) => return e.into_response(),
    };
    let registry = s.registry.clone();
    let key = q.key();
    s.pools
        .run(Start::Cheap, key, move |a| q.ask(&registry, a))
        .await
}

/// `GET /api/analyze?game=G&position=P[&misere=true][&moves=value|winning|all][&PARAM=…]`:
/// the object of `grundy analyze G P --json`; any other parameter is one of the game's own
/// params (`Info::params`).
pub async fn analyze(State(s): State<AppState>, q: Params) -> Response {
    let question = (|| {
        let q = params(q)?;
        let mut question = Question::new(
            required(&q, "game")?,
            required(&q, "position")?,
            flag(&q, "misere")?,
        )
        .moves(q.get("moves").map(String::as_str))?;
        for (k, v) in &q {
            if !ANALYZE_NAMES.contains(&k.as_str()) {
                question.settings.set(k.clone(), v.clone());
            }
        }
        Ok(question)
    })();
    answer(&s, question).await
}

/// `POST /api/analyze` with `{"game", "position", "misere"?, "moves"?, PARAM…}`: the same as
/// the GET, for positions too large for a URL (a Hackenbush tree of 10^4 edges).
pub async fn analyze_post(State(s): State<AppState>, body: BodyBytes) -> Response {
    let question = (|| {
        let fields: serde_json::Map<String, serde_json::Value> = json_body(
            body,
            "an object {\"game\", \"position\", \"misere\"?, \"moves\"?, PARAM…}",
        )?;
        let text = |name: &str| -> ApiResult<Option<String>> {
            fields.get(name).map(|v| setting_text(name, v)).transpose()
        };
        let game = text("game")?.ok_or_else(|| ApiError::bad("missing 'game'"))?;
        let position = text("position")?.ok_or_else(|| ApiError::bad("missing 'position'"))?;
        let misere = flag_text("misere", text("misere")?.as_deref())?;
        let mut question =
            Question::new(&game, position, misere).moves(text("moves")?.as_deref())?;
        for (k, v) in &fields {
            if !ANALYZE_NAMES.contains(&k.as_str()) {
                question.settings.set(k.clone(), setting_text(k, v)?);
            }
        }
        Ok(question)
    })();
    answer(&s, question).await
}

/// Heaps given as a list (`3,4,5` or `3 4 5`), as a position's text.
fn heaps_text(q: &HashMap<String, String>, example: &str) -> ApiResult<String> {
    let heaps = list(required(q, "heaps")?);
    if heaps.is_empty() {
        return Err(ApiError::bad(format!("no heaps given (heaps={example})")));
    }
    Ok(heaps.join(" "))
}

/// `GET /api/nim?heaps=3,4,5[&misere=true][&moves=…]`: an alias of `/api/analyze?game=nim`.
pub async fn nim(State(s): State<AppState>, q: Params) -> Response {
    let question = (|| {
        let q = params(q)?;
        only(&q, &["heaps", "misere", "moves"])?;
        Question::new("nim", heaps_text(&q, "3,4,5")?, flag(&q, "misere")?)
            .moves(q.get("moves").map(String::as_str))
    })();
    answer(&s, question).await
}

/// `GET /api/heap/analyze?rule=R&heaps=7,9,12[&misere=true][&moves=…]`: an alias of
/// `/api/analyze?game=R` (every heap rule is a game of the registry).
pub async fn heap_analyze(State(s): State<AppState>, q: Params) -> Response {
    let question = (|| {
        let q = params(q)?;
        only(&q, &["rule", "heaps", "misere", "moves"])?;
        Question::new(
            required(&q, "rule")?,
            heaps_text(&q, "7,9,12")?,
            flag(&q, "misere")?,
        )
        .moves(q.get("moves").map(String::as_str))
    })();
    answer(&s, question).await
}

/// `GET /api/wythoff?a=3&b=5[&moves=…]`: an alias of `/api/analyze?game=wythoff&position=3 5`.
pub async fn wythoff(State(s): State<AppState>, q: Params) -> Response {
    let question = (|| {
        let q = params(q)?;
        only(&q, &["a", "b", "moves"])?;
        let position = format!("{} {}", required(&q, "a")?, required(&q, "b")?);
        Question::new("wythoff", position, false).moves(q.get("moves").map(String::as_str))
    })();
    answer(&s, question).await
}

/// `GET /api/fib?n=1000[&limit=L][&k=K][&moves=…]`: an alias of
/// `/api/analyze?game=fib&position=1000[&limit=L][&k=K]`.
pub async fn fib(State(s): State<AppState>, q: Params) -> Response {
    let question = (|| {
        let q = params(q)?;
        only(&q, &["n", "limit", "k", "moves"])?;
        let mut question = Question::new("fib", required(&q, "n")?, false)
            .moves(q.get("moves").map(String::as_str))?;
        for p in ["limit", "k"] {
            if let Some(v) = q.get(p) {
                question.settings.set(p, v.clone());
            }
        }
        Ok(question)
    })();
    answer(&s, question).await
}

/// `GET /api/heap?rule=R[&upto=N][&period=true]`: `grundy heap R --upto N --json` (or
/// `--period`).
pub async fn heap_sequence(State(s): State<AppState>, q: Params) -> Response {
    let max_upto = s.config.max_upto;
    let req = (|| {
        let q = params(q)?;
        only(&q, &["rule", "upto", "period"])?;
        let key = query_key("heap", &q);
        let rule = heap::parse(required(&q, "rule")?).map_err(|e| ApiError::bad(e.to_string()))?;
        let upto = count(&q, "upto")?;
        if let Some(n) = upto.filter(|&n| n > max_upto) {
            return Err(ApiError::limit(format!(
                "upto {n} is more than this server computes ({max_upto})"
            )));
        }
        Ok((rule, upto, flag(&q, "period")?, key))
    })();
    let (rule, upto, period, key) = match req {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    s.pools
        .run(Start::Cheap, key, move |a| {
            let mut c = a.compute();
            Ok(match upto {
                None if period => heap::find_period(&rule, &mut c)?,
                n => heap::sequence(&rule, n.unwrap_or(heap::DEFAULT_UPTO), &mut c)?,
            })
        })
        .await
}

/// The largest heap bound `/api/misere/quotient` takes.
pub const MISERE_MAX_UPTO: u64 = 24;

/// The budget of `/api/misere/quotient`: small, so that one request cannot hold a worker for
/// long (a quotient past it is a 422 saying which limit was reached).
pub const MISERE_LIMITS: grundy::misere::quotient::Limits = grundy::misere::quotient::Limits {
    max_order: 128,
    max_search: 200_000,
    max_verify: 200_000,
};

/// The budget of a quotient's cheap attempt: a tenth of the searches of [`MISERE_LIMITS`].
const MISERE_CHEAP_LIMITS: grundy::misere::quotient::Limits = grundy::misere::quotient::Limits {
    max_order: 128,
    max_search: 20_000,
    max_verify: 20_000,
};

/// `GET /api/misere/quotient?rule=R&upto=N`: `grundy misere quotient R --upto N --json` plus
/// `"table"`, the multiplication table (`table[x][y]` indexes `elements`).
pub async fn misere_quotient(State(s): State<AppState>, q: Params) -> Response {
    use grundy::misere::quotient::QuotientEngine;
    let req = (|| {
        let q = params(q)?;
        only(&q, &["rule", "upto"])?;
        let key = query_key("quotient", &q);
        let rule = required(&q, "rule")?.to_string();
        let upto = grundy::input::parse_count(required(&q, "upto")?)
            .map_err(|e| ApiError::bad(format!("upto: {e}")))?;
        if upto > MISERE_MAX_UPTO {
            return Err(ApiError::limit(format!(
                "upto {upto} is more than this server computes for a misère quotient ({MISERE_MAX_UPTO})"
            )));
        }
        // bad rules are refused before a worker is taken
        QuotientEngine::new(&rule, MISERE_LIMITS).map_err(|e| ApiError::bad(e.to_string()))?;
        Ok((rule, upto, key))
    })();
    let (rule, upto, key) = match req {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    s.pools
        .run(Start::Cheap, key, move |a| {
            let limits = if a.is_cheap() {
                MISERE_CHEAP_LIMITS
            } else {
                MISERE_LIMITS
            };
            let mut e =
                QuotientEngine::new(&rule, limits).map_err(|e| ApiError::bad(e.to_string()))?;
            // One heap at a time, the stop flag looked at between them.
            for k in 0..=upto {
                if a.stopped() {
                    return Err(a.stopped_error());
                }
                e.extend_to(k).map_err(|err| {
                    let err = grundy::Error::from(err);
                    if err.is_limit() {
                        let e =
                            ApiError::limit(format!("limit: {err} (reached heap {})", e.upto()));
                        if a.is_cheap() {
                            e.outgrown()
                        } else {
                            e
                        }
                    } else {
                        ApiError::from(err)
                    }
                })?;
            }
            let q = e.quotient();
            let mut v = serde_json::to_value(&q).map_err(|e| ApiError::internal(e.to_string()))?;
            v["table"] = serde_json::json!(q.table());
            Ok(v)
        })
        .await
}

/// The most patterns `/api/penney` races, and their longest length.
pub const PENNEY_PATTERNS: usize = 16;
/// See [`PENNEY_PATTERNS`].
pub const PENNEY_LENGTH: usize = 32;

/// `GET /api/penney?patterns=HTH,THH[&alphabet=][&prob=][&simulate=T&seed=S]` (or
/// `?best_reply=P`): `grundy penney … --json`. A simulation cannot be stopped and its size is
/// known: it starts on the expensive pool.
pub async fn penney(State(s): State<AppState>, q: Params) -> Response {
    use grundy::penney::report::{self, RaceOptions, SimulationRequest};
    let max_sim = s.config.max_simulate;
    let q = match params(q) {
        Ok(q) => q,
        Err(e) => return e.into_response(),
    };
    if q.contains_key("best_reply") {
        return best_reply(&s, q).await;
    }
    let req = (|| {
        only(&q, &["patterns", "alphabet", "prob", "simulate", "seed"])?;
        let patterns: Vec<String> = list(required(&q, "patterns")?)
            .into_iter()
            .map(String::from)
            .collect();
        if patterns.is_empty() {
            return Err(ApiError::bad("no patterns given (patterns=HTH,THH)"));
        }
        if patterns.len() > PENNEY_PATTERNS
            || patterns.iter().any(|p| p.chars().count() > PENNEY_LENGTH)
        {
            return Err(ApiError::limit(format!(
                "at most {PENNEY_PATTERNS} patterns of at most {PENNEY_LENGTH} symbols here"
            )));
        }
        let al = grundy::penney::Alphabet::from_spec(
            q.get("alphabet").map(String::as_str),
            q.get("prob").map(String::as_str),
        )?;
        let trials = count(&q, "simulate")?;
        if trials.is_some_and(|t| t > max_sim) {
            return Err(ApiError::limit(format!(
                "simulate: at most {max_sim} races here"
            )));
        }
        let seed = count(&q, "seed")?;
        if seed.is_some() && trials.is_none() {
            return Err(ApiError::bad("seed needs simulate"));
        }
        let options = RaceOptions {
            distribution: 0,
            simulate: trials.map(|trials| SimulationRequest {
                trials,
                seed: seed.unwrap_or(1),
            }),
        };
        Ok((al, patterns, options))
    })();
    let (al, patterns, options) = match req {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    let start = if options.simulate.is_some() {
        Start::Expensive
    } else {
        Start::Cheap
    };
    s.pools
        .run(start, query_key("penney", &q), move |_| {
            Ok(report::race(al.clone(), &patterns, &options, &mut |_| {})?)
        })
        .await
}

/// `/api/penney?best_reply=HTH`: the second player's best answer to a pattern.
async fn best_reply(s: &AppState, q: HashMap<String, String>) -> Response {
    let req = (|| {
        only(&q, &["best_reply", "alphabet", "prob"])?;
        let p = required(&q, "best_reply")?.trim().to_string();
        if p.chars().count() > PENNEY_LENGTH {
            return Err(ApiError::limit(format!(
                "best_reply: at most {PENNEY_LENGTH} symbols here"
            )));
        }
        let al = grundy::penney::Alphabet::from_spec(
            q.get("alphabet").map(String::as_str),
            q.get("prob").map(String::as_str),
        )?;
        Ok((al, p))
    })();
    match req {
        Ok((al, p)) => {
            s.pools
                .run(Start::Cheap, query_key("best_reply", &q), move |_| {
                    Ok(grundy::penney::report::best_reply(&al, &p)?)
                })
                .await
        }
        Err(e) => e.into_response(),
    }
}

/// `GET /api/games`: the registry's list, as `grundy games --json` (serialized once, at start).
pub async fn games(State(s): State<AppState>) -> Response {
    json_bytes(s.games.as_ref().clone())
}

/// `GET /api/health`: answered without a worker, so it stays fast while they are all busy:
/// the version, the pools' permits and what they are doing, and the scheduler's counters.
pub async fn health(State(s): State<AppState>) -> Response {
    #[derive(Serialize)]
    struct Health {
        status: &'static str,
        version: &'static str,
        #[serde(flatten)]
        pools: crate::pools::PoolsState,
    }
    let body = Health {
        status: "ok",
        version: env!("CARGO_PKG_VERSION"),
        pools: s.pools.state(),
    };
    json_bytes(serde_json::to_vec(&body).unwrap_or_default())
}

/// The stand-in of a request whose head the connection guard refused ([`crate::guard`]).
pub async fn refused(State(s): State<AppState>, Path(status): Path<String>) -> ApiError {
    crate::guard::refused(&status, s.config.head_limits())
}

/// An embedded file of the page.
pub fn asset(body: &'static str, kind: &'static str) -> Response {
    let mut r = Response::new(axum::body::Body::from(body));
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    r
}

/// The registry every handler asks, shared (it holds no state of a request).
pub fn registry() -> Arc<Registry> {
    Arc::new(Registry::new())
}
