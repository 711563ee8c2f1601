"""torch.linalg's decompositions (inv, solve, det, slogdet, cholesky, qr, eigh, svd, lstsq,
pinv, matrix_exp, matrix_power, matrix_rank, solve_triangular, cond, the singular-value norms)
and their torch.* / Tensor spellings: values, result types, nodes, gradients (gradcheck and
gradgradcheck, and PyTorch's numbers) and errors as PyTorch 2.15 gives them (these
expectations run against it with LEAFGRAD_TEST_TORCH=1).

Eigenvectors and singular vectors are only compared up to sign: their signs are LAPACK's
choice, and leafgrad's LAPACK (numpy's OpenBLAS) and PyTorch's (MKL) choose differently."""
import math

import pytest

import leafgrad as torch
from support import USING_TORCH

L = torch.linalg
d = torch.float64
nan, inf = math.nan, math.inf

A3 = [[2., 1., 0.5], [0.3, 3., 1.], [0.2, 1., 4.]]
S3 = [[4., 1., 0.5], [1., 3., 0.2], [0.5, 0.2, 2.]]  # symmetric positive-definite
R43 = [[1., 2., 0.5], [0.3, -1., 2.], [2., 0.1, 1.], [1., 1., -1.]]
B32 = [[1., 2.], [0., 1.], [-1., 3.]]
B42 = [[1., 2.], [0., 1.], [-1., 3.], [2., 2.]]
W3 = [[1., -1., 2.], [0.5, 0., -2.], [1., 3., 1.]]


def t(values, dtype=d, grad=False):
    return torch.tensor(values, dtype=dtype, requires_grad=grad)


def flat(x):
    if isinstance(x, (list, tuple)):
        for e in x:
            yield from flat(e)
    else:
        yield x


def close(got, expected, tol=1e-10):
    """`got` (a tensor or nested list) equals `expected` elementwise within `tol` (relative to
    1 + |expected|); NaN matches NaN, infinities must be equal."""
    if hasattr(got, "tolist"):
        got = got.detach().tolist()
    if hasattr(expected, "tolist"):
        expected = expected.detach().tolist()
    g, e = list(flat(got)), list(flat(expected))
    assert len(g) == len(e), (got, expected)
    for a, b in zip(g, e):
        if isinstance(b, float) and math.isnan(b):
            assert math.isnan(abs(a)), (got, expected)
        elif isinstance(b, float) and math.isinf(b):
            assert a == b, (got, expected)
        else:
            assert abs(a - b) <= tol * (1 + abs(b)), (got, expected)
    return True


def grad_of(f, *xs, w=None):
    xs = [x.detach().clone().requires_grad_() for x in xs]
    y = f(*xs)
    y = (y * (torch.ones_like(y) if w is None else w)).sum()
    return torch.autograd.grad(y, xs)


def node(x):
    return None if x.grad_fn is None else type(x.grad_fn).__name__


def check_grads(f, *xs, outs=None):
    """gradcheck and gradgradcheck (with fixed, non-random grad_outputs) of f at float64 xs."""
    xs = tuple(x.detach().clone().requires_grad_() for x in xs)
    assert torch.autograd.gradcheck(f, xs)
    y = f(*xs)
    ys = y if isinstance(y, tuple) else (y,)
    gos = tuple(torch.linspace(-1., 1., o.numel(), dtype=o.dtype).reshape(o.shape).cos() for o in ys)
    assert torch.autograd.gradgradcheck(f, xs, gos)


def raises(exc, text, fn):
    with pytest.raises(exc) as e:
        fn()
    assert str(e.value) == text, str(e.value)
    return e.value


def sym(f):
    """f of the symmetric part: the decompositions that read one triangle differentiate so."""
    return lambda x, *rest: f(x + x.mT, *rest)


# ---------------------------------------------------------------------------------------------- inv


def test_inv_values_node_gradients_and_spellings():
    A = t(A3, grad=True)
    X = L.inv(A)
    assert node(X) == "LinalgInvExBackward0" and X.dtype == d
    close(X, [[0.5275779376498801, -0.16786570743405277, -0.023980815347721826],
              [-0.04796163069544364, 0.3788968824940048, -0.08872901678657075],
              [-0.014388489208633098, -0.08633093525179857, 0.2733812949640288]])
    close(grad_of(L.inv, A, w=t(W3))[0],
          [[-0.32664515869318944, 0.34057358429802925, -0.35298380001035146],
           [-0.00943130387776111, -0.07326512890407101, 0.31375187619688427],
           [0.04318847080608893, -0.2742554158112359, -0.03431499404792712]])
    close(torch.inverse(A), X)
    close(A.inverse(), X)
    check_grads(L.inv, t(A3))
    batch = torch.stack([t(A3), t(S3)])
    Xb = L.inv(batch)
    assert Xb.shape == (2, 3, 3)
    close(Xb[0], X)
    close(torch.matmul(batch, Xb), torch.eye(3, dtype=d).expand(2, 3, 3).tolist())
    assert L.inv(torch.zeros(0, 0)).shape == (0, 0) and L.inv(torch.zeros(2, 0, 0)).shape == (2, 0, 0)
    f32 = L.inv(torch.tensor([[2., 0.], [0., 4.]]))
    assert f32.dtype == torch.float32 and f32.tolist() == [[0.5, 0.0], [0.0, 0.25]]


def test_inv_singular_raises_linalg_error_naming_the_pivot():
    assert issubclass(L.LinAlgError, RuntimeError) and L.LinAlgError.__name__ == "_LinAlgError"
    singular = torch.tensor([[1., 2., 3.], [2., 4., 6.], [1., 0., 1.]])
    e = raises(L.LinAlgError, "linalg.inv: The diagonal element 3 is zero, the inversion could not be completed "
               "because the input matrix is singular.", lambda: L.inv(singular))
    assert isinstance(e, RuntimeError)
    batch = torch.stack([torch.eye(2), torch.tensor([[1., 2.], [2., 4.]])])
    raises(L.LinAlgError, "linalg.inv: (Batch element 1): The diagonal element 2 is zero, the inversion could not be "
           "completed because the input matrix is singular.", lambda: L.inv(batch))
    raises(L.LinAlgError, "linalg.inv: The diagonal element 1 is zero, the inversion could not be completed because "
           "the input matrix is singular.", lambda: torch.inverse(torch.zeros(2, 2)))
    r = L.inv_ex(batch)
    assert type(r).__name__ == "linalg_inv_ex" and type(r).__module__ == "torch.return_types"
    assert r.info.dtype == torch.int32 and r.info.tolist() == [0, 2] and r.inverse[0].tolist() == [[1., 0.], [0., 1.]]
    inverse, info = L.inv_ex(t(A3, grad=True))
    assert info.item() == 0 and node(inverse) == "LinalgInvExBackward0" and info.grad_fn is None
    raises(L.LinAlgError, "linalg.inv_ex: (Batch element 1): The diagonal element 2 is zero, the inversion could not "
           "be completed because the input matrix is singular.", lambda: L.inv_ex(batch, check_errors=True))
    close(L.inv(torch.full((2, 2), nan)), [[nan, nan], [nan, nan]])


