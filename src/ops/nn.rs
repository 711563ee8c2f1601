//! Neural-network ops with nodes of their own: softmax/log_softmax, conv2d (im2col +
//! GEMM), max/avg pooling, embedding (the normalisations are in `norm`). Backward formulas are written with ops
//! (take/put_add/matmul/...), so second derivatives work through them too.
use super::index::{put_add, take, Plan};
use super::*;
use crate::backend;
use crate::dtype::DType;
use crate::grad_mode::GradModeGuard;
use crate::grads;
use crate::shape::{contiguous_strides, fmt_shape, wrap_dim};
use std::sync::Arc;

fn floating(x: &Tensor) -> Result<Tensor> {
    if x.dtype().is_differentiable() {
        Ok(x.clone())
    } else {
        backend::cast(x, DType::Float32)
    }
}

/// softmax along `dim` (SoftmaxBackward0).
/// softmax/log_softmax of an integer or bool tensor: PyTorch has no kernel (pass dtype=).
fn softmax_dtype_check(x: &Tensor, dim: i64, kind: &str) -> Result<()> {
    let dt = x.dtype();
    // (an empty tensor of any dtype comes back as it is: no kernel runs)
    if (!dt.is_differentiable() || dt.is_complex()) && x.numel() > 0 {
        let last = wrap_dim(dim, x.ndim())? + 1 >= x.ndim();
        return Err(Error::NotImplemented(format!(
            "\"{kind}{}_kernel_impl\" not implemented for '{}'",
            if last { "_lastdim" } else { "" },
            dt.scalar_type_name()
        )));
    }
    Ok(())
}

pub fn softmax(x: &Tensor, dim: i64) -> Result<Tensor> {
    softmax_dtype_check(x, dim, "softmax")?;
    // computed row-major: PyTorch's softmax kernels return a contiguous result
    let xf = floating(x)?;
    let d = wrap_dim(dim, x.ndim())? as i64;
    let out = if xf.numel() == 0 {
        backend::contiguous(x)?
    } else if let Some(y) = fused_softmax(&xf, d as usize, false)? {
        y
    } else {
        let xf = backend::contiguous(&xf)?;
        let _g = GradModeGuard::new(false);
        let m = amax(&xf, Some(&[d]), true, true)?;
        let e = exp(&sub(&xf, &m)?)?;
        div(&e, &sum(&e, Some(&[d]), true)?)?
    };
    let out = out.detached();
    super::complex_autograd_check("_softmax", &[x], &out)?;
    if needs_grad(&[x])? {
        // dx = y ⊙ (g - Σ g⊙y)
        record(
            "SoftmaxBackward0",
            &[x],
            &[&out],
            vec![save_output("result", &out, 0)?],
            Box::new(move |s, g| {
                let y = &s[0];
                if let Some(dx) = fused_softmax_backward(y, &g[0], d as usize, false)? {
                    return grads![dx];
                }
                let gy = mul(&g[0], y)?;
                grads![sub(&gy, &mul(y, &sum(&gy, Some(&[d]), true)?)?)?]
            }),
        )?;
        set_attrs(&out, || {
            vec![("dim", crate::graph::node::SavedAttr::Int(dim))]
        });
    }
    Ok(out)
}

/// log_softmax along `dim` (LogSoftmaxBackward0).
pub fn log_softmax(x: &Tensor, dim: i64) -> Result<Tensor> {
    softmax_dtype_check(x, dim, "log_softmax")?;
    // computed row-major: PyTorch's softmax kernels return a contiguous result
    let xf = floating(x)?;
    let d = wrap_dim(dim, x.ndim())? as i64;
    let out = if xf.numel() == 0 {
        backend::contiguous(x)?
    } else {
        // PyTorch's kernel: (x - max) - log Σ exp(x - max), with the max unmasked (an
        // infinite max makes the row NaN, as there)
        if let Some(y) = fused_softmax(&xf, d as usize, true)? {
            return finish_log_softmax(x, y, d, dim);
        }
        let xf = backend::contiguous(&xf)?;
        let _g = GradModeGuard::new(false);
        let shifted = sub(&xf, &amax(&xf, Some(&[d]), true, true)?)?;
        sub(&shifted, &log(&sum(&exp(&shifted)?, Some(&[d]), true)?)?)?
    };
    finish_log_softmax(x, out, d, dim)
}

