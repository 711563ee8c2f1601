"""Gradient clipping, as PyTorch computes it: the norm of the gradients' norms, and one scale
`max_norm / (total + 1e-6)` clamped to 1 applied to every gradient."""
import types
import warnings

from ..._grad_mode import no_grad

__all__ = ["clip_grad_norm_", "clip_grad_norm", "clip_grad_value_", "get_total_norm"]


def _as_list(tensors):
    from ... import Tensor

    return [tensors] if isinstance(tensors, Tensor) else list(tensors)


def get_total_norm(tensors, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """The `norm_type`-norm of all `tensors` seen as one vector (the norm of their norms).

    >>> torch.nn.utils.get_total_norm([torch.tensor([3., 0.]), torch.tensor([4.])])
    tensor(5.)
    """
    from ... import stack, tensor

    tensors = _as_list(tensors)
    norm_type = float(norm_type)
    if len(tensors) == 0:
        return tensor(0.0)
    first_device = tensors[0].device
    with no_grad():
        norms = [t.norm(norm_type).to(first_device) for t in tensors]
        total = stack(norms).norm(norm_type)
    if error_if_nonfinite and bool(total.isnan() | total.isinf()):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, so it "
            "cannot be clipped. To disable this error and scale the gradients by the non-finite norm "
            "anyway, set `error_if_nonfinite=False`")
    return total


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """Scale the gradients of `parameters` in place so that their total `norm_type`-norm is at
    most `max_norm`; returns the total norm before clipping.

    >>> p = torch.nn.Parameter(torch.zeros(2))
    >>> p.grad = torch.tensor([3., 4.])
    >>> torch.nn.utils.clip_grad_norm_([p], max_norm=1.0)
    tensor(5.)
    >>> p.grad
    tensor([0.6000, 0.8000])
    """
    from ... import Tensor

    if isinstance(parameters, Tensor):
        parameters = [parameters]
    else:
        is_generator = isinstance(parameters, types.GeneratorType)
        parameters = list(parameters)
        if is_generator and len(parameters) == 0:
            warnings.warn("`parameters` is an empty generator, no gradient clipping will occur.", stacklevel=2)
    grads = [p.grad for p in parameters if p.grad is not None]
    total_norm = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    if grads:
        with no_grad():
            coef = (float(max_norm) / (total_norm + 1e-6)).clamp(max=1.0)
            for g in grads:
                g.mul_(coef.to(g.device))
    return total_norm


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """Deprecated: `clip_grad_norm_` after a FutureWarning.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True):
    ...     torch.nn.utils.clip_grad_norm([], 1.0)
    tensor(0.)
    """
    warnings.warn("`torch.nn.utils.clip_grad_norm` is now deprecated in favor of `torch.nn.utils.clip_grad_norm_`.",
                  FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


def clip_grad_value_(parameters, clip_value, foreach=None):
    """Clamp the gradients of `parameters` in place to [-clip_value, clip_value].

    >>> p = torch.nn.Parameter(torch.zeros(3))
    >>> p.grad = torch.tensor([-2., 0.5, 3.])
    >>> torch.nn.utils.clip_grad_value_(p, 1.0)
    >>> p.grad
    tensor([-1.0000,  0.5000,  1.0000])
    """
    clip_value = float(clip_value)
    with no_grad():
        for p in _as_list(parameters):
            if p.grad is not None:
                p.grad.clamp_(min=-clip_value, max=clip_value)