def test_inv_shape_and_dtype_errors():
    raises(RuntimeError, "linalg.inv: A must be batches of square matrices, but they are 2 by 3 matrices",
           lambda: L.inv(torch.ones(2, 3)))
    raises(RuntimeError, "linalg.inv: The input tensor A must have at least 2 dimensions.",
           lambda: L.inv(torch.ones(3)))
    raises(NotImplementedError, "linalg.inv: Expected a floating point or complex tensor as input. Got Long",
           lambda: L.inv(torch.eye(2, dtype=torch.int64)))
    raises(NotImplementedError, "linalg.inv: Low precision dtypes not supported. Got Half",
           lambda: L.inv(torch.eye(2).half()))
    raises(NotImplementedError, "linalg.inv: Low precision dtypes not supported. Got BFloat16",
           lambda: torch.inverse(torch.eye(2).bfloat16()))


# -------------------------------------------------------------------------------------------- solve


def test_solve_values_vectors_left_and_broadcasting():
    A, B = t(A3), t(B32)
    X = L.solve(A, B)
    close(X, [[0.5515587529976019, 0.815347721822542], [0.0407673860911271, 0.016786570743405223],
              [-0.28776978417266186, 0.7050359712230216]])
    close(L.solve(A, t([1., 0., -1.])), [0.5515587529976019, 0.0407673860911271, -0.28776978417266186])
    close(L.solve(A, B.mT, left=False), [[0.5419664268585132, -0.08153477218225418, -0.29736211031175064],
                                         [0.9640287769784173, -0.21582733812949642, 0.683453237410072]])
    assert L.solve(torch.eye(3).expand(2, 3, 3), torch.ones(2, 3)).shape == (2, 3)  # batch of vectors
    assert L.solve(torch.eye(3).expand(2, 3, 3), torch.ones(3)).shape == (2, 3)
    assert L.solve(torch.eye(3).expand(2, 1, 3, 3), torch.ones(4, 3, 2)).shape == (2, 4, 3, 2)
    Ag = t(A3, grad=True)
    assert node(L.solve(Ag, B)) == "LinalgSolveExBackward0"
    gA, gB = grad_of(L.solve, A, B, w=t([[1., -1.], [2., 0.5], [0., 1.]]))
    close(gA, [[0.22336087964161053, -0.00809711942676078, 0.5232303365940342],
               [-0.546325529504454, -0.028598703770796298, -0.021289443265531477],
               [-0.09517565803472333, 0.003965173185192866, -0.23634042406362685]])
    close(gB, [[0.4316546762589928, -0.565947242206235], [0.5899280575539568, 0.2709832134292566],
               [-0.20143884892086333, 0.25299760191846526]])
    r = L.solve_ex(A, B)
    assert type(r).__name__ == "linalg_solve_ex" and r.info.dtype == torch.int32 and r.info.item() == 0
    close(r.result, X)


def test_solve_gradients_with_broadcast_batches():
    A, B = t(A3), t(B32)
    check_grads(L.solve, A, B)
    check_grads(L.solve, A, t([1., 0., -1.]))
    check_grads(lambda a, b: L.solve(a, b, left=False), A, B.mT)
    check_grads(L.solve, torch.stack([t(A3), t(S3)]), B)  # B broadcast over A's batch
    gA, gB = grad_of(L.solve, A, torch.stack([B, 2 * B]))
    assert gA.shape == (3, 3) and gB.shape == (2, 3, 2)


def test_solve_errors():
    raises(L.LinAlgError, "torch.linalg.solve: The solver failed because the input matrix is singular.",
           lambda: L.solve(torch.tensor([[1., 2.], [2., 4.]]), torch.ones(2)))
    batch = torch.stack([torch.eye(2), torch.tensor([[1., 2.], [2., 4.]])])
    raises(L.LinAlgError, "torch.linalg.solve: (Batch element 1): The solver failed because the input matrix is "
           "singular.", lambda: L.solve(batch, torch.ones(2, 2)))
    r = L.solve_ex(batch, torch.ones(2, 2))
    assert r.info.tolist() == [0, 2] and r.result[0].tolist() == [1., 1.]
    raises(L.LinAlgError, "torch.linalg.solve_ex: (Batch element 1): The solver failed because the input matrix is "
           "singular.", lambda: L.solve_ex(batch, torch.ones(2, 2), check_errors=True))
    raises(RuntimeError, "linalg.solve: Incompatible shapes of A and B for the equation AX = B (3x3 and 2x2)",
           lambda: L.solve(torch.eye(3), torch.ones(2, 2)))
    raises(RuntimeError, "linalg.solve: Incompatible shapes of A and B for the equation AX = B (3x3 and 2x1)",
           lambda: L.solve(torch.eye(3), torch.ones(2)))
    raises(RuntimeError, "linalg.solve: Incompatible shapes of A and B for the equation XA = B (2x2 and 2x1)",
           lambda: L.solve(torch.eye(2), torch.ones(2), left=False))
    raises(RuntimeError, "linalg.solve: Expected A and B to have the same dtype, but found A of type Float and B of "
           "type Double instead", lambda: L.solve(torch.eye(3), torch.ones(3, dtype=d)))
    raises(RuntimeError, "linalg.solve: The input tensor B must have at least 2 dimensions.",
           lambda: L.solve(torch.eye(2), torch.tensor(1.)))
    raises(NotImplementedError, "linalg.solve: Expected a floating point or complex tensor as input. Got Long",
           lambda: L.solve(torch.ones(3, dtype=torch.int64), torch.ones(3, dtype=torch.int64)))
    raises(NotImplementedError, "\"lu_cpu\" not implemented for 'Half'",
           lambda: L.solve(torch.eye(2).half(), torch.ones(2).half()))
    raises(RuntimeError, "The size of tensor a (4) must match the size of tensor b (2) at non-singleton dimension 0",
           lambda: L.solve(torch.eye(3).expand(2, 3, 3), torch.ones(4, 3, 1)))


# ------------------------------------------------------------------------------ det, slogdet, logdet


def test_det_values_gradients_and_spellings():
    A = t(A3, grad=True)
    D = L.det(A)
    assert node(D) == "LinalgDetBackward0" and D.shape == ()
    close(D, 20.85)
    close(grad_of(L.det, A)[0], [[11.0, -1.0, -0.3], [-3.5, 7.9, -1.8], [-0.5, -1.85, 5.7]])
    close(torch.det(A), 20.85)
    close(A.det(), 20.85)
    check_grads(L.det, t(A3))
    check_grads(L.det, torch.stack([t(A3), t(S3)]))
    assert L.det(torch.zeros(0, 0)).item() == 1.0 and L.det(torch.zeros(2, 0, 0)).tolist() == [1.0, 1.0]
    assert L.det(torch.tensor([[1., 2.], [3., 4.]], dtype=d)).item() == pytest.approx(-2.0, abs=1e-14)


def test_det_of_singular_matrices_first_and_second_order():
    singular = t([[1., 2.], [2., 4.]], grad=True)
    (g,) = torch.autograd.grad(L.det(singular), singular)
    assert g.tolist() == [[0.0, 0.0], [0.0, 0.0]]  # PyTorch's first backward: det (= 0) times a solve
    (g,) = torch.autograd.grad(L.det(singular), singular, create_graph=True)
    close(g, [[4.0, -2.0], [-2.0, 1.0]])  # the adjugate, through the SVD
    (gg,) = torch.autograd.grad(g[0, 0], singular)
    close(gg, [[0.0, 0.0], [0.0, 1.0]])
    batch = torch.stack([t([[1., 2.], [2., 4.]]), t([[2., 1.], [0.3, 3.]])]).requires_grad_()
    (g,) = torch.autograd.grad(L.det(batch).sum(), batch, create_graph=True)
    close(g, [[[4.0, -2.0], [-2.0, 1.0]], [[3.0, -0.3], [-1.0, 2.0]]])
    check_grads(L.det, t([[1., 2.], [2., 4.]]) + 1e-3)


