"""sort/argsort/msort, topk, kthvalue, median/nanmedian: values, which of several equal
elements each picks (PyTorch's CPU order, so gradients land where PyTorch puts them), NaN
handling, gradients, grad_fn names and error texts, recorded from torch 2.15. With
LEAFGRAD_TEST_TORCH=1 the same tests run against torch."""
import hashlib
import math
import random

import pytest

from support import grad_fn_name as name, raises_exactly as raises

import leafgrad as torch


NAN = float("nan")


def test_sort_values_indices_and_nan_last():
    x = torch.tensor([3., 1., 2., 1., NAN, 3., 0.])
    r = torch.sort(x)
    assert type(r).__name__ == "sort" and r.indices is r[1]
    assert str(r.values) == "tensor([0., 1., 1., 2., 3., 3., nan])"
    assert r.indices.tolist() == [6, 1, 3, 2, 0, 5, 4]
    d = x.sort(descending=True)
    assert str(d.values) == "tensor([nan, 3., 3., 2., 1., 1., 0.])"
    assert d.indices.tolist() == [4, 0, 5, 2, 1, 3, 6]
    assert torch.argsort(x).tolist() == [6, 1, 3, 2, 0, 5, 4]
    assert repr(torch.sort(torch.tensor([3., 1., 2.]))) == (
        "torch.return_types.sort(\nvalues=tensor([1., 2., 3.]),\nindices=tensor([1, 2, 0]))")


def test_sort_along_a_dim_and_msort():
    x = torch.tensor([[1., 2.], [3., 4.]])
    r = x.sort(0, True)
    assert r.values.tolist() == [[3., 4.], [1., 2.]] and r.indices.tolist() == [[1, 1], [0, 0]]
    assert torch.argsort(x, 0, True).tolist() == [[1, 1], [0, 0]]
    assert torch.tensor([3., 1., 2.]).argsort(descending=True).tolist() == [0, 2, 1]
    assert torch.msort(torch.tensor([[3, 1], [2, 4]])).tolist() == [[2, 1], [3, 4]]
    s = torch.sort(torch.tensor(5.))
    assert s.values.item() == 5. and s.indices.item() == 0 and s.indices.dim() == 0
    e = torch.sort(torch.zeros(0, 3), 0)
    assert e.values.shape == (0, 3) and e.indices.dtype == torch.int64
    b = torch.sort(torch.tensor([True, False, True]))
    assert b.values.tolist() == [False, True, True] and b.indices.tolist() == [1, 0, 2]


def test_unstable_sort_places_ties_as_pytorch():
    # more than 16 elements: introsort, which does not keep equal elements in order
    w = torch.tensor([1.] * 20 + [0.])
    assert w.sort().indices.tolist() == [20, 10, 19, 18, 17, 16, 15, 14, 13, 12, 11, 0, 9, 8, 7,
                                         6, 5, 4, 3, 2, 1]
    assert w.sort(descending=True).indices.tolist() == [1, 19, 18, 17, 16, 15, 14, 13, 12, 11,
                                                        10, 9, 8, 7, 6, 5, 4, 3, 2, 0, 20]
    assert torch.argsort(w, stable=True).tolist() == [20] + list(range(20))
    assert w.sort(stable=True, descending=True).indices.tolist() == list(range(20)) + [20]


def test_topk():
    y = torch.tensor([3., 1., 2., 1., 3., 0.])
    r = torch.topk(y, 3)
    assert type(r).__name__ == "topk"
    assert r.values.tolist() == [3., 3., 2.] and r.indices.tolist() == [0, 4, 2]
    s = torch.topk(y, 3, largest=False)
    assert s.values.tolist() == [0., 1., 1.] and s.indices.tolist() == [5, 3, 1]
    x = torch.tensor([3., 1., 2., 1., NAN, 3., 0.])
    assert torch.topk(x, 3).indices.tolist() == [4, 0, 5]  # NaN is the largest
    assert torch.topk(x, 3, largest=False).indices.tolist() == [6, 3, 1]
    assert torch.tensor([5, 3, 7]).topk(2).values.tolist() == [7, 5]
    assert torch.topk(torch.arange(10.), 0).values.shape == (0,)
    t = torch.topk(torch.tensor(5.), 1)
    assert t.values.item() == 5. and t.indices.item() == 0
    assert torch.tensor([3., 1., 2.]).topk(2, largest=False, sorted=True).indices.tolist() == [1, 2]


