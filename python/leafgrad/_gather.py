"""Reading (and writing) through flat indices or a bool mask: `take`, `take_along_dim`,
`masked_select`, `masked_scatter`, as `torch.*` functions and Tensor methods (the core is
src/ops/masked.rs; `take_along_dim` is PyTorch's composition of `gather`)."""
from ._core import Tensor

__all__ = ["take", "take_along_dim", "masked_select", "masked_scatter"]


def take(input, index):
    """`input` read as 1-D at `index` (negative positions from the end), shaped like `index`.

    >>> torch.take(torch.tensor([[4., 5.], [6., 7.]]), torch.tensor([[0, 3], [-1, 1]]))
    tensor([[4., 7.],
            [7., 5.]])
    """
    return input._take(index)


def take_along_dim(input, indices, dim=None):
    """`input` read along `dim` at `indices` (broadcast against each other apart from `dim`),
    `gather` after broadcasting; with no `dim`, both are flattened. Pairs with `argsort`,
    `argmax(keepdim=True)` and `topk(...).indices`.

    >>> x = torch.tensor([[10., 30., 20.], [60., 40., 50.]])
    >>> torch.take_along_dim(x, torch.argsort(x, dim=1), dim=1)
    tensor([[10., 20., 30.],
            [40., 50., 60.]])
    """
    if dim is None:
        return input.view(-1).gather(0, indices.view(-1))
    if input.dim() != indices.dim():
        raise RuntimeError(
            "torch.take_along_dim(): input and indices should have the same number of dimensions, but got "
            f"{input.dim()} dimensions for input, and {indices.dim()} dimensions for indices")
    if indices.dtype is not _long():
        raise RuntimeError(
            f"torch.take_along_dim(): dtype of indices should be Long but got {_scalar_name(indices.dtype)}")
    from ._broadcast import broadcast_shapes

    n = input.dim()
    if not -max(n, 1) <= dim < max(n, 1):
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-max(n, 1)}, {max(n, 1) - 1}], but got {dim})")
    dim = dim % max(n, 1)
    sizes = list(input.shape)
    sizes[dim] = indices.shape[dim]
    indices_b = indices.expand(broadcast_shapes(sizes, tuple(indices.shape)))
    sizes = list(indices.shape)
    sizes[dim] = input.shape[dim]
    input_b = input.expand(broadcast_shapes(sizes, tuple(input.shape)))
    return input_b.gather(dim, indices_b)


def _long():
    from . import _core

    return _core.int64


def _scalar_name(dtype):
    from ._functions import _SCALAR_NAMES

    return _SCALAR_NAMES[dtype._name]


def masked_select(input, mask):
    """The elements of `input` where the (broadcast) bool `mask` is true, as a 1-D tensor.

    >>> x = torch.tensor([[1., 2., 3.], [4., 5., 6.]])
    >>> torch.masked_select(x, x > 2.5)
    tensor([3., 4., 5., 6.])
    """
    return input._masked_select(mask)


def masked_scatter(input, mask, source):
    """A copy of `self` whose elements where `mask` (broadcast to self's shape) is true are, in
    order, the first elements of `source`.

    >>> torch.zeros(2, 3).masked_scatter(torch.tensor([True, False, True]), torch.tensor([1., 2., 3., 4.]))
    tensor([[1., 0., 2.],
            [3., 0., 4.]])
    """
    return input._masked_scatter(mask, source)


def _masked_scatter_(self, mask, source):
    """In-place `masked_scatter`."""
    return self._masked_scatter(mask, source, True)


def _install():
    for name in __all__:
        setattr(Tensor, name, globals()[name])
    Tensor.masked_scatter_ = _masked_scatter_


_install()
