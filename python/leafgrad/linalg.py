"""`torch.linalg`: norms, products, and the decompositions with their gradients.

The norms dispatch as PyTorch's do (LinalgVectorNormBackward0; amax/amin of column sums for
the 1 and inf matrix norms; amax/amin/sum of singular values for 2, -2 and 'nuc'). The
decompositions — `inv`, `inv_ex`, `solve`, `solve_ex`, `det`, `slogdet`, `cholesky`,
`cholesky_ex`, `qr`, `eigh`, `eigvalsh`, `svd`, `svdvals`, `lstsq`, `pinv`, `matrix_exp`,
`matrix_power`, `matrix_rank`, `solve_triangular`, `cond`, `eig`, `eigvals`, `lu_factor`,
`lu_factor_ex`, `lu`, `lu_solve`, `householder_product` — run LAPACK through numpy on the host
(or its algorithm in numpy where numpy has no wrapper: LU, Bunch-Kaufman LDL^T, Householder
products), in double precision, and record PyTorch's node (`LinalgInvExBackward0`, ...) whose
backward is written with leafgrad's ops, so gradients of gradients work (forward-mode AD too,
its tangents computed on the host). `ldl_factor`/`ldl_solve` have no derivative, as in PyTorch.
Not there yet: `matrix_sqrth`, `polar`.

>>> torch.linalg.norm(torch.tensor([3., 4.]))
tensor(5.)
>>> torch.linalg.inv(torch.tensor([[2., 0.], [0., 4.]]))
tensor([[0.5000, 0.0000],
        [0.0000, 0.2500]])
"""
import math

from ._core import Tensor
from ._math_extra import linalg_cross as cross

from . import _linalg_host as _H
from ._linalg_host import LinAlgError

__all__ = ["vector_norm", "matrix_norm", "norm", "cross", "vecdot", "matmul", "multi_dot", "diagonal", "inv", "inv_ex",
           "solve", "solve_ex", "det", "slogdet", "cholesky", "cholesky_ex", "qr", "eigh", "eigvalsh", "svd", "svdvals",
           "lstsq", "pinv", "matrix_exp", "matrix_power", "matrix_rank", "solve_triangular", "cond", "eig", "eigvals",
           "lu_factor", "lu_factor_ex", "lu", "lu_solve", "ldl_factor", "ldl_factor_ex", "ldl_solve",
           "householder_product", "tensorinv", "tensorsolve", "vander", "LinAlgError"]


def _torch():
    import leafgrad

    return leafgrad


def _dims(dim, nd, fn):
    for d in dim:
        if not -nd <= d < nd:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-nd}, {nd - 1}], but got {d})")
    return [d % nd for d in dim]


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None):
    """The `ord`-norm of `x`'s elements (over `dim`, or all of them): `sum(|x|**ord)**(1/ord)`,
    the largest/smallest |x| for ±inf, the count of non-zeros for 0 (LinalgVectorNormBackward0).

    >>> torch.linalg.vector_norm(torch.tensor([[3., -4.], [0., 12.]]), ord=1, dim=1)
    tensor([ 7., 12.])
    """
    if not isinstance(x, Tensor):
        raise TypeError(f"linalg_vector_norm(): argument 'input' (position 1) must be Tensor, not {type(x).__name__}")
    if isinstance(ord, str):
        raise TypeError(f"linalg_vector_norm(): argument 'ord' must be Number, not {type(ord).__name__}")
    if dtype is not None:
        x = x.to(dtype)
    if isinstance(dim, int):
        dim = (dim,)
    r = x.norm(p=float(ord), dim=None if dim is None else tuple(dim), keepdim=keepdim)
    if out is not None:
        return out.resize_(r.shape).copy_(r)
    return r


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None, out=None):
    """A matrix norm over the two dims `dim`: `'fro'` (the 2-norm of the elements), 1 / -1
    (the largest / smallest column sum of |A|), inf / -inf (of row sums), 2 / -2 (the largest /
    smallest singular value), `'nuc'` (the sum of the singular values).

    >>> torch.linalg.matrix_norm(torch.tensor([[1., -2.], [3., 4.]]), ord=1)
    tensor(6.)
    >>> torch.linalg.matrix_norm(torch.tensor([[3., 0.], [0., -4.]]), ord=2)
    tensor(4.)
    >>> torch.linalg.matrix_norm(torch.tensor([[3., 0.], [0., -4.]]), ord='nuc')
    tensor(7.)
    """
    if A.dim() < 2:
        raise RuntimeError(f"linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    dim = list(dim)
    if len(dim) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(str(d) for d in dim)}")
    d0, d1 = _dims(dim, A.dim(), "matrix_norm")
    if d0 == d1:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({dim[0]}, {dim[1]})")
    if dtype is not None:
        A = A.to(dtype)
    if isinstance(ord, str):
        if ord == "fro":
            r = vector_norm(A, 2, (d0, d1), keepdim)
        elif ord == "nuc":
            r = _singular_value_norm(A, "nuc", d0, d1, keepdim)
        else:
            raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    else:
        o = float(ord)
        if abs(o) == 2:
            r = _singular_value_norm(A, o, d0, d1, keepdim)
            if out is not None:
                return out.resize_(r.shape).copy_(r)
            return r
        if abs(o) not in (1.0, math.inf):
            raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
        if abs(o) == math.inf:
            d0, d1 = d1, d0
        if not keepdim and d0 < d1:
            d1 -= 1
        s = vector_norm(A, 1.0, d0, keepdim)
        r = s.amax(d1, keepdim) if o > 0 else s.amin(d1, keepdim)
    if out is not None:
        return out.resize_(r.shape).copy_(r)
    return r


