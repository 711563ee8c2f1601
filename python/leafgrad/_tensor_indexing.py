"""More of PyTorch's Tensor API for indexing and writing through strides, written as PyTorch
writes it where it composes other ops (so the graph is PyTorch's): `repeat_interleave`
(CloneBackward0 of an expand for a number of repeats, IndexSelectBackward0 for a tensor),
`sum_to_size`, `fill_diagonal_` (a fill through an `as_strided` view: CopySlices), `unfold` (an
`as_strided` view with PyTorch's sizes and strides); one node with PyTorch's name where it has
its own kernel (`_core._composite`, whose backward differentiates the composition):
`index_put`/`index_put_` (IndexPutBackward0), `put`/`put_` (PutBackward0), `narrow_copy`
(NarrowCopyBackward0) and the scatter family `diagonal_scatter`, `select_scatter`,
`slice_scatter`, `as_strided_scatter` (their `*ScatterBackward0`)."""
import builtins
import operator
import warnings

from . import _core
from ._core import Tensor
from ._op_helpers import _torch, _check_tensor, _no_grad, _wrap_dim, _shape_str

__all__ = [
    "repeat_interleave", "index_put", "put", "narrow_copy", "diagonal_scatter", "select_scatter",
    "slice_scatter", "as_strided_scatter",
]
# installed as Tensor methods
_METHODS = [
    "repeat_interleave", "index_put", "index_put_", "put", "put_", "fill_diagonal_", "unfold",
    "sum_to_size", "narrow_copy", "diagonal_scatter", "select_scatter", "slice_scatter",
    "as_strided_scatter",
]


def _check_int(fn, name, pos, value):
    """An int argument as PyTorch's parser takes it (ints, `__index__` objects, integer 0-d
    tensors; not bools or floats)."""
    if isinstance(value, builtins.int) and not isinstance(value, builtins.bool):
        return value
    if not isinstance(value, builtins.bool):
        if isinstance(value, Tensor):
            if value.dim() == 0 and not (value.dtype.is_floating_point or value.dtype.is_complex):
                return builtins.int(value.item())
        else:
            try:
                return operator.index(value)
            except TypeError:
                pass
    raise TypeError(f"{fn}(): argument '{name}' (position {pos}) must be int, not {type(value).__name__}")


def _check_bool(fn, name, value):
    if not isinstance(value, builtins.bool):
        raise TypeError(f"{fn}(): argument '{name}' must be bool, not {type(value).__name__}")
    return value


def _expandable(shape, desired):
    """PyTorch's `is_expandable_to(shape, desired)`."""
    shape, desired = tuple(shape), tuple(desired)
    if len(shape) > len(desired):
        return False
    for i in range(1, len(shape) + 1):
        if shape[-i] != desired[-i] and shape[-i] != 1:
            return False
    return True


def _clone_preserve_strides(x):
    """A copy of `x` with `x`'s sizes and strides (PyTorch's `clone_preserve_strides`), for the
    `*_scatter` ops: a dense layout keeps its strides through `clone`; any other is rebuilt
    over fresh memory of the extent those strides span."""
    c = x.clone()
    if c.stride() == x.stride():
        return c
    extent = 1 + builtins.sum((n - 1) * s for n, s in zip(x.shape, x.stride())) if x.numel() else 0
    r = x.new_zeros(extent).as_strided(tuple(x.shape), x.stride(), 0)
    r.copy_(x)
    return r


# --- repeat_interleave -----------------------------------------------------------------------

