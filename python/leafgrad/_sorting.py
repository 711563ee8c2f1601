"""Sorting and selection: `sort`, `argsort`, `msort`, `topk`, `kthvalue`, `median`, `nanmedian`,
as `torch.*` functions and Tensor methods (the core is src/ops/sorting.rs). The ops that return
values and indices return PyTorch's named tuples (`torch.return_types.sort`, ...)."""
from . import _warn
from ._core import Tensor
from ._tensor import _ReturnType

__all__ = ["sort", "argsort", "msort", "topk", "kthvalue", "median", "nanmedian", "searchsorted", "bucketize",
           "unique", "unique_consecutive"]
_METHODS = ["sort", "argsort", "msort", "topk", "kthvalue", "median", "nanmedian", "unique", "unique_consecutive"]


def _return_type(name):
    cls = type(name, (_ReturnType,), {"_name": name, "__module__": "torch.return_types"})
    cls.__qualname__ = name
    return cls


_Sort = _return_type("sort")
_Topk = _return_type("topk")
_Kthvalue = _return_type("kthvalue")
_Median = _return_type("median")
_Nanmedian = _return_type("nanmedian")

_UNSET = object()


def _dim(dim, axis):
    return dim if axis is None else axis


def _keep(keepdim, keepdims):
    return bool(keepdim if keepdims is None else keepdims)


def sort(input, dim=-1, descending=False, *, stable=_UNSET, axis=None):
    """The elements along `dim` in ascending order (descending with `descending=True`), and where
    each came from: `torch.return_types.sort(values, indices)`. NaN sorts as the largest. With
    `stable=True` equal elements keep their order.

    >>> torch.sort(torch.tensor([3., 1., 2.]))
    torch.return_types.sort(
    values=tensor([1., 2., 3.]),
    indices=tensor([1, 2, 0]))
    >>> torch.tensor([[1, 5], [4, 2]]).sort(dim=0, descending=True).indices
    tensor([[1, 0],
            [0, 1]])
    """
    st = None if stable is _UNSET else bool(stable)
    return _Sort(*input._sort(_dim(dim, axis), bool(descending), st))


def argsort(input, dim=-1, descending=False, *, stable=False, axis=None):
    """The indices that sort `input` along `dim` (`sort(...).indices`).

    >>> torch.argsort(torch.tensor([3., 1., 2.]), descending=True)
    tensor([0, 2, 1])
    """
    return input._sort(_dim(dim, axis), bool(descending), bool(stable))[1]


def msort(input):
    """`input` sorted along its first dim (`sort(input, dim=0).values`).

    >>> torch.msort(torch.tensor([[3, 1], [2, 4]]))
    tensor([[2, 1],
            [3, 4]])
    """
    return input._sort(0, False, None)[0]


def topk(input, k, dim=-1, largest=True, sorted=True):
    """The `k` largest elements along `dim` (smallest with `largest=False`) and their indices,
    largest first: `torch.return_types.topk(values, indices)`.

    >>> torch.topk(torch.tensor([1., 5., 3., 4.]), 2)
    torch.return_types.topk(
    values=tensor([5., 4.]),
    indices=tensor([1, 3]))
    """
    return _Topk(*input._topk(int(k), int(dim), bool(largest), bool(sorted)))


def kthvalue(input, k, dim=-1, keepdim=False, *, keepdims=None):
    """The `k`-th smallest element along `dim` (`k` counts from 1) and its index.

    >>> torch.kthvalue(torch.tensor([4., 1., 3.]), 2)
    torch.return_types.kthvalue(
    values=tensor(3.),
    indices=tensor(2))
    """
    return _Kthvalue(*input._kthvalue(int(k), int(dim), _keep(keepdim, keepdims)))


def median(input, dim=None, keepdim=False, *, keepdims=None, axis=None):
    """The median of all elements (the lower of the two middle ones for an even count; NaN if
    any element is NaN); with `dim`, the medians along it and their indices.

    >>> torch.median(torch.tensor([1., 4., 2., 3.]))
    tensor(2.)
    >>> torch.median(torch.tensor([[1., 4., 2.], [3., 0., 5.]]), dim=1)
    torch.return_types.median(
    values=tensor([2., 3.]),
    indices=tensor([2, 0]))
    """
    dim = _dim(dim, axis)
    if dim is None:
        return input._median_all(False)
    return _Median(*input._median_dim(int(dim), _keep(keepdim, keepdims), False))


def nanmedian(input, dim=None, keepdim=False, *, keepdims=None, axis=None):
    """`median` ignoring NaN elements (NaN only where all are NaN).

    >>> torch.nanmedian(torch.tensor([1., float('nan'), 3., 2.]))
    tensor(2.)
    """
    dim = _dim(dim, axis)
    if dim is None:
        return input._median_all(True)
    return _Nanmedian(*input._median_dim(int(dim), _keep(keepdim, keepdims), True))


def _side(side, right):
    if side is None:
        return bool(right)
    if side not in ("left", "right"):
        raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}")
    if right and side == "left":
        raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, got side of "
                           "left while right was True")
    return side == "right"


_CONTIGUITY = (("boundary", 38), ("input value", 32), ("sorter", 44))


