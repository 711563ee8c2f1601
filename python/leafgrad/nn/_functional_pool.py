"""`torch.nn.functional`'s poolings beyond max_pool2d/avg_pool2d: max/avg/lp pooling in 1-d (and
max_pool2d with indices), adaptive average and max pooling, max_unpool, composed of leafgrad ops
and recorded as PyTorch's one node as `_functional_conv`'s convolutions are."""
import math

from .. import _core
from .._gather import _scalar_name
from ._functional_conv import _dense, _dims, _ints, _new_tensor, _tuple, _zero_pad


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
