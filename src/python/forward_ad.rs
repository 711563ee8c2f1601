//! Forward-mode AD: the dual level, dual tensors (one-line delegations to `crate::forward_ad`).
use super::tensor::{wrap, wrap_opt, PyTensor};
use super::IntoPyResult;
use crate::forward_ad;
use pyo3::prelude::*;

#[pyfunction]
fn _enter_dual_level() -> PyResult<i64> {
    forward_ad::enter_dual_level().py()
}

#[pyfunction]
fn _exit_dual_level(level: i64) -> PyResult<()> {
    forward_ad::exit_dual_level(level).py()
}

#[pyfunction]
fn _current_dual_level() -> i64 {
    forward_ad::current_level()
}

#[pyfunction]
fn _make_dual<'py>(
    py: Python<'py>,
    tensor: PyRef<'py, PyTensor>,
    tangent: PyRef<'py, PyTensor>,
    level: i64,
) -> PyResult<Bound<'py, PyAny>> {
    wrap(
        py,
        forward_ad::make_dual(&tensor.t, &tangent.t, level).py()?,
    )
}

#[pyfunction]
fn _unpack_dual<'py>(
    py: Python<'py>,
    tensor: PyRef<'py, PyTensor>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let (p, t) = forward_ad::unpack_dual(&tensor.t).py()?;
    Ok((wrap(py, p)?, wrap_opt(py, t)?))
}

/// The tangent of `tensor` at the open level, or None (for the repr).
#[pyfunction]
fn _fw_grad<'py>(py: Python<'py>, tensor: PyRef<'py, PyTensor>) -> PyResult<Bound<'py, PyAny>> {
    wrap_opt(py, forward_ad::tangent(&tensor.t))
}

#[pyfunction]
fn _is_fwd_grad_enabled() -> bool {
    forward_ad::is_fwd_grad_enabled()
}

#[pyfunction]
fn _set_fwd_grad_enabled(mode: bool) {
    forward_ad::set_fwd_grad_enabled(mode)
}

/// Give `tensor` a tangent (None removes it): custom Functions' `jvp` results.
#[pyfunction]
fn _set_tangent(tensor: PyRef<'_, PyTensor>, tangent: Option<PyRef<'_, PyTensor>>) {
    forward_ad::set_tangent(&tensor.t, tangent.map(|t| t.t.clone()))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_enter_dual_level, m)?)?;
    m.add_function(wrap_pyfunction!(_exit_dual_level, m)?)?;
    m.add_function(wrap_pyfunction!(_current_dual_level, m)?)?;
    m.add_function(wrap_pyfunction!(_make_dual, m)?)?;
    m.add_function(wrap_pyfunction!(_unpack_dual, m)?)?;
    m.add_function(wrap_pyfunction!(_fw_grad, m)?)?;
    m.add_function(wrap_pyfunction!(_is_fwd_grad_enabled, m)?)?;
    m.add_function(wrap_pyfunction!(_set_fwd_grad_enabled, m)?)?;
    m.add_function(wrap_pyfunction!(_set_tangent, m)?)?;
    Ok(())
}
