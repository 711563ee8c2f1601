//! Forward-mode AD: tangents carried by tensors ("dual tensors") while a dual level is open, and
//! their propagation through every op.
//!
//! A tensor's tangent lives in its autograd metadata. Every op that records a backward node
//! (`ops::record`) computes its outputs' tangents from its inputs' ones here, with the op's own
//! backward formula: the formula is linear in the output gradient `u`, `vjp(u) = Jᵀu`, so
//! `J·t` is the gradient with respect to `u` of `<vjp(u), t>` (the "double-vjp" trick:
//! differentiate the backward formula once more, with respect to its gradient). Every op with a
//! differentiable backward formula therefore has its Jacobian-vector product, with no second
//! formula to keep in step. It costs a small nested backward pass per op, about three times an
//! op's backward; the tangents are exact (no finite differences).
//!
//! When grad mode is on, the tangent's computation is recorded like any other (PyTorch does the
//! same), so a tangent can be differentiated again (forward-over-reverse).
//!
//! Only one level exists at a time, as in PyTorch ("Nested forward mode AD is not supported at
//! the moment"); leaving it drops every tangent.
use crate::error::{Error, Result};
use crate::graph::arena::NodeRef;
use crate::graph::node::{Node, NodeKind};
use crate::tensor::{Tensor, TensorImpl};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Mutex, Weak};

/// The open level (0) or -1.
static LEVEL: AtomicI64 = AtomicI64::new(-1);
/// The tensors given a tangent at the open level, so that leaving it can drop them.
static DUALS: Mutex<Vec<Weak<TensorImpl>>> = Mutex::new(Vec::new());
/// The registry's length at which dead entries are dropped next.
static PRUNE_AT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(1024);

pub use crate::grad_mode::{is_fwd_grad_enabled, set_fwd_grad_enabled, FwdGradGuard};

/// Is a dual level open (and forward grads enabled on this thread)? One atomic load first: ops
/// ask it on every call.
#[inline]
pub fn active() -> bool {
    LEVEL.load(Ordering::Relaxed) >= 0 && is_fwd_grad_enabled()
}

/// The open level, or -1.
pub fn current_level() -> i64 {
    LEVEL.load(Ordering::Relaxed)
}

/// The nested backward pass the propagation runs (`J·t` from the formula's vjp): from each
/// root (a tensor and its gradient) to `inputs`, recording a graph when `create` is set. The
/// engine's, installed by `forward_ad::enter_dual_level` when it opens a level, so that ops
/// (below the engine) need no call upwards.
pub type NestedBackward =
    fn(roots: &[(Tensor, Tensor)], inputs: &[Tensor], create: bool) -> Result<Vec<Option<Tensor>>>;

static NESTED_BACKWARD: std::sync::OnceLock<NestedBackward> = std::sync::OnceLock::new();

/// Open a dual level with the engine's nested backward; PyTorch supports one level at a time.
/// (`forward_ad::enter_dual_level` is the public entry.)
pub fn open_level(nested: NestedBackward) -> Result<i64> {
    let _ = NESTED_BACKWARD.set(nested);
    if LEVEL
        .compare_exchange(-1, 0, Ordering::SeqCst, Ordering::SeqCst)
        .is_err()
    {
        return Err(Error::Runtime(
            "Nested forward mode AD is not supported at the moment".into(),
        ));
    }
    Ok(0)
}

/// Close the open level: every tangent made in it is dropped.
pub fn exit_dual_level(level: i64) -> Result<()> {
    if level != current_level() || level < 0 {
        return Err(Error::Runtime(
            "Trying to exit a forward AD level that was not the last one that was created. This is not supported.".into(),
        ));
    }
    let duals = std::mem::take(&mut *DUALS.lock().unwrap_or_else(|e| e.into_inner()));
    LEVEL.store(-1, Ordering::SeqCst);
    // the tangents are dropped outside the registry's lock (dropping one may drop tensors)
    let dropped: Vec<Option<Tensor>> = duals
        .iter()
        .filter_map(Weak::upgrade)
        .map(|t| Tensor(t).meta().fw_grad.take())
        .collect();
    drop(dropped);
    Ok(())
}

