//! Views that take any layout (`as_strided`, `diagonal`) and the in-place view ops
//! (`transpose_`, `t_`, `squeeze_`, `unsqueeze_`, `as_strided_`), which change a tensor's shape
//! and strides without touching its memory.
use super::ops::{out, R};
use super::tensor::PyTensor;
use super::IntoPyResult;
use crate::ops;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

fn done<'py>(slf: &Bound<'py, PyTensor>, r: crate::Result<()>) -> PyResult<Bound<'py, PyTensor>> {
    r.py()?;
    Ok(slf.clone())
}

#[pymethods]
impl PyTensor {
    /// A view of this tensor's memory with the given sizes, strides and storage offset (by
    /// default the tensor's own).
    ///
    /// >>> torch.arange(9.).as_strided((2, 2), (3, 1), 1)
    /// tensor([[1., 2.],
    ///         [4., 5.]])
    #[pyo3(signature = (size, stride, storage_offset = None))]
    fn as_strided<'py>(
        &self,
        py: Python<'py>,
        size: Vec<i64>,
        stride: Vec<i64>,
        storage_offset: Option<i64>,
    ) -> R<'py> {
        out(
            py,
            ops::as_strided_view(&self.t, &size, &stride, storage_offset),
        )
    }
    /// `as_strided` in place: this tensor takes that layout.
    #[pyo3(signature = (size, stride, storage_offset = None))]
    fn as_strided_<'py>(
        slf: &Bound<'py, Self>,
        size: Vec<i64>,
        stride: Vec<i64>,
        storage_offset: Option<i64>,
    ) -> PyResult<Bound<'py, Self>> {
        let r = ops::as_strided_(&slf.get().t, &size, &stride, storage_offset);
        done(slf, r)
    }
    /// The diagonal `offset` of the plane (`dim1`, `dim2`) as a view, as the last dim.
    ///
    /// >>> torch.arange(12.).view(3, 4).diagonal(1)
    /// tensor([ 1.,  6., 11.])
    #[pyo3(signature = (offset = 0, dim1 = 0, dim2 = 1))]
    fn diagonal<'py>(&self, py: Python<'py>, offset: i64, dim1: i64, dim2: i64) -> R<'py> {
        out(py, ops::diagonal(&self.t, offset, dim1, dim2))
    }
    /// `transpose` in place: this tensor takes the transposed layout (TransposeBackward1).
    ///
    /// >>> x = torch.tensor([[1., 2., 3.]])
    /// >>> x.transpose_(0, 1).shape
    /// torch.Size([3, 1])
    fn transpose_<'py>(slf: &Bound<'py, Self>, dim0: i64, dim1: i64) -> PyResult<Bound<'py, Self>> {
        let r = ops::transpose_(&slf.get().t, dim0, dim1);
        done(slf, r)
    }
    /// `transpose_` under numpy's name.
    fn swapaxes_<'py>(
        slf: &Bound<'py, Self>,
        axis0: i64,
        axis1: i64,
    ) -> PyResult<Bound<'py, Self>> {
        let r = ops::transpose_(&slf.get().t, axis0, axis1);
        done(slf, r)
    }
    /// `transpose_` under another name.
    fn swapdims_<'py>(slf: &Bound<'py, Self>, dim0: i64, dim1: i64) -> PyResult<Bound<'py, Self>> {
        let r = ops::transpose_(&slf.get().t, dim0, dim1);
        done(slf, r)
    }
    /// `transpose` under another name.
    fn swapdims<'py>(&self, py: Python<'py>, dim0: i64, dim1: i64) -> R<'py> {
        out(py, ops::transpose(&self.t, dim0, dim1))
    }
    /// `t()` in place (TBackward1).
    fn t_<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, Self>> {
        let r = ops::t_(&slf.get().t);
        done(slf, r)
    }
    /// `squeeze` in place: all size-1 dims, one, or a tuple of them.
    #[pyo3(signature = (dim = None))]
    fn squeeze_<'py>(
        slf: &Bound<'py, Self>,
        dim: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, Self>> {
        let t = &slf.get().t;
        let r = match dim {
            None => ops::reshape_view_(t, "SqueezeBackward3", ops::squeeze),
            Some(d) if d.is_instance_of::<PyTuple>() || d.is_instance_of::<PyList>() => {
                let dims: Vec<i64> = d.extract()?;
                ops::squeeze_dims(&t.detached(), &dims).py()?;
                ops::reshape_view_(t, "SqueezeBackward5", |x| ops::squeeze_dims(x, &dims))
            }
            Some(d) => {
                let dim: i64 = d.extract()?;
                ops::squeeze_dim(&t.detached(), dim).py()?;
                ops::reshape_view_(t, "SqueezeBackward4", |x| ops::squeeze_dim(x, dim))
            }
        };
        done(slf, r)
    }
    /// `unsqueeze` in place (UnsqueezeBackward1).
    fn unsqueeze_<'py>(slf: &Bound<'py, Self>, dim: i64) -> PyResult<Bound<'py, Self>> {
        let t = &slf.get().t;
        ops::unsqueeze(&t.detached(), dim).py()?;
        let r = ops::reshape_view_(t, "UnsqueezeBackward1", |x| ops::unsqueeze(x, dim));
        done(slf, r)
    }
    /// A copy with its dims laid out in memory in `order` (outermost first): the
    /// channels-last formats of `contiguous(memory_format=...)`.
    fn _clone_in_order<'py>(&self, py: Python<'py>, order: Vec<usize>) -> R<'py> {
        out(py, ops::clone_in_order(&self.t, &order))
    }
    /// `set_(source)` for a tensor source (the Python method also takes a storage).
    fn _set_(&self, source: PyRef<'_, PyTensor>) -> PyResult<()> {
        ops::set_(&self.t, &source.t).py()
    }
    /// `resize_` to a shape already parsed.
    fn _resize_(&self, shape: Vec<usize>) -> PyResult<()> {
        ops::resize_(&self.t, &shape).py()
    }
}
