//! Strided elementwise loops: `map1`/`map2` over one or two tensors (broadcast, in PyTorch's
//! result layout, split over threads for large tensors), and `map2_into` for `out=`.
use super::{alloc_vec, host_only, layout, parallel};
use crate::backend::Strided;
use crate::dtype::Element;
use crate::error::Result;
use crate::shape::{broadcast_strides, checked_numel, MultiIndex};

// A new contiguous tensor of `shape`, each element `f(input elements...)`.
// SAFETY of the unsafe blocks below: every `T`/`U` is chosen by the caller to match the dtypes.

/// Fill `out` with n elements: `fill(start, part)` writes `part` = out[start..start+len], on
/// the worker pool for large outputs.
fn fill_par<U: Element>(
    out: &mut Vec<U>,
    n: usize,
    fill: impl Fn(usize, &mut [std::mem::MaybeUninit<U>]) + Sync,
) {
    let spare = &mut out.spare_capacity_mut()[..n];
    parallel::fill_chunks(spare, parallel::GRAIN, fill);
    // SAFETY: every one of the first n slots was written above.
    unsafe { out.set_len(n) };
}

/// Runs `body` compiled for AVX-512 (16 floats, 8 doubles at a time) or for AVX2 and FMA (8
/// floats) when the CPU has them, else as is: an elementwise loop inside becomes vector code of
/// that width. The results are the same on every path: Rust never fuses a multiply and an add
/// on its own, `mul_add` is exact in all, and the vector units round as the scalar ones. The
/// wide registers matter for the float32 functions computed in float64 (`vmath`).
#[inline(always)]
pub(crate) fn vectorised<R>(body: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw,avx2,fma")]
        unsafe fn wide<R>(body: impl FnOnce() -> R) -> R {
            body()
        }
        #[target_feature(enable = "avx2,fma")]
        unsafe fn fast<R>(body: impl FnOnce() -> R) -> R {
            body()
        }
        match simd_tier() {
            // SAFETY: the CPU has the features each function was compiled for.
            2 => return unsafe { wide(body) },
            1 => return unsafe { fast(body) },
            _ => {}
        }
    }
    body()
}

/// [`vectorised`] for a loop over `n` elements in all (its chunks may run on several threads):
/// above about a million elements the loop is bound by memory, not arithmetic, and AVX-512 code
/// only costs clock speed (exp of 16M floats on 2 threads: ~10% slower than with AVX2; of 131072,
/// ~25% faster), so those keep the AVX2 loops.
#[inline(always)]
pub(crate) fn vectorised_len<R>(n: usize, body: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    {
        if n > WIDE_MAX_LEN && simd_tier() == 2 {
            #[target_feature(enable = "avx2,fma")]
            unsafe fn fast<R>(body: impl FnOnce() -> R) -> R {
                body()
            }
            // SAFETY: tier 2 includes AVX2 and FMA.
            return unsafe { fast(body) };
        }
    }
    let _ = n;
    vectorised(body)
}

/// Does this CPU run the AVX-512 loops (PyTorch's AVX512 capability)?
pub(crate) fn wide_simd() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        simd_tier() == 2
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The largest loop (elements) that runs AVX-512 code (see [`vectorised_len`]).
const WIDE_MAX_LEN: usize = 1 << 20;

