"""Views of any layout (`as_strided`, `diagonal`), the in-place view ops (`transpose_`, `t_`,
`squeeze_`, `unsqueeze_`, `swapdims_`, `as_strided_`), `unsafe_split`, memory formats and
`empty_strided`. Values, strides, grad_fn names and error texts were recorded from torch 2.15;
gradients are also checked against central differences. With LEAFGRAD_TEST_TORCH=1 the same
tests run against torch."""
import pytest

from support import grad_fn_name as name, raises_exactly as raises

import leafgrad as torch


# ---------------------------------------------------------------- as_strided


def test_as_strided_values_offset_and_view_relation():
    y = torch.arange(9.)
    assert y.as_strided((2, 2), (3, 1), 1).tolist() == [[1., 2.], [4., 5.]]
    assert torch.as_strided(y, (2,), (2,)).tolist() == [0., 2.]
    # the offset defaults to the input's own, not 0
    v = y[3:]
    assert v.as_strided((2,), (1,)).tolist() == [3., 4.]
    assert v.as_strided((2,), (1,), 0).tolist() == [0., 1.]
    z = y.as_strided((3,), (3,))
    assert z._base is y and z.data_ptr() == y.data_ptr()
    z[1] = 100.
    assert y[3].item() == 100.


def test_as_strided_gradient_adds_at_each_memory_position():
    y = torch.arange(9., requires_grad=True)
    z = y.as_strided((2, 2), (1, 2))
    assert name(z) == "AsStridedBackward0"
    z.sum().backward()
    assert y.grad.tolist() == [1., 1., 1., 1., 0., 0., 0., 0., 0.]
    # overlapping windows add up
    y = torch.arange(5., requires_grad=True)
    (y.as_strided((3, 3), (1, 1)) * torch.arange(9.).view(3, 3)).sum().backward()
    assert y.grad.tolist() == [0., 4., 12., 12., 8.]
    # a stride of 0 repeats one element
    y = torch.arange(3., requires_grad=True)
    y.as_strided((4,), (0,), 1).sum().backward()
    assert y.grad.tolist() == [0., 4., 0.]


def test_as_strided_of_a_non_contiguous_input():
    x = torch.arange(12., requires_grad=True)
    t = x.view(3, 4).t()  # strides (1, 4)
    w = t.as_strided((2, 3), (4, 1), 1)
    assert w.tolist() == [[1., 2., 3.], [5., 6., 7.]]
    (w * torch.tensor([[1., 2., 3.], [4., 5., 6.]])).sum().backward()
    assert x.grad.tolist() == [0., 1., 2., 3., 0., 4., 5., 6., 0., 0., 0., 0.]


def test_as_strided_gradcheck_and_second_order():
    x = torch.rand(6, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda t: t.as_strided((2, 3), (1, 2), 0) ** 2, (x,))
    assert torch.autograd.gradgradcheck(lambda t: t.as_strided((3, 2), (2, 1), 0) ** 3, (x,))


def test_as_strided_errors():
    raises(lambda: torch.arange(4.).as_strided((3,), (2,)),
           "setStorage: sizes [3], strides [2], storage offset 0, and itemsize 4 requiring a "
           "storage size of 20 are out of bounds for storage of size 16")
    raises(lambda: torch.arange(4.).as_strided((2,), (-1,)),
           "as_strided: Negative strides are not supported at the moment, got strides: [-1]")
    raises(lambda: torch.arange(4.).as_strided((2, 2), (1,)), "mismatch in length of strides and shape")
    raises(lambda: torch.arange(4.).as_strided((-1,), (1,)),
           "Storage size calculation overflowed with sizes=[-1] and strides=[1]")
    # an empty window needs no storage
    assert torch.ones(0).as_strided((0, 1), (1, 0), 0).shape == (0, 1)


# ---------------------------------------------------------------- diagonal


def test_diagonal_values_and_view():
    d = torch.arange(12.).view(3, 4)
    e = d.diagonal()
    assert e.tolist() == [0., 5., 10.] and e.stride() == (5,) and e._base is d._base
    assert d.diagonal(1).tolist() == [1., 6., 11.]
    assert torch.diagonal(d, -1).tolist() == [4., 9.]
    assert d.diagonal(offset=5).tolist() == [] and d.diagonal(offset=-3).shape == (0,)
    assert d.view(2, 2, 3).diagonal(0, 1, 2).tolist() == [[0., 4.], [6., 10.]]
    assert d.diagonal(dim1=1, dim2=0).tolist() == [0., 5., 10.]
    e[0] = -1.
    assert d[0, 0].item() == -1.
    raises(lambda: d.diagonal(0, 1, 1), "diagonal dimensions cannot be identical 1, 1")
    with pytest.raises(IndexError):
        d.diagonal(0, 0, 2)


