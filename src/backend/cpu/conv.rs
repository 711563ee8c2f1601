//! 2-D convolution and max pooling on the host without index plans: each sample's columns
//! (im2col) are built straight from the input into a buffer the GEMM reads, samples split over
//! the worker pool; the gradients fold the columns back (col2im) the same way. The op path
//! (`ops::nn::conv2d`: a gather plan, batched matmul, scatter-add) stays for other devices,
//! dtypes and differentiable gradients.
use super::matmul::Gemm;
use super::{alloc_vec, parallel};
use crate::backend::Strided;
use crate::dtype::{DType, Element};
use crate::error::Result;

/// A convolution's sizes: input [n, c, h, w], weight [o, c/g, kh, kw], output [n, o, ho, wo].
#[derive(Clone, Copy, Debug)]
pub struct ConvGeom {
    pub n: usize,
    pub c: usize,
    pub h: usize,
    pub w: usize,
    pub o: usize,
    pub groups: usize,
    pub kh: usize,
    pub kw: usize,
    pub stride: (usize, usize),
    pub padding: (usize, usize),
    pub dilation: (usize, usize),
    pub ho: usize,
    pub wo: usize,
}

impl ConvGeom {
    /// Columns per group and sample: (c/g·kh·kw, ho·wo).
    fn cols(&self) -> (usize, usize) {
        (self.c / self.groups * self.kh * self.kw, self.ho * self.wo)
    }

    /// The input row read by kernel row `i` at output row `oy`, if inside.
    #[inline(always)]
    fn row(&self, i: usize, oy: usize) -> Option<usize> {
        let y = (oy * self.stride.0 + i * self.dilation.0).checked_sub(self.padding.0)?;
        (y < self.h).then_some(y)
    }

    /// For kernel column `j`: the output columns `lo..hi` that read inside the input, and the
    /// input column `lo` reads (output column `ox` reads `x0 + (ox - lo)·stride`).
    fn span_x(&self, j: usize) -> (usize, usize, usize) {
        let (s, off) = (
            self.stride.1,
            (j * self.dilation.1) as isize - self.padding.1 as isize,
        );
        let lo = if off >= 0 {
            0
        } else {
            (-off as usize).div_ceil(s)
        }
        .min(self.wo);
        let room = self.w as isize - off;
        let hi = if room > 0 {
            (room as usize).div_ceil(s)
        } else {
            0
        }
        .clamp(lo, self.wo);
        let x0 = (lo * s) as isize + off;
        (lo, hi, x0.max(0) as usize)
    }
}

/// The columns of channels `ch0..ch0 + cg` of one sample `x` ([c, h, w]): row (ch, i, j),
/// column (oy, ox) holds x[ch, oy·s + i·d - p, ox·s + j·d - p], zero in the padding.
fn im2col<T: Element>(x: &[T], ch0: usize, geo: &ConvGeom, cols: &mut [T]) {
    let (cg, (kh, kw), (ho, wo)) = (geo.c / geo.groups, (geo.kh, geo.kw), (geo.ho, geo.wo));
    let mut row = 0;
    for ch in ch0..ch0 + cg {
        let plane = &x[ch * geo.h * geo.w..(ch + 1) * geo.h * geo.w];
        for i in 0..kh {
            for j in 0..kw {
                let dst = &mut cols[row * ho * wo..(row + 1) * ho * wo];
                let (lo, hi, x0) = geo.span_x(j);
                for (oy, d) in dst.chunks_exact_mut(wo).enumerate() {
                    let Some(y) = geo.row(i, oy) else {
                        d.fill(T::default());
                        continue;
                    };
                    let src = &plane[y * geo.w..(y + 1) * geo.w];
                    d[..lo].fill(T::default());
                    d[hi..].fill(T::default());
                    if hi == lo {
                    } else if geo.stride.1 == 1 {
                        d[lo..hi].copy_from_slice(&src[x0..x0 + (hi - lo)]);
                    } else {
                        for (k, v) in d[lo..hi].iter_mut().enumerate() {
                            *v = src[x0 + k * geo.stride.1];
                        }
                    }
                }
                row += 1;
            }
        }
    }
}

