//! The order in which PyTorch walks a float sum, for any reduced dims of any layout: ATen's
//! `TensorIterator` as it is built for a reduction, and its `parallel_reduce`.
//!
//! The dims are sorted with the reduced ones innermost (each group by the input's strides),
//! adjacent dims that are one run in memory are merged, and the iteration walks 2-d blocks of
//! the first two dims, each summed by `cascade_sum`'s loop (`cascade.rs`) and added into the
//! output (which starts at zero). Below 32768 elements, or on one thread, that walk is serial;
//! a reduction to one value splits the flattened walk into one range per thread and sums the
//! per-thread results (the two-pass reduction); any other splits the largest kept dim, at
//! multiples of 128 bytes where it is contiguous. So `x.sum((0, 2, 3))` of an NCHW tensor adds
//! each image's plane sums in turn, and a transposed tensor is summed in memory order, as in
//! PyTorch; only a reduction to one value (as in PyTorch) and a split of strided columns depend
//! on the thread count.
use super::cascade::{strided_row, Cascade};
use super::parallel;
use smallvec::SmallVec;

type Dims<T> = SmallVec<[T; 6]>;

/// An iteration space: its shape and the input's and output's strides (in elements), dim 0
/// innermost.
#[derive(Clone)]
struct Geometry {
    shape: Dims<usize>,
    ins: Dims<isize>,
    outs: Dims<isize>,
}

/// The output buffer, written by several threads at disjoint positions.
#[derive(Clone, Copy)]
struct Out<T>(*mut T, usize);

// SAFETY: the threads of one reduction write disjoint elements (see `split_kept`).
unsafe impl<T: Send> Send for Out<T> {}
unsafe impl<T: Send> Sync for Out<T> {}

impl<T: Cascade> Out<T> {
    /// `out[at] += v` (ATen's `CastStoreAccumulate`).
    fn add(self, at: isize, v: T) {
        assert!(
            at >= 0 && (at as usize) < self.1,
            "reduction output out of range"
        );
        // SAFETY: in bounds (checked); no other thread writes this element meanwhile.
        unsafe {
            let p = self.0.add(at as usize);
            *p = *p + v;
        }
    }
}

impl Geometry {
    /// The iteration of `x.sum(dims)` (`reduced[d]` for each dim), ordered and coalesced.
    fn new(shape: &[usize], strides: &[isize], reduced: &[bool], keepdim: bool) -> Geometry {
        let nd = shape.len();
        // the output's strides: contiguous over its own shape, 0 along reduced dims (a
        // keepdim output keeps its stride along a reduced dim of size 1, as broadcasting
        // zeroes only dims it expands)
        let mut outs: Dims<isize> = SmallVec::from_elem(0, nd);
        let mut run = 1isize;
        for d in (0..nd).rev() {
            if reduced[d] && !keepdim {
                continue;
            }
            let size = if reduced[d] { 1 } else { shape[d] };
            outs[d] = if reduced[d] && shape[d] != 1 { 0 } else { run };
            run *= size.max(1) as isize;
        }
        let perm = super::layout::reorder_dims(shape, &[&outs, strides], true);
        let mut g = Geometry {
            shape: perm.iter().map(|&d| shape[d]).collect(),
            ins: perm.iter().map(|&d| strides[d]).collect(),
            outs: perm.iter().map(|&d| outs[d]).collect(),
        };
        g.coalesce();
        g
    }

    /// `TensorIterator::coalesce_dimensions`.
    fn coalesce(&mut self) {
        let nd = self.shape.len();
        if nd <= 1 {
            return;
        }
        let mut prev = 0;
        for dim in 1..nd {
            let (s0, s1) = (self.shape[prev], self.shape[dim]);
            let joins = s0 == 1
                || s1 == 1
                || (self.ins[prev] * s0 as isize == self.ins[dim]
                    && self.outs[prev] * s0 as isize == self.outs[dim]);
            if joins {
                if s0 == 1 {
                    self.ins[prev] = self.ins[dim];
                    self.outs[prev] = self.outs[dim];
                }
                self.shape[prev] *= s1;
            } else {
                prev += 1;
                if prev != dim {
                    self.ins[prev] = self.ins[dim];
                    self.outs[prev] = self.outs[dim];
                    self.shape[prev] = s1;
                }
            }
        }
        self.shape.truncate(prev + 1);
        self.ins.truncate(prev + 1);
        self.outs.truncate(prev + 1);
    }

    fn numel(&self) -> usize {
        self.shape.iter().product()
    }

    /// The strides of dims 0 and 1 (0 for a dim the iteration lacks).
    fn first2(st: &[isize]) -> [isize; 2] {
        [
            st.first().copied().unwrap_or(0),
            st.get(1).copied().unwrap_or(0),
        ]
    }

