"""The decompositions behind `torch.linalg`: LAPACK through numpy on the host, one autograd
node per op with PyTorch's name, and backward formulas written with leafgrad's own
(differentiable) ops, so gradients of gradients work.

Every factorization runs in double precision (complex128 for complex inputs), as numpy's
LAPACK wrappers do, and is rounded to the input's dtype; CUDA inputs are copied to the host
and their results copied back; meta inputs give meta results of the right shapes (the
computation then runs on identity matrices of those shapes, which never fail).

Forward-mode AD (`jvp`) computes the tangents on the host too, from the same formulas'
differentials.

The backward formulas are the standard matrix-calculus results (Giles, "An extended
collection of matrix derivative results", 2008; Townsend's SVD notes; Mathias's block-matrix
rule for the matrix exponential), arranged as PyTorch arranges them where that changes a
value (det at singular matrices, the skew projections of eigh/svd/qr).
"""
import numpy as np

from . import _core
from ._core import Tensor
from ._math_extra import _SCALAR_NAMES as _EXTRA_NAMES

SCALAR_NAMES = dict(_EXTRA_NAMES, int64="Long", int32="Int", int16="Short", int8="Char", uint8="Byte")


def _torch():
    import leafgrad

    return leafgrad


class LinAlgError(RuntimeError):
    """A factorization or inversion failed on its values (a singular matrix in `inv` or `solve`,
    a matrix that is not positive-definite in `cholesky`, non-finite values in `svd`): PyTorch's
    `torch.linalg.LinAlgError` (`torch._C._LinAlgError`), a RuntimeError.

    >>> try:
    ...     torch.linalg.inv(torch.zeros(2, 2))
    ... except torch.linalg.LinAlgError as e:
    ...     print(isinstance(e, RuntimeError), e)
    True linalg.inv: The diagonal element 1 is zero, the inversion could not be completed because the input matrix is singular.
    """


LinAlgError.__name__ = "_LinAlgError"
LinAlgError.__qualname__ = "_LinAlgError"
LinAlgError.__module__ = "torch._C"


def scalar_name(dtype):
    return SCALAR_NAMES.get(dtype._name, dtype._name)


# ----------------------------------------------------------------------------------------------
# Host arrays


def host(t):
    """`t`'s values as a fresh numpy array in double precision (complex128 for complex dtypes).
    A meta tensor gives identity matrices of its shape (its values are never looked at)."""
    if t.is_meta:
        shape = tuple(t.shape)
        if len(shape) < 2:
            return np.ones(shape)
        eye = np.eye(shape[-2], shape[-1])
        return np.array(np.broadcast_to(eye, shape), dtype=np.complex128 if t.is_complex() else np.float64)
    from ._tensor import _values

    a = _values(t.detach())
    return np.array(a, dtype=np.complex128 if np.iscomplexobj(a) else np.float64)


_NP_DTYPES = {"float16": np.float16, "float32": np.float32, "float64": np.float64, "complex64": np.complex64,
              "complex128": np.complex128, "int32": np.int32, "int64": np.int64, "bool": np.bool_}


def make(arr, dtype, device):
    """A tensor of `dtype` on `device` holding `arr` (rounded once to the dtype)."""
    torch = _torch()
    arr = np.asarray(arr)
    if device.type == "meta":
        return torch.empty(tuple(arr.shape), dtype=dtype, device="meta")
    if dtype._name == "bfloat16":
        t = _core.from_numpy(np.ascontiguousarray(arr.real if np.iscomplexobj(arr) else arr, dtype=np.float32))
        t = t.to(dtype)
    else:
        np_dtype = _NP_DTYPES[dtype._name]
        if np.iscomplexobj(arr) and not np.issubdtype(np_dtype, np.complexfloating):
            arr = arr.real
        t = _core.from_numpy(np.array(arr, dtype=np_dtype, order="C"))
    if device.type != "cpu":
        t = t.to(device)
    return t


def batch_prefix(name, batched, index):
    return f"{name}: (Batch element {index}): " if batched else f"{name}: "


# ----------------------------------------------------------------------------------------------
# Host kernels


def getrf(a):
    """LU with partial pivoting of each matrix of `a` (..., n, n), as LAPACK's getf2 does it:
    (LU, pivots, info) with info the 1-based index of the first exactly-zero pivot (0 if none).
    Only used where LAPACK reported a singular matrix, to say which pivot, as PyTorch does."""
    shape = a.shape
    n = shape[-1]
    lu = a.reshape(-1, n, n).copy()
    count = lu.shape[0]
    piv = np.zeros((count, n), dtype=np.int64)
    info = np.zeros(count, dtype=np.int64)
    rows = np.arange(count)
    with np.errstate(all="ignore"):
        for j in range(n):
            p = j + np.argmax(np.abs(lu[:, j:, j]), axis=1)
            piv[:, j] = p
            top = lu[rows, j, :].copy()
            lu[rows, j, :] = lu[rows, p, :]
            lu[rows, p, :] = top
            d = lu[:, j, j]
            nonzero = d != 0
            info[(~nonzero) & (info == 0)] = j + 1
            col = np.where(nonzero[:, None], lu[:, j + 1:, j] / np.where(nonzero, d, 1)[:, None], lu[:, j + 1:, j])
            lu[:, j + 1:, j] = col
            lu[:, j + 1:, j + 1:] -= col[:, :, None] * lu[:, j, None, j + 1:]
    return lu.reshape(shape), piv.reshape(shape[:-1]), info.reshape(shape[:-2])


def lu_solve(lu, piv, b):
    """Solve with the factors of `getrf` (IEEE arithmetic: a zero pivot gives inf/nan)."""
    n = lu.shape[-1]
    x = b.copy()
    with np.errstate(all="ignore"):
        for j in range(n):
            p = piv[..., j]
            idx = np.indices(p.shape)
            top = x[(*idx, np.full(p.shape, j))].copy()
            x[(*idx, np.full(p.shape, j))] = x[(*idx, p)]
            x[(*idx, p)] = top
        for i in range(n):
            x[..., i, :] -= np.einsum("...j,...jk->...k", lu[..., i, :i], x[..., :i, :])
        for i in range(n - 1, -1, -1):
            x[..., i, :] = (x[..., i, :] - np.einsum("...j,...jk->...k", lu[..., i, i + 1:], x[..., i + 1:, :])) \
                / lu[..., i, i, None]
    return x


def inverse(a):
    """Inverses of `a` (..., n, n) and getrf's info for each matrix (the inverse of a singular
    matrix is whatever the LU solve gives: inf and nan, as meaningless as LAPACK's)."""
    info = np.zeros(a.shape[:-2], dtype=np.int32)
    with np.errstate(all="ignore"):
        try:
            return np.linalg.inv(a), info
        except np.linalg.LinAlgError:
            pass
        n = a.shape[-1]
        flat = a.reshape(-1, n, n)
        out = np.empty_like(flat)
        flat_info = info.reshape(-1)
        for i, m in enumerate(flat):
            try:
                out[i] = np.linalg.inv(m)
            except np.linalg.LinAlgError:
                lu, piv, inf = getrf(m)
                out[i] = lu_solve(lu, piv, np.eye(n, dtype=m.dtype))
                flat_info[i] = inf
        return out.reshape(a.shape), info


