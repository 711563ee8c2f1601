//! Reductions with their own nodes: max/min along a dim (values and indices), amax/amin, prod,
//! var/std, logsumexp and the vector norm.
use super::index::{take, Plan};
use super::*;
use crate::dtype::DType;
use crate::grads;
use crate::kernels;
use crate::shape::{contiguous_strides, wrap_dim};
use std::sync::Arc;

/// For each output position (input shape with `dim` of size 1), the flat input index chosen.
fn dim_plan(shape: &[usize], dim: usize, picked: &[i64]) -> Plan {
    let st = contiguous_strides(shape);
    let mut oshape: Vec<usize> = shape.to_vec();
    oshape[dim] = 1;
    let ost = contiguous_strides(&oshape);
    Arc::new(
        picked
            .iter()
            .enumerate()
            .map(|(flat, &k)| {
                (0..shape.len())
                    .map(|d| {
                        let c = if d == dim {
                            k as usize
                        } else {
                            (flat / ost[d] as usize) % oshape[d]
                        };
                        c * st[d] as usize
                    })
                    .sum()
            })
            .collect(),
    )
}

/// `x.max(dim)` / `x.min(dim)`: (values, indices); values record MaxBackward0/MinBackward0.
pub fn max_dim(x: &Tensor, dim: i64, keepdim: bool, is_max: bool) -> Result<(Tensor, Tensor)> {
    if x.ndim() == 0 {
        wrap_dim(dim, 0)?;
        // A 0-d tensor is its own max/min, recorded under PyTorch's node name.
        let v = kernels::contiguous(x)?;
        if needs_grad(&[x]) {
            record(
                if is_max {
                    "MaxBackward0"
                } else {
                    "MinBackward0"
                },
                &[x],
                &[&v],
                vec![],
                Box::new(|_, g| grads![g[0].clone()]),
            );
        }
        return Ok((v, Tensor::scalar(0i64)));
    }
    let d = wrap_dim(dim, x.ndim())?;
    let shape = x.shape();
    if shape[d] == 0 {
        return Err(Error::Index(format!(
            "{}(): Expected reduction dim {} to have non-zero size.",
            if is_max { "max" } else { "min" },
            d
        )));
    }
    let idx = argmax(x, Some(d as i64), true, is_max)?;
    let picked = idx.try_to_vec::<i64>()?;
    let plan = dim_plan(&shape, d, &picked);
    let mut vshape = shape.clone();
    if keepdim {
        vshape[d] = 1;
    } else {
        vshape.remove(d);
    }
    let name = if is_max {
        "MaxBackward0"
    } else {
        "MinBackward0"
    };
    let vals = take(x, &plan, &vshape, name)?;
    let ishape: Vec<i64> = vshape.iter().map(|&s| s as i64).collect();
    Ok((vals, reshape(&idx, &ishape)?.detached()))
}

/// amax/amin over dims: the gradient is shared evenly among ties (AmaxBackward0).
pub fn amax(x: &Tensor, dims: Option<&[i64]>, keepdim: bool, is_max: bool) -> Result<Tensor> {
    let rd = reduce_dims(x.ndim(), dims)?;
    let dt = x.dtype();
    if dt.is_complex() {
        return Err(Error::Runtime(
            "amax(): does not support complex input".into(),
        ));
    }
    let shape = x.shape();
    if let Some(&d) = rd.iter().find(|&&d| shape[d] == 0) {
        return Err(Error::Index(format!(
            "{}(): Expected reduction dim {} to have non-zero size.",
            if is_max { "amax" } else { "amin" },
            d
        )));
    }
    let out = if x.is_cuda() {
        crate::cuda::reduce(if is_max { "amax" } else { "amin" }, x, &rd, keepdim)?
    } else {
        let _g = crate::grad_mode::GradModeGuard::new(false);
        let mut cur = x.clone();
        for &d in rd.iter().rev() {
            cur = max_dim(&cur, d as i64, true, is_max)?.0;
        }
        if keepdim {
            cur
        } else {
            let mut c = cur;
            for &d in rd.iter().rev() {
                c = squeeze_dim(&c, d as i64)?;
            }
            kernels::contiguous(&c)?
        }
    };
    let out = out.detached();
    if needs_grad(&[x]) {
        let (shape, name) = (
            x.shape(),
            if is_max {
                "AmaxBackward0"
            } else {
                "AminBackward0"
            },
        );
        let rd2 = rd.clone();
        record(
            name,
            &[x],
            &[&out],
            vec![save("self", x)?, save_output("result", &out, 0)],
            Box::new(move |s, g| {
                let mut r = s[1].clone();
                let mut gg = g[0].clone();
                if !keepdim {
                    for &d in &rd2 {
                        r = unsqueeze(&r, d as i64)?;
                        gg = unsqueeze(&gg, d as i64)?;
                    }
                }
                let mask = kernels::cast(&compare(CmpOp::Eq, &s[0], &r)?, gg.dtype())?;
                let dims: Vec<i64> = rd2.iter().map(|&d| d as i64).collect();
                let count = sum(&mask, Some(&dims), true)?;
                grads![mul(&expand(&div(&gg, &count)?, &shape)?, &mask)?]
            }),
        );
    }
    Ok(out)
}