def _repeats_index(repeats, output_size):
    """`torch.repeat_interleave(repeats)`: each position `i` repeated `repeats[i]` times."""
    torch = _torch()
    if repeats.dtype not in (torch.int32, torch.int64):
        raise NotImplementedError(f"\"repeat_interleave_cpu\" not implemented for '{repeats.dtype._scalar_name}'")
    if repeats.dim() != 1:
        raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
    if repeats.shape[0] == 0:
        return torch.empty(0, dtype=repeats.dtype, device=repeats.device)
    counts = [builtins.int(v) for v in repeats.tolist()]
    if output_size is None and builtins.any(c < 0 for c in counts):
        raise RuntimeError("repeats can not be negative")
    total = builtins.sum(counts)
    if output_size is not None and output_size != total:
        raise RuntimeError("allocated size does not match required size")
    idx = [i for i, c in enumerate(counts) for _ in range(builtins.max(c, 0))]
    return torch.tensor(idx, dtype=repeats.dtype, device=repeats.device) if idx else \
        torch.empty(0, dtype=repeats.dtype, device=repeats.device)


def _ri_invalid(method, args):
    got = ", ".join(type(a).__name__ if not isinstance(a, Tensor) else "Tensor" for a in args)
    if method:
        sigs = (" * (Tensor repeats, int dim = None, *, int output_size = None)\n"
                " * (int repeats, int dim = None, *, int output_size = None)\n")
    else:
        sigs = (" * (Tensor input, Tensor repeats, int dim = None, *, int output_size = None)\n"
                " * (Tensor repeats, *, int output_size = None)\n"
                " * (Tensor input, int repeats, int dim = None, *, int output_size = None)\n")
    return TypeError(f"repeat_interleave() received an invalid combination of arguments - got ({got}), "
                     f"but expected one of:\n{sigs}")


def _repeat_interleave(input, repeats, dim, output_size, method):
    if isinstance(repeats, Tensor):
        x = input
        if dim is None:
            x, d = input.flatten(), 0
        else:
            d = _wrap_dim(dim, input.dim())
        if repeats.dim() == 0 or (repeats.dim() == 1 and repeats.shape[0] == 1):
            reps = repeats.reshape(1).expand(x.shape[d])
        elif repeats.dim() == 1:
            if repeats.shape[0] != x.shape[d]:
                raise RuntimeError(
                    f"repeats must have the same size as input along dim, but got repeats.size(0) = "
                    f"{repeats.shape[0]} and input.size({d}) = {x.shape[d]}")
            reps = repeats
        else:
            raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
        return x.index_select(d, _repeats_index(reps, output_size))
    if isinstance(repeats, builtins.bool) or not isinstance(repeats, builtins.int):
        raise _ri_invalid(method, ((input,) if not method else ()) + (repeats,))
    x = input if dim is not None else input.flatten()
    d = _wrap_dim(0 if dim is None else dim, input.dim())
    if repeats < 0:
        raise RuntimeError("Repeats must be non-negative")
    x = x.unsqueeze(d + 1)
    shape = list(x.shape)
    shape[d + 1] = repeats
    x = x.expand(shape)
    if output_size is not None and output_size != repeats * shape[d]:
        raise RuntimeError(f"repeat_interleave: Invalid output_size, expected {repeats * shape[d]} but got "
                           f"{output_size}")
    return x.clone(memory_format=_torch().contiguous_format).flatten(d, d + 1)


def repeat_interleave(input=None, repeats=None, dim=None, *, output_size=None):
    """Each element (each slice along `dim`) repeated: `repeats` times for a number, `repeats[i]`
    times for the i-th for a tensor; the flattened input without `dim`. With one tensor
    argument, `torch.repeat_interleave(repeats)` gives each index `i` `repeats[i]` times.
    `output_size` (the result's length along `dim`) is checked against the repeats.

    >>> torch.repeat_interleave(torch.tensor([1, 2]), 2)
    tensor([1, 1, 2, 2])
    >>> torch.tensor([[1, 2], [3, 4]]).repeat_interleave(torch.tensor([1, 2]), dim=0)
    tensor([[1, 2],
            [3, 4],
            [3, 4]])
    >>> torch.repeat_interleave(torch.tensor([2, 0, 1]))
    tensor([0, 0, 2])
    """
    if repeats is None:
        if input is None:
            raise TypeError("repeat_interleave() missing 1 required positional arguments: \"repeats\"")
        repeats, input = input, None
    if input is None:
        _check_tensor("repeat_interleave", "repeats", 1, repeats)
        return _repeats_index(repeats, output_size)
    _check_tensor("repeat_interleave", "input", 1, input)
    return _repeat_interleave(input, repeats, dim, output_size, False)


