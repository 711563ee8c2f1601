"""`torch.autograd.graph.GradientEdge` / `get_gradient_edge`: the gradient flowing into a node's
input, as `autograd.grad` and `backward` inputs (checked against PyTorch 2.15; also runs against
it with LEAFGRAD_TEST_TORCH=1)."""
import pytest

import leafgrad as torch
GradientEdge = torch.autograd.graph.GradientEdge


def test_edge_of_a_leaf_and_of_a_result():
    x = torch.rand(2, requires_grad=True)
    edge = torch.autograd.graph.get_gradient_edge(x)
    assert edge.node.name() == "torch::autograd::AccumulateGrad" and edge.output_nr == 0
    out = x.clone()
    (g,) = torch.autograd.grad(out.sum(), edge)
    assert torch.equal(g, torch.ones(2))
    y = x.clone()
    assert torch.autograd.graph.get_gradient_edge(y).node.name() == "CloneBackward0"
    with pytest.raises(RuntimeError, match="^It is not possible to get the gradient edge for a Tensor that does not require gradients$"):
        torch.autograd.graph.get_gradient_edge(torch.ones(2))


def test_an_edge_keeps_the_gradient_of_a_value_written_since():
    x = torch.tensor([1.0, 2.0], requires_grad=True).clone()
    edge = torch.autograd.graph.get_gradient_edge(x)
    x *= 2
    g_old, g_new = torch.autograd.grad(x.sum(), (edge, x))
    assert g_old.tolist() == [2.0, 2.0] and g_new.tolist() == [1.0, 1.0]


def test_edges_as_inputs_of_grad_and_backward():
    a = torch.rand(2, requires_grad=True).clone()
    b = torch.rand(2, requires_grad=True).clone()
    out = a + b
    ref = torch.autograd.grad(out.sum(), (a, b), retain_graph=True)
    new = torch.autograd.grad(out.sum(), (GradientEdge(a.grad_fn, a.output_nr), GradientEdge(b.grad_fn, b.output_nr)),
                              retain_graph=True)
    assert all(torch.equal(r, n) for r, n in zip(ref, new))
    o = a.clone()
    # a used edge is fine with materialize_grads; an unused one has no shape to make zeros of
    torch.autograd.grad(o.sum(), (GradientEdge(a.grad_fn, a.output_nr), b), allow_unused=True,
                        materialize_grads=True, retain_graph=True)
    with pytest.raises(RuntimeError, match="^materialize_grads cannot be used when the given input is a GradientEdge$"):
        torch.autograd.grad(o.sum(), (a, GradientEdge(b.grad_fn, b.output_nr)), allow_unused=True,
                            materialize_grads=True)
    g = torch.autograd.grad(o.sum(), (a, GradientEdge(b.grad_fn, b.output_nr)), allow_unused=True)
    assert g[0].tolist() == [1.0, 1.0] and g[1] is None
    torch.autograd.backward(o.sum(), inputs=(GradientEdge(a.grad_fn, a.output_nr), b))
    assert a.grad is None and b.grad is None


def _clone_square_sin(a):
    b = a.clone()
    out = (b ** 2).sum()
    b.sin_()
    out.backward()
    return a.grad


def test_allow_mutation_on_saved_tensors():
    a = torch.rand(2, 3, requires_grad=True)
    with pytest.raises(RuntimeError, match="variables needed for gradient computation has been modified by an inplace"):
        _clone_square_sin(a)
    a.grad = None
    with torch.autograd.graph.allow_mutation_on_saved_tensors() as ctx:
        da = _clone_square_sin(a)
    assert torch.allclose(da, a.detach() * 2)
    assert len(list(ctx.cloned.items())) == 0  # cleared on exit
    # a view of the saved tensor written in place, and the base of a saved view
    with torch.autograd.graph.allow_mutation_on_saved_tensors():
        a = torch.rand(2, 3, requires_grad=True)
        b = a.clone()
        c = b[:1]
        out = b ** 2
        c *= 10
        out.sum().backward()
    assert torch.allclose(a.grad, a.detach() * 2)
    with torch.autograd.graph.allow_mutation_on_saved_tensors():
        with pytest.raises(RuntimeError, match="allow_mutation_on_saved_tensors contexts cannot be nested"):
            with torch.autograd.graph.allow_mutation_on_saved_tensors():
                pass


def test_backward_outside_the_block_fails():
    with torch.autograd.graph.allow_mutation_on_saved_tensors():
        a = torch.rand(2, 3, requires_grad=True)
        out = (a.clone() ** 2).sum()
    with pytest.raises(AssertionError, match="Trying to backward outside of the 'allow_mutation_on_saved_tensors' context"):
        out.backward()


def test_edges_as_outputs():
    x = torch.tensor([1.0, 2.0], requires_grad=True)

    def fn(x, reduce=True):
        tmp = x.sin().cos()
        if reduce:
            tmp = tmp.sum()
        out = tmp.exp().clone().sin().sum()
        return out, torch.autograd.graph.get_gradient_edge(tmp)

    # backward in two steps through the edge equals one pass
    out, edge = fn(x)
    (tmp_grad,) = torch.autograd.grad(out, (edge,))
    (x_grad,) = torch.autograd.grad(edge, (x,), grad_outputs=(tmp_grad,))
    out, _ = fn(x)
    assert torch.allclose(x_grad, torch.autograd.grad(out, (x,))[0])
    _, edge = fn(x, reduce=False)
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar output"):
        torch.autograd.grad(edge, (x,))
    _, edge = fn(x)
    torch.autograd.grad(edge, (x,))  # a scalar edge: the implicit gradient 1
    _, edge = fn(x)
    with pytest.raises(RuntimeError, match="Mismatch in shape"):
        torch.autograd.grad(edge, (x,), grad_outputs=torch.tensor([1.0, 2.0, 3.0, 4.0]))
    # backward() from an edge, twice (clone saves nothing), after its tensor is gone
    inp = torch.rand(1, requires_grad=True).clone()
    out = inp.clone()
    edge = torch.autograd.graph.get_gradient_edge(out)
    torch.autograd.backward(edge)
    del out
    torch.autograd.backward(edge)


def test_edge_keeps_graph_of_custom_function_alive():
    # a custom Function's node object is its context, which does not own the node: the edge
    # carries an ownership token so backward through it works after the output is gone
    class Clone(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def backward(ctx, g):
            return g * 3

    leaf = torch.ones(2, requires_grad=True)
    inp = leaf.clone()
    out = Clone.apply(inp)
    edge = torch.autograd.graph.get_gradient_edge(out)
    assert edge.ownership_token is not None
    del out
    torch.autograd.backward(edge, grad_tensors=torch.ones(2))
    assert leaf.grad.tolist() == [3.0, 3.0]
    plain = torch.autograd.graph.get_gradient_edge(inp)
    assert plain.ownership_token is None