/// log_softmax's result `out` of `x`, with its node recorded.
fn finish_log_softmax(x: &Tensor, out: Tensor, d: i64, dim: i64) -> Result<Tensor> {
    let out = out.detached();
    super::complex_autograd_check("_log_softmax", &[x], &out)?;
    if needs_grad(&[x])? {
        // dx = g - exp(y) Σ g
        record(
            "LogSoftmaxBackward0",
            &[x],
            &[&out],
            vec![save_output("result", &out, 0)?],
            Box::new(move |s, g| {
                if let Some(dx) = fused_softmax_backward(&s[0], &g[0], d as usize, true)? {
                    return grads![dx];
                }
                grads![sub(
                    &g[0],
                    &mul(&exp(&s[0])?, &sum(&g[0], Some(&[d]), true)?)?
                )?]
            }),
        )?;
        set_attrs(&out, || {
            vec![("dim", crate::graph::node::SavedAttr::Int(dim))]
        });
    }
    Ok(out)
}

/// The fused host kernel of softmax / log_softmax (None: take the op path).
fn fused_softmax(x: &Tensor, dim: usize, log: bool) -> Result<Option<Tensor>> {
    Ok(backend::cpu::rows::softmax(&x.strided(), dim, log)?.map(Tensor::from_strided))
}

/// The fused host kernel of their gradients, when the gradient need not be differentiable
/// (grad mode is off in a backward pass without create_graph).
fn fused_softmax_backward(y: &Tensor, g: &Tensor, dim: usize, log: bool) -> Result<Option<Tensor>> {
    if crate::grad_mode::is_grad_enabled() {
        return Ok(None);
    }
    Ok(
        backend::cpu::rows::softmax_backward(&y.strided(), &g.strided(), dim, log)?
            .map(Tensor::from_strided),
    )
}

/// `x` padded with zeros by (ph, pw) on the last two dims (a differentiable embed).
fn pad2d(x: &Tensor, ph: usize, pw: usize) -> Result<Tensor> {
    if ph == 0 && pw == 0 {
        return Ok(x.clone());
    }
    let s = x.shape();
    let mut ps = s.clone();
    let nd = s.len();
    ps[nd - 2] += 2 * ph;
    ps[nd - 1] += 2 * pw;
    let st = contiguous_strides(&ps);
    let region = Region {
        shape: s.clone(),
        strides: st.clone(),
        offset: ph * st[nd - 2] as usize + pw * st[nd - 1] as usize,
    };
    embed(x, &ps, &region)
}

/// The inverse of `pad2d`: the middle of the last two dims.
fn unpad2d(x: &Tensor, ph: usize, pw: usize) -> Result<Tensor> {
    if ph == 0 && pw == 0 {
        return Ok(x.clone());
    }
    let s = x.shape();
    let nd = s.len();
    let (h, w) = ((s[nd - 2] - 2 * ph) as i64, (s[nd - 1] - 2 * pw) as i64);
    let r = slice(x, -2, Some(ph as i64), Some(ph as i64 + h), 1)?;
    slice(&r, -1, Some(pw as i64), Some(pw as i64 + w), 1)
}

#[derive(Clone, Copy)]
pub struct Conv2dArgs {
    pub stride: (usize, usize),
    pub padding: (usize, usize),
    pub dilation: (usize, usize),
    pub groups: usize,
}

