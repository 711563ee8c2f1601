//! The activations nn.functional has beyond relu: leaky_relu, silu, elu, hardtanh (relu6),
//! softplus and gelu, each with PyTorch's node and its derivative written with ops beside the
//! forward (so create_graph differentiates it again). Their behaviour at 0, at the bounds and
//! at NaN is PyTorch 2.15's (tests/python/test_activations.py).
//!
//! `inplace` records the in-place form's node where PyTorch has its own (LeakyReluBackward1,
//! EluBackward1: they save the result, as the input is overwritten); the binding writes the
//! value into the tensor (`apply_inplace`).
use super::*;
use crate::grad_mode::GradModeGuard;
use crate::grads;

fn scalar(v: f64) -> Tensor {
    Tensor::wrapped_scalar(v)
}

/// PyTorch's error for an activation without integer or bool kernels.
fn floating_only(x: &Tensor, kernel: &str) -> Result<()> {
    if x.dtype().is_differentiable() {
        return Ok(());
    }
    let dev = if x.is_cuda() { "cuda" } else { "cpu" };
    Err(Error::NotImplemented(format!(
        "\"{kernel}_{dev}\" not implemented for '{}'",
        x.dtype().scalar_type_name()
    )))
}

/// The node of an activation and what it saves: the in-place form's (`*Backward1`) saves the
/// result, as the input is overwritten; the out-of-place form saves the input.
fn node_and_saved(
    inplace: bool,
    names: (&'static str, &'static str),
    x: &Tensor,
    out: &Tensor,
) -> Result<(&'static str, crate::graph::node::SavedTensor)> {
    Ok(if inplace {
        (names.1, save_output("result", out, 0)?)
    } else {
        (names.0, save("self", x)?)
    })
}

/// The value of `f(x)`, computed with ops and unrecorded.
fn value(f: impl FnOnce() -> Result<Tensor>) -> Result<Tensor> {
    let _g = GradModeGuard::new(false);
    Ok(f()?.detached())
}

/// `x` where x > 0, `slope · x` elsewhere (LeakyReluBackward0; in place LeakyReluBackward1).
pub fn leaky_relu(x: &Tensor, slope: f64, inplace: bool) -> Result<Tensor> {
    floating_only(x, "leaky_relu")?;
    let out = value(|| {
        let pos = compare(CmpOp::Gt, x, &scalar(0.0))?;
        where_(&pos, x, &mul_scalar(x, slope)?)
    })?;
    if needs_grad(&[x])? {
        let names = ("LeakyReluBackward0", "LeakyReluBackward1");
        let (name, saved) = node_and_saved(inplace, names, x, &out)?;
        record(
            name,
            &[x],
            &[&out],
            vec![saved],
            Box::new(move |s, g| {
                if inplace && slope < 0.0 {
                    // the result's sign no longer tells the branch (PyTorch refuses too)
                    return Err(Error::Runtime("In-place leakyReLu backward calculation is triggered with a negative slope which is not supported. This is caused by calling in-place forward function with a negative slope, please call out-of-place version instead. File an issue at https://github.com/pytorch/pytorch if you do require supporting in-place leakRelu backward calculation with negative slope".into()));
                }
                // the result has the input's sign (slope > 0), so either decides the branch
                let pos = compare(CmpOp::Gt, &s[0], &scalar(0.0))?;
                grads![where_(&pos, &g[0], &mul_scalar(&g[0], slope)?)?]
            }),
        )?;
    }
    Ok(out)
}

/// `x · sigmoid(x)` (SiluBackward0).
pub fn silu(x: &Tensor) -> Result<Tensor> {
    floating_only(x, "silu")?;
    let out = value(|| mul(x, &sigmoid(x)?))?;
    if needs_grad(&[x])? {
        record(
            "SiluBackward0",
            &[x],
            &[&out],
            vec![save("self", x)?],
            Box::new(|s, g| {
                // d silu = σ(x) (1 + x (1 - σ(x))) dx
                let x = &s[0];
                let sig = sigmoid(x)?;
                let inner = add(&mul(x, &rsub(&sig, &scalar(1.0))?)?, &scalar(1.0))?;
                grads![mul(&g[0], &mul(&sig, &inner)?)?]
            }),
        )?;
    }
    Ok(out)
}

/// `x` where x > 0, `alpha (e^x - 1)` elsewhere (EluBackward0; in place EluBackward1).
pub fn elu(x: &Tensor, alpha: f64, inplace: bool) -> Result<Tensor> {
    floating_only(x, "elu")?;
    let out = value(|| {
        let neg = compare(CmpOp::Le, x, &scalar(0.0))?;
        // e^min(x, 0): the branch not taken stays finite
        let e = exp(&clamp(x, None, Some(0.0))?)?;
        let below = mul_scalar(&sub(&e, &scalar(1.0))?, alpha)?;
        where_(&neg, &below, x)
    })?;
    if needs_grad(&[x])? {
        let (name, saved) = node_and_saved(inplace, ("EluBackward0", "EluBackward1"), x, &out)?;
        record(
            name,
            &[x],
            &[&out],
            vec![saved],
            Box::new(move |s, g| {
                // d elu = dx for x > 0 (and NaN), alpha e^x dx = (result + alpha) dx elsewhere
                let v = &s[0];
                let neg = compare(CmpOp::Le, v, &scalar(0.0))?;
                let slope = if inplace {
                    add(v, &scalar(alpha))?
                } else {
                    mul_scalar(&exp(&clamp(v, None, Some(0.0))?)?, alpha)?
                };
                grads![where_(&neg, &mul(&g[0], &slope)?, &g[0])?]
            }),
        )?;
    }
    Ok(out)
}

