"""PyTorch's aliases and in-place forms that leafgrad lacked: `multiply`, `subtract`, `divide`
(with `rounding_mode`; the floor of float16 and bfloat16 with PyTorch's `div_floor_floating`),
`negative`, `absolute`, `abs_`, `square_`, `deg2rad_`, `rad2deg_`, and the Tensor methods
`multiply_`, `divide_`, `sign_`, `cumsum_`, `tril_`, `logical_and_`, `greater_`, `remainder_`,
`fmod_`, ... In-place forms write through `_core._inplace_apply` (version counter, view and leaf
rules, and the node as the tensor's new grad_fn)."""
import builtins

from . import _core
from ._core import Tensor
from ._dtypes import shell_check as _shell_check
from ._op_helpers import (
    _torch, _scalar_name, _check_tensor, _invalid, _operand, _tensors, _inplace, _with_out, _result_dtype,
    _check_alpha, _copysign_values, _install,
)

__all__ = [
    "multiply", "subtract", "divide", "negative", "negative_", "absolute", "abs_", "square_", "deg2rad_",
    "rad2deg_",
]


def multiply(input, other, *, out=None):
    """An alias of `mul`: `input * other` (MulBackward0).

    >>> torch.multiply(torch.tensor([1., 2.]), torch.tensor([3., 4.]))
    tensor([3., 8.])
    """
    _check_tensor("multiply", "input", 1, input)
    _operand("multiply", other, input, other)
    return _torch().mul(input, other, out=out)


def _multiply_method(self, other):
    """An alias of `mul`: `self * other` (MulBackward0).

    >>> torch.tensor([1., 2.]).multiply(3)
    tensor([3., 6.])
    """
    _operand("multiply", other, other)
    return self.mul(other)


def _multiply_(self, other):
    """`mul_`: `self *= other` in place (MulBackward0).

    >>> x = torch.tensor([1., 2.])
    >>> x.multiply_(3)
    tensor([3., 6.])
    """
    _operand("multiply_", other, other)
    return self.mul_(other)


def subtract(input, other, *, alpha=1, out=None):
    """An alias of `sub`: `input - alpha * other` (SubBackward0).

    >>> torch.subtract(torch.tensor([5., 6.]), torch.tensor([1., 2.]), alpha=2)
    tensor([3., 2.])
    """
    _check_tensor("subtract", "input", 1, input)
    _operand("subtract", other, input, other)
    _check_alpha(input, other, alpha)
    if alpha == 1:
        return _torch().sub(input, other, out=out)
    return _torch().sub(input, other, alpha=alpha, out=out)


def _subtract_method(self, other, alpha=1):
    """An alias of `sub`: `self - alpha * other` (SubBackward0).

    >>> torch.tensor([5., 6.]).subtract(1, alpha=2)
    tensor([3., 4.])
    """
    _operand("subtract", other, other)
    _check_alpha(self, other, alpha)
    return self.sub(other) if alpha == 1 else self.sub(other, alpha=alpha)


def _subtract_(self, other, alpha=1):
    """`sub_`: `self -= alpha * other` in place (SubBackward0).

    >>> x = torch.tensor([5., 6.])
    >>> x.subtract_(torch.tensor([1., 2.]))
    tensor([4., 4.])
    """
    _operand("subtract_", other, other)
    _check_alpha(self, other, alpha)
    return self.sub_(other) if alpha == 1 else self.sub_(other, alpha=alpha)


_ROUNDING_MODES = (None, "trunc", "floor")


def _check_rounding(mode):
    if mode not in _ROUNDING_MODES:
        raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{mode}'")


def _check_rounded_div(a, b, mode):
    """PyTorch's refusal of bool and complex operands of a rounded division."""
    dt = _result_dtype(a, b)
    kernel = "div_floor_cpu" if mode == "floor" else "div_trunc_cpu"
    if dt is _core.bool or dt.is_complex:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_scalar_name(dt)}'")


