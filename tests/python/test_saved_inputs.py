"""Which inputs and outputs an op saves for backward, seen as PyTorch 2.15 shows it: writing
the input (or the output) in place between the op and backward raises "one of the variables
needed for gradient computation has been modified by an inplace operation" exactly when the
op's node saved it. Each entry: (op, saves its input, saves its output). PyTorch saves
an input only where a formula reads its values (a product's factor only for the other
factor's gradient; nothing of the input of a linear op such as interpolation, padding or
index_put). Expectations recorded from torch; with LEAFGRAD_TEST_TORCH=1 the same tests run
against torch."""
import pytest

import leafgrad as torch
import leafgrad.nn.functional as F


def _t():
    return torch.tensor([[0.5, -1.2, 2.0, 0.3], [1.5, 0.7, -0.4, 2.2], [0.1, 0.9, 1.1, -0.6]])


OPS = {
    "exp": (lambda y: y.exp(), False, True),
    "log": (lambda y: y.log(), True, False),
    "sin": (lambda y: y.sin(), True, False),
    "cos": (lambda y: y.cos(), True, False),
    "tanh": (lambda y: y.tanh(), False, True),
    "sigmoid": (lambda y: y.sigmoid(), False, True),
    "relu": (lambda y: y.relu(), False, True),
    "abs": (lambda y: y.abs(), True, False),
    "sqrt": (lambda y: y.sqrt(), False, True),
    "rsqrt": (lambda y: y.rsqrt(), False, True),
    "pow2": (lambda y: y ** 2, True, False),
    "pow3": (lambda y: y.pow(3.0), True, False),
    "mul_self": (lambda y: y * y, True, False),
    "mul_c": (lambda y: y * 2, False, False),
    "div_c": (lambda y: y / 2, False, False),
    "rdiv": (lambda y: 2 / y, False, False),
    "add": (lambda y: y + 1, False, False),
    "sum": (lambda y: y.sum(), False, False),
    "mean": (lambda y: y.mean(), False, False),
    "prod": (lambda y: y.prod(), True, True),
    "prod_dim": (lambda y: y.prod(1), True, True),
    "max": (lambda y: y.max(), True, True),
    "max_dim": (lambda y: y.max(1)[0], False, False),
    "amax": (lambda y: y.amax(1), True, True),
    "norm": (lambda y: y.norm(), True, True),
    "norm_dim": (lambda y: y.norm(dim=1), True, True),
    "var": (lambda y: y.var(), True, False),
    "std": (lambda y: y.std(1), True, True),
    "logsumexp": (lambda y: y.logsumexp(1), True, True),
    "softmax": (lambda y: y.softmax(1), False, True),
    "log_softmax": (lambda y: y.log_softmax(1), False, True),
    "cumsum": (lambda y: y.cumsum(1), False, False),
    "cumprod": (lambda y: y.cumprod(1), True, True),
    "sort": (lambda y: y.sort(1)[0], False, False),
    "topk": (lambda y: y.topk(2, 1)[0], False, False),
    "matmul": (lambda y: y @ y.t(), True, False),
    "mm_w": (lambda y: y.mm(torch.ones(4, 2)), False, False),
    "linear": (lambda y: F.linear(y, torch.ones(2, 4)), False, False),
    "gelu": (lambda y: F.gelu(y), True, False),
    "gelu_tanh": (lambda y: F.gelu(y, approximate="tanh"), True, False),
    "silu": (lambda y: F.silu(y), True, False),
    "elu": (lambda y: F.elu(y), True, False),
    "leaky": (lambda y: F.leaky_relu(y), True, False),
    "softplus": (lambda y: F.softplus(y), True, False),
    "hardtanh": (lambda y: F.hardtanh(y), True, False),
    "mish": (lambda y: F.mish(y), True, False),
    "layer_norm": (lambda y: F.layer_norm(y, (4,)), True, False),
    "layer_norm_w": (lambda y: F.layer_norm(y, (4,), torch.ones(4), torch.zeros(4)), True, False),
    "dropout_eval": (lambda y: F.dropout(y, 0.5, training=False), False, False),
    "clamp": (lambda y: y.clamp(-1, 1), True, False),
    "clamp_min": (lambda y: y.clamp(min=0), True, False),
    "where": (lambda y: torch.where(y > 0, y, torch.zeros(())), False, False),
    "masked_fill": (lambda y: y.masked_fill(y > 1, 0.0), False, False),
    "mse": (lambda y: F.mse_loss(y, torch.zeros(3, 4)), True, False),
    "l1": (lambda y: F.l1_loss(y, torch.zeros(3, 4)), False, False),
    "smooth_l1": (lambda y: F.smooth_l1_loss(y, torch.zeros(3, 4)), True, False),
    "huber": (lambda y: F.huber_loss(y, torch.zeros(3, 4)), True, False),
    "bce_logits": (lambda y: F.binary_cross_entropy_with_logits(y, torch.ones(3, 4)), True, False),
    "bce": (lambda y: F.binary_cross_entropy(y.sigmoid(), torch.ones(3, 4)), False, False),
    "ce": (lambda y: F.cross_entropy(y, torch.tensor([0, 1, 3])), False, False),
    "nll": (lambda y: F.nll_loss(y, torch.tensor([0, 1, 3])), True, False),
    "kl": (lambda y: F.kl_div(y, torch.full((3, 4), 0.25), reduction="batchmean"), False, False),
    "cos_sim": (lambda y: F.cosine_similarity(y, torch.ones(3, 4)), True, False),
    "normalize": (lambda y: F.normalize(y), True, False),
    "pdist": (lambda y: F.pairwise_distance(y, torch.ones(3, 4)), False, True),
    "conv1d": (lambda y: F.conv1d(y.unsqueeze(0), torch.ones(2, 3, 2)), True, False),
    "conv2d": (lambda y: F.conv2d(y.view(1, 1, 3, 4), torch.ones(1, 1, 2, 2)), True, False),
    "maxpool": (lambda y: F.max_pool2d(y.view(1, 1, 3, 4), 2), True, False),
    "avgpool": (lambda y: F.avg_pool2d(y.view(1, 1, 3, 4), 2), True, False),
    "batch_norm": (lambda y: F.batch_norm(y, None, None, training=True), True, False),
    "bn_w": (lambda y: F.batch_norm(y, torch.zeros(4), torch.ones(4), torch.ones(4), torch.zeros(4),
                                    training=True), True, False),
    "group_norm": (lambda y: F.group_norm(y.view(1, 3, 4), 1), True, False),
    "instance": (lambda y: F.instance_norm(y.view(1, 3, 4)), True, False),
    "embedding_w": (lambda y: F.embedding(torch.tensor([0, 2]), y), False, False),
    "gather": (lambda y: y.gather(1, torch.tensor([[0], [1], [2]])), True, False),
    "index_select": (lambda y: y.index_select(0, torch.tensor([0, 2])), False, False),
    "adv_index": (lambda y: y[torch.tensor([0, 2])], False, False),
    "atan2": (lambda y: torch.atan2(y, torch.ones(3, 4)), True, False),
    "hypot": (lambda y: torch.hypot(y, torch.ones(3, 4)), True, True),
    "lerp": (lambda y: torch.lerp(y, torch.ones(3, 4), 0.3), False, False),
    "addcmul": (lambda y: torch.addcmul(y, y, torch.ones(3, 4)), False, False),
    "xlogy": (lambda y: torch.xlogy(y, torch.ones(3, 4)), True, False),
    "logaddexp": (lambda y: torch.logaddexp(y, torch.ones(3, 4)), True, False),
    "erf": (lambda y: y.erf(), True, False),
    "erfinv": (lambda y: (y / 3).erfinv(), False, False),
    "lgamma": (lambda y: y.lgamma(), True, False),
    "digamma": (lambda y: y.digamma(), True, False),
    "asin": (lambda y: (y / 3).asin(), False, False),
    "atan": (lambda y: y.atan(), True, False),
    "sinh": (lambda y: y.sinh(), True, False),
    "log1p": (lambda y: y.log1p(), True, False),
    "expm1": (lambda y: y.expm1(), False, True),
    "reciprocal": (lambda y: y.reciprocal(), False, True),
    "square": (lambda y: y.square(), True, False),
    "sign": (lambda y: y.sign(), False, False),
    "frac": (lambda y: y.frac(), False, False),
    "minimum": (lambda y: torch.minimum(y, torch.zeros(3, 4)), True, False),
    "fmod": (lambda y: torch.fmod(y, 0.7), False, False),
    "remainder": (lambda y: y.remainder(0.7), False, False),
    "dist": (lambda y: torch.dist(y, torch.zeros(3, 4)), True, True),
    "trace": (lambda y: y[:, :3].trace(), False, False),
    "diag": (lambda y: y.diag(), False, False),
    "det": (lambda y: torch.linalg.det(y[:, :3]), True, True),
    "inv": (lambda y: torch.linalg.inv(y[:, :3]), False, True),
    "cross": (lambda y: torch.linalg.cross(y[:, :3], torch.ones(3, 3)), False, False),
    "einsum": (lambda y: torch.einsum("ij,kj->ik", y, y), True, False),
    "bmm": (lambda y: torch.bmm(y.unsqueeze(0), y.t().unsqueeze(0)), True, False),
    "cdist": (lambda y: torch.cdist(y, torch.ones(2, 4)), True, True),
    "median": (lambda y: y.median(), True, True),
    "kthvalue": (lambda y: y.kthvalue(2, 1)[0], False, False),
    "cummax": (lambda y: y.cummax(1)[0], True, False),
    "logcumsumexp": (lambda y: y.logcumsumexp(1), True, True),
    "renorm": (lambda y: y.renorm(2, 0, 1.0), True, False),
    "pad_reflect": (lambda y: F.pad(y.unsqueeze(0), (1, 1), mode="reflect"), True, False),
    "interp": (lambda y: F.interpolate(y.view(1, 1, 3, 4), scale_factor=2, mode="bilinear"), False, False),
    "glu": (lambda y: F.glu(y), True, False),
    "logsigmoid": (lambda y: F.logsigmoid(y), True, False),
    "softsign": (lambda y: F.softsign(y), True, False),
    "celu": (lambda y: F.celu(y), True, False),
    "selu": (lambda y: F.selu(y), True, False),
    "prelu": (lambda y: F.prelu(y, torch.tensor([0.25])), True, False),
    "rrelu_eval": (lambda y: F.rrelu(y, training=False), True, False),
    "hardswish": (lambda y: F.hardswish(y), True, False),
    "sdpa": (lambda y: F.scaled_dot_product_attention(y.view(1, 3, 4), y.view(1, 3, 4), y.view(1, 3, 4)), True, True),
    "std_mean": (lambda y: torch.std_mean(y, 1)[0], True, True),
    "var_mean": (lambda y: torch.var_mean(y, 1)[1], True, False),
    "nan_to_num": (lambda y: y.nan_to_num(), True, False),
    "mv": (lambda y: y.mv(torch.ones(4)), False, False),
    "outer": (lambda y: torch.outer(y[0], y[1]), True, False),
    "kron": (lambda y: torch.kron(y[:2, :2], torch.ones(2, 2)), False, False),
    "cumsum_rev": (lambda y: y.flip(1).cumsum(1), False, False),
    "triplet": (lambda y: F.triplet_margin_loss(y, torch.ones(3, 4), torch.zeros(3, 4)), False, False),
    "margin": (lambda y: F.margin_ranking_loss(y[0], y[1], torch.ones(4)), False, False),
    "hinge": (lambda y: F.hinge_embedding_loss(y, torch.ones(3, 4)), False, False),
    "poisson_nll": (lambda y: F.poisson_nll_loss(y, torch.ones(3, 4)), False, False),
    "gaussian_nll": (lambda y: F.gaussian_nll_loss(y, torch.ones(3, 4), torch.ones(3, 4)), False, False),
    "soft_margin": (lambda y: F.soft_margin_loss(y, torch.ones(3, 4)), True, False),
    "multilabel_soft": (lambda y: F.multilabel_soft_margin_loss(y, torch.ones(3, 4)), True, False),
    "multi_margin": (lambda y: F.multi_margin_loss(y, torch.tensor([0, 1, 3])), True, False),
    "cosine_emb": (lambda y: F.cosine_embedding_loss(y, torch.ones(3, 4), torch.ones(3)), True, False),
    "masked_select": (lambda y: y.masked_select(torch.tensor([[True, False, True, False]] * 3)), True, False),
    "take": (lambda y: y.take(torch.tensor([0, 5])), True, False),
    "take_along": (lambda y: y.take_along_dim(torch.tensor([[0], [1], [2]]), 1), True, False),
    "scatter_add": (lambda y: torch.zeros(3, 5).scatter_add(1, torch.tensor([[0, 1, 2, 3]] * 3), y), False, False),
    "index_add": (lambda y: torch.zeros(5, 4).index_add(0, torch.tensor([0, 1, 2]), y), True, False),
    "index_copy": (lambda y: torch.zeros(5, 4).index_copy(0, torch.tensor([0, 1, 2]), y), True, False),
    "index_put": (lambda y: torch.zeros(5, 4).index_put((torch.tensor([0, 1, 2]),), y), False, False),
    "self_index_put": (lambda y: y.index_put((torch.tensor([0]),), torch.ones(4)), False, False),
    "repeat_interleave": (lambda y: y.repeat_interleave(2, dim=0), False, False),
    "unfold": (lambda y: y.unfold(1, 2, 1), False, False),
    "roll": (lambda y: y.roll(1, 1), False, False),
    "flip": (lambda y: y.flip(0), False, False),
    "expand": (lambda y: y[:1].expand(3, 4) * 1, False, False),
    "tril": (lambda y: y.tril(), False, False),
    "diag_embed": (lambda y: torch.diag_embed(y), False, False),
    "cat": (lambda y: torch.cat([y, y]), False, False),
    "stack": (lambda y: torch.stack([y, y]), False, False),
    "chunk": (lambda y: y.chunk(2, 1)[0] * 1, False, False),
    "max_unpool": (lambda y: F.max_unpool2d(*F.max_pool2d(y.view(1, 1, 3, 4), 2, return_indices=True), 2), True, False),
    "adaptive_avg": (lambda y: F.adaptive_avg_pool2d(y.view(1, 1, 3, 4), 2), True, False),
    "adaptive_max": (lambda y: F.adaptive_max_pool2d(y.view(1, 1, 3, 4), 2), True, False),
    "max_pool1d": (lambda y: F.max_pool1d(y.unsqueeze(0), 2), True, False),
    "avg_pool1d": (lambda y: F.avg_pool1d(y.unsqueeze(0), 2), True, False),
    "pixel_shuffle": (lambda y: F.pixel_shuffle(y.view(1, 4, 3, 1), 2), False, False),
    "unfold_f": (lambda y: F.unfold(y.view(1, 1, 3, 4), 2), False, False),
    "conv_t": (lambda y: F.conv_transpose1d(y.unsqueeze(0), torch.ones(3, 2, 2)), True, False),
    "one_hot_mm": (lambda y: y @ F.one_hot(torch.tensor([0, 1, 2, 3]), 4).float(), False, False),
    "lstm_cell": (lambda y: torch.nn.LSTMCell(4, 2)(y)[0], True, False),
    "gru_cell": (lambda y: torch.nn.GRUCell(4, 2)(y), True, False),
    "rnn_cell": (lambda y: torch.nn.RNNCell(4, 2)(y), True, True),
    "bilinear": (lambda y: F.bilinear(y, y, torch.ones(2, 4, 4)), True, False),
    "embedding_bag": (lambda y: F.embedding_bag(torch.tensor([0, 1, 2]), y, torch.tensor([0])), False, False),
    "cosine_sim_dim0": (lambda y: F.cosine_similarity(y, y, dim=0), True, False),
    "pdist_f": (lambda y: F.pdist(y), True, True),
    "logdet": (lambda y: torch.logdet(y[:, :3] @ y[:, :3].t() + torch.eye(3)), True, False),
    "cholesky": (lambda y: torch.linalg.cholesky(y[:, :3] @ y[:, :3].t() + torch.eye(3)), True, True),
    "svdvals": (lambda y: torch.linalg.svdvals(y), False, True),
    "vector_norm": (lambda y: torch.linalg.vector_norm(y, 3), True, True),
    "matrix_norm": (lambda y: torch.linalg.matrix_norm(y), True, True),
    "pinv": (lambda y: torch.linalg.pinv(y), True, True),
    "solve": (lambda y: torch.linalg.solve(y[:, :3] + 3 * torch.eye(3), torch.ones(3)), False, True),
    "qr": (lambda y: torch.linalg.qr(y)[0], False, True),
    "baddbmm": (lambda y: torch.baddbmm(torch.zeros(1, 3, 3), y.unsqueeze(0), torch.ones(1, 4, 3)), False, False),
    "addmv": (lambda y: torch.addmv(torch.zeros(3), y, torch.ones(4)), False, False),
    "addr": (lambda y: torch.addr(torch.zeros(3, 4), y[:, 0], y[0]), True, False),
    "addbmm": (lambda y: torch.addbmm(torch.zeros(3, 3), y.unsqueeze(0), torch.ones(1, 4, 3)), False, False),
    "tensordot": (lambda y: torch.tensordot(y, torch.ones(4, 2), 1), False, False),
    "matmul_w_left": (lambda y: torch.ones(2, 3) @ y, False, False),
    "inner": (lambda y: torch.inner(y, torch.ones(4)), False, False),
    "dot": (lambda y: y[0].dot(torch.ones(4)), False, False),
    "vdot": (lambda y: y[0].vdot(torch.ones(4)), False, False),
    "ger": (lambda y: torch.outer(y[0], torch.ones(2)), False, False),
    "mul_t": (lambda y: y * torch.ones(3, 4), False, False),
    "div_t": (lambda y: y / torch.full((3, 4), 2.0), False, False),
    "t_div": (lambda y: torch.ones(3, 4) / y, True, False),
    "pow_t": (lambda y: y.abs() ** torch.ones(3, 4), True, True),
    "t_pow": (lambda y: torch.full((3, 4), 2.0) ** y, True, True),
    "addcdiv": (lambda y: torch.addcdiv(y, y, torch.full((3, 4), 2.0)), False, False),
    "addcdiv2": (lambda y: torch.addcdiv(torch.zeros(3, 4), torch.ones(3, 4), y), True, False),
    "lerp_t": (lambda y: torch.lerp(y, torch.ones(3, 4), torch.full((3, 4), 0.3)), False, False),
    "lerp_w": (lambda y: torch.lerp(torch.zeros(3, 4), torch.ones(3, 4), y), True, False),
    "cross_other": (lambda y: torch.linalg.cross(torch.ones(3, 3), y[:, :3]), False, False),
    "clamp_t": (lambda y: y.clamp(torch.zeros(3, 4), torch.ones(3, 4)), True, False),
    "maximum": (lambda y: torch.maximum(y, torch.zeros(3, 4)), True, False),
    "fmax": (lambda y: torch.fmax(y, torch.zeros(3, 4)), True, False),
    "copysign": (lambda y: torch.copysign(y, torch.ones(3, 4)), True, True),
}



