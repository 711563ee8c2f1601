//! Scalar types, their names as PyTorch spells them, and PyTorch's type-promotion rules.
use num_complex::{Complex32, Complex64};

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DType {
    Bool,
    UInt8,
    Int8,
    Int16,
    Int32,
    Int64,
    Float16,
    BFloat16,
    Float32,
    Float64,
    Complex64,
    Complex128,
    // PyTorch's "shell" unsigned types: stored, converted and compared, with few kernels
    // (PyTorch refuses most arithmetic on them and any promotion with another integer type).
    UInt16,
    UInt32,
    UInt64,
}

/// Promotion category: within one category the wider type wins; across categories the higher.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Category {
    Bool,
    Int,
    Float,
    Complex,
}

impl DType {
    pub const ALL: [DType; 15] = [
        DType::Bool,
        DType::UInt8,
        DType::Int8,
        DType::Int16,
        DType::Int32,
        DType::Int64,
        DType::Float16,
        DType::BFloat16,
        DType::Float32,
        DType::Float64,
        DType::Complex64,
        DType::Complex128,
        DType::UInt16,
        DType::UInt32,
        DType::UInt64,
    ];

    pub fn category(self) -> Category {
        match self {
            DType::Bool => Category::Bool,
            DType::UInt8
            | DType::Int8
            | DType::Int16
            | DType::Int32
            | DType::Int64
            | DType::UInt16
            | DType::UInt32
            | DType::UInt64 => Category::Int,
            DType::Float16 | DType::BFloat16 | DType::Float32 | DType::Float64 => Category::Float,
            DType::Complex64 | DType::Complex128 => Category::Complex,
        }
    }
    pub fn is_floating(self) -> bool {
        self.category() == Category::Float
    }
    pub fn is_complex(self) -> bool {
        self.category() == Category::Complex
    }
    /// float16 or bfloat16: stored in 16 bits, computed in float32 (as PyTorch's kernels do).
    pub fn is_half(self) -> bool {
        matches!(self, DType::Float16 | DType::BFloat16)
    }
    /// Can carry gradients (floating point or complex).
    pub fn is_differentiable(self) -> bool {
        self.is_floating() || self.is_complex()
    }
    pub fn size(self) -> usize {
        match self {
            DType::Bool | DType::UInt8 | DType::Int8 => 1,
            DType::Int16 | DType::UInt16 | DType::Float16 | DType::BFloat16 => 2,
            DType::Int32 | DType::UInt32 | DType::Float32 => 4,
            DType::Int64 | DType::UInt64 | DType::Float64 | DType::Complex64 => 8,
            DType::Complex128 => 16,
        }
    }
    /// `float32`, `int64`, ... (the attribute name in the `torch` namespace).
    pub fn name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::UInt8 => "uint8",
            DType::Int8 => "int8",
            DType::Int16 => "int16",
            DType::Int32 => "int32",
            DType::Int64 => "int64",
            DType::Float16 => "float16",
            DType::BFloat16 => "bfloat16",
            DType::Float32 => "float32",
            DType::Float64 => "float64",
            DType::Complex64 => "complex64",
            DType::Complex128 => "complex128",
            DType::UInt16 => "uint16",
            DType::UInt32 => "uint32",
            DType::UInt64 => "uint64",
        }
    }
    /// c10 ScalarType name: `Float`, `Long`, `ComplexFloat`.
    pub fn scalar_type_name(self) -> &'static str {
        match self {
            DType::Bool => "Bool",
            DType::UInt8 => "Byte",
            DType::Int8 => "Char",
            DType::Int16 => "Short",
            DType::Int32 => "Int",
            DType::Int64 => "Long",
            DType::Float16 => "Half",
            DType::BFloat16 => "BFloat16",
            DType::Float32 => "Float",
            DType::Float64 => "Double",
            DType::Complex64 => "ComplexFloat",
            DType::Complex128 => "ComplexDouble",
            DType::UInt16 => "UInt16",
            DType::UInt32 => "UInt32",
            DType::UInt64 => "UInt64",
        }
    }
    /// C++ element type name as typeid prints it: `float`, `long int`, `c10::complex<float>`.
    pub fn cpp_name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::UInt8 => "unsigned char",
            DType::Int8 => "signed char",
            DType::Int16 => "short int",
            DType::Int32 => "int",
            DType::Int64 => "long int",
            DType::Float16 => "c10::Half",
            DType::BFloat16 => "c10::BFloat16",
            DType::Float32 => "float",
            DType::Float64 => "double",
            DType::Complex64 => "c10::complex<float>",
            DType::Complex128 => "c10::complex<double>",
            DType::UInt16 => "unsigned short",
            DType::UInt32 => "unsigned int",
            DType::UInt64 => "unsigned long",
        }
    }
    /// Legacy tensor type name used in messages: `torch.FloatTensor`, `CPUComplexFloatType`
    /// (bool, bfloat16 and complex have no legacy name in PyTorch's C++ table: `CPUBoolType`).
    pub fn legacy_type_name(self) -> &'static str {
        match self {
            DType::Bool => "CPUBoolType",
            DType::UInt8 => "torch.ByteTensor",
            DType::Int8 => "torch.CharTensor",
            DType::Int16 => "torch.ShortTensor",
            DType::Int32 => "torch.IntTensor",
            DType::Int64 => "torch.LongTensor",
            DType::Float16 => "torch.HalfTensor",
            DType::BFloat16 => "CPUBFloat16Type",
            DType::Float32 => "torch.FloatTensor",
            DType::Float64 => "torch.DoubleTensor",
            DType::Complex64 => "CPUComplexFloatType",
            DType::Complex128 => "CPUComplexDoubleType",
            DType::UInt16 => "CPUUInt16Type",
            DType::UInt32 => "CPUUInt32Type",
            DType::UInt64 => "CPUUInt64Type",
        }
    }
    /// The real counterpart of a complex type (itself otherwise).
    /// The largest finite value of a floating dtype (`torch.finfo(dt).max`; that of the real
    /// part for a complex one); None for the others.
    pub fn max_finite(self) -> Option<f64> {
        match self.to_real() {
            DType::Float32 => Some(f32::MAX as f64),
            DType::Float64 => Some(f64::MAX),
            DType::Float16 => Some(65504.0),
            DType::BFloat16 => Some(3.389_531_389_251_535_5e38),
            _ => None,
        }
    }
    pub fn to_real(self) -> DType {
        match self {
            DType::Complex64 => DType::Float32,
            DType::Complex128 => DType::Float64,
            d => d,
        }
    }
    pub fn to_complex(self) -> DType {
        match self {
            DType::Float64 | DType::Complex128 => DType::Complex128,
            _ => DType::Complex64,
        }
    }
}

