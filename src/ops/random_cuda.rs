//! Random values for CUDA tensors, drawn from the device's generator (`crate::random::philox`)
//! and laid out as PyTorch's CUDA distribution kernels lay them out, evaluated on the host.
//!
//! PyTorch's kernels (`distribution_nullary_kernel`) run a grid-stride loop: 256-thread blocks,
//! as many blocks as the tensor needs up to (multiprocessors × threads per multiprocessor / 256);
//! thread `idx` starts Philox at (seed, subsequence `idx`, the generator's offset) and each pass
//! draws four 32-bit values (one `curand4`) that become `unroll` elements `idx + k·stride`
//! (float32 and 16-bit floats: 4 per draw; float64 and 64-bit integers: 2). The generator's
//! offset then moves by 4 per pass. Element order is memory order, as on the CPU.
//!
//! What is exact and what is not: the 32-bit streams, the uniform conversions (`rand`,
//! `uniform_`, `bernoulli_(p)`), the integer ranges (`randint`, `random_`) and the offsets are
//! the same operations as the device's. The normal samplers' `logf`/`__sincosf` and the
//! `log`/`tan` of the other distributions are the device's own approximations on a GPU; here
//! they are the host's functions, so these can differ from PyTorch's in the last bits. Normal
//! draws into contiguous float tensors therefore run on the device ([`normal_on_device`]).
//! Compared on an H200 against PyTorch 2.11: the uniform, integer, Bernoulli, dropout,
//! randperm and multinomial draws were its bits; the host's normal, exponential, Cauchy and
//! log-normal draws were not (tests/python/test_cuda_random_gpu_bits.py).
use super::random::{collect_n, draw, full_range, in_dtype, place, place_complex, Draw};
use crate::dtype::DType;
use crate::error::Result;
pub use crate::random::philox::Launch;
use crate::random::philox::{self, CudaGenerator};
use crate::shape::checked_numel;
use crate::tensor::Tensor;

const BLOCK: u64 = 256;

/// `calc_execution_policy`: the generator increment and the threads in the grid.
fn policy(n: u64, unroll: u64, l: Launch) -> (u64, u64) {
    let per_sm = (l.threads_per_multiprocessor as u64 / BLOCK).max(1);
    let grid = n
        .div_ceil(BLOCK)
        .min(l.multiprocessors.max(1) as u64 * per_sm);
    let passes = (n - 1) / (BLOCK * grid * unroll) + 1;
    (passes * 4, BLOCK * grid)
}

/// The `n` elements' values: `conv(draw, k)` of the `k`-th of the `unroll` values each draw of
/// four 32-bit words gives, for the thread and pass that write each element.
fn grid_stride<T: Copy + Default>(
    n: usize,
    unroll: usize,
    g: &CudaGenerator,
    l: Launch,
    conv: impl Fn(&[u32; 4], usize) -> T,
) -> Result<Vec<T>> {
    let mut out = collect_n(n, std::iter::repeat(T::default()))?;
    if n == 0 {
        return Ok(out);
    }
    let (increment, threads) = policy(n as u64, unroll as u64, l);
    let (seed, offset) = g.lock().reserve(increment);
    let key = philox::key(seed);
    let threads = threads as usize;
    let per_pass = threads * unroll;
    for pass in 0..n.div_ceil(per_pass) {
        let base = pass * per_pass;
        for idx in 0..threads.min(n - base) {
            let c = philox::counter(idx as u64, offset, pass as u64);
            let w = philox::philox4x32_10(c, key);
            for k in 0..unroll {
                let li = base + k * threads + idx;
                if li < n {
                    out[li] = conv(&w, k);
                }
            }
        }
    }
    Ok(out)
}

// cuRAND's constants, as the float literals of its headers round them.
#[allow(clippy::excessive_precision)]
const INV32: f32 = 2.3283064e-10;
#[allow(clippy::excessive_precision)]
const INV32_2PI: f32 = 2.3283064e-10 * 6.2831855;
const INV53: f64 = 1.1102230246251565e-16;

