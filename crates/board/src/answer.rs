//! The engine's analyses in the one shape, [`grundy_core::Answer`].

use grundy_core::{impl_answer, Grundy};

impl_answer!(crate::engine::Analysis, |a| Some(Grundy::Finite(a.grundy)));
