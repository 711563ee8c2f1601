"""The `torch.*` spellings of functional ops (`torch.conv2d`, `torch.layer_norm`,
`torch.dropout`, `torch.embedding`, `torch.kl_div`, ...). PyTorch's top-level functions take what
its ATen ops take (ATen's signatures, not `torch.nn.functional`'s): the reduction of a loss as an
int (0 none, 1 mean, 2 sum); left out, the top-level losses of PyTorch 2.15 do not reduce (their
`at::Reduction::Mean` default is not read by the Python binding), and neither do these. Most call
leafgrad.nn.functional; the rest are composed as ATen composes them."""
import builtins

from . import _core
from ._op_helpers import _torch, _check_tensor, _no_grad, _reduce, _wrap_dim, _shape_str

__all__ = [
    "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
    "cosine_similarity", "pairwise_distance", "pixel_shuffle", "pixel_unshuffle", "channel_shuffle",
    "bilinear", "avg_pool1d", "adaptive_avg_pool1d", "adaptive_max_pool1d", "max_pool1d", "max_pool2d",
    "max_pool3d", "layer_norm", "rms_norm", "group_norm", "affine_grid_generator", "grid_sampler", "batch_norm", "instance_norm", "embedding", "dropout",
    "dropout_", "alpha_dropout", "alpha_dropout_", "feature_dropout", "feature_dropout_",
    "feature_alpha_dropout", "feature_alpha_dropout_", "rrelu", "rrelu_", "constant_pad_nd", "pdist",
    "binary_cross_entropy_with_logits", "kl_div", "hinge_embedding_loss", "margin_ranking_loss",
    "poisson_nll_loss", "triplet_margin_loss", "cosine_embedding_loss", "ctc_loss",
]


def _F():
    from .nn import functional

    return functional


def _reduction_name(fn, reduction):
    if isinstance(reduction, builtins.bool) or not isinstance(reduction, builtins.int):
        raise TypeError(f"{fn}(): argument 'reduction' must be int, not {type(reduction).__name__}")
    return {1: "mean", 2: "sum"}.get(reduction, "none")


