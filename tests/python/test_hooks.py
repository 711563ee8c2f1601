"""SPEC §11: tensor hooks, post-accumulate-grad hooks and node hooks."""

import re

import leafgrad as torch
import pytest
from support import exact

NO_RG_HOOK = "cannot register a hook on a tensor that doesn't require gradient"


def leaf():
    return torch.tensor([1.0, 2.0], requires_grad=True)


def test_register_hook_returns_removable_handle():
    x = leaf()
    h = x.register_hook(lambda g: None)
    assert type(h).__name__ == "RemovableHandle"
    assert re.fullmatch(
        r"<torch\.utils\.hooks\.RemovableHandle object at 0x[0-9a-f]+>", repr(h)
    )


def test_hook_called_once_with_summed_gradient():
    x = leaf()
    calls = []
    x.register_hook(lambda g: calls.append(g.tolist()))
    (x * 2 + x * 3).sum().backward()
    assert calls == [[5.0, 5.0]]
    assert x.grad.tolist() == [5.0, 5.0]


def test_hook_returning_none_leaves_gradient_unchanged():
    x = leaf()
    x.register_hook(lambda g: None)
    (x * 3).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]


def test_leaf_hook_replaces_accumulated_value():
    x = leaf()
    x.register_hook(lambda g: g * 10)
    (x * 3).sum().backward()
    assert x.grad.tolist() == [30.0, 30.0]


def test_non_leaf_hook_replaces_gradient_downstream():
    x = leaf()
    y = x * 2
    y.register_hook(lambda g: g + 100)
    assert not y.retains_grad
    (y * y).sum().backward()
    # dL/dy = 2y = [4, 8]; +100 -> [104, 108]; dy/dx = 2
    assert x.grad.tolist() == [208.0, 216.0]
    assert not y.retains_grad


def test_hooks_run_in_registration_order():
    x = leaf()
    y = x * 2
    y.register_hook(lambda g: g * 2)
    y.register_hook(lambda g: g + 1)
    y.sum().backward()
    assert x.grad.tolist() == [6.0, 6.0]


def test_hooks_see_previous_result():
    x = leaf()
    seen = []
    x.register_hook(lambda g: g * 3)
    x.register_hook(lambda g: seen.append(g.tolist()))
    x.sum().backward()
    assert seen == [[3.0, 3.0]]


def test_remove_unregisters_and_is_idempotent():
    x = leaf()
    h = x.register_hook(lambda g: g * 10)
    h.remove()
    h.remove()
    (x * 1).sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]


def test_removing_one_of_several_hooks():
    x = torch.tensor([2.0, 3.0], requires_grad=True)
    calls = []
    y = x * x
    h1 = y.register_hook(lambda g: calls.append("h1") or g * 10)
    y.register_hook(lambda g: calls.append("h2"))
    h1.remove()
    y.sum().backward()
    assert calls == ["h2"]
    assert x.grad.tolist() == [4.0, 6.0]


def test_hook_registered_inside_no_grad_fires():
    x = leaf()
    calls = []
    with torch.no_grad():
        x.register_hook(lambda g: calls.append(1))
    (x * 2).sum().backward()
    assert calls == [1]


def test_hook_on_non_requiring_tensor():
    c = torch.tensor([1.0, 2.0])
    with pytest.raises(RuntimeError, match=exact(NO_RG_HOOK)):
        c.register_hook(lambda g: g)


def test_hook_changing_size_lambda():
    x = leaf()
    x.register_hook(lambda g: torch.ones(3))
    with pytest.raises(
        RuntimeError, match=exact("hook '<lambda>' has changed the size of value")
    ):
        (x * 2).sum().backward()
    assert x.grad is None


def test_hook_changing_size_uses_function_name():
    def myhook(g):
        return torch.ones(3)

    x = leaf()
    x.register_hook(myhook)
    with pytest.raises(
        RuntimeError, match=exact("hook 'myhook' has changed the size of value")
    ):
        (x * 2).sum().backward()


def test_hook_changing_dtype():
    x = leaf()
    x.register_hook(lambda g: g.double())
    msg = "hook '<lambda>' has changed the type of value (was torch.FloatTensor got torch.DoubleTensor)"
    with pytest.raises(RuntimeError, match=exact(msg)):
        (x * 2).sum().backward()