def test_slogdet_logdet():
    A = t(A3, grad=True)
    r = L.slogdet(-A)
    assert type(r).__name__ == "linalg_slogdet" and type(r).__module__ == "torch.return_types"
    assert node(r.sign) == node(r.logabsdet) == "LinalgSlogdetBackward0"
    assert r.sign.item() == -1.0
    close(r.logabsdet, 3.03735394824481)
    sign, logabsdet = torch.slogdet(A)
    assert type(torch.slogdet(A)).__name__ == "slogdet" and type(A.slogdet()).__name__ == "slogdet"
    assert sign.item() == 1.0
    close(torch.autograd.grad(logabsdet, A)[0], L.inv(A.detach()).mT.tolist())
    check_grads(lambda x: L.slogdet(x).logabsdet, t(A3))
    (g,) = torch.autograd.grad(L.slogdet(A).sign, A, allow_unused=True)
    assert g is None  # the sign of a real determinant has no gradient
    s = L.slogdet(torch.tensor([[1., 2.], [2., 4.]]))
    assert s.sign.item() == 0.0 and s.logabsdet.item() == -inf
    e = L.slogdet(torch.zeros(0, 0))
    assert e.sign.item() == 1.0 and e.logabsdet.item() == 0.0
    close(torch.logdet(t(S3)), 3.0582374789053883)
    close(t(S3).logdet(), 3.0582374789053883)
    assert math.isnan(torch.logdet(torch.tensor([[1., 2.], [2., 1.]])).item())
    assert torch.logdet(torch.tensor([[1., 2.], [2., 4.]])).item() == -inf
    assert node(torch.logdet(t(S3, grad=True))) == "WhereBackward0"
    check_grads(torch.logdet, t(S3))


def test_det_errors():
    raises(RuntimeError, "linalg.det: A must be batches of square matrices, but they are 2 by 3 matrices",
           lambda: L.det(torch.ones(2, 3)))
    raises(RuntimeError, "linalg.det: The input tensor A must have at least 2 dimensions.",
           lambda: torch.det(torch.tensor(1.)))
    raises(NotImplementedError, "linalg.det: Expected a floating point or complex tensor as input. Got Int",
           lambda: L.det(torch.eye(2, dtype=torch.int32)))
    raises(NotImplementedError, "\"lu_cpu\" not implemented for 'Half'", lambda: L.det(torch.eye(2).half()))
    raises(NotImplementedError, "linalg.slogdet: Low precision dtypes not supported. Got BFloat16",
           lambda: L.slogdet(torch.eye(2).bfloat16()))
    raises(NotImplementedError, "logdet: Expected a floating point or complex tensor as input. Got Bool",
           lambda: torch.logdet(torch.eye(2).bool()))
    raises(RuntimeError, "logdet: A must be batches of square matrices, but they are 2 by 3 matrices",
           lambda: torch.logdet(torch.ones(2, 3)))


# ----------------------------------------------------------------------------------------- cholesky


def test_cholesky_values_upper_and_gradients():
    S = t(S3, grad=True)
    C = L.cholesky(S)
    assert node(C) == "LinalgCholeskyExBackward0"
    close(C, [[2.0, 0.0, 0.0], [0.5, 1.6583123951777, 0.0], [0.25, 0.04522670168666455, 1.391206147720224]])
    close(L.cholesky(S, upper=True), [[2.0, 0.5, 0.25], [0.0, 1.6583123951777, 0.04522670168666455],
                                      [0.0, 0.0, 1.391206147720224]])
    close(grad_of(L.cholesky, S, w=t(W3))[0],
          [[0.24751128186614563, 0.019258921163026396, -0.01860809725521776],
           [0.019258921163026396, -0.02440178742391699, 0.8947322055436228],
           [-0.01860809725521778, 0.8947322055436229, 0.3594003669544965]])
    check_grads(sym(L.cholesky), t(S3) / 2)
    check_grads(sym(lambda x: L.cholesky(x, upper=True)), t(S3) / 2)
    # only the lower (upper) triangle is read
    lower_only = t(S3).tril()
    close(L.cholesky(lower_only), C)
    close(L.cholesky(t(S3).triu(), upper=True), L.cholesky(S, upper=True))
    r = L.cholesky_ex(S)
    assert type(r).__name__ == "linalg_cholesky_ex" and r.info.item() == 0 and r.info.dtype == torch.int32
    assert L.cholesky(torch.zeros(2, 0, 0)).shape == (2, 0, 0)


def test_cholesky_errors_and_the_removed_torch_cholesky():
    not_pd = torch.tensor([[1., 2.], [2., 1.]])
    raises(L.LinAlgError, "linalg.cholesky: The factorization could not be completed because the input is not "
           "positive-definite (the leading minor of order 2 is not positive-definite).", lambda: L.cholesky(not_pd))
    batch = torch.stack([torch.eye(2), not_pd])
    raises(L.LinAlgError, "linalg.cholesky: (Batch element 1): The factorization could not be completed because the "
           "input is not positive-definite (the leading minor of order 2 is not positive-definite).",
           lambda: L.cholesky(batch))
    raises(L.LinAlgError, "linalg.cholesky: The factorization could not be completed because the input is not "
           "positive-definite (the leading minor of order 1 is not positive-definite).",
           lambda: L.cholesky(torch.full((2, 2), nan)))
    raises(L.LinAlgError, "linalg.cholesky_ex: The factorization could not be completed because the input is not "
           "positive-definite (the leading minor of order 2 is not positive-definite).",
           lambda: L.cholesky_ex(not_pd, check_errors=True))
    r = L.cholesky_ex(batch)
    assert r.info.tolist() == [0, 2]
    assert r.L.tolist() == [[[1., 0.], [0., 1.]], [[1., 0.], [2., -3.]]]  # LAPACK stops at the failing pivot
    r = L.cholesky_ex(torch.tensor([[1., 2., 3.], [2., 4., 6.], [1., 0., 1.]]))
    assert r.info.item() == 2 and r.L.tolist() == [[1., 0., 0.], [2., 0., 0.], [1., 0., 1.]]
    raises(RuntimeError, "linalg.cholesky: A must be batches of square matrices, but they are 2 by 3 matrices",
           lambda: L.cholesky(torch.ones(2, 3)))
    raises(NotImplementedError, "linalg.cholesky: Expected a floating point or complex tensor as input. Got Long",
           lambda: L.cholesky(torch.eye(2, dtype=torch.int64)))
    raises(NotImplementedError, "\"cholesky_cpu\" not implemented for 'Half'", lambda: L.cholesky(torch.eye(2).half()))
    removed = ("This function was deprecated since version 1.9 and is now removed. `torch.cholesky` is deprecated in "
               "favor of `torch.linalg.cholesky`.\nL = torch.cholesky(A) should be replaced with:\n"
               "L = torch.linalg.cholesky(A)\nU = torch.cholesky(A, upper=True) should be replaced with:\n"
               "U = torch.linalg.cholesky(A).mH")
    raises(RuntimeError, removed, lambda: torch.cholesky(torch.eye(2)))
    raises(RuntimeError, removed, lambda: torch.eye(2).cholesky())


# ----------------------------------------------------------------------------------------------- qr


