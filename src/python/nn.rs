//! The kernels nn.functional calls: softmax/log_softmax, nll_loss, conv2d, pooling, embedding,
//! layer_norm, the activations.
use super::convert::int_arg;
use super::ops::{out, R};
use super::tensor::{wrap, PyTensor};
use super::IntoPyResult;
use crate::ops;
use pyo3::prelude::*;

#[pyfunction]
#[pyo3(signature = (input, target, weight, ignore_index, reduction))]
fn _nll_loss<'py>(
    py: Python<'py>,
    input: PyRef<'py, PyTensor>,
    target: PyRef<'py, PyTensor>,
    weight: Option<PyRef<'py, PyTensor>>,
    ignore_index: i64,
    reduction: &str,
) -> R<'py> {
    let r = ops::Reduction::parse(reduction).py()?;
    out(
        py,
        ops::nll_loss(
            &input.t,
            &target.t,
            weight.as_ref().map(|w| &w.t),
            ignore_index,
            r,
        ),
    )
}

fn pair(o: &Bound<'_, PyAny>, name: &str) -> PyResult<(usize, usize)> {
    let v: Vec<i64> = if let Ok(i) = o.extract::<i64>() {
        vec![i, i]
    } else {
        o.extract()?
    };
    let v = if v.len() == 1 { vec![v[0], v[0]] } else { v };
    if v.len() != 2 || v.iter().any(|&x| x < 0) {
        return Err(pyo3::exceptions::PyRuntimeError::new_err(format!(
            "{} must be a non-negative int or a pair of them",
            name
        )));
    }
    Ok((v[0] as usize, v[1] as usize))
}

#[pyfunction]
#[pyo3(signature = (input, weight, bias, stride, padding, dilation, groups))]
#[allow(clippy::too_many_arguments)]
fn _conv2d<'py>(
    py: Python<'py>,
    input: PyRef<'py, PyTensor>,
    weight: PyRef<'py, PyTensor>,
    bias: Option<PyRef<'py, PyTensor>>,
    stride: &Bound<'py, PyAny>,
    padding: &Bound<'py, PyAny>,
    dilation: &Bound<'py, PyAny>,
    groups: i64,
) -> R<'py> {
    let stride = pair(stride, "stride")?;
    if stride.0 == 0 || stride.1 == 0 {
        return Err(pyo3::exceptions::PyRuntimeError::new_err(
            "non-positive stride is not supported",
        ));
    }
    let a = ops::Conv2dArgs {
        stride,
        padding: pair(padding, "padding")?,
        dilation: pair(dilation, "dilation")?,
        groups: groups.max(0) as usize,
    };
    if a.dilation.0 == 0 || a.dilation.1 == 0 {
        return Err(pyo3::exceptions::PyRuntimeError::new_err(
            "dilation should be greater than zero",
        ));
    }
    let (x, w, b) = (&input.t, &weight.t, bias.as_ref().map(|b| &b.t));
    let mut ins = vec![x, w];
    ins.extend(b);
    let work = x.numel() * w.shape().iter().skip(1).product::<usize>();
    super::ops::heavy(py, &ins, work, || ops::conv2d(x, w, b, &a))
}

#[pyfunction]
#[pyo3(signature = (input, kernel_size, stride, padding, dilation, ceil_mode, is_max, count_include_pad = true, divisor_override = None))]
#[allow(clippy::too_many_arguments)]
fn _pool2d<'py>(
    py: Python<'py>,
    input: PyRef<'py, PyTensor>,
    kernel_size: &Bound<'py, PyAny>,
    stride: &Bound<'py, PyAny>,
    padding: &Bound<'py, PyAny>,
    dilation: &Bound<'py, PyAny>,
    ceil_mode: bool,
    is_max: bool,
    count_include_pad: bool,
    divisor_override: Option<i64>,
) -> R<'py> {
    let kernel = pair(kernel_size, "kernel_size")?;
    let stride = if stride.is_none() {
        kernel
    } else {
        pair(stride, "stride")?
    };
    if kernel.0 == 0 || kernel.1 == 0 || stride.0 == 0 || stride.1 == 0 {
        return Err(pyo3::exceptions::PyRuntimeError::new_err(
            "kernel size and stride should be greater than zero",
        ));
    }
    let a = ops::PoolArgs {
        kernel,
        stride,
        padding: pair(padding, "padding")?,
        dilation: pair(dilation, "dilation")?,
        ceil_mode,
        count_include_pad,
        divisor_override,
    };
    if is_max {
        out(py, ops::max_pool2d(&input.t, &a))
    } else {
        out(py, ops::avg_pool2d(&input.t, &a))
    }
}