def _singular_value_norm(A, ord, d0, d1, keepdim):
    """The 2, -2 and 'nuc' norms: amax / amin / sum of the singular values of A with dims
    (d0, d1) moved last (LinalgSvdBackward0 under AmaxBackward0, AminBackward0, SumBackward1)."""
    _check_float("linalg.matrix_norm", A, low_precision=None)
    nd = A.dim()
    perm = [i for i in range(nd) if i not in (d0, d1)] + [d0, d1]
    batch = [A.shape[i] for i in perm[:-2]]
    if A.shape[d0] == 0 or A.shape[d1] == 0:
        if ord != "nuc" and ord < 0:
            raise IndexError("amin(): Expected reduction dim -1 to have non-zero size.")
        r = A.new_zeros(batch, dtype=A.dtype.to_real())
    else:
        s = svdvals(A.permute(perm))
        r = s.sum(-1) if ord == "nuc" else (s.amax(-1) if ord > 0 else s.amin(-1))
    if keepdim:
        inverse = [perm.index(i) for i in range(nd)]
        r = r.unsqueeze(-1).unsqueeze(-1).permute(inverse)
    return r


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None, out=None):
    """A vector norm (one `dim`, or a 1-d input) or a matrix norm (two dims, or a 2-d input
    with `ord` given); without `ord` and `dim`, the 2-norm of all the elements.

    >>> torch.linalg.norm(torch.tensor([[1., -2.], [3., 4.]]), ord=float("inf"))
    tensor(7.)
    """
    if dim is not None:
        dims = (dim,) if isinstance(dim, int) else tuple(dim)
        if len(dims) == 1:
            r = vector_norm(A, 2 if ord is None else ord, dims, keepdim, dtype=dtype)
        else:
            r = matrix_norm(A, "fro" if ord is None else ord, dims, keepdim, dtype=dtype)
    elif ord is None:
        r = vector_norm(A, 2, None, keepdim, dtype=dtype)
    elif A.dim() == 1:
        r = vector_norm(A, ord, None, keepdim, dtype=dtype)
    elif A.dim() == 2:
        r = matrix_norm(A, ord, (-2, -1), keepdim, dtype=dtype)
    else:
        raise RuntimeError(
            f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got {A.dim()}D.")
    if out is not None:
        return out.resize_(r.shape).copy_(r)
    return r


def vecdot(x, y, *, dim=-1, out=None):
    """The dot product of `x` and `y` along `dim` (conjugating `x`), broadcasting the others.

    >>> torch.linalg.vecdot(torch.tensor([[1., 2.], [3., 4.]]), torch.tensor([1., 1.]))
    tensor([3., 7.])
    """
    r = (x.conj() * y).sum(dim) if x.is_complex() else (x * y).sum(dim)
    if out is not None:
        return out.resize_(r.shape).copy_(r)
    return r


def matmul(input, other, *, out=None):
    """`torch.matmul`.

    >>> torch.linalg.matmul(torch.eye(2), torch.tensor([[1.], [2.]]))
    tensor([[1.],
            [2.]])
    """
    r = _torch().matmul(input, other)
    if out is not None:
        return out.resize_(r.shape).copy_(r)
    return r


def multi_dot(tensors, *, out=None):
    """The product of a chain of matrices (the first and last may be vectors), multiplied in
    the cheapest order, as PyTorch chooses it.

    >>> torch.linalg.multi_dot([torch.tensor([1., 2.]), torch.eye(2), torch.tensor([3., 4.])])
    tensor(11.)
    """
    ts = list(tensors)
    n = len(ts)
    if n < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {n}")
    first_vec, last_vec = ts[0].dim() == 1, ts[-1].dim() == 1
    if first_vec:
        ts[0] = ts[0].unsqueeze(0)
    if last_vec:
        ts[-1] = ts[-1].unsqueeze(-1)
    for i, t in enumerate(ts):
        if t.dim() != 2:
            which = "first" if i == 0 else ("last" if i == n - 1 else None)
            if which:
                raise RuntimeError(f"multi_dot(): the {which} tensor must be 1D or 2D but got {t.dim()}D")
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {t.dim()}D")
    for i in range(n - 1):
        if ts[i].shape[1] != ts[i + 1].shape[0]:
            raise RuntimeError(
                f"multi_dot(): tensors {i} and {i + 1} with shapes {list(ts[i].shape)} and "
                f"{list(ts[i + 1].shape)} cannot be multiplied")
    r = _chain(ts, _order(ts), 0, n - 1)
    if first_vec and last_vec:
        r = r.view(())
    elif first_vec or last_vec:
        r = r.view(-1)
    if out is not None:
        return out.resize_(r.shape).copy_(r)
    return r


def _order(ts):
    """The matrix-chain order (PyTorch's dynamic programme; ties to the left split)."""
    n = len(ts)
    p = [ts[0].shape[0]] + [t.shape[1] for t in ts]
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = None
            for k in range(i, j):
                q = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if cost[i][j] is None or q < cost[i][j]:
                    cost[i][j], split[i][j] = q, k
    return split


def _chain(ts, split, i, j):
    if i == j:
        return ts[i]
    k = split[i][j]
    return _chain(ts, split, i, k).mm(_chain(ts, split, k + 1, j))


def diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    """`torch.diagonal` with the matrix dims last by default.

    >>> torch.linalg.diagonal(torch.tensor([[1., 2.], [3., 4.]]))
    tensor([1., 4.])
    """
    return A.diagonal(offset, dim1, dim2)


# ----------------------------------------------------------------------------------------------
# Decompositions

from ._math_extra import _named_result  # noqa: E402

_OUT_TYPES = {}


def _result_type(name, fields):
    """`torch.return_types.<name>`, and its `<name>_out` (what a call with `out=` returns)."""
    cls = _named_result(name, fields)
    _OUT_TYPES[cls] = _named_result(name + "_out", fields)
    return cls


_InvEx = _result_type("linalg_inv_ex", ["inverse", "info"])
_SolveEx = _result_type("linalg_solve_ex", ["result", "info"])
_Slogdet = _result_type("linalg_slogdet", ["sign", "logabsdet"])
_SlogdetTop = _result_type("slogdet", ["sign", "logabsdet"])
_CholeskyEx = _result_type("linalg_cholesky_ex", ["L", "info"])
_Qr = _result_type("linalg_qr", ["Q", "R"])
_Eigh = _result_type("linalg_eigh", ["eigenvalues", "eigenvectors"])
_Svd = _result_type("linalg_svd", ["U", "S", "Vh"])
_SvdTop = _result_type("svd", ["U", "S", "V"])
_Lstsq = _result_type("linalg_lstsq", ["solution", "residuals", "rank", "singular_values"])

_LOW = ("float16", "bfloat16")


def _check_tensor(fn, name, pos, value):
    if not isinstance(value, Tensor):
        raise TypeError(f"{fn}(): argument '{name}' (position {pos}) must be Tensor, not {type(value).__name__}")


def _check_matrix(name, A, arg="A"):
    if A.dim() < 2:
        raise RuntimeError(f"{name}: The input tensor {arg} must have at least 2 dimensions.")


def _check_square(name, A):
    _check_matrix(name, A)
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"{name}: A must be batches of square matrices, but they are {A.shape[-2]} by "
                           f"{A.shape[-1]} matrices")