def _stride_arg(stride):
    return None if stride is None or (isinstance(stride, (tuple, list)) and len(stride) == 0) else stride


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """`torch.nn.functional.conv1d` (the same function in PyTorch).

    >>> torch.conv1d(torch.ones(1, 1, 4), torch.ones(1, 1, 2))
    tensor([[[2., 2., 2.]]])
    """
    return _F().conv1d(input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """`torch.nn.functional.conv2d` (the same function in PyTorch).

    >>> torch.conv2d(torch.ones(1, 1, 3, 3), torch.ones(1, 1, 2, 2))
    tensor([[[[4., 4.],
              [4., 4.]]]])
    """
    return _F().conv2d(input, weight, bias, stride, padding, dilation, groups)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """`torch.nn.functional.conv3d` (the same function in PyTorch).

    >>> torch.conv3d(torch.ones(1, 1, 2, 2, 2), torch.ones(1, 1, 2, 2, 2)).flatten()
    tensor([8.])
    """
    return _F().conv3d(input, weight, bias, stride, padding, dilation, groups)


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """`torch.nn.functional.conv_transpose1d` (the same function in PyTorch).

    >>> torch.conv_transpose1d(torch.ones(1, 1, 2), torch.ones(1, 1, 2))
    tensor([[[1., 2., 1.]]])
    """
    return _F().conv_transpose1d(input, weight, bias, stride, padding, output_padding, groups, dilation)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """`torch.nn.functional.conv_transpose2d` (the same function in PyTorch).

    >>> torch.conv_transpose2d(torch.ones(1, 1, 1, 2), torch.ones(1, 1, 1, 2))
    tensor([[[[1., 2., 1.]]]])
    """
    return _F().conv_transpose2d(input, weight, bias, stride, padding, output_padding, groups, dilation)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """`torch.nn.functional.conv_transpose3d` (the same function in PyTorch).

    >>> torch.conv_transpose3d(torch.ones(1, 1, 1, 1, 2), torch.ones(1, 1, 1, 1, 2)).flatten()
    tensor([1., 2., 1.])
    """
    return _F().conv_transpose3d(input, weight, bias, stride, padding, output_padding, groups, dilation)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """The cosine of the angle between x1 and x2 along `dim`, as ATen computes it: each divided
    by its norm (at least `eps`) first, then the product summed (SumBackward1).

    >>> torch.cosine_similarity(torch.tensor([[1., 0.]]), torch.tensor([[1., 1.]]))
    tensor([0.7071])
    """
    torch = _torch()
    _check_tensor("cosine_similarity", "x1", 1, x1)
    _check_tensor("cosine_similarity", "x2", 2, x2)
    common = torch.result_type(x1, x2)
    if not common.is_floating_point:
        raise RuntimeError(f"expected common dtype to be floating point, yet common dtype is {common._scalar_name}")
    if not (x1.dtype.is_floating_point or x1.dtype.is_complex):
        x1 = x1.to(common)
    if not (x2.dtype.is_floating_point or x2.dtype.is_complex):
        x2 = x2.to(common)
    if tuple(x1.shape) != tuple(x2.shape):
        size = torch.broadcast_shapes(x1.shape, x2.shape)
        x1, x2 = x1.expand(size), x2.expand(size)
    n1 = torch.linalg.vector_norm(x1, 2, dim=dim, keepdim=True).clone()
    n2 = torch.linalg.vector_norm(x2, 2, dim=dim, keepdim=True).clone()
    with _no_grad():
        n1.clamp_min_(eps)
        n2.clamp_min_(eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


def _scalar_node(name, t, fn):
    """`fn(t)` (adding or subtracting a Python number) recorded as ATen's Scalar overload
    (`AddBackward1`, `SubBackward1`: the gradient passes unchanged, nothing saved), which
    PyTorch's C++ code calls and Python cannot."""
    return _core._passthrough(name, fn, t)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """The p-norm of `x1 - x2 + eps` along the last dim, as ATen composes it (NormBackward1).

    >>> torch.pairwise_distance(torch.tensor([[0., 0.]]), torch.tensor([[3., 4.]]))
    tensor([5.0000])
    """
    _check_tensor("pairwise_distance", "x1", 1, x1)
    _check_tensor("pairwise_distance", "x2", 2, x2)
    inner = builtins.max(x1.dim(), x2.dim()) - 1
    d = _scalar_node("AddBackward1", x1 - x2, lambda t: t + eps)
    return _core._composite("NormBackward1", lambda t: t.norm(p, inner, keepdim), [d], saved=["self"], result=True)


def pixel_shuffle(input, upscale_factor):
    """`torch.nn.functional.pixel_shuffle` (the same function in PyTorch).

    >>> torch.pixel_shuffle(torch.arange(4.).reshape(1, 4, 1, 1), 2)
    tensor([[[[0., 1.],
              [2., 3.]]]])
    """
    return _F().pixel_shuffle(input, upscale_factor)


def pixel_unshuffle(input, downscale_factor):
    """`torch.nn.functional.pixel_unshuffle` (the same function in PyTorch).

    >>> torch.pixel_unshuffle(torch.arange(4.).reshape(1, 1, 2, 2), 2).flatten()
    tensor([0., 1., 2., 3.])
    """
    return _F().pixel_unshuffle(input, downscale_factor)


def channel_shuffle(input, groups):
    """`torch.nn.functional.channel_shuffle` (the same function in PyTorch).

    >>> torch.channel_shuffle(torch.arange(4.).reshape(1, 4, 1), 2).flatten()
    tensor([0., 2., 1., 3.])
    """
    return _F().channel_shuffle(input, groups)


def bilinear(input1, input2, weight, bias=None):
    """`torch.nn.functional.bilinear` (the same function in PyTorch).

    >>> torch.bilinear(torch.ones(1, 2), torch.ones(1, 3), torch.ones(4, 2, 3))
    tensor([[6., 6., 6., 6.]])
    """
    return _F().bilinear(input1, input2, weight, bias)


def avg_pool1d(input, kernel_size, stride=(), padding=0, ceil_mode=False, count_include_pad=True):
    """`torch.nn.functional.avg_pool1d` (the same function in PyTorch; an empty `stride` is the
    kernel size).

    >>> torch.avg_pool1d(torch.arange(4.).reshape(1, 1, 4), 2)
    tensor([[[0.5000, 2.5000]]])
    """
    return _F().avg_pool1d(input, kernel_size, _stride_arg(stride), padding, ceil_mode, count_include_pad)


def adaptive_avg_pool1d(input, output_size):
    """`torch.nn.functional.adaptive_avg_pool1d` (the same function in PyTorch).

    >>> torch.adaptive_avg_pool1d(torch.arange(4.).reshape(1, 1, 4), 2)
    tensor([[[0.5000, 2.5000]]])
    """
    return _F().adaptive_avg_pool1d(input, output_size)


def adaptive_max_pool1d(input, output_size):
    """The maxima of `output_size` adaptive windows and where they are: always the pair
    (values, indices) at the top level.

    >>> torch.adaptive_max_pool1d(torch.tensor([[[1., 3., 2., 0.]]]), 2)
    (tensor([[[3., 2.]]]), tensor([[[1, 2]]]))
    """
    return _F().adaptive_max_pool1d(input, output_size, return_indices=True)


def max_pool1d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    """`torch.nn.functional.max_pool1d` without indices (an empty `stride` is the kernel size).

    >>> torch.max_pool1d(torch.tensor([[[1., 3., 2., 0.]]]), 2)
    tensor([[[3., 2.]]])
    """
    return _F().max_pool1d(input, kernel_size, _stride_arg(stride), padding, dilation, ceil_mode)


def max_pool2d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    """`torch.nn.functional.max_pool2d` without indices (an empty `stride` is the kernel size).

    >>> torch.max_pool2d(torch.arange(16.).reshape(1, 1, 4, 4), 2)
    tensor([[[[ 5.,  7.],
              [13., 15.]]]])
    """
    return _F().max_pool2d(input, kernel_size, _stride_arg(stride), padding, dilation, ceil_mode)


def max_pool3d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    """`torch.nn.functional.max_pool3d` without indices (an empty `stride` is the kernel size).

    >>> torch.max_pool3d(torch.arange(8.).reshape(1, 1, 2, 2, 2), 2).flatten()
    tensor([7.])
    """
    return _F().max_pool3d(input, kernel_size, _stride_arg(stride), padding, dilation, ceil_mode)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05, cudnn_enable=True):
    """`torch.nn.functional.layer_norm` with ATen's extra `cudnn_enable` flag (ignored).

    >>> torch.layer_norm(torch.tensor([[1., 3.]]), [2])
    tensor([[-1.0000,  1.0000]])
    """
    return _F().layer_norm(input, normalized_shape, weight, bias, eps)


def rms_norm(input, normalized_shape, weight=None, eps=None):
    """`torch.nn.functional.rms_norm` (the same function).

    >>> torch.rms_norm(torch.tensor([[3., 4.]]), [2])
    tensor([[0.8485, 1.1314]])
    """
    return _F().rms_norm(input, normalized_shape, weight, eps)


def affine_grid_generator(theta, size, align_corners):
    """ATen's `affine_grid_generator` (AffineGridGeneratorBackward0): `F.affine_grid` without its
    Python checks and warnings.

    >>> torch.affine_grid_generator(torch.tensor([[[1., 0, 0], [0, 1, 0]]]), [1, 1, 1, 2], False)
    tensor([[[[-0.5000,  0.0000],
              [ 0.5000,  0.0000]]]])
    """
    from .nn import _functional_grid as g

    return _core._composite("AffineGridGeneratorBackward0", lambda t: g._affine_grid(t, list(size), align_corners),
                            [theta])


def grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners):
    """ATen's `grid_sampler`: `F.grid_sample` with the modes as ints (interpolation 0 bilinear,
    1 nearest, 2 bicubic; padding 0 zeros, 1 border, 2 reflection).

    >>> torch.grid_sampler(torch.arange(4.).reshape(1, 1, 2, 2), torch.zeros(1, 1, 1, 2), 0, 0, True)
    tensor([[[[1.5000]]]])
    """
    from .nn import _functional_grid as g

    return g.grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True):
    """ATen's `group_norm` (NativeGroupNormBackward0); `cudnn_enabled` is ignored.

    >>> torch.group_norm(torch.tensor([[1., 2., 3., 4.]]), 2)
    tensor([[-1.0000,  1.0000, -1.0000,  1.0000]])
    """
    _check_tensor("group_norm", "input", 1, input)
    if input.dim() < 2:
        _wrap_dim(1, input.dim())
    return _core._group_norm(input, num_groups, weight, bias, builtins.float(eps))


