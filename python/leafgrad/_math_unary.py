"""Elementwise unary math with PyTorch's own kernels that leafgrad lacked: `frexp` (bit by
bit), `i0` (Cephes' Chebyshev expansions with the fused multiply-adds of PyTorch's build; its
gradient is `special.i1`, computed the same way) and `sinc`, with their in-place forms and Tensor
methods. Each records one node with PyTorch's name (`_core._composite`) whose value is computed
as PyTorch's kernel computes it and whose gradient is PyTorch's formula, written as a backward of
leafgrad ops (`_custom`) so that it can be differentiated again."""
import math

from . import _core
from ._dtypes import shell_check as _shell_check
from ._op_helpers import (
    _torch, _scalar_name, _check_tensor, _inplace, _with_out, _custom, _host_array, _from_host, _install,
)

__all__ = [
    "frexp", "i0", "i0_", "sinc", "sinc_",
]


def _to_float_dtype(dtype):
    return dtype if (dtype.is_floating_point or dtype.is_complex) else _core._get_default_dtype()


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


def _frexp_method(self):
    """`torch.frexp(self)`: the mantissa and exponent.

    >>> torch.tensor([8., 0.25]).frexp()
    torch.return_types.frexp(
    mantissa=tensor([0.5000, 0.5000]),
    exponent=tensor([ 4, -1], dtype=torch.int32))
    """
    return frexp(self)


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

_LIBM = {}


def _libm(name, x):
    """`std::<name>` of a float32 or float64 numpy array as PyTorch's scalar kernels call it (the
    C library's `<name>f` / `<name>`, element by element); numpy's function where no C library
    can be loaded."""
    import numpy as np

    if name not in _LIBM:
        try:
            import ctypes
            import ctypes.util

            lib = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
            f32, f64 = getattr(lib, name + "f"), getattr(lib, name)
            f32.restype, f32.argtypes = ctypes.c_float, [ctypes.c_float]
            f64.restype, f64.argtypes = ctypes.c_double, [ctypes.c_double]
            _LIBM[name] = (np.frompyfunc(f32, 1, 1), np.frompyfunc(f64, 1, 1))
        except (OSError, AttributeError):
            _LIBM[name] = None
    fns = _LIBM[name]
    if fns is None or x.size == 0:
        with np.errstate(all="ignore"):
            return getattr(np, name)(x)
    f = fns[0] if x.dtype == np.float32 else fns[1]
    return np.asarray(f(x), dtype=x.dtype).reshape(x.shape)


def _libm_exp(x):
    """`std::exp` of a float32 or float64 numpy array, as PyTorch's scalar kernels call it."""
    return _libm("exp", x)


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


# Tensor methods: PyTorch's name -> the function here (those with `input` first serve as methods
# as they are).
_METHODS = {
    "frexp": _frexp_method, "i0": i0, "i0_": i0_, "sinc": sinc, "sinc_": sinc_,
}

_install(_METHODS)
