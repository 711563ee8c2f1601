//! PyTorch's float sum, operation for operation (ATen's `cascade_sum`, SumKernel.cpp), so that
//! float32 and float64 sums give PyTorch's values to the last bit rather than a more accurate
//! float64 sum's: a row is summed in vectors (8 float32 or 4 float64 lanes, the width PyTorch
//! 2.15's x86 build sums with), four vectors side by side ("ilp"), each in a four-level
//! cascade of partial sums (chunks of 16 or more elements, then chunks of those, ...), then
//! the tail elements and the lanes in order. Columns (a reduced dim that is not the last)
//! cascade four vectors of columns at a time. Which rows and columns, in which order and on
//! which threads, is `reduce_iter.rs`'s walk; each result is added into a zeroed output, as
//! PyTorch's (so a sum of -0.0 is +0.0).
use std::ops::Add;

/// The float types PyTorch cascades, with its vector width for each.
pub trait Cascade: Copy + Default + Add<Output = Self> + Send + Sync {
    /// The lanes of PyTorch's vector of this type (`Vectorized<T>::size()`).
    const LANES: usize;
    /// The sum of a contiguous row (before the final `0 +`).
    fn row(x: &[Self]) -> Self;
    /// `store(j, Σ_i x[i * stride + j * col_stride])` for the `cols` columns of `rows` rows
    /// that start `x`: ATen's `vectorized_outer_sum` when `wide` (contiguous columns, at least
    /// one vector of them: four vectors of columns at a time, then single vectors, then single
    /// columns), else `scalar_outer_sum` (four columns at a time, then single ones).
    fn columns(
        x: &[Self],
        rows: usize,
        stride: usize,
        cols: usize,
        col_stride: usize,
        wide: bool,
        store: &mut dyn FnMut(usize, Self),
    );
}

// Each runs compiled for AVX2 (or AVX-512) where the CPU has it (`maps::vectorised`): a
// lane array is one vector register, and the results do not depend on the instruction set
// (additions only, in the same order).
macro_rules! impl_cascade {
    ($T:ty, $lanes:literal) => {
        impl Cascade for $T {
            const LANES: usize = $lanes;
            fn row(x: &[$T]) -> $T {
                super::maps::vectorised_len(
                    x.len(),
                    #[inline(always)]
                    || inner::<$T, $lanes>(x),
                )
            }
            fn columns(
                x: &[$T],
                rows: usize,
                stride: usize,
                cols: usize,
                col_stride: usize,
                wide: bool,
                store: &mut dyn FnMut(usize, $T),
            ) {
                super::maps::vectorised_len(
                    rows * cols,
                    #[inline(always)]
                    || outer::<$T, $lanes>(x, rows, stride, cols, col_stride, wide, store),
                )
            }
        }
    };
}
impl_cascade!(f32, 8);
impl_cascade!(f64, 4);
// a complex vector holds half as many values (its lanes add re and im apart)
impl_cascade!(num_complex::Complex32, 4);
impl_cascade!(num_complex::Complex64, 2);

#[inline(always)]
fn add<T: Cascade, const L: usize>(a: [T; L], b: [T; L]) -> [T; L] {
    std::array::from_fn(|i| a[i] + b[i])
}

/// ATen's `CeilLog2`: 1 up to 2, else ⌈log2 x⌉.
fn ceil_log2(x: usize) -> usize {
    if x <= 2 {
        1
    } else {
        (usize::BITS - (x - 1).leading_zeros()) as usize
    }
}

/// `multi_row_sum`: four accumulators of `L` lanes over `size` steps, `load(i, k)` the k-th
/// one's value at step i, each in a four-level cascade whose levels fold every 2^p steps.
// indexed loops: the level/accumulator structure of ATen's loop, kept recognisable
#[allow(clippy::needless_range_loop)]
#[inline(always)]
fn multi_row<T: Cascade, const L: usize>(
    size: usize,
    load: impl Fn(usize, usize) -> [T; L],
) -> [[T; L]; 4] {
    const LEVELS: usize = 4;
    let power = 4.max(ceil_log2(size) / LEVELS);
    let step = 1usize << power;
    let mask = step - 1;
    let zero = [T::default(); L];
    let mut acc = [[zero; 4]; LEVELS];
    let mut i = 0;
    while i + step <= size {
        for _ in 0..step {
            for k in 0..4 {
                acc[0][k] = add(acc[0][k], load(i, k));
            }
            i += 1;
        }
        for j in 1..LEVELS {
            for k in 0..4 {
                acc[j][k] = add(acc[j][k], acc[j - 1][k]);
                acc[j - 1][k] = zero;
            }
            if i & (mask << (j * power)) != 0 {
                break;
            }
        }
    }
    while i < size {
        for k in 0..4 {
            acc[0][k] = add(acc[0][k], load(i, k));
        }
        i += 1;
    }
    for j in 1..LEVELS {
        for k in 0..4 {
            acc[0][k] = add(acc[0][k], acc[j][k]);
        }
    }
    acc[0]
}

/// `row_sum`: `size` values (`load(i)`, `L` lanes each) as four interleaved cascades, the
/// leftover values, then the four added in order.
#[inline(always)]
fn row_sum<T: Cascade, const L: usize>(size: usize, load: impl Fn(usize) -> [T; L]) -> [T; L] {
    let quads = size / 4;
    let mut ps = multi_row::<T, L>(quads, |i, k| load(i * 4 + k));
    for i in quads * 4..size {
        ps[0] = add(ps[0], load(i));
    }
    for k in 1..4 {
        ps[0] = add(ps[0], ps[k]);
    }
    ps[0]
}

