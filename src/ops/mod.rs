//! Differentiable ops. Each op computes its result with a kernel and, right beside it, declares
//! its backward formula (written with these same ops, so `create_graph` records higher orders).
pub mod activation;
pub mod arith;
pub mod clamp;
pub mod convert;
pub mod divmod;
pub mod extrema;
pub mod factory;
pub mod function;
pub mod fused;
pub mod index;
pub mod indexing;
pub mod inplace;
pub mod inplace_checks;
mod inplace_saved;
pub mod join;
pub mod linalg;
pub mod loss;
pub mod masked;
pub mod matrix;
pub mod misc_unary;
pub mod multinomial;
pub mod nn;
pub mod norm;
pub mod pointwise;
pub mod prod;
pub mod random;
pub mod random_cuda;
pub mod region;
pub mod scatter;
pub mod sorting;
pub mod stats;
pub mod strided;
pub mod sum;
pub mod tangent;
pub mod unary;
pub mod view;
pub mod view_dtype;

use crate::error::{Error, Result, INFERENCE_SAVED};
use crate::grad_mode;
use crate::graph::arena::NodeRef;
use crate::graph::node::{BackwardFn, Edge, Node, NodeKind, SavedTensor, SavedValue, TensorMeta};
use crate::tensor::Tensor;
use smallvec::SmallVec;
pub use tangent::needs_formula;

pub use activation::*;
pub use arith::*;
pub use clamp::*;
pub use convert::*;
pub use divmod::*;
pub use extrema::*;
pub use factory::*;
pub use function::*;
pub use fused::*;
pub use index::*;
pub use indexing::*;
pub use inplace::*;
pub use inplace_checks::*;
pub use join::*;
pub use linalg::*;
pub use loss::*;
pub use masked::{masked_scatter, masked_select, take_flat};
pub use matrix::*;
pub use misc_unary::*;
pub use nn::*;
pub use norm::*;
pub use pointwise::declared::*;
pub use pointwise::{
    FloatBinary, FloatUnary, OpInfo, Rounding, FLOAT_BINARY_OPS, FLOAT_UNARY_OPS, ROUNDING_OPS,
};
pub use prod::*;
pub use region::*;
pub use scatter::{
    index_add, index_copy, index_fill, index_reduce, scatter, scatter_add, scatter_reduce,
    scatter_reduce_legacy, scatter_value, ScatterReduce,
};
pub use sorting::{kthvalue, median, median_dim, searchsorted, sort, topk};
pub use stats::*;
pub use strided::*;
pub use sum::*;
pub use unary::*;
pub use view::*;
pub use view_dtype::*;

/// PyTorch's VariableType collects an op's edges (each input's current grad_fn) before its
/// kernel checks anything: a stale view that may not take its base's new history is refused
/// before a shape, dtype or argument error. Ops that check before they compute call this first
/// (`needs_grad` asks again after, for nothing: the views are fresh then).
#[inline]
pub fn edges_first(inputs: &[&Tensor]) -> Result<()> {
    if grad_mode::recording() {
        for t in inputs {
            if t.is_view() && t.requires_grad() {
                refresh_view(t)?;
            }
        }
    }
    Ok(())
}

/// Does an op over these inputs record a node? First raises PyTorch's error for an input that
/// is a view which may not take the history its base got from an in-place write (made under
/// no_grad, one of several outputs, ...).
#[inline]
pub fn needs_grad(inputs: &[&Tensor]) -> Result<bool> {
    if needs_backward(inputs)? {
        return Ok(true);
    }
    // forward AD runs the formulas too, in any grad mode (PyTorch)
    Ok(tangent::wanted(inputs))
}

/// Does an op over these inputs give its outputs a grad_fn (grad mode on and an input requires
/// grad)?
#[inline]
fn needs_backward(inputs: &[&Tensor]) -> Result<bool> {
    if !grad_mode::recording() {
        return Ok(false);
    }
    let mut any = false;
    for t in inputs {
        if t.requires_grad() {
            if t.is_view() {
                refresh_view(t)?;
            }
            any = true;
        }
    }
    if any && crate::tensor::inference_tensors_exist() && inputs.iter().all(|t| t.is_inference()) {
        // an op on inference tensors alone never reaches autograd (PyTorch)
        return Ok(false);
    }
    Ok(any)
}