/// `torch.autograd.forward_ad.make_dual`: a view of `primal` carrying `tangent` (kept as it is
/// when its strides are the primal's, else copied into the primal's layout).
pub fn make_dual(primal: &Tensor, tangent: &Tensor, level: i64) -> Result<Tensor> {
    if level < 0 || current_level() < 0 {
        return Err(Error::Runtime(
            "Trying to create a dual Tensor for forward AD but no level exists, make sure to enter_dual_level() first.".into(),
        ));
    }
    if level != current_level() {
        return Err(Error::Runtime(format!(
            "Invalid forward AD level {level}: only level {} exists",
            current_level()
        )));
    }
    for (what, t) in [("primal", primal), ("tangent", tangent)] {
        let dt = t.dtype();
        if !(dt.is_floating() || dt.is_complex()) {
            return Err(Error::Value(format!(
                "Expected {what} to be floating point or complex, but got: torch.{}",
                dt.name()
            )));
        }
    }
    if primal.meta().fw_grad.is_some() {
        return Err(Error::Runtime(format!(
            "Making a dual Tensor based on a Tensor that already has a forward gradient at the same level {level} is not supported."
        )));
    }
    if tangent.meta().fw_grad.is_some() {
        return Err(Error::Runtime(format!(
            "Setting a forward grad that itself has a forward gradient at the same level{level} is not supported."
        )));
    }
    let (ps, ts) = (primal.shape(), tangent.shape());
    if ps != ts {
        return Err(Error::Runtime(format!(
            "Trying to set a forward gradient that has a different size than that of the original Tensor, this is not supported. Tensor is of size {} while the given forward gradient is of size {}.",
            crate::shape::fmt_shape(&ps),
            crate::shape::fmt_shape(&ts)
        )));
    }
    if tangent.device() != primal.device() {
        return Err(Error::Runtime(format!(
            "Trying to set a forward gradient that has a different device than that of the original Tensor, this is not supported. Tensor is on {} while the given forward gradient is on {}.",
            primal.device(),
            tangent.device()
        )));
    }
    // the tangent is kept as it is when it is laid out as the primal (strides, offset and
    // storage size, as PyTorch's metadata check) and has its conj bit; otherwise it is copied
    // into memory laid out as the primal's
    let same_conj = tangent.meta().is_conj == primal.meta().is_conj;
    let (same_layout, storage_len, offset, strides) = {
        let (t, p) = (tangent.data(), primal.data());
        let len = |d: &crate::tensor::TensorData| d.storage.nbytes() / d.dtype.size();
        // strides of size-1 dims do not matter, nor anything for an empty tensor
        let strides_match = p
            .shape
            .iter()
            .zip(t.strides.iter().zip(&p.strides))
            .all(|(&n, (a, b))| n <= 1 || a == b);
        let empty = p.shape.contains(&0);
        (
            empty || (strides_match && t.offset == p.offset && len(&t) == len(&p)),
            len(&p),
            p.offset,
            p.strides.clone(),
        )
    };
    let tangent = if same_conj && same_layout {
        tangent.clone()
    } else if primal.numel() == 0 || primal.device().is_meta() {
        crate::backend::grad_copy(tangent, primal)?
    } else {
        let memory = Tensor::zeros_on(&[storage_len], tangent.dtype(), tangent.device())?;
        let copy = memory.restrided(&ps, &strides, offset);
        crate::backend::copy_into(&copy, tangent)?;
        copy
    };
    let dual = {
        let _off = FwdGradGuard::new(false);
        let shape: Vec<i64> = ps.iter().map(|&n| n as i64).collect();
        super::view(primal, &shape)?
    };
    set_tangent(&dual, Some(tangent));
    Ok(dual)
}

/// `torch.autograd.forward_ad.unpack_dual`: a view of `t` without its tangent, and the tangent
/// (`t` itself and None when it carries none).
pub fn unpack_dual(t: &Tensor) -> Result<(Tensor, Option<Tensor>)> {
    let Some(tangent) = tangent(t) else {
        return Ok((t.clone(), None));
    };
    let _off = FwdGradGuard::new(false);
    Ok((super::alias(t)?, Some(tangent)))
}

/// `t`'s tangent at the open level.
#[inline]
pub fn tangent(t: &Tensor) -> Option<Tensor> {
    if !active() {
        return None;
    }
    t.meta().fw_grad.clone()
}

/// Does `t` carry a tangent?
#[inline]
pub fn has_tangent(t: &Tensor) -> bool {
    active() && t.meta().fw_grad.is_some()
}

