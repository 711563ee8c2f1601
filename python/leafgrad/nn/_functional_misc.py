"""`torch.nn.functional`'s bilinear, rrelu, the channel-wise and alpha dropouts, the in-place activations
(`relu_`, `elu_`, `leaky_relu_`, `hardtanh_`) and
fold/unfold, composed of leafgrad ops as `_functional_resample`'s functions are (one PyTorch node
through `_core._composite` where PyTorch has a kernel); the generator's draws are PyTorch's."""
import math
import warnings

from .. import _core
from .._core import Tensor
from ._functional_resample import _index, _is_float, _not_implemented_for, _rounder

__all__ = ["bilinear", "rrelu", "rrelu_", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout", "feature_alpha_dropout", "unfold", "fold",
           "relu_", "elu_", "leaky_relu_", "hardtanh_"]


# ---------------------------------------------------------------------------------------------
# bilinear


# the C++ type names PyTorch's bilinear prints for dtypes
_CPP_TYPE_NAMES = {
    "torch.float32": "float", "torch.float64": "double", "torch.float16": "c10::Half",
    "torch.bfloat16": "c10::BFloat16", "torch.int64": "long int", "torch.int32": "int", "torch.int16": "short int",
    "torch.int8": "signed char", "torch.uint8": "unsigned char", "torch.bool": "bool",
    "torch.complex64": "c10::complex<float>", "torch.complex128": "c10::complex<double>",
}


def bilinear(input1, input2, weight, bias=None):
    """y[..., o] = sum_ij input1[..., i] * weight[o, i, j] * input2[..., j] + bias[o]: one
    TrilinearBackward0 node between views, then AddBackward0 for the bias (as PyTorch's).

    >>> x1, x2 = torch.tensor([[1., 2.]]), torch.tensor([[3., 4., 5.]])
    >>> torch.nn.functional.bilinear(x1, x2, torch.ones(1, 2, 3), torch.tensor([0.5]))
    tensor([[36.5000]])
    """
    dtypes = [input1.dtype, input2.dtype, weight.dtype] + ([bias.dtype] if bias is not None else [])
    if len(set(dtypes)) > 1:
        names = ["input1", "input2", "weight", "bias"]
        got = ", ".join(f"{n}: {_CPP_TYPE_NAMES.get(str(d), str(d))}" for n, d in zip(names, dtypes))
        raise RuntimeError(f"All tensors must have the same dtype, got {got}")
    if input1.dim() != input2.dim():
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {input1.dim()} and {input2.dim()}")
    for i in range(input1.dim() - 1):
        if input1.size(i) != input2.size(i):
            raise RuntimeError(f"bilinear(): input batch dimensions do not match at dim {i}: got {input1.size(i)} "
                               f"and {input2.size(i)}")
    if input1.size(-1) != weight.size(1):
        raise RuntimeError(f"bilinear(): input1 size does not match weight size: got {input1.size(-1)} but "
                           f"expected {weight.size(1)}")
    if input2.size(-1) != weight.size(2):
        raise RuntimeError(f"bilinear(): input2 size does not match weight size: got {input2.size(-1)} but "
                           f"expected {weight.size(2)}")
    if bias is not None and bias.size(0) != weight.size(0):
        raise RuntimeError(f"bilinear(): bias size does not match weight size: got {bias.size(0)} but expected "
                           f"{weight.size(0)}")
    out_shape = list(input1.shape[:-1]) + [weight.size(0)]
    a = input1.reshape(-1, input1.size(-1))
    b = input2.reshape(-1, input2.size(-1))
    o, i, j = weight.shape

    def trilinear(a, w, b):
        t = (a @ w.permute(1, 0, 2).reshape(i, o * j)).reshape(-1, o, j)
        return (t * b.unsqueeze(1)).sum(-1)

    out = _core._composite("TrilinearBackward0", trilinear, [a, weight, b]).reshape(out_shape)
    if bias is not None:
        out = out + bias
    return out


# ---------------------------------------------------------------------------------------------
# rrelu


