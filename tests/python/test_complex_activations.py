"""Activations given complex input, as PyTorch 2.15 answers them: the real-only kernels refuse
complex types with their kernel's name (an empty tensor too: the dtype dispatch comes first),
`hardtanh`/`relu6` refuse them as `clamp` does, and `silu` (complex kernel, real derivative)
and an empty complex `softmax`/`log_softmax`/`amax`/`amin` (no kernel runs) refuse to record a
complex result for autograd. Messages recorded from torch; with LEAFGRAD_TEST_TORCH=1 the same
tests run against torch."""
import pytest

import leafgrad as torch

F = torch.nn.functional


def _kernel(name):
    return f'"{name}" not implemented for \'ComplexFloat\''


REFUSED = [
    ("elu", F.elu, _kernel("elu_cpu")),
    ("selu", F.selu, _kernel("elu_cpu")),
    ("celu", F.celu, _kernel("elu_cpu")),
    ("elu_", lambda x: F.elu(x.clone(), inplace=True), _kernel("elu_cpu")),
    ("mish", F.mish, _kernel("mish_cpu")),
    ("softplus", F.softplus, _kernel("softplus_cpu")),
    ("hardswish", F.hardswish, _kernel("hardswish_cpu")),
    ("hardsigmoid", F.hardsigmoid, _kernel("hardsigmoid_cpu")),
    ("gelu", F.gelu, _kernel("GeluKernelImpl")),
    ("gelu tanh", lambda x: F.gelu(x, approximate="tanh"), _kernel("GeluKernelImpl")),
    ("leaky_relu", F.leaky_relu, _kernel("leaky_relu_cpu")),
    ("leaky_relu_", lambda x: F.leaky_relu(x.clone(), inplace=True), _kernel("leaky_relu_cpu")),
    ("logsigmoid", F.logsigmoid, _kernel("log_sigmoid_cpu")),
    ("hardshrink", F.hardshrink, _kernel("hardshrink_cpu")),
    ("softshrink", F.softshrink, _kernel("softshrink_check")),
    ("glu", lambda x: F.glu(x, 0), _kernel("glu_cpu")),
    ("hardtanh", F.hardtanh, "clamp is not supported for complex types"),
    ("hardtanh_", lambda x: F.hardtanh(x.clone(), inplace=True), "clamp is not supported for complex types"),
    ("relu6", F.relu6, "clamp is not supported for complex types"),
]


def _inputs():
    z = torch.tensor([1 + 1j, -1 - 0.5j], requires_grad=True)
    return {"complex": z, "empty": torch.zeros(0, dtype=torch.cfloat, requires_grad=True), "no grad": z.detach()}


@pytest.mark.parametrize("name, f, message", REFUSED, ids=[r[0] for r in REFUSED])
def test_real_only_kernels_refuse_complex_input(name, f, message):
    for x in _inputs().values():
        with pytest.raises(NotImplementedError) as e:
            f(x)
        assert str(e.value) == message


NO_COMPLEX_AUTOGRAD = [
    ("silu", F.silu, "silu", ("complex", "empty")),
    ("softmax", lambda x: torch.softmax(x, 0), "_softmax", ("empty",)),
    ("softmin", lambda x: F.softmin(x, 0), "_softmax", ("empty",)),
    ("log_softmax", lambda x: torch.log_softmax(x, 0), "_log_softmax", ("empty",)),
    ("amax", lambda x: torch.amax(x.reshape(1, 0), 0), "amax", ("empty",)),
    ("amin", lambda x: torch.amin(x.reshape(1, 0), 0), "amin", ("empty",)),
]


@pytest.mark.parametrize("name, f, op, refused", NO_COMPLEX_AUTOGRAD, ids=[r[0] for r in NO_COMPLEX_AUTOGRAD])
def test_real_derivatives_refuse_to_record_a_complex_result(name, f, op, refused):
    for kind in refused:
        with pytest.raises(NotImplementedError) as e:
            f(_inputs()[kind])
        assert str(e.value) == f"{op} does not support automatic differentiation for outputs with complex dtype."
    with torch.no_grad():
        assert f(_inputs()["empty"]).dtype == torch.cfloat
    assert f(_inputs()["empty"].detach()).dtype == torch.cfloat
    if "complex" in refused:
        y = f(_inputs()["no grad"])
        assert torch.allclose(y, _inputs()["no grad"] * torch.sigmoid(_inputs()["no grad"]))
