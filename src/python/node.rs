//! Python objects for backward nodes (`y.grad_fn`). Each node name gets its own Python class
//! (`type(y.grad_fn).__name__ == 'MulBackward0'`), made once by `leafgrad._node_class`.
use super::gc::PyCallable;
use super::stash;
use super::tensor::{wrap, wrap_opt, HookTarget, PyHookHandle};
use crate::graph::arena::NodeRef;
use crate::graph::node::{lock, next_hook_id, Node, NodeKind, SavedValue};
use crate::tensor::Tensor;
use pyo3::exceptions::{PyAttributeError, PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple};
use std::sync::atomic::Ordering;
use std::sync::{Arc, OnceLock, Weak};

/// Carries a node into `Node.__new__`; not part of the public API.
#[pyclass(name = "_NodeHandle", module = "leafgrad._core", frozen)]
pub struct NodeHandle {
    node: NodeRef,
}

#[pyclass(name = "Node", module = "leafgrad.autograd", subclass, frozen, dict)]
pub struct PyNode {
    link: OnceLock<Link>,
    /// Set when the object's contents are written (see `PyTensor::ready`): a node class has a
    /// `__dict__`, so the collector can traverse the object while its memory is only zeroed,
    /// where a zeroed `OnceLock` reads as set.
    ready: std::sync::atomic::AtomicBool,
}

/// How a Python node object reaches its node.
enum Link {
    /// The object of a built-in node: made on demand, it keeps the node alive.
    Own(NodeRef),
    /// A user function's context (`ctx` in `torch.autograd.Function`): the node owns it (its
    /// backward calls it), so it only points back.
    Ctx(Weak<Node>),
}

impl PyNode {
    /// The node, or an error for a context whose node is not made yet or is freed.
    pub fn node(&self) -> PyResult<NodeRef> {
        match self.link.get() {
            Some(Link::Own(n)) => Ok(n.clone()),
            Some(Link::Ctx(w)) => NodeRef::upgrade_weak(w).ok_or_else(|| {
                PyRuntimeError::new_err("the graph node of this function's context was freed")
            }),
            None => Err(PyRuntimeError::new_err(
                "this function's context has no graph node (its forward did not record one)",
            )),
        }
    }
    /// Make `ctx` the Python object of a user function's `node`.
    pub fn attach_ctx(ctx: &Bound<'_, PyNode>, node: &NodeRef) -> PyResult<()> {
        ctx.get()
            .link
            .set(Link::Ctx(node.downgrade()))
            .map_err(|_| PyRuntimeError::new_err("this function's context is already used"))?;
        node.binding.store(ctx.as_ptr() as usize, Ordering::Release);
        Ok(())
    }
}

impl Drop for PyNode {
    fn drop(&mut self) {
        if let Some(Link::Own(n)) = self.link.get() {
            n.binding.store(0, Ordering::Release);
        }
    }
}

static NODE_CLASS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// The Python object of a node (one per node while it is referenced from Python).
pub fn node_to_py(py: Python<'_>, node: NodeRef) -> PyResult<Bound<'_, PyAny>> {
    let p = node.binding.load(Ordering::Acquire);
    if p != 0 {
        // SAFETY: cleared in PyNode::drop before the object is freed (GIL held throughout).
        return Ok(unsafe { Bound::from_borrowed_ptr(py, p as *mut pyo3::ffi::PyObject) });
    }
    let factory = NODE_CLASS.get_or_try_init(py, || -> PyResult<_> {
        Ok(py
            .import("leafgrad._node")?
            .getattr("_node_class")?
            .unbind())
    })?;
    let cls = factory.bind(py).call1((class_name(&node.name),))?;
    let obj = cls.call1((NodeHandle { node: node.clone() },))?;
    node.binding.store(obj.as_ptr() as usize, Ordering::Release);
    Ok(obj)
}

/// `torch::autograd::CopySlices` → `CopySlices` (the class name PyTorch shows in reprs).
pub fn class_name(name: &str) -> String {
    name.rsplit("::").next().unwrap_or(name).to_string()
}

fn saved_tensor<'py>(
    py: Python<'py>,
    node: &NodeRef,
    name: &str,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let s = lock(&node.saved);
    let found = s.tensors.iter().find(|st| st.name == name).map(|st| {
        (
            st.value.clone(),
            st.is_output,
            st.output_nr,
            st.edge.clone(),
        )
    });
    let released = s.released;
    drop(s);
    let (t, is_output, nr) = match found {
        Some((SavedValue::Absent, _, _, _)) => return Ok(Some(py.None().into_bound(py))),
        Some((SavedValue::Tensor(t), o, nr, _)) => (t, o, nr),
        // packed by saved-tensor hooks: unpack (user code, with the lock released); an input
        // gets its history back
        Some((SavedValue::Packed(p), o, nr, edge)) => {
            let t = p.unpack()?;
            let t = match edge {
                Some(e) if !o => t.alias_with_edge(&e),
                _ => t,
            };
            (t, o, nr)
        }
        None if released => return Err(PyRuntimeError::new_err(crate::error::SECOND_BACKWARD)),
        None => return Ok(None),
    };
    // a saved output comes back with this node as its grad_fn, as in PyTorch (one without a
    // gradient, as it is)
    let t = if is_output && nr != crate::graph::node::NON_DIFFERENTIABLE_OUTPUT {
        t.alias_with_grad_fn(node.clone(), nr)
    } else {
        t
    };
    Ok(Some(wrap(py, t)?))
}

