//! The normalisations with nodes of their own: layer_norm (NativeLayerNormBackward0),
//! batch_norm (NativeBatchNormBackward0; instance_norm is batch_norm under a view) and
//! group_norm (NativeGroupNormBackward0). Backward formulas are written with ops, so second
//! derivatives work through them too.
use super::*;
use crate::backend;
use crate::dtype::DType;
use crate::grad_mode::GradModeGuard;
use crate::shape::{contiguous_strides, fmt_shape};
use std::sync::Arc;

/// A normalisation's differentiable inputs: `x`, then the weight and bias it was given.
fn with_affine<'a>(
    x: &'a Tensor,
    weight: Option<&'a Tensor>,
    bias: Option<&'a Tensor>,
) -> Vec<&'a Tensor> {
    std::iter::once(x).chain(weight).chain(bias).collect()
}

/// Layer normalisation over the last dims (NativeLayerNormBackward0).
pub fn layer_norm(
    x: &Tensor,
    normalized: &[usize],
    weight: Option<&Tensor>,
    bias: Option<&Tensor>,
    eps: f64,
) -> Result<Tensor> {
    let xs = x.shape();
    let k = normalized.len();
    if k == 0 {
        return Err(Error::Runtime("Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, but got normalized_shape = []".into()));
    }
    if xs.len() < k || xs[xs.len() - k..] != *normalized {
        return Err(Error::Runtime(format!(
            "Given normalized_shape={}, expected input with shape [*, {}], but got input of size{}",
            fmt_shape(normalized),
            normalized
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            fmt_shape(&xs)
        )));
    }
    let dims: Vec<i64> = ((xs.len() - k)..xs.len()).map(|d| d as i64).collect();
    let norm_parts = move |x: &Tensor| -> Result<(Tensor, Tensor)> {
        let mu = mean(x, Some(&dims), true)?;
        let dev = sub(x, &mu)?;
        let v = mean(&mul(&dev, &dev)?, Some(&dims), true)?;
        let rstd = reciprocal(&sqrt(&add(&v, &Tensor::wrapped_scalar(eps))?)?)?;
        Ok((mul(&dev, &rstd)?, rstd))
    };
    let norm_parts = Arc::new(norm_parts);
    let n: usize = normalized.iter().product();
    let fused = if x.numel() > 0 && n > 0 {
        backend::cpu::rows::layer_norm(
            &x.strided(),
            n,
            weight.map(|w| w.strided()).as_ref(),
            bias.map(|b| b.strided()).as_ref(),
            eps,
        )?
    } else {
        None
    };
    let out = if let Some(y) = fused {
        Tensor::from_strided(y)
    } else {
        let _g = GradModeGuard::new(false);
        let (xhat, _) = norm_parts(x)?;
        let mut y = xhat;
        if let Some(w) = weight {
            y = mul(&y, w)?;
        }
        if let Some(b) = bias {
            y = add(&y, b)?;
        }
        // PyTorch's layer norm kernel writes a row-major result
        backend::contiguous(&y)?.detached()
    };
    let inputs = with_affine(x, weight, bias);
    if needs_grad(&inputs)? {
        let (hw, hb) = (weight.is_some(), bias.is_some());
        let lead: Vec<i64> = (0..xs.len() - k).map(|d| d as i64).collect();
        let np = norm_parts.clone();
        let dims2: Vec<i64> = ((xs.len() - k)..xs.len()).map(|d| d as i64).collect();
        let wshape = normalized.to_vec();
        let mut saved = vec![save("input", x)?];
        if let Some(w) = weight {
            saved.push(save("weight", w)?);
        }
        record(
            "NativeLayerNormBackward0",
            &inputs,
            &[&out],
            saved,
            Box::new(move |s, g| {
                if !crate::grad_mode::is_grad_enabled() && n > 0 {
                    let w = if hw { Some(s[1].strided()) } else { None };
                    let fused = backend::cpu::rows::layer_norm_backward(
                        &s[0].strided(),
                        n,
                        w.as_ref(),
                        &g[0].strided(),
                        eps,
                        hw || hb,
                    )?;
                    if let Some((dx, wb)) = fused {
                        let mut out = vec![Some(Tensor::from_strided(dx))];
                        if let Some((dw, db)) = wb {
                            let st = contiguous_strides(&wshape);
                            if hw {
                                out.push(Some(Tensor::from_strided(dw.restrided(&wshape, &st, 0))));
                            }
                            if hb {
                                out.push(Some(Tensor::from_strided(db.restrided(&wshape, &st, 0))));
                            }
                        }
                        return Ok(out);
                    }
                }
                let (xhat, rstd) = np(&s[0])?;
                let gy = &g[0];
                let dxhat = if hw { mul(gy, &s[1])? } else { gy.clone() };
                // dx = rstd · (dx̂ - mean(dx̂) - x̂ · mean(dx̂ ⊙ x̂))
                let m1 = mean(&dxhat, Some(&dims2), true)?;
                let m2 = mean(&mul(&dxhat, &xhat)?, Some(&dims2), true)?;
                let dx = mul(&rstd, &sub(&sub(&dxhat, &m1)?, &mul(&xhat, &m2)?)?)?;
                let mut out = vec![Some(dx)];
                if hw {
                    out.push(Some(if lead.is_empty() {
                        mul(gy, &xhat)?
                    } else {
                        sum(&mul(gy, &xhat)?, Some(&lead), false)?
                    }));
                }
                if hb {
                    out.push(Some(if lead.is_empty() {
                        gy.clone()
                    } else {
                        sum(gy, Some(&lead), false)?
                    }));
                }
                Ok(out)
            }),
        )?;
    }
    Ok(out)
}

