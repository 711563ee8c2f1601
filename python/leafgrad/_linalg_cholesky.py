"""`torch.cholesky_solve(B, L, upper=False)` and `torch.cholesky_inverse(L, upper=False)`
(and their Tensor methods, with `out=`): solves and inverses with A = L L^H (or U^H U) given its
Cholesky factor.

Values: two triangular solves with leafgrad's `linalg.solve_triangular`, which reads only the
factor's triangle, as LAPACK's potrs/potri do (the inverse made exactly Hermitian, as PyTorch
mirrors potri's triangle). Batches broadcast as PyTorch's do; PyTorch's argument checks and
messages, its LinAlgError for a zero diagonal element in `cholesky_inverse`.

Gradients: one node each, CholeskySolveBackward0 / CholeskyInverseBackward0, whose backward is
PyTorch's formula written with these ops (so it differentiates again as PyTorch's does):
for X = A^-1 B, gB = cholesky_solve(g, L) and gL = -(gB X^H + X gB^H) L (upper: -U (...)); for
X = A^-1, gL = -X (g + g^H) X L (upper: -U X (g + g^H) X). As in PyTorch, the factor's gradient
is the whole matrix, not only its triangle."""
from . import _core
from ._op_helpers import _check_tensor, _custom, _install, _torch

__all__ = ["cholesky_solve", "cholesky_inverse"]


def _batch_shape(a, b):
    """The broadcast of two batch shapes, or PyTorch's `infer_size` error."""
    n = max(len(a), len(b))
    out = []
    for i in range(n - 1, -1, -1):
        da, db = i - n + len(a), i - n + len(b)
        sa = a[da] if da >= 0 else 1
        sb = b[db] if db >= 0 else 1
        if sa != sb and sa != 1 and sb != 1:
            raise RuntimeError(f"The size of tensor a ({sa}) must match the size of tensor b ({sb}) at "
                               f"non-singleton dimension {i}")
        out.append(sa if sb == 1 else sb)
    return tuple(reversed(out))


def _sum_to(g, shape):
    from ._math_binary import _sum_to as sum_to

    return sum_to(g, shape)


def _solve_values(b, fac, upper):
    """A^-1 b from the Cholesky factor's triangle (potrs: two triangular solves)."""
    tri = _torch().linalg.solve_triangular
    if upper:
        return tri(fac, tri(fac.mH, b, upper=False), upper=True)
    return tri(fac.mH, tri(fac, b, upper=False), upper=True)


def _solve(b, fac, upper):
    def exact(b, fac):
        with _torch().no_grad():
            return _solve_values(b, fac, upper)

    def backward(g, b, fac):
        x = _solve(b, fac, upper)
        gb = _solve(g, fac, upper)
        common = gb @ x.mH
        common = common + common.mH
        gfac = -(fac @ common) if upper else -(common @ fac)
        return _sum_to(gb, tuple(b.shape)), _sum_to(gfac, tuple(fac.shape))

    return _custom("CholeskySolveBackward0", exact, backward, [b, fac])


def _solve_checked(fname, input, input2, upper):
    _check_tensor(fname, "input", 1, input)
    _check_tensor(fname, "input2", 2, input2)
    if input.dim() < 2:
        raise RuntimeError(f"b should have at least 2 dimensions, but has {input.dim()} dimensions instead")
    if input2.dim() < 2:
        raise RuntimeError(f"u should have at least 2 dimensions, but has {input2.dim()} dimensions instead")
    if input.dtype != input2.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type {input.dtype._scalar_name} "
                           f"and A of type {input2.dtype._scalar_name} instead.")
    m, n = input2.shape[-2], input2.shape[-1]
    if m != n:
        raise RuntimeError(f"A must be batches of square matrices, but they are {m} by {n} matrices")
    if input.shape[-2] != n:
        raise RuntimeError(f"Incompatible matrix sizes for cholesky_solve: each A matrix is {n} by {n} but each b "
                           f"matrix is {input.shape[-2]} by {input.shape[-1]}")
    _batch_shape(tuple(input.shape[:-2]), tuple(input2.shape[:-2]))
    if not (input.dtype.is_complex or input.dtype in (_core.float32, _core.float64)):
        raise NotImplementedError(f"\"cholesky_solve_cpu\" not implemented for '{input.dtype._scalar_name}'")
    return _solve(input, input2, bool(upper))


def _with_out(fname, rule, compute, inputs, out):
    if out is None:
        return compute()
    from . import _out

    return _out.write(fname, _out.Spec(fname, rule), compute, _out.tensors(inputs), out)


