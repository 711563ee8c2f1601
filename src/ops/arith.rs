//! Binary arithmetic with broadcasting and type promotion: add, sub, mul, div, pow, and the
//! comparisons (which return bool and record nothing).
use super::*;
use crate::backend;
use crate::backend::BinaryKernel;
use crate::dtype::{result_type, DType};
use crate::grads;
use crate::shape::broadcast_shapes;

/// Promote both operands to their common dtype (no copy when it already matches).
pub fn promote_pair(a: &Tensor, b: &Tensor) -> Result<(DType, Tensor, Tensor)> {
    let (da, pa, _) = a.info();
    let (db, pb, _) = b.info();
    let both_numbers = pa == crate::dtype::Priority::Scalar && pb == crate::dtype::Priority::Scalar;
    if da == db && !both_numbers {
        return Ok((da, a.clone(), b.clone()));
    }
    let dt = result_type(&[(da, pa), (db, pb)])?;
    // (an operand's own layout decides the result's, empty ones included)
    let a2 = if da == dt {
        a.clone()
    } else {
        backend::cast_exact(a, dt)?
    };
    let b2 = if db == dt {
        b.clone()
    } else {
        backend::cast_exact(b, dt)?
    };
    Ok((dt, a2, b2))
}

pub(super) fn cast_to(t: &Tensor, dt: DType) -> Result<Tensor> {
    if t.dtype() == dt {
        Ok(t.clone())
    } else {
        backend::cast_exact(t, dt)
    }
}

#[derive(Copy, Clone, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
}

/// The forward kernel of `a op b` in dtype `dt` (bool adds/multiplies as logical or/and).
pub fn binary_kernel(op: BinOp, a: &Tensor, b: &Tensor, dt: DType) -> Result<Tensor> {
    // (the backend checks the shapes)
    let k = match (op, dt) {
        (BinOp::Sub, DType::Bool) => return Err(bool_sub_check(a, b).unwrap_err()),
        (BinOp::Mul | BinOp::Div, DType::Bool) => BinaryKernel::And,
        (_, DType::Bool) => BinaryKernel::Or,
        (BinOp::Add, _) => BinaryKernel::Add,
        (BinOp::Sub, _) => BinaryKernel::Sub,
        (BinOp::Mul, _) => BinaryKernel::Mul,
        (BinOp::Div, _) => BinaryKernel::Div,
    };
    backend::binary(k, a, b, dt)
}

fn arith(op: BinOp, a: &Tensor, b: &Tensor, true_div: bool) -> Result<Tensor> {
    let (mut dt, mut a2, mut b2) = promote_pair(a, b)?;
    if matches!(op, BinOp::Add | BinOp::Sub) {
        crate::dtype::shell_kernel_check(dt, "add_stub")?;
    }
    if dt.is_half() {
        // Half types compute in float32 and round once, as PyTorch's CPU kernels do (a Python
        // number enters as a float32, not rounded to half first).
        let wide = |t: &Tensor| backend::cast_keep(t, DType::Float32);
        let r = binary_kernel(op, &wide(a)?, &wide(b)?, DType::Float32)?;
        let r = if r.dtype() == DType::Float32 {
            r
        } else {
            backend::cast_keep(&r, DType::Float32)?
        };
        return backend::cast_keep(&r, dt);
    }
    if true_div && !dt.is_differentiable() {
        dt = crate::dtype::default_float();
        a2 = cast_to(&a2, dt)?;
        b2 = cast_to(&b2, dt)?;
    }
    binary_kernel(op, &a2, &b2, dt)
}

