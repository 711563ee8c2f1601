//! PyTorch's CPU vector code for float32, reproduced where its results depend on it:
//! `at::vec`'s reductions (`reduce_all`, `map_reduce_all`: lane-wise accumulators of the
//! vector width, then a shuffle tree), the split of an elementwise loop between its vector
//! body and its scalar tail (`vectorized_loop`), and the kernels built on them: softmax and
//! log_softmax along the last dim with their gradients (`SoftMaxKernel.cpp`), and sigmoid.
//! With SLEEF's exp and log (`sleef.rs`) these give PyTorch's bits.
//!
//! The vector width is PyTorch's on the same CPU: 16 floats where it runs its AVX-512 kernels
//! (AVX-512 F/VL/DQ/BW), else 8 (AVX2). Each function runs inside `maps::vectorised`.
use super::{alloc_vec, layout, maps, parallel, sleef};
use crate::backend::kernel::FloatUnary;
use crate::backend::Strided;
use crate::dtype::DType;
use crate::error::Result;
use crate::shape::MultiIndex;

/// PyTorch's `Vectorized<float>::size()` on this CPU.
pub(crate) fn lanes() -> usize {
    if maps::wide_simd() {
        16
    } else {
        8
    }
}

/// Runs `f::<16>` or `f::<8>` by [`lanes`], compiled for the CPU's vector units.
macro_rules! by_lanes {
    ($f:ident ( $($a:expr),* )) => {
        maps::vectorised(
            #[inline(always)]
            || if lanes() == 16 { $f::<16>($($a),*) } else { $f::<8>($($a),*) },
        )
    };
}

/// `vec_reduce_all`'s shuffle tree: lane i combined with lane i ^ k for k = W/2, ..., 1;
/// lane 0 at the end. Only the lanes below k feed lane 0, and for them i ^ k = i + k.
#[inline(always)]
fn tree<const W: usize>(mut v: [f32; W], op: impl Fn(f32, f32) -> f32) -> f32 {
    // constant bounds: the steps unroll and the lanes stay in registers
    debug_assert!(W == 8 || W == 16);
    if W == 16 {
        for i in 0..8 {
            v[i] = op(v[i], v[i + 8]);
        }
    }
    for i in 0..4 {
        v[i] = op(v[i], v[i + 4]);
    }
    for i in 0..2 {
        v[i] = op(v[i], v[i + 2]);
    }
    op(v[0], v[1])
}

/// `map_reduce_all(map, op, x)` over a non-empty row: rows shorter than W fold in order;
/// longer ones keep W accumulators (the tail into the first lanes), then [`tree`].
#[inline(always)]
fn map_reduce<const W: usize>(
    x: &[f32],
    map: impl Fn(f32) -> f32,
    op: impl Fn(f32, f32) -> f32 + Copy,
) -> f32 {
    // plain loops only: a helper the compiler does not inline (`array::from_fn`, `fold`)
    // would compile `map` without the vector units, its multiply-adds as library calls
    if x.len() < W {
        let mut a = map(x[0]);
        for &v in &x[1..] {
            a = op(a, map(v));
        }
        return a;
    }
    let (head, rest) = x.split_at(W);
    let head: &[f32; W] = head.try_into().expect("W elements");
    let mut acc = [0f32; W];
    for k in 0..W {
        acc[k] = map(head[k]);
    }
    let mut chunks = rest.chunks_exact(W);
    for c in &mut chunks {
        let c: &[f32; W] = c.try_into().expect("W elements");
        for k in 0..W {
            acc[k] = op(acc[k], map(c[k]));
        }
    }
    for (a, &v) in acc.iter_mut().zip(chunks.remainder()) {
        *a = op(*a, map(v));
    }
    tree(acc, op)
}

