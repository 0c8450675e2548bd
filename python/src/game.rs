//! Games written in Python: `grundy.Game(moves=…, split=…, canon=…)` solved by the library's
//! generic solver.
//!
//! Positions are any hashable Python values. Each distinct position (by Python's `__hash__`
//! and `__eq__`) is interned once as a `u32`, so the solver's memo works on plain integers and
//! Python's equality is asked only when two positions share a hash. `moves` is called once per
//! distinct position (its answer is kept), `split` likewise; `canon` maps every position to
//! its representative before it is interned. A `Sum` is a disjunctive sum: its value is the
//! XOR of its parts', its moves are a move in one part. The GIL is held while a Python game is
//! solved (the solver calls back into Python for every new position); an exception raised by a
//! callable stops the search, the memo is cleared, and the exception is raised to the caller.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::sync::Mutex;

use grundy::game::Game;
use grundy::loopy::Grundy;
use grundy::{Outcome, Solver};
use numpy::{IntoPyArray, PyArray1};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::errors;

/// The most distinct positions a Python game may reach unless its `max_positions` says
/// otherwise: an endless game (`moves=lambda n: [n + 1]`) is refused before memory runs out.
const DEFAULT_MAX_POSITIONS: usize = 10_000_000;

/// End of a hash chain.
const NONE: u32 = u32::MAX;

/// A disjunctive sum of positions: `grundy.Sum(a, b, …)`. Nested sums are flattened; two
/// sums are equal when their parts are, in order.
#[pyclass(module = "grundy", name = "Sum", frozen)]
pub struct Sum {
    parts: Py<PyTuple>,
    hash: isize,
}

impl Sum {
    /// A sum of `parts` (already flattened).
    fn of(py: Python<'_>, parts: Vec<Bound<'_, PyAny>>) -> PyResult<Sum> {
        let parts = PyTuple::new(py, parts)?;
        // Not the tuple's own hash, so that Sum(1, 2) and (1, 2) rarely share a chain.
        let hash = parts.hash()? ^ 0x5a5a_5a5a;
        Ok(Sum {
            parts: parts.unbind(),
            hash,
        })
    }
}

impl Sum {
    /// The parts, in order.
    pub fn parts_of<'py>(&self, py: Python<'py>) -> Bound<'py, PyTuple> {
        self.parts.bind(py).clone()
    }
}

/// `items` with every `Sum` among them replaced by its parts.
fn flatten<'py>(items: impl Iterator<Item = Bound<'py, PyAny>>) -> Vec<Bound<'py, PyAny>> {
    let mut out = Vec::new();
    for item in items {
        match item.cast::<Sum>() {
            Ok(s) => out.extend(s.get().parts.bind(item.py()).iter()),
            Err(_) => out.push(item),
        }
    }
    out
}

#[pymethods]
impl Sum {
    #[new]
    #[pyo3(signature = (*parts))]
    fn new(py: Python<'_>, parts: &Bound<'_, PyTuple>) -> PyResult<Self> {
        Sum::of(py, flatten(parts.iter()))
    }

    /// The parts of the sum, in order.
    #[getter]
    fn parts(&self, py: Python<'_>) -> Py<PyTuple> {
        self.parts.clone_ref(py)
    }

    /// Pickling and `copy.deepcopy`: a sum is rebuilt from its parts.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (Bound<'py, pyo3::types::PyType>, Bound<'py, PyTuple>) {
        (slf.get_type(), slf.get().parts.bind(slf.py()).clone())
    }

    fn __hash__(&self) -> isize {
        self.hash
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        match other.cast::<Sum>() {
            Ok(o) => self.parts.bind(py).eq(o.get().parts.bind(py)),
            Err(_) => Ok(false),
        }
    }

    fn __len__(&self, py: Python<'_>) -> usize {
        self.parts.bind(py).len()
    }

    fn __iter__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(self.parts.bind(py).as_any().try_iter()?.into_any().unbind())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let parts: PyResult<Vec<String>> = self
            .parts
            .bind(py)
            .iter()
            .map(|p| Ok(p.repr()?.to_string()))
            .collect();
        Ok(format!("Sum({})", parts?.join(", ")))
    }
}

