//! `torch.autograd.Function`: the bindings between a user's Python forward/backward and the
//! core's node for it (`ops::record_function`). `leafgrad/autograd/function.py` runs the forward;
//! these functions record it and call the backward from the engine.
use super::gc::PyCallable;
use super::node::PyNode;
use super::tensor::{wrap, wrap_opt};
use super::{stash, PyTensor};
use crate::graph::node::{CustomBackwardFn, TensorMeta};
use crate::ops;
use crate::tensor::Tensor;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use std::sync::Arc;

fn tensors(list: &[Option<PyRef<'_, PyTensor>>]) -> Vec<Option<Tensor>> {
    list.iter()
        .map(|t| t.as_ref().map(|t| t.t.clone()))
        .collect()
}

/// The user's gradients for the inputs, checked as PyTorch checks them.
fn input_grads(
    r: &Bound<'_, PyAny>,
    name: &str,
    input_is_tensor: &[bool],
) -> PyResult<Vec<Option<Tensor>>> {
    let mut items: Vec<Bound<'_, PyAny>> = match r.cast::<PyTuple>() {
        Ok(t) => t.iter().collect(),
        Err(_) => vec![r.clone()],
    };
    let n = input_is_tensor.len();
    // Extra trailing Nones are allowed (and dropped).
    if items.len() > n && items[n..].iter().all(|g| g.is_none()) {
        items.truncate(n);
    }
    if items.len() != n {
        return Err(PyRuntimeError::new_err(format!(
            "function {} returned an incorrect number of gradients (expected {}, got {})",
            name,
            n,
            items.len()
        )));
    }
    // One gradient per tensor argument: the node's edges.
    let mut grads = Vec::with_capacity(n);
    for (i, g) in items.iter().enumerate() {
        let is_tensor = input_is_tensor[i];
        if g.is_none() {
            if is_tensor {
                grads.push(None);
            }
            continue;
        }
        let Ok(t) = g.cast::<PyTensor>() else {
            return Err(PyRuntimeError::new_err(format!(
                "expected Variable or None (got {})",
                g.get_type().name()?
            )));
        };
        if !is_tensor {
            return Err(PyRuntimeError::new_err(format!(
                "function {} returned a gradient different than None at position {}, but the corresponding forward input was not a Variable",
                name,
                i + 1
            )));
        }
        grads.push(Some(t.get().t.clone()));
    }
    Ok(grads)
}

/// Record a user function's call on `ctx`'s node: returns whether a node was made and the
/// outputs as `apply` returns them. `to_save` is what `ctx.save_for_backward` was given.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn _function_record<'py>(
    py: Python<'py>,
    ctx: Bound<'py, PyNode>,
    name: String,
    inputs: Vec<Option<PyRef<'py, PyTensor>>>,
    outputs: Vec<Option<PyRef<'py, PyTensor>>>,
    dirty: Vec<PyRef<'py, PyTensor>>,
    non_differentiable: Vec<PyRef<'py, PyTensor>>,
    to_save: Vec<PyRef<'py, PyTensor>>,
) -> PyResult<(bool, Vec<Option<Bound<'py, PyAny>>>)> {
    let inputs = tensors(&inputs);
    let outputs = tensors(&outputs);
    let dirty: Vec<Tensor> = dirty.iter().map(|t| t.t.clone()).collect();
    let non_diff: Vec<Tensor> = non_differentiable.iter().map(|t| t.t.clone()).collect();
    let input_is_tensor: Vec<bool> = inputs.iter().map(Option::is_some).collect();
    let non_diff_output: Vec<bool> = outputs
        .iter()
        .map(|o| {
            o.as_ref()
                .is_some_and(|o| non_diff.iter().any(|n| n.ptr_eq(o)))
        })
        .collect();
    let output_meta: Vec<Option<TensorMeta>> = outputs
        .iter()
        .map(|t| t.as_ref().map(ops::meta_of))
        .collect();
    // shared with the node's binding objects, so that the collector sees the node's reference
    let ctx_obj = Arc::new(PyCallable(ctx.clone().into_any().unbind()));
    let ctx_held = ctx_obj.clone();
    let fn_name = name.clone();
    let backward: CustomBackwardFn = Box::new(move |grads: &[Option<Tensor>]| {
        Python::attach(|py| -> PyResult<Vec<Option<Tensor>>> {
            let ctx = ctx_held.0.bind(py);
            let materialize = ctx.getattr("materialize_grads")?.is_truthy()?;
            let non_diff_too = ctx.getattr("_materialize_non_diff_grads")?.is_truthy()?;
            let mut args = Vec::with_capacity(grads.len());
            for ((g, m), nd) in grads.iter().zip(&output_meta).zip(&non_diff_output) {
                let g = match (g, m) {
                    (_, None) => None,
                    (Some(g), _) => Some(g.clone()),
                    (None, Some(m)) if materialize && (non_diff_too || !nd) => {
                        Some(Tensor::zeros_on(&m.shape, m.dtype, m.device)?)
                    }
                    (None, Some(_)) => None,
                };
                args.push(wrap_opt(py, g)?);
            }
            let r = ctx.call_method1("_call_backward", (PyTuple::new(py, args)?,))?;
            input_grads(&r, &fn_name, &input_is_tensor)
        })
        .map_err(stash)
    });
    let call = ops::FunctionCall {
        inputs: &inputs,
        outputs: &outputs,
        dirty: &dirty,
        non_differentiable: &non_diff,
    };
    let (node, result) = ops::record_function(name, &call, backward)?;
    if let Some(node) = &node {
        node.keep_object(ctx_obj);
        PyNode::attach_ctx(&ctx, node)?;
        let to_save: Vec<Tensor> = to_save.iter().map(|t| t.t.clone()).collect();
        ops::save_function_tensors(node, &to_save, &result)?;
    }
    let out = result
        .into_iter()
        .map(|t| t.map(|t| wrap(py, t)).transpose())
        .collect::<PyResult<_>>()?;
    Ok((node.is_some(), out))
}

