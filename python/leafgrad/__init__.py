"""leafgrad: an autograd engine with PyTorch's leaf-tensor semantics.

`import leafgrad as torch` runs code written for PyTorch's autograd: leaf tensors,
requires_grad, retain_grad, detach, grad modes, hooks, autograd.grad, with the same values,
reprs, errors and warnings.
"""
import builtins as _builtins

from . import _core
from ._core import (
    Tensor,
    bfloat16,
    bool,
    complex64,
    complex128,
    dtype,
    from_dlpack,
    float16,
    get_num_interop_threads,
    get_num_threads,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    is_anomaly_check_nan_enabled,
    is_anomaly_enabled,
    is_grad_enabled,
    is_inference_mode_enabled,
    set_anomaly_enabled,
    set_num_interop_threads,
    set_num_threads,
    uint8,
    uint16,
    uint32,
    uint64,
)
from . import _tensor  # noqa: F401  (installs the Python-level Tensor methods)
from ._device import device, get_default_device, set_default_device
from ._factories import (
    arange,
    as_tensor,
    empty,
    empty_like,
    eye,
    full,
    full_like,
    linspace,
    ones,
    ones_like,
    rand,
    rand_like,
    randint,
    randint_like,
    randn,
    randn_like,
    tensor,
    zeros,
    zeros_like,
)
from ._functions import *  # noqa: F401,F403
from ._einsum import einsum  # noqa: F401
from ._sampling import *  # noqa: F401,F403
from ._sorting import *  # noqa: F401,F403
from ._scatter import *  # noqa: F401,F403
from ._gather import *  # noqa: F401,F403
from ._broadcast import *  # noqa: F401,F403
from ._shape_ops import *  # noqa: F401,F403
from ._math_extra import *  # noqa: F401,F403
from ._math_scan import *  # noqa: F401,F403
from ._math_inplace import *  # noqa: F401,F403
from ._math_binary import *  # noqa: F401,F403
from ._math_unary import *  # noqa: F401,F403
from ._math_products import *  # noqa: F401,F403
from ._math_stats import *  # noqa: F401,F403
from ._math_misc import *  # noqa: F401,F403
from ._tensor_indexing import *  # noqa: F401,F403
from ._tensor_props import *  # noqa: F401,F403
from ._aten_functional import *  # noqa: F401,F403
from ._windows import *  # noqa: F401,F403
from ._dtypes import *  # noqa: F401,F403
from ._bitwise import *  # noqa: F401,F403
from ._special_gamma import *  # noqa: F401,F403
from ._linalg_cholesky import *  # noqa: F401,F403
from ._renorm import *  # noqa: F401,F403
from ._namespace_extra import *  # noqa: F401,F403
from . import _tensor_memory  # noqa: F401,E402  (pin_memory, is_pinned, share_memory_, is_shared)
from ._rounding import round, round_  # noqa: F401  (round(decimals=) over the core round)
from ._factories import from_numpy
from ._grad_mode import enable_grad, inference_mode, no_grad, set_grad_enabled
from ._size import Size
from ._tensor_str import get_printoptions, printoptions, set_printoptions
from . import autograd, cuda, func, nn, optim, utils, viz  # noqa: E402
from . import fft, jit, linalg, random, serialization, special, storage  # noqa: E402
from . import profiler  # noqa: E402
from .linalg import inverse, logdet, pinverse  # noqa: E402
from .linalg import _cholesky_top as cholesky, _det_top as det, _matrix_exp_top as matrix_exp  # noqa: E402
from .linalg import _matrix_power_top as matrix_power, _qr_top as qr, _slogdet_top as slogdet, _svd_top as svd  # noqa: E402
from ._linalg_eig_lu import _eig_top as eig, _lu_solve_top as lu_solve, _lu_top as lu, lu_unpack  # noqa: E402
from ._linalg_more import _vander_top as vander, geqrf, orgqr  # noqa: E402
from . import accelerator, amp, backends, cpu, distributed, mps, multiprocessing, onnx, testing  # noqa: E402
from . import distributions  # noqa: E402
from .amp import GradScaler, autocast  # noqa: E402
from .amp._state import *  # noqa: E402,F401,F403  (torch.is_autocast_enabled, get_autocast_dtype, ...)
from .amp import _cuda_amp as _cuda_amp  # noqa: E402
from .nn import parallel as _nn_parallel  # noqa: E402,F401  (makes `torch.nn.parallel` an attribute)

