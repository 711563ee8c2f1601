//! Tensor methods for the breadth ops: reductions along dims, softmax, joining/splitting,
//! gather/index_select/masked_fill/where, and the module functions that nn.functional wraps.
use super::convert::{dims_arg, number, operand, shape_args};
use super::tensor::{wrap, PyTensor};
use super::IntoPyResult;
use crate::dtype::DType;
use crate::ops;
use crate::tensor::Tensor;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

type R<'py> = PyResult<Bound<'py, PyAny>>;

fn out<'py>(py: Python<'py>, r: crate::Result<Tensor>) -> R<'py> {
    wrap(py, r.py()?)
}

fn tuple_of<'py>(py: Python<'py>, ts: Vec<Tensor>) -> PyResult<Bound<'py, PyTuple>> {
    let items = ts
        .into_iter()
        .map(|t| wrap(py, t))
        .collect::<PyResult<Vec<_>>>()?;
    PyTuple::new(py, items)
}

fn tensors_of(seq: &Bound<'_, PyAny>, fname: &str) -> PyResult<Vec<Tensor>> {
    if seq.cast::<PyTensor>().is_ok() {
        return Err(PyTypeError::new_err(format!(
            "{}(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor",
            fname
        )));
    }
    seq.try_iter()?
        .map(|o| {
            let o = o?;
            o.cast::<PyTensor>()
                .map(|t| t.get().t.clone())
                .map_err(|_| {
                    PyTypeError::new_err(format!(
                        "expected Tensor as element 0 in argument 0, but got {}",
                        o.get_type()
                            .name()
                            .map(|n| n.to_string())
                            .unwrap_or_default()
                    ))
                })
        })
        .collect()
}

