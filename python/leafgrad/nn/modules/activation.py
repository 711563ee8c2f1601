"""More activations as modules: SiLU, ELU, SELU, CELU, Mish, Hardswish, Hardsigmoid,
LogSigmoid, GLU, PReLU, Hardshrink, Softshrink, Hardtanh, ReLU6, Threshold, Softsign, Tanhshrink,
Softmin, Softmax2d, and Unflatten (PyTorch's reprs and arguments)."""
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .layers import _empty
from .module import Module

__all__ = ["SiLU", "ELU", "SELU", "CELU", "Mish", "Hardswish", "Hardsigmoid", "LogSigmoid", "GLU", "PReLU",
           "Hardshrink", "Softshrink", "Hardtanh", "ReLU6", "Threshold", "Softsign", "Tanhshrink", "Softmin",
           "Softmax2d", "Unflatten"]


class _InplaceActivation(Module):
    """An activation whose only argument is `inplace` (shown by its repr unless `_quiet`, as
    PyTorch's Hardswish and Hardsigmoid do not show it)."""

    __constants__ = ["inplace"]
    _quiet = False

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def extra_repr(self):
        return "inplace=True" if self.inplace and not self._quiet else ""


class SiLU(_InplaceActivation):
    """x * sigmoid(x).

    >>> m = torch.nn.SiLU()
    >>> m
    SiLU()
    >>> m(torch.tensor([-1., 0., 2.]))
    tensor([-0.2689,  0.0000,  1.7616])
    """

    def forward(self, input):
        return F.silu(input, inplace=self.inplace)


class ELU(Module):
    """x for x > 0, alpha * (exp(x) - 1) otherwise.

    >>> m = torch.nn.ELU(alpha=0.5)
    >>> m
    ELU(alpha=0.5)
    >>> m(torch.tensor([-1., 2.]))
    tensor([-0.3161,  2.0000])
    """

    __constants__ = ["alpha", "inplace"]

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class SELU(_InplaceActivation):
    """scale * elu(x, alpha) with SELU's constants.

    >>> torch.nn.SELU()(torch.tensor([-1., 2.]))
    tensor([-1.1113,  2.1014])
    """

    def forward(self, input):
        return F.selu(input, self.inplace)