/// Adds the columns back onto channels `ch0..` of one sample's gradient (col2im, im2col's
/// adjoint).
fn col2im<T: Element + std::ops::AddAssign>(cols: &[T], ch0: usize, geo: &ConvGeom, gx: &mut [T]) {
    let (cg, (kh, kw), (ho, wo)) = (geo.c / geo.groups, (geo.kh, geo.kw), (geo.ho, geo.wo));
    let mut row = 0;
    for ch in ch0..ch0 + cg {
        let plane = &mut gx[ch * geo.h * geo.w..(ch + 1) * geo.h * geo.w];
        for i in 0..kh {
            for j in 0..kw {
                let src = &cols[row * ho * wo..(row + 1) * ho * wo];
                let (lo, hi, x0) = geo.span_x(j);
                for (oy, s) in src.chunks_exact(wo).enumerate() {
                    let Some(y) = geo.row(i, oy) else {
                        continue;
                    };
                    let dst = &mut plane[y * geo.w..(y + 1) * geo.w];
                    for (k, &v) in s[lo..hi].iter().enumerate() {
                        dst[x0 + k * geo.stride.1] += v;
                    }
                }
                row += 1;
            }
        }
    }
}

fn dense(x: &Strided) -> Result<Strided> {
    if x.is_contiguous() {
        Ok(x.clone())
    } else {
        x.contiguous()
    }
}

/// Whether the fused kernels take these operands: float32/float64 on the host, one dtype.
fn takes(ts: &[&Strided]) -> bool {
    let dt = ts[0].dtype;
    matches!(dt, DType::Float32 | DType::Float64)
        && ts.iter().all(|t| t.dtype == dt && t.storage.is_host())
}

/// The convolution of `x` [n, c, h, w] with `w` [o, c/g, kh, kw] (and bias `[o]`): a row-major
/// [n, o, ho, wo]; None where `takes` declines.
pub fn conv2d(
    x: &Strided,
    w: &Strided,
    b: Option<&Strided>,
    geo: &ConvGeom,
) -> Result<Option<Strided>> {
    let mut ops = vec![x, w];
    ops.extend(b);
    if !takes(&ops) {
        return Ok(None);
    }
    Ok(Some(match x.dtype {
        DType::Float32 => conv2d_t::<f32>(x, w, b, geo)?,
        _ => conv2d_t::<f64>(x, w, b, geo)?,
    }))
}

fn conv2d_t<T: Gemm>(
    x: &Strided,
    w: &Strided,
    b: Option<&Strided>,
    geo: &ConvGeom,
) -> Result<Strided> {
    let (xd, wd, bd) = (dense(x)?, dense(w)?, b.map(dense).transpose()?);
    // SAFETY: T matches every dtype (checked by `takes`); all are contiguous.
    let (xs, ws, bs) = unsafe {
        (
            xd.contiguous_slice::<T>().expect("contiguous"),
            wd.contiguous_slice::<T>().expect("contiguous"),
            bd.as_ref()
                .map(|t| t.contiguous_slice::<T>().expect("contiguous")),
        )
    };
    let (kk, l) = geo.cols();
    let (g, og, cg) = (geo.groups, geo.o / geo.groups, geo.c / geo.groups);
    let (sample_in, sample_out) = (geo.c * geo.h * geo.w, geo.o * l);
    let len = geo.n * sample_out;
    let mut out: Vec<T> = alloc_vec(len)?;
    out.resize(len, T::default());
    let grain = (parallel::GRAIN / (kk * l * og).max(1)).max(1);
    parallel::fill_chunks_by(&mut out, sample_out, grain, |first, part| {
        let mut cols = vec![T::default(); kk * l];
        for (k, y) in part.chunks_mut(sample_out).enumerate() {
            let xn = &xs[(first + k) * sample_in..(first + k + 1) * sample_in];
            for gi in 0..g {
                im2col(xn, gi * cg, geo, &mut cols);
                // y[gi·og.., :] = W_g [og, kk] @ cols [kk, l]
                // SAFETY: the slices hold the [og, kk], [kk, l] and [og, l] row-major blocks.
                unsafe {
                    T::gemm(
                        (og, kk, l),
                        (ws[gi * og * kk..].as_ptr(), kk as isize, 1),
                        (cols.as_ptr(), l as isize, 1),
                        T::default(),
                        (y[gi * og * l..].as_mut_ptr(), l as isize, 1),
                    );
                }
            }
            if let Some(bs) = bs {
                for (oc, plane) in y.chunks_mut(l).enumerate() {
                    for v in plane {
                        *v += bs[oc];
                    }
                }
            }
        }
    });
    Strided::from_vec(out, &[geo.n, geo.o, geo.ho, geo.wo])
}

