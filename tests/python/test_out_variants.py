"""`out=` of the declared float functions (torch.sin(x, out=y), torch.hypot(a, b, out=c), ...)
and of add/sub/mul/div: the result written into `out`, resized as PyTorch resizes it (with its
deprecation warning when `out` had elements), PyTorch's dtype and autograd errors. Recorded from
torch 2.15; with LEAFGRAD_TEST_TORCH=1 the same tests run against torch."""
import warnings

from support import raises_exactly as raises

import leafgrad as torch


RESIZED = (
    "An output with one or more elements was resized since it had shape {}, which does not match the required "
    "output shape {}. This behavior is deprecated, and in a future PyTorch release outputs will not be resized "
    "unless they have zero elements. You can explicitly reuse an out tensor t by resizing it, inplace, to zero "
    "elements with t.resize_(0). (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/Resize.cpp:30.)")


def test_declared_ops_write_into_out():
    o = torch.empty(3)
    r = torch.sin(torch.tensor([0., 1., 2.]), out=o)
    assert r is o and str(o) == "tensor([0.0000, 0.8415, 0.9093])"
    o = torch.empty(2, dtype=torch.float64)
    torch.exp(torch.tensor([0., 1.]), out=o)
    assert o.dtype == torch.float64 and str(o) == "tensor([1.0000, 2.7183], dtype=torch.float64)"
    o = torch.empty(2)
    torch.floor(torch.tensor([0.5, 1.5]), out=o)
    assert o.tolist() == [0., 1.]
    torch.hypot(torch.tensor([3., 5.]), torch.tensor([4., 12.]), out=o)
    assert o.tolist() == [5., 13.]
    torch.atan2(torch.tensor([1, 2]), torch.tensor([1, 1]), out=o)
    assert str(o) == "tensor([0.7854, 1.1071])"


def test_out_is_resized_with_pytorchs_warning():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        o = torch.empty(0)
        torch.exp(torch.tensor([0., 1.]), out=o)  # an empty out is resized silently
        assert o.shape == (2,) and w == []
        o = torch.empty(2)
        torch.sin(torch.tensor([0., 1., 2.]), out=o)
        assert o.shape == (3,)
        o2 = torch.empty(3)
        torch.add(torch.tensor([1., 2.]), 1, out=o2)
        assert o2.tolist() == [2., 3.]
    assert [str(m.message) for m in w] == [RESIZED.format([2], [3]), RESIZED.format([3], [2])]
    assert {m.filename for m in w} == {__file__}


def test_out_errors():
    raises(lambda: torch.exp(torch.tensor([0., 1.]), out=torch.empty(2, dtype=torch.int64)),
           "result type Float can't be cast to the desired output type Long")
    raises(lambda: torch.exp(torch.tensor([0., 1.], requires_grad=True), out=torch.empty(2)),
           "exp(): functions with out=... arguments don't support automatic differentiation, but one of the "
           "arguments requires grad.")
    with torch.no_grad():
        torch.exp(torch.tensor([0., 1.], requires_grad=True), out=torch.empty(2))


def test_out_write_under_allow_mutation_on_saved_tensors():
    with torch.autograd.graph.allow_mutation_on_saved_tensors():
        a = torch.tensor([1.0], requires_grad=True)
        b = torch.tensor([1.0])
        out = a * b
        torch.sin(torch.tensor([2.0]), out=b)  # b was saved by the product: it is cloned first
        out.backward()
    assert a.grad.tolist() == [1.0]
