"""`torch.optim`: the Optimizer base, SGD, Adam, AdamW, RMSprop and Adagrad, and `lr_scheduler`. Steps run under no_grad and update
parameters in place, so they stay the same leaf objects (their `_version` goes up)."""
from . import adagrad, adam, lr_scheduler, optimizer, rmsprop, sgd  # noqa: F401  (torch.optim.sgd etc.)
from .adagrad import Adagrad
from .adam import Adam, AdamW
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "lr_scheduler"]
