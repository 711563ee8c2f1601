"""The regularized incomplete gamma functions: `torch.igamma(a, x)` = P(a, x) and
`torch.igammac(a, x)` = Q(a, x) = 1 - P(a, x), also `torch.special.gammainc` / `gammaincc`, the
Tensor methods `igamma`, `igammac` and in-place `igamma_`, `igammac_`, with `out=`.

Values: PyTorch's `calc_igamma` / `calc_igammac` (SciPy's `igam`/`igamc`: Cephes's series and
continued fraction, Temme's uniform asymptotic expansion for large `a` near `x`, Boost's Lanczos
approximation of the prefactor), vectorised with numpy on the host in the dtype's own precision
(float32 for float32, float16 and bfloat16, which PyTorch computes in float32; float64 for float64),
with PyTorch's boundary values (NaN outside a, x >= 0; P(0, x > 0) = 1, P(a, 0) = 0, P(a, inf) = 1,
P(inf, x) = 0). CUDA operands are computed on the host and copied back. The values agree with
PyTorch's to a few ulps; where P or Q is tiny, both carry the rounding of `a log x - lgamma(a)`
(hundreds of ulps apart there; PyTorch's own kernel differs between CPUs with and without FMA).

Gradient: one node, IgammaBackward0 / IgammacBackward0, with PyTorch's derivative with respect to
`x` (`±exp((a - 1) log x - x - lgamma(a))`, written with leafgrad ops so it differentiates again).
PyTorch has no derivative with respect to `a`: a backward pass that needs it raises PyTorch's
NotImplementedError ("the derivative for 'igamma: input' is not implemented."), and one that only
needs `x`'s gradient (`autograd.grad(y, x)`) does not."""
import math

import numpy as np

from . import _core
from ._op_helpers import (
    _check_tensor, _custom, _from_host, _host_array, _inplace, _install, _result_dtype, _torch,
)
from ._special_gamma_table import D as _D

__all__ = ["igamma", "igammac"]

# ------------------------------------------------------------------------------------------------
# Host kernels (numpy arrays of one float dtype, 1-D): PyTorch's Math.h, branch by branch.

_MACHEP = {np.float32: 5.9604644775390625e-8, np.float64: 1.11022302462515654042e-16}
_MAXLOG = {np.float32: 88.72283905206835, np.float64: 7.09782712893383996843e2}
_BIG = {np.float32: 16777216.0, np.float64: 4.503599627370496e15}
_BIGINV = {np.float32: 5.9604644775390625e-8, np.float64: 2.22044604925031308085e-16}
_MAXITER = 2000
_LANCZOS_G = 6.024680040776729583740234375
_LANCZOS_NUM = (
    0.006061842346248906525783753964555936883222, 0.5098416655656676188125178644804694509993,
    19.51992788247617482847860966235652136208, 449.9445569063168119446858607650988409623,
    6955.999602515376140356310115515198987526, 75999.29304014542649875303443598909137092,
    601859.6171681098786670226533699352302507, 3481712.15498064590882071018964774556468,
    14605578.08768506808414169982791359218571, 43338889.32467613834773723740590533316085,
    86363131.28813859145546927288977868422342, 103794043.1163445451906271053616070238554,
    56906521.91347156388090791033559122686859,
)
_LANCZOS_DENOM = (1., 66., 1925., 32670., 357423., 2637558., 13339535., 45995730., 105258076., 150917976.,
                  120543840., 39916800., 0.)
_PI_F = float(np.float32(math.pi))  # PyTorch's asymptotic series divides by sqrt(2 * pi<float> * a)


def _leaf_unary(name, arr):
    """leafgrad's own `lgamma` / `erfc` of a numpy array, in its dtype (numpy has neither)."""
    t = _core.from_numpy(np.ascontiguousarray(arr))
    return getattr(t, name)().numpy()


