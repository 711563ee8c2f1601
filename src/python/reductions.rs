//! Tensor methods that reduce along dims: max/min with indices, amax/amin, prod, var/std,
//! logsumexp, norm, all/any, and the running sum.
use super::convert::{dims_arg, tuple_of};
use super::ops::{out, R};
use super::tensor::PyTensor;
use super::IntoPyResult;
use crate::ops;
use crate::tensor::Tensor;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

#[pymethods]
impl PyTensor {
    /// `(values, indices)` of max/min along `dim` (the Python layer wraps it as a named tuple).
    fn _max_dim<'py>(
        &self,
        py: Python<'py>,
        dim: i64,
        keepdim: bool,
        is_max: bool,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let (v, i) = ops::max_dim(&self.t, dim, keepdim, is_max).py()?;
        tuple_of(py, vec![v, i])
    }
    /// `(values, indices)` of sort along `dim` (`stable` None: the overload without it).
    fn _sort<'py>(
        &self,
        py: Python<'py>,
        dim: i64,
        descending: bool,
        stable: Option<bool>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let (v, i) = ops::sort(&self.t, dim, descending, stable).py()?;
        tuple_of(py, vec![v, i])
    }
    fn _topk<'py>(
        &self,
        py: Python<'py>,
        k: i64,
        dim: i64,
        largest: bool,
        sorted: bool,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let (v, i) = ops::topk(&self.t, k, dim, largest, sorted).py()?;
        tuple_of(py, vec![v, i])
    }
    fn _kthvalue<'py>(
        &self,
        py: Python<'py>,
        k: i64,
        dim: i64,
        keepdim: bool,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let (v, i) = ops::kthvalue(&self.t, k, dim, keepdim).py()?;
        tuple_of(py, vec![v, i])
    }
    fn _median_dim<'py>(
        &self,
        py: Python<'py>,
        dim: i64,
        keepdim: bool,
        ignore_nan: bool,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let (v, i) = ops::median_dim(&self.t, dim, keepdim, ignore_nan).py()?;
        tuple_of(py, vec![v, i])
    }
    /// `torch.searchsorted(self, values, ...)`; `values` a tensor or a number.
    fn _searchsorted<'py>(
        &self,
        py: Python<'py>,
        values: &Bound<'py, PyAny>,
        right: bool,
        out_int32: bool,
        sorter: Option<PyRef<'py, PyTensor>>,
    ) -> R<'py> {
        let v = super::convert::operand_or_type_error(values, "searchsorted", "input")?;
        out(
            py,
            ops::searchsorted(&self.t, &v, right, out_int32, sorter.as_ref().map(|s| &s.t)),
        )
    }
    fn _median_all<'py>(&self, py: Python<'py>, ignore_nan: bool) -> R<'py> {
        out(py, ops::median(&self.t, ignore_nan))
    }
    #[pyo3(signature = (dim = None, keepdim = false, *, keepdims = None))]
    fn amax<'py>(
        &self,
        py: Python<'py>,
        dim: Option<&Bound<'py, PyAny>>,
        keepdim: bool,
        keepdims: Option<bool>,
    ) -> R<'py> {
        let keepdim = keepdims.unwrap_or(keepdim);
        let d = dims_arg(dim)?;
        let d = d.filter(|v| !v.is_empty());
        out(py, ops::amax(&self.t, d.as_deref(), keepdim, true))
    }
    #[pyo3(signature = (dim = None, keepdim = false, *, keepdims = None))]
    fn amin<'py>(
        &self,
        py: Python<'py>,
        dim: Option<&Bound<'py, PyAny>>,
        keepdim: bool,
        keepdims: Option<bool>,
    ) -> R<'py> {
        let keepdim = keepdims.unwrap_or(keepdim);
        let d = dims_arg(dim)?;
        let d = d.filter(|v| !v.is_empty());
        out(py, ops::amax(&self.t, d.as_deref(), keepdim, false))
    }
    #[pyo3(signature = (dim = None, keepdim = false, *, dtype = None, keepdims = None))]
    fn prod<'py>(
        &self,
        py: Python<'py>,
        dim: Option<i64>,
        keepdim: bool,
        dtype: Option<&Bound<'py, PyAny>>,
        keepdims: Option<bool>,
    ) -> R<'py> {
        let keepdim = keepdims.unwrap_or(keepdim);
        let src = match dtype {
            Some(d) if !d.is_none() => {
                ops::to_dtype(&self.t, super::convert::extract_dtype(d)?).py()?
            }
            _ => self.t.clone(),
        };
        out(py, ops::prod(&src, dim, keepdim))
    }
    fn _var<'py>(
        &self,
        py: Python<'py>,
        dim: Option<&Bound<'py, PyAny>>,
        correction: f64,
        keepdim: bool,
        is_std: bool,
    ) -> R<'py> {
        let d = dims_arg(dim)?;
        out(
            py,
            ops::var(&self.t, d.as_deref(), correction, keepdim, is_std),
        )
    }
    fn _var_mean<'py>(
        &self,
        py: Python<'py>,
        dim: Option<&Bound<'py, PyAny>>,
        correction: f64,
        keepdim: bool,
        is_std: bool,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let d = dims_arg(dim)?;
        let (v, m) = ops::var_mean(&self.t, d.as_deref(), correction, keepdim, is_std).py()?;
        Ok((out(py, Ok(v))?, out(py, Ok(m))?))
    }
    #[pyo3(signature = (dim, keepdim = false, *, keepdims = None))]
    fn logsumexp<'py>(
        &self,
        py: Python<'py>,
        dim: &Bound<'py, PyAny>,
        keepdim: bool,
        keepdims: Option<bool>,
    ) -> R<'py> {
        let keepdim = keepdims.unwrap_or(keepdim);
        let d = dims_arg(Some(dim))?.unwrap_or_default();
        out(py, ops::logsumexp(&self.t, &d, keepdim))
    }
    fn _norm<'py>(
        &self,
        py: Python<'py>,
        p: f64,
        dim: Option<&Bound<'py, PyAny>>,
        keepdim: bool,
    ) -> R<'py> {
        let d = dims_arg(dim)?;
        out(py, ops::norm(&self.t, p, d.as_deref(), keepdim))
    }
    /// True where every (any) element is non-zero, over everything or along `dim`.
    #[pyo3(signature = (dim = None, keepdim = false, *, keepdims = None))]
    fn all<'py>(
        &self,
        py: Python<'py>,
        dim: Option<i64>,
        keepdim: bool,
        keepdims: Option<bool>,
    ) -> R<'py> {
        let keepdim = keepdims.unwrap_or(keepdim);
        let nz = ops::compare(ops::CmpOp::Ne, &self.t, &Tensor::wrapped_scalar(false)).py()?;
        let zeros = ops::compare(ops::CmpOp::Eq, &nz, &Tensor::wrapped_scalar(false)).py()?;
        let cnt = ops::sum(
            &crate::backend::cast(&zeros, crate::DType::Int64).py()?,
            dim.map(|d| vec![d]).as_deref(),
            keepdim,
        )
        .py()?;
        out(
            py,
            ops::compare(ops::CmpOp::Eq, &cnt, &Tensor::wrapped_scalar(0i64)),
        )
    }
    #[pyo3(signature = (dim = None, keepdim = false, *, keepdims = None))]
    fn any<'py>(
        &self,
        py: Python<'py>,
        dim: Option<i64>,
        keepdim: bool,
        keepdims: Option<bool>,
    ) -> R<'py> {
        let keepdim = keepdims.unwrap_or(keepdim);
        let nz = ops::compare(ops::CmpOp::Ne, &self.t, &Tensor::wrapped_scalar(false)).py()?;
        let cnt = ops::sum(
            &crate::backend::cast(&nz, crate::DType::Int64).py()?,
            dim.map(|d| vec![d]).as_deref(),
            keepdim,
        )
        .py()?;
        out(
            py,
            ops::compare(ops::CmpOp::Ne, &cnt, &Tensor::wrapped_scalar(0i64)),
        )
    }
    #[pyo3(signature = (dim, *, dtype = None))]
    fn cumsum<'py>(&self, py: Python<'py>, dim: i64, dtype: Option<&Bound<'py, PyAny>>) -> R<'py> {
        let src = match dtype {
            Some(d) if !d.is_none() => {
                ops::to_dtype(&self.t, super::convert::extract_dtype(d)?).py()?
            }
            _ => self.t.clone(),
        };
        out(py, ops::cumsum(&src, dim, false))
    }
    #[pyo3(signature = (dim, *, dtype = None))]
    fn cumprod<'py>(&self, py: Python<'py>, dim: i64, dtype: Option<&Bound<'py, PyAny>>) -> R<'py> {
        let src = match dtype {
            Some(d) if !d.is_none() => {
                ops::to_dtype(&self.t, super::convert::extract_dtype(d)?).py()?
            }
            _ => self.t.clone(),
        };
        out(py, ops::cumprod(&src, dim))
    }
}
