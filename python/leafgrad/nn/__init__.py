"""`torch.nn`: Parameter, Module, containers, layers, losses, `functional`, `init` and `utils`."""
from . import attention, common_types, functional, init, utils
from .modules import *  # noqa: F401,F403
from .modules import __all__ as _modules_all
from .parameter import Buffer, Parameter, UninitializedBuffer, UninitializedParameter

__all__ = ["Parameter", "Buffer", "UninitializedParameter", "UninitializedBuffer", "attention", "functional", "init", "utils",
           *_modules_all]
