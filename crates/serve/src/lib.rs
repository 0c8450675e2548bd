//! `grundy serve`: the web playground and its JSON API, over the `grundy` library.
//!
//! The page (`static/index.html`, `app.js`, `style.css`) is embedded in the binary and uses
//! only the API below; every answer is a library result serialized as the CLI's `--json`
//! prints it (docs/json.md):
//!
//! | endpoint | library call | CLI equivalent |
//! |---|---|---|
//! | `GET /api/analyze?game=node-kayles&position=grid:3x4` (`&misere=true`, `&moves=value\|winning\|all`, `&PARAM=…`) | `catalogue::Registry::ask` | `grundy analyze node-kayles grid:3x4 --json` |
//! | `POST /api/analyze` `{"game", "position", "misere"?, "moves"?, PARAM…}` (large positions) | the same | the same |
//! | `GET /api/nim?heaps=3,4,5` (`&misere=`, `&moves=`) | alias: `Registry::ask("nim", "3 4 5")` | `grundy analyze nim "3 4 5" --json` |
//! | `GET /api/wythoff?a=3&b=5` (`&moves=`) | alias: `Registry::ask("wythoff", "3 5")` | `grundy analyze wythoff "3 5" --json` |
//! | `GET /api/fib?n=1000` (`&limit=`, `&k=`, `&moves=`) | alias: `Registry::ask("fib", "1000")` | `grundy analyze fib 1000 --json` |
//! | `GET /api/heap/analyze?rule=kayles&heaps=7,9,12` (`&misere=`, `&moves=`) | alias: `Registry::ask("kayles", "7 9 12")` | `grundy analyze kayles "7 9 12" --json` |
//! | `GET /api/heap?rule=0.137&upto=1000` (or `&period=true`) | `heap::sequence` (`find_period`) | `grundy heap 0.137 --upto 1000 --json` |
//! | `GET /api/misere/quotient?rule=0.75&upto=12` | `misere::quotient::QuotientEngine` | `grundy misere quotient 0.75 --upto 12 --json` |
//! | `GET /api/penney?patterns=HTH,THH` (`&alphabet=`, `&prob=`, `&simulate=`, `&seed=`) | `penney::report::race` | `grundy penney HTH THH --json` |
//! | `GET /api/games` | `catalogue::games` | `grundy games --json` |
//! | `GET /api/play?game=kayles&position=5 7 9` (any game of the catalogue; `&previous=P` adds tutor feedback on the move from P, `&history=["…",…]` the earlier positions for the draw by repetition) | `play::Game::turn`, `turn_after`, `Turn::after_history` | (`grundy play`) |
//! | `POST /api/play` `{"game" or "source", "position", "previous"?, "history"?}` (the same, or a Lua game) | `play::Game::script` | (`grundy play script`) |
//! | `GET /api/pick?game=clobber&position=xo.\|ox.&cells=0,0;0,1` (`&stone=x` for NoGo): the points clicked on a drawn board | `play::Game::pick` (`picture::pick`) | (`grundy play`) |
//! | `POST /api/script` `{"source", "position", "upto"}` | `script::Session` | `grundy script FILE POSITION --json`, `--upto N --json` |
//! | `GET /api/health` | — | — |
//!
//! Errors are `{"error": "..."}`, every one: 400 bad input, 404 no such endpoint, 405 wrong
//! method, 413 body too large, 414 request line too long, 431 head too large, 422 a limit
//! exceeded (size or time), 503 busy ([`errors`]; the 414 and 431 through the connection guard,
//! [`guard`]).
//!
//! Robustness: work is scheduled by its cost, not by its endpoint ([`pools`]): every request
//! starts on a cheap pool that is never shed, under a small budget of time, positions and bytes,
//! and only work that outgrows it moves to the expensive pool, which answers 503 when full;
//! each request has a time budget ([`Config::timeout`]); bodies and request heads are capped;
//! nothing is shared between requests but the pools and the (immutable) registry. The server
//! binds loopback unless told otherwise.
//!
//! Modules: [`routes`] (the handlers), [`play`] (the play endpoints), [`script`] (Lua games
//! posted to the server), [`params`] (reading queries and bodies), [`pools`] (the cost-based
//! scheduling), [`errors`] (the JSON errors), [`guard`] (request heads too large).

#![forbid(unsafe_code)]

pub mod errors;
pub mod guard;
pub mod params;
pub mod play;
pub mod pools;
pub mod routes;
pub mod script;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;
use grundy::catalogue::{Budget, Registry};

pub use errors::ApiError;
pub use routes::{MISERE_LIMITS, MISERE_MAX_UPTO, PENNEY_LENGTH, PENNEY_PATTERNS};
pub use script::SCRIPT_UPTO;

/// The page, its script and its style, embedded (no build step, no CDN: it works offline).
const INDEX_HTML: &str = include_str!("../static/index.html");
const APP_JS: &str = include_str!("../static/app.js");
const STYLE_CSS: &str = include_str!("../static/style.css");

/// The address `grundy serve` binds by default: loopback only.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";

/// The budget of a request's full attempt: the play budget (2·10^6 positions, 512 MiB; a few
/// seconds of search at most), its bytes no more than the machine's memory budget shared by
/// the workers.
pub const WEB_BUDGET: Budget = grundy::play::PLAY_BUDGET;

/// The budget of a request's cheap attempt: 10^5 positions and 32 MiB.
pub const CHEAP_BUDGET: Budget = Budget {
    max_positions: 100_000,
    max_bytes: 32 << 20,
};

