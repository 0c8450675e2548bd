//! Misère theory (`grundy.misere`): one call of `grundy::misere` each. A quotient stays native
//! (`MisereQuotient`) so that the outcome of a sum of heaps is a product in Q computed here;
//! everything else travels as the CLI's `--json` text (`grundy misere … --json`).

use grundy::misere::canonical::Forms;
use grundy::misere::quotient::{Limits, Quotient, QuotientEngine};
use pyo3::prelude::*;

use crate::calls::Count;
use crate::errors::{self, json};

/// A misère quotient (`grundy misere quotient RULE --upto N`), verified exactly.
#[pyclass(module = "grundy._grundy", frozen)]
pub struct MisereQuotient {
    q: Quotient,
}

#[pymethods]
impl MisereQuotient {
    /// The quotient as `grundy misere quotient --json` prints it (with `structure`).
    fn json(&self) -> PyResult<String> {
        let mut v = serde_json::to_value(&self.q)
            .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
        v["structure"] = serde_json::to_value(self.q.structure())
            .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
        json(&v)
    }

    /// The misère outcome (`"N"` or `"P"`) of the sum of these heaps.
    fn outcome(&self, py: Python<'_>, heaps: Vec<Count>) -> PyResult<String> {
        let h: Vec<u64> = heaps.into_iter().map(|c| c.0).collect();
        let o = self
            .q
            .outcome(&h)
            .map_err(|e| errors::from_lib(py, e.into()))?;
        json(&o).map(|s| s.trim_matches('"').to_string())
    }

    /// The winning moves of the sum, JSON `[Move, …]` (the library's one move shape; empty
    /// for a P-position).
    fn winning_moves(&self, py: Python<'_>, heaps: Vec<Count>) -> PyResult<String> {
        let h: Vec<u64> = heaps.into_iter().map(|c| c.0).collect();
        json(
            &self
                .q
                .winning_moves(&h)
                .map_err(|e| errors::from_lib(py, e.into()))?,
        )
    }

    /// The element of Q that the sum of these heaps is (an index into `elements`).
    fn element(&self, py: Python<'_>, heaps: Vec<Count>) -> PyResult<usize> {
        let h: Vec<u64> = heaps.into_iter().map(|c| c.0).collect();
        self.q
            .element_of(&h)
            .map_err(|e| errors::from_lib(py, e.into()))
    }

    /// The multiplication table: `table[x][y]` is the product of elements x and y.
    fn table(&self) -> Vec<Vec<usize>> {
        self.q.table()
    }
}

/// The misère quotient of `rule` for heaps `0..=upto` (`max_order` caps |Q|: a quotient that
/// grows past it is reported as not converged).
#[pyfunction]
#[pyo3(signature = (rule, upto, max_order=None))]
fn misere_quotient(
    py: Python<'_>,
    rule: &str,
    upto: Count,
    max_order: Option<usize>,
) -> PyResult<MisereQuotient> {
    let mut limits = Limits::default();
    if let Some(m) = max_order {
        limits.max_order = m;
    }
    let q = py
        .detach(|| -> Result<Quotient, grundy::misere::MisereError> {
            let mut e = QuotientEngine::new(rule, limits)?;
            e.extend_to(upto.0)?;
            Ok(e.quotient())
        })
        .map_err(|e| errors::from_lib(py, e.into()))?;
    Ok(MisereQuotient { q })
}

/// Conway's genus of heaps `0..=upto` of `rule`: JSON `[{"g", "gamma", "text"}, …]`.
#[pyfunction]
fn misere_genus(py: Python<'_>, rule: &str, upto: Count) -> PyResult<String> {
    let g = py
        .detach(|| grundy::misere::genus_of_rule(rule, upto.0))
        .map_err(|e| errors::from_lib(py, e.into()))?;
    json(&g)
}

/// The misère canonical form of `game` (CGSuite's entry notation, `+` for sums), or of the X
/// with X + `minus` = game: JSON as `grundy misere form --json` prints it.
#[pyfunction]
#[pyo3(signature = (game, minus=None))]
fn misere_form(py: Python<'_>, game: &str, minus: Option<&str>) -> PyResult<String> {
    let mut f = Forms::new();
    let mut g = f.parse(game).map_err(|e| errors::from_lib(py, e.into()))?;
    if let Some(h) = minus {
        let hid = f.parse(h).map_err(|e| errors::from_lib(py, e.into()))?;
        g = match f.minus(g, hid) {
            Some(x) => x,
            None => {
                let (gt, ht) = (f.output_text(g), f.output_text(hid));
                return Err(errors::raise(
                    py,
                    "InputError",
                    format!("{gt} - {ht}: no game X with X + {ht} = {gt} (not subtractable)"),
                ));
            }
        };
    }
    json(&f.info(g))
}

/// Registers the misère calls.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<MisereQuotient>()?;
    m.add_function(wrap_pyfunction!(misere_quotient, m)?)?;
    m.add_function(wrap_pyfunction!(misere_genus, m)?)?;
    m.add_function(wrap_pyfunction!(misere_form, m)?)?;
    Ok(())
}
