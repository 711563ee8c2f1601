"""`torch.nn.functional`'s convolutions and poolings beyond conv2d/max_pool2d/avg_pool2d:
conv1d, conv3d, conv_transpose1d/2d, max/avg/lp pooling in 1-d, adaptive pooling, max_unpool.

Each is composed of leafgrad ops (conv2d, index_select, cat, matmul, gather, ...) and recorded
as the one node PyTorch records (`_core._composite`: its backward re-runs the composition and
differentiates it, so gradients of any order flow). PyTorch's argument checks and messages come
first. Transposed convolutions are convolutions of the zero-stuffed, re-padded input with the
flipped kernel; conv3d folds the kernel's depth into the channels of one conv2d.
"""
import math

from .. import _core
from .._gather import _scalar_name
from .._warn import warn_once

# ---------------------------------------------------------------------------------- helpers


def _tuple(v, n):
    """PyTorch's _single/_pair/_triple: an int repeated n times, an iterable as a tuple."""
    if isinstance(v, (list, tuple)):
        return tuple(v)
    return (v,) * n


def _ints(v, n=1):
    """An int argument as PyTorch's argument parser reads it for an n-int list (n copies)."""
    return [v] * n if isinstance(v, int) else list(v)


def _new_tensor(values, like, dtype=None):
    from .. import tensor

    return tensor(values, dtype=dtype or _core.int64, device=like.device)


def _cat(ts, dim):
    from .. import cat

    return cat(ts, dim)


def _zero_pad(x, dim, left, right):
    """`x` with `left`/`right` zeros added along `dim` (a negative amount crops instead)."""
    if left < 0:
        x = x.narrow(dim, -left, x.shape[dim] + left)
        left = 0
    if right < 0:
        x = x.narrow(dim, 0, x.shape[dim] + right)
        right = 0
    parts = []
    for amount in (left, None, right):
        if amount is None:
            parts.append(x)
        elif amount:
            shape = list(x.shape)
            shape[dim] = amount
            parts.append(x.new_zeros(shape))
    return parts[0] if len(parts) == 1 else _cat(parts, dim)


def _dense(t):
    """`t` through a flat copy: its gradient comes out contiguous, as the gradients of PyTorch's
    fused kernels do (the slices and transposes of a composition would leave strided views)."""
    return t.reshape(-1).mul(1).reshape(t.shape)


def _stuff(x, dim, s):
    """`s - 1` zeros between neighbours along `dim` (the input of a transposed convolution)."""
    n = x.shape[dim]
    if s == 1 or n == 0:
        return x
    shape = list(x.shape)
    shape.insert(dim + 1, s - 1)
    y = _cat([x.unsqueeze(dim + 1), x.new_zeros(shape)], dim + 1)
    merged = list(x.shape)
    merged[dim] = n * s
    return y.reshape(merged).narrow(dim, 0, (n - 1) * s + 1)


# ---------------------------------------------------------------------------------- convolution
_C_TYPE = {"Float": "float", "Double": "double", "Half": "c10::Half", "BFloat16": "c10::BFloat16",
           "Long": "long int", "Int": "int", "Short": "short int", "Char": "signed char", "Byte": "unsigned char",
           "Bool": "bool"}


def _dims(t):
    return list(t.shape)


def _expand_param(v, name, dim):
    """ATen's expand_param_if_needed: an int, or a list of 1 or `dim` values."""
    v = _ints(v)
    if len(v) == 1:
        return v * dim
    if len(v) != dim:
        raise RuntimeError(f"expected {name} to be a single integer value or a list of {dim} values to match "
                           f"the convolution dimensions, but got {name}={v}")
    return v


def _check_dtypes(x, weight, bias):
    if x.dtype != weight.dtype:
        if x.dtype == _core.float32:
            raise RuntimeError(f"Input type ({x.type()}) and weight type ({weight.type()}) should be the same or "
                               "input should be a MKLDNN tensor and weight is a dense tensor")
        raise RuntimeError(f"expected scalar type {_scalar_name(x.dtype)} but found {_scalar_name(weight.dtype)}")
    if bias is not None and bias.dtype != x.dtype:
        a, b = _scalar_name(x.dtype), _scalar_name(bias.dtype)
        raise RuntimeError(f"Input type ({_C_TYPE.get(a, a)}) and bias type ({_C_TYPE.get(b, b)}) should be the same")


def _check_shape(x, weight, bias, stride, padding, dilation, output_padding, groups, transposed):
    """ATen's check_shape_forward (the input is batched here)."""
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(p < 0 for p in output_padding):
        raise RuntimeError("negative output_padding is not supported")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d < 0 for d in dilation):
        raise RuntimeError("dilation should be greater than zero")
    ws, k = _dims(weight), x.dim()
    if len(ws) != k:
        raise RuntimeError(f"Expected {len(ws)}-dimensional input for {len(ws)}-dimensional weight {ws}, but got "
                           f"{k}-dimensional input of size {_dims(x)} instead")
    if ws[0] < groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be at least {groups} at dimension 0, but got "
                           f"weight of size {ws} instead")
    if ws[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but "
                           f"got weight of size [{ws}] instead")
    if not transposed:
        if x.shape[1] != ws[1] * groups:
            raise RuntimeError(f"Given groups={groups}, weight of size {ws}, expected input{_dims(x)} to have "
                               f"{ws[1] * groups} channels, but got {x.shape[1]} channels instead")
        if bias is not None and (bias.dim() != 1 or bias.shape[0] != ws[0]):
            raise RuntimeError(f"Given weight of size {ws}, expected bias to be 1-dimensional with {ws[0]} elements, "
                               f"but got bias of size {_dims(bias)} instead")
        padded = [x.shape[i + 2] + 2 * padding[i] for i in range(k - 2)]
        kernel = [dilation[i] * (ws[i + 2] - 1) + 1 for i in range(k - 2)]
        if any(p < q for p, q in zip(padded, kernel)):
            raise RuntimeError(f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). "
                               f"Kernel size: ({' x '.join(map(str, kernel))}). Kernel size can't be greater than "
                               "actual input size")
    else:
        if x.shape[1] != ws[0]:
            raise RuntimeError(f"Given transposed=1, weight of size {ws}, expected input{_dims(x)} to have {ws[0]} "
                               f"channels, but got {x.shape[1]} channels instead")
        if bias is not None and (bias.dim() != 1 or bias.shape[0] != ws[1] * groups):
            raise RuntimeError(f"Given transposed=1, weight of size {ws}, expected bias to be 1-dimensional with "
                               f"{ws[1] * groups} elements, but got bias of size {_dims(bias)} instead")
    if any(d == 0 for d in dilation):
        raise RuntimeError("non-positive dilation is not supported")