fn index_arg(o: &Bound<'_, PyAny>) -> PyResult<Tensor> {
    match o.cast::<PyTensor>() {
        Ok(t) => Ok(t.get().t.clone()),
        Err(_) => Err(PyTypeError::new_err(format!(
            "index must be a Tensor, not {}",
            o.get_type().name()?
        ))),
    }
}

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
    #[pyo3(signature = (dim = None, keepdim = false))]
    fn amax<'py>(&self, py: Python<'py>, dim: Option<&Bound<'py, PyAny>>, keepdim: bool) -> R<'py> {
        let d = dims_arg(dim)?;
        let d = d.filter(|v| !v.is_empty());
        out(py, ops::amax(&self.t, d.as_deref(), keepdim, true))
    }
    #[pyo3(signature = (dim = None, keepdim = false))]
    fn amin<'py>(&self, py: Python<'py>, dim: Option<&Bound<'py, PyAny>>, keepdim: bool) -> R<'py> {
        let d = dims_arg(dim)?;
        let d = d.filter(|v| !v.is_empty());
        out(py, ops::amax(&self.t, d.as_deref(), keepdim, false))
    }
    #[pyo3(signature = (dim = None, keepdim = false, *, dtype = None))]
    fn prod<'py>(
        &self,
        py: Python<'py>,
        dim: Option<i64>,
        keepdim: bool,
        dtype: Option<&Bound<'py, PyAny>>,
    ) -> R<'py> {
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
    #[pyo3(signature = (dim, keepdim = false))]
    fn logsumexp<'py>(&self, py: Python<'py>, dim: &Bound<'py, PyAny>, keepdim: bool) -> R<'py> {
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
    #[pyo3(signature = (dim, dtype = None))]
    fn softmax<'py>(
        &self,
        py: Python<'py>,
        dim: &Bound<'py, PyAny>,
        dtype: Option<&Bound<'py, PyAny>>,
    ) -> R<'py> {
        let dim = int_arg(dim, "softmax", "dim", 1)?;
        let src = match dtype {
            Some(d) if !d.is_none() => {
                ops::to_dtype(&self.t, super::convert::extract_dtype(d)?).py()?
            }
            _ => self.t.clone(),
        };
        out(py, ops::softmax(&src, dim))
    }
    #[pyo3(signature = (dim, dtype = None))]
    fn log_softmax<'py>(
        &self,
        py: Python<'py>,
        dim: &Bound<'py, PyAny>,
        dtype: Option<&Bound<'py, PyAny>>,
    ) -> R<'py> {
        let dim = int_arg(dim, "log_softmax", "dim", 1)?;
        let src = match dtype {
            Some(d) if !d.is_none() => {
                ops::to_dtype(&self.t, super::convert::extract_dtype(d)?).py()?
            }
            _ => self.t.clone(),
        };
        out(py, ops::log_softmax(&src, dim))
    }
    #[pyo3(signature = (split_size_or_sections, dim = 0))]
    fn split<'py>(
        &self,
        py: Python<'py>,
        split_size_or_sections: &Bound<'py, PyAny>,
        dim: i64,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let r = if split_size_or_sections.is_instance_of::<PyList>()
            || split_size_or_sections.is_instance_of::<PyTuple>()
        {
            let sizes: Vec<usize> = split_size_or_sections.extract()?;
            ops::split_sizes(&self.t, &sizes, dim, "SplitWithSizesBackward0")
        } else {
            let n: i64 = split_size_or_sections.extract()?;
            if n < 0 {
                return Err(PyValueError::new_err(format!(
                    "split expects split_size be non-negative, but got split_size={}",
                    n
                )));
            }
            ops::split(&self.t, n as usize, dim)
        };
        tuple_of(py, r.py()?)
    }
    #[pyo3(signature = (chunks, dim = 0))]
    fn chunk<'py>(&self, py: Python<'py>, chunks: i64, dim: i64) -> PyResult<Bound<'py, PyTuple>> {
        if chunks <= 0 {
            return Err(pyo3::exceptions::PyRuntimeError::new_err(format!(
                "chunk expects `chunks` to be greater than 0, got: {}",
                chunks
            )));
        }
        tuple_of(py, ops::chunk(&self.t, chunks as usize, dim).py()?)
    }
    #[pyo3(signature = (dim = 0))]
    fn unbind<'py>(&self, py: Python<'py>, dim: i64) -> PyResult<Bound<'py, PyTuple>> {
        tuple_of(py, ops::unbind(&self.t, dim).py()?)
    }
    #[pyo3(signature = (*sizes))]
    fn repeat<'py>(&self, py: Python<'py>, sizes: &Bound<'py, PyTuple>) -> R<'py> {
        let s = shape_args(sizes, "repeat")?;
        if s.iter().any(|&d| d < 0) {
            return Err(pyo3::exceptions::PyRuntimeError::new_err(format!(
                "Trying to create tensor with negative dimension {}: {:?}",
                s.iter().find(|&&d| d < 0).copied().unwrap_or(-1),
                s
            )));
        }
        let s: Vec<usize> = s.iter().map(|&d| d as usize).collect();
        out(py, ops::repeat(&self.t, &s))
    }
    fn gather<'py>(&self, py: Python<'py>, dim: i64, index: &Bound<'py, PyAny>) -> R<'py> {
        out(py, ops::gather(&self.t, dim, &index_arg(index)?))
    }
    fn index_select<'py>(&self, py: Python<'py>, dim: i64, index: &Bound<'py, PyAny>) -> R<'py> {
        out(py, ops::index_select(&self.t, dim, &index_arg(index)?))
    }
    fn masked_fill<'py>(
        &self,
        py: Python<'py>,
        mask: PyRef<'py, PyTensor>,
        value: &Bound<'py, PyAny>,
    ) -> R<'py> {
        let v = operand(value).ok_or_else(|| {
            PyTypeError::new_err("masked_fill(): value must be a number or a 0-d tensor")
        })?;
        zero_dim_value(&v)?;
        out(py, ops::masked_fill(&self.t, &mask.t, &v))
    }
    fn masked_fill_<'py>(
        slf: &Bound<'py, Self>,
        mask: PyRef<'py, PyTensor>,
        value: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, Self>> {
        let v = operand(value).ok_or_else(|| {
            PyTypeError::new_err("masked_fill_(): value must be a number or a 0-d tensor")
        })?;
        zero_dim_value(&v)?;
        let m = mask.t.clone();
        ops::apply_inplace(&slf.get().t, &[&v], |s| ops::masked_fill(s, &m, &v)).py()?;
        Ok(slf.clone())
    }
    #[pyo3(name = "where")]
    fn where_m<'py>(
        &self,
        py: Python<'py>,
        condition: PyRef<'py, PyTensor>,
        other: &Bound<'py, PyAny>,
    ) -> R<'py> {
        let o = operand(other).ok_or_else(|| {
            PyTypeError::new_err("where(): argument 'other' must be Tensor or a number")
        })?;
        out(py, ops::where_(&condition.t, &self.t, &o))
    }
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
    /// True where every (any) element is non-zero, over everything or along `dim`.
    #[pyo3(signature = (dim = None, keepdim = false))]
    fn all<'py>(&self, py: Python<'py>, dim: Option<i64>, keepdim: bool) -> R<'py> {
        let nz = ops::compare(ops::CmpOp::Ne, &self.t, &Tensor::wrapped_scalar(false)).py()?;
        let zeros = ops::compare(ops::CmpOp::Eq, &nz, &Tensor::wrapped_scalar(false)).py()?;
        let cnt = ops::sum(
            &crate::kernels::cast(&zeros, crate::DType::Int64).py()?,
            dim.map(|d| vec![d]).as_deref(),
            keepdim,
        )
        .py()?;
        out(
            py,
            ops::compare(ops::CmpOp::Eq, &cnt, &Tensor::wrapped_scalar(0i64)),
        )
    }
    #[pyo3(signature = (dim = None, keepdim = false))]
    fn any<'py>(&self, py: Python<'py>, dim: Option<i64>, keepdim: bool) -> R<'py> {
        let nz = ops::compare(ops::CmpOp::Ne, &self.t, &Tensor::wrapped_scalar(false)).py()?;
        let cnt = ops::sum(
            &crate::kernels::cast(&nz, crate::DType::Int64).py()?,
            dim.map(|d| vec![d]).as_deref(),
            keepdim,
        )
        .py()?;
        out(
            py,
            ops::compare(ops::CmpOp::Ne, &cnt, &Tensor::wrapped_scalar(0i64)),
        )
    }
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
    fn _view_as_real<'py>(&self, py: Python<'py>) -> R<'py> {
        out(py, ops::view_as_real(&self.t))
    }
}

