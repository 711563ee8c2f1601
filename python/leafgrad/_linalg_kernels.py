"""Host kernels (numpy, double precision) for the factorizations numpy's LAPACK wrappers do
not expose: solving with LU factors, the Bunch-Kaufman LDL^T / LDL^H factorization and its
solve (LAPACK's sytf2/hetf2 and sytrs/hetrs, lower triangle, in LAPACK's storage: `pivots`
1-based, a negative pair for a 2x2 block), and the product of Householder reflectors (orgqr).
LU itself is `_linalg_lapack.getrf`."""
import math

import numpy as np

from ._linalg_lapack import host, trisolve

_ALPHA = (1 + math.sqrt(17)) / 8  # Bunch-Kaufman's growth bound


def host_native(t):
    """`host(t)` in t's own precision: single precision (float32, complex64) stays single, so
    that these kernels round as LAPACK's single-precision routines do (float16/bfloat16 and
    double go to double)."""
    a = host(t)
    name = t.dtype._name
    if name == "float32":
        return a.astype(np.float32)
    if name == "complex64":
        return a.astype(np.complex64)
    return a


# ----------------------------------------------------------------------------------------------
# LU


def permutation(piv, m):
    """The row order `perm` of LU's pivots (0-based, (..., k)): `A[perm] = L U`, so the
    permutation matrix of `A = P L U` has P[perm[j], j] = 1."""
    batch = piv.shape[:-1]
    count = int(np.prod(batch, dtype=np.int64))
    perm = np.broadcast_to(np.arange(m), batch + (m,)).copy()
    flat_perm, flat_piv = perm.reshape((count, m)), piv.reshape((count, piv.shape[-1]))
    rows = np.arange(flat_perm.shape[0])
    for j in range(flat_piv.shape[-1]):
        p = flat_piv[:, j]
        top = flat_perm[rows, j].copy()
        flat_perm[rows, j] = flat_perm[rows, p]
        flat_perm[rows, p] = top
    return flat_perm.reshape(batch + (m,))


def permutation_matrix(piv, m, dtype):
    perm = permutation(piv, m)
    P = np.zeros(perm.shape + (m,), dtype=dtype)
    np.put_along_axis(P, perm[..., None], 1, axis=-1)  # P^T, row j has its 1 at perm[j]
    return np.swapaxes(P, -1, -2)


def lu_solve(lu, piv, b, adjoint):
    """X with A X = B (A^H X = B if `adjoint`) for A = P L U given as getrf's packed factors and
    0-based pivots, B matrices; batch dims already broadcast. A zero pivot gives inf/nan."""
    n = lu.shape[-1]
    perm = permutation(piv, n)
    with np.errstate(all="ignore"):
        if not adjoint:
            y = np.take_along_axis(b, perm[..., None], axis=-2)
            y = trisolve(lu, y, False, True)
            return trisolve(lu, y, True, False)
        luh = np.swapaxes(lu, -1, -2).conj()
        y = trisolve(luh, b, False, False)
        y = trisolve(luh, y, True, True)
        x = np.empty_like(y)
        np.put_along_axis(x, perm[..., None], y, axis=-2)
        return x


# ----------------------------------------------------------------------------------------------
# LDL^T (Bunch-Kaufman)


def _size(x, hermitian_diag=False):
    """LAPACK's |x| for choosing pivots: |re| + |im| for complex (izamax's cabs1), |re| for a
    Hermitian matrix's diagonal."""
    if np.iscomplexobj(x):
        return np.abs(x.real) if hermitian_diag else np.abs(x.real) + np.abs(x.imag)
    return np.abs(x)


def _argmax(x):
    """The first index of the largest value (Fortran's i?amax); NaN never compares larger."""
    if x.size == 0:
        return 0
    i = int(np.argmax(np.where(np.isnan(x), -np.inf, x)))
    return i


