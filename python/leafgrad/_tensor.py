"""Tensor methods written in Python: printing, conversions to Python and numpy, `to`, and
`backward`. The rest of Tensor lives in the core (src/python/)."""
from . import _core, _tensor_str
from ._core import Tensor
from ._device import CPU, check_device, device


class _NumpyView:
    """Gives numpy a tensor's memory; numpy keeps this object (and so the tensor) alive."""

    __slots__ = ("_t", "__array_interface__")

    def __init__(self, t):
        self._t = t
        self.__array_interface__ = _core._array_interface(t)


def _numpy(self, *, force=False):
    import numpy as np

    if (self.is_cuda or self.is_meta) and not force:
        raise TypeError(
            f"can't convert {self._device} device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first."
        )
    if self.requires_grad and not force and _core.is_grad_enabled():
        raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
    if not force and self.is_complex() and self.is_conj():
        # leafgrad materialises conj() but keeps PyTorch's rule for the conjugate bit
        raise RuntimeError(
            "Can't call numpy() on Tensor that has conjugate bit set. Use tensor.resolve_conj().numpy() instead."
        )
    return np.asarray(_NumpyView(self))


def _array(self, dtype=None, copy=None):
    a = _numpy(self)
    if dtype is not None:
        a = a.astype(dtype, copy=bool(copy))
    elif copy:
        a = a.copy()
    return a


def _values(self):
    """The values as a numpy array, whatever the dtype (bfloat16 has no numpy type) or device."""
    if self.is_meta:
        raise NotImplementedError("Cannot copy out of meta tensor; no data!")
    if self.is_cuda:
        return _values(self.detach()._to_copy(self.dtype, "cpu"))
    if self.dtype is _core.bfloat16:
        return _numpy(self.detach()._to_dtype(_core.float32), force=True)
    return _numpy(self, force=True)


def _tolist(self):
    try:
        values = _values(self)
    except ValueError as e:
        if self.numel() == 0 and "too big" in str(e):
            # nested empty lists too many to build: PyTorch runs out of memory here
            raise MemoryError(f"tolist() of a tensor of shape {tuple(self.shape)}") from None
        raise
    return values.tolist()


def _repr(self, *, tensor_contents=None):
    try:
        gf = self.grad_fn
        gf_name = None if gf is None else type(gf).__name__
    except RuntimeError:
        # a view made under no_grad whose base was written since: its grad_fn is an error to
        # read, and PyTorch prints it as <Invalid>
        gf_name = "Invalid"
    tangent = _core._fw_grad(self) if _core._current_dual_level() >= 0 else None
    if self.is_meta:
        return _tensor_str.format_meta(
            tuple(self.shape),
            self.dtype._name,
            grad_fn=gf_name,
            requires_grad=self.requires_grad,
            tangent=tangent,
        )
    return _tensor_str.format_tensor(
        _values(self),
        self.dtype._name,
        grad_fn=gf_name,
        requires_grad=self.requires_grad,
        device=self._device,
        tangent=tangent,
    )


def _format(self, spec):
    if self.dim() == 0:
        return self.item().__format__(spec)
    if spec:
        raise TypeError("unsupported format string passed to Tensor.__format__")
    return repr(self)


def _iter(self):
    if self.dim() == 0:
        raise TypeError("iteration over a 0-d tensor")
    return (self[i] for i in range(self.shape[0]))


def _to(self, *args, **kwargs):
    """`to(dtype)`, `to(device)`, `to(device, dtype)`, `to(other)`, with copy=/non_blocking=."""
    dtype = kwargs.pop("dtype", None)
    dev = kwargs.pop("device", None)
    copy = kwargs.pop("copy", False)
    kwargs.pop("non_blocking", None)
    kwargs.pop("memory_format", None)
    if kwargs:
        raise TypeError(f"to() got an unexpected keyword argument '{next(iter(kwargs))}'")
    for a in args:
        if isinstance(a, _core.dtype):
            dtype = a
        elif isinstance(a, (str, device)):
            dev = a
        elif isinstance(a, Tensor):
            dtype, dev = a.dtype, a.device
        elif isinstance(a, bool):
            copy = a
        else:
            raise TypeError(f"to() received an invalid combination of arguments - got ({type(a).__name__})")
    if dev is None:
        return self._to_dtype(dtype or self.dtype, copy)
    return self._to_copy(dtype or self.dtype, str(check_device(dev)), copy)