#[pymethods]
impl PyNode {
    /// The garbage collector's view: a built-in node's object that is the node's only holder
    /// reports its hooks' callables (a hook that refers to this object is then a cycle the
    /// collector can free, as in PyTorch).
    fn __traverse__(&self, visit: pyo3::PyVisit<'_>) -> Result<(), pyo3::PyTraverseError> {
        if !self.ready.load(Ordering::Acquire) {
            return Ok(());
        }
        if let Some(Link::Own(n)) = self.link.get() {
            if n.ref_count() == 1 {
                if let Ok(h) = n.hooks.try_lock() {
                    super::gc::visit_objects(&visit, &h.objects)?;
                }
            }
        }
        Ok(())
    }

    /// Break a cycle the collector found: drop the hooks of the node this object alone holds.
    fn __clear__(&self) {
        if !self.ready.load(Ordering::Acquire) {
            return;
        }
        if let Some(Link::Own(n)) = self.link.get() {
            if n.ref_count() == 1 {
                let dropped = n.hooks.try_lock().ok().map(|mut h| std::mem::take(&mut *h));
                drop(dropped);
            }
        }
    }

    #[new]
    #[pyo3(signature = (handle = None))]
    fn py_new(handle: Option<PyRef<'_, NodeHandle>>) -> PyNode {
        let link = OnceLock::new();
        if let Some(h) = handle {
            let _ = link.set(Link::Own(h.node.clone()));
        }
        PyNode {
            link,
            ready: std::sync::atomic::AtomicBool::new(true),
        }
    }

    fn name(slf: &Bound<'_, Self>) -> PyResult<String> {
        match slf.get().node() {
            Ok(n) => Ok(n.name.to_string()),
            Err(_) => Ok(slf.get_type().name()?.to_string()),
        }
    }

