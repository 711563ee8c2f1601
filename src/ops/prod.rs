//! Products: prod over everything or one dim, and the product of the other elements that its
//! gradient needs.
use super::*;
use crate::backend::{self, ReduceKernel, ScanKernel};
use crate::dtype::DType;
use crate::grads;

/// Product over everything (ProdBackward0) or one dim (ProdBackward1).
pub fn prod(x: &Tensor, dim: Option<i64>, keepdim: bool) -> Result<Tensor> {
    let dt = if x.dtype().is_differentiable() {
        x.dtype()
    } else {
        DType::Int64
    };
    let src = backend::cast(x, dt)?;
    let rd = reduce_dims(x.ndim(), dim.map(|d| vec![d]).as_deref())?;
    // prod(dim) of a 0-d tensor is the tensor, still recorded as ProdBackward1.
    let by_dim = dim.is_some();
    let dim = if rd.is_empty() { None } else { dim };
    let vals = backend::reduce(ReduceKernel::Prod, &src, &rd, true)?;
    let out = if keepdim || dim.is_none() {
        if dim.is_none() {
            reshape(&vals, &[])?
        } else {
            vals
        }
    } else {
        squeeze_dim(&vals, rd[0] as i64)?
    };
    let out = out.detached();
    if needs_grad(&[x])? {
        let name = if by_dim {
            "ProdBackward1"
        } else {
            "ProdBackward0"
        };
        let shape = x.shape();
        record(
            name,
            &[x],
            &[&out],
            vec![save("self", x)?, save_output("result", &out, 0)?],
            Box::new(move |s, g| {
                // d prod = prod / x · dL where x ≠ 0; at zeros, the product of the others.
                let (x, r) = (&s[0], &s[1]);
                if x.ndim() == 0 {
                    // the product of one number is that number: the gradient passes as is
                    return grads![g[0].clone()];
                }
                let (mut r2, mut g2) = (r.clone(), g[0].clone());
                if dim.is_some() && !keepdim {
                    r2 = unsqueeze(&r2, rd[0] as i64)?;
                    g2 = unsqueeze(&g2, rd[0] as i64)?;
                }
                let zeros = x
                    .try_to_vec::<num_complex::Complex64>()?
                    .iter()
                    .filter(|v| v.norm() == 0.0)
                    .count();
                if zeros == 0 {
                    return grads![mul(
                        &expand(&g2, &shape)?,
                        &conj(&div(&expand(&r2, &shape)?, x)?)?
                    )?];
                }
                // PyTorch's prod_backward: with a zero anywhere in the input, every group's
                // gradient is the product of its other elements (`prod_safe_zeros_backward`),
                // except that several zeros over everything give zeros outside grad mode
                grads![match dim {
                    Some(_) => safe_zeros_backward(&g2, x, rd[0])?,
                    None if zeros > 1 && !crate::grad_mode::is_grad_enabled() => {
                        zeros_like_grad(x)?
                    }
                    None => {
                        let dims: Vec<i64> = shape.iter().map(|&s| s as i64).collect();
                        let flat = reshape(x, &[-1])?;
                        reshape(&safe_zeros_backward(&g2, &flat, 0)?, &dims)?
                    }
                }]
            }),
        )?;
    }
    Ok(out)
}

/// PyTorch's `prod_safe_zeros_backward`: `g` times, for each element, the product of the other
/// elements of its group along `dim`, as an exclusive running product from each end (no
/// division, so zeros and infinities are fine); written with ops, so create_graph
/// differentiates it as PyTorch does.
fn safe_zeros_backward(g: &Tensor, x: &Tensor, dim: usize) -> Result<Tensor> {
    let shape = x.shape();
    if x.numel() == 0 {
        return expand(g, &shape);
    }
    let (n, d) = (shape[dim] as i64, dim as i64);
    let mut ones_shape = shape.clone();
    ones_shape[dim] = 1;
    let one = num_complex::Complex64::new(1.0, 0.0);
    let ones = Tensor::full_on(&ones_shape, one, g.dtype(), g.device())?;
    let head = slice(x, d, Some(0), Some(n - 1), 1)?;
    let before = cumprod(&cat(&[ones.clone(), head], d)?, d)?;
    let tail = flip(&slice(x, d, Some(1), Some(n), 1)?, &[d])?;
    let after = flip(&cumprod(&cat(&[ones, tail], d)?, d)?, &[d])?;
    mul(g, &conj(&mul(&before, &after)?)?)
}