_LEGACY = {
    "float16": "HalfTensor", "bfloat16": "BFloat16Tensor",
    "float32": "FloatTensor", "float64": "DoubleTensor", "int64": "LongTensor", "int32": "IntTensor",
    "bool": "BoolTensor", "uint8": "ByteTensor", "int8": "CharTensor", "int16": "ShortTensor", "uint16": "UInt16Tensor",
    "uint32": "UInt32Tensor", "uint64": "UInt64Tensor", "complex64": "ComplexFloatTensor", "complex128": "ComplexDoubleTensor",
}
_FROM_LEGACY = {"torch." + v: k for k, v in _LEGACY.items()}


def _type(self, dtype=None, non_blocking=False):
    if dtype is None:
        return "torch." + _LEGACY[self.dtype._name]
    if isinstance(dtype, str):
        name = _FROM_LEGACY.get(dtype)
        if name is None:
            raise ValueError(f"invalid type: '{dtype}'")
        dtype = getattr(_core, name)
    elif isinstance(dtype, type) and hasattr(dtype, "_dtype"):
        dtype = dtype._dtype
    return self._to_dtype(dtype)


def _backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
    """Accumulate d(self)/d(leaf) into each leaf's `.grad` (see torch.Tensor.backward)."""
    from . import autograd

    autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)


class _ReturnType(tuple):
    """`torch.return_types.max(values=..., indices=...)`: a tuple with named fields."""

    _name = "max"

    def __new__(cls, values, indices):
        return super().__new__(cls, (values, indices))

    @property
    def values(self):
        return self[0]

    @property
    def indices(self):
        return self[1]

    def __repr__(self):
        return f"torch.return_types.{self._name}(\nvalues={self[0]!r},\nindices={self[1]!r})"


class _MaxResult(_ReturnType):
    _name = "max"


class _MinResult(_ReturnType):
    _name = "min"


def _max(self, dim=None, keepdim=False, *, other=None, keepdims=None):
    keepdim = keepdim if keepdims is None else keepdims
    if isinstance(dim, Tensor):
        return self.maximum(dim)
    if dim is None:
        return self._max_all()
    return _MaxResult(*self._max_dim(dim, keepdim, True))


def _min(self, dim=None, keepdim=False, *, keepdims=None):
    keepdim = keepdim if keepdims is None else keepdims
    if isinstance(dim, Tensor):
        return self.minimum(dim)
    if dim is None:
        return self._min_all()
    return _MinResult(*self._max_dim(dim, keepdim, False))


def _correction(unbiased, correction):
    if correction is not None:
        return float(correction)
    return 1.0 if unbiased in (None, True) else 0.0


def _check_dof(name, t, dim, correction, stacklevel=3):
    """PyTorch's warning when `correction` leaves no degrees of freedom."""
    if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0):
        n = t.numel()
    else:
        dims = dim if isinstance(dim, (tuple, list)) else (dim,)
        n = 1
        for d in dims:  # already checked by the op
            n *= t.shape[d] if t.dim() > 0 else 1
    if n - correction <= 0:
        import warnings

        warnings.warn(
            f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than the "
            "reduction factor (input numel divided by output numel). (Triggered internally at "
            "/__w/pytorch/pytorch/aten/src/ATen/native/ReduceOps.cpp:1927.)",
            UserWarning, stacklevel=stacklevel)


def _var(self, dim=None, unbiased=None, keepdim=False, *, correction=None, keepdims=None):
    keepdim = keepdim if keepdims is None else keepdims
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    out = self._var(dim, _correction(unbiased, correction), keepdim, False)
    _check_dof("var", self, dim, _correction(unbiased, correction))
    return out


