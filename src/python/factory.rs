//! Building tensors: from nested Python sequences, from numpy arrays (sharing memory), and the
//! basic factories the Python layer wraps with PyTorch's keyword arguments.
use super::convert::{extract_dtype, number, shape_args};
use super::tensor::{set_requires_grad, wrap, PyTensor, FACTORY_INT_RG};
use super::IntoPyResult;
use crate::dtype::DType;
use crate::ops;
use crate::storage::Storage;
use crate::tensor::{Tensor, TensorData};
use num_complex::Complex64;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyComplex, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use std::sync::Arc;

#[derive(Clone, Copy, PartialEq, PartialOrd)]
enum Kind {
    Bool,
    Int,
    Float,
    Complex,
}

struct Parsed {
    shape: Vec<usize>,
    values: Vec<Complex64>,
    /// Each value as an exact integer where it is one (Python ints, integer tensors): integer
    /// results take these, since a float holds integers exactly only up to 2**53 (i128 holds
    /// every uint64 and int64; a Python int beyond it is None here).
    exact: Vec<Option<i128>>,
    /// A Python int too large for an i128 was seen.
    huge: bool,
    kind: Option<Kind>,
    /// dtype of tensors found inside the data, which wins over Python-number kinds.
    tensor_dtype: Option<DType>,
}

fn is_seq(o: &Bound<'_, PyAny>) -> bool {
    o.is_instance_of::<PyList>() || o.is_instance_of::<PyTuple>()
}

fn walk(o: &Bound<'_, PyAny>, depth: usize, p: &mut Parsed) -> PyResult<()> {
    if is_seq(o)
        || (o
            .cast::<PyTensor>()
            .map(|t| t.get().t.ndim() > 0)
            .unwrap_or(false))
    {
        let items: Vec<Bound<'_, PyAny>> = if let Ok(t) = o.cast::<PyTensor>() {
            let t = t.get().t.clone();
            let n = t.shape()[0];
            (0..n)
                .map(|i| wrap(o.py(), crate::ops::select(&t.detached(), 0, i as i64).py()?))
                .collect::<PyResult<_>>()?
        } else {
            o.try_iter()?.collect::<PyResult<_>>()?
        };
        if depth == p.shape.len() {
            if !p.values.is_empty() {
                return Err(PyValueError::new_err(format!(
                    "expected sequence of length {} at dim {} (got {})",
                    p.shape.get(depth).copied().unwrap_or(0),
                    depth,
                    items.len()
                )));
            }
            p.shape.push(items.len());
        } else if p.shape[depth] != items.len() {
            return Err(PyValueError::new_err(format!(
                "expected sequence of length {} at dim {} (got {})",
                p.shape[depth],
                depth,
                items.len()
            )));
        }
        for it in items {
            walk(&it, depth + 1, p)?;
        }
        return Ok(());
    }
    if depth < p.shape.len() {
        return Err(PyTypeError::new_err(format!(
            "expected sequence of length {} at dim {} (got a scalar)",
            p.shape[depth], depth
        )));
    }
    let mut exact = None;
    let (v, k) = if o.is_instance_of::<PyBool>() {
        exact = Some(o.is_truthy()? as i128);
        (Complex64::new(o.is_truthy()? as u8 as f64, 0.0), Kind::Bool)
    } else if o.is_instance_of::<PyInt>() {
        match o.extract::<i128>() {
            Ok(i) => {
                exact = Some(i);
                (Complex64::new(i as f64, 0.0), Kind::Int)
            }
            Err(_) => {
                p.huge = true;
                (Complex64::new(o.extract::<f64>()?, 0.0), Kind::Int)
            }
        }
    } else if o.is_instance_of::<PyFloat>() {
        (Complex64::new(o.extract::<f64>()?, 0.0), Kind::Float)
    } else if let Ok(c) = o.cast::<PyComplex>() {
        (Complex64::new(c.real(), c.imag()), Kind::Complex)
    } else if let Ok(t) = o.cast::<PyTensor>() {
        let t = &t.get().t;
        let d = t.dtype();
        p.tensor_dtype = Some(match p.tensor_dtype {
            None => d,
            Some(o) => crate::dtype::promote(o, d),
        });
        let v = t.item().py()?;
        if !d.is_differentiable() {
            exact = Some(match d {
                DType::UInt64 => t.try_to_vec::<u64>().py()?[0] as i128,
                _ => t.try_to_vec::<i64>().py()?[0] as i128,
            });
        }
        (v, Kind::Bool)
    } else if o.hasattr("__float__")? {
        (
            Complex64::new(o.call_method0("__float__")?.extract::<f64>()?, 0.0),
            Kind::Float,
        )
    } else if o.is_instance_of::<PyString>() || o.is_instance_of::<PyBytes>() {
        // PyTorch sizes the data by the first elements, where a string is a sequence
        // without end; a string met later fails the dtype inference
        let name = o.get_type().name()?;
        return Err(if p.values.is_empty() {
            PyValueError::new_err(format!("too many dimensions '{name}'"))
        } else {
            PyTypeError::new_err(format!("new(): invalid data type '{name}'"))
        });
    } else {
        return Err(PyRuntimeError::new_err(format!(
            "Could not infer dtype of {}",
            o.get_type().name()?
        )));
    };
    p.kind = Some(match p.kind {
        Some(old) if old > k => old,
        _ => k,
    });
    p.values.push(v);
    p.exact.push(exact);
    Ok(())
}

