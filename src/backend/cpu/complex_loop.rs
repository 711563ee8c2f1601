//! Complex multiplication and division as PyTorch's CPU loop computes each element. Its binary
//! kernel (`cpu_kernel_vec`) runs `Vectorized<c10::complex<T>>` over whole blocks of two
//! vectors from the start of each contiguous row segment and `basic_loop` over the rest; the
//! compiler vectorises `basic_loop` two complex floats at a time, contracting each `x + y * z`
//! into a fused multiply-add, and leaves an odd last element to its scalar code, which does not
//! contract the same products. The three give different last bits (about one element in
//! five), and a chain of complex ops can grow that into a visible difference.
//!
//! Measured against PyTorch 2.15 on an AVX2 x86-64 CPU (its `AVX2` capability), every position
//! of rows of 1 to 40 elements, contiguous, strided, broadcast and in place:
//!
//! | | vector blocks | pairs in `basic_loop` | odd last / scalar |
//! |---|---|---|---|
//! | complex64 `*` | plain | fused | plain |
//! | complex64 `*` by a scalar | plain | fused in fours after the first | plain |
//! | complex64 `/` | fused | fused (`div_`: scalar) | fused scale, plain parts |
//! | complex128 `*` | plain | fused | fused |
//! | complex128 `/` | fused | fused | fused |
//!
//! ("fused": `re = fma(a, c, -bd)`, `im = fma(a, d, bc)` for a product, and Smith's division
//! with every `x + y * z` fused; "plain": each product rounded.) In place, complex64 `div_`
//! runs all of `basic_loop` in the scalar code (the compiler's overlap check fails when the
//! output is an input), and so does `mul_` where its rows are not contiguous. The AVX-512
//! build of the same loop is assumed to split the same way with its wider vectors (not
//! measured: no AVX-512 machine ran PyTorch's AVX512 kernels).
use super::loop_paths::{map2_paths, Path, Rules};
use super::torch_vec;
use crate::backend::Strided;
use crate::error::Result;
use num_complex::{Complex32, Complex64};
use std::cell::Cell;

thread_local! {
    static IN_PLACE: Cell<bool> = const { Cell::new(false) };
}

/// Marks the complex products and quotients run inside `f` as `mul_`/`div_` (the output is
/// the first input).
pub fn in_place<R>(f: impl FnOnce() -> R) -> R {
    let old = IN_PLACE.with(|c| c.replace(true));
    let r = f();
    IN_PLACE.with(|c| c.set(old));
    r
}

/// The complex types, with the products and quotients of each path.
pub trait LoopComplex: crate::dtype::Element {
    /// Complex numbers per `Vectorized` on this CPU.
    fn vec_size() -> usize;
    fn mul_plain(self, o: Self) -> Self;
    fn mul_fused(self, o: Self) -> Self;
    fn div_fused(self, o: Self) -> Self;
    /// Smith's division with the scale fused and the two parts plain.
    fn div_scalar(self, o: Self) -> Self;
    /// Does the scalar code fuse the product's multiply-adds (the table above)?
    const SCALAR_MUL_FUSED: bool;
    /// Does the scalar code fuse every multiply-add of the quotient?
    const SCALAR_DIV_FUSED: bool;
    /// Does a product by a scalar operand take the compiler's peeled loop of four?
    const SCALAR_MUL_QUADS: bool;
}

macro_rules! impl_loop_complex {
    ($C:ty, $R:ty, $floats_per:expr, $mul_fused:expr, $div_fused:expr) => {
        impl LoopComplex for $C {
            fn vec_size() -> usize {
                torch_vec::lanes() / $floats_per
            }
            #[inline]
            fn mul_plain(self, o: $C) -> $C {
                <$C>::new(
                    self.re * o.re - self.im * o.im,
                    self.re * o.im + self.im * o.re,
                )
            }
            #[inline]
            fn mul_fused(self, o: $C) -> $C {
                <$C>::new(
                    self.re.mul_add(o.re, -(self.im * o.im)),
                    self.re.mul_add(o.im, self.im * o.re),
                )
            }
            #[inline]
            fn div_fused(self, o: $C) -> $C {
                super::elementwise::CDiv::cdiv(self, o)
            }
            #[inline]
            fn div_scalar(self, o: $C) -> $C {
                let (a, b, c, d) = (self.re, self.im, o.re, o.im);
                if c.abs() >= d.abs() {
                    if c == 0.0 && d == 0.0 {
                        return <$C>::new(a / c.abs(), b / d.abs());
                    }
                    let rat = d / c;
                    let scl = (1.0 as $R) / d.mul_add(rat, c);
                    <$C>::new((a + b * rat) * scl, (b - a * rat) * scl)
                } else {
                    let rat = c / d;
                    let scl = (1.0 as $R) / c.mul_add(rat, d);
                    <$C>::new((a * rat + b) * scl, (b * rat - a) * scl)
                }
            }
            const SCALAR_MUL_FUSED: bool = $mul_fused;
            const SCALAR_DIV_FUSED: bool = $div_fused;
            const SCALAR_MUL_QUADS: bool = !$mul_fused;
        }
    };
}
impl_loop_complex!(Complex32, f32, 2, false, false);
impl_loop_complex!(Complex64, f64, 4, true, true);

/// `a * b` (or `a / b` when `div`) broadcast to `shape`, each element by PyTorch's path for it.
pub fn mul_div<C: LoopComplex>(
    a: &Strided,
    b: &Strided,
    shape: &[usize],
    div: bool,
) -> Result<Strided> {
    let f = move |x: C, y: C, path: Path| -> C {
        match (div, path) {
            (false, Path::Vector) => x.mul_plain(y),
            (false, Path::Pair) => x.mul_fused(y),
            (false, Path::Scalar) if C::SCALAR_MUL_FUSED => x.mul_fused(y),
            (false, Path::Scalar) => x.mul_plain(y),
            (true, Path::Scalar) if !C::SCALAR_DIV_FUSED => x.div_scalar(y),
            (true, _) => x.div_fused(y),
        }
    };
    rowmajor(a, b, shape, div, f)
}

/// [`mul_div`] by the rules of its element type.
fn rowmajor<C: LoopComplex>(
    a: &Strided,
    b: &Strided,
    shape: &[usize],
    div: bool,
    f: impl Fn(C, C, Path) -> C,
) -> Result<Strided> {
    let in_place = IN_PLACE.with(|c| c.get());
    let rules = |sa: isize, sb: isize, vector: bool| Rules {
        // complex64 `*` by an operand of stride 0 (PyTorch's loop inlined for a scalar operand)
        quads: !div && C::SCALAR_MUL_QUADS && matches!((sa, sb), (0, 1) | (1, 0)),
        // in place, the compiler's overlap check sends `div_` and the products of rows that
        // are not contiguous to the scalar code
        scalar_only: in_place && (div || !vector),
    };
    map2_paths(a, b, shape, 2 * C::vec_size(), rules, f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_by_path() {
        let (x, y) = (Complex32::new(1.5, -0.25), Complex32::new(3.0, 4.0));
        assert_eq!(x.mul_plain(y), x * y);
        assert_eq!(x.div_fused(x).re, 1.0);
    }
}
