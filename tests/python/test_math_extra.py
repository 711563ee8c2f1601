"""logspace, kron, tensordot, cross / linalg.cross, diag_embed, cdist, aminmax, bincount, histc,
histogram and torch.linalg's norms and products: values, nodes and gradients as PyTorch 2.15
gives them (these expectations run against it with LEAFGRAD_TEST_TORCH=1)."""
import math
import warnings

import pytest

import leafgrad as torch

A = [[1., -2., 0.5], [3., 4., -1.]]
B = [[0.5, 1.], [-1., 2.], [3., -0.5]]


def leaves():
    return torch.tensor(A, requires_grad=True), torch.tensor(B, requires_grad=True)


def test_logspace_is_pytorchs_kernel():
    assert torch.logspace(-5, 5, 37)[17:20].tolist() == [0.5274997353553772, 1.0, 1.8957356214523315]
    assert torch.logspace(0.1, 3.7, 11, dtype=torch.float64)[3].item() == 15.135612484362087
    assert torch.logspace(0.1, 3.7, 11)[2].item() == 6.606935024261475
    assert torch.logspace(0, 3, 4, base=2).tolist() == [1.0, 2.0, 4.0, 8.0]
    assert torch.logspace(0, 3, 4, dtype=torch.int64).tolist() == [1, 10, 100, 1000]
    assert torch.logspace(0.5, 3.7, 4, dtype=torch.int64).tolist() == [1, 10, 100, 1000]
    assert torch.logspace(0, 1, 0).shape == (0,) and torch.logspace(2, 5, 1).tolist() == [100.0]


def test_kron_and_tensordot():
    a, b = leaves()
    k = torch.kron(a, b)
    assert k.grad_fn.name() == "UnsafeViewBackward0" and k.shape == (6, 6)
    assert k[1].tolist() == [-1.0, 2.0, 2.0, -4.0, -0.5, 1.0]
    ga, gb = torch.autograd.grad((k * torch.arange(36.).reshape(6, 6)).sum(), (a, b))
    assert ga.tolist() == [[38.5, 48.5, 58.5], [128.5, 138.5, 148.5]]
    assert gb.tolist() == [[110.0, 115.5], [143.0, 148.5], [176.0, 181.5]]
    assert torch.kron(torch.tensor([1, 2]), torch.tensor([3, 4])).tolist() == [3, 4, 6, 8]
    t = torch.tensordot(a, b, dims=1)
    assert t.grad_fn.name() == "ViewBackward0" and t.tolist() == [[4.0, -3.25], [-5.5, 11.5]]
    ga, gb = torch.autograd.grad(t.sum(), (a, b))
    assert ga.tolist() == [[1.5, 1.0, 2.5], [1.5, 1.0, 2.5]] and gb.tolist() == [[4.0, 4.0], [2.0, 2.0], [-0.5, -0.5]]
    assert torch.tensordot(a, b, dims=([0, 1], [1, 0])).item() == 15.5
    with pytest.raises(RuntimeError, match="contracted dimensions need to match"):
        torch.tensordot(a, b, dims=([0], [0]))


def test_cross_and_diag_embed():
    v = torch.tensor([[1., 2., 3.], [-1., 0.5, 2.]], requires_grad=True)
    w = torch.tensor([[0., 1., -1.], [2., 2., 2.]])
    c = torch.linalg.cross(v, w)
    assert c.grad_fn.name() == "LinalgCrossBackward0" and c.tolist() == [[-5.0, 1.0, 1.0], [-3.0, 6.0, -3.0]]
    (g,) = torch.autograd.grad((c * torch.tensor([1., 2., 3.])).sum(), v)
    assert g.tolist() == [[5.0, -1.0, -1.0], [2.0, -4.0, 2.0]]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert torch.cross(v, w).tolist() == c.tolist()
    assert any("without specifying the dim arg is deprecated" in str(x.message) for x in caught)
    assert v.cross(w, dim=1).tolist() == c.tolist()
    d = torch.diag_embed(v, offset=1)
    assert d.grad_fn.name() == "DiagEmbedBackward0" and d.shape == (2, 4, 4)
    assert d[1].tolist() == [[0.0, -1.0, 0.0, 0.0], [0.0, 0.0, 0.5, 0.0], [0.0, 0.0, 0.0, 2.0], [0.0, 0.0, 0.0, 0.0]]
    (g,) = torch.autograd.grad((d * d).sum(), v)
    assert g.tolist() == [[2.0, 4.0, 6.0], [-2.0, 1.0, 4.0]]
    assert torch.diag_embed(v, -1, 0, 2).shape == (4, 2, 4)