def _check_float(name, A, low_precision=None):
    """PyTorch's dtype checks: integers are refused by name; float16/bfloat16 by name
    (`low_precision=None`) or as a missing CPU kernel (`low_precision='lu_cpu'`, ...)."""
    if not (A.dtype.is_floating_point or A.dtype.is_complex):
        raise NotImplementedError(f"{name}: Expected a floating point or complex tensor as input. Got "
                                  f"{_H.scalar_name(A.dtype)}")
    if A.dtype._name in _LOW:
        if low_precision is None:
            raise NotImplementedError(f"{name}: Low precision dtypes not supported. Got {_H.scalar_name(A.dtype)}")
        raise NotImplementedError(f'"{low_precision}" not implemented for \'{_H.scalar_name(A.dtype)}\'')


def _broadcast(a, b):
    """The broadcast of batch shapes `a` and `b`, with PyTorch's message when they do not."""
    nd = max(len(a), len(b))
    out = []
    for i in range(nd):
        off = nd - 1 - i
        x = a[len(a) - 1 - off] if len(a) - 1 - off >= 0 else 1
        y = b[len(b) - 1 - off] if len(b) - 1 - off >= 0 else 1
        if x != y and x != 1 and y != 1:
            raise RuntimeError(f"The size of tensor a ({x}) must match the size of tensor b ({y}) at non-singleton "
                               f"dimension {i}")
        out.append(y if x == 1 else x)
    return tuple(out)


def _fn(key):
    return _H.function(key)


def _into(r, out):
    if out is None:
        return r
    if isinstance(r, Tensor):
        return out.resize_(r.shape).copy_(r)
    for o, v in zip(out, r):
        o.resize_(v.shape).copy_(v)
    return _OUT_TYPES[type(r)](*out)


