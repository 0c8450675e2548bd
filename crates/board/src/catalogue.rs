//! Node Kayles (`node-kayles`) and Arc Kayles (`arc-kayles`) in the game catalogue, on the
//! search engine.
//!
//! A position is a graph in [`crate::graph`]'s notation (`grid:3x4` prints back as itself);
//! after a move it is the graph left, renumbered `0..k` in order, as an edge list (for Arc
//! Kayles, vertices without edges are dropped: they take no part in it). Kind `"graph"`,
//! fields `vertices`, `edges` and, for a lattice (`grid`, `ladder`, `path`) or a queens graph
//! (`queens:N`, whose vertices are a board's squares), `layout` (`{"grid": [R, C]}`: vertex
//! `v` at row `v / C`, column `v % C`), for pictures. A move's
//! `at` names the vertex (`vertex`) or the edge (`edge`, its two ends) taken, and `kept`: the
//! vertices the graph left keeps, in its numbering (its vertex `i` is `kept[i]` here), so
//! that a picture keeps each vertex where it was.
//!
//! A graph of more than 128 vertices (up to 1,024: `queens:14`, a long edge list) is valued
//! in normal play by the [`crate::expand`] expansion through the same [`crate::ask::search`]
//! (its `table` file is the expansion's memo); its report's `details` add `leaves`, the
//! engine searches made. Misère play searches the whole graph and stops at 128 vertices.

use grundy_core::catalogue::{
    Ask, Detail, Entry, Error, Info, Move as CatMove, Notation, Param, Position, Report, Result,
    Rules, Solved,
};
use grundy_core::{Game as PlainGame, Outcome};

use crate::ask::Found;
use crate::engine::{bits, moves, Engine, Move, Rules as Game};
use crate::expand::{AnyGraph, Expansion, WideSet, MAX_WIDE_VERTICES};
use crate::graph::{Graph, GraphError, VertexSet};

/// The catalogue entries of this crate.
pub fn entries() -> Vec<Box<dyn Entry>> {
    vec![
        Box::new(NodeKaylesEntry),
        Box::new(ArcKaylesEntry),
        Box::new(ClobberEntry),
        Box::new(CannibalClobberEntry),
        Box::new(NoGoEntry),
    ]
}

/// The params of both games: the engine's threads and table file.
const PARAMS: [Param; 2] = [crate::ask::THREADS, crate::ask::TABLE];

/// The `node-kayles` entry.
pub struct NodeKaylesEntry;

impl Entry for NodeKaylesEntry {
    fn info(&self) -> Info {
        Info {
            name: "node-kayles".into(),
            summary: "Node Kayles: pick a vertex and delete it with its neighbours".into(),
            ..ArcKaylesEntry.info()
        }
    }

    fn matches(&self, name: &str) -> bool {
        name == "node-kayles"
    }

    fn open(&self, _name: &str) -> Result<Box<dyn Rules>> {
        Ok(Box::new(GraphRules::new(Game::NodeKayles)))
    }
}

/// The `arc-kayles` entry.
pub struct ArcKaylesEntry;

impl Entry for ArcKaylesEntry {
    fn info(&self) -> Info {
        Info {
            name: "arc-kayles".into(),
            aliases: vec![],
            summary: "Arc Kayles: pick an edge and delete both its ends (Cram is Arc Kayles on \
                      a grid)"
                .into(),
            example: "grid:3x4".into(),
            example_game: None,
            position: "a graph: path:N, cycle:N, grid:RxC, ladder:N, star:K, complete:N, \
                       complete:M,N, petersen:N,K, queens:N, or an edge list 0-1,1-2,2-0; up to 1024 \
                       vertices (past 128 the first moves are expanded, normal play only)"
                .into(),
            kind: "graph".into(),
            family: false,
            misere: true,
            loopy: false,
            scoring: false,
            params: PARAMS.to_vec(),
        }
    }

    fn matches(&self, name: &str) -> bool {
        name == "arc-kayles"
    }

    fn open(&self, _name: &str) -> Result<Box<dyn Rules>> {
        Ok(Box::new(GraphRules::new(Game::ArcKayles)))
    }
}

/// Either game's rules: normal play on the search engine, misère play by the plain search.
struct GraphRules {
    game: Game,
    misere: Solved<Plain>,
}