/// The interned positions and what the callables said about them.
#[derive(Default)]
struct State {
    /// Position `i` is `objs[i]`.
    objs: Vec<Py<PyAny>>,
    /// Python hash → the last position with it; `next` chains the earlier ones.
    heads: HashMap<isize, u32>,
    next: Vec<u32>,
    /// The parts of positions that are `Sum`s.
    parts: HashMap<u32, Box<[u32]>>,
    /// `moves` of each position, once asked.
    moves: Vec<Option<Box<[u32]>>>,
    /// `split` of each position, once asked (`None` inside: it does not split).
    split: HashMap<u32, Option<Box<[u32]>>>,
}

/// A game whose rules are Python callables.
pub struct PyGame {
    moves: Py<PyAny>,
    split: Option<Py<PyAny>>,
    canon: Option<Py<PyAny>>,
    state: RefCell<State>,
    /// The first exception a callable raised; the search then sees no more moves.
    error: RefCell<Option<PyErr>>,
    /// Calls of `moves`.
    calls: Cell<u64>,
    /// The most distinct positions the game may have (an endless game is refused, not a hang).
    max_positions: usize,
}

impl PyGame {
    /// The position of `obj` (after `canon`), interned.
    fn intern(&self, py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<u32> {
        if let Ok(s) = obj.cast::<Sum>() {
            return self.intern_sum(py, s.get().parts.bind(py).iter().collect());
        }
        let obj = match &self.canon {
            Some(c) => c.bind(py).call1((obj,))?,
            None => obj.clone(),
        };
        if let Ok(s) = obj.cast::<Sum>() {
            // canon may answer with a sum; its parts are taken as they are.
            let parts: Vec<u32> = s
                .get()
                .parts
                .bind(py)
                .iter()
                .map(|p| self.lookup(py, &p))
                .collect::<PyResult<_>>()?;
            return self.intern_parts(py, parts);
        }
        self.lookup(py, &obj)
    }

    /// A sum of `parts` (Python values, each to be interned).
    fn intern_sum(&self, py: Python<'_>, parts: Vec<Bound<'_, PyAny>>) -> PyResult<u32> {
        let mut ids = Vec::with_capacity(parts.len());
        for p in &parts {
            let id = self.intern(py, p)?;
            match self.state.borrow().parts.get(&id) {
                Some(inner) => ids.extend_from_slice(inner),
                None => ids.push(id),
            }
        }
        self.intern_parts(py, ids)
    }

    /// The sum of interned positions `ids` (none of them a sum), interned.
    fn intern_parts(&self, py: Python<'_>, ids: Vec<u32>) -> PyResult<u32> {
        let objs: Vec<Bound<'_, PyAny>> = {
            let st = self.state.borrow();
            ids.iter()
                .map(|&i| st.objs[i as usize].bind(py).clone())
                .collect()
        };
        let sum = Bound::new(py, Sum::of(py, objs)?)?.into_any();
        let id = self.lookup(py, &sum)?;
        self.state
            .borrow_mut()
            .parts
            .entry(id)
            .or_insert_with(|| ids.into_boxed_slice());
        Ok(id)
    }