/// Product over everything (ProdBackward0) or one dim (ProdBackward1).
pub fn prod(x: &Tensor, dim: Option<i64>, keepdim: bool) -> Result<Tensor> {
    let dt = if x.dtype().is_differentiable() {
        x.dtype()
    } else {
        DType::Int64
    };
    let src = kernels::cast(x, dt)?;
    let rd = reduce_dims(x.ndim(), dim.map(|d| vec![d]).as_deref())?;
    // prod(dim) of a 0-d tensor is the tensor, still recorded as ProdBackward1.
    let by_dim = dim.is_some();
    let dim = if rd.is_empty() { None } else { dim };
    let (vals, oshape) = if src.is_cuda() {
        let v = crate::cuda::reduce("prod", &src, &rd, true)?;
        let s = v.shape();
        (v, s)
    } else {
        crate::with_numeric!(dt, T, {
            let one = <T as crate::dtype::Element>::from_f64(1.0);
            let (v, s) = kernels::reduce::fold::<T, T>(&src, &rd, one, |a, v| a * v)?;
            (Tensor::from_vec(v, &s)?, s)
        })
    };
    let _ = oshape;
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
    if needs_grad(&[x]) {
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
            vec![save("self", x)?, save_output("result", &out, 0)],
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
                let has_zero = x
                    .try_to_vec::<num_complex::Complex64>()?
                    .iter()
                    .any(|v| v.norm() == 0.0);
                if !has_zero {
                    return grads![mul(
                        &expand(&g2, &shape)?,
                        &conj(&div(&expand(&r2, &shape)?, x)?)?
                    )?];
                }
                let d = dim.map(|_| rd[0]);
                let others = if x.is_cuda() && !crate::grad_mode::is_grad_enabled() {
                    prod_of_others(x, d)?
                } else {
                    prod_of_others_masked(x, d)?
                };
                grads![mul(&expand(&g2, &shape)?, &conj(&others)?)?]
            }),
        );
    }
    Ok(out)
}

/// For each element, the product of the other elements of its group, on the GPU: two
/// exclusive scans (no division, so zeros are fine).
fn prod_of_others(x: &Tensor, dim: Option<usize>) -> Result<Tensor> {
    let (flat, d) = match dim {
        None => (reshape(&x.detached(), &[-1])?, 0),
        Some(d) => (x.detached(), d),
    };
    let before = crate::cuda::scan("prod", &flat, d, false, true)?;
    let after = crate::cuda::scan("prod", &flat, d, true, true)?;
    let others =
        super::arith::binary_kernel(super::arith::BinOp::Mul, &before, &after, flat.dtype())?;
    let dims: Vec<i64> = x.shape().iter().map(|&s| s as i64).collect();
    reshape(&others, &dims)
}