impl GraphRules {
    fn new(game: Game) -> GraphRules {
        GraphRules {
            game,
            misere: Solved::new(game.name(), Plain(game)),
        }
    }
}

/// A graph of the notation, held by its size: the engine's to 128 vertices, the expansion's
/// ([`crate::expand`]) past them.
fn read(text: &str) -> Result<AnyGraph> {
    AnyGraph::parse(text).map_err(|e| Error::input(e.to_string()))
}

/// A graph of at most 128 vertices, for misère play (searched whole by the plain search).
fn read_small(text: &str) -> Result<Graph> {
    Graph::parse(text).map_err(|e| match e {
        GraphError::TooManyVertices { count, .. } if count <= MAX_WIDE_VERTICES => {
            Error::input(format!(
                "misère play is searched on the whole graph, at most 128 vertices: this one \
                 has {count}"
            ))
        }
        e => Error::input(e.to_string()),
    })
}

fn position(g: &AnyGraph) -> Position {
    let p = Position::text("graph", g.to_string())
        .with("vertices", g.vertex_count())
        .with("edges", g.edges());
    match g.board_shape() {
        Some((r, c)) => p.with("layout", serde_json::json!({ "grid": [r, c] })),
        None => p,
    }
}

/// The graph left on the vertex set `left`, renumbered (for Arc Kayles, isolated vertices
/// dropped).
fn left_graph(game: Game, g: &Graph, left: VertexSet) -> Result<Graph> {
    left_graph_kept(game, g, left).map(|(h, _)| h)
}

/// [`left_graph`] and the vertices of `g` it keeps, in its numbering order.
fn left_graph_kept(game: Game, g: &Graph, left: VertexSet) -> Result<(Graph, Vec<usize>)> {
    // Arc Kayles keeps the vertices a move can still delete: with a loop or a neighbour left.
    let live = |v: usize| g.neighbors(v) & left != 0 || g.loops() & 1u128 << v != 0;
    let keep: Vec<usize> = bits(left)
        .filter(|&v| game == Game::NodeKayles || live(v))
        .collect();
    let index = |v: usize| keep.iter().position(|&w| w == v);
    let edges: Vec<(usize, usize)> = g
        .edges()
        .into_iter()
        .filter_map(|(a, b)| Some((index(a)?, index(b)?)))
        .collect();
    let h = Graph::from_edges(keep.len(), &edges).map_err(|e| Error::input(e.to_string()))?;
    Ok((h, keep))
}

/// `mv` with its place on the picture: the vertex or edge `m` takes, and the vertices kept.
fn placed(mv: CatMove, m: Move, kept: Vec<usize>) -> CatMove {
    let mv = mv.at("kept", kept);
    match m {
        Move::Vertex(v) => mv.at("vertex", v),
        Move::Edge(a, b) => mv.at("edge", [a, b]),
    }
}

impl GraphRules {
    /// The plain search's moves (misère play) with the `at` of the engine's: each matched to
    /// the engine move that leaves the same graph.
    fn placed(&self, pos: &Position, found: Vec<CatMove>) -> Vec<CatMove> {
        let Ok(g) = read_small(&pos.text) else {
            return found;
        };
        let left: Vec<(Move, Graph, Vec<usize>)> = moves(self.game, &g, g.all())
            .into_iter()
            .filter_map(|(m, left)| {
                let (h, kept) = left_graph_kept(self.game, &g, left).ok()?;
                Some((m, h, kept))
            })
            .collect();
        found
            .into_iter()
            .map(|mv| {
                let hit = left.iter().find(|(_, h, _)| h.to_string() == mv.to.text);
                match hit {
                    Some((m, _, kept)) => placed(mv, *m, kept.clone()),
                    None => mv,
                }
            })
            .collect()
    }
}

impl Rules for GraphRules {
    fn name(&self) -> String {
        self.game.name().into()
    }

    fn parse(&self, text: &str) -> Result<Position> {
        Ok(position(&read(text)?))
    }

    fn moves(&mut self, pos: &Position, ask: &Ask) -> Result<Vec<CatMove>> {
        if ask.play.is_misere() {
            let moves = self.misere.moves(pos, ask)?;
            return Ok(self.placed(pos, moves));
        }
        let all = ask.clone().detail(Detail::All);
        Ok(self.analyze(pos, &all)?.all_moves)
    }

