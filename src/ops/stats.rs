//! Statistics of a tensor: var/std, logsumexp and the vector norm.
use super::*;
use crate::backend;
use crate::dtype::DType;
use crate::grads;

/// Variance with `correction` (VarBackward0); `std` is its square root (StdBackward0).
pub fn var(
    x: &Tensor,
    dims: Option<&[i64]>,
    correction: f64,
    keepdim: bool,
    is_std: bool,
) -> Result<Tensor> {
    let v = VarPlan::new("std and var", x, dims, correction, keepdim, is_std)?;
    let out = v.value(x)?;
    if needs_grad(&[x])? {
        let name = if is_std {
            "StdBackward0"
        } else {
            "VarBackward0"
        };
        record(
            name,
            &[x],
            &[&out],
            // std's gradient reads the result; var's does not, and PyTorch's VarBackward0
            // saves only self (so writing into the variance leaves its backward valid)
            if is_std {
                vec![save("self", x)?, save_output("result", &out, 0)?]
            } else {
                vec![save("self", x)?]
            },
            Box::new(move |s, g| grads![v.backward(&s[0], s.get(1).unwrap_or(&s[0]), &g[0])?]),
        )?;
    }
    Ok(out)
}

/// `(var, mean)` or `(std, mean)` over the same dims, one node for both (VarMeanBackward0,
/// StdMeanBackward0), as `torch.var_mean`/`torch.std_mean`.
pub fn var_mean(
    x: &Tensor,
    dims: Option<&[i64]>,
    correction: f64,
    keepdim: bool,
    is_std: bool,
) -> Result<(Tensor, Tensor)> {
    let what = if is_std { "std_mean" } else { "var_mean" };
    let v = VarPlan::new(what, x, dims, correction, keepdim, is_std)?;
    let out = v.value(x)?;
    let m = {
        let _g = crate::grad_mode::GradModeGuard::new(false);
        mean(x, Some(&v.dims), keepdim)?
    }
    .detached();
    if needs_grad(&[x])? {
        let name = if is_std {
            "StdMeanBackward0"
        } else {
            "VarMeanBackward0"
        };
        let shape = x.shape();
        record(
            name,
            &[x],
            &[&out, &m],
            // std's gradient reads the result; var's does not (PyTorch saves it for std_mean only)
            if is_std {
                vec![save("self", x)?, save_output("result0", &out, 0)?]
            } else {
                vec![save("self", x)?]
            },
            Box::new(move |s, g| {
                let dv = v.backward(&s[0], s.get(1).unwrap_or(&s[0]), &g[0])?;
                // d mean = dL / N, spread over the reduced dims
                let gm = v.unreduce(&g[1])?;
                let dm = div(&expand(&gm, &shape)?, &Tensor::wrapped_scalar(v.n as f64))?;
                grads![add(&dv, &dm)?]
            }),
        )?;
    }
    Ok((out, m))
}

/// What var/std reduce over, and their value and gradient.
struct VarPlan {
    dims: Vec<i64>,
    n: usize,
    correction: f64,
    keepdim: bool,
    is_std: bool,
    /// No dims given, or a 0-d input: PyTorch's var_backward then takes the mean of everything
    /// (and its own rule when there are no degrees of freedom).
    all: bool,
}

impl VarPlan {
    fn new(
        what: &str,
        x: &Tensor,
        dims: Option<&[i64]>,
        correction: f64,
        keepdim: bool,
        is_std: bool,
    ) -> Result<VarPlan> {
        if !x.dtype().is_differentiable() {
            return Err(Error::NotImplemented(format!(
                "{what} only support floating point and complex dtypes"
            )));
        }
        let rd = reduce_dims(x.ndim(), dims)?;
        let shape = x.shape();
        Ok(VarPlan {
            n: rd.iter().map(|&d| shape[d]).product(),
            dims: rd.iter().map(|&d| d as i64).collect(),
            correction,
            keepdim,
            is_std,
            all: dims.is_none() || x.ndim() == 0,
        })
    }

