//! The CPU's elementwise kernels by identity: [`unary`] and [`binary`] (see
//! `crate::backend::Backend`). Ops promote and check their operands first; these compute.
use super::{map1, map2};
use crate::backend::Strided;
use crate::backend::{BinaryKernel, CmpOp, UnaryKernel};
use crate::dtype::{DType, Element};
use crate::error::{Error, Result};
use crate::shape::broadcast_shapes;
use num_complex::{Complex32, Complex64};

/// Real numeric types (no bool, no complex).
macro_rules! with_real_numeric {
    ($dt:expr, $T:ident, $body:block) => {
        match $dt {
            DType::UInt8 => {
                type $T = u8;
                $body
            }
            DType::Int8 => {
                type $T = i8;
                $body
            }
            DType::Int16 => {
                type $T = i16;
                $body
            }
            DType::Int32 => {
                type $T = i32;
                $body
            }
            DType::Int64 => {
                type $T = i64;
                $body
            }
            DType::Float16 => {
                type $T = half::f16;
                $body
            }
            DType::BFloat16 => {
                type $T = half::bf16;
                $body
            }
            DType::Float32 => {
                type $T = f32;
                $body
            }
            DType::Float64 => {
                type $T = f64;
                $body
            }
            DType::UInt16 => {
                type $T = u16;
                $body
            }
            DType::UInt32 => {
                type $T = u32;
                $body
            }
            DType::UInt64 => {
                type $T = u64;
                $body
            }
            d => return Err(unsupported("this kernel", d)),
        }
    };
}

/// The error of a kernel reached with a dtype it has no loop for (ops refuse or widen such
/// operands first, with PyTorch's message).
fn unsupported(what: &str, dt: DType) -> Error {
    Error::NotImplemented(format!(
        "\"{what}_cpu\" not implemented for '{}'",
        dt.scalar_type_name()
    ))
}

