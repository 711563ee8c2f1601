"""Saved-tensor hooks: torch.autograd.graph.saved_tensors_hooks, save_on_cpu,
disable_saved_tensors_hooks and grad_fn._raw_saved_<name>.register_hooks. Values and texts
recorded from torch 2.15; with LEAFGRAD_TEST_TORCH=1 the same tests run against it."""
import pytest
from support import exact

import leafgrad as torch

graph = torch.autograd.graph


def leaf():
    return torch.tensor([1.0, 2.0], requires_grad=True)


def test_pack_and_unpack_run_and_gradients_are_unchanged():
    x = leaf()
    calls = []

    def pack(t):
        calls.append("pack")
        return ("box", t)

    def unpack(p):
        calls.append("unpack")
        return p[1]

    a = x * 1
    with graph.saved_tensors_hooks(pack, unpack):
        y = (a * a).sum()
    assert calls == ["pack", "pack"]
    y.backward()
    assert calls == ["pack", "pack", "unpack", "unpack"]
    assert str(x.grad) == "tensor([2., 4.])"


def test_unpack_may_return_a_copy_and_higher_order_gradients_still_flow():
    x = leaf()
    with graph.saved_tensors_hooks(lambda t: t.detach().clone(), lambda t: t):
        z = (x ** 3).sum()
    (g,) = torch.autograd.grad(z, x, create_graph=True)
    assert str(g) == "tensor([ 3., 12.], grad_fn=<MulBackward0>)"
    g.sum().backward()
    assert str(x.grad) == "tensor([ 6., 12.])"


def test_save_on_cpu_keeps_values():
    x = leaf()
    with graph.save_on_cpu():
        z = (x.sin() * x).sum()
    z.backward()
    assert [round(v, 4) for v in x.grad.tolist()] == [1.3818, 0.0770]


def test_saved_attribute_goes_through_unpack_and_outputs_keep_their_node():
    x = leaf()
    calls = []
    with graph.saved_tensors_hooks(lambda t: t, lambda t: calls.append("unpack") or t):
        y = (x * 1).exp()
    assert str(y.grad_fn._saved_result) == "tensor([2.7183, 7.3891], grad_fn=<ExpBackward0>)"
    assert calls == ["unpack"]


def test_unpack_must_return_a_tensor():
    x = leaf()
    with graph.saved_tensors_hooks(lambda t: t, lambda t: 3):
        z = (x * x).sum()
    msg = "Output of saved tensor unpack_hook expected to be a Tensor but got result of type int"
    with pytest.raises(TypeError, match=exact(msg)):
        z.backward()


def test_pack_must_not_modify_its_input():
    a = leaf() * 1
    msg = (
        "A saved tensor pack hook is modifying its input in place. Tensors provided as input to "
        "pack hook cannot be modified by in-place operations as this can lead to unexpected "
        "side-effects. Please open an issue if you need to perform in-place operations on the "
        "input to a pack hook."
    )
    with pytest.raises(RuntimeError, match=exact(msg)):
        with graph.saved_tensors_hooks(lambda t: t.add_(1), lambda t: t):
            a * a


def test_errors_in_pack_reach_the_caller():
    def pack(t):
        raise ValueError("no packing")

    with pytest.raises(ValueError, match="no packing"):
        with graph.saved_tensors_hooks(pack, lambda t: t):
            leaf() * leaf()


def test_hooks_nest_and_are_restored():
    seen = []
    x = leaf()
    with graph.saved_tensors_hooks(lambda t: seen.append("outer") or t, lambda t: t):
        with graph.saved_tensors_hooks(lambda t: seen.append("inner") or t, lambda t: t):
            x.exp()
        x.exp()
    x.exp()
    assert seen == ["inner", "outer"]


def test_disable_saved_tensors_hooks():
    msg = "hooks are disabled here"
    with graph.disable_saved_tensors_hooks(msg):
        with pytest.raises(RuntimeError, match=exact(msg)):
            with graph.save_on_cpu():
                pass
    with graph.save_on_cpu():
        pass


def test_register_hooks_on_one_saved_tensor():
    x = leaf()
    a = x * 1
    y = a.pow(2)
    calls = []
    raw = y.grad_fn._raw_saved_self
    raw.register_hooks(lambda t: calls.append(("pack", str(t))) or t, lambda t: calls.append("unpack") or t * 1)
    assert calls == [("pack", "tensor([1., 2.])")]
    msg = "Calling register_hooks on a saved tensor whose hooks have already been set. Hint: only one pair of hooks is allowed at a time."
    with pytest.raises(RuntimeError, match=exact(msg)):
        raw.register_hooks(lambda t: t, lambda t: t)
    y.sum().backward()
    assert calls[-1] == "unpack"
    assert str(x.grad) == "tensor([2., 4.])"
    msg = (
        "Calling register_hooks on a saved tensor after it has been freed. Saved intermediate values "
        "of the graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=True "
        "if you need to backward through the graph a second time or if you need to access saved "
        "variables after calling backward."
    )
    with pytest.raises(RuntimeError, match=exact(msg)):
        raw.register_hooks(lambda t: t, lambda t: t)


