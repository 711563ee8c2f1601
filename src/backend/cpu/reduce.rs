//! Reductions over any set of dims, and arg-reductions over one dim.
use super::cascade::Cascade;
use crate::backend::Strided;
use crate::backend::{ArgReduceKernel, ReduceKernel, ScanKernel};
use crate::dtype::{DType, Element};
use crate::error::{Error, Result};
use crate::shape::{numel, reduced_shape, MultiIndex, Shape, Strides};
use num_complex::{Complex32, Complex64};
use smallvec::SmallVec;

/// `k` over sorted `dims`.
pub fn reduce(k: ReduceKernel, x: &Strided, dims: &[usize], keepdim: bool) -> Result<Strided> {
    let shape = reduced_shape(&x.shape(), dims, keepdim);
    let dt = x.dtype();
    match k {
        ReduceKernel::Sum => sum(x, dims, keepdim),
        ReduceKernel::Prod if dt == DType::Bool => Err(Error::NotImplemented(
            "\"prod_cpu\" not implemented for 'Bool'".into(),
        )),
        ReduceKernel::Prod => crate::with_numeric!(dt, T, {
            let one = <T as Element>::from_f64(1.0);
            let (v, _) = fold::<T, T>(x, dims, one, |a, v| a * v)?;
            Strided::from_vec(v, &shape)
        }),
        ReduceKernel::AMax | ReduceKernel::AMin => {
            let max = k == ReduceKernel::AMax;
            crate::with_real!(dt, T, {
                let mut cur = x.clone();
                let mut vals = Vec::new();
                for &d in dims.iter().rev() {
                    let (v, _, s) = arg_extreme::<T>(&cur, d, max)?;
                    cur = Strided::from_vec(v.clone(), &s)?;
                    vals = v;
                }
                if dims.is_empty() {
                    return (x).contiguous();
                }
                Strided::from_vec(vals, &shape)
            })
        }
    }
}

/// The index of the max / min along `dim`, kept as size 1 (int64).
pub fn argreduce(k: ArgReduceKernel, x: &Strided, dim: usize) -> Result<Strided> {
    let max = k == ArgReduceKernel::Max;
    crate::with_real!(x.dtype(), T, {
        let (_, idx, s) = arg_extreme::<T>(x, dim, max)?;
        Strided::from_vec(idx, &s)
    })
}

/// Running sums / products along `dim` in x's dtype (from the end if `reverse`; without the
/// element itself if `exclusive`).
pub fn scan(
    k: ScanKernel,
    x: &Strided,
    dim: usize,
    reverse: bool,
    exclusive: bool,
) -> Result<Strided> {
    let shape = x.shape();
    let dt = x.dtype();
    if shape.is_empty() || dt == DType::Bool {
        return Err(Error::NotImplemented(format!(
            "\"cum{}_cpu\" needs a dim and a numeric dtype (got {} of shape {:?})",
            k.name(),
            dt.scalar_type_name(),
            shape
        )));
    }
    let n = shape[dim];
    let inner: usize = shape[dim + 1..].iter().product();
    let outer: usize = shape[..dim].iter().product();
    crate::with_numeric!(dt, T, {
        let v = x.try_to_vec::<T>()?;
        let mut o = v.clone();
        let (zero, one) = (T::default(), <T as Element>::from_f64(1.0));
        for a in 0..outer {
            for i in 0..inner {
                let mut acc = if k == ScanKernel::Sum { zero } else { one };
                for step in 0..n {
                    let j = if reverse { n - 1 - step } else { step };
                    let idx = (a * n + j) * inner + i;
                    let before = acc;
                    if k == ScanKernel::Sum {
                        acc += v[idx];
                    } else {
                        acc *= v[idx];
                    }
                    o[idx] = if exclusive { before } else { acc };
                }
            }
        }
        Strided::from_vec(o, &shape)
    })
}

