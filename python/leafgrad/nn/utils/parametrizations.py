"""`torch.nn.utils.parametrizations`: orthogonal matrices, weight normalization and spectral
normalization as parametrizations (see `torch.nn.utils.parametrize`), computed as PyTorch
computes them."""
from ..._core import Tensor
from ..._grad_mode import no_grad
from ..modules.module import Module
from . import parametrize

__all__ = ["orthogonal", "spectral_norm", "weight_norm"]

_ORTHOGONAL_MAPS = ("matrix_exp", "cayley", "householder")


def _eye(n, like):
    from ..._factories import eye

    return eye(n, dtype=like.dtype, device=like.device)


def _householder_product(a, tau):
    """The first k columns of H_1 ... H_k, H_i = I - tau_i v_i v_i^T with v_i the i-th column of
    `a` (..., n, k) below the diagonal, 1 on it and 0 above (torch.linalg.householder_product),
    composed of differentiable ops."""
    from ..._factories import ones, zeros
    from ... import cat

    n, k = a.shape[-2], a.shape[-1]
    lead = list(a.shape[:-2])
    q = _eye(n, a).expand(lead + [n, n])
    for i in reversed(range(k)):
        v = cat([zeros(lead + [i], dtype=a.dtype, device=a.device), ones(lead + [1], dtype=a.dtype, device=a.device),
                 a[..., i + 1:, i]], -1).unsqueeze(-1)
        q = q - tau[..., i].unsqueeze(-1).unsqueeze(-1) * v.matmul(v.mT.matmul(q))
    return q[..., :k]


def _geqrf(a):
    """LAPACK's geqrf of `a` (..., m, n): R on and above the diagonal, the Householder vectors below
    it, and their scales tau (each reflection chosen as LAPACK's dlarfg chooses it)."""
    a = a.clone()
    m, n = a.shape[-2], a.shape[-1]
    taus = []
    for j in range(min(m, n)):
        alpha, x = a[..., j, j], a[..., j + 1:, j]
        xnorm = x.norm(dim=-1) if m - j > 1 else alpha.new_zeros(alpha.shape)
        beta = -(alpha * alpha + xnorm * xnorm).sqrt() * alpha.sign().masked_fill(alpha == 0, 1.0)
        identity = xnorm == 0
        tau = ((beta - alpha) / beta).masked_fill(identity, 0.0)
        scale = (1 / (alpha - beta)).masked_fill(identity, 1.0)
        v = a[..., j + 1:, j] * scale.unsqueeze(-1)
        a[..., j + 1:, j] = v
        a[..., j, j] = beta.where(~identity, alpha)
        if j + 1 < n:  # apply H_j = I - tau v v^T (v with its leading 1) to the columns right of j
            full = a.new_ones(list(a.shape[:-2]) + [m - j])
            full[..., 1:] = v
            rest = a[..., j:, j + 1:]
            w = (full.unsqueeze(-1) * rest).sum(-2)
            a[..., j:, j + 1:] = rest - tau.unsqueeze(-1).unsqueeze(-1) * full.unsqueeze(-1) * w.unsqueeze(-2)
        taus.append(tau)
    from ... import stack

    return a, stack(taus, -1) if taus else a.new_zeros(list(a.shape[:-2]) + [0])


def _is_orthogonal(q):
    n, k = q.shape[-2], q.shape[-1]
    from ... import finfo

    return bool((q.mH.matmul(q) - _eye(k, q)).abs().le(10.0 * n * finfo(q.dtype).eps).all())


def _make_orthogonal(a):
    """The Q of a's QR decomposition with R's diagonal made positive (PyTorch's geqrf, then
    householder_product, then the signs)."""
    from ... import linalg

    q, r = linalg.qr(a)
    return q * r.diagonal(dim1=-2, dim2=-1).sgn().unsqueeze(-2)


