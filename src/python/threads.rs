//! `torch.set_num_threads` and friends: the size of the CPU's worker pool.
use crate::backend::cpu::{host_cache, parallel};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt};
use std::sync::atomic::{AtomicI64, AtomicUsize, Ordering};

/// The int argument of the thread-count setters, with PyTorch's messages.
fn int_arg(what: &str, n: &Bound<'_, PyAny>) -> PyResult<i64> {
    if n.is_instance_of::<PyBool>() || !n.is_instance_of::<PyInt>() {
        let ty = n.get_type().name()?;
        return Err(PyRuntimeError::new_err(format!(
            "{what} expects an int, but got {ty}"
        )));
    }
    n.extract()
}

/// Sets the number of threads CPU kernels split large work over (the worker pool is rebuilt
/// at its next use). Work under 32768 elements always runs on the calling thread.
///
/// >>> n = torch.get_num_threads()
/// >>> torch.set_num_threads(1)
/// >>> torch.get_num_threads()
/// 1
/// >>> torch.set_num_threads(n)
#[pyfunction]
fn set_num_threads(n: &Bound<'_, PyAny>) -> PyResult<()> {
    let n = int_arg("set_num_threads", n)?;
    parallel::set_num_threads(n).map_err(super::to_pyerr)
}

/// The number of threads CPU kernels use: the cores this process may use, unless
/// `torch.set_num_threads` set another.
///
/// >>> torch.get_num_threads() >= 1
/// True
#[pyfunction]
fn get_num_threads() -> usize {
    parallel::num_threads()
}

/// leafgrad runs no inter-op pool: the value is kept and reported, as PyTorch's is.
static INTEROP: AtomicI64 = AtomicI64::new(0);
static INTEROP_SET: AtomicUsize = AtomicUsize::new(0);

/// Sets the number of inter-op threads PyTorch would use (leafgrad runs operations one at a
/// time and only reports the value); once only, as in PyTorch.
///
/// >>> torch.get_num_interop_threads() >= 1
/// True
#[pyfunction]
fn set_num_interop_threads(n: &Bound<'_, PyAny>) -> PyResult<()> {
    let n = int_arg("set_num_interop_threads", n)?;
    if n <= 0 {
        return Err(PyRuntimeError::new_err(
            "set_num_interop_threads expects a positive integer",
        ));
    }
    if INTEROP_SET.fetch_add(1, Ordering::SeqCst) > 0 {
        return Err(PyRuntimeError::new_err("Error: cannot set number of interop threads after parallel work has started or set_num_interop_threads called"));
    }
    INTEROP.store(n, Ordering::SeqCst);
    Ok(())
}

/// The number of inter-op threads (the cores this process may use unless set).
///
/// >>> torch.get_num_interop_threads() >= 1
/// True
#[pyfunction]
fn get_num_interop_threads() -> i64 {
    match INTEROP.load(Ordering::SeqCst) {
        0 => std::thread::available_parallelism()
            .map(|p| p.get() as i64)
            .unwrap_or(1),
        n => n,
    }
}

/// The host block cache in front of the allocator (`backend::cpu::host_cache`): bytes and
/// blocks cached, allocations it served, large allocations that went to the system.
#[pyfunction]
fn _host_cache_info() -> (usize, usize, u64, u64) {
    host_cache::stats()
}

/// Gives the cached host blocks back to the system; with `capacity_mb`, caches at most that
/// many MiB from now on (0: none).
#[pyfunction]
#[pyo3(signature = (capacity_mb = None))]
fn _host_cache_empty(capacity_mb: Option<usize>) {
    match capacity_mb {
        Some(mb) => host_cache::set_capacity(mb.saturating_mul(1024 * 1024)),
        None => host_cache::empty(),
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    if let Some(mb) = std::env::var("LEAFGRAD_HOST_CACHE_MB")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
    {
        host_cache::set_capacity(mb.saturating_mul(1024 * 1024));
    }
    m.add_function(wrap_pyfunction!(_host_cache_info, m)?)?;
    m.add_function(wrap_pyfunction!(_host_cache_empty, m)?)?;
    m.add_function(wrap_pyfunction!(set_num_threads, m)?)?;
    m.add_function(wrap_pyfunction!(get_num_threads, m)?)?;
    m.add_function(wrap_pyfunction!(set_num_interop_threads, m)?)?;
    m.add_function(wrap_pyfunction!(get_num_interop_threads, m)?)?;
    Ok(())
}
