//! The machinery behind pointwise ops declared once (the declarations are in `math.rs`).
//!
//! One row of `float_unary_ops!` declares a float function of one tensor: its Python name and
//! in-place name, its kernel identity, its graph node, its CPU element functions (real and
//! complex), its CUDA expressions, what its backward saves and its derivative, and its
//! docstring. `define_float_unary!` turns the rows into:
//! - the kernel identity [`FloatUnary`] (what the CUDA backend launches; its kernel names and
//!   CUDA source lines come from here too, see `crate::cuda::declared_unary_source`);
//! - the public Rust function (`ops::sinh`), which records the node and its formula;
//! - [`FLOAT_UNARY_OPS`], the table the bindings, the stub generator and the docs read.
//!
//! The bindings expand the same rows into Tensor methods (`src/python/math.rs`), and the Python
//! package makes `torch.<name>` from [`FLOAT_UNARY_OPS`]. Adding an op is adding a row.
//!
//! `float_binary_ops!` does the same for float functions of two tensors (real operands; each
//! input's derivative has its own formula, run only when that input requires grad).
use super::*;
use crate::dtype::DType;
use crate::kernels;

/// What a declared op is, for the bindings, the stub generator and the docs.
#[derive(Debug, Clone, Copy)]
pub struct OpInfo {
    /// The PyTorch name: `torch.<name>` and `Tensor.<name>`.
    pub name: &'static str,
    /// The in-place method (`Tensor.<name>_`).
    pub inplace: &'static str,
    /// The graph node's name (`grad_fn.name()`).
    pub node: &'static str,
    /// The docstring, with a doctest example of PyTorch's output.
    pub doc: &'static str,
}

/// Computing a float32 function through its float64 version (correctly rounded where the
/// float64 one is accurate): `erf` of float32 as PyTorch's accuracy needs.
pub(crate) trait ViaF64 {
    fn via_f64(self, f: fn(f64) -> f64) -> Self;
}

impl ViaF64 for f32 {
    fn via_f64(self, f: fn(f64) -> f64) -> f32 {
        f(self as f64) as f32
    }
}

impl ViaF64 for f64 {
    fn via_f64(self, f: fn(f64) -> f64) -> f64 {
        f(self)
    }
}

/// Integer and bool inputs of float functions compute in the default float dtype.
pub(crate) fn floating(x: &Tensor) -> Result<Tensor> {
    if x.dtype().is_differentiable() {
        Ok(x.clone())
    } else {
        kernels::cast_keep(x, DType::Float32)
    }
}

/// The value of a float function of one tensor, without recording: PyTorch's dtype rules
/// (integers compute in float32, halves in float32 rounded once), then the device's kernel.
pub(crate) fn float_unary_value(op: FloatUnary, x: &Tensor) -> Result<Tensor> {
    if x.dtype().is_complex() && op.cuda_complex().is_none() {
        // PyTorch's dispatch error; its CPU kernels of these functions are the "vml" ones
        let kernel = if x.is_cuda() { "cuda" } else { "vml_cpu" };
        return Err(Error::NotImplemented(format!(
            "\"{}_{kernel}\" not implemented for '{}'",
            op.name(),
            x.dtype().scalar_type_name()
        )));
    }
    let half = x.dtype().is_half();
    let xf = if half {
        kernels::cast_keep(x, DType::Float32)?
    } else {
        floating(x)?
    };
    let r = if xf.is_cuda() {
        crate::cuda::unary(crate::cuda::UnaryKernel::Float(op), &xf)?
    } else {
        op.cpu(&xf)?
    };
    if half {
        kernels::cast_keep(&r, x.dtype())
    } else {
        Ok(r)
    }
}

/// The tensor a row's `saves` names, chosen when the row expands: the input `self` (or
/// `other`), or the output `result`.
macro_rules! saved {
    (self, $a:expr, $b:expr, $out:expr) => {
        $crate::ops::save("self", $a)?
    };
    (other, $a:expr, $b:expr, $out:expr) => {
        $crate::ops::save("other", $b)?
    };
    (result, $a:expr, $b:expr, $out:expr) => {
        $crate::ops::save_output("result", $out, 0)
    };
}
pub(crate) use saved;

