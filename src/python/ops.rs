//! Tensor methods that run ops: arithmetic operators, math functions, reductions and in-place
//! variants (shape ops are in shape_methods.rs, indexing in indexing.rs). Each is a one-line
//! delegation to `crate::ops`.
use super::convert::{dims_arg, extract_dtype, number, operand, operand_or_type_error, shape_args};
use super::indexing::{index_tensor, set_index};
use super::tensor::{wrap, PyTensor};
use super::IntoPyResult;
use crate::backend::cpu::complex_loop::in_place;
use crate::dtype::DType;
use crate::ops::{self, CmpOp};
use crate::tensor::Tensor;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

pub(super) type R<'py> = PyResult<Bound<'py, PyAny>>;

pub(super) fn out<'py>(py: Python<'py>, r: crate::Result<Tensor>) -> R<'py> {
    wrap(py, r.py()?)
}

/// Runs a heavy kernel (`work` its rough element count) with the GIL released when it records
/// nothing (no input requires grad or carries a tangent): no Python callback (saved-tensor
/// hooks, anomaly traces) can run inside it, so other Python threads run meanwhile. Small work
/// keeps the GIL (releasing it would cost more than the kernel).
pub(super) fn heavy<'py>(
    py: Python<'py>,
    inputs: &[&Tensor],
    work: usize,
    f: impl FnOnce() -> crate::Result<Tensor> + Send,
) -> R<'py> {
    let free = work >= 1 << 15 && !crate::ops::needs_grad(inputs).unwrap_or(true);
    let r = if free { py.detach(f) } else { f() };
    out(py, r)
}

fn not_implemented(py: Python<'_>) -> R<'_> {
    Ok(py.NotImplemented().into_bound(py))
}

/// Arithmetic with a numpy array: PyTorch leaves it to numpy, which reads the tensor with
/// `numpy()` (an error when it requires grad), computes with numpy's type promotion and wraps
/// the result back into a tensor.
macro_rules! arith {
    ($self:expr, $py:expr, $other:expr, $dunder:literal, |$o:ident| $e:expr) => {
        if super::convert::is_ndarray($other) {
            numpy_arith(&$self.t, $py, $other, $dunder)
        } else {
            binop!($py, $other, |$o| $e)
        }
    };
}

fn numpy_arith<'py>(
    t: &Tensor,
    py: Python<'py>,
    other: &Bound<'py, PyAny>,
    dunder: &str,
) -> R<'py> {
    if t.requires_grad() && crate::grad_mode::is_grad_enabled() {
        return Err(pyo3::exceptions::PyRuntimeError::new_err(
            "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.",
        ));
    }
    let arr = super::tensor::wrap(py, t.clone())?.call_method0("numpy")?;
    let res = arr.call_method1(dunder, (other,))?;
    if res.is(py.NotImplemented()) {
        return Ok(res);
    }
    let res = py.import("numpy")?.call_method1("asarray", (res,))?;
    super::factory::from_numpy(py, &res)
}

/// The `other` of a `(Tensor other)` / `(Number other)` method, or PyTorch's argument-parser
/// TypeError naming the type it got.
fn tensor_or_number(other: &Bound<'_, PyAny>, fname: &str) -> PyResult<Tensor> {
    operand(other).ok_or_else(|| {
        let t = other
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        PyTypeError::new_err(format!(
            "{fname}() received an invalid combination of arguments - got ({t}), but expected one of:\n * (Tensor other)\n      didn't match because some of the arguments have invalid types: (!{t}!)\n * (Number other)\n      didn't match because some of the arguments have invalid types: (!{t}!)\n"
        ))
    })
}

/// Reflected arithmetic and ordering comparisons with a numpy array are not PyTorch's (numpy
/// defers to the tensor's `__array_priority__`, so Python raises its TypeError).
macro_rules! no_ndarray {
    ($py:expr, $other:expr, |$o:ident| $e:expr) => {
        if super::convert::is_ndarray($other) {
            not_implemented($py)
        } else {
            binop!($py, $other, |$o| $e)
        }
    };
}

macro_rules! binop {
    ($py:expr, $other:expr, |$o:ident| $e:expr) => {
        match operand($other) {
            Some($o) => out($py, $e),
            None => not_implemented($py),
        }
    };
}

pub(super) fn ints(args: &Bound<'_, PyTuple>, f: &str) -> PyResult<Vec<i64>> {
    shape_args(args, f)
}

