"""SPEC §1: leaf vs non-leaf tensors."""

import leafgrad as torch
import numpy as np
import pytest
from leafgrad import nn
from support import exact, record_warnings, warning_texts

ONLY_FLOAT_COMPLEX = (
    "Only Tensors of floating point and complex dtype can require gradients"
)
COPY_CONSTRUCT = (
    "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
    "sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor)."
)


def flags(t):
    return (t.is_leaf, t.requires_grad, t.grad_fn is None)


def test_plain_tensor_is_leaf_without_grad_fn():
    t = torch.tensor([1.0, 2.0])
    assert flags(t) == (True, False, True)
    assert (t * 2 + 1).is_leaf


FACTORIES = {
    "tensor": lambda: torch.tensor([1.0, 2.0], requires_grad=True),
    "ones": lambda: torch.ones(2, requires_grad=True),
    "zeros": lambda: torch.zeros(2, 3, requires_grad=True),
    "rand": lambda: torch.rand(2, requires_grad=True),
    "randn": lambda: torch.randn(2, requires_grad=True),
    "full": lambda: torch.full((2,), 3.0, requires_grad=True),
    "empty": lambda: torch.empty(2, requires_grad=True),
    "arange": lambda: torch.arange(3.0, requires_grad=True),
    "linspace": lambda: torch.linspace(0, 1, 5, requires_grad=True),
    "eye": lambda: torch.eye(3, requires_grad=True),
}


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_factory_with_requires_grad_gives_float32_leaf(name):
    t = FACTORIES[name]()
    assert flags(t) == (True, True, True)
    assert t.dtype == torch.float32


@pytest.mark.parametrize(
    "make",
    [
        lambda: torch.arange(3, requires_grad=True),
        lambda: torch.full((2,), 3, requires_grad=True),
        lambda: torch.tensor([1, 2], requires_grad=True),
        lambda: torch.tensor([True], requires_grad=True),
    ],
    ids=["arange_int", "full_int", "tensor_int", "tensor_bool"],
)
def test_factory_requires_grad_on_integer_dtype_fails(make):
    with pytest.raises(RuntimeError, match=exact(ONLY_FLOAT_COMPLEX)):
        make()


def test_complex_factory_may_require_grad():
    z = torch.tensor([1 + 2j], requires_grad=True)
    assert z.dtype == torch.complex64
    assert flags(z) == (True, True, True)
    assert repr(z) == "tensor([1.+2.j], requires_grad=True)"


@pytest.mark.parametrize("dtype_name", ["float16", "bfloat16", "float64"])
def test_low_and_high_precision_floats_may_require_grad(dtype_name):
    dtype = getattr(torch, dtype_name)
    t = torch.ones(2, dtype=dtype, requires_grad=True)
    assert t.dtype == dtype
    assert flags(t) == (True, True, True)


@pytest.mark.parametrize(
    "like",
    [
        torch.zeros_like,
        torch.ones_like,
        torch.randn_like,
        torch.empty_like,
        lambda b: torch.full_like(b, 2.0),
    ],
    ids=["zeros_like", "ones_like", "randn_like", "empty_like", "full_like"],
)
def test_like_factories_do_not_inherit_requires_grad(like):
    b = torch.tensor([1.0, 2.0], requires_grad=True)
    t = like(b)
    assert flags(t) == (True, False, True)
    assert t.shape == b.shape


def test_like_factory_with_explicit_requires_grad():
    a = torch.tensor([1.0, 2.0])
    t = torch.ones_like(a, requires_grad=True)
    assert flags(t) == (True, True, True)
    assert t.tolist() == [1.0, 1.0]


def test_from_numpy_is_float64_leaf_and_can_be_switched_on():
    t = torch.from_numpy(np.array([1.0, 2.0]))
    assert t.dtype == torch.float64
    assert flags(t) == (True, False, True)
    assert t.requires_grad_() is t
    assert flags(t) == (True, True, True)


def test_from_numpy_accepts_no_keyword_arguments():
    msg = "torch._VariableFunctionsClass.from_numpy() takes no keyword arguments"
    with pytest.raises(TypeError, match=exact(msg)):
        torch.from_numpy(np.array([1.0]), requires_grad=True)


def test_tensor_from_float64_numpy_array_stays_float64():
    t = torch.tensor(np.array([1.0, 2.0]))
    assert t.dtype == torch.float64
    assert flags(t) == (True, False, True)


def test_as_tensor_gives_leaf_without_grad():
    t = torch.as_tensor([1.0, 2.0])
    assert flags(t) == (True, False, True)


@pytest.mark.parametrize("src_rg", [True, False])
def test_tensor_of_tensor_copies_detaches_and_warns(src_rg):
    src = torch.tensor([1.0, 2.0], requires_grad=src_rg)
    with record_warnings() as caught:
        t = torch.tensor(src)
    assert warning_texts(caught, UserWarning) == [COPY_CONSTRUCT]
    assert flags(t) == (True, False, True)
    assert t.tolist() == [1.0, 2.0]
    with torch.no_grad():
        src[0] = 9.0
    assert t.tolist() == [1.0, 2.0]


