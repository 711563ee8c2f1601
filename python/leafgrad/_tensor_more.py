"""More of PyTorch's Tensor API, written as PyTorch writes it where it composes other ops (so the
graph is PyTorch's): `repeat_interleave` (CloneBackward0 of an expand for a number of repeats,
IndexSelectBackward0 for a tensor), `sum_to_size`, `fill_diagonal_` (a fill through an
`as_strided` view: CopySlices), `unfold` (an `as_strided` view with PyTorch's sizes and
strides); one node with PyTorch's name where it has its own kernel (`_core._composite`, whose
backward differentiates the composition): `index_put`/`index_put_` (IndexPutBackward0),
`put`/`put_` (PutBackward0), `narrow_copy` (NarrowCopyBackward0), `diagonal_scatter`,
`select_scatter`, `slice_scatter`, `as_strided_scatter` (their `*ScatterBackward0`); the
metadata queries (`is_signed`, `nbytes`, `itemsize`, `get_device`, `is_cpu`, ...); and
`apply_`/`map_`, which call a Python function on each element."""
import builtins
import operator
import warnings

from . import _core
from ._core import Tensor

__all__ = [
    "repeat_interleave", "index_put", "put", "narrow_copy", "diagonal_scatter", "select_scatter",
    "slice_scatter", "as_strided_scatter", "is_same_size", "is_nonzero", "is_signed",
    # torch.* spellings of functional ops (ATen's signatures)
    "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "cosine_similarity",
    "pairwise_distance", "pixel_shuffle", "pixel_unshuffle", "channel_shuffle", "bilinear", "avg_pool1d",
    "adaptive_avg_pool1d", "adaptive_max_pool1d", "max_pool1d", "max_pool2d", "max_pool3d", "layer_norm",
    "group_norm", "batch_norm", "instance_norm", "embedding", "dropout", "dropout_", "alpha_dropout",
    "alpha_dropout_", "feature_dropout", "feature_dropout_", "feature_alpha_dropout", "feature_alpha_dropout_",
    "rrelu", "rrelu_", "constant_pad_nd", "pdist", "binary_cross_entropy_with_logits", "kl_div",
    "hinge_embedding_loss", "margin_ranking_loss", "poisson_nll_loss", "triplet_margin_loss",
    "cosine_embedding_loss", "ctc_loss",
    # window functions
    "hann_window", "hamming_window", "blackman_window", "bartlett_window", "kaiser_window",
]
# installed as Tensor methods (the properties `nbytes`, `itemsize`, `is_cpu` apart)
_METHODS = [
    "repeat_interleave", "index_put", "index_put_", "put", "put_", "fill_diagonal_", "unfold",
    "sum_to_size", "is_signed", "is_nonzero", "is_same_size", "get_device", "new_empty_strided",
    "narrow_copy", "diagonal_scatter", "select_scatter", "slice_scatter", "as_strided_scatter",
    "apply_", "map_",
]


def _torch():
    import leafgrad

    return leafgrad


def _no_grad():
    from ._grad_mode import no_grad

    return no_grad()


def _check_tensor(fn, name, pos, value):
    if not isinstance(value, Tensor):
        raise TypeError(f"{fn}(): argument '{name}' (position {pos}) must be Tensor, not {type(value).__name__}")


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


def _wrap_dim(dim, ndim):
    m = builtins.max(ndim, 1)
    if not -m <= dim < m:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-m}, {m - 1}], but got {dim})")
    return dim % m


def _shape_str(shape):
    return "[" + ", ".join(str(s) for s in shape) + "]"


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
    return _core._composite("IndexPutBackward0", _index_put_fn(key, pos, accumulate), [input, values])


def _index_put_method(self, indices, values, accumulate=False):
    key, pos = _index_put_checks("index_put", self, indices, values, accumulate, 0)
    return _core._composite("IndexPutBackward0", _index_put_fn(key, pos, accumulate), [self, values])


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
    return _core._inplace_apply(self, lambda s: _core._composite("IndexPutBackward0", f, [s, values]), [values])


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
    return _core._composite("PutBackward0", _put_fn(idx, accumulate), [input, source])


def _put_method(self, index, source, accumulate=False):
    idx = _put_checks("put", self, index, source, accumulate, 0)
    return _core._composite("PutBackward0", _put_fn(idx, accumulate), [self, source])


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
    return _core._inplace_apply(self, lambda s: _core._composite("PutBackward0", f, [s, source]), [source])


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
                            lambda x: x.narrow(dim, start, length).contiguous().clone(), [input])


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
    return _core._composite("AsStridedScatterBackward0", f, [input, src])


# --- metadata --------------------------------------------------------------------------------

def is_signed(input):
    """Is the dtype signed? (False for bool and the unsigned integers.)

    >>> torch.tensor([1.]).is_signed(), torch.tensor([1], dtype=torch.uint8).is_signed()
    (True, False)
    """
    _check_tensor("is_signed", "input", 1, input)
    return input.dtype.is_signed


def is_nonzero(input):
    """The truth of a one-element tensor (NaN is true); any other number of elements is an
    error.

    >>> torch.is_nonzero(torch.tensor([0.])), torch.is_nonzero(torch.tensor(1.5))
    (False, True)
    """
    _check_tensor("is_nonzero", "input", 1, input)
    n = input.numel()
    if n == 0:
        raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
    if n > 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    v = input.item()
    return v != 0 if not isinstance(v, builtins.float) else not v == 0.0


def is_same_size(input, other):
    """Do the shapes agree?

    >>> torch.is_same_size(torch.zeros(2, 3), torch.ones(2, 3, dtype=torch.int64))
    True
    """
    _check_tensor("is_same_size", "input", 1, input)
    _check_tensor("is_same_size", "other", 2, other)
    return tuple(input.shape) == tuple(other.shape)


def _is_signed_method(self):
    return is_signed(self)


def _is_nonzero_method(self):
    return is_nonzero(self)


def _is_same_size_method(self, other):
    _check_tensor("is_same_size", "other", 1, other)
    return tuple(self.shape) == tuple(other.shape)


_is_signed_method.__doc__ = is_signed.__doc__
_is_nonzero_method.__doc__ = is_nonzero.__doc__
_is_same_size_method.__doc__ = is_same_size.__doc__


def _nbytes(self):
    """The bytes the elements take: `numel() * itemsize` (expanded dims counted in full).

    >>> torch.zeros(2, 3).nbytes, torch.zeros(1).expand(5).nbytes
    (24, 20)
    """
    return self.numel() * self.dtype.itemsize


def _itemsize(self):
    """The bytes of one element.

    >>> torch.zeros(1, dtype=torch.float16).itemsize
    2
    """
    return self.dtype.itemsize


def _is_cpu(self):
    """Is the tensor in CPU memory?

    >>> torch.zeros(1).is_cpu
    True
    """
    return self.device.type == "cpu"


def _get_device(self):
    """The CUDA device index, -1 for a CPU tensor.

    >>> torch.zeros(1).get_device()
    -1
    """
    if self.device.type == "cpu":
        return -1
    return self.device.index if self.device.index is not None else 0


