"""`torch.nn.common_types`: the type aliases module code annotates sizes and ratios with
(`_size_2_t` is an int or a pair of ints, `_ratio_any_t` a float or a tuple of floats, ...).
Layers written outside PyTorch import them (`from torch.nn.common_types import _size_2_t`).

>>> from leafgrad.nn.common_types import _size_2_t
>>> _size_2_t
typing.Union[int, typing.Tuple[int, int]]
"""
from typing import Optional, Tuple, TypeVar, Union

from .._core import Tensor

T = TypeVar("T")

# a value, or a tuple of that many values (any length for `_any_`)
_scalar_or_tuple_any_t = Union[T, Tuple[T, ...]]
_scalar_or_tuple_1_t = Union[T, Tuple[T]]
_scalar_or_tuple_2_t = Union[T, Tuple[T, T]]
_scalar_or_tuple_3_t = Union[T, Tuple[T, T, T]]
_scalar_or_tuple_4_t = Union[T, Tuple[T, T, T, T]]
_scalar_or_tuple_5_t = Union[T, Tuple[T, T, T, T, T]]
_scalar_or_tuple_6_t = Union[T, Tuple[T, T, T, T, T, T]]

# sizes: kernel sizes, strides, paddings, dilations
_size_any_t = _scalar_or_tuple_any_t[int]
_size_1_t = _scalar_or_tuple_1_t[int]
_size_2_t = _scalar_or_tuple_2_t[int]
_size_3_t = _scalar_or_tuple_3_t[int]
_size_4_t = _scalar_or_tuple_4_t[int]
_size_5_t = _scalar_or_tuple_5_t[int]
_size_6_t = _scalar_or_tuple_6_t[int]

# sizes where None keeps the input's (adaptive pooling outputs)
_size_any_opt_t = _scalar_or_tuple_any_t[Optional[int]]
_size_2_opt_t = _scalar_or_tuple_2_t[Optional[int]]
_size_3_opt_t = _scalar_or_tuple_3_t[Optional[int]]

# scale factors
_ratio_2_t = _scalar_or_tuple_2_t[float]
_ratio_3_t = _scalar_or_tuple_3_t[float]
_ratio_any_t = _scalar_or_tuple_any_t[float]

_tensor_list_t = _scalar_or_tuple_any_t[Tensor]
_maybe_indices_t = _scalar_or_tuple_2_t[Tensor]