/// `k(x)` elementwise.
pub fn unary(k: UnaryKernel, x: &Strided) -> Result<Strided> {
    let dt = x.dtype();
    match k {
        UnaryKernel::Float(op) => op.cpu(x),
        // -v, not 0 - v: the negation of +0.0 is -0.0; integers wrap as in PyTorch
        UnaryKernel::Neg => match dt {
            DType::Float32 => map1::<f32, f32>(x, |v| -v),
            DType::Float64 => map1::<f64, f64>(x, |v| -v),
            DType::Float16 => map1::<half::f16, half::f16>(x, |v| -v),
            DType::BFloat16 => map1::<half::bf16, half::bf16>(x, |v| -v),
            DType::Complex64 => map1::<Complex32, Complex32>(x, |v| -v),
            DType::Complex128 => map1::<Complex64, Complex64>(x, |v| -v),
            DType::Int64 => map1::<i64, i64>(x, |v| v.wrapping_neg()),
            DType::Int32 => map1::<i32, i32>(x, |v| v.wrapping_neg()),
            DType::Int16 => map1::<i16, i16>(x, |v| v.wrapping_neg()),
            DType::Int8 => map1::<i8, i8>(x, |v| v.wrapping_neg()),
            DType::UInt8 => map1::<u8, u8>(x, |v| v.wrapping_neg()),
            DType::Bool | DType::UInt16 | DType::UInt32 | DType::UInt64 => {
                Err(unsupported("neg", dt))
            }
        },
        UnaryKernel::Conj => match dt {
            DType::Complex64 => map1::<Complex32, Complex32>(x, |v| v.conj()),
            DType::Complex128 => map1::<Complex64, Complex64>(x, |v| v.conj()),
            _ => (x).cast_keep(dt),
        },
        UnaryKernel::Relu => with_real_numeric!(dt, T, {
            let z = T::default();
            // NaN stays NaN (v != v only for NaN), as in PyTorch.
            #[allow(clippy::eq_op)]
            // clamp_min(x, 0): -0.0 stays -0.0 (PyTorch's max keeps x on a tie)
            map1::<T, T>(x, move |v| if v < z { z } else { v })
        }),
        UnaryKernel::Abs => match dt {
            DType::Complex64 => map1::<Complex32, f32>(x, |v| v.norm()),
            // SLEEF's hypot in PyTorch's vector blocks (complex128: 2 to a vector)
            DType::Complex128 => super::loop_paths::map1_paths::<Complex64, f64>(
                x,
                super::torch_vec::lanes() / 2,
                abs128,
            ),
            // the sign bit cleared: |-0.0| = 0.0
            DType::Float32 => map1::<f32, f32>(x, |v| v.abs()),
            DType::Float64 => map1::<f64, f64>(x, |v| v.abs()),
            DType::Float16 => {
                map1::<half::f16, half::f16>(x, |v| half::f16::from_bits(v.to_bits() & 0x7fff))
            }
            DType::BFloat16 => {
                map1::<half::bf16, half::bf16>(x, |v| half::bf16::from_bits(v.to_bits() & 0x7fff))
            }
            _ => with_real_numeric!(dt, T, {
                let z = T::default();
                map1::<T, T>(x, move |v| if v < z { z - v } else { v })
            }),
        },
        UnaryKernel::Sign => with_real_numeric!(dt, T, {
            let z = T::default();
            let one = <T as Element>::from_f64(1.0);
            map1::<T, T>(x, move |v| {
                if v > z {
                    one
                } else if v < z {
                    z - one
                } else {
                    z
                }
            })
        }),
        // z / |z|, 0 at 0
        UnaryKernel::Sgn => match dt {
            // +0 + 0i (both signs cleared) where |z| is 0; elsewhere PyTorch's vector blocks
            // divide each part by |z|, its scalar code divides z by the complex |z| + 0i
            // (c10's division: each part times 1/|z|, NaN for an infinite z)
            DType::Complex64 => super::loop_paths::map1_paths::<Complex32, Complex32>(
                x,
                super::torch_vec::lanes(),
                |v, p| {
                    let n = v.norm();
                    if n == 0.0 {
                        Complex32::new(0.0, 0.0)
                    } else if p == super::loop_paths::Path::Vector {
                        Complex32::new(v.re / n, v.im / n)
                    } else {
                        v.cdiv(Complex32::new(n, 0.0))
                    }
                },
            ),
            DType::Complex128 => super::loop_paths::map1_paths::<Complex64, Complex64>(
                x,
                super::torch_vec::lanes() / 2,
                |v, p| {
                    let n = abs128(v, p);
                    if n == 0.0 {
                        Complex64::new(0.0, 0.0)
                    } else if p == super::loop_paths::Path::Vector {
                        Complex64::new(v.re / n, v.im / n)
                    } else {
                        v.cdiv(Complex64::new(n, 0.0))
                    }
                },
            ),
            _ => unary(UnaryKernel::Sign, x),
        },
        UnaryKernel::Rounding(op) => match dt {
            DType::Float32 | DType::Float64 => op.cpu(x),
            // halves round in float32, exactly (the result is representable)
            d if d.is_half() => op.cpu(&x.cast_keep(DType::Float32)?)?.cast_keep(d),
            d => Err(unsupported(op.name(), d)),
        },
        // arg z; 0 or π for reals (NaN stays NaN)
        UnaryKernel::Angle => match dt {
            // SLEEF's atan2f in PyTorch's vector blocks (complex64: 4 to a vector)
            DType::Complex64 => super::loop_paths::map1_paths::<Complex32, f32>(
                x,
                super::torch_vec::lanes(),
                |v, p| {
                    if p == super::loop_paths::Path::Vector {
                        super::sleef::atan2(v.im, v.re)
                    } else {
                        v.im.atan2(v.re)
                    }
                },
            ),
            // complex128: 2 to a vector
            DType::Complex128 => super::loop_paths::map1_paths::<Complex64, f64>(
                x,
                super::torch_vec::lanes() / 2,
                |v, p| {
                    if p == super::loop_paths::Path::Vector {
                        super::sleef64::atan2(v.im, v.re)
                    } else {
                        v.im.atan2(v.re)
                    }
                },
            ),
            d if d.is_differentiable() => {
                let r = map1::<f64, f64>(&x.cast_keep(DType::Float64)?, |v| {
                    if v < 0.0 {
                        std::f64::consts::PI
                    } else if v.is_nan() {
                        v
                    } else {
                        0.0
                    }
                })?;
                r.cast_keep(d)
            }
            d => Err(unsupported("angle", d)),
        },
        UnaryKernel::Not => match dt {
            DType::Bool => map1::<bool, bool>(x, |v| !v),
            d => Err(unsupported("logical_not", d)),
        },
        UnaryKernel::BNot => match dt {
            DType::Int64 => map1::<i64, i64>(x, |v| !v),
            d => Err(unsupported("bitwise_not", d)),
        },
    }
}

