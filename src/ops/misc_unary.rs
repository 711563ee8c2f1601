//! Elementwise functions of one float tensor with their own argument rules: `frac`, `logit`
//! (with `eps`) and `nan_to_num`, each PyTorch's node with its derivative written with ops.
use super::activation::value;
use super::*;
use crate::grads;

fn scalar(v: f64) -> Tensor {
    Tensor::wrapped_scalar(v)
}

/// PyTorch's error for a function without integer, bool (or complex) kernels.
fn no_kernel(x: &Tensor, kernel: &str) -> Error {
    let dev = if x.is_cuda() { "cuda" } else { "cpu" };
    Error::NotImplemented(format!(
        "\"{kernel}_{dev}\" not implemented for '{}'",
        x.dtype().scalar_type_name()
    ))
}

/// The fractional part `x - trunc(x)` (FracBackward0, whose gradient passes unchanged).
pub fn frac(x: &Tensor) -> Result<Tensor> {
    if !x.dtype().is_floating() {
        return Err(no_kernel(x, "frac"));
    }
    let out = value(|| sub(x, &trunc(x)?))?;
    if needs_grad(&[x])? {
        record(
            "FracBackward0",
            &[x],
            &[&out],
            vec![],
            Box::new(|_, g| grads![g[0].clone()]),
        )?;
    }
    Ok(out)
}

/// `log(x / (1 - x))`, with `x` first clamped to `[eps, 1 - eps]` when `eps` is given
/// (LogitBackward0, saving `self`); integers compute in the default float dtype.
pub fn logit(x: &Tensor, eps: Option<f64>) -> Result<Tensor> {
    if x.dtype().is_complex() {
        return Err(no_kernel(x, "logit"));
    }
    let xf = super::pointwise::floating(x)?;
    let out = value(|| {
        let z = match eps {
            None => xf.clone(),
            Some(e) => {
                let lo = scalar(e);
                let hi = scalar(1.0 - e);
                let below = compare(CmpOp::Lt, &xf, &lo)?;
                let above = compare(CmpOp::Gt, &xf, &hi)?;
                where_(&below, &lo, &where_(&above, &hi, &xf)?)?
            }
        };
        log(&div(&z, &rsub(&z, &scalar(1.0))?)?)
    })?;
    if needs_grad(&[x])? {
        record(
            "LogitBackward0",
            &[x],
            &[&out],
            vec![save("self", x)?],
            Box::new(move |s, g| grads![logit_backward(&g[0], &s[0], eps)?]),
        )?;
    }
    Ok(out)
}

/// PyTorch's logit_backward: `dy / (x (1 - x))`, NaN outside [0, 1] without `eps`, 0 outside
/// `[eps, 1 - eps]` with it.
fn logit_backward(g: &Tensor, x: &Tensor, eps: Option<f64>) -> Result<Tensor> {
    let d = div(g, &mul(x, &rsub(x, &scalar(1.0))?)?)?;
    let (lo, hi, fill) = match eps {
        None => (0.0, 1.0, f64::NAN),
        Some(e) => (e, 1.0 - e, 0.0),
    };
    let outside = {
        let _g = crate::grad_mode::GradModeGuard::new(false);
        bitwise(
            BitOp::Or,
            &compare(CmpOp::Lt, x, &scalar(lo))?,
            &compare(CmpOp::Gt, x, &scalar(hi))?,
        )?
    };
    where_(&outside, &scalar(fill), &d)
}