/// `x` clamped to [min_val, max_val] (HardtanhBackward0): the gradient passes strictly inside
/// (and through NaN), as PyTorch's.
pub fn hardtanh(x: &Tensor, min_val: f64, max_val: f64) -> Result<Tensor> {
    if min_val > max_val {
        return Err(Error::Value(
            "min_val cannot be greater than max_val".into(),
        ));
    }
    let out = crate::backend::clamp(x, min_val, max_val)?;
    if out.dtype().is_differentiable() && needs_grad(&[x])? {
        record(
            "HardtanhBackward0",
            &[x],
            &[&out],
            vec![save("self", x)?],
            Box::new(move |s, g| {
                let x = &s[0];
                let outside = bitwise(
                    BitOp::Or,
                    &compare(CmpOp::Le, x, &scalar(min_val))?,
                    &compare(CmpOp::Ge, x, &scalar(max_val))?,
                )?;
                grads![where_(&outside, &scalar(0.0), &g[0])?]
            }),
        )?;
    }
    Ok(out)
}

/// `log(1 + e^(beta x)) / beta`, and `x` where `beta x > threshold` (SoftplusBackward0).
pub fn softplus(x: &Tensor, beta: f64, threshold: f64) -> Result<Tensor> {
    floating_only(x, "softplus")?;
    let linear = move |x: &Tensor| compare(CmpOp::Gt, &mul_scalar(x, beta)?, &scalar(threshold));
    let out = value(|| {
        let bx = clamp(&mul_scalar(x, beta)?, None, Some(threshold))?;
        let soft = div(&log1p(&exp(&bx)?)?, &scalar(beta))?;
        where_(&linear(x)?, x, &soft)
    })?;
    if needs_grad(&[x])? {
        record(
            "SoftplusBackward0",
            &[x],
            &[&out],
            vec![save("self", x)?],
            Box::new(move |s, g| {
                // d softplus = sigmoid(beta x) dx, and dx on the linear part
                let x = &s[0];
                let sig = sigmoid(&mul_scalar(x, beta)?)?;
                grads![where_(&linear(x)?, &g[0], &mul(&g[0], &sig)?)?]
            }),
        )?;
    }
    Ok(out)
}

/// gelu's `approximate` argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GeluApprox {
    None,
    Tanh,
}

const SQRT_2_OVER_PI: f64 = 0.797_884_560_802_865_4;
const KAPPA: f64 = 0.044715;

/// `x Φ(x)`, or its tanh approximation (GeluBackward0).
pub fn gelu(x: &Tensor, approximate: GeluApprox) -> Result<Tensor> {
    if !x.dtype().is_differentiable() {
        return Err(Error::NotImplemented(format!(
            "\"GeluKernelImpl\" not implemented for '{}'",
            x.dtype().scalar_type_name()
        )));
    }
    let out = value(|| match approximate {
        GeluApprox::None => mul(x, &normal_cdf(x)?),
        GeluApprox::Tanh => {
            let t = tanh(&tanh_inner(x)?)?;
            mul(&mul_scalar(x, 0.5)?, &add(&t, &scalar(1.0))?)
        }
    })?;
    if needs_grad(&[x])? {
        record(
            "GeluBackward0",
            &[x],
            &[&out],
            vec![save("self", x)?],
            Box::new(move |s, g| {
                let x = &s[0];
                let d = match approximate {
                    // Φ(x) + x φ(x)
                    GeluApprox::None => {
                        let cdf = normal_cdf(x)?;
                        let pdf = mul_scalar(
                            &exp(&mul_scalar(&mul(x, x)?, -0.5)?)?,
                            0.5 * std::f64::consts::FRAC_2_SQRT_PI
                                * std::f64::consts::FRAC_1_SQRT_2,
                        )?;
                        add(&cdf, &mul(x, &pdf)?)?
                    }
                    // ½(1 + t) + ½x (1 - t²) √(2/π) (1 + 3κx²), t = tanh(√(2/π)(x + κx³))
                    GeluApprox::Tanh => {
                        let t = tanh(&tanh_inner(x)?)?;
                        let left = mul_scalar(&add(&t, &scalar(1.0))?, 0.5)?;
                        let sech2 = rsub(&mul(&t, &t)?, &scalar(1.0))?;
                        let slope = mul_scalar(
                            &add(&mul_scalar(&mul(x, x)?, 3.0 * KAPPA)?, &scalar(1.0))?,
                            SQRT_2_OVER_PI,
                        )?;
                        let right = mul(&mul(&mul_scalar(x, 0.5)?, &sech2)?, &slope)?;
                        add(&left, &right)?
                    }
                };
                grads![mul(&g[0], &d)?]
            }),
        )?;
    }
    Ok(out)
}

/// Φ(x) = ½ (1 + erf(x / √2)), the standard normal CDF.
fn normal_cdf(x: &Tensor) -> Result<Tensor> {
    let e = erf(&mul_scalar(x, std::f64::consts::FRAC_1_SQRT_2)?)?;
    mul_scalar(&add(&e, &scalar(1.0))?, 0.5)
}

/// √(2/π) (x + κ x³)
fn tanh_inner(x: &Tensor) -> Result<Tensor> {
    let cube = mul(&mul(x, x)?, x)?;
    mul_scalar(&add(x, &mul_scalar(&cube, KAPPA)?)?, SQRT_2_OVER_PI)
}
