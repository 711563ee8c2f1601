"""`scatter`, `scatter_add`, `scatter_reduce` and their in-place forms, as `torch.*` functions
and Tensor methods (the core is src/ops/scatter.rs)."""
from . import _warn
from ._core import Tensor

__all__ = ["scatter", "scatter_add", "scatter_reduce"]

_UNSET = object()


def _src(name, src, value):
    if src is _UNSET:
        if value is _UNSET:
            raise TypeError(f"{name}() missing required argument 'src' (or 'value')")
        return value
    return src


def _deprecated_reduce(src, reduce):
    if reduce is not None and isinstance(src, Tensor):
        _warn.warn_once(
            "scatter reduce",
            "The reduce argument of torch.scatter with Tensor src is deprecated and will be removed in a "
            "future PyTorch release. Use torch.scatter_reduce instead for more reduction options. "
            "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorAdvancedIndexing.cpp:224.)",
            stacklevel=3)


def scatter(input, dim, index, src=_UNSET, *, value=_UNSET, reduce=None):
    """A copy of `input` with the elements of `src` (or the number `value`) written along `dim`
    at the positions `index` gives: `out[index[i][j]][j] = src[i][j]` for `dim=0` (the last write
    wins where positions repeat). `reduce="add"`/`"multiply"` combines instead of writing (see
    `scatter_reduce`).

    >>> torch.zeros(2, 4).scatter(1, torch.tensor([[0], [3]]), 1.)
    tensor([[1., 0., 0., 0.],
            [0., 0., 0., 1.]])
    """
    src = _src("scatter", src, value)
    _deprecated_reduce(src, reduce)
    return input._scatter(dim, index, src, reduce)


def _scatter_(self, dim, index, src=_UNSET, *, value=_UNSET, reduce=None):
    """In-place `scatter`."""
    src = _src("scatter_", src, value)
    _deprecated_reduce(src, reduce)
    return self._scatter(dim, index, src, reduce, True)


def scatter_add(input, dim, index, src):
    """A copy of `input` with the elements of `src` added along `dim` at the positions `index`
    gives (repeated positions add up).

    >>> torch.zeros(3).scatter_add(0, torch.tensor([0, 2, 0]), torch.tensor([1., 2., 3.]))
    tensor([4., 0., 2.])
    """
    return input._scatter_add(dim, index, src)


def _scatter_add_(self, dim, index, src):
    """In-place `scatter_add`."""
    return self._scatter_add(dim, index, src, True)


def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):
    """A copy of `input` where each position `index` names along `dim` is reduced with the
    elements of `src` sent there: `reduce` is "sum", "prod", "mean", "amax" or "amin"; with
    `include_self=False` the input's own value there is left out.

    >>> x = torch.tensor([1., 2., 3., 4.])
    >>> x.scatter_reduce(0, torch.tensor([0, 0, 3]), torch.tensor([5., 7., 1.]), "amax")
    tensor([7., 2., 3., 4.])
    >>> x.scatter_reduce(0, torch.tensor([0, 0, 3]), torch.tensor([5., 7., 1.]), "mean", include_self=False)
    tensor([6., 2., 3., 1.])
    """
    return input._scatter_reduce(dim, index, src, reduce, bool(include_self))


def _scatter_reduce_(self, dim, index, src, reduce, *, include_self=True):
    """In-place `scatter_reduce`."""
    return self._scatter_reduce(dim, index, src, reduce, bool(include_self), True)


def _install():
    for name in __all__:
        setattr(Tensor, name, globals()[name])
    Tensor.scatter_ = _scatter_
    Tensor.scatter_add_ = _scatter_add_
    Tensor.scatter_reduce_ = _scatter_reduce_


_install()