def _new_empty_strided(self, size, stride, *, dtype=None, layout=None, device=None, requires_grad=False,
                       pin_memory=False):
    """A tensor of the given sizes and strides over fresh memory, of this tensor's dtype and
    device unless given (zero-filled in leafgrad; PyTorch leaves it uninitialised).

    >>> torch.ones(1, dtype=torch.float64).new_empty_strided((2, 3), (1, 2)).stride()
    (1, 2)
    """
    for name, pos, v in (("size", 1, size), ("stride", 2, stride)):
        if not isinstance(v, (tuple, list)) and not (isinstance(v, Tensor)):
            raise TypeError(f"new_empty_strided(): argument '{name}' (position {pos}) must be tuple of ints, "
                            f"not {type(v).__name__}")
    size, stride = tuple(builtins.int(s) for s in size), tuple(builtins.int(s) for s in stride)
    if len(size) != len(stride):
        raise RuntimeError(f"dimensionality of sizes ({len(size)}) must match dimensionality of strides "
                           f"({len(stride)})")
    torch = _torch()
    return torch.empty_strided(size, stride, dtype=dtype or self.dtype, device=device or self.device,
                               requires_grad=requires_grad)


# --- apply_ / map_ ---------------------------------------------------------------------------

_INT_LIMITS = {"uint8": (0, 255), "int8": (-128, 127), "int16": (-2 ** 15, 2 ** 15 - 1),
               "int32": (-2 ** 31, 2 ** 31 - 1), "int64": (-2 ** 63, 2 ** 63 - 1),
               "uint16": (0, 2 ** 16 - 1), "uint32": (0, 2 ** 32 - 1), "uint64": (0, 2 ** 64 - 1)}


def _as_double(v):
    """CPython's `PyFloat_AsDouble`, as PyTorch reads a float back from Python."""
    if isinstance(v, builtins.float):
        return v
    if hasattr(type(v), "__float__"):
        return type(v).__float__(v)
    if hasattr(type(v), "__index__"):
        return builtins.float(operator.index(v))
    raise TypeError(f"must be real number, not {type(v).__name__}")


def _as_long(v):
    n = operator.index(v)
    if not -2 ** 63 <= n < 2 ** 63:
        raise ValueError("Overflow when unpacking long long")
    return n


def _storer(dtype):
    """Python value -> the number stored in a tensor of `dtype`, with PyTorch's `store_scalar`
    rules (checked integer conversions, floats truncated toward zero for integer dtypes)."""
    name = dtype._name
    if name == "bool":
        def store(v):
            if isinstance(v, builtins.float):
                return v != 0.0
            if isinstance(v, builtins.complex):
                return v != 0
            return _as_long_unchecked(v) != 0
        return store
    if name in _INT_LIMITS:
        lo, hi = _INT_LIMITS[name]
        unsigned = lo == 0

        def overflow():
            return RuntimeError(f"value cannot be converted to type {name} without overflow")

        def store(v):
            if isinstance(v, builtins.float):
                if v != v or v < lo or v > hi:
                    raise overflow()
                n = builtins.int(v)
            else:
                n = _as_long(v)
                if n > hi or (n < lo and not (unsigned and -n <= hi)):
                    raise overflow()
            return n % (hi + 1) if unsigned else n
        return store
    if dtype.is_complex:
        def store(v):
            if isinstance(v, builtins.complex):
                return v
            if hasattr(type(v), "__complex__"):
                return type(v).__complex__(v)
            return builtins.complex(_as_double(v))
        return store
    return _as_double


def _as_long_unchecked(v):
    return operator.index(v)


def _write_values(self, values):
    torch = _torch()
    dt = self.dtype
    if dt.is_complex:
        t = torch.tensor(values, dtype=torch.complex128)
    elif dt.is_floating_point:
        t = torch.tensor(values, dtype=torch.float64)
        if dt._name in ("float16", "bfloat16"):  # PyTorch rounds the double to float first
            t = t.to(torch.float32)
    elif dt._name == "uint64":
        t = torch.tensor(values, dtype=torch.uint64)
    elif dt._name == "bool":
        t = torch.tensor(values, dtype=torch.bool)
    else:
        t = torch.tensor(values, dtype=torch.int64)
    t = t.to(dt).reshape(tuple(self.shape))
    self.data.copy_(t)  # as PyTorch, a write through the data pointer: no version bump


def _apply_elementwise(self, fn, others, n):
    if self.device.type != "cpu":
        raise TypeError(f"{n} is only implemented on CPU tensors")
    if self.numel() == 0:
        return self
    store = _storer(self.dtype)
    mine = self.reshape(-1).tolist()
    cols = [o.reshape(-1).tolist() for o in others]
    out = []
    try:
        for i, v in enumerate(mine):
            out.append(store(fn(v, *(c[i] for c in cols))))
    finally:
        if out:  # what was written before an error stays written, as in PyTorch
            _write_values(self, out + mine[len(out):])
    return self


def _apply_(self, callable):
    """Calls `callable` on each element (a Python number, in index order) and writes back what
    it returns, in place (CPU tensors that do not require grad).

    >>> torch.tensor([1, 2, 3]).apply_(lambda v: v * 10)
    tensor([10, 20, 30])
    """
    if self.requires_grad:
        raise RuntimeError("Can't call apply_() on Variable that requires grad. Use var.detach().apply_() instead.")
    return _apply_elementwise(self, callable, (), "apply_")


def _map_(self, other, callable):
    """Calls `callable(a, b)` on each element `a` of this tensor and the matching `b` of `other`
    (broadcast to this tensor's shape; the same dtype) and writes back what it returns, in
    place.

    >>> torch.tensor([1., 2.]).map_(torch.tensor([10., 20.]), lambda a, b: a + b)
    tensor([11., 22.])
    """
    _check_tensor("map_", "other", 1, other)
    if self.requires_grad or other.requires_grad:
        raise RuntimeError("Can't call map_() on Variable that requires grad. Use var.detach().map_() instead.")
    if other.dtype != self.dtype or other.device != self.device:
        raise TypeError(f"map_: expected {self.dtype._legacy_name} for 'other' (got {other.dtype._legacy_name})")
    return _apply_elementwise(self, callable, (other.expand(tuple(self.shape)),), "map_")


# --- torch.* spellings of functional ops ------------------------------------------------------
# PyTorch's top-level functions take what its ATen ops take: the reduction of a loss as an int
# (0 none, 1 mean, 2 sum); left out, the top-level losses of PyTorch 2.15 do not reduce (their
# `at::Reduction::Mean` default is not read by the Python binding), and neither do these.

def _F():
    from .nn import functional

    return functional


def _reduction_name(fn, reduction):
    if isinstance(reduction, builtins.bool) or not isinstance(reduction, builtins.int):
        raise TypeError(f"{fn}(): argument 'reduction' must be int, not {type(reduction).__name__}")
    return {1: "mean", 2: "sum"}.get(reduction, "none")