def solve(a, b):
    """X with a X = b for matrices b (batch dims already broadcast), and getrf's info."""
    info = np.zeros(a.shape[:-2], dtype=np.int32)
    with np.errstate(all="ignore"):
        try:
            return np.linalg.solve(a, b), info
        except np.linalg.LinAlgError:
            pass
        n, k = a.shape[-1], b.shape[-1]
        fa, fb = a.reshape(-1, n, n), b.reshape(-1, n, k)
        out = np.empty(fb.shape, dtype=np.result_type(a, b))
        flat_info = info.reshape(-1)
        for i in range(fa.shape[0]):
            try:
                out[i] = np.linalg.solve(fa[i], fb[i])
            except np.linalg.LinAlgError:
                lu, piv, inf = getrf(fa[i])
                out[i] = lu_solve(lu, piv, fb[i])
                flat_info[i] = inf
        return out.reshape(b.shape), info


def _potf2(a):
    """Unblocked lower Cholesky of one matrix, stopping as LAPACK's potf2 stops: (L, info), the
    failed diagonal entry holding the non-positive value and the columns after it untouched."""
    n = a.shape[-1]
    low = np.tril(a).copy()
    with np.errstate(all="ignore"):
        for j in range(n):
            ajj = (a[j, j] - np.vdot(low[j, :j], low[j, :j])).real
            if not ajj > 0:
                low[j, j] = ajj
                return low, j + 1
            low[j, j] = np.sqrt(ajj)
            low[j + 1:, j] = (a[j + 1:, j] - low[j + 1:, :j] @ low[j, :j].conj()) / low[j, j]
    return low, 0


def cholesky(a):
    """Lower Cholesky factors of `a` (..., n, n) from its lower triangle, and potrf's info."""
    info = np.zeros(a.shape[:-2], dtype=np.int32)
    n = a.shape[-1]
    with np.errstate(all="ignore"):
        try:
            low = np.linalg.cholesky(a)
            bad = ~np.isfinite(np.diagonal(low, 0, -2, -1)).all(-1)
        except np.linalg.LinAlgError:
            low = np.zeros_like(a)
            bad = np.ones(a.shape[:-2], dtype=bool)
        if bad.any():
            flat, flat_low, flat_info = a.reshape(-1, n, n), low.reshape(-1, n, n), info.reshape(-1)
            for i in np.flatnonzero(bad.reshape(-1)):
                flat_low[i], flat_info[i] = _potf2(flat[i])
            low = flat_low.reshape(a.shape)
    return low, info


_PADE13 = (64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0,
           129060195264000.0, 10559470521600.0, 670442572800.0, 33522128640.0, 1323241920.0,
           40840800.0, 960960.0, 16380.0, 182.0, 1.0)
_THETA13 = 5.371920351148152


def expm(a):
    """exp of each matrix of `a` (..., n, n): scaling and squaring with the degree-13 Padé
    approximant (Higham, SIAM J. Matrix Anal. Appl. 26 (2005))."""
    n = a.shape[-1]
    if a.size == 0:
        return a.copy()
    b = _PADE13
    with np.errstate(all="ignore"):
        norm = np.abs(a).sum(-2).max(-1)
        finite = np.isfinite(norm)
        ratio = np.where(finite & (norm > 0), norm, 1.0) / _THETA13
        s = np.where(finite, np.maximum(0, np.ceil(np.log2(ratio))), 0).astype(np.int64)
        x = a * (2.0 ** -s)[..., None, None]
        eye = np.eye(n, dtype=a.dtype)
        x2 = x @ x
        x4 = x2 @ x2
        x6 = x4 @ x2
        u = x @ (x6 @ (b[13] * x6 + b[11] * x4 + b[9] * x2) + b[7] * x6 + b[5] * x4 + b[3] * x2 + b[1] * eye)
        v = x6 @ (b[12] * x6 + b[10] * x4 + b[8] * x2) + b[6] * x6 + b[4] * x4 + b[2] * x2 + b[0] * eye
        try:
            r = np.linalg.solve(v - u, v + u)
        except np.linalg.LinAlgError:  # only for non-finite input
            r = np.full_like(a, np.nan)
        for i in range(int(s.max(initial=0))):
            r = np.where((s > i)[..., None, None], r @ r, r)
    return r


def trisolve(a, b, upper, unit):
    """X with a X = b by substitution over the `upper` (or lower) triangle of `a` (a unit
    diagonal if `unit`), for matrices b; batch dims already broadcast. A zero on the
    diagonal gives inf/nan, as LAPACK's trsm."""
    n = a.shape[-1]
    x = np.zeros(b.shape, dtype=np.result_type(a, b))
    order = range(n - 1, -1, -1) if upper else range(n)
    with np.errstate(all="ignore"):
        for i in order:
            if upper:
                s = b[..., i, :] - np.einsum("...j,...jk->...k", a[..., i, i + 1:], x[..., i + 1:, :])
            else:
                s = b[..., i, :] - np.einsum("...j,...jk->...k", a[..., i, :i], x[..., :i, :])
            x[..., i, :] = s if unit else s / a[..., i, i, None]
    return x


def zero_det_sign(a, zero):
    """0 or -0 for the matrices of `a` whose determinant is 0 (where `zero`): the sign that the
    product of LU's diagonal and the pivots' parity gives, as PyTorch computes det."""
    out = np.zeros(zero.shape, dtype=a.dtype)
    if not zero.any():
        return out
    lu, piv, _ = getrf(a[zero])
    n = a.shape[-1]
    swaps = (piv != np.arange(n)).sum(-1) % 2
    with np.errstate(all="ignore"):
        prod = np.prod(np.diagonal(lu, 0, -2, -1), -1) * np.where(swaps, -1.0, 1.0)
    out[zero] = np.where(prod == 0, prod, 0.0)
    return out


def det(a):
    """Determinants of `a` (..., n, n), a singular matrix's 0 signed as PyTorch's."""
    if a.shape[-1] == 0:
        return np.ones(a.shape[:-2], dtype=a.dtype)
    with np.errstate(all="ignore"):
        d = np.linalg.det(a)
    zero = np.asarray(d == 0)
    if zero.any():
        d = np.where(zero, zero_det_sign(a, zero), d)
    return d


def eigh(a, uplo):
    with np.errstate(all="ignore"):
        if not np.isfinite(a).all():
            bad = ~np.isfinite(a).all((-2, -1))
            w = np.full(a.shape[:-1], np.nan)
            v = np.full(a.shape, np.nan, dtype=a.dtype)
            if (~bad).any():
                w[~bad], v[~bad] = np.linalg.eigh(a[~bad], UPLO=uplo)
            return w, v
        return np.linalg.eigh(a, UPLO=uplo)


def check_finite_svd(a, batched):
    """PyTorch's SVD refuses NaN (an infinity gives NaN results instead)."""
    ok = ~np.isnan(a).any((-2, -1))
    if not ok.all():
        index = int(np.flatnonzero(~ok.reshape(-1))[0]) if batched else 0
        raise LinAlgError(batch_prefix("linalg.svd", batched, index)
                          + "The algorithm failed to converge because the input matrix contained non-finite values.")