def _warn_non_contiguous(boundaries, input, sorter):
    """PyTorch's once-per-process warnings that a non-contiguous argument is copied (pointing at
    the user's line, whatever leafgrad frames lie between)."""
    from ._out import user_stacklevel

    for (what, line), t in zip(_CONTIGUITY, (boundaries, input, sorter)):
        if isinstance(t, Tensor) and not t.is_contiguous():
            _warn.warn_once(
                "searchsorted " + what,
                f"torch.searchsorted(): {what} tensor is non-contiguous, this will lower the performance "
                "due to extra data copy when converting non-contiguous tensor to contiguous, please use "
                f"contiguous {what} tensor if possible. This message will only appear once per program. "
                "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/BucketizationUtils.h:"
                f"{line}.)", stacklevel=user_stacklevel())


def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None):
    """For each element of `input`, the index where inserting it into the innermost dim of
    `sorted_sequence` keeps it sorted: the first position not less than it (with `right=True` or
    `side="right"`, the first position greater than it). `sorted_sequence` is 1-D or has
    `input`'s leading dims; `sorter` sorts an unsorted sequence. int64 indices (int32 with
    `out_int32=True`), without gradient.

    >>> seq = torch.tensor([1, 3, 5, 7, 9])
    >>> torch.searchsorted(seq, torch.tensor([3, 6, 9]))
    tensor([1, 3, 4])
    >>> torch.searchsorted(seq, torch.tensor([3, 6, 9]), right=True)
    tensor([2, 3, 5])
    """
    right = _side(side, right)
    out = sorted_sequence._searchsorted(input, right, bool(out_int32), sorter)
    _warn_non_contiguous(sorted_sequence, input, sorter)
    return out


def bucketize(input, boundaries, *, out_int32=False, right=False):
    """The index of the bucket of each element of `input` among the 1-D sorted `boundaries`:
    `i` such that `boundaries[i-1] < x <= boundaries[i]` (`boundaries[i-1] <= x <
    boundaries[i]` with `right=True`); `searchsorted(boundaries, input)`.

    >>> torch.bucketize(torch.tensor([[3, 6, 9], [0, 1, 10]]), torch.tensor([1, 3, 5, 7, 9]))
    tensor([[1, 3, 4],
            [0, 0, 5]])
    """
    if boundaries.dim() != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries.dim()})")
    out = boundaries._searchsorted(input, bool(right), bool(out_int32), None)
    _warn_non_contiguous(boundaries, input, None)
    return out


def _groups(flat, consecutive):
    """(values, group id of each element, number of groups) of a 1-D tensor: equal neighbours
    after a stable sort (in place order when `consecutive`); NaNs are each their own."""
    from . import _core

    if consecutive:
        s, perm = flat, None
    else:
        s, perm = flat.sort(stable=True)
    if flat.numel() == 0:
        return s, s.long(), 0
    first = _core.cat([(s[:1] == s[:1]) | (s[:1] != s[:1]), s[1:] != s[:-1]])
    group = first.long().cumsum(0) - 1
    values = s[first]
    if perm is not None:
        group = (group * 0).scatter(0, perm, group)
    return values, group, values.numel()


def _unique_dim(x, dim, consecutive):
    """(values, group of each slice, groups) along `dim`: slices compared as rows, in
    lexicographic order unless `consecutive`."""
    from ._factories import tensor
    from ._shape_ops import _wrap

    d = _wrap(dim, x.dim())
    m = x.shape[d]
    rows = [tuple(r) for r in x.movedim(d, 0).reshape(m, -1).tolist()] if m else []
    order = list(range(m)) if consecutive else sorted(range(m), key=lambda i: rows[i])
    group, firsts = [0] * m, []
    for pos, i in enumerate(order):
        if pos == 0 or rows[i] != rows[order[pos - 1]]:
            firsts.append(i)
        group[i] = len(firsts) - 1
    values = x.index_select(d, tensor(firsts, dtype=_long()))
    return values, tensor(group, dtype=_long()), len(firsts)


def _long():
    from . import _core

    return _core.int64


def _unique(input, return_inverse, return_counts, dim, consecutive, node, op):
    from . import _core

    x = input.detach()
    if dim is None:
        values, group, k = _groups(x.reshape(-1), consecutive)
        inverse = group.reshape(tuple(input.shape))
    else:
        values, group, k = _unique_dim(x, dim, consecutive)
        inverse = group
    _core._no_derivative(input, values, node, op)
    out = [values]
    if return_inverse:
        out.append(inverse)
    if return_counts:
        from ._factories import zeros

        out.append(zeros(k, dtype=_long()).scatter_add(0, group, group * 0 + 1))
    return out[0] if len(out) == 1 else tuple(out)


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The distinct elements of `input` in ascending order (NaNs each their own, last); with
    `dim`, the distinct slices along it. `return_inverse` adds where each element went,
    `return_counts` how many each has. The values require grad like the input, without a
    derivative (PyTorch's error in backward).

    >>> torch.unique(torch.tensor([3, 1, 2, 1, 3]), return_inverse=True, return_counts=True)
    (tensor([1, 2, 3]), tensor([2, 0, 1, 0, 2]), tensor([2, 1, 2]))
    """
    if dim is None:
        return _unique(input, return_inverse, return_counts, None, False, "Unique2Backward0", "_unique2")
    return _unique(input, return_inverse, return_counts, dim, False, "UniqueDimBackward0", "unique_dim")


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """`unique` of runs: each group of equal neighbours kept once, in place order.

    >>> torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1, 1, 2]))
    tensor([1, 2, 3, 1, 2])
    """
    return _unique(input, return_inverse, return_counts, dim, True, "UniqueConsecutiveBackward0",
                   "unique_consecutive")


def _install():
    for name in _METHODS:
        setattr(Tensor, name, globals()[name])


_install()
