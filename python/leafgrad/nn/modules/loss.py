"""Loss modules (after torch/nn/modules/loss.py): the legacy size_average/reduce arguments map to
`reduction` with PyTorch's warning; weighted losses keep `weight` as a buffer."""
import warnings

from .. import functional as F
from .module import Module

__all__ = ["L1Loss", "MSELoss", "CrossEntropyLoss", "NLLLoss", "BCELoss", "BCEWithLogitsLoss", "SmoothL1Loss",
           "HuberLoss", "SoftMarginLoss", "KLDivLoss", "MarginRankingLoss", "HingeEmbeddingLoss",
           "CosineEmbeddingLoss", "TripletMarginLoss", "PoissonNLLLoss", "GaussianNLLLoss",
           "MultiLabelSoftMarginLoss", "MultiMarginLoss", "MultiLabelMarginLoss", "TripletMarginWithDistanceLoss",
           "CosineSimilarity", "PairwiseDistance", "CTCLoss"]


def _legacy_get_string(size_average, reduce, emit_warning=True):
    warning = "size_average and reduce args will be deprecated, please use reduction='{}' instead."
    if size_average is None:
        size_average = True
    if reduce is None:
        reduce = True
    if size_average and reduce:
        ret = "mean"
    elif reduce:
        ret = "sum"
    else:
        ret = "none"
    if emit_warning:
        # located in `_Loss.__init__`, inside the library, as PyTorch's
        warnings.warn(warning.format(ret), stacklevel=2)
    return ret


class _Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction="mean"):
        super().__init__()
        if size_average is not None or reduce is not None:
            self.reduction = _legacy_get_string(size_average, reduce)
        else:
            self.reduction = reduction


class _WeightedLoss(_Loss):
    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)


class L1Loss(_Loss):
    """The mean (`reduction='mean'`), sum or elementwise absolute error |input - target|.

    >>> loss = torch.nn.L1Loss()
    >>> loss
    L1Loss()
    >>> loss(torch.tensor([1., 2.]), torch.tensor([0., 4.]))
    tensor(1.5000)
    """

    __constants__ = ["reduction"]

    def forward(self, input, target):
        return F.l1_loss(input, target, reduction=self.reduction)


class MSELoss(_Loss):
    """The mean (`reduction='mean'`), sum or elementwise squared error (input - target)**2.

    >>> x = torch.tensor([1., 2.], requires_grad=True)
    >>> loss = torch.nn.MSELoss()(x, torch.tensor([0., 4.]))
    >>> loss
    tensor(2.5000, grad_fn=<MseLossBackward0>)
    >>> loss.backward()
    >>> x.grad
    tensor([ 1., -2.])
    """

    __constants__ = ["reduction"]

    def forward(self, input, target):
        return F.mse_loss(input, target, reduction=self.reduction)


class NLLLoss(_WeightedLoss):
    """The negative log likelihood of class indices under log-probabilities (N, C).

    >>> loss = torch.nn.NLLLoss()
    >>> logp = torch.tensor([[-1., -2.], [-3., -4.]])
    >>> loss(logp, torch.tensor([1, 0]))
    tensor(2.5000)
    """

    __constants__ = ["ignore_index", "reduction"]

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input, target):
        return F.nll_loss(input, target, weight=self.weight, ignore_index=self.ignore_index,
                          reduction=self.reduction)


class CrossEntropyLoss(_WeightedLoss):
    """NLLLoss of log_softmax(logits); targets are class indices or class probabilities.

    >>> loss = torch.nn.CrossEntropyLoss()
    >>> logits = torch.zeros(2, 4)
    >>> loss(logits, torch.tensor([0, 3]))
    tensor(1.3863)
    >>> loss(logits, torch.full((2, 4), 0.25))
    tensor(1.3863)
    """

    __constants__ = ["ignore_index", "reduction", "label_smoothing"]

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                 label_smoothing=0.0):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input, target):
        return F.cross_entropy(input, target, weight=self.weight, ignore_index=self.ignore_index,
                               reduction=self.reduction, label_smoothing=self.label_smoothing)


