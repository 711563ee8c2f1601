"""Exceptions inside hooks and inside backward leave the graph and the tensors consistent.

A hook that raises during backward: the very exception propagates (same type, same message,
the same object), `.grad` of the leaves is unchanged, grad mode is restored, and with
retain_graph=True a later backward over the same graph (hook removed) gives the right answer.
The same holds for errors the engine raises itself (bad hook results, freed graphs, in-place
modification of saved tensors, bad `gradient` arguments) and nothing leaks (arena back to its
baseline).
"""

import gc

import leafgrad as torch
import pytest
from support import leafgrad_only


class HookFailure(ValueError):
    pass


def raiser(message="boom"):
    err = HookFailure(message)
    calls = []

    def hook(*args):
        calls.append(args)
        raise err

    hook.err, hook.calls = err, calls
    return hook


def arena():
    s = torch._core._arena_stats()
    return (s["nodes"], s["tensors"])


def test_leaf_hook_raising_propagates_same_exception_and_grad_unchanged():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    hook = raiser("leaf hook failed")
    handle = x.register_hook(hook)
    y = (x * x).sum()
    with pytest.raises(HookFailure) as info:
        y.backward(retain_graph=True)
    assert info.value is hook.err and str(info.value) == "leaf hook failed"
    assert type(info.value) is HookFailure
    assert x.grad is None
    assert torch.is_grad_enabled()
    handle.remove()
    y.backward()
    assert x.grad.tolist() == [2.0, 4.0]


def test_leaf_hook_raising_keeps_previous_grad():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * 3).sum().backward()
    hook = raiser()
    handle = x.register_hook(hook)
    y = (x * x).sum()
    with pytest.raises(HookFailure):
        y.backward(retain_graph=True)
    assert x.grad.tolist() == [3.0, 3.0]
    handle.remove()
    y.backward()
    assert x.grad.tolist() == [5.0, 7.0]


def test_non_leaf_hook_raising_then_retained_backward_works():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    hook = raiser("non-leaf")
    handle = y.register_hook(hook)
    loss = (y * y).sum()
    for _ in range(2):  # the failure itself is repeatable: nothing was consumed
        with pytest.raises(HookFailure, match="^non-leaf$"):
            loss.backward(retain_graph=True)
        assert x.grad is None
    assert len(hook.calls) == 2
    handle.remove()
    loss.backward(retain_graph=True)
    assert x.grad.tolist() == [8.0, 16.0]
    loss.backward()
    assert x.grad.tolist() == [16.0, 32.0]


def test_hook_raising_only_once_then_succeeds():
    x = torch.tensor([1.0, -1.0], requires_grad=True)
    state = {"n": 0}

    def flaky(g):
        state["n"] += 1
        if state["n"] == 1:
            raise RuntimeError("transient")
        return g * 10

    x.register_hook(flaky)
    y = (x**3).sum()
    with pytest.raises(RuntimeError, match="^transient$"):
        y.backward(retain_graph=True)
    assert x.grad is None
    y.backward()
    assert x.grad.tolist() == [30.0, 30.0]


def test_hook_raising_in_autograd_grad_touches_nothing():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    hook = raiser("grad hook")
    handle = x.register_hook(hook)
    out = (x * w).sum()
    with pytest.raises(HookFailure):
        torch.autograd.grad(out, [x, w], retain_graph=True)
    assert x.grad is None and w.grad is None
    handle.remove()
    gx, gw = torch.autograd.grad(out, [x, w])
    assert gx.tolist() == [3.0, 4.0] and gw.tolist() == [1.0, 2.0]
    assert x.grad is None and w.grad is None


def test_hook_raising_under_create_graph_restores_grad_mode():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    hook = raiser()
    handle = x.register_hook(hook)
    y = (x**3).sum()
    for mode in (True, False):
        torch.set_grad_enabled(mode)
        try:
            with pytest.raises(HookFailure):
                torch.autograd.grad(y, x, create_graph=True)
            assert torch.is_grad_enabled() is mode
        finally:
            torch.set_grad_enabled(True)
    handle.remove()
    (g,) = torch.autograd.grad(y, x, create_graph=True)
    assert g.tolist() == [3.0, 12.0] and g.requires_grad


def test_hook_raising_base_exception_propagates_unchanged():
    x = torch.tensor([1.0], requires_grad=True)

    def interrupt(g):
        raise KeyboardInterrupt("stop")

    handle = x.register_hook(interrupt)
    y = (x * 2).sum()
    with pytest.raises(KeyboardInterrupt):
        y.backward(retain_graph=True)
    assert x.grad is None
    handle.remove()
    y.backward()
    assert x.grad.tolist() == [2.0]


def test_post_accumulate_grad_hook_raising_propagates():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    hook = raiser("post")
    handle = x.register_post_accumulate_grad_hook(hook)
    y = (x * 5).sum()
    with pytest.raises(HookFailure, match="^post$"):
        y.backward(retain_graph=True)
    assert hook.calls and hook.calls[0][0] is x
    # the hook runs after accumulation: the gradient is in place, exactly once
    assert x.grad.tolist() == [5.0, 5.0]
    handle.remove()
    y.backward()
    assert x.grad.tolist() == [10.0, 10.0]


