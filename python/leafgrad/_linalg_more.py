"""More of `torch.linalg`: the LDL factorization (`ldl_factor`, `ldl_factor_ex`,
`ldl_solve`; no derivative, as in PyTorch), Householder products (`householder_product`,
`torch.orgqr`, and `torch.geqrf` that makes their input), `tensorinv`, `tensorsolve` and
`vander` (with the older `torch.vander`), on `linalg`'s checks."""
import math

import numpy as np

from . import _linalg_faer as _faer
from ._core import Tensor
from ._linalg_nodes import needs_node
from .linalg import _H, _LOW, _broadcast, _check_tensor, _fn, _into, _result_type, _torch, solve

_LdlFactor = _result_type("linalg_ldl_factor", ["LD", "pivots"])
_LdlFactorEx = _result_type("linalg_ldl_factor_ex", ["LD", "pivots", "info"])
_Geqrf = _result_type("geqrf", ["a", "tau"])


# ----------------------------------------------------------------------------------------------
# LDL


def _ldl_compute(A, hermitian, check, name):
    from ._linalg_kernels import host_native, ldl_factor

    torch = _torch()
    ld, piv, info = ldl_factor(host_native(A), hermitian)
    if check and not A.is_meta:
        flat = info.reshape(-1)
        bad = np.flatnonzero(flat > 0)
        if bad.size:
            raise RuntimeError(
                'false INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/ATen/native/BatchLinearAlgebra.cpp"'
                f":1677, please report a bug to PyTorch. {name}: Unknown error code: {int(flat[bad[0]])}.")
    return (_H.make(ld, A.dtype, A.device), _H.make(piv, torch.int32, A.device),
            _H.make(info, torch.int32, A.device))


def _ldl(A, hermitian, check, name):
    name_ex = "torch.linalg.ldl_factor_ex"
    if A.dim() < 2:
        raise RuntimeError(f"{name_ex}: The input tensor A must have at least 2 dimensions.")
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"{name_ex}: A must be batches of square matrices, but they are {A.shape[-2]} by "
                           f"{A.shape[-1]} matrices")
    if not (A.dtype.is_floating_point or A.dtype.is_complex):
        raise NotImplementedError(f"{name_ex}: Expected a floating point or complex tensor as input. Got "
                                  f"{_H.scalar_name(A.dtype)}")
    if A.dtype._name in _LOW:
        raise NotImplementedError(f'"ldl_factor_kernel_cpu" not implemented for \'{_H.scalar_name(A.dtype)}\'')
    compute = lambda a: _ldl_compute(a, bool(hermitian), check, name)  # noqa: E731
    if needs_node(A):
        return _fn("ldl_factor").apply(compute, A)
    return compute(A)


def ldl_factor_ex(A, *, hermitian=False, check_errors=False, out=None):
    """`ldl_factor` that also returns LAPACK's `info` (int32 per matrix: 0, or the 1-based index
    of the first zero pivot of a singular matrix) instead of failing, unless `check_errors`.

    >>> torch.linalg.ldl_factor_ex(torch.tensor([[1., 2.], [2., 4.]])).info
    tensor(2, dtype=torch.int32)
    """
    _check_tensor("linalg_ldl_factor_ex", "input", 1, A)
    LD, piv, info = _ldl(A, hermitian, check_errors, "torch.linalg.ldl_factor_ex")
    return _into(_LdlFactorEx(LD, piv, info), out)


def ldl_factor(A, *, hermitian=False, out=None):
    """The LDL^T factorization (LDL^H with `hermitian`) of each symmetric matrix, read from its
    lower triangle, with Bunch-Kaufman pivoting as LAPACK's sytrf: `linalg_ldl_factor(LD,
    pivots)`, L (unit diagonal) below the diagonal of LD, D's 1x1 and 2x2 blocks on and next to
    it; `pivots` (int32, 1-based) name the interchanges, a negative pair marking a 2x2 block.
    Not differentiable (PyTorch's `NotImplemented` node). A singular matrix fails with
    PyTorch's internal error.

    >>> torch.linalg.ldl_factor(torch.tensor([[4., 2.], [2., 3.]]))
    torch.return_types.linalg_ldl_factor(
    LD=tensor([[4.0000, 0.0000],
            [0.5000, 2.0000]]),
    pivots=tensor([1, 2], dtype=torch.int32))
    """
    _check_tensor("linalg_ldl_factor", "input", 1, A)
    LD, piv, _ = _ldl(A, hermitian, True, "torch.linalg.ldl_factor")
    return _into(_LdlFactor(LD, piv), out)


