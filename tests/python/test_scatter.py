"""scatter (of a tensor or a number, with the older reduce=), scatter_add, scatter_reduce (every
reduction, with and without self) and their in-place forms: values, gradients, grad_fn names,
warnings and error texts recorded from torch 2.15. With LEAFGRAD_TEST_TORCH=1 the same tests
run against torch."""
import warnings

import pytest

from support import grad_fn_name as name, raises_exactly as raises

import leafgrad as torch


IDX = [[0, 1, 2, 0], [1, 2, 0, 0]]


def test_scatter_values():
    x = torch.zeros(3, 4)
    idx = torch.tensor(IDX)
    src = torch.arange(1., 13).view(3, 4)
    assert x.scatter(0, idx, src).tolist() == [[1., 0., 7., 8.], [5., 2., 0., 0.], [0., 6., 3., 0.]]
    assert x.scatter(1, idx, src).tolist() == [[4., 2., 3., 0.], [8., 5., 6., 0.], [0., 0., 0., 0.]]
    assert x.scatter(0, idx, 5.).tolist() == [[5., 0., 5., 5.], [5., 5., 0., 0.], [0., 5., 5., 0.]]
    assert torch.scatter(x, 0, idx, value=3.)[0].tolist() == [3., 0., 3., 3.]
    assert torch.scatter_add(x, 0, idx, src).tolist() == [[1., 0., 7., 12.], [5., 2., 0., 0.], [0., 6., 3., 0.]]
    # int32 indices; the last write wins; a number takes self's dtype
    assert torch.zeros(3).scatter_(0, torch.tensor([0, 0, 2], dtype=torch.int32),
                                   torch.tensor([1., 2., 3.])).tolist() == [2., 0., 3.]
    assert torch.zeros(2, dtype=torch.int64).scatter(0, torch.tensor([1]), 2.5).tolist() == [0, 2]
    one_hot = torch.zeros(2, 5, dtype=torch.long).scatter_(1, torch.tensor([[1], [3]]), 1)
    assert one_hot.tolist() == [[0, 1, 0, 0, 0], [0, 0, 0, 1, 0]]
    assert torch.zeros(()).scatter(0, torch.tensor(0), torch.tensor(2.)).item() == 2.


