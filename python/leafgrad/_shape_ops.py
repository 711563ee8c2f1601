"""Shape functions PyTorch writes as compositions of other ops (its CompositeImplicitAutograd
ones), written the same way here so they record the same nodes: `movedim`/`moveaxis`
(PermuteBackward0), `tile` (RepeatBackward0), `unflatten` and `ravel` (ViewBackward0), `narrow`
and `tensor_split`/`hsplit`/`vsplit`/`dsplit` (SliceBackward0), the `*stack` family and
`atleast_*d`, `diff`, `meshgrid`, `cartesian_prod`, `rot90`, `argwhere`, `triu_indices`/
`tril_indices`, `positive`, `rad2deg`/`deg2rad`, `isneginf`/`isposinf`/`isreal`, `select`,
`true_divide`, `floor_divide`; and `finfo`/`iinfo`."""
import math
import warnings

import numpy as np

from ._dtypes import shell_check as _shell_check
from . import _core
from ._core import Tensor

_core_narrow = Tensor.narrow  # the core's SliceBackward0 view (before `_install` replaces it)

__all__ = [
    "movedim", "moveaxis", "tile", "unflatten", "narrow", "ravel", "tensor_split", "hsplit", "vsplit",
    "dsplit", "hstack", "vstack", "dstack", "column_stack", "row_stack", "atleast_1d", "atleast_2d",
    "atleast_3d", "diff", "meshgrid", "cartesian_prod", "rot90", "argwhere", "triu_indices",
    "tril_indices", "positive", "rad2deg", "deg2rad", "isneginf", "isposinf", "isreal", "select",
    "true_divide", "floor_divide", "finfo", "iinfo", "isin", "signbit",
]
_METHODS = ["movedim", "moveaxis", "tile", "unflatten", "narrow", "ravel", "tensor_split", "hsplit",
            "vsplit", "dsplit", "diff", "rot90", "argwhere", "positive", "rad2deg", "deg2rad",
            "isneginf", "isposinf", "isreal", "true_divide", "floor_divide", "signbit"]


def _wrap(dim, n):
    m = max(n, 1)
    if not -m <= dim < m:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-m}, {m - 1}], but got {dim})")
    return dim % m


def movedim(input, source, destination):
    """`input` with the dims at `source` moved to `destination` (ints or sequences), the other
    dims keeping their order: a permuted view.

    >>> torch.movedim(torch.zeros(2, 3, 4), 0, -1).shape
    torch.Size([3, 4, 2])
    """
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    if len(src) != len(dst):
        raise RuntimeError(
            f"movedim: Invalid source or destination dims: source ({src} dims) should contain the same "
            f"number of dims as destination ({dst} dims)")
    n = input.dim()
    src = [_wrap(d, n) for d in src]
    dst = [_wrap(d, n) for d in dst]
    for name, dims in (("source", src), ("destination", dst)):
        if len(set(dims)) != len(dims):
            raise RuntimeError(f"movedim: repeated dim in `{name}` ({list(source if name == 'source' else destination)})")
    perm = [-1] * n
    for s, d in zip(src, dst):
        perm[d] = s
    rest = iter(d for d in range(n) if d not in src)
    perm = [p if p != -1 else next(rest) for p in perm]
    return input.permute(perm)


moveaxis = movedim


def tile(input, dims):
    """`input` repeated `dims[i]` times along each dim (leading ones added to whichever is
    shorter), as `repeat`.

    >>> torch.tile(torch.tensor([1, 2]), (2, 2))
    tensor([[1, 2, 1, 2],
            [1, 2, 1, 2]])
    """
    dims = tuple(dims) if not isinstance(dims, int) else (dims,)
    if len(dims) < input.dim():
        dims = (1,) * (input.dim() - len(dims)) + dims
    return input.repeat(dims)


