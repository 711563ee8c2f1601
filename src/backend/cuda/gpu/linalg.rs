//! Matrix products through cuBLAS (strided batched GEMM, no copies for transposed operands).

use super::*;

/// How cuBLAS reads a row-major [r, c] matrix with strides (s0, s1) as the column-major
/// transpose it needs: (transpose?, leading dimension), or None when a copy is needed.
pub(super) fn blas_layout(r: usize, c: usize, s0: isize, s1: isize) -> Option<(bool, i32)> {
    let fits = |v: usize| i32::try_from(v).ok();
    // Row-major rows: cuBLAS sees the [c, r] column-major matrix untransposed.
    if (c <= 1 || s1 == 1) && (r <= 1 || s0 >= c.max(1) as isize) {
        let ld = if r <= 1 { c.max(1) } else { s0 as usize };
        return fits(ld).map(|ld| (false, ld));
    }
    // Columns contiguous: the same memory is the transpose of a column-major [r, c].
    if (r <= 1 || s0 == 1) && (c <= 1 || s1 >= r.max(1) as isize) {
        let ld = if c <= 1 { r.max(1) } else { s1 as usize };
        return fits(ld).map(|ld| (true, ld));
    }
    None
}

pub fn bmm(a: &Strided, b: &Strided) -> Result<Strided> {
    if a.dtype().is_half() && a.dtype() == b.dtype() {
        // Products of half types accumulate in float32, as PyTorch's.
        return bmm(&wide(a)?, &wide(b)?)?.cast(a.dtype());
    }
    let device = super::super::common_device(&[a, b])?;
    let Device::Cuda(i) = device else {
        return Err(Error::Runtime(
            "internal error: a CPU operation reached the CUDA backend".into(),
        ));
    };
    if a.storage.device() != device || b.storage.device() != device {
        return Err(crate::device::mismatch(
            a.storage.device(),
            b.storage.device(),
        ));
    }
    let dt = a.dtype();
    if !matches!(
        dt,
        DType::Float32 | DType::Float64 | DType::Complex64 | DType::Complex128
    ) {
        return Err(no_cuda_kernel(&format!(
            "matrix products of {} tensors",
            dt.name()
        )));
    }
    let d = dev(i)?;
    let (sa, sb) = (a.shape(), b.shape());
    let (batch, m, k, n) = (sa[0], sa[1], sa[2], sb[2]);
    let out = empty(&[batch, m, n], dt, device)?;
    if out.numel() == 0 {
        return Ok(out);
    }
    if k == 0 {
        fill(&out, Complex64::new(0.0, 0.0))?;
        return Ok(out);
    }
    let prep = |t: &Strided, r: usize, c: usize| -> Result<(Strided, bool, i32)> {
        let st = &t.strides;
        if let Some((tr, ld)) = blas_layout(r, c, st[1], st[2]) {
            return Ok((t.clone(), tr, ld));
        }
        let c2 = to_device(t, device)?;
        let (tr, ld) = blas_layout(r, c, c as isize, 1).ok_or_else(|| {
            Error::Runtime("matrix too large for cuBLAS (a dimension exceeds 2^31)".into())
        })?;
        Ok((c2, tr, ld))
    };
    let (a2, ta, lda) = prep(a, m, k)?;
    let (b2, tb, ldb) = prep(b, k, n)?;
    let (da, db) = (a2, b2);
    let bstride = |t: &crate::backend::Strided| {
        if t.shape[0] <= 1 {
            0
        } else {
            t.strides[0] as i64
        }
    };
    let (stride_a, stride_b) = (bstride(&da), bstride(&db));
    let esz = dt.size() as u64;
    let pa = da.storage.device_ptr() + da.offset as u64 * esz;
    let pb = db.storage.device_ptr() + db.offset as u64 * esz;
    let pc = base(&out);
    let int = |v: usize| {
        i32::try_from(v).map_err(|_| Error::Runtime("matrix too large for cuBLAS".into()))
    };
    let (m32, n32, k32, batch32) = (int(m)?, int(n)?, int(k)?, int(batch)?);
    let d = match d {
        Dev::Gpu(g) => g,
        Dev::Emu(_) => {
            // Row-major C = A B is column-major Cᵀ = Bᵀ Aᵀ, as for cuBLAS below.
            let g = emulation::Gemm {
                ta: tb,
                tb: ta,
                m: n,
                n: m,
                k,
                a: (pb, ldb as usize, stride_b as usize),
                b: (pa, lda as usize, stride_a as usize),
                c: (pc, n, m * n),
                batch,
            };
            // SAFETY: the same pointers, leading dimensions and strides cuBLAS would get,
            // addressing the emulated device's host memory.
            unsafe { g.run(dt) }?;
            return Ok(out);
        }
    };
    need_library("cublas", "nvidia-cublas-cu12")?;
    let blas = d
        .blas
        .get_or_init(|| {
            cudarc::cublas::CudaBlas::new(d.stream.clone()).map_err(|e| format!("{e:?}"))
        })
        .as_ref()
        .map_err(|e| Error::Runtime(format!("cuBLAS could not start: {e}")))?;
    use cudarc::cublas::sys::{self as blas_sys, cublasOperation_t as Op};
    let op = |t: bool| if t { Op::CUBLAS_OP_T } else { Op::CUBLAS_OP_N };
    // One argument list for every dtype: row-major C = A B is column-major Cᵀ = Bᵀ Aᵀ, so
    // cuBLAS gets (B, A) and n, m swapped.
    macro_rules! gemm {
        ($f:path, $T:ty, $one:expr, $zero:expr) => {
            $f(
                *blas.handle(),
                op(tb),
                op(ta),
                n32,
                m32,
                k32,
                &$one,
                pb as *const $T,
                ldb,
                stride_b,
                pa as *const $T,
                lda,
                stride_a,
                &$zero,
                pc as *mut $T,
                n32,
                (m * n) as i64,
                batch32,
            )
            .result()
        };
    }
    let (c0, c1) = (
        blas_sys::float2 { x: 0.0, y: 0.0 },
        blas_sys::float2 { x: 1.0, y: 0.0 },
    );
    let (z0, z1) = (
        blas_sys::double2 { x: 0.0, y: 0.0 },
        blas_sys::double2 { x: 1.0, y: 0.0 },
    );
    // SAFETY: pointers, leading dimensions and batch strides describe live device memory.
    unsafe {
        match dt {
            DType::Float32 => gemm!(blas_sys::cublasSgemmStridedBatched, f32, 1.0f32, 0.0f32),
            DType::Complex64 => gemm!(
                blas_sys::cublasCgemmStridedBatched,
                blas_sys::cuComplex,
                c1,
                c0
            ),
            DType::Complex128 => {
                gemm!(
                    blas_sys::cublasZgemmStridedBatched,
                    blas_sys::cuDoubleComplex,
                    z1,
                    z0
                )
            }
            _ => gemm!(blas_sys::cublasDgemmStridedBatched, f64, 1.0f64, 0.0f64),
        }
    }
    .map_err(|e| Error::Runtime(format!("cuBLAS error: {e:?}")))?;
    Ok(out)
}
