//! Kernel identities: which elementwise, reduction or scan kernel an op asks a backend for.
//! Every backend implements each identity (or returns its "no kernel" error); the CUDA
//! backend's kernel names (`unary_<name>_<dtype>`) come from `name()`.
use crate::backend::Strided;
use crate::error::Result;

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

/// Expands the op declarations (`float_unary_ops!` in src/declared.rs) into the kernel
/// identity [`FloatUnary`]: its name, CUDA expressions and CPU kernel. (The ops layer expands
/// the same rows into the differentiable functions, the bindings into methods.)
macro_rules! define_float_unary_kernels {
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
        /// The declared float functions of one tensor: their kernel identities.
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
            pub(crate) fn cpu(self, x: &Strided) -> Result<Strided> {
                use crate::backend::cpu::map1;
                #[allow(unused_imports)]
                use crate::backend::cpu::vmath::VecMath;
                use crate::dtype::DType;
                use num_complex::{Complex32, Complex64};
                if let Some(r) = crate::backend::cpu::torch_vec::float_unary(self, x)? {
                    return Ok(r);
                }
                match (self, x.dtype()) {
                    $(
                        (FloatUnary::$Variant, DType::Float32) => map1::<f32, f32>(x, #[inline(always)] $real),
                        (FloatUnary::$Variant, DType::Float64) => map1::<f64, f64>(x, #[inline(always)] $real),
                        $(
                            (FloatUnary::$Variant, DType::Complex64) => map1::<Complex32, Complex32>(x, $complex),
                            (FloatUnary::$Variant, DType::Complex128) => map1::<Complex64, Complex64>(x, $complex),
                        )?
                    )*
                    (op, d) => Err(crate::error::Error::NotImplemented(format!(
                        "\"{}_cpu\" not implemented for '{}'",
                        op.name(),
                        d.scalar_type_name()
                    ))),
                }
            }
        }
    };
}
crate::float_unary_ops!(define_float_unary_kernels);

/// Expands the declared rounding functions (`rounding_ops!` in src/declared.rs) into the kernel
/// identity [`Rounding`]: its name, CUDA expression and CPU kernel of float32/float64.
macro_rules! define_rounding_kernels {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident $inplace:ident $Variant:ident $node:literal {
            real: $real:expr,
            cuda: $cuda:literal,
            complex: $complex:ident $(,)?
        }
    )*) => {
        /// The declared rounding functions: their kernel identities.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Rounding {
            $($Variant,)*
        }

        impl Rounding {
            /// Every declared rounding function, in declaration order.
            pub const ALL: &'static [Rounding] = &[$(Rounding::$Variant,)*];

            /// The op's name: `torch.<name>`, and the `<name>` of its CUDA kernels.
            pub fn name(self) -> &'static str {
                match self { $(Rounding::$Variant => stringify!($name),)* }
            }

            /// The CUDA C expression of the float32/float64 kernels, in terms of `v`.
            pub fn cuda_real(self) -> &'static str {
                match self { $(Rounding::$Variant => $cuda,)* }
            }

            /// The CPU kernel over a float32 or float64 tensor.
            pub(crate) fn cpu(self, x: &Strided) -> Result<Strided> {
                use crate::backend::cpu::map1;
                use crate::dtype::DType;
                match (self, x.dtype()) {
                    $(
                        (Rounding::$Variant, DType::Float32) => map1::<f32, f32>(x, $real),
                        (Rounding::$Variant, DType::Float64) => map1::<f64, f64>(x, $real),
                    )*
                    (op, d) => Err(crate::error::Error::NotImplemented(format!(
                        "\"{}_cpu\" not implemented for '{}'",
                        op.name(),
                        d.scalar_type_name()
                    ))),
                }
            }
        }
    };
}
crate::rounding_ops!(define_rounding_kernels);

/// [`FloatUnary`]'s counterpart for the declared float functions of two tensors
/// (`float_binary_ops!`).
macro_rules! define_float_binary_kernels {
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
        /// The declared float functions of two tensors: their kernel identities.
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

            /// The CUDA C expression of the float32/float64 kernels, in terms of `a` and `b`.
            pub fn cuda_real(self) -> &'static str {
                match self { $(FloatBinary::$Variant => $cuda,)* }
            }

            /// The CPU kernel over two float32 or float64 operands of one dtype.
            pub(crate) fn cpu(self, a: &Strided, b: &Strided, shape: &[usize]) -> Result<Strided> {
                use crate::backend::cpu::map2;
                use crate::dtype::DType;
                if let Some(r) = crate::backend::cpu::loop_paths::float_binary(self, a, b, shape)? {
                    return Ok(r);
                }
                match (self, a.dtype()) {
                    $(
                        (FloatBinary::$Variant, DType::Float32) => map2::<f32, f32, f32>(a, b, shape, $real),
                        (FloatBinary::$Variant, DType::Float64) => map2::<f64, f64, f64>(a, b, shape, $real),
                    )*
                    (op, d) => Err(crate::error::Error::NotImplemented(format!(
                        "\"{}_cpu\" not implemented for '{}'",
                        op.name(),
                        d.scalar_type_name()
                    ))),
                }
            }
        }
    };
}
crate::float_binary_ops!(define_float_binary_kernels);
/// A unary kernel: `unary_<name>_<dtype>` in the CUDA source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnaryKernel {
    /// A declared float function (src/declared.rs), with real and complex kernels.
    Float(FloatUnary),
    /// A declared rounding function (src/declared.rs).
    Rounding(Rounding),
    Abs,
    Neg,
    Relu,
    Sign,
    /// Logical not of bools.
    Not,
    /// Bitwise not of int64.
    BNot,
    Conj,
    /// x / |x| of complex numbers.
    Sgn,
    Angle,
}