# `leafgrad.cuda` is a module file, not a package: `torch.cuda.amp` is registered by hand, and an
# empty `__path__` lets `import leafgrad.cuda.amp` (and importers that alias torch) find it.
_sys = __import__("sys")
_sys.modules[__name__ + ".cuda.amp"] = _cuda_amp
cuda.amp = _cuda_amp
cuda.__path__ = []
del _sys, _cuda_amp, _nn_parallel
from .serialization import load, save  # noqa: E402
from .storage import TypedStorage, UntypedStorage  # noqa: E402
from .random import (  # noqa: E402
    Generator,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    seed,
    set_rng_state,
)
from .explain import explain  # noqa: E402
from ._runner import run  # noqa: E402  (python -m leafgrad run script.py)
from ._warn import is_warn_always_enabled, set_warn_always  # noqa: E402
from ._global_flags import (  # noqa: E402
    are_deterministic_algorithms_enabled,
    get_deterministic_debug_mode,
    get_float32_matmul_precision,
    is_deterministic_algorithms_warn_only_enabled,
    set_deterministic_debug_mode,
    set_float32_matmul_precision,
    use_deterministic_algorithms,
)
from .func import vmap  # noqa: E402  (torch.vmap is torch.func.vmap)
from ._compile import compile  # noqa: E402
from . import _dynamo, compiler  # noqa: E402
from ._layout import (  # noqa: E402
    channels_last,
    channels_last_3d,
    contiguous_format,
    layout,
    memory_format,
    preserve_format,
    strided,
)
import math as _math  # noqa: E402

inf = _math.inf
nan = _math.nan
e = _math.e
pi = _math.pi
del _math

float = float32
double = float64
half = float16
long = int64
int = int32
short = int16
cfloat = complex64
cdouble = complex128

# PyTorch's API level (and leafgrad's own version as the local label): torch.version, docs/api.md
from . import torch_version, version  # noqa: E402
from .version import __version__  # noqa: E402


def is_tensor(obj):
    """Is `obj` a leafgrad tensor?

    >>> torch.is_tensor(torch.ones(1)), torch.is_tensor([1.])
    (True, False)
    """
    return isinstance(obj, Tensor)


def is_floating_point(input):
    """Is the dtype a floating point type?

    >>> torch.is_floating_point(torch.ones(1))
    True
    """
    return input.is_floating_point()


def is_complex(input):
    """Is the dtype complex?

    >>> torch.is_complex(torch.ones(1))
    False
    """
    return input.is_complex()


def numel(input):
    """The number of elements.

    >>> torch.numel(torch.ones(2, 3))
    6
    """
    return input.numel()


def get_default_dtype():
    """The default floating point dtype: what Python floats and the factories make (float32
    unless `set_default_dtype` changed it).

    >>> torch.get_default_dtype()
    torch.float32
    """
    return _core._get_default_dtype()


def set_default_dtype(d):
    """Sets the default floating point dtype (float32, float64, float16 or bfloat16): tensors
    made from Python floats, the factories (`zeros`, `rand`, `arange` of floats, ...), layers'
    parameters, integers in float functions (`sqrt`, `/`) and Python floats joining integer
    tensors take it; the default complex dtype follows (complex128 with float64). Reprs leave
    the default dtype unsaid, as PyTorch's.

    >>> torch.set_default_dtype(torch.float64)
    >>> torch.tensor([1.5]), torch.tensor([1.5]).dtype, torch.tensor([1]) / 2
    (tensor([1.5000]), torch.float64, tensor([0.5000]))
    >>> torch.set_default_dtype(torch.float32)
    """
    from . import _tensor_str

    _core._set_default_dtype(d)
    _tensor_str.DEFAULT_FLOAT = d._name


_warned_default_tensor_type = False


def set_default_tensor_type(t):
    """Deprecated (as in PyTorch 2.1+): sets the default dtype from a tensor type
    (`torch.DoubleTensor` or its name `'torch.DoubleTensor'`), with PyTorch's warning.

    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     torch.set_default_tensor_type(torch.DoubleTensor)
    >>> torch.get_default_dtype()
    torch.float64
    >>> torch.set_default_dtype(torch.float32)
    """
    import warnings

    global _warned_default_tensor_type
    if not _warned_default_tensor_type:  # once per process, as PyTorch's TORCH_WARN_ONCE
        _warned_default_tensor_type = True
        warnings.warn(
            "torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
            "torch.set_default_dtype() and torch.set_default_device() as alternatives.",
            UserWarning,
            stacklevel=2,
        )
    name = t if isinstance(t, str) else getattr(t, "__name__", None)
    names = {"torch.FloatTensor": float32, "torch.DoubleTensor": float64, "torch.HalfTensor": float16,
             "torch.BFloat16Tensor": bfloat16}
    key = name if isinstance(t, str) else f"torch.{name}"
    if key not in names:
        raise TypeError(f"invalid type: '{t}'")
    set_default_dtype(names[key])


def is_conj(input):
    """Is the conjugate bit set? (`conj()` of a complex tensor sets it; leafgrad computes the
    conjugate at once but keeps the bit's rules.)

    >>> torch.is_conj(torch.tensor([1 + 1j]).conj())
    True
    """
    return input.is_conj()


def is_neg(input):
    """Is the negative bit set? Always False: leafgrad's views never defer a negation (see
    docs/differences.md).

    >>> torch.is_neg(torch.tensor([1.]))
    False
    """
    return input.is_neg()


def resolve_conj(input):
    """The tensor with its conjugate bit cleared (a copy when it was set).

    >>> torch.resolve_conj(torch.tensor([1 + 1j]).conj()).is_conj()
    False
    """
    return input.resolve_conj()


