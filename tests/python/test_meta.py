"""The meta device: tensors with a shape and dtype and no data (SPEC §12, §13.1).

Making meta tensors (factories, `.to("meta")` recorded as ToCopyBackward0, modules built or
moved there), views, reprs, the errors for reading their data and for mixing devices, and ops
computed shape-only (the meta backend, src/backend/meta.rs), backward included. Expectations
were measured on torch 2.15 and run against it with LEAFGRAD_TEST_TORCH=1.
"""
import pytest
from support import USING_TORCH, exact

import leafgrad as torch


def test_move_to_meta_is_a_recorded_copy():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    m = x.to("meta")
    assert not m.is_leaf and type(m.grad_fn).__name__ == "ToCopyBackward0"
    assert repr(m) == "tensor(..., device='meta', size=(2,), grad_fn=<ToCopyBackward0>)"
    assert m.device == torch.device("meta") and repr(m.device) == "device(type='meta')"
    assert m.is_meta and not x.is_meta and not m.is_cuda
    assert m.shape == (2,) and m.dtype == torch.float32 and m.data_ptr() == 0
    assert m.to("meta") is m
    d = x.double().to("meta")
    assert repr(d) == (
        "tensor(..., device='meta', size=(2,), dtype=torch.float64,\n       grad_fn=<ToCopyBackward0>)"
    )


@pytest.mark.parametrize(
    "make, text",
    [
        (lambda: torch.ones(2, device="meta"), "tensor(..., device='meta', size=(2,))"),
        (
            lambda: torch.ones(2, 3, dtype=torch.int64, device="meta"),
            "tensor(..., device='meta', size=(2, 3), dtype=torch.int64)",
        ),
        (lambda: torch.zeros(0, device="meta"), "tensor(..., device='meta', size=(0,))"),
        (lambda: torch.tensor(3.0, device="meta"), "tensor(..., device='meta', size=())"),
        (
            lambda: torch.empty(2, device="meta", requires_grad=True),
            "tensor(..., device='meta', size=(2,), requires_grad=True)",
        ),
        (
            lambda: torch.full((2,), True, device="meta"),
            "tensor(..., device='meta', size=(2,), dtype=torch.bool)",
        ),
        (
            lambda: torch.zeros_like(torch.ones(2, dtype=torch.complex64, device="meta")),
            "tensor(..., device='meta', size=(2,), dtype=torch.complex64)",
        ),
        (lambda: torch.rand(2, device="meta"), "tensor(..., device='meta', size=(2,))"),
        (lambda: torch.ones(200, device="meta"), "tensor(..., device='meta', size=(200,))"),
        (lambda: torch.ones(2, 2, device="meta")[0], "tensor(..., device='meta', size=(2,))"),
        (lambda: torch.ones(2, device="meta").new_ones(3), "tensor(..., device='meta', size=(3,))"),
    ],
)
def test_factories_and_views_make_meta_tensors(make, text):
    assert repr(make()) == text


def test_views_keep_the_graph_and_need_no_data():
    m = torch.tensor([1.0, 2.0], requires_grad=True).to("meta")
    v = m.view(2, 1)
    assert repr(v) == "tensor(..., device='meta', size=(2, 1), grad_fn=<ViewBackward0>)"
    assert repr(m[0]) == "tensor(..., device='meta', size=(), grad_fn=<SelectBackward0>)"
    assert repr(m.detach()) == "tensor(..., device='meta', size=(2,))"
    assert m.t().shape == (2,) and m.unsqueeze(0).stride() == (2, 1)


def test_a_huge_meta_tensor_takes_no_memory():
    m = torch.empty(2**40, 2**20, device="meta")
    assert m.shape == (2**40, 2**20) and m.is_meta


def test_modules_on_the_meta_device():
    lin = torch.nn.Linear(2, 3, device="meta")
    assert lin.weight.is_meta and lin.weight.is_leaf and lin.weight.requires_grad
    assert repr(lin.bias) == "Parameter containing:\ntensor(..., device='meta', size=(3,), requires_grad=True)"
    ln = torch.nn.LayerNorm(4, device="meta")
    assert ln.weight.is_meta and ln.bias.is_meta
    moved = torch.nn.Linear(2, 2)
    w = moved.weight
    w.grad = torch.ones(2, 2)
    moved.to("meta")
    # the tensor kinds differ: new Parameter objects, leaves, with their grads moved too
    p = moved.weight
    assert p is not w and p.is_meta and p.is_leaf and p.requires_grad and p.grad.is_meta
    assert type(p).__name__ == "Parameter" and not w.is_meta
    assert moved.to("meta").weight is p
    back = moved.to_empty(device="cpu")
    assert back is moved and moved.weight.device == torch.device("cpu")
    assert moved.weight.shape == (2, 2) and moved.weight.is_leaf and moved.weight.requires_grad


