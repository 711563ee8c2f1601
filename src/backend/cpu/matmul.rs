//! Matrix products of 2-D strided operands: faer's GEMM for f32/f64 (the `gemm` family of
//! kernels, AVX-512 where the CPU has it), a plain loop for the other dtypes.
use super::parallel;
use crate::backend::Strided;
use crate::dtype::DType;

/// `a @ b` for 2-D `a` [m, k] and `b` [k, n] of the same dtype; returns a contiguous [m, n].
pub fn mm(a: &Strided, b: &Strided) -> crate::Result<Strided> {
    super::host_only(&[a, b])?;
    let dt = a.dtype();
    if dt.is_half() {
        // Accumulate half-precision products in float32, as PyTorch does.
        let r = mm(&a.cast(DType::Float32)?, &b.cast(DType::Float32)?)?;
        return r.cast(dt);
    }
    let (m, n) = (a.shape[0], b.shape[1]);
    let out = Strided::zeros(&[m, n], a.dtype)?;
    mm_into(a, b, &out, 0, true);
    Ok(out)
}

/// The float types with a GEMM: `c = a @ b + beta c` through faer, on the calling thread.
pub trait Gemm: crate::dtype::Element + std::ops::AddAssign {
    /// `c = a @ b + beta c` for the (pointer, row stride, column stride) operands.
    ///
    /// # Safety
    /// The triples describe valid [m, k], [k, n] and [m, n] layouts; `c` aliases neither input.
    unsafe fn gemm(
        mkn: (usize, usize, usize),
        a: (*const Self, isize, isize),
        b: (*const Self, isize, isize),
        beta: Self,
        c: (*mut Self, isize, isize),
    );
}

macro_rules! impl_gemm {
    ($T:ty) => {
        impl Gemm for $T {
            unsafe fn gemm(
                (m, k, n): (usize, usize, usize),
                a: (*const $T, isize, isize),
                b: (*const $T, isize, isize),
                beta: $T,
                c: (*mut $T, isize, isize),
            ) {
                use faer::{Accum, MatMut, MatRef, Par};
                let lhs = MatRef::from_raw_parts(a.0, m, k, a.1, a.2);
                let rhs = MatRef::from_raw_parts(b.0, k, n, b.1, b.2);
                let mut dst = MatMut::from_raw_parts_mut(c.0, m, n, c.1, c.2);
                let accum = if beta == 0.0 {
                    Accum::Replace
                } else {
                    if beta != 1.0 {
                        dst.copy_from(&(&dst * faer::Scale(beta)));
                    }
                    Accum::Add
                };
                faer::linalg::matmul::matmul(dst, accum, lhs, rhs, 1.0, Par::Seq);
            }
        }
    };
}
impl_gemm!(f32);
impl_gemm!(f64);

/// One GEMM block `c = a @ b` from raw addresses and element offsets (the pool's tasks carry
/// addresses as integers).
///
/// # Safety
/// The addresses, offsets and strides describe valid layouts of `T` elements; `c` aliases
/// neither input.
unsafe fn gemm_at<T: Gemm>(
    (pa, pb, pc): (usize, usize, usize),
    (oa, ob, oc): (isize, isize, usize),
    mkn: (usize, usize, usize),
    (rsa, csa, rsb, csb): (isize, isize, isize, isize),
    ldc: isize,
) {
    T::gemm(
        mkn,
        ((pa as *const T).offset(oa), rsa, csa),
        ((pb as *const T).offset(ob), rsb, csb),
        T::default(),
        ((pc as *mut T).add(oc), ldc, 1),
    );
}

/// Multiply-adds per task below which a product is not split over the pool.
const GEMM_GRAIN: usize = 1 << 18;