def unflatten(input, dim, sizes):
    """`input` with `dim` split into `sizes` (one of them may be -1): a view.

    >>> torch.arange(6).unflatten(0, (2, -1))
    tensor([[0, 1, 2],
            [3, 4, 5]])
    """
    n = input.dim()
    d = _wrap(dim, n)
    sizes = list(sizes)
    if len(sizes) == 0:
        raise RuntimeError("unflatten: sizes must be non-empty")
    shape = list(input.shape)
    return input.view(shape[:d] + sizes + shape[d + 1:])


def narrow(input, dim, start, length):
    """The `length` elements of `input` from `start` along `dim` (a negative start counts from
    the end): a view.

    >>> torch.narrow(torch.arange(10), 0, 2, 3)
    tensor([2, 3, 4])
    """
    if input.dim() == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if isinstance(start, Tensor):
        start = int(start.item())
    d = _wrap(dim, input.dim())
    size = input.shape[d]
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but got {start})")
    if start < 0:
        start += size
    if start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    # a slice even when it covers the whole dim (SliceBackward0, as PyTorch's narrow records;
    # indexing would give AliasBackward0 there)
    return _core_narrow(input, d, start, length)


def ravel(input):
    """`input` flattened to 1-D (a view where the layout allows).

    >>> torch.tensor([[1, 2], [3, 4]]).ravel()
    tensor([1, 2, 3, 4])
    """
    return input.reshape(-1)


def tensor_split(input, indices_or_sections, dim=0):
    """Views of `input` split along `dim`: into `n` nearly equal parts (the first ones one
    longer), or at the given indices.

    >>> torch.tensor_split(torch.arange(7), 3)
    (tensor([0, 1, 2]), tensor([3, 4]), tensor([5, 6]))
    >>> torch.tensor_split(torch.arange(7), [1, 5])
    (tensor([0]), tensor([1, 2, 3, 4]), tensor([5, 6]))
    """
    d = _wrap(dim, input.dim())
    size = input.shape[d]
    if isinstance(indices_or_sections, Tensor):
        v = indices_or_sections
        indices_or_sections = int(v.item()) if v.dim() == 0 else [int(i) for i in v.tolist()]
    if isinstance(indices_or_sections, int):
        n = indices_or_sections
        if n <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {n}")
        q, r = divmod(size, n)
        bounds, at = [], 0
        for i in range(n):
            step = q + (1 if i < r else 0)
            bounds.append((at, at + step))
            at += step
    else:
        # Python's slice bounds: negative ones count from the end, a later start gives nothing
        idx = [int(i) for i in indices_or_sections]
        bounds = list(zip([0] + idx, idx + [None]))
    pre = (slice(None),) * d
    return tuple(input[pre + (slice(s, e),)] for s, e in bounds)


def _split_dir(name, input, indices_or_sections, dim, min_dims):
    if input.dim() < min_dims:
        raise RuntimeError(
            f"torch.{name} requires a tensor with at least {min_dims} dimension, but got a tensor with "
            f"{input.dim()} dimensions!")
    if isinstance(indices_or_sections, int):
        size = input.shape[dim]
        if indices_or_sections == 0 or size % indices_or_sections != 0:
            raise RuntimeError(
                f"torch.{name} attempted to split along dimension {dim}, but the size of the dimension {size} "
                f"is not divisible by the split_size {indices_or_sections}!")
    return tensor_split(input, indices_or_sections, dim)


def hsplit(input, indices_or_sections):
    """`tensor_split` along dim 1 (dim 0 of a 1-D tensor), sections dividing it evenly.

    >>> torch.hsplit(torch.arange(6).view(2, 3), [1])
    (tensor([[0],
            [3]]), tensor([[1, 2],
            [4, 5]]))
    """
    return _split_dir("hsplit", input, indices_or_sections, 1 if input.dim() > 1 else 0, 1)


def vsplit(input, indices_or_sections):
    """`tensor_split` along dim 0 of a tensor of at least 2 dims.

    >>> torch.vsplit(torch.arange(4).view(2, 2), 2)
    (tensor([[0, 1]]), tensor([[2, 3]]))
    """
    return _split_dir("vsplit", input, indices_or_sections, 0, 2)


