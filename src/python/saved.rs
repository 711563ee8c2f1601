//! Saved-tensor hooks from Python: `torch.autograd.graph.saved_tensors_hooks` (the default
//! hooks of this thread) and `grad_fn._raw_saved_<name>.register_hooks(pack, unpack)` (hooks of
//! one saved tensor). The core (`graph::saved`) calls them; user errors travel as callbacks.
use super::tensor::wrap;
use super::{stash, IntoPyResult, PyTensor};
use crate::graph::arena::NodeRef;
use crate::graph::node::{lock, SavedValue};
use crate::graph::saved::{self, PackedTensor, SaveHooks};
use crate::tensor::Tensor;
use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use std::sync::Arc;

struct PyHooks {
    pack: Py<PyAny>,
    unpack: Py<PyAny>,
}

struct PyPacked {
    data: Py<PyAny>,
    unpack: Py<PyAny>,
}

fn call_pack(pack: &Py<PyAny>, unpack: &Py<PyAny>, t: &Tensor) -> PyResult<PyPacked> {
    Python::attach(|py| {
        let data = pack.call1(py, (wrap(py, t.clone())?,))?;
        Ok(PyPacked {
            data,
            unpack: unpack.clone_ref(py),
        })
    })
}

impl SaveHooks for PyHooks {
    fn pack(&self, t: &Tensor) -> crate::Result<Arc<dyn PackedTensor>> {
        let p = call_pack(&self.pack, &self.unpack, t).map_err(stash)?;
        Ok(Arc::new(p))
    }
}

impl PackedTensor for PyPacked {
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn unpack(&self) -> crate::Result<Tensor> {
        Python::attach(|py| {
            let r = self.unpack.call1(py, (self.data.clone_ref(py),))?;
            let r = r.bind(py);
            match r.cast::<PyTensor>() {
                Ok(t) => Ok(t.get().t.clone()),
                Err(_) => Err(PyTypeError::new_err(format!(
                    "Output of saved tensor unpack_hook expected to be a Tensor but got result of type {}",
                    r.get_type().name()?
                ))),
            }
        })
        .map_err(stash)
    }
}

/// One tensor a node saved for backward (`grad_fn._raw_saved_<name>`): `register_hooks(pack,
/// unpack)` packs it now and unpacks it when it is needed.
///
/// >>> x = torch.tensor([1., 2.], requires_grad=True)
/// >>> y = x.exp()
/// >>> y.grad_fn._raw_saved_result.register_hooks(lambda t: t * 2, lambda t: t / 2)
/// >>> y.grad_fn._saved_result
/// tensor([2.7183, 7.3891], grad_fn=<ExpBackward0>)
#[pyclass(name = "SavedTensor", module = "leafgrad._core", frozen)]
pub struct PySavedTensor {
    node: NodeRef,
    index: usize,
}

pub fn raw_saved<'py>(
    py: Python<'py>,
    node: &NodeRef,
    name: &str,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let index = lock(&node.saved)
        .tensors
        .iter()
        .position(|st| st.name == name);
    match index {
        Some(index) => Ok(Some(
            Bound::new(
                py,
                PySavedTensor {
                    node: node.clone(),
                    index,
                },
            )?
            .into_any(),
        )),
        None => Ok(None),
    }
}

/// `ctx._raw_saved_tensors` of a user Function: one object per `save_for_backward` argument
/// (`layout`: the index of each saved tensor, None where the argument was None).
#[pyfunction]
pub fn _raw_saved_all<'py>(
    py: Python<'py>,
    ctx: Bound<'py, super::node::PyNode>,
    layout: Vec<Option<usize>>,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let node = ctx.get().node()?;
    layout
        .into_iter()
        .map(|index| {
            Ok(Bound::new(
                py,
                PySavedTensor {
                    node: node.clone(),
                    index: index.unwrap_or(usize::MAX),
                },
            )?
            .into_any())
        })
        .collect()
}

impl PySavedTensor {
    /// The saved value and whether it is an output of its node (not after the graph is freed).
    fn value(&self) -> PyResult<(SavedValue, bool)> {
        let s = lock(&self.node.saved);
        if s.released {
            return Err(PyRuntimeError::new_err(crate::error::SECOND_BACKWARD));
        }
        Ok(s.tensors
            .get(self.index)
            .map(|st| (st.value.clone(), st.is_output))
            .unwrap_or((SavedValue::Absent, false)))
    }
}

