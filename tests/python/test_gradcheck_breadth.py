"""Finite-difference checks (float64) of the breadth ops: reductions along dims, softmax,
losses, joins, gather/scatter, indexing, conv and pooling, normalisation; second derivatives
through create_graph where they are defined."""
import leafgrad as torch
import leafgrad.nn.functional as F
import pytest
from test_gradcheck import SECOND_ORDER, check_first_order, test_second_derivative

A, P, Z = "any", "pos", "away0"
IDX = torch.tensor([2, 0, 1, 2])
TARGET = torch.tensor([1, 0, 2])
MASK = torch.tensor([[True, False, True], [False, False, True]])

BREADTH = {
    "sum_dims_keepdim": (lambda a: a.sum((0, 2), keepdim=True), [((2, 3, 2), A)]),
    "prod_all": (lambda a: a.prod(), [((2, 3), P)]),
    "prod_dim": (lambda a: a.prod(1), [((2, 3), A)]),
    "max_dim": (lambda a: a.max(1)[0], [((3, 4), A)]),
    "min_dim_keepdim": (lambda a: a.min(0, keepdim=True).values, [((3, 4), A)]),
    "amax": (lambda a: a.amax(1), [((3, 4), A)]),
    "var": (lambda a: a.var(1), [((3, 4), A)]),
    "std_all": (lambda a: a.std(), [((3, 4), A)]),
    "var_unbiased_false": (lambda a: a.var(0, unbiased=False), [((3, 4), A)]),
    "logsumexp": (lambda a: a.logsumexp(1), [((3, 4), A)]),
    "norm_2": (lambda a: a.norm(), [((3, 4), A)]),
    "norm_1_dim": (lambda a: a.norm(1, dim=1), [((3, 4), Z)]),
    "softmax": (lambda a: a.softmax(1), [((3, 4), A)]),
    "log_softmax": (lambda a: a.log_softmax(0), [((3, 4), A)]),
    "cross_entropy": (lambda a: F.cross_entropy(a, TARGET), [((3, 4), A)]),
    "cross_entropy_sum": (lambda a: F.cross_entropy(a, TARGET, reduction="sum"), [((3, 4), A)]),
    "nll_loss_weighted": (lambda a: F.nll_loss(a, TARGET, weight=torch.tensor([1.0, 2.0, 0.5, 1.0], dtype=torch.float64)), [((3, 4), A)]),
    "cross_entropy_probs": (lambda a, p: F.cross_entropy(a, p.softmax(1)), [((3, 4), A), ((3, 4), A)]),
    "cat": (lambda a, b: torch.cat([a, b], 1), [((2, 3), A), ((2, 2), A)]),
    "stack": (lambda a, b: torch.stack([a, b], 1), [((2, 3), A), ((2, 3), A)]),
    "split": (lambda a: a.split(2, 1)[1] * 3, [((2, 5), A)]),
    "chunk_both": (lambda a: a.chunk(2)[0] * a.chunk(2)[1], [((4, 3), A)]),
    "unbind": (lambda a: a.unbind(1)[2], [((2, 3), A)]),
    "repeat": (lambda a: a.repeat(2, 3), [((2, 3), A)]),
    "flatten": (lambda a: a.flatten(1), [((2, 3, 2), A)]),
    "gather": (lambda a: a.gather(1, torch.tensor([[0, 2], [1, 1]])), [((2, 3), A)]),
    "index_select": (lambda a: a.index_select(0, IDX), [((3, 2), A)]),
    "masked_fill": (lambda a: a.masked_fill(MASK, 0.5), [((2, 3), A)]),
    "where": (lambda a, b: torch.where(MASK, a, b), [((2, 3), A), ((2, 3), A)]),
    "advanced_index": (lambda a: a[IDX], [((3, 2), A)]),
    "mask_index": (lambda a: a[MASK], [((2, 3), A)]),
    "index_pair": (lambda a: a[torch.tensor([0, 1]), torch.tensor([2, 0])], [((2, 3), A)]),
    "clamp": (lambda a: a.clamp(-0.5, 0.5), [((3, 4), Z)]),
    "maximum": (lambda a, b: torch.maximum(a, b), [((2, 3), A), ((2, 3), A)]),
    "conv2d": (lambda x, w, b: F.conv2d(x, w, b), [((2, 2, 5, 5), A), ((3, 2, 3, 3), A), ((3,), A)]),
    "conv2d_stride_pad_dil": (lambda x, w: F.conv2d(x, w, stride=2, padding=1, dilation=2), [((1, 2, 6, 6), A), ((2, 2, 2, 2), A)]),
    "conv2d_groups": (lambda x, w: F.conv2d(x, w, groups=2), [((1, 4, 4, 4), A), ((4, 2, 2, 2), A)]),
    "max_pool2d": (lambda x: F.max_pool2d(x, 2), [((1, 2, 4, 4), A)]),
    "max_pool2d_pad": (lambda x: F.max_pool2d(x, 3, stride=2, padding=1), [((1, 1, 5, 5), A)]),
    "avg_pool2d": (lambda x: F.avg_pool2d(x, 2, stride=1), [((1, 2, 4, 4), A)]),
    "embedding": (lambda w: F.embedding(torch.tensor([[0, 2], [1, 0]]), w), [((3, 4), A)]),
    "layer_norm": (lambda x, w, b: F.layer_norm(x, (4,), w, b), [((3, 4), A), ((4,), A), ((4,), A)]),
    "batch_norm_train": (lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True),
                         [((4, 3), A), ((3,), A), ((3,), A)]),
    "batch_norm_eval": (lambda x, w, b: F.batch_norm(x, x.new_zeros(3) + 0.1, x.new_ones(3) * 2, w, b),
                        [((4, 3, 2), A), ((3,), A), ((3,), A)]),
    "instance_norm": (lambda x: F.instance_norm(x), [((2, 3, 4), A)]),
    "group_norm": (lambda x, w, b: F.group_norm(x, 2, w, b), [((2, 4, 3), A), ((4,), A), ((4,), A)]),
    "threshold": (lambda a: F.threshold(a, 0.1, 2.0), [((3, 4), Z)]),
    "view_as_complex_abs": (lambda a: torch.view_as_complex(a).abs(), [((3, 2), Z)]),
    "addcmul": (lambda a, b, c: torch.addcmul(a, b, c, value=0.7), [((3, 4), A), ((4,), A), ((3, 1), A)]),
    "addcdiv": (lambda a, b, c: torch.addcdiv(a, b, c, value=-1.3), [((3, 4), A), ((3, 4), A), ((3, 4), P)]),
    "lerp_scalar": (lambda a, b: torch.lerp(a, b, 0.3), [((3, 4), A), ((3, 4), A)]),
    "lerp_tensor": (lambda a, b, w: torch.lerp(a, b, w), [((3, 4), A), ((3, 4), A), ((3, 4), A)]),
    "add_alpha": (lambda a, b: torch.add(a, b, alpha=0.3), [((3, 4), A), ((4,), A)]),
    "smooth_l1_loss": (lambda a, b: F.smooth_l1_loss(a, b, beta=0.5), [((3, 4), A), ((3, 4), A)]),
    "huber_loss": (lambda a, b: F.huber_loss(a, b, delta=0.5, reduction="sum"), [((3, 4), A), ((3, 4), A)]),
    "soft_margin_loss": (lambda a: F.soft_margin_loss(a, torch.tensor([[1.0, -1.0, 1.0, -1.0]] * 3)), [((3, 4), A)]),
    "selu": (lambda a: F.selu(a), [((3, 4), Z)]),
    "celu": (lambda a: F.celu(a, 0.7), [((3, 4), A)]),
    "mish": (lambda a: F.mish(a), [((3, 4), A)]),
    "hardswish": (lambda a: F.hardswish(a * 4), [((3, 4), Z)]),
    "hardsigmoid": (lambda a: F.hardsigmoid(a * 4), [((3, 4), Z)]),
    "logsigmoid": (lambda a: F.logsigmoid(a * 3), [((3, 4), A)]),
    "hardshrink": (lambda a: F.hardshrink(a, 0.1), [((3, 4), Z)]),
    "softshrink": (lambda a: F.softshrink(a, 0.1), [((3, 4), Z)]),
    "glu": (lambda a: F.glu(a, 0), [((4, 3), A)]),
    "prelu": (lambda a, w: F.prelu(a, w), [((2, 3, 2), Z), ((3,), A)]),
    "gelu": (lambda a: F.gelu(a), [((3, 4), A)]),
    "softplus": (lambda a: F.softplus(a), [((3, 4), A)]),
    "leaky_relu": (lambda a: F.leaky_relu(a, 0.1), [((3, 4), Z)]),
    "silu": (lambda a: F.silu(a), [((3, 4), A)]),
    "elu": (lambda a: F.elu(a, 0.7), [((3, 4), Z)]),
    "hardtanh": (lambda a: F.hardtanh(a, -0.5, 0.5), [((3, 4), Z)]),
    "bce": (lambda p, y: F.binary_cross_entropy(p.sigmoid(), y.sigmoid()), [((3, 4), A), ((3, 4), A)]),
    "bce_logits": (lambda x, y: F.binary_cross_entropy_with_logits(x, y.sigmoid()), [((3, 4), A), ((3, 4), A)]),
    "cumsum": (lambda a: a.cumsum(1), [((2, 4), A)]),
    "tril": (lambda a: a.tril(), [((3, 3), A)]),
    "flip_roll": (lambda a: a.flip(0).roll(1, 1), [((2, 3), A)]),
    "trace": (lambda a: a.trace(), [((3, 3), A)]),
    "setitem_through_view": (lambda a: _setitem(a), [((2, 3), A)]),
}


