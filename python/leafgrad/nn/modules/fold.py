"""`torch.nn.modules.fold`: Fold and Unfold, at the path PyTorch defines them in (their code lives
in the modules imported below)."""
from .misc import Fold, Unfold

__all__ = ["Fold", "Unfold"]