def _sytf2(a, hermitian):
    """One matrix's LDL^T (LDL^H if `hermitian`) from its lower triangle, as LAPACK's
    sytf2/hetf2 (uplo='L'): (LD with its strict upper triangle zeroed, 1-based pivots, info).
    Comparisons with NaN fail, so a NaN column takes a 2x2 pivot as PyTorch's LAPACK does."""
    a = a.copy()
    n = a.shape[-1]
    piv = np.zeros(n, dtype=np.int64)
    info = 0
    cplx = np.iscomplexobj(a)
    herm = hermitian and cplx
    conj = np.conj if herm else (lambda x: x)
    k = 0
    with np.errstate(all="ignore"):
        while k < n:
            kstep = 1
            absakk = _size(a[k, k], herm)
            if k < n - 1:
                col = _size(a[k + 1:, k])
                imax = k + 1 + _argmax(col)
                colmax = col[imax - k - 1]
            else:
                imax, colmax = k, 0.0
            if max(absakk, colmax) == 0 if not (np.isnan(absakk) or np.isnan(colmax)) else False:
                if info == 0:
                    info = k + 1
                kp = k
                if herm:
                    a[k, k] = a[k, k].real
            else:
                if absakk >= _ALPHA * colmax:
                    kp = k
                else:
                    row = _size(a[imax, k:imax])
                    rowmax = row[_argmax(row)]
                    if imax < n - 1:
                        below = _size(a[imax + 1:, imax])
                        rowmax = max(rowmax, below[_argmax(below)]) if not np.isnan(rowmax) else rowmax
                    if absakk >= _ALPHA * colmax * (colmax / rowmax):
                        kp = k
                    elif _size(a[imax, imax], herm) >= _ALPHA * rowmax:
                        kp = imax
                    else:
                        kp = imax
                        kstep = 2
                kk = k + kstep - 1
                if kp != kk:
                    # interchange rows and columns kk and kp of the trailing lower triangle
                    t = a[kp + 1:, kk].copy()
                    a[kp + 1:, kk] = a[kp + 1:, kp]
                    a[kp + 1:, kp] = t
                    t = conj(a[kk + 1:kp, kk].copy())
                    a[kk + 1:kp, kk] = conj(a[kp, kk + 1:kp])
                    a[kp, kk + 1:kp] = t
                    if herm:
                        a[kp, kk] = np.conj(a[kp, kk])
                    t = a[kk, kk]
                    a[kk, kk] = a[kp, kp].real if herm else a[kp, kp]
                    a[kp, kp] = t.real if herm else t
                    if kstep == 2:
                        if herm:
                            a[k, k] = a[k, k].real
                        t = a[k + 1, k]
                        a[k + 1, k] = a[kp, k]
                        a[kp, k] = t
                elif herm:
                    a[k, k] = a[k, k].real
                    if kstep == 2:
                        a[k + 1, k + 1] = a[k + 1, k + 1].real
                if kstep == 1:
                    if k < n - 1:
                        x = a[k + 1:, k].copy()
                        r = 1 / (a[k, k].real if herm else a[k, k])
                        a[k + 1:, k + 1:] += np.outer(x, -r * conj(x))
                        if herm:
                            idx = np.arange(k + 1, n)
                            a[idx, idx] = a[idx, idx].real
                        a[k + 1:, k] = x * r
                elif k < n - 2:
                    if herm:
                        d = abs(a[k + 1, k])
                        d11 = a[k + 1, k + 1].real / d
                        d22 = a[k, k].real / d
                        tt = 1 / (d11 * d22 - 1)
                        d21 = a[k + 1, k] / d
                        d = tt / d
                        wk = d * (d11 * a[k + 2:, k] - d21 * a[k + 2:, k + 1])
                        wkp1 = d * (d22 * a[k + 2:, k + 1] - np.conj(d21) * a[k + 2:, k])
                        a[k + 2:, k + 2:] -= (np.outer(a[k + 2:, k], np.conj(wk))
                                              + np.outer(a[k + 2:, k + 1], np.conj(wkp1)))
                        idx = np.arange(k + 2, n)
                        a[idx, idx] = a[idx, idx].real
                    else:
                        d21 = a[k + 1, k]
                        d11 = a[k + 1, k + 1] / d21
                        d22 = a[k, k] / d21
                        t = 1 / (d11 * d22 - 1)
                        d21 = t / d21
                        wk = d21 * (d11 * a[k + 2:, k] - a[k + 2:, k + 1])
                        wkp1 = d21 * (d22 * a[k + 2:, k + 1] - a[k + 2:, k])
                        a[k + 2:, k + 2:] -= np.outer(a[k + 2:, k], wk) + np.outer(a[k + 2:, k + 1], wkp1)
                    a[k + 2:, k] = wk
                    a[k + 2:, k + 1] = wkp1
            if kstep == 1:
                piv[k] = kp + 1
            else:
                piv[k] = piv[k + 1] = -(kp + 1)
            k += kstep
    return np.tril(a), piv, info


def ldl_factor(a, hermitian):
    """`_sytf2` of each matrix of `a` (..., n, n): (LD, pivots, info)."""
    n = a.shape[-1]
    count = int(np.prod(a.shape[:-2], dtype=np.int64))
    flat = a.reshape((count, n, n))
    ld = np.empty_like(flat)
    piv = np.zeros(flat.shape[:-1], dtype=np.int64)
    info = np.zeros(flat.shape[0], dtype=np.int64)
    for i in range(flat.shape[0]):
        ld[i], piv[i], info[i] = _sytf2(flat[i], hermitian)
    return ld.reshape(a.shape), piv.reshape(a.shape[:-1]), info.reshape(a.shape[:-2])


