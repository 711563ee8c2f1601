//! Kernel arguments: strided layouts of up to 4 operands, scalars, launch and launch counts.

use super::*;

pub(super) const MAXD: usize = 8;

/// Mirrors `struct Strided` in kernels.cu.
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub(super) struct KernelLayout {
    pub(super) n: i64,
    pub(super) ndim: i32,
    pub(super) pad: i32,
    pub(super) shape: [i64; MAXD],
    pub(super) st: [[i64; MAXD]; 4],
    pub(super) off: [i64; 4],
}
// SAFETY: plain old data with the C layout of the kernels' struct.
unsafe impl DeviceRepr for KernelLayout {}

/// Mirrors `cx<R>` in kernels.cu: a complex scalar argument (re, im).
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub(super) struct Cx<R> {
    pub(super) re: R,
    pub(super) im: R,
}
// SAFETY: two floats or two doubles, the C layout of the kernels' `cx<float>` / `cx<double>`.
unsafe impl DeviceRepr for Cx<f32> {}
// SAFETY: as above.
unsafe impl DeviceRepr for Cx<f64> {}

/// The layout of up to 4 operands over `shape`: each operand's strides (already broadcast to
/// `shape`) and offset. Size-1 dims are dropped; more than 8 remaining dims are refused.
pub(super) fn strided(shape: &[usize], ops: &[(&[isize], usize)]) -> Result<KernelLayout> {
    let mut s = KernelLayout {
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

pub(super) fn grid(n: i64) -> LaunchConfig {
    let blocks = ((n.max(1) as u64).div_ceil(256)).min(1 << 16) as u32;
    LaunchConfig {
        grid_dim: (blocks, 1, 1),
        block_dim: (256, 1, 1),
        shared_mem_bytes: 0,
    }
}

/// Elements per thread of a dense launch (`VEC` in kernels.cu).
const VEC: i64 = 4;

/// The grid of an elementwise launch over `nops` operands of `l` (`skip`: bit j set when
/// operand j is a scalar argument). Dense launches (kernels.cu `dense_ok`: one merged dim, every
/// other operand contiguous) take VEC elements per thread; the rest one.
pub(super) fn grid_dense(l: &KernelLayout, nops: usize, skip: u32) -> LaunchConfig {
    let dense =
        l.ndim == 1 && l.n < 1 << 30 && (0..nops).all(|j| (skip >> j) & 1 == 1 || l.st[j][0] == 1);
    if dense {
        grid((l.n + VEC - 1) / VEC)
    } else {
        grid(l.n)
    }
}

/// A kernel argument (kept alive until the launch). Arguments live in short arrays on the
/// stack for one launch, so the layout variant's size costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
pub(super) enum Arg {
    L(KernelLayout),
    P(u64),
    F32(f32),
    F64(f64),
    I64(i64),
    I32(i32),
    U16(u16),
    U8(u8),
    B(bool),
    C64(Cx<f32>),
    C128(Cx<f64>),
}

/// How many times each kernel was launched in this process (tests check coverage with it).
pub(super) static LAUNCHES: OnceLock<Mutex<HashMap<String, u64>>> = OnceLock::new();

pub fn launch_counts() -> Result<Vec<(String, u64)>> {
    let m = LAUNCHES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    Ok(m.iter().map(|(k, v)| (k.clone(), *v)).collect())
}

pub(super) fn launch(d: &'static Dev, name: &str, cfg: LaunchConfig, args: &[Arg]) -> Result<()> {
    let key = table_entry(name, args.len())?;
    let d = match d {
        Dev::Gpu(g) => g,
        Dev::Emu(e) => {
            count_launch(name);
            return e.launch(key, cfg, args);
        }
    };
    let f = function(d, key)?;
    count_launch(name);
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
            Arg::C64(v) => b.arg(v),
            Arg::C128(v) => b.arg(v),
        };
    }
    // SAFETY: the argument list matches the kernel's parameters (count checked against the
    // table, types by construction at each call site); pointers address live device memory.
    unsafe { b.launch(cfg) }.map_err(derr)?;
    Ok(())
}

impl Arg {
    /// The address of the argument's value (what a launch passes for each parameter).
    pub(super) fn value_ptr(&self) -> *const std::ffi::c_void {
        use std::ffi::c_void;
        match self {
            Arg::L(v) => v as *const KernelLayout as *const c_void,
            Arg::P(v) => v as *const u64 as *const c_void,
            Arg::F32(v) => v as *const f32 as *const c_void,
            Arg::F64(v) => v as *const f64 as *const c_void,
            Arg::I64(v) => v as *const i64 as *const c_void,
            Arg::I32(v) => v as *const i32 as *const c_void,
            Arg::U16(v) => v as *const u16 as *const c_void,
            Arg::U8(v) => v as *const u8 as *const c_void,
            Arg::B(v) => v as *const bool as *const c_void,
            Arg::C64(v) => v as *const Cx<f32> as *const c_void,
            Arg::C128(v) => v as *const Cx<f64> as *const c_void,
        }
    }
}

fn count_launch(name: &str) {
    *LAUNCHES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(name.to_string())
        .or_insert(0) += 1;
}

/// A scalar of dtype `dt` as a kernel argument.
pub(super) fn scalar_arg(dt: DType, v: Complex64) -> Arg {
    match dt {
        DType::Float32 => Arg::F32(v.re as f32),
        DType::Float64 => Arg::F64(v.re),
        DType::Int64 => Arg::I64(v.re as i64),
        DType::Int32 => Arg::I32(v.re as i32),
        // (no CUDA kernel takes int8/int16: `type_name` refuses those tensors before a launch)
        DType::Int8 | DType::Int16 => Arg::I32(v.re as i32),
        // (nor uint16/32/64: `type_name` refuses them too)
        DType::UInt16 | DType::UInt32 => Arg::I32(v.re as i64 as i32),
        DType::UInt64 => Arg::I64(v.re as i64),
        DType::UInt8 => Arg::U8(v.re as i64 as u8),
        DType::Float16 => Arg::U16(half::f16::from_f64(v.re).to_bits()),
        DType::BFloat16 => Arg::U16(half::bf16::from_f64(v.re).to_bits()),
        DType::Complex64 => Arg::C64(Cx {
            re: v.re as f32,
            im: v.im as f32,
        }),
        DType::Complex128 => Arg::C128(Cx { re: v.re, im: v.im }),
        DType::Bool => Arg::B(v.re != 0.0 || v.im != 0.0),
    }
}

pub(super) fn device_of(t: &crate::backend::Strided) -> Result<usize> {
    match t.storage.device() {
        Device::Cuda(i) => Ok(i),
        Device::Cpu => Err(Error::Runtime(
            "internal error: a CPU tensor reached a CUDA kernel".into(),
        )),
        Device::Meta => Err(crate::error::no_meta_kernel()),
    }
}

/// Device address of element `offset` of `t`... kernels take the storage base and offsets.
pub(super) fn base(t: &crate::backend::Strided) -> u64 {
    t.storage.device_ptr()
}
