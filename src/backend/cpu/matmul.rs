//! Matrix products of 2-D strided operands: matrixmultiply's GEMM for f32/f64, a plain loop for
//! the other dtypes.
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
    let (da, db) = (a, b);
    let (m, k, n) = (da.shape[0], da.shape[1], db.shape[1]);
    let out = Strided::zeros(&[m, n], da.dtype)?;
    {
        let dout = &out;
        // SAFETY: dtypes checked by the caller; strides and offsets describe valid layouts;
        // matrixmultiply accepts arbitrary (even zero) strides.
        unsafe {
            match da.dtype {
                DType::Float32 => {
                    let pa = (da.storage.as_ptr() as *const f32).add(da.offset);
                    let pb = (db.storage.as_ptr() as *const f32).add(db.offset);
                    let pc = dout.storage.as_ptr() as *mut f32;
                    matrixmultiply::sgemm(
                        m,
                        k,
                        n,
                        1.0,
                        pa,
                        da.strides[0],
                        da.strides[1],
                        pb,
                        db.strides[0],
                        db.strides[1],
                        0.0,
                        pc,
                        n as isize,
                        1,
                    );
                }
                DType::Float64 => {
                    let pa = (da.storage.as_ptr() as *const f64).add(da.offset);
                    let pb = (db.storage.as_ptr() as *const f64).add(db.offset);
                    let pc = dout.storage.as_ptr() as *mut f64;
                    matrixmultiply::dgemm(
                        m,
                        k,
                        n,
                        1.0,
                        pa,
                        da.strides[0],
                        da.strides[1],
                        pb,
                        db.strides[0],
                        db.strides[1],
                        0.0,
                        pc,
                        n as isize,
                        1,
                    );
                }
                dt => crate::with_numeric!(dt, T, {
                    let sa = da.storage.slice::<T>();
                    let sb = db.storage.slice::<T>();
                    let sc = dout.storage.slice_mut::<T>();
                    for i in 0..m {
                        for j in 0..n {
                            let mut acc = T::default();
                            for p in 0..k {
                                let x = sa[(da.offset as isize
                                    + i as isize * da.strides[0]
                                    + p as isize * da.strides[1])
                                    as usize];
                                let y = sb[(db.offset as isize
                                    + p as isize * db.strides[0]
                                    + j as isize * db.strides[1])
                                    as usize];
                                acc += x * y;
                            }
                            sc[i * n + j] = acc;
                        }
                    }
                }),
            }
        }
    }
    Ok(out)
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
    let (nb, m, n) = (la.0[0], la.0[1], lb.0[2]);
    let out = Strided::zeros(&[nb, m, n], a.dtype())?;
    for i in 0..nb {
        let ai = a.restrided(&la.0[1..], &la.1[1..], la.2 + i * la.1[0] as usize);
        let bi = b.restrided(&lb.0[1..], &lb.1[1..], lb.2 + i * lb.1[0] as usize);
        let r = mm(&ai, &bi)?;
        let oi = out.restrided(&[m, n], &[n as isize, 1], i * m * n);
        super::copy_into(&oi, &r)?;
    }
    Ok(out)
}
