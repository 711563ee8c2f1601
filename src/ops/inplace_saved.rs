//! What an in-place op does to the output its node saved: PyTorch's in-place op saves the
//! written tensor itself (so a later write into it makes backward refuse it), and a saved
//! output of an in-place op on a view is named by the view's grad_fn.
use crate::graph::node::{lock, SavedTensor, SavedValue};
use crate::tensor::Tensor;

/// Calls `f` on each saved output of `r`'s node that is `r` (output `r.output_nr()`, kept as a
/// tensor in `of`'s storage).
fn each_saved_output(r: &Tensor, of: &Tensor, mut f: impl FnMut(&mut SavedTensor)) {
    let Some(node) = r.meta().grad_fn.clone() else {
        return;
    };
    let nr = r.output_nr();
    let ptr = of.data().storage.as_ptr();
    let mut saved = lock(&node.saved);
    for st in saved.tensors.iter_mut() {
        let same = match &st.value {
            SavedValue::Tensor(t) => std::ptr::eq(t.data().storage.as_ptr(), ptr),
            _ => false,
        };
        if st.is_output && st.output_nr == nr && same {
            f(st);
        }
    }
}

/// The op's node saved its result `r` (exp_, sigmoid_, ...): point the saved output at
/// `target` (its storage and version counter, at the version just written); `r`'s copy is then
/// freed.
pub(super) fn resave_output_as_target(r: &Tensor, target: &Tensor) {
    if r.dtype() != target.dtype() || r.shape() != target.shape() {
        return;
    }
    each_saved_output(r, r, |st| {
        st.value = SavedValue::Tensor(target.detached());
        st.version = target.version();
    });
}

/// The output saved as `target` (see [`resave_output_as_target`]), when `target` is a view, is
/// named at a version error by the view's grad_fn now (AsStrided, after the rebase), as
/// PyTorch's saved output of an in-place op on a view names it.
pub(super) fn name_saved_output_by_view(r: &Tensor, target: &Tensor) {
    let Some(view_fn) = target.meta().grad_fn.clone() else {
        return;
    };
    let name = view_fn.short_name();
    each_saved_output(r, target, |st| st.view_owner = Some(name.clone()));
}
