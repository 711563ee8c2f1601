//! The CUDA backend: device memory, host/device copies, and the kernels of `src/cuda/kernels.cu`
//! compiled by NVRTC at first use (to machine code for the device, cached on disk).
//!
//! Everything here works in any build: without the `cuda` feature, or on a machine without a
//! driver or device, [`available`] says why and every other entry point returns that reason as
//! an error. With the feature, the driver is probed by hand (`libcuda.so.1`, `cuInit`, the
//! device count) before cudarc is touched, because cudarc panics when its libraries are missing.
use super::{
    ArgReduceKernel, Backend, BinaryKernel, FloatBinary, FloatUnary, ReduceKernel, Rounding,
    ScanKernel, UnaryKernel,
};
use crate::backend::Strided;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{no_cuda_kernel, Error, Result};
use num_complex::Complex64;

#[cfg(feature = "cuda")]
mod gpu;

/// Kernel dtype suffixes of the dtypes the compute kernels take, as in kernels.cu.
pub const TYPES: [(DType, &str); 6] = [
    (DType::Float32, "f32"),
    (DType::Float64, "f64"),
    (DType::Int64, "i64"),
    (DType::Int32, "i32"),
    (DType::UInt8, "u8"),
    (DType::Bool, "b8"),
];

/// float16 and bfloat16: stored, moved and converted on the device, computed in float32.
pub const HALF_TYPES: [(DType, &str); 2] = [(DType::Float16, "f16"), (DType::BFloat16, "bf16")];

/// complex64 and complex128: stored as (re, im) pairs, computed by their own kernels.
pub const COMPLEX_TYPES: [(DType, &str); 2] =
    [(DType::Complex64, "c64"), (DType::Complex128, "c128")];

/// Every dtype a CUDA tensor can hold.
pub fn storage_types() -> impl Iterator<Item = (DType, &'static str)> {
    TYPES.into_iter().chain(HALF_TYPES).chain(COMPLEX_TYPES)
}

/// The hand-written unary kernels of float32/float64 beside the declared ones.
const FLOAT_UNARY: [UnaryKernel; 4] = [
    UnaryKernel::Abs,
    UnaryKernel::Neg,
    UnaryKernel::Relu,
    UnaryKernel::Sign,
];

/// The hand-written complex unary kernels beside the declared ones (fill, copy, where, take
/// and put exist for every storage type).
const COMPLEX_UNARY: [UnaryKernel; 5] = [
    UnaryKernel::Neg,
    UnaryKernel::Conj,
    UnaryKernel::Sgn,
    UnaryKernel::Abs,
    UnaryKernel::Angle,
];

/// The CUDA source of every kernel: kernels.cu, after the macros that expand the declared
/// float functions (`DECLARED_FLOAT_UNARY`, `DECLARED_COMPLEX_UNARY`, used in kernels.cu).
pub fn source() -> &'static str {
    static SOURCE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    SOURCE.get_or_init(|| {
        let mut real = String::from("#define DECLARED_FLOAT_UNARY(T, tn)");
        let mut complex = String::from("#define DECLARED_COMPLEX_UNARY(T, tn, R)");
        for op in FloatUnary::ALL {
            let n = op.name();
            real.push_str(&format!(" \\\n    UNARY({n}, T, tn, {})", op.cuda_real()));
            if let Some(expr) = op.cuda_complex() {
                complex.push_str(&format!(" \\\n    UNARY({n}, T, tn, {expr})"));
            }
        }
        for op in Rounding::ALL {
            let n = op.name();
            real.push_str(&format!(" \\\n    UNARY({n}, T, tn, {})", op.cuda_real()));
        }
        let mut binary = String::from("#define DECLARED_FLOAT_BINARY(T, tn)");
        for op in FloatBinary::ALL {
            let n = op.name();
            binary.push_str(&format!(" \\\n    BINARY({n}, T, tn, T, {})", op.cuda_real()));
        }
        format!(
            "// Generated from the op declarations (src/declared.rs).\n{real}\n{complex}\n{binary}\n\n{}",
            include_str!("kernels.cu")
        )
    })
}

const COMPARE: [&str; 6] = ["eq", "ne", "lt", "le", "gt", "ge"];

