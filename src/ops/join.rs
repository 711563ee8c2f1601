//! Joining and splitting: cat, stack, split/chunk/unbind (multi-output nodes), repeat.
use super::*;
use crate::backend;
use crate::dtype::result_type;
use crate::grads;
use crate::shape::{fmt_shape, wrap_dim, Shape};

fn check_same_rank(ts: &[Tensor], dim: usize) -> Result<Shape> {
    let first = ts[0].shape();
    for (i, t) in ts.iter().enumerate().skip(1) {
        let s = t.shape();
        if s.len() != first.len() {
            return Err(Error::Runtime(format!(
                "Tensors must have same number of dimensions: got {} and {}",
                first.len(),
                s.len()
            )));
        }
        for d in 0..s.len() {
            if d != dim && s[d] != first[d] {
                return Err(Error::Runtime(format!(
                    "Sizes of tensors must match except in dimension {}. Expected size {} but got size {} for tensor number {} in the list.",
                    dim, first[d], s[d], i
                )));
            }
        }
    }
    Ok(first)
}

/// Concatenate along `dim` (CatBackward0). Legacy empty 1-D tensors are skipped, as in PyTorch.
pub fn cat(ts: &[Tensor], dim: i64) -> Result<Tensor> {
    if ts.is_empty() {
        return Err(Error::Runtime(
            "torch.cat(): expected a non-empty list of Tensors".into(),
        ));
    }
    let kept: Vec<Tensor> = ts
        .iter()
        .filter(|t| !(t.ndim() == 1 && t.numel() == 0))
        .cloned()
        .collect();
    let kept = if kept.is_empty() {
        vec![ts[0].clone()]
    } else {
        kept
    };
    if kept[0].ndim() == 0 {
        return Err(Error::Runtime(
            "zero-dimensional tensor (at position 0) cannot be concatenated".into(),
        ));
    }
    let d = wrap_dim(dim, kept[0].ndim())?;
    let mut shape = check_same_rank(&kept, d)?;
    let sizes: Vec<usize> = kept.iter().map(|t| t.shape()[d]).collect();
    shape[d] = sizes.iter().sum();
    // Skipped empty 1-D tensors still take part in type promotion and autograd (PyTorch).
    let dt = result_type(
        &ts.iter()
            .map(|t| (t.dtype(), crate::dtype::Priority::Dim))
            .collect::<Vec<_>>(),
    )?;
    let device = kept[0].device();
    if let Some(t) = kept.iter().find(|t| t.device() != device) {
        return Err(crate::device::arg_mismatch(
            "cat",
            "tensors",
            t.device(),
            device,
        ));
    }
    let out = Tensor::zeros_on(&shape, dt, device)?;
    let outer: usize = shape[..d].iter().product();
    let inner: usize = shape[d + 1..].iter().product();
    let lens: Vec<usize> = sizes.iter().map(|&n| n * inner).collect();
    let mut start = 0;
    let copied = copy_blocks(&kept, &lens, outer, &out);
    for (t, &n) in kept.iter().zip(&sizes).filter(|_| !copied) {
        let win = slice(
            &out.detached(),
            d as i64,
            Some(start as i64),
            Some((start + n) as i64),
            1,
        )?;
        backend::copy_into(&win, t)?;
        start += n;
    }
    let refs: Vec<&Tensor> = ts.iter().collect();
    if needs_grad(&refs)? {
        // d cat = the matching slice of dL for each input (an empty gradient for the skipped
        // empty 1-D inputs)
        let parts: Vec<Option<usize>> = ts
            .iter()
            .map(|t| {
                if kept.iter().any(|k| k.ptr_eq(t)) {
                    Some(t.shape().get(d).copied().unwrap_or(0))
                } else {
                    None
                }
            })
            .collect();
        record(
            "CatBackward0",
            &refs,
            &[&out],
            vec![],
            Box::new(move |_, g| {
                let mut start = 0i64;
                let mut out = Vec::with_capacity(parts.len());
                for p in &parts {
                    out.push(Some(match p {
                        Some(n) => {
                            let s =
                                slice(&g[0], d as i64, Some(start), Some(start + *n as i64), 1)?;
                            start += *n as i64;
                            s
                        }
                        None => Tensor::zeros_on(&[0], g[0].dtype(), g[0].device())?,
                    }));
                }
                Ok(out)
            }),
        )?;
        set_attrs(&out, || {
            vec![("dim", crate::graph::node::SavedAttr::Int(dim))]
        });
    }
    Ok(out)
}

