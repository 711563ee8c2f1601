"""engine::composite (`_core._composite`), the one place where a backward re-runs its forward
and differentiates it with a nested engine pass (kept for activation checkpointing, which
will reuse it; no op of the package uses it any more): one node, right to any order."""
import pytest
from support import USING_TORCH

import leafgrad as torch

pytestmark = pytest.mark.skipif(USING_TORCH, reason="a leafgrad internal")


def test_a_composite_is_one_node_differentiable_to_any_order():
    from leafgrad import _core

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = _core._composite("CubeBackward0", lambda t: t * t * t, [x])
    assert y.grad_fn.name() == "CubeBackward0" and y.tolist() == [1.0, 8.0]
    (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
    assert g.tolist() == [3.0, 12.0] and g.requires_grad
    (gg,) = torch.autograd.grad(g.sum(), x)
    assert gg.tolist() == [6.0, 12.0]


def test_each_use_of_an_input_gets_its_own_share():
    from leafgrad import _core

    x = torch.tensor([3.0], requires_grad=True)
    y = _core._composite("ProductBackward0", lambda a, b: a * b, [x, x * 2])
    y.backward()
    # d(x · 2x)/dx = 4x
    assert x.grad.tolist() == [12.0]
