"""`torch.nn.functional`'s padding, resampling and rearranging functions (pad, interpolate,
pixel/channel shuffles); bilinear, rrelu, the channel-wise and alpha dropouts and fold/unfold are
in `_functional_misc`, on this module's helpers.

They are composed of leafgrad ops (views, cat, index_select, index_add, matmul, the generator's
draws). Where PyTorch records one node for the op, the composition runs inside
`_core._composite(name, fn, inputs)`, which records that one node; its backward re-runs `fn`
and differentiates it (so create_graph works). Index maps are computed in Python with PyTorch's
float32 arithmetic for float32 inputs, so nearest modes pick the same source elements."""
import math
import struct
import warnings

from .. import _core
from .._core import Tensor
from .._gather import _scalar_name

__all__ = [
    "pad", "interpolate", "upsample", "upsample_nearest", "upsample_bilinear", "pixel_shuffle", "pixel_unshuffle",
    "channel_shuffle", "native_channel_shuffle",
]

# ---------------------------------------------------------------------------------------------
# helpers


def _index(values, device):
    """An int64 index tensor holding `values`."""
    from .._factories import tensor

    return tensor(list(values), dtype=_core.int64, device=device)


def _weights(values, like, dtype):
    """A 1-d tensor of `values` in `dtype` on `like`'s device."""
    from .._factories import tensor

    return tensor(list(values), dtype=dtype, device=like.device)


def _opmath(dtype):
    """The dtype PyTorch's CPU kernels compute in (float32 for half and bfloat16)."""
    return _core.float32 if dtype in (_core.float16, _core.bfloat16) else dtype


def _f32(v):
    """`v` rounded to float32 (PyTorch computes the index maps of float32 inputs in float)."""
    return struct.unpack("f", struct.pack("f", v))[0]


def _rounder(dtype):
    """float32 rounding for inputs whose opmath type is float, the identity for float64."""
    return (lambda v: v) if dtype == _core.float64 else _f32


def _along(t, dim, start, end):
    """t[..., start:end, ...] on `dim` (a view, as ATen's slice)."""
    return t[(slice(None),) * dim + (slice(start, end),)]


def _bcast(w, dim, ndim):
    """A 1-d weight tensor shaped to broadcast along `dim` of an `ndim`-d tensor."""
    return w.reshape([w.shape[0]] + [1] * (ndim - 1 - dim))


def _int_list(value, fname, argname, position):
    """PyTorch's argument parsing of a `tuple of ints` (0-d integer tensors count as ints)."""
    if isinstance(value, Tensor) or not isinstance(value, (tuple, list)):
        raise TypeError(f"{fname}(): argument '{argname}' (position {position}) must be tuple of ints, "
                        f"not {type(value).__name__}")
    out = []
    for i, v in enumerate(value):
        if isinstance(v, Tensor) and v.dim() == 0 and not v.is_floating_point() and v.dtype != _core.bool:
            out.append(int(v.item()))
        elif isinstance(v, int) and not isinstance(v, bool):
            out.append(int(v))
        elif hasattr(v, "__index__") and not isinstance(v, (bool, float, Tensor)):
            out.append(v.__index__())
        else:
            raise TypeError(f"{fname}(): argument '{argname}' (position {position}) must be tuple of ints, but "
                            f"found element of type {type(v).__name__} at pos {i}")
    return out


def _not_implemented_for(name, dtype):
    return NotImplementedError(f"\"{name}\" not implemented for '{_scalar_name(dtype)}'")


# ---------------------------------------------------------------------------------------------
# pad

_PAD_MODES = ("constant", "reflect", "replicate", "circular")
_PAD_COMBINATIONS = (
    "Supported combinations for non-constant padding:\n"
    "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
    "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
    "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)"
)