def _reduce(loss, reduction):
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def _stride_arg(stride):
    return None if stride is None or (isinstance(stride, (tuple, list)) and len(stride) == 0) else stride


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """`torch.nn.functional.conv1d` (the same function in PyTorch).

    >>> torch.conv1d(torch.ones(1, 1, 4), torch.ones(1, 1, 2))
    tensor([[[2., 2., 2.]]])
    """
    return _F().conv1d(input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """`torch.nn.functional.conv2d` (the same function in PyTorch).

    >>> torch.conv2d(torch.ones(1, 1, 3, 3), torch.ones(1, 1, 2, 2))
    tensor([[[[4., 4.],
              [4., 4.]]]])
    """
    return _F().conv2d(input, weight, bias, stride, padding, dilation, groups)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """`torch.nn.functional.conv3d` (the same function in PyTorch).

    >>> torch.conv3d(torch.ones(1, 1, 2, 2, 2), torch.ones(1, 1, 2, 2, 2)).flatten()
    tensor([8.])
    """
    return _F().conv3d(input, weight, bias, stride, padding, dilation, groups)


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """`torch.nn.functional.conv_transpose1d` (the same function in PyTorch).

    >>> torch.conv_transpose1d(torch.ones(1, 1, 2), torch.ones(1, 1, 2))
    tensor([[[1., 2., 1.]]])
    """
    return _F().conv_transpose1d(input, weight, bias, stride, padding, output_padding, groups, dilation)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """`torch.nn.functional.conv_transpose2d` (the same function in PyTorch).

    >>> torch.conv_transpose2d(torch.ones(1, 1, 1, 2), torch.ones(1, 1, 1, 2))
    tensor([[[[1., 2., 1.]]]])
    """
    return _F().conv_transpose2d(input, weight, bias, stride, padding, output_padding, groups, dilation)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """`torch.nn.functional.conv_transpose3d` (the same function in PyTorch).

    >>> torch.conv_transpose3d(torch.ones(1, 1, 1, 1, 2), torch.ones(1, 1, 1, 1, 2)).flatten()
    tensor([1., 2., 1.])
    """
    return _F().conv_transpose3d(input, weight, bias, stride, padding, output_padding, groups, dilation)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """The cosine of the angle between x1 and x2 along `dim`, as ATen computes it: each divided
    by its norm (at least `eps`) first, then the product summed (SumBackward1).

    >>> torch.cosine_similarity(torch.tensor([[1., 0.]]), torch.tensor([[1., 1.]]))
    tensor([0.7071])
    """
    torch = _torch()
    _check_tensor("cosine_similarity", "x1", 1, x1)
    _check_tensor("cosine_similarity", "x2", 2, x2)
    common = torch.result_type(x1, x2)
    if not common.is_floating_point:
        raise RuntimeError(f"expected common dtype to be floating point, yet common dtype is {common._scalar_name}")
    if not (x1.dtype.is_floating_point or x1.dtype.is_complex):
        x1 = x1.to(common)
    if not (x2.dtype.is_floating_point or x2.dtype.is_complex):
        x2 = x2.to(common)
    if tuple(x1.shape) != tuple(x2.shape):
        size = torch.broadcast_shapes(x1.shape, x2.shape)
        x1, x2 = x1.expand(size), x2.expand(size)
    n1 = torch.linalg.vector_norm(x1, 2, dim=dim, keepdim=True).clone()
    n2 = torch.linalg.vector_norm(x2, 2, dim=dim, keepdim=True).clone()
    with _no_grad():
        n1.clamp_min_(eps)
        n2.clamp_min_(eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


def _scalar_node(name, t, fn):
    """`fn(t)` (an op with a Python number) recorded as ATen's Scalar overload (`AddBackward1`,
    `SubBackward1`), which PyTorch's C++ code calls and Python cannot."""
    return _core._composite(name, fn, [t])


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """The p-norm of `x1 - x2 + eps` along the last dim, as ATen composes it (NormBackward1).

    >>> torch.pairwise_distance(torch.tensor([[0., 0.]]), torch.tensor([[3., 4.]]))
    tensor([5.0000])
    """
    _check_tensor("pairwise_distance", "x1", 1, x1)
    _check_tensor("pairwise_distance", "x2", 2, x2)
    inner = builtins.max(x1.dim(), x2.dim()) - 1
    d = _scalar_node("AddBackward1", x1 - x2, lambda t: t + eps)
    return _core._composite("NormBackward1", lambda t: t.norm(p, inner, keepdim), [d])


def pixel_shuffle(input, upscale_factor):
    """`torch.nn.functional.pixel_shuffle` (the same function in PyTorch).

    >>> torch.pixel_shuffle(torch.arange(4.).reshape(1, 4, 1, 1), 2)
    tensor([[[[0., 1.],
              [2., 3.]]]])
    """
    return _F().pixel_shuffle(input, upscale_factor)


def pixel_unshuffle(input, downscale_factor):
    """`torch.nn.functional.pixel_unshuffle` (the same function in PyTorch).

    >>> torch.pixel_unshuffle(torch.arange(4.).reshape(1, 1, 2, 2), 2).flatten()
    tensor([0., 1., 2., 3.])
    """
    return _F().pixel_unshuffle(input, downscale_factor)


def channel_shuffle(input, groups):
    """`torch.nn.functional.channel_shuffle` (the same function in PyTorch).

    >>> torch.channel_shuffle(torch.arange(4.).reshape(1, 4, 1), 2).flatten()
    tensor([0., 2., 1., 3.])
    """
    return _F().channel_shuffle(input, groups)


def bilinear(input1, input2, weight, bias=None):
    """`torch.nn.functional.bilinear` (the same function in PyTorch).

    >>> torch.bilinear(torch.ones(1, 2), torch.ones(1, 3), torch.ones(4, 2, 3))
    tensor([[6., 6., 6., 6.]])
    """
    return _F().bilinear(input1, input2, weight, bias)


def avg_pool1d(input, kernel_size, stride=(), padding=0, ceil_mode=False, count_include_pad=True):
    """`torch.nn.functional.avg_pool1d` (the same function in PyTorch; an empty `stride` is the
    kernel size).

    >>> torch.avg_pool1d(torch.arange(4.).reshape(1, 1, 4), 2)
    tensor([[[0.5000, 2.5000]]])
    """
    return _F().avg_pool1d(input, kernel_size, _stride_arg(stride), padding, ceil_mode, count_include_pad)


def adaptive_avg_pool1d(input, output_size):
    """`torch.nn.functional.adaptive_avg_pool1d` (the same function in PyTorch).

    >>> torch.adaptive_avg_pool1d(torch.arange(4.).reshape(1, 1, 4), 2)
    tensor([[[0.5000, 2.5000]]])
    """
    return _F().adaptive_avg_pool1d(input, output_size)


def adaptive_max_pool1d(input, output_size):
    """The maxima of `output_size` adaptive windows and where they are: always the pair
    (values, indices) at the top level.

    >>> torch.adaptive_max_pool1d(torch.tensor([[[1., 3., 2., 0.]]]), 2)
    (tensor([[[3., 2.]]]), tensor([[[1, 2]]]))
    """
    return _F().adaptive_max_pool1d(input, output_size, return_indices=True)


def max_pool1d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    """`torch.nn.functional.max_pool1d` without indices (an empty `stride` is the kernel size).

    >>> torch.max_pool1d(torch.tensor([[[1., 3., 2., 0.]]]), 2)
    tensor([[[3., 2.]]])
    """
    return _F().max_pool1d(input, kernel_size, _stride_arg(stride), padding, dilation, ceil_mode)


def max_pool2d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    """`torch.nn.functional.max_pool2d` without indices (an empty `stride` is the kernel size).

    >>> torch.max_pool2d(torch.arange(16.).reshape(1, 1, 4, 4), 2)
    tensor([[[[ 5.,  7.],
              [13., 15.]]]])
    """
    return _F().max_pool2d(input, kernel_size, _stride_arg(stride), padding, dilation, ceil_mode)


def max_pool3d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    """`torch.nn.functional.max_pool3d` without indices (an empty `stride` is the kernel size).

    >>> torch.max_pool3d(torch.arange(8.).reshape(1, 1, 2, 2, 2), 2).flatten()
    tensor([7.])
    """
    return _F().max_pool3d(input, kernel_size, _stride_arg(stride), padding, dilation, ceil_mode)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05, cudnn_enable=True):
    """`torch.nn.functional.layer_norm` with ATen's extra `cudnn_enable` flag (ignored).

    >>> torch.layer_norm(torch.tensor([[1., 3.]]), [2])
    tensor([[-1.0000,  1.0000]])
    """
    return _F().layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True):
    """ATen's `group_norm` (NativeGroupNormBackward0); `cudnn_enabled` is ignored.

    >>> torch.group_norm(torch.tensor([[1., 2., 3., 4.]]), 2)
    tensor([[-1.0000,  1.0000, -1.0000,  1.0000]])
    """
    _check_tensor("group_norm", "input", 1, input)
    if input.dim() < 2:
        _wrap_dim(1, input.dim())
    return _core._group_norm(input, num_groups, weight, bias, builtins.float(eps))