def inv_ex(A, *, check_errors=False, out=None):
    """The inverse of each square matrix and LAPACK's `info` (int32, per matrix: 0, or the
    index of the zero pivot of a singular matrix, whose "inverse" is then meaningless). With
    `check_errors=True` a singular matrix raises `LinAlgError`.

    >>> torch.linalg.inv_ex(torch.tensor([[1., 2.], [2., 4.]])).info
    tensor(2, dtype=torch.int32)
    """
    _check_tensor("linalg_inv_ex", "A", 1, A)
    _check_square("linalg.inv", A)
    _check_float("linalg.inv", A)
    X, info = _fn("LinalgInvExBackward0").apply(A, check_errors, "linalg.inv_ex", False)
    return _into(_InvEx(X, info), out)


def inv(A, *, out=None):
    """The inverse of each square matrix of `A` (`*, n, n`); a singular one raises `LinAlgError`
    naming its zero pivot (LinalgInvExBackward0; backward `-X^H G X^H`).

    >>> torch.linalg.inv(torch.tensor([[4., 7.], [2., 6.]], dtype=torch.float64))
    tensor([[ 0.6000, -0.7000],
            [-0.2000,  0.4000]], dtype=torch.float64)
    """
    _check_tensor("linalg_inv", "A", 1, A)
    _check_square("linalg.inv", A)
    _check_float("linalg.inv", A)
    X, _ = _fn("LinalgInvExBackward0").apply(A, True, "linalg.inv", False)
    return _into(X, out)


def inverse(input, *, out=None):
    """`torch.inverse`: `torch.linalg.inv` (`Tensor.inverse`).

    >>> torch.inverse(torch.tensor([[2., 0.], [0., 8.]]))
    tensor([[0.5000, 0.0000],
            [0.0000, 0.1250]])
    """
    _check_tensor("inverse", "input", 1, input)
    return inv(input, out=out)


def _solve_checks(name, A, B, left):
    if not (A.dtype.is_floating_point or A.dtype.is_complex):
        _check_float(name, A)
    if A.dtype != B.dtype:
        raise RuntimeError(f"{name}: Expected A and B to have the same dtype, but found A of type "
                           f"{_H.scalar_name(A.dtype)} and B of type {_H.scalar_name(B.dtype)} instead")
    _check_matrix(name, A)
    if B.dim() < 1:
        raise RuntimeError(f"{name}: The input tensor B must have at least 2 dimensions.")
    _check_square(name, A)
    _check_float(name, A, "lu_cpu")
    n = A.shape[-1]
    vector = B.dim() == 1 or (B.dim() == A.dim() - 1 and tuple(B.shape) == tuple(A.shape[:-1]))
    bs = (B.shape[-1], 1) if vector else (B.shape[-2], B.shape[-1])
    if (bs[0] if left else bs[1]) != n:
        eq = "AX = B" if left else "XA = B"
        raise RuntimeError(f"{name}: Incompatible shapes of A and B for the equation {eq} ({n}x{n} and {bs[0]}x{bs[1]})")
    batch_b = B.shape[:-1] if vector else B.shape[:-2]
    _broadcast(tuple(batch_b), tuple(A.shape[:-2]))
    return vector


def solve_ex(A, B, *, left=True, check_errors=False, out=None):
    """`solve` that also returns LAPACK's `info` per matrix (int32; non-zero for a singular
    matrix, whose solution is then meaningless) instead of raising, unless `check_errors`.

    >>> torch.linalg.solve_ex(torch.tensor([[2., 0.], [0., 4.]]), torch.tensor([1., 1.]))
    torch.return_types.linalg_solve_ex(
    result=tensor([0.5000, 0.2500]),
    info=tensor(0, dtype=torch.int32))
    """
    _check_tensor("linalg_solve_ex", "A", 1, A)
    _check_tensor("linalg_solve_ex", "B", 2, B)
    vector = _solve_checks("linalg.solve", A, B, left)
    X, info = _fn("LinalgSolveExBackward0").apply(A, B, left, vector, check_errors, "torch.linalg.solve_ex")
    return _into(_SolveEx(X, info), out)


def solve(A, B, *, left=True, out=None):
    """The solution X of `A X = B` (`X A = B` with `left=False`) for square `A` (`*, n, n`) and
    `B` a matrix (`*, n, k`) or a vector (`n` or `*, n`), batch dims broadcast; a singular `A`
    raises `LinAlgError` (LinalgSolveExBackward0).

    >>> torch.linalg.solve(torch.tensor([[3., 1.], [1., 2.]]), torch.tensor([9., 8.]))
    tensor([2., 3.])
    """
    _check_tensor("linalg_solve", "A", 1, A)
    _check_tensor("linalg_solve", "B", 2, B)
    vector = _solve_checks("linalg.solve", A, B, left)
    X, _ = _fn("LinalgSolveExBackward0").apply(A, B, left, vector, True, "torch.linalg.solve")
    return _into(X, out)


