//! `torch.Generator` and the random factories' entry points: each parses its arguments and
//! calls `crate::ops::random`, which draws PyTorch's numbers.
use super::convert::extract_dtype;
use super::tensor::{wrap, PyTensor};
use super::IntoPyResult;
use crate::dtype::DType;
use crate::ops::random::{self as rnd, Draw};
use crate::random::philox::{default_cuda_generator, CudaGenerator};
use crate::random::{default_generator, nondeterministic_seed, Generator};
use crate::tensor::Tensor;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// A random number generator: PyTorch's CPU generator (mt19937), so a seed gives PyTorch's
/// numbers, and its state (`get_state`) is PyTorch's; or, with `device="cuda"`, a CUDA
/// generator (a seed and a Philox offset, PyTorch's 16-byte state).
///
/// >>> g = torch.Generator().manual_seed(0)
/// >>> torch.rand(2, generator=g)
/// tensor([0.4963, 0.7682])
#[pyclass(name = "Generator", module = "leafgrad")]
pub struct PyGenerator {
    pub g: Gen,
}

/// A generator of either kind.
#[derive(Clone)]
pub enum Gen {
    Cpu(Generator),
    Cuda(CudaGenerator),
}

impl Gen {
    fn device_type(&self) -> &'static str {
        match self {
            Gen::Cpu(_) => "cpu",
            Gen::Cuda(_) => "cuda",
        }
    }
}

/// PyTorch's refusal of a generator of the other device type.
fn wrong_device(want: &str, got: &Gen) -> PyErr {
    PyRuntimeError::new_err(format!(
        "Expected a '{want}' device type for generator but found '{}'",
        got.device_type()
    ))
}

/// A seed as PyTorch takes it: any int from -2⁶³ to 2⁶⁴ - 1 (negative ones wrap).
fn seed_of(seed: &Bound<'_, PyAny>) -> PyResult<u64> {
    if !seed.is_instance_of::<pyo3::types::PyInt>() {
        return Err(PyRuntimeError::new_err(format!(
            "manual_seed expected a long, but got {}",
            seed.get_type().name()?
        )));
    }
    let v: i128 = seed.extract()?;
    if v < i64::MIN as i128 || v > u64::MAX as i128 {
        return Err(PyValueError::new_err("Overflow when unpacking long long"));
    }
    Ok(v as u64)
}

#[pymethods]
impl PyGenerator {
    #[new]
    #[pyo3(signature = (device = None))]
    fn new(device: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let Some(d) = device.filter(|d| !d.is_none()) else {
            return Ok(PyGenerator {
                g: Gen::Cpu(Generator::new(crate::random::DEFAULT_SEED)),
            });
        };
        let py = d.py();
        let d = py.import("leafgrad")?.getattr("device")?.call1((d,))?;
        let kind: String = d.getattr("type")?.extract()?;
        let index: Option<usize> = d.getattr("index")?.extract()?;
        match kind.as_str() {
            "cpu" => Ok(PyGenerator {
                g: Gen::Cpu(Generator::new(crate::random::DEFAULT_SEED)),
            }),
            "cuda" => {
                let i = index.unwrap_or(0);
                crate::backend::cuda::check(crate::device::Device::Cuda(i)).py()?;
                Ok(PyGenerator {
                    g: Gen::Cuda(CudaGenerator::new(i, crate::random::DEFAULT_SEED)),
                })
            }
            k => Err(PyRuntimeError::new_err(format!(
                "{} device type not an accelerator.",
                k.to_uppercase()
            ))),
        }
    }