def test_qr_modes_values_and_gradients():
    R = t(R43, grad=True)
    q, r = L.qr(R)
    assert type(L.qr(R)).__name__ == "linalg_qr" and node(q) == node(r) == "LinalgQrBackward0"
    assert q.shape == (4, 3) and r.shape == (3, 3)
    close(q, [[-0.40522044923655387, 0.7082471888147475, 0.5762548805917176],
              [-0.12156613477096614, -0.5311853916110609, 0.6130010534404907],
              [-0.8104408984731076, -0.39617577124324965, -0.11612973098995838],
              [-0.4052204492365538, 0.24345997115506954, -0.5278957346439483]])
    close(r, [[-2.4677925358506134, -1.1751393027860058, -0.8509629433967631],
              [0.0, 2.151522163271301, -1.3478829312130671], [0.0, 0.0, 1.92589555083083]])
    qc, rc = L.qr(R, mode="complete")
    assert qc.shape == (4, 4) and rc.shape == (4, 3)
    close(qc[:, 3], [-0.04596324238734525, 0.5720956765233414, -0.41562506414088907, 0.705584667712121])
    qr_, rr = L.qr(R, mode="r")
    assert qr_.shape == (0,) and rr.shape == (3, 3)
    close(rr, r)
    (g,) = torch.autograd.grad(q.sum() * 0.5 + (r * t(W3)).sum(), R)
    close(g, [[0.15975612209454867, -0.21047830673446236, -1.6604187834840385],
              [-2.713254341238484, -0.3331938722617257, 1.5534514174248195],
              [-1.339661431993071, 0.7975405054054672, -1.0327198766962715],
              [0.8657505084125253, 1.1831479934526588, -1.6757619600520899]])
    check_grads(L.qr, t(R43))
    check_grads(L.qr, t(R43).mT)  # wide
    check_grads(lambda x: L.qr(x, mode="complete"), t(R43).mT)
    check_grads(L.qr, torch.stack([t(A3), t(S3)]))
    assert L.qr(torch.zeros(2, 0)).Q.shape == (2, 0)


def test_qr_errors():
    raises(RuntimeError, "qr received unrecognized mode 'foo' but expected one of 'reduced' (default), 'r', or "
           "'complete'", lambda: L.qr(torch.eye(2), mode="foo"))
    raises(RuntimeError, "linalg.qr: The input tensor A must have at least 2 dimensions.", lambda: L.qr(torch.ones(3)))
    raises(NotImplementedError, "linalg.qr: Expected a floating point or complex tensor as input. Got Long",
           lambda: L.qr(torch.eye(2, dtype=torch.int64)))
    raises(NotImplementedError, "\"geqrf_cpu\" not implemented for 'Half'", lambda: L.qr(torch.eye(2).half()))
    A = t(A3, grad=True)
    raises(RuntimeError, "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please use "
           "linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr.",
           lambda: torch.autograd.grad(L.qr(A, mode="r").R.sum(), A))
    tall = t(R43, grad=True)
    raises(RuntimeError, "The QR decomposition is not differentiable when mode='complete' and nrows > ncols.",
           lambda: torch.autograd.grad(L.qr(tall, mode="complete").R.sum(), tall))
    removed = str(pytest.raises(RuntimeError, torch.qr, torch.eye(2)).value)
    assert removed.startswith("This function was deprecated since version 1.9 and is now removed. `torch.qr` is "
                              "deprecated in favor of `torch.linalg.qr`")
    assert "Q, R = torch.linalg.qr(A, mode='complete')" in removed
    assert removed.endswith("\n\nSince `some` was set to True, use mode='reduced'.")
    e = pytest.raises(RuntimeError, lambda: torch.eye(2).qr(some=False)).value
    assert str(e).endswith("\n\nSince `some` was set to False, use mode='complete'.")


# --------------------------------------------------------------------------------------------- eigh


def test_eigh_eigvalsh_values_and_gradients():
    S = t(S3, grad=True)
    w, V = L.eigh(S)
    assert type(L.eigh(S)).__name__ == "linalg_eigh" and node(w) == node(V) == "LinalgEighBackward0"
    close(w, [1.8800869029150529, 2.398343019336997, 4.72157007774795])
    close(V.abs(), [[0.25304236163525456, 0.48194966042618, 0.8388647614682253],
                    [0.053438720828776154, 0.8587971746720289, 0.5095210652088138],
                    [0.9659781914382108, 0.1737582734445472, 0.1915572918876562]])
    close(torch.matmul(V * w, V.mT), S3)
    ev = L.eigvalsh(S)
    assert node(ev) == "LinalgEighBackward0"
    close(ev, w)
    close(grad_of(L.eigvalsh, S, w=t([1., 2., 3.]))[0],
          [[2.639663651251195, 0.4409415269507082, 0.40512406481651453],
           [0.4409415269507082, 2.256756019007707, 0.04598183651216142],
           [0.40512406481651453, 0.04598183651216142, 1.1035803297410949]])
    close(L.eigvalsh(t(A3), UPLO="U"), [1.377094878355865, 2.6824555614434464, 4.940449560200686])
    close(L.eigvalsh(t(A3)), [1.912333397199468, 2.4290525961204064, 4.658614006680128])
    check_grads(sym(L.eigvalsh), t(S3))
    # sign-invariant functions of the eigenvectors
    check_grads(sym(lambda x: (lambda r: (r.eigenvalues, r.eigenvectors ** 2))(L.eigh(x))), t(S3))
    check_grads(sym(lambda x: (lambda r: torch.matmul(r.eigenvectors * r.eigenvalues.exp(), r.eigenvectors.mT))(
        L.eigh(x))), t(S3) / 4)
    assert L.eigh(torch.zeros(0, 0)).eigenvalues.shape == (0,)
    assert L.eigh(torch.stack([t(S3), t(S3)])).eigenvectors.shape == (2, 3, 3)


def test_eigh_errors():
    raises(RuntimeError, "Expected UPLO argument to be 'L' or 'U', but got X", lambda: L.eigh(torch.eye(2), UPLO="X"))
    raises(RuntimeError, "linalg.eigh: A must be batches of square matrices, but they are 2 by 3 matrices",
           lambda: L.eigvalsh(torch.ones(2, 3)))
    raises(RuntimeError, "linalg.eigh: The input tensor A must have at least 2 dimensions.", lambda: L.eigh(torch.ones(2)))
    raises(NotImplementedError, "\"linalg_eigh_cpu\" not implemented for 'Long'",
           lambda: L.eigh(torch.eye(2, dtype=torch.int64)))
    raises(NotImplementedError, "\"linalg_eigh_cpu\" not implemented for 'Half'", lambda: L.eigvalsh(torch.eye(2).half()))
    close(L.eigvalsh(torch.full((2, 2), nan)), [nan, nan])


# ---------------------------------------------------------------------------------------------- svd