/// `curand_uniform`: (0, 1], with the device's fused multiply-add.
#[inline]
fn u01_f32(x: u32) -> f32 {
    (x as f32).mul_add(INV32, INV32 / 2.0)
}

/// `curand_uniform2_double`'s conversion of two words: 53 bits, (0, 1].
#[inline]
fn u01_f64(x: u32, y: u32) -> f64 {
    let z = (x as u64) ^ ((y as u64) << 21);
    (z as f64).mul_add(INV53, INV53 / 2.0)
}

/// The uniform of draw `w` for unroll slot `k`: float (4 per draw) or double (2 per draw).
#[inline]
fn uniform_f32(w: &[u32; 4], k: usize) -> f32 {
    u01_f32(w[k])
}
#[inline]
fn uniform_f64(w: &[u32; 4], k: usize) -> f64 {
    u01_f64(w[2 * k], w[2 * k + 1])
}

/// `curand_normal4`'s Box–Muller on two words (host `logf`, `sinf`, `cosf`).
fn normal_f32(w: &[u32; 4], k: usize) -> f32 {
    let (x, y) = (w[k & !1], w[k | 1]);
    let u = (x as f32).mul_add(INV32, INV32 / 2.0);
    let v = (y as f32).mul_add(INV32_2PI, INV32_2PI / 2.0);
    let s = (-2.0f32 * u.ln()).sqrt();
    if k & 1 == 0 {
        v.sin() * s
    } else {
        v.cos() * s
    }
}

/// `curand_normal2_double`'s Box–Muller on the four words of one draw.
fn normal_f64(w: &[u32; 4], k: usize) -> f64 {
    let u = u01_f64(w[0], w[1]);
    let zy = (w[2] as u64) ^ ((w[3] as u64) << 21);
    let v = (zy as f64).mul_add(INV53 * 2.0, INV53);
    let s = (-2.0 * u.ln()).sqrt();
    let a = v * std::f64::consts::PI;
    if k == 0 {
        a.sin() * s
    } else {
        a.cos() * s
    }
}

/// The first `curand_uniform4` value of thread `idx`'s `pass`-th draw after `offset`.
pub fn philox_u01(seed: u64, offset: u64, idx: u64, pass: u64) -> f64 {
    let w = philox::philox4x32_10(philox::counter(idx, offset, pass), philox::key(seed));
    u01_f32(w[0]) as f64
}

/// 64 bits from two words (`ulonglong2` draws: 2 per draw).
#[inline]
fn bits64(w: &[u32; 4], k: usize) -> u64 {
    ((w[2 * k] as u64) << 32) | w[2 * k + 1] as u64
}

