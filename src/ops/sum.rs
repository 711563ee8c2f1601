//! Sums: sum, mean, cumsum, and `sum_to` (undoing broadcasting); `reduce_dims` for every
//! reduction.
use super::*;
use crate::backend::{self, ReduceKernel, ScanKernel};
use crate::dtype::DType;
use crate::grads;
use crate::shape::wrap_dim;
use num_complex::Complex64;

/// Sorted, de-duplicated dims to reduce (`None`, or an empty list as in PyTorch, = all).
pub fn reduce_dims(ndim: usize, dims: Option<&[i64]>) -> Result<Vec<usize>> {
    let Some(dims) = dims.filter(|d| !d.is_empty()) else {
        return Ok((0..ndim).collect());
    };
    let mut out = Vec::with_capacity(dims.len());
    for &d in dims {
        let w = wrap_dim(d, ndim)?;
        if out.contains(&w) {
            return Err(Error::Runtime(format!(
                "dim {} appears multiple times in the list of dims",
                w
            )));
        }
        out.push(w);
    }
    out.sort_unstable();
    // A 0-d tensor accepts dim 0 / -1 but has nothing to reduce.
    out.retain(|&d| d < ndim);
    Ok(out)
}

/// A keepdim result without its reduced dims (`rd` sorted), contiguous.
pub(crate) fn drop_reduced_dims(t: &Tensor, rd: &[usize]) -> Result<Tensor> {
    let mut c = t.clone();
    for &d in rd.iter().rev() {
        c = squeeze_dim(&c, d as i64)?;
    }
    backend::contiguous(&c)
}

/// The sum kernel: integer and bool inputs sum to int64.
fn sum_kernel(x: &Tensor, dims: &[usize], keepdim: bool) -> Result<Tensor> {
    backend::reduce(ReduceKernel::Sum, x, dims, keepdim)
}

/// Broadcast a reduced gradient back over the reduced dims. A reduction over all dims (no dim
/// list) expands the 0-d gradient directly, as PyTorch's `sum_backward` (no UnsqueezeBackward0
/// nodes under create_graph).
fn expand_back(g: &Tensor, shape: &[usize], dims: &[usize], keepdim: bool) -> Result<Tensor> {
    let mut g = g.clone();
    if !keepdim {
        for &d in dims {
            g = unsqueeze(&g, d as i64)?;
        }
    }
    expand(&g, shape)
}

/// The dims a reduced gradient gets back by unsqueezing: those listed (none without a list).
fn listed_dims(dims: Option<&[i64]>, rd: Vec<usize>) -> Vec<usize> {
    if dims.is_some_and(|d| !d.is_empty()) {
        rd
    } else {
        Vec::new()
    }
}

/// `sum(dim=None)` is SumBackward0; with dims it is SumBackward1.
pub fn sum(x: &Tensor, dims: Option<&[i64]>, keepdim: bool) -> Result<Tensor> {
    let rd = reduce_dims(x.ndim(), dims)?;
    let out = sum_kernel(x, &rd, keepdim)?;
    if needs_grad(&[x])? {
        let shape = x.shape();
        let rd = listed_dims(dims, rd);
        let name = if dims.is_none() {
            "SumBackward0"
        } else {
            "SumBackward1"
        };
        // d sum(x) = expand(dL)
        record(
            name,
            &[x],
            &[&out],
            vec![],
            Box::new(move |_, g| grads![expand_back(&g[0], &shape, &rd, keepdim)?]),
        )?;
        reduction_attrs(&out, dims, keepdim);
    }
    Ok(out)
}

/// A reduction's `_saved_dim` (the dims as given) and `_saved_keepdim`, for its `dim=` form.
pub(crate) fn reduction_attrs(out: &Tensor, dims: Option<&[i64]>, keepdim: bool) {
    use crate::graph::node::SavedAttr;
    if let Some(d) = dims {
        set_attrs(out, || {
            vec![
                ("dim", SavedAttr::Ints(d.to_vec())),
                ("keepdim", SavedAttr::Bool(keepdim)),
            ]
        });
    }
}

