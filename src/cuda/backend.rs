//! The CUDA backend proper (feature `cuda`): driver probe, per-device context, stream, kernel
//! module and cuBLAS handle, and the launches.
use super::{kernel_table, type_name, SOURCE};
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{no_cuda_kernel, Error, Result};
use crate::shape::{broadcast_strides, contiguous_strides};
use crate::storage::Storage;
use crate::tensor::Tensor;
use cudarc::driver::{
    result as dresult, CudaContext, CudaFunction, CudaModule, CudaSlice, CudaStream, DeviceRepr,
    LaunchConfig, PushKernelArg,
};
use num_complex::Complex64;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// What the hand-made driver probe found.
pub struct Driver {
    pub count: usize,
}

type CuInit = unsafe extern "C" fn(u32) -> i32;
type CuDeviceGetCount = unsafe extern "C" fn(*mut i32) -> i32;

fn probe() -> std::result::Result<Driver, String> {
    // SAFETY: loading the driver library runs its initialisers, which is what it is for; the
    // two symbols have these C signatures in every CUDA version.
    unsafe {
        let lib = ["libcuda.so.1", "libcuda.so", "nvcuda.dll"]
            .iter()
            .find_map(|n| libloading::Library::new(*n).ok())
            .ok_or_else(|| {
                "the NVIDIA driver library (libcuda.so.1) was not found: no NVIDIA driver is installed"
                    .to_string()
            })?;
        let init: libloading::Symbol<CuInit> = lib
            .get(b"cuInit\0")
            .map_err(|e| format!("libcuda has no cuInit: {e}"))?;
        let r = init(0);
        if r != 0 {
            return Err(match r {
                100 => "cuInit failed: no CUDA-capable device is detected (CUDA error 100)".into(),
                35 => "cuInit failed: the NVIDIA driver is older than the CUDA runtime (CUDA error 35)".into(),
                r => format!("cuInit failed with CUDA error {r}"),
            });
        }
        let count: libloading::Symbol<CuDeviceGetCount> = lib
            .get(b"cuDeviceGetCount\0")
            .map_err(|e| format!("libcuda has no cuDeviceGetCount: {e}"))?;
        let mut n = 0i32;
        let r = count(&mut n);
        if r != 0 {
            return Err(format!("cuDeviceGetCount failed with CUDA error {r}"));
        }
        if n <= 0 {
            return Err("no CUDA-capable device is detected".into());
        }
        // Keep the library loaded for the life of the process (cudarc loads it again by name).
        std::mem::forget(lib);
        Ok(Driver { count: n as usize })
    }
}

pub fn driver() -> std::result::Result<&'static Driver, String> {
    static D: OnceLock<std::result::Result<Driver, String>> = OnceLock::new();
    D.get_or_init(probe).as_ref().map_err(|e| e.clone())
}

/// Whether one of cudarc's candidate names for `lib` loads (cudarc panics when none does).
fn library_loads(lib: &str) -> bool {
    static SEEN: OnceLock<Mutex<HashMap<String, bool>>> = OnceLock::new();
    let seen = SEEN.get_or_init(Default::default);
    let mut s = seen.lock().unwrap_or_else(|e| e.into_inner());
    *s.entry(lib.to_string()).or_insert_with(|| {
        cudarc::get_lib_name_candidates(lib).iter().any(|n| {
            // SAFETY: loading a CUDA library runs only its own initialisers.
            unsafe { libloading::Library::new(n) }
                .map(std::mem::forget)
                .is_ok()
        })
    })
}

fn need_library(lib: &str, package: &str) -> Result<()> {
    if library_loads(lib) {
        Ok(())
    } else {
        Err(Error::Runtime(format!(
            "CUDA library lib{lib}.so could not be loaded: install it (pip install {package}) or add its folder to LD_LIBRARY_PATH"
        )))
    }
}

fn derr(e: impl std::fmt::Debug) -> Error {
    Error::Runtime(format!("CUDA error: {e:?}"))
}

struct Dev {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    module: OnceLock<std::result::Result<Arc<CudaModule>, String>>,
    funcs: Mutex<HashMap<&'static str, CudaFunction>>,
    blas: OnceLock<std::result::Result<cudarc::cublas::CudaBlas, String>>,
}

fn dev(i: usize) -> Result<&'static Dev> {
    super::check(Device::Cuda(i))?;
    static DEVS: OnceLock<Vec<OnceLock<std::result::Result<Dev, String>>>> = OnceLock::new();
    let devs = DEVS.get_or_init(|| {
        (0..driver().map(|d| d.count).unwrap_or(0))
            .map(|_| OnceLock::new())
            .collect()
    });
    let slot = devs
        .get(i)
        .ok_or_else(|| Error::Runtime(format!("CUDA error: invalid device ordinal {i}")))?;
    slot.get_or_init(|| {
        let ctx = CudaContext::new(i).map_err(|e| format!("{e:?}"))?;
        // One stream per device: every op is ordered on it, so no per-buffer events.
        // SAFETY: nothing has been allocated on this context yet.
        unsafe { ctx.disable_event_tracking() };
        let stream = ctx.default_stream();
        Ok(Dev {
            ctx,
            stream,
            module: OnceLock::new(),
            funcs: Mutex::new(HashMap::new()),
            blas: OnceLock::new(),
        })
    })
    .as_ref()
    .map_err(|e| Error::Runtime(format!("CUDA error: {e}")))
}

