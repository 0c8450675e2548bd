//! Canonical (todo).