def resolve_neg(input):
    """The tensor with its negative bit resolved: the tensor itself in leafgrad.

    >>> torch.resolve_neg(torch.tensor([1.]))
    tensor([1.])
    """
    return input.resolve_neg()


def empty_strided(size, stride, *, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False):
    """A tensor of the given sizes and strides over fresh memory (zero-filled in leafgrad;
    PyTorch leaves it uninitialised).

    >>> torch.empty_strided((2, 3), (1, 2)).stride()
    (1, 2)
    """
    import builtins

    from ._layout import _factory_options

    _factory_options("empty_strided", layout, pin_memory, device=device)
    size, stride = tuple(size), tuple(stride)
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    extent = 1 + builtins.sum((n - 1) * s for n, s in zip(size, stride)) if 0 not in size else 0
    return zeros(extent, dtype=dtype, device=device).as_strided(size, stride).detach().requires_grad_(requires_grad)


def _options(dt, device):
    from .nn._functional_misc import _CPP_TYPE_NAMES

    return (f"TensorOptions(dtype={_CPP_TYPE_NAMES.get(str(dt), str(dt))}, device={device}, layout=Strided, "
            "requires_grad=false (default), pinned_memory=false (default), memory_format=(nullopt))")


def _legacy_new(dt, args):
    """`torch.<Type>Tensor(*args)`: a tensor's alias (same dtype only), data from a sequence or
    an array (sharing an array's memory when its dtype is `dt`), or zeros of the given sizes."""
    import builtins

    if len(args) == 1 and not isinstance(args[0], builtins.int):
        data = args[0]
        if isinstance(data, Tensor):
            if data.dtype is not dt:
                raise TypeError(f"expected {_options(dt, 'cpu')} (got {_options(data.dtype, data.device)})")
            return data[...]
        if type(data).__module__ == "numpy" and type(data).__name__ == "ndarray":
            return as_tensor(data, dtype=dt)
        if isinstance(data, (builtins.list, builtins.tuple, builtins.range)):
            return tensor(builtins.list(data), dtype=dt)
        kind = type(data)
        name = kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__name__}"
        raise TypeError(f"new(): data must be a sequence (got {name})")
    return zeros(*args, dtype=dt)


def _make_legacy(name, dt, example):
    def new(cls, *args):
        return _legacy_new(dt, args)

    doc = (f"The legacy constructor of {dt} tensors: `torch.{name}(data)` is "
           f"`torch.tensor(data, dtype={dt})`. leafgrad zero-fills `torch.{name}(*sizes)`, which "
           f"PyTorch leaves uninitialised. `isinstance(t, torch.{name})` is true for a CPU tensor "
           f"of that dtype.\n\n{example}")
    return _LegacyType(name, (), {"__new__": new, "_dtype": dt, "dtype": dt, "__doc__": doc})


class _LegacyType(type):
    """The class of the legacy tensor types: instances are the CPU tensors of its dtype."""

    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj.dtype is cls._dtype and obj.device.type == "cpu"


FloatTensor = _make_legacy("FloatTensor", float32, """>>> torch.FloatTensor([1, 2])
tensor([1., 2.])""")
DoubleTensor = _make_legacy("DoubleTensor", float64, """>>> torch.DoubleTensor([1, 2])
tensor([1., 2.], dtype=torch.float64)""")
LongTensor = _make_legacy("LongTensor", int64, """>>> torch.LongTensor([[1, 2], [3, 4]])
tensor([[1, 2],
        [3, 4]])""")
BoolTensor = _make_legacy("BoolTensor", bool, """>>> torch.BoolTensor([True, False])
tensor([ True, False])""")
IntTensor = _make_legacy("IntTensor", int32, """>>> torch.IntTensor([1, 2])
tensor([1, 2], dtype=torch.int32)""")
ByteTensor = _make_legacy("ByteTensor", uint8, """>>> torch.ByteTensor([1, 2])
tensor([1, 2], dtype=torch.uint8)""")
CharTensor = _make_legacy("CharTensor", int8, """>>> torch.CharTensor([1, -2])
tensor([ 1, -2], dtype=torch.int8)""")
ShortTensor = _make_legacy("ShortTensor", int16, """>>> torch.ShortTensor([1, 2])
tensor([1, 2], dtype=torch.int16)""")
HalfTensor = _make_legacy("HalfTensor", float16, """>>> torch.HalfTensor([1, 2])
tensor([1., 2.], dtype=torch.float16)""")
BFloat16Tensor = _make_legacy("BFloat16Tensor", bfloat16, """>>> torch.BFloat16Tensor([1.5])
tensor([1.5000], dtype=torch.bfloat16)""")

from . import _out  # noqa: E402

_out.install(globals())  # `out=` for the functions that compute in Python (PyTorch's rules)
_out.install_linalg(linalg)

from . import _kwarg_aliases  # noqa: E402

_kwarg_aliases.install(globals(), Tensor)  # `axis=`, `keepdims=`, `size=(...)` (PyTorch's parser)
del _builtins, _out, _kwarg_aliases