/// im2col plan over a padded `[N, C, Hp, Wp]` input: cols `[N, C·kh·kw, Ho·Wo]`.
#[allow(clippy::too_many_arguments)]
fn im2col_plan(
    n: usize,
    c: usize,
    hp: usize,
    wp: usize,
    kh: usize,
    kw: usize,
    ho: usize,
    wo: usize,
    a: &Conv2dArgs,
) -> Plan {
    let mut plan = Vec::with_capacity(n * c * kh * kw * ho * wo);
    for b in 0..n {
        for ch in 0..c {
            for i in 0..kh {
                for j in 0..kw {
                    for oy in 0..ho {
                        let y = oy * a.stride.0 + i * a.dilation.0;
                        let row = ((b * c + ch) * hp + y) * wp;
                        for ox in 0..wo {
                            plan.push(row + ox * a.stride.1 + j * a.dilation.1);
                        }
                    }
                }
            }
        }
    }
    Arc::new(plan)
}

fn out_size(inp: usize, k: usize, s: usize, p: usize, d: usize) -> Option<usize> {
    let eff = d * (k - 1) + 1;
    (inp + 2 * p).checked_sub(eff).map(|v| v / s + 1)
}

/// 2-D convolution (ConvolutionBackward0), as im2col + batched GEMM.
pub fn conv2d(x: &Tensor, w: &Tensor, b: Option<&Tensor>, a: &Conv2dArgs) -> Result<Tensor> {
    if x.device() != w.device() {
        return Err(crate::device::arg_mismatch(
            "convolution",
            "weight",
            w.device(),
            x.device(),
        ));
    }
    let (xs, ws) = (x.shape(), w.shape());
    if ws.len() != 4 {
        return Err(Error::Runtime(
            "weight should have at least three dimensions".to_string(),
        ));
    }
    let unbatched = xs.len() == 3;
    if xs.len() != 4 && !unbatched {
        return Err(Error::Runtime(format!(
            "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: {}",
            fmt_shape(&xs)
        )));
    }
    let x4 = if unbatched {
        unsqueeze(x, 0)?
    } else {
        x.clone()
    };
    let s = x4.shape();
    let (n, c, h, wd) = (s[0], s[1], s[2], s[3]);
    let (o, cg, kh, kw) = (ws[0], ws[1], ws[2], ws[3]);
    let g = a.groups;
    if g == 0 || c != cg * g || o % g != 0 {
        return Err(Error::Runtime(format!(
            "Given groups={}, weight of size {}, expected input{} to have {} channels, but got {} channels instead",
            g,
            fmt_shape(&ws),
            fmt_shape(&s),
            cg * g,
            c
        )));
    }
    if x.dtype() != w.dtype() {
        return Err(Error::Runtime(format!(
            "Input type ({}) and weight type ({}) should be the same",
            x.dtype().legacy_type_name(),
            w.dtype().legacy_type_name()
        )));
    }
    let (Some(ho), Some(wo)) = (
        out_size(h, kh, a.stride.0, a.padding.0, a.dilation.0),
        out_size(wd, kw, a.stride.1, a.padding.1, a.dilation.1),
    ) else {
        return Err(Error::Runtime(format!(
            "Calculated padded input size per channel: ({} x {}). Kernel size: ({} x {}). Kernel size can't be greater than actual input size",
            h + 2 * a.padding.0,
            wd + 2 * a.padding.1,
            kh,
            kw
        )));
    };
    let (hp, wp) = (h + 2 * a.padding.0, wd + 2 * a.padding.1);
    // the gather plan of the op path, built on first use (the fused host kernels need none)
    let plan = {
        let cell = Arc::new(std::sync::OnceLock::<Plan>::new());
        let args = Conv2dArgs {
            stride: a.stride,
            padding: a.padding,
            dilation: a.dilation,
            groups: a.groups,
        };
        move || -> Plan {
            cell.get_or_init(|| im2col_plan(n, c, hp, wp, kh, kw, ho, wo, &args))
                .clone()
        }
    };
    let (l, kk) = (ho * wo, cg * kh * kw);
    let pad = a.padding;
    let i64s = |v: &[usize]| v.iter().map(|&d| d as i64).collect::<Vec<_>>();
    // y = W·cols(x) per group: the weight [g, O/g, K] times the columns [N, g, K, L]
    // On a GPU the plan is built there by a kernel (and kept per geometry), not on the host.
    let geom = backend::cuda::Im2col {
        n,
        c,
        hp,
        wp,
        kh,
        kw,
        ho,
        wo,
        stride: a.stride,
        dilation: a.dilation,
    };
    let cols = {
        let plan = plan.clone();
        move |x4: &Tensor| -> Result<Tensor> {
            let xp = pad2d(x4, pad.0, pad.1)?;
            let shape = [n, c * kh * kw, l];
            let c = if xp.is_cuda() {
                let idx = backend::cuda::im2col_index(&geom, xp.device())?;
                take_idx(&xp, &idx, &shape, "Im2ColBackward0")?
            } else {
                take(&xp, &plan(), &shape, "Im2ColBackward0")?
            };
            reshape(&c, &i64s(&[n, g, kk, l]))
        }
    };
    let geo = backend::cpu::conv::ConvGeom {
        n,
        c,
        h,
        w: wd,
        o,
        groups: g,
        kh,
        kw,
        stride: a.stride,
        padding: a.padding,
        dilation: a.dilation,
        ho,
        wo,
    };
    let fused = backend::cpu::conv::conv2d(
        &x4.strided(),
        &w.strided(),
        b.map(|b| b.strided()).as_ref(),
        &geo,
    )?;
    let out = if let Some(y) = fused {
        Tensor::from_strided(y)
    } else {
        let _g = GradModeGuard::new(false);
        let wg = reshape(w, &i64s(&[g, o / g, kk]))?;
        let mut y = reshape(&matmul(&wg, &cols(&x4)?)?, &i64s(&[n, o, ho, wo]))?;
        if let Some(b) = b {
            y = add(&y, &reshape(b, &[1, o as i64, 1, 1])?)?;
        }
        backend::contiguous(&y)?
    };
    let out = out.detached();
    let mut inputs: Vec<&Tensor> = vec![&x4, w];
    if let Some(b) = b {
        inputs.push(b);
    }
    if needs_grad(&inputs)? {
        let (has_bias, need_x, need_w) = (b.is_some(), needs_formula(&x4), needs_formula(w));
        let ws = w.shape();
        record(
            "ConvolutionBackward0",
            &inputs,
            &[&out],
            vec![save("input", &x4)?, save("weight", w)?],
            Box::new(move |s, gr| {
                // y is linear in x and in w: dx = fold(Wᵀ·dy), dW = Σₙ dy·cols(x)ᵀ, written
                // with ops so that create_graph differentiates them again.
                let (x, w) = (&s[0], &s[1]);
                if !crate::grad_mode::is_grad_enabled() {
                    let fused = backend::cpu::conv::conv2d_backward(
                        &x.strided(),
                        &w.strided(),
                        &gr[0].strided(),
                        &geo,
                        (need_x, need_w, has_bias),
                    )?;
                    if let Some((gx, gw, gb)) = fused {
                        let mut out =
                            vec![gx.map(Tensor::from_strided), gw.map(Tensor::from_strided)];
                        if has_bias {
                            out.push(gb.map(Tensor::from_strided));
                        }
                        return Ok(out);
                    }
                }
                let gy = reshape(&gr[0], &i64s(&[n, g, o / g, l]))?;
                let gx = if need_x {
                    let wg = reshape(w, &i64s(&[g, o / g, kk]))?;
                    let gcols = matmul(&transpose(&wg, 1, 2)?, &gy)?;
                    let gcols = reshape(&gcols, &i64s(&[n, c * kh * kw, l]))?;
                    let gxp = if gcols.is_cuda() {
                        let idx = backend::cuda::im2col_index(&geom, gcols.device())?;
                        put_add_idx(&[n, c, hp, wp], &idx, &gcols)?
                    } else {
                        put_add(&[n, c, hp, wp], &plan(), &gcols)?
                    };
                    Some(unpad2d(&gxp, pad.0, pad.1)?)
                } else {
                    None
                };
                let gw = if need_w {
                    let gw = matmul(&gy, &transpose(&cols(x)?, 2, 3)?)?;
                    Some(reshape(&sum(&gw, Some(&[0]), false)?, &i64s(&ws))?)
                } else {
                    None
                };
                let mut out = vec![gx, gw];
                if has_bias {
                    out.push(Some(sum(&gr[0], Some(&[0, 2, 3]), false)?));
                }
                Ok(out)
            }),
        )?;
    }
    if unbatched {
        squeeze_dim(&out, 0)
    } else {
        Ok(out)
    }
}