def svd(a, full_matrices, compute_uv=True):
    """numpy's SVD of each matrix; matrices with an infinity give NaN, as PyTorch's."""
    with np.errstate(all="ignore"):
        finite = np.isfinite(a).all((-2, -1))
        if finite.all():
            return np.linalg.svd(a, full_matrices=full_matrices, compute_uv=compute_uv)
        m, n = a.shape[-2], a.shape[-1]
        k = min(m, n)
        s = np.full(a.shape[:-2] + (k,), np.nan)
        u = np.full(a.shape[:-2] + (m, m if full_matrices else k), np.nan, dtype=a.dtype)
        vh = np.full(a.shape[:-2] + (n if full_matrices else k, n), np.nan, dtype=a.dtype)
        if finite.any():
            if compute_uv:
                u[finite], s[finite], vh[finite] = np.linalg.svd(a[finite], full_matrices=full_matrices)
            else:
                s[finite] = np.linalg.svd(a[finite], compute_uv=False)
        return (u, s, vh) if compute_uv else s


def svdvals(a):
    return svd(a, False, compute_uv=False)


# ----------------------------------------------------------------------------------------------
# Tensor helpers for the backward formulas (all differentiable leafgrad ops)


def mH(x):
    return x.mT.conj() if x.is_complex() else x.mT


def sum_to(g, shape):
    """`g` summed over the dims that broadcasting added to `shape`."""
    shape = tuple(shape)
    if tuple(g.shape) == shape:
        return g
    lead = g.dim() - len(shape)
    if lead:
        g = g.sum(tuple(range(lead)))
    dims = tuple(i for i, (a, b) in enumerate(zip(g.shape, shape)) if b == 1 and a != 1)
    if dims:
        g = g.sum(dims, keepdim=True)
    return g


def eye_like(x, n):
    return _torch().eye(n, dtype=x.dtype, device=x.device)


def _linalg():
    from . import linalg

    return linalg


# ----------------------------------------------------------------------------------------------
# Autograd Functions: one node per op, named as PyTorch names it.

_FUNCTIONS = {}


def _node_repr(self):
    return f"<{type(self).__name__} object at {id(self):#x}>"


def function(key):
    """The autograd Function class `key` (made on first use: leafgrad.autograd imports late)."""
    cls = _FUNCTIONS.get(key)
    if cls is None:
        _define()
        cls = _FUNCTIONS[key]
    return cls


