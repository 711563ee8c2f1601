"""Tensor factories with PyTorch's keyword arguments (dtype, device, requires_grad)."""
import builtins
import warnings

from . import _core
from ._core import Tensor
from ._device import check_device

_COPY_WARNING = (
    "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
    "sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor)."
)


def _finish(t, requires_grad, device):
    check_device(device)
    if requires_grad:
        _core._factory_requires_grad(t, True)
    return t


def _is_ndarray(x):
    """numpy arrays and numpy scalars (which keep their dtype, e.g. float64)."""
    return type(x).__module__ == "numpy" and hasattr(x, "__array_interface__")


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new leaf tensor holding a copy of `data` (nested lists, numbers, numpy array, tensor)."""
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
        return _core.complex64
    return _core.float32


def full(size, fill_value, *, dtype=None, device=None, requires_grad=False, out=None):
    if dtype is None:
        dtype = _value_dtype(fill_value)
    return _finish(_core._full(tuple(size), fill_value, dtype), requires_grad, device)


def zeros(*size, dtype=None, device=None, requires_grad=False, out=None):
    return _finish(_core._full(_shape(size), 0, dtype or _core.float32), requires_grad, device)


def ones(*size, dtype=None, device=None, requires_grad=False, out=None):
    return _finish(_core._full(_shape(size), 1, dtype or _core.float32), requires_grad, device)


def empty(*size, dtype=None, device=None, requires_grad=False, out=None, memory_format=None):
    return _finish(_core._full(_shape(size), 0, dtype or _core.float32), requires_grad, device)


def arange(start, end=None, step=1, *, dtype=None, device=None, requires_grad=False, out=None):
    if end is None:
        start, end = 0, start
    if dtype is None:
        is_int = all(isinstance(v, builtins.int) or (isinstance(v, Tensor) and not v.is_floating_point())
                     for v in (start, end, step))
        dtype = _core.int64 if is_int else _core.float32
    return _finish(_core._arange(builtins.float(start), builtins.float(end), builtins.float(step), dtype),
                   requires_grad, device)


def linspace(start, end, steps, *, dtype=None, device=None, requires_grad=False, out=None):
    t = _core._linspace(builtins.float(start), builtins.float(end), builtins.int(steps), dtype or _core.float32)
    return _finish(t, requires_grad, device)


def eye(n, m=None, *, dtype=None, device=None, requires_grad=False, out=None):
    return _finish(_core._eye(n, n if m is None else m, dtype or _core.float32), requires_grad, device)


def rand(*size, generator=None, dtype=None, device=None, requires_grad=False, out=None):
    return _finish(_core._rand(_shape(size), False, dtype or _core.float32), requires_grad, device)


def randn(*size, generator=None, dtype=None, device=None, requires_grad=False, out=None):
    return _finish(_core._rand(_shape(size), True, dtype or _core.float32), requires_grad, device)


def randint(low, high=None, size=None, *, generator=None, dtype=None, device=None, requires_grad=False):
    if size is None:
        low, high, size = 0, low, high
    return _finish(_core._randint(low, high, tuple(size), dtype or _core.int64), requires_grad, device)


def _like(fill):
    def make(input, *, dtype=None, device=None, requires_grad=False, memory_format=None):
        return _finish(_core._full(tuple(input.shape), fill, dtype or input.dtype), requires_grad, device)

    return make


zeros_like = _like(0)
ones_like = _like(1)
empty_like = _like(0)


def full_like(input, fill_value, *, dtype=None, device=None, requires_grad=False, memory_format=None):
    return _finish(_core._full(tuple(input.shape), fill_value, dtype or input.dtype), requires_grad, device)


def rand_like(input, *, dtype=None, device=None, requires_grad=False, memory_format=None):
    return _finish(_core._rand(tuple(input.shape), False, dtype or input.dtype), requires_grad, device)


def randn_like(input, *, dtype=None, device=None, requires_grad=False, memory_format=None):
    return _finish(_core._rand(tuple(input.shape), True, dtype or input.dtype), requires_grad, device)


def from_numpy(*args, **kwargs):
    """A tensor sharing the numpy array's memory (writes show through both ways)."""
    if kwargs:
        raise TypeError("torch._VariableFunctionsClass.from_numpy() takes no keyword arguments")
    if len(args) != 1:
        raise TypeError(f"from_numpy() takes exactly one argument ({len(args)} given)")
    return _core.from_numpy(args[0])