pub struct PoolArgs {
    pub kernel: (usize, usize),
    pub stride: (usize, usize),
    pub padding: (usize, usize),
    pub dilation: (usize, usize),
    pub ceil_mode: bool,
    /// avg_pool2d: whether the zero padding counts in each window's divisor.
    pub count_include_pad: bool,
    /// avg_pool2d: one divisor for every window.
    pub divisor_override: Option<i64>,
}

/// PyTorch's pooling_output_shape: floor division of a span that may be negative, and in
/// ceil mode no window that starts in the padding past the end.
fn pool_size(inp: usize, k: usize, s: usize, p: usize, d: usize, ceil: bool) -> i64 {
    let (inp, k, s, p, d) = (inp as i64, k as i64, s as i64, p as i64, d as i64);
    let span = inp + 2 * p - d * (k - 1) - 1 + if ceil { s - 1 } else { 0 };
    let mut o = span.div_euclid(s) + 1;
    if ceil && (o - 1) * s >= inp + p {
        o -= 1;
    }
    o
}

/// The output height and width of a 2-D pooling of `c` planes of `h`×`w`, refused as PyTorch
/// refuses an empty one (its message names the whole shapes).
fn pool_out2(
    c: usize,
    h: usize,
    w: usize,
    a: &PoolArgs,
    dilation: (usize, usize),
) -> Result<(usize, usize)> {
    let ho = pool_size(
        h,
        a.kernel.0,
        a.stride.0,
        a.padding.0,
        dilation.0,
        a.ceil_mode,
    );
    let wo = pool_size(
        w,
        a.kernel.1,
        a.stride.1,
        a.padding.1,
        dilation.1,
        a.ceil_mode,
    );
    if ho < 1 || wo < 1 {
        return Err(Error::Runtime(format!(
            "Given input size: ({c}x{h}x{w}). Calculated output size: ({c}x{ho}x{wo}). Output size is too small"
        )));
    }
    Ok((ho as usize, wo as usize))
}