/// PyTorch's `throw_error_for_complex_autograd`: an op whose derivative formula is for real
/// numbers only refuses to record a complex result (the kernel ran first: an empty tensor, or
/// an op with complex kernels such as `silu`).
pub fn complex_autograd_check(name: &str, inputs: &[&Tensor], out: &Tensor) -> Result<()> {
    if out.dtype().is_complex() && needs_backward(inputs)? {
        return Err(Error::NotImplemented(format!(
            "{name} does not support automatic differentiation for outputs with complex dtype."
        )));
    }
    Ok(())
}

pub fn meta_of(t: &Tensor) -> TensorMeta {
    let d = t.data();
    TensorMeta {
        shape: crate::shape::Shape::from_slice(&d.shape),
        dtype: d.dtype,
        device: d.storage.device(),
    }
}

/// The leaf's AccumulateGrad node, created on first use and shared while any graph holds it.
pub fn grad_accumulator(t: &Tensor) -> NodeRef {
    let meta = meta_of(t);
    accumulator_in(t, &mut t.meta(), &meta)
}

/// [`grad_accumulator`] with `t`'s autograd metadata already locked and its shape known.
fn accumulator_in(t: &Tensor, m: &mut crate::tensor::AutogradMeta, meta: &TensorMeta) -> NodeRef {
    if let Some(w) = &m.grad_acc {
        if let Some(r) = NodeRef::upgrade_weak(w) {
            return r;
        }
    }
    let node = NodeRef::new(Node::new(
        "torch::autograd::AccumulateGrad",
        SmallVec::new(),
        SmallVec::new(),
        smallvec::smallvec![meta.clone()],
        NodeKind::AccumulateGrad(t.clone()),
        Vec::new(),
    ));
    m.grad_acc = Some(node.downgrade());
    node
}

/// The edge to `t` and the shape/dtype its gradient must have: one read of its layout and
/// one lock of its autograd metadata (this runs for every input of every recorded op).
fn edge_and_meta(t: &Tensor) -> (Edge, TensorMeta) {
    let (view, meta) = {
        let d = t.data();
        let meta = TensorMeta {
            shape: crate::shape::Shape::from_slice(&d.shape),
            dtype: d.dtype,
            device: d.storage.device(),
        };
        (d.base.is_some(), meta)
    };
    if view {
        // a view written through its base takes its new history now (an error for a view that
        // may not is raised before recording, by `needs_grad`)
        let _ = refresh_view(t);
    }
    let mut m = t.meta();
    let edge = match &m.grad_fn {
        Some(node) => Edge {
            node: Some(node.clone()),
            input_nr: m.output_nr,
        },
        None if m.requires_grad => Edge {
            node: Some(accumulator_in(t, &mut m, &meta)),
            input_nr: 0,
        },
        None => Edge::none(),
    };
    (edge, meta)
}

/// Where the gradient of `t` goes: its grad_fn, its AccumulateGrad, or nowhere. (A view
/// made under no_grad of a tensor that requires grad requires grad, but has no grad
/// accumulator of its own: PyTorch's grad_accumulator() reads the flag only.)
pub fn gradient_edge(t: &Tensor) -> Edge {
    edge_and_meta(t).0
}

/// [`gradient_edge`] of a root or an input of `backward`/`grad`: PyTorch asks for the tensor's
/// grad_fn there, so a stale view that may not take its base's new history is refused.
pub fn try_gradient_edge(t: &Tensor) -> Result<Edge> {
    if t.is_view() {
        refresh_view(t)?;
    }
    Ok(gradient_edge(t))
}

/// A tensor saved for backward (an input of the op); packed by the active saved-tensor hooks.
pub fn save(name: &'static str, t: &Tensor) -> Result<SavedTensor> {
    if crate::tensor::inference_tensors_exist()
        && t.is_inference()
        && !grad_mode::is_inference_mode()
    {
        return Err(Error::Runtime(INFERENCE_SAVED.into()));
    }
    let version = t.version();
    Ok(SavedTensor {
        name,
        value: SavedValue::Tensor(t.clone()),
        edge: None,
        version,
        is_output: false,
        output_nr: 0,
        had_grad_fn: t.meta().grad_fn.is_some(),
        view_owner: None,
        // a Python number is saved as it is (PyTorch saves it as a scalar, never packed)
        pack_pending: crate::graph::saved::any_active() && !t.data().wrapped_number,
        held_by_formula: false,
    })
}

