//! Elementwise bounds: `maximum` / `minimum` of two tensors, and `clamp` with Python-number or
//! tensor bounds. Each gradient is PyTorch 2.15's: a tie splits the gradient in half, and NaN
//! sends it where PyTorch's masks send it (measured on PyTorch; see tests/python/test_clamp.py).
use super::*;
use crate::backend::{self, BinaryKernel};
use crate::dtype::DType;
use crate::grads;

fn and(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    bitwise(BitOp::And, a, b)
}

fn or(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    bitwise(BitOp::Or, a, b)
}

fn zero() -> Tensor {
    Tensor::wrapped_scalar(0.0f64)
}

/// The larger (`is_max`) or smaller of each pair, unrecorded: PyTorch's promotion, NaN
/// propagating, bools as logical or / and; complex tensors refused with PyTorch's TypeError.
fn extreme_value(a: &Tensor, b: &Tensor, is_max: bool) -> Result<Tensor> {
    let (dt, a2, b2) = promote_pair(a, b)?;
    if dt.is_complex() {
        return Err(Error::Type(format!(
            "{} not implemented for complex tensors.",
            if is_max { "maximum" } else { "minimum" }
        )));
    }
    let k = match (dt, is_max) {
        (DType::Bool, true) => BinaryKernel::Or,
        (DType::Bool, false) => BinaryKernel::And,
        (_, true) => BinaryKernel::Maximum,
        (_, false) => BinaryKernel::Minimum,
    };
    backend::binary(k, &a2, &b2, dt)
}

/// The gradient of `max(a, b)` (or min) for the input that loses where `loses` holds:
/// `g`, halved at ties, zero where it lost. NaN compares false both ways, so both get `g`.
fn winner_grad(g: &Tensor, tie: &Tensor, loses: &Tensor) -> Result<Tensor> {
    let shared = where_(tie, &mul_scalar(g, 0.5)?, g)?;
    where_(loses, &zero(), &shared)
}

fn extreme(a: &Tensor, b: &Tensor, is_max: bool) -> Result<Tensor> {
    edges_first(&[a, b])?;
    let out = extreme_value(a, b, is_max)?;
    if out.dtype().is_differentiable() && needs_grad(&[a, b])? {
        let (ra, rb) = (needs_formula(a), needs_formula(b));
        let name = if is_max {
            "MaximumBackward0"
        } else {
            "MinimumBackward0"
        };
        record(
            name,
            &[a, b],
            &[&out],
            vec![save("self", a)?, save("other", b)?],
            Box::new(move |s, g| {
                let (a, b, g) = (&s[0], &s[1], &g[0]);
                let tie = compare(CmpOp::Eq, a, b)?;
                // maximum: a loses where a < b, b where a > b (minimum: the other way)
                let (a_loses, b_loses) = if is_max {
                    (CmpOp::Lt, CmpOp::Gt)
                } else {
                    (CmpOp::Gt, CmpOp::Lt)
                };
                let ga = match ra {
                    true => Some(winner_grad(g, &tie, &compare(a_loses, a, b)?)?),
                    false => None,
                };
                let gb = match rb {
                    true => Some(winner_grad(g, &tie, &compare(b_loses, a, b)?)?),
                    false => None,
                };
                Ok(vec![ga, gb])
            }),
        )?;
    }
    Ok(out)
}

/// Elementwise maximum of two tensors (MaximumBackward0): ties split the gradient in half, NaN
/// propagates (and both inputs get the gradient there, as in PyTorch).
pub fn maximum(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    extreme(a, b, true)
}

/// Elementwise minimum of two tensors (MinimumBackward0).
pub fn minimum(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    extreme(a, b, false)
}

/// Which of PyTorch's clamp functions an op is, for the node it records: `clamp`
/// (ClampBackward1 with number bounds, ClampBackward0 with tensors), `clamp_min`
/// (ClampMinBackward0/1) or `clamp_max` (ClampMaxBackward0/1). The rules are clamp's.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ClampOp {
    Clamp,
    Min,
    Max,
}

impl ClampOp {
    fn node(self, tensor_bounds: bool) -> &'static str {
        match (self, tensor_bounds) {
            (ClampOp::Clamp, false) => "ClampBackward1",
            (ClampOp::Clamp, true) => "ClampBackward0",
            (ClampOp::Min, false) => "ClampMinBackward0",
            (ClampOp::Min, true) => "ClampMinBackward1",
            (ClampOp::Max, false) => "ClampMaxBackward0",
            (ClampOp::Max, true) => "ClampMaxBackward1",
        }
    }
}

/// clamp with tensor bounds (ClampBackward0): `min(max(x, lo), hi)`, broadcast, in the common
/// dtype of the three. With one bound the gradients are maximum's (or minimum's); with two,
/// PyTorch's: x gets `g` unless it lies outside the bounds, lo gets it where x < lo <= hi, hi
/// where x > hi >= lo or where lo > hi (the result is hi there), each halved at a tie with a
/// bound when lo < hi.
pub fn clamp_tensor(x: &Tensor, min: Option<&Tensor>, max: Option<&Tensor>) -> Result<Tensor> {
    clamp_tensor_as(x, min, max, ClampOp::Clamp)
}

