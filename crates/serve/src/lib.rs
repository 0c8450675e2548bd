//! `grundy serve`: the web playground and its JSON API, over the `grundy` library.
//!
//! The page (`static/index.html`, `app.js`, `style.css`) is embedded in the binary and uses
//! only the API below; every answer is a library result serialized as the CLI's `--json`
//! prints it (docs/json.md):
//!
//! | endpoint | library call | CLI equivalent |
//! |---|---|---|
//! | `GET /api/nim?heaps=3,4,5&misere=false` | `nim::NimStream` | `grundy nim 3 4 5 --json` |
//! | `GET /api/heap?rule=0.137&upto=1000` (or `&period=true`) | `heap::sequence` (`find_period`) | `grundy heap 0.137 --upto 1000 --json` |
//! | `GET /api/heap/analyze?rule=kayles&heaps=7,9,12` (`&misere=true`) | `heap::analyze_position` | `grundy heap kayles --position 7 9 12 --json` |
//! | `GET /api/wythoff?a=3&b=5` | `games::wythoff::analyze` | `grundy wythoff 3 5 --json` |
//! | `GET /api/fib?n=1000` (`&limit=`, `&k=`) | `games::fib::analyze` | `grundy fib 1000 --json` |
//! | `GET /api/penney?patterns=HTH,THH` (`&alphabet=`, `&prob=`, `&simulate=`, `&seed=`) | `penney::report::race` | `grundy penney HTH THH --json` |
//! | `GET /api/games` | `catalogue::games` | `grundy games --json` |
//! | `GET /api/analyze?game=node-kayles&position=grid:3x4` (`&misere=true`) | `catalogue::analyze` | `grundy analyze node-kayles grid:3x4 --json` |
//! | `GET /api/play?game=kayles&position=5 7 9` (any game of the catalogue; `&previous=P` adds tutor feedback on the move from P, `&history=["…",…]` the earlier positions for the draw by repetition) | `play::Game::turn`, `turn_after`, `Turn::after_history` | (`grundy play`) |
//! | `POST /api/play` `{"game" or "source", "position", "previous"?, "history"?}` (the same, or a Lua game) | `play::Game::script` | (`grundy play script`) |
//! | `POST /api/script` `{"source", "position", "upto"}` | `script::Session` | `grundy script FILE POSITION --json`, `--upto N --json` |
//! | `GET /api/health` | — | — |
//!
//! Errors are `{"error": "..."}`: 400 bad input, 404 no such endpoint, 405 wrong method, 413
//! body too large, 422 a limit exceeded (size or time), 503 busy. Robustness: request bodies
//! are capped ([`Config::body_limit`]); every computation runs on the blocking pool behind one
//! of two semaphores: closed forms (Nim, Wythoff, Fibonacci Nim, the game list) have a pool of
//! their own (4 × [`Config::workers`] permits), so that they are never shed behind expensive
//! work, which has [`Config::workers`] permits; a request that cannot get one within
//! [`Config::queue_wait`] is answered 503 at once; each computation has a time budget
//! ([`Config::timeout`]; heap engines are stopped through their stop flag, other work is
//! bounded by input limits); nothing is shared between requests but the semaphore. The server
//! binds loopback unless told otherwise.

#![forbid(unsafe_code)]

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::rejection::QueryRejection;
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use grundy::heap::{self, Compute};
use serde::Serialize;
use tokio::sync::Semaphore;

/// The page, its script and its style, embedded (no build step, no CDN: it works offline).
const INDEX_HTML: &str = include_str!("../static/index.html");
const APP_JS: &str = include_str!("../static/app.js");
const STYLE_CSS: &str = include_str!("../static/style.css");

/// The address `grundy serve` binds by default: loopback only.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";

/// The server's limits.
#[derive(Clone, Debug)]
pub struct Config {
    /// Largest `upto` of `/api/heap` (default 100 000).
    pub max_upto: u64,
    /// Computations running at once (default: twice the cores, at least 2).
    pub workers: usize,
    /// How long a request may wait for a worker before it is answered 503 (default 200 ms).
    pub queue_wait: Duration,
    /// Time budget of one computation; beyond it the answer is 422 (default 5 s).
    pub timeout: Duration,
    /// Largest request body, in bytes (default 64 KiB).
    pub body_limit: usize,
    /// Largest number given in decimal digits (Wythoff heaps, Fibonacci piles; default 1000).
    pub max_digits: usize,
    /// Most simulated races of `/api/penney?simulate=` (default 1 000 000).
    pub max_simulate: u64,
}