def _floor_div_half(a, b):
    """PyTorch's `div_floor_floating` (c10/util/generic_math.h) for float16 and bfloat16, each
    step rounded to the dtype as PyTorch's kernel rounds it (the core divides these in float32):
    the quotient of `a - fmod(a, b)`, corrected to the floor; a zero quotient keeps the sign of
    `a / b`; division by zero is IEEE's."""
    torch = _torch()
    dt = _result_dtype(a, b)
    with torch.no_grad():
        a = (a if isinstance(a, Tensor) else torch.tensor(a)).to(dt)
        b = (b if isinstance(b, Tensor) else torch.tensor(b)).to(dt)
        basic = a / b
        mod = a.fmod(b)
        div = (a - mod) / b
        div = torch.where((mod != 0) & ((b < 0) != (mod < 0)), div - 1, div)
        fl = div.floor()
        fl = torch.where(div - fl > 0.5, fl + 1, fl)
        fl = torch.where(div == 0, _copysign_values(torch.zeros_like(basic), basic), fl)
        return torch.where(b == 0, basic, fl)


def _rounded_div(a, b, mode):
    """`div(a, b, rounding_mode=mode)`: the core's (PyTorch's rounding, DivBackward2 with zero
    gradients), but for the floor of the 16-bit floats."""
    if mode is None:
        return a.div(b)
    _check_rounded_div(a, b, mode)
    if mode == "floor" and _result_dtype(a, b) in (_core.float16, _core.bfloat16):
        r = _floor_div_half(a, b)
        ins = _tensors(a, b)
        if _core.is_grad_enabled() and builtins.any(t.requires_grad for t in ins):
            _core._zero_gradient(ins, r, "DivBackward2")
        return r
    return a.div(b, rounding_mode=mode)


def divide(input, other, *, rounding_mode=None, out=None):
    """An alias of `div`: `input / other`, rounded towards zero (`rounding_mode='trunc'`) or down
    (`'floor'`, PyTorch's floor division; integers then stay integers) (DivBackward0 without
    rounding; DivBackward2, whose gradient is zero, with it).

    >>> torch.divide(torch.tensor([7., -7.]), 2)
    tensor([ 3.5000, -3.5000])
    >>> torch.divide(torch.tensor([7, -7]), 2, rounding_mode='trunc')
    tensor([ 3, -3])
    >>> torch.divide(torch.tensor([7., -7.]), 2, rounding_mode='floor')
    tensor([ 3., -4.])
    """
    _check_tensor("divide", "input", 1, input)
    _operand("divide", other, input, other)
    _check_rounding(rounding_mode)
    if rounding_mode is None:
        return _torch().div(input, other, out=out)
    return _with_out("div", "div", lambda: _rounded_div(input, other, rounding_mode), (input, other), out)


def _divide_method(self, other, *args, rounding_mode=None):
    """An alias of `div`: `self / other`, rounded as `torch.divide` says.

    >>> torch.tensor([7, -7]).divide(2, rounding_mode='floor')
    tensor([ 3, -4])
    """
    if args:
        raise _invalid("divide", other, *args)
    _operand("divide", other, other)
    _check_rounding(rounding_mode)
    return _rounded_div(self, other, rounding_mode)


def _divide_(self, other, *args, rounding_mode=None):
    """`div_`: `self /= other` in place, rounded as `torch.divide` says.

    >>> x = torch.tensor([7., -7.])
    >>> x.divide_(2, rounding_mode='trunc')
    tensor([ 3., -3.])
    """
    if args:
        raise _invalid("divide_", other, *args)
    _operand("divide_", other, other)
    _check_rounding(rounding_mode)
    if rounding_mode is None:
        return self.div_(other)
    return _inplace(self, lambda s: _rounded_div(s, other, rounding_mode), other)


def _true_divide_(self, other):
    """`div_`: `self /= other` in place (true division; DivBackward0).

    >>> x = torch.tensor([1., 3.])
    >>> x.true_divide_(2)
    tensor([0.5000, 1.5000])
    """
    _operand("true_divide_", other, other)
    return self.div_(other)


