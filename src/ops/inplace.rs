//! In-place ops. The new value is computed by the out-of-place op on a snapshot that carries the
//! target's history, written into the target's storage, and the target takes the new node as its
//! grad_fn. Writing through a view of a tensor that requires grad rebases the view's base onto a
//! `CopySlices` node, as PyTorch does.
use super::*;
use crate::backend;
use crate::dtype::DType;
use crate::error::{INFERENCE_INPLACE, LEAF_INPLACE, LEAF_VIEW_INPLACE};
use crate::grads;
use crate::graph::node::lock;
use crate::shape::{fmt_shape, Shape};
use crate::tensor::CreationMeta;
use std::sync::Arc;

use super::inplace_checks::{outside_inference_mode, partial_overlap, INTERNAL_OVERLAP};
use super::inplace_saved::{name_saved_output_by_view, resave_output_as_target};

/// Checks PyTorch makes before any in-place write of `target` from `others`.
pub fn check_inplace(target: &Tensor, others: &[&Tensor]) -> Result<()> {
    check_inplace_with(target, others, Overlap::Refuse)
}

/// The checks of an in-place write that PyTorch's autograd makes before the kernel runs its
/// own (a leaf, an inference tensor, a view that may not be written): for a kernel check that
/// comes between them and the memory checks (`sub_`'s bool refusal).
pub fn check_inplace_autograd(target: &Tensor, others: &[&Tensor]) -> Result<()> {
    check_inplace_with(target, others, Overlap::Unchecked)
}

/// [`check_inplace`] with the kernel's memory-overlap checks as `overlap` says.
fn check_inplace_with(target: &Tensor, others: &[&Tensor], overlap: Overlap) -> Result<()> {
    before_write(target)?;
    // autograd's checks first (none for an inference tensor: PyTorch writes it, then refuses
    // at the version bump, `bump_after_write`), then the kernel's
    if !outside_inference_mode(target) && inplace_records(target, others) {
        check_autograd_inplace(target)?;
        // then the edges of the other operands (PyTorch's collect_next_edges), before the
        // kernel's checks
        edges_first(others)?;
    } else if outside_inference_mode(target) && crate::grad_mode::recording() {
        if target.requires_grad() && others.iter().any(|o| !o.is_inference()) {
            // an inference tensor made with requires_grad is a leaf: with a normal tensor (or a
            // number) among the operands PyTorch's autograd kernel runs, and its leaf check
            // comes before the inference-tensor refusal (with no operand or only inference
            // ones it does not)
            return Err(Error::Runtime(LEAF_INPLACE.into()));
        }
        // that kernel collects the other operands' edges too
        edges_first(others)?;
    }
    check_memory(target, others, overlap)
}

/// The kernel's memory-overlap checks of a write into `target` from `others`.
fn check_memory(target: &Tensor, others: &[&Tensor], overlap: Overlap) -> Result<()> {
    if overlap == Overlap::Unchecked {
        return Ok(());
    }
    if overlap == Overlap::Refuse && has_internal_overlap(target) {
        return Err(Error::Runtime(INTERNAL_OVERLAP.into()));
    }
    if others.iter().any(|o| partial_overlap(target, o)) {
        return Err(Error::Runtime("unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.".into()));
    }
    Ok(())
}

/// PyTorch's VariableType checks of an in-place write that autograd records.
fn check_autograd_inplace(target: &Tensor) -> Result<()> {
    // PyTorch's is_leaf reads the grad_fn as it is, before a stale view is given a new one: a
    // view made while its base did not require grad, whose base was written since, has none
    let raw_leaf = {
        let m = target.meta();
        m.grad_fn.is_none() && (!target.is_view() || m.attr_version != target.version())
    };
    if target.is_view() {
        let creation = target.meta().view_creation;
        if creation != CreationMeta::Default {
            return Err(view_rebase_error(target, creation, false));
        }
        // the write's node takes the view's current history
        refresh_view(target)?;
    }
    if let Some(base) = target.base() {
        // PyTorch asks whether the view requires grad, not its base
        if target.requires_grad() && base.is_leaf() {
            return Err(Error::Runtime(LEAF_VIEW_INPLACE.into()));
        }
    }
    if raw_leaf && target.requires_grad() {
        return Err(Error::Runtime(LEAF_INPLACE.into()));
    }
    Ok(())
}

