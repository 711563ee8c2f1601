"""`torch.linalg`: norms, products and the cross product, with PyTorch's dispatch between vector
and matrix norms (LinalgVectorNormBackward0, and amax/amin of column sums for the 1 and inf
matrix norms). The decompositions (`inv`, `solve`, `det`, `cholesky`, `qr`, `eigh`, `svd`, ...)
and the norms that need singular values (`ord=2`, `-2`, `'nuc'`) are not there yet.

>>> torch.linalg.norm(torch.tensor([3., 4.]))
tensor(5.)
"""
import math

from ._core import Tensor
from ._math_extra import linalg_cross as cross

__all__ = ["vector_norm", "matrix_norm", "norm", "cross", "vecdot", "matmul", "multi_dot", "diagonal"]


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
    (the largest / smallest column sum of |A|), inf / -inf (of row sums).

    >>> torch.linalg.matrix_norm(torch.tensor([[1., -2.], [3., 4.]]), ord=1)
    tensor(6.)
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
            raise NotImplementedError("linalg.matrix_norm: ord='nuc' needs singular values, which leafgrad does not compute yet")
        else:
            raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    else:
        o = float(ord)
        if abs(o) == 2:
            raise NotImplementedError(f"linalg.matrix_norm: ord={ord} needs singular values, which leafgrad does not compute yet")
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
