//! The machinery behind pointwise ops declared once (the declarations are in `math.rs`).
//!
//! One row of `float_unary_ops!` declares a float function of one tensor: its Python name and
//! in-place name, its kernel identity, its graph node, its CPU element functions (real and
//! complex), its CUDA expressions, what its backward saves and its derivative, and its
//! docstring. The backend expands the rows into the kernel identity [`FloatUnary`] with its
//! CPU kernel, CUDA kernel names and CUDA source lines (`src/backend/kernel.rs`);
//! `define_float_unary!` turns them into:
//! - the public Rust function (`ops::sinh`), which records the node and its formula;
//! - [`FLOAT_UNARY_OPS`], the table the bindings, the stub generator and the docs read.
//!
//! The bindings expand the same rows into Tensor methods (`src/python/math.rs`), and the Python
//! package makes `torch.<name>` from [`FLOAT_UNARY_OPS`]. Adding an op is adding a row.
//!
//! `float_binary_ops!` does the same for float functions of two tensors (real operands; each
//! input's derivative has its own formula, run only when that input requires grad).
use super::*;
use crate::backend::{self, BinaryKernel, UnaryKernel};
use crate::dtype::DType;

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

/// The [`OpInfo`] of a declared row (its doc lines joined as the docstring).
macro_rules! op_info {
    ($name:ident, $inplace:expr, $node:literal, $($doc:literal)*) => {
        $crate::ops::pointwise::OpInfo {
            name: stringify!($name),
            inplace: $inplace,
            node: $node,
            doc: concat!($($doc, "\n"),*),
        }
    };
}
pub(crate) use op_info;

/// Integer and bool inputs of float functions compute in the default float dtype.
pub(crate) fn floating(x: &Tensor) -> Result<Tensor> {
    if x.dtype().is_differentiable() {
        Ok(x.clone())
    } else {
        backend::cast_keep(x, crate::dtype::default_float())
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
        backend::cast_keep(x, DType::Float32)?
    } else {
        floating(x)?
    };
    let r = backend::unary(UnaryKernel::Float(op), &xf)?;
    if half {
        backend::cast_keep(&r, x.dtype())
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
        $crate::ops::save_output("result", $out, 0)?
    };
}
pub(crate) use saved;

/// Expands the rows of `float_unary_ops!` into the Rust functions, the node and formula of
/// each kernel identity, and the op table (see the module docs).
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
        impl FloatUnary {
            /// `op(x)`, recorded: the declared function of this identity.
            pub fn apply(self, x: &Tensor) -> Result<Tensor> {
                match self { $(FloatUnary::$Variant => $name(x),)* }
            }

            /// The graph node's name.
            pub fn node(self) -> &'static str {
                match self { $(FloatUnary::$Variant => $node,)* }
            }
        }

        $(
            $(#[doc = $doc])*
            pub fn $name(x: &Tensor) -> Result<Tensor> {
                // autograd's edges first, as PyTorch's VariableType collects them before the
                // kernel (a stale view's refusal comes before a shape or dtype error)
                let recorded = needs_grad(&[x])?;
                let out = $crate::ops::pointwise::float_unary_value(FloatUnary::$Variant, x)?;
                if recorded {
                    // The closure captures nothing, so boxing it allocates nothing.
                    let backward = Box::new(|s: &[Tensor], g: &[Tensor]| {
                        let grad: fn(&Tensor, &Tensor) -> Result<Tensor> = $grad;
                        $crate::grads![grad(&s[0], &g[0])?]
                    });
                    let saved = $crate::ops::pointwise::saved!($saves, x, x, &out);
                    record($node, &[x], &[&out], vec![saved], backward)?;
                }
                Ok(out)
            }
        )*

        /// The declared float functions of one tensor, for the bindings and the docs.
        pub const FLOAT_UNARY_OPS: &[$crate::ops::pointwise::OpInfo] = &[$(
            $crate::ops::pointwise::op_info!($name, stringify!($inplace), $node, $($doc)*),
        )*];
    };
}