/// The version bump after an in-place write. For an inference tensor outside inference mode it
/// is PyTorch's error, raised after the values were written (as PyTorch does).
pub fn bump_after_write(target: &Tensor) -> Result<()> {
    if outside_inference_mode(target) {
        return Err(Error::Runtime(INFERENCE_INPLACE.into()));
    }
    mark_written(target);
    Ok(())
}

/// Count an in-place write: `t`'s version counter moves on (its views see it and take their
/// base's current history when next asked for their grad_fn: the refresh is installed into the
/// tensor layer here, before any view can be stale).
pub fn mark_written(t: &Tensor) {
    crate::tensor::install_view_refresh(refresh_view);
    t.bump_version();
}

/// A private copy of `t`'s values that carries `t`'s history (grad_fn / output_nr).
fn snapshot(t: &Tensor) -> Result<Tensor> {
    let s = backend::contiguous(t)?;
    let (gf, nr) = {
        let m = t.meta();
        (m.grad_fn.clone(), m.output_nr)
    };
    if let Some(gf) = gf {
        let mut m = s.meta();
        m.grad_fn = Some(gf);
        m.output_nr = nr;
    }
    if let Some(t) = super::tangent::tangent(t) {
        super::tangent::set_tangent(&s, Some(t));
    }
    Ok(s)
}

/// Give `t` a new history, moving a retain_grad registration along (it follows the tensor).
pub(crate) fn set_history(t: &Tensor, node: Option<crate::graph::arena::NodeRef>, nr: u32) {
    let view = t.is_view();
    let version = if view { t.version() } else { 0 };
    let (old, retains) = {
        let mut m = t.meta();
        let old = std::mem::replace(&mut m.grad_fn, node.clone());
        m.output_nr = nr;
        if view {
            m.attr_version = version;
        }
        (old, m.retains_grad)
    };
    if retains {
        if let Some(old) = old {
            lock(&old.hooks)
                .retains
                .retain(|(_, w)| !std::ptr::eq(w.as_ptr(), Arc::as_ptr(&t.0)));
        }
        if let Some(new) = node {
            new.edit_hooks(|h| h.retains.push((nr, Arc::downgrade(&t.0))));
        }
    }
}

/// Write `compute(current value)` into `target`. `others` are the op's other inputs.
pub fn apply_inplace(
    target: &Tensor,
    others: &[&Tensor],
    compute: impl FnOnce(&Tensor) -> Result<Tensor>,
) -> Result<()> {
    apply_inplace_with(target, others, Overlap::Refuse, compute)
}

/// [`apply_inplace`] with the memory-overlap rule `overlap`. Into a target whose elements
/// share memory only the elements the op changed are written (as PyTorch's kernels write only
/// the selected ones), so an unchanged alias does not write the old value back.
pub fn apply_inplace_with(
    target: &Tensor,
    others: &[&Tensor],
    overlap: Overlap,
    compute: impl FnOnce(&Tensor) -> Result<Tensor>,
) -> Result<()> {
    check_inplace_with(target, others, overlap)?;
    let before = if overlap != Overlap::Refuse && has_internal_overlap(target) {
        Some(backend::contiguous(target)?)
    } else {
        None
    };
    let recording = crate::grad_mode::recording()
        && !outside_inference_mode(target)
        && (target.requires_grad()
            || others.iter().any(|t| t.requires_grad())
            || target.base().is_some_and(|b| b.requires_grad()));
    let tshape = target.shape();
    let tdt = target.dtype();
    let src = if recording {
        let s = snapshot(target)?;
        // PyTorch's CopySlices routes the op's gradient for a view's old value straight into the
        // window of its base's gradient: the view's own old node (and the hooks on it) only sees
        // what other uses of the old value send it. A fresh window of the base's history does so.
        if let Some(base) = target.base().filter(|b| b.requires_grad()) {
            if s.meta().grad_fn.is_some() {
                view_of_base_history(&s, &base, Window::of(target, &base)?);
            }
        }
        s
    } else {
        target.clone()
    };
    let r = if outside_inference_mode(target) {
        // autograd does not see the write (it is refused after it, at the version bump)
        let _g = crate::grad_mode::GradModeGuard::new(false);
        compute(&src)?
    } else {
        compute(&src)?
    };
    if r.shape() != tshape {
        return Err(Error::Runtime(format!(
            "output with shape {} doesn't match the broadcast shape {}",
            fmt_shape(&tshape),
            fmt_shape(&r.shape())
        )));
    }
    // A wider result is written in the target's dtype by the copy below; the op's own node
    // stays the target's grad_fn (MulBackward0 for `x.mul_(double)`, as in PyTorch), and the
    // engine casts the gradients at its edges.
    check_output_dtype(r.dtype(), tdt)?;
    let base = target.base();
    match &before {
        Some(b) => write_changed(target, &r, b)?,
        None => backend::copy_into(target, &r)?,
    }
    bump_after_write(target)?;
    if super::tangent::active() {
        super::tangent::write_inplace(target, &r)?;
    }
    let base_rg = base.as_ref().is_some_and(|b| b.requires_grad());
    if !recording || !(r.requires_grad() || base_rg) {
        return Ok(());
    }
    resave_output_as_target(&r, target);
    rebase_history(target, base, &r)?;
    if target.is_view() {
        name_saved_output_by_view(&r, target);
    }
    Ok(())
}

