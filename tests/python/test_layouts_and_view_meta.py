"""Layouts and view bookkeeping that the long program fuzzer found different from PyTorch 2.15:
empty tensors keep their strides through clone and dtype casts (PyTorch counts every empty
tensor as contiguous), integer rounding is a clone laid out like its input, a full-slice
assignment under no_grad leaves the written view's own history alone, and a view_as_real view
regenerated after an in-place write keeps its node's name. Recorded from torch 2.15; with
LEAFGRAD_TEST_TORCH=1 the same tests run against torch."""
import pytest

import leafgrad as torch


def test_empty_tensors_keep_their_strides():
    t = torch.empty(0, 3).t()
    assert t.stride() == (1, 3)
    assert t.double().stride() == (1, 3) and t.clone().stride() == (1, 3)
    assert (t + torch.ones(3, 1, dtype=torch.float64)).stride() == (1, 3)
    u = torch.empty(2, 0, 4).permute(1, 0, 2)
    assert u.double().stride() == (4, 4, 1) and u.clone().stride() == (4, 4, 1)
    assert (u * torch.ones(4, dtype=torch.float64)).stride() == (4, 0, 1)
    w = torch.empty(3, 0, 2)[:, :, 1:]
    assert w.clone().stride() == (2, 2, 1) and w.double().stride() == (2, 2, 1)


@pytest.mark.parametrize("f", ["floor", "ceil", "round", "trunc", "fix", "nan_to_num"])
def test_integer_rounding_is_a_clone_in_the_input_layout(f):
    t = torch.tensor([[-2, -1], [1, 2], [-1, 3]]).t()
    r = getattr(t, f)()
    assert r.stride() == (1, 2) and r.tolist() == t.tolist()
    assert r.data_ptr() != t.data_ptr()


@pytest.mark.parametrize("index", [slice(0, None), 0])
def test_full_slice_assignment_under_no_grad(index):
    x = torch.tensor(-1.8, requires_grad=True)
    v = x.reshape(-1, 1)
    with torch.no_grad():
        v[index] = 0.5
    assert v.grad_fn.name() == "AsStridedBackward0"
    v.sum().backward()
    assert x.grad.item() == 1.0


def test_view_as_real_regenerated_keeps_its_name():
    z = torch.tensor([[1.0 + 2.0j], [3.0 - 1.0j]], requires_grad=True)
    r = torch.view_as_real(z)
    with torch.no_grad():
        z.add_(1)
    assert r.grad_fn.name() == "ViewAsRealBackward0"
    y = torch.tensor(1.5 + 0.5j, requires_grad=True) + 1
    ry = torch.view_as_real(y)
    ry.zero_()
    assert ry.grad_fn.name() == "ViewAsRealBackward0"


def test_elementwise_results_of_empty_tensors_are_row_major_copies_keep_strides():
    # TensorIterator gives a same-shape empty operand a row-major result; preserve_format
    # copies (clone, casts, empty_like, nan_to_num of integers) keep its strides
    u = torch.empty(2, 0, 4).permute(1, 0, 2)
    for r in (u.long().floor(), u.sign(), u ** 1, u.bool().sign(), u.long().abs()):
        assert r.stride() == (8, 4, 1)
    for r in (u.long().nan_to_num(), u.to(torch.float64), torch.empty_like(u)):
        assert r.stride() == (4, 4, 1)
    t = torch.empty(0, 3)[0:0:2]
    assert t.stride() == (6, 1) and t.clone().stride() == (6, 1) and t.double().stride() == (6, 1)
    for r in (t ** 1, t + 1, t.exp(), t.long().floor()):
        assert r.stride() == (3, 1)


def test_pow_by_a_number_takes_its_layout_from_the_base_alone():
    # pow(Tensor, Scalar) is a unary op of base.to(result dtype): an empty permuted base gives
    # TensorIterator's unary layout, whatever the dtype (recorded from torch 2.15)
    t = torch.zeros(0, 1, 3, dtype=torch.bool).permute(1, 2, 0)
    assert t.stride() == (3, 1, 3)
    for r in (torch.pow(t, 0), torch.pow(t, 2), torch.pow(t.long(), 2), torch.pow(t.float(), 2)):
        assert r.stride() == (3, 1, 1)