def _floor_divide_(self, other):
    """`self //= other` in place: PyTorch's floor division (its node NotImplemented: no
    derivative).

    >>> x = torch.tensor([7., -7.])
    >>> x.floor_divide_(2)
    tensor([ 3., -4.])
    """
    _operand("floor_divide_", other, other)

    def f(s):
        with _torch().no_grad():
            r = _rounded_div(s, other, "floor")
        if _core.is_grad_enabled() and s.requires_grad:
            _core._no_derivative(s, r, "torch::autograd::NotImplemented", "floor_divide_")
        return r

    # a number binds to floor_divide_'s Tensor overload (a wrapped tensor), so it is a tensor
    # operand of the write: with it autograd's leaf check runs before the inference refusal
    operand = other if isinstance(other, Tensor) else _core._scalar_operand(other)
    return _inplace(self, f, operand)


def negative(input):
    """An alias of `neg`: `-input` (NegBackward0).

    >>> torch.negative(torch.tensor([1., -2.]))
    tensor([-1.,  2.])
    """
    _check_tensor("negative", "input", 1, input)
    return input.neg()


def _negative_method(self):
    """An alias of `neg`: `-self` (NegBackward0).

    >>> torch.tensor([1., -2.]).negative()
    tensor([-1.,  2.])
    """
    return self.neg()


def negative_(input):
    """An alias of `neg_`: `input` negated in place (NegBackward0).

    >>> x = torch.tensor([1., -2.])
    >>> torch.negative_(x)
    tensor([-1.,  2.])
    """
    _check_tensor("negative_", "input", 1, input)
    return input.neg_()


def absolute(input):
    """An alias of `abs` (AbsBackward0).

    >>> torch.absolute(torch.tensor([-1., 2.]))
    tensor([1., 2.])
    """
    _check_tensor("absolute", "input", 1, input)
    return input.abs()


def _absolute_method(self):
    """An alias of `abs` (AbsBackward0).

    >>> torch.tensor([-1., 2.]).absolute()
    tensor([1., 2.])
    """
    return self.abs()


def abs_(input):
    """`input` made its absolute value in place (AbsBackward0); bools are refused.

    >>> x = torch.tensor([-1., 2.])
    >>> torch.abs_(x)
    tensor([1., 2.])
    """
    _check_tensor("abs_", "input", 1, input)
    if input.dtype is _core.bool:
        raise NotImplementedError("\"abs_cpu\" not implemented for 'Bool'")
    return _inplace(input, lambda s: s.abs())


def _absolute_(self):
    """An alias of `abs_`: `self` made its absolute value in place (AbsBackward0).

    >>> x = torch.tensor([-1., 2.])
    >>> x.absolute_()
    tensor([1., 2.])
    """
    return abs_(self)


def _sign_(self):
    """`self` made its sign (-1, 0 or 1; 0 for NaN) in place (SignBackward0).

    >>> x = torch.tensor([-3., 0., 2.])
    >>> x.sign_()
    tensor([-1.,  0.,  1.])
    """
    return _inplace(self, lambda s: s.sign())


def _sgn_(self):
    """`self` made its sign in place: `x / |x|` (0 at 0) for complex, as `sign_` for reals
    (SgnBackward0).

    >>> x = torch.tensor([3 + 4j, 0j])
    >>> x.sgn_()
    tensor([0.6000+0.8000j, 0.0000+0.0000j])
    """
    return _inplace(self, lambda s: _core._composite("SgnBackward0", lambda t: t.sgn(), [s]))


def square_(input):
    """`input` squared in place (`pow_(2)`: PowBackward0).

    >>> x = torch.tensor([-3., 2.])
    >>> torch.square_(x)
    tensor([9., 4.])
    """
    _check_tensor("square_", "input", 1, input)
    return input.pow_(2)