/// Writes into `target` (whose elements share memory) the elements of `r` whose bits differ
/// from `before` (the target's values before the op, contiguous). Device memory is written
/// whole.
fn write_changed(target: &Tensor, r: &Tensor, before: &Tensor) -> Result<()> {
    let r = backend::cast(r, target.dtype())?;
    let d = target.data();
    if d.storage.device() != crate::device::Device::Cpu {
        drop(d);
        return backend::copy_into(target, &r);
    }
    let size = d.dtype.size();
    let (rd, bd) = (r.data(), before.data());
    // SAFETY: byte views of host buffers; offsets come from each tensor's own layout.
    let (dst, new, old) = unsafe {
        (
            d.storage.slice_mut::<u8>(),
            rd.storage.slice::<u8>(),
            bd.storage.slice::<u8>(),
        )
    };
    let mut it = crate::shape::MultiIndex::new(&d.shape, [d.strides.clone()], [d.offset as isize]);
    let (mut i, r0, b0) = (0, rd.offset * size, bd.offset * size);
    while let Some([o]) = it.next_offsets() {
        let (n, b) = (r0 + i * size, b0 + i * size);
        if new[n..n + size] != old[b..b + size] {
            let o = o as usize * size;
            dst[o..o + size].copy_from_slice(&new[n..n + size]);
        }
        i += 1;
    }
    Ok(())
}

/// PyTorch's error for writing in place into a view that may not be rebased (`indirect`: its
/// base or another view of it was written).
pub(crate) fn view_rebase_error(t: &Tensor, creation: CreationMeta, indirect: bool) -> Error {
    let modified = if indirect {
        "its base or another view of its base has been"
    } else {
        "is being"
    };
    let (gf, nr) = {
        let m = t.meta();
        (m.grad_fn.clone(), m.output_nr)
    };
    let head = match gf {
        Some(node) => {
            // the forward's name with its overload number past the first: SqueezeBackward0 →
            // Squeeze, SqueezeBackward1 → Squeeze1 (PyTorch's)
            let name = node.name.to_string();
            let stem = name.trim_end_matches(|c: char| c.is_ascii_digit());
            let overload = &name[stem.len()..];
            let short = match stem.strip_suffix("Backward") {
                Some(op) if overload.is_empty() || overload == "0" => op.to_string(),
                Some(op) => format!("{op}{overload}"),
                None => name.clone(),
            };
            match creation {
                // a view (with history) of a view made under no_grad / inference mode
                CreationMeta::NoGradMode => format!("Output {nr} of {short} is a view of a view which was created in no_grad mode and {modified} modified inplace with grad mode enabled."),
                CreationMeta::InferenceMode => format!("Output {nr} of {short} is a view of a view which was created in inference mode and {modified} modified inplace in normal mode."),
                _ => format!("Output {nr} of {short} is a view and {modified} modified inplace."),
            }
        }
        None if creation == CreationMeta::InferenceMode => format!(
            "A view was created in inference mode and {modified} modified inplace in normal mode."
        ),
        None => format!(
            "A view was created in no_grad mode and {modified} modified inplace with grad mode enabled."
        ),
    };
    let ambiguous = |block: &str| {
        format!(" Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view and the inplace either both inside the {block} block (if you don't want the inplace to be tracked) or both outside (if you want the inplace to be tracked).")
    };
    let tail = match creation {
        CreationMeta::MultiOutputNode => " This view is the output of a function that returns multiple views. Such functions do not allow the output views to be modified inplace. You should replace the inplace operation by an out-of-place one.".to_string(),
        CreationMeta::InCustomFunction => " This view was created inside a custom Function (or because an input was returned as-is) and the autograd logic to handle view+inplace would override the custom backward associated with the custom Function, leading to incorrect gradients. This behavior is forbidden. You can fix this by cloning the output of the custom Function.".to_string(),
        CreationMeta::InferenceMode => ambiguous("inference_mode"),
        _ => ambiguous("no_grad"),
    };
    Error::Runtime(head + &tail)
}