#[pymethods]
impl PyTensor {
    // ---- operators --------------------------------------------------------------------------
    fn __add__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> R<'py> {
        arith!(self, py, other, "__add__", |o| ops::add(&self.t, &o))
    }
    fn __radd__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> R<'py> {
        no_ndarray!(py, other, |o| ops::add(&self.t, &o))
    }
    fn __sub__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> R<'py> {
        arith!(self, py, other, "__sub__", |o| ops::sub(&self.t, &o))
    }
    fn __rsub__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> R<'py> {
        no_ndarray!(py, other, |o| ops::rsub(&self.t, &o))
    }
    fn __mul__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> R<'py> {
        arith!(self, py, other, "__mul__", |o| ops::mul(&self.t, &o))
    }
    fn __rmul__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> R<'py> {
        no_ndarray!(py, other, |o| ops::mul(&self.t, &o))
    }
    fn __truediv__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> R<'py> {
        arith!(self, py, other, "__truediv__", |o| ops::div(&self.t, &o))
    }
    fn __rtruediv__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> R<'py> {
        // s / x is recorded as reciprocal(x) * s
        no_ndarray!(py, other, |o| ops::reciprocal(&self.t)
            .and_then(|r| ops::mul(&r, &o)))
    }
    fn __pow__<'py>(
        &self,
        py: Python<'py>,
        other: &Bound<'py, PyAny>,
        modulo: Option<&Bound<'py, PyAny>>,
    ) -> R<'py> {
        let _ = modulo;
        if super::convert::is_ndarray(other) {
            return numpy_arith(&self.t, py, other, "__pow__");
        }
        match operand(other) {
            Some(o) if o.data().wrapped_number => out(py, ops::pow_scalar(&self.t, &o)),
            Some(o) => out(py, ops::pow(&self.t, &o)),
            None => not_implemented(py),
        }
    }
    fn __rpow__<'py>(
        &self,
        py: Python<'py>,
        other: &Bound<'py, PyAny>,
        modulo: Option<&Bound<'py, PyAny>>,
    ) -> R<'py> {
        let _ = modulo;
        no_ndarray!(py, other, |o| ops::pow(&o, &self.t))
    }
    fn __mod__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> R<'py> {
        arith!(self, py, other, "__mod__", |o| ops::remainder(&self.t, &o))
    }
    fn __rmod__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> R<'py> {
        no_ndarray!(py, other, |o| ops::remainder(&o, &self.t))
    }
    fn remainder<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> R<'py> {
        let o = tensor_or_number(other, "remainder")?;
        out(py, ops::remainder(&self.t, &o))
    }
    fn fmod<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> R<'py> {
        let o = tensor_or_number(other, "fmod")?;
        out(py, ops::fmod(&self.t, &o))
    }
    fn __floordiv__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> R<'py> {
        arith!(self, py, other, "__floordiv__", |o| ops::floor_divide(
            &self.t, &o
        ))
    }
    fn __rfloordiv__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> R<'py> {
        no_ndarray!(py, other, |o| ops::floor_divide(&o, &self.t))
    }
    /// Elementwise maximum (MaximumBackward0; ties split the gradient, NaN propagates).
    ///
    /// >>> torch.maximum(torch.tensor([1., 5.]), torch.tensor([3., 2.]))
    /// tensor([3., 5.])
    fn maximum<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> R<'py> {
        let o = super::convert::tensor_or_type_error(other, "maximum", "other")?;
        out(py, ops::maximum(&self.t, &o))
    }
    /// Elementwise minimum (MinimumBackward0).
    ///
    /// >>> torch.minimum(torch.tensor([1., 5.]), torch.tensor([3., 2.]))
    /// tensor([1., 2.])
    fn minimum<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> R<'py> {
        let o = super::convert::tensor_or_type_error(other, "minimum", "other")?;
        out(py, ops::minimum(&self.t, &o))
    }
    fn __matmul__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> R<'py> {
        match other.cast::<PyTensor>() {
            Ok(o) => {
                let (a, b) = (&self.t, &o.get().t);
                heavy(py, &[a, b], a.numel() + b.numel(), || ops::matmul(a, b))
            }
            Err(_) if super::convert::is_ndarray(other) => {
                numpy_arith(&self.t, py, other, "__matmul__")
            }
            Err(_) => not_implemented(py),
        }
    }
    fn __rmatmul__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> R<'py> {
        match other.cast::<PyTensor>() {
            Ok(o) => {
                let (a, b) = (&o.get().t, &self.t);
                heavy(py, &[a, b], a.numel() + b.numel(), || ops::matmul(a, b))
            }
            Err(_) => not_implemented(py),
        }
    }
    fn __neg__<'py>(&self, py: Python<'py>) -> R<'py> {
        out(py, ops::neg(&self.t))
    }
    fn __pos__<'py>(slf: &Bound<'py, Self>) -> Bound<'py, Self> {
        slf.clone()
    }
    fn __abs__<'py>(&self, py: Python<'py>) -> R<'py> {
        out(py, ops::abs(&self.t))
    }
    fn __eq__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> R<'py> {
        binop!(py, other, |o| ops::compare(CmpOp::Eq, &self.t, &o))
    }
    fn __ne__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> R<'py> {
        binop!(py, other, |o| ops::compare(CmpOp::Ne, &self.t, &o))
    }
    fn __lt__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> R<'py> {
        no_ndarray!(py, other, |o| ops::compare(CmpOp::Lt, &self.t, &o))
    }
    fn __le__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> R<'py> {
        no_ndarray!(py, other, |o| ops::compare(CmpOp::Le, &self.t, &o))
    }
    fn __gt__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> R<'py> {
        no_ndarray!(py, other, |o| ops::compare(CmpOp::Gt, &self.t, &o))
    }
    fn __ge__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> R<'py> {
        no_ndarray!(py, other, |o| ops::compare(CmpOp::Ge, &self.t, &o))
    }
    fn __iadd__(&self, other: &Bound<'_, PyAny>) -> PyResult<()> {
        let o = operand_or_type_error(other, "add_", "other")?;
        ops::apply_inplace(&self.t, &[&o], |s| ops::add(s, &o)).py()
    }
    fn __isub__(&self, other: &Bound<'_, PyAny>) -> PyResult<()> {
        let o = operand_or_type_error(other, "sub_", "other")?;
        sub_check_inplace(&self.t, &o)?;
        ops::apply_inplace(&self.t, &[&o], |s| ops::sub(s, &o)).py()
    }
    fn __imul__(&self, other: &Bound<'_, PyAny>) -> PyResult<()> {
        let o = operand_or_type_error(other, "mul_", "other")?;
        ops::apply_inplace(&self.t, &[&o], |s| in_place(|| ops::mul(s, &o))).py()
    }
    fn __itruediv__(&self, other: &Bound<'_, PyAny>) -> PyResult<()> {
        let o = operand_or_type_error(other, "div_", "other")?;
        ops::apply_inplace(&self.t, &[&o], |s| in_place(|| ops::div(s, &o))).py()
    }

    // ---- named arithmetic ------------------------------------------------------------------
    #[pyo3(signature = (other, other2 = None, *, alpha = None))]
    fn add<'py>(
        &self,
        py: Python<'py>,
        other: &Bound<'py, PyAny>,
        other2: Option<&Bound<'py, PyAny>>,
        alpha: Option<&Bound<'py, PyAny>>,
    ) -> R<'py> {
        let (other, alpha) = deprecated_alpha(py, "add", other, other2, alpha)?;
        let o = operand_or_type_error(other, "add", "other")?;
        let alpha = alpha_arg(&self.t, &o, alpha)?;
        out(py, ops::add_scaled(&self.t, &o, alpha))
    }
    #[pyo3(signature = (other, other2 = None, *, alpha = None))]
    fn sub<'py>(
        &self,
        py: Python<'py>,
        other: &Bound<'py, PyAny>,
        other2: Option<&Bound<'py, PyAny>>,
        alpha: Option<&Bound<'py, PyAny>>,
    ) -> R<'py> {
        let (other, alpha) = deprecated_alpha(py, "sub", other, other2, alpha)?;
        let o = operand_or_type_error(other, "sub", "other")?;
        let alpha = alpha_arg(&self.t, &o, alpha)?;
        out(py, ops::sub_scaled(&self.t, &o, alpha))
    }
    fn mul<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> R<'py> {
        let o = operand_or_type_error(other, "mul", "other")?;
        out(py, ops::mul(&self.t, &o))
    }
    #[pyo3(signature = (other, *, rounding_mode = None))]
    fn div<'py>(
        &self,
        py: Python<'py>,
        other: &Bound<'py, PyAny>,
        rounding_mode: Option<&str>,
    ) -> R<'py> {
        let o = operand_or_type_error(other, "div", "other")?;
        match rounding_mode {
            None => out(py, ops::div(&self.t, &o)),
            Some(m) => {
                let mode = ops::divmod::RoundingMode::parse(Some(m)).py()?;
                out(py, ops::divmod::div_mode(&self.t, &o, mode))
            }
        }
    }
    fn pow<'py>(&self, py: Python<'py>, exponent: &Bound<'py, PyAny>) -> R<'py> {
        self.__pow__(py, exponent, None)
    }
    fn square<'py>(&self, py: Python<'py>) -> R<'py> {
        out(py, ops::pow_scalar(&self.t, &Tensor::wrapped_scalar(2i64)))
    }
    fn neg<'py>(&self, py: Python<'py>) -> R<'py> {
        out(py, ops::neg(&self.t))
    }
    fn is_conj(&self) -> bool {
        self.t.meta().is_conj
    }
    fn resolve_conj<'py>(slf: &Bound<'py, Self>) -> R<'py> {
        let t = &slf.get().t;
        if !t.meta().is_conj {
            return Ok(slf.clone().into_any());
        }
        out(slf.py(), ops::clone(t))
    }
    fn _angle<'py>(&self, py: Python<'py>) -> R<'py> {
        out(py, ops::angle(&self.t))
    }
    fn relu<'py>(&self, py: Python<'py>) -> R<'py> {
        out(py, ops::relu(&self.t))
    }
    fn abs<'py>(&self, py: Python<'py>) -> R<'py> {
        out(py, ops::abs(&self.t))
    }
    fn sign<'py>(&self, py: Python<'py>) -> R<'py> {
        out(py, ops::sign(&self.t))
    }
    fn sgn<'py>(&self, py: Python<'py>) -> R<'py> {
        out(py, ops::sgn(&self.t))
    }
    fn conj<'py>(&self, py: Python<'py>) -> R<'py> {
        out(py, ops::conj(&self.t))
    }

    // ---- reductions ------------------------------------------------------------------------
    #[pyo3(signature = (dim = None, keepdim = false, *, dtype = None, keepdims = None, axis = None))]
    fn sum<'py>(
        &self,
        py: Python<'py>,
        dim: Option<&Bound<'py, PyAny>>,
        keepdim: bool,
        dtype: Option<&Bound<'py, PyAny>>,
        keepdims: Option<bool>,
        axis: Option<&Bound<'py, PyAny>>,
    ) -> R<'py> {
        let keepdim = keepdims.unwrap_or(keepdim);
        let dims = dims_arg(dim_or_axis("sum", dim, axis)?)?;
        let want = match dtype {
            Some(d) if !d.is_none() => Some(extract_dtype(d)?),
            _ => None,
        };
        let src = match want {
            Some(dt) => ops::to_dtype(&self.t, dt).py()?,
            None => self.t.clone(),
        };
        let r = ops::sum(&src, dims.as_deref(), keepdim).py()?;
        // integers and bools sum in int64; an asked-for dtype is the result's, as PyTorch's
        match want {
            Some(dt) if r.dtype() != dt => out(py, ops::to_dtype(&r, dt)),
            _ => wrap(py, r),
        }
    }
    #[pyo3(signature = (dim = None, keepdim = false, *, dtype = None, keepdims = None, axis = None))]
    fn mean<'py>(
        &self,
        py: Python<'py>,
        dim: Option<&Bound<'py, PyAny>>,
        keepdim: bool,
        dtype: Option<&Bound<'py, PyAny>>,
        keepdims: Option<bool>,
        axis: Option<&Bound<'py, PyAny>>,
    ) -> R<'py> {
        let keepdim = keepdims.unwrap_or(keepdim);
        let dims = dims_arg(dim_or_axis("mean", dim, axis)?)?;
        let src = match dtype {
            Some(d) if !d.is_none() => ops::to_dtype(&self.t, extract_dtype(d)?).py()?,
            _ => self.t.clone(),
        };
        out(py, ops::mean(&src, dims.as_deref(), keepdim))
    }
    #[pyo3(signature = (dim = None, keepdim = false, *, keepdims = None, axis = None))]
    fn argmax<'py>(
        &self,
        py: Python<'py>,
        dim: Option<i64>,
        keepdim: bool,
        keepdims: Option<bool>,
        axis: Option<i64>,
    ) -> R<'py> {
        let keepdim = keepdims.unwrap_or(keepdim);
        let dim = dim_or_axis("argmax", dim, axis)?;
        no_bool_arg(&self.t, "argmax")?;
        out(py, ops::argmax(&self.t, dim, keepdim, true))
    }
    #[pyo3(signature = (dim = None, keepdim = false, *, keepdims = None, axis = None))]
    fn argmin<'py>(
        &self,
        py: Python<'py>,
        dim: Option<i64>,
        keepdim: bool,
        keepdims: Option<bool>,
        axis: Option<i64>,
    ) -> R<'py> {
        let keepdim = keepdims.unwrap_or(keepdim);
        let dim = dim_or_axis("argmin", dim, axis)?;
        no_bool_arg(&self.t, "argmin")?;
        out(py, ops::argmax(&self.t, dim, keepdim, false))
    }
    fn _max_all<'py>(&self, py: Python<'py>) -> R<'py> {
        out(py, ops::max_all(&self.t, true))
    }
    fn _min_all<'py>(&self, py: Python<'py>) -> R<'py> {
        out(py, ops::max_all(&self.t, false))
    }

    // ---- linear algebra --------------------------------------------------------------------
    fn matmul<'py>(&self, py: Python<'py>, other: PyRef<'py, PyTensor>) -> R<'py> {
        let (a, b) = (&self.t, &other.t);
        heavy(py, &[a, b], a.numel() + b.numel(), || ops::matmul(a, b))
    }
    fn mm<'py>(&self, py: Python<'py>, mat2: PyRef<'py, PyTensor>) -> R<'py> {
        let (a, b) = (&self.t, &mat2.t);
        heavy(py, &[a, b], a.numel() + b.numel(), || ops::mm(a, b))
    }
    fn bmm<'py>(&self, py: Python<'py>, mat2: PyRef<'py, PyTensor>) -> R<'py> {
        let (a, b) = (&self.t, &mat2.t);
        heavy(py, &[a, b], a.numel() + b.numel(), || ops::bmm(a, b))
    }
    fn dot<'py>(&self, py: Python<'py>, tensor: PyRef<'py, PyTensor>) -> R<'py> {
        if self.t.ndim() != 1 || tensor.t.ndim() != 1 {
            return Err(pyo3::exceptions::PyRuntimeError::new_err(format!(
                "1D tensors expected, but got {}D and {}D tensors",
                self.t.ndim(),
                tensor.t.ndim()
            )));
        }
        out(py, ops::dot(&self.t, &tensor.t))
    }
    fn mv<'py>(&self, py: Python<'py>, vec: PyRef<'py, PyTensor>) -> R<'py> {
        out(py, ops::mv(&self.t, &vec.t))
    }

    // ---- copies and conversions -----------------------------------------------------------
    fn clone<'py>(&self, py: Python<'py>) -> R<'py> {
        out(py, ops::clone_preserving(&self.t))
    }
    fn contiguous<'py>(slf: &Bound<'py, Self>) -> R<'py> {
        let t = &slf.get().t;
        if t.is_contiguous() {
            return Ok(slf.clone().into_any());
        }
        out(slf.py(), ops::clone(t))
    }
    /// `to(device, dtype)`: the tensor itself when nothing changes (unless `copy`).
    #[pyo3(signature = (dtype, device, copy = false))]
    fn _to_copy<'py>(
        slf: &Bound<'py, Self>,
        dtype: &Bound<'py, PyAny>,
        device: &str,
        copy: bool,
    ) -> R<'py> {
        let t = &slf.get().t;
        let d = extract_dtype(dtype)?;
        let dev = crate::device::Device::parse(device).py()?;
        if d == t.dtype() && dev == t.device() && !copy {
            return Ok(slf.clone().into_any());
        }
        out(slf.py(), ops::to_copy(t, d, dev))
    }
    /// The device as PyTorch spells it (`cpu`, `cuda:0`).
    #[getter]
    fn _device(&self) -> String {
        self.t.device().name()
    }
    #[getter]
    fn is_cuda(&self) -> bool {
        self.t.is_cuda()
    }
    /// `to(dtype)`: the tensor itself when nothing changes (unless `copy`).
    #[pyo3(signature = (dtype, copy = false))]
    fn _to_dtype<'py>(slf: &Bound<'py, Self>, dtype: &Bound<'py, PyAny>, copy: bool) -> R<'py> {
        let t = &slf.get().t;
        let d = extract_dtype(dtype)?;
        if d == t.dtype() && !copy {
            return Ok(slf.clone().into_any());
        }
        out(slf.py(), ops::to_dtype_preserving(t, d))
    }
    fn double<'py>(slf: &Bound<'py, Self>) -> R<'py> {
        to_dt(slf, DType::Float64)
    }
    fn float<'py>(slf: &Bound<'py, Self>) -> R<'py> {
        to_dt(slf, DType::Float32)
    }
    fn long<'py>(slf: &Bound<'py, Self>) -> R<'py> {
        to_dt(slf, DType::Int64)
    }
    fn int<'py>(slf: &Bound<'py, Self>) -> R<'py> {
        to_dt(slf, DType::Int32)
    }
    /// The tensor as int16 (`self.to(torch.int16)`).
    ///
    /// >>> torch.tensor([1.7, -2.5]).short()
    /// tensor([ 1, -2], dtype=torch.int16)
    fn short<'py>(slf: &Bound<'py, Self>) -> R<'py> {
        to_dt(slf, DType::Int16)
    }
    /// The tensor as int8 (`self.to(torch.int8)`).
    ///
    /// >>> torch.tensor([1.7, -2.5]).char()
    /// tensor([ 1, -2], dtype=torch.int8)
    fn char<'py>(slf: &Bound<'py, Self>) -> R<'py> {
        to_dt(slf, DType::Int8)
    }
    fn bool<'py>(slf: &Bound<'py, Self>) -> R<'py> {
        to_dt(slf, DType::Bool)
    }
    fn byte<'py>(slf: &Bound<'py, Self>) -> R<'py> {
        to_dt(slf, DType::UInt8)
    }
    fn cfloat<'py>(slf: &Bound<'py, Self>) -> R<'py> {
        to_dt(slf, DType::Complex64)
    }
    fn cdouble<'py>(slf: &Bound<'py, Self>) -> R<'py> {
        to_dt(slf, DType::Complex128)
    }

    // ---- in place --------------------------------------------------------------------------
    #[pyo3(signature = (other, other2 = None, *, alpha = None))]
    fn add_<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
        other2: Option<&Bound<'py, PyAny>>,
        alpha: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, Self>> {
        let (other, alpha) = deprecated_alpha(slf.py(), "add_", other, other2, alpha)?;
        let o = operand_or_type_error(other, "add_", "other")?;
        let alpha = alpha_arg(&slf.get().t, &o, alpha)?;
        inplace(slf, &[&o], |s| ops::add_scaled(s, &o, alpha))
    }
    #[pyo3(signature = (other, other2 = None, *, alpha = None))]
    fn sub_<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
        other2: Option<&Bound<'py, PyAny>>,
        alpha: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, Self>> {
        let (other, alpha) = deprecated_alpha(slf.py(), "sub_", other, other2, alpha)?;
        let o = operand_or_type_error(other, "sub_", "other")?;
        sub_check_inplace(&slf.get().t, &o)?;
        let alpha = alpha_arg(&slf.get().t, &o, alpha)?;
        inplace(slf, &[&o], |s| ops::sub_scaled(s, &o, alpha))
    }
    fn mul_<'py>(slf: &Bound<'py, Self>, other: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        let o = operand_or_type_error(other, "mul_", "other")?;
        inplace(slf, &[&o], |s| in_place(|| ops::mul(s, &o)))
    }
    #[pyo3(signature = (other, *, rounding_mode = None))]
    fn div_<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
        rounding_mode: Option<&str>,
    ) -> PyResult<Bound<'py, Self>> {
        let o = operand_or_type_error(other, "div_", "other")?;
        match rounding_mode {
            None => inplace(slf, &[&o], |s| in_place(|| ops::div(s, &o))),
            Some(m) => {
                let mode = ops::divmod::RoundingMode::parse(Some(m)).py()?;
                inplace(slf, &[&o], |s| ops::divmod::div_mode(s, &o, mode))
            }
        }
    }
    fn pow_<'py>(
        slf: &Bound<'py, Self>,
        exponent: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, Self>> {
        let o = operand_or_type_error(exponent, "pow_", "exponent")?;
        if o.data().wrapped_number {
            // pow_(Scalar exponent): the number is no tensor operand (see `ops::compare_`)
            inplace(slf, &[], |s| ops::pow_scalar(s, &o))
        } else {
            inplace(slf, &[&o], |s| {
                ops::arith::check_inplace_broadcast(s, &o)?;
                ops::pow(s, &o)
            })
        }
    }
    /// `self == other` written into self in self's dtype (1 where true, 0 where false).
    ///
    /// >>> x = torch.tensor([1., 2., 3.])
    /// >>> x.eq_(2)
    /// tensor([0., 1., 0.])
    fn eq_<'py>(slf: &Bound<'py, Self>, other: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        let o = operand_or_type_error(other, "eq_", "other")?;
        ops::compare_(CmpOp::Eq, &slf.get().t, &o).py()?;
        Ok(slf.clone())
    }
    /// `ne(other)` written into self in self's dtype (see `eq_`).
    fn ne_<'py>(slf: &Bound<'py, Self>, other: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        let o = operand_or_type_error(other, "ne_", "other")?;
        ops::compare_(CmpOp::Ne, &slf.get().t, &o).py()?;
        Ok(slf.clone())
    }
    /// `lt(other)` written into self in self's dtype (see `eq_`).
    fn lt_<'py>(slf: &Bound<'py, Self>, other: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        let o = operand_or_type_error(other, "lt_", "other")?;
        ops::compare_(CmpOp::Lt, &slf.get().t, &o).py()?;
        Ok(slf.clone())
    }
    /// `le(other)` written into self in self's dtype (see `eq_`).
    fn le_<'py>(slf: &Bound<'py, Self>, other: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        let o = operand_or_type_error(other, "le_", "other")?;
        ops::compare_(CmpOp::Le, &slf.get().t, &o).py()?;
        Ok(slf.clone())
    }
    /// `gt(other)` written into self in self's dtype (see `eq_`).
    fn gt_<'py>(slf: &Bound<'py, Self>, other: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        let o = operand_or_type_error(other, "gt_", "other")?;
        ops::compare_(CmpOp::Gt, &slf.get().t, &o).py()?;
        Ok(slf.clone())
    }
    /// `ge(other)` written into self in self's dtype (see `eq_`).
    fn ge_<'py>(slf: &Bound<'py, Self>, other: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        let o = operand_or_type_error(other, "ge_", "other")?;
        ops::compare_(CmpOp::Ge, &slf.get().t, &o).py()?;
        Ok(slf.clone())
    }
    fn neg_<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, Self>> {
        inplace(slf, &[], ops::neg)
    }
    fn relu_<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, Self>> {
        let t = &slf.get().t;
        if t.dtype().is_complex() {
            // PyTorch's relu_ is a clamp_min_: after autograd's checks its kernel refuses a
            // complex tensor before the memory checks of an expanded one
            ops::check_inplace_autograd(t, &[]).py()?;
            ops::relu(&Tensor::zeros_on(&[0], t.dtype(), t.device()).py()?).py()?;
        }
        inplace(slf, &[], ops::relu)
    }
    fn zero_<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, Self>> {
        ops::fill_(
            &slf.get().t,
            num_complex::Complex64::new(0.0, 0.0),
            "ZeroBackward0",
        )
        .py()?;
        Ok(slf.clone())
    }
    fn fill_<'py>(slf: &Bound<'py, Self>, value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        if let Ok(v) = value.cast::<PyTensor>() {
            let v = v.get().t.clone();
            if v.ndim() != 0 {
                return Err(pyo3::exceptions::PyRuntimeError::new_err(format!(
                    "fill_ only supports 0-dimension value tensor but got tensor with {} dimensions.",
                    v.ndim()
                )));
            }
            return inplace(slf, &[&v], |s| ops::filled_tensor(s, &v));
        }
        let v = number(value)?;
        crate::dtype::check_fill_value(v, slf.get().t.dtype()).py()?;
        let t = &slf.get().t;
        if t.dtype() == DType::Int64 && value.is_exact_instance_of::<pyo3::types::PyInt>() {
            // exactly: a float holds integers exactly only up to 2**53
            if let Ok(i) = value.extract::<i64>() {
                if i.unsigned_abs() > 1 << 53 {
                    ops::copy_(t, &Tensor::wrapped_scalar(i)).py()?;
                    return Ok(slf.clone());
                }
            }
        }
        ops::fill_(t, v, "FillBackward2").py()?;
        Ok(slf.clone())
    }
    #[pyo3(signature = (src, non_blocking = false))]
    fn copy_<'py>(
        slf: &Bound<'py, Self>,
        src: &Bound<'py, PyAny>,
        non_blocking: bool,
    ) -> PyResult<Bound<'py, Self>> {
        let _ = non_blocking;
        let Ok(s) = src.cast::<PyTensor>() else {
            return Err(PyTypeError::new_err(format!(
                "copy_(): argument 'other' (position 1) must be Tensor, not {}",
                src.get_type().name()?
            )));
        };
        let s = s.get().t.clone();
        ops::copy_(&slf.get().t, &s).py()?;
        Ok(slf.clone())
    }

    // ---- indexing --------------------------------------------------------------------------
    fn __getitem__<'py>(&self, py: Python<'py>, index: &Bound<'py, PyAny>) -> R<'py> {
        out(py, index_tensor(&self.t, index)?)
    }
    fn __setitem__(&self, index: &Bound<'_, PyAny>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        set_index(&self.t, index, value)
    }
}

