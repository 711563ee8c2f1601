//! Random tensors, drawn as PyTorch's CPU kernels draw them, so a seed gives PyTorch's numbers:
//! `rand`/`uniform_` (one 32-bit draw per float32, 64 per float64), `randn`/`normal_` (blocks of
//! 16 by Box–Muller for contiguous tensors of 16 elements or more, as PyTorch's AVX2 kernel
//! computes them for float32; one cached Box–Muller double per element otherwise), `randint`/
//! `random_`, `randperm`, `bernoulli` and `exponential_` (`multinomial` is in
//! [`super::multinomial`]).
//!
//! Each function returns the values a tensor of `shape` with `strides` gets, in PyTorch's order
//! (memory order: PyTorch's serial kernels walk the tensor as it lies in memory), as a new
//! tensor of `shape`; the bindings write it into the target (`copy_`, with the in-place rules).
use crate::backend;
use crate::dtype::DType;
use crate::error::{cpp_double, Error, Result};
use crate::random::{or_default, CpuGenerator, Generator};
use crate::shape::checked_numel;
use crate::tensor::Tensor;

/// The dims of `strides` from outermost to innermost in memory (stable for equal strides).
fn memory_order(shape: &[usize], strides: &[isize]) -> Vec<usize> {
    let mut dims: Vec<usize> = (0..shape.len()).collect();
    dims.sort_by(|&a, &b| strides[b].unsigned_abs().cmp(&strides[a].unsigned_abs()));
    dims
}

/// `values` (in memory order of a tensor of `shape`/`strides`) as a tensor of `shape`.
pub(super) fn place<T: crate::dtype::Element>(
    values: Vec<T>,
    shape: &[usize],
    strides: Option<&[isize]>,
) -> Result<Tensor> {
    let Some(strides) = strides else {
        return Tensor::from_vec(values, shape);
    };
    let order = memory_order(shape, strides);
    if order.iter().enumerate().all(|(i, &d)| i == d) {
        return Tensor::from_vec(values, shape);
    }
    let mem_shape: Vec<usize> = order.iter().map(|&d| shape[d]).collect();
    let t = Tensor::from_vec(values, &mem_shape)?;
    let mut inverse = vec![0i64; order.len()];
    for (i, &d) in order.iter().enumerate() {
        inverse[d] = i as i64;
    }
    let _g = crate::grad_mode::GradModeGuard::new(false);
    backend::contiguous(&super::permute(&t, &inverse)?)
}

/// `n` values from an iterator, in a buffer allocated fallibly first (a size too large for memory
/// is an error, not an abort).
pub(super) fn collect_n<T>(n: usize, it: impl Iterator<Item = T>) -> Result<Vec<T>> {
    let mut v = crate::backend::cpu::alloc_vec(n)?;
    v.extend(it.take(n));
    Ok(v)
}

/// `n` successive 32-bit draws.
fn draw_u32(g: &mut CpuGenerator, n: usize) -> Result<Vec<u32>> {
    let mut v = collect_n(n, std::iter::repeat(0u32))?;
    g.fill_u32(&mut v);
    Ok(v)
}

/// `t` in `dtype` (itself when it already is).
pub(super) fn in_dtype(t: Tensor, dtype: DType) -> Result<Tensor> {
    if t.dtype() == dtype {
        Ok(t)
    } else {
        backend::cast(&t, dtype)
    }
}

fn not_implemented(kernel: &str, dt: DType) -> Error {
    Error::NotImplemented(format!(
        "\"{kernel}\" not implemented for '{}'",
        dt.scalar_type_name()
    ))
}

