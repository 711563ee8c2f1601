"""Tensor repr formatting, byte-for-byte compatible with PyTorch's ``repr(tensor)`` (SPEC 13).

Owns the print options (``PRINT_OPTS``, ``set_printoptions``, ``get_printoptions``,
``printoptions``), element formatting (int/fixed/sci modes), layout, summarisation and
the ``, dtype=... , grad_fn=<...>`` suffixes. It is pure Python + numpy and knows nothing
about the Tensor class: callers hand over a numpy array plus dtype/autograd metadata.
"""

import contextlib
import dataclasses
import math
from typing import Any, Optional



class _LazyNumpy:
    """numpy is imported on the first repr, not with leafgrad (import time, and numpy's BLAS
    threads)."""

    def __getattr__(self, name):
        import numpy

        globals()["np"] = numpy
        return getattr(numpy, name)


np = _LazyNumpy()

__all__ = [
    "PRINT_OPTS",
    "set_printoptions",
    "get_printoptions",
    "printoptions",
    "format_tensor",
]


@dataclasses.dataclass
class _PrinterOptions:
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: Optional[bool] = None


PRINT_OPTS = _PrinterOptions()

# (precision, threshold, edgeitems, linewidth); torch silently ignores unknown profile names.
_PROFILES = {
    "default": (4, 1000, 3, 80),
    "short": (2, 1000, 2, 80),
    "full": (4, math.inf, 3, 80),
}


def set_printoptions(
    precision=None,
    threshold=None,
    edgeitems=None,
    linewidth=None,
    profile=None,
    sci_mode=None,
):
    """Same semantics as ``torch.set_printoptions``: how tensors print from now on.
    ``profile`` ("default", "short", "full") sets precision, threshold, edgeitems and linewidth
    first; ``sci_mode`` goes back to automatic (None) unless given.

    >>> torch.set_printoptions(precision=2)
    >>> torch.tensor([1.23456, 2.5])
    tensor([1.23, 2.50])
    >>> torch.set_printoptions(threshold=5)
    >>> torch.arange(10)
    tensor([0, 1, 2,  ..., 7, 8, 9])
    >>> torch.set_printoptions(sci_mode=True)
    >>> torch.tensor([1.5, 20.])
    tensor([1.50e+00, 2.00e+01])
    >>> torch.set_printoptions(profile="default")
    >>> torch.tensor([1.23456, 2.5])
    tensor([1.2346, 2.5000])
    """
    if profile is not None and profile in _PROFILES:
        (
            PRINT_OPTS.precision,
            PRINT_OPTS.threshold,
            PRINT_OPTS.edgeitems,
            PRINT_OPTS.linewidth,
        ) = _PROFILES[profile]
    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    # Unlike the other options, torch resets sci_mode on every call.
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions() -> dict[str, Any]:
    """The current print options as a dict (PyTorch has it as
    ``torch._tensor_str.get_printoptions``, not at the top level).

    >>> torch.get_printoptions()
    {'precision': 4, 'threshold': 1000, 'edgeitems': 3, 'linewidth': 80, 'sci_mode': None}
    """
    return dataclasses.asdict(PRINT_OPTS)


@contextlib.contextmanager
def printoptions(**kwargs):
    """``set_printoptions(**kwargs)`` for the duration of a ``with`` block (PyTorch has it as
    ``torch._tensor_str.printoptions``, not at the top level).

    >>> with torch.printoptions(precision=1):
    ...     print(torch.tensor([1.23456, 2.5]))
    tensor([1.2, 2.5])
    >>> torch.tensor([1.23456, 2.5])
    tensor([1.2346, 2.5000])
    """
    old = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**old)


# bfloat16 arrives as float32 already holding bfloat16-rounded values.
_FLOAT_NP = {"float32": "float32", "float64": "float64", "float16": "float16", "bfloat16": "float32"}
_COMPLEX_NP = {"complex64": "complex64", "complex128": "complex128"}
_OTHER_NP = {name: name for name in ("int64", "int32", "int16", "int8", "uint8", "uint16", "uint32", "uint64", "bool")}
_NP_DTYPES = {**_FLOAT_NP, **_COMPLEX_NP, **_OTHER_NP}


