"""maximum, minimum and clamp: values and gradients at ties, at NaN and with crossed bounds,
as PyTorch 2.15 computes them (tables recorded from it; with LEAFGRAD_TEST_TORCH=1 the same
tests run against the installed PyTorch). Their gradients are formulas beside the forward
(src/ops/clamp.rs), so second derivatives and create_graph work too."""
import math

import pytest
from support import USING_TORCH

import leafgrad as torch

NAN = math.nan

TENSOR_BOUNDS = [  # x, min, max -> clamp, x.grad, min.grad, max.grad (PyTorch 2.15)
    (-1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0),
    (-1.0, NAN, 1.0, NAN, 1.0, 0.0, 0.0),
    (-1.0, 0.0, NAN, NAN, 0.0, 0.0, 0.0),
    (-1.0, 2.0, 1.0, 1.0, 0.0, 0.0, 1.0),
    (-1.0, 1.0, 1.0, 1.0, 0.0, 1.0, 0.0),
    (-1.0, 0.0, None, 0.0, 0.0, 1.0, None),
    (-1.0, NAN, None, NAN, 1.0, 1.0, None),
    (-1.0, None, 1.0, -1.0, 1.0, None, 0.0),
    (-1.0, None, NAN, NAN, 1.0, None, 1.0),
    (0.0, 0.0, 1.0, 0.0, 0.5, 0.5, 0.0),
    (0.0, NAN, 1.0, NAN, 1.0, 0.0, 0.0),
    (0.0, 0.0, NAN, NAN, 1.0, 0.0, 0.0),
    (0.0, 2.0, 1.0, 1.0, 0.0, 0.0, 1.0),
    (0.0, 1.0, 1.0, 1.0, 0.0, 1.0, 0.0),
    (0.0, 0.0, None, 0.0, 0.5, 0.5, None),
    (0.0, NAN, None, NAN, 1.0, 1.0, None),
    (0.0, None, 1.0, 0.0, 1.0, None, 0.0),
    (0.0, None, NAN, NAN, 1.0, None, 1.0),
    (0.5, 0.0, 1.0, 0.5, 1.0, 0.0, 0.0),
    (0.5, NAN, 1.0, NAN, 1.0, 0.0, 0.0),
    (0.5, 0.0, NAN, NAN, 1.0, 0.0, 0.0),
    (0.5, 2.0, 1.0, 1.0, 0.0, 0.0, 1.0),
    (0.5, 1.0, 1.0, 1.0, 0.0, 1.0, 0.0),
    (0.5, 0.0, None, 0.5, 1.0, 0.0, None),
    (0.5, NAN, None, NAN, 1.0, 1.0, None),
    (0.5, None, 1.0, 0.5, 1.0, None, 0.0),
    (0.5, None, NAN, NAN, 1.0, None, 1.0),
    (1.0, 0.0, 1.0, 1.0, 0.5, 0.0, 0.5),
    (1.0, NAN, 1.0, NAN, 1.0, 0.0, 0.0),
    (1.0, 0.0, NAN, NAN, 1.0, 0.0, 0.0),
    (1.0, 2.0, 1.0, 1.0, 0.0, 0.0, 1.0),
    (1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0),
    (1.0, 0.0, None, 1.0, 1.0, 0.0, None),
    (1.0, NAN, None, NAN, 1.0, 1.0, None),
    (1.0, None, 1.0, 1.0, 0.5, None, 0.5),
    (1.0, None, NAN, NAN, 1.0, None, 1.0),
    (2.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0),
    (2.0, NAN, 1.0, NAN, 0.0, 0.0, 0.0),
    (2.0, 0.0, NAN, NAN, 1.0, 0.0, 0.0),
    (2.0, 2.0, 1.0, 1.0, 0.0, 0.0, 1.0),
    (2.0, 1.0, 1.0, 1.0, 0.0, 0.0, 1.0),
    (2.0, 0.0, None, 2.0, 1.0, 0.0, None),
    (2.0, NAN, None, NAN, 1.0, 1.0, None),
    (2.0, None, 1.0, 1.0, 0.0, None, 1.0),
    (2.0, None, NAN, NAN, 1.0, None, 1.0),
    (NAN, 0.0, 1.0, NAN, 1.0, 0.0, 0.0),
    (NAN, NAN, 1.0, NAN, 1.0, 0.0, 0.0),
    (NAN, 0.0, NAN, NAN, 1.0, 0.0, 0.0),
    (NAN, 2.0, 1.0, NAN, 1.0, 0.0, 1.0),
    (NAN, 1.0, 1.0, NAN, 1.0, 0.0, 0.0),
    (NAN, 0.0, None, NAN, 1.0, 1.0, None),
    (NAN, NAN, None, NAN, 1.0, 1.0, None),
    (NAN, None, 1.0, NAN, 1.0, None, 1.0),
    (NAN, None, NAN, NAN, 1.0, None, 1.0),
]
NUMBER_BOUNDS = [  # x, min, max -> clamp, x.grad (PyTorch 2.15)
    (-1.0, 0.0, 1.0, 0.0, 0.0),
    (-1.0, 0.0, None, 0.0, 0.0),
    (-1.0, None, 1.0, -1.0, 1.0),
    (-1.0, 1.0, 1.0, 1.0, 0.0),
    (-1.0, 2.0, 1.0, 1.0, 0.0),
    (0.0, 0.0, 1.0, 0.0, 0.0),
    (0.0, 0.0, None, 0.0, 0.0),
    (0.0, None, 1.0, 0.0, 1.0),
    (0.0, 1.0, 1.0, 1.0, 0.0),
    (0.0, 2.0, 1.0, 1.0, 0.0),
    (0.5, 0.0, 1.0, 0.5, 1.0),
    (0.5, 0.0, None, 0.5, 1.0),
    (0.5, None, 1.0, 0.5, 1.0),
    (0.5, 1.0, 1.0, 1.0, 0.0),
    (0.5, 2.0, 1.0, 1.0, 0.0),
    (1.0, 0.0, 1.0, 1.0, 0.0),
    (1.0, 0.0, None, 1.0, 1.0),
    (1.0, None, 1.0, 1.0, 0.0),
    (1.0, 1.0, 1.0, 1.0, 0.0),
    (1.0, 2.0, 1.0, 1.0, 0.0),
    (2.0, 0.0, 1.0, 1.0, 0.0),
    (2.0, 0.0, None, 2.0, 1.0),
    (2.0, None, 1.0, 1.0, 0.0),
    (2.0, 1.0, 1.0, 1.0, 0.0),
    (2.0, 2.0, 1.0, 1.0, 0.0),
    (NAN, 0.0, 1.0, NAN, 0.0),
    (NAN, 0.0, None, NAN, 0.0),
    (NAN, None, 1.0, NAN, 0.0),
    (NAN, 1.0, 1.0, NAN, 0.0),
    (NAN, 2.0, 1.0, NAN, 0.0),
]
EXTREMES = [  # a, b -> maximum, a.grad, b.grad, minimum, a.grad, b.grad (PyTorch 2.15)
    (1.0, 1.0, 1.0, 0.5, 0.5, 1.0, 0.5, 0.5),
    (1.0, NAN, NAN, 1.0, 1.0, NAN, 1.0, 1.0),
    (1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0),
    (2.0, 1.0, 2.0, 1.0, 0.0, 1.0, 0.0, 1.0),
    (2.0, NAN, NAN, 1.0, 1.0, NAN, 1.0, 1.0),
    (2.0, 0.0, 2.0, 1.0, 0.0, 0.0, 0.0, 1.0),
    (NAN, 1.0, NAN, 1.0, 1.0, NAN, 1.0, 1.0),
    (NAN, NAN, NAN, 1.0, 1.0, NAN, 1.0, 1.0),
    (NAN, 0.0, NAN, 1.0, 1.0, NAN, 1.0, 1.0),
    (3.0, 1.0, 3.0, 1.0, 0.0, 1.0, 0.0, 1.0),
    (3.0, NAN, NAN, 1.0, 1.0, NAN, 1.0, 1.0),
    (3.0, 0.0, 3.0, 1.0, 0.0, 0.0, 0.0, 1.0),
    (NAN, 1.0, NAN, 1.0, 1.0, NAN, 1.0, 1.0),
    (NAN, NAN, NAN, 1.0, 1.0, NAN, 1.0, 1.0),
    (NAN, 0.0, NAN, 1.0, 1.0, NAN, 1.0, 1.0),
    (-0.0, 1.0, 1.0, 0.0, 1.0, -0.0, 1.0, 0.0),
    (-0.0, NAN, NAN, 1.0, 1.0, NAN, 1.0, 1.0),
    (-0.0, 0.0, -0.0, 0.5, 0.5, -0.0, 0.5, 0.5),
]


