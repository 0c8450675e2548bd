//! A script's analysis in the one shape, [`grundy_core::Answer`].

grundy_core::impl_answer!(crate::ScriptAnalysis, |a| a.grundy.clone());
