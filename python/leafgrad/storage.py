"""`torch.storage`: the memory under tensors (`Tensor.untyped_storage()`, the deprecated
`Tensor.storage()`), and tensor pickling and copying built on it.

A storage object is a window on the whole memory a tensor (and its views) live in, read and
written through a 1-D tensor over it. Pickling a tensor pickles its storage's bytes with the
tensor's size, strides and offset, so views and non-contiguous tensors come back laid out as
they were; `copy.deepcopy` of several tensors in one call keeps memory they share shared, as
PyTorch does.
"""

from . import _core, _warn
from ._core import Tensor

__all__ = ["TypedStorage", "UntypedStorage"]

_TYPED_WARNING = (
    "TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be the "
    "only storage class. This should only matter to you if you are using storages directly.  To "
    "access UntypedStorage directly, use tensor.untyped_storage() instead of tensor.storage()"
)


def _lines(values, fmt):
    return "\n".join(" " + fmt(v) for v in values)


class _Storage:
    """Shared behaviour of the two storage classes: `_data` is a 1-D tensor over the memory."""

    __slots__ = ("_data",)

    def __init__(self, data):
        self._data = data

    def __len__(self):
        return self._data.numel()

    def size(self):
        return self._data.numel()

    @property
    def device(self):
        return self._data.device

    @property
    def is_cuda(self):
        return self._data.is_cuda

    def data_ptr(self):
        return self._data.data_ptr()

    def nbytes(self):
        return self._data.numel() * self._data.element_size()

    def tolist(self):
        return self._data.tolist()

    def __iter__(self):
        return iter(self.tolist())

    def __getitem__(self, i):
        if isinstance(i, slice):
            return type(self)(self._data[i].clone())
        return self._data[i].item()

    def __setitem__(self, i, value):
        self._data[i] = value

    def fill_(self, value):
        self._data.fill_(value)
        return self

    def copy_(self, source):
        self._data.copy_(source._data)
        return self

    def is_shared(self):
        """Whether the memory is shared memory (`Tensor.share_memory_`; True on CUDA)."""
        if self._data.is_cuda:
            return True
        from ._tensor_memory import _shared_region

        return not self._data.is_meta and _shared_region(self.data_ptr())

    def __reduce__(self):
        return (_storage_from_bytes, (type(self), _bytes(self._data), self._data.dtype, str(self.device)))

    def __deepcopy__(self, memo):
        return self.clone()

    def clone(self):
        return type(self)(self._data.clone())

    def cpu(self):
        """The storage in host memory: itself seen again when it is there, else a copy."""
        return type(self)(self._data.cpu() if self.is_cuda else self._data)


class UntypedStorage(_Storage):
    """The bytes under a tensor (`Tensor.untyped_storage()`): `len()` is the byte count.

    >>> s = torch.tensor([1, 2], dtype=torch.int32).untyped_storage()
    >>> len(s), s[4]
    (8, 2)
    """

    __slots__ = ()

    def element_size(self):
        return 1

    def __repr__(self):
        return (_lines(self.tolist(), str) if len(self) else " ") + "\n" + \
            f"[torch.storage.UntypedStorage(device={self.device}) of size {len(self)}]"


UntypedStorage.__module__ = "leafgrad.storage"


class TypedStorage(_Storage):
    """The memory under a tensor seen as elements of its dtype (`Tensor.storage()`, deprecated
    in PyTorch and warned about there too).

    >>> import warnings
    >>> with warnings.catch_warnings(record=True):
    ...     s = torch.tensor([1., 2.5]).storage()
    >>> len(s), s.dtype, s[1]
    (2, torch.float32, 2.5)
    """

    __slots__ = ()

    @property
    def dtype(self):
        return self._data.dtype

    def element_size(self):
        return self._data.element_size()

    def untyped(self):
        return UntypedStorage(_core._storage_view(self._data, _core.uint8))

    @property
    def _untyped_storage(self):
        return self.untyped()

    def type(self):
        from ._tensor import _LEGACY

        return "torch." + _LEGACY[self.dtype._name].replace("Tensor", "Storage")

    def __repr__(self):
        body = _lines(self.tolist(), lambda v: str(float(v)) if self.dtype.is_floating_point else str(v))
        return (body if len(self) else " ") + "\n" + \
            f"[torch.storage.TypedStorage(dtype={self.dtype}, device={self.device}) of size {len(self)}]"


TypedStorage.__module__ = "leafgrad.storage"


def _bytes(data):
    """The bytes of a 1-D tensor's memory, from any device."""
    raw = _core._storage_view(data, _core.uint8)
    if raw.is_cuda:
        raw = raw.cpu()
    return raw.numpy().tobytes()


def _storage_from_bytes(cls, raw, dtype, device):
    return cls(_from_bytes(raw, dtype, device))


def _from_bytes(raw, dtype, device):
    """A 1-D tensor of `dtype` over a copy of `raw`, on `device`."""
    import numpy as np

    from ._factories import from_numpy

    flat = from_numpy(np.frombuffer(bytearray(raw), dtype=np.uint8))
    data = _core._storage_view(flat, dtype)
    return data if device == "cpu" else data.to(device)


def _untyped_storage(self):
    """The memory under this tensor as bytes (shared with it).

    >>> torch.ones(2).untyped_storage().nbytes()
    8
    """
    return UntypedStorage(_core._storage_view(self, _core.uint8))