/// `a & b`, `a | b`, `a ^ b` with a tensor or a number on the right (NotImplemented otherwise).
fn bitwise<'py>(py: Python<'py>, a: &Tensor, other: &Bound<'py, PyAny>, op: ops::BitOp) -> R<'py> {
    match operand(other) {
        Some(o) => out(py, ops::bitwise(op, a, &o)),
        None => Ok(py.NotImplemented().into_bound(py)),
    }
}

/// masked_fill's value: a number or a 0-d tensor (PyTorch's check and text).
fn zero_dim_value(v: &Tensor) -> PyResult<()> {
    let nd = v.ndim();
    if nd != 0 {
        return Err(pyo3::exceptions::PyRuntimeError::new_err(format!(
            "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with {nd} dimension(s)."
        )));
    }
    Ok(())
}

/// An int argument of PyTorch's parser: a bool is refused.
fn int_arg(v: &Bound<'_, PyAny>, fname: &str, arg: &str, pos: usize) -> PyResult<i64> {
    if v.is_instance_of::<pyo3::types::PyBool>() || !v.is_instance_of::<pyo3::types::PyInt>() {
        return Err(PyTypeError::new_err(format!(
            "{fname}(): argument '{arg}' (position {pos}) must be int, not {}",
            v.get_type().name()?
        )));
    }
    v.extract()
}

