"""`torch.nn.init`: in-place initialisers (run under no_grad, keep parameters leaves)."""
import math

from .. import _core
from .._grad_mode import no_grad


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    with no_grad():
        return tensor.copy_(_core._rand(tuple(tensor.shape), False, tensor.dtype) * (b - a) + a)


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    with no_grad():
        return tensor.copy_(_core._rand(tuple(tensor.shape), True, tensor.dtype) * std + mean)


def zeros_(tensor):
    with no_grad():
        return tensor.zero_()


def ones_(tensor):
    with no_grad():
        return tensor.fill_(1.0)


def constant_(tensor, val):
    with no_grad():
        return tensor.fill_(val)


def _fan_in_out(tensor):
    if tensor.dim() < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive = 1
    for s in tuple(tensor.shape)[2:]:
        receptive *= s
    return tensor.shape[1] * receptive, tensor.shape[0] * receptive


def kaiming_uniform_(tensor, a=0.0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    fan_in, fan_out = _fan_in_out(tensor)
    fan = fan_in if mode == "fan_in" else fan_out
    gain = math.sqrt(2.0 / (1 + a * a)) if nonlinearity == "leaky_relu" else math.sqrt(2.0)
    bound = math.sqrt(3.0) * gain / math.sqrt(fan) if fan else 0.0
    return uniform_(tensor, -bound, bound)


def xavier_uniform_(tensor, gain=1.0, generator=None):
    fan_in, fan_out = _fan_in_out(tensor)
    bound = gain * math.sqrt(6.0 / (fan_in + fan_out))
    return uniform_(tensor, -bound, bound)