def _conv_ops(x, w, b, stride, pads, dilation, groups):
    """The convolution of batched `x` (N, C, *spatial; 1 to 3 spatial dims) with `w`, written with
    leafgrad ops; `pads` holds each spatial dim's (left, right) zero padding."""
    nsp = x.dim() - 2
    sym = []
    for i, (left, right) in enumerate(pads):
        m = 0 if (nsp == 3 and i == 0) else min(left, right)  # depth is padded here, the rest by conv2d
        x = _zero_pad(x, 2 + i, left - m, right - m)
        sym.append(m)
    if nsp == 1:
        y = _core._conv2d(x.unsqueeze(2), w.unsqueeze(2), b, (1, stride[0]), (0, sym[0]), (1, dilation[0]), groups)
        return y.squeeze(2)
    if nsp == 2:
        return _core._conv2d(x, w, b, tuple(stride), tuple(sym), tuple(dilation), groups)
    # 3-d: gather the depth windows, fold (channel, kernel depth) into the channels of one conv2d
    n, c, d_in, h, wd = x.shape
    o, cg, kd = w.shape[0], w.shape[1], w.shape[2]
    od = (d_in - dilation[0] * (kd - 1) - 1) // stride[0] + 1
    idx = _new_tensor([i * stride[0] + j * dilation[0] for i in range(od) for j in range(kd)], x)
    cols = x.index_select(2, idx).reshape(n, c, od, kd, h, wd).permute(0, 2, 1, 3, 4, 5)
    cols = cols.reshape(n * od, c * kd, h, wd)
    w2 = w.reshape(o, cg * kd, w.shape[3], w.shape[4])
    y = _core._conv2d(cols, w2, b, tuple(stride[1:]), tuple(sym[1:]), tuple(dilation[1:]), groups)
    return y.reshape(n, od, o, y.shape[2], y.shape[3]).permute(0, 2, 1, 3, 4).contiguous()


def _record_conv(fn, x, weight, bias):
    # PyTorch's node has three inputs, the bias's edge empty without one: a stand-in keeps its place
    if bias is None:
        return _core._composite("ConvolutionBackward0", lambda x, w, _: fn(_dense(x), _dense(w)),
                                [x, weight, x.new_zeros(())])
    return _core._composite("ConvolutionBackward0", lambda *ts: fn(*[_dense(t) for t in ts]), [x, weight, bias])