    /// The id of `obj` (by Python's hash and equality), a new one if it is new.
    fn lookup(&self, py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<u32> {
        let h = obj.hash()?;
        let mut id = self.state.borrow().heads.get(&h).copied().unwrap_or(NONE);
        while id != NONE {
            let known = self.state.borrow().objs[id as usize].clone_ref(py);
            if known.bind(py).is(obj) || known.bind(py).eq(obj)? {
                return Ok(id);
            }
            id = self.state.borrow().next[id as usize];
        }
        let mut st = self.state.borrow_mut();
        if st.objs.len() >= self.max_positions {
            return Err(errors::raise(
                py,
                "InputError",
                format!(
                    "the game passed the limit of {} positions (is it endless?); raise it with max_positions=",
                    self.max_positions
                ),
            ));
        }
        let id = u32::try_from(st.objs.len())
            .ok()
            .filter(|&i| i != NONE)
            .ok_or_else(|| PyRuntimeError::new_err("more than 2^32 - 1 positions"))?;
        st.objs.push(obj.clone().unbind());
        let prev = st.heads.insert(h, id).unwrap_or(NONE);
        st.next.push(prev);
        st.moves.push(None);
        Ok(id)
    }

    /// Appends the options of position `id` to `out` (asking `moves` at most once).
    fn options_of(&self, py: Python<'_>, id: u32, out: &mut Vec<u32>) -> PyResult<()> {
        if let Some(m) = &self.state.borrow().moves[id as usize] {
            out.extend_from_slice(m);
            return Ok(());
        }
        let parts = self.state.borrow().parts.get(&id).cloned();
        let mut opts = Vec::new();
        match parts {
            Some(parts) => {
                // A move in a sum is a move in one of its parts.
                let mut part_opts = Vec::new();
                for (i, &p) in parts.iter().enumerate() {
                    part_opts.clear();
                    self.options_of(py, p, &mut part_opts)?;
                    for &o in &part_opts {
                        let mut next: Vec<u32> = parts[..i].to_vec();
                        match self.state.borrow().parts.get(&o) {
                            Some(inner) => next.extend_from_slice(inner),
                            None => next.push(o),
                        }
                        next.extend_from_slice(&parts[i + 1..]);
                        opts.push(self.intern_parts(py, next)?);
                    }
                }
            }
            None => {
                let calls = self.calls.get() + 1;
                self.calls.set(calls);
                if calls.is_multiple_of(1024) {
                    py.check_signals()?;
                }
                let obj = self.state.borrow().objs[id as usize].clone_ref(py);
                let answer = self.moves.bind(py).call1((obj,))?;
                for item in answer.try_iter()? {
                    opts.push(self.intern(py, &item?)?);
                }
            }
        }
        out.extend_from_slice(&opts);
        self.state.borrow_mut().moves[id as usize] = Some(opts.into_boxed_slice());
        Ok(())
    }

    /// The components of position `id` (a sum's parts, or what `split` says), if it splits.
    fn components_of(&self, py: Python<'_>, id: u32) -> PyResult<Option<Box<[u32]>>> {
        if let Some(p) = self.state.borrow().parts.get(&id) {
            return Ok(Some(p.clone()));
        }
        let Some(split) = &self.split else {
            return Ok(None);
        };
        if let Some(s) = self.state.borrow().split.get(&id) {
            return Ok(s.clone());
        }
        let obj = self.state.borrow().objs[id as usize].clone_ref(py);
        let answer = split.bind(py).call1((obj,))?;
        let parts = if answer.is_none() {
            None
        } else {
            let mut ids = Vec::new();
            for item in answer.try_iter()? {
                let p = self.intern(py, &item?)?;
                match self.state.borrow().parts.get(&p) {
                    Some(inner) => ids.extend_from_slice(inner),
                    None => ids.push(p),
                }
            }
            // A position that "splits" into itself does not split.
            (ids.as_slice() != [id]).then(|| ids.into_boxed_slice())
        };
        self.state.borrow_mut().split.insert(id, parts.clone());
        Ok(parts)
    }

    /// Keeps the first exception of a callable.
    fn fail(&self, e: PyErr) {
        let mut slot = self.error.borrow_mut();
        if slot.is_none() {
            *slot = Some(e);
        }
    }

    fn failed(&self) -> bool {
        self.error.borrow().is_some()
    }
}

impl Game for PyGame {
    type Position = u32;

    fn options(&self, pos: &u32, out: &mut Vec<u32>) {
        if self.failed() {
            return;
        }
        Python::attach(|py| {
            if let Err(e) = self.options_of(py, *pos, out) {
                self.fail(e);
            }
        })
    }