# The name of the default float dtype (`torch.get_default_dtype()`), kept here by
# `torch.set_default_dtype` so that this module stays free of the Tensor class.
DEFAULT_FLOAT = "float32"


def _default_float():
    return DEFAULT_FLOAT


def _default_dtypes():
    """The dtypes a repr leaves unsaid: the default float, its complex, int64 and bool."""
    f = _default_float()
    return {f, "complex128" if f == "float64" else "complex64", "int64", "bool"}


class _Formatter:
    """Decides mode and width once, over the flat values that will be shown."""

    def __init__(self, values, floating):
        self.floating = floating
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1

        if not floating:
            for v in values.tolist():
                self.max_width = max(self.max_width, len(str(v)))
            return

        nz = values[np.isfinite(values) & (values != 0)]
        if nz.size == 0:
            # torch returns before consulting PRINT_OPTS.sci_mode, so all-zero/nan/inf
            # tensors stay in int style even with sci_mode=True.
            return

        # Ratios in float64: float16 would overflow at 1e8.
        abs64 = np.abs(nz.astype(np.float64))
        lo, hi = float(abs64.min()), float(abs64.max())
        # ceil is compared in the storage dtype, as torch does.
        self.int_mode = bool(np.all(nz == np.ceil(nz)))
        if PRINT_OPTS.sci_mode is None:
            self.sci_mode = hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4
        else:
            self.sci_mode = PRINT_OPTS.sci_mode

        p = PRINT_OPTS.precision
        if self.sci_mode:
            widths = (len(f"{v:.{p}e}") for v in nz.tolist())
        elif self.int_mode:
            # +1 for the '.' appended to integral floats.
            widths = (len(f"{v:.0f}") + 1 for v in nz.tolist())
        else:
            widths = (len(f"{v:.{p}f}") for v in nz.tolist())
        self.max_width = max(self.max_width, max(widths))

    def width(self):
        return self.max_width

    def format(self, v):
        if self.floating:
            p = PRINT_OPTS.precision
            if self.sci_mode:
                ret = f"{v:{self.max_width}.{p}e}"
            elif self.int_mode:
                ret = f"{v:.0f}"
                if not (math.isinf(v) or math.isnan(v)):
                    ret += "."
            else:
                ret = f"{v:.{p}f}"
        else:
            ret = str(v)
        return (self.max_width - len(ret)) * " " + ret


def _format_element(v, f1, f2):
    if f2 is None:
        return f1.format(v)
    real = f1.format(v.real)
    imag = (f2.format(v.imag) + "j").lstrip()
    # The imag sign (including '-0.') comes from its own formatting.
    if imag[0] in "+-":
        return real + imag
    return real + "+" + imag


def _summarized_flat(a):
    """Flat values of what a summarised print shows (torch's get_summarized_data)."""
    e = PRINT_OPTS.edgeitems
    if a.ndim == 0:
        return a.reshape(-1)
    if a.ndim == 1:
        # With e == 0, a[-0:] is the whole vector, a quirk torch shares.
        return np.concatenate((a[:e], a[-e:])) if a.shape[0] > 2 * e else a
    if not e:
        return a.reshape(-1)[:0]
    n = a.shape[0]
    rows = list(range(e)) + list(range(n - e, n)) if n > 2 * e else range(n)
    return np.concatenate([_summarized_flat(a[i]) for i in rows])


