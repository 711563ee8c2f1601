//! Extremes: max/min over everything or along a dim (values and indices), amax/amin, argmax/
//! argmin. Ties share the gradient as in PyTorch.
use super::index::{take, Plan};
use super::*;
use crate::backend::{self, ArgReduceKernel, ReduceKernel};
use crate::device::Device;
use crate::grads;
use crate::shape::{contiguous_strides, wrap_dim};
use crate::DType;
use std::sync::Arc;

/// max/min over everything (MaxBackward1): the gradient is shared by the tied extremes.
pub fn max_all(x: &Tensor, is_max: bool) -> Result<Tensor> {
    edges_first(&[x])?;
    let dt = x.dtype();
    if x.numel() == 0 {
        return Err(Error::Runtime(format!(
            "{}(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.",
            if is_max { "max" } else { "min" }
        )));
    }
    crate::dtype::shell_kernel_check(dt, if is_max { "max_all" } else { "min_all" })?;
    if dt.is_complex() {
        return Err(Error::NotImplemented(format!(
            "\"{}_all\" not implemented for '{}'",
            if is_max { "max" } else { "min" },
            dt.scalar_type_name()
        )));
    }
    let flat = reshape(&x.detached(), &[-1])?;
    let out = backend::reduce(ReduceKernel::extreme(is_max), &flat, &[0], false)?;
    let out = pytorchs_zero(&flat, out, is_max)?;
    if needs_grad(&[x])? {
        let name = if is_max {
            "MaxBackward1"
        } else {
            "MinBackward1"
        };
        record_evenly_distributed(name, x, &out)?;
    }
    Ok(out)
}

/// `out` (the first extreme of `flat`) as PyTorch's CPU `max()`/`min()` returns it: equal
/// extremes differ only when they are zeros of both signs, and PyTorch keeps the one its vector
/// code's order leaves (`torch_vec::extreme_all_*`).
fn pytorchs_zero(flat: &Tensor, out: Tensor, is_max: bool) -> Result<Tensor> {
    let dt = out.dtype();
    if !matches!(dt, DType::Float32 | DType::Float64) || flat.device() != Device::Cpu {
        return Ok(out);
    }
    let v = out.try_to_vec::<f64>()?[0];
    if v != 0.0 {
        return Ok(out);
    }
    use crate::backend::cpu::torch_vec::{extreme_all_f32, extreme_all_f64};
    let picked = if dt == DType::Float32 {
        f64::from(extreme_all_f32(&flat.try_to_vec::<f32>()?, is_max))
    } else {
        extreme_all_f64(&flat.try_to_vec::<f64>()?, is_max)
    };
    if picked.to_bits() == v.to_bits() {
        return Ok(out);
    }
    Tensor::full_on(
        &[],
        num_complex::Complex64::new(picked, 0.0),
        dt,
        Device::Cpu,
    )
}

/// Record `out`, one value selected from `x` (max, min, median of everything): the gradient
/// is shared by the elements equal to it (saves `self` and `result`).
pub fn record_evenly_distributed(name: &'static str, x: &Tensor, out: &Tensor) -> Result<()> {
    record(
        name,
        &[x],
        &[out],
        vec![save("self", x)?, save_output("result", out, 0)?],
        Box::new(|s, g| {
            grads![evenly_distribute(
                &s[0].detached(),
                &s[1].detached(),
                &g[0]
            )?]
        }),
    )
}

/// The gradient of a reduction to one selected value `v` of `x` (max, min, median): `g` shared
/// evenly by the elements equal to `v` (by the NaNs when `v` is NaN; PyTorch's
/// `evenly_distribute_backward`).
pub fn evenly_distribute(x: &Tensor, v: &Tensor, g: &Tensor) -> Result<Tensor> {
    let nan = |t: &Tensor| compare(CmpOp::Ne, t, t);
    let both_nan = bitwise(BitOp::And, &nan(x)?, &nan(v)?)?;
    let mask = bitwise(BitOp::Or, &compare(CmpOp::Eq, x, v)?, &both_nan)?;
    let count = sum(&backend::cast(&mask, g.dtype())?, None, false)?;
    let zero = Tensor::wrapped_scalar(0.0f64);
    index::where_(&mask, &div(g, &count)?, &zero)
}

