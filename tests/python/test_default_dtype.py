"""torch.set_default_dtype / get_default_dtype / set_default_tensor_type: what the default
floating dtype changes (factories, Python floats and complexes, integers in float functions,
layers' parameters, optimizer step counters, reprs), as PyTorch 2.15 does (these expectations
run against it with LEAFGRAD_TEST_TORCH=1)."""
import warnings

import pytest

import leafgrad as torch


@pytest.fixture
def float64_default():
    torch.set_default_dtype(torch.float64)
    try:
        yield
    finally:
        torch.set_default_dtype(torch.float32)


def test_default_is_float32_and_only_floats_are_accepted():
    assert torch.get_default_dtype() == torch.float32
    for bad, msg in [
        (torch.int64, "^only floating-point types are supported as the default type$"),
        (torch.complex64, "^only floating-point types are supported as the default type$"),
        ("float64", "^invalid dtype object: only floating-point types are supported as the default type$"),
    ]:
        with pytest.raises(TypeError, match=msg):
            torch.set_default_dtype(bad)
    assert torch.get_default_dtype() == torch.float32


def test_half_defaults():
    for d in (torch.float16, torch.bfloat16):
        torch.set_default_dtype(d)
        try:
            assert torch.get_default_dtype() == d
            assert torch.tensor([1.5]).dtype == d and torch.zeros(2).dtype == d
        finally:
            torch.set_default_dtype(torch.float32)


def test_factories_take_the_default(float64_default):
    made = [torch.tensor([1.5]), torch.tensor(2.0), torch.zeros(2), torch.ones(1), torch.empty(1), torch.rand(1),
            torch.randn(1), torch.arange(0.0, 3), torch.linspace(0, 1, 3), torch.eye(2), torch.full((1,), 2.0),
            torch.normal(0.0, 1.0, (2,)), torch.Tensor([1]), torch.Tensor(2), torch.nn.Parameter(),
            torch.as_tensor([1.0, 2.0])]
    assert [t.dtype for t in made] == [torch.float64] * len(made)
    assert torch.tensor(1j).dtype == torch.complex128
    # not floats, or said explicitly: unchanged
    assert torch.full((1,), 2).dtype == torch.int64 and torch.randint(3, (2,)).dtype == torch.int64
    assert torch.tensor(True).dtype == torch.bool and torch.arange(3).dtype == torch.int64
    assert torch.tensor([1.5], dtype=torch.float32).dtype == torch.float32
    assert torch.tensor([1.0, 2.0]).float().dtype == torch.float32


def test_promotion_with_the_default(float64_default):
    i = torch.tensor([1, 2])
    got = [(i / 2).dtype, (i * 2.5).dtype, torch.sqrt(i).dtype, torch.atan2(i, i).dtype, torch.clamp(i, 0.5).dtype,
           torch.logsumexp(i, 0).dtype, torch.where(i > 1, 1.0, 2.0).dtype, (i ** 0.5).dtype, i.sigmoid().dtype,
           (torch.tensor([3]) / torch.tensor([2])).dtype]
    assert got == [torch.float64] * len(got)
    assert (i * 1j).dtype == torch.complex128
    # a float32 tensor keeps its dtype with Python numbers, and joins a float64 one as float64
    f = torch.tensor([1.0], dtype=torch.float32)
    assert (f + 1.5).dtype == torch.float32 and (f * 1j).dtype == torch.complex64
    assert (f * torch.tensor(2.0)).dtype == torch.float32 and (f + torch.tensor([1.0])).dtype == torch.float64


def test_reprs_leave_the_default_unsaid(float64_default):
    assert repr(torch.tensor([1.5])) == "tensor([1.5000])"
    assert repr(torch.tensor([1.5], dtype=torch.float32)) == "tensor([1.5000], dtype=torch.float32)"
    assert repr(torch.tensor([1 + 2j])) == "tensor([1.+2.j])"
    assert repr(torch.tensor([1 + 2j], dtype=torch.complex64)) == "tensor([1.+2.j], dtype=torch.complex64)"
    assert repr(torch.tensor([])) == "tensor([])"
    assert repr(torch.tensor([], dtype=torch.float32)) == "tensor([], dtype=torch.float32)"
    assert repr(torch.zeros(2, device="meta")) == "tensor(..., device='meta', size=(2,))"


def test_reprs_after_restoring_float32(float64_default):
    torch.set_default_dtype(torch.float32)
    assert repr(torch.tensor([1.5]).double()) == "tensor([1.5000], dtype=torch.float64)"
    assert repr(torch.zeros(2, device="meta", dtype=torch.float64)) == (
        "tensor(..., device='meta', size=(2,), dtype=torch.float64)")


def test_training_in_float64(float64_default):
    torch.manual_seed(0)
    m = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))
    assert all(p.dtype == torch.float64 for p in m.parameters())
    assert m[0].weight[0].tolist() == [0.5427704542528101, 0.23996970930833816, -0.046900537438113156]
    opt = torch.optim.Adam(m.parameters(), lr=0.1)
    x, y = torch.randn(8, 3), torch.randn(8, 1)
    losses = []
    for _ in range(3):
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(m(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses == pytest.approx([0.8288509986129066, 0.5904140407017782, 0.462018330394428], rel=1e-12)
    step = opt.state_dict()["state"][0]["step"]
    assert step.dtype == torch.float64 and step.item() == 3.0


def test_set_default_tensor_type(float64_default):
    torch.set_default_dtype(torch.float32)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        torch.set_default_tensor_type(torch.DoubleTensor)
        assert torch.get_default_dtype() == torch.float64
        torch.set_default_tensor_type("torch.FloatTensor")
        assert torch.get_default_dtype() == torch.float32
