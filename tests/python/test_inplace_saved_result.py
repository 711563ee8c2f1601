"""An in-place op that saves its result (exp_, sigmoid_, tanh_, relu_, sqrt_, rsqrt_) saves the
written tensor itself, as PyTorch does: writing into it again makes backward refuse with
PyTorch's message, and without a later write the gradient is unchanged. Recorded from torch
2.15; with LEAFGRAD_TEST_TORCH=1 the same tests run against torch."""
import pytest

import leafgrad as torch


@pytest.mark.parametrize("op, node", [
    ("exp_", "Exp"), ("sigmoid_", "Sigmoid"), ("tanh_", "Tanh"), ("relu_", "Relu"),
    ("sqrt_", "Sqrt"), ("rsqrt_", "Rsqrt"),
])
def test_a_later_write_into_the_saved_result_is_refused(op, node):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 1
    getattr(h, op)()
    h.mul_(2)
    with pytest.raises(RuntimeError) as e:
        h.sum().backward()
    assert str(e.value).startswith(
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: [torch.FloatTensor [2]], which is output 0 of {node}, is at version 2; "
        "expected version 1 instead.")


def test_fill_after_exp_is_refused_and_without_it_the_gradient_flows():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 1
    h.exp_()
    h.fill_(2.0)
    with pytest.raises(RuntimeError, match="output 0 of Exp, is at version 2"):
        h.sum().backward()
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 1
    h.sigmoid_()
    h.sum().backward()
    s = torch.tensor([1.0, 2.0]).sigmoid()
    assert x.grad.tolist() == (s * (1 - s)).tolist()
