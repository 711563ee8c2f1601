"""`torch.fft`: discrete Fourier transforms with PyTorch's argument handling (`n`/`s` padding
with zeros or trimming, `dim`, `norm` "backward"/"forward"/"ortho", dtype promotion) and its
autograd nodes: ATen's three primitives `FftC2CBackward0`, `FftR2CBackward0` and
`FftC2RBackward0` with their backward formulas (derivatives.yaml: the inverse transform,
`fft_r2c_backward`, `fft_c2r_backward`), so gradients of any order and forward-mode AD work.
The transforms are computed on the host by numpy's pocketfft in the input's precision; PyTorch's
CPU build uses MKL's, so results agree to float rounding, not bit for bit.

>>> torch.fft.fft(torch.tensor([1., 2., 3., 4.]))
tensor([10.+0.j, -2.+2.j, -2.+0.j, -2.-2.j])
"""
import builtins
import sys

import numpy as np

from . import _core

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn", "irfftn",
           "hfft", "ihfft", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]


def _torch():
    return sys.modules[__name__.rsplit(".", 1)[0]]


# ---------------------------------------------------------------------------------- host side
# ATen's normalization: 0 none, 1 by 1/sqrt(n), 2 by 1/n
def _np_norm(norm, forward):
    if norm == 1:
        return "ortho"
    return ("backward" if forward else "forward") if norm == 0 else ("forward" if forward else "backward")


def _host(t):
    from ._linalg_lapack import host

    return host(t)


def _make(arr, dtype, device):
    from ._linalg_lapack import make

    return make(arr, dtype, device)


def _complex_of(dtype):
    torch = _torch()
    return torch.complex128 if dtype in (torch.float64, torch.complex128) else torch.complex64


def _real_of(dtype):
    torch = _torch()
    return torch.float64 if dtype in (torch.float64, torch.complex128) else torch.float32


def _c2c_host(a, dims, norm, forward):
    f = np.fft.fftn if forward else np.fft.ifftn
    return f(a, axes=dims, norm=_np_norm(norm, forward)) if dims else a.copy()


def _r2c_host(a, dims, norm, onesided):
    if onesided:
        return np.fft.rfftn(a, axes=dims, norm=_np_norm(norm, True))
    return np.fft.fftn(a, axes=dims, norm=_np_norm(norm, True))


def _c2r_host(a, dims, norm, last_size):
    s = [a.shape[d] for d in dims[:-1]] + [last_size]
    return np.fft.irfftn(a, s=s, axes=dims, norm=_np_norm(norm, False))


# ------------------------------------------------------------------------------ the three nodes
_NODES = {}


def _node(key):
    if not _NODES:
        _define()
    return _NODES[key]