/// [`clamp_tensor`] recorded as `op`.
/// The dtype clamp computes in for tensor bounds: the operands' result type.
pub fn clamp_tensor_result_type(
    x: &Tensor,
    min: Option<&Tensor>,
    max: Option<&Tensor>,
) -> Result<DType> {
    let kind = |t: &Tensor| {
        let (d, p, _) = t.info();
        (d, p)
    };
    let kinds: Vec<_> = std::iter::once(x).chain(min).chain(max).map(kind).collect();
    crate::dtype::result_type(&kinds)
}

/// PyTorch's refusal of a complex clamp: clamp's own check, or for clamp_min/clamp_max the
/// maximum/minimum kernel's dtype dispatch.
pub fn clamp_complex_error(op: ClampOp, dt: DType, x: &Tensor) -> Error {
    let dev = if x.is_cuda() { "cuda" } else { "cpu" };
    match op {
        ClampOp::Clamp => Error::NotImplemented("clamp is not supported for complex types".into()),
        ClampOp::Min | ClampOp::Max => Error::NotImplemented(format!(
            "\"{}_{dev}\" not implemented for '{}'",
            if op == ClampOp::Min {
                "maximum"
            } else {
                "minimum"
            },
            dt.scalar_type_name()
        )),
    }
}

pub fn clamp_tensor_as(
    x: &Tensor,
    min: Option<&Tensor>,
    max: Option<&Tensor>,
    op: ClampOp,
) -> Result<Tensor> {
    let bounds: Vec<&Tensor> = std::iter::once(x).chain(min).chain(max).collect();
    edges_first(&bounds)?;
    if min.is_some() || max.is_some() {
        let dt = clamp_tensor_result_type(x, min, max)?;
        if dt.is_complex() {
            return Err(clamp_complex_error(op, dt, x));
        }
    }
    let out = match (min, max) {
        (None, None) => {
            return Err(Error::Runtime(
                "torch.clamp: At least one of 'min' or 'max' must not be None".into(),
            ))
        }
        (Some(lo), None) => extreme_value(x, lo, true)?,
        (None, Some(hi)) => extreme_value(x, hi, false)?,
        (Some(lo), Some(hi)) => {
            let kind = |t: &Tensor| {
                let (d, p, _) = t.info();
                (d, p)
            };
            let dt = crate::dtype::result_type(&[kind(x), kind(lo), kind(hi)])?;
            let c = |t: &Tensor| match t.dtype() == dt {
                true => Ok(t.clone()),
                false => backend::cast_keep(t, dt),
            };
            let m = extreme_value(&c(x)?, &c(lo)?, true)?;
            extreme_value(&m, &c(hi)?, false)?
        }
    };
    let mut inputs = vec![x];
    inputs.extend(min);
    inputs.extend(max);
    if !out.dtype().is_differentiable() || !needs_grad(&inputs)? {
        return Ok(out);
    }
    let needs: Vec<bool> = inputs.iter().map(|t| needs_formula(t)).collect();
    let mut saved = vec![save("self", x)?];
    if let Some(lo) = min {
        saved.push(save("min", lo)?);
    }
    if let Some(hi) = max {
        saved.push(save("max", hi)?);
    }
    let (has_lo, has_hi) = (min.is_some(), max.is_some());
    record(
        op.node(true),
        &inputs,
        &[&out],
        saved,
        Box::new(move |s, g| {
            let (x, g) = (&s[0], &g[0]);
            let grads: Vec<Tensor> = match (has_lo, has_hi) {
                (true, false) | (false, true) => {
                    let bound = &s[1];
                    let tie = compare(CmpOp::Eq, x, bound)?;
                    // one bound: maximum(x, lo) or minimum(x, hi)
                    let (x_loses, b_loses) = if has_lo {
                        (CmpOp::Lt, CmpOp::Gt)
                    } else {
                        (CmpOp::Gt, CmpOp::Lt)
                    };
                    vec![
                        winner_grad(g, &tie, &compare(x_loses, x, bound)?)?,
                        winner_grad(g, &tie, &compare(b_loses, x, bound)?)?,
                    ]
                }
                _ => {
                    let (lo, hi) = (&s[1], &s[2]);
                    let ordered = compare(CmpOp::Lt, lo, hi)?;
                    let tie_lo = and(&compare(CmpOp::Eq, x, lo)?, &ordered)?;
                    let tie_hi = and(&compare(CmpOp::Eq, x, hi)?, &ordered)?;
                    let half = mul_scalar(g, 0.5)?;
                    let below = compare(CmpOp::Lt, x, lo)?;
                    let above = compare(CmpOp::Gt, x, hi)?;
                    let outside = or(&below, &above)?;
                    let gx = where_(
                        &outside,
                        &zero(),
                        &where_(&or(&tie_lo, &tie_hi)?, &half, g)?,
                    )?;
                    let lo_le_hi = compare(CmpOp::Le, lo, hi)?;
                    let lo_wins = and(&below, &lo_le_hi)?;
                    let glo = where_(&tie_lo, &half, &where_(&lo_wins, g, &zero())?)?;
                    let hi_wins = or(&and(&above, &lo_le_hi)?, &compare(CmpOp::Gt, lo, hi)?)?;
                    let ghi = where_(&tie_hi, &half, &where_(&hi_wins, g, &zero())?)?;
                    vec![gx, glo, ghi]
                }
            };
            Ok(grads
                .into_iter()
                .zip(&needs)
                .map(|(t, &n)| n.then_some(t))
                .collect())
        }),
    )?;
    Ok(out)
}