def _rrelu(input, lower, upper, training, inplace):
    lower, upper = float(lower), float(upper)
    if not upper >= lower:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    if training:
        if not _is_float(input.dtype):
            raise _not_implemented_for("rrelu_with_noise_out_cpu", input.dtype)
        # ATen's _rrelu_with_noise_train: one uniform double on [lower, upper) (the bounds in the
        # input's opmath type) per element <= 0, drawn in the contiguous order.
        with _no_grad():
            r = _rounder(input.dtype)
            mask = input.detach() <= 0
            count = int(mask.sum().item())
            noise = input.new_ones(tuple(input.shape))
            if count:
                draws = _core._draw("uniform", (count,), None, _core.float64, r(lower), r(upper))
                noise[mask] = draws.to(input.dtype).to(input.device)
    else:
        if not _is_float(input.dtype):
            raise _not_implemented_for("leaky_relu_cpu", input.dtype)
        slope = (lower + upper) / 2
        with _no_grad():
            from .._functions import where

            noise = where(input.detach() > 0, 1.0, slope).to(input.dtype)

    def fn(x):
        return x * noise

    if inplace:
        return _core._inplace_apply(input, lambda s: _core._composite("RreluWithNoiseBackward1", fn, [s]), [])
    return _core._composite("RreluWithNoiseBackward0", fn, [input])


def _no_grad():
    from .._grad_mode import no_grad

    return no_grad()


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    """Randomized leaky ReLU: x where x > 0, else x * a with a drawn uniformly from
    [lower, upper] per element in training (from the generator, as PyTorch draws it) and
    a = (lower + upper) / 2 otherwise (RreluWithNoiseBackward0).

    >>> torch.nn.functional.rrelu(torch.tensor([-1., 2.]), 0.1, 0.3)
    tensor([-0.2000,  2.0000])
    >>> _ = torch.manual_seed(0)
    >>> torch.nn.functional.rrelu(torch.tensor([-1., 2., -3.]), training=True)
    tensor([-0.3271,  2.0000, -0.8174])
    """
    return _rrelu(input, lower, upper, training, inplace)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    """`rrelu` in place (RreluWithNoiseBackward1).

    >>> x = torch.tensor([-1., 2.])
    >>> torch.nn.functional.rrelu_(x) is x, x
    (True, tensor([-0.2292,  2.0000]))
    """
    return _rrelu(input, lower, upper, training, True)


# ---------------------------------------------------------------------------------------------
# channel-wise and alpha dropout

_ALPHA = 1.7580993408473766


def _check_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _dropout_impl(input, p, train, inplace, feature, alpha):
    """ATen's _dropout_impl: noise of shape (N, C, 1, ...) for the feature variants, drawn as
    bernoulli(1 - p) in the input's dtype; then input * noise / (1 - p), or for the alpha
    variants input * (a * noise) + b (MulBackward0, then AddBackward0)."""
    if not (0.0 <= p <= 1.0):
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not train or input.numel() == 0:
        return input
    if p == 1:
        zero = input.new_zeros(())
        return input.mul_(zero) if inplace else input * zero
    if feature:
        if input.dim() < 2:
            raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
        shape = (input.size(0), input.size(1)) + (1,) * (input.dim() - 2)
        noise = _core._draw("bernoulli", shape, None, input.dtype, 1.0 - p, device=input.device)
    else:
        from .._layout import _made_like

        noise = _made_like(input, None, lambda shape: _core._draw("bernoulli", shape, None, input.dtype, 1.0 - p,
                                                                   device=input.device))
    if input.device.type != "cpu":
        noise = noise.to(input.device)
    if alpha:
        a = 1.0 / math.sqrt((_ALPHA * _ALPHA * p + 1) * (1 - p))
        b = noise.add(-1).mul_(_ALPHA * a).add_(_ALPHA * a * p)
        noise.mul_(a)
        return input.mul_(noise).add_(b) if inplace else (input * noise).add_(b)
    noise.div_(1.0 - p)
    return input.mul_(noise) if inplace else input * noise


def dropout1d(input, p=0.5, training=True, inplace=False):
    """Zeroes whole channels (input[n, c, :]) of a (N, C, L) or (C, L) input with probability
    p and scales the rest by 1/(1-p).

    >>> torch.nn.functional.dropout1d(torch.ones(2, 3), training=False)
    tensor([[1., 1., 1.],
            [1., 1., 1.]])
    >>> _ = torch.manual_seed(0)
    >>> torch.nn.functional.dropout1d(torch.ones(1, 4, 2))
    tensor([[[0., 0.],
             [0., 0.],
             [2., 2.],
             [0., 0.]]])
    """
    _check_p(p)
    ndim = input.dim()
    if ndim not in (2, 3):
        raise RuntimeError(
            f"dropout1d: Expected 2D or 3D input, but received a {ndim}D input. Note that dropout1d exists to "
            "provide channel-wise dropout on inputs with 1 spatial dimension, a channel dimension, and an optional "
            "batch dimension (i.e. 2D or 3D inputs).")
    batched = ndim == 3
    if not batched:
        input = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
    result = _dropout_impl(input, p, training, inplace, True, False)
    if not batched:
        result = result.squeeze_(0) if inplace else result.squeeze(0)
    return result


