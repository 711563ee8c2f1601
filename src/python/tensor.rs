//! The Python `Tensor` type: identity, autograd attributes, and conversions to Python values.
//! Each Tensor object is the one Python object of its core record (see `wrap`), so `x.grad is
//! x.grad` and `grad_fn.variable is x` hold as in PyTorch.
use super::convert::{dtype_obj, shape_args, PyDType};
use super::gc::{take_objects, PyCallable};
use super::node::node_to_py;
use super::{stash, IntoPyResult};
use crate::dtype::DType;
use crate::graph::node::{lock, next_hook_id};
use crate::tensor::Tensor;
use pyo3::exceptions::{PyAttributeError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyTuple, PyType};
use std::ffi::CString;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A strided tensor with autograd metadata (`torch.Tensor`).
///
/// >>> torch.Tensor([1, 2])
/// tensor([1., 2.])
/// >>> x = torch.tensor([1., 2., 3.], requires_grad=True)
/// >>> isinstance(x, torch.Tensor)
/// True
/// >>> y = (x * x).sum()
/// >>> y
/// tensor(14., grad_fn=<SumBackward0>)
/// >>> y.backward()
/// >>> x.grad
/// tensor([2., 4., 6.])
#[pyclass(name = "Tensor", module = "leafgrad", subclass, frozen, weakref, dict)]
pub struct PyTensor {
    pub t: Tensor,
    bound: AtomicBool,
    /// Set when the object's contents are written: the garbage collector may traverse an object
    /// whose memory its allocator only zeroed (a subclass with a `__dict__` is tracked before
    /// PyO3 writes the contents), where this reads false.
    pub(super) ready: AtomicBool,
    /// The Python object of `.grad`, kept so that `x.grad` is one persistent object while the
    /// gradient is the same (PyTorch keeps a tensor's Python object alive with the tensor).
    pub(super) grad_obj: std::sync::Mutex<Option<Py<PyAny>>>,
}

impl Drop for PyTensor {
    fn drop(&mut self) {
        if self.bound.load(Ordering::Relaxed) {
            self.t.0.binding.store(0, Ordering::Release);
        }
    }
}

/// The Python object of a core tensor: the existing one if there is one, else a new one.
pub fn wrap(py: Python<'_>, t: Tensor) -> PyResult<Bound<'_, PyAny>> {
    let p = t.0.binding.load(Ordering::Acquire);
    if p != 0 {
        // SAFETY: the binding is cleared (under the GIL) before its object is freed.
        return Ok(unsafe { Bound::from_borrowed_ptr(py, p as *mut pyo3::ffi::PyObject) });
    }
    let obj = Bound::new(
        py,
        PyTensor {
            t,
            bound: AtomicBool::new(true),
            ready: AtomicBool::new(true),
            grad_obj: std::sync::Mutex::new(None),
        },
    )?;
    obj.get()
        .t
        .0
        .binding
        .store(obj.as_ptr() as usize, Ordering::Release);
    Ok(obj.into_any())
}

pub fn wrap_opt(py: Python<'_>, t: Option<Tensor>) -> PyResult<Bound<'_, PyAny>> {
    match t {
        Some(t) => wrap(py, t),
        None => Ok(py.None().into_bound(py)),
    }
}

static SIZE_TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// `torch.Size([...])`.
pub fn size_obj<'py>(py: Python<'py>, shape: &[usize]) -> PyResult<Bound<'py, PyAny>> {
    let ty = SIZE_TYPE.get_or_try_init(py, || -> PyResult<_> {
        Ok(py
            .import("leafgrad._size")?
            .getattr("Size")?
            .cast_into::<PyType>()?
            .unbind())
    })?;
    ty.bind(py).call1((PyTuple::new(py, shape)?,))
}

fn not_writable(name: &str) -> PyErr {
    PyAttributeError::new_err(format!(
        "attribute '{}' of 'torch._C.TensorBase' objects is not writable",
        name
    ))
}

const NONLEAF_RG_FALSE: &str = "you can only change requires_grad flags of leaf variables. If you want to use a computed variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().";
const NONLEAF_GRAD_WARNING: &str = "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute won't be populated during autograd.backward(). If you indeed want the .grad field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more information. (Triggered internally at /__w/pytorch/pytorch/build/aten/src/ATen/core/TensorBody.h:493.)";
const DETACH_VIEW: &str = "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set as True, gradients are views of DDP buckets, and hence detach_() cannot be called on these gradients. To fix this error, please refer to the Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.";

