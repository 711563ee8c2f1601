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


Tensor.contiguous = _contiguous
Tensor.is_contiguous = _is_contiguous
Tensor.layout = property(lambda self: strided, doc="The layout: always `torch.strided`.")
