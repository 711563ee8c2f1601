//! batch_norm's forward on the CPU as PyTorch computes it (its `batch_norm_kernel.cpp` and
//! `Normalization.cpp`), for contiguous float32/float64 input, so that outputs and running
//! statistics are PyTorch's bits:
//! - the batch statistics of each channel: sums in double (one channel at a time, in memory
//!   order) when a channel's plane has more than one element; for an (N, C) input (PyTorch's
//!   channels-last kernel), partial sums (and fused sums of squared deviations) in the input's
//!   precision over each thread's part of the rows (one part when N is at most the thread
//!   count), then added in double;
//! - the mean rounded to the input's dtype, the variance sum of its rounded squared
//!   deviations, `1 / sqrt(var_sum / n + eps)` in double, the running statistics updated with
//!   PyTorch's mixture of precisions;
//! - the output as one fused multiply-add per element, `x · α + β` with `α = invstd · w` and
//!   `β = b - mean · α` (fused too), as PyTorch's compiled vector code computes it.

/// The float types the kernel runs for.
pub trait BnFloat:
    Copy
    + Send
    + Sync
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self>
    + std::ops::Div<Output = Self>
    + std::ops::Neg<Output = Self>
{
    const ZERO: Self;
    const ONE: Self;
    fn to_f64(self) -> f64;
    fn of_f64(v: f64) -> Self;
    fn of_usize(n: usize) -> Self;
    fn fma(self, a: Self, b: Self) -> Self;
    fn sqrt(self) -> Self;
}

macro_rules! bn_float {
    ($t:ty) => {
        impl BnFloat for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            #[inline(always)]
            fn to_f64(self) -> f64 {
                self as f64
            }
            #[inline(always)]
            fn of_f64(v: f64) -> Self {
                v as $t
            }
            #[inline(always)]
            fn of_usize(n: usize) -> Self {
                n as $t
            }
            #[inline(always)]
            fn fma(self, a: Self, b: Self) -> Self {
                self.mul_add(a, b)
            }
            #[inline(always)]
            fn sqrt(self) -> Self {
                <$t>::sqrt(self)
            }
        }
    };
}
bn_float!(f32);
bn_float!(f64);

/// The per-channel mean and variance sum of `x` ([nb, c, img] row-major) as PyTorch's
/// collect-stats kernels give them; `threads` is the thread count PyTorch would split the rows
/// of an (N, C) input over.
pub fn collect_stats<T: BnFloat>(
    x: &[T],
    nb: usize,
    c: usize,
    img: usize,
    threads: usize,
) -> (Vec<T>, Vec<T>) {
    // compiled with FMA where the CPU has it (`mul_add` is then one instruction)
    super::vectorised(
        #[inline(always)]
        || stats(x, nb, c, img, threads),
    )
}

#[inline(always)]
fn stats<T: BnFloat>(x: &[T], nb: usize, c: usize, img: usize, threads: usize) -> (Vec<T>, Vec<T>) {
    let n = nb * img;
    let mut mean = vec![T::ZERO; c];
    let mut var_sum = vec![T::ZERO; c];
    if img == 1 {
        // per-thread partial sums of contiguous row ranges (at::parallel_for's split, grain 1);
        // one part when there are no more rows than threads (measured against PyTorch 2.15)
        let threads = if n > threads { threads.max(1) } else { 1 };
        let chunk = n.div_ceil(threads);
        let mut buf = vec![T::ZERO; threads * c];
        #[inline(always)]
        fn parts<T: BnFloat>(
            x: &[T],
            buf: &mut [T],
            (n, c, threads, chunk): (usize, usize, usize, usize),
            f: impl Fn(T, T, usize) -> T,
        ) {
            for t in 0..threads {
                let r0 = (t * chunk).min(n);
                let r1 = (r0 + chunk).min(n);
                let acc = &mut buf[t * c..(t + 1) * c];
                for row in x[r0 * c..r1 * c].chunks_exact(c) {
                    for (ch, (a, &v)) in acc.iter_mut().zip(row).enumerate() {
                        *a = f(*a, v, ch);
                    }
                }
            }
        }
        let dims = (n, c, threads, chunk);
        let across =
            |buf: &[T], ch: usize| (0..threads).fold(0.0f64, |s, t| s + buf[t * c + ch].to_f64());
        parts(x, &mut buf, dims, |a, v, _| v + a);
        for (ch, m) in mean.iter_mut().enumerate() {
            *m = T::of_f64(across(&buf, ch) / n as f64);
        }
        buf.iter_mut().for_each(|v| *v = T::ZERO);
        let mean_ref = &mean;
        parts(x, &mut buf, dims, |a, v, ch| {
            let d = v - mean_ref[ch];
            d.fma(d, a)
        });
        for (ch, s) in var_sum.iter_mut().enumerate() {
            *s = T::of_f64(across(&buf, ch));
        }
        return (mean, var_sum);
    }
    // channels are independent: split them over the threads (as PyTorch does), each
    // channel's sums in memory order
    // waking the pool costs tens of microseconds: only inputs of a few hundred thousand
    // elements are split (measured)
    let grain = (4 * super::parallel::GRAIN / n.max(1)).max(1);
    let parts = super::parallel::map_reduce(c, grain, |c0, c1| {
        super::vectorised(
            #[inline(always)]
            || {
                (c0..c1)
                    .map(|ch| channel_stats(x, nb, c, img, ch))
                    .collect::<Vec<_>>()
            },
        )
    });
    for (ch, (m, v)) in parts.into_iter().flatten().enumerate() {
        mean[ch] = m;
        var_sum[ch] = v;
    }
    (mean, var_sum)
}