/// Uniform values in [from, to) for a tensor of `dtype` (`uniform_`; `rand` is [0, 1)).
pub fn uniform(
    shape: &[usize],
    strides: Option<&[isize]>,
    dtype: DType,
    from: f64,
    to: f64,
    generator: Option<&Generator>,
) -> Result<Tensor> {
    let n = checked_numel(shape)?;
    if dtype.is_complex() {
        // PyTorch draws a complex tensor's real view: 2n values, (re, im) pairs
        let real = dtype.to_real();
        let mut s = shape.to_vec();
        s.push(2);
        let r = uniform(&s, None, real, from, to, generator)?;
        return place_complex(r, shape, strides);
    }
    let mut g = or_default(generator).lock();
    // a value that rounds to `to` is `from` (PyTorch keeps the range half-open so)
    match dtype {
        DType::Float32 => {
            let raw = draw_u32(&mut g, n)?;
            drop(g);
            place(
                uniform_f32_from_bits(raw, from as f32, to as f32),
                shape,
                strides,
            )
        }
        DType::Float64 => {
            let raw = collect_n(n, std::iter::repeat_with(|| g.random64()))?;
            drop(g);
            place(uniform_f64_from_bits(raw, from, to), shape, strides)
        }
        // 16-bit floats: drawn as float32 between the float32 bounds (not the 16-bit ones) and
        // rounded; a value that rounds to the 16-bit `to` is the 16-bit `from`
        DType::Float16 => {
            let (a, b) = (half::f16::from_f64(from), half::f16::from_f64(to));
            let (from32, to32) = (from as f32, to as f32);
            let v = (0..n).map(|_| half::f16::from_f32(g.uniform_f32(from32, to32)));
            place(
                collect_n(n, v.map(|v| if v == b { a } else { v }))?,
                shape,
                strides,
            )
        }
        DType::BFloat16 => {
            let (a, b) = (half::bf16::from_f64(from), half::bf16::from_f64(to));
            let (from32, to32) = (from as f32, to as f32);
            let v = (0..n).map(|_| half::bf16::from_f32(g.uniform_f32(from32, to32)));
            place(
                collect_n(n, v.map(|v| if v == b { a } else { v }))?,
                shape,
                strides,
            )
        }
        d => Err(not_implemented("check_uniform_bounds", d)),
    }
}

// The bulk conversions below run compiled for the CPU's FMA (and AVX2) when it has them: the
// same fused results (`mul_add` is exact either way), vectorized instead of a libm call each.

/// Runs `$body` (an expression of the listed variables) compiled with AVX2 and FMA enabled when
/// the CPU has them, else as is.
macro_rules! with_fma {
    (fn $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty $body:block) => {
        fn $name($($arg: $ty),*) -> $ret {
            #[inline(always)]
            fn generic($($arg: $ty),*) -> $ret $body
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx2,fma")]
                unsafe fn fast($($arg: $ty),*) -> $ret {
                    generic($($arg),*)
                }
                if std::arch::is_x86_feature_detected!("avx2")
                    && std::arch::is_x86_feature_detected!("fma")
                {
                    // SAFETY: the CPU has the features `fast` was compiled for.
                    return unsafe { fast($($arg),*) };
                }
            }
            generic($($arg),*)
        }
    };
}

with_fma! {
    fn uniform_f32_from_bits(raw: Vec<u32>, a: f32, b: f32) -> Vec<f32> {
        // a value that rounds to `to` is `from` (PyTorch keeps the range half-open so)
        raw.into_iter()
            .map(|r| {
                let v = ((r & 0x00ff_ffff) as f32 * (1.0 / 16_777_216.0)).mul_add(b - a, a);
                if v == b { a } else { v }
            })
            .collect()
    }
}

with_fma! {
    fn uniform_f64_from_bits(raw: Vec<u64>, a: f64, b: f64) -> Vec<f64> {
        raw.into_iter()
            .map(|r| {
                let x = (r & ((1u64 << 53) - 1)) as f64 * (1.0 / 9_007_199_254_740_992.0);
                let v = x.mul_add(b - a, a);
                if v == b { a } else { v }
            })
            .collect()
    }
}

with_fma! {
    fn box_muller_blocks_f64(v: &mut [f64], mean: f64, std: f64) -> () {
        for b in v.chunks_exact_mut(16) {
            box_muller_16_f64(b, mean, std);
        }
    }
}