def test_hook_returning_non_tensor():
    x = leaf()
    x.register_hook(lambda g: 1.5)
    with pytest.raises(
        TypeError, match=exact("expected Variable, but hook returned 'float'")
    ):
        (x * 2).sum().backward()


def test_post_accumulate_grad_hook_receives_tensor_after_accumulation():
    x = leaf()
    seen = []

    def hook(t):
        seen.append((t is x, t.grad.tolist()))

    x.register_post_accumulate_grad_hook(hook)
    (x * 3).sum().backward()
    (x * 3).sum().backward()
    assert seen == [(True, [3.0, 3.0]), (True, [6.0, 6.0])]


def test_post_accumulate_grad_hook_in_place_edit_sticks():
    x = leaf()

    def halve(t):
        t.grad.mul_(0.5)

    x.register_post_accumulate_grad_hook(halve)
    h = x.register_post_accumulate_grad_hook(lambda t: None)
    h.remove()
    (x * 4).sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]


def test_post_accumulate_grad_hook_must_return_none():
    x = leaf()
    x.register_post_accumulate_grad_hook(lambda t: t.grad)
    with pytest.raises(
        RuntimeError,
        match=exact("Tensor post accumulate grad hooks should return None."),
    ):
        (x * 2).sum().backward()


def test_post_accumulate_grad_hook_on_non_leaf():
    y = leaf() * 2
    msg = "post accumulate grad hooks cannot be registered on non-leaf tensors"
    with pytest.raises(RuntimeError, match=exact(msg)):
        y.register_post_accumulate_grad_hook(lambda t: None)


def test_post_accumulate_grad_hook_on_non_requiring_tensor():
    c = torch.tensor([1.0])
    with pytest.raises(RuntimeError, match=exact(NO_RG_HOOK)):
        c.register_post_accumulate_grad_hook(lambda t: None)


def test_node_prehook_and_hook():
    x = leaf()
    y = x * 2
    out = []
    y.grad_fn.register_prehook(
        lambda grad_outputs: out.append(("pre", str(grad_outputs)))
    )
    y.grad_fn.register_hook(
        lambda grad_inputs, grad_outputs: out.append(
            (str(grad_inputs), str(grad_outputs))
        )
    )
    y.backward(torch.ones(2))
    assert out == [
        ("pre", "(tensor([1., 1.]),)"),
        ("(tensor([2., 2.]), None)", "(tensor([1., 1.]),)"),
    ]
    assert x.grad.tolist() == [2.0, 2.0]


def test_tensor_hook_sees_none_when_its_node_runs_without_its_gradient():
    # recorded from torch 2.15: the hook of unbind's output 0 gets None when only output 1 is used
    x = torch.randn(3, requires_grad=True)
    parts = x.unbind()
    seen = []
    parts[0].register_hook(lambda g: seen.append(g))
    parts[1].backward()
    assert seen == [None]
    assert x.grad.tolist() == [0.0, 1.0, 0.0]
    parts[0].register_hook(lambda g: torch.ones(()))
    with pytest.raises(RuntimeError, match="^can't replace a None gradient with a non-None value$"):
        parts[2].backward()


def test_products_compute_only_the_gradients_their_inputs_need():
    # PyTorch's task_should_compute_output: a matrix product skips the gradient of an input
    # that does not require grad, and its node's post hook sees None there (PyTorch 2.15)
    seen = []
    a, b = torch.ones(2, 3), torch.ones(3, 4, requires_grad=True)
    c = torch.ones(4, requires_grad=True)
    for y in (a @ b, torch.addmm(c, a, b), torch.bmm(torch.ones(2, 2, 3, requires_grad=True), torch.ones(2, 3, 4))):
        y.grad_fn.register_hook(lambda gi, go: seen.append([g is None for g in gi]))
        y.sum().backward()
    assert seen == [[True, False], [False, True, False], [False, True]]
    # F.linear's weight gradient is computed in the weight's own (row-major) layout
    w = torch.ones(5, 3, requires_grad=True)
    torch.nn.functional.linear(torch.ones(2, 3), w).sum().backward()
    assert w.grad.stride() == (3, 1) and w.grad.tolist() == [[2.0] * 3] * 5
    # a column-major first operand gets a column-major gradient
    x = torch.ones(3, 2, requires_grad=True)
    (x.t() @ torch.ones(3, 4)).exp().sum().backward()
    assert x.grad.stride() == (2, 1)
