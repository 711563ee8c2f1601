//! Module functions for autograd: running backward / grad, grad modes, arena statistics.
use super::tensor::{wrap_opt, PyTensor};
use super::IntoPyResult;
use crate::engine::{self, BackwardOptions};
use crate::grad_mode;
use crate::tensor::Tensor;
use num_complex::Complex64;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

fn size_text(s: &[usize]) -> String {
    format!(
        "torch.Size([{}])",
        s.iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// PyTorch's `_make_grads`: check given gradients, create the implicit ones. Each output is a
/// tensor or a `GradientEdge` (then the node's metadata for that output says its shape).
fn make_grads(
    outputs: &[GradInput],
    grads: Vec<Option<Tensor>>,
) -> PyResult<Vec<(crate::graph::node::Edge, Tensor)>> {
    let mut roots = Vec::with_capacity(outputs.len());
    for (i, (out, g)) in outputs.iter().zip(grads).enumerate() {
        let (os, od, dev, requires_grad) = match out {
            GradInput::Tensor(t) => (t.shape(), t.dtype(), t.device(), t.requires_grad()),
            GradInput::Edge(e) => {
                let node = e.node.as_ref().expect("an edge from Python has a node");
                let m = node.output_meta.get(e.input_nr as usize).ok_or_else(|| {
                    PyRuntimeError::new_err("invalid gradient edge: no such output")
                })?;
                (m.shape.clone(), m.dtype, m.device, true)
            }
        };
        let g = match g {
            Some(g) => {
                let gs = g.shape();
                if gs != os {
                    return Err(PyRuntimeError::new_err(format!(
                        "Mismatch in shape: grad_output[{}] has a shape of {} and output[{}] has a shape of {}.",
                        i, size_text(&gs), i, size_text(&os)
                    )));
                }
                let gd = g.dtype();
                if gd.is_complex() != od.is_complex() {
                    return Err(PyRuntimeError::new_err(format!(
                        "For complex Tensors, both grad_output and output are required to have the same dtype. Mismatch in dtype: grad_output[{}] has a dtype of torch.{} and output[{}] has a dtype of torch.{}.",
                        i, gd.name(), i, od.name()
                    )));
                }
                if gd != od {
                    crate::backend::cast(&g, od)?
                } else {
                    g
                }
            }
            None => {
                if requires_grad {
                    if os.iter().product::<usize>() != 1 {
                        return Err(PyRuntimeError::new_err(
                            "grad can be implicitly created only for scalar outputs",
                        ));
                    }
                    if od.is_complex() {
                        return Err(PyRuntimeError::new_err(format!(
                            "grad can be implicitly created only for real scalar outputs but got torch.{}",
                            od.name()
                        )));
                    }
                }
                Tensor::full_on(&os, Complex64::new(1.0, 0.0), od, dev).py()?
            }
        };
        roots.push(g);
    }
    // then the engine's check (after every gradient was checked, as in PyTorch)
    let mut out = Vec::with_capacity(roots.len());
    for (i, (o, g)) in outputs.iter().zip(roots).enumerate() {
        let edge = o.edge()?;
        if edge.node.is_none() {
            return Err(PyRuntimeError::new_err(format!(
                "element {i} of tensors does not require grad and does not have a grad_fn"
            )));
        }
        out.push((edge, g));
    }
    Ok(out)
}

/// An input of `grad`/`backward`: a tensor, or a `GradientEdge` (node, input number), given by
/// Python as a `(node, int)` tuple.
enum GradInput {
    Tensor(Tensor),
    Edge(crate::graph::node::Edge),
}

impl GradInput {
    fn extract(obj: &Bound<'_, PyAny>) -> PyResult<GradInput> {
        if let Ok(t) = obj.cast::<PyTensor>() {
            return Ok(GradInput::Tensor(t.borrow().t.clone()));
        }
        let (node, nr): (PyRef<'_, super::node::PyNode>, u32) = obj.extract()?;
        Ok(GradInput::Edge(crate::graph::node::Edge {
            node: Some(node.node()?),
            input_nr: nr,
        }))
    }

    fn edge(&self) -> PyResult<crate::graph::node::Edge> {
        match self {
            GradInput::Tensor(t) => crate::ops::try_gradient_edge(t).py(),
            GradInput::Edge(e) => Ok(e.clone()),
        }
    }
}

/// `backward` for already-validated Python arguments (see leafgrad/autograd.py).
#[pyfunction]
#[pyo3(signature = (outputs, grads, retain_graph, create_graph, inputs = None))]
fn _backward(
    outputs: Vec<Bound<'_, PyAny>>,
    grads: Vec<Option<PyRef<'_, PyTensor>>>,
    retain_graph: bool,
    create_graph: bool,
    inputs: Option<Vec<Bound<'_, PyAny>>>,
) -> PyResult<()> {
    let outs = outputs
        .iter()
        .map(GradInput::extract)
        .collect::<PyResult<Vec<_>>>()?;
    let roots = make_grads(
        &outs,
        grads
            .iter()
            .map(|g| g.as_ref().map(|g| g.t.clone()))
            .collect(),
    )?;
    let inputs = inputs
        .map(|v| {
            v.iter()
                .map(GradInput::extract)
                .collect::<PyResult<Vec<_>>>()
        })
        .transpose()?;
    if let Some(inp) = &inputs {
        for i in inp {
            let GradInput::Tensor(t) = i else { continue };
            if !t.requires_grad() {
                return Err(PyRuntimeError::new_err(
                    "can't retain_grad on Tensor that has requires_grad=False",
                ));
            }
            if !t.is_leaf() {
                super::tensor::retain_grad(t)?;
            }
        }
    }
    let opts = BackwardOptions {
        retain_graph,
        create_graph,
        accumulate: true,
    };
    let edges = inputs
        .map(|v| v.iter().map(GradInput::edge).collect::<PyResult<Vec<_>>>())
        .transpose()?;
    engine::backward_edges(&roots, edges.as_deref(), opts).py()?;
    Ok(())
}

/// `autograd.grad` for already-validated Python arguments.
#[pyfunction]
#[pyo3(signature = (outputs, grads, inputs, retain_graph, create_graph, allow_unused, materialize))]
#[allow(clippy::too_many_arguments)]
fn _grad<'py>(
    py: Python<'py>,
    outputs: Vec<Bound<'py, PyAny>>,
    grads: Vec<Option<PyRef<'py, PyTensor>>>,
    inputs: Vec<Bound<'py, PyAny>>,
    retain_graph: bool,
    create_graph: bool,
    allow_unused: bool,
    materialize: bool,
) -> PyResult<Bound<'py, PyTuple>> {
    let outs = outputs
        .iter()
        .map(GradInput::extract)
        .collect::<PyResult<Vec<_>>>()?;
    let inps = inputs
        .iter()
        .map(GradInput::extract)
        .collect::<PyResult<Vec<_>>>()?;
    for i in &inps {
        match i {
            GradInput::Tensor(t) if !t.requires_grad() => {
                return Err(PyRuntimeError::new_err(
                    "One of the differentiated Tensors does not require grad",
                ))
            }
            _ => {}
        }
    }
    let roots = make_grads(
        &outs,
        grads
            .iter()
            .map(|g| g.as_ref().map(|g| g.t.clone()))
            .collect(),
    )?;
    let opts = BackwardOptions {
        retain_graph,
        create_graph,
        accumulate: false,
    };
    let edges = inps
        .iter()
        .map(GradInput::edge)
        .collect::<PyResult<Vec<_>>>()?;
    let res = engine::backward_edges(&roots, Some(&edges), opts).py()?;
    let mut items = Vec::with_capacity(res.len());
    for (i, (g, inp)) in res.into_iter().zip(&inps).enumerate() {
        let g = match (g, inp) {
            (Some(g), _) => Some(g),
            (None, GradInput::Tensor(inp)) if materialize => {
                // a leaf that requires grad under create_graph, as PyTorch's zeros_like(..., requires_grad=create_graph)
                let z = Tensor::zeros_on(&inp.shape(), inp.dtype(), inp.device()).py()?;
                z.meta().requires_grad = create_graph;
                Some(z)
            }
            (None, GradInput::Edge(_)) if materialize => {
                // an edge has no shape to make zeros of (PyTorch's error, for an unused edge)
                return Err(PyRuntimeError::new_err(
                    "materialize_grads cannot be used when the given input is a GradientEdge",
                ));
            }
            (None, _) if allow_unused => None,
            (None, _) => {
                return Err(PyRuntimeError::new_err(format!(
                    "The differentiated Tensor at index {} appears to not have been used in the graph. Set allow_unused=True if this is the desired behavior.",
                    i
                )))
            }
        };
        items.push(wrap_opt(py, g)?);
    }
    PyTuple::new(py, items)
}

/// The id of the backward pass running on this thread (None outside backward).
#[pyfunction]
fn _current_graph_task_id() -> Option<u64> {
    crate::engine::current_graph_task()
}

/// Whether the running backward pass executes (or captures) `node`
/// (`torch._C._will_engine_execute_node`).
#[pyfunction]
fn _will_engine_execute_node(node: PyRef<'_, super::node::PyNode>) -> PyResult<bool> {
    crate::engine::will_execute(&node.node()?).py()
}

/// Make later backward passes record the nodes they execute (for `_will_engine_execute_node`).
#[pyfunction]
fn _track_exec_info() {
    crate::engine::track_exec_info()
}

/// Turn anomaly mode on or off (`torch.set_anomaly_enabled`).
///
/// >>> torch.set_anomaly_enabled(True, check_nan=False)
/// >>> torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()
/// (True, False)
/// >>> torch.set_anomaly_enabled(False)
#[pyfunction]
#[pyo3(signature = (enabled, check_nan = true))]
fn set_anomaly_enabled(enabled: bool, check_nan: bool) {
    crate::graph::anomaly::set_enabled(enabled, check_nan)
}

/// Whether anomaly mode is on (`torch.autograd.detect_anomaly`).
///
/// >>> torch.is_anomaly_enabled()
/// False
#[pyfunction]
fn is_anomaly_enabled() -> bool {
    crate::graph::anomaly::is_enabled()
}

/// Whether anomaly mode checks gradients for NaN.
///
/// >>> torch.is_anomaly_check_nan_enabled()
/// True
#[pyfunction]
fn is_anomaly_check_nan_enabled() -> bool {
    crate::graph::anomaly::check_nan()
}

/// Anomaly mode's trace of a node's creation and its report of a failing node, in Python.
fn install_anomaly_hooks() {
    crate::graph::anomaly::install(
        Box::new(|| {
            Python::attach(|py| {
                py.import("leafgrad.autograd.anomaly_mode")
                    .and_then(|m| m.getattr("_forward_trace")?.call0())
                    .and_then(|r| r.extract::<String>())
                    .ok()
            })
        }),
        Box::new(
            |name: &str, trace: Option<&str>, parents: &[(String, Option<String>)]| {
                Python::attach(|py| {
                    let _ = py
                        .import("leafgrad.autograd.anomaly_mode")
                        .and_then(|m| m.getattr("_report")?.call1((name, trace, parents.to_vec())));
                })
            },
        ),
    );
}

/// Move `t`'s version counter on, as an in-place write would (nothing for an inference
/// tensor, which has none).
#[pyfunction]
fn _increment_version(t: PyRef<'_, PyTensor>) {
    if !t.t.is_inference() {
        crate::ops::mark_written(&t.t);
    }
}

/// False inside `autograd.grad` / `backward(inputs=...)` (the reentrant checkpoint's check).
#[pyfunction]
fn _is_checkpoint_valid() -> bool {
    crate::engine::checkpoint_valid()
}

/// Whether operations are recorded for backward now (False under `torch.no_grad()`).
///
/// >>> torch.is_grad_enabled()
/// True
/// >>> with torch.no_grad():
/// ...     print(torch.is_grad_enabled())
/// False
#[pyfunction]
fn is_grad_enabled() -> bool {
    grad_mode::is_grad_enabled()
}
#[pyfunction]
fn _set_grad_enabled(mode: bool) {
    grad_mode::set_grad_enabled(mode)
}
/// Sets grad mode and returns the mode it replaces (one call for a context manager's
/// `__enter__`).
#[pyfunction]
fn _swap_grad_enabled(mode: bool) -> bool {
    let prev = grad_mode::is_grad_enabled();
    grad_mode::set_grad_enabled(mode);
    prev
}

/// `__new__` of `no_grad` and `enable_grad`: a new instance, or given a function, that
/// function decorated by a new instance (`@torch.no_grad` without parentheses). A builtin, so
/// `with torch.no_grad():` runs no Python frame to make its object.
#[pyfunction]
#[pyo3(signature = (cls, *args, **kwargs))]
fn _grad_ctx_new<'py>(
    cls: &Bound<'py, pyo3::types::PyType>,
    args: &Bound<'py, pyo3::types::PyTuple>,
    kwargs: Option<&Bound<'py, pyo3::types::PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = cls.py();
    // PyTorch's signature and messages: `_NoParamDecoratorContextManager.__new__(cls, orig_func=None)`
    let name = "_NoParamDecoratorContextManager.__new__()";
    let mut orig_func = match args.len() {
        0 => None,
        1 => Some(args.get_item(0)?),
        n => {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "{name} takes from 1 to 2 positional arguments but {} were given",
                n + 1
            )))
        }
    };
    for (k, v) in kwargs.into_iter().flatten() {
        let k: String = k.extract()?;
        if k != "orig_func" {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "{name} got an unexpected keyword argument '{k}'"
            )));
        }
        if orig_func.is_some() {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "{name} got multiple values for argument 'orig_func'"
            )));
        }
        orig_func = Some(v);
    }
    let given_none = orig_func.as_ref().is_some_and(|f| f.is_none());
    if given_none && cls.hasattr("_init_takes_no_args")? {
        // PyTorch makes the instance, then no_grad's `__init__(self)` refuses the argument
        // (enable_grad has none: object's ignores it)
        return Err(pyo3::exceptions::PyTypeError::new_err(if args.is_empty() {
            "no_grad.__init__() got an unexpected keyword argument 'orig_func'"
        } else {
            "no_grad.__init__() takes 1 positional argument but 2 were given"
        }));
    }
    match orig_func.filter(|f| !f.is_none()) {
        None => {
            // object.__new__(cls), without the Python-level call
            let empty = pyo3::types::PyTuple::empty(py);
            // SAFETY: `object`'s tp_new with an empty tuple, for a heap type deriving from
            // object (every Python class); it returns a new reference or NULL with an error.
            unsafe {
                #[cfg(not(feature = "abi3"))]
                let tp_new = (*std::ptr::addr_of!(pyo3::ffi::PyBaseObject_Type))
                    .tp_new
                    .expect("object has tp_new");
                // the limited API has no type fields; PyType_GetSlot reads static types' slots
                // from Python 3.10 on (the abi3 feature's floor)
                #[cfg(feature = "abi3")]
                let tp_new: pyo3::ffi::newfunc = std::mem::transmute(pyo3::ffi::PyType_GetSlot(
                    std::ptr::addr_of_mut!(pyo3::ffi::PyBaseObject_Type),
                    pyo3::ffi::Py_tp_new,
                ));
                let obj = tp_new(cls.as_type_ptr(), empty.as_ptr(), std::ptr::null_mut());
                Bound::from_owned_ptr_or_err(py, obj)
            }
        }
        Some(f) => cls.call0()?.call1((f,)),
    }
}
/// Whether `torch.inference_mode()` is on.
///
/// >>> torch.is_inference_mode_enabled()
/// False
/// >>> with torch.inference_mode():
/// ...     print(torch.is_inference_mode_enabled())
/// True
#[pyfunction]
fn is_inference_mode_enabled() -> bool {
    grad_mode::is_inference_mode()
}
#[pyfunction]
fn _set_inference_mode(mode: bool) {
    grad_mode::set_inference_mode(mode)
}

