"""`torch.promote_types`, `result_type` and `can_cast`: PyTorch's type-promotion queries, answered
by leafgrad's own promotion (the rules its arithmetic follows)."""
import builtins

from . import _core
from ._core import Tensor

__all__ = ["promote_types", "result_type", "can_cast"]

# uint16/uint32/uint64: PyTorch stores them but runs few kernels on them
SHELL_UNSIGNED = frozenset({"uint16", "uint32", "uint64"})


def shell_check(t, kernel):
    """PyTorch's NotImplementedError for a kernel it has no loop for on uint16/32/64."""
    if isinstance(t, Tensor) and t.dtype._name in SHELL_UNSIGNED:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{t.dtype._name.replace('uint', 'UInt')}'")

_CATEGORY = {"bool": 0, "uint8": 1, "int8": 1, "int16": 1, "int32": 1, "int64": 1, "uint16": 1, "uint32": 1,
             "uint64": 1, "float16": 2, "bfloat16": 2, "float32": 2, "float64": 2, "complex64": 3, "complex128": 3}


def promote_types(type1, type2):
    """The smallest dtype both `type1` and `type2` convert to without losing category or width.

    >>> torch.promote_types(torch.uint8, torch.int8), torch.promote_types(torch.int32, torch.float16)
    (torch.int16, torch.float16)
    """
    return _core._promote_types(type1, type2)


def _operand(x):
    """The (dtype, priority) of an operand: 2 a tensor with dims, 1 a 0-d tensor, 0 a number."""
    if isinstance(x, Tensor):
        return (x.dtype, 1 if x.dim() == 0 else 2)
    if isinstance(x, builtins.bool):
        return (_core.bool, 0)
    if isinstance(x, builtins.int):
        return (_core.int64, 0)
    if isinstance(x, builtins.float):
        return (_core.float64, 0)
    if isinstance(x, builtins.complex):
        return (_core.complex128, 0)
    raise TypeError(f"result_type(): argument 'tensor' must be Tensor or Number, not {type(x).__name__}")


def result_type(tensor1, tensor2):
    """The dtype an arithmetic op of the two operands (tensors or Python numbers) gives.

    >>> torch.result_type(torch.tensor([1], dtype=torch.int8), 1.0)
    torch.float32
    """
    return _core._result_type([_operand(tensor1), _operand(tensor2)])


def can_cast(from_, to):
    """Whether PyTorch's casting rules allow `from_` to `to` implicitly (no complex to real, no
    float to integer, nothing but bool to bool).

    >>> torch.can_cast(torch.float32, torch.int8), torch.can_cast(torch.int8, torch.float32)
    (False, True)
    """
    f, t = _CATEGORY[from_._name], _CATEGORY[to._name]
    if f == 3 and t != 3:
        return False
    if f == 2 and t < 2:
        return False
    return not (f != 0 and t == 0)