def test_svd_svdvals_values_shapes_and_gradients():
    R = t(R43, grad=True)
    U, S, Vh = L.svd(R)
    assert type(L.svd(R)).__name__ == "linalg_svd" and node(U) == node(S) == node(Vh) == "LinalgSvdBackward0"
    assert U.shape == (4, 4) and S.shape == (3,) and Vh.shape == (3, 3)
    close(S, [2.994915110151506, 2.8117545981810483, 1.2142979710902597])
    U, S, Vh = L.svd(R, full_matrices=False)
    assert U.shape == (4, 3)
    close(torch.matmul(U * S, Vh), R43)
    sv = L.svdvals(R)
    assert node(sv) == "LinalgSvdBackward0"
    close(sv, S)
    close(grad_of(L.svdvals, R, w=t([1., -1., 2.]))[0],
          [[-0.31180006631712043, 1.2769379463961434, 0.8653132214776567],
           [-0.489770368310886, 0.5477864000505889, -0.4913079102525154],
           [0.952284370328965, -0.06997273660175873, -0.8858640272848387],
           [0.937743478495875, -0.4021862420023885, -0.06709267177946648]])
    check_grads(L.svdvals, t(R43))
    check_grads(L.svdvals, t(R43).mT)
    check_grads(lambda x: (lambda r: (r.U ** 2, r.S, r.Vh ** 2))(L.svd(x, full_matrices=False)), t(R43))
    check_grads(lambda x: (lambda r: (r.U ** 2, r.S, r.Vh ** 2))(L.svd(x, full_matrices=False)), t(R43).mT)
    check_grads(lambda x: (lambda r: torch.matmul(r.U * r.S, r.Vh))(L.svd(x, full_matrices=False)), t(A3))
    # full_matrices: the extra columns of U get no gradient
    (g_full,) = torch.autograd.grad(L.svd(R).U[:, :3].pow(2).sum(), R)
    (g_red,) = torch.autograd.grad(L.svd(R, full_matrices=False).U.pow(2).sum(), R)
    close(g_full, g_red.tolist())
    e = L.svd(torch.zeros(2, 0))
    assert e.U.tolist() == [[1., 0.], [0., 1.]] and e.S.shape == (0,) and e.Vh.shape == (0, 0)


def test_old_torch_svd():
    A = t(R43, grad=True)
    r = torch.svd(A)
    assert type(r).__name__ == "svd" and r.U.shape == (4, 3) and r.V.shape == (3, 3)
    assert node(r.V) == "TransposeBackward0"
    close(torch.matmul(r.U * r.S, r.V.mT), R43)
    assert torch.svd(A, some=False).U.shape == (4, 4)
    r = A.svd(compute_uv=False)
    assert r.U.shape == (4, 4) and r.V.shape == (3, 3) and r.U.abs().sum().item() == 0
    close(r.S, [2.994915110151506, 2.8117545981810483, 1.2142979710902597])
    raises(RuntimeError, "linalg.svd: input should have at least 2 dimensions, but has 1 dimensions instead",
           lambda: torch.svd(torch.ones(3)))


def test_svd_errors():
    raises(L.LinAlgError, "linalg.svd: The algorithm failed to converge because the input matrix contained "
           "non-finite values.", lambda: L.svd(torch.full((2, 2), nan)))
    raises(L.LinAlgError, "linalg.svd: (Batch element 1): The algorithm failed to converge because the input matrix "
           "contained non-finite values.", lambda: L.svdvals(torch.stack([torch.eye(2), torch.full((2, 2), nan)])))
    close(L.svdvals(torch.stack([torch.eye(2), torch.full((2, 2), inf)])), [[1., 1.], [nan, nan]])
    close(L.svd(torch.tensor([[1., inf], [0., 1.]])).U, [[nan, nan], [nan, nan]])
    raises(RuntimeError, "torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs with "
           "cuSOLVER backend.", lambda: L.svd(torch.eye(2), driver="gesvd"))
    raises(RuntimeError, "linalg.svd: The input tensor A must have at least 2 dimensions.", lambda: L.svdvals(torch.ones(2)))
    raises(NotImplementedError, "linalg.svd: Expected a floating point or complex tensor as input. Got Long",
           lambda: L.svd(torch.eye(2, dtype=torch.int64)))
    raises(NotImplementedError, "\"linalg_svd_cpu\" not implemented for 'BFloat16'",
           lambda: L.svdvals(torch.eye(2).bfloat16()))


# ------------------------------------------------------------------------- norms, cond, matrix_rank


def test_singular_value_norms():
    R = t(R43, grad=True)
    close([L.matrix_norm(R, 2).item(), L.matrix_norm(R, -2).item(), L.matrix_norm(R, "nuc").item()],
          [2.994915110151506, 1.2142979710902597, 7.020967679422815])
    assert node(L.matrix_norm(R, 2)) == "AmaxBackward0" and node(L.matrix_norm(R, -2)) == "AminBackward0"
    assert node(L.norm(R, "nuc")) == "SumBackward1"
    close(L.norm(R, 2), 2.994915110151506)
    close(grad_of(lambda x: L.matrix_norm(x, "nuc"), R)[0],
          [[0.07724278913425764, 0.922381970089065, 0.37567596826336574],
           [0.04369556772060845, -0.2875020647319363, 0.7669027298424145],
           [0.8712236334750163, -0.1732746809449838, 0.19545094391147477],
           [0.4827977106024062, 0.1911280957182962, -0.482210222158084]])
    check_grads(lambda x: L.matrix_norm(x, 2), t(R43))
    x = torch.arange(24.).view(2, 3, 4)
    close(L.matrix_norm(x, 2, dim=(0, 2), keepdim=True), [[[27.2787]], [[36.795]], [[47.1031]]], 1e-5)
    assert L.matrix_norm(x, 2, dim=(0, 2), keepdim=True).shape == (1, 3, 1)
    close(L.matrix_norm(x, "nuc", dim=(2, 0)), [29.246, 38.2535, 48.2424], 1e-5)
    close(torch.arange(4.).view(2, 2).norm(p="nuc"), 4.242640687119285, 1e-6)
    close(torch.norm(torch.arange(8.).view(2, 2, 2), p="nuc", dim=(1, 2)), [4.242640687119285, 11.401754250991379], 1e-6)
    assert L.matrix_norm(torch.zeros(0, 0), "nuc").item() == 0.0 and L.matrix_norm(torch.zeros(2, 0), 2).item() == 0.0
    raises(IndexError, "amin(): Expected reduction dim -1 to have non-zero size.",
           lambda: L.matrix_norm(torch.zeros(0, 0), -2))
    raises(NotImplementedError, "linalg.matrix_norm: Expected a floating point or complex tensor as input. Got Long",
           lambda: L.matrix_norm(torch.eye(2, dtype=torch.int64), 2))
    raises(NotImplementedError, "linalg.matrix_norm: Low precision dtypes not supported. Got Half",
           lambda: L.matrix_norm(torch.eye(2).half(), "nuc"))


def test_cond():
    A = t(A3)
    close([L.cond(A, p).item() for p in [None, 2, -2, 1, -1, inf, -inf, "fro", "nuc"]],
          [2.824161157882041, 2.824161157882041, 0.354087441932649, 3.482014388489209, 0.9652278177458035,
           3.741007194244605, 1.3093525179856116, 4.194002033205848, 10.752948868985483])
    assert L.cond(torch.tensor([[1., 2.], [2., 4.]]), 1).item() == inf
    assert L.cond(torch.zeros(0, 0)).item() == 0.0 and L.cond(torch.zeros(2, 0), 1).item() == 0.0
    check_grads(L.cond, t(A3))
    raises(ValueError, "linalg.cond got an invalid norm type: 3", lambda: L.cond(torch.eye(2), 3))
    raises(RuntimeError, "linalg.cond(ord=1): A must be batches of square matrices, but they are 2 by 3 matrices",
           lambda: L.cond(torch.ones(2, 3), 1))
    raises(RuntimeError, "linalg.cond(ord=fro): A must be batches of square matrices, but they are 2 by 0 matrices",
           lambda: L.cond(torch.ones(2, 0), "fro"))
    raises(RuntimeError, "linalg.cond: The input tensor must have at least 2 dimensions.", lambda: L.cond(torch.ones(3)))
    raises(RuntimeError, "linalg.cond(ord=nuc): The input tensor A must have at least 2 dimensions.",
           lambda: L.cond(torch.ones(3), "nuc"))


