//! The devices behind one trait.
//!
//! An op (src/ops) computes through [`Backend`]: it asks [`of`] for the backend of its operands
//! (the one `match` on the device, in [`on`]) and calls a kernel by its identity
//! ([`UnaryKernel`], [`BinaryKernel`], ...). Kernels take and return [`Strided`] values (a
//! storage and a layout), never a `Tensor`; the functions here convert at the boundary, so ops
//! call `backend::unary(k, &tensor)`. Three backends implement it:
//!
//! - [`cpu`]: host loops (strided, broadcasting, threaded for large tensors), faer's
//!   GEMM;
//! - [`cuda`]: device memory and the kernels of `cuda/kernels.cu`, compiled by NVRTC (or run on
//!   the host emulation); every entry point says why when CUDA cannot be used;
//! - [`meta`]: shapes and dtypes without data, as PyTorch's meta kernels.
//!
//! Kernels know nothing of autograd. The device-neutral helpers here (`cast`, `contiguous`,
//! `copy_into`, `fill`, ...) are what ops use for memory; they dispatch like every kernel.
pub mod cpu;
pub mod cuda;
mod kernel;
pub mod meta;
mod strided;

pub use kernel::{
    ArgReduceKernel, BinaryKernel, CmpOp, FloatBinary, FloatUnary, ReduceKernel, Rounding,
    ScanKernel, UnaryKernel,
};
pub use strided::Strided;

use crate::device::Device;
use crate::dtype::{DType, Element};
use crate::error::{Error, Result};
use crate::tensor::{Tensor, TensorData};
use num_complex::Complex64;

/// What a device does for the ops. Operands of one call share the backend's device (a CPU
/// 0-d tensor travels with CUDA operands as a scalar); results are contiguous, on that device.
pub trait Backend: Sync {
    /// A new contiguous buffer (the CPU's is zeroed; CUDA's holds whatever was in memory).
    fn empty(&self, shape: &[usize], dtype: DType, device: Device) -> Result<Strided>;
    /// Every element of `t` (a view, maybe) set to `value`.
    fn fill(&self, t: &Strided, value: Complex64) -> Result<()>;
    /// `dst[...] = src`, src broadcast to dst's shape and converted to its dtype, in place. The
    /// CUDA backend also copies between the host and a device.
    fn copy_into(&self, dst: &Strided, src: &Strided) -> Result<()>;
    /// A contiguous copy of `x` on `device` (this backend's device or the host).
    fn to_device(&self, x: &Strided, device: Device) -> Result<Strided>;
    /// `cond ? a : b`, broadcast; a and b of one dtype.
    fn where_(&self, cond: &Strided, a: &Strided, b: &Strided) -> Result<Strided>;
    /// `t[mask] = value` in place (mask broadcastable to t's shape, t contiguous).
    fn fill_where(&self, t: &Strided, mask: &Strided, value: Complex64) -> Result<()> {
        let v = Strided::full(&[], value, t.dtype)?;
        let r = self.where_(&mask.broadcast_to(&t.shape)?, &v, t)?;
        self.copy_into(t, &r)
    }
    /// `out = where(cond, src, out)` in place, for contiguous `out` and `src` of out's shape.
    fn copy_where(&self, out: &Strided, cond: &Strided, src: &Strided) -> Result<()> {
        let s = src.cast(out.dtype)?;
        let r = self.where_(cond, &s, out)?;
        self.copy_into(out, &r)
    }
    /// `k(x)` elementwise, in x's dtype (|z| and arg z of complex numbers are real).
    fn unary(&self, k: UnaryKernel, x: &Strided) -> Result<Strided>;
    /// `a k b` broadcast, computed in `dt` (the operands' promoted dtype); comparisons give
    /// bools.
    fn binary(&self, k: BinaryKernel, a: &Strided, b: &Strided, dt: DType) -> Result<Strided>;
    /// `out = a k b` written straight into `out`'s memory, for operands of out's shape and
    /// dtype (the `out=` fast path). Ok(false), with nothing written, where the backend has no
    /// such path for these operands (the caller then computes and copies).
    fn binary_into(
        &self,
        _k: BinaryKernel,
        _a: &Strided,
        _b: &Strided,
        _out: &Strided,
    ) -> Result<bool> {
        Ok(false)
    }
    /// `clamp(x, lo, hi)` with float bounds (infinite where absent), in x's dtype.
    fn clamp(&self, x: &Strided, lo: f64, hi: f64) -> Result<Strided>;
    /// `k` (sum, prod, amax, amin) over sorted `dims`; integer and bool sums are int64.
    fn reduce(
        &self,
        k: ReduceKernel,
        x: &Strided,
        dims: &[usize],
        keepdim: bool,
    ) -> Result<Strided>;
    /// The index of the max / min along `dim`, kept as size 1 (int64).
    fn argreduce(&self, k: ArgReduceKernel, x: &Strided, dim: usize) -> Result<Strided>;
    /// Running sums / products along `dim`, in x's dtype (from the end if `reverse`; without
    /// the element itself if `exclusive`).
    fn scan(
        &self,
        k: ScanKernel,
        x: &Strided,
        dim: usize,
        reverse: bool,
        exclusive: bool,
    ) -> Result<Strided>;
    /// `out[i] = x.flat[plan[i]]` (x in logical order), shaped `shape`.
    fn take(&self, x: &Strided, plan: &[usize], shape: &[usize]) -> Result<Strided>;
    /// `out.flat[plan[i]] = vals[i]` (`add`: `+=`) into contiguous `out`, in place.
    fn put(&self, out: &Strided, plan: &[usize], vals: &Strided, add: bool) -> Result<()>;
    /// `a @ b` of 2-D operands of one dtype.
    fn mm(&self, a: &Strided, b: &Strided) -> Result<Strided>;
    /// Batched `a @ b` of [B, m, k] and [B, k, n] operands of one dtype.
    fn bmm(&self, a: &Strided, b: &Strided) -> Result<Strided>;
}

