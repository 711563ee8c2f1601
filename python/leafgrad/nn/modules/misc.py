"""Bilinear, RReLU, the channel-wise and alpha dropouts (Dropout1d/2d/3d, AlphaDropout,
FeatureAlphaDropout), Fold, Unfold and ChannelShuffle, with PyTorch's initialisation, reprs and
arguments."""
import math

from .. import functional as F
from .. import init
from ..parameter import Parameter
from .layers import _empty
from .module import Module

__all__ = ["Bilinear", "RReLU", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout",
           "Fold", "Unfold", "ChannelShuffle"]


class Bilinear(Module):
    """y = x1^T A x2 + b: weight (out_features, in1_features, in2_features) and bias
    (out_features,), both initialised uniformly on [-1/sqrt(in1_features), 1/sqrt(in1_features)].

    >>> m = torch.nn.Bilinear(3, 2, 4)
    >>> m
    Bilinear(in1_features=3, in2_features=2, out_features=4, bias=True)
    >>> m.weight.shape, m.bias.shape
    (torch.Size([4, 3, 2]), torch.Size([4]))
    >>> m(torch.ones(5, 3), torch.ones(5, 2)).shape
    torch.Size([5, 4])
    """

    __constants__ = ["in1_features", "in2_features", "out_features"]

    def __init__(self, in1_features, in2_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in1_features = in1_features
        self.in2_features = in2_features
        self.out_features = out_features
        self.weight = Parameter(_empty((out_features, in1_features, in2_features), dtype, device))
        if bias:
            self.bias = Parameter(_empty((out_features,), dtype, device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        if self.in1_features <= 0:
            raise ValueError(f"in1_features must be > 0, but got (in1_features={self.in1_features})")
        bound = 1 / math.sqrt(self.weight.size(1))
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1, input2):
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self):
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")


class RReLU(Module):
    """Randomized leaky ReLU: in training, x * a for x <= 0 with a drawn uniformly from
    [lower, upper] per element; in eval, a = (lower + upper) / 2.

    >>> m = torch.nn.RReLU(0.1, 0.3)
    >>> m
    RReLU(lower=0.1, upper=0.3)
    >>> m.eval()(torch.tensor([-1., 2.]))
    tensor([-0.2000,  2.0000])
    """

    __constants__ = ["lower", "upper", "inplace"]

    def __init__(self, lower=1.0 / 8, upper=1.0 / 3, inplace=False):
        super().__init__()
        self.lower = lower
        self.upper = upper
        self.inplace = inplace

    def forward(self, input):
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self):
        inplace_str = ", inplace=True" if self.inplace else ""
        return f"lower={self.lower}, upper={self.upper}{inplace_str}"


class _DropoutNd(Module):
    __constants__ = ["p", "inplace"]

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"


class Dropout1d(_DropoutNd):
    """In training, zeroes whole channels of (N, C, L) or (C, L) input with probability p and
    scales the rest by 1/(1-p); in eval, returns its input.

    >>> m = torch.nn.Dropout1d(p=0.5)
    >>> m
    Dropout1d(p=0.5, inplace=False)
    >>> _ = torch.manual_seed(0)
    >>> m(torch.ones(1, 4, 2))
    tensor([[[0., 0.],
             [0., 0.],
             [2., 2.],
             [0., 0.]]])
    """

    def forward(self, input):
        return F.dropout1d(input, self.p, self.training, self.inplace)


class Dropout2d(_DropoutNd):
    """In training, zeroes whole channels of (N, C, H, W) input with probability p and scales
    the rest by 1/(1-p); in eval, returns its input.

    >>> m = torch.nn.Dropout2d(p=0.25)
    >>> m
    Dropout2d(p=0.25, inplace=False)
    >>> m.eval()(torch.ones(1, 2, 1, 1)).flatten()
    tensor([1., 1.])
    """

    def forward(self, input):
        return F.dropout2d(input, self.p, self.training, self.inplace)


class Dropout3d(_DropoutNd):
    """In training, zeroes whole channels of (N, C, D, H, W) or (C, D, H, W) input with
    probability p and scales the rest by 1/(1-p); in eval, returns its input.

    >>> m = torch.nn.Dropout3d(p=1.0)
    >>> m
    Dropout3d(p=1.0, inplace=False)
    >>> m(torch.ones(1, 2, 1, 1, 1)).flatten()
    tensor([0., 0.])
    """

    def forward(self, input):
        return F.dropout3d(input, self.p, self.training, self.inplace)


class AlphaDropout(_DropoutNd):
    """Alpha dropout (for SELU networks) in training; the identity in eval. `inplace` is kept
    for the repr but not used, as in PyTorch.

    >>> m = torch.nn.AlphaDropout(0.2)
    >>> m
    AlphaDropout(p=0.2, inplace=False)
    >>> m.eval()(torch.tensor([1., 2.]))
    tensor([1., 2.])
    """

    def forward(self, input):
        return F.alpha_dropout(input, self.p, self.training)


class FeatureAlphaDropout(_DropoutNd):
    """Alpha dropout of whole channels in training; the identity in eval.

    >>> m = torch.nn.FeatureAlphaDropout(0.5)
    >>> m
    FeatureAlphaDropout(p=0.5, inplace=False)
    >>> _ = torch.manual_seed(0)
    >>> m(torch.zeros(1, 4, 1)).flatten()
    tensor([-0.7792, -0.7792,  0.7792, -0.7792])
    """

    def forward(self, input):
        return F.feature_alpha_dropout(input, self.p, self.training)


class Fold(Module):
    """Sums columns of sliding blocks (N, C * prod(kernel_size), L) into a
    (N, C, *output_size) tensor (torch.nn.functional.fold).

    >>> m = torch.nn.Fold(output_size=(3, 3), kernel_size=2)
    >>> m
    Fold(output_size=(3, 3), kernel_size=2, dilation=1, padding=0, stride=1)
    >>> m(torch.ones(1, 4, 4))[0, 0]
    tensor([[1., 2., 1.],
            [2., 4., 2.],
            [1., 2., 1.]])
    """

    __constants__ = ["output_size", "kernel_size", "dilation", "padding", "stride"]

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.output_size = output_size
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input):
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return (f"output_size={self.output_size}, kernel_size={self.kernel_size}, dilation={self.dilation}, "
                f"padding={self.padding}, stride={self.stride}")


class Unfold(Module):
    """Extracts sliding blocks of (N, C, H, W) input as columns (N, C * prod(kernel_size), L)
    (torch.nn.functional.unfold).

    >>> m = torch.nn.Unfold(kernel_size=(1, 2))
    >>> m
    Unfold(kernel_size=(1, 2), dilation=1, padding=0, stride=1)
    >>> m(torch.arange(3.).reshape(1, 1, 1, 3))
    tensor([[[0., 1.],
             [1., 2.]]])
    """

    __constants__ = ["kernel_size", "dilation", "padding", "stride"]

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input):
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, padding={self.padding}, "
                f"stride={self.stride}")


class ChannelShuffle(Module):
    """Splits the channels of (N, C, *) input into `groups` groups and interleaves them.

    >>> m = torch.nn.ChannelShuffle(2)
    >>> m
    ChannelShuffle(groups=2)
    >>> m(torch.arange(4.).reshape(1, 4, 1)).flatten()
    tensor([0., 2., 1., 3.])
    """

    __constants__ = ["groups"]

    def __init__(self, groups):
        super().__init__()
        self.groups = groups

    def forward(self, input):
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self):
        return f"groups={self.groups}"
