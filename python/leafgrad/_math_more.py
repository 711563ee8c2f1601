"""PyTorch's aliases and in-place forms that leafgrad lacked (`multiply`, `subtract`, `divide`
with `rounding_mode`, `abs_`, `cumsum_`, `tril_`, `logical_and_`, `greater_`, ...), and more math:
`float_power`, `copysign`, `fmax`/`fmin`, `gcd`/`lcm`, `heaviside`, `logaddexp2`, `ldexp`, `frexp`,
`nextafter`, `i0`, `sinc`, `nansum`/`nanmean`, `dist`, `inner`, `vdot`, `ger`, `addmv`, `addr`,
`baddbmm`, `addbmm`, `diagflat`, `fliplr`/`flipud`, `cov`/`corrcoef`, the trapezoid rules,
`block_diag`, `combinations`, `unravel_index`, `range`, `scalar_tensor`, `rsub` and `polar`.

Where PyTorch composes an op of others (CompositeImplicitAutograd: `inner`, `ger`, `nanmean`,
`cov`, the trapezoid rules, `diagflat`, ...) it is composed of leafgrad's ops the same way, so the
graph is PyTorch's. Where PyTorch has its own kernel and derivative formula, one node with
PyTorch's name is recorded (`_core._composite`): its value is computed as PyTorch's kernel computes
it (`i0` with Cephes' expansions and the fused multiply-adds of PyTorch's build, `divide`'s floor
with `div_floor_floating`, `nextafter` and `frexp` bit by bit, ...), and its gradient is PyTorch's
formula: `_custom` writes that formula as a backward of leafgrad ops (so it can be differentiated
again), `_node` differentiates a composition whose derivative is that formula. In-place forms
write through `_core._inplace_apply` (version counter, view and leaf rules, and the node as the
tensor's new grad_fn)."""
import builtins
import math

from . import _core
from ._core import Tensor
from ._dtypes import shell_check as _shell_check

__all__ = [
    # aliases and in-place forms
    "multiply", "subtract", "divide", "negative", "negative_", "absolute", "abs_", "square_", "deg2rad_",
    "rad2deg_",
    # more math
    "float_power", "copysign", "fmax", "fmin", "gcd", "gcd_", "lcm", "lcm_", "heaviside", "logaddexp2",
    "ldexp", "ldexp_", "frexp", "nextafter", "i0", "i0_", "sinc", "sinc_", "nansum", "nanmean", "dist",
    "inner", "vdot", "ger", "addmv", "addmv_", "addr", "baddbmm", "addbmm", "diagflat", "fliplr", "flipud",
    "cov", "corrcoef", "trapezoid", "trapz", "cumulative_trapezoid", "block_diag", "combinations",
    "unravel_index", "range", "scalar_tensor", "rsub", "polar",
]

_NUMBER = (builtins.bool, builtins.int, builtins.float, builtins.complex)


def _torch():
    import leafgrad

    return leafgrad


def _scalar_name(dtype):
    return dtype._scalar_name


def _typename(v):
    return "Tensor" if isinstance(v, Tensor) else type(v).__name__


def _check_tensor(fn, name, pos, value):
    if not isinstance(value, Tensor):
        raise TypeError(f"{fn}(): argument '{name}' (position {pos}) must be Tensor, not {type(value).__name__}")


def _invalid(fn, *args, **kwargs):
    """PyTorch's argument-parser TypeError when no overload of `fn` takes these arguments (its
    first line; PyTorch goes on to list the signatures)."""
    got = [_typename(a) for a in args] + [f"{k}={_typename(v)}" for k, v in kwargs.items()]
    return TypeError(f"{fn}() received an invalid combination of arguments - got ({', '.join(got)}), but "
                     "expected one of:")


def _operand(fn, other, *args, **kwargs):
    """`other` of a Tensor-or-Scalar overload, or the argument parser's error."""
    if not isinstance(other, (Tensor, *_NUMBER)):
        raise _invalid(fn, *args, **kwargs)
    return other


def _tensors(*values):
    return [v for v in values if isinstance(v, Tensor)]


def _inplace(self, fn, *others):
    """`fn(self)` written into `self` in place (its node becomes self's grad_fn)."""
    return _core._inplace_apply(self, fn, _tensors(*others))


def _node(name, exact, formula, inputs):
    """One node `name` over `inputs`: its value `exact(*inputs)` (PyTorch's kernel), its
    gradient the derivative of `formula(*inputs)` (a composition of leafgrad ops whose
    derivative is PyTorch's formula; its value is never used)."""
    def f(*xs):
        if _core.is_grad_enabled():
            return formula(*xs)
        return exact(*xs)

    return _core._composite(name, f, list(inputs))


def _with_out(fname, grad, compute, inputs, out, rule=None):
    """`compute()`, or written into `out` (computed without a graph, after the checks)."""
    if out is None:
        return compute()
    from . import _out

    spec = _out.Spec(grad, rule or _out.CAST)
    return _out.write(fname, spec, compute, _out.tensors(inputs), out)


def _result_dtype(*operands):
    from ._dtypes import _operand as kind

    return _core._result_type([kind(o) for o in operands])


def _float_result_dtype(*operands):
    """The promoted dtype, integers and bools promoted to the default float dtype."""
    dt = _result_dtype(*operands)
    if dt.is_floating_point or dt.is_complex:
        return dt
    return _core._get_default_dtype()


# ------------------------------------------------------------------------------------------------
# Aliases and in-place forms


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


def _check_alpha(input, other, alpha):
    """PyTorch's refusal of a floating alpha for an integral result (leafgrad's sub takes it)."""
    dt = _result_dtype(input, other)
    if not (dt.is_floating_point or dt.is_complex) and dt is not _core.bool and isinstance(
            alpha, (builtins.float, builtins.complex)):
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")


_ROUNDING_MODES = (None, "trunc", "floor")


def _check_rounding(mode):
    if mode not in _ROUNDING_MODES:
        raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{mode}'")


def _copysign_values(a, b):
    """`copysign(a, b)` elementwise (a, b already of the result dtype, broadcastable): |a| with
    the sign bit of b (also for -0.0 and NaNs)."""
    torch = _torch()
    neg = torch.signbit(b)
    mag = a.abs()
    return torch.where(neg, -mag, mag)


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

    return _inplace(self, f, other)


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
    return _inplace(input, lambda s: _core._composite("Deg2RadBackward0", lambda t: t.deg2rad(), [s]))


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
    return _inplace(input, lambda s: _core._composite("Rad2DegBackward0", lambda t: t.rad2deg(), [s]))


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


# ------------------------------------------------------------------------------------------------
# Elementwise math


def _custom(name, exact, backward, inputs):
    """One node `name` over `inputs` (tensors): its value `exact(*inputs)` (computed as PyTorch's
    kernel computes it), its gradients `backward(grad, *inputs)` (PyTorch's formula, written
    with leafgrad ops so that it can be differentiated again)."""
    from .autograd import Function

    class _Fn(Function):
        @staticmethod
        def forward(ctx, *xs):
            ctx.save_for_backward(*xs)
            return exact(*xs)

        @staticmethod
        def backward(ctx, grad):
            return backward(grad, *ctx.saved_tensors)

    _Fn.__name__ = _Fn.__qualname__ = name
    return _core._composite(name, lambda *xs: _Fn.apply(*xs), list(inputs))


def _to_float_dtype(dtype):
    return dtype if (dtype.is_floating_point or dtype.is_complex) else _core._get_default_dtype()


def float_power(input, exponent, *, out=None):
    """`input ** exponent` computed in double precision (complex double when either is complex),
    whatever the dtypes (PowBackward0/1/2, as `pow`).

    >>> torch.float_power(torch.tensor([2, 3]), 2)
    tensor([4., 9.], dtype=torch.float64)
    >>> torch.float_power(torch.tensor([4.]), torch.tensor([0.5]))
    tensor([2.], dtype=torch.float64)
    """
    torch = _torch()
    if not isinstance(input, Tensor) and not isinstance(exponent, Tensor):
        raise _invalid("float_power", input, exponent)
    _operand("float_power", input, input, exponent)
    _operand("float_power", exponent, input, exponent)
    cplx = builtins.any(isinstance(v, builtins.complex) or (isinstance(v, Tensor) and v.is_complex())
                        for v in (input, exponent))
    dt = torch.complex128 if cplx else torch.float64

    def compute():
        if not isinstance(exponent, Tensor):
            e = builtins.complex(exponent) if cplx else float(exponent)
            return input.to(dt).pow(e)
        if not isinstance(input, Tensor):
            b = builtins.complex(input) if cplx else float(input)
            return exponent.to(dt).__rpow__(b)
        return input.to(dt).pow(exponent.to(dt))

    if out is None:
        return compute()
    from . import _out

    if isinstance(out, Tensor) and out.dtype != dt:
        raise RuntimeError(f"the output given to float_power has dtype {_scalar_name(out.dtype)} but the operation's "
                           f"result requires dtype {_scalar_name(dt)}")
    return _with_out("float_power", "pow", compute, (input, exponent), out, _out.any_dtype)


def _float_power_(self, exponent):
    """`float_power` written into `self`, which must already have the result's dtype (float64,
    or complex128 for complex operands) (PowBackward0/1).

    >>> x = torch.tensor([2., 3.], dtype=torch.float64)
    >>> x.float_power_(2)
    tensor([4., 9.], dtype=torch.float64)
    """
    _operand("float_power_", exponent, exponent)
    torch = _torch()
    cplx = self.is_complex() or isinstance(exponent, builtins.complex) or (
        isinstance(exponent, Tensor) and exponent.is_complex())
    dt = torch.complex128 if cplx else torch.float64
    if self.dtype != dt:
        raise RuntimeError(f"the base given to float_power_ has dtype {_scalar_name(self.dtype)} but the operation's "
                           f"result requires dtype {_scalar_name(dt)}")
    if isinstance(exponent, Tensor):
        return self.pow_(exponent.to(dt))
    return self.pow_(builtins.complex(exponent) if cplx else float(exponent))


def _copysign_checked(fname, input, other):
    if not isinstance(input, Tensor) or not isinstance(other, (Tensor, *_NUMBER)):
        raise _invalid(fname, input, other)
    dt = _float_result_dtype(input, other)
    if dt.is_complex:
        raise NotImplementedError(f"\"copysign_cpu\" not implemented for '{_scalar_name(dt)}'")
    return dt


def _copysign(input, other, dt):
    """copysign in `dt` (CopysignBackward0 for a tensor `other`, CopysignBackward1 for a
    number): the gradient `grad * result / input` (0 where input is 0), none to `other`."""
    if isinstance(other, Tensor):
        def exact(a, b):
            return _copysign_values(a.to(dt), b.to(dt))

        def backward(g, a, b):
            torch = _torch()
            r = exact(a.detach(), b.detach())
            ratio = (r / a.detach()).masked_fill(a.detach() == 0, 0)
            ga = _sum_to(g * ratio, a.shape)
            gb = torch.zeros_like(b) if b.dtype.is_floating_point or b.dtype.is_complex else None
            return ga, gb

        return _custom("CopysignBackward0", exact, backward, [input, other])
    o = _torch().tensor(other, dtype=dt, device=input.device)

    def exact1(a):
        return _copysign_values(a.to(dt), o)

    def backward1(g, a):
        r = exact1(a.detach())
        return g * (r / a.detach()).masked_fill(a.detach() == 0, 0)

    return _custom("CopysignBackward1", exact1, backward1, [input])


def _sum_to(g, shape):
    """`g` summed down to `shape` (the gradient of a broadcast input)."""
    shape = tuple(shape)
    if tuple(g.shape) == shape:
        return g
    lead = g.dim() - len(shape)
    if lead:
        g = g.sum(tuple(builtins.range(lead)))
    dims = tuple(i for i, n in enumerate(shape) if n == 1 and g.shape[i] != 1)
    if dims:
        g = g.sum(dims, keepdim=True)
    return g.reshape(shape)


