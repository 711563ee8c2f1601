"""Layers: Linear, activations, Flatten, Dropout, Embedding, LayerNorm and 2-d pooling,
with PyTorch's default initialisation and reprs."""
import math

from ... import _core
from ..._grad_mode import no_grad
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .lazy import LazyModuleMixin, _uninitialised
from .module import Module

__all__ = [
    "Identity", "Linear", "ReLU", "Sigmoid", "Tanh", "LeakyReLU", "GELU", "Softplus",
    "Softmax", "LogSoftmax", "Flatten", "Dropout", "Embedding", "LayerNorm", "MaxPool2d", "AvgPool2d", "LazyLinear",
]


def _empty(shape, dtype=None, device=None):
    """A parameter's tensor before its initialisation, made on `device` (the init then runs
    there, as PyTorch's: in place on a GPU, a no-op on the meta device)."""
    from ..._factories import empty

    return empty(tuple(shape), dtype=dtype or _default_dtype(), device=device)


def _default_dtype():
    from ... import get_default_dtype

    return get_default_dtype()


class Identity(Module):
    """Returns its input; any constructor arguments are ignored.

    >>> m = torch.nn.Identity(54, unused_argument=0.1)
    >>> m
    Identity()
    >>> m(torch.tensor([1., 2.]))
    tensor([1., 2.])
    """

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Linear(Module):
    """y = x @ weight.T + bias, with weight (out_features, in_features) and bias (out_features,)
    initialised uniformly on [-1/sqrt(in_features), 1/sqrt(in_features)].

    >>> lin = torch.nn.Linear(3, 2)
    >>> lin
    Linear(in_features=3, out_features=2, bias=True)
    >>> lin.weight.shape, lin.bias.shape
    (torch.Size([2, 3]), torch.Size([2]))
    >>> lin(torch.ones(5, 3)).shape
    torch.Size([5, 2])
    """

    __constants__ = ["in_features", "out_features"]

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(_empty((out_features, in_features), dtype, device))
        if bias:
            self.bias = Parameter(_empty((out_features,), dtype, device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class LazyLinear(LazyModuleMixin, Linear):
    """A Linear layer whose in_features comes from its first input (`input.shape[-1]`); it then
    becomes a Linear, its weight and bias drawn as Linear's are.

    >>> lin = torch.nn.LazyLinear(2)
    >>> lin
    LazyLinear(in_features=0, out_features=2, bias=True)
    >>> lin.weight
    <UninitializedParameter>
    >>> lin(torch.ones(1, 5)).shape, lin
    (torch.Size([1, 2]), Linear(in_features=5, out_features=2, bias=True))
    """

    cls_to_become = Linear

    def __init__(self, out_features, bias=True, device=None, dtype=None):
        super().__init__(0, 0, False)  # no bias: it is replaced by an uninitialised one below
        self.out_features = out_features
        _uninitialised(self, bias, device, dtype)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input):
        if self.has_uninitialized_params():
            with no_grad():
                self.in_features = input.shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()
        if self.in_features == 0:
            if input.shape[-1] != self.weight.shape[-1]:
                raise AssertionError(f"The in_features inferred from input: {input.shape[-1]} is not equal to "
                                     f"in_features from self.weight: {self.weight.shape[-1]}")
            self.in_features = input.shape[-1]


class ReLU(Module):
    """max(0, x) elementwise.

    >>> m = torch.nn.ReLU()
    >>> m
    ReLU()
    >>> m(torch.tensor([-1., 0., 2.]))
    tensor([0., 0., 2.])
    """

    __constants__ = ["inplace"]

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class Sigmoid(Module):
    """1 / (1 + exp(-x)) elementwise.

    >>> torch.nn.Sigmoid()(torch.tensor([0., 100.]))
    tensor([0.5000, 1.0000])
    """

    def forward(self, input):
        return input.sigmoid()


class Tanh(Module):
    """The hyperbolic tangent, elementwise.

    >>> torch.nn.Tanh()(torch.tensor([-100., 0., 100.]))
    tensor([-1.,  0.,  1.])
    """

    def forward(self, input):
        return input.tanh()


class LeakyReLU(Module):
    """x for x >= 0, negative_slope * x otherwise.

    >>> m = torch.nn.LeakyReLU(0.1)
    >>> m
    LeakyReLU(negative_slope=0.1)
    >>> m(torch.tensor([-2., 3.]))
    tensor([-0.2000,  3.0000])
    """

    __constants__ = ["inplace", "negative_slope"]

    def __init__(self, negative_slope=1e-2, inplace=False):
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        inplace_str = ", inplace=True" if self.inplace else ""
        return f"negative_slope={self.negative_slope}{inplace_str}"


class GELU(Module):
    """x * Phi(x), Phi the standard normal CDF (`approximate='tanh'`: its tanh approximation).

    >>> m = torch.nn.GELU()
    >>> m
    GELU(approximate='none')
    >>> m(torch.tensor([-1., 0., 1.]))
    tensor([-0.1587,  0.0000,  0.8413])
    """

    __constants__ = ["approximate"]

    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        return f"approximate={repr(self.approximate)}"


class Softplus(Module):
    """log(1 + exp(beta * x)) / beta, and x itself where beta * x > threshold.

    >>> m = torch.nn.Softplus()
    >>> m
    Softplus(beta=1.0, threshold=20.0)
    >>> m(torch.tensor([0., 30.]))
    tensor([ 0.6931, 30.0000])
    """

    __constants__ = ["beta", "threshold"]

    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        return f"beta={self.beta}, threshold={self.threshold}"


class Softmax(Module):
    """Softmax along `dim`: non-negative values that sum to 1.

    >>> m = torch.nn.Softmax(dim=1)
    >>> m
    Softmax(dim=1)
    >>> m(torch.tensor([[1., 3.]]).log())
    tensor([[0.2500, 0.7500]])
    """

    __constants__ = ["dim"]

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        return f"dim={self.dim}"


class LogSoftmax(Module):
    """log(softmax(x)) along `dim`.

    >>> m = torch.nn.LogSoftmax(dim=1)
    >>> m
    LogSoftmax(dim=1)
    >>> m(torch.zeros(1, 2))
    tensor([[-0.6931, -0.6931]])
    """

    __constants__ = ["dim"]

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.log_softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        return f"dim={self.dim}"


# ---------------------------------------------------------------------------------- shape / regularisation
class Flatten(Module):
    """Flattens dims start_dim..end_dim (by default all but the batch dim) into one.

    >>> m = torch.nn.Flatten()
    >>> m
    Flatten(start_dim=1, end_dim=-1)
    >>> m(torch.ones(2, 3, 4)).shape
    torch.Size([2, 12])
    """

    __constants__ = ["start_dim", "end_dim"]

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self):
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Dropout(Module):
    """In training mode, zeroes each element with probability p and scales the rest by 1/(1-p);
    in eval mode, returns its input.

    >>> drop = torch.nn.Dropout(p=0.5)
    >>> drop
    Dropout(p=0.5, inplace=False)
    >>> drop.eval()(torch.tensor([1., 2.]))
    tensor([1., 2.])
    """

    __constants__ = ["p", "inplace"]

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"


