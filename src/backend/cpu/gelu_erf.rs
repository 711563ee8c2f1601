//! float32 GELU (`approximate='none'`) as PyTorch computes it on x86 CPUs for contiguous tensors
//! of more than one element: PyTorch hands those to oneDNN's `eltwise_gelu_erf`, whose results
//! are not `x/2 · (1 + erf(x/√2))` correctly rounded but those of its own approximations. These
//! functions follow them operation for operation (the same float32 constants, the same fused
//! multiply-adds), so that leafgrad's values are PyTorch's bit for bit (checked on 10⁵ inputs
//! and the special values against PyTorch 2.15):
//!
//! - forward, CPUs with AVX-512 (F, CD, BW, DQ, VL): a piecewise degree-5 polynomial in `|x|`,
//!   picked by the top bits of `|x|` (oneDNN's minimax table below);
//! - forward, other CPUs: Abramowitz and Stegun's formula 7.1.26 for erf, with oneDNN's `exp`;
//! - backward (every CPU): `1/2 + x/√2 · e^(-x²/2)/√π + erf(x/√2)/2` with the same erf formula.
//!
//! The polynomial coefficients and constants are oneDNN's (`jit_uni_eltwise_injector`,
//! Apache-2.0), written here as the float32 bit patterns it uses. The loops run compiled for
//! FMA (`vectorised`), where `mul_add` is one instruction; elsewhere it is the C library's
//! exact `fmaf`, so every machine gets the same bits.

/// Which forward approximation PyTorch's oneDNN runs on this CPU (its `avx512_core` test).
pub fn minimax_forward() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        static WIDE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *WIDE.get_or_init(|| {
            use std::arch::is_x86_feature_detected as has;
            has!("avx512f")
                && has!("avx512cd")
                && has!("avx512bw")
                && has!("avx512dq")
                && has!("avx512vl")
        })
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

const fn f(bits: u32) -> f32 {
    f32::from_bits(bits)
}

/// oneDNN's minimax coefficients: `POL[d][i]` is the coefficient of degree d of polynomial i
/// (1..=22 by binade quarter of |x|, 23 the constant 1 past `RBOUND`, 24 the identity for NaN).
#[rustfmt::skip]
const POL: [[u32; 25]; 6] = [
    [0xa6f2cb94, 0x32827792, 0x3381cc0c, 0x34523d4a, 0x351ac44d, 0x35f36d88, 0x36ee8229,
     0x37b8a3bb, 0x3867a213, 0x3940033b, 0x3a2a5a1d, 0x3ae35863, 0x3b7828f2, 0x3c08b14b,
     0x3c515ed3, 0xbb503236, 0xbd8d8e5e, 0xbe8abcd9, 0xbf0c19a2, 0xbeccb328, 0x3e176ced,
     0x3f470d99, 0x3f7abb28, 0x3f800000, 0x00000000],
    [0x3f4c422a, 0x3f4c421f, 0x3f4c4207, 0x3f4c41cb, 0x3f4c413b, 0x3f4c3fad, 0x3f4c3a2f,
     0x3f4c2d40, 0x3f4c146a, 0x3f4bc341, 0x3f4ad08c, 0x3f48f8cf, 0x3f45fac7, 0x3f404e07,
     0x3f3b980f, 0x3f48dff3, 0x3f78b21b, 0x3fbb0704, 0x40019c32, 0x3fe536d6, 0x3f81331e,
     0x3e6c8684, 0x3c98f936, 0x00000000, 0x3f800000],
    [0xb62173f4, 0x3735e4cf, 0x37f2ff89, 0x388c23be, 0x3917535c, 0x39ab2ab0, 0x3a60fadb,
     0x3af9b960, 0x3b6e5491, 0x3c0a4ec5, 0x3ca5aa8c, 0x3d2138d9, 0x3d8737d4, 0x3ddfb660,
     0x3e0f27ab, 0x3d94004b, 0xbe0efdeb, 0xbf1d96c3, 0xbf89db58, 0xbf6d9897, 0xbef69fb8,
     0xbdc4f8a8, 0xbbde6422, 0x00000000, 0x00000000],
    [0xbe081a19, 0xbe084570, 0xbe08639b, 0xbe089837, 0xbe08f409, 0xbe09ab95, 0xbe0b66d0,
     0xbe0e400a, 0xbe124df8, 0xbe1bde02, 0xbe2f19c9, 0xbe4931bf, 0xbe685fbc, 0xbe89c95f,
     0xbe96cbca, 0xbe8044aa, 0xbe0550f2, 0x3dcfd6a1, 0x3e94c826, 0x3e79345f, 0x3decec91,
     0x3ca46568, 0x3aa1e00a, 0x00000000, 0x00000000],
    [0xba3d61db, 0x39f097a3, 0x3a5845dc, 0x3ab1fa35, 0x3b0cefb8, 0x3b653ab6, 0x3bcae527,
     0x3c221712, 0x3c6c5840, 0x3cc0a703, 0x3d1dcc19, 0x3d63656d, 0x3d955907, 0x3dbf9910,
     0x3dd53f69, 0x3db7dcef, 0x3d639ebe, 0xba6ede48, 0xbd22be69, 0xbd041cf1, 0xbc64f5ab,
     0xbb097a32, 0xb8ebf380, 0x00000000, 0x00000000],
    [0x3cb7d80c, 0x3c9b6050, 0x3c978d11, 0x3c92e850, 0x3c8d058b, 0x3c848454, 0x3c6cd623,
     0x3c4c824b, 0x3c2a7935, 0x3be0b390, 0x3b0651ac, 0xbb232f53, 0xbbd42fa0, 0xbc2c5366,
     0xbc492c9e, 0xbc2a7aa6, 0xbbd55d04, 0xba823a76, 0x3b102aa8, 0x3ae25a7e, 0x3a31f792,
     0x38b84375, 0x3689bb5a, 0x00000000, 0x00000000],
];
/// Added to |x|'s bits before the shift that gives the polynomial's index.
const IDX_BIAS: i32 = 0xc21fffff_u32 as i32;
/// Past this |x| (5.54...), erf(x/√2) is 1 in float32.
const RBOUND: f32 = f(0x40b15cee);

