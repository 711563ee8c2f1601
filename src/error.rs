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
    /// A device allocation failed: PyTorch raises `torch.OutOfMemoryError` (a RuntimeError).
    #[error("{0}")]
    OutOfMemory(String),
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

/// A double as C++'s `std::ostream` prints it by default (`%g`, 6 significant digits):
/// `-1`, `0.5`, `1e-07`, `3e+38`, `nan`, `inf`, as PyTorch's messages show numbers.
pub fn cpp_double(v: f64) -> String {
    if v.is_nan() {
        return "nan".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf" } else { "-inf" }.into();
    }
    if v == 0.0 {
        return if v.is_sign_negative() { "-0" } else { "0" }.into();
    }
    // the exponent after rounding to 6 significant digits decides the notation
    let sci = format!("{v:.5e}");
    let (mantissa, exp) = sci.split_once('e').expect("{:e} has an exponent");
    let exp: i32 = exp.parse().expect("an integer exponent");
    let trim = |s: &str| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s.to_string()
        }
    };
    if !(-4..6).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", trim(mantissa), exp.abs())
    } else {
        trim(&format!("{v:.*}", (5 - exp) as usize))
    }
}

#[cfg(test)]
mod tests {
    use super::cpp_double;

    #[test]
    fn cpp_double_is_ostreams_format() {
        for (v, s) in [
            (-1.0, "-1"),
            (0.5, "0.5"),
            (1e-7, "1e-07"),
            (3e38, "3e+38"),
            (60000.0, "60000"),
            (123456.0, "123456"),
            (1234567.0, "1.23457e+06"),
            (0.0001, "0.0001"),
            (0.00012345678, "0.000123457"),
            (999999.5, "1e+06"),
            (f64::NAN, "nan"),
            (f64::NEG_INFINITY, "-inf"),
            (1e308, "1e+308"),
        ] {
            assert_eq!(cpp_double(v), s);
        }
    }
}