/// Index of the extreme along `dim` (or of the flattened tensor).
pub fn argmax(x: &Tensor, dim: Option<i64>, keepdim: bool, is_max: bool) -> Result<Tensor> {
    crate::dtype::shell_kernel_check(x.dtype(), if is_max { "argmax_cpu" } else { "argmin_cpu" })?;
    if x.dtype().is_complex() {
        return Err(Error::Runtime(
            "argmax(): does not support complex input".into(),
        ));
    }
    let (src, d) = match dim {
        None => (reshape(&x.detached(), &[-1])?, 0),
        Some(d) => (x.detached(), wrap_dim(d, x.ndim())?),
    };
    if src.ndim() == 0 {
        return Ok(Tensor::scalar(0i64));
    }
    if src.shape()[d] == 0 {
        let name = if is_max { "argmax" } else { "argmin" };
        return Err(Error::Index(match dim {
            None => {
                format!("{name}(): Expected reduction dim to be specified for input.numel() == 0.")
            }
            Some(_) => format!("{name}(): Expected reduction dim {d} to have non-zero size."),
        }));
    }
    let kernel = if is_max {
        ArgReduceKernel::Max
    } else {
        ArgReduceKernel::Min
    };
    let t = backend::argreduce(kernel, &src, d)?;
    if dim.is_none() {
        return if keepdim {
            reshape(&t, &vec![1; x.ndim()])
        } else {
            reshape(&t, &[])
        };
    }
    if keepdim {
        Ok(t)
    } else {
        squeeze_dim(&t, d as i64)
    }
}

/// For each output position (input shape with `dim` of size 1), the flat input index chosen.
fn dim_plan(shape: &[usize], dim: usize, picked: &[i64]) -> Plan {
    let st = contiguous_strides(shape);
    let mut oshape: Vec<usize> = shape.to_vec();
    oshape[dim] = 1;
    let ost = contiguous_strides(&oshape);
    Arc::new(
        picked
            .iter()
            .enumerate()
            .map(|(flat, &k)| {
                (0..shape.len())
                    .map(|d| {
                        let c = if d == dim {
                            k as usize
                        } else {
                            (flat / ost[d] as usize) % oshape[d]
                        };
                        c * st[d] as usize
                    })
                    .sum()
            })
            .collect(),
    )
}

/// `x.max(dim)` / `x.min(dim)`: (values, indices); values record MaxBackward0/MinBackward0.
pub fn max_dim(x: &Tensor, dim: i64, keepdim: bool, is_max: bool) -> Result<(Tensor, Tensor)> {
    edges_first(&[x])?;
    crate::dtype::shell_kernel_check(x.dtype(), if is_max { "max_cpu" } else { "min_cpu" })?;
    if x.ndim() == 0 {
        wrap_dim(dim, 0)?;
        // A 0-d tensor is its own max/min, recorded under PyTorch's node name.
        let v = backend::contiguous(x)?;
        if needs_grad(&[x])? {
            record(
                if is_max {
                    "MaxBackward0"
                } else {
                    "MinBackward0"
                },
                &[x],
                &[&v],
                vec![held_by_formula("indices")],
                Box::new(|_, g| grads![g[0].clone()]),
            )?;
        }
        return Ok((v, Tensor::scalar(0i64)));
    }
    let d = wrap_dim(dim, x.ndim())?;
    let shape = x.shape();
    if shape[d] == 0 {
        return Err(Error::Index(format!(
            "{}(): Expected reduction dim {} to have non-zero size.",
            if is_max { "max" } else { "min" },
            d
        )));
    }
    if x.dtype().is_complex() {
        return Err(Error::Type(format!(
            "{}(): does not support complex input",
            if is_max { "max" } else { "min" }
        )));
    }
    let idx = argmax(x, Some(d as i64), true, is_max)?;
    let picked = if idx.device().is_meta() {
        vec![0; idx.numel()] // the meta backend reads no plan, only its shape
    } else {
        idx.try_to_vec::<i64>()?
    };
    let plan = dim_plan(&shape, d, &picked);
    let mut vshape = shape.clone();
    if keepdim {
        vshape[d] = 1;
    } else {
        vshape.remove(d);
    }
    let name = if is_max {
        "MaxBackward0"
    } else {
        "MinBackward0"
    };
    let vals = take(x, &plan, &vshape, name)?;
    set_attrs(&vals, || {
        vec![
            ("dim", crate::graph::node::SavedAttr::Int(dim)),
            ("keepdim", crate::graph::node::SavedAttr::Bool(keepdim)),
        ]
    });
    let ishape: Vec<i64> = vshape.iter().map(|&s| s as i64).collect();
    Ok((vals, reshape(&idx, &ishape)?.detached()))
}