def _define():
    from .autograd.function import Function

    def op(node_name):
        def deco(cls):
            attrs = {k: v for k, v in vars(cls).items() if k not in ("__dict__", "__weakref__")}
            attrs.update(_node_name=node_name, generate_vmap_rule=True, jvp=staticmethod(JVPS[node_name]))
            cls = type(cls.__name__, (Function,), attrs)
            cls._backward_cls.__repr__ = _node_repr
            _FUNCTIONS[node_name] = cls
            return cls
        return deco

    torch = _torch()
    L = _linalg()

    @op("LinalgInvExBackward0")
    class InvEx:
        @staticmethod
        def forward(ctx, A, check, name):
            a = host(A)
            x, info = inverse(a)
            if check and not A.is_meta:
                raise_inv_errors(name, info, A.dim() > 2)
            X = make(x, A.dtype, A.device)
            info_t = make(info, torch.int32, A.device)
            ctx.mark_non_differentiable(info_t)
            ctx.set_materialize_grads(False)
            ctx.save_for_backward(X)
            forward_ad_save(ctx, X)
            return X, info_t

        @staticmethod
        def backward(ctx, g, _g_info):
            if g is None:
                return None, None, None
            (X,) = ctx.saved_tensors
            Xh = mH(X)
            return -(Xh @ g @ Xh), None, None

    @op("LinalgSolveExBackward0")
    class SolveEx:
        @staticmethod
        def forward(ctx, A, B, left, vector, check, name):
            a, b = host(A), host(B)
            if vector:
                b = b[..., None]
            if not left:
                a, b = np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2)
            batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
            a = np.broadcast_to(a, batch + a.shape[-2:])
            b = np.broadcast_to(b, batch + b.shape[-2:])
            x, info = solve(a, b)
            if not left:
                x = np.swapaxes(x, -1, -2)
            if vector:
                x = x[..., 0]
            if check and not (A.is_meta or B.is_meta):
                raise_solve_errors(name, info, len(batch) > 0)
            dtype = A.dtype
            X = make(x, dtype, A.device)
            info_t = make(info, torch.int32, A.device)
            ctx.mark_non_differentiable(info_t)
            ctx.set_materialize_grads(False)
            ctx.save_for_backward(A, X)
            forward_ad_save(ctx, A, X)
            ctx.left, ctx.vector = left, vector
            ctx.shapes = (tuple(A.shape), tuple(B.shape))
            return X, info_t

        @staticmethod
        def backward(ctx, g, _g_info):
            if g is None:
                return (None,) * 6
            A, X = ctx.saved_tensors
            a_shape, b_shape = ctx.shapes
            gB = L.solve(mH(A), g, left=ctx.left)
            gA = None
            if ctx.needs_input_grad[0]:
                if ctx.vector:
                    gA = -(gB.unsqueeze(-1) * X.unsqueeze(-2).conj())
                elif ctx.left:
                    gA = -(gB @ mH(X))
                else:
                    gA = -(mH(X) @ gB)
                gA = sum_to(gA, a_shape)
            gB = sum_to(gB, b_shape) if ctx.needs_input_grad[1] else None
            return gA, gB, None, None, None, None

    @op("LinalgDetBackward0")
    class Det:
        @staticmethod
        def forward(ctx, A):
            d = det(host(A))
            D = make(d, A.dtype, A.device)
            ctx.save_for_backward(A, D)
            forward_ad_save(ctx, A, D)
            ctx.set_materialize_grads(False)
            return D

        @staticmethod
        def backward(ctx, g):
            if g is None:
                return None
            A, D = ctx.saved_tensors
            if A.numel() == 0:
                return torch.zeros_like(A)
            if not torch.is_grad_enabled():
                return det_grad_host(g, D, A)
            return det_grad_graph(g, D, A)

    @op("LinalgSlogdetBackward0")
    class Slogdet:
        @staticmethod
        def forward(ctx, A):
            a = host(A)
            with np.errstate(all="ignore"):
                if a.shape[-1]:
                    sign, logabs = np.linalg.slogdet(a)
                    sign = np.where(sign == 0, zero_det_sign(a, sign == 0), sign)
                else:
                    sign, logabs = np.ones(a.shape[:-2], dtype=a.dtype), np.zeros(a.shape[:-2])
                if not A.is_complex():
                    sign = np.where(np.isnan(logabs), 0.0, sign)
            S = make(sign, A.dtype, A.device)
            La = make(logabs, A.dtype.to_real(), A.device)
            ctx.save_for_backward(A, S)
            forward_ad_save(ctx, A, S)
            ctx.set_materialize_grads(False)
            return S, La

        @staticmethod
        def backward(ctx, g_sign, g_logabs):
            A, S = ctx.saved_tensors
            complex_ = A.is_complex()
            if g_logabs is None and (g_sign is None or not complex_):
                return None
            g = g_logabs
            if complex_:
                g = g.to(A.dtype) if g is not None else None
                if g_sign is not None:
                    extra = -1j * (g_sign.conj() * S).imag
                    g = extra if g is None else g + extra
            n = A.shape[-1]
            d = torch.diag_embed(g.unsqueeze(-1).expand(*g.shape, n))
            return L.solve(mH(A), d)

    @op("LinalgCholeskyExBackward0")
    class CholeskyEx:
        @staticmethod
        def forward(ctx, A, upper, check, name):
            a = host(A)
            if upper:
                a = np.swapaxes(a, -1, -2).conj()
            low, info = cholesky(a)
            if check and not A.is_meta:
                raise_cholesky_errors(name, info, A.dim() > 2)
            if upper:
                low = np.swapaxes(low, -1, -2).conj()
            Lt = make(low, A.dtype, A.device)
            info_t = make(info, torch.int32, A.device)
            ctx.mark_non_differentiable(info_t)
            ctx.set_materialize_grads(False)
            ctx.save_for_backward(Lt)
            forward_ad_save(ctx, Lt)
            ctx.upper = upper
            return Lt, info_t

        @staticmethod
        def backward(ctx, gL, _g_info):
            if gL is None:
                return None, None, None, None
            (Lt,) = ctx.saved_tensors
            if ctx.upper:
                Lt, gL = mH(Lt), mH(gL)
            # A = L L^H: gA = L^{-H} Φ(L^H gL) L^{-1}, Φ taking the lower triangle with its
            # diagonal halved and symmetrising it
            P = (mH(Lt) @ gL).tril()
            P = 0.5 * (P + mH(P.tril(-1)))
            P = P if not P.is_complex() else P - 0.5j * torch.diag_embed(P.diagonal(0, -2, -1).imag)
            gA = L.solve_triangular(mH(Lt), P, upper=True)
            gA = L.solve_triangular(Lt, gA, upper=False, left=False)
            return gA, None, None, None

    @op("LinalgQrBackward0")
    class Qr:
        @staticmethod
        def forward(ctx, A, mode):
            a = host(A)
            m, n = a.shape[-2], a.shape[-1]
            with np.errstate(all="ignore"):
                if mode == "r":
                    r = np.linalg.qr(a, mode="r") if a.size else np.zeros(a.shape[:-2] + (min(m, n), n), a.dtype)
                    q = np.zeros((0,), dtype=a.dtype)
                else:
                    if a.size:
                        q, r = np.linalg.qr(a, mode=mode)
                    else:
                        k = m if mode == "complete" else min(m, n)
                        q = np.broadcast_to(np.eye(m, k, dtype=a.dtype), a.shape[:-2] + (m, k)).copy()
                        r = np.zeros(a.shape[:-2] + (k, n), dtype=a.dtype)
            Q, R = make(q, A.dtype, A.device), make(r, A.dtype, A.device)
            ctx.set_materialize_grads(False)
            ctx.save_for_backward(Q, R)
            forward_ad_save(ctx, Q, R)
            ctx.mode = mode
            return Q, R

        @staticmethod
        def backward(ctx, gQ, gR):
            mode = ctx.mode
            if mode == "r":
                raise RuntimeError(
                    "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please use "
                    "linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr.")
            Q, R = ctx.saved_tensors
            m, n = Q.shape[-2], R.shape[-1]
            if mode == "complete" and m > n:
                raise RuntimeError("The QR decomposition is not differentiable when mode='complete' and nrows > ncols.")
            if gQ is None and gR is None:
                return None, None
            if gQ is not None:
                M = -(mH(Q) @ gQ) if gR is None else gR @ mH(R) - mH(Q) @ gQ
            else:
                M = gR @ mH(R)
            if m >= n:
                T = M.triu()
                T = T + mH(T)
                diag = T.diagonal(0, -2, -1)
                T = T - 0.5 * torch.diag_embed(diag.real if T.is_complex() else diag)
                gA = Q @ T
                if gQ is not None:
                    gA = gA + gQ
                return L.solve_triangular(mH(R), gA, upper=False, left=False), None
            X = -M
            T = (X - mH(X)).tril()
            if T.is_complex():
                T = T - 0.5j * torch.diag_embed(T.diagonal(0, -2, -1).imag)
            gA = Q @ T
            gA = L.solve_triangular(mH(R.narrow(-1, 0, m)), gA, upper=False, left=False)
            gA = torch.cat([gA, gA.new_zeros(*gA.shape[:-1], n - m)], -1)
            if gR is not None:
                gA = gA + Q @ gR
            return gA, None

    @op("LinalgEighBackward0")
    class Eigh:
        @staticmethod
        def forward(ctx, A, uplo):
            w, v = eigh(host(A), uplo)
            W, V = make(w, A.dtype.to_real(), A.device), make(v, A.dtype, A.device)
            ctx.set_materialize_grads(False)
            ctx.save_for_backward(W, V)
            forward_ad_save(ctx, W, V)
            return W, V

        @staticmethod
        def backward(ctx, gW, gV):
            W, V = ctx.saved_tensors
            if gW is None and gV is None:
                return None, None
            if gV is None:
                return (V * gW.unsqueeze(-2).to(V.dtype)) @ mH(V), None
            VhgV = mH(V) @ gV
            if V.is_complex():
                im = VhgV.diagonal(0, -2, -1).imag
                if not torch.allclose(im, torch.zeros_like(im), rtol=1e-2, atol=1e-2):
                    raise RuntimeError(
                        "linalg_eigh_backward: The eigenvectors in the complex case are specified up to "
                        "multiplication by e^{i phi}. The specified loss function depends on this quantity, so it "
                        "is ill-defined.")
            VhgV = 0.5 * (VhgV - mH(VhgV))
            n = W.shape[-1]
            E = W.unsqueeze(-2) - W.unsqueeze(-1) + eye_like(W, n)
            ret = VhgV / E
            if gW is not None:
                ret = ret - torch.diag_embed(ret.diagonal(0, -2, -1)) + torch.diag_embed(gW).to(ret.dtype)
            return V @ ret @ mH(V), None

    @op("LinalgSvdBackward0")
    class Svd:
        @staticmethod
        def forward(ctx, A, full_matrices):
            a = host(A)
            if not A.is_meta:
                check_finite_svd(a, A.dim() > 2)
            u, s, vh = svd(a, full_matrices)
            U, S, Vh = make(u, A.dtype, A.device), make(s, A.dtype.to_real(), A.device), make(vh, A.dtype, A.device)
            ctx.set_materialize_grads(False)
            ctx.save_for_backward(U, S, Vh)
            forward_ad_save(ctx, U, S, Vh)
            ctx.full = full_matrices
            return U, S, Vh

        @staticmethod
        def backward(ctx, gU, gS, gVh):
            U, S, Vh = ctx.saved_tensors
            if ctx.full:
                k = S.shape[-1]
                U, Vh = U.narrow(-1, 0, k), Vh.narrow(-2, 0, k)
                gU = None if gU is None else gU.narrow(-1, 0, k)
                gVh = None if gVh is None else gVh.narrow(-2, 0, k)
            return svd_backward(gU, gS, gVh, U, S, Vh), None

    @op("LinalgLstsqBackward0")
    class Lstsq:
        @staticmethod
        def forward(ctx, A, B, rcond, driver, vector):
            a, b = host(A), host(B)
            if vector:
                b = b[..., None]
            batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
            a = np.broadcast_to(a, batch + a.shape[-2:])
            b = np.broadcast_to(b, batch + b.shape[-2:])
            x, res, rank, sv = lstsq(a, b, rcond, driver)
            if vector:
                x = x[..., 0]  # the residuals keep their trailing 1, as PyTorch's
            X = make(x, A.dtype, A.device)
            Res = make(res, A.dtype.to_real(), A.device)
            Rank = make(rank, torch.int64, A.device)
            Sv = make(sv, A.dtype.to_real(), A.device)
            ctx.mark_non_differentiable(Rank, Sv)
            ctx.set_materialize_grads(False)
            ctx.save_for_backward(A, B, X)
            forward_ad_save(ctx, A, B, X)
            ctx.vector = vector
            ctx.saved_shapes = (tuple(A.shape), tuple(B.shape))
            ctx.res_shape = res.size > 0
            return X, Res, Rank, Sv

        @staticmethod
        def backward(ctx, gX, gRes, _g_rank, _g_sv):
            A, B, X = ctx.saved_tensors
            if gRes is not None and gRes.numel() == 0:
                gRes = None
            if gX is None and gRes is None:
                return (None,) * 5
            vector = ctx.vector
            if vector:
                B, X = B.unsqueeze(-1), X.unsqueeze(-1)
                gX = None if gX is None else gX.unsqueeze(-1)
            gA = gB = None
            if gX is not None:
                pinvA = L.pinv(A)
                if ctx.needs_input_grad[0]:
                    gA = pinv_backward(gX @ mH(B), pinvA, A)
                if ctx.needs_input_grad[1]:
                    gB = mH(pinvA) @ gX
            if gRes is not None:
                r = A @ X - B
                w = gRes.unsqueeze(-2)
                if ctx.needs_input_grad[0]:
                    t = 2 * (w * r) @ mH(X)
                    gA = t if gA is None else gA + t
                if ctx.needs_input_grad[1]:
                    t = -2 * w * r
                    gB = t if gB is None else gB + t
            if gB is not None and vector:
                gB = gB.squeeze(-1)
            return (None if gA is None else sum_to(gA, ctx.saved_shapes[0]),
                    None if gB is None else sum_to(gB, ctx.saved_shapes[1]), None, None, None)

    @op("LinalgPinvBackward0")
    class Pinv:
        @staticmethod
        def forward(ctx, A, atol, rtol, hermitian):
            p = pinv(host(A), atol, rtol, hermitian)
            P = make(p, A.dtype, A.device)
            ctx.set_materialize_grads(False)
            ctx.save_for_backward(A, P)
            forward_ad_save(ctx, A, P)
            return P

        @staticmethod
        def backward(ctx, g):
            if g is None:
                return None, None, None, None
            A, P = ctx.saved_tensors
            return pinv_backward(g, P, A), None, None, None

    @op("LinalgMatrixExpBackward0")
    class MatrixExp:
        @staticmethod
        def forward(ctx, A):
            e = expm(host(A))
            ctx.set_materialize_grads(False)
            ctx.save_for_backward(A)
            forward_ad_save(ctx, A)
            return make(e, A.dtype, A.device)

        @staticmethod
        def backward(ctx, g):
            if g is None:
                return None
            (A,) = ctx.saved_tensors
            n = A.shape[-1]
            Ah = mH(A)
            top = torch.cat([Ah, g], -1)
            bottom = torch.cat([torch.zeros_like(Ah), Ah], -1)
            big = L.matrix_exp(torch.cat([top, bottom], -2))
            return big.narrow(-2, 0, n).narrow(-1, n, n)

    @op("LinalgSolveTriangularBackward0")
    class SolveTriangular:
        @staticmethod
        def forward(ctx, A, B, upper, left, unit):
            a, b = host(A), host(B)
            batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
            a = np.broadcast_to(a, batch + a.shape[-2:])
            b = np.broadcast_to(b, batch + b.shape[-2:])
            if left:
                x = trisolve(a, b, upper, unit)
            else:
                at = np.swapaxes(a, -1, -2)
                x = np.swapaxes(trisolve(at, np.swapaxes(b, -1, -2), not upper, unit), -1, -2)
            X = make(x, A.dtype, A.device)
            ctx.set_materialize_grads(False)
            ctx.save_for_backward(A, X)
            forward_ad_save(ctx, A, X)
            ctx.args = (upper, left, unit, tuple(A.shape), tuple(B.shape))
            return X

        @staticmethod
        def backward(ctx, g):
            if g is None:
                return (None,) * 5
            A, X = ctx.saved_tensors
            upper, left, unit, a_shape, b_shape = ctx.args
            gB = L.solve_triangular(mH(A), g, upper=not upper, left=left, unitriangular=unit)
            gA = None
            if ctx.needs_input_grad[0]:
                gA = -(gB @ mH(X)) if left else -(mH(X) @ gB)
                gA = gA.triu(int(unit)) if upper else gA.tril(-int(unit))
                gA = sum_to(gA, a_shape)
            gB = sum_to(gB, b_shape) if ctx.needs_input_grad[1] else None
            return gA, gB, None, None, None