def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled):
    """ATen's `batch_norm`: the argument order of the ATen op (weight and bias before the
    running statistics, all nine required) and none of the Python checks of
    `torch.nn.functional.batch_norm` (NativeBatchNormBackward0).

    >>> torch.batch_norm(torch.tensor([[1., 2.], [3., 6.]]), None, None, None, None, True, 0.1, 1e-5, False)
    tensor([[-1.0000, -1.0000],
            [ 1.0000,  1.0000]])
    """
    _check_tensor("batch_norm", "input", 1, input)
    return _core._batch_norm(input, weight, bias, running_mean, running_var, builtins.bool(training),
                             builtins.float(momentum), builtins.float(eps))


def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, cudnn_enabled):
    """ATen's `instance_norm` (all nine arguments required): `batch_norm` of the input seen as
    one sample of N*C channels, the running statistics averaged over the batch.

    >>> torch.instance_norm(torch.tensor([[[1., 3.], [0., 4.]]]), None, None, None, None, True, 0.1, 1e-5, False)
    tensor([[[-1.0000,  1.0000],
             [-1.0000,  1.0000]]])
    """
    _check_tensor("instance_norm", "input", 1, input)
    if not use_input_stats and (running_mean is None or running_var is None):
        raise RuntimeError("Expected running_mean and running_var to be defined when use_input_stats is false")
    b, c = input.shape[0], input.shape[1]
    shape = (1, b * c) + tuple(input.shape[2:])

    def repeat(t):
        return None if t is None else t.repeat(b)

    rm, rv = repeat(running_mean), repeat(running_var)
    out = _core._batch_norm(input.contiguous().view(shape), repeat(weight), repeat(bias), rm, rv,
                            builtins.bool(use_input_stats), builtins.float(momentum), builtins.float(eps))
    with _no_grad():
        if running_mean is not None:
            running_mean.copy_(rm.view(b, c).mean(0))
        if running_var is not None:
            running_var.copy_(rv.view(b, c).mean(0))
    return out.view(tuple(input.shape))


def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    """ATen's `embedding` (the weight first): the rows of `weight` at `indices`
    (EmbeddingBackward0); no gradient reaches row `padding_idx` (-1: none), and with
    `scale_grad_by_freq` each row's gradient is divided by how often it was picked.

    >>> torch.embedding(torch.tensor([[0., 1.], [2., 3.], [4., 5.]]), torch.tensor([2, 0]))
    tensor([[4., 5.],
            [0., 1.]])
    """
    torch = _torch()
    _check_tensor("embedding", "weight", 1, weight)
    _check_tensor("embedding", "indices", 2, indices)
    if sparse:
        raise RuntimeError("embedding: sparse gradients are not supported by leafgrad")
    if indices.dtype not in (torch.int64, torch.int32):
        raise RuntimeError(f"Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got {indices.dtype._legacy_name} instead (while checking arguments for "
                           f"embedding)")
    pad = builtins.int(padding_idx)
    if not scale_grad_by_freq and not (0 <= pad < weight.shape[0]):
        return _core._embedding(weight, indices)
    idx = indices.detach()
    with _no_grad():
        keep = (idx != pad) if pad >= 0 else torch.ones_like(idx, dtype=torch.bool)
        scale = keep.to(weight.dtype)
        if scale_grad_by_freq and idx.numel():
            counts = torch.zeros(weight.shape[0], dtype=torch.int64, device=idx.device).index_add(
                0, idx.reshape(-1).to(torch.int64), torch.ones(idx.numel(), dtype=torch.int64, device=idx.device))
            scale = scale / counts[idx].to(weight.dtype)
        scale = scale.unsqueeze(-1)

    def fn(w):
        e = _core._embedding(w, indices)
        return e * scale + (e * (1 - scale)).detach()  # the value of e, the gradient scaled

    return _core._composite("EmbeddingBackward0", fn, [weight])


def _p_check(p):
    if not (0.0 <= p <= 1.0):
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p}")


def dropout(input, p, train):
    """ATen's `dropout` (no defaults): each element zeroed with probability `p` and the rest
    scaled by 1/(1-p) when `train` (MulBackward0); `input` itself otherwise.

    >>> x = torch.ones(4)
    >>> torch.dropout(x, 0.5, False) is x, torch.dropout(x, 1.0, True)
    (True, tensor([0., 0., 0., 0.]))
    """
    _check_tensor("dropout", "input", 1, input)
    _p_check(p)
    if p == 0 or not train or input.numel() == 0:
        return input
    return _F().dropout(input, p, True)


def dropout_(input, p, train):
    """In-place `dropout`.

    >>> x = torch.ones(2)
    >>> torch.dropout_(x, 1.0, True) is x, x
    (True, tensor([0., 0.]))
    """
    _check_tensor("dropout_", "input", 1, input)
    _p_check(p)
    if p == 0 or not train or input.numel() == 0:
        return input
    if p == 1:
        return input.mul_(input.new_zeros(()))
    return _F().dropout(input, p, True, True)


