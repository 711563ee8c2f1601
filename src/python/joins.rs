//! Splitting and joining (split, chunk, unbind, repeat, cat, stack), gathering and masking
//! (gather, index_select, masked_fill, where, nonzero).
use super::convert::{operand, shape_args, tuple_of};
use super::ops::{out, R};
use super::tensor::PyTensor;
use super::IntoPyResult;
use crate::dtype::DType;
use crate::ops;
use crate::tensor::Tensor;
use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

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
    crate::dtype::shell_kernel_check(input.t.dtype(), "nonzero_count_cpu").py()?;
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

#[pymethods]
impl PyTensor {
    #[pyo3(signature = (split_size, dim = 0))]
    fn split<'py>(
        &self,
        py: Python<'py>,
        split_size: &Bound<'py, PyAny>,
        dim: i64,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let r = if split_size.is_instance_of::<PyList>() || split_size.is_instance_of::<PyTuple>() {
            let sizes: Vec<usize> = split_size.extract()?;
            ops::split_sizes(&self.t, &sizes, dim, "SplitWithSizesBackward0")
        } else {
            let n: i64 = split_size.extract()?;
            ops::split(&self.t, n, dim)
        };
        tuple_of(py, r.py()?)
    }
    /// `split` with a list of sizes.
    ///
    /// >>> torch.arange(6.).split_with_sizes([2, 4])
    /// (tensor([0., 1.]), tensor([2., 3., 4., 5.]))
    #[pyo3(signature = (split_sizes, dim = 0))]
    fn split_with_sizes<'py>(
        &self,
        py: Python<'py>,
        split_sizes: Vec<usize>,
        dim: i64,
    ) -> PyResult<Bound<'py, PyTuple>> {
        tuple_of(
            py,
            ops::split_sizes(&self.t, &split_sizes, dim, "SplitWithSizesBackward0").py()?,
        )
    }
    /// `split` whose pieces share self's memory without being views for autograd (no `_base`,
    /// their own version counters): in-place writes into them are not checked.
    ///
    /// >>> torch.arange(6.).unsafe_split(4)
    /// (tensor([0., 1., 2., 3.]), tensor([4., 5.]))
    #[pyo3(signature = (split_size, dim = 0))]
    fn unsafe_split<'py>(
        &self,
        py: Python<'py>,
        split_size: &Bound<'py, PyAny>,
        dim: i64,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let Ok(n) = split_size.extract::<i64>() else {
            return Err(PyTypeError::new_err(format!(
                "unsafe_split(): argument 'split_size' (position 1) must be int, not {}",
                split_size.get_type().name()?
            )));
        };
        let r = ops::split_size_list(&self.t, n, dim)
            .and_then(|s| ops::unsafe_split_sizes(&self.t, &s, dim, "UnsafeSplitBackward0"));
        tuple_of(py, r.py()?)
    }
    /// `unsafe_split` with a list of sizes.
    #[pyo3(signature = (split_sizes, dim = 0))]
    fn unsafe_split_with_sizes<'py>(
        &self,
        py: Python<'py>,
        split_sizes: Vec<usize>,
        dim: i64,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let r =
            ops::unsafe_split_sizes(&self.t, &split_sizes, dim, "UnsafeSplitWithSizesBackward0");
        tuple_of(py, r.py()?)
    }
    /// `chunk` whose pieces are not views for autograd (see `unsafe_split`).
    #[pyo3(signature = (chunks, dim = 0))]
    fn unsafe_chunk<'py>(
        &self,
        py: Python<'py>,
        chunks: i64,
        dim: i64,
    ) -> PyResult<Bound<'py, PyTuple>> {
        if chunks <= 0 {
            return Err(PyRuntimeError::new_err(format!(
                "chunk expects `chunks` to be greater than 0, got: {chunks}"
            )));
        }
        let total = match self.t.ndim() {
            0 => 0,
            nd => self.t.shape()[crate::shape::wrap_dim(dim, nd).py()?],
        };
        let size = total.div_ceil(chunks as usize).max(1) as i64;
        let r = ops::split_size_list(&self.t, size, dim)
            .and_then(|s| ops::unsafe_split_sizes(&self.t, &s, dim, "UnsafeSplitBackward0"));
        tuple_of(py, r.py()?)
    }
    #[pyo3(signature = (chunks, dim = 0))]
    fn chunk<'py>(&self, py: Python<'py>, chunks: i64, dim: i64) -> PyResult<Bound<'py, PyTuple>> {
        tuple_of(py, ops::chunk(&self.t, chunks, dim).py()?)
    }
    #[pyo3(signature = (dim = 0))]
    fn unbind<'py>(&self, py: Python<'py>, dim: i64) -> PyResult<Bound<'py, PyTuple>> {
        tuple_of(py, ops::unbind(&self.t, dim).py()?)
    }
    #[pyo3(signature = (*sizes, repeats = None))]
    fn repeat<'py>(
        &self,
        py: Python<'py>,
        sizes: &Bound<'py, PyTuple>,
        repeats: Option<&Bound<'py, PyAny>>,
    ) -> R<'py> {
        let sizes =
            &super::shape_methods::sizes_or_keyword(py, sizes, repeats, "repeat", "repeats")?;
        let s = shape_args(sizes, "repeat")?;
        out(py, ops::repeat(&self.t, &s))
    }
    /// `sparse_grad=True` is accepted; the gradient stays dense (leafgrad has no sparse layout).
    #[pyo3(signature = (dim, index, *, sparse_grad = false))]
    fn gather<'py>(
        &self,
        py: Python<'py>,
        dim: i64,
        index: &Bound<'py, PyAny>,
        sparse_grad: bool,
    ) -> R<'py> {
        let _ = sparse_grad;
        out(py, ops::gather(&self.t, dim, &index_arg(index)?))
    }
    fn index_select<'py>(&self, py: Python<'py>, dim: i64, index: &Bound<'py, PyAny>) -> R<'py> {
        out(py, ops::index_select(&self.t, dim, &index_arg(index)?))
    }
    /// `scatter`/`scatter_` of a tensor or a number (`reduce`: the older "add"/"multiply").
    #[pyo3(signature = (dim, index, src, reduce = None, inplace = false))]
    fn _scatter<'py>(
        slf: &Bound<'py, Self>,
        dim: i64,
        index: PyRef<'py, PyTensor>,
        src: &Bound<'py, PyAny>,
        reduce: Option<&str>,
        inplace: bool,
    ) -> R<'py> {
        let is_value = src.cast::<PyTensor>().is_err();
        let v = operand(src).ok_or_else(|| {
            PyTypeError::new_err(format!(
                "scatter(): argument 'src' must be Tensor or a number, not {}",
                src.get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_default()
            ))
        })?;
        let multiply = match reduce {
            None => None,
            Some("add") => Some(false),
            Some("multiply") => Some(true),
            Some(_) => {
                return Err(PyRuntimeError::new_err(
                    "reduce argument must be either add or multiply.",
                ))
            }
        };
        let idx = index.t.clone();
        let f = |s: &Tensor| match multiply {
            Some(m) => ops::scatter_reduce_legacy(s, dim, &idx, &v, is_value, m),
            None if is_value => ops::scatter_value(s, dim, &idx, &v),
            None => ops::scatter(s, dim, &idx, &v),
        };
        scatter_result(slf, inplace, &idx, &v, is_value, f)
    }
    #[pyo3(signature = (dim, index, src, inplace = false))]
    fn _scatter_add<'py>(
        slf: &Bound<'py, Self>,
        dim: i64,
        index: PyRef<'py, PyTensor>,
        src: PyRef<'py, PyTensor>,
        inplace: bool,
    ) -> R<'py> {
        let (idx, v) = (index.t.clone(), src.t.clone());
        scatter_result(slf, inplace, &idx, &v, false, |s| {
            ops::scatter_add(s, dim, &idx, &v)
        })
    }
    #[pyo3(signature = (dim, index, src, reduce, include_self = true, inplace = false))]
    fn _scatter_reduce<'py>(
        slf: &Bound<'py, Self>,
        dim: i64,
        index: PyRef<'py, PyTensor>,
        src: PyRef<'py, PyTensor>,
        reduce: &str,
        include_self: bool,
        inplace: bool,
    ) -> R<'py> {
        let op = ops::ScatterReduce::parse(reduce).py()?;
        let (idx, v) = (index.t.clone(), src.t.clone());
        scatter_result(slf, inplace, &idx, &v, false, |s| {
            ops::scatter_reduce(s, dim, &idx, &v, op, include_self)
        })
    }
    /// `index_add`/`index_copy`/`index_reduce` and their in-place forms (`kind`: "add", "copy",
    /// or a reduction).
    #[pyo3(signature = (kind, dim, index, source, alpha, include_self = true, inplace = false))]
    #[allow(clippy::too_many_arguments)]
    fn _index_op<'py>(
        slf: &Bound<'py, Self>,
        kind: &str,
        dim: i64,
        index: PyRef<'py, PyTensor>,
        source: PyRef<'py, PyTensor>,
        alpha: &Bound<'py, PyAny>,
        include_self: bool,
        inplace: bool,
    ) -> R<'py> {
        let a = operand(alpha)
            .ok_or_else(|| PyTypeError::new_err("index_add(): alpha must be a number"))?;
        let (idx, v) = (index.t.clone(), source.t.clone());
        let op = match kind {
            "add" | "copy" => None,
            k => Some(ops::ScatterReduce::parse(k).map_err(|_| {
                PyRuntimeError::new_err(format!(
                    "index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got {k}."
                ))
            })?),
        };
        let copy = kind == "copy";
        scatter_result(slf, inplace, &idx, &v, false, |s| match op {
            Some(op) => ops::index_reduce(s, dim, &idx, &v, op, include_self),
            None if copy => ops::index_copy(s, dim, &idx, &v),
            None => ops::index_add(s, dim, &idx, &v, &a),
        })
    }
    /// `index_fill`/`index_fill_` with a number or a 0-d tensor.
    #[pyo3(signature = (dim, index, value, inplace = false))]
    fn _index_fill<'py>(
        slf: &Bound<'py, Self>,
        dim: i64,
        index: PyRef<'py, PyTensor>,
        value: &Bound<'py, PyAny>,
        inplace: bool,
    ) -> R<'py> {
        let is_tensor = value.cast::<PyTensor>().is_ok();
        let v = operand(value).ok_or_else(|| {
            PyTypeError::new_err("index_fill(): argument 'value' must be Number or Tensor")
        })?;
        let idx = index.t.clone();
        if inplace && ops::has_internal_overlap(&slf.get().t) {
            // PyTorch warns and writes (its other scatters refuse)
            super::indexing::expanded_write_warning(slf.py(), "index_fill_")?;
            let others = [&idx, &v];
            let others = if is_tensor { &others[..] } else { &others[..1] };
            ops::apply_inplace_with(&slf.get().t, others, ops::Overlap::Allow, |s| {
                ops::index_fill(s, dim, &idx, &v, is_tensor)
            })
            .py()?;
            return Ok(slf.clone().into_any());
        }
        scatter_result(slf, inplace, &idx, &v, !is_tensor, |s| {
            ops::index_fill(s, dim, &idx, &v, is_tensor)
        })
    }
    fn _take<'py>(&self, py: Python<'py>, index: PyRef<'py, PyTensor>) -> R<'py> {
        out(py, ops::take_flat(&self.t, &index.t))
    }
    fn _masked_select<'py>(&self, py: Python<'py>, mask: PyRef<'py, PyTensor>) -> R<'py> {
        out(py, ops::masked_select(&self.t, &mask.t))
    }
    #[pyo3(signature = (mask, source, inplace = false))]
    fn _masked_scatter<'py>(
        slf: &Bound<'py, Self>,
        mask: PyRef<'py, PyTensor>,
        source: PyRef<'py, PyTensor>,
        inplace: bool,
    ) -> R<'py> {
        let (m, v) = (mask.t.clone(), source.t.clone());
        scatter_result(slf, inplace, &m, &v, false, |s| {
            ops::masked_scatter(s, &m, &v)
        })
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
        let m = mask.t.clone();
        // in place, the mask broadcasts to self (PyTorch names self first in the error)
        crate::shape::broadcast_shapes(&slf.get().t.shape(), &m.shape()).py()?;
        let t = &slf.get().t;
        if ops::has_internal_overlap(t) {
            super::indexing::expanded_write_warning(slf.py(), "masked_fill_")?;
        }
        ops::apply_inplace_with(t, &[&v], ops::Overlap::Allow, |s| {
            ops::masked_fill(s, &m, &v)
        })
        .py()?;
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
}

/// The result of a scatter: a new tensor, or `slf` written in place.
/// `f(self)`, or written into self when `inplace`; `index` and `src` (unless a number: `is_value`)
/// are the in-place write's tensor operands (every tensor argument takes part in PyTorch's
/// dispatch: an index tensor alone brings autograd's leaf check before the inference-tensor
/// refusal).
fn scatter_result<'py>(
    slf: &Bound<'py, PyTensor>,
    inplace: bool,
    index: &Tensor,
    src: &Tensor,
    is_value: bool,
    f: impl FnOnce(&Tensor) -> crate::Result<Tensor>,
) -> R<'py> {
    let t = slf.get().t.clone();
    if !inplace {
        return out(slf.py(), f(&t));
    }
    let others: Vec<&Tensor> = if is_value {
        vec![index]
    } else {
        vec![index, src]
    };
    ops::apply_inplace(&t, &others, f).py()?;
    Ok(slf.clone().into_any())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(cat, m)?)?;
    m.add_function(wrap_pyfunction!(stack, m)?)?;
    m.add_function(wrap_pyfunction!(where_f, m)?)?;
    m.add_function(wrap_pyfunction!(nonzero, m)?)?;
    Ok(())
}
