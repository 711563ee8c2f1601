//! Copies and dtype conversions.
use super::*;
use crate::backend;
use crate::dtype::DType;
use crate::grads;

/// `x.to(dtype)` as a new tensor (ToCopyBackward0); integer results are not recorded.
pub fn to_dtype(x: &Tensor, dtype: DType) -> Result<Tensor> {
    to_dtype_impl(backend::cast(x, dtype)?, x, dtype)
}

/// `x.to(dtype)` / `x.double()`: the copy keeps `x`'s layout (PyTorch's preserve_format).
pub fn to_dtype_preserving(x: &Tensor, dtype: DType) -> Result<Tensor> {
    to_dtype_impl(crate::backend::cast_exact(x, dtype)?, x, dtype)
}

fn to_dtype_impl(out: Tensor, x: &Tensor, dtype: DType) -> Result<Tensor> {
    if dtype.is_differentiable() && needs_grad(&[x])? {
        let src = x.dtype();
        // The gradient comes back in the source dtype (real part for a real source).
        record(
            "ToCopyBackward0",
            &[x],
            &[&out],
            vec![],
            Box::new(move |_, g| grads![to_dtype(&g[0], src)?]),
        )?;
    }
    Ok(out)
}

/// A row-major copy (CloneBackward0), what `contiguous()` and reshape's copy need.
pub fn clone(x: &Tensor) -> Result<Tensor> {
    clone_impl(backend::contiguous(x)?, x)
}

/// `x.clone()`: a copy laid out like `x` (PyTorch's preserve_format).
pub fn clone_preserving(x: &Tensor) -> Result<Tensor> {
    let out = if x.device() == crate::device::Device::Cpu {
        Tensor::from_strided(crate::backend::cpu::layout::copy_exact_layout(
            &x.strided(),
        )?)
    } else {
        crate::backend::cast_exact(x, x.dtype())?
    };
    clone_impl(out, x)
}

/// A copy laid out with its dims in memory in `order` (outermost first), as
/// `contiguous(memory_format=torch.channels_last)` is for `[0, 2, 3, 1]` (CloneBackward0).
pub fn clone_in_order(x: &Tensor, order: &[usize]) -> Result<Tensor> {
    let nd = x.ndim();
    let mut seen = vec![false; nd];
    if order.len() != nd
        || order
            .iter()
            .any(|&d| d >= nd || std::mem::replace(&mut seen[d], true))
    {
        return Err(Error::Runtime(format!(
            "a memory order needs each of the {nd} dims once"
        )));
    }
    let out = {
        let _g = crate::grad_mode::GradModeGuard::new(false);
        let forward: Vec<i64> = order.iter().map(|&d| d as i64).collect();
        let mut back = vec![0i64; nd];
        for (i, &d) in order.iter().enumerate() {
            back[d] = i as i64;
        }
        let packed = backend::contiguous(&permute(&x.detached(), &forward)?)?;
        permute(&packed, &back)?.detached()
    };
    clone_impl(out, x)
}

fn clone_impl(out: Tensor, x: &Tensor) -> Result<Tensor> {
    if needs_grad(&[x])? {
        record(
            "CloneBackward0",
            &[x],
            &[&out],
            vec![],
            Box::new(|_, g| grads![g[0].clone()]),
        )?;
    }
    Ok(out)
}

/// `contiguous()`: the tensor itself when already contiguous, else a clone.
pub fn contiguous(x: &Tensor) -> Result<Tensor> {
    if x.is_contiguous() {
        Ok(x.clone())
    } else {
        clone(x)
    }
}

/// A copy recorded as `CopyBackwards` (how a first `.grad` looks under create_graph).
pub fn copy_backwards_clone(x: &Tensor, like: &Tensor) -> Result<Tensor> {
    let out = crate::backend::grad_copy(x, like)?;
    if needs_grad(&[x])? {
        // PyTorch's node has an edge for the overwritten destination too (it needs none here:
        // a fresh tensor that does not require grad).
        let dest = out.detached();
        record(
            "torch::autograd::CopyBackwards",
            &[&dest, x],
            &[&out],
            vec![],
            Box::new(|_, g| Ok(vec![None, Some(g[0].clone())])),
        )?;
    }
    Ok(out)
}

/// `x.to(device, dtype)` as one copy (ToCopyBackward0): the gradient goes back to x's device
/// and dtype. `.cuda()` / `.cpu()` / `.to('cuda')` of a leaf make a non-leaf, as in PyTorch.
pub fn to_copy(x: &Tensor, dtype: DType, device: crate::device::Device) -> Result<Tensor> {
    let src_dev = x.device();
    let out = if src_dev == device {
        backend::cast(x, dtype)?
    } else if x.dtype() == dtype || device.is_meta() {
        backend::to_device(x, device)?
    } else if device.is_cuda() {
        // Convert where the kernels are: cast on the host, then copy over.
        backend::to_device(&backend::cast(x, dtype)?, device)?
    } else {
        backend::cast(&backend::to_device(x, device)?, dtype)?
    };
    if dtype.is_differentiable() && needs_grad(&[x])? {
        let src_dt = x.dtype();
        record(
            "ToCopyBackward0",
            &[x],
            &[&out],
            vec![],
            Box::new(move |_, g| grads![to_copy(&g[0], src_dt, src_dev)?]),
        )?;
    }
    Ok(out)
}