def _define():
    from ._linalg_host import _node_repr
    from .autograd.function import Function

    def make_node(node_name, forward, backward, jvp):
        attrs = {"_node_name": node_name, "generate_vmap_rule": True, "forward": staticmethod(forward),
                 "backward": staticmethod(backward), "jvp": staticmethod(jvp)}
        cls = type(node_name[:-len("Backward0")], (Function,), attrs)
        cls._backward_cls.__repr__ = _node_repr
        return cls

    def c2c_forward(ctx, x, dims, norm, forward):
        ctx.params = (dims, norm, forward)
        return _make(_c2c_host(_host(x), dims, norm, forward), x.dtype, x.device)

    def c2c_backward(ctx, g):
        dims, norm, forward = ctx.params
        return _c2c(g, dims, norm, not forward), None, None, None

    def c2c_jvp(ctx, t, *_):
        dims, norm, forward = ctx.params
        return _c2c(t, dims, norm, forward)

    def r2c_forward(ctx, x, dims, norm, onesided):
        ctx.params = (dims, norm, onesided, x.shape[dims[-1]])
        return _make(_r2c_host(_host(x), dims, norm, onesided), _complex_of(x.dtype), x.device)

    def r2c_backward(ctx, g):
        # ATen's fft_r2c_backward: the onesided half padded with zeros to the full length, then
        # the real part of the inverse transform (unnormalised as the forward was)
        dims, norm, onesided, last = ctx.params
        if onesided and g.shape[dims[-1]] < last:
            shape = list(g.shape)
            shape[dims[-1]] = last
            full = _torch().zeros(shape, dtype=g.dtype, device=g.device)
            full.narrow(dims[-1], 0, g.shape[dims[-1]]).copy_(g)
            g = full
        return _torch().real(_c2c(g, dims, norm, False)), None, None, None

    def r2c_jvp(ctx, t, *_):
        dims, norm, onesided, _last = ctx.params
        return _r2c(t, dims, norm, onesided)

    def c2r_forward(ctx, x, dims, norm, last_size):
        ctx.params = (dims, norm, last_size)
        return _make(_c2r_host(_host(x), dims, norm, last_size), _real_of(x.dtype), x.device)

    def c2r_backward(ctx, g):
        # ATen's fft_c2r_backward: the onesided transform of the gradient, the entries that
        # stand for two conjugate ones doubled
        dims, norm, _last = ctx.params
        gi = _r2c(g, dims, norm, True)
        double = g.shape[dims[-1]] - gi.shape[dims[-1]]
        if double > 0:
            gi = gi.clone()
            gi.narrow(dims[-1], 1, double).mul_(2)
        return gi, None, None, None

    def c2r_jvp(ctx, t, *_):
        dims, norm, last_size = ctx.params
        return _c2r(t, dims, norm, last_size)

    _NODES["c2c"] = make_node("FftC2CBackward0", c2c_forward, c2c_backward, c2c_jvp)
    _NODES["r2c"] = make_node("FftR2CBackward0", r2c_forward, r2c_backward, r2c_jvp)
    _NODES["c2r"] = make_node("FftC2RBackward0", c2r_forward, c2r_backward, c2r_jvp)


def _c2c(x, dims, norm, forward):
    return _node("c2c").apply(x, tuple(dims), norm, forward)


def _r2c(x, dims, norm, onesided):
    return _node("r2c").apply(x, tuple(dims), norm, onesided)


def _c2r(x, dims, norm, last_size):
    return _node("c2r").apply(x, tuple(dims), norm, last_size)


# ------------------------------------------------------------------------- argument handling
def _norm_mode(norm, forward):
    if norm is None or norm == "backward":
        return 0 if forward else 2
    if norm == "forward":
        return 2 if forward else 0
    if norm == "ortho":
        return 1
    raise RuntimeError(f'Invalid normalization mode: "{norm}"')


def _check_tensor(fname, x):
    if not isinstance(x, _core.Tensor):
        raise TypeError(f"fft_{fname}(): argument 'input' (position 1) must be Tensor, not {type(x).__name__}")


def _promote(fname, x, require_complex=False, require_real=False):
    """ATen's promote_tensor_fft: integers to the default float dtype; half precision refused."""
    from ._gather import _scalar_name

    torch = _torch()
    name = _scalar_name(x.dtype)
    if x.dtype in (torch.float16, torch.bfloat16):
        raise NotImplementedError(f"Unsupported dtype {name}")
    if require_real and x.is_complex():
        raise TypeError(f"{fname} expects a real input tensor, but got {name}")
    if not (x.is_floating_point() or x.is_complex()):
        x = x.to(torch.get_default_dtype())
    if require_complex and not x.is_complex():
        x = x.to(_complex_of(x.dtype))
    return x


def _wrap(d, ndim, fname="fft"):
    if isinstance(d, builtins.bool) or not isinstance(d, builtins.int):
        raise TypeError(f"fft_{fname}(): argument 'dim' must be int, not {type(d).__name__}")
    if ndim == 0:
        raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")
    if not -ndim <= d < ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got {d})")
    return d % ndim


