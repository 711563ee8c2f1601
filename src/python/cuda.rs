//! `leafgrad._core` entry points of the CUDA backend: availability, devices, moving tensors,
//! and the kernel table/source/compiler the tests check without a GPU.
use super::tensor::{wrap, PyTensor};
use super::IntoPyResult;
use crate::device::Device;
use pyo3::prelude::*;

/// (available, device count, reason when not available).
#[pyfunction]
fn _cuda_status() -> (bool, usize, Option<String>) {
    match crate::backend::cuda::available() {
        Ok(n) => (true, n, None),
        Err(why) => (false, 0, Some(why)),
    }
}

/// (name, (major, minor), total memory in bytes) of CUDA device `i`.
#[pyfunction]
fn _cuda_device_properties(i: usize) -> PyResult<(String, (i32, i32), usize)> {
    crate::backend::cuda::device_properties(i).py()
}

/// Every kernel name with its parameter count, as the launch sites use them.
#[pyfunction]
fn _cuda_kernels() -> Vec<(String, usize)> {
    crate::backend::cuda::kernel_table()
}

/// The CUDA C source of the kernels.
#[pyfunction]
fn _cuda_source() -> &'static str {
    crate::backend::cuda::source()
}

/// The kernels compiled by NVRTC to PTX for `arch` (e.g. "compute_80"); needs no GPU.
#[pyfunction]
fn _cuda_compile_ptx(py: Python<'_>, arch: &str) -> PyResult<String> {
    py.detach(|| crate::backend::cuda::compile_ptx(arch)).py()
}

/// {kernel name: launches} in this process (the GPU tests check every kernel ran).
#[pyfunction]
fn _cuda_launch_counts() -> PyResult<Vec<(String, u64)>> {
    crate::backend::cuda::launch_counts().py()
}

#[pyfunction]
fn _cuda_memory_allocated() -> PyResult<usize> {
    crate::backend::cuda::memory_allocated().py()
}

#[pyfunction]
fn _cuda_synchronize(py: Python<'_>, i: usize) -> PyResult<()> {
    py.detach(|| crate::backend::cuda::synchronize(i)).py()
}

/// A contiguous copy of `t` on `device` with no autograd history (factories' `device=`).
#[pyfunction]
fn _move(py: Python<'_>, t: &Bound<'_, PyTensor>, device: &str) -> PyResult<Py<PyAny>> {
    let d = Device::parse(device).py()?;
    crate::backend::cuda::check(d).py()?;
    let r = crate::backend::to_device(&t.get().t, d).py()?;
    Ok(wrap(py, r)?.unbind())
}

/// A new meta tensor (shape and dtype, no memory): factories' `device="meta"`.
#[pyfunction]
fn _meta(
    py: Python<'_>,
    shape: Vec<usize>,
    dtype: PyRef<'_, super::convert::PyDType>,
) -> PyResult<Py<PyAny>> {
    let t = crate::Tensor::on_meta(&shape, dtype.d).py()?;
    Ok(wrap(py, t)?.unbind())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_meta, m)?)?;
    m.add_function(wrap_pyfunction!(_cuda_status, m)?)?;
    m.add_function(wrap_pyfunction!(_cuda_device_properties, m)?)?;
    m.add_function(wrap_pyfunction!(_cuda_kernels, m)?)?;
    m.add_function(wrap_pyfunction!(_cuda_source, m)?)?;
    m.add_function(wrap_pyfunction!(_cuda_compile_ptx, m)?)?;
    m.add_function(wrap_pyfunction!(_move, m)?)?;
    m.add_function(wrap_pyfunction!(_cuda_synchronize, m)?)?;
    m.add_function(wrap_pyfunction!(_cuda_memory_allocated, m)?)?;
    m.add_function(wrap_pyfunction!(_cuda_launch_counts, m)?)?;
    Ok(())
}
