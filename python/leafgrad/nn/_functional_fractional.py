"""`torch.nn.functional`'s fractional max pooling (2-d and 3-d): PyTorch's pseudo-random window
starts from one sample per plane and dim (drawn from the default generator unless given), each
step of the interval formula rounded to the input's dtype, and the max over those windows on
`_functional_pool`'s helpers (FractionalMaxPool2DBackward0 / FractionalMaxPool3DBackward0)."""
import math
import struct

from .. import _core
from ._functional_conv import _dims, _ints, _new_tensor, _tuple
from ._functional_pool import _argmax_windows, _no_int, _record_max


def _rounder(dtype):
    """A float's rounding to `dtype` as PyTorch's kernel arithmetic in that type leaves it (16-bit
    floats compute in float32 and round back)."""
    if dtype == _core.float64:
        return float
    f32 = lambda v: struct.unpack("<f", struct.pack("<f", v))[0]  # noqa: E731
    if dtype == _core.float16:
        return lambda v: struct.unpack("<e", struct.pack("<e", f32(v)))[0]
    if dtype == _core.bfloat16:
        def bf16(v):
            bits = struct.unpack("<I", struct.pack("<f", f32(v)))[0]
            bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
            return struct.unpack("<f", struct.pack("<I", bits))[0]
        return bf16
    return f32


def _fractional_starts(sample, size, out, pool, rnd):
    """ATen's generate_intervals: the window starts of one dim from its random `sample`, computed
    in the input's floating type (`rnd` rounds each operation to it)."""
    seq = [0] * out
    if out > 1:
        alpha = rnd(rnd(size - pool) / rnd(out - 1))
        for i in range(out - 1):
            seq[i] = int(rnd(rnd(rnd(i) + sample) * alpha)) - int(rnd(sample * alpha))
    if out > 0:
        seq[-1] = size - pool
    return seq


def _fractional_max_pool(n, input, kernel_size, output_size, output_ratio, samples):
    """Fractional max pooling of the last n dims with PyTorch's checks: (values, flat indices)."""
    name = f"fractional_max_pool{n}d"
    if output_size is None and output_ratio is None:
        raise ValueError(f"{name} requires specifying either an output_size or an output_ratio")
    if output_size is None:
        if n == 2 and len(output_ratio) > 2:
            raise ValueError(f"{name} requires output_ratio to either be a single Int or tuple of Ints.")
        ratio = _tuple(output_ratio, n)
        output_size = [int(input.shape[-n + i] * ratio[i]) for i in range(n)]
    if samples is None:
        from .._factories import rand

        samples = rand(1 if input.dim() == n + 1 else input.size(0), input.size(-n - 1), n, dtype=input.dtype,
                       device=input.device)
    k, out = _ints(kernel_size, n), _ints(output_size, n)
    word = "" if n == 2 else "three "
    if len(k) != n:
        raise RuntimeError(f"{name}: kernel_size must either be a single Int or tuple of {word}Ints")
    if len(out) != n:
        raise RuntimeError(f"{name}: output_size must either be a single Int or tuple of {word}Ints")
    if min(k) <= 0:
        raise RuntimeError(f"{name}(): kernel size should be greater than zero, but got {'x'.join(map(str, k))}")
    where = name + ("()" if n == 2 else "_out()")
    if input.dim() not in (n + 1, n + 2):
        raise RuntimeError(f"{where}: Expected {n + 1}D or {n + 2}D tensor, but got: {_dims(input)}")
    for i in range(1, input.dim()):
        if input.shape[i] == 0:
            raise RuntimeError(f"{where}: Expected input to have non-zero size for non-batch dimensions, but "
                               f"got{_dims(input)} with dimension {i} being empty.")
    sizes = list(input.shape[-n:])
    axes = ("height", "width") if n == 2 else ("time", "height", "width")
    for i in ((0, 1) if n == 2 else (0, 2, 1)):  # 3-d needs a margin of one more and checks width second
        if out[i] + k[i] - 1 > sizes[i] - (n == 3):
            raise RuntimeError(f"{where}: pool {axes[i]} {k[i]} too large relative to input {axes[i]} {sizes[i]}")
    if any(o < 0 for o in out):
        raise RuntimeError(f"Trying to create tensor with negative dimension {next(o for o in out if o < 0)}: "
                           f"{list(input.shape[:-n]) + out}")
    if samples.dtype != input.dtype:
        raise RuntimeError("Expect _random_samples to have the same dtype as input")
    if samples.dim() != 3:
        raise RuntimeError(f"Expect _random_samples to have 3 dimensions, got {samples.dim()}")
    batch = 1 if input.dim() == n + 1 else input.shape[0]
    if samples.shape[0] < batch:
        raise RuntimeError("Expect _random_samples.size(0) no less then input batch size.")
    if samples.shape[1] != input.shape[-n - 1]:
        raise RuntimeError("Expect _random_samples.size(1) equals to input channel size.")
    if samples.shape[2] != n:
        raise RuntimeError(f"Expect _random_samples.size(2) equals to {n}; got {samples.shape[2]}.")
    _no_int(f"{name}_out_frame", input)
    x = input.unsqueeze(0) if input.dim() == n + 1 else input
    rnd = _rounder(input.dtype)
    # each plane's window starts per dim (its samples: W then H in 2-d, T, H, W in 3-d)
    order = (1, 0) if n == 2 else (0, 1, 2)
    planes = samples.detach()[:batch].tolist()
    starts = [[[_fractional_starts(rnd(plane[order[d]]), sizes[d], out[d], k[d], rnd) for plane in row]
               for row in planes] for d in range(n)]
    idx = _window_table([_new_tensor(st, x).reshape(batch, x.shape[1], out[d]) for d, st in enumerate(starts)],
                        k, sizes)
    indices = _argmax_windows(x, idx, out)
    if input.dim() == n + 1:
        indices = indices.squeeze(0)
    return _record_max(f"FractionalMaxPool{n}DBackward0", input, indices, n), indices