/// PyTorch's checked conversion of Python ints into an integer dtype: a signed type takes its
/// own range, an unsigned one -max..=max (negatives wrap); int64 refuses what it cannot unpack.
fn check_int_range(p: &Parsed, dt: DType) -> PyResult<()> {
    let (lo, hi): (i128, i128) = match dt {
        DType::UInt8 => (-(u8::MAX as i128), u8::MAX as i128),
        DType::UInt16 => (-(u16::MAX as i128), u16::MAX as i128),
        DType::UInt32 => (-(u32::MAX as i128), u32::MAX as i128),
        DType::UInt64 => (-(u64::MAX as i128), u64::MAX as i128),
        DType::Int8 => (i8::MIN as i128, i8::MAX as i128),
        DType::Int16 => (i16::MIN as i128, i16::MAX as i128),
        DType::Int32 => (i32::MIN as i128, i32::MAX as i128),
        _ => (i64::MIN as i128, i64::MAX as i128),
    };
    let unpack = |dt: DType| match dt {
        DType::UInt64 => pyo3::exceptions::PyOverflowError::new_err("int too big to convert"),
        _ => PyValueError::new_err("Overflow when unpacking long long"),
    };
    if p.huge {
        return Err(unpack(dt));
    }
    let beyond_i64 = |e: i128| e < i64::MIN as i128 || e > i64::MAX as i128;
    for e in p.exact.iter().flatten() {
        if dt != DType::UInt64 && beyond_i64(*e) || *e > u64::MAX as i128 {
            return Err(unpack(dt));
        }
        if *e < lo || *e > hi {
            return Err(pyo3::exceptions::PyRuntimeError::new_err(format!(
                "value cannot be converted to type {} without overflow",
                dt.name()
            )));
        }
    }
    Ok(())
}

/// `torch.tensor(data)` values: nested lists/tuples of numbers (or 0-d tensors).
pub fn from_data(o: &Bound<'_, PyAny>, dtype: Option<DType>) -> PyResult<Tensor> {
    let mut p = Parsed {
        shape: vec![],
        values: vec![],
        exact: vec![],
        huge: false,
        kind: None,
        tensor_dtype: None,
    };
    if o.is_instance_of::<PyString>() || o.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(format!(
            "new(): invalid data type '{}'",
            o.get_type().name()?
        )));
    }
    walk(o, 0, &mut p)?;
    let inferred = match (p.kind, p.tensor_dtype) {
        (_, Some(d)) if p.kind.is_none_or(|k| k == Kind::Bool) => d,
        (Some(Kind::Bool), _) => DType::Bool,
        (Some(Kind::Int), _) => DType::Int64,
        (Some(Kind::Complex), _) => crate::dtype::default_complex(),
        _ => crate::dtype::default_float(),
    };
    let dt = dtype.unwrap_or(inferred);
    let integer = dt.category() == crate::dtype::Category::Int;
    if integer {
        check_int_range(&p, dt)?;
    }
    let t = Tensor::zeros(&p.shape, dt).py()?;
    if integer {
        let d = t.data();
        crate::with_dtype!(dt, T, {
            use crate::dtype::Element;
            // SAFETY: T matches dt; the buffer holds exactly values.len() elements.
            let s = unsafe { d.storage.slice_mut::<T>() };
            for ((dst, v), e) in s.iter_mut().zip(p.values.iter()).zip(p.exact.iter()) {
                // exact integers wrap into the type (in range by the check above)
                *dst = match e.and_then(|e| T::from_int(e as i64)) {
                    Some(x) => x,
                    None => T::from_c64(*v),
                };
            }
        });
        drop(d);
        return Ok(t);
    }
    {
        let d = t.data();
        crate::with_dtype!(dt, T, {
            use crate::dtype::Element;
            // SAFETY: T matches dt; the buffer holds exactly values.len() elements.
            let s = unsafe { d.storage.slice_mut::<T>() };
            for (dst, v) in s.iter_mut().zip(p.values.iter()) {
                *dst = T::from_c64(*v);
            }
        });
    }
    Ok(t)
}

