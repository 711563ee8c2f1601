//! Indexing: `t[...]` reads (basic indexing as views, advanced indexing as gathers) and
//! `t[...] = v` writes (views and copies, or scatters through index plans), for a Rust user of
//! the crate as for the bindings, which only turn Python objects into [`Index`] items.
use super::*;
use crate::dtype::DType;
use crate::grad_mode::GradModeGuard;

/// One item of an index (`x[0, 1:3, None, ..., idx]`).
#[derive(Clone, Debug)]
pub enum Index {
    /// `x[i]`: selects (the dim goes away).
    Int(i64),
    /// `x[start:end:step]`.
    Slice(Option<i64>, Option<i64>, i64),
    /// `x[None]`: a new dim of size 1.
    NewAxis,
    /// `x[...]`: as many full slices as the other items leave.
    Ellipsis,
    /// A long index tensor (one dim) or a bool mask (as many dims as it has).
    Tensor(Tensor),
}

/// The basic part of an index applied (a view of `t`) and the advanced indices left, each
/// with the dim it applies to.
struct Indexed {
    view: Tensor,
    advanced: Vec<(usize, Tensor)>,
}

/// Applies the basic part of an index. With `skip_full_slices` (assignment, as PyTorch's
/// `set_item`), a slice that covers its whole dim (start None/0, step 1, stop None or past the
/// end) is not applied, so `x[:] = v` writes into `x` itself (CopyBackwards, FillBackward2/3).
fn apply_basic(t: &Tensor, items: Vec<Index>, skip_full_slices: bool) -> Result<Indexed> {
    let dims_of = |i: &Index| match i {
        Index::Int(_) | Index::Slice(..) => 1,
        Index::Tensor(t) if t.dtype() == DType::Bool => t.ndim(),
        Index::Tensor(_) => 1,
        _ => 0,
    };
    let consumed: usize = items.iter().map(dims_of).sum();
    let nd = t.ndim();
    if nd == 0 && items.iter().any(|i| matches!(i, Index::Int(_))) {
        return Err(Error::Index("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ to convert a 0-dim tensor to a number".into()));
    }
    if consumed > nd {
        return Err(Error::Index(format!(
            "too many indices for tensor of dimension {}",
            nd
        )));
    }
    if items
        .iter()
        .filter(|i| matches!(i, Index::Ellipsis))
        .count()
        > 1
    {
        return Err(Error::Index(
            "an index can only have a single ellipsis ('...')".into(),
        ));
    }
    let mut cur = t.clone();
    let mut dim: i64 = 0;
    let mut advanced = Vec::new();
    for it in items {
        match it {
            Index::Int(i) => cur = select(&cur, dim, i)?,
            Index::Slice(s, e, step) => {
                let len = cur.shape().get(dim as usize).copied().unwrap_or(0) as i64;
                let full = matches!(s, None | Some(0)) && step == 1 && e.is_none_or(|e| e >= len);
                if !(skip_full_slices && full) {
                    cur = slice(&cur, dim, s, e, step)?;
                }
                dim += 1;
            }
            Index::NewAxis => {
                cur = unsqueeze(&cur, dim)?;
                dim += 1;
            }
            Index::Ellipsis => dim += (nd - consumed) as i64,
            Index::Tensor(ix) if ix.dtype() == DType::Bool && ix.ndim() == 0 => {
                // x[True] adds a dim of size 1, x[False] one of size 0 (numpy's rule).
                cur = unsqueeze(&cur, dim)?;
                let keep: Vec<i64> = if ix.item()?.re != 0.0 {
                    vec![0]
                } else {
                    vec![]
                };
                let n = keep.len();
                advanced.push((dim as usize, Tensor::from_vec(keep, &[n])?));
                dim += 1;
            }
            Index::Tensor(ix) if ix.dtype() == DType::Bool => {
                let k = ix.ndim();
                let shape = cur.shape();
                let want = &shape[dim as usize..dim as usize + k];
                if ix.ndim() > 0 && ix.shape().as_slice() != want {
                    return Err(Error::Index(format!(
                        "The shape of the mask {} at index {} does not match the shape of the indexed tensor {} at index {}",
                        crate::shape::fmt_shape(&ix.shape()), 0, crate::shape::fmt_shape(&shape), dim
                    )));
                }
                for (j, col) in nonzero_split(&ix)?.into_iter().enumerate() {
                    advanced.push((dim as usize + j, col));
                }
                dim += k as i64;
            }
            Index::Tensor(ix) => {
                advanced.push((dim as usize, ix));
                dim += 1;
            }
        }
    }
    Ok(Indexed {
        view: cur,
        advanced,
    })
}