    #[getter]
    fn next_functions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let node = self.node()?;
        let items = node
            .next
            .iter()
            .map(|e| -> PyResult<Bound<'py, PyTuple>> {
                let n = match &e.node {
                    Some(n) => node_to_py(py, n.clone())?,
                    None => py.None().into_bound(py),
                };
                PyTuple::new(py, [n, e.input_nr.into_pyobject(py)?.into_any()])
            })
            .collect::<PyResult<Vec<_>>>()?;
        PyTuple::new(py, items)
    }

    #[getter]
    fn variable<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let node = self.node()?;
        match &node.kind {
            NodeKind::AccumulateGrad(t) => wrap(py, t.clone()),
            _ => Err(PyAttributeError::new_err(format!(
                "'{}' object has no attribute 'variable'",
                class_name(&node.name)
            ))),
        }
    }

    /// A dict kept with the node for its whole life (not only while this Python object
    /// lives); in anomaly mode it holds `traceback_` and `parent_`, as PyTorch's.
    #[getter]
    fn metadata<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let Ok(node) = slf.get().node() else {
            // a context without a node yet: a dict of its own
            let d = slf.getattr("__dict__")?;
            if let Ok(m) = d.get_item("_metadata") {
                return Ok(m);
            }
            let m = PyDict::new(py).into_any();
            d.set_item("_metadata", &m)?;
            return Ok(m);
        };
        if let Some(state) = node.binding_state.get() {
            if let Some(m) = state.downcast_ref::<Py<PyDict>>() {
                return Ok(m.bind(py).clone().into_any());
            }
        }
        let m = PyDict::new(py);
        // anomaly mode: the forward call's stack, one entry per frame (PyTorch's traceback_)
        if let Some(trace) = &node.trace {
            let mut frames: Vec<String> = Vec::new();
            for line in trace.split_inclusive('\n') {
                match frames.last_mut() {
                    Some(f) if !line.starts_with("  File ") => f.push_str(line),
                    _ => frames.push(line.to_string()),
                }
            }
            m.set_item("traceback_", frames)?;
        }
        if let Some(parent) = &node.parent {
            m.set_item("parent_", node_to_py(py, parent.clone())?)?;
        }
        let _ = node.binding_state.set(Box::new(m.clone().unbind()));
        Ok(m.into_any())
    }

    /// Saved tensors by name (`_saved_self`, `_saved_other`, `_saved_result`, ...).
    fn __getattr__<'py>(slf: &Bound<'py, Self>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        if let Some(rest) = name.strip_prefix("_raw_saved_") {
            if let Ok(node) = slf.get().node() {
                if let Some(raw) = super::saved::raw_saved(slf.py(), &node, rest)? {
                    return Ok(raw);
                }
            }
        }
        if let Some(rest) = name.strip_prefix("_saved_") {
            if let Ok(node) = slf.get().node() {
                if let Some(t) = saved_tensor(slf.py(), &node, rest)? {
                    return Ok(t);
                }
            }
        }
        Err(PyAttributeError::new_err(format!(
            "'{}' object has no attribute '{}'",
            slf.get_type().name()?,
            name
        )))
    }

    /// The attributes, with `_saved_<name>` and `_raw_saved_<name>` for each value the node
    /// saves (as PyTorch lists them, so graph drawers that scan `dir()` find them).
    fn __dir__<'py>(slf: &Bound<'py, Self>) -> PyResult<Vec<String>> {
        let py = slf.py();
        let base = py
            .get_type::<pyo3::types::PyAny>()
            .call_method1("__dir__", (slf,))?;
        let mut names: Vec<String> = base.extract()?;
        if let Ok(node) = slf.get().node() {
            for st in lock(&node.saved).tensors.iter() {
                names.push(format!("_saved_{}", st.name));
                if !matches!(st.value, SavedValue::Absent) {
                    names.push(format!("_raw_saved_{}", st.name));
                }
            }
        }
        names.sort();
        names.dedup();
        Ok(names)
    }

    /// The node's backward on these gradients, one per output (PyTorch's `Node.__call__`): the
    /// gradient of its input, or a tuple of them when it has several.
    #[pyo3(signature = (*grads))]
    fn __call__<'py>(
        &self,
        py: Python<'py>,
        grads: &Bound<'py, PyTuple>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let node = self.node()?;
        let n = node.output_meta.len();
        if grads.len() != n {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "expected {} arguments, got {} instead",
                n,
                grads.len()
            )));
        }
        let gs = grads
            .iter()
            .map(|g| {
                if g.is_none() {
                    Ok(None)
                } else {
                    g.cast::<super::tensor::PyTensor>()
                        .map(|t| Some(t.get().t.clone()))
                        .map_err(|_| {
                            pyo3::exceptions::PyTypeError::new_err(
                                "expected a Tensor or None as a gradient",
                            )
                        })
                }
            })
            .collect::<PyResult<Vec<_>>>()?;
        let out = super::IntoPyResult::py(crate::engine::call_node(&node, gs))?;
        if out.len() == 1 {
            return wrap_opt(py, out[0].clone());
        }
        Ok(grads_tuple(py, &out)?.into_any())
    }

    /// The op's non-tensor arguments (`_saved_dim`, ...) as a dict, for `leafgrad._node`.
    #[getter]
    fn _lg_attrs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        use crate::graph::node::SavedAttr;
        let d = PyDict::new(py);
        if let Some(attrs) = self.node()?.attrs.get() {
            for (k, v) in attrs.iter() {
                match v {
                    SavedAttr::Int(i) => d.set_item(k, *i as u64)?,
                    SavedAttr::ScalarInt(i) => d.set_item(k, i)?,
                    SavedAttr::Float(f) => d.set_item(k, f)?,
                    SavedAttr::Bool(b) => d.set_item(k, b)?,
                    SavedAttr::Ints(v) => {
                        d.set_item(k, PyTuple::new(py, v.iter().map(|&i| i as u64))?)?
                    }
                    SavedAttr::Str(s) => d.set_item(k, s)?,
                    SavedAttr::None => d.set_item(k, py.None())?,
                }
            }
        }
        Ok(d)
    }
    /// The shapes of the op's inputs (one per edge), for the `_saved_*_sym_sizes` PyTorch keeps.
    #[getter]
    fn _lg_input_shapes(&self) -> PyResult<Vec<Vec<usize>>> {
        Ok(self
            .node()?
            .input_meta
            .iter()
            .map(|m| m.shape.to_vec())
            .collect())
    }

    /// Is the node's saved state freed (backward ran without retain_graph)?
    #[getter]
    fn _lg_saved_released(&self) -> PyResult<bool> {
        Ok(self.node()?.saved_released())
    }
    #[getter]
    fn _has_saved(&self) -> PyResult<bool> {
        Ok(self.node()?.has_saved())
    }
    #[getter]
    fn _lg_saved_names(&self) -> PyResult<Vec<&'static str>> {
        Ok(lock(&self.node()?.saved)
            .tensors
            .iter()
            .filter(|s| !matches!(s.value, SavedValue::Absent))
            .map(|s| s.name)
            .collect())
    }
    /// The version each saved tensor had when saved (same order as `_lg_saved_names`).
    #[getter]
    fn _lg_saved_versions(&self) -> PyResult<Vec<u32>> {
        Ok(lock(&self.node()?.saved)
            .tensors
            .iter()
            .filter(|s| !matches!(s.value, SavedValue::Absent))
            .map(|s| s.version)
            .collect())
    }
    #[getter]
    fn _sequence_nr(&self) -> PyResult<u64> {
        Ok(self.node()?.seq)
    }

    fn register_prehook(&self, hook: Py<PyAny>) -> PyResult<PyHookHandle> {
        let id = next_hook_id();
        let obj = Arc::new(PyCallable(hook));
        let hook = obj.clone();
        let f: crate::graph::node::NodePreHook = Arc::new(move |grads: &[Option<Tensor>]| {
            Python::attach(|py| {
                let args = grads_tuple(py, grads)?;
                let r = hook.0.call1(py, (args,))?;
                from_grads_result(py, r.bind(py), grads.len())
            })
            .map_err(stash)
        });
        let node = self.node()?;
        node.edit_hooks(|h| {
            h.pre.push((id, f));
            h.objects.push((id, obj));
        });
        Ok(PyHookHandle {
            target: HookTarget::Node(node.id()),
            id,
        })
    }

    fn register_hook(&self, hook: Py<PyAny>) -> PyResult<PyHookHandle> {
        let id = next_hook_id();
        let obj = Arc::new(PyCallable(hook));
        let hook = obj.clone();
        let f: crate::graph::node::NodePostHook =
            Arc::new(move |gi: &[Option<Tensor>], go: &[Option<Tensor>]| {
                Python::attach(|py| {
                    let r = hook
                        .0
                        .call1(py, (grads_tuple(py, gi)?, grads_tuple(py, go)?))?;
                    from_grads_result(py, r.bind(py), gi.len())
                })
                .map_err(stash)
            });
        let node = self.node()?;
        node.edit_hooks(|h| {
            h.post.push((id, f));
            h.objects.push((id, obj));
        });
        Ok(PyHookHandle {
            target: HookTarget::Node(node.id()),
            id,
        })
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        Ok(format!(
            "<{} object at {:#x}>",
            slf.get_type().name()?,
            slf.as_ptr() as usize
        ))
    }

    fn __hash__(slf: &Bound<'_, Self>) -> isize {
        slf.as_ptr() as isize
    }

    fn __eq__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> bool {
        slf.as_ptr() == other.as_ptr()
    }
}