/// For each element, the product of the other elements of its group, in O(n) and written with
/// ops, so that under create_graph it is differentiable (prod's double backward at zeros).
///
/// With `x'` = x with its zeros replaced by 1, `P'` = prod(x') over the group, `c` = the
/// group's count of zeros and `Z` = the sum of its zero elements (0, but carrying their
/// gradient):
///   c = 0: P'/x;   c = 1: P' at the zero, Z·P'/x elsewhere;   c = 2: (Z − x)·P' at the zeros,
///   0 elsewhere;   c > 2: 0.
/// The values are exact, and so are their first derivatives (the second derivative of prod);
/// higher derivatives are exact while a group has at most one zero.
fn prod_of_others_masked(x: &Tensor, dim: Option<usize>) -> Result<Tensor> {
    let (flat, d) = match dim {
        None => (reshape(x, &[-1])?, 0i64),
        Some(d) => (x.clone(), d as i64),
    };
    let zero = Tensor::wrapped_scalar(0.0f64);
    let one = Tensor::wrapped_scalar(1.0f64);
    let (is_zero, count) = {
        let _g = crate::grad_mode::GradModeGuard::new(false);
        let z = compare(CmpOp::Eq, &flat, &zero)?;
        let c = sum(&kernels::cast(&z, DType::Int64)?, Some(&[d]), true)?;
        (z, c)
    };
    let c_is = |n: f64| -> Result<Tensor> {
        let _g = crate::grad_mode::GradModeGuard::new(false);
        expand(
            &compare(CmpOp::Eq, &count, &Tensor::wrapped_scalar(n))?,
            &flat.shape(),
        )
    };
    let xp = where_(&is_zero, &one, &flat)?;
    let p = prod(&xp, Some(d), true)?;
    let zsum = sum(&where_(&is_zero, &flat, &zero)?, Some(&[d]), true)?;
    let p_over = div(&p, &xp)?;
    let c1 = where_(&is_zero, &p, &mul(&zsum, &p_over)?)?;
    let c2 = where_(&is_zero, &mul(&sub(&zsum, &flat)?, &p)?, &zero)?;
    let out = where_(
        &c_is(0.0)?,
        &p_over,
        &where_(&c_is(1.0)?, &c1, &where_(&c_is(2.0)?, &c2, &zero)?)?,
    )?;
    let dims: Vec<i64> = x.shape().iter().map(|&s| s as i64).collect();
    reshape(&out, &dims)
}

/// Variance with `correction` (VarBackward0); `std` is its square root (StdBackward0).
pub fn var(
    x: &Tensor,
    dims: Option<&[i64]>,
    correction: f64,
    keepdim: bool,
    is_std: bool,
) -> Result<Tensor> {
    if !x.dtype().is_differentiable() {
        return Err(Error::Runtime(
            "std and var only support floating point and complex dtypes".into(),
        ));
    }
    let rd = reduce_dims(x.ndim(), dims)?;
    let shape = x.shape();
    let n: usize = rd.iter().map(|&d| shape[d]).product();
    let dims_i: Vec<i64> = rd.iter().map(|&d| d as i64).collect();
    let x_dtype_real = x.dtype().to_real();
    let out = {
        let _g = crate::grad_mode::GradModeGuard::new(false);
        // Single-precision inputs accumulate in double, as PyTorch's CPU kernels do (so the std
        // of values near float32's limit does not overflow in the squares).
        let wide = match x.dtype() {
            DType::Float32 | DType::Float16 | DType::BFloat16 => DType::Float64,
            DType::Complex64 => DType::Complex128,
            d => d,
        };
        let xw = if wide == x.dtype() {
            x.clone()
        } else {
            kernels::cast(x, wide)?
        };
        let x = &xw;
        let m = mean(x, Some(&dims_i), true)?;
        let dev = sub(x, &m)?;
        let sq = mul(&dev, &conj(&dev)?)?;
        let s = sum(&sq, Some(&dims_i), keepdim)?;
        let v = div(
            &s,
            &Tensor::wrapped_scalar((n as f64 - correction).max(0.0)),
        )?;
        let v = if x.dtype().is_complex() {
            kernels::cast(&v, x.dtype().to_real())?
        } else {
            v
        };
        let r = if is_std { sqrt(&v)? } else { v };
        let target = x_dtype_real;
        if r.dtype() == target {
            r
        } else {
            kernels::cast(&r, target)?
        }
    };
    let out = out.detached();
    if needs_grad(&[x]) {
        let name = if is_std {
            "StdBackward0"
        } else {
            "VarBackward0"
        };
        record(
            name,
            &[x],
            &[&out],
            vec![save("self", x)?, save_output("result", &out, 0)],
            Box::new(move |s, g| {
                let m = mean(&s[0], Some(&dims_i), true)?;
                let dev = sub(&s[0], &m)?;
                let mut gg = g[0].clone();
                let mut r = s[1].clone();
                if !keepdim {
                    for &d in &dims_i {
                        gg = unsqueeze(&gg, d)?;
                        r = unsqueeze(&r, d)?;
                    }
                }
                let denom = (n as f64 - correction).max(0.0);
                // dvar = 2 (x - mean) / (N - c) · dL ;  dstd = dvar / (2 std)
                let scale = if is_std {
                    // Where std == 0 the gradient is 0 (PyTorch masks the 0/0).
                    let s = div(&gg, &mul_scalar(&r, denom)?)?;
                    let zero = compare(CmpOp::Eq, &r, &Tensor::wrapped_scalar(0.0f64))?;
                    where_(&zero, &Tensor::wrapped_scalar(0.0f64), &s)?
                } else {
                    mul_scalar(&gg, 2.0 / denom)?
                };
                grads![mul(&dev, &scale)?]
            }),
        );
    }
    Ok(out)
}

