"""`torch.optim`: the Optimizer base, SGD, Adam and AdamW, and `lr_scheduler`. Steps run under no_grad and update
parameters in place, so they stay the same leaf objects (their `_version` goes up)."""
from . import adam, lr_scheduler, optimizer, sgd  # noqa: F401  (torch.optim.sgd etc.)
from .adam import Adam, AdamW
from .optimizer import Optimizer
from .sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "lr_scheduler"]