def pad(input, pad, mode="constant", value=None):
    """Pads the last len(pad) // 2 dims of `input`: pad = (left, right) for the last dim, then
    (top, bottom) for the one before, and so on. `mode` is 'constant' (with `value`, default 0;
    negative pads crop), 'reflect' (mirrored without the edge), 'replicate' (the edge repeated)
    or 'circular' (wrapped around).

    >>> x = torch.tensor([[[1., 2., 3.]]])
    >>> torch.nn.functional.pad(x, (2, 1))
    tensor([[[0., 0., 1., 2., 3., 0.]]])
    >>> torch.nn.functional.pad(x, (2, 1), mode='reflect')
    tensor([[[3., 2., 1., 2., 3., 2.]]])
    >>> torch.nn.functional.pad(x, (2, 1), mode='replicate')
    tensor([[[1., 1., 1., 2., 3., 3.]]])
    >>> torch.nn.functional.pad(x, (2, 1), mode='circular')
    tensor([[[2., 3., 1., 2., 3., 1.]]])
    >>> torch.nn.functional.pad(x, (-1, 1), value=9.)
    tensor([[[2., 3., 9.]]])
    """
    pads = _int_list(pad, "pad", "pad", 2)
    if not isinstance(mode, str):
        raise TypeError(f"pad(): argument 'mode' (position 3) must be str, not {type(mode).__name__}")
    if value is not None:
        if isinstance(value, Tensor):
            value = value.item()
        if isinstance(value, (complex, str)) or not isinstance(value, (int, float)):
            raise TypeError(f"pad(): argument 'value' (position 4) must be float, not {type(value).__name__}")
        value = float(value)
    if mode not in _PAD_MODES:
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    ndim = input.dim()
    if len(pads) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pads) > 2 * ndim:
        raise RuntimeError("Padding length should be less than or equal to two times the input dimension but got "
                           f"padding length {len(pads)} and input of dimension {ndim}")
    if mode == "constant":
        return _constant_pad_nd(input, pads, 0.0 if value is None else value)
    if value is not None and value != 0:
        raise RuntimeError(f"Padding mode \"{mode}\" doesn't take in value argument")
    k = len(pads) // 2
    if k in (1, 2, 3) and ndim in (k + 1, k + 2):
        if mode == "circular":
            return _pad_circular(input, pads)
        return _pad_index(input, pads, mode == "reflect")
    raise NotImplementedError(f"Padding size {len(pads)} is not supported for {ndim}D input tensor.\n"
                              + _PAD_COMBINATIONS)


def _narrow_negative(t, pads):
    """ATen's constant_pad_nd first narrows `t` by the negative pads."""
    ndim, k = t.dim(), len(pads) // 2
    for i in range(ndim - k, ndim):
        left, right = pads[2 * (ndim - i - 1)], pads[2 * (ndim - i - 1) + 1]
        if left < 0:
            t = t.narrow(i, -left, t.size(i) + left)
        if right < 0:
            t = t.narrow(i, 0, t.size(i) + right)
    return t


def _constant_pad_nd(input, pads, value):
    """ConstantPadNdBackward0: the input narrowed by the negative pads, then `value` blocks
    concatenated on both sides for the positive ones."""
    ndim, k = input.dim(), len(pads) // 2
    _narrow_negative(input, pads)  # PyTorch's narrow() errors come first
    for i in range(k):
        left, right = pads[len(pads) - 2 * (i + 1)], pads[len(pads) - 2 * (i + 1) + 1]
        size = input.size(ndim - k + i)
        if size + left + right < 0:
            raise RuntimeError(f"The input size {size}, plus negative padding {left} and {right} resulted in a "
                               f"negative output size, which is invalid. Check dimension {ndim - k + i} of your input.")

    def fn(x):
        c = _narrow_negative(x, pads)
        if all(p <= 0 for p in pads):
            return c.clone()
        for i in range(ndim - k, ndim):
            left, right = pads[2 * (ndim - i - 1)], pads[2 * (ndim - i - 1) + 1]
            if left <= 0 and right <= 0:
                continue
            parts = []
            for n in (left, None, right):
                if n is None:
                    parts.append(c)
                elif n > 0:
                    shape = list(c.shape)
                    shape[i] = n
                    parts.append(c.new_full(shape, value))
            from .._functions import cat

            c = cat(parts, i)
        return c

    return _core._composite("ConstantPadNdBackward0", fn, [input], [0])


