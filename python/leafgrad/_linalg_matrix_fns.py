"""`torch.linalg`'s matrix functions: `matrix_exp` (Padé on the host, LinalgMatrixExpBackward0),
`matrix_power` (repeated products as PyTorch composes them), `matrix_rank`, `solve_triangular`
and `cond`, on `linalg`'s checks and decompositions."""
import math

from . import _linalg_faer as _faer
from ._core import Tensor
from .linalg import (
    _H, _LOW, _broadcast, _check_matrix, _check_square, _check_tensor, _fn, _into, _tolerance_value, _torch,
    inv, inv_ex, matrix_norm, svdvals,
)


def matrix_exp(input):
    """The matrix exponential of each square matrix (scaling and squaring with a degree-13
    Padé approximant; LinalgMatrixExpBackward0, whose backward is the exponential of a 2n×2n
    block matrix). float16/bfloat16 are computed in double and rounded.

    >>> torch.linalg.matrix_exp(torch.zeros(2, 2))
    tensor([[1., 0.],
            [0., 1.]])
    """
    A = input
    _check_tensor("linalg_matrix_exp", "input", 1, A)
    _check_square("linalg.matrix_exp", A)
    if not (A.dtype.is_floating_point or A.dtype.is_complex):
        raise NotImplementedError(f"linalg.matrix_exp: Expected a floating point or complex tensor as input. Got "
                                  f"{_H.scalar_name(A.dtype)}")
    return _fn("LinalgMatrixExpBackward0").apply(A)


def _matrix_exp_top(input):
    """`torch.matrix_exp`: `torch.linalg.matrix_exp` (`Tensor.matrix_exp`).

    >>> torch.matrix_exp(torch.tensor([[0., 0.], [0., 0.]]))
    tensor([[1., 0.],
            [0., 1.]])
    """
    _check_tensor("matrix_exp", "input", 1, input)
    return matrix_exp(input)


def _matrix_power_top(input, n):
    """`torch.matrix_power`: `torch.linalg.matrix_power` (`Tensor.matrix_power`).

    >>> torch.matrix_power(torch.tensor([[2., 0.], [0., 3.]]), 2)
    tensor([[4., 0.],
            [0., 9.]])
    """
    _check_tensor("matrix_power", "input", 1, input)
    return _power(input, _int_arg(n, "matrix_power", 2))


def matrix_power(input, n, *, out=None):
    """`A` to the integer power `n`, each square matrix: repeated products by binary
    decomposition (so PyTorch's MmBackward0/matmul nodes), the inverse's powers for `n < 0`,
    the identity for `n = 0` (`torch.matrix_power`, `Tensor.matrix_power`).

    >>> torch.linalg.matrix_power(torch.tensor([[1., 1.], [0., 1.]]), 3)
    tensor([[1., 3.],
            [0., 1.]])
    """
    _check_tensor("linalg_matrix_power", "input", 1, input)
    return _power(input, _int_arg(n, "linalg_matrix_power", 2), out)


def _int_arg(n, fn, pos):
    if isinstance(n, bool) or not hasattr(n, "__index__") or isinstance(n, (float, Tensor)):
        raise TypeError(f"{fn}(): argument 'n' (position {pos}) must be int, not {type(n).__name__}")
    return int(n)


def _power(A, n, out=None):
    _check_square("linalg.matrix_power", A)
    if A.dtype._name == "bool" and n > 1:
        raise NotImplementedError("\"addmm_impl_cpu_\" not implemented for 'Bool'")
    if n == 0:
        eye = _torch().eye(A.shape[-1], dtype=A.dtype, device=A.device)
        return _into(A.clone().copy_(eye.expand(A.shape)), out)
    if n < 0:
        A = inv(A)
        n = -n
    if n == 1:
        r = A.clone()
    elif n == 2:
        r = _torch().matmul(A, A)
    elif n == 3:
        r = _torch().matmul(_torch().matmul(A, A), A)
    else:
        z = r = None
        while n > 0:
            bit, n = n % 2, n // 2
            z = A if z is None else _torch().matmul(z, z)
            if bit:
                r = z if r is None else _torch().matmul(r, z)
    return _into(r, out)


def matrix_rank(input, tol=None, hermitian=False, *, atol=None, rtol=None, out=None):
    """The number of singular values (|eigenvalues| if `hermitian`) above `max(atol, rtol ·
    largest)` in each matrix (int64; no gradient). `rtol` defaults as in `pinv`; `tol` is the
    older spelling of `atol` (with `rtol=0`).

    >>> torch.linalg.matrix_rank(torch.tensor([[1., 2.], [2., 4.]]))
    tensor(1)
    """
    A = input
    import numpy as np

    _check_tensor("linalg_matrix_rank", "input", 1, A)
    if A.dim() < 2:
        raise RuntimeError("torch.linalg.matrix_rank: The input tensor input must have at least 2 dimensions.")
    if A.dtype._name not in ("float32", "float64", "complex64", "complex128"):
        raise RuntimeError("This function doesn't handle types other than float and double")
    if tol is not None:
        atol, rtol = tol, 0.0
    batch = tuple(A.shape[:-2])
    eps = _torch().finfo(A.dtype.to_real()).eps
    a_tol, r_tol = _H.tolerances(tuple(A.shape), eps, _tolerance_value(atol), _tolerance_value(rtol), batch)
    a = _H.host(A)
    if A.shape[-1] == 0 or A.shape[-2] == 0:
        rank = np.zeros(batch, dtype=np.int64)
    else:
        if hermitian:
            with np.errstate(all="ignore"):
                s = np.abs(_faer.eigvalsh(a))
        else:
            if not A.is_meta:
                _H.check_finite_svd(a, A.dim() > 2)
            s = _H.svdvals(a)
        top = s.max(-1)
        rank = (s > np.maximum(a_tol, r_tol * top)[..., None]).sum(-1).astype(np.int64)
    return _into(_H.make(rank, _torch().int64, A.device), out)