/// Cumulative product along `dim` (CumprodBackward0): integers and bools multiply in int64,
/// 16-bit floats in float32 rounded once, as PyTorch's CPU kernel.
pub fn cumprod(x: &Tensor, dim: i64) -> Result<Tensor> {
    let dt = x.dtype();
    // PyTorch's CPU scan accumulates in acc_type: double for float32 (and complex<double> for
    // complex64), each output rounded once; float for the 16-bit floats
    let work = match dt {
        DType::Float16 | DType::BFloat16 => DType::Float32,
        DType::Float32 if !x.is_cuda() => DType::Float64,
        DType::Complex64 if !x.is_cuda() => DType::Complex128,
        d if !d.is_differentiable() => DType::Int64,
        d => d,
    };
    let shape = x.shape();
    let d = crate::shape::wrap_dim(dim, shape.len())?;
    let c = backend::cast(x, work)?;
    let out = if shape.is_empty() {
        c
    } else {
        backend::scan(ScanKernel::Prod, &c, d, false, false)?
    };
    let out = if dt.is_differentiable() && work != dt {
        backend::cast(&out, dt)?
    } else {
        out
    };
    if needs_grad(&[x])? {
        record(
            "CumprodBackward0",
            &[x],
            &[&out],
            vec![save("self", x)?, save_output("result", &out, 0)?],
            Box::new(move |s, g| grads![cumprod_backward(&g[0], &s[0], d, &s[1])?]),
        )?;
    }
    Ok(out)
}

/// PyTorch's cumprod_backward, written with ops (so create_graph differentiates it): without
/// zeros, the reversed cumulative sum of `result · dL` over `x`; with zeros, that before each
/// slice's first zero, at the first zero the product before it times Σ_{j ≥ z} dL_j ·
/// Π_{z < m ≤ j} x_m, and 0 after it.
fn cumprod_backward(g: &Tensor, x: &Tensor, d: usize, out: &Tensor) -> Result<Tensor> {
    if x.ndim() == 0 || x.numel() <= 1 || x.shape()[d] == 1 {
        return Ok(g.clone());
    }
    let di = d as i64;
    let (xc, oc) = (conj(x)?, conj(out)?);
    let has_zero = x
        .try_to_vec::<num_complex::Complex64>()?
        .iter()
        .any(|v| v.norm() == 0.0);
    let rev = |t: &Tensor| super::sum::cumsum(t, di, true);
    if !has_zero {
        return div(&rev(&mul(&oc, g)?)?, &xc);
    }
    if crate::grad_mode::is_grad_enabled() {
        // create_graph: PyTorch's O(n²) form, whose derivative is cumprod's second derivative
        // (the O(n) one below is constant in the zeros it masks)
        return cumprod_backward_differentiable(g, &xc, d);
    }
    let (zero, one) = (
        Tensor::wrapped_scalar(0.0f64),
        Tensor::wrapped_scalar(1.0f64),
    );
    let (before, first, after) = {
        let _g = crate::grad_mode::GradModeGuard::new(false);
        let is_zero = compare(CmpOp::Eq, x, &zero)?;
        let seen = super::sum::cumsum(&backend::cast(&is_zero, DType::Int64)?, di, false)?;
        let none_yet = compare(CmpOp::Eq, &seen, &Tensor::wrapped_scalar(0i64))?;
        let first = bitwise(
            BitOp::And,
            &is_zero,
            &compare(CmpOp::Eq, &seen, &Tensor::wrapped_scalar(1i64))?,
        )?;
        let after = compare(CmpOp::Ne, &seen, &Tensor::wrapped_scalar(0i64))?;
        (none_yet, first, after)
    };
    let x_before = where_(&before, &xc, &one)?;
    let until_zero = where_(&before, &div(&rev(&mul(&oc, g)?)?, &x_before)?, &zero)?;
    let prefix = cumprod(&x_before, di)?;
    let from_zero = cumprod(&where_(&after, &where_(&first, &one, &xc)?, &one)?, di)?;
    let tail = rev(&where_(&after, &mul(g, &from_zero)?, &zero)?)?;
    where_(&first, &mul(&prefix, &tail)?, &until_zero)
}

/// dL/dx_k = Π_{i<k} x_i · (dL_k + Σ_{j>k} dL_j · Π_{k<i≤j} x_i), one slice at a time.
fn cumprod_backward_differentiable(g: &Tensor, xc: &Tensor, d: usize) -> Result<Tensor> {
    let (n, di) = (xc.shape()[d] as i64, d as i64);
    let mut slices = Vec::with_capacity(n as usize);
    for k in 0..n {
        let mut term = select(g, di, k)?;
        if k + 1 < n {
            let after = cumprod(&slice(xc, di, Some(k + 1), None, 1)?, di)?;
            let weighted = mul(&slice(g, di, Some(k + 1), None, 1)?, &after)?;
            term = add(&term, &sum(&weighted, Some(&[di]), false)?)?;
        }
        if k > 0 {
            term = mul(
                &prod(&slice(xc, di, Some(0), Some(k), 1)?, Some(di), false)?,
                &term,
            )?;
        }
        slices.push(term);
    }
    super::join::stack(&slices, di)
}