def dsplit(input, indices_or_sections):
    """`tensor_split` along dim 2 of a tensor of at least 3 dims.

    >>> [t.shape for t in torch.dsplit(torch.zeros(1, 1, 4), 2)]
    [torch.Size([1, 1, 2]), torch.Size([1, 1, 2])]
    """
    return _split_dir("dsplit", input, indices_or_sections, 2, 3)


def _atleast(tensors, n):
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        return tuple(_atleast(tuple(tensors[0]), n))
    out = []
    for t in tensors:
        if t.dim() == 0:
            t = t.reshape((1,) * n)
        elif n >= 2 and t.dim() == 1:
            t = t.unsqueeze(0)
            if n == 3:
                t = t.unsqueeze(-1)
        elif n == 3 and t.dim() == 2:
            t = t.unsqueeze(-1)
        out.append(t)
    return out[0] if len(out) == 1 else tuple(out)


def atleast_1d(*tensors):
    """Each tensor with at least 1 dim (a 0-d one becomes shape `(1,)`).

    >>> torch.atleast_1d(torch.tensor(1.))
    tensor([1.])
    """
    return _atleast(tensors, 1)


def atleast_2d(*tensors):
    """Each tensor with at least 2 dims (leading ones added).

    >>> torch.atleast_2d(torch.tensor([1, 2])).shape
    torch.Size([1, 2])
    """
    return _atleast(tensors, 2)


def atleast_3d(*tensors):
    """Each tensor with at least 3 dims (1-D `(n,)` becomes `(1, n, 1)`, 2-D `(m, n)` becomes
    `(m, n, 1)`).

    >>> torch.atleast_3d(torch.tensor([1, 2])).shape
    torch.Size([1, 2, 1])
    """
    return _atleast(tensors, 3)


def _seq(name, tensors):
    if isinstance(tensors, Tensor):
        raise TypeError(f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor")
    return list(tensors)


def hstack(tensors):
    """The tensors concatenated along dim 1 (dim 0 for 1-D ones).

    >>> torch.hstack([torch.tensor([1, 2]), torch.tensor([3])])
    tensor([1, 2, 3])
    """
    ts = _atleast(_seq("hstack", tensors), 1)
    ts = [ts] if isinstance(ts, Tensor) else list(ts)
    return _core.cat(ts, 0 if ts[0].dim() == 1 else 1)


def vstack(tensors):
    """The tensors, made at least 2-D, concatenated along dim 0.

    >>> torch.vstack([torch.tensor([1, 2]), torch.tensor([3, 4])])
    tensor([[1, 2],
            [3, 4]])
    """
    ts = _atleast(_seq("vstack", tensors), 2)
    return _core.cat([ts] if isinstance(ts, Tensor) else list(ts), 0)


row_stack = vstack


def dstack(tensors):
    """The tensors, made at least 3-D, concatenated along dim 2.

    >>> torch.dstack([torch.tensor([1, 2]), torch.tensor([3, 4])])
    tensor([[[1, 3],
             [2, 4]]])
    """
    ts = _atleast(_seq("dstack", tensors), 3)
    return _core.cat([ts] if isinstance(ts, Tensor) else list(ts), 2)


def column_stack(tensors):
    """The tensors as columns: 1-D and 0-d ones become `(n, 1)`, then concatenated along dim 1.

    >>> torch.column_stack([torch.tensor([1, 2]), torch.tensor([3, 4])])
    tensor([[1, 3],
            [2, 4]])
    """
    ts = [t.reshape(t.numel(), 1) if t.dim() <= 1 else t for t in _seq("column_stack", tensors)]
    return _core.cat(ts, 1)


def diff(input, n=1, dim=-1, prepend=None, append=None):
    """The `n`-th forward difference along `dim` (`input[i + 1] - input[i]`; xor for bools), with
    `prepend`/`append` concatenated first.

    >>> torch.diff(torch.tensor([1, 3, 6, 10]))
    tensor([2, 3, 4])
    >>> torch.diff(torch.tensor([1, 3, 6, 10]), n=2)
    tensor([1, 1])
    """
    if input.dim() == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    d = _wrap(dim, input.dim())
    parts = [t for t in (prepend, input, append) if t is not None]
    x = _core.cat(parts, d) if len(parts) > 1 else input
    pre = (slice(None),) * d
    for _ in range(n):
        if x.shape[d] == 0:
            break
        hi, lo = x[pre + (slice(1, None),)], x[pre + (slice(0, -1),)]
        x = hi ^ lo if x.dtype is _core.bool else hi - lo
    return x


_MESHGRID_WARNING = (
    "torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument. "
    "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4207.)")


def meshgrid(*tensors, indexing=None):
    """Grids from 1-D tensors: the i-th output varies along dim i (`indexing="ij"`, the default,
    with PyTorch's warning when not given) or with the first two dims swapped (`"xy"`); views.

    >>> a, b = torch.meshgrid(torch.tensor([1, 2]), torch.tensor([3, 4, 5]), indexing="ij")
    >>> b
    tensor([[3, 4, 5],
            [3, 4, 5]])
    """
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing is None:
        warnings.warn(_MESHGRID_WARNING, UserWarning, stacklevel=2)
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}')
    for t in tensors:
        if t.dim() > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: {t}")
    ts = list(tensors)
    swap = indexing == "xy" and len(ts) >= 2
    if swap:
        ts[0], ts[1] = ts[1], ts[0]
    shape = [t.numel() for t in ts]
    out = []
    for i, t in enumerate(ts):
        view = [1] * len(ts)
        view[i] = -1
        out.append(t.reshape(view).expand(shape))
    if swap:
        out[0], out[1] = out[1], out[0]
    return tuple(out)


