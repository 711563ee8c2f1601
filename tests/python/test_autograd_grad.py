"""SPEC §6: torch.autograd.grad."""

import leafgrad as torch
import pytest
from support import NO_GRAD_FN, SECOND_BACKWARD, exact, record_warnings, warning_texts

UNUSED = (
    "The differentiated Tensor at index %d appears to not have been used in the graph. "
    "Set allow_unused=True if this is the desired behavior."
)


def pair():
    return torch.tensor([1.0, 2.0], requires_grad=True), torch.tensor(
        [3.0, 4.0], requires_grad=True
    )


def test_returns_tuple_and_leaves_grad_fields_alone():
    x, w = pair()
    res = torch.autograd.grad((x * w).sum(), x)
    assert isinstance(res, tuple) and len(res) == 1
    assert res[0].tolist() == [3.0, 4.0]
    assert x.grad is None and w.grad is None


def test_one_entry_per_input_in_order():
    x, w = pair()
    gx, gw = torch.autograd.grad((x * w).sum(), [x, w])
    assert gx.tolist() == [3.0, 4.0]
    assert gw.tolist() == [1.0, 2.0]
    gw2, gx2 = torch.autograd.grad((x * w).sum(), (w, x))
    assert gw2.tolist() == [1.0, 2.0] and gx2.tolist() == [3.0, 4.0]


def test_frees_the_graph_like_backward():
    x, _ = pair()
    y = (x * x).sum()
    assert torch.autograd.grad(y, x)[0].tolist() == [2.0, 4.0]
    with pytest.raises(RuntimeError, match=exact(SECOND_BACKWARD)):
        torch.autograd.grad(y, x)


def test_retain_graph_allows_repeated_calls():
    x, _ = pair()
    z = (x * x * x).sum()
    assert torch.autograd.grad(z, x, retain_graph=True)[0].tolist() == [3.0, 12.0]
    assert torch.autograd.grad(z, x, retain_graph=True)[0].tolist() == [3.0, 12.0]
    assert torch.autograd.grad(z, x)[0].tolist() == [3.0, 12.0]


def test_non_leaf_inputs():
    x, _ = pair()
    y = x * 3
    (gy,) = torch.autograd.grad((y * y).sum(), y)
    assert gy.tolist() == [6.0, 12.0]
    assert x.grad is None


def test_list_outputs_with_matching_grad_outputs():
    x, w = pair()
    (gx,) = torch.autograd.grad(
        [x * 2, (x * w).sum()], [x], [torch.tensor([1.0, 0.5]), torch.tensor(1.0)]
    )
    assert gx.tolist() == [5.0, 5.0]


def test_unused_input_error_names_its_index():
    x, w = pair()
    with pytest.raises(RuntimeError, match=exact(UNUSED % 1)):
        torch.autograd.grad((x * 2).sum(), [x, w])
    with pytest.raises(RuntimeError, match=exact(UNUSED % 0)):
        torch.autograd.grad((x * 2).sum(), [w, x])


def test_allow_unused_gives_none():
    x, _ = pair()
    u = torch.tensor([0.5], requires_grad=True)
    gx, gu = torch.autograd.grad((x * 3).sum(), [x, u], allow_unused=True)
    assert gx.tolist() == [3.0, 3.0]
    assert gu is None


def test_materialize_grads_gives_zeros():
    x, _ = pair()
    u = torch.tensor([0.5], requires_grad=True)
    gx, gu = torch.autograd.grad((x * 3).sum(), [x, u], materialize_grads=True)
    assert gx.tolist() == [3.0, 3.0]
    assert gu.tolist() == [0.0]
    assert gu.shape == u.shape


def test_materialize_grads_with_allow_unused_false():
    x, _ = pair()
    msg = (
        "Expected allow_unused to be True or not passed when materialize_grads=True, "
        "but got: allow_unused=False."
    )
    with pytest.raises(ValueError, match=exact(msg)):
        torch.autograd.grad(
            (x * 3).sum(), [x], materialize_grads=True, allow_unused=False
        )