def _misc_dropout(input, p, train, inplace, feature, alpha):
    from .nn._functional_misc import _dropout_impl

    return _dropout_impl(input, p, train, inplace, feature, alpha)


def alpha_dropout(input, p, train):
    """ATen's `alpha_dropout` (no defaults): dropped elements take SELU's negative saturation
    value and the result is scaled and shifted to keep zero mean and unit variance.

    >>> torch.alpha_dropout(torch.tensor([1., 2.]), 1.0, True)
    tensor([0., 0.])
    """
    _check_tensor("alpha_dropout", "input", 1, input)
    return _misc_dropout(input, p, train, False, False, True)


def alpha_dropout_(input, p, train):
    """In-place `alpha_dropout`.

    >>> x = torch.tensor([1., 2.])
    >>> torch.alpha_dropout_(x, 0.5, False) is x
    True
    """
    _check_tensor("alpha_dropout_", "input", 1, input)
    return _misc_dropout(input, p, train, True, False, True)


def feature_dropout(input, p, train):
    """ATen's `feature_dropout`: whole channels (`input[n, c]`) zeroed with probability `p`, the
    rest scaled by 1/(1-p) (at least 2 dims).

    >>> _ = torch.manual_seed(0)
    >>> torch.feature_dropout(torch.ones(1, 4, 2), 0.5, True)
    tensor([[[0., 0.],
             [0., 0.],
             [2., 2.],
             [0., 0.]]])
    """
    _check_tensor("feature_dropout", "input", 1, input)
    return _misc_dropout(input, p, train, False, True, False)


def feature_dropout_(input, p, train):
    """In-place `feature_dropout`.

    >>> x = torch.ones(1, 2, 2)
    >>> torch.feature_dropout_(x, 1.0, True) is x, x.sum()
    (True, tensor(0.))
    """
    _check_tensor("feature_dropout_", "input", 1, input)
    return _misc_dropout(input, p, train, True, True, False)


def feature_alpha_dropout(input, p, train):
    """ATen's `feature_alpha_dropout`: `alpha_dropout` of whole channels.

    >>> _ = torch.manual_seed(0)
    >>> torch.feature_alpha_dropout(torch.zeros(1, 4, 1), 0.5, True).flatten()
    tensor([-0.7792, -0.7792,  0.7792, -0.7792])
    """
    _check_tensor("feature_alpha_dropout", "input", 1, input)
    return _misc_dropout(input, p, train, False, True, True)


def feature_alpha_dropout_(input, p, train):
    """In-place `feature_alpha_dropout`.

    >>> x = torch.zeros(1, 2, 1)
    >>> torch.feature_alpha_dropout_(x, 0.5, False) is x
    True
    """
    _check_tensor("feature_alpha_dropout_", "input", 1, input)
    return _misc_dropout(input, p, train, True, True, True)


def _rrelu(input, lower, upper, training, generator, inplace):
    from .nn import _functional_misc as m

    if generator is None:
        return m._rrelu(input, lower, upper, training, inplace)
    lower, upper = builtins.float(lower), builtins.float(upper)
    if not upper >= lower:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    if not training:
        return m._rrelu(input, lower, upper, training, inplace)
    if not m._is_float(input.dtype):
        raise m._not_implemented_for("rrelu_with_noise_out_cpu", input.dtype)
    with _no_grad():  # as `_functional_misc._rrelu`, drawing from `generator`
        r = m._rounder(input.dtype)
        mask = input.detach() <= 0
        count = builtins.int(mask.sum().item())
        noise = input.new_ones(tuple(input.shape))
        if count:
            draws = _core._draw("uniform", (count,), None, _core.float64, r(lower), r(upper), generator)
            noise[mask] = draws.to(input.dtype).to(input.device)

    def fn(x):
        return x * noise

    if inplace:
        return _core._inplace_apply(input, lambda s: _core._composite("RreluWithNoiseBackward1", fn, [s]), [])
    return _core._composite("RreluWithNoiseBackward0", fn, [input])


def rrelu(input, lower=0.125, upper=0.3333333333333333, training=False, generator=None):
    """`torch.nn.functional.rrelu` with ATen's `generator` argument (the slopes of the negative
    elements drawn from it in training).

    >>> torch.rrelu(torch.tensor([-1., 2.]), 0.1, 0.3)
    tensor([-0.2000,  2.0000])
    """
    _check_tensor("rrelu", "input", 1, input)
    return _rrelu(input, lower, upper, training, generator, False)


def rrelu_(input, lower=0.125, upper=0.3333333333333333, training=False, generator=None):
    """In-place `rrelu` (RreluWithNoiseBackward1).

    >>> x = torch.tensor([-1., 2.])
    >>> torch.rrelu_(x) is x, x
    (True, tensor([-0.2292,  2.0000]))
    """
    _check_tensor("rrelu_", "input", 1, input)
    return _rrelu(input, lower, upper, training, generator, True)


def constant_pad_nd(input, pad, value=0):
    """`input` padded with `value` by `pad` (pairs of amounts before and after, last dim first;
    negative amounts crop): ConstantPadNdBackward0.

    >>> torch.constant_pad_nd(torch.tensor([[1, 2]]), [1, 0, 0, 1], 9)
    tensor([[9, 1, 2],
            [9, 9, 9]])
    """
    _check_tensor("constant_pad_nd", "input", 1, input)
    pad = [builtins.int(v) for v in pad]
    if len(pad) % 2:
        raise RuntimeError(f"Length of pad must be even but instead it equals {len(pad)}")
    if input.dim() < len(pad) // 2:
        raise RuntimeError(f"Length of pad should be no more than twice the number of dimensions of the input. "
                           f"Pad length is {len(pad)}while the input has {input.dim()}dimensions.")
    return _F().pad(input, pad, "constant", value)


def pdist(input, p=2):
    """The p-norm distance between every pair of rows of a 2-D input: the upper triangle of
    `cdist(input, input)` read row by row (PdistBackward0).

    >>> torch.pdist(torch.tensor([[0., 0.], [3., 4.], [6., 8.]]))
    tensor([ 5., 10.,  5.])
    """
    torch = _torch()
    _check_tensor("pdist", "input", 1, input)
    if input.dim() != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.dim()}D")
    if not (input.dtype.is_floating_point):
        raise RuntimeError("pdist only supports floating-point dtypes")
    p = builtins.float(p)
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    n = input.shape[0]
    rows, cols = torch.triu_indices(n, n, 1, device=input.device) if n > 1 else (
        torch.empty(0, dtype=torch.int64), torch.empty(0, dtype=torch.int64))

    def fn(x):
        diff = x.index_select(0, rows) - x.index_select(0, cols)
        return diff.norm(p, 1)

    return _core._composite("PdistBackward0", fn, [input])


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction=0):
    """ATen's `binary_cross_entropy_with_logits`: the reduction as an int (0 none, 1 mean,
    2 sum; none when left out, as PyTorch's top level), no size check of its own
    (BinaryCrossEntropyWithLogitsBackward0).

    >>> torch.binary_cross_entropy_with_logits(torch.zeros(2), torch.tensor([1., 0.]), None, None, 1)
    tensor(0.6931)
    """
    from . import _composites

    _check_tensor("binary_cross_entropy_with_logits", "input", 1, input)
    _check_tensor("binary_cross_entropy_with_logits", "target", 2, target)
    red = _reduction_name("binary_cross_entropy_with_logits", reduction)
    return _composites.binary_cross_entropy_with_logits(input, target, weight, red, pos_weight)


