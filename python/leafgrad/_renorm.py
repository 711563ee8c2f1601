"""`torch.renorm(input, p, dim, maxnorm)` (`Tensor.renorm`, in-place `renorm_`, `out=`): each
slice of `input` along `dim` whose p-norm exceeds `maxnorm` scaled down to norm `maxnorm`.

PyTorch's kernel: the norms are `linalg.vector_norm` over the other dims (in float32 for float16
and bfloat16), the factor `maxnorm / (norm + 1e-7)` where the norm exceeds `maxnorm` (else 1) in
the norm's dtype, and the result `input * factor`. That composition runs inside
`_core._composite` as one RenormBackward0 node, so its gradient is PyTorch's formula
(`factor * g - factor / (norm + 1e-7) * norm_backward(sum(input * g))` where the norm exceeds
`maxnorm`, `g` elsewhere); the norm inside is differentiated with PyTorch's `norm_backward`
(written with leafgrad ops, so second derivatives are PyTorch's too, zeros of `input` included)."""
import builtins
import numbers

from . import _core
from ._core import Tensor
from ._op_helpers import _check_tensor, _custom, _inplace, _install, _torch, _wrap_dim

__all__ = ["renorm"]


def _number(fname, name, pos, value):
    if isinstance(value, Tensor) and value.dim() == 0:
        value = value.item()
    if isinstance(value, builtins.bool) or not isinstance(value, numbers.Number):
        raise TypeError(f"{fname}(): argument '{name}' (position {pos}) must be Number, not {type(value).__name__}")
    return value


def _norm_backward(grad, x, p, norm, dims):
    """PyTorch's `norm_backward` (keepdim): the gradient of the p-norm `norm` of `x` over `dims`
    for the incoming `grad` (of the norm's shape)."""
    if p == 1.0:
        return x.sgn() * grad
    if p == 2.0:
        return grad * (x / norm).masked_fill(norm == 0, 0)
    if p == float("inf"):
        mag = x.abs()
        mask = (mag == norm) | mag.isnan()
        return x.sgn() * ((grad / mask.sum(dims, keepdim=True)) * mask)
    if p < 1.0:
        scaled = x.sgn() * x.abs().pow(p - 1).masked_fill(x == 0, 0)
        return scaled * grad * norm.pow(1 - p)
    scaled = x.sgn() * x.abs().pow(p - 1) if p < 2.0 else x * x.abs().pow(p - 2)
    return scaled * (grad / norm.pow(p - 1)).masked_fill(norm == 0, 0)


def _vector_norm(x, p, dims, dtype):
    """`linalg.vector_norm(x, p, dims, keepdim=True, dtype=dtype)` with PyTorch's gradient."""
    torch = _torch()

    def exact(x):
        with torch.no_grad():
            return torch.linalg.vector_norm(x, p, dims, keepdim=True, dtype=dtype)

    def backward(g, x):
        return _norm_backward(g, x, p, _vector_norm(x, p, dims, dtype), dims)

    return _custom("LinalgVectorNormBackward0", exact, backward, [x])


def _renorm(fname, input, p, dim, maxnorm):
    torch = _torch()
    _check_tensor(fname, "input", 1, input)
    p = _number(fname, "p", 2, p)
    if isinstance(dim, builtins.bool) or not isinstance(dim, numbers.Integral):
        raise TypeError(f"{fname}(): argument 'dim' (position 3) must be int, not {type(dim).__name__}")
    maxnorm = _number(fname, "maxnorm", 4, maxnorm)
    if isinstance(p, builtins.complex):
        raise RuntimeError("renorm: p must be real-valued")
    if not p > 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if isinstance(maxnorm, builtins.complex):
        raise RuntimeError("renorm: maxnorm must be real-valued")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm:g}")
    if input.dim() <= 1:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {input.dim()} dimensions")
    dim = _wrap_dim(int(dim), input.dim())
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise NotImplementedError("linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
                                  f"{input.dtype._scalar_name}")
    others = tuple(d for d in builtins.range(input.dim()) if d != dim)
    half = input.dtype in (torch.float16, torch.bfloat16)
    p, maxnorm = float(p), float(maxnorm)

    def fn(x):
        norm = _vector_norm(x, p, others, torch.float32 if half else None)
        factor = torch.where(norm > maxnorm, maxnorm / (norm + 1e-7), torch.ones_like(norm))
        return x * (factor.to(x.dtype) if half else factor)

    return _core._composite("RenormBackward0", fn, [input])


def renorm(input, p, dim, maxnorm, *, out=None):
    """`input` with each slice along `dim` whose `p`-norm exceeds `maxnorm` scaled to norm
    `maxnorm` (by `maxnorm / (norm + 1e-7)`); other slices unchanged (RenormBackward0).

    >>> torch.renorm(torch.tensor([[3., 4.], [0.3, 0.4]]), 2, 0, 1.0)
    tensor([[0.6000, 0.8000],
            [0.3000, 0.4000]])
    """
    if out is None:
        return _renorm("renorm", input, p, dim, maxnorm)
    from . import _out

    return _out.write("renorm", _out.Spec("renorm"), lambda: _renorm("renorm", input, p, dim, maxnorm),
                      _out.tensors((input,)), out)


def _renorm_method(self, p, dim, maxnorm):
    """`torch.renorm(self, p, dim, maxnorm)`.

    >>> torch.tensor([[1., 1.], [3., 4.]]).renorm(1, 0, 2.0)
    tensor([[1.0000, 1.0000],
            [0.8571, 1.1429]])
    """
    return _renorm("renorm", self, p, dim, maxnorm)


def _renorm_(self, p, dim, maxnorm):
    """`torch.renorm(self, p, dim, maxnorm)` written into `self` (RenormBackward0).

    >>> x = torch.tensor([[3., 4.], [0.3, 0.4]])
    >>> x.renorm_(2, 0, 1.0)
    tensor([[0.6000, 0.8000],
            [0.3000, 0.4000]])
    """
    return _inplace(self, lambda s: _renorm("renorm_", s, p, dim, maxnorm))


_install({"renorm": _renorm_method, "renorm_": _renorm_})