impl Default for Config {
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Config {
            max_upto: 100_000,
            workers: (2 * cores).max(2),
            queue_wait: Duration::from_millis(200),
            timeout: Duration::from_secs(5),
            body_limit: 64 * 1024,
            max_digits: 1000,
            max_simulate: 1_000_000,
        }
    }
}

/// What every handler shares: the limits and the two pools of workers.
#[derive(Clone)]
struct AppState {
    config: Arc<Config>,
    /// Expensive work (sequences, searches, scripts).
    workers: Arc<Semaphore>,
    /// Cheap work (closed forms: Nim, Wythoff, Fibonacci Nim, the game list): its own
    /// permits, so that it is never shed behind expensive work.
    cheap: Arc<Semaphore>,
}

/// Which pool a request's work runs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pool {
    /// Closed forms, answered in microseconds.
    Cheap,
    /// Everything that may search or compute for long.
    Expensive,
}

/// An error answer: a status and one line, sent as `{"error": "..."}`.
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// The message.
    pub message: String,
    /// The line of a script the error is at (`POST /api/script`), sent as `"line"`.
    pub line: Option<usize>,
}

impl ApiError {
    fn bad(message: impl Into<String>) -> Self {
        ApiError {
            line: None,
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }

    fn limit(message: impl Into<String>) -> Self {
        ApiError {
            line: None,
            status: StatusCode::UNPROCESSABLE_ENTITY,
            message: message.into(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = match self.line {
            Some(line) => serde_json::json!({ "error": self.message, "line": line }),
            None => serde_json::json!({ "error": self.message }),
        }
        .to_string();
        let mut r = (self.status, body).into_response();
        r.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            r.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        }
        r
    }
}

/// The status of a library error's kind: bad input 400, a limit or a stop (the time budget)
/// 422, a failure 500.
fn status_of(kind: grundy::ErrorKind) -> StatusCode {
    match kind {
        grundy::ErrorKind::Input => StatusCode::BAD_REQUEST,
        grundy::ErrorKind::Limit | grundy::ErrorKind::Stopped => StatusCode::UNPROCESSABLE_ENTITY,
        grundy::ErrorKind::Failure => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

impl From<grundy::Error> for ApiError {
    fn from(e: grundy::Error) -> Self {
        let kind = e.kind();
        ApiError {
            status: status_of(kind),
            // A stop here is always the request's time budget.
            message: match kind {
                grundy::ErrorKind::Stopped => "time budget exceeded".to_string(),
                _ => e.to_string(),
            },
            line: e.line(),
        }
    }
}

impl From<grundy::play::PlayError> for ApiError {
    fn from(e: grundy::play::PlayError) -> Self {
        grundy::Error::from(e).into()
    }
}

impl From<grundy::games::GameError> for ApiError {
    fn from(e: grundy::games::GameError) -> Self {
        grundy::Error::from(e).into()
    }
}

impl From<grundy::penney::PenneyError> for ApiError {
    fn from(e: grundy::penney::PenneyError) -> Self {
        grundy::Error::from(e).into()
    }
}

type ApiResult<T> = Result<T, ApiError>;

/// The query parameters, or a 400 naming what is wrong with them.
type Params = Result<Query<HashMap<String, String>>, QueryRejection>;

fn params(p: Params) -> ApiResult<HashMap<String, String>> {
    p.map(|Query(q)| q)
        .map_err(|e| ApiError::bad(format!("bad query string: {}", e.body_text())))
}

/// A required parameter.
fn required<'a>(q: &'a HashMap<String, String>, name: &str) -> ApiResult<&'a str> {
    q.get(name)
        .map(String::as_str)
        .ok_or_else(|| ApiError::bad(format!("missing parameter '{name}'")))
}

/// A boolean parameter: absent, `true`/`false`, `1`/`0`.
fn flag(q: &HashMap<String, String>, name: &str) -> ApiResult<bool> {
    match q.get(name).map(String::as_str) {
        None | Some("false") | Some("0") | Some("") => Ok(false),
        Some("true") | Some("1") => Ok(true),
        Some(v) => Err(ApiError::bad(format!(
            "parameter '{name}' must be true or false, not {}",
            grundy::text::quote(v)
        ))),
    }
}

/// A list parameter: items separated by commas (or spaces).
fn list(text: &str) -> Vec<&str> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .collect()
}

/// Parameters only these names may be given (a typo is an error, not silently ignored).
fn only(q: &HashMap<String, String>, allowed: &[&str]) -> ApiResult<()> {
    match q.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(k) => Err(ApiError::bad(format!(
            "unknown parameter {} (this endpoint takes {})",
            grundy::text::quote(k),
            allowed.join(", ")
        ))),
        None => Ok(()),
    }
}