/// Copies contiguous host inputs of `out`'s dtype into the fresh contiguous `out`: `out` is
/// `outer` rows, each the inputs' rows of `lens[i]` elements one after another. False (and
/// nothing written) when an input or `out` does not qualify.
fn copy_blocks<T: std::borrow::Borrow<Tensor>>(
    ts: &[T],
    lens: &[usize],
    outer: usize,
    out: &Tensor,
) -> bool {
    let dt = out.dtype();
    let host = crate::device::Device::Cpu;
    if out.device() != host
        || !out.is_contiguous()
        || !ts.iter().all(|t| {
            let t = t.borrow();
            t.dtype() == dt && t.device() == host && t.is_contiguous()
        })
    {
        return false;
    }
    let esz = dt.size();
    let row: usize = lens.iter().sum::<usize>() * esz;
    let od = out.data();
    // SAFETY: `out` is a fresh host tensor of outer · Σ lens elements at its offset; each input
    // is a contiguous host tensor of outer · lens[i] elements; none overlaps `out`.
    unsafe {
        let obase = od.storage.as_ptr().add(od.offset * esz);
        let mut col = 0;
        for (t, &len) in ts.iter().zip(lens) {
            let len = len * esz;
            let td = t.borrow().data();
            if len > 0 {
                let tbase = td.storage.as_ptr().add(td.offset * esz);
                for o in 0..outer {
                    std::ptr::copy_nonoverlapping(
                        tbase.add(o * len),
                        obase.add(o * row + col),
                        len,
                    );
                }
            }
            col += len;
        }
    }
    true
}

/// Stack along a new `dim` (StackBackward0).
pub fn stack(ts: &[Tensor], dim: i64) -> Result<Tensor> {
    if ts.is_empty() {
        return Err(Error::Runtime(
            "stack expects a non-empty TensorList".into(),
        ));
    }
    let first = ts[0].shape();
    for (i, t) in ts.iter().enumerate() {
        if t.shape() != first {
            return Err(Error::Runtime(format!(
                "stack expects each tensor to be equal size, but got {} at entry 0 and {} at entry {}",
                fmt_shape(&first),
                fmt_shape(&t.shape()),
                i
            )));
        }
    }
    let d = wrap_dim(dim, first.len() + 1)?;
    let dt = ts[0].dtype();
    let fast = ts
        .iter()
        .all(|t| t.dtype() == dt && t.device() == crate::device::Device::Cpu && t.is_contiguous());
    let out = if fast {
        // the inputs' elements in blocks, without a view per input
        let mut shape = first.to_vec();
        shape.insert(d, ts.len());
        let out = Tensor::zeros_on(&shape, dt, crate::device::Device::Cpu)?;
        let refs: Vec<&Tensor> = ts.iter().collect();
        let inner: usize = first[d..].iter().product();
        let done = copy_blocks(
            &refs,
            &vec![inner; ts.len()],
            first[..d].iter().product(),
            &out,
        );
        debug_assert!(done);
        out
    } else {
        let _g = crate::grad_mode::GradModeGuard::new(false);
        let us: Vec<Tensor> = ts
            .iter()
            .map(|t| unsqueeze(t, d as i64))
            .collect::<Result<_>>()?;
        cat(&us, d as i64)?
    };
    let refs: Vec<&Tensor> = ts.iter().collect();
    if needs_grad(&refs)? {
        let n = ts.len();
        record(
            "StackBackward0",
            &refs,
            &[&out],
            vec![],
            Box::new(move |_, g| {
                (0..n)
                    .map(|i| select(&g[0], d as i64, i as i64).map(Some))
                    .collect()
            }),
        )?;
        set_attrs(&out, || {
            vec![("dim", crate::graph::node::SavedAttr::Int(dim))]
        });
    }
    Ok(out)
}

/// Views of consecutive pieces along `dim`, one node for all of them (SplitBackward0 /
/// SplitWithSizesBackward0); the gradient is their concatenation.
pub fn split_sizes(
    x: &Tensor,
    sizes: &[usize],
    dim: i64,
    name: &'static str,
) -> Result<Vec<Tensor>> {
    edges_first(&[x])?;
    split_pieces(x, sizes, dim, name, true)
}