fn tensor_or_number(o: &Bound<'_, PyAny>) -> PyResult<Tensor> {
    operand(o).ok_or_else(|| {
        PyTypeError::new_err(format!(
            "expected a Tensor or a number, got {}",
            o.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })
}

/// Joins tensors of the same shape (except in `dim`) along an existing dimension
/// (`torch.concat` and `torch.concatenate` are the same function).
///
/// >>> x = torch.tensor([[1, 2], [3, 4]])
/// >>> torch.cat([x, x])
/// tensor([[1, 2],
///         [3, 4],
///         [1, 2],
///         [3, 4]])
/// >>> torch.cat((x, x), dim=1)
/// tensor([[1, 2, 1, 2],
///         [3, 4, 3, 4]])
#[pyfunction]
#[pyo3(signature = (tensors, dim = 0))]
fn cat<'py>(py: Python<'py>, tensors: &Bound<'py, PyAny>, dim: i64) -> R<'py> {
    out(py, ops::cat(&tensors_of(tensors, "cat")?, dim))
}

/// Joins tensors of the same shape along a new dimension `dim`.
///
/// >>> a, b = torch.tensor([1, 2]), torch.tensor([3, 4])
/// >>> torch.stack([a, b])
/// tensor([[1, 2],
///         [3, 4]])
/// >>> torch.stack([a, b], dim=1)
/// tensor([[1, 3],
///         [2, 4]])
#[pyfunction]
#[pyo3(signature = (tensors, dim = 0))]
fn stack<'py>(py: Python<'py>, tensors: &Bound<'py, PyAny>, dim: i64) -> R<'py> {
    out(py, ops::stack(&tensors_of(tensors, "stack")?, dim))
}

/// `input` where `condition` is True, `other` elsewhere (broadcast together); either may be a
/// number.
///
/// >>> x = torch.tensor([1., -2., 3.])
/// >>> torch.where(x > 0, x, torch.zeros(3))
/// tensor([1., 0., 3.])
/// >>> torch.where(x > 0, x, 0.)
/// tensor([1., 0., 3.])
///
/// With the condition alone it is `nonzero(condition, as_tuple=True)`:
///
/// >>> torch.where(torch.tensor([[0, 1], [1, 0]]))
/// (tensor([0, 1]), tensor([1, 0]))
#[pyfunction]
#[pyo3(name = "where", signature = (condition, input = None, other = None))]
fn where_f<'py>(
    py: Python<'py>,
    condition: PyRef<'py, PyTensor>,
    input: Option<&Bound<'py, PyAny>>,
    other: Option<&Bound<'py, PyAny>>,
) -> R<'py> {
    match (input, other) {
        (Some(i), Some(o)) => out(
            py,
            ops::where_(&condition.t, &tensor_or_number(i)?, &tensor_or_number(o)?),
        ),
        (None, None) => Ok(tuple_of(py, nonzero_cols(&condition.t).py()?)?.into_any()),
        _ => Err(PyTypeError::new_err(
            "where() takes a condition alone, or a condition, input and other",
        )),
    }
}

/// The indices of the non-zero elements, one index tensor per dim (a 0-d input counts as 1-d).
fn nonzero_cols(t: &Tensor) -> crate::Result<Vec<Tensor>> {
    let _g = crate::grad_mode::GradModeGuard::new(false);
    let t = if t.ndim() == 0 {
        ops::reshape(t, &[1])?
    } else {
        t.clone()
    };
    let mask = if t.dtype() == DType::Bool {
        t
    } else {
        ops::compare(ops::CmpOp::Ne, &t, &Tensor::wrapped_scalar(0.0f64))?
    };
    ops::nonzero_split(&mask)
}

