"""`torch.nn.functional`: activations, losses, linear/conv/pooling layers as functions."""
from .. import _composites, _core
from .._core import Tensor


def relu(input, inplace=False):
    return input.relu_() if inplace else input.relu()


def sigmoid(input):
    return input.sigmoid()


def tanh(input):
    return input.tanh()


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = 0 if input.dim() in (0, 1, 3) else 1
    return input.softmax(dim, dtype=dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = 0 if input.dim() in (0, 1, 3) else 1
    return input.log_softmax(dim, dtype=dtype)


def _reduction(size_average, reduce, reduction):
    if size_average is None and reduce is None:
        return reduction
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    if not reduce:
        return "none"
    return "mean" if size_average else "sum"


def _check_reduction(reduction):
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    return _core._mse_loss(input, target, _reduction(size_average, reduce, reduction))


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    return _core._l1_loss(input, target, _reduction(size_average, reduce, reduction))


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    return _core._nll_loss(input, target, weight, ignore_index, reduction)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):
    """Class-index targets: nll_loss(log_softmax). Probability targets (same shape as input):
    -(target * log_softmax).sum(1), reduced."""
    reduction = _reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    class_dim = 0 if input.dim() == 1 else 1
    logp = input.log_softmax(class_dim)
    if target.is_floating_point():
        if tuple(target.shape) != tuple(input.shape):
            raise RuntimeError(
                f"Expected target size {list(input.shape)}, got {list(target.shape)}"
            )
        if label_smoothing:
            n = input.shape[class_dim]
            target = target * (1 - label_smoothing) + label_smoothing / n
        t = logp * target
        if weight is not None:
            shape = [1] * input.dim()
            shape[class_dim] = -1
            t = t * weight.reshape(shape)
        if reduction == "none":
            return -(t.sum(class_dim))
        total = -(t.sum())
        if reduction == "sum":
            return total
        # The mean is over every position but the class dim (N, or N*H*W for images).
        n = input.numel() // input.shape[class_dim] if input.dim() > 1 else 1
        return _composites.div_scalar(total, n)
    if label_smoothing:
        n = input.shape[class_dim]
        nll = _core._nll_loss(logp, target, weight, ignore_index, reduction)
        smooth = -logp.mean(class_dim)
        if reduction == "mean":
            smooth = smooth.mean()
        elif reduction == "sum":
            smooth = smooth.sum()
        return nll * (1 - label_smoothing) + smooth * label_smoothing
    return _core._nll_loss(logp, target, weight, ignore_index, reduction)


def linear(input, weight, bias=None):
    return _core._linear(input, weight, bias)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    if isinstance(padding, str):
        if padding == "valid":
            padding = 0
        elif padding == "same":
            kh, kw = weight.shape[2], weight.shape[3]
            if (kh - 1) % 2 or (kw - 1) % 2:
                raise RuntimeError("padding='same' with an even kernel is not supported by leafgrad")
            padding = ((kh - 1) // 2 * _pair(dilation)[0], (kw - 1) // 2 * _pair(dilation)[1])
        else:
            raise ValueError(f"Invalid padding string '{padding}', should be one of {{'valid', 'same'}}")
    return _core._conv2d(input, weight, bias, stride, padding, dilation, groups)


def _pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    if return_indices:
        raise RuntimeError("max_pool2d(return_indices=True) is not supported by leafgrad")
    if stride is not None and not isinstance(stride, int) and len(stride) == 0:
        stride = None
    return _core._pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    if not count_include_pad or divisor_override is not None:
        raise RuntimeError("avg_pool2d supports only count_include_pad=True without divisor_override")
    if stride is not None and not isinstance(stride, int) and len(stride) == 0:
        stride = None
    return _core._pool2d(input, kernel_size, stride, padding, 1, ceil_mode, False)


def dropout(input, p=0.5, training=True, inplace=False):
    """Zero each element with probability p and scale the rest by 1/(1-p) (MulBackward0)."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return input
    if p == 1.0:
        return input * 0.0
    keep = (_core._rand(tuple(input.shape), False, input.dtype if input.is_floating_point() else _core.float32) >= p)
    mask = keep._to_dtype(input.dtype) * (1.0 / (1.0 - p))
    if inplace:
        return input.mul_(mask)
    return input * mask


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):
    if max_norm is not None or sparse or scale_grad_by_freq:
        raise RuntimeError("embedding: max_norm, scale_grad_by_freq and sparse are not supported by leafgrad")
    out = _core._embedding(weight, input)
    if padding_idx is not None and out.requires_grad:
        # No gradient reaches the padding row (PyTorch's padding_idx semantics).
        keep = (input != padding_idx).unsqueeze(-1)._to_dtype(out.dtype)
        out = out * keep + (out * (1 - keep)).detach()
    return out


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    return _core._layer_norm(input, list(normalized_shape), weight, bias, eps)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    return _composites.leaky_relu(input, negative_slope)


def softplus(input, beta=1.0, threshold=20.0):
    return _composites.softplus(input, beta, threshold)


def gelu(input, approximate="none"):
    return _composites.gelu(input, approximate)


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(
            f"Using a target size ({target.shape}) that is different to the input size ({input.shape}) is deprecated. "
            "Please ensure they have the same size."
        )
    return _composites.binary_cross_entropy(input, target, weight, reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    reduction = _reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"Target size ({target.shape}) must be the same as input size ({input.shape})")
    return _composites.binary_cross_entropy_with_logits(input, target, weight, reduction, pos_weight)


__all__ = [n for n in dir() if not n.startswith("_") and n not in ("Tensor",)]
