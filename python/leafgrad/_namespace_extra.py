"""Top-level names that scripts reach for beside the maths: `asarray`, `frombuffer`,
`typename`, `is_storage`, `get_device`, `is_distributed`, the `has_*` build flags, `newaxis`,
`fill`, `tan_`, `conj_physical`/`conj_physical_`, `chain_matmul`, `frobenius_norm`,
`nuclear_norm`, `empty_permuted`, `adjoint`, `index_put_`, `OutOfMemoryError`, `GradScaler`, and
the functions PyTorch 2.x removed but still names (`solve`, `lstsq`, `symeig`, `matrix_rank`:
each raises PyTorch's RuntimeError saying what replaces it; `Tensor.solve`/`lstsq`/`symeig` too).
"""
from . import _core, _warn
from ._core import OutOfMemoryError, Tensor
from ._op_helpers import _check_tensor, _custom, _torch

__all__ = [
    "asarray", "frombuffer", "typename", "is_storage", "get_device", "is_distributed", "newaxis", "fill", "tan_",
    "conj_physical", "conj_physical_", "chain_matmul", "frobenius_norm", "nuclear_norm", "empty_permuted",
    "adjoint", "index_put_", "OutOfMemoryError", "solve", "lstsq", "symeig", "matrix_rank",
    "has_mkl", "has_lapack", "has_openmp", "has_spectral", "has_cuda", "has_cudnn", "has_mps", "has_mkldnn",
]

OutOfMemoryError.__module__ = "torch"

#: `x[:, torch.newaxis]` adds a dim, as numpy's `newaxis` (it is None).
newaxis = None

# What leafgrad itself has (as `torch.backends.*.is_available()` reports it): LAPACK-level
# linear algebra (through faer) and FFTs, no MKL, OpenMP, oneDNN or cuDNN. `has_cuda` says
# whether the CUDA backend was built in (`torch.cuda.is_available()` says whether it runs).
has_lapack = True
has_spectral = True
has_mkl = False
has_openmp = False
has_mkldnn = False
has_cudnn = False
has_mps = False
has_cuda = True


def typename(obj):
    """The type name PyTorch prints: `'torch.FloatTensor'` for a float32 CPU tensor, the
    qualified class name of anything else.

    >>> torch.typename(torch.ones(1)), torch.typename(torch.nn.Linear(1, 1)), torch.typename(3)
    ('torch.FloatTensor', 'torch.nn.modules.linear.Linear', 'int')
    """
    from .nn.modules.module import _typename

    return _typename(obj)


def is_storage(obj):
    """True for a storage object (`untyped_storage()`, `storage()`), False for anything else.

    >>> torch.is_storage(torch.ones(1).untyped_storage()), torch.is_storage(torch.ones(1))
    (True, False)
    """
    from .storage import TypedStorage, UntypedStorage

    return isinstance(obj, (TypedStorage, UntypedStorage))


def _tensor_arg(fname, input):
    if not isinstance(input, Tensor):
        raise TypeError(f"{fname}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")


def get_device(input):
    """The CUDA device index of a CUDA tensor, -1 for a CPU tensor (`Tensor.get_device()`).

    >>> torch.get_device(torch.ones(1))
    -1
    """
    _tensor_arg("get_device", input)
    return input.get_device()


def is_distributed(input):
    """False: no tensor is distributed in leafgrad (nor, outside its old THD backend, in PyTorch).

    >>> torch.is_distributed(torch.ones(1))
    False
    """
    _tensor_arg("is_distributed", input)
    return False


# ------------------------------------------------------------------------------ asarray, frombuffer

_REQUIRES_GRAD_DEFAULT = (
    "torch.asarray: unspecified requires_grad now defaults to obj.requires_grad instead of False. Pass "
    "requires_grad=False explicitly to get the old behavior and silence this warning. (Triggered internally at "
    "/__w/pytorch/pytorch/torch/csrc/utils/tensor_new.cpp:1908.)")