/// a + alpha * b
/// (a floating result on the CPU rounds once, `fma(alpha, b, a)`, as PyTorch's kernel)
pub fn add_scaled(a: &Tensor, b: &Tensor, alpha: f64) -> Result<Tensor> {
    // autograd's edges first, as PyTorch's VariableType collects them before the kernel (a
    // stale view's refusal comes before a shape or dtype error)
    let recorded = needs_grad(&[a, b])?;
    let fused = match alpha == 1.0 {
        true => None,
        false => super::fused::scaled_add(a, b, alpha)?,
    };
    let out = match fused {
        Some(out) => out,
        None if alpha == 1.0 => arith(BinOp::Add, a, b, false)?,
        None => arith(BinOp::Add, a, &super::fused::times_number(b, alpha)?, false)?,
    };
    if recorded {
        // d(a + αb) = da + α db
        record(
            "AddBackward0",
            &[a, b],
            &[&out],
            vec![],
            Box::new(move |_, g| {
                let gb = if alpha == 1.0 {
                    g[0].clone()
                } else {
                    mul_scalar(&g[0], alpha)?
                };
                grads![g[0].clone(), gb]
            }),
        )?;
        set_attrs(&out, || vec![("alpha", scalar_attr(alpha))]);
    }
    Ok(out)
}

pub fn add(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    add_scaled(a, b, 1.0)
}

/// PyTorch's `sub_check`, the first check of every subtraction (before shapes, memory overlap
/// and alpha): `-` with a bool operand (tensor or Python bool) is refused.
pub fn bool_sub_check(a: &Tensor, b: &Tensor) -> Result<()> {
    match (a.dtype() == DType::Bool, b.dtype() == DType::Bool) {
        (true, true) => Err(Error::NotImplemented("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.".into())),
        (true, false) | (false, true) => Err(Error::NotImplemented("Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.".into())),
        (false, false) => Ok(()),
    }
}

/// a - alpha * b
pub fn sub_scaled(a: &Tensor, b: &Tensor, alpha: f64) -> Result<Tensor> {
    // autograd's edges first (see add_scaled), then PyTorch's sub_check
    let recorded = needs_grad(&[a, b])?;
    bool_sub_check(a, b)?;
    // (PyTorch's sub is add with -alpha: one rounding for a floating result on the CPU)
    let fused = match alpha == 1.0 {
        true => None,
        false => super::fused::scaled_add(a, b, -alpha)?,
    };
    let out = match fused {
        Some(out) => out,
        None if alpha == 1.0 => arith(BinOp::Sub, a, b, false)?,
        None => arith(BinOp::Sub, a, &super::fused::times_number(b, alpha)?, false)?,
    };
    if recorded {
        // d(a - αb) = da - α db
        record(
            "SubBackward0",
            &[a, b],
            &[&out],
            vec![],
            Box::new(move |_, g| grads![g[0].clone(), mul_scalar(&g[0], -alpha)?]),
        )?;
        set_attrs(&out, || vec![("alpha", scalar_attr(alpha))]);
    }
    Ok(out)
}

pub fn sub(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    sub_scaled(a, b, 1.0)
}

/// `torch.add(a, b, alpha=α, out=out)` and sub/mul/div likewise (α only for add and sub): the
/// result written into `out` (broadcast to its shape, cast to its dtype where PyTorch allows the
/// cast), recorded as an in-place copy. Where the operands already have out's shape and dtype and nothing requires
/// grad, the backend writes straight into out's memory (no temporary).
pub fn arith_out(op: BinOp, a: &Tensor, b: &Tensor, alpha: f64, out: &Tensor) -> Result<()> {
    let name = match op {
        BinOp::Add => "add",
        BinOp::Sub => "sub",
        BinOp::Mul => "mul",
        BinOp::Div => "div",
    };
    check_out(name, &[a, b], out)?;
    // (an inference `out` outside inference mode is written, then refused at the version bump)
    let dt = out.dtype();
    let fast = alpha == 1.0
        && a.dtype() == dt
        && b.dtype() == dt
        && !out.requires_grad()
        && !(op == BinOp::Sub && dt == DType::Bool);
    if fast {
        let k = match op {
            BinOp::Add => BinaryKernel::Add,
            BinOp::Sub => BinaryKernel::Sub,
            BinOp::Mul => BinaryKernel::Mul,
            BinOp::Div => BinaryKernel::Div,
        };
        if backend::binary_into(k, a, b, out)? {
            return bump_after_write(out);
        }
    }
    let r = match op {
        BinOp::Add => add_scaled(a, b, alpha)?,
        BinOp::Sub => sub_scaled(a, b, alpha)?,
        BinOp::Mul => mul(a, b)?,
        BinOp::Div => div(a, b)?,
    };
    check_output_dtype(r.dtype(), out.dtype())?;
    copy_(out, &r)
}