def test_node_hooks_raising_propagate():
    for kind in ("prehook", "hook"):
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        hook = raiser(kind)
        register = (
            y.grad_fn.register_prehook if kind == "prehook" else y.grad_fn.register_hook
        )
        handle = register(hook)
        loss = y.sum()
        with pytest.raises(HookFailure, match=f"^{kind}$"):
            loss.backward(retain_graph=True)
        assert x.grad is None
        handle.remove()
        loss.backward()
        assert x.grad.tolist() == [2.0, 2.0]


def test_hook_raising_with_two_leaves_leaves_graph_reusable():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    hook = raiser()
    handle = a.register_hook(hook)
    loss = (a * b).sum()
    with pytest.raises(HookFailure):
        loss.backward(retain_graph=True)
    assert a.grad is None
    partial_b = None if b.grad is None else b.grad.tolist()
    assert partial_b in (None, [1.0, 2.0])  # engine order decides whether b was reached
    handle.remove()
    loss.backward()
    assert a.grad.tolist() == [3.0, 4.0]
    assert b.grad.tolist() == ([1.0, 2.0] if partial_b is None else [2.0, 4.0])


@pytest.mark.parametrize(
    "bad,exc,message",
    [
        (lambda g: g[:1], RuntimeError, "hook 'bad' has changed the size of value"),
        (
            lambda g: g.double(),
            RuntimeError,
            "hook 'bad' has changed the type of value",
        ),
        (lambda g: 2.0, TypeError, "expected Variable, but hook returned 'float'"),
    ],
    ids=["shape", "dtype", "type"],
)
def test_bad_hook_result_raises_and_graph_stays_usable(bad, exc, message):
    bad.__name__ = "bad"
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 4
    handle = y.register_hook(bad)
    loss = (y * x).sum()
    with pytest.raises(exc, match=message.replace("(", r"\(").replace(")", r"\)")):
        loss.backward(retain_graph=True)
    assert x.grad is None
    handle.remove()
    loss.backward()
    assert x.grad.tolist() == [8.0, 16.0]


def test_second_backward_error_leaves_grad_unchanged():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x.exp() * 2).sum()
    y.backward()
    before = x.grad.tolist()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.backward()
    assert x.grad.tolist() == before
    assert torch.is_grad_enabled()


def test_inplace_modification_error_leaves_grad_unchanged():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a = x * 1
    b = a.sigmoid()  # saves its result
    b.mul_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        b.sum().backward()
    assert x.grad is None
    c = x.sigmoid()
    c.sum().backward()
    assert x.grad is not None


def test_bad_gradient_argument_leaves_graph_reusable():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    with pytest.raises(RuntimeError, match="Mismatch in shape"):
        y.backward(torch.ones(3))
    with pytest.raises(
        RuntimeError, match="implicitly created only for scalar outputs"
    ):
        y.backward()
    assert x.grad is None
    y.backward(torch.ones(2))  # the graph was not consumed by the failed calls
    assert x.grad.tolist() == pytest.approx([2.718281828, 7.389056099])


def test_exception_in_hook_of_one_of_several_outputs():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y1 = x * 2
    y2 = x * 3
    hook = raiser("y2")
    handle = y2.register_hook(hook)
    with pytest.raises(HookFailure):
        torch.autograd.backward([y1.sum(), y2.sum()], retain_graph=True)
    assert x.grad is None
    handle.remove()
    torch.autograd.backward([y1.sum(), y2.sum()])
    assert x.grad.tolist() == [5.0, 5.0]


@leafgrad_only
def test_failed_backward_leaks_nothing():
    # The hook raises a fresh exception each time. (A hook that closes over the exception object
    # it raises makes a cycle graph -> hook -> exception -> traceback -> frame -> graph through
    # native references that no collector can see; torch leaks that one too.)
    def hook(g):
        raise HookFailure("fresh")

    gc.collect()
    start = arena()
    for i in range(50):
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        h = x
        for _ in range(20):
            h = (h * 1.01).tanh()
        (x if i % 2 else h).register_hook(hook)
        loss = h.sum()
        with pytest.raises(HookFailure):
            loss.backward(retain_graph=bool(i % 3))
        del x, h, loss
    gc.collect()
    assert arena() == start


def test_hook_exception_traceback_points_at_the_hook():
    x = torch.tensor([1.0], requires_grad=True)

    def failing_hook(g):
        raise HookFailure("traced")

    x.register_hook(failing_hook)
    with pytest.raises(HookFailure) as info:
        (x * 2).sum().backward()
    names = [entry.name for entry in info.traceback]
    assert "failing_hook" in names


def test_backward_inside_a_hook_that_then_raises():
    """A hook runs a complete backward of another graph, then raises: both graphs stay sane."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    z = torch.tensor([5.0], requires_grad=True)

    def nested(g):
        assert (
            not torch.is_grad_enabled()
        )  # hooks run in backward's grad mode (create_graph=False)
        with torch.enable_grad():
            (z * z).sum().backward()
        raise HookFailure("after nested")

    handle = x.register_hook(nested)
    y = (x * x).sum()
    with pytest.raises(HookFailure, match="after nested"):
        y.backward(retain_graph=True)
    assert z.grad.tolist() == [10.0]
    assert x.grad is None
    handle.remove()
    y.backward()
    assert x.grad.tolist() == [2.0, 4.0]
