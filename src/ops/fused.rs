//! The pointwise ops of three tensors whose CPU kernels PyTorch compiles with fused
//! multiply-adds: `addcmul` (`x + (value · t1) · t2`, one rounding for the final multiply-add),
//! `lerp` (`fma(w, end - x, x)`, or from `end` for weights of 1/2 and more) and `addcdiv`
//! (`x + (value · t1) / t2`, no fusion: kept here beside its sibling). Optimizers are built on
//! them, so a float32 training run follows PyTorch's to the last bit only if these round as
//! PyTorch's do. Other devices and dtypes compute the same formulas from separate ops.
use super::*;
use crate::backend;
use crate::backend::cpu::vectorised;
use crate::dtype::{DType, Priority};
use crate::grad_mode::GradModeGuard;

/// The dtype and shape of an op of these operands (PyTorch's promotion and broadcasting).
fn result_of(ts: &[&Tensor]) -> Result<(DType, Vec<usize>)> {
    let kinds: Vec<(DType, Priority)> = ts
        .iter()
        .map(|t| {
            let (d, p, _) = t.info();
            (d, p)
        })
        .collect();
    let mut shape = ts[0].shape().to_vec();
    for t in &ts[1..] {
        shape = crate::shape::broadcast_shapes(&shape, &t.shape())?.to_vec();
    }
    Ok((crate::dtype::result_type(&kinds)?, shape))
}

/// `f` of the operands as host slices of `T`, broadcast to `shape`: an operand that already is
/// a contiguous `T` tensor of that shape is read in place, others are copied once.
fn with_columns<T: crate::dtype::Element, R>(
    ts: &[&Tensor],
    shape: &[usize],
    f: impl FnOnce(&[&[T]]) -> R,
) -> Result<R> {
    let owned: Vec<Tensor> = ts
        .iter()
        .map(|t| {
            let b = backend::broadcast_to(t, shape)?;
            match b.dtype() == T::DTYPE && b.is_contiguous() {
                true => Ok(b),
                false => backend::cast(&backend::contiguous(&b)?, T::DTYPE),
            }
        })
        .collect::<Result<_>>()?;
    let guards: Vec<_> = owned.iter().map(|t| t.data()).collect();
    let slices = guards
        .iter()
        // SAFETY: each operand is a contiguous host tensor of T (made so above), and its data
        // guard is held while the slice is read.
        .map(|d| unsafe { d.contiguous_slice::<T>() })
        .collect::<Option<Vec<&[T]>>>()
        .ok_or_else(|| {
            Error::Runtime("internal error: a fused operand is not a host column".into())
        })?;
    Ok(f(&slices))
}

/// The dtype and shape of the result when `ts` are host tensors of a real floating result dtype
/// (where the fused CPU kernels apply); None elsewhere.
fn host_float(ts: &[&Tensor]) -> Result<Option<(DType, Vec<usize>)>> {
    let (dt, shape) = result_of(ts)?;
    let host = ts.iter().all(|t| t.device() == crate::device::Device::Cpu);
    Ok((dt.is_floating() && host).then_some((dt, shape)))
}

/// `vals` (float32, or float64 for a float64 result) as a tensor of `dt` (16-bit floats were
/// computed in float32 and are rounded once here).
fn from_columns<T: crate::dtype::Element>(
    vals: Vec<T>,
    shape: &[usize],
    dt: DType,
) -> Result<Tensor> {
    let t = Tensor::from_vec(vals, shape)?;
    if t.dtype() == dt {
        Ok(t)
    } else {
        backend::cast(&t, dt)
    }
}

