"""The dense factorizations of `torch.linalg`, computed by faer (a Rust linear-algebra crate)
through `_core._factor`, with numpy.linalg's calling conventions so that the host layer
(`_linalg_lapack`, `_linalg_host`, `_linalg_jvp`, ...) keeps its numpy arrays: stacked
matrices (`..., m, n`), results in the input's precision class (float32 in, float32 out), and
`numpy.linalg.LinAlgError` where numpy raises it. The work runs in double precision
(float64 or complex128), one matrix at a time, without the GIL.

>>> import numpy as np
>>> from leafgrad import _linalg_faer as F
>>> F.solve(np.array([[2.0, 0.0], [0.0, 4.0]]), np.array([[2.0], [2.0]])).ravel().tolist()
[1.0, 0.5]
"""
import numpy as np

from . import _core

LinAlgError = np.linalg.LinAlgError


def _work_dtype(a):
    return np.complex128 if np.iscomplexobj(a) else np.float64


def _out_dtype(*arrays):
    """numpy.linalg's result type: the inputs' common inexact type, at least float32."""
    t = np.result_type(*[np.asarray(x).dtype for x in arrays])
    if not np.issubdtype(t, np.inexact) or t == np.float16:
        return np.dtype(np.complex128 if np.issubdtype(t, np.complexfloating) else np.float64)
    if t == np.longdouble:
        return np.dtype(np.float64)
    return t


def _real_of(dt):
    return np.dtype(np.float32 if dt in (np.float32, np.complex64) else np.float64)


def _factor(op, a, b=None, k=0, flag=False, work=None):
    """Runs `op` on every matrix of `a` (..., m, n); returns (list of flat arrays, infos)."""
    work = work or _work_dtype(a)
    a = np.ascontiguousarray(a, dtype=work)
    m, n = a.shape[-2], a.shape[-1]
    count = int(np.prod(a.shape[:-2], dtype=np.int64))
    bb = None if b is None else np.ascontiguousarray(b, dtype=work).tobytes()
    outs, infos = _core._factor(op, a.tobytes(), work == np.complex128, (count, m, n), bb, k, flag)
    return outs, np.array(infos, dtype=np.int64).reshape(a.shape[:-2])


def _take(buf, dtype, shape, out_dtype):
    return np.frombuffer(buf, dtype=dtype).reshape(shape).astype(out_dtype)


def _square(a):
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise LinAlgError("Last 2 dimensions of the array must be square")


def solve(a, b):
    """x with a @ x = b; `b` is a vector when it is 1-D (numpy 2's rule), batches broadcast."""
    a, b = np.asarray(a), np.asarray(b)
    _square(a)
    out = _out_dtype(a, b)
    vector = b.ndim == 1
    if vector:
        b = b[:, None]
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    n, k = a.shape[-1], b.shape[-1]
    a = np.broadcast_to(a, batch + (n, n))
    b = np.broadcast_to(b, batch + (n, k))
    work = np.complex128 if np.issubdtype(out, np.complexfloating) else np.float64
    (x,), infos = _factor("solve", a, b, k, work=work)
    if (infos > 0).any():
        raise LinAlgError("Singular matrix")
    x = _take(x, work, batch + (n, k), out)
    return x[..., 0] if vector else x


def inv(a):
    a = np.asarray(a)
    _square(a)
    out = _out_dtype(a)
    (x,), infos = _factor("inv", a)
    if (infos > 0).any():
        raise LinAlgError("Singular matrix")
    return _take(x, _work_dtype(a), a.shape, out)


def det(a):
    a = np.asarray(a)
    _square(a)
    (d,), _ = _factor("det", a)
    return _take(d, _work_dtype(a), a.shape[:-2], _out_dtype(a))[()]


def slogdet(a):
    """(sign, log|det|): sign 0 and -inf for a singular matrix, a unit complex sign for complex."""
    a = np.asarray(a)
    _square(a)
    out = _out_dtype(a)
    (sign, logabs), _ = _factor("slogdet", a)
    batch = a.shape[:-2]
    return _take(sign, _work_dtype(a), batch, out)[()], _take(logabs, np.float64, batch, _real_of(out))[()]


def cholesky(a):
    """The lower factor from each matrix's lower triangle."""
    a = np.asarray(a)
    _square(a)
    (low,), infos = _factor("cholesky", a)
    if (infos > 0).any():
        raise LinAlgError("Matrix is not positive definite")
    return _take(low, _work_dtype(a), a.shape, _out_dtype(a))


