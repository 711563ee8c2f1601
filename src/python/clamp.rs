//! `Tensor.clamp`/`clip` and `clamp_min`/`clamp_max` (and in place): the bounds' Python forms
//! (numbers, 0-d tensors passed as numbers, tensors) read into `ops::clamp_*_as`.
use super::ops::{inplace, out, R};
use super::tensor::PyTensor;
use super::IntoPyResult;
use crate::ops;
use crate::tensor::Tensor;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

#[pymethods]
impl PyTensor {
    #[pyo3(signature = (min = None, max = None))]
    fn clamp<'py>(
        &self,
        py: Python<'py>,
        min: Option<Bound<'py, PyAny>>,
        max: Option<Bound<'py, PyAny>>,
    ) -> R<'py> {
        clamp_as(&self.t, py, min, max, ops::ClampOp::Clamp)
    }
    #[pyo3(signature = (min = None, max = None))]
    fn clip<'py>(
        &self,
        py: Python<'py>,
        min: Option<Bound<'py, PyAny>>,
        max: Option<Bound<'py, PyAny>>,
    ) -> R<'py> {
        self.clamp(py, min, max)
    }
    #[pyo3(signature = (min = None, max = None))]
    fn clamp_<'py>(
        slf: &Bound<'py, Self>,
        min: Option<Bound<'py, PyAny>>,
        max: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, Self>> {
        clamp_inplace_as(slf, min, max, ops::ClampOp::Clamp)
    }
    /// `clamp(min=min)` recorded as ClampMinBackward0 (ClampMinBackward1 for a tensor bound).
    ///
    /// >>> torch.tensor([-1., 2.]).clamp_min(0.5)
    /// tensor([0.5000, 2.0000])
    fn clamp_min<'py>(&self, py: Python<'py>, min: Bound<'py, PyAny>) -> R<'py> {
        clamp_as(&self.t, py, Some(min), None, ops::ClampOp::Min)
    }
    /// `clamp_min` in place.
    ///
    /// >>> x = torch.tensor([-1., 2.])
    /// >>> x.clamp_min_(0.5) is x
    /// True
    fn clamp_min_<'py>(
        slf: &Bound<'py, Self>,
        min: Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, Self>> {
        clamp_inplace_as(slf, Some(min), None, ops::ClampOp::Min)
    }
    /// `clamp(max=max)` recorded as ClampMaxBackward0 (ClampMaxBackward1 for a tensor bound).
    ///
    /// >>> torch.tensor([-1., 2.]).clamp_max(0.5)
    /// tensor([-1.0000,  0.5000])
    fn clamp_max<'py>(&self, py: Python<'py>, max: Bound<'py, PyAny>) -> R<'py> {
        clamp_as(&self.t, py, None, Some(max), ops::ClampOp::Max)
    }
    /// `clamp_max` in place.
    ///
    /// >>> x = torch.tensor([-1., 2.])
    /// >>> x.clamp_max_(0.5) is x
    /// True
    fn clamp_max_<'py>(
        slf: &Bound<'py, Self>,
        max: Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, Self>> {
        clamp_inplace_as(slf, None, Some(max), ops::ClampOp::Max)
    }
}

/// clamp, clamp_min or clamp_max (`op`) with number or tensor bounds.
fn clamp_as<'py>(
    t: &Tensor,
    py: Python<'py>,
    min: Option<Bound<'py, PyAny>>,
    max: Option<Bound<'py, PyAny>>,
    op: ops::ClampOp,
) -> R<'py> {
    if let Some((lo, hi)) = tensor_bounds(&min, &max)? {
        return out(py, ops::clamp_tensor_as(t, lo.as_ref(), hi.as_ref(), op));
    }
    let (lo, hi, kind) = clamp_bounds(t, op, min, max)?;
    out(py, ops::clamp_scalar_as(t, lo, hi, kind, op))
}

/// [`clamp_as`] in place.
fn clamp_inplace_as<'py>(
    slf: &Bound<'py, PyTensor>,
    min: Option<Bound<'py, PyAny>>,
    max: Option<Bound<'py, PyAny>>,
    op: ops::ClampOp,
) -> PyResult<Bound<'py, PyTensor>> {
    if let Some((lo, hi)) = tensor_bounds(&min, &max)? {
        let others: Vec<&Tensor> = lo.iter().chain(hi.iter()).collect();
        // the result's cast, then complex types, after autograd's checks and before memory's
        let t = slf.get().t.clone();
        let dt = ops::clamp_tensor_result_type(&t, lo.as_ref(), hi.as_ref()).py()?;
        let refused = if dt != t.dtype() && !ops::can_cast(dt, t.dtype()) {
            Some(crate::Error::Runtime(format!(
                "result type {} can't be cast to the desired output type {}",
                dt.scalar_type_name(),
                t.dtype().scalar_type_name()
            )))
        } else if dt.is_complex() {
            Some(ops::clamp_complex_error(op, dt, &t))
        } else {
            None
        };
        if let Some(e) = refused {
            ops::check_inplace_autograd(&t, &others).py()?;
            return Err(e).py();
        }
        return inplace(slf, &others, |s| {
            ops::clamp_tensor_as(s, lo.as_ref(), hi.as_ref(), op)
        });
    }
    let (lo, hi, kind) = match clamp_bounds(&slf.get().t, op, min, max) {
        Ok(b) => b,
        Err(e) => {
            // a complex number passes PyTorch's argument parser (a Scalar): autograd's checks
            // of the write come before clamp's refusal
            if e.is_instance_of::<pyo3::exceptions::PyNotImplementedError>(slf.py())
                || e.is_instance_of::<pyo3::exceptions::PyRuntimeError>(slf.py())
            {
                ops::check_inplace_autograd(&slf.get().t, &[]).py()?;
            }
            return Err(e);
        }
    };
    let clamped = |s: &Tensor| -> crate::Result<Tensor> {
        let r = ops::clamp_scalar_as(s, lo, hi, kind, op)?;
        // clamp's own check names the output's C++ type ("long int"), not its ScalarType
        if r.dtype() != s.dtype() && !ops::can_cast(r.dtype(), s.dtype()) {
            return Err(crate::Error::Runtime(format!(
                "result type {} can't be cast to the desired output type {}",
                r.dtype().scalar_type_name(),
                s.dtype().cpp_name()
            )));
        }
        Ok(r)
    };
    // PyTorch's clamp checks the types (complex, the result's cast) after autograd's checks of
    // the write and before its memory checks: the same clamp of no elements raises them
    {
        let t = &slf.get().t;
        if let Err(e) = clamped(&Tensor::zeros_on(&[0], t.dtype(), t.device()).py()?) {
            ops::check_inplace_autograd(t, &[]).py()?;
            return Err(e).py();
        }
    }
    inplace(slf, &[], clamped)
}

