"""Tensor factories with PyTorch's keyword arguments (dtype, device, requires_grad)."""
import builtins
import warnings

from . import _core
from ._core import Tensor
from ._device import check_device, _with_default
from ._layout import _factory_options, _made_like

_COPY_WARNING = (
    "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
    "sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor)."
)


def _check_args(fn, dtype=None, requires_grad=False):
    """PyTorch's argument parser: dtype must be a dtype, requires_grad a bool."""
    if dtype is not None and not isinstance(dtype, _core.dtype):
        raise TypeError(f"{fn}(): argument 'dtype' must be torch.dtype, not {type(dtype).__name__}")
    if not isinstance(requires_grad, bool):
        raise TypeError(f"{fn}(): argument 'requires_grad' must be bool, not {type(requires_grad).__name__}")


def _finish(t, requires_grad, device):
    d = check_device(device)
    if d is not None and d.type in ("cuda", "meta"):
        # Made on the host, then copied over: still a leaf (no graph is recorded).
        t = _core._move(t, str(d))
    if requires_grad:
        _core._factory_requires_grad(t, True)
    return t


_ARANGE_RESIZED = (
    "The number of elements in the out tensor of shape {} is {} which does not match the computed number of "
    "elements {}. Note that this may occur as a result of rounding error. The out tensor will be resized to a "
    "tensor of shape ({},). (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
    "RangeFactories.cpp:200.)")


def _into_out(fname, out, dtype, device, requires_grad, make, shape, *, refuse=True, keep_numel=False,
              resize_always=False, args=None):
    """`torch.<fname>(..., out=out)` of a factory, as PyTorch's: `dtype=`/`device=` must agree
    with out's (out's dtype is the dtype otherwise), an `out` that requires grad is refused
    under grad mode (`resize_always`: any resize of it is, as `empty`/`randn`'s), `out` is
    resized to `shape` (`keep_numel`: only when its element count differs, as
    linspace/logspace/arange keep an out of the right count) without a warning, and
    `make(dtype, device)` (the out-less call, drawing from the same generator) is written into
    it; `out.requires_grad` becomes `requires_grad` (PyTorch's binding sets it, True or False).
    `args`: the positional arguments, for the TypeError of PyTorch's overloaded factories when
    `out` is not a Tensor. Returns `out` itself."""
    from ._device import device as _device
    from ._out import NO_AUTOGRAD, SCALAR, check_out, invalid, user_warnings

    if args is not None and not isinstance(out, Tensor):
        raise invalid(fname, args, {}, type(out).__name__)
    check_out(fname, out)
    if dtype is not None and dtype != out.dtype:
        raise RuntimeError(f"dtype {SCALAR[dtype._name]} does not match dtype of out parameter "
                           f"({SCALAR[out.dtype._name]})")
    if device is not None:
        d = device if isinstance(device, _device) else _device(f"cuda:{device}" if isinstance(device, int)
                                                               else device)
        if d.type != out.device.type:
            raise RuntimeError(f"device type {d.type} does not match device type of out parameter "
                               f"({out.device.type})")
    if refuse and _core.is_grad_enabled() and out.requires_grad:
        raise RuntimeError(NO_AUTOGRAD.format("aten::" + fname))
    with user_warnings():
        value = make(out.dtype, out.device)
    shape = tuple(shape)
    if keep_numel and value is not None and value.numel() == out.numel():
        shape = tuple(out.shape)
    if resize_always or tuple(out.shape) != shape:
        out.resize_(shape)
    if value is not None:
        from ._grad_mode import no_grad

        with no_grad():
            out.copy_(value.reshape(shape))
    if out.requires_grad != requires_grad:
        if requires_grad:
            _core._factory_requires_grad(out, True)
        else:
            out.requires_grad_(False)
    return out


def _like_device(input, device):
    """The device a `*_like` factory makes its tensor on (checked), whose generator it draws from."""
    return check_device(device) if device is not None else input.device


def _filled(shape, value, dtype, device):
    """`_core._full`, except that a meta tensor is made without building its values."""
    d = check_device(device)
    if d is not None and d.type == "meta":
        return _core._meta(list(shape), dtype or _core._full((), value, None).dtype)
    return _core._full(shape, value, dtype)