def kl_div(input, target, reduction=0, *, log_target=False):
    """ATen's `kl_div`: `target * (log(target) - input)` (or `exp(target) * (target - input)`
    with `log_target`), the reduction as an int (0 none, 1 mean over all elements, 2 sum;
    none when left out, as PyTorch's top level).

    >>> torch.kl_div(torch.tensor([-1., -2.]), torch.tensor([0.5, 0.5]), 2)
    tensor(0.8069)
    """
    torch = _torch()
    _check_tensor("kl_div", "input", 1, input)
    _check_tensor("kl_div", "target", 2, target)
    red = _reduction_name("kl_div", reduction)
    if input.is_complex() or target.is_complex():
        raise RuntimeError("kl_div: Complex inputs not supported.")
    if not (input.dtype.is_floating_point and target.dtype.is_floating_point):
        raise RuntimeError("kl_div: Integral inputs not supported.")
    if log_target:
        out = torch.exp(target) * (target - input)
    else:
        out = torch.xlogy(target, target) - target * input
    return _reduce(out, red)


def hinge_embedding_loss(input, target, margin=1.0, reduction=0):
    """ATen's `hinge_embedding_loss`: `input` where target is 1, max(0, margin - input) where it
    is -1, the reduction as an int (none when left out, as PyTorch's top level).

    >>> torch.hinge_embedding_loss(torch.tensor([0.3, 2.]), torch.tensor([1., -1.]), 1.0, 1)
    tensor(0.1500)
    """
    torch = _torch()
    red = _reduction_name("hinge_embedding_loss", reduction)
    zeros = torch.zeros_like(input)
    margin_clamp = torch.empty_like(input).fill_(margin).sub_(input).clamp_min_(0)
    output = torch.where(target != 1, margin_clamp, zeros) + torch.where(target != -1, input, zeros)
    return _reduce(output, red)


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction=0):
    """ATen's `margin_ranking_loss`: max(0, -target * (input1 - input2) + margin), the
    reduction as an int (none when left out, as PyTorch's top level).

    >>> torch.margin_ranking_loss(torch.tensor([1., 2.]), torch.tensor([2., 0.]), torch.tensor([1., 1.]), 0.5)
    tensor([1.5000, 0.0000])
    """
    red = _reduction_name("margin_ranking_loss", reduction)
    out = _scalar_node("AddBackward1", -target * (input1 - input2), lambda t: t + margin)
    return _reduce(out.clamp_min_(0), red)


def poisson_nll_loss(input, target, log_input, full, eps, reduction):
    """ATen's `poisson_nll_loss` (all six arguments required; the reduction as an int).

    >>> torch.poisson_nll_loss(torch.tensor([0., 1.]), torch.tensor([1., 2.]), True, False, 1e-8, 1)
    tensor(0.8591)
    """
    import math

    torch = _torch()
    red = _reduction_name("poisson_nll_loss", reduction)
    if log_input:
        loss = torch.exp(input) - target * input
    else:
        loss = input - target * torch.log(_scalar_node("AddBackward1", input, lambda t: t + eps))
    if full:
        stirling = target * torch.log(target) - target + 0.5 * torch.log(2 * math.pi * target)
        loss += stirling.masked_fill(target <= 1, 0)
    return _reduce(loss, red)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False, reduction=0):
    """ATen's `triplet_margin_loss`: max(0, margin + d(anchor, positive) - d(anchor, negative)),
    d the `pairwise_distance`, the reduction as an int (none when left out, as PyTorch's top
    level).

    >>> a, pos, neg = torch.tensor([[0., 0.]]), torch.tensor([[0., 1.]]), torch.tensor([[0., 1.5]])
    >>> torch.triplet_margin_loss(a, pos, neg)
    tensor([0.5000])
    """
    torch = _torch()
    red = _reduction_name("triplet_margin_loss", reduction)
    if not (anchor.dim() == positive.dim() == negative.dim()):
        raise RuntimeError(
            "The anchor, positive, and negative tensors are expected to have the same number of dimensions, but "
            f"got: anchor {anchor.dim()}D, positive {positive.dim()}D, and negative {negative.dim()}D inputs")
    dist_pos = pairwise_distance(anchor, positive, p, eps)
    dist_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_neg = torch.min(dist_neg, pairwise_distance(positive, negative, p, eps))
    out = torch.clamp_min(_scalar_node("AddBackward1", dist_pos, lambda t: t + margin) - dist_neg, 0)
    return _reduce(out, red)


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=0):
    """ATen's `cosine_embedding_loss`: 1 - cos(input1, input2) where target is 1,
    max(0, cos - margin) where it is -1, the reduction as an int (none when left out, as
    PyTorch's top level).

    >>> a, b = torch.tensor([[1., 0.], [0., 1.]]), torch.tensor([[1., 1.], [0., 1.]])
    >>> torch.cosine_embedding_loss(a, b, torch.tensor([1., -1.]), 0.0, 1)
    tensor(0.6464)
    """
    torch = _torch()
    red = _reduction_name("cosine_embedding_loss", reduction)
    d = target.dim()
    if d not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if d == 1 and not (input1.dim() == 2 and input2.dim() == 2):
        raise RuntimeError(f"1D target tensor expects 2D input tensors, but found inputs with sizes "
                           f"{_shape_str(input1.shape)} and {_shape_str(input2.shape)}.")
    if d == 0 and not (input1.dim() == 1 and input2.dim() == 1):
        raise RuntimeError(f"0D target tensor expects 1D input tensors, but found inputs with sizes "
                           f"{_shape_str(input1.shape)} and {_shape_str(input2.shape)}.")
    prod_sum = (input1 * input2).sum(d)
    mag1 = _scalar_node("AddBackward1", (input1 * input1).sum(d), lambda t: t + 1e-12)
    mag2 = _scalar_node("AddBackward1", (input2 * input2).sum(d), lambda t: t + 1e-12)
    cos = prod_sum / (mag1 * mag2).sqrt_()
    zeros = torch.zeros_like(cos)
    pos = torch.empty_like(cos).fill_(1).sub_(cos)
    neg = _scalar_node("SubBackward1", cos, lambda t: t - margin).clamp_min_(0)
    output = torch.where(target == 1, pos, zeros) + torch.where(target == -1, neg, zeros)
    return _reduce(output, red)


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=0, zero_infinity=False):
    """ATen's `ctc_loss`, the reduction as an int (0 none: one loss per batch element, 1 mean
    of the losses divided by the target lengths, 2 sum; none when left out, as PyTorch's top
    level).

    >>> lp = torch.zeros(3, 1, 2).log_softmax(2)
    >>> torch.ctc_loss(lp, torch.tensor([[1]]), [3], [1])
    tensor([0.2877])
    """
    red = _reduction_name("ctc_loss", reduction)
    return _F().ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, red, zero_infinity)


