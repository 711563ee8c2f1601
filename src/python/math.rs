//! The declared float functions of one and two tensors and the rounding functions
//! (src/declared.rs) as Tensor methods,
//! with their in-place forms and docstrings, expanded from the same rows as the core; and
//! `torch.add`/`sub`/`mul`/`div`/`pow` with a number on either side.
use super::convert::tensor_or_type_error;
use super::ops::{inplace, out, R};
use super::tensor::PyTensor;
use crate::ops;
use pyo3::exceptions::PyTypeError;

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
crate::float_unary_ops!(float_unary_methods);
crate::rounding_ops!(float_unary_methods);

macro_rules! float_binary_methods {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident $(/ $inplace:ident)? $Variant:ident $node:literal { $($rest:tt)* }
    )*) => {
        #[pymethods]
        impl PyTensor {
            $(
                $(#[doc = $doc])*
                fn $name<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> R<'py> {
                    let o = declared_other(ops::FloatBinary::$Variant, other, stringify!($name))?;
                    out(py, ops::$name(&self.t, &o))
                }
                $(
                    #[doc = concat!("In-place `", stringify!($name), "`.")]
                    fn $inplace<'py>(
                        slf: &Bound<'py, Self>,
                        other: &Bound<'py, PyAny>,
                    ) -> PyResult<Bound<'py, Self>> {
                        let o = declared_other(ops::FloatBinary::$Variant, other, stringify!($inplace))?;
                        // a number binds PyTorch's Scalar overload: no tensor operand (which
                        // error an inference tensor meets first depends on it)
                        let operands: &[&crate::tensor::Tensor] =
                            if o.data().wrapped_number { &[] } else { &[&o] };
                        inplace(slf, operands, |s| ops::$name(s, &o))
                    }
                )?
            )*
        }
    };
}
crate::float_binary_ops!(float_binary_methods);

#[pymethods]
impl PyTensor {
    /// `self + value * tensor1 * tensor2` (AddcmulBackward0), rounded as PyTorch's CPU kernel.
    ///
    /// >>> torch.tensor([1., 2.]).addcmul(torch.tensor([3., 4.]), torch.tensor([0.5, 0.5]), value=2)
    /// tensor([4., 6.])
    #[pyo3(signature = (tensor1, tensor2, *, value = 1.0))]
    fn addcmul<'py>(
        &self,
        py: Python<'py>,
        tensor1: PyRef<'py, PyTensor>,
        tensor2: PyRef<'py, PyTensor>,
        value: f64,
    ) -> R<'py> {
        out(py, ops::addcmul(&self.t, &tensor1.t, &tensor2.t, value))
    }
    /// `addcmul` in place.
    #[pyo3(signature = (tensor1, tensor2, *, value = 1.0))]
    fn addcmul_<'py>(
        slf: &Bound<'py, Self>,
        tensor1: PyRef<'py, PyTensor>,
        tensor2: PyRef<'py, PyTensor>,
        value: f64,
    ) -> PyResult<Bound<'py, Self>> {
        let (a, b) = (tensor1.t.clone(), tensor2.t.clone());
        inplace(slf, &[&a, &b], |s| ops::addcmul(s, &a, &b, value))
    }
    /// `self + value * tensor1 / tensor2` (AddcdivBackward0).
    ///
    /// >>> torch.tensor([1., 2.]).addcdiv(torch.tensor([3., 4.]), torch.tensor([2., 8.]), value=2)
    /// tensor([4., 3.])
    #[pyo3(signature = (tensor1, tensor2, *, value = 1.0))]
    fn addcdiv<'py>(
        &self,
        py: Python<'py>,
        tensor1: PyRef<'py, PyTensor>,
        tensor2: PyRef<'py, PyTensor>,
        value: f64,
    ) -> R<'py> {
        out(py, ops::addcdiv(&self.t, &tensor1.t, &tensor2.t, value))
    }
    /// `addcdiv` in place.
    #[pyo3(signature = (tensor1, tensor2, *, value = 1.0))]
    fn addcdiv_<'py>(
        slf: &Bound<'py, Self>,
        tensor1: PyRef<'py, PyTensor>,
        tensor2: PyRef<'py, PyTensor>,
        value: f64,
    ) -> PyResult<Bound<'py, Self>> {
        let (a, b) = (tensor1.t.clone(), tensor2.t.clone());
        inplace(slf, &[&a, &b], |s| ops::addcdiv(s, &a, &b, value))
    }
    /// `self + weight * (end - self)` (LerpBackward0 for a number weight, LerpBackward1 for a
    /// tensor), rounded as PyTorch's CPU kernel.
    ///
    /// >>> torch.tensor([1., 2.]).lerp(torch.tensor([3., 6.]), 0.25)
    /// tensor([1.5000, 3.0000])
    fn lerp<'py>(
        &self,
        py: Python<'py>,
        end: PyRef<'py, PyTensor>,
        weight: &Bound<'py, PyAny>,
    ) -> R<'py> {
        let w = super::convert::operand_or_type_error(weight, "lerp", "weight")?;
        out(py, ops::lerp(&self.t, &end.t, &w))
    }
    /// `lerp` in place.
    fn lerp_<'py>(
        slf: &Bound<'py, Self>,
        end: PyRef<'py, PyTensor>,
        weight: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, Self>> {
        let w = super::convert::operand_or_type_error(weight, "lerp_", "weight")?;
        let e = end.t.clone();
        inplace(slf, &[&e, &w], |s| ops::lerp(s, &e, &w))
    }
}