/// What PyTorch's CPU kernels give for a contiguous float32/float64 batch norm (see
/// `backend::cpu::batch_norm`): the output, the saved mean and inverse standard deviation,
/// and the new running statistics in training.
struct BatchNormKernel {
    out: Tensor,
    mean: Tensor,
    invstd: Tensor,
    running: Option<(Tensor, Tensor)>,
}

fn batch_norm_kernel(
    x: &Tensor,
    weight: Option<&Tensor>,
    bias: Option<&Tensor>,
    running: Option<&RunningStats<'_>>,
    training: bool,
    momentum: f64,
    eps: f64,
) -> Result<Option<BatchNormKernel>> {
    use crate::backend::cpu::batch_norm as bn;
    let xs = x.shape();
    let dt = x.dtype();
    let params = [
        weight,
        bias,
        running.map(|r| r.mean),
        running.map(|r| r.var),
    ];
    let host = |t: &Tensor| t.strided().storage.is_host();
    if !matches!(dt, DType::Float32 | DType::Float64)
        || x.numel() == 0
        || !host(x)
        || !x.strided().is_contiguous()
        || params.iter().flatten().any(|t| t.dtype() != dt || !host(t))
    {
        return Ok(None);
    }
    let (nb, c) = (xs[0], xs[1]);
    let img = x.numel() / (nb * c);
    let threads = crate::backend::cpu::parallel::num_threads();
    macro_rules! run {
        ($T:ty) => {{
            let dense = |t: &Tensor| -> Result<Vec<$T>> {
                let s = t.strided();
                let s = if s.is_contiguous() {
                    s
                } else {
                    s.contiguous()?
                };
                // SAFETY: the dtype is $T (checked above) and `s` is contiguous on the host.
                Ok(unsafe { s.contiguous_slice::<$T>() }
                    .expect("contiguous")
                    .to_vec())
            };
            let xv = x.strided();
            // SAFETY: as above.
            let xd = unsafe { xv.contiguous_slice::<$T>() }.expect("contiguous");
            let w = weight.map(dense).transpose()?;
            let b = bias.map(dense).transpose()?;
            let rm = running.map(|r| dense(r.mean)).transpose()?;
            let rv = running.map(|r| dense(r.var)).transpose()?;
            let (mean, invstd, new_running) = if training {
                let (mean, var_sum) = bn::collect_stats(xd, nb, c, img, threads);
                let old = rm.as_deref().zip(rv.as_deref());
                let (invstd, new_running) =
                    bn::update_stats(&mean, &var_sum, nb * img, eps, momentum, old);
                (mean, invstd, new_running)
            } else {
                let rm = rm.expect("running statistics in evaluation mode");
                let invstd = bn::eval_invstd(rv.as_deref().expect("running variance"), eps);
                (rm, invstd, None)
            };
            let out = bn::transform(xd, c, img, &mean, &invstd, w.as_deref(), b.as_deref());
            let running = match new_running {
                Some((m, v)) => Some((Tensor::from_vec(m, &[c])?, Tensor::from_vec(v, &[c])?)),
                None => None,
            };
            BatchNormKernel {
                out: Tensor::from_vec(out, &xs)?,
                mean: Tensor::from_vec(mean, &[c])?,
                invstd: Tensor::from_vec(invstd, &[c])?,
                running,
            }
        }};
    }
    Ok(Some(match dt {
        DType::Float32 => run!(f32),
        _ => run!(f64),
    }))
}

