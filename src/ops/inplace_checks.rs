//! The parts of PyTorch's checks before an in-place write that need no autograd state
//! (`inplace::check_inplace` puts them together with autograd's refusals): the output dtype's
//! cast, the mutation hook, the kernel's memory-overlap checks, and whether a write is to an
//! inference tensor outside inference mode.
use super::*;
use crate::dtype::DType;
use std::sync::Arc;

/// May `from` be written into a tensor of dtype `to` (PyTorch's `can_cast`)?
/// PyTorch's refusal to write a result into an output (in-place target, `out=`) of a dtype it
/// cannot be cast to (a float result into an integer tensor, ...).
pub fn check_output_dtype(result: DType, out: DType) -> Result<()> {
    if result != out && !can_cast(result, out) {
        return Err(Error::Runtime(format!(
            "result type {} can't be cast to the desired output type {}",
            result.scalar_type_name(),
            out.scalar_type_name()
        )));
    }
    Ok(())
}

pub fn can_cast(from: DType, to: DType) -> bool {
    use crate::dtype::Category::*;
    let (f, t) = (from.category(), to.category());
    !(f == Complex && t != Complex
        || f == Float && matches!(t, Int | Bool)
        || f != Bool && t == Bool)
}

/// Called with every tensor about to be written in place, while set
/// (`autograd.graph.allow_mutation_on_saved_tensors` clones saved values before they change).
pub type MutationHook = std::sync::Arc<dyn Fn(&Tensor) -> Result<()> + Send + Sync>;

static MUTATION_HOOK: std::sync::RwLock<Option<MutationHook>> = std::sync::RwLock::new(None);
static MUTATION_HOOK_SET: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Set (or clear) the hook called before each in-place write.
pub fn set_mutation_hook(hook: Option<MutationHook>) {
    MUTATION_HOOK_SET.store(hook.is_some(), std::sync::atomic::Ordering::SeqCst);
    *MUTATION_HOOK.write().unwrap_or_else(|e| e.into_inner()) = hook;
}

/// Tell the mutation hook, if any, that `target` is about to be written.
#[inline]
pub fn before_write(target: &Tensor) -> Result<()> {
    if !MUTATION_HOOK_SET.load(std::sync::atomic::Ordering::Relaxed) {
        return Ok(());
    }
    let hook = MUTATION_HOOK
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    match hook {
        Some(h) => h(target),
        None => Ok(()),
    }
}

/// Whether an in-place op refuses a target whose elements share memory (an expanded tensor).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Overlap {
    /// PyTorch's TensorIterator kernels: refused ("more than one element of the written-to
    /// tensor refers to a single memory location").
    Refuse,
    /// `fill_`, `zero_`, `copy_` from the tensor itself, and the indexing writes PyTorch only
    /// warns about (`masked_fill_`, `index_fill_`, `index_put_`): written. Overlap between the
    /// target and the other operands is still refused.
    Allow,
    /// `copy_` from the tensor itself: PyTorch's kernel returns before any memory check.
    Unchecked,
}

pub(super) const INTERNAL_OVERLAP: &str = "unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.";

/// PyTorch's `has_internal_overlap(t) == MemOverlap::Yes`: some dim of more than one element
/// has stride 0 (an expanded tensor), so two elements are one memory location.
pub fn has_internal_overlap(t: &Tensor) -> bool {
    let d = t.data();
    // (an empty tensor has no element to overlap)
    !d.shape.contains(&0)
        && d.shape
            .iter()
            .zip(&d.strides)
            .any(|(&n, &s)| n > 1 && s == 0)
}

/// PyTorch's get_overlap_status(...) == Partial: two dense tensors over the same memory whose
/// byte ranges overlap without being the same layout.
pub(super) fn partial_overlap(a: &Tensor, b: &Tensor) -> bool {
    if a.ptr_eq(b) {
        return false;
    }
    let (da, db) = (a.data(), b.data());
    if !Arc::ptr_eq(&da.storage, &db.storage) || da.numel() == 0 || db.numel() == 0 {
        return false;
    }
    let dense =
        |d: &crate::tensor::TensorData| crate::backend::cpu::layout::is_dense(&d.shape, &d.strides);
    if !dense(&da) || !dense(&db) {
        return false; // PyTorch: too hard to tell, allowed
    }
    let range = |d: &crate::tensor::TensorData| {
        let size = d.dtype.size();
        let begin = d.offset * size;
        (begin, begin + d.numel() * size)
    };
    let ((a0, a1), (b0, b1)) = (range(&da), range(&db));
    if a0 == b0 && a1 == b1 {
        return da.strides != db.strides;
    }
    a0 < b1 && b0 < a1
}

/// An inference tensor written outside inference mode (autograd does not see it).
pub(super) fn outside_inference_mode(t: &Tensor) -> bool {
    t.is_unversioned_inference() && !crate::grad_mode::is_inference_mode()
}

/// PyTorch's `is_same_data` of copy_: the same elements of the same memory (same offset,
/// sizes, strides and dtype), so the copy has nothing to do.
pub fn same_data(a: &Tensor, b: &Tensor) -> bool {
    if a.ptr_eq(b) {
        return true;
    }
    let (da, db) = (a.data(), b.data());
    Arc::ptr_eq(&da.storage, &db.storage)
        && da.offset == db.offset
        && da.dtype == db.dtype
        && da.shape == db.shape
        && da.strides == db.strides
}
