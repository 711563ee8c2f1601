"""`torch.logspace`, `kron`, `tensordot`, `cross`, `diag_embed`, `cdist`, `aminmax`, `bincount`,
`histc` and `histogram`: composed of leafgrad's ops where PyTorch composes them too (so the
graph is PyTorch's: `kron`, `tensordot`, `cdist`'s matrix-product path), recorded as PyTorch's
one node where it has its own kernel (`LinalgCrossBackward0`, `DiagEmbedBackward0`,
`CdistBackward0`: `_core._composite`, whose backward differentiates the composition)."""
import builtins
import math
import warnings

from ._dtypes import shell_check as _shell_check
from . import _core
from ._core import Tensor

__all__ = ["logspace", "kron", "tensordot", "cross", "diag_embed", "cdist", "aminmax", "bincount", "histc",
           "histogram", "mvlgamma"]


def _torch():
    import leafgrad

    return leafgrad


def _user_stacklevel():
    from ._out import user_stacklevel

    return user_stacklevel() - 1  # counted for a warning given by the caller of this helper


def _check_tensor(fn, name, pos, value):
    if not isinstance(value, Tensor):
        raise TypeError(f"{fn}(): argument '{name}' (position {pos}) must be Tensor, not {type(value).__name__}")


def logspace(start, end, steps, base=10.0, *, dtype=None, layout=None, device=None, pin_memory=False,
             requires_grad=False, out=None):
    """`base ** e` for `steps` exponents `e` spaced evenly from `start` to `end`, computed as
    PyTorch's kernel computes them (each exponent from the nearer end, then `pow` in double).

    >>> torch.logspace(-2, 2, 5)
    tensor([1.0000e-02, 1.0000e-01, 1.0000e+00, 1.0000e+01, 1.0000e+02])
    >>> torch.logspace(0, 3, 4, dtype=torch.int64)
    tensor([   1,   10,  100, 1000])
    """
    from ._device import _with_default
    from ._layout import _factory_options

    _factory_options("logspace", layout, pin_memory, device=device)

    torch = _torch()
    device = _with_default(device)
    steps = int(steps)
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    if out is not None:
        from ._factories import _into_out

        return _into_out("logspace", out, dtype, device, requires_grad,
                         lambda dt, dev: logspace(start, end, steps, base, dtype=dt), (steps,), keep_numel=True,
                         args=(start, end, steps))
    dtype = dtype or _core._get_default_dtype()
    start, end, base = float(start), float(end), float(base)
    values = []
    if steps == 1:
        values = [base ** start]
    elif steps > 1:
        # PyTorch's kernel: start and end in the dtype, their difference in the dtype (float32
        # for the 16-bit floats), the step and each exponent (from the nearer end) in double,
        # then pow in double
        integral = not (dtype.is_floating_point or dtype.is_complex)
        rnd = _rounder(dtype)
        if integral:
            s, e = float(math.trunc(start)), float(math.trunc(end))
            diff = e - s
        else:
            s, e = rnd(start), rnd(end)
            diff = _rounder(_core.float64 if dtype._name == "float64" else _core.float32)(e - s)
        step = diff / (steps - 1)
        half = steps // 2
        for i in range(steps):
            x = s + step * i if i < half else e - step * (steps - i - 1)
            values.append(base ** x)
    r = torch.tensor(values, dtype=torch.float64).to(dtype) if values else torch.empty(0, dtype=dtype)
    if device is not None:
        r = r.to(device)
    if requires_grad:
        r.requires_grad_(True)
    return r


def _rounder(dtype):
    """Rounds a Python float to `dtype` (float32 and the 16-bit floats; float64 as is)."""
    import numpy as np

    np_dtype = {"float32": np.float32, "float16": np.float16, "complex64": np.float32}.get(dtype._name)
    if np_dtype is None:
        if dtype._name == "bfloat16":
            torch = _torch()
            return lambda v: torch.tensor(v, dtype=torch.bfloat16).item()
        return float
    return lambda v: float(np_dtype(v))