class _Orthogonal(Module):
    def __init__(self, weight, orthogonal_map, *, use_trivialization=True):
        super().__init__()
        if weight.is_complex() and orthogonal_map == "householder":
            raise ValueError("The householder parametrization does not support complex tensors.")
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer("base", None)

    def forward(self, X):
        from ... import cat, matrix_exp, linalg

        n, k = X.size(-2), X.size(-1)
        transposed = n < k
        if transposed:
            X = X.mT
            n, k = k, n
        if self.orthogonal_map in ("matrix_exp", "cayley"):
            X = X.tril()  # the n * k - k * (k - 1) / 2 free parameters
            if n != k:  # embedded in a square matrix
                X = cat([X, X.new_zeros(n, n - k).expand(*X.shape[:-2], -1, -1)], dim=-1)
            A = X - X.mH  # skew-symmetric
            if self.orthogonal_map == "matrix_exp":
                Q = matrix_exp(A)
            else:  # the Cayley retraction (I + A/2)(I - A/2)^-1
                Id = _eye(n, A)
                Q = linalg.solve(Id.add(A, alpha=-0.5), Id.add(A, alpha=0.5))
            if n != k:
                Q = Q[..., :k]
        else:
            A = X.tril(diagonal=-1)
            tau = 2.0 / (1.0 + (A * A).sum(dim=-2))
            Q = _householder_product(A, tau)
            # the signs of X's diagonal (1 or -1), neither differentiated nor updated
            Q = Q * X.diagonal(dim1=-2, dim2=-1).int().unsqueeze(-2)
        if hasattr(self, "base"):
            Q = self.base @ Q
        if transposed:
            Q = Q.mT
        return Q

    @no_grad()
    def right_inverse(self, Q):
        from ... import cat, randn, zeros_like

        if Q.shape != self.shape:
            raise ValueError(f"Expected a matrix or batch of matrices of shape {self.shape}. "
                             f"Got a tensor of shape {Q.shape}.")
        Q_init = Q
        n, k = Q.size(-2), Q.size(-1)
        transpose = n < k
        if transpose:
            Q = Q.mT
            n, k = k, n
        if not hasattr(self, "base"):
            if self.orthogonal_map in ("cayley", "matrix_exp"):
                raise NotImplementedError("It is not possible to assign to the matrix exponential or the Cayley "
                                          "parametrizations when use_trivialization=False.")
            # householder: Q made orthogonal through its QR decomposition
            A, tau = _geqrf(Q)
            signs = A.diagonal(dim1=-2, dim2=-1).sign()
            A.diagonal(dim1=-2, dim2=-1).copy_(signs.where(tau != 0.0, -signs))
            return A.mT if transpose else A
        if n == k:
            Q = Q.clone() if _is_orthogonal(Q) else _make_orthogonal(Q)
        else:  # completed into an n x n orthogonal matrix
            N = randn(*(Q.size()[:-2] + (n, n - k)), dtype=Q.dtype, device=Q.device)
            Q = _make_orthogonal(cat([Q, N], dim=-1))
        self.base = Q
        # -Id: householder(zeros(m, n)) is then eye(m, n), and the other maps give Id too
        neg_Id = zeros_like(Q_init)
        neg_Id.diagonal(dim1=-2, dim2=-1).fill_(-1.0)
        return neg_Id


def orthogonal(module, name="weight", orthogonal_map=None, *, use_trivialization=True):
    """Reparametrize the matrix (or batch of matrices) `module.<name>` as an orthogonal one: its
    columns (or rows, for a wide matrix) orthonormal. `orthogonal_map` 'matrix_exp' (the default
    for square matrices), 'cayley' or 'householder' (the default otherwise) maps the unconstrained
    `parametrizations.<name>.original`; with `use_trivialization=True` the result is multiplied by
    the buffer `base`, the orthogonalised initial weight, so the layer starts where it was.

    >>> _ = torch.manual_seed(0)
    >>> m = torch.nn.utils.parametrizations.orthogonal(torch.nn.Linear(3, 3))
    >>> type(m).__name__, list(m.state_dict())
    ('ParametrizedLinear', ['bias', 'parametrizations.weight.original', 'parametrizations.weight.0.base'])
    >>> torch.allclose(m.weight.T @ m.weight, torch.eye(3), atol=1e-6)
    True
    >>> m.parametrizations.weight.original
    Parameter containing:
    tensor([[-1., 0., 0.],
            [ 0., -1., 0.],
            [ 0., 0., -1.]], requires_grad=True)
    """
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if weight.ndim < 2:
        raise ValueError(f"Expected a matrix or batch of matrices. Got a tensor of {weight.ndim} dimensions.")
    if orthogonal_map is None:
        orthogonal_map = ("matrix_exp" if weight.size(-2) == weight.size(-1) or weight.is_complex()
                          else "householder")
    if orthogonal_map not in _ORTHOGONAL_MAPS:
        raise ValueError('orthogonal_map has to be one of "matrix_exp", "cayley", "householder". '
                         f"Got: {orthogonal_map}")
    orth = _Orthogonal(weight, orthogonal_map, use_trivialization=use_trivialization)
    parametrize.register_parametrization(module, name, orth, unsafe=True)
    return module


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