/// `t[items]`: views for ints/slices/None/`...`, a gather (IndexBackward0) for tensor
/// indices. `in_tuple`: the items came as a tuple (PyTorch skips full slices inside a tuple,
/// so `x[:, 0]` is one SelectBackward0, but slices for a lone slice: `x[:]` is
/// SliceBackward0).
pub fn index(t: &Tensor, items: Vec<Index>, in_tuple: bool) -> Result<Tensor> {
    let only_ellipsis = items.len() == 1 && matches!(items[0], Index::Ellipsis);
    let ix = apply_basic(t, items, in_tuple)?;
    if !ix.advanced.is_empty() {
        let dims: Vec<usize> = ix.advanced.iter().map(|(d, _)| *d).collect();
        let idxs: Vec<Tensor> = ix.advanced.into_iter().map(|(_, t)| t).collect();
        let (plan, shape) = advanced_plan(&ix.view.shape(), &dims, &idxs)?;
        return take(&ix.view, &plan, &shape, "IndexBackward0");
    }
    if only_ellipsis || ix.view.ptr_eq(t) {
        return alias(t);
    }
    Ok(ix.view)
}

/// The value of `t[...] = value`, by where it came from (which decides PyTorch's rules).
#[derive(Clone, Debug)]
pub enum PutValue {
    /// A Python number: a full-slice write is a fill (FillBackward2).
    Number(Tensor),
    /// A tensor: a scatter requires its dtype to be the destination's.
    Tensor(Tensor),
    /// Other data (a list, an array) already converted to a tensor.
    Data(Tensor),
}

