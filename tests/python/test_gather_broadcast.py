"""take, take_along_dim, masked_select, masked_scatter, broadcast_shapes/broadcast_to/
broadcast_tensors, count_nonzero: values, gradients, node names (one node, as PyTorch records)
and error texts recorded from torch 2.15. With LEAFGRAD_TEST_TORCH=1 the same tests run against
torch."""
import pytest

from support import grad_fn_name as name, raises_exactly as raises

import leafgrad as torch


def test_masked_select():
    x = torch.arange(6.).view(2, 3).requires_grad_()
    m = torch.tensor([[True, False, True], [False, True, True]])
    r = x.masked_select(m)
    assert r.tolist() == [0., 2., 4., 5.] and name(r) == "MaskedSelectBackward0"
    assert type(r.grad_fn.next_functions[0][0]).__name__ == "AccumulateGrad"
    (r * torch.arange(1., 5)).sum().backward()
    assert x.grad.tolist() == [[1., 0., 2.], [0., 3., 4.]]
    x.grad = None
    # a broadcast mask: still one node
    r = torch.masked_select(x, torch.tensor([True, False, True]))
    assert r.tolist() == [0., 2., 3., 5.]
    assert type(r.grad_fn.next_functions[0][0]).__name__ == "AccumulateGrad"
    r.sum().backward()
    assert x.grad.tolist() == [[1., 0., 1.], [1., 0., 1.]]
    raises(lambda: x.masked_select(m.int()), "masked_select: expected BoolTensor for mask")
    raises(lambda: torch.masked_select(torch.ones(2), torch.ones(3, dtype=torch.bool)),
           "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0")


def test_masked_scatter():
    x = torch.arange(6.).view(2, 3).requires_grad_()
    m = torch.tensor([[True, False, True], [False, True, True]])
    s = torch.tensor([10., 20., 30., 40., 50.], requires_grad=True)
    o = x.masked_scatter(m, s)
    assert o.tolist() == [[10., 1., 20.], [3., 30., 40.]] and name(o) == "MaskedScatterBackward0"
    (o * torch.arange(1., 7).view(2, 3)).sum().backward()
    assert x.grad.tolist() == [[0., 2., 0.], [4., 0., 0.]]
    assert s.grad.tolist() == [1., 3., 5., 6., 0.]
    b = torch.zeros(2, 3).masked_scatter(torch.tensor([True, False, True]), torch.ones(2, 2))
    assert b.tolist() == [[1., 0., 1.], [1., 0., 1.]]
    y = torch.zeros(3)
    assert y.masked_scatter_(torch.tensor([False, True, True]), torch.tensor([7., 8.])) is y
    assert y.tolist() == [0., 7., 8.]
    raises(lambda: torch.zeros(2, 3).masked_scatter(m, torch.ones(3)),
           "Number of elements of source < number of ones in mask")
    raises(lambda: torch.zeros(2, 3).masked_scatter(m, torch.ones(5, dtype=torch.float64)),
           "masked_scatter: expected self and source to have same dtypes but gotFloat and Double")
    raises(lambda: torch.zeros(2, 3).masked_scatter(m.int(), torch.ones(5)),
           "masked_scatter_ only supports boolean masks, but got mask with dtype Int")
    a = torch.randn(2, 3, dtype=torch.float64, requires_grad=True)
    c = torch.randn(5, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda p, q: p.masked_scatter(m, q), (a, c))
    assert torch.autograd.gradgradcheck(lambda p, q: p.masked_scatter(m, q), (a, c))
    assert torch.autograd.gradgradcheck(lambda p: p.masked_select(m), (a,))


