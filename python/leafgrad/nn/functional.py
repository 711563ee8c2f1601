"""`torch.nn.functional`: activations, losses, linear/conv/pooling layers as functions."""
from .. import _composites, _core
from .._core import Tensor
from .._gather import _scalar_name
from .._grad_mode import no_grad as _no_grad


def relu(input, inplace=False):
    """max(0, x) elementwise (in place with `inplace=True`).

    >>> torch.nn.functional.relu(torch.tensor([-1., 0., 2.]))
    tensor([0., 0., 2.])
    """
    return input.relu_() if inplace else input.relu()


def sigmoid(input):
    """1 / (1 + exp(-x)) elementwise.

    >>> torch.nn.functional.sigmoid(torch.tensor([0., 100.]))
    tensor([0.5000, 1.0000])
    """
    return input.sigmoid()


def tanh(input):
    """The hyperbolic tangent, elementwise.

    >>> torch.nn.functional.tanh(torch.tensor([0., 100.]))
    tensor([0., 1.])
    """
    return input.tanh()


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    """exp(x) / exp(x).sum(dim): along `dim`, non-negative and summing to 1.

    >>> torch.nn.functional.softmax(torch.tensor([1., 3.]).log(), dim=0)
    tensor([0.2500, 0.7500])
    """
    if dim is None:
        dim = _get_softmax_dim("softmax", input.dim(), _stacklevel)
    return input.softmax(dim, dtype=dtype)


