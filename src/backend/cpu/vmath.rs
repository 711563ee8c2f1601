//! float32 `exp`, `tanh` and `erf` that the compiler vectorises: branch-free float64 arithmetic (a
//! polynomial and an exponent built from bits), rounded once to float32. float64 carries ~50
//! bits where float32 keeps 24, so the results are float32's correctly rounded values but for
//! inputs within about 1e-14 of a rounding midpoint (the C library's `expf`/`tanhf`, one call
//! per element, give the same values and cost 5-10x more). float64 tensors keep the C library.
//!
//! [`VecMath`] is what the declared rows call (`v.vexp()`); the elementwise loops run compiled
//! for AVX2/FMA when the CPU has them (`maps.rs`), which is where these become vector code.
//! The polynomials use separate multiplies and adds (never `mul_add`, a C library call where
//! the code is not compiled for FMA), so every machine and every loop gets the same bits.

/// `e^x` for x within [-200, 200] (larger magnitudes are clamped: their float32 results are
/// 0 or inf either way); NaN stays NaN.
#[inline(always)]
fn exp_core(x: f64) -> f64 {
    const MAGIC: f64 = 6_755_399_441_055_744.0; // 1.5 * 2^52: adding it rounds to an integer
    const LOG2E: f64 = std::f64::consts::LOG2_E;
    const LN2_HI: f64 = 6.931_471_803_691_238e-1;
    const LN2_LO: f64 = 1.908_214_929_270_587_7e-10;
    let x = x.clamp(-200.0, 200.0);
    let t = x * LOG2E + MAGIC;
    let n = t - MAGIC;
    // x = n ln2 + r, |r| <= ln2 / 2
    let r = (x - n * LN2_HI) - n * LN2_LO;
    // e^r by Estrin's scheme on its Taylor series to r^11 (relative error < 1e-14 for
    // |r| <= ln2/2): independent multiply-adds side by side instead of a chain of 11
    const C: [f64; 12] = [
        1.0,
        1.0,
        1.0 / 2.0,
        1.0 / 6.0,
        1.0 / 24.0,
        1.0 / 120.0,
        1.0 / 720.0,
        1.0 / 5_040.0,
        1.0 / 40_320.0,
        1.0 / 362_880.0,
        1.0 / 3_628_800.0,
        1.0 / 39_916_800.0,
    ];
    let r2 = r * r;
    let r4 = r2 * r2;
    let r8 = r4 * r4;
    let p01 = C[1] * r + C[0];
    let p23 = C[3] * r + C[2];
    let p45 = C[5] * r + C[4];
    let p67 = C[7] * r + C[6];
    let p89 = C[9] * r + C[8];
    let pab = C[11] * r + C[10];
    let p03 = p23 * r2 + p01;
    let p47 = p67 * r2 + p45;
    let p8b = pab * r2 + p89;
    let p = p8b * r8 + (p47 * r4 + p03);
    // 2^n from the integer n in t's low mantissa bits (|n| <= 289: a normal float64 exponent)
    let n_int = t.to_bits().wrapping_sub(MAGIC.to_bits());
    let scale = f64::from_bits(n_int.wrapping_add(1023) << 52);
    p * scale
}

/// `e^x` of a float32.
#[inline(always)]
pub fn exp_f32(x: f32) -> f32 {
    exp_core(x as f64) as f32
}

/// `tanh x` of a float32: an odd Taylor polynomial near 0 (where `1 - 2/(e^2x + 1)` would lose
/// bits to cancellation), that formula elsewhere; both computed, one kept (no branch).
#[inline(always)]
pub fn tanh_f32(x: f32) -> f32 {
    let x = x as f64;
    let a = x.abs();
    let x2 = x * x;
    // x - x^3/3 + 2x^5/15 - 17x^7/315 + 62x^9/2835 - 1382x^11/155925
    let x4 = x2 * x2;
    let hi = (-1382.0 / 155_925.0) * x2 + 62.0 / 2835.0;
    let mid = (-17.0 / 315.0) * x2 + 2.0 / 15.0;
    let p = (hi * x4 + mid) * x2 - 1.0 / 3.0;
    let small = x * (x2 * p + 1.0);
    let e = exp_core(2.0 * a);
    let large = (1.0 - 2.0 / (e + 1.0)).copysign(x);
    (if a < 0.0625 { small } else { large }) as f32
}

