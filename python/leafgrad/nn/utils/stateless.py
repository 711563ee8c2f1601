"""`torch.nn.utils.stateless`: the pre-2.0 home of `functional_call`."""
import warnings

__all__ = ["functional_call"]


def functional_call(module, parameters_and_buffers, args=None, kwargs=None, *, tie_weights=True, strict=False):
    """`torch.func.functional_call`, with PyTorch's deprecation FutureWarning.

    >>> import warnings; m = torch.nn.Linear(1, 1)
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", FutureWarning)
    ...     torch.nn.utils.stateless.functional_call(m, {"weight": torch.ones(1, 1), "bias": torch.zeros(1)},
    ...                                              (torch.ones(1, 1),))
    tensor([[1.]])
    """
    warnings.warn("`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 and will be removed in "
                  "a future version of PyTorch. Please use `torch.func.functional_call` instead which is a drop-in "
                  "replacement.", FutureWarning, stacklevel=2)
    from ...func import functional_call as call

    return call(module, parameters_and_buffers, args, kwargs, tie_weights=tie_weights, strict=strict)
