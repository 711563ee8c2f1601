//! Elementwise functions of one tensor, each with its derivative beside it.
use super::pointwise::floating;
use super::*;
use crate::cuda::UnaryKernel;
use crate::dtype::{DType, Element};
use crate::grads;
use crate::kernels::{self, map1};

/// Real numeric types (no bool, no complex).
macro_rules! with_real_numeric {
    ($dt:expr, $T:ident, $body:block) => {
        match $dt {
            DType::UInt8 => {
                type $T = u8;
                $body
            }
            DType::Int32 => {
                type $T = i32;
                $body
            }
            DType::Int64 => {
                type $T = i64;
                $body
            }
            DType::Float16 => {
                type $T = half::f16;
                $body
            }
            DType::BFloat16 => {
                type $T = half::bf16;
                $body
            }
            DType::Float32 => {
                type $T = f32;
                $body
            }
            DType::Float64 => {
                type $T = f64;
                $body
            }
            _ => unreachable!("bool and complex are handled before this kernel"),
        }
    };
}

pub fn neg(x: &Tensor) -> Result<Tensor> {
    let dt = x.dtype();
    if dt == DType::Bool {
        return Err(Error::Runtime("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.".into()));
    }
    let out = if x.is_cuda() {
        crate::cuda::unary(UnaryKernel::Neg, x)?
    } else {
        // -v, not 0 - v: the negation of +0.0 is -0.0; integers wrap as in PyTorch
        match dt {
            DType::Float32 => map1::<f32, f32>(x, |v| -v)?,
            DType::Float64 => map1::<f64, f64>(x, |v| -v)?,
            DType::Float16 => map1::<half::f16, half::f16>(x, |v| -v)?,
            DType::BFloat16 => map1::<half::bf16, half::bf16>(x, |v| -v)?,
            DType::Complex64 => map1::<num_complex::Complex32, num_complex::Complex32>(x, |v| -v)?,
            DType::Complex128 => map1::<num_complex::Complex64, num_complex::Complex64>(x, |v| -v)?,
            DType::Int64 => map1::<i64, i64>(x, |v| v.wrapping_neg())?,
            DType::Int32 => map1::<i32, i32>(x, |v| v.wrapping_neg())?,
            DType::UInt8 => map1::<u8, u8>(x, |v| v.wrapping_neg())?,
            DType::Bool => return Err(Error::Runtime("neg of a bool tensor".into())),
        }
    };
    if needs_grad(&[x]) {
        // d(-x) = -dx
        record(
            "NegBackward0",
            &[x],
            &[&out],
            vec![],
            Box::new(|_, g| grads![neg(&g[0])?]),
        );
    }
    Ok(out)
}

/// Complex conjugate (a copy; identity for real tensors, returned as is).
pub fn conj(x: &Tensor) -> Result<Tensor> {
    let dt = x.dtype();
    if !dt.is_complex() {
        return Ok(x.clone());
    }
    let out = if x.is_cuda() {
        crate::cuda::unary(UnaryKernel::Conj, x)?
    } else if dt == DType::Complex64 {
        map1::<num_complex::Complex32, num_complex::Complex32>(x, |v| v.conj())?
    } else {
        map1::<num_complex::Complex64, num_complex::Complex64>(x, |v| v.conj())?
    };
    let flag = !x.meta().is_conj;
    out.meta().is_conj = flag;
    if needs_grad(&[x]) {
        record(
            "ConjBackward0",
            &[x],
            &[&out],
            vec![],
            Box::new(|_, g| grads![conj(&g[0])?]),
        );
    }
    Ok(out)
}

fn real_only(x: &Tensor, what: &str) -> Result<()> {
    if x.dtype().is_complex() {
        return Err(Error::Runtime(format!(
            "{} is not supported for complex inputs",
            what
        )));
    }
    Ok(())
}

pub fn relu(x: &Tensor) -> Result<Tensor> {
    real_only(x, "clamp")?;
    if x.dtype() == DType::Bool {
        return Err(Error::Runtime(
            "\"clamp_min_cpu\" not implemented for 'Bool'".into(),
        ));
    }
    let out = if x.is_cuda() {
        crate::cuda::unary(UnaryKernel::Relu, x)?
    } else {
        with_real_numeric!(x.dtype(), T, {
            let z = T::default();
            // NaN stays NaN (v != v only for NaN), as in PyTorch.
            #[allow(clippy::eq_op)]
            map1::<T, T>(x, move |v| if v > z || v != v { v } else { z })?
        })
    };
    if needs_grad(&[x]) {
        // d relu(x) = [relu(x) > 0] dx
        record(
            "ReluBackward0",
            &[x],
            &[&out],
            vec![save_output("result", &out, 0)],
            Box::new(|s, g| grads![threshold_backward(&g[0], &s[0], 0.0)?]),
        );
    }
    Ok(out)
}