def copysign(input, other, *, out=None):
    """`|input|` with the sign (bit) of `other`: also -0.0 and NaNs give theirs; integers compute
    in the default float dtype (CopysignBackward0, or CopysignBackward1 for a number `other`;
    no gradient reaches `other`).

    >>> torch.copysign(torch.tensor([1., -2., 3.]), torch.tensor([-0., 1., -1.]))
    tensor([-1.,  2., -3.])
    >>> torch.copysign(torch.tensor([1, 2]), -1)
    tensor([-1., -2.])
    """
    dt = _copysign_checked("copysign", input, other)
    return _with_out("copysign", "copysign", lambda: _copysign(input, other, dt), (input, other), out)


def _copysign_method(self, other):
    """`torch.copysign(self, other)`.

    >>> torch.tensor([1., 2.]).copysign(-1)
    tensor([-1., -2.])
    """
    dt = _copysign_checked("copysign", self, other)
    return _copysign(self, other, dt)


def _copysign_(self, other):
    """`torch.copysign(self, other)` written into `self`.

    >>> x = torch.tensor([1., -2.])
    >>> x.copysign_(torch.tensor([-1., 1.]))
    tensor([-1.,  2.])
    """
    dt = _copysign_checked("copysign_", self, other)
    return _inplace(self, lambda s: _copysign(s, other, dt), other)


def _fmax_fmin(fname, input, other, larger):
    _check_tensor(fname, "input", 1, input)
    _check_tensor(fname, "other", 2, other)
    if input.is_complex() or other.is_complex():
        raise TypeError(f"{fname} not implemented for complex tensors.")
    _shell_check(input, f"{fname}_cpu")
    torch = _torch()
    dt = _result_dtype(input, other)

    def exact(a, b):
        a, b = a.to(dt), b.to(dt)
        if dt.is_floating_point:
            keep = b.isnan() | ((a >= b) if larger else (a <= b))
        else:
            keep = (a >= b) if larger else (a <= b)
        return torch.where(keep, a, b)

    def formula(a, b):
        # PyTorch's gradient: all of it to the larger (smaller) one or to the one that is not
        # NaN (to `input` when both are), half to each at a tie
        ad, bd = a.detach(), b.detach()
        tie = ad == bd
        wins_a = ((ad > bd) if larger else (ad < bd)) | bd.isnan()
        wins_b = ((bd > ad) if larger else (bd < ad)) | (ad.isnan() & ~bd.isnan())
        half = torch.full_like(ad, 0.5) if tie.dim() == 0 else torch.full(tie.shape, 0.5, dtype=dt,
                                                                           device=ad.device)
        wa = torch.where(tie, half, wins_a.to(dt))
        wb = torch.where(tie, half, wins_b.to(dt))
        return a * wa + b * wb

    return _node("FmaxBackward0" if larger else "FminBackward0", exact, formula, [input, other])


def fmax(input, other, *, out=None):
    """The elementwise maximum, NaN ignored: NaN only where both are NaN (FmaxBackward0: the
    gradient to the larger one, halved at a tie).

    >>> torch.fmax(torch.tensor([1., float('nan'), 3.]), torch.tensor([2., 0., float('nan')]))
    tensor([2., 0., 3.])
    """
    return _with_out("fmax", "fmax", lambda: _fmax_fmin("fmax", input, other, True), (input, other), out)


def fmin(input, other, *, out=None):
    """The elementwise minimum, NaN ignored: NaN only where both are NaN (FminBackward0: the
    gradient to the smaller one, halved at a tie).

    >>> torch.fmin(torch.tensor([1., float('nan'), 3.]), torch.tensor([2., 0., float('nan')]))
    tensor([1., 0., 3.])
    """
    return _with_out("fmin", "fmin", lambda: _fmax_fmin("fmin", input, other, False), (input, other), out)


def _host_array(t):
    """`t`'s values as a numpy array of its dtype (no history)."""
    import numpy as np

    a = t.detach().cpu()
    if a.dtype._name in ("bfloat16",):
        return np.array(a.float().tolist(), dtype=np.float32).reshape(tuple(t.shape))
    return np.asarray(a.contiguous().numpy()).reshape(tuple(t.shape))


def _from_host(a, dtype, device):
    from ._factories import from_numpy
    import numpy as np

    r = from_numpy(np.ascontiguousarray(a))
    if r.dtype != dtype:
        r = r.to(dtype)
    return r.to(device) if device.type != "cpu" else r


def _c_trunc_div(a, b):
    """C's integer division (towards zero) of numpy integer arrays (b not 0)."""
    import numpy as np

    with np.errstate(all="ignore"):
        q = np.floor_divide(a, b)
        fix = (np.remainder(a, b) != 0) & ((a < 0) != (b < 0))
        return q + fix.astype(q.dtype)


def _gcd_values(a, b):
    """PyTorch's `calc_gcd` (Euclid on |a|, |b| with C's remainder) of numpy integer arrays of
    one dtype."""
    import numpy as np

    with np.errstate(all="ignore"):
        a = np.abs(a)
        b = np.abs(b)
        while (a != 0).any():
            nz = a != 0
            safe = np.where(nz, a, 1)
            rem = np.where(nz, np.fmod(b, safe), 0)
            b = np.where(nz, a, b)
            a = rem
    return b


def _gcd_lcm(fname, input, other, lcm):
    import numpy as np

    _check_tensor(fname, "input", 1, input)
    _check_tensor(fname, "other", 2, other)
    dt = _result_dtype(input, other)
    kernel = fname.rstrip("_") + "_cpu"
    if dt.is_floating_point or dt.is_complex or dt is _core.bool:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_scalar_name(dt)}'")
    _shell_check(input.to(dt) if input.dtype != dt else input, kernel)
    torch = _torch()
    x, y = torch.broadcast_tensors(input.detach().to(dt), other.detach().to(dt))
    a, b = _host_array(x), _host_array(y)
    g = _gcd_values(a, b)
    if lcm:
        with np.errstate(all="ignore"):
            zero = g == 0
            q = _c_trunc_div(a, np.where(zero, 1, g))
            g = np.where(zero, np.zeros_like(g), np.abs(q * b))
    return _from_host(g.astype(a.dtype), dt, input.device)


def gcd(input, other, *, out=None):
    """The greatest common divisor of the (integer) elements; gcd(0, 0) is 0.

    >>> torch.gcd(torch.tensor([4, -6, 0]), torch.tensor([6, 9, -5]))
    tensor([2, 3, 5])
    """
    return _with_out("gcd", None, lambda: _gcd_lcm("gcd", input, other, False), (input, other), out)


def lcm(input, other, *, out=None):
    """The least common multiple of the (integer) elements (0 where either is 0); it wraps
    around in the dtype as PyTorch's does.

    >>> torch.lcm(torch.tensor([4, -6, 0]), torch.tensor([6, 9, -5]))
    tensor([12, 18,  0])
    """
    return _with_out("lcm", None, lambda: _gcd_lcm("lcm", input, other, True), (input, other), out)


def gcd_(input, other):
    """`torch.gcd(input, other)` written into `input`.

    >>> x = torch.tensor([4, 6])
    >>> torch.gcd_(x, torch.tensor([6, 4]))
    tensor([2, 2])
    """
    _check_tensor("gcd_", "input", 1, input)
    return _inplace(input, lambda s: _gcd_lcm("gcd", s, other, False), other)


def lcm_(input, other):
    """`torch.lcm(input, other)` written into `input`.

    >>> x = torch.tensor([4, 6])
    >>> torch.lcm_(x, torch.tensor([6, 4]))
    tensor([12, 12])
    """
    _check_tensor("lcm_", "input", 1, input)
    return _inplace(input, lambda s: _gcd_lcm("lcm", s, other, True), other)


def _heaviside(fname, input, values):
    _check_tensor(fname, "input", 1, input)
    _check_tensor(fname, "values", 2, values)
    if input.is_complex() or values.is_complex():
        raise NotImplementedError("heaviside is not yet implemented for complex tensors.")
    if input.dtype != values.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
    torch = _torch()
    a, v = input.detach(), values.detach()
    r = torch.where(a == 0, v, (a > 0).to(a.dtype))
    needs = [t for t in (input, values) if t.requires_grad]
    if _core.is_grad_enabled() and needs:
        _core._no_derivative(needs[0], r, "torch::autograd::NotImplemented", "heaviside")
    return r


def heaviside(input, values, *, out=None):
    """The Heaviside step function: 0 for negative elements (and NaN), 1 for positive ones,
    `values` where `input` is 0; both of one dtype (no derivative: NotImplemented).

    >>> torch.heaviside(torch.tensor([-1.5, 0., 2.]), torch.tensor([0.5]))
    tensor([0.0000, 0.5000, 1.0000])
    """
    return _with_out("heaviside", "heaviside", lambda: _heaviside("heaviside", input, values), (input, values), out)


def _heaviside_method(self, values):
    """`torch.heaviside(self, values)`.

    >>> torch.tensor([-1, 0, 2]).heaviside(torch.tensor([7]))
    tensor([0, 7, 1])
    """
    return _heaviside("heaviside", self, values)


def _heaviside_(self, values):
    """`torch.heaviside(self, values)` written into `self`.

    >>> x = torch.tensor([-1., 0., 2.])
    >>> x.heaviside_(torch.tensor([0.5]))
    tensor([0.0000, 0.5000, 1.0000])
    """
    _check_tensor("heaviside_", "values", 1, values)
    return _inplace(self, lambda s: _heaviside("heaviside_", s, values), values)


_INV_LN2 = 1.0 / math.log(2.0)


def _logaddexp2(input, other):
    _check_tensor("logaddexp2", "input", 1, input)
    _check_tensor("logaddexp2", "other", 2, other)
    dt = _result_dtype(input, other)
    if not dt.is_floating_point:
        raise NotImplementedError(f"\"logaddexp2_cpu\" not implemented for '{_scalar_name(dt)}'")
    torch = _torch()

    def exact(a, b):
        # PyTorch's kernel: m + log1p(exp2(-|a - b|)) / ln 2, and a itself for equal infinities
        # (the 16-bit floats computed in float32)
        wide = dt in (torch.float16, torch.bfloat16)
        ca, cb = (a.to(torch.float32), b.to(torch.float32)) if wide else (a.to(dt), b.to(dt))
        m = torch.maximum(ca, cb)
        r = m + (ca - cb).abs().neg().exp2().log1p() * _INV_LN2
        r = torch.where(ca.isinf() & (ca == cb), ca, r)
        return r.to(dt)

    def backward(g, a, b):
        # PyTorch's formula: grad / (1 + 2^(other - self)) and grad / (1 + 2^(self - other))
        ga = _sum_to(g / ((b - a).exp2() + 1), a.shape) if a.requires_grad else None
        gb = _sum_to(g / ((a - b).exp2() + 1), b.shape) if b.requires_grad else None
        return ga, gb

    return _custom("Logaddexp2Backward0", exact, backward, [input, other])


def logaddexp2(input, other, *, out=None):
    """`log2(2**input + 2**other)`, computed stably (Logaddexp2Backward0).

    >>> torch.logaddexp2(torch.tensor([1., 3.]), torch.tensor([1., 2.]))
    tensor([2.0000, 3.5850])
    """
    return _with_out("logaddexp2", "logaddexp2", lambda: _logaddexp2(input, other), (input, other), out)


def _ldexp_values(a, e, dt):
    """`a * 2 ** e` in `dt` as PyTorch's kernel: an integer `e` scales exactly (rounded once),
    a floating one multiplies by `exp2(e)`."""
    import numpy as np

    torch = _torch()
    if e.dtype.is_floating_point or e.dtype.is_complex:
        return a.to(dt) * e.to(dt).exp2()
    x, k = torch.broadcast_tensors(a.detach().to(dt), e.detach().to(torch.int64))
    kk = np.clip(_host_array(k), -100000, 100000).astype(np.int32)
    if dt.is_complex:
        v = _host_array(x.to(torch.complex128))
        r = np.ldexp(v.real, kk) + 1j * np.ldexp(v.imag, kk)
    else:
        v = _host_array(x.to(torch.float64))
        with np.errstate(all="ignore"):
            r = np.ldexp(v, kk)
    return _from_host(np.asarray(r), dt, a.device)