/// argmax/argmin of a bool tensor: PyTorch has no kernel (max(dim) of bools still works).
fn no_bool_arg(t: &Tensor, f: &str) -> PyResult<()> {
    if t.dtype() == DType::Bool {
        return Err(pyo3::exceptions::PyNotImplementedError::new_err(format!(
            "{f}(): does not support bool input"
        )));
    }
    Ok(())
}

fn to_dt<'py>(slf: &Bound<'py, PyTensor>, d: DType) -> R<'py> {
    let t = &slf.get().t;
    if t.dtype() == d {
        return Ok(slf.clone().into_any());
    }
    out(slf.py(), ops::to_dtype_preserving(t, d))
}

/// PyTorch's deprecated `add(Number alpha, Tensor other)` overloads of add/sub/add_/sub_
/// (`p.data.add_(-lr, grad)` in older training loops): `(other, alpha)` as the modern call
/// takes them, after the deprecation warning PyTorch gives once per process.
fn deprecated_alpha<'a, 'py>(
    py: Python<'py>,
    name: &str,
    other: &'a Bound<'py, PyAny>,
    other2: Option<&'a Bound<'py, PyAny>>,
    alpha: Option<&'a Bound<'py, PyAny>>,
) -> PyResult<(&'a Bound<'py, PyAny>, Option<&'a Bound<'py, PyAny>>)> {
    let Some(other2) = other2 else {
        return Ok((other, alpha));
    };
    if alpha.is_some() || other.is_instance_of::<PyTensor>() {
        return Err(PyTypeError::new_err(format!(
            "{name}() received an invalid combination of arguments - got (Tensor, Tensor), but expected one of:\n * (Tensor other, *, Number alpha = 1)\n * (Number alpha, Tensor other)"
        )));
    }
    warn_deprecated_overload(py, name, false)?;
    Ok((other2, Some(other)))
}

