//! Scatter: `scatter` (of a tensor or a value, with the old `reduce="add"/"multiply"`),
//! `scatter_add` and `scatter_reduce` (sum, prod, mean, amax, amin; with or without `self`'s
//! own values). Each writes into a copy of `self` at the positions an integer `index` names along
//! `dim`; the in-place forms go through [`apply_inplace`]. The positions are
//! index plans, so the gradients are takes and puts of the same plans, written with
//! differentiable ops (PyTorch's formulas, double backward included).
use super::index::{take, zero_at, Plan};
use super::*;
use crate::backend;
use crate::dtype::{DType, Element};
use crate::grads;
use crate::shape::{contiguous_strides, fmt_shape, wrap_dim};
use std::sync::Arc;

/// The reductions of `scatter_reduce` (and of `scatter`'s `reduce=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScatterReduce {
    Sum,
    Prod,
    Mean,
    Amax,
    Amin,
}

impl ScatterReduce {
    /// `scatter_reduce`'s spelling ("sum", "prod", "mean", "amax", "amin"; "max"/"min" too).
    pub fn parse(s: &str) -> Result<ScatterReduce> {
        Ok(match s {
            "sum" => ScatterReduce::Sum,
            "prod" => ScatterReduce::Prod,
            "mean" => ScatterReduce::Mean,
            "amax" | "max" => ScatterReduce::Amax,
            "amin" | "min" => ScatterReduce::Amin,
            _ => {
                return Err(Error::Runtime(format!(
                    "reduce argument must be either sum, prod, mean, amax or amin, got {s}"
                )))
            }
        })
    }
}

/// Where each element of `index` (in logical order) writes in `self` (its own coordinates with
/// `dim` replaced by its value) and reads in `src` (its own coordinates).
struct Plans {
    target: Plan,
    source: Plan,
}

fn dims1(s: &[usize]) -> Vec<usize> {
    if s.is_empty() {
        vec![1]
    } else {
        s.to_vec()
    }
}

/// PyTorch's checks (dtypes, dims, sizes, index bounds) and the plans.
fn plans(
    fname: &str,
    x: &Tensor,
    dim: i64,
    index: &Tensor,
    src: Option<&Tensor>,
) -> Result<(usize, Plans)> {
    let d = wrap_dim(dim, x.ndim().max(1))?;
    if !matches!(index.dtype(), DType::Int64 | DType::Int32) {
        return Err(Error::Runtime(format!(
            "{fname}(): Expected dtype int32/int64 for index"
        )));
    }
    if let Some(s) = src {
        if s.dtype() != x.dtype() {
            return Err(Error::Runtime(format!(
                "{fname}(): Expected self.dtype to be equal to src.dtype"
            )));
        }
    }
    let (xs, is) = (dims1(&x.shape()), dims1(&index.shape()));
    let ss = src.map(|s| dims1(&s.shape()));
    if index.numel() > 0 {
        if xs.len() != is.len() {
            return Err(Error::Runtime(
                "Index tensor must have the same number of dimensions as self tensor".into(),
            ));
        }
        if let Some(ss) = &ss {
            // PyTorch reads src's size at each of index's dims: a missing one is its IndexError
            if ss.len() < is.len() && (0..xs.len()).all(|k| k == d || is[k] <= xs[k]) {
                let n = ss.len() as i64;
                return Err(Error::Index(format!(
                    "Dimension out of range (expected to be in range of [{}, {}], but got {})",
                    -n,
                    n - 1,
                    n
                )));
            }
            if ss.len() != is.len() {
                return Err(Error::Runtime(
                    "Index tensor must have the same number of dimensions as src tensor".into(),
                ));
            }
        }
        let wrong = (0..xs.len()).any(|k| k != d && is[k] > xs[k])
            || ss
                .as_ref()
                .is_some_and(|ss| (0..is.len()).any(|k| is[k] > ss[k]));
        if wrong {
            return Err(Error::Runtime(match src {
                Some(s) => format!(
                    "Expected index {} to be no larger than self {} apart from dimension {d} and to be no larger size than src {}",
                    fmt_shape(&index.shape()),
                    fmt_shape(&x.shape()),
                    fmt_shape(&s.shape())
                ),
                None => format!(
                    "Expected index {} to be no larger than self {} apart from dimension {d}",
                    fmt_shape(&index.shape()),
                    fmt_shape(&x.shape())
                ),
            }));
        }
    }
    let vals: Vec<i64> = if index.device().is_meta() {
        vec![0; index.numel()]
    } else {
        index.try_to_vec::<i64>()?
    };
    if let Some(&bad) = vals.iter().find(|&&v| v < 0 || v >= xs[d] as i64) {
        return Err(Error::Runtime(format!(
            "index {bad} is out of bounds for dimension {d} with size {}",
            xs[d]
        )));
    }
    let (xst, ist) = (contiguous_strides(&xs), contiguous_strides(&is));
    let sst = ss.as_ref().map(|s| contiguous_strides(s));
    let mut target = Vec::with_capacity(vals.len());
    let mut source = Vec::with_capacity(vals.len());
    for (flat, &v) in vals.iter().enumerate() {
        let (mut t, mut s) = (0usize, 0usize);
        for k in 0..is.len() {
            let c = (flat / ist[k] as usize) % is[k];
            t += if k == d { v as usize } else { c } * xst[k] as usize;
            if let Some(sst) = &sst {
                s += c * sst[k] as usize;
            }
        }
        target.push(t);
        source.push(s);
    }
    Ok((
        d,
        Plans {
            target: Arc::new(target),
            source: Arc::new(source),
        },
    ))
}