def dropout2d(input, p=0.5, training=True, inplace=False):
    """Zeroes whole channels (input[n, c, :, :]) of a (N, C, H, W) input with probability p and
    scales the rest by 1/(1-p) (3-d input is taken as (N, C, L), with a warning).

    >>> torch.nn.functional.dropout2d(torch.ones(1, 2, 1, 1), training=False).flatten()
    tensor([1., 1.])
    >>> _ = torch.manual_seed(0)
    >>> torch.nn.functional.dropout2d(torch.ones(2, 3, 1, 1)).flatten()
    tensor([0., 0., 2., 0., 0., 0.])
    """
    _check_p(p)
    ndim = input.dim()
    if ndim not in (3, 4):
        warnings.warn(
            f"dropout2d: Received a {ndim}-D input to dropout2d, which is deprecated and will result in an error "
            "in a future release. To retain the behavior and silence this warning, please use dropout instead. "
            "Note that dropout2d exists to provide channel-wise dropout on inputs with 2 spatial dimensions, a "
            "channel dimension, and an optional batch dimension (i.e. 3D or 4D inputs).", stacklevel=2)
    if ndim == 3:
        warnings.warn(
            "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout behavior is "
            "desired - input is interpreted as shape (N, C, L), where C is the channel dim. This behavior will "
            "change in a future release to interpret the input as one without a batch dimension, i.e. shape "
            "(C, H, W). To maintain the 1D channel-wise dropout behavior, please switch to using dropout1d "
            "instead.", stacklevel=2)
    return _dropout_impl(input, p, training, inplace, True, False)