def _check_valid_pad_input(input, k):
    """ATen's padding::check_valid_input: only the batch dim may be empty."""
    ndim = input.dim()
    first = 1 if ndim == k + 2 else 0
    if any(input.size(d) == 0 for d in range(first, ndim)):
        raise RuntimeError(f"Expected {k + 1}D or {k + 2}D (batch mode) tensor with possibly 0 batch size and other "
                           f"non-zero dimensions for input, but got: {list(input.shape)}")


def _pad_source(j, size, left, reflect):
    """The input position that output position `j` of a dim padded by `left` reads (ATen's
    reflection/replication index arithmetic, negative pads included)."""
    if reflect:
        if j < left:
            src = 2 * left - j
        elif j < size + left:
            src = j
        else:
            src = 2 * (size + left - 1) - j
    else:
        src = left if j < left else (j if j < size + left else size + left - 1)
    return src - max(left, 0) + max(-left, 0)


def _pad_index(input, pads, reflect):
    """ReflectionPad{1,2,3}DBackward0 / ReplicationPad{1,2,3}DBackward0: index_select along each
    padded dim with PyTorch's source positions."""
    k = len(pads) // 2
    ndim = input.dim()
    _check_valid_pad_input(input, k)
    letters = "DHW"[3 - k:]
    sizes = [input.size(ndim - k + i) for i in range(k)]  # D, H, W order
    side = [(pads[2 * (k - 1 - i)], pads[2 * (k - 1 - i) + 1]) for i in range(k)]
    if reflect:
        for i in reversed(range(k)):  # W (#4), then H (#6), then D (#8)
            left, right = side[i]
            if not (left < sizes[i] and right < sizes[i]):
                raise RuntimeError(
                    f"Argument #{4 + 2 * (k - 1 - i)}: Padding size should be less than the corresponding input "
                    f"dimension, but got: padding ({left}, {right}) at dimension {ndim - k + i} of input "
                    f"{list(input.shape)}")
    outs = [sizes[i] + side[i][0] + side[i][1] for i in range(k)]
    if any(o < 1 for o in outs):
        if k == 1:
            raise RuntimeError(f"input (W: {sizes[0]}) is too small. Calculated output W: {outs[0]}")
        got = " ".join(f"{c}: {o}" for c, o in zip(letters, outs))
        given = ", ".join(f"{c}: {s}" for c, s in zip(letters, sizes))
        raise RuntimeError(f"Calculated output {got} must be >= 1 in every dimension (input {given})")
    kind = "reflection" if reflect else "replication"
    if input.dtype == _core.bool:
        raise _not_implemented_for(f"{kind}_pad{k}d", input.dtype)
    indices = [
        _index((_pad_source(j, sizes[i], side[i][0], reflect) for j in range(outs[i])), input.device)
        for i in range(k)
    ]

    def fn(x):
        for i in reversed(range(k)):
            x = x.index_select(ndim - k + i, indices[i])
        return x

    name = ("ReflectionPad" if reflect else "ReplicationPad") + f"{k}DBackward0"
    return _core._composite(name, fn, [input])


def _pad_circular(input, pads):
    """ATen's _pad_circular: the input copied into the middle of an empty tensor, then each
    padded dim's wrapped-around borders copied from it (so the node is CopySlices, as PyTorch's)."""
    shape = list(input.shape)
    ndim, k = len(shape), len(pads) // 2
    nonpadded = ndim - k
    out_shape = shape[:nonpadded]
    for i in range(k):
        left, right = pads[2 * (k - i - 1)], pads[2 * (k - i - 1) + 1]
        size = shape[nonpadded + i]
        out_shape.append(size + left + right)
        if not (left <= size and right <= size):
            raise RuntimeError("Padding value causes wrapping around more than once.")
        if out_shape[-1] < 0:
            raise RuntimeError("Negative padding value is resulting in an empty dimension")
    out = input.new_empty(out_shape)
    out_slice, in_slice = out, input
    for i in range(k):
        dim = ndim - i - 1
        left, right = pads[2 * i], pads[2 * i + 1]
        out_slice = _along(out_slice, dim, max(left, 0), out_shape[dim] - max(right, 0))
        in_slice = _along(in_slice, dim, max(-left, 0), shape[dim] - max(-right, 0))
    out_slice.copy_(in_slice)
    for i in range(k):
        dim = ndim - i - 1
        left, right = pads[2 * i], pads[2 * i + 1]
        if left > 0:
            end = out_shape[dim] - max(right, 0)
            _along(out, dim, 0, left).copy_(_along(out, dim, end - left, end))
        if right > 0:
            start = max(left, 0)
            _along(out, dim, out_shape[dim] - right, out_shape[dim]).copy_(_along(out, dim, start, start + right))
    return out