@pytest.mark.parametrize("name", sorted(OPS))
def test_writing_an_input_in_place_fails_backward_only_if_the_op_saved_it(name):
    f, saved, _ = OPS[name]
    torch.manual_seed(0)
    x = _t().requires_grad_()
    y = x * 1
    out = f(y)
    y.add_(0.25)
    if saved:
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            out.sum().backward()
    else:
        out.sum().backward()
        assert x.grad is not None


# leafgrad's attention is one node over its decomposition, which saves its softmax inside
# (docs/differences.md); PyTorch's math path saves it on a node of its own
_OUTPUT_SAVED_ELSEWHERE = {"sdpa"}


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=pytest.mark.xfail(torch.__name__ == "leafgrad", strict=True,
                                            reason="the saved softmax sits inside leafgrad's node"))
    if n in _OUTPUT_SAVED_ELSEWHERE else n for n in sorted(OPS)])
def test_writing_the_output_in_place_fails_backward_only_if_the_op_saved_it(name):
    f, _, saved = OPS[name]
    torch.manual_seed(0)
    x = _t().requires_grad_()
    out = f(x * 1)
    if isinstance(out, (tuple, list)):
        out = out[0]
    out.add_(0.25)
    if saved:
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            out.sum().backward()
    else:
        out.sum().backward()
        assert x.grad is not None