pub fn synchronize(i: usize) -> Result<()> {
    dev(i)?.stream.synchronize().map_err(derr)
}

pub fn properties(i: usize) -> Result<(String, (i32, i32), usize)> {
    let d = dev(i)?;
    Ok((
        d.ctx.name().map_err(derr)?,
        d.ctx.compute_capability().map_err(derr)?,
        d.ctx.total_mem().map_err(derr)?,
    ))
}

fn leak_arch(arch: &str) -> &'static str {
    static ARCHS: OnceLock<Mutex<Vec<&'static str>>> = OnceLock::new();
    let mut a = ARCHS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(s) = a.iter().find(|s| **s == arch) {
        return s;
    }
    let s: &'static str = Box::leak(arch.to_string().into_boxed_str());
    a.push(s);
    s
}

pub fn compile_ptx(arch: &str) -> Result<String> {
    need_library("nvrtc", "nvidia-cuda-nvrtc-cu12")?;
    let opts = cudarc::nvrtc::CompileOptions {
        arch: Some(leak_arch(arch)),
        name: Some("kernels.cu".into()),
        ..Default::default()
    };
    cudarc::nvrtc::compile_ptx_with_opts(SOURCE, opts)
        .map(|p| p.to_src())
        .map_err(|e| {
            Error::Runtime(format!(
                "NVRTC could not compile leafgrad's kernels for {arch}: {e:?}"
            ))
        })
}

/// The kernels as machine code (CUBIN) for `arch` (e.g. "sm_90"), straight from NVRTC, so the
/// driver has nothing left to compile.
pub fn compile_cubin(arch: &str) -> Result<Vec<u8>> {
    use cudarc::nvrtc::{result, sys};
    need_library("nvrtc", "nvidia-cuda-nvrtc-cu12")?;
    let fail = |what: String| {
        Error::Runtime(format!(
            "NVRTC could not compile leafgrad's kernels for {arch}: {what}"
        ))
    };
    let src = std::ffi::CString::new(SOURCE).map_err(|e| fail(e.to_string()))?;
    let name = std::ffi::CString::new("kernels.cu").map_err(|e| fail(e.to_string()))?;
    let prog = result::create_program(&src, Some(&name)).map_err(|e| fail(format!("{e:?}")))?;
    let opts = [format!("--gpu-architecture={arch}")];
    // SAFETY: `prog` is a live program until destroy_program below; buffers are sized by NVRTC.
    unsafe {
        let out = result::compile_program(prog, &opts)
            .map_err(|e| {
                let log = result::get_program_log(prog)
                    .map(|l| l.iter().map(|&c| c as u8 as char).collect::<String>())
                    .unwrap_or_default();
                fail(format!("{e:?} {}", log.trim_end_matches('\0')))
            })
            .and_then(|()| {
                let mut size = 0usize;
                sys::nvrtcGetCUBINSize(prog, &mut size)
                    .result()
                    .map_err(|e| fail(format!("{e:?}")))?;
                let mut buf = vec![0u8; size];
                sys::nvrtcGetCUBIN(prog, buf.as_mut_ptr() as *mut std::ffi::c_char)
                    .result()
                    .map_err(|e| fail(format!("{e:?}")))?;
                Ok(buf)
            });
        let _ = result::destroy_program(prog);
        out
    }
}

/// Where compiled kernels are kept between processes: $LEAFGRAD_CACHE_DIR, else
/// $XDG_CACHE_HOME/leafgrad, else ~/.cache/leafgrad.
fn cache_path(arch: &str) -> Option<std::path::PathBuf> {
    use std::hash::{Hash, Hasher};
    let dir = std::env::var_os("LEAFGRAD_CACHE_DIR")
        .map(std::path::PathBuf::from)
        .or_else(|| {
            std::env::var_os("XDG_CACHE_HOME").map(|d| std::path::Path::new(&d).join("leafgrad"))
        })
        .or_else(|| {
            std::env::var_os("HOME")
                .map(|d| std::path::Path::new(&d).join(".cache").join("leafgrad"))
        })?;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    SOURCE.hash(&mut h);
    env!("CARGO_PKG_VERSION").hash(&mut h);
    Some(dir.join(format!("kernels-{:016x}-{arch}.cubin", h.finish())))
}

/// The kernels for this device: from the disk cache, else compiled to CUBIN (and cached), else
/// (an NVRTC that does not know the architecture) PTX for the driver to compile.
fn load_kernels(d: &'static Dev) -> std::result::Result<Arc<CudaModule>, String> {
    let (major, minor) = d.ctx.compute_capability().map_err(|e| format!("{e:?}"))?;
    let sm = format!("sm_{major}{minor}");
    let path = cache_path(&sm);
    if let Some(bytes) = path.as_ref().and_then(|p| std::fs::read(p).ok()) {
        if let Ok(m) = d.ctx.load_module(cudarc::nvrtc::Ptx::from_binary(bytes)) {
            return Ok(m);
        }
    }
    let image = match compile_cubin(&sm) {
        Ok(cubin) => {
            if let Some(p) = &path {
                // Best effort: a cache that cannot be written only costs the next compile.
                let tmp = p.with_extension(format!("tmp{}", std::process::id()));
                if p.parent().map(std::fs::create_dir_all).is_some()
                    && std::fs::write(&tmp, &cubin).is_ok()
                {
                    let _ = std::fs::rename(&tmp, p);
                }
            }
            cudarc::nvrtc::Ptx::from_binary(cubin)
        }
        Err(_) => cudarc::nvrtc::Ptx::from_src(
            compile_ptx(&format!("compute_{major}{minor}")).map_err(|e| e.to_string())?,
        ),
    };
    d.ctx
        .load_module(image)
        .map_err(|e| format!("CUDA could not load leafgrad's kernels: {e:?}"))
}

