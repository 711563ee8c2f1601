//! DLPack: zero-copy exchange of CPU tensors with numpy, PyTorch, JAX or CuPy through the
//! legacy "dltensor" capsule (DLPack 0.8 ABI).
use super::tensor::{wrap, PyTensor};
use super::IntoPyResult;
use crate::dtype::DType;
use crate::storage::Storage;
use crate::tensor::{Tensor, TensorData};
use pyo3::exceptions::{PyBufferError, PyRuntimeError, PyTypeError};
use pyo3::ffi;
use pyo3::prelude::*;
use std::ffi::{c_void, CStr};
use std::sync::Arc;

#[repr(C)]
#[derive(Copy, Clone)]
struct DLDevice {
    device_type: i32,
    device_id: i32,
}

#[repr(C)]
#[derive(Copy, Clone)]
struct DLDataType {
    code: u8,
    bits: u8,
    lanes: u16,
}

#[repr(C)]
struct DLTensor {
    data: *mut c_void,
    device: DLDevice,
    ndim: i32,
    dtype: DLDataType,
    shape: *mut i64,
    strides: *mut i64,
    byte_offset: u64,
}

#[repr(C)]
struct DLManagedTensor {
    dl_tensor: DLTensor,
    manager_ctx: *mut c_void,
    deleter: Option<unsafe extern "C" fn(*mut DLManagedTensor)>,
}

const CPU: i32 = 1;
const CUDA: i32 = 2;
const NAME: &CStr = c"dltensor";
const USED: &CStr = c"used_dltensor";

/// What the capsule keeps alive: the tensor (and so its storage) and the shape/stride arrays.
struct Export {
    managed: DLManagedTensor,
    _tensor: Tensor,
    _shape: Vec<i64>,
    _strides: Vec<i64>,
}

fn dl_dtype(d: DType) -> DLDataType {
    let (code, bits) = match d {
        DType::Bool => (6, 8),
        DType::UInt8 => (1, 8),
        DType::Int8 => (0, 8),
        DType::Int16 => (0, 16),
        DType::UInt16 => (1, 16),
        DType::UInt32 => (1, 32),
        DType::UInt64 => (1, 64),
        DType::Int32 => (0, 32),
        DType::Int64 => (0, 64),
        DType::Float16 => (2, 16),
        DType::BFloat16 => (4, 16),
        DType::Float32 => (2, 32),
        DType::Float64 => (2, 64),
        DType::Complex64 => (5, 64),
        DType::Complex128 => (5, 128),
    };
    DLDataType {
        code,
        bits,
        lanes: 1,
    }
}

fn from_dl_dtype(t: DLDataType) -> PyResult<DType> {
    if t.lanes != 1 {
        return Err(PyTypeError::new_err(
            "DLPack tensors with lanes != 1 are not supported",
        ));
    }
    Ok(match (t.code, t.bits) {
        (6, 8) => DType::Bool,
        (1, 8) => DType::UInt8,
        (0, 8) => DType::Int8,
        (0, 16) => DType::Int16,
        (1, 16) => DType::UInt16,
        (1, 32) => DType::UInt32,
        (1, 64) => DType::UInt64,
        (0, 32) => DType::Int32,
        (0, 64) => DType::Int64,
        (2, 16) => DType::Float16,
        (4, 16) => DType::BFloat16,
        (2, 32) => DType::Float32,
        (2, 64) => DType::Float64,
        (5, 64) => DType::Complex64,
        (5, 128) => DType::Complex128,
        (c, b) => {
            return Err(PyTypeError::new_err(format!(
                "Unsupported DLPack dtype (code {}, bits {})",
                c, b
            )))
        }
    })
}

unsafe extern "C" fn delete_export(m: *mut DLManagedTensor) {
    // SAFETY: manager_ctx is the Box<Export> made in `export`.
    drop(Box::from_raw((*m).manager_ctx as *mut Export));
}

unsafe extern "C" fn capsule_destructor(capsule: *mut ffi::PyObject) {
    // A capsule nobody consumed still owns its tensor.
    if ffi::PyCapsule_IsValid(capsule, NAME.as_ptr()) == 1 {
        let m = ffi::PyCapsule_GetPointer(capsule, NAME.as_ptr()) as *mut DLManagedTensor;
        if let Some(d) = (*m).deleter {
            d(m);
        }
    } else {
        ffi::PyErr_Clear();
    }
}