def cartesian_prod(*tensors):
    """Every combination of one element from each 1-D tensor, as rows (`itertools.product`).

    >>> torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4]))
    tensor([[1, 3],
            [1, 4],
            [2, 3],
            [2, 4]])
    """
    if len(tensors) == 1:
        return tensors[0]
    grids = meshgrid(*tensors, indexing="ij")
    return _core.stack([g.flatten() for g in grids], 1)


def rot90(input, k=1, dims=(0, 1)):
    """`input` rotated by 90 degrees `k` times in the plane of `dims`, from the first towards
    the second.

    >>> torch.rot90(torch.tensor([[1, 2], [3, 4]]))
    tensor([[2, 4],
            [1, 3]])
    """
    dims = list(dims)
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    n = input.dim()
    if n < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {n}")
    d0, d1 = _wrap(dims[0], n), _wrap(dims[1], n)
    if d0 == d1:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {d0} and dim1 = {d1}")
    k = k % 4
    if k == 1:
        return input.flip(d1).transpose(d0, d1)
    if k == 2:
        return input.flip((d0, d1))
    if k == 3:
        return input.flip(d0).transpose(d0, d1)
    return input.clone()


def argwhere(input):
    """The indices of the non-zero elements, one row each (`nonzero`).

    >>> torch.argwhere(torch.tensor([[0, 1], [2, 0]]))
    tensor([[0, 1],
            [1, 0]])
    """
    return _core.nonzero(input)


def _tri_indices(row, col, offset, lower, dtype):
    rows, cols = [], []
    for i in range(row):
        for j in range(col):
            if (j - i <= offset) if lower else (j - i >= offset):
                rows.append(i)
                cols.append(j)
    from ._factories import tensor

    return tensor([rows, cols], dtype=dtype).reshape(2, len(rows))


def triu_indices(row, col, offset=0, *, dtype=None, device=None, layout=None, pin_memory=False):
    """The indices (2 x N, row-major) of the upper triangle of a `row` x `col` matrix, from the
    `offset`-th diagonal.

    >>> torch.triu_indices(3, 3)
    tensor([[0, 0, 0, 1, 1, 2],
            [0, 1, 2, 1, 2, 2]])
    """
    from ._device import _with_default
    from ._layout import _factory_options

    _factory_options("triu_indices", layout, pin_memory, device=device)
    return _tri_indices(row, col, offset, False, dtype or _core.int64).to(_with_default(device) or "cpu")