    fn components(&self, pos: &u32, out: &mut Vec<u32>) -> bool {
        if self.failed() {
            return false;
        }
        Python::attach(|py| match self.components_of(py, *pos) {
            Ok(Some(parts)) => {
                out.extend_from_slice(&parts);
                true
            }
            Ok(None) => false,
            Err(e) => {
                self.fail(e);
                false
            }
        })
    }
}

/// The solver of one Python game, with its memo (kept between calls).
#[pyclass(module = "grundy._grundy")]
pub struct GameSolver {
    inner: Mutex<Inner>,
}

/// The ordinary solver and what the loopy solver found: the values and remoteness of every
/// position it labelled (a cycle met by the ordinary solver switches to it).
struct Inner {
    solver: Solver<PyGame>,
    loopy: HashMap<u32, (Grundy, Option<u64>)>,
}

impl std::ops::Deref for Inner {
    type Target = Solver<PyGame>;
    fn deref(&self) -> &Solver<PyGame> {
        &self.solver
    }
}

impl std::ops::DerefMut for Inner {
    fn deref_mut(&mut self) -> &mut Solver<PyGame> {
        &mut self.solver
    }
}

/// What `analyze` hands to Python: the value (normal play: an int, or a frozenset K for
/// `∞(K)`), the outcome, the winning moves, the moves that keep a draw, and the remoteness
/// (loopy solver only).
type AnalysisTuple = (
    Option<Py<PyAny>>,
    &'static str,
    Vec<Py<PyAny>>,
    Vec<Py<PyAny>>,
    Option<u64>,
);

/// A value for Python: an int, or the frozenset K of `∞(K)`.
fn to_py(py: Python<'_>, v: &Grundy) -> PyResult<Py<PyAny>> {
    Ok(match v {
        Grundy::Finite(m) => m.into_pyobject(py)?.into_any().unbind(),
        Grundy::Infinite(k) => pyo3::types::PyFrozenSet::new(py, k.iter())?
            .into_any()
            .unbind(),
    })
}

impl GameSolver {
    /// Runs `f` on the solver; the game's first exception (if any) is raised instead of its
    /// result, after clearing the memo that the failed search left behind.
    fn with<T>(&self, _py: Python<'_>, f: impl FnOnce(&mut Inner) -> PyResult<T>) -> PyResult<T> {
        let mut solver = self.inner.try_lock().map_err(|_| {
            PyRuntimeError::new_err(
                "this game is being solved already (by another thread, or by a callable of the game itself)",
            )
        })?;
        let r = f(&mut solver);
        let error = solver.game().error.borrow_mut().take();
        if let Some(e) = error {
            solver.clear();
            solver.loopy.clear();
            return Err(e);
        }
        r
    }
}

/// The cycle error in the library's words.
fn cycle(py: Python<'_>, e: grundy::game::CycleError) -> PyErr {
    errors::from_lib(py, grundy::Error::Cycle(e))
}

/// The value of `id`: by the ordinary solver, or, when it meets a cycle, by the loopy solver
/// (every position reachable from `id` explored within the game's `max_positions`, the move
/// graph labelled with Smith's values, every explored position's value kept).
fn value(py: Python<'_>, s: &mut Inner, id: u32) -> PyResult<Grundy> {
    if let Some((v, _)) = s.loopy.get(&id) {
        return Ok(v.clone());
    }
    match s.solver.try_grundy(&id) {
        Ok(v) => Ok(Grundy::Finite(v)),
        Err(_) if s.game().failed() => Ok(Grundy::Finite(0)),
        Err(_) => {
            let budget = grundy::catalogue::Budget {
                max_positions: s.game().max_positions as u64,
                ..grundy::catalogue::Budget::DEFAULT
            };
            let e = grundy::loopy::explore(s.solver.game(), &id, &budget)
                .map_err(|e| errors::raise(py, "InputError", e.to_string()))?;
            let l = e.labelled();
            for (v, &p) in e.positions().iter().enumerate() {
                s.loopy
                    .entry(p)
                    .or_insert_with(|| (l.value(v), l.remoteness(v)));
            }
            Ok(s.loopy[&id].0.clone())
        }
    }
}

/// The misère outcome of `id`, or the cycle error.
fn misere(py: Python<'_>, s: &mut Inner, id: u32) -> PyResult<Outcome> {
    s.try_misere_outcome(&id).map_err(|e| cycle(py, e))
}

#[pymethods]
impl GameSolver {
    #[new]
    #[pyo3(signature = (moves, split = None, canon = None, max_positions = DEFAULT_MAX_POSITIONS))]
    fn new(
        moves: Py<PyAny>,
        split: Option<Py<PyAny>>,
        canon: Option<Py<PyAny>>,
        max_positions: usize,
    ) -> Self {
        GameSolver {
            inner: Mutex::new(Inner {
                solver: Solver::new(PyGame {
                    moves,
                    split,
                    canon,
                    state: RefCell::default(),
                    error: RefCell::new(None),
                    calls: Cell::new(0),
                    max_positions,
                }),
                loopy: HashMap::new(),
            }),
        }
    }