def test_kthvalue():
    y = torch.tensor([3., 1., 2., 1., 3., 0.])
    r = torch.kthvalue(y, 2)
    assert type(r).__name__ == "kthvalue" and r.values.item() == 1. and r.indices.item() == 3
    k = torch.tensor([3., 1., 2.]).kthvalue(2, keepdim=True)
    assert k.values.tolist() == [2.] and k.indices.tolist() == [2]
    assert torch.kthvalue(torch.tensor(3.), 1).indices.item() == 0
    assert torch.kthvalue(torch.tensor([1, 2], dtype=torch.float16), 1).values.item() == 1.


def test_median_and_nanmedian():
    y = torch.tensor([3., 1., 2., 1., 3., 0.])
    assert torch.median(y).item() == 1.  # the lower of the two middle values
    r = torch.median(y, 0)
    assert type(r).__name__ == "median" and r.values.item() == 1. and r.indices.item() == 3
    x = torch.tensor([3., 1., 2., 1., NAN, 3., 0.])
    assert math.isnan(torch.median(x).item())
    assert torch.nanmedian(x).item() == 1.
    n = torch.nanmedian(x, 0)
    assert type(n).__name__ == "nanmedian" and n.values.item() == 1. and n.indices.item() == 3
    m = torch.median(torch.tensor([1., NAN, 2., NAN]), 0)
    assert math.isnan(m.values.item()) and m.indices.item() == 1  # the first NaN
    rows = torch.nanmedian(torch.tensor([[NAN] * 5, [1., NAN, 2., 3., NAN]]), 1)
    assert str(rows.values) == "tensor([nan, 2.])" and rows.indices.tolist() == [2, 2]
    assert math.isnan(torch.median(torch.tensor([])).item())
    assert math.isnan(torch.nanmedian(torch.tensor([NAN] * 5)).item())
    i = torch.median(torch.tensor([2, 2, 1, 2]), 0)
    assert i.values.item() == 2 and i.indices.item() == 0
    assert torch.median(torch.tensor([[3., 1., 2.]]), 1, True).indices.tolist() == [[2]]
    assert torch.median(torch.zeros(0, 3), 1).values.shape == (0,)
    assert torch.median(torch.tensor(4.), 0).values.item() == 4.
    assert torch.median(torch.tensor([[1., 4., 2.], [3., 0., 5.]]), dim=1).indices.tolist() == [2, 0]


def _cases(seed, count):
    rnd = random.Random(seed)
    dts = [torch.float32, torch.float64, torch.int64, torch.int32, torch.uint8, torch.float16,
           torch.bfloat16]
    for _ in range(count):
        dt = rnd.choice(dts)
        n = rnd.choice([1, 2, 3, 5, 8, 16, 17, 20, 33, 64, 100, 200, 700])
        hi = rnd.choice([2, 3, 5, 50])
        vals = [float(rnd.randrange(hi)) for _ in range(n)]
        if dt.is_floating_point and rnd.random() < 0.3:
            for _ in range(rnd.randrange(1, 4)):
                vals[rnd.randrange(n)] = NAN
        x = torch.tensor(vals, dtype=torch.float64).to(dt)
        if rnd.random() < 0.5:
            x, d = torch.stack([x, x.flip(0)], 1), 0
        else:
            d = -1
        yield x, d, dt, rnd.randrange(0, n + 1), rnd.random() < 0.5