def _get_softmax_dim(name, ndim, stacklevel):
    """PyTorch's implicit dim (0 for 0-, 1- and 3-d input, else 1), with its deprecation warning."""
    import warnings

    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call to include "
                  "dim=X as an argument.", stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    """softmax(-x) along `dim`: non-negative, summing to 1, largest where x is smallest.

    >>> torch.nn.functional.softmin(torch.tensor([1., 2.]), dim=0)
    tensor([0.7311, 0.2689])
    """
    if dim is None:
        dim = _get_softmax_dim("softmin", input.dim(), _stacklevel)
    return (-input).softmax(dim, dtype=dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    """log(softmax(x)) along `dim`, computed stably (exp(100) would overflow float32).

    >>> torch.nn.functional.log_softmax(torch.tensor([[0., 0.], [0., 100.]]), dim=1)
    tensor([[  -0.6931,   -0.6931],
            [-100.0000,    0.0000]])
    """
    if dim is None:
        dim = _get_softmax_dim("log_softmax", input.dim(), _stacklevel)
    return input.log_softmax(dim, dtype=dtype)


from ._functional_losses import (  # noqa: E402,F401  (torch.nn.functional's names)
    _check_reduction, _reduce, _reduction, _warn_target_size, cosine_embedding_loss, cosine_similarity, gaussian_nll_loss,
    hinge_embedding_loss, huber_loss, kl_div, margin_ranking_loss, multi_margin_loss, multilabel_margin_loss,
    multilabel_soft_margin_loss, normalize, pairwise_distance, poisson_nll_loss, smooth_l1_loss, soft_margin_loss,
    triplet_margin_loss, triplet_margin_with_distance_loss,
)


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """The squared error (input - target)**2, averaged (`reduction='mean'`), summed or not reduced.

    >>> x, y = torch.tensor([1., 2.]), torch.tensor([0., 4.])
    >>> torch.nn.functional.mse_loss(x, y)
    tensor(2.5000)
    >>> torch.nn.functional.mse_loss(x, y, reduction='none')
    tensor([1., 4.])
    """
    reduction = _reduction(size_average, reduce, reduction)
    _warn_target_size(input, target)
    return _core._mse_loss(input, target, reduction)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """The absolute error |input - target|, averaged (`reduction='mean'`), summed or not reduced.

    >>> x, y = torch.tensor([1., 2.]), torch.tensor([0., 4.])
    >>> torch.nn.functional.l1_loss(x, y), torch.nn.functional.l1_loss(x, y, reduction='sum')
    (tensor(1.5000), tensor(3.))
    """
    reduction = _reduction(size_average, reduce, reduction)
    _warn_target_size(input, target)
    return _core._l1_loss(input, target, reduction)


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    """The negative log likelihood: -input[n, target[n]] for log-probabilities `input` (N, C)
    and class indices `target` (N,), averaged over N by default.

    >>> logp = torch.tensor([[-1., -2.], [-3., -4.]])
    >>> torch.nn.functional.nll_loss(logp, torch.tensor([1, 0]))
    tensor(2.5000)
    """
    reduction = _reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    return _core._nll_loss(input, target, weight, ignore_index, reduction)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):
    """Class-index targets: nll_loss(log_softmax). Probability targets (same shape as input):
    -(target * log_softmax).sum(1), reduced.

    >>> logits = torch.zeros(2, 4, requires_grad=True)
    >>> loss = torch.nn.functional.cross_entropy(logits, torch.tensor([0, 3]))
    >>> loss
    tensor(1.3863, grad_fn=<NllLossBackward0>)
    >>> loss.backward()
    >>> logits.grad
    tensor([[-0.3750,  0.1250,  0.1250,  0.1250],
            [ 0.1250,  0.1250,  0.1250, -0.3750]])
    """
    reduction = _reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    class_dim = 0 if input.dim() == 1 else 1
    logp = input.log_softmax(class_dim)
    if target.is_floating_point():
        if tuple(target.shape) != tuple(input.shape):
            raise RuntimeError(
                f"Expected target size {list(input.shape)}, got {list(target.shape)}"
            )
        if label_smoothing:
            n = input.shape[class_dim]
            target = target * (1 - label_smoothing) + label_smoothing / n
        t = logp * target
        if weight is not None:
            shape = [1] * input.dim()
            shape[class_dim] = -1
            t = t * weight.reshape(shape)
        if reduction == "none":
            return -(t.sum(class_dim))
        if reduction == "mean" and input.numel() == 0:
            # the mean over no positions is NaN (PyTorch: NegBackward0 on top)
            return -_composites.div_scalar(t.sum(), float("nan"))
        total = -(t.sum())
        if reduction == "sum":
            return total
        # The mean is over every position but the class dim (N, or N*H*W for images).
        n = input.numel() // input.shape[class_dim] if input.dim() > 1 else 1
        return _composites.div_scalar(total, n)
    if label_smoothing:
        n = input.shape[class_dim]
        nll = _core._nll_loss(logp, target, weight, ignore_index, reduction)
        smooth = -logp.mean(class_dim)
        if reduction == "mean":
            smooth = smooth.mean()
        elif reduction == "sum":
            smooth = smooth.sum()
        return nll * (1 - label_smoothing) + smooth * label_smoothing
    return _core._nll_loss(logp, target, weight, ignore_index, reduction)


