"""Elementwise binary math that leafgrad lacked: `float_power`, `copysign`, `fmax`/`fmin`,
`gcd`/`lcm`, `heaviside`, `logaddexp2`, `ldexp` and `nextafter`, with their in-place forms and
Tensor methods. `float_power` is `pow` in double precision; the others compute their values as
PyTorch's kernels compute them (`gcd` with C's remainder, `ldexp` scaling exactly, `nextafter` bit
by bit, ...), and the differentiable ones record one node with PyTorch's name
(`_core._composite`) whose gradient is PyTorch's formula (`_custom` writes it as a backward of
leafgrad ops, so it can be differentiated again; `_node` differentiates a composition whose
derivative is that formula)."""
import builtins
import math

from . import _core
from ._core import Tensor
from ._dtypes import shell_check as _shell_check
from ._op_helpers import (
    _NUMBER, _torch, _scalar_name, _check_tensor, _invalid, _operand, _inplace, _node, _with_out, _result_dtype,
    _float_result_dtype, _copysign_values, _custom, _host_array, _from_host, _install,
)

__all__ = [
    "float_power", "copysign", "fmax", "fmin", "gcd", "gcd_", "lcm", "lcm_", "heaviside", "logaddexp2",
    "ldexp", "ldexp_", "nextafter",
]


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

        # PyTorch saves self and the result; other gets a zero gradient from its shape alone
        return _custom("CopysignBackward0", exact, backward, [input, other], [1], saved=["self", "other"],
                       result=True)
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


# Tensor methods: PyTorch's name -> the function here (those with `input` first serve as methods
# as they are).
_METHODS = {
    "float_power": float_power, "float_power_": _float_power_, "copysign": _copysign_method,
    "copysign_": _copysign_, "fmax": fmax, "fmin": fmin, "gcd": gcd, "gcd_": gcd_, "lcm": lcm, "lcm_": lcm_,
    "heaviside": _heaviside_method, "heaviside_": _heaviside_, "logaddexp2": logaddexp2, "ldexp": _ldexp_method,
    "ldexp_": ldexp_, "nextafter": _nextafter_method, "nextafter_": _nextafter_,
}

# PyTorch's methods count `self` apart: their TypeError names the tensor argument position 1
_METHOD_TENSOR_ARG = {"gcd": "other", "gcd_": "other", "lcm": "other", "lcm_": "other", "logaddexp2": "other",
                      "fmax": "other", "fmin": "other", "ldexp": "other", "ldexp_": "other", "nextafter": "other",
                      "nextafter_": "other", "heaviside": "values", "heaviside_": "values"}


def _checked_method(name, fn, arg):
    import functools

    @functools.wraps(fn)
    def method(self, *args, **kwargs):
        if args:
            _check_tensor(name, arg, 1, args[0])
        return fn(self, *args, **kwargs)

    return method


_install({name: _checked_method(name, fn, _METHOD_TENSOR_ARG[name]) if name in _METHOD_TENSOR_ARG else fn
          for name, fn in _METHODS.items()})