def _resize(x, dims, sizes):
    """Pad with zeros at the end (ConstantPadNdBackward0) or trim (SliceBackward0) each dim."""
    torch = _torch()
    pads = [0] * (2 * x.dim())
    pad = False
    for d, n in zip(dims, sizes):
        if n == -1:
            continue
        if n < x.shape[d]:
            x = x[(slice(None),) * d + (slice(0, n),)]
        elif n > x.shape[d]:
            pads[2 * (x.dim() - 1 - d) + 1] = n - x.shape[d]
            pad = True
    if pad:
        x = torch.nn.functional.pad(x, pads)
    return x


def _check_n(n):
    if n is not None and n < 1:
        raise RuntimeError(f"Invalid number of data points ({n}) specified")


def _dims_and_shape(x, s, dim):
    """ATen's canonicalize_fft_shape_and_dim_args."""
    if dim is not None:
        dims = [dim] if isinstance(dim, builtins.int) else list(dim)
        dims = [_wrap(d, x.dim()) for d in dims]
        if len(set(dims)) != len(dims):
            raise RuntimeError("FFT dims must be unique")
    if s is not None:
        s = list(s)
        if dim is not None and len(dims) != len(s):
            raise RuntimeError("When given, dim and shape arguments must have the same length")
        if len(s) > x.dim():
            raise RuntimeError(f"Got shape with {len(s)} values but input tensor only has {x.dim()} dimensions.")
        if dim is None:
            dims = list(range(x.dim() - len(s), x.dim()))
        for n in s:
            if n != -1:
                _check_n(n)
        shape = [x.shape[d] if n == -1 else n for d, n in zip(dims, s)]
    else:
        if dim is None:
            dims = list(range(x.dim()))
        shape = [x.shape[d] for d in dims]
    return dims, shape


# ------------------------------------------------------------------------------ the functions
def _c2c_n(fname, x, s, dim, norm, forward):
    _check_tensor(fname, x)
    x = _promote(fname, x, require_complex=True)
    dims, shape = _dims_and_shape(x, s, dim)
    x = _resize(x, dims, shape)
    return _c2c(x, dims, _norm_mode(norm, forward), forward)


def fft(input, n=None, dim=-1, norm=None):
    """The one-dimensional discrete Fourier transform along `dim` (`n` points: zero-padded or
    trimmed). A real input is transformed as real (FftR2CBackward0, both halves).

    >>> torch.fft.fft(torch.tensor([1., 2., 3., 4.]), n=2)
    tensor([ 3.+0.j, -1.+0.j])
    """
    _check_tensor("fft", input)
    x = _promote("fft", input)
    _check_n(n)
    d = _wrap(dim, x.dim(), "fft")
    x = _resize(x, [d], [n if n is not None else -1])
    if x.is_complex():
        return _c2c(x, [d], _norm_mode(norm, True), True)
    return _r2c(x, [d], _norm_mode(norm, True), False)


def ifft(input, n=None, dim=-1, norm=None):
    """The one-dimensional inverse discrete Fourier transform along `dim`.

    >>> torch.fft.ifft(torch.tensor([10.+0j, -2+2j, -2+0j, -2-2j]))
    tensor([1.+0.j, 2.+0.j, 3.+0.j, 4.+0.j])
    """
    _check_tensor("ifft", input)
    x = _promote("ifft", input)
    _check_n(n)
    d = _wrap(dim, x.dim(), "ifft")
    x = _resize(x, [d], [n if n is not None else -1])
    if x.is_complex():
        return _c2c(x, [d], _norm_mode(norm, False), False)
    # a real input: the conjugate of its forward transform, normalised as the inverse
    return _r2c(x, [d], _norm_mode(norm, False), False).conj()


def fftn(input, s=None, dim=None, norm=None):
    """The n-dimensional discrete Fourier transform over `dim` (all dims by default, or the last
    len(s)), each of size `s`.

    >>> torch.fft.fftn(torch.ones(2, 2))
    tensor([[4.+0.j, 0.+0.j],
            [0.+0.j, 0.+0.j]])
    """
    return _c2c_n("fftn", input, s, dim, norm, True)