const ONE_OVER_SQRT2: f32 = f(0x3f3504f3);
const ONE_OVER_SQRT_PI: f32 = f(0x3f106eba);
/// Abramowitz and Stegun 7.1.26: erf(x) ≈ 1 - t·(p1 + p2 t + ... + p5 t⁴)·e^(-x²), t = 1/(1 + p x).
const AS_P: f32 = f(0x3ea7ba05);
const AS_POL: [f32; 5] = [
    f(0x3e827906),
    f(0xbe91a98e),
    f(0x3fb5f0e3),
    f(0xbfba00e3),
    f(0x3f87dc22),
];

/// oneDNN's float32 `exp`: x clamped to [ln FLT_MIN, ln FLT_MAX] (below it, 0), `n =
/// floor(x log₂e + 1/2)`, a degree-5 polynomial of `x - n ln 2`, scaled by `2^(n-1) · 2`.
#[inline(always)]
fn exp(x: f32) -> f32 {
    const LN_FLT_MIN: f32 = f(0xc2aeac50);
    const LN_FLT_MAX: f32 = f(0x42b17218);
    const LOG2E: f32 = f(0x3fb8aa3b);
    const LN2: f32 = f(0x3f317218);
    const POLY: [f32; 5] = [
        f(0x3f7ffffb),
        f(0x3efffee3),
        f(0x3e2aad40),
        f(0x3d2b9d0d),
        f(0x3c07cfce),
    ];
    let underflow = x < LN_FLT_MIN;
    // min then max, as oneDNN's minps/maxps: a NaN x becomes LN_FLT_MAX
    let x = if x < LN_FLT_MAX { x } else { LN_FLT_MAX };
    let x = if x > LN_FLT_MIN { x } else { LN_FLT_MIN };
    let n = (x * LOG2E + 0.5).floor();
    let r = (-n).mul_add(LN2, x);
    // n - 1 is an integer in [-126, 128]: 2^(n-1) is a normal float32
    let scale = f32::from_bits((((n - 1.0) as i32 + 127) as u32) << 23);
    let scale = if underflow { 0.0 } else { scale };
    let mut p = POLY[4];
    for c in [POLY[3], POLY[2], POLY[1], POLY[0], 1.0] {
        p = p.mul_add(r, c);
    }
    p * scale * 2.0
}