def linear(input, weight, bias=None):
    """input @ weight.T + bias.

    >>> x = torch.tensor([[1., 2.]])
    >>> w, b = torch.tensor([[1., 1.], [0., 1.]]), torch.tensor([10., 20.])
    >>> torch.nn.functional.linear(x, w, b)
    tensor([[13., 22.]])
    """
    return _core._linear(input, weight, bias)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """2-d cross-correlation of `input` (N, C_in, H, W) with `weight` (C_out, C_in/groups, kH, kW).

    >>> x, w = torch.arange(9.).reshape(1, 1, 3, 3), torch.ones(1, 1, 2, 2)
    >>> torch.nn.functional.conv2d(x, w)
    tensor([[[[ 8., 12.],
              [20., 24.]]]])
    >>> torch.nn.functional.conv2d(x, w, padding=1).shape
    torch.Size([1, 1, 4, 4])
    """
    if isinstance(padding, str):
        if padding == "valid":
            padding = 0
        elif padding == "same":
            kh, kw = weight.shape[2], weight.shape[3]
            if (kh - 1) % 2 or (kw - 1) % 2:
                raise RuntimeError("padding='same' with an even kernel is not supported by leafgrad")
            padding = ((kh - 1) // 2 * _pair(dilation)[0], (kw - 1) // 2 * _pair(dilation)[1])
        else:
            raise ValueError(f"Invalid padding string '{padding}', should be one of {{'valid', 'same'}}")
    return _core._conv2d(input, weight, bias, stride, padding, dilation, groups)


def _pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """The maximum over each kernel_size window (stride defaults to kernel_size).

    >>> torch.nn.functional.max_pool2d(torch.arange(16.).reshape(1, 1, 4, 4), 2)
    tensor([[[[ 5.,  7.],
              [13., 15.]]]])
    """
    if return_indices:
        return max_pool2d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    if stride is not None and not isinstance(stride, int) and len(stride) == 0:
        stride = None
    return _core._pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """The mean over each kernel_size window (stride defaults to kernel_size).

    >>> torch.nn.functional.avg_pool2d(torch.arange(16.).reshape(1, 1, 4, 4), 2)
    tensor([[[[ 2.5000,  4.5000],
              [10.5000, 12.5000]]]])
    """
    if stride is not None and not isinstance(stride, int) and len(stride) == 0:
        stride = None
    dt = getattr(input, "dtype", None)
    integer = dt is not None and not dt.is_floating_point and not dt.is_complex
    if integer:
        # PyTorch pools int64 only, summing in int64 and dividing with C++'s integer division
        # (toward zero): exact here through float64 for sums below 2**53
        if dt != _core.int64:
            raise NotImplementedError(f"\"avg_pool2d\" not implemented for '{_scalar_name(dt)}'")
        input = input.double()
    r = _core._pool2d(input, kernel_size, stride, padding, 1, ceil_mode, False, bool(count_include_pad),
                      None if divisor_override is None else int(divisor_override))
    return r.trunc().long() if integer else r


def _dense(t):
    """Whether `t`'s elements fill its memory without gaps or overlaps (in some dim order)."""
    expect = 1
    for d in sorted(range(t.dim()), key=lambda d: t.stride(d)):
        if t.size(d) != 1 and t.stride(d) != expect:
            return False
        expect *= t.size(d)
    return True


def dropout(input, p=0.5, training=True, inplace=False):
    """Zero each element with probability p and scale the rest by 1/(1-p) (MulBackward0).

    >>> torch.nn.functional.dropout(torch.ones(3), p=0.5, training=False)
    tensor([1., 1., 1.])
    >>> torch.nn.functional.dropout(torch.ones(3), p=1.0)
    tensor([0., 0., 0.])
    """
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p != p:  # NaN passes the check above; PyTorch's kernel refuses it
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return input
    if p == 1.0:
        return input * 0.0
    # PyTorch's CPU dropout: noise = empty_like(input).bernoulli_(1 - p) in input's dtype,
    # divided by 1 - p; empty_like keeps the strides of a dense input (a transposed one), and
    # the draws fill the noise in memory order.
    from .._layout import _made_like

    if input.device.type == "cuda":
        # PyTorch's fused CUDA dropout: the device generator's draws in that kernel's order
        mask = _core._cuda_dropout_mask(input.numel(), 1.0 - p, input.dtype, input.device, _dense(input))
        noise = _made_like(input, None, lambda shape: mask.reshape(shape))
    else:
        noise = _made_like(input, None, lambda shape: _core._draw("bernoulli", shape, None, input.dtype, 1.0 - p,
                                                                   device=input.device))
    noise = noise.div_(1.0 - p)
    if input.device.type != "cpu":
        noise = noise.to(input.device)
    if inplace:
        return input.mul_(noise)
    return input * noise


def one_hot(tensor, num_classes=-1):
    """int64 rows with a 1 at each index of `tensor` (an int64 tensor) and 0 elsewhere; the
    class count is `num_classes`, or the largest index + 1.

    >>> torch.nn.functional.one_hot(torch.tensor([0, 2]), 4)
    tensor([[1, 0, 0, 0],
            [0, 0, 1, 0]])
    """
    from .. import arange, zeros

    if tensor.dtype != _core.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    num_classes = int(num_classes)
    if tensor.numel() == 0:
        if num_classes <= 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        return zeros(*tensor.shape, num_classes, dtype=_core.int64, device=tensor.device)
    if int(tensor.min()) < 0:
        raise RuntimeError("Class values must be non-negative.")
    top = int(tensor.max())
    if num_classes == -1:
        num_classes = top + 1
    elif num_classes <= top:
        raise RuntimeError("Class values must be smaller than num_classes.")
    classes = arange(num_classes, device=tensor.device)
    return (tensor.detach().unsqueeze(-1) == classes).long()


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):
    """The rows of `weight` at the indices in `input`.

    >>> weight = torch.tensor([[0., 1.], [2., 3.], [4., 5.]])
    >>> torch.nn.functional.embedding(torch.tensor([2, 0]), weight)
    tensor([[4., 5.],
            [0., 1.]])
    """
    import leafgrad

    if padding_idx is not None:
        if padding_idx > 0:
            assert padding_idx < weight.size(0), "Padding_idx must be within num_embeddings"
        elif padding_idx < 0:
            assert padding_idx >= -weight.size(0), "Padding_idx must be within num_embeddings"
            padding_idx = weight.size(0) + padding_idx
    else:
        padding_idx = -1
    if sparse:
        raise RuntimeError("embedding: sparse gradients are not supported by leafgrad")
    if max_norm is not None:
        _embedding_renorm_(weight, input, float(max_norm), float(norm_type))
    if scale_grad_by_freq or padding_idx >= 0:
        # one EmbeddingBackward0 with PyTorch's padding row and frequency scaling
        return leafgrad.embedding(weight, input, padding_idx, scale_grad_by_freq)
    return _core._embedding(weight, input)