def _typed_storage(self):
    """The memory under this tensor as elements of its dtype (deprecated: PyTorch's warning,
    once per process).

    >>> import warnings
    >>> with warnings.catch_warnings(record=True):
    ...     print(len(torch.arange(6.)[2:4].storage()))
    6
    """
    _warn.warn_once("typed storage", _TYPED_WARNING, UserWarning, stacklevel=2)
    return TypedStorage(_core._storage_view(self, self.dtype))


# ---------------------------------------------------------------- pickling and copying


def _rebuild_tensor(storage, offset, size, stride, requires_grad, cls=Tensor, state=None):
    t = storage._data.as_strided(size, stride, offset).detach()
    if cls is not Tensor:
        t = cls._from_rebuilt(t, requires_grad) if hasattr(cls, "_from_rebuilt") else t
    elif requires_grad:
        t.requires_grad_(True)
    if state:
        t.__dict__.update(state)
    return t


def _reduce_ex(self, proto):
    """Pickling: the storage (its bytes when pickled, itself for `copy.copy`), the layout and
    `requires_grad` (not `.grad`, not the history: a non-leaf comes back as a leaf)."""
    if self.is_meta:
        raise NotImplementedError("Cannot copy out of meta tensor; no data!")
    storage = TypedStorage(_core._storage_view(self, self.dtype))
    state = dict(self.__dict__) if hasattr(self, "__dict__") and self.__dict__ else None
    return (_rebuild_tensor, (storage, self.storage_offset(), tuple(self.shape), self.stride(),
                              self.requires_grad, type(self), state))


_DEEPCOPY_NONLEAF = (
    "Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol at "
    "the moment.  If you were attempting to deepcopy a module, this may be because of a "
    "torch.nn.utils.weight_norm usage, see https://github.com/pytorch/pytorch/pull/103001"
)


def _deepcopy(self, memo):
    """`copy.deepcopy`: new memory (shared again by the tensors of one deepcopy call that
    shared it), the same layout, `requires_grad` and a copy of `.grad`; leaves only."""
    if not self.is_leaf:
        raise RuntimeError(_DEEPCOPY_NONLEAF)
    if id(self) in memo:
        return memo[id(self)]
    if self.is_meta:
        from ._factories import empty

        new = empty(*self.shape, dtype=self.dtype, device="meta")
    else:
        key = ("leafgrad storage", _core._storage_view(self, _core.uint8).data_ptr(), self.device.type)
        data = memo.get(key)
        if data is None:
            data = _core._storage_view(self, self.dtype).detach().clone()
            memo[key] = data
            memo.setdefault(id(memo), []).append(self)  # keep the source alive (its address is the key)
        new = data.as_strided(tuple(self.shape), self.stride(), self.storage_offset()).detach()
    cls = type(self)
    if cls is not Tensor and hasattr(cls, "_from_rebuilt"):
        new = cls._from_rebuilt(new, self.requires_grad)
    elif self.requires_grad:
        new.requires_grad_(True)
    if self.grad is not None:
        new.grad = _deepcopy(self.grad, memo)
    if hasattr(self, "__dict__") and self.__dict__:
        import copy

        for k, v in self.__dict__.items():
            setattr(new, k, copy.deepcopy(v, memo))
    memo[id(self)] = new
    return new


Tensor.untyped_storage = _untyped_storage
Tensor.storage = _typed_storage
Tensor.__reduce_ex__ = _reduce_ex
Tensor.__deepcopy__ = _deepcopy


def _set_(self, source=None, storage_offset=0, size=None, stride=None):
    """This tensor takes the memory and layout of `source` (a tensor, or a storage with an
    offset, size and strides); nothing: an empty tensor. A leaf's earlier graphs no longer
    reach it; autograd records PyTorch's `NotImplemented` node.

    >>> z = torch.zeros(2)
    >>> src = torch.arange(6.).view(2, 3)
    >>> z.set_(src)
    tensor([[0., 1., 2.],
            [3., 4., 5.]])
    >>> z.data_ptr() == src.data_ptr()
    True
    """
    if source is None:
        from ._factories import empty

        source = empty(0, dtype=self.dtype, device=self.device)
    elif isinstance(source, _Storage):
        data = source._data
        if isinstance(source, UntypedStorage):
            data = _core._storage_view(data, self.dtype)
        if size is None:
            size, stride = (len(data) - storage_offset,), (1,)
        elif stride is None:
            stride = _row_major(size)
        source = data.as_strided(tuple(size), tuple(stride), storage_offset).detach()
    elif not isinstance(source, Tensor):
        raise TypeError(f"set_() received an invalid combination of arguments - got ({type(source).__name__})")
    self._set_(source)
    return self


def _row_major(size):
    strides, step = [], 1
    for n in reversed(tuple(size)):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides))


def _resize_(self, *sizes, memory_format=None):
    """Change the shape in place, row-major from the current offset; the memory grows (the
    old contents kept, the rest zero) when it is too small. Refused for a tensor that requires
    grad, as in PyTorch.

    >>> t = torch.arange(6.)
    >>> t.resize_(2, 2)
    tensor([[0., 1.],
            [2., 3.]])
    """
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)):
        sizes = tuple(sizes[0])
    self._resize_([int(n) for n in sizes])
    return self


def _resize_as_(self, other, memory_format=None):
    """`resize_` to `other`'s shape.

    >>> torch.arange(4.).resize_as_(torch.zeros(2, 2)).shape
    torch.Size([2, 2])
    """
    return _resize_(self, tuple(other.shape))


Tensor.set_ = _set_
Tensor.resize_ = _resize_
Tensor.resize_as_ = _resize_as_