    fn analyze(&mut self, pos: &Position, ask: &Ask) -> Result<Report> {
        if ask.play.is_misere() {
            let mut r = self.misere.analyze(pos, ask)?;
            r.winning_moves = self.placed(pos, std::mem::take(&mut r.winning_moves));
            r.all_moves = self.placed(pos, std::mem::take(&mut r.all_moves));
            return Ok(r);
        }
        let game = self.game;
        let what = format!("{} {}", game.name(), pos.text);
        let opts = crate::ask::options(ask, &PARAMS, &what)?;
        let graph = read(&pos.text)?;
        let at = position(&graph);
        match graph {
            AnyGraph::Small(g) => {
                let root = g.all();
                let mut e = Engine::new(game, g, opts)
                    .map_err(|err| crate::ask::search_error(err, ask, &what, None))?;
                let found = crate::ask::search(&mut e, root, ask, &what)?;
                let left = |s: &VertexSet| {
                    let (h, kept) = left_graph_kept(game, e.graph(), *s)?;
                    Ok((AnyGraph::Small(h), kept))
                };
                report(game, at, ask, &found, left)
            }
            AnyGraph::Wide(w) => {
                let root = w.all();
                let mut x = Expansion::new(game, w, opts);
                let found = crate::ask::search(&mut x, root, ask, &what)?;
                let left = |s: &WideSet| {
                    x.graph()
                        .left(game, s)
                        .map_err(|e| Error::input(e.to_string()))
                };
                let mut r = report(game, at, ask, &found, left)?;
                r.details["leaves"] = x.leaves().into();
                Ok(r)
            }
        }
    }
}

/// The report of a search's `found` on the graph at `at` at `ask`'s detail, each move's
/// position the graph `left` makes of the set it leaves (with the vertices it keeps, for
/// pictures).
fn report<S>(
    game: Game,
    at: Position,
    ask: &Ask,
    found: &Found<S>,
    left: impl Fn(&S) -> Result<(AnyGraph, Vec<usize>)>,
) -> Result<Report> {
    let value = u64::from(found.grundy);
    let outcome = Outcome::from_grundy(value);
    let mut r = Report::new(game.name(), at, ask.play, outcome, Some(value.into())).at(ask.detail);
    let to_move = |m: Move, s: &S, v: u64| -> Result<CatMove> {
        let (text, short) = move_words(m);
        let (h, kept) = left(s)?;
        Ok(placed(
            CatMove::new(text, &short, position(&h), Outcome::from_grundy(v), Some(v)),
            m,
            kept,
        ))
    };
    for (m, s) in &found.winning {
        r.winning_moves.push(to_move(*m, s, 0)?);
    }
    for (m, s, v) in &found.all {
        r.all_moves.push(to_move(*m, s, (*v).into())?);
    }
    crate::ask::finish_report(
        &mut r,
        ask.detail,
        value,
        found.count,
        found.winning.len(),
        (found.nodes, found.resumed, found.entries),
    );
    Ok(r)
}

/// Either game over whole graphs, for misère play: the engine's shortcuts (components XORed,
/// "is G + *n a P-position?") hold in normal play only, so misère positions are searched
/// whole by the catalogue's plain memoised search, a position being the graph left.
#[derive(Clone, Copy)]
struct Plain(Game);

impl PlainGame for Plain {
    type Position = Graph;

    fn options(&self, g: &Graph, out: &mut Vec<Graph>) {
        for (_, left) in moves(self.0, g, g.all()) {
            // The graph left is a subgraph of a valid graph: renumbering it cannot fail.
            if let Ok(h) = left_graph(self.0, g, left) {
                out.push(h);
            }
        }
    }
}

impl Notation for Plain {
    const KIND: &'static str = "graph";

    fn parse(&self, text: &str) -> Result<Graph> {
        read_small(text)
    }

    fn print(&self, g: &Graph) -> String {
        g.to_string()
    }

    fn data(&self, g: &Graph) -> serde_json::Map<String, serde_json::Value> {
        position(&AnyGraph::Small(g.clone())).data
    }

    fn move_text(&self, from: &Graph, to: &Graph) -> (String, String) {
        let moved = moves(self.0, from, from.all())
            .into_iter()
            .find(|&(_, left)| left_graph(self.0, from, left).as_ref() == Ok(to));
        match moved {
            Some((m, _)) => move_words(m),
            None => (format!("move to {to}"), format!("to {to}")),
        }
    }
}

