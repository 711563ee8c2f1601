"""`torch.nn.utils.weight_norm` (deprecated by PyTorch in favor of
`torch.nn.utils.parametrizations.weight_norm`): weight normalization through a forward pre-hook
that recomputes `weight` from the parameters `weight_g` and `weight_v` before each forward."""
import warnings

from ..parameter import Parameter
from .parametrizations import _norm_except_dim, _weight_norm

__all__ = ["WeightNorm", "weight_norm", "remove_weight_norm"]


class WeightNorm:
    """The forward pre-hook that `weight_norm` registers: it sets `module.<name>` to
    `g * v / ||v||` from `module.<name>_g` and `module.<name>_v`.

    >>> import warnings
    >>> _ = torch.manual_seed(0)
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     m = torch.nn.utils.weight_norm(torch.nn.Linear(3, 2))
    >>> [type(h).__name__ for h in m._forward_pre_hooks.values()]
    ['WeightNorm']
    """

    def __init__(self, name, dim):
        if dim is None:
            dim = -1
        self.name = name
        self.dim = dim

    def compute_weight(self, module):
        g = getattr(module, self.name + "_g")
        v = getattr(module, self.name + "_v")
        return _weight_norm(v, g, self.dim)

    @staticmethod
    def apply(module, name, dim):
        warnings.warn(
            "`torch.nn.utils.weight_norm` is deprecated in favor of "
            "`torch.nn.utils.parametrizations.weight_norm`.", FutureWarning, stacklevel=3)
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two weight_norm hooks on the same parameter {name}")
        if dim is None:
            dim = -1
        fn = WeightNorm(name, dim)
        weight = getattr(module, name)
        del module._parameters[name]
        module.register_parameter(name + "_g", Parameter(_norm_except_dim(weight, 2, dim).data))
        module.register_parameter(name + "_v", Parameter(weight.data))
        setattr(module, name, fn.compute_weight(module))
        module.register_forward_pre_hook(fn)
        return fn

    def remove(self, module):
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module, inputs):
        setattr(module, self.name, self.compute_weight(module))


def weight_norm(module, name="weight", dim=0):
    """Replace `module.<name>` by parameters `<name>_g` (magnitude) and `<name>_v` (direction),
    recomputing the weight before every forward; warns (FutureWarning) as PyTorch does.

    >>> import warnings
    >>> _ = torch.manual_seed(0)
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     m = torch.nn.utils.weight_norm(torch.nn.Linear(3, 2))
    >>> print(w[0].category.__name__, w[0].message)
    FutureWarning `torch.nn.utils.weight_norm` is deprecated in favor of `torch.nn.utils.parametrizations.weight_norm`.
    >>> list(m.state_dict())
    ['bias', 'weight_g', 'weight_v']
    >>> m.weight_g
    Parameter containing:
    tensor([[0.5672],
            [0.5039]], requires_grad=True)
    """
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module, name="weight"):
    """Undo `weight_norm`: `module.<name>` becomes a plain parameter holding the current weight.

    >>> import warnings
    >>> _ = torch.manual_seed(0)
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     m = torch.nn.utils.weight_norm(torch.nn.Linear(3, 2))
    >>> m = torch.nn.utils.remove_weight_norm(m)
    >>> list(m.state_dict())
    ['bias', 'weight']
    >>> m.weight
    Parameter containing:
    tensor([[-0.0043,  0.3097, -0.4752],
            [-0.4249, -0.2224,  0.1548]], requires_grad=True)
    """
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            return module
    raise ValueError(f"weight_norm of '{name}' not found in {module}")
