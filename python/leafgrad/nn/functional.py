"""`torch.nn.functional`: the functions of the core issue (more arrive with the breadth issue)."""
from .. import _core


def relu(input, inplace=False):
    return input.relu_() if inplace else input.relu()


def sigmoid(input):
    return input.sigmoid()


def tanh(input):
    return input.tanh()


def _reduction(size_average, reduce, reduction):
    if size_average is None and reduce is None:
        return reduction
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    if not reduce:
        return "none"
    return "mean" if size_average else "sum"


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    return _core._mse_loss(input, target, _reduction(size_average, reduce, reduction))


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    return _core._l1_loss(input, target, _reduction(size_average, reduce, reduction))


def linear(input, weight, bias=None):
    return _core._linear(input, weight, bias)