def _ldexp(fname, input, other):
    _check_tensor(fname, "input", 1, input)
    _check_tensor(fname, "other", 2, other)
    dt = _float_result_dtype(input, other)

    def exact(a, e):
        return _ldexp_values(a, e, dt)

    def backward(g, a, e):
        # PyTorch's formula: grad * 2^other, and grad * result * log(2) for a floating exponent
        ga = _sum_to(g * e.to(dt).exp2(), a.shape) if a.requires_grad else None
        gb = None
        if e.requires_grad:
            gb = _sum_to(g * (a.to(dt) * e.to(dt).exp2()) * math.log(2.0), e.shape)
        return ga, gb

    return _custom("LdexpBackward0", exact, backward, [input, other])


def ldexp(input, other, *, out=None):
    """`input * 2 ** other`: an integer exponent scales exactly; integers compute in the
    default float dtype (LdexpBackward0).

    >>> torch.ldexp(torch.tensor([1., 3.]), torch.tensor([3, -1]))
    tensor([8.0000, 1.5000])
    """
    return _with_out("ldexp", "ldexp", lambda: _ldexp("ldexp", input, other), (input, other), out)


def _ldexp_method(self, other):
    """`torch.ldexp(self, other)`.

    >>> torch.tensor([1.]).ldexp(torch.tensor([4]))
    tensor([16.])
    """
    return _ldexp("ldexp", self, other)


def ldexp_(input, other):
    """`torch.ldexp(input, other)` written into `input` (which must be able to hold a float).

    >>> x = torch.tensor([1., 3.])
    >>> torch.ldexp_(x, torch.tensor([3, -1]))
    tensor([8.0000, 1.5000])
    """
    _check_tensor("ldexp_", "input", 1, input)
    _check_tensor("ldexp_", "other", 2, other)
    dt = _float_result_dtype(input, other)
    from ._dtypes import can_cast

    if not can_cast(dt, input.dtype):
        raise RuntimeError(f"ldexp can't be cast to the desired output type {_scalar_name(input.dtype)}")
    return _inplace(input, lambda s: _ldexp("ldexp_", s, other), other)


def _frexp_result():
    from ._math_extra import _named_result

    if not _FREXP:
        _FREXP.append(_named_result("frexp", ["mantissa", "exponent"]))
        _FREXP.append(_named_result("frexp_out", ["mantissa", "exponent"]))
    return _FREXP


_FREXP = []


def frexp(input, *, out=None):
    """`input` split into a mantissa in [0.5, 1) (by magnitude) and an int32 exponent, with
    `mantissa * 2 ** exponent == input` (0, inf and NaN keep exponent 0) (FrexpBackward0 on the
    mantissa).

    >>> torch.frexp(torch.tensor([8., -0.3, 0.]))
    torch.return_types.frexp(
    mantissa=tensor([ 0.5000, -0.6000,  0.0000]),
    exponent=tensor([ 4, -1,  0], dtype=torch.int32))
    """
    import numpy as np

    _check_tensor("frexp", "input", 1, input)
    if not input.is_floating_point():
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    torch = _torch()
    a = _host_array(input)
    m, e = np.frexp(a)
    e = np.where(np.isfinite(a), e, 0).astype(np.int32)
    exponent = _from_host(e, torch.int32, input.device)
    mant_values = _from_host(np.asarray(m), input.dtype, input.device)

    def backward(g, x):
        return g / exponent.to(g.dtype).exp2()

    mantissa = _custom("FrexpBackward0", lambda x: mant_values.clone(), backward, [input])
    result, result_out = _frexp_result()
    if out is None:
        return result(mantissa, exponent)
    from . import _out

    outs = _out.check_out("frexp", out, 2)
    if outs[0].dtype != input.dtype:
        raise RuntimeError(f"torch.frexp() expects mantissa to have dtype {_out.CPP[input.dtype._name]} but got "
                           f"{_out.CPP[outs[0].dtype._name]}")
    if outs[1].dtype != torch.int32:
        raise RuntimeError(f"torch.frexp() expects exponent to have int dtype but got {_out.CPP[outs[1].dtype._name]}")
    _out.refuse_grad("frexp", (input,), outs)
    for o, v in zip(outs, (mant_values, exponent)):
        if tuple(o.shape) != tuple(v.shape):
            if o.numel() > 0:
                _out.warn(_out.RESIZED.format(list(o.shape), list(v.shape)))
            o.resize_(v.shape)
        _out.copy_into(o, v)
    return result_out(*outs)


def _nextafter(fname, input, other):
    import numpy as np

    _check_tensor(fname, "input", 1, input)
    _check_tensor(fname, "other", 2, other)
    dt = _result_dtype(input, other)
    if not dt.is_floating_point:
        raise NotImplementedError(f"\"nextafter_cpu\" not implemented for '{_scalar_name(dt)}'")
    torch = _torch()

    def exact(a, b):
        x, y = torch.broadcast_tensors(a.detach().to(dt), b.detach().to(dt))
        if dt in (torch.float16, torch.float32, torch.float64):
            with np.errstate(all="ignore"):
                return _from_host(np.nextafter(_host_array(x), _host_array(y)), dt, a.device)
        # bfloat16: c10's nextafter, one step of its 16 bits
        xv, yv = _host_array(x).astype(np.float32), _host_array(y).astype(np.float32)
        xb = (xv.view(np.uint32) >> 16).astype(np.uint16)
        yb = (yv.view(np.uint32) >> 16).astype(np.uint16)
        sign = np.uint16(0x8000)
        absx, absy = xb & np.uint16(0x7FFF), yb & np.uint16(0x7FFF)
        down = (absx > absy) | ((xb ^ yb) & sign != 0)
        with np.errstate(all="ignore"):
            r = np.where(down, xb - np.uint16(1), xb + np.uint16(1)).astype(np.uint16)
        r = np.where(absx == 0, np.where(absy == 0, yb, (yb & sign) | np.uint16(1)), r).astype(np.uint16)
        r = np.where(xb == yb, xb, r).astype(np.uint16)
        out = (r.astype(np.uint32) << 16).view(np.float32)
        out = np.where(np.isnan(xv) | np.isnan(yv), np.float32(np.nan), out)
        return _from_host(out.astype(np.float32), dt, a.device)

    def backward(g, a, b):
        # PyTorch's formula: the whole gradient to `input`, zeros to `other`
        return _sum_to(g, a.shape), _sum_to(torch.zeros_like(g), b.shape)

    return _custom("NextafterBackward0", exact, backward, [input, other])


def nextafter(input, other, *, out=None):
    """The next floating-point value after `input` towards `other` (`other` where they are
    equal; NaN where either is NaN) (NextafterBackward0).

    >>> torch.nextafter(torch.tensor([1., 0.], dtype=torch.float64), torch.tensor([2., -1.], dtype=torch.float64))
    tensor([  1.0000e+00, -4.9407e-324], dtype=torch.float64)
    """
    return _with_out("nextafter", "nextafter", lambda: _nextafter("nextafter", input, other), (input, other), out)


def _nextafter_method(self, other):
    """`torch.nextafter(self, other)`.

    >>> torch.tensor([1.], dtype=torch.float64).nextafter(torch.tensor([0.], dtype=torch.float64)).item()
    0.9999999999999999
    """
    return _nextafter("nextafter", self, other)


def _nextafter_(self, other):
    """`torch.nextafter(self, other)` written into `self`.

    >>> x = torch.tensor([1.], dtype=torch.float64)
    >>> x.nextafter_(torch.tensor([2.], dtype=torch.float64)).item()
    1.0000000000000002
    """
    return _inplace(self, lambda s: _nextafter("nextafter_", s, other), other)


# The Cephes Chebyshev expansions PyTorch's i0 and special.i1 evaluate (aten/src/ATen/native/Math.h)
_I0E_A = [
    -4.41534164647933937950E-18, 3.33079451882223809783E-17, -2.43127984654795469359E-16,
    1.71539128555513303061E-15, -1.16853328779934516808E-14, 7.67618549860493561688E-14,
    -4.85644678311192946090E-13, 2.95505266312963983461E-12, -1.72682629144155570723E-11,
    9.67580903537323691224E-11, -5.18979560163526290666E-10, 2.65982372468238665035E-9,
    -1.30002500998624804212E-8, 6.04699502254191894932E-8, -2.67079385394061173391E-7,
    1.11738753912010371815E-6, -4.41673835845875056359E-6, 1.64484480707288970893E-5,
    -5.75419501008210370398E-5, 1.88502885095841655729E-4, -5.76375574538582365885E-4,
    1.63947561694133579842E-3, -4.32430999505057594430E-3, 1.05464603945949983183E-2,
    -2.37374148058994688156E-2, 4.93052842396707084878E-2, -9.49010970480476444210E-2,
    1.71620901522208775349E-1, -3.04682672343198398683E-1, 6.76795274409476084995E-1]
_I0E_B = [
    -7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,
    3.46122286769746109310E-17, -2.82762398051658348494E-16, -3.42548561967721913462E-16,
    1.77256013305652638360E-15, 3.81168066935262242075E-15, -9.55484669882830764870E-15,
    -4.15056934728722208663E-14, 1.54008621752140982691E-14, 3.85277838274214270114E-13,
    7.18012445138366623367E-13, -1.79417853150680611778E-12, -1.32158118404477131188E-11,
    -3.14991652796324136454E-11, 1.18891471078464383424E-11, 4.94060238822496958910E-10,
    3.39623202570838634515E-9, 2.26666899049817806459E-8, 2.04891858946906374183E-7,
    2.89137052083475648297E-6, 6.88975834691682398426E-5, 3.36911647825569408990E-3,
    8.04490411014108831608E-1]
_I1E_A = [
    2.77791411276104639959E-18, -2.11142121435816608115E-17, 1.55363195773620046921E-16,
    -1.10559694773538630805E-15, 7.60068429473540693410E-15, -5.04218550472791168711E-14,
    3.22379336594557470981E-13, -1.98397439776494371520E-12, 1.17361862988909016308E-11,
    -6.66348972350202774223E-11, 3.62559028155211703701E-10, -1.88724975172282928790E-9,
    9.38153738649577178388E-9, -4.44505912879632808065E-8, 2.00329475355213526229E-7,
    -8.56872026469545474066E-7, 3.47025130813767847674E-6, -1.32731636560394358279E-5,
    4.78156510755005422638E-5, -1.61760815825896745588E-4, 5.12285956168575772895E-4,
    -1.51357245063125314899E-3, 4.15642294431288815669E-3, -1.05640848946261981558E-2,
    2.47264490306265168283E-2, -5.29459812080949914269E-2, 1.02643658689847095384E-1,
    -1.76416518357834055153E-1, 2.52587186443633654823E-1]
_I1E_B = [
    7.51729631084210481353E-18, 4.41434832307170791151E-18, -4.65030536848935832153E-17,
    -3.20952592199342395980E-17, 2.96262899764595013876E-16, 3.30820231092092828324E-16,
    -1.88035477551078244854E-15, -3.81440307243700780478E-15, 1.04202769841288027642E-14,
    4.27244001671195135429E-14, -2.10154184277266431302E-14, -4.08355111109219731823E-13,
    -7.19855177624590851209E-13, 2.03562854414708950722E-12, 1.41258074366137813316E-11,
    3.25260358301548823856E-11, -1.89749581235054123450E-11, -5.58974346219658380687E-10,
    -3.83538038596423702205E-9, -2.63146884688951950684E-8, -2.51223623787020892529E-7,
    -3.88256480887769039346E-6, -1.10588938762623716291E-4, -9.76109749136146840777E-3,
    7.78576235018280120474E-1]
# float32's special.i1 evaluates shorter expansions (the last 17 and 7 coefficients)
_I1E_A_F32 = _I1E_A[-17:]
_I1E_B_F32 = _I1E_B[-7:]

_LIBM = []


