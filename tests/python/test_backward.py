"""SPEC §5: Tensor.backward and torch.autograd.backward."""

import leafgrad as torch
import pytest
from support import NO_GRAD_FN, SECOND_BACKWARD, exact, run_isolated

IMPLICIT = "grad can be implicitly created only for scalar outputs"
SHAPE_MSG = (
    "Mismatch in shape: grad_output[0] has a shape of torch.Size(%s) and output[0] has a shape "
    "of torch.Size(%s)."
)
CREATE_GRAPH_WARNING = (
    "Using backward() with create_graph=True will create a reference cycle between the parameter "
    "and its gradient which can cause a memory leak. We recommend using autograd.grad when "
    "creating the graph to avoid this. If you have to use this function, make sure to reset the "
    ".grad fields of your parameters to None after use to break the cycle and avoid the leak."
)


def leaf(values=(1.0, 2.0)):
    return torch.tensor(list(values), requires_grad=True)


def test_backward_returns_none():
    x = leaf()
    assert (x * x).sum().backward() is None


def test_implicit_gradient_for_numel_one_outputs():
    x = leaf()
    (x * 3).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]
    one = torch.ones(1, requires_grad=True)
    out = one * 5
    assert out.shape == torch.Size([1])
    out.backward()
    assert one.grad.tolist() == [5.0]


def test_implicit_gradient_needs_scalar():
    x = leaf()
    with pytest.raises(RuntimeError, match=exact(IMPLICIT)):
        (x * 2).backward()
    assert x.grad is None


def test_complex_scalar_output_needs_gradient():
    z = torch.tensor([1 + 2j], requires_grad=True)
    msg = "grad can be implicitly created only for real scalar outputs but got torch.complex64"
    with pytest.raises(RuntimeError, match=exact(msg)):
        (z * 2).backward()


def test_complex_non_scalar_output_gets_plain_message():
    z = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
    with pytest.raises(RuntimeError, match=exact(IMPLICIT)):
        (z * 2).backward()


@pytest.mark.parametrize(
    "out_shape, grad_shape, text",
    [
        ((2,), (3,), ("[3]", "[2]")),
        ((3,), (3, 1), ("[3, 1]", "[3]")),
        ((3,), (), ("[]", "[3]")),
        ((), (1,), ("[1]", "[]")),
        ((1,), (), ("[]", "[1]")),
    ],
)
def test_gradient_shape_must_match_exactly(out_shape, grad_shape, text):
    x = torch.ones(out_shape, requires_grad=True)
    y = x * 2
    with pytest.raises(RuntimeError, match=exact(SHAPE_MSG % text)):
        y.backward(torch.ones(grad_shape))
    assert x.grad is None


@pytest.mark.parametrize("gdtype", ["float64", "int64"])
def test_real_gradient_of_other_dtype_is_cast(gdtype):
    x = leaf()
    (x * 2).backward(torch.ones(2, dtype=getattr(torch, gdtype)))
    assert x.grad.dtype == torch.float32
    assert x.grad.tolist() == [2.0, 2.0]


def test_complex_gradient_for_real_output():
    x = leaf()
    msg = (
        "For complex Tensors, both grad_output and output are required to have the same dtype. "
        "Mismatch in dtype: grad_output[0] has a dtype of torch.complex64 and output[0] has a "
        "dtype of torch.float32."
    )
    with pytest.raises(RuntimeError, match=exact(msg)):
        (x * 2).backward(torch.ones(2, dtype=torch.complex64))


def test_list_gradient_is_read_per_output():
    x = leaf()
    msg = "gradients can be either Tensors or None, but got float"
    with pytest.raises(TypeError, match=exact(msg)):
        (x * 2).backward([1.0, 1.0])


def _no_grad_result():
    with torch.no_grad():
        return leaf() * 2