/// Expands the rows of `float_unary_ops!` into the kernel identity, the Rust functions and
/// the op table (see the module docs).
macro_rules! define_float_unary {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident $inplace:ident $Variant:ident $node:literal {
            real: $real:expr,
            cuda: $cuda:literal,
            $(complex: $complex:expr, cuda_complex: $cuda_complex:literal,)?
            saves: $saves:ident,
            grad: $grad:expr $(,)?
        }
    )*) => {
        /// The float functions of one tensor: their kernel identities.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum FloatUnary {
            $($Variant,)*
        }

        impl FloatUnary {
            /// Every declared float function, in declaration order.
            pub const ALL: &'static [FloatUnary] = &[$(FloatUnary::$Variant,)*];

            /// The op's name: `torch.<name>`, and the `<name>` of its CUDA kernels.
            pub fn name(self) -> &'static str {
                match self { $(FloatUnary::$Variant => stringify!($name),)* }
            }

            /// `op(x)`, recorded: the declared function of this identity.
            pub fn apply(self, x: &Tensor) -> Result<Tensor> {
                match self { $(FloatUnary::$Variant => $name(x),)* }
            }

            /// The graph node's name.
            pub fn node(self) -> &'static str {
                match self { $(FloatUnary::$Variant => $node,)* }
            }

            /// The CUDA C expression of the real kernels, in terms of the element `v` of type `T`.
            pub fn cuda_real(self) -> &'static str {
                match self { $(FloatUnary::$Variant => $cuda,)* }
            }

            /// The CUDA C expression of the complex kernels (`v` a `cx<R>`), for the ops that
            /// take complex tensors.
            pub fn cuda_complex(self) -> Option<&'static str> {
                match self { $(FloatUnary::$Variant => None $(.or(Some($cuda_complex)))?,)* }
            }

            /// The CPU kernel over a float or complex tensor (halves and integers were widened).
            pub(crate) fn cpu(self, x: &Tensor) -> Result<Tensor> {
                use crate::kernels::map1;
                use num_complex::{Complex32, Complex64};
                match self {
                    $(FloatUnary::$Variant => match x.dtype() {
                        $crate::dtype::DType::Float32 => map1::<f32, f32>(x, $real),
                        $crate::dtype::DType::Float64 => map1::<f64, f64>(x, $real),
                        $(
                            $crate::dtype::DType::Complex64 => map1::<Complex32, Complex32>(x, $complex),
                            $crate::dtype::DType::Complex128 => map1::<Complex64, Complex64>(x, $complex),
                        )?
                        d => unreachable!("{d:?} is widened or refused before this kernel"),
                    },)*
                }
            }
        }

        $(
            $(#[doc = $doc])*
            pub fn $name(x: &Tensor) -> Result<Tensor> {
                let out = $crate::ops::pointwise::float_unary_value(FloatUnary::$Variant, x)?;
                if needs_grad(&[x]) {
                    // The closure captures nothing, so boxing it allocates nothing.
                    let backward = Box::new(|s: &[Tensor], g: &[Tensor]| {
                        let grad: fn(&Tensor, &Tensor) -> Result<Tensor> = $grad;
                        $crate::grads![grad(&s[0], &g[0])?]
                    });
                    let saved = $crate::ops::pointwise::saved!($saves, x, x, &out);
                    record($node, &[x], &[&out], vec![saved], backward);
                }
                Ok(out)
            }
        )*

        /// The declared float functions of one tensor, for the bindings and the docs.
        pub const FLOAT_UNARY_OPS: &[$crate::ops::pointwise::OpInfo] = &[$(
            $crate::ops::pointwise::OpInfo {
                name: stringify!($name),
                inplace: stringify!($inplace),
                node: $node,
                doc: concat!($($doc, "\n"),*),
            },
        )*];
    };
}
pub(crate) use define_float_unary;

/// The value of a float function of two tensors, without recording: PyTorch's type promotion
/// and broadcasting, its NotImplementedError for integer, bool and complex operands, halves
/// computed in float32 and rounded once, then the device's kernel.
pub(crate) fn float_binary_value(op: FloatBinary, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let (dt, a2, b2) = promote_pair(a, b)?;
    let cuda = crate::cuda::any_cuda(&[a, b]);
    if !dt.is_differentiable() || dt.is_complex() {
        let dev = if cuda { "cuda" } else { "cpu" };
        return Err(Error::NotImplemented(format!(
            "\"{}_{dev}\" not implemented for '{}'",
            op.name(),
            dt.scalar_type_name()
        )));
    }
    if dt.is_half() {
        let wide = |t: &Tensor| kernels::cast_keep(t, DType::Float32);
        let r = float_binary_value(op, &wide(&a2)?, &wide(&b2)?)?;
        return kernels::cast_keep(&r, dt);
    }
    if cuda {
        return crate::cuda::binary(crate::cuda::BinaryKernel::Float(op), &a2, &b2, dt);
    }
    let shape = crate::shape::broadcast_shapes(&a2.shape(), &b2.shape())?;
    op.cpu(&a2, &b2, &shape)
}