def test_composite_nodes_name_their_saved_tensors_as_pytorch():
    y = _t().requires_grad_()
    other = torch.ones(2, 4, requires_grad=True)
    node = torch.cdist(y, other).grad_fn
    assert node._saved_x1 is y and node._saved_x2 is other
    assert node._saved_result.grad_fn is node
    node = torch.dist(y, torch.zeros(3, 4)).grad_fn
    assert node._saved_self is y and node._saved_other.tolist() == [[0.0] * 4] * 3
    node = y.logcumsumexp(1).grad_fn
    assert node._saved_self is y and node._saved_result.shape == (3, 4)


@pytest.mark.parametrize("reduction, weighted, total, code", [
    ("mean", False, 2.0, 1), ("mean", True, 5.0, 1), ("sum", False, 2.0, 2), ("none", True, 0.0, 0)])
def test_nll_loss_saves_what_pytorch_saves(reduction, weighted, total, code):
    x = torch.tensor([[0.5, -1.2, 2.0, 0.3, 1.0], [1.5, 0.7, -0.4, 2.2, 0.0], [0.1, 0.9, 1.1, -0.6, 0.2]],
                     requires_grad=True)
    target = torch.tensor([1, -100, 4])
    w = torch.arange(5.0) if weighted else None
    node = F.nll_loss(x, target, weight=w, reduction=reduction).grad_fn
    assert node._saved_self is x
    assert node._saved_target.tolist() == [1, -100, 4]
    assert (node._saved_weight is None) == (not weighted)
    # the forward's second output: no gradient, so no grad_fn
    assert node._saved_total_weight.item() == total
    assert node._saved_total_weight.grad_fn is None
    assert node._saved_reduction == code
    assert node._saved_ignore_index == 2 ** 64 - 100  # PyTorch shows the int64 as unsigned


