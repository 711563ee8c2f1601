"""More of `torch.special`: `ndtr`, `ndtri`, `i0e`, `i1`, `i1e`, `entr`, `xlog1py`.

Values are computed as PyTorch's CPU kernels compute them (Cephes' Chebyshev and rational
expansions from ATen's Math.h, with the fused multiply-adds of PyTorch's build; float16 and
bfloat16 in float32, integers in the default float dtype); `ndtr` is PyTorch's composition
`(1 + erf(x / sqrt 2)) / 2` of leafgrad ops (its graph ends in MulBackward1, as PyTorch's).
Each other function records one node with PyTorch's name (SpecialNdtriBackward0, ...) whose
gradient is derivatives.yaml's formula written with leafgrad ops, so it differentiates again.
"""
import math

from . import _core
from ._core import Tensor
from ._math_unary import (
    _I0E_A, _I0E_B, _I1E_A, _I1E_A_F32, _I1E_B, _I1E_B_F32, _chbevl, _fma_f64, _i1, _libm, _to_float_dtype,
)
from ._op_helpers import (
    _check_tensor, _custom, _float_result_dtype, _from_host, _host_array, _scalar_name, _torch, _with_out,
)

__all__ = ["ndtr", "ndtri", "i0e", "i1", "i1e", "entr", "xlog1py"]


def _float_input(fname, kernel, input):
    """`input` checked (PyTorch's kernels have no complex case), and the dtype its result has
    (integers and bool: the default float)."""
    _check_tensor(fname, "input", 1, input)
    if input.is_complex():
        raise NotImplementedError(f"\"{kernel}_cpu\" not implemented for '{_scalar_name(input.dtype)}'")
    return _to_float_dtype(input.dtype)


def _host(t, dt):
    """`t` as a numpy array in the precision PyTorch's kernel computes `dt` in."""
    torch = _torch()
    work = torch.float64 if dt is torch.float64 else torch.float32
    return _host_array(t.detach().to(work))


def _libm_log(x):
    """`std::log` of a float32 or float64 numpy array, as PyTorch's scalar kernels call it."""
    return _libm("log", x)


def _round16(v, name):
    """float32 values rounded to float16 or bfloat16 (to nearest, ties to even) and back: the
    rounding of each c10::Half / c10::BFloat16 operation."""
    import numpy as np

    v = np.asarray(v, dtype=np.float32)
    if name == "float16":
        return v.astype(np.float16).astype(np.float32)
    bits = v.view(np.uint32)
    rounded = (bits + np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1))) & np.uint32(0xFFFF0000)
    return np.where(np.isnan(v), v, rounded.view(np.float32))


def _chbevl16(x, coeffs, name):
    """Cephes' `chbevl` in 16-bit arithmetic (coefficients and every operation rounded)."""
    import numpy as np

    def r(v):
        return _round16(v, name)

    cs = [r(np.float32(c)) for c in coeffs]
    b0 = np.full_like(x, cs[0])
    b1 = np.zeros_like(x)
    b2 = np.zeros_like(x)
    with np.errstate(all="ignore"):
        for c in cs[1:]:
            b2, b1 = b1, b0
            b0 = r(r(r(x * b1) - b2) + c)
        return r(r(b0 - b2) * np.float32(0.5))


def _i0e_16(x, name):
    """PyTorch's `calc_i0e` instantiated for c10::Half / c10::BFloat16 (no upcast: every step
    rounds to the 16-bit type); `x` holds the 16-bit values as float32."""
    import numpy as np

    def r(v):
        return _round16(v, name)

    ax = np.abs(x)
    with np.errstate(all="ignore"):
        ra = _chbevl16(r(r(ax / np.float32(2)) - np.float32(2)), _I0E_A, name)
        rb = r(_chbevl16(r(r(np.float32(32) / ax) - np.float32(2)), _I0E_B, name) / np.sqrt(ax))
    return np.where(ax <= 8, ra, rb)


# ------------------------------------------------------------------------------ Bessel, scaled


def _bessel_e_host(x, order):
    """PyTorch's `calc_i0e` (order 0) / `calc_i1e` (order 1) of a float32 or float64 array."""
    import numpy as np

    T = x.dtype.type
    f32 = T is np.float32
    ax = np.abs(x)
    with np.errstate(all="ignore"):
        ya = ax / T(2) - T(2)
        yb = T(32) / ax - T(2)
        if order == 0:
            ra = _chbevl(ya, _I0E_A)
            rb = _chbevl(yb, _I0E_B) / np.sqrt(ax)
        else:
            ra = _chbevl(ya, _I1E_A_F32 if f32 else _I1E_A) * ax
            rb = _chbevl(yb, _I1E_B_F32 if f32 else _I1E_B) / np.sqrt(ax)
        r = np.where(ax <= T(8), ra, rb).astype(T)
        if order == 1:
            r = np.where(x < 0, -r, r)
    return r