/// A draw of `d` for a CUDA tensor of `shape` laid out with `strides` (None: contiguous) from
/// the device generator `g`, as a host tensor of `shape` (the caller moves it to the device).
/// Arguments are checked as the CPU path checks them, with its messages.
pub fn draw_cuda(
    d: Draw,
    shape: &[usize],
    strides: Option<&[isize]>,
    dtype: DType,
    g: &CudaGenerator,
    l: Launch,
) -> Result<Tensor> {
    // the argument checks (nothing is drawn for an empty shape)
    draw(d, &[0], None, dtype, None)?;
    if dtype.is_complex() {
        // PyTorch fills a complex tensor through its real view: (re, im) pairs
        let mut s = shape.to_vec();
        s.push(2);
        let r = draw_cuda(d, &s, None, dtype.to_real(), g, l)?;
        return place_complex(r, shape, strides);
    }
    let n = checked_numel(shape)?;
    let double = dtype == DType::Float64;
    let t = match d {
        Draw::Uniform { from, to } => return uniform(n, shape, strides, dtype, from, to, g, l),
        Draw::Normal { mean, std } => {
            if double {
                let v = grid_stride(n, 2, g, l, normal_f64)?;
                place(
                    v.into_iter().map(|z| z.mul_add(std, mean)).collect(),
                    shape,
                    strides,
                )?
            } else {
                let (m, s) = (mean as f32, std as f32);
                let v = grid_stride(n, 4, g, l, normal_f32)?;
                place(
                    v.into_iter().map(|z| z.mul_add(s, m)).collect(),
                    shape,
                    strides,
                )?
            }
        }
        Draw::Range { low, high } => {
            let range = (high - low as i128) as u128;
            let v = if range >= 1 << 28 {
                grid_stride(n, 2, g, l, |w, k| {
                    let r = bits64(w, k);
                    // the full 64-bit range (`random_(from=-2⁶³)`): the bits themselves
                    let r = if range >= 1 << 64 {
                        r
                    } else {
                        r % range as u64
                    };
                    r.wrapping_add(low as u64) as i64
                })?
            } else {
                grid_stride(n, 4, g, l, |w, k| {
                    (w[k] as u64 % range as u64).wrapping_add(low as u64) as i64
                })?
            };
            place(v, shape, strides)?
        }
        Draw::FullRange => {
            // (the argument check above refused the dtypes without a range)
            let (range, wide) = full_range(dtype).unwrap_or((2, false));
            let v = if wide {
                grid_stride(n, 2, g, l, |w, k| (bits64(w, k) % range) as i64)?
            } else {
                grid_stride(n, 4, g, l, |w, k| (w[k] as u64 % range) as i64)?
            };
            place(v, shape, strides)?
        }
        Draw::Bernoulli { p } => {
            let v: Vec<bool> = if double {
                grid_stride(n, 2, g, l, |w, k| uniform_f64(w, k) < p)?
            } else {
                let p = p as f32;
                grid_stride(n, 4, g, l, |w, k| uniform_f32(w, k) < p)?
            };
            return crate::backend::cast(&place(v, shape, strides)?, dtype);
        }
        Draw::Exponential { lambd } => {
            let v = from_uniform(n, double, g, l, |u, eps| {
                let log = if u >= 1.0 - eps / 2.0 {
                    -eps / 2.0
                } else {
                    u.ln()
                };
                -1.0 / lambd * log
            })?;
            place(v, shape, strides)?
        }
        Draw::Cauchy { median, sigma } => {
            let v = from_uniform(n, double, g, l, |u, _| {
                median + sigma * (std::f64::consts::PI * (u - 0.5)).tan()
            })?;
            place(v, shape, strides)?
        }
        Draw::Geometric { p } => {
            let v = from_uniform(n, double, g, l, |u, _| (u.ln() / (-p).ln_1p()).ceil())?;
            place(v, shape, strides)?
        }
        Draw::LogNormal { mean, std } => {
            let v = if double {
                grid_stride(n, 2, g, l, |w, k| normal_f64(w, k).mul_add(std, mean).exp())?
            } else {
                let (m, s) = (mean as f32, std as f32);
                grid_stride(n, 4, g, l, |w, k| {
                    normal_f32(w, k).mul_add(s, m).exp() as f64
                })?
            };
            place(v, shape, strides)?
        }
    };
    in_dtype(t, dtype)
}