# --- window functions ------------------------------------------------------------------------
# Computed as PyTorch's kernels compute them (aten/src/ATen/native/TensorFactories.cpp): the same
# ops in the same dtype, so the values are PyTorch's bit for bit.

def _window_checks(name, window_length, periodic, dtype, device):
    from ._device import _with_default

    if isinstance(window_length, builtins.bool) or not isinstance(window_length, builtins.int):
        try:
            if isinstance(window_length, builtins.bool):
                raise TypeError
            window_length = operator.index(window_length)
        except TypeError:
            raise TypeError(f"{name}(): argument 'window_length' (position 1) must be int, not "
                            f"{type(window_length).__name__}") from None
    if not isinstance(periodic, builtins.bool):
        raise TypeError(f"{name}(): argument 'periodic' (position 2) must be bool, not {type(periodic).__name__}")
    dtype = dtype or _core._get_default_dtype()
    device = _with_default(device)
    dev = "cpu" if device is None else str(device)
    if not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError(f"{name} expects floating point dtypes, got: TensorOptions(dtype={dtype._cpp_name}, "
                           f"device={dev}, layout=Strided (default), requires_grad=false (default), "
                           f"pinned_memory=false, memory_format=(nullopt))")
    if window_length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got window_length={window_length}")
    if dtype.is_complex:
        raise NotImplementedError(f"\"arange_cpu\" not implemented for '{dtype._scalar_name}'")
    return window_length, dtype, device


def _window_result(w, requires_grad):
    w = w.detach()
    if requires_grad:
        w.requires_grad_(True)
    return w


def _short_window(n, dtype, device, requires_grad):
    torch = _torch()
    if n == 0:
        return _window_result(torch.empty(0, dtype=dtype, device=device), requires_grad)
    return _window_result(torch.ones(1, dtype=dtype, device=device), requires_grad)


def _window_arange(n, dtype, device):
    """`arange(n)` to compute a window in, the rounding each op's result takes, and the value a
    number takes in an op: a 16-bit float's ops compute in float32 on the number rounded to the
    dtype (PyTorch's C++ passes it as a 0-d tensor of the dtype), each result rounded back."""
    torch = _torch()
    if dtype in (torch.float16, torch.bfloat16):
        def rnd(t):
            return t.to(dtype).to(torch.float32)

        def num(v):
            return torch.tensor(builtins.float(v), dtype=dtype).item()

        return rnd(torch.arange(n, dtype=torch.float32, device=device)), rnd, num
    return torch.arange(n, dtype=dtype, device=device), (lambda t: t), builtins.float


def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None, layout=None, device=None,
                   pin_memory=False, requires_grad=False):
    """The Hamming window `alpha - beta * cos(2 pi n / (N - 1))`; `periodic` (the default)
    gives the first `window_length` values of the window one longer, for spectral analysis.

    >>> torch.hamming_window(5)
    tensor([0.0800, 0.3979, 0.9121, 0.9121, 0.3979])
    >>> torch.hamming_window(5, periodic=False, dtype=torch.float64)
    tensor([0.0800, 0.5400, 1.0000, 0.5400, 0.0800], dtype=torch.float64)
    """
    import math

    n, dtype, device = _window_checks("hamming_window", window_length, periodic, dtype, device)
    if n <= 1:
        return _short_window(n, dtype, device, requires_grad)
    if periodic:
        n += 1
    w, rnd, num = _window_arange(n, dtype, device)
    w = rnd(w.mul_(num(math.pi * 2.0 / builtins.float(n - 1))))
    w = rnd(rnd(rnd(w.cos_()).mul_(num(-builtins.float(beta)))).add_(num(alpha))).to(dtype)
    return _window_result(w[:n - 1] if periodic else w, requires_grad)


def hann_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, pin_memory=False,
                requires_grad=False):
    """The Hann window `0.5 - 0.5 * cos(2 pi n / (N - 1))` (`hamming_window` with alpha = beta
    = 0.5); `periodic` (the default) for spectral analysis.

    >>> torch.hann_window(4)
    tensor([0.0000, 0.5000, 1.0000, 0.5000])
    """
    _window_checks("hann_window", window_length, periodic, dtype, device)
    return hamming_window(window_length, periodic, 0.5, 0.5, dtype=dtype, device=device, requires_grad=requires_grad)


def blackman_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, pin_memory=False,
                    requires_grad=False):
    """The Blackman window `0.42 - 0.5 cos(2 pi n / (N - 1)) + 0.08 cos(4 pi n / (N - 1))`;
    `periodic` (the default) for spectral analysis.

    >>> torch.blackman_window(5, periodic=False)
    tensor([-2.9802e-08,  3.4000e-01,  1.0000e+00,  3.4000e-01, -2.9802e-08])
    """
    import math

    n, dtype, device = _window_checks("blackman_window", window_length, periodic, dtype, device)
    if n <= 1:
        return _short_window(n, dtype, device, requires_grad)
    if periodic:
        n += 1
    w, rnd, num = _window_arange(n, dtype, device)
    w = rnd(w.mul_(num(math.pi / builtins.float(n - 1))))
    first = rnd(rnd(rnd(w.mul(4)).cos_()).mul_(num(0.08)))
    second = rnd(rnd(rnd(w.mul(2)).cos_()).mul_(num(0.5)))
    w = rnd(rnd(first - second) + num(0.42))
    w = w.to(dtype)
    return _window_result(w[:n - 1] if periodic else w, requires_grad)


def bartlett_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, pin_memory=False,
                    requires_grad=False):
    """The Bartlett (triangular) window `1 - |2n / (N - 1) - 1|`; `periodic` (the default) for
    spectral analysis.

    >>> torch.bartlett_window(5, periodic=False)
    tensor([0.0000, 0.5000, 1.0000, 0.5000, 0.0000])
    """
    n, dtype, device = _window_checks("bartlett_window", window_length, periodic, dtype, device)
    if n <= 1:
        return _short_window(n, dtype, device, requires_grad)
    if periodic:
        n += 1
    w, rnd, num = _window_arange(n, dtype, device)
    w = rnd(w.mul_(num(2.0 / builtins.float(n - 1))))
    first_half = ((n - 1) >> 1) + 1
    tail = w.narrow(0, first_half, n - first_half)
    tail.copy_(rnd(rnd(tail * -1) + 2))
    w = w.to(dtype)
    return _window_result(w[:n - 1] if periodic else w, requires_grad)