/// The deprecation warning of the `(Number alpha, Tensor other)` overloads, given once per
/// process as PyTorch's `TORCH_WARN_ONCE` gives it; `function`: `torch.add`/`torch.sub`.
#[pyfunction]
#[pyo3(name = "_warn_deprecated_overload")]
pub(super) fn warn_deprecated_overload(py: Python<'_>, name: &str, function: bool) -> PyResult<()> {
    use std::sync::atomic::{AtomicBool, Ordering};
    static WARNED: AtomicBool = AtomicBool::new(false);
    if WARNED.swap(true, Ordering::Relaxed) {
        return Ok(());
    }
    let (old, new) = if function {
        (
            format!("{name}(Tensor input, Number alpha, Tensor other, *, Tensor out = None)"),
            format!("{name}(Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None)"),
        )
    } else {
        (
            format!("{name}(Number alpha, Tensor other)"),
            format!("{name}(Tensor other, *, Number alpha = 1)"),
        )
    };
    let msg = format!("This overload of {name} is deprecated:\n\t{old}\nConsider using one of the following signatures instead:\n\t{new} (Triggered internally at /__w/pytorch/pytorch/torch/csrc/utils/python_arg_parser.cpp:1833.)");
    super::tensor::warn(py, "UserWarning", &msg, if function { 2 } else { 1 })
}

