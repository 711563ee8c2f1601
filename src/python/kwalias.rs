//! The keyword spellings PyTorch's argument parser takes besides a parameter's own name
//! (NumPy's `axis=` for `dim=`, a `*size` function's sizes as `size=(...)`), as a callable that
//! renames them and calls the function it wraps. It is a C-level callable, not a Python
//! function, so it adds no Python frame: a warning the wrapped function raises still points at
//! the caller's line. `leafgrad/_kwarg_aliases.py` decides what is wrapped.
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};

#[cfg(not(feature = "abi3"))]
extern "C" {
    // CPython's bound-method constructor (classobject.h; pyo3-ffi does not declare it)
    fn PyMethod_New(
        func: *mut pyo3::ffi::PyObject,
        self_: *mut pyo3::ffi::PyObject,
    ) -> *mut pyo3::ffi::PyObject;
}

/// `func` taking `renames` (alias, own name) and, with `vararg`, that keyword's value as one
/// more positional argument. As a class attribute it binds like a function (a method).
#[pyclass(module = "leafgrad._core", name = "_KwAliased", dict, frozen)]
pub struct KwAliased {
    func: Py<PyAny>,
    name: Py<PyString>,
    renames: Vec<(Py<PyString>, Py<PyString>)>,
    vararg: Option<Py<PyString>>,
}

#[pymethods]
impl KwAliased {
    #[new]
    #[pyo3(signature = (func, name, renames, vararg = None))]
    fn new(
        py: Python<'_>,
        func: Py<PyAny>,
        name: &str,
        renames: Vec<(String, String)>,
        vararg: Option<&str>,
    ) -> Self {
        KwAliased {
            func,
            name: PyString::new(py, name).unbind(),
            renames: renames
                .iter()
                .map(|(a, o)| (PyString::new(py, a).unbind(), PyString::new(py, o).unbind()))
                .collect(),
            vararg: vararg.map(|v| PyString::new(py, v).unbind()),
        }
    }

    #[pyo3(signature = (*args, **kwargs))]
    fn __call__<'py>(
        &self,
        py: Python<'py>,
        args: &Bound<'py, PyTuple>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let func = self.func.bind(py);
        let Some(kwargs) = kwargs.filter(|k| !k.is_empty()) else {
            return func.call1(args.clone());
        };
        let kwargs = kwargs.copy()?;
        for (alias, own) in &self.renames {
            let (alias, own) = (alias.bind(py), own.bind(py));
            if let Some(v) = kwargs.get_item(alias)? {
                if kwargs.contains(own)? {
                    // PyTorch's parser reads the alias only when the name is absent
                    return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                        "{}() got an unexpected keyword argument '{}'",
                        self.name.bind(py),
                        alias
                    )));
                }
                kwargs.del_item(alias)?;
                kwargs.set_item(own, v)?;
            }
        }
        if let Some(key) = &self.vararg {
            if let Some(v) = kwargs.get_item(key.bind(py))? {
                kwargs.del_item(key.bind(py))?;
                let mut all: Vec<Bound<'py, PyAny>> = args.iter().collect();
                all.push(v);
                return func.call(PyTuple::new(py, all)?, Some(&kwargs));
            }
        }
        func.call(args.clone(), Some(&kwargs))
    }

    /// Bound to an instance: a method object (Python's own), which prepends it to the args.
    fn __get__<'py>(
        slf: Bound<'py, Self>,
        obj: Option<Bound<'py, PyAny>>,
        _owner: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        match obj.filter(|o| !o.is_none()) {
            None => Ok(slf.into_any()),
            // the limited API has no PyMethod_New: the same object through `types.MethodType`
            #[cfg(feature = "abi3")]
            Some(o) => {
                static METHOD_TYPE: pyo3::sync::PyOnceLock<Py<pyo3::types::PyType>> =
                    pyo3::sync::PyOnceLock::new();
                METHOD_TYPE
                    .import(py, "types", "MethodType")?
                    .call1((slf, o))
            }
            #[cfg(not(feature = "abi3"))]
            Some(o) => unsafe {
                // SAFETY: PyMethod_New takes borrowed references to two live objects and
                // returns a new reference (or NULL with an exception set)
                Bound::from_owned_ptr_or_err(py, PyMethod_New(slf.as_ptr(), o.as_ptr()))
            },
        }
    }
}
