//! Division that rounds: floor division (`//`), `remainder` (`%`) and `fmod`.
use super::arith::{cast_to, promote_pair};
use super::*;
use crate::backend;
use crate::backend::BinaryKernel;
use crate::dtype::DType;
use crate::grads;
use crate::shape::broadcast_shapes;

/// `a // b`: floor division. Like PyTorch, a result from inputs that require grad has a
/// `NotImplemented` node whose backward raises (floor division has no derivative there).
pub fn floor_divide(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let out = floor_divide_kernel(a, b)?;
    if out.dtype().is_differentiable() && needs_grad(&[a, b])? {
        record(
            "NotImplemented",
            &[a, b],
            &[&out],
            vec![],
            Box::new(|_, _| {
                Err(Error::Runtime(
                    "derivative for aten::floor_divide is not implemented".into(),
                ))
            }),
        )?;
    }
    Ok(out)
}

fn floor_divide_kernel(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let (dt, a2, b2) = promote_pair(a, b)?;
    if dt.is_half() {
        let r = floor_divide_kernel(
            &cast_to(&a2, DType::Float32)?,
            &cast_to(&b2, DType::Float32)?,
        )?;
        return cast_to(&r, dt);
    }
    broadcast_shapes(&a2.shape(), &b2.shape())?;
    match dt {
        DType::Bool | DType::Complex64 | DType::Complex128 => Err(Error::Runtime(format!(
            "\"div_floor_cpu\" not implemented for '{}'",
            dt.scalar_type_name()
        ))),
        DType::Float32 | DType::Float64 => backend::binary(BinaryKernel::FloorDiv, &a2, &b2, dt),
        dt => int_division(BinaryKernel::FloorDiv, &a2, &b2, dt),
    }
}

/// `a % b` / `torch.remainder` (RemainderBackward0): the sign of the divisor, as Python's %.
pub fn remainder(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    modulo(a, b, true)
}

/// `torch.fmod` (FmodBackward0): the sign of the dividend, as C's fmod.
pub fn fmod(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    modulo(a, b, false)
}

fn modulo(a: &Tensor, b: &Tensor, python_sign: bool) -> Result<Tensor> {
    let out = modulo_kernel(a, b, python_sign)?;
    if out.dtype().is_differentiable() && needs_grad(&[a, b])? {
        let b_number = b.data().wrapped_number;
        if a.data().wrapped_number {
            // PyTorch has no derivative for remainder(Scalar, Tensor)
            let what = if python_sign { "remainder" } else { "fmod" };
            record(
                "NotImplemented",
                &[a, b],
                &[&out],
                vec![],
                Box::new(move |_, _| {
                    Err(Error::Runtime(format!(
                        "derivative for aten::{what} is not implemented"
                    )))
                }),
            )?;
            return Ok(out);
        }
        // d(a mod b) = da - q db, with q the rounded quotient (floor for remainder, trunc for
        // fmod); a Python-number divisor gets no gradient (the Scalar overload, ...Backward0).
        let name = match (python_sign, b_number) {
            (true, true) => "RemainderBackward0",
            (true, false) => "RemainderBackward1",
            (false, true) => "FmodBackward0",
            (false, false) => "FmodBackward1",
        };
        // only the divisor's gradient reads the operands: PyTorch saves them only for it
        let other_grad = !b_number && needs_formula(b);
        record(
            name,
            &[a, b],
            &[&out],
            vec![
                save_if(other_grad, "self", a)?,
                save_if(other_grad, "other", b)?,
            ],
            Box::new(move |s, g| {
                if !other_grad {
                    return Ok(vec![Some(g[0].clone()), None]);
                }
                let q = div(&s[0], &s[1])?;
                let q = if python_sign {
                    floor(&q)?
                } else {
                    trunc_toward_zero(&q)?
                };
                grads![g[0].clone(), mul(&neg(&g[0])?, &q)?]
            }),
        )?;
    }
    Ok(out)
}

/// Rounds toward zero (a constant for differentiation: floor and ceil have zero derivative).
fn trunc_toward_zero(x: &Tensor) -> Result<Tensor> {
    let neg_part = compare(CmpOp::Lt, x, &Tensor::wrapped_scalar(0.0f64))?;
    crate::ops::where_(&neg_part, &ceil(x)?, &floor(x)?)
}

fn modulo_kernel(a: &Tensor, b: &Tensor, python_sign: bool) -> Result<Tensor> {
    let (dt, a2, b2) = promote_pair(a, b)?;
    let what = if python_sign {
        BinaryKernel::Remainder
    } else {
        BinaryKernel::Fmod
    };
    if dt.is_half() {
        let r = modulo_kernel(
            &cast_to(&a2, DType::Float32)?,
            &cast_to(&b2, DType::Float32)?,
            python_sign,
        )?;
        return cast_to(&r, dt);
    }
    broadcast_shapes(&a2.shape(), &b2.shape())?;
    match dt {
        DType::Bool | DType::Complex64 | DType::Complex128 => Err(Error::NotImplemented(format!(
            "\"{}_{}\" not implemented for '{}'",
            what.name(),
            if a2.is_cuda() || b2.is_cuda() {
                "cuda"
            } else {
                "cpu"
            },
            dt.scalar_type_name()
        ))),
        DType::Float32 | DType::Float64 => backend::binary(what, &a2, &b2, dt),
        dt => int_division(what, &a2, &b2, dt),
    }
}

/// An integer division-like kernel run on int64 and cast back to `dt`; a zero divisor is
/// PyTorch's "ZeroDivisionError".
fn int_division(k: BinaryKernel, a: &Tensor, b: &Tensor, dt: DType) -> Result<Tensor> {
    let a3 = cast_to(a, DType::Int64)?;
    let b3 = cast_to(b, DType::Int64)?;
    if b3.try_to_vec::<i64>()?.contains(&0) {
        return Err(Error::Runtime("ZeroDivisionError".into()));
    }
    cast_to(&backend::binary(k, &a3, &b3, DType::Int64)?, dt)
}
