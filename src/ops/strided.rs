//! Views of any layout and the in-place view ops: `as_strided` (a window of the memory with
//! any strides, its gradient a scatter-add over storage positions), `diagonal`, and
//! `transpose_`/`t_`/`squeeze_`/`unsqueeze_`/`as_strided_`, which change a tensor's layout in
//! place (`view_inplace`).
use super::*;
use crate::grads;
use crate::shape::{contiguous_strides, numel, wrap_dim, Shape, Strides};
use std::sync::Arc;

/// The storage positions (relative to `lo`) of the elements of a strided layout, row-major.
fn storage_plan(shape: &[usize], strides: &[isize], offset: usize, lo: usize) -> Plan {
    let mut plan = Vec::with_capacity(numel(shape));
    let mut it = crate::shape::MultiIndex::new(shape, [strides.into()], [offset as isize]);
    while let Some([o]) = it.next_offsets() {
        plan.push(o as usize - lo);
    }
    Arc::new(plan)
}

/// The lowest and highest storage position a strided layout touches (None when empty).
fn storage_span(shape: &[usize], strides: &[isize], offset: usize) -> Option<(usize, usize)> {
    if shape.contains(&0) {
        return None;
    }
    let far: isize = shape
        .iter()
        .zip(strides)
        .map(|(&n, &s)| (n as isize - 1) * s)
        .sum();
    Some((offset, (offset as isize + far) as usize))
}

/// The gradient of viewing `x`'s memory with another layout (`as_strided`): each element of
/// `g` is added at its storage position, and `x` reads its own positions back.
fn restrided_grad(x: &Tensor, shape: &[usize], strides: &[isize], offset: usize) -> BackwardFn {
    let (xs, xst, xo) = {
        let d = x.data();
        (d.shape.clone(), d.strides.clone(), d.offset)
    };
    let (shape, strides): (Shape, Strides) = (shape.into(), strides.into());
    Box::new(move |_, g| {
        let spans = [
            storage_span(&xs, &xst, xo),
            storage_span(&shape, &strides, offset),
        ];
        let lo = spans.iter().flatten().map(|s| s.0).min().unwrap_or(0);
        let hi = spans.iter().flatten().map(|s| s.1).max().unwrap_or(0);
        let out_plan = storage_plan(&shape, &strides, offset, lo);
        let x_plan = storage_plan(&xs, &xst, xo, lo);
        let flat = put_add(&[hi - lo + 1], &out_plan, &g[0])?;
        grads![take(&flat, &x_plan, &xs, "AsStridedBackward0")?]
    })
}

