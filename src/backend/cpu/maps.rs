//! Strided elementwise loops: `map1`/`map2` over one or two tensors (broadcast, in PyTorch's
//! result layout, split over threads for large tensors), and `map2_into` for `out=`.
use super::{alloc_vec, host_only, layout};
use crate::backend::Strided;
use crate::dtype::Element;
use crate::error::Result;
use crate::shape::{broadcast_strides, checked_numel, MultiIndex};

/// A new contiguous tensor of `shape`, each element `f(input elements...)`.
/// SAFETY of the unsafe blocks below: every `T`/`U` is chosen by the caller to match the dtypes.
/// Element counts from which a loop is split over threads (small tensors never pay for them).
const PARALLEL_FROM: usize = 1 << 16;

/// Threads for an n-element loop: all cores (up to 8) from PARALLEL_FROM elements, else one.
fn threads_for(n: usize) -> usize {
    if n >= PARALLEL_FROM {
        std::thread::available_parallelism()
            .map(|p| p.get())
            .unwrap_or(1)
            .min(8)
    } else {
        1
    }
}

/// Fill `out` with n elements: `fill(start, part)` writes `part` = out[start..start+len], on
/// all cores for large outputs.
fn fill_par<U: Element>(
    out: &mut Vec<U>,
    n: usize,
    fill: impl Fn(usize, &mut [std::mem::MaybeUninit<U>]) + Sync,
) {
    let threads = threads_for(n);
    let spare = &mut out.spare_capacity_mut()[..n];
    if threads <= 1 {
        fill(0, spare);
    } else {
        let chunk = n.div_ceil(threads);
        std::thread::scope(|sc| {
            for (k, part) in spare.chunks_mut(chunk).enumerate() {
                let fill = &fill;
                sc.spawn(move || fill(k * chunk, part));
            }
        });
    }
    // SAFETY: every one of the first n slots was written above.
    unsafe { out.set_len(n) };
}

pub fn map1<T: Element, U: Element>(x: &Strided, f: impl Fn(T) -> U + Sync) -> Result<Strided> {
    let ord = {
        let d = x;
        host_only(&[d])?;
        if d.is_contiguous() {
            None
        } else {
            layout::result_strides(&d.shape, &[(&d.shape, &d.strides)])
        }
    };
    match ord {
        None => map1_rowmajor(x, f),
        Some(st) => {
            let shape = x.shape();
            layout::run_with_strides(&shape, &st, &[x], |ins, _| map1_rowmajor(&ins[0], f))
        }
    }
}

fn map1_rowmajor<T: Element, U: Element>(
    x: &Strided,
    f: impl Fn(T) -> U + Sync,
) -> Result<Strided> {
    let d = x;
    let n = d.numel();
    let mut out: Vec<U> = alloc_vec(n)?;
    unsafe {
        if let Some(s) = d.contiguous_slice::<T>() {
            fill_par(&mut out, n, |start, part| {
                let end = start + part.len();
                for (o, &v) in part.iter_mut().zip(&s[start..end]) {
                    o.write(f(v));
                }
            });
        } else {
            let src = d.storage.slice::<T>();
            let mut it = MultiIndex::new(&d.shape, [d.strides.clone()], [d.offset as isize]);
            while let Some([o]) = it.next_offsets() {
                out.push(f(src[o as usize]));
            }
        }
    }
    Strided::from_vec(out, &d.shape)
}

/// Elementwise over two tensors of element types A and B, broadcast to `shape`.
pub fn map2<A: Element, B: Element, U: Element>(
    a: &Strided,
    b: &Strided,
    shape: &[usize],
    f: impl Fn(A, B) -> U + Sync,
) -> Result<Strided> {
    let ord = {
        let (da, db) = (a, b);
        host_only(&[da, db])?;
        if da.is_contiguous() && db.is_contiguous() {
            None
        } else {
            layout::result_strides(shape, &[(&da.shape, &da.strides), (&db.shape, &db.strides)])
        }
    };
    match ord {
        None => map2_rowmajor(a, b, shape, f),
        Some(st) => layout::run_with_strides(shape, &st, &[a, b], |ins, ps| {
            map2_rowmajor(&ins[0], &ins[1], ps, f)
        }),
    }
}