def test_matrix_rank():
    assert L.matrix_rank(torch.tensor([[1., 2.], [2., 4.]])).item() == 1
    r = L.matrix_rank(torch.stack([torch.eye(3), torch.zeros(3, 3)]))
    assert r.dtype == torch.int64 and r.tolist() == [3, 0]
    small = torch.tensor([[2., 0.], [0., 0.1]])
    assert L.matrix_rank(small, tol=0.5).item() == 1
    assert L.matrix_rank(small, atol=0.5, rtol=0.).item() == 1
    assert L.matrix_rank(small, rtol=0.01).item() == 2
    assert L.matrix_rank(torch.tensor([[2., 0.], [0., -0.1]]), hermitian=True).item() == 2
    assert L.matrix_rank(torch.eye(2) * torch.tensor([1., 1e-9]), atol=1e-10).item() == 2
    assert L.matrix_rank(torch.zeros(2, 0)).item() == 0
    raises(RuntimeError, "torch.linalg.matrix_rank: The input tensor input must have at least 2 dimensions.",
           lambda: L.matrix_rank(torch.ones(3)))
    raises(RuntimeError, "This function doesn't handle types other than float and double",
           lambda: L.matrix_rank(torch.eye(2, dtype=torch.int64)))


# -------------------------------------------------------------------------------------- lstsq, pinv


def test_lstsq_drivers_values_and_gradients():
    A, B = t(R43), t(B42)
    r = L.lstsq(A, B)
    assert type(r).__name__ == "linalg_lstsq" and type(r).__module__ == "torch.return_types"
    close(r.solution, [[-0.06664459047671403, 1.5299732097066696], [0.621422431879612, 0.20292003438147363],
                       [-0.18869499830842212, 0.18761669199052672]])
    assert r.residuals.shape == (0,) and r.rank.dtype == torch.int64 and r.rank.item() == 3
    assert r.singular_values.shape == (0,)
    r = L.lstsq(A, B, driver="gelsd")
    close(r.residuals, [3.171359610375172, 0.4153329898373814])
    close(r.singular_values, [2.9949151101515064, 2.8117545981810483, 1.21429797109026])
    r = L.lstsq(A, B, driver="gels")
    assert r.rank.shape == (0,) and r.rank.dtype == torch.int64 and r.residuals.shape == (2,)
    r = L.lstsq(A, B[:, 0])
    assert r.solution.shape == (3,)
    assert L.lstsq(A, B[:, 0], driver="gelsd").residuals.shape == (1,)
    check_grads(lambda a, b: L.lstsq(a, b, driver="gels")[:2], A, B[:, 0])
    close(r.solution, [-0.06664459047671403, 0.621422431879612, -0.18869499830842212])
    rank_deficient = torch.tensor([[1., 2.], [2., 4.], [3., 6.]])
    r = L.lstsq(rank_deficient, torch.tensor([[1.], [2.], [4.]]), driver="gelsd")
    assert r.rank.item() == 1 and r.residuals.shape == (0,)
    close(r.solution, [[0.24285714], [0.48571429]], 1e-6)
    assert L.lstsq(torch.stack([A, 2 * A]), torch.stack([B, B])).rank.tolist() == [3, 3]
    wide = L.lstsq(A.mT, t(B32), driver="gelsd")
    assert wide.solution.shape == (4, 2) and wide.residuals.shape == (0,)
    Ag = A.clone().requires_grad_()
    r = L.lstsq(Ag, B, driver="gelsd")
    assert node(r.solution) == node(r.residuals) == "LinalgLstsqBackward0"
    assert r.rank.grad_fn is None and r.singular_values.grad_fn is None
    gA, gB = grad_of(lambda a, b: L.lstsq(a, b).solution, A, B, w=t([[1., 0.], [2., -1.], [0.5, 0.5]]))
    close(gA, [[0.6394926618316001, -0.5808883440792845, 0.2336756193121443],
               [-0.45684284580299395, 0.38055671670233393, 0.2584629483166052],
               [-0.1911733888462604, -0.34584719910219897, -0.25191468620967994],
               [-0.053448439921469276, 0.5369932953933688, 0.38130986692065477]])
    close(gB, [[0.9978873803492424, -0.36702845318034605], [0.026295372248794774, 0.20663074703196788],
               [-0.01910347556536443, 0.19176398719899798], [0.032430959106846236, -0.07848874532723957]])
    check_grads(lambda a, b: L.lstsq(a, b, driver="gelsd")[:2], A, B)
    check_grads(lambda a, b: L.lstsq(a, b).solution, A.mT, t(B32))


def test_lstsq_errors():
    raises(RuntimeError, "torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)",
           lambda: L.lstsq(torch.ones(3, 2), torch.ones(3, 1), driver="foo"))
    raises(RuntimeError, "torch.linalg.lstsq: input.size(-2) should match other.size(-2)",
           lambda: L.lstsq(torch.ones(3, 2), torch.ones(2, 1)))
    raises(RuntimeError, "torch.linalg.lstsq: input.size(-2) should match other.size(-1)",
           lambda: L.lstsq(torch.ones(3, 2), torch.ones(2)))
    raises(RuntimeError, "torch.linalg.lstsq: Expected input and other to have the same dtype, but got input's dtype "
           "Float and other's dtype Double", lambda: L.lstsq(torch.ones(3, 2), torch.ones(3, 1, dtype=d)))
    raises(RuntimeError, "torch.linalg.lstsq: input must have at least 2 dimensions.",
           lambda: L.lstsq(torch.ones(3), torch.ones(3)))
    raises(RuntimeError, "torch.linalg.lstsq: other must have at least 1 dimension.",
           lambda: L.lstsq(torch.ones(3, 2), torch.tensor(1.)))
    raises(RuntimeError, "This function doesn't handle types other than float and double",
           lambda: L.lstsq(torch.ones(3, 2, dtype=torch.int64), torch.ones(3, 1, dtype=torch.int64)))
    raises(RuntimeError, "The size of tensor a (2) must match the size of tensor b (4) at non-singleton dimension 0",
           lambda: L.lstsq(torch.ones(2, 3, 2), torch.ones(4, 3, 1)))


def test_pinv_pinverse():
    R = t(R43, grad=True)
    P = L.pinv(R)
    assert node(P) == "LinalgPinvBackward0" and P.shape == (3, 4)
    close(P, [[-0.184990502057987, -0.037884176512288786, 0.4548731196884148, 0.2866095156348439],
              [0.5166354451958585, -0.04748373275696144, -0.22191352748425908, -0.05856327040025269],
              [0.2992139840310248, 0.3182940285500129, -0.06029908057052219, -0.2741040314549845]])
    w = t([[1., 0., 2., -1.], [0.5, 1., 0., 0.], [2., 2., -1., 1.]])
    close(grad_of(L.pinv, R, w=w)[0], [[0.3784163728745823, -0.4546353348250766, -0.5073578249045372],
                                       [-0.3702383586621736, 0.16698206418451825, 0.2596404524403355],
                                       [0.15326346837375066, -0.311710362658724, -0.43668907729284867],
                                       [-1.0120180237074299, 0.8965897802595755, 0.8501239894131688]])
    close(torch.pinverse(R), P)
    close(R.pinverse(), P)
    check_grads(L.pinv, t(R43))
    check_grads(L.pinv, t(R43).mT)
    check_grads(sym(lambda x: L.pinv(x, hermitian=True)), t(S3))
    diag = torch.tensor([[2., 0.], [0., 0.1]])
    assert L.pinv(diag, atol=0.5).tolist() == [[0.5, 0.0], [0.0, 0.0]]
    assert L.pinv(diag, atol=torch.tensor(0.5)).tolist() == [[0.5, 0.0], [0.0, 0.0]]
    assert L.pinv(diag, rtol=0.1).tolist() == [[0.5, 0.0], [0.0, 0.0]]  # 0.1 <= 0.1 * 2
    close(L.pinv(diag, rtol=0.01), [[0.5, 0.0], [0.0, 10.0]], 1e-6)
    close(L.pinv(diag, 0.01), [[0.5, 0.0], [0.0, 10.0]], 1e-6)  # rcond, the older spelling of rtol
    assert L.pinv(diag, rcond=0.06).tolist() == [[0.5, 0.0], [0.0, 0.0]]
    close(L.pinv(torch.tensor([[2., 0.], [0., -0.1]]), hermitian=True), [[0.5, 0.0], [0.0, -10.0]], 1e-6)
    assert L.pinv(torch.zeros(2, 0)).shape == (0, 2)
    raises(RuntimeError, "linalg.pinv(Long{[3, 3]}): expected a tensor with 2 or more dimensions of float, double, "
           "cfloat or cdouble types", lambda: L.pinv(torch.eye(3, dtype=torch.int64)))
    raises(RuntimeError, "linalg.pinv(Float{[3]}): expected a tensor with 2 or more dimensions of float, double, "
           "cfloat or cdouble types", lambda: torch.pinverse(torch.ones(3)))