/// erf by Abramowitz and Stegun with oneDNN's operations (`x` already divided by √2), given
/// `e^(-x²)` (`exp_m_x2`).
#[inline(always)]
fn erf_as(x: f32, exp_m_x2: f32) -> f32 {
    let a = x.abs();
    let t = 1.0 / AS_P.mul_add(a, 1.0);
    let q = -exp_m_x2 * t;
    let mut r = AS_POL[4];
    for c in [AS_POL[3], AS_POL[2], AS_POL[1], AS_POL[0]] {
        r = r.mul_add(t, c);
    }
    let e = q.mul_add(r, 1.0);
    if x.is_sign_negative() {
        -e
    } else {
        e
    }
}

/// GELU of `s`, oneDNN's piecewise minimax polynomial (AVX-512 CPUs).
#[inline(always)]
pub fn forward_minimax(s: f32) -> f32 {
    let a = s.abs();
    let idx = (a.to_bits() as i32).wrapping_add(IDX_BIAS) >> 21;
    let idx = idx.clamp(1, 24);
    let idx = if RBOUND < a { 23 } else { idx } as usize;
    let mut p = f(POL[5][idx]);
    for d in (0..5).rev() {
        p = p.mul_add(a, f(POL[d][idx]));
    }
    let p = if s.is_sign_negative() { -p } else { p };
    s * (p + 1.0) * 0.5
}

/// GELU of `s` through Abramowitz and Stegun's erf (other CPUs).
#[inline(always)]
pub fn forward_as(s: f32) -> f32 {
    let x = s * ONE_OVER_SQRT2;
    let e = erf_as(x, exp(-(x * x)));
    let half = s * 0.5;
    e.mul_add(half, half)
}

/// GELU's derivative at `s` (times the incoming gradient by the caller).
#[inline(always)]
pub fn derivative(s: f32) -> f32 {
    let r = s * ONE_OVER_SQRT2;
    let q = exp(-(r * r));
    let t = r * ONE_OVER_SQRT_PI * q;
    let e = erf_as(r, q);
    e.mul_add(0.5, t + 0.5)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values of PyTorch 2.15's `F.gelu` (x86 with AVX-512) and of its gradient at the inputs.
    #[test]
    fn matches_pytorch_bits() {
        // (x, gelu(x), gelu'(x)) as float32 bit patterns
        let cases: [(u32, u32, u32); 10] = [
            (0x3f800000, 0x3f57625e, 0x3f8aaa14), // 1
            (0xbf800000, 0xbe227686, 0xbdaaa148), // -1
            (0x40400000, 0x403fbda4, 0x3f81876f), // 3
            (0xc0400000, 0xbb84b7c0, 0xbc43b780), // -3
            (0x3e800000, 0x3e1944d1, 0x3f3203fc), // 0.25
            (0x00000000, 0x00000000, 0x3f000000), // 0
            (0xbf4071c1, 0xbe2e0cef, 0x37c94000), // -0.75173575 (the derivative cancels)
            (0x40b33333, 0x40b33333, 0x3f800003), // 5.6
            (0xc0b33333, 0x80000000, 0xb4c00000), // -5.6
            (0x0da24260, 0x0d224260, 0x3f000000), // 1e-30
        ];
        for (x, y, d) in cases {
            let x = f32::from_bits(x);
            assert_eq!(forward_minimax(x).to_bits(), y, "gelu({x})");
            assert_eq!(derivative(x).to_bits(), d, "gelu'({x})");
        }
    }

    #[test]
    fn special_values() {
        // PyTorch's values too: the table's constant polynomial times inf is 0 · inf
        assert!(forward_minimax(f32::INFINITY).is_nan());
        assert!(forward_minimax(f32::NEG_INFINITY).is_nan());
        assert!(forward_minimax(f32::NAN).is_nan());
        assert_eq!(forward_as(f32::INFINITY), f32::INFINITY);
        assert_eq!(derivative(100.0), 1.0);
        assert_eq!(derivative(-100.0), 0.0);
    }
}
