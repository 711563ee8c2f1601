"""`torch.nn`: Parameter, Module and the layers of the core issue."""
from . import functional, init
from .modules import L1Loss, Linear, Module, MSELoss, ReLU, Sequential, Sigmoid, Tanh
from .parameter import Parameter

__all__ = ["Parameter", "Module", "Linear", "ReLU", "Sigmoid", "Tanh", "Sequential", "MSELoss", "L1Loss",
           "functional", "init"]
