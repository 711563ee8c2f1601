//! Fused host kernels for what transformers and classifiers call every step: softmax and
//! log_softmax along a dim, layer norm over the last dims, GELU (both forms), each forward and
//! backward in one pass over the data with no temporaries (the op path builds the same values
//! from a chain of small ops, each allocating a tensor: that chain stays for other devices and
//! for gradients that must themselves be differentiable). float32 computes in float32 as
//! PyTorch's kernels do, with sums accumulated in float64; layer norm follows PyTorch's own
//! kernel (`layer_norm.rs`).
use super::{alloc_vec, parallel};
use crate::backend::Strided;
use crate::dtype::Element;
use crate::error::Result;

/// The float types these kernels run on.
pub trait Real:
    Element + std::ops::Add<Output = Self> + std::ops::Sub<Output = Self> + std::ops::AddAssign
{
    fn of(v: f64) -> Self;
    fn f64(self) -> f64;
    fn mul(self, o: Self) -> Self;
    fn rexp(self) -> Self;
    fn rln(self) -> Self;
    fn rtanh(self) -> Self;
    /// erf, float32 through float64 as the declared `erf` computes it.
    fn erf_via_f64(self) -> Self;
    fn rmax(self, o: Self) -> Self;
    /// `o` if it is greater, else self (no NaN check: a branch-free max the compiler
    /// vectorises; `lane_max` tracks NaN apart).
    fn pick_max(self, o: Self) -> Self;
    fn isnan(self) -> bool;
    /// Layer norm of rows of `n` elements, PyTorch's kernel (see `layer_norm::forward`).
    fn ln_forward(
        x: &[Self],
        out: &mut [Self],
        n: usize,
        w: Option<&[Self]>,
        b: Option<&[Self]>,
        eps: f64,
    );
    /// Layer norm's gradients (see `layer_norm::backward`).
    #[allow(clippy::type_complexity)]
    fn ln_backward(
        x: &[Self],
        dy: &[Self],
        w: Option<&[Self]>,
        n: usize,
        eps: f64,
        want_wb: bool,
    ) -> Result<(Vec<Self>, Option<(Vec<Self>, Vec<Self>)>)>;
}

macro_rules! impl_real {
    ($T:ty) => {
        impl Real for $T {
            #[inline]
            fn of(v: f64) -> $T {
                v as $T
            }
            #[inline]
            fn f64(self) -> f64 {
                self as f64
            }
            #[inline]
            fn mul(self, o: $T) -> $T {
                self * o
            }
            #[inline]
            fn rexp(self) -> $T {
                super::vmath::VecMath::vexp(self)
            }
            #[inline]
            fn rln(self) -> $T {
                <$T>::ln(self)
            }
            #[inline]
            fn rtanh(self) -> $T {
                super::vmath::VecMath::vtanh(self)
            }
            #[inline]
            fn erf_via_f64(self) -> $T {
                super::vmath::VecMath::verf(self)
            }
            #[inline]
            fn pick_max(self, o: $T) -> $T {
                if o > self {
                    o
                } else {
                    self
                }
            }
            #[inline]
            fn isnan(self) -> bool {
                self.is_nan()
            }
            fn ln_forward(
                x: &[$T],
                out: &mut [$T],
                n: usize,
                w: Option<&[$T]>,
                b: Option<&[$T]>,
                eps: f64,
            ) {
                super::layer_norm::forward(x, out, n, w, b, eps)
            }
            fn ln_backward(
                x: &[$T],
                dy: &[$T],
                w: Option<&[$T]>,
                n: usize,
                eps: f64,
                want_wb: bool,
            ) -> Result<(Vec<$T>, Option<(Vec<$T>, Vec<$T>)>)> {
                super::layer_norm::backward(x, dy, w, n, eps, want_wb)
            }
            /// NaN propagates, as in PyTorch's max reduction.
            #[inline]
            fn rmax(self, o: $T) -> $T {
                if self.is_nan() || o.is_nan() {
                    <$T>::NAN
                } else if o > self {
                    o
                } else {
                    self
                }
            }
        }
    };
}
impl_real!(f32);
impl_real!(f64);

