"""`torch.nn.utils.parametrizations`: weight normalization and spectral normalization as
parametrizations (see `torch.nn.utils.parametrize`), computed as PyTorch computes them."""
from ..._grad_mode import no_grad
from ..modules.module import Module
from . import parametrize

__all__ = ["spectral_norm", "weight_norm"]


def _norm_except_dim(v, pow, dim):
    """PyTorch's `norm_except_dim`: the `pow`-norm over every dim but `dim` (kept as size 1);
    the norm of the whole tensor when `dim == -1`."""
    if dim == -1:
        return v.norm(pow)
    n = v.shape[dim]
    shape = [1] * v.dim()
    shape[dim] = n
    norms = v.transpose(0, dim).reshape(n, -1).norm(pow, 1) if v.dim() else v.norm(pow)
    return norms.reshape(shape)


def _weight_norm(v, g, dim=0):
    return v * (g / _norm_except_dim(v, 2, dim))


class _WeightNorm(Module):
    def __init__(self, dim=0):
        super().__init__()
        if dim is None:
            dim = -1
        self.dim = dim

    def forward(self, weight_g, weight_v):
        return _weight_norm(weight_v, weight_g, self.dim)

    def right_inverse(self, weight):
        weight_g = _norm_except_dim(weight, 2, self.dim)
        weight_v = weight
        return weight_g, weight_v


def weight_norm(module, name="weight", dim=0):
    """Reparametrize `module.<name>` as `g * v / ||v||` (the norm over every dim but `dim`; over
    the whole tensor when `dim=None`): `g` is `parametrizations.<name>.original0`, `v` is
    `original1`.

    >>> _ = torch.manual_seed(0)
    >>> m = torch.nn.utils.parametrizations.weight_norm(torch.nn.Linear(3, 2))
    >>> type(m).__name__
    'ParametrizedLinear'
    >>> m.parametrizations.weight.original0
    Parameter containing:
    tensor([[0.5672],
            [0.5039]], requires_grad=True)
    >>> list(m.state_dict())
    ['bias', 'parametrizations.weight.original0', 'parametrizations.weight.original1']
    """
    parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)
    return module


def _normalize(x, eps):
    return x / x.norm(2, 0, keepdim=True).clamp_min(eps).expand_as(x)


class _SpectralNorm(Module):
    def __init__(self, weight, n_power_iterations=1, dim=0, eps=1e-12):
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError(
                "Dimension out of range (expected to be in range of "
                f"[-{ndim}, {ndim - 1}] but got {dim})")
        if n_power_iterations <= 0:
            raise ValueError(
                "Expected n_power_iterations to be positive, but "
                f"got n_power_iterations={n_power_iterations}")
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            weight_mat = self._reshape_weight_to_matrix(weight)
            h, w = weight_mat.size()
            u = weight_mat.new_empty(h).normal_(0, 1)
            v = weight_mat.new_empty(w).normal_(0, 1)
            self.register_buffer("_u", _normalize(u, self.eps))
            self.register_buffer("_v", _normalize(v, self.eps))
            self._power_method(weight_mat, 15)

    def _reshape_weight_to_matrix(self, weight):
        if weight.ndim <= 1:
            raise AssertionError("The input does not have more than one dimension")
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return weight.flatten(1)

    def _power_method(self, weight_mat, n_power_iterations):
        from ... import mv

        with no_grad():
            for _ in range(n_power_iterations):
                self._u.copy_(_normalize(mv(weight_mat, self._v), self.eps))
                self._v.copy_(_normalize(mv(weight_mat.t().conj() if weight_mat.is_complex() else weight_mat.t(), self._u), self.eps))

    def forward(self, weight):
        from ... import contiguous_format, dot, mv

        if weight.ndim == 1:
            return _normalize(weight, self.eps)
        weight_mat = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(weight_mat, self.n_power_iterations)
        u = self._u.clone(memory_format=contiguous_format)
        v = self._v.clone(memory_format=contiguous_format)
        sigma = dot(u.conj(), mv(weight_mat, v)) if u.is_complex() else dot(u, mv(weight_mat, v))
        return weight / sigma

    def right_inverse(self, value):
        return value


def spectral_norm(module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """Reparametrize `module.<name>` as the weight divided by its spectral norm, estimated by
    power iteration (15 iterations at registration, `n_power_iterations` per access in training
    mode) with the vectors kept as buffers `parametrizations.<name>.0._u` and `._v`.

    >>> _ = torch.manual_seed(0)
    >>> m = torch.nn.utils.parametrizations.spectral_norm(torch.nn.Linear(3, 2))
    >>> m.weight
    tensor([[-0.0066,  0.4710, -0.7226],
            [-0.6461, -0.3381,  0.2354]], grad_fn=<DivBackward0>)
    >>> list(m.state_dict())
    ['bias', 'parametrizations.weight.original', 'parametrizations.weight.0._u', 'parametrizations.weight.0._v']
    """
    from ... import Tensor
    from ..modules import conv

    transposed = tuple(getattr(conv, n) for n in ("ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d")
                       if hasattr(conv, n))

    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        dim = 1 if isinstance(module, transposed) else 0
    parametrize.register_parametrization(module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))
    return module
