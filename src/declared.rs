//! The op declarations: float functions of one and two tensors, each declared once. One row
//! gives the op's names, its kernel identity and node, its CPU element functions and CUDA
//! expressions (real; complex where the op takes complex tensors) (`v` is the element; `T` its
//! type, `R` the real type of a complex one), what its backward saves (`self`, the input, or
//! `result`, the output) and its derivative, written with ops so `create_graph` differentiates
//! it again. The doc comment is the Python docstring; its example is PyTorch's output and runs
//! as a doctest.
//!
//! Each layer expands the rows into its part, so none depends on another for them: the backend
//! into the kernel identities and CPU kernels (`src/backend/kernel.rs`), the ops into the
//! differentiable functions and the op table (`src/ops/pointwise.rs`, which says what a row
//! becomes), the bindings into Tensor methods (`src/python/math.rs`). Rows are tokens until
//! expanded: the names in a formula resolve where the ops layer expands it.

/// The declarations, handed to `$cb`: the backend's `define_float_unary_kernels`, the core's
/// `define_float_unary`, the bindings' methods. (Exported at the crate root, as every layer
/// expands it; not part of the API.)
#[doc(hidden)]
#[macro_export]
macro_rules! float_unary_ops {
    ($cb:ident) => {
        $cb! {
            /// Elementwise e ** x.
            ///
            /// >>> torch.exp(torch.tensor([0., 1.]))
            /// tensor([1.0000, 2.7183])
            exp exp_ Exp "ExpBackward0" {
                real: |v| v.vexp(),
                cuda: "m_exp(v)",
                complex: |v| v.exp(),
                cuda_complex: "c_exp(v)",
                saves: result,
                // d exp(x) = exp(x) dx
                grad: |y, g| mul(g, &conj(y)?),
            }
            /// Elementwise e ** x - 1, accurate for small x.
            ///
            /// >>> torch.expm1(torch.tensor([0., 1e-10, 1.]))
            /// tensor([0.0000e+00, 1.0000e-10, 1.7183e+00])
            expm1 expm1_ Expm1 "Expm1Backward0" {
                real: |v| v.vexpm1(),
                cuda: "m_expm1(v)",
                // c10's expm1(x) cos(y) - 2 sin²(y/2) + i e^x sin(y)
                complex: |v| $crate::backend::cpu::clibm::CLibm::c_expm1(v),
                cuda_complex: "c_expm1(v)",
                saves: result,
                // d (e^x - 1) = (result + 1) dx
                grad: |y, g| mul(g, &add(&conj(y)?, &Tensor::wrapped_scalar(1.0f64))?),
            }
            /// Elementwise natural logarithm.
            ///
            /// >>> torch.log(torch.tensor([1., 100.]))
            /// tensor([0.0000, 4.6052])
            log log_ Log "LogBackward0" {
                real: |v| v.ln(),
                cuda: "m_log(v)",
                complex: |v| $crate::backend::cpu::clibm::CLibm::c_log(v),
                cuda_complex: "c_log(v)",
                saves: self,
                // d log(x) = dx / x
                grad: |x, g| div(g, &conj(x)?),
            }
            /// Elementwise base-10 logarithm.
            ///
            /// >>> torch.log10(torch.tensor([1., 100.]))
            /// tensor([0., 2.])
            log10 log10_ Log10 "Log10Backward0" {
                real: |v| v.log10(),
                cuda: "m_log10(v)",
                // log(z) with each part divided by log 10 (see clibm)
                complex: |v| {
                    let l = $crate::backend::cpu::clibm::CLibm::c_log(v);
                    l.unscale(std::f64::consts::LN_10 as _)
                },
                cuda_complex: "c_log10(v)",
                saves: self,
                // d log10(x) = dx / (x ln 10)
                grad: |x, g| div(g, &mul_scalar(&conj(x)?, std::f64::consts::LN_10)?),
            }
            /// Elementwise base-2 logarithm.
            ///
            /// >>> torch.log2(torch.tensor([1., 8.]))
            /// tensor([0., 3.])
            log2 log2_ Log2 "Log2Backward0" {
                real: |v| v.log2(),
                cuda: "m_log2(v)",
                // log(z) with each part divided by log 2 (PyTorch's vector code, see clibm)
                complex: |v| {
                    let l = $crate::backend::cpu::clibm::CLibm::c_log(v);
                    l.unscale(std::f64::consts::LN_2 as _)
                },
                cuda_complex: "c_log2(v)",
                saves: self,
                // d log2(x) = dx / (x ln 2)
                grad: |x, g| div(g, &mul_scalar(&conj(x)?, std::f64::consts::LN_2)?),
            }
            /// Elementwise square root.
            ///
            /// >>> torch.sqrt(torch.tensor([4., 9.]))
            /// tensor([2., 3.])
            sqrt sqrt_ Sqrt "SqrtBackward0" {
                real: |v| v.sqrt(),
                cuda: "m_sqrt(v)",
                complex: |v| $crate::backend::cpu::elementwise::CSqrt::csqrt(v),
                cuda_complex: "c_sqrt(v)",
                saves: result,
                // d sqrt(x) = dx / (2 sqrt(x))
                grad: |y, g| div(g, &mul_scalar(&conj(y)?, 2.0)?),
            }
            /// Elementwise 1 / sqrt(x).
            ///
            /// >>> torch.rsqrt(torch.tensor([4., 16.]))
            /// tensor([0.5000, 0.2500])
            rsqrt rsqrt_ Rsqrt "RsqrtBackward0" {
                real: |v| 1.0 / v.sqrt(),
                cuda: "(T)1 / m_sqrt(v)",
                complex: |v| {
                    use $crate::backend::cpu::elementwise::{CDiv, CSqrt};
                    num_complex::Complex::new(1.0, 0.0).cdiv(v.csqrt())
                },
                cuda_complex: "c_one<R>() / c_sqrt(v)",
                saves: result,
                // d x^(-1/2) = -1/2 x^(-3/2) dx = -1/2 result³ dx
                grad: |y, g| {
                    let cube = pow_scalar(&conj(y)?, &Tensor::wrapped_scalar(3.0f64))?;
                    mul_scalar(&mul(g, &cube)?, -0.5)
                },
            }
            /// Elementwise sine.
            ///
            /// >>> torch.sin(torch.tensor([0., 1.]))
            /// tensor([0.0000, 0.8415])
            sin sin_ Sin "SinBackward0" {
                real: |v| v.sin(),
                cuda: "m_sin(v)",
                complex: |v| v.sin(),
                cuda_complex: "c_sin(v)",
                saves: self,
                // d sin(x) = cos(x) dx
                grad: |x, g| mul(g, &conj(&cos(x)?)?),
            }
            /// Elementwise cosine.
            ///
            /// >>> torch.cos(torch.tensor([0., 1.]))
            /// tensor([1.0000, 0.5403])
            cos cos_ Cos "CosBackward0" {
                real: |v| v.cos(),
                cuda: "m_cos(v)",
                complex: |v| v.cos(),
                cuda_complex: "c_cos(v)",
                saves: self,
                // d cos(x) = -sin(x) dx
                grad: |x, g| mul(g, &neg(&conj(&sin(x)?)?)?),
            }
            /// The elementwise error function.
            ///
            /// >>> torch.erf(torch.tensor([0.5, 1.0]))
            /// tensor([0.5205, 0.8427])
            erf erf_ Erf "ErfBackward0" {
                // float32 via fdlibm's float64 formulas, vectorised (PyTorch's: within an ulp)
                real: |v| v.verf(),
                cuda: "m_erf(v)",
                saves: self,
                // d erf(x) = 2/√π · exp(-x²) dx
                grad: |x, g| {
                    let e = exp(&neg(&mul(x, x)?)?)?;
                    mul(g, &mul_scalar(&e, std::f64::consts::FRAC_2_SQRT_PI)?)
                },
            }
            /// The elementwise complementary error function, 1 - erf(x), accurate where erf(x) is
            /// near 1.
            ///
            /// >>> torch.erfc(torch.tensor([0.0, 1.0, 5.0]))
            /// tensor([1.0000e+00, 1.5730e-01, 1.5375e-12])
            erfc erfc_ Erfc "ErfcBackward0" {
                real: |v| v.via_f64(libm::erfc),
                cuda: "m_erfc(v)",
                saves: self,
                // d erfc(x) = -2/√π · exp(-x²) dx
                grad: |x, g| {
                    let e = exp(&neg(&mul(x, x)?)?)?;
                    mul(g, &mul_scalar(&e, -std::f64::consts::FRAC_2_SQRT_PI)?)
                },
            }
            /// Elementwise 2 ** x.
            ///
            /// >>> torch.exp2(torch.tensor([0.0, 3.0, -1.0]))
            /// tensor([1.0000, 8.0000, 0.5000])
            exp2 exp2_ Exp2 "Exp2Backward0" {
                real: |v| v.via_f64(libm::exp2),
                cuda: "m_exp2(v)",
                // e^(z ln 2)
                complex: |z| z.scale(std::f64::consts::LN_2 as _).exp(),
                cuda_complex: "c_exp(mkc(v.re * (R)0.6931471805599453, v.im * (R)0.6931471805599453))",
                saves: result,
                // d 2^x = 2^x · ln 2 dx
                grad: |y, g| mul(g, &mul_scalar(&conj(y)?, std::f64::consts::LN_2)?),
            }
            /// The elementwise inverse error function: `erfinv(erf(x)) = x` on (-1, 1), ±inf at
            /// ±1, NaN beyond.
            ///
            /// >>> torch.erfinv(torch.tensor([0.0, 0.5, -1.0]))
            /// tensor([0.0000, 0.4769,   -inf])
            erfinv erfinv_ Erfinv "ErfinvBackward0" {
                // float32 (and 16-bit floats) rounded once from float64, as PyTorch's MKL gives
                real: |v| v.via_f64($crate::backend::cpu::special::erfinv),
                cuda: "m_erfinv(v)",
                saves: self,
                // d erfinv(y) = √π/2 · exp(erfinv(y)²) dy (PyTorch's formula: erfinv recomputed)
                grad: |y, g| {
                    let x = erfinv(y)?;
                    let e = exp(&mul(&x, &x)?)?;
                    mul(g, &mul_scalar(&e, std::f64::consts::PI.sqrt() / 2.0)?)
                },
            }
            /// Elementwise hyperbolic tangent.
            ///
            /// >>> torch.tanh(torch.tensor([0., 1.]))
            /// tensor([0.0000, 0.7616])
            tanh tanh_ Tanh "TanhBackward0" {
                real: |v| v.vtanh(),
                cuda: "m_tanh(v)",
                complex: |v| $crate::backend::cpu::clibm::CLibm::c_tanh(v),
                cuda_complex: "c_tanh(v)",
                saves: result,
                // d tanh(x) = (1 - tanh²(x)) dx
                grad: |y, g| {
                    let y = conj(y)?;
                    mul(g, &rsub(&mul(&y, &y)?, &Tensor::wrapped_scalar(1.0f64))?)
                },
            }
            /// Elementwise log(1 + x), accurate for small x.
            ///
            /// >>> torch.log1p(torch.tensor([0., 1e-10, 1.]))
            /// tensor([0.0000e+00, 1.0000e-10, 6.9315e-01])
            log1p log1p_ Log1p "Log1PBackward0" {
                real: |v| v.vlog1p(),
                cuda: "m_log1p(v)",
                // c10's log(u) · z / (u - 1), u = z + 1
                complex: |v| $crate::backend::cpu::clibm::CLibm::c_log1p(v),
                cuda_complex: "c_log1p(v)",
                saves: self,
                // d log(1 + x) = dx / (1 + x)
                grad: |x, g| div(g, &conj(&add(x, &Tensor::wrapped_scalar(1.0f64))?)?),
            }
            /// Elementwise hyperbolic sine.
            ///
            /// >>> torch.sinh(torch.tensor([0., 1.]))
            /// tensor([0.0000, 1.1752])
            sinh sinh_ Sinh "SinhBackward0" {
                real: |v| v.sinh(),
                cuda: "m_sinh(v)",
                complex: |v| v.sinh(),
                cuda_complex: "c_sinh(v)",
                saves: self,
                // d sinh(x) = cosh(x) dx
                grad: |x, g| mul(g, &conj(&cosh(x)?)?),
            }
            /// Elementwise hyperbolic cosine.
            ///
            /// >>> torch.cosh(torch.tensor([0., 1.]))
            /// tensor([1.0000, 1.5431])
            cosh cosh_ Cosh "CoshBackward0" {
                real: |v| v.cosh(),
                cuda: "m_cosh(v)",
                complex: |v| v.cosh(),
                cuda_complex: "c_cosh(v)",
                saves: self,
                // d cosh(x) = sinh(x) dx
                grad: |x, g| mul(g, &conj(&sinh(x)?)?),
            }
            /// Elementwise 1 / (1 + e ** -x).
            ///
            /// >>> torch.sigmoid(torch.tensor([0., 2.]))
            /// tensor([0.5000, 0.8808])
            sigmoid sigmoid_ Sigmoid "SigmoidBackward0" {
                real: |v| 1.0 / (1.0 + (-v).vexp()),
                cuda: "(T)1 / ((T)1 + m_exp(-v))",
                // c10's Smith division (see elementwise::CDiv)
                complex: |v| {
                    let one = num_complex::Complex::new(1.0, 0.0);
                    $crate::backend::cpu::elementwise::CDiv::cdiv(one, one + (-v).exp())
                },
                cuda_complex: "c_sigmoid(v)",
                saves: result,
                // d σ(x) = σ(x)(1 - σ(x)) dx, multiplied in PyTorch's order: (g (1 - y)) y,
                // or g conj((1 - y) y) for complex
                grad: |y, g| {
                    let one_minus = rsub(y, &Tensor::wrapped_scalar(1.0f64))?;
                    if y.dtype().is_complex() {
                        mul(g, &conj(&mul(&one_minus, y)?)?)
                    } else {
                        mul(&mul(g, &one_minus)?, y)
                    }
                },
            }
            /// Elementwise inverse sine (arcsine), in [-π/2, π/2]; NaN outside [-1, 1].
            ///
            /// >>> torch.asin(torch.tensor([0., 0.5, 1.]))
            /// tensor([0.0000, 0.5236, 1.5708])
            asin asin_ Asin "AsinBackward0" {
                real: |v| v.asin(),
                cuda: "m_asin(v)",
                complex: |v| $crate::backend::cpu::clibm::CLibm::c_asin(v),
                cuda_complex: "c_asin(v)",
                saves: self,
                // d asin(x) = dx / sqrt(1 - x²) (PyTorch's (-x·x + 1).rsqrt())
                grad: |x, g| {
                    let one_minus = rsub(&mul(x, x)?, &Tensor::wrapped_scalar(1.0f64))?;
                    mul(g, &conj(&rsqrt(&one_minus)?)?)
                },
            }
            /// Elementwise inverse cosine (arccosine), in [0, π]; NaN outside [-1, 1].
            ///
            /// >>> torch.acos(torch.tensor([0., 0.5, 1.]))
            /// tensor([1.5708, 1.0472, 0.0000])
            acos acos_ Acos "AcosBackward0" {
                real: |v| v.acos(),
                cuda: "m_acos(v)",
                complex: |v| $crate::backend::cpu::clibm::CLibm::c_acos_vec(v),
                cuda_complex: "c_acos(v)",
                saves: self,
                // d acos(x) = -dx / sqrt(1 - x²)
                grad: |x, g| {
                    let one_minus = rsub(&mul(x, x)?, &Tensor::wrapped_scalar(1.0f64))?;
                    mul(g, &neg(&conj(&rsqrt(&one_minus)?)?)?)
                },
            }
            /// Elementwise tangent.
            ///
            /// >>> torch.tan(torch.tensor([0., 1., -0.5]))
            /// tensor([ 0.0000,  1.5574, -0.5463])
            tan tan_ Tan "TanBackward0" {
                real: |v| v.tan(),
                cuda: "m_tan(v)",
                complex: |v| $crate::backend::cpu::clibm::CLibm::c_tan(v),
                cuda_complex: "c_tan(v)",
                saves: result,
                // d tan(x) = (1 + tan²(x)) dx (PyTorch's grad * (1 + result.pow(2)).conj())
                grad: |y, g| {
                    let y = conj(y)?;
                    mul(g, &add(&mul(&y, &y)?, &Tensor::wrapped_scalar(1.0f64))?)
                },
            }
            /// Elementwise inverse tangent (arctangent), in (-π/2, π/2).
            ///
            /// >>> torch.atan(torch.tensor([0., 1., -1e3]))
            /// tensor([ 0.0000,  0.7854, -1.5698])
            atan atan_ Atan "AtanBackward0" {
                real: |v| v.atan(),
                cuda: "m_atan(v)",
                complex: |v| $crate::backend::cpu::clibm::CLibm::c_atan(v),
                cuda_complex: "c_atan(v)",
                saves: self,
                // d atan(x) = dx / (x² + 1)
                grad: |x, g| div(g, &conj(&add(&mul(x, x)?, &Tensor::wrapped_scalar(1.0f64))?)?),
            }
            /// Elementwise inverse hyperbolic sine.
            ///
            /// >>> torch.asinh(torch.tensor([0., 1., -2.]))
            /// tensor([ 0.0000,  0.8814, -1.4436])
            asinh asinh_ Asinh "AsinhBackward0" {
                real: |v| v.asinh(),
                cuda: "m_asinh(v)",
                complex: |v| $crate::backend::cpu::clibm::CLibm::c_asinh(v),
                cuda_complex: "c_asinh(v)",
                saves: self,
                // d asinh(x) = dx / sqrt(x² + 1)
                grad: |x, g| {
                    let sq = add(&mul(x, x)?, &Tensor::wrapped_scalar(1.0f64))?;
                    mul(g, &conj(&rsqrt(&sq)?)?)
                },
            }
            /// Elementwise inverse hyperbolic cosine, for x >= 1 (NaN below).
            ///
            /// >>> torch.acosh(torch.tensor([1., 2., 10.]))
            /// tensor([0.0000, 1.3170, 2.9932])
            acosh acosh_ Acosh "AcoshBackward0" {
                real: |v| v.acosh(),
                cuda: "m_acosh(v)",
                complex: |v| $crate::backend::cpu::clibm::CLibm::c_acosh(v),
                cuda_complex: "c_acosh(v)",
                saves: self,
                // d acosh(x) = dx / sqrt(x² - 1) (PyTorch's formula, complex too)
                grad: |x, g| {
                    let sq = sub(&mul(x, x)?, &Tensor::wrapped_scalar(1.0f64))?;
                    mul(g, &conj(&rsqrt(&sq)?)?)
                },
            }
            /// Elementwise inverse hyperbolic tangent: ±inf at ±1, NaN beyond.
            ///
            /// >>> torch.atanh(torch.tensor([0., 0.5, -1.]))
            /// tensor([0.0000, 0.5493,   -inf])
            atanh atanh_ Atanh "AtanhBackward0" {
                real: |v| v.atanh(),
                cuda: "m_atanh(v)",
                complex: |v| $crate::backend::cpu::clibm::CLibm::c_atanh(v),
                cuda_complex: "c_atanh(v)",
                saves: self,
                // d atanh(x) = dx / (1 - x²)
                grad: |x, g| div(g, &conj(&rsub(&mul(x, x)?, &Tensor::wrapped_scalar(1.0f64))?)?),
            }
            /// Elementwise 1 / x.
            ///
            /// >>> torch.reciprocal(torch.tensor([2., 4.]))
            /// tensor([0.5000, 0.2500])
            reciprocal reciprocal_ Reciprocal "ReciprocalBackward0" {
                real: |v| 1.0 / v,
                cuda: "(T)1 / v",
                complex: |v| $crate::backend::cpu::elementwise::CDiv::cdiv(num_complex::Complex::new(1.0, 0.0), v),
                cuda_complex: "c_one<R>() / v",
                saves: result,
                // d(1/x) = -dx / x²
                grad: |y, g| {
                    let r = conj(y)?;
                    neg(&mul(g, &mul(&r, &r)?)?)
                },
            }
        }
    };
}
/// The float functions of two tensors, handed to `$cb` (the backend's
/// `define_float_binary_kernels`, the core's `define_float_binary`, the bindings' methods). A row names its in-place form after a `/` where PyTorch has one; `saves`
/// lists what its formulas read as `s[0]`, `s[1]`, ... (`self`, `other`, `result`).
#[doc(hidden)]
#[macro_export]
macro_rules! float_binary_ops {
    ($cb:ident) => {
        $cb! {
            /// sqrt(a ** 2 + b ** 2) elementwise, without overflow or underflow on the way.
            ///
            /// >>> torch.hypot(torch.tensor([3., 5.]), torch.tensor([4., 12.]))
            /// tensor([ 5., 13.])
            hypot / hypot_ Hypot "HypotBackward0" {
                real: |a, b| a.hypot(b),
                cuda: "m_hypot(a, b)",
                ints: refuse,
                saves: [self, other, result],
                // d hypot(a, b) = (a da + b db) / hypot(a, b)
                grad_self: |s, g| div(&mul(g, &s[0])?, &s[2]),
                grad_other: |s, g| div(&mul(g, &s[1])?, &s[2]),
            }
            /// The angle of the point `(other, input)`: arctan(input / other) in the quadrant of
            /// the point, in [-π, π] (integers and bools compute in float32).
            ///
            /// >>> torch.atan2(torch.tensor([1., -1.]), torch.tensor([1., -1.]))
            /// tensor([ 0.7854, -2.3562])
            atan2 / atan2_ Atan2 "Atan2Backward0" {
                real: |a, b| a.atan2(b),
                cuda: "m_atan2(a, b)",
                ints: float,
                saves: [self, other],
                // d atan2(a, b) = (b da - a db) / (a² + b²), in PyTorch's order of operations
                grad_self: |s, g| mul(&mul(g, &s[1])?, &atan2_recip(s)?),
                grad_other: |s, g| mul(&mul(g, &neg(&s[0])?)?, &atan2_recip(s)?),
            }
            /// input * log(other) elementwise, and 0 where input is 0 (unless other is NaN).
            ///
            /// >>> torch.xlogy(torch.tensor([0., 2., 3.]), torch.tensor([0., 1., 2.]))
            /// tensor([0.0000, 0.0000, 2.0794])
            xlogy / xlogy_ Xlogy "XlogyBackward0" {
                // PyTorch's kernel: NaN for a NaN other, then 0 for input 0 (+0 for -0 too)
                real: |a, b| {
                    if b.is_nan() {
                        b
                    } else if a == a - a {
                        a - a
                    } else {
                        a * b.ln()
                    }
                },
                cuda: "m_xlogy(a, b)",
                ints: float,
                numbers: ["XlogyBackward1", "XlogyBackward2"],
                saves: [self, other],
                // d (a log b) = log b da + a / b db; PyTorch's formula: xlogy(g, b) for a,
                // 0 where a = 0 and b <= 0
                grad_self: |s, g| {
                    let zero = Tensor::wrapped_scalar(0.0f64);
                    let a0 = compare(CmpOp::Eq, &s[0], &zero)?;
                    let b_le0 = compare(CmpOp::Le, &s[1], &zero)?;
                    let masked = bitwise(BitOp::And, &a0, &b_le0)?;
                    where_(&masked, &zero, &xlogy(g, &s[1])?)
                },
                grad_other: |s, g| div(&mul(g, &s[0])?, &s[1]),
            }
            /// log(e ** a + e ** b) elementwise, without overflow.
            ///
            /// >>> torch.logaddexp(torch.tensor([-1., 0.5]), torch.tensor([2., 0.5]))
            /// tensor([2.0486, 1.1931])
            ///
            /// Complex tensors, which PyTorch takes too, raise NotImplementedError here.
            logaddexp Logaddexp "LogaddexpBackward0" {
                // max + log1p(e^-|a - b|), and a itself when a = b = ±inf (PyTorch's kernel)
                real: |a, b| {
                    if a.is_infinite() && a == b {
                        a
                    } else {
                        (if a < b { b } else { a }) + (-(a - b).abs()).exp().ln_1p()
                    }
                },
                cuda: "m_logaddexp(a, b)",
                ints: refuse,
                saves: [self, other],
                // d log(e^a + e^b) = da / (1 + e^(b - a)) + db / (1 + e^(a - b))
                grad_self: |s, g| {
                    div(g, &add(&exp(&sub(&s[1], &s[0])?)?, &Tensor::wrapped_scalar(1.0f64))?)
                },
                grad_other: |s, g| {
                    div(g, &add(&exp(&sub(&s[0], &s[1])?)?, &Tensor::wrapped_scalar(1.0f64))?)
                },
            }
        }
    };
}

