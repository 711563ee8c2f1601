"""SPEC §9: in-place operations, version counters and their errors."""

import leafgrad as torch
import pytest
from support import VERSION_HINT, exact

LEAF_INPLACE = (
    "a leaf Variable that requires grad is being used in an in-place operation."
)
VIEW_INPLACE = "a view of a leaf Variable that requires grad is being used in an in-place operation."
MODIFIED = "one of the variables needed for gradient computation has been modified by an inplace operation: "


def version_msg(tensor_text, node, current, saved):
    which = f", which is output 0 of {node}," if node else ""
    return f"{MODIFIED}[{tensor_text}]{which} is at version {current}; expected version {saved} instead.{VERSION_HINT}"


def leaf():
    return torch.tensor([1.0, 2.0], requires_grad=True)


def _iadd(x):
    x += 1


LEAF_OPS = {
    "add_": lambda x: x.add_(1),
    "mul_": lambda x: x.mul_(2),
    "zero_": lambda x: x.zero_(),
    "fill_": lambda x: x.fill_(3.0),
    "copy_": lambda x: x.copy_(torch.ones(2)),
    "iadd": _iadd,
}


@pytest.mark.parametrize("name", sorted(LEAF_OPS))
def test_in_place_on_requiring_leaf_fails_and_changes_nothing(name):
    x = leaf()
    with pytest.raises(RuntimeError, match=exact(LEAF_INPLACE)):
        LEAF_OPS[name](x)
    assert x.tolist() == [1.0, 2.0]
    assert x._version == 0
    assert x.is_leaf and x.grad_fn is None


def _setitem(x):
    x[0] = 5.0


@pytest.mark.parametrize(
    "op",
    [_setitem, lambda x: x[0:1].add_(1), lambda x: x.view(2).add_(1)],
    ids=["setitem", "slice_add_", "view_add_"],
)
def test_in_place_through_view_of_requiring_leaf_fails(op):
    x = leaf()
    with pytest.raises(RuntimeError, match=exact(VIEW_INPLACE)):
        op(x)
    assert x.tolist() == [1.0, 2.0]
    assert x._version == 0


def test_out_argument_with_requiring_input():
    x = leaf()
    out = torch.empty(2)
    msg = (
        "add(): functions with out=... arguments don't support automatic differentiation, "
        "but one of the arguments requires grad."
    )
    with pytest.raises(RuntimeError, match=exact(msg)):
        torch.add(x, 1, out=out)


def test_in_place_under_no_grad_keeps_leaf():
    x = leaf()
    with torch.no_grad():
        x.add_(1)
        x[0] = 10.0
        x.mul_(2)
    assert x._version == 3
    assert x.tolist() == [20.0, 6.0]
    assert (x.is_leaf, x.requires_grad, x.grad_fn) == (True, True, None)


def test_manual_sgd_update_pattern():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    (w * w).sum().backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
    assert repr(w) == "tensor([0.8000, 1.6000], requires_grad=True)"
    assert w.is_leaf


def _setitem0(y):
    y[0] = 0.0


def _iadd2(y):
    y += 1


def _isub(y):
    y -= 1


def _imul(y):
    y *= 2


def _idiv(y):
    y /= 2


NONLEAF_OPS = {
    "mul_": (lambda y: y.mul_(2), "MulBackward0"),
    "exp_": (lambda y: y.exp_(), "ExpBackward0"),
    "add_": (lambda y: y.add_(1), "AddBackward0"),
    "iadd": (_iadd2, "AddBackward0"),
    "isub": (_isub, "SubBackward0"),
    "imul": (_imul, "MulBackward0"),
    "idiv": (_idiv, "DivBackward0"),
    "zero_": (lambda y: y.zero_(), "ZeroBackward0"),
    "fill_": (lambda y: y.fill_(3.0), "FillBackward2"),
    "relu_": (lambda y: y.relu_(), "ReluBackward0"),
    "sigmoid_": (lambda y: y.sigmoid_(), "SigmoidBackward0"),
    "copy_": (lambda y: y.copy_(torch.ones(2)), "torch::autograd::CopyBackwards"),
    "setitem": (_setitem0, "torch::autograd::CopySlices"),
}


@pytest.mark.parametrize("name", sorted(NONLEAF_OPS))
def test_in_place_on_non_leaf_replaces_grad_fn(name):
    op, node = NONLEAF_OPS[name]
    x = leaf()
    y = x * 1
    op(y)
    assert y.grad_fn.name() == node
    assert not y.is_leaf and y.requires_grad
    assert y._version == 1


def test_setitem_grad_fn_repr_uses_class_name():
    y = leaf() * 1
    y[0] = 0.0
    assert repr(y) == "tensor([0., 2.], grad_fn=<CopySlices>)"


def test_in_place_on_non_leaf_gradient():
    x = leaf()
    z = x * 2
    z.add_(1)
    z.mul_(3)
    assert z.tolist() == [9.0, 15.0]
    z.sum().backward()
    assert x.grad.tolist() == [6.0, 6.0]