def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled):
    """ATen's `batch_norm`: the argument order of the ATen op (weight and bias before the
    running statistics, all nine required) and none of the Python checks of
    `torch.nn.functional.batch_norm` (NativeBatchNormBackward0).

    >>> torch.batch_norm(torch.tensor([[1., 2.], [3., 6.]]), None, None, None, None, True, 0.1, 1e-5, False)
    tensor([[-1.0000, -1.0000],
            [ 1.0000,  1.0000]])
    """
    _check_tensor("batch_norm", "input", 1, input)
    return _core._batch_norm(input, weight, bias, running_mean, running_var, builtins.bool(training),
                             builtins.float(momentum), builtins.float(eps))


def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, cudnn_enabled):
    """ATen's `instance_norm` (all nine arguments required): `batch_norm` of the input seen as
    one sample of N*C channels, the running statistics averaged over the batch.

    >>> torch.instance_norm(torch.tensor([[[1., 3.], [0., 4.]]]), None, None, None, None, True, 0.1, 1e-5, False)
    tensor([[[-1.0000,  1.0000],
             [-1.0000,  1.0000]]])
    """
    _check_tensor("instance_norm", "input", 1, input)
    if not use_input_stats and (running_mean is None or running_var is None):
        raise RuntimeError("Expected running_mean and running_var to be defined when use_input_stats is false")
    b, c = input.shape[0], input.shape[1]
    shape = (1, b * c) + tuple(input.shape[2:])

    def repeat(t):
        return None if t is None else t.repeat(b)

    rm, rv = repeat(running_mean), repeat(running_var)
    out = _core._batch_norm(input.contiguous().view(shape), repeat(weight), repeat(bias), rm, rv,
                            builtins.bool(use_input_stats), builtins.float(momentum), builtins.float(eps))
    with _no_grad():
        if running_mean is not None:
            running_mean.copy_(rm.view(b, c).mean(0))
        if running_var is not None:
            running_var.copy_(rv.view(b, c).mean(0))
    return out.view(tuple(input.shape))


