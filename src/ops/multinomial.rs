//! `torch.multinomial`, drawn as PyTorch's CPU kernel draws it (split from `random.rs`, whose
//! generator and conversions it uses).
use super::random::{exponential, Draw};
use super::random_cuda::{draw_cuda, philox_u01, Launch};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::random::philox::CudaGenerator;
use crate::random::{or_default, Generator};
use crate::tensor::Tensor;

/// The generator a random op draws from: a CPU one (None: the default), or a CUDA device's
/// with that device's launch geometry.
#[derive(Clone, Copy)]
pub enum Rng<'a> {
    Cpu(Option<&'a Generator>),
    Cuda(&'a CudaGenerator, Launch),
}

/// `torch.multinomial`: `n_sample` category indices per row of the probabilities `p` (1-D or
/// 2-D, any non-negative weights). One sample, or samples without replacement, take PyTorch's
/// exponential trick: argmax (top-k) of `p / q` with `q ~ Exp(1)` drawn in `p`'s dtype;
/// samples with replacement search the normalised cumulative weights with one uniform double
/// each (on CUDA, one float per sample from the thread PyTorch's kernel gives it).
pub fn multinomial(p: &Tensor, n_sample: i64, replacement: bool, rng: Rng<'_>) -> Result<Tensor> {
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
        let q = match rng {
            Rng::Cpu(g) => exponential(&shape, Some(&strides), dt, 1.0, g)?,
            Rng::Cuda(g, l) => draw_cuda(
                Draw::Exponential { lambd: 1.0 },
                &shape,
                Some(&strides),
                dt,
                g,
                l,
            )?,
        };
        // p / q in p's dtype (a 16-bit type divides in float32 and rounds)
        let ratio = {
            let _g = crate::grad_mode::GradModeGuard::new(false);
            let host = if p.is_cuda() {
                crate::backend::to_device(&p.detached(), crate::device::Device::Cpu)?
            } else {
                p.detached()
            };
            super::div(&host, &q)?
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
        let single = !matches!(dt, DType::Float64);
        let mut rows_cum = Vec::with_capacity(rows);
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
            rows_cum.push(cum);
        }
        match rng {
            Rng::Cpu(generator) => {
                let mut g = or_default(generator).lock();
                for cum in &rows_cum {
                    for _ in 0..n_sample {
                        let u = g.uniform01_f64();
                        out.push(cum.partition_point(|&c| c < u) as i64);
                    }
                }
            }
            Rng::Cuda(g, _) => {
                out = with_replacement_cuda(&probs, &rows_cum, cats, n_sample, single, g);
            }
        }
    }
    Tensor::from_vec(out, &out_shape)
}

/// PyTorch's CUDA sampling with replacement (`sampleMultinomialWithReplacement`): 128-thread
/// blocks, a row of blocks per distribution (at most 65535 rows, then rows wrap), one
/// `curand_uniform4` per sample of which the first value is used, searched in the
/// normalised prefix sums (the last bucket with mass wins at the top; zero-mass buckets are
/// stepped back over).
fn with_replacement_cuda(
    probs: &[f64],
    cum: &[Vec<f64>],
    cats: usize,
    n_sample: usize,
    single: bool,
    g: &CudaGenerator,
) -> Vec<i64> {
    let rows = cum.len();
    let grid_y = rows.min(65535);
    let grid_x = (n_sample - 1) / 128 + 1;
    let increment = ((rows as u64 - 1) / grid_y as u64 + 1) * 4;
    let (seed, offset) = g.lock().reserve(increment);
    let mut out = Vec::with_capacity(rows * n_sample);
    for (d, c) in cum.iter().enumerate() {
        let dist = &probs[d * cats..(d + 1) * cats];
        let (by, pass) = (d % grid_y, d / grid_y);
        for sample in 0..n_sample {
            let idx = (by * grid_x * 128 + sample) as u64;
            let u = philox_u01(seed, offset, idx, pass as u64);
            let u = if single { u as f32 as f64 } else { u };
            let mut start = c.partition_point(|&v| v < u);
            if start == cats {
                start = cats - 1;
            }
            while start >= 1 && dist[start] == 0.0 {
                start -= 1;
            }
            out.push(start as i64);
        }
    }
    out
}