/// Live backward nodes and tensor records: tests use it to prove memory comes back.
#[pyfunction]
fn _arena_stats(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let (nodes, tensors) = crate::graph::arena::arena_stats();
    let d = PyDict::new(py);
    d.set_item("nodes", nodes)?;
    d.set_item("tensors", tensors)?;
    Ok(d)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_backward, m)?)?;
    m.add_function(wrap_pyfunction!(_current_graph_task_id, m)?)?;
    m.add_function(wrap_pyfunction!(_will_engine_execute_node, m)?)?;
    m.add_function(wrap_pyfunction!(_track_exec_info, m)?)?;
    m.add_function(wrap_pyfunction!(_is_checkpoint_valid, m)?)?;
    m.add_function(wrap_pyfunction!(_increment_version, m)?)?;
    m.add_function(wrap_pyfunction!(set_anomaly_enabled, m)?)?;
    m.add_function(wrap_pyfunction!(is_anomaly_enabled, m)?)?;
    m.add_function(wrap_pyfunction!(is_anomaly_check_nan_enabled, m)?)?;
    install_anomaly_hooks();
    m.add_function(wrap_pyfunction!(_grad, m)?)?;
    m.add_function(wrap_pyfunction!(is_grad_enabled, m)?)?;
    m.add_function(wrap_pyfunction!(_set_grad_enabled, m)?)?;
    m.add_function(wrap_pyfunction!(_swap_grad_enabled, m)?)?;
    m.add_function(wrap_pyfunction!(_grad_ctx_new, m)?)?;
    m.add_function(wrap_pyfunction!(is_inference_mode_enabled, m)?)?;
    m.add_function(wrap_pyfunction!(_set_inference_mode, m)?)?;
    m.add_function(wrap_pyfunction!(_arena_stats, m)?)?;
    Ok(())
}