/// The derivative formula of one input of a binary op: (saved tensors, output gradient).
pub(crate) type BinaryGrad = fn(&[Tensor], &Tensor) -> Result<Tensor>;

/// Record `out = op(a, b)`; each input's formula runs only when that input requires grad.
pub(crate) fn record_float_binary(
    op: FloatBinary,
    (a, b, out): (&Tensor, &Tensor, &Tensor),
    saved: Vec<SavedTensor>,
    grad_self: BinaryGrad,
    grad_other: BinaryGrad,
) {
    let (ra, rb) = (a.requires_grad(), b.requires_grad());
    record(
        op.node(),
        &[a, b],
        &[out],
        saved,
        Box::new(move |s, g| {
            let ga = if ra { Some(grad_self(s, &g[0])?) } else { None };
            let gb = if rb {
                Some(grad_other(s, &g[0])?)
            } else {
                None
            };
            Ok(vec![ga, gb])
        }),
    );
}

/// Expands the rows of `float_binary_ops!`, as `define_float_unary!` does for one tensor:
/// the kernel identity [`FloatBinary`], the Rust functions and [`FLOAT_BINARY_OPS`].
macro_rules! define_float_binary {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident $(/ $inplace:ident)? $Variant:ident $node:literal {
            real: $real:expr,
            cuda: $cuda:literal,
            saves: [$($saves:ident),*],
            grad_self: $grad_self:expr,
            grad_other: $grad_other:expr $(,)?
        }
    )*) => {
        /// The float functions of two tensors: their kernel identities.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum FloatBinary {
            $($Variant,)*
        }

        impl FloatBinary {
            /// Every declared float function of two tensors, in declaration order.
            pub const ALL: &'static [FloatBinary] = &[$(FloatBinary::$Variant,)*];

            /// The op's name: `torch.<name>`, and the `<name>` of its CUDA kernels.
            pub fn name(self) -> &'static str {
                match self { $(FloatBinary::$Variant => stringify!($name),)* }
            }

            /// The graph node's name.
            pub fn node(self) -> &'static str {
                match self { $(FloatBinary::$Variant => $node,)* }
            }

            /// `op(a, b)`, recorded: the declared function of this identity.
            pub fn apply(self, a: &Tensor, b: &Tensor) -> Result<Tensor> {
                match self { $(FloatBinary::$Variant => $name(a, b),)* }
            }

            /// The CUDA C expression of the float32/float64 kernels, in terms of `a` and `b`.
            pub fn cuda_real(self) -> &'static str {
                match self { $(FloatBinary::$Variant => $cuda,)* }
            }

            /// The CPU kernel over two float32 or float64 operands of one dtype.
            pub(crate) fn cpu(self, a: &Tensor, b: &Tensor, shape: &[usize]) -> Result<Tensor> {
                use crate::kernels::map2;
                match self {
                    $(FloatBinary::$Variant => match a.dtype() {
                        $crate::dtype::DType::Float32 => map2::<f32, f32, f32>(a, b, shape, $real),
                        $crate::dtype::DType::Float64 => map2::<f64, f64, f64>(a, b, shape, $real),
                        d => unreachable!("{d:?} operands are refused or widened before this kernel"),
                    },)*
                }
            }
        }

        $(
            $(#[doc = $doc])*
            pub fn $name(a: &Tensor, b: &Tensor) -> Result<Tensor> {
                let out = $crate::ops::pointwise::float_binary_value(FloatBinary::$Variant, a, b)?;
                if needs_grad(&[a, b]) {
                    let saved = vec![$(
                        $crate::ops::pointwise::saved!($saves, a, b, &out)
                    ),*];
                    $crate::ops::pointwise::record_float_binary(
                        FloatBinary::$Variant, (a, b, &out), saved, $grad_self, $grad_other,
                    );
                }
                Ok(out)
            }
        )*

        /// The declared float functions of two tensors, for the bindings and the docs (`inplace`
        /// is empty where PyTorch has no in-place form).
        pub const FLOAT_BINARY_OPS: &[$crate::ops::pointwise::OpInfo] = &[$(
            $crate::ops::pointwise::OpInfo {
                name: stringify!($name),
                inplace: concat!("" $(, stringify!($inplace))?),
                node: $node,
                doc: concat!($($doc, "\n"),*),
            },
        )*];
    };
}
pub(crate) use define_float_binary;
