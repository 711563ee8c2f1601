"""`interpolate(antialias=True)` (bilinear, bicubic, lanczos; 4-d): PyTorch's separable
antialiased resampling. Each output pixel along an axis is a normalised weighted sum of the input
pixels in a window, the filter stretched by the scale when downsampling; the two axes' weight
matrices are applied as matmuls inside one node with PyTorch's name
(Upsample{Bilinear,Bicubic,Lanczos}2DAaBackward0)."""
import math

from .. import _core
from .._layout import channels_last as _channels_last
from ._functional_resample import _check_sizes, _not_implemented_for, _scale_value

# antialiased resampling: each filter as a function of the distance in (stretched) input pixels,
# and its half width
def _aa_triangle(x):
    return max(0.0, 1.0 - abs(x))


def _aa_cubic(x, a=-0.5):
    x = abs(x)
    if x < 1.0:
        return ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0
    if x < 2.0:
        return (((x - 5.0) * x + 8.0) * x - 4.0) * a
    return 0.0


def _aa_lanczos(x, a=3):
    if x == 0.0:
        return 1.0
    if not -a < x < a:
        return 0.0
    px = math.pi * x
    return a * math.sin(px) * math.sin(px / a) / (px * px)


_AA_FILTERS = {"bilinear": (_aa_triangle, 1.0), "bicubic": (_aa_cubic, 2.0), "lanczos": (_aa_lanczos, 3.0)}


def _aa_matrix(in_size, out_size, scale_factor, align_corners, mode):
    """The (out_size, in_size) float64 weights of one axis of an antialiased resize: output i
    is centred on input coordinate c = scale * (i + 0.5) (scale = in / out, 1 / scale_factor, or
    (in - 1) / (out - 1) with align_corners); when downsampling (scale > 1) the filter is
    stretched by the scale, and each row holds the filter at the pixel centres j + 0.5 of the
    window [int(c - support + 0.5), int(c + support + 0.5)) clipped to the input, normalised to
    sum to 1."""
    if align_corners:
        scale = (in_size - 1) / (out_size - 1) if out_size > 1 else 0.0
    else:
        scale = _scale_value(scale_factor, in_size, out_size, lambda v: v)
    f, half = _AA_FILTERS[mode]
    support, inv = (half * scale, 1.0 / scale) if scale >= 1.0 else (half, 1.0)
    rows = []
    for i in range(out_size):
        centre = scale * (i + 0.5)
        lo = max(int(centre - support + 0.5), 0)
        hi = min(int(centre + support + 0.5), in_size)
        w = [f((j - centre + 0.5) * inv) for j in range(lo, hi)]
        total = 0.0
        for v in w:
            total += v
        row = [0.0] * in_size
        for j, v in zip(range(lo, hi), w):
            row[j] = v / total if total != 0.0 else v
        rows.append(row)
    return rows


class _AaResize:
    """One antialiased resize: the weights `wh` (out_h, in_h) and `ww` (out_w, in_w) and the
    nodes that apply them. PyTorch's forward copies an axis whose size does not change, but its
    backward applies that axis's weights all the same (they are not the identity when a
    scale_factor gave the size), and the derivative of its backward with respect to the output
    gradient is the forward again (as is its forward-mode derivative). So the forward node
    (Upsample*2DAaBackward0) differentiates, when its backward re-runs it, a Function whose
    backward is the transposed resize, itself a node (Upsample*2DAaBackwardBackward0) whose
    re-run's Function differentiates back to the forward node."""

    def __init__(self, wh, ww, changes, name):
        self.wh, self.ww, self.changes, self.name = wh, ww, changes, name

    def apply(self, x):
        """The forward: wh @ x @ ww.T, width first, an axis that keeps its size copied."""
        y = x
        if self.changes[1]:
            y = y @ self.ww.t()
        if self.changes[0]:
            y = self.wh @ y
        return x.clone() if y is x else y

    def apply_transposed(self, g):
        """The backward: wh.T @ g @ ww, with every axis's weights."""
        return self.wh.t() @ (g @ self.ww)

    def node(self, x, layout=None):
        calls = []

        def fn(x):
            if calls:  # the backward's re-run
                return _AaForward.apply(x, self)
            calls.append(None)
            y = self.apply(x)
            return y if layout is None else y.contiguous(memory_format=layout)

        return _core._composite(self.name, fn, [x])

    def node_transposed(self, g):
        calls = []

        def fn(g):
            if calls:
                return _AaTransposed.apply(g, self)
            calls.append(None)
            return self.apply_transposed(g)

        return _core._composite(self.name[:-1] + "Backward0", fn, [g])


def _aa_functions():
    """The two Functions of `_AaResize` (defined on first use: leafgrad.autograd imports nn)."""
    from ..autograd.function import Function

    class AaForward(Function):
        @staticmethod
        def forward(ctx, x, resize):
            ctx.resize = resize
            return resize.apply(x)

        @staticmethod
        def backward(ctx, g):
            if _core.is_grad_enabled():
                return ctx.resize.node_transposed(g), None
            return ctx.resize.apply_transposed(g), None

    class AaTransposed(Function):
        @staticmethod
        def forward(ctx, g, resize):
            ctx.resize = resize
            return resize.apply_transposed(g)

        @staticmethod
        def backward(ctx, v):
            if _core.is_grad_enabled():
                return ctx.resize.node(v), None
            return ctx.resize.apply(v), None

    return AaForward, AaTransposed


_AaForward = _AaTransposed = None


def _upsample_aa(input, output_size, scale_factors, mode, align_corners):
    """interpolate(antialias=True), 4-d: separable, a matmul with each axis's weights, recorded
    as PyTorch's one node (Upsample{Bilinear,Bicubic,Lanczos}2DAaBackward0)."""
    global _AaForward, _AaTransposed
    from .._factories import tensor

    in_sizes = [input.size(2), input.size(3)]
    if output_size is None:
        output_size = [int(in_sizes[i] * scale_factors[i]) for i in range(2)]
    scales = scale_factors if scale_factors is not None else [None, None]
    _check_sizes(input, in_sizes, output_size)
    if input.dtype not in (_core.float32, _core.float64):
        raise _not_implemented_for("compute_index_ranges_weights", input.dtype)
    wh, ww = (tensor(_aa_matrix(in_sizes[i], output_size[i], scales[i], align_corners, mode), dtype=input.dtype,
                     device=input.device).reshape(output_size[i], in_sizes[i]) for i in range(2))
    if _AaForward is None:
        _AaForward, _AaTransposed = _aa_functions()
    name = {"bilinear": "UpsampleBilinear2DAaBackward0", "bicubic": "UpsampleBicubic2DAaBackward0",
            "lanczos": "UpsampleLanczos2DAaBackward0"}[mode]
    resize = _AaResize(wh, ww, [in_sizes[i] != output_size[i] for i in range(2)], name)
    channels_last = input.is_contiguous(memory_format=_channels_last) and not input.is_contiguous()
    return resize.node(input, _channels_last if channels_last else None)
