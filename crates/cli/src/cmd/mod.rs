//! One module per `grundy` subcommand; each parses its flags and calls the library.

pub mod cards;
pub mod chomp;
pub mod cram;
pub mod fib;
pub mod graph;
pub mod heap;
pub mod maze;
pub mod nim;
pub mod nimber;
pub mod penney;
pub mod walls;
pub mod wythoff;
