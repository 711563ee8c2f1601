//! The parts of complex tensors: `.real`, `.imag`, view_as_real.
use super::ops::{out, R};
use super::tensor::PyTensor;
use crate::ops;
use pyo3::prelude::*;

#[pymethods]
impl PyTensor {
    #[getter]
    fn get_real<'py>(slf: &Bound<'py, Self>) -> R<'py> {
        let t = &slf.get().t;
        if !t.dtype().is_complex() {
            return Ok(slf.clone().into_any());
        }
        out(
            slf.py(),
            ops::view_as_real(t).and_then(|r| ops::select(&r, -1, 0)),
        )
    }
    #[getter]
    fn get_imag<'py>(&self, py: Python<'py>) -> R<'py> {
        if !self.t.dtype().is_complex() {
            return Err(pyo3::exceptions::PyRuntimeError::new_err(
                "imag is not implemented for tensors with non-complex dtypes.",
            ));
        }
        out(
            py,
            ops::view_as_real(&self.t).and_then(|r| ops::select(&r, -1, 1)),
        )
    }
    fn _view_as_real<'py>(&self, py: Python<'py>) -> R<'py> {
        out(py, ops::view_as_real(&self.t))
    }
    fn _view_as_complex<'py>(&self, py: Python<'py>) -> R<'py> {
        out(py, ops::view_as_complex(&self.t))
    }
}