    /// Seed the generator; returns it (`torch.Generator().manual_seed(0)` chains).
    fn manual_seed<'py>(
        slf: PyRef<'py, Self>,
        seed: &Bound<'py, PyAny>,
    ) -> PyResult<PyRef<'py, Self>> {
        let s = seed_of(seed)?;
        slf.set_seed(s);
        Ok(slf)
    }

    /// Seed from the operating system's entropy; returns the seed.
    fn seed(&self) -> u64 {
        let s = nondeterministic_seed();
        self.set_seed(s);
        s
    }

    fn initial_seed(&self) -> u64 {
        match &self.g {
            Gen::Cpu(g) => g.lock().initial_seed(),
            Gen::Cuda(g) => g.lock().seed,
        }
    }

    /// The state as a `torch.uint8` tensor: PyTorch's 5056 bytes for a CPU generator, 16 (seed,
    /// Philox offset) for a CUDA one.
    fn get_state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let b = match &self.g {
            Gen::Cpu(g) => g.lock().get_state(),
            Gen::Cuda(g) => g.lock().get_state(),
        };
        let n = b.len();
        wrap(py, Tensor::from_vec(b, &[n]).py()?)
    }

    /// A CUDA generator's Philox offset (a CPU generator has none, as in PyTorch).
    fn get_offset(&self) -> PyResult<u64> {
        match &self.g {
            Gen::Cpu(_) => Err(PyRuntimeError::new_err("CPU Generator does not use offset")),
            Gen::Cuda(g) => Ok(g.lock().offset),
        }
    }

    /// Set a CUDA generator's Philox offset (a multiple of 4); returns the generator.
    fn set_offset<'py>(slf: PyRef<'py, Self>, offset: u64) -> PyResult<PyRef<'py, Self>> {
        match &slf.g {
            Gen::Cpu(_) => {
                return Err(PyRuntimeError::new_err("CPU Generator does not use offset"))
            }
            Gen::Cuda(g) => g.lock().set_offset(offset).py()?,
        }
        Ok(slf)
    }

    /// Load a state from `get_state` (PyTorch's or leafgrad's); returns the generator.
    fn set_state<'py>(
        slf: PyRef<'py, Self>,
        new_state: &Bound<'py, PyAny>,
    ) -> PyResult<PyRef<'py, Self>> {
        let t = new_state.cast::<PyTensor>().map_err(|_| {
            let got = new_state
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default();
            PyTypeError::new_err(format!("expected a torch.ByteTensor, but got {got}"))
        })?;
        let t = &t.get().t;
        if t.dtype() != DType::UInt8 || t.is_cuda() {
            return Err(PyTypeError::new_err("RNG state must be a torch.ByteTensor"));
        }
        let b = t.try_to_vec::<u8>().py()?;
        slf.load_state(&b)?;
        Ok(slf)
    }

    #[getter]
    fn device<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let dev = py.import("leafgrad")?.getattr("device")?;
        match &self.g {
            Gen::Cpu(_) => dev.call1(("cpu",)),
            Gen::Cuda(g) => dev.call1(("cuda", g.device)),
        }
    }

    /// Pickling and `copy.deepcopy`: a new generator with this one's state (seed included),
    /// drawing the same numbers from here on, as PyTorch's generators pickle.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let state = slf.borrow().get_state(py)?;
        let state = PyTuple::new(py, [state])?;
        let args = match &slf.borrow().g {
            Gen::Cpu(_) => PyTuple::empty(py),
            Gen::Cuda(_) => PyTuple::new(py, [slf.borrow().device(py)?])?,
        };
        PyTuple::new(
            py,
            [slf.get_type().into_any(), args.into_any(), state.into_any()],
        )
    }

    fn __setstate__(&self, state: &Bound<'_, PyTuple>) -> PyResult<()> {
        let t = state.get_item(0)?;
        let t = t.cast::<PyTensor>()?;
        let b = t.get().t.try_to_vec::<u8>().py()?;
        self.load_state(&b)
    }
}

impl PyGenerator {
    fn set_seed(&self, s: u64) {
        match &self.g {
            Gen::Cpu(g) => g.lock().set_seed(s),
            Gen::Cuda(g) => g.lock().set_seed(s),
        }
    }

    fn load_state(&self, b: &[u8]) -> PyResult<()> {
        match &self.g {
            Gen::Cpu(g) => g.lock().set_state(b).py(),
            Gen::Cuda(g) => g.lock().set_state(b).py(),
        }
    }
}

/// The default generator (`torch.default_generator`): every call gives an object naming it.
#[pyfunction]
fn _default_generator() -> PyGenerator {
    PyGenerator {
        g: Gen::Cpu(default_generator().clone()),
    }
}

