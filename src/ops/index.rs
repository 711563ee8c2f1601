//! Indexing by tensors: one "plan" (for each output element, the flat index of the input element
//! it reads) serves advanced indexing, index_select, gather and embedding; `take` reads with a
//! plan, `put` scatters back with it (each is the other's gradient).
use super::*;
use crate::backend::{self, cpu};
use crate::dtype::DType;
use crate::grads;
use crate::shape::{broadcast_shapes, contiguous_strides, numel, wrap_dim, Shape};
use std::sync::Arc;

pub type Plan = Arc<Vec<usize>>;

/// Whether PyTorch's node `name` saves its index (or mask, target) tensor, so that a second
/// backward through it without retain_graph fails; the others of [`take`] save only sizes.
fn saves_indices(name: &str) -> bool {
    matches!(
        name,
        "IndexBackward0"
            | "GatherBackward0"
            | "IndexSelectBackward0"
            | "EmbeddingBackward0"
            | "MaxBackward0"
            | "MinBackward0"
            | "MaskedSelectBackward0"
            | "TakeBackward0"
            | "NllLossBackward0"
            | "MaxPool2DWithIndicesBackward0"
    )
}

/// Whether PyTorch's node `name` also saves its input (so that writing the input in place
/// before backward is an error, as there); the others keep only its sizes.
fn saves_self(name: &str) -> bool {
    matches!(
        name,
        "GatherBackward0"
            | "MaskedSelectBackward0"
            | "TakeBackward0"
            | "MaxPool2DWithIndicesBackward0"
    )
}

/// What the node `name` of [`take`]/[`take_idx`] over `x` saves: PyTorch saves the index
/// tensors of some (so a second backward without retain_graph fails; the plan is kept in the
/// formula, the slot marks the node as holding them) and the input of others.
fn saved_by(name: &str, x: &Tensor) -> Result<Vec<SavedTensor>> {
    let mut saved = Vec::new();
    if saves_indices(name) {
        saved.push(held_by_formula("indices"));
    }
    if saves_self(name) {
        saved.push(save("self", x)?);
    }
    Ok(saved)
}

/// `out[i] = x.flat[plan[i]]`, shaped `shape`.
pub fn take(x: &Tensor, plan: &Plan, shape: &[usize], name: &'static str) -> Result<Tensor> {
    let out = backend::take(x, plan, shape)?;
    if needs_grad(&[x])? {
        let (xs, p) = (x.shape(), plan.clone());
        let saved = saved_by(name, x)?;
        // d take = scatter-add of dL back to where each element came from
        record(
            name,
            &[x],
            &[&out],
            saved,
            Box::new(move |_, g| grads![put_add(&xs, &p, &g[0])?]),
        )?;
    }
    Ok(out)
}

/// zeros(shape) with `values[i]` added at flat index `plan[i]` (the gradient of `take`).
pub fn put_add(shape: &[usize], plan: &Plan, values: &Tensor) -> Result<Tensor> {
    let src = backend::contiguous(values)?;
    let out = Tensor::zeros_on(shape, src.dtype(), src.device())?;
    backend::put(&out, plan, &src, true)?;
    if needs_grad(&[values])? {
        let (vs, p) = (values.shape(), plan.clone());
        record(
            "IndexPutBackward0",
            &[values],
            &[&out],
            vec![held_by_formula("indices")],
            Box::new(move |_, g| grads![take(&g[0], &p, &vs, "IndexBackward0")?]),
        )?;
    }
    Ok(out)
}

/// [`take`] with the plan an int64 tensor on x's device (plans built by device kernels: im2col
/// and max pooling on CUDA).
pub fn take_idx(
    x: &Tensor,
    idx: &backend::Strided,
    shape: &[usize],
    name: &'static str,
) -> Result<Tensor> {
    let out = Tensor::from_strided(backend::cuda::take_idx(&x.strided(), idx, shape)?);
    if needs_grad(&[x])? {
        let (xs, p) = (x.shape(), idx.clone());
        let saved = saved_by(name, x)?;
        record(
            name,
            &[x],
            &[&out],
            saved,
            Box::new(move |_, g| grads![put_add_idx(&xs, &p, &g[0])?]),
        )?;
    }
    Ok(out)
}

