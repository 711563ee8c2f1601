"""`t[basic, advanced] = v` keeps the gradient of the window's other elements; boolean scalar
and uint8 indices; `torch.Size` arithmetic; `broadcast_tensors`. Values recorded from PyTorch
2.15 (LEAFGRAD_TEST_TORCH=1 runs this file against it)."""
import leafgrad as torch


def _grad(write, shape=(2, 3)):
    p = torch.ones(*shape, requires_grad=True)
    t = p * 2
    write(t)
    t.sum().backward()
    return p.grad.tolist(), type(t.grad_fn).__name__


def test_scatter_into_a_window_keeps_the_other_elements_gradient():
    assert _grad(lambda t: t.__setitem__((1, torch.tensor([0])), 5.0)) == ([[2, 2, 2], [0, 2, 2]], "CopySlices")
    assert _grad(lambda t: t.__setitem__((slice(1, None), torch.tensor([0])), 5.0)) == \
        ([[2, 2, 2], [0, 2, 2]], "CopySlices")
    assert _grad(lambda t: t.__setitem__((0, torch.tensor([True, False, True])), torch.tensor(7.0))) == \
        ([[0, 2, 0], [2, 2, 2]], "CopySlices")
    assert _grad(lambda t: t.__setitem__((None, torch.tensor([0])), 5.0), (2,)) == ([0, 2], "CopySlices")
    assert _grad(lambda t: t.__setitem__((None, torch.tensor([], dtype=torch.long)), 5.0), (2,)) == \
        ([2, 2], "CopySlices")


def test_the_written_value_gets_its_gradient_through_the_window():
    p = torch.ones(2, 3, requires_grad=True)
    v = torch.tensor([3.0, 4.0], requires_grad=True)
    t = p * 2
    t[1, torch.tensor([0, 2])] = v * 1
    (t * torch.arange(6.0).reshape(2, 3)).sum().backward()
    assert p.grad.tolist() == [[0.0, 2.0, 4.0], [0.0, 8.0, 0.0]]
    assert v.grad.tolist() == [3.0, 5.0]


def test_boolean_scalar_indices():
    assert _grad(lambda t: t.__setitem__(torch.tensor(False), 5.0), (2,)) == ([2, 2], "CopySlices")
    assert _grad(lambda t: t.__setitem__(torch.tensor(True), 5.0), (2,)) == ([0, 0], "CopySlices")
    # a Python False selects nothing: PyTorch does not even record the write
    assert _grad(lambda t: t.__setitem__(False, 5.0), (2,)) == ([2, 2], "MulBackward0")
    p = torch.tensor(0.3, requires_grad=True)
    t = p * 2
    t[torch.tensor(False)] = 5.0
    t.backward()
    assert p.grad.item() == 2.0


def test_a_zero_dim_integer_tensor_of_any_width_indexes_as_an_int():
    f = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    for dt in (torch.int8, torch.int16, torch.int32, torch.int64, torch.uint16, torch.uint32, torch.uint64):
        assert f[torch.tensor(1, dtype=dt)].tolist() == [3.0, 4.0]
    # uint8 indices are (deprecated) masks
    assert f[torch.tensor(1, dtype=torch.uint8)].tolist() == [[[1.0, 2.0], [3.0, 4.0]]]
    assert f[torch.tensor([1, 0], dtype=torch.uint8)].tolist() == [[1.0, 2.0]]


def test_size_concatenation_and_repetition_stay_sizes():
    s = torch.Size([2])
    assert type((3,) + s) is torch.Size and (3,) + s == (3, 2)
    assert type(s + (3,)) is torch.Size and type(s * 2) is torch.Size and type(2 * s) is torch.Size
    try:
        s + [1]
    except TypeError as e:
        assert "can only concatenate tuple (not list) to torch.Size" in str(e)
    else:
        raise AssertionError("no TypeError")


def test_broadcast_tensors_returns_inputs_of_the_shape_and_pytorchs_error():
    a = torch.ones(2, requires_grad=True)
    b = torch.ones(3, 1)
    x, y = torch.broadcast_tensors(a, a)
    assert x is a and y is a
    x, y = torch.broadcast_tensors(a, b)
    assert x is not a and x.grad_fn.name() == "ExpandBackward0" and x.shape == (3, 2)
    cases = [((2,), (3,), 2, 3, 0), ((2, 1, 3), (5, 4), 3, 4, 2), ((3,), (2, 4), 3, 4, 1)]
    for sa, sb, na, nb, dim in cases:
        try:
            torch.broadcast_tensors(torch.ones(sa), torch.ones(sb))
        except RuntimeError as e:
            assert str(e) == f"The size of tensor a ({na}) must match the size of tensor b ({nb}) at " \
                             f"non-singleton dimension {dim}"
        else:
            raise AssertionError("no error")
