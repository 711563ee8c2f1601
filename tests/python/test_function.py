"""torch.autograd.Function: user-written forward/backward. Values, names, errors and warnings were
recorded from torch 2.15; with LEAFGRAD_TEST_TORCH=1 the same tests run against torch."""
import gc
import math

import pytest
from support import SECOND_BACKWARD, VERSION_HINT, exact, leafgrad_only, record_warnings, warning_texts

import leafgrad as torch
from leafgrad.autograd.function import once_differentiable


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return g * y


class Scale(torch.autograd.Function):
    """A non-tensor argument, a non-tensor output and an output that needs no gradient."""

    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        ctx.save_for_backward(None, x)
        return x * k, k, x.detach() * 2

    @staticmethod
    def backward(ctx, gy, gk, gz):
        ctx.seen = (gy, gk, gz)
        none, x = ctx.saved_tensors
        assert none is None
        return gy * ctx.k, None


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x ** 2 * g


def leaf(values=(1.0, 2.0)):
    return torch.tensor(list(values), requires_grad=True)


def test_values_gradient_and_node():
    x = leaf()
    y = Exp.apply(x)
    assert str(y) == "tensor([2.7183, 7.3891], grad_fn=<ExpBackward>)"
    node = y.grad_fn
    assert type(node).__name__ == "ExpBackward"
    assert node.name() == "ExpBackward"
    assert isinstance(node, torch.autograd.function.BackwardCFunction)
    assert repr(node).startswith("<" + type(node).__module__ + ".ExpBackward object at 0x")
    assert type(node).__module__.endswith("autograd.function")
    assert node.next_functions[0][0].name() == "torch::autograd::AccumulateGrad"
    assert Exp._backward_cls is type(node)
    y.sum().backward()
    assert str(x.grad) == "tensor([2.7183, 7.3891])"
    assert not y.is_leaf and y.requires_grad


def test_ctx_is_the_node_and_keeps_attributes():
    x = leaf()
    y, k, z = Scale.apply(x, 3)
    assert k == 3
    assert y.grad_fn is z.grad_fn
    assert y.grad_fn.k == 3
    assert y.grad_fn.needs_input_grad == (True, False)
    assert len(y.grad_fn.next_functions) == 1  # one edge per tensor argument
    # an output computed from a detached tensor still gets the node (PyTorch's rule)
    assert z.requires_grad and z.grad_fn is y.grad_fn
    y.sum().backward()


def test_backward_receives_none_for_non_tensor_output_and_zeros_for_unused():
    x = leaf()
    y, k, z = Scale.apply(x, 3)
    node = y.grad_fn
    y.sum().backward()
    gy, gk, gz = node.seen
    assert str(gy) == "tensor([1., 1.])"
    assert gk is None
    assert str(gz) == "tensor([0., 0.])"
    assert str(x.grad) == "tensor([3., 3.])"


def test_needs_input_grad_without_grad_mode():
    seen = []

    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            seen.append(ctx.needs_input_grad)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g, None

    with torch.no_grad():
        out = F.apply(leaf(), torch.ones(2))
    assert seen == [(True, False)]
    assert out.grad_fn is None and not out.requires_grad


def test_saved_tensors_freed_after_backward():
    x = leaf()
    y = Exp.apply(x)
    y.sum().backward()
    with pytest.raises(RuntimeError, match=exact(SECOND_BACKWARD)):
        y.grad_fn.saved_tensors
    with pytest.raises(RuntimeError, match=exact(SECOND_BACKWARD)):
        y.sum().backward()


def test_retain_graph_allows_second_backward():
    x = leaf()
    y = Exp.apply(x)
    y.sum().backward(retain_graph=True)
    y.sum().backward()
    assert str(x.grad) == "tensor([ 5.4366, 14.7781])"


def test_saved_output_gets_node_back_and_saved_input_is_the_input():
    got = {}

    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x * 2
            ctx.save_for_backward(x, y)
            return y

        @staticmethod
        def backward(ctx, g):
            x, y = ctx.saved_tensors
            got["x"], got["y"] = x, y
            return g * 2

    x = leaf()
    y = F.apply(x)
    y.sum().backward()
    assert got["x"] is x
    assert got["y"].grad_fn is y.grad_fn
    assert str(got["y"]) == "tensor([2., 4.], grad_fn=<FBackward>)"