def test_tensor_of_tensor_warns_on_every_call():
    src = torch.tensor([1.0])
    with record_warnings() as caught:
        torch.tensor(src)
        torch.tensor(src)
    assert warning_texts(caught, UserWarning) == [COPY_CONSTRUCT, COPY_CONSTRUCT]


def test_parameter_is_leaf_tensor_subclass():
    p = nn.Parameter(torch.tensor([1.0, 2.0]))
    assert type(p).__name__ == "Parameter"
    assert isinstance(p, torch.Tensor) and isinstance(p, nn.Parameter)
    assert flags(p) == (True, True, True)
    q = nn.Parameter(torch.tensor([1.0, 2.0]), requires_grad=False)
    assert flags(q) == (True, False, True)


def test_parameter_detaches_its_input():
    b = torch.tensor([1.0, 2.0], requires_grad=True)
    p = nn.Parameter(b * 2)
    assert flags(p) == (True, True, True)
    assert p.tolist() == [2.0, 4.0]


def test_empty_parameter():
    p = nn.Parameter()
    assert p.shape == torch.Size([0])
    assert p.dtype == torch.float32
    assert flags(p) == (True, True, True)


def test_parameter_of_int_tensor():
    with pytest.raises(RuntimeError, match=exact(ONLY_FLOAT_COMPLEX)):
        nn.Parameter(torch.tensor([1, 2]))
    p = nn.Parameter(torch.tensor([1, 2]), requires_grad=False)
    assert p.dtype == torch.int64 and not p.requires_grad


def test_parameter_of_list_fails():
    with pytest.raises(
        AttributeError, match=exact("'list' object has no attribute 'detach'")
    ):
        nn.Parameter([1.0, 2.0])


def test_ops_on_parameter_return_plain_tensor():
    p = nn.Parameter(torch.tensor([1.0, 2.0]))
    r = p * 2
    assert type(r).__name__ == "Tensor"
    assert flags(r) == (False, True, False)
    assert type(p.data).__name__ == "Tensor"
    assert type(p.detach()).__name__ == "Tensor"


def test_spec_example_non_leaf_and_no_grad():
    b = torch.tensor([1.0, 2.0], requires_grad=True)
    c = b * 2
    assert flags(c) == (False, True, False)
    assert type(c.grad_fn).__name__ == "MulBackward0"
    assert type(b.sum().grad_fn).__name__ == "SumBackward0"
    assert type(b[0].grad_fn).__name__ == "SelectBackward0"
    with torch.no_grad():
        f = b * 2
    assert flags(f) == (True, False, True)


def test_result_is_non_leaf_if_any_input_requires_grad():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = torch.tensor([3.0, 4.0])
    assert flags(x * y) == (False, True, False)
    assert flags(y * x) == (False, True, False)
    assert flags(y * y) == (True, False, True)


@pytest.mark.parametrize(
    "op",
    [
        lambda x: x.argmax(),
        lambda x: x > 0,
        lambda x: x.long(),
        lambda x: x.to(torch.int32),
        lambda x: x.detach(),
    ],
    ids=["argmax", "gt", "long", "to_int32", "detach"],
)
def test_integer_results_and_detach_are_not_recorded(op):
    x = torch.tensor([1.0, -2.0], requires_grad=True)
    assert flags(op(x)) == (True, False, True)


@pytest.mark.parametrize(
    "ctx",
    [torch.no_grad, torch.inference_mode, lambda: torch.set_grad_enabled(False)],
    ids=["no_grad", "inference_mode", "set_grad_enabled_false"],
)
def test_ops_under_disabled_grad_are_not_recorded(ctx):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with ctx():
        y = x * 2
    assert flags(y) == (True, False, True)
    assert torch.is_grad_enabled()


@pytest.mark.parametrize(
    "method, node",
    [
        ("round", "RoundBackward0"),
        ("sign", "SignBackward0"),
        ("floor", "FloorBackward0"),
    ],
)
def test_piecewise_constant_float_ops_are_recorded(method, node):
    x = torch.tensor([1.5, -2.5], requires_grad=True)
    y = getattr(x, method)()
    assert flags(y) == (False, True, False)
    assert type(y.grad_fn).__name__ == node


@pytest.mark.parametrize("attr", ["is_leaf", "grad_fn", "retains_grad", "_version"])
def test_read_only_attributes(attr):
    x = torch.tensor([1.0], requires_grad=True)
    value = getattr(x, attr)
    msg = f"attribute '{attr}' of 'torch._C.TensorBase' objects is not writable"
    with pytest.raises(AttributeError, match=exact(msg)):
        setattr(x, attr, value)
