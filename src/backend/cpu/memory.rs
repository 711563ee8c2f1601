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
                    // Walk the outer dims with the odometer and the last dim in a tight loop,
                    // after merging the dims that are one run in both layouts (a broadcast
                    // gradient copied into a contiguous tensor is then a single loop).
                    let (shape, dstr, sstr) = coalesce(&shape, &dd.strides, it.strides_of(1));
                    let nd = shape.len();
                    let (inner, so, si) = (shape[nd - 1], dstr[nd - 1], sstr[nd - 1]);
                    let mut outer = MultiIndex::new(
                        &shape[..nd - 1],
                        [dstr[..nd - 1].into(), sstr[..nd - 1].into()],
                        [dd.offset as isize, ds.offset as isize],
                    );
                    while let Some([o, i]) = outer.next_offsets() {
                        if so == 1 && si == 0 {
                            // a broadcast value: a fill the compiler vectorises
                            let v = convert::<S, D>(inp[i as usize]);
                            out[o as usize..o as usize + inner].fill(v);
                            continue;
                        }
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

/// Merges adjacent dims that are one run in both layouts, and drops size-1 dims
/// (TensorIterator's coalescing): (shape, strides of `a`, strides of `b`), at least one dim.
fn coalesce(shape: &[usize], a: &[isize], b: &[isize]) -> (Vec<usize>, Vec<isize>, Vec<isize>) {
    let (mut sh, mut sa, mut sb): (Vec<usize>, Vec<isize>, Vec<isize>) = (vec![], vec![], vec![]);
    for d in 0..shape.len() {
        if shape[d] == 1 {
            continue;
        }
        if let Some(last) = sh.len().checked_sub(1) {
            let len = shape[d] as isize;
            if sa[last] == a[d] * len && sb[last] == b[d] * len {
                sh[last] *= shape[d];
                sa[last] = a[d];
                sb[last] = b[d];
                continue;
            }
        }
        sh.push(shape[d]);
        sa.push(a[d]);
        sb.push(b[d]);
    }
    if sh.is_empty() {
        (vec![1], vec![0], vec![0])
    } else {
        (sh, sa, sb)
    }
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

#[cfg(test)]
mod tests {
    use super::coalesce;

    #[test]
    fn coalesce_merges_runs_in_both_layouts() {
        // a broadcast scalar into a contiguous [2, 3, 4]: one loop of 24
        assert_eq!(
            coalesce(&[2, 3, 4], &[12, 4, 1], &[0, 0, 0]),
            (vec![24], vec![1], vec![0])
        );
        // a transposed source keeps both dims; size-1 dims drop out
        assert_eq!(
            coalesce(&[3, 1, 2], &[2, 2, 1], &[1, 9, 3]),
            (vec![3, 2], vec![2, 1], vec![1, 3])
        );
        // a mask broadcast over the leading dims: the leading dims merge, the rows stay
        assert_eq!(
            coalesce(&[2, 4, 16, 16], &[1024, 256, 16, 1], &[0, 0, 16, 1]),
            (vec![8, 256], vec![256, 1], vec![0, 1])
        );
        assert_eq!(
            coalesce(&[1, 1], &[1, 1], &[1, 1]),
            (vec![1], vec![0], vec![0])
        );
    }
}
