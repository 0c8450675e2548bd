//! Node Kayles (`node-kayles`) and Arc Kayles (`arc-kayles`) in the game catalogue, on the
//! search engine.
//!
//! A position is a graph in [`crate::graph`]'s notation (`grid:3x4` prints back as itself);
//! after a move it is the graph left, renumbered `0..k` in order, as an edge list (for Arc
//! Kayles, vertices without edges are dropped: they take no part in it). Kind `"graph"`,
//! fields `vertices` and `edges`.

use grundy_core::catalogue::{
    Budget, Entry, Error, Info, Move as CatMove, Notation, Play, Position, Report, Result, Rules,
    Solved,
};
use grundy_core::{Game as PlainGame, Outcome};

use crate::engine::{bits, moves, Engine, Move, Options, Rules as Game, SearchError};
use crate::graph::{Graph, VertexSet};

/// The catalogue entries of this crate.
pub fn entries() -> Vec<Box<dyn Entry>> {
    vec![Box::new(NodeKaylesEntry), Box::new(ArcKaylesEntry)]
}

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
                       complete:M,N, or an edge list 0-1,1-2,2-0"
                .into(),
            kind: "graph".into(),
            family: false,
            misere: true,
            loopy: false,
            scoring: false,
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

fn read(text: &str) -> Result<Graph> {
    Graph::parse(text).map_err(|e| Error::input(e.to_string()))
}

fn position(g: &Graph) -> Position {
    Position::text("graph", g.to_string())
        .with("vertices", g.vertex_count())
        .with("edges", g.edges())
}

/// The graph left on the vertex set `left`, renumbered (for Arc Kayles, isolated vertices
/// dropped).
fn left_graph(game: Game, g: &Graph, left: VertexSet) -> Result<Graph> {
    let keep: Vec<usize> = bits(left)
        .filter(|&v| game == Game::NodeKayles || g.neighbors(v) & left & !(1u128 << v) != 0)
        .collect();
    let index = |v: usize| keep.iter().position(|&w| w == v);
    let edges: Vec<(usize, usize)> = g
        .edges()
        .into_iter()
        .filter_map(|(a, b)| Some((index(a)?, index(b)?)))
        .collect();
    Graph::from_edges(keep.len(), &edges).map_err(|e| Error::input(e.to_string()))
}

fn search_error(e: SearchError) -> Error {
    match e {
        SearchError::Stopped { .. } | SearchError::NodeLimit { .. } => Error::limit(e.to_string()),
        e => Error::input(e.to_string()),
    }
}

fn engine(game: Game, g: Graph, budget: &Budget) -> Result<Engine> {
    let opts = Options {
        max_memory: (budget.max_bytes.min(256 << 20) as usize).max(8 << 20),
        max_nodes: Some(budget.max_positions),
        ..Options::default()
    };
    Engine::new(game, g, opts).map_err(search_error)
}

impl Rules for GraphRules {
    fn name(&self) -> String {
        self.game.name().into()
    }

    fn parse(&self, text: &str) -> Result<Position> {
        Ok(position(&read(text)?))
    }

    fn moves(&mut self, pos: &Position, play: Play, budget: &Budget) -> Result<Vec<CatMove>> {
        if play.is_misere() {
            return self.misere.moves(pos, play, budget);
        }
        let g = read(&pos.text)?;
        let mut e = engine(self.game, g.clone(), budget)?;
        let mut out = Vec::new();
        for (m, left) in e.moves(g.all()) {
            let v = e.grundy(left).map_err(search_error)? as u64;
            let (text, short) = move_words(m);
            out.push(CatMove::new(
                text,
                &short,
                position(&left_graph(self.game, &g, left)?),
                Outcome::from_grundy(v),
                Some(v),
            ));
        }
        Ok(out)
    }

    fn analyze(&mut self, pos: &Position, play: Play, budget: &Budget) -> Result<Report> {
        if play.is_misere() {
            return self.misere.analyze(pos, play, budget);
        }
        let g = read(&pos.text)?;
        let mut e = engine(self.game, g.clone(), budget)?;
        let a = e.analyze(g.all()).map_err(search_error)?;
        let moves = self.moves(pos, play, budget)?;
        let mut r = Report::new(
            self.game.name(),
            position(&g),
            play,
            a.outcome,
            Some((a.grundy as u64).into()),
        );
        r.moves = Some(moves.len() as u64);
        r.explanation = grundy_core::catalogue::explain_by_options(a.grundy as u64, &moves);
        r.winning_moves = moves.into_iter().filter(CatMove::wins).collect();
        r.details = serde_json::json!({ "nodes": a.nodes });
        Ok(r)
    }
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
        read(text)
    }

    fn print(&self, g: &Graph) -> String {
        g.to_string()
    }

    fn data(&self, g: &Graph) -> serde_json::Map<String, serde_json::Value> {
        position(g).data
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
