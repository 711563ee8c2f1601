"""`torch.linalg.eig`/`eigvals` and the LU family (`lu_factor`, `lu_factor_ex`, `lu`,
`lu_solve`, `torch.lu_unpack`, the deprecated `torch.lu`/`torch.lu_solve`), on `linalg`'s
checks; their nodes are in `_linalg_nodes`."""
from . import _warn
from ._core import Tensor
from .linalg import _H, _LOW, _broadcast, _check_matrix, _check_square, _check_tensor, _fn, _into, _result_type

_Eig = _result_type("linalg_eig", ["eigenvalues", "eigenvectors"])
_LuFactor = _result_type("linalg_lu_factor", ["LU", "pivots"])
_LuFactorEx = _result_type("linalg_lu_factor_ex", ["LU", "pivots", "info"])
_Lu = _result_type("linalg_lu", ["P", "L", "U"])
_LuUnpack = _result_type("lu_unpack", ["P", "L", "U"])
_LuWithInfo = _result_type("_lu_with_info", ["LU", "pivots", "info"])


# ----------------------------------------------------------------------------------------------
# eig


def _eig_checks(fn, A):
    _check_tensor(fn, "input", 1, A)
    if not (A.dtype.is_floating_point or A.dtype.is_complex):
        raise RuntimeError(f"Unknown Complex ScalarType for {_H.scalar_name(A.dtype)}")
    _check_square("linalg.eig" if fn == "linalg_eig" else "linalg.eigvals", A)
    if A.dtype._name in _LOW:
        raise NotImplementedError(f'"linalg_eig_out_cpu" not implemented for \'{_H.scalar_name(A.dtype)}\'')


def _check_out_complex(out, dtype, names):
    for o, name in zip(out, names):
        if not o.dtype.is_complex:
            raise RuntimeError(f"torch.linalg.eig: Expected {name} to be safely castable from "
                               f"{_H.scalar_name(dtype)} dtype, but got {name} with dtype {_H.scalar_name(o.dtype)}")


def eig(input, *, out=None):
    """The eigenvalues and eigenvectors of each square matrix, complex even for real input:
    `linalg_eig(eigenvalues, eigenvectors)` with `A V = V diag(eigenvalues)`, each eigenvector
    of unit norm with its largest component real (LAPACK's geev; no particular order)
    (LinalgEigBackward0). A loss that depends on the eigenvectors' phases cannot be
    differentiated (PyTorch's error); a non-finite input raises.

    >>> torch.linalg.eig(torch.tensor([[2., 0.], [0., 3.]]))
    torch.return_types.linalg_eig(
    eigenvalues=tensor([2.+0.j, 3.+0.j]),
    eigenvectors=tensor([[1.+0.j, 0.+0.j],
            [0.+0.j, 1.+0.j]]))
    """
    A = input
    _eig_checks("linalg_eig", A)
    if out is not None:
        _check_out_complex(out, A.dtype if A.is_complex() else A.dtype.to_complex(), ("eigenvalues", "eigenvectors"))
    w, V = _fn("LinalgEigBackward0").apply(A)
    return _into(_Eig(w, V), out)


def eigvals(input, *, out=None):
    """The eigenvalues of each square matrix, complex (computed through `eig`, so recording
    LinalgEigBackward0, as PyTorch does for an input that requires grad).

    >>> torch.linalg.eigvals(torch.tensor([[0., -1.], [1., 0.]]))
    tensor([0.+1.j, 0.-1.j])
    """
    A = input
    _eig_checks("linalg_eigvals", A)
    if out is not None:
        _check_out_complex((out,), A.dtype if A.is_complex() else A.dtype.to_complex(), ("eigenvalues",))
    w, _ = _fn("LinalgEigBackward0").apply(A)
    return _into(w, out)


_EIG_REMOVED = (
    "This function was deprecated since version 1.9 and is now removed. `torch.linalg.eig` returns complex tensors "
    "of dtype `cfloat` or `cdouble` rather than real tensors mimicking complex tensors.\n\nL, _ = torch.eig(A) should "
    "be replaced with:\nL_complex = torch.linalg.eigvals(A)\n\nand\n\nL, V = torch.eig(A, eigenvectors=True) should "
    "be replaced with:\nL_complex, V_complex = torch.linalg.eig(A)")


