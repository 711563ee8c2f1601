"""Pooling layers beyond MaxPool2d/AvgPool2d (which live in layers.py): MaxPool1d/3d,
AvgPool1d/3d, the adaptive poolings, fractional max pooling, LPPool1d/2d and MaxUnpool1d/2d/3d,
with PyTorch's attributes and reprs."""
from .. import functional as F
from .layers import AvgPool2d, MaxPool2d, _AvgPoolWithDivisor
from .module import Module

__all__ = [  # MaxPool2d and AvgPool2d are layers.py's
    "MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d", "AdaptiveAvgPool1d",
    "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AdaptiveMaxPool3d",
    "FractionalMaxPool2d", "FractionalMaxPool3d", "LPPool1d", "LPPool2d", "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d",
]


def _ntuple(v, n):
    return tuple(v) if isinstance(v, (list, tuple)) else (v,) * n


class _MaxPoolNd(Module):
    __constants__ = ["kernel_size", "stride", "padding", "dilation", "return_indices", "ceil_mode"]

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def extra_repr(self):
        return ("kernel_size={kernel_size}, stride={stride}, padding={padding}"
                ", dilation={dilation}, ceil_mode={ceil_mode}".format(**self.__dict__))


class MaxPool1d(_MaxPoolNd):
    """The maximum over each kernel_size window along the last dim of (N, C, L) or (C, L) input
    (see torch.nn.functional.max_pool1d); `return_indices=True` also returns the positions.

    >>> pool = torch.nn.MaxPool1d(2)
    >>> pool
    MaxPool1d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)
    >>> pool(torch.tensor([[[1., 5., 2., 0., 3.]]]))
    tensor([[[5., 2.]]])
    """

    def forward(self, input):
        return F.max_pool1d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class MaxPool3d(_MaxPoolNd):
    """The maximum over each kernel_size window of the last three dims of (N, C, D, H, W) or
    (C, D, H, W) input (see torch.nn.functional.max_pool3d); `return_indices=True` also returns
    the flat positions.

    >>> pool = torch.nn.MaxPool3d(2, stride=1)
    >>> pool
    MaxPool3d(kernel_size=2, stride=1, padding=0, dilation=1, ceil_mode=False)
    >>> pool(torch.arange(8.).reshape(1, 1, 2, 2, 2))
    tensor([[[[[7.]]]]])
    """

    def forward(self, input):
        return F.max_pool3d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class _AvgPoolNd(Module):
    __constants__ = ["kernel_size", "stride", "padding", "ceil_mode", "count_include_pad"]

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool1d(_AvgPoolNd):
    """The mean over each kernel_size window along the last dim of (N, C, L) or (C, L) input
    (see torch.nn.functional.avg_pool1d).

    >>> pool = torch.nn.AvgPool1d(3, stride=2, padding=1)
    >>> pool
    AvgPool1d(kernel_size=(3,), stride=(2,), padding=(1,))
    >>> pool(torch.tensor([[[1., 2., 3., 4., 5.]]]))
    tensor([[[1., 3., 3.]]])
    """

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        super().__init__()
        self.kernel_size = _ntuple(kernel_size, 1)
        self.stride = _ntuple(stride if stride is not None else kernel_size, 1)
        self.padding = _ntuple(padding, 1)
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad

    def forward(self, input):
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad)


class AvgPool3d(_AvgPoolWithDivisor):
    """The mean over each kernel_size window of the last three dims of (N, C, D, H, W) or
    (C, D, H, W) input (see torch.nn.functional.avg_pool3d).

    >>> pool = torch.nn.AvgPool3d(2, padding=1, count_include_pad=False)
    >>> pool
    AvgPool3d(kernel_size=2, stride=2, padding=1)
    >>> pool(torch.arange(8.).reshape(1, 1, 2, 2, 2))[0, 0, 1]
    tensor([[4., 5.],
            [6., 7.]])
    """

    _pool = staticmethod(F.avg_pool3d)


class _AdaptiveAvgPoolNd(Module):
    __constants__ = ["output_size"]

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def extra_repr(self):
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(_AdaptiveAvgPoolNd):
    """Average pooling to `output_size` along the last dim (see
    torch.nn.functional.adaptive_avg_pool1d).

    >>> pool = torch.nn.AdaptiveAvgPool1d(2)
    >>> pool
    AdaptiveAvgPool1d(output_size=2)
    >>> pool(torch.tensor([[[1., 2., 3., 4., 5.]]]))
    tensor([[[2., 4.]]])
    """

    def forward(self, input):
        return F.adaptive_avg_pool1d(input, self.output_size)


