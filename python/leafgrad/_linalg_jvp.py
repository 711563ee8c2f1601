"""Forward-mode AD for the `torch.linalg` nodes (see `_linalg_host`): each rule computes the
tangent on the host from the differential of its factorization."""
import numpy as np

from . import _linalg_faer as _faer
from . import _core
from ._linalg_lapack import _torch, expm, host, make, pinv, tolerances, trisolve

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
    """_faer.solve with the batch dims broadcast and b a matrix."""
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    with np.errstate(all="ignore"):
        return _faer.solve(np.broadcast_to(a, batch + a.shape[-2:]), np.broadcast_to(b, batch + b.shape[-2:]))


def _trace(x):
    return np.trace(x, axis1=-2, axis2=-1)


def _jvp_inv(ctx, dA, _check, _name, _f_order):
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
        m = _faer.solve(low, host(dA))
        m = _h(_faer.solve(low, _h(m)))
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
            dar = _h(_faer.solve(_h(r), _h(da)))
            x = _h(q) @ dar
            x = x + _h(x)
            x = np.triu(x) - 0.5 * np.einsum("...ii->...i", x)[..., None] * np.eye(n)
            dq = dar - q @ x
            dr = x @ r
        else:
            qhda = _h(q) @ da
            x = _h(_faer.solve(_h(r[..., :, :m]), _h(qhda[..., :, :m])))
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
