//! leafgrad: an autograd engine with PyTorch's leaf-tensor semantics.
//!
//! - [`tensor`]: the tensor record and its handle; [`storage`], [`shape`], [`dtype`]: its parts.
//! - [`graph`]: the node arena (generational ids) and backward nodes.
//! - [`ops`]: differentiable ops, each forward beside its backward formula.
//! - [`engine`]: the backward pass; [`forward_ad`]: tangents (forward-mode AD); [`grad_mode`]: thread-local grad / inference mode.
//! - [`backend`]: the devices (CPU loops, CUDA kernels, meta) behind one trait.
//! - `python` (feature `python`): the PyO3 bindings and nothing else.
//!
//! # Example
//!
//! y = x² + 5x + 4, so dy/dx = 2x + 5:
//!
//! ```
//! use leafgrad::engine::{backward, BackwardOptions};
//! use leafgrad::{ops, Tensor};
//!
//! let x = Tensor::from_vec(vec![1.0f64, -2.0], &[2]).unwrap();
//! x.meta().requires_grad = true;
//! let y = ops::add(&ops::add(&ops::mul(&x, &x)?, &ops::mul_scalar(&x, 5.0)?)?, &Tensor::wrapped_scalar(4.0))?;
//! let loss = ops::sum(&y, None, false)?;
//! assert_eq!(loss.grad_fn().unwrap().name, "SumBackward0");
//! let opts = BackwardOptions { accumulate: true, ..Default::default() };
//! backward(&[(loss, Tensor::scalar(1.0f64))], None, opts)?;
//! assert_eq!(x.grad().unwrap().to_vec::<f64>(), vec![7.0, 1.0]);
//! # Ok::<(), leafgrad::Error>(())
//! ```
pub mod backend;
mod declared;
pub mod device;
pub mod dtype;
pub mod engine;
pub mod error;
pub mod forward_ad;
pub mod grad_mode;
pub mod graph;
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
