//! What a question to the catalogue asks: [`Ask`] — the play, how much of the moves
//! ([`Detail`]), the [`Budget`], the game's own settings ([`Settings`], checked against the
//! [`Param`]s its entry declares), and the controls of long work (progress, stop).
//!
//! Every front end builds one `Ask` from its own spelling of the same words — `--moves winning
//! --threads 2` in the CLI, `moves="winning", threads=2` in Python, `&moves=winning&threads=2`
//! on the web — so a question means the same at every door.
//!
//! ```
//! use grundy_core::catalogue::{Ask, Detail, Param, ParamKind, Play};
//!
//! let params = [Param::count("threads", "threads searching side by side", 1, 64)];
//! let ask = Ask::new(Play::Normal).detail(Detail::Value).set("threads", "2");
//! ask.settings.check(&params)?;
//! assert_eq!(ask.settings.count("threads", &params)?, Some(2));
//! assert!(Ask::new(Play::Normal).set("thread", "2").settings.check(&params).is_err());
//! # Ok::<(), grundy_core::catalogue::Error>(())
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::{Error, Result};
use crate::budget::Budget;
use crate::game::Play;
use crate::text::quote;

/// How much of the moves a question asks for. Spelled the same at every door: `--moves
/// value|winning|all`, `moves="value"`, `&moves=value`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Detail {
    /// The outcome and value only: no move is examined that the value does not need (a
    /// search engine values the root alone, every shortcut included).
    Value,
    /// The winning moves too (the default). A search engine asks of each option only "is it
    /// a P-position?" (Lemoine–Viennot), never its exact value.
    #[default]
    Winning,
    /// Every legal move with the outcome and value of the position it leaves: the "why",
    /// for teaching.
    All,
}

impl Detail {
    /// The three levels, as they are spelled.
    pub const NAMES: [&'static str; 3] = ["value", "winning", "all"];

    /// The level's name: `value`, `winning` or `all`.
    pub fn name(self) -> &'static str {
        match self {
            Detail::Value => "value",
            Detail::Winning => "winning",
            Detail::All => "all",
        }
    }

    /// True when the winning moves are asked for (`winning` or `all`).
    pub fn wants_winning(self) -> bool {
        self != Detail::Value
    }

    /// True when every move's value is asked for.
    pub fn wants_all(self) -> bool {
        self == Detail::All
    }
}

impl fmt::Display for Detail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Detail {
    type Err = Error;

    fn from_str(text: &str) -> Result<Detail> {
        match text.trim().to_ascii_lowercase().as_str() {
            "value" => Ok(Detail::Value),
            "winning" => Ok(Detail::Winning),
            "all" => Ok(Detail::All),
            _ => Err(Error::input(format!(
                "moves {}: say value, winning or all",
                quote(text)
            ))),
        }
    }
}

/// The type of a [`Param`]'s value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ParamKind {
    /// On or off: `--force`, `force=True`, `&force=true`.
    Flag,
    /// A whole number from `min` to `max`, in the one grammar of counts (`2^20`, `1e6`).
    Count {
        /// The least value accepted.
        min: u64,
        /// The largest value accepted.
        max: u64,
    },
    /// A whole number of any size (a Fibonacci limit), in the grammar of counts.
    Number,
    /// A file the game reads and writes (a search table to resume from): offered only by
    /// front ends on the user's own machine.
    File,
}

/// A per-game option, declared once by the game's entry ([`super::Info::params`]) and offered
/// by every front end from that declaration: the CLI as `--NAME`, Python as a keyword
/// argument `NAME=`, the web as `&NAME=`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Param {
    /// The option's name, lower case with dashes (`threads`, `no-mirror`); Python spells the
    /// dashes as underscores.
    pub name: &'static str,
    /// What it does, in one line.
    pub help: &'static str,
    /// Its type.
    #[serde(flatten)]
    pub kind: ParamKind,
    /// True when only front ends on the user's own machine offer it (the CLI, Python): files,
    /// threads, limits lifted. The web server refuses it.
    pub local: bool,
}

