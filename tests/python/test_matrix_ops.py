"""tril/triu, diag, trace and roll: one node each with PyTorch's name and a derivative written
with ops (src/ops/matrix.rs). Expectations are PyTorch 2.15's (run against it with
LEAFGRAD_TEST_TORCH=1)."""
import math

import pytest

import leafgrad as torch


def test_triangles_select_rather_than_multiply():
    # NaN and inf outside the triangle become 0, as PyTorch's tril/triu do
    x = torch.tensor([[1.0, math.nan, math.inf], [2.0, 3.0, math.nan], [-math.inf, 4.0, 5.0]])
    assert torch.tril(x).tolist() == [[1.0, 0.0, 0.0], [2.0, 3.0, 0.0], [-math.inf, 4.0, 5.0]]
    up = torch.triu(x, 1)
    assert up[0, 0].item() == 0 and math.isinf(up[0, 2].item()) and up[2, 0].item() == 0
    # integer and bool tensors keep their dtype; a batch of matrices works on the last two dims
    assert torch.tril(torch.ones(2, 2, dtype=torch.int32)).dtype == torch.int32
    assert torch.triu(torch.ones(2, 2, 2, dtype=torch.bool), -1).tolist() == [[[True, True], [True, True]]] * 2
    with pytest.raises(RuntimeError, match="tril: input tensor must have at least 2 dimensions"):
        torch.tril(torch.ones(3))


def test_triangle_gradients_and_their_derivatives():
    x = torch.arange(9.0).reshape(3, 3).requires_grad_()
    y = x.tril(-1)
    assert type(y.grad_fn).__name__ == "TrilBackward0" and y.is_contiguous()
    w = torch.arange(9.0).reshape(3, 3).requires_grad_()
    (g,) = torch.autograd.grad((y * w).sum(), x, create_graph=True)
    assert g.tolist() == [[0.0, 0.0, 0.0], [3.0, 0.0, 0.0], [6.0, 7.0, 0.0]]
    # the formula is itself differentiable: d/dw of sum(g) is the mask again
    (gw,) = torch.autograd.grad(g.sum(), w)
    assert gw.tolist() == [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0]]


def test_diag_both_ways_with_offsets():
    v = torch.tensor([1.0, 2.0], requires_grad=True)
    m = torch.diag(v, 1)
    assert type(m.grad_fn).__name__ == "DiagEmbedBackward0"
    assert m.tolist() == [[0.0, 1.0, 0.0], [0.0, 0.0, 2.0], [0.0, 0.0, 0.0]]
    (m * torch.arange(9.0).reshape(3, 3)).sum().backward()
    assert v.grad.tolist() == [1.0, 5.0]
    a = torch.arange(12.0).reshape(3, 4).requires_grad_()
    d = torch.diag(a, -1)
    assert d.tolist() == [4.0, 9.0] and type(d.grad_fn).__name__ == "DiagonalBackward0_copy"
    d.sum().backward()
    assert a.grad.tolist() == [[0.0] * 4, [1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]]
    with pytest.raises(RuntimeError, match=r"diag\(\): Supports 1D or 2D tensors. Got 3D"):
        torch.diag(torch.ones(1, 1, 1))


def test_trace():
    a = torch.arange(6.0).reshape(2, 3).requires_grad_()
    t = torch.trace(a)
    assert t.item() == 4.0 and type(t.grad_fn).__name__ == "TraceBackward0"
    t.backward()
    assert a.grad.tolist() == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    assert torch.trace(torch.ones(2, 2, dtype=torch.int32)).dtype == torch.int64
    with pytest.raises(RuntimeError, match="trace: expected a matrix, but got tensor with dim 1"):
        torch.trace(torch.ones(3))


def test_roll():
    x = torch.arange(6.0).reshape(2, 3).requires_grad_()
    assert x.roll(1).tolist() == [[5.0, 0.0, 1.0], [2.0, 3.0, 4.0]]
    y = x.roll((1, -1), (0, 1))
    assert y.tolist() == [[4.0, 5.0, 3.0], [1.0, 2.0, 0.0]] and type(y.grad_fn).__name__ == "RollBackward0"
    (y * torch.arange(6.0).reshape(2, 3)).sum().backward()
    # the gradient rolls back
    assert x.grad.tolist() == [[5.0, 3.0, 4.0], [2.0, 0.0, 1.0]]
    with pytest.raises(RuntimeError, match="shifts and dimensions must align. shifts: 2, dims:0"):
        x.roll((1, 2))


def test_flip_keeps_the_layout_and_flips_the_gradient_back():
    x = torch.arange(6.0).reshape(2, 3).t().requires_grad_(False)
    y = torch.flip(x, [0])
    assert y.tolist() == [[2.0, 5.0], [1.0, 4.0], [0.0, 3.0]] and y.stride() == (1, 3)
    a = torch.arange(6.0).reshape(2, 3).requires_grad_()
    f = a.flip((0, 1))
    assert f.tolist() == [[5.0, 4.0, 3.0], [2.0, 1.0, 0.0]] and type(f.grad_fn).__name__ == "FlipBackward0"
    (f * torch.arange(6.0).reshape(2, 3)).sum().backward()
    assert a.grad.tolist() == [[5.0, 4.0, 3.0], [2.0, 1.0, 0.0]]
    assert torch.flip(torch.tensor(3.0), [0]).item() == 3.0


def test_complex_writes_the_parts_and_splits_the_gradient():
    z = torch.complex(torch.tensor([1.0]), torch.tensor([math.inf]))
    assert z.real.item() == 1.0 and z.imag.item() == math.inf
    re = torch.tensor([1.0, 2.0], requires_grad=True)
    im = torch.tensor([[3.0], [-1.0]], requires_grad=True)
    c = torch.complex(re, im)
    assert c.shape == (2, 2) and c.dtype == torch.complex64 and type(c.grad_fn).__name__ == "ComplexBackward0"
    (c * torch.tensor([1 + 2j, 3 - 1j])).real.sum().backward()
    # d Re((re + i im) w) = Re(w) d re - Im(w) d im
    assert re.grad.tolist() == [2.0, 6.0] and im.grad.tolist() == [[-1.0], [-1.0]]
    with pytest.raises(RuntimeError, match="Expected object of scalar type Float but got scalar type Double for second argument"):
        torch.complex(torch.ones(1), torch.ones(1, dtype=torch.float64))
    with pytest.raises(NotImplementedError, match="Expected both inputs to be Half, Float or Double tensors but got Long and Long"):
        torch.complex(torch.ones(1, dtype=torch.int64), torch.ones(1, dtype=torch.int64))