/// `ctx.saved_tensors`: the tensors `save_for_backward` kept, checked against their versions.
#[pyfunction]
pub fn _function_saved<'py>(
    py: Python<'py>,
    ctx: Bound<'py, PyNode>,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let node = ctx.get().node()?;
    let saved = crate::graph::node::Node::unpack_saved(&node, true)?;
    saved.into_iter().map(|t| wrap(py, t)).collect()
}

/// Free the saved tensors now (`clear_saved_tensors_on_access`).
#[pyfunction]
pub fn _function_release_saved(ctx: Bound<'_, PyNode>) -> PyResult<()> {
    ctx.get().node()?.release_saved();
    Ok(())
}

/// `once_differentiable`'s guard: aliases of `inputs` behind a node whose backward raises `msg`.
#[pyfunction]
pub fn _delayed_error<'py>(
    py: Python<'py>,
    inputs: Vec<Option<PyRef<'py, PyTensor>>>,
    msg: String,
) -> PyResult<Vec<Option<Bound<'py, PyAny>>>> {
    ops::delayed_error(&tensors(&inputs), msg)?
        .into_iter()
        .map(|t| t.map(|t| wrap(py, t)).transpose())
        .collect()
}

/// gradcheck's UndefinedGrad: a copy of `t` whose node passes no gradient on.
#[pyfunction]
pub fn _undefined_grad<'py>(
    py: Python<'py>,
    t: PyRef<'py, PyTensor>,
) -> PyResult<Bound<'py, PyAny>> {
    wrap(py, ops::undefined_grad(&t.t)?)
}

/// `out` (a detached result of an op on `input`) given the node `name` that has no derivative
/// (`op` names it in the error).
#[pyfunction]
pub fn _no_derivative<'py>(
    input: PyRef<'py, PyTensor>,
    out: PyRef<'py, PyTensor>,
    name: String,
    op: &str,
) -> PyResult<()> {
    Ok(ops::no_derivative(&input.t, &out.t, name, op)?)
}

/// `out` (a fresh sample drawn with the parameters `inputs`) as the output of the node `name`
/// that passes zero gradients to them.
#[pyfunction]
pub fn _zero_gradient<'py>(
    inputs: Vec<PyRef<'py, PyTensor>>,
    out: PyRef<'py, PyTensor>,
    name: String,
) -> PyResult<()> {
    let ts: Vec<&crate::tensor::Tensor> = inputs.iter().map(|t| &t.t).collect();
    Ok(ops::zero_gradient(&ts, &out.t, name)?)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_zero_gradient, m)?)?;
    m.add_function(wrap_pyfunction!(_undefined_grad, m)?)?;
    m.add_function(wrap_pyfunction!(_delayed_error, m)?)?;
    m.add_function(wrap_pyfunction!(_no_derivative, m)?)?;
    m.add_function(wrap_pyfunction!(_function_release_saved, m)?)?;
    m.add_function(wrap_pyfunction!(_function_record, m)?)?;
    m.add_function(wrap_pyfunction!(_function_saved, m)?)?;
    Ok(())
}
