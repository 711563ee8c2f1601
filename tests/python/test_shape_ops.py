"""Shape functions PyTorch composes from other ops (movedim, tile, unflatten, narrow, the
split and stack families, atleast_*d, diff, meshgrid, cartesian_prod, rot90, argwhere,
tri*_indices, positive, rad2deg/deg2rad, isneginf/isposinf/isreal, select, true_divide,
floor_divide) and finfo/iinfo: values, node names, warnings and errors recorded from torch 2.15.
With LEAFGRAD_TEST_TORCH=1 the same tests run against torch."""
import math
import warnings

import pytest

from support import grad_fn_name as name, raises_exactly as raises

import leafgrad as torch


def test_movedim_tile_unflatten_narrow_ravel():
    x = torch.arange(24.).view(2, 3, 4).requires_grad_()
    m = torch.movedim(x, 0, 2)
    assert m.shape == (3, 4, 2) and name(m) == "PermuteBackward0" and m[1, 2].tolist() == [6., 18.]
    assert torch.moveaxis(x, (0, 1), (2, 0)).shape == (3, 4, 2)
    assert x.movedim(-1, 0)[:, 0, 0].tolist() == [0., 1., 2., 3.]
    raises(lambda: torch.movedim(x, (0, 0), (1, 2)), "movedim: repeated dim in `source` ([0, 0])")
    raises(lambda: torch.movedim(x, (0, 1), (1,)),
           "movedim: Invalid source or destination dims: source ([0, 1] dims) should contain the same number "
           "of dims as destination ([1] dims)")
    t = x.tile((2,))
    assert t.shape == (2, 3, 8) and name(t) == "RepeatBackward0"
    assert torch.tile(torch.tensor([1, 2]), (2, 2)).tolist() == [[1, 2, 1, 2], [1, 2, 1, 2]]
    u = x.unflatten(-1, (2, -1))
    assert u.shape == (2, 3, 2, 2) and name(u) == "ViewBackward0"
    n = torch.narrow(x, 1, -2, 2)
    assert n.shape == (2, 2, 4) and name(n) == "SliceBackward0" and n[0, 0, 0].item() == 4.
    assert torch.narrow(x, 1, 3, 0).shape == (2, 0, 4)
    raises(lambda: torch.narrow(x, 1, 2, 2), "start (2) + length (2) exceeds dimension size (3).")
    assert x.ravel().shape == (24,) and name(x.ravel()) == "ViewBackward0"
    (m.sum() + t.sum() + n.sum()).backward()
    assert x.grad[0, 1].tolist() == [4., 4., 4., 4.]


def test_splits_and_stacks():
    x = torch.arange(24.).view(2, 3, 4).requires_grad_()
    parts = torch.tensor_split(x, 3, dim=2)
    assert [p.shape[2] for p in parts] == [2, 1, 1] and all(name(p) == "SliceBackward0" for p in parts)
    assert [p.tolist() for p in torch.tensor_split(torch.arange(7), [5, 2])] == [[0, 1, 2, 3, 4], [], [2, 3, 4, 5, 6]]
    assert [p.tolist() for p in torch.tensor_split(torch.arange(7), [-1])] == [[0, 1, 2, 3, 4, 5], [6]]
    assert [p.tolist() for p in torch.tensor_split(torch.arange(7), torch.tensor(2))] == [[0, 1, 2, 3], [4, 5, 6]]
    assert [p.shape for p in torch.hsplit(x, [1])] == [(2, 1, 4), (2, 2, 4)]
    assert [p.shape for p in torch.vsplit(x, 2)] == [(1, 3, 4), (1, 3, 4)]
    assert [p.shape for p in torch.dsplit(x, 2)] == [(2, 3, 2), (2, 3, 2)]
    raises(lambda: torch.vsplit(torch.arange(6), 3),
           "torch.vsplit requires a tensor with at least 2 dimension, but got a tensor with 1 dimensions!")
    raises(lambda: torch.hsplit(x, 2),
           "torch.hsplit attempted to split along dimension 1, but the size of the dimension 3 is not divisible "
           "by the split_size 2!")
    h = torch.hstack([x, x])
    assert h.shape == (2, 6, 4) and name(h) == "CatBackward0"
    assert torch.hstack([torch.tensor(1.), torch.tensor(2.)]).tolist() == [1., 2.]
    assert torch.vstack([x[0], x[1]]).shape == (6, 4)
    assert torch.row_stack([torch.ones(3), torch.ones(3)]).shape == (2, 3)
    assert torch.dstack([torch.tensor([1, 2]), torch.tensor([3, 4])]).tolist() == [[[1, 3], [2, 4]]]
    assert torch.column_stack([torch.ones(3), torch.ones(3, 2)]).shape == (3, 3)
    assert torch.atleast_1d(torch.tensor(1.)).shape == (1,)
    assert torch.atleast_2d(torch.ones(3)).shape == (1, 3)
    assert torch.atleast_3d(torch.ones(3)).shape == (1, 3, 1)
    assert torch.atleast_3d(torch.ones(2, 3)).shape == (2, 3, 1)
    assert torch.atleast_3d(torch.tensor(1.)).shape == (1, 1, 1)
    assert [t.shape for t in torch.atleast_2d(torch.ones(1), torch.ones(2, 2))] == [(1, 1), (2, 2)]