/// Runs `body` with `T` the element type of a float32 or float64 tensor on the host; None for
/// other dtypes and devices (the caller takes the op path).
#[macro_export]
macro_rules! with_host_float {
    ($x:expr, $T:ident, $body:block) => {
        if !$x.storage.is_host() {
            None
        } else {
            match $x.dtype {
                $crate::dtype::DType::Float32 => {
                    type $T = f32;
                    Some($body)
                }
                $crate::dtype::DType::Float64 => {
                    type $T = f64;
                    Some($body)
                }
                _ => None,
            }
        }
    };
}

/// `x`'s elements as a row-major slice: `x` itself when contiguous, else a contiguous copy.
fn dense(x: &Strided) -> Result<Strided> {
    if x.is_contiguous() {
        Ok(x.clone())
    } else {
        x.contiguous()
    }
}

/// `out` ([outer, n, inner] row-major, `outer` blocks of `n * inner`) filled block by block on
/// the worker pool: `f(first_block, blocks)`.
/// Each part runs compiled for AVX2/FMA where the CPU has them (`maps::vectorised`).
fn fill_blocks<T: Element>(
    len: usize,
    block: usize,
    f: impl Fn(usize, &mut [T]) + Sync,
) -> Result<Vec<T>> {
    let mut out: Vec<T> = alloc_vec(len)?;
    out.resize(len, T::default());
    if block == 0 {
        return Ok(out);
    }
    let blocks = len / block;
    let grain = parallel::GRAIN.div_ceil(block).max(1);
    let ptr = out.as_mut_ptr() as usize;
    parallel::parallel_for(blocks, grain, |b0, b1| {
        // SAFETY: blocks [b0, b1) of distinct tasks are disjoint ranges of `out`, alive until
        // parallel_for returns.
        let part = unsafe {
            std::slice::from_raw_parts_mut((ptr as *mut T).add(b0 * block), (b1 - b0) * block)
        };
        super::vectorised(
            #[inline(always)]
            || f(b0, part),
        );
    });
    Ok(out)
}

/// `x` as a float32 slice when T is f32.
#[inline(always)]
fn f32s<T: Element>(x: &[T]) -> Option<&[f32]> {
    // SAFETY: T is f32.
    (T::DTYPE == crate::dtype::DType::Float32)
        .then(|| unsafe { std::slice::from_raw_parts(x.as_ptr() as *const f32, x.len()) })
}

/// [`f32s`], mutable.
#[inline(always)]
fn f32s_mut<T: Element>(x: &mut [T]) -> Option<&mut [f32]> {
    // SAFETY: T is f32.
    (T::DTYPE == crate::dtype::DType::Float32)
        .then(|| unsafe { std::slice::from_raw_parts_mut(x.as_mut_ptr() as *mut f32, x.len()) })
}

/// The [outer, n, inner] view of `shape` around `dim`.
fn around(shape: &[usize], dim: usize) -> (usize, usize, usize) {
    if shape.is_empty() {
        // a 0-d tensor: one row of one element
        return (1, 1, 1);
    }
    (
        shape[..dim].iter().product(),
        shape[dim],
        shape[dim + 1..].iter().product(),
    )
}

/// softmax (or log_softmax with `log`) of a host float tensor along `dim`: a row-major result,
/// or None for other dtypes and devices.
pub fn softmax(x: &Strided, dim: usize, log: bool) -> Result<Option<Strided>> {
    Ok(crate::with_host_float!(x, T, {
        let xd = dense(x)?;
        // SAFETY: T matches the dtype; xd is contiguous.
        let s = unsafe { xd.contiguous_slice::<T>().expect("contiguous") };
        let (outer, n, inner) = around(&x.shape, dim);
        let out = fill_blocks::<T>(
            s.len(),
            n * inner,
            #[inline(always)]
            |b0, part| {
                let xs = &s[b0 * n * inner..b0 * n * inner + part.len()];
                if inner > 1 {
                    if let (Some(xs), Some(part)) = (f32s(xs), f32s_mut(part)) {
                        // PyTorch's float32 kernel along a dim that is not the last
                        let (b, o) = (b0, outer);
                        return super::torch_vec::softmax_inner(xs, part, b, o, n, inner, log);
                    }
                }
                if inner == 1 {
                    if let (Some(xs), Some(part)) = (f32s(xs), f32s_mut(part)) {
                        // PyTorch's float32 kernel, bit for bit
                        return super::torch_vec::softmax_lastdim(xs, part, n, log);
                    }
                    softmax_rows(xs, part, n, log);
                    return;
                }
                for (x, o) in xs.chunks(n * inner).zip(part.chunks_mut(n * inner)) {
                    softmax_block(x, o, inner, log);
                }
            },
        )?;
        Strided::from_vec(out, &x.shape)?
    }))
}