def det(A, *, out=None):
    """The determinant of each square matrix (LinalgDetBackward0: `det · A^{-H}` times the
    gradient; at a singular matrix the adjugate when differentiating twice, and 0 on the first
    backward, as PyTorch).

    >>> torch.linalg.det(torch.tensor([[2., 1.], [1., 3.]]))
    tensor(5.)
    """
    _check_tensor("linalg_det", "A", 1, A)
    _check_square("linalg.det", A)
    _check_float("linalg.det", A, "lu_cpu")
    return _into(_fn("LinalgDetBackward0").apply(A), out)


def _det_top(input):
    """`torch.det`: `torch.linalg.det` (`Tensor.det`).

    >>> torch.det(torch.tensor([[3., 0.], [1., 2.]]))
    tensor(6.)
    """
    _check_tensor("det", "input", 1, input)
    return det(input)


def slogdet(A, *, out=None):
    """The sign (or phase, for complex) of the determinant and the log of its absolute value,
    each matrix's: `linalg_slogdet(sign, logabsdet)` (LinalgSlogdetBackward0). A singular matrix
    gives sign 0 and -inf.

    >>> torch.linalg.slogdet(torch.tensor([[0., 2.], [4., 0.]]))
    torch.return_types.linalg_slogdet(
    sign=tensor(-1.),
    logabsdet=tensor(2.0794))
    """
    _check_tensor("linalg_slogdet", "A", 1, A)
    _check_square("linalg.slogdet", A)
    _check_float("linalg.slogdet", A)
    sign, logabs = _fn("LinalgSlogdetBackward0").apply(A)
    return _into(_Slogdet(sign, logabs), out)


def _slogdet_top(input, *, out=None):
    """`torch.slogdet`: `torch.linalg.slogdet` with the result named `torch.return_types.slogdet`
    (`Tensor.slogdet`).

    >>> torch.slogdet(torch.tensor([[2., 0.], [0., 3.]]))
    torch.return_types.slogdet(
    sign=tensor(1.),
    logabsdet=tensor(1.7918))
    """
    _check_tensor("slogdet", "input", 1, input)
    _check_square("linalg.slogdet", input)
    _check_float("linalg.slogdet", input)
    sign, logabs = _fn("LinalgSlogdetBackward0").apply(input)
    return _into(_SlogdetTop(sign, logabs), out)


def logdet(input):
    """The log of the determinant of each square matrix: nan where it is negative, -inf where
    it is 0 (`where` over `slogdet`'s outputs, as PyTorch composes it; `Tensor.logdet`).

    >>> torch.logdet(torch.tensor([[2., 0.], [0., 3.]]))
    tensor(1.7918)
    """
    _check_tensor("logdet", "input", 1, input)
    _check_square("logdet", input)
    _check_float("logdet", input)
    sign, logabs = _fn("LinalgSlogdetBackward0").apply(input)
    torch = _torch()
    if input.is_complex():
        return sign.log() + logabs
    return torch.where(sign == -1, math.nan, logabs)


def cholesky_ex(input, *, upper=False, check_errors=False, out=None):
    """`cholesky` that returns LAPACK's `info` (int32 per matrix: 0, or the order of the first
    leading minor that is not positive-definite) instead of raising, unless `check_errors`.

    >>> torch.linalg.cholesky_ex(torch.tensor([[1., 2.], [2., 1.]])).info
    tensor(2, dtype=torch.int32)
    """
    A = input
    _check_tensor("linalg_cholesky_ex", "input", 1, A)
    _check_square("linalg.cholesky", A)
    _check_float("linalg.cholesky", A, "cholesky_cpu")
    Lt, info = _fn("LinalgCholeskyExBackward0").apply(A, bool(upper), check_errors, "linalg.cholesky_ex")
    return _into(_CholeskyEx(Lt, info), out)


def cholesky(input, *, upper=False, out=None):
    """The lower Cholesky factor L of each Hermitian positive-definite matrix (`A = L L^H`,
    read from A's lower triangle; `upper=True`: U = L^H from the upper triangle). A matrix
    that is not positive-definite raises `LinAlgError` (LinalgCholeskyExBackward0).

    >>> torch.linalg.cholesky(torch.tensor([[4., 2.], [2., 5.]]))
    tensor([[2., 0.],
            [1., 2.]])
    """
    A = input
    _check_tensor("linalg_cholesky", "input", 1, A)
    _check_square("linalg.cholesky", A)
    _check_float("linalg.cholesky", A, "cholesky_cpu")
    Lt, _ = _fn("LinalgCholeskyExBackward0").apply(A, bool(upper), True, "linalg.cholesky")
    return _into(Lt, out)


_CHOLESKY_REMOVED = (
    "This function was deprecated since version 1.9 and is now removed. `torch.cholesky` is deprecated in favor of "
    "`torch.linalg.cholesky`.\nL = torch.cholesky(A) should be replaced with:\nL = torch.linalg.cholesky(A)\n"
    "U = torch.cholesky(A, upper=True) should be replaced with:\nU = torch.linalg.cholesky(A).mH")