def _conv(fname, nsp, input, weight, bias, stride, padding, dilation, groups):
    if input.dim() not in (nsp + 1, nsp + 2):
        raise RuntimeError(f"Expected {nsp + 1}D (unbatched) or {nsp + 2}D (batched) input to {fname}, but got "
                           f"input of size: {_dims(input)}")
    unbatched = input.dim() == nsp + 1
    x = input.unsqueeze(0) if unbatched else input
    if weight.dim() < 3:
        raise RuntimeError("weight should have at least three dimensions")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    dim = weight.dim() - 2
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            raise RuntimeError(f"Invalid padding string: '{padding}'")
        if padding == "same":
            if weight.dim() != x.dim():
                raise RuntimeError(f"Expected {weight.dim()}-dimensional input for {weight.dim()}-dimensional "
                                   f"weight{_dims(weight)}, but got {x.dim()}-dimensional input of size {_dims(x)} "
                                   "instead")
            stride, dilation = _ints(stride, nsp), _ints(dilation, nsp)
            for name, v in (("stride", stride), ("dilation", dilation)):
                if len(v) not in (1, dim):
                    raise RuntimeError(f"{name} cannot broadcast to {dim} dimensions")
            if any(s != 1 for s in stride):
                raise RuntimeError("padding='same' is not supported for strided convolutions")
            stride = stride * dim if len(stride) == 1 else stride
            dilation = dilation * dim if len(dilation) == 1 else dilation
            pads = []
            for i in range(dim):
                total = dilation[i] * (weight.shape[i + 2] - 1)
                pads.append((total // 2, total - total // 2))
            if any(left != right for left, right in pads):
                warn_once("conv_same_even", "Using padding='same' with even kernel lengths and odd dilation may "
                          "require a zero-padded copy of the input be created (Triggered internally at "
                          "/__w/pytorch/pytorch/aten/src/ATen/native/Convolution.cpp:1135.)", stacklevel=3)
            padding = [left for left, _ in pads]
        else:
            padding = 0
    else:
        pads = None
    stride = _expand_param(_ints(stride, nsp), "stride", dim)
    padding = _expand_param(_ints(padding, nsp), "padding", dim)
    dilation = _expand_param(_ints(dilation, nsp), "dilation", dim)
    _check_shape(x, weight, bias, stride, padding, dilation, [0] * dim, groups, False)
    if pads is None:
        pads = [(p, p) for p in padding]
    _check_dtypes(x, weight, bias)
    y = _record_conv(lambda x, w, b=None: _conv_ops(x, w, b, stride, pads, dilation, groups), x, weight, bias)
    return y.squeeze(0) if unbatched else y


def _conv_transpose(fname, nsp, input, weight, bias, stride, padding, output_padding, groups, dilation):
    if isinstance(padding, str):
        raise TypeError(f"{fname}(): argument 'padding' must be tuple of ints, not str")
    if input.dim() not in (nsp + 1, nsp + 2):
        raise RuntimeError(f"Expected {nsp + 1}D (unbatched) or {nsp + 2}D (batched) input to {fname}, but got "
                           f"input of size: {_dims(input)}")
    unbatched = input.dim() == nsp + 1
    x = input.unsqueeze(0) if unbatched else input
    if weight.dim() < 3:
        raise RuntimeError("weight should have at least three dimensions")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    dim = weight.dim() - 2
    stride = _expand_param(_ints(stride, nsp), "stride", dim)
    padding = _expand_param(_ints(padding, nsp), "padding", dim)
    dilation = _expand_param(_ints(dilation, nsp), "dilation", dim)
    output_padding = _expand_param(_ints(output_padding, nsp), "output_padding", dim)
    _check_shape(x, weight, bias, stride, padding, dilation, output_padding, groups, True)
    # PyTorch's kernels see 1-d as 2-d (height 1) in these two messages
    two = (lambda v, one: [one] + list(v)) if dim == 1 else (lambda v, one: list(v))
    op2, s2, d2 = two(output_padding, 0), two(stride, 1), two(dilation, 1)
    if not all(op2[i] < s2[i] or op2[i] < d2[i] for i in range(len(op2))):
        raise RuntimeError("output padding must be smaller than either stride or dilation, but got "
                           f"output_padding_height: {op2[0]} output_padding_width: {op2[1]} stride_height: {s2[0]} "
                           f"stride_width: {s2[1]} dilation_height: {d2[0]} dilation_width: {d2[1]}")
    ks = list(weight.shape[2:])
    out = [(x.shape[i + 2] - 1) * stride[i] - 2 * padding[i] + dilation[i] * (ks[i] - 1) + output_padding[i] + 1
           for i in range(dim)]
    if any(o < 1 for o in out):
        size_in = two(x.shape[2:], 1)
        raise RuntimeError(f"Given input size per channel: ({' x '.join(map(str, size_in))}). Calculated output size "
                           f"per channel: ({' x '.join(map(str, two(out, 1)))}). Output size is too small")
    _check_dtypes(x, weight, bias)
    pads = [(dilation[i] * (ks[i] - 1) - padding[i], dilation[i] * (ks[i] - 1) - padding[i] + output_padding[i])
            for i in range(dim)]

    def fn(x, w, b=None):
        for i in range(dim):
            x = _stuff(x, 2 + i, stride[i])
            x = _zero_pad(x, 2 + i, min(pads[i][0], 0), min(pads[i][1], 0))  # crop; conv pads the rest
        cin, cog = w.shape[0], w.shape[1]
        wt = w.reshape(groups, cin // groups, cog, *ks).transpose(1, 2).reshape(groups * cog, cin // groups, *ks)
        wt = wt.flip(list(range(2, 2 + dim)))
        return _conv_ops(x, wt, b, [1] * dim, [(max(left, 0), max(right, 0)) for left, right in pads],
                         dilation, groups)

    y = _record_conv(fn, x, weight, bias)
    return y.squeeze(0) if unbatched else y


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """1-d cross-correlation of `input` (N, C_in, L) or (C_in, L) with `weight` (C_out, C_in/groups,
    kL); `padding` may be 'valid' or 'same' (ConvolutionBackward0).

    >>> x, w = torch.tensor([[[1., 2., 3., 4.]]]), torch.tensor([[[1., 0., -1.]]])
    >>> torch.nn.functional.conv1d(x, w)
    tensor([[[-2., -2.]]])
    >>> torch.nn.functional.conv1d(x, w, padding='same')
    tensor([[[-2., -2., -2.,  3.]]])
    """
    return _conv("conv1d", 1, input, weight, bias, stride, padding, dilation, groups)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """3-d cross-correlation of `input` (N, C_in, D, H, W) or (C_in, D, H, W) with `weight`
    (C_out, C_in/groups, kD, kH, kW) (ConvolutionBackward0).

    >>> x = torch.arange(8.).reshape(1, 1, 2, 2, 2)
    >>> torch.nn.functional.conv3d(x, torch.ones(1, 1, 2, 2, 2))
    tensor([[[[[28.]]]]])
    >>> torch.nn.functional.conv3d(x, torch.ones(2, 1, 1, 1, 1), padding=1).shape
    torch.Size([1, 2, 4, 4, 4])
    """
    return _conv("conv3d", 3, input, weight, bias, stride, padding, dilation, groups)


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """The transposed 1-d convolution (the gradient of conv1d with respect to its input) of
    `input` (N, C_in, L) or (C_in, L) with `weight` (C_in, C_out/groups, kL) (ConvolutionBackward0).

    >>> x, w = torch.tensor([[[1., 2.]]]), torch.tensor([[[1., 10., 100.]]])
    >>> torch.nn.functional.conv_transpose1d(x, w)
    tensor([[[  1.,  12., 120., 200.]]])
    >>> torch.nn.functional.conv_transpose1d(x, w, stride=2, output_padding=1)
    tensor([[[  1.,  10., 102.,  20., 200.,   0.]]])
    """
    return _conv_transpose("conv_transpose1d", 1, input, weight, bias, stride, padding, output_padding, groups,
                           dilation)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """The transposed 2-d convolution (the gradient of conv2d with respect to its input) of
    `input` (N, C_in, H, W) or (C_in, H, W) with `weight` (C_in, C_out/groups, kH, kW)
    (ConvolutionBackward0).

    >>> x = torch.tensor([[[[1., 2.], [3., 4.]]]])
    >>> torch.nn.functional.conv_transpose2d(x, torch.ones(1, 1, 2, 2))
    tensor([[[[ 1.,  3.,  2.],
              [ 4., 10.,  6.],
              [ 3.,  7.,  4.]]]])
    >>> torch.nn.functional.conv_transpose2d(x, torch.ones(1, 1, 2, 2), stride=2).shape
    torch.Size([1, 1, 4, 4])
    """
    return _conv_transpose("conv_transpose2d", 2, input, weight, bias, stride, padding, output_padding, groups,
                           dilation)


# ---------------------------------------------------------------------------------- pooling helpers
def _pool_out(size, k, s, p, d, ceil_mode):
    """ATen's pooling_output_shape."""
    num = size + 2 * p - d * (k - 1) - 1 + ((s - 1) if ceil_mode else 0)
    out = num // s + 1
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1
    return out


def _window_index(size, out, k, s, p, d):
    """For each output position, the input positions of its window ([out][k]); a position in the
    padding before the input repeats the window's first valid one, after it the last (so that such
    duplicates change neither the first maximum nor the last NaN)."""
    rows = []
    for o in range(out):
        pos = [o * s - p + j * d for j in range(k)]
        valid = [q for q in pos if 0 <= q < size] or [0]
        rows.append([valid[0] if q < 0 else (valid[-1] if q >= size else q) for q in pos])
    return rows


def _argmax_pool(x, rows_h, rows_w, w):
    """Flat (h * W + w) indices of each window's maximum over the last two dims of `x` (the first
    maximum in row-major window order, or the last NaN, as PyTorch's kernels pick it), shape
    (..., OH, OW)."""
    oh, ow = len(rows_h), len(rows_w)
    kk = (len(rows_h[0]) if rows_h else 0) * (len(rows_w[0]) if rows_w else 0)
    flat = [hh * w + ww for rh in rows_h for rw in rows_w for hh in rh for ww in rw]
    lead = list(x.shape[:-2])
    idx = _new_tensor(flat, x)
    xf = x.detach().flatten(-2) if x.dim() >= 2 else x.detach()
    g = xf.index_select(-1, idx).reshape(lead + [oh, ow, kk])
    j = g.argmax(-1, keepdim=True)
    nan = g.isnan() if g.is_floating_point() else None
    if nan is not None and bool(nan.any()):  # PyTorch's kernels keep the window's last NaN
        last = (nan.long() * _new_tensor(list(range(1, kk + 1)), g)).argmax(-1, keepdim=True)
        j = last.where(nan.any(-1, keepdim=True), j)
    return idx.reshape(oh, ow, kk).expand(lead + [oh, ow, kk]).gather(-1, j).squeeze(-1)


def _take_plane(x, indices):
    """x's values at flat plane `indices` (..., OH, OW) over its last two dims."""
    lead = list(x.shape[:-2])
    oh, ow = indices.shape[-2], indices.shape[-1]
    return x.flatten(-2).gather(-1, indices.reshape(lead + [oh * ow])).reshape(lead + [oh, ow])


def _record_max(name, x, indices):
    return _core._composite(name, lambda t: _take_plane(t, indices), [x])


def _no_int(name, x):
    if not x.is_floating_point():
        raise NotImplementedError(f'"{name}" not implemented for \'{_scalar_name(x.dtype)}\'')


def _dim_range(name, x, lo, hi):
    if not lo <= x.dim() < hi:
        raise RuntimeError(f"Expected {lo} to {hi - 1} dimensions, but got {x.dim()}-dimensional tensor for argument "
                           f"#1 'self' (while checking arguments for {name})")


def _one_int(fname, argname, v):
    v = _ints(v)
    if len(v) != 1:
        raise RuntimeError(f"{fname}() argument '{argname}' should contain one int (got {len(v)})")
    return v[0]


# ---------------------------------------------------------------------------------- max pooling
def _max_pool1d_args(input, kernel_size, stride, padding, dilation, ceil_mode):
    """ATen's check_max_pool1d; returns (k, s, p, d, out)."""
    if input.dim() not in (2, 3):
        raise RuntimeError("max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
                           f"input, but got:{_dims(input)}")
    kernel_size, padding, dilation = _ints(kernel_size), _ints(padding), _ints(dilation)
    stride = [] if stride is None else _ints(stride)
    if len(kernel_size) != 1:
        raise RuntimeError("max_pool1d() kernel_size must be an int, list of ints or tuple of ints of size 1 but "
                           f"got size {len(kernel_size)}")
    if len(stride) > 1:
        raise RuntimeError("max_pool1d() stride must be None, an int, list of ints, or tuple of ints of size 1 but "
                           f"got size {len(stride)}")
    if len(padding) != 1:
        raise RuntimeError("max_pool1d() padding must be an int, list of ints, or tuple of ints of size 1 but got "
                           f"size {len(padding)}")
    if len(dilation) != 1:
        raise RuntimeError("max_pool1d() dilation must be an int, list of ints or tuple of ints of size 1 but got "
                           f"size {len(dilation)}")
    k, p, d = kernel_size[0], padding[0], dilation[0]
    s = stride[0] if stride else k
    if k <= 0:
        raise RuntimeError(f"max_pool1d() kernel_size must be greater than zero, but got {k}")
    if s <= 0:
        raise RuntimeError(f"max_pool1d() stride must be greater than zero, but got {s}")
    if p < 0:
        raise RuntimeError(f"max_pool1d() padding must be non-negative, but got {p}")
    if p > k // 2:
        raise RuntimeError(f"max_pool1d() padding should be at most half of kernel size, but got padding={p} and "
                           f"kernel_size={k}")
    if d <= 0:
        raise RuntimeError(f"max_pool1d() dilation must be greater than zero, but got {d}")
    out = _pool_out(input.shape[-1], k, s, p, d, ceil_mode)
    if out <= 0:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {out}")
    return k, s, p, d, out


def _pool_dims_out(size, k, s, p, d, ceil_mode):
    """ATen's pooling_output_shape with its checks."""
    if s == 0:
        raise RuntimeError("stride should not be zero")
    if p < 0:
        raise RuntimeError(f"pad must be non-negative, but got pad: {p}")
    if p > ((k - 1) * d + 1) // 2:
        raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={p}, kernel_size={k} "
                           f"and dilation={d}")
    return _pool_out(size, k, s, p, d, ceil_mode)


def _pool2d_check(x, k, s, p, d, ceil_mode):
    """ATen's 2-d pooling output shape and pool2d_shape_check for a 3-d/4-d `x`; the output size."""
    h, w = x.shape[-2], x.shape[-1]
    oh = _pool_dims_out(h, k[0], s[0], p[0], d[0], ceil_mode)
    ow = _pool_dims_out(w, k[1], s[1], p[1], d[1], ceil_mode)
    if k[0] <= 0 or k[1] <= 0:
        raise RuntimeError(f"kernel size should be greater than zero, but got kH: {k[0]} kW: {k[1]}")
    if s[0] <= 0 or s[1] <= 0:
        raise RuntimeError(f"stride should be greater than zero, but got dH: {s[0]} dW: {s[1]}")
    if d[0] <= 0 or d[1] <= 0:
        raise RuntimeError(f"dilation should be greater than zero, but got dilationH: {d[0]} dilationW: {d[1]}")
    sh = x.shape
    valid = sh[1] != 0 and sh[2] != 0
    if not ((x.dim() == 3 and sh[0] != 0 and valid) or (x.dim() == 4 and valid and sh[3] != 0)):
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but "
                           f"got:{_dims(x)}")
    if k[1] // 2 < p[1] or k[0] // 2 < p[0]:
        raise RuntimeError(f"pad should be smaller than or equal to half of kernel size, but got padW = {p[1]}, "
                           f"padH = {p[0]}, kW = {k[1]}, kH = {k[0]}")
    if oh < 1 or ow < 1:
        c = x.shape[-3]
        raise RuntimeError(f"Given input size: ({c}x{h}x{w}). Calculated output size: ({c}x{oh}x{ow}). Output size "
                           "is too small")
    return oh, ow


def _pool2d_args(name, x, kernel_size, stride, padding, dilation):
    """max_pool2d_with_indices's argument forms: ((kh, kw), (sh, sw), (ph, pw), (dh, dw))."""
    k = _ints(kernel_size)
    if len(k) not in (1, 2):
        raise RuntimeError(f"{name}: kernel_size must either be a single int, or a tuple of two ints")
    k = k * 2 if len(k) == 1 else k
    s = [] if stride is None else _ints(stride)
    if len(s) not in (0, 1, 2):
        raise RuntimeError(f"{name}: stride must either be omitted, a single int, or a tuple of two ints")
    s = k if not s else (s * 2 if len(s) == 1 else s)
    p = _ints(padding)
    if len(p) not in (1, 2):
        raise RuntimeError(f"{name}: padding must either be a single int, or a tuple of two ints")
    p = p * 2 if len(p) == 1 else p
    d = _ints(dilation)
    if len(d) not in (1, 2):
        raise RuntimeError(f"{name}: dilation must be either a single int, or a tuple of two ints")
    d = d * 2 if len(d) == 1 else d
    if x.dim() not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    return k, s, p, d


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    """2-d max pooling returning (values, indices): each index is the window maximum's flat
    position h * W + w in its input plane (MaxPool2DWithIndicesBackward0).

    >>> x = torch.tensor([[[[1., 5., 2., 0.], [3., 4., 8., 7.]]]])
    >>> torch.nn.functional.max_pool2d_with_indices(x, 2)
    (tensor([[[[5., 8.]]]]), tensor([[[[1, 6]]]]))
    """
    if stride is not None and not isinstance(stride, int) and len(stride) == 0:
        stride = None
    k, s, p, d = _pool2d_args("max_pool2d", input, kernel_size, stride, padding, dilation)
    oh, ow = _pool2d_check(input, k, s, p, d, ceil_mode)
    h, w = input.shape[-2], input.shape[-1]
    indices = _argmax_pool(input, _window_index(h, oh, k[0], s[0], p[0], d[0]),
                           _window_index(w, ow, k[1], s[1], p[1], d[1]), w)
    return _record_max("MaxPool2DWithIndicesBackward0", input, indices), indices


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    """1-d max pooling returning (values, indices), each index the window maximum's position
    along the last dim (MaxPool2DWithIndicesBackward0 under a squeeze, as in PyTorch).

    >>> x = torch.tensor([[[1., 5., 2., 0., 3., 4.]]])
    >>> torch.nn.functional.max_pool1d_with_indices(x, 2)
    (tensor([[[5., 2., 4.]]]), tensor([[[1, 2, 5]]]))
    """
    if stride is not None and not isinstance(stride, int) and len(stride) == 0:
        stride = None
    _dim_range("max_pool1d", input, 2, 4)
    k = _one_int("max_pool1d", "kernel_size", kernel_size)
    s = k if stride is None else _one_int("max_pool1d", "stride", stride)
    p = _one_int("max_pool1d", "padding", padding)
    d = _one_int("max_pool1d", "dilation", dilation)
    x = input.unsqueeze(-2)  # 1-d is a 2-d pool of height 1, as in PyTorch
    y, i = max_pool2d_with_indices(x, (1, k), (1, s), (0, p), (1, d), ceil_mode)
    return y.squeeze(-2), i.squeeze(-2)


def _max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    if stride is not None and not isinstance(stride, int) and len(stride) == 0:
        stride = None
    k, s, p, d, _ = _max_pool1d_args(input, kernel_size, stride, padding, dilation, ceil_mode)
    _no_int("max_pool1d_impl", input)
    if input.dim() == 2:  # the core's 3-d pooling would add a squeeze of its own under PyTorch's node
        return max_pool1d_with_indices(input, k, s, p, d, ceil_mode)[0]
    x = input.unsqueeze(-2)
    return _core._pool2d(x, (1, k), (1, s), (0, p), (1, d), bool(ceil_mode), True).squeeze(-2)


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """The maximum over each kernel_size window along the last dim of (N, C, L) or (C, L) input
    (stride defaults to kernel_size); with `return_indices=True` also each maximum's position.

    >>> x = torch.tensor([[[1., 5., 2., 0., 3.]]])
    >>> torch.nn.functional.max_pool1d(x, 2)
    tensor([[[5., 2.]]])
    >>> torch.nn.functional.max_pool1d(x, 2, ceil_mode=True, return_indices=True)
    (tensor([[[5., 2., 3.]]]), tensor([[[1, 2, 4]]]))
    """
    if return_indices:
        return max_pool1d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return _max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode)


