"""SPEC §3: the .grad attribute (accumulation, the non-leaf warning, assignment)."""

import warnings

import leafgrad as torch
import pytest
from support import (
    USING_TORCH,
    NONLEAF_GRAD_WARNING,
    exact,
    nonleaf_warnings,
    record_warnings,
    run_isolated,
)

SIZE_MSG = (
    "attempting to assign a gradient of size '%s' to a tensor of size '%s'. Please ensure that "
    "the gradient and the tensor are the same size"
)
DTYPE_MSG = (
    "attempting to assign a gradient with dtype '%s' to a tensor with grad_dtype '%s'. The "
    "gradient must match the tensor's grad_dtype (defaults to the tensor's dtype). You can set "
    "the tensor's grad_dtype attribute with a specific dtype, or None to allow any dtype. Set "
    "grad_dtype with caution. Diverging the dtypes of a tensor and its gradient may break "
    "downstream systems that assume they match."
)


def leaf():
    return torch.tensor([1.0, 2.0], requires_grad=True)


def test_grad_is_none_before_backward():
    x = leaf()
    assert x.grad is None


def test_grad_accumulates_in_place_keeping_identity():
    x = leaf()
    (x * x).sum().backward()
    g = x.grad
    assert g.tolist() == [2.0, 4.0]
    (x * x).sum().backward()
    assert x.grad.tolist() == [4.0, 8.0]
    (x * 3).sum().backward()
    assert x.grad.tolist() == [7.0, 11.0]
    assert x.grad is g
    assert g.tolist() == [7.0, 11.0]


def test_create_graph_accumulates_out_of_place_with_history():
    x = leaf()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        (x * x).sum().backward(create_graph=True)
        first = x.grad
        assert first.tolist() == [2.0, 4.0]
        assert first.requires_grad
        assert repr(first).endswith("grad_fn=<CopyBackwards>)")
        (x * x).sum().backward(create_graph=True)
    assert repr(x.grad) == "tensor([4., 8.], grad_fn=<AddBackward0>)"
    assert x.grad is not first
    assert first.tolist() == [2.0, 4.0]


@pytest.mark.parametrize("gdtype", ["float64", "int64"])
def test_stored_grad_keeps_leaf_dtype(gdtype):
    x = leaf()
    (x * 2).backward(torch.ones(2, dtype=getattr(torch, gdtype)))
    assert x.grad.dtype == torch.float32
    assert x.grad.tolist() == [2.0, 2.0]


def test_supplied_gradient_is_not_stored_by_identity():
    x = leaf()
    g = torch.tensor([1.0, 1.0])
    x.backward(g)
    assert x.grad is not g
    assert x.grad.tolist() == [1.0, 1.0]
    g.mul_(5)
    assert x.grad.tolist() == [1.0, 1.0]


def test_non_requiring_tensor_never_gets_grad():
    x = leaf()
    c = torch.tensor([3.0, 4.0])
    (x * c).sum().backward()
    assert c.grad is None
    assert x.grad.tolist() == [3.0, 4.0]


def test_non_leaf_grad_read_warns_and_returns_none():
    y = leaf() * 2
    (y * y).sum().backward()
    with record_warnings() as caught:
        g = y.grad
    assert g is None
    assert nonleaf_warnings(caught) == [NONLEAF_GRAD_WARNING]
    assert caught[0].category is UserWarning


def test_non_leaf_warning_is_attributed_to_the_callers_line():
    y = leaf() * 2
    with record_warnings() as caught:
        y.grad  # noqa: B018  (the line the warning must point at)
        line = __import__("inspect").currentframe().f_lineno - 1
    assert len(caught) == 1
    assert caught[0].filename == __file__
    assert caught[0].lineno == line


def test_non_leaf_warning_on_every_access_under_always():
    y = leaf() * 2
    with record_warnings() as caught:
        _ = y.grad
        _ = y.grad
    assert len(nonleaf_warnings(caught)) == 2


def test_no_warning_for_leaves_constants_and_retained():
    x = leaf()
    c = torch.tensor([1.0])
    y = x * 2
    y.retain_grad()
    with record_warnings() as caught:
        assert x.grad is None
        assert c.grad is None
        assert y.grad is None
    assert caught == []


def test_manually_assigned_grad_on_non_leaf_reads_without_warning():
    y = leaf() * 2
    y.grad = torch.tensor([7.0, 8.0])
    with record_warnings() as caught:
        assert y.grad.tolist() == [7.0, 8.0]
    assert caught == []
    y.grad = None
    with record_warnings() as caught:
        assert y.grad is None
    assert nonleaf_warnings(caught) == [NONLEAF_GRAD_WARNING]


def test_non_leaf_warning_also_inside_no_grad():
    y = leaf() * 2
    with record_warnings() as caught, torch.no_grad():
        _ = y.grad
    assert nonleaf_warnings(caught) == [NONLEAF_GRAD_WARNING]