# ------------------------------------------------------------------------- matrix_exp, matrix_power


def test_matrix_exp():
    A = t(A3) * 0.5
    E = L.matrix_exp(A.requires_grad_())
    assert node(E) == "LinalgMatrixExpBackward0"
    close(E, [[2.924379191024926, 2.1894842947916207, 1.8323038329103831],
              [0.686347755858069, 5.349883225181212, 3.163065719670857],
              [0.6739165983229876, 3.1925681870914393, 8.306431672907987]])
    close(grad_of(L.matrix_exp, A, w=t(W3))[0],
          [[3.7611675859652545, -0.27326203846383956, 8.74427163184873],
           [3.313019073460979, 1.3294500991407359, -7.65915287987699],
           [10.944511329339953, 20.350370536415923, 11.883980148040694]], 1e-9)
    close(torch.matrix_exp(A), E)
    close(A.matrix_exp(), E)
    check_grads(L.matrix_exp, t(A3) * 0.3)
    check_grads(L.matrix_exp, torch.stack([t(A3), -t(S3)]) * 0.2)
    assert L.matrix_exp(torch.zeros(2, 2, 2)).tolist() == [[[1., 0.], [0., 1.]]] * 2
    close(L.matrix_exp(torch.tensor([[1.]])), [[2.718281828]], 1e-6)
    close(L.matrix_exp(t([[0., -math.pi], [math.pi, 0.]])), [[-1., 0.], [0., -1.]], 1e-12)
    raises(NotImplementedError, "linalg.matrix_exp: Expected a floating point or complex tensor as input. Got Long",
           lambda: L.matrix_exp(torch.eye(2, dtype=torch.int64)))
    raises(RuntimeError, "linalg.matrix_exp: A must be batches of square matrices, but they are 2 by 3 matrices",
           lambda: L.matrix_exp(torch.ones(2, 3)))


def test_matrix_power():
    A = t(A3, grad=True)
    close(L.matrix_power(A, 3), [[11.25, 24.9, 23.7], [7.92, 39.75, 39.75], [8.58, 40.2, 76.35]])
    close(torch.matrix_power(A, -2), [[0.28673464106412716, -0.1500957507375395, -0.004313096285561482],
                                      [-0.0421993340579335, 0.15927401963321433, -0.05672584234770458],
                                      [-0.007384020840881256, -0.05389645118437625, 0.08274243914221142]])
    assert node(L.matrix_power(A, 3)) == "MmBackward0" and node(A.matrix_power(1)) == "CloneBackward0"
    p0 = L.matrix_power(A, 0)
    assert node(p0) == "CopyBackwards" and p0.tolist() == [[1., 0., 0.], [0., 1., 0.], [0., 0., 1.]]
    p = L.matrix_power(A, -3)
    assert node(p) == "MmBackward0" and type(p.grad_fn.next_functions[1][0]).__name__ == "LinalgInvExBackward0"
    assert node(L.matrix_power(torch.stack([A, A]), 2)) == "UnsafeViewBackward0"
    check_grads(lambda x: L.matrix_power(x, 5), t(A3) * 0.5)
    check_grads(lambda x: L.matrix_power(x, -2), t(A3))
    assert L.matrix_power(torch.tensor([[1, 1], [0, 1]]), 4).tolist() == [[1, 4], [0, 1]]
    raises(TypeError, "linalg_matrix_power(): argument 'n' (position 2) must be int, not float",
           lambda: L.matrix_power(torch.eye(2), 2.0))
    raises(RuntimeError, "linalg.matrix_power: A must be batches of square matrices, but they are 2 by 3 matrices",
           lambda: L.matrix_power(torch.ones(2, 3), 2))
    raises(NotImplementedError, "linalg.inv: Expected a floating point or complex tensor as input. Got Long",
           lambda: L.matrix_power(torch.eye(2, dtype=torch.int64), -1))


# ---------------------------------------------------------------------------------- solve_triangular


def test_solve_triangular():
    A, B = t(A3), t(B32)
    X = L.solve_triangular(A.requires_grad_(), B, upper=True)
    assert node(X) == "LinalgSolveTriangularBackward0"
    close(X, [[0.5208333333333333, 0.7708333333333334], [0.08333333333333333, 0.08333333333333333], [-0.25, 0.75]])
    close(L.solve_triangular(A, B, upper=False, unitriangular=True), [[1.0, 2.0], [-0.3, 0.4], [-0.9, 2.2]])
    close(L.solve_triangular(A, B.mT, upper=True, left=False),
          [[0.5, -0.16666666666666666, -0.2708333333333333], [1.0, 0.0, 0.625]])
    gA, gB = grad_of(lambda a, b: L.solve_triangular(a, b, upper=True), A, B, w=t([[1., -1.], [2., 0.5], [0., 1.]]))
    close(gA, [[0.125, 0.0, 0.5], [0.0, -0.06944444444444445, -0.125], [0.0, 0.0, -0.21875]])
    close(gB, [[0.5, -0.5], [0.5, 0.3333333333333333], [-0.1875, 0.22916666666666669]])
    check_grads(lambda a, b: L.solve_triangular(a, b, upper=True), t(A3), B)
    check_grads(lambda a, b: L.solve_triangular(a, b, upper=False, unitriangular=True), t(A3), B)
    check_grads(lambda a, b: L.solve_triangular(a, b, upper=True, left=False), t(A3), B.mT)
    assert L.solve_triangular(torch.eye(2).expand(3, 2, 2), torch.ones(2, 1), upper=True).shape == (3, 2, 1)
    assert L.solve_triangular(torch.eye(2, dtype=d), torch.ones(2, 1), upper=True).dtype == d
    close(L.solve_triangular(torch.tensor([[0., 1.], [0., 1.]]), torch.ones(2, 1), upper=True), [[nan], [1.0]])
    raises(TypeError, 'linalg_solve_triangular() missing 1 required positional arguments: "upper"',
           lambda: L.solve_triangular(torch.eye(2), torch.ones(2, 1)))
    raises(RuntimeError, "linalg.solve_triangular: The input tensor B must have at least 2 dimensions.",
           lambda: L.solve_triangular(torch.eye(2), torch.ones(2), upper=True))
    raises(RuntimeError, "linalg.solve_triangular: Incompatible shapes of A and B for the equation AX = B (2x2 and "
           "3x1)", lambda: L.solve_triangular(torch.eye(2), torch.ones(3, 1), upper=True))
    raises(RuntimeError, "linalg.solve_triangular: A must be batches of square matrices, but they are 2 by 3 "
           "matrices", lambda: L.solve_triangular(torch.ones(2, 3), torch.ones(2, 1), upper=True))
    raises(NotImplementedError, "\"triangular_solve_cpu\" not implemented for 'Long'",
           lambda: L.solve_triangular(torch.eye(2, dtype=torch.int64), torch.ones(2, 1, dtype=torch.int64),
                                      upper=True))