def _repeat_interleave_method(self, repeats, dim=None, *, output_size=None):
    return _repeat_interleave(self, repeats, dim, output_size, True)


_repeat_interleave_method.__doc__ = repeat_interleave.__doc__


# --- index_put / put -------------------------------------------------------------------------

def _index_put_checks(fn, self, indices, values, accumulate, arg_base):
    torch = _torch()
    if not isinstance(indices, (tuple, list)):
        raise TypeError(f"{fn}(): argument 'indices' (position {arg_base + 1}) must be tuple of Tensors, "
                        f"not {type(indices).__name__}")
    for k, t in enumerate(indices):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {k} in argument {arg_base}, but got {type(t).__name__}")
    _check_tensor(fn, "values", arg_base + 2, values)
    _check_bool(fn, "accumulate", accumulate)
    if not indices:  # PyTorch fails inside its kernel
        raise RuntimeError("sym_strides() called on an undefined Tensor" if not accumulate else
                           "ntensor >= 3 INTERNAL ASSERT FAILED at \"/__w/pytorch/pytorch/aten/src/ATen/native/cpu/"
                           "IndexKernelUtils.h\":8, please report a bug to PyTorch. ")
    key = []
    count = 0
    for t in indices:
        if t.dtype == torch.uint8:
            warnings.warn("indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool "
                          "instead. (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
                          "IndexingUtils.h:37.)", UserWarning, stacklevel=3)
            t = t.to(torch.bool)
        if t.dtype == torch.bool:
            count += t.dim()
        elif t.dtype in (torch.int64, torch.int32):
            count += 1
        else:
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        key.append(t)
    if count > self.dim():
        raise IndexError(f"too many indices for tensor of dimension {self.dim()} (got {count})")
    key = tuple(key)
    # the flat positions the indices reach (with the indexing errors of `self[key]`)
    with _no_grad():
        pos = torch.arange(self.numel(), device=self.device).reshape(tuple(self.shape))[key]
    if not _expandable(values.shape, pos.shape):
        raise RuntimeError(f"shape mismatch: value tensor of shape {_shape_str(values.shape)} cannot be broadcast "
                           f"to indexing result of shape {_shape_str(pos.shape)}")
    if values.dtype != self.dtype:
        raise RuntimeError(f"Index put requires the source and destination dtypes match, got "
                           f"{self.dtype._scalar_name} for the destination and {values.dtype._scalar_name} for the "
                           f"source.")
    return key, pos


def _index_put_fn(key, pos, accumulate):
    def f(x, v):
        out = x.clone()
        if not accumulate:
            out[key] = v
            return out
        flat = pos.reshape(-1)
        vals = v.expand(tuple(pos.shape)).reshape(-1)
        if x.dtype == _torch().bool:  # an accumulated bool is an `or`
            hit = x.new_zeros(x.numel(), dtype=_torch().int64).index_add(0, flat, vals.to(_torch().int64))
            return out.copy_(x.logical_or(hit.reshape(tuple(x.shape)) > 0))
        delta = x.new_zeros(x.numel()).index_add(0, flat, vals)
        return out.add_(delta.reshape(tuple(x.shape)))

    return f


def index_put(input, indices, values, accumulate=False):
    """A copy of `input` with `values` written at the positions the tuple of index tensors
    selects, as `input[indices] = values` writes them; with `accumulate=True` they are added
    instead, repeated positions adding up (IndexPutBackward0).

    >>> x = torch.zeros(3)
    >>> torch.index_put(x, (torch.tensor([0, 2, 0]),), torch.tensor([1., 2., 3.]), accumulate=True)
    tensor([4., 0., 2.])
    >>> x.index_put((torch.tensor([1]),), torch.tensor(5.))
    tensor([0., 5., 0.])
    """
    _check_tensor("index_put", "input", 1, input)
    key, pos = _index_put_checks("index_put", input, indices, values, accumulate, 1)
    return _core._composite("IndexPutBackward0", _index_put_fn(key, pos, accumulate), [input, values], [0, 1])