/// `g` where `x > threshold`, else 0: relu's backward. Under create_graph it is recorded as
/// PyTorch records it (ThresholdBackwardBackward0: linear in `g`, zero gradient for `x`).
pub fn threshold_backward(g: &Tensor, x: &Tensor, threshold: f64) -> Result<Tensor> {
    let out = {
        let _nograd = crate::grad_mode::GradModeGuard::new(false);
        let mask = kernels::cast(
            &compare(CmpOp::Gt, x, &Tensor::wrapped_scalar(threshold))?,
            g.dtype(),
        )?;
        mul(g, &mask)?
    };
    if needs_grad(&[g, x]) {
        record(
            "ThresholdBackwardBackward0",
            &[g, x],
            &[&out],
            vec![save("self", x)?],
            Box::new(move |s, gg| {
                grads![
                    threshold_backward(&gg[0], &s[0], threshold)?,
                    zeros_like_grad(&gg[0])?
                ]
            }),
        );
    }
    Ok(out)
}

pub fn abs(x: &Tensor) -> Result<Tensor> {
    let dt = x.dtype();
    let out = match dt {
        DType::Bool => x.detached(),
        _ if x.is_cuda() => crate::cuda::unary(UnaryKernel::Abs, x)?,
        DType::Complex64 => map1::<num_complex::Complex32, f32>(x, |v| v.norm())?,
        DType::Complex128 => map1::<num_complex::Complex64, f64>(x, |v| v.norm())?,
        _ => with_real_numeric!(dt, T, {
            let z = T::default();
            map1::<T, T>(x, move |v| if v < z { z - v } else { v })?
        }),
    };
    if needs_grad(&[x]) {
        // d|x| = sgn(x) dx  (x/|x| for complex, 0 at 0)
        record(
            "AbsBackward0",
            &[x],
            &[&out],
            vec![save("self", x)?],
            Box::new(|s, g| grads![mul(&g[0], &sgn(&s[0])?)?]),
        );
    }
    Ok(out)
}

/// sign(x) for real x, x/|x| for complex (0 at 0). Not differentiable beyond a zero gradient.
pub fn sgn(x: &Tensor) -> Result<Tensor> {
    let dt = x.dtype();
    let out = match dt {
        DType::Bool => x.detached(),
        _ if x.is_cuda() => crate::cuda::unary(
            if dt.is_complex() {
                UnaryKernel::Sgn
            } else {
                UnaryKernel::Sign
            },
            x,
        )?,
        DType::Complex64 => map1::<num_complex::Complex32, num_complex::Complex32>(x, |v| {
            let n = v.norm();
            if n == 0.0 {
                v
            } else {
                v / n
            }
        })?,
        DType::Complex128 => map1::<num_complex::Complex64, num_complex::Complex64>(x, |v| {
            let n = v.norm();
            if n == 0.0 {
                v
            } else {
                v / n
            }
        })?,
        _ => with_real_numeric!(dt, T, {
            let z = T::default();
            let one = <T as Element>::from_f64(1.0);
            map1::<T, T>(x, move |v| {
                if v > z {
                    one
                } else if v < z {
                    z - one
                } else {
                    z
                }
            })?
        }),
    };
    if needs_grad(&[x]) {
        if dt.is_complex() {
            // sgn(z) = z/|z| moves along the circle only:
            // dz = (g - sgn · Re(conj(sgn) · g)) / |z|, and 0 at z = 0 (PyTorch's formula)
            record(
                "SgnBackward0",
                &[x],
                &[&out],
                vec![save("self", x)?, save_output("result", &out, 0)],
                Box::new(|s, g| {
                    let (z, sg) = (&s[0], &s[1]);
                    let u = mul(&conj(sg)?, &g[0])?;
                    let re = mul_scalar(&add(&u, &conj(&u)?)?, 0.5)?;
                    let a = abs(z)?;
                    let d = div(&sub(&g[0], &mul(sg, &re)?)?, &a)?;
                    let at_zero = compare(CmpOp::Eq, &a, &Tensor::wrapped_scalar(0.0f64))?;
                    grads![where_(&at_zero, &Tensor::wrapped_scalar(0.0f64), &d)?]
                }),
            );
        } else {
            record(
                "SignBackward0",
                &[x],
                &[&out],
                vec![],
                Box::new(|_, g| grads![zeros_like_grad(&g[0])?]),
            );
        }
    }
    Ok(out)
}