impl Param {
    /// An on/off option.
    pub const fn flag(name: &'static str, help: &'static str) -> Param {
        Param {
            name,
            help,
            kind: ParamKind::Flag,
            local: false,
        }
    }

    /// A count from `min` to `max`.
    pub const fn count(name: &'static str, help: &'static str, min: u64, max: u64) -> Param {
        Param {
            name,
            help,
            kind: ParamKind::Count { min, max },
            local: false,
        }
    }

    /// A number of any size.
    pub const fn number(name: &'static str, help: &'static str) -> Param {
        Param {
            name,
            help,
            kind: ParamKind::Number,
            local: false,
        }
    }

    /// A file (always local).
    pub const fn file(name: &'static str, help: &'static str) -> Param {
        Param {
            name,
            help,
            kind: ParamKind::File,
            local: true,
        }
    }

    /// The same option, offered only on the user's own machine.
    pub const fn local(mut self) -> Param {
        self.local = true;
        self
    }
}

/// The values given for a game's [`Param`]s, by name, as text (each front end hands over what
/// the user typed; [`Settings::check`] reads them against the declaration).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    values: BTreeMap<String, String>,
}

impl Settings {
    /// No setting given.
    pub fn new() -> Settings {
        Settings::default()
    }

    /// Sets `name` to `value` (`"true"` for a flag).
    pub fn set(&mut self, name: impl Into<String>, value: impl Into<String>) {
        self.values
            .insert(name.into().replace('_', "-"), value.into());
    }

    /// True when nothing is set.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The settings given, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.values.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// The text given for `name`, if any.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// Checks every setting against `params`: each names a declared param, and its value has
    /// the param's type. The error lists what the game accepts.
    pub fn check(&self, params: &[Param]) -> Result<()> {
        for (name, value) in &self.values {
            let Some(p) = params.iter().find(|p| p.name == name) else {
                let accepted: Vec<&str> = params.iter().map(|p| p.name).collect();
                return Err(Error::input(if accepted.is_empty() {
                    format!("unknown option {}: this game takes none", quote(name))
                } else {
                    format!(
                        "unknown option {}: this game takes {}",
                        quote(name),
                        accepted.join(", ")
                    )
                }));
            };
            match p.kind {
                ParamKind::Flag => {
                    parse_flag(name, value)?;
                }
                ParamKind::Count { min, max } => {
                    let n = parse_count(name, value)?;
                    if n < min || n > max {
                        return Err(Error::input(format!(
                            "{name} {n}: must be from {min} to {max}"
                        )));
                    }
                }
                ParamKind::Number => {
                    crate::count::syntax(value)
                        .map_err(|e| Error::input(format!("{name}: {e}")))?;
                }
                ParamKind::File => {
                    if value.trim().is_empty() {
                        return Err(Error::input(format!("{name}: an empty file name")));
                    }
                }
            }
        }
        Ok(())
    }

    /// Checks the settings for a front end that is not on the user's machine (the web):
    /// [`Settings::check`], and no [`Param::local`] param.
    pub fn check_remote(&self, params: &[Param]) -> Result<()> {
        self.check(params)?;
        match self
            .values
            .keys()
            .find(|k| params.iter().any(|p| p.name == *k && p.local))
        {
            Some(k) => Err(Error::input(format!(
                "option {} is offered only on your own machine (the CLI, Python)",
                quote(k)
            ))),
            None => Ok(()),
        }
    }

    /// True when the flag `name` is on.
    pub fn flag(&self, name: &str) -> bool {
        self.text(name)
            .is_some_and(|v| parse_flag(name, v).unwrap_or(false))
    }

    /// The count given for `name` (checked against its range in `params`), if any.
    pub fn count(&self, name: &str, params: &[Param]) -> Result<Option<u64>> {
        let Some(v) = self.text(name) else {
            return Ok(None);
        };
        let n = parse_count(name, v)?;
        if let Some(ParamKind::Count { min, max }) =
            params.iter().find(|p| p.name == name).map(|p| p.kind)
        {
            if n < min || n > max {
                return Err(Error::input(format!(
                    "{name} {n}: must be from {min} to {max}"
                )));
            }
        }
        Ok(Some(n))
    }
}