def same(got, want):
    if want is None:
        return got is None
    if math.isnan(want):
        return got is not None and math.isnan(got)
    return got == want


def leaf(v):
    return None if v is None else torch.tensor([v], requires_grad=True)


def grad_of(t):
    return None if t is None else t.grad.item()


@pytest.mark.parametrize("row", TENSOR_BOUNDS, ids=str)
def test_clamp_with_tensor_bounds(row):
    x, lo, hi, *want = row
    X, L, H = leaf(x), leaf(lo), leaf(hi)
    y = torch.clamp(X, L, H)
    assert type(y.grad_fn).__name__ == "ClampBackward0"
    y.sum().backward()
    got = [y.item(), grad_of(X), grad_of(L), grad_of(H)]
    assert all(same(g, w) for g, w in zip(got, want)), (got, want)


@pytest.mark.parametrize("row", NUMBER_BOUNDS, ids=str)
def test_clamp_with_number_bounds(row):
    x, lo, hi, value, gx = row
    X = leaf(x)
    y = X.clamp(lo, hi)
    assert type(y.grad_fn).__name__ == "ClampBackward1"
    y.sum().backward()
    assert same(y.item(), value) and same(X.grad.item(), gx), (y.item(), X.grad.item())


@pytest.mark.parametrize("row", EXTREMES, ids=str)
def test_maximum_and_minimum(row):
    a, b, *want = row
    got = []
    for f, name in ((torch.maximum, "MaximumBackward0"), (torch.minimum, "MinimumBackward0")):
        A, B = leaf(a), leaf(b)
        y = f(A, B)
        assert type(y.grad_fn).__name__ == name
        y.sum().backward()
        got += [y.item(), A.grad.item(), B.grad.item()]
    assert all(same(g, w) for g, w in zip(got, want)), (got, want)