/// `t[items] = value`: basic indices write through a view (CopySlices on the base), tensor
/// indices scatter (IndexPutBackward0). Returns whether a scatter wrote into a window whose
/// elements share memory (an expanded tensor), which PyTorch writes with a deprecation warning
/// (the caller's to give: its text names the op PyTorch's indexing chose).
pub fn index_put(t: &Tensor, items: Vec<Index>, value: PutValue) -> Result<bool> {
    let (v, v_is_number, exact_dtype) = match &value {
        PutValue::Number(v) => (v, true, false),
        PutValue::Tensor(v) => (v, false, true),
        PutValue::Data(v) => (v, false, false),
    };
    let window_items = items.clone();
    let ix = {
        let _g = GradModeGuard::new(false);
        apply_basic(t, items, true)?
    };
    // PyTorch makes the window with a view op in the caller's grad mode (a full slice is no
    // op): on a view that may not take its base's new history, that op raises first (it asks
    // for the view's grad_fn)
    let makes_view = {
        let (a, b) = (t.data(), ix.view.data());
        (&a.shape, &a.strides, a.offset) != (&b.shape, &b.strides, b.offset)
    };
    if makes_view && crate::grad_mode::recording() && t.is_view() && t.requires_grad() {
        super::inplace::refresh_view(t)?;
    }
    // the window written is a view made in the caller's grad mode (PyTorch: t[i].copy_(v));
    // full slices make no view, and `t` itself keeps how it was made. When autograd records,
    // it is made with recorded view ops: the write's checks name its node ("Output 0 of
    // Select"), and a scatter into it keeps the window's other elements, whose gradient must
    // flow through the window (`t[1][idx] = v` on a SelectBackward0 view).
    let recorded = !ix.view.ptr_eq(t)
        && crate::grad_mode::recording()
        && (t.requires_grad() || v.requires_grad());
    let ix = if recorded {
        Indexed {
            view: apply_basic(t, window_items, true)?.view,
            advanced: ix.advanced,
        }
    } else {
        if !ix.view.ptr_eq(t) {
            mark_views(t, &[&ix.view], crate::tensor::CreationMeta::Default);
        }
        ix
    };
    // A host scalar may be written into device memory (as in PyTorch).
    let v = if v.device() != t.device() && v.ndim() == 0 {
        to_copy(v, v.dtype(), t.device())?
    } else {
        v.clone()
    };
    if ix.advanced.is_empty() {
        if ix.view.ptr_eq(t) {
            // Every index was a full slice or `...`: write into `t` itself.
            if v_is_number {
                return fill_(t, v.item()?, "FillBackward2").map(|_| false);
            }
            return copy_to(t, &v, false).map(|_| false);
        }
        let region = if ix.view.is_view() {
            ix.view
        } else {
            alias(&ix.view)?
        };
        // a number fills (PyTorch's fill_ writes an expanded window; a 0-d tensor's copy does not)
        return copy_to(&region, &v, v_is_number).map(|_| false);
    }
    if exact_dtype && v.dtype() != t.dtype() {
        return Err(Error::Runtime(format!(
            "Index put requires the source and destination dtypes match, got {} for the destination and {} for the source.",
            t.dtype().scalar_type_name(),
            v.dtype().scalar_type_name()
        )));
    }
    let dims: Vec<usize> = ix.advanced.iter().map(|(d, _)| *d).collect();
    let idxs: Vec<Tensor> = ix.advanced.into_iter().map(|(_, t)| t).collect();
    let (plan, shape) = advanced_plan(&ix.view.shape(), &dims, &idxs)?;
    let target = if ix.view.ptr_eq(t) {
        t.clone()
    } else {
        ix.view
    };
    let overlapping = super::inplace_checks::has_internal_overlap(&target);
    super::inplace::apply_inplace_with(
        &target,
        &[&v],
        super::inplace_checks::Overlap::Allow,
        |s| {
            let vv = expand(&v, &shape)?;
            let flat = reshape(&crate::backend::contiguous(&vv)?, &[-1])?;
            let vflat = if v.requires_grad() {
                reshape(&vv, &[-1])?
            } else {
                flat
            };
            put(s, &plan, &vflat)
        },
    )?;
    Ok(overlapping)
}

/// PyTorch's `copy_to` for assignment: equal shapes copy (CopyBackwards), a 0-d value fills
/// (FillBackward3; into an expanded `dst` only when it was a Python number), anything else
/// drops its leading 1s and expands to the destination (with `expand`'s errors) before copying.
fn copy_to(dst: &Tensor, v: &Tensor, number: bool) -> Result<()> {
    let dshape = dst.shape();
    let vshape = v.shape();
    if dshape == vshape {
        return copy_same_shape(dst, v);
    }
    if v.ndim() == 0 {
        let overlap = if number {
            super::inplace_checks::Overlap::Allow
        } else {
            super::inplace_checks::Overlap::Refuse
        };
        return super::inplace::apply_inplace_with(dst, &[v], overlap, |s| filled_tensor(s, v));
    }
    let lead = vshape.iter().take_while(|&&d| d == 1).count();
    let sizes: Vec<i64> = vshape[lead..].iter().map(|&d| d as i64).collect();
    let stripped = if lead > 0 {
        reshape(v, &sizes)?
    } else {
        v.clone()
    };
    let expanded = expand(&stripped, &dshape)?;
    copy_same_shape(dst, &expanded)
}

/// `dst.copy_(v)` of equal shapes, recorded (CopyBackwards); a copy of the same elements of
/// the same memory skips the memory checks, as PyTorch's copy_ returns before them.
fn copy_same_shape(dst: &Tensor, v: &Tensor) -> Result<()> {
    if !dst.dtype().is_differentiable() {
        // nothing is recorded into an integer or bool tensor (copy_'s own rule)
        return super::inplace::copy_(dst, v);
    }
    let overlap = if super::inplace_checks::same_data(dst, v) {
        super::inplace_checks::Overlap::Unchecked
    } else {
        super::inplace_checks::Overlap::Refuse
    };
    // (through apply_inplace always: a window of a tensor with a forward-AD tangent writes
    // the tangent's window too)
    super::inplace::apply_inplace_with(dst, &[v], overlap, |s| copy_value(s, v))
}