pub fn warn(py: Python<'_>, category: &str, msg: &str, stacklevel: i32) -> PyResult<()> {
    let cat = py.import("builtins")?.getattr(category)?;
    let m = CString::new(msg).unwrap_or_default();
    PyErr::warn(py, &cat, &m, stacklevel)
}

/// Set requires_grad on a leaf, with the check every entry point shares.
pub fn set_requires_grad(t: &Tensor, on: bool, int_msg: &str) -> PyResult<()> {
    if on && !t.dtype().is_differentiable() {
        return Err(PyRuntimeError::new_err(int_msg.to_string()));
    }
    if on && t.is_inference() && !crate::grad_mode::is_inference_mode() {
        return Err(PyRuntimeError::new_err(
            "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.",
        ));
    }
    t.meta().requires_grad = on;
    Ok(())
}

pub const FACTORY_INT_RG: &str =
    "Only Tensors of floating point and complex dtype can require gradients";

#[pymethods]
impl PyTensor {
    /// `Tensor(data)` / `Tensor(*sizes)`; subclasses (Parameter) build from a tensor this way.
    #[new]
    #[pyo3(signature = (*args))]
    fn py_new(args: &Bound<'_, PyTuple>) -> PyResult<PyTensor> {
        let default = crate::dtype::default_float();
        let t = if args.is_empty() {
            Tensor::zeros(&[0], default).py()?
        } else if let Ok(src) = args.get_item(0)?.cast::<PyTensor>() {
            src.get().t.detached()
        } else if args.len() == 1 && !args.get_item(0)?.is_instance_of::<pyo3::types::PyInt>() {
            let data = args.get_item(0)?;
            let kind = data.get_type();
            let module: String = kind.getattr("__module__")?.extract()?;
            let name: String = kind.getattr("__name__")?.extract()?;
            let t = if module == "numpy" && name == "ndarray" {
                // an array's data, as `torch.as_tensor` reads it
                let t = data
                    .py()
                    .import("leafgrad")?
                    .call_method1("as_tensor", (&data,))?;
                t.cast::<PyTensor>()?.get().t.detached()
            } else if data.is_instance_of::<pyo3::types::PyList>()
                || data.is_instance_of::<PyTuple>()
                || data.is_instance_of::<pyo3::types::PyRange>()
            {
                super::factory::from_data(&data, None)?
            } else {
                let shown = if module == "builtins" {
                    name
                } else {
                    format!("{module}.{name}")
                };
                return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                    "new(): data must be a sequence (got {shown})"
                )));
            };
            if t.dtype() == default {
                t
            } else {
                crate::backend::cast(&t, default)?
            }
        } else {
            let shape = shape_args(args, "Tensor")?;
            let shape: Vec<usize> = shape.iter().map(|&d| d.max(0) as usize).collect();
            Tensor::zeros(&shape, default).py()?
        };
        Ok(PyTensor {
            t,
            bound: AtomicBool::new(false),
            ready: AtomicBool::new(true),
            grad_obj: std::sync::Mutex::new(None),
        })
    }

    /// Make this object the Python identity of its record (for objects made by `__new__`).
    fn _bind(slf: &Bound<'_, Self>) {
        let me = slf.get();
        me.t.0
            .binding
            .store(slf.as_ptr() as usize, Ordering::Release);
        me.bound.store(true, Ordering::Relaxed);
    }

    // ---- autograd attributes -------------------------------------------------------------

    #[getter]
    fn get_requires_grad(&self) -> bool {
        self.t.requires_grad()
    }
    #[setter]
    fn set_requires_grad(&self, value: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let Some(v) = value.filter(|v| v.is_instance_of::<PyBool>()) else {
            return Err(PyRuntimeError::new_err("requires_grad must be a bool"));
        };
        let on = v.is_truthy()?;
        if !self.t.is_leaf() {
            return Err(PyRuntimeError::new_err(if on {
                "you can only change requires_grad flags of leaf variables."
            } else {
                NONLEAF_RG_FALSE
            }));
        }
        set_requires_grad(
            &self.t,
            on,
            "only Tensors of floating point and complex dtype can require gradients",
        )
    }

    #[pyo3(signature = (requires_grad = None))]
    fn requires_grad_<'py>(
        slf: &Bound<'py, Self>,
        requires_grad: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, Self>> {
        let on = match requires_grad {
            None => true,
            Some(v) if v.is_instance_of::<PyBool>() => v.is_truthy()?,
            Some(v) => {
                return Err(PyTypeError::new_err(format!(
                    "requires_grad_(): argument 'requires_grad' (position 1) must be bool, not {}",
                    v.get_type().name()?
                )))
            }
        };
        let t = &slf.get().t;
        if !t.is_leaf() {
            if !on {
                return Err(PyRuntimeError::new_err(NONLEAF_RG_FALSE));
            }
            return Ok(slf.clone());
        }
        set_requires_grad(
            t,
            on,
            "only Tensors of floating point dtype can require gradients",
        )?;
        Ok(slf.clone())
    }

    #[getter]
    fn get_is_leaf(&self) -> PyResult<bool> {
        crate::ops::refresh_view(&self.t)?;
        Ok(self.t.is_leaf())
    }
    #[setter]
    fn set_is_leaf(&self, _v: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        Err(not_writable("is_leaf"))
    }

    #[getter]
    fn get_grad_fn<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        // a view rebased by a write through its base: PyTorch's error when it may not be
        crate::ops::refresh_view(&self.t)?;
        match self.t.grad_fn() {
            Some(n) => node_to_py(py, n),
            None => Ok(py.None().into_bound(py)),
        }
    }
    #[setter]
    fn set_grad_fn(&self, _v: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        Err(not_writable("grad_fn"))
    }

    #[getter]
    fn get_retains_grad(&self) -> bool {
        self.t.retains_grad()
    }
    #[setter]
    fn set_retains_grad(&self, _v: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        Err(not_writable("retains_grad"))
    }

    #[getter(_version)]
    fn get_version(&self) -> PyResult<u32> {
        if self.t.is_unversioned_inference() {
            return Err(PyRuntimeError::new_err(
                "Inference tensors do not track version counter.",
            ));
        }
        Ok(self.t.version())
    }
    #[setter(_version)]
    fn set_version_counter(&self, _v: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        Err(not_writable("_version"))
    }

    /// What `leafgrad.explain` needs that PyTorch does not record: how the tensor was made
    /// ("detach", "data", "detach_" or None) and whether grad mode was off at the time.
    fn _provenance(&self) -> (Option<&'static str>, bool) {
        use crate::tensor::Origin;
        let m = self.t.meta();
        let o = match m.origin {
            Origin::Other => None,
            Origin::Detach => Some("detach"),
            Origin::Data => Some("data"),
            Origin::DetachInPlace => Some("detach_"),
        };
        (o, m.made_without_grad)
    }

    #[getter]
    fn get_output_nr(&self) -> u32 {
        self.t.output_nr()
    }

    #[getter]
    fn get_grad<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let g = self.t.grad();
        if g.is_none() && !self.t.is_leaf() && !self.t.retains_grad() {
            warn(py, "UserWarning", NONLEAF_GRAD_WARNING, 1)?;
        }
        let mut cache = self.grad_obj.lock().unwrap_or_else(|e| e.into_inner());
        let Some(g) = g else {
            *cache = None;
            return Ok(py.None().into_bound(py));
        };
        if let Some(obj) = cache.as_ref() {
            let obj = obj.bind(py);
            if obj.cast::<PyTensor>().is_ok_and(|p| p.get().t.ptr_eq(&g)) {
                return Ok(obj.clone());
            }
        }
        let obj = wrap(py, g)?;
        *cache = Some(obj.clone().unbind());
        Ok(obj)
    }

    #[setter]
    fn set_grad(&self, value: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        *self.grad_obj.lock().unwrap_or_else(|e| e.into_inner()) = None;
        let Some(v) = value.filter(|v| !v.is_none()) else {
            self.t.meta().grad = None;
            return Ok(());
        };
        let Ok(g) = v.cast::<PyTensor>() else {
            return Err(PyTypeError::new_err(format!(
                "assigned grad expected to be a Tensor or None but got grad of type {}",
                v.get_type().name()?
            )));
        };
        self.t.assign_grad(Some(g.get().t.clone())).py()
    }

    #[deleter(grad)]
    fn delete_grad(&self) {
        *self.grad_obj.lock().unwrap_or_else(|e| e.into_inner()) = None;
        self.t.meta().grad = None;
    }
    #[deleter(data)]
    fn delete_data(&self) -> PyResult<()> {
        Err(PyRuntimeError::new_err(
            "Deleting tensor data is not allowed. Delete tensor instead!",
        ))
    }
    #[deleter(requires_grad)]
    fn delete_requires_grad(&self) -> PyResult<()> {
        Err(PyRuntimeError::new_err("requires_grad must be a bool"))
    }
    /// The grad_fn (PyTorch's internal name for it).
    #[getter(_grad_fn)]
    fn get_private_grad_fn<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.get_grad_fn(py)
    }
    #[deleter(_grad_fn)]
    fn delete_private_grad_fn(&self) -> PyResult<()> {
        Err(PyRuntimeError::new_err(
            "Deletion of _grad_fn not allowed. Detach tensor instead!",
        ))
    }

    #[getter]
    fn get_grad_dtype(&self, py: Python<'_>) -> Option<Py<PyDType>> {
        if self.t.meta().grad_dtype_any {
            None
        } else {
            Some(dtype_obj(py, self.t.dtype()))
        }
    }
    #[setter]
    fn set_grad_dtype(&self, v: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let any = v.is_none_or(|v| v.is_none());
        self.t.meta().grad_dtype_any = any;
        Ok(())
    }

    fn retain_grad(&self) -> PyResult<()> {
        retain_grad(&self.t)
    }

    fn detach<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        wrap(py, self.t.detached())
    }

    fn detach_<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, Self>> {
        let t = &slf.get().t;
        if crate::grad_mode::is_inference_mode() || t.is_inference() {
            // autograd does not see it: PyTorch's detach_ leaves the history alone there
            return Ok(slf.clone());
        }
        if t.is_view() {
            return Err(PyRuntimeError::new_err(DETACH_VIEW));
        }
        let old = {
            let mut m = t.meta();
            m.requires_grad = false;
            m.output_nr = 0;
            m.origin = crate::tensor::Origin::DetachInPlace;
            m.grad_fn.take()
        };
        drop(old);
        // forward-mode AD is cut too (PyTorch's detach_ drops the tangent)
        crate::ops::tangent::set_tangent(t, None);
        Ok(slf.clone())
    }

    #[getter]
    fn get_data<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        wrap(py, self.t.data_alias())
    }
    #[setter]
    fn set_data(&self, v: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let Some(v) = v else {
            return Err(PyTypeError::new_err(
                "Variable data has to be a tensor, but got NoneType",
            ));
        };
        let Ok(src) = v.cast::<PyTensor>() else {
            return Err(PyTypeError::new_err(format!(
                "Variable data has to be a tensor, but got {}",
                v.get_type().name()?
            )));
        };
        self.t.assign_data(&src.get().t).py()
    }

    fn register_hook<'py>(&self, py: Python<'py>, hook: Py<PyAny>) -> PyResult<PyHookHandle> {
        register_tensor_hook(py, &self.t, hook)
    }

    fn register_post_accumulate_grad_hook(&self, hook: Py<PyAny>) -> PyResult<PyHookHandle> {
        let id = next_hook_id();
        let obj = Arc::new(PyCallable(hook));
        let hook = obj.clone();
        let f: crate::tensor::PostAccHook = Arc::new(move |t: &Tensor| {
            Python::attach(|py| {
                let r = hook.0.call1(py, (wrap(py, t.clone())?,))?;
                if !r.is_none(py) {
                    return Err(PyRuntimeError::new_err(
                        "Tensor post accumulate grad hooks should return None.",
                    ));
                }
                Ok(())
            })
            .map_err(stash)
        });
        self.t.add_post_accumulate_grad_hook(id, f).py()?;
        self.t.meta().hook_objects.push((id, obj));
        Ok(PyHookHandle {
            target: HookTarget::PostAcc(Arc::downgrade(&self.t.0)),
            id,
        })
    }

    // ---- shape, dtype and layout ---------------------------------------------------------

    #[getter]
    fn get_shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        size_obj(py, &self.t.shape())
    }
    #[pyo3(signature = (dim = None, *, axis = None))]
    fn size<'py>(
        &self,
        py: Python<'py>,
        dim: Option<i64>,
        axis: Option<i64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let dim = super::ops::dim_or_axis("size", dim, axis)?;
        let shape = self.t.shape();
        match dim {
            None => size_obj(py, &shape),
            Some(d) => {
                let d = crate::shape::wrap_dim(d, shape.len()).py()?;
                if shape.is_empty() {
                    return Err(pyo3::exceptions::PyIndexError::new_err(
                        "Dimension specified as 0 but tensor has no dimensions",
                    ));
                }
                Ok(shape[d].into_pyobject(py)?.into_any())
            }
        }
    }
    #[pyo3(signature = (dim = None, *, axis = None))]
    fn stride<'py>(
        &self,
        py: Python<'py>,
        dim: Option<i64>,
        axis: Option<i64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let dim = super::ops::dim_or_axis("stride", dim, axis)?;
        let st = self.t.strides();
        match dim {
            None => Ok(PyTuple::new(py, st.iter())?.into_any()),
            Some(d) => {
                let d = crate::shape::wrap_dim(d, st.len()).py()?;
                match st.get(d) {
                    Some(s) => Ok(s.into_pyobject(py)?.into_any()),
                    None => Err(pyo3::exceptions::PyIndexError::new_err(
                        "Dimension specified as 0 but tensor has no dimensions",
                    )),
                }
            }
        }
    }
    fn storage_offset(&self) -> usize {
        self.t.data().offset
    }
    fn data_ptr(&self) -> usize {
        let d = self.t.data();
        d.storage.as_ptr() as usize + d.offset * d.dtype.size()
    }
    #[getter]
    fn get_dtype(&self, py: Python<'_>) -> Py<PyDType> {
        dtype_obj(py, self.t.dtype())
    }
    #[getter]
    fn get_ndim(&self) -> usize {
        self.t.ndim()
    }
    fn dim(&self) -> usize {
        self.t.ndim()
    }
    fn ndimension(&self) -> usize {
        self.t.ndim()
    }
    fn numel(&self) -> usize {
        self.t.numel()
    }
    fn nelement(&self) -> usize {
        self.t.numel()
    }
    fn element_size(&self) -> usize {
        self.t.dtype().size()
    }
    fn is_contiguous(&self) -> bool {
        self.t.is_contiguous()
    }
    fn _is_view(&self) -> bool {
        self.t.is_view()
    }
    /// The tensor this one is a view of (None when it is not a view).
    #[getter]
    fn _base<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        wrap_opt(py, self.t.base())
    }
    fn is_inference(&self) -> bool {
        self.t.is_inference()
    }
    fn is_floating_point(&self) -> bool {
        self.t.dtype().is_floating()
    }
    fn is_complex(&self) -> bool {
        self.t.dtype().is_complex()
    }
    fn __len__(&self) -> PyResult<usize> {
        let s = self.t.shape();
        s.first()
            .copied()
            .ok_or_else(|| PyTypeError::new_err("len() of a 0-d tensor"))
    }
    fn __hash__(slf: &Bound<'_, Self>) -> isize {
        slf.as_ptr() as isize
    }

    // ---- Python values --------------------------------------------------------------------

    fn item<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v = self.t.item().py()?;
        if self.t.dtype().category() == crate::dtype::Category::Int {
            // exactly: an int64 beyond 2**53 does not survive the trip through a float
            return Ok(exact_int(&self.t)?.into_pyobject(py)?.into_any());
        }
        scalar_to_py(py, v, self.t.dtype())
    }
    fn __float__(&self, py: Python<'_>) -> PyResult<f64> {
        self.scalar_for_conversion(py)?;
        Ok(self.t.item().py()?.re)
    }
    fn __int__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.scalar_for_conversion(py)?;
        if !self.t.dtype().is_differentiable() {
            return Ok(exact_int(&self.t)?.into_pyobject(py)?.into_any());
        }
        // Python's float -> int: ValueError for NaN, OverflowError for infinities, any size
        let v = self.t.item().py()?.re;
        pyo3::types::PyFloat::new(py, v).call_method0("__int__")
    }
    fn __index__(&self) -> PyResult<i128> {
        if self.t.dtype().is_differentiable() || self.t.numel() != 1 {
            return Err(PyTypeError::new_err(
                "only integer tensors of a single element can be converted to an index",
            ));
        }
        exact_int(&self.t)
    }
    fn __complex__(&self) -> PyResult<num_complex::Complex64> {
        if self.t.numel() != 1 {
            return Err(PyValueError::new_err(
                "only one element tensors can be converted to Python scalars",
            ));
        }
        self.t.item().py()
    }
    fn __bool__(&self) -> PyResult<bool> {
        let n = self.t.numel();
        if n != 1 {
            return Err(PyRuntimeError::new_err(if n == 0 {
                "Boolean value of Tensor with no values is ambiguous"
            } else {
                "Boolean value of Tensor with more than one value is ambiguous"
            }));
        }
        let v = self.t.item().py()?;
        Ok(v.re != 0.0 || v.im != 0.0)
    }
}

