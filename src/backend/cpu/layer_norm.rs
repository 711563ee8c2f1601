//! layer_norm's row statistics and output on the CPU as PyTorch 2.15 computes them for
//! float32/float64 (its `RowwiseMoments` and `layer_norm_kernel.cpp`), so that results are
//! PyTorch's bits. Measured against PyTorch 2.15 rather than read from one version's source:
//! - PyTorch runs its AVX2 build of this kernel even where AVX-512 is available, so the vector
//!   width is 8 float32 or 4 float64 lanes ([`LnFloat::W`]);
//! - each lane keeps a Welford mean and sum of squared deviations over chunks of 16 vectors,
//!   with fused multiply-adds, and chunks are merged as a binary cascade; a merge computes
//!   `m2 ← fma(δ, δ·c·m0, m2 + m2')` and `m1 ← m1 + δ·c`;
//! - the elements past the last whole vector are taken one at a time (Welford, no fused
//!   multiply-add), then each lane is merged
//!   into them (`m1 ← fma(c, δ, m1)`, `m2 ← m2 + fma(δ·δ·c, m0, m2')`);
//! - `rstd = 1 / sqrt(var + eps)` in the input's precision, and the output is
//!   `fma((x - mean) · rstd, w, b)` (w = 1, b = 0 when absent), or `fma(x - mean, rstd, b)`
//!   with a bias and no weight;
//! - the gradients as [`backward`] describes: float32's are PyTorch's bits; float64's dx
//!   differs in the last bits (its compiled fusions were not found).
use super::batch_norm::BnFloat;

/// A float type with PyTorch's lane count for this kernel.
pub trait LnFloat: BnFloat {
    /// Lanes of one vector in PyTorch's AVX2 build.
    const W: usize;
}

impl LnFloat for f32 {
    const W: usize = 8;
}

impl LnFloat for f64 {
    const W: usize = 4;
}

const CHUNK: usize = 16;
const MAXW: usize = 8;

/// Per-lane Welford state: the count (the same in every lane), means and squared-deviation sums.
#[derive(Clone, Copy)]
struct Lanes<T> {
    m0: usize,
    m1: [T; MAXW],
    m2: [T; MAXW],
}

impl<T: LnFloat> Lanes<T> {
    fn empty() -> Self {
        Lanes {
            m0: 0,
            m1: [T::ZERO; MAXW],
            m2: [T::ZERO; MAXW],
        }
    }

    /// Merges `o` into `self` (PyTorch's `AddMomentsVec`, as its compiled code rounds it).
    #[inline(always)]
    fn absorb(&mut self, o: &Lanes<T>) {
        let n = self.m0 + o.m0;
        let c = if n == 0 {
            T::ZERO
        } else {
            T::of_usize(o.m0) / T::of_usize(n)
        };
        let m0 = T::of_usize(self.m0);
        for l in 0..T::W {
            let d = o.m1[l] - self.m1[l];
            let dc = d * c;
            self.m1[l] = self.m1[l] + dc;
            self.m2[l] = d.fma(dc * m0, self.m2[l] + o.m2[l]);
        }
        self.m0 = n;
    }
}