#[pyfunction]
#[pyo3(signature = (data, dtype = None))]
fn _tensor<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    dtype: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let dt = match dtype {
        Some(d) if !d.is_none() => Some(extract_dtype(d)?),
        _ => None,
    };
    wrap(py, from_data(data, dt)?)
}

fn numpy_dtype(typestr: &str) -> PyResult<DType> {
    Ok(match &typestr[1..] {
        "b1" => DType::Bool,
        "u1" => DType::UInt8,
        "i1" => DType::Int8,
        "i2" => DType::Int16,
        "u2" => DType::UInt16,
        "u4" => DType::UInt32,
        "u8" => DType::UInt64,
        "i4" => DType::Int32,
        "i8" => DType::Int64,
        "f2" => DType::Float16,
        "f4" => DType::Float32,
        "f8" => DType::Float64,
        "c8" => DType::Complex64,
        "c16" => DType::Complex128,
        _ => {
            return Err(PyTypeError::new_err(format!(
                "can't convert np.ndarray of type {}. The only supported types are: float64, float32, float16, complex64, complex128, int64, int32, int16, int8, uint64, uint32, uint16, uint8, and bool.",
                typestr
            )))
        }
    })
}

/// Share a numpy array's memory (kept alive by the tensor).
#[pyfunction]
pub fn from_numpy<'py>(py: Python<'py>, array: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let np = py.import("numpy")?;
    if !array.is_instance(&np.getattr("ndarray")?)? {
        return Err(PyTypeError::new_err(format!(
            "expected np.ndarray (got {})",
            array.get_type().name()?
        )));
    }
    // PyTorch warns once per program about sharing a read-only array.
    static WARNED_READ_ONLY: std::sync::atomic::AtomicBool =
        std::sync::atomic::AtomicBool::new(false);
    let writeable: bool = array.getattr("flags")?.getattr("writeable")?.extract()?;
    if !writeable && !WARNED_READ_ONLY.swap(true, std::sync::atomic::Ordering::Relaxed) {
        super::tensor::warn(
            py,
            "UserWarning",
            "The given NumPy array is not writable, and PyTorch does not support non-writable tensors. This means writing to this tensor will result in undefined behavior. You may want to copy the array to protect its data or make it writable before converting it to a tensor. This type of warning will be suppressed for the rest of this program. (Triggered internally at /__w/pytorch/pytorch/torch/csrc/utils/tensor_numpy.cpp:208.)",
            1,
        )?;
    }
    let ai = array
        .getattr("__array_interface__")?
        .cast_into::<PyDict>()?;
    let typestr: String = ai
        .get_item("typestr")?
        .ok_or_else(|| PyTypeError::new_err("no typestr"))?
        .extract()?;
    if typestr.starts_with('>') {
        return Err(PyValueError::new_err("given numpy array has byte order different from the native byte order. Conversion between byte orders is currently not supported."));
    }
    let dt = numpy_dtype(&typestr)?;
    let (ptr, readonly): (usize, bool) = ai
        .get_item("data")?
        .ok_or_else(|| PyTypeError::new_err("no data"))?
        .extract()?;
    let _ = readonly;
    let shape: Vec<usize> = ai
        .get_item("shape")?
        .ok_or_else(|| PyTypeError::new_err("no shape"))?
        .extract()?;
    let es = dt.size() as isize;
    let strides: Vec<isize> = match ai.get_item("strides")? {
        Some(s) if !s.is_none() => {
            let b: Vec<isize> = s.extract()?;
            if b.iter().any(|&x| x < 0) {
                return Err(PyValueError::new_err("At least one stride in the given numpy array is negative, and tensors with negative strides are not currently supported. (You can probably work around this by making a copy of your array  with array.copy().) "));
            }
            if b.iter().any(|&x| x % es != 0) {
                return Err(PyValueError::new_err("given numpy array strides not a multiple of the element byte size. Copy the numpy array to reallocate the memory."));
            }
            b.iter().map(|&x| x / es).collect()
        }
        _ => crate::shape::contiguous_strides(&shape).to_vec(),
    };
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
    let owner: Py<PyAny> = array.clone().unbind();
    // SAFETY: the array owns `extent` elements at `ptr` and is kept alive by the storage.
    let storage = unsafe { Storage::foreign(ptr as *mut u8, extent * dt.size(), Box::new(owner)) };
    let t = Tensor::from_data(TensorData {
        storage: Arc::new(storage),
        shape: shape.into(),
        strides: strides.into(),
        offset: 0,
        dtype: dt,
        version: None,
        base: None,
        wrapped_number: false,
    });
    wrap(py, t)
}

