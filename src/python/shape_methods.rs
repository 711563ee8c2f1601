//! The shape methods of a tensor (`view`, `reshape`, `permute`, `t`/`T`/`mT`, `squeeze`,
//! `unsqueeze`, `expand`, `flatten`, `narrow`, ...): each a delegation to `crate::ops`'s views.
use super::convert::extract_dtype;
use super::ops::{ints, out, R};
use super::tensor::{wrap, PyTensor};
use super::IntoPyResult;
use crate::ops;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

#[pymethods]
impl PyTensor {
    fn t<'py>(&self, py: Python<'py>) -> R<'py> {
        out(py, ops::t(&self.t))
    }
    #[getter(T)]
    fn get_t_prop<'py>(&self, py: Python<'py>) -> R<'py> {
        let nd = self.t.ndim() as i64;
        let dims: Vec<i64> = (0..nd).rev().collect();
        out(py, ops::permute(&self.t, &dims))
    }
    #[getter(mT)]
    fn get_mt<'py>(&self, py: Python<'py>) -> R<'py> {
        out(py, ops::transpose(&self.t, -2, -1))
    }
    fn transpose<'py>(&self, py: Python<'py>, dim0: i64, dim1: i64) -> R<'py> {
        out(py, ops::transpose(&self.t, dim0, dim1))
    }
    fn swapaxes<'py>(&self, py: Python<'py>, axis0: i64, axis1: i64) -> R<'py> {
        out(py, ops::transpose(&self.t, axis0, axis1))
    }
    #[pyo3(signature = (*dims_, dims = None))]
    fn permute<'py>(
        &self,
        py: Python<'py>,
        dims_: &Bound<'py, PyTuple>,
        dims: Option<&Bound<'py, PyAny>>,
    ) -> R<'py> {
        let dims = &sizes_or_keyword(py, dims_, dims, "permute", "dims")?;
        if dims.is_empty() {
            return Err(PyTypeError::new_err(
                "permute() missing 1 required positional arguments: \"dims\"",
            ));
        }
        out(py, ops::permute(&self.t, &ints(dims, "permute")?))
    }
    #[pyo3(signature = (*shape, dtype=None, size=None))]
    fn view<'py>(
        &self,
        py: Python<'py>,
        shape: &Bound<'py, PyTuple>,
        dtype: Option<&Bound<'py, PyAny>>,
        size: Option<&Bound<'py, PyAny>>,
    ) -> R<'py> {
        let shape = &sizes_or_keyword(py, shape, size, "view", "size")?;
        if let Some(d) = dtype {
            if !shape.is_empty() {
                // PyTorch's argument parser names each positional argument's type
                let got: Vec<String> = shape
                    .iter()
                    .map(|a| {
                        if extract_dtype(&a).is_ok() {
                            "torch.dtype".to_string()
                        } else {
                            a.get_type()
                                .name()
                                .map(|n| n.to_string())
                                .unwrap_or_default()
                        }
                    })
                    .collect();
                return Err(PyTypeError::new_err(format!(
                    "view() received an invalid combination of arguments - got ({}, dtype=torch.dtype), but expected one of:\n * (torch.dtype dtype)\n * (tuple of ints size)\n",
                    got.join(", ")
                )));
            }
            return out(py, ops::view_dtype(&self.t, extract_dtype(d)?));
        }
        if shape.len() == 1 {
            if let Ok(d) = extract_dtype(&shape.get_item(0)?) {
                return out(py, ops::view_dtype(&self.t, d));
            }
        }
        out(py, ops::view(&self.t, &ints(shape, "view")?))
    }
    #[pyo3(signature = (*shape_, shape = None))]
    fn reshape<'py>(
        &self,
        py: Python<'py>,
        shape_: &Bound<'py, PyTuple>,
        shape: Option<&Bound<'py, PyAny>>,
    ) -> R<'py> {
        let shape = &sizes_or_keyword(py, shape_, shape, "reshape", "shape")?;
        out(py, ops::reshape(&self.t, &ints(shape, "reshape")?))
    }
    fn view_as<'py>(&self, py: Python<'py>, other: PyRef<'py, PyTensor>) -> R<'py> {
        let s: Vec<i64> = other.t.shape().iter().map(|&d| d as i64).collect();
        out(py, ops::view(&self.t, &s))
    }
    fn reshape_as<'py>(&self, py: Python<'py>, other: PyRef<'py, PyTensor>) -> R<'py> {
        let s: Vec<i64> = other.t.shape().iter().map(|&d| d as i64).collect();
        out(py, ops::reshape(&self.t, &s))
    }
    #[pyo3(signature = (start_dim = 0, end_dim = -1))]
    fn flatten<'py>(&self, py: Python<'py>, start_dim: i64, end_dim: i64) -> R<'py> {
        let shape = self.t.shape();
        if shape.is_empty() {
            // A 0-d tensor takes dims in [-1, 0], as if it had one dim.
            crate::shape::wrap_dim(start_dim, 0).py()?;
            crate::shape::wrap_dim(end_dim, 0).py()?;
            return out(py, ops::reshape(&self.t, &[1]));
        }
        let s = crate::shape::wrap_dim(start_dim, shape.len()).py()?;
        let e = crate::shape::wrap_dim(end_dim, shape.len()).py()?;
        if s > e {
            return Err(pyo3::exceptions::PyRuntimeError::new_err(
                "flatten() has invalid args: start_dim cannot come after end_dim",
            ));
        }
        if s == e {
            return wrap(py, self.t.clone());
        }
        let mut new: Vec<i64> = shape[..s].iter().map(|&d| d as i64).collect();
        new.push(shape[s..=e].iter().product::<usize>() as i64);
        new.extend(shape[e + 1..].iter().map(|&d| d as i64));
        out(py, ops::reshape(&self.t, &new))
    }
    #[pyo3(signature = (dim = None, *, axis = None))]
    fn unsqueeze<'py>(&self, py: Python<'py>, dim: Option<i64>, axis: Option<i64>) -> R<'py> {
        let Some(dim) = super::ops::dim_or_axis("unsqueeze", dim, axis)? else {
            return Err(PyTypeError::new_err(
                "unsqueeze() missing 1 required positional arguments: \"dim\"",
            ));
        };
        out(py, ops::unsqueeze(&self.t, dim))
    }
    /// Drop dims of size 1: all of them, one, or a tuple of them (one SqueezeBackward2, as
    /// PyTorch 2.0+).
    #[pyo3(signature = (dim = None, *, axis = None))]
    fn squeeze<'py>(
        &self,
        py: Python<'py>,
        dim: Option<&Bound<'py, PyAny>>,
        axis: Option<&Bound<'py, PyAny>>,
    ) -> R<'py> {
        match super::ops::dim_or_axis("squeeze", dim, axis)? {
            None => out(py, ops::squeeze(&self.t)),
            Some(d)
                if d.is_instance_of::<PyTuple>() || d.is_instance_of::<pyo3::types::PyList>() =>
            {
                out(py, ops::squeeze_dims(&self.t, &d.extract::<Vec<i64>>()?))
            }
            Some(d) => out(py, ops::squeeze_dim(&self.t, d.extract()?)),
        }
    }
    #[pyo3(signature = (*sizes, size = None))]
    fn expand<'py>(
        &self,
        py: Python<'py>,
        sizes: &Bound<'py, PyTuple>,
        size: Option<&Bound<'py, PyAny>>,
    ) -> R<'py> {
        let sizes = &sizes_or_keyword(py, sizes, size, "expand", "size")?;
        out(py, ops::expand_i64(&self.t, &ints(sizes, "expand")?))
    }
    fn expand_as<'py>(&self, py: Python<'py>, other: PyRef<'py, PyTensor>) -> R<'py> {
        out(py, ops::expand(&self.t, &other.t.shape()))
    }
    fn select<'py>(&self, py: Python<'py>, dim: i64, index: i64) -> R<'py> {
        ops::edges_first(&[&self.t]).py()?;
        if self.t.ndim() > 0 {
            let d = crate::shape::wrap_dim(dim, self.t.ndim()).py()?;
            let shape = self.t.shape();
            let size = shape[d] as i64;
            if index < -size || index >= size {
                return Err(pyo3::exceptions::PyIndexError::new_err(format!(
                    "select(): index {index} out of range for tensor of size {} at dimension {d}",
                    crate::shape::fmt_shape(&shape)
                )));
            }
        }
        out(py, ops::select(&self.t, dim, index))
    }
    fn narrow<'py>(&self, py: Python<'py>, dim: i64, start: i64, length: i64) -> R<'py> {
        if self.t.ndim() == 0 {
            return Err(pyo3::exceptions::PyRuntimeError::new_err(
                "narrow() cannot be applied to a 0-dim tensor.",
            ));
        }
        let d = crate::shape::wrap_dim(dim, self.t.ndim()).py()?;
        let size = self.t.shape().get(d).copied().unwrap_or(0) as i64;
        if length < 0 {
            return Err(pyo3::exceptions::PyRuntimeError::new_err(
                "narrow(): length must be non-negative.",
            ));
        }
        let start = if start < 0 { start + size } else { start };
        if start < 0 || start > size || length > size - start {
            return Err(pyo3::exceptions::PyRuntimeError::new_err(format!(
                "start ({}) + length ({}) exceeds dimension size ({}).",
                start, length, size
            )));
        }
        out(
            py,
            ops::slice(&self.t, dim, Some(start), Some(start + length), 1),
        )
    }
}

/// Sizes given as separate arguments, or as one keyword (`x.view(size=(3, 2))`,
/// `x.permute(dims=(1, 0))`), as PyTorch's parser takes them.
pub(super) fn sizes_or_keyword<'py>(
    py: Python<'py>,
    positional: &Bound<'py, PyTuple>,
    keyword: Option<&Bound<'py, PyAny>>,
    fname: &str,
    kwname: &str,
) -> PyResult<Bound<'py, PyTuple>> {
    match keyword {
        None => Ok(positional.clone()),
        Some(k) if positional.is_empty() => PyTuple::new(py, [k]),
        Some(_) => Err(PyTypeError::new_err(format!(
            "{fname}() got multiple values for argument '{kwname}'"
        ))),
    }
}