def test_tie_order_of_every_op_matches_pytorch():
    """Many small-range (tie-heavy) inputs of every dtype, with NaNs: which equal element each
    op picks. The digest of the indices was recorded from torch 2.15."""
    h = hashlib.sha256()
    for x, d, dt, k, desc in _cases(0, 300):
        out = [x.sort(d, desc).indices, x.sort(dim=d, descending=desc, stable=True).indices,
               x.topk(k, d, largest=desc).indices, x.topk(k, d, largest=desc, sorted=False).indices,
               x.median(d).indices]
        if k >= 1:
            out.append(x.kthvalue(k, d).indices)
        if dt.is_floating_point:
            out.append(x.nanmedian(d).indices)
        for t in out:
            h.update(repr(t.tolist()).encode())
    assert h.hexdigest() == "b39cc1d6b71aac45d18dcd774279739e2eb5578aff749d23ae0fe711ca337ed1"


def test_gradients_go_to_the_selected_elements():
    z = torch.tensor([[1., 5, 2], [4, 4, 0]], requires_grad=True)
    v, i = z.sort(1)
    assert name(v) == "SortBackward0" and i.tolist() == [[0, 2, 1], [2, 0, 1]]
    (v * torch.tensor([[1., 2, 3], [4, 5, 6]])).sum().backward()
    assert z.grad.tolist() == [[1., 3., 2.], [5., 6., 4.]]
    assert name(z.sort(stable=True).values) == "SortBackward1"
    assert name(torch.topk(z, 2).values) == "TopkBackward0"
    assert name(torch.kthvalue(z, 1, 1).values) == "KthvalueBackward0"
    assert name(torch.median(z)) == "MedianBackward0"
    assert name(torch.median(z, 1).values) == "MedianBackward1"
    assert name(torch.nanmedian(z)) == "NanmedianBackward0"
    assert name(torch.msort(z)) == "SortBackward0"
    assert torch.topk(z, 2).indices.grad_fn is None
    z.grad = None
    torch.topk(z, 1, dim=0, largest=False).values.sum().backward()
    assert z.grad.tolist() == [[1., 0., 0.], [0., 1., 1.]]
    m = torch.tensor([1., 2., 2., 3.], requires_grad=True)
    torch.median(m).backward()  # shared by the tied medians
    assert m.grad.tolist() == [0., .5, .5, 0.]
    m.grad = None
    torch.median(m, 0).values.backward()  # only to the one at the index
    assert m.grad.tolist() == [0., 1., 0., 0.]
    q = torch.tensor([[1., 5, 2], [4, 4, 0]], requires_grad=True)
    torch.nanmedian(q).backward()
    assert q.grad.tolist() == [[0., 0., 1.], [0., 0., 0.]]
    k = torch.tensor([4., 1., 3.], requires_grad=True)
    torch.kthvalue(k, 2).values.backward()
    assert k.grad.tolist() == [0., 0., 1.]


def test_saved_indices_and_higher_order():
    z = torch.tensor([3., 1., 2.], requires_grad=True)
    v = z.sort().values
    assert v.grad_fn._saved_indices.tolist() == [1, 2, 0]
    # double backward through the scatter of the gradient
    g, = torch.autograd.grad((v * v).sum(), z, create_graph=True)
    assert g.tolist() == [6., 2., 4.]
    g.sum().backward()
    assert z.grad.tolist() == [2., 2., 2.]


def test_gradcheck_and_forward_ad():
    x = torch.tensor([[0.3, -1.2, 2.5, 0.7], [1.1, 0.2, -0.4, 3.0]], dtype=torch.float64,
                     requires_grad=True)
    for f in (lambda t: t.sort(1).values, lambda t: t.topk(2).values,
              lambda t: t.kthvalue(2, 0).values, lambda t: t.median(1).values,
              lambda t: t.median(), lambda t: t.nanmedian(0).values, lambda t: torch.msort(t)):
        assert torch.autograd.gradcheck(f, (x,))
        assert torch.autograd.gradgradcheck(f, (x,))
    import leafgrad.autograd.forward_ad as fwAD

    t = torch.tensor([[1., 0, 0, 0], [0, 2, 0, 0]], dtype=torch.float64)
    with fwAD.dual_level():
        out = fwAD.unpack_dual(fwAD.make_dual(x.detach(), t).sort(1).values).tangent
    assert out.tolist() == [[0., 1., 0., 0.], [0., 2., 0., 0.]]