/// [`put_add`] with the plan an int64 tensor on the values' device.
pub fn put_add_idx(shape: &[usize], idx: &backend::Strided, values: &Tensor) -> Result<Tensor> {
    let src = backend::contiguous(values)?;
    let out = Tensor::zeros_on(shape, src.dtype(), src.device())?;
    backend::cuda::put_idx(&out.strided(), idx, &src.strided(), true)?;
    if needs_grad(&[values])? {
        let (vs, p) = (values.shape(), idx.clone());
        record(
            "IndexPutBackward0",
            &[values],
            &[&out],
            vec![held_by_formula("indices")],
            Box::new(move |_, g| grads![take_idx(&g[0], &p, &vs, "IndexBackward0")?]),
        )?;
    }
    Ok(out)
}

/// `x` with `x.flat[plan[i]] = values[i]` (index_put without accumulate; IndexPutBackward0).
pub fn put(x: &Tensor, plan: &Plan, values: &Tensor) -> Result<Tensor> {
    let out = backend::cast(x, x.dtype())?;
    let vals = backend::cast(
        &expand(values, &[plan.len()]).or_else(|_| reshape(values, &[plan.len() as i64]))?,
        x.dtype(),
    )?;
    if out.device() != values.device() && values.ndim() > 0 && !values.device().is_meta() {
        return Err(crate::device::mismatch(out.device(), values.device()));
    }
    backend::put(&out, plan, &vals, false)?;
    if needs_grad(&[x, values])? {
        let (p, vs) = (plan.clone(), values.shape());
        record(
            "IndexPutBackward0",
            &[x, values],
            &[&out],
            vec![held_by_formula("indices")],
            Box::new(move |_, g| {
                let gx = zero_at(&g[0], &p)?;
                let gv = take(&g[0], &p, &[p.len()], "IndexBackward0")?;
                grads![
                    gx,
                    sum_to(&gv, &vs).or_else(|_| reshape(
                        &gv,
                        &vs.iter().map(|&d| d as i64).collect::<Vec<_>>()
                    ))?
                ]
            }),
        )?;
    }
    Ok(out)
}

/// `g` with zeros at the flat positions of `plan` (the gradient of whatever those positions were
/// overwritten with: scatter, index_copy, index_fill, masked_scatter, put).
pub fn zero_at(g: &Tensor, plan: &Plan) -> Result<Tensor> {
    let zero = Tensor::zeros_on(&[plan.len()], g.dtype(), g.device())?;
    put(g, plan, &zero)
}

/// Index values as i64, checked against `size`, negatives wrapped.
fn index_values(idx: &Tensor, size: usize, dim: usize) -> Result<Vec<usize>> {
    if !matches!(idx.dtype(), DType::Int64 | DType::Int32 | DType::UInt8) {
        return Err(Error::Index(
            "tensors used as indices must be long, int, byte or bool tensors".into(),
        ));
    }
    idx.try_to_vec::<i64>()?
        .into_iter()
        .map(|i| {
            let j = if i < 0 { i + size as i64 } else { i };
            if j < 0 || j >= size as i64 {
                Err(Error::Index(format!(
                    "index {} is out of bounds for dimension {} with size {}",
                    i, dim, size
                )))
            } else {
                Ok(j as usize)
            }
        })
        .collect()
}

/// The positions of true elements of a bool mask, one long tensor per mask dim.
pub fn nonzero_split(mask: &Tensor) -> Result<Vec<Tensor>> {
    let shape = mask.shape();
    let v = mask.try_to_vec::<bool>()?;
    let st = contiguous_strides(&shape);
    let mut cols: Vec<Vec<i64>> = vec![Vec::new(); shape.len()];
    for (flat, &b) in v.iter().enumerate() {
        if b {
            for (d, col) in cols.iter_mut().enumerate() {
                col.push(((flat as isize / st[d]) % shape[d] as isize) as i64);
            }
        }
    }
    cols.into_iter()
        .map(|c| {
            let n = c.len();
            Tensor::from_vec(c, &[n])
        })
        .collect()
}

