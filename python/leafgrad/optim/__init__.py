"""`torch.optim`: the Optimizer base, SGD, Adam, AdamW, RMSprop, Adagrad, Adamax, Adadelta, NAdam,
RAdam, ASGD, Rprop and LBFGS, `lr_scheduler` and `swa_utils`. Steps run under no_grad and update
parameters in place, so they stay the same leaf objects (their `_version` goes up)."""
from . import (adadelta, adagrad, adam, adamax, asgd, lbfgs, lr_scheduler, nadam, optimizer,  # noqa: F401
               radam, rmsprop, rprop, sgd, swa_utils)  # (torch.optim.sgd etc.)
from .adadelta import Adadelta
from .adagrad import Adagrad
from .adam import Adam, AdamW
from .adamax import Adamax
from .asgd import ASGD
from .lbfgs import LBFGS
from .nadam import NAdam
from .optimizer import Optimizer
from .radam import RAdam
from .rmsprop import RMSprop
from .rprop import Rprop
from .sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adamax", "Adadelta", "NAdam", "RAdam",
           "ASGD", "Rprop", "LBFGS", "lr_scheduler", "swa_utils"]
