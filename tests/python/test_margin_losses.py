"""multi_margin_loss, multilabel_margin_loss and triplet_margin_with_distance_loss: values,
grad_fn names and input gradients as torch 2.15 records them, PyTorch's argument errors and
legacy-argument warnings, and their modules. With LEAFGRAD_TEST_TORCH=1 the same expectations
run against PyTorch."""
import os
import warnings

import pytest

import leafgrad as torch
import leafgrad.nn.functional as F

X = [[0.2, -1.5, 3.0, 0.9], [1.0, 0.5, -0.3, 1.4], [0.0, 0.7, 0.7, -2.0]]

# name: (expression in x; node; shape; value; gradient of x)
RECORDED = {
    "multi_margin": ("F.multi_margin_loss(x, torch.tensor([2, 0, 1]))", "MultiMarginLossBackward0", [], [0.266667], [0.0, 0.0, 0.0, 0.0, -0.166667, 0.083333, 0.0, 0.083333, 0.083333, -0.166667, 0.083333, 0.0]),
    "multi_margin_p2_sum": ("F.multi_margin_loss(x, torch.tensor([3, 1, 2]), p=2, reduction='sum')", "MultiMarginLossBackward0", [], [4.1725], [0.15, 0.0, 1.55, -1.7, 0.75, -1.8, 0.1, 0.95, 0.15, 0.5, -0.65, 0.0]),
    "multi_margin_weight_margin": ("F.multi_margin_loss(x, torch.tensor([2, 3, 0]), margin=2.5, weight=torch.tensor([1., 2., 0.5, 3.]))", "MultiMarginLossBackward0", [], [1.716667], [0.0, 0.0, -0.041667, 0.041667, 0.25, 0.25, 0.25, -0.75, -0.25, 0.083333, 0.083333, 0.083333]),
    "multi_margin_p2_weight_none": ("F.multi_margin_loss(x, torch.tensor([0, 0, 3]), p=2, margin=0.7, weight=torch.tensor([0.5, 1., 2., 1.5]), reduction='none')", "MultiMarginLossBackward0", [3], [1.77625, 0.15625, 11.40375], [-1.225, 0.0, 0.875, 0.35, -0.325, 0.05, 0.0, 0.275, 2.025, 2.55, 2.55, -7.125]),
    "multi_margin_1d": ("F.multi_margin_loss(x[1], torch.tensor(3))", "MultiMarginLossBackward0", [], [0.175], [0.0, 0.0, 0.0, 0.0, 0.25, 0.25, 0.0, -0.5, 0.0, 0.0, 0.0, 0.0]),
    "multi_margin_1d_target1_none": ("F.multi_margin_loss(x[0], torch.tensor([1]), reduction='none')", "MultiMarginLossBackward0", [1], [2.9], [0.25, -0.75, 0.25, 0.25, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
    "multi_margin_tie": ("F.multi_margin_loss(x, torch.tensor([1, 1, 1]), margin=0.0)", "MultiMarginLossBackward0", [], [0.833333], [0.083333, -0.25, 0.083333, 0.083333, 0.083333, -0.166667, 0.0, 0.083333, 0.0, 0.0, 0.0, 0.0]),
    "multilabel_margin": ("F.multilabel_margin_loss(x, torch.tensor([[2, -1, 0, 1], [0, 3, 1, -1], [-1, 2, 1, 0]]))", "MultilabelMarginLossBackward0", [], [0.016667], [0.0, 0.0, 0.0, 0.0, 0.0, -0.083333, 0.083333, 0.0, 0.0, 0.0, 0.0, 0.0]),
    "multilabel_margin_none": ("F.multilabel_margin_loss(x, torch.tensor([[3, 2, -1, 0], [1, 1, -1, 2], [2, 0, 1, 3]]), reduction='none')", "MultilabelMarginLossBackward0", [3], [0.075, 1.8, 0.0], [0.25, 0.0, 0.0, -0.25, 0.5, -1.5, 0.5, 0.5, 0.0, 0.0, 0.0, 0.0]),
    "multilabel_margin_sum": ("F.multilabel_margin_loss(x, torch.tensor([[1, -1, -1, -1], [2, 0, -1, 3], [1, 2, -1, 0]]), reduction='sum')", "MultilabelMarginLossBackward0", [], [4.65], [0.25, -0.75, 0.25, 0.25, -0.5, 0.5, -0.5, 0.5, 0.5, -0.25, -0.25, 0.0]),
    "multilabel_margin_1d": ("F.multilabel_margin_loss(x[2], torch.tensor([1, 3, -1, 2]))", "MultilabelMarginLossBackward0", [], [2.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.5, -0.5, 0.5, -0.5]),
    "multilabel_margin_1d_none": ("F.multilabel_margin_loss(x[0], torch.tensor([0, -1, 2, 2]), reduction='none')", "MultilabelMarginLossBackward0", [], [1.375], [-0.5, 0.0, 0.25, 0.25, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
    "triplet_distance": ("F.triplet_margin_with_distance_loss(x, x.flip(0), x * 0.5)", "MeanBackward0", [], [2.619187], [0.02135, -0.268388, 0.211985, 0.4054, -0.091747, -0.045874, 0.027524, -0.128446, -0.030933, 0.287978, -0.408004, -0.299152]),
    "triplet_distance_swap_cos": ("F.triplet_margin_with_distance_loss(x, x.flip(0), x.roll(1, 0) * 0.5, distance_function=lambda a, b: 1 - F.cosine_similarity(a, b), swap=True, margin=0.5, reduction='none')", "ClampMinBackward0", [3], [1.596617, 0.0, 0.566549], [0.155555, -0.080998, -0.268282, 0.724708, 0.040762, -0.232823, 0.472024, 0.155183, -0.051529, 0.359307, -0.800098, -0.154277]),
    "triplet_distance_linf_sum": ("F.triplet_margin_with_distance_loss(x, x.flip(0) * 2, x.roll(1, 1), distance_function=lambda a, b: (a - b).abs().amax(1), margin=3.0, reduction='sum')", "SumBackward0", [], [11.700001], [0.0, 1.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -2.0, -1.0]),
}


def _close(got, want):
    return got.flatten().tolist() == pytest.approx(want, abs=2e-6)


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_values_nodes_and_gradients(name):
    src, node, shape, value, gx = RECORDED[name]
    x = torch.tensor(X, requires_grad=True)
    loss = eval(src)
    assert type(loss.grad_fn).__name__ == node
    assert list(loss.shape) == shape
    assert _close(loss.detach(), value)
    (got,) = torch.autograd.grad(loss.sum(), x)
    assert _close(got, gx)


def test_double_and_0d_inputs():
    x = torch.tensor(X, dtype=torch.float64, requires_grad=True)
    loss = F.multi_margin_loss(x, torch.tensor([2, 0, 1]))
    assert loss.dtype == torch.float64 and loss.item() == pytest.approx(0.266667, abs=1e-6)
    loss = F.multilabel_margin_loss(x, torch.tensor([[2, -1, 0, 1], [0, 3, 1, -1], [-1, 2, 1, 0]]))
    assert loss.dtype == torch.float64 and loss.item() == pytest.approx(0.016667, abs=1e-6)
    s = torch.tensor(1.0, requires_grad=True)
    for loss in (F.multi_margin_loss(s, torch.tensor(0)), F.multilabel_margin_loss(s, torch.tensor(0)),
                 F.multilabel_margin_loss(s, torch.tensor(-1))):
        assert loss.shape == () and loss.item() == 0.0
    assert F.multi_margin_loss(s, torch.tensor([0]), reduction="none").shape == (1,)


def test_all_entries_after_the_first_minus_one_are_ignored_but_range_checked():
    x = torch.tensor(X)
    a = F.multilabel_margin_loss(x, torch.tensor([[2, -1, 0, 1], [0, -1, 3, 3], [1, -1, -1, -1]]), reduction="none")
    b = F.multilabel_margin_loss(x, torch.tensor([[2, -1, 3, 3], [0, -1, 1, 2], [1, -1, 0, 0]]), reduction="none")
    assert a.tolist() == b.tolist()
    with pytest.raises(RuntimeError, match="^argument #2 'target' is out of range$"):
        F.multilabel_margin_loss(x, torch.tensor([[2, -1, 4, 1], [0, -1, 3, 3], [1, -1, -1, -1]]))


@pytest.mark.parametrize("f, error, message", [
    (lambda x: F.multi_margin_loss(x, torch.tensor([4, 0, 1])), RuntimeError, "target out of range"),
    (lambda x: F.multi_margin_loss(x, torch.tensor([-1, 0, 1])), RuntimeError, "target out of range"),
    (lambda x: F.multi_margin_loss(x, torch.tensor([0, 0, 1]), p=3), ValueError, "only p == 1 and p == 2 supported"),
    (lambda x: F.multi_margin_loss(x, torch.tensor([0, 0, 1]), weight=torch.ones(2, 4)), ValueError,
     "weight must be one-dimensional"),
    (lambda x: F.multi_margin_loss(x, torch.tensor([0, 0, 1]), weight=torch.ones(3)), RuntimeError,
     "inconsistent weight size, expected 4 but got [3]"),
    (lambda x: F.multi_margin_loss(x, torch.tensor([0, 0, 1]), weight=torch.ones(4, requires_grad=True)),
     RuntimeError, "The function 'multi_margin_loss' is not differentiable with respect to argument 'weight'. "
     "This input cannot have requires_grad True."),
    (lambda x: F.multi_margin_loss(x, torch.tensor([0, 1])), RuntimeError,
     "multi_margin_loss: target tensor should be 1-D with size equal to the number of input samples (batch size). "
     "Expected target size [3], but got [2]. Input has shape [3, 4]."),
    (lambda x: F.multi_margin_loss(x[0], torch.tensor([[1]])), RuntimeError,
     "multi_margin_loss: target tensor should be 1-D with size equal to the number of input samples (batch size). "
     "Expected target size [1], but got [1, 1]. Input has shape [4]."),
    (lambda x: F.multi_margin_loss(x, torch.tensor([0, 0, 1]), reduction="bad"), ValueError,
     "bad is not a valid value for reduction"),
    (lambda x: F.multi_margin_loss(x, torch.tensor([0., 0., 1.])), RuntimeError,
     "expected scalar type Long but found Float"),
    (lambda x: F.multi_margin_loss(x.detach().long(), torch.tensor([0, 0, 1])), NotImplementedError,
     "\"multi_margin_loss_cpu_kernel\" not implemented for 'Long'"),
    (lambda x: F.multi_margin_loss(x.unsqueeze(0), torch.tensor([0, 0, 1])), RuntimeError,
     "Expected non-empty vector or matrix with optional 0-dim batch size, but got: [1, 3, 4]"),
    (lambda x: F.multi_margin_loss(torch.ones(3, 0), torch.tensor([0, 0, 1])), RuntimeError,
     "Expected non-empty vector or matrix with optional 0-dim batch size, but got: [3, 0]"),
    (lambda x: F.multilabel_margin_loss(x, torch.tensor([[4, -1, 0, 0]] * 3)), RuntimeError,
     "argument #2 'target' is out of range"),
    (lambda x: F.multilabel_margin_loss(x, torch.tensor([[-2, -1, 0, 0]] * 3)), RuntimeError,
     "argument #2 'target' is out of range"),
    (lambda x: F.multilabel_margin_loss(x, torch.tensor([0, 1, 2])), RuntimeError,
     "inconsistent target size: [3] for input of size: [3, 4]"),
    (lambda x: F.multilabel_margin_loss(x[0], torch.tensor([1])), RuntimeError,
     "inconsistent target size: [1] for input of size: [4]"),
    (lambda x: F.multilabel_margin_loss(x, torch.tensor([[0., -1., 0., 0.]] * 3)), RuntimeError,
     "expected scalar type Long but found Float"),
    (lambda x: F.multilabel_margin_loss(x.detach().long(), torch.tensor([[0, -1, 0, 0]] * 3)), NotImplementedError,
     "\"multilabel_margin_loss_forward_out_frame\" not implemented for 'Long'"),
    (lambda x: F.multilabel_margin_loss(x, torch.tensor([[0, -1, 0, 0]] * 3), reduction="bad"), ValueError,
     "bad is not a valid value for reduction"),
    (lambda x: F.triplet_margin_with_distance_loss(x, x, x, margin=0), ValueError, "margin must be greater than 0, got 0"),
    (lambda x: F.triplet_margin_with_distance_loss(x, x, x, reduction="bad"), ValueError,
     "bad is not a valid value for reduction"),
    (lambda x: F.triplet_margin_with_distance_loss(x, x[0], x), RuntimeError,
     "The anchor, positive, and negative tensors are expected to have the same number of dimensions, but got: "
     "anchor 2D, positive 1D, and negative 2D inputs"),
])
def test_errors(f, error, message):
    x = torch.tensor(X, requires_grad=True)
    with pytest.raises(error) as e:
        f(x)
    assert str(e.value) == message


def test_legacy_arguments_warn_and_pick_the_reduction():
    x = torch.tensor(X)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        a = F.multi_margin_loss(x, torch.tensor([2, 0, 1]), size_average=False)
        b = F.multilabel_margin_loss(x, torch.tensor([[3, 2, -1, 0], [1, 1, -1, 2], [2, 0, 1, 3]]), reduce=False)
        m = torch.nn.MultiMarginLoss(size_average=True)
    assert [str(m.message) for m in w] == [
        f"size_average and reduce args will be deprecated, please use reduction='{r}' instead."
        for r in ("sum", "none", "mean")]
    # located inside the library (PyTorch's `_reduction.py` and `modules/loss.py`), not at the
    # caller: Python's default filter shows it once per process
    library = os.path.dirname(torch.__file__)
    assert all(m.filename.startswith(library) for m in w)
    assert a.item() == pytest.approx(0.8, abs=1e-6)
    assert b.tolist() == pytest.approx([0.075, 1.8, 0.0], abs=1e-6)
    assert m.reduction == "mean"


def test_modules():
    nn = torch.nn
    x = torch.tensor(X)
    m = nn.MultiMarginLoss(p=2, margin=0.7, weight=torch.tensor([0.5, 1.0, 2.0, 1.5]), reduction="none")
    assert repr(m) == "MultiMarginLoss()" and list(m.state_dict()) == ["weight"]
    assert m(x, torch.tensor([0, 0, 3])).tolist() == pytest.approx([1.77625, 0.15625, 11.40375], abs=1e-5)
    assert (m.p, m.margin, m.reduction) == (2, 0.7, "none")
    assert repr(nn.MultiLabelMarginLoss()) == "MultiLabelMarginLoss()"
    loss = nn.MultiLabelMarginLoss(reduction="sum")(x, torch.tensor([[1, -1, -1, -1], [2, 0, -1, 3], [1, 2, -1, 0]]))
    assert loss.item() == pytest.approx(4.65, abs=1e-5)
    t = nn.TripletMarginWithDistanceLoss(margin=2.0)
    assert repr(t) == "TripletMarginWithDistanceLoss(\n  (distance_function): PairwiseDistance()\n)"
    assert (t.margin, t.swap, t.reduction) == (2.0, False, "mean")
    assert t(torch.zeros(1, 2), torch.tensor([[0.0, 1.0]]), torch.tensor([[0.0, 1.5]])).item() == pytest.approx(1.5, abs=1e-5)
    c = nn.TripletMarginWithDistanceLoss(distance_function=lambda a, b: 1 - F.cosine_similarity(a, b), swap=True,
                                         margin=0.5, reduction="none")
    assert repr(c) == "TripletMarginWithDistanceLoss()"
    assert c(x, x.flip(0), x.roll(1, 0) * 0.5).tolist() == pytest.approx([1.596617, 0.0, 0.566549], abs=1e-6)
    with pytest.raises(ValueError, match="^only p == 1 and p == 2 supported$"):
        nn.MultiMarginLoss(p=3)
    with pytest.raises(ValueError, match="^MultiMarginLoss: expected weight to be None or 1D tensor, got 2D instead$"):
        nn.MultiMarginLoss(weight=torch.ones(2, 2))
    with pytest.raises(ValueError, match="^TripletMarginWithDistanceLoss: expected margin to be greater than 0, got 0 "
                                         "instead$"):
        nn.TripletMarginWithDistanceLoss(margin=0)
    with pytest.raises(TypeError):
        nn.TripletMarginWithDistanceLoss(None)


def _node_names(fn):
    """grad_fn names, depth first."""
    if fn is None:
        return []
    return [fn.name()] + [n for nxt, _ in fn.next_functions for n in _node_names(nxt)]


# nn.functional's distance losses call ATen's (torch.*) functions in PyTorch, so their graphs are
# ATen's composites: NormBackward1 over AddBackward1 (x1 - x2 + eps), the Scalar overloads for
# the margins, CloneBackward0 of the norms in cosine_similarity
ATEN_GRAPHS = {
    "F.pairwise_distance(a, b)": ["NormBackward1", "AddBackward1", "SubBackward0", "AccumulateGrad"],
    "F.cosine_similarity(a, b)": ["SumBackward1", "MulBackward0", "DivBackward0", "AccumulateGrad", "CloneBackward0",
                                  "LinalgVectorNormBackward0", "AccumulateGrad"],
    "F.triplet_margin_loss(a, b, b * 2)": ["MeanBackward0", "ClampMinBackward0", "SubBackward0", "AddBackward1",
                                           "NormBackward1", "AddBackward1", "SubBackward0", "AccumulateGrad",
                                           "NormBackward1", "AddBackward1", "SubBackward0", "AccumulateGrad"],
    "F.margin_ranking_loss(a[0], b[0], torch.tensor([1., -1., 1.]))": [
        "MeanBackward0", "ClampMinBackward0", "AddBackward1", "MulBackward0", "SubBackward0", "SelectBackward0",
        "AccumulateGrad"],
    "F.cosine_embedding_loss(a, b, torch.tensor([1, -1]), margin=0.1, reduction='sum')": [
        "SumBackward0", "AddBackward0", "WhereBackward0", "SubBackward0", "DivBackward0", "SumBackward1",
        "MulBackward0", "AccumulateGrad", "SqrtBackward0", "MulBackward0", "AddBackward1", "SumBackward1",
        "MulBackward0", "AccumulateGrad", "AccumulateGrad", "WhereBackward0", "ClampMinBackward0", "SubBackward1",
        "DivBackward0", "SumBackward1", "MulBackward0", "AccumulateGrad", "SqrtBackward0", "MulBackward0",
        "AddBackward1", "SumBackward1", "MulBackward0", "AccumulateGrad", "AccumulateGrad"],
}


@pytest.mark.parametrize("expr", list(ATEN_GRAPHS))
def test_functional_distance_losses_record_atens_graph(expr):
    a = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], requires_grad=True)
    b = torch.tensor([[1.0, 0.0, -1.0], [0.5, 0.5, 0.5]])
    names = [n.replace("torch::autograd::", "") for n in _node_names(eval(expr).grad_fn)]
    assert names == ATEN_GRAPHS[expr]
    added = [fn for fn in _walk(eval(expr).grad_fn) if fn.name() in ("AddBackward1", "SubBackward1")]
    assert all(not [x for x in dir(fn) if x.startswith("_saved")] for fn in added)


def _walk(fn):
    if fn is None:
        return []
    return [fn] + [m for nxt, _ in fn.next_functions for m in _walk(nxt)]