def _libm_exp(x):
    """`std::exp` of a float32 or float64 numpy array as PyTorch's kernels call it (the C
    library's expf / exp, element by element); numpy's exp where no C library can be loaded."""
    import numpy as np

    if not _LIBM:
        try:
            import ctypes
            import ctypes.util

            lib = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
            lib.expf.restype, lib.expf.argtypes = ctypes.c_float, [ctypes.c_float]
            lib.exp.restype, lib.exp.argtypes = ctypes.c_double, [ctypes.c_double]
            _LIBM.append((np.frompyfunc(lib.expf, 1, 1), np.frompyfunc(lib.exp, 1, 1)))
        except (OSError, AttributeError):
            _LIBM.append(None)
    fns = _LIBM[0]
    if fns is None or x.size == 0:
        with np.errstate(all="ignore"):
            return np.exp(x)
    f = fns[0] if x.dtype == np.float32 else fns[1]
    return np.asarray(f(x), dtype=x.dtype).reshape(x.shape)


def _fma_f64(a, b, c):
    """`a * b + c` rounded once (an error-free product and sum, as the fused multiply-add the
    compiler emits for PyTorch's `x * b1 - b2`)."""
    import numpy as np

    with np.errstate(all="ignore"):
        p = a * b
        sa = 134217729.0 * a
        ah = sa - (sa - a)
        al = a - ah
        sb = 134217729.0 * b
        bh = sb - (sb - b)
        bl = b - bh
        err = ((ah * bh - p) + ah * bl + al * bh) + al * bl
        s = p + c
        bb = s - p
        t = (p - (s - bb)) + (c - bb)
        r = s + (t + err)
        return np.where(np.isfinite(r), r, p + c)


def _chbevl(x, coeffs):
    """Cephes' `chbevl` in x's precision, with the fused multiply-add of PyTorch's build."""
    import numpy as np

    T = x.dtype.type
    b0 = np.full_like(x, T(coeffs[0]))
    b1 = np.zeros_like(x)
    b2 = np.zeros_like(x)
    with np.errstate(all="ignore"):
        for c in coeffs[1:]:
            b2, b1 = b1, b0
            if T is np.float32:
                fused = (x.astype(np.float64) * b1.astype(np.float64) - b2.astype(np.float64)).astype(np.float32)
            else:
                fused = _fma_f64(x, b1, -b2)
            b0 = fused + T(c)
        return T(0.5) * (b0 - b2)


def _bessel_host(x, order):
    """PyTorch's `calc_i0` (order 0) or `calc_i1` (order 1) of a float32 or float64 array."""
    import numpy as np

    T = x.dtype.type
    f32 = T is np.float32
    ax = np.abs(x)
    with np.errstate(all="ignore"):
        e = _libm_exp(ax)
        ya = ax / T(2) - T(2)
        yb = T(32) / ax - T(2)
        if order == 0:
            ra = e * _chbevl(ya, _I0E_A)
            rb = e * _chbevl(yb, _I0E_B) / np.sqrt(ax)
        else:
            ra = e * ax * _chbevl(ya, _I1E_A_F32 if f32 else _I1E_A)
            rb = (e * _chbevl(yb, _I1E_B_F32 if f32 else _I1E_B)) / np.sqrt(ax)
        r = np.where(ax <= T(8), ra, rb).astype(T)
        if order == 1:
            r = np.where(x < 0, -r, r)
    return r


def _bessel_values(t, order, dt):
    """i0 / i1 of tensor `t` in `dt` (the 16-bit floats computed in float32)."""
    import numpy as np

    torch = _torch()
    work = torch.float64 if dt is torch.float64 else torch.float32
    a = _host_array(t.detach().to(work))
    return _from_host(_bessel_host(a, order), dt, t.device)


def _i1(x):
    """`torch.special.i1` of a floating tensor (SpecialI1Backward0, differentiable again)."""
    torch = _torch()

    def backward(g, a):
        # PyTorch's i1_backward: i0(x) - i1(x) / x, and 0.5 where |x| <= eps
        eps = torch.finfo(a.dtype).eps
        big = a.abs() > eps
        safe = torch.where(big, a, torch.full_like(a, eps))
        gx = _i0(safe) - _i1(a) * safe.reciprocal()
        return g * torch.where(big, gx, torch.full_like(a, 0.5))

    return _custom("SpecialI1Backward0", lambda a: _bessel_values(a, 1, a.dtype), backward, [x])


def _i0(x):
    """i0 of a tensor (I0Backward0: the gradient `grad * i1(x)`)."""
    dt = _to_float_dtype(x.dtype)
    return _custom("I0Backward0", lambda a: _bessel_values(a, 0, dt), lambda g, a: g * _i1(a), [x])


def _i0_checked(fname, input):
    _check_tensor(fname, "input", 1, input)
    if input.is_complex():
        raise NotImplementedError(f"\"i0_vml_cpu\" not implemented for '{_scalar_name(input.dtype)}'")
    _shell_check(input, "i0_vml_cpu")
    return _i0(input)


def i0(input, *, out=None):
    """The zeroth-order modified Bessel function of the first kind, as PyTorch's kernel
    evaluates it (Cephes' Chebyshev expansions); integers compute in the default float dtype
    (I0Backward0: the gradient is `special.i1`).

    >>> torch.i0(torch.tensor([0., 1., -2., 10.]))
    tensor([1.0000e+00, 1.2661e+00, 2.2796e+00, 2.8157e+03])
    """
    return _with_out("i0", "i0", lambda: _i0_checked("i0", input), (input,), out)


def i0_(input):
    """`torch.i0(input)` written into `input`.

    >>> x = torch.tensor([0., 1.])
    >>> torch.i0_(x)
    tensor([1.0000, 1.2661])
    """
    _check_tensor("i0_", "input", 1, input)
    return _inplace(input, lambda s: _i0_checked("i0_", s))


def _sinc(fname, input):
    _check_tensor(fname, "input", 1, input)
    torch = _torch()
    dt = _to_float_dtype(input.dtype)

    def exact(a):
        # PyTorch's kernel: 1 at 0, else sin(pi x) / (pi x) in float (double for float64,
        # float32 for the 16-bit floats)
        wide = dt in (torch.float16, torch.bfloat16)
        x = a.to(torch.float32 if wide else dt)
        p = x * (math.pi if dt in (torch.float64, torch.complex128) else _F32_PI)
        r = torch.where(x == 0, torch.ones_like(x), p.sin() / p)
        return r.to(dt)

    def backward(g, a):
        # PyTorch's sinc_backward: grad * (pi x cos(pi x) - sin(pi x)) / (pi x^2), 0 where that is 0/0
        x_pi = a * math.pi
        sq_pi = a * a * math.pi
        out = g * ((x_pi * x_pi.cos() - x_pi.sin()) / sq_pi).conj()
        return torch.where(sq_pi == 0, torch.zeros_like(out), out)

    return _custom("SincBackward0", exact, backward, [input])


_F32_PI = 3.1415927410125732  # c10::pi<float>


def sinc(input, *, out=None):
    """The normalized sinc function `sin(pi x) / (pi x)` (1 at 0); integers compute in the
    default float dtype (SincBackward0).

    >>> torch.sinc(torch.tensor([0., 0.5, -2.5]))
    tensor([1.0000, 0.6366, 0.1273])
    """
    return _with_out("sinc", "sinc", lambda: _sinc("sinc", input), (input,), out)


def sinc_(input):
    """`torch.sinc(input)` written into `input`.

    >>> x = torch.tensor([0., 0.5])
    >>> torch.sinc_(x)
    tensor([1.0000, 0.6366])
    """
    _check_tensor("sinc_", "input", 1, input)
    return _inplace(input, lambda s: _sinc("sinc_", s))


# ------------------------------------------------------------------------------------------------
# Reductions


def _reduce_args(dim, keepdim):
    if dim is None:
        return ()
    return (dim,) if isinstance(dim, builtins.int) else (tuple(dim),)


def _nansum(fname, input, dim, keepdim, dtype):
    _check_tensor(fname, "input", 1, input)
    if input.is_complex():
        raise NotImplementedError("nansum on CPU does not support complex inputs")
    _shell_check(input, "nansum_cpu")
    torch = _torch()
    args = _reduce_args(dim, keepdim)

    def f(x):
        if x.is_floating_point():
            x = torch.where(x.isnan(), torch.zeros_like(x), x)
        if dim is None:
            return x.sum(dtype=dtype) if not keepdim else x.sum(tuple(builtins.range(x.dim())), keepdim=True,
                                                                dtype=dtype)
        return x.sum(*args, keepdim=keepdim, dtype=dtype)

    return _core._composite("NansumBackward0", f, [input])


def nansum(input, dim=None, keepdim=False, *, dtype=None, out=None):
    """The sum of the elements (all, or along `dim`), NaNs counted as zero; integers and bools
    sum to int64 (NansumBackward0: no gradient where the input was NaN).

    >>> torch.nansum(torch.tensor([1., float('nan'), 2.]))
    tensor(3.)
    >>> torch.nansum(torch.tensor([[1., float('nan')], [2., 3.]]), 1)
    tensor([1., 5.])
    """
    return _with_out("nansum", "nansum", lambda: _nansum("nansum", input, dim, keepdim, dtype), (input,), out)


def _nanmean(input, dim, keepdim, dtype):
    _check_tensor("nanmean", "input", 1, input)
    if not (input.is_floating_point() or input.is_complex()):
        raise NotImplementedError("nanmean(): expected input to have floating point or complex dtype but got "
                                  f"{_scalar_name(input.dtype)}")
    if dtype is not None and not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError("nanmean(): could not infer output dtype. Optional dtype must be either a floating point "
                           f"or complex dtype. Got: {_scalar_name(dtype)}")
    # PyTorch's composition: nansum divided by the count of the numbers
    args = _reduce_args(dim, keepdim)
    kept = input.isnan().logical_not()
    if dim is None and not keepdim:
        factor = kept.sum()
    elif dim is None:
        factor = kept.sum(tuple(builtins.range(input.dim())), keepdim=True)
    else:
        factor = kept.sum(*args, keepdim=keepdim)
    return _nansum("nansum", input, dim, keepdim, dtype).div(factor)


def nanmean(input, dim=None, keepdim=False, *, dtype=None, out=None):
    """The mean of the elements (all, or along `dim`) that are not NaN: `nansum` divided by
    their count (NaN where there are none), as PyTorch composes it (DivBackward0 on top).

    >>> torch.nanmean(torch.tensor([1., float('nan'), 2.]))
    tensor(1.5000)
    >>> torch.nanmean(torch.tensor([[1., float('nan')], [2., 3.]]), 1, keepdim=True)
    tensor([[1.0000],
            [2.5000]])
    """
    from . import _out

    return _with_out("nanmean", "nanmean", lambda: _nanmean(input, dim, keepdim, dtype), (input,), out,
                     _out.EXPECTED)


def _broadcast_check(a, b):
    """PyTorch's error (of a binary op) when shapes `a` and `b` do not broadcast."""
    for i in builtins.range(1, builtins.min(len(a), len(b)) + 1):
        x, y = a[-i], b[-i]
        if x != y and x != 1 and y != 1:
            raise RuntimeError(f"The size of tensor a ({x}) must match the size of tensor b ({y}) at non-singleton "
                               f"dimension {builtins.max(len(a), len(b)) - i}")


def _dist(input, other, p):
    _check_tensor("dist", "input", 1, input)
    _check_tensor("dist", "other", 2, other)
    torch = _torch()
    dt = _result_dtype(input, other)
    if not (dt.is_floating_point or dt.is_complex):
        raise NotImplementedError(f"norm(): input dtype should be either floating point or complex. Got "
                                  f"{_scalar_name(dt)} instead.")
    _broadcast_check(input.shape, other.shape)
    p = float(p)
    return _core._composite("DistBackward0", lambda a, b: torch.linalg.vector_norm(a - b, p), [input, other])


def dist(input, other, p=2):
    """The p-norm of `input - other` (broadcast) (DistBackward0).

    >>> torch.dist(torch.tensor([1., 2., 3.]), torch.tensor([1., 0., 0.]))
    tensor(3.6056)
    >>> torch.dist(torch.tensor([1., 2., 3.]), torch.tensor([1., 0., 0.]), 1)
    tensor(5.)
    """
    return _dist(input, other, p)