/// `L` consecutive elements from `at`: one bounds check, then a vector load.
#[inline(always)]
fn lanes<T: Cascade, const L: usize>(x: &[T], at: usize) -> [T; L] {
    let run: &[T; L] = x[at..at + L].try_into().expect("L elements");
    *run
}

/// The sum of a contiguous row: `vectorized_inner_sum` for rows of at least `L` elements,
/// the scalar `row_sum` for shorter ones.
#[inline(always)]
fn inner<T: Cascade, const L: usize>(x: &[T]) -> T {
    let n = x.len();
    if n < L {
        return row_sum::<T, 1>(n, |i| [x[i]])[0];
    }
    let vectors = n / L;
    let v = row_sum::<T, L>(vectors, |i| lanes::<T, L>(x, i * L));
    let mut acc = T::default();
    for &e in &x[vectors * L..] {
        acc = acc + e;
    }
    for lane in v {
        acc = acc + lane;
    }
    acc
}

/// The column sums of [`Cascade::columns`]; `wide` needs `col_stride == 1`.
#[inline(always)]
fn outer<T: Cascade, const L: usize>(
    x: &[T],
    rows: usize,
    stride: usize,
    cols: usize,
    cs: usize,
    wide: bool,
    store: &mut dyn FnMut(usize, T),
) {
    let mut j = 0;
    if wide {
        while j + 4 * L <= cols {
            let s = multi_row::<T, L>(rows, |i, k| lanes::<T, L>(x, i * stride + j + k * L));
            for (k, v) in s.iter().enumerate() {
                for (l, &e) in v.iter().enumerate() {
                    store(j + k * L + l, e);
                }
            }
            j += 4 * L;
        }
        while j + L <= cols {
            let s = row_sum::<T, L>(rows, |i| lanes::<T, L>(x, i * stride + j));
            for (l, &e) in s.iter().enumerate() {
                store(j + l, e);
            }
            j += L;
        }
    } else {
        while j + 3 < cols {
            let s = multi_row::<T, 1>(rows, |i, k| [x[i * stride + (j + k) * cs]]);
            for (k, v) in s.iter().enumerate() {
                store(j + k, v[0]);
            }
            j += 4;
        }
    }
    while j < cols {
        store(j, row_sum::<T, 1>(rows, |i| [x[i * stride + j * cs]])[0]);
        j += 1;
    }
}

/// The sum of `n` values `stride` apart from the start of `x`, by ATen's scalar `row_sum`.
pub fn strided_row<T: Cascade>(x: &[T], n: usize, stride: usize) -> T {
    row_sum::<T, 1>(n, |i| [x[i * stride]])[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The recursive definition SumKernel.cpp's comment gives, for a row short enough that its
    /// cascade never folds (fewer than 16 steps): plain lanes.
    #[test]
    fn short_rows_are_lanes_then_tail() {
        // 8 float32 lanes: x[8] lands in lane 0 after x[0], the tail after the vector sum
        let x: Vec<f32> = (0..11).map(|i| 1.0 + i as f32 * 1e-7).collect();
        let mut lanes_sum = [0f32; 8];
        for (i, &v) in x[..8].iter().enumerate() {
            lanes_sum[i] += v;
        }
        let mut want = 0f32;
        for &v in &x[8..] {
            want += v;
        }
        for v in lanes_sum {
            want += v;
        }
        assert_eq!(f32::row(&x).to_bits(), want.to_bits());
        // below one vector: four interleaved accumulators
        let y = [1e8f32, 1.0, -1e8, 1.0, 3.0];
        let want = (((0.0 + 1e8 + 3.0) + 1.0) + -1e8) + 1.0;
        assert_eq!(f32::row(&y), want);
        assert_eq!(0.0 + f32::row(&[-0.0f32]), 0.0);
        assert!((0.0 + f32::row(&[-0.0f32])).is_sign_positive());
    }

    #[test]
    fn columns_match_rows_of_the_transpose_in_value() {
        let (rows, cols) = (37, 45);
        let x: Vec<f64> = (0..rows * cols).map(|i| (i % 7) as f64 - 3.0).collect();
        let mut out = vec![0.0; cols];
        f64::columns(&x, rows, cols, cols, 1, true, &mut |j, v| out[j] = v);
        for (j, &o) in out.iter().enumerate() {
            let exact: f64 = (0..rows).map(|i| x[i * cols + j]).sum();
            assert_eq!(o, exact);
        }
    }

    #[test]
    fn long_rows_fold_their_cascade() {
        // integers sum exactly in any order: checks every element is counted once
        for n in [0usize, 1, 7, 8, 63, 64, 65, 1000, 70_000] {
            let x: Vec<f32> = (0..n).map(|i| (i % 5) as f32).collect();
            let exact: f64 = x.iter().map(|&v| v as f64).sum();
            let got = crate::backend::cpu::reduce_iter::sum(&x, 0, &[n], &[1], &[true], false);
            assert_eq!(got[0] as f64, exact, "n = {n}");
        }
        assert_eq!(ceil_log2(1), 1);
        assert_eq!(ceil_log2(3), 2);
        assert_eq!(ceil_log2(1 << 20), 20);
        assert_eq!(ceil_log2((1 << 20) + 1), 21);
    }
}
