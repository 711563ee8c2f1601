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
    crate::dtype::shell_kernel_check(dt, "div_floor_cpu")?;
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
    edges_first(&[a, b])?;
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
    crate::dtype::shell_kernel_check(
        dt,
        if python_sign {
            "remainder_cpu"
        } else {
            "fmod_cpu"
        },
    )?;
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
    // (an empty result divides nothing: PyTorch's loop never sees the zero)
    let empty = broadcast_shapes(&a3.shape(), &b3.shape())?
        .iter()
        .product::<usize>()
        == 0;
    if !empty && b3.try_to_vec::<i64>()?.contains(&0) {
        return Err(Error::Runtime("ZeroDivisionError".into()));
    }
    cast_to(&backend::binary(k, &a3, &b3, DType::Int64)?, dt)
}

/// How `torch.div` rounds its quotient (`rounding_mode=`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RoundingMode {
    True,
    Trunc,
    Floor,
}

impl RoundingMode {
    /// `None`, `"trunc"` or `"floor"`, with PyTorch's error for anything else.
    pub fn parse(mode: Option<&str>) -> Result<RoundingMode> {
        match mode {
            None => Ok(RoundingMode::True),
            Some("trunc") => Ok(RoundingMode::Trunc),
            Some("floor") => Ok(RoundingMode::Floor),
            Some(m) => Err(Error::Runtime(format!(
                "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{m}'"
            ))),
        }
    }
}

/// `torch.div(a, b, rounding_mode=...)`: the overload PyTorch records as DivBackward2 whenever
/// the argument is given. "floor" is floor division (`//`), "trunc" rounds toward zero (C's
/// integer division for integers), `None` is true division; the rounded modes keep integer
/// dtypes and have zero derivative.
pub fn div_mode(a: &Tensor, b: &Tensor, mode: RoundingMode) -> Result<Tensor> {
    let out = {
        let _g = crate::grad_mode::GradModeGuard::new(false);
        match mode {
            RoundingMode::True => div(a, b)?,
            RoundingMode::Floor => floor_divide_kernel(a, b)?,
            RoundingMode::Trunc => {
                let (dt, a2, b2) = promote_pair(a, b)?;
                crate::dtype::shell_kernel_check(dt, "div_trunc_cpu")?;
                if dt == DType::Bool || dt.is_complex() {
                    return Err(Error::Runtime(format!(
                        "\"div_trunc_cpu\" not implemented for '{}'",
                        dt.scalar_type_name()
                    )));
                }
                if dt.is_differentiable() {
                    trunc_toward_zero(&div(&a2, &b2)?)?
                } else {
                    // a - fmod(a, b) is a multiple of b: its floor quotient is the exact one
                    floor_divide_kernel(&sub(&a2, &modulo_kernel(&a2, &b2, false)?)?, &b2)?
                }
            }
        }
    };
    if out.dtype().is_differentiable() && needs_grad(&[a, b])? {
        let (ra, rb) = (needs_formula(a), needs_formula(b));
        let exact = mode == RoundingMode::True;
        let (sa, sb) = ((a.shape(), a.dtype()), (b.shape(), b.dtype()));
        record(
            "DivBackward2",
            &[a, b],
            &[&out],
            // (PyTorch saves them whatever the mode: self for other's gradient, other for both)
            vec![save_if(rb, "self", a)?, save("other", b)?],
            Box::new(move |s, g| {
                let dev = g[0].device();
                if !exact {
                    // the rounded quotient is piecewise constant
                    let zeros =
                        |m: &(crate::shape::Shape, DType), need: bool| -> Result<Option<Tensor>> {
                            Ok(if need {
                                Some(Tensor::zeros_on(&m.0, m.1, dev)?)
                            } else {
                                None
                            })
                        };
                    return Ok(vec![zeros(&sa, ra)?, zeros(&sb, rb)?]);
                }
                let (a, b) = (&s[0], &s[1]);
                let ga = if ra {
                    Some(div(&g[0], &conj(b)?)?)
                } else {
                    None
                };
                let gb = if rb {
                    Some(neg(&mul(&g[0], &conj(&div(&div(a, b)?, b)?)?)?)?)
                } else {
                    None
                };
                Ok(vec![ga, gb])
            }),
        )?;
        set_attrs(&out, || {
            vec![(
                "rounding_mode",
                match mode {
                    RoundingMode::True => crate::graph::node::SavedAttr::None,
                    RoundingMode::Trunc => crate::graph::node::SavedAttr::Str("trunc"),
                    RoundingMode::Floor => crate::graph::node::SavedAttr::Str("floor"),
                },
            )]
        });
    }
    Ok(out)
}
