"""`torch.nn.functional`'s rms_norm, local_response_norm and gumbel_softmax.

Each is a composite in PyTorch on the CPU (autograd sees its parts), and is composed here of the
same leafgrad ops in the same order, so values, rounding, random draws and `grad_fn` chains are
PyTorch's (up to the last bits of the float32 `log`/`sqrt`/`pow` parts, see differences.md).
"""
import warnings

from .. import _core
from .._core import Tensor
from .._factories import empty, zeros
from .._gather import _scalar_name
from ._functional_misc import _CPP_TYPE_NAMES
from .._warn import warn_once

__all__ = ["rms_norm", "local_response_norm", "gumbel_softmax"]

_REAL_FLOATS = ("torch.float16", "torch.bfloat16", "torch.float32", "torch.float64")


def _shape_arg(shape):
    """normalized_shape as PyTorch's argument parser takes it: a sequence of ints."""
    if isinstance(shape, Tensor) or not isinstance(shape, (list, tuple)):
        raise TypeError("rms_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, "
                        f"not {type(shape).__name__}")
    out = []
    for i, s in enumerate(shape):
        if isinstance(s, bool) or not hasattr(s, "__index__"):
            raise TypeError("rms_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, "
                            f"but found element of type {type(s).__name__} at pos {i}")
        out.append(int(s))
    return out


def _fmt(shape):
    return "[" + ", ".join(str(s) for s in shape) + "]"


def rms_norm(input, normalized_shape, weight=None, eps=None):
    """x / sqrt(mean(x², over the last len(normalized_shape) dims) + eps), then * weight.

    Computed in float32 for float16/bfloat16 inputs (the result in the input's dtype); `eps`
    defaults to the machine epsilon of that computation type.

    >>> torch.nn.functional.rms_norm(torch.tensor([[3., 4.], [1., 1.]]), [2])
    tensor([[0.8485, 1.1314],
            [1.0000, 1.0000]])
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"rms_norm(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    shape = _shape_arg(normalized_shape)
    if weight is not None and not isinstance(weight, Tensor):
        raise TypeError(f"rms_norm(): argument 'weight' (position 3) must be Tensor, not {type(weight).__name__}")
    if eps is not None and (isinstance(eps, bool) or not isinstance(eps, (int, float))):
        raise TypeError(f"rms_norm(): argument 'eps' (position 4) must be float, not {type(eps).__name__}")
    if not shape:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., containing at least "
                           "one element, but got normalized_shape = []")
    if weight is not None and list(weight.shape) != shape:
        raise RuntimeError("Expected weight to be of same shape as normalized_shape, but got weight of shape "
                           f"{_fmt(weight.shape)} and normalized_shape = {_fmt(shape)}")
    if input.dim() == 0:
        raise ValueError("Input tensor must have at least 1 dimensions, but got 0")
    if input.dim() < len(shape) or list(input.shape[input.dim() - len(shape):]) != shape:
        raise RuntimeError(f"Given normalized_shape={_fmt(shape)}, expected input with shape "
                           f"[*{', '.join(str(s) for s in shape)}], but got input of size{_fmt(input.shape)}")
    dt = str(input.dtype)
    if not (input.is_floating_point() or input.is_complex()):
        raise NotImplementedError(f'"rms_norm" not implemented for \'{_scalar_name(input.dtype)}\'')
    if weight is not None and dt in _REAL_FLOATS and weight.dtype != input.dtype:
        warn_once("rms_norm dtype mismatch",
                  f"Mismatch dtype between input and weight: input dtype = {_CPP_TYPE_NAMES[dt]}, weight dtype = "
                  f"{_CPP_TYPE_NAMES.get(str(weight.dtype), str(weight.dtype))}, Cannot dispatch to fused implementation. "
                  "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/layer_norm.cpp:350.)",
                  stacklevel=1)
    low = input.dtype in (_core.float16, _core.bfloat16)
    x = input.to(_core.float32) if low else input
    if eps is None:
        eps = 2.220446049250313e-16 if input.dtype in (_core.float64, _core.complex128) else 1.1920928955078125e-07
    dims = [input.dim() - 1 - i for i in range(len(shape))]
    # ATen's C++ `add_(eps)` is the Scalar overload: an AddBackward1 node (Python cannot call it)
    ms = _core._passthrough("AddBackward1", lambda t: t + eps, x.pow(2).mean(dims, keepdim=True))
    out = x.mul(ms.rsqrt())
    if weight is not None:
        out = out.mul(weight)
    return out.type_as(input)


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """Divides each element by (k + alpha · mean of the squares of `size` neighbouring channels)
    ** beta, the channels being dim 1: the window holds size // 2 channels before and
    (size - 1) // 2 after, zeros past the ends.

    >>> torch.nn.functional.local_response_norm(torch.ones(1, 3, 1), 2, alpha=1.0, k=1.0)
    tensor([[[0.7378],
             [0.5946],
             [0.5946]]])
    """
    from . import functional as F

    dim = input.dim()
    if dim < 3:
        # (PyTorch's message has the run of spaces)
        raise ValueError(f"Expected 3D or higher dimensionality                          input (got {dim} dimensions)")
    if input.numel() == 0:
        return input
    sq = input.mul(input)
    front, back = size // 2, (size - 1) // 2
    if dim == 3:
        sq = F.pad(sq.unsqueeze(1), (0, 0, front, back))
        sq = F.avg_pool2d(sq, (size, 1), stride=1).squeeze(1)
    else:
        sizes = input.size()
        sq = sq.view(sizes[0], 1, sizes[1], sizes[2], -1)
        sq = F.pad(sq, (0, 0, 0, 0, front, back))
        sq = F.avg_pool3d(sq, (size, 1, 1), stride=1).squeeze(1).view(sizes)
    return input / sq.mul(alpha).add(k).pow(beta)


def gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    """A sample of the Gumbel-softmax (concrete) distribution over `dim`: softmax((logits + g) /
    tau) with g ~ Gumbel(0, 1) drawn from the default generator as PyTorch draws it. `hard=True`
    gives the one-hot of the sample's argmax, with the soft sample's gradient (straight-through).

    >>> _ = torch.manual_seed(0)
    >>> torch.nn.functional.gumbel_softmax(torch.zeros(4), hard=True)
    tensor([0., 0., 1., 0.])
    """
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.", stacklevel=2)
    noise = -empty(list(logits.shape), dtype=logits.dtype, device=logits.device).exponential_().log()
    y_soft = ((logits + noise) / tau).softmax(dim)
    if not hard:
        return y_soft
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = zeros(list(logits.shape), dtype=logits.dtype, device=logits.device).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft
