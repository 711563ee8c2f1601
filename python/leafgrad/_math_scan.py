"""`torch.cummax`, `cummin`, `logcumsumexp`, `quantile`, `nanquantile` and `mode`, composed of
leafgrad's ops: the scans and `mode` record PyTorch's one node (`CummaxBackward0`,
`CumminBackward0`, `LogcumsumexpBackward0`, `ModeBackward0`: `_core._composite`, whose backward
differentiates the composition); `quantile` is composed as PyTorch composes it (sort, gather,
lerp), so its graph is PyTorch's."""
import math

from ._dtypes import shell_check as _shell_check
from . import _core
from ._core import Tensor
from ._math_extra import _SCALAR_NAMES as _EXTRA_NAMES, _named_result

_SCALAR_NAMES = dict(_EXTRA_NAMES, int64="Long", int32="Int", int16="Short", int8="Char", uint8="Byte")

__all__ = ["cummax", "cummin", "logcumsumexp", "quantile", "nanquantile", "mode"]

_cummax = _named_result("cummax", ["values", "indices"])
_cummin = _named_result("cummin", ["values", "indices"])
_mode = _named_result("mode", ["values", "indices"])
_OUT_TYPES = {name: _named_result(f"{name}_out", ["values", "indices"]) for name in ("cummax", "cummin", "mode")}


def _torch():
    import leafgrad

    return leafgrad


def _check_tensor(fn, name, pos, value):
    if not isinstance(value, Tensor):
        raise TypeError(f"{fn}(): argument '{name}' (position {pos}) must be Tensor, not {type(value).__name__}")


def _wrap_dim(dim, nd, fn=None):
    if fn is not None and not isinstance(dim, int):
        raise TypeError(f"{fn}(): argument 'dim' must be int, not {type(dim).__name__}")
    n = max(nd, 1)
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim % n


def _host(t):
    """`t`'s values as a numpy array (bool as int8, the 16-bit floats as float64)."""
    import numpy as np

    name = t.dtype._name
    if name == "bool":
        return np.array(t.detach().cpu().tolist(), dtype=np.int8).reshape(tuple(t.shape))
    return np.array(t.detach().cpu().tolist()).reshape(tuple(t.shape))


def _gathered(name, input, dim, idx):
    """One `name` node over `input` whose value is `input.gather(dim, idx)`."""
    if input.dim() == 0:
        return _core._composite(name, lambda x: x.reshape(1).gather(0, idx.reshape(1)).reshape(()), [input])
    return _core._composite(name, lambda x: x.gather(dim, idx), [input])


def _cum_extreme(fn, input, dim, larger):
    import numpy as np

    _check_tensor(fn, "input", 1, input)
    d = _wrap_dim(dim, input.dim(), fn)
    if input.dtype.is_complex:
        raise NotImplementedError(f'"{fn}_cpu" not implemented for \'{_SCALAR_NAMES.get(input.dtype._name, input.dtype._name)}\'')
    torch = _torch()
    a = np.moveaxis(_host(input).reshape(tuple(input.shape) or (1,)), d, -1)
    idx = np.zeros(a.shape, dtype=np.int64)
    if a.size:
        out = a[..., 0].copy()
        cur_i = np.zeros(a.shape[:-1], dtype=np.int64)
        for i in range(a.shape[-1]):
            cur = a[..., i]
            with np.errstate(invalid="ignore"):
                better = cur >= out if larger else cur <= out
            if a.dtype.kind == "f":
                take = np.isnan(cur) | (~np.isnan(out) & better)
            else:
                take = better
            out = np.where(take, cur, out)
            cur_i = np.where(take, i, cur_i)
            idx[..., i] = cur_i
    idx = np.moveaxis(idx, -1, d).reshape(tuple(input.shape))
    index = torch.tensor(idx.tolist(), dtype=torch.int64, device=input.device).reshape(tuple(input.shape))
    values = _gathered("CummaxBackward0" if larger else "CumminBackward0", input, d, index)
    return (_cummax if larger else _cummin)(values, index)


def cummax(input, dim, *, out=None):
    """The running maximum along `dim` and the index where each was found (a later equal
    value takes over; a NaN, once seen, is the maximum from then on).

    >>> torch.cummax(torch.tensor([1., 3., 2., 3., 5.]), 0)
    torch.return_types.cummax(
    values=tensor([1., 3., 3., 3., 5.]),
    indices=tensor([0, 1, 1, 3, 4]))
    """
    _shell_check(input, "cummax_cpu")
    r = _cum_extreme("cummax", input, dim, True)
    return _into(r, out)


def cummin(input, dim, *, out=None):
    """The running minimum along `dim` and the index where each was found (a later equal
    value takes over; a NaN, once seen, is the minimum from then on).

    >>> torch.cummin(torch.tensor([4., 2., 3., 2., 1.]), 0)
    torch.return_types.cummin(
    values=tensor([4., 2., 2., 2., 1.]),
    indices=tensor([0, 1, 1, 3, 4]))
    """
    _shell_check(input, "cummin_cpu")
    r = _cum_extreme("cummin", input, dim, False)
    return _into(r, out)


def _into(r, out):
    if out is None:
        return r
    for o, v in zip(out, r):
        o.resize_(v.shape).copy_(v)
    return _OUT_TYPES[type(r).__name__](*out)


def logcumsumexp(input, dim, *, out=None):
    """`log(cumsum(exp(input)))` along `dim`, computed stably (LogcumsumexpBackward0).

    >>> torch.logcumsumexp(torch.tensor([0., 0., 0., 0.]), 0)
    tensor([0.0000, 0.6931, 1.0986, 1.3863])
    """
    _check_tensor("logcumsumexp", "input", 1, input)
    d = _wrap_dim(dim, input.dim())
    if input.dtype.is_complex:
        raise NotImplementedError("logcumsumexp: complex inputs are not supported by leafgrad")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"logcumsumexp_out_cpu" not implemented for \'{_SCALAR_NAMES.get(input.dtype._name, input.dtype._name)}\'')
    fn_cls = _logcumsumexp_function()
    r = _core._composite("LogcumsumexpBackward0", lambda x: fn_cls.apply(x, d), [input], saved=["self"], result=True)
    if out is not None:
        return out.resize_(r.shape).copy_(r)
    return r


def _lcse_host(t, d):
    """PyTorch's CPU kernel: a running `log1p(exp(min - max)) + max`, in the input's dtype
    (the 16-bit floats in float32), along `d`; a tensor without history."""
    import numpy as np

    torch = _torch()
    shape = tuple(t.shape)
    np_dtype = np.float64 if t.dtype._name == "float64" else np.float32
    a = np.moveaxis(np.array(t.detach().cpu().tolist(), dtype=np_dtype).reshape(shape or (1,)), d, -1)
    out = np.empty_like(a)
    if a.size:
        acc = np.full(a.shape[:-1], -np.inf, dtype=np_dtype)
        with np.errstate(all="ignore"):
            for i in range(a.shape[-1]):
                y = a[..., i]
                lo = np.where(np.isnan(y), y, np.minimum(acc, y))
                hi = np.where(np.isnan(y), y, np.maximum(acc, y))
                general = (lo != hi) | np.isfinite(lo)
                step = np.log1p(np.exp(lo.astype(np.float64) - hi)) + hi  # rounded once to the dtype
                acc = np.where(general, step, acc).astype(np_dtype)
                out[..., i] = acc
    out = np.moveaxis(out, -1, d).reshape(shape)
    return torch.tensor(out.tolist(), dtype=t.dtype, device=t.device).reshape(shape)


_LCSE_FUNCTION = []


def _logcumsumexp_function():
    """An autograd Function with PyTorch's kernel values and `logcumsumexp_backward`."""
    if _LCSE_FUNCTION:
        return _LCSE_FUNCTION[0]
    from .autograd import Function

    class _LogcumsumexpFn(Function):
        @staticmethod
        def forward(ctx, x, d):
            r = _lcse_host(x, d)
            ctx.save_for_backward(x, r)
            ctx.d = d
            return r

        @staticmethod
        def backward(ctx, grad):
            torch = _torch()
            x, result = ctx.saved_tensors
            d = ctx.d
            if grad.dim() == 0 or grad.numel() == 0:
                return grad, None
            lowest = torch.finfo(grad.dtype).min
            low = torch.full_like(grad, lowest)
            log_abs = grad.abs().log()
            pos = torch.where(grad > 0, log_abs, low)
            neg = torch.where(grad < 0, log_abs, low)

            def rev(t):
                return _lcse_host(t.flip(d), d).flip(d)

            return (rev(pos - result) + x).exp() - (rev(neg - result) + x).exp(), None

    _LCSE_FUNCTION.append(_LogcumsumexpFn)
    return _LogcumsumexpFn