/// The convolution's gradients from `gy` [n, o, ho, wo]: for the input (when `need_x`), the
/// weight (`need_w`) and the bias (`need_b`); None where `takes` declines.
#[allow(clippy::type_complexity)]
pub fn conv2d_backward(
    x: &Strided,
    w: &Strided,
    gy: &Strided,
    geo: &ConvGeom,
    need: (bool, bool, bool),
) -> Result<Option<(Option<Strided>, Option<Strided>, Option<Strided>)>> {
    if !takes(&[x, w, gy]) {
        return Ok(None);
    }
    Ok(Some(match x.dtype {
        DType::Float32 => conv2d_backward_t::<f32>(x, w, gy, geo, need)?,
        _ => conv2d_backward_t::<f64>(x, w, gy, geo, need)?,
    }))
}

#[allow(clippy::type_complexity)]
fn conv2d_backward_t<T: Gemm>(
    x: &Strided,
    w: &Strided,
    gy: &Strided,
    geo: &ConvGeom,
    (need_x, need_w, need_b): (bool, bool, bool),
) -> Result<(Option<Strided>, Option<Strided>, Option<Strided>)> {
    let (xd, wd, gd) = (dense(x)?, dense(w)?, dense(gy)?);
    // SAFETY: T matches every dtype (checked by `takes`); all are contiguous.
    let (xs, ws, gs) = unsafe {
        (
            xd.contiguous_slice::<T>().expect("contiguous"),
            wd.contiguous_slice::<T>().expect("contiguous"),
            gd.contiguous_slice::<T>().expect("contiguous"),
        )
    };
    let (kk, l) = geo.cols();
    let (g, og, cg) = (geo.groups, geo.o / geo.groups, geo.c / geo.groups);
    let (sample_in, sample_out) = (geo.c * geo.h * geo.w, geo.o * l);
    let grain = (parallel::GRAIN / (kk * l * og).max(1)).max(1);
    let gx = if need_x {
        let len = geo.n * sample_in;
        let mut gx: Vec<T> = alloc_vec(len)?;
        gx.resize(len, T::default());
        parallel::fill_chunks_by(&mut gx, sample_in, grain, |first, part| {
            let mut gcols = vec![T::default(); kk * l];
            for (k, gxn) in part.chunks_mut(sample_in).enumerate() {
                let gyn = &gs[(first + k) * sample_out..(first + k + 1) * sample_out];
                for gi in 0..g {
                    // gcols [kk, l] = W_gᵀ [kk, og] @ gy_g [og, l]
                    // SAFETY: as in the forward pass; Wᵀ is W read with swapped strides.
                    unsafe {
                        T::gemm(
                            (kk, og, l),
                            (ws[gi * og * kk..].as_ptr(), 1, kk as isize),
                            (gyn[gi * og * l..].as_ptr(), l as isize, 1),
                            T::default(),
                            (gcols.as_mut_ptr(), l as isize, 1),
                        );
                    }
                    col2im(&gcols, gi * cg, geo, gxn);
                }
            }
        });
        Some(Strided::from_vec(gx, &[geo.n, geo.c, geo.h, geo.w])?)
    } else {
        None
    };
    let gw = if need_w {
        // Σₙ gy_g [og, l] @ cols_gᵀ [l, kk], each part of the batch into its own sum
        let parts = parallel::map_reduce(geo.n, grain, |n0, n1| {
            let mut acc = vec![T::default(); geo.o * kk];
            let mut cols = vec![T::default(); kk * l];
            for nn in n0..n1 {
                let xn = &xs[nn * sample_in..(nn + 1) * sample_in];
                let gyn = &gs[nn * sample_out..(nn + 1) * sample_out];
                for gi in 0..g {
                    im2col(xn, gi * cg, geo, &mut cols);
                    // SAFETY: [og, l] @ [l, kk] (cols read transposed) into [og, kk].
                    unsafe {
                        T::gemm(
                            (og, l, kk),
                            (gyn[gi * og * l..].as_ptr(), l as isize, 1),
                            (cols.as_ptr(), 1, l as isize),
                            <T as Element>::from_f64(1.0),
                            (acc[gi * og * kk..].as_mut_ptr(), kk as isize, 1),
                        );
                    }
                }
            }
            acc
        });
        let mut parts = parts.into_iter();
        let mut acc = parts.next().unwrap_or_default();
        for p in parts {
            for (a, v) in acc.iter_mut().zip(p) {
                *a += v;
            }
        }
        Some(Strided::from_vec(acc, &[geo.o, cg, geo.kh, geo.kw])?)
    } else {
        None
    };
    let gb = if need_b {
        let mut acc = vec![0f64; geo.o];
        for gyn in gs.chunks_exact(sample_out) {
            for (a, plane) in acc.iter_mut().zip(gyn.chunks_exact(l)) {
                *a += plane.iter().map(|v| v.to_f64()).sum::<f64>();
            }
        }
        Some(Strided::from_vec(
            acc.into_iter()
                .map(<T as Element>::from_f64)
                .collect::<Vec<T>>(),
            &[geo.o],
        )?)
    } else {
        None
    };
    Ok((gx, gw, gb))
}

