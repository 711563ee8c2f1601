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
                // the target's as PyTorch computes it: from target - input (0, not -0, at 0)
                let gi = mul(&mul_scalar(&sub(&s[0], &s[1])?, scale)?, &g[0])?;
                let gt = mul(&mul_scalar(&sub(&s[1], &s[0])?, scale)?, &g[0])?;
                grads![gi, gt]
            }),
        )?;
    }
    Ok(out)
}

/// |input - target| reduced, composed of primitives (as PyTorch records it).
pub fn l1_loss(input: &Tensor, target: &Tensor, r: Reduction) -> Result<Tensor> {
    reduce(&abs(&sub(input, target)?)?, r)
}

/// PyTorch's missing-kernel error for a loss without integer kernels.
fn floating_loss(input: &Tensor, kernel: &str) -> Result<()> {
    if input.dtype().is_differentiable() {
        return Ok(());
    }
    Err(Error::NotImplemented(format!(
        "\"{kernel}_cpu\" not implemented for '{}'",
        input.dtype().scalar_type_name()
    )))
}

/// An elementwise loss of (input, target), reduced, as one node `name` over both: `value` gives
/// each element's loss from `input - target`, `slope` its derivative with respect to the input
/// (the target's is its negative), both written with ops.
fn difference_loss(
    name: &'static str,
    (input, target): (&Tensor, &Tensor),
    r: Reduction,
    value: fn(&Tensor, f64) -> Result<Tensor>,
    slope: fn(&Tensor, f64) -> Result<Tensor>,
    param: f64,
) -> Result<Tensor> {
    let out = {
        let _g = GradModeGuard::new(false);
        reduce(&value(&sub(input, target)?, param)?, r)?
    };
    if needs_grad(&[input, target])? {
        let shape = crate::shape::broadcast_shapes(&input.shape(), &target.shape())?;
        record(
            name,
            &[input, target],
            &[&out],
            vec![save("self", input)?, save("target", target)?],
            Box::new(move |s, g| {
                // the target's is the same function of target - input (PyTorch: 0, not -0, at 0)
                let g = unreduce(&g[0], &shape, r)?;
                let gi = mul(&slope(&sub(&s[0], &s[1])?, param)?, &g)?;
                let gt = mul(&slope(&sub(&s[1], &s[0])?, param)?, &g)?;
                grads![gi, gt]
            }),
        )?;
    }
    Ok(out)
}

/// `0.5 d² / beta` where |d| < beta, `|d| - 0.5 beta` elsewhere, d = input - target, reduced
/// (SmoothL1LossBackward0; `F.smooth_l1_loss` takes beta = 0 as l1_loss, as PyTorch).
pub fn smooth_l1_loss(input: &Tensor, target: &Tensor, r: Reduction, beta: f64) -> Result<Tensor> {
    floating_loss(input, "smooth_l1")?;
    if beta < 0.0 {
        return Err(Error::Runtime(
            "smooth_l1_loss does not support negative values for beta.".into(),
        ));
    }
    let value = |d: &Tensor, beta: f64| {
        let z = abs(d)?;
        let inner = div(
            &mul_scalar(&mul(&z, &z)?, 0.5)?,
            &Tensor::wrapped_scalar(beta),
        )?;
        let outer = sub(&z, &Tensor::wrapped_scalar(0.5 * beta))?;
        where_(
            &compare(CmpOp::Lt, &z, &Tensor::wrapped_scalar(beta))?,
            &inner,
            &outer,
        )
    };
    // d / beta inside (-beta, beta), ±1 outside
    let slope = |d: &Tensor, beta: f64| {
        let inner = div(d, &Tensor::wrapped_scalar(beta))?;
        clip_slope(d, beta, &inner, 1.0)
    };
    difference_loss(
        "SmoothL1LossBackward0",
        (input, target),
        r,
        value,
        slope,
        beta,
    )
}