/// `unsafe_split`/`unsafe_chunk`: the pieces share `x`'s memory but autograd does not see them
/// as views (no `_base`, each its own version counter), so in-place writes into them are not
/// checked against `x` (UnsafeSplitBackward0 / UnsafeSplitWithSizesBackward0).
pub fn unsafe_split_sizes(
    x: &Tensor,
    sizes: &[usize],
    dim: i64,
    name: &'static str,
) -> Result<Vec<Tensor>> {
    split_pieces(x, sizes, dim, name, false)
}

/// The sizes of `split(x, size, dim)`'s pieces.
pub fn split_size_list(x: &Tensor, size: i64, dim: i64) -> Result<Vec<usize>> {
    if size < 0 {
        return Err(Error::Runtime(format!(
            "split expects split_size be non-negative, but got split_size={}",
            size
        )));
    }
    if x.ndim() == 0 {
        return Err(Error::Runtime(
            "split expects at least a 1-dimensional tensor".into(),
        ));
    }
    let size = size as usize;
    if size == 0 && x.numel() > 0 {
        return Err(Error::Runtime(
            "split_size can only be 0 if dimension size is 0, but got dimension size of non-zero"
                .into(),
        ));
    }
    let d = wrap_dim(dim, x.ndim().max(1))?;
    let total = x.shape().get(d).copied().unwrap_or(0);
    let mut sizes = Vec::new();
    let mut left = total;
    while left > 0 {
        let n = size.min(left);
        sizes.push(n);
        left -= n;
    }
    if sizes.is_empty() {
        sizes.push(0);
    }
    Ok(sizes)
}

fn split_pieces(
    x: &Tensor,
    sizes: &[usize],
    dim: i64,
    name: &'static str,
    views: bool,
) -> Result<Vec<Tensor>> {
    let nd = x.ndim();
    if nd == 0 {
        return Err(Error::Runtime(
            "split expects at least a 1-dimensional tensor".into(),
        ));
    }
    let d = wrap_dim(dim, nd)?;
    let total = x.shape()[d];
    if sizes.iter().sum::<usize>() != total {
        return Err(Error::Runtime(format!(
            "split_with_sizes expects split_sizes to sum exactly to {} (input tensor's size at dimension {}), but got split_sizes=[{}]",
            total,
            d,
            sizes.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", ")
        )));
    }
    let outs: Vec<Tensor> = {
        let _g = crate::grad_mode::GradModeGuard::new(false);
        let mut start = 0i64;
        let mut v = Vec::with_capacity(sizes.len());
        for &n in sizes {
            let piece = slice(x, d as i64, Some(start), Some(start + n as i64), 1)?;
            v.push(piece);
            start += n as i64;
        }
        if views {
            v
        } else {
            v.iter()
                .map(|p| {
                    let t = p.data_alias();
                    t.meta().origin = crate::tensor::Origin::Other;
                    t
                })
                .collect()
        }
    };
    let refs: Vec<&Tensor> = outs.iter().collect();
    if views {
        mark_views(x, &refs, crate::tensor::CreationMeta::MultiOutputNode);
    }
    if needs_grad(&[x])? {
        record(
            name,
            &[x],
            &refs,
            vec![],
            Box::new(move |_, g| grads![cat(g, d as i64)?]),
        )?;
    }
    Ok(outs)
}

/// Pieces of `size` along `dim` (the last one shorter), as views (SplitBackward0).
pub fn split(x: &Tensor, size: i64, dim: i64) -> Result<Vec<Tensor>> {
    edges_first(&[x])?;
    split_sizes(x, &split_size_list(x, size, dim)?, dim, "SplitBackward0")
}