def ifftn(input, s=None, dim=None, norm=None):
    """The n-dimensional inverse discrete Fourier transform (see `fftn`).

    >>> torch.fft.ifftn(torch.ones(2, 2))
    tensor([[1.+0.j, 0.+0.j],
            [0.+0.j, 0.+0.j]])
    """
    return _c2c_n("ifftn", input, s, dim, norm, False)


def fft2(input, s=None, dim=(-2, -1), norm=None):
    """The two-dimensional discrete Fourier transform (`fftn` over the last two dims).

    >>> torch.fft.fft2(torch.ones(2, 2))
    tensor([[4.+0.j, 0.+0.j],
            [0.+0.j, 0.+0.j]])
    """
    return _c2c_n("fft2", input, s, dim, norm, True)


def ifft2(input, s=None, dim=(-2, -1), norm=None):
    """The two-dimensional inverse discrete Fourier transform.

    >>> torch.fft.ifft2(torch.ones(2, 2))
    tensor([[1.+0.j, 0.+0.j],
            [0.+0.j, 0.+0.j]])
    """
    return _c2c_n("ifft2", input, s, dim, norm, False)


def _r2c_n(fname, x, s, dim, norm, forward):
    _check_tensor(fname, x)
    x = _promote(fname, x, require_real=True)
    dims, shape = _dims_and_shape(x, s, dim)
    if not dims:
        raise RuntimeError(f"{fname} must transform at least one axis")
    x = _resize(x, dims, shape)
    out = _r2c(x, dims, _norm_mode(norm, forward), True)
    return out if forward else out.conj()


def rfft(input, n=None, dim=-1, norm=None):
    """The transform of a real signal along `dim`: the n // 2 + 1 non-negative frequencies.

    >>> torch.fft.rfft(torch.tensor([1., 2., 3., 4.]))
    tensor([10.+0.j, -2.+2.j, -2.+0.j])
    """
    _check_n(n)
    return _r2c_n("rfft", input, None if n is None else [n], [dim], norm, True)


def rfftn(input, s=None, dim=None, norm=None):
    """The n-dimensional transform of a real signal, onesided in the last transformed dim.

    >>> torch.fft.rfftn(torch.ones(2, 2))
    tensor([[4.+0.j, 0.+0.j],
            [0.+0.j, 0.+0.j]])
    """
    return _r2c_n("rfftn", input, s, dim, norm, True)


def rfft2(input, s=None, dim=(-2, -1), norm=None):
    """The two-dimensional transform of a real signal (`rfftn` over the last two dims).

    >>> torch.fft.rfft2(torch.ones(2, 2))
    tensor([[4.+0.j, 0.+0.j],
            [0.+0.j, 0.+0.j]])
    """
    return _r2c_n("rfft2", input, s, dim, norm, True)


def ihfft(input, n=None, dim=-1, norm=None):
    """The inverse of `hfft`: the onesided inverse transform of a real signal (conjugated
    forward transform, normalised as an inverse).

    >>> torch.fft.ihfft(torch.tensor([4., 0., 0., 0.]))
    tensor([1.-0.j, 1.-0.j, 1.-0.j])
    """
    _check_n(n)
    return _r2c_n("ihfft", input, None if n is None else [n], [dim], norm, False)


def _c2r_n(fname, x, s, dim, norm, forward):
    """ATen's fft_c2r: the input trimmed or padded to last // 2 + 1 in the last dim."""
    _check_tensor(fname, x)
    x = _promote(fname, x, require_complex=True)
    dims, shape = _dims_and_shape(x, s, dim)
    if not dims:
        raise RuntimeError(f"{fname} must transform at least one axis")
    last = shape[-1] if s is not None and s[-1] != -1 else 2 * (x.shape[dims[-1]] - 1)
    if last < 1:
        raise RuntimeError(f"Invalid number of data points ({last}) specified")
    shape[-1] = last // 2 + 1
    x = _resize(x, dims, shape)
    if forward:
        x = x.conj()
    return _c2r(x, dims, _norm_mode(norm, forward), last)


