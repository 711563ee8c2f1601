"""Layouts and memory formats: `torch.strided` (the only layout leafgrad has) and the formats
`contiguous(memory_format=...)` takes, with the Tensor methods that read them."""
from ._core import Tensor


class _Constant:
    """A named singleton printed as `torch.<name>`, kept by copy and pickle."""

    __slots__ = ("_name",)

    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return "torch." + self._name

    def __reduce__(self):
        return self._name

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


class layout(_Constant):
    """How a tensor's elements are stored: leafgrad's tensors are all `torch.strided`.

    >>> torch.ones(2).layout
    torch.strided
    """

    __slots__ = ()
    __module__ = "leafgrad"


class memory_format(_Constant):
    """The order in which a dense tensor's dims are laid out in memory.

    >>> torch.channels_last
    torch.channels_last
    """

    __slots__ = ()
    __module__ = "leafgrad"


strided = layout("strided")
contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")

# the memory order of each channels-last format, outermost dim first
_ORDERS = {"channels_last": (4, (0, 2, 3, 1)), "channels_last_3d": (5, (0, 2, 3, 4, 1))}


def _order(t, fmt):
    rank, order = _ORDERS[fmt._name]
    if t.dim() != rank:
        raise RuntimeError(f"required rank {rank} tensor to use {fmt._name} format")
    return order


def _is_in_order(t, order):
    """Are t's strides those of a dense layout in `order` (size-1 dims ignored)?"""
    expected, step = {}, 1
    for d in reversed(order):
        expected[d] = step
        step *= t.shape[d]
    return all(n == 1 or t.stride(d) == expected[d] for d, n in enumerate(t.shape))


def _stride_order(t):
    """The dims of `t`, outermost in memory first, as PyTorch's `infer_dense_strides` (and
    TensorIterator) order them: a stable insertion sort by stride, equal strides putting the
    smaller size inside, and a dim of stride 0 never moved (its order is ambiguous)."""
    sizes, strides = t.shape, t.stride()
    perm = list(range(t.dim() - 1, -1, -1))  # innermost first

    def should_swap(d0, d1):
        if strides[d0] == 0 or strides[d1] == 0:
            return 0
        if strides[d0] != strides[d1]:
            return 1 if strides[d0] > strides[d1] else -1
        return 1 if sizes[d0] > sizes[d1] else 0

    for i in range(1, t.dim()):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            c = should_swap(perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    return perm[::-1]


def _made_like(input, memory_format, make):
    """A new tensor shaped like `input`, from `make(shape)` (a row-major tensor, which random
    draws fill in memory order), laid out as the `*_like` factories' `memory_format` asks:
    `preserve_format` (the default) keeps the order of the input's strides (a transposed
    input gives a transposed result), `contiguous_format` is row-major, the channels-last
    formats theirs."""
    fmt = preserve_format if memory_format is None else memory_format
    if fmt is preserve_format:
        order = _stride_order(input)
    elif fmt is contiguous_format:
        order = None
    else:
        order = list(_order(input, fmt))
    shape = tuple(input.shape)
    if order is None or order == sorted(order):
        return make(shape)
    t = make(tuple(shape[d] for d in order))
    return t.permute(*[order.index(d) for d in range(len(order))])


_core_contiguous = Tensor.contiguous
_core_is_contiguous = Tensor.is_contiguous


def _contiguous(self, memory_format=contiguous_format):
    """The tensor itself when laid out densely in `memory_format` (row-major by default),
    else a copy that is (CloneBackward0).

    >>> x = torch.arange(24.).view(1, 2, 3, 4)
    >>> x.contiguous(memory_format=torch.channels_last).stride()
    (24, 1, 8, 2)
    """
    if memory_format is contiguous_format:
        return _core_contiguous(self)
    if memory_format is preserve_format:
        if _core_is_contiguous(self):
            return self
        raise RuntimeError("preserve memory format is unsupported by the contiguous operator")
    order = _order(self, memory_format)
    if _is_in_order(self, order):
        return self
    return self._clone_in_order(list(order))


def _is_contiguous(self, memory_format=contiguous_format):
    """Is the tensor laid out densely in `memory_format` (row-major by default)?

    >>> torch.ones(2, 3).t().is_contiguous()
    False
    """
    if memory_format in (contiguous_format, preserve_format):
        return _core_is_contiguous(self)
    rank, order = _ORDERS[memory_format._name]
    return self.dim() == rank and _is_in_order(self, order)


_core_clone = Tensor.clone


def _clone(self, *, memory_format=preserve_format):
    """A copy (CloneBackward0) laid out as `memory_format` asks: by default in the order of
    the tensor's own strides, or row-major (`torch.contiguous_format`), or channels-last.

    >>> torch.ones(3, 4).t().clone().stride()
    (1, 4)
    >>> torch.ones(3, 4).t().clone(memory_format=torch.contiguous_format).stride()
    (3, 1)
    """
    if memory_format is preserve_format:
        return _core_clone(self)
    if memory_format is contiguous_format:
        return self._clone_in_order(list(range(self.dim())))
    return self._clone_in_order(list(_order(self, memory_format)))


Tensor.clone = _clone
Tensor.contiguous = _contiguous
Tensor.is_contiguous = _is_contiguous
Tensor.layout = property(lambda self: strided, doc="The layout: always `torch.strided`.")


def _factory_options(fname, layout=None, pin_memory=False, *, device=None, pin_optional=True):
    """Check a factory's `layout=` and `pin_memory=` as PyTorch's argument parser and factory do.

    `layout` is a `torch.layout` or None (`torch.strided`, leafgrad's only layout).
    `pin_memory=True` asks for page-locked host memory, which needs an accelerator: on a CPU
    tensor it raises what `Tensor.pin_memory()` raises (PyTorch's "Found no NVIDIA driver on
    your system" where there is none); on another device it is ignored, as in PyTorch.
    `pin_optional`: whether the signature takes `pin_memory=None` (`bool?` in PyTorch's
    schema; `torch.tensor`'s is a plain bool)."""
    if layout is not None and not isinstance(layout, globals()["layout"]):
        raise TypeError(f"{fname}(): argument 'layout' must be torch.layout, not {type(layout).__name__}")
    if pin_memory is None and pin_optional:
        return
    if not isinstance(pin_memory, bool):
        raise TypeError(f"{fname}(): argument 'pin_memory' must be bool, not {type(pin_memory).__name__}")
    if pin_memory:
        from ._device import _with_default, device as _device
        from ._tensor_memory import _accelerator_error

        dev = _with_default(device)
        if dev is None or _device(dev).type == "cpu":
            raise _accelerator_error()