def test_diff_meshgrid_cartesian_rot90():
    x = torch.arange(24.).view(2, 3, 4).requires_grad_()
    d = torch.diff(x, dim=2)
    assert d.shape == (2, 3, 3) and name(d) == "SubBackward0"
    assert torch.diff(torch.tensor([1, 3, 6, 10]), n=2).tolist() == [1, 1]
    assert torch.diff(torch.tensor([1., 3.]), prepend=torch.tensor([0.]), append=torch.tensor([9.])).tolist() == [1., 2., 6.]
    assert torch.diff(torch.tensor([True, False, False])).tolist() == [True, False]
    assert torch.diff(torch.tensor([1, 2]), n=5).tolist() == []
    a, b = torch.meshgrid(torch.arange(2), torch.arange(3), indexing="ij")
    assert a.tolist() == [[0, 0, 0], [1, 1, 1]] and b.tolist() == [[0, 1, 2], [0, 1, 2]]
    a, b = torch.meshgrid([torch.arange(2), torch.arange(3)], indexing="xy")
    assert a.tolist() == [[0, 1], [0, 1], [0, 1]] and b.tolist() == [[0, 0], [1, 1], [2, 2]]
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        torch.meshgrid(torch.arange(2), torch.arange(3))
    assert [str(m.message) for m in w] == [
        "torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument. "
        "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4207.)"]
    assert torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4])).tolist() == [[1, 3], [1, 4], [2, 3], [2, 4]]
    assert torch.cartesian_prod(torch.tensor([1, 2])).tolist() == [1, 2]
    assert torch.rot90(torch.arange(4.).view(2, 2)).tolist() == [[1., 3.], [0., 2.]]
    assert torch.rot90(torch.arange(6.).view(2, 3), 2).tolist() == [[5., 4., 3.], [2., 1., 0.]]
    assert torch.rot90(torch.arange(6.).view(2, 3), -1, (1, 0)).tolist() == [[2., 5.], [1., 4.], [0., 3.]]
    assert torch.rot90(torch.arange(6.).view(2, 3), 3).tolist() == [[3., 0.], [4., 1.], [5., 2.]]


def test_indices_and_small_functions():
    assert torch.argwhere(torch.tensor([[0, 1], [2, 0]])).tolist() == [[0, 1], [1, 0]]
    assert torch.triu_indices(3, 3).tolist() == [[0, 0, 0, 1, 1, 2], [0, 1, 2, 1, 2, 2]]
    assert torch.tril_indices(3, 3, -1).tolist() == [[1, 2, 2], [0, 0, 1]]
    assert torch.tril_indices(4, 3, 1).tolist() == [[0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3],
                                                    [0, 1, 0, 1, 2, 0, 1, 2, 0, 1, 2]]
    assert torch.triu_indices(2, 4, 1).tolist() == [[0, 0, 0, 1, 1], [1, 2, 3, 2, 3]]
    raises(lambda: torch.positive(torch.tensor([True])), "The `+` operator, on a bool tensor is not supported.",
           NotImplementedError)
    assert torch.rad2deg(torch.tensor([1])).dtype == torch.float32
    assert torch.deg2rad(torch.tensor([180.])).tolist() == pytest.approx([math.pi])
    assert torch.isneginf(torch.tensor([-math.inf, 1.])).tolist() == [True, False]
    assert torch.isposinf(torch.tensor([2, 3])).tolist() == [False, False]
    assert torch.isreal(torch.tensor([1 + 0j, 1j])).tolist() == [True, False]
    assert torch.isreal(torch.tensor([1., float("nan")])).tolist() == [True, True]
    assert torch.select(torch.tensor([[1, 2], [3, 4]]), 1, 0).tolist() == [1, 3]
    assert torch.true_divide(torch.tensor([1, 3]), 2).tolist() == [0.5, 1.5]
    assert torch.floor_divide(torch.tensor([7, -7]), 2).tolist() == [3, -4]


