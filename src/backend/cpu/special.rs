//! Special functions the standard library and `libm` lack, in float64.

use std::f64::consts::FRAC_2_SQRT_PI;

/// The inverse error function: the `x` with `erf(x) = y`, NaN outside [-1, 1], ±inf at ±1.
///
/// PyTorch's CPU build computes it with MKL's vector library, whose float32 results are the
/// correctly rounded ones (all but about 2 in 10,000 of them, measured against torch 2.15): a
/// float64 value within an ulp, rounded to float32 once, gives the same numbers. The float64
/// results are within an ulp of MKL's and equal to them about 9 times in 10.
///
/// A rational first guess (Pavlis' erfinv, as in PyTorch's own scalar fallback) refined by
/// Halley steps on `erf(x) - y`, the residual taken through `erfc` past 0.5, where `1 - y` is
/// exact and `erf(x)` would have lost the digits that matter.
pub fn erfinv(y: f64) -> f64 {
    let a = y.abs();
    if a.is_nan() || a > 1.0 {
        return f64::NAN;
    }
    if a == 1.0 {
        return f64::INFINITY.copysign(y);
    }
    if a == 0.0 {
        return y;
    }
    let mut x = if a <= 0.7 {
        let z = a * a;
        let num = ((-0.140543331 * z + 0.914624893) * z - 1.645349621) * z + 0.886226899;
        let dem = (((0.012229801 * z - 0.329097515) * z + 1.442710462) * z - 2.118377725) * z + 1.0;
        a * num / dem
    } else {
        let z = (-((1.0 - a) / 2.0).ln()).sqrt();
        let num = ((1.641345311 * z + 3.429567803) * z - 1.624906493) * z - 1.970840454;
        let dem = (1.637067800 * z + 3.543889200) * z + 1.0;
        num / dem
    };
    for _ in 0..4 {
        let r = if a <= 0.5 {
            libm::erf(x) - a
        } else {
            (1.0 - a) - libm::erfc(x)
        };
        if r == 0.0 {
            break;
        }
        // Halley: f' = 2/√π e^(-x²), f'' = -2x f'
        let d = FRAC_2_SQRT_PI * (-x * x).exp();
        x -= r / (d + r * x);
    }
    x.copysign(y)
}

#[cfg(test)]
mod tests {
    use super::erfinv;

    #[test]
    fn erfinv_inverts_erf() {
        for i in -999..=999 {
            let y = i as f64 / 1000.0;
            let x = erfinv(y);
            assert!((libm::erf(x) - y).abs() <= 2.0 * f64::EPSILON, "{y}");
        }
        assert_eq!(erfinv(1.0), f64::INFINITY);
        assert_eq!(erfinv(-1.0), f64::NEG_INFINITY);
        assert!(erfinv(1.5).is_nan() && erfinv(f64::NAN).is_nan());
        assert!(erfinv(-0.0).is_sign_negative());
        // a value near 1, where the residual goes through erfc: 1 - 1e-12 = erf(5.042...)
        let x = erfinv(1.0 - 1e-12);
        assert!((libm::erfc(x) - 1e-12).abs() < 1e-12 * 1e-3, "{x}");
    }
}

/// The gamma-family functions PyTorch computes itself (digamma, trigamma, polygamma through the
/// Hurwitz zeta function, all from the Cephes library as in ATen's Math.h), in the element's
/// own precision where PyTorch's float and double versions differ; `lgamma` is the C library's.
pub trait Gamma: Copy {
    fn lgamma(self) -> Self;
    fn digamma(self) -> Self;
    fn trigamma(self) -> Self;
    /// The n-th derivative of digamma (n >= 0).
    fn polygamma(self, n: i64) -> Self;
}

/// polevl: Σ A[i] x^(N-i), Horner's rule.
fn polevl<T: Copy + std::ops::Mul<Output = T> + std::ops::Add<Output = T>>(x: T, a: &[T]) -> T {
    let mut r = a[0];
    for &c in &a[1..] {
        r = r * x + c;
    }
    r
}