/// PyTorch's checks before an `out=` write: the write is allowed (versions, saved tensors), no
/// forward AD, and nothing requires grad while grad mode is on.
fn check_out(name: &str, inputs: &[&Tensor], out: &Tensor) -> Result<()> {
    super::inplace_checks::before_write(out)?;
    let mut all: Vec<&Tensor> = inputs.to_vec();
    all.push(out);
    if super::tangent::wanted(&all) {
        return Err(Error::NotImplemented(format!(
            "Trying to use forward AD with {name}_out (because it is an out= function) that does not support it."
        )));
    }
    // PyTorch refuses when the inputs or the output require grad, with grad mode on
    if crate::grad_mode::is_grad_enabled() && all.iter().any(|t| t.requires_grad()) {
        return Err(Error::Runtime(format!(
            "{name}(): functions with out=... arguments don't support automatic differentiation, but one of the arguments requires grad."
        )));
    }
    Ok(())
}

/// `op(inputs..., out=out)`: `compute` gives the result, written into `out` after PyTorch's
/// checks (the dtype must hold the result's).
pub fn write_out(
    name: &str,
    inputs: &[&Tensor],
    out: &Tensor,
    compute: impl FnOnce() -> Result<Tensor>,
) -> Result<()> {
    check_out(name, inputs, out)?;
    let r = compute()?;
    check_output_dtype(r.dtype(), out.dtype())?;
    copy_(out, &r)
}

/// `x / s` for a Python number `s`, as ATen's div(Tensor, Scalar) records it (DivBackward1).
pub fn div_scalar(x: &Tensor, s: f64) -> Result<Tensor> {
    let out = {
        let _g = crate::grad_mode::GradModeGuard::new(false);
        div(x, &Tensor::wrapped_scalar(s))?.detached()
    };
    if out.dtype().is_differentiable() && needs_grad(&[x])? {
        record(
            "DivBackward1",
            &[x],
            &[&out],
            vec![],
            Box::new(move |_, g| grads![div(&g[0], &Tensor::wrapped_scalar(s))?]),
        )?;
    }
    Ok(out)
}

/// `scalar - x` (Python's reflected subtraction).
pub fn rsub(x: &Tensor, s: &Tensor) -> Result<Tensor> {
    bool_sub_check(x, s)?;
    let out = arith(BinOp::Sub, s, x, false)?;
    if needs_grad(&[x, s])? {
        // d(s - x)/dx = -1
        record(
            "RsubBackward1",
            &[x],
            &[&out],
            vec![],
            Box::new(|_, g| grads![neg(&g[0])?]),
        )?;
        set_attrs(&out, || {
            vec![("alpha", crate::graph::node::SavedAttr::ScalarInt(1))]
        });
    }
    Ok(out)
}

pub fn mul(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let recorded = needs_grad(&[a, b])?;
    let out = arith(BinOp::Mul, a, b, false)?;
    if recorded {
        // Only the inputs that require grad get a gradient computed.
        let (ra, rb) = (needs_formula(a), needs_formula(b));
        // d(ab) = b da + a db (conjugated for complex: PyTorch's convention)
        record(
            "MulBackward0",
            &[a, b],
            &[&out],
            // self is read only for other's gradient, other only for self's; other first,
            // as PyTorch packs and unpacks them (its saved-tensor hooks see that order)
            vec![save_if(ra, "other", b)?, save_if(rb, "self", a)?],
            {
                Box::new(move |s, g| {
                    let ga = if ra {
                        Some(mul(&g[0], &conj(&s[0])?)?)
                    } else {
                        None
                    };
                    let gb = if rb {
                        Some(mul(&g[0], &conj(&s[1])?)?)
                    } else {
                        None
                    };
                    Ok(vec![ga, gb])
                })
            },
        )?;
    }
    Ok(out)
}

pub fn div(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let recorded = needs_grad(&[a, b])?;
    let out = arith(BinOp::Div, a, b, true)?;
    if recorded {
        let (ra, rb) = (needs_formula(a), needs_formula(b));
        // d(a/b) = da / b - a db / b²
        record(
            "DivBackward0",
            &[a, b],
            &[&out],
            // other first, as PyTorch packs and unpacks them
            vec![save("other", b)?, save_if(rb, "self", a)?],
            {
                Box::new(move |s, g| {
                    let (b, a) = (&s[0], &s[1]);
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
                })
            },
        )?;
    }
    Ok(out)
}

