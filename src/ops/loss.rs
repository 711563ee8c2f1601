//! Losses of nn.functional that the core owns (they have nodes of their own).
use super::*;
use crate::grads;

#[derive(Copy, Clone, PartialEq, Eq)]
pub enum Reduction {
    None,
    Mean,
    Sum,
}

impl Reduction {
    pub fn parse(s: &str) -> Result<Reduction> {
        match s {
            "none" => Ok(Reduction::None),
            "mean" => Ok(Reduction::Mean),
            "sum" => Ok(Reduction::Sum),
            _ => Err(Error::Value(format!(
                "{} is not a valid value for reduction",
                s
            ))),
        }
    }
}

fn reduce(x: &Tensor, r: Reduction) -> Result<Tensor> {
    match r {
        Reduction::None => Ok(x.clone()),
        Reduction::Mean => mean(x, None, false),
        Reduction::Sum => sum(x, None, false),
    }
}

/// mean((input - target)²) as one node (MseLossBackward0).
pub fn mse_loss(input: &Tensor, target: &Tensor, r: Reduction) -> Result<Tensor> {
    if input.dtype().is_complex() {
        return Err(Error::NotImplemented(format!(
            "\"mse_cpu\" not implemented for '{}'",
            input.dtype().scalar_type_name()
        )));
    }
    let out = {
        let _g = crate::grad_mode::GradModeGuard::new(false);
        let d = sub(input, target)?;
        reduce(&mul(&d, &d)?, r)?
    };
    if needs_grad(&[input, target]) {
        let n = crate::shape::numel(&crate::shape::broadcast_shapes(
            &input.shape(),
            &target.shape(),
        )?);
        // d/dinput = 2 (input - target) · dL (/ n for mean); d/dtarget = the negative
        record(
            "MseLossBackward0",
            &[input, target],
            &[&out],
            vec![save("self", input)?, save("target", target)?],
            Box::new(move |s, g| {
                let scale = if r == Reduction::Mean {
                    2.0 / n as f64
                } else {
                    2.0
                };
                let gi = mul(&mul_scalar(&sub(&s[0], &s[1])?, scale)?, &g[0])?;
                grads![gi.clone(), neg(&gi)?]
            }),
        );
    }
    Ok(out)
}

/// |input - target| reduced, composed of primitives (as PyTorch records it).
pub fn l1_loss(input: &Tensor, target: &Tensor, r: Reduction) -> Result<Tensor> {
    reduce(&abs(&sub(input, target)?)?, r)
}

/// The gradient of a reduced loss spread back over its elements (`/ n` for the mean).
fn unreduce(g: &Tensor, shape: &[usize], r: Reduction) -> Result<Tensor> {
    match r {
        Reduction::None => Ok(g.clone()),
        Reduction::Sum => expand(g, shape),
        Reduction::Mean => {
            let n = crate::shape::numel(shape).max(1) as f64;
            expand(&div(g, &Tensor::wrapped_scalar(n))?, shape)
        }
    }
}

/// PyTorch's refusal of a weight that requires grad (its BCE losses do not differentiate it).
fn weight_without_grad(w: Option<&Tensor>, f: &str) -> Result<()> {
    if w.is_some_and(|w| w.requires_grad()) && crate::grad_mode::is_grad_enabled() {
        return Err(Error::Runtime(format!(
            "The function '{f}' is not differentiable with respect to argument 'weight'. This input cannot have requires_grad True."
        )));
    }
    Ok(())
}

fn weighted(x: Tensor, w: Option<&Tensor>) -> Result<Tensor> {
    match w {
        Some(w) => mul(&x, w),
        None => Ok(x),
    }
}

/// -w (y log p + (1 - y) log(1 - p)), each log at least -100, reduced
/// (BinaryCrossEntropyBackward0). PyTorch's gradients: w (p - y) / max(p (1 - p), 1e-12) for p
/// and w (log(1 - p) - log p) for y, so a saturated p gives a large (not NaN) gradient.
pub fn binary_cross_entropy(
    p: &Tensor,
    y: &Tensor,
    weight: Option<&Tensor>,
    r: Reduction,
) -> Result<Tensor> {
    weight_without_grad(weight, "binary_cross_entropy")?;
    let out = {
        let _g = crate::grad_mode::GradModeGuard::new(false);
        let lp = clamp(&log(p)?, Some(-100.0), None)?;
        let lq = clamp(
            &log(&rsub(p, &Tensor::wrapped_scalar(1.0))?)?,
            Some(-100.0),
            None,
        )?;
        let one_minus_y = rsub(y, &Tensor::wrapped_scalar(1.0))?;
        let l = neg(&add(&mul(y, &lp)?, &mul(&one_minus_y, &lq)?)?)?;
        reduce(&weighted(l, weight)?, r)?.detached()
    };
    if needs_grad(&[p, y]) {
        let shape = p.shape();
        let mut saved = vec![save("self", p)?, save("target", y)?];
        if let Some(w) = weight {
            saved.push(save("weight", w)?);
        }
        let (gp_needed, gy_needed) = (p.requires_grad(), y.requires_grad());
        record(
            "BinaryCrossEntropyBackward0",
            &[p, y],
            &[&out],
            saved,
            Box::new(move |s, g| {
                let (p, y, w) = (&s[0], &s[1], s.get(2));
                let g = unreduce(&g[0], &shape, r)?;
                let gp = if gp_needed {
                    let q = rsub(p, &Tensor::wrapped_scalar(1.0))?;
                    // PyTorch's EPSILON, 1e-12 as a float32
                    let denom = clamp(&mul(p, &q)?, Some(1e-12_f32 as f64), None)?;
                    Some(mul(&g, &weighted(div(&sub(p, y)?, &denom)?, w)?)?)
                } else {
                    None
                };
                let gy = if gy_needed {
                    let q = rsub(p, &Tensor::wrapped_scalar(1.0))?;
                    Some(mul(&g, &weighted(sub(&log(&q)?, &log(p)?)?, w)?)?)
                } else {
                    None
                };
                Ok(vec![gp, gy])
            }),
        );
    }
    Ok(out)
}