def _embedding_renorm_(weight, input, max_norm, norm_type):
    """PyTorch's embedding_renorm_: each row `input` picks whose `norm_type`-norm exceeds
    `max_norm` is scaled in place, unrecorded, by `max_norm / (norm + 1e-7)` (a double)."""
    import leafgrad

    with leafgrad.no_grad():
        rows = input.reshape(-1).unique()
        picked = weight.index_select(0, rows)
        norms = picked.norm(p=norm_type, dim=1).tolist()
        over = [k for k, n in enumerate(norms) if n > max_norm]
        if not over:
            return
        sel = leafgrad.tensor(over, dtype=leafgrad.int64)
        scales = leafgrad.tensor([max_norm / (norms[k] + 1e-7) for k in over], dtype=leafgrad.float64)
        scaled = picked.index_select(0, sel) * scales.to(weight.dtype).unsqueeze(1)
        weight.index_copy_(0, rows.index_select(0, sel), scaled)  # one write, one version bump


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """(x - mean) / sqrt(var + eps) over the last len(normalized_shape) dims, then * weight + bias.

    >>> torch.nn.functional.layer_norm(torch.tensor([[1., 3.], [2., 2.]]), (2,))
    tensor([[-1.0000,  1.0000],
            [ 0.0000,  0.0000]])
    """
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    params = [p for p in (weight, bias) if p is not None]
    if (params and input.dtype in (_core.bfloat16, _core.float16)
            and all(p.dtype == _core.float32 for p in params)):
        # PyTorch's mixed-type layer norm (CPU): float32 weights on a half input compute in
        # float32 and give the input's dtype, as one NativeLayerNormBackward0
        shape = list(normalized_shape)

        def mixed(x, *ps):
            it = iter(ps)
            w = next(it) if weight is not None else None
            b = next(it) if bias is not None else None
            return _core._layer_norm(x.float(), shape, w, b, eps).to(x.dtype)

        return _core._composite("NativeLayerNormBackward0", mixed, [input, *params])
    return _core._layer_norm(input, list(normalized_shape), weight, bias, eps)


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1,
               eps=1e-5):
    """Normalises each channel (dim 1) over the batch and the other dims: with the batch's mean
    and biased variance in training (updating `running_mean`/`running_var` in place, the variance
    unbiased, by `momentum`), with the running statistics otherwise; then * weight + bias.

    >>> x = torch.tensor([[1., 2.], [3., 6.]])
    >>> rm, rv = torch.zeros(2), torch.ones(2)
    >>> torch.nn.functional.batch_norm(x, rm, rv, training=True)
    tensor([[-1.0000, -1.0000],
            [ 1.0000,  1.0000]])
    >>> rm, rv
    (tensor([0.2000, 0.4000]), tensor([1.1000, 1.7000]))
    """
    if training:
        size = input.size()
        n = size[0]
        for d in size[2:]:
            n *= d
        if n == 1:
            raise ValueError(f"Expected more than 1 value per channel when training, got input size {size}")
    if training and eps <= 0.0:
        raise ValueError(f"batch_norm eps must be positive during training, but got {eps}")
    elif eps < 0.0:
        raise ValueError(f"batch_norm eps must be non-negative, but got {eps}")
    return _core._batch_norm(input, weight, bias, running_mean, running_var, bool(training), float(momentum), float(eps))


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """Normalises each group of num_groups channel groups of each sample by its own mean and
    variance, then scales and shifts each channel (NativeGroupNormBackward0).

    >>> torch.nn.functional.group_norm(torch.tensor([[1., 2., 3., 4.]]), 2)
    tensor([[-1.0000,  1.0000, -1.0000,  1.0000]])
    """
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {input.dim()}")
    size = [input.size(0) * input.size(1) // num_groups, num_groups] + list(input.size()[2:])
    n = size[0]
    for d in size[2:]:
        n *= d
    if n == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {size}")
    return _core._group_norm(input, num_groups, weight, bias, float(eps))


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-5):
    """Normalises each channel of each sample over its other dims: `batch_norm` of the input seen
    as one sample of N*C channels (so the node is NativeBatchNormBackward0 under a view); the
    running statistics, when given, take the mean over the batch of the update.

    >>> torch.nn.functional.instance_norm(torch.tensor([[[1., 3.], [0., 4.]]]))
    tensor([[[-1.0000,  1.0000],
             [-1.0000,  1.0000]]])
    """
    if use_input_stats:
        size = input.size()
        n = 1
        for d in size[2:]:
            n *= d
        if n == 1:
            raise ValueError(f"Expected more than 1 spatial element when training, got input size {size}")
    b, c = input.size(0), input.size(1)
    shape = (1, b * c) + tuple(input.shape[2:])
    x = input.contiguous().view(shape)

    def repeat(t):
        return None if t is None else t.repeat(b)

    rm, rv = repeat(running_mean), repeat(running_var)
    out = batch_norm(x, rm, rv, repeat(weight), repeat(bias), use_input_stats, momentum, eps)
    from .._grad_mode import no_grad

    with no_grad():
        if running_mean is not None:
            running_mean.copy_(rm.view(b, c).mean(0))
        if running_var is not None:
            running_var.copy_(rv.view(b, c).mean(0))
    return out.view(input.shape)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    """x for x >= 0, negative_slope * x otherwise.

    >>> torch.nn.functional.leaky_relu(torch.tensor([-2., 3.]), 0.1)
    tensor([-0.2000,  3.0000])
    """
    return _composites.leaky_relu(input, negative_slope, inplace)