def _std(self, dim=None, unbiased=None, keepdim=False, *, correction=None, keepdims=None):
    keepdim = keepdim if keepdims is None else keepdims
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    out = self._var(dim, _correction(unbiased, correction), keepdim, True)
    _check_dof("std", self, dim, _correction(unbiased, correction))
    return out


def _norm(self, p="fro", dim=None, keepdim=False, dtype=None):
    if p in ("fro", None):
        p = 2.0
    elif p == "nuc":
        raise RuntimeError("nuclear norm is not supported by leafgrad")
    if dtype is not None:
        # torch.norm with a dtype is linalg.vector_norm with it (the input cast first)
        from . import linalg

        return linalg.vector_norm(self, float(p), dim, keepdim, dtype=dtype)
    return self._norm(float(p), dim, keepdim)


def _nonzero_method(self, *, as_tuple=False):
    """The indices of the non-zero elements (see `torch.nonzero`)."""
    return _core.nonzero(self, as_tuple=as_tuple)


def _new(fill, name):
    def make(self, *size, dtype=None, layout=None, device=None, pin_memory=False, requires_grad=False):
        from ._factories import full
        from ._layout import _factory_options

        _factory_options(name, layout, pin_memory, device=device or self.device)
        if len(size) == 1 and isinstance(size[0], (tuple, list)):
            size = tuple(size[0])
        return full(size, fill, dtype=dtype or self.dtype, device=device or self.device,
                    requires_grad=requires_grad)

    make.__name__ = make.__qualname__ = name  # Python's own TypeErrors name the method
    return make


def _new_full(self, size, fill_value, *, dtype=None, layout=None, device=None, pin_memory=False,
              requires_grad=False):
    from ._factories import full
    from ._layout import _factory_options

    _factory_options("new_full", layout, pin_memory, device=device or self.device)
    return full(size, fill_value, dtype=dtype or self.dtype, device=device or self.device,
                requires_grad=requires_grad)


def _new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):
    from ._factories import tensor

    return tensor(data, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)


def _legacy_new(self, *args, device=None):
    """The legacy constructor (`x.new(...)`): sizes give a tensor of self's dtype (zero-filled
    in leafgrad, uninitialised in PyTorch), a list or tuple of numbers gives those values in
    self's dtype, a tensor gives itself without history, nothing an empty tensor.

    >>> x = torch.tensor([1, 2])
    >>> x.new(2, 3).shape, x.new([5, 6])
    (torch.Size([2, 3]), tensor([5, 6]))
    """
    from ._factories import tensor, zeros
    from ._size import Size

    dev = self.device if device is None else device
    if len(args) == 1 and isinstance(args[0], Tensor):
        other = args[0]
        if other.dtype != self.dtype:
            raise TypeError(f"expected {_options(self)} (got {_options(other)})")
        return other.detach()
    if len(args) == 1 and isinstance(args[0], (list, tuple)) and not isinstance(args[0], Size):
        return tensor(args[0], dtype=self.dtype, device=dev)
    if not args:
        args = (0,)
    elif len(args) == 1 and isinstance(args[0], Size):
        args = tuple(args[0])
    return zeros(args, dtype=self.dtype, device=dev)


_CPP_NAMES = {
    "float32": "float", "float64": "double", "float16": "c10::Half", "bfloat16": "c10::BFloat16",
    "int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char", "uint8": "unsigned char",
    "bool": "bool",
    "complex64": "c10::complex<float>", "complex128": "c10::complex<double>",
}


def _options(t):
    """PyTorch's printed TensorOptions of a tensor (in `Tensor.new`'s dtype error)."""
    return (f"TensorOptions(dtype={_CPP_NAMES[t.dtype._name]}, device={t.device}, layout=Strided, "
            "requires_grad=false (default), pinned_memory=false (default), memory_format=(nullopt))")


