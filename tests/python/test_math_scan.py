"""cummax, cummin, logcumsumexp, quantile, nanquantile and mode: values, indices, nodes,
gradients and errors as PyTorch 2.15 gives them (these expectations run against it with
LEAFGRAD_TEST_TORCH=1)."""
import math

import pytest

import leafgrad as torch

nan, inf = math.nan, math.inf


def same(a, b):
    """Nested lists equal, NaN equal to NaN."""
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return (math.isnan(a) and math.isnan(b)) if isinstance(a, float) and math.isnan(a) else a == b


def test_cummax_cummin_ties_take_the_later_index_and_nan_propagates():
    x = torch.tensor([[1., 3., 3., nan, 2.], [4., 1., 1., 0., 4.]], requires_grad=True)
    w = torch.arange(10.).view(2, 5)
    r = torch.cummax(x, 1)
    assert type(r).__name__ == "cummax" and type(r).__module__ == "torch.return_types"
    assert r.values.grad_fn.name() == "CummaxBackward0" and r.indices.dtype == torch.int64
    assert same(r.values.tolist(), [[1.0, 3.0, 3.0, nan, nan], [4.0, 4.0, 4.0, 4.0, 4.0]])
    assert r.indices.tolist() == [[0, 1, 2, 3, 3], [0, 0, 0, 0, 4]]
    (g,) = torch.autograd.grad((r.values * w).sum(), x)
    assert g.tolist() == [[0.0, 1.0, 2.0, 7.0, 0.0], [26.0, 0.0, 0.0, 0.0, 9.0]]
    r = x.cummin(-1)
    assert type(r).__name__ == "cummin" and r.values.grad_fn.name() == "CumminBackward0"
    assert same(r.values.tolist(), [[1.0, 1.0, 1.0, nan, nan], [4.0, 1.0, 1.0, 0.0, 0.0]])
    assert r.indices.tolist() == [[0, 0, 0, 3, 3], [0, 1, 2, 3, 3]]
    (g,) = torch.autograd.grad((r.values * w).sum(), x)
    assert g.tolist() == [[3.0, 0.0, 0.0, 7.0, 0.0], [5.0, 6.0, 7.0, 17.0, 0.0]]
    assert torch.cummin(x, 0).indices.tolist() == [[0, 0, 0, 0, 0], [0, 1, 1, 0, 0]]
    values, indices = torch.cummax(x, 0)
    assert indices.tolist() == [[0, 0, 0, 0, 0], [1, 0, 0, 0, 1]]


def test_cummax_cummin_dtypes_shapes_and_errors():
    r = torch.cummax(torch.tensor(3.), 0)
    assert r.values.item() == 3.0 and r.indices.shape == () and r.indices.item() == 0
    r = torch.cummax(torch.tensor([True, False, True]), 0)
    assert r.values.tolist() == [True, True, True] and r.indices.tolist() == [0, 0, 2]
    r = torch.cummin(torch.tensor([3, 1, 2, 1], dtype=torch.int32), 0)
    assert r.values.dtype == torch.int32 and r.values.tolist() == [3, 1, 1, 1] and r.indices.tolist() == [0, 1, 1, 3]
    r = torch.cummin(torch.empty(0, 3), 1)
    assert r.values.shape == (0, 3) and r.indices.shape == (0, 3) and r.indices.dtype == torch.int64
    v, i = torch.empty(0), torch.empty(0, dtype=torch.int64)
    r = torch.cummax(torch.tensor([1., 3., 2.]), 0, out=(v, i))
    assert type(r).__name__ == "cummax_out" and r.values is v and v.tolist() == [1.0, 3.0, 3.0] and i.tolist() == [0, 1, 1]
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-1, 0\], but got 1\)"):
        torch.cummax(torch.tensor([1.]), 1)
    with pytest.raises(NotImplementedError, match="\"cummax_cpu\" not implemented for 'ComplexFloat'"):
        torch.cummax(torch.tensor([1 + 1j]), 0)
    with pytest.raises(TypeError, match="cummax\\(\\): argument 'dim' must be int, not NoneType"):
        torch.cummax(torch.tensor([1.]), dim=None)