static WARNED_SCALAR: AtomicBool = AtomicBool::new(false);

impl PyTensor {
    fn scalar_for_conversion(&self, py: Python<'_>) -> PyResult<()> {
        if self.t.numel() != 1 {
            return Err(PyValueError::new_err(
                "only one element tensors can be converted to Python scalars",
            ));
        }
        // (PyTorch warns once, and only where grad mode is on)
        if self.t.requires_grad()
            && crate::grad_mode::is_grad_enabled()
            && !WARNED_SCALAR.swap(true, Ordering::Relaxed)
        {
            warn(py, "UserWarning", "Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\nConsider using tensor.detach() first. (Triggered internally at /__w/pytorch/pytorch/torch/csrc/autograd/generated/python_variable_methods.cpp:822.)", 1)?;
        }
        Ok(())
    }
}

/// The one element of an integer or bool tensor, exactly.
fn exact_int(t: &Tensor) -> PyResult<i128> {
    t.item().py()?; // its checks (one element, data present)
    Ok(match t.dtype() {
        DType::UInt64 => t.try_to_vec::<u64>().py()?[0] as i128,
        _ => t.try_to_vec::<i64>().py()?[0] as i128,
    })
}

pub fn scalar_to_py(
    py: Python<'_>,
    v: num_complex::Complex64,
    dt: DType,
) -> PyResult<Bound<'_, PyAny>> {
    Ok(match dt {
        DType::Bool => PyBool::new(py, v.re != 0.0).to_owned().into_any(),
        DType::UInt8 | DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64 => {
            (v.re as i64).into_pyobject(py)?.into_any()
        }
        DType::UInt16 | DType::UInt32 | DType::UInt64 => {
            (v.re as u64).into_pyobject(py)?.into_any()
        }
        DType::Float16 | DType::BFloat16 | DType::Float32 | DType::Float64 => {
            v.re.into_pyobject(py)?.into_any()
        }
        DType::Complex64 | DType::Complex128 => v.into_pyobject(py)?.into_any(),
    })
}