def test_nll_loss_packs_self_target_weight_then_total_weight():
    x = torch.randn(3, 5, requires_grad=True) * 1
    packed = []
    with torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append(tuple(t.shape)) or t, lambda t: t):
        F.nll_loss(x, torch.tensor([1, 0, 4]), weight=torch.ones(5))
    assert packed == [(3, 5), (3,), (5,), ()]


# a product saves each factor only for the other's gradient: its formula must then be asked
# only for the gradients whose partner was saved, also under forward AD (forward-over-reverse)
# and when a node is called directly
@pytest.mark.parametrize("f, shapes", [
    (lambda x, z: (x @ z).sum(), [(2, 5), (5, 5)]),
    (lambda x, z: ((x * x) @ z @ z).sum(), [(2, 5), (5, 5)]),
    (lambda x, z: (z @ (x * x)).sum(), [(5,), (5, 5)]),
    (lambda x, z: (x * x).dot(z), [(5,), (5,)]),
    (lambda x, z: (x * x).bmm(z).sum(), [(1, 2, 5), (1, 5, 5)]),
    (lambda x, z: torch.addcmul(x, x, z).pow(2).sum(), [(5,), (5,)]),
    (lambda x, z: torch.lerp(x, z, x).pow(2).sum(), [(5,), (5,)]),
])
def test_forward_over_reverse_hessians_of_products(f, shapes):
    hessian = torch.autograd.functional.hessian
    torch.manual_seed(0)
    inputs = tuple(torch.randn(*s) for s in shapes)
    expected = hessian(f, inputs)
    got = hessian(f, inputs, vectorize=True, outer_jacobian_strategy="forward-mode")
    for row_e, row_g in zip(expected, got):
        for e, g in zip(row_e, row_g):
            assert torch.allclose(e, g, atol=1e-5)


def test_calling_a_product_node_directly_gives_only_the_gradients_with_edges():
    w = torch.ones(3, 4, requires_grad=True)
    grads = (torch.ones(2, 3) @ w).grad_fn(torch.ones(2, 4))
    assert grads[0] is None and grads[1].shape == (3, 4)