_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile(fn, input, q, dim, keepdim, interpolation, ignore_nan, out):
    torch = _torch()
    _check_tensor(fn, "input", 1, input)
    scalar_q = not isinstance(q, Tensor)
    if scalar_q:
        qv = float(q)
        if not 0 <= qv <= 1:
            raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {q}")
    if input.numel() == 0:
        raise RuntimeError("quantile() input tensor must be non-empty")
    if not scalar_q and q.dim() > 1:
        raise RuntimeError("quantile() q must be a scalar or 1D tensor")
    if input.dtype._name not in ("float32", "float64"):
        raise RuntimeError("quantile() input tensor must be either float or double dtype")
    if scalar_q:
        q = torch.tensor(qv, dtype=input.dtype, device=input.device)
    elif q.dtype != input.dtype:
        raise RuntimeError("quantile() q tensor must be same dtype as the input tensor")
    elif q.device != input.device:
        raise RuntimeError("quantile() q tensor must be on the same device as the input tensor")
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError("quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, "
                           f"but got {interpolation}")
    nd = input.dim()
    wdim = _wrap_dim(0 if dim is None else dim, nd)
    out_shape = []
    if dim is not None and nd > 0:
        out_shape = list(input.shape)
        if keepdim:
            out_shape[wdim] = 1
        else:
            del out_shape[wdim]
    elif keepdim:
        out_shape = [1] * nd
    if q.dim() > 0:
        out_shape.insert(0, q.numel())
    if input.device.type == "cpu" and not bool(((q >= 0) & (q <= 1)).all()):
        raise RuntimeError("quantile() q values must be in the range [0, 1]")
    if dim is None:
        s = input.flatten().sort()[0]
    elif wdim == nd - 1:
        s = input.sort()[0]
    else:
        s = input.unsqueeze(-1).transpose(wdim, -1).sort()[0]
    if q.dim() == 0:
        out_shape.insert(0, q.numel())
    in_shape = out_shape[1:] + [0]
    in_shape[-1] = s.shape[-1]
    s = s.view(in_shape)
    if s.shape[-1] > 2 ** 24:
        raise RuntimeError("quantile() input tensor is too large")
    # the ranks in double (PyTorch 2.15's weights are `q * n - below` rounded once to the dtype)
    q = q.to(torch.float64)
    if ignore_nan:
        ranks = q * (s.isnan().logical_not().sum(-1, True) - 1)
        ranks.masked_fill_(ranks < 0, 0)
    else:
        last = s.shape[-1] - 1
        a, b = torch.broadcast_tensors(q * last, s.isnan().any(-1, True))
        ranks = a.masked_fill(b, last)
    if interpolation == "lower":
        ranks.floor_()
    elif interpolation == "higher":
        ranks.ceil_()
    elif interpolation == "nearest":
        ranks.round_()
    below = ranks.to(torch.int64)
    values = s.gather(-1, below)
    if interpolation in ("linear", "midpoint"):
        weights = torch.full_like(ranks, 0.5) if interpolation == "midpoint" else ranks - below
        weights = weights.to(s.dtype)
        above = ranks.ceil_().to(torch.int64)
        values.lerp_(s.gather(-1, above), weights)
    if q.dim() == 0:
        values.squeeze_(-1)
    else:
        values.unsqueeze_(0).transpose_(0, -1).squeeze_(-1)
    if out is not None:
        return out.resize_(values.shape).copy_(values)
    return values


def quantile(input, q, dim=None, keepdim=False, *, interpolation="linear", out=None):
    """The `q`-th quantiles of `input` (all of it, or along `dim`), as PyTorch computes them:
    sorted, then interpolated between the neighbouring ranks; a NaN in a slice gives NaN.

    >>> torch.quantile(torch.tensor([[0., 1., 2., 3.], [4., 6., 5., 7.]]), 0.5, dim=1)
    tensor([1.5000, 5.5000])
    >>> torch.quantile(torch.tensor([1., 2., 3., 4.]), torch.tensor([0.25, 0.5]), interpolation='lower')
    tensor([1., 2.])
    """
    return _quantile("quantile", input, q, dim, keepdim, interpolation, False, out)


def nanquantile(input, q, dim=None, keepdim=False, *, interpolation="linear", out=None):
    """`quantile` ignoring NaNs (a slice of only NaNs gives NaN).

    >>> torch.nanquantile(torch.tensor([1., float('nan'), 3., 2.]), 0.5)
    tensor(2.)
    """
    return _quantile("nanquantile", input, q, dim, keepdim, interpolation, True, out)