/// `map2_reduce_all(x * y, +)`: [`map_reduce`] of the products, the tail's multiply and add
/// fused when `fused_tail`.
#[inline(always)]
fn dot<const W: usize>(x: &[f32], y: &[f32], fused_tail: bool) -> f32 {
    let n = x.len().min(y.len());
    let (x, y) = (&x[..n], &y[..n]);
    if n < W {
        let mut a = x[0] * y[0];
        for i in 1..n {
            a += x[i] * y[i];
        }
        return a;
    }
    let (xh, xr) = x.split_at(W);
    let (yh, yr) = y.split_at(W);
    let (xh, yh): (&[f32; W], &[f32; W]) = (xh.try_into().expect("W"), yh.try_into().expect("W"));
    let mut acc = [0f32; W];
    for k in 0..W {
        acc[k] = xh[k] * yh[k];
    }
    let (mut xc, mut yc) = (xr.chunks_exact(W), yr.chunks_exact(W));
    for (a, b) in (&mut xc).zip(&mut yc) {
        let (a, b): (&[f32; W], &[f32; W]) = (a.try_into().expect("W"), b.try_into().expect("W"));
        for k in 0..W {
            acc[k] += a[k] * b[k];
        }
    }
    let tail = acc
        .iter_mut()
        .zip(xc.remainder().iter().zip(yc.remainder()));
    for (a, (&u, &v)) in tail {
        *a = if fused_tail {
            u.mul_add(v, *a)
        } else {
            *a + u * v
        };
    }
    tree(acc, |a, b| a + b)
}

/// `vec::maximum`: NaN if either is NaN, with all bits set as its mask makes it (a row's NaN
/// max passes that pattern on to `x - max`).
#[inline(always)]
fn maximum(a: f32, b: f32) -> f32 {
    // selects without branches, so the lanes' loop vectorises
    let m = if b > a { b } else { a };
    if a.is_nan() | b.is_nan() {
        f32::from_bits(u32::MAX)
    } else {
        m
    }
}

/// softmax (or log_softmax) of contiguous float32 rows of `n`, as `_vec_softmax_lastdim` and
/// `_vec_log_softmax_lastdim`.
pub fn softmax_lastdim(x: &[f32], out: &mut [f32], n: usize, log: bool) {
    by_lanes!(softmax_rows(x, out, n, log))
}

#[inline(always)]
fn softmax_rows<const W: usize>(x: &[f32], out: &mut [f32], n: usize, log: bool) {
    if n == 0 {
        return;
    }
    if n >= 128 {
        // long rows: every pass over a row while it is in L1
        for (x, o) in x.chunks_exact(n).zip(out.chunks_exact_mut(n)) {
            let m = map_reduce::<W>(x, |v| v, maximum);
            if log {
                let ls = sleef::log(map_reduce::<W>(x, |v| sleef::exp(v - m), |a, b| a + b));
                for (o, &v) in o.iter_mut().zip(x) {
                    *o = (v - m) - ls;
                }
            } else {
                for (o, &v) in o.iter_mut().zip(x) {
                    *o = sleef::exp(v - m);
                }
                let r = 1.0 / map_reduce::<W>(o, |v| v, |a, b| a + b);
                for o in o.iter_mut() {
                    *o *= r;
                }
            }
        }
        return;
    }
    // short rows: each row's x - max first, then one exp pass over all the rows (a loop long
    // enough to vectorise well, where a row of 16 is not), then each row's sum and scale
    for (x, o) in x.chunks_exact(n).zip(out.chunks_exact_mut(n)) {
        let m = map_reduce::<W>(x, |v| v, maximum);
        for (o, &v) in o.iter_mut().zip(x) {
            *o = v - m;
        }
    }
    if log {
        // (x - max) - log Σ exp(x - max), the log in SLEEF's vector form
        for o in out.chunks_exact_mut(n) {
            let ls = sleef::log(map_reduce::<W>(o, sleef::exp, |a, b| a + b));
            for o in o.iter_mut() {
                *o -= ls;
            }
        }
        return;
    }
    for o in out.iter_mut() {
        *o = sleef::exp(*o);
    }
    for o in out.chunks_exact_mut(n) {
        let r = 1.0 / map_reduce::<W>(o, |v| v, |a, b| a + b);
        for o in o.iter_mut() {
            *o *= r;
        }
    }
}