/// `0.5 d²` where |d| < delta, `delta (|d| - 0.5 delta)` elsewhere, reduced (HuberLossBackward0).
pub fn huber_loss(input: &Tensor, target: &Tensor, r: Reduction, delta: f64) -> Result<Tensor> {
    floating_loss(input, "huber")?;
    if delta <= 0.0 {
        return Err(Error::Runtime(
            "huber_loss does not support non-positive values for delta.".into(),
        ));
    }
    let value = |d: &Tensor, delta: f64| {
        let z = abs(d)?;
        let inner = mul_scalar(&mul(&z, &z)?, 0.5)?;
        let outer = mul_scalar(&sub(&z, &Tensor::wrapped_scalar(0.5 * delta))?, delta)?;
        where_(
            &compare(CmpOp::Lt, &z, &Tensor::wrapped_scalar(delta))?,
            &inner,
            &outer,
        )
    };
    // d inside (-delta, delta), ±delta outside
    let slope = |d: &Tensor, delta: f64| clip_slope(d, delta, d, delta);
    difference_loss(
        "HuberLossBackward0",
        (input, target),
        r,
        value,
        slope,
        delta,
    )
}

/// `inner` where -bound <= d <= bound, `±outer` (the sign of d) beyond.
fn clip_slope(d: &Tensor, bound: f64, inner: &Tensor, outer: f64) -> Result<Tensor> {
    let above = compare(CmpOp::Gt, d, &Tensor::wrapped_scalar(bound))?;
    let below = compare(CmpOp::Lt, d, &Tensor::wrapped_scalar(-bound))?;
    let t = where_(&above, &Tensor::wrapped_scalar(outer), inner)?;
    where_(&below, &Tensor::wrapped_scalar(-outer), &t)
}