def test_in_place_with_requiring_operand_makes_plain_tensor_non_leaf():
    x = leaf()
    a = torch.zeros(2)
    a.add_(x)
    assert repr(a) == "tensor([1., 2.], grad_fn=<AddBackward0>)"
    assert not a.is_leaf
    a.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]


def test_setitem_with_requiring_value():
    x = leaf()
    b = torch.zeros(3)
    b[0] = x[0] * 3
    assert repr(b) == "tensor([3., 0., 0.], grad_fn=<CopySlices>)"
    b.sum().backward()
    assert x.grad.tolist() == [3.0, 0.0]


def test_modified_saved_output_of_sigmoid():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.sigmoid()
    y.mul_(2)
    msg = version_msg("torch.FloatTensor [3]", "Sigmoid", 1, 0)
    with pytest.raises(RuntimeError, match=exact(msg)):
        y.sum().backward()


@pytest.mark.parametrize(
    "dtype_name, text",
    [
        ("float64", "torch.DoubleTensor [3]"),
        ("float16", "torch.HalfTensor [3]"),
        ("bfloat16", "CPUBFloat16Type [3]"),
    ],
)
def test_version_message_names_the_tensor_type(dtype_name, text):
    x = torch.tensor(
        [1.0, 2.0, 3.0], dtype=getattr(torch, dtype_name), requires_grad=True
    )
    y = x.exp()
    y.add_(1)
    with pytest.raises(RuntimeError, match=exact(version_msg(text, "Exp", 1, 0))):
        y.sum().backward()


def test_version_message_for_complex_tensor():
    z = torch.tensor([1 + 1j, 2 - 1j], requires_grad=True)
    y = z.exp()
    y.mul_(2)
    msg = version_msg("CPUComplexFloatType [2]", "Exp", 1, 0)
    with pytest.raises(RuntimeError, match=exact(msg)):
        y.abs().sum().backward()


@pytest.mark.parametrize(
    "shape, text",
    [((2, 3), "torch.FloatTensor [2, 3]"), ((), "torch.FloatTensor []")],
    ids=["2d", "0d"],
)
def test_version_message_sizes(shape, text):
    x = torch.ones(shape, requires_grad=True)
    y = x.tanh()
    y.add_(1)
    with pytest.raises(RuntimeError, match=exact(version_msg(text, "Tanh", 1, 0))):
        y.sum().backward()


def test_saved_input_names_current_grad_fn():
    x = leaf()
    y = x * 1
    z = y * y
    y.add_(1)
    msg = version_msg("torch.FloatTensor [2]", "Add", 1, 0)
    with pytest.raises(RuntimeError, match=exact(msg)):
        z.sum().backward()


def test_saved_input_of_pow_with_tensor_exponent():
    x = leaf()
    y = x * 1
    z = y ** torch.tensor(2.0)
    y.mul_(3)
    msg = version_msg("torch.FloatTensor [2]", "Mul", 1, 0)
    with pytest.raises(RuntimeError, match=exact(msg)):
        z.sum().backward()


def test_saved_input_modified_through_setitem():
    x = leaf()
    y = x * 1
    z = y * y
    y[0] = 5.0
    msg = version_msg("torch.FloatTensor [2]", "torch::autograd::CopySlices", 1, 0)
    with pytest.raises(RuntimeError, match=exact(msg)):
        z.sum().backward()


def test_versions_count_every_bump():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.exp()
    y.add_(1)
    y.add_(1)
    with pytest.raises(
        RuntimeError, match=exact(version_msg("torch.FloatTensor [3]", "Exp", 2, 0))
    ):
        y.sum().backward()


def test_saved_after_one_in_place_then_modified_again():
    x = leaf()
    y = x * 1
    y.add_(1)
    z = y * y
    y.add_(1)
    msg = version_msg("torch.FloatTensor [2]", "Add", 2, 1)
    with pytest.raises(RuntimeError, match=exact(msg)):
        z.sum().backward()


def test_saved_leaf_modified_under_no_grad():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    z = (x * w).sum()
    with torch.no_grad():
        w.add_(1)
    msg = version_msg("torch.FloatTensor [2]", None, 1, 0)
    with pytest.raises(RuntimeError, match=exact(msg)):
        z.backward()


def test_modifying_unsaved_tensor_is_fine():
    x = leaf()
    y = x * 2
    y.add_(1)
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]


def test_in_place_on_a_view_overwrites_an_infinite_gradient():
    # CopySlices replaces the view's window of the base's gradient: an infinite gradient there
    # (sqrt at 0) gives 0 after relu's backward, not inf - inf (a program the fuzzer found)
    for create_graph in (False, True):
        x = torch.tensor([2.397, -2.938, 1.443, 1.975], requires_grad=True)
        v = (x - x).view(4)
        v.relu_()
        (g,) = torch.autograd.grad(v.sqrt().sin().sum(), [x], create_graph=create_graph)
        assert g.tolist() == [0.0, 0.0, 0.0, 0.0]
    base = torch.zeros(2, 3, requires_grad=True)
    b = base.clone()
    b[0].relu_()
    (g,) = torch.autograd.grad(b.sqrt().sum(), [base])
    assert g[0].tolist() == [0.0, 0.0, 0.0] and all(v == float("inf") for v in g[1].tolist())