class CELU(Module):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1)).

    >>> m = torch.nn.CELU(0.5)
    >>> m
    CELU(alpha=0.5)
    >>> m(torch.tensor([-1., 2.]))
    tensor([-0.4323,  2.0000])
    """

    __constants__ = ["alpha", "inplace"]

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return F.celu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class Mish(_InplaceActivation):
    """x * tanh(softplus(x)).

    >>> torch.nn.Mish()(torch.tensor([-1., 2.]))
    tensor([-0.3034,  1.9440])
    """

    def forward(self, input):
        return F.mish(input, inplace=self.inplace)


class Hardswish(_InplaceActivation):
    """x * relu6(x + 3) / 6 (its repr shows no `inplace`, as PyTorch's).

    >>> torch.nn.Hardswish(inplace=True)
    Hardswish()
    """

    _quiet = True

    def forward(self, input):
        return F.hardswish(input, self.inplace)


class Hardsigmoid(_InplaceActivation):
    """relu6(x + 3) / 6 (its repr shows no `inplace`, as PyTorch's).

    >>> torch.nn.Hardsigmoid()(torch.tensor([1.]))
    tensor([0.6667])
    """

    _quiet = True

    def forward(self, input):
        return F.hardsigmoid(input, self.inplace)


class LogSigmoid(Module):
    """log(sigmoid(x)).

    >>> torch.nn.LogSigmoid()(torch.tensor([0.]))
    tensor([-0.6931])
    """

    def forward(self, input):
        return F.logsigmoid(input)


class GLU(Module):
    """a * sigmoid(b) for the halves a, b of the input along `dim`.

    >>> m = torch.nn.GLU()
    >>> m
    GLU(dim=-1)
    >>> m(torch.tensor([1., 2., 0., 3.]))
    tensor([0.5000, 1.9051])
    """

    __constants__ = ["dim"]

    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.glu(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class PReLU(Module):
    """x where x > 0, weight * x elsewhere; `num_parameters` learnt slopes (one, or one per
    channel), each starting at `init`.

    >>> m = torch.nn.PReLU(2)
    >>> m
    PReLU(num_parameters=2)
    >>> m(torch.tensor([[-1., -1.], [2., 2.]]))
    tensor([[-0.2500, -0.2500],
            [ 2.0000,  2.0000]], grad_fn=<PreluKernelBackward0>)
    """

    __constants__ = ["num_parameters"]

    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        self.num_parameters = num_parameters
        super().__init__()
        self.init = init
        self.weight = Parameter(_empty((num_parameters,), dtype, device))
        self.reset_parameters()

    def reset_parameters(self):
        init.constant_(self.weight, self.init)

    def forward(self, input):
        return F.prelu(input, self.weight)

    def extra_repr(self):
        return f"num_parameters={self.num_parameters}"


class Hardshrink(Module):
    """0 where -lambd <= x <= lambd, x elsewhere.

    >>> m = torch.nn.Hardshrink()
    >>> m
    Hardshrink(0.5)
    >>> m(torch.tensor([-1., 0.3]))
    tensor([-1.,  0.])
    """

    __constants__ = ["lambd"]

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return F.hardshrink(input, self.lambd)

    def extra_repr(self):
        return f"{self.lambd}"


class Softshrink(Module):
    """x - lambd above lambd, x + lambd below -lambd, 0 between.

    >>> m = torch.nn.Softshrink(0.3)
    >>> m
    Softshrink(0.3)
    >>> m(torch.tensor([-1., 0.2]))
    tensor([-0.7000,  0.0000])
    """

    __constants__ = ["lambd"]

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return F.softshrink(input, self.lambd)

    def extra_repr(self):
        return str(self.lambd)


class Hardtanh(Module):
    """x clamped to [min_val, max_val].

    >>> m = torch.nn.Hardtanh(-2, 2)
    >>> m
    Hardtanh(min_val=-2, max_val=2)
    >>> m(torch.tensor([-3., 1., 3.]))
    tensor([-2.,  1.,  2.])
    """

    __constants__ = ["min_val", "max_val", "inplace"]

    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False):
        super().__init__()
        if not max_val > min_val:
            raise AssertionError(f"max_val ({max_val}) must be greater than min_val ({min_val})")
        self.min_val = min_val
        self.max_val = max_val
        self.inplace = inplace

    def forward(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self):
        return f"min_val={self.min_val}, max_val={self.max_val}" + (", inplace=True" if self.inplace else "")


class ReLU6(Hardtanh):
    """min(max(0, x), 6).

    >>> m = torch.nn.ReLU6()
    >>> m
    ReLU6()
    >>> m(torch.tensor([-1., 3., 9.]))
    tensor([0., 3., 6.])
    """

    def __init__(self, inplace=False):
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class Threshold(Module):
    """x where x > threshold, else value.

    >>> m = torch.nn.Threshold(0.1, 20.0)
    >>> m
    Threshold(threshold=0.1, value=20.0)
    >>> m(torch.tensor([0.0, 0.5]))
    tensor([20.0000,  0.5000])
    """

    __constants__ = ["threshold", "value", "inplace"]

    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace

    def forward(self, input):
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self):
        return f"threshold={self.threshold}, value={self.value}" + (", inplace=True" if self.inplace else "")


class Softsign(Module):
    """x / (1 + |x|).

    >>> torch.nn.Softsign()(torch.tensor([1.0]))
    tensor([0.5000])
    """

    def forward(self, input):
        return F.softsign(input)


class Tanhshrink(Module):
    """x - tanh(x).

    >>> torch.nn.Tanhshrink()
    Tanhshrink()
    """

    def forward(self, input):
        return F.tanhshrink(input)


class Softmin(Module):
    """softmax(-x) along `dim`.

    >>> m = torch.nn.Softmin(dim=1)
    >>> m
    Softmin(dim=1)
    >>> m(torch.tensor([[1., 2.]]))
    tensor([[0.7311, 0.2689]])
    """

    __constants__ = ["dim"]

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmin(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        return f"dim={self.dim}"


class Softmax2d(Module):
    """softmax over the channels (dim -3) of (N, C, H, W) or (C, H, W) input.

    >>> torch.nn.Softmax2d()(torch.zeros(2, 1, 1)).flatten()
    tensor([0.5000, 0.5000])
    """

    def forward(self, input):
        if input.dim() not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D instead")
        return F.softmax(input, -3, _stacklevel=5)


class Unflatten(Module):
    """Splits dim `dim` into `unflattened_size` (Flatten's inverse).

    >>> m = torch.nn.Unflatten(1, (2, 5))
    >>> m
    Unflatten(dim=1, unflattened_size=(2, 5))
    >>> m(torch.zeros(3, 10)).shape
    torch.Size([3, 2, 5])
    """

    __constants__ = ["dim", "unflattened_size"]

    def __init__(self, dim, unflattened_size):
        super().__init__()
        if not isinstance(unflattened_size, (tuple, list)):
            raise TypeError(f"unflattened_size must be a tuple of ints, but found type {type(unflattened_size).__name__}")
        self.dim = dim
        self.unflattened_size = unflattened_size

    def forward(self, input):
        return input.unflatten(self.dim, self.unflattened_size)

    def extra_repr(self):
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"
