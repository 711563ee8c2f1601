//! The 2-norm over the trailing dims of a contiguous float32/float64 tensor as PyTorch 2.15's
//! vectorised last-dim kernel computes it (`norm_kernel_tensor_iterator_impl` with p = 2), so
//! that `linalg.vector_norm`, `norm`, `F.normalize` and `clip_grad_norm_` give PyTorch's bits:
//! squares summed into 8 float32 (4 float64) lanes in the input's precision, multiply and add
//! not fused, the lanes added in order, then the square root (measured against PyTorch: its
//! AVX2 build of this kernel, as for layer_norm). Only rows of a whole number of vectors take
//! this path: how PyTorch's compiled code adds a row's last partial vector was not found (one
//! by one, fused or not, and into the lanes were tried; none matched every row length).
use super::layer_norm::LnFloat;
use crate::backend::Strided;
use crate::error::Result;

/// Each row's 2-norm, rows of `n` elements of a contiguous slice.
fn rows<T: LnFloat>(x: &[T], n: usize) -> Vec<T> {
    super::vectorised(
        #[inline(always)]
        || {
            let w = T::W;
            let mut out = Vec::with_capacity(x.len() / n);
            for row in x.chunks_exact(n) {
                let mut acc = [T::ZERO; 8];
                for c in row.chunks_exact(w) {
                    for l in 0..w {
                        acc[l] = acc[l] + c[l] * c[l];
                    }
                }
                let mut s = acc[0];
                for &a in &acc[1..w] {
                    s = s + a;
                }
                out.push(s.sqrt());
            }
            out
        },
    )
}

/// The 2-norm of each row of `n` elements of `x` (row-major), as a 1-d tensor; None unless
/// `x` is a contiguous float32/float64 host tensor whose rows are whole vectors (8 float32 or
/// 4 float64).
pub fn norm2_rows(x: &Strided, n: usize) -> Result<Option<Strided>> {
    if n == 0 || !x.is_contiguous() || !x.numel().is_multiple_of(n) || x.numel() == 0 {
        return Ok(None);
    }
    Ok(crate::with_host_float!(x, T, {
        if !n.is_multiple_of(<T as LnFloat>::W) {
            return Ok(None);
        }
        // SAFETY: T matches the dtype and x is contiguous (checked above).
        let s = unsafe { x.contiguous_slice::<T>() }.expect("contiguous");
        let out = rows(s, n);
        let len = out.len();
        Strided::from_vec(out, &[len])?
    }))
}