def test_errors():
    y = torch.tensor([1., 2.])
    raises(lambda: torch.topk(y, 3), "selected index k out of range")
    raises(lambda: torch.topk(y, -1), "selected index k out of range")
    raises(lambda: torch.topk(y, 1, dim=1),
           "Dimension out of range (expected to be in range of [-1, 0], but got 1)", IndexError)
    raises(lambda: torch.sort(y, dim=1),
           "Dimension out of range (expected to be in range of [-1, 0], but got 1)", IndexError)
    raises(lambda: torch.kthvalue(y, 0), "kthvalue(): selected number k out of range for dimension 0")
    raises(lambda: torch.kthvalue(torch.tensor(3.), 2),
           "kthvalue(): selected number k out of range for dimension 0")
    raises(lambda: torch.kthvalue(torch.tensor([]), 1),
           "kthvalue(): Expected reduction dim 0 to have non-zero size.", IndexError)
    raises(lambda: torch.median(torch.zeros(0, 3), 0),
           "median(): Expected reduction dim 0 to have non-zero size.", IndexError)
    raises(lambda: torch.sort(torch.tensor([1 + 1j])), " Sort does not support complex dtypes on CPU",
           TypeError)
    raises(lambda: torch.topk(torch.tensor([1 + 1j]), 1), " topk does not support complex dtypes on CPU",
           TypeError)
    raises(lambda: torch.topk(torch.tensor([True, False]), 1),
           "topk does not support bool dtypes on CPU", NotImplementedError)
    raises(lambda: torch.median(torch.tensor([True, False])),
           "\"median_cpu\" not implemented for 'Bool'", NotImplementedError)
    raises(lambda: torch.kthvalue(torch.tensor([1 + 1j]), 1),
           "\"kthvalue_cpu\" not implemented for 'ComplexFloat'", NotImplementedError)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")
def test_on_cuda_as_on_cpu():
    x = torch.tensor([[3., 1., 2., 1.], [0., 5., 5., 2.]], requires_grad=True)
    xc = x.detach().cuda().requires_grad_()
    for f in (lambda t: t.sort(1), lambda t: t.topk(2), lambda t: t.kthvalue(2),
              lambda t: t.median(1)):
        a, b = f(x), f(xc)
        assert b.values.device.type == "cuda" and b.indices.device.type == "cuda"
        assert a.values.tolist() == b.values.cpu().tolist()
        assert a.indices.tolist() == b.indices.cpu().tolist()
        a.values.sum().backward()
        b.values.sum().backward()
    assert x.grad.tolist() == xc.grad.cpu().tolist()


# ---------------------------------------------------------------- searchsorted, bucketize


def test_searchsorted_left_right_and_rows():
    s = torch.tensor([1., 3., 5., 7., 9.])
    v = torch.tensor([[3., 6., 9.], [3., 6., 9.]])
    assert torch.searchsorted(s, v).tolist() == [[1, 3, 4], [1, 3, 4]]
    assert torch.searchsorted(s, v, right=True).tolist() == [[2, 3, 5], [2, 3, 5]]
    assert torch.searchsorted(s, v, side="right").tolist() == [[2, 3, 5], [2, 3, 5]]
    r = torch.searchsorted(s, 5)
    assert r.dim() == 0 and r.item() == 2 and r.dtype == torch.int64
    assert torch.searchsorted(s, 5.5, out_int32=True).dtype == torch.int32
    # one row of the sequence per row of values
    rows = torch.searchsorted(torch.tensor([[1, 3, 5], [2, 4, 6]]), torch.tensor([[3, 6], [1, 6]]))
    assert rows.tolist() == [[1, 3], [0, 2]]
    # compared in the promoted dtype; NaN goes to the end
    assert torch.searchsorted(torch.tensor([1, 3, 5]), torch.tensor([2.5, 3.])).tolist() == [1, 1]
    nan = torch.searchsorted(torch.tensor([1., 3., NAN]), torch.tensor([2., NAN, 4.]))
    assert nan.tolist() == [1, 3, 3]
    assert torch.searchsorted(torch.tensor([5., 1., 3.]), torch.tensor([2., 4.]),
                              sorter=torch.tensor([1, 2, 0])).tolist() == [1, 2]
    assert torch.searchsorted(torch.tensor([]), torch.tensor([1.5])).tolist() == [0]
    g = torch.searchsorted(torch.tensor([1., 2.], requires_grad=True), torch.tensor([1.5], requires_grad=True))
    assert g.tolist() == [1] and not g.requires_grad
    assert torch.searchsorted(torch.tensor([1, 3], dtype=torch.int32), torch.tensor([2 ** 40])).tolist() == [2]