/// A decimal number of at most `max_digits` digits, for the big-number games.
fn natural(text: &str, what: &str, max_digits: usize) -> ApiResult<grundy::games::UBig> {
    if text.trim().len() > max_digits {
        return Err(ApiError::limit(format!(
            "{what}: more than {max_digits} digits"
        )));
    }
    Ok(grundy::games::parse_count(text, what)?)
}

/// A JSON answer from bytes already serialized.
fn json_bytes(bytes: Vec<u8>) -> Response {
    let mut r = Response::new(Body::from(bytes));
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    r
}

/// Runs `work` on the blocking pool behind the workers' semaphore, with the time budget; the
/// result is serialized there too. `work` gets the stop flag, raised when the budget runs out.
async fn compute<T, F>(state: &AppState, work: F) -> Response
where
    T: Serialize,
    F: FnOnce(&AtomicBool) -> ApiResult<T> + Send + 'static,
{
    compute_in(state, Pool::Expensive, work).await
}

/// [`compute`] in the given pool.
async fn compute_in<T, F>(state: &AppState, pool: Pool, work: F) -> Response
where
    T: Serialize,
    F: FnOnce(&AtomicBool) -> ApiResult<T> + Send + 'static,
{
    let sem = match pool {
        Pool::Cheap => &state.cheap,
        Pool::Expensive => &state.workers,
    };
    let permit =
        match tokio::time::timeout(state.config.queue_wait, sem.clone().acquire_owned()).await {
            Ok(Ok(p)) => p,
            _ => {
                return ApiError {
                    line: None,
                    status: StatusCode::SERVICE_UNAVAILABLE,
                    message: "busy: every worker is computing; try again".into(),
                }
                .into_response()
            }
        };
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let task = tokio::task::spawn_blocking(move || {
        let _permit = permit; // held until the work is really done, even after a timeout
        let r = work(&flag)?;
        serde_json::to_vec(&r).map_err(|e| ApiError {
            line: None,
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: e.to_string(),
        })
    });
    match tokio::time::timeout(state.config.timeout, task).await {
        Ok(Ok(Ok(bytes))) => json_bytes(bytes),
        Ok(Ok(Err(e))) => e.into_response(),
        Ok(Err(join)) => ApiError {
            line: None,
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: format!("internal error: {join}"),
        }
        .into_response(),
        Err(_) => {
            stop.store(true, Ordering::Relaxed);
            ApiError::limit(format!(
                "time budget exceeded: more than {} ms of work",
                state.config.timeout.as_millis()
            ))
            .into_response()
        }
    }
}

/// A heap computation's settings: one thread (requests share the cores), stopped by `stop`.
fn heap_compute(stop: &AtomicBool) -> Compute<'_> {
    Compute::new().threads(1).stop_when(stop)
}

async fn nim(State(s): State<AppState>, q: Params) -> Response {
    let run = || -> ApiResult<_> {
        let q = params(q)?;
        only(&q, &["heaps", "misere"])?;
        let play = grundy::nim::Play::from_misere(flag(&q, "misere")?);
        let mut stream = grundy::nim::NimStream::new(true);
        for (i, t) in list(required(&q, "heaps")?).into_iter().enumerate() {
            let h = grundy::nim::parse_heap(t.as_bytes(), i as u64)
                .map_err(|e| ApiError::bad(e.to_string()))?;
            stream.push(h);
        }
        if stream.is_empty() {
            return Err(ApiError::bad("no heaps given (heaps=3,4,5)"));
        }
        Ok((stream, play))
    };
    match run() {
        Ok((stream, play)) => {
            compute_in(&s, Pool::Cheap, move |_| Ok(stream.into_analysis(play))).await
        }
        Err(e) => e.into_response(),
    }
}

async fn heap_sequence(State(s): State<AppState>, q: Params) -> Response {
    let run = || -> ApiResult<_> {
        let q = params(q)?;
        only(&q, &["rule", "upto", "period"])?;
        let rule = heap::parse(required(&q, "rule")?).map_err(|e| ApiError::bad(e.to_string()))?;
        let upto = match q.get("upto") {
            Some(t) => Some(
                grundy::input::parse_count(t).map_err(|e| ApiError::bad(format!("upto: {e}")))?,
            ),
            None => None,
        };
        if let Some(n) = upto {
            if n > s.config.max_upto {
                return Err(ApiError::limit(format!(
                    "upto {n} is more than this server computes ({})",
                    s.config.max_upto
                )));
            }
        }
        Ok((rule, upto, flag(&q, "period")?))
    };
    match run() {
        Ok((rule, upto, period)) => {
            compute(&s, move |stop| {
                let mut c = heap_compute(stop);
                Ok(match upto {
                    None if period => heap::find_period(&rule, &mut c)?,
                    n => heap::sequence(&rule, n.unwrap_or(heap::DEFAULT_UPTO), &mut c)?,
                })
            })
            .await
        }
        Err(e) => e.into_response(),
    }
}