/// softmax (or log_softmax) of float32 blocks `[n, inner]` (a dim with `inner` > 1 elements
/// after it), block `b0` first of `outer`, as `_vec_softmax` and `_vec_logsoftmax`: each
/// column reduced in order down the dim, W columns at a time with SLEEF's exp, the others
/// (which columns: as those kernels split them) with the C library's expf; softmax divides by
/// the sum, log_softmax subtracts SLEEF's log of it.
pub fn softmax_inner(
    x: &[f32],
    out: &mut [f32],
    b0: usize,
    outer: usize,
    n: usize,
    inner: usize,
    log: bool,
) {
    let w = lanes();
    let total = outer * inner;
    // softmax: TensorIterator-like split of the outer * inner columns over threads, then runs
    // of W columns within a row and a thread's part; log_softmax: chunks of each row's columns
    // (PyTorch 2.15 splits softmax's columns over every thread however few there are: its
    // results for 17 columns differ between 1 and 2 threads; a grain of 1 reproduces them)
    let chunk = {
        let threads = parallel::num_threads();
        if total > 1 && threads > 1 {
            total.div_ceil(threads.min(total))
        } else {
            total.max(1)
        }
    };
    let log_chunk = ((128 * 1024 / n.max(1) / 4).max(w) / w * w).max(1);
    let vector_column = |b: usize, j: usize| {
        if log {
            let start = j / log_chunk * log_chunk;
            let size = log_chunk.min(inner - start);
            return j - start < size - size % w;
        }
        let p = b * inner + j;
        let (c0, r0) = (p / chunk * chunk, b * inner);
        let (s, e) = (c0.max(r0), (c0 + chunk).min(r0 + inner).min(total));
        p - s < (e - s) / w * w
    };
    maps::vectorised(
        #[inline(always)]
        || {
            let mut m = vec![0f32; inner];
            let mut sum = vec![0f32; inner];
            let mut vecs = vec![false; inner];
            let blocks = x
                .chunks_exact(n * inner)
                .zip(out.chunks_exact_mut(n * inner));
            for (k, (x, o)) in blocks.enumerate() {
                for (j, v) in vecs.iter_mut().enumerate() {
                    *v = vector_column(b0 + k, j);
                }
                // the max down each column: log_softmax's skips NaN (a `>` blend from -inf),
                // softmax's vector lanes propagate it, its scalar columns keep a leading NaN
                if log {
                    m.fill(f32::NEG_INFINITY);
                    for row in x.chunks_exact(inner) {
                        for (m, &v) in m.iter_mut().zip(row) {
                            *m = if v > *m { v } else { *m };
                        }
                    }
                } else {
                    m.copy_from_slice(&x[..inner]);
                    for row in x.chunks_exact(inner).skip(1) {
                        for ((m, &v), &vec) in m.iter_mut().zip(row).zip(&vecs) {
                            *m = if vec {
                                maximum(*m, v)
                            } else if *m < v {
                                v
                            } else {
                                *m
                            };
                        }
                    }
                }
                sum.fill(0.0);
                for (xr, or) in x.chunks_exact(inner).zip(o.chunks_exact_mut(inner)) {
                    for j in 0..inner {
                        let d = xr[j] - m[j];
                        let e = if vecs[j] { sleef::exp(d) } else { d.exp() };
                        sum[j] += e;
                        if !log {
                            or[j] = e;
                        }
                    }
                }
                if log {
                    for s in sum.iter_mut() {
                        *s = sleef::log(*s);
                    }
                    for (xr, or) in x.chunks_exact(inner).zip(o.chunks_exact_mut(inner)) {
                        for j in 0..inner {
                            or[j] = (xr[j] - m[j]) - sum[j];
                        }
                    }
                } else {
                    for or in o.chunks_exact_mut(inner) {
                        for (o, &s) in or.iter_mut().zip(&sum) {
                            *o /= s;
                        }
                    }
                }
            }
        },
    )
}

/// The gradient of softmax (or log_softmax) along contiguous rows of `n` from the result `y`
/// and the incoming gradient `g`, as `_vec_host_softmax_backward_lastdim`: `(g - Σ g y) y`,
/// or `g - exp(y) Σ g` (that multiply and subtract fused, as PyTorch's compiled kernel has them).
pub fn softmax_backward_lastdim(y: &[f32], g: &[f32], out: &mut [f32], n: usize, log: bool) {
    by_lanes!(softmax_backward_rows(y, g, out, n, log))
}