def test_broadcast_dtypes_and_saved_tensors():
    a = torch.tensor([[1.0, 5.0], [3.0, 3.0]], requires_grad=True)
    b = torch.tensor([3.0, 3.0], requires_grad=True)
    y = torch.maximum(a, b)
    assert y.tolist() == [[3.0, 5.0], [3.0, 3.0]]
    assert y.grad_fn._saved_self is a and y.grad_fn._saved_other is b
    y.sum().backward()
    assert a.grad.tolist() == [[0.0, 1.0], [0.5, 0.5]]
    assert b.grad.tolist() == [1.5, 0.5]
    # integer and float promote; bools are logical or / and
    assert torch.maximum(torch.tensor([1, 2]), torch.tensor([1.5, 1.0])).tolist() == [1.5, 2.0]
    assert torch.minimum(torch.tensor([True, False]), torch.tensor([True, True])).tolist() == [True, False]
    assert torch.maximum(torch.tensor([1, 7]), torch.tensor([3, 2])).dtype == torch.int64
    # tensor bounds broadcast and promote
    x = torch.tensor([1, 2, 3])
    y = x.clamp(torch.tensor([1.5]), torch.tensor([[2.5], [2.0]]))
    assert y.tolist() == [[1.5, 2.0, 2.5], [1.5, 2.0, 2.0]] and y.dtype == torch.float32


def test_a_number_beside_a_tensor_bound():
    # PyTorch's argument parser reads a 0-d tensor that does not require grad as a number
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.clamp(torch.tensor(1.5), 2.5)
    assert y.tolist() == [1.5, 2.0, 2.5] and type(y.grad_fn).__name__ == "ClampBackward1"
    assert torch.tensor([1, 2]).clamp(torch.tensor(1.5), 3).dtype == torch.float32
    # ... and any other mix of a tensor and a number is its TypeError
    for lo in (torch.tensor(1.5, requires_grad=True), torch.tensor([1.5, 1.5, 1.5])):
        with pytest.raises(TypeError, match=r"clamp\(\) received an invalid combination of arguments - got \(Tensor, float\)"):
            x.clamp(lo, 2.5)


def test_errors_match_pytorch():
    x = torch.tensor([1.0, 2.0])
    with pytest.raises(TypeError, match=r"maximum\(\): argument 'other' \(position 2\) must be Tensor, not float"):
        torch.maximum(x, 2.0)
    with pytest.raises(TypeError, match=r"maximum\(\): argument 'other' \(position 1\) must be Tensor, not float"):
        x.maximum(2.0)
    with pytest.raises(TypeError, match="minimum not implemented for complex tensors."):
        torch.minimum(torch.tensor([1j]), torch.tensor([2j]))
    with pytest.raises(RuntimeError, match="At least one of 'min' or 'max' must not be None"):
        x.clamp()