def test_default_filter_shows_warning_once_per_source_line():
    _, err = run_isolated(
        """
        import leafgrad as torch
        y = torch.tensor([1.0], requires_grad=True) * 2
        for _ in range(3):
            y.grad
        y.grad
        """
    )
    assert err.count("The .grad attribute of a Tensor that is not a leaf Tensor") == 2


def test_assign_and_clear_grad():
    x = leaf()
    x.grad = torch.tensor([5.0, 5.0])
    assert x.grad.tolist() == [5.0, 5.0]
    x.grad = None
    assert x.grad is None
    x.grad = torch.tensor([1.0, 1.0])
    del x.grad
    assert x.grad is None


@pytest.mark.parametrize(
    "make",
    [
        lambda: torch.tensor([1.0, 2.0]),
        lambda: torch.tensor([1.0, 2.0], requires_grad=True) * 2,
        lambda: torch.tensor([1, 2]),
    ],
    ids=["no_rg", "non_leaf", "int"],
)
def test_assigning_grad_works_on_any_tensor(make):
    t = make()
    rg = t.requires_grad
    g = torch.ones(2, dtype=t.dtype)
    t.grad = g
    assert t.grad.tolist() == [1, 1]
    assert t.requires_grad == rg


@pytest.mark.parametrize(
    "target, grad, sizes",
    [
        (
            lambda: torch.tensor([1.0, 2.0]),
            lambda: torch.tensor([1.0, 2.0, 3.0]),
            ("[3]", "[2]"),
        ),
        (lambda: torch.tensor([1.0, 2.0]), lambda: torch.ones(2, 1), ("[2, 1]", "[2]")),
        (
            lambda: torch.tensor(1.0, requires_grad=True),
            lambda: torch.ones(1),
            ("[1]", "[]"),
        ),
    ],
    ids=["3_vs_2", "2x1_vs_2", "1_vs_scalar"],
)
def test_assigning_grad_of_wrong_size(target, grad, sizes):
    t = target()
    with pytest.raises(RuntimeError, match=exact(SIZE_MSG % sizes)):
        t.grad = grad()
    assert t.grad is None


@pytest.mark.parametrize(
    "tdtype, gdtype, names",
    [
        ("float32", "float64", ("double", "Float")),
        ("float32", "int64", ("long int", "Float")),
        ("int64", "float32", ("float", "Long")),
        ("complex64", "float32", ("float", "ComplexFloat")),
        ("complex64", "complex128", ("c10::complex<double>", "ComplexFloat")),
        ("float64", "complex64", ("c10::complex<float>", "Double")),
    ],
)
def test_assigning_grad_of_wrong_dtype(tdtype, gdtype, names):
    t = torch.ones(2, dtype=getattr(torch, tdtype))
    with pytest.raises(RuntimeError, match=exact(DTYPE_MSG % names)):
        t.grad = torch.ones(2, dtype=getattr(torch, gdtype))
    assert t.grad is None


def test_complex_grad_on_complex_tensor_is_accepted():
    z = torch.tensor([1 + 1j, 2 - 1j], requires_grad=True)
    z.grad = torch.tensor([1 + 0j, 0 + 1j])
    assert z.grad.dtype == torch.complex64


def test_assigning_grad_on_other_device():
    x = leaf()
    msg = (
        "attempting to assign a gradient with device type 'meta' to a tensor with device type "
        "'cpu'. Please ensure that the gradient and the tensor are on the same device"
    )
    with pytest.raises(RuntimeError, match=exact(msg)):
        x.grad = torch.ones(2, device="meta")


@pytest.mark.parametrize("value, tname", [([1.0, 2.0], "list"), (3.0, "float")])
def test_assigning_non_tensor_grad(value, tname):
    x = leaf()
    msg = f"assigned grad expected to be a Tensor or None but got grad of type {tname}"
    with pytest.raises(TypeError, match=exact(msg)):
        x.grad = value


def test_assigning_tensor_as_its_own_grad():
    x = leaf()
    with pytest.raises(
        RuntimeError, match=exact("can't assign Variable as its own grad")
    ):
        x.grad = x


def test_non_contiguous_and_requiring_grads_are_accepted():
    m = torch.zeros(2, 3, requires_grad=True)
    g = torch.arange(6.0).reshape(3, 2).t()
    assert not g.is_contiguous()
    m.grad = g
    assert m.grad.tolist() == [[0.0, 2.0, 4.0], [1.0, 3.0, 5.0]]
    x = leaf()
    x.grad = torch.ones(2, requires_grad=True)
    assert x.grad.requires_grad


def test_backward_accumulates_onto_assigned_grad():
    x = leaf()
    x.grad = torch.tensor([10.0, 10.0])
    (x * 1).sum().backward()
    assert x.grad.tolist() == [11.0, 11.0]


def test_grad_dtype_defaults_to_dtype_and_none_allows_any():
    x = leaf()
    assert x.grad_dtype == torch.float32
    x.grad_dtype = None
    x.grad = torch.ones(2, dtype=torch.float64)
    assert x.grad.dtype == torch.float64