def _ldl_solve_compute(LD, pivots, B, hermitian):
    from ._linalg_kernels import host_native, ldl_solve as solve_host

    ld, piv, b = host_native(LD), _H.host(pivots).astype(np.int64), host_native(B)
    batch = np.broadcast_shapes(ld.shape[:-2], b.shape[:-2])
    ld = np.broadcast_to(ld, batch + ld.shape[-2:])
    piv = np.broadcast_to(piv, batch + piv.shape[-1:])
    b = np.broadcast_to(b, batch + b.shape[-2:])
    return (_H.make(solve_host(ld, piv, b, hermitian), LD.dtype, LD.device),)


def ldl_solve(LD, pivots, B, *, hermitian=False, out=None):
    """The solution X of `A X = B` from `ldl_factor`'s LD and pivots of A (B `*, n, k`, batch
    dims broadcast). Not differentiable, as in PyTorch.

    >>> LD, pivots = torch.linalg.ldl_factor(torch.tensor([[4., 2.], [2., 3.]]))
    >>> torch.linalg.ldl_solve(LD, pivots, torch.tensor([[6.], [5.]]))
    tensor([[1.],
            [1.]])
    """
    _check_tensor("linalg_ldl_solve", "LD", 1, LD)
    _check_tensor("linalg_ldl_solve", "pivots", 2, pivots)
    _check_tensor("linalg_ldl_solve", "B", 3, B)
    name = "torch.linalg.ldl_solve"
    if B.dim() < 2:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-max(B.dim(), 1)}, "
                         f"{max(B.dim(), 1) - 1}], but got -2)")
    if LD.dim() < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if LD.shape[-1] != LD.shape[-2]:
        raise RuntimeError(f"{name}: A must be batches of square matrices, but they are {LD.shape[-2]} by "
                           f"{LD.shape[-1]} matrices")
    if LD.shape[-1] != B.shape[-2]:
        raise RuntimeError(f"Incompatible matrix sizes for {name}: each A matrix is {LD.shape[-1]} by "
                           f"{LD.shape[-1]} but each b matrix is {B.shape[-2]} by {B.shape[-1]}")
    if tuple(pivots.shape) != tuple(LD.shape[:-1]):
        raise RuntimeError(f"{name}: Expected LD.shape[:-1] and pivots.shape to be the same, but got pivots with "
                           f"shape {list(pivots.shape)} instead")
    if pivots.dtype.is_floating_point or pivots.dtype.is_complex or pivots.dtype._name == "bool":
        raise RuntimeError(f"{name}: Expected pivots to be integers. Got {_H.scalar_name(pivots.dtype)}")
    if LD.dtype != B.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type {_H.scalar_name(B.dtype)} "
                           f"and A of type {_H.scalar_name(LD.dtype)} instead.")
    if not (LD.dtype.is_floating_point or LD.dtype.is_complex):
        raise NotImplementedError(f"{name}: Expected a floating point or complex tensor as input. Got "
                                  f"{_H.scalar_name(LD.dtype)}")
    if LD.dtype._name in _LOW:
        raise NotImplementedError(f'"ldl_solve_kernel_cpu" not implemented for \'{_H.scalar_name(LD.dtype)}\'')
    _broadcast(tuple(B.shape[:-2]), tuple(LD.shape[:-2]))
    if not (pivots.is_meta or pivots.numel() == 0):
        mag = pivots.abs()
        if int(mag.max()) > LD.shape[-1]:
            raise RuntimeError("Pivots given to ldl_solve must all satisfy |pivot| <= LD.size(-2). Did you properly "
                               "pass the result of ldl_factor?")
        if int(mag.min()) < 1:
            raise RuntimeError("Pivots given to ldl_solve must all satisfy |pivot| >= 1. Did you properly pass the "
                               "result of ldl_factor?")
    compute = lambda ld, p, b: _ldl_solve_compute(ld, p, b, bool(hermitian))  # noqa: E731
    if needs_node(LD, B):
        X = _fn("ldl_solve").apply(compute, LD, pivots, B)
    else:
        (X,) = compute(LD, pivots, B)
    return _into(X, out)


# ----------------------------------------------------------------------------------------------
# Householder products


def _householder_checks(fn, A, tau):
    name = "torch.linalg.householder_product"
    if A.dim() < 2:
        raise RuntimeError(f"{name}: input must have at least 2 dimensions.")
    if A.shape[-2] < A.shape[-1]:
        raise RuntimeError(f"{name}: input.shape[-2] must be greater than or equal to input.shape[-1]")
    if A.shape[-1] < (tau.shape[-1] if tau.dim() else 1):
        raise RuntimeError(f"{name}: input.shape[-1] must be greater than or equal to tau.shape[-1]")
    if tau.dim() != A.dim() - 1:
        raise RuntimeError(f"{name}: Expected tau to have one dimension less than input, but got tau.ndim equal to "
                           f"{tau.dim()} and input.ndim is equal to {A.dim()}")
    if tuple(tau.shape[:-1]) != tuple(A.shape[:-2]):
        raise RuntimeError(f"{name}: Expected batch dimensions of tau to be equal to input.shape[:-2], but got "
                           f"{list(tau.shape[:-1])}")
    if tau.dtype != A.dtype:
        raise RuntimeError(f"{name}: tau dtype {_H.scalar_name(tau.dtype)} does not match input dtype "
                           f"{_H.scalar_name(A.dtype)}")
    if A.dtype._name in _LOW or not (A.dtype.is_floating_point or A.dtype.is_complex):
        raise NotImplementedError(f'"orgqr_cpu" not implemented for \'{_H.scalar_name(A.dtype)}\'')


