//! The play endpoints: `GET /api/play` and `POST /api/play`, one turn of any game of the
//! registry (or of a Lua game written on the page) as `grundy::play::Turn`; `GET /api/pick`,
//! what clicks on a drawn board amount to (`grundy::picture::pick`).
//!
//! The library's play holds its own budget (`grundy::play::PLAY_BUDGET`) and takes no stop
//! flag, so a turn's cheap attempt first asks the registry the questions the turn will ask
//! (every move of the position, and of the position before it for tutor feedback) within the
//! cheap budget and with the stop flag: when they fit, the turn is as small and is played there;
//! when they outgrow it, the turn moves to the expensive pool. A Lua game takes the attempt's
//! limits itself.

use std::collections::HashMap;

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use grundy::catalogue::{Detail, Play, Registry};

use crate::errors::{ApiError, ApiResult};
use crate::params::{json_body, only, params, required, BodyBytes, Params};
use crate::pools::{Attempt, Start};
use crate::script::{script_limits, SCRIPT_NAME};
use crate::AppState;

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

/// What a play request plays: a game of the registry, or a Lua game's source.
enum Played {
    Game(String),
    Script(String),
}

/// A turn to play: the game, its position, the position before it, the earlier ones.
struct TurnRequest {
    played: Played,
    position: String,
    previous: Option<String>,
    history: Vec<String>,
}

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

impl TurnRequest {
    /// The turn, within `attempt`.
    fn turn(&self, registry: &Registry, attempt: &Attempt) -> ApiResult<grundy::play::Turn> {
        let g = match &self.played {
            Played::Game(game) => {
                if attempt.is_cheap() {
                    self.probe(registry, game, attempt)?;
                }
                grundy::play::Game::from_registry(registry, game, &self.position)?
            }
            Played::Script(source) => grundy::play::Game::script(
                SCRIPT_NAME,
                source,
                &self.position,
                script_limits(attempt),
            )?,
        };
        // The game was read at `position`: that is its start.
        Ok(play_turn(g, self.previous.as_deref(), &self.history)?)
    }

    /// The cheap attempt's measure of a turn: the registry's questions of the turn (every move
    /// valued, at the position and at the one before it) within the attempt's budget. An
    /// error that is not the attempt's (bad input) is left for the turn itself to say.
    fn probe(&self, registry: &Registry, game: &str, attempt: &Attempt) -> ApiResult<()> {
        let ask = attempt.ask(Play::Normal, Detail::All);
        for p in std::iter::once(&self.position).chain(&self.previous) {
            match registry.ask(game, p, &ask).map_err(ApiError::from) {
                Err(e) if e.outgrew => return Err(e),
                _ => {}
            }
        }
        Ok(())
    }
}

/// Plays the turn through the pools.
async fn answer(s: &AppState, req: ApiResult<TurnRequest>) -> Response {
    let req = match req {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    let registry = s.registry.clone();
    let played = match &req.played {
        Played::Game(g) => ("game", g.trim().to_ascii_lowercase()),
        Played::Script(src) => ("source", src.clone()),
    };
    let key = crate::pools::key(&("play", played, &req.position, &req.previous));
    s.pools
        .run(Start::Cheap, key, move |a| req.turn(&registry, a))
        .await
}

/// `GET /api/play?game=G&position=P[&previous=Q][&history=H]`: a turn of a catalogue game.
pub async fn play(State(s): State<AppState>, q: Params) -> Response {
    let req = (|| {
        let q = params(q)?;
        only(&q, &["game", "position", "previous", "history"])?;
        Ok(TurnRequest {
            played: Played::Game(required(&q, "game")?.to_string()),
            position: required(&q, "position")?.to_string(),
            previous: q.get("previous").cloned(),
            history: history_param(&q)?,
        })
    })();
    answer(&s, req).await
}

/// `POST /api/play` `{"game" | "source", "position", "previous"?, "history"?}`: a turn of a
/// catalogue game or of a Lua game written on the page, as `GET /api/play` gives one.
pub async fn play_post(State(s): State<AppState>, body: BodyBytes) -> Response {
    let req = (|| {
        let mut r: PlayRequest = json_body(
            body,
            "{\"game\" or \"source\", \"position\", \"previous\", \"history\"}",
        )?;
        check_history(&r.history)?;
        let played = match (r.game.take(), r.source.take()) {
            (Some(g), None) => Played::Game(g),
            (None, Some(src)) => Played::Script(src),
            (Some(_), Some(_)) => {
                return Err(ApiError::bad("give either 'game' or 'source', not both"))
            }
            (None, None) => {
                return Err(ApiError::bad(
                    "missing 'game' (a game of /api/games) or 'source' (a Lua game)",
                ))
            }
        };
        Ok(TurnRequest {
            played,
            position: r.position,
            previous: r.previous,
            history: r.history,
        })
    })();
    answer(&s, req).await
}

/// The `cells` parameter of `GET /api/pick`: points `R,C` separated by `;` (at most 4).
fn cells_param(text: &str) -> ApiResult<Vec<[u64; 2]>> {
    let bad = || {
        ApiError::bad(format!(
            "parameter 'cells' must be points row,column separated by ';' (like 0,1;0,2), \
             not {}",
            grundy::text::quote(text)
        ))
    };
    let cells: Vec<[u64; 2]> = text
        .split(';')
        .map(|p| {
            let (r, c) = p.split_once(',').ok_or_else(bad)?;
            let n = |x: &str| x.trim().parse::<u64>().map_err(|_| bad());
            Ok([n(r)?, n(c)?])
        })
        .collect::<ApiResult<_>>()?;
    if cells.len() > 4 {
        return Err(ApiError::bad(format!(
            "parameter 'cells' names {} points (at most 4)",
            cells.len()
        )));
    }
    Ok(cells)
}

/// A pick request: the game, the position, the points clicked, the colour to place.
struct PickRequest {
    game: String,
    position: String,
    cells: Vec<[u64; 2]>,
    stone: Option<String>,
}

/// `GET /api/pick?game=G&position=P&cells=R,C[;R,C][&stone=x|o]`: what the points clicked on
/// the drawn board of a position amount to, `grundy::picture::pick` as JSON: `{"move": M}`
/// (the legal move they name, as `/api/play` lists it), `{"more": [[r, c], …]}` (the points
/// that complete a move begun), or a 400 whose `error` says in one line why they are no move.
pub async fn pick(State(s): State<AppState>, q: Params) -> Response {
    let req: ApiResult<PickRequest> = (|| {
        let q = params(q)?;
        only(&q, &["game", "position", "cells", "stone"])?;
        Ok(PickRequest {
            game: required(&q, "game")?.to_string(),
            position: required(&q, "position")?.to_string(),
            cells: cells_param(required(&q, "cells")?)?,
            stone: q.get("stone").cloned(),
        })
    })();
    let PickRequest {
        game,
        position,
        cells,
        stone,
    } = match req {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    let registry = s.registry.clone();
    let key = crate::pools::key(&(
        "pick",
        game.trim().to_ascii_lowercase(),
        &position,
        &cells,
        &stone,
    ));
    s.pools
        .run(Start::Cheap, key, move |a| {
            if a.is_cheap() {
                let ask = a.ask(Play::Normal, Detail::All);
                if let Err(e) = registry.ask(&game, &position, &ask).map_err(ApiError::from) {
                    if e.outgrew {
                        return Err(e);
                    }
                }
            }
            let mut g = grundy::play::Game::from_registry(&registry, &game, &position)?;
            let at = g.start().clone();
            Ok(g.pick(&at, &cells, stone.as_deref())?)
        })
        .await
}
