//! The driver probe (before cudarc is touched), per-device state, NVRTC compilation and the
//! on-disk kernel cache.

use super::*;

/// What the hand-made driver probe found.
pub struct Driver {
    pub count: usize,
    /// The host emulation (`LEAFGRAD_CUDA_EMULATION=1`) stands in for the driver.
    pub(super) emulated: bool,
}

pub(super) type CuInit = unsafe extern "C" fn(u32) -> i32;
pub(super) type CuDeviceGetCount = unsafe extern "C" fn(*mut i32) -> i32;

pub(super) fn probe() -> std::result::Result<Driver, String> {
    if emulation::requested() {
        emulation::prepare()?;
        return Ok(Driver {
            count: 1,
            emulated: true,
        });
    }
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
        Ok(Driver {
            count: n as usize,
            emulated: false,
        })
    }
}

pub fn driver() -> std::result::Result<&'static Driver, String> {
    static D: OnceLock<std::result::Result<Driver, String>> = OnceLock::new();
    D.get_or_init(probe).as_ref().map_err(|e| e.clone())
}

/// Whether one of cudarc's candidate names for `lib` loads (cudarc panics when none does).
pub(super) fn library_loads(lib: &str) -> bool {
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

pub(super) fn need_library(lib: &str, package: &str) -> Result<()> {
    if library_loads(lib) {
        Ok(())
    } else {
        Err(Error::Runtime(format!(
            "CUDA library lib{lib}.so could not be loaded: install it (pip install {package}) or add its folder to LD_LIBRARY_PATH"
        )))
    }
}

pub(super) fn derr(e: impl std::fmt::Debug) -> Error {
    Error::Runtime(format!("CUDA error: {e:?}"))
}

/// A device: a GPU through cudarc, or the host emulation of one (a test device).
pub(super) enum Dev {
    Gpu(Gpu),
    Emu(emulation::Emu),
}

pub(super) struct Gpu {
    pub(super) ctx: Arc<CudaContext>,
    pub(super) stream: Arc<CudaStream>,
    pub(super) module: OnceLock<std::result::Result<Arc<CudaModule>, String>>,
    pub(super) funcs: Mutex<HashMap<&'static str, CudaFunction>>,
    pub(super) blas: OnceLock<std::result::Result<cudarc::cublas::CudaBlas, String>>,
}

pub(super) fn dev(i: usize) -> Result<&'static Dev> {
    super::super::check(Device::Cuda(i))?;
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
        if driver().is_ok_and(|d| d.emulated) {
            return Ok(Dev::Emu(emulation::Emu));
        }
        let ctx = CudaContext::new(i).map_err(|e| format!("{e:?}"))?;
        // One stream per device: every op is ordered on it, so no per-buffer events.
        // SAFETY: nothing has been allocated on this context yet.
        unsafe { ctx.disable_event_tracking() };
        let stream = ctx.default_stream();
        Ok(Dev::Gpu(Gpu {
            ctx,
            stream,
            module: OnceLock::new(),
            funcs: Mutex::new(HashMap::new()),
            blas: OnceLock::new(),
        }))
    })
    .as_ref()
    .map_err(|e| Error::Runtime(format!("CUDA error: {e}")))
}

pub fn synchronize(i: usize) -> Result<()> {
    match dev(i)? {
        Dev::Gpu(g) => g.stream.synchronize().map_err(derr),
        // emulated launches run to completion before they return
        Dev::Emu(_) => Ok(()),
    }
}

pub fn properties(i: usize) -> Result<(String, (i32, i32), usize)> {
    let d = match dev(i)? {
        Dev::Gpu(g) => g,
        Dev::Emu(_) => return Ok((emulation::NAME.into(), (0, 0), 0)),
    };
    Ok((
        d.ctx.name().map_err(derr)?,
        d.ctx.compute_capability().map_err(derr)?,
        d.ctx.total_mem().map_err(derr)?,
    ))
}

/// The (multiprocessor count, max threads per multiprocessor) that PyTorch's random kernels
/// size their grids by; under the emulation an H100 SXM's (132, 2048).
pub fn rng_launch(i: usize) -> Result<(u32, u32)> {
    use cudarc::driver::sys::CUdevice_attribute as A;
    let d = match dev(i)? {
        Dev::Gpu(g) => g,
        Dev::Emu(_) => return Ok((132, 2048)),
    };
    let sms = d
        .ctx
        .attribute(A::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
        .map_err(derr)?;
    let threads = d
        .ctx
        .attribute(A::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR)
        .map_err(derr)?;
    Ok((sms as u32, threads as u32))
}

pub(super) fn leak_arch(arch: &str) -> &'static str {
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
    cudarc::nvrtc::compile_ptx_with_opts(source(), opts)
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
    let src = std::ffi::CString::new(source()).map_err(|e| fail(e.to_string()))?;
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
pub(super) fn cache_path(arch: &str) -> Option<std::path::PathBuf> {
    use std::hash::{Hash, Hasher};
    let dir = cache_dir()?;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    source().hash(&mut h);
    env!("CARGO_PKG_VERSION").hash(&mut h);
    Some(dir.join(format!("kernels-{:016x}-{arch}.cubin", h.finish())))
}

/// $LEAFGRAD_CACHE_DIR, else $XDG_CACHE_HOME/leafgrad, else ~/.cache/leafgrad.
pub(super) fn cache_dir() -> Option<std::path::PathBuf> {
    std::env::var_os("LEAFGRAD_CACHE_DIR")
        .map(std::path::PathBuf::from)
        .or_else(|| {
            std::env::var_os("XDG_CACHE_HOME").map(|d| std::path::Path::new(&d).join("leafgrad"))
        })
        .or_else(|| {
            std::env::var_os("HOME")
                .map(|d| std::path::Path::new(&d).join(".cache").join("leafgrad"))
        })
}

/// The kernels for this device: from the disk cache, else compiled to CUBIN (and cached), else
/// (an NVRTC that does not know the architecture) PTX for the driver to compile.
pub(super) fn load_kernels(d: &'static Gpu) -> std::result::Result<Arc<CudaModule>, String> {
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

pub(super) fn module(d: &'static Gpu) -> Result<&'static Arc<CudaModule>> {
    d.module
        .get_or_init(|| load_kernels(d))
        .as_ref()
        .map_err(|e| Error::Runtime(e.clone()))
}

/// The table's entry for kernel `name` (a name that lives as long as the process), checked
/// against the number of arguments it is launched with.
pub(super) fn table_entry(name: &str, nargs: usize) -> Result<&'static str> {
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
    Ok(key.as_str())
}

pub(super) fn function(d: &'static Gpu, key: &'static str) -> Result<CudaFunction> {
    let mut funcs = d.funcs.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(f) = funcs.get(key) {
        return Ok(f.clone());
    }
    let f = module(d)?.load_function(key).map_err(derr)?;
    funcs.insert(key, f.clone());
    Ok(f)
}
