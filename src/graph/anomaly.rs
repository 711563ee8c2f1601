//! Anomaly mode (`torch.autograd.detect_anomaly`): while it is on, each new node keeps a
//! description of where it was made (from a source the binding layer installs: the Python
//! stack), the engine reports a failing node with that description, and, with `check_nan`, a
//! node whose gradients contain NaN fails. Off (the default), it costs one atomic load per node.
use crate::graph::arena::NodeRef;
use crate::graph::node::Node;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

static ENABLED: AtomicBool = AtomicBool::new(false);
static CHECK_NAN: AtomicBool = AtomicBool::new(true);

/// Where a node was made (the binding layer's description of the current call stack).
pub type TraceSource = Box<dyn Fn() -> Option<String> + Send + Sync>;
/// How a failing node is reported (the binding layer issues PyTorch's warnings): its name,
/// where it was made, and the same for each node whose backward induced it, innermost first.
pub type Reporter = Box<dyn Fn(&str, Option<&str>, &[(String, Option<String>)]) + Send + Sync>;

thread_local! {
    /// The node whose backward runs now on this thread (anomaly mode only).
    static RUNNING: std::cell::RefCell<Option<NodeRef>> = const { std::cell::RefCell::new(None) };
}

/// The node whose backward is running (the parent of nodes made now), in anomaly mode.
pub fn parent() -> Option<NodeRef> {
    if !is_enabled() {
        return None;
    }
    RUNNING.with(|r| r.borrow().clone())
}

/// Run `f` as the backward of `node`: nodes it makes get `node` as their parent.
pub fn running<T>(node: &NodeRef, f: impl FnOnce() -> T) -> T {
    let prev = RUNNING.with(|r| r.replace(Some(node.clone())));
    struct Restore(Option<NodeRef>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let prev = self.0.take();
            RUNNING.with(|r| *r.borrow_mut() = prev);
        }
    }
    let _restore = Restore(prev);
    f()
}

static TRACE: OnceLock<TraceSource> = OnceLock::new();
static REPORT: OnceLock<Reporter> = OnceLock::new();

pub fn set_enabled(on: bool, check_nan: bool) {
    ENABLED.store(on, Ordering::Release);
    CHECK_NAN.store(check_nan, Ordering::Release);
}

#[inline]
pub fn is_enabled() -> bool {
    ENABLED.load(Ordering::Acquire)
}

pub fn check_nan() -> bool {
    CHECK_NAN.load(Ordering::Acquire)
}

/// Install the trace source and the reporter (once; later calls are ignored).
pub fn install(trace: TraceSource, report: Reporter) {
    let _ = TRACE.set(trace);
    let _ = REPORT.set(report);
}

/// The description of the current call stack, when anomaly mode is on.
pub fn trace() -> Option<String> {
    if !is_enabled() {
        return None;
    }
    TRACE.get().and_then(|f| f())
}

/// Report that `node` failed: where it was made (None: outside anomaly mode) and the chain of
/// nodes whose backward made it.
pub fn report(node: &Node) {
    if let Some(r) = REPORT.get() {
        let mut parents = Vec::new();
        let mut p = node.parent.clone();
        while let Some(n) = p {
            parents.push((n.name.to_string(), n.trace.clone()));
            p = n.parent.clone();
        }
        r(&node.name, node.trace.as_deref(), &parents)
    }
}
