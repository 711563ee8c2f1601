//! The devices behind one trait.
//!
//! An op (src/ops) computes through [`Backend`]: it asks [`of`] for the backend of its operands
//! (the one `match` on the device, in [`on`]) and calls a kernel by its identity
//! ([`UnaryKernel`], [`BinaryKernel`], ...). Three backends implement it:
//!
//! - [`cpu`]: host loops (strided, broadcasting, threaded for large tensors), matrixmultiply's
//!   GEMM;
//! - [`cuda`]: device memory and the kernels of `cuda/kernels.cu`, compiled by NVRTC (or run on
//!   the host emulation); every entry point says why when CUDA cannot be used;
//! - [`meta`]: shapes and dtypes without data; it computes nothing yet.
//!
//! Kernels know nothing of autograd. The device-neutral helpers here (`cast`, `contiguous`,
//! `copy_into`, `fill`, ...) are what ops use for memory; they dispatch like every kernel.
pub mod cpu;
pub mod cuda;
mod kernel;
pub mod meta;

pub use kernel::{
    ArgReduceKernel, BinaryKernel, CmpOp, FloatBinary, FloatUnary, ReduceKernel, ScanKernel,
    UnaryKernel,
};

use crate::device::Device;
use crate::dtype::{DType, Element};
use crate::error::{Error, Result};
use crate::tensor::Tensor;
use num_complex::Complex64;

/// What a device does for the ops. Operands of one call share the backend's device (a CPU
/// 0-d tensor travels with CUDA operands as a scalar); results are contiguous, on that device.
pub trait Backend: Sync {
    /// A new contiguous tensor (the CPU's is zeroed; CUDA's holds whatever was in memory).
    fn empty(&self, shape: &[usize], dtype: DType, device: Device) -> Result<Tensor>;
    /// Every element of `t` (a view, maybe) set to `value`.
    fn fill(&self, t: &Tensor, value: Complex64) -> Result<()>;
    /// `dst[...] = src`, src broadcast to dst's shape and converted to its dtype, in place. The
    /// CUDA backend also copies between the host and a device.
    fn copy_into(&self, dst: &Tensor, src: &Tensor) -> Result<()>;
    /// A contiguous copy of `x` on `device` (this backend's device or the host).
    fn to_device(&self, x: &Tensor, device: Device) -> Result<Tensor>;
    /// `cond ? a : b`, broadcast; a and b of one dtype.
    fn where_(&self, cond: &Tensor, a: &Tensor, b: &Tensor) -> Result<Tensor>;
    /// `t[mask] = value` in place (mask broadcastable to t's shape, t contiguous).
    fn fill_where(&self, t: &Tensor, mask: &Tensor, value: Complex64) -> Result<()> {
        let v = Tensor::full(&[], value, t.dtype())?;
        let r = self.where_(&broadcast_to(mask, &t.shape())?, &v, t)?;
        self.copy_into(t, &r)
    }
    /// `out = where(cond, src, out)` in place, for contiguous `out` and `src` of out's shape.
    fn copy_where(&self, out: &Tensor, cond: &Tensor, src: &Tensor) -> Result<()> {
        let s = cast(src, out.dtype())?;
        let r = self.where_(cond, &s, out)?;
        self.copy_into(out, &r)
    }
    /// `k(x)` elementwise, in x's dtype (|z| and arg z of complex numbers are real).
    fn unary(&self, k: UnaryKernel, x: &Tensor) -> Result<Tensor>;
    /// `a k b` broadcast, computed in `dt` (the operands' promoted dtype); comparisons give
    /// bools.
    fn binary(&self, k: BinaryKernel, a: &Tensor, b: &Tensor, dt: DType) -> Result<Tensor>;
    /// `out = a k b` written straight into `out`'s memory, for operands of out's shape and
    /// dtype (the `out=` fast path). Ok(false), with nothing written, where the backend has no
    /// such path for these operands (the caller then computes and copies).
    fn binary_into(
        &self,
        _k: BinaryKernel,
        _a: &Tensor,
        _b: &Tensor,
        _out: &Tensor,
    ) -> Result<bool> {
        Ok(false)
    }
    /// `clamp(x, lo, hi)` with float bounds (infinite where absent), in x's dtype.
    fn clamp(&self, x: &Tensor, lo: f64, hi: f64) -> Result<Tensor>;
    /// `k` (sum, prod, amax, amin) over sorted `dims`; integer and bool sums are int64.
    fn reduce(&self, k: ReduceKernel, x: &Tensor, dims: &[usize], keepdim: bool) -> Result<Tensor>;
    /// The index of the max / min along `dim`, kept as size 1 (int64).
    fn argreduce(&self, k: ArgReduceKernel, x: &Tensor, dim: usize) -> Result<Tensor>;
    /// Running sums / products along `dim`, in x's dtype (from the end if `reverse`; without
    /// the element itself if `exclusive`).
    fn scan(
        &self,
        k: ScanKernel,
        x: &Tensor,
        dim: usize,
        reverse: bool,
        exclusive: bool,
    ) -> Result<Tensor>;
    /// `out[i] = x.flat[plan[i]]` (x in logical order), shaped `shape`.
    fn take(&self, x: &Tensor, plan: &[usize], shape: &[usize]) -> Result<Tensor>;
    /// `out.flat[plan[i]] = vals[i]` (`add`: `+=`) into contiguous `out`, in place.
    fn put(&self, out: &Tensor, plan: &[usize], vals: &Tensor, add: bool) -> Result<()>;
    /// `a @ b` of 2-D operands of one dtype.
    fn mm(&self, a: &Tensor, b: &Tensor) -> Result<Tensor>;
    /// Batched `a @ b` of [B, m, k] and [B, k, n] operands of one dtype.
    fn bmm(&self, a: &Tensor, b: &Tensor) -> Result<Tensor>;
}