def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    """ATen's `embedding` (the weight first): the rows of `weight` at `indices`
    (EmbeddingBackward0); no gradient reaches row `padding_idx` (-1: none), and with
    `scale_grad_by_freq` each row's gradient is divided by how often it was picked.

    >>> torch.embedding(torch.tensor([[0., 1.], [2., 3.], [4., 5.]]), torch.tensor([2, 0]))
    tensor([[4., 5.],
            [0., 1.]])
    """
    torch = _torch()
    _check_tensor("embedding", "weight", 1, weight)
    _check_tensor("embedding", "indices", 2, indices)
    if sparse:
        raise RuntimeError("embedding: sparse gradients are not supported by leafgrad")
    if indices.dtype not in (torch.int64, torch.int32):
        raise RuntimeError(f"Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got {indices.dtype._legacy_name} instead (while checking arguments for "
                           f"embedding)")
    pad = builtins.int(padding_idx)
    if not scale_grad_by_freq and not (0 <= pad < weight.shape[0]):
        return _core._embedding(weight, indices)
    idx = indices.detach()
    with _no_grad():
        keep = (idx != pad) if pad >= 0 else torch.ones_like(idx, dtype=torch.bool)
        scale = keep.to(weight.dtype)
        if scale_grad_by_freq and idx.numel():
            counts = torch.zeros(weight.shape[0], dtype=torch.int64, device=idx.device).index_add(
                0, idx.reshape(-1).to(torch.int64), torch.ones(idx.numel(), dtype=torch.int64, device=idx.device))
            scale = scale / counts[idx].to(weight.dtype)
        scale = scale.unsqueeze(-1)

    def fn(w):
        e = _core._embedding(w, indices)
        return e * scale + (e * (1 - scale)).detach()  # the value of e, the gradient scaled

    return _core._composite("EmbeddingBackward0", fn, [weight])