fn map2_rowmajor<A: Element, B: Element, U: Element>(
    a: &Strided,
    b: &Strided,
    shape: &[usize],
    f: impl Fn(A, B) -> U + Sync,
) -> Result<Strided> {
    let (da, db) = (a, b);
    let n = checked_numel(shape)?;
    let mut out: Vec<U> = alloc_vec(n)?;
    unsafe {
        let same = da.shape.as_slice() == shape && db.shape.as_slice() == shape;
        match (same, da.contiguous_slice::<A>(), db.contiguous_slice::<B>()) {
            (true, Some(sa), Some(sb)) => {
                fill_par(&mut out, n, |start, part| {
                    let end = start + part.len();
                    for ((o, &x), &y) in part.iter_mut().zip(&sa[start..end]).zip(&sb[start..end]) {
                        o.write(f(x, y));
                    }
                });
            }
            _ => {
                if da.numel() == 1 && db.shape.as_slice() == shape {
                    if let Some(sb) = db.contiguous_slice::<B>() {
                        let x = da.storage.slice::<A>()[da.offset];
                        out.extend(sb.iter().map(|&y| f(x, y)));
                        return Strided::from_vec(out, shape);
                    }
                }
                if db.numel() == 1 && da.shape.as_slice() == shape {
                    if let Some(sa) = da.contiguous_slice::<A>() {
                        let y = db.storage.slice::<B>()[db.offset];
                        out.extend(sa.iter().map(|&x| f(x, y)));
                        return Strided::from_vec(out, shape);
                    }
                }
                let (sa, sb) = (da.storage.slice::<A>(), db.storage.slice::<B>());
                let (ta, tb) = (
                    broadcast_strides(&da.shape, &da.strides, shape),
                    broadcast_strides(&db.shape, &db.strides, shape),
                );
                if shape.is_empty() {
                    out.push(f(sa[da.offset], sb[db.offset]));
                } else {
                    // Odometer over the outer dims, a tight loop over the last one.
                    let nd = shape.len();
                    let (inner, ia, ib) = (shape[nd - 1], ta[nd - 1], tb[nd - 1]);
                    let mut it = MultiIndex::new(
                        &shape[..nd - 1],
                        [ta[..nd - 1].into(), tb[..nd - 1].into()],
                        [da.offset as isize, db.offset as isize],
                    );
                    while let Some([oa, ob]) = it.next_offsets() {
                        for k in 0..inner as isize {
                            out.push(f(sa[(oa + k * ia) as usize], sb[(ob + k * ib) as usize]));
                        }
                    }
                }
            }
        }
    }
    Strided::from_vec(out, shape)
}

/// `out = f(a, b)` written straight into `out`'s memory, for contiguous same-shape operands
/// (the `out=` fast path). Returns false (nothing written) when the layouts do not allow it.
pub fn map2_into<T: Element>(
    a: &Strided,
    b: &Strided,
    out: &Strided,
    f: impl Fn(T, T) -> T + Sync,
) -> bool {
    let (da, db, dout) = (a, b, out);
    if !da.storage.is_host() || !db.storage.is_host() || !dout.storage.is_host() {
        return false;
    }
    if da.shape != dout.shape || db.shape != dout.shape || !dout.is_contiguous() {
        return false;
    }
    // SAFETY: T matches the dtypes (checked by the caller); ranges lie inside the storages;
    // the output does not alias an input (checked).
    unsafe {
        let (Some(sa), Some(sb)) = (da.contiguous_slice::<T>(), db.contiguous_slice::<T>()) else {
            return false;
        };
        if std::ptr::eq(dout.storage.as_ptr(), da.storage.as_ptr())
            || std::ptr::eq(dout.storage.as_ptr(), db.storage.as_ptr())
        {
            return false;
        }
        let n = dout.numel();
        if n == 0 {
            return true;
        }
        let o = &mut dout.storage.slice_mut::<T>()[dout.offset..dout.offset + n];
        let threads = threads_for(n);
        let chunk = n.div_ceil(threads).max(1);
        std::thread::scope(|sc| {
            for (k, part) in o.chunks_mut(chunk).enumerate() {
                let f = &f;
                let (xa, xb) = (
                    &sa[k * chunk..k * chunk + part.len()],
                    &sb[k * chunk..k * chunk + part.len()],
                );
                sc.spawn(move || {
                    for ((o, &x), &y) in part.iter_mut().zip(xa).zip(xb) {
                        *o = f(x, y);
                    }
                });
            }
        });
    }
    true
}
