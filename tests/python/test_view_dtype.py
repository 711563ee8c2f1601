"""`Tensor.view(dtype)`: the same bytes read as another dtype (PyTorch's `view_dtype`).

Values, shapes, strides and messages were measured on PyTorch 2.15; the file also runs
against it (LEAFGRAD_TEST_TORCH=1).
"""
import pytest
from support import USING_TORCH

import leafgrad as torch


def layout(t):
    return tuple(t.shape), t.stride(), t.storage_offset(), t.dtype


def test_same_size_reads_the_bits():
    x = torch.tensor([1.0, -2.0])
    assert x.view(torch.int32).tolist() == [1065353216, -1073741824]
    assert x.view(dtype=torch.int32).tolist() == [1065353216, -1073741824]
    assert torch.tensor([1.5], dtype=torch.float16).view(torch.int16).tolist() == [15872]
    assert torch.tensor([1.5], dtype=torch.float16).view(torch.bfloat16).tolist() == [0.125]
    assert torch.tensor([True, False]).view(torch.uint8).tolist() == [1, 0]
    assert torch.tensor([True, False]).view(torch.int8).tolist() == [1, 0]
    assert torch.ones(2, 2).view(torch.int32).view(torch.float32).tolist() == [[1.0, 1.0], [1.0, 1.0]]
    t = torch.arange(6.0).reshape(2, 3).t()
    assert layout(t.view(torch.int32)) == ((3, 2), (1, 3), 0, torch.int32)


def test_smaller_elements_grow_the_last_dim():
    w = torch.ones(4).view(torch.int16)
    assert layout(w) == ((8,), (1,), 0, torch.int16)
    assert w[:2].tolist() == [0, 16256]
    assert torch.tensor([1.5], dtype=torch.float16).view(torch.uint8).tolist() == [0, 62]
    c = torch.tensor([1 + 2j])
    assert c.view(torch.float32).tolist() == [1.0, 2.0]
    v = torch.arange(12.0).reshape(3, 4)[1:, 1:3].view(torch.int16)
    assert layout(v) == ((2, 4), (8, 1), 10, torch.int16)


def test_larger_elements_shrink_the_last_dim():
    assert torch.tensor([1 + 2j]).view(torch.float64).tolist() == [2.000000473111868]
    y = torch.arange(24.0).reshape(2, 3, 4)[:, :, :2].view(torch.float64)
    assert layout(y) == ((2, 3, 1), (6, 2, 1), 0, torch.float64)
    y = torch.arange(24.0).reshape(3, 8)[:, 2:4].view(torch.float64)
    assert layout(y) == ((3, 1), (4, 1), 1, torch.float64)
    z = torch.arange(4, dtype=torch.int16).view(torch.int32)
    assert z.tolist() == [65536, 196610]


@pytest.mark.parametrize("make, dtype, message", [
    (lambda: torch.arange(6.0).reshape(2, 3).t(), "int16",
     "self.stride(-1) must be 1 to view Float as Short (different element sizes), but got 3"),
    (lambda: torch.tensor(1.0), "int16",
     "self.dim() cannot be 0 to view Float as Short (different element sizes)"),
    (lambda: torch.arange(6.0).reshape(2, 3), "float64",
     "self.size(-1) must be divisible by 2 to view Float as Double (different element sizes), but got 3"),
    (lambda: torch.arange(6.0).reshape(2, 3)[:, 1:], "int64",
     "self.storage_offset() must be divisible by 2 to view Float as Long (different element sizes), but got 1"),
    (lambda: torch.arange(24.0).reshape(4, 6).t()[1:, :], "float64",
     "self.storage_offset() must be divisible by 2 to view Float as Double (different element sizes), but got 1"),
    (lambda: torch.arange(15.0).reshape(3, 5)[:, :4], "float64",
     "self.stride(0) must be divisible by 2 to view Float as Double (different element sizes), but got 5"),
    (lambda: torch.arange(30.0).as_strided((3, 2), (5, 3)), "float64",
     "self.stride(-1) must be 1 to view Float as Double (different element sizes), but got 3"),
])
def test_pytorchs_messages(make, dtype, message):
    with pytest.raises(RuntimeError) as e:
        make().view(getattr(torch, dtype))
    assert str(e.value) == message


def test_shares_storage_and_version_but_not_autograd():
    y = torch.ones(4, requires_grad=True)
    z = y.view(torch.int32)
    assert not z.requires_grad and z.grad_fn is None and z._base is None
    same = y.view(torch.float32)
    assert same is not y and not same.requires_grad and same.is_leaf and same._base is None
    g = torch.ones(4, requires_grad=True) * 2
    assert g.view(torch.float32).grad_fn is None
    u = torch.ones(4) * 2
    v = u.view(torch.int32)
    v.add_(1)
    assert u._version == 1 and v._version == 1
    assert u.tolist()[0] == pytest.approx(2.0000002384185791, abs=0)


@pytest.mark.skipif(USING_TORCH, reason="leafgrad refuses what it cannot read safely")
def test_viewing_other_bytes_as_bool_is_refused():
    with pytest.raises(NotImplementedError, match="cannot view Byte as Bool"):
        torch.tensor([2], dtype=torch.uint8).view(torch.bool)
    assert torch.tensor([True]).view(torch.bool).tolist() == [True]


@pytest.mark.parametrize("args, got", [
    ((2,), "int"),
    ((2, 2), "int, int"),
    (((2, 2),), "tuple"),
    (([4],), "list"),
    ((2.0,), "float"),
    ((torch.int32,), "torch.dtype"),
])
def test_a_shape_and_a_dtype_keyword_is_pytorchs_type_error(args, got):
    with pytest.raises(TypeError) as e:
        torch.zeros(4).view(*args, dtype=torch.int32)
    assert str(e.value) == (
        f"view() received an invalid combination of arguments - got ({got}, dtype=torch.dtype), "
        "but expected one of:\n * (torch.dtype dtype)\n * (tuple of ints size)\n")