def _lanczos_sum_expg_scaled(a):
    """Boost's rational Lanczos sum (`ratevl`): Horner in x for |x| <= 1, in 1/x above."""
    dt = a.dtype.type
    num, den = np.array(_LANCZOS_NUM, dt), np.array(_LANCZOS_DENOM, dt)
    big = np.abs(a) > 1
    y = np.where(big, dt(1) / np.where(big, a, dt(1)), a)
    n_fwd, d_fwd = np.full_like(a, num[0]), np.full_like(a, den[0])
    n_rev, d_rev = np.full_like(a, num[-1]), np.full_like(a, den[-1])
    for i in range(1, len(num)):
        n_fwd, n_rev = n_fwd * y + num[i], n_rev * y + num[-1 - i]
        d_fwd, d_rev = d_fwd * y + den[i], d_rev * y + den[-1 - i]
    return np.where(big, n_rev / d_rev, n_fwd / d_fwd)


def _fac(a, x):
    """x^a e^-x / Gamma(a) (`_igam_helper_fac`): directly when a and x are far apart, else with
    the Lanczos approximation (Maddock's corrected (15), (16))."""
    dt = a.dtype.type
    out = np.empty_like(a)
    far = np.abs(a - x).astype(np.float64) > 0.4 * np.abs(a).astype(np.float64)
    af, xf = a[far], x[far]
    ax = af * np.log(xf) - xf - _leaf_unary("lgamma", af)
    out[far] = np.where(ax < -dt(_MAXLOG[dt]), dt(0), np.exp(ax))
    near = ~far
    an, xn = a[near], x[near]
    g = dt(_LANCZOS_G)
    fac = (an + g) - dt(0.5)
    res = np.sqrt(fac / dt(math.e)) / _lanczos_sum_expg_scaled(an)
    small = (an < 200) & (xn < 200)
    res[small] = res[small] * (np.exp(an[small] - xn[small]) * np.power(xn[small] / fac[small], an[small]))
    large = ~small
    if large.any():
        al, xl, fl = an[large], xn[large], fac[large]
        numfac = ((xl - al - g) + dt(0.5)) / fl
        e = (al * (np.log1p(numfac) - numfac)).astype(np.float64) + \
            xl.astype(np.float64) * (0.5 - float(g)) / fl.astype(np.float64)
        res[large] = (res[large].astype(np.float64) * np.exp(e)).astype(dt)
    out[near] = res
    return out


def _igam_series(a, x):
    """P(a, x) by its power series (DLMF 8.11.4)."""
    dt = a.dtype.type
    eps = dt(_MACHEP[dt])
    ax = _fac(a, x)
    r, c, ans = a.copy(), np.ones_like(a), np.ones_like(a)
    live = np.flatnonzero(ax != 0)
    for _ in range(_MAXITER):
        if live.size == 0:
            break
        r[live] += dt(1)
        c[live] *= x[live] / r[live]
        ans[live] += c[live]
        live = live[~(c[live] <= eps * ans[live])]
    return np.where(ax == 0, dt(0), ans * ax / a)


def _igamc_series(a, x):
    """Q(a, x) for small x (DLMF 8.7.3), summed so as to avoid cancellation."""
    dt = a.dtype.type
    eps = dt(_MACHEP[dt])
    fac, total = np.ones_like(a), np.zeros_like(a)
    live = np.arange(a.size)
    for n in range(1, _MAXITER):
        if live.size == 0:
            break
        fac[live] *= -x[live] / dt(n)
        term = fac[live] / (a[live] + dt(n))
        total[live] += term
        live = live[~(np.abs(term) <= eps * np.abs(total[live]))]
    logx = np.log(x)
    head = -np.expm1(a * logx - _leaf_unary("lgamma", a + dt(1)))
    return head - np.exp(a * logx - _leaf_unary("lgamma", a)) * total