def test_diagonal_gradient():
    x = torch.arange(12., requires_grad=True)
    d = x.view(3, 4).diagonal(1)
    assert name(d) == "DiagonalBackward0"
    (d * torch.tensor([1., 2., 3.])).sum().backward()
    assert x.grad.tolist() == [0., 1., 0., 0., 0., 0., 2., 0., 0., 0., 0., 3.]
    x = torch.rand(2, 3, 4, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda t: t.diagonal(-1, 0, 2), (x,))
    assert torch.autograd.gradgradcheck(lambda t: t.diagonal(1, 2, 1) ** 2, (x,))
    assert torch.autograd.gradcheck(lambda t: t.diagonal(), (x,), check_forward_ad=True)


def test_diagonal_of_an_expanded_input():
    # PyTorch's test_diagonal_expanded_v: the gradient of an expanded vector's diagonal
    value = torch.rand([])
    v_expanded = value.expand(10)
    a = torch.rand(10, 10, dtype=torch.float64, requires_grad=True)
    (result,) = torch.autograd.grad(a.diagonal(), a, v_expanded)
    assert torch.equal(result, torch.eye(10, dtype=torch.float64) * value)


# ---------------------------------------------------------------- in-place view ops


def test_transpose_in_place_changes_layout_and_history():
    a = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
    b = a.clone()
    r = b.transpose_(0, 1)
    assert r is b and b.shape == (3, 2) and b.stride() == (1, 3) and b._version == 1
    assert name(b) == "TransposeBackward1"
    assert type(b.grad_fn.next_functions[0][0]).__name__ == "CloneBackward0"
    (b * torch.arange(6.).view(3, 2)).sum().backward()
    assert a.grad.tolist() == [[0., 2., 4.], [1., 3., 5.]]


def test_each_in_place_view_op_and_its_node():
    cases = [
        (lambda x: x.unsqueeze_(0), (2, 3), "UnsqueezeBackward1", (1, 2, 3)),
        (lambda x: x.squeeze_(), (2, 1), "SqueezeBackward3", (2,)),
        (lambda x: x.squeeze_(1), (2, 1), "SqueezeBackward4", (2,)),
        (lambda x: x.squeeze_((1,)), (2, 1), "SqueezeBackward5", (2,)),
        (lambda x: x.swapdims_(0, 1), (2, 3), "TransposeBackward1", (3, 2)),
        (lambda x: x.swapaxes_(0, 1), (2, 3), "TransposeBackward1", (3, 2)),
        (lambda x: x.t_(), (2, 3), "TBackward1", (3, 2)),
        (lambda x: x.as_strided_((3, 2), (1, 3)), (2, 3), "AsStridedBackward1", (3, 2)),
    ]
    for fn, shape, node, new_shape in cases:
        x = torch.rand(*shape, dtype=torch.float64, requires_grad=True)
        y = x.clone()
        fn(y)
        assert (name(y), tuple(y.shape), y._version) == (node, new_shape, 1), node
        (g,) = torch.autograd.grad((y * y).sum(), x)
        assert torch.allclose(g, 2 * x), node


def test_in_place_view_ops_gradcheck():
    x = torch.rand(2, 3, dtype=torch.float64, requires_grad=True)
    for fn in (lambda t: t.clone().transpose_(0, 1), lambda t: t.clone().t_() * 2,
               lambda t: t.clone().unsqueeze_(1), lambda t: t.clone().as_strided_((3,), (2,), 1)):
        assert torch.autograd.gradcheck(fn, (x,))
        assert torch.autograd.gradgradcheck(lambda t: fn(t) ** 2, (x,))


def test_in_place_view_op_on_a_view_then_a_write():
    a = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
    b = a.clone()
    v = b[0:2]
    v.t_()
    assert v.shape == (3, 2) and v._base is b and name(v) == "TBackward1"
    assert (b._version, v._version) == (1, 1)
    v.mul_(2)
    assert (name(v), name(b)) == ("AsStridedBackward0", "CopySlices")
    b.sum().backward()
    assert a.grad.tolist() == [[2., 2., 2.], [2., 2., 2.]]


def test_in_place_view_op_rules():
    leaf = torch.rand(2, 3, requires_grad=True)
    raises(lambda: leaf.transpose_(0, 1),
           "a leaf Variable that requires grad is being used in an in-place operation.")
    with torch.no_grad():
        leaf.t_()
    assert leaf.shape == (3, 2) and leaf.is_leaf and leaf.grad_fn is None
    raises(lambda: torch.rand(2, 3, 4).t_(), "t_() expects a tensor with <= 2 dimensions, but self is 3D")
    assert torch.rand(2).t_().shape == (2,)
    with pytest.raises(IndexError):
        torch.rand(2).transpose_(0, 3)
    # no element is written, so an expanded tensor may be transposed
    e = torch.ones(3, 1).expand(3, 4)
    e.transpose_(0, 1)
    assert e.shape == (4, 3) and e.stride() == (0, 1)
    # an inference tensor outside inference mode
    with torch.inference_mode():
        c = torch.ones(1, 2, 3)
    raises(lambda: c.transpose_(0, 1),
           "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
           "clone to get a normal tensor before doing inplace update.See "
           "https://github.com/pytorch/rfcs/pull/17 for more details.")