/// The running statistics and momentum of a batch norm in training (`running_mean`,
/// `running_var`, updated in place as `(1 - momentum) · running + momentum · batch`, the
/// variance unbiased).
pub struct RunningStats<'a> {
    pub mean: &'a Tensor,
    pub var: &'a Tensor,
}

/// Batch normalisation over every dim but the channels (dim 1), PyTorch's `torch.batch_norm`
/// (NativeBatchNormBackward0). In training the batch's mean and biased variance normalise and
/// the running statistics, when given, are updated in place; otherwise the running ones are
/// used. Backward formulas are ops, so the result is twice differentiable.
#[allow(clippy::too_many_arguments)]
pub fn batch_norm(
    x: &Tensor,
    weight: Option<&Tensor>,
    bias: Option<&Tensor>,
    running: Option<RunningStats<'_>>,
    training: bool,
    momentum: f64,
    eps: f64,
) -> Result<Tensor> {
    let xs = x.shape();
    if xs.len() < 2 {
        // PyTorch reads input.size(1) first
        let n = xs.len().max(1) as i64;
        return Err(Error::Index(format!(
            "Dimension out of range (expected to be in range of [{}, {}], but got 1)",
            -n,
            n - 1
        )));
    }
    let c = xs[1];
    for (what, t) in [
        ("weight", weight),
        ("bias", bias),
        ("running_mean", running.as_ref().map(|r| r.mean)),
        ("running_var", running.as_ref().map(|r| r.var)),
    ] {
        if let Some(t) = t {
            if t.numel() != c {
                return Err(Error::Runtime(format!(
                    "{what} should contain {c} elements not {}",
                    t.numel()
                )));
            }
        }
    }
    if !training && running.is_none() {
        return Err(Error::Runtime(
            "running_mean must be defined in evaluation mode".into(),
        ));
    }
    // PyTorch's CPU kernel takes float32 parameters for 16-bit float input, and otherwise
    // parameters of the input's dtype only
    let dt = x.dtype();
    let params = [
        weight,
        bias,
        running.as_ref().map(|r| r.mean),
        running.as_ref().map(|r| r.var),
    ];
    let mixed = params.iter().flatten().any(|t| {
        let pd = t.dtype();
        pd != dt && !(matches!(dt, DType::Float16 | DType::BFloat16) && pd == DType::Float32)
    });
    if mixed {
        return Err(Error::Runtime(
            "mixed dtype (CPU): all inputs must share same datatype.".into(),
        ));
    }
    // the per-channel tensors as [1, C, 1, ...], to broadcast against x
    let mut bshape = vec![1i64; xs.len()];
    bshape[1] = c as i64;
    let per_channel = move |t: &Tensor| reshape(t, &bshape);
    let dims: Arc<Vec<i64>> = Arc::new(
        std::iter::once(0)
            .chain(2..xs.len() as i64)
            .collect::<Vec<i64>>(),
    );
    let n = xs.iter().product::<usize>() / c.max(1);
    // (x̂, invstd as [1, C, ...], mean as [1, C, ...]) from the batch
    let batch_parts = {
        let dims = dims.clone();
        Arc::new(move |x: &Tensor| -> Result<(Tensor, Tensor, Tensor)> {
            let mu = mean(x, Some(&dims), true)?;
            let dev = sub(x, &mu)?;
            let v = mean(&mul(&dev, &dev)?, Some(&dims), true)?;
            let invstd = reciprocal(&sqrt(&add(&v, &Tensor::wrapped_scalar(eps))?)?)?;
            Ok((mul(&dev, &invstd)?, invstd, mu))
        })
    };
    let fast = batch_norm_kernel(x, weight, bias, running.as_ref(), training, momentum, eps)?;
    let (out, save_mean, save_invstd, eval_stats) = if let Some(k) = fast {
        if let (Some(r), Some((m, v))) = (&running, k.running) {
            let _g = GradModeGuard::new(false);
            copy_(r.mean, &m)?;
            copy_(r.var, &v)?;
        }
        let eval_stats = if training {
            None
        } else {
            let _g = GradModeGuard::new(false);
            let r = running.as_ref().expect("checked above");
            let invstd = reciprocal(&sqrt(&add(
                &per_channel(r.var)?,
                &Tensor::wrapped_scalar(eps),
            )?)?)?;
            Some((per_channel(r.mean)?, invstd))
        };
        (k.out, k.mean, k.invstd, eval_stats)
    } else {
        let _g = GradModeGuard::new(false);
        let (xhat, invstd, mu, eval_stats) = if training {
            let (xhat, invstd, mu) = batch_parts(x)?;
            if let Some(r) = &running {
                // running = (1 - m) · running + m · batch (the variance unbiased)
                let m_mean = mul_scalar(&reshape(&mu, &[c as i64])?, momentum)?;
                let var = reshape(
                    &mean(&mul(&sub(x, &mu)?, &sub(x, &mu)?)?, Some(&dims), true)?,
                    &[c as i64],
                )?;
                let unbiased = mul_scalar(&var, n as f64 / (n as f64 - 1.0))?;
                let new_mean = add(&mul_scalar(r.mean, 1.0 - momentum)?, &m_mean)?;
                let new_var = add(
                    &mul_scalar(r.var, 1.0 - momentum)?,
                    &mul_scalar(&unbiased, momentum)?,
                )?;
                copy_(r.mean, &new_mean)?;
                copy_(r.var, &new_var)?;
            }
            (xhat, invstd, mu, None)
        } else {
            let r = running.as_ref().expect("checked above");
            let mu = per_channel(r.mean)?;
            let invstd = reciprocal(&sqrt(&add(
                &per_channel(r.var)?,
                &Tensor::wrapped_scalar(eps),
            )?)?)?;
            let xhat = mul(&sub(x, &mu)?, &invstd)?;
            (xhat, invstd.clone(), mu.clone(), Some((mu, invstd)))
        };
        let mut y = xhat;
        if let Some(w) = weight {
            y = mul(&y, &per_channel(w)?)?;
        }
        if let Some(b) = bias {
            y = add(&y, &per_channel(b)?)?;
        }
        let y = to_dtype(&y, x.dtype())?;
        (
            y.detached(),
            reshape(&mu, &[c as i64])?.detached(),
            reshape(&invstd, &[c as i64])?.detached(),
            eval_stats,
        )
    };
    let inputs = with_affine(x, weight, bias);
    if needs_grad(&inputs)? {
        let (hw, hb) = (weight.is_some(), bias.is_some());
        let mut saved = vec![save("input", x)?];
        if let Some(w) = weight {
            saved.push(save("weight", w)?);
        }
        if let Some(r) = &running {
            saved.push(save("running_mean", r.mean)?);
            saved.push(save("running_var", r.var)?);
        }
        saved.push(save("result1", &save_mean)?);
        saved.push(save("result2", &save_invstd)?);
        let dims = dims.clone();
        let bp = batch_parts.clone();
        let mut bshape = vec![1i64; xs.len()];
        bshape[1] = c as i64;
        record(
            "NativeBatchNormBackward0",
            &inputs,
            &[&out],
            saved,
            Box::new(move |s, g| {
                let gy = &g[0];
                let w = if hw {
                    Some(reshape(&s[1], &bshape)?)
                } else {
                    None
                };
                let dxhat = match &w {
                    Some(w) => mul(gy, w)?,
                    None => gy.clone(),
                };
                let (xhat, dx) = match &eval_stats {
                    // the running statistics are constants: dx = dx̂ · invstd
                    Some((mu, invstd)) => {
                        let xhat = mul(&sub(&s[0], mu)?, invstd)?;
                        (xhat, mul(&dxhat, invstd)?)
                    }
                    // dx = invstd · (dx̂ - mean(dx̂) - x̂ · mean(dx̂ ⊙ x̂))
                    None => {
                        let (xhat, invstd, _) = bp(&s[0])?;
                        let m1 = mean(&dxhat, Some(&dims), true)?;
                        let m2 = mean(&mul(&dxhat, &xhat)?, Some(&dims), true)?;
                        let dx = mul(&invstd, &sub(&sub(&dxhat, &m1)?, &mul(&xhat, &m2)?)?)?;
                        (xhat, dx)
                    }
                };
                let mut out = vec![Some(dx)];
                if hw {
                    out.push(Some(sum(&mul(gy, &xhat)?, Some(&dims), false)?));
                }
                if hb {
                    out.push(Some(sum(gy, Some(&dims), false)?));
                }
                Ok(out)
            }),
        )?;
    }
    Ok(out)
}

