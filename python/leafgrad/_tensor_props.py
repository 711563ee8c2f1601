"""Small Tensor predicates and properties of PyTorch's API: `is_signed`, `is_nonzero`,
`is_same_size` (also as `torch.*` functions), `get_device`, `new_empty_strided` and the
properties `nbytes`, `itemsize`, `is_cpu`; and `apply_`/`map_`, which call a Python function on
each element."""
import builtins
import operator

from ._core import Tensor
from ._op_helpers import _torch, _check_tensor

__all__ = [
    "is_same_size", "is_nonzero", "is_signed",
]
# installed as Tensor methods (the properties `nbytes`, `itemsize`, `is_cpu` apart)
_METHODS = [
    "is_signed", "is_nonzero", "is_same_size", "get_device", "new_empty_strided", "apply_", "map_",
]


# --- metadata --------------------------------------------------------------------------------

def is_signed(input):
    """Is the dtype signed? (False for bool and the unsigned integers.)

    >>> torch.tensor([1.]).is_signed(), torch.tensor([1], dtype=torch.uint8).is_signed()
    (True, False)
    """
    _check_tensor("is_signed", "input", 1, input)
    return input.dtype.is_signed


def is_nonzero(input):
    """The truth of a one-element tensor (NaN is true); any other number of elements is an
    error.

    >>> torch.is_nonzero(torch.tensor([0.])), torch.is_nonzero(torch.tensor(1.5))
    (False, True)
    """
    _check_tensor("is_nonzero", "input", 1, input)
    n = input.numel()
    if n == 0:
        raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
    if n > 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    v = input.item()
    return v != 0 if not isinstance(v, builtins.float) else not v == 0.0


def is_same_size(input, other):
    """Do the shapes agree?

    >>> torch.is_same_size(torch.zeros(2, 3), torch.ones(2, 3, dtype=torch.int64))
    True
    """
    _check_tensor("is_same_size", "input", 1, input)
    _check_tensor("is_same_size", "other", 2, other)
    return tuple(input.shape) == tuple(other.shape)


def _is_signed_method(self):
    return is_signed(self)


def _is_nonzero_method(self):
    return is_nonzero(self)


def _is_same_size_method(self, other):
    _check_tensor("is_same_size", "other", 1, other)
    return tuple(self.shape) == tuple(other.shape)


_is_signed_method.__doc__ = is_signed.__doc__
_is_nonzero_method.__doc__ = is_nonzero.__doc__
_is_same_size_method.__doc__ = is_same_size.__doc__


def _nbytes(self):
    """The bytes the elements take: `numel() * itemsize` (expanded dims counted in full).

    >>> torch.zeros(2, 3).nbytes, torch.zeros(1).expand(5).nbytes
    (24, 20)
    """
    return self.numel() * self.dtype.itemsize


def _itemsize(self):
    """The bytes of one element.

    >>> torch.zeros(1, dtype=torch.float16).itemsize
    2
    """
    return self.dtype.itemsize


def _is_cpu(self):
    """Is the tensor in CPU memory?

    >>> torch.zeros(1).is_cpu
    True
    """
    return self.device.type == "cpu"


def _get_device(self):
    """The CUDA device index, -1 for a CPU tensor.

    >>> torch.zeros(1).get_device()
    -1
    """
    if self.device.type == "cpu":
        return -1
    return self.device.index if self.device.index is not None else 0


def _new_empty_strided(self, size, stride, *, dtype=None, layout=None, device=None, requires_grad=False,
                       pin_memory=False):
    """A tensor of the given sizes and strides over fresh memory, of this tensor's dtype and
    device unless given (zero-filled in leafgrad; PyTorch leaves it uninitialised).

    >>> torch.ones(1, dtype=torch.float64).new_empty_strided((2, 3), (1, 2)).stride()
    (1, 2)
    """
    for name, pos, v in (("size", 1, size), ("stride", 2, stride)):
        if not isinstance(v, (tuple, list)) and not (isinstance(v, Tensor)):
            raise TypeError(f"new_empty_strided(): argument '{name}' (position {pos}) must be tuple of ints, "
                            f"not {type(v).__name__}")
    size, stride = tuple(builtins.int(s) for s in size), tuple(builtins.int(s) for s in stride)
    if len(size) != len(stride):
        raise RuntimeError(f"dimensionality of sizes ({len(size)}) must match dimensionality of strides "
                           f"({len(stride)})")
    from ._layout import _factory_options

    _factory_options("new_empty_strided", layout, pin_memory, device=device or self.device)
    torch = _torch()
    return torch.empty_strided(size, stride, dtype=dtype or self.dtype, device=device or self.device,
                               requires_grad=requires_grad)


# --- apply_ / map_ ---------------------------------------------------------------------------

_INT_LIMITS = {"uint8": (0, 255), "int8": (-128, 127), "int16": (-2 ** 15, 2 ** 15 - 1),
               "int32": (-2 ** 31, 2 ** 31 - 1), "int64": (-2 ** 63, 2 ** 63 - 1),
               "uint16": (0, 2 ** 16 - 1), "uint32": (0, 2 ** 32 - 1), "uint64": (0, 2 ** 64 - 1)}