/// `log(1 + e^(-target · input))`, reduced (SoftMarginLossBackward0); the target is not
/// differentiated (PyTorch refuses one that requires grad).
pub fn soft_margin_loss(input: &Tensor, target: &Tensor, r: Reduction) -> Result<Tensor> {
    if !input.dtype().is_differentiable() {
        return Err(Error::Runtime(format!(
            "result type Float can't be cast to the desired output type {}",
            input.dtype().scalar_type_name()
        )));
    }
    not_differentiable(target, "soft_margin_loss", "target")?;
    let out = {
        let _g = GradModeGuard::new(false);
        reduce(&log1p(&exp(&neg(&mul(target, input)?)?)?)?, r)?
    };
    if needs_grad(&[input])? {
        let shape = crate::shape::broadcast_shapes(&input.shape(), &target.shape())?;
        record(
            "SoftMarginLossBackward0",
            &[input],
            &[&out],
            vec![save("self", input)?, save("target", target)?],
            Box::new(move |s, g| {
                // -target · z / (1 + z) · dL, z = e^(-target · input)
                let (x, y) = (&s[0], &s[1]);
                let z = exp(&neg(&mul(y, x)?)?)?;
                let frac = div(&z, &add(&z, &Tensor::wrapped_scalar(1.0))?)?;
                let d = mul(&neg(y)?, &frac)?;
                grads![mul(&d, &unreduce(&g[0], &shape, r)?)?]
            }),
        )?;
    }
    Ok(out)
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

/// A reduced loss's gradient `g` spread over the input's `shape`, not yet divided for the mean
/// (the kernels that divide last).
fn broadcast_grad(g: &Tensor, shape: &[usize], r: Reduction) -> Result<Tensor> {
    match r {
        Reduction::None => Ok(g.clone()),
        _ => expand(g, shape),
    }
}

/// `x / n` for the mean over n elements of `shape`, else `x`.
fn mean_scale(x: Tensor, shape: &[usize], r: Reduction) -> Result<Tensor> {
    match r {
        Reduction::Mean => div(
            &x,
            &Tensor::wrapped_scalar(crate::shape::numel(shape) as f64),
        ),
        _ => Ok(x),
    }
}

/// PyTorch's refusal of a weight that requires grad (its BCE losses do not differentiate it).
fn weight_without_grad(w: Option<&Tensor>, f: &str) -> Result<()> {
    match w {
        Some(w) => not_differentiable(w, f, "weight"),
        None => Ok(()),
    }
}

/// PyTorch's refusal of an argument `arg` of `f` that it does not differentiate, when it
/// requires grad (with grad mode on).
fn not_differentiable(t: &Tensor, f: &str, arg: &str) -> Result<()> {
    if t.requires_grad() && crate::grad_mode::is_grad_enabled() {
        return Err(Error::Runtime(format!(
            "The function '{f}' is not differentiable with respect to argument '{arg}'. This input cannot have requires_grad True."
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
        // PyTorch's kernel: (y - 1) max(log1p(-p), -100) - y max(log p, -100)
        let lp = clamp(&log(p)?, Some(-100.0), None)?;
        let lq = clamp(&log1p(&neg(p)?)?, Some(-100.0), None)?;
        let y_minus_one = sub(y, &Tensor::wrapped_scalar(1.0))?;
        let l = sub(&mul(&y_minus_one, &lq)?, &mul(y, &lp)?)?;
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
                let gp = if gp_needed {
                    let q = rsub(p, &Tensor::wrapped_scalar(1.0))?;
                    // PyTorch's EPSILON, 1e-12 as a float32; its order of operations:
                    // g (p - y) / max(p (1 - p), eps), times the weight, over n for the mean
                    let denom = clamp(&mul(&q, p)?, Some(1e-12_f32 as f64), None)?;
                    let ge = broadcast_grad(&g[0], &shape, r)?;
                    let gp = weighted(div(&mul(&ge, &sub(p, y)?)?, &denom)?, w)?;
                    Some(mean_scale(gp, &shape, r)?)
                } else {
                    None
                };
                let g = unreduce(&g[0], &shape, r)?;
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
                let mut grads = Vec::new();
                if needs[0] {
                    // PyTorch's order: ((pw y + 1 - y) σ(x) - pw y) or (σ(x) - y), times the
                    // gradient, times the weight, over n for the mean
                    let d = match pw {
                        Some(pw) => {
                            let t = mul(pw, y)?;
                            sub(&mul(&sub(&add(&t, &one())?, y)?, &sigmoid(x)?)?, &t)?
                        }
                        None => sub(&sigmoid(x)?, y)?,
                    };
                    let gx = weighted(mul(&d, &broadcast_grad(&g[0], &shape, r)?)?, w)?;
                    grads.push(Some(mean_scale(gx, &shape, r)?));
                } else {
                    grads.push(None);
                }
                if needs[1] {
                    let d = match pw {
                        Some(pw) => sub(&mul(&sub(pw, &one())?, &softplus_neg(x)?)?, x)?,
                        None => neg(x)?,
                    };
                    let g = unreduce(&g[0], &shape, r)?;
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
    let ignored = if tv.contains(&ignore_index) {
        let m: Vec<bool> = tv.iter().map(|&t| t == ignore_index).collect();
        Some(backend::to_device(
            &Tensor::from_vec(m, &ts)?,
            input.device(),
        )?)
    } else {
        None
    };
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
        let host_float = input.device() == crate::device::Device::Cpu
            && matches!(dt, DType::Float32 | DType::Float64);
        if host_float && reduction != Reduction::None {
            // PyTorch's own summation, in the input's precision
            let round = if dt == DType::Float32 {
                |v: f64| v as f32 as f64
            } else {
                |v: f64| v
            };
            let data = picked.try_to_vec::<f64>()?;
            let weights = weight.map(|_| &w[..]);
            let (v, total) = nll_sum(&data, &tv, weights, ignore_index, reduction, round);
            // the backward divides by the total weight as this kernel summed it
            total_w = total;
            backend::cast(&Tensor::from_vec(vec![v], &[])?, dt)?
        } else {
            let l = neg(&mul(&picked, &coef_t)?)?;
            match reduction {
                Reduction::None => l,
                Reduction::Sum => sum(&l, None, false)?,
                Reduction::Mean => div(&sum(&l, None, false)?, &Tensor::wrapped_scalar(total_w))?,
            }
        }
    };
    let out = out.detached();
    if needs_grad(&[input])? {
        let tsh = ts.clone();
        // what PyTorch's node saves (the formula below holds the target's plan itself): the
        // inputs by name, then the forward's second output, the total weight (0 without a
        // reduction)
        let tw = if reduction == Reduction::None {
            0.0
        } else {
            total_w
        };
        let total_weight = backend::cast(&Tensor::from_vec(vec![tw], &[])?, dt)?;
        let saved = vec![
            save("self", input)?,
            save("target", target)?,
            match weight {
                Some(w) => save("weight", w)?,
                None => not_saved("weight"),
            },
            save_output(
                "total_weight",
                &total_weight,
                crate::graph::node::NON_DIFFERENTIABLE_OUTPUT,
            )?,
        ];
        record(
            "NllLossBackward0",
            &[input],
            &[&out],
            saved,
            Box::new(move |_, g| {
                // dL/dinput[n, target[n]] = -w[target[n]] · g (÷ Σw for the mean)
                let gg = match reduction {
                    Reduction::None => g[0].clone(),
                    Reduction::Sum => expand(&g[0], &tsh)?,
                    Reduction::Mean => {
                        expand(&div(&g[0], &Tensor::wrapped_scalar(total_w))?, &tsh)?
                    }
                };
                let mut vals = neg(&mul(&gg, &coef_t)?)?;
                if let Some(m) = &ignored {
                    // ignored targets get no gradient, not 0 times the scale (NaN when every
                    // target is ignored and the mean divides by 0)
                    vals = super::index::masked_fill(&vals, m, &Tensor::wrapped_scalar(0.0f64))?;
                }
                grads![put_add(&is, &plan, &reshape(&vals, &[-1])?)?]
            }),
        )?;
        set_attrs(&out, || {
            use crate::graph::node::SavedAttr;
            vec![
                ("ignore_index", SavedAttr::Int(ignore_index)),
                // at::Reduction's numbering
                (
                    "reduction",
                    SavedAttr::Int(match reduction {
                        Reduction::None => 0,
                        Reduction::Mean => 1,
                        Reduction::Sum => 2,
                    }),
                ),
            ]
        });
    }
    Ok(out)
}

/// nll_loss's sum (or mean) as PyTorch's CPU kernel adds it, each operation rounded by
/// `round` to the input's precision: the picked values `data` (weighted by `weights` of the
/// targets `target`, ignored ones skipped) go into a cascade of 8 partial sums, each level
/// folded into the next every 2^p-th target (p = max(4, ⌈log2 n⌉ / 8)), then the partial sums
/// added in order; the mean divides by the summed weights (or the count). Returns the result
/// and that total weight.
fn nll_sum(
    data: &[f64],
    target: &[i64],
    weights: Option<&[f64]>,
    ignore_index: i64,
    reduction: Reduction,
    round: impl Fn(f64) -> f64,
) -> (f64, f64) {
    const LEVELS: usize = 8;
    let n = target.len();
    let ceil_log2 = if n <= 1 {
        0
    } else {
        (usize::BITS - (n - 1).leading_zeros()) as usize
    };
    let power = 4.max(ceil_log2 / LEVELS);
    let mask = (1usize << power) - 1;
    let (mut loss, mut wsum) = ([0f64; LEVELS], [0f64; LEVELS]);
    let mut ignored = 0usize;
    for (b, (&v, &t)) in data.iter().zip(target).enumerate() {
        if t == ignore_index {
            ignored += 1;
            continue;
        }
        match weights {
            Some(w) => {
                let wv = w[t as usize];
                loss[0] = round(loss[0] - round(v * wv));
                wsum[0] = round(wsum[0] + wv);
            }
            None => loss[0] = round(loss[0] - v),
        }
        for j in 0..LEVELS - 1 {
            if b & (mask << (j * power)) != 0 {
                break;
            }
            loss[j + 1] = round(loss[j + 1] + loss[j]);
            wsum[j + 1] = round(wsum[j + 1] + wsum[j]);
            loss[j] = 0.0;
            wsum[j] = 0.0;
        }
    }
    let total = match weights {
        Some(_) => wsum.iter().fold(0.0, |a, &v| round(a + v)),
        None => round((n - ignored) as f64),
    };
    let out = loss.iter().fold(0.0, |a, &v| round(a + v));
    if reduction == Reduction::Mean {
        (round(out / total), total)
    } else {
        (out, total)
    }
}
