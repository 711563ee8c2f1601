"""Writes into an expanded tensor (elements sharing one memory location), as PyTorch 2.15 does
them: `fill_`/`zero_`/`x[...] = number` and `copy_` from the tensor itself write it, autograd
recording or not; `masked_fill_`, `index_fill_` and `index_put_` (and the indexing
assignments PyTorch turns into them) write it with a deprecation warning naming the op, and
only the selected elements are written (an unselected alias of a written element shows the new
value); the TensorIterator ops (`add_`, `copy_`, `scatter_`, ...) refuse it. `-` with a bool
operand is refused before the shape and overlap checks. Expected values recorded from torch;
with LEAFGRAD_TEST_TORCH=1 the same tests run against torch."""
import warnings

import pytest

import leafgrad as torch

OVERLAP = "more than one element of the written-to tensor refers to a single memory location"


def _expanded(rg):
    b = torch.ones(3, requires_grad=rg)
    base = b * 1 if rg else b.clone()
    return b, base.expand(2, 3)


def _warned(f):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        f()
    return [str(m.message).split(" on expanded")[0][7:] for m in w if "expanded tensors" in str(m.message)]


@pytest.mark.parametrize("rg", [False, True])
@pytest.mark.parametrize("name, write", [
    ("fill_", lambda x: x.fill_(0.5)),
    ("zero_", lambda x: x.zero_()),
    ("copy_ itself", lambda x: x.copy_(x)),
    ("x[...] = number", lambda x: x.__setitem__(Ellipsis, 0.5)),
    ("x[:] = number", lambda x: x.__setitem__(slice(None), 0.5)),
    ("x[:, 0] = number", lambda x: x.__setitem__((slice(None), 0), 0.5)),
])
def test_fills_write_an_expanded_tensor(rg, name, write):
    b, x = _expanded(rg)
    assert _warned(lambda: write(x)) == []
    assert x.shape == (2, 3) and x.requires_grad == rg


@pytest.mark.parametrize("rg", [False, True])
@pytest.mark.parametrize("name, write", [
    ("add_", lambda x: x.add_(1)),
    ("copy_", lambda x: x.copy_(torch.zeros(2, 3))),
    ("fill_ tensor", lambda x: x.fill_(torch.tensor(0.5))),
    ("x[:] = 0-d tensor", lambda x: x.__setitem__(slice(None), torch.tensor(2.0))),
    ("scatter_", lambda x: x.scatter_(1, torch.tensor([[0]]), 2.0)),
    ("index_add_", lambda x: x.index_add_(1, torch.tensor([0]), torch.zeros(2, 1))),
    ("index_copy_", lambda x: x.index_copy_(1, torch.tensor([0]), torch.zeros(2, 1))),
    ("masked_scatter_", lambda x: x.masked_scatter_(torch.tensor([True, False, True]), torch.zeros(6))),
    ("put_", lambda x: x.put_(torch.tensor([0]), torch.tensor([2.0]))),
])
def test_tensor_iterator_writes_refuse_an_expanded_tensor(rg, name, write):
    _, x = _expanded(rg)
    with pytest.raises(RuntimeError, match=OVERLAP):
        write(x)


M2 = [[True, False, False], [False, False, False]]