_BUFFER_NOT_WRITABLE = (
    "The given buffer is not writable, and PyTorch does not support non-writable tensors. This means you can write "
    "to the underlying (supposedly non-writable) buffer using the tensor. You may want to copy the buffer to protect "
    "its data or make it writable before converting it to a tensor. This type of warning will be suppressed for the "
    "rest of this program. (Triggered internally at /__w/pytorch/pytorch/torch/csrc/utils/tensor_new.cpp:1568.)")


class _Writable:
    """A writable numpy view of read-only memory (PyTorch shares it as writable, with a
    warning); it keeps the array that owns the memory alive."""

    def __init__(self, arr):
        self._keep = arr
        iface = dict(arr.__array_interface__)
        iface["data"] = (iface["data"][0], False)
        self.__array_interface__ = iface


def _buffer_tensor(buffer, dtype, count, offset):
    """A 1-D tensor of `dtype` over `buffer`'s memory (no copy), with PyTorch's checks and warning."""
    import numpy as np

    view = memoryview(buffer)
    if view.readonly:  # PyTorch warns on taking the buffer, before checking its length
        _warn.warn_once("frombuffer not writable", _BUFFER_NOT_WRITABLE, UserWarning, stacklevel=3)
    nbytes = view.nbytes
    if nbytes <= 0 or count == 0:
        raise ValueError(f"both buffer length ({nbytes}) and count ({count}) must not be 0")
    if not (0 <= offset < nbytes):
        raise ValueError(f"offset ({offset} bytes) must be non-negative and no greater than buffer length "
                         f"({nbytes} bytes) minus 1")
    elsize = dtype.itemsize
    if count < 0 and (nbytes - offset) % elsize != 0:
        raise ValueError(f"buffer length ({nbytes - offset} bytes) after offset ({offset} bytes) must be a multiple "
                         f"of element size ({elsize})")
    actual = (nbytes - offset) // elsize if count < 0 else count
    if offset + actual * elsize > nbytes:
        raise ValueError(f"requested buffer length ({actual} * {elsize} bytes) after offset ({offset} bytes) must "
                         f"not be greater than actual buffer length ({nbytes} bytes)")
    raw = np.frombuffer(view if view.c_contiguous and view.format == "B" else view.cast("B"), dtype=np.uint8)
    raw = raw[offset:offset + actual * elsize]
    if view.readonly:
        raw = np.asarray(_Writable(raw))
    return _core._storage_view(_core.from_numpy(raw), dtype)


def _buffer_dtype(buffer):
    """The dtype of a buffer's own element format (`'d'` float64, `'B'` uint8, ...)."""
    import numpy as np

    return _core.from_numpy(np.empty(0, np.asarray(memoryview(buffer)).dtype)).dtype


def frombuffer(buffer, *, dtype, count=-1, offset=0, requires_grad=False):
    """A 1-D tensor over the memory of an object with the buffer protocol (`bytearray`,
    `array.array`, `memoryview`, ...): no copy, writes show through both ways. `count`
    elements (all that fit after `offset` bytes when -1).

    >>> buf = bytearray(b'\\x01\\x00\\x02\\x00')
    >>> t = torch.frombuffer(buf, dtype=torch.int16)
    >>> t
    tensor([1, 2], dtype=torch.int16)
    >>> t[0] = 7
    >>> buf[0]
    7
    """
    t = _buffer_tensor(buffer, dtype, int(count), int(offset))
    if requires_grad:
        t.requires_grad_(True)
    return t


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=None):
    """`obj` as a tensor, sharing memory where it can: a tensor itself (the same object when
    dtype and device already match), a numpy array or an object with the buffer protocol
    without a copy; a sequence or a number is copied (as `torch.tensor`). `copy=True` always
    copies, `copy=False` refuses to. `requires_grad` defaults to `obj`'s (with PyTorch's
    one-time warning when that makes the result require grad).

    >>> import numpy as np
    >>> a = np.arange(3.)
    >>> t = torch.asarray(a)
    >>> a[0] = 9
    >>> t
    tensor([9., 1., 2.], dtype=torch.float64)
    >>> x = torch.ones(2)
    >>> torch.asarray(x) is x, torch.asarray([1, 2.5])
    (True, tensor([1.0000, 2.5000]))
    """
    import numpy as np

    torch = _torch()
    tensor = obj if isinstance(obj, Tensor) else None
    rg = requires_grad if requires_grad is not None else (tensor is not None and tensor.requires_grad)
    if rg and requires_grad is None:
        _warn.warn_once("asarray requires_grad", _REQUIRES_GRAD_DEFAULT, UserWarning, stacklevel=2)
    force_copy = bool(copy) if copy is not None else False
    force_alias = copy is not None and not copy
    if tensor is None and isinstance(obj, (np.ndarray, np.generic)):
        scalar = not isinstance(obj, np.ndarray)
        if scalar and force_alias:
            raise RuntimeError("can't alias NumPy scalars. Either remove copy=False or transform it in a ndarray. ")
        tensor = _core.from_numpy(np.asarray(obj))
        if scalar:
            tensor = tensor.clone()
            force_copy = False
    if tensor is None and hasattr(obj, "__dlpack__") and not isinstance(obj, Tensor):
        tensor = torch.from_dlpack(obj)
    if tensor is None and _has_buffer(obj):
        tensor = _buffer_tensor(obj, dtype if dtype is not None else _buffer_dtype(obj), -1, 0)
    if tensor is None:
        if force_alias:
            raise ValueError("can't alias arbitrary sequence into a tensor.")
        t = torch.tensor(obj, dtype=dtype, device=device)
        if rg:
            t.requires_grad_(True)
        return t
    dev = torch.device(device) if device is not None else None
    wrong_device = dev is not None and _device_key(dev) != _device_key(tensor.device)
    wrong_dtype = dtype is not None and dtype != tensor.dtype
    if force_copy or (copy is None and (wrong_device or wrong_dtype)):
        if wrong_device or wrong_dtype:
            tensor = tensor.to(device=dev or tensor.device, dtype=dtype or tensor.dtype, copy=force_copy)
        else:
            tensor = tensor.clone()
    else:
        if wrong_device:
            raise ValueError(f"can't alias tensor from device '{tensor.device}' to '{dev}'.")
        if wrong_dtype:
            from ._op_helpers import _scalar_name

            raise ValueError(f"can't alias tensor with dtype '{_scalar_name(tensor.dtype)}' into dtype "
                             f"'{_scalar_name(dtype)}'.")
    if not tensor.is_leaf and not rg:
        return tensor.detach()
    if tensor.is_leaf:
        tensor.requires_grad_(rg)
    return tensor


def _device_key(d):
    return (d.type, 0 if d.type == "cuda" and d.index is None else d.index)


def _has_buffer(obj):
    try:
        memoryview(obj)
    except TypeError:
        return False
    return True


# ------------------------------------------------------------------------------ small ops


def fill(input, value):
    """A tensor of `input`'s shape, dtype and layout filled with `value` (a number or a 0-d
    tensor, whose gradient is the sum of the result's; `input`'s gradient is zero, recorded as
    FillBackward0 / FillBackward1).

    >>> torch.fill(torch.zeros(2, 2), 3)
    tensor([[3., 3.],
            [3., 3.]])
    """
    _check_tensor("fill", "input", 1, input)
    torch = _torch()
    if isinstance(value, Tensor) and value.dim() != 0:
        raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with {value.dim()} "
                           "dimensions.")
    with torch.no_grad():
        out = torch.empty_like(input).fill_(value)
    if isinstance(value, Tensor):
        # fill.Tensor: no gradient for `input`, the sum of the result's for `value`
        if not (input.requires_grad or value.requires_grad):
            return out
        return _custom("FillBackward1", lambda a, v: out.clone(), lambda g, a, v: (g.new_zeros(a.shape),
                                                                                     g.sum().to(v.dtype)),
                       [input, value])
    if not input.requires_grad:
        return out
    return _custom("FillBackward0", lambda a: out.clone(), lambda g, a: g.new_zeros(a.shape), [input])


