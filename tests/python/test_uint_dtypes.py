"""uint16, uint32 and uint64: PyTorch's "shell" unsigned dtypes. They are stored, converted,
printed, indexed, compared for equality and multiplied; PyTorch refuses most other kernels on them
(NotImplementedError) and any promotion with another integer or bool dtype (RuntimeError).
Expected values were recorded from PyTorch 2.15; with LEAFGRAD_TEST_TORCH=1 this file runs
against PyTorch itself."""
import numpy as np
import pytest

import leafgrad as torch

UNSIGNED = [torch.uint16, torch.uint32, torch.uint64]
NAMES = {torch.uint16: "UInt16", torch.uint32: "UInt32", torch.uint64: "UInt64"}


@pytest.mark.parametrize("dt", UNSIGNED)
def test_dtype_attributes_and_limits(dt):
    bits = {torch.uint16: 16, torch.uint32: 32, torch.uint64: 64}[dt]
    assert not dt.is_signed and not dt.is_floating_point and not dt.is_complex
    assert dt.itemsize == bits // 8 and dt.to_real() == dt
    info = torch.iinfo(dt)
    assert (info.min, info.max, info.bits) == (0, 2**bits - 1, bits)
    assert str(dt) == f"torch.uint{bits}"
    with pytest.raises(TypeError, match="requires a floating point input type"):
        torch.finfo(dt)


def test_reprs_tolist_item_and_legacy_type():
    t = torch.tensor([[2**32 - 1, 3], [4, 5]], dtype=torch.uint32)
    assert repr(t) == "tensor([[4294967295,          3],\n        [         4,          5]], dtype=torch.uint32)"
    big = torch.tensor([2**63 + 5, 3], dtype=torch.uint64)
    assert repr(big) == "tensor([9223372036854775813,                   3], dtype=torch.uint64)"
    assert big.tolist() == [2**63 + 5, 3]
    assert big[0].item() == 2**63 + 5 and type(big[0].item()) is int
    assert torch.tensor([2**64 - 1], dtype=torch.uint64).tolist() == [2**64 - 1]
    assert torch.tensor([1], dtype=torch.uint16).type() == "torch.UInt16Tensor"


def test_conversions_wrap_as_pytorch():
    f = torch.tensor([3.7, -1.0, 1e10, 1e30, float("nan")])
    assert f.to(torch.uint64).tolist() == [3, 2**64 - 1, 10000000000, 0, 2**63]
    assert f.to(torch.uint32).tolist() == [3, 4294967295, 0, 0, 0]
    assert torch.tensor([3.7, -1.0, 1e10, 1e30, float("nan"), 70000.0]).to(torch.uint16).tolist() == \
        [3, 65535, 0, 0, 0, 4464]
    assert torch.tensor([-1, 2**40]).to(torch.uint32).tolist() == [4294967295, 0]
    u = torch.tensor([2**64 - 1], dtype=torch.uint64)
    assert u.long().tolist() == [-1]
    assert u.double().tolist() == [1.8446744073709552e19]
    assert u.sum().tolist() == -1  # sums to int64, wrapping as PyTorch's
    assert torch.tensor([-1], dtype=torch.uint16).tolist() == [65535]
    assert torch.full((1,), -40000, dtype=torch.uint16).tolist() == [25536]
    with pytest.raises(RuntimeError, match="value cannot be converted to type uint16_t without overflow"):
        torch.full((1,), 70000, dtype=torch.uint16)


@pytest.mark.parametrize("dt", UNSIGNED)
def test_numpy_and_dlpack_round_trip(dt):
    a = np.array([1, 2, 65535], dtype=dt.__reduce__())
    t = torch.from_numpy(a)
    assert t.dtype == dt and t.tolist() == [1, 2, 65535]
    assert t.numpy().dtype == a.dtype
    assert torch.as_tensor(a).dtype == dt and torch.tensor(a).dtype == dt
    assert torch.from_dlpack(t).tolist() == [1, 2, 65535]