def test_reading_data_raises_pytorchs_errors():
    m = torch.ones(1, device="meta")
    for f in (lambda: m.cpu(), lambda: m.to("cpu"), lambda: m.tolist()):
        with pytest.raises(NotImplementedError, match=exact("Cannot copy out of meta tensor; no data!")):
            f()
    for f in (lambda: m.item(), lambda: float(m), lambda: bool(m)):
        with pytest.raises(RuntimeError, match=exact("Tensor.item() cannot be called on meta tensors")):
            f()
    with pytest.raises(TypeError, match=exact(
        "can't convert meta device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first."
    )):
        m.numpy()


def test_grad_of_another_device_is_refused():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match=exact(
        "attempting to assign a gradient with device type 'meta' to a tensor with device type 'cpu'. "
        "Please ensure that the gradient and the tensor are on the same device"
    )):
        x.grad = torch.ones(2, device="meta")
    m = torch.ones(2, device="meta", requires_grad=True)
    with pytest.raises(RuntimeError, match=exact(
        "attempting to assign a gradient with device type 'cpu' to a tensor with device type 'meta'. "
        "Please ensure that the gradient and the tensor are on the same device"
    )):
        m.grad = torch.ones(2)
    m.grad = torch.zeros(2, device="meta")
    assert m.grad.is_meta


def test_joining_meta_tensors_gives_a_meta_tensor():
    m = torch.ones(2, 2, device="meta", requires_grad=True)
    assert repr(torch.cat([m, m])) == "tensor(..., device='meta', size=(4, 2), grad_fn=<CatBackward0>)"
    assert torch.stack([m, m]).shape == (2, 2, 2)


def test_writing_into_a_meta_tensor_is_a_no_op():
    m = torch.ones(2, device="meta")
    assert m.fill_(3) is m and m.zero_() is m and m.copy_(torch.ones(2)) is m
    assert repr(m) == "tensor(..., device='meta', size=(2,))"


# Ops on meta tensors compute the result's shape and dtype only; reprs recorded from torch 2.15.
COMPUTED = {
    'm + 1': "tensor(..., device='meta', size=(2, 2))",
    'm.sum()': "tensor(..., device='meta', size=())",
    'm == m': "tensor(..., device='meta', size=(2, 2), dtype=torch.bool)",
    'm.exp()': "tensor(..., device='meta', size=(2, 2))",
    'm @ m.t()': "tensor(..., device='meta', size=(2, 2))",
    'm.clamp(0, 1)': "tensor(..., device='meta', size=(2, 2))",
    'm.softmax(1)': "tensor(..., device='meta', size=(2, 2))",
    'm.log_softmax(0)': "tensor(..., device='meta', size=(2, 2))",
    'm * torch.tensor(2.0)': "tensor(..., device='meta', size=(2, 2))",
    'torch.nn.functional.linear(m, m)': "tensor(..., device='meta', size=(2, 2))",
    'm.sum(0, keepdim=True)': "tensor(..., device='meta', size=(1, 2))",
    'm.argmax(1)': "tensor(..., device='meta', size=(2,), dtype=torch.int64)",
    'm.cumsum(0)': "tensor(..., device='meta', size=(2, 2))",
    'm.abs()': "tensor(..., device='meta', size=(2, 2))",
    'm.to(torch.complex64).abs()': "tensor(..., device='meta', size=(2, 2))",
    'm.max()': "tensor(..., device='meta', size=())",
    'm.max(0).indices': "tensor(..., device='meta', size=(2,), dtype=torch.int64)",
    'm.int().sum()': "tensor(..., device='meta', size=(), dtype=torch.int64)",
    'm.mean()': "tensor(..., device='meta', size=())",
    'm.var()': "tensor(..., device='meta', size=())",
    'torch.where(m > 0, m, 0.0)': "tensor(..., device='meta', size=(2, 2))",
    'm.relu()': "tensor(..., device='meta', size=(2, 2))",
    'm.pow(2)': "tensor(..., device='meta', size=(2, 2))",
    'm.sigmoid().tanh()': "tensor(..., device='meta', size=(2, 2))",
    'm.t().contiguous()': "tensor(..., device='meta', size=(2, 2))",
    'torch.cat([m, m + 1])': "tensor(..., device='meta', size=(4, 2))",
    'm.unsqueeze(0).expand(3, 2, 2).sum(0)': "tensor(..., device='meta', size=(2, 2))",
    'torch.bmm(m.unsqueeze(0), m.unsqueeze(0))': "tensor(..., device='meta', size=(1, 2, 2))",
    'm.double() * 2': "tensor(..., device='meta', size=(2, 2), dtype=torch.float64)",
    'torch.maximum(m, m)': "tensor(..., device='meta', size=(2, 2))",
    'm.amax(1)': "tensor(..., device='meta', size=(2,))",
    'm.prod()': "tensor(..., device='meta', size=())",
    'm.neg().floor()': "tensor(..., device='meta', size=(2, 2))",
    '-m': "tensor(..., device='meta', size=(2, 2))",
    'm / 3': "tensor(..., device='meta', size=(2, 2))",
    'm.int() // 2': "tensor(..., device='meta', size=(2, 2), dtype=torch.int32)",
    'torch.nn.functional.gelu(m)': "tensor(..., device='meta', size=(2, 2))",
    'torch.nn.functional.mse_loss(m, m)': "tensor(..., device='meta', size=())",
    'torch.nn.functional.layer_norm(m, (2,))': "tensor(..., device='meta', size=(2, 2))",
    'm.reshape(4)[1:]': "tensor(..., device='meta', size=(3,))",
    'm.clone()': "tensor(..., device='meta', size=(2, 2))",
    'm.norm()': "tensor(..., device='meta', size=())",
    'm.logsumexp(1)': "tensor(..., device='meta', size=(2,))",
    'torch.stack([m, m]).mean(0)': "tensor(..., device='meta', size=(2, 2))",
}


