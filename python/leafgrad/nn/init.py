"""`torch.nn.init`: in-place initialisers (run under no_grad, keep parameters leaves), with
PyTorch's gains, fan computation and messages."""
import math
import warnings

from .._grad_mode import no_grad

__all__ = [
    "calculate_gain", "uniform_", "normal_", "trunc_normal_", "constant_", "ones_", "zeros_",
    "eye_", "dirac_", "xavier_uniform_", "xavier_normal_", "kaiming_uniform_", "kaiming_normal_",
    "sparse_", "orthogonal_",
]


def _no_grad_uniform_(tensor, a, b, generator=None):
    with no_grad():
        return tensor.uniform_(a, b, generator=generator)


def _no_grad_normal_(tensor, mean, std, generator=None):
    with no_grad():
        return tensor.normal_(mean, std, generator=generator)


def _no_grad_trunc_normal_(tensor, mean, std, a, b, generator=None):
    # PyTorch 2.15's sampler, draw for draw: rejection from normal_ when [a, b] holds more
    # than 30% of the mass, else from uniform_ on [a, b] accepted against the density.
    if tensor.is_meta:
        return tensor

    def norm_cdf(x):
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    if (mean < a - 2 * std) or (mean > b + 2 * std):
        warnings.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. "
                      "The distribution of values may be incorrect.", stacklevel=3)
    from .. import empty_like, where

    with no_grad():
        if norm_cdf((b - mean) / std) - norm_cdf((a - mean) / std) > 0.3:
            # the bounds as the tensor's dtype holds them, so the mask sees what is stored
            lo = tensor.new_tensor(a, device="cpu").item()
            hi = tensor.new_tensor(b, device="cpu").item()
            result = tensor.normal_(mean, std, generator=generator)
            while True:
                outside = (result < lo) | (result > hi)
                if not outside.any():
                    break
                redraw = empty_like(result).normal_(mean, std, generator=generator)
                result = where(outside, redraw, result)
            if result is not tensor:
                tensor.copy_(result)
            return tensor
        mode = max(a, min(mean, b))
        log_peak = -0.5 * ((mode - mean) / std) ** 2
        candidates = empty_like(tensor)
        accept = empty_like(tensor)

        def log_density(c):  # log of the density at c over its peak, in place
            return c.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)

        tensor.uniform_(a, b, generator=generator)
        log_density(candidates.copy_(tensor))
        pending = accept.uniform_(generator=generator).log_().gt(candidates)
        if pending.any():
            result = tensor
            while True:
                candidates.uniform_(a, b, generator=generator)
                result = where(pending, candidates, result)
                log_density(candidates)
                again = accept.uniform_(generator=generator).log_().gt(candidates)
                pending = where(pending, again, pending)
                if not pending.any():
                    break
            tensor.copy_(result)
        return tensor


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


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    """Fill `tensor` in place with N(mean, std**2) values truncated to [a, b] (values outside
    are redrawn), as PyTorch draws them for a seed.

    >>> g = torch.Generator().manual_seed(0)
    >>> torch.nn.init.trunc_normal_(torch.empty(2, 3), std=0.02, generator=g)
    tensor([[ 0.0308, -0.0059, -0.0436],
            [ 0.0114, -0.0217, -0.0280]])
    """
    return _no_grad_trunc_normal_(tensor, mean, std, a, b, generator=generator)


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


def dirac_(tensor, groups=1):
    """Fill a 3-, 4- or 5-D convolution weight in place with the Dirac delta: a convolution that
    passes as many input channels through unchanged as it can (per group of output channels).

    >>> torch.nn.init.dirac_(torch.empty(2, 2, 3))
    tensor([[[0., 1., 0.],
             [0., 0., 0.]],
    <BLANKLINE>
            [[0., 0., 0.],
             [0., 1., 0.]]])
    """
    dimensions = tensor.ndimension()
    if dimensions not in [3, 4, 5]:
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.size()
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    if tensor.is_meta:
        return tensor
    per_group = sizes[0] // groups
    centre = tuple(n // 2 for n in sizes[2:])
    with no_grad():
        tensor.zero_()
        for g in range(groups):
            for d in range(min(per_group, sizes[1])):
                tensor[(g * per_group + d, d) + centre] = 1
    return tensor


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


def sparse_(tensor, sparsity, std=0.01, generator=None):
    """Fill a 2-D `tensor` in place with N(0, std**2) values, then zero `ceil(sparsity * rows)`
    random rows of each column. As in PyTorch, `generator` draws the values; the rows to zero
    come from the default generator.

    >>> w = torch.nn.init.sparse_(torch.empty(4, 3), sparsity=0.5)
    >>> (w == 0).sum(0)
    tensor([2, 2, 2])
    """
    if tensor.ndimension() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    if tensor.is_meta:
        return tensor
    from .. import randperm

    rows, cols = tensor.shape
    num_zeros = math.ceil(sparsity * rows)
    with no_grad():
        tensor.normal_(0, std, generator=generator)
        for col in range(cols):
            tensor[randperm(rows)[:num_zeros], col] = 0
    return tensor


def orthogonal_(tensor, gain=1, generator=None):
    """Fill `tensor` (2-d, or more dims flattened after the first) in place with a (semi-)
    orthogonal matrix times `gain`: PyTorch's recipe — N(0, 1) draws from `generator` (PyTorch's
    numbers), the Q of their QR factorisation with the signs of R's diagonal — with the QR
    computed by faer in double precision (PyTorch's CPU build calls MKL's LAPACK in the
    tensor's precision), so the values agree with PyTorch's to float rounding, not bit for bit.

    >>> w = torch.nn.init.orthogonal_(torch.empty(3, 5))
    >>> torch.allclose(w @ w.t(), torch.eye(3), atol=1e-5)
    True
    """
    import numpy as np

    from .. import _linalg_faer, from_numpy

    if tensor.ndimension() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0 or tensor.is_meta:
        return tensor
    rows = tensor.size(0)
    cols = tensor.numel() // rows
    flattened = tensor.new_empty((rows, cols)).normal_(0, 1, generator=generator)
    if rows < cols:
        flattened = flattened.t()
    wide = flattened.dtype.is_floating_point and flattened.dtype.itemsize < 4  # halves: QR in float32
    a = (flattened.float() if wide else flattened).detach().cpu().contiguous().numpy()
    q, r = _linalg_faer.qr(a)
    q = q * np.sign(np.diag(r))
    if rows < cols:
        q = q.T
    with no_grad():
        tensor.view(rows, cols).copy_(from_numpy(np.ascontiguousarray(q)))
        tensor.mul_(gain)
    return tensor


def _deprecated(new):
    old = new.__name__[:-1]

    def init(*args, **kwargs):
        warnings.warn(f"`nn.init.{old}` is now deprecated in favor of `nn.init.{new.__name__}`.",
                      FutureWarning, stacklevel=2)
        return new(*args, **kwargs)

    init.__name__ = init.__qualname__ = old
    init.__doc__ = f"{old}(...): deprecated, calls :func:`torch.nn.init.{new.__name__}` after a FutureWarning."
    return init


uniform = _deprecated(uniform_)
normal = _deprecated(normal_)
constant = _deprecated(constant_)
eye = _deprecated(eye_)
dirac = _deprecated(dirac_)
xavier_uniform = _deprecated(xavier_uniform_)
xavier_normal = _deprecated(xavier_normal_)
kaiming_uniform = _deprecated(kaiming_uniform_)
kaiming_normal = _deprecated(kaiming_normal_)
orthogonal = _deprecated(orthogonal_)
sparse = _deprecated(sparse_)