def kron(input, other, *, out=None):
    """The Kronecker product: every element of `input` times all of `other`, as PyTorch
    composes it (UnsafeViewBackward0 on top).

    >>> torch.kron(torch.tensor([[1., 2.], [3., 4.]]), torch.eye(2))
    tensor([[1., 0., 2., 0.],
            [0., 1., 0., 2.],
            [3., 0., 4., 0.],
            [0., 3., 0., 4.]])
    """
    _check_tensor("kron", "input", 1, input)
    _check_tensor("kron", "other", 2, other)
    nd = builtins.max(input.dim(), other.dim())
    a = input.reshape((1,) * (nd - input.dim()) + tuple(input.shape))
    b = other.reshape((1,) * (nd - other.dim()) + tuple(other.shape))
    # a[i0, 1, i1, 1, ...] * b[1, j0, 1, j1, ...], then the pairs of dims merged
    a_view = a.reshape(tuple(v for s in a.shape for v in (s, 1)))
    b_view = b.reshape(tuple(v for s in b.shape for v in (1, s)))
    shape = tuple(x * y for x, y in zip(a.shape, b.shape))
    r = _core._unsafe_view(a_view * b_view, list(shape))
    if out is not None:
        return out.resize_(r.shape).copy_(r)
    return r


def tensordot(a, b, dims=2, out=None):
    """Sums the products of `a`'s and `b`'s elements over the given dims (`dims` = how many
    trailing/leading dims, or two lists of dims), through one matrix product as PyTorch's.

    >>> torch.tensordot(torch.arange(6.).reshape(2, 3), torch.arange(6.).reshape(3, 2), dims=1)
    tensor([[10., 13.],
            [28., 40.]])
    """
    _check_tensor("tensordot", "a", 1, a)
    _check_tensor("tensordot", "b", 2, b)
    if isinstance(dims, Tensor):
        dims = dims.tolist()
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > builtins.min(a.dim(), b.dim()):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        da, db = list(range(a.dim() - dims, a.dim())), list(range(dims))
    else:
        da, db = dims
        da = [da] if isinstance(da, int) else list(da)
        db = [db] if isinstance(db, int) else list(db)
    if len(da) != len(db):
        raise RuntimeError("both dimension lists should have same length")
    da = [d % a.dim() if a.dim() else d for d in da]
    db = [d % b.dim() if b.dim() else d for d in db]
    for x, y in zip(da, db):
        if a.shape[x] != b.shape[y]:
            raise RuntimeError(
                f"contracted dimensions need to match, but first has size {a.shape[x]} in dim {x} and "
                f"second has size {b.shape[y]} in dim {y}")
    free_a = [d for d in range(a.dim()) if d not in da]
    free_b = [d for d in range(b.dim()) if d not in db]
    size = math.prod(a.shape[d] for d in da)
    left = a.permute(*free_a, *da).reshape(math.prod(a.shape[d] for d in free_a), size)
    right = b.permute(*db, *free_b).reshape(size, math.prod(b.shape[d] for d in free_b))
    r = left.mm(right).reshape(*[a.shape[d] for d in free_a], *[b.shape[d] for d in free_b])
    if out is not None:
        return out.resize_(r.shape).copy_(r)
    return r


def _cross_values(a, b, dim):
    return a.roll(-1, dim) * b.roll(-2, dim) - a.roll(-2, dim) * b.roll(-1, dim)


def cross(input, other, dim=None, *, out=None):
    """The cross product of 3-vectors along `dim` (LinalgCrossBackward0); without `dim`, the
    first dim of size 3, with PyTorch's deprecation warning.

    >>> torch.cross(torch.tensor([1., 0., 0.]), torch.tensor([0., 1., 0.]), dim=0)
    tensor([0., 0., 1.])
    """
    _shell_check(input, "cross")
    _check_tensor("cross", "input", 1, input)
    _check_tensor("cross", "other", 2, other)
    if dim is None:
        warnings.warn(
            "Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the dim "
            "explicitly or simply use torch.linalg.cross.\nThe default value of dim will change to agree with "
            "that of linalg.cross in a future release.", UserWarning, stacklevel=_user_stacklevel())
        sizes = input.shape if input.dim() >= other.dim() else other.shape
        dim = next((i for i, s in enumerate(sizes) if s == 3), None)
        if dim is None:
            raise RuntimeError("no dimension of size 3 in input")
    return linalg_cross(input, other, dim=dim, out=out)