@pytest.mark.parametrize("expr", list(COMPUTED))
def test_ops_on_meta_tensors_compute_shapes_and_dtypes(expr):
    m = torch.ones(2, 2, device="meta")
    assert repr(eval(expr, {"torch": torch, "m": m})) == COMPUTED[expr]


def test_backward_through_meta_tensors():
    m = torch.ones(2, 2, device="meta", requires_grad=True)
    y = (m.exp() * 2).sum()
    assert repr(y) == "tensor(..., device='meta', size=(), grad_fn=<SumBackward0>)"
    y.backward()
    assert repr(m.grad) == "tensor(..., device='meta', size=(2, 2))"


@pytest.mark.parametrize(
    "make, expected, other",
    [(lambda m: m * torch.ones(2, 2), "meta", "cpu"), (lambda m: torch.ones(2, 2) * m, "cpu", "meta")],
)
def test_mixing_meta_and_cpu_tensors_raises_pytorchs_error(make, expected, other):
    m = torch.ones(2, 2, device="meta")
    with pytest.raises(RuntimeError, match=exact(f"Tensor on device {other} is not on the expected device {expected}!")):
        make(m)


def test_a_device_as_a_context_manager_is_the_default_device_inside():
    with torch.device("meta"):
        lin = torch.nn.Linear(2, 3)
        t = torch.randn(4)
        with torch.device("cpu"):
            inner = torch.zeros(1)
    assert (lin.weight.device.type, t.device.type, inner.device.type) == ("meta", "meta", "cpu")
    assert torch.zeros(1).device.type == "cpu"


def test_random_factories_and_fills_on_meta_draw_nothing():
    # shapes far beyond memory: no values are made (and the generator does not move)
    torch.manual_seed(0)
    t = torch.rand(2**10, 3, 2**16, 2**16, device="meta")
    assert (tuple(t.shape), t.device.type, t.dtype) == ((1024, 3, 65536, 65536), "meta", torch.float32)
    assert torch.randn(2**40, device="meta").shape == (2**40,)
    assert torch.randint(0, 5, (2**40,), device="meta").dtype == torch.int64
    w = torch.nn.Linear(2**20, 2**20, device="meta").weight
    assert w.shape == (2**20, 2**20) and w.is_meta
    assert torch.empty(3, device="meta").uniform_().device.type == "meta"
    torch.manual_seed(0)
    a = torch.rand(3)
    torch.manual_seed(0)
    torch.rand(5, device="meta")
    assert torch.equal(torch.rand(3), a)