def tril_indices(row, col, offset=0, *, dtype=None, device=None, layout=None, pin_memory=False):
    """The indices (2 x N, row-major) of the lower triangle of a `row` x `col` matrix, to the
    `offset`-th diagonal.

    >>> torch.tril_indices(3, 3, -1)
    tensor([[1, 2, 2],
            [0, 0, 1]])
    """
    from ._device import _with_default
    from ._layout import _factory_options

    _factory_options("tril_indices", layout, pin_memory, device=device)
    return _tri_indices(row, col, offset, True, dtype or _core.int64).to(_with_default(device) or "cpu")


def positive(input):
    """`input` itself (`+input`); bool tensors are refused.

    >>> torch.positive(torch.tensor([-1., 2.]))
    tensor([-1.,  2.])
    """
    if input.dtype is _core.bool:
        raise NotImplementedError("The `+` operator, on a bool tensor is not supported.")
    return input


def rad2deg(input):
    """Radians to degrees (integers give float32).

    >>> torch.rad2deg(torch.tensor([3.141592653589793, -1.5707963267948966]))
    tensor([180., -90.])
    """
    if input.dtype.is_complex:
        raise NotImplementedError("rad2deg is not supported for complex tensors.")
    if not input.dtype.is_floating_point:
        input = input.float()
    # PyTorch's own node (Rad2DegBackward0) over the product it computes
    return _core._composite("Rad2DegBackward0", lambda t: t * (180.0 / math.pi), [input], [0])


def deg2rad(input):
    """Degrees to radians (integers give float32).

    >>> torch.deg2rad(torch.tensor([180., 90.]))
    tensor([3.1416, 1.5708])
    """
    if input.dtype.is_complex:
        raise NotImplementedError("deg2rad is not supported for complex tensors.")
    if not input.dtype.is_floating_point:
        input = input.float()
    # PyTorch's own node (Deg2RadBackward0) over the product it computes
    return _core._composite("Deg2RadBackward0", lambda t: t * (math.pi / 180.0), [input], [0])


def isneginf(input):
    """Where `input` is -inf (never for integers).

    >>> torch.isneginf(torch.tensor([-float("inf"), 1., float("inf")]))
    tensor([ True, False, False])
    """
    if input.dtype.is_complex:
        raise RuntimeError("isneginf does not support complex inputs.")
    if not input.dtype.is_floating_point:
        return input != input
    return input == -math.inf


def isposinf(input):
    """Where `input` is +inf (never for integers).

    >>> torch.isposinf(torch.tensor([-float("inf"), 1., float("inf")]))
    tensor([False, False,  True])
    """
    if input.dtype.is_complex:
        raise RuntimeError("isposinf does not support complex inputs.")
    if not input.dtype.is_floating_point:
        return input != input
    return input == math.inf


def isreal(input):
    """Where `input` is real: every element of a real tensor, a zero imaginary part of a
    complex one.

    >>> torch.isreal(torch.tensor([1 + 0j, 1 + 1j]))
    tensor([ True, False])
    """
    if not input.dtype.is_complex:
        return (input == input) | (input != input)
    return input.imag == 0


def select(input, dim, index):
    """The slice of `input` at `index` along `dim`, without that dim (a view).

    >>> torch.select(torch.tensor([[1, 2], [3, 4]]), 1, 0)
    tensor([1, 3])
    """
    return input.select(dim, index)


def true_divide(input, other):
    """`input / other` (true division; an alias of `div`).

    >>> torch.true_divide(torch.tensor([1, 3]), 2)
    tensor([0.5000, 1.5000])
    """
    return input / other


def floor_divide(input, other):
    """`input // other`: the quotient rounded down.

    >>> torch.floor_divide(torch.tensor([7, -7]), 2)
    tensor([ 3, -4])
    """
    return input // other


