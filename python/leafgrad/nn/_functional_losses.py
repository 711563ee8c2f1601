"""The losses of `torch.nn.functional` beyond MSE/L1/NLL/cross-entropy/BCE, the distance
functions, and the reduction helpers every loss shares (re-exported by `functional`): the Rust
ops where PyTorch has a node of its own (smooth_l1, huber, soft_margin), else compositions of
ops in the order PyTorch's ATen composes them."""
from .. import _core
from .._factories import arange as _arange, ones_like as _ones_like, tensor as _tensor, zeros_like as _zeros_like
from .._grad_mode import no_grad as _no_grad
from .._op_helpers import _reduce
from .. import _aten_functional as _aten


def _reduction(size_average, reduce, reduction):
    """`reduction`, or the one the legacy size_average/reduce arguments name (with PyTorch's
    deprecation warning)."""
    if size_average is None and reduce is None:
        return reduction
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    ret = "none" if not reduce else "mean" if size_average else "sum"
    import warnings

    # located inside the library, as PyTorch's `_reduction.legacy_get_string` warns (so Python's
    # default filter shows it once, not once per calling line)
    warnings.warn(f"size_average and reduce args will be deprecated, please use reduction='{ret}' instead.",
                  stacklevel=2)
    return ret


def _warn_target_size(input, target):
    if tuple(target.shape) != tuple(input.shape):
        import warnings

        warnings.warn(
            f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). "
            "This will likely lead to incorrect results due to broadcasting. Please ensure they have the same size.",
            stacklevel=3)


