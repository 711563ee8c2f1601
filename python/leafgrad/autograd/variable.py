"""`torch.autograd.Variable`: the pre-0.4 wrapper, now a way to make a tensor (kept for old code).

`Variable(t, requires_grad=...)` returns a new tensor over `t`'s memory (detached) with that
flag; every tensor is an instance of `Variable`.

>>> x = torch.ones(2)
>>> v = torch.autograd.Variable(x, requires_grad=True)
>>> v, v is x, isinstance(x, torch.autograd.Variable)
(tensor([1., 1.], requires_grad=True), False, True)
"""
import warnings

from .._core import Tensor

__all__ = ["Variable", "VariableMeta"]


class VariableMeta(type):
    """Makes `isinstance(t, Variable)` true for every tensor.

    >>> isinstance(torch.zeros(1), torch.autograd.Variable)
    True
    """

    def __instancecheck__(cls, other):
        return isinstance(other, Tensor)


class Variable(metaclass=VariableMeta):
    """A tensor over `data` (detached) with `requires_grad` set.

    >>> torch.autograd.Variable(torch.tensor([2.]), requires_grad=True) * 3
    tensor([6.], grad_fn=<MulBackward0>)
    """

    def __new__(cls, data=None, requires_grad=False, volatile=False, _grad_fn=None):
        if volatile:
            warnings.warn(
                "volatile was removed and now has no effect. Use `with torch.no_grad():` instead.",
                UserWarning,
                stacklevel=2,
            )
        if data is None:
            import leafgrad

            data = leafgrad.empty(0)
        if not isinstance(data, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        t = data.detach()
        t.requires_grad_(requires_grad)
        return t