def linalg_cross(input, other, *, dim=-1, out=None):
    """`torch.linalg.cross`: the cross product of 3-vectors along `dim` (broadcasting the others).

    >>> torch.linalg.cross(torch.tensor([[1., 2., 3.]]), torch.tensor([[4., 5., 6.]]))
    tensor([[-3.,  6., -3.]])
    """
    if input.dim() != other.dim():
        raise RuntimeError(
            f"linalg.cross: inputs must have the same number of dimensions. Got {input.dim()} and {other.dim()}")
    nd = input.dim()
    if not -nd <= dim < nd:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-nd}, {nd - 1}], but got {dim})")
    if input.shape[dim] != 3 or other.shape[dim] != 3:
        raise RuntimeError(
            f"linalg.cross: inputs dimension {dim} must have length 3. Got {input.shape[dim]} and {other.shape[dim]}")
    torch = _torch()
    a, b = torch.broadcast_tensors(input, other)
    # bilinear: each operand is read only for the other's gradient (as PyTorch saves them)
    unread = [i for i, other in ((0, b), (1, a)) if not other.requires_grad]
    r = _core._composite("LinalgCrossBackward0", lambda x, y: _cross_values(x, y, dim), [a, b], unread)
    if out is not None:
        return out.resize_(r.shape).copy_(r)
    return r


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """Tensors whose diagonals (`offset`, in dims `dim1`, `dim2` of the result) are `input`'s
    last dim, zeros elsewhere (DiagEmbedBackward0).

    >>> torch.diag_embed(torch.tensor([[1., 2.], [3., 4.]]))
    tensor([[[1., 0.],
             [0., 2.]],
    <BLANKLINE>
            [[3., 0.],
             [0., 4.]]])
    """
    _check_tensor("diag_embed", "input", 1, input)
    nd = input.dim() + 1
    for d in (dim1, dim2):
        if not -nd <= d < nd:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-nd}, {nd - 1}], but got {d})")
    d1, d2 = dim1 % nd, dim2 % nd
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    torch = _torch()

    def fn(x):
        m = x.shape[-1] + builtins.abs(offset)
        sizes = list(x.shape[:-1])
        for d in sorted((d1, d2)):
            sizes.insert(d, m)
        r = torch.zeros(sizes, dtype=x.dtype, device=x.device)
        r.diagonal(offset, d1, d2).copy_(x)
        return r

    return _core._composite("DiagEmbedBackward0", fn, [input], [0])