/// The rounding functions: float to float of the same dtype (halves computed in float32),
/// integers copied (the array-API convention PyTorch follows), bool and complex refused with
/// PyTorch's errors, and a zero gradient. One row each, as `float_unary_ops!`: names, kernel
/// identity, node, CPU element function (float32 and float64), CUDA expression, and whether
/// complex inputs get PyTorch's "not supported" (`complex: unsupported`) or its missing-kernel
/// error (`complex: no_kernel`).
#[doc(hidden)]
#[macro_export]
macro_rules! rounding_ops {
    ($cb:ident) => {
        $cb! {
            /// Elementwise rounding down: the largest integer not above each element (integers
            /// are returned as a copy).
            ///
            /// >>> torch.floor(torch.tensor([-1.5, 0.5, 2.0]))
            /// tensor([-2.,  0.,  2.])
            floor floor_ Floor "FloorBackward0" {
                real: |v| v.floor(),
                cuda: "m_floor(v)",
                complex: unsupported,
            }
            /// Elementwise rounding up: the smallest integer not below each element (integers
            /// are returned as a copy).
            ///
            /// >>> torch.ceil(torch.tensor([-1.5, 0.5, 2.0]))
            /// tensor([-1.,  1.,  2.])
            ceil ceil_ Ceil "CeilBackward0" {
                real: |v| v.ceil(),
                cuda: "m_ceil(v)",
                complex: unsupported,
            }
            /// Elementwise rounding to the nearest integer, halves to even (integers are
            /// returned as a copy).
            ///
            /// >>> torch.round(torch.tensor([-1.5, 0.5, 2.5]))
            /// tensor([-2.,  0.,  2.])
            round round_ Round "RoundBackward0" {
                real: |v| v.round_ties_even(),
                cuda: "m_rint(v)",
                complex: no_kernel,
            }
            /// Elementwise rounding towards zero (integers are returned as a copy).
            ///
            /// >>> torch.trunc(torch.tensor([-1.5, 0.5, 2.7]))
            /// tensor([-1.,  0.,  2.])
            trunc trunc_ Trunc "TruncBackward0" {
                real: |v| v.trunc(),
                cuda: "m_trunc(v)",
                complex: unsupported,
            }
        }
    };
}