# -------------------------------------------------------------------------------- complex, devices


def test_complex_values_and_gradients():
    C = (t(A3) * (1 + 0.5j)).to(torch.complex128)
    X = L.inv(C)
    assert X.dtype == torch.complex128
    close(X[0], [0.42206235011990406 - 0.21103117505995203j, -0.13429256594724223 + 0.06714628297362112j,
                 -0.01918465227817745 + 0.009592326139088725j])
    close(L.det(C), 5.2125 + 28.668750000000003j)
    s = L.slogdet(C)
    assert s.sign.dtype == torch.complex128 and s.logabsdet.dtype == d
    close(s.sign, 0.17888543819998318 + 0.9838699100999073j)
    close(s.logabsdet, 3.372069275216125)
    sv = L.svdvals(C)
    assert sv.dtype == d
    close(sv, [5.349602228095931, 2.875527811324744, 1.8942269683036879])
    close(L.eigvalsh(C + C.mT.conj()), [3.3026467496106666, 5.142273651583418, 9.555079598805921])
    close(grad_of(lambda x: L.det(x).abs(), C)[0][0],
          [12.298373876248844 + 6.149186938124422j, -1.118033988749895 - 0.5590169943749475j,
           -0.3354101966249687 - 0.16770509831248434j])
    check_grads(lambda x: L.inv(x).abs(), C)
    check_grads(lambda x: L.slogdet(x).logabsdet, C)
    check_grads(lambda a, b: L.solve(a, b).real, C, t(B32).to(torch.complex128))
    check_grads(lambda x: L.cholesky(torch.matmul(x, x.mT.conj())).abs(), C)
    check_grads(lambda x: L.qr(x).R.abs(), C)
    check_grads(L.svdvals, C)
    check_grads(lambda x: L.matrix_exp(x).abs(), C * 0.3)
    check_grads(lambda x: L.pinv(x).abs(), (t(R43) * (1 - 0.5j)).to(torch.complex128))


def test_meta_tensors_give_shapes():
    m = torch.empty(2, 4, 3, device="meta")
    assert L.svd(m).U.shape == (2, 4, 4) and L.svd(m).U.is_meta
    assert L.qr(m).R.shape == (2, 3, 3)
    assert L.pinv(m).shape == (2, 3, 4)
    sq = torch.empty(5, 3, 3, device="meta")
    assert L.inv(sq).is_meta and L.det(sq).shape == (5,) and L.eigh(sq).eigenvalues.shape == (5, 3)
    assert L.solve(sq, torch.empty(3, device="meta")).shape == (5, 3)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")
def test_cuda_inputs_give_cuda_results_and_gradients():
    A = torch.tensor(A3, dtype=d, device="cuda", requires_grad=True)
    X = L.inv(A)
    assert X.is_cuda and node(X) == "LinalgInvExBackward0"
    close(X.cpu(), L.inv(t(A3)))
    (g,) = torch.autograd.grad(L.det(A), A)
    assert g.is_cuda
    close(g.cpu(), [[11.0, -1.0, -0.3], [-3.5, 7.9, -1.8], [-0.5, -1.85, 5.7]])
    r = L.eigh(A + A.mT)
    assert r.eigenvalues.is_cuda and r.eigenvectors.is_cuda
    assert L.svdvals(A).is_cuda and L.matrix_exp(A).is_cuda


# ------------------------------------------------------------------------------------ forward AD


FORWARD_AD = {
    "inv": (L.inv, [A3]),
    "solve": (L.solve, [A3, B32]),
    "solve_vector_right": (lambda a, b: L.solve(a, b, left=False), [A3, [[1., 0., 2.]]]),
    "det": (L.det, [A3]),
    "slogdet": (lambda x: L.slogdet(x).logabsdet, [A3]),
    "cholesky": (sym(lambda x: L.cholesky(x, upper=True)), [S3]),
    "qr": (L.qr, [R43]),
    "qr_wide": (L.qr, [B32]),
    "eigh": (sym(lambda x: (lambda r: (r.eigenvalues, r.eigenvectors ** 2))(L.eigh(x))), [S3]),
    "svd": (lambda x: (lambda r: (r.U ** 2, r.S, r.Vh ** 2))(L.svd(x, full_matrices=False)), [R43]),
    "pinv": (L.pinv, [R43]),
    "lstsq": (lambda a, b: L.lstsq(a, b, driver="gelsd")[:2], [R43, B42]),
    "matrix_exp": (L.matrix_exp, [[[0.2, 0.5], [-0.3, 0.1]]]),
    "solve_triangular": (lambda a, b: L.solve_triangular(a, b, upper=False, left=False), [A3, [[1., 0., 2.], [0.5, 1., -1.]]]),
}


@pytest.mark.parametrize("name", sorted(FORWARD_AD))
def test_forward_mode_ad(name):
    f, args = FORWARD_AD[name]
    xs = tuple(t(a, grad=True) for a in args)
    assert torch.autograd.gradcheck(f, xs, check_forward_ad=True)


def test_forward_ad_values():
    import leafgrad.autograd.forward_ad as fwAD

    with fwAD.dual_level():
        A = fwAD.make_dual(t(A3), t(W3))
        close(fwAD.unpack_dual(L.det(A)).tangent, 12.9)
        close(fwAD.unpack_dual(L.inv(A)).tangent[0], [-0.23049186550040546, 0.4156099580767042, -0.4168176250366614])
        s = fwAD.unpack_dual(torch.linalg.det(fwAD.make_dual(t([[1., 2.], [2., 4.]]), t([[1., 0.], [0., 1.]]))))
        assert s.tangent.item() == 0.0  # PyTorch's: det (= 0) times a perturbed solve


def test_out_arguments_and_ill_defined_complex_losses():
    A = torch.tensor([[2., 1.], [1., 3.]])
    o = torch.empty(0)
    assert L.inv(A, out=o) is o and o.tolist() == L.inv(A).tolist()
    q, r = torch.empty(0), torch.empty(0)
    res = L.qr(A, out=(q, r))
    assert type(res).__name__ == "linalg_qr_out" and res.Q is q and r.shape == (2, 2)
    res = L.eigh(A, out=(torch.empty(0), torch.empty(0)))
    assert type(res).__name__ == "linalg_eigh_out"
    close(res.eigenvalues, [1.381966, 3.618034], 1e-6)
    C = (t([[2., 1.], [0.3, 3.]]) * (1 + 0.5j)).requires_grad_()
    raises(RuntimeError, "svd_backward: The singular vectors in the complex case are specified up to multiplication "
           "by e^{i phi}. The specified loss function depends on this phase term, making it ill-defined.",
           lambda: torch.autograd.grad(L.svd(C).U.real.sum(), C))
    raises(RuntimeError, "linalg_eigh_backward: The eigenvectors in the complex case are specified up to "
           "multiplication by e^{i phi}. The specified loss function depends on this quantity, so it is ill-defined.",
           lambda: torch.autograd.grad(L.eigh(C + C.mT.conj()).eigenvectors.real.sum(), C))
