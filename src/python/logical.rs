//! Bitwise and logical operators: `& | ^ ~` and logical_not.
use super::convert::operand;
use super::ops::{out, R};
use super::tensor::PyTensor;
use crate::ops;
use crate::tensor::Tensor;
use pyo3::prelude::*;

/// `a & b`, `a | b`, `a ^ b` with a tensor or a number on the right (NotImplemented otherwise).
fn bitwise<'py>(py: Python<'py>, a: &Tensor, other: &Bound<'py, PyAny>, op: ops::BitOp) -> R<'py> {
    match operand(other) {
        Some(o) => out(py, ops::bitwise(op, a, &o)),
        None => Ok(py.NotImplemented().into_bound(py)),
    }
}

#[pymethods]
impl PyTensor {
    fn __and__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> R<'py> {
        bitwise(py, &self.t, other, ops::BitOp::And)
    }
    fn __rand__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> R<'py> {
        self.__and__(py, other)
    }
    fn __or__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> R<'py> {
        bitwise(py, &self.t, other, ops::BitOp::Or)
    }
    fn __ror__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> R<'py> {
        self.__or__(py, other)
    }
    fn __xor__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> R<'py> {
        bitwise(py, &self.t, other, ops::BitOp::Xor)
    }
    fn __rxor__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> R<'py> {
        self.__xor__(py, other)
    }
    fn __invert__<'py>(&self, py: Python<'py>) -> R<'py> {
        out(py, ops::invert(&self.t))
    }
    fn logical_not<'py>(&self, py: Python<'py>) -> R<'py> {
        out(
            py,
            ops::compare(ops::CmpOp::Eq, &self.t, &Tensor::wrapped_scalar(false)),
        )
    }
}
