"""`torch.nn`: Parameter, Module, containers, layers, losses, `functional` and `init`."""
from . import functional, init
from .modules import *  # noqa: F401,F403
from .modules import __all__ as _modules_all
from .parameter import Parameter

__all__ = ["Parameter", "functional", "init", *_modules_all]