/// Say how the views `outs` of `x`, made under an internal no_grad guard, were made: as PyTorch
/// would have made them in the caller's grad mode, `kind` when grad mode is on
/// (`MultiOutputNode` for unbind/split/chunk, `Default` for one view).
pub(crate) fn mark_views(x: &Tensor, outs: &[&Tensor], kind: CreationMeta) {
    let parent = if x.is_view() {
        x.meta().view_creation
    } else {
        CreationMeta::Default
    };
    let now = match CreationMeta::now() {
        CreationMeta::Default => kind,
        other => other,
    };
    for o in outs {
        if o.is_view() {
            o.meta().view_creation = CreationMeta::propagate(parent, now);
        }
    }
}

/// Bring a view's grad_fn up to date (PyTorch's VariableHooks::grad_fn): when its version moved
/// on since its grad_fn was made (the base or another view of it was written in place), the
/// view becomes `as_strided` of its base again, with the base's current history. A view that
/// may not be rebased (made under no_grad, one of several outputs, ...) is an error then.
pub fn refresh_view(t: &Tensor) -> Result<()> {
    let Some(base) = t.base() else {
        return Ok(());
    };
    let version = t.version();
    let (stale, creation, has_fn) = {
        let m = t.meta();
        (
            m.attr_version != version,
            m.view_creation,
            m.grad_fn.is_some(),
        )
    };
    if !stale || (!has_fn && !base.requires_grad()) {
        return Ok(());
    }
    if creation != CreationMeta::Default {
        return Err(view_rebase_error(t, creation, true));
    }
    let window = Window::of(t, &base)?;
    view_of_base_history(t, &base, window);
    Ok(())
}

/// `view := as_strided(base)` (AsStridedBackward0): the view takes its base's current history.
/// A view of another dtype (`view_as_real`, `view_as_complex`) cannot be an as_strided of its
/// base: PyTorch replays the view ops instead, so the new node has the name of the view's own
/// (`ViewAsRealBackward0`, ...); leafgrad's node still takes the window.
fn view_of_base_history(view: &Tensor, base: &Tensor, window: Window) {
    let old = view.meta().grad_fn.clone();
    let name: std::borrow::Cow<'static, str> = match (window.kind, old) {
        (WindowKind::Pairs | WindowKind::Complex, Some(old)) => old.name.clone(),
        _ => "AsStridedBackward0".into(),
    };
    let node = record_node(
        name,
        &[base],
        smallvec::smallvec![meta_of(view)],
        vec![],
        Box::new(move |_, g| grads![window.embed(&g[0])?]),
    );
    set_history(view, Some(node), 0);
}

/// Where a view lies in its base, in the view's element type: a real view of a complex base
/// (`view_as_real`) is a window of the base's real pairs, a complex view of a real base
/// (`view_as_complex`) a window of the base's complex numbers.
#[derive(Clone)]
struct Window {
    region: Region,
    /// The base's shape as the window sees it (with a trailing 2 for real pairs, without the
    /// base's trailing 2 for complex numbers).
    shape: Shape,
    kind: WindowKind,
}

#[derive(Clone, Copy, PartialEq)]
enum WindowKind {
    Same,
    /// A real view of a complex base.
    Pairs,
    /// A complex view of a real base.
    Complex,
}