def _sytrs(ld, piv, b, hermitian):
    """X with A X = B for one matrix's `_sytf2` factors (LAPACK's sytrs/hetrs, uplo='L')."""
    n = ld.shape[-1]
    b = b.copy()
    herm = hermitian and np.iscomplexobj(ld)
    conj = np.conj if herm else (lambda x: x)

    def swap(i, j):
        if i != j:
            t = b[i].copy()
            b[i] = b[j]
            b[j] = t

    with np.errstate(all="ignore"):
        k = 0
        while k < n:  # L D Y = B
            if piv[k] > 0:
                swap(k, piv[k] - 1)
                b[k + 1:] -= np.outer(ld[k + 1:, k], b[k])
                b[k] = b[k] * (1 / (ld[k, k].real if herm else ld[k, k]))
                k += 1
            else:
                swap(k + 1, -piv[k] - 1)
                b[k + 2:] -= np.outer(ld[k + 2:, k], b[k])
                b[k + 2:] -= np.outer(ld[k + 2:, k + 1], b[k + 1])
                akm1k = ld[k + 1, k]
                akm1 = ld[k, k] / conj(akm1k)
                ak = ld[k + 1, k + 1] / akm1k
                denom = akm1 * ak - 1
                bkm1 = b[k] / conj(akm1k)
                bk = b[k + 1] / akm1k
                b[k] = (ak * bkm1 - bk) / denom
                b[k + 1] = (akm1 * bk - bkm1) / denom
                k += 2
        k = n - 1
        while k >= 0:  # L^T X = Y (L^H for Hermitian)
            if piv[k] > 0:
                if k < n - 1:
                    b[k] -= conj(ld[k + 1:, k]) @ b[k + 1:]
                swap(k, piv[k] - 1)
                k -= 1
            else:
                if k < n - 1:
                    b[k] -= conj(ld[k + 1:, k]) @ b[k + 1:]
                    b[k - 1] -= conj(ld[k + 1:, k - 1]) @ b[k + 1:]
                swap(k, -piv[k] - 1)
                k -= 2
    return b


def ldl_solve(ld, piv, b, hermitian):
    """`_sytrs` for each matrix (batch dims already broadcast; B matrices)."""
    n, k = b.shape[-2], b.shape[-1]
    count = int(np.prod(b.shape[:-2], dtype=np.int64))
    flat_ld, flat_piv = ld.reshape((count, n, n)), piv.reshape((count, n))
    flat_b = b.reshape((count, n, k))
    out = np.empty(flat_b.shape, dtype=np.result_type(ld, b))
    for i in range(flat_b.shape[0]):
        out[i] = _sytrs(flat_ld[i], flat_piv[i], flat_b[i], hermitian)
    return out.reshape(b.shape)


# ----------------------------------------------------------------------------------------------
# Householder products


def reflectors(a, k):
    """The Householder vectors of `a` (..., m, n): column i is zero above i, 1 at i and a's
    entries below the diagonal under it (the first k columns)."""
    m = a.shape[-2]
    v = np.tril(a[..., :, :k], -1)
    idx = np.arange(k)
    v[..., idx, idx] = 1
    return v.reshape(a.shape[:-2] + (m, k))


def householder_product(a, tau):
    """The first n columns of H_1 H_2 ... H_k, H_i = I - tau_i v_i v_i^H, for `a` (..., m, n)
    and `tau` (..., k), batch dims already broadcast: LAPACK's org2r/ung2r, column i set to
    H_i e_i once the reflectors after it have been applied to the columns after it."""
    m, n = a.shape[-2], a.shape[-1]
    k = tau.shape[-1]
    v = reflectors(a, k)
    q = np.zeros(a.shape, dtype=np.result_type(a, tau))
    idx = np.arange(k, n)
    q[..., idx, idx] = 1
    with np.errstate(all="ignore"):
        for i in range(k - 1, -1, -1):
            t = tau[..., i]
            vi = v[..., i:, i]
            if i < n - 1:
                w = np.einsum("...i,...ij->...j", vi.conj(), q[..., i:, i + 1:])
                q[..., i:, i + 1:] += vi[..., :, None] * (-t[..., None] * w)[..., None, :]
            q[..., i + 1:, i] = -t[..., None] * vi[..., 1:]
            q[..., i, i] = 1 - t
    return q