def _window_table(starts, kernel, sizes):
    """Flat window positions (..., P, K) over dims of `sizes` for windows of `kernel` starting at
    `starts[d]` (..., out_d) along each dim d."""
    n = len(starts)
    lead = list(starts[0].shape[:-1])
    outs = [st.shape[-1] for st in starts]
    total = None
    for d in range(n):
        step = math.prod(sizes[d + 1:])
        ramp = _new_tensor(list(range(kernel[d])), starts[d])
        pos = (starts[d].unsqueeze(-1) + ramp) * step
        shape = lead + [outs[d] if i == d else 1 for i in range(n)] + [kernel[d] if i == d else 1 for i in range(n)]
        pos = pos.reshape(shape)
        total = pos if total is None else total + pos
    return total.reshape(lead + [math.prod(outs), math.prod(kernel)])


def fractional_max_pool2d_with_indices(input, kernel_size, output_size=None, output_ratio=None,
                                       return_indices=False, _random_samples=None):
    """`fractional_max_pool2d` returning (values, indices), the indices flat positions h * W + w.

    >>> x = torch.arange(25.).reshape(1, 1, 5, 5)
    >>> samples = torch.tensor([[[0.3, 0.7]]])
    >>> torch.nn.functional.fractional_max_pool2d_with_indices(x, 2, output_size=2, _random_samples=samples)
    (tensor([[[[ 6.,  9.],
              [21., 24.]]]]), tensor([[[[ 6,  9],
              [21, 24]]]]))
    """
    return _fractional_max_pool(2, input, kernel_size, output_size, output_ratio, _random_samples)


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    """Fractional max pooling (Graham, 2014) over the last two dims of (N, C, H, W) or (C, H, W)
    input: kernel_size windows at pseudo-random steps that give `output_size` (or the input's size
    times `output_ratio`); each plane's steps come from its two `_random_samples` in [0, 1), drawn
    with torch.rand from the default generator when not given (FractionalMaxPool2DBackward0).

    >>> x = torch.arange(25.).reshape(1, 1, 5, 5)
    >>> torch.nn.functional.fractional_max_pool2d(x, 2, output_size=(2, 3), _random_samples=torch.tensor([[[0.5, 0.5]]]))
    tensor([[[[ 6.,  8.,  9.],
              [21., 23., 24.]]]])
    """
    y, i = _fractional_max_pool(2, input, kernel_size, output_size, output_ratio, _random_samples)
    return (y, i) if return_indices else y


def fractional_max_pool3d_with_indices(input, kernel_size, output_size=None, output_ratio=None,
                                       return_indices=False, _random_samples=None):
    """`fractional_max_pool3d` returning (values, indices), the indices flat positions
    (t * H + h) * W + w.

    >>> x = torch.arange(27.).reshape(1, 1, 3, 3, 3)
    >>> samples = torch.tensor([[[0.5, 0.5, 0.5]]])
    >>> torch.nn.functional.fractional_max_pool3d_with_indices(x, 2, output_size=1, _random_samples=samples)
    (tensor([[[[[26.]]]]]), tensor([[[[[26]]]]]))
    """
    return _fractional_max_pool(3, input, kernel_size, output_size, output_ratio, _random_samples)


def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    """Fractional max pooling over the last three dims of (N, C, T, H, W) or (C, T, H, W) input,
    as fractional_max_pool2d with three `_random_samples` per plane (T, H, W)
    (FractionalMaxPool3DBackward0).

    >>> x = torch.arange(64.).reshape(1, 1, 4, 4, 4)
    >>> y = torch.nn.functional.fractional_max_pool3d(x, 2, output_ratio=0.5, _random_samples=torch.zeros(1, 1, 3))
    >>> y.flatten()
    tensor([21., 23., 29., 31., 53., 55., 61., 63.])
    """
    y, i = _fractional_max_pool(3, input, kernel_size, output_size, output_ratio, _random_samples)
    return (y, i) if return_indices else y