/// `analyze_position` or its misère search: one JSON shape each, as the CLI prints them.
#[derive(Serialize)]
#[serde(untagged)]
enum HeapPosition {
    Normal(heap::Position),
    Misere(heap::MiserePosition),
}

async fn heap_analyze(State(s): State<AppState>, q: Params) -> Response {
    let run = || -> ApiResult<_> {
        let q = params(q)?;
        only(&q, &["rule", "heaps", "misere"])?;
        let rule = heap::parse(required(&q, "rule")?).map_err(|e| ApiError::bad(e.to_string()))?;
        let heaps = list(required(&q, "heaps")?)
            .into_iter()
            .map(|t| {
                grundy::input::parse_count(t).map_err(|e| ApiError::bad(format!("heaps: {e}")))
            })
            .collect::<ApiResult<Vec<u64>>>()?;
        if heaps.is_empty() {
            return Err(ApiError::bad("no heaps given (heaps=7,9,12)"));
        }
        Ok((rule, heaps, flag(&q, "misere")?))
    };
    match run() {
        Ok((rule, heaps, misere)) => {
            compute(&s, move |stop| {
                let mut c = heap_compute(stop);
                Ok(if misere {
                    HeapPosition::Misere(heap::analyze_position_misere(
                        &rule,
                        &heaps,
                        &heap::DEFAULT_MISERE_BUDGET,
                        &c,
                    )?)
                } else {
                    HeapPosition::Normal(heap::analyze_position(&rule, &heaps, &mut c)?)
                })
            })
            .await
        }
        Err(e) => e.into_response(),
    }
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

/// `GET /api/misere/quotient?rule=R&upto=N`: `grundy misere quotient R --upto N --json` plus
/// `"table"`, the multiplication table (`table[x][y]` indexes `elements`).
async fn misere_quotient(State(s): State<AppState>, q: Params) -> Response {
    let run = || -> ApiResult<_> {
        let q = params(q)?;
        only(&q, &["rule", "upto"])?;
        let rule = required(&q, "rule")?.to_string();
        let upto = grundy::input::parse_count(required(&q, "upto")?)
            .map_err(|e| ApiError::bad(format!("upto: {e}")))?;
        if upto > MISERE_MAX_UPTO {
            return Err(ApiError::limit(format!(
                "upto {upto} is more than this server computes for a misère quotient ({MISERE_MAX_UPTO})"
            )));
        }
        // bad rules are refused before a worker is taken
        grundy::misere::quotient::QuotientEngine::new(&rule, MISERE_LIMITS)
            .map_err(|e| ApiError::bad(e.to_string()))?;
        Ok((rule, upto))
    };
    match run() {
        Ok((rule, upto)) => {
            compute_in(&s, Pool::Expensive, move |_| {
                let mut e = grundy::misere::quotient::QuotientEngine::new(&rule, MISERE_LIMITS)
                    .map_err(|e| ApiError::bad(e.to_string()))?;
                e.extend_to(upto).map_err(|err| {
                    let err = grundy::Error::from(err);
                    if err.is_limit() {
                        ApiError::limit(format!("limit: {err} (reached heap {})", e.upto()))
                    } else {
                        ApiError::from(err)
                    }
                })?;
                let q = e.quotient();
                let mut v = serde_json::to_value(&q).map_err(|e| ApiError {
                    line: None,
                    status: StatusCode::INTERNAL_SERVER_ERROR,
                    message: e.to_string(),
                })?;
                v["table"] = serde_json::json!(q.table());
                Ok(v)
            })
            .await
        }
        Err(e) => e.into_response(),
    }
}

async fn wythoff(State(s): State<AppState>, q: Params) -> Response {
    let digits = s.config.max_digits;
    let run = || -> ApiResult<_> {
        let q = params(q)?;
        only(&q, &["a", "b"])?;
        let a = natural(required(&q, "a")?, "heap", digits)?;
        let b = natural(required(&q, "b")?, "heap", digits)?;
        Ok((a, b))
    };
    match run() {
        Ok((a, b)) => {
            compute_in(&s, Pool::Cheap, move |_| {
                Ok(grundy::games::wythoff::analyze(&a, &b)?)
            })
            .await
        }
        Err(e) => e.into_response(),
    }
}

async fn fib(State(s): State<AppState>, q: Params) -> Response {
    let digits = s.config.max_digits;
    let run = || -> ApiResult<_> {
        let q = params(q)?;
        only(&q, &["n", "limit", "k"])?;
        let n = natural(required(&q, "n")?, "pile", digits)?;
        let limit = match q.get("limit") {
            Some(l) => Some(natural(l, "limit", digits)?),
            None => None,
        };
        let k = match q.get("k") {
            Some(k) => grundy::games::parse_bounded(
                k,
                "multiplier",
                1,
                grundy::games::fib::MAX_MULTIPLIER,
            )?,
            None => 2,
        };
        Ok((n, limit, k))
    };
    match run() {
        Ok((n, limit, k)) => {
            compute_in(&s, Pool::Cheap, move |_| {
                Ok(grundy::games::fib::analyze(&n, limit.as_ref(), k)?)
            })
            .await
        }
        Err(e) => e.into_response(),
    }
}

/// The most patterns `/api/penney` races, and their longest length.
pub const PENNEY_PATTERNS: usize = 16;
/// See [`PENNEY_PATTERNS`].
pub const PENNEY_LENGTH: usize = 32;

async fn penney(State(s): State<AppState>, q: Params) -> Response {
    use grundy::penney::report::{self, RaceOptions, SimulationRequest};
    let max_sim = s.config.max_simulate;
    let q = match params(q) {
        Ok(q) => q,
        Err(e) => return e.into_response(),
    };
    if q.contains_key("best_reply") {
        return best_reply(&s, q).await;
    }
    let run = || -> ApiResult<_> {
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
        let count = |name: &str| -> ApiResult<Option<u64>> {
            q.get(name)
                .map(|t| {
                    grundy::input::parse_count(t).map_err(|e| ApiError::bad(format!("{name}: {e}")))
                })
                .transpose()
        };
        let trials = count("simulate")?;
        if trials.is_some_and(|t| t > max_sim) {
            return Err(ApiError::limit(format!(
                "simulate: at most {max_sim} races here"
            )));
        }
        let seed = count("seed")?;
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
    };
    match run() {
        Ok((al, patterns, options)) => {
            compute(&s, move |_| {
                Ok(report::race(al, &patterns, &options, &mut |_| {})?)
            })
            .await
        }
        Err(e) => e.into_response(),
    }
}

/// `/api/penney?best_reply=HTH`: the second player's best answer to a pattern.
async fn best_reply(s: &AppState, q: HashMap<String, String>) -> Response {
    let run = || -> ApiResult<_> {
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
    };
    match run() {
        Ok((al, p)) => compute(s, move |_| Ok(grundy::penney::report::best_reply(&al, &p)?)).await,
        Err(e) => e.into_response(),
    }
}

/// `GET /api/games`: the registry's list, as `grundy games --json`.
async fn games(State(s): State<AppState>) -> Response {
    compute_in(&s, Pool::Cheap, |_| {
        Ok(serde_json::json!({ "games": grundy::catalogue::games() }))
    })
    .await
}

/// The budget of one web request's search: the play budget (a few seconds at most).
const WEB_BUDGET: grundy::catalogue::Budget = grundy::play::PLAY_BUDGET;

/// `GET /api/analyze?game=G&position=P[&misere=true][&moves=value|winning|all][&PARAM=…]`:
/// the object of `grundy analyze G P --json`; any other parameter is one of the game's own
/// options (`Info::params`), refused when the entry does not declare it or offers it only on
/// the user's own machine (files, threads).
async fn analyze(State(s): State<AppState>, q: Params) -> Response {
    let run = || -> ApiResult<_> {
        let q = params(q)?;
        let game = required(&q, "game")?.to_string();
        let position = required(&q, "position")?.to_string();
        let play = grundy::catalogue::Play::from_misere(flag(&q, "misere")?);
        let detail = match q.get("moves") {
            Some(m) => m
                .parse::<grundy::catalogue::Detail>()
                .map_err(grundy::Error::from)?,
            None => grundy::catalogue::Detail::default(),
        };
        let mut ask = grundy::catalogue::Ask::new(play)
            .budget(WEB_BUDGET)
            .detail(detail);
        for (k, v) in &q {
            if !["game", "position", "misere", "moves"].contains(&k.as_str()) {
                ask.settings.set(k.clone(), v.clone());
            }
        }
        let registry = grundy::catalogue::Registry::new();
        let info = registry.find(&game)?.info();
        ask.settings
            .check_remote(&info.params)
            .map_err(grundy::Error::from)?;
        Ok((game, position, ask))
    };
    match run() {
        Ok((game, position, ask)) => {
            compute(&s, move |_| {
                Ok(grundy::catalogue::Registry::new().ask(&game, &position, &ask)?)
            })
            .await
        }
        Err(e) => e.into_response(),
    }
}

/// The body of `POST /api/play`: a catalogue game (`game`) or a Lua game written on the page
/// (`source`), the position, and optionally the position before it (`previous`, for tutor
/// feedback) and every earlier position of the game (`history`, oldest first, for the draw
/// by repetition).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayRequest {
    /// A game of the registry.
    game: Option<String>,
    /// The Lua source of a game written on the page.
    source: Option<String>,
    /// The position, in the game's notation (a Lua literal for `source`).
    position: String,
    /// The position the last move was made from.
    previous: Option<String>,
    /// The positions before this one, oldest first.
    #[serde(default)]
    history: Vec<String>,
}