/// The indices of the non-zero elements: an `(n, ndim)` int64 tensor, or a tuple of `ndim`
/// index tensors with `as_tuple=True`.
///
/// >>> torch.nonzero(torch.tensor([[0, 1], [1, 0]]))
/// tensor([[0, 1],
///         [1, 0]])
#[pyfunction]
#[pyo3(signature = (input, *, as_tuple = false))]
pub(super) fn nonzero<'py>(py: Python<'py>, input: PyRef<'py, PyTensor>, as_tuple: bool) -> R<'py> {
    let cols = nonzero_cols(&input.t).py()?;
    if as_tuple {
        return Ok(tuple_of(py, cols)?.into_any());
    }
    let n = cols.first().map(|c| c.numel()).unwrap_or(0) as i64;
    if input.t.ndim() == 0 {
        return out(py, Tensor::zeros(&[n as usize, 0], DType::Int64));
    }
    out(py, ops::stack(&cols, 1))
}

#[pyfunction]
#[pyo3(signature = (input, target, weight, ignore_index, reduction))]
fn _nll_loss<'py>(
    py: Python<'py>,
    input: PyRef<'py, PyTensor>,
    target: PyRef<'py, PyTensor>,
    weight: Option<PyRef<'py, PyTensor>>,
    ignore_index: i64,
    reduction: &str,
) -> R<'py> {
    let r = ops::Reduction::parse(reduction).py()?;
    out(
        py,
        ops::nll_loss(
            &input.t,
            &target.t,
            weight.as_ref().map(|w| &w.t),
            ignore_index,
            r,
        ),
    )
}

fn pair(o: &Bound<'_, PyAny>, name: &str) -> PyResult<(usize, usize)> {
    let v: Vec<i64> = if let Ok(i) = o.extract::<i64>() {
        vec![i, i]
    } else {
        o.extract()?
    };
    let v = if v.len() == 1 { vec![v[0], v[0]] } else { v };
    if v.len() != 2 || v.iter().any(|&x| x < 0) {
        return Err(pyo3::exceptions::PyRuntimeError::new_err(format!(
            "{} must be a non-negative int or a pair of them",
            name
        )));
    }
    Ok((v[0] as usize, v[1] as usize))
}

#[pyfunction]
#[pyo3(signature = (input, weight, bias, stride, padding, dilation, groups))]
#[allow(clippy::too_many_arguments)]
fn _conv2d<'py>(
    py: Python<'py>,
    input: PyRef<'py, PyTensor>,
    weight: PyRef<'py, PyTensor>,
    bias: Option<PyRef<'py, PyTensor>>,
    stride: &Bound<'py, PyAny>,
    padding: &Bound<'py, PyAny>,
    dilation: &Bound<'py, PyAny>,
    groups: i64,
) -> R<'py> {
    let stride = pair(stride, "stride")?;
    if stride.0 == 0 || stride.1 == 0 {
        return Err(pyo3::exceptions::PyRuntimeError::new_err(
            "non-positive stride is not supported",
        ));
    }
    let a = ops::Conv2dArgs {
        stride,
        padding: pair(padding, "padding")?,
        dilation: pair(dilation, "dilation")?,
        groups: groups.max(0) as usize,
    };
    if a.dilation.0 == 0 || a.dilation.1 == 0 {
        return Err(pyo3::exceptions::PyRuntimeError::new_err(
            "dilation should be greater than zero",
        ));
    }
    out(
        py,
        ops::conv2d(&input.t, &weight.t, bias.as_ref().map(|b| &b.t), &a),
    )
}

