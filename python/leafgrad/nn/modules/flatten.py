"""`torch.nn.modules.flatten`: Flatten and Unflatten, at the path PyTorch defines them in (their code lives
in the modules imported below)."""
from .layers import Flatten
from .activation import Unflatten

__all__ = ["Flatten", "Unflatten"]
