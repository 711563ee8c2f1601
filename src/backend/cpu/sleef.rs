//! SLEEF's float32 `expf_u10`, `logf_u10`, `log1pf_u10`, `expm1f_u10` and `atan2f_u10`, the
//! functions behind PyTorch's CPU vector code (`Vectorized<float>::exp()`/`log()`/`log1p()`/
//! `expm1()`/`atan2()` on AVX2 and AVX-512 builds), reproduced step for step so that the kernels that call them (softmax,
//! log_softmax and their gradients, sigmoid; the `log1p` and `expm1` ops) give PyTorch's bits. They are not correctly rounded (about 1 result in 10 is 1 ulp away
//! from the nearest float32), so they serve only where PyTorch calls them; `exp` and `log` as
//! ops go through Intel's MKL in PyTorch and stay on `vmath`.
//!
//! Every multiply-add is a fused `mul_add`, as SLEEF's FMA builds compute them; the functions
//! run inside `maps::vectorised` (compiled for FMA), where those are single instructions.
//! The algorithms and constants are SLEEF's (src/libm/sleefsimdsp.c, Boost licence); the code
//! is written here from them.
// the constants are written as SLEEF writes them, digits past float32's included
#![allow(clippy::excessive_precision)]

/// ln 2 split in a high part with trailing zero bits and the rest (SLEEF's L2Uf, L2Lf).
const L2U: f32 = 0.693_145_751_953_125;
const L2L: f32 = 1.428_606_765_330_187_045e-6;
const R_LN2: f32 = std::f32::consts::LOG2_E;

/// 2^q for q in the normal exponent range, from bits (SLEEF's `vpow2i_vf_vi2`).
#[inline(always)]
fn pow2i(q: i32) -> f32 {
    f32::from_bits((q.wrapping_add(0x7f) as u32).wrapping_shl(23))
}

/// d · 2^e in two steps, so that e down to about -250 stays exact (SLEEF's `vldexp2`).
#[inline(always)]
fn ldexp2(d: f32, e: i32) -> f32 {
    d * pow2i(e >> 1) * pow2i(e - (e >> 1))
}

/// e^d as SLEEF's `xexpf` (the u10 variant): d = q ln2 + s, a degree-7 polynomial in s,
/// scaled by 2^q; 0 below -104, inf above 100.
#[inline(always)]
pub fn exp(d: f32) -> f32 {
    // rounding to nearest even, as the vector conversion does; out-of-range q only feeds
    // lanes that the two selects below overwrite
    let q = (d * R_LN2).round_ties_even() as i32;
    let qf = q as f32;
    let s = qf.mul_add(-L2U, d);
    let s = qf.mul_add(-L2L, s);
    let mut u = 0.000_198_527_617_612_853_646_278_381_f32;
    u = u.mul_add(s, 0.001_393_043_552_525_341_510_772_71);
    u = u.mul_add(s, 0.008_333_360_776_305_198_669_433_59);
    u = u.mul_add(s, 0.041_666_485_369_205_474_853_515_6);
    u = u.mul_add(s, 0.166_666_671_633_720_397_949_219);
    u = u.mul_add(s, 0.5);
    let u = 1.0 + (s * s).mul_add(u, s);
    let u = ldexp2(u, q);
    let u = if d < -104.0 { 0.0 } else { u };
    if 100.0 < d {
        f32::INFINITY
    } else {
        u
    }
}

/// A float32 pair (hi + lo) carrying about 48 bits (SLEEF's `vfloat2`).
#[derive(Clone, Copy)]
struct F2(f32, f32);

/// x + y exactly as a pair, for any magnitudes (`dfadd2_vf2_vf_vf`).
#[inline(always)]
fn add2(x: f32, y: f32) -> F2 {
    let s = x + y;
    let v = s - x;
    F2(s, (x - (s - v)) + (y - v))
}

/// x / y of pairs, with FMA (`dfdiv_vf2_vf2_vf2`).
#[inline(always)]
fn div2(n: F2, d: F2) -> F2 {
    let t = 1.0 / d.0;
    let s = n.0 * t;
    let u = t.mul_add(n.0, -s);
    let v = (-d.1).mul_add(t, (-d.0).mul_add(t, 1.0));
    F2(s, s.mul_add(v, n.1.mul_add(t, u)))
}

/// x · y of a pair and a float, with FMA (`dfmul_vf2_vf2_vf`).
#[inline(always)]
fn mul2(x: F2, y: f32) -> F2 {
    let s = x.0 * y;
    F2(s, x.1.mul_add(y, x.0.mul_add(y, -s)))
}

