"""The Python faces of core ops that take Python-level arguments (activations with `inplace`,
the BCE losses, diag/tril/triu/trace/roll/flip, complex): PyTorch's argument checks, then one
call into the core, where each op records its node and its derivative formula. (These were
composites re-run by a nested backward pass; none is left here.)"""
from . import _core
from ._core import Tensor


def _activation(x, inplace, fn):
    """`fn(x)`, or written into x (`inplace=True`; fn is then told so, for the in-place node)."""
    if inplace:
        return _core._inplace_apply(x, lambda s: fn(s, True), [])
    return fn(x, False)


# The activations are ops of the core with their own derivative formulas (src/ops/activation.rs).
def leaky_relu(x, negative_slope=0.01, inplace=False):
    return _activation(x, inplace, lambda s, ip: _core._leaky_relu(s, float(negative_slope), ip))


def silu(x, inplace=False):
    return _activation(x, inplace, lambda s, ip: _core._silu(s))


def elu(x, alpha=1.0, inplace=False):
    return _activation(x, inplace, lambda s, ip: _core._elu(s, float(alpha), ip))


def selu(x, inplace=False):
    return _activation(x, inplace, lambda s, ip: _core._selu(s, ip))


def celu(x, alpha=1.0, inplace=False):
    return _activation(x, inplace, lambda s, ip: _core._celu(s, float(alpha), ip))


def mish(x, inplace=False):
    return _activation(x, inplace, lambda s, ip: _core._mish(s))


def hardswish(x, inplace=False):
    return _activation(x, inplace, lambda s, ip: _core._hardswish(s))


def hardsigmoid(x, inplace=False):
    return _activation(x, inplace, lambda s, ip: _core._hardsigmoid(s))


def hardtanh(x, min_val=-1.0, max_val=1.0, inplace=False):
    # gradient 1 strictly inside (min_val, max_val) and through NaN, as PyTorch's
    return _activation(x, inplace, lambda s, ip: _core._hardtanh(s, float(min_val), float(max_val)))


def softplus(x, beta=1.0, threshold=20.0):
    return _core._softplus(x, float(beta), float(threshold))


def gelu(x, approximate="none"):
    return _core._gelu(x, approximate)


def div_scalar(x, s):
    """`x / s` as ATen's div(Tensor, Scalar) records it (DivBackward1)."""
    return _core._div_scalar(x, float(s))


def binary_cross_entropy(p, y, weight=None, reduction="mean"):
    return _core._binary_cross_entropy(p, y, weight, reduction)


def binary_cross_entropy_with_logits(x, y, weight=None, reduction="mean", pos_weight=None):
    return _core._binary_cross_entropy_with_logits(x, y, weight, pos_weight, reduction)


def diag(input, diagonal=0):
    """A diagonal matrix from a vector, or the diagonal of a matrix.

    >>> torch.diag(torch.tensor([1., 2.]))
    tensor([[1., 0.],
            [0., 2.]])
    """
    return _core._diag(input, diagonal)


def trace(input):
    """The sum of the diagonal of a matrix (TraceBackward0).

    >>> torch.trace(torch.tensor([[1., 2.], [3., 4.]]))
    tensor(5.)
    """
    return _core._trace(input)


def tril(input, diagonal=0):
    """The lower triangle of a matrix, zeros above (TrilBackward0).

    >>> torch.tril(torch.ones(2, 2))
    tensor([[1., 0.],
            [1., 1.]])
    """
    return _core._tril(input, diagonal, False)


def triu(input, diagonal=0):
    """The upper triangle of a matrix, zeros below (TriuBackward0).

    >>> torch.triu(torch.ones(2, 2))
    tensor([[1., 1.],
            [0., 1.]])
    """
    return _core._tril(input, diagonal, True)


def flip(input, dims):
    """Reverse the order along `dims` (FlipBackward0).

    >>> torch.flip(torch.tensor([1., 2., 3.]), [0])
    tensor([3., 2., 1.])
    """
    if isinstance(dims, Tensor) or not isinstance(dims, (int, tuple, list)):
        raise TypeError(f"flip(): argument 'dims' (position 1) must be tuple of ints, not {type(dims).__name__}")
    return _core._flip(input, [dims] if isinstance(dims, int) else list(dims))


def roll(input, shifts, dims=None):
    """Shift elements cyclically along `dims` (the flattened tensor without dims).

    >>> torch.roll(torch.tensor([1., 2., 3.]), 1)
    tensor([3., 1., 2.])
    """
    shifts = [shifts] if isinstance(shifts, int) else list(shifts)
    dims = [] if dims is None else [dims] if isinstance(dims, int) else list(dims)
    return _core._roll(input, shifts, dims)


def angle(input):
    """The argument of each (complex) element; 0 or pi for reals (AngleBackward0).

    >>> torch.angle(torch.tensor([-1., 2.]))
    tensor([3.1416, 0.0000])
    """
    return input._angle()


def complex(real, imag):
    """`torch.complex(real, imag)`: real + i·imag (ComplexBackward0).

    >>> torch.complex(torch.tensor([1., 2.]), torch.tensor([3., -1.]))
    tensor([1.+3.j, 2.-1.j])
    """
    return _core._complex(real, imag)
