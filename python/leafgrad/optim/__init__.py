"""`torch.optim`: the Optimizer base, SGD, Adam, AdamW, RMSprop, Adagrad, Adamax and Adadelta, and
`lr_scheduler`. Steps run under no_grad and update
parameters in place, so they stay the same leaf objects (their `_version` goes up)."""
from . import adadelta, adagrad, adam, adamax, lr_scheduler, optimizer, rmsprop, sgd  # noqa: F401  (torch.optim.sgd etc.)
from .adadelta import Adadelta
from .adagrad import Adagrad
from .adam import Adam, AdamW
from .adamax import Adamax
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adamax", "Adadelta", "lr_scheduler"]