/// The server's limits.
#[derive(Clone, Debug)]
pub struct Config {
    /// Largest `upto` of `/api/heap` (default 100 000).
    pub max_upto: u64,
    /// Permits of the expensive pool: work running there at once (default: twice the cores,
    /// at least 2).
    pub workers: usize,
    /// How long a request may wait for an expensive permit before it is answered 503 (default
    /// 200 ms).
    pub queue_wait: Duration,
    /// Permits of the cheap pool, where every request starts (default: 8 a core, at least 16):
    /// many, since each holds one for at most [`Config::cheap_time`] of work that can be
    /// stopped.
    pub cheap_workers: usize,
    /// The most requests that may wait for a cheap permit at once (default 4096); beyond it a
    /// request is answered 503. Waiting is bounded by the time budget.
    pub cheap_queue: usize,
    /// The time of a cheap attempt: at it the stop flag is raised, and work that stops moves
    /// to the expensive pool (default 20 ms).
    pub cheap_time: Duration,
    /// The positions and bytes of a cheap attempt (default [`CHEAP_BUDGET`]).
    pub cheap_budget: Budget,
    /// The positions and bytes of a full attempt (default [`WEB_BUDGET`]; its bytes are
    /// further held to the machine's memory budget shared by the workers).
    pub budget: Budget,
    /// Time budget of one request, from its arrival; beyond it the answer is 422 (default
    /// 5 s).
    pub timeout: Duration,
    /// Largest request body, in bytes (default 1 MiB: a position of 10^5 edges).
    pub body_limit: usize,
    /// Longest request line (method, URI, version), in bytes; past it 414 (default 32 KiB:
    /// larger positions are sent by POST).
    pub max_request_line: usize,
    /// Largest request head (request line and headers), in bytes; past it 431 (default
    /// 64 KiB).
    pub max_head: usize,
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
            cheap_workers: (32 * cores).max(64),
            cheap_queue: 4096,
            cheap_time: Duration::from_millis(20),
            cheap_budget: CHEAP_BUDGET,
            budget: WEB_BUDGET,
            timeout: Duration::from_secs(5),
            body_limit: 1 << 20,
            max_request_line: 32 << 10,
            max_head: 64 << 10,
            max_simulate: 1_000_000,
        }
    }
}

impl Config {
    /// The budget of a full attempt: [`Config::budget`], its bytes at most the memory budget
    /// of this process shared by the workers.
    pub fn full_budget(&self) -> Budget {
        let share = grundy::limits::memory_budget() / self.workers.max(1) as u64;
        Budget {
            max_bytes: self.budget.max_bytes.min(share),
            ..self.budget
        }
    }

    /// The limits of a request's head ([`guard`]).
    pub fn head_limits(&self) -> guard::Limits {
        guard::Limits {
            line: self.max_request_line,
            head: self.max_head,
        }
    }
}

/// What every handler shares: the limits, the pools, the registry and the game list.
#[derive(Clone)]
pub struct AppState {
    config: Arc<Config>,
    pools: Arc<pools::Pools>,
    registry: Arc<Registry>,
    /// `GET /api/games`, serialized once.
    games: Arc<Vec<u8>>,
}

/// The application: the page, the API, the limits.
pub fn router(config: Config) -> Router {
    let config = Arc::new(config);
    let registry = routes::registry();
    let games =
        serde_json::to_vec(&serde_json::json!({ "games": registry.list() })).unwrap_or_default();
    let state = AppState {
        pools: Arc::new(pools::Pools::new(config.clone())),
        registry,
        games: Arc::new(games),
        config: config.clone(),
    };
    Router::new()
        .route("/api/health", get(routes::health))
        .route("/api/games", get(routes::games))
        .route(
            "/api/analyze",
            get(routes::analyze).post(routes::analyze_post),
        )
        .route("/api/nim", get(routes::nim))
        .route("/api/wythoff", get(routes::wythoff))
        .route("/api/fib", get(routes::fib))
        .route("/api/heap/analyze", get(routes::heap_analyze))
        .route("/api/heap", get(routes::heap_sequence))
        .route("/api/misere/quotient", get(routes::misere_quotient))
        .route("/api/penney", get(routes::penney))
        .route("/api/play", get(play::play).post(play::play_post))
        .route("/api/pick", get(play::pick))
        .route("/api/script", post(script::script))
        .route(
            &format!("{}{{status}}", guard::REFUSED),
            get(routes::refused),
        )
        .route(
            "/",
            get(|| async { routes::asset(INDEX_HTML, "text/html; charset=utf-8") }),
        )
        .route(
            "/app.js",
            get(|| async { routes::asset(APP_JS, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/style.css",
            get(|| async { routes::asset(STYLE_CSS, "text/css; charset=utf-8") }),
        )
        .fallback(errors::not_found)
        .method_not_allowed_fallback(errors::wrong_method)
        .with_state(state)
        .layer(DefaultBodyLimit::max(config.body_limit))
        .layer(tower_http::limit::RequestBodyLimitLayer::new(
            config.body_limit,
        ))
        .layer(tower_http::catch_panic::CatchPanicLayer::new())
        // Outermost, so that the answers of the layers above (413, a panic's 500) become JSON.
        .layer(axum::middleware::map_response(errors::json_errors))
}

/// Serves `router(config)` on `listener` until `shutdown` completes, every connection read
/// through the guard of request heads ([`guard`]).
pub async fn serve(
    listener: tokio::net::TcpListener,
    config: Config,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let listener = guard::GuardedListener::new(listener, config.head_limits());
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
        .max_blocking_threads(config.workers.max(1) + config.cheap_workers.max(1) + 4)
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