#[pyfunction]
#[pyo3(signature = (input, kernel_size, stride, padding, dilation, ceil_mode, is_max))]
#[allow(clippy::too_many_arguments)]
fn _pool2d<'py>(
    py: Python<'py>,
    input: PyRef<'py, PyTensor>,
    kernel_size: &Bound<'py, PyAny>,
    stride: &Bound<'py, PyAny>,
    padding: &Bound<'py, PyAny>,
    dilation: &Bound<'py, PyAny>,
    ceil_mode: bool,
    is_max: bool,
) -> R<'py> {
    let kernel = pair(kernel_size, "kernel_size")?;
    let stride = if stride.is_none() {
        kernel
    } else {
        pair(stride, "stride")?
    };
    if kernel.0 == 0 || kernel.1 == 0 || stride.0 == 0 || stride.1 == 0 {
        return Err(pyo3::exceptions::PyRuntimeError::new_err(
            "kernel size and stride should be greater than zero",
        ));
    }
    let a = ops::PoolArgs {
        kernel,
        stride,
        padding: pair(padding, "padding")?,
        dilation: pair(dilation, "dilation")?,
        ceil_mode,
    };
    if is_max {
        out(py, ops::max_pool2d(&input.t, &a))
    } else {
        out(py, ops::avg_pool2d(&input.t, &a))
    }
}

#[pyfunction]
fn _embedding<'py>(
    py: Python<'py>,
    weight: PyRef<'py, PyTensor>,
    indices: PyRef<'py, PyTensor>,
) -> R<'py> {
    out(py, ops::embedding(&weight.t, &indices.t))
}

#[pyfunction]
#[pyo3(signature = (input, normalized_shape, weight, bias, eps))]
fn _layer_norm<'py>(
    py: Python<'py>,
    input: PyRef<'py, PyTensor>,
    normalized_shape: Vec<usize>,
    weight: Option<PyRef<'py, PyTensor>>,
    bias: Option<PyRef<'py, PyTensor>>,
    eps: f64,
) -> R<'py> {
    out(
        py,
        ops::layer_norm(
            &input.t,
            &normalized_shape,
            weight.as_ref().map(|w| &w.t),
            bias.as_ref().map(|b| &b.t),
            eps,
        ),
    )
}

/// `fn(*inputs)` (written with leafgrad ops) recorded as one node named `name`.
#[pyfunction]
fn _composite<'py>(
    py: Python<'py>,
    name: String,
    f: Py<PyAny>,
    inputs: Vec<PyRef<'py, PyTensor>>,
) -> R<'py> {
    let ins: Vec<Tensor> = inputs.iter().map(|t| t.t.clone()).collect();
    let func: ops::CompositeFn = std::sync::Arc::new(move |ts: &[Tensor]| {
        Python::attach(|py| -> PyResult<Tensor> {
            let args = ts
                .iter()
                .map(|t| wrap(py, t.clone()))
                .collect::<PyResult<Vec<_>>>()?;
            let r = f.call1(py, PyTuple::new(py, args)?)?;
            let r = r.bind(py);
            r.cast::<PyTensor>()
                .map(|t| t.get().t.clone())
                .map_err(|_| PyTypeError::new_err("a composite op must return a Tensor"))
        })
        .map_err(super::stash)
    });
    out(py, ops::composite(name, &ins, func))
}

/// `target.op_(...)` for an op written in Python: `f(snapshot of target)` is written into
/// `target` as an in-place op (its node becomes target's grad_fn; views update their base).
#[pyfunction]
fn _inplace_apply<'py>(
    target: &Bound<'py, PyTensor>,
    f: Py<PyAny>,
    others: Vec<PyRef<'py, PyTensor>>,
) -> PyResult<Bound<'py, PyTensor>> {
    let py = target.py();
    let os: Vec<Tensor> = others.iter().map(|t| t.t.clone()).collect();
    let refs: Vec<&Tensor> = os.iter().collect();
    ops::apply_inplace(&target.get().t, &refs, |s| {
        (|| -> PyResult<Tensor> {
            let r = f.call1(py, (wrap(py, s.clone())?,))?;
            let r = r.bind(py);
            r.cast::<PyTensor>()
                .map(|t| t.get().t.clone())
                .map_err(|_| PyTypeError::new_err("an in-place op must compute a Tensor"))
        })()
        .map_err(super::stash)
    })
    .py()?;
    Ok(target.clone())
}