# ----------------------------------------------------------------------------------------------
# Errors from info


def raise_inv_errors(name, info, batched):
    flat = info.reshape(-1)
    bad = np.flatnonzero(flat > 0)
    if bad.size:
        i = int(bad[0])
        raise LinAlgError(batch_prefix(name, batched, i) + f"The diagonal element {int(flat[i])} is zero, the inversion "
                          "could not be completed because the input matrix is singular.")


def raise_solve_errors(name, info, batched):
    flat = info.reshape(-1)
    bad = np.flatnonzero(flat > 0)
    if bad.size:
        raise LinAlgError(batch_prefix(name, batched, int(bad[0]))
                          + "The solver failed because the input matrix is singular.")


def raise_cholesky_errors(name, info, batched):
    flat = info.reshape(-1)
    bad = np.flatnonzero(flat > 0)
    if bad.size:
        i = int(bad[0])
        raise LinAlgError(batch_prefix(name, batched, i) + "The factorization could not be completed because the input "
                          f"is not positive-definite (the leading minor of order {int(flat[i])} is not positive-definite).")


# ----------------------------------------------------------------------------------------------
# Backward pieces


def det_grad_host(g, D, A):
    """First-order gradient of det (no graph): g·conj(det)·A^{-H}, and 0 where the LU has an
    exactly zero pivot (PyTorch perturbs that pivot by eps, which then multiplies det = 0)."""
    a, d, gv = host(A), host(D), host(g)
    scale = gv * d.conj()
    out = np.zeros_like(a, dtype=np.result_type(a, scale))
    nonzero = d != 0
    with np.errstate(all="ignore"):
        if nonzero.ndim == 0:
            if nonzero:
                out = scale * np.swapaxes(inverse(a)[0], -1, -2).conj()
        elif nonzero.any():
            inv_h = np.swapaxes(inverse(a[nonzero])[0], -1, -2).conj()
            out[nonzero] = scale[nonzero][..., None, None] * inv_h
    return make(out, A.dtype, A.device)


