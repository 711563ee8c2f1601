"""CTCLoss and F.ctc_loss: losses, PyTorch's gradient formula (including its NaN rows for
impossible targets and its non-derivative for unnormalised inputs), reductions, zero_infinity,
padded and concatenated targets, lengths as tensors or tuples, unbatched input, node names and
errors, as PyTorch 2.15 gives them (these expectations run against it with LEAFGRAD_TEST_TORCH=1)."""
import math

import pytest
from support import raises_exactly

import leafgrad as torch
import leafgrad.nn as nn
import leafgrad.nn.functional as F


def T(*shape, k=0, dtype=torch.float32):
    """Deterministic logits: a product of sines and cosines of a ramp."""
    i = torch.arange(math.prod(shape), dtype=torch.float64)
    return ((i * 1.37 + k).sin() * (i * 0.11).cos() * 3).reshape(shape).to(dtype)


def close(t, values, atol=1e-4):
    return torch.allclose(t.detach().flatten().double(), torch.tensor(values, dtype=torch.float64), atol=atol,
                          rtol=1e-4, equal_nan=True)


PADDED = torch.tensor([[1, 2, 2, 4], [3, 3, 3, 0], [4, 1, 0, 0]])
LONG_TARGETS = torch.tensor([[(i * 7 + j * 3) % 19 + 1 for j in range(12)] for i in range(4)])

# name: (logits shape, targets, input_lengths, target_lengths, keyword arguments); the loss is
# taken of log_softmax(logits)
CASES = {
    "padded none": ((7, 3, 5), PADDED, torch.tensor([7, 7, 5]), torch.tensor([4, 3, 1]), {"reduction": "none"}),
    "padded mean": ((7, 3, 5), PADDED, torch.tensor([7, 6, 5]), torch.tensor([4, 3, 1]), {}),
    "concatenated tuples": ((8, 2, 4), torch.tensor([1, 2, 1, 3, 3]), (8, 6), (3, 2), {}),
    "concatenated sum int32": ((8, 2, 4), torch.tensor([1, 2, 1, 3, 3], dtype=torch.int32),
                               torch.tensor([8, 6], dtype=torch.int32), torch.tensor([3, 2], dtype=torch.int32),
                               {"reduction": "sum"}),
    "blank 2": ((6, 2, 4), torch.tensor([[0, 1, 3], [3, 0, 0]]), torch.tensor([6, 4]), torch.tensor([3, 2]),
                {"blank": 2, "reduction": "none"}),
    "empty targets": ((5, 3, 3), torch.tensor([[1, 2], [1, 1], [2, 2]]), torch.tensor([5, 3, 0]),
                      torch.tensor([0, 2, 0]), {"reduction": "none"}),
    "impossible zero_infinity": ((4, 2, 3), torch.tensor([[1, 1, 1], [2, 1, 2]]), torch.tensor([4, 4]),
                                 torch.tensor([3, 3]), {"zero_infinity": True}),
    "impossible": ((4, 2, 3), torch.tensor([[1, 1, 1], [2, 1, 2]]), torch.tensor([4, 2]), torch.tensor([3, 3]),
                   {"reduction": "none"}),
    "impossible zero_infinity none": ((4, 2, 3), torch.tensor([[1, 1, 1], [2, 1, 2]]), torch.tensor([4, 2]),
                                      torch.tensor([3, 3]), {"reduction": "none", "zero_infinity": True}),
    "unbatched": ((6, 4), torch.tensor([1, 3, 3]), torch.tensor(6), torch.tensor(3), {"reduction": "none"}),
    "unbatched mean": ((6, 4), torch.tensor([1, 3, 3]), (5,), (3,), {}),
    "long": ((50, 4, 20), LONG_TARGETS, torch.tensor([50, 40, 33, 20]), torch.tensor([12, 10, 8, 5]), {}),
    "float targets": ((7, 3, 5), PADDED.float(), torch.tensor([7, 7, 5]), torch.tensor([4, 3, 1]), {}),
}