/// The most earlier positions a play request may send.
const MAX_HISTORY: usize = 100_000;

/// The `history` parameter of `GET /api/play`: a JSON array of position texts.
fn history_param(q: &HashMap<String, String>) -> ApiResult<Vec<String>> {
    let Some(text) = q.get("history") else {
        return Ok(Vec::new());
    };
    let h: Vec<String> = serde_json::from_str(text).map_err(|e| {
        ApiError::bad(format!(
            "parameter 'history' must be a JSON array of positions: {e}"
        ))
    })?;
    check_history(&h)?;
    Ok(h)
}

fn check_history(h: &[String]) -> ApiResult<()> {
    if h.len() > MAX_HISTORY {
        return Err(ApiError::bad(format!(
            "the history has {} positions (at most {MAX_HISTORY})",
            h.len()
        )));
    }
    Ok(())
}

/// What a `POST /api/play` plays: a game of the registry, or a Lua game's source.
enum Played {
    Game(String),
    Script(String),
}

/// One turn of `g` at its start, reached from `previous` after `history`.
fn play_turn(
    mut g: grundy::play::Game,
    previous: Option<&str>,
    history: &[String],
) -> Result<grundy::play::Turn, grundy::play::PlayError> {
    let at = g.start().clone();
    let turn = match previous {
        Some(p) => {
            let before = g.position(p)?;
            g.turn_after(&before, &at)?
        }
        None => g.turn(&at)?,
    };
    Ok(turn.after_history(history))
}