/// clamp's bounds as tensors when the call takes PyTorch's tensor overload (ClampBackward0):
/// both given bounds are tensors, or one is and the other is absent. As PyTorch's argument
/// parser, a 0-d tensor that does not require grad also passes as a number, so beside a
/// number it takes the number overload (None here); any other mix is its TypeError.
fn tensor_bounds<'py>(
    min: &Option<Bound<'py, PyAny>>,
    max: &Option<Bound<'py, PyAny>>,
) -> PyResult<Option<(Option<Tensor>, Option<Tensor>)>> {
    let given = |b: &Option<Bound<'py, PyAny>>| b.as_ref().filter(|b| !b.is_none()).cloned();
    let (lo, hi) = (given(min), given(max));
    let tensor = |b: &Option<Bound<'py, PyAny>>| {
        b.as_ref()
            .and_then(|b| b.cast::<PyTensor>().ok().map(|t| t.get().t.clone()))
    };
    let (tlo, thi) = (tensor(&lo), tensor(&hi));
    if tlo.is_none() && thi.is_none() {
        return Ok(None);
    }
    if (tlo.is_some() || lo.is_none()) && (thi.is_some() || hi.is_none()) {
        return Ok(Some((tlo, thi)));
    }
    let as_number = |t: &Option<Tensor>| {
        t.as_ref()
            .is_none_or(|t| t.ndim() == 0 && !t.requires_grad())
    };
    if as_number(&tlo) && as_number(&thi) {
        return Ok(None);
    }
    let name = |b: &Option<Bound<'py, PyAny>>| match b {
        None => "NoneType".to_string(),
        Some(b) => b
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default(),
    };
    let (a, b) = (name(&lo), name(&hi));
    Err(PyTypeError::new_err(format!(
        "clamp() received an invalid combination of arguments - got ({a}, {b}), but expected one of:\n * (Tensor min = None, Tensor max = None)\n      didn't match because some of the arguments have invalid types: (!{a}!, !{b}!)\n * (Number min = None, Number max = None)\n      didn't match because some of the arguments have invalid types: (!{a}!, !{b}!)\n"
    )))
}

/// clamp's Python-number bounds, and the widest kind of number among them (which promotes
/// integer or bool tensors, as PyTorch's type promotion with a scalar does).
fn clamp_bounds(
    x: &Tensor,
    op: ops::ClampOp,
    min: Option<Bound<'_, PyAny>>,
    max: Option<Bound<'_, PyAny>>,
) -> PyResult<(Option<f64>, Option<f64>, ops::BoundKind)> {
    let mut kind = ops::BoundKind::Bool;
    let mut get = |b: Option<Bound<'_, PyAny>>| -> PyResult<Option<f64>> {
        match b.filter(|b| !b.is_none()) {
            None => Ok(None),
            Some(b) => {
                if let Ok(c) = b.cast::<pyo3::types::PyComplex>() {
                    // a complex Scalar: a real one when its imaginary part is 0; otherwise
                    // clamp's refusal, or for a floating tensor's clamp the conversion of the
                    // bound to double
                    if c.imag() == 0.0 {
                        kind = ops::BoundKind::Float;
                        return Ok(Some(c.real()));
                    }
                    let dt = x.dtype();
                    if op == ops::ClampOp::Clamp && dt.is_differentiable() && !dt.is_complex() {
                        return Err(pyo3::exceptions::PyRuntimeError::new_err(
                            "value cannot be converted to type double without overflow",
                        ));
                    }
                    return Err(pyo3::exceptions::PyNotImplementedError::new_err(
                        "clamp is not supported for complex types",
                    ));
                }
                // a 0-d tensor passed as a number counts by its dtype
                let tensor_dt = b.cast::<PyTensor>().ok().map(|t| t.get().t.dtype());
                if b.is_instance_of::<pyo3::types::PyFloat>()
                    || tensor_dt.is_some_and(|d| d.is_differentiable())
                {
                    kind = ops::BoundKind::Float;
                } else if !b.is_instance_of::<pyo3::types::PyBool>() && kind == ops::BoundKind::Bool
                {
                    kind = ops::BoundKind::Int;
                }
                Ok(Some(b.extract::<f64>()?))
            }
        }
    };
    let lo = get(min)?;
    let hi = get(max)?;
    Ok((lo, hi, kind))
}
