//! `t[...]` and `t[...] = v`: the Python index and value turned into the core's
//! `ops::Index` items and `ops::PutValue` (the reading and writing is `ops::index` and
//! `ops::index_put`, src/ops/indexing.rs).
use super::convert::operand;
use super::tensor::PyTensor;
use super::IntoPyResult;
use crate::dtype::DType;
use crate::ops;
use crate::tensor::Tensor;
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::{PyEllipsis, PyList, PySlice, PyTuple};

type Idx = ops::Index;

fn opt_int(o: Bound<'_, PyAny>) -> PyResult<Option<i64>> {
    if o.is_none() {
        Ok(None)
    } else {
        Ok(Some(o.extract::<i64>()?))
    }
}

fn parse_one(o: &Bound<'_, PyAny>) -> PyResult<Idx> {
    if o.is_none() {
        return Ok(Idx::NewAxis);
    }
    if o.is_instance_of::<PyEllipsis>() {
        return Ok(Idx::Ellipsis);
    }
    if let Ok(s) = o.cast::<PySlice>() {
        let step = opt_int(s.getattr("step")?)?.unwrap_or(1);
        return Ok(Idx::Slice(
            opt_int(s.getattr("start")?)?,
            opt_int(s.getattr("stop")?)?,
            step,
        ));
    }
    if let Ok(t) = o.cast::<PyTensor>() {
        let t = &t.get().t;
        if t.dtype() == DType::UInt8 {
            // a uint8 index is a mask, as in PyTorch (its deprecated byte masks)
            let mask = crate::ops::ne(t, &Tensor::wrapped_scalar(0i64)).py()?;
            return Ok(Idx::Tensor(mask));
        }
        if t.ndim() == 0 && t.dtype().category() == crate::dtype::Category::Int {
            return Ok(Idx::Int(t.item().py()?.re as i64));
        }
        if t.dtype().is_differentiable() {
            return Err(PyIndexError::new_err(
                "tensors used as indices must be long, int, byte or bool tensors",
            ));
        }
        return Ok(Idx::Tensor(t.clone()));
    }
    if o.is_instance_of::<pyo3::types::PyBool>() {
        // as PyTorch: a Python bool indexes as a 0-d bool tensor (True adds a dim of size 1,
        // False one of size 0)
        let b: bool = o.extract()?;
        return Ok(Idx::Tensor(Tensor::from_vec(vec![b], &[]).py()?));
    }
    let is_range = o.is_instance_of::<pyo3::types::PyRange>();
    let is_array = !is_range && o.hasattr("__array_interface__")?;
    if o.is_instance_of::<PyList>() || o.is_instance_of::<PyTuple>() || is_range || is_array {
        // a range (and any sequence PyTorch turns into an index tensor) indexes as its list;
        // an empty one as an empty long index
        let seq = if is_range {
            pyo3::types::PyList::new(o.py(), o.try_iter()?.collect::<PyResult<Vec<_>>>()?)?
                .into_any()
        } else if is_array {
            o.call_method0("tolist")?
        } else {
            o.clone()
        };
        if !is_array && seq.len()? == 0 {
            return Ok(Idx::Tensor(Tensor::from_vec(Vec::<i64>::new(), &[0]).py()?));
        }
        let t = super::factory::from_data(&seq, None)?;
        if t.dtype().is_differentiable() {
            return Err(PyIndexError::new_err(
                "tensors used as indices must be long, int, byte or bool tensors",
            ));
        }
        return Ok(Idx::Tensor(t));
    }
    match o.extract::<i64>() {
        Ok(i) => Ok(Idx::Int(i)),
        Err(_) => Err(PyIndexError::new_err(
            "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got ".to_string()
                + &o.get_type().name()?.to_string()
                + ")",
        )),
    }
}

fn parse_index(index: &Bound<'_, PyAny>) -> PyResult<Vec<Idx>> {
    // A list of ints is one advanced index, not a tuple of indices.
    if let Ok(tup) = index.cast::<PyTuple>() {
        tup.iter().map(|o| parse_one(&o)).collect()
    } else {
        Ok(vec![parse_one(index)?])
    }
}

/// `x[index]`: views for ints/slices/None/`...`, a gather (IndexBackward0) for tensor indices.
pub(super) fn index_tensor(
    t: &Tensor,
    index: &Bound<'_, PyAny>,
) -> PyResult<crate::Result<Tensor>> {
    let items = parse_index(index)?;
    // PyTorch skips full slices inside a tuple but always slices for a lone slice object
    let in_tuple = index.cast::<PyTuple>().is_ok();
    Ok(ops::index(t, items, in_tuple))
}