def test_finfo_iinfo():
    assert repr(torch.finfo(torch.float64)) == (
        "finfo(resolution=1e-15, min=-1.79769e+308, max=1.79769e+308, eps=2.22045e-16, "
        "smallest_normal=2.22507e-308, tiny=2.22507e-308, dtype=float64)")
    assert repr(torch.finfo(torch.bfloat16)) == (
        "finfo(resolution=0.01, min=-3.38953e+38, max=3.38953e+38, eps=0.0078125, smallest_normal=1.17549e-38, "
        "tiny=1.17549e-38, dtype=bfloat16)")
    assert torch.finfo(torch.bfloat16).max == 3.3895313892515355e+38
    assert torch.finfo(torch.float16).tiny == 6.103515625e-05
    assert torch.finfo().eps == 1.1920928955078125e-07 and torch.finfo(torch.float32).bits == 32
    assert torch.finfo(torch.complex64).eps == torch.finfo(torch.float32).eps
    assert repr(torch.iinfo(torch.int64)) == "iinfo(min=-9.22337e+18, max=9.22337e+18, dtype=int64)"
    assert torch.iinfo(torch.int64).max == 9223372036854775807 and torch.iinfo(torch.uint8).bits == 8
    raises(lambda: torch.iinfo(torch.bool), "torch.bool is not supported by torch.iinfo", TypeError)
    raises(lambda: torch.finfo(torch.int32),
           "torch.finfo() requires a floating point input type. Use torch.iinfo to handle 'torch.finfo'", TypeError)
    raises(lambda: torch.iinfo(torch.float32),
           "torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'", TypeError)


def test_isin_signbit_volatile():
    x = torch.tensor([[1, 2], [3, 4.0]], requires_grad=True)
    out = torch.isin(x, torch.tensor([2, 3]))
    assert out.tolist() == [[False, True], [True, False]] and not out.requires_grad
    assert torch.isin(x, torch.tensor([2, 3]), invert=True).tolist() == [[True, False], [False, True]]
    assert torch.isin(torch.tensor([1, 2, 3]), 2).tolist() == [False, True, False]
    r = torch.isin(2, torch.tensor([1, 2]))
    assert r.dim() == 0 and r.item() is True
    nan = float("nan")
    assert torch.isin(torch.tensor([1., nan]), torch.tensor([nan, 1.])).tolist() == [True, False]
    assert torch.isin(torch.tensor([1, 2]), torch.tensor([])).tolist() == [False, False]
    assert torch.isin(torch.tensor([1, 2]), torch.tensor([2.5, 2.0])).tolist() == [False, True]
    raises(lambda: torch.isin(torch.tensor([True, False]), torch.tensor([True])),
           "Unsupported input type encountered for isin(): Bool", NotImplementedError)
    s = torch.signbit(torch.tensor([-0., 0., -1., 2., nan, -nan, -float("inf")]))
    assert s.tolist() == [True, False, True, False, False, True, True]
    assert torch.signbit(torch.tensor([-1, 0, 3])).tolist() == [True, False, False]
    assert torch.signbit(torch.tensor([True])).tolist() == [False]
    assert not x.signbit().requires_grad
    assert torch.signbit(torch.tensor([-1.], dtype=torch.float16)).tolist() == [True]
    raises(lambda: torch.signbit(torch.tensor([1j])), "signbit is not implemented for complex tensors.",
           NotImplementedError)
    v = torch.autograd.torch.randn(3, 3)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert v.volatile is False
    assert [str(m.message) for m in w] == ["volatile was removed (Variable.volatile is always False)"]


def test_narrow_of_a_whole_dim_is_a_slice():
    # PyTorch's narrow always slices (SliceBackward0), even over the whole dim
    t = torch.zeros(3, 4, requires_grad=True)
    assert type(t.narrow(1, 0, 4).grad_fn).__name__ == "SliceBackward0"
    assert type(torch.narrow(t, -2, 0, 3).grad_fn).__name__ == "SliceBackward0"
    assert type(t.narrow(1, 1, 2).grad_fn).__name__ == "SliceBackward0"