def _is_set_to(self, tensor):
    """Whether both tensors view the same memory with the same sizes and strides.

    >>> x = torch.zeros(2)
    >>> x.is_set_to(x[:]), x.is_set_to(torch.zeros(2))
    (True, False)
    """
    return (self.data_ptr() == tensor.data_ptr() and self.device == tensor.device
            and tuple(self.shape) == tuple(tensor.shape) and self.stride() == tensor.stride())


def _is_coalesced(self):
    """A sparse COO tensor's coalesced flag; leafgrad's tensors are strided, so PyTorch's error."""
    raise RuntimeError("is_coalesced expected sparse coordinate tensor layout but got Strided")


def _to_dense(self, dtype=None, *, masked_grad=None):
    """The tensor in the strided (dense) layout: itself, as every leafgrad tensor is strided (in
    `dtype` if given, a differentiable copy).

    >>> x = torch.tensor([1., 2.])
    >>> x.to_dense() is x, x.is_sparse
    (True, False)
    """
    return self if dtype is None or dtype == self.dtype else self.to(dtype)


def _type_as(self, other):
    """Self in `other`'s dtype and on its device (self when already so).

    >>> torch.tensor([1.5]).type_as(torch.tensor([1]))
    tensor([1])
    """
    return self.to(device=other.device, dtype=other.dtype)


def _strides(self):
    return None if self.is_contiguous() else list(self.stride())


def _fill_random(self, values, kind, p=None):
    """Write freshly drawn `values` into self: an in-place op (PyTorch's leaf and version rules)
    recorded as PyTorch's node for the fill `kind` (UniformBackward0, ...)."""
    return self._write_drawn(values, kind, p)


def _uniform_(self, from_=0.0, to=1.0, *, generator=None, **kw):
    """Fill with samples from U(from, to) in place: PyTorch's numbers for a seed.

    >>> g = torch.Generator().manual_seed(0)
    >>> torch.empty(3).uniform_(-1, 1, generator=g)
    tensor([-0.0075,  0.5364, -0.8230])
    """
    from_ = kw.pop("from", from_)
    if kw:
        raise TypeError(f"uniform_() got an unexpected keyword argument '{next(iter(kw))}'")
    _check_uniform_bounds(self.dtype, from_, to)
    return _fill_random(self, _core._draw("uniform", tuple(self.shape), _strides(self), self.dtype, float(from_), float(to), generator, device=self.device), "uniform")


_UNIFORM_LIMITS = {  # real dtype: (largest finite value, C++ type name, ScalarType name)
    "float32": (3.4028234663852886e38, "float", "Float"),
    "float64": (1.7976931348623157e308, "double", "Double"),
    "float16": (65504.0, "c10::Half", "Half"),
    "bfloat16": (3.3895313892515355e38, "c10::BFloat16", "BFloat16"),
}


def _check_uniform_bounds(dtype, from_, to):
    """PyTorch's checks of uniform_'s range for `dtype` (a complex dtype: its real part's)."""
    name = {"complex64": "float32", "complex128": "float64"}.get(dtype._name, dtype._name)
    if name not in _UNIFORM_LIMITS:
        return  # integer dtypes: the kernel refuses them ("check_uniform_bounds" not implemented)
    top, cpp, scalar = _UNIFORM_LIMITS[name]
    for what, v in (("from", from_), ("to", to)):
        if not -top <= v <= top:  # NaN and infinities too
            raise RuntimeError(f"{what} is out of bounds for {cpp}")
    if from_ > to:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={_num(from_)} > to={_num(to)}")
    if to - from_ > top:
        raise RuntimeError(f"uniform_ expects to-from <= std::numeric_limits<{scalar}>::max(), but found "
                           f"to={to:g} and from={from_:g} which result in to-from to exceed the limit")


def _num(v):
    return int(v) if float(v).is_integer() else v


def _normal_(self, mean=0.0, std=1.0, *, generator=None):
    """Fill with samples from N(mean, std²) in place: PyTorch's numbers for a seed.

    >>> g = torch.Generator().manual_seed(0)
    >>> torch.empty(3).normal_(generator=g)
    tensor([ 1.5410, -0.2934, -2.1788])
    """
    return _fill_random(self, _core._draw("normal", tuple(self.shape), _strides(self), self.dtype, float(mean), float(std), generator, device=self.device), "normal")