/// A max pooling's window: kernel, stride, padding and dilation (rows, columns), and the output
/// size.
#[derive(Clone, Copy, Debug)]
pub struct PoolGeom {
    pub kernel: (usize, usize),
    pub stride: (usize, usize),
    pub padding: (usize, usize),
    pub dilation: (usize, usize),
    pub ho: usize,
    pub wo: usize,
}

/// A value as an integer that orders as the value does (-0 equal to +0), and whether it is
/// NaN: max-pool's window search compares these, which the compiler turns into conditional
/// moves, where comparing floats it branched (and on real activations the predictor misses
/// about half of those data-dependent branches).
trait PoolKey: Copy {
    fn key(self) -> (i64, bool);
}

macro_rules! pool_key_int {
    ($($t:ty),*) => {$(
        impl PoolKey for $t {
            #[inline(always)]
            fn key(self) -> (i64, bool) {
                (self as i64, false)
            }
        }
    )*};
}
pool_key_int!(bool, u8, i8, i16, i32, i64, u16, u32);

impl PoolKey for u64 {
    #[inline(always)]
    fn key(self) -> (i64, bool) {
        ((self ^ (1 << 63)) as i64, false)
    }
}

impl PoolKey for f64 {
    #[inline(always)]
    fn key(self) -> (i64, bool) {
        let b = self.to_bits() as i64;
        let k = b ^ ((b >> 63) & i64::MAX);
        (if self == 0.0 { 0 } else { k }, self.is_nan())
    }
}

impl PoolKey for f32 {
    #[inline(always)]
    fn key(self) -> (i64, bool) {
        let b = self.to_bits() as i32;
        let k = b ^ ((b >> 31) & i32::MAX);
        (if self == 0.0 { 0 } else { k as i64 }, self.is_nan())
    }
}

