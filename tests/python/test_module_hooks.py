"""Module hooks beyond plain forward hooks: full backward hooks and pre-hooks, forward hooks
with kwargs and always_call, as PyTorch 2.15 calls them (this file also runs against it with
LEAFGRAD_TEST_TORCH=1)."""
import pytest

import leafgrad as torch


def _lin():
    torch.manual_seed(0)
    return torch.nn.Linear(3, 2)


def test_full_backward_hook_and_pre_hook_see_the_gradients():
    lin = _lin()
    log = []
    lin.register_full_backward_pre_hook(lambda m, go: log.append(("pre", [tuple(g.shape) for g in go])))
    lin.register_full_backward_hook(
        lambda m, gi, go: log.append(("hook", [None if g is None else tuple(g.shape) for g in gi],
                                      [tuple(g.shape) for g in go])))
    x = torch.randn(4, 3, requires_grad=True)
    lin(x).sum().backward()
    assert log == [("pre", [(4, 2)]), ("hook", [(4, 3)], [(4, 2)])]
    # the hooks do not change the gradient
    assert torch.allclose(x.grad, lin.weight.detach().sum(0).expand(4, 3))
    log.clear()
    # no input requires grad: the hook is called with grad_input (None,)
    lin(torch.randn(4, 3)).sum().backward()
    assert log == [("pre", [(4, 2)]), ("hook", [None], [(4, 2)])]


def test_hooks_can_replace_gradients():
    torch.manual_seed(0)
    m = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ReLU(), torch.nn.Linear(3, 1))
    x = torch.randn(2, 3, requires_grad=True)
    m(x).sum().backward()
    plain = x.grad.clone()
    x.grad = None
    m[1].register_full_backward_hook(lambda mod, gi, go: (gi[0] * 2,))
    m(x).sum().backward()
    assert torch.allclose(x.grad, plain * 2)
    lin = _lin()
    lin.register_full_backward_pre_hook(lambda mod, go: (go[0] * 0,))
    y = torch.ones(1, 3, requires_grad=True)
    lin(y).sum().backward()
    assert y.grad.tolist() == [[0.0, 0.0, 0.0]]


def test_wrong_number_of_gradients():
    lin = _lin()
    lin.register_full_backward_hook(lambda m, gi, go: (None, None))
    with pytest.raises(RuntimeError, match="^Backward hook returned an invalid number of grad_input, got 2, but expected 1$"):
        lin(torch.ones(1, 3, requires_grad=True)).sum().backward()
    lin = _lin()
    lin.register_full_backward_pre_hook(lambda m, go: (None, None))
    with pytest.raises(RuntimeError, match="^Backward pre hook returned an invalid number of grad_output, got 2, but expected 1$"):
        lin(torch.ones(1, 3, requires_grad=True)).sum().backward()


def test_forward_hooks_with_kwargs_and_always_call():
    lin = _lin()

    def pre(mod, args, kwargs):
        return (args[0] * 2,), kwargs

    lin.register_forward_pre_hook(pre, with_kwargs=True)
    lin.register_forward_hook(lambda mod, args, kwargs, out: out + 1, with_kwargs=True)
    x = torch.ones(1, 3)
    expected = (x * 2) @ lin.weight.detach().t() + lin.bias.detach() + 1
    assert torch.allclose(lin(x).detach(), expected)
    lin.register_forward_pre_hook(lambda mod, args, kwargs: 5, with_kwargs=True)
    with pytest.raises(RuntimeError, match="forward pre-hook must return None or a tuple of \\(new_args, new_kwargs\\), but got 5."):
        lin(x)

    class Bad(torch.nn.Module):
        def forward(self, x):
            raise ValueError("boom")

    seen = []
    b = Bad()
    handle = b.register_forward_hook(lambda m, a, o: seen.append(o), always_call=True)
    with pytest.raises(ValueError, match="boom"):
        b(torch.ones(1))
    assert seen == [None]
    handle.remove()
    with pytest.raises(ValueError):
        b(torch.ones(1))
    assert seen == [None]