/// One channel's mean and sum of squared deviations: double sums in memory order.
#[inline(always)]
fn channel_stats<T: BnFloat>(x: &[T], nb: usize, c: usize, img: usize, ch: usize) -> (T, T) {
    let plane = |b: usize| &x[(b * c + ch) * img..(b * c + ch + 1) * img];
    let mut s = 0.0f64;
    for b in 0..nb {
        for &v in plane(b) {
            s += v.to_f64();
        }
    }
    let m = T::of_f64(s / (nb * img) as f64);
    let mut vs = 0.0f64;
    for b in 0..nb {
        for &v in plane(b) {
            let d = v - m;
            vs += (d * d).to_f64();
        }
    }
    (m, T::of_f64(vs))
}

/// Per-channel (mean, variance) running statistics.
pub type Running<T> = (Vec<T>, Vec<T>);

/// The inverse standard deviations of a batch, and the updated running statistics
/// (`running` = (mean, var), or None), as PyTorch's `batch_norm_cpu_update_stats_template`.
pub fn update_stats<T: BnFloat>(
    mean: &[T],
    var_sum: &[T],
    n: usize,
    eps: f64,
    momentum: f64,
    running: Option<(&[T], &[T])>,
) -> (Vec<T>, Option<Running<T>>) {
    let invstd = var_sum
        .iter()
        .map(|&v| T::of_f64(1.0 / ((v / T::of_usize(n)).to_f64() + eps).sqrt()))
        .collect();
    let m = T::of_f64(momentum);
    let running = running.map(|(rm, rv)| {
        let new_mean = mean
            .iter()
            .zip(rm)
            .map(|(&mu, &old)| m * mu + (T::ONE - m) * old)
            .collect();
        let new_var = var_sum
            .iter()
            .zip(rv)
            .map(|(&v, &old)| {
                let unbiased = (v / T::of_usize(n.saturating_sub(1))).to_f64();
                T::of_f64(m.to_f64() * unbiased + ((T::ONE - m) * old).to_f64())
            })
            .collect();
        (new_mean, new_var)
    });
    (invstd, running)
}

/// The inverse standard deviations of running variances (evaluation mode).
pub fn eval_invstd<T: BnFloat>(running_var: &[T], eps: f64) -> Vec<T> {
    running_var
        .iter()
        .map(|&v| T::ONE / (v + T::of_f64(eps)).sqrt())
        .collect()
}

/// `x · α + β` per channel of `x` ([nb, c, img] row-major), α = invstd · w and β = b - mean · α.
pub fn transform<T: BnFloat>(
    x: &[T],
    c: usize,
    img: usize,
    mean: &[T],
    invstd: &[T],
    weight: Option<&[T]>,
    bias: Option<&[T]>,
) -> Vec<T> {
    let alpha: Vec<T> = (0..c)
        .map(|ch| invstd[ch] * weight.map_or(T::ONE, |w| w[ch]))
        .collect();
    let beta: Vec<T> = (0..c)
        .map(|ch| (-mean[ch]).fma(alpha[ch], bias.map_or(T::ZERO, |b| b[ch])))
        .collect();
    let mut out = vec![T::ZERO; x.len()];
    // (N, C): rows of channels; else planes of one channel; parts of either over the threads
    let unit = if img == 1 { c } else { img };
    let grain = (4 * super::parallel::GRAIN / unit.max(1)).max(1);
    let (alpha, beta) = (&alpha, &beta);
    super::parallel::fill_chunks_by(&mut out, unit, grain, |u0, part| {
        super::vectorised(
            #[inline(always)]
            || {
                let src = &x[u0 * unit..u0 * unit + part.len()];
                if img == 1 {
                    for (o, row) in part.chunks_exact_mut(c).zip(src.chunks_exact(c)) {
                        for (((o, &v), &a), &b) in o.iter_mut().zip(row).zip(alpha).zip(beta) {
                            *o = v.fma(a, b);
                        }
                    }
                } else {
                    for (k, (o, plane)) in part
                        .chunks_exact_mut(img)
                        .zip(src.chunks_exact(img))
                        .enumerate()
                    {
                        let ch = (u0 + k) % c;
                        let (a, b) = (alpha[ch], beta[ch]);
                        for (o, &v) in o.iter_mut().zip(plane) {
                            *o = v.fma(a, b);
                        }
                    }
                }
            },
        )
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_constant_channel_normalises_to_the_bias() {
        let x = [2.0f32, 2.0, 2.0, 2.0];
        let (mean, var_sum) = collect_stats(&x, 2, 1, 2, 2);
        assert_eq!((mean[0], var_sum[0]), (2.0, 0.0));
        let (invstd, running) = update_stats(&mean, &var_sum, 4, 1e-5, 0.1, Some((&[0.0], &[1.0])));
        let (rm, rv) = running.unwrap();
        assert_eq!((rm[0], rv[0]), (0.2, 0.9));
        let y = transform(&x, 1, 2, &mean, &invstd, Some(&[3.0]), Some(&[0.5]));
        assert_eq!(y, vec![0.5; 4]);
    }

    #[test]
    fn rows_split_over_threads_sum_to_the_mean() {
        let x: Vec<f64> = (0..10).map(|v| v as f64).collect();
        let (mean, var_sum) = collect_stats(&x, 5, 2, 1, 2);
        assert_eq!(mean, vec![4.0, 5.0]);
        assert_eq!(var_sum, vec![40.0, 40.0]);
    }
}
