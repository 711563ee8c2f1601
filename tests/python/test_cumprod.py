"""torch.cumprod / Tensor.cumprod: values, dtypes and PyTorch 2.15's gradient (exact at zeros,
and its second derivative there under create_graph), recorded from torch (these expectations
run against it with LEAFGRAD_TEST_TORCH=1)."""
import pytest

import leafgrad as torch

# input, cumprod, gradient for dL/dy = [1, 2, ...], d(sum of that gradient)/dx
CASES = [
    ([1., 2., 3., 4.], [1., 2., 6., 24.], [119., 59., 38., 24.], [121., 90., 65., 44.]),
    ([1., 0., 3., 4.], [1., 0., 0., 0.], [1., 59., 0., 0.], [59., 90., 19., 12.]),
    ([0., 2., 3., 4.], [0., 0., 0., 0.], [119., 0., 0., 0.], [121., 59., 38., 24.]),
    ([1., 0., 3., 0., 5.], [1., 0., 0., 0., 0.], [1., 11., 0., 0., 0.], [11., 101., 3., 87., 0.]),
    ([0., 0., 2.], [0., 0., 0.], [1., 0., 0.], [8., 8., 0.]),
]


@pytest.mark.parametrize("case", CASES, ids=[str(c[0]) for c in CASES])
def test_values_gradients_and_second_derivative(case):
    x0, y0, g0, gg0 = case
    x = torch.tensor(x0, dtype=torch.float64, requires_grad=True)
    y = torch.cumprod(x, 0)
    assert y.grad_fn.name() == "CumprodBackward0" and y.tolist() == y0
    gx, = torch.autograd.grad(y, x, torch.arange(1., len(x0) + 1, dtype=torch.float64), create_graph=True)
    assert gx.tolist() == pytest.approx(g0, rel=1e-12)
    gg, = torch.autograd.grad(gx.sum(), x)
    assert gg.tolist() == pytest.approx(gg0, rel=1e-12)
    x = torch.tensor(x0, dtype=torch.float64, requires_grad=True)
    (g1,) = torch.autograd.grad(torch.cumprod(x, 0), x, torch.arange(1., len(x0) + 1, dtype=torch.float64))
    assert g1.tolist() == pytest.approx(g0, rel=1e-12)  # the O(n) path without create_graph


def test_along_a_dim_and_gradcheck():
    x = torch.tensor([[1., 2., 0.], [3., 0., 4.]], requires_grad=True)
    y = x.cumprod(1)
    y.backward(torch.ones_like(y))
    assert y.tolist() == [[1., 2., 0.], [3., 0., 0.]] and x.grad.tolist() == [[3., 1., 2.], [1., 15., 0.]]
    x = torch.tensor([[1., 2., 0.], [3., 0., 4.]], requires_grad=True)
    x.cumprod(0).backward(torch.ones(2, 3))
    assert x.grad.tolist() == [[4., 1., 5.], [1., 2., 0.]]
    r = torch.tensor([[0.5, -1.2, 2.0], [1.5, 0.7, -0.3]], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda t: t.cumprod(1), (r,))
    assert torch.autograd.gradgradcheck(lambda t: t.cumprod(0), (r,))


def test_dtypes_and_errors():
    assert torch.cumprod(torch.tensor([1, 2, 3]), 0).tolist() == [1, 2, 6]
    assert torch.cumprod(torch.tensor([True, True]), 0).dtype == torch.int64
    assert torch.cumprod(torch.tensor([1, 2], dtype=torch.int32), 0, dtype=torch.float64).dtype == torch.float64
    assert torch.cumprod(torch.tensor(3.), 0).item() == 3.0
    h = torch.tensor([1.5, 2.], dtype=torch.float16).cumprod(-1)
    assert h.dtype == torch.float16 and h.tolist() == [1.5, 3.0]
    z = torch.tensor([1 + 1j, 2 - 1j, 0j, 3j], requires_grad=True)
    z.cumprod(0).abs().sum().backward()
    assert torch.allclose(z.grad, torch.tensor([2.2882 + 2.2882j, 1.2649 - 0.6325j, 0j, 0j]), atol=1e-4)
    with pytest.raises(IndexError, match=r"^Dimension out of range \(expected to be in range of \[-1, 0\], but got 1\)$"):
        torch.cumprod(torch.ones(2), 1)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA (or LEAFGRAD_CUDA_EMULATION=1)")
def test_cuda_matches_cpu():
    x = torch.tensor([[1., 0., 3.], [2., 2., 0.5]], requires_grad=True)
    xc = x.detach().cuda().requires_grad_()
    y, yc = x.cumprod(1), xc.cumprod(1)
    assert yc.device.type == "cuda" and yc.cpu().tolist() == y.tolist()
    y.sum().backward()
    yc.sum().backward()
    assert xc.grad.cpu().tolist() == x.grad.tolist()