/// `torch.cuda.default_generators[i]`: an object naming device `i`'s default generator.
#[pyfunction]
fn _cuda_default_generator(i: usize) -> PyResult<PyGenerator> {
    crate::backend::cuda::check(crate::device::Device::Cuda(i)).py()?;
    Ok(PyGenerator {
        g: Gen::Cuda(default_cuda_generator(i).py()?.clone()),
    })
}

/// The CPU generator an op on CPU tensors draws from: `g`, or the default (None); a CUDA
/// generator is refused with PyTorch's message.
fn gen_of(g: &Option<PyRef<'_, PyGenerator>>) -> PyResult<Option<Generator>> {
    match g.as_ref().map(|g| &g.g) {
        None => Ok(None),
        Some(Gen::Cpu(g)) => Ok(Some(g.clone())),
        Some(other) => Err(wrong_device("cpu", other)),
    }
}

/// The CUDA generator an op on device `i` draws from: `g`, or the device's default.
fn cuda_gen_of(g: &Option<PyRef<'_, PyGenerator>>, i: usize) -> PyResult<CudaGenerator> {
    match g.as_ref().map(|g| &g.g) {
        None => Ok(default_cuda_generator(i).py()?.clone()),
        Some(Gen::Cuda(g)) => Ok(g.clone()),
        Some(other) => Err(wrong_device("cuda", other)),
    }
}

fn sizes(shape: &Bound<'_, PyTuple>, fname: &str) -> PyResult<Vec<usize>> {
    crate::shape::sizes_of(&super::convert::shape_args(shape, fname)?).py()
}

type R<'py> = PyResult<Bound<'py, PyAny>>;

/// Values of the distribution `kind` ("uniform", "normal", "randint", "random", "bernoulli",
/// "exponential", with its parameters `a`, `b`) for a tensor of `shape` laid out with
/// `strides` (None: contiguous), in PyTorch's drawing order.
#[pyfunction]
#[pyo3(signature = (kind, shape, strides, dtype, a = None, b = None, generator = None, device = None))]
#[allow(clippy::too_many_arguments)]
fn _draw<'py>(
    py: Python<'py>,
    kind: &str,
    shape: &Bound<'py, PyTuple>,
    strides: Option<Vec<isize>>,
    dtype: &Bound<'py, PyAny>,
    a: Option<&Bound<'py, PyAny>>,
    b: Option<&Bound<'py, PyAny>>,
    generator: Option<PyRef<'py, PyGenerator>>,
    device: Option<&Bound<'py, PyAny>>,
) -> R<'py> {
    let f = |v: Option<&Bound<'py, PyAny>>| -> PyResult<f64> {
        v.map(|v| v.extract()).transpose().map(|v| v.unwrap_or(0.0))
    };
    let d = match kind {
        "uniform" => Draw::Uniform {
            from: f(a)?,
            to: f(b)?,
        },
        "normal" => Draw::Normal {
            mean: f(a)?,
            std: f(b)?,
        },
        "randint" => Draw::Range {
            low: a.map(|v| v.extract()).transpose()?.unwrap_or(0),
            high: b.map(|v| v.extract()).transpose()?.unwrap_or(0),
        },
        "random" => Draw::FullRange,
        "bernoulli" => Draw::Bernoulli { p: f(a)? },
        "exponential" => Draw::Exponential { lambd: f(a)? },
        "cauchy" => Draw::Cauchy {
            median: f(a)?,
            sigma: f(b)?,
        },
        "log_normal" => Draw::LogNormal {
            mean: f(a)?,
            std: f(b)?,
        },
        "geometric" => Draw::Geometric { p: f(a)? },
        k => return Err(PyValueError::new_err(format!("unknown distribution {k:?}"))),
    };
    let s = sizes(shape, kind)?;
    let dt = extract_dtype(dtype)?;
    // a meta tensor has no values to draw (and the generator does not move)
    if device_type(device)?.as_deref() == Some("meta") {
        return wrap(py, crate::Tensor::on_meta(&s, dt).py()?);
    }
    // the values for a CUDA tensor come from that device's generator (returned on the host;
    // the caller moves them)
    if let Some(i) = cuda_index(device)? {
        let g = cuda_gen_of(&generator, i)?;
        let launch = crate::backend::cuda::rng_launch(i).py()?;
        if let Draw::Normal { mean, std } = d {
            let t = crate::ops::random_cuda::normal_on_device(
                &s,
                strides.as_deref(),
                dt,
                (mean, std),
                &g,
                launch,
                i,
            );
            if let Some(t) = t.py()? {
                return wrap(py, t);
            }
        }
        let t = crate::ops::random_cuda::draw_cuda(d, &s, strides.as_deref(), dt, &g, launch);
        return wrap(py, t.py()?);
    }
    let g = gen_of(&generator)?;
    wrap(
        py,
        rnd::draw(d, &s, strides.as_deref(), dt, g.as_ref()).py()?,
    )
}