def det_grad_graph(g, D, A):
    """The gradient of det as a graph: solve(A^H, g·conj(det)·I) for invertible matrices, the
    adjugate from the SVD for (numerically) singular ones, as PyTorch splits them."""
    torch = _torch()
    L = _linalg()
    n = A.shape[-1]
    eps = torch.finfo(A.dtype.to_real()).eps

    def regular(A, g, D):
        d = torch.diag_embed((g * D.conj()).unsqueeze(-1).expand(*g.shape, n))
        return L.solve(mH(A), d)

    def singular(A, g, D):
        U, S, Vh = L.svd(A)
        alpha = (L.det(U) * L.det(Vh)).conj() * g
        eye = torch.eye(n, dtype=torch.bool, device=A.device)
        others = torch.where(eye, torch.ones_like(S).unsqueeze(-1), S.unsqueeze(-2).expand(*S.shape, n)).prod(-1)
        Dg = alpha.unsqueeze(-1) * others
        return (U * Dg.unsqueeze(-2).to(U.dtype)) @ Vh

    mask = D.abs() < 100 * eps
    if mask.dim() == 0:
        return singular(A, g, D) if bool(mask) else regular(A, g, D)
    if bool(mask.all()):
        return singular(A, g, D)
    if not bool(mask.any()):
        return regular(A, g, D)
    batch = tuple(A.shape[:-2])
    Af, gf, Df, mf = A.reshape(-1, n, n), g.reshape(-1), D.reshape(-1), mask.reshape(-1)
    idx_s, idx_r = mf.nonzero().squeeze(-1), (~mf).nonzero().squeeze(-1)
    rs = singular(Af[idx_s], gf[idx_s], Df[idx_s])
    rr = regular(Af[idx_r], gf[idx_r], Df[idx_r])
    order = torch.cat([idx_s, idx_r]).argsort()
    return torch.cat([rs, rr])[order].reshape(*batch, n, n)


def svd_backward(gU, gS, gVh, U, S, Vh):
    """The adjoint of the (thin) SVD A = U diag(S) Vh (real or complex; distinct singular
    values, full rank when A is rectangular)."""
    torch = _torch()
    if gU is None and gS is None and gVh is None:
        return None
    m, n = U.shape[-2], Vh.shape[-1]
    if gU is None and gVh is None:
        gs = gS.to(U.dtype)
        return U @ (gs.unsqueeze(-1) * Vh) if m >= n else (U * gs.unsqueeze(-2)) @ Vh
    complex_ = U.is_complex()
    UhgU = None if gU is None else (mH(U) @ gU)
    VhgV = None if gVh is None else (Vh @ mH(gVh))
    if UhgU is not None:
        UhgU = UhgU - mH(UhgU)
    if VhgV is not None:
        VhgV = VhgV - mH(VhgV)
    if complex_:
        im_u = UhgU.diagonal(0, -2, -1).imag if UhgU is not None else torch.zeros_like(S)
        im_v = VhgV.diagonal(0, -2, -1).imag if VhgV is not None else torch.zeros_like(S)
        if not torch.allclose(im_u, -im_v, rtol=1e-2, atol=1e-2):
            raise RuntimeError(
                "svd_backward: The singular vectors in the complex case are specified up to multiplication by "
                "e^{i phi}. The specified loss function depends on this phase term, making it ill-defined.")
    k = S.shape[-1]
    S2 = S * S
    E = S2.unsqueeze(-2) - S2.unsqueeze(-1) + eye_like(S, k)
    Sc = S.to(U.dtype)
    if UhgU is not None and VhgV is not None:
        core = (UhgU * Sc.unsqueeze(-2) + Sc.unsqueeze(-1) * VhgV) / E
    elif UhgU is not None:
        core = (UhgU / E) * Sc.unsqueeze(-2)
    else:
        core = Sc.unsqueeze(-1) * (VhgV / E)
    if gS is not None:
        core = core + torch.diag_embed(gS.to(core.dtype))
    if complex_ and UhgU is not None and VhgV is not None:
        core = core + torch.diag_embed(UhgU.diagonal(0, -2, -1) / (2 * Sc))
    if m > n and gU is not None:
        gA = U @ core
        gUS = gU / Sc.unsqueeze(-2)
        gA = gA + gUS - U @ (mH(U) @ gUS)
        return gA @ Vh
    if m < n and gVh is not None:
        gA = core @ Vh
        SgVh = gVh / Sc.unsqueeze(-1)
        gA = gA + SgVh - (SgVh @ mH(Vh)) @ Vh
        return U @ gA
    return U @ (core @ Vh) if m >= n else (U @ core) @ Vh


def pinv_backward(g, P, A):
    """The adjoint of A ↦ A⁺ (Golub and Pereyra's derivative of the pseudo-inverse) at a
    matrix of constant rank."""
    m, n = A.shape[-2], A.shape[-1]
    Ph, gh = mH(P), mH(g)
    if m <= n:
        K = gh @ P
        KPh = K @ Ph
        return -mH(P @ K) + KPh - (A @ P) @ KPh + (Ph @ P) @ (gh - K @ A)
    K = P @ gh
    PhK = Ph @ K
    return -mH(K @ P) + (gh - A @ K) @ P @ Ph + PhK - (PhK @ P) @ A


# ----------------------------------------------------------------------------------------------
# Host computations with tolerances


def tolerances(a_shape, dtype_eps, atol, rtol, batch):
    """PyTorch's (atol, rtol) for pinv and matrix_rank, as arrays broadcast to the batch."""
    m, n = a_shape[-2], a_shape[-1]
    if rtol is None:
        rtol = np.where(np.asarray(0.0 if atol is None else atol) > 0, 0.0, dtype_eps * max(m, n))
    atol = np.asarray(0.0 if atol is None else atol, dtype=np.float64)
    rtol = np.asarray(rtol, dtype=np.float64)
    return np.broadcast_to(atol, batch), np.broadcast_to(rtol, batch)


def pinv(a, atol, rtol, hermitian):
    """A⁺ of each matrix: singular values (|eigenvalues| if hermitian) at or below
    max(atol, rtol·largest) count as zero. `atol`/`rtol` are arrays over the batch."""
    with np.errstate(all="ignore"):
        if hermitian:
            w, v = np.linalg.eigh(a) if a.size else (np.zeros(a.shape[:-1]), a.copy())
            aw = np.abs(w)
            top = aw.max(-1, initial=0.0)
            tol = np.maximum(atol, rtol * top)[..., None]
            inv_w = np.where(aw > tol, 1.0 / np.where(aw > tol, w, 1.0), 0.0)
            return (v * inv_w[..., None, :]) @ np.swapaxes(v, -1, -2).conj()
        m, n = a.shape[-2], a.shape[-1]
        if a.size == 0:
            return np.zeros(a.shape[:-2] + (n, m), dtype=a.dtype)
        u, s, vh = svd(a, False)
        top = s[..., :1]
        tol = np.maximum(atol[..., None], rtol[..., None] * top)
        inv_s = np.where(s > tol, 1.0 / np.where(s > tol, s, 1.0), 0.0)
        return (np.swapaxes(vh, -1, -2).conj() * inv_s[..., None, :]) @ np.swapaxes(u, -1, -2).conj()