def _index_put_method(self, indices, values, accumulate=False):
    key, pos = _index_put_checks("index_put", self, indices, values, accumulate, 0)
    return _core._composite("IndexPutBackward0", _index_put_fn(key, pos, accumulate), [self, values], [0, 1])


_index_put_method.__doc__ = index_put.__doc__


def _index_put_(self, indices, values, accumulate=False):
    """In-place `index_put`.

    >>> x = torch.zeros(2, 2)
    >>> x.index_put_((torch.tensor([0, 0]), torch.tensor([1, 1])), torch.tensor([1., 2.]), accumulate=True)
    tensor([[0., 3.],
            [0., 0.]])
    """
    key, pos = _index_put_checks("index_put_", self, indices, values, accumulate, 0)
    f = _index_put_fn(key, pos, accumulate)
    expanded = any(n > 1 and st == 0 for n, st in zip(self.shape, self.stride())) and self.numel() > 0
    if expanded:  # PyTorch warns and writes (a lone mask with one value goes on to masked_fill_)
        _expanded_write_warning("index_put_")
        if len(key) == 1 and key[0].dtype == _torch().bool and key[0].dim() > 0 and values.numel() == 1:
            _expanded_write_warning("masked_fill_")
    return _core._inplace_apply(self, lambda s: _core._composite("IndexPutBackward0", f, [s, values], [0, 1]), [values],
                                expanded)


def _expanded_write_warning(op):
    example, line = ("tensor[indices] = tensor", 975) if op == "index_put_" else ("tensor[mask] = scalar", 2469)
    warnings.warn(f"Use of {op} on expanded tensors is deprecated. Please clone() the tensor before performing this "
                  f"operation. This also applies to advanced indexing e.g. {example} (Triggered internally at "
                  f"/__w/pytorch/pytorch/aten/src/ATen/native/TensorAdvancedIndexing.cpp:{line}.)", UserWarning,
                  stacklevel=3)


def _put_checks(fn, self, index, source, accumulate, arg_base):
    torch = _torch()
    _check_tensor(fn, "index", arg_base + 1, index)
    _check_tensor(fn, "source", arg_base + 2, source)
    _check_bool(fn, "accumulate", accumulate)
    if index.numel() != source.numel():
        raise IndexError(f"put_(): Expected source and index to have the same number of elements, but got "
                         f"source.numel() = {source.numel()}, index.numel() = {index.numel()}")
    if self.dtype != source.dtype:
        raise RuntimeError(f"put_(): self and source expected to have the same dtype, but got self.dtype = "
                           f"{self.dtype._scalar_name} and source.dtype = {source.dtype._scalar_name}")
    if index.dtype != torch.int64:
        raise RuntimeError(f"put_(): Expected a long tensor for index, but got {index.dtype._scalar_name}")
    n = self.numel()
    flat = [builtins.int(v) for v in index.reshape(-1).tolist()]
    if flat and n == 0:
        raise IndexError("put_(): Tried to put elements into an empty tensor")
    for v in flat:
        if not -n <= v < n:
            raise IndexError(f"out of range: tried to access index {v} on a tensor of {n} elements.")
    return torch.tensor([v % n for v in flat], dtype=torch.int64, device=self.device) if flat else \
        torch.empty(0, dtype=torch.int64, device=self.device)


def _put_fn(idx, accumulate):
    def f(x, s):
        torch = _torch()
        out = x.clone()
        vals = s.reshape(-1)
        if x.dtype == torch.bool:
            if accumulate:
                hit = x.new_zeros(x.numel(), dtype=torch.int64).index_add(0, idx, vals.to(torch.int64))
                return out.copy_(x.logical_or(hit.reshape(tuple(x.shape)) > 0))
            return out.copy_(x.reshape(-1).index_copy(0, idx, vals).reshape(tuple(x.shape)))
        if accumulate:
            return out.add_(x.new_zeros(x.numel()).index_add(0, idx, vals).reshape(tuple(x.shape)))
        return out.copy_(x.reshape(-1).index_copy(0, idx, vals).reshape(tuple(x.shape)))

    return f