/// The sum kernel: integer and bool inputs sum to int64.
pub fn sum(x: &Strided, dims: &[usize], keepdim: bool) -> Result<Strided> {
    let shape = reduced_shape(&x.shape(), dims, keepdim);
    Ok(match x.dtype() {
        DType::Float16 | DType::BFloat16 => {
            let wide = x.cast(DType::Float64)?;
            sum(&wide, dims, keepdim)?.cast(x.dtype())?
        }
        DType::Float32 if x.storage.is_host() && x.numel() > 0 => {
            Strided::from_vec(sum_float::<f32>(x, dims, keepdim), &shape)?
        }
        DType::Float64 if x.storage.is_host() && x.numel() > 0 => {
            Strided::from_vec(sum_float::<f64>(x, dims, keepdim), &shape)?
        }
        DType::Float32 => return sum_fold_f32(x, dims, &shape),
        DType::Float64 => {
            Strided::from_vec(fold::<f64, f64>(x, dims, 0.0, |a, v| a + v)?.0, &shape)?
        }
        DType::Complex64 if x.storage.is_host() && x.numel() > 0 => {
            Strided::from_vec(sum_float::<Complex32>(x, dims, keepdim), &shape)?
        }
        DType::Complex128 if x.storage.is_host() && x.numel() > 0 => {
            Strided::from_vec(sum_float::<Complex64>(x, dims, keepdim), &shape)?
        }
        DType::Complex64 => {
            let (v, _) = fold::<Complex32, Complex64>(x, dims, Complex64::default(), |a, v| {
                a + Complex64::new(v.re as f64, v.im as f64)
            })?;
            Strided::from_vec(
                v.into_iter()
                    .map(|a| Complex32::new(a.re as f32, a.im as f32))
                    .collect::<Vec<_>>(),
                &shape,
            )?
        }
        DType::Complex128 => Strided::from_vec(
            fold::<Complex64, Complex64>(x, dims, Complex64::default(), |a, v| a + v)?.0,
            &shape,
        )?,
        DType::Bool => Strided::from_vec(
            fold::<bool, i64>(x, dims, 0, |a, v| a + v as i64)?.0,
            &shape,
        )?,
        DType::UInt8 => {
            Strided::from_vec(fold::<u8, i64>(x, dims, 0, |a, v| a + v as i64)?.0, &shape)?
        }
        DType::Int32 => Strided::from_vec(
            fold::<i32, i64>(x, dims, 0, |a, v| a.wrapping_add(v as i64))?.0,
            &shape,
        )?,
        DType::Int16 => Strided::from_vec(
            fold::<i16, i64>(x, dims, 0, |a, v| a.wrapping_add(v as i64))?.0,
            &shape,
        )?,
        DType::Int8 => Strided::from_vec(
            fold::<i8, i64>(x, dims, 0, |a, v| a.wrapping_add(v as i64))?.0,
            &shape,
        )?,
        DType::Int64 => Strided::from_vec(
            fold::<i64, i64>(x, dims, 0, |a, v| a.wrapping_add(v))?.0,
            &shape,
        )?,
        DType::UInt16 => Strided::from_vec(
            fold::<u16, i64>(x, dims, 0, |a, v| a.wrapping_add(v as i64))?.0,
            &shape,
        )?,
        DType::UInt32 => Strided::from_vec(
            fold::<u32, i64>(x, dims, 0, |a, v| a.wrapping_add(v as i64))?.0,
            &shape,
        )?,
        DType::UInt64 => Strided::from_vec(
            fold::<u64, i64>(x, dims, 0, |a, v| a.wrapping_add(v as i64))?.0,
            &shape,
        )?,
    })
}

