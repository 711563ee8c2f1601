"""`scatter`, `scatter_add`, `scatter_reduce`, `index_add`, `index_copy`, `index_fill`,
`index_reduce` and their in-place forms, as `torch.*` functions and Tensor methods (the core is
src/ops/scatter.rs)."""
from . import _warn
from ._core import Tensor

__all__ = ["scatter", "scatter_add", "scatter_reduce", "index_add", "index_copy", "index_fill", "index_reduce"]

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


def index_add(input, dim, index, source, *, alpha=1):
    """A copy of `input` with `alpha * source` added along `dim` at the positions in the 1-D
    `index` (repeats add up).

    >>> torch.ones(3, 2).index_add(0, torch.tensor([0, 2, 0]), torch.tensor([[1., 2.], [3., 4.], [5., 6.]]))
    tensor([[7., 9.],
            [1., 1.],
            [4., 5.]])
    """
    return input._index_op("add", dim, index, source, alpha)


def _index_add_(self, dim, index, source, *, alpha=1):
    """In-place `index_add`."""
    return self._index_op("add", dim, index, source, alpha, True, True)


def index_copy(input, dim, index, source):
    """A copy of `input` whose slices along `dim` at the positions in `index` are `source`'s
    (the last wins where positions repeat).

    >>> torch.zeros(3, 2).index_copy(0, torch.tensor([2, 0]), torch.tensor([[1., 2.], [3., 4.]]))
    tensor([[3., 4.],
            [0., 0.],
            [1., 2.]])
    """
    return input._index_op("copy", dim, index, source, 1)


def _index_copy_(self, dim, index, source):
    """In-place `index_copy`."""
    return self._index_op("copy", dim, index, source, 1, True, True)


def index_fill(input, dim, index, value):
    """A copy of `input` whose slices along `dim` at the positions in `index` (negative ones
    from the end) hold `value` (a number or a 0-d tensor).

    >>> torch.ones(2, 3).index_fill(1, torch.tensor([0, 2]), -1.)
    tensor([[-1.,  1., -1.],
            [-1.,  1., -1.]])
    """
    return input._index_fill(dim, index, value)


def _index_fill_(self, dim, index, value):
    """In-place `index_fill`."""
    return self._index_fill(dim, index, value, True)


def _beta():
    _warn.warn_once(
        "index_reduce",
        "index_reduce() is in beta and the API may change at any time. (Triggered internally at "
        "/__w/pytorch/pytorch/aten/src/ATen/native/TensorAdvancedIndexing.cpp:1522.)", stacklevel=3)


def index_reduce(input, dim, index, source, reduce, *, include_self=True):
    """A copy of `input` where each slice along `dim` named in `index` is reduced with the
    slices of `source` sent there: "prod", "mean", "amax" or "amin" (PyTorch's beta warning,
    once).

    >>> torch.ones(3).index_reduce(0, torch.tensor([0, 0, 2]), torch.tensor([2., 3., 4.]), "prod")
    tensor([6., 1., 4.])
    """
    _beta()
    return input._index_op(reduce, dim, index, source, 1, bool(include_self))


def _index_reduce_(self, dim, index, source, reduce, *, include_self=True):
    """In-place `index_reduce`."""
    _beta()
    return self._index_op(reduce, dim, index, source, 1, bool(include_self), True)


def _install():
    for name in __all__:
        setattr(Tensor, name, globals()[name])
    Tensor.scatter_ = _scatter_
    Tensor.scatter_add_ = _scatter_add_
    Tensor.scatter_reduce_ = _scatter_reduce_
    Tensor.index_add_ = _index_add_
    Tensor.index_copy_ = _index_copy_
    Tensor.index_fill_ = _index_fill_
    Tensor.index_reduce_ = _index_reduce_


_install()
