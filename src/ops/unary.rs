//! Elementwise functions of one tensor, each with its derivative beside it.
use super::pointwise::floating;
use super::*;
use crate::backend;
use crate::backend::UnaryKernel;
use crate::dtype::DType;
use crate::grads;

pub fn neg(x: &Tensor) -> Result<Tensor> {
    let dt = x.dtype();
    if dt == DType::Bool {
        return Err(Error::NotImplemented("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.".into()));
    }
    // -v, not 0 - v: the negation of +0.0 is -0.0; integers wrap as in PyTorch
    let out = backend::unary(UnaryKernel::Neg, x)?;
    if needs_grad(&[x])? {
        // d(-x) = -dx
        record(
            "NegBackward0",
            &[x],
            &[&out],
            vec![],
            Box::new(|_, g| grads![neg(&g[0])?]),
        )?;
    }
    Ok(out)
}

/// Complex conjugate (a copy; identity for real tensors, returned as is).
pub fn conj(x: &Tensor) -> Result<Tensor> {
    let dt = x.dtype();
    if !dt.is_complex() {
        return Ok(x.clone());
    }
    let out = backend::unary(UnaryKernel::Conj, x)?;
    let flag = !x.meta().is_conj;
    out.meta().is_conj = flag;
    if needs_grad(&[x])? {
        record(
            "ConjBackward0",
            &[x],
            &[&out],
            vec![],
            Box::new(|_, g| grads![conj(&g[0])?]),
        )?;
    }
    Ok(out)
}

/// PyTorch's NotImplementedError for a real-only op given a complex tensor.
fn real_only(x: &Tensor, message: &str) -> Result<()> {
    if x.dtype().is_complex() {
        return Err(Error::NotImplemented(message.into()));
    }
    Ok(())
}

pub fn relu(x: &Tensor) -> Result<Tensor> {
    real_only(x, "clamp is not supported for complex types")?;
    if x.dtype() == DType::Bool {
        return Err(Error::NotImplemented(
            "Boolean inputs not supported for relu".into(),
        ));
    }
    let out = backend::unary(UnaryKernel::Relu, x)?;
    if needs_grad(&[x])? {
        // d relu(x) = [relu(x) > 0] dx
        record(
            "ReluBackward0",
            &[x],
            &[&out],
            vec![save_output("result", &out, 0)?],
            Box::new(|s, g| grads![threshold_backward(&g[0], &s[0], 0.0)?]),
        )?;
    }
    Ok(out)
}

/// `x` where `x > threshold`, else `value` (`torch.threshold`, ThresholdBackward0; `node` names
/// the in-place form's ThresholdBackward1, whose gradient is the same).
pub fn threshold(x: &Tensor, threshold: f64, value: f64, node: &'static str) -> Result<Tensor> {
    if x.dtype() == DType::Bool || x.dtype().is_complex() {
        return Err(Error::NotImplemented(format!(
            "\"threshold_cpu\" not implemented for '{}'",
            x.dtype().scalar_type_name()
        )));
    }
    let out = {
        let _nograd = crate::grad_mode::GradModeGuard::new(false);
        let keep = compare(CmpOp::Gt, x, &Tensor::wrapped_scalar(threshold))?;
        // the result keeps the input's dtype (an integer tensor stays integer)
        let out = index::where_(&keep, x, &Tensor::wrapped_scalar(value))?;
        if out.dtype() == x.dtype() {
            out
        } else {
            to_dtype(&out, x.dtype())?
        }
    };
    if needs_grad(&[x])? {
        record(
            node,
            &[x],
            &[&out],
            vec![save("self", x)?],
            Box::new(move |s, g| grads![threshold_backward(&g[0], &s[0], threshold)?]),
        )?;
    }
    Ok(out)
}

