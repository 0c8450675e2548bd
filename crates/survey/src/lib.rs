//! grundy-survey: surveys of whole families of heap games.
//!
//! * [`family`]: `octal:D`, `hex:D`, `sub:M`, `allbut:M`, `file:PATH` → the list of games
//!   ([`Entry`]), each equivalent one marked with the game it equals.
//! * [`cousin`]: the equivalences that need no computation (first cousins, identical moves).
//! * [`store`]: the SQLite database, table `games` (one [`GameRow`] per game), written in
//!   transactions by one process.
//! * [`seqfile`]: saved sequences, so that a later survey continues an unknown game.
//! * [`report`]: counts by family, periodic and open games; text, JSON, CSV.
//!
//! Solving a game needs the engines and the period search, which the facade `grundy` owns:
//! `grundy::survey::solve` and the local driver `grundy::survey::run` live there and use this
//! crate for everything else. This crate depends on `grundy-heap` only (rules, codes).
//!
//! ```
//! use grundy_survey::{expand, Family};
//! let games = expand(&Family::parse("octal:2")?)?;
//! assert_eq!(games.len(), 63);
//! // Dawson's Kayles (0.07) is Dawson's chess (0.137) one heap later; 0.4 two heaps later.
//! let four = games.iter().find(|e| e.rule == "0.4").unwrap();
//! assert_eq!(four.equals, None);
//! let seven = games.iter().find(|e| e.rule == "0.07").unwrap();
//! // G_0.07(n) = G_0.4(n + 1): the sign of a named game's shift (G(n) = G_code(n + shift)).
//! assert_eq!((seven.equals.as_deref(), seven.shift), (Some("0.4"), 1));
//! # Ok::<(), grundy_survey::Error>(())
//! ```

#![forbid(unsafe_code)]

pub mod cousin;
mod error;
pub mod family;
pub mod report;
pub mod row;
pub mod seqfile;
pub mod store;

pub use error::{Error, Result};
pub use family::{expand, Entry, Family};
pub use report::{Counts, Report};
pub use row::{GameRow, Status};
pub use store::{Db, Plan};