/// Run the active saved-tensor hooks' pack on what `save`/`save_output` left for it, in the
/// order the node will unpack them ([`crate::graph::node::saved_order`]): a packed input keeps
/// where its gradient goes, for higher-order gradients through the unpacked tensor.
pub fn pack_pending(saved: &mut [SavedTensor], user_order: bool) -> Result<()> {
    if !saved.iter().any(|st| st.pack_pending) {
        return Ok(());
    }
    for i in crate::graph::node::saved_order(saved, user_order) {
        let st = &mut saved[i];
        if !std::mem::take(&mut st.pack_pending) {
            continue;
        }
        let SavedValue::Tensor(t) = &st.value else {
            continue;
        };
        if let Some(p) = crate::graph::saved::pack(t)? {
            if !st.is_output {
                st.edge = Some(gradient_edge(t));
            }
            st.value = SavedValue::Packed(p);
        }
    }
    Ok(())
}

/// A slot for a tensor the formula does not need in this call (`_saved_<name>` reads None).
pub fn not_saved(name: &'static str) -> SavedTensor {
    SavedTensor {
        name,
        value: SavedValue::Absent,
        edge: None,
        version: 0,
        is_output: false,
        output_nr: 0,
        had_grad_fn: false,
        view_owner: None,
        pack_pending: false,
        held_by_formula: false,
    }
}

/// An absent slot for what PyTorch saves and the formula holds itself (an index op's index
/// tensors): a second backward through the node is refused, as PyTorch's is.
pub fn held_by_formula(name: &'static str) -> SavedTensor {
    SavedTensor {
        held_by_formula: true,
        ..not_saved(name)
    }
}

/// `save(name, t)` when `needed`, else an absent slot (PyTorch saves only what the gradients of
/// the inputs that require grad read).
pub fn save_if(needed: bool, name: &'static str, t: &Tensor) -> Result<SavedTensor> {
    if needed {
        save(name, t)
    } else {
        Ok(not_saved(name))
    }
}

/// An output saved for backward: kept as an alias without grad_fn (see `SavedTensor`), or
/// packed by the active saved-tensor hooks (which see that alias).
pub fn save_output(name: &'static str, t: &Tensor, output_nr: u32) -> Result<SavedTensor> {
    Ok(SavedTensor {
        name,
        value: SavedValue::Tensor(t.detached()),
        edge: None,
        version: t.version(),
        is_output: true,
        output_nr,
        had_grad_fn: false,
        view_owner: None,
        pack_pending: crate::graph::saved::any_active(),
        held_by_formula: false,
    })
}

/// A zero gradient shaped like `g` that records nothing, even under create_graph (PyTorch's
/// `zeros_like(grad)` in formulas of ops whose derivative is zero: floor, sign, fill, ...).
pub fn zeros_like_grad(g: &Tensor) -> Result<Tensor> {
    Tensor::zeros_on(&g.shape(), g.dtype(), g.device())
}

/// Make the node for an op over `inputs` whose outputs have `output_meta`.
pub fn record_node(
    name: impl Into<std::borrow::Cow<'static, str>>,
    inputs: &[&Tensor],
    output_meta: SmallVec<[TensorMeta; 1]>,
    saved: Vec<SavedTensor>,
    backward: BackwardFn,
) -> NodeRef {
    let (next, input_meta): (SmallVec<[Edge; 2]>, SmallVec<[TensorMeta; 2]>) =
        inputs.iter().map(|t| edge_and_meta(t)).unzip();
    NodeRef::new(Node::new(
        name,
        next,
        input_meta,
        output_meta,
        NodeKind::Function(backward),
        saved,
    ))
}

/// Record `outputs = op(inputs)`: one node with an edge per input; outputs become non-leaves.
///
/// Called when `needs_grad(inputs)`: that is also when an input carries a forward-AD tangent, in
/// any grad mode. The outputs take the node as grad_fn only when autograd records (grad mode on
/// and an input requires grad); the outputs' tangents are computed from the node's formula.
pub fn record(
    name: impl Into<std::borrow::Cow<'static, str>>,
    inputs: &[&Tensor],
    outputs: &[&Tensor],
    mut saved: Vec<SavedTensor>,
    backward: BackwardFn,
) -> Result<()> {
    pack_pending(&mut saved, false)?;
    let output_meta = outputs.iter().map(|t| meta_of(t)).collect();
    let forward = tangent::wanted(inputs);
    let backward_too = !forward || needs_backward(inputs)?;
    let node = record_node(name, inputs, output_meta, saved, backward);
    if backward_too {
        attach(&node, outputs);
    }
    if forward {
        tangent::propagate(&node, inputs, outputs, backward_too)?;
    }
    Ok(())
}