def _as_double(v):
    """CPython's `PyFloat_AsDouble`, as PyTorch reads a float back from Python."""
    if isinstance(v, builtins.float):
        return v
    if hasattr(type(v), "__float__"):
        return type(v).__float__(v)
    if hasattr(type(v), "__index__"):
        return builtins.float(operator.index(v))
    raise TypeError(f"must be real number, not {type(v).__name__}")


def _as_long(v):
    n = operator.index(v)
    if not -2 ** 63 <= n < 2 ** 63:
        raise ValueError("Overflow when unpacking long long")
    return n


def _storer(dtype):
    """Python value -> the number stored in a tensor of `dtype`, with PyTorch's `store_scalar`
    rules (checked integer conversions, floats truncated toward zero for integer dtypes)."""
    name = dtype._name
    if name == "bool":
        def store(v):
            if isinstance(v, builtins.float):
                return v != 0.0
            if isinstance(v, builtins.complex):
                return v != 0
            return _as_long_unchecked(v) != 0
        return store
    if name in _INT_LIMITS:
        lo, hi = _INT_LIMITS[name]
        unsigned = lo == 0

        def overflow():
            return RuntimeError(f"value cannot be converted to type {name} without overflow")

        def store(v):
            if isinstance(v, builtins.float):
                if v != v or v < lo or v > hi:
                    raise overflow()
                n = builtins.int(v)
            else:
                n = _as_long(v)
                if n > hi or (n < lo and not (unsigned and -n <= hi)):
                    raise overflow()
            return n % (hi + 1) if unsigned else n
        return store
    if dtype.is_complex:
        def store(v):
            if isinstance(v, builtins.complex):
                return v
            if hasattr(type(v), "__complex__"):
                return type(v).__complex__(v)
            return builtins.complex(_as_double(v))
        return store
    return _as_double


def _as_long_unchecked(v):
    return operator.index(v)


def _write_values(self, values):
    torch = _torch()
    dt = self.dtype
    if dt.is_complex:
        t = torch.tensor(values, dtype=torch.complex128)
    elif dt.is_floating_point:
        t = torch.tensor(values, dtype=torch.float64)
        if dt._name in ("float16", "bfloat16"):  # PyTorch rounds the double to float first
            t = t.to(torch.float32)
    elif dt._name == "uint64":
        t = torch.tensor(values, dtype=torch.uint64)
    elif dt._name == "bool":
        t = torch.tensor(values, dtype=torch.bool)
    else:
        t = torch.tensor(values, dtype=torch.int64)
    t = t.to(dt).reshape(tuple(self.shape))
    self.data.copy_(t)  # as PyTorch, a write through the data pointer: no version bump


def _apply_elementwise(self, fn, others, n):
    if self.device.type != "cpu":
        raise TypeError(f"{n} is only implemented on CPU tensors")
    if self.numel() == 0:
        return self
    store = _storer(self.dtype)
    mine = self.reshape(-1).tolist()
    cols = [o.reshape(-1).tolist() for o in others]
    out = []
    try:
        for i, v in enumerate(mine):
            out.append(store(fn(v, *(c[i] for c in cols))))
    finally:
        if out:  # what was written before an error stays written, as in PyTorch
            _write_values(self, out + mine[len(out):])
    return self


def _apply_(self, callable):
    """Calls `callable` on each element (a Python number, in index order) and writes back what
    it returns, in place (CPU tensors that do not require grad).

    >>> torch.tensor([1, 2, 3]).apply_(lambda v: v * 10)
    tensor([10, 20, 30])
    """
    if self.requires_grad:
        raise RuntimeError("Can't call apply_() on Variable that requires grad. Use var.detach().apply_() instead.")
    return _apply_elementwise(self, callable, (), "apply_")


def _map_(self, other, callable):
    """Calls `callable(a, b)` on each element `a` of this tensor and the matching `b` of `other`
    (broadcast to this tensor's shape; the same dtype) and writes back what it returns, in
    place.

    >>> torch.tensor([1., 2.]).map_(torch.tensor([10., 20.]), lambda a, b: a + b)
    tensor([11., 22.])
    """
    _check_tensor("map_", "other", 1, other)
    if self.requires_grad or other.requires_grad:
        raise RuntimeError("Can't call map_() on Variable that requires grad. Use var.detach().map_() instead.")
    if other.dtype != self.dtype or other.device != self.device:
        raise TypeError(f"map_: expected {self.dtype._legacy_name} for 'other' (got {other.dtype._legacy_name})")
    return _apply_elementwise(self, callable, (other.expand(tuple(self.shape)),), "map_")


def _install():
    methods = {
        "is_signed": _is_signed_method, "is_nonzero": _is_nonzero_method, "is_same_size": _is_same_size_method,
        "get_device": _get_device, "new_empty_strided": _new_empty_strided, "apply_": _apply_, "map_": _map_,
    }
    assert builtins.set(methods) == builtins.set(_METHODS)
    for name, fn in methods.items():
        fn.__name__ = fn.__qualname__ = name
        setattr(Tensor, name, fn)
    Tensor.nbytes = property(_nbytes, doc=_nbytes.__doc__)
    Tensor.itemsize = property(_itemsize, doc=_itemsize.__doc__)
    Tensor.is_cpu = property(_is_cpu, doc=_is_cpu.__doc__)


_install()