# ---------------------------------------------------------------------------------- average pooling
def _avg_windows(size, out, k, s, p):
    """PyTorch's avg_pool windows: per output, the clipped positions and the pool size
    (counting padding, clipped at the padded end) for count_include_pad."""
    rows, counts, sizes = [], [], []
    for o in range(out):
        start = o * s - p
        end = min(start + k, size + p)
        sizes.append(end - start)
        lo, hi = max(start, 0), min(end, size)
        pos = list(range(lo, hi))
        counts.append(len(pos))
        rows.append(pos)
    return rows, counts, sizes


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    """The mean over each kernel_size window along the last dim of (N, C, L) or (C, L) input
    (stride defaults to kernel_size; `count_include_pad=False` leaves the zero padding out of
    the divisor) (AvgPool2DBackward0 under a squeeze, as in PyTorch).

    >>> x = torch.tensor([[[1., 2., 3., 4., 5.]]])
    >>> torch.nn.functional.avg_pool1d(x, 2)
    tensor([[[1.5000, 3.5000]]])
    >>> torch.nn.functional.avg_pool1d(x, 3, stride=2, padding=1, count_include_pad=False)
    tensor([[[1.5000, 3.0000, 4.5000]]])
    """
    _dim_range("avg_pool1d", input, 2, 4)
    k = _one_int("avg_pool1d", "kernel_size", kernel_size)
    s = k if stride is None or (not isinstance(stride, int) and len(stride) == 0) else \
        _one_int("avg_pool1d", "stride", stride)
    p = _one_int("avg_pool1d", "padding", padding)
    x = input.unsqueeze(-2)
    _, out = _pool2d_check(x, (1, k), (1, s), (0, p), (1, 1), ceil_mode)
    size = x.shape[-1]
    return _avg_pool_last(x, size, out, k, s, p, count_include_pad, None).squeeze(-2)