/// `x * s` for a plain number, recorded as a product with a wrapped scalar (PyTorch saves it).
pub fn mul_scalar(x: &Tensor, s: f64) -> Result<Tensor> {
    mul(x, &Tensor::wrapped_scalar(s))
}

/// Unrecorded `x * s`, for forward-only scaling.
pub fn kernel_mul_scalar(x: &Tensor, s: f64) -> Result<Tensor> {
    arith(BinOp::Mul, x, &Tensor::wrapped_scalar(s), false)
}

/// Unrecorded `x / s`.
pub fn kernel_div_scalar(x: &Tensor, s: f64) -> Result<Tensor> {
    arith(BinOp::Div, x, &Tensor::wrapped_scalar(s), false)
}

/// `x ** e` for a Python number e (PowBackward0).
pub fn pow_scalar(x: &Tensor, e: &Tensor) -> Result<Tensor> {
    let out = pow_scalar_kernel(x, e)?;
    if needs_grad(&[x])? {
        let ev = e.item()?;
        // d(x^e)/dx = e x^(e-1)
        record(
            "PowBackward0",
            &[x],
            &[&out],
            vec![save("self", x)?],
            Box::new(move |s, g| {
                if ev.re == 0.0 && ev.im == 0.0 {
                    return grads![zeros_like_grad(&g[0])?];
                }
                let em1 = if ev.im == 0.0 {
                    Tensor::wrapped_scalar(ev.re - 1.0)
                } else {
                    Tensor::wrapped_scalar(num_complex::Complex64::new(ev.re - 1.0, ev.im))
                };
                let e = if ev.im == 0.0 {
                    Tensor::wrapped_scalar(ev.re)
                } else {
                    Tensor::wrapped_scalar(ev)
                };
                let d = mul(&pow_scalar(&s[0], &em1)?, &e)?;
                grads![mul(&g[0], &conj(&d)?)?]
            }),
        )?;
        if ev.im == 0.0 {
            let int = !e.dtype().is_differentiable();
            set_attrs(&out, || {
                vec![(
                    "exponent",
                    if int {
                        crate::graph::node::SavedAttr::ScalarInt(ev.re as i64)
                    } else {
                        crate::graph::node::SavedAttr::Float(ev.re)
                    },
                )]
            });
        }
    }
    Ok(out)
}