/// `normal(mean, std)` (`randn`, `normal_`) for a contiguous float32/float64 tensor on CUDA
/// device `i`, drawn by a kernel there: PyTorch's layout (as [`draw_cuda`]) with the device's
/// own `logf`/`__sincosf` (float64: `log`/`sincospi`), so on a GPU the values are PyTorch's bits.
/// None for other dtypes and layouts, which [`draw_cuda`] draws on the host.
pub fn normal_on_device(
    shape: &[usize],
    strides: Option<&[isize]>,
    dtype: DType,
    (mean, std): (f64, f64),
    g: &CudaGenerator,
    l: Launch,
    i: usize,
) -> Result<Option<Tensor>> {
    let contiguous =
        strides.is_none_or(|s| s == crate::shape::contiguous_strides(shape).as_slice());
    if !matches!(dtype, DType::Float32 | DType::Float64) || !contiguous {
        return Ok(None);
    }
    // the argument checks of the other paths (a negative std, ...)
    draw(Draw::Normal { mean, std }, &[0], None, dtype, None)?;
    let n = checked_numel(shape)?;
    let out = crate::backend::cuda::empty(shape, dtype, crate::device::Device::Cuda(i))?;
    if n > 0 {
        let unroll = if dtype == DType::Float64 { 2 } else { 4 };
        let (increment, threads) = policy(n as u64, unroll, l);
        let (seed, offset) = g.lock().reserve(increment);
        crate::backend::cuda::normal_fill(&out, threads, seed, offset, mean, std)?;
    }
    Ok(Some(Tensor::from_strided(out)))
}

/// `bernoulli(p)` with a tensor of probabilities on CUDA (PyTorch's `bernoulli_tensor_cuda_kernel`
/// through `CUDA_tensor_apply2`): thread `t` takes elements 4t..4t+3 in row-major order and
/// compares each with its word of one `curand_uniform4` (`u <= p`, in double for float64
/// probabilities, else in float); the generator moves by 12.
pub fn bernoulli_tensor(p: &Tensor, g: &CudaGenerator) -> Result<Tensor> {
    let dt = p.dtype();
    if !dt.is_floating() {
        return Err(crate::error::Error::NotImplemented(format!(
            "\"bernoulli_tensor_cuda_p_\" not implemented for '{}'",
            dt.scalar_type_name()
        )));
    }
    let ps = p.detached().try_to_vec::<f64>()?;
    super::random::check_probabilities(ps.iter().copied())?;
    let v = bernoulli_words(&ps, dt == DType::Float64, g);
    crate::backend::cast(&Tensor::from_vec(v, &p.shape())?, dt)
}

fn bernoulli_words(p: &[f64], double: bool, g: &CudaGenerator) -> Vec<bool> {
    let (seed, offset) = g.lock().reserve(10);
    let key = philox::key(seed);
    let mut out = Vec::with_capacity(p.len());
    for (t, ps) in p.chunks(4).enumerate() {
        let w = philox::philox4x32_10(philox::counter(t as u64, offset, 0), key);
        for (k, &pk) in ps.iter().enumerate() {
            let u = u01_f32(w[k]);
            out.push(if double {
                (u as f64) <= pk
            } else {
                u <= pk as f32
            });
        }
    }
    out
}

/// `randperm(n)` on CUDA (PyTorch's `randperm_out_cuda`): random keys (`random_` over the whole
/// int32 range, int64 when n needs more than 32 bits to make repeats unlikely), a stable radix
/// sort of 0..n by the keys' low `bits` bits, then each run of equal keys shuffled by its own
/// Philox thread (Fisher–Yates from the back, `curand() % (i + 1)`).
pub fn randperm_cuda(n: usize, g: &CudaGenerator, l: Launch) -> Result<Vec<i64>> {
    if n == 0 {
        return Ok(Vec::new());
    }
    let nd = n as f64;
    let log_threshold_12 = 0.9f64.ln() * 12.0;
    let bits = ((nd - (6.0 * nd * nd + 1.0) / log_threshold_12)
        .log2()
        .ceil() as u32)
        .min(64);
    let (keys, sign): (Vec<u64>, u64) = if bits <= 32 {
        let d = Draw::Range {
            low: i32::MIN as i64,
            high: i32::MAX as i128,
        };
        let t = draw_cuda(d, &[n], None, DType::Int64, g, l)?;
        let v = t.try_to_vec::<i64>()?;
        (
            v.into_iter().map(|k| k as i32 as u32 as u64).collect(),
            1 << 31,
        )
    } else {
        let d = Draw::Range {
            low: i64::MIN,
            high: i64::MAX as i128,
        };
        let t = draw_cuda(d, &[n], None, DType::Int64, g, l)?;
        let v = t.try_to_vec::<i64>()?;
        (v.into_iter().map(|k| k as u64).collect(), 1 << 63)
    };
    let mask = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    // cub sorts signed keys with the sign bit flipped, by bits [0, bits)
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| (keys[i] ^ sign) & mask);
    let mut data: Vec<i64> = order.iter().map(|&i| i as i64).collect();
    let sorted: Vec<u64> = order.iter().map(|&i| keys[i] & mask).collect();
    let (seed, offset) = g.lock().reserve(n as u64);
    let key = philox::key(seed);
    let mut tid = 0;
    while tid + 1 < n {
        let mut size = 1;
        while tid + size < n && sorted[tid + size] == sorted[tid] {
            size += 1;
        }
        if size > 1 {
            let island = &mut data[tid..tid + size];
            let mut block = 0;
            let mut words = philox::philox4x32_10(philox::counter(tid as u64, offset, 0), key);
            let mut used = 0;
            for i in (1..size).rev() {
                if used == 4 {
                    block += 1;
                    words = philox::philox4x32_10(philox::counter(tid as u64, offset, block), key);
                    used = 0;
                }
                let r = words[used] as usize % (i + 1);
                used += 1;
                island.swap(i, r);
            }
        }
        tid += size;
    }
    Ok(data)
}