LSTSQ_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def lstsq(a, b, rcond, driver):
    """numpy's (LAPACK gelsd) minimum-norm solutions, reported as PyTorch reports each driver:
    residuals only for tall full-rank systems (not with gelsy), rank except for gels, singular
    values only for gelsd/gelss."""
    m, n = a.shape[-2], a.shape[-1]
    k = b.shape[-1]
    batch = a.shape[:-2]
    count = int(np.prod(batch, dtype=np.int64))
    fa, fb = a.reshape(count, m, n), b.reshape(count, m, k)
    finite = np.isfinite(fa).all((-2, -1)) & np.isfinite(fb).all((-2, -1))
    if not finite.all():
        raise LinAlgError(batch_prefix("torch.linalg.lstsq", len(batch) > 0, int(np.flatnonzero(~finite)[0]))
                          + "The algorithm failed to converge because the input contained non-finite values.")
    x = np.zeros((count, n, k), dtype=np.result_type(a, b))
    ranks = np.zeros(count, dtype=np.int64)
    svs = np.zeros((count, min(m, n)))
    with np.errstate(all="ignore"):
        for i in range(count):
            if m and n:
                sol, _, rank, sv = np.linalg.lstsq(fa[i], fb[i], rcond=rcond)
                x[i], ranks[i], svs[i] = sol, rank, sv
        x = x.reshape(batch + (n, k))
        full_rank = bool((ranks == min(m, n)).all())
        if m > n and driver != "gelsy" and (driver == "gels" or full_rank) and count:
            r = np.abs(a @ x - b) ** 2
            res = r.sum(-2)
        else:
            res = np.zeros((0,))
    rank = ranks.reshape(batch) if driver != "gels" else np.zeros((0,), dtype=np.int64)
    sv = svs.reshape(batch + (min(m, n),)) if driver in ("gelsd", "gelss") else np.zeros((0,))
    return x, res, rank, sv


# ----------------------------------------------------------------------------------------------
# Forward-mode AD: the differentials, computed on the host (tangents carry no graph)


def forward_ad_save(ctx, *tensors):
    """Keep what `jvp` needs, only while forward AD is at work (a kept output would otherwise
    tie the output to its own node)."""
    if _core._current_dual_level() >= 0:
        ctx.save_for_forward(*tensors)


def _saved(ctx):
    saved = ctx.saved_tensors
    ctx.__dict__.pop("saved_for_forward", None)
    return saved


def _tangent(t, like):
    return host(t) if t is not None else np.zeros(like.shape, dtype=like.dtype)


def _h(x):
    return np.swapaxes(x, -1, -2).conj()


def _bsolve(a, b):
    """np.linalg.solve with the batch dims broadcast and b a matrix."""
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    with np.errstate(all="ignore"):
        return np.linalg.solve(np.broadcast_to(a, batch + a.shape[-2:]), np.broadcast_to(b, batch + b.shape[-2:]))


def _trace(x):
    return np.trace(x, axis1=-2, axis2=-1)


def _jvp_inv(ctx, dA, _check, _name):
    (X,) = _saved(ctx)
    if dA is None:
        return None, None
    x = host(X)
    return make(-(x @ host(dA) @ x), X.dtype, X.device), None


def _jvp_solve(ctx, dA, dB, _left, _vector, _check, _name):
    A, X = _saved(ctx)
    if dA is None and dB is None:
        return None, None
    a, x = host(A), host(X)
    if ctx.vector:
        x = x[..., None]
    if ctx.left:
        rhs = np.zeros_like(x) if dB is None else (host(dB)[..., None] if ctx.vector else host(dB))
        if dA is not None:
            rhs = rhs - host(dA) @ x
        dx = _bsolve(a, rhs)
    else:
        rhs = np.zeros_like(x) if dB is None else host(dB)
        if dA is not None:
            rhs = rhs - x @ host(dA)
        dx = np.swapaxes(_bsolve(np.swapaxes(a, -1, -2), np.swapaxes(rhs, -1, -2)), -1, -2)
    if ctx.vector:
        dx = dx[..., 0]
    return make(np.broadcast_to(dx, X.shape), X.dtype, X.device), None


def _jvp_det(ctx, dA):
    A, D = _saved(ctx)
    if dA is None:
        return None
    a, d = host(A), host(D)
    out = np.zeros(d.shape, dtype=np.result_type(a, d))
    nonzero = np.asarray(d != 0)
    if nonzero.any():
        tr = _trace(_bsolve(a[nonzero] if nonzero.ndim else a, host(dA)[nonzero] if nonzero.ndim else host(dA)))
        if nonzero.ndim:
            out[nonzero] = d[nonzero] * tr
        else:
            out = d * tr
    return make(out, D.dtype, D.device)


def _jvp_slogdet(ctx, dA):
    A, S = _saved(ctx)
    if dA is None:
        return None, None
    tr = _trace(_bsolve(host(A), host(dA)))
    sign = 1j * tr.imag * host(S) if A.is_complex() else np.zeros(tr.shape)
    return make(sign, S.dtype, S.device), make(tr.real, A.dtype.to_real(), A.device)


def _jvp_cholesky(ctx, dA, _upper, _check, _name):
    (Lt,) = _saved(ctx)
    if dA is None:
        return None, None
    low = host(Lt)
    if ctx.upper:
        low = _h(low)
    with np.errstate(all="ignore"):
        m = np.linalg.solve(low, host(dA))
        m = _h(np.linalg.solve(low, _h(m)))
    m = np.tril(m) - 0.5 * np.einsum("...ii->...i", m)[..., None] * np.eye(m.shape[-1])
    dl = low @ m
    return make(_h(dl) if ctx.upper else dl, Lt.dtype, Lt.device), None


def _jvp_qr(ctx, dA, _mode):
    Q, R = _saved(ctx)
    if dA is None:
        return None, None
    if ctx.mode == "r":
        raise RuntimeError(
            "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please use "
            "linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr.")
    q, r, da = host(Q), host(R), host(dA)
    m, n = da.shape[-2], da.shape[-1]
    if ctx.mode == "complete" and m > n:
        raise RuntimeError("The QR decomposition is not differentiable when mode='complete' and nrows > ncols.")
    with np.errstate(all="ignore"):
        if m >= n:
            # dA R^{-1}, then dR = syminv(sym(Q^H dA R^{-1})) R and dQ = dA R^{-1} - Q dR R^{-1}
            dar = _h(np.linalg.solve(_h(r), _h(da)))
            x = _h(q) @ dar
            x = x + _h(x)
            x = np.triu(x) - 0.5 * np.einsum("...ii->...i", x)[..., None] * np.eye(n)
            dq = dar - q @ x
            dr = x @ r
        else:
            qhda = _h(q) @ da
            x = _h(np.linalg.solve(_h(r[..., :, :m]), _h(qhda[..., :, :m])))
            if np.iscomplexobj(x):
                t = np.tril(x)
                t = t - np.einsum("...ii->...i", t).real[..., None] * np.eye(m)
                dq_small = _trilim_inv(t)
            else:
                t = np.tril(x, -1)
                dq_small = t - _h(t)
            dr = qhda - dq_small @ r
            dq = q @ dq_small
    return make(dq, Q.dtype, Q.device), make(dr, R.dtype, R.device)


