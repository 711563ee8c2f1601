//! The declared float functions of one tensor (src/ops/math.rs) as Tensor methods, with their
//! in-place forms and docstrings, expanded from the same rows as the core.
use super::ops::{inplace, out, R};
use super::tensor::PyTensor;
use crate::ops;
use crate::ops::math::float_unary_ops;
use pyo3::prelude::*;

macro_rules! float_unary_methods {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident $inplace:ident $Variant:ident $node:literal { $($rest:tt)* }
    )*) => {
        #[pymethods]
        impl PyTensor {
            $(
                $(#[doc = $doc])*
                fn $name<'py>(&self, py: Python<'py>) -> R<'py> {
                    out(py, ops::$name(&self.t))
                }
                #[doc = concat!("In-place `", stringify!($name), "`.")]
                fn $inplace<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, Self>> {
                    inplace(slf, &[], ops::$name)
                }
            )*
        }
    };
}
float_unary_ops!(float_unary_methods);

/// (name, in-place name, node, docstring) of each declared float function: `torch.<name>`
/// and the stubs are made from this.
#[pyfunction]
fn _float_unary_ops() -> Vec<(&'static str, &'static str, &'static str, &'static str)> {
    ops::FLOAT_UNARY_OPS
        .iter()
        .map(|o| (o.name, o.inplace, o.node, o.doc))
        .collect()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_float_unary_ops, m)?)
}