impl Window {
    fn of(view: &Tensor, base: &Tensor) -> Result<Window> {
        let (vdt, bdt) = (view.dtype(), base.dtype());
        if vdt == bdt {
            return Ok(Window {
                region: region_in_base(view, base)?,
                shape: base.shape(),
                kind: WindowKind::Same,
            });
        }
        if bdt.is_complex() && vdt == bdt.to_real() {
            let pairs = {
                let _g = crate::grad_mode::GradModeGuard::new(false);
                view_as_real(&base.detached())?
            };
            return Ok(Window {
                region: region_in_base(view, &pairs)?,
                shape: pairs.shape(),
                kind: WindowKind::Pairs,
            });
        }
        if vdt.is_complex() && bdt == vdt.to_real() {
            let numbers = {
                let _g = crate::grad_mode::GradModeGuard::new(false);
                view_as_complex(&base.detached())?
            };
            return Ok(Window {
                region: region_in_base(view, &numbers)?,
                shape: numbers.shape(),
                kind: WindowKind::Complex,
            });
        }
        Err(Error::Runtime(format!(
            "in-place operations on a {} view of a {} tensor that requires grad are not supported",
            vdt.scalar_type_name(),
            bdt.scalar_type_name()
        )))
    }

    /// A gradient of the base seen as the window's element type.
    fn to_view_type(&self, g: &Tensor) -> Result<Tensor> {
        match self.kind {
            WindowKind::Same => Ok(g.clone()),
            WindowKind::Pairs => view_as_real(g),
            WindowKind::Complex => view_as_complex_copy(g),
        }
    }

    /// Back from the window's element type to the base's.
    fn to_base_type(&self, g: Tensor) -> Result<Tensor> {
        match self.kind {
            WindowKind::Same => Ok(g),
            WindowKind::Pairs => view_as_complex_copy(&g),
            WindowKind::Complex => view_as_real(&g),
        }
    }

    /// The window of a gradient of the base.
    fn take(&self, g: &Tensor) -> Result<Tensor> {
        as_strided(&self.to_view_type(g)?, &self.region)
    }

    /// A gradient of the base that is `g` in the window and 0 elsewhere.
    fn embed(&self, g: &Tensor) -> Result<Tensor> {
        self.to_base_type(embed(g, &self.shape, &self.region)?)
    }

    /// A gradient of the base with the window zeroed.
    fn cut(&self, g: &Tensor) -> Result<Tensor> {
        let gr = self.to_view_type(g)?;
        // a select, not `g - window(g)`: an infinite gradient in the window gives 0, not NaN
        // (PyTorch's CopySlices overwrites the window); differentiable for create_graph
        let inside = Tensor::full_on(
            &self.region.shape,
            num_complex::Complex64::new(1.0, 0.0),
            DType::Bool,
            gr.device(),
        )?;
        let mask = embed(&inside, &self.shape, &self.region)?;
        let out = index::where_(&mask, &Tensor::wrapped_scalar(0.0f64), &gr)?;
        self.to_base_type(out)
    }
}

/// Give `target`, just written in place, the history of `r` (a tensor holding its new value's
/// history). A view's base is rewritten too: the base becomes `base with the view's window
/// replaced by r` (CopySlices) and the view a window of it, as PyTorch's rebase_history.
pub fn rebase_history(target: &Tensor, base: Option<Tensor>, r: &Tensor) -> Result<()> {
    match base {
        None => set_history(target, r.grad_fn(), r.output_nr()),
        Some(base) => {
            // base := base with the view's window replaced by r  (CopySlices)
            let window = Window::of(target, &base)?;
            let bsnap = snapshot(&base)?;
            let w = window.clone();
            // PyTorch's CopySlices copies the op's gradient into the window of the base's
            // gradient, which an expanded window refuses (at backward)
            let reg = &window.region;
            let expanded = !reg.shape.contains(&0)
                && reg
                    .shape
                    .iter()
                    .zip(reg.strides.iter())
                    .any(|(&n, &s)| n > 1 && s == 0);
            let node = record_node(
                "torch::autograd::CopySlices",
                &[&bsnap, r],
                smallvec::smallvec![meta_of(&base)],
                vec![],
                Box::new(move |_, g| {
                    if expanded {
                        return Err(Error::Runtime(INTERNAL_OVERLAP.into()));
                    }
                    grads![w.cut(&g[0])?, w.take(&g[0])?]
                }),
            );
            set_history(&base, Some(node), 0);
            view_of_base_history(target, &base, window);
        }
    }
    Ok(())
}

