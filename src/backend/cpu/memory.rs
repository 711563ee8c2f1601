//! Memory on the host: copies and casts between layouts and dtypes (`copy_into`, `convert`),
//! fills, and selects by a mask (`fill_where`, `copy_where`, `where_`).
use super::{host_only, layout};
use crate::backend::Strided;
use crate::dtype::Element;
use crate::error::Result;
use crate::shape::{broadcast_shapes, broadcast_strides, MultiIndex};
use num_complex::Complex64;

/// Write `src` (broadcast to dst's shape, converted to dst's dtype) into `dst` in place; both
/// in host memory.
pub fn copy_into(dst: &Strided, src: &Strided) -> Result<()> {
    let (dd, ds) = (dst, src);
    host_only(&[dd, ds])?;
    let shape = dd.shape.clone();
    let n = dd.numel();
    if n == 0 {
        return Ok(());
    }
    let same_layout = ds.shape == shape && dd.is_contiguous() && ds.is_contiguous();
    let overlap = std::ptr::eq(dd.storage.as_ptr(), ds.storage.as_ptr());
    if same_layout && !overlap {
        // The common case (in-place ops, casts, clones): one pass over two flat slices.
        crate::with_dtype!(dd.dtype, D, {
            crate::with_dtype!(ds.dtype, S, {
                // SAFETY: D and S match the dtypes; both ranges lie inside their storages.
                unsafe {
                    let out = &mut dd.storage.slice_mut::<D>()[dd.offset..dd.offset + n];
                    let inp = &ds.storage.slice::<S>()[ds.offset..ds.offset + n];
                    if D::DTYPE == S::DTYPE {
                        std::ptr::copy_nonoverlapping(
                            inp.as_ptr() as *const D,
                            out.as_mut_ptr(),
                            n,
                        );
                    } else {
                        for (o, &i) in out.iter_mut().zip(inp) {
                            *o = convert::<S, D>(i);
                        }
                    }
                }
            })
        });
        return Ok(());
    }
    let sstr = broadcast_strides(&ds.shape, &ds.strides, &shape);
    crate::with_dtype!(dd.dtype, D, {
        crate::with_dtype!(ds.dtype, S, {
            // SAFETY: D and S match the dtypes; offsets come from valid layouts.
            unsafe {
                let out = dd.storage.slice_mut::<D>();
                let inp = ds.storage.slice::<S>();
                let mut it = MultiIndex::new(
                    &shape,
                    [dd.strides.clone(), sstr],
                    [dd.offset as isize, ds.offset as isize],
                );
                // Read everything first when the two overlap (x.copy_(x.t())).
                if std::ptr::eq(dd.storage.as_ptr(), ds.storage.as_ptr()) {
                    let mut vals: Vec<(usize, D)> = Vec::with_capacity(dd.numel());
                    while let Some([o, i]) = it.next_offsets() {
                        vals.push((o as usize, convert::<S, D>(inp[i as usize])));
                    }
                    for (o, v) in vals {
                        out[o] = v;
                    }
                } else if shape.is_empty() {
                    out[dd.offset] = convert::<S, D>(inp[ds.offset]);
                } else {
                    // Walk the outer dims with the odometer and the last dim in a tight loop.
                    let nd = shape.len();
                    let (inner, so, si) = (shape[nd - 1], dd.strides[nd - 1], it_last_stride(&it));
                    let mut outer = MultiIndex::new(
                        &shape[..nd - 1],
                        [dd.strides[..nd - 1].into(), it_outer_strides(&it)],
                        [dd.offset as isize, ds.offset as isize],
                    );
                    while let Some([o, i]) = outer.next_offsets() {
                        for k in 0..inner as isize {
                            out[(o + k * so) as usize] =
                                convert::<S, D>(inp[(i + k * si) as usize]);
                        }
                    }
                }
            }
        })
    });
    Ok(())
}

fn it_last_stride(it: &MultiIndex<2>) -> isize {
    *it.strides_of(1).last().expect("non-empty shape")
}

fn it_outer_strides(it: &MultiIndex<2>) -> crate::shape::Strides {
    let s = it.strides_of(1);
    s[..s.len() - 1].into()
}

#[inline(always)]
pub fn convert<S: Element, D: Element>(v: S) -> D {
    if S::DTYPE == D::DTYPE {
        // SAFETY: same type.
        unsafe { std::mem::transmute_copy::<S, D>(&v) }
    } else if S::DTYPE.is_complex() || D::DTYPE.is_complex() {
        D::from_c64(v.to_c64())
    } else if let (Some(i), true) = (v.int_value(), D::from_int(0).is_some()) {
        // integer to integer: wraps, as C++'s static_cast (no trip through f64)
        D::from_int(i).unwrap_or_default()
    } else {
        D::from_f64(v.to_f64())
    }
}