def deg2rad_(input):
    """`input` converted from degrees to radians in place (Deg2RadBackward0); integer tensors
    cannot hold the result.

    >>> x = torch.tensor([180., 90.])
    >>> torch.deg2rad_(x)
    tensor([3.1416, 1.5708])
    """
    _check_tensor("deg2rad_", "input", 1, input)
    if input.is_complex():
        raise NotImplementedError("deg2rad is not supported for complex tensors.")
    return _inplace(input, lambda s: _core._composite("Deg2RadBackward0", lambda t: t.deg2rad(), [s], [0]))


def rad2deg_(input):
    """`input` converted from radians to degrees in place (Rad2DegBackward0); integer tensors
    cannot hold the result.

    >>> x = torch.tensor([3.141592653589793, -1.5707963267948966])
    >>> torch.rad2deg_(x)
    tensor([180., -90.])
    """
    _check_tensor("rad2deg_", "input", 1, input)
    if input.is_complex():
        raise NotImplementedError("rad2deg is not supported for complex tensors.")
    return _inplace(input, lambda s: _core._composite("Rad2DegBackward0", lambda t: t.rad2deg(), [s], [0]))


def _scan_(name, self, dim, dtype):
    if dtype is not None and dtype != self.dtype:
        from ._out import CPP

        raise RuntimeError(f"Bad in-place call: input tensor dtype {CPP[self.dtype._name]} and output tensor dtype "
                           f"{CPP[dtype._name]} should match")
    if self.dtype is _core.bool:
        raise NotImplementedError(f"\"{name}_out_cpu\" not implemented for 'Bool'")
    return _inplace(self, lambda s: getattr(s, name)(dim, dtype=self.dtype))


def _cumsum_(self, dim, *, dtype=None):
    """`self` made its running sum along `dim` in place (CumsumBackward0).

    >>> x = torch.tensor([1., 2., 3.])
    >>> x.cumsum_(0)
    tensor([1., 3., 6.])
    """
    return _scan_("cumsum", self, dim, dtype)


def _cumprod_(self, dim, *, dtype=None):
    """`self` made its running product along `dim` in place (CumprodBackward0).

    >>> x = torch.tensor([1., 2., 3.])
    >>> x.cumprod_(0)
    tensor([1., 2., 6.])
    """
    return _scan_("cumprod", self, dim, dtype)


def _tril_(self, diagonal=0):
    """`self`'s elements above the `diagonal`-th diagonal zeroed in place (TrilBackward0).

    >>> x = torch.ones(2, 3)
    >>> x.tril_()
    tensor([[1., 0., 0.],
            [1., 1., 0.]])
    """
    return _inplace(self, lambda s: s.tril(diagonal))


def _triu_(self, diagonal=0):
    """`self`'s elements below the `diagonal`-th diagonal zeroed in place (TriuBackward0).

    >>> x = torch.ones(2, 3)
    >>> x.triu_(1)
    tensor([[0., 1., 1.],
            [0., 0., 1.]])
    """
    return _inplace(self, lambda s: s.triu(diagonal))


def _logical(name, op, example):
    def f(self, other):
        _check_tensor(name, "other", 1, other)
        _shell_check(self, name[:-1] + "_cpu")
        return _inplace(self, lambda s: op(s, other), other)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"`torch.{name[:-1]}(self, other)` written into `self` (as 1 and 0 in its dtype); not "
                 f"differentiable, so the tensor's history is kept.\n\n{example}")
    return f


_logical_and_ = _logical("logical_and_", lambda a, b: _torch().logical_and(a, b), """>>> x = torch.tensor([1., 0., 2.])
>>> x.logical_and_(torch.tensor([1, 1, 0]))
tensor([1., 0., 0.])""")
_logical_or_ = _logical("logical_or_", lambda a, b: _torch().logical_or(a, b), """>>> x = torch.tensor([1., 0., 0.])
>>> x.logical_or_(torch.tensor([0, 1, 0]))
tensor([1., 1., 0.])""")
_logical_xor_ = _logical("logical_xor_", lambda a, b: _torch().logical_xor(a, b), """>>> x = torch.tensor([1., 0., 2.])
>>> x.logical_xor_(torch.tensor([1, 1, 0]))
tensor([0., 1., 1.])""")


