"""`torch.nn.functional`'s poolings beyond max_pool2d/avg_pool2d: max/avg/lp pooling in 1-d, max
and average pooling in 3-d (and max_pool2d with indices), adaptive average and max pooling in 1-3
dims, max_unpool (fractional max pooling: `_functional_fractional`), composed of leafgrad ops and recorded as PyTorch's one
node as `_functional_conv`'s convolutions are. One set of N-d helpers serves every dimension: the
window positions per dim, the argmax over gathered windows (PyTorch's first maximum, last NaN),
window sums one dim at a time over PyTorch's divisors, and averaging matrices per dim."""
import itertools
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


def _flat_windows(rows, sizes):
    """The flat (row-major over the pooled dims of `sizes`) input positions of every window
    element: rows[d][o] lists dim d's positions of output o's window; the result runs over the
    outputs in row-major order, each window's positions in row-major order."""
    strides = [math.prod(sizes[d + 1:]) for d in range(len(sizes))]
    scaled = [[[q * st for q in r] for r in rs] for rs, st in zip(rows, strides)]
    return [sum(c) for combo in itertools.product(*scaled) for c in itertools.product(*combo)]


def _argmax_pool(x, rows, sizes):
    """Flat (row-major over the last len(rows) dims) indices of each window's maximum, shape
    (..., *outputs); rows[d][o] lists dim d's input positions of output o's window."""
    outs = [len(r) for r in rows]
    kk = math.prod(len(r[0]) if r else 0 for r in rows)
    idx = _new_tensor(_flat_windows(rows, sizes), x).reshape(math.prod(outs), kk)
    return _argmax_windows(x, idx, outs)


def _argmax_windows(x, idx, outs):
    """Flat (row-major over the last len(outs) dims) indices of each window's maximum (the first
    maximum in row-major window order, or the last NaN, as PyTorch's kernels pick it), shape
    (..., *outs); `idx` (P, K), or (..., P, K) for windows that differ by plane, holds the flat
    positions of each output's K window elements."""
    n = len(outs)
    lead = list(x.shape[:-n])
    p, kk = idx.shape[-2], idx.shape[-1]
    idx = idx.expand(lead + [p, kk])
    g = x.detach().flatten(-n).gather(-1, idx.reshape(lead + [p * kk])).reshape(lead + [p, kk])
    j = g.argmax(-1, keepdim=True)
    nan = g.isnan() if g.is_floating_point() else None
    if nan is not None and bool(nan.any()):  # PyTorch's kernels keep the window's last NaN
        last = (nan.long() * _new_tensor(list(range(1, kk + 1)), g)).argmax(-1, keepdim=True)
        j = last.where(nan.any(-1, keepdim=True), j)
    return idx.gather(-1, j).reshape(lead + list(outs))


def _take(x, indices, n):
    """x's values at the flat positions `indices` (..., *outputs) over its last n dims."""
    lead = list(x.shape[:-n])
    outs = list(indices.shape[len(lead):])
    return x.flatten(-n).gather(-1, indices.reshape(lead + [math.prod(outs)])).reshape(lead + outs)


def _record_max(name, x, indices, n=2):
    return _core._composite(name, lambda t: _take(t, indices, n), [x])


def _dtype_check(name, x, ok):
    """NotImplementedError as PyTorch's dispatch gives it for a dtype its kernel lacks."""
    if not ok(x):
        raise NotImplementedError(f'"{name}" not implemented for \'{_scalar_name(x.dtype)}\'')


def _no_int(name, x):
    _dtype_check(name, x, lambda t: t.is_floating_point())


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