class AdaptiveAvgPool2d(_AdaptiveAvgPoolNd):
    """Average pooling to `output_size` (an int, or a pair whose None entries keep the input's
    size) over the last two dims (see torch.nn.functional.adaptive_avg_pool2d).

    >>> pool = torch.nn.AdaptiveAvgPool2d((1, 1))
    >>> pool
    AdaptiveAvgPool2d(output_size=(1, 1))
    >>> pool(torch.arange(8.).reshape(1, 2, 2, 2))
    tensor([[[[1.5000]],
    <BLANKLINE>
             [[5.5000]]]])
    """

    def forward(self, input):
        return F.adaptive_avg_pool2d(input, self.output_size)


class AdaptiveAvgPool3d(_AdaptiveAvgPoolNd):
    """Average pooling to `output_size` (an int, or a triple whose None entries keep the input's
    size) over the last three dims (see torch.nn.functional.adaptive_avg_pool3d).

    >>> pool = torch.nn.AdaptiveAvgPool3d((1, None, 1))
    >>> pool
    AdaptiveAvgPool3d(output_size=(1, None, 1))
    >>> pool(torch.arange(8.).reshape(1, 2, 2, 2))
    tensor([[[[2.5000],
              [4.5000]]]])
    """

    def forward(self, input):
        return F.adaptive_avg_pool3d(input, self.output_size)


class _AdaptiveMaxPoolNd(Module):
    __constants__ = ["output_size", "return_indices"]

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size = output_size
        self.return_indices = return_indices

    def extra_repr(self):
        return f"output_size={self.output_size}"


class AdaptiveMaxPool1d(_AdaptiveMaxPoolNd):
    """Max pooling to `output_size` along the last dim (see
    torch.nn.functional.adaptive_max_pool1d).

    >>> pool = torch.nn.AdaptiveMaxPool1d(2, return_indices=True)
    >>> pool
    AdaptiveMaxPool1d(output_size=2)
    >>> pool(torch.tensor([[[1., 5., 2., 0., 3.]]]))
    (tensor([[[5., 3.]]]), tensor([[[1, 4]]]))
    """

    def forward(self, input):
        return F.adaptive_max_pool1d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool2d(_AdaptiveMaxPoolNd):
    """Max pooling to `output_size` over the last two dims (see
    torch.nn.functional.adaptive_max_pool2d).

    >>> pool = torch.nn.AdaptiveMaxPool2d((1, None))
    >>> pool
    AdaptiveMaxPool2d(output_size=(1, None))
    >>> pool(torch.tensor([[[[1., 5., 2.], [3., 4., 8.]]]]))
    tensor([[[[3., 5., 8.]]]])
    """

    def forward(self, input):
        return F.adaptive_max_pool2d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool3d(_AdaptiveMaxPoolNd):
    """Max pooling to `output_size` over the last three dims (see
    torch.nn.functional.adaptive_max_pool3d).

    >>> pool = torch.nn.AdaptiveMaxPool3d(1, return_indices=True)
    >>> pool
    AdaptiveMaxPool3d(output_size=1)
    >>> pool(torch.arange(8.).reshape(1, 2, 2, 2))
    (tensor([[[[7.]]]]), tensor([[[[7]]]]))
    """

    def forward(self, input):
        return F.adaptive_max_pool3d(input, self.output_size, self.return_indices)


class _FractionalMaxPoolNd(Module):
    """The shared constructor of FractionalMaxPool2d/3d (PyTorch's checks and attributes)."""

    __constants__ = ["kernel_size", "return_indices", "output_size", "output_ratio"]
    _n = 2

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False, _random_samples=None):
        super().__init__()
        n = self._n
        self.kernel_size = _ntuple(kernel_size, n)
        self.return_indices = return_indices
        self.register_buffer("_random_samples", _random_samples)
        self.output_size = _ntuple(output_size, n) if output_size is not None else None
        self.output_ratio = _ntuple(output_ratio, n) if output_ratio is not None else None
        if output_size is None and output_ratio is None:
            raise ValueError(f"FractionalMaxPool{n}d requires specifying either an output size, or a pooling ratio")
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        if self.output_ratio is not None and not all(0 < r < 1 for r in self.output_ratio):
            raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")

    def forward(self, input):
        pool = F.fractional_max_pool2d if self._n == 2 else F.fractional_max_pool3d
        return pool(input, self.kernel_size, self.output_size, self.output_ratio, self.return_indices,
                    _random_samples=self._random_samples)


class FractionalMaxPool2d(_FractionalMaxPoolNd):
    """Fractional max pooling over the last two dims (see
    torch.nn.functional.fractional_max_pool2d): `output_size` or `output_ratio`; each forward
    draws new random steps unless `_random_samples` (N, C, 2) is given.

    >>> pool = torch.nn.FractionalMaxPool2d(2, output_size=2, _random_samples=torch.tensor([[[0.3, 0.7]]]))
    >>> pool
    FractionalMaxPool2d()
    >>> pool(torch.arange(25.).reshape(1, 1, 5, 5))
    tensor([[[[ 6.,  9.],
              [21., 24.]]]])
    """