def _avg_pool_last(x, size, out, k, s, p, count_include_pad, divisor_override):
    """Average pooling along the last dim, recorded as AvgPool2DBackward0."""
    rows, counts, sizes = _avg_windows(size, out, k, s, p)
    if divisor_override is not None:
        div = [float(divisor_override)] * out
    else:
        div = [float(z if count_include_pad else c) for z, c in zip(sizes, counts)]
    width = max(counts) if counts else 0
    # pad each window to `width` with a position of a zero column appended at `size`
    flat = [q for r in rows for q in r + [size] * (width - len(r))]

    def fn(t):
        tz = _zero_pad(_dense(t), t.dim() - 1, 0, 1)
        g = tz.index_select(-1, _new_tensor(flat, t)).reshape(list(t.shape[:-1]) + [out, width])
        if not t.is_floating_point():  # integer pooling divides with truncation, as PyTorch's
            total = g.sum(-1)
            return (total.double() / _new_tensor(div, t, _core.float64)).trunc().to(total.dtype)
        return g.sum(-1) / _new_tensor(div, t, t.dtype)

    return _core._composite("AvgPool2DBackward0", fn, [x])


# ---------------------------------------------------------------------------------- adaptive pooling
def _adaptive_rows(size, out):
    """PyTorch's adaptive windows: [floor(i * size / out), ceil((i + 1) * size / out))."""
    return [(i * size // out, -(-(i + 1) * size // out)) for i in range(out)]


def _adaptive_matrix(size, out, like):
    """The (out, size) matrix that averages each adaptive window."""
    m = [[0.0] * size for _ in range(out)]
    for i, (a, b) in enumerate(_adaptive_rows(size, out)):
        for j in range(a, b):
            m[i][j] = 1.0 / (b - a)
    from .. import tensor

    return tensor(m, dtype=like.dtype, device=like.device)


def _pair_output_size(output_size, x):
    """`_list_with_default`: None entries take the input's size."""
    if isinstance(output_size, int):
        return [output_size, output_size]
    out = list(output_size)
    if x.dim() <= len(out):
        raise ValueError(f"Input dimension should be at least {len(out) + 1}")
    sizes = list(x.shape[-len(out):])
    return [s if v is None else v for v, s in zip(out, sizes)]


def _adaptive_avg2d(x, oh, ow):
    if oh == 1 and ow == 1:
        return x.mean((-1, -2), keepdim=True)
    h, w = x.shape[-2], x.shape[-1]
    if oh == 0 or ow == 0:
        return _core._composite("AdaptiveAvgPool2DBackward0",
                                lambda t: t.new_zeros(list(t.shape[:-2]) + [oh, ow]), [x])

    def fn(t):
        ph, pw = _adaptive_matrix(h, oh, t), _adaptive_matrix(w, ow, t)
        return ph.matmul(t).matmul(pw.t()).contiguous()

    return _core._composite("AdaptiveAvgPool2DBackward0", fn, [x])


def _adaptive_avg_checks(x, oh, ow):
    if x.dim() not in (3, 4):
        raise RuntimeError(f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got {_dims(x)}")
    for i in (-2, -1):
        if x.shape[i] == 0:
            raise RuntimeError("adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch dimensions, "
                               f"but input has sizes {_dims(x)} with dimension {i + x.dim()} being empty")
    _no_int("adaptive_avg_pool2d", x)


def adaptive_avg_pool2d(input, output_size):
    """Average pooling to `output_size` (oh, ow) over the last two dims: output (i, j) averages
    rows [floor(i*H/oh), ceil((i+1)*H/oh)) and the columns likewise; None keeps that size
    (AdaptiveAvgPool2DBackward0; an output of 1x1 is a mean, MeanBackward1, as in PyTorch).

    >>> x = torch.arange(16.).reshape(1, 1, 4, 4)
    >>> torch.nn.functional.adaptive_avg_pool2d(x, 2)
    tensor([[[[ 2.5000,  4.5000],
              [10.5000, 12.5000]]]])
    >>> torch.nn.functional.adaptive_avg_pool2d(x, (1, None))
    tensor([[[[6., 7., 8., 9.]]]])
    """
    size = _pair_output_size(output_size, input)
    if len(size) != 2:
        raise RuntimeError("adaptive_avg_pool2d: output_size must be 2")
    oh, ow = size
    if oh < 0 or ow < 0:
        raise RuntimeError("adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but "
                           f"received {{{oh}, {ow}}}")
    if not (oh == 1 and ow == 1):
        _adaptive_avg_checks(input, oh, ow)
    return _adaptive_avg2d(input, oh, ow)


def adaptive_avg_pool1d(input, output_size):
    """Average pooling to `output_size` along the last dim of (N, C, L) or (C, L) input: output i
    averages [floor(i*L/out), ceil((i+1)*L/out)) (AdaptiveAvgPool2DBackward0 under a squeeze).

    >>> torch.nn.functional.adaptive_avg_pool1d(torch.tensor([[[1., 2., 3., 4., 5.]]]), 2)
    tensor([[[2., 4.]]])
    """
    if output_size is None:
        raise TypeError("adaptive_avg_pool1d(): argument 'output_size' (position 2) must be tuple of ints, not "
                        "NoneType")
    _dim_range("adaptive_avg_pool1d", input, 2, 4)
    out = _one_int("adaptive_avg_pool1d", "output_size", output_size)
    x = input.unsqueeze(-2)
    if out < 0:
        raise RuntimeError("adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but "
                           f"received {{1, {out}}}")
    if out != 1:
        _adaptive_avg_checks(x, 1, out)
    return _adaptive_avg2d(x, 1, out).squeeze(-2)


def _adaptive_max2d(x, oh, ow):
    h, w = x.shape[-2], x.shape[-1]
    if oh < 0 or ow < 0:
        shape = list(x.shape[:-2]) + [oh, ow]
        bad = oh if oh < 0 else ow
        raise RuntimeError(f"Trying to create tensor with negative dimension {bad}: {shape}")

    def rows(size, out):
        result = []
        for a, b in _adaptive_rows(size, out):
            result.append(list(range(a, b)))
        width = max((len(r) for r in result), default=0)
        return [r + [r[-1]] * (width - len(r)) for r in result]

    if oh == 0 or ow == 0:
        indices = x.new_zeros(list(x.shape[:-2]) + [oh, ow], dtype=_core.int64)
    else:
        indices = _argmax_pool(x, rows(h, oh), rows(w, ow), w)
    return _record_max("AdaptiveMaxPool2DBackward0", x, indices), indices


def _adaptive_max_checks(name, x):
    for i in range(1, x.dim()):
        if x.shape[i] == 0:
            raise RuntimeError(f"{name}(): Expected input to have non-zero size for non-batch dimensions, but input "
                               f"has sizes {_dims(x)} with dimension {i} being empty")


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    """`adaptive_max_pool2d` returning (values, indices), the indices flat positions h * W + w.

    >>> x = torch.tensor([[[[1., 5., 2.], [3., 4., 8.]]]])
    >>> torch.nn.functional.adaptive_max_pool2d_with_indices(x, (1, 2))
    (tensor([[[[5., 8.]]]]), tensor([[[[1, 5]]]]))
    """
    oh, ow = _pair_output_size(output_size, input)
    if input.dim() not in (3, 4):
        raise RuntimeError(f"adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: {_dims(input)}")
    _adaptive_max_checks("adaptive_max_pool2d", input)
    _no_int("adaptive_max_pool2d", input)
    return _adaptive_max2d(input, oh, ow)


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """Max pooling to `output_size` (oh, ow) over the last two dims, windows as in
    adaptive_avg_pool2d (AdaptiveMaxPool2DBackward0); `return_indices=True` also gives each
    maximum's flat position h * W + w.

    >>> x = torch.arange(16.).reshape(1, 1, 4, 4)
    >>> torch.nn.functional.adaptive_max_pool2d(x, 2)
    tensor([[[[ 5.,  7.],
              [13., 15.]]]])
    """
    y, i = adaptive_max_pool2d_with_indices(input, output_size)
    return (y, i) if return_indices else y


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    """`adaptive_max_pool1d` returning (values, indices).

    >>> torch.nn.functional.adaptive_max_pool1d_with_indices(torch.tensor([[[1., 5., 2., 0., 3.]]]), 2)
    (tensor([[[5., 3.]]]), tensor([[[1, 4]]]))
    """
    _dim_range("adaptive_max_pool1d", input, 2, 4)
    out = _one_int("adaptive_max_pool1d", "output_size", output_size)
    _adaptive_max_checks("adaptive_max_pool1d", input)
    _no_int("adaptive_max_pool2d", input)
    y, i = _adaptive_max2d(input.unsqueeze(-2), 1, out)
    return y.squeeze(-2), i.squeeze(-2)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """Max pooling to `output_size` along the last dim of (N, C, L) or (C, L) input, windows as in
    adaptive_avg_pool1d (AdaptiveMaxPool2DBackward0 under a squeeze).

    >>> x = torch.tensor([[[1., 5., 2., 0., 3.]]])
    >>> torch.nn.functional.adaptive_max_pool1d(x, 2)
    tensor([[[5., 3.]]])
    >>> torch.nn.functional.adaptive_max_pool1d(x, 2, return_indices=True)
    (tensor([[[5., 3.]]]), tensor([[[1, 4]]]))
    """
    y, i = adaptive_max_pool1d_with_indices(input, output_size)
    return (y, i) if return_indices else y


# ---------------------------------------------------------------------------------- power-average pooling
def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """(sum over each window of x**p) ** (1/p) along the last dim, composed as PyTorch composes it
    (avg_pool1d of x**p, times the window size, to the power 1/p: PowBackward0).

    >>> torch.nn.functional.lp_pool1d(torch.tensor([[[3., 4., 1., 1.]]]), 2, 2)
    tensor([[[5.0000, 1.4142]]])
    """
    from .functional import relu

    if isinstance(norm_type, (int, float)):
        if norm_type == 0:
            raise ValueError(f"norm_type must be a non-zero value, but got {norm_type}")
        if norm_type == math.inf:
            return max_pool1d(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
        if norm_type == -math.inf:
            return -max_pool1d(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if stride is not None:
        out = avg_pool1d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = avg_pool1d(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return (out.sign() * relu(out.abs())).mul(kernel_size).pow(1.0 / norm_type)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """(sum over each window of x**p) ** (1/p) over the last two dims, composed as PyTorch
    composes it (PowBackward0).

    >>> torch.nn.functional.lp_pool2d(torch.tensor([[[[3., 4.], [0., 0.]]]]), 2, 2)
    tensor([[[[5.]]]])
    """
    from .functional import avg_pool2d, max_pool2d, relu

    kw, kh = _tuple(kernel_size, 2)
    if isinstance(norm_type, (int, float)):
        if norm_type == 0:
            raise ValueError(f"norm_type must be a non-zero value, but got {norm_type}")
        if norm_type == math.inf:
            return max_pool2d(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
        if norm_type == -math.inf:
            return -max_pool2d(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if stride is not None:
        out = avg_pool2d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = avg_pool2d(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return (out.sign() * relu(out.abs())).mul(kw * kh).pow(1.0 / norm_type)


# ---------------------------------------------------------------------------------- max unpooling
def _unpool_output_size(input, kernel_size, stride, padding, output_size):
    default = [(input.shape[-len(kernel_size) + d] - 1) * stride[d] + kernel_size[d] - 2 * padding[d]
               for d in range(len(kernel_size))]
    if output_size is None:
        return default
    if len(output_size) == len(kernel_size) + 2:
        output_size = output_size[2:]
    if len(output_size) != len(kernel_size):
        raise ValueError(f"output_size should be a sequence containing {len(kernel_size)} or {len(kernel_size) + 2} "
                         f"elements, but it has a length of '{len(output_size)}'")
    for d in range(len(kernel_size)):
        lo, hi = default[d] - stride[d], default[d] + stride[d]
        if not lo < output_size[d] < hi:
            raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be between {lo} and {hi})')
    return output_size


def _max_unpool2d(input, indices, oh, ow):
    if indices.dtype != _core.int64:
        raise RuntimeError(f"elements in indices should be type int64 but got: {_scalar_name(indices.dtype)}")
    if list(indices.shape) != list(input.shape):
        raise RuntimeError("Expected shape of indices to be same as that of the input tensor "
                           f"({_dims(input)}) but got indices tensor with shape: {_dims(indices)}")
    if input.dim() not in (3, 4):
        raise RuntimeError(f"Input to max_unpooling2d should be a 3d or 4d Tensor, but got a tensor with "
                           f"{input.dim()} dimensions.")
    for i in range(1, input.dim()):
        if input.shape[i] <= 0:
            raise RuntimeError(f"max_unpooling2d(): Expected input to have non-zero size for non-batch dimensions, "
                               f"but got {_dims(input)} with dimension {i} being empty.")
    if indices.numel():
        lo, hi = int(indices.min()), int(indices.max())
        bad = lo if lo < 0 else (hi if hi >= oh * ow else None)
        if bad is not None:
            raise RuntimeError(f"Found an invalid max index: {bad} (output volumes are of size {oh}x{ow})")
    lead = list(input.shape[:-2])
    flat = indices.reshape(lead + [-1])

    def fn(t):
        out = t.new_zeros(lead + [oh * ow])
        return out.scatter(-1, flat, t.reshape(lead + [-1])).reshape(lead + [oh, ow])

    return _core._composite("MaxUnpool2DBackward0", fn, [input])


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The partial inverse of max_pool2d: each value of `input` written at its flat position
    h * W + w from `indices` (max_pool2d's), zeros elsewhere (MaxUnpool2DBackward0).

    >>> y, i = torch.nn.functional.max_pool2d_with_indices(torch.tensor([[[[1., 5.], [3., 2.]]]]), 2)
    >>> torch.nn.functional.max_unpool2d(y, i, 2)
    tensor([[[[0., 5.],
              [0., 0.]]]])
    """
    kernel_size = _tuple(kernel_size, 2)
    stride = kernel_size if stride is None else _tuple(stride, 2)
    padding = _tuple(padding, 2)
    oh, ow = _unpool_output_size(input, kernel_size, stride, padding, output_size)
    return _max_unpool2d(input, indices, oh, ow)


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The partial inverse of max_pool1d: each value of `input` written at its position from
    `indices`, zeros elsewhere (MaxUnpool2DBackward0 under a squeeze, as in PyTorch).

    >>> y, i = torch.nn.functional.max_pool1d(torch.tensor([[[1., 5., 3., 2.]]]), 2, return_indices=True)
    >>> torch.nn.functional.max_unpool1d(y, i, 2)
    tensor([[[0., 5., 3., 0.]]])
    """
    kernel_size = _tuple(kernel_size, 1)
    stride = kernel_size if stride is None else _tuple(stride, 1)
    padding = _tuple(padding, 1)
    (size,) = _unpool_output_size(input, kernel_size, stride, padding, output_size)
    return _max_unpool2d(input.unsqueeze(-1), indices.unsqueeze(-1), size, 1).squeeze(-1)