/// x + y of pairs, |x| >= |y| (`dfadd_vf2_vf2_vf2`).
#[inline(always)]
fn add_pp(x: F2, y: F2) -> F2 {
    let s = x.0 + y.0;
    F2(s, (((x.0 - s) + y.0) + x.1) + y.1)
}

/// x + y of a pair and a float, |x| >= |y| (`dfadd_vf2_vf2_vf`).
#[inline(always)]
fn add_pf(x: F2, y: f32) -> F2 {
    let s = x.0 + y;
    F2(s, ((x.0 - s) + y) + x.1)
}

/// e ln 2 + 2 atanh(x) in pairs, summed: the common tail of SLEEF's `xlogf_u1` and
/// `xlog1pf` (x = (m-1)/(m+1) as a pair, its odd series to x^5).
#[inline(always)]
fn ln_series(e: i32, x: F2) -> f32 {
    let s = mul2(
        F2(0.693_147_182_464_599_609_38, -1.904_654_323_148_236_017e-9),
        e as f32,
    );
    let x2 = x.0 * x.0;
    let mut t = 0.302_729_487_4_f32;
    t = t.mul_add(x2, 0.399_610_817_4);
    t = t.mul_add(x2, 0.666_669_488_0);
    let s = add_pp(s, F2(x.0 * 2.0, x.1 * 2.0));
    let s = add_pf(s, x2 * x.0 * t);
    s.0 + s.1
}

/// ln d as SLEEF's `xlogf_u1` (the u10 variant): d = m 2^e with m in [0.75, 1.5),
/// ln m = 2 atanh((m-1)/(m+1)) by an odd polynomial, summed in pairs.
#[inline(always)]
pub fn log(d: f32) -> f32 {
    // subnormals scaled up by 2^64 first
    let tiny = d < f32::MIN_POSITIVE;
    let d2 = if tiny {
        d * 18_446_744_073_709_551_616.0
    } else {
        d
    };
    let e = (((d2 * (1.0 / 0.75)).to_bits() >> 23) & 0xff) as i32 - 0x7f;
    let m = f32::from_bits(d2.to_bits().wrapping_add(((-e) as u32).wrapping_shl(23)));
    let e = if tiny { e - 64 } else { e };
    let r = ln_series(e, div2(add2(-1.0, m), add2(1.0, m)));
    if d == f32::INFINITY {
        f32::INFINITY
    } else if d < 0.0 || d.is_nan() {
        f32::NAN
    } else if d == 0.0 {
        f32::NEG_INFINITY
    } else {
        r
    }
}

/// x + y exactly, |x| >= |y| (`dfadd_vf2_vf_vf`).
#[inline(always)]
fn add_ff(x: f32, y: f32) -> F2 {
    let s = x + y;
    F2(s, (x - s) + y)
}

/// x + y of a float and a pair, |x| >= |y| (`dfadd_vf2_vf_vf2`).
#[inline(always)]
fn add_fp(x: f32, y: F2) -> F2 {
    let s = x + y.0;
    F2(s, ((x - s) + y.0) + y.1)
}

/// x + y of a pair and a float, any magnitudes (`dfadd2_vf2_vf2_vf`).
#[inline(always)]
fn add2_pf(x: F2, y: f32) -> F2 {
    let s = x.0 + y;
    let v = s - x.0;
    let t = (x.0 - (s - v)) + (y - v);
    F2(s, t + x.1)
}

/// x + y of pairs, any magnitudes (`dfadd2_vf2_vf2_vf2`).
#[inline(always)]
fn add2_pp(x: F2, y: F2) -> F2 {
    let s = x.0 + y.0;
    let v = s - x.0;
    let t = (x.0 - (s - v)) + (y.0 - v);
    F2(s, t + (x.1 + y.1))
}

/// x · y of pairs, with FMA (`dfmul_vf2_vf2_vf2`).
#[inline(always)]
fn mul_pp(x: F2, y: F2) -> F2 {
    let s = x.0 * y.0;
    F2(s, x.0.mul_add(y.1, x.1.mul_add(y.0, x.0.mul_add(y.0, -s))))
}

/// x² of a pair, with FMA (`dfsqu_vf2_vf2`).
#[inline(always)]
fn squ(x: F2) -> F2 {
    let s = x.0 * x.0;
    F2(s, (x.0 + x.0).mul_add(x.1, x.0.mul_add(x.0, -s)))
}

