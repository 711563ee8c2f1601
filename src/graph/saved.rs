//! Saved-tensor hooks (`torch.autograd.graph.saved_tensors_hooks`): while a pair of hooks is
//! active on this thread, every tensor an op saves for backward is handed to `pack`, the node
//! keeps what `pack` returned instead of the tensor, and backward gets the tensor back from
//! `unpack`. `save_on_cpu` and non-reentrant checkpointing are built on them.
use crate::error::{Error, Result};
use crate::tensor::Tensor;
use std::cell::{Cell, RefCell};
use std::sync::Arc;

/// What `pack` made of a saved tensor; `unpack` gives a tensor back (each time it is needed).
pub trait PackedTensor: Send + Sync {
    fn unpack(&self) -> Result<Tensor>;
    /// The packing side's own type (the bindings read back what a Python hook returned).
    fn as_any(&self) -> &dyn std::any::Any;
}

/// A pair of saved-tensor hooks: `pack` is called on each tensor saved while they are active.
pub trait SaveHooks: Send + Sync {
    fn pack(&self, t: &Tensor) -> Result<Arc<dyn PackedTensor>>;
}

pub const PACK_IN_PLACE: &str = "A saved tensor pack hook is modifying its input in place. Tensors provided as input to pack hook cannot be modified by in-place operations as this can lead to unexpected side-effects. Please open an issue if you need to perform in-place operations on the input to a pack hook.";

/// Hook pairs pushed and not yet popped, on any thread: saving checks this one atomic before
/// looking at its thread's stack, so ops pay nothing while no hooks exist.
static ACTIVE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Whether any thread has saved-tensor hooks active (if not, `pack` has nothing to do).
#[inline]
pub fn any_active() -> bool {
    ACTIVE.load(std::sync::atomic::Ordering::Acquire) != 0
}

thread_local! {
    static STACK: RefCell<Vec<Arc<dyn SaveHooks>>> = const { RefCell::new(Vec::new()) };
    static DISABLED: RefCell<Option<String>> = const { RefCell::new(None) };
    static PACKING: Cell<bool> = const { Cell::new(false) };
}

/// Make `hooks` the active pair (until `pop`); refused while hooks are disabled.
pub fn push(hooks: Arc<dyn SaveHooks>) -> Result<()> {
    if let Some(msg) = DISABLED.with(|d| d.borrow().clone()) {
        return Err(Error::Runtime(msg));
    }
    STACK.with(|s| s.borrow_mut().push(hooks));
    ACTIVE.fetch_add(1, std::sync::atomic::Ordering::AcqRel);
    Ok(())
}

pub fn pop() {
    let popped = STACK.with(|s| s.borrow_mut().pop().is_some());
    if popped {
        ACTIVE.fetch_sub(1, std::sync::atomic::Ordering::AcqRel);
    }
}

/// The active hooks as a backward pass found them, put back when the pass ends: PyTorch runs
/// each backward with a copy of the caller's thread-local state, so hooks entered and not left
/// during it (a hook calling `__enter__`) do not outlive the pass.
pub struct StackGuard(Vec<Arc<dyn SaveHooks>>);

impl StackGuard {
    pub fn enter() -> StackGuard {
        StackGuard(STACK.with(|s| s.borrow().clone()))
    }
}

impl Drop for StackGuard {
    fn drop(&mut self) {
        let kept = std::mem::take(&mut self.0);
        let (before, after) = (kept.len(), STACK.with(|s| s.borrow().len()));
        if before == after {
            return;
        }
        let left = STACK.with(|s| std::mem::replace(&mut *s.borrow_mut(), kept));
        if after > before {
            ACTIVE.fetch_sub(after - before, std::sync::atomic::Ordering::AcqRel);
        } else {
            ACTIVE.fetch_add(before - after, std::sync::atomic::Ordering::AcqRel);
        }
        // the hooks' objects are released after the stack is whole again
        drop(left);
    }
}

/// Refuse new hooks with `msg` (None: allow them again); returns the previous message.
pub fn set_disabled(msg: Option<String>) -> Option<String> {
    DISABLED.with(|d| std::mem::replace(&mut *d.borrow_mut(), msg))
}

pub fn disabled_message() -> Option<String> {
    DISABLED.with(|d| d.borrow().clone())
}

/// `t` packed by the active hooks, or None when there are none (or a pack hook is saving
/// tensors itself: those are kept as they are).
pub fn pack(t: &Tensor) -> Result<Option<Arc<dyn PackedTensor>>> {
    let Some(hooks) = STACK.with(|s| s.borrow().last().cloned()) else {
        return Ok(None);
    };
    if PACKING.with(|p| p.replace(true)) {
        return Ok(None);
    }
    let before = t.version();
    let packed = hooks.pack(t);
    PACKING.with(|p| p.set(false));
    let packed = packed?;
    if t.version() != before {
        return Err(Error::Runtime(PACK_IN_PLACE.into()));
    }
    Ok(Some(packed))
}