/// Group normalisation (NativeGroupNormBackward0): the channels in `groups` groups, each sample's
/// group normalised by its own mean and biased variance, then the per-channel affine. Backward
/// formulas are ops, so the result is twice differentiable.
pub fn group_norm(
    x: &Tensor,
    groups: usize,
    weight: Option<&Tensor>,
    bias: Option<&Tensor>,
    eps: f64,
) -> Result<Tensor> {
    let xs = x.shape().to_vec();
    if xs.len() < 2 {
        return Err(Error::Runtime(format!(
            "Expected at least 2 dimensions for input tensor but received {}",
            xs.len()
        )));
    }
    let c = xs[1];
    if groups == 0 || !c.is_multiple_of(groups) {
        return Err(Error::Runtime(format!(
            "Expected number of channels in input to be divisible by num_groups, but got input of shape {} and num_groups={groups}",
            fmt_shape(&xs)
        )));
    }
    for (what, t) in [("weight", weight), ("bias", bias)] {
        if let Some(t) = t {
            if t.ndim() != 1 || t.numel() != c {
                return Err(Error::Runtime(format!(
                    "Expected {what} to be a vector of size equal to the number of channels in input, but got {what} of shape {} and input of shape {}",
                    fmt_shape(&t.shape()),
                    fmt_shape(&xs)
                )));
            }
        }
    }
    if !x.dtype().is_differentiable() {
        return Err(Error::NotImplemented(format!(
            "\"GroupNormKernelImpl\" not implemented for '{}'",
            x.dtype().scalar_type_name()
        )));
    }
    // x as [N, G, rest] (each group of each sample one row), the parameters as [1, C, 1, ...]
    let grouped: Vec<i64> = vec![xs[0] as i64, groups as i64, -1];
    let full: Vec<i64> = xs.iter().map(|&d| d as i64).collect();
    let mut bshape = vec![1i64; xs.len()];
    bshape[1] = c as i64;
    // (x̂ as x's shape, rstd as [N, G, 1]) from x
    let parts = move |x: &Tensor| -> Result<(Tensor, Tensor)> {
        let g = reshape(x, &grouped)?;
        let mu = mean(&g, Some(&[2]), true)?;
        let dev = sub(&g, &mu)?;
        let var = mean(&mul(&dev, &dev)?, Some(&[2]), true)?;
        let rstd = reciprocal(&sqrt(&add(&var, &Tensor::wrapped_scalar(eps))?)?)?;
        Ok((reshape(&mul(&dev, &rstd)?, &full)?, rstd))
    };
    let affine = {
        let bshape = bshape.clone();
        move |y: Tensor, w: Option<&Tensor>, b: Option<&Tensor>| -> Result<Tensor> {
            let y = match w {
                Some(w) => mul(&y, &reshape(w, &bshape)?)?,
                None => y,
            };
            match b {
                Some(b) => add(&y, &reshape(b, &bshape)?),
                None => Ok(y),
            }
        }
    };
    let out = {
        let _g = GradModeGuard::new(false);
        let (xhat, _) = parts(x)?;
        affine(xhat, weight, bias)?.detached()
    };
    let inputs = with_affine(x, weight, bias);
    if needs_grad(&inputs)? {
        let (hw, hb) = (weight.is_some(), bias.is_some());
        let mut saved = vec![save("input", x)?];
        if let Some(w) = weight {
            saved.push(save("weight", w)?);
        }
        // the sums over every dim but the channels, for the parameters' gradients
        let dims: Vec<i64> = std::iter::once(0).chain(2..xs.len() as i64).collect();
        let grouped: Vec<i64> = vec![xs[0] as i64, groups as i64, -1];
        let full: Vec<i64> = xs.iter().map(|&d| d as i64).collect();
        record(
            "NativeGroupNormBackward0",
            &inputs,
            &[&out],
            saved,
            Box::new(move |s, g| {
                let gy = &g[0];
                let (xhat, rstd) = parts(&s[0])?;
                let dxhat = match hw {
                    true => mul(gy, &reshape(&s[1], &bshape)?)?,
                    false => gy.clone(),
                };
                // dx = rstd · (dx̂ - mean(dx̂) - x̂ · mean(dx̂ ⊙ x̂)) over each group
                let (d, xh) = (reshape(&dxhat, &grouped)?, reshape(&xhat, &grouped)?);
                let m1 = mean(&d, Some(&[2]), true)?;
                let m2 = mean(&mul(&d, &xh)?, Some(&[2]), true)?;
                let dx = mul(&rstd, &sub(&sub(&d, &m1)?, &mul(&xh, &m2)?)?)?;
                let mut out = vec![Some(reshape(&dx, &full)?)];
                if hw {
                    out.push(Some(sum(&mul(gy, &xhat)?, Some(&dims), false)?));
                }
                if hb {
                    out.push(Some(sum(gy, Some(&dims), false)?));
                }
                Ok(out)
            }),
        )?;
    }
    Ok(out)
}