def _eig_top(input, eigenvectors=False, *, out=None):
    """`torch.eig`: removed in PyTorch 2.x, which raises this RuntimeError pointing to
    `torch.linalg.eig` (`Tensor.eig` too).

    >>> try:
    ...     torch.eig(torch.eye(2))
    ... except RuntimeError as e:
    ...     print(str(e).splitlines()[-1])
    L_complex, V_complex = torch.linalg.eig(A)
    """
    raise RuntimeError(_EIG_REMOVED)


# ----------------------------------------------------------------------------------------------
# LU


def _lu_checks(name, A, pivot):
    if A.dim() < 2:
        raise RuntimeError(f"{name}: Expected tensor with 2 or more dimensions. Got size: {list(A.shape)} instead")
    if A.dtype._name in _LOW or not (A.dtype.is_floating_point or A.dtype.is_complex):
        raise NotImplementedError(f'"lu_cpu" not implemented for \'{_H.scalar_name(A.dtype)}\'')
    if not pivot and not A.is_cuda:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")


def lu_factor_ex(A, *, pivot=True, check_errors=False, out=None):
    """`lu_factor` that also returns LAPACK's `info` (int32 per matrix: 0, or the 1-based index
    of the first zero on U's diagonal) instead of raising, unless `check_errors`.

    >>> torch.linalg.lu_factor_ex(torch.tensor([[1., 2.], [2., 4.]])).info
    tensor(2, dtype=torch.int32)
    """
    _check_tensor("linalg_lu_factor_ex", "A", 1, A)
    _lu_checks("torch.lu_factor", A, pivot)
    LU, piv, info = _fn("LinalgLuFactorExBackward0").apply(A, bool(pivot), bool(check_errors),
                                                             "torch.linalg.lu_factor_ex")
    return _into(_LuFactorEx(LU, piv, info), out)


def lu_factor(A, *, pivot=True, out=None):
    """The LU decomposition of each matrix (`*, m, n`) with partial pivoting, packed as LAPACK
    leaves it: `linalg_lu_factor(LU, pivots)`, L (unit diagonal, not stored) below the diagonal
    of LU and U on and above it; `pivots` (int32, 1-based) says that row i was swapped with row
    `pivots[i]`. A zero on U's diagonal raises (use `lu_factor_ex` or `lu` to get it anyway)
    (LinalgLuFactorExBackward0). `pivot=False` is CUDA-only, as in PyTorch.

    >>> torch.linalg.lu_factor(torch.tensor([[1., 2.], [3., 4.]]))
    torch.return_types.linalg_lu_factor(
    LU=tensor([[3.0000, 4.0000],
            [0.3333, 0.6667]]),
    pivots=tensor([2, 2], dtype=torch.int32))
    """
    _check_tensor("linalg_lu_factor", "A", 1, A)
    _lu_checks("torch.lu_factor", A, pivot)
    LU, piv, _ = _fn("LinalgLuFactorExBackward0").apply(A, bool(pivot), True, "torch.linalg.lu_factor")
    return _into(_LuFactor(LU, piv), out)


def lu(A, *, pivot=True, out=None):
    """The LU decomposition `A = P L U` of each matrix (`*, m, n`) with partial pivoting:
    `linalg_lu(P, L, U)`, P a permutation matrix (of A's dtype), L (m x k, unit diagonal) and U
    (k x n), k = min(m, n). Singular matrices are fine (U then has a zero on its diagonal)
    (LinalgLuBackward0).

    >>> torch.linalg.lu(torch.tensor([[1., 2.], [3., 4.]]))
    torch.return_types.linalg_lu(
    P=tensor([[0., 1.],
            [1., 0.]]),
    L=tensor([[1.0000, 0.0000],
            [0.3333, 1.0000]]),
    U=tensor([[3.0000, 4.0000],
            [0.0000, 0.6667]]))
    """
    _check_tensor("linalg_lu", "A", 1, A)
    _lu_checks("linalg.lu", A, pivot)
    P, Lt, Ut = _fn("LinalgLuBackward0").apply(A, bool(pivot))
    return _into(_Lu(P, Lt, Ut), out)


def _check_pivots_shape(name, LU, pivots):
    if tuple(pivots.shape) != tuple(LU.shape[:-1]):
        raise RuntimeError(f"{name}: Expected LU.shape[:-1] and pivots.shape to be the same, but got pivots with "
                           f"shape {list(pivots.shape)} instead")