def _p_check(p):
    if not (0.0 <= p <= 1.0):
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p}")


def dropout(input, p, train):
    """ATen's `dropout` (no defaults): each element zeroed with probability `p` and the rest
    scaled by 1/(1-p) when `train` (MulBackward0); `input` itself otherwise.

    >>> x = torch.ones(4)
    >>> torch.dropout(x, 0.5, False) is x, torch.dropout(x, 1.0, True)
    (True, tensor([0., 0., 0., 0.]))
    """
    _check_tensor("dropout", "input", 1, input)
    _p_check(p)
    if p == 0 or not train or input.numel() == 0:
        return input
    return _F().dropout(input, p, True)


def dropout_(input, p, train):
    """In-place `dropout`.

    >>> x = torch.ones(2)
    >>> torch.dropout_(x, 1.0, True) is x, x
    (True, tensor([0., 0.]))
    """
    _check_tensor("dropout_", "input", 1, input)
    _p_check(p)
    if p == 0 or not train or input.numel() == 0:
        return input
    if p == 1:
        return input.mul_(input.new_zeros(()))
    return _F().dropout(input, p, True, True)


def _misc_dropout(input, p, train, inplace, feature, alpha):
    from .nn._functional_misc import _dropout_impl

    return _dropout_impl(input, p, train, inplace, feature, alpha)


def alpha_dropout(input, p, train):
    """ATen's `alpha_dropout` (no defaults): dropped elements take SELU's negative saturation
    value and the result is scaled and shifted to keep zero mean and unit variance.

    >>> torch.alpha_dropout(torch.tensor([1., 2.]), 1.0, True)
    tensor([0., 0.])
    """
    _check_tensor("alpha_dropout", "input", 1, input)
    return _misc_dropout(input, p, train, False, False, True)


def alpha_dropout_(input, p, train):
    """In-place `alpha_dropout`.

    >>> x = torch.tensor([1., 2.])
    >>> torch.alpha_dropout_(x, 0.5, False) is x
    True
    """
    _check_tensor("alpha_dropout_", "input", 1, input)
    return _misc_dropout(input, p, train, True, False, True)


def feature_dropout(input, p, train):
    """ATen's `feature_dropout`: whole channels (`input[n, c]`) zeroed with probability `p`, the
    rest scaled by 1/(1-p) (at least 2 dims).

    >>> _ = torch.manual_seed(0)
    >>> torch.feature_dropout(torch.ones(1, 4, 2), 0.5, True)
    tensor([[[0., 0.],
             [0., 0.],
             [2., 2.],
             [0., 0.]]])
    """
    _check_tensor("feature_dropout", "input", 1, input)
    return _misc_dropout(input, p, train, False, True, False)


def feature_dropout_(input, p, train):
    """In-place `feature_dropout`.

    >>> x = torch.ones(1, 2, 2)
    >>> torch.feature_dropout_(x, 1.0, True) is x, x.sum()
    (True, tensor(0.))
    """
    _check_tensor("feature_dropout_", "input", 1, input)
    return _misc_dropout(input, p, train, True, True, False)


def feature_alpha_dropout(input, p, train):
    """ATen's `feature_alpha_dropout`: `alpha_dropout` of whole channels.

    >>> _ = torch.manual_seed(0)
    >>> torch.feature_alpha_dropout(torch.zeros(1, 4, 1), 0.5, True).flatten()
    tensor([-0.7792, -0.7792,  0.7792, -0.7792])
    """
    _check_tensor("feature_alpha_dropout", "input", 1, input)
    return _misc_dropout(input, p, train, False, True, True)