CDIST = {
    2.0: ([[0.0, 2.2360680103302], [5.0, 2.8284270763397217], [1.4142135381698608, 1.0]],
          [[-0.4472135901451111, -0.8944271802902222], [1.3071067333221436, 1.5071067810058594],
           [0.7071067690849304, -0.2928932309150696]],
          [[-1.3071067333221436, -1.5071067810058594], [-0.25989317893981934, 1.1873204708099365]]),
    1.0: ([[0.0, 3.0], [7.0, 4.0], [2.0, 1.0]], [[-1.0, -1.0], [2.0, 2.0], [1.0, 0.0]], [[-2.0, -2.0], [0.0, 1.0]]),
    0.0: ([[0.0, 2.0], [2.0, 2.0], [2.0, 1.0]], [[0.0, 0.0]] * 3, [[0.0, 0.0]] * 2),
    math.inf: ([[0.0, 2.0], [4.0, 2.0], [1.0, 1.0]], [[0.0, -1.0], [1.0, 2.0], [1.0, 0.0]], [[-1.0, -2.0], [-1.0, 1.0]]),
}


@pytest.mark.parametrize("p", sorted(CDIST))
def test_cdist(p):
    x1 = torch.tensor([[0., 0.], [3., 4.], [1., 1.]], requires_grad=True)
    x2 = torch.tensor([[0., 0.], [1., 2.]], requires_grad=True)
    r = torch.cdist(x1, x2, p=p)
    assert r.grad_fn.name() == "CdistBackward0"
    g1, g2 = torch.autograd.grad(r.sum(), (x1, x2))
    values, grad1, grad2 = CDIST[p]
    for got, want in ((r, values), (g1, grad1), (g2, grad2)):
        assert torch.allclose(got, torch.tensor(want), rtol=1e-6, atol=0)


def test_cdist_matrix_product_path_and_batches():
    big = torch.arange(60.).reshape(30, 2).div(10).requires_grad_()
    r = torch.cdist(big, torch.tensor([[0., 0.], [1., 2.]]))
    assert r.grad_fn.name() == "ViewBackward0" and r[3].tolist() == pytest.approx([0.9219544529914856, 1.3601469993591309], rel=1e-5)
    assert torch.cdist(torch.ones(2, 3, 4), torch.ones(1, 5, 4)).shape == (2, 3, 5)
    with pytest.raises(RuntimeError, match="^cdist only supports at least 2D tensors, X1 got: 1D$"):
        torch.cdist(torch.ones(3), torch.ones(3, 3))


def test_aminmax_bincount_histc_histogram():
    x = torch.tensor([[1., 5.], [-2., 3.]])
    r = torch.aminmax(x)
    assert r.min.item() == -2.0 and r.max.item() == 5.0
    assert repr(torch.aminmax(x, dim=0, keepdim=True)) == (
        "torch.return_types.aminmax(\nmin=tensor([[-2.,  3.]]),\nmax=tensor([[1., 5.]]))")
    assert torch.bincount(torch.tensor([0, 2, 2, 5])).tolist() == [1, 0, 2, 0, 0, 1]
    wb = torch.bincount(torch.tensor([0, 2]), weights=torch.tensor([0.5, 1.5]))
    assert wb.dtype == torch.float32 and wb.tolist() == [0.5, 0.0, 1.5]
    assert torch.bincount(torch.tensor([1]), minlength=4).tolist() == [0, 1, 0, 0]
    assert torch.bincount(torch.tensor([], dtype=torch.int64)).tolist() == []
    with pytest.raises(RuntimeError, match="non-negative"):
        torch.bincount(torch.tensor([-1]))
    with pytest.raises(NotImplementedError, match="^\"bincount_cpu\" not implemented for 'Float'$"):
        torch.bincount(torch.tensor([1.]))
    assert torch.histc(torch.tensor([1., 2., 1.]), bins=4, min=0, max=3).tolist() == [0.0, 2.0, 1.0, 0.0]
    assert torch.histc(torch.tensor([0.1, 0.5, 0.9, 0.33, 2.0]), bins=3).tolist() == [3.0, 1.0, 1.0]
    h = torch.histogram(torch.tensor([1., 2., 1.]), bins=4, range=(0., 3.))
    assert h.hist.tolist() == [0.0, 2.0, 1.0, 0.0] and h.bin_edges.tolist() == [0.0, 0.75, 1.5, 2.25, 3.0]
    d = torch.histogram(torch.tensor([0.1, 0.5, 0.9, 0.33]), bins=3, density=True)
    assert d.hist.tolist() == pytest.approx([1.875, 0.9375, 0.9375], rel=1e-6)
    e = torch.histogram(torch.tensor([1., 2., 3.]), torch.tensor([0., 1.5, 3.]), weight=torch.tensor([1., 2., 3.]))
    assert e.hist.tolist() == [1.0, 5.0]


