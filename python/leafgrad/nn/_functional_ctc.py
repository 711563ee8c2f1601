"""`torch.nn.functional.ctc_loss`: the connectionist temporal classification loss (Graves et al.,
2006), with PyTorch's argument forms, checks and reductions.

The forward-backward recursions run in log space over time steps, vectorised over the batch and
the extended target (blanks between and around the labels), in the input's dtype with PyTorch's
per-step formula. The loss is recorded as PyTorch's one node (CtcLossBackward0), and its
gradient is PyTorch's own formula, exp(log_probs) - exp(log(sum of alpha*beta over the positions
of each class) + nll - log_probs) for t < input_length, zero after, given by a Function's
backward inside the node. (That formula assumes log_softmax outputs: it is not the plain
derivative of the loss for unnormalised inputs, which is why it is reproduced as such.) As in
PyTorch, that gradient has no derivative: taken with create_graph, it is the output of a
torch::autograd::NotImplemented node that raises when reached.
"""
from .. import _core
from .._core import Tensor, cat as _cat, stack as _stack
from .._gather import _scalar_name
from .._grad_mode import no_grad
from ..autograd.function import Function
from ._functional_conv import _new_tensor
from ._functional_losses import _check_reduction

__all__ = ["ctc_loss"]

_WHERE = "(while checking arguments for ctc_loss_allocate_outputs)"
_NO_FORWARD_AD = ("Trying to use forward AD with _ctc_loss that does not support it because it has not been "
                  "implemented yet.\nPlease file an issue to PyTorch at https://github.com/pytorch/pytorch/issues/new?"
                  "template=feature-request.yml so that we can prioritize its implementation or submit a PR adding "
                  "the implementation to derivatives.yaml")


def _lengths(input_lengths, target_lengths):
    """The lengths as two lists of ints, from two integer tensors or two sequences of ints."""
    if isinstance(input_lengths, Tensor) and isinstance(target_lengths, Tensor):
        for name, t in (("input_lengths", input_lengths), ("target_lengths", target_lengths)):
            if t.is_floating_point() or t.is_complex() or t.dtype == _core.bool:
                raise RuntimeError(f"{name} must be integral")
        return [int(v) for v in input_lengths.reshape(-1).tolist()], \
            [int(v) for v in target_lengths.reshape(-1).tolist()]

    def ints(v):
        return isinstance(v, (list, tuple)) and all(isinstance(i, int) and not isinstance(i, bool) for i in v)

    if ints(input_lengths) and ints(target_lengths):
        return list(input_lengths), list(target_lengths)
    kinds = [type(v).__name__ if not isinstance(v, Tensor) else "Tensor" for v in (input_lengths, target_lengths)]
    got = ", ".join(kinds + ["int", "int", "bool"])
    marked = ", ".join(f"!{k}!" for k in kinds + ["int", "int", "bool"])
    why = f"      didn't match because some of the arguments have invalid types: (Tensor, Tensor, {marked})\n"
    raise TypeError(f"ctc_loss() received an invalid combination of arguments - got (Tensor, Tensor, {got}), but "
                    "expected one of:\n * (Tensor log_probs, Tensor targets, tuple of ints input_lengths, tuple of ints "
                    "target_lengths, int blank = 0, int reduction = at::Reduction::Mean, bool zero_infinity = False)\n"
                    + why + " * (Tensor log_probs, Tensor targets, Tensor input_lengths, Tensor target_lengths, int "
                    "blank = 0, int reduction = at::Reduction::Mean, bool zero_infinity = False)\n" + why)


def _check(lp, targets, il, tl, blank):
    """ATen's ctc_loss_allocate_outputs checks; each sample's labels as a list of ints."""
    if lp.dim() != 3:
        raise RuntimeError(f"Expected 3-dimensional tensor, but got {lp.dim()}-dimensional tensor for argument #1 "
                           f"'log_probs' {_WHERE}")
    if targets.dim() not in (1, 2):
        raise RuntimeError(f"Expected 1 to 2 dimensions, but got {targets.dim()}-dimensional tensor for argument #2 "
                           f"'targets' {_WHERE}")
    n, c = lp.shape[1], lp.shape[2]
    if not 0 <= blank < c:
        raise RuntimeError("blank must be in label range")
    if len(il) != n:
        raise RuntimeError("input_lengths must be of size batch_size")
    if len(tl) != n:
        raise RuntimeError("target_lengths must be of size batch_size")
    for v in tl:
        if v < 0:
            raise RuntimeError(f"Expected target_lengths to have value at least 0, but got value {v} {_WHERE}")
    flat = targets.tolist()
    if targets.dim() == 1:
        if targets.shape[0] != sum(tl):
            raise RuntimeError(f"Expected tensor to have size {sum(tl)} at dimension 0, but got size "
                               f"{targets.shape[0]} for argument #2 'targets' {_WHERE}")
        starts = [sum(tl[:b]) for b in range(n)]
        labels = [flat[s:s + length] for s, length in zip(starts, tl)]
    else:
        if targets.shape[0] != n:
            raise RuntimeError(f"Expected tensor to have size {n} at dimension 0, but got size {targets.shape[0]} for "
                               f"argument #2 'targets' {_WHERE}")
        longest = max(tl, default=0)
        if targets.shape[1] < longest:
            raise RuntimeError(f"Expected tensor to have size at least {longest} at dimension 1, but got size "
                               f"{targets.shape[1]} for argument #2 'targets' {_WHERE}")
        labels = [row[:length] for row, length in zip(flat, tl)]
    for v in il:
        if v < 0:
            raise RuntimeError(f"Expected input_lengths to have value at least 0, but got value {v} {_WHERE}")
        if v > lp.shape[0]:
            raise RuntimeError(f"Expected input_lengths to have value at most {lp.shape[0]}, but got value {v} "
                               f"{_WHERE}")
    return labels