/// `Σ f(a_i, b_i)` over two equal-length slices in float64, over eight independent accumulators
/// (chunks of eight: no bounds checks, so the loop vectorises).
#[inline(always)]
fn zip_sum<A: Copy, B: Copy>(a: &[A], b: &[B], f: impl Fn(A, B) -> f64) -> f64 {
    let mut acc = [0f64; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (xa, xb) in ca.zip(cb) {
        for k in 0..8 {
            acc[k] += f(xa[k], xb[k]);
        }
    }
    for (k, (&x, &y)) in ra.iter().zip(rb).enumerate() {
        acc[k] += f(x, y);
    }
    ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]))
}

/// `Σ f(i)` for i in 0..n in float64, over eight independent accumulators (a single chain of
/// dependent adds would cost the add's latency per element).
#[inline(always)]
fn lane_sum(n: usize, f: impl Fn(usize) -> f64) -> f64 {
    let mut acc = [0f64; 8];
    let full = n / 8 * 8;
    let mut i = 0;
    while i < full {
        for (k, a) in acc.iter_mut().enumerate() {
            *a += f(i + k);
        }
        i += 8;
    }
    for j in full..n {
        acc[j - full] += f(j);
    }
    ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]))
}

/// The largest element of a row (NaN if any is NaN), over eight independent lanes: the
/// maximum and the NaN test without branches, so the loop vectorises.
#[inline(always)]
fn lane_max<T: Real>(x: &[T]) -> T {
    let mut acc = [T::of(f64::NEG_INFINITY); 8];
    let mut nan = [false; 8];
    let chunks = x.chunks_exact(8);
    let rest = chunks.remainder();
    for c in chunks {
        for k in 0..8 {
            nan[k] |= c[k].isnan();
            acc[k] = acc[k].pick_max(c[k]);
        }
    }
    let mut m = acc
        .iter()
        .fold(T::of(f64::NEG_INFINITY), |m, &v| m.pick_max(v));
    let mut any_nan = nan.iter().any(|&b| b);
    for &v in rest {
        any_nan |= v.isnan();
        m = m.pick_max(v);
    }
    if any_nan {
        T::of(f64::NAN)
    } else {
        m
    }
}

/// softmax (or log_softmax) of contiguous rows of `n`: each row's max subtracted, then one
/// exp pass over all the rows (a loop long enough to vectorise, where a row of 16 is not),
/// then each row's sum over eight lanes (`lane_sum`'s order) and its scale.
#[inline(always)]
fn softmax_rows<T: Real>(x: &[T], out: &mut [T], n: usize, log: bool) {
    if n == 0 {
        return;
    }
    for (xr, or) in x.chunks_exact(n).zip(out.chunks_exact_mut(n)) {
        let m = lane_max(xr);
        for (o, &v) in or.iter_mut().zip(xr) {
            *o = v - m;
        }
    }
    if log {
        let e: Vec<T> = out.iter().map(|&v| v.rexp()).collect();
        for (er, or) in e.chunks_exact(n).zip(out.chunks_exact_mut(n)) {
            // (x - max) - log Σ exp(x - max), as PyTorch's kernel
            let ls = T::of(zip_sum(er, er, |v, _| v.f64())).rln();
            for o in or.iter_mut() {
                *o = *o - ls;
            }
        }
        return;
    }
    for o in out.iter_mut() {
        *o = o.rexp();
    }
    for or in out.chunks_exact_mut(n) {
        let r = T::of(1.0 / T::of(zip_sum(or, or, |v, _| v.f64())).f64());
        for o in or.iter_mut() {
            *o = o.mul(r);
        }
    }
}

