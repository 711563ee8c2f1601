"""Convolution layers: Conv1d, Conv3d, ConvTranspose1d/2d/3d (Conv2d lives in layers.py) and
their Lazy forms, with PyTorch's parameters, initialisation order, reprs and checks."""
import math

from .. import functional as F
from .. import init
from ..._grad_mode import no_grad
from ..parameter import Parameter
from .layers import _empty
from .lazy import LazyModuleMixin, _uninitialised
from .module import Module

__all__ = ["Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d", "LazyConv1d",
           "LazyConv2d", "LazyConv3d", "LazyConvTranspose1d", "LazyConvTranspose2d", "LazyConvTranspose3d"]


def _ntuple(v, n):
    return tuple(v) if isinstance(v, (list, tuple)) else (v,) * n


def _reverse_repeat_tuple(t, n):
    """(a, b) -> (b, b, a, a) for n == 2: F.pad's order (last dim first)."""
    return tuple(x for x in reversed(t) for _ in range(n))


class _ConvNd(Module):
    """The shared base of the convolution layers (PyTorch's `_ConvNd`)."""

    __constants__ = ["stride", "padding", "dilation", "groups", "padding_mode", "output_padding",
                     "in_channels", "out_channels", "kernel_size"]

    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation, transposed,
                 output_padding, groups, bias, padding_mode, device=None, dtype=None):
        super().__init__()
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        valid_padding_strings = {"same", "valid"}
        if isinstance(padding, str):
            if padding not in valid_padding_strings:
                raise ValueError(f"Invalid padding string {padding!r}, should be one of {valid_padding_strings}")
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        valid_padding_modes = {"zeros", "reflect", "replicate", "circular"}
        if padding_mode not in valid_padding_modes:
            raise ValueError(
                f"padding_mode must be one of {valid_padding_modes}, but got padding_mode='{padding_mode}'")
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.dilation = dilation
        self.transposed = transposed
        self.output_padding = output_padding
        self.groups = groups
        self.padding_mode = padding_mode
        # F.pad's amounts (last dim first) for the padding modes other than 'zeros'
        if isinstance(self.padding, str):
            self._reversed_padding_repeated_twice = [0, 0] * len(kernel_size)
            if padding == "same":
                for d, k, i in zip(dilation, kernel_size, range(len(kernel_size) - 1, -1, -1)):
                    total = d * (k - 1)
                    left = total // 2
                    self._reversed_padding_repeated_twice[2 * i] = left
                    self._reversed_padding_repeated_twice[2 * i + 1] = total - left
        else:
            self._reversed_padding_repeated_twice = _reverse_repeat_tuple(self.padding, 2)
        if transposed:
            shape = (in_channels, out_channels // groups, *kernel_size)
        else:
            shape = (out_channels, in_channels // groups, *kernel_size)
        self.weight = Parameter(_empty(shape, dtype, device))
        if bias:
            self.bias = Parameter(_empty((out_channels,), dtype, device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def extra_repr(self):
        s = "{in_channels}, {out_channels}, kernel_size={kernel_size}, stride={stride}"
        if self.padding != (0,) * len(self.padding):
            s += ", padding={padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += ", dilation={dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            s += ", output_padding={output_padding}"
        if self.groups != 1:
            s += ", groups={groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += ", padding_mode={padding_mode}"
        return s.format(**self.__dict__)

    def __setstate__(self, state):
        super().__setstate__(state)
        if not hasattr(self, "padding_mode"):
            self.padding_mode = "zeros"


class Conv1d(_ConvNd):
    """1-d convolution over (N, C_in, L) or (C_in, L) input (see torch.nn.functional.conv1d);
    `padding_mode` 'zeros', 'reflect', 'replicate' or 'circular'.

    >>> conv = torch.nn.Conv1d(2, 4, kernel_size=3, padding=1)
    >>> conv
    Conv1d(2, 4, kernel_size=(3,), stride=(1,), padding=(1,))
    >>> conv.weight.shape, conv.bias.shape
    (torch.Size([4, 2, 3]), torch.Size([4]))
    >>> conv(torch.ones(5, 2, 10)).shape
    torch.Size([5, 4, 10])
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode="zeros", device=None, dtype=None):
        super().__init__(in_channels, out_channels, _ntuple(kernel_size, 1), _ntuple(stride, 1),
                         padding if isinstance(padding, str) else _ntuple(padding, 1), _ntuple(dilation, 1),
                         False, _ntuple(0, 1), groups, bias, padding_mode, device=device, dtype=dtype)

    def _conv_forward(self, input, weight, bias):
        if self.padding_mode != "zeros":
            return F.conv1d(F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode),
                             weight, bias, self.stride, _ntuple(0, 1), self.dilation, self.groups)
        return F.conv1d(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input):
        return self._conv_forward(input, self.weight, self.bias)


class Conv2d(_ConvNd):
    """2-d convolution over (N, C_in, H, W) inputs (see torch.nn.functional.conv2d);
    `padding_mode` 'zeros', 'reflect', 'replicate' or 'circular'.

    >>> conv = torch.nn.Conv2d(1, 4, kernel_size=3, padding=1)
    >>> conv
    Conv2d(1, 4, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))
    >>> conv.weight.shape
    torch.Size([4, 1, 3, 3])
    >>> conv(torch.ones(2, 1, 8, 8)).shape
    torch.Size([2, 4, 8, 8])
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode="zeros", device=None, dtype=None):
        super().__init__(in_channels, out_channels, _ntuple(kernel_size, 2), _ntuple(stride, 2),
                         padding if isinstance(padding, str) else _ntuple(padding, 2), _ntuple(dilation, 2),
                         False, _ntuple(0, 2), groups, bias, padding_mode, device=device, dtype=dtype)

    def _conv_forward(self, input, weight, bias):
        if self.padding_mode != "zeros":
            return F.conv2d(F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode),
                            weight, bias, self.stride, _ntuple(0, 2), self.dilation, self.groups)
        return F.conv2d(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input):
        return self._conv_forward(input, self.weight, self.bias)


class Conv3d(_ConvNd):
    """3-d convolution over (N, C_in, D, H, W) or (C_in, D, H, W) input (see
    torch.nn.functional.conv3d).

    >>> conv = torch.nn.Conv3d(1, 2, kernel_size=(1, 3, 3), stride=2, bias=False)
    >>> conv
    Conv3d(1, 2, kernel_size=(1, 3, 3), stride=(2, 2, 2), bias=False)
    >>> conv.weight.shape
    torch.Size([2, 1, 1, 3, 3])
    >>> conv(torch.ones(1, 1, 4, 7, 7)).shape
    torch.Size([1, 2, 2, 3, 3])
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode="zeros", device=None, dtype=None):
        super().__init__(in_channels, out_channels, _ntuple(kernel_size, 3), _ntuple(stride, 3),
                         padding if isinstance(padding, str) else _ntuple(padding, 3), _ntuple(dilation, 3),
                         False, _ntuple(0, 3), groups, bias, padding_mode, device=device, dtype=dtype)

    def _conv_forward(self, input, weight, bias):
        if self.padding_mode != "zeros":
            return F.conv3d(F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode),
                             weight, bias, self.stride, _ntuple(0, 3), self.dilation, self.groups)
        return F.conv3d(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input):
        return self._conv_forward(input, self.weight, self.bias)


class _ConvTransposeNd(_ConvNd):
    """The shared base of the transposed convolution layers (only 'zeros' padding)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation, transposed,
                 output_padding, groups, bias, padding_mode, device=None, dtype=None):
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {self.__class__.__name__}')
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, transposed,
                         output_padding, groups, bias, padding_mode, device=device, dtype=dtype)

    def _output_padding(self, input, output_size, stride, padding, kernel_size, num_spatial_dims, dilation=None):
        """The output_padding that makes forward's output `output_size` (PyTorch's checks)."""
        if output_size is None:
            return _ntuple(self.output_padding, 1)
        has_batch_dim = input.dim() == num_spatial_dims + 2
        num_non_spatial_dims = 2 if has_batch_dim else 1
        if len(output_size) == num_non_spatial_dims + num_spatial_dims:
            output_size = output_size[num_non_spatial_dims:]
        if len(output_size) != num_spatial_dims:
            raise ValueError(
                f"ConvTranspose{num_spatial_dims}D: for {input.dim()}D input, output_size must have "
                f"{num_spatial_dims} or {num_non_spatial_dims + num_spatial_dims} elements (got {len(output_size)})")
        min_sizes, max_sizes = [], []
        for d in range(num_spatial_dims):
            size = ((input.size(d + num_non_spatial_dims) - 1) * stride[d] - 2 * padding[d]
                    + (dilation[d] if dilation is not None else 1) * (kernel_size[d] - 1) + 1)
            min_sizes.append(size)
            max_sizes.append(min_sizes[d] + stride[d] - 1)
        for i in range(len(output_size)):
            if output_size[i] < min_sizes[i] or output_size[i] > max_sizes[i]:
                raise ValueError(f"requested an output size of {output_size}, but valid sizes range from {min_sizes} "
                                 f"to {max_sizes} (for an input of {input.size()[2:]})")
        return [output_size[d] - min_sizes[d] for d in range(num_spatial_dims)]

    def forward(self, input, output_size=None):
        n = len(self.kernel_size)
        if self.padding_mode != "zeros":
            raise ValueError(f"Only `zeros` padding mode is supported for ConvTranspose{n}d")
        if not isinstance(self.padding, tuple):
            raise AssertionError("self.padding must be a tuple")
        output_padding = self._output_padding(input, output_size, self.stride, self.padding, self.kernel_size, n,
                                              self.dilation)
        conv = (F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d)[n - 1]
        return conv(input, self.weight, self.bias, self.stride, self.padding, output_padding, self.groups,
                    self.dilation)