/// The value of a float function of two tensors, without recording: PyTorch's type promotion
/// and broadcasting, its NotImplementedError for integer, bool and complex operands, halves
/// computed in float32 and rounded once, then the device's kernel.
pub(crate) fn float_binary_value(op: FloatBinary, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let (dt, a2, b2) = promote_pair(a, b)?;
    if !dt.is_differentiable() && !dt.is_complex() && op.ints_to_float() {
        let f = |t: &Tensor| backend::cast_keep(t, crate::dtype::default_float());
        return float_binary_value(op, &f(&a2)?, &f(&b2)?);
    }
    if !dt.is_differentiable() || dt.is_complex() {
        let dev = if a.is_cuda() || b.is_cuda() {
            "cuda"
        } else {
            "cpu"
        };
        return Err(Error::NotImplemented(format!(
            "\"{}_{dev}\" not implemented for '{}'",
            op.name(),
            dt.scalar_type_name()
        )));
    }
    if dt.is_half() {
        let wide = |t: &Tensor| backend::cast_keep(t, DType::Float32);
        let r = float_binary_value(op, &wide(&a2)?, &wide(&b2)?)?;
        return backend::cast_keep(&r, dt);
    }
    backend::binary(BinaryKernel::Float(op), &a2, &b2, dt)
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
) -> Result<()> {
    let (ra, rb) = (needs_formula(a), needs_formula(b));
    // a Python number on either side is PyTorch's Scalar overload, with its own node
    let node = match op.number_nodes() {
        Some((num_self, _)) if a.data().wrapped_number => num_self,
        Some((_, num_other)) if b.data().wrapped_number => num_other,
        _ => op.node(),
    };
    record(
        node,
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
    )
}

/// A binary row's `numbers:` nodes, or None without the field.
macro_rules! number_nodes {
    () => {
        None
    };
    ($num_self:literal, $num_other:literal) => {
        Some(($num_self, $num_other))
    };
}
pub(crate) use number_nodes;

/// Expands the rows of `float_binary_ops!`, as `define_float_unary!` does for one tensor:
/// the Rust functions, the node of each [`FloatBinary`] and [`FLOAT_BINARY_OPS`].
macro_rules! define_float_binary {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident $(/ $inplace:ident)? $Variant:ident $node:literal {
            real: $real:expr,
            cuda: $cuda:literal,
            ints: $ints:ident,
            $(numbers: [$num_self:literal, $num_other:literal],)?
            saves: [$($saves:ident),*],
            grad_self: $grad_self:expr,
            grad_other: $grad_other:expr $(,)?
        }
    )*) => {
        impl FloatBinary {
            /// The graph node's name.
            pub fn node(self) -> &'static str {
                match self { $(FloatBinary::$Variant => $node,)* }
            }

            /// Do integer and bool operands compute in float32 (`ints: float`), rather than
            /// raise PyTorch's missing-kernel error (`ints: refuse`)?
            pub fn ints_to_float(self) -> bool {
                match self { $(FloatBinary::$Variant => stringify!($ints) == "float",)* }
            }

            /// The nodes of PyTorch's overloads with a number for `input` and for `other`
            /// (`numbers: [..]`; None where PyTorch takes tensors only).
            pub fn number_nodes(self) -> Option<(&'static str, &'static str)> {
                match self {
                    $(FloatBinary::$Variant => {
                        $crate::ops::pointwise::number_nodes!($($num_self, $num_other)?)
                    })*
                }
            }

            /// `op(a, b)`, recorded: the declared function of this identity.
            pub fn apply(self, a: &Tensor, b: &Tensor) -> Result<Tensor> {
                match self { $(FloatBinary::$Variant => $name(a, b),)* }
            }
        }

        $(
            $(#[doc = $doc])*
            pub fn $name(a: &Tensor, b: &Tensor) -> Result<Tensor> {
                let recorded = needs_grad(&[a, b])?;
                let out = $crate::ops::pointwise::float_binary_value(FloatBinary::$Variant, a, b)?;
                if recorded {
                    let saved = vec![$(
                        $crate::ops::pointwise::saved!($saves, a, b, &out)
                    ),*];
                    $crate::ops::pointwise::record_float_binary(
                        FloatBinary::$Variant, (a, b, &out), saved, $grad_self, $grad_other,
                    )?;
                }
                Ok(out)
            }
        )*

        /// The declared float functions of two tensors, for the bindings and the docs (`inplace`
        /// is empty where PyTorch has no in-place form).
        pub const FLOAT_BINARY_OPS: &[$crate::ops::pointwise::OpInfo] = &[$(
            $crate::ops::pointwise::op_info!(
                $name, concat!("" $(, stringify!($inplace))?), $node, $($doc)*
            ),
        )*];
    };
}