def test_promotion_is_refused_with_other_integers():
    u = torch.tensor([1, 2], dtype=torch.uint16)
    for other, name in [(torch.uint8, "Byte"), (torch.int64, "Long"), (torch.int32, "Int"), (torch.bool, "Bool")]:
        with pytest.raises(RuntimeError, match=f"attempted to promote UInt16 and {name}"):
            u * torch.tensor([1], dtype=other)
    with pytest.raises(RuntimeError, match="attempted to promote UInt16 and UInt32"):
        u * torch.tensor([1], dtype=torch.uint32)
    with pytest.raises(RuntimeError, match="attempted to promote Bool and UInt16"):
        torch.tensor([True]) * torch.tensor(3, dtype=torch.uint16)
    with pytest.raises(RuntimeError, match="attempted to promote UInt16 and Long"):
        torch.cat([u, torch.tensor([1])])
    with pytest.raises(RuntimeError, match="attempted to promote UInt16 and Char"):
        torch.promote_types(torch.uint16, torch.int8)
    # a 0-d integer tensor of lower priority, a Python bool or int: no promotion, no error
    assert (u * torch.tensor(3)).dtype == torch.uint16
    assert (u * True).dtype == torch.uint16 and torch.result_type(u, 2) == torch.uint16
    assert (u * 70000).tolist() == [4464, 8928]
    # floats win
    assert (u + 1.5).tolist() == [2.5, 3.5] and (u + 1.5).dtype == torch.float32
    assert (u + torch.tensor([1.0])).dtype == torch.float32
    assert torch.promote_types(torch.uint16, torch.float16) == torch.float16
    assert (u / 2).tolist() == [0.5, 1.0]
    assert torch.can_cast(torch.uint16, torch.int64)


@pytest.mark.parametrize("dt", UNSIGNED)
def test_supported_operations(dt):
    u = torch.tensor([[3, 1, 2], [0, 5, 5]], dtype=dt)
    assert (u * u).tolist() == [[9, 1, 4], [0, 25, 25]] and (u * u).dtype == dt
    assert (u == 5).tolist() == [[False, False, False], [False, True, True]]
    assert (u != u).any().item() is False
    assert (u & 3).tolist() == [[3, 1, 2], [0, 1, 1]] and (u ^ u).dtype == dt and (u | u).tolist() == u.tolist()
    assert u.sum().item() == 16 and u.sum().dtype == torch.int64
    assert u.sum(1).tolist() == [6, 10] and u.prod().dtype == torch.int64
    assert u.cumsum(1).tolist() == [[3, 4, 6], [0, 5, 10]] and u.cumsum(1).dtype == torch.int64
    assert u.cumprod(1).dtype == torch.int64
    assert torch.maximum(u, torch.full_like(u, 2)).tolist() == [[3, 2, 2], [2, 5, 5]]
    assert u.clamp(1, 3).tolist() == [[3, 1, 2], [1, 3, 3]] and u.clamp_min(1).dtype == dt
    v, i = u.sort(1)
    assert v.tolist() == [[1, 2, 3], [0, 5, 5]] and i.tolist() == [[1, 2, 0], [0, 1, 2]]
    assert u.argsort(1).tolist() == [[1, 2, 0], [0, 1, 2]]
    assert u.unique().tolist() == [0, 1, 2, 3, 5]
    assert u.flip(0).tolist() == [[0, 5, 5], [3, 1, 2]] and u.t().contiguous().tolist() == [[3, 0], [1, 5], [2, 5]]
    assert u.gather(1, torch.tensor([[0, 2]])).tolist() == [[3, 2]]
    assert u.index_select(1, torch.tensor([2, 0])).tolist() == [[2, 3], [5, 0]]
    assert torch.where(torch.tensor([True, False, True]), u, u.flip(0)).tolist() == [[3, 5, 2], [0, 1, 5]]
    assert torch.stack([u[0], u[1]]).tolist() == u.tolist() and torch.cat([u, u]).shape == (4, 3)
    assert u.float().tolist() == [[3.0, 1.0, 2.0], [0.0, 5.0, 5.0]] and u.exp().dtype == torch.float32
    assert u.bool().tolist() == [[True, True, True], [False, True, True]]
    assert torch.allclose(u, u) and torch.equal(u, u)
    assert u.isnan().any().item() is False and u.signbit().any().item() is False
    w = u.clone()
    w[0, 0] = 9
    w.mul_(2)
    assert w.tolist() == [[18, 2, 4], [0, 10, 10]] and w.dtype == dt
    assert torch.zeros(2, dtype=dt).tolist() == [0, 0] and torch.ones(1, dtype=dt).dtype == dt
    assert torch.randint(0, 10, (5,), dtype=dt).dtype == dt
    with pytest.raises(RuntimeError, match="only Tensors of floating point dtype can require gradients"):
        u.clone().requires_grad_()