#[pymethods]
impl PySavedTensor {
    /// Saved tensors come from nodes (`grad_fn._raw_saved_<name>`); PyTorch refuses to make one.
    #[new]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn new(
        _args: &Bound<'_, pyo3::types::PyTuple>,
        _kwargs: Option<&Bound<'_, pyo3::types::PyDict>>,
    ) -> PyResult<Self> {
        Err(pyo3::exceptions::PyRuntimeError::new_err(
            "Trying to create a SavedTensor object from Python is forbidden.",
        ))
    }
    /// What is saved: the object the pack hook returned when hooks packed it, else the tensor
    /// (an input as it is, an output without its history, as PyTorch's).
    #[getter]
    fn data<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let (value, is_output) = self.value()?;
        match value {
            SavedValue::Packed(p) => match p.as_any().downcast_ref::<PyPacked>() {
                Some(pp) => Ok(pp.data.bind(py).clone()),
                None => Err(PyRuntimeError::new_err(
                    "the saved tensor was packed by leafgrad itself",
                )),
            },
            SavedValue::Tensor(t) if is_output => wrap(py, t.detached()),
            SavedValue::Tensor(t) => wrap(py, t),
            SavedValue::Absent => Ok(py.None().into_bound(py)),
        }
    }
    /// The unpack hook registered for this saved tensor (None without hooks).
    #[getter]
    fn unpack_hook<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let (value, _) = self.value()?;
        Ok(match value {
            SavedValue::Packed(p) => match p.as_any().downcast_ref::<PyPacked>() {
                Some(pp) => pp.unpack.bind(py).clone(),
                None => py.None().into_bound(py),
            },
            _ => py.None().into_bound(py),
        })
    }
    /// Pack the saved tensor now with `pack`; backward gets it back from `unpack`.
    fn register_hooks(&self, pack_hook: Py<PyAny>, unpack_hook: Py<PyAny>) -> PyResult<()> {
        let (value, is_output) = {
            let s = lock(&self.node.saved);
            if s.released {
                return Err(PyRuntimeError::new_err("Calling register_hooks on a saved tensor after it has been freed. Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if you need to access saved variables after calling backward."));
            }
            let st = s.tensors.get(self.index);
            (
                st.map(|st| st.value.clone()),
                st.is_some_and(|st| st.is_output),
            )
        };
        let t = match value {
            None | Some(SavedValue::Absent) => {
                return Err(PyRuntimeError::new_err(
                    "Calling register_hooks on a saved tensor with value None is forbidden",
                ))
            }
            Some(SavedValue::Packed(_)) => {
                return Err(PyRuntimeError::new_err("Calling register_hooks on a saved tensor whose hooks have already been set. Hint: only one pair of hooks is allowed at a time."))
            }
            Some(SavedValue::Tensor(t)) => t,
        };
        // the hook sees the saved data without its history, as PyTorch's
        let before = t.version();
        let packed = call_pack(&pack_hook, &unpack_hook, &t.detached())?;
        if t.version() != before {
            return Err(PyRuntimeError::new_err(saved::PACK_IN_PLACE));
        }
        // an input unpacked later gets its history back from the edge
        let edge = (!is_output).then(|| crate::ops::gradient_edge(&t));
        if let Some(st) = lock(&self.node.saved).tensors.get_mut(self.index) {
            st.value = SavedValue::Packed(Arc::new(packed));
            st.edge = edge;
        }
        Ok(())
    }
}

#[pyfunction]
pub fn _push_saved_tensors_default_hooks(
    pack_hook: Py<PyAny>,
    unpack_hook: Py<PyAny>,
) -> PyResult<()> {
    saved::push(Arc::new(PyHooks {
        pack: pack_hook,
        unpack: unpack_hook,
    }))
    .py()
}

#[pyfunction]
pub fn _pop_saved_tensors_default_hooks() {
    saved::pop()
}

#[pyfunction]
pub fn _saved_tensors_hooks_disable(message: String) {
    saved::set_disabled(Some(message));
}

#[pyfunction]
pub fn _saved_tensors_hooks_enable() {
    saved::set_disabled(None);
}

#[pyfunction]
pub fn _saved_tensors_hooks_get_disabled_error_message() -> Option<String> {
    saved::disabled_message()
}

/// `hook(tensor)` before every in-place write (None clears it): what
/// `autograd.graph.allow_mutation_on_saved_tensors` rests on.
#[pyfunction]
fn _set_mutation_hook(hook: Option<Py<PyAny>>) {
    let hook = hook.map(|h| {
        let f: crate::ops::inplace_checks::MutationHook = Arc::new(move |t: &Tensor| {
            Python::attach(|py| h.call1(py, (wrap(py, t.clone())?,)).map(|_| ())).map_err(stash)
        });
        f
    });
    crate::ops::inplace_checks::set_mutation_hook(hook);
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_set_mutation_hook, m)?)?;
    m.add_class::<PySavedTensor>()?;
    m.add_function(wrap_pyfunction!(_raw_saved_all, m)?)?;
    m.add_function(wrap_pyfunction!(_push_saved_tensors_default_hooks, m)?)?;
    m.add_function(wrap_pyfunction!(_pop_saved_tensors_default_hooks, m)?)?;
    m.add_function(wrap_pyfunction!(_saved_tensors_hooks_disable, m)?)?;
    m.add_function(wrap_pyfunction!(_saved_tensors_hooks_enable, m)?)?;
    m.add_function(wrap_pyfunction!(
        _saved_tensors_hooks_get_disabled_error_message,
        m
    )?)?;
    Ok(())
}
