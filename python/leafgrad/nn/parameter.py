"""`nn.Parameter`: a Tensor subclass that is always a leaf and requires grad by default."""
from .. import _core
from .._core import Tensor


class Parameter(Tensor):
    """A Tensor that a Module registers as a parameter when assigned as its attribute. It is a
    leaf and requires grad unless told otherwise.

    >>> p = torch.nn.Parameter(torch.tensor([1., 2.]))
    >>> p
    Parameter containing:
    tensor([1., 2.], requires_grad=True)
    >>> p.is_leaf, isinstance(p, torch.Tensor)
    (True, True)
    >>> torch.nn.Parameter(torch.ones(1), requires_grad=False).requires_grad
    False
    """

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = _core._full((0,), 0, _core._get_default_dtype())
        t = data.detach()
        obj = Tensor.__new__(cls, t)
        obj._bind()
        _core._factory_requires_grad(obj, bool(requires_grad))
        return obj

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__

    def __reduce_ex__(self, proto):
        return (_rebuild_parameter, (self.detach(), self.requires_grad))

    def __deepcopy__(self, memo):
        """A Parameter over a copy of the data (its layout kept) with `requires_grad`, as
        PyTorch's: neither `.grad` nor shared memory come along.

        >>> import copy
        >>> p = torch.nn.Parameter(torch.ones(2))
        >>> p.grad = torch.ones(2)
        >>> q = copy.deepcopy(p)
        >>> q, q.grad
        (Parameter containing:
        tensor([1., 1.], requires_grad=True), None)
        """
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(self.data.clone(), self.requires_grad)
        memo[id(self)] = result
        return result

    @classmethod
    def _from_rebuilt(cls, data, requires_grad):
        """A Parameter over `data` (how a pickled one is rebuilt)."""
        return cls(data, requires_grad)


Parameter.__module__ = "torch.nn.parameter"


def _rebuild_parameter(data, requires_grad):
    """A Parameter again (how pickles name it: this module, not the class's printed one)."""
    return Parameter(data, requires_grad)

# doctest skips classes whose __module__ is not this module's name; list Parameter explicitly.
__test__ = {"Parameter": Parameter}