def _half(v):
    """v / 2 rounded toward zero, as C++ divides."""
    return -(-v // 2) if v < 0 else v // 2


def _pool_dims_out(size, k, s, p, d, ceil_mode):
    """ATen's pooling_output_shape with its checks."""
    if s == 0:
        raise RuntimeError("stride should not be zero")
    if p < 0:
        raise RuntimeError(f"pad must be non-negative, but got pad: {p}")
    if p > _half((k - 1) * d + 1):
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


def _nonempty(name, x, skip_batch, sizes_word="input has sizes"):
    """ATen's check that the non-batch dims are non-empty (`skip_batch`: dim 0 may be empty)."""
    for i in range(1 if skip_batch else 0, x.dim()):
        if x.shape[i] == 0:
            raise RuntimeError(f"{name}: Expected input to have non-zero size for non-batch dimensions, but "
                               f"{sizes_word} {_dims(x)} with dimension {i} being empty")


def _pool3d_check(name, x, k, s, p, d, ceil_mode, check_input_size=False):
    """ATen's 3-d pooling output shape and pool3d_shape_check for a 4-d/5-d `x`; the output size."""
    sizes = list(x.shape[-3:])
    out = [_pool_dims_out(sizes[i], k[i], s[i], p[i], d[i], ceil_mode) for i in range(3)]
    for what, v, tag in (("kernel size", k, "k"), ("stride", s, "d"), ("dilation", d, "dilation")):
        if min(v) <= 0:
            raise RuntimeError(f"{what} should be greater than zero, but got {tag}T: {v[0]} {tag}H: {v[1]} {tag}W: "
                               f"{v[2]}")
    _nonempty(name, x, x.dim() == 5)
    if check_input_size and any(z < q for z, q in zip(sizes, k)):
        raise RuntimeError(f"input image (T: {sizes[0]} H: {sizes[1]} W: {sizes[2]}) smaller than kernel size "
                           f"(kT: {k[0]} kH: {k[1]} kW: {k[2]})")
    if any(q // 2 < r for q, r in zip(k, p)):
        raise RuntimeError(f"pad should be smaller than or equal to half of kernel size, but got kT: {k[0]} kW: {k[2]} "
                           f"kH: {k[1]} padT: {p[0]} padW: {p[2]} padH: {p[1]}")
    if min(out) < 1:
        c = x.shape[-4]
        raise RuntimeError(f"Given input size: ({c}x{'x'.join(map(str, sizes))}). Calculated output size: "
                           f"({c}x{'x'.join(map(str, out))}). Output size is too small")
    return out


_MAX_FORMS = ("kernel_size must either be a single int", "stride must either be omitted, a single int",
              "padding must either be a single int", "dilation must be either a single int")
_AVG_FORMS = ("kernel_size must be a single int", "stride must be omitted, a single int",
              "padding must be a single int")


def _pool_args(name, n, x, forms, kernel_size, stride, padding, dilation=1):
    """An n-d pooling's int-list arguments as ATen reads them (each one int or n ints, the stride
    also omitted for the kernel size): (kernel, stride, padding, dilation) as lists of n."""
    word = {2: "two", 3: "three"}[n]

    def expand(v, form, omitted=None):
        v = _ints(v)
        if omitted is not None and not v:
            return list(omitted)
        if len(v) not in (1, n):
            raise RuntimeError(f"{name}: {form}, or a tuple of {word} ints")
        return v * n if len(v) == 1 else v

    if stride is not None and not isinstance(stride, int) and len(stride) == 0:
        stride = None
    k = expand(kernel_size, forms[0])
    s = expand([] if stride is None else stride, forms[1], k)
    p = expand(padding, forms[2])
    d = expand(dilation, forms[3]) if len(forms) > 3 else [1] * n
    if x.dim() not in (n + 1, n + 2):
        raise RuntimeError(f"non-empty {n + 1}D or {n + 2}D (batch mode) tensor expected for input")
    return k, s, p, d


def _max_pool_nd(node, x, k, s, p, d, out):
    """Max pooling over the last len(k) dims: (values recorded as `node`, flat indices)."""
    sizes = list(x.shape[-len(k):])
    rows = [_window_index(sizes[i], out[i], k[i], s[i], p[i], d[i]) for i in range(len(k))]
    indices = _argmax_pool(x, rows, sizes)
    return _record_max(node, x, indices, len(k)), indices


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    """2-d max pooling returning (values, indices): each index is the window maximum's flat
    position h * W + w in its input plane (MaxPool2DWithIndicesBackward0).

    >>> x = torch.tensor([[[[1., 5., 2., 0.], [3., 4., 8., 7.]]]])
    >>> torch.nn.functional.max_pool2d_with_indices(x, 2)
    (tensor([[[[5., 8.]]]]), tensor([[[[1, 6]]]]))
    """
    k, s, p, d = _pool_args("max_pool2d", 2, input, _MAX_FORMS, kernel_size, stride, padding, dilation)
    out = _pool2d_check(input, k, s, p, d, ceil_mode)
    return _max_pool_nd("MaxPool2DWithIndicesBackward0", input, k, s, p, d, out)


def max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    """3-d max pooling returning (values, indices): each index is the window maximum's flat
    position (d * H + h) * W + w in its input volume (MaxPool3DWithIndicesBackward0).

    >>> x = torch.arange(8.).reshape(1, 1, 2, 2, 2)
    >>> torch.nn.functional.max_pool3d_with_indices(x, 2)
    (tensor([[[[[7.]]]]]), tensor([[[[[7]]]]]))
    """
    k, s, p, d = _pool_args("max_pool3d", 3, input, _MAX_FORMS, kernel_size, stride, padding, dilation)
    out = _pool3d_check("max_pool3d_with_indices_out_cpu_template()", input, k, s, p, d, ceil_mode)
    _dtype_check("max_pool3d", input, lambda t: t.dtype != _core.bool)
    return _max_pool_nd("MaxPool3DWithIndicesBackward0", input, k, s, p, d, out)


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """The maximum over each kernel_size window of the last three dims of (N, C, D, H, W) or
    (C, D, H, W) input (stride defaults to kernel_size); with `return_indices=True` also each
    maximum's flat position in its volume (MaxPool3DWithIndicesBackward0).

    >>> x = torch.arange(27.).reshape(1, 1, 3, 3, 3)
    >>> torch.nn.functional.max_pool3d(x, 2, stride=1)
    tensor([[[[[13., 14.],
               [16., 17.]],
    <BLANKLINE>
              [[22., 23.],
               [25., 26.]]]]])
    >>> torch.nn.functional.max_pool3d(x, 2, ceil_mode=True, return_indices=True)[1]
    tensor([[[[[13, 14],
               [16, 17]],
    <BLANKLINE>
              [[22, 23],
               [25, 26]]]]])
    """
    y, i = max_pool3d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return (y, i) if return_indices else y


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
    return _avg_pool_nd("AvgPool2DBackward0", x, [k], [s], [p], [out], count_include_pad, None).squeeze(-2)


def _window_sum(t, dim, size, rows):
    """The sums of `t` over windows of positions `rows` ([out][...]) along `dim`."""
    width = max((len(r) for r in rows), default=0)
    # pad each window to `width` with the position of a zero appended at `size`
    flat = [q for r in rows for q in r + [size] * (width - len(r))]
    g = _zero_pad(t, dim, 0, 1).index_select(dim, _new_tensor(flat, t))
    shape = list(t.shape)
    return g.reshape(shape[:dim] + [len(rows), width] + shape[dim + 1:]).sum(dim + 1)


def _avg_pool_nd(node, x, k, s, p, out, count_include_pad, divisor_override):
    """Average pooling over the last len(k) dims, recorded as `node`: the window sums (one dim at
    a time) over PyTorch's divisors (integer input divides with truncation, as PyTorch's)."""
    n = len(k)
    sizes = list(x.shape[-n:])
    wins = [_avg_windows(sizes[i], out[i], k[i], s[i], p[i]) for i in range(n)]
    if divisor_override is not None:
        div = [float(divisor_override)] * math.prod(out)
    else:
        per_dim = [sz if count_include_pad else cnt for _, cnt, sz in wins]
        div = [float(math.prod(c)) for c in itertools.product(*per_dim)]

    def fn(t):
        t = _dense(t)
        for i, (rows, _, _) in enumerate(wins):
            t = _window_sum(t, t.dim() - n + i, sizes[i], rows)
        if not t.is_floating_point():
            divisor = _new_tensor(div, t, _core.float64).reshape(out)
            return (t.double() / divisor).trunc().to(t.dtype)
        return t / _new_tensor(div, t, t.dtype).reshape(out)

    return _core._composite(node, fn, [x])


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """The mean over each kernel_size window of the last three dims of (N, C, D, H, W) or
    (C, D, H, W) input (stride defaults to kernel_size; `count_include_pad=False` leaves the zero
    padding out of the divisor, `divisor_override` replaces it) (AvgPool3DBackward0).

    >>> x = torch.arange(27.).reshape(1, 1, 3, 3, 3)
    >>> torch.nn.functional.avg_pool3d(x, 2)
    tensor([[[[[6.5000]]]]])
    >>> torch.nn.functional.avg_pool3d(x, 2, padding=1, count_include_pad=False)[0, 0, 0]
    tensor([[0.0000, 1.5000],
            [4.5000, 6.0000]])
    """
    if divisor_override is not None and not isinstance(divisor_override, int):
        raise TypeError("avg_pool3d(): argument 'divisor_override' must be int, not "
                        f"{type(divisor_override).__name__}")
    k, s, p, _ = _pool_args("avg_pool3d", 3, input, _AVG_FORMS, kernel_size, stride, padding)
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    out = _pool3d_check("avg_pool3d()", input, k, s, p, [1] * 3, ceil_mode, True)
    _dtype_check("avg_pool3d_out_frame", input, lambda t: t.dtype in (_core.float32, _core.float64, _core.int64))
    return _avg_pool_nd("AvgPool3DBackward0", input, k, s, p, out, count_include_pad, divisor_override)


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


def _output_size(output_size, x, n=2):
    """`_list_with_default`: an int repeated n times; None entries take the input's size."""
    if isinstance(output_size, int):
        return [output_size] * n
    out = list(output_size)
    if x.dim() <= len(out):
        raise ValueError(f"Input dimension should be at least {len(out) + 1}")
    sizes = list(x.shape[-len(out):])
    return [s if v is None else v for v, s in zip(out, sizes)]


def _adaptive_avg(node, x, out):
    """Adaptive average pooling of the last len(out) dims (a mean where every output size is 1,
    as PyTorch's), recorded as `node`: one averaging matrix product per dim."""
    n = len(out)
    if all(o == 1 for o in out):
        return x.mean(tuple(range(-1, -n - 1, -1)), keepdim=True)
    if 0 in out:
        return _core._composite(node, lambda t: t.new_zeros(list(t.shape[:-n]) + list(out)), [x])

    def fn(t):
        for i, o in enumerate(out):
            dim = t.dim() - n + i
            m = _adaptive_matrix(t.shape[dim], o, t)
            t = t.matmul(m.t()) if i == n - 1 else m.matmul(t.movedim(dim, -2)).movedim(-2, dim)
        return t.contiguous()

    return _core._composite(node, fn, [x])


def _adaptive_avg_args(name, output_size, x, n):
    """adaptive_avg_pool{n}d's output size with PyTorch's checks (those on the input only where
    some output size is not 1)."""
    out = _output_size(output_size, x, n)
    if len(out) != n:
        raise RuntimeError(f"{name}: output_size must be {n}")
    if any(o < 0 for o in out):
        shown = ", ".join(map(str, out)) if n == 2 else f"{out[0]}, {','.join(map(str, out[1:]))}"
        raise RuntimeError(f"{name}: elements of output_size must be greater than or equal to 0 but received "
                           f"{{{shown}}}")
    if any(o != 1 for o in out):
        if n == 2:
            if x.dim() not in (3, 4):
                raise RuntimeError(f"{name}(): Expected 3D or 4D tensor, but got {_dims(x)}")
            for i in (-2, -1):
                if x.shape[i] == 0:
                    raise RuntimeError(f"{name}(): Expected input to have non-zero size for non-batch dimensions, "
                                       f"but input has sizes {_dims(x)} with dimension {i + x.dim()} being empty")
        else:
            _nonempty(f"{name}()", x, True)
            if x.dim() not in (n + 1, n + 2):
                raise RuntimeError(f"{name}(): Expected {n + 1}D or {n + 2}D tensor, but got {_dims(x)}")
        _no_int(name if n == 2 else f"{name}_cpu", x)
    return out


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
    out = _adaptive_avg_args("adaptive_avg_pool2d", output_size, input, 2)
    return _adaptive_avg("AdaptiveAvgPool2DBackward0", input, out)


def adaptive_avg_pool3d(input, output_size):
    """Average pooling to `output_size` (od, oh, ow) over the last three dims of (N, C, D, H, W)
    or (C, D, H, W) input, each dim's windows as in adaptive_avg_pool2d; None keeps that size
    (AdaptiveAvgPool3DBackward0; an output of 1x1x1 is a mean, MeanBackward1, as in PyTorch).

    >>> x = torch.arange(16.).reshape(1, 1, 2, 2, 4)
    >>> torch.nn.functional.adaptive_avg_pool3d(x, (1, 1, 2))
    tensor([[[[[6.5000, 8.5000]]]]])
    >>> torch.nn.functional.adaptive_avg_pool3d(x, (None, 1, 1)).flatten()
    tensor([ 3.5000, 11.5000])
    """
    out = _adaptive_avg_args("adaptive_avg_pool3d", output_size, input, 3)
    return _adaptive_avg("AdaptiveAvgPool3DBackward0", input, out)


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
    out = _adaptive_avg_args("adaptive_avg_pool2d", (1, out), x, 2)
    return _adaptive_avg("AdaptiveAvgPool2DBackward0", x, out).squeeze(-2)


def _adaptive_max(name, node, x, out, n):
    """Adaptive max pooling of the last n dims to `out` with PyTorch's checks: (values recorded
    as `node`, flat indices)."""
    if x.dim() not in (n + 1, n + 2):
        raise RuntimeError(f"{name}(): Expected {n + 1}D or {n + 2}D tensor, but got: {_dims(x)}")
    _nonempty(f"{name}()", x, True)
    if len(out) != n:
        raise RuntimeError(f"{name}(): internal error: output_size.size() must be {n}")
    if any(o < 0 for o in out):
        shape = list(x.shape[:-n]) + list(out)
        raise RuntimeError(f"Trying to create tensor with negative dimension {next(o for o in out if o < 0)}: "
                           f"{shape}")
    _no_int(name if n == 2 else f"{name}_cpu", x)
    if 0 in out:
        indices = x.new_zeros(list(x.shape[:-n]) + list(out), dtype=_core.int64)
    else:
        sizes = list(x.shape[-n:])
        rows = []
        for size, o in zip(sizes, out):
            wins = [list(range(a, b)) for a, b in _adaptive_rows(size, o)]
            width = max(len(r) for r in wins)  # a window repeats its last position up to the widest
            rows.append([r + [r[-1]] * (width - len(r)) for r in wins])
        indices = _argmax_pool(x, rows, sizes)
    return _record_max(node, x, indices, n), indices


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    """`adaptive_max_pool2d` returning (values, indices), the indices flat positions h * W + w.

    >>> x = torch.tensor([[[[1., 5., 2.], [3., 4., 8.]]]])
    >>> torch.nn.functional.adaptive_max_pool2d_with_indices(x, (1, 2))
    (tensor([[[[5., 8.]]]]), tensor([[[[1, 5]]]]))
    """
    return _adaptive_max("adaptive_max_pool2d", "AdaptiveMaxPool2DBackward0", input,
                         _output_size(output_size, input), 2)


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


def adaptive_max_pool3d_with_indices(input, output_size, return_indices=False):
    """`adaptive_max_pool3d` returning (values, indices), the indices flat positions
    (d * H + h) * W + w.

    >>> x = torch.arange(8.).reshape(1, 1, 2, 2, 2)
    >>> torch.nn.functional.adaptive_max_pool3d_with_indices(x, (1, 1, 2))
    (tensor([[[[[6., 7.]]]]]), tensor([[[[[6, 7]]]]]))
    """
    return _adaptive_max("adaptive_max_pool3d", "AdaptiveMaxPool3DBackward0", input,
                         _output_size(output_size, input, 3), 3)


def adaptive_max_pool3d(input, output_size, return_indices=False):
    """Max pooling to `output_size` (od, oh, ow) over the last three dims of (N, C, D, H, W) or
    (C, D, H, W) input, windows as in adaptive_avg_pool3d (AdaptiveMaxPool3DBackward0);
    `return_indices=True` also gives each maximum's flat position in its volume.

    >>> x = torch.arange(16.).reshape(1, 1, 2, 2, 4)
    >>> torch.nn.functional.adaptive_max_pool3d(x, (1, 1, 2))
    tensor([[[[[13., 15.]]]]])
    """
    y, i = adaptive_max_pool3d_with_indices(input, output_size)
    return (y, i) if return_indices else y


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    """`adaptive_max_pool1d` returning (values, indices).

    >>> torch.nn.functional.adaptive_max_pool1d_with_indices(torch.tensor([[[1., 5., 2., 0., 3.]]]), 2)
    (tensor([[[5., 3.]]]), tensor([[[1, 4]]]))
    """
    _dim_range("adaptive_max_pool1d", input, 2, 4)
    out = _one_int("adaptive_max_pool1d", "output_size", output_size)
    _nonempty("adaptive_max_pool1d()", input, True)
    y, i = _adaptive_max("adaptive_max_pool2d", "AdaptiveMaxPool2DBackward0", input.unsqueeze(-2), [1, out], 2)
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


def _max_unpool(input, indices, out, stride):
    """Each value of `input` written at its flat position (row-major over len(out) dims) from
    `indices`, zeros elsewhere, with PyTorch's checks in its order (MaxUnpool{n}DBackward0)."""
    n = len(out)
    if indices.dtype != _core.int64:
        raise RuntimeError(f"elements in indices should be type int64 but got: {_scalar_name(indices.dtype)}")
    if input.dim() not in (n + 1, n + 2):
        raise RuntimeError(f"Input to max_unpooling{n}d should be a {n + 1}d or {n + 2}d Tensor, but got a tensor with "
                           f"{input.dim()} dimensions.")
    if list(indices.shape) != list(input.shape):
        raise RuntimeError("Expected shape of indices to be same as that of the input tensor "
                           f"({_dims(input)}) but got indices tensor with shape: {_dims(indices)}")
    _nonempty(f"max_unpooling{n}d_forward_out_cpu()", input, True)
    if stride is not None and any(v <= 0 for v in stride):
        raise RuntimeError(f"strides should be greater than zero, but got stride: {list(stride)}")
    _no_int(f"max_unpool{n}d", input)
    invalid = (indices < 0) | (indices >= math.prod(out))
    if bool(invalid.any()):  # PyTorch's kernel reports the last one it meets
        bad = int(indices.flatten()[invalid.flatten().nonzero()[-1, 0]])
        raise RuntimeError(f"Found an invalid max index: {bad} (output volumes are of size {'x'.join(map(str, out))})")
    lead, size = list(input.shape[:-n]), math.prod(input.shape[-n:])
    flat = indices.reshape(lead + [size])

    def fn(t):
        result = t.new_zeros(lead + [math.prod(out)])
        return result.scatter(-1, flat, t.reshape(lead + [size])).reshape(lead + list(out))

    return _core._composite(f"MaxUnpool{n}DBackward0", fn, [input])


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
    out = _unpool_output_size(input, kernel_size, stride, padding, output_size)
    return _max_unpool(input, indices, out, stride if len(out) == 3 else None)


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
    return _max_unpool(input.unsqueeze(-1), indices.unsqueeze(-1), [size, 1], None).squeeze(-1)


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The partial inverse of max_pool3d: each value of `input` written at its flat position
    (d * H + h) * W + w from `indices` (max_pool3d's), zeros elsewhere (MaxUnpool3DBackward0).

    >>> x = torch.arange(8.).reshape(1, 1, 2, 2, 2)
    >>> y, i = torch.nn.functional.max_pool3d(x, 2, return_indices=True)
    >>> torch.nn.functional.max_unpool3d(y, i, 2)[0, 0, 1]
    tensor([[0., 0.],
            [0., 7.]])
    """
    kernel_size = _tuple(kernel_size, 3)
    stride = kernel_size if stride is None else _tuple(stride, 3)
    padding = _tuple(padding, 3)
    out = _unpool_output_size(input, kernel_size, stride, padding, output_size)
    return _max_unpool(input, indices, out, stride if len(out) == 3 else None)