/// Give `t` a tangent (None removes it). The caller has checked the shape.
pub fn set_tangent(t: &Tensor, tangent: Option<Tensor>) {
    let had = {
        let mut m = t.meta();
        let had = m.fw_grad.is_some();
        m.fw_grad = tangent.clone();
        had
    };
    if tangent.is_some() && !had {
        let mut duals = DUALS.lock().unwrap_or_else(|e| e.into_inner());
        duals.push(std::sync::Arc::downgrade(&t.0));
        // a long computation inside one level: forget the tensors that are gone, now and then
        if duals.len() >= PRUNE_AT.load(Ordering::Relaxed) {
            duals.retain(|w| w.strong_count() > 0);
            PRUNE_AT.store((2 * duals.len()).max(1024), Ordering::Relaxed);
        }
    }
}

/// Must an op over `inputs` run its formulas for forward AD?
#[inline]
pub fn wanted(inputs: &[&Tensor]) -> bool {
    active() && inputs.iter().any(|t| t.meta().fw_grad.is_some())
}

/// Does an op need the gradient formula for `t`: its gradient goes somewhere (it has an edge),
/// or it carries a tangent?
#[inline]
pub fn needs_formula(t: &Tensor) -> bool {
    t.has_grad_edge() || has_tangent(t)
}

/// The outputs' tangents of the op `node` just recorded over `inputs`, computed from the inputs'
/// tangents by transposing its backward formula (see the module docs). `attach`: the node is the
/// outputs' grad_fn (its saved outputs may take it back, so the tangent is differentiable).
///
/// An output that is a view of an input gets the same view of that input's tangent (PyTorch's
/// rule: in-place writes through either are seen by both), without a nested pass. Any other
/// output's tangent is a tensor of its own, never memory of an input's tangent.
pub fn propagate(
    node: &NodeRef,
    inputs: &[&Tensor],
    outputs: &[&Tensor],
    attach: bool,
) -> Result<()> {
    let tangents: Vec<Option<Tensor>> = inputs.iter().map(|t| tangent(t)).collect();
    if tangents.iter().all(Option::is_none) {
        return Ok(());
    }
    let mut pending: Vec<usize> = Vec::new();
    for (j, o) in outputs.iter().enumerate() {
        if !o.dtype().is_differentiable() {
            continue;
        }
        match view_of_tangent(o, inputs, &tangents) {
            Some(v) => set_tangent(o, Some(v)),
            None => pending.push(j),
        }
    }
    if pending.is_empty() {
        tag_saved_outputs(node, outputs);
        return Ok(());
    }
    let NodeKind::Function(f) = &node.kind else {
        return Ok(());
    };
    let create = crate::grad_mode::is_grad_enabled();
    let _on = crate::grad_mode::GradModeGuard::new(true);
    // the formula's own ops compute on primal values (the saved inputs carry tangents too)
    let _primal = FwdGradGuard::new(false);
    // the output gradients, as fresh leaves the formula is differentiated against
    let us: Vec<Tensor> = outputs
        .iter()
        .enumerate()
        .map(|(j, o)| {
            let u = Tensor::zeros_on(&o.shape(), o.dtype(), o.device())?;
            if pending.contains(&j) {
                u.meta().requires_grad = true;
            }
            Ok(u)
        })
        .collect::<Result<_>>()?;
    let saved = Node::unpack_saved(node, attach && create)?;
    // every input with a tangent needs its gradient, edge or not (and only those: the
    // others' saved partners may be absent)
    let grads = {
        let _with_tangents = super::NeededInputs::only(tangents.iter().map(Option::is_some));
        f(&saved, &us)?
    };
    // J·t = d/du Σᵢ <gᵢ(u), tᵢ>: a backward pass from each gᵢ with tᵢ as its gradient
    let mut roots = Vec::new();
    for ((g, t), x) in grads.into_iter().zip(&tangents).zip(inputs) {
        if let (Some(g), Some(t)) = (g, t) {
            // a broadcast input's gradient is reduced to its shape (the engine does it after
            // the formula)
            let shape = x.shape();
            let g = if g.shape() != shape {
                super::sum_to(&g, &shape)?
            } else {
                g
            };
            if g.requires_grad() {
                let t = if t.dtype() != g.dtype() {
                    crate::backend::cast(t, g.dtype())?
                } else {
                    t.clone()
                };
                roots.push((g, t));
            }
        }
    }
    let diff: Vec<Tensor> = pending.iter().map(|&j| us[j].clone()).collect();
    let results = if roots.is_empty() {
        vec![None; diff.len()]
    } else {
        // a level is open, so its opener installed the engine's pass
        let nested = NESTED_BACKWARD.get().ok_or_else(|| {
            Error::Runtime("forward AD: no dual level was opened through forward_ad".into())
        })?;
        nested(&roots, &diff, create)?
    };
    for (&j, jt) in pending.iter().zip(results) {
        let o = outputs[j];
        let jt = match jt {
            Some(jt) if jt.dtype() != o.dtype() => crate::backend::cast(&jt, o.dtype())?,
            Some(jt) if shares_memory(&jt, &tangents) => crate::backend::contiguous(&jt)?,
            Some(jt) => jt,
            None => Tensor::zeros_on(&o.shape(), o.dtype(), o.device())?,
        };
        set_tangent(o, Some(jt));
    }
    tag_saved_outputs(node, outputs);
    Ok(())
}

