//! User-defined functions (`torch.autograd.Function`): the node for a forward the user wrote and
//! PyTorch's rules for what its outputs become (`_wrap_outputs` in PyTorch's
//! `custom_function.cpp`). The forward and backward themselves are the caller's (the bindings
//! call Python); the core decides edges, histories, views and saved tensors.
use super::*;
use crate::graph::node::CustomBackwardFn;
use crate::tensor::CreationMeta;

const DIRTY_VIEW_MULTI: &str = "If your Function modifies inplace an input that is a view of another Tensor, your Function cannot return more than one Tensor. This is not supported by the current autograd engine. You should either make sure the input is not a view (using .clone() for example) or make your Function only return one Tensor (potentially splitting it into two Functions: one doing the inplace that returns a single Tensor and a second one that does the other operations). You can ask on the forum https://discuss.pytorch.org/ if you need help to do this change.";
const DIRTY_NOT_INPUT: &str = "ctx.mark_dirty() received a tensor that was not an input. Only input Tensors that have been mutated should be passed to ctx.mark_dirty().";
const DIRTY_LEAF: &str =
    "a leaf Variable that requires grad has been used in an in-place operation.";
const DIRTY_NOT_RETURNED: &str = "Some elements marked as dirty during the forward method were not returned as output. The inputs that are modified inplace must all be outputs of the Function.";

/// What a user function's forward took and returned.
pub struct FunctionCall<'a> {
    /// The positional arguments, `None` for those that are not tensors (the node has an edge
    /// per tensor argument).
    pub inputs: &'a [Option<Tensor>],
    /// The returned values, `None` for those that are not tensors.
    pub outputs: &'a [Option<Tensor>],
    /// Tensors passed to `ctx.mark_dirty` (inputs modified in place).
    pub dirty: &'a [Tensor],
    /// Tensors passed to `ctx.mark_non_differentiable`.
    pub non_differentiable: &'a [Tensor],
}

/// The metadata of a slot that holds no tensor (a non-tensor argument or output).
fn absent_meta() -> TensorMeta {
    TensorMeta {
        shape: crate::shape::Shape::new(),
        dtype: crate::dtype::DType::Float32,
        device: crate::device::Device::Cpu,
    }
}

fn contains(list: &[Tensor], t: &Tensor) -> bool {
    list.iter().any(|d| d.ptr_eq(t))
}

/// A new tensor over `t`'s memory, a view of it that records nothing (PyTorch returns an input
/// that a function returns unchanged as such a view, so the input keeps its own history).
fn view_as_self(t: &Tensor) -> Result<Tensor> {
    let _g = grad_mode::GradModeGuard::new(false);
    alias(t)
}

