//! Matrix structure and rearrangements: the triangles (tril/triu), the diagonal (diag, trace),
//! cyclic shifts (roll), flips, and complex(real, imag), each one node with PyTorch's name and its derivative written with ops: reading by an
//! index plan (`take`) and writing back (`put_add`), each the other's gradient.
use super::index::{put_add, take, Plan};
use super::*;
use crate::backend;
use crate::grad_mode::GradModeGuard;
use crate::grads;
use std::sync::Arc;

/// The mask of the lower (or upper) triangle of the last two dims, on x's device.
fn tri_mask(x: &Tensor, diagonal: i64, lower: bool) -> Result<Tensor> {
    let s = x.shape();
    let (rows, cols) = (s[s.len() - 2], s[s.len() - 1]);
    let mut m = Vec::with_capacity(rows * cols);
    for r in 0..rows as i64 {
        for c in 0..cols as i64 {
            m.push(if lower {
                c - r <= diagonal
            } else {
                c - r >= diagonal
            });
        }
    }
    let m = Tensor::from_vec(m, &[rows, cols])?;
    match x.device() {
        crate::device::Device::Cpu => Ok(m),
        d => backend::to_device(&m, d),
    }
}

fn tri(x: &Tensor, diagonal: i64, lower: bool) -> Result<Tensor> {
    let name = if lower { "tril" } else { "triu" };
    if x.ndim() < 2 {
        return Err(Error::Runtime(format!(
            "{name}: input tensor must have at least 2 dimensions"
        )));
    }
    let out = {
        let _g = GradModeGuard::new(false);
        // a select, not a product: NaN and inf above the diagonal become 0 too
        let zero = Tensor::zeros(&[], x.dtype())?;
        backend::contiguous(&where_(&tri_mask(x, diagonal, lower)?, x, &zero)?)?.detached()
    };
    if out.dtype().is_differentiable() && needs_grad(&[x])? {
        record(
            if lower {
                "TrilBackward0"
            } else {
                "TriuBackward0"
            },
            &[x],
            &[&out],
            vec![],
            Box::new(move |_, g| grads![tri(&g[0], diagonal, lower)?]),
        )?;
    }
    Ok(out)
}

/// The lower triangle (TrilBackward0): zeros above `diagonal`.
pub fn tril(x: &Tensor, diagonal: i64) -> Result<Tensor> {
    crate::dtype::shell_kernel_check(x.dtype(), "tril")?;
    tri(x, diagonal, true)
}

/// The upper triangle (TriuBackward0): zeros below `diagonal`.
pub fn triu(x: &Tensor, diagonal: i64) -> Result<Tensor> {
    crate::dtype::shell_kernel_check(x.dtype(), "triu")?;
    tri(x, diagonal, false)
}

/// The flat indices of the `diagonal`-th diagonal of a [rows, cols] matrix.
fn diagonal_plan(rows: usize, cols: usize, diagonal: i64) -> Plan {
    let (r0, c0) = if diagonal >= 0 {
        (0, diagonal as usize)
    } else {
        ((-diagonal) as usize, 0)
    };
    let n = rows.saturating_sub(r0).min(cols.saturating_sub(c0));
    Arc::new((0..n).map(|i| (r0 + i) * cols + c0 + i).collect())
}

/// The sum of a matrix's diagonal (TraceBackward0).
pub fn trace(x: &Tensor) -> Result<Tensor> {
    crate::dtype::shell_kernel_check(x.dtype(), "trace")?;
    if x.ndim() != 2 {
        return Err(Error::Runtime(format!(
            "trace: expected a matrix, but got tensor with dim {}",
            x.ndim()
        )));
    }
    let s = x.shape();
    let (rows, cols) = (s[0], s[1]);
    let plan = diagonal_plan(rows, cols, 0);
    let out = {
        let _g = GradModeGuard::new(false);
        let d = take(x, &plan, &[plan.len()], "TraceBackward0")?;
        sum(&d, None, false)?.detached()
    };
    if out.dtype().is_differentiable() && needs_grad(&[x])? {
        record(
            "TraceBackward0",
            &[x],
            &[&out],
            vec![],
            Box::new(move |_, g| {
                // d trace = dL on the diagonal, 0 elsewhere
                let k = plan.len();
                grads![put_add(&[rows, cols], &plan, &expand(&g[0], &[k])?)?]
            }),
        )?;
    }
    Ok(out)
}