def _euclidean_dist(x1, x2):
    """PyTorch's `_euclidean_dist`: |x|² - 2 x·y + |y|² through one batched matrix product."""
    torch = _torch()
    x1_norm = x1.pow(2).sum(-1, keepdim=True)
    x2_norm = x2.pow(2).sum(-1, keepdim=True)
    x1_ = torch.cat([x1.mul(-2), x1_norm, torch.ones_like(x1_norm)], -1)
    x2_ = torch.cat([x2, torch.ones_like(x2_norm), x2_norm], -1)
    r = x1_.matmul(x2_.mT)
    return r.clamp_min_(1e-30).sqrt_()


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """The p-norm distance between each row of `x1` and each row of `x2` (batched): for p = 2
    with more than 25 rows on either side, PyTorch's matrix-product form; otherwise one
    CdistBackward0 node (zero distances get a zero gradient).

    >>> torch.cdist(torch.tensor([[0., 0.], [3., 4.]]), torch.tensor([[0., 0.]]))
    tensor([[0.],
            [5.]])
    """
    _check_tensor("cdist", "x1", 1, x1)
    _check_tensor("cdist", "x2", 2, x2)
    if x1.dim() < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X1 got: {x1.dim()}D")
    if x2.dim() < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X2 got: {x2.dim()}D")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(
            f"X1 and X2 must have the same number of columns. X1: {x1.shape[-1]} X2: {x2.shape[-1]}")
    if not p >= 0:
        raise RuntimeError(f"cdist only supports non-negative p values, got {p}")
    modes = {"use_mm_for_euclid_dist_if_necessary": None, "use_mm_for_euclid_dist": True,
             "donot_use_mm_for_euclid_dist": False}
    if compute_mode not in modes:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    torch = _torch()
    r1, r2, c = x1.shape[-2], x2.shape[-2], x1.shape[-1]
    batch = torch.broadcast_shapes(tuple(x1.shape[:-2]), tuple(x2.shape[:-2]))
    mm = modes[compute_mode]
    use_mm = p == 2 and (mm is True or (mm is None and (r1 > 25 or r2 > 25)))
    if use_mm:
        n = math.prod(batch)
        a = x1.expand(*batch, r1, c).reshape(n, r1, c)
        b = x2.expand(*batch, r2, c).reshape(n, r2, c)
        return _euclidean_dist(a, b).view(*batch, r1, r2)
    # (broadcast only where needed: the node saves the inputs themselves, as PyTorch's)
    a = x1 if tuple(x1.shape[:-2]) == tuple(batch) else x1.expand(*batch, r1, c)
    b = x2 if tuple(x2.shape[:-2]) == tuple(batch) else x2.expand(*batch, r2, c)
    return _core._composite("CdistBackward0", lambda x, y: _pairwise_norm(x.unsqueeze(-2) - y.unsqueeze(-3), p),
                            [a, b], saved=["x1", "x2"], result=True)


def _pairwise_norm(diff, p):
    """The p-norm over the last dim, differentiated as PyTorch's cdist backward: zero gradient
    at zero distance, and for p = inf the whole gradient to every coordinate that attains the
    maximum (`M + Σ (|d| - M)·[|d| = M]` with M held constant has that derivative and value M)."""
    if p == 0:
        # vector_norm has no gradient for p = 0 (as PyTorch's); cdist's is zero: a zero-valued
        # term with a zero derivative (finite even where `diff` is not) keeps the inputs in it
        zero = diff.sum(-1).mul(0).nan_to_num(0.0, 0.0, 0.0)
        return _torch().linalg.vector_norm(diff, p, dim=-1) + zero
    if p != math.inf:
        return _torch().linalg.vector_norm(diff, p, dim=-1)
    ad = diff.abs()
    m = ad.amax(-1, keepdim=True).detach()
    return m.squeeze(-1) + ((ad - m) * (ad == m)).sum(-1)


def _named_result(name, fields):
    """A `torch.return_types.<name>`: a tuple whose items are also named fields."""

    def __new__(cls, *values):
        return tuple.__new__(cls, values)

    def __repr__(self):
        return f"torch.return_types.{name}(\n" + ",\n".join(f"{f}={v!r}" for f, v in zip(fields, self)) + ")"

    ns = {"__new__": __new__, "__repr__": __repr__, "__module__": "torch.return_types", "__slots__": ()}
    for i, f in enumerate(fields):
        ns[f] = property(lambda self, i=i: self[i])
    cls = type(name, (tuple,), ns)
    cls.__qualname__ = name
    return cls


_aminmax = _named_result("aminmax", ["min", "max"])


def aminmax(input, *, dim=None, keepdim=False):
    """The minimum and maximum (over everything, or along `dim`) as a `(min, max)` named tuple.

    >>> torch.aminmax(torch.tensor([[1., 5.], [-2., 3.]]), dim=1)
    torch.return_types.aminmax(
    min=tensor([ 1., -2.]),
    max=tensor([5., 3.]))
    """
    _shell_check(input, "aminmax_cpu")
    _check_tensor("aminmax", "input", 1, input)
    if dim is None:
        if input.numel() == 0:
            raise RuntimeError(
                "aminmax(): Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument.")
        lo, hi = input.amin(), input.amax()
        if keepdim:
            shape = (1,) * input.dim()
            lo, hi = lo.reshape(shape), hi.reshape(shape)
        return _aminmax(lo, hi)
    return _aminmax(input.amin(dim, keepdim), input.amax(dim, keepdim))