/// NaN, +inf and -inf replaced by `nan`, `posinf` and `neginf` (by default 0 and the dtype's
/// largest and lowest finite values) (NanToNumBackward0: the gradient passes where `x` is
/// finite); integers and bools are returned as a copy.
pub fn nan_to_num(
    x: &Tensor,
    nan: Option<f64>,
    posinf: Option<f64>,
    neginf: Option<f64>,
) -> Result<Tensor> {
    if !x.dtype().is_floating() && !x.dtype().is_complex() {
        return value(|| clone_preserving(x));
    }
    let out = if x.dtype().is_complex() {
        // the real and imaginary parts each, with the part type's limits (as PyTorch)
        value(|| {
            let parts = view_as_real(&x.detached())?;
            view_as_complex_copy(&nan_to_num(&parts, nan, posinf, neginf)?)
        })?
    } else {
        let max = x.dtype().max_finite().unwrap_or(f64::MAX);
        let (nan, posinf, neginf) = (
            nan.unwrap_or(0.0),
            posinf.unwrap_or(max),
            neginf.unwrap_or(-max),
        );
        value(|| {
            let is_nan = compare(CmpOp::Ne, x, x)?;
            let pos = compare(CmpOp::Eq, x, &scalar(f64::INFINITY))?;
            let neg = compare(CmpOp::Eq, x, &scalar(f64::NEG_INFINITY))?;
            let r = where_(&neg, &scalar(neginf), x)?;
            let r = where_(&pos, &scalar(posinf), &r)?;
            where_(&is_nan, &scalar(nan), &r)
        })?
    };
    if needs_grad(&[x])? {
        record(
            "NanToNumBackward0",
            &[x],
            &[&out],
            vec![save("self", x)?],
            Box::new(|s, g| {
                let finite = {
                    let _g = crate::grad_mode::GradModeGuard::new(false);
                    compare(CmpOp::Eq, &sub(&s[0], &s[0])?, &scalar(0.0))?
                };
                grads![where_(&finite, &g[0], &scalar(0.0))?]
            }),
        )?;
    }
    Ok(out)
}

/// `f` of each element in the element's precision (float32, float64; 16-bit floats through
/// float32; integers and bools in the default float dtype), computed on the host and returned
/// on the input's device.
fn host_map(x: &Tensor, f32f: impl Fn(f32) -> f32, f64f: impl Fn(f64) -> f64) -> Result<Tensor> {
    let xf = super::pointwise::floating(x)?;
    let (dt, shape) = (xf.dtype(), xf.shape());
    let out = if dt == crate::dtype::DType::Float64 {
        let v: Vec<f64> = xf.try_to_vec::<f64>()?.into_iter().map(f64f).collect();
        Tensor::from_vec(v, &shape)?
    } else {
        let v: Vec<f32> = xf.try_to_vec::<f32>()?.into_iter().map(f32f).collect();
        crate::backend::cast(&Tensor::from_vec(v, &shape)?, dt)?
    };
    crate::backend::to_device(&out, x.device())
}

fn refuse_complex(x: &Tensor, kernel: &str) -> Result<()> {
    if x.dtype().is_complex() {
        return Err(Error::NotImplemented(format!(
            "\"{kernel}\" not implemented for '{}'",
            x.dtype().scalar_type_name()
        )));
    }
    Ok(())
}

/// log |Γ(x)| (LgammaBackward0: its gradient is digamma(x)).
pub fn lgamma(x: &Tensor) -> Result<Tensor> {
    use crate::backend::cpu::special::Gamma;
    refuse_complex(x, "lgamma_vml_cpu")?;
    let out = value(|| host_map(x, |v| v.lgamma(), |v| v.lgamma()))?;
    if needs_grad(&[x])? {
        record(
            "LgammaBackward0",
            &[x],
            &[&out],
            vec![save("self", x)?],
            Box::new(|s, g| grads![mul(&g[0], &digamma(&s[0])?)?]),
        )?;
    }
    Ok(out)
}

/// The logarithmic derivative of Γ, ψ(x) (DigammaBackward0: its gradient is polygamma(1, x)).
pub fn digamma(x: &Tensor) -> Result<Tensor> {
    use crate::backend::cpu::special::Gamma;
    refuse_complex(x, "digamma")?;
    let out = value(|| host_map(x, |v| v.digamma(), |v| v.digamma()))?;
    if needs_grad(&[x])? {
        record(
            "DigammaBackward0",
            &[x],
            &[&out],
            vec![save("self", x)?],
            Box::new(|s, g| grads![mul(&g[0], &polygamma(1, &s[0])?)?]),
        )?;
    }
    Ok(out)
}

/// The n-th derivative of digamma (PolygammaBackward0: its gradient is polygamma(n + 1, x)).
pub fn polygamma(n: i64, x: &Tensor) -> Result<Tensor> {
    use crate::backend::cpu::special::Gamma;
    if n < 0 {
        return Err(Error::Runtime(
            "polygamma(n, x) does not support negative n.".into(),
        ));
    }
    refuse_complex(x, "polygamma")?;
    let out = value(|| host_map(x, |v| v.polygamma(n), |v| v.polygamma(n)))?;
    if needs_grad(&[x])? {
        record(
            "PolygammaBackward0",
            &[x],
            &[&out],
            vec![save("self", x)?],
            Box::new(move |s, g| grads![mul(&g[0], &polygamma(n + 1, &s[0])?)?]),
        )?;
    }
    Ok(out)
}
