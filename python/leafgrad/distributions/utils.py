"""Helpers shared by the distributions (`torch.distributions.utils`): broadcasting parameters,
probabilities <-> logits, and `lazy_property`."""
from functools import update_wrapper

import leafgrad as torch

__all__ = [
    "broadcast_all",
    "logits_to_probs",
    "clamp_probs",
    "probs_to_logits",
    "lazy_property",
    "tril_matrix_to_vec",
    "vec_to_tril_matrix",
]

euler_constant = 0.57721566490153286060  # the Euler-Mascheroni constant

# what the distributions treat as a plain number (torch.types._Number)
_Number = (int, float, bool)


def _is_tensor(v):
    return isinstance(v, torch.Tensor)


def broadcast_all(*values):
    """Broadcasts tensors and numbers together. Numbers become tensors of the first tensor's
    dtype and device (the default dtype when there is no tensor).

    >>> a, b = broadcast_all(torch.zeros(2, 1), 1.5)
    >>> b.shape
    torch.Size([2, 1])
    """
    for v in values:
        if not (_is_tensor(v) or isinstance(v, _Number)):
            raise ValueError(
                "Input arguments must all be instances of Number, "
                "torch.Tensor or objects implementing __torch_function__."
            )
    if not all(_is_tensor(v) for v in values):
        like = next((v for v in values if _is_tensor(v)), None)
        if like is None:
            kwargs = {"dtype": torch.get_default_dtype()}
        else:
            kwargs = {"dtype": like.dtype, "device": like.device}
        values = [v if _is_tensor(v) else torch.tensor(v, **kwargs) for v in values]
    out = torch.broadcast_tensors(*values)
    # PyTorch's broadcast_tensors hands back a tensor that already has the broadcast shape
    # itself (so `Normal(mu, sigma).loc is mu`); leafgrad's gives an expanded view: keep those
    return tuple(v if v.shape == o.shape else o for v, o in zip(values, out))


def _standard_normal(shape, dtype, device):
    # the same draw as PyTorch's: an empty tensor filled in place by normal_()
    return torch.empty(shape, dtype=dtype, device=device).normal_()


def _sum_rightmost(value, dim):
    """Sums the `dim` rightmost dimensions of `value` away."""
    if dim == 0:
        return value
    return value.reshape(tuple(value.shape[: value.dim() - dim]) + (-1,)).sum(-1)


def logits_to_probs(logits, is_binary=False):
    """Probabilities from logits: the sigmoid of log-odds (binary) or the softmax over the last
    dimension."""
    if is_binary:
        return torch.sigmoid(logits)
    return torch.softmax(logits, dim=-1)


def clamp_probs(probs):
    """Clamps probabilities into [eps, 1 - eps], eps being the dtype's machine epsilon.

    >>> clamp_probs(torch.tensor([0.0, 0.5, 1.0]))
    tensor([1.1921e-07, 5.0000e-01, 1.0000e+00])
    """
    eps = torch.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs, is_binary=False):
    """Logits from probabilities (clamped away from 0 and 1 first): log-odds when binary,
    else the log of each probability."""
    p = clamp_probs(probs)
    if is_binary:
        return torch.log(p) - torch.log1p(-p)
    return torch.log(p)


class lazy_property:
    """A method computed on first access (with grad enabled), then stored on the instance
    under the same name."""

    def __init__(self, wrapped):
        self.wrapped = wrapped
        update_wrapper(self, wrapped)

    def __get__(self, instance, obj_type=None):
        if instance is None:
            return _lazy_property_and_property(self.wrapped)
        with torch.enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


class _lazy_property_and_property(lazy_property, property):
    """What the class attribute looks like: a lazy_property (for argument validation) and a
    property (for documentation tools)."""

    def __init__(self, wrapped):
        property.__init__(self, wrapped)


def _tril_mask(n, diag, device):
    idx = torch.arange(n, device=device)
    return idx < idx.view(-1, 1) + (diag + 1)


def tril_matrix_to_vec(mat, diag=0):
    """The lower-triangular entries of (a batch of) square matrices, row by row."""
    n = mat.shape[-1]
    if diag < -n or diag >= n:
        raise ValueError(f"diag ({diag}) provided is outside [{-n}, {n - 1}].")
    return mat[..., _tril_mask(n, diag, mat.device)]


def vec_to_tril_matrix(vec, diag=0):
    """The inverse of `tril_matrix_to_vec`: lower-triangular matrices from their entries."""
    m = vec.shape[-1]
    a = 1 + 2 * diag
    n = (-a + (a * a + 8 * m + 4 * abs(diag) * (diag + 1)) ** 0.5) / 2
    if round(n) - n > torch.finfo(vec.dtype).eps:
        raise ValueError(
            f"The size of last dimension is {m} which cannot be expressed as "
            + "the lower triangular part of a square D x D matrix."
        )
    n = round(n)
    mat = vec.new_zeros(tuple(vec.shape[:-1]) + (n, n))
    mat[..., _tril_mask(n, diag, vec.device)] = vec
    return mat
