"""torch.utils.checkpoint: gradients equal to the unchecked ones, recomputation in backward,
random state and grad mode preserved, PyTorch's errors and warnings (texts recorded from torch
2.15; with LEAFGRAD_TEST_TORCH=1 the same tests run against it)."""
import pytest
from support import exact, leafgrad_only, record_warnings, warning_texts

import leafgrad as torch
from leafgrad.utils.checkpoint import CheckpointError, checkpoint, checkpoint_sequential, set_checkpoint_early_stop

MODES = [False, True]


def inputs():
    return (torch.tensor([1.0, 2.0, -0.5], requires_grad=True), torch.tensor([0.5, -1.0, 2.0], requires_grad=True))


def block(a, b):
    return ((a * b).sin() * a.exp()).tanh()


@pytest.mark.parametrize("reentrant", MODES)
def test_gradients_match_the_unchecked_block(reentrant):
    a, b = inputs()
    block(a, b).sum().backward()
    expected = (a.grad.clone(), b.grad.clone())
    a.grad = b.grad = None
    y = checkpoint(block, a, b, use_reentrant=reentrant)
    assert str(y) == str(block(a, b).detach()).replace(")", f", grad_fn=<{'CheckpointFunctionBackward' if reentrant else 'TanhBackward0'}>)")
    y.sum().backward()
    assert torch.equal(a.grad, expected[0]) and torch.equal(b.grad, expected[1])


@pytest.mark.parametrize("reentrant", MODES)
def test_block_runs_again_in_backward(reentrant):
    calls = []

    def f(a):
        calls.append("run")
        return (a * a).sum()

    a, _ = inputs()
    y = checkpoint(f, a, use_reentrant=reentrant)
    assert calls == ["run"]
    y.backward()
    assert calls == ["run", "run"]
    assert a.grad.tolist() == [2.0, 4.0, -1.0]


def test_non_reentrant_works_with_grad_and_create_graph():
    a, b = inputs()
    ga, gb = torch.autograd.grad(checkpoint(block, a, b, use_reentrant=False).sum(), (a, b))
    ea, eb = torch.autograd.grad(block(a, b).sum(), (a, b))
    assert torch.equal(ga, ea) and torch.equal(gb, eb)
    (g,) = torch.autograd.grad(checkpoint(lambda t: (t ** 3).sum(), a, use_reentrant=False), a, create_graph=True)
    assert str(g) == "tensor([ 3.0000, 12.0000,  0.7500], grad_fn=<MulBackward0>)"
    g.sum().backward()
    assert a.grad.tolist() == [6.0, 12.0, -3.0]


def test_reentrant_refuses_grad():
    a, b = inputs()
    msg = (
        "When use_reentrant=True, torch.utils.checkpoint is incompatible with .grad() or passing an "
        "`inputs` parameter to .backward(). To resolve this error, you can either set "
        "use_reentrant=False, or call .backward() without passing the `inputs` argument."
    )
    with pytest.raises(RuntimeError, match=exact(msg)):
        torch.autograd.grad(checkpoint(block, a, b, use_reentrant=True).sum(), a)


@pytest.mark.parametrize("reentrant", MODES)
def test_random_state_is_replayed_in_the_recomputation(reentrant):
    def f(a):
        return torch.nn.functional.dropout(a * 2, 0.5, training=True) * a

    a = torch.ones(40, requires_grad=True)
    torch.manual_seed(3)
    f(a).sum().backward()
    expected = a.grad.clone()
    a.grad = None
    torch.manual_seed(3)
    checkpoint(f, a, use_reentrant=reentrant).sum().backward()
    assert torch.equal(a.grad, expected)


def test_nested_checkpoints():
    a, b = inputs()

    def inner(t):
        return (t * t).sin()

    def outer(t, u):
        return checkpoint(inner, t * u, use_reentrant=False).exp()

    checkpoint(outer, a, b, use_reentrant=False).sum().backward()
    ga, gb = a.grad.clone(), b.grad.clone()
    a.grad = b.grad = None
    outer(a, b).sum().backward()
    assert torch.allclose(ga, a.grad) and torch.allclose(gb, b.grad)


def test_recomputation_stops_early_unless_told_not_to():
    seen = []

    def f(a):
        b = a.exp()  # the only saved tensor
        seen.append("after exp")
        return b * 2

    a, _ = inputs()
    checkpoint(f, a, use_reentrant=False).sum().backward()
    assert seen == ["after exp"]
    seen.clear()
    with set_checkpoint_early_stop(False):
        y = checkpoint(f, a, use_reentrant=False)
    y.sum().backward()
    assert seen == ["after exp", "after exp"]