def _trilim_inv(x):
    ret = x - _h(x)
    d = np.einsum("...ii->...i", ret)
    return ret - 0.5 * d[..., None] * np.eye(x.shape[-1])


def _jvp_eigh(ctx, dA, _uplo):
    W, V = _saved(ctx)
    if dA is None:
        return None, None
    w, v = host(W), host(V)
    dp = _h(v) @ host(dA) @ v
    dw = np.einsum("...ii->...i", dp)
    dw = dw.real
    with np.errstate(all="ignore"):
        e = w[..., None, :] - w[..., :, None]
        ret = dp / np.where(np.eye(w.shape[-1], dtype=bool), 1.0, e)
    ret = ret * (1 - np.eye(w.shape[-1]))
    return make(dw, W.dtype, W.device), make(v @ ret, V.dtype, V.device)


def _jvp_svd(ctx, dA, _full):
    U_, S, Vh_ = _saved(ctx)
    if dA is None:
        return None, None, None
    u_, s, vh_, da = host(U_), host(S), host(Vh_), host(dA)
    m, n, k = da.shape[-2], da.shape[-1], s.shape[-1]
    complex_ = np.iscomplexobj(da)
    u, vh = u_[..., :, :k], vh_[..., :k, :]
    v = _h(vh)
    with np.errstate(all="ignore"):
        dp = _h(u) @ da @ v
        ds = np.einsum("...ii->...i", dp).real
        dp = dp - ds[..., None] * np.eye(k)
        s2 = s * s
        e = s2[..., None, :] - s2[..., :, None] + np.eye(k)
        diag2s = np.einsum("...ii->...i", dp) / (2 * s) if complex_ else None
        aux = dp * s[..., None, :]
        du = u @ ((aux + _h(aux)) / e + (diag2s[..., None] * np.eye(k) if complex_ else 0))
        if m > n:
            davs = da @ (v / s[..., None, :])
            du = du + davs - u @ (_h(u) @ davs)
            if ctx.full:
                du = np.concatenate([du, np.zeros(du.shape[:-1] + (m - n,), dtype=du.dtype)], -1)
        aux = dp * (-s)[..., :, None]
        dvh = ((aux + _h(aux)) / e + (diag2s[..., None] * np.eye(k) if complex_ else 0)) @ vh
        if m < n:
            uhdas = (_h(u) / s[..., :, None]) @ da
            dvh = dvh + uhdas - (uhdas @ v) @ vh
            if ctx.full:
                dvh = np.concatenate([dvh, np.zeros(dvh.shape[:-2] + (n - m, n), dtype=dvh.dtype)], -2)
    return make(du, U_.dtype, U_.device), make(ds, S.dtype, S.device), make(dvh, Vh_.dtype, Vh_.device)


def _pinv_jvp_host(a, p, da):
    dah, ph = _h(da), _h(p)
    eye_m, eye_n = np.eye(a.shape[-2]), np.eye(a.shape[-1])
    return (-p @ da @ p + p @ ph @ dah @ (eye_m - a @ p) + (eye_n - p @ a) @ dah @ ph @ p)


def _jvp_pinv(ctx, dA, _atol, _rtol, _hermitian):
    A, P = _saved(ctx)
    if dA is None:
        return None
    return make(_pinv_jvp_host(host(A), host(P), host(dA)), P.dtype, P.device)


def _jvp_lstsq(ctx, dA, dB, _rcond, _driver, _vector):
    A, B, X = _saved(ctx)
    if dA is None and dB is None:
        return None, None, None, None
    a, b, x = host(A), host(B), host(X)
    da, db = _tangent(dA, a), _tangent(dB, b)
    if ctx.vector:
        b, x, db = b[..., None], x[..., None], db[..., None]
    eps = _torch().finfo(A.dtype.to_real()).eps
    p = pinv(a, *tolerances(a.shape, eps, None, None, a.shape[:-2]), False)
    dx = _pinv_jvp_host(a, p, da) @ b + p @ db
    res = ctx.res_shape
    dres = None
    if res:
        r = a @ x - b
        dr = da @ x - db
        dres = 2 * (r * dr.conj()).real.sum(-2)
    if ctx.vector:
        dx = dx[..., 0]
    dX = make(np.broadcast_to(dx, X.shape), X.dtype, X.device)
    return dX, (None if dres is None else make(dres, A.dtype.to_real(), A.device)), None, None


def _jvp_matrix_exp(ctx, dA):
    (A,) = _saved(ctx)
    if dA is None:
        return None
    a, da = host(A), host(dA)
    n = a.shape[-1]
    big = np.zeros(a.shape[:-2] + (2 * n, 2 * n), dtype=np.result_type(a, da))
    big[..., :n, :n] = a
    big[..., n:, n:] = a
    big[..., :n, n:] = da
    return make(expm(big)[..., :n, n:], A.dtype, A.device)


def _jvp_solve_triangular(ctx, dA, dB, _upper, _left, _unit):
    A, X = _saved(ctx)
    if dA is None and dB is None:
        return None
    upper, left, unit, _, _ = ctx.args
    a, x = host(A), host(X)
    rhs = np.zeros(x.shape, dtype=x.dtype) if dB is None else np.broadcast_to(host(dB), x.shape)
    if dA is not None:
        da = host(dA)
        da = np.triu(da, int(unit)) if upper else np.tril(da, -int(unit))
        rhs = rhs - (da @ x if left else x @ da)
    batch = x.shape[:-2]
    a = np.broadcast_to(a, batch + a.shape[-2:])
    if left:
        dx = trisolve(a, rhs, upper, unit)
    else:
        dx = np.swapaxes(trisolve(np.swapaxes(a, -1, -2), np.swapaxes(rhs, -1, -2), not upper, unit), -1, -2)
    return make(dx, X.dtype, X.device)


JVPS = {
    "LinalgInvExBackward0": _jvp_inv, "LinalgSolveExBackward0": _jvp_solve, "LinalgDetBackward0": _jvp_det,
    "LinalgSlogdetBackward0": _jvp_slogdet, "LinalgCholeskyExBackward0": _jvp_cholesky, "LinalgQrBackward0": _jvp_qr,
    "LinalgEighBackward0": _jvp_eigh, "LinalgSvdBackward0": _jvp_svd, "LinalgLstsqBackward0": _jvp_lstsq,
    "LinalgPinvBackward0": _jvp_pinv, "LinalgMatrixExpBackward0": _jvp_matrix_exp,
    "LinalgSolveTriangularBackward0": _jvp_solve_triangular,
}