/// The keep-mask of `dropout` on CUDA (PyTorch's `fused_dropout_kernel_vec` / `fused_dropout_kernel`):
/// the grid and the generator increment of the distribution kernels; with `vec` 4 or 2 (a dense
/// input whose element count the vector width divides) thread `idx` takes `vec` adjacent
/// elements per pass, one `curand_uniform4` each pass; with `vec` 1 the grid-stride layout of
/// the other distributions. An element is kept when its uniform is below `keep`.
pub fn dropout_mask(
    n: usize,
    keep: f64,
    vec: usize,
    g: &CudaGenerator,
    l: Launch,
) -> Result<Vec<bool>> {
    let keep = keep as f32;
    if vec <= 1 {
        return grid_stride(n, 4, g, l, |w, k| u01_f32(w[k]) < keep);
    }
    let mut out = collect_n(n, std::iter::repeat(false))?;
    if n == 0 {
        return Ok(out);
    }
    let (increment, threads) = policy(n as u64, 4, l);
    let (seed, offset) = g.lock().reserve(increment);
    let key = philox::key(seed);
    let threads = threads as usize;
    for pass in 0.. {
        let start = pass * threads * vec;
        if start >= n {
            break;
        }
        for idx in 0..threads {
            let base = start + idx * vec;
            if base >= n {
                break;
            }
            let w = philox::philox4x32_10(philox::counter(idx as u64, offset, pass as u64), key);
            for k in 0..vec.min(n - base) {
                out[base + k] = u01_f32(w[k]) < keep;
            }
        }
    }
    Ok(out)
}

/// `f(u, epsilon)` of each element's uniform: a double for float64 tensors, else a float
/// (widened for `f`, rounded back as the device's float arithmetic would round it).
fn from_uniform(
    n: usize,
    double: bool,
    g: &CudaGenerator,
    l: Launch,
    f: impl Fn(f64, f64) -> f64,
) -> Result<Vec<f64>> {
    if double {
        grid_stride(n, 2, g, l, |w, k| f(uniform_f64(w, k), f64::EPSILON))
    } else {
        grid_stride(n, 4, g, l, |w, k| {
            f(uniform_f32(w, k) as f64, f32::EPSILON as f64) as f32 as f64
        })
    }
}