def _random_(self, from_=None, to=None, *, generator=None, **kw):
    """Fill in place with integers from [from, to): `random_(to)` is [0, to); `random_()` is
    [0, 2**mantissa] for floats and the whole non-negative range for integers.

    >>> g = torch.Generator().manual_seed(0)
    >>> torch.empty(4).random_(10, generator=g)
    tensor([4., 9., 3., 0.])
    """
    if "from" in kw:
        from_ = kw.pop("from")
    if kw:
        raise TypeError(f"random_() got an unexpected keyword argument '{next(iter(kw))}'")
    if from_ is None and to is None:
        return _fill_random(self, _core._draw("random", tuple(self.shape), _strides(self), self.dtype, generator=generator, device=self.device), "random")
    if to is None:
        lo, hi = 0, from_
    else:
        lo, hi = from_, to
    from ._factories import _check_from_to, _int64

    lo, hi = _int64(lo), _int64(hi)
    if lo < hi:
        _check_from_to(self.dtype, lo, hi)
    kind = "random_to" if to is None else "random_from_to"
    return _fill_random(self, _core._draw("randint", tuple(self.shape), _strides(self), self.dtype, int(lo), int(hi), generator, device=self.device), kind)


def _bernoulli_(self, p=0.5, *, generator=None):
    """Fill in place with zeros and ones, 1 with probability `p` (a number, or a tensor of
    probabilities broadcast to self).

    >>> g = torch.Generator().manual_seed(0)
    >>> torch.empty(6).bernoulli_(0.5, generator=g)
    tensor([0., 0., 1., 0., 0., 0.])
    """
    if isinstance(p, Tensor):
        return _fill_random(self, _core._bernoulli_tensor(p.to(self.device).expand(self.shape).contiguous(), generator), "bernoulli_tensor", p)
    return _fill_random(self, _core._draw("bernoulli", tuple(self.shape), _strides(self), self.dtype, float(p), generator=generator, device=self.device), "bernoulli")


def _bernoulli(self, p=None, *, generator=None):
    """Zeros and ones drawn with the probabilities in self (or `p`), self's dtype and shape.

    >>> g = torch.Generator().manual_seed(0)
    >>> torch.tensor([0.0, 1.0, 0.5, 0.5]).bernoulli(generator=g)
    tensor([0., 1., 1., 1.])
    """
    if p is not None:
        r = _core._draw("bernoulli", tuple(self.shape), None, self.dtype, float(p), generator=generator,
                       device=self.device)
    else:
        r = _core._bernoulli_tensor(self, generator)
    # drawn on the host (from the device's generator for a CUDA tensor), then moved
    r = r if self.device.type == "cpu" else r.to(self.device)
    if p is None:  # zero gradient to the probabilities, as PyTorch's
        _core._zero_gradient([self], r, "BernoulliBackward0")
    else:  # self only gives the shape: PyTorch has no derivative there
        _core._no_derivative(self, r, "torch::autograd::NotImplemented", "bernoulli")
    return r


def _exponential_(self, lambd=1.0, *, generator=None):
    """Fill in place with samples of the exponential distribution of rate `lambd`.

    >>> g = torch.Generator().manual_seed(0)
    >>> torch.empty(3).exponential_(generator=g)
    tensor([3.5083, 1.2304, 0.6150])
    """
    return _fill_random(self, _core._draw("exponential", tuple(self.shape), _strides(self), self.dtype, float(lambd), generator=generator, device=self.device), "exponential")


def _cauchy_(self, median=0.0, sigma=1.0, *, generator=None):
    """Fill in place with samples of the Cauchy distribution (location `median`, scale
    `sigma`): PyTorch's numbers for a seed.

    >>> g = torch.Generator().manual_seed(0)
    >>> torch.empty(3).cauchy_(generator=g)
    tensor([ 2.3954, -1.4413,  0.3393])
    """
    return _fill_random(self, _core._draw("cauchy", tuple(self.shape), _strides(self), self.dtype, float(median), float(sigma), generator, device=self.device), "cauchy")