def _igamc_fraction(a, x):
    """Q(a, x) by its continued fraction (DLMF 8.9.2), rescaled as Cephes rescales it."""
    dt = a.dtype.type
    eps, big, biginv = dt(_MACHEP[dt]), dt(_BIG[dt]), dt(_BIGINV[dt])
    ax = _fac(a, x)
    y = dt(1) - a
    z = x + y + dt(1)
    c = np.zeros_like(a)
    pkm2, qkm2, pkm1 = np.ones_like(a), x.copy(), x + dt(1)
    qkm1 = z * x
    ans = pkm1 / qkm1
    live = np.flatnonzero(ax != 0)
    for _ in range(_MAXITER):
        if live.size == 0:
            break
        c[live] += dt(1)
        y[live] += dt(1)
        z[live] += dt(2)
        yc = y[live] * c[live]
        pk = pkm1[live] * z[live] - pkm2[live] * yc
        qk = qkm1[live] * z[live] - qkm2[live] * yc
        nz = qk != 0
        r = np.where(nz, pk / np.where(nz, qk, dt(1)), ans[live])
        t = np.where(nz, np.abs((ans[live] - r) / r), dt(1))
        ans[live] = r
        pkm2[live], pkm1[live], qkm2[live], qkm1[live] = pkm1[live], pk, qkm1[live], qk
        huge = live[np.abs(pk) > big]
        for arr in (pkm2, pkm1, qkm2, qkm1):
            arr[huge] *= biginv
        live = live[~(t <= eps)]
    return np.where(ax == 0, dt(0), ans * ax)


def _asymptotic(a, x, lower):
    """P (lower) or Q by Temme's uniform asymptotic expansion (DLMF 8.12.3 / 8.12.4)."""
    dt = a.dtype.type
    eps = dt(_MACHEP[dt])
    d = np.array(_D, dtype=dt)
    sgn = -1 if lower else 1
    lam = x / a
    sigma = (x - a) / a
    root = np.sqrt(dt(-2) * (np.log1p(sigma) - sigma))
    eta = np.where(lam > 1, root, np.where(lam < 1, -root, dt(0))).astype(dt)
    res = dt(0.5) * _leaf_unary("erfc", dt(sgn) * eta * np.sqrt(a / dt(2)))
    etapow = np.ones((a.size, 25), dtype=dt)
    for n in range(1, 25):
        etapow[:, n] = eta * etapow[:, n - 1]
    total, afac = np.zeros_like(a), np.ones_like(a)
    absold = np.full_like(a, np.inf)
    live = np.ones(a.size, dtype=bool)
    for k in range(25):
        ck = np.full_like(a, d[k][0])
        inner = live.copy()
        for n in range(1, 25):
            term = d[k][n] * etapow[:, n]
            ck = np.where(inner, ck + term, ck)
            inner &= ~(np.abs(term) < eps * np.abs(ck))
        term = ck * afac
        absterm = np.abs(term)
        live &= ~(absterm > absold)
        total = np.where(live, total + term, total)
        live &= ~(absterm < eps * np.abs(total))
        absold = np.where(live, absterm, absold)
        afac = np.where(live, afac / a, afac)
        if not live.any():
            break
    a64, eta64 = a.astype(np.float64), eta.astype(np.float64)
    if dt is np.float32:
        denom = np.sqrt(dt(2 * _PI_F) * a).astype(np.float64)
    else:
        denom = np.sqrt(2 * _PI_F * a64)
    tail = sgn * np.exp(-0.5 * a64 * eta64 * eta64) * total.astype(np.float64) / denom
    return (res.astype(np.float64) + tail).astype(dt)


