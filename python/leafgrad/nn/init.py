"""`torch.nn.init`: in-place initialisers (run under no_grad, keep parameters leaves), with
PyTorch's gains, fan computation and messages."""
import math
import warnings

from .._grad_mode import no_grad

__all__ = [
    "calculate_gain", "uniform_", "normal_", "constant_", "ones_", "zeros_", "eye_",
    "xavier_uniform_", "xavier_normal_", "kaiming_uniform_", "kaiming_normal_",
]


def _no_grad_uniform_(tensor, a, b, generator=None):
    with no_grad():
        return tensor.uniform_(a, b, generator=generator)


def _no_grad_normal_(tensor, mean, std, generator=None):
    with no_grad():
        return tensor.normal_(mean, std, generator=generator)


def calculate_gain(nonlinearity, param=None):
    """The recommended gain for an initialiser followed by `nonlinearity` (`param`: the negative
    slope of leaky_relu, 0.01 by default).

    >>> torch.nn.init.calculate_gain('relu')
    1.4142135623730951
    >>> torch.nn.init.calculate_gain('tanh'), torch.nn.init.calculate_gain('conv2d')
    (1.6666666666666667, 1)
    """
    linear_fns = ["linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
                  "conv_transpose3d"]
    if nonlinearity in linear_fns or nonlinearity == "sigmoid":
        return 1
    elif nonlinearity == "tanh":
        return 5.0 / 3
    elif nonlinearity == "relu":
        return math.sqrt(2.0)
    elif nonlinearity == "leaky_relu":
        if param is None:
            negative_slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, int) or isinstance(param, float):
            negative_slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + negative_slope ** 2))
    elif nonlinearity == "selu":
        return 3.0 / 4
    else:
        raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    """Fill `tensor` in place with values drawn uniformly from [a, b), without recording a graph.

    >>> w = torch.empty(2, 3)
    >>> torch.nn.init.uniform_(w, -0.1, 0.1) is w
    True
    >>> bool(w.abs().max() <= 0.1)
    True
    """
    return _no_grad_uniform_(tensor, a, b, generator)


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    """Fill `tensor` in place with values drawn from N(mean, std**2), without recording a
    graph: a parameter stays a leaf.

    >>> p = torch.nn.Parameter(torch.empty(2, 3))
    >>> torch.nn.init.normal_(p, std=0.02).shape
    torch.Size([2, 3])
    >>> p.is_leaf, p.requires_grad, p.grad_fn
    (True, True, None)
    """
    return _no_grad_normal_(tensor, mean, std, generator)


def constant_(tensor, val):
    """Fill `tensor` in place with `val`.

    >>> torch.nn.init.constant_(torch.empty(2, 2), 0.5)
    tensor([[0.5000, 0.5000],
            [0.5000, 0.5000]])
    """
    with no_grad():
        return tensor.fill_(val)


def ones_(tensor):
    """Fill `tensor` in place with ones.

    >>> torch.nn.init.ones_(torch.empty(3))
    tensor([1., 1., 1.])
    """
    with no_grad():
        return tensor.fill_(1.0)


def zeros_(tensor):
    """Fill `tensor` in place with zeros.

    >>> torch.nn.init.zeros_(torch.empty(2, 2))
    tensor([[0., 0.],
            [0., 0.]])
    """
    with no_grad():
        return tensor.zero_()


def eye_(tensor):
    """Fill a 2-D `tensor` in place with the identity matrix (ones on the diagonal).

    >>> torch.nn.init.eye_(torch.empty(2, 3))
    tensor([[1., 0., 0.],
            [0., 1., 0.]])
    """
    if tensor.ndimension() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    from .. import eye

    with no_grad():
        n, m = tensor.shape
        return tensor.copy_(eye(n, m, dtype=tensor.dtype))


def _calculate_fan_in_and_fan_out(tensor):
    dimensions = tensor.dim()
    if dimensions < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    num_input_fmaps = tensor.size(1)
    num_output_fmaps = tensor.size(0)
    receptive_field_size = 1
    if tensor.dim() > 2:
        for s in tensor.shape[2:]:
            receptive_field_size *= s
    return num_input_fmaps * receptive_field_size, num_output_fmaps * receptive_field_size


def _calculate_correct_fan(tensor, mode):
    mode = mode.lower()
    valid_modes = ["fan_in", "fan_out"]
    if mode not in valid_modes:
        raise ValueError(f"Mode {mode} not supported, please use one of {valid_modes}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def xavier_uniform_(tensor, gain=1.0, generator=None):
    """Glorot initialisation: uniform on [-a, a] with a = gain * sqrt(6 / (fan_in + fan_out)).

    >>> w = torch.empty(3, 5)
    >>> torch.nn.init.xavier_uniform_(w).shape
    torch.Size([3, 5])
    >>> bool(w.abs().max() <= (6 / (5 + 3)) ** 0.5)
    True
    """
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return _no_grad_uniform_(tensor, -a, a, generator)


def xavier_normal_(tensor, gain=1.0, generator=None):
    """Glorot initialisation: N(0, std**2) with std = gain * sqrt(2 / (fan_in + fan_out)).

    >>> p = torch.nn.Parameter(torch.empty(3, 5))
    >>> torch.nn.init.xavier_normal_(p).shape
    torch.Size([3, 5])
    >>> p.is_leaf, p.grad_fn
    (True, None)
    """
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return _no_grad_normal_(tensor, 0.0, std, generator)


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """He initialisation: uniform on [-bound, bound] with bound = gain * sqrt(3 / fan), where
    fan is fan_in (in_features for a Linear weight) or fan_out per `mode`.

    >>> w = torch.empty(4, 6)
    >>> torch.nn.init.kaiming_uniform_(w, nonlinearity='relu').shape
    torch.Size([4, 6])
    >>> bool(w.abs().max() <= (6 / 6) ** 0.5)
    True
    """
    if 0 in tuple(tensor.shape):
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    std = gain / math.sqrt(fan)
    bound = math.sqrt(3.0) * std
    return _no_grad_uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """He initialisation: N(0, std**2) with std = gain / sqrt(fan), fan per `mode`.

    >>> p = torch.nn.Parameter(torch.empty(8, 4, 3, 3))
    >>> torch.nn.init.kaiming_normal_(p, mode='fan_out', nonlinearity='relu').shape
    torch.Size([8, 4, 3, 3])
    >>> p.is_leaf, p.requires_grad
    (True, True)
    """
    if 0 in tuple(tensor.shape):
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    std = gain / math.sqrt(fan)
    return _no_grad_normal_(tensor, 0, std, generator)