def test_in_place_view_op_carries_the_tangent():
    fwAD = torch.autograd.forward_ad
    with fwAD.dual_level():
        x = fwAD.make_dual(torch.tensor([[1., 2., 3.]]), torch.tensor([[4., 5., 6.]]))
        y = x.clone()
        y.transpose_(0, 1)
        p, t = fwAD.unpack_dual(y)
        assert p.shape == (3, 1) and t.tolist() == [[4.], [5.], [6.]]


# ---------------------------------------------------------------- unsafe_split, split_with_sizes


def test_unsafe_split_pieces_are_not_autograd_views():
    a = torch.rand(4, requires_grad=True).clone()
    p = a.unsafe_split(2)
    assert name(p[0]) == "UnsafeSplitBackward0"
    assert p[0]._base is None and p[0].data_ptr() == a.data_ptr()
    p[0].mul_(2)  # allowed, and no version shared with a
    assert (a._version, p[0]._version, p[1]._version) == (0, 1, 0)
    assert name(a.unsafe_chunk(2)[0]) == "UnsafeSplitBackward0"
    assert name(a.unsafe_split_with_sizes([1, 3])[0]) == "UnsafeSplitWithSizesBackward0"
    with pytest.raises(TypeError):
        a.unsafe_split([1, 3])
    assert [t.tolist() for t in torch.unsafe_split(torch.arange(5.), 2)] == [[0., 1.], [2., 3.], [4.]]
    assert [t.tolist() for t in torch.unsafe_chunk(torch.arange(5.), 2)] == [[0., 1., 2.], [3., 4.]]
    x = torch.arange(6., requires_grad=True)
    pieces = x.unsafe_split(4)
    (pieces[0].sum() * 2 + pieces[1].sum()).backward()
    assert x.grad.tolist() == [2., 2., 2., 2., 1., 1.]


def test_split_with_sizes():
    x = torch.arange(6., requires_grad=True).clone()
    a, b = x.split_with_sizes([2, 4])
    assert (a.tolist(), b.tolist()) == ([0., 1.], [2., 3., 4., 5.])
    assert name(a) == "SplitWithSizesBackward0" and a._base is x
    assert [t.shape for t in torch.split_with_sizes(torch.ones(2, 3), [1, 2], 1)] == [(2, 1), (2, 2)]
    raises(lambda: x.split_with_sizes([2, 2]),
           "split_with_sizes expects split_sizes to sum exactly to 6 (input tensor's size at "
           "dimension 0), but got split_sizes=[2, 2]")


# ---------------------------------------------------------------- layouts, memory formats


def test_memory_formats():
    assert repr(torch.strided) == "torch.strided" and torch.ones(2).layout is torch.strided
    assert repr(torch.channels_last) == "torch.channels_last"
    x = torch.arange(24.).view(1, 2, 3, 4)
    y = x.contiguous(memory_format=torch.channels_last)
    assert y.stride() == (24, 1, 8, 2) and y.tolist() == x.tolist()
    assert not y.is_contiguous() and y.is_contiguous(memory_format=torch.channels_last)
    assert y.contiguous(memory_format=torch.channels_last) is y
    assert y.contiguous().stride() == (24, 12, 4, 1)
    assert x.contiguous(memory_format=torch.contiguous_format) is x
    z = torch.rand(2, 3, 4, 5, 6).contiguous(memory_format=torch.channels_last_3d)
    assert z.stride() == (360, 1, 90, 18, 3)
    raises(lambda: torch.arange(6.).contiguous(memory_format=torch.channels_last),
           "required rank 4 tensor to use channels_last format")
    assert x.contiguous(memory_format=torch.preserve_format) is x
    raises(lambda: y.contiguous(memory_format=torch.preserve_format),
           "preserve memory format is unsupported by the contiguous operator")
    w = torch.rand(1, 2, 3, 4, requires_grad=True)
    c = w.contiguous(memory_format=torch.channels_last)
    assert name(c) == "CloneBackward0"
    (c * torch.arange(24.).view(1, 2, 3, 4)).sum().backward()
    assert w.grad.tolist() == torch.arange(24.).view(1, 2, 3, 4).tolist()


def test_empty_strided():
    t = torch.empty_strided((2, 3), (1, 2))
    assert t.shape == (2, 3) and t.stride() == (1, 2) and t.dtype == torch.float32
    u = torch.empty_strided((2, 3), (1, 2), dtype=torch.float64, requires_grad=True)
    assert u.dtype == torch.float64 and u.requires_grad and u.is_leaf
    assert torch.empty_strided((0, 3), (3, 1)).shape == (0, 3)
