"""Which hooks run, in which order, around AccumulateGrad and for backward(inputs=) / grad(), and
when the first `.grad` is the computed gradient itself. Recorded from torch 2.15; with
LEAFGRAD_TEST_TORCH=1 the same tests run against torch."""
import leafgrad as torch


def test_accumulate_grad_hook_order():
    # tensor hook, node pre hook, accumulation, post-accumulate hook, node post hook
    t = torch.tensor([1.0, 1.0, 1.0], requires_grad=True)
    acc = t.view_as(t).grad_fn.next_functions[0][0]
    t.register_hook(lambda g: g.sub(2.0))
    acc.register_prehook(lambda go: (go[0].div(5.0),))

    def post_acc(x):
        x.grad.add_(0.5)

    seen = []

    def node_post(gi, go):
        seen.append((gi, go[0].tolist()))
        t.grad = go[0].mul(10)

    t.register_post_accumulate_grad_hook(post_acc)
    acc.register_hook(node_post)
    t.sum().backward()
    # the post hook sees the gradient that became .grad (stolen, then changed in place)
    assert seen == [((), [0.30000001192092896] * 3)]
    assert t.grad.tolist() == [3.0, 3.0, 3.0]


def _hooked_chain():
    log = []

    def tensor_hook(g):
        log.append("t")
        return g * 3

    def node_pre(gs):
        log.append("pre")
        return tuple(g * 2 for g in gs)

    def node_post(gi, go):
        log.append("post")

    a = torch.tensor(1.0, requires_grad=True)
    b = a.clone()
    b.grad_fn.register_prehook(node_pre)
    b.register_hook(tensor_hook)
    b.grad_fn.register_hook(node_post)
    acc = b.grad_fn.next_functions[0][0]
    a.register_hook(tensor_hook)
    acc.register_prehook(node_pre)
    acc.register_hook(node_post)
    return a, b, log


def test_backward_runs_every_hook():
    a, b, log = _hooked_chain()
    b.sum().backward()
    assert log == ["t", "pre", "post", "t", "pre", "post"]
    assert a.grad.item() == 36.0


def test_grad_captures_after_tensor_hooks_only():
    a, b, log = _hooked_chain()
    (ga,) = torch.autograd.grad(b.sum(), inputs=(a,))
    assert log == ["t", "pre", "post", "t"] and ga.item() == 18.0 and a.grad is None


def test_backward_inputs_runs_a_non_leaf_input_node_but_not_past_it():
    a, b, log = _hooked_chain()
    b.sum().backward(inputs=(b,))
    assert log == ["t", "pre", "post"]
    assert b.grad.item() == 3.0 and a.grad is None  # retain_grad sees the tensor hooks only


def test_backward_inputs_leaf_only():
    a, b, log = _hooked_chain()
    c = b * 2
    c.backward(inputs=(a,))
    assert log == ["t", "pre", "post", "t", "pre", "post"] and a.grad.item() == 72.0


def test_first_grad_is_the_computed_gradient_when_nothing_else_holds_it():
    class Add(torch.autograd.Function):
        ptr = None

        @staticmethod
        def forward(ctx, a, b):
            return a + b

        @staticmethod
        def backward(ctx, g):
            Add.ptr = g.data_ptr()
            return g, g

    a = torch.randn(5, 6, requires_grad=True)
    b = torch.randn(5, 6, requires_grad=True)
    Add.apply(a, b)[1][0].backward()
    pa, pb = a.grad.data_ptr(), b.grad.data_ptr()
    assert pa != pb and Add.ptr in (pa, pb)


def test_first_grad_is_a_copy_of_a_gradient_the_user_holds():
    x = torch.ones(3, requires_grad=True)
    g = torch.ones(3)
    (x * 1).backward(g)
    assert x.grad.data_ptr() != g.data_ptr()
    x.grad.add_(1)
    assert g.tolist() == [1.0, 1.0, 1.0]


def test_first_grad_copies_an_expanded_gradient():
    class Expand(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.size = x.size()
            return torch.tensor([1.0])

        @staticmethod
        def backward(ctx, g):
            return torch.ones(1).expand(ctx.size)

    x = torch.zeros(2, 3, requires_grad=True)
    Expand.apply(x).backward()
    assert x.grad.stride() == (3, 1)
    x.grad.add_(1)
    assert x.grad.tolist() == [[2.0] * 3] * 2


def test_grad_keeps_its_identity_across_backwards():
    x = torch.ones(3, requires_grad=True)
    (x * 2).sum().backward()
    g = x.grad
    (x * 2).sum().backward()
    assert g is x.grad and g.tolist() == [4.0, 4.0, 4.0]


def test_numpy_and_out_are_allowed_under_no_grad():
    import pytest

    x = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"Can't call numpy\(\) on Tensor that requires grad"):
        x.numpy()
    with torch.no_grad():
        assert x.numpy().tolist() == [1.0, 1.0]
    a, b = torch.ones(2, requires_grad=True), torch.full((2,), 3.0, requires_grad=True)
    out = torch.zeros(2)
    with pytest.raises(RuntimeError, match="out="):
        torch.mul(a, b, out=out)
    with torch.no_grad():
        torch.mul(a, b, out=out)
    assert out.tolist() == [3.0, 3.0]
    with pytest.raises(RuntimeError, match="out="):
        torch.mul(torch.ones(2), torch.ones(2), out=torch.zeros(2, requires_grad=True))