def _check_reduction(reduction):
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """0.5 * d**2 / beta where |d| < beta, |d| - 0.5 * beta elsewhere (d = input - target),
    reduced (SmoothL1LossBackward0; beta=0 is l1_loss).

    >>> x, y = torch.tensor([0.2, 3.0]), torch.tensor([0.0, 1.0])
    >>> torch.nn.functional.smooth_l1_loss(x, y, reduction='none')
    tensor([0.0200, 1.5000])
    """
    reduction = _reduction(size_average, reduce, reduction)
    _warn_target_size(input, target)
    if beta == 0.0:
        return _core._l1_loss(input, target, reduction)
    return _core._smooth_l1_loss(input, target, reduction, float(beta))


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    """0.5 * d**2 where |d| < delta, delta * (|d| - 0.5 * delta) elsewhere, reduced
    (HuberLossBackward0).

    >>> x, y = torch.tensor([0.2, 3.0]), torch.tensor([0.0, 1.0])
    >>> torch.nn.functional.huber_loss(x, y, delta=0.5, reduction='none')
    tensor([0.0200, 0.8750])
    """
    _warn_target_size(input, target)
    if weight is None:
        return _core._huber_loss(input, target, reduction, float(delta))
    if tuple(weight.shape) != tuple(input.shape):
        raise ValueError("Weights and input must have the same size.")
    loss = _core._huber_loss(input, target, "none", float(delta)) * weight
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.")
    return _reduce(loss, reduction)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """log(1 + exp(-target * input)), reduced (SoftMarginLossBackward0).

    >>> torch.nn.functional.soft_margin_loss(torch.tensor([2., -1.]), torch.tensor([1., 1.]))
    tensor(0.7201)
    """
    return _core._soft_margin_loss(input, target, _reduction(size_average, reduce, reduction))


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    """The Kullback-Leibler divergence of log-probabilities `input` from `target`:
    target * (log(target) - input) (`log_target`: exp(target) * (target - input)), reduced;
    'batchmean' divides the sum by the batch size.

    >>> logp = torch.tensor([[0.25, 0.75]]).log()
    >>> torch.nn.functional.kl_div(logp, torch.tensor([[0.5, 0.5]]), reduction='batchmean')
    tensor(0.1438)
    """
    if size_average is not None or reduce is not None:
        reduction = _reduction(size_average, reduce, reduction)
    elif reduction == "mean":
        import warnings

        warnings.warn(
            "reduction: 'mean' divides the total loss by both the batch size and the support size."
            "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
            "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
            stacklevel=2)
    if reduction not in ("none", "mean", "sum", "batchmean"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if input.is_complex() or target.is_complex():
        raise RuntimeError("kl_div: Complex inputs not supported.")
    if not input.is_floating_point() or not target.is_floating_point():
        raise RuntimeError("kl_div: Integral inputs not supported.")
    if log_target:
        loss = target.exp() * (target - input)
    else:
        loss = target.xlogy(target) - target * input
    if reduction == "batchmean":
        total = loss.sum()
        return total / input.shape[0] if input.dim() != 0 else total
    return _reduce(loss, reduction)


def _check_loss_reduction(reduction):
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")


_ENUM = {"none": 0, "mean": 1, "sum": 2}


def _reduction_enum(size_average, reduce, reduction):
    """PyTorch's `_Reduction.get_enum` (or `legacy_get_enum`): the int its ATen losses take."""
    reduction = _reduction(size_average, reduce, reduction)
    if reduction == "elementwise_mean":
        import warnings

        warnings.warn("reduction='elementwise_mean' is deprecated, please use reduction='mean' instead.",
                      stacklevel=3)
        reduction = "mean"
    _check_loss_reduction(reduction)
    return _ENUM[reduction]


def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    """max(0, -target * (input1 - input2) + margin), reduced: target 1 asks input1 to rank
    higher, -1 lower (ATen's `margin_ranking_loss`, as PyTorch's calls it).

    >>> a, b = torch.tensor([1., 2.]), torch.tensor([2., 0.])
    >>> torch.nn.functional.margin_ranking_loss(a, b, torch.tensor([1., 1.]), margin=0.5)
    tensor(0.7500)
    """
    enum = _reduction_enum(size_average, reduce, reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(
            f"margin_ranking_loss : All input tensors should have same dimension but got sizes: "
            f"input1: {input1.size()}, input2: {input2.size()}, target: {target.size()} ")
    return _aten.margin_ranking_loss(input1, input2, target, margin, enum)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"):
    """input where target is 1, max(0, margin - input) where target is -1, reduced (ATen's
    `hinge_embedding_loss`, as PyTorch's calls it).

    >>> torch.nn.functional.hinge_embedding_loss(torch.tensor([0.3, 2.]), torch.tensor([1., -1.]))
    tensor(0.1500)
    """
    return _aten.hinge_embedding_loss(input, target, margin, _reduction_enum(size_average, reduce, reduction))


cosine_similarity = _aten.cosine_similarity  # PyTorch's F names are its torch.* functions


pairwise_distance = _aten.pairwise_distance


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """input / max(||input||_p along dim, eps) (DivBackward0).

    >>> torch.nn.functional.normalize(torch.tensor([[3., 4.]]))
    tensor([[0.6000, 0.8000]])
    """
    denom = input.norm(p, dim, True).clamp_min(eps).expand_as(input)
    if out is None:
        return input / denom
    return _core.div(input, denom, out=out)


def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    """1 - cos(input1, input2) where target is 1, max(0, cos - margin) where it is -1, reduced
    (ATen's `cosine_embedding_loss`, as PyTorch's calls it).

    >>> a, b = torch.tensor([[1., 0.], [0., 1.]]), torch.tensor([[1., 1.], [0., 1.]])
    >>> torch.nn.functional.cosine_embedding_loss(a, b, torch.tensor([1., -1.]))
    tensor(0.6464)
    """
    return _aten.cosine_embedding_loss(input1, input2, target, margin, _reduction_enum(size_average, reduce, reduction))


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, size_average=None,
                        reduce=None, reduction="mean"):
    """max(0, margin + d(anchor, positive) - d(anchor, negative)), d the pairwise p-distance
    (`swap`: the smaller of d(anchor, negative) and d(positive, negative)), reduced (ATen's
    `triplet_margin_loss`, as PyTorch's calls it).

    >>> a, pos, neg = torch.tensor([[0., 0.]]), torch.tensor([[0., 1.]]), torch.tensor([[0., 1.5]])
    >>> torch.nn.functional.triplet_margin_loss(a, pos, neg)
    tensor(0.5000)
    """
    enum = _reduction_enum(size_average, reduce, reduction)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    return _aten.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap, enum)


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                     reduction="mean"):
    """The negative log likelihood of `target` under a Poisson distribution of rate exp(input)
    (`log_input`) or input, with Stirling's term for targets above 1 when `full`, reduced
    (ATen's `poisson_nll_loss`, as PyTorch's calls it).

    >>> torch.nn.functional.poisson_nll_loss(torch.tensor([0., 1.]), torch.tensor([1., 2.]))
    tensor(0.8591)
    """
    reduction = _reduction(size_average, reduce, reduction)
    _check_loss_reduction(reduction)
    return _aten.poisson_nll_loss(input, target, log_input, full, eps, _ENUM[reduction])


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    """The negative log likelihood of `target` under Gaussians of mean `input` and variance
    `var` (one per element, per batch row, or a number), var clamped to at least `eps`.

    >>> torch.nn.functional.gaussian_nll_loss(torch.tensor([0., 1.]), torch.tensor([1., 1.]), torch.ones(2))
    tensor(0.2500)
    """
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * _ones_like(input)
    elif (var < 0).any():
        raise ValueError("var has negative entry/entries")
    if tuple(var.shape) != tuple(input.shape):
        if tuple(input.shape[:-1]) == tuple(var.shape):
            var = var.unsqueeze(-1)
        elif input.dim() == var.dim() and sum(v for i, v in zip(input.shape, var.shape) if i != v) == 1:
            pass
        else:
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with _no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        import math

        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """The mean over classes of the binary logistic losses of each label, reduced over the batch.

    >>> torch.nn.functional.multilabel_soft_margin_loss(torch.tensor([[1., -1.]]), torch.tensor([[1., 0.]]))
    tensor(0.3133)
    """
    reduction = _reduction(size_average, reduce, reduction)
    loss = -(target * _core._logsigmoid(input) + (1 - target) * _core._logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(class_dim) / input.shape[class_dim]
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    return _reduce(loss, reduction)


def _margin_loss_checks(input):
    """The shape and dtype checks PyTorch's multi_margin_loss and multilabel_margin_loss
    kernels share: the number of samples and classes of a (C,) / (N, C) / 0-d input."""
    from .._gather import _scalar_name

    ndims = input.dim()
    if not ((ndims == 2 and input.shape[1] != 0) or (ndims == 1 and input.shape[0] != 0) or ndims == 0):
        raise RuntimeError(f"Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
                           f"{list(input.shape)}")
    nframe = 1 if ndims <= 1 else input.shape[0]
    dim = 1 if ndims == 0 else input.shape[-1]
    return nframe, dim, _scalar_name


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None,
                      reduction="mean"):
    """The multi-class hinge loss: for each sample, the sum over the classes j other than its
    target y of max(0, margin - x[y] + x[j])**p (times weight[y]), divided by the number of
    classes, reduced over the batch (MultiMarginLossBackward0).

    >>> x = torch.tensor([[0.1, 0.2, 0.4, 0.8]])
    >>> torch.nn.functional.multi_margin_loss(x, torch.tensor([3]))
    tensor(0.3250)
    """
    reduction = _reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    nframe, dim, scalar_name = _margin_loss_checks(input)
    if not (target.dim() <= 1 and target.numel() == nframe):
        raise RuntimeError(
            "multi_margin_loss: target tensor should be 1-D with size equal to the number of input samples (batch "
            f"size). Expected target size [{nframe}], but got {list(target.shape)}. Input has shape "
            f"{list(input.shape)}.")
    if weight is not None and not (weight.dim() <= 1 and weight.numel() == dim):
        raise RuntimeError(f"inconsistent weight size, expected {dim} but got {list(weight.shape)}")
    if not input.is_floating_point():
        raise NotImplementedError(f"\"multi_margin_loss_cpu_kernel\" not implemented for "
                                  f"'{scalar_name(input.dtype)}'")
    if target.dtype != _core.int64:
        raise RuntimeError(f"expected scalar type Long but found {scalar_name(target.dtype)}")
    if weight is not None and weight.dtype != input.dtype:
        raise RuntimeError(f"expected scalar type {scalar_name(input.dtype)} but found {scalar_name(weight.dtype)}")
    if weight is not None and weight.requires_grad:
        raise RuntimeError("The function 'multi_margin_loss' is not differentiable with respect to argument "
                           "'weight'. This input cannot have requires_grad True.")
    targets = target.reshape(-1).tolist()
    if any(t < 0 or t >= dim for t in targets):
        raise RuntimeError("target out of range")
    index = _tensor(targets, dtype=_core.int64).reshape(nframe, 1)
    others = _arange(dim).reshape(1, dim) != index
    scale = None if weight is None else weight.detach().gather(0, index.reshape(-1)).reshape(nframe, 1)

    def fn(x):
        x = x.reshape(nframe, dim)
        z = margin - x.gather(1, index) + x
        h = _core.where(others & (z > 0), z, _zeros_like(z))
        if p == 2:
            h = h * h
        if scale is not None:
            h = h * scale
        loss = h.sum(1) / dim
        if reduction == "mean":
            return loss.sum() / nframe
        if reduction == "sum":
            return loss.sum()
        return loss if target.dim() > 0 else loss.reshape(())

    return _core._composite("MultiMarginLossBackward0", fn, [input])


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """The multi-label hinge loss: for each sample, the sum over its target classes y (the
    leading entries of its target row, up to the first -1) and its other classes j of
    max(0, 1 - x[y] + x[j]), divided by the number of classes, reduced over the batch
    (MultilabelMarginLossBackward0).

    >>> x = torch.tensor([[0.1, 0.2, 0.4, 0.8]])
    >>> torch.nn.functional.multilabel_margin_loss(x, torch.tensor([[3, 0, -1, 1]]))
    tensor(0.8500)
    """
    reduction = _reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    nframe, dim, scalar_name = _margin_loss_checks(input)
    ndims = input.dim()
    if ndims <= 1:
        ok = target.dim() <= 1 and target.numel() == dim
    else:
        ok = tuple(target.shape) == tuple(input.shape)
    if not ok:
        raise RuntimeError(f"inconsistent target size: {list(target.shape)} for input of size: {list(input.shape)}")
    if not input.is_floating_point():
        raise NotImplementedError(f"\"multilabel_margin_loss_forward_out_frame\" not implemented for "
                                  f"'{scalar_name(input.dtype)}'")
    if target.dtype != _core.int64:
        raise RuntimeError(f"expected scalar type Long but found {scalar_name(target.dtype)}")
    rows = [target.reshape(-1).tolist()[i * dim:(i + 1) * dim] for i in range(nframe)]
    if any(t < -1 or t >= dim for row in rows for t in row):
        raise RuntimeError("argument #2 'target' is out of range")
    index, listed, is_target = [], [], []
    for row in rows:
        n = row.index(-1) if -1 in row else dim
        index.append([t if k < n else 0 for k, t in enumerate(row)])
        listed.append([k < n for k in range(dim)])
        is_target.append([d in row[:n] for d in range(dim)])
    index = _tensor(index, dtype=_core.int64).reshape(nframe, dim)
    # pairs (k, d): the k-th listed target against each class d that is no target
    pairs = (_tensor(listed, dtype=_core.bool).reshape(nframe, dim, 1)
             & ~_tensor(is_target, dtype=_core.bool).reshape(nframe, 1, dim))

    def fn(x):
        x = x.reshape(nframe, dim)
        z = 1 - x.gather(1, index).reshape(nframe, dim, 1) + x.reshape(nframe, 1, dim)
        loss = _core.where(pairs & (z > 0), z, _zeros_like(z)).sum((1, 2)) / dim
        if reduction == "mean":
            return loss.sum() / nframe
        if reduction == "sum":
            return loss.sum()
        return loss if ndims == 2 else loss.reshape(())

    return _core._composite("MultilabelMarginLossBackward0", fn, [input])


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0, swap=False,
                                      reduction="mean"):
    """max(0, margin + d(anchor, positive) - d(anchor, negative)) for a distance function d
    (default: pairwise_distance; `swap`: the smaller of d(anchor, negative) and
    d(positive, negative)), reduced.

    >>> a, pos, neg = torch.tensor([[0., 0.]]), torch.tensor([[0., 1.]]), torch.tensor([[0., 1.5]])
    >>> torch.nn.functional.triplet_margin_with_distance_loss(a, pos, neg, margin=2.0)
    tensor(1.5000)
    """
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    a_dim, p_dim, n_dim = anchor.dim(), positive.dim(), negative.dim()
    if not (a_dim == p_dim and p_dim == n_dim):
        raise RuntimeError(
            "The anchor, positive, and negative tensors are expected to have the same number of dimensions, but "
            f"got: anchor {a_dim}D, positive {p_dim}D, and negative {n_dim}D inputs")
    if distance_function is None:
        distance_function = pairwise_distance
    dist_pos = distance_function(anchor, positive)
    dist_neg = distance_function(anchor, negative)
    if swap:
        dist_neg = dist_neg.minimum(distance_function(positive, negative))
    loss = (margin + dist_pos - dist_neg).clamp_min(0)
    if reduction == "sum":
        return loss.sum()
    if reduction == "mean":
        return loss.mean()
    return loss