/// Check an `as_strided` geometry against `x`'s storage (PyTorch's messages).
fn strided_layout(
    x: &Tensor,
    size: &[i64],
    stride: &[i64],
    offset: Option<i64>,
) -> Result<(Shape, Strides, usize)> {
    let list = |v: &[i64]| {
        v.iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    if size.len() != stride.len() {
        return Err(Error::Runtime(
            "mismatch in length of strides and shape".into(),
        ));
    }
    if size.iter().any(|&n| n < 0) {
        return Err(Error::Runtime(format!(
            "Storage size calculation overflowed with sizes=[{}] and strides=[{}]",
            list(size),
            list(stride)
        )));
    }
    if stride.iter().any(|&s| s < 0) {
        return Err(Error::Runtime(format!(
            "as_strided: Negative strides are not supported at the moment, got strides: [{}]",
            list(stride)
        )));
    }
    let offset = offset.unwrap_or(x.data().offset as i64);
    if offset < 0 {
        return Err(Error::Runtime(format!(
            "Tensor: invalid storage offset {offset}"
        )));
    }
    let shape: Shape = size.iter().map(|&n| n as usize).collect();
    let strides: Strides = stride.iter().map(|&s| s as isize).collect();
    let offset = offset as usize;
    let (nbytes, itemsize, meta) = {
        let d = x.data();
        (d.storage.nbytes(), d.dtype.size(), x.device().is_meta())
    };
    let needed = match storage_span(&shape, &strides, offset) {
        Some((_, hi)) => (hi + 1) * itemsize,
        None => 0,
    };
    if !meta && needed > nbytes {
        return Err(Error::Runtime(format!(
            "setStorage: sizes [{}], strides [{}], storage offset {offset}, and itemsize {itemsize} requiring a storage size of {needed} are out of bounds for storage of size {nbytes}",
            list(size),
            list(stride)
        )));
    }
    Ok((shape, strides, offset))
}

/// `torch.as_strided(x, size, stride, storage_offset)`: a view of `x`'s memory with any layout
/// (AsStridedBackward0); the offset defaults to `x`'s own.
pub fn as_strided_view(
    x: &Tensor,
    size: &[i64],
    stride: &[i64],
    offset: Option<i64>,
) -> Result<Tensor> {
    let (shape, strides, offset) = strided_layout(x, size, stride, offset)?;
    let out = x.view_with(&shape, &strides, offset);
    if needs_grad(&[x])? {
        record(
            "AsStridedBackward0",
            &[x],
            &[&out],
            vec![],
            restrided_grad(x, &shape, &strides, offset),
        )?;
    }
    Ok(out)
}

/// `x.as_strided_(size, stride, storage_offset)` (AsStridedBackward1).
pub fn as_strided_(x: &Tensor, size: &[i64], stride: &[i64], offset: Option<i64>) -> Result<()> {
    let (shape, strides, offset) = strided_layout(x, size, stride, offset)?;
    let backward = restrided_grad(x, &shape, &strides, offset);
    // checked again against each tensor it lays out (a tangent has its own memory)
    view_inplace(
        x,
        "AsStridedBackward1",
        |t| as_strided_view(t, size, stride, Some(offset as i64)),
        backward,
    )
}

/// The layout of the diagonal `offset` of the plane (dim1, dim2), last in the result.
fn diagonal_layout(
    shape: &[usize],
    strides: &[isize],
    start: usize,
    offset: i64,
    d1: usize,
    d2: usize,
) -> (Shape, Strides, usize) {
    let (n1, n2) = (shape[d1] as i64, shape[d2] as i64);
    let len = if offset >= 0 {
        n1.min(n2 - offset).max(0)
    } else {
        (n1 + offset).min(n2).max(0)
    } as usize;
    let start = if len == 0 {
        start
    } else if offset >= 0 {
        start + offset as usize * strides[d2] as usize
    } else {
        start + (-offset) as usize * strides[d1] as usize
    };
    let mut sh: Shape = Shape::new();
    let mut st: Strides = Strides::new();
    for i in 0..shape.len() {
        if i != d1 && i != d2 {
            sh.push(shape[i]);
            st.push(strides[i]);
        }
    }
    sh.push(len);
    st.push(strides[d1] + strides[d2]);
    (sh, st, start)
}

/// `x.diagonal(offset, dim1, dim2)`: the diagonal as a view, appended as the last dim
/// (DiagonalBackward0; its gradient is zeros with the diagonal set).
pub fn diagonal(x: &Tensor, offset: i64, dim1: i64, dim2: i64) -> Result<Tensor> {
    let nd = x.ndim();
    let (d1, d2) = (wrap_dim(dim1, nd)?, wrap_dim(dim2, nd)?);
    if d1 == d2 {
        return Err(Error::Runtime(format!(
            "diagonal dimensions cannot be identical {dim1}, {dim2}"
        )));
    }
    let out = {
        let d = x.data();
        let (sh, st, o) = diagonal_layout(&d.shape, &d.strides, d.offset, offset, d1, d2);
        x.view_with(&sh, &st, o)
    };
    if needs_grad(&[x])? {
        let shape = x.shape();
        let (sh, st, o) = diagonal_layout(&shape, &contiguous_strides(&shape), 0, offset, d1, d2);
        let region = Region {
            shape: sh,
            strides: st,
            offset: o,
        };
        record(
            "DiagonalBackward0",
            &[x],
            &[&out],
            vec![],
            Box::new(move |_, g| grads![embed(&g[0], &shape, &region)?]),
        )?;
    }
    Ok(out)
}

/// `transpose_(d0, d1)` (TransposeBackward1; `swapdims_`/`swapaxes_` too).
pub fn transpose_(x: &Tensor, d0: i64, d1: i64) -> Result<()> {
    let nd = x.ndim();
    let (a, b) = (wrap_dim(d0, nd)?, wrap_dim(d1, nd)?);
    view_inplace(
        x,
        "TransposeBackward1",
        |t| transpose(t, d0, d1),
        Box::new(move |_, g| grads![transpose(&g[0], a as i64, b as i64)?]),
    )
}

/// `t_()` (TBackward1).
pub fn t_(x: &Tensor) -> Result<()> {
    if x.ndim() > 2 {
        return Err(Error::Runtime(format!(
            "t_() expects a tensor with <= 2 dimensions, but self is {}D",
            x.ndim()
        )));
    }
    view_inplace(x, "TBackward1", t, Box::new(|_, g| grads![t(&g[0])?]))
}

/// `squeeze_()`, `squeeze_(dim)`, `squeeze_(dims)` (SqueezeBackward3/4/5) and `unsqueeze_(dim)`
/// (UnsqueezeBackward1): the gradient takes the old shape back.
pub fn reshape_view_(
    x: &Tensor,
    name: &'static str,
    view: impl Fn(&Tensor) -> Result<Tensor>,
) -> Result<()> {
    let old = x.shape();
    view_inplace(
        x,
        name,
        view,
        Box::new(move |_, g| grads![reshape_shape(&g[0], &old)?]),
    )
}
