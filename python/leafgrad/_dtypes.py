"""`torch.promote_types`, `result_type` and `can_cast`: PyTorch's type-promotion queries, answered
by leafgrad's own promotion (the rules its arithmetic follows)."""
import builtins

from . import _core
from ._core import Tensor

__all__ = ["promote_types", "result_type", "can_cast"]

_CATEGORY = {"bool": 0, "uint8": 1, "int8": 1, "int16": 1, "int32": 1, "int64": 1, "float16": 2, "bfloat16": 2,
             "float32": 2, "float64": 2, "complex64": 3, "complex128": 3}


def promote_types(type1, type2):
    """The smallest dtype both `type1` and `type2` convert to without losing category or width.

    >>> torch.promote_types(torch.uint8, torch.int8), torch.promote_types(torch.int32, torch.float16)
    (torch.int16, torch.float16)
    """
    return (_core._full((1,), 0, type1) + _core._full((1,), 0, type2)).dtype


def _operand(x):
    if isinstance(x, Tensor):
        return _core._full(() if x.dim() == 0 else (1,), 0, x.dtype)
    if isinstance(x, (builtins.bool, builtins.int, builtins.float, builtins.complex)):
        return x
    raise TypeError(f"result_type(): argument 'tensor' must be Tensor or Number, not {type(x).__name__}")


def result_type(tensor1, tensor2):
    """The dtype an arithmetic op of the two operands (tensors or Python numbers) gives.

    >>> torch.result_type(torch.tensor([1], dtype=torch.int8), 1.0)
    torch.float32
    """
    a, b = _operand(tensor1), _operand(tensor2)
    if not isinstance(a, Tensor) and not isinstance(b, Tensor):
        kinds = [builtins.bool, builtins.int, builtins.float, builtins.complex]
        top = builtins.max(kinds.index(type(v)) for v in (a, b))
        default = _core._get_default_dtype()
        return [_core.bool, _core.int64, default, default.to_complex()][top]
    if not isinstance(a, Tensor):
        a, b = b, a
    return (a + b).dtype


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