/// clamp with Python-number bounds: a float bound promotes an integer or bool tensor to the
/// default float dtype first (PyTorch's type promotion with a float scalar).
pub fn clamp_scalar(
    x: &Tensor,
    min: Option<f64>,
    max: Option<f64>,
    kind: BoundKind,
) -> Result<Tensor> {
    clamp_scalar_as(x, min, max, kind, ClampOp::Clamp)
}

/// [`clamp_scalar`] recorded as `op`.
pub fn clamp_scalar_as(
    x: &Tensor,
    min: Option<f64>,
    max: Option<f64>,
    kind: BoundKind,
    op: ClampOp,
) -> Result<Tensor> {
    let bounded = min.is_some() || max.is_some();
    if kind == BoundKind::Float && !x.dtype().is_differentiable() && bounded {
        // (an integer tensor: nothing to record; the float copy keeps its layout)
        return clamp_as(
            &backend::cast_keep(x, crate::dtype::default_float())?,
            min,
            max,
            op,
        );
    }
    if x.dtype() == DType::Bool && bounded {
        if kind == BoundKind::Bool {
            let kernel = match (min.is_some(), max.is_some()) {
                (true, true) => "clamp_scalar_cpu",
                (true, false) => "clamp_min_scalar_cpu",
                _ => "clamp_max_scalar_cpu",
            };
            return Err(Error::NotImplemented(format!(
                "\"{kernel}\" not implemented for 'Bool'"
            )));
        }
        if kind == BoundKind::Int {
            return clamp_as(&to_dtype(x, DType::Int64)?, min, max, op);
        }
    }
    clamp_as(x, min, max, op)
}

/// The widest kind of Python number among clamp's bounds (for type promotion).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BoundKind {
    Bool,
    Int,
    Float,
}

/// clamp(x, min, max) with Python-number bounds (ClampBackward1): gradient passes where the
/// value was strictly inside the bounds. A NaN bound makes every element NaN, as in PyTorch.
pub fn clamp(x: &Tensor, min: Option<f64>, max: Option<f64>) -> Result<Tensor> {
    clamp_as(x, min, max, ClampOp::Clamp)
}

/// [`clamp()`] recorded as `op` (clamp_min's and clamp_max's nodes have clamp's rule).
pub fn clamp_as(x: &Tensor, min: Option<f64>, max: Option<f64>, op: ClampOp) -> Result<Tensor> {
    edges_first(&[x])?;
    if min.is_none() && max.is_none() {
        return Err(Error::Runtime(
            "torch.clamp: At least one of 'min' or 'max' must not be None".into(),
        ));
    }
    if x.dtype().is_complex() {
        return Err(Error::NotImplemented(
            "clamp is not supported for complex types".into(),
        ));
    }
    let lo = min.unwrap_or(f64::NEG_INFINITY);
    let hi = max.unwrap_or(f64::INFINITY);
    let out = backend::clamp(x, lo, hi)?;
    if needs_grad(&[x])? {
        // d clamp(x) = [min < x < max] dx: PyTorch 2.15 gives no gradient at a bound (nor to
        // NaN); an absent bound is no condition
        record(
            op.node(false),
            &[x],
            &[&out],
            vec![save("self", x)?],
            Box::new(move |s, g| {
                let x = &s[0];
                let above = |lo: f64| compare(CmpOp::Gt, x, &Tensor::wrapped_scalar(lo));
                let below = |hi: f64| compare(CmpOp::Lt, x, &Tensor::wrapped_scalar(hi));
                let inside = match (min, max) {
                    (Some(lo), Some(hi)) => and(&above(lo)?, &below(hi)?)?,
                    (Some(lo), None) => above(lo)?,
                    (None, Some(hi)) => below(hi)?,
                    (None, None) => unreachable!("refused above"),
                };
                // a select: a NaN or infinite g outside the bounds gives 0 (PyTorch)
                grads![index::where_(
                    &inside,
                    &g[0],
                    &Tensor::wrapped_scalar(0.0f64)
                )?]
            }),
        )?;
        let bound = |v: Option<f64>| v.map_or(crate::graph::node::SavedAttr::None, scalar_attr);
        set_attrs(&out, || match op {
            ClampOp::Clamp => vec![("min", bound(min)), ("max", bound(max))],
            ClampOp::Min => vec![("min", bound(min))],
            ClampOp::Max => vec![("max", bound(max))],
        });
    }
    Ok(out)
}
