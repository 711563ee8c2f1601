//! Private entry points the Python package builds on: composite ops recorded as one node,
//! in-place application of Python functions, `out=` for binary ops, randperm, number parsing.
use super::convert::number;
use super::ops::{out, R};
use super::tensor::{wrap, PyTensor};
use super::IntoPyResult;
use crate::ops;
use crate::tensor::Tensor;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// `fn(*inputs)` (written with leafgrad ops) recorded as one node named `name`.
#[pyfunction]
fn _composite<'py>(
    py: Python<'py>,
    name: String,
    f: Py<PyAny>,
    inputs: Vec<PyRef<'py, PyTensor>>,
) -> R<'py> {
    let ins: Vec<Tensor> = inputs.iter().map(|t| t.t.clone()).collect();
    let func: crate::engine::CompositeFn = std::sync::Arc::new(move |ts: &[Tensor]| {
        Python::attach(|py| -> PyResult<Tensor> {
            let args = ts
                .iter()
                .map(|t| wrap(py, t.clone()))
                .collect::<PyResult<Vec<_>>>()?;
            let r = f.call1(py, PyTuple::new(py, args)?)?;
            let r = r.bind(py);
            r.cast::<PyTensor>()
                .map(|t| t.get().t.clone())
                .map_err(|_| PyTypeError::new_err("a composite op must return a Tensor"))
        })
        .map_err(super::stash)
    });
    out(py, crate::engine::composite(name, &ins, func))
}

/// `target.op_(...)` for an op written in Python: `f(snapshot of target)` is written into
/// `target` as an in-place op (its node becomes target's grad_fn; views update their base).
#[pyfunction]
fn _inplace_apply<'py>(
    target: &Bound<'py, PyTensor>,
    f: Py<PyAny>,
    others: Vec<PyRef<'py, PyTensor>>,
) -> PyResult<Bound<'py, PyTensor>> {
    let py = target.py();
    let os: Vec<Tensor> = others.iter().map(|t| t.t.clone()).collect();
    let refs: Vec<&Tensor> = os.iter().collect();
    ops::apply_inplace(&target.get().t, &refs, |s| {
        (|| -> PyResult<Tensor> {
            let r = f.call1(py, (wrap(py, s.clone())?,))?;
            let r = r.bind(py);
            r.cast::<PyTensor>()
                .map(|t| t.get().t.clone())
                .map_err(|_| PyTypeError::new_err("an in-place op must compute a Tensor"))
        })()
        .map_err(super::stash)
    })
    .py()?;
    Ok(target.clone())
}

/// `torch.add(a, b, out=out)` and friends: into `out`'s memory when the layouts allow it.
#[pyfunction]
fn _binary_out<'py>(
    op: &str,
    a: PyRef<'py, PyTensor>,
    b: PyRef<'py, PyTensor>,
    out: PyRef<'py, PyTensor>,
) -> PyResult<bool> {
    let (a, b, o) = (&a.t, &b.t, &out.t);
    let dt = o.dtype();
    if a.dtype() != dt
        || b.dtype() != dt
        || a.requires_grad()
        || b.requires_grad()
        || o.requires_grad()
    {
        return Ok(false);
    }
    let done = match (op, dt) {
        ("add", crate::DType::Float32) => {
            crate::backend::cpu::map2_into::<f32>(a, b, o, |x, y| x + y)
        }
        ("add", crate::DType::Float64) => {
            crate::backend::cpu::map2_into::<f64>(a, b, o, |x, y| x + y)
        }
        ("sub", crate::DType::Float32) => {
            crate::backend::cpu::map2_into::<f32>(a, b, o, |x, y| x - y)
        }
        ("sub", crate::DType::Float64) => {
            crate::backend::cpu::map2_into::<f64>(a, b, o, |x, y| x - y)
        }
        ("mul", crate::DType::Float32) => {
            crate::backend::cpu::map2_into::<f32>(a, b, o, |x, y| x * y)
        }
        ("mul", crate::DType::Float64) => {
            crate::backend::cpu::map2_into::<f64>(a, b, o, |x, y| x * y)
        }
        ("div", crate::DType::Float32) => {
            crate::backend::cpu::map2_into::<f32>(a, b, o, |x, y| x / y)
        }
        ("div", crate::DType::Float64) => {
            crate::backend::cpu::map2_into::<f64>(a, b, o, |x, y| x / y)
        }
        _ => false,
    };
    if done {
        o.bump_version();
    }
    Ok(done)
}

#[pyfunction]
fn _randperm<'py>(py: Python<'py>, n: i64, dtype: &Bound<'py, PyAny>) -> R<'py> {
    if n < 0 {
        return Err(pyo3::exceptions::PyRuntimeError::new_err(format!(
            "n must be non-negative, got{}",
            n
        )));
    }
    let mut v: Vec<i64> = crate::backend::cpu::alloc_vec(n as usize)?;
    v.extend(0..n);
    crate::random::with_rng(|r| {
        for i in (1..v.len()).rev() {
            let j = (r.next_u64() % (i as u64 + 1)) as usize;
            v.swap(i, j);
        }
    });
    let t = Tensor::from_vec(v, &[n as usize]).py()?;
    out(
        py,
        crate::backend::cast(&t, super::convert::extract_dtype(dtype)?),
    )
}

#[pyfunction]
fn _number(o: &Bound<'_, PyAny>) -> PyResult<num_complex::Complex64> {
    number(o)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_composite, m)?)?;
    m.add_function(wrap_pyfunction!(_inplace_apply, m)?)?;
    m.add_function(wrap_pyfunction!(_binary_out, m)?)?;
    m.add_function(wrap_pyfunction!(_randperm, m)?)?;
    m.add_function(wrap_pyfunction!(_number, m)?)?;
    Ok(())
}