/// 2: AVX-512 (F, VL, DQ, BW) with AVX2 and FMA; 1: AVX2 and FMA; 0: neither. Detected once.
/// `LEAFGRAD_NO_AVX512=1` keeps the AVX2 loops (to compare the two).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn simd_tier() -> u8 {
    static TIER: std::sync::OnceLock<u8> = std::sync::OnceLock::new();
    *TIER.get_or_init(|| {
        use std::arch::is_x86_feature_detected as has;
        let avx2 = has!("avx2") && has!("fma");
        let avx512 = has!("avx512f") && has!("avx512vl") && has!("avx512dq") && has!("avx512bw");
        match (avx2, avx512) {
            (true, true) if std::env::var("LEAFGRAD_NO_AVX512").as_deref() != Ok("1") => 2,
            (true, _) => 1,
            _ => 0,
        }
    })
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
                vectorised_len(
                    n,
                    #[inline(always)]
                    || {
                        for (o, &v) in part.iter_mut().zip(&s[start..end]) {
                            o.write(f(v));
                        }
                    },
                )
            });
        } else {
            let src = d.storage.slice::<T>();
            let mut it = MultiIndex::new(&d.shape, [d.strides.clone()], [d.offset as isize]);
            vectorised_len(
                n,
                #[inline(always)]
                || {
                    while let Some([o]) = it.next_offsets() {
                        out.push(f(src[o as usize]));
                    }
                },
            );
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
        // (an empty result of broadcast operands takes TensorIterator's order: a size-0 dim
        // zeroes the strides outside it)
        if da.is_contiguous() && db.is_contiguous() && !shape.contains(&0) {
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
                    vectorised_len(
                        n,
                        #[inline(always)]
                        || {
                            for ((o, &x), &y) in
                                part.iter_mut().zip(&sa[start..end]).zip(&sb[start..end])
                            {
                                o.write(f(x, y));
                            }
                        },
                    )
                });
            }
            _ => {
                if da.numel() == 1 && db.shape.as_slice() == shape {
                    if let Some(sb) = db.contiguous_slice::<B>() {
                        let x = da.storage.slice::<A>()[da.offset];
                        vectorised_len(
                            n,
                            #[inline(always)]
                            || out.extend(sb.iter().map(|&y| f(x, y))),
                        );
                        return Strided::from_vec(out, shape);
                    }
                }
                if db.numel() == 1 && da.shape.as_slice() == shape {
                    if let Some(sa) = da.contiguous_slice::<A>() {
                        let y = db.storage.slice::<B>()[db.offset];
                        vectorised_len(
                            n,
                            #[inline(always)]
                            || out.extend(sa.iter().map(|&x| f(x, y))),
                        );
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
                    // Rows of the last dim, split over the pool; an odometer over the outer
                    // dims within each part, and a tight loop over the last one (contiguous or
                    // broadcast operands get their own vectorisable loops).
                    let nd = shape.len();
                    let (inner, ia, ib) = (shape[nd - 1], ta[nd - 1], tb[nd - 1]);
                    let outer = &shape[..nd - 1];
                    let (ta, tb) = (&ta[..nd - 1], &tb[..nd - 1]);
                    let rows = n.checked_div(inner).unwrap_or(0);
                    let (oa0, ob0) = (da.offset as isize, db.offset as isize);
                    let spare = out.spare_capacity_mut().as_mut_ptr() as usize;
                    let grain = parallel::GRAIN.div_ceil(inner.max(1));
                    parallel::parallel_for(rows, grain, |r0, r1| {
                        // the outer index of row r0
                        let mut idx = vec![0usize; outer.len()];
                        let mut rem = r0;
                        for d in (0..outer.len()).rev() {
                            idx[d] = rem % outer[d];
                            rem /= outer[d];
                        }
                        let (mut oa, mut ob) = (oa0, ob0);
                        for d in 0..outer.len() {
                            oa += idx[d] as isize * ta[d];
                            ob += idx[d] as isize * tb[d];
                        }
                        vectorised_len(
                            n,
                            #[inline(always)]
                            || {
                                for r in r0..r1 {
                                    // SAFETY: rows [r0, r1) of distinct tasks are disjoint parts of the
                                    // output's first n slots, all written here.
                                    let o = std::slice::from_raw_parts_mut(
                                        (spare as *mut std::mem::MaybeUninit<U>).add(r * inner),
                                        inner,
                                    );
                                    match (ia, ib) {
                                        (1, 1) => {
                                            let (xa, xb) = (
                                                &sa[oa as usize..oa as usize + inner],
                                                &sb[ob as usize..ob as usize + inner],
                                            );
                                            for ((o, &x), &y) in o.iter_mut().zip(xa).zip(xb) {
                                                o.write(f(x, y));
                                            }
                                        }
                                        (1, 0) => {
                                            let (xa, y) = (
                                                &sa[oa as usize..oa as usize + inner],
                                                sb[ob as usize],
                                            );
                                            for (o, &x) in o.iter_mut().zip(xa) {
                                                o.write(f(x, y));
                                            }
                                        }
                                        (0, 1) => {
                                            let (x, xb) = (
                                                sa[oa as usize],
                                                &sb[ob as usize..ob as usize + inner],
                                            );
                                            for (o, &y) in o.iter_mut().zip(xb) {
                                                o.write(f(x, y));
                                            }
                                        }
                                        _ => {
                                            for (k, o) in o.iter_mut().enumerate() {
                                                let k = k as isize;
                                                o.write(f(
                                                    sa[(oa + k * ia) as usize],
                                                    sb[(ob + k * ib) as usize],
                                                ));
                                            }
                                        }
                                    }
                                    // the next row: the odometer's step
                                    for d in (0..outer.len()).rev() {
                                        idx[d] += 1;
                                        oa += ta[d];
                                        ob += tb[d];
                                        if idx[d] < outer[d] {
                                            break;
                                        }
                                        oa -= ta[d] * outer[d] as isize;
                                        ob -= tb[d] * outer[d] as isize;
                                        idx[d] = 0;
                                    }
                                }
                            },
                        )
                    });
                    out.set_len(n);
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
        parallel::fill_chunks(o, parallel::GRAIN, |start, part| {
            let end = start + part.len();
            for ((o, &x), &y) in part.iter_mut().zip(&sa[start..end]).zip(&sb[start..end]) {
                *o = f(x, y);
            }
        });
    }
    true
}
