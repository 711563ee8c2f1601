"""The LAPACK side of `torch.linalg` (see `_linalg_host`): host arrays in double precision,
the factorizations through faer (`_linalg_faer`), and the error type, shared by the autograd nodes
(`_linalg_host`) and the forward-mode rules (`_linalg_jvp`)."""
import numpy as np

from . import _linalg_faer as _faer
from . import _core
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


def getrf(a, pivot=True):
    """LU with partial pivoting of each matrix of `a` (..., m, n), as LAPACK's getf2 does it:
    (LU, pivots, info), the pivots 0-based (..., min(m, n)) and info the 1-based index of the
    first exactly-zero pivot (0 if none). The pivot is the first largest |x| (|re| + |im| for
    complex, as izamax) of its column; the column below it is scaled by its reciprocal.
    `pivot=False` takes the diagonal as it comes."""
    shape = a.shape
    m, n = shape[-2], shape[-1]
    k = min(m, n)
    lu = a.reshape((int(np.prod(shape[:-2], dtype=np.int64)), m, n)).copy()
    count = lu.shape[0]
    piv = np.zeros((count, k), dtype=np.int64)
    info = np.zeros(count, dtype=np.int64)
    rows = np.arange(count)
    tiny = np.finfo(lu.dtype).tiny
    with np.errstate(all="ignore"):
        for j in range(k):
            if pivot:
                col = lu[:, j:, j]
                size = np.abs(col.real) + np.abs(col.imag) if np.iscomplexobj(col) else np.abs(col)
                p = j + np.argmax(size, axis=1)
                piv[:, j] = p
                top = lu[rows, j, :].copy()
                lu[rows, j, :] = lu[rows, p, :]
                lu[rows, p, :] = top
            else:
                piv[:, j] = j
            d = lu[:, j, j]
            nonzero = d != 0
            info[(~nonzero) & (info == 0)] = j + 1
            safe = np.where(nonzero, d, 1)
            below = lu[:, j + 1:, j]
            scaled = np.where((np.abs(safe) >= tiny)[:, None], below * (1 / safe)[:, None], below / safe[:, None])
            col = np.where(nonzero[:, None], scaled, below)
            lu[:, j + 1:, j] = col
            lu[:, j + 1:, j + 1:] -= col[:, :, None] * lu[:, j, None, j + 1:]
    return lu.reshape(shape), piv.reshape(shape[:-2] + (k,)), info.reshape(shape[:-2])


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
            return _faer.inv(a), info
        except _faer.LinAlgError:
            pass
        n = a.shape[-1]
        flat = a.reshape(-1, n, n)
        out = np.empty_like(flat)
        flat_info = info.reshape(-1)
        for i, m in enumerate(flat):
            try:
                out[i] = _faer.inv(m)
            except _faer.LinAlgError:
                lu, piv, inf = getrf(m)
                out[i] = lu_solve(lu, piv, np.eye(n, dtype=m.dtype))
                flat_info[i] = inf
        return out.reshape(a.shape), info


def solve(a, b):
    """X with a X = b for matrices b (batch dims already broadcast), and getrf's info."""
    info = np.zeros(a.shape[:-2], dtype=np.int32)
    with np.errstate(all="ignore"):
        try:
            return _faer.solve(a, b), info
        except _faer.LinAlgError:
            pass
        n, k = a.shape[-1], b.shape[-1]
        fa, fb = a.reshape(-1, n, n), b.reshape(-1, n, k)
        out = np.empty(fb.shape, dtype=np.result_type(a, b))
        flat_info = info.reshape(-1)
        for i in range(fa.shape[0]):
            try:
                out[i] = _faer.solve(fa[i], fb[i])
            except _faer.LinAlgError:
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
            low = _faer.cholesky(a)
            bad = ~np.isfinite(np.diagonal(low, 0, -2, -1)).all(-1)
        except _faer.LinAlgError:
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
            r = _faer.solve(v - u, v + u)
        except _faer.LinAlgError:  # only for non-finite input
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
        d = _faer.det(a)
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
                w[~bad], v[~bad] = _faer.eigh(a[~bad], UPLO=uplo)
            return w, v
        return _faer.eigh(a, UPLO=uplo)


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
            return _faer.svd(a, full_matrices=full_matrices, compute_uv=compute_uv)
        m, n = a.shape[-2], a.shape[-1]
        k = min(m, n)
        s = np.full(a.shape[:-2] + (k,), np.nan)
        u = np.full(a.shape[:-2] + (m, m if full_matrices else k), np.nan, dtype=a.dtype)
        vh = np.full(a.shape[:-2] + (n if full_matrices else k, n), np.nan, dtype=a.dtype)
        if finite.any():
            if compute_uv:
                u[finite], s[finite], vh[finite] = _faer.svd(a[finite], full_matrices=full_matrices)
            else:
                s[finite] = _faer.svd(a[finite], compute_uv=False)
        return (u, s, vh) if compute_uv else s


def svdvals(a):
    return svd(a, False, compute_uv=False)


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
            w, v = _faer.eigh(a) if a.size else (np.zeros(a.shape[:-1]), a.copy())
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
                sol, _, rank, sv = _faer.lstsq(fa[i], fb[i], rcond=rcond)
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