def _log_normal_(self, mean=1.0, std=2.0, *, generator=None):
    """Fill in place with samples of exp(N(mean, std²)): PyTorch's numbers for a seed.

    >>> g = torch.Generator().manual_seed(0)
    >>> torch.empty(3).log_normal_(generator=g)
    tensor([2.1871, 2.0127, 3.6451])
    """
    return _fill_random(self, _core._draw("log_normal", tuple(self.shape), _strides(self), self.dtype, float(mean), float(std), generator, device=self.device), "log_normal")


def _geometric_(self, p, *, generator=None):
    """Fill in place with samples of the geometric distribution: the number of Bernoulli(p)
    trials up to the first success (integer dtypes too).

    >>> g = torch.Generator().manual_seed(0)
    >>> torch.empty(4, dtype=torch.int64).geometric_(0.5, generator=g)
    tensor([2, 1, 1, 1])
    """
    return _fill_random(self, _core._draw("geometric", tuple(self.shape), _strides(self), self.dtype, float(p), generator=generator, device=self.device), "geometric")


def _cuda(self, device=None, non_blocking=False, memory_format=None):
    """A copy on a CUDA device (ToCopyBackward0 when self requires grad); self if already there."""
    d = check_device("cuda" if device is None else (f"cuda:{device}" if isinstance(device, int) else device))
    return self._to_copy(self.dtype, str(d))


def _cpu(self, memory_format=None):
    """A copy in host memory (ToCopyBackward0 when self requires grad); self if already there."""
    return self._to_copy(self.dtype, "cpu")


def _flip_method(self, *dims):
    """`x.flip(0, 1)` or `x.flip((0, 1))`."""
    from . import _composites

    if len(dims) == 1 and not isinstance(dims[0], int):
        dims = dims[0]
    return _composites.flip(self, dims)


def _volatile(self):
    """Always False: the old Variable flag, with PyTorch's warning."""
    import warnings

    warnings.warn("volatile was removed (Variable.volatile is always False)", UserWarning, stacklevel=2)
    return False


