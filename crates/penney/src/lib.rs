//! grundy-penney: pattern races with exact rational answers.