/// The value a copy writes: `src` broadcast to `like`'s shape in `like`'s dtype
/// (CopyBackwards: no gradient to the old value, `src` gets the gradient).
pub fn copy_value(like: &Tensor, src: &Tensor) -> Result<Tensor> {
    let shape = like.shape();
    // PyTorch's TensorIterator: the operands broadcast together, then the output must have
    // the broadcast shape
    let b = crate::shape::broadcast_shapes(&shape, &src.shape())?;
    if b != shape {
        return Err(Error::Runtime(format!(
            "output with shape {} doesn't match the broadcast shape {}",
            fmt_shape(&shape),
            fmt_shape(&b)
        )));
    }
    let out = Tensor::zeros_on(&shape, like.dtype(), like.device())?;
    backend::copy_into(&out, src)?;
    if needs_grad(&[like, src])? {
        let sdt = src.dtype();
        record(
            "torch::autograd::CopyBackwards",
            &[like, src],
            &[&out],
            vec![],
            Box::new(move |_, g| {
                let gs = if sdt != g[0].dtype() {
                    to_dtype(&g[0], sdt)?
                } else {
                    g[0].clone()
                };
                grads![zeros_like_grad(&g[0])?, gs]
            }),
        )?;
    }
    Ok(out)
}

/// The value `zero_`/`fill_` write (ZeroBackward0 / FillBackward2: no gradient flows back).
pub fn filled(like: &Tensor, value: num_complex::Complex64, name: &'static str) -> Result<Tensor> {
    let out = Tensor::full_on(&like.shape(), value, like.dtype(), like.device())?;
    if needs_grad(&[like])? {
        record(
            name,
            &[like],
            &[&out],
            vec![],
            Box::new(|_, g| grads![zeros_like_grad(&g[0])?]),
        )?;
    }
    Ok(out)
}

/// The value `fill_(value)` writes for a 0-d tensor `value` (FillBackward3: the value's
/// gradient is the sum of the incoming one; none flows to the old contents).
pub fn filled_tensor(like: &Tensor, value: &Tensor) -> Result<Tensor> {
    let out = Tensor::zeros_on(&like.shape(), like.dtype(), like.device())?;
    backend::copy_into(&out, value)?;
    if needs_grad(&[like, value])? {
        let vdt = value.dtype();
        record(
            "FillBackward3",
            &[like, value],
            &[&out],
            vec![],
            Box::new(move |_, g| {
                let s = sum(&g[0], None, false)?;
                let s = if s.dtype() != vdt {
                    to_dtype(&s, vdt)?
                } else {
                    s
                };
                grads![zeros_like_grad(&g[0])?, s]
            }),
        )?;
    }
    Ok(out)
}

/// Will an in-place write to `target` from `others` record a graph? (If not, ops may write
/// straight into the target's memory.)
fn inplace_records(target: &Tensor, others: &[&Tensor]) -> bool {
    crate::grad_mode::recording()
        && !outside_inference_mode(target)
        && (target.requires_grad() || others.iter().any(|t| t.requires_grad()))
}

/// Must the write go through `apply_inplace`: autograd records it, or a forward-AD tangent
/// moves with it?
fn inplace_tracked(target: &Tensor, others: &[&Tensor]) -> bool {
    inplace_records(target, others)
        || super::tangent::has_tangent(target)
        || others.iter().any(|t| super::tangent::has_tangent(t))
}