/// The backend of `device`: the one `match` on the device kind.
pub fn on(device: Device) -> &'static dyn Backend {
    match device {
        Device::Cpu => &cpu::Cpu,
        Device::Cuda(_) => &cuda::Cuda,
        Device::Meta => &meta::Meta,
    }
}

/// The backend a kernel on these operands runs on: meta when any is a meta tensor, else CUDA
/// when any lives on a CUDA device (the CUDA backend raises PyTorch's device-mismatch error for
/// CPU operands other than 0-d ones), else the CPU.
pub fn of(ts: &[&Strided]) -> &'static dyn Backend {
    let mut dev = Device::Cpu;
    for t in ts {
        match t.device() {
            Device::Meta => return on(Device::Meta),
            d @ Device::Cuda(_) => dev = d,
            Device::Cpu => {}
        }
    }
    on(dev)
}

/// `x` seen with `shape` (broadcast: size-1 dims get stride 0), sharing its memory; no history.
pub fn broadcast_to(x: &Tensor, shape: &[usize]) -> Result<Tensor> {
    let (strides, offset) = {
        let d = x.data();
        if d.shape.as_slice() == shape {
            return Ok(x.clone());
        }
        (
            crate::shape::expand_strides(&d.shape, &d.strides, shape)?,
            d.offset,
        )
    };
    Ok(x.restrided(shape, &strides, offset))
}

/// A new contiguous tensor on `device` (see [`Backend::empty`]).
pub fn empty(shape: &[usize], dtype: DType, device: Device) -> Result<Tensor> {
    Ok(Tensor::from_strided(
        on(device).empty(shape, dtype, device)?,
    ))
}