/// c10::complex's division (Smith's algorithm, as numpy): scaled by the larger part of the
/// divisor, so an infinite divisor gives 0 rather than NaN. Each `x + y * z` is one fused
/// multiply-add, as PyTorch's compiler contracts it (so `z / z` keeps PyTorch's last bits:
/// an imaginary part of about 1e-8, not 0).
pub trait CDiv: Sized {
    fn cdiv(self, rhs: Self) -> Self;
}

macro_rules! impl_cdiv {
    ($C:ty) => {
        impl CDiv for $C {
            #[inline]
            fn cdiv(self, rhs: $C) -> $C {
                let (a, b, c, d) = (self.re, self.im, rhs.re, rhs.im);
                let (abs_c, abs_d) = (c.abs(), d.abs());
                if abs_c >= abs_d {
                    if abs_c == 0.0 && abs_d == 0.0 {
                        <$C>::new(a / abs_c, b / abs_d)
                    } else {
                        let rat = d / c;
                        let scl = 1.0 / d.mul_add(rat, c);
                        <$C>::new(b.mul_add(rat, a) * scl, (-a).mul_add(rat, b) * scl)
                    }
                } else {
                    let rat = c / d;
                    let scl = 1.0 / c.mul_add(rat, d);
                    <$C>::new(a.mul_add(rat, b) * scl, b.mul_add(rat, -a) * scl)
                }
            }
        }
    };
}
impl_cdiv!(Complex32);
impl_cdiv!(Complex64);

/// The complex square root as C99's csqrt (what PyTorch's CPU kernel calls): exact special
/// cases at infinities and NaN (`sqrt(-inf + yi) = 0 + inf i`), and the hypot-based formula,
/// not the polar one, for finite values.
pub trait CSqrt: Sized {
    fn csqrt(self) -> Self;
}

macro_rules! impl_csqrt {
    ($C:ty, $R:ty) => {
        impl CSqrt for $C {
            fn csqrt(self) -> $C {
                let (x, y) = (self.re, self.im);
                let (inf, nan) = (<$R>::INFINITY, <$R>::NAN);
                if y.is_infinite() {
                    return <$C>::new(inf, y);
                }
                if x.is_nan() {
                    return <$C>::new(nan, nan);
                }
                if x.is_infinite() {
                    return if y.is_nan() {
                        if x > 0.0 {
                            <$C>::new(inf, nan)
                        } else {
                            <$C>::new(nan, inf)
                        }
                    } else if x > 0.0 {
                        <$C>::new(inf, (0.0 as $R).copysign(y))
                    } else {
                        <$C>::new(0.0, inf.copysign(y))
                    };
                }
                if y.is_nan() {
                    return <$C>::new(nan, nan);
                }
                if x == 0.0 && y == 0.0 {
                    return <$C>::new(0.0, y);
                }
                let d = x.hypot(y);
                if x > 0.0 {
                    let r = (0.5 * d + 0.5 * x).sqrt();
                    <$C>::new(r, 0.5 * (y / r))
                } else {
                    let s = (0.5 * d - 0.5 * x).sqrt();
                    <$C>::new((0.5 * (y / s)).abs(), s.copysign(y))
                }
            }
        }
    };
}
impl_csqrt!(Complex32, f32);
impl_csqrt!(Complex64, f64);