/// `f` of the broadcast elements of `(a, b)`, in float32 or float64, for host floats; None
/// elsewhere.
fn fused2(
    (a, b): (&Tensor, &Tensor),
    f32_fn: impl Fn(f32, f32) -> f32,
    f64_fn: impl Fn(f64, f64) -> f64,
) -> Result<Option<Tensor>> {
    let Some((dt, shape)) = host_float(&[a, b])? else {
        return Ok(None);
    };
    Ok(Some(if dt == DType::Float64 {
        let vals = with_columns::<f64, _>(&[a, b], &shape, |c| fill2(c[0], c[1], f64_fn))??;
        from_columns::<f64>(vals, &shape, dt)?
    } else {
        let vals = with_columns::<f32, _>(&[a, b], &shape, |c| fill2(c[0], c[1], f32_fn))??;
        from_columns::<f32>(vals, &shape, dt)?
    }))
}

/// `f(x[i], y[i])` into a new Vec, the loop compiled for FMA where the CPU has it (`mul_add`
/// is then one instruction). The loop writes into memory allocated beforehand: a `collect()`
/// inside `vectorised` was not always inlined into it, and then called `fmaf` per element.
fn fill2<T: crate::dtype::Element>(x: &[T], y: &[T], f: impl Fn(T, T) -> T) -> Result<Vec<T>> {
    let n = x.len();
    let mut out: Vec<T> = backend::cpu::alloc_vec(n)?;
    let (x, y) = (&x[..n], &y[..n]);
    vectorised(
        #[inline(always)]
        || {
            for ((o, &a), &b) in out.spare_capacity_mut()[..n].iter_mut().zip(x).zip(y) {
                o.write(f(a, b));
            }
        },
    );
    // SAFETY: the loop above wrote the first n elements.
    unsafe { out.set_len(n) };
    Ok(out)
}

/// [`fill2`] for three operands.
fn fill3<T: crate::dtype::Element>(
    x: &[T],
    y: &[T],
    z: &[T],
    f: impl Fn(T, T, T) -> T,
) -> Result<Vec<T>> {
    let n = x.len();
    let mut out: Vec<T> = backend::cpu::alloc_vec(n)?;
    let (x, y, z) = (&x[..n], &y[..n], &z[..n]);
    vectorised(
        #[inline(always)]
        || {
            for (((o, &a), &b), &c) in out.spare_capacity_mut()[..n]
                .iter_mut()
                .zip(x)
                .zip(y)
                .zip(z)
            {
                o.write(f(a, b, c));
            }
        },
    );
    // SAFETY: the loop above wrote the first n elements.
    unsafe { out.set_len(n) };
    Ok(out)
}

/// [`fused2`] for three operands.
fn fused3(
    (a, b, c): (&Tensor, &Tensor, &Tensor),
    f32_fn: impl Fn(f32, f32, f32) -> f32,
    f64_fn: impl Fn(f64, f64, f64) -> f64,
) -> Result<Option<Tensor>> {
    let Some((dt, shape)) = host_float(&[a, b, c])? else {
        return Ok(None);
    };
    Ok(Some(if dt == DType::Float64 {
        let vals =
            with_columns::<f64, _>(&[a, b, c], &shape, |k| fill3(k[0], k[1], k[2], f64_fn))??;
        from_columns::<f64>(vals, &shape, dt)?
    } else {
        let vals =
            with_columns::<f32, _>(&[a, b, c], &shape, |k| fill3(k[0], k[1], k[2], f32_fn))??;
        from_columns::<f32>(vals, &shape, dt)?
    }))
}

/// `a + alpha · b` as PyTorch's add kernel rounds it for a floating result on the CPU
/// (`fma(alpha, b, a)`); None where that kernel does not apply (other devices, integers,
/// complex), for the caller's own path.
pub(crate) fn scaled_add(a: &Tensor, b: &Tensor, alpha: f64) -> Result<Option<Tensor>> {
    // a 16-bit result takes alpha rounded to its dtype first (then computes in float32)
    let alpha = match result_of(&[a, b])?.0 {
        DType::Float16 => half::f16::from_f64(alpha).to_f64(),
        DType::BFloat16 => half::bf16::from_f64(alpha).to_f64(),
        _ => alpha,
    };
    let (a32, a64) = (alpha as f32, alpha);
    fused2(
        (a, b),
        move |x, y| a32.mul_add(y, x),
        move |x, y| a64.mul_add(y, x),
    )
}