def feature_alpha_dropout_(input, p, train):
    """In-place `feature_alpha_dropout`.

    >>> x = torch.zeros(1, 2, 1)
    >>> torch.feature_alpha_dropout_(x, 0.5, False) is x
    True
    """
    _check_tensor("feature_alpha_dropout_", "input", 1, input)
    return _misc_dropout(input, p, train, True, True, True)


def _rrelu(input, lower, upper, training, generator, inplace):
    from .nn import _functional_misc as m

    if generator is None:
        return m._rrelu(input, lower, upper, training, inplace)
    lower, upper = builtins.float(lower), builtins.float(upper)
    if not upper >= lower:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    if not training:
        return m._rrelu(input, lower, upper, training, inplace)
    if not m._is_float(input.dtype):
        raise m._not_implemented_for("rrelu_with_noise_out_cpu", input.dtype)
    with _no_grad():  # as `_functional_misc._rrelu`, drawing from `generator`
        r = m._rounder(input.dtype)
        mask = input.detach() <= 0
        count = builtins.int(mask.sum().item())
        noise = input.new_ones(tuple(input.shape))
        if count:
            draws = _core._draw("uniform", (count,), None, _core.float64, r(lower), r(upper), generator)
            noise[mask] = draws.to(input.dtype).to(input.device)

    def fn(x):
        return x * noise

    if inplace:
        return _core._inplace_apply(input, lambda s: _core._composite("RreluWithNoiseBackward1", fn, [s]), [])
    return _core._composite("RreluWithNoiseBackward0", fn, [input])


def rrelu(input, lower=0.125, upper=0.3333333333333333, training=False, generator=None):
    """`torch.nn.functional.rrelu` with ATen's `generator` argument (the slopes of the negative
    elements drawn from it in training).

    >>> torch.rrelu(torch.tensor([-1., 2.]), 0.1, 0.3)
    tensor([-0.2000,  2.0000])
    """
    _check_tensor("rrelu", "input", 1, input)
    return _rrelu(input, lower, upper, training, generator, False)


def rrelu_(input, lower=0.125, upper=0.3333333333333333, training=False, generator=None):
    """In-place `rrelu` (RreluWithNoiseBackward1).

    >>> x = torch.tensor([-1., 2.])
    >>> torch.rrelu_(x) is x, x
    (True, tensor([-0.2292,  2.0000]))
    """
    _check_tensor("rrelu_", "input", 1, input)
    return _rrelu(input, lower, upper, training, generator, True)


def constant_pad_nd(input, pad, value=0):
    """`input` padded with `value` by `pad` (pairs of amounts before and after, last dim first;
    negative amounts crop): ConstantPadNdBackward0.

    >>> torch.constant_pad_nd(torch.tensor([[1, 2]]), [1, 0, 0, 1], 9)
    tensor([[9, 1, 2],
            [9, 9, 9]])
    """
    _check_tensor("constant_pad_nd", "input", 1, input)
    pad = [builtins.int(v) for v in pad]
    if len(pad) % 2:
        raise RuntimeError(f"Length of pad must be even but instead it equals {len(pad)}")
    if input.dim() < len(pad) // 2:
        raise RuntimeError(f"Length of pad should be no more than twice the number of dimensions of the input. "
                           f"Pad length is {len(pad)}while the input has {input.dim()}dimensions.")
    return _F().pad(input, pad, "constant", value)