def _setitem(a):
    y = a * 2
    y[0, 1:] = a[1, :2] * 3
    return y


@pytest.mark.parametrize("name", list(BREADTH))
def test_first_derivative(name):
    fn, specs = BREADTH[name]
    check_first_order(name, fn, specs)


SECOND = {
    "softmax": (lambda a: a.softmax(1), [((2, 3), A)]),
    "log_softmax": (lambda a: a.log_softmax(1), [((2, 3), A)]),
    "cross_entropy": (lambda a: F.cross_entropy(a, torch.tensor([1, 0])), [((2, 3), A)]),
    "logsumexp": (lambda a: a.logsumexp(1), [((2, 3), A)]),
    "var": (lambda a: a.var(1), [((2, 3), A)]),
    "conv2d": (lambda x, w: F.conv2d(x, w).tanh(), [((1, 1, 4, 4), A), ((2, 1, 2, 2), A)]),
    # padding, stride, groups and bias through the formula's fold and its own derivative
    "conv2d_pad_groups_bias": (
        lambda x, w, b: F.conv2d(x, w, b, stride=2, padding=1, groups=2).tanh(),
        [((2, 4, 5, 5), A), ((4, 2, 2, 2), A), ((4,), A)],
    ),
    "avg_pool2d_pad": (lambda x: (F.avg_pool2d(x, 3, stride=2, padding=1) ** 2), [((1, 2, 5, 5), A)]),
    "layer_norm": (lambda x: F.layer_norm(x, (3,)), [((2, 3), A)]),
    "batch_norm_train": (lambda x: F.batch_norm(x, None, None, training=True), [((4, 2), A)]),
    "group_norm": (lambda x: F.group_norm(x, 2), [((2, 4, 2), A)]),
    "threshold": (lambda a: F.threshold(a, 0.1, 2.0) ** 2, [((2, 3), Z)]),
    "addcmul": (lambda a, b, c: torch.addcmul(a, b, c, value=0.7) ** 2, [((2, 3), A), ((2, 3), A), ((2, 3), A)]),
    "addcdiv": (lambda a, b, c: torch.addcdiv(a, b, c) ** 2, [((2, 3), A), ((2, 3), A), ((2, 3), P)]),
    "lerp_tensor": (lambda a, b, w: torch.lerp(a, b, w), [((2, 3), A), ((2, 3), A), ((2, 3), A)]),
    "smooth_l1_loss": (lambda a, b: F.smooth_l1_loss(a, b, beta=0.5, reduction="none"), [((2, 3), A), ((2, 3), A)]),
    "huber_loss": (lambda a, b: F.huber_loss(a, b, delta=0.5), [((2, 3), A), ((2, 3), A)]),
    "soft_margin_loss": (lambda a: F.soft_margin_loss(a, torch.tensor([[1.0, -1.0, 1.0]] * 2)), [((2, 3), A)]),
    "selu": (lambda a: F.selu(a), [((2, 3), Z)]),
    "celu": (lambda a: F.celu(a, 0.7), [((2, 3), A)]),
    "mish": (lambda a: F.mish(a), [((2, 3), A)]),
    "hardswish": (lambda a: F.hardswish(a * 4), [((2, 3), Z)]),
    "logsigmoid": (lambda a: F.logsigmoid(a * 3), [((2, 3), A)]),
    "softshrink": (lambda a: F.softshrink(a, 0.1) ** 2, [((2, 3), Z)]),
    "glu": (lambda a: F.glu(a, 0), [((4, 3), A)]),
    "prelu": (lambda a, w: F.prelu(a, w), [((2, 3, 2), Z), ((3,), A)]),
    "gelu": (lambda a: F.gelu(a), [((2, 3), A)]),
    "gelu_tanh": (lambda a: F.gelu(a, approximate="tanh"), [((2, 3), A)]),
    "softplus": (lambda a: F.softplus(a, 2.0, 1.0), [((2, 3), A)]),
    "leaky_relu": (lambda a: F.leaky_relu(a, 0.2) ** 2, [((2, 3), Z)]),
    "hardtanh": (lambda a: F.hardtanh(a, -0.5, 0.5) ** 2, [((2, 3), Z)]),
    "silu": (lambda a: F.silu(a), [((2, 3), A)]),
    "elu": (lambda a: F.elu(a), [((2, 3), Z)]),
    "gather": (lambda a: (a.gather(1, torch.tensor([[0, 2], [1, 1]])) ** 2), [((2, 3), A)]),
}


@pytest.mark.parametrize("name", list(SECOND))
def test_second_derivative_breadth(name, monkeypatch):
    monkeypatch.setitem(SECOND_ORDER, name, SECOND[name])
    test_second_derivative(name)
