"""`torch.nn.functional.embedding_bag`: the sums, means or maxima of "bags" of rows of an
embedding matrix, computed without materialising the rows of each bag.

PyTorch's argument checks and messages (its Python-level ValueErrors, then ATen's checks of the
index, offset and weight dtypes, of `offsets[0]`, `offsets[-1]` and the index range) come first.
The bags are then found as PyTorch's CPU kernel finds them (each entry's bag is the number of bag
starts at or before it: `offset2bag`); entries equal to `padding_idx` belong to no bag; an empty
bag gives zeros. With `include_last_offset`, `offsets[-1]` ends the last bag; entries past it join
the last bag, as PyTorch's general kernel (double weights, `padding_idx`, mode "max") counts them.

The result is one node, EmbeddingBagBackward0, recorded by `_core._composite` over the weight
(and `per_sample_weights`): a composition of `index_select` and `index_add` (sum, mean) or of
`gather` at the rows PyTorch's kernel picks (max: the first maximum of each column, NaN kept where
it comes first), so the gradients are PyTorch's: each row's gradient is the sum of its bags'
(scaled by 1/bag size for mean, by the sample weight for sum, divided by the row's count in the
input with `scale_grad_by_freq`), and max mode routes each column's gradient to its argmax row."""
import warnings

import numpy as np

from .. import _core
from .._core import Tensor

_MODES = {"sum": 0, "mean": 1, "max": 2}
_FAST_DTYPES = ("float32", "float16", "bfloat16")


def _torch():
    import leafgrad

    return leafgrad


def _type_str(value):
    return "<class 'torch.Tensor'>" if isinstance(value, Tensor) else str(type(value))


def _host(t):
    return np.asarray(t.detach().cpu().to(_torch().int64).numpy()).reshape(-1)


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode="mean",
                  sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None):
    """The sum, mean or maximum of each bag of rows of `weight`: the bags are the rows of a 2-D
    `input`, or the runs of a 1-D `input` that start at `offsets` (EmbeddingBagBackward0).

    >>> weight = torch.tensor([[1., 2.], [3., 4.], [5., 6.]])
    >>> F = torch.nn.functional
    >>> F.embedding_bag(torch.tensor([0, 2, 1]), weight, torch.tensor([0, 2]))
    tensor([[3., 4.],
            [3., 4.]])
    >>> F.embedding_bag(torch.tensor([[0, 1], [2, 2]]), weight, mode="max")
    tensor([[3., 4.],
            [5., 6.]])
    """
    torch = _torch()
    if weight.dtype == torch.long and input.is_floating_point():
        warnings.warn("Argument order of nn.functional.embedding_bag was changed. Usage `embedding_bag(weight, "
                      "input, ...)` is deprecated, and should now be `embedding_bag(input, weight, ...)`.",
                      stacklevel=2)
        weight, input = input, weight
    if per_sample_weights is not None and input.size() != per_sample_weights.size():
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is not None, then it "
                         f"must have the same shape as the input ({input.shape})")
    if weight.dim() != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.dim()}")
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a mini-batch of "
                             f"fixed length sequences. However, found offsets of type {_type_str(offsets)}")
        offsets = torch.arange(0, input.numel(), input.size(1), dtype=input.dtype, device=input.device)
        include_last_offset = False
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}")
    if mode not in _MODES:
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max":
        if scale_grad_by_freq:
            raise ValueError("max mode does not support scaling the gradient by the frequency")
        if sparse:
            raise ValueError("max mode does not support sparse weights")
    if max_norm is not None:
        from .functional import _embedding_renorm_

        _embedding_renorm_(weight, input, float(max_norm), float(norm_type))
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError("embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
                                  "GitHub.")
    return _embedding_bag(weight, input, offsets, bool(scale_grad_by_freq), mode, bool(sparse), per_sample_weights,
                          bool(include_last_offset), padding_idx)


def _checked_padding_idx(padding_idx, num_weights):
    if padding_idx is None:
        return -1
    if isinstance(padding_idx, bool) or not isinstance(padding_idx, int):
        raise TypeError(f"embedding_bag(): argument 'padding_idx' (position 9) must be int, not "
                        f"{type(padding_idx).__name__}")
    if not -num_weights <= padding_idx < num_weights:
        raise RuntimeError(f"padding_idx must be within the number of embeddings, -{num_weights} through "
                           f"{num_weights - 1}, but got {padding_idx}")
    return padding_idx + num_weights if padding_idx < 0 else padding_idx