/// `torch.diag`: a vector as the `diagonal`-th diagonal of a square matrix
/// (DiagEmbedBackward0), or a matrix's `diagonal`-th diagonal as a vector.
pub fn diag(x: &Tensor, diagonal: i64) -> Result<Tensor> {
    match x.ndim() {
        1 => {
            let k = x.shape()[0];
            let n = k + diagonal.unsigned_abs() as usize;
            let plan = diagonal_plan(n, n, diagonal);
            let out = {
                let _g = GradModeGuard::new(false);
                let z = Tensor::zeros_on(&[n, n], x.dtype(), x.device())?;
                backend::put(&z, &plan, &backend::contiguous(x)?, false)?;
                z
            };
            if out.dtype().is_differentiable() && needs_grad(&[x])? {
                record(
                    "DiagEmbedBackward0",
                    &[x],
                    &[&out],
                    vec![],
                    Box::new(move |_, g| grads![take(&g[0], &plan, &[k], "DiagonalBackward0")?]),
                )?;
            }
            Ok(out)
        }
        2 => {
            let s = x.shape();
            let (rows, cols) = (s[0], s[1]);
            let plan = diagonal_plan(rows, cols, diagonal);
            let k = plan.len();
            let out = {
                let _g = GradModeGuard::new(false);
                take(x, &plan, &[k], "DiagonalBackward0")?.detached()
            };
            if out.dtype().is_differentiable() && needs_grad(&[x])? {
                record(
                    "DiagonalBackward0_copy",
                    &[x],
                    &[&out],
                    vec![],
                    Box::new(move |_, g| grads![put_add(&[rows, cols], &plan, &g[0])?]),
                )?;
            }
            Ok(out)
        }
        d => Err(Error::Runtime(format!(
            "diag(): Supports 1D or 2D tensors. Got {d}D"
        ))),
    }
}

/// Elements shifted cyclically by `shifts` along `dims` (the flattened tensor when `dims` is
/// empty): RollBackward0, whose gradient rolls back.
pub fn roll(x: &Tensor, shifts: &[i64], dims: &[i64]) -> Result<Tensor> {
    let shape = x.shape();
    let nd = shape.len();
    let flat = dims.is_empty();
    if flat && shifts.len() != 1 {
        return Err(Error::Runtime(format!(
            "shifts and dimensions must align. shifts: {}, dims:{}",
            shifts.len(),
            dims.len()
        )));
    }
    if !flat && shifts.len() != dims.len() {
        return Err(Error::Runtime(format!(
            "shifts and dimensions must align. shifts: {}, dims:{}",
            shifts.len(),
            dims.len()
        )));
    }
    // the shift of each dim of the (flattened, if no dims) tensor
    let (vshape, mut by): (Vec<usize>, Vec<i64>) = if flat {
        (vec![shape.iter().product()], vec![0])
    } else {
        (shape.to_vec(), vec![0; nd])
    };
    if flat {
        by[0] = shifts[0];
    } else {
        for (&s, &d) in shifts.iter().zip(dims) {
            let d = crate::shape::wrap_dim(d, nd)?;
            by[d] += s;
        }
    }
    let n: usize = vshape.iter().product();
    let strides = crate::shape::contiguous_strides(&vshape);
    let mut plan = Vec::with_capacity(n);
    let mut idx = vec![0usize; vshape.len()];
    for _ in 0..n {
        let mut src = 0usize;
        for (d, &i) in idx.iter().enumerate() {
            let len = vshape[d] as i64;
            let j = (i as i64 - by[d]).rem_euclid(len.max(1));
            src += j as usize * strides[d] as usize;
        }
        plan.push(src);
        for d in (0..idx.len()).rev() {
            idx[d] += 1;
            if idx[d] < vshape[d] {
                break;
            }
            idx[d] = 0;
        }
    }
    let plan: Plan = Arc::new(plan);
    let out = {
        let _g = GradModeGuard::new(false);
        take(x, &plan, &shape, "RollBackward0")?.detached()
    };
    if needs_grad(&[x])? {
        let back: Vec<i64> = shifts.iter().map(|s| -s).collect();
        let dims = dims.to_vec();
        record(
            "RollBackward0",
            &[x],
            &[&out],
            vec![],
            Box::new(move |_, g| grads![roll(&g[0], &back, &dims)?]),
        )?;
    }
    Ok(out)
}

