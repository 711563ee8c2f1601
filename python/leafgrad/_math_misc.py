"""Constructors and small ops that leafgrad lacked: `diagflat`, `fliplr`/`flipud`,
`block_diag`, `combinations`, `unravel_index`, the deprecated `range`, `scalar_tensor`, `rsub`,
`polar` and `gradient`. Where PyTorch composes them of other ops (`diagflat`, the flips, `combinations`,
`unravel_index`) they are composed of leafgrad's ops the same way, so the graph is PyTorch's;
`block_diag`, `rsub` and `polar` record one node with PyTorch's name (BlockDiagBackward0,
RsubBackward0/1, PolarBackward0)."""
import builtins
import math

from . import _core
from ._core import Tensor
from ._op_helpers import (
    _NUMBER, _torch, _scalar_name, _check_tensor, _invalid, _with_out, _result_dtype, _check_alpha, _install,
)

__all__ = [
    "diagflat", "fliplr", "flipud", "block_diag", "combinations", "unravel_index", "range", "scalar_tensor",
    "rsub", "polar", "gradient",
]


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

    return _core._composite("BlockDiagBackward0", f, list(tensors), list(builtins.range(len(tensors))))


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
    from ._layout import _factory_options

    _factory_options("scalar_tensor", layout, pin_memory, device=device)
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

        return _core._composite("RsubBackward0", f, [input, other], [0, 1])
    dt = _result_dtype(input, other)
    o = torch.tensor(other, dtype=dt, device=input.device)

    def g(a):
        return torch.sub(o, a, alpha=alpha) if alpha != 1 else torch.sub(o, a)

    return _core._composite("RsubBackward1", g, [input], [0])


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


# Tensor methods: PyTorch's name -> the function here (those with `input` first serve as methods
# as they are).
_METHODS = {
    "diagflat": diagflat, "fliplr": fliplr, "flipud": flipud,
}

_install(_METHODS)


# ----------------------------------------------------------------------------------------------
# gradient


def _gradient_checks(input, spacing_size, given, dims, edge_order):
    """PyTorch's checks of `torch.gradient`'s arguments (`given`: the dims as passed, or None)."""
    if input.dtype is _torch().uint8:
        raise NotImplementedError("torch.gradient does not support uint8 input.")
    if spacing_size is not None and given is None and spacing_size != input.dim():
        raise RuntimeError("torch.gradient expected spacing to be unspecified, a scalar, or a list of length equal "
                           f"to 'self.dim() = {input.dim()}', since dim argument was not given, but got a list of "
                           f"length {spacing_size}")
    if spacing_size is not None and given is not None and spacing_size != len(given):
        raise RuntimeError("torch.gradient expected spacing to be unspecified, a scalar or it's spacing and dim "
                           f"arguments to have the same length, but got a spacing argument of length {spacing_size} "
                           f"and a dim argument of length {len(given)}.")
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    seen = set()
    for d in dims:
        if d in seen:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        seen.add(d)
    for d in dims:
        if input.shape[d] < edge_order + 1:
            raise RuntimeError("torch.gradient expected each dimension size to be at least edge_order+1")


def _gradient_uniform(f, d, h, edge_order):
    """One direction with a uniform spacing `h` (PyTorch's gradient_helper_float)."""
    n = f.shape[d]
    center = (f.narrow(d, 2, n - 2) - f.narrow(d, 0, n - 2)) / h
    if edge_order == 1:
        prepend = (f.narrow(d, 1, 1) - f.narrow(d, 0, 1)) / h
        append = (f.narrow(d, n - 1, 1) - f.narrow(d, n - 2, 1)) / h
    else:
        prepend = (-1.5 * f.narrow(d, 0, 1) + 2 * f.narrow(d, 1, 1) - 0.5 * f.narrow(d, 2, 1)) / h
        append = (0.5 * f.narrow(d, n - 3, 1) - 2 * f.narrow(d, n - 2, 1) + 1.5 * f.narrow(d, n - 1, 1)) / h
    return _torch().cat([prepend, center / 2, append], d)


