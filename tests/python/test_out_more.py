"""`out=` beyond the declared float ops: the factories (`torch.rand(2, 2, out=c)` fills `c` and
returns it), the reductions, products, joins, selections and the other functions that compute in
Python, each with PyTorch's rules (its resize warning or none, its dtype errors word for word,
its autograd refusal naming PyTorch's kernel); and the names the tutorials met missing:
`histogram`'s default bins, the bitwise functions, methods and shift operators, the top-level
in-place functions (`torch.sin_`), `set_default_device`/`get_default_device` and
`torch.accelerator`. Recorded from torch 2.15; with LEAFGRAD_TEST_TORCH=1 the same tests run
against torch."""
import warnings

import pytest
from support import raises_exactly as raises

import leafgrad as torch

RESIZED = (
    "An output with one or more elements was resized since it had shape {}, which does not match the required "
    "output shape {}. This behavior is deprecated, and in a future PyTorch release outputs will not be resized "
    "unless they have zero elements. You can explicitly reuse an out tensor t by resizing it, inplace, to zero "
    "elements with t.resize_(0). (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/Resize.cpp:30.)")
NO_AUTOGRAD = ("{}(): functions with out=... arguments don't support automatic differentiation, but one of the "
               "arguments requires grad.")


def recorded(fn):
    """`fn()` and the warnings it gave (message, file)."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = fn()
    return r, [(str(m.message), m.filename) for m in w]


def gen():
    return torch.Generator().manual_seed(0)


# ------------------------------------------------------------------------------------------------
# Factories


def test_factories_fill_out_and_return_it():
    c = torch.zeros(2, 2)
    r = torch.rand(2, 2, out=c, generator=gen())
    assert r is c and str(c) == "tensor([[0.4963, 0.7682],\n        [0.0885, 0.1320]])"
    for make, printed in [
        (lambda o: torch.zeros(2, out=o), "tensor([0., 0.])"),
        (lambda o: torch.ones(2, 1, out=o), "tensor([[1.],\n        [1.]])"),
        (lambda o: torch.full((3,), 2.5, out=o), "tensor([2.5000, 2.5000, 2.5000])"),
        (lambda o: torch.arange(5, out=o), "tensor([0., 1., 2., 3., 4.])"),
        (lambda o: torch.linspace(0, 1, 5, out=o), "tensor([0.0000, 0.2500, 0.5000, 0.7500, 1.0000])"),
        (lambda o: torch.logspace(0, 2, 3, out=o), "tensor([  1.,  10., 100.])"),
        (lambda o: torch.eye(2, out=o), "tensor([[1., 0.],\n        [0., 1.]])"),
    ]:
        o = torch.empty(0)
        assert make(o) is o and str(o) == printed


def test_random_factories_draw_what_the_outless_call_draws():
    o = torch.empty(0, dtype=torch.float64)
    assert torch.randn(3, generator=gen(), out=o) is o
    assert str(o) == "tensor([ 1.5410, -0.2934, -2.1788], dtype=torch.float64)"
    assert torch.equal(torch.randn(20, generator=gen(), out=torch.empty(3)), torch.randn(20, generator=gen()))
    o = torch.empty(4, dtype=torch.int64)
    assert torch.randint(0, 10, (4,), generator=gen(), out=o) is o and o.tolist() == [4, 9, 3, 0]
    assert torch.randint(0, 10, (4,), generator=gen(), out=torch.empty(0)).tolist() == [4., 9., 3., 0.]
    assert torch.randint(10, (4,), generator=gen(), out=torch.empty(0, dtype=torch.int64)).tolist() == [4, 9, 3, 0]
    assert torch.randperm(5, generator=gen(), out=torch.empty(0, dtype=torch.int64)).tolist() == [4, 0, 1, 3, 2]
    assert torch.normal(0., 1., (3,), generator=gen(), out=torch.empty(0)).tolist() == \
        torch.normal(0., 1., (3,), generator=gen()).tolist()
    # the default generator moves on as after the out-less call
    torch.manual_seed(0)
    first = torch.rand(3, out=torch.empty(0))
    second = torch.rand(2)
    torch.manual_seed(0)
    assert torch.equal(torch.rand(3), first) and torch.equal(torch.rand(2), second)
    # complex and half outs: drawn as with dtype=
    assert torch.equal(torch.rand(2, generator=gen(), out=torch.empty(0, dtype=torch.complex64)),
                       torch.rand(2, generator=gen(), dtype=torch.complex64))


def test_factories_take_outs_dtype():
    assert str(torch.zeros(2, out=torch.empty(2, dtype=torch.int64))) == "tensor([0, 0])"
    assert str(torch.ones(2, out=torch.empty(2, dtype=torch.bool))) == "tensor([True, True])"
    assert str(torch.full((2,), 1.5, out=torch.empty(0, dtype=torch.int64))) == "tensor([1, 1])"
    assert str(torch.arange(5, out=torch.empty(0))) == "tensor([0., 1., 2., 3., 4.])"
    assert str(torch.arange(0, 2.5, 0.5, out=torch.empty(0, dtype=torch.int64))) == "tensor([0, 0, 0, 0, 0])"
    assert str(torch.linspace(0, 10, 5, out=torch.empty(0, dtype=torch.int64))) == "tensor([ 0,  2,  5,  7, 10])"
    assert str(torch.logspace(0, 2, 3, out=torch.empty(0, dtype=torch.int64))) == "tensor([  1,  10, 100])"
    assert str(torch.eye(2, 3, out=torch.empty(0, dtype=torch.bool))) == \
        "tensor([[ True, False, False],\n        [False,  True, False]])"
    assert torch.rand(2, out=torch.empty(0, dtype=torch.float64)).dtype == torch.float64


def test_factory_out_errors():
    raises(lambda: torch.zeros(2, dtype=torch.float64, out=torch.empty(2)),
           "dtype Double does not match dtype of out parameter (Float)")
    raises(lambda: torch.arange(5, dtype=torch.int64, out=torch.empty(5)),
           "dtype Long does not match dtype of out parameter (Float)")
    raises(lambda: torch.rand(2, device="meta", out=torch.empty(2)),
           "device type meta does not match device type of out parameter (cpu)")
    raises(lambda: torch.zeros(2, out=3), "zeros(): argument 'out' must be Tensor, not int", TypeError)
    raises(lambda: torch.full((2,), 1, out=3), "full(): argument 'out' must be Tensor, not int", TypeError)
    raises(lambda: torch.rand(2, out=torch.empty(2, dtype=torch.int64)),
           "\"check_uniform_bounds\" not implemented for 'Long'", NotImplementedError)
    raises(lambda: torch.randn(2, out=torch.empty(2, dtype=torch.int64)),
           "\"normal_kernel_cpu\" not implemented for 'Long'", NotImplementedError)
    raises(lambda: torch.arange(2, out=torch.empty(2, dtype=torch.bool)),
           "\"arange_cpu\" not implemented for 'Bool'", NotImplementedError)
    raises(lambda: torch.full((2,), 1 + 2j, out=torch.empty(2)), "value cannot be converted to type float without overflow")
    raises(lambda: torch.randint(300, (3,), out=torch.empty(3, dtype=torch.uint8)), "to - 1 is out of bounds for unsigned char")


def test_factory_out_and_autograd():
    for name, make in [("zeros", lambda o: torch.zeros(2, out=o)), ("rand", lambda o: torch.rand(2, out=o)),
                       ("arange", lambda o: torch.arange(2., out=o)), ("eye", lambda o: torch.eye(2, out=o)),
                       ("linspace", lambda o: torch.linspace(0, 1, 2, out=o)),
                       ("full", lambda o: torch.full((2,), 1., out=o))]:
        raises(lambda: make(torch.empty(2, requires_grad=True)), NO_AUTOGRAD.format("aten::" + name))
    # empty and randn resize their out whatever its shape: refused even under no_grad
    for make in (lambda o: torch.empty(2, out=o), lambda o: torch.randn(2, out=o)):
        raises(lambda: make(torch.empty(2, requires_grad=True)), "cannot resize variables that require grad")
    # requires_grad= is set on out, True or False
    o = torch.empty(2)
    r = torch.ones(2, requires_grad=True, out=o)
    assert r is o and o.requires_grad and o.is_leaf and o.grad_fn is None
    o = torch.empty(2, requires_grad=True)
    with torch.no_grad():
        torch.zeros(2, out=o)
    assert not o.requires_grad
    raises(lambda: torch.zeros(2, requires_grad=True, out=torch.empty(2, dtype=torch.int64)),
           "Only Tensors of floating point and complex dtype can require gradients")


def test_factory_out_is_resized_without_a_warning():
    def check():
        assert torch.zeros(4, out=torch.full((2, 2), 3.)).shape == (4,)
        assert torch.rand(3, out=torch.empty(2)).shape == (3,)
        assert torch.eye(2, out=torch.empty(4)).shape == (2, 2)
        # linspace, logspace and arange keep an out of the right element count as it is
        assert torch.linspace(0, 1, 4, out=torch.empty(2, 2)).shape == (2, 2)
        assert torch.logspace(0, 1, 4, out=torch.empty(2, 2)).shape == (2, 2)
        assert torch.arange(4, out=torch.empty(4, 1)).shape == (4, 1)
        o = torch.full((2, 2), 5.)
        torch.zeros(2, out=o[:, 0])  # a view is written through
        assert o.tolist() == [[0., 5.], [0., 5.]]
        o = torch.full((2, 2), 5.)
        torch.empty(2, out=o[:, 0])  # empty leaves the values
        assert o.tolist() == [[5., 5.], [5., 5.]]

    _, w = recorded(check)
    assert w == []


def test_arange_warns_when_it_resizes_an_out_with_elements():
    r, w = recorded(lambda: torch.arange(5, out=torch.empty(2)))
    assert r.tolist() == [0., 1., 2., 3., 4.]
    assert w == [("The number of elements in the out tensor of shape [2] is 2 which does not match the computed "
                  "number of elements 5. Note that this may occur as a result of rounding error. The out tensor "
                  "will be resized to a tensor of shape (5,). (Triggered internally at "
                  "/__w/pytorch/pytorch/aten/src/ATen/native/RangeFactories.cpp:200.)", __file__)]
    _, w = recorded(lambda: torch.arange(5, out=torch.empty(0)))
    assert w == []


# ------------------------------------------------------------------------------------------------
# Functions


def A(rg=False):
    return torch.tensor([[1., -2.], [3., 4.]], requires_grad=rg)


def v(rg=False):
    return torch.tensor([1., 2.], requires_grad=rg)


# (call with out, what out prints)
VALUES = [
    (lambda o: torch.matmul(A(), v(), out=o), "tensor([-3., 11.])"),
    (lambda o: torch.mm(A(), A(), out=o), "tensor([[ -5., -10.],\n        [ 15.,  10.]])"),
    (lambda o: torch.bmm(A()[None], A()[None], out=o), "tensor([[[ -5., -10.],\n         [ 15.,  10.]]])"),
    (lambda o: torch.mv(A(), v(), out=o), "tensor([-3., 11.])"),
    (lambda o: torch.dot(v(), v(), out=o), "tensor(5.)"),
    (lambda o: torch.addmm(A(), A(), A(), beta=0.5, alpha=2, out=o), "tensor([[ -9.5000, -21.0000],\n        [ 31.5000,  22.0000]])"),
    (lambda o: torch.sum(A(), 1, out=o), "tensor([-1.,  7.])"),
    (lambda o: torch.mean(A(), 0, out=o), "tensor([2., 1.])"),
    (lambda o: torch.mean(A(), out=o), "tensor(1.5000)"),
    (lambda o: torch.prod(A(), 0, out=o), "tensor([ 3., -8.])"),
    (lambda o: torch.cumsum(A(), 0, out=o), "tensor([[ 1., -2.],\n        [ 4.,  2.]])"),
    (lambda o: torch.cat([v(), v()], out=o), "tensor([1., 2., 1., 2.])"),
    (lambda o: torch.stack([v(), v()], out=o), "tensor([[1., 2.],\n        [1., 2.]])"),
    (lambda o: torch.clamp(A(), 0, 1, out=o), "tensor([[1., 0.],\n        [1., 1.]])"),
    (lambda o: torch.pow(A(), 2, out=o), "tensor([[ 1.,  4.],\n        [ 9., 16.]])"),
    (lambda o: torch.pow(2, A(), out=o), "tensor([[ 2.0000,  0.2500],\n        [ 8.0000, 16.0000]])"),
    (lambda o: torch.abs(A(), out=o), "tensor([[1., 2.],\n        [3., 4.]])"),
    (lambda o: torch.neg(A(), out=o), "tensor([[-1.,  2.],\n        [-3., -4.]])"),
    (lambda o: torch.softmax(A(), 0, out=o), "tensor([[0.1192, 0.0025],\n        [0.8808, 0.9975]])"),
    (lambda o: torch.where(A() > 0, A(), -A(), out=o), "tensor([[1., 2.],\n        [3., 4.]])"),
    (lambda o: torch.tril(A(), out=o), "tensor([[1., 0.],\n        [3., 4.]])"),
    (lambda o: torch.outer(v(), v(), out=o), "tensor([[1., 2.],\n        [2., 4.]])"),
    (lambda o: torch.var(A(), 0, out=o), "tensor([ 2., 18.])"),
    (lambda o: torch.logsumexp(A(), 0, out=o), "tensor([3.1269, 4.0025])"),
    (lambda o: torch.linalg.inv(A(), out=o), "tensor([[ 0.4000,  0.2000],\n        [-0.3000,  0.1000]])"),
    (lambda o: torch.linalg.vector_norm(A(), out=o), "tensor(5.4772)"),
]


@pytest.mark.parametrize("i", range(len(VALUES)))
def test_functions_write_into_out_and_return_it(i):
    call, printed = VALUES[i]
    o = torch.empty(0)
    r, w = recorded(lambda: call(o))
    assert r is o and str(o) == printed and w == []


def test_several_outputs_return_the_named_tuple_of_the_outs():
    vals, idx = torch.empty(0), torch.empty(0, dtype=torch.int64)
    r = torch.max(A(), 0, out=(vals, idx))
    assert type(r).__name__ == "max_out" and r[0] is vals and r.indices is idx
    assert repr(r) == "torch.return_types.max_out(\nvalues=tensor([3., 4.]),\nindices=tensor([1, 1]))"
    r = torch.sort(torch.tensor([3., 1., 2.]), out=[torch.empty(0), torch.empty(0, dtype=torch.int64)])
    assert repr(r) == "torch.return_types.sort_out(\nvalues=tensor([1., 2., 3.]),\nindices=tensor([1, 2, 0]))"
    r = torch.topk(torch.tensor([1., 5., 3.]), 2, out=(torch.empty(0), torch.empty(0, dtype=torch.int64)))
    assert repr(r) == "torch.return_types.topk_out(\nvalues=tensor([5., 3.]),\nindices=tensor([1, 2]))"
    r = torch.aminmax(A(), dim=0, out=(torch.empty(0), torch.empty(0)))
    assert repr(r) == "torch.return_types.aminmax_out(\nmin=tensor([ 1., -2.]),\nmax=tensor([3., 4.]))"
    raises(lambda: torch.max(A(), 0, out=(torch.empty(0), torch.empty(0))),
           "Expected out tensor to have dtype long int, but got float instead")
    raises(lambda: torch.max(A(), 0, out=(torch.empty(0),)), "expected tuple of 2 elements but got 1", TypeError)
    raises(lambda: torch.min(A(), 1, keepdim=True, out=3), "min(): argument 'out' must be tuple of Tensors, not int",
           TypeError)


def test_out_is_resized_with_pytorchs_warning_from_the_callers_line():
    o = torch.empty(5)
    r, w = recorded(lambda: torch.mm(A(), A(), out=o))
    assert r is o and o.shape == (2, 2) and w == [(RESIZED.format([5], [2, 2]), __file__)]
    _, w = recorded(lambda: torch.sum(A(), 0, out=torch.empty(3)))
    assert w == [(RESIZED.format([3], [2]), __file__)]
    _, w = recorded(lambda: torch.max(A(), 1, out=(torch.empty(5), torch.empty(5, dtype=torch.int64))))
    assert w == [(RESIZED.format([5], [2]), __file__)] * 2
    # kthvalue and mode name the shapes with the reduced dim kept, as PyTorch resizes them
    _, w = recorded(lambda: torch.kthvalue(A(), 1, out=(torch.empty(5), torch.empty(5, dtype=torch.int64))))
    assert w == [(RESIZED.format([5, 1], [2, 1]), __file__)] * 2
    _, w = recorded(lambda: torch.mm(A(), A(), out=torch.empty(0)))  # an empty out is resized silently
    assert w == []


def test_a_view_out_is_written_through():
    base = torch.zeros(2, 2, 2)
    o = base[..., 0]
    assert torch.mm(A(), A(), out=o) is o
    assert base[..., 0].tolist() == [[-5., -10.], [15., 10.]] and base[..., 1].abs().sum().item() == 0


@pytest.mark.parametrize("call, message", [
    (lambda: torch.mm(A(), A(), out=torch.empty(0, dtype=torch.int64)),
     "Expected out tensor to have dtype float, but got long int instead"),
    (lambda: torch.mm(A(), A(), out=torch.empty(0, dtype=torch.float64)),
     "Expected out tensor to have dtype float, but got double instead"),
    (lambda: torch.matmul(v(), v(), out=torch.empty(0, dtype=torch.int64)), "result dtype Long does not match input dtype Float"),
    (lambda: torch.matmul(A(), v(), out=torch.empty(2, dtype=torch.int64)),
     "addmv input tensors must have the same dtype, but got Long, Float, and Float"),
    (lambda: torch.matmul(A(), v(), out=torch.empty(0, dtype=torch.int64)),
     "Expected out tensor to have dtype float, but got long int instead"),
    (lambda: torch.mv(A(), v(), out=torch.empty(0, dtype=torch.int64)),
     "Expected out tensor to have dtype float, but got long int instead"),
    (lambda: torch.pow(A(), 2, out=torch.empty(0, dtype=torch.int64)), "result type Float can't be cast to the desired output type Long"),
    (lambda: torch.mean(A(), 0, out=torch.empty(0, dtype=torch.bool)), "result type Float can't be cast to the desired output type Bool"),
    (lambda: torch.mean(A(), out=torch.empty(0, dtype=torch.int64)),
     "mean.dtype_out(): input types can't be cast to the desired output type Long"),
    (lambda: torch.abs(A(), out=torch.empty(0, dtype=torch.float64)), "Found dtype Double but expected Float"),
    (lambda: torch.clamp(torch.tensor([1, 5]), 0, 3, out=torch.empty(0)), "Found dtype Float but expected Long"),
    (lambda: torch.argmax(A(), 0, out=torch.empty(0)), "Expected out tensor to have dtype long int, but got float instead"),
    (lambda: torch.where(A() > 0, A(), A(), out=torch.empty(0, dtype=torch.int64)), "Expected out type to be Float but got Long"),
    (lambda: torch.amax(A(), 0, out=torch.empty(0, dtype=torch.float64)),
     "Expected the dtype for input and out to match, but got Float for input's dtype and Double for out's dtype."),
    (lambda: torch.all(A() > 0, 0, out=torch.empty(0)), "all only supports bool tensor for result, got: Float"),
    (lambda: torch.sum(A(), 0, dtype=torch.float64, out=torch.empty(0)),
     "Expected out tensor to have dtype double, but got float instead"),
    (lambda: torch.index_select(A(), 0, torch.tensor([1]), out=torch.empty(0, dtype=torch.int64)),
     "index_select(): self and result must have the same scalar type"),
    (lambda: torch.nonzero(A(), out=torch.empty(0)),
     "nonzero: Expected out tensor to have scalar type Long but got scalar typeFloat"),
    (lambda: torch.logsumexp(A(), 0, out=torch.empty(0, dtype=torch.int64)),
     "logsumexp(): Expected floating point type for result tensor, but got: Long"),
    (lambda: torch.median(A(), 0, out=(torch.empty(0, dtype=torch.int64), torch.empty(0, dtype=torch.int64))),
     "Expected tensor for 'values' to have the same type as tensor for argument #2 'self'; but type "
     "torch.LongTensor does not equal torch.FloatTensor (while checking arguments for median)"),
    (lambda: torch.linalg.inv(A(), out=torch.empty(0, dtype=torch.float64)),
     "Expected out tensor to have dtype float, but got double instead"),
])
def test_out_dtype_errors(call, message):
    raises(call, message)


def test_out_dtypes_pytorch_allows():
    # a cast PyTorch allows: the result computed as without out, then cast
    assert str(torch.pow(A(), 2, out=torch.empty(0, dtype=torch.float64))) == \
        "tensor([[ 1.,  4.],\n        [ 9., 16.]], dtype=torch.float64)"
    assert str(torch.eq(A(), 1, out=torch.empty(0, dtype=torch.int64))) == "tensor([[1, 0],\n        [0, 0]])"
    assert str(torch.cat([torch.tensor([1]), torch.tensor([2])], out=torch.empty(0))) == "tensor([1., 2.])"
    # sum, prod, cumsum without dtype=: out's dtype is the dtype (the input cast to it first)
    x = torch.tensor([[0.6, 0.6], [0.7, 1.5]])
    assert str(torch.sum(x, 0, out=torch.empty(0, dtype=torch.int64))) == "tensor([0, 1])"
    assert str(torch.cumsum(x, 1, out=torch.empty(0, dtype=torch.int64))) == "tensor([[0, 0],\n        [0, 1]])"
    raises(lambda: torch.cumsum(x, 1, out=torch.empty(0, dtype=torch.bool)),
           "\"cumsum_out_cpu\" not implemented for 'Bool'", NotImplementedError)
    raises(lambda: torch.cat([torch.tensor([1]), torch.tensor([2.])], out=torch.empty(0, dtype=torch.int64)),
           "torch.cat(): input types can't be cast to the desired output type Long", TypeError)


@pytest.mark.parametrize("name, call", [
    ("mm", lambda rg, o: torch.mm(A(rg), A(), out=o)),
    ("matmul", lambda rg, o: torch.matmul(A(rg), v(), out=o)),
    ("sum", lambda rg, o: torch.sum(A(rg), 0, out=o)),
    ("cat", lambda rg, o: torch.cat([v(rg), v()], out=o)),
    ("cat", lambda rg, o: torch.hstack([v(rg), v()], out=o)),
    ("clamp", lambda rg, o: torch.clip(A(rg), 0, 1, out=o)),
    ("pow", lambda rg, o: torch.square(A(rg), out=o)),
    ("mul", lambda rg, o: torch.outer(v(rg), v(), out=o)),
    ("maximum", lambda rg, o: torch.max(A(rg), A(), out=o)),
    ("trunc", lambda rg, o: torch.fix(A(rg), out=o)),
    ("linalg_inv_ex", lambda rg, o: torch.linalg.inv(A(rg), out=o)),
])
def test_out_refuses_autograd_naming_pytorchs_kernel(name, call):
    raises(lambda: call(True, torch.empty(0)), NO_AUTOGRAD.format(name))
    raises(lambda: call(False, torch.empty(0, requires_grad=True)), NO_AUTOGRAD.format(name))
    with torch.no_grad():
        o = torch.empty(0)
        assert call(True, o) is o and o.grad_fn is None


def test_out_of_functions_whose_result_is_not_differentiable():
    o = torch.empty(0, dtype=torch.int64)
    assert torch.argmax(A(True), 0, out=o) is o and o.tolist() == [1, 1]
    o = torch.empty(0, dtype=torch.bool)
    assert torch.gt(A(True), 0, out=o) is o and o.tolist() == [[True, False], [True, True]]
    # softmax: an input that requires grad gives out PyTorch's NotImplemented node
    o = torch.empty(0)
    torch.softmax(A(True), 0, out=o)
    assert type(o.grad_fn).__name__ == "NotImplemented"
    raises(lambda: torch.softmax(A(), 0, out=torch.empty(0, requires_grad=True)), NO_AUTOGRAD.format("aten::softmax"))


def test_out_argument_errors():
    raises(lambda: torch.abs(A(), out=3), "abs(): argument 'out' must be Tensor, not int", TypeError)
    raises(lambda: torch.exp(A(), out=3), "exp(): argument 'out' must be Tensor, not int", TypeError)
    raises(lambda: torch.cat([v()], out=3), "cat(): argument 'out' must be Tensor, not int", TypeError)
    raises(lambda: torch.where(A() > 0, A(), 0., out=torch.empty(0)),
           "where(): argument 'other' (position 3) must be Tensor, not float", TypeError)
    with pytest.raises(TypeError) as e:
        torch.sum(A(), out=torch.empty(0))  # no overload of sum without dim takes out
    assert str(e.value).startswith("sum() received an invalid combination of arguments - got (Tensor, out=Tensor), "
                                   "but expected one of:")
    with pytest.raises(TypeError) as e:
        torch.mm(A(), A(), out=3)
    assert str(e.value).startswith("mm() received an invalid combination of arguments - got (Tensor, Tensor, "
                                   "out=int), but expected one of:")


def test_methods_take_no_out():
    with pytest.raises(TypeError):
        A().sum(0, out=torch.empty(0))
    with pytest.raises(TypeError):
        A().mm(A(), out=torch.empty(0))


# ------------------------------------------------------------------------------------------------
# histogram


def test_histogram_bins_default_to_100():
    x = torch.tensor([1., 2., 1., 4.])
    h = torch.histogram(x)
    assert h.hist.shape == (100,) and h.bin_edges.shape == (101,) and h.hist.sum().item() == 4
    assert x.histogram().bin_edges.shape == (101,)
    r = torch.histogram(x, 3, out=(torch.empty(0), torch.empty(0)))
    assert repr(r) == ("torch.return_types.histogram_out(\nhist=tensor([2., 1., 1.]),\n"
                       "bin_edges=tensor([1., 2., 3., 4.]))")


# ------------------------------------------------------------------------------------------------
# Bitwise ops


def test_bitwise_functions():
    a, b = torch.tensor([12, 10, -3]), torch.tensor([10, 6, 5])
    assert torch.bitwise_and(a, b).tolist() == [8, 2, 5]
    assert torch.bitwise_or(a, b).tolist() == [14, 14, -3]
    assert torch.bitwise_xor(a, b).tolist() == [6, 12, -8]
    assert torch.bitwise_xor(2, a).tolist() == [14, 8, -1]
    assert torch.bitwise_not(a).tolist() == [-13, -11, 2]
    assert str(torch.bitwise_not(torch.tensor([True, False]))) == "tensor([False,  True])"
    assert str(torch.bitwise_and(torch.tensor([1], dtype=torch.uint8), torch.tensor([3]))) == "tensor([1])"
    assert torch.bitwise_left_shift(a, b).tolist() == [12288, 640, -96]
    assert torch.bitwise_left_shift(2, a).tolist() == [8192, 2048, 0]
    assert torch.bitwise_right_shift(a, b).tolist() == [0, 0, -1]
    assert a.bitwise_xor(b).tolist() == [6, 12, -8] and a.bitwise_not().tolist() == [-13, -11, 2]
    o = torch.empty(0)
    assert torch.bitwise_xor(a, b, out=o) is o and str(o) == "tensor([ 6., 12., -8.])"
    raises(lambda: torch.bitwise_xor(a, b, out=torch.empty(0, dtype=torch.bool)),
           "result type Long can't be cast to the desired output type Bool")
    raises(lambda: torch.bitwise_not(a, out=torch.empty(0)), "Found dtype Float but expected Long")


def test_shift_operators():
    a = torch.tensor([12, 10, -3])
    assert (a << 1).tolist() == [24, 20, -6] and (a >> 1).tolist() == [6, 5, -2]
    assert (1 << a.abs()).tolist() == [4096, 1024, 8] and (64 >> a.abs()).tolist() == [0, 0, 8]
    assert (a << -1).tolist() == [0, 0, 0] and (a << 70).tolist() == [0, 0, 0] and (a >> 70).tolist() == [0, 0, -1]
    assert str(torch.tensor([64], dtype=torch.int8) << 1) == "tensor([-128], dtype=torch.int8)"
    assert str(torch.tensor([200], dtype=torch.uint8) << 1) == "tensor([144], dtype=torch.uint8)"
    assert str(torch.tensor([200], dtype=torch.uint8) >> 9) == "tensor([0], dtype=torch.uint8)"
    assert str(torch.tensor([3], dtype=torch.int32) << 31) == "tensor([-2147483648], dtype=torch.int32)"
    assert str(torch.tensor([3], dtype=torch.int32) << torch.tensor(1)) == "tensor([6], dtype=torch.int32)"
    assert str(torch.tensor([1, 2], dtype=torch.int16) << 1) == "tensor([2, 4], dtype=torch.int16)"
    assert str(torch.tensor([True]) << 1) == "tensor([2])"
    assert str(torch.tensor(3) << torch.tensor([1, 2])) == "tensor([ 6, 12])"


def test_bitwise_in_place():
    t = torch.tensor([1, 2])
    assert t.__ilshift__(2) is t and t.tolist() == [4, 8]
    t = torch.tensor([8, -8])
    t >>= torch.tensor([1, 2])
    assert t.tolist() == [4, -2]
    t = torch.tensor([1, 2])
    u = t
    t &= torch.tensor([3, 1])
    assert t is u and t.tolist() == [1, 0]
    t ^= 3
    t |= 4
    assert u.tolist() == [6, 7]
    assert str(torch.tensor([1, 2], dtype=torch.int8).bitwise_xor_(torch.tensor([3, 300]))) == \
        "tensor([ 2, 46], dtype=torch.int8)"
    assert torch.tensor([1, 2]).bitwise_left_shift_(3).tolist() == [8, 16]
    t = torch.tensor([12, 0])
    assert t.bitwise_not_() is t and t.tolist() == [-13, -1]
    raises(lambda: torch.tensor([True, False]).bitwise_xor_(torch.tensor([1, 2])),
           "result type Long can't be cast to the desired output type Bool")
    raises(lambda: torch.tensor([1, 2]).bitwise_and_(torch.tensor([[1, 2], [3, 4]])),
           "output with shape [2] doesn't match the broadcast shape [2, 2]")
    raises(lambda: torch.tensor([1, 2]).bitwise_and_(1.5), "result type Float can't be cast to the desired output type Long")


def test_bitwise_errors():
    f = torch.tensor([1.5])
    for call, kernel in [(lambda: f ^ f, "bitwise_xor_cpu"), (lambda: f & 1, "bitwise_and_cpu"),
                         (lambda: torch.bitwise_or(f, f), "bitwise_or_cpu"),
                         (lambda: torch.bitwise_not(f), "bitwise_not_cpu"),
                         (lambda: f << 1, "lshift_cpu"), (lambda: torch.tensor([8.]) >> 1, "rshift_cpu"),
                         (lambda: 1.5 << torch.tensor([1]), "lshift_cpu"),
                         (lambda: torch.tensor([1, 2]) << 1.5, "lshift_cpu"),
                         (lambda: torch.tensor([1.]).bitwise_left_shift(1), "lshift_cpu")]:
        raises(call, f"\"{kernel}\" not implemented for 'Float'", NotImplementedError)
    raises(lambda: ~f, "~ (operator.invert) is only implemented on integer and Boolean-type tensors", TypeError)
    raises(lambda: torch.bitwise_left_shift(torch.tensor([True]), torch.tensor([True])),
           "\"lshift_cpu\" not implemented for 'Bool'", NotImplementedError)
    raises(lambda: torch.tensor([1, 2, 3]) << torch.tensor([1, 2]),
           "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0")
    raises(lambda: torch.bitwise_not(3), "bitwise_not(): argument 'input' (position 1) must be Tensor, not int",
           TypeError)
    with pytest.raises(TypeError) as e:
        torch.bitwise_xor(3, 5)
    assert str(e.value).startswith("bitwise_xor() received an invalid combination of arguments - got (int, int), ")


# ------------------------------------------------------------------------------------------------
# torch.<op>_


@pytest.mark.parametrize("name, values, args, printed", [
    ("sin_", [0.5, 0.75], (), "tensor([0.4794, 0.6816])"),
    ("exp_", [0.5, 0.75], (), "tensor([1.6487, 2.1170])"),
    ("sqrt_", [0.5, 0.75], (), "tensor([0.7071, 0.8660])"),
    ("round_", [0.5, 0.75], (), "tensor([0., 1.])"),
    ("fix_", [0.5, -0.75], (), "tensor([0., -0.])"),
    ("arctanh_", [0.5, 0.75], (), "tensor([0.5493, 0.9730])"),
    ("clamp_", [0.5, 0.75], (0.6,), "tensor([0.6000, 0.7500])"),
    ("clip_", [0.5, 0.75], (0.6, 0.7), "tensor([0.6000, 0.7000])"),
    ("xlogy_", [0.5, 0.75], (2.,), "tensor([0.3466, 0.5199])"),
    ("fill_", [0.5, 0.75], (2.,), "tensor([2., 2.])"),
    ("zero_", [0.5, 0.75], (), "tensor([0., 0.])"),
    ("relu_", [-0.5, 0.75], (), "tensor([0.0000, 0.7500])"),
])
def test_top_level_in_place_functions(name, values, args, printed):
    x = torch.tensor(values)
    assert getattr(torch, name)(x, *args) is x and str(x) == printed


def test_top_level_in_place_function_errors():
    raises(lambda: torch.sin_(3), "sin_(): argument 'input' (position 1) must be Tensor, not int", TypeError)
    raises(lambda: torch.exp_(torch.tensor([1.], requires_grad=True)),
           "a leaf Variable that requires grad is being used in an in-place operation.")
    y = torch.tensor([1.], requires_grad=True) * 1
    torch.sin_(y)
    assert type(y.grad_fn).__name__ == "SinBackward0"


# ------------------------------------------------------------------------------------------------
# Default device, accelerator


def test_default_device():
    assert torch.get_default_device() == torch.device("cpu")
    try:
        torch.set_default_device("meta")
        assert torch.get_default_device() == torch.device("meta")
        for t in (torch.zeros(2), torch.ones(2), torch.rand(2), torch.arange(3), torch.full((2,), 1.),
                  torch.tensor([1., 2.]), torch.eye(2), torch.linspace(0, 1, 3), torch.randint(3, (2,))):
            assert t.device == torch.device("meta")
        assert torch.ones(2, device="cpu").device == torch.device("cpu")  # an explicit device wins
        assert torch.zeros_like(torch.ones(2, device="cpu")).device == torch.device("cpu")
        raises(lambda: torch.zeros(2, out=torch.empty(2, device="cpu")),
               "device type meta does not match device type of out parameter (cpu)")
        torch.set_default_device(torch.device("cpu"))
        assert torch.get_default_device() == torch.device("cpu") and torch.zeros(1).device == torch.device("cpu")
    finally:
        torch.set_default_device(None)
    assert torch.get_default_device() == torch.device("cpu")
    raises(lambda: torch.set_default_device("foo"),
           "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, lazy, "
           "vulkan, mps, meta, hpu, mtia, privateuseone device type at start of device string: foo")


def test_accelerator():
    assert torch.accelerator.is_available() == torch.cuda.is_available()
    assert torch.accelerator.device_count() == torch.cuda.device_count()
    assert torch.accelerator.current_accelerator() == torch.device("cuda")
    expected = torch.device("cuda") if torch.cuda.is_available() else None
    assert torch.accelerator.current_accelerator(check_available=True) == expected