def householder_product(A, tau, *, out=None):
    """The first n columns of the product of Householder reflectors `H_1 ... H_k` of each
    matrix (`*, m, n`, m >= n >= k): `H_i = I - tau_i v_i v_i^H` with v_i 1 at row i and A's
    column i below it (LAPACK's orgqr; `geqrf`'s output gives the Q of a QR decomposition)
    (LinalgHouseholderProductBackward0, differentiable in A's reflectors and tau).

    >>> torch.linalg.householder_product(torch.tensor([[1., 0.], [1., 1.]]), torch.tensor([1., 0.]))
    tensor([[ 0., -1.],
            [-1.,  0.]])
    """
    _check_tensor("linalg_householder_product", "input", 1, A)
    _check_tensor("linalg_householder_product", "tau", 2, tau)
    _householder_checks("householder_product", A, tau)
    return _into(_fn("LinalgHouseholderProductBackward0").apply(A, tau), out)


def orgqr(input, tau, *, out=None):
    """`torch.orgqr`: `torch.linalg.householder_product` (`Tensor.orgqr`).

    >>> a, tau = torch.geqrf(torch.tensor([[3., 0.], [4., 5.]]))
    >>> torch.orgqr(a, tau)
    tensor([[-0.6000, -0.8000],
            [-0.8000,  0.6000]])
    """
    _check_tensor("orgqr", "input", 1, input)
    _check_tensor("orgqr", "tau", 2, tau)
    _householder_checks("orgqr", input, tau)
    return _into(_fn("LinalgHouseholderProductBackward0").apply(input, tau), out)


def _geqrf_compute(A):
    from ._linalg_kernels import host_native

    a = host_native(A)
    m, n = a.shape[-2], a.shape[-1]
    k = min(m, n)
    if a.size == 0:
        h, tau = a.copy(), np.zeros(a.shape[:-2] + (k,), dtype=a.dtype)
    else:
        with np.errstate(all="ignore"):
            h, tau = _faer.qr(a, mode="raw")
        h = np.swapaxes(h, -1, -2)
    return _H.make(h, A.dtype, A.device), _H.make(tau, A.dtype, A.device)


def geqrf(input, *, out=None):
    """`torch.geqrf`: LAPACK's Householder QR of each matrix, in its packed form
    `torch.return_types.geqrf(a, tau)`: R on and above a's diagonal, the reflectors below it,
    their scales in tau (not differentiable, as in PyTorch; `Tensor.geqrf`).

    >>> torch.geqrf(torch.tensor([[3., 0.], [4., 5.]]))
    torch.return_types.geqrf(
    a=tensor([[-5.0000, -4.0000],
            [ 0.5000,  3.0000]]),
    tau=tensor([1.6000, 0.0000]))
    """
    A = input
    _check_tensor("geqrf", "input", 1, A)
    if A.dim() < 2:
        raise RuntimeError("torch.geqrf: input must have at least 2 dimensions.")
    if A.dtype._name in _LOW or not (A.dtype.is_floating_point or A.dtype.is_complex):
        raise NotImplementedError(f'"geqrf_cpu" not implemented for \'{_H.scalar_name(A.dtype)}\'')
    if needs_node(A):
        a, tau = _fn("geqrf").apply(_geqrf_compute, A)
    else:
        a, tau = _geqrf_compute(A)
    return _into(_Geqrf(a, tau), out)


# ----------------------------------------------------------------------------------------------
# Tensor equations, Vandermonde matrices


def _prod(shape):
    return math.prod(int(s) for s in shape)


