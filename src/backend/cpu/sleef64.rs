//! SLEEF's float64 `log1p_u10` and `expm1_u10`, the functions behind PyTorch's CPU `log1p` and
//! `expm1` on float64 (`Vectorized<double>::log1p()`/`expm1()` on AVX2 builds, whose vector
//! map also covers the last partial vector), reproduced step for step so that leafgrad's
//! `log1p`/`expm1` give PyTorch's bits. About 1 result in 25 differs by an ulp from the C
//! library's, which is why the C library's functions are not used for these two ops.
//! Also `atan2_u10` and `hypot_u05`, which PyTorch's vector blocks call for float64 `atan2`,
//! complex128 `angle` and complex128 `abs`/`sgn` (its scalar code calls the C library's).
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

/// x · y of two floats, exactly as a pair (`ddmul_vd2_vd_vd`, FMA).
#[inline(always)]
fn mul_ff(x: f64, y: f64) -> Dd {
    let s = x * y;
    Dd(s, x.mul_add(y, -s))
}

/// x + y of pairs, any magnitudes (`ddadd2_vd2_vd2_vd2`).
#[inline(always)]
fn add2_pp(x: Dd, y: Dd) -> Dd {
    let s = x.0 + y.0;
    let v = s - x.0;
    let t = (x.0 - (s - v)) + (y.0 - v);
    Dd(s, t + (x.1 + y.1))
}

/// A pair with its parts renormalised (`ddnormalize_vd2_vd2`).
#[inline(always)]
fn normalize(t: Dd) -> Dd {
    let s = t.0 + t.1;
    Dd(s, (t.0 - s) + t.1)
}

/// 1 / d as a pair (`ddrec_vd2_vd`, FMA).
#[inline(always)]
fn rec(d: f64) -> Dd {
    let s = 1.0 / d;
    Dd(s, s * (-d).mul_add(s, 1.0))
}

