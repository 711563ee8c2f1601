"""`torch.autograd.graph`: the backward node type (`y.grad_fn` objects)."""
from .._core import Node

__all__ = ["Node"]