/// Complex power as C's cpow (exp(y log x)) at a zero base: 0 for Re(y) > 0, inf + NaN i for
/// Re(y) < 0, NaN (0^0 included) when Re(y) is 0, as PyTorch's std::pow gives.
macro_rules! complex_pow {
    ($C:ty) => {
        |x: $C, y: $C| {
            if x.re == 0.0 && x.im == 0.0 {
                let zero = y.re - y.re;
                if y.re > 0.0 {
                    <$C>::new(zero, zero.copysign(-y.im))
                } else if y.re < 0.0 {
                    <$C>::new(-y.re / zero, zero / zero)
                } else {
                    <$C>::new(zero / zero, zero / zero)
                }
            } else {
                x.powc(y)
            }
        }
    };
}

/// x**y for y >= 0, wrapping like C integer arithmetic (exponentiation by squaring over all 63
/// exponent bits, so (-1) ** 2**62 is 1).
fn ipow(x: i64, y: i64) -> i64 {
    if y < 0 {
        // PyTorch's powi: 1 and -1 keep their magnitude, anything else truncates to 0
        return match x {
            1 => 1,
            -1 if y % 2 != 0 => -1,
            -1 => 1,
            _ => 0,
        };
    }
    let (mut base, mut e, mut acc) = (x, y as u64, 1i64);
    while e > 0 {
        if e & 1 == 1 {
            acc = acc.wrapping_mul(base);
        }
        base = base.wrapping_mul(base);
        e >>= 1;
    }
    acc
}

/// Integer floor division, rounding toward -inf.
fn floor_div_i64(x: i64, y: i64) -> i64 {
    x.wrapping_div_euclid(y)
        - if (x.wrapping_rem_euclid(y) != 0) && (y < 0) {
            1
        } else {
            0
        }
}

/// The remainder with the sign of the divisor (Python's %), or of the dividend (C's fmod).
fn rem_i64(x: i64, y: i64, python_sign: bool) -> i64 {
    let m = x.wrapping_rem(y);
    if python_sign && m != 0 && ((m < 0) != (y < 0)) {
        m + y
    } else {
        m
    }
}

/// PyTorch's div_floor_floating: the quotient of `a - fmod(a, b)`, corrected to the floor, so
/// `1 // 0.1` is 9 (Python's answer), not `floor(1 / 0.1)` = 10; a zero divisor gives `a / b`.
macro_rules! floor_div_float {
    ($t:ty) => {
        |a: $t, b: $t| -> $t {
            if b == 0.0 {
                return a / b;
            }
            let m = a % b;
            let mut div = (a - m) / b;
            if m != 0.0 && (b < 0.0) != (m < 0.0) {
                div -= 1.0;
            }
            if div == 0.0 {
                return (0.0 as $t).copysign(a / b);
            }
            let mut fl = div.floor();
            if div - fl > 0.5 {
                fl += 1.0;
            }
            fl
        }
    };
}

macro_rules! float_mod {
    ($T:ty, $python_sign:expr) => {
        move |x: $T, y: $T| {
            let m = x % y; // C fmod
            if $python_sign && m != 0.0 && ((m < 0.0) != (y < 0.0)) {
                m + y
            } else {
                m
            }
        }
    };
}

/// `maximum`/`minimum` of float operands that are broadcast or strided, each element by
/// PyTorch's path: its vector code (256-bit `vec::maximum`) keeps the second of two tied zeros,
/// its scalar code (`std::max`) the first; NaN wins either way.
fn min_max_paths<T: crate::dtype::Element + PartialOrd>(
    a: &Strided,
    b: &Strided,
    shape: &[usize],
    max: bool,
) -> Result<Strided> {
    use super::loop_paths::{map2_paths, Path, Rules};
    let rules = |_, _, _| Rules {
        quads: false,
        scalar_only: false,
    };
    #[allow(clippy::eq_op)]
    let f = move |x: T, y: T, path: Path| {
        if x != x || (y == y && x != y && (x > y) == max) || (x == y && path != Path::Vector) {
            x
        } else {
            y
        }
    };
    map2_paths::<T, T, T>(a, b, shape, 64 / std::mem::size_of::<T>(), rules, f)
}

