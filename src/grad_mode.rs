//! Grad mode and inference mode: thread-local switches, on/off by default in every new thread.
use std::cell::Cell;

thread_local! {
    static GRAD_ENABLED: Cell<bool> = const { Cell::new(true) };
    static INFERENCE: Cell<bool> = const { Cell::new(false) };
}

pub fn is_grad_enabled() -> bool {
    GRAD_ENABLED.with(|g| g.get())
}
pub fn set_grad_enabled(on: bool) {
    GRAD_ENABLED.with(|g| g.set(on));
}
pub fn is_inference_mode() -> bool {
    INFERENCE.with(|g| g.get())
}
pub fn set_inference_mode(on: bool) {
    INFERENCE.with(|g| g.set(on));
}

/// Restores the previous grad mode when dropped.
pub struct GradModeGuard(bool);

impl GradModeGuard {
    pub fn new(enabled: bool) -> GradModeGuard {
        let prev = is_grad_enabled();
        set_grad_enabled(enabled);
        GradModeGuard(prev)
    }
}

impl Drop for GradModeGuard {
    fn drop(&mut self) {
        set_grad_enabled(self.0);
    }
}

/// Ops record a graph when grad mode is on and we are not in inference mode.
pub fn recording() -> bool {
    is_grad_enabled() && !is_inference_mode()
}