    /// The Sprague–Grundy value of `pos`: an int, or (a loopy game) the frozenset K of
    /// `∞(K)`.
    fn grundy(&self, py: Python<'_>, pos: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        self.with(py, |s| {
            let id = s.game().intern(py, pos)?;
            let v = value(py, s, id)?;
            to_py(py, &v)
        })
    }

    /// The values of every position of `positions`, as a numpy array of uint32.
    fn values<'py>(
        &self,
        py: Python<'py>,
        positions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<u32>>> {
        let values = self.with(py, |s| {
            let mut out = Vec::new();
            for p in positions.try_iter()? {
                let id = s.game().intern(py, &p?)?;
                let v = value(py, s, id)?;
                if s.game().failed() {
                    break;
                }
                let Some(v) = v.finite() else {
                    return Err(errors::raise(
                        py,
                        "InputError",
                        format!("a position has the infinite value {v} (a loopy game): use grundy() or analyze()"),
                    ));
                };
                out.push(u32::try_from(v).map_err(|_| {
                    PyRuntimeError::new_err(format!("value {v} does not fit in uint32"))
                })?);
            }
            Ok(out)
        })?;
        Ok(values.into_pyarray(py))
    }

    /// Value (normal play only), outcome and the positions every winning move leads to.
    #[pyo3(signature = (pos, misere = false))]
    fn analyze(
        &self,
        py: Python<'_>,
        pos: &Bound<'_, PyAny>,
        misere: bool,
    ) -> PyResult<AnalysisTuple> {
        self.with(py, |s| {
            let id = s.game().intern(py, pos)?;
            let mut winning = Vec::new();
            let mut drawing = Vec::new();
            let (grundy, outcome) = if misere {
                let o = self::misere(py, s, id)?;
                if o == Outcome::N && !s.game().failed() {
                    for opt in s.options(&id) {
                        if self::misere(py, s, opt)? == Outcome::P {
                            winning.push(opt);
                        }
                    }
                }
                (None, o)
            } else {
                let g = value(py, s, id)?;
                let o = g.outcome();
                if o != Outcome::P && !s.game().failed() {
                    for opt in s.options(&id) {
                        match value(py, s, opt)?.outcome() {
                            Outcome::P => winning.push(opt),
                            Outcome::D if o == Outcome::D => drawing.push(opt),
                            _ => {}
                        }
                    }
                }
                (Some(g), o)
            };
            let remoteness = if misere {
                None
            } else {
                s.loopy.get(&id).and_then(|&(_, r)| r)
            };
            let grundy = grundy.map(|g| to_py(py, &g)).transpose()?;
            let st = s.game().state.borrow();
            let objs = |ids: &[u32]| -> Vec<Py<PyAny>> {
                ids.iter()
                    .map(|&i| st.objs[i as usize].clone_ref(py))
                    .collect()
            };
            Ok((
                grundy,
                outcome.as_str(),
                objs(&winning),
                objs(&drawing),
                remoteness,
            ))
        })
    }

    /// Every option of `pos` (each distinct position once, after `canon`).
    fn options(&self, py: Python<'_>, pos: &Bound<'_, PyAny>) -> PyResult<Vec<Py<PyAny>>> {
        self.with(py, |s| {
            let id = s.game().intern(py, pos)?;
            let opts = s.options(&id);
            let st = s.game().state.borrow();
            Ok(opts
                .iter()
                .map(|&i| st.objs[i as usize].clone_ref(py))
                .collect())
        })
    }

    /// How many times `moves` was called (once per distinct position that is not a sum).
    #[getter]
    fn moves_calls(&self, py: Python<'_>) -> PyResult<u64> {
        self.with(py, |s| Ok(s.game().calls.get()))
    }

    /// Distinct positions seen (sums included).
    #[getter]
    fn positions(&self, py: Python<'_>) -> PyResult<usize> {
        self.with(py, |s| Ok(s.game().state.borrow().objs.len()))
    }

    /// Forgets every value (the positions and their moves are kept).
    fn clear(&self, py: Python<'_>) -> PyResult<()> {
        self.with(py, |s| {
            s.clear();
            s.loopy.clear();
            Ok(())
        })
    }
}

/// Adds `Sum` and `GameSolver` to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Sum>()?;
    m.add_class::<GameSolver>()?;
    Ok(())
}