fn pool_check(x: &Tensor, a: &PoolArgs) -> Result<(Tensor, bool)> {
    if a.padding.0 * 2 > a.kernel.0 || a.padding.1 * 2 > a.kernel.1 {
        return Err(Error::Runtime(format!(
            "pad should be at most half of effective kernel size, but got pad={}, kernel_size={} and dilation={}",
            a.padding.0, a.kernel.0, a.dilation.0
        )));
    }
    match x.ndim() {
        3 => Ok((unsqueeze(x, 0)?, true)),
        4 => Ok((x.clone(), false)),
        _ => Err(Error::Runtime(format!(
            "non-empty 3D or 4D (batch mode) tensor expected for input, but got: {}",
            fmt_shape(&x.shape())
        ))),
    }
}

/// 2-D max pooling (MaxPool2DWithIndicesBackward0): each output reads its window's maximum.
pub fn max_pool2d(x: &Tensor, a: &PoolArgs) -> Result<Tensor> {
    let (x4, unbatched) = pool_check(x, a)?;
    let s = x4.shape();
    let (n, c, h, w) = (s[0], s[1], s[2], s[3]);
    let (ho, wo) = pool_out2(c, h, w, a, a.dilation)?;
    let pool = backend::cpu::conv::PoolGeom {
        kernel: a.kernel,
        stride: a.stride,
        padding: a.padding,
        dilation: a.dilation,
        ho,
        wo,
    };
    if x4.is_cuda() {
        // the window maxima found on the device (float types)
        let win = backend::cuda::PoolWindows {
            h,
            w,
            ho,
            wo,
            kernel: a.kernel,
            stride: a.stride,
            padding: a.padding,
            dilation: a.dilation,
        };
        if let Some(idx) = backend::cuda::max_pool_index(&x4.strided(), &win)? {
            let out = take_idx(&x4, &idx, &[n, c, ho, wo], "MaxPool2DWithIndicesBackward0")?;
            return if unbatched {
                squeeze_dim(&out, 0)
            } else {
                Ok(out)
            };
        }
    }
    let plan = match backend::cpu::conv::max_pool_plan(&x4.strided(), &pool)? {
        Some(plan) => plan,
        None => max_pool_plan_any(&x4, a, (ho, wo))?,
    };
    let out = take(
        &x4,
        &Arc::new(plan),
        &[n, c, ho, wo],
        "MaxPool2DWithIndicesBackward0",
    )?;
    if unbatched {
        squeeze_dim(&out, 0)
    } else {
        Ok(out)
    }
}