def solve_triangular(input, B, *, upper=None, left=True, unitriangular=False, out=None):
    """The solution X of `A X = B` (`X A = B` with `left=False`) for triangular `A`: only its
    `upper` (or lower) triangle is read, its diagonal taken as ones if `unitriangular`; batch
    dims broadcast (LinalgSolveTriangularBackward0, whose gradient for A keeps that triangle).

    >>> torch.linalg.solve_triangular(torch.tensor([[2., 1.], [0., 4.]]), torch.tensor([[4.], [8.]]), upper=True)
    tensor([[1.],
            [2.]])
    """
    A = input
    if upper is None:
        raise TypeError('linalg_solve_triangular() missing 1 required positional arguments: "upper"')
    _check_tensor("linalg_solve_triangular", "input", 1, A)
    _check_tensor("linalg_solve_triangular", "B", 2, B)
    name = "linalg.solve_triangular"
    _check_matrix(name, A)
    _check_matrix(name, B, "B")
    _check_square(name, A)
    n = A.shape[-1]
    if (B.shape[-2] if left else B.shape[-1]) != n:
        eq = "AX = B" if left else "XA = B"
        raise RuntimeError(f"{name}: Incompatible shapes of A and B for the equation {eq} ({n}x{n} and "
                           f"{B.shape[-2]}x{B.shape[-1]})")
    if A.dtype._name in _LOW or not (A.dtype.is_floating_point or A.dtype.is_complex):
        raise NotImplementedError(f'"triangular_solve_cpu" not implemented for \'{_H.scalar_name(A.dtype)}\'')
    if B.dtype != A.dtype:
        B = B.to(A.dtype)
    _broadcast(tuple(A.shape[:-2]), tuple(B.shape[:-2]))
    X = _fn("LinalgSolveTriangularBackward0").apply(A, B, bool(upper), bool(left), bool(unitriangular))
    return _into(X, out)


def cond(input, p=None, *, out=None):
    """The condition number of each matrix in the norm `p`: for None/2/-2 the ratio of its
    largest and smallest singular values (any shape), for 'fro', 'nuc', 1, -1, inf, -inf
    `norm(A) · norm(inv(A))` (square; inf where A is singular).

    >>> torch.linalg.cond(torch.tensor([[4., 0.], [0., 2.]]))
    tensor(2.)
    """
    A = input
    _check_tensor("linalg_cond", "input", 1, A)
    if A.dim() < 2:
        if isinstance(p, str) and p in ("fro", "nuc"):
            raise RuntimeError(f"linalg.cond(ord={p}): The input tensor A must have at least 2 dimensions.")
        raise RuntimeError("linalg.cond: The input tensor must have at least 2 dimensions.")
    if p in (None, 2, -2, 2.0, -2.0):
        if A.numel() == 0:
            return _into(A.new_zeros(tuple(A.shape[:-2]), dtype=A.dtype.to_real()), out)
        s = svdvals(A)
        top, bottom = s.narrow(-1, 0, 1), s.narrow(-1, s.shape[-1] - 1, 1)
        r = (bottom / top) if p in (-2, -2.0) else (top / bottom)
        return _into(r.squeeze(-1), out)
    valid = (p in ("fro", "nuc")) if isinstance(p, str) else (float(p) in (1.0, -1.0, math.inf, -math.inf))
    if not valid:
        raise ValueError(f"linalg.cond got an invalid norm type: {p}")
    if not isinstance(p, str) and A.numel() == 0:
        return _into(A.new_zeros(tuple(A.shape[:-2]), dtype=A.dtype.to_real()), out)
    label = p if isinstance(p, str) else int(p) if math.isfinite(p) else ("inf" if p > 0 else "-inf")
    _check_square(f"linalg.cond(ord={label})", A)
    if A.numel() == 0:
        return _into(A.new_zeros(tuple(A.shape[:-2]), dtype=A.dtype.to_real()), out)
    X, info = inv_ex(A)
    X = X.masked_fill((info > 0).unsqueeze(-1).unsqueeze(-1), math.inf)
    r = (matrix_norm(A, p) * matrix_norm(X, p)).nan_to_num(math.inf, math.inf, -math.inf)
    return _into(r, out)
