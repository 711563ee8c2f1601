"""Which inputs an op saves for backward, seen as PyTorch 2.15 shows it: writing the input in
place between the op and backward raises "one of the variables needed for gradient computation
has been modified by an inplace operation" exactly when the op's node saved it. PyTorch saves
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
    "exp": (lambda y: y.exp(), False),
    "log": (lambda y: y.abs().log() if False else y.log(), True),
    "sin": (lambda y: y.sin(), True),
    "cos": (lambda y: y.cos(), True),
    "tanh": (lambda y: y.tanh(), False),
    "sigmoid": (lambda y: y.sigmoid(), False),
    "relu": (lambda y: y.relu(), False),
    "abs": (lambda y: y.abs(), True),
    "sqrt": (lambda y: y.sqrt(), False),
    "rsqrt": (lambda y: y.rsqrt(), False),
    "pow2": (lambda y: y ** 2, True),
    "pow3": (lambda y: y.pow(3.0), True),
    "mul_self": (lambda y: y * y, True),
    "mul_c": (lambda y: y * 2, False),
    "div_c": (lambda y: y / 2, False),
    "rdiv": (lambda y: 2 / y, False),
    "add": (lambda y: y + 1, False),
    "sum": (lambda y: y.sum(), False),
    "mean": (lambda y: y.mean(), False),
    "prod": (lambda y: y.prod(), True),
    "prod_dim": (lambda y: y.prod(1), True),
    "max": (lambda y: y.max(), True),
    "max_dim": (lambda y: y.max(1)[0], False),
    "amax": (lambda y: y.amax(1), True),
    "norm": (lambda y: y.norm(), True),
    "norm_dim": (lambda y: y.norm(dim=1), True),
    "var": (lambda y: y.var(), True),
    "std": (lambda y: y.std(1), True),
    "logsumexp": (lambda y: y.logsumexp(1), True),
    "softmax": (lambda y: y.softmax(1), False),
    "log_softmax": (lambda y: y.log_softmax(1), False),
    "cumsum": (lambda y: y.cumsum(1), False),
    "cumprod": (lambda y: y.cumprod(1), True),
    "sort": (lambda y: y.sort(1)[0], False),
    "topk": (lambda y: y.topk(2, 1)[0], False),
    "matmul": (lambda y: y @ y.t(), True),
    "mm_w": (lambda y: y.mm(torch.ones(4, 2)), False),
    "linear": (lambda y: F.linear(y, torch.ones(2, 4)), False),
    "gelu": (lambda y: F.gelu(y), True),
    "gelu_tanh": (lambda y: F.gelu(y, approximate="tanh"), True),
    "silu": (lambda y: F.silu(y), True),
    "elu": (lambda y: F.elu(y), True),
    "leaky": (lambda y: F.leaky_relu(y), True),
    "softplus": (lambda y: F.softplus(y), True),
    "hardtanh": (lambda y: F.hardtanh(y), True),
    "mish": (lambda y: F.mish(y), True),
    "layer_norm": (lambda y: F.layer_norm(y, (4,)), True),
    "layer_norm_w": (lambda y: F.layer_norm(y, (4,), torch.ones(4), torch.zeros(4)), True),
    "dropout_eval": (lambda y: F.dropout(y, 0.5, training=False), False),
    "clamp": (lambda y: y.clamp(-1, 1), True),
    "clamp_min": (lambda y: y.clamp(min=0), True),
    "where": (lambda y: torch.where(y > 0, y, torch.zeros(())), False),
    "masked_fill": (lambda y: y.masked_fill(y > 1, 0.0), False),
    "mse": (lambda y: F.mse_loss(y, torch.zeros(3, 4)), True),
    "l1": (lambda y: F.l1_loss(y, torch.zeros(3, 4)), False),
    "smooth_l1": (lambda y: F.smooth_l1_loss(y, torch.zeros(3, 4)), True),
    "huber": (lambda y: F.huber_loss(y, torch.zeros(3, 4)), True),
    "bce_logits": (lambda y: F.binary_cross_entropy_with_logits(y, torch.ones(3, 4)), True),
    "bce": (lambda y: F.binary_cross_entropy(y.sigmoid(), torch.ones(3, 4)), False),
    "ce": (lambda y: F.cross_entropy(y, torch.tensor([0, 1, 3])), False),
    "nll": (lambda y: F.nll_loss(y, torch.tensor([0, 1, 3])), True),
    "kl": (lambda y: F.kl_div(y, torch.full((3, 4), 0.25), reduction="batchmean"), False),
    "cos_sim": (lambda y: F.cosine_similarity(y, torch.ones(3, 4)), True),
    "normalize": (lambda y: F.normalize(y), True),
    "pdist": (lambda y: F.pairwise_distance(y, torch.ones(3, 4)), False),
    "conv1d": (lambda y: F.conv1d(y.unsqueeze(0), torch.ones(2, 3, 2)), True),
    "conv2d": (lambda y: F.conv2d(y.view(1, 1, 3, 4), torch.ones(1, 1, 2, 2)), True),
    "maxpool": (lambda y: F.max_pool2d(y.view(1, 1, 3, 4), 2), True),
    "avgpool": (lambda y: F.avg_pool2d(y.view(1, 1, 3, 4), 2), True),
    "batch_norm": (lambda y: F.batch_norm(y, None, None, training=True), True),
    "bn_w": (lambda y: F.batch_norm(y, torch.zeros(4), torch.ones(4), torch.ones(4), torch.zeros(4), training=True), True),
    "group_norm": (lambda y: F.group_norm(y.view(1, 3, 4), 1), True),
    "instance": (lambda y: F.instance_norm(y.view(1, 3, 4)), True),
    "embedding_w": (lambda y: F.embedding(torch.tensor([0, 2]), y), False),
    "gather": (lambda y: y.gather(1, torch.tensor([[0], [1], [2]])), True),
    "index_select": (lambda y: y.index_select(0, torch.tensor([0, 2])), False),
    "adv_index": (lambda y: y[torch.tensor([0, 2])], False),
    "atan2": (lambda y: torch.atan2(y, torch.ones(3, 4)), True),
    "hypot": (lambda y: torch.hypot(y, torch.ones(3, 4)), True),
    "lerp": (lambda y: torch.lerp(y, torch.ones(3, 4), 0.3), False),
    "addcmul": (lambda y: torch.addcmul(y, y, torch.ones(3, 4)), False),
    "xlogy": (lambda y: torch.xlogy(y, torch.ones(3, 4)), True),
    "logaddexp": (lambda y: torch.logaddexp(y, torch.ones(3, 4)), True),
    "erf": (lambda y: y.erf(), True),
    "erfinv": (lambda y: (y / 3).erfinv(), False),
    "lgamma": (lambda y: y.lgamma(), True),
    "digamma": (lambda y: y.digamma(), True),
    "asin": (lambda y: (y / 3).asin(), False),
    "atan": (lambda y: y.atan(), True),
    "sinh": (lambda y: y.sinh(), True),
    "log1p": (lambda y: y.log1p(), True),
    "expm1": (lambda y: y.expm1(), False),
    "reciprocal": (lambda y: y.reciprocal(), False),
    "square": (lambda y: y.square(), True),
    "sign": (lambda y: y.sign(), False),
    "frac": (lambda y: y.frac(), False),
    "minimum": (lambda y: torch.minimum(y, torch.zeros(3, 4)), True),
    "fmod": (lambda y: torch.fmod(y, 0.7), False),
    "remainder": (lambda y: y.remainder(0.7), False),
    "dist": (lambda y: torch.dist(y, torch.zeros(3, 4)), True),
    "trace": (lambda y: y[:, :3].trace(), False),
    "diag": (lambda y: y.diag(), False),
    "det": (lambda y: torch.linalg.det(y[:, :3]), True),
    "inv": (lambda y: torch.linalg.inv(y[:, :3]), False),
    "cross": (lambda y: torch.linalg.cross(y[:, :3], torch.ones(3, 3)), False),
    "einsum": (lambda y: torch.einsum("ij,kj->ik", y, y), True),
    "bmm": (lambda y: torch.bmm(y.unsqueeze(0), y.t().unsqueeze(0)), True),
    "cdist": (lambda y: torch.cdist(y, torch.ones(2, 4)), True),
    "median": (lambda y: y.median(), True),
    "kthvalue": (lambda y: y.kthvalue(2, 1)[0], False),
    "cummax": (lambda y: y.cummax(1)[0], True),
    "logcumsumexp": (lambda y: y.logcumsumexp(1), True),
    "renorm": (lambda y: y.renorm(2, 0, 1.0), True),
    "pad_reflect": (lambda y: F.pad(y.unsqueeze(0), (1, 1), mode="reflect"), True),
    "interp": (lambda y: F.interpolate(y.view(1, 1, 3, 4), scale_factor=2, mode="bilinear"), False),
    "glu": (lambda y: F.glu(y), True),
    "logsigmoid": (lambda y: F.logsigmoid(y), True),
    "softsign": (lambda y: F.softsign(y), True),
    "celu": (lambda y: F.celu(y), True),
    "selu": (lambda y: F.selu(y), True),
    "prelu": (lambda y: F.prelu(y, torch.tensor([0.25])), True),
    "rrelu_eval": (lambda y: F.rrelu(y, training=False), True),
    "hardswish": (lambda y: F.hardswish(y), True),
    "sdpa": (lambda y: F.scaled_dot_product_attention(y.view(1, 3, 4), y.view(1, 3, 4), y.view(1, 3, 4)), True),
    "std_mean": (lambda y: torch.std_mean(y, 1)[0], True),
    "var_mean": (lambda y: torch.var_mean(y, 1)[1], True),
    "nan_to_num": (lambda y: y.nan_to_num(), True),
    "mv": (lambda y: y.mv(torch.ones(4)), False),
    "outer": (lambda y: torch.outer(y[0], y[1]), True),
    "kron": (lambda y: torch.kron(y[:2, :2], torch.ones(2, 2)), False),
    "cumsum_rev": (lambda y: y.flip(1).cumsum(1), False),
    "triplet": (lambda y: F.triplet_margin_loss(y, torch.ones(3, 4), torch.zeros(3, 4)), False),
    "margin": (lambda y: F.margin_ranking_loss(y[0], y[1], torch.ones(4)), False),
    "hinge": (lambda y: F.hinge_embedding_loss(y, torch.ones(3, 4)), False),
    "poisson_nll": (lambda y: F.poisson_nll_loss(y, torch.ones(3, 4)), False),
    "gaussian_nll": (lambda y: F.gaussian_nll_loss(y, torch.ones(3, 4), torch.ones(3, 4)), False),
    "soft_margin": (lambda y: F.soft_margin_loss(y, torch.ones(3, 4)), True),
    "multilabel_soft": (lambda y: F.multilabel_soft_margin_loss(y, torch.ones(3, 4)), True),
    "multi_margin": (lambda y: F.multi_margin_loss(y, torch.tensor([0, 1, 3])), True),
    "cosine_emb": (lambda y: F.cosine_embedding_loss(y, torch.ones(3, 4), torch.ones(3)), True),
    "masked_select": (lambda y: y.masked_select(torch.tensor([[True, False, True, False]] * 3)), True),
    "take": (lambda y: y.take(torch.tensor([0, 5])), True),
    "take_along": (lambda y: y.take_along_dim(torch.tensor([[0], [1], [2]]), 1), True),
    "scatter_add": (lambda y: torch.zeros(3, 5).scatter_add(1, torch.tensor([[0, 1, 2, 3]] * 3), y), False),
    "index_add": (lambda y: torch.zeros(5, 4).index_add(0, torch.tensor([0, 1, 2]), y), True),
    "index_copy": (lambda y: torch.zeros(5, 4).index_copy(0, torch.tensor([0, 1, 2]), y), True),
    "index_put": (lambda y: torch.zeros(5, 4).index_put((torch.tensor([0, 1, 2]),), y), False),
    "self_index_put": (lambda y: y.index_put((torch.tensor([0]),), torch.ones(4)), False),
    "repeat_interleave": (lambda y: y.repeat_interleave(2, dim=0), False),
    "unfold": (lambda y: y.unfold(1, 2, 1), False),
    "roll": (lambda y: y.roll(1, 1), False),
    "flip": (lambda y: y.flip(0), False),
    "expand": (lambda y: y[:1].expand(3, 4) * 1, False),
    "tril": (lambda y: y.tril(), False),
    "diag_embed": (lambda y: torch.diag_embed(y), False),
    "cat": (lambda y: torch.cat([y, y]), False),
    "stack": (lambda y: torch.stack([y, y]), False),
    "chunk": (lambda y: y.chunk(2, 1)[0] * 1, False),
    "max_unpool": (lambda y: F.max_unpool2d(*F.max_pool2d(y.view(1, 1, 3, 4), 2, return_indices=True), 2), True),
    "adaptive_avg": (lambda y: F.adaptive_avg_pool2d(y.view(1, 1, 3, 4), 2), True),
    "adaptive_max": (lambda y: F.adaptive_max_pool2d(y.view(1, 1, 3, 4), 2), True),
    "max_pool1d": (lambda y: F.max_pool1d(y.unsqueeze(0), 2), True),
    "avg_pool1d": (lambda y: F.avg_pool1d(y.unsqueeze(0), 2), True),
    "pixel_shuffle": (lambda y: F.pixel_shuffle(y.view(1, 4, 3, 1), 2), False),
    "unfold_f": (lambda y: F.unfold(y.view(1, 1, 3, 4), 2), False),
    "conv_t": (lambda y: F.conv_transpose1d(y.unsqueeze(0), torch.ones(3, 2, 2)), True),
    "one_hot_mm": (lambda y: y @ F.one_hot(torch.tensor([0, 1, 2, 3]), 4).float(), False),
    "lstm_cell": (lambda y: torch.nn.LSTMCell(4, 2)(y)[0], True),
    "gru_cell": (lambda y: torch.nn.GRUCell(4, 2)(y), True),
    "rnn_cell": (lambda y: torch.nn.RNNCell(4, 2)(y), True),
    "bilinear": (lambda y: F.bilinear(y, y, torch.ones(2, 4, 4)), True),
    "embedding_bag": (lambda y: F.embedding_bag(torch.tensor([0, 1, 2]), y, torch.tensor([0])), False),
    "cosine_sim_dim0": (lambda y: F.cosine_similarity(y, y, dim=0), True),
    "pdist_f": (lambda y: F.pdist(y), True),
    "logdet": (lambda y: torch.logdet(y[:, :3] @ y[:, :3].t() + torch.eye(3)), True),
    "cholesky": (lambda y: torch.linalg.cholesky(y[:, :3] @ y[:, :3].t() + torch.eye(3)), True),
    "svdvals": (lambda y: torch.linalg.svdvals(y), False),
    "vector_norm": (lambda y: torch.linalg.vector_norm(y, 3), True),
    "matrix_norm": (lambda y: torch.linalg.matrix_norm(y), True),
    "pinv": (lambda y: torch.linalg.pinv(y), True),
    "solve": (lambda y: torch.linalg.solve(y[:, :3] + 3 * torch.eye(3), torch.ones(3)), False),
    "qr": (lambda y: torch.linalg.qr(y)[0], False),
    "baddbmm": (lambda y: torch.baddbmm(torch.zeros(1, 3, 3), y.unsqueeze(0), torch.ones(1, 4, 3)), False),
    "addmv": (lambda y: torch.addmv(torch.zeros(3), y, torch.ones(4)), False),
    "addr": (lambda y: torch.addr(torch.zeros(3, 4), y[:, 0], y[0]), True),
    "addbmm": (lambda y: torch.addbmm(torch.zeros(3, 3), y.unsqueeze(0), torch.ones(1, 4, 3)), False),
    "tensordot": (lambda y: torch.tensordot(y, torch.ones(4, 2), 1), False),
    "matmul_w_left": (lambda y: torch.ones(2, 3) @ y, False),
    "inner": (lambda y: torch.inner(y, torch.ones(4)), False),
    "dot": (lambda y: y[0].dot(torch.ones(4)), False),
    "vdot": (lambda y: y[0].vdot(torch.ones(4)), False),
    "ger": (lambda y: torch.outer(y[0], torch.ones(2)), False),
    "mul_t": (lambda y: y * torch.ones(3, 4), False),
    "div_t": (lambda y: y / torch.full((3, 4), 2.0), False),
    "t_div": (lambda y: torch.ones(3, 4) / y, True),
    "pow_t": (lambda y: y.abs() ** torch.ones(3, 4), True),
    "t_pow": (lambda y: torch.full((3, 4), 2.0) ** y, True),
    "addcdiv": (lambda y: torch.addcdiv(y, y, torch.full((3, 4), 2.0)), False),
    "addcdiv2": (lambda y: torch.addcdiv(torch.zeros(3, 4), torch.ones(3, 4), y), True),
    "lerp_t": (lambda y: torch.lerp(y, torch.ones(3, 4), torch.full((3, 4), 0.3)), False),
    "lerp_w": (lambda y: torch.lerp(torch.zeros(3, 4), torch.ones(3, 4), y), True),
    "cross_other": (lambda y: torch.linalg.cross(torch.ones(3, 3), y[:, :3]), False),
    "clamp_t": (lambda y: y.clamp(torch.zeros(3, 4), torch.ones(3, 4)), True),
    "maximum": (lambda y: torch.maximum(y, torch.zeros(3, 4)), True),
    "fmax": (lambda y: torch.fmax(y, torch.zeros(3, 4)), True),
    "copysign": (lambda y: torch.copysign(y, torch.ones(3, 4)), True),
}



@pytest.mark.parametrize("name", sorted(OPS))
def test_writing_an_input_in_place_fails_backward_only_if_the_op_saved_it(name):
    f, saved = OPS[name]
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
