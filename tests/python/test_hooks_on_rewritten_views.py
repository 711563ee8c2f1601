"""Tensor hooks and retain_grad on views written in place (directly or through a sibling view).

PyTorch's CopySlices sends the in-place op's gradient for the view's old value straight into the
window of the base's gradient, so hooks on the view's old node see only what other uses of the
old value send; a hook or retain_grad registered after the write goes on the view's current
history, refreshed first when a sibling wrote the base. Recorded from torch 2.15; with
LEAFGRAD_TEST_TORCH=1 the same tests run against torch.
"""
import pytest

import leafgrad as torch


def two_views():
    base = torch.tensor([1.0], requires_grad=True).clone()
    return base[:], base[:]


def test_hooks_on_the_old_view_node_do_not_fire_for_the_write():
    calls = []
    view, view2 = two_views()
    view.register_hook(lambda g: calls.append(("fn0", g.tolist())))
    view2.register_hook(lambda g: calls.append(("fn1", g.tolist())))
    view.mul_(2)
    view2.grad_fn
    view2.register_hook(lambda g: calls.append(("fn2", g.tolist())))
    (view + view2).sum().backward()
    assert calls == [("fn2", [1.0])]


def test_a_hook_registered_on_a_stale_sibling_goes_on_its_current_history():
    calls = []
    view, view2 = two_views()
    view.register_hook(lambda g: calls.append(("before", g.tolist())))
    view.mul_(2)
    view.register_hook(lambda g: calls.append(("after", g.tolist())))
    view2.register_hook(lambda g: calls.append(("sibling", g.tolist())))
    (view * 3 + view2).sum().backward()
    assert calls == [("sibling", [1.0]), ("after", [3.0])]


def test_the_old_node_sees_only_the_other_uses_of_the_old_value():
    calls = []
    base = torch.tensor([1.0, 2.0], requires_grad=True).clone()
    view = base[:1]
    view.register_hook(lambda g: calls.append(g.tolist()))
    z = view * 3
    view.mul_(2)
    view.retain_grad()
    (z + view * 5).sum().backward()
    assert calls == [[3.0]]
    assert view.grad.tolist() == [5.0]


def test_retain_grad_on_a_stale_sibling():
    leaf = torch.tensor([1.0], requires_grad=True)
    v1, v2 = two_views_of(leaf)
    v1.mul_(2)
    v2.retain_grad()
    (v2 * 7).sum().backward()
    assert v2.grad.tolist() == [7.0]
    assert leaf.grad.tolist() == [14.0]


def two_views_of(leaf):
    base = leaf.clone()
    return base[:], base[:]


def test_a_view_without_history_whose_base_came_to_require_grad_is_a_leaf():
    # PyTorch's is_leaf reads the view's grad_fn before any refresh: a view made while its
    # base did not require grad has none, so writing into it is the leaf error
    x = torch.ones(3, requires_grad=True)
    base = torch.ones(2, 2)
    view = base.t()
    base.mul_(x[:2])
    with pytest.raises(RuntimeError, match="^a leaf Variable that requires grad is being used"):
        view.mul_(2)
    base = torch.ones(2, 2)
    view = base.t()
    base.mul_(x[:2])
    assert view.grad_fn is not None  # asking for it gives the view a history
    view.mul_(2)
