//! SLEEF's float64 `log1p_u10` and `expm1_u10`, the functions behind PyTorch's CPU `log1p` and
//! `expm1` on float64 (`Vectorized<double>::log1p()`/`expm1()` on AVX2 builds, whose vector
//! map also covers the last partial vector), reproduced step for step so that leafgrad's
//! `log1p`/`expm1` give PyTorch's bits. About 1 result in 25 differs by an ulp from the C
//! library's, which is why the C library's functions are not used for these two ops.
//!
//! Every multiply-add is a fused `mul_add`, as SLEEF's FMA builds compute them; double-double
//! arithmetic (`Dd`) carries the extra bits. The algorithms and constants are SLEEF's
//! (src/libm/sleefsimddp.c and src/common/dd.h, Boost licence); the code is written here from
//! them.
// the constants are written as SLEEF writes them, digits past float64's included
#![allow(clippy::excessive_precision)]

/// A float64 pair (hi + lo) carrying about 104 bits (SLEEF's `vdouble2`).
#[derive(Clone, Copy)]
struct Dd(f64, f64);

/// x + y exactly, |x| >= |y| (`ddadd_vd2_vd_vd`).
#[inline(always)]
fn add_ff(x: f64, y: f64) -> Dd {
    let s = x + y;
    Dd(s, (x - s) + y)
}

/// x + y exactly, any magnitudes (`ddadd2_vd2_vd_vd`).
#[inline(always)]
fn add2_ff(x: f64, y: f64) -> Dd {
    let s = x + y;
    let v = s - x;
    Dd(s, (x - (s - v)) + (y - v))
}

/// x + y of a float and a pair, |x| >= |y| (`ddadd_vd2_vd_vd2`).
#[inline(always)]
fn add_fp(x: f64, y: Dd) -> Dd {
    let s = x + y.0;
    Dd(s, ((x - s) + y.0) + y.1)
}

/// x + y of a pair and a float, |x| >= |y| (`ddadd_vd2_vd2_vd`).
#[inline(always)]
fn add_pf(x: Dd, y: f64) -> Dd {
    let s = x.0 + y;
    Dd(s, ((x.0 - s) + y) + x.1)
}

/// x + y of a pair and a float, any magnitudes (`ddadd2_vd2_vd2_vd`).
#[inline(always)]
fn add2_pf(x: Dd, y: f64) -> Dd {
    let s = x.0 + y;
    let v = s - x.0;
    let w = (x.0 - (s - v)) + (y - v);
    Dd(s, w + x.1)
}

/// x + y of pairs, |x| >= |y| (`ddadd_vd2_vd2_vd2`).
#[inline(always)]
fn add_pp(x: Dd, y: Dd) -> Dd {
    let s = x.0 + y.0;
    Dd(s, (((x.0 - s) + y.0) + x.1) + y.1)
}

/// x · y of a pair and a float (`ddmul_vd2_vd2_vd`, FMA).
#[inline(always)]
fn mul_pf(x: Dd, y: f64) -> Dd {
    let s = x.0 * y;
    Dd(s, x.1.mul_add(y, x.0.mul_add(y, -s)))
}

/// x · y of pairs (`ddmul_vd2_vd2_vd2`, FMA).
#[inline(always)]
fn mul_pp(x: Dd, y: Dd) -> Dd {
    let s = x.0 * y.0;
    Dd(s, x.0.mul_add(y.1, x.1.mul_add(y.0, x.0.mul_add(y.0, -s))))
}

/// x² of a pair (`ddsqu_vd2_vd2`, FMA).
#[inline(always)]
fn squ(x: Dd) -> Dd {
    let s = x.0 * x.0;
    Dd(s, (x.0 + x.0).mul_add(x.1, x.0.mul_add(x.0, -s)))
}

/// n / d of pairs (`dddiv_vd2_vd2_vd2`, FMA).
#[inline(always)]
fn div(n: Dd, d: Dd) -> Dd {
    let t = 1.0 / d.0;
    let s = n.0 * t;
    let u = t.mul_add(n.0, -s);
    let v = (-d.1).mul_add(t, (-d.0).mul_add(t, 1.0));
    Dd(s, s.mul_add(v, n.1.mul_add(t, u)))
}

/// The unbiased exponent of d's bits (`vilogb2k_vi_vd`; d normal and positive).
#[inline(always)]
fn ilogb2k(d: f64) -> i32 {
    ((d.to_bits() >> 52) & 0x7ff) as i32 - 0x3ff
}