/// Record a user function's call: make its node when gradients are recorded (grad mode on and an
/// input requires grad) and give each output its history. Returns the node and the outputs as the
/// caller must return them (an input returned unchanged becomes a view of it; a
/// non-differentiable output a detached one).
pub fn record_function(
    name: String,
    call: &FunctionCall<'_>,
    backward: CustomBackwardFn,
) -> Result<(Option<NodeRef>, Vec<Option<Tensor>>)> {
    let outputs = call.outputs;
    for d in call.dirty {
        if !outputs.iter().flatten().any(|o| o.ptr_eq(d)) {
            return Err(Error::Runtime(DIRTY_NOT_RETURNED.into()));
        }
    }
    // The in-place writes happened with gradients off; marking counts as a write, as PyTorch.
    for d in call.dirty {
        super::inplace::mark_written(d);
    }
    let executable =
        grad_mode::recording() && call.inputs.iter().flatten().any(|t| t.requires_grad());
    let node = if executable {
        // One edge per tensor argument (the backward's gradients for the others are dropped).
        let (next, input_meta): (SmallVec<[Edge; 2]>, SmallVec<[TensorMeta; 2]>) =
            call.inputs.iter().flatten().map(edge_and_meta).unzip();
        let output_meta = outputs
            .iter()
            .map(|t| t.as_ref().map_or_else(absent_meta, meta_of))
            .collect();
        Some(NodeRef::new(Node::new(
            name,
            next,
            input_meta,
            output_meta,
            NodeKind::Custom(backward),
            Vec::new(),
        )))
    } else {
        None
    };

    let mut result = Vec::with_capacity(outputs.len());
    let mut differentiable_outputs = 0;
    for (i, out) in outputs.iter().enumerate() {
        let Some(var) = out else {
            result.push(None);
            continue;
        };
        let is_input = call.inputs.iter().flatten().any(|t| t.ptr_eq(var));
        let is_modified = contains(call.dirty, var);
        let differentiable = node.is_some()
            && !contains(call.non_differentiable, var)
            && var.dtype().is_differentiable();
        let var = match &node {
            _ if !differentiable => {
                if !var.requires_grad() {
                    if is_input && !is_modified {
                        view_as_self(var)?
                    } else {
                        var.clone()
                    }
                } else if is_input {
                    var.detached()
                } else {
                    if !var.is_view() {
                        let mut m = var.meta();
                        m.grad_fn = None;
                        m.requires_grad = false;
                    }
                    var.clone()
                }
            }
            Some(node) if is_modified => {
                if var.is_leaf() && var.requires_grad() {
                    return Err(Error::Runtime(DIRTY_LEAF.into()));
                }
                if let Some(base) = var.base() {
                    // (a plain tensor that is not an input only gets a warning, from the caller)
                    if !is_input {
                        return Err(Error::Runtime(DIRTY_NOT_INPUT.into()));
                    }
                    // PyTorch's check_inplace: how the view was made first, then its base
                    let creation = var.meta().view_creation;
                    if creation != CreationMeta::Default {
                        return Err(crate::ops::view_rebase_error(var, creation, false));
                    }
                    if base.is_leaf() && base.requires_grad() {
                        return Err(Error::Runtime(crate::error::LEAF_VIEW_INPLACE.into()));
                    }
                }
                if var.is_view() && outputs.len() > 1 {
                    return Err(Error::Runtime(DIRTY_VIEW_MULTI.into()));
                }
                {
                    let mut m = var.meta();
                    m.grad = None;
                    m.hooks.clear();
                    m.hook_objects.clear();
                }
                let r = var.detached();
                {
                    let mut m = r.meta();
                    m.grad_fn = Some(node.clone());
                    m.output_nr = i as u32;
                }
                rebase_history(var, var.base(), &r)?;
                var.clone()
            }
            Some(node) => {
                let v = if is_input {
                    view_as_self(var)?
                } else {
                    var.clone()
                };
                set_history(&v, Some(node.clone()), i as u32);
                v
            }
            None => unreachable!("differentiable outputs have a node"),
        };
        // A view a function returns may not be written in place (PyTorch's _wrap_outputs).
        if !(is_input && is_modified) && var.is_view() {
            var.meta().view_creation = CreationMeta::InCustomFunction;
        }
        if differentiable {
            differentiable_outputs += 1;
        }
        result.push(Some(var));
    }
    if differentiable_outputs > 1 {
        for var in result.iter().flatten().filter(|v| v.is_view()) {
            var.meta().view_creation = CreationMeta::MultiOutputNode;
        }
    }
    Ok((node, result))
}

/// Keep `to_save` (`ctx.save_for_backward`) on a user function's node: outputs of the node as
/// aliases it re-attaches when unpacked, anything else as it is, each with its version now.
pub fn save_function_tensors(
    node: &NodeRef,
    to_save: &[Tensor],
    outputs: &[Option<Tensor>],
) -> Result<()> {
    let mut saved = Vec::with_capacity(to_save.len());
    for t in to_save {
        let own = t.grad_fn().is_some_and(|g| g.ptr_eq(node));
        let nr = outputs
            .iter()
            .position(|o| o.as_ref().is_some_and(|o| o.ptr_eq(t)));
        saved.push(match nr {
            Some(nr) if own => save_output("saved", t, nr as u32)?,
            _ => save("saved", t)?,
        });
    }
    pack_pending(&mut saved, true)?;
    node.set_saved(saved);
    Ok(())
}