with_fma! {
    fn box_muller_blocks_f32(v: &mut [f32], mean: f32, std: f32) -> () {
        for b in v.chunks_exact_mut(16) {
            box_muller_16_f32(b, mean, std);
        }
    }
}

/// A complex tensor's values from its real view's (`shape + [2]`, contiguous).
pub(super) fn place_complex(
    real: Tensor,
    shape: &[usize],
    strides: Option<&[isize]>,
) -> Result<Tensor> {
    let dt = real.dtype().to_complex();
    let v = real.try_to_vec::<f64>()?;
    let c: Vec<num_complex::Complex64> = v
        .chunks_exact(2)
        .map(|p| num_complex::Complex64::new(p[0], p[1]))
        .collect();
    backend::cast(&place(c, shape, strides)?, dt)
}

// PyTorch's AVX2 Box–Muller (`normal_fill_16_AVX2`): log and sincos are avx_mathfun's cephes
// polynomials, evaluated in float32 operation by operation as the compiled kernel does: the
// compiler fuses each multiply whose product is only added into a multiply-add (`mul_add`
// here). Checked bit for bit against PyTorch on 2,000,000 normals.

/// avx_mathfun's constants: its decimal literals, written out in full and rounded to double and
/// then to float as C initialises its float arrays.
#[allow(clippy::excessive_precision, clippy::approx_constant)]
mod cephes {
    pub const SQRTHF: f32 = 0.707106781186547524f64 as f32;
    pub const LOG_P: [f32; 9] = [
        7.0376836292E-2f64 as f32,
        -1.1514610310E-1f64 as f32,
        1.1676998740E-1f64 as f32,
        -1.2420140846E-1f64 as f32,
        1.4249322787E-1f64 as f32,
        -1.6668057665E-1f64 as f32,
        2.0000714765E-1f64 as f32,
        -2.4999993993E-1f64 as f32,
        3.3333331174E-1f64 as f32,
    ];
    pub const LOG_Q1: f32 = -2.12194440e-4f64 as f32;
    pub const LOG_Q2: f32 = 0.693359375f64 as f32;
    pub const DP: [f32; 3] = [
        -0.78515625f64 as f32,
        -2.4187564849853515625e-4f64 as f32,
        -3.77489497744594108e-8f64 as f32,
    ];
    pub const COSCOF: [f32; 3] = [
        2.443315711809948E-005f64 as f32,
        -1.388731625493765E-003f64 as f32,
        4.166664568298827E-002f64 as f32,
    ];
    pub const SINCOF: [f32; 3] = [
        -1.9515295891E-4f64 as f32,
        8.3321608736E-3f64 as f32,
        -1.6666654611E-1f64 as f32,
    ];
    pub const FOPI: f32 = 1.27323954473516f64 as f32;
}
use cephes::*;

#[inline(always)]
fn log_avx(x: f32) -> f32 {
    let x = x.max(f32::from_bits(0x0080_0000));
    let imm0 = (x.to_bits() >> 23) as i32 - 0x7f;
    let mut x = f32::from_bits((x.to_bits() & !0x7f80_0000) | 0.5f32.to_bits());
    let mut e = imm0 as f32 + 1.0;
    let below = x < SQRTHF;
    let tmp = if below { x } else { 0.0 };
    x -= 1.0;
    e -= if below { 1.0 } else { 0.0 };
    x += tmp;
    let z = x * x;
    let mut y = LOG_P[0];
    for &p in &LOG_P[1..] {
        y = y.mul_add(x, p);
    }
    y *= x;
    y = y.mul_add(z, e * LOG_Q1);
    y -= z * 0.5;
    x += y;
    x + e * LOG_Q2
}