def dropout3d(input, p=0.5, training=True, inplace=False):
    """Zeroes whole channels (input[n, c, :, :, :]) of a (N, C, D, H, W) or (C, D, H, W) input
    with probability p and scales the rest by 1/(1-p).

    >>> torch.nn.functional.dropout3d(torch.ones(1, 2, 1, 1, 1), p=1.0).flatten()
    tensor([0., 0.])
    """
    _check_p(p)
    ndim = input.dim()
    if ndim not in (4, 5):
        warnings.warn(
            f"dropout3d: Received a {ndim}-D input to dropout3d, which is deprecated and will result in an error "
            "in a future release. To retain the behavior and silence this warning, please use dropout instead. "
            "Note that dropout3d exists to provide channel-wise dropout on inputs with 3 spatial dimensions, a "
            "channel dimension, and an optional batch dimension (i.e. 4D or 5D inputs).", stacklevel=2)
    batched = ndim == 5
    if not batched:
        input = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
    result = _dropout_impl(input, p, training, inplace, True, False)
    if not batched:
        result = result.squeeze_(0) if inplace else result.squeeze(0)
    return result


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Dropout for SELU networks: dropped elements become SELU's negative saturation value and
    the result is scaled and shifted to keep zero mean and unit variance (note training=False
    by default).

    >>> torch.nn.functional.alpha_dropout(torch.tensor([1., 2.]))
    tensor([1., 2.])
    >>> torch.nn.functional.alpha_dropout(torch.tensor([1., 2.]), p=1.0, training=True)
    tensor([0., 0.])
    """
    _check_p(p)
    return _dropout_impl(input, p, training, inplace, False, True)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    """alpha_dropout of whole channels (noise of shape (N, C, 1, ...)).

    >>> _ = torch.manual_seed(0)
    >>> torch.nn.functional.feature_alpha_dropout(torch.zeros(1, 4, 1), training=True).flatten()
    tensor([-0.7792, -0.7792,  0.7792, -0.7792])
    """
    _check_p(p)
    return _dropout_impl(input, p, training, inplace, True, True)


# ---------------------------------------------------------------------------------------------
# fold / unfold


def _pair_arg(v):
    if isinstance(v, (list, tuple)):
        return tuple(int(x) for x in v)
    return (int(v), int(v))


def _check_sliding(kernel, dilation, padding, stride):
    kh, kw = kernel
    dh, dw = dilation
    ph, pw = padding
    sh, sw = stride
    if not (kw > 0 and kh > 0):
        raise RuntimeError(f"kernel size should be greater than zero, but got kernel_height: {kh} kernel_width: {kw}")
    if not (dw > 0 and dh > 0):
        raise RuntimeError(f"dilation should be greater than zero, but got dilation_height: {dh} "
                           f"dilation_width: {dw}")
    if not (pw >= 0 and ph >= 0):
        raise RuntimeError(f"padding should be non-negative, but got pad_height: {ph} pad_width: {pw}")
    if not (sw > 0 and sh > 0):
        raise RuntimeError(f"stride should be greater than zero, but got stride_height: {sh} stride_width: {sw}")


def _block_positions(h, w, kernel, dilation, padding, stride):
    """The blocks' grid (bh, bw) and, for each kernel offset then block, the flat position
    in the zero-padded (h + 2ph) x (w + 2pw) plane it covers."""
    (kh, kw), (dh, dw), (ph, pw), (sh, sw) = kernel, dilation, padding, stride
    bh = (h + 2 * ph - (dh * (kh - 1) + 1)) // sh + 1
    bw = (w + 2 * pw - (dw * (kw - 1) + 1)) // sw + 1
    wp = w + 2 * pw
    pos = [(i * dh + y * sh) * wp + (j * dw + x * sw)
           for i in range(kh) for j in range(kw) for y in range(bh) for x in range(bw)]
    return bh, bw, pos


def _zero_pad_hw(x, ph, pw):
    if ph == 0 and pw == 0:
        return x
    from .._functions import cat

    if pw:
        z = x.new_zeros(tuple(x.shape[:-1]) + (pw,))
        x = cat([z, x, z], -1)
    if ph:
        z = x.new_zeros(tuple(x.shape[:-2]) + (ph, x.shape[-1]))
        x = cat([z, x, z], -2)
    return x


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """Extracts the sliding kernel_size blocks of a (N, C, H, W) or (C, H, W) input as columns:
    (N, C * kh * kw, L), L the number of blocks (Im2ColBackward0).

    >>> torch.nn.functional.unfold(torch.arange(9.).reshape(1, 1, 3, 3), 2)
    tensor([[[0., 1., 3., 4.],
             [1., 2., 4., 5.],
             [3., 4., 6., 7.],
             [4., 5., 7., 8.]]])
    """
    kernel, dil, pad_, st = _pair_arg(kernel_size), _pair_arg(dilation), _pair_arg(padding), _pair_arg(stride)
    _check_sliding(kernel, dil, pad_, st)
    ndim = input.dim()
    valid = input.size(1) != 0 and input.size(2) != 0  # (PyTorch reads size(2) before checking the dims)
    if not ((ndim == 3 and input.size(0) != 0 and valid) or (ndim == 4 and valid and input.size(3) != 0)):
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero "
                           f"dimensions for input, but got: {list(input.shape)}")
    h, w = input.shape[-2:]
    bh, bw, pos = _block_positions(h, w, kernel, dil, pad_, st)
    if bh < 1 or bw < 1:
        (kh, kw), (dh, dw), (ph, pw) = kernel, dil, pad_
        raise RuntimeError(
            f"Given input with spatial size ({h}, {w}), kernel_size=({kh}, {kw}), dilation=({dh}, {dw}), "
            f"padding=({ph}, {pw}), calculated shape of the array of sliding blocks as ({bh}, {bw}), but its "
            "components must be at least one.")
    if not _is_float(input.dtype) and input.dtype not in (_core.complex64, _core.complex128):
        raise _not_implemented_for("im2col_out_cpu", input.dtype)
    index = _index(pos, input.device)
    kk = kernel[0] * kernel[1]

    def fn(x):
        batched = x.dim() == 4
        if not batched:
            x = x.unsqueeze(0)
        n, c = x.shape[0], x.shape[1]
        xp = _zero_pad_hw(x, pad_[0], pad_[1])
        cols = xp.reshape(n, c, xp.shape[-2] * xp.shape[-1]).index_select(2, index).reshape(n, c * kk, bh * bw)
        return cols if batched else cols.squeeze(0)

    return _core._composite("Im2ColBackward0", fn, [input], [0])


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Sums columns of sliding blocks (N, C * kh * kw, L) back into a (N, C, *output_size)
    tensor, overlapping entries added: the adjoint of unfold (Col2ImBackward0).

    >>> cols = torch.ones(1, 4, 4)
    >>> torch.nn.functional.fold(cols, (3, 3), 2)
    tensor([[[[1., 2., 1.],
              [2., 4., 2.],
              [1., 2., 1.]]]])
    """
    out_hw = _pair_arg(output_size)
    kernel, dil, pad_, st = _pair_arg(kernel_size), _pair_arg(dilation), _pair_arg(padding), _pair_arg(stride)
    (kh, kw), (dh, dw), (ph, pw), (sh, sw) = kernel, dil, pad_, st
    oh, ow = out_hw
    _check_sliding(kernel, dil, pad_, st)
    ndim = input.dim()
    if not ((ndim == 2 and input.size(0) != 0 and input.size(1) != 0)
            or (ndim == 3 and input.size(1) != 0 and input.size(2) != 0)):
        raise RuntimeError("Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and "
                           f"non-zero dimensions for input, but got: {list(input.shape)}")
    planes, length = input.shape[-2:]
    if planes % (kh * kw):
        raise RuntimeError("Expected size of input's dimension 1 to be divisible by the product of kernel_size, "
                           f"but got input.size(1)={planes} and kernel_size=({kh}, {kw}).")
    bh, bw, pos = _block_positions(oh, ow, kernel, dil, pad_, st)
    if length != bh * bw:
        raise RuntimeError(
            f"Given output_size=({oh}, {ow}), kernel_size=({kh}, {kw}), dilation=({dh}, {dw}), "
            f"padding=({ph}, {pw}), stride=({sh}, {sw}), expected size of input's dimension 2 to match the "
            f"calculated number of sliding blocks {bh} * {bw} = {bh * bw}, but got input.size(2)={length}.")
    if not (bh >= 1 and bw >= 1):
        raise RuntimeError(
            f"Given output_size=({oh}, {ow}), kernel_size=({kh}, {kw}), dilation=({dh}, {dw}), "
            f"padding=({ph}, {pw}), stride=({sh}, {sw}), calculated shape of the array of sliding blocks as "
            f"({bh}, {bw}), which is too small (non-positive)")
    if not _is_float(input.dtype) and input.dtype not in (_core.complex64, _core.complex128):
        raise _not_implemented_for("col2im_out_cpu", input.dtype)
    index = _index(pos, input.device)
    c = planes // (kh * kw)
    hp, wp = oh + 2 * ph, ow + 2 * pw

    def fn(x):
        batched = x.dim() == 3
        if not batched:
            x = x.unsqueeze(0)
        n = x.shape[0]
        flat = x.reshape(n, c, kh * kw * length)
        out = x.new_zeros((n, c, hp * wp)).index_add(2, index, flat).reshape(n, c, hp, wp)
        if ph or pw:
            out = out[:, :, ph:ph + oh, pw:pw + ow].contiguous()
        return out if batched else out.squeeze(0)

    return _core._composite("Col2ImBackward0", fn, [input], [0])


