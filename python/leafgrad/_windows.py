"""Window functions: `hann_window`, `hamming_window`, `blackman_window`, `bartlett_window` and
`kaiser_window`, computed as PyTorch's kernels compute them
(aten/src/ATen/native/TensorFactories.cpp): the same ops in the same dtype (`kaiser_window`'s i0
with Cephes' expansions and the fused multiply-adds of PyTorch's build), so the values are
PyTorch's bit for bit."""
import builtins
import operator

from . import _core
from ._op_helpers import _torch

__all__ = [
    "hann_window", "hamming_window", "blackman_window", "bartlett_window", "kaiser_window",
]


def _window_checks(name, window_length, periodic, dtype, device, layout=None, pin_memory=False):
    from ._device import _with_default
    from ._layout import _factory_options

    _factory_options(name, layout, pin_memory, device=device)

    if isinstance(window_length, builtins.bool) or not isinstance(window_length, builtins.int):
        try:
            if isinstance(window_length, builtins.bool):
                raise TypeError
            window_length = operator.index(window_length)
        except TypeError:
            raise TypeError(f"{name}(): argument 'window_length' (position 1) must be int, not "
                            f"{type(window_length).__name__}") from None
    if not isinstance(periodic, builtins.bool):
        raise TypeError(f"{name}(): argument 'periodic' (position 2) must be bool, not {type(periodic).__name__}")
    dtype = dtype or _core._get_default_dtype()
    device = _with_default(device)
    dev = "cpu" if device is None else str(device)
    if not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError(f"{name} expects floating point dtypes, got: TensorOptions(dtype={dtype._cpp_name}, "
                           f"device={dev}, layout=Strided (default), requires_grad=false (default), "
                           f"pinned_memory=false, memory_format=(nullopt))")
    if window_length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got window_length={window_length}")
    if dtype.is_complex:
        raise NotImplementedError(f"\"arange_cpu\" not implemented for '{dtype._scalar_name}'")
    return window_length, dtype, device


def _window_result(w, requires_grad):
    w = w.detach()
    if requires_grad:
        w.requires_grad_(True)
    return w


def _short_window(n, dtype, device, requires_grad):
    torch = _torch()
    if n == 0:
        return _window_result(torch.empty(0, dtype=dtype, device=device), requires_grad)
    return _window_result(torch.ones(1, dtype=dtype, device=device), requires_grad)


def _window_arange(n, dtype, device):
    """`arange(n)` to compute a window in, the rounding each op's result takes, and the value a
    number takes in an op: a 16-bit float's ops compute in float32 on the number rounded to the
    dtype (PyTorch's C++ passes it as a 0-d tensor of the dtype), each result rounded back."""
    torch = _torch()
    if dtype in (torch.float16, torch.bfloat16):
        def rnd(t):
            return t.to(dtype).to(torch.float32)

        def num(v):
            return torch.tensor(builtins.float(v), dtype=dtype).item()

        return rnd(torch.arange(n, dtype=torch.float32, device=device)), rnd, num
    return torch.arange(n, dtype=dtype, device=device), (lambda t: t), builtins.float


def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None, layout=None, device=None,
                   pin_memory=False, requires_grad=False):
    """The Hamming window `alpha - beta * cos(2 pi n / (N - 1))`; `periodic` (the default)
    gives the first `window_length` values of the window one longer, for spectral analysis.

    >>> torch.hamming_window(5)
    tensor([0.0800, 0.3979, 0.9121, 0.9121, 0.3979])
    >>> torch.hamming_window(5, periodic=False, dtype=torch.float64)
    tensor([0.0800, 0.5400, 1.0000, 0.5400, 0.0800], dtype=torch.float64)
    """
    import math

    n, dtype, device = _window_checks("hamming_window", window_length, periodic, dtype, device, layout, pin_memory)
    if n <= 1:
        return _short_window(n, dtype, device, requires_grad)
    if periodic:
        n += 1
    w, rnd, num = _window_arange(n, dtype, device)
    w = rnd(w.mul_(num(math.pi * 2.0 / builtins.float(n - 1))))
    w = rnd(rnd(rnd(w.cos_()).mul_(num(-builtins.float(beta)))).add_(num(alpha))).to(dtype)
    return _window_result(w[:n - 1] if periodic else w, requires_grad)