/// The default floating dtype (`torch.get_default_dtype()`), as its index in [`DType::ALL`].
static DEFAULT_FLOAT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(8);

/// The default floating dtype: what Python floats become, what integers compute in where a
/// float result is needed, and what the factories make (`torch.set_default_dtype`).
pub fn default_float() -> DType {
    DType::ALL[DEFAULT_FLOAT.load(std::sync::atomic::Ordering::Relaxed)]
}

/// The default complex dtype: complex128 when the default float is float64, else complex64
/// (PyTorch's complex32 for a 16-bit default does not exist here).
pub fn default_complex() -> DType {
    default_float().to_complex()
}

/// Sets the default floating dtype (a floating dtype; the caller checks).
pub fn set_default_float(d: DType) {
    debug_assert!(d.is_floating());
    let i = DType::ALL.iter().position(|&x| x == d).unwrap_or(8);
    DEFAULT_FLOAT.store(i, std::sync::atomic::Ordering::Relaxed);
}

impl DType {
    /// uint16, uint32 or uint64: the types PyTorch stores but will not promote with another
    /// integer or bool type.
    pub fn is_shell_unsigned(self) -> bool {
        matches!(self, DType::UInt16 | DType::UInt32 | DType::UInt64)
    }
}

/// PyTorch's NotImplementedError for a kernel it has no loop for on the unsigned shell types
/// (`"add_stub" not implemented for 'UInt16'`): leafgrad's kernels would run, but a program
/// that works here must work in PyTorch.
pub fn shell_kernel_check(dt: DType, kernel: &str) -> crate::Result<()> {
    if dt.is_shell_unsigned() {
        return Err(crate::Error::NotImplemented(format!(
            "\"{kernel}\" not implemented for '{}'",
            dt.scalar_type_name()
        )));
    }
    Ok(())
}