def _is_ndarray(x):
    """numpy arrays and numpy scalars (which keep their dtype, e.g. float64)."""
    return type(x).__module__ == "numpy" and hasattr(x, "__array_interface__")


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new leaf tensor holding a copy of `data` (nested lists, numbers, numpy array, tensor).

    >>> torch.tensor([[1, 2], [3, 4]])
    tensor([[1, 2],
            [3, 4]])
    >>> torch.tensor([1.5, 2.0], requires_grad=True)
    tensor([1.5000, 2.0000], requires_grad=True)
    """
    device = _with_default(device)
    _check_args("tensor", dtype, requires_grad)
    _factory_options("tensor", None, pin_memory, device=device, pin_optional=False)
    if isinstance(data, Tensor):
        warnings.warn(_COPY_WARNING, UserWarning, stacklevel=2)
        t = data.detach().clone()
        if dtype is not None and dtype != t.dtype:
            t = t._to_dtype(dtype)
    elif _is_ndarray(data):
        import numpy as np

        t = _core.from_numpy(np.array(data, copy=True, order="C", ndmin=0)).clone()
        if dtype is not None and dtype != t.dtype:
            t = t._to_dtype(dtype)
    else:
        t = _core._tensor(data, dtype)
    return _finish(t, requires_grad, device)


def as_tensor(data, dtype=None, device=None):
    """`data` as a tensor, sharing memory when it already is one (or a numpy array).

    >>> torch.as_tensor([1, 2, 3], dtype=torch.float64)
    tensor([1., 2., 3.], dtype=torch.float64)
    """
    if isinstance(data, Tensor):
        return data if dtype is None else data._to_dtype(dtype)
    if _is_ndarray(data):
        t = _core.from_numpy(data)
        return t if dtype is None else t._to_dtype(dtype)
    return tensor(data, dtype=dtype, device=device)


def _shape(size):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        return tuple(size[0])
    return tuple(size)


def _value_dtype(v):
    if isinstance(v, builtins.bool):
        return _core.bool
    if isinstance(v, builtins.int):
        return _core.int64
    if isinstance(v, builtins.complex):
        return _core._get_default_dtype().to_complex()
    return _core._get_default_dtype()


def full(size, fill_value, *, dtype=None, layout=None, device=None, pin_memory=False, requires_grad=False, out=None):
    """A tensor of shape `size` filled with `fill_value` (its dtype follows the value).

    >>> torch.full((2, 3), 7.0)
    tensor([[7., 7., 7.],
            [7., 7., 7.]])
    >>> torch.full((2,), 3)
    tensor([3, 3])
    """
    device = _with_default(device)
    _factory_options("full", layout, pin_memory, device=device)
    if isinstance(size, Tensor):
        raise TypeError("full(): argument 'size' (position 1) must be tuple of ints, not Tensor")
    if isinstance(fill_value, Tensor):
        if fill_value.dim() != 0:
            raise TypeError("full(): argument 'fill_value' (position 2) must be Number, not Tensor")
        fill_value = fill_value.item()  # read as a Python number, as PyTorch's Scalar argument
    if out is not None:
        return _into_out("full", out, dtype, device, requires_grad,
                         lambda dt, dev: _filled(tuple(size), fill_value, dt, None), size)
    if dtype is None:
        dtype = _value_dtype(fill_value)
    return _finish(_filled(tuple(size), fill_value, dtype, device), requires_grad, device)


def zeros(*size, dtype=None, layout=None, device=None, pin_memory=False, requires_grad=False, out=None):
    """A tensor of zeros; the shape as separate ints or one sequence.

    >>> torch.zeros(2, 3)
    tensor([[0., 0., 0.],
            [0., 0., 0.]])
    >>> torch.zeros((2,), dtype=torch.int64)
    tensor([0, 0])
    """
    device = _with_default(device)
    _factory_options("zeros", layout, pin_memory, device=device)
    if out is not None:
        return _into_out("zeros", out, dtype, device, requires_grad,
                         lambda dt, dev: _filled(_shape(size), 0, dt, None), _shape(size))
    return _finish(_filled(_shape(size), 0, dtype or _core._get_default_dtype(), device), requires_grad, device)


def ones(*size, dtype=None, layout=None, device=None, pin_memory=False, requires_grad=False, out=None):
    """A tensor of ones; with `requires_grad=True` it is a leaf that autograd tracks.

    >>> torch.ones(2, 2, requires_grad=True)
    tensor([[1., 1.],
            [1., 1.]], requires_grad=True)
    """
    device = _with_default(device)
    _factory_options("ones", layout, pin_memory, device=device)
    if out is not None:
        return _into_out("ones", out, dtype, device, requires_grad,
                         lambda dt, dev: _filled(_shape(size), 1, dt, None), _shape(size))
    return _finish(_filled(_shape(size), 1, dtype or _core._get_default_dtype(), device), requires_grad, device)


def empty(*size, dtype=None, layout=None, device=None, pin_memory=False,
          requires_grad=False, out=None, memory_format=None):
    """A tensor whose values are not to be relied on (leafgrad fills zeros; PyTorch does not).

    >>> torch.empty(2, 3).shape
    torch.Size([2, 3])
    """
    device = _with_default(device)
    _factory_options("empty", layout, pin_memory, device=device)
    if out is not None:  # resized, its values left as they are
        return _into_out("empty", out, dtype, device, requires_grad, lambda dt, dev: None, _shape(size),
                         refuse=False, resize_always=True)
    return _finish(_filled(_shape(size), 0, dtype or _core._get_default_dtype(), device), requires_grad, device)


def arange(start, end=None, step=1, *, dtype=None, layout=None, device=None, pin_memory=False,
           requires_grad=False, out=None):
    """Values from `start` (default 0) up to, not including, `end`; int64 when all are ints.

    >>> torch.arange(5)
    tensor([0, 1, 2, 3, 4])
    >>> torch.arange(1, 2.5, 0.5)
    tensor([1.0000, 1.5000, 2.0000])
    """
    device = _with_default(device)
    _factory_options("arange", layout, pin_memory, device=device)
    if end is None:
        start, end = 0, start
    if out is not None:
        return _arange_out(start, end, step, out, dtype, device, requires_grad)
    if dtype is None:
        is_int = all(isinstance(v, builtins.int) or (isinstance(v, Tensor) and not v.is_floating_point())
                     or (type(v).__module__ == "numpy" and hasattr(v, "__index__"))
                     for v in (start, end, step))
        dtype = _core.int64 if is_int else _core._get_default_dtype()
    if dtype is _core.bool:
        raise NotImplementedError("\"arange_cpu\" not implemented for 'Bool'")
    if not (dtype.is_floating_point or dtype.is_complex) and any(
            isinstance(v, builtins.float) and not v.is_integer() for v in (start, step)):
        # PyTorch's kernel: the length from the float arguments, the values from start and
        # step cast to the integer dtype (truncated)
        if step == 0:
            raise RuntimeError("step must be nonzero")
        n = _core._arange(builtins.float(start), builtins.float(end), builtins.float(step), _core.float64).numel()
        t = _core._arange(0.0, builtins.float(n), 1.0, dtype) * builtins.int(step) + builtins.int(start)
        return _finish(t, requires_grad, device)
    ints = [v for v in (start, end, step) if isinstance(v, builtins.int) and not isinstance(v, builtins.bool)]
    if dtype is _core.int64 and len(ints) == 3 and builtins.max(builtins.abs(v) for v in ints) > 2**53:
        # exactly: a float holds integers exactly only up to 2**53
        if step == 0:
            raise RuntimeError("step must be nonzero")
        n = len(range(start, end, step))
        t = _core._arange(0.0, builtins.float(n), 1.0, dtype) * step + start
        return _finish(t, requires_grad, device)
    return _finish(_core._arange(builtins.float(start), builtins.float(end), builtins.float(step), dtype),
                   requires_grad, device)


def _arange_out(start, end, step, out, dtype, device, requires_grad):
    """`arange(..., out=out)`: computed in out's dtype; an out of another element count is
    resized to 1-d (PyTorch's warning when it had elements), one of the same count keeps its
    shape."""
    def make(dt, dev):
        t = arange(start, end, step, dtype=dt)
        if out.numel() not in (0, t.numel()):
            from ._out import warn

            warn(_ARANGE_RESIZED.format(list(out.shape), out.numel(), t.numel(), t.numel()))
        shape[0] = t.numel()
        return t

    shape = [0]
    args = (end,) if start == 0 and step == 1 else (start, end) if step == 1 else (start, end, step)
    return _into_out("arange", out, dtype, device, requires_grad, make, shape, keep_numel=True, args=args)


def linspace(start, end, steps, *, dtype=None, layout=None, device=None, pin_memory=False,
             requires_grad=False, out=None):
    """`steps` evenly spaced values from `start` to `end`, both included.

    >>> torch.linspace(0, 1, steps=5)
    tensor([0.0000, 0.2500, 0.5000, 0.7500, 1.0000])
    """
    device = _with_default(device)
    _factory_options("linspace", layout, pin_memory, device=device)
    dims = [(n, v.dim()) for n, v in (("start", start), ("end", end)) if isinstance(v, _core.Tensor)]
    if any(d != 0 for _, d in dims):
        got = " and ".join(f"{n} with {d} dimension(s)" for n, d in dims)
        raise RuntimeError(f"linspace only supports 0-dimensional start and end tensors, but got {got}.")
    if out is not None:
        return _into_out("linspace", out, dtype, device, requires_grad,
                         lambda dt, dev: linspace(start, end, steps, dtype=dt), (builtins.int(steps),),
                         keep_numel=True, args=(start, end, steps))
    t = _core._linspace(builtins.float(start), builtins.float(end), builtins.int(steps), dtype or _core._get_default_dtype())
    return _finish(t, requires_grad, device)


def eye(n, m=None, *, dtype=None, layout=None, device=None, pin_memory=False, requires_grad=False, out=None):
    """An `n` x `m` (default `n` x `n`) matrix with ones on the diagonal.

    >>> torch.eye(2, 3)
    tensor([[1., 0., 0.],
            [0., 1., 0.]])
    """
    device = _with_default(device)
    _factory_options("eye", layout, pin_memory, device=device)
    m = n if m is None else m
    if out is not None:
        return _into_out("eye", out, dtype, device, requires_grad, lambda dt, dev: _core._eye(n, m, dt), (n, m),
                         args=(n,) if m == n else (n, m))
    return _finish(_core._eye(n, m, dtype or _core._get_default_dtype()), requires_grad, device)


def _generator(generator, fname):
    """`generator=` checked as PyTorch's argument parser checks it (one place for every random
    function; PyTorch's overloaded factories word it as an invalid combination of arguments)."""
    if generator is not None and not isinstance(generator, _core.Generator):
        raise TypeError(f"{fname}(): argument 'generator' must be torch.Generator, not {type(generator).__name__}")
    return generator


_FLOAT_DIGITS = {"float32": (24, "float"), "float64": (53, "double"), "float16": (11, "c10::Half"),
                 "bfloat16": (8, "c10::BFloat16")}
_FLOAT_MAX = {"float32": 3.4028234663852886e38, "float64": 1.7976931348623157e308, "float16": 65504.0,
              "bfloat16": 3.3895313892515355e38}
_INT_RANGE = {"uint8": (0, 255, "unsigned char"), "int8": (-128, 127, "signed char"),
              "int16": (-2**15, 2**15 - 1, "short"), "int32": (-2**31, 2**31 - 1, "int"),
              "int64": (-2**63, 2**63 - 1, "long"), "bool": (0, 1, "bool")}


def _int64(v):
    v = int(v)
    if not -2**63 <= v < 2**63:
        raise ValueError("Overflow when unpacking long long")
    return v


def _check_from_to(dtype, low, high):
    """PyTorch's checks of a random_/randint range for `dtype`: integers must hold it; floats
    hold every integer only up to 2**digits (a warning beyond)."""
    name = str(dtype).replace("torch.", "")
    if name in _INT_RANGE:
        lo, hi, cname = _INT_RANGE[name]
        if not lo <= low <= hi:
            raise RuntimeError(f"from is out of bounds for {cname}")
        if not lo <= high - 1 <= hi:
            raise RuntimeError(f"to - 1 is out of bounds for {cname}")
    elif name in _FLOAT_DIGITS:
        digits, cname = _FLOAT_DIGITS[name]
        top = _FLOAT_MAX[name]
        if not -top <= low <= top:
            raise RuntimeError(f"from is out of bounds for {cname}")
        if not -top <= high - 1 <= top:
            raise RuntimeError(f"to - 1 is out of bounds for {cname}")
        bound = 2**digits
        for what, v, line in (("from", low, 111), ("to - 1", high - 1, 112)):
            if not -bound <= v <= bound:
                warnings.warn(
                    f"{what} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision limitations {cname} can "
                    "support discrete uniform distribution only within this range. This warning will become an "
                    "error in version 1.7 release, please fix the code in advance (Triggered internally at "
                    f"/__w/pytorch/pytorch/aten/src/ATen/native/DistributionTemplates.h:{line}.)", UserWarning,
                    stacklevel=3)


def rand(*size, generator=None, dtype=None, layout=None, device=None, pin_memory=False, requires_grad=False, out=None):
    """Uniform samples in [0, 1): PyTorch's numbers for a seed (float32: 24 random bits each).

    >>> g = torch.Generator().manual_seed(0)
    >>> torch.rand(2, 3, generator=g)
    tensor([[0.4963, 0.7682, 0.0885],
            [0.1320, 0.3074, 0.6341]])
    """
    device = _with_default(device)
    _factory_options("rand", layout, pin_memory, device=device)
    if out is not None:
        return _into_out("rand", out, dtype, device, requires_grad,
                         lambda dt, dev: rand(*size, generator=generator, dtype=dt, device=dev), _shape(size),
                         args=size)
    t = _core._draw("uniform", _shape(size), None, dtype or _core._get_default_dtype(), 0.0, 1.0,
                    _generator(generator, "rand"), check_device(device))
    return _finish(t, requires_grad, device)


def randn(*size, generator=None, dtype=None, layout=None, device=None, pin_memory=False, requires_grad=False, out=None):
    """Standard normal samples: PyTorch's numbers for a seed (Box–Muller in blocks of 16 for 16
    or more elements, as PyTorch's CPU kernel).

    >>> g = torch.Generator().manual_seed(0)
    >>> torch.randn(4, generator=g)
    tensor([ 1.5410, -0.2934, -2.1788,  0.5684])
    """
    device = _with_default(device)
    _factory_options("randn", layout, pin_memory, device=device)
    if out is not None:
        return _into_out("randn", out, dtype, device, requires_grad,
                         lambda dt, dev: randn(*size, generator=generator, dtype=dt, device=dev), _shape(size),
                         refuse=False, resize_always=True, args=size)
    t = _core._draw("normal", _shape(size), None, dtype or _core._get_default_dtype(), 0.0, 1.0,
                    _generator(generator, "randn"), check_device(device))
    return _finish(t, requires_grad, device)


def randint(low=None, high=None, size=None, *, generator=None, dtype=None, layout=None, device=None, pin_memory=False,
            requires_grad=False,
            out=None):
    """Integers drawn uniformly from [`low`, `high`) (`low` defaults to 0), int64 by default:
    `randint(high, size)`, `randint(low, high, size)` or with keywords.

    >>> g = torch.Generator().manual_seed(0)
    >>> torch.randint(3, 10, (5,), generator=g)
    tensor([7, 6, 3, 5, 4])
    >>> torch.randint(high=3, size=(4,), generator=g)
    tensor([0, 1, 1, 1])
    """
    device = _with_default(device)
    _factory_options("randint", layout, pin_memory, device=device)
    if size is None:
        low, high, size = 0, low, high
    elif high is None and low is not None:
        # randint(high, size=...): the one bound given is the high one
        low, high = 0, low
    elif low is None:
        low = 0
    if high is None:
        raise TypeError("randint() received an invalid combination of arguments: it needs `high` "
                        "and `size` (randint(high, size) or randint(low, high, size))")
    if isinstance(size, int):
        raise TypeError("randint(): argument 'size' (position 2) must be tuple of ints, not int")
    if out is not None:
        return _into_out("randint", out, dtype, device, requires_grad,
                         lambda dt, dev: randint(low, high, size, generator=generator, dtype=dt, device=dev), size,
                         args=(high, size) if low == 0 else (low, high, size))
    dtype = dtype or _core.int64
    low, high = _int64(low), _int64(high)
    if low < high:
        _check_from_to(dtype, low, high)
    t = _core._draw("randint", tuple(size), None, dtype, int(low), int(high), _generator(generator, "randint"),
                    check_device(device))
    return _finish(t, requires_grad, device)


def _like(fill, name, doc):
    def make(input, *, dtype=None, layout=None, device=None, pin_memory=False, requires_grad=False,
             memory_format=None):
        _check_args(name, dtype, requires_grad)
        _factory_options(name, layout, pin_memory, device=_like_device(input, device))
        dev = input.device if device is None else device
        dt = dtype or input.dtype
        t = _made_like(input, memory_format, lambda shape: _filled(shape, fill, dt, dev))
        return _finish(t, requires_grad, dev)

    make.__name__ = make.__qualname__ = name
    make.__doc__ = doc
    return make


zeros_like = _like(0, "zeros_like", """Zeros with the shape and dtype of `input`.

    >>> torch.zeros_like(torch.tensor([[1., 2.], [3., 4.]]))
    tensor([[0., 0.],
            [0., 0.]])
    """)
ones_like = _like(1, "ones_like", """Ones with the shape of `input`, and its dtype unless `dtype` is given.

    >>> torch.ones_like(torch.tensor([[1., 2.], [3., 4.]]), dtype=torch.int64)
    tensor([[1, 1],
            [1, 1]])
    """)
empty_like = _like(0, "empty_like", """An uninitialised tensor shaped like `input` (see `empty`).

    >>> torch.empty_like(torch.tensor([[1., 2.], [3., 4.]])).shape
    torch.Size([2, 2])
    """)


def full_like(input, fill_value, *, dtype=None, layout=None, device=None, pin_memory=False,
              requires_grad=False, memory_format=None):
    """`fill_value` everywhere, with the shape and dtype of `input`.

    >>> torch.full_like(torch.tensor([[1., 2.], [3., 4.]]), 0.5)
    tensor([[0.5000, 0.5000],
            [0.5000, 0.5000]])
    """
    _factory_options("full_like", layout, pin_memory, device=_like_device(input, device))
    dt = dtype or input.dtype
    t = _made_like(input, memory_format, lambda shape: _filled(shape, fill_value, dt, device))
    return _finish(t, requires_grad, device)


def rand_like(input, *, dtype=None, layout=None, device=None, pin_memory=False,
              requires_grad=False, memory_format=None):
    """`rand` with the shape and dtype of `input`.

    >>> torch.rand_like(torch.zeros(2, 2)).shape
    torch.Size([2, 2])
    """
    _factory_options("rand_like", layout, pin_memory, device=_like_device(input, device))
    dt = dtype or input.dtype
    dev = _like_device(input, device)
    t = _made_like(input, memory_format, lambda shape: _core._draw("uniform", shape, None, dt, 0.0, 1.0, device=dev))
    return _finish(t, requires_grad, dev)


def randn_like(input, *, dtype=None, layout=None, device=None, pin_memory=False,
               requires_grad=False, memory_format=None):
    """`randn` with the shape and dtype of `input`.

    >>> torch.randn_like(torch.zeros(2, 2, dtype=torch.float64)).dtype
    torch.float64
    """
    _factory_options("randn_like", layout, pin_memory, device=_like_device(input, device))
    dt = dtype or input.dtype
    dev = _like_device(input, device)
    t = _made_like(input, memory_format, lambda shape: _core._draw("normal", shape, None, dt, 0.0, 1.0, device=dev))
    return _finish(t, requires_grad, dev)


def from_numpy(*args, **kwargs):
    """A tensor sharing the numpy array's memory (writes show through both ways).

    >>> import numpy as np
    >>> a = np.array([1.0, 2.0, 3.0])
    >>> t = torch.from_numpy(a)
    >>> t[0] = -1
    >>> a
    array([-1.,  2.,  3.])
    >>> t
    tensor([-1.,  2.,  3.], dtype=torch.float64)
    """
    if kwargs:
        raise TypeError("torch._VariableFunctionsClass.from_numpy() takes no keyword arguments")
    if len(args) != 1:
        raise TypeError(f"from_numpy() takes exactly one argument ({len(args)} given)")
    return _core.from_numpy(args[0])


def randint_like(input, low=0, high=None, *, dtype=None, layout=None, device=None, pin_memory=False,
                 requires_grad=False, memory_format=None):
    """`randint` with the shape and dtype of `input` (`randint_like(x, high)` or
    `randint_like(x, low, high)`).

    >>> _ = torch.manual_seed(0)
    >>> torch.randint_like(torch.zeros(4), 10)
    tensor([4., 9., 3., 0.])
    """
    _factory_options("randint_like", layout, pin_memory, device=_like_device(input, device))
    if high is None:
        low, high = 0, low
    dtype = dtype or input.dtype
    low, high = _int64(low), _int64(high)
    if low < high:
        _check_from_to(dtype, low, high)
    dev = _like_device(input, device)
    t = _made_like(input, memory_format, lambda shape: _core._draw("randint", shape, None, dtype, int(low), int(high),
                                                                   device=dev))
    return _finish(t, requires_grad, dev)