def inner(input, other, *, out=None):
    """The inner product over the last dims (the product when either is 0-d), as PyTorch
    composes it: a `tensordot` of the last dims.

    >>> torch.inner(torch.tensor([1., 2., 3.]), torch.tensor([4., 5., 6.]))
    tensor(32.)
    >>> torch.inner(torch.tensor([[1., 2.], [3., 4.]]), torch.tensor([[1., 0.], [0., 1.]]))
    tensor([[1., 2.],
            [3., 4.]])
    """
    _check_tensor("inner", "input", 1, input)
    _check_tensor("inner", "other", 2, other)

    def compute():
        if input.dim() == 0 or other.dim() == 0:
            return input * other
        if input.shape[-1] != other.shape[-1]:
            raise RuntimeError(f"inner() the last dimension must match on both input tensors but got shapes "
                               f"{list(input.shape)} and {list(other.shape)}")
        if input.dtype != other.dtype:
            raise RuntimeError("both inputs should have same dtype")
        return _torch().tensordot(input, other, ([-1], [-1]))

    from . import _out

    return _with_out("inner", None, compute, (input, other), out, _out.EXPECTED) if out is not None else compute()


def _vdot(input, other):
    _check_tensor("vdot", "input", 1, input)
    _check_tensor("vdot", "other", 2, other)
    if input.dim() != 1 or other.dim() != 1:
        raise RuntimeError(f"1D tensors expected, but got {input.dim()}D and {other.dim()}D tensors")
    if input.dtype != other.dtype:
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found {_scalar_name(input.dtype)} "
                           f"and {_scalar_name(other.dtype)}")
    if input.numel() != other.numel():
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{input.numel()}] and src [{other.numel()}] "
                           f"to have the same number of elements, but got {input.numel()} and {other.numel()} "
                           "elements respectively")
    if input.is_complex():
        return _core._composite("VdotBackward0", lambda a, b: a.conj().dot(b), [input, other])
    return _core._composite("VdotBackward0", lambda a, b: a.dot(b), [input, other])


def vdot(input, other, *, out=None):
    """The dot product of two 1-d tensors of one dtype, the first conjugated (VdotBackward0).

    >>> torch.vdot(torch.tensor([1., 2.]), torch.tensor([3., 4.]))
    tensor(11.)
    >>> torch.vdot(torch.tensor([1 + 2j]), torch.tensor([3 - 1j]))
    tensor(1.-7.j)
    """
    from . import _out

    return _with_out("vdot", "vdot", lambda: _vdot(input, other), (input, other), out, _out.EXPECTED)


def _outer(input, vec2):
    _check_tensor("outer", "vec2", 1, vec2)
    if input.dim() != 1:
        raise RuntimeError(f"outer: Expected 1-D argument self, but got {input.dim()}-D")
    if vec2.dim() != 1:
        raise RuntimeError(f"outer: Expected 1-D argument vec2, but got {vec2.dim()}-D")
    return input.reshape(input.shape[0], 1) * vec2


def ger(input, vec2, *, out=None):
    """An alias of `outer`: the outer product of two vectors (`input[i] * vec2[j]`).

    >>> torch.ger(torch.tensor([1., 2.]), torch.tensor([1., 10., 100.]))
    tensor([[  1.,  10., 100.],
            [  2.,  20., 200.]])
    """
    _check_tensor("ger", "input", 1, input)
    if out is not None:
        from ._out import warn

        warn("torch.ger is deprecated and will be removed in a future PyTorch release. Use torch.outer instead. "
             "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/LinearAlgebra.cpp:1264.)")
    return _with_out("ger", "mul", lambda: _outer(input, vec2), (input, vec2), out)


def _outer_method(self, vec2):
    """The outer product of two vectors (`self[i] * vec2[j]`, MulBackward0).

    >>> torch.tensor([1., 2.]).outer(torch.tensor([3., 4.]))
    tensor([[3., 4.],
            [6., 8.]])
    """
    return _outer(self, vec2)


def _ger_method(self, vec2):
    """An alias of `outer`.

    >>> torch.tensor([1., 2.]).ger(torch.tensor([3., 4.]))
    tensor([[3., 4.],
            [6., 8.]])
    """
    return _outer(self, vec2)


# ------------------------------------------------------------------------------------------------
# beta * input + alpha * (products)


def _check_scalars(dtype, beta, alpha):
    """PyTorch's check of `addr`'s scalars: no floats (nor complex numbers) for integral and
    bool results, no complex numbers for real ones."""
    real = not dtype.is_complex
    for name, v in (("beta", beta), ("alpha", alpha)):
        if not (dtype.is_floating_point or dtype.is_complex) and isinstance(v, (builtins.float, builtins.complex)):
            raise RuntimeError(f"For integral input tensors, argument {name} must not be a floating point number.")
        if real and isinstance(v, builtins.complex):
            _blas_scalars(dtype, v, 1)


def _blas_scalars(dtype, beta, alpha):
    """beta and alpha as the matrix-product kernels take them: converted to the dtype (truncated
    for integers; a complex number refused for real dtypes)."""
    if not dtype.is_complex:
        for v in (beta, alpha):
            if isinstance(v, builtins.complex):
                from ._out import CPP

                raise RuntimeError(f"value cannot be converted to type {CPP[dtype._name]} without overflow")
    if not (dtype.is_floating_point or dtype.is_complex):
        return builtins.int(beta), builtins.int(alpha)
    return beta, alpha


def _scaled_sum(input, product, beta, alpha):
    """`beta * input + alpha * product` as the BLAS kernels compute it: `input` ignored (NaN
    and inf not spread) when beta is 0, the factors of 1 left out."""
    if alpha != 1:
        product = product * alpha
    if beta == 0:
        return product
    if beta != 1:
        input = input * beta
    return input + product


def _blas_node(name, input, args, product, beta, alpha, shape):
    """One node `name` over (input, *args): `beta * input + alpha * product(*args)`, input
    broadcast to `shape`."""
    beta, alpha = _blas_scalars(input.dtype, beta, alpha)

    def exact(x, *ms):
        return _scaled_sum(x.expand(shape), product(*ms), beta, alpha)

    def formula(x, *ms):
        # the gradient `beta * grad` to input also when beta is 0 (PyTorch's zeros)
        return x.expand(shape) * beta + product(*ms) * alpha

    return _node(name, exact, formula, [input, *args])


def _expand_check(input, shape):
    """PyTorch's error when `input` does not broadcast to `shape` (its `expand`)."""
    input.expand(shape)


def _size(t, d):
    """`t.size(d)` with PyTorch's IndexError for a dim out of range."""
    n = t.dim()
    if n == 0:
        raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")
    if not -n <= d < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})")
    return t.shape[d]


def _addmv(fname, input, mat, vec, beta, alpha):
    for name, pos, v in (("input", 1, input), ("mat", 2, mat), ("vec", 3, vec)):
        _check_tensor(fname, name, pos, v)
    if not (mat.dim() == 2 and vec.dim() == 1 and input.dim() <= 1):
        raise RuntimeError(f"vector + matrix @ vector expected, got {input.dim()}, {mat.dim()}, {vec.dim()}")
    if mat.shape[1] != vec.shape[0] or not (mat.shape[0] == input.numel() or input.numel() == 1):
        raise RuntimeError(f"size mismatch, got input ({_size(input, 0)}), mat ({mat.shape[0]}x{mat.shape[1]}), "
                           f"vec ({vec.shape[0]})")
    if not input.dtype == mat.dtype == vec.dtype:
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {_scalar_name(input.dtype)}, "
                           f"{_scalar_name(mat.dtype)}, and {_scalar_name(vec.dtype)}")
    return _blas_node("AddmvBackward0", input, [mat, vec], lambda m, v: m.mv(v), beta, alpha, (mat.shape[0],))


def addmv(input, mat, vec, *, beta=1, alpha=1, out=None):
    """`beta * input + alpha * (mat @ vec)` (input ignored, NaN included, when beta is 0)
    (AddmvBackward0).

    >>> torch.addmv(torch.tensor([1., 1.]), torch.tensor([[1., 2.], [3., 4.]]), torch.tensor([1., 1.]))
    tensor([4., 8.])
    """
    from . import _out

    return _with_out("addmv", "addmv", lambda: _addmv("addmv", input, mat, vec, beta, alpha), (input, mat, vec), out,
                     _out.EXPECTED)


def _addmv_method(self, mat, vec, *, beta=1, alpha=1):
    """`torch.addmv(self, mat, vec, beta=beta, alpha=alpha)`.

    >>> torch.tensor([1., 1.]).addmv(torch.eye(2), torch.tensor([2., 3.]), alpha=2)
    tensor([5., 7.])
    """
    return _addmv("addmv", self, mat, vec, beta, alpha)


def _bad_inplace_size(self, shape):
    if tuple(self.shape) != tuple(shape):
        raise RuntimeError(f"Bad in-place call: input tensor size {list(self.shape)} and output tensor size "
                           f"{list(shape)} should match")


def addmv_(input, mat, vec, *, beta=1, alpha=1):
    """`torch.addmv(input, mat, vec, beta=beta, alpha=alpha)` written into `input` (of the
    result's shape).

    >>> x = torch.tensor([1., 1.])
    >>> torch.addmv_(x, torch.eye(2), torch.tensor([2., 3.]))
    tensor([3., 4.])
    """
    _check_tensor("addmv_", "input", 1, input)
    if isinstance(mat, Tensor) and mat.dim() == 2:
        _bad_inplace_size(input, (mat.shape[0],))
    return _inplace(input, lambda s: _addmv("addmv_", s, mat, vec, beta, alpha), mat, vec)


def _addr(fname, input, vec1, vec2, beta, alpha):
    for name, pos, v in (("input", 1, input), ("vec1", 2, vec1), ("vec2", 3, vec2)):
        _check_tensor(fname, name, pos, v)
    if vec1.dim() != 1:
        raise RuntimeError(f"addr: Expected 1-D argument vec1, but got {vec1.dim()}-D")
    if vec2.dim() != 1:
        raise RuntimeError(f"addr: Expected 1-D argument vec2, but got {vec2.dim()}-D")
    shape = (vec1.shape[0], vec2.shape[0])
    _expand_check(input, shape)
    dt = _result_dtype(input, vec1, vec2)
    _check_scalars(dt, beta, alpha)
    torch = _torch()
    if dt is _core.bool:
        # PyTorch's kernel for bools: (beta and input) or (alpha and vec1[i] and vec2[j])
        r = torch.logical_and(vec1.unsqueeze(1), vec2) if alpha else torch.zeros(shape, dtype=torch.bool)
        return torch.logical_or(input.expand(shape), r) if beta else r.expand(shape).clone()

    def exact(x, a, b):
        # PyTorch's kernel: beta * input + alpha * vec1[i] * vec2[j] (alpha times vec1 first)
        a = a.to(dt)
        p = (a * alpha if alpha != 1 else a).unsqueeze(1) * b.to(dt)
        if beta == 0:
            return p
        x = x.to(dt)
        return (x * beta if beta != 1 else x).expand(shape) + p

    def formula(x, a, b):
        return x.expand(shape) * beta + a.unsqueeze(1) * b * alpha

    return _node("AddrBackward0", exact, formula, [input, vec1, vec2])


def addr(input, vec1, vec2, *, beta=1, alpha=1, out=None):
    """`beta * input + alpha * outer(vec1, vec2)` (input broadcast; ignored, NaN included,
    when beta is 0) (AddrBackward0).

    >>> torch.addr(torch.zeros(2, 2), torch.tensor([1., 2.]), torch.tensor([3., 4.]))
    tensor([[3., 4.],
            [6., 8.]])
    """
    return _with_out("addr", "addr", lambda: _addr("addr", input, vec1, vec2, beta, alpha), (input, vec1, vec2), out)


