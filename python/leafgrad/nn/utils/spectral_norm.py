"""`torch.nn.utils.spectral_norm` (PyTorch's older hook-based spectral normalization; the
parametrization is `torch.nn.utils.parametrizations.spectral_norm`): the parameter becomes
`<name>_orig`, the power-iteration vectors the buffers `<name>_u` and `<name>_v`, and a forward
pre-hook sets `module.<name>` to `<name>_orig / sigma` before each forward."""
from ..._grad_mode import no_grad
from ..parameter import Parameter
from .parametrizations import _normalize

__all__ = ["SpectralNorm", "spectral_norm", "remove_spectral_norm"]


class SpectralNorm:
    """The forward pre-hook that `spectral_norm` registers (one power iteration step per
    forward in training mode, then `weight = weight_orig / sigma`).

    >>> m = torch.nn.utils.spectral_norm(torch.nn.Linear(3, 2))
    >>> [type(h).__name__ for h in m._forward_pre_hooks.values()]
    ['SpectralNorm']
    """

    _version = 1

    def __init__(self, name="weight", n_power_iterations=1, dim=0, eps=1e-12):
        self.name = name
        self.dim = dim
        if n_power_iterations <= 0:
            raise ValueError(
                "Expected n_power_iterations to be positive, but "
                f"got n_power_iterations={n_power_iterations}")
        self.n_power_iterations = n_power_iterations
        self.eps = eps

    def reshape_weight_to_matrix(self, weight):
        weight_mat = weight
        if self.dim != 0:
            weight_mat = weight_mat.permute(self.dim, *[d for d in range(weight_mat.dim()) if d != self.dim])
        return weight_mat.reshape(weight_mat.size(0), -1)

    def compute_weight(self, module, do_power_iteration):
        from ... import contiguous_format, dot, mv

        weight = getattr(module, self.name + "_orig")
        u = getattr(module, self.name + "_u")
        v = getattr(module, self.name + "_v")
        weight_mat = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            with no_grad():
                for _ in range(self.n_power_iterations):
                    v.copy_(_normalize(mv(weight_mat.t(), u), self.eps))
                    u.copy_(_normalize(mv(weight_mat, v), self.eps))
                u = u.clone(memory_format=contiguous_format)
                v = v.clone(memory_format=contiguous_format)
        sigma = dot(u, mv(weight_mat, v))
        return weight / sigma

    def remove(self, module):
        with no_grad():
            weight = self.compute_weight(module, do_power_iteration=False)
        delattr(module, self.name)
        delattr(module, self.name + "_u")
        delattr(module, self.name + "_v")
        delattr(module, self.name + "_orig")
        module.register_parameter(self.name, Parameter(weight.detach()))

    def __call__(self, module, inputs):
        setattr(module, self.name, self.compute_weight(module, do_power_iteration=module.training))

    @staticmethod
    def apply(module, name, n_power_iterations, dim, eps):
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two spectral_norm hooks on the same parameter {name}")
        fn = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = module._parameters[name]
        if weight is None:
            raise ValueError(f"`SpectralNorm` cannot be applied as parameter `{name}` is None")
        with no_grad():
            weight_mat = fn.reshape_weight_to_matrix(weight)
            h, w = weight_mat.size()
            u = _normalize(weight.new_empty(h).normal_(0, 1), fn.eps)
            v = _normalize(weight.new_empty(w).normal_(0, 1), fn.eps)
        delattr(module, fn.name)
        module.register_parameter(fn.name + "_orig", weight)
        setattr(module, fn.name, weight.data)
        module.register_buffer(fn.name + "_u", u)
        module.register_buffer(fn.name + "_v", v)
        module.register_forward_pre_hook(fn)
        return fn


def spectral_norm(module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """Normalize `module.<name>` by its spectral norm, estimated by power iteration in a
    forward pre-hook (parameter `<name>_orig`, buffers `<name>_u`, `<name>_v`).

    >>> _ = torch.manual_seed(0)
    >>> m = torch.nn.utils.spectral_norm(torch.nn.Linear(4, 3))
    >>> list(m.state_dict())
    ['bias', 'weight_orig', 'weight_u', 'weight_v']
    >>> m.weight_u
    tensor([ 0.5964,  0.8014, -0.0446])
    """
    from ..modules import conv

    if dim is None:
        transposed = tuple(getattr(conv, n) for n in ("ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d")
                           if hasattr(conv, n))
        dim = 1 if isinstance(module, transposed) else 0
    SpectralNorm.apply(module, name, n_power_iterations, dim, eps)
    return module


def remove_spectral_norm(module, name="weight"):
    """Undo `spectral_norm`: `module.<name>` becomes a parameter holding `<name>_orig / sigma`.

    >>> m = torch.nn.utils.spectral_norm(torch.nn.Linear(4, 3))
    >>> m = torch.nn.utils.remove_spectral_norm(m)
    >>> list(m.state_dict())
    ['bias', 'weight']
    """
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, SpectralNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            break
    else:
        raise ValueError(f"spectral_norm of '{name}' not found in {module}")
    return module