#[pyfunction]
fn _embedding<'py>(
    py: Python<'py>,
    weight: PyRef<'py, PyTensor>,
    indices: PyRef<'py, PyTensor>,
) -> R<'py> {
    out(py, ops::embedding(&weight.t, &indices.t))
}

#[pyfunction]
#[pyo3(signature = (input, normalized_shape, weight, bias, eps))]
fn _layer_norm<'py>(
    py: Python<'py>,
    input: PyRef<'py, PyTensor>,
    normalized_shape: Vec<usize>,
    weight: Option<PyRef<'py, PyTensor>>,
    bias: Option<PyRef<'py, PyTensor>>,
    eps: f64,
) -> R<'py> {
    out(
        py,
        ops::layer_norm(
            &input.t,
            &normalized_shape,
            weight.as_ref().map(|w| &w.t),
            bias.as_ref().map(|b| &b.t),
            eps,
        ),
    )
}

#[pyfunction]
#[pyo3(signature = (input, num_groups, weight, bias, eps))]
fn _group_norm<'py>(
    py: Python<'py>,
    input: PyRef<'py, PyTensor>,
    num_groups: usize,
    weight: Option<PyRef<'py, PyTensor>>,
    bias: Option<PyRef<'py, PyTensor>>,
    eps: f64,
) -> R<'py> {
    let (w, b) = (weight.as_ref().map(|t| &t.t), bias.as_ref().map(|t| &t.t));
    out(py, ops::group_norm(&input.t, num_groups, w, b, eps))
}

#[pyfunction]
#[pyo3(signature = (input, weight, bias, running_mean, running_var, training, momentum, eps))]
#[allow(clippy::too_many_arguments)]
fn _batch_norm<'py>(
    py: Python<'py>,
    input: PyRef<'py, PyTensor>,
    weight: Option<PyRef<'py, PyTensor>>,
    bias: Option<PyRef<'py, PyTensor>>,
    running_mean: Option<PyRef<'py, PyTensor>>,
    running_var: Option<PyRef<'py, PyTensor>>,
    training: bool,
    momentum: f64,
    eps: f64,
) -> R<'py> {
    let running = match (&running_mean, &running_var) {
        (Some(m), Some(v)) => Some(ops::RunningStats {
            mean: &m.t,
            var: &v.t,
        }),
        (None, None) => None,
        (m, _) if !training => {
            let missing = if m.is_none() { "mean" } else { "var" };
            return Err(pyo3::exceptions::PyRuntimeError::new_err(format!(
                "running_{missing} must be defined in evaluation mode"
            )));
        }
        _ => {
            return Err(pyo3::exceptions::PyValueError::new_err(
                "running_mean and running_var must either both be None or neither be None",
            ))
        }
    };
    out(
        py,
        ops::batch_norm(
            &input.t,
            weight.as_ref().map(|w| &w.t),
            bias.as_ref().map(|b| &b.t),
            running,
            training,
            momentum,
            eps,
        ),
    )
}

/// `torch.threshold(input, threshold, value)` / `threshold_` (`inplace`).
#[pyfunction]
fn _threshold<'py>(
    py: Python<'py>,
    input: Bound<'py, PyTensor>,
    threshold: f64,
    value: f64,
    inplace: bool,
) -> PyResult<Bound<'py, PyAny>> {
    if inplace {
        return Ok(super::ops::inplace(&input, &[], |t| {
            ops::threshold(t, threshold, value, "ThresholdBackward1")
        })?
        .into_any());
    }
    out(
        py,
        ops::threshold(&input.get().t, threshold, value, "ThresholdBackward0"),
    )
}