def irfft(input, n=None, dim=-1, norm=None):
    """The inverse of `rfft`: a real signal of `n` points (2 (m - 1) by default) from its m
    non-negative frequencies.

    >>> torch.fft.irfft(torch.tensor([10.+0j, -2.+2j, -2.+0j]))
    tensor([1., 2., 3., 4.])
    """
    _check_n(n)
    return _c2r_n("irfft", input, None if n is None else [n], [dim], norm, False)


def irfftn(input, s=None, dim=None, norm=None):
    """The inverse of `rfftn`.

    >>> torch.fft.irfftn(torch.tensor([[4.+0j, 0j], [0j, 0j]]))
    tensor([[1., 1.],
            [1., 1.]])
    """
    return _c2r_n("irfftn", input, s, dim, norm, False)


def irfft2(input, s=None, dim=(-2, -1), norm=None):
    """The inverse of `rfft2`.

    >>> torch.fft.irfft2(torch.tensor([[4.+0j, 0j], [0j, 0j]]))
    tensor([[1., 1.],
            [1., 1.]])
    """
    return _c2r_n("irfft2", input, s, dim, norm, False)


def hfft(input, n=None, dim=-1, norm=None):
    """The transform of a Hermitian-symmetric signal given by its first half: a real spectrum
    of `n` points.

    >>> torch.fft.hfft(torch.tensor([1.+0j, 0.+0j, 0.+0j]))
    tensor([1., 1., 1., 1.])
    """
    _check_n(n)
    return _c2r_n("hfft", input, None if n is None else [n], [dim], norm, True)


def _freq_dtype(name, dtype):
    torch = _torch()
    dtype = dtype or torch.get_default_dtype()
    if not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError(f"{name} requires a floating point or complex dtype")
    return dtype


def fftfreq(n, d=1.0, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """The sample frequencies of an `n`-point transform with spacing `d`: [0, 1, ..., -(n // 2),
    ..., -1] / (d n).

    >>> torch.fft.fftfreq(4)
    tensor([ 0.0000,  0.2500, -0.5000, -0.2500])
    """
    torch = _torch()
    dtype = _freq_dtype("fftfreq", dtype)
    r = torch.arange(n, dtype=dtype, device=device)
    r[(n + 1) // 2:] = torch.arange(-(n // 2), 0, dtype=dtype, device=device)
    if n:
        r.mul_(1.0 / (n * d))
    if out is not None:
        out.resize_(r.shape).copy_(r)
        r = out
    return r.requires_grad_(requires_grad)


def rfftfreq(n, d=1.0, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """The sample frequencies of `rfft`: [0, 1, ..., n // 2] / (d n).

    >>> torch.fft.rfftfreq(4)
    tensor([0.0000, 0.2500, 0.5000])
    """
    torch = _torch()
    dtype = _freq_dtype("rfftfreq", dtype)
    r = torch.arange(n // 2 + 1, dtype=dtype, device=device)
    if n:
        r.mul_(1.0 / (n * d))
    if out is not None:
        out.resize_(r.shape).copy_(r)
        r = out
    return r.requires_grad_(requires_grad)


def _shift(x, dim, inverse):
    if dim is None:
        dims = list(range(x.dim()))
    else:
        dims = [dim] if isinstance(dim, builtins.int) else list(dim)
        dims = [_wrap(d, x.dim()) for d in dims]
    shifts = [(x.shape[d] + 1) // 2 if inverse else x.shape[d] // 2 for d in dims]
    return _torch().roll(x, shifts, dims)


def fftshift(input, dim=None):
    """The zero frequency moved to the middle (a roll by size // 2 of each of `dim`, all by
    default).

    >>> torch.fft.fftshift(torch.fft.fftfreq(4))
    tensor([-0.5000, -0.2500,  0.0000,  0.2500])
    """
    return _shift(input, dim, False)


def ifftshift(input, dim=None):
    """The inverse of `fftshift` (a roll by (size + 1) // 2).

    >>> torch.fft.ifftshift(torch.fft.fftshift(torch.arange(5)))
    tensor([0, 1, 2, 3, 4])
    """
    return _shift(input, dim, True)