#[inline(always)]
fn softmax_backward_rows<const W: usize>(
    y: &[f32],
    g: &[f32],
    out: &mut [f32],
    n: usize,
    log: bool,
) {
    if n == 0 {
        return;
    }
    // PyTorch's build fuses the multiply and add of the sum's tail into one FMA in the copy of
    // this loop that runs when one thread is set, and not in the other (measured: rows of 17
    // and 33 floats differ between 1 and 2 threads there, and match this)
    let fused_tail = parallel::num_threads() == 1;
    let rows = y.chunks_exact(n).zip(g.chunks_exact(n));
    for ((y, g), o) in rows.zip(out.chunks_exact_mut(n)) {
        if log {
            let s = map_reduce::<W>(g, |v| v, |a, b| a + b);
            for ((o, &yv), &gv) in o.iter_mut().zip(y).zip(g) {
                *o = (-sleef::exp(yv)).mul_add(s, gv);
            }
        } else {
            let s = dot::<W>(g, y, fused_tail);
            for ((o, &yv), &gv) in o.iter_mut().zip(y).zip(g) {
                *o = (gv - s) * yv;
            }
        }
    }
}

/// The float32 kernel of a declared op whose PyTorch vector body computes differently from
/// its scalar tail, or None for the others.
pub fn float_unary(op: FloatUnary, x: &Strided) -> Result<Option<Strided>> {
    if x.dtype() != DType::Float32 || !x.storage.is_host() {
        return Ok(None);
    }
    Ok(match op {
        // vector: SLEEF's exp and a reciprocal; scalar: the C library's expf
        FloatUnary::Sigmoid => Some(map1_split(
            x,
            #[inline(always)]
            |v| 1.0 / (sleef::exp(0.0 - v) + 1.0),
            #[inline(always)]
            |v| 1.0 / (1.0 + (-v).exp()),
        )?),
        _ => None,
    })
}

/// The length of the parts a TensorIterator loop over `n` elements is split into: one per
/// thread above a grain (`at::parallel_for`), else all of it.
pub(crate) fn torch_chunk(n: usize) -> usize {
    let threads = parallel::num_threads();
    if n <= parallel::GRAIN || threads <= 1 {
        return n.max(1);
    }
    n.div_ceil(threads.min(n.div_ceil(parallel::GRAIN)))
}

/// Elementwise `vec_f` or `scalar_f` of a float32 tensor, each element by the one PyTorch
/// applies to it: `vectorized_loop` runs the vector body over whole blocks of two vectors
/// from the start of each contiguous row segment of each thread's part, and the scalar
/// function over the rest; rows that are not contiguous run the scalar function throughout.
/// The result is laid out as `map1` lays it out.
fn map1_split(
    x: &Strided,
    vec_f: impl Fn(f32) -> f32 + Sync,
    scalar_f: impl Fn(f32) -> f32 + Sync,
) -> Result<Strided> {
    if x.is_contiguous() {
        return split_rowmajor(x, &vec_f, &scalar_f);
    }
    match layout::result_strides(&x.shape, &[(&x.shape, &x.strides)]) {
        None => split_rowmajor(x, &vec_f, &scalar_f),
        Some(st) => layout::run_with_strides(&x.shape.clone(), &st, &[x], |ins, _| {
            split_rowmajor(&ins[0], &vec_f, &scalar_f)
        }),
    }
}

