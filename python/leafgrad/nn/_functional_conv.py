"""`torch.nn.functional`'s convolutions beyond conv2d: conv1d, conv3d, conv_transpose1d/2d/3d (the
poolings beyond max_pool2d/avg_pool2d are in `_functional_pool`, on this module's helpers).

Each is composed of leafgrad ops (conv2d, index_select, cat, matmul, gather, ...) and recorded
as the one node PyTorch records (`_core._composite`: its backward re-runs the composition and
differentiates it, so gradients of any order flow). PyTorch's argument checks and messages come
first. Transposed convolutions are convolutions of the zero-stuffed, re-padded input with the
flipped kernel; conv3d folds the kernel's depth into the channels of one conv2d.
"""

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


def _check_dtypes(x, weight, bias, slow_kernel=False):
    """PyTorch's dtype checks (`slow_kernel`: its slow_conv_transpose3d, which checks the bias as
    the weight)."""
    if x.dtype != weight.dtype:
        if x.dtype == _core.float32:
            raise RuntimeError(f"Input type ({x.type()}) and weight type ({weight.type()}) should be the same or "
                               "input should be a MKLDNN tensor and weight is a dense tensor")
        raise RuntimeError(f"expected scalar type {_scalar_name(x.dtype)} but found {_scalar_name(weight.dtype)}")
    if slow_kernel and bias is not None and bias.dtype != x.dtype:
        raise RuntimeError(f"expected scalar type {_scalar_name(x.dtype)} but found {_scalar_name(bias.dtype)}")
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
        if transposed and len(dilation) == 3:  # slow_conv_transpose3d's own check comes first there
            raise RuntimeError(f"dilation should be greater than zero, but got dilation_depth: {dilation[0]}, "
                               f"dilation_height: {dilation[1]}, dilation_width: {dilation[2]}")
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
        axes = ("depth", "height", "width")[-len(op2):]
        got = " ".join(f"{what}_{axis}: {v[i]}" for what, v in (("output_padding", op2), ("stride", s2),
                                                                  ("dilation", d2)) for i, axis in enumerate(axes))
        raise RuntimeError(f"output padding must be smaller than either stride or dilation, but got {got}")
    ks = list(weight.shape[2:])
    out = [(x.shape[i + 2] - 1) * stride[i] - 2 * padding[i] + dilation[i] * (ks[i] - 1) + output_padding[i] + 1
           for i in range(dim)]
    if any(o < 1 for o in out):
        size_in = two(x.shape[2:], 1)
        raise RuntimeError(f"Given input size per channel: ({' x '.join(map(str, size_in))}). Calculated output size "
                           f"per channel: ({' x '.join(map(str, two(out, 1)))}). Output size is too small")
    _check_dtypes(x, weight, bias, dim == 3)
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


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """The transposed 3-d convolution (the gradient of conv3d with respect to its input) of
    `input` (N, C_in, D, H, W) or (C_in, D, H, W) with `weight` (C_in, C_out/groups, kD, kH, kW)
    (ConvolutionBackward0).

    >>> x = torch.tensor([[[[[1., 2.]]]]])
    >>> torch.nn.functional.conv_transpose3d(x, torch.ones(1, 1, 2, 1, 2))
    tensor([[[[[1., 3., 2.]],
    <BLANKLINE>
              [[1., 3., 2.]]]]])
    >>> torch.nn.functional.conv_transpose3d(torch.ones(1, 2, 2, 3, 4), torch.ones(2, 3, 1, 1, 1), stride=2).shape
    torch.Size([1, 3, 3, 5, 7])
    """
    return _conv_transpose("conv_transpose3d", 3, input, weight, bias, stride, padding, output_padding, groups,
                           dilation)