def tan_(input):
    """`input.tan_()`: the tangent written into `input`.

    >>> torch.tan_(torch.tensor([0.0]))
    tensor([0.])
    """
    _check_tensor("tan_", "input", 1, input)
    return input.tan_()


def _conj_physical(self):
    if not self.is_complex():
        return self
    return _custom("ConjPhysicalBackward0", lambda a: a.conj().resolve_conj(), lambda g, a: g.conj().resolve_conj(),
                   [self])


def conj_physical(input, *, out=None):
    """The complex conjugate in new memory (no conjugate bit); a real tensor is returned as it
    is (`Tensor.conj_physical()` too).

    >>> torch.conj_physical(torch.tensor([1 + 2j]))
    tensor([1.-2.j])
    """
    _check_tensor("conj_physical", "input", 1, input)
    r = _conj_physical(input)
    if out is not None:
        return out.copy_(r) if out.shape == r.shape else out.resize_(r.shape).copy_(r)
    return r


def _conj_physical_(self):
    def write(s):
        return s.conj().resolve_conj() if s.is_complex() else s.clone()

    from ._op_helpers import _inplace

    return _inplace(self, lambda s: _custom("ConjPhysicalBackward1", write,
                                            lambda g, a: g.conj().resolve_conj() if g.is_complex() else g, [s]))


def conj_physical_(input):
    """`input` conjugated in place (recorded as ConjPhysicalBackward1, real tensors too).

    >>> torch.conj_physical_(torch.tensor([1 - 1j]))
    tensor([1.+1.j])
    """
    _check_tensor("conj_physical_", "input", 1, input)
    return _conj_physical_(input)


_CHAIN_MATMUL = (
    "torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use torch.linalg.multi_dot "
    "instead, which accepts a list of two or more tensors rather than multiple parameters. (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/LinearAlgebra.cpp:1096.)")


def chain_matmul(*matrices, out=None):
    """The product of 2-D tensors in the order that costs least (deprecated in PyTorch, which
    warns once: `torch.linalg.multi_dot` takes a list).

    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     torch.chain_matmul(torch.eye(2), torch.ones(2, 2))
    tensor([[1., 1.],
            [1., 1.]])
    """
    _warn.warn_once("chain_matmul", _CHAIN_MATMUL, UserWarning, stacklevel=2)
    if not matrices:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    if len(matrices) == 1:
        if matrices[0].dim() != 2:
            raise RuntimeError(f"Tensor dimension is {matrices[0].dim()}, expected 2 instead.")
        r = matrices[0].clone()
    else:
        r = _torch().linalg.multi_dot(list(matrices))
    return r if out is None else out.resize_(r.shape).copy_(r)


def _deprecated_norm(name, replacement, line):
    _warn.warn_once(name, f"at::{name} is deprecated and it is just left for JIT compatibility. It will be removed in "
                          f"a future PyTorch release. Please use `{replacement}` instead (Triggered internally at "
                          f"/__w/pytorch/pytorch/aten/src/ATen/native/LinearAlgebra.cpp:{line}.)", UserWarning, 3)


def frobenius_norm(input, dim, keepdim=False, *, out=None):
    """The 2-norm of the elements over `dim` (deprecated: `torch.linalg.vector_norm`).

    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     torch.frobenius_norm(torch.ones(2, 3), (0, 1))
    tensor(2.4495)
    """
    _deprecated_norm("frobenius_norm", "linalg.vector_norm(A, 2., dim, keepdim)", 3242)
    return _torch().linalg.vector_norm(input, 2.0, dim, keepdim, out=out)