#[inline(always)]
fn sincos_avx(x: f32) -> (f32, f32) {
    let mut sign_sin = x.is_sign_negative();
    let mut x = x.abs();
    let j = (((x * FOPI) as i32) + 1) & !1;
    let y = j as f32;
    sign_sin ^= j & 4 != 0;
    let poly = j & 2 == 0;
    let sign_cos = !(j - 2) & 4 != 0;
    for d in DP {
        x = y.mul_add(d, x);
    }
    let z = x * x;
    let mut c = COSCOF[0];
    c = c.mul_add(z, COSCOF[1]);
    c = c.mul_add(z, COSCOF[2]);
    c *= z;
    c = c.mul_add(z, -(z * 0.5));
    c += 1.0;
    let mut s = SINCOF[0];
    s = s.mul_add(z, SINCOF[1]);
    s = s.mul_add(z, SINCOF[2]);
    s *= z;
    s = s.mul_add(x, x);
    let (vs, vc) = if poly { (s, c) } else { (c, s) };
    (
        if sign_sin { -vs } else { vs },
        if sign_cos { -vc } else { vc },
    )
}

/// Sixteen uniform float32s into sixteen normals, as `normal_fill_16_AVX2`.
#[inline(always)]
fn box_muller_16_f32(d: &mut [f32], mean: f32, std: f32) {
    let two_pi = (2.0 * std::f64::consts::PI) as f32;
    for j in 0..8 {
        let u1 = 1.0 - d[j];
        let u2 = d[j + 8];
        let radius = (-2.0 * log_avx(u1)).sqrt();
        let (s, c) = sincos_avx(two_pi * u2);
        d[j] = (radius * c).mul_add(std, mean);
        d[j + 8] = (radius * s).mul_add(std, mean);
    }
}

/// Sixteen uniform float64s into sixteen normals, as the scalar `normal_fill_16<double>`.
#[inline(always)]
fn box_muller_16_f64(d: &mut [f64], mean: f64, std: f64) {
    for j in 0..8 {
        let u1 = 1.0 - d[j];
        let u2 = d[j + 8];
        let radius = (-2.0 * u1.ln()).sqrt();
        let theta = 2.0 * std::f64::consts::PI * u2;
        d[j] = (radius * theta.cos()).mul_add(std, mean);
        d[j + 8] = (radius * theta.sin()).mul_add(std, mean);
    }
}

/// PyTorch's `normal_fill` over `v`, its n >= 16 uniforms: transformed sixteen at a time; a
/// tail that does not fill a block redraws the last sixteen values and transforms them again.
fn normal_fill<T: Copy>(
    g: &mut CpuGenerator,
    mut v: Vec<T>,
    draw: impl Fn(&mut CpuGenerator) -> T,
    blocks: impl Fn(&mut [T]),
) -> Vec<T> {
    let n = v.len();
    blocks(&mut v[..n - n % 16]);
    if !n.is_multiple_of(16) {
        let tail = &mut v[n - 16..];
        for x in tail.iter_mut() {
            *x = draw(g);
        }
        blocks(tail);
    }
    v
}