/// Give the node `out` was just recorded under (if it was) the op's non-tensor arguments, for
/// `grad_fn._saved_<name>`. Built only when there is such a node.
pub fn set_attrs(
    out: &Tensor,
    attrs: impl FnOnce() -> Vec<(&'static str, crate::graph::node::SavedAttr)>,
) {
    let node = out.meta().grad_fn.clone();
    if let Some(node) = node {
        let _ = node.attrs.set(attrs().into_boxed_slice());
    }
}

/// A Python-number argument as PyTorch's Scalar shows it (an integral value as an int: the
/// caller's int/float spelling is not known here).
pub fn scalar_attr(v: f64) -> crate::graph::node::SavedAttr {
    use crate::graph::node::SavedAttr;
    if v.fract() == 0.0 && v.abs() < 9.0e15 {
        SavedAttr::ScalarInt(v as i64)
    } else {
        SavedAttr::Float(v)
    }
}

/// The outputs become non-leaves with `node` as their grad_fn.
fn attach(node: &NodeRef, outputs: &[&Tensor]) {
    for (i, o) in outputs.iter().enumerate() {
        if !o.dtype().is_differentiable() {
            continue;
        }
        let view = o.is_view();
        let version = if view { o.version() } else { 0 };
        let mut m = o.meta();
        if m.is_inference {
            // outside inference mode only a view of an inference tensor is one: it records
            // nothing (PyTorch)
            continue;
        }
        m.grad_fn = Some(node.clone());
        m.output_nr = i as u32;
        if view {
            m.attr_version = version;
        }
    }
}

thread_local! {
    /// Bit i set: the node whose formula runs now needs the gradient of its input i.
    static NEEDED_INPUTS: std::cell::Cell<u64> = const { std::cell::Cell::new(u64::MAX) };
}

/// Does the formula running now need to compute its input `i`'s gradient? (PyTorch's
/// `task_should_compute_output`: an input that has no edge, one that does not require grad,
/// gets no gradient, and an expensive formula such as a matrix product skips computing it.)
/// True outside the engine, and for the inputs of a forward-mode formula.
pub fn input_needed(i: usize) -> bool {
    i >= 64 || NEEDED_INPUTS.with(|m| m.get() >> i & 1 == 1)
}

/// While alive, `input_needed` answers for a node with these edges (all inputs: `None`).
pub(crate) struct NeededInputs(u64);

impl NeededInputs {
    /// Exactly the inputs where `which` is true (forward AD: those with a tangent). A formula
    /// saves an input only for the gradients that read it, so it must not be asked for others.
    pub(crate) fn only(which: impl Iterator<Item = bool>) -> NeededInputs {
        let mask = which
            .enumerate()
            .filter(|(i, w)| *i >= 64 || *w)
            .fold(0u64, |m, (i, _)| {
                m | 1u64.checked_shl(i as u32).unwrap_or(0)
            });
        NeededInputs(NEEDED_INPUTS.with(|m| m.replace(mask)))
    }

    pub(crate) fn set(next: Option<&[crate::graph::node::Edge]>) -> NeededInputs {
        let mask = match next {
            None => u64::MAX,
            Some(edges) => edges
                .iter()
                .enumerate()
                .filter(|(i, e)| *i >= 64 || e.node.is_some())
                .fold(0u64, |m, (i, _)| {
                    m | 1u64.checked_shl(i as u32).unwrap_or(0)
                }),
        };
        NeededInputs(NEEDED_INPUTS.with(|m| m.replace(mask)))
    }
}

impl Drop for NeededInputs {
    fn drop(&mut self) {
        NEEDED_INPUTS.with(|m| m.set(self.0));
    }
}

/// `f()` when the running formula needs input `i`'s gradient, else no gradient for it.
pub fn if_needed(i: usize, f: impl FnOnce() -> Result<Tensor>) -> Result<Option<Tensor>> {
    if input_needed(i) {
        f().map(Some)
    } else {
        Ok(None)
    }
}

/// Gradient formulas return one entry per input.
#[macro_export]
macro_rules! grads {
    ($($e:expr),* $(,)?) => { Ok(vec![$(Some($e)),*]) };
}