    /// `serial_for_each` over the flattened `[begin, end)`: 2-d blocks as `DimCounter` steps.
    fn serial<T: Cascade>(
        &self,
        x: &[T],
        xo: isize,
        out: Out<T>,
        oo: isize,
        begin: usize,
        end: usize,
    ) {
        if begin >= end {
            return;
        }
        let (ins, outs) = (Self::first2(&self.ins), Self::first2(&self.outs));
        let nd = self.shape.len();
        if nd <= 1 {
            let (xi, oi) = (begin as isize * ins[0], begin as isize * outs[0]);
            block(x, xo + xi, out, oo + oi, ins, outs, end - begin, 1);
            return;
        }
        let mut values: Dims<usize> = SmallVec::from_elem(0, nd);
        let mut linear = begin;
        for (v, &s) in values.iter_mut().zip(&self.shape) {
            *v = linear % s;
            linear /= s;
        }
        let mut offset = begin;
        while offset < end {
            let (mut xi, mut oi) = (xo, oo);
            for d in 0..nd {
                xi += values[d] as isize * self.ins[d];
                oi += values[d] as isize * self.outs[d];
            }
            let step0 = (self.shape[0] - values[0]).min(end - offset);
            let step1 = if step0 == self.shape[0] {
                (self.shape[1] - values[1]).min((end - offset) / self.shape[0])
            } else {
                1
            };
            block(x, xi, out, oi, ins, outs, step0, step1);
            // DimCounter::increment
            offset += step0 * step1;
            let (mut i, mut overflow) = if step1 != 1 { (1, step1) } else { (0, step0) };
            while i < nd && overflow > 0 {
                let v = values[i] + overflow;
                if v >= self.shape[i] {
                    overflow = 1;
                    values[i] = v - self.shape[i];
                } else {
                    overflow = 0;
                    values[i] = v;
                }
                i += 1;
            }
        }
    }
}

/// One call of `cascade_sum`'s loop: `size1` rows of `size0` values (input strides `ins`)
/// summed into the output (strides `outs`).
#[allow(clippy::too_many_arguments)]
fn block<T: Cascade>(
    x: &[T],
    xo: isize,
    out: Out<T>,
    oo: isize,
    mut ins: [isize; 2],
    mut outs: [isize; 2],
    mut size0: usize,
    mut size1: usize,
) {
    let lanes = T::LANES;
    if outs[0] != 0 && outs[1] == 0 {
        // move the reduction to the first dim
        ins.swap(0, 1);
        outs.swap(0, 1);
        std::mem::swap(&mut size0, &mut size1);
    }
    let at = |i: usize, j: usize| xo + i as isize * ins[0] + j as isize * ins[1];
    let xs = |from: isize| &x[usize::try_from(from).expect("in range")..];
    if outs[0] != 0 && outs[1] != 0 {
        // nothing reduced here: out += x
        for j in 0..size1 {
            for i in 0..size0 {
                let o = oo + i as isize * outs[0] + j as isize * outs[1];
                out.add(o, x[at(i, j) as usize]);
            }
        }
        return;
    }
    let ostride = outs[1];
    if ins[0] == 1 && size0 >= lanes {
        // vectorized_inner_sum
        for j in 0..size1 {
            let row = &xs(at(0, j))[..size0];
            out.add(oo + j as isize * ostride, T::row(row));
        }
    } else if ins[1] == 1 && size1 >= lanes {
        // vectorized_outer_sum
        let stride = usize::try_from(ins[0]).expect("non-negative stride");
        T::columns(xs(xo), size0, stride, size1, 1, true, &mut |j, v| {
            out.add(oo + j as isize * ostride, v)
        });
    } else if ins[0] < ins[1] {
        // scalar_inner_sum
        let stride = usize::try_from(ins[0]).expect("non-negative stride");
        for j in 0..size1 {
            let v = strided_row(xs(at(0, j)), size0, stride);
            out.add(oo + j as isize * ostride, v);
        }
    } else {
        // scalar_outer_sum
        let stride = usize::try_from(ins[0]).expect("non-negative stride");
        let cs = usize::try_from(ins[1]).expect("non-negative stride");
        T::columns(xs(xo), size0, stride, size1, cs, false, &mut |j, v| {
            out.add(oo + j as isize * ostride, v)
        });
    }
}

/// `x.sum(dims)` as PyTorch sums it: `x` the storage, viewed from `offset` with `shape` and
/// `strides` (non-negative, in elements); the result in the output's row-major order.
pub fn sum<T: Cascade>(
    x: &[T],
    offset: usize,
    shape: &[usize],
    strides: &[isize],
    reduced: &[bool],
    keepdim: bool,
) -> Vec<T> {
    let n_out: usize = shape
        .iter()
        .zip(reduced)
        .map(|(&s, &r)| if r { 1 } else { s })
        .product();
    let mut out = vec![T::default(); n_out];
    let g = Geometry::new(shape, strides, reduced, keepdim);
    let numel = g.numel();
    let threads = parallel::num_threads();
    let xo = offset as isize;
    if numel < parallel::GRAIN || threads <= 1 {
        g.serial(x, xo, Out(out.as_mut_ptr(), n_out), 0, 0, numel);
    } else if n_out == 1 {
        out[0] = two_pass(&g, x, xo, threads);
    } else {
        split_kept(&g, x, xo, Out(out.as_mut_ptr(), n_out), threads);
    }
    out
}