/// [`map1_split`] with a row-major result.
fn split_rowmajor(
    x: &Strided,
    vec_f: &(impl Fn(f32) -> f32 + Sync),
    scalar_f: &(impl Fn(f32) -> f32 + Sync),
) -> Result<Strided> {
    let n = x.numel();
    let block = 2 * lanes();
    let chunk = torch_chunk(n);
    // the length of the contiguous rows the loop walks (0: the inner stride is not 1)
    let row = contiguous_row(&x.shape, &x.strides);
    let mut out: Vec<f32> = alloc_vec(n)?;
    // is the element at row-major position p in a vector block?
    let in_block = |p: usize| {
        let Some(rows_before) = p.checked_div(row) else {
            return false;
        };
        let (c0, r0) = (p / chunk * chunk, rows_before * row);
        let (s, e) = (c0.max(r0), (c0 + chunk).min(r0 + row).min(n));
        p - s < (e - s) / block * block
    };
    // SAFETY: the dtype is float32.
    unsafe {
        if let Some(s) = x.contiguous_slice::<f32>() {
            out.set_len(n);
            let fill = |start: usize, part: &mut [f32]| {
                maps::vectorised(
                    #[inline(always)]
                    || {
                        // runs of elements on one side of a block boundary, each a loop of
                        // its own function (inlined, so the vector body vectorises)
                        let mut p = start;
                        let end = start + part.len();
                        while p < end {
                            let c0 = p / chunk * chunk;
                            let c1 = (c0 + chunk).min(n);
                            let body = c0 + (c1 - c0) / block * block;
                            let stop = if p < body { body.min(end) } else { c1.min(end) };
                            let (o, x) = (&mut part[p - start..stop - start], &s[p..stop]);
                            if p < body {
                                for (o, &v) in o.iter_mut().zip(x) {
                                    *o = vec_f(v);
                                }
                            } else {
                                for (o, &v) in o.iter_mut().zip(x) {
                                    *o = scalar_f(v);
                                }
                            }
                            p = stop;
                        }
                    },
                )
            };
            parallel::fill_chunks(&mut out, parallel::GRAIN, fill);
        } else {
            let src = x.storage.slice::<f32>();
            let mut it = MultiIndex::new(&x.shape, [x.strides.clone()], [x.offset as isize]);
            let mut p = 0;
            maps::vectorised(
                #[inline(always)]
                || {
                    while let Some([o]) = it.next_offsets() {
                        let v = src[o as usize];
                        out.push(if in_block(p) { vec_f(v) } else { scalar_f(v) });
                        p += 1;
                    }
                },
            );
        }
    }
    Strided::from_vec(out, &x.shape)
}

/// The length of the innermost run of `shape` that TensorIterator coalesces into one row with
/// a unit (or zero) stride, or 0 when the innermost stride is another.
fn contiguous_row(shape: &[usize], strides: &[isize]) -> usize {
    let dims: Vec<(usize, isize)> = shape
        .iter()
        .zip(strides)
        .filter(|(&s, _)| s != 1)
        .map(|(&s, &st)| (s, st))
        .collect();
    let Some(&(len, st)) = dims.last() else {
        return 1;
    };
    if st != 1 && st != 0 {
        return 0;
    }
    let mut row = len;
    let mut inner = (len, st);
    for &(s, st) in dims.iter().rev().skip(1) {
        if st != inner.1 * inner.0 as isize {
            break;
        }
        row *= s;
        inner = (s, st);
    }
    row
}

/// PyTorch's `max()` / `min()` of a whole float32 tensor (its row-major values): see
/// `extreme_all`. Its `min_all`/`max_all` kernels are not registered for AVX-512, so they
/// run 256-bit vectors (8 floats, 4 doubles) on every x86 CPU.
pub fn extreme_all_f32(x: &[f32], max: bool) -> f32 {
    extreme_all(x, max, 8, true)
}

/// PyTorch's `max()` / `min()` of a whole float64 tensor: see [`extreme_all_f32`].
pub fn extreme_all_f64(x: &[f64], max: bool) -> f64 {
    extreme_all(x, max, 4, false)
}