/// One [n, inner] block of softmax along n (inner > 1).
#[inline(always)]
fn softmax_block<T: Real>(x: &[T], out: &mut [T], inner: usize, log: bool) {
    // along a dim with `inner` elements after it: every column at once, rows in turn
    let mut m = vec![T::of(f64::NEG_INFINITY); inner];
    for row in x.chunks_exact(inner) {
        for (a, &v) in m.iter_mut().zip(row) {
            *a = a.rmax(v);
        }
    }
    let mut sum = vec![0f64; inner];
    for (orow, row) in out.chunks_exact_mut(inner).zip(x.chunks_exact(inner)) {
        for j in 0..inner {
            let e = (row[j] - m[j]).rexp();
            sum[j] += e.f64();
            if !log {
                orow[j] = e;
            }
        }
    }
    if log {
        let ls: Vec<T> = sum.iter().map(|&s| T::of(s).rln()).collect();
        for (orow, row) in out.chunks_exact_mut(inner).zip(x.chunks_exact(inner)) {
            for j in 0..inner {
                orow[j] = (row[j] - m[j]) - ls[j];
            }
        }
    } else {
        let r: Vec<T> = sum.iter().map(|&s| T::of(1.0 / T::of(s).f64())).collect();
        for orow in out.chunks_exact_mut(inner) {
            for (o, &r) in orow.iter_mut().zip(&r) {
                *o = o.mul(r);
            }
        }
    }
}

/// softmax's (or log_softmax's) gradient from its result `y` and the incoming gradient `g`:
/// `y (g - Σ g y)`, or `g - exp(y) Σ g`.
pub fn softmax_backward(
    y: &Strided,
    g: &Strided,
    dim: usize,
    log: bool,
) -> Result<Option<Strided>> {
    if g.dtype != y.dtype || g.shape != y.shape || !g.storage.is_host() {
        return Ok(None);
    }
    Ok(crate::with_host_float!(y, T, {
        let (yd, gd) = (dense(y)?, dense(g)?);
        // SAFETY: T matches both dtypes; both are contiguous.
        let (ys, gs) = unsafe {
            (
                yd.contiguous_slice::<T>().expect("contiguous"),
                gd.contiguous_slice::<T>().expect("contiguous"),
            )
        };
        let (_, n, inner) = around(&y.shape, dim);
        let out = fill_blocks::<T>(
            ys.len(),
            n * inner,
            #[inline(always)]
            |b0, part| {
                if inner == 1 {
                    let (y, g) = (
                        &ys[b0 * n..b0 * n + part.len()],
                        &gs[b0 * n..b0 * n + part.len()],
                    );
                    if let (Some(y), Some(g), Some(o)) = (f32s(y), f32s(g), f32s_mut(part)) {
                        // PyTorch's float32 kernel, bit for bit, over all of this part's rows
                        return super::torch_vec::softmax_backward_lastdim(y, g, o, n, log);
                    }
                }
                for (k, o) in part.chunks_mut(n * inner).enumerate() {
                    let base = (b0 + k) * n * inner;
                    let (y, g) = (&ys[base..base + n * inner], &gs[base..base + n * inner]);
                    if inner == 1 {
                        // a contiguous row: the sum as `lane_sum` adds it, then one pass
                        let acc = if log {
                            zip_sum(g, g, |a, _| a.f64())
                        } else {
                            zip_sum(g, y, |a, b| a.mul(b).f64())
                        };
                        let acc = T::of(acc);
                        for ((o, &yv), &gv) in o.iter_mut().zip(y).zip(g) {
                            *o = if log {
                                gv - yv.rexp().mul(acc)
                            } else {
                                gv.mul(yv) - yv.mul(acc)
                            };
                        }
                        continue;
                    }
                    for j in 0..inner {
                        let acc = if log {
                            lane_sum(n, |i| g[i * inner + j].f64())
                        } else {
                            lane_sum(n, |i| g[i * inner + j].mul(y[i * inner + j]).f64())
                        };
                        let acc = T::of(acc);
                        for i in 0..n {
                            let at = i * inner + j;
                            o[at] = if log {
                                g[at] - y[at].rexp().mul(acc)
                            } else {
                                g[at].mul(y[at]) - y[at].mul(acc)
                            };
                        }
                    }
                }
            },
        )?;
        Strided::from_vec(out, &y.shape)?
    }))
}