/// `x · s` unrecorded for the integer and complex paths: an integral `s` is an integer
/// number, so integer tensors stay integers (PyTorch's `alpha=2` / `value=2`).
pub(crate) fn times_number(x: &Tensor, s: f64) -> Result<Tensor> {
    let integral = s.fract() == 0.0 && s.abs() < 9.007_199_254_740_992e15;
    if integral && !x.dtype().is_differentiable() {
        unrecorded(|| mul(x, &Tensor::wrapped_scalar(s as i64)))
    } else {
        unrecorded(|| mul_scalar(x, s))
    }
}

/// `f()` unrecorded.
fn unrecorded(f: impl FnOnce() -> Result<Tensor>) -> Result<Tensor> {
    let _g = GradModeGuard::new(false);
    Ok(f()?.detached())
}

/// `x + value · t1 · t2` (AddcmulBackward0), as PyTorch's kernel rounds it on the CPU:
/// `fma(value · t1, t2, x)`.
pub fn addcmul(x: &Tensor, t1: &Tensor, t2: &Tensor, value: f64) -> Result<Tensor> {
    crate::dtype::shell_kernel_check(x.dtype(), "addcmul_cpu_out")?;
    let (v32, v64) = (value as f32, value);
    let out = unrecorded(|| {
        let f32_fn = move |x: f32, a: f32, b: f32| (v32 * a).mul_add(b, x);
        let f64_fn = move |x: f64, a: f64, b: f64| (v64 * a).mul_add(b, x);
        match fused3((x, t1, t2), f32_fn, f64_fn)? {
            Some(t) => Ok(t),
            None => add(x, &mul(&times_number(t1, value)?, t2)?),
        }
    })?;
    if out.dtype().is_differentiable() && needs_grad(&[x, t1, t2])? {
        record(
            "AddcmulBackward0",
            &[x, t1, t2],
            &[&out],
            // each factor saved only for the other's gradient (PyTorch's AddcmulBackward0)
            vec![
                save_if(needs_formula(t2), "tensor1", t1)?,
                save_if(needs_formula(t1), "tensor2", t2)?,
            ],
            Box::new(move |s, g| {
                // d = dx + value (t2 dt1 + t1 dt2)
                Ok(vec![
                    Some(g[0].clone()),
                    if_needed(1, || mul(&g[0], &conj(&mul_scalar(&s[1], value)?)?))?,
                    if_needed(2, || mul(&g[0], &conj(&mul_scalar(&s[0], value)?)?))?,
                ])
            }),
        )?;
    }
    Ok(out)
}

/// `x + value · t1 / t2` (AddcdivBackward0). Integer `t1` and `t2` are refused with PyTorch's
/// message (its double space included).
pub fn addcdiv(x: &Tensor, t1: &Tensor, t2: &Tensor, value: f64) -> Result<Tensor> {
    let integral = |t: &Tensor| !t.dtype().is_differentiable();
    if integral(t1) && integral(t2) {
        return Err(Error::Runtime("Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), for all dtypes.".into()));
    }
    let (v32, v64) = (value as f32, value);
    let out = unrecorded(|| {
        let f32_fn = move |x: f32, a: f32, b: f32| x + v32 * a / b;
        let f64_fn = move |x: f64, a: f64, b: f64| x + v64 * a / b;
        match fused3((x, t1, t2), f32_fn, f64_fn)? {
            Some(t) => Ok(t),
            None => add(x, &div(&times_number(t1, value)?, t2)?),
        }
    })?;
    if out.dtype().is_differentiable() && needs_grad(&[x, t1, t2])? {
        record(
            "AddcdivBackward0",
            &[x, t1, t2],
            &[&out],
            // tensor1 is read only for tensor2's gradient (PyTorch's AddcdivBackward0)
            vec![
                save_if(needs_formula(t2), "tensor1", t1)?,
                save("tensor2", t2)?,
            ],
            Box::new(move |s, g| {
                // d = dx + value (dt1 / t2 - t1 dt2 / t2²)
                let (t1, t2) = (&s[0], &s[1]);
                Ok(vec![
                    Some(g[0].clone()),
                    if_needed(1, || mul(&g[0], &conj(&div_scalar_num(t2, value)?)?))?,
                    if_needed(2, || {
                        let q = div(&mul_scalar(t1, -value)?, &mul(t2, t2)?)?;
                        mul(&g[0], &conj(&q)?)
                    })?,
                ])
            }),
        )?;
    }
    Ok(out)
}