#[pymethods]
impl PyTensor {
    #[pyo3(signature = (dim = None, dtype = None, *, axis = None))]
    fn softmax<'py>(
        &self,
        py: Python<'py>,
        dim: Option<&Bound<'py, PyAny>>,
        dtype: Option<&Bound<'py, PyAny>>,
        axis: Option<&Bound<'py, PyAny>>,
    ) -> R<'py> {
        let dim = required_dim("softmax", dim, axis)?;
        let dim = int_arg(&dim, "softmax", "dim", 1)?;
        let src = match dtype {
            Some(d) if !d.is_none() => {
                ops::to_dtype(&self.t, super::convert::extract_dtype(d)?).py()?
            }
            _ => self.t.clone(),
        };
        out(py, ops::softmax(&src, dim))
    }
    #[pyo3(signature = (dim = None, dtype = None, *, axis = None))]
    fn log_softmax<'py>(
        &self,
        py: Python<'py>,
        dim: Option<&Bound<'py, PyAny>>,
        dtype: Option<&Bound<'py, PyAny>>,
        axis: Option<&Bound<'py, PyAny>>,
    ) -> R<'py> {
        let dim = required_dim("log_softmax", dim, axis)?;
        let dim = int_arg(&dim, "log_softmax", "dim", 1)?;
        let src = match dtype {
            Some(d) if !d.is_none() => {
                ops::to_dtype(&self.t, super::convert::extract_dtype(d)?).py()?
            }
            _ => self.t.clone(),
        };
        out(py, ops::log_softmax(&src, dim))
    }
}

#[pyfunction]
fn _leaky_relu<'py>(
    py: Python<'py>,
    input: PyRef<'py, PyTensor>,
    negative_slope: f64,
    inplace: bool,
) -> R<'py> {
    out(py, ops::leaky_relu(&input.t, negative_slope, inplace))
}

#[pyfunction]
fn _silu<'py>(py: Python<'py>, input: PyRef<'py, PyTensor>) -> R<'py> {
    out(py, ops::silu(&input.t))
}

#[pyfunction]
fn _elu<'py>(py: Python<'py>, input: PyRef<'py, PyTensor>, alpha: f64, inplace: bool) -> R<'py> {
    out(py, ops::elu(&input.t, alpha, inplace))
}

#[pyfunction]
fn _selu<'py>(py: Python<'py>, input: PyRef<'py, PyTensor>, inplace: bool) -> R<'py> {
    out(py, ops::selu(&input.t, inplace))
}

#[pyfunction]
fn _celu<'py>(py: Python<'py>, input: PyRef<'py, PyTensor>, alpha: f64, inplace: bool) -> R<'py> {
    out(py, ops::celu(&input.t, alpha, inplace))
}

#[pyfunction]
fn _mish<'py>(py: Python<'py>, input: PyRef<'py, PyTensor>) -> R<'py> {
    out(py, ops::mish(&input.t))
}

#[pyfunction]
fn _hardswish<'py>(py: Python<'py>, input: PyRef<'py, PyTensor>) -> R<'py> {
    out(py, ops::hardswish(&input.t))
}

#[pyfunction]
fn _hardsigmoid<'py>(py: Python<'py>, input: PyRef<'py, PyTensor>) -> R<'py> {
    out(py, ops::hardsigmoid(&input.t))
}

#[pyfunction]
fn _logsigmoid<'py>(py: Python<'py>, input: PyRef<'py, PyTensor>) -> R<'py> {
    out(py, ops::logsigmoid(&input.t))
}

#[pyfunction]
fn _hardshrink<'py>(py: Python<'py>, input: PyRef<'py, PyTensor>, lambd: f64) -> R<'py> {
    out(py, ops::hardshrink(&input.t, lambd))
}