/// PyTorch's refusal to promote uint16/uint32/uint64 with a different integer or bool type.
pub fn check_promotable(a: DType, b: DType) -> crate::Result<()> {
    if a != b
        && (a.is_shell_unsigned() || b.is_shell_unsigned())
        && !a.is_floating()
        && !a.is_complex()
        && !b.is_floating()
        && !b.is_complex()
    {
        return Err(crate::Error::Runtime(format!(
            "Promotion for uint16, uint32, uint64 types is not supported, attempted to promote {} and {}",
            a.scalar_type_name(),
            b.scalar_type_name()
        )));
    }
    Ok(())
}

/// `torch.promote_types`: [`promote`] with PyTorch's refusal for the unsigned shell types.
pub fn promote_types(a: DType, b: DType) -> crate::Result<DType> {
    check_promotable(a, b)?;
    Ok(promote(a, b))
}

/// Join two dtypes (of one priority class; the caller has checked [`check_promotable`]).
pub fn promote(a: DType, b: DType) -> DType {
    use DType::*;
    if a == b {
        return a;
    }
    if a.is_shell_unsigned() || b.is_shell_unsigned() {
        // only floating or complex partners reach here: the float side wins
        return if a.category() > b.category() { a } else { b };
    }
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    match (lo, hi) {
        (Float64, Complex64) => Complex128,
        (Float16, BFloat16) => Float32,
        (UInt8, Int8) => Int16,
        _ => hi,
    }
}

/// What an operand contributes to type promotion: tensors with dims outrank 0-d tensors, which
/// outrank Python scalars; a lower rank only matters when its category is higher.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Priority {
    Scalar,
    ZeroDim,
    Dim,
}

/// `torch.result_type` over operands given as (dtype, priority).
pub fn result_type(ops: &[(DType, Priority)]) -> crate::Result<DType> {
    let mut best: [Option<DType>; 3] = [None, None, None];
    for &(d, p) in ops {
        let slot = &mut best[p as usize];
        *slot = Some(match *slot {
            None => d,
            Some(o) => {
                check_promotable(o, d)?;
                promote(o, d)
            }
        });
    }
    // a bool of higher priority still promotes with the integer below it (c10's
    // combine_categories), which the unsigned shell types refuse
    let mut seen: Option<DType> = None;
    for p in [Priority::Dim, Priority::ZeroDim, Priority::Scalar] {
        if let Some(d) = best[p as usize] {
            if let Some(r) = seen {
                if r == DType::Bool && d.category() == Category::Int {
                    check_promotable(r, d)?;
                }
            } else {
                seen = Some(d);
            }
        }
    }
    let mut res: Option<DType> = None;
    for p in [Priority::Dim, Priority::ZeroDim, Priority::Scalar] {
        if let Some(d) = best[p as usize] {
            res = Some(match res {
                // Only Python numbers: the default dtype of their category (where(m, 1, 2.5)
                // is float32, as a tensor made from 2.5 would be).
                None if p == Priority::Scalar => match d.category() {
                    Category::Float => default_float(),
                    Category::Complex => default_complex(),
                    _ => d,
                },
                None => d,
                Some(r) if d.category() > r.category() => {
                    if p == Priority::Scalar {
                        // A Python float joins ints as the default float; a Python complex joins
                        // floats as the complex type of matching width.
                        match d.category() {
                            Category::Float => default_float(),
                            Category::Complex if r.category() == Category::Float => r.to_complex(),
                            Category::Complex => default_complex(),
                            _ => d,
                        }
                    } else if d.category() == Category::Complex && r.category() == Category::Float {
                        // c10's combine_categories keeps the float's width: a float32 tensor
                        // times a complex128 0-d tensor is complex64
                        r.to_complex()
                    } else {
                        d
                    }
                }
                Some(r) => r,
            });
        }
    }
    Ok(res.unwrap_or_else(default_float))
}