def test_input_not_requiring_grad():
    x, _ = pair()
    c = torch.tensor([1.0, 2.0])
    with pytest.raises(
        RuntimeError,
        match=exact("One of the differentiated Tensors does not require grad"),
    ):
        torch.autograd.grad((x * c).sum(), [c])


def test_output_not_requiring_grad():
    x, _ = pair()
    c = torch.tensor([1.0, 2.0])
    with pytest.raises(RuntimeError, match=exact(NO_GRAD_FN)):
        torch.autograd.grad(c.sum(), [x])


def test_non_scalar_output_without_grad_outputs():
    x, _ = pair()
    msg = "grad can be implicitly created only for scalar outputs"
    with pytest.raises(RuntimeError, match=exact(msg)):
        torch.autograd.grad(x * 2, x)


def test_grad_outputs_shape_mismatch():
    x, _ = pair()
    msg = (
        "Mismatch in shape: grad_output[0] has a shape of torch.Size([3]) and output[0] has a "
        "shape of torch.Size([2])."
    )
    with pytest.raises(RuntimeError, match=exact(msg)):
        torch.autograd.grad(x * 2, x, torch.ones(3))


def test_grad_outputs_weights_the_result():
    x, _ = pair()
    (g,) = torch.autograd.grad(x * x, x, torch.tensor([1.0, 0.5]))
    assert g.tolist() == [2.0, 2.0]


def test_empty_inputs():
    x, _ = pair()
    msg = "`inputs` argument to `grad()` cannot be empty."
    with pytest.raises(RuntimeError, match=exact(msg)):
        torch.autograd.grad((x * 2).sum(), [])


def test_only_inputs_false_warns():
    x, _ = pair()
    msg = (
        "only_inputs argument is deprecated and is ignored now (defaults to True). To accumulate "
        "gradient for other parts of the graph, please use torch.autograd.backward."
    )
    with record_warnings() as caught:
        (g,) = torch.autograd.grad((x * 2).sum(), x, only_inputs=False)
    assert warning_texts(caught, FutureWarning) == [msg]
    assert g.tolist() == [2.0, 2.0]
    assert x.grad is None


def test_leaf_hooks_run_for_autograd_grad():
    x, _ = pair()
    x.register_hook(lambda g: g * 10)
    res = torch.autograd.grad((x * 3).sum(), x)
    assert res[0].tolist() == [30.0, 30.0]
    assert x.grad is None


def test_second_derivative_of_scalar_cube():
    x = torch.tensor(2.0, requires_grad=True)
    (g1,) = torch.autograd.grad(x**3, x, create_graph=True)
    assert repr(g1) == "tensor(12., grad_fn=<MulBackward0>)"
    (g2,) = torch.autograd.grad(g1, x)
    assert repr(g2) == "tensor(12.)"
    assert x.grad is None


def test_third_derivative_of_vector_cube():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (g1,) = torch.autograd.grad((x**3).sum(), x, create_graph=True)
    assert repr(g1) == "tensor([ 3., 12., 27.], grad_fn=<MulBackward0>)"
    (g2,) = torch.autograd.grad(g1.sum(), x, create_graph=True)
    assert repr(g2) == "tensor([ 6., 12., 18.], grad_fn=<MulBackward0>)"
    (g3,) = torch.autograd.grad(g2.sum(), x)
    assert repr(g3) == "tensor([6., 6., 6.])"


def test_without_create_graph_result_has_no_history():
    x = torch.tensor(2.0, requires_grad=True)
    (g1,) = torch.autograd.grad(x**3, x)
    assert g1.item() == 12.0
    assert not g1.requires_grad and g1.grad_fn is None
    with pytest.raises(RuntimeError, match=exact(NO_GRAD_FN)):
        torch.autograd.grad(g1, x)


def test_gradient_penalty_backward_through_grad():
    w = torch.tensor([1.0, -2.0], requires_grad=True)
    x = torch.tensor([3.0, 0.5])
    (g,) = torch.autograd.grad((w * w * x).sum(), w, create_graph=True)
    assert g.tolist() == [6.0, -2.0]
    assert w.grad is None
    (g * g).sum().backward()
    # d/dw sum((2 w x)^2) = 8 w x^2
    assert w.grad.tolist() == [72.0, -4.0]