def _igam(a, x, lower):
    """P(a, x) (`lower`) or Q(a, x) elementwise, PyTorch's choice of method for each element."""
    dt = a.dtype.type
    out = np.full_like(a, np.nan)
    todo = ~((x < 0) | (a < 0))
    at0 = todo & (a == 0)
    out[at0] = np.where(x[at0] > 0, dt(1 if lower else 0), dt(np.nan))
    todo &= ~at0
    x0 = todo & (x == 0)
    out[x0] = dt(0 if lower else 1)
    todo &= ~x0
    ainf = todo & np.isinf(a)
    out[ainf] = np.where(np.isinf(x[ainf]), dt(np.nan), dt(0 if lower else 1))
    todo &= ~ainf
    xinf = todo & np.isinf(x)
    out[xinf] = dt(1 if lower else 0)
    todo &= ~(xinf | np.isnan(a) | np.isnan(x))
    rel = np.where(todo, np.abs(x - a) / np.where(todo, a, dt(1)), dt(np.inf))
    asym = todo & (((a > 20) & (a < 200) & (rel < dt(0.3))) |
                   ((a > 200) & (rel < dt(4.5) / np.sqrt(np.where(todo, a, dt(1))))))
    if asym.any():
        out[asym] = _asymptotic(a[asym], x[asym], lower)
    todo &= ~asym
    x64, a64 = x.astype(np.float64), a.astype(np.float64)
    with np.errstate(divide="ignore"):
        small_x_series = -0.4 / np.log(np.where(todo & (x <= 0.5), x, dt(0.5))).astype(np.float64) < a64
    if lower:
        # P = 1 - Q where x > max(1, a): Q by its fraction (x > 1.1) or its small-x series
        upper = todo & (x > 1) & (x > a)
        frac = upper & (x64 > 1.1)
        ser = upper & ~frac
        plain = todo & ~upper
        parts = ((frac, _igamc_fraction, True), (ser, _igamc_series, True), (plain, _igam_series, False))
    else:
        big_x = todo & (x64 > 1.1)
        mid_x = todo & ~big_x & (x > 0.5)
        low_x = todo & (x <= 0.5)
        via_p = (big_x & (x < a)) | (low_x & small_x_series) | (mid_x & (x64 * 1.1 < a64))
        frac = big_x & ~via_p
        ser = (low_x | mid_x) & ~via_p
        parts = ((via_p, _igam_series, True), (frac, _igamc_fraction, False), (ser, _igamc_series, False))
    with np.errstate(all="ignore"):
        for mask, kernel, complement in parts:
            if mask.any():
                v = kernel(a[mask], x[mask])
                out[mask] = dt(1) - v if complement else v
    return out


def _host_igamma(a, x, lower):
    """P or Q of two same-shaped float arrays (float32 or float64)."""
    shape = a.shape
    with np.errstate(all="ignore"):
        r = _igam(np.ascontiguousarray(a).reshape(-1), np.ascontiguousarray(x).reshape(-1), lower)
    return r.reshape(shape)


# ------------------------------------------------------------------------------------------------
# The ops


# PyTorch has no forward-mode formula for either function
_NO_FORWARD_AD = ("Trying to use forward AD with {} that does not support it because it has not been "
                  "implemented yet.\nPlease file an issue to PyTorch at https://github.com/pytorch/pytorch/issues/new?"
                  "template=feature-request.yml so that we can prioritize its implementation or submit a PR adding "
                  "the implementation to derivatives.yaml")


def _not_implemented_alias(t, what):
    """`t` seen through a node whose backward raises PyTorch's NotImplementedError for `what`:
    only a backward pass that needs `t`'s gradient runs it."""
    alias = t.detach()
    _core._no_derivative(t, alias, "NotImplemented", what)
    return alias


def _compute(fname, kernel, input, other):
    torch = _torch()
    _check_tensor(fname, "input", 1, input)
    _check_tensor(fname, "other", 2, other)
    dt = _result_dtype(input, other)
    if not dt.is_floating_point:
        raise NotImplementedError(f"\"{kernel}_cpu\" not implemented for '{dt._scalar_name}'")
    lower = kernel == "igamma"
    node = "IgammaBackward0" if lower else "IgammacBackward0"
    sign = 1.0 if lower else -1.0

    def exact(a, x):
        av, xv = torch.broadcast_tensors(a.detach().to(dt), x.detach().to(dt))
        if av.is_meta or xv.is_meta:
            return torch.empty(tuple(av.shape), dtype=dt, device="meta")
        work = np.float64 if dt is torch.float64 else np.float32
        r = _host_igamma(_host_array(av).astype(work), _host_array(xv).astype(work), lower)
        return _from_host(r, dt, av.device)

    def backward(g, a, x):
        from ._math_binary import _sum_to

        av, xv = a.to(dt), x.to(dt)
        gx = g * (sign * ((av - 1) * xv.log() - xv - av.lgamma()).exp())
        ga = g.new_zeros(()).expand(tuple(a.shape)) if a.requires_grad else None
        return ga, (_sum_to(gx, tuple(x.shape)) if x.requires_grad else None)

    if any(_core._unpack_dual(t)[1] is not None for t in (input, other)):
        raise NotImplementedError(_NO_FORWARD_AD.format(kernel))
    if not (_core.is_grad_enabled() and (input.requires_grad or other.requires_grad)):
        return exact(input, other)
    a = _not_implemented_alias(input, f"{kernel}: input") if input.requires_grad else input
    return _custom(node, exact, backward, [a, other])