def put(input, index, source, accumulate=False):
    """A copy of `input` with the elements of `source` written at the flat positions `index`
    gives (as if `input` were 1-D; negative ones from the end); with `accumulate=True` added
    instead, repeated positions adding up (PutBackward0).

    >>> torch.put(torch.zeros(2, 3), torch.tensor([0, -1, 0]), torch.tensor([1., 2., 3.]), accumulate=True)
    tensor([[4., 0., 0.],
            [0., 0., 2.]])
    """
    _check_tensor("put", "input", 1, input)
    idx = _put_checks("put", input, index, source, accumulate, 1)
    return _core._composite("PutBackward0", _put_fn(idx, accumulate), [input, source], [0])


def _put_method(self, index, source, accumulate=False):
    idx = _put_checks("put", self, index, source, accumulate, 0)
    return _core._composite("PutBackward0", _put_fn(idx, accumulate), [self, source], [0])


_put_method.__doc__ = put.__doc__


def _put_(self, index, source, accumulate=False):
    """In-place `put`.

    >>> x = torch.zeros(2, 2)
    >>> x.put_(torch.tensor([3, 0]), torch.tensor([1., 2.]))
    tensor([[2., 0.],
            [0., 1.]])
    """
    idx = _put_checks("put_", self, index, source, accumulate, 0)
    f = _put_fn(idx, accumulate)
    return _core._inplace_apply(self, lambda s: _core._composite("PutBackward0", f, [s, source], [0]), [source])


# --- views and fills through strides ---------------------------------------------------------

def _fill_diagonal_(self, fill_value, wrap=False):
    """Fills the main diagonal (all indices equal) in place, through an `as_strided` view of it as
    PyTorch does; for a tall matrix with `wrap=True` the diagonal starts again every
    `columns + 1` rows.

    >>> torch.zeros(3, 3).fill_diagonal_(5)
    tensor([[5., 0., 0.],
            [0., 5., 0.],
            [0., 0., 5.]])
    >>> torch.zeros(5, 2).fill_diagonal_(1, wrap=True)
    tensor([[1., 0.],
            [0., 1.],
            [0., 0.],
            [1., 0.],
            [0., 1.]])
    """
    nd = self.dim()
    if nd < 2:
        raise RuntimeError("dimensions must larger than 1")
    height, width = self.shape[0], self.shape[1]
    if nd > 2 and builtins.any(self.shape[i] != height for i in range(1, nd)):
        raise RuntimeError("all dimensions of input must be of equal length")
    offset = self.storage_offset()
    size = builtins.min(height, width)
    stride = builtins.sum(self.stride())
    self.as_strided((size,), (stride,), offset).fill_(fill_value)
    if wrap and nd == 2 and height > width + 1:
        step = width + 1
        wrap_size = (self.numel() + step - 1) // step - size
        self.as_strided((wrap_size,), (stride,), offset + self.stride(0) * (width + 1)).fill_(fill_value)
    return self


def _unfold(self, dimension, size, step):
    """A view of every slice of length `size` along `dimension`, `step` apart, as a new last dim
    (an `as_strided` view with PyTorch's sizes and strides; PyTorch names its node
    UnfoldBackward0, leafgrad's is AsStridedBackward0).

    >>> torch.arange(5.).unfold(0, 2, 1)
    tensor([[0., 1.],
            [1., 2.],
            [2., 3.],
            [3., 4.]])
    >>> torch.arange(6.).reshape(2, 3).unfold(1, 2, 1).stride()
    (3, 1, 1)
    """
    dimension = _check_int("unfold", "dimension", 1, dimension)
    size = _check_int("unfold", "size", 2, size)
    step = _check_int("unfold", "step", 3, step)
    nd = self.dim()
    d = _wrap_dim(dimension, nd)
    sizes, strides = list(self.shape), list(self.stride())
    max_size = 1 if nd == 0 else sizes[d]
    if size > max_size:
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {max_size} but size is {size}")
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    sizes.append(size)
    strides.append(1 if nd == 0 else strides[d])
    if d < nd:
        sizes[d] = (sizes[d] - size) // step + 1
        strides[d] *= step
    return self.as_strided(tuple(sizes), tuple(strides))


