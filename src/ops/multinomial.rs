//! `torch.multinomial`, drawn as PyTorch's CPU kernel draws it (split from `random.rs`, whose
//! generator and conversions it uses).
use super::random::exponential;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::random::{or_default, Generator};
use crate::tensor::Tensor;

/// `torch.multinomial`: `n_sample` category indices per row of the probabilities `p` (1-D or
/// 2-D, any non-negative weights). One sample, or samples without replacement, take PyTorch's
/// exponential trick: argmax (top-k) of `p / q` with `q ~ Exp(1)` drawn in `p`'s dtype;
/// samples with replacement search the normalised cumulative weights with one uniform double
/// each.
pub fn multinomial(
    p: &Tensor,
    n_sample: i64,
    replacement: bool,
    generator: Option<&Generator>,
) -> Result<Tensor> {
    let shape = p.shape();
    let dt = p.dtype();
    if shape.is_empty() || shape.len() > 2 {
        return Err(Error::Runtime("prob_dist must be 1 or 2 dim".into()));
    }
    if !dt.is_floating() {
        return Err(Error::Runtime(format!(
            "multinomial only supports floating-point dtypes for input, got: {}",
            dt.scalar_type_name()
        )));
    }
    if n_sample <= 0 {
        return Err(Error::Runtime("cannot sample n_sample <= 0 samples".into()));
    }
    let n_sample = n_sample as usize;
    let cats = shape[shape.len() - 1];
    if !replacement && n_sample > cats {
        return Err(Error::Runtime(
            "cannot sample n_sample > prob_dist.size(-1) samples without replacement".into(),
        ));
    }
    if cats > 1 << 24 {
        return Err(Error::Runtime(
            "number of categories cannot exceed 2^24".into(),
        ));
    }
    let rows = if shape.len() == 2 { shape[0] } else { 1 };
    let out_shape: Vec<usize> = if shape.len() == 2 {
        vec![rows, n_sample]
    } else {
        vec![n_sample]
    };
    if rows * n_sample == 0 {
        return Tensor::zeros(&out_shape, DType::Int64);
    }
    let probs = p.detached().try_to_vec::<f64>()?;
    let mut out: Vec<i64> = Vec::with_capacity(rows * n_sample);
    if !replacement || n_sample == 1 {
        if probs
            .iter()
            .any(|&v| v.is_nan() || v == f64::INFINITY || v < 0.0)
        {
            return Err(Error::Runtime(
                "probability tensor contains either `inf`, `nan` or element < 0".into(),
            ));
        }
        if probs
            .chunks(cats.max(1))
            .any(|r| r.iter().sum::<f64>() == 0.0)
        {
            return Err(Error::Runtime(
                "invalid multinomial distribution (sum of probabilities <= 0)".into(),
            ));
        }
        let strides: Vec<isize> = p.strides().to_vec();
        let q = exponential(&shape, Some(&strides), dt, 1.0, generator)?;
        // p / q in p's dtype (a 16-bit type divides in float32 and rounds)
        let ratio = {
            let _g = crate::grad_mode::GradModeGuard::new(false);
            super::div(&p.detached(), &q)?
        };
        let r = ratio.try_to_vec::<f64>()?;
        for row in r.chunks(cats) {
            let mut idx: Vec<usize> = (0..cats).collect();
            // the largest first; NaN ranks above all as in PyTorch's argmax; ties keep order
            idx.sort_by(|&a, &b| {
                let (x, y) = (row[a], row[b]);
                match (x.is_nan(), y.is_nan()) {
                    (true, true) => std::cmp::Ordering::Equal,
                    (true, false) => std::cmp::Ordering::Less,
                    (false, true) => std::cmp::Ordering::Greater,
                    _ => y.partial_cmp(&x).unwrap_or(std::cmp::Ordering::Equal),
                }
            });
            out.extend(idx[..n_sample].iter().map(|&i| i as i64));
        }
    } else {
        let mut g = or_default(generator).lock();
        let single = !matches!(dt, DType::Float64);
        for row in probs.chunks(cats) {
            // the running sums in the dtype's accumulation type (float32 below float64)
            let mut cum = Vec::with_capacity(cats);
            let mut sum = 0f64;
            for &v in row {
                // NaN fails this check first, as in PyTorch
                if v.is_nan() || v < 0.0 {
                    return Err(Error::Runtime(
                        "invalid multinomial distribution (encountering probability entry < 0)"
                            .into(),
                    ));
                }
                if !v.is_finite() {
                    return Err(Error::Runtime("invalid multinomial distribution (encountering probability entry = infinity or NaN)".into()));
                }
                sum = if single {
                    (sum as f32 + v as f32) as f64
                } else {
                    sum + v
                };
                cum.push(sum);
            }
            if sum.is_nan() || sum <= 0.0 {
                return Err(Error::Runtime(
                    "invalid multinomial distribution (sum of probabilities <= 0)".into(),
                ));
            }
            for c in cum.iter_mut() {
                *c = if single {
                    (*c as f32 / sum as f32) as f64
                } else {
                    *c / sum
                };
            }
            cum[cats - 1] = 1.0;
            for _ in 0..n_sample {
                let u = g.uniform01_f64();
                out.push(cum.partition_point(|&c| c < u) as i64);
            }
        }
    }
    Tensor::from_vec(out, &out_shape)
}