def hann_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, pin_memory=False,
                requires_grad=False):
    """The Hann window `0.5 - 0.5 * cos(2 pi n / (N - 1))` (`hamming_window` with alpha = beta
    = 0.5); `periodic` (the default) for spectral analysis.

    >>> torch.hann_window(4)
    tensor([0.0000, 0.5000, 1.0000, 0.5000])
    """
    _window_checks("hann_window", window_length, periodic, dtype, device, layout, pin_memory)
    return hamming_window(window_length, periodic, 0.5, 0.5, dtype=dtype, device=device, requires_grad=requires_grad)


def blackman_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, pin_memory=False,
                    requires_grad=False):
    """The Blackman window `0.42 - 0.5 cos(2 pi n / (N - 1)) + 0.08 cos(4 pi n / (N - 1))`;
    `periodic` (the default) for spectral analysis.

    >>> torch.blackman_window(5, periodic=False)
    tensor([-2.9802e-08,  3.4000e-01,  1.0000e+00,  3.4000e-01, -2.9802e-08])
    """
    import math

    n, dtype, device = _window_checks("blackman_window", window_length, periodic, dtype, device, layout, pin_memory)
    if n <= 1:
        return _short_window(n, dtype, device, requires_grad)
    if periodic:
        n += 1
    w, rnd, num = _window_arange(n, dtype, device)
    w = rnd(w.mul_(num(math.pi / builtins.float(n - 1))))
    first = rnd(rnd(rnd(w.mul(4)).cos_()).mul_(num(0.08)))
    second = rnd(rnd(rnd(w.mul(2)).cos_()).mul_(num(0.5)))
    w = rnd(rnd(first - second) + num(0.42))
    w = w.to(dtype)
    return _window_result(w[:n - 1] if periodic else w, requires_grad)


def bartlett_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, pin_memory=False,
                    requires_grad=False):
    """The Bartlett (triangular) window `1 - |2n / (N - 1) - 1|`; `periodic` (the default) for
    spectral analysis.

    >>> torch.bartlett_window(5, periodic=False)
    tensor([0.0000, 0.5000, 1.0000, 0.5000, 0.0000])
    """
    n, dtype, device = _window_checks("bartlett_window", window_length, periodic, dtype, device, layout, pin_memory)
    if n <= 1:
        return _short_window(n, dtype, device, requires_grad)
    if periodic:
        n += 1
    w, rnd, num = _window_arange(n, dtype, device)
    w = rnd(w.mul_(num(2.0 / builtins.float(n - 1))))
    first_half = ((n - 1) >> 1) + 1
    tail = w.narrow(0, first_half, n - first_half)
    tail.copy_(rnd(rnd(tail * -1) + 2))
    w = w.to(dtype)
    return _window_result(w[:n - 1] if periodic else w, requires_grad)


# the Cephes expansions of i0 that torch.i0 evaluates too
from ._math_unary import _I0E_A as _I0_A, _I0E_B as _I0_B  # noqa: E402


def _expf():
    """C's `expf` (what PyTorch's float kernels call), or `exp` in double rounded to float."""
    import numpy as np

    try:
        import ctypes
        import ctypes.util

        libm = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
        f = libm.expf
        f.restype, f.argtypes = ctypes.c_float, [ctypes.c_float]
        return lambda x: np.float32(f(builtins.float(x)))
    except (OSError, AttributeError):
        import math

        return lambda x: np.float32(math.exp(builtins.float(x)))