def _cholesky_top(input, upper=False, *, out=None):
    """`torch.cholesky`: removed in PyTorch 2.x, which raises this RuntimeError pointing to
    `torch.linalg.cholesky` (`Tensor.cholesky` too).

    >>> try:
    ...     torch.cholesky(torch.eye(2))
    ... except RuntimeError as e:
    ...     print(str(e).splitlines()[-1])
    U = torch.linalg.cholesky(A).mH
    """
    raise RuntimeError(_CHOLESKY_REMOVED)


_QR_MODES = ("reduced", "complete", "r")


def qr(A, mode="reduced", *, out=None):
    """The QR decomposition of each matrix (`*, m, n`): Q with orthonormal columns and R upper
    triangular, `A = Q R`. `mode='reduced'` (k = min(m, n) columns of Q), `'complete'` (Q
    m×m), `'r'` (R only; Q empty). LAPACK's Householder QR: R's diagonal may be negative
    (LinalgQrBackward0).

    >>> torch.linalg.qr(torch.tensor([[3., 0.], [4., 5.]]))
    torch.return_types.linalg_qr(
    Q=tensor([[-0.6000, -0.8000],
            [-0.8000,  0.6000]]),
    R=tensor([[-5., -4.],
            [ 0.,  3.]]))
    """
    _check_tensor("linalg_qr", "A", 1, A)
    if mode not in _QR_MODES:
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), 'r', or "
                           "'complete'")
    _check_matrix("linalg.qr", A)
    _check_float("linalg.qr", A, "geqrf_cpu")
    Q, R = _fn("LinalgQrBackward0").apply(A, mode)
    return _into(_Qr(Q, R), out)


_QR_REMOVED = (
    "This function was deprecated since version 1.9 and is now removed. `torch.qr` is deprecated in favor of "
    "`torch.linalg.qr` and the boolean parameter `some` has been replaced with a string parameter `mode`.\n\n"
    "Q, R = torch.qr(A) should be replaced with:\nQ, R = torch.linalg.qr(A, mode='reduced')\n\nand\n\n"
    "Q, R = torch.qr(A, some=False) should be replaced with:\nQ, R = torch.linalg.qr(A, mode='complete')")


def _qr_top(input, some=True, *, out=None):
    """`torch.qr`: removed in PyTorch 2.x, which raises this RuntimeError pointing to
    `torch.linalg.qr` (`Tensor.qr` too).

    >>> try:
    ...     torch.qr(torch.eye(2))
    ... except RuntimeError as e:
    ...     print(str(e).splitlines()[-1])
    Since `some` was set to True, use mode='reduced'.
    """
    mode = "reduced" if some else "complete"
    raise RuntimeError(f"{_QR_REMOVED}\n\nSince `some` was set to {bool(some)}, use mode='{mode}'.")


