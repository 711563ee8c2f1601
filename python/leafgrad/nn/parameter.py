"""`nn.Parameter`: a Tensor subclass that is always a leaf and requires grad by default."""
from .. import _core
from .._core import Tensor


class Parameter(Tensor):
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

    def __reduce__(self):
        return (Parameter, (self.detach(), self.requires_grad))


Parameter.__module__ = "torch.nn.parameter"