/// Every element of host tensor `t` (a view, maybe) set to `value`.
pub fn fill(t: &Strided, value: Complex64) -> Result<()> {
    let d = t;
    host_only(&[d])?;
    if d.numel() == 0 {
        return Ok(());
    }
    crate::with_dtype!(d.dtype, T, {
        let v = T::from_c64(value);
        // SAFETY: T matches dtype.
        unsafe {
            let out = d.storage.slice_mut::<T>();
            if d.is_contiguous() {
                out[d.offset..d.offset + d.numel()].fill(v);
            } else {
                let mut it = MultiIndex::new(&d.shape, [d.strides.clone()], [d.offset as isize]);
                while let Some([o]) = it.next_offsets() {
                    out[o as usize] = v;
                }
            }
        }
    });
    Ok(())
}

/// `t[mask] = value` in place (mask already broadcast to t's shape, contiguous t). A mask that
/// is contiguous once its leading broadcast (stride-0) dims are dropped, as an attention mask
/// [1, 1, T, T] expanded over batch and heads, is read in place, repeated; any other is copied
/// row-major first.
pub fn fill_where(t: &Strided, mask: &Strided, value: Complex64) -> Result<()> {
    let mb = mask.broadcast_to(&t.shape())?;
    let lead = mb.strides.iter().take_while(|&&s| s == 0).count();
    let inner = mb.restrided(&mb.shape[lead..], &mb.strides[lead..], mb.offset);
    let owned = if inner.is_contiguous() {
        inner
    } else {
        mb.contiguous()?
    };
    // SAFETY: bool matches the mask's dtype; `owned` is contiguous (checked or made so).
    let m = unsafe { owned.contiguous_slice::<bool>() }
        .ok_or_else(|| crate::error::Error::Runtime("fill_where: a host mask".into()))?;
    // the mask's elements repeat every `period` elements of t
    let period = m.len();
    let d = t;
    if period == 0 || d.numel() == 0 {
        return Ok(());
    }
    crate::with_dtype!(d.dtype, T, {
        let v = T::from_c64(value);
        // SAFETY: T matches dtype; t is a fresh contiguous tensor.
        let out = unsafe { &mut d.storage.slice_mut::<T>()[d.offset..d.offset + d.numel()] };
        for chunk in out.chunks_mut(period) {
            for (o, &b) in chunk.iter_mut().zip(m) {
                // a select, not a branch: the loop vectorises
                *o = if b { v } else { *o };
            }
        }
    });
    Ok(())
}

/// `out = where(cond, src, out)` for contiguous `out` and `src` of out's shape and dtype.
pub fn copy_where(out: &Strided, cond: &Strided, src: &Strided) -> Result<()> {
    let m = cond.contiguous()?.try_to_vec::<bool>()?;
    let src = src.cast(out.dtype())?;
    let d = out;
    crate::with_dtype!(d.dtype, T, {
        let s = src.try_to_vec::<T>()?;
        // SAFETY: T matches dtype; out is contiguous with numel elements from offset.
        let o = unsafe { &mut d.storage.slice_mut::<T>()[d.offset..d.offset + d.numel()] };
        for ((o, &b), &v) in o.iter_mut().zip(&m).zip(&s) {
            if b {
                *o = v;
            }
        }
    });
    Ok(())
}

/// `cond ? a : b` broadcast, a and b of one dtype, in PyTorch's result layout.
pub fn where_(cond: &Strided, a: &Strided, b: &Strided) -> Result<Strided> {
    let shape = broadcast_shapes(&broadcast_shapes(&cond.shape(), &a.shape())?, &b.shape())?;
    let rowmajor = |c: &Strided, a: &Strided, b: &Strided, shape: &[usize]| -> Result<Strided> {
        let out = b.broadcast_to(shape)?.contiguous()?;
        let av = a.broadcast_to(shape)?.contiguous()?;
        copy_where(&out, &c.broadcast_to(shape)?, &av)?;
        Ok(out)
    };
    let ord = if [cond, a, b].iter().all(|t| t.is_contiguous()) && !shape.contains(&0) {
        None
    } else {
        let ds = [cond, a, b];
        let ops: Vec<(&[usize], &[isize])> =
            ds.iter().map(|d| (&d.shape[..], &d.strides[..])).collect();
        layout::result_strides(&shape, &ops)
    };
    match ord {
        None => rowmajor(cond, a, b, &shape),
        Some(st) => layout::run_with_strides(&shape, &st, &[cond, a, b], |i, ps| {
            rowmajor(&i[0], &i[1], &i[2], ps)
        }),
    }
}