/// Record `out`: `x` with `src`'s elements written at `target` (scatter, index_copy). `x`'s
/// gradient is zero where it was overwritten; `src`'s is the output gradient read back at the
/// written positions (`read`: the node that read takes and src's gradient shape; PyTorch's is
/// index's for scatter).
fn record_overwrite(
    node: &'static str,
    (x, src, index, out): (&Tensor, &Tensor, &Tensor, &Tensor),
    target: &Plan,
    (read_node, shape): (&'static str, crate::shape::Shape),
) -> Result<()> {
    let t = target.clone();
    record(
        node,
        &[x, src],
        &[out],
        // index_copy's formula also reads the source (its dims): PyTorch saves it
        if node == "IndexCopyBackward0" {
            vec![save("index", index)?, save("source", src)?]
        } else {
            vec![save("index", index)?]
        },
        Box::new(move |_, g| grads![zero_at(&g[0], &t)?, take(&g[0], &t, &shape, read_node)?]),
    )
}

/// The elements of `src` that `index` reads, in index order, as a flat tensor.
fn read_src(src: &Tensor, p: &Plans) -> Result<Tensor> {
    backend::take(src, &p.source, &[p.source.len()])
}

/// `x.scatter(dim, index, src)`: a copy of `x` with `x[..index[i]..] = src[i]` (the last write
/// wins where positions repeat); ScatterBackward0.
pub fn scatter(x: &Tensor, dim: i64, index: &Tensor, src: &Tensor) -> Result<Tensor> {
    let (_, p) = plans("scatter", x, dim, index, Some(src))?;
    let out = backend::cast(x, x.dtype())?;
    backend::put(&out, &p.target, &read_src(src, &p)?, false)?;
    if needs_grad(&[x, src])? {
        let read = ("GatherBackward0", index.shape());
        record_overwrite("ScatterBackward0", (x, src, index, &out), &p.target, read)?;
    }
    Ok(out)
}

/// `x.scatter(dim, index, value)` of a number (ScatterBackward1).
pub fn scatter_value(x: &Tensor, dim: i64, index: &Tensor, value: &Tensor) -> Result<Tensor> {
    let (_, p) = plans("scatter", x, dim, index, None)?;
    let out = backend::cast(x, x.dtype())?;
    let n = p.target.len();
    let vals = backend::cast(&expand(&value.detached(), &[n])?, x.dtype())?;
    backend::put(&out, &p.target, &vals, false)?;
    if needs_grad(&[x])? {
        let t = p.target.clone();
        record(
            "ScatterBackward1",
            &[x],
            &[&out],
            vec![save("index", index)?],
            Box::new(move |_, g| grads![zero_at(&g[0], &t)?]),
        )?;
    }
    Ok(out)
}

/// `x.scatter_add(dim, index, src)`: a copy of `x` with `src` added at the positions
/// (ScatterAddBackward0).
pub fn scatter_add(x: &Tensor, dim: i64, index: &Tensor, src: &Tensor) -> Result<Tensor> {
    let (_, p) = plans("scatter_add", x, dim, index, Some(src))?;
    let out = backend::cast(x, x.dtype())?;
    backend::put(&out, &p.target, &read_src(src, &p)?, true)?;
    if needs_grad(&[x, src])? {
        let (t, is) = (p.target.clone(), index.shape());
        record(
            "ScatterAddBackward0",
            &[x, src],
            &[&out],
            vec![save("index", index)?],
            Box::new(move |_, g| grads![g[0].clone(), take(&g[0], &t, &is, "GatherBackward0")?]),
        )?;
    }
    Ok(out)
}

const PROD_DOUBLE_BACKWARD: &str = "scatter_reduce(): Double backward is unsupported for src when >1 zeros in src are scattered to the same position in self";

/// `t` behind PyTorch's DelayedError node ([`super::function::delayed_error`]).
fn delayed_error_one(t: &Tensor, msg: &str) -> Result<Tensor> {
    let mut out = super::function::delayed_error(&[Some(t.clone())], msg.to_string())?;
    out.pop()
        .flatten()
        .ok_or_else(|| Error::Runtime("internal error: DelayedError lost its output".into()))
}

/// The arithmetic of a reduction on one dtype, as PyTorch's CPU kernels compute it (integers
/// wrap).
trait Arith: Element {
    fn add(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    fn lt(self, o: Self) -> bool;
    fn is_nan(self) -> bool;
    fn one() -> Self;
    fn lowest() -> Self;
    fn highest() -> Self;
}
macro_rules! arith_float {
    ($($t:ty),*) => {$(
        impl Arith for $t {
            fn add(self, o: Self) -> Self { self + o }
            fn mul(self, o: Self) -> Self { self * o }
            fn lt(self, o: Self) -> bool { self < o }
            fn is_nan(self) -> bool { self.is_nan() }
            fn one() -> Self { <$t>::from_f64(1.0) }
            fn lowest() -> Self { <$t>::from_f64(f64::NEG_INFINITY) }
            fn highest() -> Self { <$t>::from_f64(f64::INFINITY) }
        }
    )*};
}
arith_float!(f32, f64, half::f16, half::bf16);
macro_rules! arith_int {
    ($($t:ty),*) => {$(
        impl Arith for $t {
            fn add(self, o: Self) -> Self { self.wrapping_add(o) }
            fn mul(self, o: Self) -> Self { self.wrapping_mul(o) }
            fn lt(self, o: Self) -> bool { self < o }
            fn is_nan(self) -> bool { false }
            fn one() -> Self { 1 }
            fn lowest() -> Self { <$t>::MIN }
            fn highest() -> Self { <$t>::MAX }
        }
    )*};
}
arith_int!(i64, i32, i16, i8, u8);

/// `out` (a copy of self) reduced with `src` in index order: each written position first set to
/// the reduction's identity when self's values are left out.
fn reduce_host<T: Arith>(
    out: &mut [T],
    src: &[T],
    target: &[usize],
    op: ScatterReduce,
    include_self: bool,
) {
    if !include_self {
        let id = match op {
            ScatterReduce::Sum | ScatterReduce::Mean => T::default(),
            ScatterReduce::Prod => T::one(),
            ScatterReduce::Amax => T::lowest(),
            ScatterReduce::Amin => T::highest(),
        };
        for &t in target {
            out[t] = id;
        }
    }
    for (&t, &v) in target.iter().zip(src) {
        let a = out[t];
        out[t] = match op {
            ScatterReduce::Sum | ScatterReduce::Mean => a.add(v),
            ScatterReduce::Prod => a.mul(v),
            // NaN wins (PyTorch's kernels)
            ScatterReduce::Amax => {
                if v.is_nan() || a.lt(v) {
                    v
                } else {
                    a
                }
            }
            ScatterReduce::Amin => {
                if v.is_nan() || v.lt(a) {
                    v
                } else {
                    a
                }
            }
        };
    }
}

fn reduce_typed<T: Arith>(
    x: &Tensor,
    vals: &Tensor,
    target: &[usize],
    op: ScatterReduce,
    include_self: bool,
) -> Result<Tensor> {
    let mut out = x.try_to_vec::<T>()?;
    let src = vals.try_to_vec::<T>()?;
    reduce_host(&mut out, &src, target, op, include_self);
    let t = Tensor::from_vec(out, &x.shape())?;
    if t.device() != x.device() {
        return backend::to_device(&t, x.device());
    }
    Ok(t)
}

/// The value of `scatter_reduce` (not recorded).
fn reduce_value(
    x: &Tensor,
    src: &Tensor,
    p: &Plans,
    op: ScatterReduce,
    include_self: bool,
) -> Result<Tensor> {
    if x.device().is_meta() {
        return backend::cast(x, x.dtype());
    }
    let vals = read_src(src, p)?;
    let t = &p.target;
    let r = match x.dtype() {
        DType::Float32 => reduce_typed::<f32>(x, &vals, t, op, include_self),
        DType::Float64 => reduce_typed::<f64>(x, &vals, t, op, include_self),
        DType::Float16 => reduce_typed::<half::f16>(x, &vals, t, op, include_self),
        DType::BFloat16 => reduce_typed::<half::bf16>(x, &vals, t, op, include_self),
        DType::Int64 => reduce_typed::<i64>(x, &vals, t, op, include_self),
        DType::Int32 => reduce_typed::<i32>(x, &vals, t, op, include_self),
        DType::Int16 => reduce_typed::<i16>(x, &vals, t, op, include_self),
        DType::Int8 => reduce_typed::<i8>(x, &vals, t, op, include_self),
        DType::UInt8 => reduce_typed::<u8>(x, &vals, t, op, include_self),
        d => Err(Error::NotImplemented(format!(
            "\"scatter_reduce\" not implemented for '{}'",
            d.scalar_type_name()
        ))),
    }?;
    if op != ScatterReduce::Mean {
        return Ok(r);
    }
    // the sum divided by how many values each position got (floor division for integers)
    let count = count_tensor(x, &p.target, include_self)?;
    if x.dtype().is_floating() {
        div(&r, &count)
    } else {
        super::divmod::floor_divide(&r, &count)
    }
}

/// How many values each position of the result averages (at least 1): 1 for self's own where
/// included, plus one per write.
fn count_tensor(x: &Tensor, target: &Plan, include_self: bool) -> Result<Tensor> {
    let base = if include_self { 1.0 } else { 0.0 };
    let mut n = vec![base; x.numel()];
    for &t in target.iter() {
        n[t] += 1.0;
    }
    for v in n.iter_mut() {
        if *v == 0.0 {
            *v = 1.0;
        }
    }
    let c = backend::cast(&Tensor::from_vec(n, &x.shape())?, x.dtype())?;
    if c.device() != x.device() {
        return backend::to_device(&c, x.device());
    }
    Ok(c)
}

/// `x.scatter_reduce(dim, index, src, reduce, include_self)` (ScatterReduceBackward0).
pub fn scatter_reduce(
    x: &Tensor,
    dim: i64,
    index: &Tensor,
    src: &Tensor,
    op: ScatterReduce,
    include_self: bool,
) -> Result<Tensor> {
    let (d, p) = plans("scatter_reduce", x, dim, index, Some(src))?;
    let out = reduce_value(&x.detached(), &src.detached(), &p, op, include_self)?;
    if needs_grad(&[x, src])? {
        let d = d as i64;
        // (PyTorch's src gradient has index's shape)
        let gshape = index.shape();
        let redo =
            move |a: &Tensor, b: &Tensor, i: &Tensor| scatter_reduce(a, d, i, b, op, include_self);
        let how = (op, include_self, PROD_DOUBLE_BACKWARD);
        let node = ("ScatterReduceBackward0", "src");
        record_reduce(node, (x, src, index, &out), p, gshape, how, redo)?;
    }
    Ok(out)
}

/// Record a reduction of `src` into `x` at `index` (`node`: its name and src's saved name;
/// `how`: the reduction, include_self, the double-backward error of a product); the backward is
/// [`reduce_backward`] with `redo` recomputing the op for other inputs.
fn record_reduce(
    (node, src_name): (&'static str, &'static str),
    (x, src, index, out): (&Tensor, &Tensor, &Tensor, &Tensor),
    p: Plans,
    gshape: crate::shape::Shape,
    (op, include_self, prod_error): (ScatterReduce, bool, &'static str),
    redo: impl Fn(&Tensor, &Tensor, &Tensor) -> Result<Tensor> + Send + Sync + 'static,
) -> Result<()> {
    record(
        node,
        &[x, src],
        &[out],
        vec![
            save("self", x)?,
            save(src_name, src)?,
            save("index", index)?,
            save_output("result", out, 0)?,
        ],
        Box::new(move |s, g| {
            let redo_here = |a: &Tensor, b: &Tensor| redo(a, b, &s[2]);
            let (gs, gsrc) = reduce_backward(
                (&s[0], &s[1], &s[3], &g[0]),
                &p,
                &gshape,
                op,
                include_self,
                &redo_here,
                prod_error,
            )?;
            grads![gs, gsrc]
        }),
    )
}

/// `a` with `b`'s elements (read through `p.source`) added at `p.target`, recorded.
fn add_at(a: &Tensor, p: &Plans, b: &Tensor) -> Result<Tensor> {
    let vals = take(b, &p.source, &[p.source.len()], "GatherBackward0")?;
    add(a, &super::index::put_add(&a.shape(), &p.target, &vals)?)
}

/// PyTorch's scatter_reduce_backward / index_reduce_backward: the gradients of `self` and of
/// `src` given (self, src, result, grad). `gshape` is the shape of src's gradient; `redo`
/// recomputes the op for other inputs (the product's "others").
fn reduce_backward(
    (x, src, result, g): (&Tensor, &Tensor, &Tensor, &Tensor),
    p: &Plans,
    gshape: &[usize],
    op: ScatterReduce,
    include_self: bool,
    redo: &dyn Fn(&Tensor, &Tensor) -> Result<Tensor>,
    double_backward_error: &'static str,
) -> Result<(Tensor, Tensor)> {
    let gath = |t: &Tensor| take(t, &p.target, gshape, "GatherBackward0");
    let one = Tensor::wrapped_scalar(1.0f64);
    let zero = Tensor::wrapped_scalar(0.0f64);
    let as_float = |m: &Tensor| backend::cast(m, x.dtype());
    let (gs, gsrc) = match op {
        ScatterReduce::Sum => (g.clone(), gath(g)?),
        ScatterReduce::Mean => {
            let n = count_tensor(g, &p.target, include_self)?;
            (div(g, &n)?, div(&gath(g)?, &gath(&n)?)?)
        }
        ScatterReduce::Amax | ScatterReduce::Amin => {
            // shared evenly among the elements equal to the result
            let value = gath(result)?;
            let self_is = as_float(&compare(CmpOp::Eq, x, result)?)?;
            let src_is = as_float(&compare(CmpOp::Eq, src, &value)?)?;
            let n = add_at(&self_is, p, &src_is)?;
            let share = div(g, &n)?;
            (mul(&self_is, &share)?, mul(&src_is, &gath(&share)?)?)
        }
        ScatterReduce::Prod => {
            // the product of the others, computed without dividing by a zero
            let self_zero = compare(CmpOp::Eq, x, &zero)?;
            let masked_self = masked_fill(x, &self_zero, &one)?;
            let others = redo(&masked_self, src)?;
            let gs = div(&mul(g, &others)?, &masked_self)?;
            let src_zero = compare(CmpOp::Eq, src, &zero)?;
            let zeros = Tensor::zeros_on(&x.shape(), x.dtype(), x.device())?;
            let n_zero = gath(&add_at(&zeros, p, &as_float(&src_zero)?)?)?;
            let single = bitwise(BitOp::And, &src_zero, &compare(CmpOp::Eq, &n_zero, &one)?)?;
            let masked_src = masked_fill(src, &single, &one)?;
            let without = redo(x, &masked_src)?;
            let gsrc = where_(
                &single,
                &gath(&mul(g, &without)?)?,
                &div(
                    &gath(&mul(g, result)?)?,
                    &masked_fill(src, &src_zero, &one)?,
                )?,
            )?;
            // that formula has no derivative where two zeros meet (PyTorch's DelayedError:
            // differentiating it again raises)
            let many = compare(CmpOp::Gt, &n_zero, &one)?;
            if needs_grad(&[&gsrc])? && many.try_to_vec::<bool>()?.contains(&true) {
                (gs, delayed_error_one(&gsrc, double_backward_error)?)
            } else {
                (gs, gsrc)
            }
        }
    };
    let gs = if include_self {
        gs
    } else {
        zero_at(&gs, &p.target)?
    };
    Ok((gs, gsrc))
}

/// `x.scatter(dim, index, src_or_value, reduce="add"|"multiply")` (PyTorch's older reduction,
/// self included): PyTorch has no derivative for it, so the node raises in backward.
pub fn scatter_reduce_legacy(
    x: &Tensor,
    dim: i64,
    index: &Tensor,
    src: &Tensor,
    is_value: bool,
    multiply: bool,
) -> Result<Tensor> {
    let (_, p) = plans("scatter", x, dim, index, (!is_value).then_some(src))?;
    let src_full;
    let (src_t, p) = if is_value {
        src_full = backend::cast(&expand(&src.detached(), &index.shape())?, x.dtype())?;
        let (_, p2) = plans("scatter", x, dim, index, Some(&src_full))?;
        (&src_full, p2)
    } else {
        (src, p)
    };
    let op = if multiply {
        ScatterReduce::Prod
    } else {
        ScatterReduce::Sum
    };
    let out = reduce_value(&x.detached(), &src_t.detached(), &p, op, true)?;
    let inputs: Vec<&Tensor> = if is_value { vec![x] } else { vec![x, src] };
    if needs_grad(&inputs)? {
        record(
            "torch::autograd::NotImplemented",
            &inputs,
            &[&out],
            vec![],
            Box::new(|_, _| {
                Err(Error::Runtime(
                    "derivative for aten::scatter is not implemented".into(),
                ))
            }),
        )?;
    }
    Ok(out)
}

/// The plans of the `index_*` ops: each element of `source` (in logical order) goes to its own
/// coordinates in `self` with `dim` replaced by `index[coordinate along dim]`; PyTorch's checks.
fn index_plans(
    fname: &str,
    x: &Tensor,
    dim: i64,
    index: &Tensor,
    source: &Tensor,
    oob: fn(String) -> Error,
) -> Result<(usize, Plans)> {
    let d = wrap_dim(dim, x.ndim().max(1))?;
    if index.ndim() > 1 {
        return Err(Error::Index(format!(
            "{fname}(): Index is supposed to be a vector, but got dim: {} with type: {} and size: {}",
            index.ndim(),
            index.dtype().scalar_type_name(),
            fmt_shape(&index.shape())
        )));
    }
    if !matches!(index.dtype(), DType::Int64 | DType::Int32) {
        return Err(Error::Runtime(format!(
            "{fname}(): Expected dtype int32/int64 for index but got: {}",
            index.dtype().scalar_type_name()
        )));
    }
    if source.dtype() != x.dtype() {
        return Err(Error::Runtime(format!(
            "{fname}(): self ({}) and source ({}) must have the same scalar type",
            x.dtype().scalar_type_name(),
            source.dtype().scalar_type_name()
        )));
    }
    let (xs, ss) = (dims1(&x.shape()), dims1(&source.shape()));
    if index.numel() != ss.get(d).copied().unwrap_or(1) {
        return Err(Error::Runtime(format!(
            "{fname}(): Number of indices ({}) should be equal to source.size(dim): ({}), for dim: {d}",
            index.numel(),
            ss.get(d).copied().unwrap_or(1)
        )));
    }
    if xs.len() != ss.len() || (0..xs.len()).any(|k| k != d && xs[k] != ss[k]) {
        return Err(Error::Runtime(format!(
            "{fname}(): Source/destination tensor must have same slice shapes. Destination slice shape: {} and source slice shape: {}",
            fmt_shape(&without(&xs, d)),
            fmt_shape(&without(&ss, d.min(ss.len().saturating_sub(1))))
        )));
    }
    let vals: Vec<i64> = if index.device().is_meta() {
        vec![0; index.numel()]
    } else {
        index.try_to_vec::<i64>()?
    };
    if let Some(&bad) = vals.iter().find(|&&v| v < 0 || v >= xs[d] as i64) {
        return Err(oob(format!(
            "index {bad} is out of bounds for dimension {d} with size {}",
            xs[d]
        )));
    }
    let (xst, sst) = (contiguous_strides(&xs), contiguous_strides(&ss));
    let n: usize = ss.iter().product();
    let target = (0..n)
        .map(|flat| {
            (0..ss.len())
                .map(|k| {
                    let c = (flat / sst[k] as usize) % ss[k];
                    if k == d {
                        vals[c] as usize * xst[k] as usize
                    } else {
                        c * xst[k] as usize
                    }
                })
                .sum()
        })
        .collect();
    Ok((
        d,
        Plans {
            target: Arc::new(target),
            source: Arc::new((0..n).collect()),
        },
    ))
}

fn without(s: &[usize], d: usize) -> Vec<usize> {
    let mut v = s.to_vec();
    if d < v.len() {
        v.remove(d);
    }
    v
}

/// `x.index_add(dim, index, source, alpha)`: `source * alpha` added at the rows `index` names
/// (IndexAddBackward0).
pub fn index_add(
    x: &Tensor,
    dim: i64,
    index: &Tensor,
    source: &Tensor,
    alpha: &Tensor,
) -> Result<Tensor> {
    let (_, p) = index_plans("index_add_", x, dim, index, source, Error::Runtime)?;
    let scale = |t: &Tensor| -> Result<Tensor> {
        if alpha.item()? == num_complex::Complex64::new(1.0, 0.0) {
            Ok(t.clone())
        } else {
            backend::cast(&mul(t, alpha)?, t.dtype())
        }
    };
    let out = backend::cast(x, x.dtype())?;
    backend::put(
        &out,
        &p.target,
        &scale(&read_src(&source.detached(), &p)?)?,
        true,
    )?;
    if needs_grad(&[x, source])? {
        let (t, ss, a) = (p.target.clone(), source.shape(), alpha.detached());
        record(
            "IndexAddBackward0",
            &[x, source],
            &[&out],
            vec![save("index", index)?, save("source", source)?],
            Box::new(move |_, g| {
                let gs = take(&g[0], &t, &ss, "IndexSelectBackward0")?;
                let gs = if a.item()? == num_complex::Complex64::new(1.0, 0.0) {
                    gs
                } else {
                    mul(&gs, &a)?
                };
                grads![g[0].clone(), gs]
            }),
        )?;
    }
    Ok(out)
}

/// `x.index_copy(dim, index, source)`: the rows `index` names replaced by `source`'s (the last
/// write wins; IndexCopyBackward0).
pub fn index_copy(x: &Tensor, dim: i64, index: &Tensor, source: &Tensor) -> Result<Tensor> {
    crate::dtype::shell_kernel_check(x.dtype(), "index_copy_cpu")?;
    let (_, p) = index_plans("index_copy_", x, dim, index, source, |m| {
        Error::Index(format!("index_copy_(): {m}"))
    })?;
    let out = backend::cast(x, x.dtype())?;
    backend::put(&out, &p.target, &read_src(&source.detached(), &p)?, false)?;
    if needs_grad(&[x, source])? {
        let read = ("IndexSelectBackward0", source.shape());
        record_overwrite(
            "IndexCopyBackward0",
            (x, source, index, &out),
            &p.target,
            read,
        )?;
    }
    Ok(out)
}

/// `x.index_fill(dim, index, value)`: the rows `index` names (negative ones from the end) set to
/// a number (IndexFillBackward0) or a 0-d tensor (IndexFillBackward1, which gets the summed
/// gradient of every filled element).
pub fn index_fill(
    x: &Tensor,
    dim: i64,
    index: &Tensor,
    value: &Tensor,
    value_is_tensor: bool,
) -> Result<Tensor> {
    crate::dtype::shell_kernel_check(x.dtype(), "index_fill_cpu")?;
    let d = wrap_dim(dim, x.ndim().max(1))?;
    if index.ndim() > 1 {
        return Err(Error::Index(format!(
            "index_fill_(): Index is supposed to be a vector, but got dim: {} with type: {} and size: {}",
            index.ndim(),
            index.dtype().scalar_type_name(),
            fmt_shape(&index.shape())
        )));
    }
    if index.dtype() != DType::Int64 {
        return Err(Error::Index(
            "index_fill_(): Expected dtype int64 for index.".into(),
        ));
    }
    if value_is_tensor && value.ndim() != 0 {
        return Err(Error::Runtime(format!(
            "index_fill_ only supports a 0-dimensional value tensor, but got tensor with {} dimension(s).",
            value.ndim()
        )));
    }
    let xs = dims1(&x.shape());
    let size = xs[d] as i64;
    let vals: Vec<i64> = if index.device().is_meta() {
        vec![0; index.numel()]
    } else {
        index.try_to_vec::<i64>()?
    };
    let rows = vals
        .iter()
        .map(|&v| {
            let w = if v < 0 { v + size } else { v };
            if w < 0 || w >= size {
                Err(Error::Index(format!(
                    "index {v} is out of bounds for dimension {d} with size {size}"
                )))
            } else {
                Ok(w as usize)
            }
        })
        .collect::<Result<Vec<_>>>()?;
    // every element of the filled rows, row by row in index order
    let xst = contiguous_strides(&xs);
    let (outer, inner) = (
        xs[..d].iter().product::<usize>(),
        xs[d + 1..].iter().product::<usize>(),
    );
    let mut plan = Vec::with_capacity(outer * rows.len() * inner);
    for o in 0..outer {
        for &r in &rows {
            for i in 0..inner {
                plan.push(o * xs[d] * inner + r * xst[d] as usize + i);
            }
        }
    }
    let plan: Plan = Arc::new(plan);
    let out = backend::cast(x, x.dtype())?;
    let filler = backend::cast(&expand(&value.detached(), &[plan.len()])?, x.dtype())?;
    backend::put(&out, &plan, &filler, false)?;
    let inputs: Vec<&Tensor> = if value_is_tensor {
        vec![x, value]
    } else {
        vec![x]
    };
    if needs_grad(&inputs)? {
        let t = plan.clone();
        record(
            if value_is_tensor {
                "IndexFillBackward1"
            } else {
                "IndexFillBackward0"
            },
            &inputs,
            &[&out],
            vec![save("index", index)?],
            Box::new(move |_, g| {
                let gx = zero_at(&g[0], &t)?;
                if value_is_tensor {
                    let gv = sum(
                        &take(&g[0], &t, &[t.len()], "IndexSelectBackward0")?,
                        None,
                        false,
                    )?;
                    grads![gx, gv]
                } else {
                    grads![gx]
                }
            }),
        )?;
    }
    Ok(out)
}

const INDEX_PROD_DOUBLE_BACKWARD: &str = "index_reduce(): Double backward is unsupported for source when >1 zeros in source are scattered to the same position. This may happen if you are using the multiply reduction and scatter or gather an index that contains multiple zero values. Please file an issue on GitHub if this is needed";

/// `x.index_reduce(dim, index, source, reduce, include_self)`: "prod", "mean", "amax" or
/// "amin" of the rows sent to each row (IndexReduceBackward0).
pub fn index_reduce(
    x: &Tensor,
    dim: i64,
    index: &Tensor,
    source: &Tensor,
    op: ScatterReduce,
    include_self: bool,
) -> Result<Tensor> {
    if op == ScatterReduce::Sum {
        return Err(Error::Runtime(
            "index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got sum."
                .into(),
        ));
    }
    let (d, p) = index_plans("index_reduce_", x, dim, index, source, Error::Runtime)?;
    let out = reduce_value(&x.detached(), &source.detached(), &p, op, include_self)?;
    if needs_grad(&[x, source])? {
        let d = d as i64;
        let gshape = source.shape();
        let redo =
            move |a: &Tensor, b: &Tensor, i: &Tensor| index_reduce(a, d, i, b, op, include_self);
        let how = (op, include_self, INDEX_PROD_DOUBLE_BACKWARD);
        let node = ("IndexReduceBackward0", "source");
        record_reduce(node, (x, source, index, &out), p, gshape, how, redo)?;
    }
    Ok(out)
}