# ---------------------------------------------------------------------------------------------
# interpolate

_INTERPOLATE_MODES = "nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact"


def _is_integer(x):
    if isinstance(x, int):
        return True
    return isinstance(x, Tensor) and not x.is_floating_point()


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    """Resamples the spatial dims (all but the first two) of `input` to `size`, or to
    floor(in * scale_factor), by `mode`: 'nearest', 'nearest-exact', 'linear' (3-d),
    'bilinear' / 'bicubic' (4-d), 'trilinear' (5-d) or 'area' (adaptive average pooling).
    `antialias=True` (4-d 'bilinear', 'bicubic' and 'lanczos', which requires it) widens the
    filter by the scale when downsampling, so that every input pixel contributes.

    >>> x = torch.tensor([[[1., 2., 4.]]])
    >>> torch.nn.functional.interpolate(x, scale_factor=2)
    tensor([[[1., 1., 2., 2., 4., 4.]]])
    >>> torch.nn.functional.interpolate(x, size=5, mode='linear')
    tensor([[[1.0000, 1.4000, 2.0000, 3.2000, 4.0000]]])
    >>> torch.nn.functional.interpolate(x, size=5, mode='linear', align_corners=True)
    tensor([[[1.0000, 1.5000, 2.0000, 3.0000, 4.0000]]])
    >>> torch.nn.functional.interpolate(torch.tensor([[[1., 3., 5., 7.]]]), size=2, mode='area')
    tensor([[[2., 6.]]])
    >>> y = torch.tensor([[[[1., 2., 4., 8.]]]])
    >>> torch.nn.functional.interpolate(y, size=(1, 2), mode='bilinear', antialias=True)
    tensor([[[[1.8571, 5.4286]]]])
    """
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: "
                             "linear | bilinear | bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    dim = input.dim() - 2
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    elif size is not None:
        scale_factors = None
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError(
                    "Input and output must have the same number of spatial dimensions, but got input with spatial "
                    f"dimensions of {list(input.shape[2:])} and output size of {size}. Please provide input tensor "
                    "in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format.")
            if not all(_is_integer(x) for x in size):
                raise TypeError("expected size to be one of int or Tuple[int] or Tuple[int, int] or "
                                f"Tuple[int, int, int], but got size with types {[type(x) for x in size]}")
            output_size = [int(x) for x in size]
        else:
            if not _is_integer(size):
                raise TypeError(f"{_kernel_name(mode, dim)}(): argument 'output_size' must be tuple of ints, but "
                                f"found element of type {type(size).__name__} at pos 0")
            output_size = [int(size) for _ in range(dim)]
    elif scale_factor is not None:
        output_size = None
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError(
                    "Input and scale_factor must have the same number of spatial dimensions, but got input with "
                    f"spatial dimensions of {list(input.shape[2:])} and scale_factor of shape {scale_factor}. "
                    "Please provide input tensor in (N, C, d1, d2, ...,dK) format and scale_factor in "
                    "(s1, s2, ...,sK) format.")
            scale_factors = [float(s) for s in scale_factor]
        else:
            scale_factors = [float(scale_factor) for _ in range(dim)]
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor is not None and recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if mode == "area" and output_size is None:
        recompute_scale_factor = True
    if recompute_scale_factor is not None and recompute_scale_factor:
        output_size = [int(input.size(i + 2) * scale_factors[i]) for i in range(dim)]
        scale_factors = None
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and input.dim() == 4):
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires a "
                         "4-D tensor as input")
    if mode in ("nearest", "nearest-exact") and 1 <= dim <= 3:
        return _upsample(input, output_size, scale_factors, mode)
    if mode == "area" and 1 <= dim <= 3:
        return _adaptive_avg_pool(input, output_size)
    linear_dim = {"linear": 1, "bilinear": 2, "trilinear": 3, "bicubic": 2}.get(mode)
    if linear_dim == dim:
        if antialias:
            from ._functional_antialias import _upsample_aa
            return _upsample_aa(input, output_size, scale_factors, mode, align_corners)
        return _upsample(input, output_size, scale_factors, mode, align_corners)
    if mode == "lanczos" and dim == 2:
        if align_corners:
            raise ValueError("Lanczos mode does not support align_corners=True")
        if not antialias:
            raise ValueError("Lanczos mode requires antialias=True")
        from ._functional_antialias import _upsample_aa
        return _upsample_aa(input, output_size, scale_factors, mode, False)
    named = {"bilinear": 4, "trilinear": 5, "linear": 3}
    if mode in named and input.dim() in (3, 4, 5):
        raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs {named[mode]}D input")
    raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) for the "
                              f"modes: {_INTERPOLATE_MODES} (got {mode})")