def _sum_to_size(self, *size):
    """`self` summed down to `size` (which `self`'s shape must expand from): the summed dims
    are kept as 1s, leading ones dropped; `self` itself when the sizes already agree.

    >>> torch.arange(6.).reshape(2, 3).sum_to_size(1, 3)
    tensor([[3., 5., 7.]])
    >>> torch.arange(6.).reshape(2, 3).sum_to_size(3)
    tensor([3., 5., 7.])
    """
    if not size:
        raise TypeError("sum_to_size() missing 1 required positional arguments: \"size\"")
    if len(size) == 1 and not isinstance(size[0], builtins.int):
        size = size[0]
    shape = tuple(builtins.int(s) for s in size)
    if not _expandable(shape, self.shape):
        raise RuntimeError(f"size {{{_shape_str(shape)}}} is not expandable to size {{{_shape_str(self.shape)}}}.")
    if not shape:
        return self.sum()
    sizes = tuple(self.shape)
    lead = len(sizes) - len(shape)
    dims = list(range(lead)) + [i for i in range(lead, len(sizes)) if shape[i - lead] == 1 and sizes[i] != 1]
    t = self.sum(dims, True) if dims else self
    return t.view(shape) if lead > 0 else t


def narrow_copy(input, dim, start, length):
    """`input.narrow(dim, start, length)` as a new contiguous tensor (NarrowCopyBackward0).

    >>> torch.narrow_copy(torch.arange(6.).reshape(2, 3), 1, 1, 2)
    tensor([[1., 2.],
            [4., 5.]])
    """
    _check_tensor("narrow_copy", "input", 1, input)
    if isinstance(start, Tensor):
        start = builtins.int(start.item())
    dim = _check_int("narrow_copy", "dim", 2, dim)
    start = _check_int("narrow_copy", "start", 3, start)
    length = _check_int("narrow_copy", "length", 4, length)
    if input.dim() == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if dim < 0:
        dim = _wrap_dim(dim, input.dim())
    elif dim >= input.dim():
        raise RuntimeError("Expected dim < static_cast<int64_t>(self_sizes.size()) to be true, but got false.  "
                           "(Could this error message be improved?  If so, please report an enhancement request "
                           "to PyTorch.)")
    cur = input.shape[dim]
    if not -cur <= start <= cur:
        raise IndexError(f"start out of range (expected to be in range of [{-cur}, {cur}], but got {start})")
    if start < 0:
        start += cur
    if not (length >= 0 and start <= cur - length):
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({cur}).")
    return _core._composite("NarrowCopyBackward0",
                            lambda x: x.narrow(dim, start, length).contiguous().clone(), [input], [0])


# --- the scatter family ----------------------------------------------------------------------

def _scatter_into(name, input, src, view):
    def f(x, s):
        out = _clone_preserve_strides(x)
        window = view(out)
        if tuple(window.shape) != tuple(s.shape):
            raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = "
                               f"{_shape_str(s.shape)}, slice size = {_shape_str(window.shape)}")
        window.copy_(s)
        return out

    with _no_grad():  # the checks first, as PyTorch makes them (before any node is recorded)
        window = view(input.detach())
        if tuple(window.shape) != tuple(src.shape):
            raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = "
                               f"{_shape_str(src.shape)}, slice size = {_shape_str(window.shape)}")
    return _core._composite(name, f, [input, src])


