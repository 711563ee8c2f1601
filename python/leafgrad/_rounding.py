"""`round(decimals=)`: PyTorch's `round.decimals` overload (RoundBackward1), next to the core's
`round` (halves to even, RoundBackward0)."""
from . import _core
from ._core import Tensor

__all__ = ["round", "round_"]

_round, _round_ = Tensor.round, Tensor.round_


def _decimals_values(x, decimals):
    """PyTorch's round_decimals: `nearbyint(x * 10**d) / 10**d` (for d < 0,
    `nearbyint(x / 10**-d) * 10**-d`), in the tensor's dtype."""
    if not x.is_floating_point():
        raise NotImplementedError(f"\"round_cpu\" not implemented for '{x.dtype._scalar_name}'")
    p = float(10 ** abs(decimals))
    if decimals < 0:
        return _round(x / p) * p
    return _round(x * p) / p


def _tensor_round(self, *, decimals=0):
    """Rounds to the nearest integer, halves to even; with `decimals`, to that many decimal
    places (negative: to tens, hundreds, ...), as `round(x * 10**decimals) / 10**decimals`.

    >>> torch.tensor([1.2345, -2.5, 0.285]).round(decimals=2)
    tensor([ 1.2300, -2.5000,  0.2800])
    """
    if decimals == 0:
        return _round(self)
    decimals = int(decimals)
    return _core._composite("RoundBackward1", lambda x: _decimals_values(x, decimals), [self], [0])


def _tensor_round_(self, *, decimals=0):
    """In-place `round(decimals=)`.

    >>> x = torch.tensor([1.25, 2.5])
    >>> x.round_(decimals=1)
    tensor([1.2000, 2.5000])
    """
    if decimals == 0:
        return _round_(self)
    # (written through copy_: autograd records CopyBackwards where PyTorch names RoundBackward1;
    # both give a zero gradient)
    return self.copy_(_tensor_round(self, decimals=decimals))


def round(input, *, decimals=0):
    """`input` rounded to the nearest integer (halves to even), or to `decimals` decimal places.

    >>> torch.round(torch.tensor([0.5, 1.5, 2.675]), decimals=0)
    tensor([0., 2., 3.])
    >>> torch.round(torch.tensor([1234.5]), decimals=-2)
    tensor([1200.])
    """
    _check_input("round", input)
    return _tensor_round(input, decimals=decimals)


def _check_input(name, input):
    if not isinstance(input, Tensor):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")


def round_(input, *, decimals=0):
    """In-place `torch.round`.

    >>> x = torch.tensor([0.5, 1.5])
    >>> torch.round_(x)
    tensor([0., 2.])
    """
    _check_input("round_", input)
    return _tensor_round_(input, decimals=decimals)


Tensor.round = _tensor_round
Tensor.round_ = _tensor_round_