/// `uniform_(from, to)`: `rand · (to - from) + from` fused, in the dtype's math type, a value
/// that rounds to `to` becoming `from`.
#[allow(clippy::too_many_arguments)]
fn uniform(
    n: usize,
    shape: &[usize],
    strides: Option<&[isize]>,
    dtype: DType,
    from: f64,
    to: f64,
    g: &CudaGenerator,
    l: Launch,
) -> Result<Tensor> {
    macro_rules! half_uniform {
        ($t:ty) => {{
            let (a, b) = (<$t>::from_f64(from), <$t>::from_f64(to));
            let range = <$t>::from_f32(b.to_f32() - a.to_f32()).to_f32();
            let v = grid_stride(n, 4, g, l, |w, k| {
                let x = <$t>::from_f32(uniform_f32(w, k).mul_add(range, a.to_f32()));
                if x == b {
                    a
                } else {
                    x
                }
            })?;
            place(v, shape, strides)
        }};
    }
    match dtype {
        DType::Float64 => {
            let range = to - from;
            let v = grid_stride(n, 2, g, l, |w, k| {
                let x = uniform_f64(w, k).mul_add(range, from);
                if x == to {
                    from
                } else {
                    x
                }
            })?;
            place(v, shape, strides)
        }
        DType::Float32 => {
            let (a, b) = (from as f32, to as f32);
            let range = b - a;
            let v = grid_stride(n, 4, g, l, |w, k| {
                let x = uniform_f32(w, k).mul_add(range, a);
                if x == b {
                    a
                } else {
                    x
                }
            })?;
            place(v, shape, strides)
        }
        // 16-bit floats: the bounds rounded to the type, the range and the fused value in float
        DType::Float16 => half_uniform!(half::f16),
        DType::BFloat16 => half_uniform!(half::bf16),
        // the argument check above refused every other dtype
        d => unreachable!("uniform_ of {d:?} passed the dtype check"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const H100: Launch = Launch {
        multiprocessors: 132,
        threads_per_multiprocessor: 2048,
    };

    #[test]
    fn launch_geometry_and_offsets() {
        // one pass while the grid covers the tensor, four offsets per pass
        assert_eq!(policy(1, 4, H100), (4, 256));
        assert_eq!(policy(1000, 4, H100), (4, 1024));
        let full = 132 * 2048;
        assert_eq!(policy(full as u64 * 4, 4, H100), (4, full as u64));
        assert_eq!(policy(full as u64 * 4 + 1, 4, H100), (8, full as u64));
        assert_eq!(policy(full as u64 * 2 + 1, 2, H100), (8, full as u64));
    }

    #[test]
    fn elements_follow_threads_then_passes() {
        let g = CudaGenerator::new(0, 42);
        let small = Launch {
            multiprocessors: 1,
            threads_per_multiprocessor: 256,
        };
        // 256 threads, 4 per draw: element 256·k + i is word k of thread i's first draw, and
        // the next 1024 elements come from the second draw
        let v = grid_stride(2048, 4, &g, small, |w, k| w[k]).unwrap();
        assert_eq!(g.lock().offset, 8);
        let key = philox::key(42);
        let first = philox::philox4x32_10(philox::counter(3, 0, 0), key);
        let second = philox::philox4x32_10(philox::counter(3, 0, 1), key);
        assert_eq!(v[3], first[0]);
        assert_eq!(v[256 + 3], first[1]);
        assert_eq!(v[768 + 3], first[3]);
        assert_eq!(v[1024 + 3], second[0]);
    }

    #[test]
    fn uniforms_are_in_the_half_open_range() {
        assert!(u01_f32(u32::MAX) <= 1.0 && u01_f32(0) > 0.0);
        assert!(u01_f64(u32::MAX, u32::MAX) <= 1.0 && u01_f64(0, 0) > 0.0);
        let g = CudaGenerator::new(0, 1);
        let t = draw_cuda(
            Draw::Uniform { from: 0.0, to: 1.0 },
            &[5000],
            None,
            DType::Float32,
            &g,
            H100,
        )
        .unwrap();
        let v = t.try_to_vec::<f32>().unwrap();
        assert!(v.iter().all(|&x| (0.0..1.0).contains(&x)));
    }
}