/// `x[index] = value`: the number checks PyTorch's fill makes, the value as a tensor, then the
/// core's write.
pub(super) fn set_index(
    t: &Tensor,
    index: &Bound<'_, PyAny>,
    value: &Bound<'_, PyAny>,
) -> PyResult<()> {
    if index.is_instance_of::<pyo3::types::PyBool>() && !index.is_truthy()? {
        // `t[False] = v` selects nothing: PyTorch returns before any write or record
        return Ok(());
    }
    let items = parse_index(index)?;
    // the index tensors (a Python bool is not one: PyTorch makes it a view)
    let elems: Vec<Bound<'_, PyAny>> = match index.cast::<PyTuple>() {
        Ok(tup) => tup.iter().collect(),
        Err(_) => vec![index.clone()],
    };
    let advanced: Vec<Tensor> = items
        .iter()
        .zip(&elems)
        .filter_map(|(i, e)| match i {
            Idx::Tensor(t) if !e.is_instance_of::<pyo3::types::PyBool>() => Some(t.clone()),
            _ => None,
        })
        .collect();
    let int_index = items
        .iter()
        .any(|i| matches!(i, Idx::Tensor(ix) if ix.dtype() != DType::Bool));
    let number = value.is_instance_of::<pyo3::types::PyFloat>()
        || value.is_instance_of::<pyo3::types::PyInt>()
        || value.is_instance_of::<pyo3::types::PyComplex>();
    if number {
        // a number the tensor's dtype cannot hold is refused, as PyTorch's fill does
        if value.is_instance_of::<pyo3::types::PyInt>() && value.extract::<i64>().is_err() {
            return Err(pyo3::exceptions::PyValueError::new_err(
                "Overflow when unpacking long long",
            ));
        }
        let v = super::convert::number(value)?;
        if int_index && v.im != 0.0 && !t.dtype().is_complex() {
            return Err(pyo3::exceptions::PyRuntimeError::new_err(
                "index_fill_(): Converting complex Scalar to non-complex type is not supported",
            ));
        }
        crate::dtype::check_fill_value(v, t.dtype()).py()?;
    }
    let v = match operand(value) {
        Some(v) => v,
        None => super::factory::from_data(value, Some(t.dtype()))?,
    };
    let numel = v.numel();
    let v = if number {
        ops::PutValue::Number(v)
    } else if value.cast::<PyTensor>().is_ok() {
        ops::PutValue::Tensor(v)
    } else {
        ops::PutValue::Data(v)
    };
    // (a Python bool alone is a view and a fill in PyTorch: no warning)
    if !ops::index_put(t, items, v).py()? || advanced.is_empty() {
        return Ok(());
    }
    // Written into an expanded window: PyTorch warns from the op its indexing chose. A number
    // with one index tensor is a masked_fill_ (a mask) or an index_fill_; the rest index_put_,
    // whose one mask with a one-element value goes on to masked_fill_.
    let mask = advanced.len() == 1 && advanced[0].dtype() == DType::Bool && advanced[0].ndim() > 0;
    let ops_warned: &[&str] = match (number, advanced.len() == 1, mask) {
        (true, true, true) => &["masked_fill_"],
        (true, true, false) => &["index_fill_"],
        (false, _, true) if numel == 1 => &["index_put_", "masked_fill_"],
        _ => &["index_put_"],
    };
    for op in ops_warned {
        expanded_write_warning(index.py(), op)?;
    }
    Ok(())
}

/// PyTorch's deprecation warning for `op` (`index_put_`, `masked_fill_`, `index_fill_`)
/// writing into a tensor whose elements share memory.
pub(super) fn expanded_write_warning(py: Python<'_>, op: &str) -> PyResult<()> {
    let (example, line) = match op {
        "index_put_" => ("tensor[indices] = tensor", 975),
        "masked_fill_" => ("tensor[mask] = scalar", 2469),
        _ => ("tensor[mask] = scalar", 1929),
    };
    super::tensor::warn(
        py,
        "UserWarning",
        &format!("Use of {op} on expanded tensors is deprecated. Please clone() the tensor before performing this operation. This also applies to advanced indexing e.g. {example} (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorAdvancedIndexing.cpp:{line}.)"),
        1,
    )
}
