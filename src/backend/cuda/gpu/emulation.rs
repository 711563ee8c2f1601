//! The CUDA host emulation: a test device, chosen with `LEAFGRAD_CUDA_EMULATION=1`, that runs
//! the whole CUDA backend without a GPU.
//!
//! Everything above the driver is the real backend: ops dispatch on the device, the launch
//! sites build the same strided layouts and arguments, and the kernels are the same CUDA C
//! source. Below it, "device memory" is host memory, host/device copies are `memcpy`, the
//! kernels are compiled for the host by a C++ compiler (`$CXX`, else `c++`/`g++`/`clang++`)
//! with `src/cuda/host_emulation.h` standing in for the CUDA built-ins, and each launch runs
//! its blocks one after another with one thread each. cuBLAS is replaced by a plain
//! column-major GEMM with cuBLAS's arguments. It is slow and exists so that the GPU test suite
//! checks the backend on machines without a GPU; the device reports itself by [`NAME`].
use super::*;
use std::ffi::c_void;

/// The device name `torch.cuda.get_device_name()` reports under the emulation.
pub(super) const NAME: &str = "leafgrad CUDA host emulation (LEAFGRAD_CUDA_EMULATION=1)";

pub(super) fn requested() -> bool {
    std::env::var_os("LEAFGRAD_CUDA_EMULATION").is_some_and(|v| v == "1")
}

/// Host memory standing in for a device buffer (zero-filled, 256-byte aligned as CUDA's).
struct HostBuffer {
    ptr: *mut u8,
    layout: std::alloc::Layout,
}
// SAFETY: the buffer is plain bytes owned by this value; access goes through the storage.
unsafe impl Send for HostBuffer {}
// SAFETY: as above.
unsafe impl Sync for HostBuffer {}

impl Drop for HostBuffer {
    fn drop(&mut self) {
        // SAFETY: allocated in `alloc` with this layout.
        unsafe { std::alloc::dealloc(self.ptr, self.layout) };
        ALLOCATED.fetch_sub(self.layout.size(), std::sync::atomic::Ordering::Relaxed);
    }
}

/// `nbytes` (> 0) of emulated device memory: its address and its owner.
pub(super) fn alloc(nbytes: usize) -> Result<(u64, Box<dyn std::any::Any + Send + Sync>)> {
    let oom = || {
        Error::OutOfMemory(format!(
            "CUDA out of memory. Tried to allocate {nbytes} bytes on cuda:0 (host emulation)"
        ))
    };
    let layout = std::alloc::Layout::from_size_align(nbytes, 256).map_err(|_| oom())?;
    // SAFETY: the layout has a non-zero size.
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
    if ptr.is_null() {
        return Err(oom());
    }
    Ok((ptr as u64, Box::new(HostBuffer { ptr, layout })))
}

/// `memcpy` between emulated device memory and the host.
///
/// # Safety
/// Both addresses must hold `n` bytes, and the ranges must not overlap.
pub(super) unsafe fn copy(dst: u64, src: u64, n: usize) {
    std::ptr::copy_nonoverlapping(src as *const u8, dst as *mut u8, n);
}

type Kernel = unsafe extern "C" fn(*const *const c_void);
type SetGrid = unsafe extern "C" fn(u32, u32, u32, u32);

struct Lib {
    _lib: libloading::Library,
    grid: SetGrid,
    kernels: HashMap<String, Kernel>,
}

/// The emulated device (its kernels live in the process-wide library).
pub(super) struct Emu;

static LIB: OnceLock<std::result::Result<Lib, String>> = OnceLock::new();

/// Compiles and loads the kernels, or says why not (the driver probe's answer).
pub(super) fn prepare() -> std::result::Result<(), String> {
    LIB.get_or_init(build)
        .as_ref()
        .map(|_| ())
        .map_err(|e| e.clone())
}

/// Launches share the library's static state (block indices, shared memory): one at a time.
static LAUNCH: Mutex<()> = Mutex::new(());

impl Emu {
    pub(super) fn launch(&self, key: &str, cfg: LaunchConfig, args: &[Arg]) -> Result<()> {
        let lib = LIB
            .get_or_init(build)
            .as_ref()
            .map_err(|e| Error::Runtime(e.clone()))?;
        let f = *lib.kernels.get(key).ok_or_else(|| {
            Error::Runtime(format!("internal error: the emulation has no kernel {key}"))
        })?;
        let ptrs: Vec<*const c_void> = args.iter().map(Arg::value_ptr).collect();
        let (gx, gy) = (cfg.grid_dim.0.max(1), cfg.grid_dim.1.max(1));
        let _one_at_a_time = LAUNCH.lock().unwrap_or_else(|e| e.into_inner());
        for by in 0..gy {
            for bx in 0..gx {
                // SAFETY: `ptrs` points at one value per kernel parameter, of the parameter's
                // type (checked against the table by the caller); pointer arguments address
                // emulated device memory.
                unsafe {
                    (lib.grid)(bx, by, gx, gy);
                    f(ptrs.as_ptr());
                }
            }
        }
        Ok(())
    }
}