pub fn export(py: Python<'_>, t: &Tensor) -> PyResult<Py<PyAny>> {
    if t.requires_grad() {
        return Err(PyRuntimeError::new_err(
            "Can't export tensors that require gradient, use tensor.detach()",
        ));
    }
    if t.device().is_meta() {
        return Err(PyRuntimeError::new_err(
            "a meta tensor has no data to share through DLPack",
        ));
    }
    let d = t.data();
    let shape: Vec<i64> = d.shape.iter().map(|&s| s as i64).collect();
    let strides: Vec<i64> = d.strides.iter().map(|&s| s as i64).collect();
    let data = (d.storage.as_ptr() as usize + d.offset * d.dtype.size()) as *mut c_void;
    let dtype = dl_dtype(d.dtype);
    let device = match d.storage.device() {
        crate::device::Device::Cpu => DLDevice {
            device_type: CPU,
            device_id: 0,
        },
        crate::device::Device::Cuda(i) => DLDevice {
            device_type: CUDA,
            device_id: i as i32,
        },
        crate::device::Device::Meta => unreachable!("refused above"),
    };
    drop(d);
    if let crate::device::Device::Cuda(i) = t.device() {
        // The consumer may read on another stream: our queued kernels finish first.
        py.detach(|| crate::backend::cuda::synchronize(i)).py()?;
    }
    let mut ex = Box::new(Export {
        managed: DLManagedTensor {
            dl_tensor: DLTensor {
                data,
                device,
                ndim: shape.len() as i32,
                dtype,
                shape: std::ptr::null_mut(),
                strides: std::ptr::null_mut(),
                byte_offset: 0,
            },
            manager_ctx: std::ptr::null_mut(),
            deleter: Some(delete_export),
        },
        _tensor: t.clone(),
        _shape: shape,
        _strides: strides,
    });
    ex.managed.dl_tensor.shape = ex._shape.as_mut_ptr();
    ex.managed.dl_tensor.strides = ex._strides.as_mut_ptr();
    let raw = Box::into_raw(ex);
    // SAFETY: `raw` is a live Box; the managed tensor is its first field.
    unsafe {
        (*raw).managed.manager_ctx = raw as *mut c_void;
        let m = &mut (*raw).managed as *mut DLManagedTensor;
        let cap = ffi::PyCapsule_New(m as *mut c_void, NAME.as_ptr(), Some(capsule_destructor));
        if cap.is_null() {
            drop(Box::from_raw(raw));
            return Err(PyErr::fetch(py));
        }
        Ok(Bound::from_owned_ptr(py, cap).unbind())
    }
}

/// Keeps an imported DLPack tensor alive; calls the producer's deleter when dropped.
struct Imported(*mut DLManagedTensor);
// SAFETY: the producer's buffer is plain memory; the deleter is called once, from drop.
unsafe impl Send for Imported {}
unsafe impl Sync for Imported {}
impl Drop for Imported {
    fn drop(&mut self) {
        // SAFETY: the pointer came from a consumed capsule and is released exactly once.
        unsafe {
            if let Some(d) = (*self.0).deleter {
                d(self.0);
            }
        }
    }
}