def isin(elements, test_elements, *, assume_unique=False, invert=False):
    """Where each element of `elements` is one of `test_elements` (either may be a number),
    compared in their promoted dtype (NaN is in nothing); `invert=True` gives the opposite. A
    sort and a binary search, without gradient.

    >>> torch.isin(torch.tensor([[1, 2], [3, 4]]), torch.tensor([2, 3]))
    tensor([[False,  True],
            [ True, False]])
    """
    _shell_check(elements, "isin_default_cpu")
    from ._factories import tensor

    e = elements if isinstance(elements, Tensor) else tensor(elements)
    t = test_elements if isinstance(test_elements, Tensor) else tensor(test_elements)
    for d in (e.dtype, t.dtype):
        if d is _core.bool or d.is_complex:
            from ._functions import _SCALAR_NAMES

            raise NotImplementedError(f"Unsupported input type encountered for isin(): {_SCALAR_NAMES[d._name]}")
    e = e.detach()
    s = t.detach().reshape(-1).sort().values
    s = s[: int((s == s).sum())]  # NaN (sorted last) matches nothing; search the rest
    if s.numel() == 0:
        found = e != e
        found = found & ~found
    else:
        idx = s._searchsorted(e, False, False, None).clamp(max=s.numel() - 1)
        found = s[idx] == e
    return ~found if invert else found


def signbit(input):
    """Where the sign bit is set: negative values, -0.0, -inf and negative NaNs (never for
    integers that are not negative, nor for bools).

    >>> torch.signbit(torch.tensor([-0., 0., -1., 2.]))
    tensor([ True, False,  True, False])
    """
    if input.dtype.is_complex:
        raise NotImplementedError("signbit is not implemented for complex tensors.")
    if input.dtype is _core.bool:
        return input != input
    if not input.dtype.is_floating_point:
        if not input.dtype.is_signed:
            return input != input
        return input.detach() < 0
    # the bit itself (NaNs carry one too), read on the host
    from ._factories import from_numpy

    bits = np.signbit(input.detach().float().cpu().numpy())
    return from_numpy(np.ascontiguousarray(bits)).to(input.device)


class finfo:
    """The limits of a floating dtype (float32 by default): `bits`, `eps`, `max`, `min`, `tiny`
    (= `smallest_normal`), `resolution`, `dtype`.

    >>> torch.finfo(torch.float16).max
    65504.0
    >>> torch.finfo()
    finfo(resolution=1e-06, min=-3.40282e+38, max=3.40282e+38, eps=1.19209e-07, smallest_normal=1.17549e-38, tiny=1.17549e-38, dtype=float32)
    """

    def __init__(self, type=None):
        t = _core.float32 if type is None else type
        # a complex dtype's limits are those of its real part
        t = {"complex64": _core.float32, "complex128": _core.float64}.get(t._name, t)
        if not t.is_floating_point:
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle "
                            "'torch.finfo'")
        if t is _core.bfloat16:
            self.bits, self.eps, self.max = 16, 2.0 ** -7, float.fromhex("0x1.fep127")
            self.smallest_normal, self.resolution = 2.0 ** -126, 0.01
        else:
            f = np.finfo({"float16": np.float16, "float32": np.float32, "float64": np.float64}[t._name])
            self.bits, self.eps, self.max = int(f.bits), float(f.eps), float(f.max)
            self.smallest_normal, self.resolution = float(f.smallest_normal), float(f.resolution)
        self.min = -self.max
        self.tiny = self.smallest_normal
        self.dtype = t._name

    def __repr__(self):
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, eps={self.eps:g}, "
                f"smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo:
    """The limits of an integer dtype: `bits`, `min`, `max`, `dtype`.

    >>> torch.iinfo(torch.int32).max
    2147483647
    >>> torch.iinfo(torch.uint8)
    iinfo(min=0, max=255, dtype=uint8)
    """

    def __init__(self, type):
        if type is _core.bool:
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if type.is_floating_point or type.is_complex:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'")
        i = np.iinfo(type._name)
        self.bits, self.min, self.max, self.dtype = int(i.bits), int(i.min), int(i.max), type._name

    def __repr__(self):
        return f"iinfo(min={float(self.min):g}, max={float(self.max):g}, dtype={self.dtype})"


def _install():
    for name in _METHODS:
        setattr(Tensor, name, globals()[name])


_install()