def tensorinv(A, ind=2, *, out=None):
    """The inverse of `A` for `tensordot`: with `A` of shape `front + back` (`front = A.shape[:ind]`,
    `prod(front) == prod(back)`), the tensor X of shape `back + front` such that
    `tensordot(A, X, ind)` is the identity (`linalg.inv` of A as a matrix, reshaped).

    >>> torch.linalg.tensorinv(torch.eye(4).reshape(4, 2, 2), ind=1).shape
    torch.Size([2, 2, 4])
    """
    _check_tensor("linalg_tensorinv", "input", 1, A)
    if isinstance(ind, bool) or not isinstance(ind, int):
        raise TypeError(f"linalg_tensorinv(): argument 'ind' must be int, not {type(ind).__name__}")
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    front, back = tuple(A.shape[:ind]), tuple(A.shape[ind:])
    p_front, p_back = _prod(front), _prod(back)
    if p_front != p_back:
        raise RuntimeError("Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                           f"prod(self.shape[:ind]), but got {p_back} != {p_front}")
    from .linalg import _check_float

    M = A.reshape(p_front, p_back)
    _check_float("linalg.inv", M)
    X, _ = _fn("LinalgInvExBackward0").apply(M, True, "inv", True)
    return _into(X.reshape(back + front), out)


def tensorsolve(A, B, dims=None, *, out=None):
    """The tensor X with `tensordot(A, X, X.ndim) == B`: `A` has shape `B.shape + X.shape` (after
    moving its `dims` to the end), solved as one square system with `linalg.solve`.

    >>> torch.linalg.tensorsolve(torch.eye(6).reshape(2, 3, 6), torch.ones(2, 3)).shape
    torch.Size([6])
    """
    _check_tensor("linalg_tensorsolve", "input", 1, A)
    _check_tensor("linalg_tensorsolve", "other", 2, B)
    if dims is not None:
        dims = [dims] if isinstance(dims, int) else list(dims)
        nd = A.dim()
        A = A.movedim(dims, list(range(nd - len(dims), nd)))
    back = tuple(A.shape[B.dim():])
    p_back, count = _prod(back), B.numel()
    if p_back != count:
        raise RuntimeError("Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == "
                           f"prod(self.shape[:other.ndim]), but got {p_back} != {count}")
    X = solve(A.reshape(p_back, p_back), B.reshape(p_back))
    return _into(X.reshape(back), out)


def _vander_dtype(x):
    if x.dtype._name in ("float16", "bfloat16", "bool"):
        return None
    if x.dtype.is_floating_point or x.dtype.is_complex:
        return x.dtype
    return _torch().int64


def vander(x, *args, N=None):
    """The Vandermonde matrix of `x` with increasing powers: column j is `x ** j`, for
    j < N (default `x.shape[-1]`), over the last dim (`*, n` gives `*, n, N`); integers
    become int64 (a `cumprod`, as PyTorch computes it).

    >>> torch.linalg.vander(torch.tensor([1., 2., 3.]))
    tensor([[1., 1., 1.],
            [1., 2., 4.],
            [1., 3., 9.]])
    """
    if args:
        raise TypeError(f"linalg_vander() takes 1 positional argument but {1 + len(args)} were given")
    _check_tensor("linalg_vander", "x", 1, x)
    torch = _torch()
    if x.dim() == 0:
        x = x.unsqueeze(0)
    dtype = _vander_dtype(x)
    if dtype is None:
        raise NotImplementedError("linalg.vander supports floating point, complex, and integer tensors, but got "
                                  f"{_H.scalar_name(x.dtype)}")
    n = x.shape[-1] if N is None else N
    if n <= 1:
        raise RuntimeError("N must be greater than 1.")
    shape = tuple(x.shape)
    ones = torch.ones(*shape, 1, dtype=dtype, device=x.device)
    powers = x.unsqueeze(-1).expand(*shape, n - 1).cumprod(-1)
    return torch.cat([ones, powers.to(dtype)], -1)


def _vander_top(x, N=None, increasing=False):
    """`torch.vander`: the Vandermonde matrix of a 1-d `x` with N columns (default len(x)),
    decreasing powers unless `increasing`; integers and bools become int64.

    >>> torch.vander(torch.tensor([1., 2., 3.]), 3)
    tensor([[1., 1., 1.],
            [4., 2., 1.],
            [9., 3., 1.]])
    """
    _check_tensor("vander", "x", 1, x)
    if N is not None and (isinstance(N, bool) or not isinstance(N, int)):
        raise TypeError(f"vander(): argument 'N' (position 2) must be int, not {type(N).__name__}")
    if x.dim() != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    torch = _torch()
    n = x.shape[0] if N is None else N
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    dtype = x.dtype if (x.dtype.is_floating_point or x.dtype.is_complex) else torch.int64
    result = torch.empty(x.shape[0], n, dtype=dtype, device=x.device)
    if n > 0:
        result[:, 0] = 1
    if n > 1:
        result[:, 1:] = x.unsqueeze(1).expand(x.shape[0], n - 1).to(dtype).cumprod(1)
    return result if increasing else result.flip(1)


_vander_top.__name__ = _vander_top.__qualname__ = "vander"


def _install():
    T = Tensor
    T.orgqr = lambda self, input2: orgqr(self, input2)
    T.geqrf = lambda self: geqrf(self)


_install()