fn grads_tuple<'py>(py: Python<'py>, grads: &[Option<Tensor>]) -> PyResult<Bound<'py, PyTuple>> {
    let items = grads
        .iter()
        .map(|g| wrap_opt(py, g.clone()))
        .collect::<PyResult<Vec<_>>>()?;
    PyTuple::new(py, items)
}

fn from_grads_result(
    _py: Python<'_>,
    r: &Bound<'_, PyAny>,
    n: usize,
) -> PyResult<Option<Vec<Option<Tensor>>>> {
    if r.is_none() {
        return Ok(None);
    }
    let items: Vec<Bound<'_, PyAny>> = r.try_iter()?.collect::<PyResult<_>>()?;
    if items.len() != n {
        return Err(PyRuntimeError::new_err(format!(
            "hook returned an incorrect number of values (got {}, but expected {})",
            items.len(),
            n
        )));
    }
    items
        .into_iter()
        .map(|x| {
            if x.is_none() {
                Ok(None)
            } else {
                x.cast::<super::PyTensor>()
                    .map(|t| Some(t.get().t.clone()))
                    .map_err(|_| {
                        PyTypeError::new_err("hooks must return a tuple of Tensors or None")
                    })
            }
        })
        .collect::<PyResult<Vec<_>>>()
        .map(Some)
}