    /// The variance (or std) of `x`, recording nothing.
    fn value(&self, x: &Tensor) -> Result<Tensor> {
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
            backend::cast(x, wide)?
        };
        let x_real = x.dtype().to_real();
        let x = &xw;
        let dims = &self.dims[..];
        let m = mean(x, Some(dims), true)?;
        let dev = sub(x, &m)?;
        let sq = mul(&dev, &conj(&dev)?)?;
        let s = sum(&sq, Some(dims), self.keepdim)?;
        let v = div(
            &s,
            &Tensor::wrapped_scalar((self.n as f64 - self.correction).max(0.0)),
        )?;
        let v = if x.dtype().is_complex() {
            backend::cast(&v, x.dtype().to_real())?
        } else {
            v
        };
        let r = if self.is_std { sqrt(&v)? } else { v };
        let r = if r.dtype() == x_real {
            r
        } else {
            backend::cast(&r, x_real)?
        };
        Ok(r.detached())
    }

    /// A reduced tensor with the reduced dims put back (size 1) when they were dropped.
    fn unreduce(&self, t: &Tensor) -> Result<Tensor> {
        let mut t = t.clone();
        if !self.keepdim {
            for &d in &self.dims {
                t = unsqueeze(&t, d)?;
            }
        }
        Ok(t)
    }

    /// The gradient for `x` of the var/std output `r` receiving `g`, in the steps (and so the
    /// roundings) of PyTorch's `std_backward` and `var_backward`.
    fn backward(&self, x: &Tensor, r: &Tensor, g: &Tensor) -> Result<Tensor> {
        let zero = || Tensor::wrapped_scalar(0.0f64);
        // std: (grad / (result * 2)).masked_fill_(result == 0, 0), then var's gradient
        let g = if self.is_std {
            let s = div(g, &mul_scalar(r, 2.0)?)?;
            where_(&compare(CmpOp::Eq, r, &zero())?, &zero(), &s)?
        } else {
            g.clone()
        };
        if !self.all {
            // (2 / (N - c)) · grad · (x - mean): a negative N - c gives a negative factor
            let gg = self.unreduce(&g)?;
            let m = mean(x, Some(&self.dims), true)?;
            let scale = mul_scalar(&gg, 2.0 / (self.n as f64 - self.correction))?;
            return mul(&scale, &sub(x, &m)?);
        }
        let m = mean(x, None, false)?;
        let dof = x.numel() as f64 - self.correction;
        if dof > 0.0 {
            return mul(&mul_scalar(&g, 2.0 / dof)?, &sub(x, &m)?);
        }
        // no degrees of freedom: grad · (NaN where x is its mean, else +inf), a real factor
        // (so a complex input's gradient has no imaginary part)
        let same = compare(CmpOp::Eq, x, &m)?;
        let w = where_(
            &same,
            &Tensor::wrapped_scalar(f64::NAN),
            &Tensor::wrapped_scalar(f64::INFINITY),
        )?;
        let out = mul(&g, &w)?;
        if x.dtype().is_complex() && !out.dtype().is_complex() {
            return backend::cast(&out, x.dtype());
        }
        Ok(out)
    }
}

/// log Σ exp(x) over dims, computed stably (LogsumexpBackward0).
pub fn logsumexp(x: &Tensor, dims: &[i64], keepdim: bool) -> Result<Tensor> {
    let xf = if x.dtype().is_differentiable() {
        x.clone()
    } else {
        backend::cast(x, crate::dtype::default_float())?
    };
    let out = if xf.numel() == 0 {
        // no max to shift by: log Σ exp over nothing is -inf (PyTorch)
        let _g = crate::grad_mode::GradModeGuard::new(false);
        log(&sum(&exp(&xf)?, Some(dims), keepdim)?)?
    } else if xf.dtype().is_complex() {
        // shifted by the max of the real parts where it is finite (PyTorch's)
        let _g = crate::grad_mode::GradModeGuard::new(false);
        let m = amax(&select(&view_as_real(&xf)?, -1, 0)?, Some(dims), true, true)?;
        let finite = compare(CmpOp::Ne, &abs(&m)?, &Tensor::wrapped_scalar(f64::INFINITY))?;
        let m = where_(&finite, &m, &Tensor::zeros(&[], m.dtype())?)?;
        let s = sum(&exp(&sub(&xf, &m)?)?, Some(dims), true)?;
        let r = add(&log(&s)?, &m)?;
        if keepdim {
            r
        } else {
            drop_reduced_dims(&r, &reduce_dims(x.ndim(), Some(dims))?)?
        }
    } else {
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
            drop_reduced_dims(&r, &reduce_dims(x.ndim(), Some(dims))?)?
        }
    };
    let out = out.detached();
    if needs_grad(&[x])? {
        let rd: Vec<i64> = reduce_dims(x.ndim(), Some(dims))?
            .iter()
            .map(|&d| d as i64)
            .collect();
        record(
            "LogsumexpBackward0",
            &[x],
            &[&out],
            vec![save("self", x)?, save_output("result", &out, 0)?],
            Box::new(move |s, g| {
                let (mut r, mut gg) = (s[1].clone(), g[0].clone());
                if !keepdim {
                    for &d in &rd {
                        r = unsqueeze(&r, d)?;
                        gg = unsqueeze(&gg, d)?;
                    }
                }
                // d lse = softmax(x) · dL (conjugated for complex: PyTorch's convention)
                let sm = exp(&sub(&s[0], &r)?)?;
                let sm = if sm.dtype().is_complex() {
                    conj(&sm)?
                } else {
                    sm
                };
                grads![mul(&gg, &sm)?]
            }),
        )?;
        super::sum::reduction_attrs(&out, Some(dims), keepdim);
    }
    Ok(out)
}