def test_linalg_norms():
    m = torch.tensor([[1., -2.], [3., 4.]], requires_grad=True)
    cases = {None: (5.477225575051661, "LinalgVectorNormBackward0"), "fro": (5.477225575051661, "LinalgVectorNormBackward0"),
             1: (6.0, "AmaxBackward0"), -1: (4.0, "AminBackward0"), math.inf: (7.0, "AmaxBackward0"),
             -math.inf: (3.0, "AminBackward0")}
    for ord, (value, node) in cases.items():
        r = torch.linalg.norm(m) if ord is None else torch.linalg.norm(m, ord=ord)
        assert r.item() == pytest.approx(value) and r.grad_fn.name() == node
    (g,) = torch.autograd.grad(torch.linalg.matrix_norm(m, ord=1), m)
    assert g.tolist() == [[0.0, -1.0], [0.0, 1.0]]
    assert torch.linalg.vector_norm(m, ord=1, dim=1).tolist() == [3.0, 7.0]
    assert torch.linalg.norm(m, dim=(0, 1), ord=1, keepdim=True).shape == (1, 1)
    assert torch.linalg.matrix_norm(torch.ones(3, 2, 2), ord=-1).shape == (3,)
    with pytest.raises(RuntimeError, match="^linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got 3D.$"):
        torch.linalg.norm(torch.ones(2, 2, 2), ord=1)


def test_linalg_products():
    m = torch.tensor([[1., -2.], [3., 4.]])
    assert torch.linalg.vecdot(m, m).tolist() == [5.0, 25.0]
    r = torch.linalg.multi_dot([torch.ones(2), torch.eye(2), m, torch.ones(2)])
    assert r.item() == 6.0 and r.shape == ()
    assert torch.linalg.multi_dot([torch.ones(3, 2), torch.ones(2, 5), torch.ones(5, 1)]).shape == (3, 1)
    assert torch.linalg.diagonal(m).tolist() == [1.0, 4.0]
    assert torch.linalg.matmul(torch.eye(2), m).tolist() == m.tolist()


def test_vector_norm_gradient_is_pytorchs_at_zeros_nans_and_in_the_last_bit():
    nan, inf = float("nan"), float("inf")

    def grad(p, vals, dtype=torch.float64):
        x = torch.tensor(vals, dtype=dtype, requires_grad=True)
        torch.linalg.vector_norm(x, p).backward()
        return x.grad

    assert grad(0, [1.0, 0.0, inf]) is None  # no gradient at all, as PyTorch
    assert grad(0.5, [1.0, 0.0, 2.0]).tolist() == pytest.approx([2.414213562373095, 0.0, 1.7071067811865475])
    assert grad(1, [1.0, 0.0, nan]).tolist() == [1.0, 0.0, 0.0]
    assert grad(2, [0.0, 0.0, 0.0]).tolist() == [0.0, 0.0, 0.0]
    assert grad(inf, [1.0, nan, 3.0]).tolist() == [0.0, 0.0, 0.0]
    assert grad(inf, [3.0, -3.0, 1.0]).tolist() == [0.5, -0.5, 0.0]
    assert grad(1.5, [0.0, 0.0]).tolist() == [0.0, 0.0]
    # PyTorch's operation order (values recorded from PyTorch 2.15)
    assert grad(3.3, [0.3, -1.7, 2.2, 0.0]).tolist() == [
        0.007977557527517727, -0.4310459589692657, 0.7799436466219164, 0.0]
    assert grad(1.3, [0.3, -1.7, 2.2, 0.0]).tolist() == [
        0.48089095985795494, -0.8091795768973452, 0.8742528178768323, 0.0]
    assert grad(0.5, [0.3, -1.7, 2.2, 0.0]).tolist() == [
        6.088488944392937, -2.557676943197445, 2.2483235459295305, 0.0]
    # the second derivative of the 2-norm at a zero entry is 1/‖x‖, not 0
    x = torch.tensor([0.0, 3.0, 4.0], dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(torch.linalg.vector_norm(x), x, create_graph=True)
    assert torch.autograd.grad(g.sum(), x)[0].tolist() == [0.2, 0.032, -0.02400000000000002]
    assert torch.autograd.gradgradcheck(lambda t: torch.linalg.vector_norm(t, 3.0), (x,))


def test_tensor_norm_with_dtype_computes_in_it():
    h = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float16, requires_grad=True)
    y = h.norm(dtype=torch.float32)
    assert y.dtype == torch.float32 and y.grad_fn.name() == "LinalgVectorNormBackward0"
    y.backward()
    assert h.grad.dtype == torch.float16
    assert h.grad.tolist() == [0.267333984375, 0.53466796875, 0.8017578125]
    m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.bfloat16).norm(dim=1, dtype=torch.float64)
    assert m.dtype == torch.float64 and m.tolist() == [2.23606797749979, 5.0]
    assert torch.norm(torch.tensor([3.0, 4.0], dtype=torch.float16), dtype=torch.float32).dtype == torch.float32