/// A move in words: `(text, short)`.
fn move_words(m: Move) -> (String, String) {
    match m {
        Move::Edge(a, b) if a == b => (
            format!("take the loop at vertex {a}, deleting the vertex"),
            format!("loop {a}"),
        ),
        Move::Edge(a, b) => (
            format!("take the edge {a}-{b}, deleting both its ends"),
            format!("edge {a}-{b}"),
        ),
        Move::Vertex(v) => (
            format!("take vertex {v}, deleting it and its neighbours"),
            format!("vertex {v}"),
        ),
    }
}
/// The `clobber` entry of the catalogue (impartial Clobber).
pub struct ClobberEntry;

/// The `cannibal-clobber` entry of the catalogue (impartial Cannibal Clobber).
pub struct CannibalClobberEntry;

/// The position grammar of both entries.
const CLOBBER_POSITION: &str = "rows of x, o, . (empty) and # (off the board) joined by |, \
    with repeats (xo)^n and x^n: xoxo, xo.|ox., (xo)^50; RxC is the checkerboard with x in \
    the top left corner; at most 64 cells unless one row or column";

impl grundy_core::catalogue::Entry for ClobberEntry {
    fn info(&self) -> grundy_core::catalogue::Info {
        grundy_core::catalogue::Info {
            name: "clobber".into(),
            aliases: Vec::new(),
            summary: "impartial Clobber: move a stone onto a neighbouring stone of the other \
                      colour, which is removed; either player moves either colour"
                .into(),
            example: "3x3".into(),
            example_game: None,
            position: CLOBBER_POSITION.into(),
            kind: "stones".into(),
            family: false,
            misere: true,
            loopy: false,
            scoring: false,
            params: crate::stones_rules::PARAMS.to_vec(),
        }
    }

    fn matches(&self, name: &str) -> bool {
        name == "clobber"
    }

    fn open(
        &self,
        _name: &str,
    ) -> grundy_core::catalogue::Result<Box<dyn grundy_core::catalogue::Rules>> {
        Ok(Box::new(crate::stones_rules::StoneRules::new(
            crate::stones_rules::Stones::Clobber(crate::clobber::Variant::Clobber),
        )))
    }
}

impl grundy_core::catalogue::Entry for CannibalClobberEntry {
    fn info(&self) -> grundy_core::catalogue::Info {
        grundy_core::catalogue::Info {
            name: "cannibal-clobber".into(),
            summary: "impartial Cannibal Clobber: move a stone onto a neighbouring stone of \
                      either colour, which is removed"
                .into(),
            example: "x^8".into(),
            ..ClobberEntry.info()
        }
    }

    fn matches(&self, name: &str) -> bool {
        name == "cannibal-clobber"
    }

    fn open(
        &self,
        _name: &str,
    ) -> grundy_core::catalogue::Result<Box<dyn grundy_core::catalogue::Rules>> {
        Ok(Box::new(crate::stones_rules::StoneRules::new(
            crate::stones_rules::Stones::Clobber(crate::clobber::Variant::Cannibal),
        )))
    }
}

/// The `nogo` entry of the catalogue (impartial NoGo).
pub struct NoGoEntry;

impl grundy_core::catalogue::Entry for NoGoEntry {
    fn info(&self) -> grundy_core::catalogue::Info {
        grundy_core::catalogue::Info {
            name: "nogo".into(),
            aliases: Vec::new(),
            summary: "impartial NoGo: place a stone of either colour so that every group of \
                      both colours keeps a liberty"
                .into(),
            example: "2x3".into(),
            example_game: None,
            position: "rows of x, o, . (empty) and # (off the board) joined by |, with \
                       repeats (.x)^3 and .^5; RxC is the empty board (1x24, 3x5); at most 64 \
                       points, every group with a liberty"
                .into(),
            kind: "stones".into(),
            family: false,
            misere: true,
            loopy: false,
            scoring: false,
            params: crate::stones_rules::PARAMS.to_vec(),
        }
    }

    fn matches(&self, name: &str) -> bool {
        name == "nogo"
    }

    fn open(
        &self,
        _name: &str,
    ) -> grundy_core::catalogue::Result<Box<dyn grundy_core::catalogue::Rules>> {
        Ok(Box::new(crate::stones_rules::StoneRules::new(
            crate::stones_rules::Stones::NoGo,
        )))
    }
}