/// Every kernel in kernels.cu with its parameter count: the launch sites check against this
/// table, and a test checks the table against the compiled PTX.
pub fn kernel_table() -> Vec<(String, usize)> {
    let mut k = Vec::new();
    for (_, t) in storage_types() {
        k.push((format!("fill_{t}"), 3));
        for (_, d) in storage_types() {
            k.push((format!("copy_{t}_{d}"), 3));
        }
        k.push((format!("where_{t}"), 5));
        k.push((format!("take_{t}"), 4));
        k.push((format!("put_{t}"), 4));
    }
    for t in ["f32", "f64"] {
        for op in FloatUnary::ALL
            .iter()
            .map(|&f| UnaryKernel::Float(f))
            .chain(Rounding::ALL.iter().map(|&r| UnaryKernel::Rounding(r)))
            .chain(FLOAT_UNARY)
        {
            k.push((format!("unary_{}_{t}", op.name()), 3));
        }
        for op in ["add", "sub", "mul", "div", "pow", "maximum", "minimum"] {
            k.push((format!("binary_{op}_{t}"), 7));
        }
        for op in FloatBinary::ALL {
            k.push((format!("binary_{}_{t}", op.name()), 7));
        }
    }
    for t in ["i64", "i32"] {
        for op in ["neg", "abs", "relu", "sign"] {
            k.push((format!("unary_{op}_{t}"), 3));
        }
    }
    for op in ["abs", "relu", "sign"] {
        k.push((format!("unary_{op}_u8"), 3));
    }
    k.push(("unary_not_b8".into(), 3));
    k.push(("unary_bnot_i64".into(), 3));
    for (op, types) in [
        ("floordiv", &["f32", "f64", "i64"][..]),
        ("remainder", &["f32", "f64", "i64"][..]),
        ("fmod", &["f32", "f64", "i64"][..]),
        ("ipow", &["i64"][..]),
        ("band", &["i64"][..]),
        ("bor", &["i64"][..]),
        ("bxor", &["i64"][..]),
    ] {
        for t in types {
            k.push((format!("binary_{op}_{t}"), 7));
        }
    }
    for t in ["i64", "i32", "u8"] {
        for op in ["add", "sub", "mul", "maximum", "minimum"] {
            k.push((format!("binary_{op}_{t}"), 7));
        }
    }
    for op in ["or", "and", "xor"] {
        k.push((format!("binary_{op}_b8"), 7));
    }
    for (_, t) in TYPES {
        for op in COMPARE {
            k.push((format!("binary_{op}_{t}"), 7));
        }
    }
    for t in ["f32", "f64", "i64", "i32", "u8"] {
        for op in ["sum", "amax", "amin"] {
            k.push((format!("reduce_{op}_{t}"), 5));
        }
    }
    for t in ["f32", "f64", "i64"] {
        k.push((format!("reduce_prod_{t}"), 5));
    }
    for op in ["sum", "amax", "amin"] {
        k.push((format!("reduce_{op}_b8"), 5));
    }
    for (_, t) in TYPES {
        k.push((format!("argreduce_max_{t}"), 4));
        k.push((format!("argreduce_min_{t}"), 4));
    }
    for t in ["f32", "f64"] {
        k.push((format!("put_add_{t}"), 4));
        k.push((format!("scan_prod_{t}"), 6));
    }
    for t in ["f32", "f64", "i64"] {
        k.push((format!("scan_sum_{t}"), 6));
    }
    for t in ["f32", "f64"] {
        k.push((format!("unary_angle_{t}"), 3));
    }
    k.push(("im2col_index".into(), 12));
    k.push(("normal_f32".into(), 7));
    k.push(("normal_f64".into(), 7));
    for t in ["f32", "f64"] {
        k.push((format!("max_pool_index_{t}"), 15));
    }
    for (_, t) in COMPLEX_TYPES {
        for op in FloatUnary::ALL
            .iter()
            .filter(|f| f.cuda_complex().is_some())
            .map(|&f| UnaryKernel::Float(f))
            .chain(COMPLEX_UNARY)
        {
            k.push((format!("unary_{}_{t}", op.name()), 3));
        }
        for op in ["add", "sub", "mul", "div", "pow", "eq", "ne"] {
            k.push((format!("binary_{op}_{t}"), 7));
        }
        for op in ["sum", "prod"] {
            k.push((format!("reduce_{op}_{t}"), 5));
            k.push((format!("scan_{op}_{t}"), 6));
        }
        k.push((format!("put_add_{t}"), 4));
    }
    k
}

