"""Padding layers: constant, zero, reflection, replication and circular padding of the last 1, 2
or 3 dims (`torch.nn.functional.pad`), with PyTorch's reprs and arguments."""
from itertools import repeat

from .. import functional as F
from .module import Module

__all__ = [
    "CircularPad1d", "CircularPad2d", "CircularPad3d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d",
    "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
    "ReplicationPad3d", "ZeroPad1d", "ZeroPad2d", "ZeroPad3d",
]


def _ntuple(value, n):
    """An int repeated n times; any iterable as a tuple, unchecked (PyTorch's _ntuple)."""
    if hasattr(value, "__iter__") and not isinstance(value, str):
        return tuple(value)
    return tuple(repeat(value, n))


class _PadNd(Module):
    """A padding layer: F.pad(input, self.padding, self._mode); its repr shows the padding."""

    __constants__ = ["padding"]
    _mode = "constant"
    _dims = 1

    def __init__(self, padding):
        super().__init__()
        self.padding = _ntuple(padding, 2 * self._dims)

    def forward(self, input):
        return F.pad(input, self.padding, self._mode)

    def extra_repr(self):
        return f"{self.padding}"


class _CircularPadNd(_PadNd):
    _mode = "circular"

    def _check_input_dim(self, input):
        n = self._dims
        if input.dim() != n + 1 and input.dim() != n + 2:
            raise ValueError(f"expected {n + 1}D or {n + 2}D input (got {input.dim()}D input)")

    def forward(self, input):
        self._check_input_dim(input)
        return F.pad(input, self.padding, "circular")


class CircularPad1d(_CircularPadNd):
    """Pads the last dim of (C, W) or (N, C, W) input by wrapping around: padding is an int or
    (left, right).

    >>> m = torch.nn.CircularPad1d((2, 1))
    >>> m
    CircularPad1d((2, 1))
    >>> m(torch.tensor([[[1., 2., 3.]]]))
    tensor([[[2., 3., 1., 2., 3., 1.]]])
    """

    _dims = 1

    def __init__(self, padding):
        super().__init__(padding)


class CircularPad2d(_CircularPadNd):
    """Pads the last 2 dims by wrapping around: padding is an int or (left, right, top, bottom).

    >>> m = torch.nn.CircularPad2d(1)
    >>> m
    CircularPad2d((1, 1, 1, 1))
    >>> m(torch.tensor([[[[1., 2.], [3., 4.]]]]))
    tensor([[[[4., 3., 4., 3.],
              [2., 1., 2., 1.],
              [4., 3., 4., 3.],
              [2., 1., 2., 1.]]]])
    """

    _dims = 2

    def __init__(self, padding):
        super().__init__(padding)


class CircularPad3d(_CircularPadNd):
    """Pads the last 3 dims by wrapping around: padding is an int or
    (left, right, top, bottom, front, back).

    >>> m = torch.nn.CircularPad3d((1, 0, 0, 0, 0, 1))
    >>> m
    CircularPad3d((1, 0, 0, 0, 0, 1))
    >>> m(torch.tensor([[[[[1., 2.]]]]])).shape
    torch.Size([1, 1, 2, 1, 3])
    """

    _dims = 3

    def __init__(self, padding):
        super().__init__(padding)


class _ConstantPadNd(_PadNd):
    __constants__ = ["padding", "value"]

    def __init__(self, padding, value):
        super().__init__(padding)
        self.value = value

    def forward(self, input):
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self):
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    """Pads the last dim with `value`: padding is an int or (left, right).

    >>> m = torch.nn.ConstantPad1d((1, 2), 3.5)
    >>> m
    ConstantPad1d(padding=(1, 2), value=3.5)
    >>> m(torch.tensor([[1., 2.]]))
    tensor([[3.5000, 1.0000, 2.0000, 3.5000, 3.5000]])
    """

    _dims = 1

    def __init__(self, padding, value):
        super().__init__(padding, value)


class ConstantPad2d(_ConstantPadNd):
    """Pads the last 2 dims with `value`: padding is an int or (left, right, top, bottom).

    >>> m = torch.nn.ConstantPad2d(1, -1.)
    >>> m
    ConstantPad2d(padding=(1, 1, 1, 1), value=-1.0)
    >>> m(torch.tensor([[[5.]]]))
    tensor([[[-1., -1., -1.],
             [-1.,  5., -1.],
             [-1., -1., -1.]]])
    """

    _dims = 2

    def __init__(self, padding, value):
        super().__init__(padding, value)


class ConstantPad3d(_ConstantPadNd):
    """Pads the last 3 dims with `value`: padding is an int or
    (left, right, top, bottom, front, back).

    >>> m = torch.nn.ConstantPad3d((1, 0, 0, 0, 0, 1), 2)
    >>> m
    ConstantPad3d(padding=(1, 0, 0, 0, 0, 1), value=2)
    >>> m(torch.ones(1, 1, 1, 1)).flatten()
    tensor([2., 1., 2., 2.])
    """

    _dims = 3

    def __init__(self, padding, value):
        super().__init__(padding, value)