def _addr_method(self, vec1, vec2, *, beta=1, alpha=1):
    """`torch.addr(self, vec1, vec2, beta=beta, alpha=alpha)`.

    >>> torch.ones(2, 2).addr(torch.tensor([1., 2.]), torch.tensor([3., 4.]), beta=2)
    tensor([[ 5.,  6.],
            [ 8., 10.]])
    """
    return _addr("addr", self, vec1, vec2, beta, alpha)


def _addr_(self, vec1, vec2, *, beta=1, alpha=1):
    """`torch.addr(self, vec1, vec2, beta=beta, alpha=alpha)` written into `self`.

    >>> x = torch.zeros(2, 2)
    >>> x.addr_(torch.tensor([1., 2.]), torch.tensor([3., 4.]))
    tensor([[3., 4.],
            [6., 8.]])
    """
    if isinstance(vec1, Tensor) and isinstance(vec2, Tensor) and vec1.dim() == 1 and vec2.dim() == 1 and \
            tuple(self.shape) != (vec1.shape[0], vec2.shape[0]):
        raise RuntimeError(f"size mismatch, input: {list(self.shape)}, v1: {list(vec1.shape)}, v2: "
                           f"{list(vec2.shape)}")
    return _inplace(self, lambda s: _addr("addr_", s, vec1, vec2, beta, alpha), vec1, vec2)


def _baddbmm(fname, input, batch1, batch2, beta, alpha):
    for name, pos, v in (("input", 1, input), ("batch1", 2, batch1), ("batch2", 3, batch2)):
        _check_tensor(fname, name, pos, v)
    if input.dtype != batch1.dtype:
        from ._out import CPP

        raise RuntimeError(f"Input dtypes must be the same, got: input {CPP[input.dtype._name]}, batch1: "
                           f"{CPP[batch1.dtype._name]}, batch2: {CPP[batch2.dtype._name]}")
    shape = (_size(batch1, 0), _size(batch1, 1), _size(batch2, 2))
    _expand_check(input, shape)
    if batch1.dim() != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if batch2.dim() != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    b, k = batch1.shape[0], batch1.shape[2]
    if tuple(batch2.shape[:2]) != (b, k):
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{b}, {k}] but got: "
                           f"[{batch2.shape[0]}, {batch2.shape[1]}].")
    if batch2.dtype != input.dtype:
        raise RuntimeError(f"expected scalar type {_scalar_name(input.dtype)} but found {_scalar_name(batch2.dtype)}")
    return _blas_node("BaddbmmBackward0", input, [batch1, batch2], lambda m1, m2: m1.bmm(m2), beta, alpha, shape)


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None):
    """`beta * input + alpha * (batch1 @ batch2)` for batches of matrices (input broadcast;
    ignored when beta is 0) (BaddbmmBackward0).

    >>> torch.baddbmm(torch.ones(1, 2, 2), torch.ones(1, 2, 3), torch.ones(1, 3, 2))
    tensor([[[4., 4.],
             [4., 4.]]])
    """
    from . import _out

    return _with_out("baddbmm", "baddbmm", lambda: _baddbmm("baddbmm", input, batch1, batch2, beta, alpha),
                     (input, batch1, batch2), out, _out.EXPECTED)


def _baddbmm_method(self, batch1, batch2, *, beta=1, alpha=1):
    """`torch.baddbmm(self, batch1, batch2, beta=beta, alpha=alpha)`.

    >>> torch.zeros(1, 1, 1).baddbmm(torch.ones(1, 1, 2), torch.ones(1, 2, 1), alpha=3)
    tensor([[[6.]]])
    """
    return _baddbmm("baddbmm", self, batch1, batch2, beta, alpha)


def _baddbmm_(self, batch1, batch2, *, beta=1, alpha=1):
    """`torch.baddbmm(self, batch1, batch2, beta=beta, alpha=alpha)` written into `self` (of the
    result's shape).

    >>> x = torch.ones(1, 1, 1)
    >>> x.baddbmm_(torch.ones(1, 1, 2), torch.ones(1, 2, 1))
    tensor([[[3.]]])
    """
    if isinstance(batch1, Tensor) and isinstance(batch2, Tensor) and batch1.dim() == 3 and batch2.dim() == 3:
        _bad_inplace_size(self, (batch1.shape[0], batch1.shape[1], batch2.shape[2]))
    return _inplace(self, lambda s: _baddbmm("baddbmm_", s, batch1, batch2, beta, alpha), batch1, batch2)


def _addbmm(fname, input, batch1, batch2, beta, alpha):
    for name, pos, v in (("input", 1, input), ("batch1", 2, batch1), ("batch2", 3, batch2)):
        _check_tensor(fname, name, pos, v)
    shape = (_size(batch1, 1), _size(batch2, 2))
    _expand_check(input, shape)
    if batch1.dim() != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if batch2.dim() != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    if batch1.shape[0] != batch2.shape[0]:
        raise RuntimeError(f"batch1 and batch2 must have same number of batches, got {batch1.shape[0]} and "
                           f"{batch2.shape[0]}")
    if batch1.shape[2] != batch2.shape[1]:
        raise RuntimeError(f"Incompatible matrix sizes for bmm ({batch1.shape[1]}x{batch1.shape[2]} and "
                           f"{batch2.shape[1]}x{batch2.shape[2]})")
    _mm_dtypes(input, batch1, batch2)
    torch = _torch()
    beta, alpha = _blas_scalars(input.dtype, beta, alpha)

    def exact(x, b1, b2):
        # PyTorch's kernel: one addmm per batch, beta applied with the first only
        r = x.expand(shape)
        if b1.shape[0] == 0:
            return r * beta if beta != 0 else torch.zeros(shape, dtype=x.dtype, device=x.device)
        for i in builtins.range(b1.shape[0]):
            r = _scaled_sum(r, b1[i].mm(b2[i]), beta if i == 0 else 1, alpha)
        return r

    def formula(x, b1, b2):
        return x.expand(shape) * beta + b1.bmm(b2).sum(0) * alpha

    return _node("AddbmmBackward0", exact, formula, [input, batch1, batch2])


def _mm_dtypes(input, mat1, mat2):
    if input.dtype != mat2.dtype:
        raise RuntimeError(f"self and mat2 must have the same dtype, but got {_scalar_name(input.dtype)} and "
                           f"{_scalar_name(mat2.dtype)}")
    if mat1.dtype != mat2.dtype:
        raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got {_scalar_name(mat1.dtype)} and "
                           f"{_scalar_name(mat2.dtype)}")


def addbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None):
    """`beta * input + alpha * sum_i(batch1[i] @ batch2[i])` (input broadcast; ignored when
    beta is 0) (AddbmmBackward0).

    >>> torch.addbmm(torch.zeros(2, 2), torch.ones(3, 2, 1), torch.ones(3, 1, 2))
    tensor([[3., 3.],
            [3., 3.]])
    """
    from . import _out

    return _with_out("addbmm", "addbmm", lambda: _addbmm("addbmm", input, batch1, batch2, beta, alpha),
                     (input, batch1, batch2), out, _out.EXPECTED)


def _addbmm_method(self, batch1, batch2, *, beta=1, alpha=1):
    """`torch.addbmm(self, batch1, batch2, beta=beta, alpha=alpha)`.

    >>> torch.ones(1, 1).addbmm(torch.ones(2, 1, 1), torch.ones(2, 1, 1), beta=0)
    tensor([[2.]])
    """
    return _addbmm("addbmm", self, batch1, batch2, beta, alpha)


def _addbmm_(self, batch1, batch2, *, beta=1, alpha=1):
    """`torch.addbmm(self, batch1, batch2, beta=beta, alpha=alpha)` written into `self`.

    >>> x = torch.ones(1, 1)
    >>> x.addbmm_(torch.ones(2, 1, 1), torch.ones(2, 1, 1))
    tensor([[3.]])
    """
    return _inplace(self, lambda s: _addbmm("addbmm_", s, batch1, batch2, beta, alpha), batch1, batch2)


def _addmm(fname, input, mat1, mat2, beta, alpha):
    for name, pos, v in (("input", 1, input), ("mat1", 2, mat1), ("mat2", 3, mat2)):
        _check_tensor(fname, name, pos, v)
    if mat1.dim() != 2:
        raise RuntimeError(f"addmm: self must be a matrix, got {mat1.dim()}-D tensor")
    if mat2.dim() != 2:
        raise RuntimeError(f"addmm: mat2 must be a matrix, got {mat2.dim()}-D tensor")
    if mat1.shape[1] != mat2.shape[0]:
        raise RuntimeError(f"addmm: mat1 and mat2 shapes cannot be multiplied ({mat1.shape[0]}x{mat1.shape[1]} and "
                           f"{mat2.shape[0]}x{mat2.shape[1]})")
    _mm_dtypes(input, mat1, mat2)
    shape = (mat1.shape[0], mat2.shape[1])
    _expand_check(input, shape)
    if beta == 1 and alpha == 1 and not isinstance(beta, builtins.bool) and not isinstance(alpha, builtins.bool):
        return _core._addmm(input, mat1, mat2)
    return _blas_node("AddmmBackward0", input, [mat1, mat2], lambda a, b: a.mm(b), beta, alpha, shape)


def _addmm_method(self, mat1, mat2, *, beta=1, alpha=1):
    """`beta * self + alpha * (mat1 @ mat2)` (self broadcast; ignored when beta is 0)
    (AddmmBackward0).

    >>> torch.ones(2, 2).addmm(torch.eye(2), torch.tensor([[1., 2.], [3., 4.]]), alpha=2)
    tensor([[3., 5.],
            [7., 9.]])
    """
    return _addmm("addmm", self, mat1, mat2, beta, alpha)


def _addmm_(self, mat1, mat2, *, beta=1, alpha=1):
    """`self.addmm(mat1, mat2, beta=beta, alpha=alpha)` written into `self` (of the result's
    shape).

    >>> x = torch.ones(2, 2)
    >>> x.addmm_(torch.eye(2), torch.tensor([[1., 2.], [3., 4.]]))
    tensor([[2., 3.],
            [4., 5.]])
    """
    if isinstance(mat1, Tensor) and isinstance(mat2, Tensor) and mat1.dim() == 2 and mat2.dim() == 2:
        _bad_inplace_size(self, (mat1.shape[0], mat2.shape[1]))
    return _inplace(self, lambda s: _addmm("addmm_", s, mat1, mat2, beta, alpha), mat1, mat2)


# ------------------------------------------------------------------------------------------------
# Shapes, statistics, integration


def diagflat(input, offset=0):
    """A 2-d tensor with `input`'s elements (flattened) on its `offset`-th diagonal, zeros
    elsewhere, as PyTorch composes it (a view, then DiagEmbedBackward0).

    >>> torch.diagflat(torch.tensor([[1, 2], [3, 4]]))
    tensor([[1, 0, 0, 0],
            [0, 2, 0, 0],
            [0, 0, 3, 0],
            [0, 0, 0, 4]])
    """
    _check_tensor("diagflat", "input", 1, input)
    return _torch().diag_embed(input.contiguous().view(-1), offset)


def fliplr(input):
    """The columns (dim 1) in reverse order (FlipBackward0); `input` must be at least 2-d.

    >>> torch.fliplr(torch.tensor([[1, 2, 3], [4, 5, 6]]))
    tensor([[3, 2, 1],
            [6, 5, 4]])
    """
    _check_tensor("fliplr", "input", 1, input)
    if input.dim() < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return input.flip(1)


def flipud(input):
    """The rows (dim 0) in reverse order (FlipBackward0); `input` must be at least 1-d.

    >>> torch.flipud(torch.tensor([[1, 2], [3, 4]]))
    tensor([[3, 4],
            [1, 2]])
    """
    _check_tensor("flipud", "input", 1, input)
    if input.dim() < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return input.flip(0)


_DOF_WARNING = ("cov(): degrees of freedom is <= 0. Correction should be strictly less than the number of "
                "observations. (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
                "Correlation.cpp:129.)")


