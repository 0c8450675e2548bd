//! Lua script games in the catalogue, registered at run time ([`ScriptEntry`]): the CLI
//! registers a script file it was given, the web server a script a page posted.
//!
//! A position is one Lua literal (`7`, `{3, 3, 3}`, or a sum of them, `sum(7, {3, 3})`); kind
//! `"script"`, field `value` (the literal as JSON where it has a JSON form), as
//! [`script::Position::tagged`] writes it.

use grundy_core::catalogue::{
    explain_by_options, explain_misere, Ask, Entry, Error, Info, Move, Play, Position, Report,
    Result, Rules,
};

use crate::script::{self, Limits, ScriptError, Session};

/// A script's error as the catalogue's: its limits are limits, a stop is a stop, anything
/// else the script's or the input's fault.
pub fn script_error(e: ScriptError) -> Error {
    match e {
        ScriptError::StepLimit { .. }
        | ScriptError::LoopyLimit(_)
        | ScriptError::MemoryLimit { .. }
        | ScriptError::PositionLimit { .. }
        | ScriptError::ByteLimit { .. }
        | ScriptError::TimeLimit { .. } => Error::limit(e.to_string()),
        ScriptError::Stopped => Error {
            kind: grundy_core::catalogue::ErrorKind::Stopped,
            message: e.to_string(),
            parameter: None,
        },
        _ => Error::input(e.to_string()),
    }
}

/// A game written in Lua, known by the name it was registered under (its file name).
pub struct ScriptEntry {
    name: String,
    title: String,
    source: String,
    limits: Limits,
}

impl ScriptEntry {
    /// The script `source`, registered as `name` (checked now: a script that does not load
    /// is refused here, with its line).
    pub fn new(name: &str, source: &str, limits: Limits) -> Result<ScriptEntry> {
        let s = script::Script::load(name, source, limits.clone()).map_err(script_error)?;
        Ok(ScriptEntry {
            name: name.to_string(),
            title: s.title().to_string(),
            source: source.to_string(),
            limits,
        })
    }
}

impl Entry for ScriptEntry {
    fn info(&self) -> Info {
        Info {
            name: self.name.clone(),
            aliases: vec![],
            summary: format!("{} (a game written in Lua)", self.title),
            example: "0".into(),
            example_game: None,
            position: "a Lua literal: a number, a string, or a table such as {3, 3, 3}; a sum \
                       of them as sum(7, {3, 3})"
                .into(),
            kind: "script".into(),
            family: false,
            misere: true,
            loopy: true,
            scoring: false,
            params: Vec::new(),
        }
    }

    fn matches(&self, name: &str) -> bool {
        name.eq_ignore_ascii_case(&self.name)
    }

    fn open(&self, _name: &str) -> Result<Box<dyn Rules>> {
        let s = script::Script::load(&self.name, &self.source, self.limits.clone())
            .map_err(script_error)?;
        Ok(Box::new(ScriptRules {
            name: self.title.clone(),
            session: s.session().map_err(script_error)?,
        }))
    }
}

/// A script game's rules: one Lua session and its memo.
pub struct ScriptRules {
    name: String,
    session: Session,
}

fn position(p: &script::Position) -> Position {
    p.tagged()
}

fn read(pos: &Position) -> Result<script::Position> {
    script::parse_position(&pos.text).map_err(|e| Error::input(e.to_string()))
}

impl Rules for ScriptRules {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn parse(&self, text: &str) -> Result<Position> {
        let p = script::parse_position(text).map_err(|e| Error::input(e.to_string()))?;
        Ok(position(&p))
    }

    fn moves(&mut self, pos: &Position, ask: &Ask) -> Result<Vec<Move>> {
        let (play, budget) = (ask.play, &ask.budget);
        let p = read(pos)?;
        let e = self.session.explain(&p).map_err(script_error)?;
        if e.options.len() as u64 > budget.max_positions {
            return Err(Error::limit("the position has more moves than the budget"));
        }
        let mut out = Vec::with_capacity(e.options.len());
        for o in e.options {
            let (outcome, grundy) = match play {
                Play::Normal => (o.grundy.outcome(), Some(o.grundy.clone())),
                Play::Misere => {
                    let a = self
                        .session
                        .analyze(std::slice::from_ref(&o.to), script::Play::Misere)
                        .map_err(script_error)?;
                    (a.outcome, None)
                }
            };
            let mut m = Move::new(
                format!("move to {}", o.text),
                &format!("to {}", o.text),
                position(&o.to),
                outcome,
                None,
            );
            m.grundy = grundy;
            out.push(m);
        }
        Ok(out)
    }

    fn analyze(&mut self, pos: &Position, ask: &Ask) -> Result<Report> {
        let play = ask.play;
        let p = read(pos)?;
        let a = self
            .session
            .analyze(
                std::slice::from_ref(&p),
                script::Play::from_misere(play.is_misere()),
            )
            .map_err(script_error)?;
        let moves = self.moves(pos, ask)?;
        let mut r = Report::new(
            self.name.clone(),
            position(&p),
            play,
            a.outcome,
            a.grundy.clone(),
        );
        r.explanation = match a.grundy.as_ref().map(|g| (g.finite(), g)) {
            Some((Some(g), _)) if a.remoteness.is_none() => explain_by_options(g, &moves),
            // Valued by the loopy solver: Smith's labelling, in words.
            Some(_) => {
                let e = self.session.explain(&p).map_err(script_error)?;
                e.why
                    .unwrap_or_default()
                    .lines()
                    .map(str::to_string)
                    .filter(|s| !s.trim().is_empty())
                    .collect()
            }
            None => explain_misere(a.outcome, &moves),
        };
        r.details = serde_json::to_value(&a).unwrap_or_default();
        r.detail = ask.detail;
        Ok(r.with_moves(moves))
    }
}
