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

/// `fn(*inputs)` (written with leafgrad ops) recorded as one node named `name`. `unread`: the
/// positions of inputs that `fn` is linear in, whose values its gradient never reads: they
/// are held for the recomputation but not saved (writing them in place is no error, as
/// PyTorch's node saves nothing of them). `saved`: PyTorch's names of the saved inputs
/// (`_saved_self`, ...; "input" by default). `result`: the output is saved too, as PyTorch's
/// node saves it (writing it in place before backward is then an error).
#[pyfunction]
#[pyo3(signature = (name, f, inputs, unread = Vec::new(), saved = None, result = false))]
fn _composite<'py>(
    py: Python<'py>,
    name: String,
    f: Py<PyAny>,
    inputs: Vec<PyRef<'py, PyTensor>>,
    unread: Vec<usize>,
    saved: Option<Vec<String>>,
    result: bool,
) -> R<'py> {
    if saved.as_ref().is_some_and(|n| n.len() != inputs.len()) {
        return Err(PyTypeError::new_err("_composite: one saved name per input"));
    }
    let names: Vec<&'static str> = match saved {
        Some(n) => n.iter().map(|s| crate::graph::node::intern(s)).collect(),
        None => vec!["input"; inputs.len()],
    };
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
    let how = crate::engine::CompositeSaves {
        unread: &unread,
        names: &names,
        result,
    };
    out(py, crate::engine::composite(name, &ins, how, func))
}

/// `f(x)` (written with leafgrad ops) whose gradient is the incoming one unchanged, recorded
/// as one node named `name` that saves nothing (`x + 1e-6` as ATen's `AddBackward1`).
#[pyfunction]
fn _passthrough<'py>(
    py: Python<'py>,
    name: String,
    f: Py<PyAny>,
    x: PyRef<'py, PyTensor>,
) -> R<'py> {
    let call = |t: &Tensor| -> crate::error::Result<Tensor> {
        (|| -> PyResult<Tensor> {
            let r = f.call1(py, (wrap(py, t.clone())?,))?;
            let r = r.bind(py);
            r.cast::<PyTensor>()
                .map(|t| t.get().t.clone())
                .map_err(|_| PyTypeError::new_err("a passthrough op must return a Tensor"))
        })()
        .map_err(super::stash)
    };
    out(py, crate::engine::passthrough(name, &x.t, &call))
}

/// A view of `x` recorded as UnsafeViewBackward0 (`at::_unsafe_view`, which PyTorch's
/// composite ops such as `kron` end with).
#[pyfunction]
#[pyo3(name = "_unsafe_view")]
fn view_recorded_as_unsafe<'py>(
    py: Python<'py>,
    x: PyRef<'py, PyTensor>,
    shape: Vec<i64>,
) -> R<'py> {
    out(py, ops::unsafe_view(&x.t, &shape))
}