/// Every element of `t` set to `value`.
pub fn fill(t: &Tensor, value: Complex64) -> Result<()> {
    let s = t.strided();
    of(&[&s]).fill(&s, value)
}

/// Write `src` (broadcast to dst's shape, converted to dst's dtype) into `dst` in place.
pub fn copy_into(dst: &Tensor, src: &Tensor) -> Result<()> {
    let (d, s) = (dst.strided(), src.strided());
    of(&[&d, &s]).copy_into(&d, &s)
}

/// A contiguous copy of `x` on `device`.
pub fn to_device(x: &Tensor, device: Device) -> Result<Tensor> {
    let s = x.strided();
    let dev = s.device();
    let b = if dev.is_meta() || device.is_meta() {
        on(Device::Meta)
    } else if dev.is_cuda() {
        on(dev)
    } else {
        on(device)
    };
    Ok(Tensor::from_strided(b.to_device(&s, device)?))
}

/// A contiguous copy in `dtype` on x's device (a fresh tensor, even when nothing changes).
#[inline]
pub fn cast(x: &Tensor, dtype: DType) -> Result<Tensor> {
    Ok(Tensor::from_strided(x.strided().cast(dtype)?))
}

/// `cast` keeping `x`'s memory layout as PyTorch's elementwise results do (for dtype
/// round trips inside ops, so their results keep the input's layout).
pub fn cast_keep(x: &Tensor, dtype: DType) -> Result<Tensor> {
    Ok(Tensor::from_strided(x.strided().cast_keep(dtype)?))
}

/// [`cast_keep`] keeping an empty tensor's strides exactly (see `Strided::cast_exact`).
pub fn cast_exact(x: &Tensor, dtype: DType) -> Result<Tensor> {
    Ok(Tensor::from_strided(x.strided().cast_exact(dtype)?))
}

/// A contiguous copy of `x`.
pub fn contiguous(x: &Tensor) -> Result<Tensor> {
    cast(x, x.dtype())
}

/// The first `.grad` of `var`: a copy of `g` laid out as PyTorch lays out gradients (see
/// `cpu::layout::grad_copy`).
pub fn grad_copy(g: &Tensor, var: &Tensor) -> Result<Tensor> {
    Ok(Tensor::from_strided(cpu::layout::grad_copy(
        &g.strided(),
        &var.strided(),
    )?))
}

/// `t[mask] = value` in place (mask broadcastable to t's shape, t contiguous).
pub fn fill_where(t: &Tensor, mask: &Tensor, value: Complex64) -> Result<()> {
    let (t, m) = (t.strided(), mask.strided());
    of(&[&t, &m]).fill_where(&t, &m, value)
}

/// `out = where(cond, src, out)` for contiguous `out` and `src` of out's shape.
pub fn copy_where(out: &Tensor, cond: &Tensor, src: &Tensor) -> Result<()> {
    let (o, c, s) = (out.strided(), cond.strided(), src.strided());
    of(&[&o, &c, &s]).copy_where(&o, &c, &s)
}

/// `cond ? a : b` broadcast (a and b of one dtype), on the operands' device.
pub fn where_(cond: &Tensor, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let (c, a, b) = (cond.strided(), a.strided(), b.strided());
    Ok(Tensor::from_strided(of(&[&c, &a, &b]).where_(&c, &a, &b)?))
}

/// `k(x)` elementwise on x's device.
#[inline]
pub fn unary(k: UnaryKernel, x: &Tensor) -> Result<Tensor> {
    let x = x.strided();
    Ok(Tensor::from_strided(of(&[&x]).unary(k, &x)?))
}

/// `a k b` broadcast, computed in `dt`, on the operands' device.
#[inline]
pub fn binary(k: BinaryKernel, a: &Tensor, b: &Tensor, dt: DType) -> Result<Tensor> {
    let (a, b) = (a.strided(), b.strided());
    Ok(Tensor::from_strided(of(&[&a, &b]).binary(k, &a, &b, dt)?))
}