/// PyTorch's check of a Python number written into a tensor of dtype `dt` (fill_, full):
/// finite values out of the dtype's range, and complex values into a real dtype, are refused.
pub fn check_fill_value(v: num_complex::Complex64, dt: DType) -> crate::Result<()> {
    let (name, lo, hi): (&str, f64, f64) = match dt {
        DType::Float32 | DType::Float64 | DType::Float16 | DType::BFloat16 => {
            let max = dt.max_finite().unwrap_or(f64::MAX);
            (dt.cpp_name(), -max, max)
        }
        DType::Int64 => ("int64_t", i64::MIN as f64, i64::MAX as f64),
        DType::Int32 => ("int", i32::MIN as f64, i32::MAX as f64),
        DType::Int16 => ("int16_t", i16::MIN as f64, i16::MAX as f64),
        DType::Int8 => ("int8_t", i8::MIN as f64, i8::MAX as f64),
        DType::UInt8 => ("uint8_t", i64::MIN as f64, i64::MAX as f64),
        // c10's checked_convert lets an unsigned type take -max..=max (negatives wrap)
        DType::UInt16 => ("uint16_t", -(u16::MAX as f64), u16::MAX as f64),
        DType::UInt32 => ("uint32_t", -(u32::MAX as f64), u32::MAX as f64),
        DType::UInt64 => ("uint64_t", -(u64::MAX as f64), u64::MAX as f64),
        DType::Bool => ("bool", f64::NEG_INFINITY, f64::INFINITY),
        DType::Complex64 | DType::Complex128 => return Ok(()),
    };
    let out_of_range = v.re.is_finite() && (v.re < lo || v.re > hi);
    if out_of_range || v.im != 0.0 {
        return Err(crate::Error::Runtime(format!(
            "value cannot be converted to type {name} without overflow"
        )));
    }
    Ok(())
}

/// Rust element types stored in tensors.
pub trait Element: Copy + Send + Sync + Default + PartialEq + std::fmt::Debug + 'static {
    const DTYPE: DType;
    fn to_c64(self) -> Complex64;
    fn from_c64(v: Complex64) -> Self;
    fn to_f64(self) -> f64 {
        self.to_c64().re
    }
    fn from_f64(v: f64) -> Self {
        Self::from_c64(Complex64::new(v, 0.0))
    }
    /// An integer type's value (None for other types): integer casts wrap, as C++'s.
    fn int_value(self) -> Option<i64> {
        None
    }
    /// An integer type from an int64, wrapping (None for other types).
    fn from_int(_v: i64) -> Option<Self> {
        None
    }
}

macro_rules! int_element_casts {
    ($t:ty) => {
        impl IntCast for $t {
            #[inline]
            fn int_value(self) -> i64 {
                self as i64
            }
            #[inline]
            fn from_int(v: i64) -> Self {
                v as $t
            }
        }
    };
}

/// The integer element types' wrapping casts among themselves.
pub trait IntCast {
    fn int_value(self) -> i64;
    fn from_int(v: i64) -> Self;
}
int_element_casts!(u8);
int_element_casts!(i8);
int_element_casts!(i16);
int_element_casts!(i32);
int_element_casts!(i64);
int_element_casts!(u16);
int_element_casts!(u32);
int_element_casts!(u64);