# name: (node, the losses, the total of the logits' gradient of (loss * (2 + cos(arange))).sum() and
#        its first 16 values)
EXPECTED = {
    'blank 2': ('CtcLossBackward0', [5.4525, 5.998], 0.0,
        [-2.5377, 2.4429, 0.0821, 0.0127, 0.0259, 0.7198, 0.133, -0.8786, -0.2753, -0.3282, -0.3149, 0.9184, -0.2694, 0.5656, 0.5922, -0.8884]),
    'concatenated sum int32': ('SumBackward0', [13.0588], 0.0,
        [0.0732, -0.4988, 0.413, 0.0127, -0.6111, 0.85, 1.9684, -2.2073, -0.0479, -0.7042, -0.1663, 0.9184, -0.3916, 0.6679, 0.9894, -1.2657]),
    'concatenated tuples': ('MeanBackward0', [2.7848], 0.0,
        [0.0122, -0.0831, 0.0688, 0.0021, -0.1528, 0.2125, 0.4921, -0.5518, -0.008, -0.1174, -0.0277, 0.1531, -0.0979, 0.167, 0.2474, -0.3164]),
    'empty targets': ('CtcLossBackward0', [5.7428, 5.0632, -0.0], 0.0,
        [-2.8679, 2.4532, 0.4147, 0.0585, -2.4542, 2.3957, 0.0, 0.0, 0.0, -2.6594, 1.7183, 0.9411, -1.8786, 0.7571, 1.1215, 0.0]),
    'float targets': ('MeanBackward0', [5.3588], 0.0,
        [-0.0032, -0.0336, 0.0342, 0.0011, 0.0015, -0.2273, 0.2084, 0.016, -0.0127, 0.0155, -0.3021, 0.2458, 0.0795, 0.091, -0.1142, 0.0038]),
    'impossible': ('CtcLossBackward0', [math.inf, math.inf], math.nan,
        [math.nan, math.nan, math.nan, math.nan, math.nan, math.nan, math.nan, math.nan, math.nan, math.nan, math.nan, math.nan, math.nan, math.nan, math.nan, 0.0]),
    'impossible zero_infinity': ('MeanBackward0', [0.3692], -0.0,
        [0.0, 0.0, 0.0, 0.011, 0.0169, -0.0279, 0.0, 0.0, 0.0, 0.0492, -0.1845, 0.1354, 0.0, 0.0, 0.0, 0.065]),
    'impossible zero_infinity none': ('WhereBackward0', [0.0, 0.0], 0.0,
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
    'long': ('MeanBackward0', [9.3976], -0.0,
        [-0.0017, -0.037, 0.0038, 0.0001, 0.0002, 0.0048, 0.0111, 0.0009, 0.0002, 0.0008, 0.0042, 0.0023, 0.0007, 0.0008, 0.0013, 0.001]),
    'padded mean': ('MeanBackward0', [5.3329], 0.0,
        [-0.0032, -0.0336, 0.0342, 0.0011, 0.0015, -0.2272, 0.2084, 0.016, -0.0127, 0.0155, -0.3021, 0.2458, 0.0795, 0.091, -0.1142, 0.0038]),
    'padded none': ('CtcLossBackward0', [7.0622, 13.765, 9.7224], 0.0,
        [-0.0384, -0.4031, 0.4104, 0.0126, 0.0185, -1.7319, 1.5885, 0.1219, -0.0967, 0.1182, -0.4785, 0.3893, 0.126, 0.1441, -0.1809, 0.045]),
    'unbatched': ('SqueezeBackward1', [7.3304], 0.0,
        [0.0008, -0.4265, 0.413, 0.0127, -0.0445, -1.6954, 1.9684, -0.2285, -0.0339, -0.0308, 1.6769, -1.6121, -0.7568, 0.6679, 0.9894, -0.9005]),
    'unbatched mean': ('MeanBackward0', [2.2738], -0.0,
        [0.0041, -0.146, 0.1377, 0.0042, -0.0163, -0.494, 0.6561, -0.1458, -0.0409, 0.1108, 0.559, -0.6288, -0.7507, 0.2226, 0.3298, 0.1982]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_losses_and_gradients(name):
    shape, targets, il, tl, kw = CASES[name]
    node, losses, total, first = EXPECTED[name]
    x = T(*shape).requires_grad_()
    out = F.ctc_loss(x.log_softmax(-1), targets, il, tl, **kw)
    assert type(out.grad_fn).__name__ == node and out.dtype == torch.float32
    assert close(out, losses)
    w = torch.arange(out.numel(), dtype=torch.float32).reshape(out.shape).cos() + 2
    g, = torch.autograd.grad((out * w).sum(), x)
    assert math.isclose(g.double().sum().item(), total, rel_tol=1e-4, abs_tol=1e-4) or math.isnan(total)
    assert close(g.flatten()[:16], first)


@pytest.mark.parametrize("name", [n for n in sorted(CASES) if n not in ("impossible", "float targets")])
def test_gradcheck(name):
    shape, targets, il, tl, kw = CASES[name]
    if name == "long":
        shape, targets, il, tl = (12, 2, 6), LONG_TARGETS[:2, :4] % 5 + 1, torch.tensor([12, 9]), torch.tensor([4, 3])
    x = T(*shape, dtype=torch.float64).requires_grad_()
    assert torch.autograd.gradcheck(lambda x: F.ctc_loss(x.log_softmax(-1), targets, il, tl, **kw), (x,))


def test_the_gradient_is_pytorchs_formula():
    """PyTorch's gradient assumes log_softmax outputs: for other inputs it is not the loss's
    derivative, and leafgrad gives the same numbers. The gradient of a -inf log-probability is
    NaN in PyTorch: leafgrad gives it only where the whole sample's loss is infinite (else 0)."""
    x = T(5, 2, 4).requires_grad_()
    out = F.ctc_loss(x, torch.tensor([[1, 2], [3, 3]]), (5, 5), (2, 2), reduction="sum")
    assert close(out, [FORMULA[0]])
    assert close(torch.autograd.grad(out, x)[0].flatten()[:12], FORMULA[1])
    node = F.ctc_loss(x, torch.tensor([[1, 2], [3, 3]]), (5, 5), (2, 2), reduction="none").grad_fn
    assert type(node).__name__ == "CtcLossBackward0"
    assert [type(n).__name__ for n, _ in node.next_functions] == ["AccumulateGrad"]
    unbatched = F.ctc_loss(x[:, 0], torch.tensor([1, 2]), (5,), (2,), reduction="none")
    assert type(unbatched.grad_fn).__name__ == "SqueezeBackward1"
    assert type(unbatched.grad_fn.next_functions[0][0]).__name__ == "CtcLossBackward0"


FORMULA = [ -12.5654 , [0.9796, 17.598, 3.1405, 0.0965, 0.0951, 3.9483, 9.143, -0.2515, 0.1063, 0.3178, 2.835, 1.879] ]


def test_module():
    loss = nn.CTCLoss()
    assert repr(loss) == "CTCLoss()" and (loss.blank, loss.reduction, loss.zero_infinity) == (0, "mean", False)
    loss = nn.CTCLoss(blank=3, reduction="sum", zero_infinity=True)
    assert repr(loss) == "CTCLoss()" and (loss.blank, loss.reduction, loss.zero_infinity) == (3, "sum", True)
    lp = T(6, 2, 4).log_softmax(-1)
    targets, il, tl = torch.tensor([[0, 1, 2], [2, 0, 0]]), torch.tensor([6, 4]), torch.tensor([3, 2])
    assert torch.equal(loss(lp, targets, il, tl), F.ctc_loss(lp, targets, il, tl, 3, "sum", True))
    assert list(loss.state_dict()) == []


lp0 = T(6, 2, 4).log_softmax(-1)
tg0, il0, tl0 = torch.tensor([[1, 2, 2], [3, 1, 0]]), torch.tensor([6, 5]), torch.tensor([3, 2])
ERRORS = [
    (lambda: F.ctc_loss(lp0, tg0, il0, tl0, blank=4), RuntimeError, "blank must be in label range"),
    (lambda: F.ctc_loss(lp0, tg0, il0, tl0, blank=-1), RuntimeError, "blank must be in label range"),
    (lambda: F.ctc_loss(lp0, tg0, il0.float(), tl0), RuntimeError, "input_lengths must be integral"),
    (lambda: F.ctc_loss(lp0, tg0, il0, tl0.float()), RuntimeError, "target_lengths must be integral"),
    (lambda: F.ctc_loss(lp0, tg0, torch.tensor([7, 5]), tl0), RuntimeError,
     "Expected input_lengths to have value at most 6, but got value 7 (while checking arguments for "
     "ctc_loss_allocate_outputs)"),
    (lambda: F.ctc_loss(lp0, tg0, torch.tensor([6, -1]), tl0), RuntimeError,
     "Expected input_lengths to have value at least 0, but got value -1 (while checking arguments for "
     "ctc_loss_allocate_outputs)"),
    (lambda: F.ctc_loss(lp0, tg0, il0, torch.tensor([4, 2])), RuntimeError,
     "Expected tensor to have size at least 4 at dimension 1, but got size 3 for argument #2 'targets' (while "
     "checking arguments for ctc_loss_allocate_outputs)"),
    (lambda: F.ctc_loss(lp0, tg0, il0, torch.tensor([3, -1])), RuntimeError,
     "Expected target_lengths to have value at least 0, but got value -1 (while checking arguments for "
     "ctc_loss_allocate_outputs)"),
    (lambda: F.ctc_loss(lp0, tg0, il0[:1], tl0), RuntimeError, "input_lengths must be of size batch_size"),
    (lambda: F.ctc_loss(lp0, tg0, il0, tl0[:1]), RuntimeError, "target_lengths must be of size batch_size"),
    (lambda: F.ctc_loss(lp0, tg0[:1], il0, tl0), RuntimeError,
     "Expected tensor to have size 2 at dimension 0, but got size 1 for argument #2 'targets' (while checking "
     "arguments for ctc_loss_allocate_outputs)"),
    (lambda: F.ctc_loss(lp0, torch.tensor([1, 2, 2, 3]), il0, tl0), RuntimeError,
     "Expected tensor to have size 5 at dimension 0, but got size 4 for argument #2 'targets' (while checking "
     "arguments for ctc_loss_allocate_outputs)"),
    (lambda: F.ctc_loss(lp0, tg0.unsqueeze(0), il0, tl0), RuntimeError,
     "Expected 1 to 2 dimensions, but got 3-dimensional tensor for argument #2 'targets' (while checking arguments "
     "for ctc_loss_allocate_outputs)"),
    (lambda: F.ctc_loss(lp0[0, 0], tg0, il0, tl0), RuntimeError,
     "Expected 3-dimensional tensor, but got 2-dimensional tensor for argument #1 'log_probs' (while checking "
     "arguments for ctc_loss_allocate_outputs)"),
    (lambda: F.ctc_loss(lp0[0], tg0, il0, tl0), RuntimeError, "input_lengths must be of size batch_size"),
    (lambda: F.ctc_loss(lp0.half(), tg0, il0, tl0), NotImplementedError, "\"ctc_loss_cpu\" not implemented for 'Half'"),
    (lambda: F.ctc_loss(lp0, tg0, il0, tl0, reduction="bad"), ValueError, "bad is not a valid value for reduction"),
    (lambda: nn.CTCLoss(reduction="bad")(lp0, tg0, il0, tl0), ValueError, "bad is not a valid value for reduction"),
]


@pytest.mark.parametrize("i", range(len(ERRORS)))
def test_errors(i):
    f, exc, message = ERRORS[i]
    raises_exactly(f, message, exc)


def test_integer_lengths_are_refused_as_pytorchs_parser_refuses_them():
    with pytest.raises(TypeError, match=r"^ctc_loss\(\) received an invalid combination of arguments - got "
                                        r"\(Tensor, Tensor, int, int, int, int, bool\), but expected one of:"):
        F.ctc_loss(lp0[:, 0], tg0[0], 6, 3)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device (or leafgrad's CUDA emulation)")
def test_on_cuda():
    shape, targets, il, tl, kw = CASES["padded none"]
    x = T(*shape).cuda().requires_grad_()
    out = F.ctc_loss(x.log_softmax(-1), targets.cuda(), il, tl, **kw)
    assert out.device.type == "cuda" and close(out.cpu(), EXPECTED["padded none"][1])
    out.sum().backward()
    assert x.grad.device.type == "cuda"


def test_second_derivative_is_not_implemented():
    """PyTorch has no derivative of its CTC gradient: taken with create_graph, the gradient is the
    output of a torch::autograd::NotImplemented node, which raises when a backward reaches it."""
    message = "derivative for aten::_ctc_loss_backward is not implemented"
    x = T(6, 2, 4, dtype=torch.float64).requires_grad_()
    lp = x.log_softmax(-1)
    loss = F.ctc_loss(lp, tg0, il0, tl0)
    g, = torch.autograd.grad(loss, lp, create_graph=True)
    node = g.grad_fn
    assert g.requires_grad and type(node).__name__ == "NotImplemented"
    assert node.name() == "torch::autograd::NotImplemented" and repr(node).startswith("<NotImplemented object at ")
    assert type(node.next_functions[0][0]).__name__ == "LogSoftmaxBackward0"
    plain, = torch.autograd.grad(F.ctc_loss(lp, tg0, il0, tl0), lp)
    assert plain.grad_fn is None and not plain.requires_grad and torch.allclose(g, plain, rtol=0, atol=1e-15)
    raises_exactly(lambda: g.sum().backward(), message)
    gx, = torch.autograd.grad(loss, x, create_graph=True)
    raises_exactly(lambda: torch.autograd.grad(gx.sum(), x), message)
    # a differentiable output gradient reaches the node too
    leaf = lp.detach().requires_grad_()
    v = torch.ones((), dtype=torch.float64, requires_grad=True)
    g, = torch.autograd.grad(F.ctc_loss(leaf, tg0, il0, tl0), leaf, v, create_graph=True)
    assert type(g.grad_fn).__name__ == "NotImplemented"
    raises_exactly(lambda: torch.autograd.grad(g.sum(), v), message)
    with pytest.raises(RuntimeError, match=message):
        torch.autograd.gradgradcheck(lambda x: F.ctc_loss(x.log_softmax(-1), tg0, il0, tl0), (x,))


def test_forward_ad_is_not_implemented():
    import leafgrad.autograd.forward_ad as fwAD

    with fwAD.dual_level():
        dual = fwAD.make_dual(lp0, torch.ones_like(lp0))
        raises_exactly(lambda: F.ctc_loss(dual, tg0, il0, tl0), (
            "Trying to use forward AD with _ctc_loss that does not support it because it has not been implemented "
            "yet.\nPlease file an issue to PyTorch at https://github.com/pytorch/pytorch/issues/new?template=feature-"
            "request.yml so that we can prioritize its implementation or submit a PR adding the implementation to "
            "derivatives.yaml"), NotImplementedError)