def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    """A copy of `input` (with its strides) whose diagonal (`offset`, `dim1`, `dim2`, as
    `diagonal` takes them) holds `src` (DiagonalScatterBackward0).

    >>> torch.diagonal_scatter(torch.zeros(2, 3), torch.tensor([1., 2.]), 1)
    tensor([[0., 1., 0.],
            [0., 0., 2.]])
    """
    _check_tensor("diagonal_scatter", "input", 1, input)
    _check_tensor("diagonal_scatter", "src", 2, src)
    return _scatter_into("DiagonalScatterBackward0", input, src, lambda t: t.diagonal(offset, dim1, dim2))


def select_scatter(input, src, dim, index):
    """A copy of `input` (with its strides) whose slice `select(dim, index)` holds `src`
    (SelectScatterBackward0).

    >>> torch.select_scatter(torch.zeros(2, 2), torch.tensor([1., 2.]), 0, 1)
    tensor([[0., 0.],
            [1., 2.]])
    """
    _check_tensor("select_scatter", "input", 1, input)
    _check_tensor("select_scatter", "src", 2, src)
    return _scatter_into("SelectScatterBackward0", input, src, lambda t: t.select(dim, index))


def _slice(t, dim, start, end, step):
    d = _wrap_dim(dim, t.dim())
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    key = (slice(None),) * d + (slice(start, end, step),)
    return t[key]


def slice_scatter(input, src, dim=0, start=None, end=None, step=1):
    """A copy of `input` (with its strides) whose slice `start:end:step` along `dim` holds `src`
    (SliceScatterBackward0).

    >>> torch.slice_scatter(torch.zeros(2, 4), torch.ones(2, 2), 1, start=0, step=2)
    tensor([[1., 0., 1., 0.],
            [1., 0., 1., 0.]])
    """
    _check_tensor("slice_scatter", "input", 1, input)
    _check_tensor("slice_scatter", "src", 2, src)
    return _scatter_into("SliceScatterBackward0", input, src, lambda t: _slice(t, dim, start, end, step))


def as_strided_scatter(input, src, size, stride, storage_offset=None):
    """A copy of `input` whose window `as_strided(size, stride, storage_offset)` holds `src`
    (AsStridedScatterBackward0); the window is laid over the copy's own memory.

    >>> torch.as_strided_scatter(torch.zeros(2, 3), torch.ones(2), (2,), (4,))
    tensor([[1., 0., 0.],
            [0., 1., 0.]])
    """
    _check_tensor("as_strided_scatter", "input", 1, input)
    _check_tensor("as_strided_scatter", "src", 2, src)
    size, stride = tuple(size), tuple(stride)

    def f(x, s):
        out = x.clone()
        window = out.as_strided(size, stride, storage_offset)
        if tuple(window.shape) != tuple(s.shape):
            raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = "
                               f"{_shape_str(s.shape)}, slice size = {_shape_str(window.shape)}")
        window.copy_(s)
        return out

    with _no_grad():
        window = input.detach().clone().as_strided(size, stride, storage_offset)
        if tuple(window.shape) != tuple(src.shape):
            raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = "
                               f"{_shape_str(src.shape)}, slice size = {_shape_str(window.shape)}")
    return _core._composite("AsStridedScatterBackward0", f, [input, src], [0, 1])


def _install():
    methods = {
        "repeat_interleave": _repeat_interleave_method, "index_put": _index_put_method, "index_put_": _index_put_,
        "put": _put_method, "put_": _put_, "fill_diagonal_": _fill_diagonal_, "unfold": _unfold,
        "sum_to_size": _sum_to_size, "narrow_copy": narrow_copy, "diagonal_scatter": diagonal_scatter,
        "select_scatter": select_scatter, "slice_scatter": slice_scatter, "as_strided_scatter": as_strided_scatter,
    }
    assert builtins.set(methods) == builtins.set(_METHODS)
    for name, fn in methods.items():
        fn.__name__ = fn.__qualname__ = name
        setattr(Tensor, name, fn)


_install()