def _check_dtypes(weight, indices, offsets, per_sample_weights):
    torch = _torch()
    common = torch.promote_types(offsets.dtype, indices.dtype)
    if common not in (torch.int64, torch.int32):
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got {common._legacy_name} instead (while checking arguments for "
                           "embedding_bag)")
    if weight.dtype not in (torch.float16, torch.bfloat16, torch.float32, torch.float64):
        raise RuntimeError("Expected tensor for argument #1 'weight' to have one of the following scalar types: "
                           f"Half, BFloat16, Float, Double; but got {weight.dtype._legacy_name} instead (while "
                           "checking arguments for embedding_bag)")
    if per_sample_weights is not None and per_sample_weights.dtype != weight.dtype:
        raise RuntimeError("Expected tensor for argument #1 'weight' to have the same type as tensor for argument "
                           f"#1 'per_sample_weights'; but type {weight.dtype._legacy_name} does not equal "
                           f"{per_sample_weights.dtype._legacy_name} (while checking arguments for embedding_bag)")
    return common


def _bags(offs, n, include_last_offset, fast, mode, legacy):
    """(each entry's bag, the bag count) from the offsets, with PyTorch's errors for bad ones:
    its float kernels for sum and mean (`fast`) want the bags in order; its general kernel takes
    any bag starts within the input."""
    if include_last_offset and offs.size < 1:
        raise RuntimeError("include_last_offset: number of offset should be at least 1")
    count = offs.size - 1 if include_last_offset else offs.size
    if offs.size:
        if offs[0] != 0:
            raise RuntimeError("offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from "
                               f"position 0. However, got {int(offs[0])}\n[ {legacy}{{}} ]")
        if offs[-1] > n:
            raise RuntimeError(f"offsets[-1] can not be greater than input's length {n} but got offsets[-1] of "
                               f"{int(offs[-1])}")
    starts = offs[:count]
    if fast:
        if mode == "mean" and (starts < 0).any():
            raise IndexError("index out of range in self")
        ends = offs[1:] if include_last_offset else np.append(offs[1:], n)
        if (ends < starts).any() or (starts > n).any():
            if include_last_offset:
                raise RuntimeError("Your input appears to be incorrect: the last offset value should be the size of "
                                   "the indices tensor, but it seems not to be the case.")
            raise RuntimeError("Expected i < index_size to be true, but got false.  (Could this error message be "
                               "improved?  If so, please report an enhancement request to PyTorch.)")
    elif ((starts < 0) | (starts > n)).any():
        raise IndexError("index out of range in self")
    marks = np.zeros(n + 1, dtype=np.int64)
    np.add.at(marks, starts, 1)
    marks[0] -= 1
    return np.cumsum(marks)[:n], count


def _check_range(idx, keep, num_weights, fast):
    bad = np.flatnonzero(keep & ((idx < 0) | (idx >= num_weights)))
    if bad.size:
        i = int(bad[0])
        if fast:
            raise RuntimeError(f"Index {i} of input takes value {int(idx[i])} which is not in the valid range "
                               f"[0, {num_weights})")
        raise RuntimeError(f"embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be "
                           f"{int(idx[i])}")


def _max_rows(vals, bags, count):
    """The row (entry) each bag's maximum of each column comes from, as PyTorch's kernel scans:
    the first entry, replaced by each later one that is strictly greater (so a NaN first stays)."""
    dim = vals.shape[1]
    rows = np.zeros((count, dim), dtype=np.int64)
    if bags.size == 0:
        return rows
    order = np.argsort(bags, kind="stable")
    v, b = vals[order], bags[order]
    heads = np.flatnonzero(np.r_[True, b[1:] != b[:-1]])
    comparable = np.where(np.isnan(v), -np.inf, v)
    top = np.maximum.reduceat(comparable, heads, axis=0)
    group = np.cumsum(np.r_[True, b[1:] != b[:-1]]) - 1
    pos = np.arange(v.shape[0])[:, None]
    first = np.minimum.reduceat(np.where(comparable == top[group], pos, v.shape[0]), heads, axis=0)
    first = np.where(np.isnan(v[heads]), heads[:, None], first)
    rows[b[heads]] = order[first]
    return rows