def _kernel_name(mode, dim):
    if mode == "nearest":
        return f"upsample_nearest{dim}d"
    if mode == "nearest-exact":
        return f"_upsample_nearest_exact{dim}d"
    return {"linear": "upsample_linear1d", "bilinear": "upsample_bilinear2d", "trilinear": "upsample_trilinear3d",
            "bicubic": "upsample_bicubic2d"}.get(mode, "interpolate")


def _scale_value(scale, in_size, out_size, r):
    """ATen's compute_scales_value: 1 / scale_factor when one was given, else in / out."""
    if scale is not None and scale > 0:
        return r(1.0 / scale)
    return r(in_size / out_size)


def _nearest_map(in_size, out_size, scale, exact):
    """ATen's nearest_neighbor(_exact)_compute_source_index (a float32 scale for every dtype)."""
    s = _scale_value(scale, in_size, out_size, _f32)
    if exact:
        return [min(int(math.floor(_f32((j + 0.5) * s))), in_size - 1) for j in range(out_size)]
    return [min(int(math.floor(_f32(j * s))), in_size - 1) for j in range(out_size)]


def _nearest_idx(in_size, out_size, scale):
    """ATen's deprecated nearest_idx: as _nearest_map, except that an output of the input's
    size copies it and one of twice its size takes j >> 1, whatever the scale_factor. PyTorch's
    CPU kernels read with it in upsample_nearest2d and in every nearest backward."""
    if out_size == in_size:
        return list(range(out_size))
    if out_size == 2 * in_size:
        return [j >> 1 for j in range(out_size)]
    return _nearest_map(in_size, out_size, scale, False)


def _linear_taps(in_size, out_size, scale, align_corners, cubic, r):
    """[(indices, weights)] per tap of ATen's compute_indices_weights_linear / _cubic."""
    if align_corners:
        s = r((in_size - 1) / (out_size - 1)) if out_size > 1 else 0.0
    else:
        s = _scale_value(scale, in_size, out_size, r)
    idx0, lam = [], []
    for j in range(out_size):
        if align_corners:
            src = r(s * j)
        else:
            src = r(r(s * (j + 0.5)) - 0.5)
            if not cubic and src < 0:
                src = 0.0
        i = min(int(math.floor(src)), in_size - 1)
        idx0.append(i)
        lam.append(min(max(r(src - i), 0.0), 1.0))
    if not cubic:
        i1 = [i + (1 if i < in_size - 1 else 0) for i in idx0]
        return [(idx0, [r(1.0 - t) for t in lam]), (i1, lam)]
    a = -0.75  # ATen's cubic_convolution1/2, each operation rounded as the opmath type rounds it

    def conv1(x):
        return r(r(r(r(r((a + 2) * x) - (a + 3)) * x) * x) + 1)

    def conv2(x):
        return r(r(r(r(r(r(a * x) - 5 * a) * x) + 8 * a) * x) - 4 * a)

    coeffs = [(conv2(r(t + 1.0)), conv1(t), conv1(r(1.0 - t)), conv2(r(r(1.0 - t) + 1.0))) for t in lam]
    return [([max(min(i - 1 + k, in_size - 1), 0) for i in idx0], [c[k] for c in coeffs]) for k in range(4)]