def _install():
    T = Tensor
    T.__repr__ = _repr
    T.__str__ = _repr
    T.__format__ = _format
    T.__iter__ = _iter
    T.__array__ = _array
    T.__array_priority__ = 1000
    T.numpy = _numpy
    T.tolist = _tolist
    T.to = _to
    T.type = _type
    T.backward = _backward
    T.max = _max
    T.min = _min
    T.var = _var
    T.std = _std
    T.norm = _norm
    T.nonzero = _nonzero_method
    from . import _composites as C

    for name in ("diag", "trace", "tril", "triu", "roll", "angle"):
        setattr(T, name, getattr(C, name))
    T.flip = _flip_method
    T.clip_ = T.clamp_
    T.new_zeros = _new(0, "new_zeros")
    T.new_ones = _new(1, "new_ones")
    T.new_empty = _new(0, "new_empty")
    T.new_full = _new_full
    T.new_tensor = _new_tensor
    for f in (_new_full, _new_tensor):
        f.__qualname__ = f.__name__ = f.__name__[1:]
    T.new = _legacy_new
    T.type_as = _type_as
    T.to_dense = _to_dense
    T.is_sparse = property(lambda self: False, doc="Whether the tensor is sparse: False, leafgrad's tensors are strided.")
    T.is_sparse_csr = property(lambda self: False, doc="Whether the tensor is in a compressed sparse layout: False.")
    for kind in ("xpu", "ipu", "maia", "mtia", "mps", "xla", "vulkan", "mkldnn", "nested", "quantized"):
        setattr(T, f"is_{kind}", property(lambda self: False,
                                          doc=f"Whether the tensor is {kind}: False, leafgrad has no such tensors."))
    T.is_distributed = lambda self: False
    T.is_set_to = _is_set_to
    T.is_coalesced = _is_coalesced
    T.is_neg = lambda self: False
    T.resolve_neg = lambda self: self
    T.half = lambda self: self._to_dtype(_core.float16)
    T.bfloat16 = lambda self: self._to_dtype(_core.bfloat16)
    T.cpu = _cpu
    T.cuda = _cuda
    T.uniform_ = _uniform_
    T.normal_ = _normal_
    T.random_ = _random_
    T.bernoulli_ = _bernoulli_
    T.bernoulli = _bernoulli
    T.exponential_ = _exponential_
    T.cauchy_ = _cauchy_
    T.log_normal_ = _log_normal_
    T.geometric_ = _geometric_
    from . import _functions as F

    for name in ("eq", "ne", "lt", "le", "gt", "ge", "greater", "greater_equal", "less", "less_equal",
                 "not_equal", "isinf", "isfinite", "isclose", "logical_and", "logical_or", "logical_xor",
                 "equal", "allclose", "isnan"):
        if not hasattr(T, name):
            setattr(T, name, getattr(F, name))
    T.hardshrink = lambda self, lambd=0.5: F.hardshrink(self, lambd)
    T.prelu = lambda self, weight: F.prelu(self, weight)
    T.volatile = property(_volatile)
    T.arctan2 = lambda self, other: self.atan2(other)
    T.arctan2_ = lambda self, other: self.atan2_(other)
    T.arcsin = lambda self: self.asin()
    T.arcsin_ = lambda self: self.asin_()
    T.arccos = lambda self: self.acos()
    T.arccos_ = lambda self: self.acos_()
    T.arctan = lambda self: self.atan()
    T.arctan_ = lambda self: self.atan_()
    T.arcsinh = lambda self: self.asinh()
    T.arcsinh_ = lambda self: self.asinh_()
    T.arccosh = lambda self: self.acosh()
    T.arccosh_ = lambda self: self.acosh_()
    T.arctanh = lambda self: self.atanh()
    T.arctanh_ = lambda self: self.atanh_()
    from . import _math_extra as M

    T.kron = lambda self, other: M.kron(self, other)
    T.cross = lambda self, other, dim=None: M.cross(self, other, dim)
    T.diag_embed = lambda self, offset=0, dim1=-2, dim2=-1: M.diag_embed(self, offset, dim1, dim2)
    T.aminmax = lambda self, *, dim=None, keepdim=False: M.aminmax(self, dim=dim, keepdim=keepdim)
    T.bincount = lambda self, weights=None, minlength=0: M.bincount(self, weights, minlength)
    T.histc = lambda self, bins=100, min=0, max=0: M.histc(self, bins, min, max)
    T.histogram = lambda self, bins=100, *, range=None, weight=None, density=False: M.histogram(
        self, bins, range=range, weight=weight, density=density)
    from . import _math_scan as S

    T.cummax = lambda self, dim: S.cummax(self, dim)
    T.cummin = lambda self, dim: S.cummin(self, dim)
    T.logcumsumexp = lambda self, dim: S.logcumsumexp(self, dim)
    T.quantile = lambda self, q, dim=None, keepdim=False, *, interpolation="linear": S.quantile(
        self, q, dim, keepdim, interpolation=interpolation)
    T.nanquantile = lambda self, q, dim=None, keepdim=False, *, interpolation="linear": S.nanquantile(
        self, q, dim, keepdim, interpolation=interpolation)
    T.mode = lambda self, dim=-1, keepdim=False: S.mode(self, dim, keepdim)
    T.fix = lambda self: self.trunc()
    T.fix_ = lambda self: self.trunc_()
    from ._sampling import multinomial

    T.multinomial = lambda self, num_samples, replacement=False, *, generator=None: multinomial(
        self, num_samples, replacement, generator=generator)
    T.device = property(lambda self: CPU if self._device == "cpu" else device(self._device))
    T.is_meta = property(lambda self: self._device == "meta")
    T.__module__ = "leafgrad"


_install()