/// The kernel suffix of a dtype the CUDA backend stores, or the error naming it.
pub fn type_name(dt: DType) -> Result<&'static str> {
    storage_types()
        .find(|(d, _)| *d == dt)
        .map(|(_, n)| n)
        .ok_or_else(|| no_cuda_kernel(&format!("{} tensors", dt.name())))
}

/// Whether CUDA can be used, and if not, why.
pub fn available() -> std::result::Result<usize, String> {
    #[cfg(feature = "cuda")]
    {
        gpu::driver().map(|d| d.count)
    }
    #[cfg(not(feature = "cuda"))]
    {
        Err("leafgrad was built without the `cuda` feature".into())
    }
}

pub fn device_count() -> usize {
    available().unwrap_or(0)
}

/// PyTorch's error for CUDA without a driver (its CUDA hooks'), else leafgrad's reason.
pub fn unavailable_message(why: &str) -> String {
    if why.contains("no NVIDIA driver") {
        NO_DRIVER.to_string()
    } else {
        format!("CUDA is not available: {why}")
    }
}

/// PyTorch's text when no NVIDIA driver is installed.
pub const NO_DRIVER: &str = "Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx";

/// Check that `device` can be used, with the reason as a RuntimeError when it cannot.
pub fn check(device: Device) -> Result<()> {
    let Device::Cuda(i) = device else {
        return Ok(());
    };
    match available() {
        Err(why) => Err(Error::Runtime(unavailable_message(&why))),
        Ok(n) if i >= n => Err(Error::Runtime(format!(
            "CUDA error: invalid device ordinal (cuda:{i} was asked for; {n} device(s) found)"
        ))),
        Ok(_) => Ok(()),
    }
}

/// The device's name and compute capability.
pub fn device_properties(i: usize) -> Result<(String, (i32, i32), usize)> {
    check(Device::Cuda(i))?;
    #[cfg(feature = "cuda")]
    {
        gpu::properties(i)
    }
    #[cfg(not(feature = "cuda"))]
    {
        unreachable!("check() refuses CUDA devices without the feature")
    }
}

/// The launch geometry of PyTorch's random kernels on device `i` (see
/// `ops::random_cuda`).
pub fn rng_launch(i: usize) -> Result<crate::random::philox::Launch> {
    check(Device::Cuda(i))?;
    #[cfg(feature = "cuda")]
    {
        let (multiprocessors, threads_per_multiprocessor) = gpu::rng_launch(i)?;
        Ok(crate::random::philox::Launch {
            multiprocessors,
            threads_per_multiprocessor,
        })
    }
    #[cfg(not(feature = "cuda"))]
    {
        unreachable!("check() refuses CUDA devices without the feature")
    }
}

/// The device of an op's operands: CPU 0-d tensors travel as scalars and do not count.
pub fn common_device(ts: &[&Strided]) -> Result<Device> {
    let mut dev: Option<Device> = None;
    for t in ts {
        let d = t;
        let here = d.storage.device();
        if here == Device::Cpu && d.shape.is_empty() {
            continue;
        }
        match dev {
            None => dev = Some(here),
            Some(prev) if prev != here => return Err(crate::device::mismatch(prev, here)),
            _ => {}
        }
    }
    Ok(dev.unwrap_or(Device::Cpu))
}

/// The error of an op that runs on the host only, when an operand is on a CUDA device.
pub fn host_only(ts: &[&Strided], what: &str) -> Result<()> {
    if any_cuda(ts) {
        return Err(no_cuda_kernel(what));
    }
    Ok(())
}

/// Whether any operand lives on a CUDA device (so the op takes the CUDA path).
pub fn any_cuda(ts: &[&Strided]) -> bool {
    ts.iter().any(|t| t.storage.is_cuda())
}

macro_rules! dispatch {
    ($($name:ident($($arg:ident: $ty:ty),*) -> $ret:ty;)*) => {$(
        pub fn $name($($arg: $ty),*) -> Result<$ret> {
            #[cfg(feature = "cuda")]
            {
                gpu::$name($($arg),*)
            }
            #[cfg(not(feature = "cuda"))]
            {
                $(let _ = $arg;)*
                Err(Error::Runtime("leafgrad was built without the `cuda` feature".into()))
            }
        }
    )*};
}