def pdist(input, p=2):
    """The p-norm distance between every pair of rows of a 2-D input: the upper triangle of
    `cdist(input, input)` read row by row (PdistBackward0).

    >>> torch.pdist(torch.tensor([[0., 0.], [3., 4.], [6., 8.]]))
    tensor([ 5., 10.,  5.])
    """
    torch = _torch()
    _check_tensor("pdist", "input", 1, input)
    if input.dim() != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.dim()}D")
    if not (input.dtype.is_floating_point):
        raise RuntimeError("pdist only supports floating-point dtypes")
    p = builtins.float(p)
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    n = input.shape[0]
    rows, cols = torch.triu_indices(n, n, 1, device=input.device) if n > 1 else (
        torch.empty(0, dtype=torch.int64), torch.empty(0, dtype=torch.int64))

    def fn(x):
        diff = x.index_select(0, rows) - x.index_select(0, cols)
        return diff.norm(p, 1)

    return _core._composite("PdistBackward0", fn, [input], saved=["self"], result=True)


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction=0):
    """ATen's `binary_cross_entropy_with_logits`: the reduction as an int (0 none, 1 mean,
    2 sum; none when left out, as PyTorch's top level), no size check of its own
    (BinaryCrossEntropyWithLogitsBackward0).

    >>> torch.binary_cross_entropy_with_logits(torch.zeros(2), torch.tensor([1., 0.]), None, None, 1)
    tensor(0.6931)
    """
    from . import _composites

    _check_tensor("binary_cross_entropy_with_logits", "input", 1, input)
    _check_tensor("binary_cross_entropy_with_logits", "target", 2, target)
    red = _reduction_name("binary_cross_entropy_with_logits", reduction)
    return _composites.binary_cross_entropy_with_logits(input, target, weight, red, pos_weight)


def kl_div(input, target, reduction=0, *, log_target=False):
    """ATen's `kl_div`: `target * (log(target) - input)` (or `exp(target) * (target - input)`
    with `log_target`), the reduction as an int (0 none, 1 mean over all elements, 2 sum;
    none when left out, as PyTorch's top level).

    >>> torch.kl_div(torch.tensor([-1., -2.]), torch.tensor([0.5, 0.5]), 2)
    tensor(0.8069)
    """
    torch = _torch()
    _check_tensor("kl_div", "input", 1, input)
    _check_tensor("kl_div", "target", 2, target)
    red = _reduction_name("kl_div", reduction)
    if input.is_complex() or target.is_complex():
        raise RuntimeError("kl_div: Complex inputs not supported.")
    if not (input.dtype.is_floating_point and target.dtype.is_floating_point):
        raise RuntimeError("kl_div: Integral inputs not supported.")
    if log_target:
        out = torch.exp(target) * (target - input)
    else:
        out = torch.xlogy(target, target) - target * input
    return _reduce(out, red)


def hinge_embedding_loss(input, target, margin=1.0, reduction=0):
    """ATen's `hinge_embedding_loss`: `input` where target is 1, max(0, margin - input) where it
    is -1, the reduction as an int (none when left out, as PyTorch's top level).

    >>> torch.hinge_embedding_loss(torch.tensor([0.3, 2.]), torch.tensor([1., -1.]), 1.0, 1)
    tensor(0.1500)
    """
    torch = _torch()
    red = _reduction_name("hinge_embedding_loss", reduction)
    zeros = torch.zeros_like(input)
    margin_clamp = torch.empty_like(input).fill_(margin).sub_(input).clamp_min_(0)
    output = torch.where(target != 1, margin_clamp, zeros) + torch.where(target != -1, input, zeros)
    return _reduce(output, red)


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction=0):
    """ATen's `margin_ranking_loss`: max(0, -target * (input1 - input2) + margin), the
    reduction as an int (none when left out, as PyTorch's top level).

    >>> torch.margin_ranking_loss(torch.tensor([1., 2.]), torch.tensor([2., 0.]), torch.tensor([1., 1.]), 0.5)
    tensor([1.5000, 0.0000])
    """
    red = _reduction_name("margin_ranking_loss", reduction)
    out = _scalar_node("AddBackward1", -target * (input1 - input2), lambda t: t + margin)
    return _reduce(out.clamp_min_(0), red)