/// d · 2^q by adding q to the exponent bits (`vldexp3_vd_vd_vi`).
#[inline(always)]
fn ldexp3(d: f64, q: i32) -> f64 {
    f64::from_bits(d.to_bits().wrapping_add((q as i64 as u64).wrapping_shl(52)))
}

/// 2^q for q in the normal exponent range (`vpow2i_vd_vi`).
#[inline(always)]
fn pow2i(q: i32) -> f64 {
    f64::from_bits(((q + 0x3ff) as i64 as u64).wrapping_shl(52))
}

/// d · 2^e in two steps (`vldexp2_vd_vd_vi`).
#[inline(always)]
fn ldexp2(d: f64, e: i32) -> f64 {
    d * pow2i(e >> 1) * pow2i(e - (e >> 1))
}

/// ln 2 as a pair.
const LN2: Dd = Dd(std::f64::consts::LN_2, 2.319046813846299558417771e-17);
/// 2^64, the scale SLEEF gives subnormal arguments.
const TWO64: f64 = 18_446_744_073_709_551_616.0;

/// The odd-series polynomial of SLEEF's logarithms in x² (`POLY7(x2, x4, x8, ...)`).
#[inline(always)]
fn log_poly(x2: f64) -> f64 {
    let x4 = x2 * x2;
    let x8 = x4 * x4;
    let hi = x4.mul_add(
        0.1532076988502701353e+0,
        x2.mul_add(0.1525629051003428716e+0, 0.1818605932937785996e+0),
    );
    let lo = x4.mul_add(
        x2.mul_add(0.2222214519839380009e+0, 0.2857142932794299317e+0),
        x2.mul_add(0.3999999999635251990e+0, 0.6666666666667333541e+0),
    );
    x8.mul_add(hi, lo)
}

/// ln d as SLEEF's `xlog_u1` (used by `log1p` past 1e307).
fn log_u1(d: f64) -> f64 {
    let tiny = d < f64::MIN_POSITIVE;
    let d2 = if tiny { d * TWO64 } else { d };
    let e = ilogb2k(d2 * (1.0 / 0.75));
    let m = ldexp3(d2, -e);
    let e = if tiny { e - 64 } else { e };
    let x = div(add2_ff(-1.0, m), add2_ff(1.0, m));
    let x2 = x.0 * x.0;
    let t = log_poly(x2);
    let s = mul_pf(LN2, e as f64);
    let s = add_pp(s, Dd(x.0 * 2.0, x.1 * 2.0));
    let s = add_pf(s, x2 * x.0 * t);
    let r = s.0 + s.1;
    if d == f64::INFINITY {
        f64::INFINITY
    } else if d < 0.0 || d.is_nan() {
        f64::NAN
    } else if d == 0.0 {
        f64::NEG_INFINITY
    } else {
        r
    }
}

/// ln(1 + d) as SLEEF's `xlog1p` (1.0 ulp): 1 + d = m 2^e with m in [0.75, 1.5) computed
/// without rounding 1 + d, then ln m by the series of the logarithm, in pairs.
#[inline(always)]
pub fn log1p(d: f64) -> f64 {
    let dp1 = d + 1.0;
    let tiny = dp1 < f64::MIN_POSITIVE;
    let dp1 = if tiny { dp1 * TWO64 } else { dp1 };
    let e = ilogb2k(dp1 * (1.0 / 0.75));
    let t = ldexp3(1.0, -e);
    let m = d.mul_add(t, t - 1.0);
    let e = if tiny { e - 64 } else { e };
    let s = mul_pf(LN2, e as f64);
    let x = div(Dd(m, 0.0), add_ff(2.0, m));
    let x2 = x.0 * x.0;
    let t = log_poly(x2);
    let s = add_pp(s, Dd(x.0 * 2.0, x.1 * 2.0));
    let s = add_pf(s, x2 * x.0 * t);
    let mut r = s.0 + s.1;
    // the core approximation holds up to 1e307 (SLEEF's LOG1P_BOUND)
    if d > 1.0e307 || d.is_nan() {
        r = log_u1(d);
    }
    if d < -1.0 || d.is_nan() {
        f64::NAN
    } else if d == -1.0 {
        f64::NEG_INFINITY
    } else if d == 0.0 && d.is_sign_negative() {
        -0.0
    } else {
        r
    }
}