/// The backend of `device`: the one `match` on the device kind.
pub fn on(device: Device) -> &'static dyn Backend {
    match device {
        Device::Cpu => &cpu::Cpu,
        Device::Cuda(_) => &cuda::Cuda,
        Device::Meta => &meta::Meta,
    }
}

/// The backend an op on these operands runs on: meta when any is a meta tensor, else CUDA when
/// any lives on a CUDA device (the CUDA backend raises PyTorch's device-mismatch error for CPU
/// operands other than 0-d ones), else the CPU.
pub fn of(ts: &[&Tensor]) -> &'static dyn Backend {
    let mut dev = Device::Cpu;
    for t in ts {
        match t.data().storage.device() {
            Device::Meta => return on(Device::Meta),
            d @ Device::Cuda(_) => dev = d,
            Device::Cpu => {}
        }
    }
    on(dev)
}

/// `x` seen with `shape` (broadcast: size-1 dims get stride 0), sharing its memory; no history.
pub fn broadcast_to(x: &Tensor, shape: &[usize]) -> Result<Tensor> {
    let d = x.data();
    if d.shape.as_slice() == shape {
        return Ok(x.clone());
    }
    if d.shape.len() > shape.len()
        || crate::shape::broadcast_shapes(&d.shape, shape)?.as_slice() != shape
    {
        return Err(Error::Runtime(format!(
            "The expanded size of the tensor must match the existing size: {:?} cannot be broadcast to {:?}",
            d.shape.as_slice(),
            shape
        )));
    }
    let (strides, offset) = (
        crate::shape::broadcast_strides(&d.shape, &d.strides, shape),
        d.offset,
    );
    drop(d);
    Ok(x.restrided(shape, &strides, offset))
}

/// A new contiguous tensor on `device` (see [`Backend::empty`]).
pub fn empty(shape: &[usize], dtype: DType, device: Device) -> Result<Tensor> {
    on(device).empty(shape, dtype, device)
}

/// Every element of `t` set to `value`.
pub fn fill(t: &Tensor, value: Complex64) -> Result<()> {
    of(&[t]).fill(t, value)
}