/// `x ** e` for tensors (PowBackward1); `s ** e` for a Python number s is PowBackward2.
pub fn pow(x: &Tensor, e: &Tensor) -> Result<Tensor> {
    let mut out = pow_kernel(x, e)?;
    if x.data().wrapped_number && !out.is_contiguous() {
        // PyTorch's pow(Scalar, Tensor) returns a row-major result whatever e's layout
        out = backend::contiguous(&out)?;
    }
    if needs_grad(&[x, e])? {
        if x.data().wrapped_number {
            // d(s^e)/de = s^e ln s
            record(
                "PowBackward2",
                &[e],
                &[&out],
                vec![
                    save("self", x)?,
                    save_output("result", &out, 0)?,
                    save("exponent", e)?,
                ],
                Box::new(|s, g| {
                    // ln s of the Python number, in double precision (an int base would
                    // otherwise take a float32 log).
                    let b = s[0].item()?;
                    // a real base of a complex exponent takes the complex log (log(-1) = iπ)
                    let ln_s = if b.im == 0.0 && !s[2].dtype().is_complex() {
                        Tensor::wrapped_scalar(b.re.ln())
                    } else {
                        Tensor::wrapped_scalar(b.ln())
                    };
                    let d = conj(&mul(&s[1], &ln_s)?)?;
                    if b == num_complex::Complex64::new(0.0, 0.0) {
                        // 0 ** e: PyTorch masks the 0·(-inf) where e >= 0
                        let zero = Tensor::wrapped_scalar(0.0f64);
                        let e = &s[2];
                        let d = index::where_(&nonnegative_real(e)?, &zero, &d)?;
                        return grads![mul(&g[0], &d)?];
                    }
                    grads![mul(&g[0], &d)?]
                }),
            )?;
        } else {
            // d(x^e) = e x^(e-1) dx + x^e ln x de
            record(
                "PowBackward1",
                &[x, e],
                &[&out],
                vec![
                    save("self", x)?,
                    save("exponent", e)?,
                    save_output("result", &out, 0)?,
                ],
                Box::new(|s, g| {
                    let (x, e, r) = (&s[0], &s[1], &s[2]);
                    let one = Tensor::wrapped_scalar(1.0f64);
                    let zero = Tensor::wrapped_scalar(0.0f64);
                    // PyTorch's pow_backward_self: 0 where e == 0 (x^-1 would give 0·inf)
                    let dx = mul(&g[0], &conj(&mul(e, &pow(x, &sub(e, &one)?)?)?)?)?;
                    let e_zero = compare(CmpOp::Eq, &e.detached(), &zero)?;
                    let dx = index::where_(&e_zero, &zero, &dx)?;
                    // pow_backward_exponent: 0 where x == 0 and e >= 0 (0·(-inf) otherwise)
                    // log in the result's dtype: a real base of a complex exponent takes the
                    // complex log (PyTorch promotes self first)
                    let xp = if x.dtype() != r.dtype() {
                        to_dtype(x, r.dtype())?
                    } else {
                        x.clone()
                    };
                    let de = conj(&mul(r, &log(&xp)?)?)?;
                    let masked = bitwise(
                        BitOp::And,
                        &compare(CmpOp::Eq, &x.detached(), &zero)?,
                        &nonnegative_real(e)?,
                    )?;
                    let de = mul(&g[0], &index::where_(&masked, &zero, &de)?)?;
                    grads![dx, de]
                }),
            )?;
        }
    }
    Ok(out)
}

/// `e >= 0` for a real tensor; `imag(e) == 0 and real(e) >= 0` for a complex one (never
/// recorded: PyTorch's masks in the pow gradients).
fn nonnegative_real(e: &Tensor) -> Result<Tensor> {
    let zero = Tensor::wrapped_scalar(0.0f64);
    let e = e.detached();
    if !e.dtype().is_complex() {
        return compare(CmpOp::Ge, &e, &zero);
    }
    let parts = view_as_real(&e)?;
    bitwise(
        BitOp::And,
        &compare(CmpOp::Eq, &select(&parts, -1, 1)?, &zero)?,
        &compare(CmpOp::Ge, &select(&parts, -1, 0)?, &zero)?,
    )
}

/// `x ** s` for a Python number s as PyTorch computes it. Float and complex tensors take its fast
/// paths for 0.5 (sqrt), -0.5 (rsqrt), -1 (reciprocal), 2 (x*x), 3 (x*x*x) and -2 (1/(x*x)), whose
/// values differ from pow's at signed zeros and infinities and in the last bit; 0 gives ones
/// and 1 a copy.
fn pow_scalar_kernel(x: &Tensor, e: &Tensor) -> Result<Tensor> {
    let ev = e.item()?;
    let (dt, a, _) = promote_pair(x, e)?;
    let fast = matches!(
        dt,
        DType::Float32 | DType::Float64 | DType::Complex64 | DType::Complex128
    );
    if !fast || ev.im != 0.0 {
        // the Scalar overload is a unary op of `x.to(dt)`: its layout alone decides the
        // result's (the 0-dim exponent's does not, even where x is empty)
        let r = pow_kernel(x, e)?;
        if r.strides() == a.strides() {
            return Ok(r);
        }
        let out = backend::cast_keep(&a, r.dtype())?;
        if out.strides() != r.strides() {
            backend::copy_into(&out, &r)?;
            return Ok(out);
        }
        return Ok(r);
    }
    let r = ev.re;
    // PyTorch converts the exponent to float32 before comparing it with 2, 3 and -2.
    let rr = if matches!(dt, DType::Float32) {
        r as f32 as f64
    } else {
        r
    };
    let sq = || arith(BinOp::Mul, &a, &a, false);
    let float = |op: FloatUnary, t: &Tensor| crate::ops::pointwise::float_unary_value(op, t);
    match () {
        _ if r == 0.0 => {
            let out = backend::cast_keep(&a, dt)?;
            backend::fill(&out, num_complex::Complex64::new(1.0, 0.0))?;
            Ok(out)
        }
        _ if r == 1.0 => backend::cast_keep(&a, dt),
        _ if r == 0.5 => float(FloatUnary::Sqrt, &a),
        _ if r == -0.5 => float(FloatUnary::Rsqrt, &a),
        _ if r == -1.0 => float(FloatUnary::Reciprocal, &a),
        _ if rr == 2.0 => sq(),
        _ if rr == 3.0 => arith(BinOp::Mul, &sq()?, &a, false),
        _ if rr == -2.0 => float(FloatUnary::Reciprocal, &sq()?),
        _ => pow_kernel(x, e),
    }
}