class FractionalMaxPool3d(_FractionalMaxPoolNd):
    """Fractional max pooling over the last three dims (see
    torch.nn.functional.fractional_max_pool3d); `_random_samples` is (N, C, 3).

    >>> pool = torch.nn.FractionalMaxPool3d(2, output_ratio=0.5, return_indices=True,
    ...                                     _random_samples=torch.zeros(1, 1, 3))
    >>> pool(torch.arange(64.).reshape(1, 1, 4, 4, 4))[1].flatten()
    tensor([21, 23, 29, 31, 53, 55, 61, 63])
    """

    _n = 3


class _LPPoolNd(Module):
    __constants__ = ["norm_type", "kernel_size", "stride", "ceil_mode"]

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        if norm_type == 0:
            raise ValueError(f"norm_type must be a non-zero value, but got {norm_type}")
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode

    def extra_repr(self):
        return ("norm_type={norm_type}, kernel_size={kernel_size}, stride={stride}, "
                "ceil_mode={ceil_mode}".format(**self.__dict__))


class LPPool1d(_LPPoolNd):
    """(sum over each window of x**p) ** (1/p) along the last dim (see
    torch.nn.functional.lp_pool1d).

    >>> pool = torch.nn.LPPool1d(2, 2)
    >>> pool
    LPPool1d(norm_type=2, kernel_size=2, stride=None, ceil_mode=False)
    >>> pool(torch.tensor([[[3., 4., 1., 1.]]]))
    tensor([[[5.0000, 1.4142]]])
    """

    def forward(self, input):
        return F.lp_pool1d(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)


class LPPool2d(_LPPoolNd):
    """(sum over each window of x**p) ** (1/p) over the last two dims (see
    torch.nn.functional.lp_pool2d).

    >>> pool = torch.nn.LPPool2d(1, (1, 2))
    >>> pool
    LPPool2d(norm_type=1, kernel_size=(1, 2), stride=None, ceil_mode=False)
    >>> pool(torch.tensor([[[[3., 4.], [1., 1.]]]]))
    tensor([[[[7.],
              [2.]]]])
    """

    def forward(self, input):
        return F.lp_pool2d(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)


class _MaxUnpoolNd(Module):
    _n = 1

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        self.kernel_size = _ntuple(kernel_size, self._n)
        self.stride = _ntuple(stride if (stride is not None) else kernel_size, self._n)
        self.padding = _ntuple(padding, self._n)

    def forward(self, input, indices, output_size=None):
        unpool = (F.max_unpool1d, F.max_unpool2d, F.max_unpool3d)[self._n - 1]
        return unpool(input, indices, self.kernel_size, self.stride, self.padding, output_size)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool1d(_MaxUnpoolNd):
    """MaxPool1d's partial inverse: values put back at their indices, zeros elsewhere (see
    torch.nn.functional.max_unpool1d).

    >>> pool, unpool = torch.nn.MaxPool1d(2, return_indices=True), torch.nn.MaxUnpool1d(2)
    >>> unpool
    MaxUnpool1d(kernel_size=(2,), stride=(2,), padding=(0,))
    >>> unpool(*pool(torch.tensor([[[1., 5., 3., 2.]]])))
    tensor([[[0., 5., 3., 0.]]])
    """


class MaxUnpool2d(_MaxUnpoolNd):
    """MaxPool2d's partial inverse: values put back at their flat indices h * W + w, zeros
    elsewhere (see torch.nn.functional.max_unpool2d).

    >>> unpool = torch.nn.MaxUnpool2d(2)
    >>> unpool
    MaxUnpool2d(kernel_size=(2, 2), stride=(2, 2), padding=(0, 0))
    >>> unpool(torch.tensor([[[[7.]]]]), torch.tensor([[[[2]]]]))
    tensor([[[[0., 0.],
              [7., 0.]]]])
    """

    _n = 2


class MaxUnpool3d(_MaxUnpoolNd):
    """MaxPool3d's partial inverse: values put back at their flat indices (d * H + h) * W + w,
    zeros elsewhere (see torch.nn.functional.max_unpool3d).

    >>> unpool = torch.nn.MaxUnpool3d(2)
    >>> unpool
    MaxUnpool3d(kernel_size=(2, 2, 2), stride=(2, 2, 2), padding=(0, 0, 0))
    >>> unpool(torch.tensor([[[[[7.]]]]]), torch.tensor([[[[[5]]]]])).flatten()
    tensor([0., 0., 0., 0., 0., 7., 0., 0.])
    """

    _n = 3