/// numpy's `__array_interface__` for a tensor's memory (numpy keeps the tensor alive).
#[pyfunction]
fn _array_interface<'py>(py: Python<'py>, t: PyRef<'py, PyTensor>) -> PyResult<Bound<'py, PyDict>> {
    let d = t.t.data();
    if !d.storage.is_host() {
        // Only host memory can be handed to numpy (callers copy CUDA tensors first).
        return Err(PyTypeError::new_err(format!(
            "can't convert {} device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.",
            if d.storage.device().is_meta() { "meta" } else { "cuda" }
        )));
    }
    let typestr = match d.dtype {
        DType::Bool => "|b1",
        DType::UInt8 => "|u1",
        DType::Int8 => "|i1",
        DType::Int16 => "<i2",
        DType::UInt16 => "<u2",
        DType::UInt32 => "<u4",
        DType::UInt64 => "<u8",
        DType::Int32 => "<i4",
        DType::Int64 => "<i8",
        DType::Float16 => "<f2",
        DType::BFloat16 => {
            return Err(PyTypeError::new_err("Got unsupported ScalarType BFloat16"));
        }
        DType::Float32 => "<f4",
        DType::Float64 => "<f8",
        DType::Complex64 => "<c8",
        DType::Complex128 => "<c16",
    };
    let es = d.dtype.size() as isize;
    let out = PyDict::new(py);
    out.set_item("version", 3)?;
    out.set_item("typestr", typestr)?;
    out.set_item("shape", PyTuple::new(py, d.shape.iter())?)?;
    out.set_item(
        "strides",
        PyTuple::new(py, d.strides.iter().map(|s| s * es))?,
    )?;
    let ptr = d.storage.as_ptr() as usize + d.offset * d.dtype.size();
    out.set_item("data", (ptr, false))?;
    Ok(out)
}

fn sizes(shape: &[i64]) -> PyResult<Vec<usize>> {
    crate::shape::sizes_of(shape).py()
}

#[pyfunction]
#[pyo3(signature = (shape, value, dtype))]
fn _full<'py>(
    py: Python<'py>,
    shape: &Bound<'py, PyTuple>,
    value: &Bound<'py, PyAny>,
    dtype: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let s = sizes(&shape_args(shape, "full")?)?;
    let v = number(value)?;
    let dt = extract_dtype(dtype)?;
    crate::dtype::check_fill_value(v, dt).py()?;
    let t = Tensor::full(&s, v, dt).py()?;
    if dt == DType::Int64 && value.is_instance_of::<PyInt>() && !value.is_instance_of::<PyBool>() {
        // exactly (a float holds integers exactly only up to 2**53)
        let i = value.extract::<i64>()?;
        let d = t.data();
        // SAFETY: an int64 tensor just made, contiguous.
        unsafe { d.storage.slice_mut::<i64>() }.fill(i);
    }
    wrap(py, t)
}

#[pyfunction]
fn _arange<'py>(
    py: Python<'py>,
    start: f64,
    end: f64,
    step: f64,
    dtype: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    wrap(
        py,
        ops::arange(start, end, step, extract_dtype(dtype)?).py()?,
    )
}

#[pyfunction]
fn _linspace<'py>(
    py: Python<'py>,
    start: f64,
    end: f64,
    steps: i64,
    dtype: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    wrap(
        py,
        ops::linspace(start, end, steps, extract_dtype(dtype)?).py()?,
    )
}

#[pyfunction]
fn _eye<'py>(
    py: Python<'py>,
    n: i64,
    m: i64,
    dtype: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let s = sizes(&[n, m])?;
    wrap(py, ops::eye(s[0], s[1], extract_dtype(dtype)?).py()?)
}

/// Factory `requires_grad=` (its own error text).
#[pyfunction]
fn _factory_requires_grad(t: PyRef<'_, PyTensor>, on: bool) -> PyResult<()> {
    set_requires_grad(&t.t, on, FACTORY_INT_RG)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_factory_requires_grad, m)?)?;
    m.add_function(wrap_pyfunction!(_tensor, m)?)?;
    m.add_function(wrap_pyfunction!(from_numpy, m)?)?;
    m.add_function(wrap_pyfunction!(_array_interface, m)?)?;
    m.add_function(wrap_pyfunction!(_full, m)?)?;
    m.add_function(wrap_pyfunction!(_arange, m)?)?;
    m.add_function(wrap_pyfunction!(_linspace, m)?)?;
    m.add_function(wrap_pyfunction!(_eye, m)?)?;
    Ok(())
}