/// The float32 sum through [`fold`] (devices without a host slice report their error there).
fn sum_fold_f32(x: &Strided, dims: &[usize], shape: &[usize]) -> Result<Strided> {
    let (v, _) = fold::<f32, f64>(x, dims, 0.0, |a, v| a + v as f64)?;
    Strided::from_vec(v.into_iter().map(|a| a as f32).collect::<Vec<_>>(), shape)
}

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
    x: &Strided,
    dims: &[usize],
    init: A,
    f: impl Fn(A, T) -> A,
) -> crate::Result<(Vec<A>, Shape)> {
    let d = x;
    if d.storage.device().is_meta() {
        return Err(crate::error::no_meta_kernel());
    }
    if d.storage.is_cuda() {
        return Err(crate::error::no_cuda_kernel("this reduction"));
    }
    let (oshape, ostr) = reduce_layout(&d.shape, dims);
    let n_out = super::checked_numel(&oshape)?;
    if let Some(blocks) = as_blocks(d, dims)? {
        // row-major [outer, red, inner]: slot (o, j) folds its elements in index order, as the
        // odometer below does, with the inner dim as the vectorisable loop
        let (outer, red, inner) = blocks.dims;
        let mut acc: Vec<A> = super::alloc_vec(n_out)?;
        acc.resize(n_out, init);
        // SAFETY: T matches the dtype; `blocks.x` is contiguous.
        let s = unsafe { blocks.x.contiguous_slice::<T>().expect("contiguous") };
        if inner == 1 {
            for (o, slot) in acc.iter_mut().enumerate() {
                let mut a = init;
                for &v in &s[o * red..(o + 1) * red] {
                    a = f(a, v);
                }
                *slot = a;
            }
        } else {
            for o in 0..outer {
                let row = &mut acc[o * inner..(o + 1) * inner];
                for r in 0..red {
                    let src = &s[(o * red + r) * inner..(o * red + r + 1) * inner];
                    for (a, &v) in row.iter_mut().zip(src) {
                        *a = f(*a, v);
                    }
                }
            }
        }
        return Ok((acc, oshape));
    }
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

/// A reduction's input seen as row-major [outer, red, inner] (`red` the reduced elements of
/// each output slot), made contiguous with the reduced dims moved together when they are not
/// (one copy, far cheaper than an odometer over every element). None for an input with no
/// elements or a device other than the host.
struct Blocks {
    x: Strided,
    dims: (usize, usize, usize),
}

fn as_blocks(x: &Strided, dims: &[usize]) -> Result<Option<Blocks>> {
    let shape = &x.shape;
    let nd = shape.len();
    if !x.storage.is_host() || x.numel() == 0 || nd == 0 {
        return Ok(None);
    }
    let run = dims.windows(2).all(|w| w[1] == w[0] + 1);
    if x.is_contiguous() && run {
        let (d0, d1) = match (dims.first(), dims.last()) {
            (Some(&a), Some(&b)) => (a, b + 1),
            _ => (nd, nd),
        };
        let prod = |r: &[usize]| r.iter().product::<usize>();
        return Ok(Some(Blocks {
            x: x.clone(),
            dims: (prod(&shape[..d0]), prod(&shape[d0..d1]), prod(&shape[d1..])),
        }));
    }
    // the kept dims in order, then the reduced ones: the copy is [kept..., reduced...]
    let perm: Vec<usize> = (0..nd)
        .filter(|d| !dims.contains(d))
        .chain(dims.iter().copied())
        .collect();
    let pshape: Vec<usize> = perm.iter().map(|&d| shape[d]).collect();
    let pstrides: Vec<isize> = perm.iter().map(|&d| x.strides[d]).collect();
    let copy = x.restrided(&pshape, &pstrides, x.offset).contiguous()?;
    let red: usize = dims.iter().map(|&d| shape[d]).product();
    Ok(Some(Blocks {
        dims: (x.numel() / red.max(1), red, 1),
        x: copy,
    }))
}

/// The float or complex sum over `dims` of a host tensor in PyTorch's order (`reduce_iter.rs`).
fn sum_float<T: Cascade + Element>(x: &Strided, dims: &[usize], keepdim: bool) -> Vec<T> {
    let reduced: SmallVec<[bool; 6]> = (0..x.shape.len()).map(|d| dims.contains(&d)).collect();
    // SAFETY: T matches the dtype; the view lies inside its storage.
    let s = unsafe { x.storage.slice::<T>() };
    super::reduce_iter::sum(s, x.offset, &x.shape, &x.strides, &reduced, keepdim)
}

/// Index of the max (or min) along `dim` with its value; NaN wins, as in PyTorch.
pub fn arg_extreme<T: Element + PartialOrd>(
    x: &Strided,
    dim: usize,
    max: bool,
) -> crate::Result<(Vec<T>, Vec<i64>, Shape)> {
    let d = x;
    if d.storage.device().is_meta() {
        return Err(crate::error::no_meta_kernel());
    }
    if d.storage.is_cuda() {
        return Err(crate::error::no_cuda_kernel(
            "argmax/argmin and max/min with a dim",
        ));
    }
    let (oshape, _) = reduce_layout(&d.shape, &[dim]);
    let n_out = numel(&oshape);
    #[allow(clippy::eq_op)]
    let is_nan = |a: T| a != a;
    // does v replace cur? the first NaN wins, then the first strict extreme
    let better = |v: T, cur: T| !is_nan(cur) && (is_nan(v) || if max { v > cur } else { v < cur });
    if d.shape[dim] > 0 {
        if let Some(blocks) = as_blocks(d, &[dim])? {
            let (outer, red, inner) = blocks.dims;
            // SAFETY: T matches the dtype; `blocks.x` is contiguous.
            let s = unsafe { blocks.x.contiguous_slice::<T>().expect("contiguous") };
            let mut vals: Vec<T> = Vec::with_capacity(n_out);
            let mut idx = vec![0i64; n_out];
            for o in 0..outer {
                let base = o * red * inner;
                vals.extend_from_slice(&s[base..base + inner]);
                let (vrow, irow) = (
                    &mut vals[o * inner..(o + 1) * inner],
                    &mut idx[o * inner..(o + 1) * inner],
                );
                for r in 1..red {
                    let src = &s[base + r * inner..base + (r + 1) * inner];
                    for ((cur, k), &v) in vrow.iter_mut().zip(irow.iter_mut()).zip(src) {
                        if better(v, *cur) {
                            *cur = v;
                            *k = r as i64;
                        }
                    }
                }
            }
            return Ok((vals, idx, oshape));
        }
    }
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
            let replace = match *slot {
                None => true,
                Some(cur) => better(v, cur),
            };
            if replace {
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
