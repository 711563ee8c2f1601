//! Tensors made from numbers: ranges (arange, linspace), the identity (eye) and random values
//! (rand/randn, randint). The bindings delegate to these, so a Rust user of the crate makes
//! the same tensors with the same errors. Each fills a float64 (or int64) buffer and converts
//! it to the requested dtype, as the Python factories always did.
use crate::backend::copy_into;
use crate::backend::cpu::alloc_vec;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::shape::checked_numel;
use crate::tensor::Tensor;

/// `start, start + step, ...` up to `end` (excluded): `torch.arange`.
pub fn arange(start: f64, end: f64, step: f64, dtype: DType) -> Result<Tensor> {
    crate::dtype::shell_kernel_check(dtype, "arange_cpu")?;
    if step == 0.0 {
        return Err(Error::Runtime("step must be nonzero".into()));
    }
    if (step > 0.0 && start > end) || (step < 0.0 && start < end) {
        return Err(Error::Runtime(
            "upper bound and larger bound inconsistent with step sign".into(),
        ));
    }
    let n = ((end - start) / step).ceil();
    if !n.is_finite() || n > (isize::MAX as f64) / 8.0 {
        return Err(Error::Runtime(format!(
            "unsupported range: {} -> {}",
            start, end
        )));
    }
    let n = n.max(0.0) as usize;
    // the result first, so an allocation failure names its size
    let out = Tensor::zeros(&[n], dtype)?;
    let mut vals: Vec<f64> = alloc_vec(n)?;
    vals.extend((0..n).map(|i| start + i as f64 * step));
    copy_into(&out, &Tensor::from_vec(vals, &[n])?)?;
    Ok(out)
}

/// `steps` evenly spaced values from `start` to `end` (both included): `torch.linspace`. As
/// PyTorch, the second half is computed from the end, so the values are symmetric.
pub fn linspace(start: f64, end: f64, steps: i64, dtype: DType) -> Result<Tensor> {
    crate::dtype::shell_kernel_check(dtype, "linspace_cpu")?;
    if steps < 0 {
        return Err(Error::Runtime(
            "number of steps must be non-negative".into(),
        ));
    }
    let n = steps as usize;
    let out = Tensor::zeros(&[n], dtype)?;
    let mut vals: Vec<f64> = alloc_vec(n)?;
    vals.extend(linspace_values(start, end, n, dtype));
    copy_into(&out, &Tensor::from_vec(vals, &[n])?)?;
    Ok(out)
}

/// PyTorch's linspace kernel, value for value: the first half from `start`, the rest back from
/// `end`, each point one fused multiply-add (`fma(step, i, start)`, `fma(-step, n - 1 - i,
/// end)`) in the dtype's own arithmetic: float32 in float32, 16-bit floats rounding after
/// every operation (c10::Half arithmetic), float64 and the integer dtypes (whose bounds are
/// truncated first) in float64.
fn linspace_values(start: f64, end: f64, n: usize, dtype: DType) -> Vec<f64> {
    if n == 1 {
        // one point: `start` (PyTorch fills it without the kernel)
        return vec![start];
    }
    let half = n / 2;
    let back = |i: usize| (n - 1 - i) as f64;
    match dtype {
        DType::Float32 => {
            let (s, e) = (start as f32, end as f32);
            let step = if n > 1 { (e - s) / (n - 1) as f32 } else { 0.0 };
            (0..n)
                .map(|i| match i < half {
                    true => step.mul_add(i as f32, s),
                    false => (-step).mul_add(back(i) as f32, e),
                } as f64)
                .collect()
        }
        DType::Float16 | DType::BFloat16 => {
            let r = |v: f64| match dtype {
                DType::Float16 => half::f16::from_f64(v).to_f64(),
                _ => half::bf16::from_f64(v).to_f64(),
            };
            let (s, e) = (r(start), r(end));
            let step = if n > 1 {
                r(r(e - s) / r((n - 1) as f64))
            } else {
                0.0
            };
            (0..n)
                .map(|i| match i < half {
                    true => r(s + r(step * r(i as f64))),
                    false => r(e - r(step * r(back(i)))),
                })
                .collect()
        }
        _ => {
            let (s, e) = match dtype.is_floating() || dtype.is_complex() {
                true => (start, end),
                false => (start.trunc(), end.trunc()),
            };
            let step = if n > 1 { (e - s) / (n - 1) as f64 } else { 0.0 };
            (0..n)
                .map(|i| match i < half {
                    true => step.mul_add(i as f64, s),
                    false => (-step).mul_add(back(i), e),
                })
                .collect()
        }
    }
}

/// Ones on the diagonal of an `n × m` matrix: `torch.eye`.
pub fn eye(n: usize, m: usize, dtype: DType) -> Result<Tensor> {
    let total = checked_numel(&[n, m])?;
    // the result first, so an allocation failure names its size
    let out = Tensor::zeros(&[n, m], dtype)?;
    let mut vals: Vec<f64> = alloc_vec(total)?;
    vals.resize(total, 0.0);
    for i in 0..n.min(m) {
        vals[i * m + i] = 1.0;
    }
    copy_into(&out, &Tensor::from_vec(vals, &[n, m])?)?;
    Ok(out)
}

/// Uniform values in [0, 1) (`normal`: standard normal ones) from the default generator:
/// `torch.rand` / `torch.randn`, PyTorch's numbers for a seed (see [`super::random`]).
pub fn rand(shape: &[usize], normal: bool, dtype: DType) -> Result<Tensor> {
    if normal {
        super::random::normal(shape, None, dtype, 0.0, 1.0, None)
    } else {
        super::random::uniform(shape, None, dtype, 0.0, 1.0, None)
    }
}

/// Integers drawn uniformly from [low, high) by the default generator: `torch.randint`.
pub fn randint(low: i64, high: i64, shape: &[usize], dtype: DType) -> Result<Tensor> {
    super::random::randint(shape, None, dtype, low, high as i128, None)
}
