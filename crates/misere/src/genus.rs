//! Genus (todo).
