//! Conversions between Python values and core values: dtypes, scalars, shapes, dims.
use super::{IntoPyResult, PyTensor};
use crate::dtype::DType;
use crate::tensor::Tensor;
use num_complex::Complex64;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyComplex, PyFloat, PyInt, PyList, PyTuple};

/// `torch.float32` and friends: one object per dtype.
///
/// >>> torch.tensor([1, 2]).dtype, torch.tensor([1., 2.]).dtype
/// (torch.int64, torch.float32)
/// >>> torch.float32.is_floating_point, torch.int64.is_floating_point, torch.float64.itemsize
/// (True, False, 8)
/// >>> torch.tensor([1, 2]).to(torch.float64)
/// tensor([1., 2.], dtype=torch.float64)
#[pyclass(name = "dtype", module = "leafgrad", frozen, eq, hash)]
#[derive(PartialEq, Eq, Hash, Clone, Copy)]
pub struct PyDType {
    pub d: DType,
}

#[pymethods]
impl PyDType {
    fn __repr__(&self) -> String {
        format!("torch.{}", self.d.name())
    }
    #[getter]
    fn is_floating_point(&self) -> bool {
        self.d.is_floating()
    }
    #[getter]
    fn is_complex(&self) -> bool {
        self.d.is_complex()
    }
    #[getter]
    fn is_signed(&self) -> bool {
        !matches!(self.d, DType::Bool | DType::UInt8) && !self.d.is_shell_unsigned()
    }
    #[getter]
    fn itemsize(&self) -> usize {
        self.d.size()
    }
    #[getter]
    fn _name(&self) -> &'static str {
        self.d.name()
    }
    /// c10's ScalarType name (`Float`, `UInt16`), as PyTorch's messages spell it.
    #[getter]
    fn _scalar_name(&self) -> &'static str {
        self.d.scalar_type_name()
    }
    /// The C++ element type's name as typeid prints it (`float`, `unsigned short`).
    #[getter]
    fn _cpp_name(&self) -> &'static str {
        self.d.cpp_name()
    }
    /// The legacy tensor type name of messages (`torch.FloatTensor`, `CPUBoolType`).
    #[getter]
    fn _legacy_name(&self) -> &'static str {
        self.d.legacy_type_name()
    }
    #[allow(clippy::wrong_self_convention)]
    fn to_real(&self, py: Python<'_>) -> Py<PyDType> {
        dtype_obj(py, self.d.to_real())
    }
    #[allow(clippy::wrong_self_convention)]
    fn to_complex(&self, py: Python<'_>) -> Py<PyDType> {
        dtype_obj(py, self.d.to_complex())
    }
    /// Pickled by name (the module attribute `float32`, ...), as PyTorch's dtypes.
    fn __reduce__(&self) -> String {
        self.d.name().to_string()
    }
}

static DTYPES: PyOnceLock<Vec<Py<PyDType>>> = PyOnceLock::new();

pub fn dtype_obj(py: Python<'_>, d: DType) -> Py<PyDType> {
    let all = DTYPES.get_or_init(py, || {
        DType::ALL
            .iter()
            .map(|&d| Py::new(py, PyDType { d }).expect("allocating a dtype object"))
            .collect()
    });
    let i = DType::ALL
        .iter()
        .position(|&x| x == d)
        .expect("every dtype is listed");
    all[i].clone_ref(py)
}

pub fn extract_dtype(obj: &Bound<'_, PyAny>) -> PyResult<DType> {
    if let Ok(d) = obj.cast::<PyDType>() {
        return Ok(d.get().d);
    }
    Err(PyTypeError::new_err(format!(
        "expected a dtype, but got {}",
        obj.get_type().name()?
    )))
}

/// A Python number as a wrapped 0-d tensor (the lowest-priority operand in promotion).
pub fn scalar_tensor(obj: &Bound<'_, PyAny>) -> Option<Tensor> {
    if obj.is_instance_of::<PyBool>() {
        return Some(Tensor::wrapped_scalar(obj.is_truthy().ok()?));
    }
    if obj.is_instance_of::<PyInt>() {
        return match obj.extract::<i64>() {
            Ok(v) => Some(Tensor::wrapped_scalar(v)),
            Err(_) => obj.extract::<f64>().ok().map(Tensor::wrapped_scalar),
        };
    }
    if obj.is_instance_of::<PyFloat>() {
        return obj.extract::<f64>().ok().map(Tensor::wrapped_scalar);
    }
    if let Ok(c) = obj.cast::<PyComplex>() {
        return Some(Tensor::wrapped_scalar(Complex64::new(c.real(), c.imag())));
    }
    // numpy integer scalars are ints (np.int64(3) promotes like 3, not 3.0)
    let numpy_scalar = obj
        .get_type()
        .module()
        .map(|m| m == "numpy")
        .unwrap_or(false);
    if numpy_scalar {
        let ty = obj
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        if ty == "bool" || ty == "bool_" {
            return Some(Tensor::wrapped_scalar(obj.is_truthy().ok()?));
        }
        if let Ok(i) = obj
            .call_method0("__index__")
            .and_then(|i| i.extract::<i64>())
        {
            return Some(Tensor::wrapped_scalar(i));
        }
    }
    // numpy scalars and other number-likes
    if obj.hasattr("__float__").unwrap_or(false) && !obj.hasattr("__len__").unwrap_or(true) {
        if let Ok(v) = obj
            .call_method0("__float__")
            .and_then(|f| f.extract::<f64>())
        {
            return Some(Tensor::wrapped_scalar(v));
        }
    }
    None
}