/// `target.copy_(src)`: straight into the target's memory when nothing is recorded.
pub fn copy_(target: &Tensor, src: &Tensor) -> Result<()> {
    // `x.copy_(x)` (or of the same elements) writes nothing: PyTorch's kernel returns at once,
    // an expanded `x` included
    let itself = same_data(target, src);
    let overlap = if itself {
        Overlap::Unchecked
    } else {
        Overlap::Refuse
    };
    if !target.dtype().is_differentiable() {
        // PyTorch's copy_ masks requires_grad by the destination's dtype: into an integer or
        // bool tensor nothing is recorded and autograd checks nothing (a view made under
        // no_grad, or one of several outputs, may be written)
        before_write(target)?;
        check_memory(target, &[src], overlap)?;
        if itself {
            return bump_after_write(target);
        }
        let v = {
            let _g = crate::grad_mode::GradModeGuard::new(false);
            copy_value(target, src)?
        };
        backend::copy_into(target, &v)?;
        return bump_after_write(target);
    }
    check_inplace_with(target, &[src], overlap)?;
    if inplace_tracked(target, &[src]) {
        return apply_inplace_with(target, &[src], overlap, |s| copy_value(s, src));
    }
    if itself {
        return bump_after_write(target);
    }
    let shape = target.shape();
    if crate::shape::broadcast_shapes(&shape, &src.shape())
        .ok()
        .as_ref()
        != Some(&shape)
    {
        return apply_inplace(target, &[src], |s| copy_value(s, src));
    }
    let src = if std::ptr::eq(target.data().storage.as_ptr(), src.data().storage.as_ptr()) {
        backend::contiguous(src)?
    } else {
        src.clone()
    };
    backend::copy_into(target, &src)?;
    bump_after_write(target)
}

/// `target.uniform_()`, `normal_()`, ...: writes the freshly drawn `values` (same shape, any
/// device) into `target` as an in-place op whose node `name` (PyTorch's `UniformBackward0`,
/// ...) passes no gradient back, to the old contents nor to `param` (the probabilities of
/// `bernoulli_(p)`, an input of its node as in PyTorch).
pub fn write_drawn(
    target: &Tensor,
    values: &Tensor,
    param: Option<&Tensor>,
    name: &'static str,
) -> Result<()> {
    let others: Vec<&Tensor> = param.into_iter().collect();
    check_inplace(target, &others)?;
    if inplace_tracked(target, &others) {
        return apply_inplace(target, &others, |like| {
            let out = Tensor::zeros_on(&like.shape(), like.dtype(), like.device())?;
            backend::copy_into(&out, values)?;
            let mut inputs = vec![like];
            inputs.extend(param);
            if needs_grad(&inputs)? {
                let n = inputs.len();
                let params: Vec<Tensor> = param.into_iter().cloned().collect();
                record(
                    name,
                    &inputs,
                    &[&out],
                    vec![],
                    Box::new(move |_, g| {
                        let mut gs = vec![Some(zeros_like_grad(&g[0])?)];
                        if n == 2 {
                            gs.push(Some(zeros_like_grad(&params[0])?));
                        }
                        Ok(gs)
                    }),
                )?;
            }
            Ok(out)
        });
    }
    backend::copy_into(target, values)?;
    bump_after_write(target)
}

/// `target.fill_(v)` / `zero_()`: straight into memory when nothing is recorded.
pub fn fill_(target: &Tensor, value: num_complex::Complex64, name: &'static str) -> Result<()> {
    before_write(target)?;
    // PyTorch's fill_ writes an expanded tensor (no overlap check) and, for an inference
    // tensor, is refused only after writing
    if !outside_inference_mode(target) && inplace_records(target, &[]) {
        check_autograd_inplace(target)?;
    }
    if inplace_tracked(target, &[]) {
        return apply_inplace_with(target, &[], Overlap::Allow, |s| filled(s, value, name));
    }
    backend::fill(target, value)?;
    bump_after_write(target)
}

/// An in-place view op (`transpose_`, `t_`, `squeeze_`, `unsqueeze_`, `as_strided_`): `target`
/// takes the layout of `view(target)` (computed without recording) and, when autograd records,
/// a node `name` over its previous history (PyTorch's `TransposeBackward1`, ...). The checks
/// are those of any in-place op except the refusal of overlapping memory (no element is
/// written), and the version counter moves.
pub fn view_inplace(
    target: &Tensor,
    name: &'static str,
    view: impl Fn(&Tensor) -> Result<Tensor>,
    backward: BackwardFn,
) -> Result<()> {
    let records = inplace_records(target, &[]);
    if records {
        check_autograd_inplace(target)?;
    }
    let v = {
        let _g = crate::grad_mode::GradModeGuard::new(false);
        view(&target.detached())?
    };
    let tangent = super::tangent::tangent(target)
        .map(|t| {
            let _g = crate::grad_mode::GradModeGuard::new(false);
            view(&t)
        })
        .transpose()?;
    bump_after_write(target)?;
    let history = records.then(|| {
        record_node(
            name,
            &[target],
            smallvec::smallvec![meta_of(&v)],
            vec![],
            backward,
        )
    });
    {
        let layout = v.data();
        let mut d = target.data().clone();
        d.shape = layout.shape.clone();
        d.strides = layout.strides.clone();
        d.offset = layout.offset;
        drop(layout);
        target.set_data(d);
    }
    if let Some(node) = history {
        set_history(target, Some(node), 0);
    }
    if let Some(t) = tangent {
        super::tangent::set_tangent(target, Some(t));
    }
    Ok(())
}