def _logsumexp3(a, b, c):
    """log(exp(a) + exp(b) + exp(c)) as PyTorch's kernel takes it (around the maximum, 0 where
    all three are -inf)."""
    m = a.maximum(b).maximum(c)
    m = m.masked_fill(m == float("-inf"), 0.0)
    return ((a - m).exp() + (b - m).exp() + (c - m).exp()).log() + m


def _shift(x, k, fill, toward_end=True):
    """`x` (N, S) moved k places along S (toward the end, or the start), `fill` coming in."""
    pad = x.new_full((x.shape[0], k), fill)
    if toward_end:
        return _cat([pad, x[:, :x.shape[1] - k]], 1) if k < x.shape[1] else pad[:, :x.shape[1]]
    return _cat([x[:, k:], pad], 1) if k < x.shape[1] else pad[:, :x.shape[1]]


def _ctc_gradient(lp, labels, il, tl, blank, zero_infinity):
    """(nll (N,), PyTorch's gradient of the sum of nll (T, N, C)) of detached `lp` (T, N, C)."""
    t_max, n, c = lp.shape
    ninf = float("-inf")
    s_max = 2 * max(tl, default=0) + 1
    ext = [[blank if s % 2 == 0 or s // 2 >= len(lab) else lab[s // 2] for s in range(s_max)] for lab in labels]
    ext_t = _new_tensor(ext, lp)
    lp_ext = lp.gather(2, ext_t.unsqueeze(0).expand(t_max, n, s_max))            # (T, N, S)
    pos = _new_tensor(list(range(s_max)), lp).unsqueeze(0)                        # (1, S)
    size = _new_tensor([2 * v + 1 for v in tl], lp).unsqueeze(1)                  # (N, 1): 2L+1
    # a position may come from two back when its label differs from that one's (never a blank)
    skip = (pos >= 2) & (ext_t != _shift(ext_t, 2, -1))
    skip_back = _shift(skip, 2, False, toward_end=False) & (pos + 2 < size)
    step = pos + 1 < size

    alpha = [lp_ext[0].masked_fill(~((pos == 0) | ((pos == 1) & (size > 1))), ninf)]
    for t in range(1, t_max):
        prev = alpha[-1]
        alpha.append(_logsumexp3(prev, _shift(prev, 1, ninf), _shift(prev, 2, ninf).masked_fill(~skip, ninf))
                     + lp_ext[t])
    alpha = _stack(alpha)                                                    # (T, N, S)

    il_t = _new_tensor(il, lp).unsqueeze(1)                                       # (N, 1)
    beta = [None] * t_max
    nxt = lp.new_full((n, s_max), ninf)
    for t in range(t_max - 1, -1, -1):
        start = lp_ext[t].masked_fill(~((pos == size - 1) | (pos == size - 2) & (size > 1)), ninf)
        rec = _logsumexp3(nxt, _shift(nxt, 1, ninf, toward_end=False).masked_fill(~step, ninf),
                          _shift(nxt, 2, ninf, toward_end=False).masked_fill(~skip_back, ninf)) + lp_ext[t]
        row = start.where(il_t - 1 == t, rec.masked_fill(il_t - 1 < t, ninf))
        beta[t] = nxt = row
    beta = _stack(beta)

    # the log likelihood: the last two positions at t = input_length - 1 (1 and 0 without input)
    at = _new_tensor([max(v - 1, 0) for v in il], lp).reshape(n, 1, 1).expand(n, 1, s_max)
    last = alpha.permute(1, 0, 2).gather(1, at).squeeze(1)
    l1 = last.gather(1, size - 1)
    l2 = last.gather(1, _new_tensor([[max(2 * v - 1, 0)] for v in tl], lp)).masked_fill(size == 1, ninf)
    m = l1.maximum(l2)
    m = m.masked_fill(m == ninf, 0.0)
    ll = ((l1 - m).exp() + (l2 - m).exp()).log() + m
    ll = ll.where(il_t > 0, ll.new_zeros(ll.shape).masked_fill(size > 1, ninf))
    nll_t = -ll.reshape(n)
    # each class's log sum of alpha * beta over its positions, before input_length
    ab = (alpha + beta).masked_fill(pos.unsqueeze(0) >= size.unsqueeze(0), ninf)
    index = ext_t.unsqueeze(0).expand(t_max, n, s_max)
    top = lp.new_full((t_max, n, c), ninf).scatter_reduce(2, index, ab, "amax")
    safe = top.masked_fill(top == ninf, 0.0)
    total = lp.new_zeros((t_max, n, c)).scatter_add(2, index, (ab - safe.gather(2, index)).exp())
    lcab = total.log() + safe
    grad = lp.exp() - (lcab + nll_t.reshape(1, n, 1) - lp).exp()
    time = _new_tensor(list(range(t_max)), lp).reshape(t_max, 1, 1)
    keep = time < il_t.reshape(1, n, 1)
    if zero_infinity:
        keep = keep & (nll_t != float("inf")).reshape(1, n, 1)
    return nll_t, grad.masked_fill(~keep, 0.0)


class _CtcLossGradient(Function):
    """The per-sample losses `nll` (N,) as a function of the log-probabilities `x`, whose
    backward is PyTorch's gradient formula `grad` (T, N, C) times the output gradient. That
    gradient is not differentiable again, as PyTorch's _ctc_loss_backward: under create_graph it
    is the output of a torch::autograd::NotImplemented node over `log_probs` (and the output
    gradient when that requires grad), which raises when reached."""

    @staticmethod
    def forward(ctx, x, nll, grad, log_probs):
        ctx.grad, ctx.log_probs = grad, log_probs
        return nll.clone()

    @staticmethod
    def backward(ctx, grad_out):
        with no_grad():
            res = grad_out.reshape(1, -1, 1) * ctx.grad
        if _core.is_grad_enabled():
            over = ctx.log_probs
            if grad_out.requires_grad:  # the node's one input: log_probs with the output gradient
                over = over + grad_out.sum() * 0
            _core._no_derivative(over, res, "torch::autograd::NotImplemented", "_ctc_loss_backward")
        return res, None, None, None


def _ctc_node(lp, labels, il, tl, blank, zero_infinity):
    """The per-sample losses recorded as CtcLossBackward0, differentiating to PyTorch's gradient."""
    def fn(x):
        with no_grad():
            nll, grad = _ctc_gradient(x.detach(), labels, il, tl, blank, zero_infinity)
            # zero at a -inf log-probability (where the formula is finite), NaN where it is not
            grad = grad.masked_fill(~x.detach().isfinite(), 0.0).where(grad.isfinite(), float("nan"))
        return _CtcLossGradient.apply(x, nll, grad, lp)

    return _core._composite("CtcLossBackward0", fn, [lp])


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean", zero_infinity=False):
    """The connectionist temporal classification loss: -log of the total probability of every
    alignment of each target to its input (log_probs (T, N, C) or (T, C), log_softmax outputs
    over the C classes including `blank`). `targets` are padded (N, S) or concatenated
    (sum(target_lengths),); the lengths are integer tensors or tuples of ints. `reduction='mean'`
    divides each loss by its target length (at least 1), then averages; `zero_infinity` makes
    infinite losses (targets too long for their inputs) and their gradients zero
    (CtcLossBackward0, with PyTorch's gradient).

    >>> log_probs = torch.tensor([[[0.6, 0.4]], [[0.3, 0.7]]]).log()
    >>> torch.nn.functional.ctc_loss(log_probs, torch.tensor([[1]]), (2,), (1,), reduction='none')
    tensor([0.1985])
    >>> torch.nn.functional.ctc_loss(log_probs, torch.tensor([1, 1]), (2,), (2,), zero_infinity=True)
    tensor(0.)
    """
    _check_reduction(reduction)
    il, tl = _lengths(input_lengths, target_lengths)
    batched = log_probs.dim() == 3
    lp = log_probs if batched else log_probs.unsqueeze(1)
    if lp.dtype not in (_core.float32, _core.float64):
        raise NotImplementedError(f"\"ctc_loss_cpu\" not implemented for '{_scalar_name(lp.dtype)}'")
    labels = _check(lp, targets.long(), il, tl, blank)
    if _core._unpack_dual(log_probs)[1] is not None:
        raise NotImplementedError(_NO_FORWARD_AD)
    res = _ctc_node(lp, labels, il, tl, blank, zero_infinity)
    if zero_infinity:
        res = res.where(res != float("inf"), res.new_zeros(()))
    if reduction == "mean":
        if isinstance(target_lengths, Tensor):
            lengths = target_lengths.masked_fill(target_lengths < 1, 1)  # clamp_min(1), as PyTorch divides
        else:
            lengths = _new_tensor([max(v, 1) for v in tl], res, res.dtype)
        return (res / lengths).mean()
    if reduction == "sum":
        return res.sum()
    return res if batched else res.squeeze(0)