/// The Hurwitz zeta function ζ(x, q) (Cephes), in float64 (PyTorch's accumulation type on the CPU);
/// `first` is q^-x, which PyTorch computes in the inputs' own precision.
#[allow(clippy::excessive_precision)] // Cephes' constants, as ATen writes them
pub fn zeta(x: f64, q: f64, first: f64) -> f64 {
    const MACHEP: f64 = 1.110_223_024_625_156_5e-16;
    const A: [f64; 12] = [
        12.0,
        -720.0,
        30240.0,
        -1209600.0,
        47900160.0,
        -1.892_437_580_318_379_2e9,
        7.472_424_96e10,
        -2.950_130_727_918_164_2e12,
        1.164_678_281_435_006_8e14,
        -4.597_978_722_407_472_6e15,
        1.815_210_540_194_354_7e17,
        -7.166_165_256_175_667e18,
    ];
    if x == 1.0 {
        return f64::INFINITY;
    }
    if x < 1.0 {
        return f64::NAN;
    }
    if q <= 0.0 {
        if q == q.floor() {
            return f64::INFINITY;
        }
        if x != x.floor() {
            return f64::NAN;
        }
    }
    let mut s = first;
    let mut a = q;
    let mut i = 0;
    let mut b = 0.0;
    while i < 9 || a <= 9.0 {
        i += 1;
        a += 1.0;
        b = a.powf(-x);
        s += b;
        if -MACHEP * s < b && b < MACHEP * s {
            return s;
        }
    }
    let w = a;
    s += b * w / (x - 1.0);
    s -= 0.5 * b;
    let mut a = 1.0;
    let mut k = 0.0;
    for c in A {
        a *= x + k;
        b /= w;
        let t = a * b / c;
        s += t;
        if (t / s).abs() < MACHEP {
            return s;
        }
        k += 1.0;
        a *= x + k;
        b /= w;
        k += 1.0;
    }
    s
}

macro_rules! impl_gamma {
    ($t:ty, $lgamma:path, $psi10:expr) => {
        // Cephes' constants, as ATen writes them (rounded to the element type, as its `f` literals)
        #[allow(clippy::excessive_precision)]
        impl Gamma for $t {
            fn lgamma(self) -> $t {
                $lgamma(self)
            }
            fn digamma(self) -> $t {
                let mut x = self;
                if x == 0.0 {
                    // ±0 gives ∓inf (the C++ standard's rule, as PyTorch)
                    return <$t>::INFINITY.copysign(-x);
                }
                if x < 0.0 {
                    if x == x.trunc() {
                        return <$t>::NAN;
                    }
                    // π / tan(π r) of the fractional part r, in double, as PyTorch
                    let r = (x as f64).fract();
                    let pi_over_tan =
                        (std::f64::consts::PI / (std::f64::consts::PI * r).tan()) as $t;
                    return (1.0 - x).digamma() - pi_over_tan;
                }
                let mut result: $t = 0.0;
                while x < 10.0 {
                    result -= 1.0 / x;
                    x += 1.0;
                }
                if x == 10.0 {
                    return result + $psi10;
                }
                const A: [$t; 7] = [
                    8.333_333_333_333_333e-2,
                    -2.109_279_609_279_609_3e-2,
                    7.575_757_575_757_576e-3,
                    -4.166_666_666_666_667e-3,
                    3.968_253_968_253_968e-3,
                    -8.333_333_333_333_333e-3,
                    8.333_333_333_333_333e-2,
                ];
                let mut y: $t = 0.0;
                if x < 1.0e17 {
                    let z = 1.0 / (x * x);
                    y = z * polevl(z, &A);
                }
                result + x.ln() - (0.5 / x) - y
            }
            fn trigamma(self) -> $t {
                let mut x = self;
                let mut sign: $t = 1.0;
                let mut result: $t = 0.0;
                if x < 0.5 {
                    sign = -1.0;
                    let pi = std::f64::consts::PI as $t;
                    let s = (pi * x).sin();
                    result -= (pi * pi) / (s * s);
                    x = 1.0 - x;
                }
                for _ in 0..6 {
                    result += 1.0 / (x * x);
                    x += 1.0;
                }
                let ixx = 1.0 / (x * x);
                result += (1.0
                    + 1.0 / (2.0 * x)
                    + ixx * (1.0 / 6.0 - ixx * (1.0 / 30.0 - ixx * (1.0 / 42.0))))
                    / x;
                sign * result
            }
            fn polygamma(self, n: i64) -> $t {
                match n {
                    0 => self.digamma(),
                    1 => self.trigamma(),
                    _ => {
                        let sign: $t = if n % 2 == 1 { 1.0 } else { -1.0 };
                        let fact = (((n as $t) + 1.0).lgamma()).exp();
                        let x = (n + 1) as $t;
                        let first = self.powf(-x) as f64;
                        sign * fact * (zeta(x as f64, self as f64, first) as $t)
                    }
                }
            }
        }
    };
}

impl_gamma!(f32, lgamma_f32, 2.251_752_6_f32);
impl_gamma!(f64, libm::lgamma, 2.251_752_589_066_721_f64);

/// float32 lgamma through float64, rounded once (glibc's lgammaf agrees with this far more
/// often than a float32 port of the same algorithm does).
fn lgamma_f32(x: f32) -> f32 {
    libm::lgamma(x as f64) as f32
}