/// `POST /api/play` `{"game" | "source", "position", "previous"?, "history"?}`: a turn of a
/// catalogue game or of a Lua game written on the page, as `GET /api/play` gives one.
async fn play_post(
    State(s): State<AppState>,
    body: Result<axum::body::Bytes, axum::extract::rejection::BytesRejection>,
) -> Response {
    let timeout = s.config.timeout;
    let req = match body
        .map_err(|e| ApiError::bad(format!("bad body: {}", e.body_text())))
        .and_then(|b| {
            serde_json::from_slice(&b).map_err(|e| {
                ApiError::bad(format!(
                    "bad JSON (expected {{\"game\" or \"source\", \"position\", \"previous\", \"history\"}}): {e}"
                ))
            })
        })
        .and_then(|mut r: PlayRequest| {
            check_history(&r.history)?;
            let played = match (r.game.take(), r.source.take()) {
                (Some(g), None) => Played::Game(g),
                (None, Some(src)) => Played::Script(src),
                (Some(_), Some(_)) => {
                    return Err(ApiError::bad(
                        "give either 'game' or 'source', not both".to_string(),
                    ))
                }
                (None, None) => {
                    return Err(ApiError::bad(
                        "missing 'game' (a game of /api/games) or 'source' (a Lua game)"
                            .to_string(),
                    ))
                }
            };
            Ok((played, r))
        }) {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    let (played, req) = req;
    compute(&s, move |_| {
        let g = match &played {
            Played::Game(game) => grundy::play::Game::new(game, &req.position)?,
            Played::Script(source) => grundy::play::Game::script(
                SCRIPT_NAME,
                source,
                &req.position,
                script_limits(timeout),
            )?,
        };
        // The game was read at `position`: that is its start.
        Ok(play_turn(g, req.previous.as_deref(), &req.history)?)
    })
    .await
}

/// The limits a script posted to the server runs under.
fn script_limits(timeout: Duration) -> grundy::script::Limits {
    grundy::script::Limits {
        steps_per_call: 10_000_000,
        setup_steps: 10_000_000,
        memory: 64 << 20,
        budget: grundy::catalogue::Budget {
            max_positions: 1_000_000,
            ..grundy::catalogue::Budget::DEFAULT
        },
        time_limit: Some(timeout.saturating_sub(std::time::Duration::from_millis(100))),
    }
}

async fn play(State(s): State<AppState>, q: Params) -> Response {
    let run = || -> ApiResult<_> {
        let q = params(q)?;
        only(&q, &["game", "position", "previous", "history"])?;
        Ok((
            required(&q, "game")?.to_string(),
            required(&q, "position")?.to_string(),
            q.get("previous").cloned(),
            history_param(&q)?,
        ))
    };
    match run() {
        Ok((game, position, previous, history)) => {
            compute(&s, move |_| {
                let g = grundy::play::Game::new(&game, &position)?;
                Ok(play_turn(g, previous.as_deref(), &history)?)
            })
            .await
        }
        Err(e) => e.into_response(),
    }
}

/// `/api/health`: answered without a worker, so it stays fast while they are all busy.
async fn health(State(s): State<AppState>) -> Response {
    let free = s.workers.available_permits();
    let body = serde_json::json!({
        "status": "ok",
        "version": env!("CARGO_PKG_VERSION"),
        "workers": s.config.workers,
        "busy": s.config.workers.saturating_sub(free),
    });
    json_bytes(body.to_string().into_bytes())
}

fn asset(body: &'static str, kind: &'static str) -> Response {
    let mut r = Response::new(Body::from(body));
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    r
}

async fn not_found() -> ApiError {
    ApiError {
        line: None,
        status: StatusCode::NOT_FOUND,
        message: "no such endpoint (see /api/health and docs/json.md)".into(),
    }
}

async fn wrong_method() -> ApiError {
    ApiError {
        line: None,
        status: StatusCode::METHOD_NOT_ALLOWED,
        message: "method not allowed".into(),
    }
}

/// Turns any error answer that is not JSON yet (a body too large, a panic) into
/// `{"error": "..."}` with the same status.
async fn json_errors(r: Response) -> Response {
    let status = r.status();
    let is_json = r
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if (status.is_client_error() || status.is_server_error()) && !is_json {
        let message = match status {
            StatusCode::PAYLOAD_TOO_LARGE => "request body too large".to_string(),
            s => s.canonical_reason().unwrap_or("error").to_ascii_lowercase(),
        };
        return ApiError {
            status,
            message,
            line: None,
        }
        .into_response();
    }
    r
}

/// The application: the page, the API, the limits.
pub fn router(config: Config) -> Router {
    let state = AppState {
        workers: Arc::new(Semaphore::new(config.workers.max(1))),
        cheap: Arc::new(Semaphore::new(config.workers.max(1) * 4)),
        config: Arc::new(config.clone()),
    };
    let api = Router::new()
        .route("/api/health", get(health))
        .route("/api/nim", get(nim))
        .route("/api/heap", get(heap_sequence))
        .route("/api/heap/analyze", get(heap_analyze))
        .route("/api/wythoff", get(wythoff))
        .route("/api/misere/quotient", get(misere_quotient))
        .route("/api/fib", get(fib))
        .route("/api/penney", get(penney))
        .route("/api/play", get(play).post(play_post))
        .route("/api/games", get(games))
        .route("/api/analyze", get(analyze));
    let api = extra_routes(api);
    api.route(
        "/",
        get(|| async { asset(INDEX_HTML, "text/html; charset=utf-8") }),
    )
    .route(
        "/app.js",
        get(|| async { asset(APP_JS, "text/javascript; charset=utf-8") }),
    )
    .route(
        "/style.css",
        get(|| async { asset(STYLE_CSS, "text/css; charset=utf-8") }),
    )
    .fallback(not_found)
    .method_not_allowed_fallback(wrong_method)
    .with_state(state)
    .layer(DefaultBodyLimit::max(config.body_limit))
    .layer(tower_http::limit::RequestBodyLimitLayer::new(
        config.body_limit,
    ))
    .layer(tower_http::catch_panic::CatchPanicLayer::new())
    // Outermost, so that the answers of the layers above (413, a panic's 500) become JSON.
    .layer(axum::middleware::map_response(json_errors))
}

/// Routes beyond the GET endpoints: the script runner.
fn extra_routes(r: Router<AppState>) -> Router<AppState> {
    r.route("/api/script", axum::routing::post(script))
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

/// Largest `upto` of a script (every position runs Lua).
pub const SCRIPT_UPTO: u64 = 10_000;
/// The name scripts run under (in their error messages).
const SCRIPT_NAME: &str = "script.lua";

/// A script's failure as an answer: by its kind (limits and stops 422, the script's own errors
/// 400, a failure of the Lua runtime 500), with the line of the script it is at when there is
/// one.
fn script_error(e: grundy::script::ScriptError) -> ApiError {
    let e = grundy::Error::from(e);
    ApiError {
        status: status_of(e.kind()),
        line: e.line(),
        message: e.to_string(),
    }
}

async fn script(
    State(s): State<AppState>,
    body: Result<axum::body::Bytes, axum::extract::rejection::BytesRejection>,
) -> Response {
    let timeout = s.config.timeout;
    let run = || -> ApiResult<ScriptRequest> {
        let body = body.map_err(|e| {
            let status = e.status();
            ApiError {
                line: None,
                status: if status == StatusCode::PAYLOAD_TOO_LARGE {
                    status
                } else {
                    StatusCode::BAD_REQUEST
                },
                message: if status == StatusCode::PAYLOAD_TOO_LARGE {
                    "request body too large".into()
                } else {
                    format!("bad body: {}", e.body_text())
                },
            }
        })?;
        let req: ScriptRequest = serde_json::from_slice(&body).map_err(|e| {
            ApiError::bad(format!(
                "bad JSON (expected {{\"source\", \"position\", \"upto\"}}): {e}"
            ))
        })?;
        if req.upto.is_some_and(|n| n > SCRIPT_UPTO) {
            return Err(ApiError::limit(format!(
                "upto: at most {SCRIPT_UPTO} for a script here"
            )));
        }
        Ok(req)
    };
    let req = match run() {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    compute(&s, move |_| {
        use grundy::script::{parse_position, Play, Script};
        let limits = script_limits(timeout);
        let script = Script::load(SCRIPT_NAME, &req.source, limits).map_err(script_error)?;
        let mut session = script.session().map_err(script_error)?;
        let analysis = match req.position.as_deref().map(str::trim) {
            Some(p) if !p.is_empty() => {
                let parts = match parse_position(p) {
                    Ok(one) => vec![one],
                    Err(e) => p
                        .split_whitespace()
                        .map(parse_position)
                        .collect::<Result<Vec<_>, _>>()
                        .map_err(|_| ApiError::bad(format!("position: {e}")))?,
                };
                let play = Play::from_misere(req.misere);
                Some(session.analyze(&parts, play).map_err(script_error)?)
            }
            _ => None,
        };
        let sequence = match req.upto {
            Some(n) => Some(session.sequence(n).map_err(script_error)?),
            None => None,
        };
        Ok(ScriptReply {
            game: script.title().to_string(),
            analysis,
            sequence,
        })
    })
    .await
}

/// Serves `router(config)` on `listener` until `shutdown` completes.
pub async fn serve(
    listener: tokio::net::TcpListener,
    config: Config,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, router(config))
        .with_graceful_shutdown(shutdown)
        .await
}

/// `grundy serve --addr ADDR`: binds `addr` (say `127.0.0.1:8080`), prints the page's address
/// on stderr, and serves until Ctrl-C. Errors (a bad or busy address) are one line.
pub fn run(addr: &str, config: Config) -> Result<(), String> {
    let addr: SocketAddr = addr.parse().map_err(|_| {
        format!(
            "--addr {}: not an address like 127.0.0.1:8080",
            grundy::text::quote(addr)
        )
    })?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(config.workers.max(1) + 4)
        .build()
        .map_err(|e| format!("cannot start the server: {e}"))?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let local = listener.local_addr().map_err(|e| e.to_string())?;
        eprintln!("grundy serve: listening on http://{local}/ (Ctrl-C stops)");
        let shutdown = async {
            #[cfg(unix)]
            {
                use tokio::signal::unix::{signal, SignalKind};
                match signal(SignalKind::terminate()) {
                    Ok(mut term) => {
                        tokio::select! {
                            _ = tokio::signal::ctrl_c() => {}
                            _ = term.recv() => {}
                        }
                    }
                    Err(_) => {
                        let _ = tokio::signal::ctrl_c().await;
                    }
                }
            }
            #[cfg(not(unix))]
            let _ = tokio::signal::ctrl_c().await;
            eprintln!("grundy serve: stopping");
        };
        serve(listener, config, shutdown)
            .await
            .map_err(|e| format!("server error: {e}"))
    })
}