/// Piecewise-constant float functions: recorded, with a zero gradient.
fn piecewise(
    x: &Tensor,
    name: &'static str,
    kernel: UnaryKernel,
    f32f: fn(f32) -> f32,
    f64f: fn(f64) -> f64,
) -> Result<Tensor> {
    real_only(x, name)?;
    let out = match x.dtype() {
        DType::Float32 | DType::Float64 | DType::Float16 | DType::BFloat16 if x.is_cuda() => {
            crate::cuda::unary(kernel, x)?
        }
        DType::Float32 => map1::<f32, f32>(x, f32f)?,
        DType::Float64 => map1::<f64, f64>(x, f64f)?,
        d if d.is_half() => kernels::cast_keep(
            &map1::<f32, f32>(&kernels::cast_keep(x, DType::Float32)?, f32f)?,
            d,
        )?,
        _ => return super::clone(x),
    };
    if needs_grad(&[x]) {
        record(
            name,
            &[x],
            &[&out],
            vec![],
            Box::new(|_, g| grads![zeros_like_grad(&g[0])?]),
        );
    }
    Ok(out)
}

pub fn floor(x: &Tensor) -> Result<Tensor> {
    piecewise(
        x,
        "FloorBackward0",
        UnaryKernel::Floor,
        f32::floor,
        f64::floor,
    )
}
pub fn ceil(x: &Tensor) -> Result<Tensor> {
    piecewise(x, "CeilBackward0", UnaryKernel::Ceil, f32::ceil, f64::ceil)
}
pub fn round(x: &Tensor) -> Result<Tensor> {
    if x.dtype() == DType::Bool {
        return Err(Error::NotImplemented(
            "\"round_vml_cpu\" not implemented for 'Bool'".into(),
        ));
    }
    piecewise(
        x,
        "RoundBackward0",
        UnaryKernel::Round,
        f32::round_ties_even,
        f64::round_ties_even,
    )
}
pub fn sign(x: &Tensor) -> Result<Tensor> {
    real_only(x, "sign")?;
    sgn(x)
}

/// The argument of a complex number (AngleBackward0); 0 or π for reals.
pub fn angle(x: &Tensor) -> Result<Tensor> {
    let out = match x.dtype() {
        _ if x.is_cuda() => crate::cuda::unary(UnaryKernel::Angle, &floating(x)?)?,
        DType::Complex64 => map1::<num_complex::Complex32, f32>(x, |v| v.arg())?,
        DType::Complex128 => map1::<num_complex::Complex64, f64>(x, |v| v.arg())?,
        _ => {
            let xf = floating(x)?;
            let r = map1::<f64, f64>(&kernels::cast_keep(&xf, DType::Float64)?, |v| {
                if v < 0.0 {
                    std::f64::consts::PI
                } else if v.is_nan() {
                    v
                } else {
                    0.0
                }
            })?;
            kernels::cast_keep(&r, xf.dtype())?
        }
    };
    if needs_grad(&[x]) {
        // z.grad = g · i z / |z|²  (0 at z = 0); real inputs get a zero gradient
        record(
            "AngleBackward0",
            &[x],
            &[&out],
            vec![save("self", x)?],
            Box::new(|s, g| {
                let z = &s[0];
                if !z.dtype().is_complex() {
                    return grads![zeros_like_grad(&g[0])?];
                }
                let a = abs(z)?;
                let iz = mul(
                    z,
                    &Tensor::wrapped_scalar(num_complex::Complex64::new(0.0, 1.0)),
                )?;
                let d = div(&iz, &mul(&a, &a)?)?;
                let nz = compare(CmpOp::Ne, &a, &Tensor::wrapped_scalar(0.0))?;
                let d = super::where_(&nz, &d, &Tensor::zeros(&[], d.dtype())?)?;
                grads![mul(&g[0], &d)?]
            }),
        );
    }
    Ok(out)
}
