//! The moves of every heap of a rule, tabulated once up to a bound.
//!
//! A move from a heap leaves a multiset of smaller heaps (empty heaps dropped). Heap sizes are
//! stored as `u16`: tables are built for bounds up to [`MAX_BOUND`].

use grundy_heap::rule::{self, Rule};
use grundy_heap::sum::for_each_move;

use crate::error::MisereError;

/// The largest heap bound the tables accept.
pub const MAX_BOUND: u64 = 4096;

/// The options of heaps `0..=bound` of one rule.
#[derive(Clone, Debug)]
pub struct HeapOptions {
    /// The rule as the user wrote it.
    pub rule_text: String,
    opts: Vec<Vec<Vec<u16>>>,
}

impl HeapOptions {
    /// Parses `rule_text` and tabulates the moves of heaps `0..=bound`.
    pub fn new(rule_text: &str, bound: u64) -> Result<Self, MisereError> {
        let rule = rule::parse(rule_text)?;
        Self::from_rule(rule_text, &rule, bound)
    }

    /// Tabulates the moves of heaps `0..=bound` of an already parsed rule (`rule_text` is kept
    /// only to name it).
    pub fn from_rule(rule_text: &str, rule: &Rule, bound: u64) -> Result<Self, MisereError> {
        if bound > MAX_BOUND {
            return Err(MisereError::BoundTooLarge {
                bound,
                max: MAX_BOUND,
            });
        }
        if rule.base_and_shift().1 != 0 {
            return Err(MisereError::UnsupportedRule(rule_text.to_string()));
        }
        let mut opts = Vec::with_capacity(bound as usize + 1);
        for h in 0..=bound {
            let mut list: Vec<Vec<u16>> = Vec::new();
            for_each_move(rule, h, &[], |_, left| {
                let mut v: Vec<u16> = left.iter().filter(|&&x| x > 0).map(|&x| x as u16).collect();
                v.sort_unstable();
                list.push(v);
            });
            list.sort();
            list.dedup();
            opts.push(list);
        }
        Ok(HeapOptions {
            rule_text: rule_text.to_string(),
            opts,
        })
    }

    /// The largest heap tabulated.
    pub fn bound(&self) -> u64 {
        self.opts.len() as u64 - 1
    }

    /// The options of heap `h` (each a non-decreasing list of non-empty heaps).
    pub fn of(&self, h: usize) -> &[Vec<u16>] {
        &self.opts[h]
    }
}