/// The `other` of a declared function of two tensors: a tensor, or a number where PyTorch has
/// that overload (else its argument-parser TypeError).
fn declared_other(
    op: ops::FloatBinary,
    other: &Bound<'_, PyAny>,
    fname: &str,
) -> PyResult<crate::tensor::Tensor> {
    if op.number_nodes().is_none() {
        return tensor_or_type_error(other, fname, "other");
    }
    super::convert::operand(other).ok_or_else(|| {
        let ty = type_name(other);
        let no = format!("      didn't match because some of the arguments have invalid types: (!{ty}!)");
        PyTypeError::new_err(format!(
            "{fname}() received an invalid combination of arguments - got ({ty}), but expected one of:\n * (Tensor other)\n{no}\n * (Number other)\n{no}\n"
        ))
    })
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default()
}

/// `torch.<name>(input, other)` of a declared function of two tensors with a number on either
/// side, where PyTorch has those overloads (`torch.xlogy(2, t)`); else PyTorch's TypeError.
#[pyfunction]
fn _float_binary<'py>(
    py: Python<'py>,
    name: &str,
    input: &Bound<'py, PyAny>,
    other: &Bound<'py, PyAny>,
) -> R<'py> {
    // (also the functions made like the declared ones, maximum and minimum: tensors only)
    let op = ops::FloatBinary::ALL
        .iter()
        .copied()
        .find(|op| op.name() == name);
    if op.and_then(|op| op.number_nodes()).is_none() {
        for (obj, arg, pos) in [(input, "input", 1), (other, "other", 2)] {
            if obj.cast::<PyTensor>().is_err() {
                return Err(PyTypeError::new_err(format!(
                    "{name}(): argument '{arg}' (position {pos}) must be Tensor, not {}",
                    type_name(obj)
                )));
            }
        }
    }
    let op = op.ok_or_else(|| PyTypeError::new_err(format!("unknown op {name}")))?;
    let (a, b) = (
        super::convert::operand(input),
        super::convert::operand(other),
    );
    match (a, b) {
        (Some(a), Some(b)) if !(a.data().wrapped_number && b.data().wrapped_number) => {
            out(py, op.apply(&a, &b))
        }
        _ => Err(PyTypeError::new_err(format!(
            "{name}() received an invalid combination of arguments - got ({}, {}), but expected one of:\n * (Tensor input, Tensor other, *, Tensor out = None)\n * (Number self, Tensor other, *, Tensor out = None)\n * (Tensor input, Number other, *, Tensor out = None)\n",
            type_name(input),
            type_name(other)
        ))),
    }
}

type Listing = Vec<(&'static str, &'static str, &'static str, &'static str)>;

fn listing(table: &[ops::pointwise::OpInfo]) -> Listing {
    table
        .iter()
        .map(|o| (o.name, o.inplace, o.node, o.doc))
        .collect()
}

/// (name, in-place name, node, docstring) of each declared float function of one tensor:
/// `torch.<name>` and the stubs are made from this.
#[pyfunction]
fn _float_unary_ops() -> Listing {
    listing(ops::FLOAT_UNARY_OPS)
}

/// The same for the rounding functions.
#[pyfunction]
fn _rounding_ops() -> Listing {
    listing(ops::ROUNDING_OPS)
}

/// The same for the float functions of two tensors (in-place name "" where there is none).
#[pyfunction]
fn _float_binary_ops() -> Listing {
    listing(ops::FLOAT_BINARY_OPS)
}

/// Binary ops as functions (`torch.add(a, b)` with a number on either side).
#[pyfunction]
fn _binary<'py>(
    py: Python<'py>,
    op: &str,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let (x, y) = (super::convert::operand(a), super::convert::operand(b));
    let (Some(x), Some(y)) = (x.clone(), y.clone()) else {
        // the argument PyTorch's parser names: the first one that is not a tensor or number
        let (arg, pos, bad) = if x.is_none() {
            ("input", 1, a)
        } else {
            ("other", 2, b)
        };
        return Err(PyTypeError::new_err(format!(
            "{}(): argument '{arg}' (position {pos}) must be Tensor, not {}",
            op,
            bad.get_type().name()?
        )));
    };
    let r = match op {
        "add" => ops::add(&x, &y),
        "sub" => ops::sub(&x, &y),
        "mul" => ops::mul(&x, &y),
        "div" => ops::div(&x, &y),
        "pow" if y.data().wrapped_number => ops::pow_scalar(&x, &y),
        "pow" => ops::pow(&x, &y),
        _ => return Err(PyTypeError::new_err(format!("unknown op {}", op))),
    };
    out(py, r)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_binary, m)?)?;
    m.add_function(wrap_pyfunction!(_float_binary, m)?)?;
    m.add_function(wrap_pyfunction!(_float_unary_ops, m)?)?;
    m.add_function(wrap_pyfunction!(_rounding_ops, m)?)?;
    m.add_function(wrap_pyfunction!(_float_binary_ops, m)?)
}