class _ConvTransposeLayer(_ConvTransposeNd):
    """The public constructor of ConvTranspose1d/2d/3d (`_n` spatial dims)."""

    _n = 1

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        n = self._n
        super().__init__(in_channels, out_channels, _ntuple(kernel_size, n), _ntuple(stride, n), _ntuple(padding, n),
                         _ntuple(dilation, n), True, _ntuple(output_padding, n), groups, bias, padding_mode,
                         device=device, dtype=dtype)


class ConvTranspose1d(_ConvTransposeLayer):
    """Transposed 1-d convolution over (N, C_in, L) or (C_in, L) input (see
    torch.nn.functional.conv_transpose1d); `forward(input, output_size=None)` picks the
    output_padding that gives `output_size`.

    >>> up = torch.nn.ConvTranspose1d(4, 2, kernel_size=3, stride=2, padding=1)
    >>> up
    ConvTranspose1d(4, 2, kernel_size=(3,), stride=(2,), padding=(1,))
    >>> up.weight.shape
    torch.Size([4, 2, 3])
    >>> up(torch.ones(1, 4, 5)).shape, up(torch.ones(1, 4, 5), output_size=[10]).shape
    (torch.Size([1, 2, 9]), torch.Size([1, 2, 10]))
    """

    _n = 1