/// The type of a `device` argument ("cpu", "cuda", "meta"; None for no device).
fn device_type(device: Option<&Bound<'_, PyAny>>) -> PyResult<Option<String>> {
    let Some(d) = device.filter(|d| !d.is_none()) else {
        return Ok(None);
    };
    let d = d.py().import("leafgrad")?.getattr("device")?.call1((d,))?;
    Ok(Some(d.getattr("type")?.extract::<String>()?))
}

/// The CUDA device index of a `device` argument (None for the CPU, meta or no device).
fn cuda_index(device: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
    let Some(d) = device.filter(|d| !d.is_none()) else {
        return Ok(None);
    };
    let d = d.py().import("leafgrad")?.getattr("device")?.call1((d,))?;
    if d.getattr("type")?.extract::<String>()? != "cuda" {
        return Ok(None);
    }
    Ok(Some(
        d.getattr("index")?.extract::<Option<usize>>()?.unwrap_or(0),
    ))
}

/// The CUDA device index of a tensor (None on the CPU or meta).
fn tensor_cuda_index(t: &Tensor) -> Option<usize> {
    match t.device() {
        crate::device::Device::Cuda(i) => Some(i),
        _ => None,
    }
}

#[pyfunction]
#[pyo3(signature = (n, dtype, generator = None, device = None))]
fn _randperm<'py>(
    py: Python<'py>,
    n: i64,
    dtype: &Bound<'py, PyAny>,
    generator: Option<PyRef<'py, PyGenerator>>,
    device: Option<&Bound<'py, PyAny>>,
) -> R<'py> {
    if n < 0 {
        return Err(PyRuntimeError::new_err(format!(
            "Trying to create tensor with negative dimension {n}: [{n}]"
        )));
    }
    if let Some(i) = cuda_index(device)? {
        let g = cuda_gen_of(&generator, i)?;
        let launch = crate::backend::cuda::rng_launch(i).py()?;
        let dt = extract_dtype(dtype)?;
        // PyTorch's dtype checks first (nothing drawn for n = 0)
        rnd::randperm(0, dt, None).py()?;
        let v = crate::ops::random_cuda::randperm_cuda(n as usize, &g, launch).py()?;
        let t = Tensor::from_vec(v, &[n as usize]).py()?;
        return wrap(py, crate::backend::cast(&t, dt).py()?);
    }
    let g = gen_of(&generator)?;
    wrap(
        py,
        rnd::randperm(n as usize, extract_dtype(dtype)?, g.as_ref()).py()?,
    )
}

/// `torch.bernoulli(p)`: a draw per element of the probability tensor `p`.
#[pyfunction]
#[pyo3(signature = (p, generator = None))]
fn _bernoulli_tensor<'py>(
    py: Python<'py>,
    p: PyRef<'py, PyTensor>,
    generator: Option<PyRef<'py, PyGenerator>>,
) -> R<'py> {
    if let Some(i) = tensor_cuda_index(&p.t) {
        let g = cuda_gen_of(&generator, i)?;
        return wrap(
            py,
            crate::ops::random_cuda::bernoulli_tensor(&p.t, &g).py()?,
        );
    }
    let g = gen_of(&generator)?;
    wrap(py, rnd::bernoulli_tensor(&p.t, g.as_ref()).py()?)
}