def nuclear_norm(input, dim=None, keepdim=False, *, out=None):
    """The nuclear norm (sum of singular values) of a matrix, or of the matrices over `dim`
    (deprecated: `torch.linalg.matrix_norm(A, 'nuc')`). `nuclear_norm(A, keepdim)` as well.

    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     torch.nuclear_norm(torch.eye(2))
    tensor(2.)
    """
    _deprecated_norm("nuclear_norm", "linalg.matrix_norm(A, 'nuc', dim, keepdim)", 3296)
    if isinstance(dim, bool):
        dim, keepdim = None, dim
    if dim is None:
        if input.dim() != 2:
            raise RuntimeError(f"Expected a tensor with 2 dimensions, but got a tensor with {input.dim()} dimension"
                               f"{'' if input.dim() == 1 else 's'} instead.")
        dim = (0, 1)
    return _torch().linalg.matrix_norm(input, "nuc", dim, keepdim, out=out)


def empty_permuted(size, physical_layout, *, dtype=None, layout=None, device=None, requires_grad=False,
                   pin_memory=False):
    """An uninitialised tensor of logical shape `size` whose memory is laid out in the order
    `physical_layout` (outermost dim first): `empty_permuted((2, 3, 4), (0, 2, 1))` has the
    strides of a (2, 4, 3) tensor permuted back.

    >>> torch.empty_permuted((2, 3, 4), (0, 2, 1)).stride()
    (12, 1, 3)
    """
    torch = _torch()
    size = tuple(size)
    perm = tuple(physical_layout)
    if len(size) != len(perm):
        raise RuntimeError("Number of dimensions in size does not match the length of the physical_layout; i.e. "
                           f"len(size) = {len(size)} is not equal to len(physical_layout) = {len(perm)}")
    seen = set()
    for i, p in enumerate(perm):
        if not 0 <= p < len(size):
            raise RuntimeError(f"Dimension out of range (expected to be between 0 and {len(size) - 1}, but got {p} "
                               f"at index {i}).  NB: negative dims not currently supported; file an issue if you "
                               "want it.")
        if p in seen:
            raise RuntimeError("Duplicate dim not allowed")
        seen.add(p)
    inverse = [0] * len(perm)
    for i, p in enumerate(perm):
        inverse[p] = i
    phys = torch.empty([size[p] for p in perm], dtype=dtype, layout=layout, device=device, pin_memory=pin_memory)
    return phys.permute(*inverse).requires_grad_(requires_grad) if requires_grad else phys.permute(*inverse)


def adjoint(input):
    """The conjugate transpose of the last two dims, as a view (`Tensor.adjoint()`).

    >>> torch.adjoint(torch.tensor([[1 + 1j, 2]])).shape
    torch.Size([2, 1])
    """
    _check_tensor("adjoint", "input", 1, input)
    return input.adjoint()


def index_put_(input, indices, values, accumulate=False):
    """`input.index_put_(indices, values, accumulate)`.

    >>> torch.index_put_(torch.zeros(3), (torch.tensor([0, 2]),), torch.tensor(5.), accumulate=True)
    tensor([5., 0., 5.])
    """
    _check_tensor("index_put_", "input", 1, input)
    return input.index_put_(indices, values, accumulate)


# ------------------------------------------------------------------------------ removed in PyTorch 2.x

_SOLVE_REMOVED = (
    "This function was deprecated since version 1.9 and is now removed. `torch.solve` is deprecated in favor of "
    "`torch.linalg.solve`. `torch.linalg.solve` has its arguments reversed and does not return the LU factorization."
    "\n\nTo get the LU factorization see `torch.lu`, which can be used with `torch.lu_solve` or `torch.lu_unpack`.\n"
    "X = torch.solve(B, A).solution should be replaced with:\nX = torch.linalg.solve(A, B)")
