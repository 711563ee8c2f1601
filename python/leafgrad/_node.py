"""Python classes for backward nodes: one class per node name, so that
`type(y.grad_fn).__name__ == 'MulBackward0'` as in PyTorch."""
from ._core import Node

_classes = {}


def _node_class(name):
    cls = _classes.get(name)
    if cls is None:
        cls = type(name, (Node,), {"__module__": "leafgrad.autograd.graph"})
        _classes[name] = cls
    return cls