def bincount(input, weights=None, minlength=0):
    """How often each non-negative integer occurs in a 1-d int tensor (or the sum of `weights`
    at its positions), over at least `minlength` bins.

    >>> torch.bincount(torch.tensor([0, 2, 2, 5]))
    tensor([1, 0, 2, 0, 0, 1])
    """
    _shell_check(input, "bincount_cpu")
    torch = _torch()
    _check_tensor("bincount", "input", 1, input)
    if input.dim() != 1:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if input.is_floating_point() or input.is_complex() or input.dtype == torch.bool:
        raise NotImplementedError(f"\"bincount_cpu\" not implemented for '{_SCALAR_NAMES.get(input.dtype._name, input.dtype._name)}'")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if weights is not None and (weights.dim() != 1 or weights.shape[0] != input.shape[0]):
        raise RuntimeError("weights should be 1-d and have the same length as input")
    if input.numel() and int(input.min()) < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    n = builtins.max(int(input.max()) + 1 if input.numel() else 0, int(minlength))
    idx = input.long()
    if weights is None:
        return torch.zeros(n, dtype=torch.int64, device=input.device).index_add_(0, idx, torch.ones_like(idx))
    wd = weights.dtype if weights.is_floating_point() else torch.float64
    w = weights.detach().to(wd)
    return torch.zeros(n, dtype=wd, device=input.device).index_add_(0, idx, w)


_SCALAR_NAMES = {"float32": "Float", "float64": "Double", "float16": "Half", "bfloat16": "BFloat16",
                 "bool": "Bool", "complex64": "ComplexFloat", "complex128": "ComplexDouble"}


def _bin_positions(x, lo, hi, bins):
    """PyTorch's histogram bin of each element, computed in the input's precision (values at
    `hi` fall in the last bin); elements outside [lo, hi] and NaN are dropped."""
    import numpy as np

    a = x.detach().cpu().numpy().reshape(-1)
    keep = (a >= lo) & (a <= hi)
    a = a[keep]
    dt = a.dtype.type
    pos = ((a - dt(lo)) * dt(bins) / (dt(hi) - dt(lo))).astype(np.int64)
    pos[pos == bins] = bins - 1
    return pos, keep


def histc(input, bins=100, min=0, max=0, *, out=None):
    """A histogram of `bins` equal bins over [min, max] (the data's range when both are 0);
    elements outside are ignored.

    >>> torch.histc(torch.tensor([1., 2., 1.]), bins=4, min=0, max=3)
    tensor([0., 2., 1., 0.])
    """
    _shell_check(input, "aminmax_cpu")
    import numpy as np

    torch = _torch()
    _check_tensor("histc", "input", 1, input)
    if not input.is_floating_point():
        raise RuntimeError(f"\"histogram_cpu\" not implemented for '{_SCALAR_NAMES.get(input.dtype._name, 'Long')}'")
    if bins <= 0:
        raise RuntimeError("torch.histc(): bins must be > 0, but got " + str(bins) + " for dimension 0")
    lo, hi = float(min), float(max)
    if lo == hi and input.numel():
        lo, hi = float(input.min()), float(input.max())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if lo > hi:
        raise RuntimeError(f"torch.histc(): max must be larger than min, but got min {min} max {max}")
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise RuntimeError(f"torch.histc(): range of [{lo}, {hi}] is not finite")
    pos, _ = _bin_positions(input, lo, hi, bins)
    counts = np.bincount(pos, minlength=bins).astype(np.float64)
    r = torch.tensor(counts.tolist(), dtype=input.dtype, device=input.device)
    if out is not None:
        return out.resize_(r.shape).copy_(r)
    return r


