"""SPEC §4: retain_grad() and retains_grad."""

import leafgrad as torch
import pytest
from support import exact, nonleaf_warnings, record_warnings

CANT_RETAIN = "can't retain_grad on Tensor that has requires_grad=False"


def leaf():
    return torch.tensor([1.0, 2.0], requires_grad=True)


def test_retain_grad_returns_none_and_sets_flag():
    y = leaf() * 2
    assert not y.retains_grad
    assert y.retain_grad() is None
    assert y.retains_grad
    assert y.retain_grad() is None
    assert y.retains_grad


def test_retained_grad_accumulates_out_of_place():
    x = leaf()
    y = x * 3
    y.retain_grad()
    z = (y * y).sum()
    z.backward(retain_graph=True)
    first = y.grad
    assert first.tolist() == [6.0, 12.0]
    assert x.grad.tolist() == [18.0, 36.0]
    z.backward()
    assert y.grad.tolist() == [12.0, 24.0]
    assert x.grad.tolist() == [36.0, 72.0]
    assert y.grad is not first
    assert first.tolist() == [6.0, 12.0]


def test_retain_grad_on_requiring_leaf_is_a_no_op():
    x = leaf()
    assert x.retain_grad() is None
    assert not x.retains_grad
    (x * 2).sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]
    assert not x.retains_grad


@pytest.mark.parametrize(
    "make",
    [
        lambda: torch.tensor([1.0, 2.0]),
        lambda: torch.tensor([1, 2]),
        lambda: torch.tensor([1.0], requires_grad=True).detach(),
    ],
    ids=["plain", "int", "detached"],
)
def test_retain_grad_on_non_requiring_tensor_fails(make):
    t = make()
    with pytest.raises(RuntimeError, match=exact(CANT_RETAIN)):
        t.retain_grad()
    assert not t.retains_grad


def test_retain_grad_on_no_grad_result_fails():
    x = leaf()
    with torch.no_grad():
        ng = x * 2
    with pytest.raises(RuntimeError, match=exact(CANT_RETAIN)):
        ng.retain_grad()


def test_retain_grad_after_backward_applies_from_next_backward():
    x = leaf()
    y = x * 2
    loss = (y * y).sum()
    loss.backward(retain_graph=True)
    y.retain_grad()
    with record_warnings() as caught:
        assert y.grad is None
    assert nonleaf_warnings(caught) == []
    loss.backward()
    assert y.grad.tolist() == [4.0, 8.0]
    assert x.grad.tolist() == [16.0, 32.0]


def test_retained_grad_survives_in_place_op():
    x = leaf()
    y = x * 3
    y.retain_grad()
    y.mul_(3)
    assert y.retains_grad
    (y * y).sum().backward()
    # gradient with respect to the post-in-place value y = 9x
    assert y.grad.tolist() == [18.0, 36.0]
    assert x.grad.tolist() == [162.0, 324.0]


@pytest.mark.parametrize("retain_first", [True, False])
def test_retain_grad_capture_runs_after_all_hooks(retain_first):
    x = leaf()
    y = x * 2
    if retain_first:
        y.retain_grad()
        y.register_hook(lambda g: g * 0)
    else:
        y.register_hook(lambda g: g * 0)
        y.retain_grad()
    y.sum().backward()
    assert y.grad.tolist() == [0.0, 0.0]
    assert x.grad.tolist() == [0.0, 0.0]


def test_backward_inputs_with_non_leaf_turns_on_retains_grad():
    x = leaf()
    y = x * 2
    (y * y).sum().backward(inputs=[y])
    assert y.retains_grad
    assert y.grad.tolist() == [4.0, 8.0]
    assert x.grad is None


def test_summary_table():
    x = leaf()
    c = torch.tensor([1.0, 2.0])
    y = x * 2
    z = x * 3
    z.retain_grad()
    with torch.no_grad():
        ng = x * 4
    d = y.detach()
    (y.sum() + z.sum()).backward()

    def row(t):
        return (t.is_leaf, t.requires_grad, t.retains_grad)

    assert row(x) == (True, True, False)
    assert x.grad.tolist() == [5.0, 5.0]
    assert row(c) == (True, False, False) and c.grad is None
    assert row(y) == (False, True, False)
    with record_warnings() as caught:
        assert y.grad is None
    assert len(nonleaf_warnings(caught)) == 1
    assert row(z) == (False, True, True)
    assert z.grad.tolist() == [1.0, 1.0]
    assert row(ng) == (True, False, False) and ng.grad is None
    assert row(d) == (True, False, False) and d.grad is None
