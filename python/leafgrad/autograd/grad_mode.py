"""`torch.autograd.grad_mode`."""
from .._grad_mode import (  # noqa: F401
    _is_multithreading_enabled,
    enable_grad,
    inference_mode,
    no_grad,
    set_grad_enabled,
    set_multithreading_enabled,
)

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "inference_mode", "set_multithreading_enabled"]