def test_saved_tensor_modified_in_place_is_refused():
    x = leaf()
    a = x.clone()
    y = Cube.apply(a)
    a.add_(1)
    msg = (
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.FloatTensor [2]], which is output 0 of Add, is at version 1; "
        "expected version 0 instead." + VERSION_HINT
    )
    with pytest.raises(RuntimeError, match=exact(msg)):
        y.sum().backward()


def test_save_for_backward_refuses_non_tensors():
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, 3)
            return x * 2

    with pytest.raises(TypeError, match=exact("save_for_backward can only save variables, but argument 1 is of type int")):
        F.apply(leaf())


@pytest.mark.parametrize(
    "grads, expected",
    [
        (lambda g: (g, g), "function BadBackward returned an incorrect number of gradients (expected 1, got 2)"),
        (lambda g: g[:1], "Function BadBackward returned an invalid gradient at index 0 - got [1] but expected shape compatible with [2]"),
        (lambda g: 3, "expected Variable or None (got int)"),
    ],
)
def test_wrong_gradients_are_refused(grads, expected):
    class Bad(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return grads(g)

    with pytest.raises(RuntimeError, match=exact(expected)):
        Bad.apply(leaf()).sum().backward()


def test_gradient_for_a_non_tensor_input_is_refused_and_extra_nones_are_dropped():
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g, g

    msg = (
        "function FBackward returned a gradient different than None at position 2, but the "
        "corresponding forward input was not a Variable"
    )
    with pytest.raises(RuntimeError, match=exact(msg)):
        F.apply(leaf(), 2).sum().backward()

    class G(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2, None, None

    x = leaf()
    G.apply(x).sum().backward()
    assert str(x.grad) == "tensor([2., 2.])"


def test_gradient_is_cast_but_not_expanded():
    class Cast(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g.double() * 2

    x = leaf()
    Cast.apply(x).sum().backward()
    assert str(x.grad) == "tensor([2., 2.])" and x.grad.dtype == torch.float32

    class Scalar(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.sum()

        @staticmethod
        def backward(ctx, g):
            return g  # 0-d: not expanded to the input's shape

    msg = "Function ScalarBackward returned an invalid gradient at index 0 - got [] but expected shape compatible with [2]"
    with pytest.raises(RuntimeError, match=exact(msg)):
        Scalar.apply(leaf()).backward()

    class Summed(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            return g.expand(3, 2)  # a broadcast gradient is summed to the input's shape

    x = leaf()
    Summed.apply(x).sum().backward()
    assert str(x.grad) == "tensor([3., 3.])"


def test_input_returned_unchanged_becomes_a_view():
    class Id(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 3

    x = leaf()
    y = Id.apply(x)
    assert y is not x and y._is_view() and y._base is x
    assert type(y.grad_fn).__name__ == "IdBackward"
    assert x.is_leaf and x.grad_fn is None
    y.sum().backward()
    assert str(x.grad) == "tensor([3., 3.])"
    with torch.no_grad():
        z = Id.apply(x)
    assert z is not x and not z.requires_grad


def test_mark_dirty():
    class Double(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = leaf()
    msg = "a leaf Variable that requires grad has been used in an in-place operation."
    with pytest.raises(RuntimeError, match=exact(msg)):
        Double.apply(x)
    a = leaf().clone()
    b = Double.apply(a)
    assert b is a
    assert a._version == 2
    assert type(a.grad_fn).__name__ == "DoubleBackward"
    assert str(a) == "tensor([2., 4.], grad_fn=<DoubleBackward>)"


def test_mark_dirty_rules():
    class NotReturned(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_dirty(x)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g

    msg = (
        "Some elements marked as dirty during the forward method were not returned as output. "
        "The inputs that are modified inplace must all be outputs of the Function."
    )
    with pytest.raises(RuntimeError, match=exact(msg)):
        NotReturned.apply(leaf().clone())

    class NotInput(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x.clone()
            ctx.mark_dirty(y)
            return y

        @staticmethod
        def backward(ctx, g):
            return g

    with record_warnings() as caught:
        y = NotInput.apply(leaf())
    assert warning_texts(caught, UserWarning) == [
        "ctx.mark_dirty() received a tensor that was not an input. Only input Tensors that have "
        "been mutated should be passed to ctx.mark_dirty()."
    ]
    assert type(y.grad_fn).__name__ == "NotInputBackward"


def test_mark_dirty_on_a_view_rewrites_the_base():
    class Double(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = leaf((1.0, 2.0, 3.0))
    base = x * 1
    v = base[:2]
    Double.apply(v)
    assert str(base) == "tensor([2., 4., 3.], grad_fn=<CopySlices>)"
    base.sum().backward()
    assert str(x.grad) == "tensor([2., 2., 1.])"


def test_non_differentiable_outputs_and_unmaterialized_grads():
    seen = []

    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            s, i = x * 2, x.floor()
            ctx.mark_non_differentiable(i)
            ctx.set_materialize_grads(False)
            return s, i

        @staticmethod
        def backward(ctx, gs, gi):
            seen.append((gs, gi))
            return gs * 2

    x = leaf()
    s, i = F.apply(x)
    assert not i.requires_grad and i.grad_fn is None
    assert type(s.grad_fn).__name__ == "FBackward"
    s.sum().backward()
    assert str(seen[0][0]) == "tensor([1., 1.])" and seen[0][1] is None
    assert str(x.grad) == "tensor([2., 2.])"


def test_integer_outputs_do_not_require_grad():
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.long()

        @staticmethod
        def backward(ctx, g):
            return g

    assert not F.apply(leaf()).requires_grad


def test_setup_context_style_with_default_arguments():
    class F(torch.autograd.Function):
        @staticmethod
        def forward(x, k=2.0):
            return x * k, [1]

        @staticmethod
        def setup_context(ctx, inputs, output):
            assert len(inputs) == 2 and isinstance(output, tuple)
            ctx.k = inputs[1]
            ctx.save_for_backward(inputs[0])

        @staticmethod
        def backward(ctx, g, g_list):
            assert g_list is None
            (x,) = ctx.saved_tensors
            return g * ctx.k, None

    x = leaf()
    y, extra = F.apply(x)
    assert extra == [1]
    y.sum().backward()
    assert str(x.grad) == "tensor([2., 2.])"
    x.grad = None
    F.apply(x, 5.0)[0].sum().backward()
    assert str(x.grad) == "tensor([5., 5.])"


def test_a_list_is_one_non_tensor_output():
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return [x * 2]

        @staticmethod
        def backward(ctx, g):
            return g

    out = F.apply(leaf())
    assert isinstance(out, list) and out[0].grad_fn is None


def test_double_backward_through_differentiable_backward():
    x = leaf()
    (gx,) = torch.autograd.grad(Cube.apply(x).sum(), x, create_graph=True)
    assert str(gx) == "tensor([ 3., 12.], grad_fn=<MulBackward0>)"
    gx.sum().backward()
    assert str(x.grad) == "tensor([ 6., 12.])"


def test_once_differentiable():
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 2

        @staticmethod
        @once_differentiable
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g

    x = leaf()
    F.apply(x).sum().backward()
    assert str(x.grad) == "tensor([2., 4.])"
    # the gradient from sum() does not require grad: the result is a plain tensor
    (gx,) = torch.autograd.grad(F.apply(x).sum(), x, create_graph=True)
    assert gx.grad_fn is None
    # a gradient that requires grad: differentiating the result again is refused
    y = F.apply(x)
    (gx,) = torch.autograd.grad(y, x, torch.ones(2, requires_grad=True), create_graph=True)
    assert gx.requires_grad
    assert gx.grad_fn.name() == "torch::autograd::Error"
    msg = "trying to differentiate twice a function that was marked with @once_differentiable"
    with pytest.raises(RuntimeError, match=exact(msg)):
        gx.sum().backward()


def test_hooks_retain_grad_and_node_hooks_compose():
    x = leaf()
    y = Exp.apply(x * 1)
    y.retain_grad()
    calls = []
    y.register_hook(lambda g: calls.append("tensor") or g * 2)
    y.grad_fn.register_prehook(lambda go: calls.append("pre") or None)
    y.grad_fn.register_hook(lambda gi, go: calls.append("post") or None)
    y.sum().backward()
    assert calls == ["tensor", "pre", "post"]
    assert str(y.grad) == "tensor([2., 2.])"  # retain_grad sees the hooked gradient
    assert str(x.grad) == "tensor([ 5.4366, 14.7781])"


def test_no_grad_and_inference_mode_record_nothing():
    x = leaf()
    with torch.no_grad():
        y = Exp.apply(x)
    assert y.grad_fn is None and not y.requires_grad
    with torch.inference_mode():
        z = Exp.apply(x)
    assert z.grad_fn is None and z.is_inference()


def test_backward_exception_reaches_the_caller():
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            raise ValueError("from backward")

    with pytest.raises(ValueError, match="from backward"):
        F.apply(leaf()).sum().backward()


def test_functions_compose_and_chain():
    x = leaf((0.5, 1.0))
    y = Exp.apply(Cube.apply(x)).sum()
    (g,) = torch.autograd.grad(y, x)
    expected = [3 * v ** 2 * math.exp(v ** 3) for v in (0.5, 1.0)]
    assert [round(v, 4) for v in g.tolist()] == [round(v, 4) for v in expected]


def test_instantiating_and_missing_methods():
    class Id(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

    with record_warnings() as caught:
        f = Id()
    assert any("should not be instantiated" in t for t in warning_texts(caught, DeprecationWarning))
    msg = (
        "Legacy autograd function with non-static forward method is deprecated. Please use "
        "new-style autograd function with static forward method. (Example: "
        "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)"
    )
    with pytest.raises(RuntimeError, match=exact(msg)):
        f(leaf())

    class NoForward(torch.autograd.Function):
        pass

    with pytest.raises(NotImplementedError, match=exact("You must implement the forward function for custom autograd.Function.")):
        NoForward.apply(leaf())
    msg = (
        "You must implement either the backward or vjp method for your custom autograd.Function "
        "to use it with backward mode AD."
    )
    with pytest.raises(NotImplementedError, match=exact(msg)):
        Id.apply(leaf()).sum().backward()


def test_vjp_is_an_alias_of_backward():
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def vjp(ctx, g):
            return g * 5

    x = leaf()
    F.apply(x).sum().backward()
    assert str(x.grad) == "tensor([5., 5.])"


@leafgrad_only
def test_graph_is_freed_with_its_outputs():
    import leafgrad._core as core

    gc.collect()
    before = core._arena_stats()["nodes"]
    x = leaf()
    for _ in range(50):
        y, k, z = Scale.apply(Exp.apply(x), 2)
        y.sum().backward()
    del y, k, z
    gc.collect()
    assert core._arena_stats()["nodes"] == before


@leafgrad_only
def test_viz_and_explain_show_the_function_node():
    import io

    import leafgrad

    x = leaf()
    y = Exp.apply(x * 2).sum()
    assert "ExpBackward" in str(leafgrad.viz.make_dot(y, show_saved=True))
    out = io.StringIO()
    leafgrad.viz.print_graph(y, file=out)
    assert "ExpBackward" in out.getvalue()
    assert str(leafgrad.explain(x))


def test_node_class_repr_names_torch_autograd_function():
    # PyTorch prints a Function's node as <torch.autograd.function.<Name>Backward object at 0x...>
    class Twice(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    y = Twice.apply(torch.ones(1, requires_grad=True))
    assert repr(y.grad_fn).startswith("<torch.autograd.function.TwiceBackward object at 0x")


def test_vmap_needs_a_functions_vmap_support():
    class Double(torch.autograd.Function):
        @staticmethod
        def forward(x):
            return x * 2

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

        @staticmethod
        def backward(ctx, g):
            return g * 2

    assert Double.generate_vmap_rule is False and hasattr(Double, "vmap")
    with pytest.raises(NotImplementedError, match="^To use autograd.Function with vmap, you must either override"):
        Double.vmap(None, (0,), torch.ones(2))
    with pytest.raises(RuntimeError, match="^You tried to vmap over Double, but it does not have vmap support."):
        torch.func.vmap(Double.apply)(torch.ones(3, 2))

    class Generated(Double):
        generate_vmap_rule = True

    assert torch.func.vmap(Generated.apply)(torch.ones(3, 2)).tolist() == [[2., 2.]] * 3
    assert Double.apply(torch.ones(2)).tolist() == [2., 2.]  # outside vmap: no check