def _padding_index(padding_idx, num_embeddings, word):
    """`padding_idx` checked against `num_embeddings` and made non-negative, with PyTorch's
    AssertionError (`Embedding` says "Padding_idx", `EmbeddingBag` "padding_idx")."""
    if padding_idx is None:
        return None
    if not -num_embeddings <= padding_idx < num_embeddings:
        raise AssertionError(f"{word} must be within num_embeddings")
    return padding_idx + num_embeddings if padding_idx < 0 else padding_idx


class Embedding(Module):
    """A lookup table: row i of `weight` (num_embeddings, embedding_dim) for each index i.

    >>> emb = torch.nn.Embedding.from_pretrained(torch.tensor([[1., 2.], [3., 4.]]))
    >>> emb
    Embedding(2, 2)
    >>> emb(torch.tensor([1, 0, 1]))
    tensor([[3., 4.],
            [1., 2.],
            [3., 4.]])
    """

    __constants__ = ["num_embeddings", "embedding_dim", "padding_idx", "max_norm", "norm_type",
                     "scale_grad_by_freq", "sparse"]

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None, norm_type=2.0,
                 scale_grad_by_freq=False, sparse=False, _weight=None, _freeze=False, device=None, dtype=None):
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.padding_idx = _padding_index(padding_idx, num_embeddings, "Padding_idx")
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        if _weight is None:
            self.weight = Parameter(_empty((num_embeddings, embedding_dim), dtype, device),
                                    requires_grad=not _freeze)
            self.reset_parameters()
        else:
            if tuple(_weight.shape) != (num_embeddings, embedding_dim):
                raise AssertionError("Shape of weight does not match num_embeddings and embedding_dim")
            self.weight = Parameter(_weight, requires_grad=not _freeze)
        self.sparse = sparse

    def reset_parameters(self):
        init.normal_(self.weight)
        self._fill_padding_idx_with_zero()

    def _fill_padding_idx_with_zero(self):
        if self.padding_idx is not None:
            with no_grad():
                self.weight[self.padding_idx].fill_(0)

    def forward(self, input):
        return F.embedding(input, self.weight, self.padding_idx, self.max_norm, self.norm_type,
                           self.scale_grad_by_freq, self.sparse)

    def extra_repr(self):
        s = "{num_embeddings}, {embedding_dim}"
        if self.padding_idx is not None:
            s += ", padding_idx={padding_idx}"
        if self.max_norm is not None:
            s += ", max_norm={max_norm}"
        if self.norm_type != 2:
            s += ", norm_type={norm_type}"
        if self.scale_grad_by_freq is not False:
            s += ", scale_grad_by_freq={scale_grad_by_freq}"
        if self.sparse is not False:
            s += ", sparse=True"
        return s.format(**self.__dict__)

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, padding_idx=None, max_norm=None, norm_type=2.0,
                        scale_grad_by_freq=False, sparse=False):
        if embeddings.dim() != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        return cls(num_embeddings=rows, embedding_dim=cols, _weight=embeddings, _freeze=freeze,
                   padding_idx=padding_idx, max_norm=max_norm, norm_type=norm_type,
                   scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)