dispatch! {
    // A new uninitialised contiguous tensor on `device`.
    empty(shape: &[usize], dtype: DType, device: Device) -> Strided;
    // A contiguous copy of `x` on `device` (host to device, device to host, or on one device).
    to_device(x: &Strided, device: Device) -> Strided;
    // `dst[...] = src` (src broadcast to dst's shape and converted to its dtype), in place.
    copy_into(dst: &Strided, src: &Strided) -> ();
    // Every element of `t` (a view, maybe) set to `value`.
    fill(t: &Strided, value: Complex64) -> ();
    // `op(x)` elementwise, same dtype (|z| and arg z of complex numbers are real).
    unary(op: UnaryKernel, x: &Strided) -> Strided;
    // `a op b` broadcast; both of dtype `dt`; CPU 0-d operands are passed as scalars.
    binary(op: BinaryKernel, a: &Strided, b: &Strided, dt: DType) -> Strided;
    // `cond ? a : b` broadcast, a and b of one dtype.
    where_(cond: &Strided, a: &Strided, b: &Strided) -> Strided;
    // sum / prod / amax / amin over sorted `dims`.
    reduce(op: ReduceKernel, x: &Strided, dims: &[usize], keepdim: bool) -> Strided;
    // `out[i] = x.flat[plan[i]]` (x in logical order), shaped `shape`, on x's device.
    take(x: &Strided, plan: &[usize], shape: &[usize]) -> Strided;
    // `out.flat[plan[i]] = vals[i]` (add: `+=`, atomically) into contiguous `out`, in place.
    put(out: &Strided, plan: &[usize], vals: &Strided, add: bool) -> ();
    // `out[i] = x.flat[idx[i]]` with the indices an int64 tensor on x's device.
    take_idx(x: &Strided, idx: &Strided, shape: &[usize]) -> Strided;
    // `out.flat[idx[i]] = vals[i]` (add: `+=`, atomically), the indices an int64 tensor on out's device.
    put_idx(out: &Strided, idx: &Strided, vals: &Strided, add: bool) -> ();
    // The im2col index plan of a convolution, built and kept (per geometry) on `device`.
    im2col_index(g: &Im2col, device: Device) -> Strided;
    // For each max-pooling window of float32/float64 `x` ([N, C, H, W]), the flat index of its
    // maximum (None for other dtypes).
    max_pool_index(x: &Strided, g: &PoolWindows) -> Option<Strided>;
    // Normal draws into contiguous float32/float64 `out` by PyTorch's kernel layout over
    // `threads` logical threads, from Philox (seed, offset): the device's own math.
    normal_fill(out: &Strided, threads: u64, seed: u64, offset: u64, mean: f64, std: f64) -> ();
    // Index of the max / min (op "max" / "min") along `dim`, kept as size 1 (int64).
    argreduce(op: ArgReduceKernel, x: &Strided, dim: usize) -> Strided;
    // Running sums / products of contiguous `x` along `dim` (from the end if `reverse`; without
    // the element itself if `exclusive`).
    scan(op: ScanKernel, x: &Strided, dim: usize, reverse: bool, exclusive: bool) -> Strided;
    // Batched matrix product of [B, m, k] and [B, k, n] (B may be broadcast with stride 0).
    bmm(a: &Strided, b: &Strided) -> Strided;
    // (kernel name, launches so far) for every kernel launched in this process.
    launch_counts() -> Vec<(String, u64)>;
    // Bytes of device memory held by live tensors.
    memory_allocated() -> usize;
    // Wait for everything queued on device `i`.
    synchronize(i: usize) -> ();
    // The PTX of kernels.cu for `arch` (e.g. "compute_80"), compiled by NVRTC; needs no device.
    compile_ptx(arch: &str) -> String;
}

/// The geometry of an im2col plan: cols `[n, c·kh·kw, ho·wo]` over a padded `[n, c, hp, wp]`
/// input, with the convolution's stride and dilation.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Im2col {
    pub n: usize,
    pub c: usize,
    pub hp: usize,
    pub wp: usize,
    pub kh: usize,
    pub kw: usize,
    pub ho: usize,
    pub wo: usize,
    pub stride: (usize, usize),
    pub dilation: (usize, usize),
}