/// log Σ exp(x) over dims, computed stably (LogsumexpBackward0).
pub fn logsumexp(x: &Tensor, dims: &[i64], keepdim: bool) -> Result<Tensor> {
    let xf = if x.dtype().is_differentiable() {
        x.clone()
    } else {
        kernels::cast(x, DType::Float32)?
    };
    let out = {
        let _g = crate::grad_mode::GradModeGuard::new(false);
        let m = amax(&xf, Some(dims), true, true)?;
        // Shift by the max where it is finite; an infinite max is the answer itself.
        let finite = compare(CmpOp::Ne, &abs(&m)?, &Tensor::wrapped_scalar(f64::INFINITY))?;
        let shift = where_(&finite, &m, &Tensor::zeros(&[], m.dtype())?)?;
        let s = sum(&exp(&sub(&xf, &shift)?)?, Some(dims), true)?;
        let r = add(&log(&s)?, &shift)?;
        let r = where_(&finite, &r, &m)?;
        if keepdim {
            r
        } else {
            let rd = reduce_dims(x.ndim(), Some(dims))?;
            let mut c = r;
            for &d in rd.iter().rev() {
                c = squeeze_dim(&c, d as i64)?;
            }
            kernels::contiguous(&c)?
        }
    };
    let out = out.detached();
    if needs_grad(&[x]) {
        let rd: Vec<i64> = reduce_dims(x.ndim(), Some(dims))?
            .iter()
            .map(|&d| d as i64)
            .collect();
        record(
            "LogsumexpBackward0",
            &[x],
            &[&out],
            vec![save("self", x)?, save_output("result", &out, 0)],
            Box::new(move |s, g| {
                let (mut r, mut gg) = (s[1].clone(), g[0].clone());
                if !keepdim {
                    for &d in &rd {
                        r = unsqueeze(&r, d)?;
                        gg = unsqueeze(&gg, d)?;
                    }
                }
                // d lse = softmax(x) · dL
                grads![mul(&gg, &exp(&sub(&s[0], &r)?)?)?]
            }),
        );
    }
    Ok(out)
}