/// `t.set_(src)`: `t` takes `src`'s memory and layout (its own version counter moves on). A
/// leaf's gradient accumulator is renewed, so graphs recorded before do not reach it; when
/// autograd records (`t` or `src` requires grad), the node is PyTorch's `NotImplemented`,
/// which refuses backward.
pub fn set_(t: &Tensor, src: &Tensor) -> Result<()> {
    if t.dtype() != src.dtype() {
        return Err(Error::Runtime(format!(
            "Could not set tensor of type {} to a tensor of type {}",
            src.dtype().cpp_name(),
            t.dtype().cpp_name()
        )));
    }
    if t.device() != src.device() {
        return Err(Error::Runtime(format!(
            "Attempted to set the storage of a tensor on device \"{}\" to a storage on different device \"{}\".  This is no longer allowed; the devices must match.",
            t.device(),
            src.device()
        )));
    }
    let records = inplace_records(t, &[src]);
    if records {
        check_autograd_inplace(t)?;
    }
    bump_after_write(t)?;
    {
        let s = src.data();
        let mut d = t.data().clone();
        // the version counter stays (it lives in the storage unless the tensor has its own)
        d.version = Some(
            d.version
                .clone()
                .unwrap_or_else(|| d.storage.version.clone()),
        );
        d.storage = s.storage.clone();
        d.shape = s.shape.clone();
        d.strides = s.strides.clone();
        d.offset = s.offset;
        drop(s);
        t.set_data(d);
    }
    if t.is_leaf() {
        t.meta().grad_acc = None;
    }
    if records {
        let node = record_node(
            "NotImplemented",
            &[t, src],
            smallvec::smallvec![meta_of(t)],
            vec![],
            Box::new(|_, _| {
                Err(Error::Runtime(
                    "derivative for set_ is not implemented".into(),
                ))
            }),
        );
        set_history(t, Some(node), 0);
    }
    Ok(())
}

/// `t.resize_(shape)`: row-major strides from `t`'s offset; memory grows (zero-filled, with the
/// old contents kept) when the storage is too small. The new memory is this tensor's own: other
/// tensors over the old storage keep it (PyTorch grows the shared storage in place).
pub fn resize_(t: &Tensor, shape: &[usize]) -> Result<()> {
    // autograd's check (not made in inference mode, which bypasses autograd)
    if t.requires_grad() && !crate::grad_mode::is_inference_mode() {
        return Err(Error::Runtime(
            "cannot resize variables that require grad".into(),
        ));
    }
    if t.shape().as_slice() == shape {
        return Ok(()); // a no-op: no version bump
    }
    bump_after_write(t)?;
    let n: usize = shape.iter().product();
    let (offset, itemsize, nbytes) = {
        let d = t.data();
        (d.offset, d.dtype.size(), d.storage.nbytes())
    };
    let needed = (offset + n) * itemsize;
    let mut d = t.data().clone();
    if needed > nbytes && !t.device().is_meta() {
        let grown = Tensor::zeros_on(&[(offset + n).max(1)], d.dtype, t.device())?;
        let old = nbytes / itemsize;
        if old > 0 {
            let old_flat = t.restrided(&[old], &[1], 0);
            let prefix = grown.restrided(&[old], &[1], 0);
            backend::copy_into(&prefix, &old_flat)?;
        }
        d.version = Some(
            d.version
                .clone()
                .unwrap_or_else(|| d.storage.version.clone()),
        );
        d.storage = grown.data().storage.clone();
    }
    d.shape = shape.into();
    d.strides = crate::shape::contiguous_strides(shape);
    t.set_data(d);
    Ok(())
}