/// `erf x` of a float32 through fdlibm's rational approximations (those of the C library's and
/// the `libm` crate's float64 `erf`), every region computed and one kept (no branch), with
/// `exp` from `exp_core`: float64 accuracy, rounded once.
#[inline(always)]
#[allow(clippy::excessive_precision)] // fdlibm's published digits, kept verbatim
pub fn erf_f32(x: f32) -> f32 {
    const PP: [f64; 5] = [
        1.28379167095512558561e-01,
        -3.25042107247001499370e-01,
        -2.84817495755985104766e-02,
        -5.77027029648944159157e-03,
        -2.37630166566501626084e-05,
    ];
    const QQ: [f64; 5] = [
        3.97917223959155352819e-01,
        6.50222499887672944485e-02,
        5.08130628187576562776e-03,
        1.32494738004321644526e-04,
        -3.96022827877536812320e-06,
    ];
    const PA: [f64; 7] = [
        -2.36211856075265944077e-03,
        4.14856118683748331666e-01,
        -3.72207876035701323847e-01,
        3.18346619901161753674e-01,
        -1.10894694282396677476e-01,
        3.54783043256182359371e-02,
        -2.16637559486879084300e-03,
    ];
    const QA: [f64; 6] = [
        1.06420880400844228286e-01,
        5.40397917702171048937e-01,
        7.18286544141962662868e-02,
        1.26171219808761642112e-01,
        1.36370839120290507362e-02,
        1.19844998467991074170e-02,
    ];
    const RA: [f64; 8] = [
        -9.86494403484714822705e-03,
        -6.93858572707181764372e-01,
        -1.05586262253232909814e+01,
        -6.23753324503260060396e+01,
        -1.62396669462573470355e+02,
        -1.84605092906711035994e+02,
        -8.12874355063065934246e+01,
        -9.81432934416914548592e+00,
    ];
    const SA: [f64; 8] = [
        1.96512716674392571292e+01,
        1.37657754143519042600e+02,
        4.34565877475229228821e+02,
        6.45387271733267880336e+02,
        4.29008140027567833386e+02,
        1.08635005541779435134e+02,
        6.57024977031928170135e+00,
        -6.04244152148580987438e-02,
    ];
    const RB: [f64; 7] = [
        -9.86494292470009928597e-03,
        -7.99283237680523006574e-01,
        -1.77579549177547519889e+01,
        -1.60636384855821916062e+02,
        -6.37566443368389627722e+02,
        -1.02509513161107724954e+03,
        -4.83519191608651397019e+02,
    ];
    const SB: [f64; 7] = [
        3.03380607434824582924e+01,
        3.25792512996573918826e+02,
        1.53672958608443695994e+03,
        3.19985821950859553908e+03,
        2.55305040643316442583e+03,
        4.74528541206955367215e+02,
        -2.24409524465858183362e+01,
    ];
    const RB_PAD: [f64; 8] = [RB[0], RB[1], RB[2], RB[3], RB[4], RB[5], RB[6], 0.0];
    const SB_PAD: [f64; 8] = [SB[0], SB[1], SB[2], SB[3], SB[4], SB[5], SB[6], 0.0];
    const ERX: f64 = 8.45062911510467529297e-01;
    #[inline(always)]
    fn poly<const N: usize>(c: &[f64; N], t: f64) -> f64 {
        let mut p = c[N - 1];
        for k in (0..N - 1).rev() {
            p = p * t + c[k];
        }
        p
    }
    let x = x as f64;
    let ax = x.abs();
    let z = x * x;
    let s1 = ax - 1.0;
    let s2 = 1.0 / z;
    let (small, mid, near) = (ax < 0.84375, ax < 1.25, ax < 1.0 / 0.35);
    // Each region's quotient, the tail's coefficients chosen per lane (RB and SB padded with a
    // leading zero: Horner's first step then gives their own leading coefficient exactly), and
    // one division for the three (a division costs several multiply-adds).
    // |x| < 0.84375: x + x R(x²), R = P/Q
    let (p_small, q_small) = (poly(&PP, z), 1.0 + z * poly(&QQ, z));
    // 0.84375 <= |x| < 1.25: erx + P(s)/Q(s), s = |x| - 1
    let (p_mid, q_mid) = (poly(&PA, s1), 1.0 + s1 * poly(&QA, s1));
    // 1.25 <= |x| < 6: 1 - exp(-x² - 0.5625 + R(s)/S(s)) / |x|, s = 1/x²
    let rc: [f64; 8] = std::array::from_fn(|k| if near { RA[k] } else { RB_PAD[k] });
    let sc: [f64; 8] = std::array::from_fn(|k| if near { SA[k] } else { SB_PAD[k] });
    let (p_tail, q_tail) = (poly(&rc, s2), 1.0 + s2 * poly(&sc, s2));
    let num = if small {
        p_small
    } else if mid {
        p_mid
    } else {
        p_tail
    };
    let den = if small {
        q_small
    } else if mid {
        q_mid
    } else {
        q_tail
    };
    let ratio = num / den;
    let y = if small {
        x + x * ratio
    } else {
        let m = if mid {
            ERX + ratio
        } else if ax < 6.0 {
            1.0 - exp_core(-z - 0.5625 + ratio) / ax
        } else {
            1.0
        };
        m.copysign(x)
    };
    // NaN stays NaN (every comparison above is false for it)
    (if x.is_nan() { x } else { y }) as f32
}