_I0_A = [
    -4.41534164647933937950E-18, 3.33079451882223809783E-17, -2.43127984654795469359E-16,
    1.71539128555513303061E-15, -1.16853328779934516808E-14, 7.67618549860493561688E-14,
    -4.85644678311192946090E-13, 2.95505266312963983461E-12, -1.72682629144155570723E-11,
    9.67580903537323691224E-11, -5.18979560163526290666E-10, 2.65982372468238665035E-9,
    -1.30002500998624804212E-8, 6.04699502254191894932E-8, -2.67079385394061173391E-7,
    1.11738753912010371815E-6, -4.41673835845875056359E-6, 1.64484480707288970893E-5,
    -5.75419501008210370398E-5, 1.88502885095841655729E-4, -5.76375574538582365885E-4,
    1.63947561694133579842E-3, -4.32430999505057594430E-3, 1.05464603945949983183E-2,
    -2.37374148058994688156E-2, 4.93052842396707084878E-2, -9.49010970480476444210E-2,
    1.71620901522208775349E-1, -3.04682672343198398683E-1, 6.76795274409476084995E-1]
_I0_B = [
    -7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,
    3.46122286769746109310E-17, -2.82762398051658348494E-16, -3.42548561967721913462E-16,
    1.77256013305652638360E-15, 3.81168066935262242075E-15, -9.55484669882830764870E-15,
    -4.15056934728722208663E-14, 1.54008621752140982691E-14, 3.85277838274214270114E-13,
    7.18012445138366623367E-13, -1.79417853150680611778E-12, -1.32158118404477131188E-11,
    -3.14991652796324136454E-11, 1.18891471078464383424E-11, 4.94060238822496958910E-10,
    3.39623202570838634515E-9, 2.26666899049817806459E-8, 2.04891858946906374183E-7,
    2.89137052083475648297E-6, 6.88975834691682398426E-5, 3.36911647825569408990E-3,
    8.04490411014108831608E-1]


def _expf():
    """C's `expf` (what PyTorch's float kernels call), or `exp` in double rounded to float."""
    import numpy as np

    try:
        import ctypes
        import ctypes.util

        libm = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
        f = libm.expf
        f.restype, f.argtypes = ctypes.c_float, [ctypes.c_float]
        return lambda x: np.float32(f(builtins.float(x)))
    except (OSError, AttributeError):
        import math

        return lambda x: np.float32(math.exp(builtins.float(x)))


def _fma64(x, y, z):
    """x * y + z rounded once to double (C's `fma`)."""
    import math
    from fractions import Fraction

    f = getattr(math, "fma", None)
    if f is not None:
        return f(x, y, z)
    return builtins.float(Fraction(x) * Fraction(y) + Fraction(z))


def _fma32(x, y, z):
    """x * y + z of float32 numbers rounded once to float32 (C's `fmaf`)."""
    import numpy as np

    p = builtins.float(x) * builtins.float(y)  # exact: two 24-bit significands
    zf = builtins.float(z)
    d = p + zf
    if (d - p) - zf == 0 and (d - zf) - p == 0:  # the double sum is exact: one rounding
        return np.float32(d)
    from fractions import Fraction

    exact = Fraction(p) + Fraction(zf)
    r = np.float32(builtins.float(exact))
    # the double rounding may have missed: take the nearest float32 to the exact value
    best = r
    for c in (np.nextafter(r, np.float32(-np.inf)), np.nextafter(r, np.float32(np.inf))):
        if abs(Fraction(builtins.float(c)) - exact) < abs(Fraction(builtins.float(best)) - exact):
            best = c
    return best


def _i0_fn(single):
    """PyTorch's `calc_i0` (Cephes' Chebyshev expansions) in float32 (`single`) or double, with
    the fused multiply-add PyTorch's CPU build contracts `chbevl`'s step into."""
    import math

    import numpy as np

    if single:
        T, exp, sqrt, fma = np.float32, _expf(), (lambda v: np.sqrt(np.float32(v))), _fma32
    else:
        T, exp, sqrt, fma = builtins.float, math.exp, math.sqrt, _fma64
    A = [T(c) for c in _I0_A]
    B = [T(c) for c in _I0_B]

    def chbevl(x, coeffs):
        b0, b1, b2 = coeffs[0], T(0.0), T(0.0)
        for c in coeffs[1:]:
            b2 = b1
            b1 = b0
            b0 = T(fma(x, b1, -b2) + c)
        return T(T(0.5) * T(b0 - b2))

    def i0(v):
        x = T(abs(v))
        if x <= T(8.0):
            y = T(T(x / T(2.0)) - T(2.0))
            return T(exp(x) * chbevl(y, A))
        return T(T(exp(x) * chbevl(T(T(T(32.0) / x) - T(2.0)), B)) / sqrt(x))

    return T, i0, sqrt, fma


def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None, layout=None, device=None,
                  pin_memory=False, requires_grad=False):
    """The Kaiser window `I0(beta * sqrt(1 - ((n - N/2) / (N/2))^2)) / I0(beta)` (I0 the modified
    Bessel function of order 0, N = window_length - 1); `periodic` (the default) for spectral
    analysis.

    >>> torch.kaiser_window(5, periodic=False, beta=3.0)
    tensor([0.2049, 0.7269, 1.0000, 0.7269, 0.2049])
    """
    torch = _torch()
    n, dtype, device = _window_checks("kaiser_window", window_length, periodic, dtype, device)
    if n <= 1:
        return _short_window(n, dtype, device, requires_grad)
    if periodic:
        n += 1
    single = dtype != torch.float64
    T, i0, sqrt, fma = _i0_fn(single)
    initial = torch.arange(n, dtype=dtype).tolist()  # the arange in the dtype, as PyTorch's
    alpha = T((n - 1) / 2.0)
    b = T(builtins.float(beta))
    denom = i0(b)
    values = []
    for a in initial:
        r = T(T(T(a) - alpha) / alpha)
        # `1 - pow(r, 2)`: a fused multiply-add in PyTorch's build
        values.append(builtins.float(T(i0(T(b * sqrt(T(abs(fma(-r, r, T(1.0))))))) / denom)))
    w = torch.tensor(values, dtype=torch.float32 if single else torch.float64).to(dtype)
    if device is not None and str(device) != "cpu":
        w = w.to(device)
    return _window_result(w[:n - 1] if periodic else w, requires_grad)


def _install():
    methods = {
        "repeat_interleave": _repeat_interleave_method, "index_put": _index_put_method, "index_put_": _index_put_,
        "put": _put_method, "put_": _put_, "fill_diagonal_": _fill_diagonal_, "unfold": _unfold,
        "sum_to_size": _sum_to_size, "is_signed": _is_signed_method, "is_nonzero": _is_nonzero_method,
        "is_same_size": _is_same_size_method, "get_device": _get_device, "new_empty_strided": _new_empty_strided,
        "narrow_copy": narrow_copy, "diagonal_scatter": diagonal_scatter, "select_scatter": select_scatter,
        "slice_scatter": slice_scatter, "as_strided_scatter": as_strided_scatter, "apply_": _apply_, "map_": _map_,
    }
    assert builtins.set(methods) == builtins.set(_METHODS)
    for name, fn in methods.items():
        fn.__name__ = fn.__qualname__ = name
        setattr(Tensor, name, fn)
    Tensor.nbytes = property(_nbytes, doc=_nbytes.__doc__)
    Tensor.itemsize = property(_itemsize, doc=_itemsize.__doc__)
    Tensor.is_cpu = property(_is_cpu, doc=_is_cpu.__doc__)


_install()