#[pyfunction]
fn _softshrink<'py>(py: Python<'py>, input: PyRef<'py, PyTensor>, lambd: f64) -> R<'py> {
    out(py, ops::softshrink(&input.t, lambd))
}

#[pyfunction]
fn _glu<'py>(py: Python<'py>, input: PyRef<'py, PyTensor>, dim: &Bound<'py, PyAny>) -> R<'py> {
    let dim = super::convert::int_arg(dim, "glu", "dim", 2)?;
    out(py, ops::glu(&input.t, dim))
}

#[pyfunction]
fn _prelu_kernel<'py>(
    py: Python<'py>,
    input: PyRef<'py, PyTensor>,
    weight: PyRef<'py, PyTensor>,
) -> R<'py> {
    out(py, ops::prelu_kernel(&input.t, &weight.t))
}

#[pyfunction]
fn _hardtanh<'py>(
    py: Python<'py>,
    input: PyRef<'py, PyTensor>,
    min_val: f64,
    max_val: f64,
) -> R<'py> {
    out(py, ops::hardtanh(&input.t, min_val, max_val))
}

#[pyfunction]
fn _softplus<'py>(
    py: Python<'py>,
    input: PyRef<'py, PyTensor>,
    beta: f64,
    threshold: f64,
) -> R<'py> {
    out(py, ops::softplus(&input.t, beta, threshold))
}

#[pyfunction]
fn _gelu<'py>(py: Python<'py>, input: PyRef<'py, PyTensor>, approximate: &str) -> R<'py> {
    let a = match approximate {
        "none" => ops::GeluApprox::None,
        "tanh" => ops::GeluApprox::Tanh,
        _ => {
            return Err(pyo3::exceptions::PyRuntimeError::new_err(
                "approximate argument must be either none or tanh.",
            ))
        }
    };
    out(py, ops::gelu(&input.t, a))
}

#[pyfunction]
fn _tril<'py>(
    py: Python<'py>,
    input: PyRef<'py, PyTensor>,
    diagonal: &Bound<'py, PyAny>,
    upper: bool,
) -> R<'py> {
    let f = if upper { "triu" } else { "tril" };
    let diagonal = int_arg(diagonal, f, "diagonal", 2)?;
    match upper {
        false => out(py, ops::tril(&input.t, diagonal)),
        true => out(py, ops::triu(&input.t, diagonal)),
    }
}

#[pyfunction]
fn _diag<'py>(
    py: Python<'py>,
    input: PyRef<'py, PyTensor>,
    diagonal: &Bound<'py, PyAny>,
) -> R<'py> {
    let diagonal = int_arg(diagonal, "diag", "diagonal", 2)?;
    out(py, ops::diag(&input.t, diagonal))
}

#[pyfunction]
fn _trace<'py>(py: Python<'py>, input: PyRef<'py, PyTensor>) -> R<'py> {
    out(py, ops::trace(&input.t))
}

#[pyfunction]
fn _roll<'py>(
    py: Python<'py>,
    input: PyRef<'py, PyTensor>,
    shifts: Vec<i64>,
    dims: Vec<i64>,
) -> R<'py> {
    out(py, ops::roll(&input.t, &shifts, &dims))
}

#[pyfunction]
fn _div_scalar<'py>(py: Python<'py>, input: PyRef<'py, PyTensor>, other: f64) -> R<'py> {
    out(py, ops::div_scalar(&input.t, other))
}

#[pyfunction]
fn _flip<'py>(py: Python<'py>, input: PyRef<'py, PyTensor>, dims: Vec<i64>) -> R<'py> {
    out(py, ops::flip(&input.t, &dims))
}

#[pyfunction]
fn _complex<'py>(
    py: Python<'py>,
    real: PyRef<'py, PyTensor>,
    imag: PyRef<'py, PyTensor>,
) -> R<'py> {
    out(py, ops::complex(&real.t, &imag.t))
}

