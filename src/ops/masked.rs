//! Reading and writing through a bool mask or flat indices: `masked_select`, `masked_scatter`,
//! `take`. Each is an index plan over the input's own elements (broadcasting included), so the
//! gradient is the matching put or take of the same plan and a single node is recorded, as in
//! PyTorch.
use super::index::{put_add, take, zero_at, Plan};
use super::*;
use crate::backend;
use crate::dtype::DType;
use crate::grads;
use crate::shape::{broadcast_shapes, contiguous_strides, numel};
use std::sync::Arc;

/// For each element of `shape` (a broadcast of `from`), the flat position in `from` it reads.
fn broadcast_positions(from: &[usize], shape: &[usize]) -> Vec<usize> {
    let fst = contiguous_strides(from);
    let st = contiguous_strides(shape);
    let off = shape.len() - from.len();
    (0..numel(shape))
        .map(|flat| {
            (0..from.len())
                .map(|k| {
                    let c = (flat / st[k + off] as usize) % shape[k + off];
                    if from[k] == 1 {
                        0
                    } else {
                        c * fst[k] as usize
                    }
                })
                .sum()
        })
        .collect()
}

/// The mask's values broadcast to `shape`.
fn mask_values(mask: &Tensor, shape: &[usize]) -> Result<Vec<bool>> {
    if mask.device().is_meta() {
        return Ok(vec![false; numel(shape)]);
    }
    let m = mask.try_to_vec::<bool>()?;
    Ok(broadcast_positions(&mask.shape(), shape)
        .into_iter()
        .map(|p| m[p])
        .collect())
}

/// `x.masked_select(mask)`: the elements where the (broadcast) mask is true, as a 1-D tensor
/// (MaskedSelectBackward0).
pub fn masked_select(x: &Tensor, mask: &Tensor) -> Result<Tensor> {
    crate::dtype::shell_kernel_check(x.dtype(), "masked_select")?;
    if mask.dtype() != DType::Bool {
        return Err(Error::Runtime(
            "masked_select: expected BoolTensor for mask".into(),
        ));
    }
    // (PyTorch broadcasts the mask against the input, in that order)
    let shape = broadcast_shapes(&mask.shape(), &x.shape())?;
    let m = mask_values(mask, &shape)?;
    let from = broadcast_positions(&x.shape(), &shape);
    let plan: Plan = Arc::new(
        from.into_iter()
            .zip(&m)
            .filter(|(_, &keep)| keep)
            .map(|(p, _)| p)
            .collect(),
    );
    take(x, &plan, &[plan.len()], "MaskedSelectBackward0")
}

/// `x.masked_scatter(mask, source)`: `x` with the positions where the mask (broadcast to x's
/// shape) is true filled, in order, by source's first elements (MaskedScatterBackward0).
pub fn masked_scatter(x: &Tensor, mask: &Tensor, source: &Tensor) -> Result<Tensor> {
    crate::dtype::shell_kernel_check(x.dtype(), "masked_scatter")?;
    if mask.dtype() != DType::Bool {
        return Err(Error::Runtime(format!(
            "masked_scatter_ only supports boolean masks, but got mask with dtype {}",
            mask.dtype().scalar_type_name()
        )));
    }
    if source.dtype() != x.dtype() {
        return Err(Error::Runtime(format!(
            "masked_scatter: expected self and source to have same dtypes but got{} and {}",
            x.dtype().scalar_type_name(),
            source.dtype().scalar_type_name()
        )));
    }
    let shape = x.shape();
    let bshape = broadcast_shapes(&shape, &mask.shape())?;
    if bshape != shape {
        return Err(Error::Runtime(format!(
            "masked_scatter_: expected mask to be broadcastable to self's shape {}",
            crate::shape::fmt_shape(&shape)
        )));
    }
    let m = mask_values(mask, &shape)?;
    let target: Plan = Arc::new(
        m.iter()
            .enumerate()
            .filter(|(_, &keep)| keep)
            .map(|(p, _)| p)
            .collect(),
    );
    let n = target.len();
    if n > source.numel() {
        return Err(Error::Runtime(
            "Number of elements of source < number of ones in mask".into(),
        ));
    }
    let first: Plan = Arc::new((0..n).collect());
    let out = backend::cast(x, x.dtype())?;
    backend::put(&out, &target, &backend::take(source, &first, &[n])?, false)?;
    if needs_grad(&[x, source])? {
        let (ss, sn) = (source.shape(), source.numel());
        record(
            "MaskedScatterBackward0",
            &[x, source],
            &[&out],
            vec![save("mask", mask)?],
            Box::new(move |_, g| {
                let gx = zero_at(&g[0], &target)?;
                // the selected gradient in source's first elements, zeros after
                let picked = take(&g[0], &target, &[target.len()], "MaskedSelectBackward0")?;
                let gs = put_add(&[sn], &first, &picked)?;
                let ss: Vec<i64> = ss.iter().map(|&d| d as i64).collect();
                grads![gx, reshape(&gs, &ss)?]
            }),
        )?;
    }
    Ok(out)
}

/// `x.take(index)`: `x` read as 1-D at `index` (negative counting from the end), shaped like
/// `index` (TakeBackward0).
pub fn take_flat(x: &Tensor, index: &Tensor) -> Result<Tensor> {
    crate::dtype::shell_kernel_check(x.dtype(), "take_cpu")?;
    if index.dtype() != DType::Int64 {
        return Err(Error::Runtime(format!(
            "take(): Expected a long tensor for index, but got {}",
            index.dtype().scalar_type_name()
        )));
    }
    let n = x.numel() as i64;
    let vals: Vec<i64> = if index.device().is_meta() {
        vec![0; index.numel()]
    } else {
        index.try_to_vec::<i64>()?
    };
    let plan = vals
        .iter()
        .map(|&i| {
            if i < -n || i >= n {
                Err(Error::Index(format!(
                    "out of range: tried to access index {i} on a tensor of {n} elements."
                )))
            } else {
                Ok(if i < 0 { (i + n) as usize } else { i as usize })
            }
        })
        .collect::<Result<Vec<_>>>()?;
    take(x, &Arc::new(plan), &index.shape(), "TakeBackward0")
}