/// `chunks` pieces along `dim` of equal size (the last one smaller), as views.
pub fn chunk(x: &Tensor, chunks: i64, dim: i64) -> Result<Vec<Tensor>> {
    if chunks <= 0 {
        return Err(Error::Runtime(format!(
            "chunk expects `chunks` to be greater than 0, got: {}",
            chunks
        )));
    }
    if x.ndim() == 0 {
        return Err(Error::Runtime(
            "chunk expects at least a 1-dimensional tensor".into(),
        ));
    }
    let chunks = chunks as usize;
    let d = wrap_dim(dim, x.ndim().max(1))?;
    let total = x.shape().get(d).copied().unwrap_or(0);
    if total == 0 && x.ndim() > 0 {
        // An empty dim still gives `chunks` (empty) pieces, through split_with_sizes (PyTorch).
        let mut sizes = crate::backend::cpu::alloc_vec::<usize>(chunks)?;
        sizes.resize(chunks, 0);
        return split_sizes(x, &sizes, dim, "SplitWithSizesBackward0");
    }
    split(x, total.div_ceil(chunks).max(1) as i64, dim)
}

/// Each index along `dim` as a view (UnbindBackward0); the gradient stacks them back.
pub fn unbind(x: &Tensor, dim: i64) -> Result<Vec<Tensor>> {
    edges_first(&[x])?;
    wrap_dim(dim, x.ndim().max(1))?;
    if x.ndim() == 0 {
        return Err(Error::Index(
            "Dimension specified as 0 but tensor has no dimensions".into(),
        ));
    }
    let d = wrap_dim(dim, x.ndim())?;
    let n = x.shape()[d];
    let outs: Vec<Tensor> = {
        let _g = crate::grad_mode::GradModeGuard::new(false);
        (0..n)
            .map(|i| select(x, d as i64, i as i64))
            .collect::<Result<_>>()?
    };
    let refs: Vec<&Tensor> = outs.iter().collect();
    mark_views(x, &refs, crate::tensor::CreationMeta::MultiOutputNode);
    if needs_grad(&[x])? {
        record(
            "UnbindBackward0",
            &[x],
            &refs,
            vec![],
            Box::new(move |_, g| grads![stack(g, d as i64)?]),
        )?;
    }
    Ok(outs)
}

/// Tile `x` `reps[i]` times along each dim (RepeatBackward0).
pub fn repeat(x: &Tensor, reps: &[i64]) -> Result<Tensor> {
    let xs = x.shape();
    if reps.len() < xs.len() {
        return Err(Error::Runtime("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor".into()));
    }
    let lead = reps.len() - xs.len();
    let padded: Vec<usize> = std::iter::repeat_n(1, lead)
        .chain(xs.iter().copied())
        .collect();
    // PyTorch checks the result's sizes: a negative repeat of an empty dim is an empty dim.
    let sizes: Vec<i64> = reps
        .iter()
        .zip(&padded)
        .map(|(&r, &p)| r.saturating_mul(p as i64))
        .collect();
    if let Some(&neg) = sizes.iter().find(|&&d| d < 0) {
        return Err(Error::Runtime(format!(
            "Trying to create tensor with negative dimension {}: {:?}",
            neg, sizes
        )));
    }
    let reps: Vec<usize> = reps.iter().map(|&d| d.max(0) as usize).collect();
    // View x as [1, p0, 1, p1, ...], expand to [r0, p0, r1, p1, ...], copy, reshape.
    let mut inter: Vec<i64> = Vec::new();
    let mut expanded: Vec<i64> = Vec::new();
    let mut out_shape: Vec<i64> = Vec::new();
    for (r, p) in reps.iter().zip(&padded) {
        inter.extend([1, *p as i64]);
        expanded.extend([*r as i64, *p as i64]);
        out_shape.push((*r * *p) as i64);
    }
    let out = {
        let _g = crate::grad_mode::GradModeGuard::new(false);
        let v = reshape(&x.detached(), &inter)?;
        let e = expand_i64(&v, &expanded)?;
        reshape(&backend::contiguous(&e)?, &out_shape)?
    };
    // A fresh tensor, not a view of the temporary it was reshaped from (PyTorch's repeat).
    let out = out.detached();
    out.meta().origin = crate::tensor::Origin::Other;
    if needs_grad(&[x])? {
        let xs2: Vec<i64> = xs.iter().map(|&d| d as i64).collect();
        let n = reps.len();
        record(
            "RepeatBackward0",
            &[x],
            &[&out],
            vec![],
            Box::new(move |_, g| {
                let gr = reshape(&g[0], &expanded)?;
                let dims: Vec<i64> = (0..n).map(|i| (2 * i) as i64).collect();
                grads![reshape(&sum(&gr, Some(&dims), false)?, &xs2)?]
            }),
        )?;
    }
    Ok(out)
}