/// Normal values N(mean, std²) for a tensor of `dtype` (`normal_`; `randn` is N(0, 1)); the
/// block path needs a contiguous target, as PyTorch's.
pub fn normal(
    shape: &[usize],
    strides: Option<&[isize]>,
    dtype: DType,
    mean: f64,
    std: f64,
    generator: Option<&Generator>,
) -> Result<Tensor> {
    if std < 0.0 {
        return Err(Error::Runtime(format!(
            "normal expects std >= 0.0, but found std {}",
            cpp_double(std)
        )));
    }
    let n = checked_numel(shape)?;
    if dtype.is_complex() {
        // PyTorch: the real view, with std / sqrt(2) per part
        let mut s = shape.to_vec();
        s.push(2);
        let r = normal(
            &s,
            None,
            dtype.to_real(),
            mean,
            std / 2f64.sqrt(),
            generator,
        )?;
        return place_complex(r, shape, strides);
    }
    if !dtype.is_floating() {
        return Err(not_implemented("normal_kernel_cpu", dtype));
    }
    let contiguous = strides.is_none_or(|st| crate::shape::is_contiguous(shape, st));
    let mut g = or_default(generator).lock();
    if n >= 16 && contiguous {
        return match dtype {
            DType::Float32 => {
                let (m, s) = (mean as f32, std as f32);
                let u = uniform_f32_from_bits(draw_u32(&mut g, n)?, 0.0, 1.0);
                let v = normal_fill(
                    &mut g,
                    u,
                    |g| g.uniform01_f32(),
                    |b| box_muller_blocks_f32(b, m, s),
                );
                Tensor::from_vec(v, shape)
            }
            DType::Float64 => {
                let u = collect_n(n, std::iter::repeat_with(|| g.uniform01_f64()))?;
                let v = normal_fill(
                    &mut g,
                    u,
                    |g| g.uniform01_f64(),
                    |v| box_muller_blocks_f64(v, mean, std),
                );
                Tensor::from_vec(v, shape)
            }
            // 16-bit floats: each block of 16 drawn and transformed as float32 in turn, then
            // rounded; a partial last block is a fresh block written over the last 16 values
            _ => {
                let (m, s) = (mean as f32, std as f32);
                let mut v: Vec<f32> = collect_n(n, std::iter::repeat(0f32))?;
                let block = |g: &mut CpuGenerator, out: &mut [f32]| {
                    for x in out.iter_mut() {
                        *x = g.uniform01_f32();
                    }
                    box_muller_blocks_f32(out, m, s);
                };
                let mut i = 0;
                while i + 16 <= n {
                    block(&mut g, &mut v[i..i + 16]);
                    i += 16;
                }
                if n % 16 != 0 {
                    block(&mut g, &mut v[n - 16..]);
                }
                backend::cast(&Tensor::from_vec(v, shape)?, dtype)
            }
        };
    }
    let draws = (0..n).map(|_| g.normal_f64(mean, std));
    match dtype {
        DType::Float32 => place(collect_n(n, draws.map(|v| v as f32))?, shape, strides),
        DType::Float64 => place(collect_n(n, draws)?, shape, strides),
        DType::Float16 => place(
            collect_n(n, draws.map(half::f16::from_f64))?,
            shape,
            strides,
        ),
        _ => place(
            collect_n(n, draws.map(half::bf16::from_f64))?,
            shape,
            strides,
        ),
    }
}

/// Integers drawn uniformly from [low, high) for a tensor of `dtype` (`randint`, `random_`):
/// `(bits % range) + low`, with 64 random bits for ranges of 2²⁸ or more, 32 otherwise. (Float
/// dtypes drawn beyond the integers they hold exactly, which PyTorch warns about, differ.)
pub fn randint(
    shape: &[usize],
    strides: Option<&[isize]>,
    dtype: DType,
    low: i64,
    high: i128,
    generator: Option<&Generator>,
) -> Result<Tensor> {
    if low as i128 >= high {
        return Err(Error::Runtime(format!(
            "random_ expects 'from' to be less than 'to', but got from={} >= to={}",
            low, high
        )));
    }
    if dtype.is_complex() {
        return Err(not_implemented("random_from_to_kernel_cpu", dtype));
    }
    let n = checked_numel(shape)?;
    let range = (high - low as i128) as u64;
    // PyTorch takes 64 random bits from a range of 2^28 on (less skew from the modulo)
    let wide = range >= 1 << 28;
    let mut g = or_default(generator).lock();
    let v = draw_range(&mut g, n, range, low, wide)?;
    drop(g);
    in_dtype(place(v, shape, strides)?, dtype)
}

/// `n` values `(bits % range) + low`, from 64 random bits each (`wide`) or 32.
fn draw_range(
    g: &mut CpuGenerator,
    n: usize,
    range: u64,
    low: i64,
    wide: bool,
) -> Result<Vec<i64>> {
    if wide {
        return collect_n(
            n,
            (0..n).map(|_| (g.random64() % range).wrapping_add(low as u64) as i64),
        );
    }
    // the result first, so an allocation failure names its size
    let mut v = collect_n(n, std::iter::repeat(0i64))?;
    let raw = draw_u32(g, n)?;
    for (o, r) in v.iter_mut().zip(raw) {
        *o = (r as u64 % range).wrapping_add(low as u64) as i64;
    }
    Ok(v)
}