macro_rules! real_element {
    ($t:ty, $d:ident, $from:expr, int) => {
        real_element!(@impl $t, $d, $from,
            #[inline]
            fn int_value(self) -> Option<i64> {
                Some(IntCast::int_value(self))
            }
            #[inline]
            fn from_int(v: i64) -> Option<Self> {
                Some(<$t as IntCast>::from_int(v))
            }
        );
    };
    ($t:ty, $d:ident, $from:expr) => {
        real_element!(@impl $t, $d, $from,);
    };
    (@impl $t:ty, $d:ident, $from:expr, $($extra:tt)*) => {
        impl Element for $t {
            $($extra)*
            const DTYPE: DType = DType::$d;
            #[inline]
            fn to_c64(self) -> Complex64 {
                Complex64::new(self as f64, 0.0)
            }
            #[inline]
            fn from_c64(v: Complex64) -> Self {
                let f: fn(f64) -> $t = $from;
                f(v.re)
            }
            #[inline]
            fn to_f64(self) -> f64 {
                self as f64
            }
            #[inline]
            fn from_f64(v: f64) -> Self {
                let f: fn(f64) -> $t = $from;
                f(v)
            }
        }
    };
}
/// A float to a signed integer as C++'s static_cast on x86 (what PyTorch's CPU casts do): NaN
/// and values out of range give the "integer indefinite" minimum, not a saturated value.
#[inline]
fn f64_to_i64(v: f64) -> i64 {
    const LIMIT: f64 = -(i64::MIN as f64); // 2^63
    if v.is_nan() || !(-LIMIT..LIMIT).contains(&v) {
        i64::MIN
    } else {
        v as i64
    }
}

#[inline]
fn f64_to_i32(v: f64) -> i32 {
    if v.is_nan() || v <= -2_147_483_649.0 || v >= 2_147_483_648.0 {
        i32::MIN
    } else {
        v as i32
    }
}

#[inline]
fn f64_to_u32(v: f64) -> u32 {
    const TOP: f64 = 2_147_483_648.0;
    if v < TOP {
        f64_to_i32(v) as u32
    } else {
        (f64_to_i32(v - TOP) as u32).wrapping_add(1 << 31)
    }
}

#[inline]
fn f64_to_u64(v: f64) -> u64 {
    const TOP: f64 = 9_223_372_036_854_775_808.0;
    if v >= TOP {
        (f64_to_i64(v - TOP) as u64).wrapping_add(1 << 63)
    } else {
        f64_to_i64(v) as u64
    }
}

// uint8 goes through int64 (c10's static_cast_with_inter_type), keeping the low byte
real_element!(u8, UInt8, |v| f64_to_i64(v) as u8, int);
// int8 and int16 through int32, keeping the low bits (an x86 float-to-int conversion)
real_element!(i8, Int8, |v| f64_to_i32(v) as i8, int);
real_element!(i16, Int16, |v| f64_to_i32(v) as i16, int);
real_element!(i32, Int32, f64_to_i32, int);
real_element!(i64, Int64, f64_to_i64, int);
// uint16 through int32 as int16; uint32 and uint64 as the compiler's unsigned conversion does
// (a signed conversion, or one of the value less 2^31 / 2^63 with the top bit added back)
real_element!(u16, UInt16, |v| f64_to_i32(v) as u16, int);
real_element!(u32, UInt32, f64_to_u32, int);
real_element!(u64, UInt64, f64_to_u64, int);
real_element!(f32, Float32, |v| v as f32);
real_element!(f64, Float64, |v| v);

macro_rules! half_element {
    ($t:ty, $d:ident) => {
        impl Element for $t {
            const DTYPE: DType = DType::$d;
            #[inline]
            fn to_c64(self) -> Complex64 {
                Complex64::new(self.to_f64(), 0.0)
            }
            #[inline]
            fn from_c64(v: Complex64) -> Self {
                <$t>::from_f32(v.re as f32)
            }
            #[inline]
            fn to_f64(self) -> f64 {
                <$t>::to_f64(self)
            }
            #[inline]
            fn from_f64(v: f64) -> Self {
                <$t>::from_f32(v as f32)
            }
        }
    };
}
half_element!(half::f16, Float16);
half_element!(half::bf16, BFloat16);