def cov(input, *, correction=1, fweights=None, aweights=None):
    """The covariance matrix of the variables in `input`'s rows (observations in its columns;
    a 1-d input is one variable), with frequency and observation weights, composed as
    PyTorch's (SqueezeBackward0 on top).

    >>> torch.cov(torch.tensor([[1., 2., 4.], [1., 0., -1.]]))
    tensor([[ 2.3333, -1.5000],
            [-1.5000,  1.0000]])
    >>> torch.cov(torch.tensor([1., 2., 4.]), correction=0)
    tensor(1.5556)
    """
    torch = _torch()
    _check_tensor("cov", "input", 1, input)
    if input.dim() > 2:
        raise RuntimeError(f"cov(): expected input to have two or fewer dimensions but got an input with "
                           f"{input.dim()} dimensions")
    if input.dtype is torch.bool:
        raise NotImplementedError("cov(): bool dtype is not supported for input")
    x = input.view(1, -1) if input.dim() < 2 else input
    n = x.shape[1]
    w = None
    if fweights is not None:
        w = fweights
        if w.dim() > 1:
            raise RuntimeError(f"cov(): expected fweights to have one or fewer dimensions but got fweights with "
                               f"{w.dim()} dimensions")
        if w.is_floating_point() or w.is_complex() or w.dtype is torch.bool:
            raise RuntimeError(f"cov(): expected fweights to have integral dtype but got fweights with "
                               f"{_scalar_name(w.dtype)} dtype")
        if w.numel() != n:
            raise RuntimeError(f"cov(): expected fweights to have the same numel as there are observations in the "
                               f"input but got {w.numel()} != {n}")
        if n and not bool(w.min() >= 0):
            raise RuntimeError("cov(): fweights cannot be negative")
    if aweights is not None:
        aw = aweights
        if aw.dim() > 1:
            raise RuntimeError(f"cov(): expected aweights to have one or fewer dimensions but got aweights with "
                               f"{aw.dim()} dimensions")
        if not aw.is_floating_point():
            raise RuntimeError(f"cov(): expected aweights to have floating point dtype but got aweights with "
                               f"{_scalar_name(aw.dtype)} dtype")
        if aw.numel() != n:
            raise RuntimeError(f"cov(): expected aweights to have the same numel as there are observations in the "
                               f"input but got {aw.numel()} != {n}")
        if n and not bool(aw.min() >= 0):
            raise RuntimeError("cov(): aweights cannot be negative")
        w = w * aw if w is not None else aw
    w_sum = w.sum() if w is not None else torch.tensor(n, dtype=torch.int64, device=x.device)
    if w is not None and not bool(w_sum != 0):
        raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    avg = (x * w if w is not None else x).sum(1) / w_sum
    if w is None:
        norm = torch.tensor(n - correction, dtype=torch.int64, device=x.device)
    elif correction == 0:
        norm = w_sum
    elif aweights is None:
        norm = w_sum - correction
    elif fweights is None and n == 1 and correction == 1:
        norm = torch.tensor(0, dtype=torch.int64, device=x.device)
    else:
        norm = w_sum - correction * (w * aweights).sum() / w_sum
    if bool(norm <= 0):
        from ._out import warn

        warn(_DOF_WARNING)
        norm = torch.zeros_like(norm)
    if n == 1 and (fweights is None) != (aweights is None):
        x = torch.zeros_like(x)
        if not (x.is_floating_point() or x.is_complex()):
            x = x.float()
    else:
        x = x - avg.unsqueeze(1)
    c = x.mm((x * w if w is not None else x).t().conj())
    return c.true_divide(norm).squeeze()


def corrcoef(input):
    """The Pearson correlation coefficients of the variables in `input`'s rows (`cov`
    normalized, clipped to [-1, 1] as NumPy does) (ClampBackward1 on top).

    >>> torch.corrcoef(torch.tensor([[1., 2., 4.], [1., 0., -1.]]))
    tensor([[ 1.0000, -0.9820],
            [-0.9820,  1.0000]])
    """
    torch = _torch()
    _check_tensor("corrcoef", "input", 1, input)
    if input.dim() > 2:
        raise RuntimeError(f"corrcoef(): expected input to have two or fewer dimensions but got an input with "
                           f"{input.dim()} dimensions")
    c = cov(input)
    if c.dim() == 0:
        return c / c
    d = c.diagonal()
    stddev = (d.real if d.is_complex() else d).sqrt()
    c = c / stddev.view(-1, 1)
    c = c / stddev.view(1, -1)
    if c.is_complex():
        return torch.complex(c.real.clip(-1, 1), c.imag.clip(-1, 1))
    return c.clip(-1, 1)


def _mul_scalar(t, s):
    """`t * s` as ATen's mul(Tensor, Scalar) records it (MulBackward1)."""
    return _core._composite("MulBackward1", lambda x: x * s, [t])


def _div_scalar(t, s):
    """`t / s` as ATen's div(Tensor, Scalar) records it (DivBackward1)."""
    return _core._div_scalar(t, float(s))


def _wrap_dim(dim, nd):
    if nd == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    if not -nd <= dim < nd:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-nd}, {nd - 1}], but got {dim})")
    return dim % nd


def _slice(t, d, start, end=None):
    """`t[..., start:end, ...]` along dim `d` (SliceBackward0; clamped as PyTorch's slice)."""
    return t[(builtins.slice(None),) * d + (builtins.slice(start, end),)]


def _zeros_except(y, dim):
    sizes = list(y.shape)
    del sizes[dim]
    return _torch().zeros(sizes, dtype=y.dtype, device=y.device)


def _x_viewed(fname, y, x, dim):
    """`x` viewed to line up with y's `dim` (PyTorch's trapezoid rules)."""
    if x.dim() == 1:
        if x.shape[0] != y.shape[dim]:
            raise RuntimeError(f"{fname}: There must be one `x` value for each sample point")
        sizes = [1] * y.dim()
        sizes[dim] = x.shape[0]
        return x.view(sizes)
    if x.dim() < y.dim():
        return x.view((1,) * (y.dim() - x.dim()) + tuple(x.shape))
    return x


def _check_dx(fname, dx):
    if isinstance(dx, (builtins.bool, builtins.complex)) or not isinstance(dx, (builtins.int, builtins.float)):
        raise RuntimeError(f"{fname}: Currently, we only support dx as a real number.")
    return float(dx)


def _trapezoid(fname, y, x, dx, dim):
    _check_tensor(fname, "y", 1, y)
    d = _wrap_dim(dim, y.dim())
    if x is not None:
        _check_tensor(fname, "x", 2, x)
        if y.shape[d] == 0:
            return _zeros_except(y, d)
        if y.dtype is _core.bool or x.dtype is _core.bool:
            raise NotImplementedError(f"{fname}: received a bool input for `x` or `y`, but bool is not supported")
        xv = _x_viewed(fname, y, x, d)
        dxs = _slice(xv, d, 1) - _slice(xv, d, 0, -1)
        return _div_scalar(((_slice(y, d, 0, -1) + _slice(y, d, 1)) * dxs).sum(d), 2.0)
    if y.shape[d] == 0:
        return _zeros_except(y, d)
    if y.dtype is _core.bool:
        raise NotImplementedError(f"{fname}: received a bool input for `y`, but bool is not supported")
    step = _check_dx(fname, dx)
    ends = _mul_scalar(y.select(d, 0) + y.select(d, -1), 0.5)
    return _mul_scalar(y.sum(d) - ends, step)


def trapezoid(y, x=None, *, dx=None, dim=-1):
    """The trapezoidal rule along `dim`: the integral of the samples `y` at the points `x`
    (a tensor), or spaced `dx` apart (1 by default), composed as PyTorch's.

    >>> torch.trapezoid(torch.tensor([1., 2., 4.]))
    tensor(4.5000)
    >>> torch.trapezoid(torch.tensor([1., 2., 4.]), torch.tensor([0., 1., 3.]))
    tensor(7.5000)
    """
    if x is not None and (not isinstance(x, Tensor) or dx is not None):
        raise _invalid("trapezoid", y, x, **({"dx": dx} if dx is not None else {}))
    return _trapezoid("trapezoid", y, x, 1 if dx is None else dx, dim)


def trapz(y, x=None, *, dx=None, dim=-1):
    """An alias of `trapezoid`: the trapezoidal rule along `dim`.

    >>> torch.trapz(torch.tensor([1., 2., 4.]), dx=0.5)
    tensor(2.2500)
    """
    if x is not None and (not isinstance(x, Tensor) or dx is not None):
        raise _invalid("trapz", y, x, **({"dx": dx} if dx is not None else {}))
    return _trapezoid("trapezoid", y, x, 1 if dx is None else dx, dim)


def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    """The running trapezoidal rule along `dim` (one sample fewer than `y`), composed as
    PyTorch's (CumsumBackward0 or DivBackward1 on top).

    >>> torch.cumulative_trapezoid(torch.tensor([1., 2., 4.]))
    tensor([1.5000, 4.5000])
    >>> torch.cumulative_trapezoid(torch.tensor([1., 2., 4.]), torch.tensor([0., 1., 3.]))
    tensor([1.5000, 7.5000])
    """
    fname = "cumulative_trapezoid"
    if x is not None and (not isinstance(x, Tensor) or dx is not None):
        raise _invalid(fname, y, x, **({"dx": dx} if dx is not None else {}))
    _check_tensor(fname, "y", 1, y)
    d = _wrap_dim(dim, y.dim())
    if x is not None:
        _check_tensor(fname, "x", 2, x)
        if y.dtype is _core.bool or x.dtype is _core.bool:
            raise NotImplementedError(f"{fname}: received a bool input for `x` or `y`, but bool is not supported")
        xv = _x_viewed(fname, y, x, d)
        dxs = _slice(xv, d, 1) - _slice(xv, d, 0, -1)
        return _div_scalar(((_slice(y, d, 0, -1) + _slice(y, d, 1)) * dxs).cumsum(d), 2.0)
    if y.dtype is _core.bool:
        raise NotImplementedError(f"{fname}: received a bool input for `y`, but bool is not supported")
    step = _check_dx(fname, 1 if dx is None else dx)
    return _mul_scalar(_slice(y, d, 0, -1) + _slice(y, d, 1), step / 2.0).cumsum(d)


def block_diag(*tensors):
    """A block-diagonal matrix of the tensors (0-d and 1-d ones as one row), in their promoted
    dtype (BlockDiagBackward0).

    >>> torch.block_diag(torch.tensor([[1, 2], [3, 4]]), torch.tensor([5, 6]), torch.tensor(7))
    tensor([[1, 2, 0, 0, 0],
            [3, 4, 0, 0, 0],
            [0, 0, 5, 6, 0],
            [0, 0, 0, 0, 7]])
    """
    torch = _torch()
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {type(t).__name__}")
    if not tensors:
        return torch.empty(1, 0)
    for i, t in enumerate(tensors):
        if t.dim() > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {i} has "
                               f"{t.dim()} dimensions")
    dt = _result_dtype(*tensors) if len(tensors) > 1 else tensors[0].dtype
    shapes = [tuple(t.shape) if t.dim() == 2 else (1, t.numel()) for t in tensors]

    def f(*ts):
        rows = builtins.sum(s[0] for s in shapes)
        cols = builtins.sum(s[1] for s in shapes)
        r = torch.zeros(rows, cols, dtype=dt, device=ts[0].device)
        i = j = 0
        for t, (h, w) in zip(ts, shapes):
            if h and w:
                r[i:i + h, j:j + w] = t.reshape(h, w)
            i, j = i + h, j + w
        return r

    return _core._composite("BlockDiagBackward0", f, list(tensors))


def combinations(input, r=2, with_replacement=False):
    """The length-`r` combinations of a 1-d tensor's elements, as rows (itertools'
    `combinations`, or `combinations_with_replacement`), gathered by one index
    (IndexBackward0).

    >>> torch.combinations(torch.tensor([1, 2, 3]))
    tensor([[1, 2],
            [1, 3],
            [2, 3]])
    """
    import itertools

    torch = _torch()
    _check_tensor("combinations", "input", 1, input)
    if input.dim() != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(input.shape)}")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return torch.empty(0, dtype=input.dtype, device=input.device)
    gen = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    rows = list(gen(builtins.range(input.shape[0]), r))
    idx = torch.tensor(rows, dtype=torch.int64, device=input.device).reshape(len(rows), r)
    return input[idx]