def test_scatter_legacy_reduce_warns_once_and_has_no_derivative():
    x = torch.zeros(3, 4)
    idx = torch.tensor(IDX)
    src = torch.arange(1., 13).view(3, 4)
    torch.set_warn_always(True)
    try:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            r = x.scatter(0, idx, src, reduce="add")
        assert [str(m.message) for m in w] == [
            "The reduce argument of torch.scatter with Tensor src is deprecated and will be removed in a "
            "future PyTorch release. Use torch.scatter_reduce instead for more reduction options. "
            "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorAdvancedIndexing.cpp:224.)"]
        assert w[0].filename == __file__
    finally:
        torch.set_warn_always(False)
    assert r.tolist() == [[1., 0., 7., 12.], [5., 2., 0., 0.], [0., 6., 3., 0.]]
    assert x.scatter(0, idx, 2., reduce="add").tolist() == [[2., 0., 2., 4.], [2., 2., 0., 0.], [0., 2., 2., 0.]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert torch.ones(3).scatter(0, torch.tensor([0, 0]), torch.tensor([2., 3.]),
                                     reduce="multiply").tolist() == [6., 1., 1.]
        a = torch.zeros(3, 4, requires_grad=True)
        o = a.scatter(0, idx, src[:2], reduce="multiply")
        assert o.grad_fn.name() == "torch::autograd::NotImplemented"
        raises(lambda: o.sum().backward(), "derivative for aten::scatter is not implemented")
    raises(lambda: x.scatter(0, idx, 2., reduce="max"), "reduce argument must be either add or multiply.")


def test_scatter_gradients():
    a = torch.zeros(3, 4, requires_grad=True)
    s = torch.arange(1., 9).view(2, 4).requires_grad_()
    w = torch.arange(12.).view(3, 4)
    idx = torch.tensor(IDX)
    o = a.scatter(0, idx, s)
    assert name(o) == "ScatterBackward0"
    assert o.grad_fn._saved_index.tolist() == IDX
    (o * w).sum().backward()
    assert a.grad.tolist() == [[0., 1., 0., 0.], [0., 0., 6., 7.], [8., 0., 0., 11.]]
    assert s.grad.tolist() == [[0., 5., 10., 3.], [4., 9., 2., 3.]]
    a.grad = None
    o = a.scatter(0, idx, 3.)
    assert name(o) == "ScatterBackward1"
    o.sum().backward()
    assert a.grad.tolist() == [[0., 1., 0., 0.], [0., 0., 1., 1.], [1., 0., 0., 1.]]
    a.grad = s.grad = None
    o = a.scatter_add(0, idx, s)
    assert name(o) == "ScatterAddBackward0"
    (o * w).sum().backward()
    assert a.grad.tolist() == w.tolist()
    assert s.grad.tolist() == [[0., 5., 10., 3.], [4., 9., 2., 3.]]
    b = a.clone()
    b.scatter_(0, idx, s)
    assert name(b) == "ScatterBackward0"
    b = a.clone()
    b.scatter_add_(0, idx, s)
    assert name(b) == "ScatterAddBackward0"
    x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    y = torch.randn(2, 4, dtype=torch.float64, requires_grad=True)
    # (positions written twice by scatter: PyTorch's gradient goes to both writers)
    distinct = torch.tensor([[0, 1, 2, 0], [1, 2, 0, 1]])
    for f in (lambda p, q: p.scatter(0, distinct, q), lambda p, q: p.scatter_add(1, idx, q)):
        assert torch.autograd.gradcheck(f, (x, y))
        assert torch.autograd.gradgradcheck(f, (x, y))


# recorded from torch 2.15: (result, grad of self, grad of src) of
# (b.scatter_reduce(0, IDX, s, reduce, include_self) * arange(1, 13).view(3, 4)).sum()
REDUCE = {
    ("sum", True): ([[6.0, 1.0, 1.0, 4.0], [6.0, 2.0, 2.0, 2.0], [0.0, 2.0, 6.0, 4.0]],
                    [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]],
                    [[1.0, 6.0, 11.0, 4.0], [5.0, 10.0, 3.0, 4.0]]),
    ("sum", False): ([[1.0, 1.0, 0.0, 4.0], [4.0, 0.0, 2.0, 2.0], [0.0, 2.0, 3.0, 4.0]],
                     [[0.0, 2.0, 0.0, 0.0], [0.0, 0.0, 7.0, 8.0], [9.0, 0.0, 0.0, 12.0]],
                     [[1.0, 6.0, 11.0, 4.0], [5.0, 10.0, 3.0, 4.0]]),
    ("prod", True): ([[5.0, 1.0, 0.0, 0.0], [8.0, 0.0, 2.0, 2.0], [0.0, 0.0, 9.0, 4.0]],
                     [[1.0, 2.0, 0.0, 16.0], [20.0, 0.0, 7.0, 8.0], [9.0, 20.0, 33.0, 12.0]],
                     [[5.0, 12.0, 33.0, 0.0], [10.0, 0.0, 3.0, 0.0]]),
    ("prod", False): ([[1.0, 1.0, 0.0, 4.0], [4.0, 0.0, 2.0, 2.0], [0.0, 2.0, 3.0, 4.0]],
                      [[0.0, 2.0, 0.0, 0.0], [0.0, 0.0, 7.0, 8.0], [9.0, 0.0, 0.0, 12.0]],
                      [[1.0, 6.0, 11.0, 8.0], [5.0, 10.0, 3.0, 8.0]]),
    ("mean", True): ([[3.0, 1.0, 0.5, 1.3333333730697632], [3.0, 1.0, 2.0, 2.0], [0.0, 1.0, 3.0, 4.0]],
                     [[0.5, 2.0, 1.5, 1.3333333730697632], [2.5, 3.0, 7.0, 8.0], [9.0, 5.0, 5.5, 12.0]],
                     [[0.5, 3.0, 5.5, 1.3333333730697632], [2.5, 5.0, 1.5, 1.3333333730697632]]),
    ("mean", False): ([[1.0, 1.0, 0.0, 2.0], [4.0, 0.0, 2.0, 2.0], [0.0, 2.0, 3.0, 4.0]],
                      [[0.0, 2.0, 0.0, 0.0], [0.0, 0.0, 7.0, 8.0], [9.0, 0.0, 0.0, 12.0]],
                      [[1.0, 6.0, 11.0, 2.0], [5.0, 10.0, 3.0, 2.0]]),
    ("amax", True): ([[5.0, 1.0, 1.0, 2.0], [4.0, 2.0, 2.0, 2.0], [0.0, 2.0, 3.0, 4.0]],
                     [[1.0, 2.0, 3.0, 0.0], [0.0, 6.0, 7.0, 8.0], [9.0, 0.0, 5.5, 12.0]],
                     [[0.0, 0.0, 5.5, 2.0], [5.0, 10.0, 0.0, 2.0]]),
    ("amax", False): ([[1.0, 1.0, 0.0, 2.0], [4.0, 0.0, 2.0, 2.0], [0.0, 2.0, 3.0, 4.0]],
                      [[0.0, 2.0, 0.0, 0.0], [0.0, 0.0, 7.0, 8.0], [9.0, 0.0, 0.0, 12.0]],
                      [[1.0, 6.0, 5.5, 2.0], [5.0, 10.0, 3.0, 2.0]]),
    ("amin", True): ([[1.0, 1.0, 0.0, 0.0], [2.0, 0.0, 2.0, 2.0], [0.0, 0.0, 3.0, 4.0]],
                     [[0.0, 2.0, 0.0, 4.0], [5.0, 0.0, 7.0, 8.0], [9.0, 10.0, 5.5, 12.0]],
                     [[1.0, 6.0, 5.5, 0.0], [0.0, 0.0, 3.0, 0.0]]),
    ("amin", False): ([[1.0, 1.0, 0.0, 2.0], [4.0, 0.0, 2.0, 2.0], [0.0, 2.0, 3.0, 4.0]],
                      [[0.0, 2.0, 0.0, 0.0], [0.0, 0.0, 7.0, 8.0], [9.0, 0.0, 0.0, 12.0]],
                      [[1.0, 6.0, 5.5, 2.0], [5.0, 10.0, 3.0, 2.0]]),
}