#[pyfunction]
#[pyo3(signature = (input, target, weight, reduction))]
fn _binary_cross_entropy<'py>(
    py: Python<'py>,
    input: PyRef<'py, PyTensor>,
    target: PyRef<'py, PyTensor>,
    weight: Option<PyRef<'py, PyTensor>>,
    reduction: &str,
) -> R<'py> {
    let r = ops::Reduction::parse(reduction).py()?;
    let w = weight.as_ref().map(|w| &w.t);
    out(py, ops::binary_cross_entropy(&input.t, &target.t, w, r))
}

#[pyfunction]
#[pyo3(signature = (input, target, weight, pos_weight, reduction))]
fn _binary_cross_entropy_with_logits<'py>(
    py: Python<'py>,
    input: PyRef<'py, PyTensor>,
    target: PyRef<'py, PyTensor>,
    weight: Option<PyRef<'py, PyTensor>>,
    pos_weight: Option<PyRef<'py, PyTensor>>,
    reduction: &str,
) -> R<'py> {
    let r = ops::Reduction::parse(reduction).py()?;
    let (w, pw) = (
        weight.as_ref().map(|w| &w.t),
        pos_weight.as_ref().map(|w| &w.t),
    );
    out(
        py,
        ops::binary_cross_entropy_with_logits(&input.t, &target.t, w, pw, r),
    )
}

#[pyfunction]
#[pyo3(signature = (input, target, reduction))]
fn _mse_loss<'py>(
    py: Python<'py>,
    input: PyRef<'py, PyTensor>,
    target: PyRef<'py, PyTensor>,
    reduction: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let r = ops::Reduction::parse(reduction).py()?;
    wrap(py, ops::mse_loss(&input.t, &target.t, r).py()?)
}

#[pyfunction]
#[pyo3(signature = (input, target, reduction))]
fn _l1_loss<'py>(
    py: Python<'py>,
    input: PyRef<'py, PyTensor>,
    target: PyRef<'py, PyTensor>,
    reduction: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let r = ops::Reduction::parse(reduction).py()?;
    wrap(py, ops::l1_loss(&input.t, &target.t, r).py()?)
}

#[pyfunction]
fn _smooth_l1_loss<'py>(
    py: Python<'py>,
    input: PyRef<'py, PyTensor>,
    target: PyRef<'py, PyTensor>,
    reduction: &str,
    beta: f64,
) -> R<'py> {
    let r = ops::Reduction::parse(reduction).py()?;
    out(py, ops::smooth_l1_loss(&input.t, &target.t, r, beta))
}

#[pyfunction]
fn _huber_loss<'py>(
    py: Python<'py>,
    input: PyRef<'py, PyTensor>,
    target: PyRef<'py, PyTensor>,
    reduction: &str,
    delta: f64,
) -> R<'py> {
    let r = ops::Reduction::parse(reduction).py()?;
    out(py, ops::huber_loss(&input.t, &target.t, r, delta))
}

#[pyfunction]
fn _soft_margin_loss<'py>(
    py: Python<'py>,
    input: PyRef<'py, PyTensor>,
    target: PyRef<'py, PyTensor>,
    reduction: &str,
) -> R<'py> {
    let r = ops::Reduction::parse(reduction).py()?;
    out(py, ops::soft_margin_loss(&input.t, &target.t, r))
}

/// `F.linear` (see `ops::linear`).
#[pyfunction]
#[pyo3(signature = (input, weight, bias = None))]
fn _linear<'py>(
    py: Python<'py>,
    input: PyRef<'py, PyTensor>,
    weight: PyRef<'py, PyTensor>,
    bias: Option<PyRef<'py, PyTensor>>,
) -> R<'py> {
    let (x, w, b) = (&input.t, &weight.t, bias.as_ref().map(|b| &b.t));
    let mut ins = vec![x, w];
    ins.extend(b);
    let work = x.numel() + w.numel();
    super::ops::heavy(py, &ins, work, || ops::linear(x, w, b))
}