def _fma64(x, y, z):
    """x * y + z rounded once to double (C's `fma`)."""
    import math
    from fractions import Fraction

    f = getattr(math, "fma", None)
    if f is not None:
        return f(x, y, z)
    return builtins.float(Fraction(x) * Fraction(y) + Fraction(z))


def _fma32(x, y, z):
    """x * y + z of float32 numbers rounded once to float32 (C's `fmaf`)."""
    import numpy as np

    p = builtins.float(x) * builtins.float(y)  # exact: two 24-bit significands
    zf = builtins.float(z)
    d = p + zf
    if (d - p) - zf == 0 and (d - zf) - p == 0:  # the double sum is exact: one rounding
        return np.float32(d)
    from fractions import Fraction

    exact = Fraction(p) + Fraction(zf)
    r = np.float32(builtins.float(exact))
    # the double rounding may have missed: take the nearest float32 to the exact value
    best = r
    for c in (np.nextafter(r, np.float32(-np.inf)), np.nextafter(r, np.float32(np.inf))):
        if abs(Fraction(builtins.float(c)) - exact) < abs(Fraction(builtins.float(best)) - exact):
            best = c
    return best


def _i0_fn(single):
    """PyTorch's `calc_i0` (Cephes' Chebyshev expansions) in float32 (`single`) or double, with
    the fused multiply-add PyTorch's CPU build contracts `chbevl`'s step into."""
    import math

    import numpy as np

    if single:
        T, exp, sqrt, fma = np.float32, _expf(), (lambda v: np.sqrt(np.float32(v))), _fma32
    else:
        T, exp, sqrt, fma = builtins.float, math.exp, math.sqrt, _fma64
    A = [T(c) for c in _I0_A]
    B = [T(c) for c in _I0_B]

    def chbevl(x, coeffs):
        b0, b1, b2 = coeffs[0], T(0.0), T(0.0)
        for c in coeffs[1:]:
            b2 = b1
            b1 = b0
            b0 = T(fma(x, b1, -b2) + c)
        return T(T(0.5) * T(b0 - b2))

    def i0(v):
        x = T(abs(v))
        if x <= T(8.0):
            y = T(T(x / T(2.0)) - T(2.0))
            return T(exp(x) * chbevl(y, A))
        return T(T(exp(x) * chbevl(T(T(T(32.0) / x) - T(2.0)), B)) / sqrt(x))

    return T, i0, sqrt, fma


def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None, layout=None, device=None,
                  pin_memory=False, requires_grad=False):
    """The Kaiser window `I0(beta * sqrt(1 - ((n - N/2) / (N/2))^2)) / I0(beta)` (I0 the modified
    Bessel function of order 0, N = window_length - 1); `periodic` (the default) for spectral
    analysis.

    >>> torch.kaiser_window(5, periodic=False, beta=3.0)
    tensor([0.2049, 0.7269, 1.0000, 0.7269, 0.2049])
    """
    torch = _torch()
    n, dtype, device = _window_checks("kaiser_window", window_length, periodic, dtype, device, layout, pin_memory)
    if n <= 1:
        return _short_window(n, dtype, device, requires_grad)
    if periodic:
        n += 1
    single = dtype != torch.float64
    T, i0, sqrt, fma = _i0_fn(single)
    initial = torch.arange(n, dtype=dtype).tolist()  # the arange in the dtype, as PyTorch's
    alpha = T((n - 1) / 2.0)
    b = T(builtins.float(beta))
    denom = i0(b)
    values = []
    for a in initial:
        r = T(T(T(a) - alpha) / alpha)
        # `1 - pow(r, 2)`: a fused multiply-add in PyTorch's build
        values.append(builtins.float(T(i0(T(b * sqrt(T(abs(fma(-r, r, T(1.0))))))) / denom)))
    w = torch.tensor(values, dtype=torch.float32 if single else torch.float64).to(dtype)
    if device is not None and str(device) != "cpu":
        w = w.to(device)
    return _window_result(w[:n - 1] if periodic else w, requires_grad)
