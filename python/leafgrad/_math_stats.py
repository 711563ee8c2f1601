"""Reductions, statistics and integration that leafgrad lacked: `nansum`/`nanmean`, `dist`,
`cov`/`corrcoef` and the trapezoid rules (`trapezoid`, `trapz`, `cumulative_trapezoid`). Where
PyTorch composes them of other ops (`nanmean`, `cov`, `corrcoef`, the trapezoid rules) they are
composed of leafgrad's ops the same way, so the graph is PyTorch's; `nansum` and `dist` record one
node with PyTorch's name (NansumBackward0, DistBackward0)."""
import builtins

from . import _core
from ._core import Tensor
from ._dtypes import shell_check as _shell_check
from ._op_helpers import _torch, _scalar_name, _check_tensor, _invalid, _with_out, _result_dtype, _install

__all__ = [
    "nansum", "nanmean", "dist", "cov", "corrcoef", "trapezoid", "trapz", "cumulative_trapezoid",
]


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
    return _core._composite("DistBackward0", lambda a, b: torch.linalg.vector_norm(a - b, p), [input, other],
                            saved=["self", "other"], result=True)


def dist(input, other, p=2):
    """The p-norm of `input - other` (broadcast) (DistBackward0).

    >>> torch.dist(torch.tensor([1., 2., 3.]), torch.tensor([1., 0., 0.]))
    tensor(3.6056)
    >>> torch.dist(torch.tensor([1., 2., 3.]), torch.tensor([1., 0., 0.]), 1)
    tensor(5.)
    """
    return _dist(input, other, p)


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
    return _core._composite("MulBackward1", lambda x: x * s, [t], [0])


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


# Tensor methods: PyTorch's name -> the function here (those with `input` first serve as methods
# as they are).
_METHODS = {
    "nansum": nansum, "nanmean": nanmean, "dist": dist, "cov": cov, "corrcoef": corrcoef,
}

_install(_METHODS)