fn parse_flag(name: &str, value: &str) -> Result<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "" | "true" | "1" | "yes" | "on" => Ok(true),
        "false" | "0" | "no" | "off" => Ok(false),
        _ => Err(Error::input(format!(
            "{name} {}: say true or false",
            quote(value)
        ))),
    }
}

fn parse_count(name: &str, value: &str) -> Result<u64> {
    crate::count::parse_u64(value).map_err(|e| Error::input(format!("{name}: {e}")))
}

/// How far long work has come: `done` of `total` (`total` 0 when unknown) units of `unit`
/// (`"search nodes"`, `"heaps"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Units done.
    pub done: u64,
    /// Units in all, 0 when not known.
    pub total: u64,
    /// What is counted.
    pub unit: &'static str,
}

/// A progress callback: called now and then from the working thread (or a helper thread);
/// returning `false` stops the work as the stop flag does.
pub type Watch = Arc<dyn Fn(Progress) -> bool + Send + Sync>;

/// One question to the catalogue: how to play, how much to say, within what, and how to
/// report and stop. Built with [`Ask::new`] and its setters; every front end makes one.
#[derive(Clone)]
pub struct Ask {
    /// Normal or misère play.
    pub play: Play,
    /// How much of the moves to compute.
    pub detail: Detail,
    /// The search's caps (positions, bytes).
    pub budget: Budget,
    /// The game's own settings ([`Param`]s of its entry).
    pub settings: Settings,
    /// Called as long work goes on; `false` stops it.
    pub progress: Option<Watch>,
    /// Raised from anywhere, long work stops with an error of kind `Stopped` (keeping what
    /// can be resumed).
    pub stop: Option<Arc<AtomicBool>>,
}

impl fmt::Debug for Ask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Ask")
            .field("play", &self.play)
            .field("detail", &self.detail)
            .field("budget", &self.budget)
            .field("settings", &self.settings)
            .field("progress", &self.progress.is_some())
            .field("stop", &self.stop)
            .finish()
    }
}

impl Default for Ask {
    fn default() -> Ask {
        Ask::new(Play::Normal)
    }
}

impl Ask {
    /// A question under `play`: the winning moves, the default budget, no setting.
    pub fn new(play: Play) -> Ask {
        Ask {
            play,
            detail: Detail::default(),
            budget: Budget::default(),
            settings: Settings::new(),
            progress: None,
            stop: None,
        }
    }

    /// The same question at another [`Detail`].
    pub fn detail(mut self, detail: Detail) -> Ask {
        self.detail = detail;
        self
    }

    /// The same question within `budget`.
    pub fn budget(mut self, budget: Budget) -> Ask {
        self.budget = budget;
        self
    }

    /// The same question with the setting `name` = `value`.
    pub fn set(mut self, name: impl Into<String>, value: impl Into<String>) -> Ask {
        self.settings.set(name, value);
        self
    }

    /// The same question with its settings replaced.
    pub fn settings(mut self, settings: Settings) -> Ask {
        self.settings = settings;
        self
    }

    /// The same question, reporting its progress to `watch`.
    pub fn progress(mut self, watch: Watch) -> Ask {
        self.progress = Some(watch);
        self
    }

    /// The same question, stopped when `stop` is raised.
    pub fn stop(mut self, stop: Arc<AtomicBool>) -> Ask {
        self.stop = Some(stop);
        self
    }

    /// True once the stop flag is raised.
    pub fn stopped(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Reports `done` of `total` `unit`s; false (and the stop flag raised, so that every
    /// thread of the work sees it) when the callback asks to stop.
    pub fn report(&self, done: u64, total: u64, unit: &'static str) -> bool {
        let go = match &self.progress {
            Some(f) => f(Progress { done, total, unit }),
            None => true,
        };
        if !go {
            if let Some(s) = &self.stop {
                s.store(true, Ordering::Relaxed);
            }
        }
        go && !self.stopped()
    }

    /// The error of a question stopped by its caller.
    pub fn stopped_error(&self, what: &str) -> Error {
        Error {
            kind: super::ErrorKind::Stopped,
            message: format!("stopped: {what}"),
            parameter: None,
        }
    }
}
