"""Reference cycles through hooks and custom functions are freed by the garbage collector.

A hook that refers to its own tensor or node, or a custom function's `ctx` that keeps its
output, makes a cycle that passes through Rust (tensor -> hook list -> closure -> Python
callable -> tensor). PyTorch's collector traversal reports a tensor's hooks (and its grad_fn's,
while that node has no other holder) when the Python object is the tensor's only owner; leafgrad
does the same, so these cycles are freed by `gc.collect()` and not before the graph is gone.
Each test also runs against PyTorch with LEAFGRAD_TEST_TORCH=1, except two cycles that PyTorch
2.15 never frees (a post-accumulate-grad hook, and a non-leaf tensor's hook, that refers to its
own tensor): leafgrad frees those too.
"""

import gc
import weakref

import pytest

import leafgrad as torch
from support import USING_TORCH

torch_keeps_it = pytest.mark.skipif(USING_TORCH, reason="PyTorch 2.15 never frees this cycle")


class Sentinel:
    pass


def test_node_hook_cycle_lives_with_the_graph_and_is_freed_after_it():
    for tensor_hook in (False, True):
        count = [0]

        def scope():
            a = torch.tensor(1.0, requires_grad=True)
            b = a.clone()
            grad_fn_b = b.grad_fn
            obj = Sentinel()

            def hook(*args):
                grad_fn_b, obj  # the cycle: hook -> grad_fn_b -> node -> hook
                count[0] += 1

            if tensor_hook:
                b.register_hook(hook)
            else:
                b.grad_fn.register_hook(hook)
            c = b.clone()
            return c, weakref.ref(obj)

        out, ref = scope()
        out.backward(retain_graph=True)
        gc.collect()
        # the graph still holds the node: the collector must not break the cycle
        out.backward(retain_graph=True)
        assert count[0] == 2
        assert ref() is not None
        del out
        gc.collect()
        assert ref() is None


def test_leaf_hook_that_refers_to_its_tensor_is_freed():
    obj = Sentinel()
    ref = weakref.ref(obj)
    a = torch.ones(3, requires_grad=True)
    a.register_hook(lambda g, a=a, obj=obj: g * 2)
    del obj
    (a * 3).sum().backward()
    assert a.grad.tolist() == [6.0, 6.0, 6.0]
    gc.collect()
    assert ref() is not None  # `a` is still referenced
    del a
    gc.collect()
    assert ref() is None


@torch_keeps_it
def test_post_accumulate_hook_that_refers_to_its_tensor_is_freed():
    obj = Sentinel()
    ref = weakref.ref(obj)
    seen = []
    w = torch.ones(2, requires_grad=True)
    w.register_post_accumulate_grad_hook(lambda p, w=w, obj=obj: seen.append(p.grad.tolist()))
    del obj
    (w * 5).sum().backward()
    assert seen == [[5.0, 5.0]]
    del w
    gc.collect()
    assert ref() is None


@torch_keeps_it
def test_non_leaf_hook_that_refers_to_its_tensor_is_freed():
    obj = Sentinel()
    ref = weakref.ref(obj)
    a = torch.ones(2, requires_grad=True)
    b = a * 2
    b.register_hook(lambda g, b=b, obj=obj: g + 1)
    del obj
    b.sum().backward(retain_graph=True)
    assert a.grad.tolist() == [4.0, 4.0]
    gc.collect()
    assert ref() is not None
    del b
    gc.collect()
    assert ref() is None


def test_custom_function_ctx_that_keeps_its_output_is_freed():
    class Double(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x * 2
            ctx.y = y  # the cycle: output -> node -> ctx -> output
            ctx.obj = Sentinel()
            return y

        @staticmethod
        def backward(ctx, g):
            return g * 2

    a = torch.ones(2, requires_grad=True)
    out = Double.apply(a)
    ref = weakref.ref(out.grad_fn.obj)
    out.sum().backward()
    assert a.grad.tolist() == [2.0, 2.0]
    gc.collect()
    assert ref() is not None
    del out
    gc.collect()
    assert ref() is None


def test_saved_tensor_hooks_entered_during_backward_end_with_it():
    packed = []

    def scope():
        def unpack(x):
            weak_ctx().__enter__()  # entered and never left: the pass ends it
            return x

        ctx = torch.autograd.graph.saved_tensors_hooks(lambda x: x, unpack)
        weak_ctx = weakref.ref(ctx)
        x = torch.ones(3, requires_grad=True)
        with ctx:
            x.sin().sum().backward()
        return weakref.ref(unpack)

    gc.disable()
    try:
        ref = scope()
        assert ref() is None
    finally:
        gc.enable()
    # no hooks are left active: this product saves its inputs unpacked
    x = torch.ones(2, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append(1) or t, lambda t: t):
        pass
    y = x * x
    assert packed == []
    assert y.grad_fn._saved_self is not None