/// `torch.multinomial(input, num_samples, replacement, generator=)`.
#[pyfunction]
#[pyo3(signature = (input, num_samples, replacement = false, generator = None))]
fn _multinomial<'py>(
    py: Python<'py>,
    input: PyRef<'py, PyTensor>,
    num_samples: i64,
    replacement: bool,
    generator: Option<PyRef<'py, PyGenerator>>,
) -> R<'py> {
    use crate::ops::multinomial::{multinomial, Rng};
    if let Some(i) = tensor_cuda_index(&input.t) {
        let g = cuda_gen_of(&generator, i)?;
        let launch = crate::backend::cuda::rng_launch(i).py()?;
        let r = multinomial(&input.t, num_samples, replacement, Rng::Cuda(&g, launch));
        return wrap(py, r.py()?);
    }
    let g = gen_of(&generator)?;
    let r = multinomial(&input.t, num_samples, replacement, Rng::Cpu(g.as_ref()));
    wrap(py, r.py()?)
}

/// The keep-mask (1/0 in `dtype`, flat, memory order) of `dropout` with keep probability `keep`
/// on the CUDA `device`, as PyTorch's fused CUDA dropout draws it; `dense`: the input is
/// non-overlapping and dense (vectorised loads).
#[pyfunction]
#[pyo3(signature = (n, keep, dtype, device, dense, generator = None))]
fn _cuda_dropout_mask<'py>(
    py: Python<'py>,
    n: usize,
    keep: f64,
    dtype: &Bound<'py, PyAny>,
    device: &Bound<'py, PyAny>,
    dense: bool,
    generator: Option<PyRef<'py, PyGenerator>>,
) -> R<'py> {
    let dt = extract_dtype(dtype)?;
    let i = cuda_index(Some(device))?
        .ok_or_else(|| PyValueError::new_err("_cuda_dropout_mask needs a CUDA device"))?;
    let g = cuda_gen_of(&generator, i)?;
    let launch = crate::backend::cuda::rng_launch(i).py()?;
    // the widest 16-byte load whose width divides the element count (PyTorch's
    // get_vector_size; 16-bit floats are taken at most 4 wide here)
    let widest = if dense {
        (16 / dt.size()).clamp(1, 4)
    } else {
        1
    };
    let vec = [4, 2, 1]
        .into_iter()
        .find(|&v| v <= widest && n.is_multiple_of(v))
        .unwrap_or(1);
    let m = crate::ops::random_cuda::dropout_mask(n, keep, vec, &g, launch).py()?;
    let t = Tensor::from_vec(m, &[n]).py()?;
    wrap(py, crate::backend::cast(&t, dt).py()?)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGenerator>()?;
    m.add_function(wrap_pyfunction!(_default_generator, m)?)?;
    m.add_function(wrap_pyfunction!(_cuda_default_generator, m)?)?;
    m.add_function(wrap_pyfunction!(_draw, m)?)?;
    m.add_function(wrap_pyfunction!(_randperm, m)?)?;
    m.add_function(wrap_pyfunction!(_bernoulli_tensor, m)?)?;
    m.add_function(wrap_pyfunction!(_multinomial, m)?)?;
    m.add_function(wrap_pyfunction!(_cuda_dropout_mask, m)?)?;
    Ok(())
}

#[pymethods]
impl PyTensor {
    /// Writes drawn `values` into self as the random fill `kind` (`uniform_`, ...): the
    /// node PyTorch records for it when autograd records the write.
    #[pyo3(signature = (values, kind, p = None))]
    fn _write_drawn<'py>(
        slf: &Bound<'py, Self>,
        values: PyRef<'py, PyTensor>,
        kind: &str,
        p: Option<PyRef<'py, PyTensor>>,
    ) -> PyResult<Bound<'py, Self>> {
        let name = match kind {
            "uniform" => "UniformBackward0",
            "normal" => "NormalBackward0",
            "exponential" => "ExponentialBackward0",
            "cauchy" => "CauchyBackward0",
            "log_normal" => "LogNormalBackward0",
            "geometric" => "GeometricBackward0",
            "random_from_to" => "RandomBackward0",
            "random_to" => "RandomBackward1",
            "random" => "RandomBackward2",
            "bernoulli_tensor" => "BernoulliBackward1",
            "bernoulli" => "BernoulliBackward2",
            k => return Err(PyValueError::new_err(format!("unknown random fill {k:?}"))),
        };
        let p = p.map(|p| p.t.clone());
        crate::ops::write_drawn(&slf.get().t, &values.t, p.as_ref(), name).py()?;
        Ok(slf.clone())
    }
}