class _ZeroPadNd(_ConstantPadNd):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class ZeroPad1d(_ZeroPadNd, ConstantPad1d):
    """Pads the last dim with zeros: padding is an int or (left, right).

    >>> m = torch.nn.ZeroPad1d((1, 2))
    >>> m
    ZeroPad1d((1, 2))
    >>> m(torch.tensor([[1., 2.]]))
    tensor([[0., 1., 2., 0., 0.]])
    """

    def __init__(self, padding):
        super().__init__(padding)


class ZeroPad2d(_ZeroPadNd, ConstantPad2d):
    """Pads the last 2 dims with zeros: padding is an int or (left, right, top, bottom).

    >>> m = torch.nn.ZeroPad2d((1, 0, 0, 1))
    >>> m
    ZeroPad2d((1, 0, 0, 1))
    >>> m(torch.tensor([[[1., 2.]]]))
    tensor([[[0., 1., 2.],
             [0., 0., 0.]]])
    """

    def __init__(self, padding):
        super().__init__(padding)


class ZeroPad3d(_ZeroPadNd, ConstantPad3d):
    """Pads the last 3 dims with zeros: padding is an int or
    (left, right, top, bottom, front, back).

    >>> m = torch.nn.ZeroPad3d(1)
    >>> m
    ZeroPad3d((1, 1, 1, 1, 1, 1))
    >>> m(torch.ones(1, 1, 1, 1)).shape
    torch.Size([1, 3, 3, 3])
    """

    def __init__(self, padding):
        super().__init__(padding)


class _ReflectionPadNd(_PadNd):
    _mode = "reflect"


class ReflectionPad1d(_ReflectionPadNd):
    """Pads the last dim with its reflection (the edge not repeated): padding is an int or
    (left, right), each less than the dim's size.

    >>> m = torch.nn.ReflectionPad1d(2)
    >>> m
    ReflectionPad1d((2, 2))
    >>> m(torch.tensor([[[1., 2., 3.]]]))
    tensor([[[3., 2., 1., 2., 3., 2., 1.]]])
    """

    _dims = 1

    def __init__(self, padding):
        super().__init__(padding)


class ReflectionPad2d(_ReflectionPadNd):
    """Pads the last 2 dims with their reflection: padding is an int or
    (left, right, top, bottom).

    >>> m = torch.nn.ReflectionPad2d((1, 1, 1, 0))
    >>> m
    ReflectionPad2d((1, 1, 1, 0))
    >>> m(torch.tensor([[[[1., 2.], [3., 4.]]]]))
    tensor([[[[4., 3., 4., 3.],
              [2., 1., 2., 1.],
              [4., 3., 4., 3.]]]])
    """

    _dims = 2

    def __init__(self, padding):
        super().__init__(padding)


class ReflectionPad3d(_ReflectionPadNd):
    """Pads the last 3 dims with their reflection: padding is an int or
    (left, right, top, bottom, front, back).

    >>> m = torch.nn.ReflectionPad3d(1)
    >>> m
    ReflectionPad3d((1, 1, 1, 1, 1, 1))
    >>> m(torch.arange(8.).reshape(1, 1, 2, 2, 2)).shape
    torch.Size([1, 1, 4, 4, 4])
    """

    _dims = 3

    def __init__(self, padding):
        super().__init__(padding)


class _ReplicationPadNd(_PadNd):
    _mode = "replicate"


class ReplicationPad1d(_ReplicationPadNd):
    """Pads the last dim by repeating its edge values: padding is an int or (left, right).

    >>> m = torch.nn.ReplicationPad1d((2, 1))
    >>> m
    ReplicationPad1d((2, 1))
    >>> m(torch.tensor([[[1., 2., 3.]]]))
    tensor([[[1., 1., 1., 2., 3., 3.]]])
    """

    _dims = 1

    def __init__(self, padding):
        super().__init__(padding)


class ReplicationPad2d(_ReplicationPadNd):
    """Pads the last 2 dims by repeating their edge values: padding is an int or
    (left, right, top, bottom).

    >>> m = torch.nn.ReplicationPad2d(1)
    >>> m
    ReplicationPad2d((1, 1, 1, 1))
    >>> m(torch.tensor([[[[1., 2.]]]]))
    tensor([[[[1., 1., 2., 2.],
              [1., 1., 2., 2.],
              [1., 1., 2., 2.]]]])
    """

    _dims = 2

    def __init__(self, padding):
        super().__init__(padding)


class ReplicationPad3d(_ReplicationPadNd):
    """Pads the last 3 dims by repeating their edge values: padding is an int or
    (left, right, top, bottom, front, back).

    >>> m = torch.nn.ReplicationPad3d((0, 1, 0, 0, 0, 0))
    >>> m
    ReplicationPad3d((0, 1, 0, 0, 0, 0))
    >>> m(torch.tensor([[[[[1., 2.]]]]]))
    tensor([[[[[1., 2., 2.]]]]])
    """

    _dims = 3

    def __init__(self, padding):
        super().__init__(padding)
