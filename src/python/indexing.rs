//! Indexing: `t[...]` reads (basic indexing as views, advanced indexing as gathers) and
//! `t[...] = v` writes (views and copies, or scatters through index plans).
use super::convert::operand;
use super::tensor::PyTensor;
use super::IntoPyResult;
use crate::dtype::DType;
use crate::grad_mode::GradModeGuard;
use crate::ops;
use crate::tensor::Tensor;
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::{PyEllipsis, PyList, PySlice, PyTuple};

enum Idx {
    Int(i64),
    Slice(Option<i64>, Option<i64>, i64),
    NewAxis,
    Ellipsis,
    /// A long index tensor (one dim) or a bool mask (as many dims as it has).
    Tensor(Tensor),
}

fn opt_int(o: Bound<'_, PyAny>) -> PyResult<Option<i64>> {
    if o.is_none() {
        Ok(None)
    } else {
        Ok(Some(o.extract::<i64>()?))
    }
}

fn parse_one(o: &Bound<'_, PyAny>) -> PyResult<Idx> {
    if o.is_none() {
        return Ok(Idx::NewAxis);
    }
    if o.is_instance_of::<PyEllipsis>() {
        return Ok(Idx::Ellipsis);
    }
    if let Ok(s) = o.cast::<PySlice>() {
        let step = opt_int(s.getattr("step")?)?.unwrap_or(1);
        return Ok(Idx::Slice(
            opt_int(s.getattr("start")?)?,
            opt_int(s.getattr("stop")?)?,
            step,
        ));
    }
    if let Ok(t) = o.cast::<PyTensor>() {
        let t = &t.get().t;
        if t.ndim() == 0 && matches!(t.dtype(), DType::Int64 | DType::Int32 | DType::UInt8) {
            return Ok(Idx::Int(t.item().py()?.re as i64));
        }
        if t.dtype().is_differentiable() {
            return Err(PyIndexError::new_err(
                "tensors used as indices must be long, int, byte or bool tensors",
            ));
        }
        return Ok(Idx::Tensor(t.clone()));
    }
    if o.is_instance_of::<pyo3::types::PyBool>() {
        return Err(PyIndexError::new_err(
            "indexing with a Python bool is not supported",
        ));
    }
    if o.is_instance_of::<PyList>() || o.is_instance_of::<PyTuple>() {
        let t = super::factory::from_data(o, None)?;
        if t.dtype().is_differentiable() {
            return Err(PyIndexError::new_err(
                "tensors used as indices must be long, int, byte or bool tensors",
            ));
        }
        return Ok(Idx::Tensor(t));
    }
    match o.extract::<i64>() {
        Ok(i) => Ok(Idx::Int(i)),
        Err(_) => Err(PyIndexError::new_err(
            "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got ".to_string()
                + &o.get_type().name()?.to_string()
                + ")",
        )),
    }
}

/// An index expression split into its basic part (applied as views) and its advanced part
/// (index tensors at dims of the basic result).
struct Indexed {
    view: Tensor,
    advanced: Vec<(usize, Tensor)>,
}

fn parse_index(index: &Bound<'_, PyAny>) -> PyResult<Vec<Idx>> {
    // A list of ints is one advanced index, not a tuple of indices.
    if let Ok(tup) = index.cast::<PyTuple>() {
        tup.iter().map(|o| parse_one(&o)).collect()
    } else {
        Ok(vec![parse_one(index)?])
    }
}

