//! Grad mode and inference mode: thread-local switches, on/off by default in every new thread.
use std::cell::Cell;

thread_local! {
    static GRAD_ENABLED: Cell<bool> = const { Cell::new(true) };
    static INFERENCE: Cell<bool> = const { Cell::new(false) };
    /// PyTorch's `_set_fwd_grad_enabled`: off, ops compute no forward-AD tangent.
    static FWD_GRAD: Cell<bool> = const { Cell::new(true) };
}

pub fn is_fwd_grad_enabled() -> bool {
    FWD_GRAD.with(|e| e.get())
}

pub fn set_fwd_grad_enabled(on: bool) {
    FWD_GRAD.with(|e| e.set(on));
}

/// Forward grads on or off for a scope (restored on drop).
pub struct FwdGradGuard(bool);

impl FwdGradGuard {
    pub fn new(on: bool) -> FwdGradGuard {
        let prev = is_fwd_grad_enabled();
        set_fwd_grad_enabled(on);
        FwdGradGuard(prev)
    }
}

impl Drop for FwdGradGuard {
    fn drop(&mut self) {
        set_fwd_grad_enabled(self.0);
    }
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
///
/// `new(false)` is how ops compute values without recording: forward-mode AD is off inside too
/// (the op gives its outputs their tangents itself). `grad_only` changes the grad mode alone.
pub struct GradModeGuard(bool, Option<bool>);

impl GradModeGuard {
    pub fn new(enabled: bool) -> GradModeGuard {
        let mut g = GradModeGuard::grad_only(enabled);
        if !enabled {
            g.1 = Some(is_fwd_grad_enabled());
            set_fwd_grad_enabled(false);
        }
        g
    }

    pub fn grad_only(enabled: bool) -> GradModeGuard {
        let prev = is_grad_enabled();
        set_grad_enabled(enabled);
        GradModeGuard(prev, None)
    }
}

impl Drop for GradModeGuard {
    fn drop(&mut self) {
        set_grad_enabled(self.0);
        if let Some(fwd) = self.1 {
            set_fwd_grad_enabled(fwd);
        }
    }
}

/// Ops record a graph when grad mode is on and we are not in inference mode.
pub fn recording() -> bool {
    is_grad_enabled() && !is_inference_mode()
}