def _embedding_bag(weight, indices, offsets, scale_grad_by_freq, mode, sparse, per_sample_weights,
                   include_last_offset, padding_idx):
    torch = _torch()
    num_weights = weight.shape[0]
    pad = _checked_padding_idx(padding_idx, num_weights)
    if sparse:
        raise RuntimeError("embedding_bag: sparse gradients are not supported by leafgrad")
    common = _check_dtypes(weight, indices, offsets, per_sample_weights)
    idx, offs = _host(indices), _host(offsets)
    n = idx.size
    fast = mode != "max" and pad < 0 and weight.dtype._name in _FAST_DTYPES
    bag_of, count = _bags(offs, n, include_last_offset, fast, mode, common._legacy_name)
    keep = (bag_of >= 0) & (bag_of < count) & (idx != pad)
    _check_range(idx, keep, num_weights, fast)
    device = weight.device
    pos = np.flatnonzero(keep)
    rows, bags = idx[pos], bag_of[pos]
    dim = weight.shape[1]

    def tensor(values, dtype=torch.int64):
        kind = np.int64 if dtype is torch.int64 else np.bool_ if dtype is torch.bool else np.float64
        return _core.from_numpy(np.ascontiguousarray(values, dtype=kind)).to(device=device, dtype=dtype)

    if mode == "max":
        vals = weight.detach()[tensor(rows)].to(torch.float64).cpu().numpy() if pos.size else \
            np.zeros((0, dim))
        picked = tensor(rows[_max_rows(vals, bags, count)] if pos.size else np.zeros((count, dim), np.int64))
        empty = tensor(np.bincount(bags, minlength=count) == 0, torch.bool).unsqueeze(1)
        # the maxima were picked above: linear in the weight, whose values are not saved
        return _node(lambda w: w.gather(0, picked).masked_fill(empty, 0), [weight], [0])

    rows_t, bags_t, pos_t = tensor(rows), tensor(bags), tensor(pos)
    sizes = None
    if mode == "mean":
        sizes = tensor(np.maximum(np.bincount(bags, minlength=count), 1), weight.dtype).unsqueeze(1)
    grad_scale = None
    if scale_grad_by_freq:
        freq = np.bincount(idx[(idx >= 0) & (idx < num_weights)], minlength=num_weights)
        grad_scale = tensor(1.0 / freq[rows], weight.dtype).unsqueeze(1)

    def fn(w, *psw):
        e = w.index_select(0, rows_t)
        if grad_scale is not None:
            e = e.detach() + (e - e.detach()) * grad_scale  # the rows' values, their gradients scaled
        if psw:
            e = e * psw[0].index_select(0, pos_t).unsqueeze(1)
        out = e.new_zeros((count, dim)).index_add(0, bags_t, e)
        return out if sizes is None else out / sizes

    # linear in the weight, bilinear with per-sample weights: PyTorch saves the weight only
    # for the per-sample weights' gradient, and those for the weight's
    if per_sample_weights is None:
        return _node(fn, [weight], [0])
    unread = [i for i, other in ((0, per_sample_weights), (1, weight)) if not other.requires_grad]
    return _node(fn, [weight, per_sample_weights], unread)


def _node(fn, inputs, unread):
    """`fn(*inputs)` as one EmbeddingBagBackward0 node whose gradients are those of `fn`,
    computed without a graph: as in PyTorch they are not differentiable again (the weight's
    gradient raises PyTorch's NotImplementedError for `_embedding_bag_backward`, the sample
    weights' its RuntimeError for `_embedding_bag_per_sample_weights_backward`)."""
    from .._op_helpers import _custom

    torch = _torch()

    def exact(*xs):
        with torch.no_grad():
            return fn(*[x.detach() for x in xs])

    def backward(g, *xs):
        leaves = [x.detach().requires_grad_(x.requires_grad) for x in xs]
        with torch.enable_grad():
            y = fn(*leaves)
            wanted = [t for t in leaves if t.requires_grad]
            found = iter(torch.autograd.grad(y, wanted, g.detach(), allow_unused=True) if wanted else ())
        grads = [next(found) if t.requires_grad else None for t in leaves]
        grads = [torch.zeros_like(t) if gr is None and t.requires_grad else gr for gr, t in zip(grads, leaves)]
        if _core.is_grad_enabled():
            if grads[0] is not None and g.requires_grad:
                _core._no_derivative(g, grads[0], "EmbeddingBagBackwardBackward0", "_embedding_bag_backward")
            if len(grads) > 1 and grads[1] is not None:
                source = g if g.requires_grad else xs[0]
                _core._no_derivative(source, grads[1], "torch::autograd::NotImplemented",
                                     "_embedding_bag_per_sample_weights_backward")
        return tuple(grads)

    return _custom("EmbeddingBagBackward0", exact, backward, inputs, unread)