def _castable(what):
    from . import _out

    return _out.cast(f"{what}: Expected result to be safely castable from {{R}} dtype, but got result with dtype "
                     "{O}")


def cholesky_solve(input, input2, upper=False, *, out=None):
    """X with A X = `input` (B), A = L L^H given its Cholesky factor `input2` (L, lower; U with
    A = U^H U when `upper`); batches broadcast (CholeskySolveBackward0).

    >>> L = torch.tensor([[2., 0.], [1., 3.]])
    >>> torch.cholesky_solve(torch.tensor([[1.], [4.]]), L)
    tensor([[0.0556],
            [0.3889]])
    """
    return _with_out("cholesky_solve", _castable("cholesky_solve"),
                     lambda: _solve_checked("cholesky_solve", input, input2, upper), (input, input2), out)


def _inverse_values(fac, upper):
    """A^-1 from the factor's triangle (potri), made exactly Hermitian."""
    torch = _torch()
    eye = torch.eye(fac.shape[-1], dtype=fac.dtype, device=fac.device).expand(tuple(fac.shape))
    if upper:
        inv = torch.linalg.solve_triangular(fac, eye, upper=True)
        full = inv @ inv.mH
    else:
        inv = torch.linalg.solve_triangular(fac, eye, upper=False)
        full = inv.mH @ inv
    low = full.tril()
    return low + low.tril(-1).mH


def _raise_singular(fac, upper):
    import numpy as np

    from ._linalg_lapack import LinAlgError, batch_prefix, host

    diag = np.diagonal(host(fac.detach()), axis1=-2, axis2=-1).reshape(-1, fac.shape[-1])
    for i, d in enumerate(diag):
        zero = np.flatnonzero(d == 0)
        if zero.size:
            raise LinAlgError(batch_prefix("cholesky_inverse", fac.dim() > 2, i) + f"The diagonal element "
                              f"{int(zero[0]) + 1} is zero, the inversion could not be completed because the input "
                              "matrix is singular.")


def _inverse(fac, upper):
    def exact(fac):
        with _torch().no_grad():
            return _inverse_values(fac, upper)

    def backward(g, fac):
        x = _inverse(fac, upper)
        common = x @ ((g + g.mH) @ x)
        return -(fac @ common) if upper else -(common @ fac)

    return _custom("CholeskyInverseBackward0", exact, backward, [fac])


def _inverse_checked(input, upper):
    _check_tensor("cholesky_inverse", "input", 1, input)
    if input.dim() < 2:
        raise RuntimeError("cholesky_inverse: The input tensor A must have at least 2 dimensions.")
    m, n = input.shape[-2], input.shape[-1]
    if m != n:
        raise RuntimeError(f"cholesky_inverse: A must be batches of square matrices, but they are {m} by {n} "
                           "matrices")
    if not (input.dtype.is_complex or input.dtype in (_core.float32, _core.float64)):
        raise NotImplementedError(f"\"cholesky_inverse_out_cpu\" not implemented for '{input.dtype._scalar_name}'")
    if not input.is_meta and input.numel():
        _raise_singular(input, upper)
    return _inverse(input, bool(upper))


def cholesky_inverse(input, upper=False, *, out=None):
    """A^-1 for A = L L^H given its Cholesky factor `input` (L, lower; U with A = U^H U when
    `upper`), batched (CholeskyInverseBackward0).

    >>> torch.cholesky_inverse(torch.tensor([[2., 0.], [1., 3.]]))
    tensor([[ 0.2778, -0.0556],
            [-0.0556,  0.1111]])
    """
    return _with_out("cholesky_inverse", _castable("cholesky_inverse"), lambda: _inverse_checked(input, upper),
                     (input,), out)


def _cholesky_solve_method(self, input2, upper=False):
    """`torch.cholesky_solve(self, input2, upper)`.

    >>> torch.tensor([[1.], [4.]]).cholesky_solve(torch.tensor([[2., 0.], [1., 3.]]))
    tensor([[0.0556],
            [0.3889]])
    """
    _check_tensor("cholesky_solve", "input2", 1, input2)
    return _solve_checked("cholesky_solve", self, input2, upper)


def _cholesky_inverse_method(self, upper=False):
    """`torch.cholesky_inverse(self, upper)`.

    >>> torch.tensor([[2., 1.], [0., 3.]]).cholesky_inverse(upper=True)
    tensor([[ 0.2778, -0.0556],
            [-0.0556,  0.1111]])
    """
    return _inverse_checked(self, upper)


_install({"cholesky_solve": _cholesky_solve_method, "cholesky_inverse": _cholesky_inverse_method})