def _eigh_checks(A, UPLO):
    if UPLO not in ("L", "U"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    _check_square("linalg.eigh", A)
    if A.dtype._name in _LOW or not (A.dtype.is_floating_point or A.dtype.is_complex):
        raise NotImplementedError(f'"linalg_eigh_cpu" not implemented for \'{_H.scalar_name(A.dtype)}\'')


def eigh(input, UPLO="L", *, out=None):
    """The eigenvalues (ascending, real) and orthonormal eigenvectors of each Hermitian matrix,
    read from its lower (`UPLO='L'`) or upper triangle: `linalg_eigh(eigenvalues,
    eigenvectors)` (LinalgEighBackward0). Each eigenvector's sign (phase) is LAPACK's choice:
    leafgrad's (OpenBLAS, through numpy) can differ from PyTorch's (MKL).

    >>> torch.linalg.eigh(torch.tensor([[2., 0.], [0., 1.]])).eigenvalues
    tensor([1., 2.])
    """
    A = input
    _check_tensor("linalg_eigh", "input", 1, A)
    _eigh_checks(A, UPLO)
    w, V = _fn("LinalgEighBackward0").apply(A, UPLO)
    return _into(_Eigh(w, V), out)


def eigvalsh(input, UPLO="L", *, out=None):
    """The eigenvalues (ascending) of each Hermitian matrix (LinalgEighBackward0).

    >>> torch.linalg.eigvalsh(torch.tensor([[2., 1.], [1., 2.]]))
    tensor([1., 3.])
    """
    A = input
    _check_tensor("linalg_eigvalsh", "input", 1, A)
    _eigh_checks(A, UPLO)
    w, _ = _fn("LinalgEighBackward0").apply(A, UPLO)
    return _into(w, out)


def _svd_checks(A, driver):
    _check_matrix("linalg.svd", A)
    _check_float("linalg.svd", A, "linalg_svd_cpu")
    if driver is not None and not A.is_cuda:
        raise RuntimeError("torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs with cuSOLVER "
                           "backend.")


def svd(A, full_matrices=True, *, driver=None, out=None):
    """The singular value decomposition `A = U diag(S) Vh` of each matrix: singular values in
    descending order; U m×m and Vh n×n with `full_matrices`, else k = min(m, n) columns/rows
    (LinalgSvdBackward0). The singular vectors' signs are LAPACK's choice and can differ from
    PyTorch's; non-finite input raises `LinAlgError`.

    >>> torch.linalg.svd(torch.tensor([[0., 2.], [3., 0.]])).S
    tensor([3., 2.])
    """
    _check_tensor("linalg_svd", "A", 1, A)
    _svd_checks(A, driver)
    U, S, Vh = _fn("LinalgSvdBackward0").apply(A, bool(full_matrices))
    return _into(_Svd(U, S, Vh), out)


def svdvals(A, *, driver=None, out=None):
    """The singular values of each matrix, descending (LinalgSvdBackward0, its output 1).

    >>> torch.linalg.svdvals(torch.tensor([[0., 2.], [3., 0.]]))
    tensor([3., 2.])
    """
    _check_tensor("linalg_svdvals", "A", 1, A)
    _svd_checks(A, driver)
    _, S, _ = _fn("LinalgSvdBackward0").apply(A, False)
    return _into(S, out)


def _svd_top(input, some=True, compute_uv=True, *, out=None):
    """`torch.svd`, the older form: `torch.return_types.svd(U, S, V)` with V (not V^H), reduced
    unless `some=False`; with `compute_uv=False`, U and V are square zero matrices (`Tensor.svd`).

    >>> torch.svd(torch.tensor([[0., 2.], [3., 0.]])).S
    tensor([3., 2.])
    """
    _check_tensor("svd", "input", 1, input)
    if input.dim() < 2:
        raise RuntimeError(f"linalg.svd: input should have at least 2 dimensions, but has {input.dim()} dimensions "
                           "instead")
    _svd_checks(input, None)
    torch = _torch()
    if compute_uv:
        U, S, Vh = _fn("LinalgSvdBackward0").apply(input, not some)
        V = Vh.mT.conj() if Vh.is_complex() else Vh.mT
    else:
        S = svdvals(input)
        m, n = input.shape[-2], input.shape[-1]
        batch = tuple(input.shape[:-2])
        U = torch.zeros(*batch, m, m, dtype=input.dtype, device=input.device)
        V = torch.zeros(*batch, n, n, dtype=input.dtype, device=input.device)
    return _into(_SvdTop(U, S, V), out)


def lstsq(input, b, rcond=None, *, driver=None):
    """The least-squares solution of `A X = B` for each matrix (`*, m, n`; B `*, m, k` or a
    vector `*, m`, batch dims broadcast): `linalg_lstsq(solution, residuals, rank,
    singular_values)` reported per driver as PyTorch's CPU drivers report them ('gelsy', the
    default: rank only; 'gelsd'/'gelss': residuals for full-rank tall systems and singular
    values; 'gels': residuals, no rank). Solutions are the minimum-norm ones (computed with
    LAPACK's gelsd whatever the driver) (LinalgLstsqBackward0).

    >>> torch.linalg.lstsq(torch.tensor([[1., 0.], [0., 2.], [0., 0.]]), torch.tensor([[1.], [4.], [1.]])).solution
    tensor([[1.],
            [2.]])
    """
    A = input
    B = b
    _check_tensor("linalg_lstsq", "input", 1, A)
    _check_tensor("linalg_lstsq", "b", 2, B)
    if A.dim() < 2:
        raise RuntimeError("torch.linalg.lstsq: input must have at least 2 dimensions.")
    if B.dim() < 1:
        raise RuntimeError("torch.linalg.lstsq: other must have at least 1 dimension.")
    if A.dtype != B.dtype:
        raise RuntimeError("torch.linalg.lstsq: Expected input and other to have the same dtype, but got input's dtype "
                           f"{_H.scalar_name(A.dtype)} and other's dtype {_H.scalar_name(B.dtype)}")
    if A.dtype._name not in ("float32", "float64", "complex64", "complex128"):
        raise RuntimeError("This function doesn't handle types other than float and double")
    vector = B.dim() == A.dim() - 1
    _broadcast(tuple(A.shape[:-2]), tuple(B.shape[:-1] if vector else B.shape[:-2]))
    if (B.shape[-1] if vector else B.shape[-2]) != A.shape[-2]:
        if vector:
            raise RuntimeError("torch.linalg.lstsq: input.size(-2) should match other.size(-1)")
        raise RuntimeError("torch.linalg.lstsq: input.size(-2) should match other.size(-2)")
    if driver is None:
        driver = "gelsy"
    if driver not in _H.LSTSQ_DRIVERS:
        raise RuntimeError("torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)")
    eps = _torch().finfo(A.dtype.to_real()).eps
    if rcond is None:
        rcond = eps * max(A.shape[-2], A.shape[-1])
    X, res, rank, sv = _fn("LinalgLstsqBackward0").apply(A, B, float(rcond), driver, vector)
    return _Lstsq(X, res, rank, sv)


def _tolerance_value(v):
    if isinstance(v, Tensor):
        return _H.host(v)
    return None if v is None else float(v)


def pinv(input, rcond=None, hermitian=False, *, atol=None, rtol=None, out=None):
    """The Moore-Penrose pseudo-inverse of each matrix, from its SVD (its eigendecomposition if
    `hermitian`): singular values at or below `max(atol, rtol · largest)` count as zero; `rtol`
    defaults to `eps · max(m, n)` (0 when a positive `atol` is given); `rcond` is the older
    spelling of `rtol` (LinalgPinvBackward0).

    >>> torch.linalg.pinv(torch.tensor([[2., 0.], [0., 0.]]))
    tensor([[0.5000, 0.0000],
            [0.0000, 0.0000]])
    """
    A = input
    _check_tensor("linalg_pinv", "input", 1, A)
    if A.dim() < 2 or A.dtype._name not in ("float32", "float64", "complex64", "complex128"):
        shape = ", ".join(str(s) for s in A.shape)
        raise RuntimeError(f"linalg.pinv({_H.scalar_name(A.dtype)}{{[{shape}]}}): expected a tensor with 2 or more "
                           "dimensions of float, double, cfloat or cdouble types")
    if rcond is not None:
        rtol = rcond
    batch = tuple(A.shape[:-2])
    eps = _torch().finfo(A.dtype.to_real()).eps
    a_tol, r_tol = _H.tolerances(tuple(A.shape), eps, _tolerance_value(atol), _tolerance_value(rtol), batch)
    if not (A.is_meta or hermitian):
        _H.check_finite_svd(_H.host(A), A.dim() > 2)
    r = _fn("LinalgPinvBackward0").apply(A, a_tol, r_tol, bool(hermitian))
    return _into(r, out)


def pinverse(input, rcond=1e-15):
    """`torch.pinverse`: `linalg.pinv(input, rtol=rcond)` (`Tensor.pinverse`).

    >>> torch.pinverse(torch.tensor([[0., 4.]]))
    tensor([[0.0000],
            [0.2500]])
    """
    _check_tensor("pinverse", "input", 1, input)
    return pinv(input, rtol=rcond)


# The matrix functions (matrix_exp, matrix_power, matrix_rank, solve_triangular, cond) are in
# _linalg_matrix_fns, eig and the LU family in _linalg_eig_lu, LDL, Householder products and the
# tensor equations in _linalg_more, on the helpers above.
from ._linalg_matrix_fns import (  # noqa: E402
    _int_arg, _matrix_exp_top, _matrix_power_top, _power, cond, matrix_exp, matrix_power, matrix_rank,
    solve_triangular,
)
from ._linalg_eig_lu import eig, eigvals, lu, lu_factor, lu_factor_ex, lu_solve  # noqa: E402
from ._linalg_more import (  # noqa: E402
    householder_product, ldl_factor, ldl_factor_ex, ldl_solve, tensorinv, tensorsolve, vander,
)


# ----------------------------------------------------------------------------------------------
# The Tensor methods and torch.* spellings

def _install():
    T = Tensor
    T.det = lambda self: _det_top(self)
    T.logdet = lambda self: logdet(self)
    T.slogdet = lambda self: _slogdet_top(self)
    T.inverse = lambda self: inv(self)
    T.pinverse = lambda self, rcond=1e-15: pinverse(self, rcond)
    T.cholesky = lambda self, upper=False: _cholesky_top(self, upper)
    T.qr = lambda self, some=True: _qr_top(self, some)
    T.svd = lambda self, some=True, compute_uv=True: _svd_top(self, some, compute_uv)
    T.matrix_exp = lambda self: _matrix_exp_top(self)
    T.matrix_power = lambda self, n: _power(self, _int_arg(n, "matrix_power", 1))
    T.mH = property(lambda self: self.mT.conj() if self.is_complex() else self.mT,
                    doc="The conjugate transpose of the last two dims (`mT` for real tensors).")
    T.adjoint = lambda self: self.mH
    base_norm = T.norm

    def _tensor_norm(self, p="fro", dim=None, keepdim=False, dtype=None):
        if isinstance(p, str) and p == "nuc":
            return matrix_norm(self, "nuc", (-2, -1) if dim is None else dim, keepdim, dtype=dtype)
        return base_norm(self, p, dim, keepdim, dtype)

    _tensor_norm.__doc__ = base_norm.__doc__
    T.norm = _tensor_norm


def _h(self):
    if self.dim() != 2:
        raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {self.dim()}-D tensor. For "
                           "batches of matrices, consider using tensor.mH")
    return self.mH


Tensor.H = property(_h, doc="The conjugate transpose of a matrix (2-D tensors only).")
for _f, _name in ((_slogdet_top, "slogdet"), (_cholesky_top, "cholesky"), (_qr_top, "qr"), (_svd_top, "svd"),
                  (_det_top, "det"), (_matrix_exp_top, "matrix_exp"), (_matrix_power_top, "matrix_power")):
    _f.__name__ = _f.__qualname__ = _name
del _f, _name
_install()