/// `reduce_all_kernel` with `max_impl`/`maximum` (or min) over non-empty values without NaN:
/// equal extremes of different bits (0.0 and -0.0) are told apart only by which one it keeps.
/// Each thread's part (above the grain) goes through `vec::reduce_all`, whose vector op keeps
/// the second operand on a tie (`_mm512_max_ps`): rows shorter than `w` fold in order, longer
/// ones keep `w` lane accumulators (the tail into the first lanes), then the lanes combine
/// (float: the shuffle tree; double: lane 0 with each other lane in order). The parts then
/// combine in order by `std::max`/`std::min`, which keep the first on a tie.
fn extreme_all<T: Copy + PartialOrd>(x: &[T], max: bool, w: usize, tree: bool) -> T {
    let better = |a: T, b: T| if max { a > b } else { a < b };
    let vop = |a: T, b: T| if better(a, b) { a } else { b };
    let part = |p: &[T]| -> T {
        if p.len() < w {
            return p[1..].iter().fold(p[0], |a, &v| vop(a, v));
        }
        let mut acc = p[..w].to_vec();
        let full = p.len() - p.len() % w;
        for c in p[w..full].chunks_exact(w) {
            for (a, &v) in acc.iter_mut().zip(c) {
                *a = vop(*a, v);
            }
        }
        for (a, &v) in acc.iter_mut().zip(&p[full..]) {
            *a = vop(*a, v);
        }
        if !tree {
            return acc[1..].iter().fold(acc[0], |a, &v| vop(a, v));
        }
        let mut k = w / 2;
        while k >= 1 {
            for i in 0..k {
                acc[i] = vop(acc[i], acc[i + k]);
            }
            k /= 2;
        }
        acc[0]
    };
    let mut parts = x.chunks(torch_chunk(x.len())).map(part);
    let first = parts.next().expect("a non-empty tensor");
    parts.fold(first, |a, b| if better(b, a) { b } else { a })
}

/// `maximum`/`minimum` of contiguous operands of one shape keep PyTorch's zero where the two are
/// 0.0 and -0.0: its loop (256-bit vectors: `w` lanes) takes blocks of two vectors from the
/// start of each thread's part through `vec::maximum`, which keeps the second operand on a tie,
/// and the rest through `std::max`, which keeps the first.
///
/// # Safety
/// `a`, `b` and `out` are host tensors of `T` laid out row-major, `out` of their shape and
/// written by no one else.
pub unsafe fn zero_ties<T: crate::dtype::Element + PartialEq + Default>(
    a: &Strided,
    b: &Strided,
    out: &Strided,
    w: usize,
) {
    let (Some(xa), Some(xb)) = (a.contiguous_slice::<T>(), b.contiguous_slice::<T>()) else {
        return;
    };
    let n = xa.len().min(xb.len());
    let zero = T::default();
    let sign = |v: T| v.to_f64().is_sign_negative();
    let o = &mut out.storage.slice_mut::<T>()[out.offset..];
    let chunk = torch_chunk(n);
    for i in 0..n.min(o.len()) {
        let (x, y) = (xa[i], xb[i]);
        if x == zero && y == zero && sign(x) != sign(y) {
            let part = (i / chunk) * chunk;
            let len = chunk.min(n - part);
            let body = part + len / (2 * w) * (2 * w);
            o[i] = if i < body { y } else { x };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tree_pairs_lanes_as_the_shuffles_do() {
        // lane sums in a tree: ((0+8)+(4+12)) + ((2+10)+(6+14)) + ...
        let v: [f32; 16] = std::array::from_fn(|i| i as f32);
        assert_eq!(tree(v, |a, b| a + b), 120.0);
        // rows shorter than the width fold in order; longer ones keep W lanes
        assert_eq!(
            map_reduce::<8>(&[1e8f32, 1.0, -1e8], |v| v, |a, b| a + b),
            0.0
        );
        let x: Vec<f32> = (0..20).map(|i| if i == 0 { 1e8 } else { 1.0 }).collect();
        // lane 0 holds 1e8 + 1 + 1 (rounds to 1e8); the other lanes keep their ones
        assert_eq!(map_reduce::<8>(&x, |v| v, |a, b| a + b), 1e8 + 16.0);
    }

    #[test]
    fn rows_coalesce_over_contiguous_dims_only() {
        assert_eq!(contiguous_row(&[2, 6, 8], &[96, 8, 1]), 48);
        assert_eq!(contiguous_row(&[4, 6], &[12, 1]), 6);
        assert_eq!(contiguous_row(&[4, 6], &[1, 4]), 0);
        assert_eq!(contiguous_row(&[], &[]), 1);
    }
}