class ConvTranspose2d(_ConvTransposeLayer):
    """Transposed 2-d convolution over (N, C_in, H, W) or (C_in, H, W) input (see
    torch.nn.functional.conv_transpose2d); `forward(input, output_size=None)` picks the
    output_padding that gives `output_size`.

    >>> up = torch.nn.ConvTranspose2d(3, 1, kernel_size=2, stride=2)
    >>> up
    ConvTranspose2d(3, 1, kernel_size=(2, 2), stride=(2, 2))
    >>> up.weight.shape
    torch.Size([3, 1, 2, 2])
    >>> up(torch.ones(1, 3, 4, 5)).shape
    torch.Size([1, 1, 8, 10])
    """

    _n = 2


class ConvTranspose3d(_ConvTransposeLayer):
    """Transposed 3-d convolution over (N, C_in, D, H, W) or (C_in, D, H, W) input (see
    torch.nn.functional.conv_transpose3d); `forward(input, output_size=None)` picks the
    output_padding that gives `output_size`.

    >>> up = torch.nn.ConvTranspose3d(2, 1, kernel_size=(1, 2, 2), stride=2)
    >>> up
    ConvTranspose3d(2, 1, kernel_size=(1, 2, 2), stride=(2, 2, 2))
    >>> up.weight.shape
    torch.Size([2, 1, 1, 2, 2])
    >>> up(torch.ones(1, 2, 3, 4, 5)).shape, up(torch.ones(1, 2, 3, 4, 5), output_size=[6, 9, 11]).shape
    (torch.Size([1, 1, 5, 8, 10]), torch.Size([1, 1, 6, 9, 11]))
    """

    _n = 3