/// A row's mean and biased variance, as PyTorch's `RowwiseMoments` gives them.
#[inline(always)]
#[allow(clippy::needless_range_loop)] // lanes indexed in step across arrays, as vectors are
fn row_moments<T: LnFloat>(x: &[T], stk: &mut [Lanes<T>; 64]) -> (T, T) {
    let w = T::W;
    let len = x.len();
    let n = len / w;
    let m = n.div_ceil(CHUNK);
    // utils::CeilLog2, which is 1 for m ≤ 2
    let depth = if m <= 2 {
        1
    } else {
        (usize::BITS - (m - 1).leading_zeros()) as usize
    };
    let inv: [T; CHUNK] = std::array::from_fn(|j| T::ONE / T::of_usize(j + 1));
    for s in stk.iter_mut().take(depth) {
        *s = Lanes::empty();
    }
    for i in 0..m {
        let p = &x[i * CHUNK * w..];
        let c0 = CHUNK.min(n - i * CHUNK);
        let mut acc = Lanes::<T>::empty();
        acc.m0 = c0;
        for (j, &cj) in inv.iter().enumerate().take(c0) {
            let v = &p[j * w..j * w + w];
            for l in 0..w {
                let d = v[l] - acc.m1[l];
                acc.m1[l] = d.fma(cj, acc.m1[l]);
                acc.m2[l] = d.fma(v[l] - acc.m1[l], acc.m2[l]);
            }
        }
        stk[0].absorb(&acc);
        let mut mask = i + 1;
        let mut j = 1;
        while j < depth && mask & 1 == 0 {
            let below = stk[j - 1];
            stk[j].absorb(&below);
            stk[j - 1] = Lanes::empty();
            mask >>= 1;
            j += 1;
        }
    }
    for i in 1..depth {
        let s = stk[i];
        stk[0].absorb(&s);
    }
    let (mut m0, mut m1, mut m2) = (0usize, T::ZERO, T::ZERO);
    for &v in &x[n * w..] {
        let d = v - m1;
        m0 += 1;
        m1 = m1 + d / T::of_usize(m0);
        // not fused here (measured)
        m2 = m2 + d * (v - m1);
    }
    for l in 0..w {
        let total = m0 + n;
        let c = if total == 0 {
            T::ZERO
        } else {
            T::of_usize(n) / T::of_usize(total)
        };
        let d = stk[0].m1[l] - m1;
        m1 = c.fma(d, m1);
        m2 = m2 + (d * d * c).fma(T::of_usize(m0), stk[0].m2[l]);
        m0 = total;
    }
    (m1, m2 / T::of_usize(len))
}

/// A row's mean and `1 / sqrt(var + eps)` (`stk`: scratch for the cascade).
#[inline(always)]
fn row_stats<T: LnFloat>(row: &[T], eps: f64, stk: &mut [Lanes<T>; 64]) -> (T, T) {
    let (mean, var) = row_moments(row, stk);
    (mean, T::ONE / (var + T::of_f64(eps)).sqrt())
}

/// Normalises rows of `n` elements of `x` into `out`, with the optional weight and bias.
pub fn forward<T: LnFloat>(
    x: &[T],
    out: &mut [T],
    n: usize,
    w: Option<&[T]>,
    b: Option<&[T]>,
    eps: f64,
) {
    super::vectorised(
        #[inline(always)]
        || {
            let mut stk = [Lanes::<T>::empty(); 64];
            for (row, o) in x.chunks(n).zip(out.chunks_mut(n)) {
                let (mean, rstd) = row_stats(row, eps, &mut stk);
                match (w, b) {
                    (Some(w), Some(b)) => {
                        for (((o, &v), &wv), &bv) in o.iter_mut().zip(row).zip(w).zip(b) {
                            *o = ((v - mean) * rstd).fma(wv, bv);
                        }
                    }
                    (None, Some(b)) => {
                        // the compiled loop drops the multiply by 1 and fuses the rest
                        for ((o, &v), &bv) in o.iter_mut().zip(row).zip(b) {
                            *o = (v - mean).fma(rstd, bv);
                        }
                    }
                    // fma(t, w, 0) and fma(t, 1, 0) round as t·w + 0 and t + 0 do
                    (Some(w), None) => {
                        for ((o, &v), &wv) in o.iter_mut().zip(row).zip(w) {
                            *o = (v - mean) * rstd * wv + T::ZERO;
                        }
                    }
                    (None, None) => {
                        for (o, &v) in o.iter_mut().zip(row) {
                            *o = (v - mean) * rstd + T::ZERO;
                        }
                    }
                }
            }
        },
    )
}