/// `random_()`'s range for `dtype` (values in [0, range)) and whether it takes 64 random bits
/// (float64 and int64) or 32; None for dtypes it refuses.
pub(super) fn full_range(dtype: DType) -> Option<(u64, bool)> {
    Some(match dtype {
        DType::Float32 => ((1u64 << 24) + 1, false),
        DType::Float64 => ((1u64 << 53) + 1, true),
        DType::Float16 => ((1u64 << 11) + 1, false),
        DType::BFloat16 => ((1u64 << 8) + 1, false),
        DType::Int64 => (1u64 << 63, true),
        DType::Int32 => (1u64 << 31, false),
        DType::Int16 => (1u64 << 15, false),
        DType::Int8 => (1u64 << 7, false),
        DType::UInt8 => (1u64 << 8, false),
        DType::Bool => (2, false),
        _ => return None,
    })
}

/// `random_()` without bounds: [0, 2^digits] for float dtypes, every non-negative value of an
/// integer dtype, 0 or 1 for bool; 64 random bits for float64 and int64, 32 otherwise.
pub fn random_full(
    shape: &[usize],
    strides: Option<&[isize]>,
    dtype: DType,
    generator: Option<&Generator>,
) -> Result<Tensor> {
    let (range, wide) =
        full_range(dtype).ok_or_else(|| not_implemented("random_kernel_cpu", dtype))?;
    let n = checked_numel(shape)?;
    let mut g = or_default(generator).lock();
    let v = draw_range(&mut g, n, range, 0, wide)?;
    drop(g);
    in_dtype(place(v, shape, strides)?, dtype)
}

/// A random permutation of 0..n (`randperm`), PyTorch's swaps: for n below 2³²/20, position i
/// swaps with i + (32 random bits % (n - i)); above, the inside-out Fisher–Yates on 64 bits.
pub fn randperm(n: usize, dtype: DType, generator: Option<&Generator>) -> Result<Tensor> {
    crate::dtype::shell_kernel_check(dtype, "randperm")?;
    let mut v: Vec<i64> = crate::backend::cpu::alloc_vec(n)?;
    let mut g = or_default(generator).lock();
    if (n as u64) < u32::MAX as u64 / 20 {
        v.extend(0..n as i64);
        for i in 0..n.saturating_sub(1) {
            let z = g.random() as usize % (n - i);
            v.swap(i, z + i);
        }
    } else {
        v.resize(n, 0);
        for i in 0..n {
            let z = (g.random64() % (i as u64 + 1)) as usize;
            v[i] = v[z];
            v[z] = i as i64;
        }
    }
    drop(g);
    in_dtype(Tensor::from_vec(v, &[n])?, dtype)
}

/// Zeros and ones with P(1) = p for a tensor of `dtype` (`bernoulli_(p)`): one uniform double
/// per element, `u < p` (PyTorch's default kernel; its MKL kernel, used on Intel CPUs only, draws
/// another stream).
pub fn bernoulli_scalar(
    shape: &[usize],
    strides: Option<&[isize]>,
    dtype: DType,
    p: f64,
    generator: Option<&Generator>,
) -> Result<Tensor> {
    if !(0.0..=1.0).contains(&p) {
        return Err(Error::Runtime(format!(
            "bernoulli_ expects p to be in [0, 1], but got p={}",
            p
        )));
    }
    if dtype.is_complex() {
        return Err(not_implemented("bernoulli_scalar_cpu_", dtype));
    }
    let n = checked_numel(shape)?;
    let mut g = or_default(generator).lock();
    let v: Vec<bool> = collect_n(n, (0..n).map(|_| g.uniform01_f64() < p))?;
    drop(g);
    backend::cast(&place(v, shape, strides)?, dtype)
}

