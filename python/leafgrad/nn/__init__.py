"""`torch.nn`: Parameter, Module, containers, layers, losses, `functional`, `init` and `utils`."""
from . import attention, functional, init, utils
from .modules import *  # noqa: F401,F403
from .modules import __all__ as _modules_all
from .parameter import Parameter, UninitializedBuffer, UninitializedParameter

__all__ = ["Parameter", "UninitializedParameter", "UninitializedBuffer", "attention", "functional", "init", "utils",
           *_modules_all]