def unravel_index(indices, shape):
    """The coordinates (a tuple of tensors) of flat `indices` in a tensor of `shape`, as
    PyTorch's Python composition computes them.

    >>> torch.unravel_index(torch.tensor([4, 1]), (2, 3))
    (tensor([1, 0]), tensor([1, 1]))
    """
    import itertools
    import operator

    torch = _torch()
    if indices.is_complex() or indices.is_floating_point() or indices.dtype is torch.bool:
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    if isinstance(shape, builtins.int):
        shape = (shape,)
    elif isinstance(shape, (list, tuple, str)) or hasattr(shape, "__len__"):
        for d in shape:
            if not isinstance(d, builtins.int):
                raise TypeError(f"expected 'shape' sequence to only contain ints, but got {type(d)}")
        shape = tuple(shape)
    else:
        raise TypeError(f"expected 'shape' to be int or sequence of ints, but got {type(shape)}")
    if not builtins.all(d >= 0 for d in shape):
        raise ValueError(f"'shape' cannot have negative values, but got {tuple(shape)}")
    if not (builtins.all(d > 0 for d in shape) or indices.numel() == 0):
        raise ValueError(f"'shape' cannot have zero dimensions when 'indices' is non-empty, but got {tuple(shape)}")
    if indices.numel() == 0:
        dt = _core._promote_types(indices.dtype, torch.int64)
        return torch.zeros(tuple(indices.shape) + (len(shape),), dtype=dt, device=indices.device).unbind(-1)
    coefs = list(reversed(list(itertools.accumulate(reversed(shape[1:] + (1,)), func=operator.mul))))
    r = indices.unsqueeze(-1).floor_divide(torch.tensor(coefs, device=indices.device, dtype=torch.int64)) \
        % torch.tensor(shape, device=indices.device, dtype=torch.int64)
    return r.unbind(-1)


_RANGE_WARNING = ("torch.range is deprecated and will be removed in a future release because its behavior is "
                  "inconsistent with Python's range builtin. Instead, use torch.arange, which produces values in "
                  "[start, end).")


def range(start=0, end=None, step=1, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """Deprecated (PyTorch warns): `start, start + step, ...` up to and including `end`, in the
    default float dtype unless `dtype` says otherwise. Use `torch.arange`, which stops before
    `end`.

    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     torch.range(1, 4)
    tensor([1., 2., 3., 4.])
    """
    from ._device import _with_default
    from ._out import warn

    torch = _torch()
    if end is None:
        raise TypeError('range() missing 1 required positional arguments: "end"')
    warn(_RANGE_WARNING)
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (step > 0 and end < start) or (step < 0 and end > start):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    dt = dtype or _core._get_default_dtype()
    size = builtins.int(math.floor((float(end) - float(start)) / float(step))) + 1
    if dt.is_floating_point or dt.is_complex:
        # PyTorch's kernel: start + i * step in double, then the dtype
        values = [float(start) + i * float(step) for i in builtins.range(size)]
        r = torch.tensor(values, dtype=torch.float64).to(dt) if values else torch.empty(0, dtype=dt)
    else:
        values = [builtins.int(start) + i * builtins.int(step) for i in builtins.range(size)]
        r = torch.tensor(values, dtype=torch.int64).to(dt) if values else torch.empty(0, dtype=dt)
    device = _with_default(device)
    if device is not None:
        r = r.to(device)
    if out is not None:
        from ._grad_mode import no_grad

        with no_grad():
            out.resize_(r.shape).copy_(r)
        return out
    if requires_grad:
        r.requires_grad_(True)
    return r


_C_TYPES = {"uint8": "uint8_t", "int8": "int8_t", "int16": "int16_t", "int32": "int", "int64": "int64_t",
            "float32": "float", "float64": "double", "complex64": "c10::complex<float>",
            "complex128": "c10::complex<double>"}


def _check_convertible(s, dt):
    """c10's checked conversion of a Python number to `dt` (PyTorch's error on overflow; the
    16-bit floats round to inf, and uint8 takes negative numbers modulo 256, unchecked)."""
    name = dt._name
    msg = f"value cannot be converted to type {_C_TYPES.get(name, name)} without overflow"
    if isinstance(s, builtins.complex):
        if not dt.is_complex:
            raise RuntimeError(msg)
        parts = (s.real, s.imag)
    else:
        parts = (s,)
    if dt is _core.bool or name in ("float16", "bfloat16", "float64", "complex128"):
        return
    if name in ("float32", "complex64"):
        if builtins.any(math.isfinite(v) and builtins.abs(v) > 3.4028234663852886e38 for v in map(float, parts)):
            raise RuntimeError(msg)
        return
    v = s
    if isinstance(v, builtins.float) and not math.isfinite(v):
        raise RuntimeError(msg)
    import numpy as np

    info = np.iinfo(name) if name in _C_TYPES else None
    if info is None:
        return
    if name == "uint8":
        if v > info.max or (v < 0 and -v > info.max):
            raise RuntimeError(msg)
    elif not info.min <= v <= info.max:
        raise RuntimeError(msg)


def scalar_tensor(s, *, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False):
    """A 0-d tensor holding the number `s`, of the default float dtype unless `dtype` says
    otherwise.

    >>> torch.scalar_tensor(3)
    tensor(3.)
    >>> torch.scalar_tensor(3, dtype=torch.int32)
    tensor(3, dtype=torch.int32)
    """
    from ._device import _with_default

    torch = _torch()
    if isinstance(s, Tensor):
        s = s.item()
    if not isinstance(s, _NUMBER):
        raise TypeError(f"scalar_tensor(): argument 's' (position 1) must be Number, not {type(s).__name__}")
    dt = dtype or _core._get_default_dtype()
    _check_convertible(s, dt)
    r = torch.tensor(s, dtype=dt)
    device = _with_default(device)
    if device is not None:
        r = r.to(device)
    if requires_grad:
        r.requires_grad_(True)
    return r


def rsub(input, other, *, alpha=1):
    """`other - alpha * input` (subtraction with the operands swapped) (RsubBackward0, or
    RsubBackward1 for a number `other`).

    >>> torch.rsub(torch.tensor([1., 2.]), 5)
    tensor([4., 3.])
    >>> torch.rsub(torch.tensor([1., 2.]), torch.tensor([1., 1.]), alpha=2)
    tensor([-1., -3.])
    """
    torch = _torch()
    if not isinstance(input, Tensor) or not isinstance(other, (Tensor, *_NUMBER)):
        raise _invalid("rsub", input, other)
    _check_alpha(input, other, alpha)
    if isinstance(other, Tensor):
        def f(a, b):
            return torch.sub(b, a, alpha=alpha) if alpha != 1 else torch.sub(b, a)

        return _core._composite("RsubBackward0", f, [input, other])
    dt = _result_dtype(input, other)
    o = torch.tensor(other, dtype=dt, device=input.device)

    def g(a):
        return torch.sub(o, a, alpha=alpha) if alpha != 1 else torch.sub(o, a)

    return _core._composite("RsubBackward1", g, [input])


def polar(abs, angle, *, out=None):
    """The complex numbers `abs * (cos(angle) + i sin(angle))` (float32 gives complex64, float64
    complex128) (PolarBackward0).

    >>> torch.polar(torch.tensor([1., 2.]), torch.tensor([0., 1.5707963267948966], dtype=torch.float32))
    tensor([ 1.0000e+00+0.j, -8.7423e-08+2.j])
    """
    torch = _torch()
    _check_tensor("polar", "abs", 1, abs)
    _check_tensor("polar", "angle", 2, angle)
    if abs.dtype not in (torch.float32, torch.float64) or angle.dtype not in (torch.float32, torch.float64):
        if abs.dtype is torch.float16 and angle.dtype is torch.float16:
            raise NotImplementedError("polar: float16 inputs (complex32 results) are not supported by leafgrad")
        raise NotImplementedError(f"Expected both inputs to be Half, Float or Double tensors but got "
                                  f"{_scalar_name(abs.dtype)} and {_scalar_name(angle.dtype)}")
    if abs.dtype != angle.dtype:
        raise RuntimeError(f"Expected object of scalar type {_scalar_name(abs.dtype)} but got scalar type "
                           f"{_scalar_name(angle.dtype)} for second argument")

    def compute():
        return _core._composite("PolarBackward0", lambda r, t: torch.complex(r * t.cos(), r * t.sin()), [abs, angle])

    from . import _out

    return _with_out("polar", "polar", compute, (abs, angle), out, _out.EXPECTED)


def _frexp_method(self):
    """`torch.frexp(self)`: the mantissa and exponent.

    >>> torch.tensor([8., 0.25]).frexp()
    torch.return_types.frexp(
    mantissa=tensor([0.5000, 0.5000]),
    exponent=tensor([ 4, -1], dtype=torch.int32))
    """
    return frexp(self)


# Tensor methods: PyTorch's name -> the function here (those with `input` first serve as methods
# as they are).
_METHODS = {
    "multiply": _multiply_method, "multiply_": _multiply_, "subtract": _subtract_method, "subtract_": _subtract_,
    "divide": _divide_method, "divide_": _divide_, "true_divide_": _true_divide_, "floor_divide_": _floor_divide_,
    "negative": _negative_method, "negative_": negative_, "absolute": _absolute_method, "absolute_": _absolute_,
    "abs_": abs_, "sign_": _sign_, "sgn_": _sgn_, "square_": square_, "deg2rad_": deg2rad_, "rad2deg_": rad2deg_,
    "cumsum_": _cumsum_, "cumprod_": _cumprod_, "tril_": _tril_, "triu_": _triu_,
    "logical_and_": _logical_and_, "logical_or_": _logical_or_, "logical_xor_": _logical_xor_,
    "logical_not_": _logical_not_, "greater_": _greater_, "greater_equal_": _greater_equal_, "less_": _less_,
    "less_equal_": _less_equal_, "not_equal_": _not_equal_, "remainder_": _remainder_, "fmod_": _fmod_,
    "float_power": float_power, "float_power_": _float_power_, "copysign": _copysign_method,
    "copysign_": _copysign_, "fmax": fmax, "fmin": fmin, "gcd": gcd, "gcd_": gcd_, "lcm": lcm, "lcm_": lcm_,
    "heaviside": _heaviside_method, "heaviside_": _heaviside_, "logaddexp2": logaddexp2, "ldexp": _ldexp_method,
    "ldexp_": ldexp_, "frexp": _frexp_method, "nextafter": _nextafter_method, "nextafter_": _nextafter_,
    "i0": i0, "i0_": i0_, "sinc": sinc, "sinc_": sinc_, "nansum": nansum, "nanmean": nanmean, "dist": dist,
    "inner": inner, "vdot": vdot, "ger": _ger_method, "outer": _outer_method, "addmv": _addmv_method,
    "addmv_": addmv_, "addr": _addr_method, "addr_": _addr_, "baddbmm": _baddbmm_method, "baddbmm_": _baddbmm_,
    "addbmm": _addbmm_method, "addbmm_": _addbmm_, "addmm": _addmm_method, "addmm_": _addmm_,
    "diagflat": diagflat, "fliplr": fliplr, "flipud": flipud, "cov": cov, "corrcoef": corrcoef,
}


def _method(fn):
    """The Tensor method of a `torch.*` function: its signature and example without `out=`,
    which PyTorch's methods do not take."""
    import functools
    import inspect

    sig = inspect.signature(fn)
    if "out" not in sig.parameters:
        return fn

    @functools.wraps(fn)
    def method(*args, **kwargs):
        if "out" in kwargs:
            raise TypeError(f"{fn.__name__}() got an unexpected keyword argument 'out'")
        return fn(*args, **kwargs)

    method.__signature__ = sig.replace(parameters=[p for n, p in sig.parameters.items() if n != "out"])
    return method


def _install():
    for name, fn in _METHODS.items():
        setattr(Tensor, name, _method(fn))


_install()
