//! leafgrad: an autograd engine with PyTorch's leaf-tensor semantics.
//!
//! - [`tensor`]: the tensor record and its handle; [`storage`], [`shape`], [`dtype`]: its parts.
//! - [`graph`]: the node arena (generational ids) and backward nodes.
//! - [`ops`]: differentiable ops, each forward beside its backward formula.
//! - [`engine`]: the backward pass; [`grad_mode`]: thread-local grad / inference mode.
//! - [`kernels`]: CPU loops the ops call.
//! - `python` (feature `python`): the PyO3 bindings and nothing else.
pub mod dtype;
pub mod engine;
pub mod error;
pub mod grad_mode;
pub mod graph;
pub mod kernels;
pub mod ops;
pub mod random;
pub mod shape;
pub mod storage;
pub mod tensor;

#[cfg(feature = "python")]
mod python;

pub use dtype::DType;
pub use error::{Error, Result};
pub use tensor::Tensor;