def _i0e(x, dt):
    def exact(a):
        v = _host(a, dt)
        if dt._name not in ("float16", "bfloat16"):
            return _from_host(_bessel_e_host(v, 0), dt, a.device)
        import numpy as np

        # PyTorch's vectorised loop converts blocks of 32 16-bit values to float32 (calc_i0e in
        # float); the elements after the last block, and every element of a strided input, go
        # through the scalar loop in 16-bit arithmetic
        flat = v.reshape(-1)
        k = flat.size - flat.size % 32 if a.is_contiguous() else 0
        r = np.concatenate([_round16(_bessel_e_host(flat[:k], 0), dt._name), _i0e_16(flat[k:], dt._name)])
        return _from_host(r.reshape(v.shape), dt, a.device)

    return _custom("SpecialI0EBackward0", exact, lambda g, a: g * (_i1e(a, a.dtype) - a.sgn() * _i0e(a, a.dtype)),
                   [x])


def _i1e(x, dt):
    torch = _torch()

    def backward(g, a):
        # PyTorch's i1e_backward: i0e(x) - i1e(x) (sgn x + 1/x), and 0.5 where |x| <= eps
        eps = torch.finfo(a.dtype).eps
        big = a.abs() > eps
        safe = torch.where(big, a, torch.full_like(a, eps))
        gx = _i0e(safe, a.dtype) - _i1e(a, a.dtype) * (safe.sgn() + safe.reciprocal())
        return g * torch.where(big, gx, torch.full_like(a, 0.5))

    return _custom("SpecialI1EBackward0", lambda a: _from_host(_bessel_e_host(_host(a, dt), 1), dt, a.device),
                   backward, [x])


def i0e(input, *, out=None):
    """The exponentially scaled modified Bessel function of order 0, `exp(-|x|) i0(x)`
    (SpecialI0EBackward0: the gradient is `i1e(x) - sgn(x) i0e(x)`).

    >>> torch.special.i0e(torch.tensor([0., 1., 10.]))
    tensor([1.0000, 0.4658, 0.1278])
    """
    dt = _float_input("special_i0e", "i0e", input)
    return _with_out("special_i0e", True, lambda: _i0e(input, dt), (input,), out)


def i1(input, *, out=None):
    """The modified Bessel function of the first kind of order 1 (SpecialI1Backward0).

    >>> torch.special.i1(torch.tensor([0., 1., -2.]))
    tensor([ 0.0000,  0.5652, -1.5906])
    """
    dt = _float_input("special_i1", "i1", input)
    return _with_out("special_i1", True, lambda: _i1(input if input.dtype is dt else input.to(dt)), (input,), out)


def i1e(input, *, out=None):
    """The exponentially scaled modified Bessel function of order 1, `exp(-|x|) i1(x)`
    (SpecialI1EBackward0).

    >>> torch.special.i1e(torch.tensor([0., 1., -2.]))
    tensor([ 0.0000,  0.2079, -0.2153])
    """
    dt = _float_input("special_i1e", "i1e", input)
    return _with_out("special_i1e", True, lambda: _i1e(input, dt), (input,), out)


# ------------------------------------------------------------------------------ normal distribution

_NDTRI_P0 = (-5.99633501014107895267E1, 9.80010754185999661536E1, -5.66762857469070293439E1,
             1.39312609387279679503E1, -1.23916583867381258016E0)
_NDTRI_Q0 = (1.0, 1.95448858338141759834E0, 4.67627912898881538453E0, 8.63602421390890590575E1,
             -2.25462687854119370527E2, 2.00260212380060660359E2, -8.20372256168333339912E1,
             1.59056225126211695515E1, -1.18331621121330003142E0)
_NDTRI_P1 = (4.05544892305962419923E0, 3.15251094599893866154E1, 5.71628192246421288162E1,
             4.40805073893200834700E1, 1.46849561928858024014E1, 2.18663306850790267539E0,
             -1.40256079171354495875E-1, -3.50424626827848203418E-2, -8.57456785154685413611E-4)
_NDTRI_Q1 = (1.0, 1.57799883256466749731E1, 4.53907635128879210584E1, 4.13172038254672030440E1,
             1.50425385692907503408E1, 2.50464946208309415979E0, -1.42182922854787788574E-1,
             -3.80806407691578277194E-2, -9.33259480895457427372E-4)