const L2U: f64 = 0.693_147_180_559_662_956_511_601_805_686_950_683_593_75;
const L2L: f64 = 0.282_352_905_630_315_771_225_884_481_750_134_360_255_254_120_68e-12;
const R_LN2: f64 = std::f64::consts::LOG2_E;

/// e^d of a pair, as a pair (SLEEF's `expk2`).
#[inline(always)]
fn expk2(d: Dd) -> Dd {
    let u = (d.0 + d.1) * R_LN2;
    let dq = u.round_ties_even();
    // lanes out of range only feed results the callers overwrite
    let q = dq as i32;
    let s = add2_pf(d, dq * -L2U);
    let s = add2_pf(s, dq * -L2L);
    let s2 = squ(s);
    let s4 = squ(s2);
    let s8 = s4.0 * s4.0;
    let (x, x2, x4) = (s.0, s2.0, s4.0);
    // POLY10(x, x2, x4, x8, c9..c0): x8 (x c9 + c8) + x4 POLY4(c7..c4) + POLY4(c3..c0)
    let u = s8.mul_add(
        x.mul_add(0.1602472219709932072e-9, 0.2092255183563157007e-8),
        x4.mul_add(
            x2.mul_add(
                x.mul_add(0.2505230023782644465e-7, 0.2755724800902135303e-6),
                x.mul_add(0.2755731892386044373e-5, 0.2480158735605815065e-4),
            ),
            x2.mul_add(
                x.mul_add(0.1984126984148071858e-3, 0.1388888888886763255e-2),
                x.mul_add(0.8333333333333347095e-2, 0.4166666666666669905e-1),
            ),
        ),
    );
    let t = add_fp(0.5, mul_pf(s, 0.1666666666666666574e+0));
    let t = add_fp(1.0, mul_pp(t, s));
    let t = add_fp(1.0, mul_pp(t, s));
    let t = add_pp(t, mul_pf(s4, u));
    if d.0 < -1000.0 {
        Dd(0.0, 0.0)
    } else {
        Dd(ldexp2(t.0, q), ldexp2(t.1, q))
    }
}

/// e^a - 1 as SLEEF's `xexpm1` (1.0 ulp): e^a as a pair, minus 1, summed.
#[inline(always)]
pub fn expm1(a: f64) -> f64 {
    let d = add2_pf(expk2(Dd(a, 0.0)), -1.0);
    let x = d.0 + d.1;
    if a > 709.782712893383996732223 {
        f64::INFINITY
    } else if a < -36.736800569677101399113302437 {
        -1.0
    } else if a == 0.0 && a.is_sign_negative() {
        -0.0
    } else {
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log1p_and_expm1_specials() {
        assert_eq!(log1p(0.0).to_bits(), 0.0f64.to_bits());
        assert_eq!(log1p(-0.0).to_bits(), (-0.0f64).to_bits());
        assert_eq!(log1p(-1.0), f64::NEG_INFINITY);
        assert!(log1p(-1.5).is_nan() && log1p(f64::NAN).is_nan());
        assert_eq!(log1p(f64::INFINITY), f64::INFINITY);
        assert_eq!(log1p(1e-300), 1e-300);
        assert!((log1p(f64::MAX) - f64::MAX.ln()).abs() <= 1e-13);
        assert_eq!(expm1(0.0).to_bits(), 0.0f64.to_bits());
        assert_eq!(expm1(-0.0).to_bits(), (-0.0f64).to_bits());
        assert_eq!(expm1(1000.0), f64::INFINITY);
        assert_eq!(expm1(-40.0), -1.0);
        assert_eq!(expm1(f64::NEG_INFINITY), -1.0);
        assert!(expm1(f64::NAN).is_nan());
        assert_eq!(expm1(1e-300), 1e-300);
    }

    #[test]
    fn within_an_ulp_of_the_c_library() {
        let mut x = -0.999_f64;
        while x < 50.0 {
            for (got, want) in [(log1p(x), x.ln_1p()), (expm1(x / 2.0), (x / 2.0).exp_m1())] {
                assert!(
                    (got - want).abs() <= want.abs() * 2.3e-16,
                    "{x}: {got} vs {want}"
                );
            }
            x += 0.000_731_3;
        }
    }

    /// Results PyTorch 2.15 gives (SLEEF's), where the C library rounds the other way.
    #[test]
    fn pytorchs_bits() {
        assert_eq!(log1p(2.0).to_bits(), 1.0986122886681098f64.to_bits());
    }
}