def lu_solve(LU, pivots, B, *, left=True, adjoint=False, out=None):
    """The solution X of `A X = B` from `lu_factor`'s LU and pivots of A (`A^H X = B` with
    `adjoint`, `X A = B` with `left=False`); B is `*, n, k`, batch dims broadcast
    (LinalgLuSolveBackward0).

    >>> LU, pivots = torch.linalg.lu_factor(torch.tensor([[3., 1.], [1., 2.]]))
    >>> torch.linalg.lu_solve(LU, pivots, torch.tensor([[9.], [8.]]))
    tensor([[2.],
            [3.]])
    """
    _check_tensor("linalg_lu_solve", "LU", 1, LU)
    _check_tensor("linalg_lu_solve", "pivots", 2, pivots)
    _check_tensor("linalg_lu_solve", "B", 3, B)
    name = "linalg.lu_solve"
    if LU.dtype != B.dtype:
        raise RuntimeError(f"{name}: Expected LU and B to have the same dtype, but found LU of type "
                           f"{_H.scalar_name(LU.dtype)} and B of type {_H.scalar_name(B.dtype)} instead")
    if pivots.dtype._name != "int32":
        raise RuntimeError(f"{name}: pivots should be a Tensor of scalar type torch.int32")
    _check_matrix("torch.linalg.lu_solve", LU)
    if LU.shape[-1] != LU.shape[-2]:
        raise RuntimeError(f"torch.linalg.lu_solve: A must be batches of square matrices, but they are "
                           f"{LU.shape[-2]} by {LU.shape[-1]} matrices")
    if not (LU.dtype.is_floating_point or LU.dtype.is_complex):
        raise NotImplementedError(f"torch.linalg.lu_solve: Expected a floating point or complex tensor as input. Got "
                                  f"{_H.scalar_name(LU.dtype)}")
    if B.dim() < 2:
        raise RuntimeError(f"{name}: The input tensor B must have at least 2 dimensions.")
    n = LU.shape[-1]
    if (B.shape[-2] if left else B.shape[-1]) != n:
        eq = "AX = B" if left else "XA = B"
        raise RuntimeError(f"{name}: Incompatible shapes of A and B for the equation {eq} ({n}x{n} and "
                           f"{B.shape[-2]}x{B.shape[-1]})")
    if pivots.dim() < 1:
        raise IndexError("Dimension specified as -1 but tensor has no dimensions")
    _check_pivots_shape(name, LU, pivots)
    if LU.dtype._name in _LOW:
        raise NotImplementedError(f'"linalg.lu_solve_cpu" not implemented for \'{_H.scalar_name(LU.dtype)}\'')
    _broadcast(tuple(B.shape[:-2]), tuple(LU.shape[:-2]))
    if not (pivots.is_meta or pivots.numel() == 0):
        top, low = int(pivots.max()), int(pivots.min())
        if top > n or low < 1:
            raise RuntimeError("Pivots given to lu_solve must all be smaller or equal to LU.size(-2). Did you "
                               "properly pass the result of lu_factor?" if top > n else
                               "Pivots given to lu_solve must all be greater or equal to 1. Did you properly pass "
                               "the result of lu_factor?")
    X = _fn("LinalgLuSolveBackward0").apply(LU, pivots, B, bool(left), bool(adjoint))
    return _into(X, out)


def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True, *, out=None):
    """`torch.lu_unpack`: P, L and U from `lu_factor`'s packed LU and pivots, `A = P L U`
    (`torch.return_types.lu_unpack(P, L, U)`); `unpack_data=False` / `unpack_pivots=False`
    leave L and U / P empty (LuUnpackBackward0).

    >>> torch.lu_unpack(*torch.linalg.lu_factor(torch.tensor([[1., 2.], [3., 4.]]))).P
    tensor([[0., 1.],
            [1., 0.]])
    """
    _check_tensor("lu_unpack", "LU_data", 1, LU_data)
    _check_tensor("lu_unpack", "LU_pivots", 2, LU_pivots)
    LU, piv = LU_data, LU_pivots
    if LU.dim() < 2:
        raise RuntimeError(f"torch.lu_unpack: Expected tensor with 2 or more dimensions. Got size: {list(LU.shape)} "
                           "instead")
    if unpack_pivots:
        if piv.dtype._name != "int32":
            raise RuntimeError("torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of torch.int32 "
                               "dtype.\nNote: this function is intended to be used with the output produced by "
                               "torch.linalg.lu_factor")
        m, n = LU.shape[-2], LU.shape[-1]
        want = list(LU.shape[:-2]) + [min(m, n)]
        if list(piv.shape) != want:
            raise ValueError(f"Expected LU_pivots to have shape {want} but got {list(piv.shape)} instead.")
        if not (piv.is_meta or piv.numel() == 0) and (int(piv.max()) > m or int(piv.min()) < 1):
            raise RuntimeError("pivots passed to lu_unpack must be between 1 and LU.size(-2) inclusive.Did you "
                               "properly pass the result of lu_factor?")
    P, Lt, Ut = _fn("LuUnpackBackward0").apply(LU, piv, bool(unpack_data), bool(unpack_pivots))
    return _into(_LuUnpack(P, Lt, Ut), out)