def _check_sizes(input, in_sizes, output_size):
    """The upsample kernels' checks of positive sizes and a non-empty (but for the batch) input."""
    dim = len(in_sizes)
    letters = "DHW"[3 - dim:]
    if not (all(s > 0 for s in in_sizes) and all(o > 0 for o in output_size)):
        if dim == 1:
            raise RuntimeError("Input and output sizes should be greater than 0, but got input "
                               f"(W: {in_sizes[0]}) and output (W: {output_size[0]})")
        ins = ", ".join(f"{c}: {s}" for c, s in zip(letters, in_sizes))
        outs = ", ".join(f"{c}: {s}" for c, s in zip(letters, output_size))
        raise RuntimeError(f"Input and output sizes should be greater than 0, but got input ({ins}) output ({outs})")
    rest = 1
    for s in input.shape[1:]:
        rest *= s
    if input.numel() == 0 and rest == 0:
        raise RuntimeError(f"Non-empty {dim + 2}D data tensor expected but got a tensor with sizes "
                           f"{list(input.shape)}")


def _is_float(dtype):
    return dtype in (_core.float32, _core.float64, _core.float16, _core.bfloat16)


def _upsample(input, output_size, scale_factors, mode, align_corners=None):
    """The upsample_* kernels: nearest and nearest-exact gather (index_select) along each
    spatial dim; linear, bilinear, trilinear and bicubic sum weighted taps, last dim first."""
    dim = input.dim() - 2
    in_sizes = [input.size(i + 2) for i in range(dim)]
    if output_size is None:
        output_size = [int(in_sizes[i] * scale_factors[i]) for i in range(dim)]
    scales = scale_factors if scale_factors is not None else [None] * dim
    _check_sizes(input, in_sizes, output_size)
    nearest = mode in ("nearest", "nearest-exact")
    if not _is_float(input.dtype) and not (nearest and input.dtype == _core.uint8):
        what = {"nearest": "nearest", "nearest-exact": "nearest", "bicubic": "cubic"}.get(mode, "linear")
        raise _not_implemented_for(f"compute_indices_weights_{what}", input.dtype)
    r = _rounder(input.dtype)
    ndim = input.dim()
    if nearest:
        exact = mode == "nearest-exact"
        maps = [_nearest_map(in_sizes[i], output_size[i], scales[i], exact) for i in range(dim)]
        if exact:
            back = maps
        else:
            back = [_nearest_idx(in_sizes[i], output_size[i], scales[i]) for i in range(dim)]
            if dim == 2:
                maps = back
        maps = [_index(m, input.device) for m in maps]
        back = maps if back is maps else [_index(m, input.device) for m in back]
        calls = []

        def fn(x):
            # The first call computes the output; the backward re-runs fn and differentiates it,
            # reading with the backward's maps (which differ from the forward's in PyTorch for
            # outputs of 1x or 2x the input size under an unusual scale_factor).
            use = back if calls else maps
            calls.append(None)
            for i in reversed(range(dim)):
                x = x.index_select(i + 2, use[i])
            return x

        name = ("UpsampleNearestExact" if exact else "UpsampleNearest") + f"{dim}DBackward0"
        return _core._composite(name, fn, [input])
    cubic = mode == "bicubic"
    dtype, opmath = input.dtype, _opmath(input.dtype)
    taps = []
    for i in range(dim):
        t = _linear_taps(in_sizes[i], output_size[i], scales[i], align_corners, cubic, r)
        # (PyTorch's bicubic kernel keeps its weights in the input's dtype, the linear ones in opmath)
        taps.append([(_index(ix, input.device), _bcast(_weights(w, input, dtype if cubic else opmath).to(opmath),
                                                       i + 2, ndim)) for ix, w in t])

    def fn(x):
        x = x.to(opmath)  # half and bfloat16 are computed in float32, as PyTorch's opmath
        for i in reversed(range(dim)):
            out = None
            for ix, w in taps[i]:
                term = x.index_select(i + 2, ix) * w
                out = term if out is None else out + term
            x = out
        return x.to(dtype)

    name = {"linear": "UpsampleLinear1DBackward0", "bilinear": "UpsampleBilinear2DBackward0",
            "trilinear": "UpsampleTrilinear3DBackward0", "bicubic": "UpsampleBicubic2DBackward0"}[mode]
    # linear in the input: its gradient reads no values (PyTorch's node saves only sizes)
    return _core._composite(name, fn, [input], [0])