/// A tensor or a Python number; None for anything else.
pub fn operand(obj: &Bound<'_, PyAny>) -> Option<Tensor> {
    if let Ok(t) = obj.cast::<PyTensor>() {
        return Some(t.get().t.clone());
    }
    // A numpy array operand is read as a tensor (a copy), so `t == array` and `t + array` stay
    // tensor operations, as in PyTorch.
    if is_ndarray(obj) {
        // A C-contiguous copy, shared with a fresh tensor (the array itself stays untouched).
        let copy = obj.call_method1("copy", ("C",)).ok()?;
        let t = super::factory::from_numpy(obj.py(), &copy).ok()?;
        return t.cast::<PyTensor>().ok().map(|t| t.get().t.clone());
    }
    scalar_tensor(obj)
}

/// A numpy array (not a numpy scalar).
pub fn is_ndarray(obj: &Bound<'_, PyAny>) -> bool {
    // cheap type checks first: this runs for every operator's operand
    if obj.is_instance_of::<PyTensor>()
        || obj.is_instance_of::<pyo3::types::PyFloat>()
        || obj.is_instance_of::<pyo3::types::PyInt>()
    {
        return false;
    }
    obj.get_type()
        .name()
        .map(|n| n == "ndarray")
        .unwrap_or(false)
        && obj.hasattr("__array_interface__").unwrap_or(false)
}

pub fn operand_or_type_error(obj: &Bound<'_, PyAny>, fname: &str, arg: &str) -> PyResult<Tensor> {
    operand(obj).ok_or_else(|| not_a_tensor(obj, fname, arg))
}

/// A `Tensor` argument of a method (numbers refused), or PyTorch's argument-parser TypeError.
pub fn tensor_or_type_error(obj: &Bound<'_, PyAny>, fname: &str, arg: &str) -> PyResult<Tensor> {
    match obj.cast::<PyTensor>() {
        Ok(t) => Ok(t.get().t.clone()),
        Err(_) => Err(not_a_tensor(obj, fname, arg)),
    }
}

fn not_a_tensor(obj: &Bound<'_, PyAny>, fname: &str, arg: &str) -> PyErr {
    PyTypeError::new_err(format!(
        "{}(): argument '{}' (position 1) must be Tensor, not {}",
        fname,
        arg,
        obj.get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default()
    ))
}

/// A number as complex (for fill values).
pub fn number(obj: &Bound<'_, PyAny>) -> PyResult<Complex64> {
    match scalar_tensor(obj) {
        Some(t) => t.item().py(),
        None => match obj.cast::<PyTensor>() {
            Ok(t) => t.get().t.item().py(),
            Err(_) => Err(PyTypeError::new_err(format!(
                "expected a number, but got {}",
                obj.get_type().name()?
            ))),
        },
    }
}

fn int_of(obj: &Bound<'_, PyAny>, fname: &str) -> PyResult<i64> {
    if obj.is_instance_of::<PyBool>() || obj.is_instance_of::<PyFloat>() {
        return Err(PyTypeError::new_err(format!(
            "{}(): argument 'size' must be tuple of ints, but found element of type {} at pos 0",
            fname,
            obj.get_type().name()?
        )));
    }
    if let Ok(t) = obj.cast::<PyTensor>() {
        let t = &t.get().t;
        if t.numel() == 1 && !t.dtype().is_differentiable() {
            return Ok(t.item().py()?.re as i64);
        }
    }
    obj.extract::<i64>().map_err(|_| {
        PyTypeError::new_err(format!(
            "{}(): argument 'size' must be tuple of ints, but found element of type {} at pos 0",
            fname,
            obj.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })
}

/// Sizes given as `f(2, 3)` or `f((2, 3))` / `f([2, 3])` / `f(torch.Size)`.
pub fn shape_args(args: &Bound<'_, PyTuple>, fname: &str) -> PyResult<Vec<i64>> {
    if args.len() == 1 {
        let a = args.get_item(0)?;
        if a.is_instance_of::<PyTuple>() || a.is_instance_of::<PyList>() {
            return a.try_iter()?.map(|x| int_of(&x?, fname)).collect();
        }
    }
    args.iter().map(|x| int_of(&x, fname)).collect()
}

/// A dim argument: an int, or a tuple/list of ints, or None.
pub fn dims_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Vec<i64>>> {
    let Some(o) = obj else { return Ok(None) };
    if o.is_none() {
        return Ok(None);
    }
    if o.is_instance_of::<PyTuple>() || o.is_instance_of::<PyList>() {
        return Ok(Some(
            o.try_iter()?
                .map(|x| x?.extract::<i64>())
                .collect::<PyResult<_>>()?,
        ));
    }
    if o.is_instance_of::<PyBool>() || !o.is_instance_of::<PyInt>() {
        return Err(PyTypeError::new_err(format!(
            "argument 'dim' must be int or tuple of ints, not {}",
            o.get_type().name()?
        )));
    }
    Ok(Some(vec![o.extract::<i64>()?]))
}

pub(super) fn tuple_of<'py>(py: Python<'py>, ts: Vec<Tensor>) -> PyResult<Bound<'py, PyTuple>> {
    let items = ts
        .into_iter()
        .map(|t| super::tensor::wrap(py, t))
        .collect::<PyResult<Vec<_>>>()?;
    PyTuple::new(py, items)
}