impl PoolKey for half::f16 {
    #[inline(always)]
    fn key(self) -> (i64, bool) {
        self.to_f32().key()
    }
}

impl PoolKey for half::bf16 {
    #[inline(always)]
    fn key(self) -> (i64, bool) {
        self.to_f32().key()
    }
}

/// The offset in `plane` (rows of `w`) of the maximum over rows `ys` × columns `xs`: the first
/// maximum in PyTorch's order (`v > best || isnan(v)`: a NaN wins over numbers, a later NaN
/// over an earlier one); 0 for an empty window.
#[inline(always)]
fn window_argmax<T: PoolKey>(plane: &[T], w: usize, ys: &[usize], xs: &[usize]) -> usize {
    let (Some(&y0), Some(&x0)) = (ys.first(), xs.first()) else {
        return 0;
    };
    let (mut best, (mut bk, mut bnan)) = (y0 * w + x0, plane[y0 * w + x0].key());
    for &y in ys {
        let row = &plane[y * w..(y + 1) * w];
        for &xx in xs {
            let (k, nan) = row[xx].key();
            let take = ((k > bk) & !bnan) | nan;
            // (select_unpredictable: LLVM turns a plain `if` back into a branch)
            best = std::hint::select_unpredictable(take, y * w + xx, best);
            bk = std::hint::select_unpredictable(take, k, bk);
            bnan |= nan;
        }
    }
    best
}

/// For each output of a 2-D max pooling of `x` [n, c, h, w] (host, real dtype), the flat
/// row-major index into `x` of its window's maximum: PyTorch's choice (a later element replaces
/// the best when larger, or when it is NaN). None for other devices and dtypes.
pub fn max_pool_plan(x: &Strided, geo: &PoolGeom) -> Result<Option<Vec<usize>>> {
    if !x.storage.is_host() || x.dtype.is_complex() || x.dtype == DType::Bool {
        return Ok(None);
    }
    let xd = dense(x)?;
    let (nc, h, w) = (x.shape[0] * x.shape[1], x.shape[2], x.shape[3]);
    let l = geo.ho * geo.wo;
    let mut plan: Vec<usize> = alloc_vec(nc * l)?;
    plan.resize(nc * l, 0);
    crate::with_real!(x.dtype, T, {
        // SAFETY: T matches the dtype; xd is contiguous.
        let xs = unsafe { xd.contiguous_slice::<T>().expect("contiguous") };
        let grain = (parallel::GRAIN / (l * geo.kernel.0 * geo.kernel.1).max(1)).max(1);
        // the input rows and columns each output row and column reads, once
        let taps =
            |o: usize, k: usize, s: usize, d: usize, p: usize, n: usize| -> Vec<Vec<usize>> {
                (0..o)
                    .map(|q| {
                        (0..k)
                            .filter_map(|i| (q * s + i * d).checked_sub(p).filter(|&y| y < n))
                            .collect()
                    })
                    .collect()
            };
        let rows = taps(
            geo.ho,
            geo.kernel.0,
            geo.stride.0,
            geo.dilation.0,
            geo.padding.0,
            h,
        );
        let cols = taps(
            geo.wo,
            geo.kernel.1,
            geo.stride.1,
            geo.dilation.1,
            geo.padding.1,
            w,
        );
        parallel::fill_chunks_by(&mut plan, l, grain, |first, part| {
            for (k, out) in part.chunks_mut(l).enumerate() {
                let base = (first + k) * h * w;
                let plane = &xs[base..base + h * w];
                for (oy, ys) in rows.iter().enumerate() {
                    for (ox, xs_) in cols.iter().enumerate() {
                        out[oy * geo.wo + ox] = base + window_argmax(plane, w, ys, xs_);
                    }
                }
            }
        });
        Ok(Some(plan))
    })
}
