//! [`Solved`]: any [`Game`] with a [`Notation`] as catalogue [`Rules`], by the memoised
//! [`Solver`], each query held to a [`Budget`] ([`Search`], [`Budgeted`]).

use std::cell::Cell;

use super::{
    explain_by_options, explain_misere, explain_value, Ask, Budget, Detail, Grundy, Move, Notation,
    Play, Position, Report, Result, Rules,
};
use crate::game::{Game, Outcome};
use crate::solver::Solver;

/// A game with a position cap: past the limit a newly opened position has no move, and
/// [`Search::run`] voids the answer (as [`crate::budget::MisereBudget`], with the split into
/// components kept; a split position counts as one, since it is memoised too).
pub struct Budgeted<G> {
    inner: G,
    limit: Cell<u64>,
    opened: Cell<u64>,
}

impl<G: Game> Game for Budgeted<G> {
    type Position = G::Position;

    fn options(&self, pos: &G::Position, out: &mut Vec<G::Position>) {
        let n = self.opened.get() + 1;
        self.opened.set(n);
        if n <= self.limit.get() {
            self.inner.options(pos, out);
        }
    }

    fn components(&self, pos: &G::Position, out: &mut Vec<G::Position>) -> bool {
        let split = self.inner.components(pos, out);
        if split {
            self.opened.set(self.opened.get() + 1);
        }
        split
    }

    fn memoise_sum(&self, pos: &G::Position) -> bool {
        self.inner.memoise_sum(pos)
    }
}

/// The generic [`Solver`] over a game, each query held to a [`Budget`] (positions opened, and
/// the memo's estimated bytes). The memo is kept between the queries of one rules object.
pub struct Search<G: Game> {
    solver: Solver<Budgeted<G>>,
}

impl<G: Game> Search<G> {
    /// A search over `game` with an empty memo.
    pub fn new(game: G) -> Self {
        Search {
            solver: Solver::new(Budgeted {
                inner: game,
                limit: Cell::new(u64::MAX),
                opened: Cell::new(0),
            }),
        }
    }

    /// The game searched.
    pub fn game(&self) -> &G {
        &self.solver.game().inner
    }

    /// Positions memoised so far (normal and misère play).
    pub fn memo_len(&self) -> usize {
        self.solver.memo_len() + self.solver.misere_memo_len()
    }

    /// Runs `f` under `budget`: the memo holds at most what the budget allows, and an answer
    /// that needed more is refused as a limit naming `what` (the memo is then cleared, since
    /// its entries may be void).
    pub fn run<T>(
        &mut self,
        budget: &Budget,
        what: &str,
        f: impl FnOnce(&mut Solver<Budgeted<G>>) -> T,
    ) -> Result<T> {
        let entry = Budget::entry_bytes::<G::Position>();
        let cap = budget.max_entries(entry);
        if self.memo_len() as u64 > cap {
            self.solver.clear();
        }
        let game = self.solver.game();
        game.opened.set(0);
        game.limit.set(cap);
        let out = f(&mut self.solver);
        let game = self.solver.game();
        let opened = game.opened.get();
        game.limit.set(u64::MAX);
        if opened > cap {
            self.solver.clear();
            return Err(budget.limit(what, entry).into());
        }
        Ok(out)
    }
}

/// Any [`Game`] with a [`Notation`] as catalogue [`Rules`], by the memoised [`Solver`]:
/// values, outcomes and winning moves in normal play, outcomes and winning moves by search in
/// misère play, under the caller's [`Budget`] (positions opened, and the memo's bytes).
pub struct Solved<G: Notation> {
    name: String,
    search: Search<G>,
}

impl<G: Notation> Solved<G> {
    /// The rules `game`, registered as `name`.
    pub fn new(name: impl Into<String>, game: G) -> Solved<G> {
        Solved {
            name: name.into(),
            search: Search::new(game),
        }
    }

    /// The game.
    pub fn game(&self) -> &G {
        self.search.game()
    }

    fn position(&self, p: &G::Position) -> Position {
        Position {
            kind: G::KIND,
            text: self.game().print(p),
            data: self.game().data(p),
        }
    }

    fn read(&self, pos: &Position) -> Result<G::Position> {
        self.game().parse(&pos.text)
    }

    fn value(
        solver: &mut Solver<Budgeted<G>>,
        p: &G::Position,
        play: Play,
    ) -> (Outcome, Option<u64>) {
        match play {
            Play::Normal => {
                let g = solver.grundy(p);
                (Outcome::from_grundy(g), Some(g))
            }
            Play::Misere => (solver.misere_outcome(p), None),
        }
    }
}

impl<G: Notation> Rules for Solved<G> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn parse(&self, text: &str) -> Result<Position> {
        let p = self.game().parse(text)?;
        Ok(self.position(&p))
    }

    fn moves(&mut self, pos: &Position, ask: &Ask) -> Result<Vec<Move>> {
        let p = self.read(pos)?;
        let name = self.name.clone();
        let play = ask.play;
        let (options, values) = self.search.run(&ask.budget, &name, |s| {
            let options = s.options(&p);
            let values: Vec<_> = options.iter().map(|o| Self::value(s, o, play)).collect();
            (options, values)
        })?;
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::with_capacity(options.len());
        for (o, (outcome, g)) in options.iter().zip(values) {
            let to = self.position(o);
            if !seen.insert(to.text.clone()) {
                continue;
            }
            let (text, short) = self.game().move_text(&p, o);
            out.push(Move {
                text,
                short,
                to,
                outcome,
                grundy: g.map(Grundy::Finite),
                at: Default::default(),
            });
        }
        Ok(out)
    }

    fn analyze(&mut self, pos: &Position, ask: &Ask) -> Result<Report> {
        let p = self.read(pos)?;
        let name = self.name.clone();
        let play = ask.play;
        let (outcome, grundy) = self
            .search
            .run(&ask.budget, &name, |s| Self::value(s, &p, play))?;
        let report = Report::new(
            self.name.clone(),
            self.position(&p),
            play,
            outcome,
            grundy.map(Grundy::Finite),
        )
        .at(ask.detail);
        let own = grundy
            .map(|g| self.game().explain(&p, g))
            .unwrap_or_default();
        if ask.detail == Detail::Value {
            let mut report = report;
            report.explanation = if own.is_empty() {
                explain_value(grundy, outcome)
            } else {
                own
            };
            return Ok(report);
        }
        // The root's search valued every option already (they are in the memo).
        let moves = self.moves(pos, ask)?;
        let explanation = match grundy {
            Some(_) if !own.is_empty() => own,
            Some(g) => explain_by_options(g, &moves),
            None => explain_misere(outcome, &moves),
        };
        let mut report = report.with_moves(moves);
        report.explanation = explanation;
        Ok(report)
    }
}
