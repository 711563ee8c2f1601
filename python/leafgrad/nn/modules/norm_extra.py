"""RMSNorm and LocalResponseNorm: the modules over `F.rms_norm` and `F.local_response_norm`."""
import numbers

from .. import functional as F
from .. import init
from ..parameter import Parameter
from .layers import _empty
from .module import Module

__all__ = ["RMSNorm", "LocalResponseNorm"]


class RMSNorm(Module):
    """Root-mean-square normalisation over the last dims (normalized_shape), then an
    elementwise weight (ones at first). `eps=None` uses the machine epsilon of the computation
    type, as `F.rms_norm`.

    >>> m = torch.nn.RMSNorm(2)
    >>> m
    RMSNorm((2,), eps=None, elementwise_affine=True)
    >>> m(torch.tensor([[3., 4.]]))
    tensor([[0.8485, 1.1314]], grad_fn=<MulBackward0>)
    """

    __constants__ = ["normalized_shape", "eps", "elementwise_affine"]

    def __init__(self, normalized_shape, eps=None, elementwise_affine=True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if self.elementwise_affine:
            self.weight = Parameter(_empty(self.normalized_shape, dtype, device))
        else:
            self.register_parameter("weight", None)
        self.reset_parameters()

    def reset_parameters(self):
        if self.elementwise_affine:
            init.ones_(self.weight)

    def forward(self, x):
        return F.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self):
        return "{normalized_shape}, eps={eps}, elementwise_affine={elementwise_affine}".format(**self.__dict__)


class LocalResponseNorm(Module):
    """Normalises each element by its `size` neighbouring channels (AlexNet's LRN):
    b = a / (k + alpha/size · Σ a²) ** beta.

    >>> m = torch.nn.LocalResponseNorm(2)
    >>> m
    LocalResponseNorm(2, alpha=0.0001, beta=0.75, k=1.0)
    >>> m(torch.ones(1, 2, 1))
    tensor([[[1.0000],
             [0.9999]]])
    """

    __constants__ = ["size", "alpha", "beta", "k"]

    def __init__(self, size, alpha=1e-4, beta=0.75, k=1.0):
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input):
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self):
        return "{size}, alpha={alpha}, beta={beta}, k={k}".format(**self.__dict__)