/// Write `src` (broadcast to dst's shape, converted to dst's dtype) into `dst` in place.
pub fn copy_into(dst: &Tensor, src: &Tensor) -> Result<()> {
    of(&[dst, src]).copy_into(dst, src)
}

/// A contiguous copy of `x` on `device`.
pub fn to_device(x: &Tensor, device: Device) -> Result<Tensor> {
    let dev = x.device();
    let b = if dev.is_meta() || device.is_meta() {
        on(Device::Meta)
    } else if dev.is_cuda() {
        on(dev)
    } else {
        on(device)
    };
    b.to_device(x, device)
}

/// A contiguous copy in `dtype` on x's device (a fresh tensor, even when nothing changes).
pub fn cast(x: &Tensor, dtype: DType) -> Result<Tensor> {
    let out = empty(&x.shape(), dtype, x.device())?;
    copy_into(&out, x)?;
    Ok(out)
}

/// `cast` keeping `x`'s memory layout as PyTorch's elementwise results do (for dtype
/// round trips inside ops, so their results keep the input's layout).
pub fn cast_keep(x: &Tensor, dtype: DType) -> Result<Tensor> {
    if x.is_contiguous() {
        return cast(x, dtype);
    }
    cpu::layout::copy_with_layout(x, dtype)
}

/// A contiguous copy of `x`.
pub fn contiguous(x: &Tensor) -> Result<Tensor> {
    cast(x, x.dtype())
}

/// `t[mask] = value` in place (mask broadcastable to t's shape, t contiguous).
pub fn fill_where(t: &Tensor, mask: &Tensor, value: Complex64) -> Result<()> {
    of(&[t, mask]).fill_where(t, mask, value)
}

/// `out = where(cond, src, out)` for contiguous `out` and `src` of out's shape.
pub fn copy_where(out: &Tensor, cond: &Tensor, src: &Tensor) -> Result<()> {
    of(&[out, cond, src]).copy_where(out, cond, src)
}

/// `cond ? a : b` broadcast (a and b of one dtype), on the operands' device.
pub fn where_(cond: &Tensor, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    of(&[cond, a, b]).where_(cond, a, b)
}

/// `k(x)` elementwise on x's device.
pub fn unary(k: UnaryKernel, x: &Tensor) -> Result<Tensor> {
    of(&[x]).unary(k, x)
}

/// `a k b` broadcast, computed in `dt`, on the operands' device.
pub fn binary(k: BinaryKernel, a: &Tensor, b: &Tensor, dt: DType) -> Result<Tensor> {
    of(&[a, b]).binary(k, a, b, dt)
}

/// `out = a k b` into out's memory where the backend can (see [`Backend::binary_into`]).
pub fn binary_into(k: BinaryKernel, a: &Tensor, b: &Tensor, out: &Tensor) -> Result<bool> {
    of(&[a, b, out]).binary_into(k, a, b, out)
}

/// `clamp(x, lo, hi)` with float bounds, on x's device.
pub fn clamp(x: &Tensor, lo: f64, hi: f64) -> Result<Tensor> {
    of(&[x]).clamp(x, lo, hi)
}

/// `k` over sorted `dims`, on x's device.
pub fn reduce(k: ReduceKernel, x: &Tensor, dims: &[usize], keepdim: bool) -> Result<Tensor> {
    of(&[x]).reduce(k, x, dims, keepdim)
}

/// The index of the max / min along `dim`, kept as size 1.
pub fn argreduce(k: ArgReduceKernel, x: &Tensor, dim: usize) -> Result<Tensor> {
    of(&[x]).argreduce(k, x, dim)
}

/// Running sums / products along `dim`.
pub fn scan(
    k: ScanKernel,
    x: &Tensor,
    dim: usize,
    reverse: bool,
    exclusive: bool,
) -> Result<Tensor> {
    of(&[x]).scan(k, x, dim, reverse, exclusive)
}