/// Layer norm of a host float tensor over rows of its last `n` elements, with the optional
/// weight and bias (n elements each, of x's dtype), as PyTorch's kernel computes it
/// (`layer_norm.rs`). None for other dtypes and devices.
pub fn layer_norm(
    x: &Strided,
    n: usize,
    w: Option<&Strided>,
    b: Option<&Strided>,
    eps: f64,
) -> Result<Option<Strided>> {
    if [w, b]
        .iter()
        .flatten()
        .any(|t| t.dtype != x.dtype || !t.storage.is_host())
    {
        return Ok(None);
    }
    Ok(crate::with_host_float!(x, T, {
        let xd = dense(x)?;
        let (wd, bd) = (w.map(dense).transpose()?, b.map(dense).transpose()?);
        // SAFETY: T matches every dtype (checked above); all are contiguous.
        let (s, ws, bs) = unsafe {
            (
                xd.contiguous_slice::<T>().expect("contiguous"),
                wd.as_ref()
                    .map(|t| t.contiguous_slice::<T>().expect("contiguous")),
                bd.as_ref()
                    .map(|t| t.contiguous_slice::<T>().expect("contiguous")),
            )
        };
        let out = fill_blocks::<T>(
            s.len(),
            n,
            #[inline(always)]
            |r0, part| {
                let rows = &s[r0 * n..r0 * n + part.len()];
                T::ln_forward(rows, part, n, ws, bs, eps);
            },
        )?;
        Strided::from_vec(out, &x.shape)?
    }))
}

/// Layer norm's gradients from its input `x`, weight `w` and the incoming gradient `g`: dx
/// (x's shape), and when asked dw and db (n elements each).
#[allow(clippy::type_complexity)]
pub fn layer_norm_backward(
    x: &Strided,
    n: usize,
    w: Option<&Strided>,
    g: &Strided,
    eps: f64,
    want_wb: bool,
) -> Result<Option<(Strided, Option<(Strided, Strided)>)>> {
    if g.dtype != x.dtype
        || g.shape != x.shape
        || !g.storage.is_host()
        || w.is_some_and(|w| w.dtype != x.dtype || !w.storage.is_host())
    {
        return Ok(None);
    }
    Ok(crate::with_host_float!(x, T, {
        let (xd, gd, wd) = (dense(x)?, dense(g)?, w.map(dense).transpose()?);
        // SAFETY: T matches every dtype (checked above); all are contiguous.
        let (s, gs, ws) = unsafe {
            (
                xd.contiguous_slice::<T>().expect("contiguous"),
                gd.contiguous_slice::<T>().expect("contiguous"),
                wd.as_ref()
                    .map(|t| t.contiguous_slice::<T>().expect("contiguous")),
            )
        };
        let (dx, wb) = T::ln_backward(s, gs, ws, n, eps, want_wb)?;
        let wb = match wb {
            Some((dw, db)) => Some((Strided::from_vec(dw, &[n])?, Strided::from_vec(db, &[n])?)),
            None => None,
        };
        (Strided::from_vec(dx, &x.shape)?, wb)
    }))
}

/// PyTorch runs float32 GELU (`approximate='none'`) of a contiguous CPU tensor of more than one
/// element through oneDNN (`gelu_erf`), whose values `gelu_erf` reproduces; other tensors go
/// through PyTorch's own kernel, which the formulas below follow.
fn onednn_gelu(x: &Strided) -> bool {
    x.dtype == crate::dtype::DType::Float32
        && x.storage.is_host()
        && x.is_contiguous()
        && x.numel() > 1
}

const K_BETA_TANH: f64 = std::f64::consts::SQRT_2 * std::f64::consts::FRAC_2_SQRT_PI * 0.5;
const K_KAPPA: f64 = 0.044715;