pub fn retain_grad(t: &Tensor) -> PyResult<()> {
    if !t.requires_grad() {
        return Err(PyRuntimeError::new_err(
            "can't retain_grad on Tensor that has requires_grad=False",
        ));
    }
    // a leaf (its grad_fn as it is: a view made under no_grad has none) or one already
    // retained: nothing to do, as in PyTorch, which asks for the current history only after
    if t.is_leaf() || t.retains_grad() {
        return Ok(());
    }
    // a view written through its base or a sibling: the hook goes on its current history
    crate::ops::refresh_view(t)?;
    let (gf, nr) = {
        let mut m = t.meta();
        m.retains_grad = true;
        (m.grad_fn.clone(), m.output_nr)
    };
    if let Some(gf) = gf {
        gf.edit_hooks(|h| h.retains.push((nr, Arc::downgrade(&t.0))));
    }
    Ok(())
}

// ---- hooks -------------------------------------------------------------------------------

pub enum HookTarget {
    Leaf(std::sync::Weak<crate::tensor::TensorImpl>),
    PostAcc(std::sync::Weak<crate::tensor::TensorImpl>),
    Node(crate::graph::arena::NodeId),
}

/// `torch.utils.hooks.RemovableHandle`.
#[pyclass(name = "RemovableHandle", module = "leafgrad")]
pub struct PyHookHandle {
    pub target: HookTarget,
    pub id: u64,
}