/// `vec::map_reduce_all(a·b·c, +)` (the factors present, multiplied left to right) as
/// PyTorch's compiled code rounds it: rows shorter than W add the products in order; longer
/// ones keep W lane sums (the last partial vector into the first lanes, its multiply and add
/// fused), then add the lanes as `vec_reduce_all`'s shuffle tree does.
#[inline(always)]
fn reduce<T: LnFloat>(a: &[T], b: Option<&[T]>, c: Option<&[T]>) -> T {
    let w = T::W;
    let n = a.len();
    let map = |i: usize| {
        let mut p = a[i];
        if let Some(b) = b {
            p = p * b[i];
        }
        if let Some(c) = c {
            p = p * c[i];
        }
        p
    };
    if n < w {
        let mut s = map(0);
        for i in 1..n {
            s = s + map(i);
        }
        return s;
    }
    let mut acc = [T::ZERO; MAXW];
    for (l, v) in acc.iter_mut().enumerate().take(w) {
        *v = map(l);
    }
    let whole = n / w * w;
    // one loop per shape of the product, free of bounds checks, so that it vectorises
    match (b, c) {
        (Some(b), Some(c)) => {
            for ((a, b), c) in a[w..whole]
                .chunks_exact(w)
                .zip(b[w..whole].chunks_exact(w))
                .zip(c[w..whole].chunks_exact(w))
            {
                for l in 0..w {
                    acc[l] = acc[l] + a[l] * b[l] * c[l];
                }
            }
        }
        (Some(b), None) => {
            for (a, b) in a[w..whole].chunks_exact(w).zip(b[w..whole].chunks_exact(w)) {
                for l in 0..w {
                    acc[l] = acc[l] + a[l] * b[l];
                }
            }
        }
        _ => {
            for a in a[w..whole].chunks_exact(w) {
                for l in 0..w {
                    acc[l] = acc[l] + a[l];
                }
            }
        }
    }
    for (l, v) in acc.iter_mut().enumerate().take(n - whole) {
        let i = whole + l;
        *v = match (b, c) {
            (Some(b), Some(c)) => (a[i] * b[i]).fma(c[i], *v),
            (Some(b), None) => a[i].fma(b[i], *v),
            _ => *v + a[i],
        };
    }
    let mut k = w / 2;
    while k > 0 {
        for i in 0..k {
            acc[i] = acc[i] + acc[i + k];
        }
        k /= 2;
    }
    acc[0]
}

/// Layer norm's gradients for rows `r0..` of `n` elements (`x`, `dy` and `dx` hold those rows),
/// from the rows' saved mean and rstd, as PyTorch's `LayerNormBackwardKernel` computes them:
/// `ds = Σ dy·x·w`, `db = Σ dy·w` (as `vec::map_reduce_all` rounds them), `b = fma(db, mean, -ds)·a³/n`,
/// `c = fma(-b, mean, -(db·a)/n)` with `a = rstd`, and `dx = fma(b, x, a·dy·w) + c`.
#[allow(clippy::too_many_arguments)]
pub fn backward_dx<T: LnFloat>(
    x: &[T],
    dy: &[T],
    stats: &[(T, T)],
    w: Option<&[T]>,
    n: usize,
    dx: &mut [T],
) {
    super::vectorised(
        #[inline(always)]
        || {
            let scale = T::ONE / T::of_usize(n);
            for (((x, dy), dx), &(mean, a)) in x
                .chunks(n)
                .zip(dy.chunks(n))
                .zip(dx.chunks_mut(n))
                .zip(stats)
            {
                let (ds, db) = match w {
                    Some(w) => (reduce(dy, Some(x), Some(w)), reduce(dy, Some(w), None)),
                    None => (reduce(dy, Some(x), None), reduce(dy, None, None)),
                };
                let b = db.fma(mean, -ds) * a * a * a * scale;
                let c = (-b).fma(mean, -(db * a * scale));
                match w {
                    Some(w) => {
                        for (((o, &xv), &g), &wv) in dx.iter_mut().zip(x).zip(dy).zip(w) {
                            *o = b.fma(xv, a * g * wv) + c;
                        }
                    }
                    None => {
                        for ((o, &xv), &g) in dx.iter_mut().zip(x).zip(dy) {
                            *o = b.fma(xv, a * g) + c;
                        }
                    }
                }
            }
        },
    )
}