/// `bernoulli(p)` with a tensor of probabilities: one uniform per element (float32 p: a float32
/// uniform; float64 p: a double), `u < p`, in `p`'s dtype.
pub fn bernoulli_tensor(p: &Tensor, generator: Option<&Generator>) -> Result<Tensor> {
    let dt = p.dtype();
    let pc = p.detached();
    let mut g = or_default(generator).lock();
    let v: Vec<bool> = match dt {
        DType::Float64 => {
            let ps = pc.try_to_vec::<f64>()?;
            check_probabilities(ps.iter().copied())?;
            ps.iter().map(|&p| g.uniform01_f64() < p).collect()
        }
        DType::Float32 | DType::Float16 | DType::BFloat16 => {
            let ps = pc.try_to_vec::<f32>()?;
            check_probabilities(ps.iter().map(|&p| p as f64))?;
            ps.iter().map(|&p| g.uniform01_f32() < p).collect()
        }
        d => return Err(not_implemented("bernoulli_tensor_cpu_p_", d)),
    };
    drop(g);
    backend::cast(&Tensor::from_vec(v, &p.shape())?, dt)
}

pub(super) fn check_probabilities(mut ps: impl Iterator<Item = f64>) -> Result<()> {
    if ps.all(|p| (0.0..=1.0).contains(&p)) {
        Ok(())
    } else {
        Err(Error::Runtime(
            "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)".into(),
        ))
    }
}

/// Exponential values with rate `lambd` (`exponential_`): `-1/λ · log1p(-u)` of a uniform double
/// (torch 2.15's; `log(1 - u)` differs in the last bit of about 7% of float64 values).
pub fn exponential(
    shape: &[usize],
    strides: Option<&[isize]>,
    dtype: DType,
    lambd: f64,
    generator: Option<&Generator>,
) -> Result<Tensor> {
    positive("exponential_", "lambda", lambd)?;
    continuous_only("Exponential", dtype, dtype.scalar_type_name())?;
    per_element(shape, strides, dtype, generator, |g| {
        -1.0 / lambd * (-g.uniform01_f64()).ln_1p()
    })
}

/// PyTorch's check of a distribution parameter that must be positive (`TORCH_CHECK(v > 0.0)`,
/// so NaN is refused too).
fn positive(op: &str, name: &str, v: f64) -> Result<()> {
    if v > 0.0 {
        return Ok(());
    }
    Err(Error::Runtime(format!(
        "{op} expects {name} > 0.0, but found {name}={}",
        cpp_double(v)
    )))
}

/// PyTorch's refusal of an integer (or complex) dtype for a continuous distribution; `shown`
/// is the dtype as that distribution's check names it.
fn continuous_only(what: &str, dtype: DType, shown: &str) -> Result<()> {
    if dtype.is_floating() {
        return Ok(());
    }
    Err(Error::Runtime(format!(
        "{what} distribution is a continuous probability distribution. dtype must be a floating point but you specified {shown}"
    )))
}

/// One double per element from `f`, in memory order (PyTorch's serial kernels over
/// `at::*_distribution<double>`), rounded to `dtype`.
fn per_element(
    shape: &[usize],
    strides: Option<&[isize]>,
    dtype: DType,
    generator: Option<&Generator>,
    mut f: impl FnMut(&mut CpuGenerator) -> f64,
) -> Result<Tensor> {
    let n = checked_numel(shape)?;
    let mut g = or_default(generator).lock();
    let v: Vec<f64> = collect_n(n, std::iter::repeat_with(|| f(&mut g)))?;
    drop(g);
    in_dtype(place(v, shape, strides)?, dtype)
}

/// Cauchy values (`cauchy_`): `median + sigma · tan(π (u - 1/2))` of a uniform double.
pub fn cauchy(
    shape: &[usize],
    strides: Option<&[isize]>,
    dtype: DType,
    median: f64,
    sigma: f64,
    generator: Option<&Generator>,
) -> Result<Tensor> {
    positive("cauchy_", "sigma", sigma)?;
    continuous_only("Cauchy", dtype, dtype.cpp_name())?;
    per_element(shape, strides, dtype, generator, |g| {
        median + sigma * (std::f64::consts::PI * (g.uniform01_f64() - 0.5)).tan()
    })
}

