//! PyO3 bindings: the `leafgrad._core` module. Thin delegations to the core; the only logic here
//! is argument conversion and the mapping of core errors to Python exceptions.
mod autograd;
mod clamp;
mod complex;
mod convert;
mod cuda;
mod dlpack;
mod factor;
mod factory;
mod forward_ad;
mod function;
mod gc;
mod indexing;
mod internals;
mod joins;
mod kwalias;
mod logical;
mod math;
mod misc_unary;
mod nn;
mod node;
mod ops;
mod random;
mod reductions;
mod saved;
mod shape_methods;
mod tensor;
mod threads;
mod views;

use crate::error::Error;
use pyo3::exceptions::{PyIndexError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

pub use tensor::PyTensor;

thread_local! {
    /// Python exceptions raised by user callbacks (hooks) while the core was running.
    static STASHED: RefCell<HashMap<u64, PyErr>> = RefCell::new(HashMap::new());
}
static STASH_IDS: AtomicU64 = AtomicU64::new(1);

/// Keep a Python exception aside while it travels through the core as `Error::Callback`.
pub fn stash(e: PyErr) -> Error {
    let id = STASH_IDS.fetch_add(1, Ordering::Relaxed);
    STASHED.with(|s| s.borrow_mut().insert(id, e));
    Error::Callback(id)
}

pyo3::create_exception!(
    leafgrad,
    OutOfMemoryError,
    PyRuntimeError,
    "A device allocation failed (`torch.OutOfMemoryError`, also `torch.cuda.OutOfMemoryError`).\n\n>>> issubclass(torch.OutOfMemoryError, RuntimeError)\nTrue"
);

/// The one table from core errors to Python exception types.
pub fn to_pyerr(e: Error) -> PyErr {
    match e {
        Error::Runtime(m) => PyRuntimeError::new_err(m),
        Error::Type(m) => PyTypeError::new_err(m),
        Error::Value(m) => PyValueError::new_err(m),
        Error::Index(m) => PyIndexError::new_err(m),
        Error::NotImplemented(m) => pyo3::exceptions::PyNotImplementedError::new_err(m),
        Error::OutOfMemory(m) => OutOfMemoryError::new_err(m),
        Error::Callback(id) => STASHED
            .with(|s| s.borrow_mut().remove(&id))
            .unwrap_or_else(|| PyRuntimeError::new_err("error in a hook")),
    }
}

impl From<Error> for PyErr {
    fn from(e: Error) -> PyErr {
        to_pyerr(e)
    }
}

pub trait IntoPyResult<T> {
    fn py(self) -> PyResult<T>;
}
impl<T> IntoPyResult<T> for crate::Result<T> {
    #[inline]
    fn py(self) -> PyResult<T> {
        self.map_err(to_pyerr)
    }
}

/// Large host blocks are cached in front of the system allocator (see
/// `backend::cpu::host_cache`): a training step reuses its buffers instead of faulting fresh
/// pages in every step.
#[global_allocator]
static ALLOCATOR: crate::backend::cpu::host_cache::HostCache =
    crate::backend::cpu::host_cache::HostCache;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<tensor::PyTensor>()?;
    m.add("OutOfMemoryError", m.py().get_type::<OutOfMemoryError>())?;
    m.add_class::<node::PyNode>()?;
    m.add_class::<node::NodeHandle>()?;
    m.add_class::<tensor::PyHookHandle>()?;
    m.add_class::<kwalias::KwAliased>()?;
    factory::register(m)?;
    factor::register(m)?;
    random::register(m)?;
    autograd::register(m)?;
    forward_ad::register(m)?;
    function::register(m)?;
    saved::register(m)?;
    convert::register(m)?;
    cuda::register(m)?;
    joins::register(m)?;
    nn::register(m)?;
    internals::register(m)?;
    math::register(m)?;
    threads::register(m)?;
    m.add_function(wrap_pyfunction!(dlpack::from_dlpack, m)?)?;
    Ok(())
}