/// TensorIterator's checks of an in-place binary write, which PyTorch makes before its kernel
/// (and so before the kernel's dtype refusals): `other` broadcasts to `target`'s shape.
pub fn check_inplace_broadcast(target: &Tensor, other: &Tensor) -> Result<()> {
    let shape = broadcast_shapes(&target.shape(), &other.shape())?;
    if shape[..] != target.shape()[..] {
        return Err(Error::Runtime(format!(
            "output with shape {} doesn't match the broadcast shape {}",
            crate::shape::fmt_shape(&target.shape()),
            crate::shape::fmt_shape(&shape)
        )));
    }
    Ok(())
}

fn pow_kernel(x: &Tensor, e: &Tensor) -> Result<Tensor> {
    // the operands' shapes are checked before the kernel refuses a dtype
    broadcast_shapes(&x.shape(), &e.shape())?;
    if x.dtype() == DType::Bool
        && e.dtype() == DType::Bool
        && e.priority() != crate::dtype::Priority::Scalar
    {
        return Err(Error::NotImplemented(
            "\"pow\" not implemented for 'Bool'".into(),
        ));
    }
    let (dt, a, b) = promote_pair(x, e)?;
    crate::dtype::shell_kernel_check(dt, "pow")?;
    if dt.is_half() {
        let r = pow_kernel(&cast_to(&a, DType::Float32)?, &cast_to(&b, DType::Float32)?)?;
        return cast_to(&r, dt);
    }
    broadcast_shapes(&a.shape(), &b.shape())?;
    if dt.is_differentiable() {
        return backend::binary(BinaryKernel::Pow, &a, &b, dt);
    }
    let (a, b) = (cast_to(&a, DType::Int64)?, cast_to(&b, DType::Int64)?);
    // only a Python-number exponent is refused (a tensor exponent follows powi's rules)
    if dt != DType::Bool && e.data().wrapped_number && b.try_to_vec::<i64>()?.iter().any(|&v| v < 0)
    {
        return Err(Error::Runtime(
            "Integers to negative integer powers are not allowed.".into(),
        ));
    }
    cast_to(
        &backend::binary(BinaryKernel::IPow, &a, &b, DType::Int64)?,
        dt,
    )
}

pub use crate::backend::CmpOp;

/// Elementwise comparison: a bool tensor, never recorded.
#[allow(clippy::bool_comparison)]
pub fn compare(op: CmpOp, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let (dt, a, b) = promote_pair(a, b)?;
    broadcast_shapes(&a.shape(), &b.shape())?;
    if dt.is_shell_unsigned() && !matches!(op, CmpOp::Eq | CmpOp::Ne) {
        // (the message is only built for the refused dtypes: no allocation per comparison)
        crate::dtype::shell_kernel_check(dt, &format!("{}_cpu", BinaryKernel::Cmp(op).name()))?;
    }
    if dt.is_complex() && !matches!(op, CmpOp::Eq | CmpOp::Ne) {
        return Err(Error::Runtime(format!(
            "\"{}_{}\" not implemented for '{}'",
            BinaryKernel::Cmp(op).name(),
            if a.is_cuda() || b.is_cuda() {
                "cuda"
            } else {
                "cpu"
            },
            dt.scalar_type_name()
        )));
    }
    backend::binary(BinaryKernel::Cmp(op), &a, &b, dt)
}