def test_logcumsumexp_values_node_and_gradient():
    y = torch.tensor([[0.5, -1., 2., 100.], [-200., 1., 3., -1.]], requires_grad=True)
    r = torch.logcumsumexp(y, 1)
    assert r.grad_fn.name() == "LogcumsumexpBackward0"
    assert r.tolist() == [[0.5, 0.7014132738113403, 2.2413113117218018, 100.0],
                          [-200.0, 1.0, 3.1269280910491943, 3.1429316997528076]]
    (g,) = torch.autograd.grad((r * torch.arange(8.).view(2, 4)).sum(), y)
    assert g.tolist() == [[1.168155312538147, 0.2606506645679474, 1.571194052696228, 2.999992847442627],
                          [3.999988555908203, 6.536390781402588, 11.352474212646484, 0.11113367974758148]]
    assert y.logcumsumexp(0).tolist() == [[0.5, -1.0, 2.0, 100.0], [0.5, 1.1269279718399048, 3.3132617473602295, 100.0]]
    assert torch.logcumsumexp(torch.tensor(2.), 0).item() == 2.0
    assert torch.logcumsumexp(torch.tensor([1e-3, 2., 3.], dtype=torch.float64), 0).tolist() == [
        0.001, 2.127047266475116, 3.3490473527432383]


def test_logcumsumexp_infinities_and_errors():
    z = torch.tensor([-inf, -inf, 1., inf, 2.], requires_grad=True)
    r = torch.logcumsumexp(z, 0)
    assert r.tolist() == [-inf, -inf, 1.0, inf, inf]
    (g,) = torch.autograd.grad(r.sum(), z)
    assert same(g.tolist(), [nan, nan, 1.0, nan, 0.0])
    z = torch.tensor([1., -inf, 2.], requires_grad=True)
    r = torch.logcumsumexp(z, 0)
    assert r.tolist() == [1.0, 1.0, 2.3132617473602295]
    (g,) = torch.autograd.grad(r.sum(), z)
    assert g.tolist() == [2.2689414024353027, 0.0, 0.7310585379600525]
    with pytest.raises(NotImplementedError, match="\"logcumsumexp_out_cpu\" not implemented for 'Long'"):
        torch.logcumsumexp(torch.tensor([1, 2]), 0)


def test_quantile_interpolations_nodes_and_gradients():
    q = torch.tensor([[1., 3., 2., 5.], [4., nan, 0., 1.]], requires_grad=True)
    r = torch.quantile(q, 0.3, dim=1)
    assert r.grad_fn.name() == "SqueezeBackward4" and r.grad_fn.next_functions[0][0].name() == "LerpBackward1"
    assert same(r.tolist(), [1.9000000953674316, nan])
    (g,) = torch.autograd.grad(r.sum(), q)
    assert g.tolist() == [[0.09999996423721313, 0.0, 0.9000000357627869, 0.0], [0.0, 1.0, 0.0, 0.0]]
    r = torch.quantile(q, torch.tensor([0.25, 0.5, 1.]), 1, True)
    assert r.shape == (3, 2, 1) and r.grad_fn.next_functions[0][0].name() == "TransposeBackward1"
    assert same(r.tolist(), [[[1.75], [nan]], [[2.5], [nan]], [[5.0], [nan]]])
    r = q.nanquantile(0.4, keepdim=True)
    assert r.shape == (1, 1) and r.tolist() == [[1.4000000953674316]]
    (g,) = torch.autograd.grad(r.sum(), q)
    assert g.tolist() == [[0.0, 0.0, 0.40000003576278687, 0.0], [0.0, 0.0, 0.0, 0.5999999642372131]]
    expected = {
        "linear": ([[1.75, 0.5], [2.8000001907348633, 1.6000001430511475]],
                   [[0.25, 0.8000000715255737, 0.9499999284744263, 0.0], [0.20000004768371582, 0.0, 0.5, 1.2999999523162842]]),
        "lower": ([[1.0, 0.0], [2.0, 1.0]], [[1.0, 0.0, 1.0, 0.0], [0.0, 0.0, 1.0, 1.0]]),
        "higher": ([[2.0, 1.0], [3.0, 4.0]], [[0.0, 1.0, 1.0, 0.0], [1.0, 0.0, 0.0, 1.0]]),
        "nearest": ([[2.0, 0.0], [3.0, 1.0]], [[0.0, 1.0, 1.0, 0.0], [0.0, 0.0, 1.0, 1.0]]),
        "midpoint": ([[1.5, 0.5], [2.5, 2.5]], [[0.5, 0.5, 1.0, 0.0], [0.5, 0.0, 0.5, 1.0]]),
    }
    for interpolation, (values, grad) in expected.items():
        r = torch.nanquantile(q, torch.tensor([0.25, 0.6]), 1, interpolation=interpolation)
        assert r.tolist() == values, interpolation
        (g,) = torch.autograd.grad(r.sum(), q)
        assert g.tolist() == grad, interpolation
        node = "LerpBackward1" if interpolation in ("linear", "midpoint") else "GatherBackward0"
        r = torch.quantile(q, 0.3, dim=0, interpolation=interpolation)
        assert r.grad_fn.next_functions[0][0].name() == node