/// ln(1 + d) as SLEEF's `xlog1pf` (1.0 ulp), PyTorch's float32 `log1p`: 1 + d = m 2^e with m
/// in [0.75, 1.5) computed without rounding 1 + d, ln m by its odd series, in pairs. Below -1
/// the result is the NaN with every bit set, as SLEEF's mask makes it.
#[inline(always)]
pub fn log1p(d: f32) -> f32 {
    let dp1 = d + 1.0;
    let tiny = dp1 < f32::MIN_POSITIVE;
    let dp1 = if tiny {
        dp1 * 18_446_744_073_709_551_616.0
    } else {
        dp1
    };
    let e = (((dp1 * (1.0 / 0.75)).to_bits() >> 23) & 0xff) as i32 - 0x7f;
    let t = f32::from_bits(
        1.0f32
            .to_bits()
            .wrapping_add(((-e) as u32).wrapping_shl(23)),
    );
    let m = d.mul_add(t, t - 1.0);
    let e = if tiny { e - 64 } else { e };
    let mut r = ln_series(e, div2(F2(m, 0.0), add_ff(2.0, m)));
    // the core approximation holds up to 1e38 (SLEEF's LOG1PF_BOUND)
    if d > 1.0e38 || d.is_nan() {
        r = log(d);
    }
    if -1.0 > d {
        f32::from_bits(u32::MAX)
    } else if d == -1.0 {
        f32::NEG_INFINITY
    } else if d == 0.0 && d.is_sign_negative() {
        -0.0
    } else {
        r
    }
}

/// e^d of a pair, as a pair (SLEEF's `expk2f`).
#[inline(always)]
fn expk2(d: F2) -> F2 {
    let u = (d.0 + d.1) * R_LN2;
    // rounding to nearest even, as the vector conversion does
    let q = u.round_ties_even() as i32;
    let qf = q as f32;
    let s = add2_pf(d, qf * -L2U);
    let s = add2_pf(s, qf * -L2L);
    let mut u = 0.198_096_022_4e-3_f32;
    u = u.mul_add(s.0, 0.139_425_648_4e-2);
    u = u.mul_add(s.0, 0.833_345_670_3e-2);
    u = u.mul_add(s.0, 0.416_663_736_1e-1);
    let t = add2_pf(mul2(s, u), 0.166_666_659_414_234_244_790_680_580_464);
    let t = add2_pf(mul_pp(s, t), 0.5);
    let t = add2_pp(s, mul_pp(squ(s), t));
    let t = add_fp(1.0, t);
    if d.0 < -104.0 {
        F2(0.0, 0.0)
    } else {
        F2(ldexp2(t.0, q), ldexp2(t.1, q))
    }
}

/// e^a - 1 as SLEEF's `xexpm1f` (1.0 ulp), PyTorch's float32 `expm1`.
#[inline(always)]
pub fn expm1(a: f32) -> f32 {
    let d = add2_pf(expk2(F2(a, 0.0)), -1.0);
    let x = d.0 + d.1;
    if a > 88.722_831_726_074_218_75 {
        f32::INFINITY
    } else if a < -16.635_532_333_438_687_426_013_570 {
        -1.0
    } else if a == 0.0 && a.is_sign_negative() {
        -0.0
    } else {
        x
    }
}

/// A pair with its parts renormalised (`dfnormalize_vf2_vf2`).
#[inline(always)]
fn normalize(t: F2) -> F2 {
    let s = t.0 + t.1;
    F2(s, (t.0 - s) + t.1)
}

/// `x` with the sign of `y` flipped into it (`vmulsign_vf_vf_vf`: x xor signbit(y)).
#[inline(always)]
fn mulsign(x: f32, y: f32) -> f32 {
    f32::from_bits(x.to_bits() ^ (y.to_bits() & 0x8000_0000))
}

/// `m` with the sign of an infinite `d`, 0 for a finite one (`visinf2_vf_vf_vf`).
#[inline(always)]
fn isinf2(d: f32, m: f32) -> f32 {
    if d.is_infinite() {
        f32::from_bits((d.to_bits() & 0x8000_0000) | m.to_bits())
    } else {
        0.0
    }
}