/// `torch.add(a, b, out=out)` and friends: into `out`'s memory when the layouts allow it.
#[pyfunction]
fn _binary_out<'py>(
    op: &str,
    a: PyRef<'py, PyTensor>,
    b: PyRef<'py, PyTensor>,
    out: PyRef<'py, PyTensor>,
) -> PyResult<bool> {
    let (a, b, o) = (&a.t, &b.t, &out.t);
    let dt = o.dtype();
    if a.dtype() != dt
        || b.dtype() != dt
        || a.requires_grad()
        || b.requires_grad()
        || o.requires_grad()
    {
        return Ok(false);
    }
    let done = match (op, dt) {
        ("add", crate::DType::Float32) => crate::kernels::map2_into::<f32>(a, b, o, |x, y| x + y),
        ("add", crate::DType::Float64) => crate::kernels::map2_into::<f64>(a, b, o, |x, y| x + y),
        ("sub", crate::DType::Float32) => crate::kernels::map2_into::<f32>(a, b, o, |x, y| x - y),
        ("sub", crate::DType::Float64) => crate::kernels::map2_into::<f64>(a, b, o, |x, y| x - y),
        ("mul", crate::DType::Float32) => crate::kernels::map2_into::<f32>(a, b, o, |x, y| x * y),
        ("mul", crate::DType::Float64) => crate::kernels::map2_into::<f64>(a, b, o, |x, y| x * y),
        ("div", crate::DType::Float32) => crate::kernels::map2_into::<f32>(a, b, o, |x, y| x / y),
        ("div", crate::DType::Float64) => crate::kernels::map2_into::<f64>(a, b, o, |x, y| x / y),
        _ => false,
    };
    if done {
        o.bump_version();
    }
    Ok(done)
}

#[pyfunction]
fn _randperm<'py>(py: Python<'py>, n: i64, dtype: &Bound<'py, PyAny>) -> R<'py> {
    if n < 0 {
        return Err(pyo3::exceptions::PyRuntimeError::new_err(format!(
            "n must be non-negative, got{}",
            n
        )));
    }
    let mut v: Vec<i64> = crate::kernels::alloc_vec(n as usize)?;
    v.extend(0..n);
    crate::random::with_rng(|r| {
        for i in (1..v.len()).rev() {
            let j = (r.next_u64() % (i as u64 + 1)) as usize;
            v.swap(i, j);
        }
    });
    let t = Tensor::from_vec(v, &[n as usize]).py()?;
    out(
        py,
        crate::kernels::cast(&t, super::convert::extract_dtype(dtype)?),
    )
}

#[pyfunction]
fn _number(o: &Bound<'_, PyAny>) -> PyResult<num_complex::Complex64> {
    number(o)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(cat, m)?)?;
    m.add_function(wrap_pyfunction!(stack, m)?)?;
    m.add_function(wrap_pyfunction!(where_f, m)?)?;
    m.add_function(wrap_pyfunction!(nonzero, m)?)?;
    m.add_function(wrap_pyfunction!(_inplace_apply, m)?)?;
    m.add_function(wrap_pyfunction!(_nll_loss, m)?)?;
    m.add_function(wrap_pyfunction!(_conv2d, m)?)?;
    m.add_function(wrap_pyfunction!(_pool2d, m)?)?;
    m.add_function(wrap_pyfunction!(_embedding, m)?)?;
    m.add_function(wrap_pyfunction!(_layer_norm, m)?)?;
    m.add_function(wrap_pyfunction!(_number, m)?)?;
    m.add_function(wrap_pyfunction!(_randperm, m)?)?;
    m.add_function(wrap_pyfunction!(_binary_out, m)?)?;
    m.add_function(wrap_pyfunction!(_composite, m)?)?;
    Ok(())
}