/// GELU of a host float tensor (`tanh` for the tanh approximation), PyTorch's scalar formulas
/// in the tensor's dtype; None for other dtypes and devices.
pub fn gelu(x: &Strided, tanh: bool) -> Result<Option<Strided>> {
    if !tanh && onednn_gelu(x) {
        return Ok(Some(if super::gelu_erf::minimax_forward() {
            super::map1::<f32, f32>(x, super::gelu_erf::forward_minimax)?
        } else {
            super::map1::<f32, f32>(x, super::gelu_erf::forward_as)?
        }));
    }
    Ok(crate::with_host_float!(x, T, {
        let (half, one) = (T::of(0.5), T::of(1.0));
        if tanh {
            let (beta, kappa) = (T::of(K_BETA_TANH), T::of(K_KAPPA));
            super::map1::<T, T>(
                x,
                #[inline(always)]
                move |v| {
                    let cube = v.mul(v).mul(v);
                    let inner = beta.mul(v + kappa.mul(cube));
                    half.mul(v).mul(one + inner.rtanh())
                },
            )?
        } else {
            let alpha = T::of(std::f64::consts::FRAC_1_SQRT_2);
            super::map1::<T, T>(
                x,
                #[inline(always)]
                move |v| v.mul(half).mul(one + v.mul(alpha).erf_via_f64()),
            )?
        }
    }))
}

/// GELU's gradient `g · gelu'(x)`, PyTorch's scalar formulas; None for other dtypes, devices
/// or operands of different shapes.
pub fn gelu_backward(x: &Strided, g: &Strided, tanh: bool) -> Result<Option<Strided>> {
    if g.dtype != x.dtype || g.shape != x.shape || !g.storage.is_host() {
        return Ok(None);
    }
    if !tanh && onednn_gelu(x) && g.is_contiguous() {
        let shape = x.shape.clone();
        return Ok(Some(super::map2::<f32, f32, f32>(
            g,
            x,
            &shape,
            #[inline(always)]
            |dy, v| super::gelu_erf::derivative(v) * dy,
        )?));
    }
    Ok(crate::with_host_float!(x, T, {
        let (half, one) = (T::of(0.5), T::of(1.0));
        let shape = x.shape.clone();
        if tanh {
            let (beta, kappa, three) = (T::of(K_BETA_TANH), T::of(K_KAPPA), T::of(3.0));
            super::map2::<T, T, T>(
                g,
                x,
                &shape,
                #[inline(always)]
                move |dy, v| {
                    let x_sq = v.mul(v);
                    let inner = beta.mul(v + kappa.mul(x_sq.mul(v)));
                    let t = inner.rtanh();
                    let left = half.mul(v);
                    let right = one + t;
                    let left_derivative = half.mul(right);
                    let tanh_derivative = one - t.mul(t);
                    let inner_derivative = beta.mul(one + three.mul(kappa).mul(x_sq));
                    let right_derivative = left.mul(tanh_derivative).mul(inner_derivative);
                    dy.mul(left_derivative + right_derivative)
                },
            )?
        } else {
            let alpha = T::of(std::f64::consts::FRAC_1_SQRT_2);
            let beta =
                T::of(std::f64::consts::FRAC_2_SQRT_PI * std::f64::consts::FRAC_1_SQRT_2 * 0.5);
            let m_half = T::of(-0.5);
            super::map2::<T, T, T>(
                g,
                x,
                &shape,
                #[inline(always)]
                move |dy, v| {
                    let cdf = half.mul(one + v.mul(alpha).erf_via_f64());
                    let pdf = beta.mul(v.mul(v).mul(m_half).rexp());
                    dy.mul(cdf + v.mul(pdf))
                },
            )?
        }
    }))
}

/// relu's (and threshold's) gradient: 0 where `x <= threshold`, else `g` (a select: a NaN or
/// infinite `g` there gives 0; a NaN `x` passes `g`, as PyTorch's kernel), in one pass; None for other dtypes, devices or
/// operands of different shapes.
pub fn threshold_backward(x: &Strided, g: &Strided, threshold: f64) -> Result<Option<Strided>> {
    if g.dtype != x.dtype || g.shape != x.shape || !g.storage.is_host() {
        return Ok(None);
    }
    Ok(crate::with_host_float!(x, T, {
        let (thr, zero) = (T::of(threshold), T::of(0.0));
        let shape = x.shape.clone();
        super::map2::<T, T, T>(
            g,
            x,
            &shape,
            #[inline(always)]
            move |dy, v| if v <= thr { zero } else { dy },
        )?
    }))
}
