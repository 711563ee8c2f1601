"""Sorting and selection: `sort`, `argsort`, `msort`, `topk`, `kthvalue`, `median`, `nanmedian`,
as `torch.*` functions and Tensor methods (the core is src/ops/sorting.rs). The ops that return
values and indices return PyTorch's named tuples (`torch.return_types.sort`, ...)."""
from ._core import Tensor
from ._tensor import _ReturnType

__all__ = ["sort", "argsort", "msort", "topk", "kthvalue", "median", "nanmedian"]


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


def _install():
    for name in __all__:
        setattr(Tensor, name, globals()[name])


_install()