def _logical_not_(self):
    """`self` made `logical_not(self)` in place (1 where it was 0, else 0, in its dtype); not
    differentiable, so the tensor's history is kept.

    >>> x = torch.tensor([1, 0, 2])
    >>> x.logical_not_()
    tensor([0, 1, 0])
    """
    _shell_check(self, "logical_not_cpu")
    return _inplace(self, lambda s: s.logical_not())


def _comparison_(alias, name, example):
    def f(self, other):
        _operand(alias, other, other)
        return getattr(self, name)(other)

    f.__name__ = f.__qualname__ = alias
    f.__doc__ = f"An alias of `{name}`: the comparison written into `self` (as 1 and 0).\n\n{example}"
    return f


_greater_ = _comparison_("greater_", "gt_", """>>> x = torch.tensor([1., 2., 3.])
>>> x.greater_(2)
tensor([0., 0., 1.])""")
_greater_equal_ = _comparison_("greater_equal_", "ge_", """>>> x = torch.tensor([1., 2., 3.])
>>> x.greater_equal_(2)
tensor([0., 1., 1.])""")
_less_ = _comparison_("less_", "lt_", """>>> x = torch.tensor([1., 2., 3.])
>>> x.less_(2)
tensor([1., 0., 0.])""")
_less_equal_ = _comparison_("less_equal_", "le_", """>>> x = torch.tensor([1., 2., 3.])
>>> x.less_equal_(2)
tensor([1., 1., 0.])""")
_not_equal_ = _comparison_("not_equal_", "ne_", """>>> x = torch.tensor([1., 2., 3.])
>>> x.not_equal_(2)
tensor([1., 0., 1.])""")


def _remainder_(self, other):
    """`self %= other` in place, with the sign of the divisor (RemainderBackward0 for a number,
    RemainderBackward1 for a tensor).

    >>> x = torch.tensor([-3., 3.])
    >>> x.remainder_(2)
    tensor([1., 1.])
    """
    _operand("remainder_", other, other)
    return _inplace(self, lambda s: s.remainder(other), other)


def _fmod_(self, other):
    """`self` made the remainder of `self / other` in place, with the sign of the dividend
    (FmodBackward0 for a number, FmodBackward1 for a tensor).

    >>> x = torch.tensor([-3., 3.])
    >>> x.fmod_(2)
    tensor([-1.,  1.])
    """
    _operand("fmod_", other, other)
    return _inplace(self, lambda s: s.fmod(other), other)


# Tensor methods: PyTorch's name -> the function here (those with `input` first serve as methods
# as they are).
_METHODS = {
    "multiply": _multiply_method, "multiply_": _multiply_, "subtract": _subtract_method, "subtract_": _subtract_,
    "divide": _divide_method, "divide_": _divide_, "true_divide_": _true_divide_, "floor_divide_": _floor_divide_,
    "negative": _negative_method, "negative_": negative_, "absolute": _absolute_method, "absolute_": _absolute_,
    "abs_": abs_, "sign_": _sign_, "sgn_": _sgn_, "square_": square_, "deg2rad_": deg2rad_, "rad2deg_": rad2deg_,
    "cumsum_": _cumsum_, "cumprod_": _cumprod_, "tril_": _tril_, "triu_": _triu_, "logical_and_": _logical_and_,
    "logical_or_": _logical_or_, "logical_xor_": _logical_xor_, "logical_not_": _logical_not_,
    "greater_": _greater_, "greater_equal_": _greater_equal_, "less_": _less_, "less_equal_": _less_equal_,
    "not_equal_": _not_equal_, "remainder_": _remainder_, "fmod_": _fmod_,
}

_install(_METHODS)