impl UnaryKernel {
    pub fn name(self) -> &'static str {
        match self {
            UnaryKernel::Float(op) => op.name(),
            UnaryKernel::Rounding(op) => op.name(),
            UnaryKernel::Abs => "abs",
            UnaryKernel::Neg => "neg",
            UnaryKernel::Relu => "relu",
            UnaryKernel::Sign => "sign",
            UnaryKernel::Not => "not",
            UnaryKernel::BNot => "bnot",
            UnaryKernel::Conj => "conj",
            UnaryKernel::Sgn => "sgn",
            UnaryKernel::Angle => "angle",
        }
    }
}

/// An elementwise comparison.
#[derive(Debug, Copy, Clone, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// A binary kernel: `binary_<name>_<dtype>` in the CUDA source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryKernel {
    /// A declared float function of two tensors (src/declared.rs).
    Float(FloatBinary),
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    /// Integer powers (int64).
    IPow,
    Maximum,
    Minimum,
    /// Python's `//`.
    FloorDiv,
    Remainder,
    Fmod,
    /// Bitwise and/or/xor of int64.
    BAnd,
    BOr,
    BXor,
    /// Logical and/or/xor of bools.
    And,
    Or,
    Xor,
    /// A comparison: a bool result.
    Cmp(CmpOp),
}

impl BinaryKernel {
    pub fn name(self) -> &'static str {
        match self {
            BinaryKernel::Float(op) => op.name(),
            BinaryKernel::Add => "add",
            BinaryKernel::Sub => "sub",
            BinaryKernel::Mul => "mul",
            BinaryKernel::Div => "div",
            BinaryKernel::Pow => "pow",
            BinaryKernel::IPow => "ipow",
            BinaryKernel::Maximum => "maximum",
            BinaryKernel::Minimum => "minimum",
            BinaryKernel::FloorDiv => "floordiv",
            BinaryKernel::Remainder => "remainder",
            BinaryKernel::Fmod => "fmod",
            BinaryKernel::BAnd => "band",
            BinaryKernel::BOr => "bor",
            BinaryKernel::BXor => "bxor",
            BinaryKernel::And => "and",
            BinaryKernel::Or => "or",
            BinaryKernel::Xor => "xor",
            BinaryKernel::Cmp(CmpOp::Eq) => "eq",
            BinaryKernel::Cmp(CmpOp::Ne) => "ne",
            BinaryKernel::Cmp(CmpOp::Lt) => "lt",
            BinaryKernel::Cmp(CmpOp::Le) => "le",
            BinaryKernel::Cmp(CmpOp::Gt) => "gt",
            BinaryKernel::Cmp(CmpOp::Ge) => "ge",
        }
    }
}

/// A reduction kernel: `reduce_<name>_<dtype>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReduceKernel {
    Sum,
    Prod,
    AMax,
    AMin,
}

impl ReduceKernel {
    pub fn name(self) -> &'static str {
        match self {
            ReduceKernel::Sum => "sum",
            ReduceKernel::Prod => "prod",
            ReduceKernel::AMax => "amax",
            ReduceKernel::AMin => "amin",
        }
    }

    /// max / min: amax and amin.
    pub fn extreme(is_max: bool) -> ReduceKernel {
        if is_max {
            ReduceKernel::AMax
        } else {
            ReduceKernel::AMin
        }
    }
}

/// The index of the max / min along a dim: `argreduce_<name>_<dtype>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgReduceKernel {
    Max,
    Min,
}

impl ArgReduceKernel {
    pub fn name(self) -> &'static str {
        match self {
            ArgReduceKernel::Max => "max",
            ArgReduceKernel::Min => "min",
        }
    }
}

/// A running sum / product along a dim: `scan_<name>_<dtype>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScanKernel {
    Sum,
    Prod,
}

impl ScanKernel {
    pub fn name(self) -> &'static str {
        match self {
            ScanKernel::Sum => "sum",
            ScanKernel::Prod => "prod",
        }
    }
}