def silu(input, inplace=False):
    """x * sigmoid(x) (SiluBackward0).

    >>> torch.nn.functional.silu(torch.tensor([-1., 0., 2.]))
    tensor([-0.2689,  0.0000,  1.7616])
    """
    return _composites.silu(input, inplace)


def elu(input, alpha=1.0, inplace=False):
    """x for x > 0, alpha * (exp(x) - 1) otherwise (EluBackward0; EluBackward1 in place).

    >>> torch.nn.functional.elu(torch.tensor([-1., 0., 2.]))
    tensor([-0.6321,  0.0000,  2.0000])
    """
    return _composites.elu(input, alpha, inplace)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """x clamped to [min_val, max_val], with gradient 1 strictly inside (HardtanhBackward0).

    >>> torch.nn.functional.hardtanh(torch.tensor([-3., 0.5, 3.]))
    tensor([-1.0000,  0.5000,  1.0000])
    """
    return _composites.hardtanh(input, min_val, max_val, inplace)


def threshold(input, threshold, value, inplace=False):
    """input where input > threshold, else value (ThresholdBackward0; in place ThresholdBackward1).

    >>> torch.nn.functional.threshold(torch.tensor([-1., 0.5, 2.]), 0.6, 5.0)
    tensor([5., 5., 2.])
    """
    return _core._threshold(input, float(threshold), float(value), bool(inplace))