/// √d of a pair (`ddsqrt_vd2_vd2`).
#[inline(always)]
fn sqrt(d: Dd) -> Dd {
    let t = (d.0 + d.1).sqrt();
    let r = mul_pp(add2_pp(d, mul_ff(t, t)), rec(t));
    Dd(r.0 * 0.5, r.1 * 0.5)
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

/// `x` with the sign of `y` flipped into it (`vmulsign_vd_vd_vd`: x xor signbit(y)).
#[inline(always)]
fn mulsign(x: f64, y: f64) -> f64 {
    f64::from_bits(x.to_bits() ^ (y.to_bits() & (1 << 63)))
}

/// `m` with the sign of an infinite `d`, 0 for a finite one (`visinf2_vd_vd_vd`).
#[inline(always)]
fn isinf2(d: f64, m: f64) -> f64 {
    if d.is_infinite() {
        f64::from_bits((d.to_bits() & (1 << 63)) | m.to_bits())
    } else {
        0.0
    }
}

/// atan(y / x) + q π/2 in pairs, the quadrant folded in (SLEEF's `atan2k_u1`): the odd series
/// of atan in s², its first sixteen terms by Estrin's scheme (`POLY16`).
#[inline(always)]
fn atan2k(y: Dd, x: Dd) -> Dd {
    let mut q: i32 = if x.0 < 0.0 { -2 } else { 0 };
    let x = if x.0 < 0.0 { Dd(-x.0, -x.1) } else { x };
    if x.0 < y.0 {
        q += 1;
    }
    let p = x.0 < y.0;
    let s = if p { Dd(-x.0, -x.1) } else { y };
    let t = if p { y } else { x };
    let s = div(s, t);
    let t = normalize(squ(s));
    let x1 = t.0;
    let x2 = x1 * x1;
    let x4 = x2 * x2;
    let x8 = x4 * x4;
    // POLY4(x, x2, c3, c2, c1, c0) = x2·(x·c3 + c2) + (x·c1 + c0), every step fused
    let p4 =
        |c3: f64, c2: f64, c1: f64, c0: f64| x2.mul_add(x1.mul_add(c3, c2), x1.mul_add(c1, c0));
    let hi = x4.mul_add(
        p4(
            1.06298484191448746607415e-05,
            -0.000125620649967286867384336,
            0.00070557664296393412389774,
            -0.00251865614498713360352999,
        ),
        p4(
            0.00646262899036991172313504,
            -0.0128281333663399031014274,
            0.0208024799924145797902497,
            -0.0289002344784740315686289,
        ),
    );
    let lo = x4.mul_add(
        p4(
            0.0359785005035104590853656,
            -0.041848579703592507506027,
            0.0470843011653283988193763,
            -0.0524914210588448421068719,
        ),
        p4(
            0.0587946590969581003860434,
            -0.0666620884778795497194182,
            0.0769225330296203768654095,
            -0.0909090442773387574781907,
        ),
    );
    let mut u = x8.mul_add(hi, lo);
    u = u.mul_add(x1, 0.111111108376896236538123);
    u = u.mul_add(x1, -0.142857142756268568062339);
    u = u.mul_add(x1, 0.199999999997977351284817);
    u = u.mul_add(x1, -0.333333333333317605173818);
    let t = add_pp(s, mul_pf(mul_pp(s, t), u));
    add_pp(
        mul_pf(
            Dd(std::f64::consts::FRAC_PI_2, 6.12323399573676603586882e-17),
            q as f64,
        ),
        t,
    )
}

/// atan2(y, x) as SLEEF's `xatan2_u1` (1.0 ulp), PyTorch's float64 `Vectorized::atan2`: tiny
/// x scaled up, the quadrant from the signs, C's special values; NaN is the all-ones NaN.
#[inline(always)]
pub fn atan2(y: f64, x: f64) -> f64 {
    use std::f64::consts::{FRAC_PI_2, FRAC_PI_4, PI};
    let tiny = x.abs() < 5.5626846462680083984e-309;
    let (x, y) = if tiny {
        (x * 9_007_199_254_740_992.0, y * 9_007_199_254_740_992.0)
    } else {
        (x, y)
    };
    let d = atan2k(Dd(y.abs(), 0.0), Dd(x, 0.0));
    let mut r = mulsign(d.0 + d.1, x);
    if x.is_infinite() || x == 0.0 {
        r = FRAC_PI_2 - isinf2(x, mulsign(FRAC_PI_2, x));
    }
    if y.is_infinite() {
        r = FRAC_PI_2 - isinf2(x, mulsign(FRAC_PI_4, x));
    }
    if y == 0.0 {
        r = if x.is_sign_negative() { PI } else { 0.0 };
    }
    if x.is_nan() || y.is_nan() {
        return f64::from_bits(u64::MAX);
    }
    mulsign(r, y)
}

/// √(x² + y²) as SLEEF's `xhypot_u05` (0.5001 ulp), PyTorch's complex128 `Vectorized::abs`:
/// min/max scaled past the subnormals, max · √(1 + (min/max)²) in pairs.
#[inline(always)]
pub fn hypot(x: f64, y: f64) -> f64 {
    let (x, y) = (x.abs(), y.abs());
    // _mm256_min_pd/_mm256_max_pd: the second operand where either is NaN
    let min = if x < y { x } else { y };
    let max = if x > y { x } else { y };
    let (n, d) = if max < f64::MIN_POSITIVE {
        (
            min * 18_014_398_509_481_984.0,
            max * 18_014_398_509_481_984.0,
        )
    } else {
        (min, max)
    };
    let t = div(Dd(n, 0.0), Dd(d, 0.0));
    let t = mul_pf(sqrt(add2_pf(squ(t), 1.0)), max);
    let mut ret = t.0 + t.1;
    if ret.is_nan() {
        ret = f64::INFINITY;
    }
    if min == 0.0 {
        ret = max;
    }
    if x.is_nan() || y.is_nan() {
        ret = f64::NAN;
    }
    if x == f64::INFINITY || y == f64::INFINITY {
        ret = f64::INFINITY;
    }
    ret
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

    #[test]
    fn atan2_and_hypot_are_within_an_ulp_and_keep_c_special_values() {
        use std::f64::consts::{FRAC_PI_2, FRAC_PI_4, PI};
        for i in -60..60 {
            for j in -60..60 {
                let (y, x) = (i as f64 * 0.37, j as f64 * 0.53 + 0.01);
                for (got, want) in [(atan2(y, x), y.atan2(x)), (hypot(x, y), x.hypot(y))] {
                    assert!(
                        (got.to_bits() as i64 - want.to_bits() as i64).abs() <= 1,
                        "({y}, {x}): {got} vs {want}"
                    );
                }
            }
        }
        assert_eq!(atan2(0.0, -0.0), PI);
        assert_eq!(atan2(-0.0, 1.0).to_bits(), (-0.0f64).to_bits());
        assert_eq!(atan2(1.0, 0.0), FRAC_PI_2);
        assert_eq!(atan2(f64::INFINITY, f64::INFINITY), FRAC_PI_4);
        assert_eq!(atan2(f64::NAN, 1.0).to_bits(), u64::MAX);
        assert_eq!(atan2(1e-310, 1e-310), FRAC_PI_4);
        assert_eq!(hypot(3.0, -4.0), 5.0);
        assert_eq!(hypot(0.0, -2.5), 2.5);
        assert_eq!(hypot(f64::NAN, f64::INFINITY), f64::INFINITY);
        assert!(hypot(f64::NAN, 1.0).is_nan());
        assert_eq!(hypot(f64::MAX, f64::MAX), f64::INFINITY);
        assert_eq!(hypot(3e-320, 4e-320), 5e-320);
    }

    /// Results PyTorch 2.15 gives (SLEEF's), where the C library rounds the other way.
    #[test]
    fn pytorchs_bits() {
        assert_eq!(log1p(2.0).to_bits(), 1.0986122886681098f64.to_bits());
    }
}