/// Max-pooling windows over `[.., h, w]`: output `ho × wo`, kernel, stride, padding, dilation.
#[derive(Clone, Copy, Debug)]
pub struct PoolWindows {
    pub h: usize,
    pub w: usize,
    pub ho: usize,
    pub wo: usize,
    pub kernel: (usize, usize),
    pub stride: (usize, usize),
    pub padding: (usize, usize),
    pub dilation: (usize, usize),
}

/// `a @ b` for 2-D operands, through the batched product.
pub fn mm(a: &Strided, b: &Strided) -> Result<Strided> {
    let batch = |t: &Strided| {
        let (s, st, off) = {
            let d = t;
            (d.shape.clone(), d.strides.clone(), d.offset)
        };
        t.restrided(&[1, s[0], s[1]], &[0, st[0], st[1]], off)
    };
    let (a3, b3) = (batch(a), batch(b));
    let r = bmm(&a3, &b3)?;
    let s = r.shape();
    Ok(r.restrided(&s[1..], &[s[2] as isize, 1], 0))
}

/// The CUDA backend.
pub struct Cuda;

impl Backend for Cuda {
    fn empty(&self, shape: &[usize], dtype: DType, device: Device) -> Result<Strided> {
        empty(shape, dtype, device)
    }
    fn fill(&self, t: &Strided, value: Complex64) -> Result<()> {
        fill(t, value)
    }
    fn copy_into(&self, dst: &Strided, src: &Strided) -> Result<()> {
        copy_into(dst, src)
    }
    fn to_device(&self, x: &Strided, device: Device) -> Result<Strided> {
        check(device)?;
        to_device(x, device)
    }
    fn where_(&self, cond: &Strided, a: &Strided, b: &Strided) -> Result<Strided> {
        where_(cond, a, b)
    }
    fn unary(&self, k: UnaryKernel, x: &Strided) -> Result<Strided> {
        unary(k, x)
    }
    fn binary(&self, k: BinaryKernel, a: &Strided, b: &Strided, dt: DType) -> Result<Strided> {
        binary(k, a, b, dt)
    }
    fn clamp(&self, x: &Strided, lo: f64, hi: f64) -> Result<Strided> {
        let dt = x.dtype();
        // an absent bound (infinite) is no bound: cast to an integer dtype it would wrap
        let skip = |v: f64| v.is_infinite() && !dt.is_floating();
        if skip(lo) && skip(hi) {
            // still a new tensor
            return binary(BinaryKernel::Maximum, x, x, dt);
        }
        let bound = |v: f64, k: BinaryKernel, x: &Strided| -> Result<Strided> {
            if skip(v) {
                return Ok(x.clone());
            }
            let t = Strided::from_vec(vec![v], &[])?.cast(dt)?;
            binary(k, x, &t, dt)
        };
        let r = bound(lo, BinaryKernel::Maximum, x)?;
        bound(hi, BinaryKernel::Minimum, &r)
    }
    fn reduce(
        &self,
        k: ReduceKernel,
        x: &Strided,
        dims: &[usize],
        keepdim: bool,
    ) -> Result<Strided> {
        reduce(k, x, dims, keepdim)
    }
    fn argreduce(&self, k: ArgReduceKernel, x: &Strided, dim: usize) -> Result<Strided> {
        argreduce(k, x, dim)
    }
    fn scan(
        &self,
        k: ScanKernel,
        x: &Strided,
        dim: usize,
        reverse: bool,
        exclusive: bool,
    ) -> Result<Strided> {
        scan(k, x, dim, reverse, exclusive)
    }
    fn take(&self, x: &Strided, plan: &[usize], shape: &[usize]) -> Result<Strided> {
        take(x, plan, shape)
    }
    fn put(&self, out: &Strided, plan: &[usize], vals: &Strided, add: bool) -> Result<()> {
        put(out, plan, vals, add)
    }
    fn mm(&self, a: &Strided, b: &Strided) -> Result<Strided> {
        mm(a, b)
    }
    fn bmm(&self, a: &Strided, b: &Strided) -> Result<Strided> {
        bmm(a, b)
    }
}