def threshold_(input, threshold, value):
    """`threshold` in place.

    >>> x = torch.tensor([-1., 2.])
    >>> torch.nn.functional.threshold_(x, 0.0, 0.0) is x
    True
    """
    return _core._threshold(input, float(threshold), float(value), True)


def softsign(input):
    """x / (1 + |x|), composed of ops as in PyTorch (so its node is DivBackward0).

    >>> torch.nn.functional.softsign(torch.tensor([-1., 3.]))
    tensor([-0.5000,  0.7500])
    """
    return input / (input.abs() + 1)


def tanhshrink(input):
    """x - tanh(x), composed of ops as in PyTorch (SubBackward0).

    >>> torch.nn.functional.tanhshrink(torch.tensor([0., 1.]))
    tensor([0.0000, 0.2384])
    """
    return input - input.tanh()


def relu6(input, inplace=False):
    """min(max(0, x), 6): `hardtanh(x, 0, 6)` (HardtanhBackward0).

    >>> torch.nn.functional.relu6(torch.tensor([-1., 3., 9.]))
    tensor([0., 3., 6.])
    """
    return _composites.hardtanh(input, 0.0, 6.0, inplace)


def softplus(input, beta=1.0, threshold=20.0):
    """log(1 + exp(beta * x)) / beta, and x itself where beta * x > threshold.

    >>> torch.nn.functional.softplus(torch.tensor([0., 30.]))
    tensor([ 0.6931, 30.0000])
    """
    return _composites.softplus(input, beta, threshold)


def selu(input, inplace=False):
    """scale * elu(x, alpha) with SELU's fixed alpha and scale (EluBackward0, as PyTorch's).

    >>> torch.nn.functional.selu(torch.tensor([-1., 0., 2.]))
    tensor([-1.1113,  0.0000,  2.1014])
    """
    return _composites.selu(input, inplace)


def selu_(input):
    """`selu` in place (EluBackward1).

    >>> x = torch.tensor([-1., 2.])
    >>> torch.nn.functional.selu_(x) is x
    True
    """
    return _composites.selu(input, True)