/// `target.eq_(other)` and the other in-place comparisons: the comparison written into `target`
/// in its own dtype. When autograd records, the node (`EqBackward0` for a Python number,
/// `EqBackward1` for a tensor, as PyTorch names them) passes zero gradients to both inputs.
pub fn compare_(op: CmpOp, target: &Tensor, other: &Tensor) -> Result<()> {
    // a Python number binds to PyTorch's Scalar overload, where it is no tensor operand (an
    // inference target then meets the inference error, not autograd's leaf check)
    let operands: &[&Tensor] = if other.data().wrapped_number {
        &[]
    } else {
        &[other]
    };
    apply_inplace(target, operands, |s| {
        let r = {
            let _g = crate::grad_mode::GradModeGuard::new(false);
            cast_to(&compare(op, s, other)?, s.dtype())?
        };
        if needs_grad(&[s, other])? {
            let stem = match op {
                CmpOp::Eq => "Eq",
                CmpOp::Ne => "Ne",
                CmpOp::Lt => "Lt",
                CmpOp::Le => "Le",
                CmpOp::Gt => "Gt",
                CmpOp::Ge => "Ge",
            };
            let number = other.data().wrapped_number;
            let name = format!("{stem}Backward{}", if number { 0 } else { 1 });
            let (s_meta, o_meta) = ((s.shape(), s.dtype()), (other.shape(), other.dtype()));
            record(
                name,
                &[s, other],
                &[&r],
                Vec::new(),
                Box::new(move |_, g| {
                    let dev = g[0].device();
                    Ok(vec![
                        Some(Tensor::zeros_on(&s_meta.0, s_meta.1, dev)?),
                        if number {
                            None
                        } else {
                            Some(Tensor::zeros_on(&o_meta.0, o_meta.1, dev)?)
                        },
                    ])
                }),
            )?;
        }
        Ok(r)
    })
}

pub fn ne(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    compare(CmpOp::Ne, a, b)
}

#[derive(Copy, Clone)]
pub enum BitOp {
    And,
    Or,
    Xor,
}

/// `a & b`, `a | b`, `a ^ b` for bool and integer tensors (never recorded).
pub fn bitwise(op: BitOp, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let (dt, a2, b2) = promote_pair(a, b)?;
    broadcast_shapes(&a2.shape(), &b2.shape())?;
    let (logical, bitwise) = match op {
        BitOp::And => (BinaryKernel::And, BinaryKernel::BAnd),
        BitOp::Or => (BinaryKernel::Or, BinaryKernel::BOr),
        BitOp::Xor => (BinaryKernel::Xor, BinaryKernel::BXor),
    };
    match dt {
        DType::Bool => backend::binary(logical, &a2, &b2, dt),
        DType::UInt8
        | DType::Int8
        | DType::Int16
        | DType::Int32
        | DType::Int64
        | DType::UInt16
        | DType::UInt32
        | DType::UInt64 => {
            // (the unsigned types through int64: the bits survive the wrapping casts)
            let (x, y) = (cast_to(&a2, DType::Int64)?, cast_to(&b2, DType::Int64)?);
            cast_to(&backend::binary(bitwise, &x, &y, DType::Int64)?, dt)
        }
        _ => Err(Error::Runtime(format!(
            "\"bitwise_{}_cpu\" not implemented for '{}'",
            match op {
                BitOp::And => "and",
                BitOp::Or => "or",
                BitOp::Xor => "xor",
            },
            dt.scalar_type_name()
        ))),
    }
}

/// `~a`: logical not for bool, bitwise not for integers.
pub fn invert(a: &Tensor) -> Result<Tensor> {
    crate::dtype::shell_kernel_check(a.dtype(), "bitwise_not_cpu")?;
    match a.dtype() {
        DType::Bool => backend::unary(crate::backend::UnaryKernel::Not, a),
        DType::UInt8 | DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64 => {
            let r = backend::unary(
                crate::backend::UnaryKernel::BNot,
                &cast_to(a, DType::Int64)?,
            )?;
            cast_to(&r, a.dtype())
        }
        dt => Err(Error::Runtime(format!(
            "\"bitwise_not_cpu\" not implemented for '{}'",
            dt.scalar_type_name()
        ))),
    }
}
