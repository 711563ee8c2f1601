//! What Python's garbage collector sees of leafgrad's objects. A hook's callable (or a user
//! function's `ctx`) is held by a Rust closure inside a node or a tensor's metadata, where the
//! collector cannot look; these objects are also listed (`NodeHooks::objects`,
//! `AutogradMeta::hook_objects`) and reported by the Python objects' traversal under PyTorch's
//! rule: only while the Python object is the sole holder of its tensor or node, so a cycle
//! through a hook is freed once nothing else keeps the graph alive.
use super::tensor::PyTensor;
use pyo3::prelude::*;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// A hook's Python callable, shared by the hook's closure and the list of binding objects that
/// the garbage collector's traversal visits (one Python reference, visited once).
pub struct PyCallable(pub Py<PyAny>);

/// Visit the Python callables among `objects`.
pub fn visit_objects(
    visit: &pyo3::PyVisit<'_>,
    objects: &[(u64, crate::graph::node::BindingObject)],
) -> Result<(), pyo3::PyTraverseError> {
    for (_, o) in objects {
        if let Some(c) = o.downcast_ref::<PyCallable>() {
            visit.call(&c.0)?;
        }
    }
    Ok(())
}

/// Remove hook `id`'s objects from `objects`, to be released after the lock is (a Python
/// callable's release may run Python code).
pub(super) fn take_objects(
    objects: &mut Vec<(u64, crate::graph::node::BindingObject)>,
    id: u64,
) -> Vec<(u64, crate::graph::node::BindingObject)> {
    objects.extract_if(.., |(i, _)| *i == id).collect()
}

#[pymethods]
impl PyTensor {
    /// The garbage collector's view of what this object keeps alive: the `.grad` object, and,
    /// while this object is the tensor's only owner (PyTorch's `use_count() == 1` rule), the
    /// Python callables of its hooks and of its `grad_fn` when nothing else holds that node
    /// (its hooks, a user function's `ctx`). A hook that refers to its own tensor is then a
    /// cycle the collector can free.
    fn __traverse__(&self, visit: pyo3::PyVisit<'_>) -> Result<(), pyo3::PyTraverseError> {
        if !self.ready.load(Ordering::Acquire) {
            return Ok(());
        }
        if let Ok(cache) = self.grad_obj.try_lock() {
            if let Some(obj) = cache.as_ref() {
                visit.call(obj)?;
            }
        }
        if Arc::strong_count(&self.t.0) != 1 {
            return Ok(());
        }
        let Some(m) = self.t.try_meta() else {
            return Ok(());
        };
        visit_objects(&visit, &m.hook_objects)?;
        if let Some(n) = m.grad_fn.as_ref().filter(|n| n.ref_count() == 1) {
            if let Ok(h) = n.hooks.try_lock() {
                visit_objects(&visit, &h.objects)?;
            }
        }
        Ok(())
    }

    /// Break a cycle the collector found: drop the hooks, and the `grad_fn` this tensor alone
    /// holds (what it kept alive goes with it).
    fn __clear__(&self) {
        if !self.ready.load(Ordering::Acquire) {
            return;
        }
        if let Ok(mut cache) = self.grad_obj.try_lock() {
            *cache = None;
        }
        if Arc::strong_count(&self.t.0) != 1 {
            return;
        }
        let dropped = self.t.try_meta().map(|mut m| {
            m.hooks.clear();
            m.post_acc_hooks.clear();
            let objects = std::mem::take(&mut m.hook_objects);
            let gf = m.grad_fn.take_if(|n| n.ref_count() == 1);
            (objects, gf)
        });
        // the callables are released here, after the tensor's lock
        drop(dropped);
    }
}