/// `target.op_(...)` for an op written in Python: `f(snapshot of target)` is written into
/// `target` as an in-place op (its node becomes target's grad_fn; views update their base).
/// `allow_overlap`: an expanded target is written (only the elements `f` changed), not
/// refused.
#[pyfunction]
#[pyo3(signature = (target, f, others, allow_overlap = false))]
fn _inplace_apply<'py>(
    target: &Bound<'py, PyTensor>,
    f: Py<PyAny>,
    others: Vec<PyRef<'py, PyTensor>>,
    allow_overlap: bool,
) -> PyResult<Bound<'py, PyTensor>> {
    let py = target.py();
    let os: Vec<Tensor> = others.iter().map(|t| t.t.clone()).collect();
    let refs: Vec<&Tensor> = os.iter().collect();
    let overlap = if allow_overlap {
        ops::Overlap::Allow
    } else {
        ops::Overlap::Refuse
    };
    ops::apply_inplace_with(&target.get().t, &refs, overlap, |s| {
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

/// `torch.add(a, b, alpha=α, out=out)` and sub/mul/div (see `ops::arith_out`); `b` may be a
/// number.
#[pyfunction]
fn _binary_out<'py>(
    op: &str,
    a: PyRef<'py, PyTensor>,
    b: &Bound<'py, PyAny>,
    out: PyRef<'py, PyTensor>,
    alpha: f64,
) -> PyResult<()> {
    let b = super::convert::operand_or_type_error(b, op, "other")?;
    let op = match op {
        "add" => ops::BinOp::Add,
        "sub" => ops::BinOp::Sub,
        "mul" => ops::BinOp::Mul,
        "div" => ops::BinOp::Div,
        _ => return Err(PyTypeError::new_err(format!("unknown op {}", op))),
    };
    ops::arith_out(op, &a.t, &b, alpha, &out.t).py()
}

/// `torch.<name>(*inputs, out=out)` of a declared op (src/declared.rs).
#[pyfunction]
fn _declared_out(
    name: &str,
    inputs: Vec<Bound<'_, PyAny>>,
    out: PyRef<'_, PyTensor>,
) -> PyResult<()> {
    // (numbers only where the op has PyTorch's Scalar overloads: `_float_binary` checked)
    let ts: Vec<Tensor> = inputs
        .iter()
        .map(|t| super::convert::operand_or_type_error(t, name, "input"))
        .collect::<PyResult<_>>()?;
    let refs: Vec<&Tensor> = ts.iter().collect();
    let compute = || -> crate::Result<Tensor> {
        if let [x] = refs.as_slice() {
            if let Some(op) = ops::FloatUnary::ALL.iter().find(|o| o.name() == name) {
                return op.apply(x);
            }
            if let Some(op) = ops::Rounding::ALL.iter().find(|o| o.name() == name) {
                return op.apply(x);
            }
        }
        if let [a, b] = refs.as_slice() {
            if let Some(op) = ops::FloatBinary::ALL.iter().find(|o| o.name() == name) {
                return op.apply(a, b);
            }
        }
        Err(crate::Error::Type(format!(
            "{name}() got an unexpected keyword argument 'out'"
        )))
    };
    ops::write_out(name, &refs, &out.t, compute).py()
}

#[pyfunction]
fn _number(o: &Bound<'_, PyAny>) -> PyResult<num_complex::Complex64> {
    number(o)
}

/// The dims of `t` from outermost to innermost in memory, as PyTorch orders an elementwise
/// result of `t`; None when that is the row-major order (ops written in Python use it to keep
/// their input's layout).
#[pyfunction]
fn _layout_order(t: PyRef<'_, PyTensor>) -> Option<Vec<usize>> {
    let d = t.t.data();
    if d.is_contiguous() {
        return None;
    }
    let st = crate::backend::cpu::layout::result_strides(&d.shape, &[(&d.shape, &d.strides)])?;
    Some(crate::backend::cpu::layout::dims_by_stride(&d.shape, &st))
}

/// The whole memory under `t` as a 1-D tensor of `dtype` (the storage objects read and write
/// through it): offset 0, `nbytes / itemsize` elements, no autograd history, its own version
/// counter (writes through a storage are not seen by autograd, as in PyTorch).
#[pyfunction]
fn _storage_view<'py>(
    py: Python<'py>,
    t: PyRef<'py, PyTensor>,
    dtype: &Bound<'py, PyAny>,
) -> R<'py> {
    let dtype = super::convert::extract_dtype(dtype)?;
    let d = t.t.data();
    let n = d.storage.nbytes() / dtype.size();
    let data = crate::tensor::TensorData {
        storage: d.storage.clone(),
        shape: smallvec::smallvec![n],
        strides: smallvec::smallvec![1],
        offset: 0,
        dtype,
        version: Some(std::sync::Arc::new(std::sync::atomic::AtomicU32::new(0))),
        base: None,
        wrapped_number: false,
    };
    drop(d);
    wrap(py, Tensor::from_data(data))
}

// (pyo3's generated import of `_unsafe_view` trips clippy's unsafe-renaming lint)
#[allow(clippy::unsafe_removed_from_name)]
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_layout_order, m)?)?;
    m.add_function(wrap_pyfunction!(_composite, m)?)?;
    m.add_function(wrap_pyfunction!(_passthrough, m)?)?;
    m.add_function(wrap_pyfunction!(view_recorded_as_unsafe, m)?)?;
    m.add_function(wrap_pyfunction!(_inplace_apply, m)?)?;
    m.add_function(wrap_pyfunction!(_binary_out, m)?)?;
    m.add_function(wrap_pyfunction!(_declared_out, m)?)?;
    m.add_function(wrap_pyfunction!(_number, m)?)?;
    m.add_function(wrap_pyfunction!(_storage_view, m)?)?;
    Ok(())
}