# ---------------------------------------------------------------------------------------------
# the in-place activations under their own names (torch._C._nn's relu_, elu_, ...)


def relu_(input):
    """`relu(input, inplace=True)`: max(0, x) written into `input`.

    >>> x = torch.tensor([-1., 2.])
    >>> torch.nn.functional.relu_(x), x
    (tensor([0., 2.]), tensor([0., 2.]))
    """
    return input.relu_()


def elu_(input, alpha=1.0):
    """`elu(input, alpha, inplace=True)`.

    >>> torch.nn.functional.elu_(torch.tensor([-1., 2.]))
    tensor([-0.6321,  2.0000])
    """
    from . import functional

    return functional.elu(input, alpha, True)


def leaky_relu_(input, negative_slope=0.01):
    """`leaky_relu(input, negative_slope, inplace=True)`.

    >>> torch.nn.functional.leaky_relu_(torch.tensor([-1., 2.]), 0.2)
    tensor([-0.2000,  2.0000])
    """
    from . import functional

    return functional.leaky_relu(input, negative_slope, True)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    """`hardtanh(input, min_val, max_val, inplace=True)`.

    >>> torch.nn.functional.hardtanh_(torch.tensor([-3., 0.5, 3.]))
    tensor([-1.0000,  0.5000,  1.0000])
    """
    from . import functional

    return functional.hardtanh(input, min_val, max_val, True)