/// `value / t`.
fn div_scalar_num(t: &Tensor, value: f64) -> Result<Tensor> {
    div(&Tensor::wrapped_scalar(value), t)
}

/// `x + weight · (end - x)`, computed from the nearer end as PyTorch's kernel does:
/// `fma(w, end - x, x)` for |w| < 1/2, else `fma(w - 1, end - x, end)`. A Python-number weight
/// records LerpBackward0, a tensor one LerpBackward1 (which differentiates the weight too).
pub fn lerp(x: &Tensor, end: &Tensor, weight: &Tensor) -> Result<Tensor> {
    if x.dtype() != end.dtype() {
        return Err(Error::Runtime(format!(
            "expected dtype {} for `end` but got dtype {}",
            x.dtype().cpp_name(),
            end.dtype().cpp_name()
        )));
    }
    if !weight.data().wrapped_number && weight.dtype() != x.dtype() {
        return Err(Error::Runtime(format!(
            "expected dtype {} for `weight` but got dtype {}",
            x.dtype().cpp_name(),
            weight.dtype().cpp_name()
        )));
    }
    if !x.dtype().is_differentiable() {
        let kernel = if weight.data().wrapped_number {
            "lerp_kernel_scalar"
        } else {
            "lerp_kernel_tensor"
        };
        return Err(Error::NotImplemented(format!(
            "\"{kernel}\" not implemented for '{}'",
            x.dtype().scalar_type_name()
        )));
    }
    let out = unrecorded(|| {
        macro_rules! lerp_elem {
            ($t:ty) => {
                |x: $t, end: $t, w: $t| {
                    if w.abs() < 0.5 {
                        w.mul_add(end - x, x)
                    } else {
                        (w - 1.0).mul_add(end - x, end)
                    }
                }
            };
        }
        match fused3((x, end, weight), lerp_elem!(f32), lerp_elem!(f64))? {
            Some(t) => Ok(t),
            None => add(x, &mul(weight, &sub(end, x)?)?),
        }
    })?;
    if needs_grad(&[x, end, weight])? {
        let scalar = weight.data().wrapped_number;
        let name = if scalar {
            "LerpBackward0"
        } else {
            "LerpBackward1"
        };
        let inputs: Vec<&Tensor> = if scalar {
            vec![x, end]
        } else {
            vec![x, end, weight]
        };
        record(
            name,
            &inputs,
            &[&out],
            // self and end are read only for a tensor weight's gradient; the weight is always
            // saved, as PyTorch's LerpBackward1 saves it (a Python number is kept as it is,
            // never packed)
            {
                let rw = !scalar && needs_formula(weight);
                vec![
                    save_if(rw, "self", x)?,
                    save_if(rw, "end", end)?,
                    save("weight", weight)?,
                ]
            },
            Box::new(move |s, g| {
                // d = (1 - w) dx + w dend + (end - x) dw
                let (x, end, w) = (&s[0], &s[1], &s[2]);
                let gx = if_needed(0, || {
                    mul(&g[0], &conj(&rsub(w, &Tensor::wrapped_scalar(1.0))?)?)
                })?;
                let gend = if_needed(1, || mul(&g[0], &conj(w)?))?;
                if scalar {
                    return Ok(vec![gx, gend]);
                }
                Ok(vec![
                    gx,
                    gend,
                    if_needed(2, || mul(&g[0], &conj(&sub(end, x)?)?))?,
                ])
            }),
        )?;
    }
    Ok(out)
}