_NDTRI_P2 = (3.23774891776946035970E0, 6.91522889068984211695E0, 3.93881025292474443415E0,
             1.33303460815807542389E0, 2.01485389549179081538E-1, 1.23716634817820021358E-2,
             3.01581553508235416007E-4, 2.65806974686737550832E-6, 6.23974539184983293730E-9)
_NDTRI_Q2 = (1.0, 6.02427039364742014255E0, 3.67983563856160859403E0, 1.37702099489081330271E0,
             2.16236993594496635890E-1, 1.34204006088543189037E-2, 3.28014464682127739104E-4,
             2.89247864745380683936E-6, 6.79019408009981274425E-9)


def _polevl(x, coeffs):
    """Cephes' `polevl` (Horner's rule from the highest coefficient), fused as PyTorch's build."""
    import numpy as np

    T = x.dtype.type
    r = np.zeros_like(x)
    with np.errstate(all="ignore"):
        for c in coeffs:
            if T is np.float32:
                r = (r.astype(np.float64) * x.astype(np.float64) + np.float64(T(c))).astype(np.float32)
            else:
                r = _fma_f64(r, x, np.full_like(x, c))
    return r


def _ndtri_host(y0):
    """PyTorch's `calc_ndtri` of a float32 or float64 array."""
    import numpy as np

    T = y0.dtype.type
    one = T(1)
    e2 = T(0.13533528323661269189)
    with np.errstate(all="ignore"):
        upper = y0 > one - e2
        y = np.where(upper, one - y0, y0)
        # the central interval
        yc = y - T(0.5)
        y2 = yc * yc
        ratio = y2 * _polevl(y2, _NDTRI_P0) / _polevl(y2, _NDTRI_Q0)
        # `y + y * ratio` is one fused multiply-add in PyTorch's build
        fused = ((yc.astype(np.float64) * ratio.astype(np.float64) + yc).astype(T) if T is np.float32
                 else _fma_f64(yc, ratio, yc))
        central = fused * T(2.50662827463100050242E0)
        # the tails
        # `::log` and `::sqrt` are the double functions: float32 arguments compute in double
        y64 = y.astype(np.float64)
        x = np.sqrt(-2.0 * _libm_log(y64)).astype(T)
        x64 = x.astype(np.float64)
        x0 = (x64 - _libm_log(x64) / x64).astype(T)
        z = one / x
        x1 = np.where(x < T(8), z * _polevl(z, _NDTRI_P1) / _polevl(z, _NDTRI_Q1),
                      z * _polevl(z, _NDTRI_P2) / _polevl(z, _NDTRI_Q2))
        tail = x0 - x1
        tail = np.where(upper, tail, -tail)
        r = np.where(y > e2, central, tail)
        r = np.where((y0 < 0) | (y0 > one) | np.isnan(y0), T(np.nan), r)
        r = np.where(y0 == one, T(np.inf), r)
        r = np.where(y0 == 0, T(-np.inf), r)
    return r.astype(T)


def _ndtri(x, dt):
    def backward(g, a):
        # d ndtri(y) = sqrt(2 pi) exp(ndtri(y)^2 / 2) dy
        r = _ndtri(a, a.dtype)
        return g * (math.pi / 2 * math.sqrt(2) * (2 / math.sqrt(math.pi))) * (r.square() * 0.5).exp()

    return _custom("SpecialNdtriBackward0", lambda a: _from_host(_ndtri_host(_host(a, dt)), dt, a.device),
                   backward, [x])


def ndtri(input, *, out=None):
    """The inverse of the standard normal distribution function: the x with ndtr(x) = p
    (Cephes' rational approximations, as PyTorch's kernel; -inf at 0, inf at 1, NaN outside).

    >>> torch.special.ndtri(torch.tensor([0., 0.25, 0.5, 0.975, 1.]))
    tensor([   -inf, -0.6745,  0.0000,  1.9600,     inf])
    """
    dt = _float_input("special_ndtri", "ndtri", input)
    if dt._name in ("float16", "bfloat16"):
        raise NotImplementedError(f"\"ndtri_cpu\" not implemented for '{_scalar_name(dt)}'")
    return _with_out("special_ndtri", True, lambda: _ndtri(input, dt), (input,), out)


_SQRT1_2 = 0.70710678118654752440  # M_SQRT1_2 (1 / math.sqrt(2) rounds the other way)


