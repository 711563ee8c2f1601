"""Loss modules (after torch/nn/modules/loss.py): the legacy size_average/reduce arguments map to
`reduction` with PyTorch's warning; weighted losses keep `weight` as a buffer."""
import warnings

from .. import functional as F
from .module import Module

__all__ = ["L1Loss", "MSELoss", "CrossEntropyLoss", "NLLLoss", "BCELoss", "BCEWithLogitsLoss"]


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
        warnings.warn(warning.format(ret), stacklevel=3)
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