_LSTSQ_REMOVED = (
    "This function was deprecated since version 1.9 and is now removed. `torch.lstsq` is deprecated in favor of "
    "`torch.linalg.lstsq`.\n`torch.linalg.lstsq` has reversed arguments and does not return the QR decomposition in "
    "the returned tuple (although it returns other information about the problem).\n\nTo get the QR decomposition "
    "consider using `torch.linalg.qr`.\n\nThe returned solution in `torch.lstsq` stored the residuals of the solution "
    "in the last m - n columns of the returned value whenever m > n. In torch.linalg.lstsq, the residuals are in the "
    "field 'residuals' of the returned named tuple.\n\nThe unpacking of the solution, as in\nX, _ = torch.lstsq(B, A)"
    ".solution[:A.size(1)]\nshould be replaced with:\nX = torch.linalg.lstsq(A, B).solution")
_SYMEIG_REMOVED = (
    "This function was deprecated since version 1.9 and is now removed. The default behavior has changed from using "
    "the upper triangular portion of the matrix by default to using the lower triangular portion.\n\nL, _ = "
    "torch.symeig(A, upper=upper) should be replaced with:\nL = torch.linalg.eigvalsh(A, UPLO='U' if upper else 'L')"
    "\n\nand\n\nL, V = torch.symeig(A, eigenvectors=True) should be replaced with:\nL, V = torch.linalg.eigh(A, "
    "UPLO='U' if upper else 'L')")
_MATRIX_RANK_REMOVED = (
    "This function was deprecated since version 1.9 and is now removed.\nPlease use the `torch.linalg.matrix_rank` "
    "function instead. The parameter 'symmetric' was renamed in `torch.linalg.matrix_rank()` to 'hermitian'.")


def solve(input, A, *, out=None):
    """Removed in PyTorch 2.x: raises PyTorch's RuntimeError pointing to `torch.linalg.solve`.

    >>> try:
    ...     torch.solve(torch.ones(2, 1), torch.eye(2))
    ... except RuntimeError as e:
    ...     print(str(e).splitlines()[-1])
    X = torch.linalg.solve(A, B)
    """
    raise RuntimeError(_SOLVE_REMOVED)


def lstsq(input, A, *, out=None):
    """Removed in PyTorch 2.x: raises PyTorch's RuntimeError pointing to `torch.linalg.lstsq`.

    >>> try:
    ...     torch.lstsq(torch.ones(2, 1), torch.eye(2))
    ... except RuntimeError as e:
    ...     print(str(e).splitlines()[-1])
    X = torch.linalg.lstsq(A, B).solution
    """
    raise RuntimeError(_LSTSQ_REMOVED)


def symeig(input, eigenvectors=False, upper=True, *, out=None):
    """Removed in PyTorch 2.x: raises PyTorch's RuntimeError pointing to `torch.linalg.eigh`.

    >>> try:
    ...     torch.symeig(torch.eye(2))
    ... except RuntimeError as e:
    ...     print(str(e).splitlines()[-1])
    L, V = torch.linalg.eigh(A, UPLO='U' if upper else 'L')
    """
    raise RuntimeError(_SYMEIG_REMOVED)


def matrix_rank(input, tol=None, symmetric=False, *, out=None):
    """Removed in PyTorch 2.x: raises PyTorch's RuntimeError pointing to
    `torch.linalg.matrix_rank`.

    >>> try:
    ...     torch.matrix_rank(torch.eye(2))
    ... except RuntimeError as e:
    ...     print(str(e).splitlines()[0])
    This function was deprecated since version 1.9 and is now removed.
    """
    raise RuntimeError(_MATRIX_RANK_REMOVED)


def _install():
    Tensor.conj_physical = lambda self: _conj_physical(self)
    Tensor.conj_physical_ = lambda self: _conj_physical_(self)
    Tensor.solve = lambda self, other: solve(self, other)
    Tensor.lstsq = lambda self, other: lstsq(self, other)
    Tensor.symeig = lambda self, eigenvectors=False: symeig(self, eigenvectors)
    for name in ("conj_physical", "conj_physical_", "solve", "lstsq", "symeig"):
        getattr(Tensor, name).__name__ = name


_install()