/// `out[off..]` (row-major [m, n], rows `n` apart) = `a @ b` for 2-D `a` [m, k], `b` [k, n] of
/// out's dtype (not a half: those are widened first). With `split`, a large product is cut into
/// row blocks (or column blocks, when it is wider than tall) over the worker pool, each a GEMM.
fn mm_into(da: &Strided, db: &Strided, dout: &Strided, off: usize, split: bool) {
    let (m, k, n) = (da.shape[0], da.shape[1], db.shape[1]);
    if m == 0 || n == 0 {
        return;
    }
    // raw addresses travel to the pool's threads as integers; each block writes its own rows
    // (or columns) of the output
    let (pa, pb, pc) = (
        da.storage.as_ptr() as usize,
        db.storage.as_ptr() as usize,
        dout.storage.as_ptr() as usize,
    );
    let (rsa, csa, rsb, csb) = (da.strides[0], da.strides[1], db.strides[0], db.strides[1]);
    let (oa, ob) = (da.offset, db.offset);
    // SAFETY (both closures): dtypes were checked by the caller; the strides and offsets describe
    // valid layouts of the operands, and blocks [r0, r1) x [c0, c1) of distinct tasks are disjoint
    // parts of the output, which aliases neither input; faer accepts any strides.
    let block = |r0: usize, r1: usize, c0: usize, c1: usize| unsafe {
        let (rs, cs) = (r0 as isize, c0 as isize);
        let offsets = (
            oa as isize + rs * rsa,
            ob as isize + cs * csb,
            off + r0 * n + c0,
        );
        let dims = (r1 - r0, k, c1 - c0);
        let strides = (rsa, csa, rsb, csb);
        match dout.dtype {
            DType::Float32 => gemm_at::<f32>((pa, pb, pc), offsets, dims, strides, n as isize),
            DType::Float64 => gemm_at::<f64>((pa, pb, pc), offsets, dims, strides, n as isize),
            dt => crate::with_numeric!(dt, T, {
                let sa = da.storage.slice::<T>();
                let sb = db.storage.slice::<T>();
                let sc = dout.storage.slice_mut::<T>();
                for i in r0..r1 {
                    for j in c0..c1 {
                        let mut acc = T::default();
                        for p in 0..k {
                            let x =
                                sa[(oa as isize + i as isize * rsa + p as isize * csa) as usize];
                            let y =
                                sb[(ob as isize + p as isize * rsb + j as isize * csb) as usize];
                            acc += x * y;
                        }
                        sc[off + i * n + j] = acc;
                    }
                }
            }),
        }
    };
    if !split {
        block(0, m, 0, n);
    } else if m >= n {
        let grain = GEMM_GRAIN.div_ceil(k.max(1) * n).max(1);
        parallel::parallel_for(m, grain, |r0, r1| block(r0, r1, 0, n));
    } else {
        let grain = GEMM_GRAIN.div_ceil(k.max(1) * m).max(1);
        parallel::parallel_for(n, grain, |c0, c1| block(0, m, c0, c1));
    }
}

/// Batched `a @ b` of [B, m, k] and [B, k, n] (B may be broadcast with stride 0): one GEMM per
/// batch into a contiguous [B, m, n].
pub fn bmm(a: &Strided, b: &Strided) -> crate::Result<Strided> {
    let (la, lb) = {
        let (da, db) = (a, b);
        super::host_only(&[da, db])?;
        (
            (da.shape.clone(), da.strides.clone(), da.offset),
            (db.shape.clone(), db.strides.clone(), db.offset),
        )
    };
    let (nb, m, n, k) = (la.0[0], la.0[1], lb.0[2], la.0[2]);
    let dt = a.dtype();
    if dt.is_half() {
        return bmm(&a.cast(DType::Float32)?, &b.cast(DType::Float32)?)?.cast(dt);
    }
    let out = Strided::zeros(&[nb, m, n], dt)?;
    let one = |i: usize, split: bool| {
        let ai = a.restrided(
            &la.0[1..],
            &la.1[1..],
            (la.2 as isize + i as isize * la.1[0]) as usize,
        );
        let bi = b.restrided(
            &lb.0[1..],
            &lb.1[1..],
            (lb.2 as isize + i as isize * lb.1[0]) as usize,
        );
        mm_into(&ai, &bi, &out, i * m * n, split);
    };
    if nb >= parallel::num_threads() {
        // one GEMM per batch element, the batch split over the pool
        let grain = GEMM_GRAIN.div_ceil((m * n * k).max(1)).max(1);
        parallel::parallel_for(nb, grain, |b0, b1| (b0..b1).for_each(|i| one(i, false)));
    } else {
        (0..nb).for_each(|i| one(i, true));
    }
    Ok(out)
}