# ---------------------------------------------------------------------------------- lazy forms
class _LazyConvXdMixin(LazyModuleMixin):
    """What the Lazy convolutions share: in_channels from the first input, then the weight and
    bias materialised and drawn by the convolution's reset_parameters."""

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()

    def initialize_parameters(self, input, *args, **kwargs):
        if self.has_uninitialized_params():
            self.in_channels = self._get_in_channels(input)
            if self.in_channels % self.groups != 0:
                raise ValueError("in_channels must be divisible by groups")
            with no_grad():
                if self.transposed:
                    self.weight.materialize((self.in_channels, self.out_channels // self.groups, *self.kernel_size))
                else:
                    self.weight.materialize((self.out_channels, self.in_channels // self.groups, *self.kernel_size))
                if self.bias is not None:
                    self.bias.materialize((self.out_channels,))
                self.reset_parameters()

    def _get_in_channels(self, input):
        unbatched = self._get_num_spatial_dims() + 1
        if input.dim() not in (unbatched, unbatched + 1):
            raise RuntimeError(f"Expected {unbatched}D (unbatched) or {unbatched + 1}D (batched) input to "
                               f"{self.__class__.__name__}, but got input of size: {input.shape}")
        return input.shape[1] if input.dim() == unbatched + 1 else input.shape[0]

    def _get_num_spatial_dims(self):
        return len(self.kernel_size)


class _LazyConvNd(_LazyConvXdMixin):
    def __init__(self, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", device=None, dtype=None):
        # in_channels 0 and no bias until the first input: both are replaced by uninitialised ones
        super().__init__(0, 0, kernel_size, stride, padding, dilation, groups, False, padding_mode, device=device,
                         dtype=dtype)
        self.out_channels = out_channels
        _uninitialised(self, bias, device, dtype)


class _LazyConvTransposeNd(_LazyConvXdMixin):
    def __init__(self, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1, bias=True,
                 dilation=1, padding_mode="zeros", device=None, dtype=None):
        super().__init__(0, 0, kernel_size, stride, padding, output_padding, groups, False, dilation, padding_mode,
                         device=device, dtype=dtype)
        self.out_channels = out_channels
        _uninitialised(self, bias, device, dtype)


class LazyConv1d(_LazyConvNd, Conv1d):
    """A Conv1d whose in_channels comes from its first input; it then becomes a Conv1d.

    >>> conv = torch.nn.LazyConv1d(4, 3)
    >>> conv
    LazyConv1d(0, 4, kernel_size=(3,), stride=(1,))
    >>> conv(torch.ones(2, 5, 8)).shape, conv.weight.shape, type(conv).__name__
    (torch.Size([2, 4, 6]), torch.Size([4, 5, 3]), 'Conv1d')
    """

    cls_to_become = Conv1d


class LazyConv2d(_LazyConvNd, Conv2d):
    """A Conv2d whose in_channels comes from its first input; it then becomes a Conv2d.

    >>> conv = torch.nn.LazyConv2d(4, 3, padding=1, bias=False)
    >>> conv
    LazyConv2d(0, 4, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1), bias=False)
    >>> conv(torch.ones(3, 5, 5)).shape, conv.weight.shape
    (torch.Size([4, 5, 5]), torch.Size([4, 3, 3, 3]))
    """

    cls_to_become = Conv2d


class LazyConv3d(_LazyConvNd, Conv3d):
    """A Conv3d whose in_channels comes from its first input; it then becomes a Conv3d.

    >>> conv = torch.nn.LazyConv3d(2, 1, groups=2)
    >>> conv(torch.ones(1, 4, 2, 2, 2)).shape, conv
    (torch.Size([1, 2, 2, 2, 2]), Conv3d(4, 2, kernel_size=(1, 1, 1), stride=(1, 1, 1), groups=2))
    """

    cls_to_become = Conv3d


class LazyConvTranspose1d(_LazyConvTransposeNd, ConvTranspose1d):
    """A ConvTranspose1d whose in_channels comes from its first input; it then becomes a
    ConvTranspose1d.

    >>> up = torch.nn.LazyConvTranspose1d(2, 3, stride=2)
    >>> up
    LazyConvTranspose1d(0, 2, kernel_size=(3,), stride=(2,))
    >>> up(torch.ones(1, 4, 5)).shape, up.weight.shape
    (torch.Size([1, 2, 11]), torch.Size([4, 2, 3]))
    """

    cls_to_become = ConvTranspose1d


class LazyConvTranspose2d(_LazyConvTransposeNd, ConvTranspose2d):
    """A ConvTranspose2d whose in_channels comes from its first input; it then becomes a
    ConvTranspose2d.

    >>> up = torch.nn.LazyConvTranspose2d(1, 2, stride=2)
    >>> up(torch.ones(1, 3, 4, 5)).shape, up
    (torch.Size([1, 1, 8, 10]), ConvTranspose2d(3, 1, kernel_size=(2, 2), stride=(2, 2)))
    """

    cls_to_become = ConvTranspose2d


class LazyConvTranspose3d(_LazyConvTransposeNd, ConvTranspose3d):
    """A ConvTranspose3d whose in_channels comes from its first input; it then becomes a
    ConvTranspose3d.

    >>> up = torch.nn.LazyConvTranspose3d(2, (1, 2, 2), stride=2, bias=False)
    >>> up(torch.ones(1, 3, 2, 2, 2)).shape, up.weight.shape
    (torch.Size([1, 2, 3, 4, 4]), torch.Size([3, 2, 1, 2, 2]))
    """

    cls_to_become = ConvTranspose3d