def poisson_nll_loss(input, target, log_input, full, eps, reduction):
    """ATen's `poisson_nll_loss` (all six arguments required; the reduction as an int).

    >>> torch.poisson_nll_loss(torch.tensor([0., 1.]), torch.tensor([1., 2.]), True, False, 1e-8, 1)
    tensor(0.8591)
    """
    import math

    torch = _torch()
    red = _reduction_name("poisson_nll_loss", reduction)
    if log_input:
        loss = torch.exp(input) - target * input
    else:
        loss = input - target * torch.log(_scalar_node("AddBackward1", input, lambda t: t + eps))
    if full:
        stirling = target * torch.log(target) - target + 0.5 * torch.log(2 * math.pi * target)
        loss += stirling.masked_fill(target <= 1, 0)
    return _reduce(loss, red)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False, reduction=0):
    """ATen's `triplet_margin_loss`: max(0, margin + d(anchor, positive) - d(anchor, negative)),
    d the `pairwise_distance`, the reduction as an int (none when left out, as PyTorch's top
    level).

    >>> a, pos, neg = torch.tensor([[0., 0.]]), torch.tensor([[0., 1.]]), torch.tensor([[0., 1.5]])
    >>> torch.triplet_margin_loss(a, pos, neg)
    tensor([0.5000])
    """
    torch = _torch()
    red = _reduction_name("triplet_margin_loss", reduction)
    if not (anchor.dim() == positive.dim() == negative.dim()):
        raise RuntimeError(
            "The anchor, positive, and negative tensors are expected to have the same number of dimensions, but "
            f"got: anchor {anchor.dim()}D, positive {positive.dim()}D, and negative {negative.dim()}D inputs")
    dist_pos = pairwise_distance(anchor, positive, p, eps)
    dist_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_neg = torch.min(dist_neg, pairwise_distance(positive, negative, p, eps))
    out = torch.clamp_min(_scalar_node("AddBackward1", dist_pos, lambda t: t + margin) - dist_neg, 0)
    return _reduce(out, red)


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=0):
    """ATen's `cosine_embedding_loss`: 1 - cos(input1, input2) where target is 1,
    max(0, cos - margin) where it is -1, the reduction as an int (none when left out, as
    PyTorch's top level).

    >>> a, b = torch.tensor([[1., 0.], [0., 1.]]), torch.tensor([[1., 1.], [0., 1.]])
    >>> torch.cosine_embedding_loss(a, b, torch.tensor([1., -1.]), 0.0, 1)
    tensor(0.6464)
    """
    torch = _torch()
    red = _reduction_name("cosine_embedding_loss", reduction)
    d = target.dim()
    if d not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if d == 1 and not (input1.dim() == 2 and input2.dim() == 2):
        raise RuntimeError(f"1D target tensor expects 2D input tensors, but found inputs with sizes "
                           f"{_shape_str(input1.shape)} and {_shape_str(input2.shape)}.")
    if d == 0 and not (input1.dim() == 1 and input2.dim() == 1):
        raise RuntimeError(f"0D target tensor expects 1D input tensors, but found inputs with sizes "
                           f"{_shape_str(input1.shape)} and {_shape_str(input2.shape)}.")
    prod_sum = (input1 * input2).sum(d)
    mag1 = _scalar_node("AddBackward1", (input1 * input1).sum(d), lambda t: t + 1e-12)
    mag2 = _scalar_node("AddBackward1", (input2 * input2).sum(d), lambda t: t + 1e-12)
    cos = prod_sum / (mag1 * mag2).sqrt_()
    zeros = torch.zeros_like(cos)
    pos = torch.empty_like(cos).fill_(1).sub_(cos)
    neg = _scalar_node("SubBackward1", cos, lambda t: t - margin).clamp_min_(0)
    output = torch.where(target == 1, pos, zeros) + torch.where(target == -1, neg, zeros)
    return _reduce(output, red)


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=0, zero_infinity=False):
    """ATen's `ctc_loss`, the reduction as an int (0 none: one loss per batch element, 1 mean
    of the losses divided by the target lengths, 2 sum; none when left out, as PyTorch's top
    level).

    >>> lp = torch.zeros(3, 1, 2).log_softmax(2)
    >>> torch.ctc_loss(lp, torch.tensor([[1]]), [3], [1])
    tensor([0.2877])
    """
    red = _reduction_name("ctc_loss", reduction)
    return _F().ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, red, zero_infinity)