def celu(input, alpha=1.0, inplace=False):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1)) (CeluBackward0).

    >>> torch.nn.functional.celu(torch.tensor([-1., 0., 2.]), alpha=0.5)
    tensor([-0.4323,  0.0000,  2.0000])
    """
    return _composites.celu(input, alpha, inplace)


def celu_(input, alpha=1.0):
    """`celu` in place (CeluBackward1).

    >>> x = torch.tensor([-1., 2.])
    >>> torch.nn.functional.celu_(x) is x
    True
    """
    return _composites.celu(input, alpha, True)


def mish(input, inplace=False):
    """x * tanh(softplus(x)) (MishBackward0).

    >>> torch.nn.functional.mish(torch.tensor([-1., 0., 2.]))
    tensor([-0.3034,  0.0000,  1.9440])
    """
    return _composites.mish(input, inplace)


def hardswish(input, inplace=False):
    """x * relu6(x + 3) / 6 (HardswishBackward0).

    >>> torch.nn.functional.hardswish(torch.tensor([-4., 1., 4.]))
    tensor([-0.0000, 0.6667, 4.0000])
    """
    return _composites.hardswish(input, inplace)


def hardsigmoid(input, inplace=False):
    """relu6(x + 3) / 6 (HardsigmoidBackward0; its backward has no derivative, as in PyTorch).

    >>> torch.nn.functional.hardsigmoid(torch.tensor([-4., 1., 4.]))
    tensor([0.0000, 0.6667, 1.0000])
    """
    return _composites.hardsigmoid(input, inplace)


def logsigmoid(input):
    """log(sigmoid(x)), computed without overflow (LogSigmoidBackward0).

    >>> torch.nn.functional.logsigmoid(torch.tensor([-100., 0., 2.]))
    tensor([-100.0000,   -0.6931,   -0.1269])
    """
    return _core._logsigmoid(input)


def hardshrink(input, lambd=0.5):
    """0 where -lambd <= x <= lambd, x elsewhere (HardshrinkBackward0).

    >>> torch.nn.functional.hardshrink(torch.tensor([-1., 0.3, 2.]))
    tensor([-1.,  0.,  2.])
    """
    return _core._hardshrink(input, float(lambd))


def softshrink(input, lambd=0.5):
    """x - lambd above lambd, x + lambd below -lambd, 0 between (SoftshrinkBackward0).

    >>> torch.nn.functional.softshrink(torch.tensor([-1., 0.3, 2.]))
    tensor([-0.5000,  0.0000,  1.5000])
    """
    return _core._softshrink(input, float(lambd))


def glu(input, dim=-1):
    """a * sigmoid(b) for the halves a, b of `input` along `dim` (GluBackward0).

    >>> torch.nn.functional.glu(torch.tensor([1., 2., 0., 3.]))
    tensor([0.5000, 1.9051])
    """
    return _core._glu(input, dim)


def prelu(input, weight):
    """x where x > 0, weight * x elsewhere, one weight per channel (dim 1) or one for all
    (PreluKernelBackward0).

    >>> torch.nn.functional.prelu(torch.tensor([-2., 3.]), torch.tensor([0.25]))
    tensor([-0.5000,  3.0000])
    """
    if input.dtype != weight.dtype:
        raise RuntimeError(
            f"prelu: Type promoting not supported. Got {_scalar_name(input.dtype)} and {_scalar_name(weight.dtype)}")
    n = weight.numel()
    if n != 1:
        if input.dim() == 0:
            raise RuntimeError("Not allow zero-dim input tensor.")
        channels = input.shape[1] if input.dim() > 1 else 1
        if channels != n:
            raise RuntimeError("Mismatch of parameter numbers and input channel size. "
                               f"Found parameter numbers = {n} and channel size = {channels}.")
    if weight.dim() > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {weight.dim()}")
    if input.dim() != weight.dim():
        shape = [1] * input.dim()
        if input.dim() > 1:
            shape[1] = n
        weight = weight.reshape(shape)
    return _core._prelu_kernel(input, weight)


def gelu(input, approximate="none"):
    """x * Phi(x), Phi the standard normal CDF (`approximate='tanh'`: its tanh approximation).

    >>> x = torch.tensor([-1., 0., 1.])
    >>> torch.nn.functional.gelu(x)
    tensor([-0.1587,  0.0000,  0.8413])
    >>> torch.nn.functional.gelu(x, approximate='tanh')
    tensor([-0.1588,  0.0000,  0.8412])
    """
    return _composites.gelu(input, approximate)


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """-(target * log(input) + (1 - target) * log(1 - input)) for probabilities `input`.

    >>> p, y = torch.tensor([0.8, 0.4]), torch.tensor([1., 0.])
    >>> torch.nn.functional.binary_cross_entropy(p, y)
    tensor(0.3670)
    """
    reduction = _reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(
            f"Using a target size ({target.shape}) that is different to the input size ({input.shape}) is deprecated. "
            "Please ensure they have the same size."
        )
    with _no_grad():
        if ((target < 0) | (target > 1)).sum().item() > 0:
            raise RuntimeError("all elements of target should be between 0 and 1")
    return _composites.binary_cross_entropy(input, target, weight, reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    """binary_cross_entropy(sigmoid(input), target), computed stably from the logits;
    `pos_weight` scales the positive term.

    >>> logits, y = torch.zeros(2), torch.tensor([1., 0.])
    >>> torch.nn.functional.binary_cross_entropy_with_logits(logits, y)
    tensor(0.6931)
    >>> torch.nn.functional.binary_cross_entropy_with_logits(logits, y, pos_weight=torch.tensor([3., 3.]))
    tensor(1.3863)
    """
    reduction = _reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"Target size ({target.shape}) must be the same as input size ({input.shape})")
    return _composites.binary_cross_entropy_with_logits(input, target, weight, reduction, pos_weight)


from ._functional_ctc import ctc_loss  # noqa: E402,F401
from ._functional_fractional import (  # noqa: E402,F401  (torch.nn.functional's names)
    fractional_max_pool2d, fractional_max_pool2d_with_indices, fractional_max_pool3d,
    fractional_max_pool3d_with_indices,
)
from ._functional_conv import conv1d, conv3d, conv_transpose1d, conv_transpose2d, conv_transpose3d  # noqa: E402,F401
from ._functional_pool import (  # noqa: E402,F401  (torch.nn.functional's names)
    adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d, adaptive_max_pool1d, adaptive_max_pool1d_with_indices,
    adaptive_max_pool2d, adaptive_max_pool2d_with_indices, adaptive_max_pool3d, adaptive_max_pool3d_with_indices,
    avg_pool1d, avg_pool3d, lp_pool1d, lp_pool2d, max_pool1d, max_pool1d_with_indices, max_pool2d_with_indices,
    max_pool3d, max_pool3d_with_indices, max_unpool1d, max_unpool2d, max_unpool3d,
)
from ._functional_attention import (  # noqa: E402,F401  (torch.nn.functional's names)
    _canonical_mask, _in_projection, _in_projection_packed, _mha_shape_check, _none_or_dtype,
    multi_head_attention_forward, scaled_dot_product_attention,
)

from ._functional_resample import *  # noqa: E402,F401,F403  (pad, interpolate, pixel_shuffle, ...)
from ._functional_misc import *  # noqa: E402,F401,F403  (bilinear, rrelu, dropout2d, fold, ...)
from ._embedding_bag import embedding_bag  # noqa: E402,F401
from ._functional_extra import gumbel_softmax, local_response_norm, rms_norm  # noqa: E402,F401
from ._functional_grid import affine_grid, grid_sample  # noqa: E402,F401


def pdist(input, p=2):
    """The p-norm distances between each pair of rows of a 2-d tensor (`torch.pdist`, the same
    function in PyTorch).

    >>> torch.nn.functional.pdist(torch.tensor([[0., 0.], [3., 4.], [6., 8.]]))
    tensor([ 5., 10.,  5.])
    """
    import leafgrad

    return leafgrad.pdist(input, p)


__all__ = [n for n in dir() if not n.startswith("_") and n not in ("Tensor",)]