#[pymethods]
impl PyHookHandle {
    fn remove(&self) {
        let id = self.id;
        match &self.target {
            HookTarget::Leaf(w) => {
                if let Some(t) = w.upgrade() {
                    let t = Tensor(t);
                    let mut m = t.meta();
                    m.hooks.retain(|(i, _)| *i != id);
                    let gone = take_objects(&mut m.hook_objects, id);
                    drop(m);
                    drop(gone);
                }
            }
            HookTarget::PostAcc(w) => {
                if let Some(t) = w.upgrade() {
                    let t = Tensor(t);
                    let mut m = t.meta();
                    m.post_acc_hooks.retain(|(i, _)| *i != id);
                    let gone = take_objects(&mut m.hook_objects, id);
                    drop(m);
                    drop(gone);
                }
            }
            HookTarget::Node(n) => {
                if let Some(n) = crate::graph::arena::NodeRef::upgrade(*n) {
                    let mut h = lock(&n.hooks);
                    h.tensor_pre.retain(|(_, i, _)| *i != id);
                    h.pre.retain(|(i, _)| *i != id);
                    h.post.retain(|(i, _)| *i != id);
                    let gone = take_objects(&mut h.objects, id);
                    drop(h);
                    drop(gone);
                }
            }
        }
    }
    fn __repr__(slf: &Bound<'_, Self>) -> String {
        format!(
            "<torch.utils.hooks.RemovableHandle object at {:#x}>",
            slf.as_ptr() as usize
        )
    }
    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }
    fn __exit__(&self, _a: Py<PyAny>, _b: Py<PyAny>, _c: Py<PyAny>) {
        self.remove()
    }
}