def ndtr(input, *, out=None):
    """The standard normal distribution function, the area under the Gaussian density left of
    x: `(1 + erf(x / sqrt(2))) / 2`, composed as PyTorch composes it.

    >>> torch.special.ndtr(torch.tensor([-1., 0., 1.96]))
    tensor([0.1587, 0.5000, 0.9750])
    """
    _float_input("special_ndtr", "erf_vml", input)

    def compute():
        # ATen's `(1 + at::erf(self * M_SQRT1_2)) * 0.5`: the Scalar overloads of mul and add
        scaled = _core._composite("MulBackward1", lambda a: a * _SQRT1_2, [input], [0])
        shifted = _core._composite("AddBackward1", lambda e: e + 1, [scaled.erf()], [0])
        return _core._composite("MulBackward1", lambda a: a * 0.5, [shifted], [0])

    return _with_out("special_ndtr", True, compute, (input,), out)


# ------------------------------------------------------------------------------ entropy terms


def entr(input, *, out=None):
    """The elementwise entropy term `-x log x`: 0 at 0, -inf for x < 0 (SpecialEntrBackward0:
    the gradient is `-(1 + log x)`).

    >>> torch.special.entr(torch.tensor([0., 0.5, 1., -1.]))
    tensor([-0.0000, 0.3466, -0.0000,   -inf])
    """
    dt = _float_input("special_entr", "entr", input)

    def exact(a):
        import numpy as np

        v = _host(a, dt)
        with np.errstate(all="ignore"):
            if dt._name in ("float16", "bfloat16"):
                # c10's log of a 16-bit float returns that type: log and product each round
                prod = _round16((-v) * _round16(_libm_log(v), dt._name), dt._name)
            else:
                prod = -v * _libm_log(v)
            r = np.where(v > 0, prod, np.where(v == 0, v.dtype.type(0), v.dtype.type(-np.inf)))
            r = np.where(np.isnan(v), v, r)
        return _from_host(r.astype(v.dtype), dt, a.device)

    return _with_out("special_entr", True,
                     lambda: _custom("SpecialEntrBackward0", exact, lambda g, a: g * (-(1 + a.log())), [input]),
                     (input,), out)


def xlog1py(input, other, *, out=None):
    """`input * log1p(other)`, 0 where `input` is 0 (unless `other` is NaN); either may be a
    number (SpecialXlog1PyBackward0).

    >>> torch.special.xlog1py(torch.tensor([0., 2.]), torch.tensor([-1., 1.]))
    tensor([0.0000, 1.3863])
    """
    torch = _torch()
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        raise TypeError("special_xlog1py() received an invalid combination of arguments - got "
                        f"({type(input).__name__}, {type(other).__name__}), but expected one of:\n"
                        " * (Tensor input, Tensor other, *, Tensor out = None)\n"
                        " * (Number self, Tensor other, *, Tensor out = None)\n"
                        " * (Tensor input, Number other, *, Tensor out = None)\n")
    for t in (input, other):
        if isinstance(t, Tensor) and t.is_complex():
            raise NotImplementedError(f"\"xlog1py_cpu\" not implemented for '{_scalar_name(t.dtype)}'")
    dt = _float_result_dtype(input, other)
    dev = (input if isinstance(input, Tensor) else other).device
    x = input if isinstance(input, Tensor) else torch.tensor(input, dtype=dt, device=dev)
    y = other if isinstance(other, Tensor) else torch.tensor(other, dtype=dt, device=dev)

    def exact(a, b):
        import numpy as np

        av, bv = np.broadcast_arrays(_host(a, dt), _host(b, dt))
        with np.errstate(all="ignore"):
            r = av * np.log1p(bv)
            r = np.where((av == 0) & ~np.isnan(bv), av.dtype.type(0), r)
            r = np.where(np.isnan(bv), bv, r)
        return _from_host(r.astype(av.dtype), dt, a.device)

    def backward(g, a, b):
        ga = xlog1py(g, b).masked_fill((a == 0.0) & (b <= -1.0), 0.0)
        gb = g * a / (b + 1)
        return _reduce_to(ga, a), _reduce_to(gb, b)

    return _with_out("special_xlog1py", True, lambda: _custom("SpecialXlog1PyBackward0", exact, backward, [x, y]),
                     (x, y), out)


def _reduce_to(g, t):
    """`g` summed over the dims broadcasting added to `t`'s shape."""
    if g.shape == t.shape:
        return g
    lead = g.dim() - t.dim()
    dims = list(range(lead)) + [lead + i for i, s in enumerate(t.shape) if s == 1 and g.shape[lead + i] != 1]
    r = g.sum(dims, keepdim=True) if dims else g
    return r.reshape(t.shape)