/// Log-normal values (`log_normal_`): `exp` of `at::normal_distribution<double>`'s samples
/// (with the generator's cached second value).
pub fn log_normal(
    shape: &[usize],
    strides: Option<&[isize]>,
    dtype: DType,
    mean: f64,
    std: f64,
    generator: Option<&Generator>,
) -> Result<Tensor> {
    positive("log_normal_", "std", std)?;
    if !dtype.is_floating() {
        return Err(not_implemented("log_normal_cpu", dtype));
    }
    per_element(shape, strides, dtype, generator, |g| {
        g.normal_f64(mean, std).exp()
    })
}

/// Geometric values (`geometric_`): the number of Bernoulli(p) trials to the first success,
/// `ceil(log(u) / log(1 - p))` of a uniform double; integer dtypes too (not bool or complex).
pub fn geometric(
    shape: &[usize],
    strides: Option<&[isize]>,
    dtype: DType,
    p: f64,
    generator: Option<&Generator>,
) -> Result<Tensor> {
    if !(0.0 < p && p < 1.0) {
        return Err(Error::Runtime(format!(
            "geometric_ expects p to be in (0, 1), but got p={}",
            cpp_double(p)
        )));
    }
    if dtype == DType::Bool || dtype.is_complex() {
        return Err(not_implemented("geometric_cpu", dtype));
    }
    per_element(shape, strides, dtype, generator, |g| {
        (g.uniform01_f64().ln() / (1.0 - p).ln()).ceil()
    })
}

/// A distribution to fill a tensor from: the parameters of one of the functions above.
#[derive(Debug, Clone, Copy)]
pub enum Draw {
    /// [`uniform`]: U(from, to).
    Uniform { from: f64, to: f64 },
    /// [`normal`]: N(mean, std²).
    Normal { mean: f64, std: f64 },
    /// [`randint`]: integers in [low, high).
    Range { low: i64, high: i128 },
    /// [`random_full`]: `random_()` without bounds.
    FullRange,
    /// [`bernoulli_scalar`]: 1 with probability p.
    Bernoulli { p: f64 },
    /// [`exponential`]: rate `lambd`.
    Exponential { lambd: f64 },
    /// [`cauchy`]: location `median`, scale `sigma`.
    Cauchy { median: f64, sigma: f64 },
    /// [`log_normal`]: `exp` of N(mean, std²).
    LogNormal { mean: f64, std: f64 },
    /// [`geometric`]: success probability `p`.
    Geometric { p: f64 },
}

/// The values a tensor of `shape` laid out with `strides` (None: contiguous) gets from `d`, in
/// PyTorch's drawing order.
pub fn draw(
    d: Draw,
    shape: &[usize],
    strides: Option<&[isize]>,
    dtype: DType,
    generator: Option<&Generator>,
) -> Result<Tensor> {
    match d {
        Draw::Uniform { from, to } => uniform(shape, strides, dtype, from, to, generator),
        Draw::Normal { mean, std } => normal(shape, strides, dtype, mean, std, generator),
        Draw::Range { low, high } => randint(shape, strides, dtype, low, high, generator),
        Draw::FullRange => random_full(shape, strides, dtype, generator),
        Draw::Bernoulli { p } => bernoulli_scalar(shape, strides, dtype, p, generator),
        Draw::Exponential { lambd } => exponential(shape, strides, dtype, lambd, generator),
        Draw::Cauchy { median, sigma } => cauchy(shape, strides, dtype, median, sigma, generator),
        Draw::LogNormal { mean, std } => log_normal(shape, strides, dtype, mean, std, generator),
        Draw::Geometric { p } => geometric(shape, strides, dtype, p, generator),
    }
}
