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
            data = _core._full((0,), 0, _core.float32)
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

    @classmethod
    def _from_rebuilt(cls, data, requires_grad):
        """A Parameter over `data` (how `copy.deepcopy` rebuilds one)."""
        return cls(data, requires_grad)


Parameter.__module__ = "torch.nn.parameter"


def _rebuild_parameter(data, requires_grad):
    """A Parameter again (how pickles name it: this module, not the class's printed one)."""
    return Parameter(data, requires_grad)

# doctest skips classes whose __module__ is not this module's name; list Parameter explicitly.
__test__ = {"Parameter": Parameter}