def test_bucketize():
    b = torch.tensor([1, 3, 5, 7, 9])
    x = torch.tensor([[3, 6, 9], [0, 1, 10]])
    assert torch.bucketize(x, b).tolist() == [[1, 3, 4], [0, 0, 5]]
    assert torch.bucketize(x, b, right=True).tolist() == [[2, 3, 5], [0, 1, 5]]
    assert torch.bucketize(3, b).item() == 1
    assert torch.bucketize(torch.tensor([3.]), b, out_int32=True).dtype == torch.int32


def test_searchsorted_errors_and_warnings():
    s = torch.tensor([1., 3.])
    raises(lambda: torch.searchsorted(s, s, side="left", right=True),
           "torch.searchsorted(): side and right can't be set to opposites, got side of left while right was True")
    raises(lambda: torch.searchsorted(s, s, side="middle"),
           "torch.searchsorted(): side can only be 'left' or 'right' but got middle")
    raises(lambda: torch.searchsorted(torch.tensor([[1, 3, 5], [2, 4, 6]]), torch.tensor([[3, 6, 1]])),
           "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of "
           "boundaries tensor and input value tensor must match, but we got boundaries tensor [2, 3] and "
           "input value tensor [1, 3]")
    raises(lambda: torch.searchsorted(torch.tensor([5., 1, 3]), s, sorter=torch.tensor([1, 2])),
           "torch.searchsorted(): boundary and sorter must have the same size, but got boundary tensor "
           "[3]and got sorter tensor [2]")
    raises(lambda: torch.searchsorted(torch.tensor(5.), s),
           "torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 dimension")
    raises(lambda: torch.searchsorted(torch.tensor([1 + 1j]), torch.tensor([1j])),
           "\"searchsorted_out_cpu\" not implemented for 'ComplexFloat'", NotImplementedError)
    raises(lambda: torch.bucketize(torch.tensor([3]), torch.tensor([[1, 3]])),
           "boundaries tensor must be 1 dimension, but got dim(2)")
    import warnings

    torch.set_warn_always(True)
    try:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            torch.searchsorted(s, torch.ones(2, 2)[:, 0])
        assert [str(x.message) for x in w] == [
            "torch.searchsorted(): input value tensor is non-contiguous, this will lower the performance due "
            "to extra data copy when converting non-contiguous tensor to contiguous, please use contiguous "
            "input value tensor if possible. This message will only appear once per program. (Triggered "
            "internally at /__w/pytorch/pytorch/aten/src/ATen/native/BucketizationUtils.h:32.)"]
        assert w[0].filename == __file__
    finally:
        torch.set_warn_always(False)


def test_atan2_integers_zero_gradient_and_alias():
    assert torch.atan2(torch.tensor([1, 2]), torch.tensor([3, 4])).dtype == torch.float32
    assert str(torch.atan2(torch.tensor([1, 2]), torch.tensor([3, 4]))) == "tensor([0.3218, 0.4636])"
    x = torch.tensor([0., 1., -2.], requires_grad=True)
    y = torch.tensor([0., 3., 0.5], requires_grad=True)
    z = torch.atan2(x, y)
    assert name(z) == "Atan2Backward0"
    z.sum().backward()
    # zero gradient at the origin, not NaN
    assert x.grad.tolist() == pytest.approx([0., 0.3, 0.11764705882352941])
    assert y.grad.tolist() == pytest.approx([0., -0.1, 0.47058823529411764])
    assert torch.arctan2(torch.tensor([1.]), torch.tensor([2.])).tolist() == pytest.approx([0.4636476])
    raises(lambda: torch.tensor([1, 2]).atan2_(torch.tensor([1., 2.])),
           "result type Float can't be cast to the desired output type Long")


