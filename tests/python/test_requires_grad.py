"""SPEC §2: requires_grad propagation and mutation."""

import leafgrad as torch
import pytest
from support import exact

NONLEAF_SHORT = "you can only change requires_grad flags of leaf variables."
NONLEAF_LONG = (
    "you can only change requires_grad flags of leaf variables. If you want to use a computed "
    "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach()."
)


def leaf():
    return torch.tensor([1.0, 2.0], requires_grad=True)


def test_result_requires_grad_is_or_of_inputs():
    x = leaf()
    y = torch.tensor([3.0, 4.0])
    assert (x * y).requires_grad
    assert (y + x).requires_grad
    assert not (y * y).requires_grad


def test_requires_grad_method_returns_self_and_defaults_to_true():
    t = torch.tensor([1.0, 2.0])
    assert t.requires_grad_() is t
    assert t.requires_grad
    assert t.requires_grad_(False) is t
    assert not t.requires_grad
    assert t.requires_grad_(True) is t
    assert t.requires_grad and t.is_leaf


def test_attribute_accepts_real_bools():
    t = torch.tensor([1.0])
    t.requires_grad = True
    assert t.requires_grad
    t.requires_grad = False
    assert not t.requires_grad


@pytest.mark.parametrize("value", ["x", 1, None], ids=["str", "int", "None"])
def test_attribute_rejects_non_bool(value):
    t = torch.tensor([1.0])
    with pytest.raises(RuntimeError, match=exact("requires_grad must be a bool")):
        t.requires_grad = value
    assert not t.requires_grad


@pytest.mark.parametrize("value, tname", [(1, "int"), ("x", "str")])
def test_method_rejects_non_bool(value, tname):
    t = torch.tensor([1.0])
    msg = f"requires_grad_(): argument 'requires_grad' (position 1) must be bool, not {tname}"
    with pytest.raises(TypeError, match=exact(msg)):
        t.requires_grad_(value)


def test_non_leaf_requires_grad_true_is_a_no_op():
    y = leaf() * 2
    assert y.requires_grad_(True) is y
    assert y.requires_grad_() is y
    assert y.requires_grad and not y.is_leaf


def test_non_leaf_attribute_true_fails_with_short_message():
    y = leaf() * 2
    with pytest.raises(RuntimeError, match=exact(NONLEAF_SHORT)):
        y.requires_grad = True


def test_non_leaf_method_false_fails_with_long_message():
    y = leaf() * 2
    with pytest.raises(RuntimeError, match=exact(NONLEAF_LONG)):
        y.requires_grad_(False)
    assert y.requires_grad


def test_non_leaf_attribute_false_fails_with_long_message():
    y = leaf() * 2
    with pytest.raises(RuntimeError, match=exact(NONLEAF_LONG)):
        y.requires_grad = False
    assert y.requires_grad and not y.is_leaf


def test_turning_requires_grad_off_keeps_existing_grad():
    x = torch.tensor([1.0], requires_grad=True)
    (x * 2).sum().backward()
    x.requires_grad_(False)
    assert x.grad.tolist() == [2.0]
    x.requires_grad = True
    assert x.grad.tolist() == [2.0]


def test_leaf_toggles_both_ways_with_both_forms():
    x = leaf()
    x.requires_grad = False
    assert not x.requires_grad and x.is_leaf
    x.requires_grad_()
    assert x.requires_grad and x.is_leaf
    assert (x * 2).requires_grad


def test_no_grad_result_can_be_switched_on():
    x = leaf()
    with torch.no_grad():
        z = x * 2
    assert z.requires_grad_() is z
    assert z.requires_grad and z.is_leaf and z.grad_fn is None
    (z * 3).sum().backward()
    assert z.grad.tolist() == [3.0, 3.0]
    assert x.grad is None


def test_view_of_non_requiring_base_is_leaf_and_can_be_switched_on():
    base = torch.tensor([1.0, 2.0, 3.0])
    v = base[:2]
    assert v.is_leaf
    v.requires_grad_()
    assert v.requires_grad and v.is_leaf


def test_int_tensor_method():
    msg = "only Tensors of floating point dtype can require gradients"
    with pytest.raises(RuntimeError, match=exact(msg)):
        torch.tensor([1, 2]).requires_grad_()


def test_bool_tensor_method():
    msg = "only Tensors of floating point dtype can require gradients"
    with pytest.raises(RuntimeError, match=exact(msg)):
        torch.tensor([True, False]).requires_grad_()


def test_int_tensor_attribute():
    t = torch.tensor([1, 2])
    msg = "only Tensors of floating point and complex dtype can require gradients"
    with pytest.raises(RuntimeError, match=exact(msg)):
        t.requires_grad = True
    assert not t.requires_grad


def test_int_tensor_factory_kwarg():
    msg = "Only Tensors of floating point and complex dtype can require gradients"
    with pytest.raises(RuntimeError, match=exact(msg)):
        torch.tensor([1, 2], requires_grad=True)


def test_int_tensor_setting_false_is_fine():
    t = torch.tensor([1, 2])
    assert t.requires_grad_(False) is t
    t.requires_grad = False
    assert not t.requires_grad


def test_complex_tensor_accepts_requires_grad_method():
    z = torch.tensor([1 + 2j, 3 - 1j])
    assert z.requires_grad_() is z
    assert z.requires_grad and z.is_leaf


def test_int32_attribute_uses_same_message():
    t = torch.tensor([1, 2], dtype=torch.int32)
    msg = "only Tensors of floating point and complex dtype can require gradients"
    with pytest.raises(RuntimeError, match=exact(msg)):
        t.requires_grad = True