def _with_out(fname, grad, compute, inputs, out):
    if out is None:
        return compute()
    from . import _out

    return _out.write(fname, _out.Spec(grad, _out.CAST), compute, _out.tensors(inputs), out)


def igamma(input, other, *, out=None):
    """The regularized lower incomplete gamma function P(input, other) =
    γ(input, other) / Γ(input), elementwise with broadcasting, in the promoted float dtype
    (IgammaBackward0: a gradient for `other` only).

    >>> torch.igamma(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 2.0, 0.5]))
    tensor([0.6321, 0.5940, 0.0144])
    """
    return _with_out("igamma", "igamma", lambda: _compute("igamma", "igamma", input, other), (input, other), out)


def igammac(input, other, *, out=None):
    """The regularized upper incomplete gamma function Q(input, other) =
    Γ(input, other) / Γ(input) = 1 - P(input, other), elementwise with broadcasting
    (IgammacBackward0: a gradient for `other` only).

    >>> torch.igammac(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 2.0, 0.5]))
    tensor([0.3679, 0.4060, 0.9856])
    """
    return _with_out("igammac", "igammac", lambda: _compute("igammac", "igammac", input, other), (input, other),
                     out)


def _special_gammainc(input, other, out=None):
    """`torch.special.gammainc` (its errors name `special_gammainc`)."""
    return _with_out("special_gammainc", "igamma", lambda: _compute("special_gammainc", "igamma", input, other),
                     (input, other), out)


def _special_gammaincc(input, other, out=None):
    """`torch.special.gammaincc` (its errors name `special_gammaincc`)."""
    return _with_out("special_gammaincc", "igammac", lambda: _compute("special_gammaincc", "igammac", input, other),
                     (input, other), out)


def _igamma_method(self, other):
    """`torch.igamma(self, other)`.

    >>> torch.tensor([2.0]).igamma(torch.tensor([1.0]))
    tensor([0.2642])
    """
    _check_tensor("igamma", "other", 1, other)
    return _compute("igamma", "igamma", self, other)


def _igammac_method(self, other):
    """`torch.igammac(self, other)`.

    >>> torch.tensor([2.0]).igammac(torch.tensor([1.0]))
    tensor([0.7358])
    """
    _check_tensor("igammac", "other", 1, other)
    return _compute("igammac", "igammac", self, other)


def _igamma_(self, other):
    """`torch.igamma(self, other)` written into `self`.

    >>> a = torch.tensor([1.0, 2.0])
    >>> a.igamma_(torch.tensor([1.0, 1.0]))
    tensor([0.6321, 0.2642])
    """
    _check_tensor("igamma_", "other", 1, other)
    return _inplace(self, lambda s: _compute("igamma", "igamma", s, other), other)


def _igammac_(self, other):
    """`torch.igammac(self, other)` written into `self`.

    >>> a = torch.tensor([1.0, 2.0])
    >>> a.igammac_(torch.tensor([1.0, 1.0]))
    tensor([0.3679, 0.7358])
    """
    _check_tensor("igammac_", "other", 1, other)
    return _inplace(self, lambda s: _compute("igammac", "igammac", s, other), other)


_install({"igamma": _igamma_method, "igammac": _igammac_method, "igamma_": _igamma_, "igammac_": _igammac_})