def test_recomputation_that_differs_is_refused():
    state = {"n": 0}

    def shape_changes(a):
        state["n"] += 1
        t = (a * 1) if state["n"] == 1 else (a * 1).repeat(2)
        return t.exp().sum()

    a, _ = inputs()
    y = checkpoint(shape_changes, a, use_reentrant=False)
    with pytest.raises(CheckpointError) as e:
        y.backward()
    assert str(e.value).startswith(
        "torch.utils.checkpoint: Recomputed values for the following tensors have different metadata "
        "than during the forward pass.\ntensor at position 0:\nsaved metadata: {'shape': torch.Size([3]), "
        "'dtype': torch.float32, 'device': device(type='cpu')}\nrecomputed metadata: {'shape': "
        "torch.Size([6]), 'dtype': torch.float32, 'device': device(type='cpu')}\n"
    )
    assert isinstance(e.value, RuntimeError)
    # without the check, the mismatch surfaces in the formulas instead
    state["n"] = 0
    y = checkpoint(shape_changes, a, use_reentrant=False, determinism_check="none")
    msg = "The size of tensor a (3) must match the size of tensor b (6) at non-singleton dimension 0"
    with pytest.raises(RuntimeError, match=exact(msg)):
        y.backward()


def test_warnings_and_argument_errors():
    a, b = inputs()
    with record_warnings() as caught:
        checkpoint(block, a, b)
    assert warning_texts(caught, UserWarning) == [
        "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. In a future "
        "release, calling checkpoint without use_reentrant will raise an exception. use_reentrant=False "
        "is recommended, but if you need to preserve the current default behavior, you can pass "
        "use_reentrant=True. Refer to docs for more details on the differences between the two variants."
    ]
    with pytest.raises(ValueError, match=exact("Unexpected keyword arguments: scale")):
        checkpoint(block, a, b, use_reentrant=True, scale=2)
    assert checkpoint(lambda t, scale=1: t * scale, a, scale=3, use_reentrant=False).tolist() == [3.0, 6.0, -1.5]
    with record_warnings() as caught:
        out = checkpoint(lambda t: t.exp(), torch.ones(2), use_reentrant=True)
    assert warning_texts(caught, UserWarning) == ["None of the inputs have requires_grad=True. Gradients will be None"]
    assert not out.requires_grad


def test_checkpoint_sequential():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2))
    x = torch.ones(2, 3, requires_grad=True)
    model(x).sum().backward()
    expected = [p.grad.clone() for p in model.parameters()] + [x.grad.clone()]
    model.zero_grad()
    x.grad = None
    for reentrant in MODES:
        checkpoint_sequential(model, 2, x, use_reentrant=reentrant).sum().backward()
        got = [p.grad for p in model.parameters()] + [x.grad]
        assert all(torch.allclose(g, e) for g, e in zip(got, expected))
        model.zero_grad()
        x.grad = None


@leafgrad_only
def test_non_reentrant_keeps_no_intermediates():
    import gc

    import leafgrad._core as core

    def deep(t):
        for _ in range(20):
            t = t.sin().exp()
        return t.sum()

    a = torch.ones(1000, requires_grad=True)
    gc.collect()
    base = core._arena_stats()["tensors"]
    plain = deep(a)
    plain_live = core._arena_stats()["tensors"] - base
    del plain
    gc.collect()
    base = core._arena_stats()["tensors"]
    checked = checkpoint(deep, a, use_reentrant=False)
    checked_live = core._arena_stats()["tensors"] - base
    assert plain_live >= 40 and checked_live <= 2, (checked_live, plain_live)
    checked.backward()


def test_early_stop_argument_and_its_override():
    # the clone saves nothing, so an early-stopping recomputation never reaches it
    calls = []

    def fn(x):
        y = x.sin().cos()
        calls.append(1)
        return y.clone()

    def run(**kw):
        calls.clear()
        a = torch.tensor(1.0, requires_grad=True)
        checkpoint(fn, a, use_reentrant=False, **kw).backward()
        return len(calls)

    assert run() == 1
    assert run(early_stop=False) == 2
    assert run(early_stop=True) == 1
    # set_checkpoint_early_stop wins over the argument, for checkpoints made under it
    with torch.utils.checkpoint.set_checkpoint_early_stop(False):
        assert run(early_stop=True) == 2
    with torch.utils.checkpoint.set_checkpoint_early_stop(True):
        assert run(early_stop=False) == 1


def test_graph_exec_group_recomputes_once_for_several_backward_calls():
    import contextlib

    def run(use_group):
        counter = [0]

        def fn(x):
            counter[0] += 1
            y = x.sin().cos()
            return y, y.sin().cos()

        x = torch.randn(3, 3, requires_grad=True)
        y, z = checkpoint(fn, x, use_reentrant=False)
        with torch.utils.checkpoint.GraphExecGroup() if use_group else contextlib.nullcontext():
            (gy,) = torch.autograd.grad(z, inputs=(y,), grad_outputs=(torch.ones(3, 3),))
            torch.autograd.grad(y, inputs=(x,), grad_outputs=(gy,))
        return counter[0]

    assert run(True) == 2 and run(False) == 3
    x = torch.randn(3, 3, requires_grad=True)
    out = checkpoint(lambda t: t.sin().cos(), x, use_reentrant=False)
    with torch.utils.checkpoint.GraphExecGroup():
        out.sum().backward(retain_graph=True)
        with pytest.raises(RuntimeError, match="Performing two backward calls that overlap"):
            out.sum().backward()
        with pytest.raises(RuntimeError, match="GraphExecGroup contexts cannot be nested"):
            with torch.utils.checkpoint.GraphExecGroup():
                pass