class LayerNorm(Module):
    """Normalises over the last dims (normalized_shape) to mean 0 and variance 1, then applies
    an elementwise affine weight (ones) and bias (zeros).

    >>> ln = torch.nn.LayerNorm(2)
    >>> ln
    LayerNorm((2,), eps=1e-05, elementwise_affine=True, bias=True)
    >>> ln(torch.tensor([[1., 3.]]))
    tensor([[-1.0000,  1.0000]], grad_fn=<NativeLayerNormBackward0>)
    """

    __constants__ = ["normalized_shape", "eps", "elementwise_affine"]

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, int):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if self.elementwise_affine:
            self.weight = Parameter(_empty(self.normalized_shape, dtype, device))
            if bias:
                self.bias = Parameter(_empty(self.normalized_shape, dtype, device))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        if self.elementwise_affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input):
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return "{normalized_shape}, eps={eps}, elementwise_affine={elementwise_affine}, bias={use_bias}".format(
            **self.__dict__, use_bias=self.bias is not None
        )


# ---------------------------------------------------------------------------------- pooling
class MaxPool2d(Module):
    """The maximum over each kernel_size window (stride defaults to kernel_size).

    >>> pool = torch.nn.MaxPool2d(2)
    >>> pool
    MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)
    >>> pool(torch.arange(16.).reshape(1, 1, 4, 4))
    tensor([[[[ 5.,  7.],
              [13., 15.]]]])
    """

    __constants__ = ["kernel_size", "stride", "padding", "dilation", "return_indices", "ceil_mode"]

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def forward(self, input):
        return F.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)

    def extra_repr(self):
        return ("kernel_size={kernel_size}, stride={stride}, padding={padding}"
                ", dilation={dilation}, ceil_mode={ceil_mode}".format(**self.__dict__))


class _AvgPoolWithDivisor(Module):
    """AvgPool2d/3d's attributes (`divisor_override` too) and repr; `_pool` is the function."""

    __constants__ = ["kernel_size", "stride", "padding", "ceil_mode", "count_include_pad", "divisor_override"]

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input):
        return self._pool(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                          self.count_include_pad, self.divisor_override)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool2d(_AvgPoolWithDivisor):
    """The mean over each kernel_size window (stride defaults to kernel_size).

    >>> pool = torch.nn.AvgPool2d(2)
    >>> pool
    AvgPool2d(kernel_size=2, stride=2, padding=0)
    >>> pool(torch.arange(16.).reshape(1, 1, 4, 4))
    tensor([[[[ 2.5000,  4.5000],
              [10.5000, 12.5000]]]])
    """

    _pool = staticmethod(F.avg_pool2d)
