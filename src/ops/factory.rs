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
use num_complex::Complex64;

/// `start, start + step, ...` up to `end` (excluded): `torch.arange`.
pub fn arange(start: f64, end: f64, step: f64, dtype: DType) -> Result<Tensor> {
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
    if steps < 0 {
        return Err(Error::Runtime(
            "number of steps must be non-negative".into(),
        ));
    }
    let n = steps as usize;
    let out = Tensor::zeros(&[n], dtype)?;
    let mut vals: Vec<f64> = alloc_vec(n)?;
    let step = if n > 1 {
        (end - start) / (n - 1) as f64
    } else {
        0.0
    };
    vals.extend((0..n).map(|i| {
        if n == 1 {
            start
        } else if i < n / 2 {
            start + step * i as f64
        } else {
            end - step * (n - 1 - i) as f64
        }
    }));
    copy_into(&out, &Tensor::from_vec(vals, &[n])?)?;
    Ok(out)
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

/// Uniform values in [0, 1) (`normal`: standard normal ones) from the global generator:
/// `torch.rand` / `torch.randn`. Complex dtypes take two draws per element (normal ones
/// scaled by 1/√2, as PyTorch's complex randn). Not PyTorch's stream of numbers.
pub fn rand(shape: &[usize], normal: bool, dtype: DType) -> Result<Tensor> {
    if !dtype.is_differentiable() {
        return Err(Error::Runtime(format!(
            "\"{}\" not implemented for '{}'",
            if normal {
                "normal_kernel_cpu"
            } else {
                "check_uniform_bounds"
            },
            dtype.scalar_type_name()
        )));
    }
    let n = checked_numel(shape)?
        .checked_mul(if dtype.is_complex() { 2 } else { 1 })
        .ok_or_else(|| Error::Runtime("numel: integer multiplication overflow".into()))?;
    let out = Tensor::zeros(shape, dtype)?;
    let mut vals: Vec<f64> = alloc_vec(n)?;
    crate::random::with_rng(|r| {
        vals.extend((0..n).map(|_| if normal { r.normal() } else { r.uniform() }))
    });
    let t = if dtype.is_complex() {
        let scale = if normal {
            std::f64::consts::FRAC_1_SQRT_2
        } else {
            1.0
        };
        let c: Vec<Complex64> = vals
            .chunks(2)
            .map(|p| Complex64::new(p[0] * scale, p[1] * scale))
            .collect();
        Tensor::from_vec(c, shape)?
    } else {
        Tensor::from_vec(vals, shape)?
    };
    copy_into(&out, &t)?;
    Ok(out)
}

/// Integers drawn uniformly from [low, high): `torch.randint`.
pub fn randint(low: i64, high: i64, shape: &[usize], dtype: DType) -> Result<Tensor> {
    if high <= low {
        return Err(Error::Runtime(format!(
            "random_ expects 'from' to be less than 'to', but got from={} >= to={}",
            low, high
        )));
    }
    let n = checked_numel(shape)?;
    let out = Tensor::zeros(shape, dtype)?;
    let span = high.wrapping_sub(low) as u64;
    let mut vals: Vec<i64> = alloc_vec(n)?;
    crate::random::with_rng(|r| {
        vals.extend((0..n).map(|_| low.wrapping_add((r.next_u64() % span) as i64)))
    });
    copy_into(&out, &Tensor::from_vec(vals, shape)?)?;
    Ok(out)
}