@pytest.mark.parametrize(
    "make",
    [
        lambda: torch.tensor(3.0),
        lambda: torch.tensor([1.0, 2.0]),
        _no_grad_result,
        lambda: torch.tensor([1, 2]),
        lambda: torch.tensor(1.0, requires_grad=True).detach(),
    ],
    ids=["scalar", "vector", "no_grad_result", "int", "detached"],
)
def test_backward_on_non_requiring_output(make):
    with pytest.raises(RuntimeError, match=exact(NO_GRAD_FN)):
        make().backward()


def test_backward_on_scalar_leaf_accumulates():
    s = torch.tensor(7.0, requires_grad=True)
    s.backward()
    assert s.grad.item() == 1.0 and s.grad.shape == torch.Size([])
    s.backward()
    assert s.grad.item() == 2.0


def test_backward_on_vector_leaf_needs_gradient():
    v = leaf()
    with pytest.raises(RuntimeError, match=exact(IMPLICIT)):
        v.backward()
    v.backward(torch.ones(2))
    assert v.grad.tolist() == [1.0, 1.0]


def test_backward_works_inside_no_grad():
    x = leaf()
    loss = (x * x).sum()
    with torch.no_grad():
        loss.backward()
    assert x.grad.tolist() == [2.0, 4.0]


SUCCEEDS_TWICE = {
    "add_scalar": lambda x: (x + 1).sum(),
    "add_self": lambda x: (x + x).sum(),
    "sub_scalar": lambda x: (x - 3).sum(),
    "neg": lambda x: (-x).sum(),
    "sum": lambda x: x.sum(),
    "mean": lambda x: x.mean(),
    "view": lambda x: x.view(2, 1).sum(),
    "select": lambda x: x[0],
    "clone": lambda x: x.clone().sum(),
    "double": lambda x: x.double().sum(),
}

FAILS_TWICE = {
    "mul_scalar": lambda x: (x * 2).sum(),
    "mul_self": lambda x: (x * x).sum(),
    "div_scalar": lambda x: (x / 2).sum(),
    "div_self": lambda x: (x / x).sum(),
    "pow": lambda x: (x**2).sum(),
    "exp": lambda x: x.exp().sum(),
    "sin": lambda x: x.sin().sum(),
    "relu": lambda x: x.relu().sum(),
    "sigmoid": lambda x: x.sigmoid().sum(),
    "tanh": lambda x: x.tanh().sum(),
    "mul_const": lambda x: (x * torch.tensor([3.0, 4.0])).sum(),
    "matmul_self": lambda x: x @ x,
    "matmul_const": lambda x: x @ torch.tensor([3.0, 4.0]),
    "select_mul": lambda x: x[0] * 1,
}


@pytest.mark.parametrize("name", sorted(SUCCEEDS_TWICE))
def test_second_backward_without_saved_tensors_succeeds(name):
    x = leaf()
    y = SUCCEEDS_TWICE[name](x)
    y.backward()
    first = x.grad.tolist()
    y.backward()
    assert x.grad.tolist() == [2 * g for g in first]


@pytest.mark.parametrize("name", sorted(FAILS_TWICE))
def test_second_backward_through_freed_saved_tensors_fails(name):
    x = leaf()
    y = FAILS_TWICE[name](x)
    y.backward()
    first = x.grad.tolist()
    with pytest.raises(RuntimeError, match=exact(SECOND_BACKWARD)):
        y.backward()
    assert x.grad.tolist() == first


def test_branches_sharing_a_freed_node_fail():
    x = leaf()
    y = x.exp()
    a = y + 1
    b = y + 2
    a.sum().backward()
    with pytest.raises(RuntimeError, match=exact(SECOND_BACKWARD)):
        b.sum().backward()


def test_retain_graph_keeps_buffers_until_a_plain_backward():
    x = leaf()
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward(retain_graph=True)
    y.backward()
    assert x.grad.tolist() == [6.0, 12.0]
    with pytest.raises(RuntimeError, match=exact(SECOND_BACKWARD)):
        y.backward()


def test_retain_graph_defaults_to_create_graph():
    x = leaf()
    y = (x * x).sum()
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        y.backward(create_graph=True)
        y.backward(create_graph=True)
    assert x.grad.tolist() == [4.0, 8.0]


