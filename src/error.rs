//! One error type for the core. Each variant carries PyTorch's text; the Python layer maps the
//! variant to the exception type (`to_pyerr` in src/python/mod.rs), so the message lives in one
//! place.
use thiserror::Error;

#[derive(Debug, Clone, Error)]
pub enum Error {
    /// PyTorch raises RuntimeError.
    #[error("{0}")]
    Runtime(String),
    /// PyTorch raises TypeError.
    #[error("{0}")]
    Type(String),
    /// PyTorch raises ValueError.
    #[error("{0}")]
    Value(String),
    /// PyTorch raises IndexError.
    #[error("{0}")]
    Index(String),
    /// PyTorch raises NotImplementedError (an op without a kernel for the tensor's device).
    #[error("{0}")]
    NotImplemented(String),
    /// An error raised by user code (a hook) that must reach the caller unchanged. The payload is
    /// an opaque id the binding layer uses to find the original exception.
    #[error("error in user callback")]
    Callback(u64),
}

pub type Result<T> = std::result::Result<T, Error>;

pub fn runtime<T>(msg: impl Into<String>) -> Result<T> {
    Err(Error::Runtime(msg.into()))
}

/// The error of an op that has no CUDA kernel in leafgrad yet.
pub fn no_cuda_kernel(what: &str) -> Error {
    Error::NotImplemented(format!(
        "leafgrad has no CUDA kernel for {what} yet: move the tensors to the CPU with .cpu() first"
    ))
}

/// A host loop reached with a meta tensor: an op whose meta form leafgrad lacks.
pub fn no_meta_kernel() -> Error {
    Error::NotImplemented(
        "leafgrad has no meta kernel for this operation: it reads its operands' values on the host (PyTorch returns a meta tensor of the result's shape)".into(),
    )
}

/// PyTorch's error for reading the data of a meta tensor.
pub fn meta_has_no_data() -> Error {
    Error::NotImplemented("Cannot copy out of meta tensor; no data!".into())
}

pub const SECOND_BACKWARD: &str = "Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if you need to access saved tensors after calling backward.";
pub const LEAF_INPLACE: &str =
    "a leaf Variable that requires grad is being used in an in-place operation.";
pub const LEAF_VIEW_INPLACE: &str =
    "a view of a leaf Variable that requires grad is being used in an in-place operation.";
pub const ANOMALY_HINT: &str = "Hint: enable anomaly detection to find the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).";
pub const INFERENCE_SAVED: &str = "Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode in computation tracked by autograd. To work around this, you can make a clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`.";
pub const INFERENCE_INPLACE: &str = "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get a normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more details.";