#[pyfunction]
fn _addmm<'py>(
    py: Python<'py>,
    input: PyRef<'py, PyTensor>,
    mat1: PyRef<'py, PyTensor>,
    mat2: PyRef<'py, PyTensor>,
) -> PyResult<Bound<'py, PyAny>> {
    wrap(py, ops::addmm(&input.t, &mat1.t, &mat2.t).py()?)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_binary_cross_entropy, m)?)?;
    m.add_function(wrap_pyfunction!(_binary_cross_entropy_with_logits, m)?)?;
    m.add_function(wrap_pyfunction!(_flip, m)?)?;
    m.add_function(wrap_pyfunction!(_complex, m)?)?;
    m.add_function(wrap_pyfunction!(_div_scalar, m)?)?;
    m.add_function(wrap_pyfunction!(_tril, m)?)?;
    m.add_function(wrap_pyfunction!(_diag, m)?)?;
    m.add_function(wrap_pyfunction!(_trace, m)?)?;
    m.add_function(wrap_pyfunction!(_roll, m)?)?;
    m.add_function(wrap_pyfunction!(_leaky_relu, m)?)?;
    m.add_function(wrap_pyfunction!(_silu, m)?)?;
    m.add_function(wrap_pyfunction!(_elu, m)?)?;
    m.add_function(wrap_pyfunction!(_group_norm, m)?)?;
    m.add_function(wrap_pyfunction!(_smooth_l1_loss, m)?)?;
    m.add_function(wrap_pyfunction!(_huber_loss, m)?)?;
    m.add_function(wrap_pyfunction!(_soft_margin_loss, m)?)?;
    m.add_function(wrap_pyfunction!(_selu, m)?)?;
    m.add_function(wrap_pyfunction!(_celu, m)?)?;
    m.add_function(wrap_pyfunction!(_mish, m)?)?;
    m.add_function(wrap_pyfunction!(_hardswish, m)?)?;
    m.add_function(wrap_pyfunction!(_hardsigmoid, m)?)?;
    m.add_function(wrap_pyfunction!(_logsigmoid, m)?)?;
    m.add_function(wrap_pyfunction!(_hardshrink, m)?)?;
    m.add_function(wrap_pyfunction!(_softshrink, m)?)?;
    m.add_function(wrap_pyfunction!(_glu, m)?)?;
    m.add_function(wrap_pyfunction!(_prelu_kernel, m)?)?;
    m.add_function(wrap_pyfunction!(_hardtanh, m)?)?;
    m.add_function(wrap_pyfunction!(_softplus, m)?)?;
    m.add_function(wrap_pyfunction!(_gelu, m)?)?;
    m.add_function(wrap_pyfunction!(_nll_loss, m)?)?;
    m.add_function(wrap_pyfunction!(_conv2d, m)?)?;
    m.add_function(wrap_pyfunction!(_pool2d, m)?)?;
    m.add_function(wrap_pyfunction!(_embedding, m)?)?;
    m.add_function(wrap_pyfunction!(_layer_norm, m)?)?;
    m.add_function(wrap_pyfunction!(_batch_norm, m)?)?;
    m.add_function(wrap_pyfunction!(_threshold, m)?)?;
    m.add_function(wrap_pyfunction!(_mse_loss, m)?)?;
    m.add_function(wrap_pyfunction!(_l1_loss, m)?)?;
    m.add_function(wrap_pyfunction!(_linear, m)?)?;
    m.add_function(wrap_pyfunction!(_addmm, m)?)?;
    Ok(())
}

/// A required `dim` given as `dim=` or NumPy's `axis=` (PyTorch's parser texts).
fn required_dim<'py>(
    name: &str,
    dim: Option<&Bound<'py, PyAny>>,
    axis: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    match (dim, axis) {
        (Some(_), Some(_)) => Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "{name}() got an unexpected keyword argument 'axis'"
        ))),
        (Some(d), None) | (None, Some(d)) => Ok(d.clone()),
        (None, None) => Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "{name}() missing 1 required positional arguments: \"dim\""
        ))),
    }
}