/// The vectorisable element functions of the declared rows: float32 through [`exp_f32`] and
/// [`tanh_f32`], float64 through the C library; `log1p` and `expm1` through SLEEF's functions
/// (`sleef`, `sleef64`), PyTorch's for both widths.
pub trait VecMath: Copy {
    fn vexp(self) -> Self;
    fn vtanh(self) -> Self;
    fn verf(self) -> Self;
    fn vlog1p(self) -> Self;
    fn vexpm1(self) -> Self;
}

impl VecMath for f32 {
    #[inline(always)]
    fn vexp(self) -> f32 {
        exp_f32(self)
    }
    #[inline(always)]
    fn vtanh(self) -> f32 {
        tanh_f32(self)
    }
    #[inline(always)]
    fn verf(self) -> f32 {
        erf_f32(self)
    }
    #[inline(always)]
    fn vlog1p(self) -> f32 {
        super::sleef::log1p(self)
    }
    #[inline(always)]
    fn vexpm1(self) -> f32 {
        super::sleef::expm1(self)
    }
}

impl VecMath for f64 {
    #[inline(always)]
    fn vexp(self) -> f64 {
        self.exp()
    }
    #[inline(always)]
    fn vtanh(self) -> f64 {
        self.tanh()
    }
    #[inline(always)]
    fn verf(self) -> f64 {
        libm::erf(self)
    }
    #[inline(always)]
    fn vlog1p(self) -> f64 {
        super::sleef64::log1p(self)
    }
    #[inline(always)]
    fn vexpm1(self) -> f64 {
        super::sleef64::expm1(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The float32 nearest to the float64 value, and its neighbours' distance.
    fn ulps(got: f32, want: f64) -> f64 {
        let w = want as f32;
        if got == w || (got.is_nan() && w.is_nan()) {
            return 0.0;
        }
        let ulp = (f32::from_bits(w.abs().to_bits() + 1) - w.abs()) as f64;
        ((got as f64) - want).abs() / ulp
    }

    #[test]
    fn exp_matches_the_float64_library_to_half_an_ulp() {
        let mut worst: f64 = 0.0;
        let mut x = -104.0f32;
        while x < 89.0 {
            worst = worst.max(ulps(exp_f32(x), (x as f64).exp()));
            x += 0.000_731;
        }
        assert!(worst <= 0.5 + 1e-6, "worst error {worst} ulp");
        assert_eq!(exp_f32(0.0), 1.0);
        assert_eq!(exp_f32(f32::INFINITY), f32::INFINITY);
        assert_eq!(exp_f32(f32::NEG_INFINITY), 0.0);
        assert_eq!(exp_f32(89.0), f32::INFINITY);
        assert!(exp_f32(f32::NAN).is_nan());
        // denormal results
        assert_eq!(exp_f32(-100.0), (-100.0f64).exp() as f32);
    }

    #[test]
    fn erf_matches_the_float64_library_to_half_an_ulp() {
        let mut worst: f64 = 0.0;
        let mut x = -7.0f32;
        while x < 7.0 {
            worst = worst.max(ulps(erf_f32(x), libm::erf(x as f64)));
            x += 0.000_113;
        }
        for x in [
            1e-30f32, 1e-8, 0.84374, 0.84375, 1.2499, 1.25, 2.857, 2.858, 5.999, 6.0,
        ] {
            worst = worst.max(ulps(erf_f32(x), libm::erf(x as f64)));
            worst = worst.max(ulps(erf_f32(-x), libm::erf(-x as f64)));
        }
        assert!(worst <= 0.5 + 1e-6, "worst error {worst} ulp");
        assert_eq!(erf_f32(f32::INFINITY), 1.0);
        assert_eq!(erf_f32(f32::NEG_INFINITY), -1.0);
        assert_eq!(erf_f32(-0.0).to_bits(), (-0.0f32).to_bits());
        assert!(erf_f32(f32::NAN).is_nan());
    }

    #[test]
    fn tanh_matches_the_float64_library_to_half_an_ulp() {
        let mut worst: f64 = 0.0;
        let mut x = -12.0f32;
        while x < 12.0 {
            worst = worst.max(ulps(tanh_f32(x), (x as f64).tanh()));
            x += 0.000_173;
        }
        for x in [1e-30f32, 1e-8, 1e-4, 0.0624, 0.0625, 0.0626, 0.3] {
            worst = worst.max(ulps(tanh_f32(x), (x as f64).tanh()));
            worst = worst.max(ulps(tanh_f32(-x), (-x as f64).tanh()));
        }
        assert!(worst <= 0.5 + 1e-6, "worst error {worst} ulp");
        assert_eq!(tanh_f32(0.0).to_bits(), 0.0f32.to_bits());
        assert_eq!(tanh_f32(-0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(tanh_f32(f32::INFINITY), 1.0);
        assert_eq!(tanh_f32(f32::NEG_INFINITY), -1.0);
        assert!(tanh_f32(f32::NAN).is_nan());
    }
}