/// A reduction to one value on `threads` threads: `at::parallel_for`'s ranges of the walk
/// summed apart, then the per-thread sums (unused threads' zero) summed as a row.
fn two_pass<T: Cascade>(g: &Geometry, x: &[T], xo: isize, threads: usize) -> T {
    let numel = g.numel();
    let tasks = threads.min(numel.div_ceil(parallel::GRAIN));
    let chunk = numel.div_ceil(tasks);
    let mut buffer: Vec<T> = parallel::map_reduce(tasks, 1, |a, b| {
        (a..b)
            .map(|t| {
                let mut acc = T::default();
                let (begin, end) = ((t * chunk).min(numel), ((t + 1) * chunk).min(numel));
                g.serial(x, xo, Out(&mut acc as *mut T, 1), 0, begin, end);
                acc
            })
            .collect::<Vec<T>>()
    })
    .into_iter()
    .flatten()
    .collect();
    buffer.resize(threads, T::default());
    let mut total = T::default();
    let row = Geometry {
        shape: SmallVec::from_elem(threads, 1),
        ins: SmallVec::from_elem(1, 1),
        outs: SmallVec::from_elem(0, 1),
    };
    row.serial(&buffer, 0, Out(&mut total as *mut T, 1), 0, 0, threads);
    total
}

/// `parallel_dim_reduction`: the kept dim with the most elements split into one range per
/// thread (rounded to 128 bytes where its input is contiguous), each range walked serially.
/// The ranges cover disjoint output elements.
fn split_kept<T: Cascade>(g: &Geometry, x: &[T], xo: isize, out: Out<T>, threads: usize) {
    let mut dim = 0;
    let mut best = 0;
    for (d, (&s, &o)) in g.shape.iter().zip(&g.outs).enumerate() {
        if o != 0 && s > best {
            dim = d;
            best = s;
        }
    }
    let cols = g.shape[dim];
    let round = g.ins[dim] == 1;
    let per_128 = 128 / std::mem::size_of::<T>().max(1);
    let round_down = |c: usize| if c == cols { c } else { c - c % per_128 };
    let tasks = threads.min(cols);
    let chunk = cols.div_ceil(tasks);
    parallel::parallel_for(tasks, 1, |a, b| {
        for t in a..b {
            let (mut begin, mut end) = ((t * chunk).min(cols), ((t + 1) * chunk).min(cols));
            if begin >= end {
                continue;
            }
            if round {
                (begin, end) = (round_down(begin), round_down(end));
            }
            if begin == end {
                continue;
            }
            let mut sub = g.clone();
            sub.shape[dim] = end - begin;
            let (xi, oi) = (begin as isize * g.ins[dim], begin as isize * g.outs[dim]);
            sub.serial(x, xo + xi, out, oi, 0, sub.numel());
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nchw_planes_sort_innermost_and_merge() {
        // x (2, 3, 4, 5) contiguous, summed over (0, 2, 3): [HW, N, C]
        let g = Geometry::new(
            &[2, 3, 4, 5],
            &[60, 20, 5, 1],
            &[true, false, true, true],
            false,
        );
        assert_eq!(g.shape.as_slice(), &[20, 2, 3]);
        assert_eq!(g.ins.as_slice(), &[1, 60, 20]);
        assert_eq!(g.outs.as_slice(), &[0, 0, 1]);
    }

    #[test]
    fn every_element_counted_once() {
        // integers sum exactly in any order
        let shape = [3usize, 4, 5, 6];
        let x: Vec<f32> = (0..360).map(|i| (i % 7) as f32).collect();
        let strides = [120isize, 30, 6, 1];
        for mask in 0..16u32 {
            let reduced: Vec<bool> = (0..4).map(|d| mask >> d & 1 == 1).collect();
            let got = sum(&x, 0, &shape, &strides, &reduced, false);
            let mut want = vec![0f64; got.len()];
            for (i, &v) in x.iter().enumerate() {
                let idx = [i / 120, i / 30 % 4, i / 6 % 5, i % 6];
                let mut o = 0;
                for d in 0..4 {
                    if !reduced[d] {
                        o = o * shape[d] + idx[d];
                    }
                }
                want[o] += v as f64;
            }
            let got: Vec<f64> = got.into_iter().map(|v| v as f64).collect();
            assert_eq!(got, want, "mask {mask:b}");
        }
    }
}