/// The gradient of `r = ‖x‖ₚ` (keepdim shape) for the incoming `g` (same shape), PyTorch's
/// `norm_backward` operation for operation (its special cases at p = 0, 1, 2, inf, p < 1 and
/// p < 2, the zeros it writes where the norm or an entry is 0, NaN entries of an inf-norm), so
/// values, NaNs and second derivatives are PyTorch's. p = 0 has no gradient (None).
fn vector_norm_backward(
    x: &Tensor,
    r: &Tensor,
    g: &Tensor,
    p: f64,
    dims: &[i64],
) -> Result<Vec<Option<Tensor>>> {
    // t with 0 where `cond` holds (`masked_fill_(cond, 0)`)
    let masked = |cond: &Tensor, t: &Tensor| -> Result<Tensor> {
        where_(cond, &Tensor::zeros(&[], t.dtype())?, t)
    };
    let at_zero_norm = |t: &Tensor| -> Result<Tensor> {
        masked(&compare(CmpOp::Eq, r, &Tensor::wrapped_scalar(0.0))?, t)
    };
    let pow = |t: &Tensor, e: f64| pow_scalar(t, &Tensor::wrapped_scalar(e));
    let d = if p == 0.0 {
        return Ok(vec![None]);
    } else if p == 1.0 {
        mul(&sgn(x)?, g)?
    } else if p == 2.0 {
        mul(g, &at_zero_norm(&div(x, r)?)?)?
    } else if p.is_infinite() {
        let a = abs(x)?;
        let is_nan = compare(CmpOp::Ne, &a, &a)?;
        let mask = where_(&is_nan, &is_nan, &compare(CmpOp::Eq, &a, r)?)?;
        let count = sum(&mask, Some(dims), true)?;
        mul(&sgn(x)?, &mul(&div(g, &count)?, &mask)?)?
    } else if p < 1.0 {
        let is_zero = compare(CmpOp::Eq, x, &Tensor::wrapped_scalar(0.0))?;
        let scaled = mul(&sgn(x)?, &masked(&is_zero, &pow(&abs(x)?, p - 1.0)?)?)?;
        mul(&mul(&scaled, g)?, &pow(r, 1.0 - p)?)?
    } else {
        let scaled = if p < 2.0 {
            mul(&sgn(x)?, &pow(&abs(x)?, p - 1.0)?)?
        } else {
            mul(x, &pow(&abs(x)?, p - 2.0)?)?
        };
        mul(&scaled, &at_zero_norm(&div(g, &pow(r, p - 1.0)?)?)?)?
    };
    grads![d]
}

/// The 2-norm over trailing dims of a contiguous float tensor by PyTorch's kernel (its bits),
/// shaped as the reduction's result; None for other norms, dims and tensors.
fn norm2_trailing(x: &Tensor, p: f64, rd: &[usize], keepdim: bool) -> Result<Option<Tensor>> {
    let shape = x.shape();
    let k = rd.len();
    let mut sorted = rd.to_vec();
    sorted.sort_unstable();
    if p != 2.0
        || k == 0
        || sorted
            .iter()
            .enumerate()
            .any(|(i, &d)| d != shape.len() - k + i)
    {
        return Ok(None);
    }
    let n: usize = shape[shape.len() - k..].iter().product();
    let Some(r) = backend::cpu::norm::norm2_rows(&x.strided(), n)? else {
        return Ok(None);
    };
    let mut out: Vec<i64> = shape[..shape.len() - k].iter().map(|&d| d as i64).collect();
    if keepdim {
        out.extend(std::iter::repeat_n(1, k));
    }
    Ok(Some(reshape(&Tensor::from_strided(r), &out)?))
}

/// The p-norm over dims (LinalgVectorNormBackward0).
pub fn norm(x: &Tensor, p: f64, dims: Option<&[i64]>, keepdim: bool) -> Result<Tensor> {
    if !x.dtype().is_differentiable() {
        return Err(Error::NotImplemented(format!(
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
        let a = || abs(x);
        if let Some(r) = norm2_trailing(x, p, &rd, keepdim)? {
            r
        } else if p.is_infinite() {
            amax(&a()?, Some(&dims_v), keepdim, p > 0.0)?
        } else if p == 0.0 {
            let a = a()?;
            let nz = backend::cast(
                &compare(CmpOp::Ne, &a, &Tensor::wrapped_scalar(0.0))?,
                a.dtype(),
            )?;
            sum(&nz, Some(&dims_v), keepdim)?
        } else {
            let s = sum(
                &pow_scalar(&a()?, &Tensor::wrapped_scalar(p))?,
                Some(&dims_v),
                keepdim,
            )?;
            pow_scalar(&s, &Tensor::wrapped_scalar(1.0 / p))?
        }
    };
    let out = out.detached();
    if needs_grad(&[x])? {
        record(
            "LinalgVectorNormBackward0",
            &[x],
            &[&out],
            vec![save("self", x)?, save_output("result", &out, 0)?],
            Box::new(move |s, g| {
                let (x, mut r, mut gg) = (&s[0], s[1].clone(), g[0].clone());
                if !keepdim {
                    for &d in &dims_v {
                        r = unsqueeze(&r, d)?;
                        gg = unsqueeze(&gg, d)?;
                    }
                }
                vector_norm_backward(x, &r, &gg, p, &dims_v)
            }),
        )?;
    }
    Ok(out)
}