/// Applies the basic part of an index. With `skip_full_slices` (assignment, as PyTorch's
/// `set_item`), a slice that covers its whole dim (start None/0, step 1, stop None or past the
/// end) is not applied, so `x[:] = v` writes into `x` itself (CopyBackwards, FillBackward2/3).
fn apply_basic(
    t: &Tensor,
    items: Vec<Idx>,
    skip_full_slices: bool,
) -> PyResult<crate::Result<Indexed>> {
    let dims_of = |i: &Idx| match i {
        Idx::Int(_) | Idx::Slice(..) => 1,
        Idx::Tensor(t) if t.dtype() == DType::Bool => t.ndim(),
        Idx::Tensor(_) => 1,
        _ => 0,
    };
    let consumed: usize = items.iter().map(dims_of).sum();
    let nd = t.ndim();
    if consumed > nd {
        return Err(PyIndexError::new_err(format!(
            "too many indices for tensor of dimension {}",
            nd
        )));
    }
    if items.iter().filter(|i| matches!(i, Idx::Ellipsis)).count() > 1 {
        return Err(PyIndexError::new_err(
            "an index can only have a single ellipsis ('...')",
        ));
    }
    Ok((|| {
        let mut cur = t.clone();
        let mut dim: i64 = 0;
        let mut advanced = Vec::new();
        for it in items {
            match it {
                Idx::Int(i) => cur = ops::select(&cur, dim, i)?,
                Idx::Slice(s, e, step) => {
                    let len = cur.shape().get(dim as usize).copied().unwrap_or(0) as i64;
                    let full =
                        matches!(s, None | Some(0)) && step == 1 && e.is_none_or(|e| e >= len);
                    if !(skip_full_slices && full) {
                        cur = ops::slice(&cur, dim, s, e, step)?;
                    }
                    dim += 1;
                }
                Idx::NewAxis => {
                    cur = ops::unsqueeze(&cur, dim)?;
                    dim += 1;
                }
                Idx::Ellipsis => dim += (nd - consumed) as i64,
                Idx::Tensor(ix) if ix.dtype() == DType::Bool && ix.ndim() == 0 => {
                    // x[True] adds a dim of size 1, x[False] one of size 0 (numpy's rule).
                    cur = ops::unsqueeze(&cur, dim)?;
                    let keep: Vec<i64> = if ix.item()?.re != 0.0 {
                        vec![0]
                    } else {
                        vec![]
                    };
                    let n = keep.len();
                    advanced.push((dim as usize, Tensor::from_vec(keep, &[n])?));
                    dim += 1;
                }
                Idx::Tensor(ix) if ix.dtype() == DType::Bool => {
                    let k = ix.ndim();
                    let shape = cur.shape();
                    let want = &shape[dim as usize..dim as usize + k];
                    if ix.ndim() > 0 && ix.shape().as_slice() != want {
                        return Err(crate::Error::Index(format!(
                            "The shape of the mask {} at index {} does not match the shape of the indexed tensor {} at index {}",
                            crate::shape::fmt_shape(&ix.shape()), 0, crate::shape::fmt_shape(&shape), dim
                        )));
                    }
                    for (j, col) in ops::nonzero_split(&ix)?.into_iter().enumerate() {
                        advanced.push((dim as usize + j, col));
                    }
                    dim += k as i64;
                }
                Idx::Tensor(ix) => {
                    advanced.push((dim as usize, ix));
                    dim += 1;
                }
            }
        }
        Ok(Indexed {
            view: cur,
            advanced,
        })
    })())
}

/// `x[index]`: views for ints/slices/None/`...`, a gather (IndexBackward0) for tensor indices.
pub(super) fn index_tensor(
    t: &Tensor,
    index: &Bound<'_, PyAny>,
) -> PyResult<crate::Result<Tensor>> {
    let items = parse_index(index)?;
    let only_ellipsis = items.len() == 1 && matches!(items[0], Idx::Ellipsis);
    // PyTorch skips full slices inside a tuple (`x[:, 0]` is one SelectBackward0, `x[(:,)]` an
    // AliasBackward0) but always slices for a lone slice object (`x[:]` is SliceBackward0).
    let in_tuple = index.cast::<PyTuple>().is_ok();
    let parsed = apply_basic(t, items, in_tuple)?;
    Ok((|| {
        let ix = parsed?;
        if !ix.advanced.is_empty() {
            let dims: Vec<usize> = ix.advanced.iter().map(|(d, _)| *d).collect();
            let idxs: Vec<Tensor> = ix.advanced.into_iter().map(|(_, t)| t).collect();
            let (plan, shape) = ops::advanced_plan(&ix.view.shape(), &dims, &idxs)?;
            return ops::take(&ix.view, &plan, &shape, "IndexBackward0");
        }
        if only_ellipsis || ix.view.ptr_eq(t) {
            return ops::alias(t);
        }
        Ok(ix.view)
    })())
}

