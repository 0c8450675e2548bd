//! Boards of stones played by clicks, as the page plays them: `/api/play` for each turn (its
//! `drawing` the board, point by point), `/api/pick` for what the clicked points amount to
//! (a move, the points that complete one, or a one-line 400), the move's `to` sent back to
//! `/api/play`. Clobber and NoGo are played to the end this way.

mod common;

use common::{enc, get, start};
use grundy_serve::Config;
use serde_json::Value;

fn turn(addr: std::net::SocketAddr, game: &str, position: &str) -> Value {
    let r = get(
        addr,
        &format!("/api/play?game={game}&position={}", enc(position)),
    );
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    r.json()
}

fn pick(
    addr: std::net::SocketAddr,
    game: &str,
    position: &str,
    cells: &str,
    stone: Option<&str>,
) -> common::Reply {
    let stone = stone.map(|s| format!("&stone={s}")).unwrap_or_default();
    get(
        addr,
        &format!(
            "/api/pick?game={game}&position={}&cells={}{stone}",
            enc(position),
            enc(cells)
        ),
    )
}

fn point(v: &Value) -> String {
    format!("{},{}", v[0], v[1])
}

#[test]
fn clobber_and_nogo_are_played_to_the_end_by_clicks() {
    let addr = start(Config::default());
    for (game, start) in [
        ("clobber", "xox|oxo"),
        ("cannibal-clobber", "xo.|ox."),
        ("nogo", "...|.#."),
    ] {
        let mut position = start.to_string();
        let mut plies = 0;
        loop {
            let t = turn(addr, game, &position);
            let d = &t["drawing"];
            let points: usize = position.split('|').map(str::len).sum();
            assert_eq!(d["stones"].as_array().unwrap().len(), points, "{game}");
            if t["game_over"] == true {
                break;
            }
            // The engine's reply, clicked: the stone then its capture, or the point with its
            // colour.
            let m = &t["reply"];
            let r = if let Some(cell) = m["at"].get("cell") {
                pick(
                    addr,
                    game,
                    &position,
                    &point(cell),
                    m["at"]["stone"].as_str(),
                )
            } else {
                let from = point(&m["at"]["from"]);
                let first = pick(addr, game, &position, &from, None);
                assert_eq!(
                    first.status,
                    200,
                    "{}",
                    String::from_utf8_lossy(&first.body)
                );
                let more = first.json()["more"].clone();
                assert!(more.as_array().unwrap().contains(&m["at"]["to"]), "{more}");
                let cells = format!("{from};{}", point(&m["at"]["to"]));
                pick(addr, game, &position, &cells, None)
            };
            assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
            let picked = r.json()["move"].clone();
            assert_eq!(picked["text"], m["text"], "{game}");
            position = picked["to"]["text"].as_str().unwrap().to_string();
            plies += 1;
            assert!(plies < 20);
        }
        assert!(plies > 0, "{game}");
    }
}

#[test]
fn clicks_that_are_no_move_are_one_line_400s() {
    let addr = start(Config::default());
    for (game, position, cells, stone, says) in [
        (
            "clobber",
            "xo.|ox.",
            "0,0;1,1",
            None,
            "cannot capture the x on (1, 1)",
        ),
        ("clobber", "xo.|ox.", "0,2", None, "(0, 2) is empty"),
        (
            "clobber",
            "xo.|ox.",
            "7,0",
            None,
            "(7, 0) is not on the board",
        ),
        ("nogo", "xo.|...", "0,0", Some("o"), "(0, 0) is taken"),
        ("nogo", "xo.|...", "1,0", Some("o"), "without liberties"),
        ("nogo", "xo.|...", "1,1", None, "choose the colour"),
        ("clobber", "xo", "0", None, "parameter 'cells'"),
        ("clobber", "xo", "0,0;0,1;0,0;0,1;0,0", None, "at most 4"),
        ("clobber", "xz", "0,0", None, ""),
        ("nim", "3", "0,0", None, "not made by clicking"),
    ] {
        let r = pick(addr, game, position, cells, stone);
        assert_eq!(
            r.status,
            400,
            "{game} {cells}: {}",
            String::from_utf8_lossy(&r.body)
        );
        let e = r.json()["error"].as_str().unwrap().to_string();
        assert!(e.contains(says) && !e.contains('\n'), "{game} {cells}: {e}");
    }
    let r = get(addr, "/api/pick?game=clobber&position=xo");
    assert_eq!(r.status, 400);
    assert!(r.json()["error"].as_str().unwrap().contains("'cells'"));
}