/// [`max_pool2d`]'s plan for a tensor on any device (read through the host as float64).
fn max_pool_plan_any(x4: &Tensor, a: &PoolArgs, (ho, wo): (usize, usize)) -> Result<Vec<usize>> {
    let s = x4.shape();
    let (n, c, h, w) = (s[0], s[1], s[2], s[3]);
    let v = backend::contiguous(x4)?.try_to_vec::<f64>()?;
    let mut plan = Vec::with_capacity(n * c * ho * wo);
    for nc in 0..n * c {
        for oy in 0..ho {
            for ox in 0..wo {
                let mut best: Option<(usize, f64)> = None;
                for i in 0..a.kernel.0 {
                    let y = (oy * a.stride.0 + i * a.dilation.0) as isize - a.padding.0 as isize;
                    if y < 0 || y >= h as isize {
                        continue;
                    }
                    for j in 0..a.kernel.1 {
                        let xx =
                            (ox * a.stride.1 + j * a.dilation.1) as isize - a.padding.1 as isize;
                        if xx < 0 || xx >= w as isize {
                            continue;
                        }
                        let idx = nc * h * w + y as usize * w + xx as usize;
                        let val = v[idx];
                        if best.is_none_or(|(_, b)| val > b || val.is_nan()) {
                            best = Some((idx, val));
                        }
                    }
                }
                plan.push(best.map(|(i, _)| i).unwrap_or(nc * h * w));
            }
        }
    }
    Ok(plan)
}

/// 2-D average pooling, padding counted in the divisor (AvgPool2DBackward0).
pub fn avg_pool2d(x: &Tensor, a: &PoolArgs) -> Result<Tensor> {
    let (x4, unbatched) = pool_check(x, a)?;
    if a.divisor_override == Some(0) {
        return Err(Error::Runtime("divisor must be not zero".into()));
    }
    let s = x4.shape();
    let (n, c, h, w) = (s[0], s[1], s[2], s[3]);
    let (ho, wo) = pool_out2(c, h, w, a, (1, 1))?;
    let conv = Conv2dArgs {
        stride: a.stride,
        padding: a.padding,
        dilation: (1, 1),
        groups: 1,
    };
    let pad = a.padding;
    // with ceil_mode the last window may reach past the padding: zeros there too, which no
    // divisor counts
    let hp = (h + 2 * pad.0).max((ho - 1) * a.stride.0 + a.kernel.0);
    let wp = (w + 2 * pad.1).max((wo - 1) * a.stride.1 + a.kernel.1);
    let k = a.kernel.0 * a.kernel.1;
    let plan = im2col_plan(n * c, 1, hp, wp, a.kernel.0, a.kernel.1, ho, wo, &conv);
    let divisors = backend::to_device(
        &backend::cast(
            &Tensor::from_vec(pool_divisors(a, h, w, ho, wo), &[1, 1, ho * wo])?,
            x4.dtype(),
        )?,
        x4.device(),
    )?;
    let out = {
        let _g = GradModeGuard::new(false);
        let xp = embed_at(&x4, hp, wp, pad)?;
        let cols = take(&xp, &plan, &[n * c, k, ho * wo], "Im2ColBackward0")?;
        let m = div(&sum(&cols, Some(&[1]), true)?, &divisors)?;
        reshape(&m, &[n as i64, c as i64, ho as i64, wo as i64])?.detached()
    };
    if needs_grad(&[&x4])? {
        record(
            "AvgPool2DBackward0",
            &[&x4],
            &[&out],
            vec![save("self", &x4)?],
            Box::new(move |_, g| {
                // each window's mean hands dy / divisor to each of its k elements
                let gm = reshape(&g[0], &[(n * c) as i64, 1, (ho * wo) as i64])?;
                let gcols = expand(&div(&gm, &divisors)?, &[n * c, k, ho * wo])?;
                let gxp = put_add(&[n, c, hp, wp], &plan, &gcols)?;
                let rows = slice(&gxp, 2, Some(pad.0 as i64), Some((pad.0 + h) as i64), 1)?;
                grads![slice(
                    &rows,
                    3,
                    Some(pad.1 as i64),
                    Some((pad.1 + w) as i64),
                    1
                )?]
            }),
        )?;
    }
    if unbatched {
        squeeze_dim(&out, 0)
    } else {
        Ok(out)
    }
}