class BCELoss(_WeightedLoss):
    """Binary cross entropy of probabilities `input` against `target` in [0, 1].

    >>> loss = torch.nn.BCELoss()
    >>> loss(torch.tensor([0.8, 0.4]), torch.tensor([1., 0.]))
    tensor(0.3670)
    """

    __constants__ = ["reduction"]

    def forward(self, input, target):
        return F.binary_cross_entropy(input, target, weight=self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    """BCELoss of sigmoid(input), computed stably from the logits; `pos_weight` scales the
    positive term.

    >>> loss = torch.nn.BCEWithLogitsLoss(pos_weight=torch.tensor([3.]))
    >>> loss(torch.zeros(2), torch.tensor([1., 0.]))
    tensor(1.3863)
    """

    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean", pos_weight=None):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input, target):
        return F.binary_cross_entropy_with_logits(input, target, self.weight, pos_weight=self.pos_weight,
                                                  reduction=self.reduction)


class SmoothL1Loss(_Loss):
    """0.5 * d**2 / beta where |d| < beta, |d| - 0.5 * beta elsewhere, reduced.

    >>> torch.nn.SmoothL1Loss(beta=0.5)(torch.tensor([0.2, 3.0]), torch.tensor([0.0, 1.0]))
    tensor(0.8950)
    """

    __constants__ = ["reduction"]

    def __init__(self, size_average=None, reduce=None, reduction="mean", beta=1.0):
        super().__init__(size_average, reduce, reduction)
        self.beta = beta

    def forward(self, input, target):
        return F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(_Loss):
    """0.5 * d**2 where |d| < delta, delta * (|d| - 0.5 * delta) elsewhere, reduced.

    >>> torch.nn.HuberLoss(delta=0.5)(torch.tensor([0.2, 3.0]), torch.tensor([0.0, 1.0]))
    tensor(0.4475)
    """

    __constants__ = ["reduction", "delta"]

    def __init__(self, reduction="mean", delta=1.0):
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input, target):
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class SoftMarginLoss(_Loss):
    """log(1 + exp(-target * input)), reduced.

    >>> torch.nn.SoftMarginLoss()
    SoftMarginLoss()
    """

    __constants__ = ["reduction"]

    def forward(self, input, target):
        return F.soft_margin_loss(input, target, reduction=self.reduction)


class KLDivLoss(_Loss):
    """The Kullback-Leibler divergence of log-probabilities from a target distribution.

    >>> loss = torch.nn.KLDivLoss(reduction='batchmean')
    >>> loss(torch.tensor([[0.25, 0.75]]).log(), torch.tensor([[0.5, 0.5]]))
    tensor(0.1438)
    """

    __constants__ = ["reduction"]

    def __init__(self, size_average=None, reduce=None, reduction="mean", log_target=False):
        super().__init__(size_average, reduce, reduction)
        self.log_target = log_target

    def forward(self, input, target):
        return F.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


class MarginRankingLoss(_Loss):
    """max(0, -target * (input1 - input2) + margin), reduced.

    >>> torch.nn.MarginRankingLoss(0.5)(torch.tensor([1.]), torch.tensor([2.]), torch.tensor([1.]))
    tensor(1.5000)
    """

    __constants__ = ["margin", "reduction"]

    def __init__(self, margin=0.0, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1, input2, target):
        return F.margin_ranking_loss(input1, input2, target, margin=self.margin, reduction=self.reduction)


class HingeEmbeddingLoss(_Loss):
    """input where target is 1, max(0, margin - input) where it is -1, reduced.

    >>> torch.nn.HingeEmbeddingLoss()(torch.tensor([0.3, 2.]), torch.tensor([1., -1.]))
    tensor(0.1500)
    """

    __constants__ = ["margin", "reduction"]

    def __init__(self, margin=1.0, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input, target):
        return F.hinge_embedding_loss(input, target, margin=self.margin, reduction=self.reduction)