# (index, value as "number" or a tensor, warnings in order, the expanded tensor's rows after)
ASSIGN = [
    ("mask 2-d, number", lambda: torch.tensor(M2), 5.0, ["masked_fill_"], [[5.0, 1.0, 1.0]] * 2),
    ("mask 1-d, number", lambda: torch.tensor([False, True]), 2.0, ["masked_fill_"], [[2.0] * 3] * 2),
    ("long, number", lambda: torch.tensor([0]), 2.0, ["index_fill_"], [[2.0] * 3] * 2),
    ("list, number", lambda: [0], 2.0, ["index_fill_"], [[2.0] * 3] * 2),
    ("slice and long, number", lambda: (slice(None), torch.tensor([1])), 2.0, ["index_fill_"],
     [[1.0, 2.0, 1.0]] * 2),
    ("two longs, number", lambda: (torch.tensor([0]), torch.tensor([1])), 5.0, ["index_put_"],
     [[1.0, 5.0, 1.0]] * 2),
    ("long, 0-d tensor", lambda: torch.tensor([1]), torch.tensor(3.0), ["index_put_"], [[3.0] * 3] * 2),
    ("mask, 0-d tensor", lambda: torch.tensor(M2), torch.tensor(3.0), ["index_put_", "masked_fill_"],
     [[3.0, 1.0, 1.0]] * 2),
    ("mask, 1-element tensor", lambda: torch.tensor(M2), torch.tensor([3.0]), ["index_put_", "masked_fill_"],
     [[3.0, 1.0, 1.0]] * 2),
    ("int and long, number", lambda: (0, torch.tensor([0])), 2.0, [], [[2.0, 1.0, 1.0]] * 2),
    ("Python True, number", lambda: True, 2.0, [], [[2.0] * 3] * 2),
]


@pytest.mark.parametrize("rg", [False, True])
@pytest.mark.parametrize("name, index, value, warned, rows", ASSIGN, ids=[a[0] for a in ASSIGN])
def test_indexing_assignment_into_an_expanded_tensor(rg, name, index, value, warned, rows):
    b, x = _expanded(rg)

    def write():
        x[index()] = value
    assert _warned(write) == warned
    assert x.tolist() == rows and x.requires_grad == rg


@pytest.mark.parametrize("name, write, warned, rows", [
    ("masked_fill_", lambda x: x.masked_fill_(torch.tensor(M2), 2.0), ["masked_fill_"], [[2.0, 1.0, 1.0]] * 2),
    ("masked_fill_ 0-d", lambda x: x.masked_fill_(torch.tensor([True, False, True]), torch.tensor(2.0)),
     ["masked_fill_"], [[2.0, 1.0, 2.0]] * 2),
    ("index_fill_", lambda x: x.index_fill_(1, torch.tensor([2]), 2.0), ["index_fill_"], [[1.0, 1.0, 2.0]] * 2),
    ("index_fill_ 0-d", lambda x: x.index_fill_(1, torch.tensor([0]), torch.tensor(2.0)), ["index_fill_"],
     [[2.0, 1.0, 1.0]] * 2),
    ("index_put_", lambda x: x.index_put_((torch.tensor([1]), torch.tensor([2])), torch.tensor(4.0)),
     ["index_put_"], [[1.0, 1.0, 4.0]] * 2),
    ("index_put_ mask", lambda x: x.index_put_((torch.tensor(M2),), torch.tensor(4.0)),
     ["index_put_", "masked_fill_"], [[4.0, 1.0, 1.0]] * 2),
])
def test_indexing_ops_warn_and_write_only_the_selected_elements(name, write, warned, rows):
    for rg in (False, True):
        b, x = _expanded(rg)
        assert _warned(lambda: write(x)) == warned
        assert x.tolist() == rows