def test_autograd_backward_with_sequences():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    res = torch.autograd.backward([x * w, (x + w).sum()], [torch.ones(2), None])
    assert res is None
    assert x.grad.tolist() == [4.0, 5.0]
    assert w.grad.tolist() == [2.0, 3.0]


def test_autograd_backward_with_single_tensor():
    x = leaf()
    torch.autograd.backward((x * x).sum())
    assert x.grad.tolist() == [2.0, 4.0]
    torch.autograd.backward(x * 2, torch.tensor([1.0, 0.5]))
    assert x.grad.tolist() == [4.0, 5.0]


def test_autograd_backward_length_mismatch():
    x = leaf()
    with pytest.raises(RuntimeError, match=exact("got 2 tensors and 1 gradients")):
        torch.autograd.backward([x * 2, x * 3], [torch.ones(2)])


def test_autograd_backward_none_for_non_scalar():
    x = leaf()
    with pytest.raises(RuntimeError, match=exact(IMPLICIT)):
        torch.autograd.backward([x * 2], [None])


def test_autograd_backward_float_gradient():
    x = leaf()
    with pytest.raises(
        TypeError, match=exact("gradients can be either Tensors or None, but got float")
    ):
        torch.autograd.backward([(x * 2).sum()], [1.0])


def test_backward_inputs_restricts_accumulation():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    (x * w).sum().backward(inputs=[x])
    assert x.grad.tolist() == [3.0, 4.0]
    assert w.grad is None
    (x * w).sum().backward(inputs=w)
    assert w.grad.tolist() == [1.0, 2.0]
    assert x.grad.tolist() == [3.0, 4.0]


def test_backward_inputs_empty():
    x = leaf()
    msg = "`inputs` argument to `backward()` cannot be empty."
    with pytest.raises(RuntimeError, match=exact(msg)):
        (x * 2).sum().backward(inputs=[])


def test_backward_inputs_unreached_tensor_stays_none():
    x = leaf()
    other = torch.tensor([5.0], requires_grad=True)
    (x * 2).sum().backward(inputs=[x, other])
    assert x.grad.tolist() == [2.0, 2.0]
    assert other.grad is None


def test_backward_inputs_non_requiring_tensor():
    x = leaf()
    c = torch.tensor([1.0, 1.0])
    msg = "can't retain_grad on Tensor that has requires_grad=False"
    with pytest.raises(RuntimeError, match=exact(msg)):
        (x * c).sum().backward(inputs=[c])


def test_backward_inputs_non_leaf_gets_grad_and_unlisted_leaves_stay_none():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    y = x * w
    (y * 2).sum().backward(inputs=[y])
    assert y.retains_grad
    assert y.grad.tolist() == [2.0, 2.0]
    assert x.grad is None and w.grad is None


def test_create_graph_warning_is_emitted_once_per_process():
    out, _ = run_isolated(
        """
        import warnings
        import leafgrad as torch
        from support import strip_triggered
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            (x * x).sum().backward(create_graph=True)
            (x * x).sum().backward(create_graph=True)
        for w in caught:
            print(w.category.__name__ + "|" + strip_triggered(w.message))
        """
    )
    assert out.splitlines() == ["UserWarning|" + CREATE_GRAPH_WARNING]


def test_a_second_backward_through_nodes_that_saved_nothing_works():
    # fmod by a tensor that does not require grad saves nothing (PyTorch saves self/other only
    # for other's gradient): a second pass through it is allowed, as in PyTorch
    x = torch.tensor([1.5, -2.0], requires_grad=True)
    y = torch.fmod(x, torch.tensor([1.0, 0.75]))
    y.sum().backward()
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]
    # relu saved its result: that graph is freed
    w = x.relu() + torch.remainder(x, 2.0)
    w.sum().backward()
    with pytest.raises(RuntimeError, match=r"^Trying to backward through the graph a second time"):
        w.sum().backward()