/// An int argument of PyTorch's parser: a bool is refused.
pub(super) fn int_arg(v: &Bound<'_, PyAny>, fname: &str, arg: &str, pos: usize) -> PyResult<i64> {
    if v.is_instance_of::<pyo3::types::PyBool>() || !v.is_instance_of::<pyo3::types::PyInt>() {
        return Err(PyTypeError::new_err(format!(
            "{fname}(): argument '{arg}' (position {pos}) must be int, not {}",
            v.get_type().name()?
        )));
    }
    v.extract()
}

/// `torch.get_default_dtype()`.
#[pyfunction]
fn _get_default_dtype(py: Python<'_>) -> Py<PyDType> {
    dtype_obj(py, crate::dtype::default_float())
}

/// `torch.set_default_dtype(d)`: a floating dtype, else PyTorch's TypeError.
#[pyfunction]
fn _set_default_dtype(d: &Bound<'_, PyAny>) -> PyResult<()> {
    let Ok(d) = d.cast::<PyDType>() else {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "invalid dtype object: only floating-point types are supported as the default type",
        ));
    };
    let d = d.get().d;
    if !d.is_floating() {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "only floating-point types are supported as the default type",
        ));
    }
    crate::dtype::set_default_float(d);
    Ok(())
}

/// `torch.promote_types` (the Python wrapper documents it).
#[pyfunction]
fn _promote_types(
    py: Python<'_>,
    a: PyRef<'_, PyDType>,
    b: PyRef<'_, PyDType>,
) -> PyResult<Py<PyDType>> {
    let d = crate::dtype::promote_types(a.d, b.d).py()?;
    Ok(dtype_obj(py, d))
}

/// `torch.result_type` over (dtype, priority) pairs: priority 0 a Python number, 1 a 0-d
/// tensor, 2 a tensor with dims (the Python wrapper documents it).
#[pyfunction]
fn _result_type(py: Python<'_>, kinds: Vec<(PyRef<'_, PyDType>, u8)>) -> PyResult<Py<PyDType>> {
    use crate::dtype::Priority;
    let ops: Vec<(DType, Priority)> = kinds
        .iter()
        .map(|(d, p)| {
            let p = match p {
                0 => Priority::Scalar,
                1 => Priority::ZeroDim,
                _ => Priority::Dim,
            };
            (d.d, p)
        })
        .collect();
    let d = crate::dtype::result_type(&ops).py()?;
    Ok(dtype_obj(py, d))
}

/// A Python number as the wrapped 0-d tensor PyTorch's argument parser makes of it for a
/// Tensor parameter (`x.floor_divide_(2)`); a tensor as it is.
#[pyfunction]
fn _scalar_operand<'py>(value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let t = operand(value)
        .ok_or_else(|| PyTypeError::new_err("_scalar_operand(): expected a number or a Tensor"))?;
    super::tensor::wrap(value.py(), t)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyDType>()?;
    m.add_function(wrap_pyfunction!(_scalar_operand, m)?)?;
    m.add_function(wrap_pyfunction!(super::ops::warn_deprecated_overload, m)?)?;
    m.add_function(wrap_pyfunction!(_result_type, m)?)?;
    m.add_function(wrap_pyfunction!(_promote_types, m)?)?;
    m.add_function(wrap_pyfunction!(_get_default_dtype, m)?)?;
    m.add_function(wrap_pyfunction!(_set_default_dtype, m)?)?;
    let py = m.py();
    for d in DType::ALL {
        m.add(d.name(), dtype_obj(py, d))?;
    }
    Ok(())
}