/// The p-norm over dims (LinalgVectorNormBackward0).
pub fn norm(x: &Tensor, p: f64, dims: Option<&[i64]>, keepdim: bool) -> Result<Tensor> {
    if !x.dtype().is_differentiable() {
        return Err(Error::Runtime(format!(
            "linalg.vector_norm: Expected a floating point or complex tensor as input. Got {}",
            x.dtype().scalar_type_name()
        )));
    }
    let rd = reduce_dims(x.ndim(), dims)?;
    let shape = x.shape();
    if (p < 0.0 || p.is_infinite()) && rd.iter().any(|&d| shape[d] == 0) {
        let ps = if p.is_infinite() {
            if p > 0.0 {
                "inf".to_string()
            } else {
                "-inf".to_string()
            }
        } else if p.fract() == 0.0 {
            format!("{}", p as i64)
        } else {
            format!("{}", p)
        };
        return Err(Error::Runtime(format!(
            "linalg.vector_norm cannot compute the {ps} norm on an empty tensor because the operation does not have an identity"
        )));
    }
    let dims_v: Vec<i64> = rd.iter().map(|&d| d as i64).collect();
    let out = {
        let _g = crate::grad_mode::GradModeGuard::new(false);
        let a = abs(x)?;
        if p.is_infinite() {
            amax(&a, Some(&dims_v), keepdim, p > 0.0)?
        } else if p == 0.0 {
            let nz = kernels::cast(
                &compare(CmpOp::Ne, &a, &Tensor::wrapped_scalar(0.0))?,
                a.dtype(),
            )?;
            sum(&nz, Some(&dims_v), keepdim)?
        } else {
            let s = sum(
                &pow_scalar(&a, &Tensor::wrapped_scalar(p))?,
                Some(&dims_v),
                keepdim,
            )?;
            pow_scalar(&s, &Tensor::wrapped_scalar(1.0 / p))?
        }
    };
    let out = out.detached();
    if needs_grad(&[x]) {
        record(
            "LinalgVectorNormBackward0",
            &[x],
            &[&out],
            vec![save("self", x)?, save_output("result", &out, 0)],
            Box::new(move |s, g| {
                let (x, mut r, mut gg) = (&s[0], s[1].clone(), g[0].clone());
                if !keepdim {
                    for &d in &dims_v {
                        r = unsqueeze(&r, d)?;
                        gg = unsqueeze(&gg, d)?;
                    }
                }
                let a = abs(x)?;
                let sg = sgn(x)?;
                let d = if p.is_infinite() {
                    let mask = kernels::cast(&compare(CmpOp::Eq, &a, &r)?, a.dtype())?;
                    let count = sum(&mask, Some(&dims_v), true)?;
                    mul(&sg, &div(&mask, &count)?)?
                } else if p == 0.0 {
                    mul_scalar(&a, 0.0)?
                } else {
                    // d‖x‖ₚ = sgn(x) |x|^(p-1) / ‖x‖ₚ^(p-1), 0 where the norm is 0
                    let num = mul(&sg, &pow_scalar(&a, &Tensor::wrapped_scalar(p - 1.0))?)?;
                    let den = pow_scalar(&r, &Tensor::wrapped_scalar(p - 1.0))?;
                    let q = div(&num, &den)?;
                    let ok = compare(
                        CmpOp::Ne,
                        &expand(&r, &q.shape())?,
                        &Tensor::wrapped_scalar(0.0),
                    )?;
                    where_(&ok, &q, &Tensor::zeros(&[], q.dtype())?)?
                };
                grads![mul(&gg, &d)?]
            }),
        );
    }
    Ok(out)
}

/// Cumulative sum along `dim` (CumsumBackward0); `reverse` sums from the end, which is its
/// gradient. Integer and bool inputs sum in int64, half types in float32.
pub fn cumsum(x: &Tensor, dim: i64, reverse: bool) -> Result<Tensor> {
    let dt = x.dtype();
    let work = match dt {
        DType::Bool | DType::UInt8 | DType::Int32 => DType::Int64,
        DType::Float16 | DType::BFloat16 => DType::Float32,
        d => d,
    };
    let shape = x.shape();
    let d = wrap_dim(dim, shape.len())?;
    let c = kernels::cast(x, work)?;
    let out = if shape.is_empty() {
        // the running sum of one number is that number (still CumsumBackward0 in PyTorch)
        kernels::cast(
            &c,
            if dt.is_differentiable() {
                dt
            } else {
                DType::Int64
            },
        )?
    } else {
        cumsum_kernel(&c, &shape, d, work, reverse)?
    };
    let out = if dt.is_differentiable() && work != dt {
        kernels::cast(&out, dt)?
    } else {
        out
    };
    if needs_grad(&[x]) {
        // d cumsum = the reversed cumulative sum of dL
        record(
            "CumsumBackward0",
            &[x],
            &[&out],
            vec![],
            Box::new(move |_, g| grads![cumsum(&g[0], d as i64, !reverse)?]),
        );
    }
    Ok(out)
}

fn cumsum_kernel(
    c: &Tensor,
    shape: &[usize],
    d: usize,
    work: DType,
    reverse: bool,
) -> Result<Tensor> {
    let n = shape[d];
    let inner: usize = shape[d + 1..].iter().product();
    let outer: usize = shape[..d].iter().product();
    let out = if c.is_cuda() {
        crate::cuda::scan("sum", c, d, reverse, false)?
    } else {
        crate::with_numeric!(work, T, {
            let v = c.try_to_vec::<T>()?;
            let mut o = v.clone();
            for a in 0..outer {
                for i in 0..inner {
                    let mut acc = T::default();
                    for step in 0..n {
                        let k = if reverse { n - 1 - step } else { step };
                        let idx = (a * n + k) * inner + i;
                        acc += v[idx];
                        o[idx] = acc;
                    }
                }
            }
            Tensor::from_vec(o, shape)?
        })
    };
    Ok(out)
}
