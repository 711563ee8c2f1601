"""`broadcast_shapes`, `broadcast_to`, `broadcast_tensors` and `count_nonzero`: compositions of
existing ops, as PyTorch's own are (the same nodes: `ExpandBackward0`; no gradient for counts)."""
from ._dtypes import shell_check as _shell_check
from ._core import Tensor
from ._size import Size

__all__ = ["broadcast_shapes", "broadcast_to", "broadcast_tensors", "count_nonzero"]


def broadcast_shapes(*shapes):
    """The shape that tensors of these shapes broadcast to (each an int or a sequence of ints).

    >>> torch.broadcast_shapes((3, 1), (1, 4), (2, 1, 1))
    torch.Size([2, 3, 4])
    """
    shapes = [(s,) if isinstance(s, int) else tuple(s) for s in shapes]
    result = [1] * max((len(s) for s in shapes), default=0)
    for j, shape in enumerate(shapes):
        for i in range(-1, -1 - len(shape), -1):
            n = shape[i]
            if n < 0:
                raise RuntimeError(f"Trying to create tensor with negative dimension ({n}): ({n})")
            if n == 1 or n == result[i]:
                continue
            if result[i] != 1:
                raise RuntimeError(
                    f"Attempting to broadcast a dimension of length {n} at {i}! Mismatching argument at index "
                    f"{j} had {shape}; but expected shape should be broadcastable to {result}")
            result[i] = n
    return Size(result)


def broadcast_to(input, size):
    """`input` expanded to `size` (a view, `ExpandBackward0`).

    >>> torch.broadcast_to(torch.tensor([1, 2, 3]), (2, 3))
    tensor([[1, 2, 3],
            [1, 2, 3]])
    """
    return input.expand(size)


def broadcast_tensors(*tensors):
    """The tensors expanded to their common broadcast shape, as a tuple of views.

    >>> a, b = torch.broadcast_tensors(torch.ones(3, 1), torch.zeros(4))
    >>> a.shape, b.shape
    (torch.Size([3, 4]), torch.Size([3, 4]))
    """
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    shape = ()
    for t in tensors:
        shape = _infer_size(shape, tuple(t.shape))
    # (a tensor already of that shape is returned itself, as PyTorch's expand_size does)
    return tuple(t if tuple(t.shape) == shape else t.expand(shape) for t in tensors)


def _infer_size(a, b):
    """PyTorch's infer_size: the broadcast of two shapes, with its error for the first
    mismatch from the right."""
    n = max(len(a), len(b))
    out = [0] * n
    for i in range(n - 1, -1, -1):
        off = n - 1 - i
        sa = a[len(a) - 1 - off] if len(a) - 1 - off >= 0 else 1
        sb = b[len(b) - 1 - off] if len(b) - 1 - off >= 0 else 1
        if sa != sb and sa != 1 and sb != 1:
            raise RuntimeError(f"The size of tensor a ({sa}) must match the size of tensor b ({sb}) at "
                               f"non-singleton dimension {i}")
        out[i] = sb if sa == 1 else sa
    return tuple(out)


def count_nonzero(input, dim=None):
    """How many elements are not zero, over `dim` (an int or a tuple; all dims by default), as
    int64 without gradient.

    >>> torch.count_nonzero(torch.tensor([[0, 1, 2], [0, 0, 3]]), dim=1)
    tensor([2, 1])
    """
    _shell_check(input, "nonzero_count_cpu")
    nz = input != 0
    if dim is None:
        return nz.sum()
    return nz.sum(dim)


def _install():
    Tensor.broadcast_to = broadcast_to
    Tensor.count_nonzero = count_nonzero


_install()
