"""`torch.autograd.graph.register_multi_grad_hook`: "all" calls the hook once per backward pass
with the gradients of the tensors the pass reaches (None for the others), "any" once with the
first gradient; the behaviour checked against PyTorch 2.15 (also run against it with
LEAFGRAD_TEST_TORCH=1)."""
from functools import partial

import pytest

import leafgrad as torch
import leafgrad.nn as nn


class _Clone(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a.clone()

    @staticmethod
    def backward(ctx, g):
        return g


class _Fails(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, g):
        raise RuntimeError("error message")


def test_all_mode_counts_only_the_tensors_the_pass_reaches():
    t1 = torch.rand(2, requires_grad=True).mul(2)
    t2 = _Clone.apply(torch.rand(2, requires_grad=True))
    t3 = torch.rand(2, requires_grad=True)
    t4 = torch.rand(2, requires_grad=True)
    calls = []
    handle = torch.autograd.graph.register_multi_grad_hook(
        (t1, t2, t3, t4), lambda grads: calls.append([g is not None for g in grads]))
    out = t2 * t3
    out.sum().backward(inputs=(t2, t3), retain_graph=True)
    assert calls == [[False, True, True, False]]
    out.sum().backward(inputs=(t1, t4), retain_graph=True)  # reaches none of them
    assert len(calls) == 1
    out.sum().backward(inputs=(t1, t3), retain_graph=True)
    assert calls[-1] == [False, False, True, False]
    failing = _Fails.apply(t2) * t3
    with pytest.raises(RuntimeError, match="error message"):
        failing.sum().backward(inputs=(t2, t3), retain_graph=True)
    assert len(calls) == 2
    handle.remove()
    out.sum().backward(inputs=(t1, t3), retain_graph=True)
    assert len(calls) == 2


def test_all_mode_in_a_plain_backward():
    a = torch.ones(2, requires_grad=True)
    b = torch.ones(2, requires_grad=True)
    c = torch.ones(2, requires_grad=True)
    seen = []
    torch.autograd.graph.register_multi_grad_hook(
        (a, b, c), lambda gs: seen.append([None if g is None else g.tolist() for g in gs]))
    (a * 2 + b * 3).sum().backward()
    (c * 5).sum().backward()
    assert seen == [[[2.0, 2.0], [3.0, 3.0], None], [None, None, [5.0, 5.0]]]
    with pytest.raises(RuntimeError) as info:
        torch.autograd.grad((a * b).sum(), (a,))
    assert str(info.value) == ("A leaf node was passed to _will_engine_execute_node but we are "
                               "currently running autograd.grad(). This is currently not supported.")


def test_invalid_mode():
    a = torch.rand(2, requires_grad=True)
    with pytest.raises(ValueError) as info:
        torch.autograd.graph.register_multi_grad_hook((a, a), lambda _: None, mode="foo")
    assert str(info.value) == "Expects mode to be one of ('all', 'any') but got foo"


def test_any_mode_runs_once_before_the_inputs_hooks():
    order, handles = [], []
    ids = iter(range(100))

    def hook(i, *unused):
        order.append(i)

    class Two(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(3, 3)

        def forward(self, x):
            z = self.lin(x)
            out = torch.sin(z), torch.cos(z)
            z.register_hook(partial(hook, next(ids)))
            handles.append(torch.autograd.graph.register_multi_grad_hook(out, partial(hook, next(ids)), mode="any"))
            return out

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.a, self.b = Two(), Two()

        def forward(self, x):
            y = self.a(x)
            return self.b(y[0] + y[1])

    model = Model()
    x = torch.randn(2, 3)
    out = model(x)
    (out[0] + out[1]).sum().backward()
    assert order == [3, 2, 1, 0]
    order.clear()
    ids = iter(range(100))
    handles.clear()
    out = model(x)
    for h in handles:
        h.remove()
    (out[0] + out[1]).sum().backward()
    assert order == [2, 0]
