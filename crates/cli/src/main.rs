//! `grundy`: runs every command whose work is the engines' and hands `script`, `play` and
//! `serve` to `grundy-full` (see the `grundy_cli` library).

#![forbid(unsafe_code)]

fn main() {
    grundy_cli::main();
}