@pytest.mark.parametrize("write", [
    lambda x: x.fill_(0.5), lambda x: x.copy_(x), lambda x: x.__setitem__((slice(None), 0), 0.5),
    lambda x: x.__setitem__(torch.tensor([0]), 2.0), lambda x: x.masked_fill_(torch.tensor(M2), 2.0),
])
def test_backward_through_the_write_refuses_the_expanded_window(write):
    # PyTorch's CopySlices copies the gradient into the window of the base's gradient
    b, x = _expanded(True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        write(x)
    assert x.grad_fn.name() == "AsStridedBackward0"
    with pytest.raises(RuntimeError, match=OVERLAP):
        x.sum().backward()


def test_the_warning_text():
    x = torch.ones(3).expand(2, 3)
    with pytest.warns(UserWarning) as w:
        x.masked_fill_(torch.tensor([True, False, True]), 1.0)
    assert str(w[0].message) == (
        "Use of masked_fill_ on expanded tensors is deprecated. Please clone() the tensor before performing this "
        "operation. This also applies to advanced indexing e.g. tensor[mask] = scalar (Triggered internally at "
        "/__w/pytorch/pytorch/aten/src/ATen/native/TensorAdvancedIndexing.cpp:2469.)")
    assert w[0].filename == __file__


@pytest.mark.parametrize("write", [
    lambda a, b: a - b, lambda a, b: a.sub(b, alpha=2), lambda a, b: a.sub_(b), lambda a, b: a.sub_(b, alpha=2),
    lambda a, b: torch.rsub(a, b), lambda a, b: a.expand(2, 4, 2).sub_(a),
])
def test_bool_subtraction_is_refused_before_shapes_and_overlap(write):
    a, b = torch.ones(4, 2, dtype=torch.bool), torch.ones(3, 4, dtype=torch.bool)
    with pytest.raises(NotImplementedError, match="with two bool tensors"):
        write(a, b)
    with pytest.raises(NotImplementedError, match="with a bool tensor is not supported"):
        torch.ones(4, 2).expand(2, 4, 2).sub_(a)
    with pytest.raises(NotImplementedError, match="with a bool tensor is not supported"):
        torch.ones(3, 4).sub_(a)


def test_expand_gives_a_new_dim_of_size_1_a_contiguous_stride():
    a = torch.ones(3, 3)
    assert a.expand(1, 3, 3).stride() == (9, 3, 1)
    assert a.expand(2, 1, 3, 3).stride() == (0, 9, 3, 1)
    assert a.expand(1, 1, 3, 3).stride() == (9, 9, 3, 1)
    assert torch.ones(2, 1).expand(1, 2, 4).stride() == (2, 1, 0)
    assert torch.ones(2, 3)[:, :1].expand(1, 2, 1).stride() == (6, 3, 1)
    assert torch.ones(0, 3).expand(1, 0, 3).stride() == (0, 3, 1)
    assert torch.tensor(5.0).expand(1, 3).stride() == (0, 0)


def test_a_copy_of_the_same_elements_skips_the_memory_checks():
    # PyTorch's copy_ returns before its overlap checks when source and destination are the
    # same elements of the same memory
    t = torch.arange(9.0).reshape(3, 3)
    e = t.expand(2, 3, 3)
    e[0:] = t
    assert e.tolist() == [t.tolist()] * 2
    g = torch.ones(1, 4)
    g[-1:] = g
    # the same memory laid out differently is refused
    t3 = torch.arange(9).reshape(3, 3).expand(2, 3, 3)
    with pytest.raises(RuntimeError, match="some elements of the input tensor and the written-to tensor"):
        t3[1:] = t3[0]


def test_clamp_checks_types_before_the_memory_of_an_expanded_target():
    x = torch.tensor([[-2], [-3]]).expand(2, 3)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type long int"):
        x.clamp_(-1.0)
    z = torch.tensor([1 + 1j]).expand(2, 3)
    with pytest.raises(NotImplementedError, match="clamp is not supported for complex types"):
        z.clamp_(-1.0, 1.0)
    with pytest.raises(RuntimeError, match=OVERLAP):
        torch.tensor([[-2.0], [-3.0]]).expand(2, 3).clamp_(-1.0)


def test_autograd_checks_come_before_the_kernels():
    # PyTorch's VariableType makes its checks (an in-place write into a leaf, a stale view made
    # under no_grad) before the kernel's (bool subtraction, shapes)
    x = torch.ones(2, requires_grad=True)
    for write in (lambda: x.sub_(torch.tensor([True, False])), lambda: x.__isub__(torch.tensor([True]))):
        with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
            write()
    b = torch.ones(3, requires_grad=True)
    with torch.no_grad():
        v = b[:2]
    b.detach().add_(1)
    for op in (lambda: v - torch.ones(3), lambda: v - torch.tensor([True, False]), lambda: v * torch.ones(3),
               lambda: torch.atan2(v, torch.ones(3)), lambda: v + torch.ones(3), lambda: v / torch.ones(3)):
        with pytest.raises(RuntimeError, match="A view was created in no_grad mode and its base"):
            op()


@pytest.mark.parametrize("call, error, message", [
    (lambda z: z.clone().clamp_(torch.zeros(2, dtype=torch.cfloat)), NotImplementedError,
     "clamp is not supported for complex types"),
    (lambda z: z.clone().clamp_(torch.zeros(2)), NotImplementedError, "clamp is not supported for complex types"),
    (lambda z: torch.ones(2).clamp_(torch.zeros(2, dtype=torch.cfloat)), RuntimeError,
     "result type ComplexFloat can't be cast to the desired output type Float"),
    (lambda z: z.clone().clamp(torch.zeros(2), torch.ones(2)), NotImplementedError,
     "clamp is not supported for complex types"),
    (lambda z: z.clone().expand(2, 2).clamp_(torch.zeros(2)), NotImplementedError,
     "clamp is not supported for complex types"),
    (lambda z: z.clamp_min(torch.zeros(2)), NotImplementedError, "\"maximum_cpu\" not implemented for 'ComplexFloat'"),
    (lambda z: z.clone().clamp_max_(torch.zeros(2)), NotImplementedError,
     "\"minimum_cpu\" not implemented for 'ComplexFloat'"),
    (lambda z: torch.ones(2, requires_grad=True).clamp_(torch.zeros(2, dtype=torch.cfloat)), RuntimeError,
     "a leaf Variable that requires grad is being used in an in-place operation."),
    (lambda z: torch.ones(2, requires_grad=True).clamp_(-1.0, 1j), RuntimeError,
     "a leaf Variable that requires grad is being used in an in-place operation."),
    (lambda z: torch.tensor([1j], requires_grad=True).clamp_(-1.0, 1.0), RuntimeError,
     "a leaf Variable that requires grad is being used in an in-place operation."),
])
def test_clamp_of_complex_numbers(call, error, message):
    z = torch.ones(2, dtype=torch.cfloat)
    with pytest.raises(error) as e:
        call(z)
    assert str(e.value) == message


def test_clamp_with_a_complex_number_bound():
    for call, error, message in [
        (lambda: torch.ones(2, dtype=torch.cfloat).clamp(-1, 1j), NotImplementedError,
         "clamp is not supported for complex types"),
        (lambda: torch.ones(2, dtype=torch.long).clamp(-1, 1j), NotImplementedError,
         "clamp is not supported for complex types"),
        (lambda: torch.ones(2).clamp(1j), RuntimeError, "value cannot be converted to type double without overflow"),
        (lambda: torch.ones(2).clamp_(1j), RuntimeError, "value cannot be converted to type double without overflow"),
        (lambda: torch.ones(2).clamp_min(1j), NotImplementedError, "clamp is not supported for complex types"),
    ]:
        with pytest.raises(error) as e:
            call()
        assert str(e.value) == message
    assert torch.ones(2).clamp(-1, 0.5 + 0j).tolist() == [0.5, 0.5]


def test_retain_grad_of_a_view_made_under_no_grad_after_a_write():
    # PyTorch's retain_grad returns for a leaf (the raw grad_fn: none for a view made under
    # no_grad) before it asks for the view's current history
    t0 = torch.ones(3, 4, 2, dtype=torch.float64, requires_grad=True)
    with torch.no_grad():
        t2 = t0[:2]
        t2.mul_(1)
    t2.retain_grad()
    with pytest.raises(RuntimeError, match="A view was created in no_grad mode and its base"):
        t2.grad_fn
