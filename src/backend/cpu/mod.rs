//! CPU kernels: strided element loops, casts and copies, reductions and matrix products.
//! Kernels know nothing of autograd; ops (src/ops) call them and record the graph.
pub mod batch_norm;
pub mod cascade;
pub mod clibm;
pub mod complex_loop;
pub mod conv;
pub mod elementwise;
pub mod factor;
pub mod gelu_erf;
pub mod host_cache;
pub mod index;
pub mod layer_norm;
pub mod layout;
pub mod loop_paths;
mod maps;
pub mod matmul;
mod memory;
pub mod norm;
pub mod parallel;
pub mod reduce;
pub mod reduce_iter;
pub mod rows;
pub mod sleef;
pub mod sleef64;
pub mod special;
pub mod torch_vec;
pub mod vmath;

pub(crate) use maps::vectorised;
pub use maps::{map1, map2, map2_into};
pub use memory::{convert, copy_into, copy_where, fill, fill_where, where_};

use super::Backend;
use crate::backend::Strided;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use num_complex::Complex64;

/// The CPU backend.
pub struct Cpu;

impl Backend for Cpu {
    fn empty(&self, shape: &[usize], dtype: DType, _device: Device) -> Result<Strided> {
        Strided::zeros(shape, dtype)
    }
    fn fill(&self, t: &Strided, value: Complex64) -> Result<()> {
        fill(t, value)
    }
    fn copy_into(&self, dst: &Strided, src: &Strided) -> Result<()> {
        copy_into(dst, src)
    }
    fn to_device(&self, x: &Strided, _device: Device) -> Result<Strided> {
        x.contiguous()
    }
    fn where_(&self, cond: &Strided, a: &Strided, b: &Strided) -> Result<Strided> {
        where_(cond, a, b)
    }
    fn fill_where(&self, t: &Strided, mask: &Strided, value: Complex64) -> Result<()> {
        fill_where(t, mask, value)
    }
    fn copy_where(&self, out: &Strided, cond: &Strided, src: &Strided) -> Result<()> {
        copy_where(out, cond, src)
    }
    fn unary(&self, k: super::UnaryKernel, x: &Strided) -> Result<Strided> {
        elementwise::unary(k, x)
    }
    fn binary(
        &self,
        k: super::BinaryKernel,
        a: &Strided,
        b: &Strided,
        dt: DType,
    ) -> Result<Strided> {
        elementwise::binary(k, a, b, dt)
    }
    fn binary_into(
        &self,
        k: super::BinaryKernel,
        a: &Strided,
        b: &Strided,
        out: &Strided,
    ) -> Result<bool> {
        use super::BinaryKernel as K;
        Ok(match (k, out.dtype()) {
            (K::Add, DType::Float32) => maps::map2_into::<f32>(a, b, out, |x, y| x + y),
            (K::Add, DType::Float64) => maps::map2_into::<f64>(a, b, out, |x, y| x + y),
            (K::Sub, DType::Float32) => maps::map2_into::<f32>(a, b, out, |x, y| x - y),
            (K::Sub, DType::Float64) => maps::map2_into::<f64>(a, b, out, |x, y| x - y),
            (K::Mul, DType::Float32) => maps::map2_into::<f32>(a, b, out, |x, y| x * y),
            (K::Mul, DType::Float64) => maps::map2_into::<f64>(a, b, out, |x, y| x * y),
            (K::Div, DType::Float32) => maps::map2_into::<f32>(a, b, out, |x, y| x / y),
            (K::Div, DType::Float64) => maps::map2_into::<f64>(a, b, out, |x, y| x / y),
            _ => false,
        })
    }
    fn clamp(&self, x: &Strided, lo: f64, hi: f64) -> Result<Strided> {
        elementwise::clamp(x, lo, hi)
    }
    fn reduce(
        &self,
        k: super::ReduceKernel,
        x: &Strided,
        dims: &[usize],
        keepdim: bool,
    ) -> Result<Strided> {
        reduce::reduce(k, x, dims, keepdim)
    }
    fn argreduce(&self, k: super::ArgReduceKernel, x: &Strided, dim: usize) -> Result<Strided> {
        reduce::argreduce(k, x, dim)
    }
    fn scan(
        &self,
        k: super::ScanKernel,
        x: &Strided,
        dim: usize,
        reverse: bool,
        exclusive: bool,
    ) -> Result<Strided> {
        reduce::scan(k, x, dim, reverse, exclusive)
    }
    fn take(&self, x: &Strided, plan: &[usize], shape: &[usize]) -> Result<Strided> {
        index::take(x, plan, shape)
    }
    fn put(&self, out: &Strided, plan: &[usize], vals: &Strided, add: bool) -> Result<()> {
        index::put(out, plan, vals, add)
    }
    fn mm(&self, a: &Strided, b: &Strided) -> Result<Strided> {
        matmul::mm(a, b)
    }
    fn bmm(&self, a: &Strided, b: &Strided) -> Result<Strided> {
        matmul::bmm(a, b)
    }
}

/// Types that support + - * / (every dtype but bool).
#[macro_export]
macro_rules! with_numeric {
    ($dt:expr, $T:ident, $body:block) => {
        match $dt {
            $crate::dtype::DType::Bool => unreachable!("bool is promoted before arithmetic"),
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

/// Floating and complex types (transcendental functions).
#[macro_export]
macro_rules! with_float {
    ($dt:expr, $T:ident, $body:block) => {
        match $dt {
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
            _ => unreachable!("integer and half inputs are promoted to float before this kernel"),
        }
    };
}

/// Real types with an order (comparisons, relu, max).
#[macro_export]
macro_rules! with_real {
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
            _ => unreachable!("complex inputs are rejected before this kernel"),
        }
    };
}

/// The error of a CPU loop reached with device memory (an op without a CUDA kernel) or with a
/// meta tensor (no memory at all).
pub(crate) fn host_only(ts: &[&Strided]) -> Result<()> {
    if ts.iter().any(|d| d.storage.device().is_meta()) {
        return Err(crate::error::no_meta_kernel());
    }
    if ts.iter().any(|d| d.storage.is_cuda()) {
        return Err(crate::error::no_cuda_kernel("this operation"));
    }
    Ok(())
}

/// The error of a host-only op when an operand is on a CUDA device.
pub fn no_cuda(ts: &[&Strided], what: &str) -> Result<()> {
    if ts.iter().any(|t| t.is_cuda()) {
        return Err(crate::error::no_cuda_kernel(what));
    }
    Ok(())
}

pub use crate::shape::checked_numel;

/// An empty vector with room for `n` elements, or an error naming the size (never an abort).
pub fn alloc_vec<T>(n: usize) -> Result<Vec<T>> {
    let Some(nbytes) = n.checked_mul(std::mem::size_of::<T>()) else {
        return Err(Error::Runtime(format!(
            "Storage size calculation overflowed: {} elements of {} bytes",
            n,
            std::mem::size_of::<T>()
        )));
    };
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| {
        Error::Runtime(format!(
            "[enforce fail at alloc_cpu.cpp] DefaultCPUAllocator: can't allocate memory: you tried to allocate {nbytes} bytes."
        ))
    })?;
    Ok(v)
}