def _vector_str(a, indent, summarize, f1, f2):
    element_length = f1.width() + 2
    if f2 is not None:
        element_length += f2.width() + 1
    per_line = max(1, math.floor((PRINT_OPTS.linewidth - indent) / element_length))
    e = PRINT_OPTS.edgeitems

    def fmt(vals):
        return [_format_element(v, f1, f2) for v in vals.tolist()]

    if summarize and not e:
        data = ["..."]
    elif summarize and a.shape[0] > 2 * e:
        data = fmt(a[:e]) + [" ..."] + fmt(a[-e:])
    else:
        data = fmt(a)
    lines = [", ".join(data[i : i + per_line]) for i in range(0, len(data), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _nested_str(a, indent, summarize, f1, f2):
    if a.ndim == 0:
        return _format_element(a.item(), f1, f2)
    if a.ndim == 1:
        return _vector_str(a, indent, summarize, f1, f2)
    e = PRINT_OPTS.edgeitems
    n = a.shape[0]
    if summarize and n > 2 * e:
        rows = list(range(e)) + [None] + list(range(n - e, n))
    else:
        rows = range(n)
    slices = [
        "..." if i is None else _nested_str(a[i], indent + 1, summarize, f1, f2)
        for i in rows
    ]
    return "[" + ("," + "\n" * (a.ndim - 1) + " " * (indent + 1)).join(slices) + "]"


def _body_str(a, dtype, indent):
    summarize = a.size > PRINT_OPTS.threshold

    def shown(x):
        return _summarized_flat(x) if summarize else x.reshape(-1)

    if dtype in _COMPLEX_NP:
        f1 = _Formatter(shown(a.real), True)
        f2 = _Formatter(shown(a.imag), True)
    else:
        f1, f2 = _Formatter(shown(a), dtype in _FLOAT_NP), None
    return _nested_str(a, indent, summarize, f1, f2)


def _add_suffixes(text, suffixes, indent):
    parts = [text]
    # torch's arithmetic: last line length + 2.
    last_line_len = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def format_meta(shape, dtype, *, grad_fn=None, requires_grad=False, tangent=None) -> str:
    """The repr of a meta tensor (no values): its size always, its dtype unless the default.

    >>> torch._tensor_str.format_meta((2, 3), "int64")
    "tensor(..., device='meta', size=(2, 3), dtype=torch.int64)"
    """
    suffixes = ["device='meta'", "size=" + str(tuple(shape))]
    if dtype != _default_float():
        suffixes.append("dtype=torch." + dtype)
    if grad_fn is not None:
        suffixes.append(f"grad_fn=<{grad_fn}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")
    if tangent is not None:
        suffixes.append(f"tangent={tangent}")
    return _add_suffixes("tensor(...", suffixes, len("tensor("))


def format_tensor(arr, dtype, *, grad_fn=None, requires_grad=False, device=None, tangent=None) -> str:
    """Full repr text, e.g. 'tensor([1., 2.], dtype=torch.float64, grad_fn=<MulBackward0>)'.

    arr: numpy array with the tensor's values and shape (0-d for a 0-d tensor);
    bfloat16 as float32 holding already-rounded values. dtype: leafgrad dtype name
    ('float32', 'int64', 'complex128', ...). grad_fn: class name or None;
    requires_grad is shown only when grad_fn is None. device: None/'cpu' is not shown.
    tangent: a forward-AD tangent, shown as ``tangent=`` formatted with ``{}``.

    >>> import numpy as np
    >>> torch._tensor_str.format_tensor(np.array([1., 2.]), "float64", grad_fn="MulBackward0")
    'tensor([1., 2.], dtype=torch.float64, grad_fn=<MulBackward0>)'
    """
    if dtype not in _NP_DTYPES:
        raise ValueError(f"format_tensor: unknown dtype {dtype!r}")
    a = np.asarray(arr, dtype=_NP_DTYPES[dtype])
    prefix = "tensor("
    indent = len(prefix)
    suffixes = []
    if device is not None and str(device) != "cpu":
        suffixes.append(f"device='{device}'")
    if a.size == 0:
        if a.ndim != 1:
            suffixes.append("size=" + str(tuple(a.shape)))
        # Empty tensors show any dtype other than the default float one.
        if dtype != _default_float():
            suffixes.append("dtype=torch." + dtype)
        body = "[]"
    else:
        if not PRINT_OPTS.edgeitems:
            suffixes.append("size=" + str(tuple(a.shape)))
        if dtype not in _default_dtypes():
            suffixes.append("dtype=torch." + dtype)
        body = _body_str(a, dtype, indent)
    if grad_fn is not None:
        name = grad_fn if isinstance(grad_fn, str) else type(grad_fn).__name__
        suffixes.append(f"grad_fn=<{name}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")
    if tangent is not None:
        suffixes.append(f"tangent={tangent}")
    return _add_suffixes(prefix + body, suffixes, indent)