/// One thread's part of the weight and bias gradients of layer norm: for each of its rows,
/// `dw += dy·fma(a, x, -a·mean)` (fused) and `db += dy`, into that thread's buffers, as
/// PyTorch's first pass does; the caller adds the buffers in thread order.
pub fn backward_wb_part<T: LnFloat>(
    x: &[T],
    dy: &[T],
    stats: &[(T, T)],
    n: usize,
    dw: &mut [T],
    db: &mut [T],
) {
    super::vectorised(
        #[inline(always)]
        || {
            for ((x, dy), &(mean, a)) in x.chunks(n).zip(dy.chunks(n)).zip(stats) {
                let b = -a * mean;
                for (((gw, gb), &xv), &g) in dw.iter_mut().zip(db.iter_mut()).zip(x).zip(dy) {
                    *gw = g.fma(a.fma(xv, b), *gw);
                    *gb = *gb + g;
                }
            }
        },
    )
}

/// Layer norm's gradients for contiguous rows of `n` elements: dx, and when `want_wb` the
/// weight and bias gradients, each row's statistics recomputed as the forward computed them.
/// The weight and bias gradients add per-thread buffers in thread order, with the rows split
/// over the threads as `at::parallel_for` splits them, so they depend on the thread count as
/// PyTorch's do.
#[allow(clippy::type_complexity)]
pub fn backward<T: LnFloat + crate::dtype::Element>(
    x: &[T],
    dy: &[T],
    w: Option<&[T]>,
    n: usize,
    eps: f64,
    want_wb: bool,
) -> crate::error::Result<(Vec<T>, Option<(Vec<T>, Vec<T>)>)> {
    use super::parallel;
    let rows = x.len() / n;
    let grain = (parallel::GRAIN / n).max(1);
    let stats: Vec<(T, T)> = parallel::map_reduce(rows, grain, |r0, r1| {
        super::vectorised(
            #[inline(always)]
            || {
                let mut stk = [Lanes::<T>::empty(); 64];
                let mut v = Vec::with_capacity(r1 - r0);
                for row in x[r0 * n..r1 * n].chunks(n) {
                    v.push(row_stats(row, eps, &mut stk));
                }
                v
            },
        )
    })
    .concat();
    let mut dx: Vec<T> = super::alloc_vec(x.len())?;
    dx.resize(x.len(), T::ZERO);
    parallel::fill_chunks_by(&mut dx, n, grain, |r0, part| {
        let r1 = r0 + part.len() / n;
        backward_dx(
            &x[r0 * n..r1 * n],
            &dy[r0 * n..r1 * n],
            &stats[r0..r1],
            w,
            n,
            part,
        )
    });
    if !want_wb {
        return Ok((dx, None));
    }
    let tasks = parallel::num_threads().min(rows).max(1);
    let chunk = rows.div_ceil(tasks);
    let parts = rows.div_ceil(chunk);
    let bufs: Vec<(Vec<T>, Vec<T>)> = parallel::map_reduce(parts, 1, |p0, p1| {
        (p0..p1)
            .map(|p| {
                let (r0, r1) = (p * chunk, ((p + 1) * chunk).min(rows));
                let (mut dw, mut db) = (vec![T::ZERO; n], vec![T::ZERO; n]);
                backward_wb_part(
                    &x[r0 * n..r1 * n],
                    &dy[r0 * n..r1 * n],
                    &stats[r0..r1],
                    n,
                    &mut dw,
                    &mut db,
                );
                (dw, db)
            })
            .collect::<Vec<_>>()
    })
    .concat();
    let (mut dw, mut db) = (vec![T::ZERO; n], vec![T::ZERO; n]);
    for (pw, pb) in &bufs {
        for (a, &v) in dw.iter_mut().zip(pw) {
            *a = *a + v;
        }
        for (a, &v) in db.iter_mut().zip(pb) {
            *a = *a + v;
        }
    }
    Ok((dx, Some((dw, db))))
}