_LU_DEPRECATED = (
    "torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex and will be removed in a "
    "future PyTorch release.\nLU, pivots = torch.lu(A, compute_pivots)\nshould be replaced with\nLU, pivots = "
    "torch.linalg.lu_factor(A, compute_pivots)\nand\nLU, pivots, info = torch.lu(A, compute_pivots, get_infos=True)"
    "\nshould be replaced with\nLU, pivots, info = torch.linalg.lu_factor_ex(A, compute_pivots) (Triggered "
    "internally at /__w/pytorch/pytorch/aten/src/ATen/native/BatchLinearAlgebra.cpp:2052.)")

_LU_SOLVE_DEPRECATED = (
    "torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a future PyTorch release."
    "\nNote that torch.linalg.lu_solve has its arguments reversed.\nX = torch.lu_solve(B, LU, pivots)\nshould be "
    "replaced with\nX = torch.linalg.lu_solve(LU, pivots, B) (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/BatchLinearAlgebra.cpp:2209.)")


def _lu_top(A, pivot=True, get_infos=False, out=None):
    """`torch.lu`, deprecated: `linalg.lu_factor_ex`'s (LU, pivots) as a tuple, with `info`
    (`torch.return_types._lu_with_info`) if `get_infos`; never raises for singular matrices
    (`Tensor.lu`). Warns once, as PyTorch.

    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     torch.lu(torch.tensor([[1., 2.], [3., 4.]]))
    (tensor([[3.0000, 4.0000],
            [0.3333, 0.6667]]), tensor([2, 2], dtype=torch.int32))
    """
    _warn.warn_once("torch.lu", _LU_DEPRECATED, UserWarning, stacklevel=2)
    _check_tensor("_lu_with_info", "input", 1, A)
    _lu_checks("torch.lu_factor", A, pivot)
    LU, piv, info = _fn("LinalgLuFactorExBackward0").apply(A, bool(pivot), False, "torch.linalg.lu_factor_ex")
    if get_infos:
        r = _LuWithInfo(LU, piv, info)
        if out is not None:
            for o, v in zip(out, r):
                o.resize_(v.shape).copy_(v)
            return tuple(out)
        return r
    if out is not None:
        for o, v in zip(out, (LU, piv)):
            o.resize_(v.shape).copy_(v)
        return tuple(out)
    return LU, piv


def _lu_solve_top(input, LU_data, LU_pivots, *, out=None):
    """`torch.lu_solve(b, LU_data, LU_pivots)`, deprecated: `linalg.lu_solve(LU_data,
    LU_pivots, b)` (`Tensor.lu_solve`). Warns once, as PyTorch.

    >>> import warnings
    >>> LU, pivots = torch.linalg.lu_factor(torch.tensor([[3., 1.], [1., 2.]]))
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     torch.lu_solve(torch.tensor([[9.], [8.]]), LU, pivots)
    tensor([[2.],
            [3.]])
    """
    _warn.warn_once("torch.lu_solve", _LU_SOLVE_DEPRECATED, UserWarning, stacklevel=2)
    _check_tensor("lu_solve", "input", 1, input)
    return lu_solve(LU_data, LU_pivots, input, out=out)


for _f, _name in ((_eig_top, "eig"), (_lu_top, "lu"), (_lu_solve_top, "lu_solve")):
    _f.__name__ = _f.__qualname__ = _name
del _f, _name


def _install():
    T = Tensor
    T.eig = lambda self, eigenvectors=False: _eig_top(self, eigenvectors)
    T.lu = lambda self, pivot=True, get_infos=False: _lu_top(self, pivot, get_infos)
    T.lu_solve = lambda self, LU_data, LU_pivots: _lu_solve_top(self, LU_data, LU_pivots)


_install()