fn hook_name(py: Python<'_>, hook: &Py<PyAny>) -> String {
    hook.bind(py)
        .getattr("__name__")
        .and_then(|n| n.extract::<String>())
        .unwrap_or_else(|_| "<unknown>".into())
}

/// Check a hook's return value the way PyTorch does.
pub fn hook_result(
    py: Python<'_>,
    hook: &Py<PyAny>,
    r: Bound<'_, PyAny>,
    g: Option<&Tensor>,
) -> PyResult<Option<Tensor>> {
    if r.is_none() {
        return Ok(None);
    }
    let Some(g) = g else {
        return Err(PyRuntimeError::new_err(
            "can't replace a None gradient with a non-None value",
        ));
    };
    let Ok(t) = r.cast::<PyTensor>() else {
        return Err(PyTypeError::new_err(format!(
            "expected Variable, but hook returned '{}'",
            r.get_type().name()?
        )));
    };
    let t = t.get().t.clone();
    if t.shape() != g.shape() {
        return Err(PyRuntimeError::new_err(format!(
            "hook '{}' has changed the size of value",
            hook_name(py, hook)
        )));
    }
    if t.dtype() != g.dtype() {
        return Err(PyRuntimeError::new_err(format!(
            "hook '{}' has changed the type of value (was {} got {})",
            hook_name(py, hook),
            g.dtype().legacy_type_name(),
            t.dtype().legacy_type_name()
        )));
    }
    Ok(Some(t))
}