fn one() -> Tensor {
    Tensor::wrapped_scalar(1.0)
}

/// softplus(-x) = log(1 + e^-|x|) + max(-x, 0), finite for every finite x.
fn softplus_neg(x: &Tensor) -> Result<Tensor> {
    let tail = log1p(&exp(&neg(&abs(x)?)?)?)?;
    add(&tail, &relu(&neg(x)?)?)
}

/// 1 + (pos_weight - 1) y, the weight of the positive term.
fn log_weight(y: &Tensor, pw: Option<&Tensor>) -> Result<Option<Tensor>> {
    pw.map(|pw| add(&mul(&sub(pw, &one())?, y)?, &one()))
        .transpose()
}

/// binary_cross_entropy(sigmoid(x), y) from the logits, stably:
/// (1 - y) x + lw (log(1 + e^-|x|) + max(-x, 0)), lw = 1 + (pos_weight - 1) y, times the
/// weight, reduced (BinaryCrossEntropyWithLogitsBackward0). Gradients: w (lw σ(x) - pw y) for
/// x, w ((pw - 1) softplus(-x) - x) for y; as in PyTorch, neither weight is differentiable.
pub fn binary_cross_entropy_with_logits(
    x: &Tensor,
    y: &Tensor,
    weight: Option<&Tensor>,
    pos_weight: Option<&Tensor>,
    r: Reduction,
) -> Result<Tensor> {
    weight_without_grad(weight, "binary_cross_entropy_with_logits")?;
    if pos_weight.is_some_and(|w| w.requires_grad()) && crate::grad_mode::is_grad_enabled() {
        return Err(Error::Runtime(
            "The function 'binary_cross_entropy_with_logits' is not differentiable with respect to argument 'pos_weight'. This input cannot have requires_grad True.".into(),
        ));
    }
    let out = {
        let _g = crate::grad_mode::GradModeGuard::new(false);
        let sp = softplus_neg(x)?;
        let sp = match log_weight(y, pos_weight)? {
            Some(lw) => mul(&lw, &sp)?,
            None => sp,
        };
        let l = add(&mul(&rsub(y, &one())?, x)?, &sp)?;
        reduce(&weighted(l, weight)?, r)?.detached()
    };
    let inputs = [x, y];
    if needs_grad(&inputs) {
        let shape = x.shape();
        let needs: Vec<bool> = inputs.iter().map(|t| t.requires_grad()).collect();
        let mut saved = vec![save("self", x)?, save("target", y)?];
        saved.extend(pos_weight.map(|t| save("pos_weight", t)).transpose()?);
        saved.extend(weight.map(|t| save("weight", t)).transpose()?);
        let has_pw = pos_weight.is_some();
        record(
            "BinaryCrossEntropyWithLogitsBackward0",
            &inputs,
            &[&out],
            saved,
            Box::new(move |s, g| {
                let (x, y) = (&s[0], &s[1]);
                let pw = if has_pw { Some(&s[2]) } else { None };
                let w = s.get(if has_pw { 3 } else { 2 });
                let g = unreduce(&g[0], &shape, r)?;
                let mut grads = Vec::new();
                if needs[0] {
                    let d = match (pw, log_weight(y, pw)?) {
                        (Some(pw), Some(lw)) => sub(&mul(&lw, &sigmoid(x)?)?, &mul(pw, y)?)?,
                        _ => sub(&sigmoid(x)?, y)?,
                    };
                    grads.push(Some(mul(&g, &weighted(d, w)?)?));
                } else {
                    grads.push(None);
                }
                if needs[1] {
                    let d = match pw {
                        Some(pw) => sub(&mul(&sub(pw, &one())?, &softplus_neg(x)?)?, x)?,
                        None => neg(x)?,
                    };
                    grads.push(Some(mul(&g, &weighted(d, w)?)?));
                } else {
                    grads.push(None);
                }
                Ok(grads)
            }),
        );
    }
    Ok(out)
}