/// amax/amin over dims: the gradient is shared evenly among ties (AmaxBackward0).
pub fn amax(x: &Tensor, dims: Option<&[i64]>, keepdim: bool, is_max: bool) -> Result<Tensor> {
    edges_first(&[x])?;
    crate::dtype::shell_kernel_check(
        x.dtype(),
        if is_max {
            "max_values_cpu"
        } else {
            "min_values_cpu"
        },
    )?;
    let rd = reduce_dims(x.ndim(), dims)?;
    let dt = x.dtype();
    let shape = x.shape();
    if let Some(i) = rd.iter().position(|&d| shape[d] == 0) {
        // (PyTorch names the dim as it was given)
        let given = dims
            .and_then(|ds| {
                ds.iter()
                    .find(|&&g| wrap_dim(g, x.ndim()).ok() == Some(rd[i]))
            })
            .map_or(rd[i] as i64, |&g| g);
        return Err(Error::Index(format!(
            "{}(): Expected reduction dim {} to have non-zero size.",
            if is_max { "amax" } else { "amin" },
            given
        )));
    }
    let out = if dt.is_complex() {
        if x.numel() > 0 {
            return Err(Error::NotImplemented(format!(
                "\"{}_values_cpu\" not implemented for '{}'",
                if is_max { "max" } else { "min" },
                dt.scalar_type_name()
            )));
        }
        // (an empty result: no kernel runs, so no dtype error)
        let mut out_shape = shape.to_vec();
        for &d in rd.iter().rev() {
            if keepdim {
                out_shape[d] = 1;
            } else {
                out_shape.remove(d);
            }
        }
        Tensor::zeros_on(&out_shape, dt, x.device())?
    } else {
        backend::reduce(ReduceKernel::extreme(is_max), x, &rd, keepdim)?
    };
    super::complex_autograd_check(if is_max { "amax" } else { "amin" }, &[x], &out)?;
    if needs_grad(&[x])? {
        let (shape, name) = (
            x.shape(),
            if is_max {
                "AmaxBackward0"
            } else {
                "AminBackward0"
            },
        );
        let rd2 = rd.clone();
        record(
            name,
            &[x],
            &[&out],
            vec![save("self", x)?, save_output("result", &out, 0)?],
            Box::new(move |s, g| {
                let mut r = s[1].clone();
                let mut gg = g[0].clone();
                if !keepdim {
                    for &d in &rd2 {
                        r = unsqueeze(&r, d as i64)?;
                        gg = unsqueeze(&gg, d as i64)?;
                    }
                }
                let mask = backend::cast(&compare(CmpOp::Eq, &s[0], &r)?, gg.dtype())?;
                let dims: Vec<i64> = rd2.iter().map(|&d| d as i64).collect();
                let count = sum(&mask, Some(&dims), true)?;
                grads![mul(&expand(&div(&gg, &count)?, &shape)?, &mask)?]
            }),
        )?;
        // (amax() with no dims reduces all: PyTorch's dim is then the empty tuple)
        let given = dims.map_or(Vec::new(), |d| d.to_vec());
        set_attrs(&out, || {
            vec![
                ("dim", crate::graph::node::SavedAttr::Ints(given)),
                ("keepdim", crate::graph::node::SavedAttr::Bool(keepdim)),
            ]
        });
    }
    Ok(out)
}