/// `a k b` broadcast, computed in `dt` (comparisons give bools).
#[allow(clippy::bool_comparison)]
pub fn binary(k: BinaryKernel, a: &Strided, b: &Strided, dt: DType) -> Result<Strided> {
    let shape = broadcast_shapes(&a.shape(), &b.shape())?;
    let s = &shape[..];
    match k {
        BinaryKernel::Float(op) => op.cpu(a, b, s),
        BinaryKernel::Add | BinaryKernel::Sub | BinaryKernel::Mul | BinaryKernel::Div => {
            match dt {
                // each element by the path PyTorch's loop takes for it (see complex_loop)
                DType::Complex64 if matches!(k, BinaryKernel::Mul | BinaryKernel::Div) => {
                    let div = k == BinaryKernel::Div;
                    return super::complex_loop::mul_div::<Complex32>(a, b, s, div);
                }
                DType::Complex128 if matches!(k, BinaryKernel::Mul | BinaryKernel::Div) => {
                    let div = k == BinaryKernel::Div;
                    return super::complex_loop::mul_div::<Complex64>(a, b, s, div);
                }
                // PyTorch adds and subtracts complex tensors as a + alpha·b (alpha = ±1): the
                // complex product turns an infinite or NaN part of b into NaN in both parts
                DType::Complex64 if matches!(k, BinaryKernel::Add | BinaryKernel::Sub) => {
                    let m = Complex32::new(if k == BinaryKernel::Add { 1.0 } else { -1.0 }, 0.0);
                    return map2::<Complex32, Complex32, Complex32>(a, b, s, move |x, y| x + y * m);
                }
                DType::Complex128 if matches!(k, BinaryKernel::Add | BinaryKernel::Sub) => {
                    let m = Complex64::new(if k == BinaryKernel::Add { 1.0 } else { -1.0 }, 0.0);
                    return map2::<Complex64, Complex64, Complex64>(a, b, s, move |x, y| x + y * m);
                }
                DType::Bool => return Err(unsupported(k.name(), dt)),
                _ => {}
            }
            crate::with_numeric!(dt, T, {
                match k {
                    BinaryKernel::Add => map2::<T, T, T>(a, b, s, |x, y| x + y),
                    BinaryKernel::Sub => map2::<T, T, T>(a, b, s, |x, y| x - y),
                    BinaryKernel::Mul => map2::<T, T, T>(a, b, s, |x, y| x * y),
                    _ => {
                        if !dt.is_differentiable() && b.try_to_vec::<T>()?.contains(&T::default()) {
                            return Err(Error::Runtime("ZeroDivisionError".into()));
                        }
                        map2::<T, T, T>(a, b, s, |x, y| x / y)
                    }
                }
            })
        }
        BinaryKernel::Pow => match dt {
            DType::Float32 => map2::<f32, f32, f32>(a, b, s, |x, y| x.powf(y)),
            DType::Float64 => map2::<f64, f64, f64>(a, b, s, |x, y| x.powf(y)),
            DType::Complex64 => {
                map2::<Complex32, Complex32, Complex32>(a, b, s, complex_pow!(Complex32))
            }
            DType::Complex128 => {
                map2::<Complex64, Complex64, Complex64>(a, b, s, complex_pow!(Complex64))
            }
            d => Err(unsupported("pow", d)),
        },
        BinaryKernel::IPow => map2::<i64, i64, i64>(a, b, s, ipow),
        BinaryKernel::Maximum | BinaryKernel::Minimum => {
            let max = k == BinaryKernel::Maximum;
            let same = &a.shape[..] == s && &b.shape[..] == s;
            let dense = same && a.is_contiguous() && b.is_contiguous();
            if !dense && matches!(dt, DType::Float32 | DType::Float64) {
                // broadcast or strided: each element by PyTorch's path (see zero_ties)
                return match dt {
                    DType::Float32 => min_max_paths::<f32>(a, b, s, max),
                    _ => min_max_paths::<f64>(a, b, s, max),
                };
            }
            let r = with_real_numeric!(dt, T, {
                // NaN wins, as in PyTorch
                #[allow(clippy::eq_op)]
                map2::<T, T, T>(a, b, s, move |x, y| {
                    if x != x || (y == y && (x > y) == max) {
                        x
                    } else {
                        y
                    }
                })
            })?;
            if dense && r.is_contiguous() {
                // SAFETY: host, contiguous, of dtype `dt` (the caller promoted both); `r` was
                // just made and is not shared
                unsafe {
                    match dt {
                        DType::Float32 => super::torch_vec::zero_ties::<f32>(a, b, &r, 8),
                        DType::Float64 => super::torch_vec::zero_ties::<f64>(a, b, &r, 4),
                        _ => {}
                    }
                }
            }
            Ok(r)
        }
        BinaryKernel::FloorDiv => match dt {
            DType::Float32 => map2::<f32, f32, f32>(a, b, s, floor_div_float!(f32)),
            DType::Float64 => map2::<f64, f64, f64>(a, b, s, floor_div_float!(f64)),
            DType::Int64 => map2::<i64, i64, i64>(a, b, s, floor_div_i64),
            d => Err(unsupported("div_floor", d)),
        },
        BinaryKernel::Remainder | BinaryKernel::Fmod => {
            let python_sign = k == BinaryKernel::Remainder;
            match dt {
                DType::Float32 => map2::<f32, f32, f32>(a, b, s, float_mod!(f32, python_sign)),
                DType::Float64 => map2::<f64, f64, f64>(a, b, s, float_mod!(f64, python_sign)),
                DType::Int64 => {
                    map2::<i64, i64, i64>(a, b, s, move |x, y| rem_i64(x, y, python_sign))
                }
                d => Err(unsupported(k.name(), d)),
            }
        }
        BinaryKernel::BAnd => map2::<i64, i64, i64>(a, b, s, |x, y| x & y),
        BinaryKernel::BOr => map2::<i64, i64, i64>(a, b, s, |x, y| x | y),
        BinaryKernel::BXor => map2::<i64, i64, i64>(a, b, s, |x, y| x ^ y),
        BinaryKernel::And => map2::<bool, bool, bool>(a, b, s, |x, y| x & y),
        BinaryKernel::Or => map2::<bool, bool, bool>(a, b, s, |x, y| x | y),
        BinaryKernel::Xor => map2::<bool, bool, bool>(a, b, s, |x, y| x ^ y),
        BinaryKernel::Cmp(op) if dt.is_complex() => {
            let ne = match op {
                CmpOp::Eq => false,
                CmpOp::Ne => true,
                _ => return Err(unsupported(k.name(), dt)),
            };
            let (a, b) = (
                (a).cast_keep(DType::Complex128)?,
                (b).cast_keep(DType::Complex128)?,
            );
            map2::<Complex64, Complex64, bool>(&a, &b, s, move |x, y| (x == y) != ne)
        }
        BinaryKernel::Cmp(op) => crate::with_real!(dt, T, {
            match op {
                CmpOp::Eq => map2::<T, T, bool>(a, b, s, |x, y| x == y),
                CmpOp::Ne => map2::<T, T, bool>(a, b, s, |x, y| x != y),
                CmpOp::Lt => map2::<T, T, bool>(a, b, s, |x, y| x < y),
                CmpOp::Le => map2::<T, T, bool>(a, b, s, |x, y| x <= y),
                CmpOp::Gt => map2::<T, T, bool>(a, b, s, |x, y| x > y),
                CmpOp::Ge => map2::<T, T, bool>(a, b, s, |x, y| x >= y),
            }
        }),
    }
}

/// `clamp(x, lo, hi)` with float bounds: NaN stays NaN, a NaN bound makes every element NaN.
pub fn clamp(x: &Strided, lo: f64, hi: f64) -> Result<Strided> {
    let nan_bound = lo.is_nan() || hi.is_nan();
    crate::with_real!(x.dtype(), T, {
        map1::<T, T>(x, move |v| {
            let f = v.to_f64();
            if nan_bound {
                T::from_f64(f64::NAN)
            } else if f.is_nan() {
                v
            } else {
                T::from_f64(f.max(lo).min(hi))
            }
        })
    })
}

/// |z| of a complex128 as PyTorch computes it on `path`: SLEEF's `hypot_u05` in the vector
/// blocks, the C library's `hypot` elsewhere.
fn abs128(v: Complex64, path: super::loop_paths::Path) -> f64 {
    if path == super::loop_paths::Path::Vector {
        super::sleef64::hypot(v.re, v.im)
    } else {
        v.re.hypot(v.im)
    }
}
