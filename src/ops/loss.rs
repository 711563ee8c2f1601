//! Losses of nn.functional that the core owns (they have nodes of their own).
use super::index::{put_add, take, Plan};
use super::*;
use crate::backend;
use crate::dtype::DType;
use crate::grad_mode::GradModeGuard;
use crate::grads;
use crate::shape::fmt_shape;
use std::sync::Arc;

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
    if needs_grad(&[input, target])? {
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
        )?;
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
    if needs_grad(&[p, y])? {
        let shape = p.shape();
        let mut saved = vec![save("self", p)?, save("target", y)?];
        if let Some(w) = weight {
            saved.push(save("weight", w)?);
        }
        let (gp_needed, gy_needed) = (needs_formula(p), needs_formula(y));
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
        )?;
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
    if needs_grad(&inputs)? {
        let shape = x.shape();
        let needs: Vec<bool> = inputs.iter().map(|t| needs_formula(t)).collect();
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
        )?;
    }
    Ok(out)
}

/// Negative log likelihood over class scores `input` `[N, C, ...]` or `[C]` (NllLossBackward0).
pub fn nll_loss(
    input: &Tensor,
    target: &Tensor,
    weight: Option<&Tensor>,
    ignore_index: i64,
    reduction: Reduction,
) -> Result<Tensor> {
    if input.device() != target.device() {
        return Err(crate::device::mismatch(input.device(), target.device()));
    }
    let is = input.shape();
    let ts = target.shape();
    if !matches!(target.dtype(), DType::Int64 | DType::Int32 | DType::UInt8) {
        return Err(Error::Runtime(format!(
            "expected scalar type Long but found {}",
            target.dtype().scalar_type_name()
        )));
    }
    let (n, c, inner) = match is.len() {
        1 => (1usize, is[0], 1usize),
        0 => return Err(Error::Value("Expected 1 or more dimensions (got 0)".into())),
        _ => (is[0], is[1], is[2..].iter().product()),
    };
    let batch_ok = if is.len() == 1 {
        ts.is_empty()
    } else {
        !ts.is_empty() && ts[0] == n && ts.len() == is.len() - 1 && ts[1..] == is[2..]
    };
    if !batch_ok {
        if is.len() >= 2 && !ts.is_empty() && ts[0] != n {
            return Err(Error::Value(format!(
                "Expected input batch_size ({}) to match target batch_size ({}).",
                n, ts[0]
            )));
        }
        return Err(Error::Runtime(format!(
            "input and target shapes are incompatible: {} and {}",
            fmt_shape(&is),
            fmt_shape(&ts)
        )));
    }
    let tv = target.try_to_vec::<i64>()?;
    let w: Vec<f64> = match weight {
        Some(w) => {
            if w.numel() != c {
                return Err(Error::Runtime(format!(
                    "weight tensor should be defined either for all {} classes or no classes but got weight tensor of shape: {}",
                    c,
                    fmt_shape(&w.shape())
                )));
            }
            w.try_to_vec::<f64>()?
        }
        None => vec![1.0; c],
    };
    let mut plan = Vec::with_capacity(tv.len());
    let mut coef = Vec::with_capacity(tv.len());
    let mut total_w = 0.0;
    for (k, &t) in tv.iter().enumerate() {
        let (ni, ii) = (k / inner, k % inner);
        if t == ignore_index {
            plan.push(ni * c * inner + ii);
            coef.push(0.0);
            continue;
        }
        if t < 0 || t as usize >= c {
            return Err(Error::Index(format!("Target {} is out of bounds.", t)));
        }
        plan.push(ni * c * inner + t as usize * inner + ii);
        coef.push(w[t as usize]);
        total_w += w[t as usize];
    }
    let plan: Plan = Arc::new(plan);
    let dt = input.dtype();
    let coef_t = backend::cast(&Tensor::from_vec(coef, &ts)?, dt)?;
    let coef_t = if coef_t.device() != input.device() {
        backend::to_device(&coef_t, input.device())?
    } else {
        coef_t
    };
    let out = {
        let _g = GradModeGuard::new(false);
        let picked = take(input, &plan, &ts, "NllLossBackward0")?;
        let l = neg(&mul(&picked, &coef_t)?)?;
        match reduction {
            Reduction::None => l,
            Reduction::Sum => sum(&l, None, false)?,
            Reduction::Mean => div(&sum(&l, None, false)?, &Tensor::wrapped_scalar(total_w))?,
        }
    };
    let out = out.detached();
    if needs_grad(&[input])? {
        let tsh = ts.clone();
        record(
            "NllLossBackward0",
            &[input],
            &[&out],
            vec![],
            Box::new(move |_, g| {
                // dL/dinput[n, target[n]] = -w[target[n]] · g (÷ Σw for the mean)
                let gg = match reduction {
                    Reduction::None => g[0].clone(),
                    Reduction::Sum => expand(&g[0], &tsh)?,
                    Reduction::Mean => {
                        expand(&div(&g[0], &Tensor::wrapped_scalar(total_w))?, &tsh)?
                    }
                };
                let vals = neg(&mul(&gg, &coef_t)?)?;
                grads![put_add(&is, &plan, &reshape(&vals, &[-1])?)?]
            }),
        )?;
    }
    Ok(out)
}