def test_in_place_clamp_with_tensor_bounds():
    x = torch.tensor([0.0, 1.0, 4.0], requires_grad=True)
    y = x * 1
    hi = torch.tensor([2.0, 0.5, 3.0], requires_grad=True)
    y.clamp_(max=hi)
    assert y.tolist() == [0.0, 0.5, 3.0] and type(y.grad_fn).__name__ == "ClampBackward0"
    y.sum().backward()
    assert x.grad.tolist() == [1.0, 0.0, 0.0] and hi.grad.tolist() == [0.0, 1.0, 1.0]


@pytest.mark.skipif(USING_TORCH, reason="leafgrad's own second-derivative helper")
@pytest.mark.parametrize(
    "fn",
    [
        lambda a, b: torch.maximum(a, b) ** 2,
        lambda a, b: torch.minimum(a * 2, b).exp(),
        lambda a, b: torch.clamp(a, b, b + 1) ** 2,
        lambda a, b: a.clamp(min=b) ** 3,
    ],
)
def test_second_derivatives(fn):
    from test_gradcheck import check_second_order

    check_second_order("clamp", fn, [((2, 3), "any"), ((2, 3), "any")], "clamp")


def test_clamp_min_and_clamp_max_record_their_own_nodes():
    x = torch.tensor([0.0, 0.1, 0.5, float("nan")], requires_grad=True)
    cases = [
        (lambda x: x.clamp_min(0.1), "ClampMinBackward0", [0.0, 0.0, 1.0, 0.0]),
        (lambda x: x.clamp_max(0.1), "ClampMaxBackward0", [1.0, 0.0, 0.0, 0.0]),
        (lambda x: torch.clamp_min(x, torch.tensor(0.1)), "ClampMinBackward1", [0.0, 0.5, 1.0, 1.0]),
        (lambda x: x.clamp_max(torch.tensor([0.1, 0.1, 0.6, 0.0])), "ClampMaxBackward1", [1.0, 0.5, 1.0, 1.0]),
        (lambda x: torch.clamp_max(x, 0.2), "ClampMaxBackward0", [1.0, 1.0, 0.0, 0.0]),
    ]
    for f, node, grad in cases:
        y = f(x)
        (g,) = torch.autograd.grad(y.sum(), x)
        assert type(y.grad_fn).__name__ == node and g.tolist() == grad
    m = torch.tensor([0.0, 0.1, 0.5, 0.2], requires_grad=True)
    x.detach().clamp_min(m).sum().backward()
    assert m.grad.tolist() == [0.5, 0.5, 0.5, 1.0]
    b = x.detach() * 1
    b.requires_grad_()
    c = b * 1
    assert type(c.clamp_min_(0.1).grad_fn).__name__ == "ClampMinBackward0"
    assert type(c.clamp_max_(0.3).grad_fn).__name__ == "ClampMaxBackward0"
    r = torch.tensor([1, 5]).clamp_min(2.5)
    assert r.dtype == torch.float32 and r.tolist() == [2.5, 5.0]
    assert torch.tensor([1, 5]).clamp_min(2).tolist() == [2, 5]
    b = torch.tensor([True]).clamp_min(0)  # an int bound on a bool tensor: int64
    assert b.dtype == torch.int64 and b.tolist() == [1]
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type long int"):
        torch.tensor([1, 2]).clamp_min_(2.5)


@pytest.mark.parametrize("device", ["cpu", "cuda"])
@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8"])
def test_integer_clamp_with_one_bound(device, dtype):
    # an absent bound is no bound (the CUDA backend once cast an infinite bound to the integer
    # dtype and got its minimum)
    if device == "cuda" and not torch.cuda.is_available():
        pytest.skip("a GPU or LEAFGRAD_CUDA_EMULATION=1")
    dt = getattr(torch, dtype)
    x = torch.tensor([0, 3, 7, 200], dtype=dt, device=device)
    assert x.clamp_min(2).tolist() == [2, 3, 7, 200]
    assert x.clamp(min=2).tolist() == [2, 3, 7, 200]
    assert x.clamp(max=5).tolist() == [0, 3, 5, 5]
    assert x.clamp_max(5).dtype == dt
    assert torch.clamp(x, min=1, max=6).tolist() == [1, 3, 6, 6]