@pytest.mark.parametrize("dt", UNSIGNED)
def test_refused_kernels_raise_pytorchs_not_implemented(dt):
    u = torch.tensor([[3, 1, 2], [0, 5, 5]], dtype=dt)
    m = torch.tensor([[True, False, True], [False, True, False]])
    name = NAMES[dt]
    cases = {
        "add_stub": [lambda: u + u, lambda: u - 1, lambda: u.clone().add_(1)],
        "div_floor_cpu": [lambda: u // u], "remainder_cpu": [lambda: u % u], "fmod_cpu": [lambda: torch.fmod(u, u)],
        "neg_cpu": [lambda: -u], "abs_cpu": [lambda: u.abs()], "sign_cpu": [lambda: u.sign()],
        "lt_cpu": [lambda: u < 2], "gt_cpu": [lambda: u > u], "pow": [lambda: u ** 2],
        "max_all": [lambda: u.max()], "min_all": [lambda: u.min()], "argmax_cpu": [lambda: u.argmax()],
        "max_cpu": [lambda: u.max(1)], "max_values_cpu": [lambda: u.amax(1)], "aminmax_cpu": [lambda: torch.aminmax(u)],
        "cummax_cpu": [lambda: u.cummax(1)], "median_cpu": [lambda: u.median()], "mode_cpu": [lambda: u.mode(1)],
        "topk_cpu": [lambda: u.topk(1)], "kthvalue_cpu": [lambda: u.kthvalue(1)],
        "bitwise_not_cpu": [lambda: ~u], "lshift_cpu": [lambda: u << 1], "rshift_cpu": [lambda: u >> 1],
        "arange_cpu": [lambda: torch.arange(3, dtype=dt)], "linspace_cpu": [lambda: torch.linspace(0, 2, 3, dtype=dt)],
        "masked_fill": [lambda: u.masked_fill(m, 0)], "masked_select": [lambda: u.masked_select(m)],
        "nonzero_count_cpu": [lambda: u.nonzero(), lambda: u.count_nonzero()], "bincount_cpu": [lambda: u[0].bincount()],
        "isin_default_cpu": [lambda: torch.isin(u, u)], "take_cpu": [lambda: u.take(torch.tensor([0]))],
        "tril": [lambda: u.tril()], "trace": [lambda: u[:, :2].trace()], "addmm_impl_cpu_": [lambda: u @ u.t()],
        "dot": [lambda: u[0].dot(u[1])], "bmm": [lambda: torch.bmm(u[None], u.t()[None])],
        "logical_and_cpu": [lambda: torch.logical_and(u, u)], "index_fill_cpu": [lambda: u.index_fill(1, torch.tensor([0]), 2)],
        "searchsorted_out_cpu": [lambda: torch.searchsorted(u[0], u[1])], "randperm": [lambda: torch.randperm(3, dtype=dt)],
    }
    for kernel, fns in cases.items():
        for fn in fns:
            with pytest.raises(NotImplementedError, match=f'"{kernel}" not implemented for \'{name}\''):
                fn()


def test_cuda_refuses_unsigned_shell_types_cleanly():
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    with pytest.raises((RuntimeError, NotImplementedError)):
        torch.tensor([1], dtype=torch.uint16).cuda() * 2