/// `sub_`'s bool refusal, which PyTorch makes after autograd's checks of the in-place write
/// and before the kernel's shape and memory checks.
fn sub_check_inplace(target: &Tensor, other: &Tensor) -> PyResult<()> {
    if let Err(e) = ops::bool_sub_check(target, other) {
        ops::check_inplace_autograd(target, &[other]).py()?;
        return Err(e).py();
    }
    Ok(())
}

pub(super) fn inplace<'py>(
    slf: &Bound<'py, PyTensor>,
    others: &[&Tensor],
    f: impl FnOnce(&Tensor) -> crate::Result<Tensor>,
) -> PyResult<Bound<'py, PyTensor>> {
    ops::apply_inplace(&slf.get().t, others, f).py()?;
    Ok(slf.clone())
}

/// `alpha=` of add/sub as a number, refused as PyTorch refuses it: a floating alpha when the
/// result is integral ("For integral input tensors, ...").
fn alpha_arg(a: &Tensor, b: &Tensor, alpha: Option<&Bound<'_, PyAny>>) -> PyResult<f64> {
    let Some(alpha) = alpha else {
        return Ok(1.0);
    };
    let v: f64 = alpha.extract()?;
    if alpha.is_instance_of::<pyo3::types::PyFloat>() {
        let (dt, _, _) = ops::promote_pair(a, b).py()?;
        if !dt.is_differentiable() {
            return Err(pyo3::exceptions::PyRuntimeError::new_err(
                "For integral input tensors, argument alpha must not be a floating point number.",
            ));
        }
    }
    Ok(v)
}

/// `dim=` or NumPy's `axis=` (PyTorch's parser reads the alias only when `dim` is absent).
pub(super) fn dim_or_axis<T>(name: &str, dim: Option<T>, axis: Option<T>) -> PyResult<Option<T>> {
    match (dim, axis) {
        (Some(_), Some(_)) => Err(PyTypeError::new_err(format!(
            "{name}() got an unexpected keyword argument 'axis'"
        ))),
        (d, a) => Ok(d.or(a)),
    }
}