def _gradient_coordinates(f, d, x, edge_order):
    """One direction with sample coordinates `x` (a 1-D tensor; PyTorch's gradient_helper)."""
    if x.dim() != 1:
        raise RuntimeError("torch.gradient expected each element of spacing to have one dimension, but got an "
                           f"element with {x.dim()} dimensions!")
    n = f.shape[d]
    shape = [1] * f.dim()
    shape[d] = -1
    dx = x.diff(1, 0)
    dx1, dx2 = dx[:-1], dx[1:]
    a = (-dx2 / (dx1 * (dx1 + dx2))).reshape(shape)
    b = ((dx2 - dx1) / (dx1 * dx2)).reshape(shape)
    c = (dx1 / (dx2 * (dx1 + dx2))).reshape(shape)
    center = a * f.narrow(d, 0, n - 2) + b * f.narrow(d, 1, n - 2) + c * f.narrow(d, 2, n - 2)
    if edge_order == 1:
        prepend = (f.narrow(d, 1, 1) - f.narrow(d, 0, 1)) / dx[0]
        append = (f.narrow(d, n - 1, 1) - f.narrow(d, n - 2, 1)) / dx[-1]
    else:
        a = -(2.0 * dx[0] + dx[1]) / (dx[0] * (dx[0] + dx[1]))
        b = (dx[0] + dx[1]) / (dx[0] * dx[1])
        c = (-dx[0]) / (dx[1] * (dx[0] + dx[1]))
        prepend = a * f.narrow(d, 0, 1) + b * f.narrow(d, 1, 1) + c * f.narrow(d, 2, 1)
        a = dx[-1] / (dx[-2] * (dx[-1] + dx[-2]))
        b = -(dx[-1] + dx[-2]) / (dx[-1] * dx[-2])
        c = (2 * dx[-1] + dx[-2]) / (dx[-1] * (dx[-1] + dx[-2]))
        append = a * f.narrow(d, n - 3, 1) + b * f.narrow(d, n - 2, 1) + c * f.narrow(d, n - 1, 1)
    return _torch().cat([prepend, center, append], d)


def gradient(input, *, spacing=1, dim=None, edge_order=1):
    """Estimates of the derivative of a sampled function along each dim (or `dim`), by central
    differences inside and one-sided ones of order `edge_order` (1 or 2) at the ends. `spacing`
    is a step (for every dim), a list of steps, or a list of 1-D tensors of sample coordinates.
    A tuple of tensors, one per dim; differentiable (composed of leafgrad ops as PyTorch's).

    >>> torch.gradient(torch.tensor([1., 4., 9., 16.]))
    (tensor([3., 4., 6., 7.]),)
    >>> torch.gradient(torch.tensor([1., 4., 9.]), spacing=(torch.tensor([0., 1., 3.]),))
    (tensor([3.0000, 2.8333, 2.5000]),)
    """
    _check_tensor("gradient", "input", 1, input)
    if isinstance(dim, int):
        given = [dim]
    elif dim is None:
        given = None
    else:
        given = list(dim)
    dims = [_wrap(d, input.dim()) for d in given] if given is not None else list(builtins.range(input.dim()))
    if isinstance(spacing, (list, tuple)):
        steps = list(spacing)
        if steps and not isinstance(steps[0], _NUMBER):
            for k, c in enumerate(steps):
                if not isinstance(c, Tensor):
                    raise TypeError(f"expected Tensor as element {k} in argument 1, but got {type(c).__name__}")
                if c.device != input.device:
                    raise RuntimeError("torch.gradient expected each tensor to be on the same device, but got devices "
                                       f"{input.device} and {c.device}!")
            _gradient_checks(input, len(steps), given, dims, edge_order)
            return tuple(_gradient_coordinates(input, d, c, edge_order) for d, c in zip(dims, steps))
        _gradient_checks(input, len(steps), given, dims, edge_order)
    else:
        if isinstance(spacing, Tensor):
            spacing = spacing.item()
        _gradient_checks(input, None, given, dims, edge_order)
        steps = [spacing] * len(dims)
    return tuple(_gradient_uniform(input, d, h, edge_order) for d, h in zip(dims, steps))


def _wrap(d, n):
    if not -n <= d < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})")
    return d + n if d < 0 else d
