//! The activations nn.functional has beyond relu: leaky_relu, silu, elu, hardtanh (relu6),
//! softplus and gelu, each with PyTorch's node and its derivative written with ops beside the
//! forward (so create_graph differentiates it again). Their behaviour at 0, at the bounds and
//! at NaN is PyTorch 2.15's (tests/python/test_activations.py).
//!
//! `inplace` records the in-place form's node where PyTorch has its own (LeakyReluBackward1,
//! EluBackward1: they save the result, as the input is overwritten); the binding writes the
//! value into the tensor (`apply_inplace`).
use super::*;
use crate::dtype::DType;
use crate::grad_mode::GradModeGuard;
use crate::grads;

fn scalar(v: f64) -> Tensor {
    Tensor::wrapped_scalar(v)
}

/// PyTorch's error for an activation without integer or bool kernels.
/// PyTorch's dtype dispatch of a real-only activation kernel: floating types only (complex
/// refused too, even for an empty tensor).
fn floating_only(x: &Tensor, kernel: &str) -> Result<()> {
    if x.dtype().is_differentiable() && !x.dtype().is_complex() {
        return Ok(());
    }
    Err(no_kernel(x, kernel))
}

/// [`floating_only`] for a kernel that has complex types too (`silu`, `prelu`).
fn floating_or_complex(x: &Tensor, kernel: &str) -> Result<()> {
    if x.dtype().is_differentiable() {
        return Ok(());
    }
    Err(no_kernel(x, kernel))
}

