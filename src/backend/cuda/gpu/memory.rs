//! Device buffers, host/device copies, fills, and moving operands to a device.

use super::*;

/// Bytes of device memory held by live tensors (all devices).
pub(super) static ALLOCATED: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(0);

pub fn memory_allocated() -> Result<usize> {
    Ok(ALLOCATED.load(std::sync::atomic::Ordering::Relaxed))
}

/// A device buffer that keeps the allocation count honest when it is freed.
pub(super) struct Buffer(#[allow(dead_code)] CudaSlice<u8>, usize);

impl Drop for Buffer {
    fn drop(&mut self) {
        ALLOCATED.fetch_sub(self.1, std::sync::atomic::Ordering::Relaxed);
    }
}

pub fn empty(shape: &[usize], dtype: DType, device: Device) -> Result<Strided> {
    let Device::Cuda(i) = device else {
        return Strided::zeros(shape, dtype);
    };
    type_name(dtype)?;
    let d = dev(i)?;
    let nbytes = crate::backend::cpu::checked_numel(shape)?
        .checked_mul(dtype.size())
        .ok_or_else(|| Error::Runtime("Storage size calculation overflowed".into()))?;
    let storage = if nbytes == 0 {
        // SAFETY: a zero-byte buffer is never dereferenced.
        unsafe { Storage::device_memory(0, 0, i, Box::new(())) }
    } else if let Dev::Emu(_) = d {
        let (ptr, keep) = emulation::alloc(nbytes)?;
        ALLOCATED.fetch_add(nbytes, std::sync::atomic::Ordering::Relaxed);
        // SAFETY: `keep` owns `nbytes` of host memory at `ptr` and is kept by the storage.
        unsafe { Storage::device_memory(ptr, nbytes, i, keep) }
    } else {
        let Dev::Gpu(d) = d else {
            unreachable!("the emulation is handled above")
        };
        // SAFETY: every caller writes the whole buffer before reading it.
        let buf: CudaSlice<u8> = unsafe { d.stream.alloc::<u8>(nbytes) }.map_err(|e| {
            Error::OutOfMemory(format!(
                "CUDA out of memory. Tried to allocate {nbytes} bytes on {device} ({e:?})"
            ))
        })?;
        let ptr = {
            use cudarc::driver::DevicePtr;
            buf.device_ptr(&d.stream).0
        };
        ALLOCATED.fetch_add(nbytes, std::sync::atomic::Ordering::Relaxed);
        // SAFETY: `buf` owns `nbytes` at `ptr` on this device and is kept by the storage.
        unsafe { Storage::device_memory(ptr, nbytes, i, Box::new(Buffer(buf, nbytes))) }
    };
    Ok(Strided::contiguous_over(storage, shape, dtype))
}

pub fn to_device(x: &Strided, device: Device) -> Result<Strided> {
    let src_dev = x.storage.device();
    match (src_dev, device) {
        (_, Device::Meta) => Strided::meta(&x.shape(), x.dtype()),
        (Device::Meta, _) => Err(crate::error::meta_has_no_data()),
        (Device::Cpu, Device::Cpu) => x.contiguous(),
        (_, Device::Cuda(_)) if src_dev == device => {
            let out = empty(&x.shape(), x.dtype(), device)?;
            copy_into(&out, x)?;
            Ok(out)
        }
        (Device::Cpu, Device::Cuda(i)) => {
            let c = x.contiguous()?;
            let out = empty(&c.shape(), c.dtype(), device)?;
            let nbytes = c.numel() * c.dtype().size();
            if nbytes > 0 {
                let cd = &c;
                // SAFETY: `c` is contiguous host memory of nbytes from its offset.
                let host = unsafe {
                    std::slice::from_raw_parts(
                        cd.storage.as_ptr().add(cd.offset * c.dtype().size()),
                        nbytes,
                    )
                };
                let d = match dev(i)? {
                    Dev::Gpu(g) => g,
                    Dev::Emu(_) => {
                        // SAFETY: the emulated destination holds nbytes of host memory.
                        unsafe { emulation::copy(base(&out), host.as_ptr() as u64, nbytes) };
                        return Ok(out);
                    }
                };
                d.ctx.bind_to_thread().map_err(derr)?;
                // SAFETY: the destination holds nbytes; pageable host memory is consumed
                // before the call returns.
                unsafe { dresult::memcpy_htod_async(base(&out), host, d.stream.cu_stream()) }
                    .map_err(derr)?;
            }
            Ok(out)
        }
        (Device::Cuda(i), Device::Cpu) => {
            let c = contiguous(x)?;
            let out = Strided::zeros(&c.shape(), c.dtype())?;
            let nbytes = c.numel() * c.dtype().size();
            if nbytes > 0 {
                let (od, cd) = (&out, &c);
                // SAFETY: `out` is a fresh contiguous host buffer of nbytes.
                let host = unsafe { std::slice::from_raw_parts_mut(od.storage.as_ptr(), nbytes) };
                let src = cd.storage.device_ptr() + (cd.offset * c.dtype().size()) as u64;
                let d = match dev(i)? {
                    Dev::Gpu(g) => g,
                    Dev::Emu(_) => {
                        // SAFETY: the emulated source holds nbytes of host memory from there.
                        unsafe { emulation::copy(host.as_mut_ptr() as u64, src, nbytes) };
                        return Ok(out);
                    }
                };
                d.ctx.bind_to_thread().map_err(derr)?;
                // SAFETY: the source holds nbytes from its offset; we wait for the copy.
                unsafe { dresult::memcpy_dtoh_async(host, src, d.stream.cu_stream()) }
                    .map_err(derr)?;
                d.stream.synchronize().map_err(derr)?;
            }
            Ok(out)
        }
        (Device::Cuda(_), Device::Cuda(_)) => {
            // Across devices through the host (no peer access set up).
            to_device(&to_device(x, Device::Cpu)?, device)
        }
    }
}

pub fn copy_into(dst: &Strided, src: &Strided) -> Result<()> {
    let (ddev, sdev) = (dst.storage.device(), src.storage.device());
    if ddev != sdev {
        // Across devices: bring src to dst's device first (a contiguous copy), then copy.
        let moved = to_device(src, ddev)?;
        return if ddev == Device::Cpu {
            crate::backend::cpu::copy_into(dst, &moved)
        } else {
            copy_into(dst, &moved)
        };
    }
    let i = device_of(dst)?;
    let d = dev(i)?;
    let (dd, ds) = (dst, src);
    let n = dd.numel();
    if n == 0 {
        return Ok(());
    }
    let sstr = broadcast_strides(&ds.shape, &ds.strides, &dd.shape);
    // A copy from a tensor overlapping the destination goes through a temporary.
    if std::ptr::eq(dd.storage.as_ptr(), ds.storage.as_ptr()) {
        let tmp = to_device(src, sdev)?;
        return copy_into(dst, &tmp);
    }
    let l = strided(&dd.shape, &[(&dd.strides, dd.offset), (&sstr, ds.offset)])?;
    let name = format!("copy_{}_{}", type_name(ds.dtype)?, type_name(dd.dtype)?);
    let args = [
        Arg::L(l),
        Arg::P(dd.storage.device_ptr()),
        Arg::P(ds.storage.device_ptr()),
    ];
    launch(d, &name, grid_dense(&l, 2, 0), &args)
}

pub fn fill(t: &Strided, value: Complex64) -> Result<()> {
    let d = dev(device_of(t)?)?;
    let td = t;
    if td.numel() == 0 {
        return Ok(());
    }
    let l = strided(&td.shape, &[(&td.strides, td.offset)])?;
    let name = format!("fill_{}", type_name(td.dtype)?);
    let args = [
        Arg::L(l),
        Arg::P(td.storage.device_ptr()),
        scalar_arg(td.dtype, value),
    ];
    launch(d, &name, grid_dense(&l, 1, 0), &args)
}

/// A host index plan as an int64 tensor on `device`.
pub(super) fn plan_on(plan: &[usize], device: Device) -> Result<Strided> {
    let v: Vec<i64> = plan.iter().map(|&i| i as i64).collect();
    to_device(&Strided::from_vec(v, &[plan.len()])?, device)
}

/// `x` itself when contiguous, else a contiguous copy on its device (kernels that index a
/// flat buffer need one).
pub(super) fn contiguous(x: &Strided) -> Result<Strided> {
    if x.is_contiguous() {
        Ok(x.clone())
    } else {
        to_device(x, x.device())
    }
}

/// `t` itself when it is on `device`, else a copy there.
pub(super) fn on_device(t: &Strided, device: Device) -> Result<Strided> {
    if t.device() == device {
        Ok(t.clone())
    } else {
        to_device(t, device)
    }
}