@pytest.mark.parametrize("reduce,include_self", list(REDUCE))
def test_scatter_reduce_values_and_gradients(reduce, include_self):
    s = torch.tensor([[1., 0., 3., 2.], [4., 2., 0., 2.]], requires_grad=True)
    b = torch.tensor([[5., 1., 1., 0.], [2., 2., 2., 2.], [0., 0., 3., 4.]], requires_grad=True)
    r = b.scatter_reduce(0, torch.tensor(IDX), s, reduce, include_self=include_self)
    assert name(r) == "ScatterReduceBackward0"
    (r * torch.arange(1., 13).view(3, 4)).sum().backward()
    want, gb, gs = REDUCE[(reduce, include_self)]
    assert r.tolist() == want
    assert b.grad.tolist() == gb
    assert s.grad.tolist() == gs


@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
def test_scatter_reduce_gradcheck(reduce):
    # distinct nonzero values: no ties, no zeros (where the rules are subgradients)
    x = (torch.arange(12, dtype=torch.float64).view(3, 4) * 0.37 + 0.5).requires_grad_()
    y = (torch.arange(8, dtype=torch.float64).view(2, 4) * -0.29 - 0.4).requires_grad_()
    idx = torch.tensor(IDX)
    for inc in (True, False):
        f = lambda p, q: p.scatter_reduce(0, idx, q, reduce, include_self=inc)  # noqa: E731
        assert torch.autograd.gradcheck(f, (x, y))
        assert torch.autograd.gradgradcheck(f, (x, y))