/// Reversed along `dims` (FlipBackward0, whose gradient flips back). The result keeps the
/// input's memory layout, as PyTorch's does.
pub fn flip(x: &Tensor, dims: &[i64]) -> Result<Tensor> {
    let (shape, strides) = {
        let d = x.data();
        (d.shape.clone(), d.strides.clone())
    };
    let nd = shape.len();
    // every dim in range first, then no dim twice (a 0-d tensor has the one dim 0), as PyTorch
    let wrapped = dims
        .iter()
        .map(|&d| crate::shape::wrap_dim(d, nd.max(1)))
        .collect::<Result<Vec<usize>>>()?;
    let mut flipped = vec![false; nd.max(1)];
    for w in wrapped {
        if flipped[w] {
            return Err(Error::Runtime(format!(
                "dim {} appears multiple times in the list of dims",
                w
            )));
        }
        flipped[w] = true;
    }
    flipped.truncate(nd);
    let n: usize = shape.iter().product();
    let cs = crate::shape::contiguous_strides(&shape);
    let mut plan = Vec::with_capacity(n);
    let mut idx = vec![0usize; nd];
    for _ in 0..n {
        let src: usize = (0..nd)
            .map(|d| {
                let i = if flipped[d] {
                    shape[d] - 1 - idx[d]
                } else {
                    idx[d]
                };
                i * cs[d] as usize
            })
            .sum();
        plan.push(src);
        for d in (0..nd).rev() {
            idx[d] += 1;
            if idx[d] < shape[d] {
                break;
            }
            idx[d] = 0;
        }
    }
    let out = {
        let _g = GradModeGuard::new(false);
        let v = backend::take(x, &plan, &shape)?;
        match backend::cpu::layout::result_strides(&shape, &[(&shape, &strides)]) {
            None => v,
            Some(st) => {
                let out = backend::empty(&[n], x.dtype(), x.device())?.restrided(&shape, &st, 0);
                backend::copy_into(&out, &v)?;
                out
            }
        }
    };
    if out.dtype().is_differentiable() && needs_grad(&[x])? {
        let dims = dims.to_vec();
        record(
            "FlipBackward0",
            &[x],
            &[&out],
            vec![],
            Box::new(move |_, g| grads![flip(&g[0], &dims)?]),
        )?;
    }
    Ok(out)
}

/// `real + i·imag` (ComplexBackward0), broadcast: each part written into the result's real or
/// imaginary half, so inf and NaN parts stay where they are. The gradient of each part is the
/// real or imaginary part of the gradient.
pub fn complex(real: &Tensor, imag: &Tensor) -> Result<Tensor> {
    if real.dtype() != imag.dtype() {
        return Err(Error::Runtime(format!(
            "Expected object of scalar type {} but got scalar type {} for second argument",
            real.dtype().scalar_type_name(),
            imag.dtype().scalar_type_name()
        )));
    }
    let cdt = match real.dtype() {
        crate::dtype::DType::Float32 => crate::dtype::DType::Complex64,
        crate::dtype::DType::Float64 => crate::dtype::DType::Complex128,
        d => {
            return Err(Error::NotImplemented(format!(
                "Expected both inputs to be Half, Float or Double tensors but got {} and {}",
                d.scalar_type_name(),
                d.scalar_type_name()
            )))
        }
    };
    let shape = crate::shape::broadcast_shapes(&real.shape(), &imag.shape())?;
    let out = {
        let _g = GradModeGuard::new(false);
        let out = Tensor::zeros_on(&shape, cdt, real.device())?;
        let parts = view_as_real(&out)?;
        backend::copy_into(&select(&parts, -1, 0)?, real)?;
        backend::copy_into(&select(&parts, -1, 1)?, imag)?;
        out
    };
    if needs_grad(&[real, imag])? {
        record(
            "ComplexBackward0",
            &[real, imag],
            &[&out],
            vec![],
            Box::new(|_, g| {
                let parts = view_as_real(&g[0])?;
                grads![select(&parts, -1, 0)?, select(&parts, -1, 1)?]
            }),
        )?;
    }
    Ok(out)
}
