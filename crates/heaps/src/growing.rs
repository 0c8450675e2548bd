//! A sequence extended step by step on the engine chosen for its rule: what a survey needs to
//! double its target until the period is proven, resuming from saved values.

use grundy_heap::rule::Rule;
use grundy_heap::TakeBreak;

use crate::engines::AUTO_SPARSE_MIN_HEAPS;
use crate::error::Result;

/// How the values grow.
enum Runner {
    /// The record engine (splitting codes without a shift, from [`AUTO_SPARSE_MIN_HEAPS`]
    /// heaps on), continuing where it stopped.
    Sparse(Box<grundy_sparse::Engine>),
    /// The reference engine, extended in place (other splitting codes without a shift).
    Extend(TakeBreak),
    /// Moves that leave at most one heap: recomputed at each step (linear, cheap).
    Recompute,
}

/// Where a [`Growing`] sequence resumes: the values known, and the state of the run that
/// computed them ([`Growing::state`]), so that the resumed run takes the steps an
/// uninterrupted one takes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resume {
    /// G(0..values.len()), checked by the caller.
    pub values: Vec<u32>,
    /// How the run that computed them stood; `None` when unknown (the run starts as a fresh
    /// one would, from these values).
    pub state: Option<GrowingState>,
}

/// How a [`Growing`] run stands, beyond its values: what a resumed run needs to continue as
/// the run would have.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GrowingState {
    /// The record engine's key mask, while the record engine runs. The engine changes its
    /// mask only at points the values decide, so a resume with this mask follows the same
    /// masks as the uninterrupted run (and counts the same rare heaps).
    pub mask: Option<u64>,
    /// The record engine stopped paying and the reference engine took over (for good).
    pub sparse_dropped: bool,
}

/// G(0..len) of one rule, grown on demand by [`Growing::advance`].
///
/// The engine: the record engine for a splitting code without a shift when the run may reach
/// [`AUTO_SPARSE_MIN_HEAPS`] heaps, until most of its heaps turn out rare (`Engine::pays`),
/// then the reference engine from the same values; the reference engine extended in place for
/// other splitting codes; the plain engines recomputed for rules whose moves leave at most one
/// heap.
pub struct Growing {
    rule: Rule,
    runner: Runner,
    values: Vec<u32>,
    engine: &'static str,
    sparse_dropped: bool,
}

impl Growing {
    /// A sequence of `rule` that may grow to `upto` heaps, starting from `resume` and running
    /// the record engine on `threads` threads (0: one per core).
    pub fn new(rule: &Rule, upto: u64, resume: Resume, threads: usize) -> Result<Growing> {
        let (base, shift) = rule.base_and_shift();
        let splits_code = match base {
            Rule::Code(c) if shift == 0 => grundy_sparse::Plan::new(c)
                .is_ok_and(|p| p.has_splits())
                .then(|| c.clone()),
            _ => None,
        };
        let Resume { mut values, state } = resume;
        let state = state.unwrap_or_default();
        let mut sparse_dropped = false;
        let runner = match (&splits_code, base) {
            (Some(code), _) if state.sparse_dropped && !values.is_empty() => {
                sparse_dropped = true;
                Runner::Extend(code.clone())
            }
            (Some(code), _) if upto >= AUTO_SPARSE_MIN_HEAPS => {
                let engine = if values.is_empty() {
                    grundy_sparse::Engine::new(code)
                } else {
                    grundy_sparse::Engine::from_values(code, &values, state.mask.unwrap_or(0))
                        .or_else(|_| grundy_sparse::Engine::new(code))
                }?;
                // The engine holds what it resumed from.
                values = if engine.is_empty() {
                    Vec::new()
                } else {
                    engine.values()
                };
                Runner::Sparse(Box::new(engine.with_threads(threads)))
            }
            (_, Rule::Code(c)) if shift == 0 && !grundy_heap::subtraction::is_quaternary(c) => {
                Runner::Extend(c.clone())
            }
            _ => Runner::Recompute,
        };
        // A run resumed on the record engine with the mask it stood at reports that engine (and
        // its rare heaps under that mask) until it computes: what the saving run reported.
        let engine = match runner {
            Runner::Sparse(_) if state.mask.is_some() => "sparse",
            _ => "reference",
        };
        Ok(Growing {
            rule: rule.clone(),
            runner,
            values,
            engine,
            sparse_dropped,
        })
    }

    /// How the run stands ([`GrowingState`]): what [`Resume::state`] takes to continue it.
    pub fn state(&self) -> GrowingState {
        GrowingState {
            mask: match &self.runner {
                Runner::Sparse(e) => Some(e.mask()),
                _ => None,
            },
            sparse_dropped: self.sparse_dropped,
        }
    }

    /// G(0..len), as far as computed.
    pub fn values(&self) -> &[u32] {
        &self.values
    }

    /// Extends the values to G(0..=target); `go` is asked now and then and false stops early.
    /// True when G(target) is known.
    pub fn advance(&mut self, target: u64, go: &mut dyn FnMut() -> bool) -> bool {
        if (self.values.len() as u64) > target {
            return true;
        }
        match &mut self.runner {
            Runner::Sparse(e) => {
                self.engine = "sparse";
                e.advance(target + 1, &mut |_| go());
                self.values = e.values();
                if !e.pays() {
                    // Most heaps are rare: the reference engine is as fast (see
                    // `Engine::pays`), and continues from the same values.
                    self.engine = "reference";
                    self.sparse_dropped = true;
                    self.runner = Runner::Extend(e.code().clone());
                }
            }
            Runner::Extend(code) => {
                let _ =
                    grundy_heap::reference::extend(code, &mut self.values, target, &mut |_| go());
            }
            Runner::Recompute => {
                if let Ok(v) =
                    grundy_heap::engine::sequence_with_progress(&self.rule, target, &mut |_| go())
                {
                    self.values = v;
                }
            }
        }
        (self.values.len() as u64) > target
    }

    /// The engine that computed the last step: `"sparse"` or `"reference"`.
    pub fn engine(&self) -> &'static str {
        self.engine
    }

    /// Rare heaps under the record engine's mask, when the record engine computed the last
    /// step ([`Growing::engine`] is `"sparse"`), or stood at when the run resumed with its
    /// mask ([`GrowingState::mask`]). A sequence resumed without one never ran the engine:
    /// its mask says nothing, so it counts none.
    pub fn rare_count(&self) -> Option<u64> {
        match &self.runner {
            Runner::Sparse(e) if self.engine == "sparse" => Some(e.rare_count() as u64),
            _ => None,
        }
    }

    /// The values.
    pub fn into_values(self) -> Vec<u32> {
        self.values
    }
}