def test_take_and_take_along_dim():
    x = torch.arange(6.).view(2, 3).requires_grad_()
    t = torch.take(x, torch.tensor([[0, 5], [-1, 0]]))
    assert t.tolist() == [[0., 5.], [5., 0.]] and name(t) == "TakeBackward0"
    t.sum().backward()
    assert x.grad.tolist() == [[2., 0., 0.], [0., 0., 2.]]
    raises(lambda: torch.take(x, torch.tensor([6])), "out of range: tried to access index 6 on a tensor of 6 elements.",
           IndexError)
    raises(lambda: torch.take(x, torch.tensor([-7])),
           "out of range: tried to access index -7 on a tensor of 6 elements.", IndexError)
    raises(lambda: torch.take(x, torch.tensor([1.])), "take(): Expected a long tensor for index, but got Float")
    a = torch.take_along_dim(x, torch.tensor([[0], [2]]), dim=1)
    assert a.tolist() == [[0.], [5.]] and name(a) == "GatherBackward0"
    assert type(a.grad_fn.next_functions[0][0]).__name__ == "ExpandBackward0"
    assert torch.take_along_dim(x, torch.tensor([[0, 1]]), dim=1).tolist() == [[0., 1.], [3., 4.]]
    f = torch.take_along_dim(x, torch.tensor([3, 0]))
    assert f.tolist() == [3., 0.] and type(f.grad_fn.next_functions[0][0]).__name__ == "ViewBackward0"
    y = torch.tensor([[10., 30., 20.], [60., 40., 50.]])
    assert y.take_along_dim(torch.argsort(y, dim=1), dim=1).tolist() == [[10., 20., 30.], [40., 50., 60.]]
    assert torch.take_along_dim(y, y.argmax(dim=1, keepdim=True), dim=1).tolist() == [[30.], [60.]]
    raises(lambda: torch.take_along_dim(y, torch.tensor([0]), dim=0),
           "torch.take_along_dim(): input and indices should have the same number of dimensions, but got 2 "
           "dimensions for input, and 1 dimensions for indices")
    raises(lambda: torch.take_along_dim(y, torch.tensor([[0]], dtype=torch.int32), dim=0),
           "torch.take_along_dim(): dtype of indices should be Long but got Int")


def test_broadcast_helpers_and_count_nonzero():
    assert torch.broadcast_shapes((3, 1), (1, 4), (2, 1, 1)) == torch.Size([2, 3, 4])
    assert torch.broadcast_shapes() == torch.Size([])
    assert torch.broadcast_shapes(5, (2, 1)) == torch.Size([2, 5])
    raises(lambda: torch.broadcast_shapes((3,), (4,)),
           "Attempting to broadcast a dimension of length 4 at -1! Mismatching argument at index 1 had (4,); but "
           "expected shape should be broadcastable to [3]")
    x = torch.ones(3, 1, requires_grad=True)
    b = x.broadcast_to((2, 3, 4))
    assert b.shape == (2, 3, 4) and name(b) == "ExpandBackward0"
    assert name(torch.broadcast_to(x, (3, 2))) == "ExpandBackward0"
    a, c = torch.broadcast_tensors(torch.ones(3, 1), torch.ones(4))
    assert a.shape == (3, 4) and c.shape == (3, 4)
    assert isinstance(torch.broadcast_tensors(torch.ones(1), torch.ones(2)), tuple)
    t = torch.tensor([[0, 1, 2], [0, 0, 3]])
    assert torch.count_nonzero(t).item() == 3
    assert torch.count_nonzero(t, dim=1).tolist() == [2, 1]
    assert torch.tensor([[0., 1, 2], [0, 0, 3]]).count_nonzero((0, 1)).item() == 3
    n = torch.count_nonzero(torch.ones(2, requires_grad=True))
    assert n.dtype == torch.int64 and not n.requires_grad
    assert torch.autograd.is_multithreading_enabled() is True
    with torch.autograd.set_multithreading_enabled(False):
        assert torch.autograd.is_multithreading_enabled() is False
    assert torch.autograd.is_multithreading_enabled() is True


def test_gather_treats_zero_dim_tensors_as_one_element():
    # a 0-d input or index counts as 1-d (PyTorch's check); the result has the index's shape
    x = torch.tensor(5., requires_grad=True)
    out = torch.gather(x, 0, torch.zeros((), dtype=torch.int64))
    assert out.shape == () and out.item() == 5.
    out.backward()
    assert x.grad.item() == 1.
    y = torch.arange(10., requires_grad=True)
    assert torch.gather(y, 0, torch.tensor(3)).shape == ()
    assert torch.gather(x, 0, torch.tensor([0])).tolist() == [5.]
    with pytest.raises(RuntimeError, match="^index 1 is out of bounds for dimension 0 with size 1$"):
        torch.gather(x, 0, torch.tensor([1]))
