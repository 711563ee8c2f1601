"""The faer-backed factorizations (`leafgrad._linalg_faer`, `_core._factor`) against numpy's
LAPACK: the same values (up to the sign and phase conventions each factorization leaves free),
shapes, dtypes and errors, on batches of real and complex matrices."""
import numpy as np
import pytest

from leafgrad import _linalg_faer as F

RNG = np.random.default_rng(1234)
DTYPES = [np.float64, np.float32, np.complex128, np.complex64]


def rand(dtype, *shape):
    a = RNG.standard_normal(shape)
    if np.issubdtype(dtype, np.complexfloating):
        a = a + 1j * RNG.standard_normal(shape)
    return a.astype(dtype)


def tol(dtype):
    return 1e-10 if dtype in (np.float64, np.complex128) else 2e-4


def same(x, y, dtype):
    x, y = np.asarray(x), np.asarray(y)
    assert x.shape == y.shape
    assert x.dtype == y.dtype
    np.testing.assert_allclose(x, y, rtol=tol(dtype), atol=tol(dtype))


def spd(dtype, *batch, n=4):
    a = rand(dtype, *batch, n, n)
    return (a @ np.swapaxes(a, -1, -2).conj() + n * np.eye(n)).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_lu_family(dtype):
    a, b = rand(dtype, 3, 4, 4), rand(dtype, 3, 4, 2)
    same(F.solve(a, b), np.linalg.solve(a, b), dtype)
    same(F.solve(a[0], b[0, :, 0]), np.linalg.solve(a[0], b[0, :, 0]), dtype)
    same(F.solve(a[:1], b), np.linalg.solve(a[:1], b), dtype)  # batch broadcast
    same(F.inv(a), np.linalg.inv(a), dtype)
    same(F.det(a), np.linalg.det(a), dtype)
    sign, logabs = F.slogdet(a)
    ref = np.linalg.slogdet(a)
    same(sign, ref.sign, dtype)
    same(logabs, ref.logabsdet, dtype)


def test_singular_matrices():
    s = np.array([[1.0, 2.0], [2.0, 4.0]])
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        F.inv(s)
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        F.solve(np.stack([np.eye(2), s]), np.ones((2, 2, 1)))
    assert F.det(s) == 0.0
    sign, logabs = F.slogdet(s)
    assert sign == 0.0 and logabs == -np.inf
    with pytest.raises(np.linalg.LinAlgError, match="not positive definite"):
        F.cholesky(np.array([[1.0, 2.0], [2.0, 1.0]]))
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        F.inv(np.ones((2, 3)))


@pytest.mark.parametrize("dtype", DTYPES)
def test_cholesky_and_eigh(dtype):
    h = spd(dtype, 2)
    same(F.cholesky(h), np.linalg.cholesky(h), dtype)
    for uplo in "LU":
        # only the named triangle is read
        skew = np.tril(h) if uplo == "L" else np.triu(h)
        w, v = F.eigh(skew, uplo)
        wr, vr = np.linalg.eigh(h)
        same(w, wr, dtype)
        same(F.eigvalsh(skew, uplo), wr, dtype)
        # eigenvectors up to a phase per column: v diag(w) vᴴ rebuilds h
        same((v * w[..., None, :].astype(v.dtype)) @ np.swapaxes(v, -1, -2).conj(), h, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(2, 5, 3), (2, 3, 5), (4, 4)])
def test_qr_and_svd(dtype, shape):
    a = rand(dtype, *shape)
    for mode in ("reduced", "complete"):
        q, r = F.qr(a, mode)
        qr_, rr = np.linalg.qr(a, mode)
        assert q.shape == qr_.shape and r.shape == rr.shape and q.dtype == qr_.dtype
        same(q @ r, a, dtype)
        same(np.swapaxes(q, -1, -2).conj() @ q, np.broadcast_to(np.eye(q.shape[-1]), q.shape[:-2] + (q.shape[-1],) * 2).astype(dtype), dtype)
        assert np.allclose(np.tril(r, -1), 0)
        if not np.iscomplexobj(a):
            # real factors have LAPACK's signs
            same(q, qr_, dtype)
            same(r, rr, dtype)
    same(F.qr(a, "r"), F.qr(a)[1], dtype)
    h, tau = F.qr(a, "raw")
    hr, taur = np.linalg.qr(a, "raw")
    assert h.shape == hr.shape and tau.shape == taur.shape
    if not np.iscomplexobj(a):
        same(h, hr, dtype)
        same(tau, taur, dtype)
    u, s, vh = F.svd(a, full_matrices=False)
    same(s, np.linalg.svd(a, compute_uv=False), dtype)
    same(F.svd(a, compute_uv=False), s, dtype)
    same((u * s[..., None, :].astype(u.dtype)) @ vh, a, dtype)
    uf, sf, vhf = F.svd(a)
    ur, _, vhr = np.linalg.svd(a)
    assert uf.shape == ur.shape and vhf.shape == vhr.shape


@pytest.mark.parametrize("dtype", DTYPES)
def test_eig(dtype):
    a = rand(dtype, 5, 5)
    w, v = F.eig(a)
    assert w.dtype == np.result_type(dtype, np.complex64)
    same(a.astype(v.dtype) @ v, v * w[None, :], dtype)
    np.testing.assert_allclose(np.linalg.norm(v, axis=0), 1, rtol=tol(dtype))
    wr = np.linalg.eigvals(a)
    same(np.sort_complex(w.astype(np.complex128)), np.sort_complex(wr.astype(np.complex128)), dtype)
    if np.iscomplexobj(a):
        # zgeev's scaling: the largest component of each eigenvector is real and positive
        big = v[np.abs(v).argmax(0), np.arange(5)]
        assert np.allclose(big.imag, 0, atol=tol(dtype)) and (big.real > 0).all()


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
@pytest.mark.parametrize("shape", [(6, 3), (3, 6)])
def test_lstsq(dtype, shape):
    a, b = rand(dtype, *shape), rand(dtype, shape[0], 2)
    x, res, rank, sv = F.lstsq(a, b)
    xr, resr, rankr, svr = np.linalg.lstsq(a, b)
    same(x, xr, dtype)
    same(res, resr, dtype)
    assert rank == rankr
    same(sv, svr, dtype)
    # a rank-deficient system: the minimum-norm solution
    a[:, -1] = a[:, 0]
    same(F.lstsq(a, b)[0], np.linalg.lstsq(a, b)[0], dtype)


def test_empty_and_scalar_shapes():
    assert F.inv(np.zeros((0, 0))).shape == (0, 0)
    assert F.svd(np.zeros((2, 0, 3)), full_matrices=False)[1].shape == (2, 0)
    assert F.eigh(np.zeros((3, 0, 0)))[0].shape == (3, 0)
    assert F.det(np.eye(3)) == 1.0 and np.ndim(F.det(np.eye(3))) == 0