def test_quantile_scalars_and_errors():
    assert torch.quantile(torch.tensor(2.), 0.5).item() == 2.0
    assert torch.quantile(torch.tensor(2.), 0.5, 0, True).shape == ()
    assert torch.quantile(torch.arange(8, dtype=torch.float64), 0.3).item() == 2.1
    x = torch.tensor([1.])
    with pytest.raises(RuntimeError, match=r"quantile\(\) q must be in the range \[0, 1\] but got 1.5"):
        torch.quantile(x, 1.5)
    with pytest.raises(RuntimeError, match=r"quantile\(\) q values must be in the range \[0, 1\]"):
        torch.quantile(x, torch.tensor([1.5]))
    with pytest.raises(RuntimeError, match=r"quantile\(\) input tensor must be either float or double dtype"):
        torch.quantile(torch.tensor([1]), 0.5)
    with pytest.raises(RuntimeError, match=r"quantile\(\) input tensor must be non-empty"):
        torch.quantile(torch.tensor([]), 0.5)
    with pytest.raises(RuntimeError, match="interpolation must be one of linear, lower, higher, midpoint or nearest"):
        torch.quantile(x, 0.5, interpolation="x")
    with pytest.raises(RuntimeError, match=r"quantile\(\) q tensor must be same dtype as the input tensor"):
        torch.quantile(x, torch.tensor([0.5], dtype=torch.float64))
    with pytest.raises(RuntimeError, match=r"quantile\(\) q must be a scalar or 1D tensor"):
        torch.quantile(x, torch.tensor([[0.5]]))


def test_mode_values_indices_and_gradient():
    m = torch.tensor([[1., 2., 2., 1., 3.], [5., 5., 4., 4., 5.]], requires_grad=True)
    r = torch.mode(m, 1)
    assert type(r).__name__ == "mode" and r.values.grad_fn.name() == "ModeBackward0"
    assert r.values.tolist() == [1.0, 5.0] and r.indices.tolist() == [3, 4]
    (g,) = torch.autograd.grad(r.values.sum(), m)
    assert g.tolist() == [[0.0, 0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0, 1.0]]
    r = m.mode(0)
    assert r.values.tolist() == [1.0, 2.0, 2.0, 1.0, 3.0] and r.indices.tolist() == [0, 0, 0, 0, 0]
    r = torch.mode(m, 1, True)
    assert r.values.shape == (2, 1) and r.indices.tolist() == [[3], [4]]
    (g,) = torch.autograd.grad(r.values.sum(), m)
    assert g.tolist() == [[0.0, 0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0, 1.0]]
    values, indices = torch.mode(torch.tensor([3, 3, 1, 1, 2, 2, 2, 0, 0, 0, 5, 5, 5, 7, 7, 7, 7, 9, 9, 9, 9]))
    assert values.item() == 7 and indices.item() == 16
    values, indices = torch.mode(torch.tensor([1., 0., 2., 1., 0., 1., 2., 0., 1., 2., 0., 1., 2., 0., 1., 2., 0.,
                                               1., 2., 0.]))
    assert values.item() == 0.0 and indices.item() == 1
    values, indices = torch.mode(torch.tensor([nan, 1., nan, 1., 2., nan]))
    assert math.isnan(values.item()) and indices.item() == 0
    r = torch.mode(torch.tensor(3.))
    assert r.values.item() == 3.0 and r.indices.item() == 0
    r = torch.tensor([True, False, False]).mode()
    assert r.values.item() is False and r.indices.item() == 2
    r = torch.mode(torch.tensor([[]]), 0)
    assert r.values.shape == (0,) and r.indices.dtype == torch.int64
    with pytest.raises(IndexError, match=r"mode\(\): Expected reduction dim 1 to have non-zero size."):
        torch.mode(torch.tensor([[]]), 1)


def test_on_the_gpu_device_when_there_is_one():
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    x = torch.tensor([[1., 3., 3.], [4., 0., 4.]]).cuda().requires_grad_()
    r = torch.cummax(x, 1)
    assert r.values.device.type == "cuda" and r.indices.device.type == "cuda"
    assert r.indices.tolist() == [[0, 1, 2], [0, 0, 2]]
    (g,) = torch.autograd.grad(r.values.sum(), x)
    assert g.device.type == "cuda" and g.tolist() == [[1.0, 1.0, 1.0], [2.0, 0.0, 1.0]]
    assert torch.logcumsumexp(x, 1).device.type == "cuda"
    assert torch.quantile(x, 0.5, dim=1).tolist() == [3.0, 4.0]
    assert torch.mode(x, 1).values.tolist() == [3.0, 4.0]