/// Advanced indexing of `x` by index tensors at dims `dims` (already broadcast-compatible):
/// PyTorch's result layout (the index shape replaces the indexed dims in place when they are
/// adjacent, else goes first). Returns the plan and the output shape.
pub fn advanced_plan(x_shape: &[usize], dims: &[usize], idxs: &[Tensor]) -> Result<(Plan, Shape)> {
    let mut bshape: Shape = Shape::new();
    for t in idxs {
        bshape = broadcast_shapes(&bshape, &t.shape()).map_err(|_| {
            Error::Index(format!(
                "shape mismatch: indexing tensors could not be broadcast together with shapes {}",
                idxs.iter()
                    .map(|t| crate::shape::fmt_shape(&t.shape()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?;
    }
    let cols: Vec<Vec<usize>> = idxs
        .iter()
        .zip(dims)
        .map(|(t, &d)| {
            let e = expand(t, &bshape)?;
            index_values(&backend::contiguous(&e)?, x_shape[d], d)
        })
        .collect::<Result<_>>()?;
    let adjacent = dims.windows(2).all(|w| w[1] == w[0] + 1);
    let rest: Vec<usize> = (0..x_shape.len()).filter(|d| !dims.contains(d)).collect();
    let first = dims[0];
    let (before, after): (Vec<usize>, Vec<usize>) = if adjacent {
        (
            rest.iter().copied().filter(|&d| d < first).collect(),
            rest.iter().copied().filter(|&d| d > first).collect(),
        )
    } else {
        (Vec::new(), rest.clone())
    };
    let mut out_shape: Shape = before.iter().map(|&d| x_shape[d]).collect();
    out_shape.extend(bshape.iter().copied());
    out_shape.extend(after.iter().map(|&d| x_shape[d]));
    let xst = contiguous_strides(x_shape);
    let nb = numel(&bshape);
    let n_before: usize = before.iter().map(|&d| x_shape[d]).product();
    let n_after: usize = after.iter().map(|&d| x_shape[d]).product();
    let mut plan = cpu::alloc_vec::<usize>(n_before * nb * n_after)?;
    let offsets = |dd: &[usize], mut k: usize| -> usize {
        let mut off = 0;
        for &d in dd.iter().rev() {
            off += (k % x_shape[d]) * xst[d] as usize;
            k /= x_shape[d];
        }
        off
    };
    for bi in 0..n_before {
        let ob = offsets(&before, bi);
        for j in 0..nb {
            let oi: usize = cols
                .iter()
                .zip(dims)
                .map(|(c, &d)| c[j] * xst[d] as usize)
                .sum();
            for ai in 0..n_after {
                plan.push(ob + oi + offsets(&after, ai));
            }
        }
    }
    Ok((Arc::new(plan), out_shape))
}

/// `x.index_select(dim, index)` (IndexSelectBackward0).
pub fn index_select(x: &Tensor, dim: i64, index: &Tensor) -> Result<Tensor> {
    if x.ndim() == 0 {
        return Err(Error::Index(
            "Dimension specified as 0 but tensor has no dimensions".into(),
        ));
    }
    if index.ndim() > 1 {
        return Err(Error::Index(
            "index_select(): Index is supposed to be a vector".into(),
        ));
    }
    let d = wrap_dim(dim, x.ndim())?;
    let idx = reshape(index, &[-1])?;
    let size = x.shape()[d] as i64;
    if matches!(idx.dtype(), DType::Int64 | DType::Int32 | DType::UInt8)
        && idx.try_to_vec::<i64>()?.iter().any(|&i| i < 0 || i >= size)
    {
        // index_select does not wrap negative indices (PyTorch)
        return Err(Error::Index("index out of range in self".into()));
    }
    let (plan, shape) = advanced_plan(&x.shape(), &[d], &[idx])?;
    take(x, &plan, &shape, "IndexSelectBackward0")
}

/// `x.gather(dim, index)` (GatherBackward0): `out[i][j] = x[index[i][j]][j]` for dim 0.
pub fn gather(x: &Tensor, dim: i64, index: &Tensor) -> Result<Tensor> {
    let d = wrap_dim(dim, x.ndim())?;
    // a 0-d tensor counts as 1-d of one element here, as in PyTorch's checks
    let nonempty = |s: Shape| {
        if s.is_empty() {
            smallvec::smallvec![1]
        } else {
            s
        }
    };
    let out_shape = index.shape();
    let xs = nonempty(x.shape());
    let is = nonempty(index.shape());
    if is.len() != xs.len() {
        return Err(Error::Runtime(
            "Index tensor must have the same number of dimensions as input tensor".into(),
        ));
    }
    for k in 0..xs.len() {
        if k != d && is[k] > xs[k] {
            return Err(Error::Runtime(format!(
                "Size does not match at dimension {} expected index {} to be no larger than self {} apart from dimension {}",
                k, crate::shape::fmt_shape(&is), crate::shape::fmt_shape(&xs), d
            )));
        }
    }
    if matches!(index.dtype(), DType::Int64 | DType::Int32 | DType::UInt8) {
        // gather does not wrap negative indices, and reports them as a RuntimeError (PyTorch)
        if let Some(&i) = index
            .try_to_vec::<i64>()?
            .iter()
            .find(|&&i| i < 0 || i >= xs[d] as i64)
        {
            return Err(Error::Runtime(format!(
                "index {} is out of bounds for dimension {} with size {}",
                i, d, xs[d]
            )));
        }
    }
    let vals = index_values(&backend::contiguous(index)?, xs[d], d)?;
    let xst = contiguous_strides(&xs);
    let ist = contiguous_strides(&is);
    let plan: Vec<usize> = vals
        .iter()
        .enumerate()
        .map(|(flat, &v)| {
            (0..is.len())
                .map(|k| {
                    let c = if k == d {
                        v
                    } else {
                        (flat / ist[k] as usize) % is[k]
                    };
                    c * xst[k] as usize
                })
                .sum()
        })
        .collect();
    take(x, &Arc::new(plan), &out_shape, "GatherBackward0")
}

/// `x.masked_fill(mask, value)` (MaskedFillBackward0).
pub fn masked_fill(x: &Tensor, mask: &Tensor, value: &Tensor) -> Result<Tensor> {
    crate::dtype::shell_kernel_check(x.dtype(), "masked_fill")?;
    let nd = value.ndim();
    if nd != 0 {
        return Err(Error::Runtime(format!(
            "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with {nd} dimension(s)."
        )));
    }
    if mask.dtype() != DType::Bool {
        return Err(Error::Runtime(format!(
            "masked_fill_ only supports boolean masks, but got mask with dtype {}",
            mask.dtype().name()
        )));
    }
    // out of place, self and mask broadcast together (PyTorch's expand_outplace)
    let x_shape = x.shape();
    let shape = broadcast_shapes(&mask.shape(), &x_shape)?;
    let m = expand(mask, &shape)?;
    let xb = if shape == x_shape {
        x.detached()
    } else {
        expand(&x.detached(), &shape)?
    };
    let fill = backend::cast(value, x.dtype())?.item()?;
    let out = backend::contiguous(&backend::cast(&xb, x.dtype())?)?;
    backend::fill_where(&out, &m, fill)?;
    if needs_grad(&[x])? {
        record(
            "MaskedFillBackward0",
            &[x],
            &[&out],
            vec![save("mask", &m)?],
            Box::new(move |s, g| {
                // derivatives.yaml: grad.masked_fill(mask, 0) (a true 0 where g is negative,
                // infinite or NaN, which g * keep would not give)
                let g = masked_fill(&g[0], &s[0], &Tensor::wrapped_scalar(0.0))?;
                grads![super::sum::sum_to(&g, &x_shape)?]
            }),
        )?;
    }
    Ok(out)
}

/// `torch.where(cond, a, b)` (WhereBackward0).
pub fn where_(cond: &Tensor, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    if cond.dtype() != DType::Bool {
        return Err(Error::Runtime(format!(
            "where expected condition to be a boolean tensor, but got a tensor with dtype {}",
            cond.dtype().scalar_type_name()
        )));
    }
    let (_, a2, b2) = promote_pair(a, b)?;
    broadcast_shapes(&broadcast_shapes(&cond.shape(), &a2.shape())?, &b2.shape())?;
    let out = backend::where_(cond, &a2, &b2)?;
    if needs_grad(&[a, b])? {
        record(
            "WhereBackward0",
            &[cond, a, b],
            &[&out],
            vec![save("condition", cond)?],
            Box::new(|s, g| {
                // where(), not a multiply by the mask: an inf/NaN gradient must not leak into
                // the branch that was not taken.
                let zero = Tensor::wrapped_scalar(0.0f64);
                let ga = where_(&s[0], &g[0], &zero)?;
                let gb = where_(&s[0], &zero, &g[0])?;
                Ok(vec![None, Some(ga), Some(gb)])
            }),
        )?;
    }
    Ok(out)
}
