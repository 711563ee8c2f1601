"""The losses of nn.functional beyond MSE/L1/NLL/cross-entropy/BCE, and the distance functions:
values, grad_fn names and the gradients of input and target as torch 2.15 records them (x and y
below), their errors and warnings, and their modules. With LEAFGRAD_TEST_TORCH=1 the same
expectations run against PyTorch."""
import warnings

import pytest

import leafgrad as torch
import leafgrad.nn.functional as F

nan = float("nan")
X = [[0.2, -1.5, 3.0], [1.0, 0.5, -0.3]]
Y = [[0.0, -1.0, 1.0], [2.0, 0.4, -0.3]]

# name: (expression in x, y; node (None: pairwise_distance's NormBackward1 is leafgrad's
# LinalgVectorNormBackward0, docs/differences.md); value; gradient of x; of y (None: unused))
RECORDED = {
    "smooth_l1": ("F.smooth_l1_loss(x, y)", "SmoothL1LossBackward0", [0.358333], [0.033333, -0.083333, 0.166667, -0.166667, 0.016667, 0.0], [-0.033333, 0.083333, -0.166667, 0.166667, -0.016667, 0.0]),
    "smooth_l1_beta_sum": ("F.smooth_l1_loss(x, y, beta=0.5, reduction='sum')", "SmoothL1LossBackward0", [2.8], [0.4, -1.0, 1.0, -1.0, 0.2, 0.0], [-0.4, 1.0, -1.0, 1.0, -0.2, 0.0]),
    "smooth_l1_beta0": ("F.smooth_l1_loss(x, y, beta=0.0)", "MeanBackward0", [0.633333], [0.166667, -0.166667, 0.166667, -0.166667, 0.166667, 0.0], [-0.166667, 0.166667, -0.166667, 0.166667, -0.166667, 0.0]),
    "huber": ("F.huber_loss(x, y, delta=0.7)", "HuberLossBackward0", [0.293333], [0.033333, -0.083333, 0.116667, -0.116667, 0.016667, 0.0], [-0.033333, 0.083333, -0.116667, 0.116667, -0.016667, 0.0]),
    "huber_none": ("F.huber_loss(x, y, reduction='none')", "HuberLossBackward0", [0.02, 0.125, 1.5, 0.5, 0.005, 0.0], [0.2, -0.5, 1.0, -1.0, 0.1, 0.0], [-0.2, 0.5, -1.0, 1.0, -0.1, 0.0]),
    "huber_weight": ("F.huber_loss(x, y, weight=torch.tensor([[1., 2., 3.], [0.5, 0.5, 1.]]))", "MeanBackward0", [0.837083], [0.033333, -0.166667, 0.5, -0.083333, 0.008333, 0.0], [-0.033333, 0.166667, -0.5, 0.083333, -0.008333, 0.0]),
    "soft_margin": ("F.soft_margin_loss(x, y.detach().sign())", "SoftMarginLossBackward0", [0.380807], [0.0, 0.030404, -0.007904, -0.044824, -0.062923, 0.070926], None),
    "kl_batchmean": ("F.kl_div(x, y.abs(), reduction='batchmean')", "DivBackward0", [-1.475707], [0.0, -0.5, -0.5, -1.0, -0.2, -0.15], [nan, -1.25, -1.0, 0.346574, -0.208145, -0.048014]),
    "kl_log_target": ("F.kl_div(x, y, log_target=True, reduction='sum')", "SumBackward0", [1.78725], [-1.0, -0.367879, -2.718282, -7.389056, -1.491825, -0.740818], [0.8, 0.551819, -2.718282, 14.778112, 1.342642, 0.740818]),
    "kl_none": ("F.kl_div(x, y.abs(), reduction='none')", "SubBackward0", [0.0, 1.5, -3.0, -0.613706, -0.566516, -0.271192], [0.0, -1.0, -1.0, -2.0, -0.4, -0.3], [nan, -2.5, -2.0, 0.693147, -0.416291, -0.096027]),
    "margin_ranking": ("F.margin_ranking_loss(x[:, 0], x[:, 1], torch.tensor([1., -1.]), margin=0.1)", "MeanBackward0", [0.3], [0.0, 0.0, 0.0, 0.5, -0.5, 0.0], None),
    "hinge": ("F.hinge_embedding_loss(x, y.detach().sign())", "MeanBackward0", [1.55], [0.0, -0.166667, 0.166667, 0.166667, 0.166667, -0.166667], None),
    "hinge_margin_sum": ("F.hinge_embedding_loss(x, y.detach().sign(), margin=2.0, reduction='sum')", "SumBackward0", [12.3], [0.0, -1.0, 1.0, 1.0, 1.0, -1.0], None),
    "cosine_embedding": ("F.cosine_embedding_loss(x, y, torch.tensor([1., -1.]), margin=0.2)", "MeanBackward0", [0.406298], [0.008388, 0.042313, 0.020597, 0.060979, -0.095222, 0.044562], [-0.021044, -0.078917, -0.078917, -0.016268, 0.059602, -0.028988]),
    "cosine_embedding_0d": ("F.cosine_embedding_loss(x[0], y[0], torch.tensor(-1.))", "MeanBackward0", [0.947001], [-0.016776, -0.084625, -0.041194, 0.0, 0.0, 0.0], [0.042089, 0.157834, 0.157834, 0.0, 0.0, 0.0]),
    "triplet": ("F.triplet_margin_loss(x, y, y.flip(0))", "MeanBackward0", [0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
    "triplet_swap_p1": ("F.triplet_margin_loss(x, y, y.flip(0) * 0.5, p=1, swap=True, margin=3.0)", "MeanBackward0", [1.825001], [0.5, -0.5, 0.5, -1.0, 0.0, 1.0], [0.25, 1.25, -1.25, 0.25, -0.75, -0.25]),
    "poisson": ("F.poisson_nll_loss(x, y.abs())", "MeanBackward0", [3.837981], [0.203567, -0.129478, 3.180923, 0.119714, 0.20812, 0.07347], [0.0, -0.25, -0.5, -0.166667, -0.083333, -0.05]),
    "poisson_full": ("F.poisson_nll_loss(x.exp(), y.abs() * 3, log_input=False, full=True, reduction='sum')", "SumBackward0", [25.930315], [1.221403, -2.77687, 17.085537, -3.281718, 0.448721, -0.159182], [nan, -8.295836, -5.204163, 2.625278, 0.296965, -0.9]),
    "gaussian": ("F.gaussian_nll_loss(x, y, torch.ones(2, 3) * 0.5)", "MeanBackward0", [0.53676], [0.066667, -0.166667, 0.666667, -0.333333, 0.033333, 0.0], [-0.066667, 0.166667, -0.666667, 0.333333, -0.033333, 0.0]),
    "gaussian_homoscedastic": ("F.gaussian_nll_loss(x, y, torch.tensor([0.5, 2.0]), full=True)", "MeanBackward0", [1.676022], [0.066667, -0.166667, 0.666667, -0.083333, 0.008333, 0.0], [-0.066667, 0.166667, -0.666667, 0.083333, -0.008333, 0.0]),
    "gaussian_float": ("F.gaussian_nll_loss(x, y, 0.3, reduction='sum')", "SumBackward0", [5.221415], [0.666667, -1.666667, 6.666667, -3.333333, 0.333333, 0.0], [-0.666667, 1.666667, -6.666667, 3.333333, -0.333333, 0.0]),
    "multilabel_soft_margin": ("F.multilabel_soft_margin_loss(x, (y.detach() > 0).float())", "MeanBackward0", [0.398306], [0.091639, 0.030404, -0.007904, -0.044824, -0.062923, 0.070926], None),
    "multilabel_soft_margin_weight": ("F.multilabel_soft_margin_loss(x, (y.detach() > 0).float(), weight=torch.tensor([1., 2., 0.5]), reduction='none')", "DivBackward0", [0.40842, 0.512864], [0.183278, 0.121617, -0.007904, -0.089647, -0.251694, 0.070926], None),
    "cosine_similarity": ("F.cosine_similarity(x, y)", "SumBackward1", [0.947001, 0.959596], [-0.016776, -0.084625, -0.041194, 0.121959, -0.190443, 0.089124], [0.042089, 0.157834, 0.157834, -0.032537, 0.119204, -0.057975]),
    "cosine_similarity_dim0": ("F.cosine_similarity(x, y, dim=0)", "SumBackward1", [0.980581, 0.998274, 0.981665], [-0.188573, 0.011744, -0.006291, 0.037715, 0.035233, -0.062909], [0.098058, -0.020249, 0.052463, 0.0, -0.050622, 0.174876]),
    "pairwise_distance": ("F.pairwise_distance(x, y)", None, [2.071232, 1.004987], [0.096561, -0.241402, 0.965609, -0.995037, 0.099505, 1e-06], [-0.096561, 0.241402, -0.965609, 0.995037, -0.099505, -1e-06]),
    "pairwise_distance_p1": ("F.pairwise_distance(x, y, p=1, keepdim=True)", None, [2.700001, 1.100001], [1.0, -1.0, 1.0, -1.0, 1.0, 1.0], [-1.0, 1.0, -1.0, 1.0, -1.0, -1.0]),
    "normalize": ("F.normalize(x)", "DivBackward0", [0.059523, -0.446421, 0.892841, 0.863868, 0.431934, -0.259161], [0.288651, 0.364834, 0.163174, 0.090255, 0.477062, 1.095952], None),
    "normalize_p1_dim0": ("F.normalize(x, p=1, dim=0)", "DivBackward0", [0.166667, -0.75, 0.909091, 0.833333, 0.25, -0.090909], [0.0, 0.25, 0.055096, 0.0, 0.75, 0.550964], None),
    "mse": ("F.mse_loss(x, y)", "MseLossBackward0", [0.883333], [0.066667, -0.166667, 0.666667, -0.333333, 0.033333, 0.0], [-0.066667, 0.166667, -0.666667, 0.333333, -0.033333, 0.0]),
    "l1_sum": ("F.l1_loss(x, y, reduction='sum')", "SumBackward0", [3.8], [1.0, -1.0, 1.0, -1.0, 1.0, 0.0], [-1.0, 1.0, -1.0, 1.0, -1.0, 0.0]),
}


def _close(got, want):
    if want is None:
        return got is None
    return got is not None and got.flatten().tolist() == pytest.approx(want, abs=2e-6, nan_ok=True)


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_values_nodes_and_gradients(name):
    src, node, value, gx, gy = RECORDED[name]
    x = torch.tensor(X, requires_grad=True)
    y = torch.tensor(Y, requires_grad=True)
    loss = eval(src)
    if node is not None:
        assert type(loss.grad_fn).__name__ == node
    assert _close(loss.detach(), value)
    got_x, got_y = torch.autograd.grad(loss.sum(), [x, y], allow_unused=True)
    assert _close(got_x, gx) and _close(got_y, gy)


def test_the_target_gradient_at_equal_values_is_plus_zero():
    # PyTorch computes it from target - input: 0., where negating the input's gives -0.
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = torch.tensor([1.0, 0.0], requires_grad=True)
    for f in (F.mse_loss, F.smooth_l1_loss, F.huber_loss):
        (gy,) = torch.autograd.grad(f(x, y), y)
        assert str(gy.tolist()[0]) == "0.0"


@pytest.mark.parametrize("f, error, message", [
    (lambda x, y: F.smooth_l1_loss(x, y, beta=-1.0), RuntimeError,
     "smooth_l1_loss does not support negative values for beta."),
    (lambda x, y: F.huber_loss(x, y, delta=0.0), RuntimeError,
     "huber_loss does not support non-positive values for delta."),
    (lambda x, y: F.smooth_l1_loss(torch.tensor([1, 2]), torch.tensor([1, 3])), NotImplementedError,
     "\"smooth_l1_cpu\" not implemented for 'Long'"),
    (lambda x, y: F.huber_loss(torch.tensor([1, 2]), torch.tensor([1, 3])), NotImplementedError,
     "\"huber_cpu\" not implemented for 'Long'"),
    (lambda x, y: F.soft_margin_loss(x, y), RuntimeError,
     "The function 'soft_margin_loss' is not differentiable with respect to argument 'target'. "
     "This input cannot have requires_grad True."),
    (lambda x, y: F.kl_div(x, y, reduction="bad"), ValueError, "bad is not a valid value for reduction"),
    (lambda x, y: F.kl_div(torch.tensor([1]), torch.tensor([1]), reduction="sum"), RuntimeError,
     "kl_div: Integral inputs not supported."),
    (lambda x, y: F.huber_loss(x, y, weight=torch.ones(3)), ValueError, "Weights and input must have the same size."),
    (lambda x, y: F.cosine_embedding_loss(x, y, torch.ones(2, 3)), RuntimeError,
     "0D or 1D target tensor expected, multi-target not supported"),
    (lambda x, y: F.cosine_embedding_loss(x[0], y[0], torch.ones(2)), RuntimeError,
     "1D target tensor expects 2D input tensors, but found inputs with sizes [3] and [3]."),
    (lambda x, y: F.triplet_margin_loss(x, y, y, margin=0.0), ValueError, "margin must be greater than 0, got 0.0"),
    (lambda x, y: F.triplet_margin_loss(x, y[0], y), RuntimeError,
     "The anchor, positive, and negative tensors are expected to have the same number of dimensions, but got: "
     "anchor 2D, positive 1D, and negative 2D inputs"),
    (lambda x, y: F.gaussian_nll_loss(x, y, -torch.ones(2, 3)), ValueError, "var has negative entry/entries"),
    (lambda x, y: F.gaussian_nll_loss(x, y, torch.ones(3, 3)), ValueError, "var is of incorrect size"),
    (lambda x, y: F.gaussian_nll_loss(x, y, torch.ones(2, 3), reduction="x"), ValueError, "x is not valid"),
    (lambda x, y: F.poisson_nll_loss(x, y, reduction="x"), ValueError, "x is not a valid value for reduction"),
    (lambda x, y: F.margin_ranking_loss(x, x[0], x[0]), RuntimeError,
     "margin_ranking_loss : All input tensors should have same dimension but got sizes: input1: torch.Size([2, 3]), "
     "input2: torch.Size([3]), target: torch.Size([3]) "),
])
def test_loss_errors(f, error, message):
    x = torch.tensor(X, requires_grad=True)
    y = torch.tensor(Y, requires_grad=True)
    with pytest.raises(error) as e:
        f(x, y)
    assert str(e.value) == message


def test_warnings_for_a_broadcast_target_and_the_legacy_arguments():
    x, y = torch.tensor(X), torch.tensor(Y)
    for f in (F.mse_loss, F.l1_loss, F.smooth_l1_loss, F.huber_loss):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            f(x, y[0])
        assert [str(m.message) for m in w] == [
            "Using a target size (torch.Size([3])) that is different to the input size (torch.Size([2, 3])). This "
            "will likely lead to incorrect results due to broadcasting. Please ensure they have the same size."]
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        F.mse_loss(x, y, size_average=False)
        F.kl_div(x, y.abs())
    assert [str(m.message)[:60] for m in w] == [
        "size_average and reduce args will be deprecated, please use ",
        "reduction: 'mean' divides the total loss by both the batch s"]


def test_loss_modules():
    nn = torch.nn
    assert [repr(m) for m in (nn.SmoothL1Loss(beta=0.5), nn.HuberLoss(delta=2.0), nn.KLDivLoss(log_target=True),
                              nn.TripletMarginLoss(swap=True), nn.CosineSimilarity(), nn.PairwiseDistance())] == [
        "SmoothL1Loss()", "HuberLoss()", "KLDivLoss()", "TripletMarginLoss()", "CosineSimilarity()", "PairwiseDistance()"]
    assert nn.SmoothL1Loss(beta=0.5)(torch.tensor([0.2, 3.0]), torch.tensor([0.0, 1.0])).item() == pytest.approx(0.895)
    assert nn.HuberLoss(delta=0.5)(torch.tensor([0.2, 3.0]), torch.tensor([0.0, 1.0])).item() == pytest.approx(0.4475)
    kl = nn.KLDivLoss(reduction="batchmean")(torch.tensor([[0.25, 0.75]]).log(), torch.tensor([[0.5, 0.5]]))
    assert kl.item() == pytest.approx(0.143841, abs=1e-6)
    assert nn.MarginRankingLoss(0.5)(torch.tensor([1.0]), torch.tensor([2.0]), torch.tensor([1.0])).item() == 1.5
    assert nn.HingeEmbeddingLoss()(torch.tensor([0.3, 2.0]), torch.tensor([1.0, -1.0])).item() == pytest.approx(0.15)
    t = nn.TripletMarginLoss()(torch.zeros(1, 2), torch.tensor([[0.0, 1.0]]), torch.tensor([[0.0, 1.5]]))
    assert t.item() == pytest.approx(0.5, abs=1e-5)
    assert nn.PoissonNLLLoss()(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0])).item() == pytest.approx(0.859141)
    assert nn.GaussianNLLLoss()(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 1.0]), torch.ones(2)).item() == 0.25
    m = nn.MultiLabelSoftMarginLoss(weight=torch.tensor([1.0, 2.0]))
    assert list(m.state_dict()) == ["weight"]
    assert m(torch.tensor([[1.0, -1.0]]), torch.tensor([[1.0, 0.0]])).item() == pytest.approx(0.469893, abs=1e-6)
    assert nn.SoftMarginLoss(size_average=False).reduction == "sum"
    with pytest.raises(ValueError, match="^TripletMarginLoss: expected margin to be greater than 0, got 0 instead$"):
        nn.TripletMarginLoss(margin=0)