def test_scatter_reduce_integers_nan_and_in_place():
    t = torch.tensor([5, 7, 9])
    i = torch.tensor([0, 0, 2])
    assert t.scatter_reduce(0, i, torch.tensor([2, 2, 2]), "mean").tolist() == [3, 7, 5]
    assert t.scatter_reduce(0, i, torch.tensor([2, 2, 2]), "mean", include_self=False).tolist() == [2, 7, 2]
    # integer means round down
    assert torch.tensor([-5, 7, 9]).scatter_reduce(0, i, torch.tensor([2, 2, 2]), "mean").tolist() == [-1, 7, 5]
    r = torch.scatter_reduce(torch.zeros(3), 0, torch.tensor([0, 0]), torch.tensor([float("nan"), 1.]), "amax")
    assert str(r) == "tensor([nan, 0., 0.])"
    # "max"/"min" are accepted for amax/amin
    assert torch.zeros(3).scatter_reduce(0, torch.tensor([1]), torch.ones(1), "max").tolist() == [0., 1., 0.]
    x = torch.ones(3)
    assert x.scatter_reduce_(0, torch.tensor([2, 2]), torch.tensor([2., 3.]), "prod") is x
    assert x.tolist() == [1., 1., 6.]


def test_scatter_errors():
    x = torch.zeros(3, 4)
    idx = torch.tensor(IDX)
    src = torch.arange(1., 13).view(3, 4)
    raises(lambda: x.scatter(0, torch.tensor([[5]]), src), "index 5 is out of bounds for dimension 0 with size 3")
    raises(lambda: x.scatter(0, torch.tensor([[-1]]), src), "index -1 is out of bounds for dimension 0 with size 3")
    raises(lambda: x.scatter(0, torch.tensor([[0, 0, 0, 0, 0]]), src),
           "Expected index [1, 5] to be no larger than self [3, 4] apart from dimension 0 and to be no larger "
           "size than src [3, 4]")
    raises(lambda: x.scatter(0, torch.tensor([0]), src),
           "Index tensor must have the same number of dimensions as self tensor")
    raises(lambda: x.scatter(0, idx, src.double()), "scatter(): Expected self.dtype to be equal to src.dtype")
    raises(lambda: x.scatter(0, idx.float(), src), "scatter(): Expected dtype int32/int64 for index")
    raises(lambda: x.scatter(2, idx, src), "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
           IndexError)
    raises(lambda: x.scatter(0, idx, torch.zeros(2, 2)),
           "Expected index [2, 4] to be no larger than self [3, 4] apart from dimension 0 and to be no larger "
           "size than src [2, 2]")
    raises(lambda: x.scatter(0, idx, torch.zeros(2)),
           "Dimension out of range (expected to be in range of [-1, 0], but got 1)", IndexError)
    raises(lambda: x.scatter_reduce(0, idx, src, "median"),
           "reduce argument must be either sum, prod, mean, amax or amin, got median")


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")
def test_on_cuda_as_on_cpu():
    idx = torch.tensor(IDX)
    b = torch.tensor([[5., 1., 1., 0.], [2., 2., 2., 2.], [0., 0., 3., 4.]])
    s = torch.tensor([[1., 0., 3., 2.], [4., 2., 0., 2.]])
    for f in (lambda p, q, i: p.scatter(0, i, q), lambda p, q, i: p.scatter_add(0, i, q),
              lambda p, q, i: p.scatter_reduce(0, i, q, "amax"), lambda p, q, i: p.scatter(1, i, 2.)):
        want = f(b, s, idx)
        got = f(b.cuda(), s.cuda(), idx.cuda())
        assert got.device.type == "cuda" and got.cpu().tolist() == want.tolist()