pub fn register_tensor_hook(
    _py: Python<'_>,
    t: &Tensor,
    hook: Py<PyAny>,
) -> PyResult<PyHookHandle> {
    if !t.requires_grad() {
        return Err(PyRuntimeError::new_err(
            "cannot register a hook on a tensor that doesn't require gradient",
        ));
    }
    crate::ops::refresh_view(t)?;
    let id = next_hook_id();
    let obj = Arc::new(PyCallable(hook));
    let held = obj.clone();
    let f: crate::graph::node::TensorHook = Arc::new(move |g: Option<&Tensor>| {
        Python::attach(|py| {
            let hook = &held.0;
            let r = hook.call1(py, (wrap_opt(py, g.cloned())?,))?;
            hook_result(py, hook, r.into_bound(py), g)
        })
        .map_err(stash)
    });
    let (gf, nr) = {
        let m = t.meta();
        (m.grad_fn.clone(), m.output_nr)
    };
    match gf {
        None => {
            let mut m = t.meta();
            m.hooks.push((id, f));
            m.hook_objects.push((id, obj));
            Ok(PyHookHandle {
                target: HookTarget::Leaf(Arc::downgrade(&t.0)),
                id,
            })
        }
        Some(n) => {
            n.edit_hooks(|h| {
                h.tensor_pre.push((nr, id, f));
                h.objects.push((id, obj));
            });
            Ok(PyHookHandle {
                target: HookTarget::Node(n.id()),
                id,
            })
        }
    }
}