fn module(d: &'static Dev) -> Result<&'static Arc<CudaModule>> {
    d.module
        .get_or_init(|| load_kernels(d))
        .as_ref()
        .map_err(|e| Error::Runtime(e.clone()))
}

fn function(d: &'static Dev, name: &str, nargs: usize) -> Result<CudaFunction> {
    static TABLE: OnceLock<HashMap<String, usize>> = OnceLock::new();
    let table = TABLE.get_or_init(|| kernel_table().into_iter().collect());
    let (key, want) = table
        .get_key_value(name)
        .ok_or_else(|| no_cuda_kernel(&format!("`{name}`")))?;
    if *want != nargs {
        return Err(Error::Runtime(format!(
            "internal error: kernel {name} takes {want} parameters, launched with {nargs}"
        )));
    }
    let mut funcs = d.funcs.lock().unwrap_or_else(|e| e.into_inner());
    // The table's keys live as long as the process: use them as the cache's keys.
    let key: &'static str = leak_arch(key);
    if let Some(f) = funcs.get(key) {
        return Ok(f.clone());
    }
    let f = module(d)?.load_function(key).map_err(derr)?;
    funcs.insert(key, f.clone());
    Ok(f)
}

const MAXD: usize = 8;

/// Mirrors `struct Strided` in kernels.cu.
#[repr(C)]
#[derive(Clone, Copy, Default)]
struct Strided {
    n: i64,
    ndim: i32,
    pad: i32,
    shape: [i64; MAXD],
    st: [[i64; MAXD]; 4],
    off: [i64; 4],
}
// SAFETY: plain old data with the C layout of the kernels' struct.
unsafe impl DeviceRepr for Strided {}

/// The layout of up to 4 operands over `shape`: each operand's strides (already broadcast to
/// `shape`) and offset. Size-1 dims are dropped; more than 8 remaining dims are refused.
fn strided(shape: &[usize], ops: &[(&[isize], usize)]) -> Result<Strided> {
    let mut s = Strided {
        n: shape.iter().product::<usize>() as i64,
        ..Default::default()
    };
    // Dims of size 1 are dropped; a dim merges into the previous one when every operand steps
    // over it contiguously (so contiguous operands become one dim and need no index division).
    let mut dims: Vec<(i64, [i64; 4])> = Vec::with_capacity(shape.len());
    for (d, &size) in shape.iter().enumerate() {
        if size == 1 {
            continue;
        }
        let mut st = [0i64; 4];
        for (j, (s, _)) in ops.iter().enumerate() {
            st[j] = s[d] as i64;
        }
        if let Some((psize, pst)) = dims.last_mut() {
            if (0..ops.len()).all(|j| pst[j] == st[j] * size as i64) {
                *psize *= size as i64;
                *pst = st;
                continue;
            }
        }
        dims.push((size as i64, st));
    }
    if dims.len() > MAXD {
        return Err(no_cuda_kernel(
            "tensors of more than 8 dims (after merging contiguous dims)",
        ));
    }
    for (nd, (size, st)) in dims.iter().enumerate() {
        s.shape[nd] = *size;
        for (j, row) in s.st.iter_mut().enumerate() {
            row[nd] = st[j];
        }
    }
    s.ndim = dims.len() as i32;
    for (j, (_, off)) in ops.iter().enumerate() {
        s.off[j] = *off as i64;
    }
    Ok(s)
}

fn grid(n: i64) -> LaunchConfig {
    let blocks = ((n.max(1) as u64).div_ceil(256)).min(1 << 16) as u32;
    LaunchConfig {
        grid_dim: (blocks, 1, 1),
        block_dim: (256, 1, 1),
        shared_mem_bytes: 0,
    }
}

/// A kernel argument (kept alive until the launch). Arguments live in short arrays on the
/// stack for one launch, so the layout variant's size costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
enum Arg {
    L(Strided),
    P(u64),
    F32(f32),
    F64(f64),
    I64(i64),
    I32(i32),
    U16(u16),
    U8(u8),
    B(bool),
}

/// How many times each kernel was launched in this process (tests check coverage with it).
static LAUNCHES: OnceLock<Mutex<HashMap<String, u64>>> = OnceLock::new();

pub fn launch_counts() -> Result<Vec<(String, u64)>> {
    let m = LAUNCHES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    Ok(m.iter().map(|(k, v)| (k.clone(), *v)).collect())
}

fn launch(d: &'static Dev, name: &str, cfg: LaunchConfig, args: &[Arg]) -> Result<()> {
    let f = function(d, name, args.len())?;
    *LAUNCHES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(name.to_string())
        .or_insert(0) += 1;
    let mut b = d.stream.launch_builder(&f);
    for a in args {
        match a {
            Arg::L(v) => b.arg(v),
            Arg::P(v) => b.arg(v),
            Arg::F32(v) => b.arg(v),
            Arg::F64(v) => b.arg(v),
            Arg::I64(v) => b.arg(v),
            Arg::I32(v) => b.arg(v),
            Arg::U16(v) => b.arg(v),
            Arg::U8(v) => b.arg(v),
            Arg::B(v) => b.arg(v),
        };
    }
    // SAFETY: the argument list matches the kernel's parameters (count checked against the
    // table, types by construction at each call site); pointers address live device memory.
    unsafe { b.launch(cfg) }.map_err(derr)?;
    Ok(())
}

/// A scalar of dtype `dt` as a kernel argument.
fn scalar_arg(dt: DType, v: Complex64) -> Arg {
    match dt {
        DType::Float32 => Arg::F32(v.re as f32),
        DType::Float64 => Arg::F64(v.re),
        DType::Int64 => Arg::I64(v.re as i64),
        DType::Int32 => Arg::I32(v.re as i32),
        DType::UInt8 => Arg::U8(v.re as i64 as u8),
        DType::Float16 => Arg::U16(half::f16::from_f64(v.re).to_bits()),
        DType::BFloat16 => Arg::U16(half::bf16::from_f64(v.re).to_bits()),
        _ => Arg::B(v.re != 0.0 || v.im != 0.0),
    }
}

fn device_of(t: &Tensor) -> Result<usize> {
    match t.data().storage.device {
        Device::Cuda(i) => Ok(i),
        Device::Cpu => Err(Error::Runtime(
            "internal error: a CPU tensor reached a CUDA kernel".into(),
        )),
    }
}

/// Device address of element `offset` of `t`... kernels take the storage base and offsets.
fn base(t: &Tensor) -> u64 {
    t.data().storage.device_ptr()
}

/// Bytes of device memory held by live tensors (all devices).
static ALLOCATED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

pub fn memory_allocated() -> Result<usize> {
    Ok(ALLOCATED.load(std::sync::atomic::Ordering::Relaxed))
}

/// A device buffer that keeps the allocation count honest when it is freed.
struct Buffer(#[allow(dead_code)] CudaSlice<u8>, usize);

impl Drop for Buffer {
    fn drop(&mut self) {
        ALLOCATED.fetch_sub(self.1, std::sync::atomic::Ordering::Relaxed);
    }
}

pub fn empty(shape: &[usize], dtype: DType, device: Device) -> Result<Tensor> {
    let Device::Cuda(i) = device else {
        return Tensor::zeros(shape, dtype);
    };
    type_name(dtype)?;
    let d = dev(i)?;
    let nbytes = crate::kernels::checked_numel(shape)?
        .checked_mul(dtype.size())
        .ok_or_else(|| Error::Runtime("Storage size calculation overflowed".into()))?;
    let storage = if nbytes == 0 {
        // SAFETY: a zero-byte buffer is never dereferenced.
        unsafe { Storage::device_memory(0, 0, device, Box::new(())) }
    } else {
        // SAFETY: every caller writes the whole buffer before reading it.
        let buf: CudaSlice<u8> = unsafe { d.stream.alloc::<u8>(nbytes) }.map_err(|e| {
            Error::Runtime(format!(
                "CUDA out of memory. Tried to allocate {nbytes} bytes on {device} ({e:?})"
            ))
        })?;
        let ptr = {
            use cudarc::driver::DevicePtr;
            buf.device_ptr(&d.stream).0
        };
        ALLOCATED.fetch_add(nbytes, std::sync::atomic::Ordering::Relaxed);
        // SAFETY: `buf` owns `nbytes` at `ptr` on this device and is kept by the storage.
        unsafe { Storage::device_memory(ptr, nbytes, device, Box::new(Buffer(buf, nbytes))) }
    };
    Ok(Tensor::from_storage(storage, shape, dtype))
}

pub fn to_device(x: &Tensor, device: Device) -> Result<Tensor> {
    let src_dev = x.data().storage.device;
    match (src_dev, device) {
        (Device::Cpu, Device::Cpu) => crate::kernels::contiguous(x),
        (_, Device::Cuda(_)) if src_dev == device => {
            let out = empty(&x.shape(), x.dtype(), device)?;
            copy_into(&out, x)?;
            Ok(out)
        }
        (Device::Cpu, Device::Cuda(i)) => {
            let c = crate::kernels::contiguous(x)?;
            let out = empty(&c.shape(), c.dtype(), device)?;
            let nbytes = c.numel() * c.dtype().size();
            if nbytes > 0 {
                let d = dev(i)?;
                let cd = c.data();
                // SAFETY: `c` is contiguous host memory of nbytes from its offset.
                let host = unsafe {
                    std::slice::from_raw_parts(
                        cd.storage.as_ptr().add(cd.offset * c.dtype().size()),
                        nbytes,
                    )
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
            let c = if x.is_contiguous() {
                x.clone()
            } else {
                to_device(x, src_dev)?
            };
            let out = Tensor::zeros(&c.shape(), c.dtype())?;
            let nbytes = c.numel() * c.dtype().size();
            if nbytes > 0 {
                let d = dev(i)?;
                let (od, cd) = (out.data(), c.data());
                // SAFETY: `out` is a fresh contiguous host buffer of nbytes.
                let host = unsafe { std::slice::from_raw_parts_mut(od.storage.as_ptr(), nbytes) };
                d.ctx.bind_to_thread().map_err(derr)?;
                let src = cd.storage.device_ptr() + (cd.offset * c.dtype().size()) as u64;
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

pub fn copy_into(dst: &Tensor, src: &Tensor) -> Result<()> {
    let (ddev, sdev) = (dst.data().storage.device, src.data().storage.device);
    if ddev != sdev {
        // Across devices: bring src to dst's device first (a contiguous copy), then copy.
        let moved = to_device(src, ddev)?;
        return if ddev == Device::Cpu {
            crate::kernels::copy_into(dst, &moved)
        } else {
            copy_into(dst, &moved)
        };
    }
    let i = device_of(dst)?;
    let d = dev(i)?;
    let (dd, ds) = (dst.data(), src.data());
    let n = dd.numel();
    if n == 0 {
        return Ok(());
    }
    let sstr = broadcast_strides(&ds.shape, &ds.strides, &dd.shape);
    // A copy from a tensor overlapping the destination goes through a temporary.
    if std::ptr::eq(dd.storage.as_ptr(), ds.storage.as_ptr()) {
        drop((dd, ds));
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
    launch(d, &name, grid(l.n), &args)
}

pub fn fill(t: &Tensor, value: Complex64) -> Result<()> {
    let d = dev(device_of(t)?)?;
    let td = t.data();
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
    launch(d, &name, grid(l.n), &args)
}

fn is_half(dt: DType) -> bool {
    matches!(dt, DType::Float16 | DType::BFloat16)
}

/// float16 / bfloat16 compute in float32 (the result rounds once, back to the half type).
fn wide(x: &Tensor) -> Result<Tensor> {
    crate::kernels::cast(x, DType::Float32)
}

pub fn unary(op: &str, x: &Tensor) -> Result<Tensor> {
    if is_half(x.dtype()) {
        return crate::kernels::cast(&unary(op, &wide(x)?)?, x.dtype());
    }
    let i = device_of(x)?;
    let d = dev(i)?;
    let (shape, dt) = (x.shape(), x.dtype());
    let name = format!("unary_{op}_{}", type_name(dt)?);
    let out = empty(&shape, dt, Device::Cuda(i))?;
    if out.numel() == 0 {
        return Ok(out);
    }
    let xd = x.data();
    let l = strided(
        &shape,
        &[(&contiguous_strides(&shape), 0), (&xd.strides, xd.offset)],
    )?;
    let args = [
        Arg::L(l),
        Arg::P(base(&out)),
        Arg::P(xd.storage.device_ptr()),
    ];
    launch(d, &name, grid(l.n), &args)?;
    Ok(out)
}

/// A CPU 0-d operand becomes a kernel scalar; anything else must be on `dev`.
fn operand(t: &Tensor, device: Device) -> Result<Option<Complex64>> {
    let here = t.data().storage.device;
    if here == device {
        return Ok(None);
    }
    if here == Device::Cpu && t.ndim() == 0 {
        return Ok(Some(t.item()?));
    }
    Err(crate::device::mismatch(device, here))
}

pub fn binary(op: &str, a: &Tensor, b: &Tensor, dt: DType) -> Result<Tensor> {
    if is_half(dt) {
        let r = binary(op, &wide(a)?, &wide(b)?, DType::Float32)?;
        return if r.dtype() == DType::Bool {
            Ok(r)
        } else {
            crate::kernels::cast(&r, dt)
        };
    }
    let device = super::common_device(&[a, b])?;
    let Device::Cuda(i) = device else {
        return Err(Error::Runtime(
            "internal error: a CPU operation reached the CUDA backend".into(),
        ));
    };
    let d = dev(i)?;
    let (sa, sb) = (operand(a, device)?, operand(b, device)?);
    let shape = crate::shape::broadcast_shapes(&a.shape(), &b.shape())?;
    let comparison = matches!(op, "eq" | "ne" | "lt" | "le" | "gt" | "ge");
    let out_dt = if comparison { DType::Bool } else { dt };
    let name = format!("binary_{op}_{}", type_name(dt)?);
    let out = empty(&shape, out_dt, device)?;
    if out.numel() == 0 {
        return Ok(out);
    }
    let (da, db) = (a.data(), b.data());
    let zeros: Vec<isize> = vec![0; shape.len()];
    let stra = if sa.is_some() {
        zeros.clone()
    } else {
        broadcast_strides(&da.shape, &da.strides, &shape).to_vec()
    };
    let strb = if sb.is_some() {
        zeros
    } else {
        broadcast_strides(&db.shape, &db.strides, &shape).to_vec()
    };
    let l = strided(
        &shape,
        &[
            (&contiguous_strides(&shape), 0),
            (&stra, da.offset),
            (&strb, db.offset),
        ],
    )?;
    let mode = sa.is_some() as i32 | ((sb.is_some() as i32) << 1);
    let ptr = |t: &crate::tensor::TensorData, s: &Option<Complex64>| {
        if s.is_some() {
            0
        } else {
            t.storage.device_ptr()
        }
    };
    let args = [
        Arg::L(l),
        Arg::P(base(&out)),
        Arg::P(ptr(&da, &sa)),
        Arg::P(ptr(&db, &sb)),
        scalar_arg(dt, sa.unwrap_or_default()),
        scalar_arg(dt, sb.unwrap_or_default()),
        Arg::I32(mode),
    ];
    launch(d, &name, grid(l.n), &args)?;
    Ok(out)
}

pub fn where_(cond: &Tensor, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let device = super::common_device(&[cond, a, b])?;
    let Device::Cuda(i) = device else {
        return Err(Error::Runtime(
            "internal error: a CPU operation reached the CUDA backend".into(),
        ));
    };
    let d = dev(i)?;
    // CPU 0-d operands are moved over (a few bytes).
    let on = |t: &Tensor| -> Result<Tensor> {
        if t.data().storage.device == device {
            Ok(t.clone())
        } else {
            to_device(t, device)
        }
    };
    let (c, a, b) = (on(cond)?, on(a)?, on(b)?);
    let shape = crate::shape::broadcast_shapes(
        &crate::shape::broadcast_shapes(&c.shape(), &a.shape())?,
        &b.shape(),
    )?;
    let dt = a.dtype();
    let name = format!("where_{}", type_name(dt)?);
    let out = empty(&shape, dt, device)?;
    if out.numel() == 0 {
        return Ok(out);
    }
    let (dc, da, db) = (c.data(), a.data(), b.data());
    let bs = |t: &crate::tensor::TensorData| broadcast_strides(&t.shape, &t.strides, &shape);
    let (sc, sa, sb) = (bs(&dc), bs(&da), bs(&db));
    let l = strided(
        &shape,
        &[
            (&contiguous_strides(&shape), 0),
            (&sc, dc.offset),
            (&sa, da.offset),
            (&sb, db.offset),
        ],
    )?;
    let args = [
        Arg::L(l),
        Arg::P(base(&out)),
        Arg::P(dc.storage.device_ptr()),
        Arg::P(da.storage.device_ptr()),
        Arg::P(db.storage.device_ptr()),
    ];
    launch(d, &name, grid(l.n), &args)?;
    Ok(out)
}

pub fn reduce(op: &str, x: &Tensor, dims: &[usize], keepdim: bool) -> Result<Tensor> {
    if is_half(x.dtype()) {
        return crate::kernels::cast(&reduce(op, &wide(x)?, dims, keepdim)?, x.dtype());
    }
    let i = device_of(x)?;
    let d = dev(i)?;
    let xd = x.data();
    let dt = xd.dtype;
    let acc_dt = match (op, dt) {
        ("sum" | "prod", DType::Int32 | DType::UInt8 | DType::Bool) => DType::Int64,
        _ => dt,
    };
    let name = format!("reduce_{op}_{}", type_name(dt)?);
    let kept: Vec<usize> = (0..xd.shape.len()).filter(|k| !dims.contains(k)).collect();
    let kshape: Vec<usize> = kept.iter().map(|&k| xd.shape[k]).collect();
    let rshape: Vec<usize> = dims.iter().map(|&k| xd.shape[k]).collect();
    let out_shape: Vec<usize> = (0..xd.shape.len())
        .filter_map(|k| {
            if dims.contains(&k) {
                keepdim.then_some(1)
            } else {
                Some(xd.shape[k])
            }
        })
        .collect();
    let out = empty(&out_shape, acc_dt, Device::Cuda(i))?;
    if out.numel() == 0 {
        return Ok(out);
    }
    let kst: Vec<isize> = kept.iter().map(|&k| xd.strides[k]).collect();
    let rst: Vec<isize> = dims.iter().map(|&k| xd.strides[k]).collect();
    let kl = strided(
        &kshape,
        &[(&contiguous_strides(&kshape), 0), (&kst, xd.offset)],
    )?;
    let zeros = vec![0isize; rshape.len()];
    let rl = strided(&rshape, &[(&zeros, 0), (&rst, 0)])?;
    // Few outputs over many elements: split each reduction over P blocks, then reduce the P
    // partial results (a second launch over a [outputs, P] tensor).
    let (nout, nred) = (kl.n.max(1) as u64, rl.n.max(0) as u64);
    let parts = if nout < 1024 && nred > 8192 {
        (2048 / nout).clamp(1, nred.div_ceil(4096)).min(65535)
    } else {
        1
    };
    let chunk = nred.div_ceil(parts).max(1);
    let parts = nred.div_ceil(chunk).max(1);
    let target = if parts > 1 {
        empty(&[nout as usize, parts as usize], acc_dt, Device::Cuda(i))?
    } else {
        out.clone()
    };
    let kl = if parts > 1 {
        let ost: Vec<isize> = contiguous_strides(&kshape)
            .iter()
            .map(|s| s * parts as isize)
            .collect();
        strided(&kshape, &[(&ost, 0), (&kst, xd.offset)])?
    } else {
        kl
    };
    let cfg = LaunchConfig {
        grid_dim: (nout.min(1 << 16) as u32, parts as u32, 1),
        block_dim: (256, 1, 1),
        shared_mem_bytes: 0,
    };
    let args = [
        Arg::L(kl),
        Arg::L(rl),
        Arg::P(base(&target)),
        Arg::P(xd.storage.device_ptr()),
        Arg::I64(chunk as i64),
    ];
    launch(d, &name, cfg, &args)?;
    if parts > 1 {
        drop(xd);
        let combined = reduce(op, &target, &[1], false)?;
        return Ok(combined
            .view_with(&out_shape, &contiguous_strides(&out_shape), 0)
            .detached());
    }
    Ok(out)
}

/// How cuBLAS reads a row-major [r, c] matrix with strides (s0, s1) as the column-major
/// transpose it needs: (transpose?, leading dimension), or None when a copy is needed.
fn blas_layout(r: usize, c: usize, s0: isize, s1: isize) -> Option<(bool, i32)> {
    let fits = |v: usize| i32::try_from(v).ok();
    // Row-major rows: cuBLAS sees the [c, r] column-major matrix untransposed.
    if (c <= 1 || s1 == 1) && (r <= 1 || s0 >= c.max(1) as isize) {
        let ld = if r <= 1 { c.max(1) } else { s0 as usize };
        return fits(ld).map(|ld| (false, ld));
    }
    // Columns contiguous: the same memory is the transpose of a column-major [r, c].
    if (r <= 1 || s0 == 1) && (c <= 1 || s1 >= r.max(1) as isize) {
        let ld = if c <= 1 { r.max(1) } else { s1 as usize };
        return fits(ld).map(|ld| (true, ld));
    }
    None
}

pub fn bmm(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    if is_half(a.dtype()) && a.dtype() == b.dtype() {
        // Products of half types accumulate in float32, as PyTorch's.
        return crate::kernels::cast(&bmm(&wide(a)?, &wide(b)?)?, a.dtype());
    }
    let device = super::common_device(&[a, b])?;
    let Device::Cuda(i) = device else {
        return Err(Error::Runtime(
            "internal error: a CPU operation reached the CUDA backend".into(),
        ));
    };
    if a.data().storage.device != device || b.data().storage.device != device {
        return Err(crate::device::mismatch(
            a.data().storage.device,
            b.data().storage.device,
        ));
    }
    let dt = a.dtype();
    if !matches!(dt, DType::Float32 | DType::Float64) {
        return Err(no_cuda_kernel(&format!(
            "matrix products of {} tensors",
            dt.name()
        )));
    }
    let d = dev(i)?;
    let (sa, sb) = (a.shape(), b.shape());
    let (batch, m, k, n) = (sa[0], sa[1], sa[2], sb[2]);
    let out = empty(&[batch, m, n], dt, device)?;
    if out.numel() == 0 {
        return Ok(out);
    }
    if k == 0 {
        fill(&out, Complex64::new(0.0, 0.0))?;
        return Ok(out);
    }
    let prep = |t: &Tensor, r: usize, c: usize| -> Result<(Tensor, bool, i32)> {
        let st = t.strides();
        if let Some((tr, ld)) = blas_layout(r, c, st[1], st[2]) {
            return Ok((t.clone(), tr, ld));
        }
        let c2 = to_device(t, device)?;
        let (tr, ld) = blas_layout(r, c, c as isize, 1).ok_or_else(|| {
            Error::Runtime("matrix too large for cuBLAS (a dimension exceeds 2^31)".into())
        })?;
        Ok((c2, tr, ld))
    };
    let (a2, ta, lda) = prep(a, m, k)?;
    let (b2, tb, ldb) = prep(b, k, n)?;
    let (da, db) = (a2.data(), b2.data());
    let bstride = |t: &crate::tensor::TensorData| {
        if t.shape[0] <= 1 {
            0
        } else {
            t.strides[0] as i64
        }
    };
    let (stride_a, stride_b) = (bstride(&da), bstride(&db));
    let esz = dt.size() as u64;
    let pa = da.storage.device_ptr() + da.offset as u64 * esz;
    let pb = db.storage.device_ptr() + db.offset as u64 * esz;
    let pc = base(&out);
    let int = |v: usize| {
        i32::try_from(v).map_err(|_| Error::Runtime("matrix too large for cuBLAS".into()))
    };
    let (m32, n32, k32, batch32) = (int(m)?, int(n)?, int(k)?, int(batch)?);
    need_library("cublas", "nvidia-cublas-cu12")?;
    let blas = d
        .blas
        .get_or_init(|| {
            cudarc::cublas::CudaBlas::new(d.stream.clone()).map_err(|e| format!("{e:?}"))
        })
        .as_ref()
        .map_err(|e| Error::Runtime(format!("cuBLAS could not start: {e}")))?;
    use cudarc::cublas::sys::cublasOperation_t as Op;
    let op = |t: bool| if t { Op::CUBLAS_OP_T } else { Op::CUBLAS_OP_N };
    // Row-major C = A B is column-major Cᵀ = Bᵀ Aᵀ: cuBLAS gets (B, A) and n, m swapped.
    // SAFETY: pointers, leading dimensions and batch strides describe live device memory.
    unsafe {
        match dt {
            DType::Float32 => cudarc::cublas::result::sgemm_strided_batched(
                *blas.handle(),
                op(tb),
                op(ta),
                n32,
                m32,
                k32,
                &1.0f32,
                pb as *const f32,
                ldb,
                stride_b,
                pa as *const f32,
                lda,
                stride_a,
                &0.0f32,
                pc as *mut f32,
                n32,
                (m * n) as i64,
                batch32,
            ),
            _ => cudarc::cublas::result::dgemm_strided_batched(
                *blas.handle(),
                op(tb),
                op(ta),
                n32,
                m32,
                k32,
                &1.0f64,
                pb as *const f64,
                ldb,
                stride_b,
                pa as *const f64,
                lda,
                stride_a,
                &0.0f64,
                pc as *mut f64,
                n32,
                (m * n) as i64,
                batch32,
            ),
        }
    }
    .map_err(|e| Error::Runtime(format!("cuBLAS error: {e:?}")))?;
    Ok(out)
}

/// A host index plan as an int64 tensor on `device`.
fn plan_on(plan: &[usize], device: Device) -> Result<Tensor> {
    let v: Vec<i64> = plan.iter().map(|&i| i as i64).collect();
    to_device(&Tensor::from_vec(v, &[plan.len()])?, device)
}

pub fn take(x: &Tensor, plan: &[usize], shape: &[usize]) -> Result<Tensor> {
    let i = device_of(x)?;
    let d = dev(i)?;
    let device = Device::Cuda(i);
    let src = if x.is_contiguous() {
        x.clone()
    } else {
        to_device(x, device)?
    };
    let dt = src.dtype();
    let name = format!("take_{}", type_name(dt)?);
    let out = empty(shape, dt, device)?;
    if plan.is_empty() {
        return Ok(out);
    }
    let idx = plan_on(plan, device)?;
    let sd = src.data();
    let esz = dt.size() as u64;
    let n = plan.len() as i64;
    let args = [
        Arg::I64(n),
        Arg::P(base(&out)),
        Arg::P(sd.storage.device_ptr() + sd.offset as u64 * esz),
        Arg::P(base(&idx)),
    ];
    launch(d, &name, grid(n), &args)?;
    Ok(out)
}

pub fn put(out: &Tensor, plan: &[usize], vals: &Tensor, add: bool) -> Result<()> {
    if add && is_half(out.dtype()) {
        // Accumulate half types in float32 (no 16-bit atomics), then round once.
        let acc = wide(out)?;
        put(&acc, plan, &wide(vals)?, true)?;
        return copy_into(out, &acc);
    }
    let i = device_of(out)?;
    let d = dev(i)?;
    let device = Device::Cuda(i);
    if plan.is_empty() {
        return Ok(());
    }
    let dt = out.dtype();
    let v = crate::kernels::cast(&on_device(vals, device)?, dt)?;
    let name = format!("{}_{}", if add { "put_add" } else { "put" }, type_name(dt)?);
    let idx = plan_on(plan, device)?;
    let od = out.data();
    let esz = dt.size() as u64;
    let n = plan.len() as i64;
    let args = [
        Arg::I64(n),
        Arg::P(od.storage.device_ptr() + od.offset as u64 * esz),
        Arg::P(base(&idx)),
        Arg::P(base(&v)),
    ];
    launch(d, &name, grid(n), &args)
}

/// `t` itself when it is on `device`, else a copy there.
fn on_device(t: &Tensor, device: Device) -> Result<Tensor> {
    if t.device() == device {
        Ok(t.clone())
    } else {
        to_device(t, device)
    }
}

pub fn argreduce(op: &str, x: &Tensor, dim: usize) -> Result<Tensor> {
    if is_half(x.dtype()) {
        return argreduce(op, &wide(x)?, dim);
    }
    let i = device_of(x)?;
    let d = dev(i)?;
    let xd = x.data();
    let name = format!("argreduce_{op}_{}", type_name(xd.dtype)?);
    let mut out_shape: Vec<usize> = xd.shape.to_vec();
    out_shape[dim] = 1;
    let out = empty(&out_shape, DType::Int64, Device::Cuda(i))?;
    if out.numel() == 0 {
        return Ok(out);
    }
    let kept: Vec<usize> = (0..xd.shape.len()).filter(|&k| k != dim).collect();
    let kshape: Vec<usize> = kept.iter().map(|&k| xd.shape[k]).collect();
    let kst: Vec<isize> = kept.iter().map(|&k| xd.strides[k]).collect();
    let kl = strided(
        &kshape,
        &[(&contiguous_strides(&kshape), 0), (&kst, xd.offset)],
    )?;
    let rl = strided(&[xd.shape[dim]], &[(&[0], 0), (&[xd.strides[dim]], 0)])?;
    let cfg = LaunchConfig {
        grid_dim: ((kl.n.max(1) as u64).min(1 << 16) as u32, 1, 1),
        block_dim: (256, 1, 1),
        shared_mem_bytes: 0,
    };
    let args = [
        Arg::L(kl),
        Arg::L(rl),
        Arg::P(base(&out)),
        Arg::P(xd.storage.device_ptr()),
    ];
    launch(d, &name, cfg, &args)?;
    Ok(out)
}

pub fn scan(op: &str, x: &Tensor, dim: usize, reverse: bool, exclusive: bool) -> Result<Tensor> {
    if is_half(x.dtype()) {
        let r = scan(op, &wide(x)?, dim, reverse, exclusive)?;
        return crate::kernels::cast(&r, x.dtype());
    }
    let i = device_of(x)?;
    let d = dev(i)?;
    let device = Device::Cuda(i);
    let src = if x.is_contiguous() {
        x.clone()
    } else {
        to_device(x, device)?
    };
    let shape = src.shape();
    let name = format!("scan_{op}_{}", type_name(src.dtype())?);
    let out = empty(&shape, src.dtype(), device)?;
    if out.numel() == 0 {
        return Ok(out);
    }
    let st = contiguous_strides(&shape);
    // Lines: every index with `dim` fixed at 0.
    let mut lshape: Vec<usize> = shape.to_vec();
    lshape[dim] = 1;
    let sd = src.data();
    let kl = strided(&lshape, &[(&st, 0), (&st, sd.offset)])?;
    let args = [
        Arg::L(kl),
        Arg::I64(shape[dim] as i64),
        Arg::I64(st[dim] as i64),
        Arg::P(base(&out)),
        Arg::P(sd.storage.device_ptr()),
        Arg::I32(reverse as i32 | ((exclusive as i32) << 1)),
    ];
    launch(d, &name, grid(kl.n), &args)?;
    Ok(out)
}