/// The node's saved outputs (aliases without grad_fn) carry the outputs' tangents, so a backward
/// formula that reads `result` under forward AD (forward-over-reverse) sees its tangent.
fn tag_saved_outputs(node: &NodeRef, outputs: &[&Tensor]) {
    let saved = crate::graph::node::lock(&node.saved);
    for st in saved.tensors.iter().filter(|s| s.is_output) {
        if let (Some(a), Some(o)) = (st.tensor(), outputs.get(st.output_nr as usize)) {
            set_tangent(a, tangent(o));
        }
    }
}

/// For an output that is a view of an input (same storage, same dtype) whose tangent is laid out
/// as the input is: the same window of that tangent.
fn view_of_tangent(o: &Tensor, inputs: &[&Tensor], tangents: &[Option<Tensor>]) -> Option<Tensor> {
    let od = o.data();
    for (x, t) in inputs.iter().zip(tangents) {
        let Some(t) = t else { continue };
        let xd = x.data();
        if !std::ptr::eq(xd.storage.as_ptr(), od.storage.as_ptr()) {
            continue;
        }
        if let Some(v) = window(&od, &xd, t) {
            return Some(v);
        }
    }
    None
}

/// The window of `tangent` (laid out as `x`) that `view` is of `x`'s storage.
fn window(
    view: &crate::tensor::TensorData,
    x: &crate::tensor::TensorData,
    tangent: &Tensor,
) -> Option<Tensor> {
    let td = tangent.data();
    if view.dtype != x.dtype || td.dtype != x.dtype || td.strides != x.strides {
        return None;
    }
    let offset = (view.offset as isize) - (x.offset as isize) + (td.offset as isize);
    if offset < 0 {
        return None;
    }
    drop(td);
    Some(tangent.view_with(&view.shape, &view.strides, offset as usize))
}

/// Does `t` share memory with one of `tangents`?
fn shares_memory(t: &Tensor, tangents: &[Option<Tensor>]) -> bool {
    let p = t.data().storage.as_ptr();
    tangents
        .iter()
        .flatten()
        .any(|x| std::ptr::eq(x.data().storage.as_ptr(), p))
}

/// Forward AD of an in-place write: `target` was just given `r`'s values; its tangent becomes
/// `r`'s (zero when `r` carries none), written into the tangent it has (so views of it see the
/// change, as in PyTorch). A view without a tangent of its own writes into its base's tangent,
/// made (zeros) if the base had none, and takes the matching window of it.
pub fn write_inplace(target: &Tensor, r: &Tensor) -> Result<()> {
    let new = tangent(r);
    let own = tangent(target);
    let base = target.base();
    let base_t = base.as_ref().and_then(tangent);
    if new.is_none() && own.is_none() && base_t.is_none() {
        return Ok(());
    }
    let new = match new {
        Some(t) => t,
        None => Tensor::zeros_on(&target.shape(), target.dtype(), target.device())?,
    };
    let dest = match (own, base) {
        (Some(own), _) => Some(own),
        (None, Some(base)) => {
            let bt = match base_t {
                Some(bt) => bt,
                None => {
                    let z = Tensor::zeros_on(&base.shape(), base.dtype(), base.device())?;
                    let z = if z.data().strides != base.data().strides {
                        crate::backend::grad_copy(&z, &base)?
                    } else {
                        z
                    };
                    set_tangent(&base, Some(z.clone()));
                    z
                }
            };
            let w = window(&target.data(), &base.data(), &bt);
            if let Some(w) = &w {
                set_tangent(target, Some(w.clone()));
            }
            w
        }
        (None, None) => None,
    };
    match dest {
        Some(d) if d.dtype().is_complex() || !new.dtype().is_complex() => {
            crate::backend::copy_into(&d, &new)?;
        }
        _ => set_tangent(target, Some(crate::backend::contiguous(&new)?)),
    }
    Ok(())
}