pub fn mean(x: &Tensor, dims: Option<&[i64]>, keepdim: bool) -> Result<Tensor> {
    let dt = x.dtype();
    if !dt.is_differentiable() {
        return Err(Error::NotImplemented(format!(
            "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: {}",
            dt.scalar_type_name()
        )));
    }
    let rd = reduce_dims(x.ndim(), dims)?;
    let shape = x.shape();
    let n: usize = rd.iter().map(|&d| shape[d]).product();
    let on_cpu = !x.is_cuda();
    // float16/bfloat16 on the CPU: summed and divided in float32, rounded once at the end
    // (PyTorch's CPU mean, "for accuracy reasons")
    let half = on_cpu && matches!(dt, DType::Float16 | DType::BFloat16);
    let s = if half {
        sum_kernel(&backend::cast_keep(x, DType::Float32)?, &rd, keepdim)?
    } else {
        sum_kernel(x, &rd, keepdim)?
    };
    // float32/float64 on the CPU: the sum divided by n, as PyTorch's CPU mean
    // (`sum(...).div_(n)`), which rounds differently from a product with 1/n; elsewhere the sum
    // is scaled by 1/n, as PyTorch's other mean kernels
    let wide = if half { DType::Float32 } else { dt };
    let scaled = if on_cpu && matches!(wide, DType::Float32 | DType::Float64) && s.dtype() == wide {
        super::arith::kernel_div_scalar(&s, n as f64)?
    } else {
        super::arith::kernel_mul_scalar(&s, 1.0 / n as f64)?
    };
    let out = backend::cast(&scaled, dt)?;
    let out = if n == 0 {
        // 0 / 0 in each part: x86's default NaN, negative, as PyTorch's result carries
        Tensor::full_on(
            &out.shape(),
            Complex64::new(-f64::NAN, -f64::NAN),
            dt,
            x.device(),
        )?
    } else {
        out
    };
    if needs_grad(&[x])? {
        let rd = listed_dims(dims, rd);
        let name = if dims.is_none() {
            "MeanBackward0"
        } else {
            "MeanBackward1"
        };
        // d mean(x) = expand(dL) / n
        record(
            name,
            &[x],
            &[&out],
            vec![],
            Box::new(move |_, g| {
                grads![div(
                    &expand_back(&g[0], &shape, &rd, keepdim)?,
                    &Tensor::wrapped_scalar(n as f64)
                )?]
            }),
        )?;
        reduction_attrs(&out, dims, keepdim);
    }
    Ok(out)
}

/// Sum `g` down to `shape` (the inverse of broadcasting `shape` to g's shape).
pub fn sum_to(g: &Tensor, shape: &[usize]) -> Result<Tensor> {
    let gs = g.shape();
    if gs.as_slice() == shape {
        return Ok(g.clone());
    }
    if gs.len() < shape.len() {
        return Err(Error::Runtime("sum_to: target has more dims".into()));
    }
    let lead = gs.len() - shape.len();
    let mut dims: Vec<i64> = (0..lead as i64).collect();
    for (i, &s) in shape.iter().enumerate() {
        let gd = gs[lead + i];
        if s == 1 && gd != 1 {
            dims.push((lead + i) as i64);
        } else if s != gd {
            return Err(Error::Runtime(
                "sum_to: shapes are not broadcast-compatible".into(),
            ));
        }
    }
    let r = if dims.is_empty() {
        g.clone()
    } else {
        sum(g, Some(&dims), true)?
    };
    if r.shape().as_slice() == shape {
        Ok(r)
    } else {
        reshape(&r, &shape.iter().map(|&d| d as i64).collect::<Vec<_>>())
    }
}

/// Cumulative sum along `dim` (CumsumBackward0); `reverse` sums from the end, which is its
/// gradient. Integer and bool inputs sum in int64, half types in float32.
pub fn cumsum(x: &Tensor, dim: i64, reverse: bool) -> Result<Tensor> {
    let dt = x.dtype();
    // PyTorch's CPU scan accumulates in acc_type: double for float32 (and complex<double> for
    // complex64), each output rounded once; float for the 16-bit floats
    let work = match dt {
        DType::Float16 | DType::BFloat16 => DType::Float32,
        DType::Float32 if !x.is_cuda() => DType::Float64,
        DType::Complex64 if !x.is_cuda() => DType::Complex128,
        d if !d.is_differentiable() => DType::Int64,
        d => d,
    };
    let shape = x.shape();
    let d = wrap_dim(dim, shape.len())?;
    let c = backend::cast(x, work)?;
    let out = if shape.is_empty() {
        // the running sum of one number is that number (still CumsumBackward0 in PyTorch)
        backend::cast(
            &c,
            if dt.is_differentiable() {
                dt
            } else {
                DType::Int64
            },
        )?
    } else {
        backend::scan(ScanKernel::Sum, &c, d, reverse, false)?
    };
    let out = if dt.is_differentiable() && work != dt {
        backend::cast(&out, dt)?
    } else {
        out
    };
    if needs_grad(&[x])? {
        // d cumsum = the reversed cumulative sum of dL
        record(
            "CumsumBackward0",
            &[x],
            &[&out],
            vec![],
            Box::new(move |_, g| grads![cumsum(&g[0], d as i64, !reverse)?]),
        )?;
        set_attrs(&out, || {
            vec![("dim", crate::graph::node::SavedAttr::Int(dim))]
        });
    }
    Ok(out)
}