/// PyTorch's DelayedError (`once_differentiable`): outputs that alias `inputs` (None stays None)
/// behind a node named `torch::autograd::Error` whose backward raises `msg`, so a gradient
/// computed without recording fails when something differentiates it again.
pub fn delayed_error(inputs: &[Option<Tensor>], msg: String) -> Result<Vec<Option<Tensor>>> {
    let outs: Vec<Option<Tensor>> = inputs
        .iter()
        .map(|t| t.as_ref().map(Tensor::detached))
        .collect();
    if !(grad_mode::recording() && inputs.iter().flatten().any(|t| t.requires_grad())) {
        return Ok(outs);
    }
    let (next, input_meta): (SmallVec<[Edge; 2]>, SmallVec<[TensorMeta; 2]>) = inputs
        .iter()
        .map(|t| match t {
            Some(t) => edge_and_meta(t),
            None => (Edge::none(), absent_meta()),
        })
        .unzip();
    let output_meta = outs
        .iter()
        .map(|t| t.as_ref().map_or_else(absent_meta, meta_of))
        .collect();
    let node = NodeRef::new(Node::new(
        "torch::autograd::Error",
        next,
        input_meta,
        output_meta,
        NodeKind::Function(Box::new(move |_, _| Err(Error::Runtime(msg.clone())))),
        Vec::new(),
    ));
    for (i, o) in outs.iter().enumerate() {
        if let Some(o) = o.as_ref().filter(|o| o.dtype().is_differentiable()) {
            set_history(o, Some(node.clone()), i as u32);
        }
    }
    Ok(outs)
}

/// `out` (computed from `input` without recording) given a node `name` whose backward raises
/// PyTorch's "the derivative for '`op`' is not implemented." (ops such as unique, whose
/// results require grad but have no formula).
pub fn no_derivative(input: &Tensor, out: &Tensor, name: String, op: &str) -> Result<()> {
    no_derivative_of(&[input], out, name, op)
}

/// [`no_derivative`] of several inputs (a backward formula's result computed from the output
/// gradient and saved inputs, when PyTorch has no derivative for that formula).
pub fn no_derivative_of(inputs: &[&Tensor], out: &Tensor, name: String, op: &str) -> Result<()> {
    if out.dtype().is_differentiable() && needs_grad(inputs)? {
        // PyTorch's generic NotImplemented node names the aten op; a formula marked
        // not_implemented in its derivatives.yaml names the op in quotes
        // (a RuntimeError there, a NotImplementedError here)
        let generic = name == "torch::autograd::NotImplemented";
        let msg = if generic {
            format!("derivative for aten::{op} is not implemented")
        } else {
            format!("the derivative for '{op}' is not implemented.")
        };
        record(
            name,
            inputs,
            &[out],
            vec![],
            Box::new(move |_, _| {
                Err(if generic {
                    Error::Runtime(msg.clone())
                } else {
                    Error::NotImplemented(msg.clone())
                })
            }),
        )?;
    }
    Ok(())
}

/// Makes `out` (a fresh result, no history) the output of a node `name` over `inputs` that
/// passes zeros back to each: PyTorch's derivative of a sample with respect to the parameters
/// it was drawn with (`normal(mean, std)`: NormalBackward1-3, `bernoulli(p)`: BernoulliBackward0).
pub fn zero_gradient(inputs: &[&Tensor], out: &Tensor, name: String) -> Result<()> {
    if out.dtype().is_differentiable() && needs_grad(inputs)? {
        let metas: Vec<(Vec<usize>, crate::dtype::DType, crate::device::Device)> = inputs
            .iter()
            .map(|t| (t.shape().to_vec(), t.dtype(), t.device()))
            .collect();
        record(
            name,
            inputs,
            &[out],
            vec![],
            Box::new(move |_, _| {
                metas
                    .iter()
                    .map(|(s, d, dev)| Ok(Some(Tensor::zeros_on(s, *d, *dev)?)))
                    .collect()
            }),
        )?;
    }
    Ok(())
}

/// A copy of `t` behind a node that passes no gradient on (PyTorch's UndefinedGrad, with which
/// gradcheck checks that backward formulas accept undefined output gradients).
pub fn undefined_grad(t: &Tensor) -> Result<Tensor> {
    let out = {
        let _g = grad_mode::GradModeGuard::new(false);
        clone(t)?.detached()
    };
    if needs_grad(&[t])? {
        record(
            "torch::autograd::UndefinedGradBackward",
            &[t],
            &[&out],
            vec![],
            Box::new(|_, _| Ok(vec![None])),
        )?;
    }
    Ok(out)
}
