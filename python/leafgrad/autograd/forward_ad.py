"""`torch.autograd.forward_ad`: forward-mode AD with dual tensors.

Inside a `dual_level`, `make_dual(x, v)` gives a view of `x` carrying the tangent `v`; every op
on it computes its output's tangent (the Jacobian-vector product) alongside its value, and
`unpack_dual(y)` returns `(primal, tangent)`. Leaving the level drops every tangent.

leafgrad computes each op's tangent from the op's own backward formula (transposed by one more
differentiation with respect to its output gradient), so every op that has a backward formula
has its forward derivative; see `src/forward_ad.rs`.
"""
from typing import NamedTuple, Optional

from .. import _core
from .._core import Tensor
from .._grad_mode import _DecoratorContextManager

__all__ = [
    "UnpackedDualTensor",
    "enter_dual_level",
    "exit_dual_level",
    "make_dual",
    "unpack_dual",
    "dual_level",
]

_current_level = -1


def enter_dual_level():
    """Enter a new forward grad level (PyTorch supports one at a time) and return it.

    >>> import leafgrad.autograd.forward_ad as fwAD
    >>> fwAD.enter_dual_level()
    0
    >>> fwAD.exit_dual_level()
    """
    global _current_level
    new_level = _core._enter_dual_level()
    if new_level != _current_level + 1:
        raise RuntimeError(
            "Entering a new forward AD level but the current level "
            "is not valid. Make sure you did not modify it directly."
        )
    _current_level = new_level
    return new_level


def exit_dual_level(*, level=None):
    """Exit the forward grad level: every tangent made in it is dropped.

    >>> import leafgrad.autograd.forward_ad as fwAD
    >>> level = fwAD.enter_dual_level()
    >>> x = fwAD.make_dual(torch.tensor([1.]), torch.tensor([2.]))
    >>> fwAD.exit_dual_level(level=level)
    >>> x
    tensor([1.])
    """
    global _current_level
    if level is None:
        level = _current_level
    if level != _current_level:
        raise RuntimeError(
            "Trying to exit a forward AD level that was not the last one "
            "that was created. This is not supported."
        )
    _core._exit_dual_level(level)
    _current_level = level - 1


def make_dual(tensor, tangent, *, level=None):
    """A view of `tensor` carrying `tangent` (kept as it is when it has the same layout, copied
    otherwise); backward differentiable.

    >>> import leafgrad.autograd.forward_ad as fwAD
    >>> with fwAD.dual_level():
    ...     x = fwAD.make_dual(torch.tensor([0., 1.]), torch.tensor([1., 1.]))
    ...     print(fwAD.unpack_dual(x.sin()).tangent)
    tensor([1.0000, 0.5403])
    """
    if level is None:
        level = _current_level
    if level < 0:
        raise RuntimeError(
            "Trying to create a dual Tensor for forward AD but no level "
            "exists, make sure to enter_dual_level() first."
        )
    if not (tensor.is_floating_point() or tensor.is_complex()):
        raise ValueError(f"Expected primal to be floating point or complex, but got: {tensor.dtype}")
    if not (tangent.is_floating_point() or tangent.is_complex()):
        raise ValueError(f"Expected tangent to be floating point or complex, but got: {tangent.dtype}")
    return _core._make_dual(tensor, tangent, level)


class UnpackedDualTensor(NamedTuple):
    """Namedtuple returned by :func:`unpack_dual` containing the primal and tangent components of
    the dual tensor.

    >>> import leafgrad.autograd.forward_ad as fwAD
    >>> with fwAD.dual_level():
    ...     print(fwAD.unpack_dual(fwAD.make_dual(torch.tensor([1.]), torch.tensor([2.]))))
    UnpackedDualTensor(primal=tensor([1.]), tangent=tensor([2.]))
    """

    primal: Tensor
    tangent: Optional[Tensor]


def unpack_dual(tensor, *, level=None):
    """`(primal, tangent)` of a dual tensor: `primal` a view of `tensor` without the tangent,
    `tangent` as it is (None when `tensor` carries none).

    >>> import leafgrad.autograd.forward_ad as fwAD
    >>> with fwAD.dual_level():
    ...     y = fwAD.make_dual(torch.tensor([3.]), torch.tensor([1.])) ** 2
    ...     primal, tangent = fwAD.unpack_dual(y)
    >>> primal, tangent
    (tensor([9.]), tensor([6.]))
    """
    if level is None:
        level = _current_level
    if level < 0:
        return UnpackedDualTensor(tensor, None)
    primal, tangent = _core._unpack_dual(tensor)
    return UnpackedDualTensor(primal, tangent)


class dual_level(_DecoratorContextManager):
    """Context manager for forward AD: enters a level on entry (returned by `with`), exits it
    (dropping every tangent) on exit.

    >>> import leafgrad.autograd.forward_ad as fwAD
    >>> with fwAD.dual_level() as level:
    ...     print(level)
    0
    """

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, exc_type, exc_value, traceback) -> None:
        exit_dual_level()

    def __repr__(self):
        return f"<torch.autograd.forward_ad.dual_level object at {hex(id(self))}>"


_is_fwd_grad_enabled = _core._is_fwd_grad_enabled


class _set_fwd_grad_enabled(_DecoratorContextManager):
    """Turn the computation of forward grads on or off (PyTorch's private helper)."""

    def __init__(self, mode: bool) -> None:
        self.prev = _is_fwd_grad_enabled()
        self.mode = mode
        _core._set_fwd_grad_enabled(mode)

    def clone(self):
        return self.__class__(self.mode)

    def __enter__(self) -> None:
        pass

    def __exit__(self, exc_type, exc_value, traceback) -> None:
        _core._set_fwd_grad_enabled(self.prev)