# ---------------------------------------------------------------- unique


def test_unique_and_unique_consecutive():
    t = torch.tensor([3, 1, 2, 1, 3])
    assert torch.unique(t).tolist() == [1, 2, 3]
    assert torch.unique(t, sorted=False).tolist() == [1, 2, 3]
    v, inv, cnt = torch.unique(t, return_inverse=True, return_counts=True)
    assert v.tolist() == [1, 2, 3] and inv.tolist() == [2, 0, 1, 0, 2] and cnt.tolist() == [2, 1, 2]
    assert [r.tolist() for r in torch.unique(t, return_counts=True)] == [[1, 2, 3], [2, 1, 2]]
    y = torch.tensor([[1, 3], [2, 3], [1, 3]])
    assert torch.unique(y, dim=0).tolist() == [[1, 3], [2, 3]]
    v, inv, cnt = torch.unique(y, dim=1, return_inverse=True, return_counts=True)
    assert v.tolist() == [[1, 3], [2, 3], [1, 3]] and inv.tolist() == [0, 1] and cnt.tolist() == [1, 1]
    v, inv = torch.unique(y, return_inverse=True)
    assert v.tolist() == [1, 2, 3] and inv.tolist() == [[0, 2], [1, 2], [0, 2]]
    v, inv = torch.unique(torch.tensor([[2, 1], [1, 5], [2, 0]]), dim=0, return_inverse=True)
    assert v.tolist() == [[1, 5], [2, 0], [2, 1]] and inv.tolist() == [2, 0, 1]
    assert torch.tensor([2, 2, 1]).unique().tolist() == [1, 2]
    assert torch.unique(torch.tensor(5)).tolist() == [5]
    assert torch.unique(torch.tensor([True, False, True])).tolist() == [False, True]
    assert str(torch.unique(torch.tensor([1.5, -0., 0.]))) == "tensor([-0.0000, 1.5000])"
    assert torch.unique(torch.zeros(0, 3), dim=0, return_counts=True)[0].shape == (0, 3)
    c = torch.tensor([1, 1, 2, 2, 3, 1, 1, 2])
    assert torch.unique_consecutive(c).tolist() == [1, 2, 3, 1, 2]
    v, inv, cnt = torch.unique_consecutive(c, return_inverse=True, return_counts=True)
    assert inv.tolist() == [0, 0, 1, 1, 2, 3, 3, 4] and cnt.tolist() == [2, 2, 1, 2, 1]
    assert torch.unique_consecutive(y, dim=0).tolist() == [[1, 3], [2, 3], [1, 3]]
    raises(lambda: torch.unique(torch.tensor([[1, 2], [3, 4]]), dim=2),
           "Dimension out of range (expected to be in range of [-2, 1], but got 2)", IndexError)


def test_unique_values_require_grad_without_a_derivative():
    x = torch.tensor([3., 1., 2., 1., 3., NAN, NAN], requires_grad=True)
    u = torch.unique(x)
    assert str(u) == "tensor([1., 2., 3., nan, nan], grad_fn=<Unique2Backward0>)"
    raises(lambda: u.sum().backward(), "the derivative for '_unique2' is not implemented.", NotImplementedError)
    w = torch.tensor([[1., 2.], [1., 2.]], requires_grad=True)
    for f, node, op in ((lambda: torch.unique(w, dim=0), "UniqueDimBackward0", "unique_dim"),
                        (lambda: torch.unique_consecutive(w), "UniqueConsecutiveBackward0", "unique_consecutive")):
        r = f()
        assert name(r) == node
        raises(lambda: r.sum().backward(), f"the derivative for '{op}' is not implemented.", NotImplementedError)
    v, inv = torch.unique(x, return_inverse=True)
    assert not inv.requires_grad