/// `out = a k b` into out's memory where the backend can (see [`Backend::binary_into`]).
pub fn binary_into(k: BinaryKernel, a: &Tensor, b: &Tensor, out: &Tensor) -> Result<bool> {
    let (a, b, o) = (a.strided(), b.strided(), out.strided());
    of(&[&a, &b, &o]).binary_into(k, &a, &b, &o)
}

/// `clamp(x, lo, hi)` with float bounds, on x's device.
pub fn clamp(x: &Tensor, lo: f64, hi: f64) -> Result<Tensor> {
    let x = x.strided();
    Ok(Tensor::from_strided(of(&[&x]).clamp(&x, lo, hi)?))
}

/// `k` over sorted `dims`, on x's device.
#[inline]
pub fn reduce(k: ReduceKernel, x: &Tensor, dims: &[usize], keepdim: bool) -> Result<Tensor> {
    let x = x.strided();
    Ok(Tensor::from_strided(
        of(&[&x]).reduce(k, &x, dims, keepdim)?,
    ))
}

/// The index of the max / min along `dim`, kept as size 1.
pub fn argreduce(k: ArgReduceKernel, x: &Tensor, dim: usize) -> Result<Tensor> {
    let x = x.strided();
    Ok(Tensor::from_strided(of(&[&x]).argreduce(k, &x, dim)?))
}

/// Running sums / products along `dim`.
pub fn scan(
    k: ScanKernel,
    x: &Tensor,
    dim: usize,
    reverse: bool,
    exclusive: bool,
) -> Result<Tensor> {
    let x = x.strided();
    Ok(Tensor::from_strided(
        of(&[&x]).scan(k, &x, dim, reverse, exclusive)?,
    ))
}

/// `out[i] = x.flat[plan[i]]`, shaped `shape`, on x's device.
pub fn take(x: &Tensor, plan: &[usize], shape: &[usize]) -> Result<Tensor> {
    let x = x.strided();
    Ok(Tensor::from_strided(of(&[&x]).take(&x, plan, shape)?))
}

/// `out.flat[plan[i]] = vals[i]` (`add`: `+=`) into contiguous `out`, in place.
pub fn put(out: &Tensor, plan: &[usize], vals: &Tensor, add: bool) -> Result<()> {
    let (o, v) = (out.strided(), vals.strided());
    of(&[&o, &v]).put(&o, plan, &v, add)
}

/// `a @ b` of 2-D operands of one dtype.
pub fn mm(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let (a, b) = (a.strided(), b.strided());
    Ok(Tensor::from_strided(of(&[&a, &b]).mm(&a, &b)?))
}

/// Batched `a @ b` of 3-D operands of one dtype.
pub fn bmm(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let (a, b) = (a.strided(), b.strided());
    Ok(Tensor::from_strided(of(&[&a, &b]).bmm(&a, &b)?))
}

/// The tensor constructors and readers that need a device's kernels (the rest of `Tensor` is in
/// src/tensor.rs, which knows no backend).
impl Tensor {
    /// What the kernels see of this tensor: its storage, layout and dtype.
    #[inline]
    pub fn strided(&self) -> Strided {
        let d = self.data();
        Strided {
            storage: d.storage.clone(),
            shape: crate::shape::Shape::from_slice(&d.shape),
            strides: crate::shape::Strides::from_slice(&d.strides),
            offset: d.offset,
            dtype: d.dtype,
        }
    }

    /// A kernel's result as a tensor with no history.
    #[inline]
    pub fn from_strided(s: Strided) -> Tensor {
        Tensor::from_data(TensorData {
            storage: s.storage,
            shape: s.shape,
            strides: s.strides,
            offset: s.offset,
            dtype: s.dtype,
            version: None,
            base: None,
            wrapped_number: false,
        })
    }

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
        Ok(Tensor::from_strided(Strided::full(shape, value, dtype)?))
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