/// 0 where `x <= threshold`, else `g`: relu's backward. Under create_graph it is recorded as
/// PyTorch records it (ThresholdBackwardBackward0: linear in `g`, zero gradient for `x`).
pub fn threshold_backward(g: &Tensor, x: &Tensor, threshold: f64) -> Result<Tensor> {
    let out = {
        let _nograd = crate::grad_mode::GradModeGuard::new(false);
        match crate::backend::cpu::rows::threshold_backward(&x.strided(), &g.strided(), threshold)?
        {
            Some(out) => Tensor::from_strided(out),
            None => {
                // a select, not a product: a NaN or infinite g where x <= threshold gives 0,
                // and a NaN x passes g (PyTorch's `x <= threshold ? 0 : g`)
                let drop = compare(CmpOp::Le, x, &Tensor::wrapped_scalar(threshold))?;
                index::where_(&drop, &Tensor::wrapped_scalar(0.0f64), g)?
            }
        }
    };
    if needs_grad(&[g, x])? {
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
        )?;
    }
    Ok(out)
}

pub fn abs(x: &Tensor) -> Result<Tensor> {
    let dt = x.dtype();
    crate::dtype::shell_kernel_check(dt, "abs_cpu")?;
    if dt == DType::Bool {
        return Err(Error::NotImplemented(
            "\"abs_cpu\" not implemented for 'Bool'".into(),
        ));
    }
    let out = backend::unary(UnaryKernel::Abs, x)?;
    if needs_grad(&[x])? {
        // d|x| = sgn(x) dx  (x/|x| for complex, 0 at 0)
        record(
            "AbsBackward0",
            &[x],
            &[&out],
            vec![save("self", x)?],
            Box::new(|s, g| grads![mul(&g[0], &sgn(&s[0])?)?]),
        )?;
    }
    Ok(out)
}

/// sign(x) for real x, x/|x| for complex (0 at 0). Not differentiable beyond a zero gradient.
pub fn sgn(x: &Tensor) -> Result<Tensor> {
    sgn_named(x, "SgnBackward0")
}

/// sgn, its real branch recorded as `real_node` (`sign` is the same kernel under its own node).
fn sgn_named(x: &Tensor, real_node: &'static str) -> Result<Tensor> {
    let dt = x.dtype();
    let out = match dt {
        // a copy, never an alias of the input
        DType::Bool => backend::cast_keep(x, dt)?,
        _ if dt.is_complex() => backend::unary(UnaryKernel::Sgn, x)?,
        _ => backend::unary(UnaryKernel::Sign, x)?,
    };
    if needs_grad(&[x])? {
        if dt.is_complex() {
            // sgn(z) = z/|z| moves along the circle only:
            // dz = (g - sgn · Re(conj(sgn) · g)) / |z|, and 0 at z = 0 (PyTorch's formula)
            record(
                "SgnBackward0",
                &[x],
                &[&out],
                vec![save("self", x)?, save_output("result", &out, 0)?],
                Box::new(|s, g| {
                    let (z, sg) = (&s[0], &s[1]);
                    let u = mul(&conj(sg)?, &g[0])?;
                    let re = mul_scalar(&add(&u, &conj(&u)?)?, 0.5)?;
                    let a = abs(z)?;
                    let d = div(&sub(&g[0], &mul(sg, &re)?)?, &a)?;
                    let at_zero = compare(CmpOp::Eq, &a, &Tensor::wrapped_scalar(0.0f64))?;
                    grads![where_(&at_zero, &Tensor::wrapped_scalar(0.0f64), &d)?]
                }),
            )?;
        } else {
            record(
                real_node,
                &[x],
                &[&out],
                vec![],
                Box::new(|_, g| grads![zeros_like_grad(&g[0])?]),
            )?;
        }
    }
    Ok(out)
}

pub fn sign(x: &Tensor) -> Result<Tensor> {
    crate::dtype::shell_kernel_check(x.dtype(), "sign_cpu")?;
    real_only(
        x,
        "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use torch.sgn instead.",
    )?;
    sgn_named(x, "SignBackward0")
}

/// The argument of a complex number (AngleBackward0); 0 or π for reals.
pub fn angle(x: &Tensor) -> Result<Tensor> {
    let out = if x.dtype().is_complex() {
        backend::unary(UnaryKernel::Angle, x)?
    } else {
        backend::unary(UnaryKernel::Angle, &floating(x)?)?
    };
    if needs_grad(&[x])? {
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
        )?;
    }
    Ok(out)
}