def qr(a, mode="reduced"):
    """Householder QR with LAPACK's signs: (Q, R) for 'reduced' and 'complete', R for 'r',
    and geqrf's packed (h, tau) for 'raw' (h transposed, as numpy gives it)."""
    a = np.asarray(a)
    out, work = _out_dtype(a), _work_dtype(a)
    m, n = a.shape[-2], a.shape[-1]
    k = min(m, n)
    batch = a.shape[:-2]
    if mode == "raw":
        (h, tau), _ = _factor("geqrf", a)
        h = _take(h, work, batch + (m, n), out)
        return np.swapaxes(h, -1, -2), _take(tau, work, batch + (k,), out)
    complete = mode == "complete"
    (q, r), _ = _factor("qr", a, flag=complete)
    kq = m if complete else k
    r = _take(r, work, batch + (k, n), out)
    if complete and m > k:
        r = np.concatenate([r, np.zeros(batch + (m - k, n), dtype=out)], axis=-2)
    if mode == "r":
        return r
    return _take(q, work, batch + (m, kq), out), r


def eigh(a, UPLO="L"):
    """Ascending eigenvalues and eigenvectors (columns) of each Hermitian matrix."""
    a = np.asarray(a)
    _square(a)
    out = _out_dtype(a)
    n = a.shape[-1]
    (w, v), infos = _factor("eigh", a, k=1, flag=UPLO.upper() == "L")
    if (infos > 0).any():
        raise LinAlgError("Eigenvalues did not converge")
    return _take(w, np.float64, a.shape[:-1], _real_of(out)), _take(v, _work_dtype(a), a.shape[:-2] + (n, n), out)


def eigvalsh(a, UPLO="L"):
    a = np.asarray(a)
    _square(a)
    (w, _), infos = _factor("eigh", a, k=0, flag=UPLO.upper() == "L")
    if (infos > 0).any():
        raise LinAlgError("Eigenvalues did not converge")
    return _take(w, np.float64, a.shape[:-1], _real_of(_out_dtype(a)))


def eig(a):
    """Eigenvalues and eigenvectors of each general matrix, always complex; each eigenvector
    has unit norm and its largest component real (geev's scaling)."""
    a = np.asarray(a)
    _square(a)
    out = np.dtype(np.complex64 if _out_dtype(a) in (np.float32, np.complex64) else np.complex128)
    (w, v), infos = _factor("eig", a)
    if (infos > 0).any():
        raise LinAlgError("Eigenvalues did not converge")
    n = a.shape[-1]
    return _take(w, np.complex128, a.shape[:-1], out), _take(v, np.complex128, a.shape[:-2] + (n, n), out)


def svd(a, full_matrices=True, compute_uv=True):
    """(U, S, Vh) with S descending, or S alone without `compute_uv`."""
    a = np.asarray(a)
    out, work = _out_dtype(a), _work_dtype(a)
    m, n = a.shape[-2], a.shape[-1]
    k = min(m, n)
    batch = a.shape[:-2]
    (s, u, vh), infos = _factor("svd", a, k=int(compute_uv), flag=full_matrices)
    if (infos > 0).any():
        raise LinAlgError("SVD did not converge")
    s = _take(s, np.float64, batch + (k,), _real_of(out))
    if not compute_uv:
        return s
    um, vn = (m, n) if full_matrices else (k, k)
    return _take(u, work, batch + (m, um), out), s, _take(vh, work, batch + (vn, n), out)


def lstsq(a, b, rcond=None):
    """numpy's (gelsd's) minimum-norm least-squares solution of one system through the SVD:
    (x, residuals, rank, singular values); singular values at or below rcond·largest count as
    zero (rcond None: machine epsilon × max(m, n); negative: machine epsilon)."""
    a, b = np.asarray(a), np.asarray(b)
    vector = b.ndim == 1
    if vector:
        b = b[:, None]
    m, n = a.shape
    out = _out_dtype(a, b)
    eps = np.finfo(np.float64).eps
    if rcond is None:
        rcond = eps * max(m, n)
    elif rcond < 0:
        rcond = eps
    work = np.complex128 if np.issubdtype(out, np.complexfloating) else np.float64
    u, s, vh = svd(a.astype(work), full_matrices=False)
    rank = np.int32((s > rcond * s[0]).sum() if s.size else 0)
    x = np.swapaxes(vh[:rank], -1, -2).conj() @ ((np.swapaxes(u[:, :rank], -1, -2).conj() @ b) / s[:rank, None])
    if rank == n and m > n:
        residuals = (np.abs(b - a @ x) ** 2).sum(0)
    else:
        residuals = np.zeros((0,), dtype=_real_of(out))
    x = x.astype(out)
    return (x[:, 0] if vector else x), residuals.astype(_real_of(out)), rank, s.astype(_real_of(out))