def test_scatter_reduce_prod_double_backward_through_two_zeros_raises():
    x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
    src = torch.tensor([0., 0.], dtype=torch.float64, requires_grad=True)
    idx = torch.tensor([0, 0])
    assert torch.autograd.gradcheck(lambda a, b: a.scatter_reduce(0, idx, b, "prod"), (x, src))
    g, = torch.autograd.grad(x.scatter_reduce(0, idx, src, "prod").sum(), src, create_graph=True)
    assert g.tolist() == [0., 0.] and g.grad_fn.name() == "torch::autograd::Error"
    raises(lambda: g.sum().backward(),
           "scatter_reduce(): Double backward is unsupported for src when >1 zeros in src are scattered to "
           "the same position in self")
    # one zero per position: differentiable twice
    one = torch.tensor([0., 3.], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradgradcheck(lambda a, b: a.scatter_reduce(0, idx, b, "prod"), (x, one))


# ---------------------------------------------------------------- index_add/copy/fill/reduce


def test_index_ops_values():
    x = torch.ones(3, 4)
    i = torch.tensor([0, 2, 0])
    src = torch.arange(1., 13).view(3, 4)
    assert x.index_add(0, i, src).tolist() == [[11., 13., 15., 17.], [1.] * 4, [6., 7., 8., 9.]]
    assert x.index_add(0, i, src, alpha=2).tolist() == [[21., 25., 29., 33.], [1.] * 4, [11., 13., 15., 17.]]
    assert x.index_add(1, torch.tensor([3, 0, 3, 1]), src)[0].tolist() == [3., 5., 1., 5.]
    assert x.index_add(0, i.int(), src).sum().item() == 90.
    assert x.index_copy(0, torch.tensor([2, 0, 1]), src)[0].tolist() == [5., 6., 7., 8.]
    assert x.index_copy(0, i, src)[0].tolist() == [9., 10., 11., 12.]  # the last write wins
    assert x.index_fill(1, torch.tensor([0, 3]), -1.)[0].tolist() == [-1., 1., 1., -1.]
    assert x.index_fill(1, torch.tensor([0, 3]), torch.tensor(-2.))[1].tolist() == [-2., 1., 1., -2.]
    assert x.index_fill(0, torch.tensor([-1]), 7.)[2].tolist() == [7.] * 4
    with pytest.warns(UserWarning):
        torch.set_warn_always(True)
        try:
            assert x.index_reduce(0, i, src, "prod")[0].tolist() == [9., 20., 33., 48.]
        finally:
            torch.set_warn_always(False)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert x.index_reduce(0, i, src, "mean", include_self=False).tolist() == [[5., 6., 7., 8.], [1.] * 4,
                                                                                 [5., 6., 7., 8.]]
        assert x.index_reduce(0, i, src, "amax")[0].tolist() == [9., 10., 11., 12.]
        b = x.clone()
        b.index_add_(0, i, src)
        b.index_copy_(0, torch.tensor([1]), src[:1])
        b.index_fill_(0, torch.tensor([1]), 3)
        b.index_reduce_(0, i, src, "amin")
        assert b.tolist() == [[1., 2., 3., 4.], [3.] * 4, [5., 6., 7., 8.]]
    assert torch.index_add(x, 0, i, src).sum().item() == 90.
    assert torch.index_copy(x, 0, torch.tensor([2, 0, 1]), src).sum().item() == 78.
    assert torch.index_fill(x, 0, i, 0.).sum().item() == 4.


def test_index_ops_gradients():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # index_reduce's beta warning
        _index_ops_gradients()


def _index_ops_gradients():
    i = torch.tensor([0, 2, 0])
    a = torch.ones(3, 4, requires_grad=True)
    s = torch.arange(1., 13).view(3, 4).requires_grad_()
    w = torch.arange(12.).view(3, 4)
    want = {
        "IndexAddBackward0": ([[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]],
                              [[0.0, 2.0, 4.0, 6.0], [16.0, 18.0, 20.0, 22.0], [0.0, 2.0, 4.0, 6.0]]),
        "IndexCopyBackward0": ([[0.0] * 4] * 3, [[8.0, 9.0, 10.0, 11.0], [0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0]]),
        "IndexFillBackward0": ([[0.0, 1.0, 2.0, 0.0], [0.0, 5.0, 6.0, 0.0], [0.0, 9.0, 10.0, 0.0]], None),
        "prod": ([[0.0, 20.0, 66.0, 144.0], [4.0, 5.0, 6.0, 7.0], [40.0, 54.0, 70.0, 88.0]],
                 [[0.0, 10.0, 22.0, 36.0], [8.0, 9.0, 10.0, 11.0], [0.0, 2.0, 6.0, 12.0]]),
        "amax": ([[0.0] * 4, [4.0, 5.0, 6.0, 7.0], [0.0] * 4],
                 [[0.0] * 4, [8.0, 9.0, 10.0, 11.0], [0.0, 1.0, 2.0, 3.0]]),
    }
    for key, f in [("IndexAddBackward0", lambda: a.index_add(0, i, s, alpha=2.)),
                   ("IndexCopyBackward0", lambda: a.index_copy(0, torch.tensor([2, 0, 1]), s)),
                   ("IndexFillBackward0", lambda: a.index_fill(1, torch.tensor([0, 3]), -1.)),
                   ("prod", lambda: a.index_reduce(0, i, s, "prod")),
                   ("amax", lambda: a.index_reduce(0, i, s, "amax", include_self=False))]:
        a.grad = s.grad = None
        o = f()
        assert name(o) == (key if key.startswith("Index") else "IndexReduceBackward0")
        (o * w).sum().backward()
        ga, gs = want[key]
        assert a.grad.tolist() == ga
        assert (s.grad.tolist() if s.grad is not None else None) == gs
    v = torch.tensor(2., requires_grad=True)
    o = a.index_fill(1, torch.tensor([0, 3]), v)
    assert name(o) == "IndexFillBackward1"
    o.sum().backward()
    assert v.grad.item() == 6.
    x = (torch.arange(12, dtype=torch.float64).view(3, 4) * 0.37 + 0.5).requires_grad_()
    y = (torch.arange(12, dtype=torch.float64).view(3, 4) * -0.29 - 0.4).requires_grad_()
    for f in (lambda p, q: p.index_add(0, i, q, alpha=3.), lambda p, q: p.index_copy(0, torch.tensor([2, 0, 1]), q),
              lambda p, q: p.index_reduce(0, i, q, "mean"), lambda p, q: p.index_reduce(0, i, q, "prod"),
              lambda p, q: p.index_reduce(0, i, q, "amin", include_self=False)):
        assert torch.autograd.gradcheck(f, (x, y))
        assert torch.autograd.gradgradcheck(f, (x, y))


def test_index_ops_errors():
    x = torch.ones(3, 4)
    i = torch.tensor([0, 2, 0])
    src = torch.arange(1., 13).view(3, 4)
    raises(lambda: x.index_add(0, torch.tensor([5, 0, 0]), src), "index 5 is out of bounds for dimension 0 with size 3")
    raises(lambda: x.index_add(0, torch.tensor([-1, 0, 0]), src), "index -1 is out of bounds for dimension 0 with size 3")
    raises(lambda: x.index_add(0, torch.tensor([[0]]), src),
           "index_add_(): Index is supposed to be a vector, but got dim: 2 with type: Long and size: [1, 1]", IndexError)
    raises(lambda: x.index_add(0, torch.tensor([0, 1]), src),
           "index_add_(): Number of indices (2) should be equal to source.size(dim): (3), for dim: 0")
    raises(lambda: x.index_add(0, i.float(), src), "index_add_(): Expected dtype int32/int64 for index but got: Float")
    raises(lambda: x.index_add(0, i, src.double()),
           "index_add_(): self (Float) and source (Double) must have the same scalar type")
    raises(lambda: x.index_copy(0, torch.tensor([5, 0, 0]), src),
           "index_copy_(): index 5 is out of bounds for dimension 0 with size 3", IndexError)
    raises(lambda: x.index_fill(0, torch.tensor([5]), 1.), "index 5 is out of bounds for dimension 0 with size 3",
           IndexError)
    raises(lambda: x.index_reduce(0, i, src, "sum"),
           "index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got sum.")