class CosineEmbeddingLoss(_Loss):
    """1 - cos(x1, x2) where target is 1, max(0, cos - margin) where it is -1, reduced.

    >>> torch.nn.CosineEmbeddingLoss()
    CosineEmbeddingLoss()
    """

    __constants__ = ["margin", "reduction"]

    def __init__(self, margin=0.0, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1, input2, target):
        return F.cosine_embedding_loss(input1, input2, target, margin=self.margin, reduction=self.reduction)


class TripletMarginLoss(_Loss):
    """max(0, margin + d(anchor, positive) - d(anchor, negative)), reduced.

    >>> torch.nn.TripletMarginLoss()(torch.zeros(1, 2), torch.tensor([[0., 1.]]), torch.tensor([[0., 1.5]]))
    tensor(0.5000)
    """

    __constants__ = ["margin", "p", "eps", "swap", "reduction"]

    def __init__(self, margin=1.0, p=2.0, eps=1e-6, swap=False, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        if margin <= 0:
            raise ValueError(f"TripletMarginLoss: expected margin to be greater than 0, got {margin} instead")
        self.margin = margin
        self.p = p
        self.eps = eps
        self.swap = swap

    def forward(self, anchor, positive, negative):
        return F.triplet_margin_loss(anchor, positive, negative, margin=self.margin, p=self.p, eps=self.eps,
                                     swap=self.swap, reduction=self.reduction)


class PoissonNLLLoss(_Loss):
    """The Poisson negative log likelihood of the target, the rate given as its log (or not).

    >>> torch.nn.PoissonNLLLoss()(torch.tensor([0., 1.]), torch.tensor([1., 2.]))
    tensor(0.8591)
    """

    __constants__ = ["log_input", "full", "eps", "reduction"]

    def __init__(self, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.log_input = log_input
        self.full = full
        self.eps = eps

    def forward(self, log_input, target):
        return F.poisson_nll_loss(log_input, target, log_input=self.log_input, full=self.full, eps=self.eps,
                                  reduction=self.reduction)


class GaussianNLLLoss(_Loss):
    """The Gaussian negative log likelihood of the target given means and variances.

    >>> torch.nn.GaussianNLLLoss()(torch.tensor([0., 1.]), torch.tensor([1., 1.]), torch.ones(2))
    tensor(0.2500)
    """

    __constants__ = ["full", "eps", "reduction"]

    def __init__(self, *, full=False, eps=1e-6, reduction="mean"):
        super().__init__(None, None, reduction)
        self.full = full
        self.eps = eps

    def forward(self, input, target, var):
        return F.gaussian_nll_loss(input, target, var, full=self.full, eps=self.eps, reduction=self.reduction)


class MultiLabelSoftMarginLoss(_WeightedLoss):
    """The mean over classes of each label's logistic loss, reduced over the batch.

    >>> torch.nn.MultiLabelSoftMarginLoss()(torch.tensor([[1., -1.]]), torch.tensor([[1., 0.]]))
    tensor(0.3133)
    """

    __constants__ = ["reduction"]

    def forward(self, input, target):
        return F.multilabel_soft_margin_loss(input, target, weight=self.weight, reduction=self.reduction)


class MultiMarginLoss(_WeightedLoss):
    """The multi-class hinge loss of scores (N, C) against class indices (N,); p is 1 or 2.

    >>> loss = torch.nn.MultiMarginLoss(p=2, margin=0.5)
    >>> loss
    MultiMarginLoss()
    >>> loss(torch.tensor([[0.1, 0.2, 0.4, 0.8]]), torch.tensor([3]))
    tensor(0.0025)
    """

    __constants__ = ["p", "margin", "reduction"]

    def __init__(self, p=1, margin=1.0, weight=None, size_average=None, reduce=None, reduction="mean"):
        super().__init__(weight, size_average, reduce, reduction)
        if p != 1 and p != 2:
            raise ValueError("only p == 1 and p == 2 supported")
        if weight is not None and weight.dim() != 1:
            raise ValueError(f"MultiMarginLoss: expected weight to be None or 1D tensor, got {weight.dim()}D instead")
        self.p = p
        self.margin = margin

    def forward(self, input, target):
        return F.multi_margin_loss(input, target, p=self.p, margin=self.margin, weight=self.weight,
                                   reduction=self.reduction)


class MultiLabelMarginLoss(_Loss):
    """The multi-label hinge loss of scores (N, C) against rows of target class indices, each
    row's targets ending at its first -1.

    >>> loss = torch.nn.MultiLabelMarginLoss()
    >>> loss
    MultiLabelMarginLoss()
    >>> loss(torch.tensor([[0.1, 0.2, 0.4, 0.8]]), torch.tensor([[3, 0, -1, 1]]))
    tensor(0.8500)
    """

    __constants__ = ["reduction"]

    def forward(self, input, target):
        return F.multilabel_margin_loss(input, target, reduction=self.reduction)


class TripletMarginWithDistanceLoss(_Loss):
    """max(0, margin + d(anchor, positive) - d(anchor, negative)) for a distance function d
    (default: PairwiseDistance()), reduced.

    >>> loss = torch.nn.TripletMarginWithDistanceLoss(margin=2.0)
    >>> loss
    TripletMarginWithDistanceLoss(
      (distance_function): PairwiseDistance()
    )
    >>> loss(torch.zeros(1, 2), torch.tensor([[0., 1.]]), torch.tensor([[0., 1.5]]))
    tensor(1.5000)
    """

    __constants__ = ["margin", "swap", "reduction"]

    def __init__(self, *, distance_function=None, margin=1.0, swap=False, reduction="mean"):
        super().__init__(size_average=None, reduce=None, reduction=reduction)
        if margin <= 0:
            raise ValueError(
                f"TripletMarginWithDistanceLoss: expected margin to be greater than 0, got {margin} instead")
        self.distance_function = distance_function if distance_function is not None else PairwiseDistance()
        self.margin = margin
        self.swap = swap

    def forward(self, anchor, positive, negative):
        return F.triplet_margin_with_distance_loss(anchor, positive, negative, distance_function=self.distance_function,
                                                   margin=self.margin, swap=self.swap, reduction=self.reduction)


class CosineSimilarity(Module):
    """The cosine similarity of two tensors along `dim`.

    >>> torch.nn.CosineSimilarity()(torch.tensor([[1., 0.]]), torch.tensor([[1., 1.]]))
    tensor([0.7071])
    """

    __constants__ = ["dim", "eps"]

    def __init__(self, dim=1, eps=1e-8):
        super().__init__()
        self.dim = dim
        self.eps = eps

    def forward(self, x1, x2):
        return F.cosine_similarity(x1, x2, self.dim, self.eps)


class PairwiseDistance(Module):
    """The p-norm distance of x1 - x2 + eps along the last dim.

    >>> torch.nn.PairwiseDistance()(torch.tensor([[0., 0.]]), torch.tensor([[3., 4.]]))
    tensor([5.0000])
    """

    __constants__ = ["norm", "eps", "keepdim"]

    def __init__(self, p=2.0, eps=1e-6, keepdim=False):
        super().__init__()
        self.norm = p
        self.eps = eps
        self.keepdim = keepdim

    def forward(self, x1, x2):
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)


class CTCLoss(_Loss):
    """The connectionist temporal classification loss of log-probabilities (T, N, C) against
    unaligned targets (see torch.nn.functional.ctc_loss); forward(log_probs, targets,
    input_lengths, target_lengths).

    >>> loss = torch.nn.CTCLoss(blank=0, zero_infinity=True)
    >>> loss
    CTCLoss()
    >>> log_probs = torch.tensor([[[0.6, 0.4]], [[0.3, 0.7]]]).log()
    >>> loss(log_probs, torch.tensor([[1]]), torch.tensor([2]), torch.tensor([1]))
    tensor(0.1985)
    """

    __constants__ = ["blank", "reduction"]

    def __init__(self, blank=0, reduction="mean", zero_infinity=False):
        super().__init__(reduction=reduction)
        self.blank = blank
        self.zero_infinity = zero_infinity

    def forward(self, log_probs, targets, input_lengths, target_lengths):
        return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank, self.reduction,
                          self.zero_infinity)