/// atan(y / x) + q π/2 in pairs, the quadrant folded in (SLEEF's `atan2kf_u1`).
#[inline(always)]
fn atan2k(y: F2, x: F2) -> F2 {
    let mut q: i32 = if x.0 < 0.0 { -2 } else { 0 };
    let x = if x.0 < 0.0 { F2(-x.0, -x.1) } else { x };
    if x.0 < y.0 {
        q += 1;
    }
    let p = x.0 < y.0;
    let s = if p { F2(-x.0, -x.1) } else { y };
    let t = if p { y } else { x };
    let s = div2(s, t);
    let t = normalize(squ(s));
    let mut u = -0.001_763_979_089_446_365_833_282_47_f32;
    u = u.mul_add(t.0, 0.010_790_090_076_625_347_137_451_2);
    u = u.mul_add(t.0, -0.030_956_460_162_997_245_788_574_2);
    u = u.mul_add(t.0, 0.057_736_508_548_259_735_107_421_9);
    u = u.mul_add(t.0, -0.083_895_072_340_965_270_996_093_8);
    u = u.mul_add(t.0, 0.109_463_557_600_975_036_621_094);
    u = u.mul_add(t.0, -0.142_626_821_994_781_494_140_625);
    u = u.mul_add(t.0, 0.199_983_194_470_405_578_613_281);
    let t = mul_pp(t, add_ff(-0.333_332_866_430_282_592_773_438, u * t.0));
    let t = mul_pp(s, add_fp(1.0, t));
    add_pp(
        mul2(
            F2(1.570_796_370_506_286_621_1, -4.371_138_828_673_792_886_5e-8),
            q as f32,
        ),
        t,
    )
}

/// atan2(y, x) as SLEEF's `xatan2f_u1` (1.0 ulp), PyTorch's float32 `Vectorized::atan2`: tiny
/// x scaled up, the quadrant from the signs, C's special values; NaN is the all-ones NaN.
#[inline(always)]
pub fn atan2(y: f32, x: f32) -> f32 {
    use std::f32::consts::{FRAC_PI_2, FRAC_PI_4, PI};
    let tiny = x.abs() < 2.938_737_278_354_183_094_7e-39;
    let (x, y) = if tiny {
        (x * 16_777_216.0, y * 16_777_216.0)
    } else {
        (x, y)
    };
    let d = atan2k(F2(y.abs(), 0.0), F2(x, 0.0));
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
        return f32::from_bits(u32::MAX);
    }
    mulsign(r, y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atan2_is_within_an_ulp_and_keeps_c_special_values() {
        use std::f32::consts::{FRAC_PI_2, FRAC_PI_4, PI};
        for i in -40..40 {
            for j in -40..40 {
                let (y, x) = (i as f32 * 0.37, j as f32 * 0.53 + 0.01);
                let want = (y as f64).atan2(x as f64) as f32;
                let got = atan2(y, x);
                assert!(
                    (got.to_bits() as i64 - want.to_bits() as i64).abs() <= 1,
                    "atan2({y}, {x})"
                );
            }
        }
        assert_eq!(atan2(0.0, -0.0), PI);
        assert_eq!(atan2(-0.0, 1.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(atan2(1.0, 0.0), FRAC_PI_2);
        assert_eq!(atan2(f32::INFINITY, f32::INFINITY), FRAC_PI_4);
        assert_eq!(atan2(f32::NAN, 1.0).to_bits(), u32::MAX);
    }

    /// Inputs where SLEEF's result is 1 ulp from the correctly rounded one: (input bits,
    /// SLEEF's result bits as its C code gives them, which PyTorch's softmax reproduces).
    #[test]
    fn exp_and_log_give_sleefs_bits_not_the_nearest_float() {
        for (x, want) in [
            (0x418f915c, 0x4c6d4cea),
            (0xc1207e63, 0x3838a29a),
            (0xc13dc9e6, 0x36ecb8ec),
            (0xc17528e1, 0x346deb90),
        ] {
            assert_eq!(exp(f32::from_bits(x)).to_bits(), want, "exp({x:#x})");
        }
        for (x, want) in [
            (0x422e557b, 0x40719453),
            (0x3fbefb9a, 0x3ecce0e1),
            (0x4296b588, 0x408a4f80),
            (0x40bd6654, 0x3fe39990),
        ] {
            assert_eq!(log(f32::from_bits(x)).to_bits(), want, "log({x:#x})");
        }
    }

    #[test]
    fn specials() {
        assert_eq!(exp(-105.0), 0.0);
        assert_eq!(exp(101.0), f32::INFINITY);
        assert_eq!(exp(0.0), 1.0);
        assert!(exp(f32::NAN).is_nan());
        assert_eq!(log(1.0), 0.0);
        assert_eq!(log(0.0), f32::NEG_INFINITY);
        assert_eq!(log(f32::INFINITY), f32::INFINITY);
        assert!(log(-1.0).is_nan() && log(f32::NAN).is_nan());
        // subnormal and largest inputs stay within an ulp
        for x in [1e-40f32, f32::MAX] {
            let (got, want) = (log(x) as f64, (x as f64).ln());
            assert!(
                (got - want).abs() <= f32::EPSILON as f64 * want.abs(),
                "log({x})"
            );
        }
    }
}