/// The value of a declared rounding function, without recording: PyTorch's errors for complex
/// (`unsupported`: "<op> is not supported for complex inputs"; else its missing-kernel error)
/// and bool inputs, a copy of integer inputs, the device's kernel for floats (halves rounded
/// in float32).
pub(crate) fn rounding_value(op: Rounding, x: &Tensor, unsupported: bool) -> Result<Tensor> {
    let dt = x.dtype();
    let kernel = if x.is_cuda() { "cuda" } else { "vml_cpu" };
    if dt.is_complex() && unsupported {
        return Err(Error::NotImplemented(format!(
            "{} is not supported for complex inputs",
            op.name()
        )));
    }
    if dt.is_complex() || dt == DType::Bool {
        return Err(Error::NotImplemented(format!(
            "\"{}_{kernel}\" not implemented for '{}'",
            op.name(),
            dt.scalar_type_name()
        )));
    }
    if !dt.is_differentiable() {
        // integers are already whole: PyTorch copies them into its TensorIterator's output
        // (laid out like `x`; row-major when `x` is empty)
        return backend::cast_keep(x, dt);
    }
    backend::unary(UnaryKernel::Rounding(op), x)
}

/// A rounding row's `complex:` rule: `unsupported` ("<op> is not supported for complex inputs")
/// or `no_kernel` (PyTorch's missing-kernel error); any other word does not compile.
macro_rules! complex_unsupported {
    (unsupported) => {
        true
    };
    (no_kernel) => {
        false
    };
}
pub(crate) use complex_unsupported;

/// Expands the rows of `rounding_ops!` into the Rust functions (a zero gradient: the functions
/// are piecewise constant) and [`ROUNDING_OPS`].
macro_rules! define_rounding {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident $inplace:ident $Variant:ident $node:literal {
            real: $real:expr,
            cuda: $cuda:literal,
            complex: $complex:ident $(,)?
        }
    )*) => {
        impl Rounding {
            /// `op(x)`, recorded: the declared function of this identity.
            pub fn apply(self, x: &Tensor) -> Result<Tensor> {
                match self { $(Rounding::$Variant => $name(x),)* }
            }
        }

        $(
            $(#[doc = $doc])*
            pub fn $name(x: &Tensor) -> Result<Tensor> {
                let unsupported = $crate::ops::pointwise::complex_unsupported!($complex);
                let recorded = needs_grad(&[x])?;
                let out = $crate::ops::pointwise::rounding_value(Rounding::$Variant, x, unsupported)?;
                if recorded {
                    record(
                        $node,
                        &[x],
                        &[&out],
                        vec![],
                        Box::new(|_, g| $crate::grads![zeros_like_grad(&g[0])?]),
                    )?;
                }
                Ok(out)
            }
        )*

        /// The declared rounding functions, for the bindings and the docs.
        pub const ROUNDING_OPS: &[$crate::ops::pointwise::OpInfo] = &[$(
            $crate::ops::pointwise::op_info!($name, stringify!($inplace), $node, $($doc)*),
        )*];
    };
}

pub use crate::backend::{FloatBinary, FloatUnary, Rounding};

/// `1 / (a² + b²)` of atan2's saved operands, 0 where that overflows (at the origin; PyTorch's
/// `atan2_backward`, whose gradient there is zero).
pub(crate) fn atan2_recip(s: &[Tensor]) -> Result<Tensor> {
    let r = reciprocal(&add(&mul(&s[0], &s[0])?, &mul(&s[1], &s[1])?)?)?;
    let inf = compare(CmpOp::Eq, &r, &Tensor::wrapped_scalar(f64::INFINITY))?;
    where_(&inf, &Tensor::wrapped_scalar(0.0f64), &r)
}

/// The declared functions (src/declared.rs), each `pub fn` recording its node.
pub mod declared {
    use super::super::*;
    use super::atan2_recip;
    crate::float_unary_ops!(define_float_unary);
    crate::float_binary_ops!(define_float_binary);
    crate::rounding_ops!(define_rounding);
}
pub use declared::{FLOAT_BINARY_OPS, FLOAT_UNARY_OPS, ROUNDING_OPS};
