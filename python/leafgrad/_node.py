"""Python classes for backward nodes: one class per node name, so that
`type(y.grad_fn).__name__ == 'MulBackward0'` as in PyTorch.

They also give the non-tensor values PyTorch's nodes keep, as `grad_fn._saved_<name>` (listed by
`dir()`, as graph drawers such as torchviz's `show_saved` scan it): the op's arguments that the
op recorded with its node (`_saved_dim`, `_saved_keepdim`, `_saved_alpha`, ...), and the input
sizes PyTorch keeps for the nodes below (`_saved_self_sym_sizes`, `_saved_self_sym_numel`),
which are the node's input shapes. The saved tensors are the base class's."""
import math

from ._core import Node

_classes = {}

# The nodes whose PyTorch counterpart keeps the size of its input `self` (the node's first
# input), as recorded from torch 2.15's classes; MeanBackward0/1 also keep its numel.
_SELF_SIZES = frozenset("""
    DiagonalBackward0 ExpandBackward0 IndexBackward0 IndexSelectBackward0 KthvalueBackward0
    MaxBackward0 MeanBackward0 MeanBackward1 MedianBackward1 MinBackward0 MmBackward0
    ModeBackward0 NanmedianBackward1 RepeatBackward0 ReshapeAliasBackward0 SelectBackward0
    SliceBackward0 SortBackward0 SortBackward1 SplitBackward0 SplitWithSizesBackward0
    SqueezeBackward0 SqueezeBackward1 SqueezeBackward2 SqueezeBackward3 SqueezeBackward4
    SqueezeBackward5 SumBackward0 SumBackward1 TopkBackward0 TraceBackward0 UnsafeSplitBackward0
    UnsafeSplitWithSizesBackward0 UnsafeViewBackward0 UpsampleBicubic2DAaBackward0
    UpsampleBicubic2DBackward0 UpsampleBilinear2DAaBackward0 UpsampleBilinear2DBackward0
    UpsampleLanczos2DAaBackward0 UpsampleLinear1DBackward0 UpsampleTrilinear3DBackward0
    ViewBackward0
""".split())
_SELF_NUMEL = frozenset(("MeanBackward0", "MeanBackward1"))
# mm's second input (`mat2`) keeps its size too
_MAT2_SIZES = frozenset(("MmBackward0",))


def _derived(cls_name, shapes):
    """The size values PyTorch keeps for this node, from its input shapes."""
    out = {}
    if shapes and cls_name in _SELF_SIZES:
        out["self_sym_sizes"] = tuple(shapes[0])
    if shapes and cls_name in _SELF_NUMEL:
        out["self_sym_numel"] = math.prod(shapes[0])
    if len(shapes) > 1 and cls_name in _MAT2_SIZES:
        out["mat2_sym_sizes"] = tuple(shapes[1])
    return out


class _NodeValues(Node):
    """The non-tensor `_saved_<name>` values (see the module docs)."""

    def _lg_values(self):
        try:
            values = _derived(type(self).__name__, self._lg_input_shapes)
            values.update(self._lg_attrs)
        except RuntimeError:  # a custom Function's context without a node
            return {}
        return values

    def __getattr__(self, name):
        if name.startswith("_saved_"):
            values = self._lg_values()
            key = name[len("_saved_"):]
            if key in values:
                return values[key]
        # (the base's lookup with its own fallback: the saved tensors, else AttributeError)
        return Node.__getattribute__(self, name)

    def __dir__(self):
        names = set(Node.__dir__(self))
        names.update("_saved_" + k for k in self._lg_values())
        return sorted(names)


def _node_class(name):
    cls = _classes.get(name)
    if cls is None:
        cls = type(name, (_NodeValues,), {"__module__": "leafgrad.autograd.graph"})
        _classes[name] = cls
    return cls