/// Compiles the kernels for the host (once per source, cached beside the CUBINs) and loads them.
fn build() -> std::result::Result<Lib, String> {
    use std::hash::{Hash, Hasher};
    let mut src = String::from(include_str!("../host_emulation.h"));
    src.push_str(source());
    let table = kernel_table();
    for (name, _) in &table {
        src.push_str(&format!(
            "extern \"C\" void emu_{name}(void** p) {{ emu_call(&{name}, p); }}\n"
        ));
    }
    let mut h = std::collections::hash_map::DefaultHasher::new();
    src.hash(&mut h);
    let dir = cache_dir().unwrap_or_else(std::env::temp_dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let so = dir.join(format!("kernels-{:016x}-host.so", h.finish()));
    if !so.exists() {
        let tag = format!("{:016x}-{}", h.finish(), std::process::id());
        let cpp = dir.join(format!("kernels-{tag}.cpp"));
        let tmp = dir.join(format!("kernels-{tag}.so.tmp"));
        std::fs::write(&cpp, &src).map_err(|e| format!("{}: {e}", cpp.display()))?;
        let compilers: Vec<String> = std::env::var("CXX")
            .ok()
            .into_iter()
            .chain(["c++", "g++", "clang++"].map(String::from))
            .collect();
        let mut why = String::from("no C++ compiler found ($CXX, c++, g++, clang++)");
        let mut built = false;
        for cxx in &compilers {
            let out = std::process::Command::new(cxx)
                .args(["-std=c++17", "-O1", "-shared", "-fPIC", "-w", "-x", "c++"])
                .arg(&cpp)
                .arg("-o")
                .arg(&tmp)
                .output();
            match out {
                Ok(o) if o.status.success() => {
                    built = true;
                    break;
                }
                Ok(o) => {
                    why = format!(
                        "{cxx} failed: {}",
                        String::from_utf8_lossy(&o.stderr)
                            .chars()
                            .take(2000)
                            .collect::<String>()
                    );
                    break;
                }
                Err(_) => continue,
            }
        }
        let _ = std::fs::remove_file(&cpp);
        if !built {
            return Err(format!(
                "the CUDA host emulation could not compile the kernels: {why}"
            ));
        }
        std::fs::rename(&tmp, &so).map_err(|e| format!("{}: {e}", so.display()))?;
    }
    // SAFETY: the library was compiled from our own source just now (or earlier, keyed by the
    // source's hash); loading it runs no initialisers of note.
    unsafe {
        let lib = libloading::Library::new(&so).map_err(|e| format!("{}: {e}", so.display()))?;
        let grid: SetGrid = *lib
            .get::<SetGrid>(b"emu_grid\0")
            .map_err(|e| format!("emu_grid: {e}"))?;
        let mut kernels = HashMap::new();
        for (name, _) in table {
            let sym = format!("emu_{name}\0");
            let f: Kernel = *lib
                .get::<Kernel>(sym.as_bytes())
                .map_err(|e| format!("emu_{name}: {e}"))?;
            kernels.insert(name, f);
        }
        Ok(Lib {
            _lib: lib,
            grid,
            kernels,
        })
    }
}

/// A strided batched GEMM with cuBLAS's column-major arguments (alpha 1, beta 0): for each
/// batch, `C = op(A) op(B)` with op(A) m×k, op(B) k×n and C m×n. Operands are (address,
/// leading dimension, batch stride), in elements.
pub(super) struct Gemm {
    pub(super) ta: bool,
    pub(super) tb: bool,
    pub(super) m: usize,
    pub(super) n: usize,
    pub(super) k: usize,
    pub(super) a: (u64, usize, usize),
    pub(super) b: (u64, usize, usize),
    pub(super) c: (u64, usize, usize),
    pub(super) batch: usize,
}

impl Gemm {
    /// # Safety
    /// The operands must address emulated device memory holding what the dimensions,
    /// leading dimensions and strides say, in dtype `dt`.
    pub(super) unsafe fn run(&self, dt: DType) -> Result<()> {
        match dt {
            DType::Float32 => self.go::<f32>(),
            DType::Float64 => self.go::<f64>(),
            DType::Complex64 => self.go::<num_complex::Complex32>(),
            DType::Complex128 => self.go::<num_complex::Complex64>(),
            _ => {
                return Err(Error::Runtime(format!(
                    "internal error: an emulated GEMM of {}",
                    dt.name()
                )))
            }
        }
        Ok(())
    }

    unsafe fn go<T>(&self)
    where
        T: Copy + Default + std::ops::Add<Output = T> + std::ops::Mul<Output = T>,
    {
        let (lda, ldb, ldc) = (self.a.1, self.b.1, self.c.1);
        for bi in 0..self.batch {
            let a = (self.a.0 as *const T).add(bi * self.a.2);
            let b = (self.b.0 as *const T).add(bi * self.b.2);
            let c = (self.c.0 as *mut T).add(bi * self.c.2);
            for j in 0..self.n {
                for i in 0..self.m {
                    let mut acc = T::default();
                    for l in 0..self.k {
                        let x = *a.add(if self.ta { l + i * lda } else { i + l * lda });
                        let y = *b.add(if self.tb { j + l * ldb } else { l + j * ldb });
                        acc = acc + x * y;
                    }
                    *c.add(i + j * ldc) = acc;
                }
            }
        }
    }
}