_histogram = _named_result("histogram", ["hist", "bin_edges"])


def histogram(input, bins=100, *, range=None, weight=None, density=False, out=None):
    """A histogram with `bins` (100 by default) equal bins over `range` (the data's by
    default), or over the given bin edges: `(hist, bin_edges)`.

    >>> torch.histogram(torch.tensor([1., 2., 1.]), bins=4, range=(0., 3.))
    torch.return_types.histogram(
    hist=tensor([0., 2., 1., 0.]),
    bin_edges=tensor([0.0000, 0.7500, 1.5000, 2.2500, 3.0000]))
    """
    import numpy as np

    torch = _torch()
    _check_tensor("histogram", "input", 1, input)
    a = input.detach().cpu().numpy().reshape(-1)
    w = None if weight is None else weight.detach().cpu().numpy().reshape(-1)
    if isinstance(bins, Tensor):
        edges = bins.detach().cpu().numpy()
    else:
        if range is None:
            lo, hi = (float(a.min()), float(a.max())) if a.size else (0.0, 0.0)
        else:
            lo, hi = float(range[0]), float(range[1])
        if lo > hi:
            raise RuntimeError(f"torch.histogram(): max must be larger than min, but got min {lo} max {hi}")
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        edges = np.array(torch.linspace(lo, hi, int(bins) + 1, dtype=input.dtype).tolist(), dtype=a.dtype)
    n = len(edges) - 1
    keep = (a >= edges[0]) & (a <= edges[-1])
    vals = a[keep]
    pos = np.searchsorted(edges, vals, side="right") - 1
    pos[pos == n] = n - 1
    weights = None if w is None else w[keep]
    hist = np.bincount(pos, weights=weights, minlength=n).astype(np.float64)
    if density:
        hist = hist / (hist.sum() * np.diff(edges.astype(np.float64)))
    h = torch.tensor(hist.tolist(), dtype=input.dtype)
    e = torch.tensor(edges.tolist(), dtype=input.dtype)
    return _histogram(h, e)


def mvlgamma(input, p, *, out=None):
    """The multivariate log-gamma function of dimension `p`:
    `sum(lgamma(input - j / 2) for j < p) + p (p - 1) / 4 · log(π)`, elementwise
    (MvlgammaBackward0); integers compute in the default float dtype.

    >>> torch.mvlgamma(torch.tensor([1.5, 2.0, 3.7]), 2)
    tensor([0.4516, 0.4516, 2.8858])
    """
    _check_tensor("mvlgamma", "input", 1, input)
    p = int(p)
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    x = input if input.dtype.is_floating_point else input.to(_core._get_default_dtype())

    def f(t):
        # PyTorch's composition: lgamma of t + (-(p-1)/2, ..., -1/2, 0), summed, plus the constant
        from ._factories import arange

        shifts = arange(-p * 0.5 + 0.5, 0.5, 0.5, dtype=t.dtype, device=t.device)
        return (shifts + t.unsqueeze(-1)).lgamma().sum(-1) + p * (p - 1) * math.log(math.pi) * 0.25

    r = _core._composite("MvlgammaBackward0", f, [x])
    if out is not None:
        return out.resize_(r.shape).copy_(r)
    return r


def _mvlgamma_(self, p):
    """`mvlgamma` written into self.

    >>> x = torch.tensor([2.5, 3.0])
    >>> x.mvlgamma_(2)
    tensor([0.8570, 1.5502])
    """
    if not self.dtype.is_floating_point:
        from ._gather import _scalar_name

        raise RuntimeError(f"result type Float can't be cast to the desired output type {_scalar_name(self.dtype)}")
    return _core._inplace_apply(self, lambda s: mvlgamma(s, p), [])


Tensor.mvlgamma = lambda self, p: mvlgamma(self, p)
Tensor.mvlgamma.__doc__ = mvlgamma.__doc__  # (Tensor's methods written in Python: _core.pyi)
Tensor.mvlgamma_ = _mvlgamma_