/// `out[i] = x.flat[plan[i]]`, shaped `shape`, on x's device.
pub fn take(x: &Tensor, plan: &[usize], shape: &[usize]) -> Result<Tensor> {
    of(&[x]).take(x, plan, shape)
}

/// `out.flat[plan[i]] = vals[i]` (`add`: `+=`) into contiguous `out`, in place.
pub fn put(out: &Tensor, plan: &[usize], vals: &Tensor, add: bool) -> Result<()> {
    of(&[out, vals]).put(out, plan, vals, add)
}

/// `a @ b` of 2-D operands of one dtype.
pub fn mm(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    of(&[a, b]).mm(a, b)
}

/// Batched `a @ b` of 3-D operands of one dtype.
pub fn bmm(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    of(&[a, b]).bmm(a, b)
}

/// The tensor constructors and readers that need a device's kernels (the rest of `Tensor` is in
/// src/tensor.rs, which knows no backend).
impl Tensor {
    /// Zeros on `device`.
    pub fn zeros_on(
        shape: &[usize],
        dtype: DType,
        device: crate::device::Device,
    ) -> Result<Tensor> {
        if device == crate::device::Device::Cpu {
            return Tensor::zeros(shape, dtype);
        }
        let t = crate::backend::empty(shape, dtype, device)?;
        crate::backend::fill(&t, Complex64::new(0.0, 0.0))?;
        Ok(t)
    }

    /// `value` everywhere, on `device`.
    pub fn full_on(
        shape: &[usize],
        value: Complex64,
        dtype: DType,
        device: crate::device::Device,
    ) -> Result<Tensor> {
        if device == crate::device::Device::Cpu {
            return Tensor::full(shape, value, dtype);
        }
        let t = crate::backend::empty(shape, dtype, device)?;
        crate::backend::fill(&t, value)?;
        Ok(t)
    }

    pub fn full(shape: &[usize], value: Complex64, dtype: DType) -> Result<Tensor> {
        let t = Tensor::zeros(shape, dtype)?;
        cpu::fill(&t, value)?;
        Ok(t)
    }

    /// Elements in logical order as `T` (converting from the stored dtype), copied to the host;
    /// the copy's failure (device memory, an allocation) is the error.
    pub fn try_to_vec<T: Element>(&self) -> Result<Vec<T>> {
        if self.device().is_meta() {
            return Err(crate::error::meta_has_no_data());
        }
        if self.is_cuda() {
            return crate::backend::to_device(self, crate::device::Device::Cpu)?.try_to_vec();
        }
        let c = crate::backend::cast(self, T::DTYPE)?;
        let d = c.data();
        // SAFETY: `cast` returns a contiguous tensor of T::DTYPE.
        unsafe { d.contiguous_slice::<T>() }
            .map(|s| s.to_vec())
            .ok_or_else(|| Error::Runtime("internal error: a cast is not contiguous".into()))
    }

    /// [`Tensor::try_to_vec`] for tensors whose copy cannot fail in practice (small host
    /// tensors in examples and tests): an empty vector if it does. The library itself uses
    /// `try_to_vec`.
    pub fn to_vec<T: Element>(&self) -> Vec<T> {
        self.try_to_vec().unwrap_or_default()
    }

    /// The single element as a complex number (real dtypes have im = 0).
    pub fn item(&self) -> Result<Complex64> {
        let n = self.numel();
        if n != 1 {
            return Err(Error::Runtime(format!(
                "a Tensor with {} elements cannot be converted to Scalar",
                n
            )));
        }
        if self.is_cuda() {
            return crate::backend::to_device(self, crate::device::Device::Cpu)?.item();
        }
        if self.device().is_meta() {
            return Err(Error::Runtime(
                "Tensor.item() cannot be called on meta tensors".into(),
            ));
        }
        let d = self.data();
        Ok(crate::with_dtype!(d.dtype, T, {
            // SAFETY: T matches dtype; offset is in bounds for a 1-element tensor.
            unsafe { d.storage.slice::<T>()[d.offset].to_c64() }
        }))
    }
}