def _std_sort(a):
    """libstdc++'s `std::sort` of (value, index) pairs by value with `<` (introsort, then
    insertion sort), as PyTorch's CPU mode kernel sorts: equal values (and NaNs) end up in
    the order it leaves them, which decides the index `mode` returns. (The heapsort fallback
    of a too-deep recursion is replaced by a stable sort.)"""
    n = len(a)

    def less(x, y):
        return x[0] < y[0]

    def linear_insert(i):
        val = a[i]
        j = i - 1
        while j >= 0 and less(val, a[j]):
            a[i] = a[j]
            i, j = j, j - 1
        a[i] = val

    def insertion_sort(first, last):
        for i in range(first + 1, last):
            if less(a[i], a[first]):
                val = a[i]
                a[first + 1:i + 1] = a[first:i]
                a[first] = val
            else:
                linear_insert(i)

    def partition(first, last, pivot):
        while True:
            while first < n and less(a[first], a[pivot]):
                first += 1
            last -= 1
            while last >= 0 and less(a[pivot], a[last]):
                last -= 1
            if not first < last:
                return first
            a[first], a[last] = a[last], a[first]
            first += 1

    def median_to_first(result, x, y, z):
        if less(a[x], a[y]):
            if less(a[y], a[z]):
                m = y
            elif less(a[x], a[z]):
                m = z
            else:
                m = x
        elif less(a[x], a[z]):
            m = x
        elif less(a[y], a[z]):
            m = z
        else:
            m = y
        a[result], a[m] = a[m], a[result]

    def introsort(first, last, depth):
        while last - first > 16:
            if depth == 0:
                a[first:last] = sorted(a[first:last], key=lambda e: e[0])
                return
            depth -= 1
            median_to_first(first, first + 1, first + (last - first) // 2, last - 1)
            cut = partition(first + 1, last, first)
            introsort(cut, last, depth)
            last = cut

    if n:
        introsort(0, n, 2 * (n.bit_length() - 1))
        if n > 16:
            insertion_sort(0, 16)
            for i in range(16, n):
                linear_insert(i)
        else:
            insertion_sort(0, n)
    return a


def mode(input, dim=-1, keepdim=False, *, out=None):
    """The most frequent value along `dim` (the smallest among equally frequent ones) and
    the index of one of its occurrences, the one PyTorch's CPU kernel picks (the last one for
    slices of up to 16 elements) (ModeBackward0).

    >>> torch.mode(torch.tensor([[1, 2, 2, 1, 3], [5, 5, 4, 4, 5]]), 1)
    torch.return_types.mode(
    values=tensor([1, 5]),
    indices=tensor([3, 4]))
    """
    _shell_check(input, "mode_cpu")
    import numpy as np

    _check_tensor("mode", "input", 1, input)
    d = _wrap_dim(dim, input.dim())
    if input.dtype.is_complex:
        raise NotImplementedError(f'"mode_cpu" not implemented for \'{_SCALAR_NAMES.get(input.dtype._name, input.dtype._name)}\'')
    torch = _torch()
    shape = tuple(input.shape)
    if input.dim() > 0 and shape[d] == 0 and input.numel() == 0 and math.prod(shape[:d] + shape[d + 1:]) > 0:
        raise IndexError(f"mode(): Expected reduction dim {d} to have non-zero size.")
    a = np.moveaxis(_host(input).reshape(shape or (1,)), d, -1)
    rows = a.reshape(-1, a.shape[-1]) if a.size else np.zeros((0, 1))
    picked = []
    for row in rows:
        elements = _std_sort([(v, k) for k, v in enumerate(row.tolist())])
        vals = [v for v, _ in elements]
        best_f, best_i, run = 0, 0, 0
        for i in range(len(vals)):
            run += 1
            if i == len(vals) - 1 or vals[i] != vals[i + 1]:
                if run > best_f:
                    best_f, best_i = run, elements[i][1]
                run = 0
        picked.append(best_i)
    kept = a.shape[:-1] + (1,)
    idx = np.array(picked, dtype=np.int64).reshape(kept)
    idx = np.moveaxis(idx, -1, d).reshape(tuple(1 if i == d else s for i, s in enumerate(shape)))
    index = torch.tensor(idx.tolist(), dtype=torch.int64, device=input.device).reshape(
        tuple(1 if i == d else s for i, s in enumerate(shape)))
    if keepdim or input.dim() == 0:
        values = _gathered("ModeBackward0", input, d, index)
    else:
        kept_index = index
        values = _core._composite("ModeBackward0", lambda x: x.gather(d, kept_index).squeeze(d), [input])
        index = index.squeeze(d)
    r = _mode(values, index)
    return _into(r, out)