/// PyTorch's error of a kernel with no code for x's dtype.
fn no_kernel(x: &Tensor, kernel: &str) -> Error {
    let dev = if x.is_cuda() { "cuda" } else { "cpu" };
    Error::NotImplemented(format!(
        "\"{kernel}_{dev}\" not implemented for '{}'",
        x.dtype().scalar_type_name()
    ))
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
pub(crate) fn value(f: impl FnOnce() -> Result<Tensor>) -> Result<Tensor> {
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
    floating_or_complex(x, "silu")?;
    let out = value(|| mul(x, &sigmoid(x)?))?;
    super::complex_autograd_check("silu", &[x], &out)?;
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
    let names = ("EluBackward0", "EluBackward1");
    elu_scaled(x, alpha, 1.0, (1.0, 1.0), inplace, names)
}

/// SELU's constants (Klambauer et al.), as PyTorch's.
const SELU_ALPHA: f64 = 1.673_263_242_354_377_3;
const SELU_SCALE: f64 = 1.050_700_987_355_480_5;

/// `scale · elu(x, alpha)` with SELU's constants (EluBackward0; in place EluBackward1).
pub fn selu(x: &Tensor, inplace: bool) -> Result<Tensor> {
    let names = ("EluBackward0", "EluBackward1");
    elu_scaled(x, SELU_ALPHA, SELU_SCALE, (1.0, 1.0), inplace, names)
}

/// `max(0, x) + min(0, alpha (e^(x/alpha) - 1))` (CeluBackward0; in place CeluBackward1).
pub fn celu(x: &Tensor, alpha: f64, inplace: bool) -> Result<Tensor> {
    if alpha == 0.0 {
        return Err(Error::Runtime(
            "ZeroDivisionError: alpha cannot be 0 for CELU".into(),
        ));
    }
    let names = ("CeluBackward0", "CeluBackward1");
    // the forward scales by 1/alpha, the backward by 1/float32(alpha), as PyTorch's formula
    let input_scale = (1.0 / alpha, 1.0 / (alpha as f32 as f64));
    elu_scaled(x, alpha, 1.0, input_scale, inplace, names)
}

/// A scalar argument as the kernel's arithmetic holds it: float for float32 and the 16-bit
/// floats, double for float64 (PyTorch's opmath type).
fn opmath(x: &Tensor, v: f64) -> f64 {
    if x.dtype() == DType::Float64 {
        v
    } else {
        v as f32 as f64
    }
}

/// PyTorch's `elu(x, alpha, scale, input_scale)`: `scale · x` for x > 0,
/// `alpha · scale · (e^(x · input_scale) - 1)` elsewhere, the coefficients multiplied in the
/// kernel's precision as its kernel does. `input_scale` is the forward's and the backward's.
fn elu_scaled(
    x: &Tensor,
    alpha: f64,
    scale: f64,
    input_scale: (f64, f64),
    inplace: bool,
    names: (&'static str, &'static str),
) -> Result<Tensor> {
    floating_only(x, "elu")?;
    let negcoef = opmath(x, opmath(x, alpha) * opmath(x, scale));
    let (poscoef, negiptcoef) = (opmath(x, scale), opmath(x, input_scale.0));
    let grad_negiptcoef = opmath(x, input_scale.1);
    let out = in_opmath(x, |x| {
        let neg = compare(CmpOp::Le, x, &scalar(0.0))?;
        // expm1(x · input_scale) · alpha · scale below 0 (so -0 stays -0); the branch not
        // taken is computed at 0, so it stays finite
        let xneg = where_(&neg, x, &scalar(0.0))?;
        let below = mul_scalar(&expm1(&mul_scalar(&xneg, negiptcoef)?)?, negcoef)?;
        let above = if poscoef == 1.0 {
            x.clone()
        } else {
            mul_scalar(x, poscoef)?
        };
        where_(&neg, &below, &above)
    })?;
    if needs_grad(&[x])? {
        let (name, saved) = node_and_saved(inplace, names, x, &out)?;
        record(
            name,
            &[x],
            &[&out],
            vec![saved],
            Box::new(move |s, g| {
                // scale dx for x > 0 (and NaN); below, in PyTorch's order of products,
                // g · input_scale · alpha · scale · e^(x · input_scale), or from the result
                // g · input_scale · (result + alpha · scale)
                let v = &s[0];
                let neg = compare(CmpOp::Le, v, &scalar(0.0))?;
                let gi = mul_scalar(&g[0], grad_negiptcoef)?;
                let below = if inplace {
                    mul(&gi, &add(v, &scalar(negcoef))?)?
                } else {
                    let vneg = where_(&neg, v, &scalar(0.0))?;
                    let e = exp(&mul_scalar(&vneg, grad_negiptcoef)?)?;
                    mul(&mul_scalar(&gi, negcoef)?, &e)?
                };
                let pos = if poscoef == 1.0 {
                    g[0].clone()
                } else {
                    mul_scalar(&g[0], poscoef)?
                };
                grads![where_(&neg, &below, &pos)?]
            }),
        )?;
    }
    Ok(out)
}

/// `f(x)` unrecorded, computed as PyTorch's kernels compute a 16-bit float: in float32,
/// rounded once at the end.
fn in_opmath(x: &Tensor, f: impl FnOnce(&Tensor) -> Result<Tensor>) -> Result<Tensor> {
    value(|| {
        if x.dtype().is_half() {
            let wide = crate::backend::cast(x, DType::Float32)?;
            crate::backend::cast(&f(&wide)?, x.dtype())
        } else {
            f(x)
        }
    })
}

/// `x` clamped to [min_val, max_val] (HardtanhBackward0): the gradient passes strictly inside
/// (and through NaN), as PyTorch's.
pub fn hardtanh(x: &Tensor, min_val: f64, max_val: f64) -> Result<Tensor> {
    if min_val > max_val {
        return Err(Error::Value(
            "min_val cannot be greater than max_val".into(),
        ));
    }
    if x.dtype().is_complex() {
        return Err(Error::NotImplemented(
            "clamp is not supported for complex types".into(),
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
    if !x.dtype().is_differentiable() || x.dtype().is_complex() {
        return Err(Error::NotImplemented(format!(
            "\"GeluKernelImpl\" not implemented for '{}'",
            x.dtype().scalar_type_name()
        )));
    }
    let tanh_form = approximate == GeluApprox::Tanh;
    let fused = crate::backend::cpu::rows::gelu(&x.strided(), tanh_form)?.map(Tensor::from_strided);
    let out = value(|| match approximate {
        _ if fused.is_some() => Ok(fused.clone().expect("checked")),
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
                if !crate::grad_mode::is_grad_enabled() {
                    let fused = crate::backend::cpu::rows::gelu_backward(
                        &x.strided(),
                        &g[0].strided(),
                        tanh_form,
                    )?;
                    if let Some(dx) = fused {
                        return grads![Tensor::from_strided(dx)];
                    }
                }
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

/// `x · tanh(softplus(x))`, softplus without its threshold as PyTorch's kernel computes it
/// (MishBackward0).
pub fn mish(x: &Tensor) -> Result<Tensor> {
    floating_only(x, "mish")?;
    let tanh_softplus = |x: &Tensor| tanh(&log1p(&exp(x)?)?);
    let out = in_opmath(x, |x| mul(x, &tanh_softplus(x)?))?;
    if needs_grad(&[x])? {
        record(
            "MishBackward0",
            &[x],
            &[&out],
            vec![save("self", x)?],
            Box::new(move |s, g| {
                // d mish = (t + x σ(x) (1 - t²)) dx, t = tanh(softplus(x))
                let x = &s[0];
                let t = tanh_softplus(x)?;
                let sech2 = rsub(&mul(&t, &t)?, &scalar(1.0))?;
                let d = add(&t, &mul(&mul(x, &sigmoid(x)?)?, &sech2)?)?;
                grads![mul(&g[0], &d)?]
            }),
        )?;
    }
    Ok(out)
}

/// `x · min(max(x + 3, 0), 6) / 6` (HardswishBackward0).
pub fn hardswish(x: &Tensor) -> Result<Tensor> {
    floating_only(x, "hardswish")?;
    let out = in_opmath(x, |x| {
        let gate = clamp(&add(x, &scalar(3.0))?, Some(0.0), Some(6.0))?;
        div(&mul(x, &gate)?, &scalar(6.0))
    })?;
    if needs_grad(&[x])? {
        record(
            "HardswishBackward0",
            &[x],
            &[&out],
            vec![save("self", x)?],
            Box::new(move |s, g| {
                // 0 up to -3, (x/3 + 1/2) dx inside (-3, 3), dx from 3 (and at NaN)
                let x = &s[0];
                let ramp = mul(&g[0], &add(&div(x, &scalar(3.0))?, &scalar(0.5))?)?;
                let upper = where_(&compare(CmpOp::Lt, x, &scalar(3.0))?, &ramp, &g[0])?;
                let below = compare(CmpOp::Le, x, &scalar(-3.0))?;
                grads![where_(&below, &scalar(0.0), &upper)?]
            }),
        )?;
    }
    Ok(out)
}

/// `min(max(x + 3, 0), 6) / 6` (HardsigmoidBackward0). Its backward has no derivative in
/// PyTorch: a gradient recorded with `create_graph` carries PyTorch's NotImplemented node.
pub fn hardsigmoid(x: &Tensor) -> Result<Tensor> {
    floating_only(x, "hardsigmoid")?;
    let out = in_opmath(x, |x| {
        div(
            &clamp(&add(x, &scalar(3.0))?, Some(0.0), Some(6.0))?,
            &scalar(6.0),
        )
    })?;
    if needs_grad(&[x])? {
        record(
            "HardsigmoidBackward0",
            &[x],
            &[&out],
            vec![save("self", x)?],
            Box::new(move |s, g| {
                // dx · (1/6 in float32, whatever the dtype: PyTorch's constant) strictly
                // inside (-3, 3), 0 elsewhere
                let x = &s[0];
                let inside = bitwise(
                    BitOp::And,
                    &compare(CmpOp::Gt, x, &scalar(-3.0))?,
                    &compare(CmpOp::Lt, x, &scalar(3.0))?,
                )?;
                let sixth = (1.0f32 / 6.0f32) as f64;
                if !crate::grad_mode::is_fwd_grad_enabled() {
                    // a forward-mode tangent (ops::tangent differentiates this formula in the
                    // gradient, with forward grads off): PyTorch has that formula
                    return grads![where_(&inside, &mul_scalar(&g[0], sixth)?, &scalar(0.0))?];
                }
                let d = value(|| where_(&inside, &mul_scalar(&g[0], sixth)?, &scalar(0.0)))?;
                super::function::no_derivative_of(
                    &[&g[0], x],
                    &d,
                    "torch::autograd::NotImplemented".into(),
                    "hardsigmoid_backward",
                )?;
                grads![d]
            }),
        )?;
    }
    Ok(out)
}

/// `min(x, 0) - log(1 + e^-|x|)` (LogSigmoidBackward0), finite for every finite x.
pub fn logsigmoid(x: &Tensor) -> Result<Tensor> {
    floating_only(x, "log_sigmoid")?;
    let out = in_opmath(x, |x| {
        let z = exp(&neg(&abs(x)?)?)?;
        sub(&clamp(x, None, Some(0.0))?, &log1p(&z)?)
    })?;
    if needs_grad(&[x])? {
        record(
            "LogSigmoidBackward0",
            &[x],
            &[&out],
            vec![save("self", x)?],
            Box::new(move |s, g| {
                // (x < 0) - sign · z / (1 + z), z = e^-|x|, sign = 1 below 0, -1 above: σ(-x)
                let x = &s[0];
                let z = exp(&neg(&abs(x)?)?)?;
                let frac = div(&z, &add(&z, &scalar(1.0))?)?;
                let below = compare(CmpOp::Lt, x, &scalar(0.0))?;
                let d = where_(&below, &rsub(&frac, &scalar(1.0))?, &frac)?;
                grads![mul(&g[0], &d)?]
            }),
        )?;
    }
    Ok(out)
}

/// Where `-lambd <= x <= lambd` (the shrink functions' dead zone).
fn dead_zone(x: &Tensor, lambd: f64) -> Result<Tensor> {
    bitwise(
        BitOp::And,
        &compare(CmpOp::Ge, x, &scalar(-lambd))?,
        &compare(CmpOp::Le, x, &scalar(lambd))?,
    )
}

/// The shrink functions' node: the gradient passes outside the dead zone (and at NaN).
fn record_shrink(name: &'static str, x: &Tensor, out: &Tensor, lambd: f64) -> Result<()> {
    if needs_grad(&[x])? {
        record(
            name,
            &[x],
            &[out],
            vec![save("self", x)?],
            Box::new(move |s, g| grads![where_(&dead_zone(&s[0], lambd)?, &scalar(0.0), &g[0])?]),
        )?;
    }
    Ok(())
}

/// 0 where `-lambd <= x <= lambd`, `x` elsewhere (HardshrinkBackward0).
pub fn hardshrink(x: &Tensor, lambd: f64) -> Result<Tensor> {
    floating_only(x, "hardshrink")?;
    let out = value(|| where_(&dead_zone(x, lambd)?, &scalar(0.0), x))?;
    record_shrink("HardshrinkBackward0", x, &out, lambd)?;
    Ok(out)
}

/// `x - lambd` above lambd, `x + lambd` below -lambd, `0 · x` between (SoftshrinkBackward0), as
/// PyTorch's scalar kernel (small tensors, and the last elements of a loop; its vectorised one
/// gives +0 between).
pub fn softshrink(x: &Tensor, lambd: f64) -> Result<Tensor> {
    if !x.dtype().is_differentiable() || x.dtype().is_complex() {
        return Err(Error::NotImplemented(format!(
            "\"softshrink_check\" not implemented for '{}'",
            x.dtype().scalar_type_name()
        )));
    }
    let max = x.dtype().max_finite().unwrap_or(f64::MAX);
    if !(0.0..=max).contains(&lambd) {
        return Err(Error::Runtime(format!(
            "lambda must be in range [0, {}] for input dtype {}, but found {}",
            crate::error::cpp_double(max),
            x.dtype().scalar_type_name(),
            crate::error::cpp_double(lambd)
        )));
    }
    let out = value(|| {
        // NaN is outside the dead zone and stays NaN
        let above = compare(CmpOp::Gt, x, &scalar(lambd))?;
        let shrunk = where_(&above, &sub(x, &scalar(lambd))?, &add(x, &scalar(lambd))?)?;
        where_(&dead_zone(x, lambd)?, &mul(x, &scalar(0.0))?, &shrunk)
    })?;
    record_shrink("SoftshrinkBackward0", x, &out, lambd)?;
    Ok(out)
}

/// `a · σ(b)` of the halves `a`, `b` of `x` along `dim` (GluBackward0).
pub fn glu(x: &Tensor, dim: i64) -> Result<Tensor> {
    if x.ndim() == 0 {
        return Err(Error::Runtime(
            "glu does not support scalars because halving size must be even".into(),
        ));
    }
    let d = crate::shape::wrap_dim(dim, x.ndim())?;
    let n = x.shape()[d];
    if !n.is_multiple_of(2) {
        return Err(Error::Runtime(format!(
            "Halving dimension must be even, but dimension {d} is size {n}"
        )));
    }
    floating_only(x, "glu")?;
    let halves = move |x: &Tensor| -> Result<(Tensor, Tensor)> {
        let h = chunk(x, 2, d as i64)?;
        Ok((h[0].clone(), h[1].clone()))
    };
    let out = value(|| {
        let (a, b) = halves(x)?;
        mul(&a, &sigmoid(&b)?)
    })?;
    if needs_grad(&[x])? {
        record(
            "GluBackward0",
            &[x],
            &[&out],
            vec![save("self", x)?],
            Box::new(move |s, g| {
                // d/da = σ(b), d/db = a σ(b) (1 - σ(b))
                let (a, b) = halves(&s[0])?;
                let sig = sigmoid(&b)?;
                // in PyTorch's order of products: σ g, and (1 - σ) σ a g
                let ga = mul(&sig, &g[0])?;
                let dsig = mul(&rsub(&sig, &scalar(1.0))?, &sig)?;
                let gb = mul(&mul(&dsig, &a)?, &g[0])?;
                grads![cat(&[ga, gb], d as i64)?]
            }),
        )?;
    }
    Ok(out)
}

/// `x` where x > 0, `weight · x` elsewhere, `weight` broadcast against `x`
/// (PreluKernelBackward0; `F.prelu` shapes the weight).
pub fn prelu_kernel(x: &Tensor, weight: &Tensor) -> Result<Tensor> {
    floating_or_complex(x, "prelu")?;
    let pos = |x: &Tensor| compare(CmpOp::Gt, x, &scalar(0.0));
    let out = value(|| where_(&pos(x)?, x, &mul(weight, x)?))?;
    if needs_grad(&[x, weight])? {
        record(
            "PreluKernelBackward0",
            &[x, weight],
            &[&out],
            vec![save("self", x)?, save("weight", weight)?],
            Box::new(move |s, g| {
                // d/dx = 1 or weight, d/dweight = 0 or x (summed to the weight's shape by
                // the engine)
                let (x, w) = (&s[0], &s[1]);
                let p = pos(x)?;
                let gx = where_(&p, &g[0], &mul(w, &g[0])?)?;
                let gw = where_(&p, &scalar(0.0), &mul(x, &g[0])?)?;
                grads![gx, gw]
            }),
        )?;
    }
    Ok(out)
}