/// `x[index] = value`: basic indices write through a view (CopySlices on the base), tensor
/// indices scatter (IndexPutBackward0).
pub(super) fn set_index(
    t: &Tensor,
    index: &Bound<'_, PyAny>,
    value: &Bound<'_, PyAny>,
) -> PyResult<()> {
    let items = parse_index(index)?;
    let int_index = items
        .iter()
        .any(|i| matches!(i, Idx::Tensor(ix) if ix.dtype() != DType::Bool));
    let ix = {
        let _g = GradModeGuard::new(false);
        apply_basic(t, items, true)?.py()?
    };
    let number = value.is_instance_of::<pyo3::types::PyFloat>()
        || value.is_instance_of::<pyo3::types::PyInt>()
        || value.is_instance_of::<pyo3::types::PyComplex>();
    if number {
        // a number the tensor's dtype cannot hold is refused, as PyTorch's fill does
        if value.is_instance_of::<pyo3::types::PyInt>() && value.extract::<i64>().is_err() {
            return Err(pyo3::exceptions::PyValueError::new_err(
                "Overflow when unpacking long long",
            ));
        }
        let v = super::convert::number(value)?;
        if int_index && v.im != 0.0 && !t.dtype().is_complex() {
            return Err(pyo3::exceptions::PyRuntimeError::new_err(
                "index_fill_(): Converting complex Scalar to non-complex type is not supported",
            ));
        }
        crate::dtype::check_fill_value(v, t.dtype()).py()?;
    }
    let v = match operand(value) {
        Some(v) => v,
        None => super::factory::from_data(value, Some(t.dtype()))?,
    };
    // A host scalar may be written into device memory (as in PyTorch).
    let v = if v.device() != t.device() && v.ndim() == 0 {
        ops::to_copy(&v, v.dtype(), t.device()).py()?
    } else {
        v
    };
    if ix.advanced.is_empty() {
        if ix.view.ptr_eq(t) {
            // Every index was a full slice or `...`: write into `t` itself.
            if number {
                let value = v.item().py()?;
                return ops::fill_(t, value, "FillBackward2").py();
            }
            return copy_to(t, &v).py();
        }
        let region = if ix.view.is_view() {
            ix.view
        } else {
            ops::alias(&ix.view).py()?
        };
        return copy_to(&region, &v).py();
    }
    if value.cast::<PyTensor>().is_ok() && v.dtype() != t.dtype() {
        return Err(pyo3::exceptions::PyRuntimeError::new_err(format!(
            "Index put requires the source and destination dtypes match, got {} for the destination and {} for the source.",
            t.dtype().scalar_type_name(),
            v.dtype().scalar_type_name()
        )));
    }
    let dims: Vec<usize> = ix.advanced.iter().map(|(d, _)| *d).collect();
    let idxs: Vec<Tensor> = ix.advanced.into_iter().map(|(_, t)| t).collect();
    let (plan, shape) = ops::advanced_plan(&ix.view.shape(), &dims, &idxs).py()?;
    let target = if ix.view.ptr_eq(t) {
        t.clone()
    } else {
        ix.view
    };
    ops::apply_inplace(&target, &[&v], |s| {
        let vv = ops::expand(&v, &shape)?;
        let flat = ops::reshape(&crate::backend::contiguous(&vv)?, &[-1])?;
        let vflat = if v.requires_grad() {
            ops::reshape(&vv, &[-1])?
        } else {
            flat
        };
        ops::put(s, &plan, &vflat)
    })
    .py()
}

/// PyTorch's `copy_to` for assignment: equal shapes copy (CopyBackwards), a 0-d value fills
/// (FillBackward3), anything else drops its leading 1s and expands to the destination (with
/// `expand`'s errors) before copying.
fn copy_to(dst: &Tensor, v: &Tensor) -> crate::Result<()> {
    let dshape = dst.shape();
    let vshape = v.shape();
    if dshape == vshape {
        return ops::apply_inplace(dst, &[v], |s| ops::copy_value(s, v));
    }
    if v.ndim() == 0 {
        return ops::apply_inplace(dst, &[v], |s| ops::filled_tensor(s, v));
    }
    let lead = vshape.iter().take_while(|&&d| d == 1).count();
    let sizes: Vec<i64> = vshape[lead..].iter().map(|&d| d as i64).collect();
    let stripped = if lead > 0 {
        ops::reshape(v, &sizes)?
    } else {
        v.clone()
    };
    let expanded = ops::expand(&stripped, &dshape)?;
    ops::apply_inplace(dst, &[&expanded], |s| ops::copy_value(s, &expanded))
}