def _adaptive_avg_pool(input, output_size):
    """mode='area': ATen's adaptive average pooling (the mean over [floor(o*in/out),
    ceil((o+1)*in/out)) along each dim); 1-d runs as 2-d on input.unsqueeze(-2), as PyTorch's."""
    dim = input.dim() - 2
    if dim == 1:
        return _adaptive_avg_pool(input.unsqueeze(-2), [1] + list(output_size)).squeeze(-2)
    name = f"adaptive_avg_pool{dim}d"
    for d in range(1, input.dim()):
        if input.size(d) == 0:
            raise RuntimeError(f"{name}(): Expected input to have non-zero size for non-batch dimensions, but input "
                               f"has sizes {list(input.shape)} with dimension {d} being empty")
    if not _is_float(input.dtype):
        raise _not_implemented_for(name, input.dtype)
    dtype, opmath = input.dtype, _opmath(input.dtype)
    mats = []
    for i in range(dim):
        n, m = input.size(i + 2), output_size[i]
        rows = []
        for o in range(m):
            start, end = (o * n) // m, -((-(o + 1) * n) // m)
            rows.append([1.0 / (end - start) if start <= j < end else 0.0 for j in range(n)])
        from .._factories import tensor

        mats.append(tensor(rows, dtype=opmath, device=input.device).reshape(m, n).t())

    def fn(x):
        x = x.to(opmath)
        for i in reversed(range(dim)):
            x = (x.movedim(i + 2, -1) @ mats[i]).movedim(-1, i + 2)
        return x.to(dtype)

    return _core._composite(f"AdaptiveAvgPool{dim}DBackward0", fn, [input])


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """Deprecated: `interpolate(input, size, scale_factor, mode, align_corners)`, with a warning.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter('always')
    ...     y = torch.nn.functional.upsample(torch.tensor([[[1., 2.]]]), scale_factor=2)
    >>> y, str(w[0].message)
    (tensor([[[1., 1., 2., 2.]]]), '`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.')
    """
    warnings.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    """Deprecated: `interpolate(input, size, scale_factor, mode='nearest')`, with a warning.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True):
    ...     torch.nn.functional.upsample_nearest(torch.tensor([[[[1., 2.]]]]), scale_factor=2)
    tensor([[[[1., 1., 2., 2.],
              [1., 1., 2., 2.]]]])
    """
    warnings.warn("`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=2)
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    """Deprecated: `interpolate(input, size, scale_factor, mode='bilinear', align_corners=True)`,
    with a warning.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True):
    ...     torch.nn.functional.upsample_bilinear(torch.tensor([[[[1., 2.]]]]), size=(1, 3))
    tensor([[[[1.0000, 1.5000, 2.0000]]]])
    """
    warnings.warn("`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=2)
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


# ---------------------------------------------------------------------------------------------
# pixel and channel shuffles


def _int_arg(value, fname, argname, position):
    if isinstance(value, Tensor) and value.dim() == 0 and not value.is_floating_point():
        return int(value.item())
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{fname}(): argument '{argname}' (position {position}) must be int, not "
                        f"{type(value).__name__}")
    return value


def pixel_shuffle(input, upscale_factor):
    """Rearranges (*, C*r*r, H, W) into (*, C, H*r, W*r) (PixelShuffleBackward0).

    >>> torch.nn.functional.pixel_shuffle(torch.arange(8.).reshape(1, 4, 1, 2), 2)
    tensor([[[[0., 2., 1., 3.],
              [4., 6., 5., 7.]]]])
    """
    r = _int_arg(upscale_factor, "pixel_shuffle", "upscale_factor", 2)
    if input.dim() < 3:
        raise RuntimeError("pixel_shuffle expects input to have at least 3 dimensions, but got input with "
                           f"{input.dim()} dimension(s)")
    if r <= 0:
        raise RuntimeError(f"pixel_shuffle expects a positive upscale_factor, but got {r}")
    c, h, w = input.shape[-3:]
    if c % (r * r):
        raise RuntimeError("pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
                           f"upscale_factor, but input.size(-3)={c} is not divisible by {r * r}")
    batch = list(input.shape[:-3])
    nb = len(batch)

    def fn(x):
        x = x.reshape(batch + [c // (r * r), r, r, h, w])
        x = x.permute(list(range(nb)) + [nb, nb + 3, nb + 1, nb + 4, nb + 2])
        return x.reshape(batch + [c // (r * r), h * r, w * r])

    return _core._composite("PixelShuffleBackward0", fn, [input], [0])


def pixel_unshuffle(input, downscale_factor):
    """Rearranges (*, C, H*r, W*r) into (*, C*r*r, H, W), undoing pixel_shuffle
    (PixelUnshuffleBackward0).

    >>> torch.nn.functional.pixel_unshuffle(torch.arange(8.).reshape(1, 1, 2, 4), 2)
    tensor([[[[0., 2.]],
    <BLANKLINE>
             [[1., 3.]],
    <BLANKLINE>
             [[4., 6.]],
    <BLANKLINE>
             [[5., 7.]]]])
    """
    r = _int_arg(downscale_factor, "pixel_unshuffle", "downscale_factor", 2)
    if input.dim() < 3:
        raise RuntimeError("pixel_unshuffle expects input to have at least 3 dimensions, but got input with "
                           f"{input.dim()} dimension(s)")
    if r <= 0:
        raise RuntimeError(f"pixel_unshuffle expects a positive downscale_factor, but got {r}")
    c, h, w = input.shape[-3:]
    if h % r:
        raise RuntimeError("pixel_unshuffle expects height to be divisible by downscale_factor, but "
                           f"input.size(-2)={h} is not divisible by {r}")
    if w % r:
        raise RuntimeError("pixel_unshuffle expects width to be divisible by downscale_factor, but "
                           f"input.size(-1)={w} is not divisible by {r}")
    batch = list(input.shape[:-3])
    nb = len(batch)

    def fn(x):
        x = x.reshape(batch + [c, h // r, r, w // r, r])
        x = x.permute(list(range(nb)) + [nb, nb + 2, nb + 4, nb + 1, nb + 3])
        return x.reshape(batch + [c * r * r, h // r, w // r])

    return _core._composite("PixelUnshuffleBackward0", fn, [input], [0])


def _channel_shuffle(input, groups, name):
    g = _int_arg(groups, name, "groups", 2)
    if input.dim() <= 2:
        raise RuntimeError(f"channel_shuffle expects input with > 2 dims, but got input with sizes {list(input.shape)}")
    if g <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of groups:{g}")
    shape = list(input.shape)
    c = shape[1]
    if c % g:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {c} channels and {g} groups.")

    def fn(x):
        return x.reshape([shape[0], g, c // g] + shape[2:]).transpose(1, 2).reshape(shape)

    return _core._composite("ChannelShuffleBackward0", fn, [input], [0])


def channel_shuffle(input, groups):
    """Splits the C channels of (N, C, *) into `groups` groups and interleaves them
    (ChannelShuffleBackward0).

    >>> torch.nn.functional.channel_shuffle(torch.arange(4.).reshape(1, 4, 1), 2).flatten()
    tensor([0., 2., 1., 3.])
    """
    return _channel_shuffle(input, groups, "channel_shuffle")


def native_channel_shuffle(input, groups):
    """`channel_shuffle` (PyTorch's non-composite entry point; same values and node here).

    >>> torch.nn.functional.native_channel_shuffle(torch.arange(6.).reshape(1, 6, 1), 3).flatten()
    tensor([0., 2., 4., 1., 3., 5.])
    """
    return _channel_shuffle(input, groups, "native_channel_shuffle")
