"""torch.autograd.Variable (legacy) and torch.is_inference, recorded from torch 2.15 (run
against it with LEAFGRAD_TEST_TORCH=1)."""
import pytest
from support import exact, record_warnings, warning_texts

import leafgrad as torch
from leafgrad.autograd import Variable


def test_variable_makes_a_detached_tensor_with_the_flag():
    x = torch.ones(2)
    v = Variable(x, requires_grad=True)
    assert str(v) == "tensor([1., 1.], requires_grad=True)"
    assert v is not x and v.is_leaf and isinstance(x, Variable) and type(v) is torch.Tensor
    w = Variable(x)
    assert w is not x and not w.requires_grad
    y = torch.ones(2, requires_grad=True) * 2
    d = Variable(y)
    assert d.grad_fn is None and not d.requires_grad
    d.add_(1)
    assert y.tolist() == [3.0, 3.0]  # shares memory
    with pytest.raises(TypeError, match=exact("Variable data has to be a tensor, but got int")):
        Variable(3)
    with record_warnings() as caught:
        Variable(x, volatile=True)
    assert warning_texts(caught, UserWarning) == [
        "volatile was removed and now has no effect. Use `with torch.no_grad():` instead."
    ]


def test_is_inference():
    with torch.inference_mode():
        t = torch.ones(2)
    assert torch.is_inference(t) and not torch.is_inference(torch.ones(2))
    with pytest.raises(TypeError, match=exact("is_inference(): argument 'input' (position 1) must be Tensor, not int")):
        torch.is_inference(3)