def test_custom_function_saves_go_through_hooks():
    calls = []

    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a, None)
            return a * 2

        @staticmethod
        def backward(ctx, g):
            a, none = ctx.saved_tensors
            assert none is None
            return g * a

    x = leaf()
    with graph.saved_tensors_hooks(lambda t: calls.append("pack") or t, lambda t: calls.append("unpack") or t):
        out = F.apply(x)
    assert len(out.grad_fn._raw_saved_tensors) == 2
    out.sum().backward(retain_graph=True)
    assert calls == ["pack", "unpack"]
    assert str(x.grad) == "tensor([1., 2.])"
    msg = "Calling register_hooks on a saved tensor with value None is forbidden"
    with pytest.raises(RuntimeError, match=exact(msg)):
        out.grad_fn._raw_saved_tensors[1].register_hooks(lambda t: t, lambda t: t)


def test_products_save_only_what_the_gradients_read():
    # recorded from torch 2.15: x*y saves y (for x's gradient) but not x when y needs none
    x = torch.ones(2, requires_grad=True)
    y = torch.ones(2) * 3
    g = (x * y).grad_fn
    assert g._saved_self is None and str(g._saved_other) == "tensor([3., 3.])"
    g = (y * x).grad_fn
    assert str(g._saved_self) == "tensor([3., 3.])" and g._saved_other is None
    g = (x / y).grad_fn
    assert g._saved_self is None and str(g._saved_other) == "tensor([3., 3.])"
    packed = []
    with graph.saved_tensors_hooks(lambda t: packed.append(tuple(t.shape)) or t, lambda t: t):
        x * y
    assert packed == [(2,)]


def test_saved_tensor_cannot_be_made_from_python():
    assert torch.autograd.SavedTensor is type(torch.tensor(2., requires_grad=True).exp().grad_fn._raw_saved_result)
    with pytest.raises(RuntimeError, match="^Trying to create a SavedTensor object from Python is forbidden.$"):
        torch.autograd.SavedTensor()


@pytest.mark.parametrize("name, make, order", [
    ("mul", lambda rg: rg(2) * rg(3, 1), [(3, 1), (2,)]),
    ("div", lambda rg: rg(2) / rg(3, 1), [(3, 1), (2,)]),
    ("pow", lambda rg: rg(2) ** rg(3, 1), [(3, 1), (2,), (3, 2)]),
    ("hypot", lambda rg: torch.hypot(rg(2), rg(3, 1)), [(3, 1), (2,), (3, 2)]),
    ("atan2", lambda rg: torch.atan2(rg(2), rg(3, 1)), [(3, 1), (2,)]),
    ("lerp", lambda rg: torch.lerp(rg(1), rg(2), rg(3, 1)), [(2,), (1,), (3, 1)]),
    ("addcmul", lambda rg: torch.addcmul(rg(1), rg(2), rg(3, 1)), [(2,), (3, 1)]),
    ("addmm", lambda rg: torch.addmm(rg(2), rg(3, 4), rg(4, 2)), [(3, 4), (4, 2)]),
    ("clamp", lambda rg: torch.clamp(rg(2), rg(3, 1), rg(4, 1, 1)), [(4, 1, 1), (3, 1), (2,)]),
])
def test_nodes_pack_and_unpack_in_pytorchs_order(name, make, order):
    # PyTorch's generated nodes declare their saved inputs sorted by name, then the outputs:
    # the hooks see that order (shapes recorded from torch 2.15)
    seen = []

    def rg(*shape):
        return (torch.rand(*shape) + 0.5).requires_grad_()

    def pack(t):
        seen.append(tuple(t.shape))
        return t

    def unpack(t):
        seen.append(("unpack",) + tuple(t.shape))
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = make(rg)
    y.sum().backward()
    assert seen == order + [("unpack",) + s for s in order]


def test_the_version_error_names_what_pytorch_unpacks_first():
    x = torch.ones(2, requires_grad=True)
    a, b = x.exp(), x.sin()
    y = a * b
    a.mul_(2)
    b.add_(1)
    with pytest.raises(RuntimeError, match=r"\[torch.FloatTensor \[2\]\], which is output 0 of Add, is at version 1; expected version 0"):
        y.sum().backward()
