//! Reductions over any set of dims, and arg-reductions over one dim.
use crate::dtype::Element;
use crate::shape::{numel, MultiIndex, Shape, Strides};
use crate::tensor::Tensor;
use smallvec::SmallVec;

/// Output shape with reduced dims kept as 1, and strides that map each input element to its slot.
fn reduce_layout(shape: &[usize], dims: &[usize]) -> (Shape, Strides) {
    let mut out: Shape = shape.into();
    for &d in dims {
        out[d] = 1;
    }
    let cs = crate::shape::contiguous_strides(&out);
    let mut st: Strides = SmallVec::from_elem(0, shape.len());
    for i in 0..shape.len() {
        st[i] = if dims.contains(&i) { 0 } else { cs[i] };
    }
    (out, st)
}

/// Fold every element into its output slot: `acc = f(acc, v)` starting from `init`.
pub fn fold<T: Element, A: Element>(
    x: &Tensor,
    dims: &[usize],
    init: A,
    f: impl Fn(A, T) -> A,
) -> crate::Result<(Vec<A>, Shape)> {
    let d = x.data();
    if d.storage.device.is_meta() {
        return Err(crate::error::no_meta_kernel());
    }
    if d.storage.is_cuda() {
        return Err(crate::error::no_cuda_kernel("this reduction"));
    }
    let (oshape, ostr) = reduce_layout(&d.shape, dims);
    let n_out = super::checked_numel(&oshape)?;
    let mut acc: Vec<A> = super::alloc_vec(n_out)?;
    acc.resize(n_out, init);
    // (the output is never larger than the input, which exists)
    // SAFETY: T matches the tensor's dtype.
    unsafe {
        let src = d.storage.slice::<T>();
        if acc.len() == 1 {
            if let Some(s) = d.contiguous_slice::<T>() {
                let mut a = init;
                for &v in s {
                    a = f(a, v);
                }
                acc[0] = a;
                return Ok((acc, oshape));
            }
        }
        let mut it = MultiIndex::new(&d.shape, [d.strides.clone(), ostr], [d.offset as isize, 0]);
        while let Some([i, o]) = it.next_offsets() {
            let slot = &mut acc[o as usize];
            *slot = f(*slot, src[i as usize]);
        }
    }
    Ok((acc, oshape))
}

/// Index of the max (or min) along `dim` with its value; NaN wins, as in PyTorch.
pub fn arg_extreme<T: Element + PartialOrd>(
    x: &Tensor,
    dim: usize,
    max: bool,
) -> crate::Result<(Vec<T>, Vec<i64>, Shape)> {
    let d = x.data();
    if d.storage.device.is_meta() {
        return Err(crate::error::no_meta_kernel());
    }
    if d.storage.is_cuda() {
        return Err(crate::error::no_cuda_kernel(
            "argmax/argmin and max/min with a dim",
        ));
    }
    let (oshape, _) = reduce_layout(&d.shape, &[dim]);
    let n_out = numel(&oshape);
    let mut vals: Vec<Option<T>> = vec![None; n_out];
    let mut idx = vec![0i64; n_out];
    let cs = crate::shape::contiguous_strides(&oshape);
    let mut ostr: Strides = cs.clone();
    ostr[dim] = 0;
    let mut dstr: Strides = SmallVec::from_elem(0, d.shape.len());
    dstr[dim] = 1;
    // SAFETY: T matches the tensor's dtype.
    unsafe {
        let src = d.storage.slice::<T>();
        let mut it = MultiIndex::new(
            &d.shape,
            [d.strides.clone(), ostr, dstr],
            [d.offset as isize, 0, 0],
        );
        while let Some([i, o, k]) = it.next_offsets() {
            let v = src[i as usize];
            let slot = &mut vals[o as usize];
            #[allow(clippy::eq_op)]
            let is_nan = |a: T| a != a;
            let better = match *slot {
                None => true,
                Some(cur) => !is_nan(cur) && (is_nan(v) || if max { v > cur } else { v < cur }),
            };
            if better {
                *slot = Some(v);
                idx[o as usize] = k as i64;
            }
        }
    }
    Ok((
        vals.into_iter().map(|v| v.unwrap_or_default()).collect(),
        idx,
        oshape,
    ))
}

/// Sum of a float32 slice in float64, eight independent lanes (vectorisable) per thread, all
/// cores for large inputs.
pub fn sum_f32(s: &[f32]) -> f64 {
    fn lanes(s: &[f32]) -> f64 {
        let mut acc = [0f64; 8];
        let chunks = s.chunks_exact(8);
        let rest = chunks.remainder();
        for c in chunks {
            for k in 0..8 {
                acc[k] += c[k] as f64;
            }
        }
        acc.iter().sum::<f64>() + rest.iter().map(|&v| v as f64).sum::<f64>()
    }
    let threads = if s.len() >= 1 << 18 {
        std::thread::available_parallelism()
            .map(|p| p.get())
            .unwrap_or(1)
            .min(8)
    } else {
        1
    };
    if threads <= 1 {
        return lanes(s);
    }
    let chunk = s.len().div_ceil(threads);
    std::thread::scope(|sc| {
        let parts: Vec<_> = s
            .chunks(chunk)
            .map(|p| sc.spawn(move || lanes(p)))
            .collect();
        parts.into_iter().map(|h| h.join().unwrap_or(0.0)).sum()
    })
}