/// `leafgrad.from_dlpack(obj)`: a tensor sharing the memory of any DLPack producer.
///
/// >>> x = torch.tensor([1., 2., 3.])
/// >>> y = torch.from_dlpack(x)
/// >>> y[0] = 5.
/// >>> x
/// tensor([5., 2., 3.])
#[pyfunction]
pub fn from_dlpack<'py>(py: Python<'py>, obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    if let Ok(t) = obj.cast::<PyTensor>() {
        return Ok(t.clone().into_any());
    }
    let cap = if obj.hasattr("__dlpack__")? {
        let mut kind = CPU;
        if let Ok(dev) = obj.call_method0("__dlpack_device__") {
            (kind, _) = dev.extract::<(i32, i32)>()?;
            if kind != CPU && kind != CUDA {
                return Err(PyRuntimeError::new_err(format!(
                    "leafgrad can only import CPU and CUDA tensors through DLPack (device type {})",
                    kind
                )));
            }
        }
        if kind == CUDA {
            // Stream 1 is the legacy default stream, the one leafgrad's kernels run on.
            let kw = pyo3::types::PyDict::new(py);
            kw.set_item("stream", 1)?;
            obj.call_method("__dlpack__", (), Some(&kw))?
        } else {
            obj.call_method0("__dlpack__")?
        }
    } else {
        obj.clone()
    };
    // SAFETY: checked to be a live "dltensor" capsule; renamed to mark it consumed.
    unsafe {
        if ffi::PyCapsule_IsValid(cap.as_ptr(), NAME.as_ptr()) != 1 {
            ffi::PyErr_Clear();
            return Err(PyTypeError::new_err(
                "from_dlpack expects an object with __dlpack__ or an unconsumed 'dltensor' capsule",
            ));
        }
        let m = ffi::PyCapsule_GetPointer(cap.as_ptr(), NAME.as_ptr()) as *mut DLManagedTensor;
        let dl = &(*m).dl_tensor;
        let device = match dl.device.device_type {
            CPU => crate::device::Device::Cpu,
            CUDA => crate::device::Device::Cuda(dl.device.device_id.max(0) as usize),
            other => {
                return Err(PyRuntimeError::new_err(format!(
                    "leafgrad can only import CPU and CUDA tensors through DLPack (device type {other})"
                )))
            }
        };
        crate::backend::cuda::check(device).py()?;
        let dtype = from_dl_dtype(dl.dtype)?;
        let nd = dl.ndim.max(0) as usize;
        let shape: Vec<usize> = (0..nd).map(|i| *dl.shape.add(i) as usize).collect();
        let strides: Vec<isize> = if dl.strides.is_null() {
            crate::shape::contiguous_strides(&shape).to_vec()
        } else {
            (0..nd).map(|i| *dl.strides.add(i) as isize).collect()
        };
        if strides.iter().any(|&s| s < 0) {
            return Err(PyBufferError::new_err("negative strides are not supported"));
        }
        let n = crate::shape::numel(&shape);
        let extent = if n == 0 {
            0
        } else {
            1 + shape
                .iter()
                .zip(&strides)
                .map(|(&d, &s)| (d as isize - 1) * s)
                .sum::<isize>() as usize
        };
        let ptr = (dl.data as *mut u8).add(dl.byte_offset as usize);
        if ffi::PyCapsule_SetName(cap.as_ptr(), USED.as_ptr()) != 0 {
            return Err(PyErr::fetch(py));
        }
        let storage = if let crate::device::Device::Cuda(ordinal) = device {
            Storage::device_memory(
                ptr as usize as u64,
                extent * dtype.size(),
                ordinal,
                Box::new(Imported(m)),
            )
        } else {
            Storage::foreign(ptr, extent * dtype.size(), Box::new(Imported(m)))
        };
        let t = Tensor::from_data(TensorData {
            storage: Arc::new(storage),
            shape: shape.into(),
            strides: strides.into(),
            offset: 0,
            dtype,
            version: None,
            base: None,
            wrapped_number: false,
        });
        wrap(py, t)
    }
}

#[pymethods]
impl PyTensor {
    #[pyo3(signature = (*, stream = None, max_version = None, dl_device = None, copy = None))]
    fn __dlpack__(
        &self,
        py: Python<'_>,
        stream: Option<Py<PyAny>>,
        max_version: Option<Py<PyAny>>,
        dl_device: Option<Py<PyAny>>,
        copy: Option<bool>,
    ) -> PyResult<Py<PyAny>> {
        let _ = (stream, max_version, dl_device);
        if copy == Some(true) {
            let c = crate::backend::contiguous(&self.t)?;
            return export(py, &c);
        }
        export(py, &self.t)
    }
    fn __dlpack_device__(&self) -> PyResult<(i32, i32)> {
        match self.t.device() {
            crate::device::Device::Cpu => Ok((CPU, 0)),
            crate::device::Device::Cuda(i) => Ok((CUDA, i as i32)),
            crate::device::Device::Meta => Err(PyRuntimeError::new_err(
                "a meta tensor has no data to share through DLPack",
            )),
        }
    }
}