/// PyTorch's avg_pool2d divisor of each output window: `divisor_override`, else the window's
/// size within the padded input (count_include_pad) or within the input itself.
fn pool_divisors(a: &PoolArgs, h: usize, w: usize, ho: usize, wo: usize) -> Vec<f64> {
    let span = |o: usize, k: usize, s: usize, p: usize, len: usize| {
        let start = (o * s) as isize - p as isize;
        let end = (start + k as isize).min((len + p) as isize);
        let padded = end - start;
        let inside = end.min(len as isize) - start.max(0);
        (padded, inside)
    };
    let mut out = Vec::with_capacity(ho * wo);
    for oy in 0..ho {
        let (ph, ih) = span(oy, a.kernel.0, a.stride.0, a.padding.0, h);
        for ox in 0..wo {
            let (pw, iw) = span(ox, a.kernel.1, a.stride.1, a.padding.1, w);
            out.push(match a.divisor_override {
                Some(d) => d as f64,
                None if a.count_include_pad => (ph * pw) as f64,
                None => (ih * iw) as f64,
            });
        }
    }
    out
}

/// `x` (N, C, H, W) placed at rows `pad.0..`, columns `pad.1..` of zeros of size (hp, wp).
fn embed_at(x: &Tensor, hp: usize, wp: usize, pad: (usize, usize)) -> Result<Tensor> {
    let s = x.shape();
    if (hp, wp) == (s[2], s[3]) {
        return Ok(x.clone());
    }
    let ps = vec![s[0], s[1], hp, wp];
    let st = contiguous_strides(&ps);
    let region = Region {
        shape: s.clone(),
        strides: st.clone(),
        offset: pad.0 * st[2] as usize + pad.1 * st[3] as usize,
    };
    embed(x, &ps, &region)
}

/// Rows of `weight` picked by `indices` (EmbeddingBackward0).
pub fn embedding(weight: &Tensor, indices: &Tensor) -> Result<Tensor> {
    let ws = weight.shape();
    if ws.len() != 2 {
        return Err(Error::Runtime("'weight' must be 2-D".into()));
    }
    if !matches!(indices.dtype(), DType::Int64 | DType::Int32) {
        return Err(Error::Runtime(format!(
            "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got {} instead (while checking arguments for embedding)",
            indices.dtype().legacy_type_name()
        )));
    }
    let iv = indices.try_to_vec::<i64>()?;
    let d = ws[1];
    let mut plan = Vec::with_capacity(iv.len() * d);
    for &i in &iv {
        if i < 0 || i as usize >= ws[0] {
            return Err(Error::Index("index out of range in self".into()));
        }
        plan.extend((0..d).map(|j| i as usize * d + j));
    }
    let mut shape = indices.shape();
    shape.push(d);
    take(weight, &Arc::new(plan), &shape, "EmbeddingBackward0")
}