impl Element for bool {
    const DTYPE: DType = DType::Bool;
    fn to_c64(self) -> Complex64 {
        Complex64::new(self as u8 as f64, 0.0)
    }
    fn from_c64(v: Complex64) -> Self {
        v.re != 0.0 || v.im != 0.0
    }
}
impl Element for Complex32 {
    const DTYPE: DType = DType::Complex64;
    fn to_c64(self) -> Complex64 {
        Complex64::new(self.re as f64, self.im as f64)
    }
    fn from_c64(v: Complex64) -> Self {
        Complex32::new(v.re as f32, v.im as f32)
    }
}
impl Element for Complex64 {
    const DTYPE: DType = DType::Complex128;
    fn to_c64(self) -> Complex64 {
        self
    }
    fn from_c64(v: Complex64) -> Self {
        v
    }
}

/// Run `$body` with `$T` bound to the element type of `$dt`.
#[macro_export]
macro_rules! with_dtype {
    ($dt:expr, $T:ident, $body:block) => {
        match $dt {
            $crate::dtype::DType::Bool => {
                type $T = bool;
                $body
            }
            $crate::dtype::DType::UInt8 => {
                type $T = u8;
                $body
            }
            $crate::dtype::DType::Int8 => {
                type $T = i8;
                $body
            }
            $crate::dtype::DType::Int16 => {
                type $T = i16;
                $body
            }
            $crate::dtype::DType::Int32 => {
                type $T = i32;
                $body
            }
            $crate::dtype::DType::Int64 => {
                type $T = i64;
                $body
            }
            $crate::dtype::DType::Float16 => {
                type $T = half::f16;
                $body
            }
            $crate::dtype::DType::BFloat16 => {
                type $T = half::bf16;
                $body
            }
            $crate::dtype::DType::Float32 => {
                type $T = f32;
                $body
            }
            $crate::dtype::DType::Float64 => {
                type $T = f64;
                $body
            }
            $crate::dtype::DType::Complex64 => {
                type $T = num_complex::Complex32;
                $body
            }
            $crate::dtype::DType::Complex128 => {
                type $T = num_complex::Complex64;
                $body
            }
            $crate::dtype::DType::UInt16 => {
                type $T = u16;
                $body
            }
            $crate::dtype::DType::UInt32 => {
                type $T = u32;
                $body
            }
            $crate::dtype::DType::UInt64 => {
                type $T = u64;
                $body
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn promotion() {
        use DType::*;
        use Priority::*;
        assert_eq!(
            result_type(&[(Int64, Dim), (Float32, Scalar)]).unwrap(),
            Float32
        );
        assert_eq!(
            result_type(&[(Float64, Dim), (Float32, Scalar)]).unwrap(),
            Float64
        );
        assert_eq!(
            result_type(&[(Float32, Dim), (Float64, ZeroDim)]).unwrap(),
            Float32
        );
        assert_eq!(
            result_type(&[(Int64, Dim), (Float64, ZeroDim)]).unwrap(),
            Float64
        );
        assert_eq!(
            result_type(&[(Float64, Dim), (Complex64, Scalar)]).unwrap(),
            Complex128
        );
        assert_eq!(
            result_type(&[(Int32, Dim), (Int64, Scalar)]).unwrap(),
            Int32
        );
        assert_eq!(result_type(&[(Bool, Dim), (Int64, Scalar)]).unwrap(), Int64);
        assert_eq!(
            result_type(&[(Float16, Dim), (BFloat16, Dim)]).unwrap(),
            Float32
        );
        assert_eq!(
            result_type(&[(Float16, Dim), (Float32, ZeroDim)]).unwrap(),
            Float16
        );
    }
}
