"""Where a tensor's memory lives: `Tensor.pin_memory()`, `is_pinned()`, `share_memory_()` and
`is_shared()`.

Pinned (page-locked) host memory needs a CUDA driver. Without one, `pin_memory()` raises
PyTorch's error ("Found no NVIDIA driver on your system. ...") and `is_pinned()` is False, as in
PyTorch on a machine without a usable GPU; the deprecated `device` argument warns as PyTorch's.
leafgrad allocates no page-locked memory, so where CUDA is available `pin_memory()` says so
rather than return a copy that is not pinned.

`share_memory_()` moves a CPU tensor's memory into a shared anonymous mapping (`mmap`, kept by
the tensor's storage), which processes forked afterwards share with this one; `is_shared()` says
whether a tensor's memory is in such a mapping (always True for CUDA tensors, as in PyTorch).
The storage's bytes are copied into the mapping and the tensor (and, for a view, its base) is
pointed at it, its size, strides and offset kept; other views of the old memory keep it. The
move is recorded as a write (the version counter moves), where PyTorch swaps the storage in
place."""
import mmap
import warnings
import weakref

import numpy as np

from . import _core
from ._op_helpers import _install, _torch

_NO_DRIVER = ("Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a "
              "driver from http://www.nvidia.com/Download/index.aspx")
_DEPRECATED = ("The argument 'device' of Tensor.{}() is deprecated. Please do not pass this argument. (Triggered "
               "internally at /__w/pytorch/pytorch/aten/src/ATen/native/Memory.cpp:{}.)")

# the shared mappings made here: (first address, length, weak reference to the array over it)
_SHARED = []


def _device_type_name(t):
    kind = "Meta" if t.is_meta else "CUDA" if t.is_cuda else "CPU"
    return f"{kind}{t.dtype._scalar_name}Type"


def _accelerator_error():
    from . import cuda

    why = cuda.unavailable_reason()
    if why is None:
        return RuntimeError("pin_memory: leafgrad has no pinned (page-locked) host memory; copy tensors to the "
                            "device directly")
    if "no NVIDIA driver" in why:
        return RuntimeError(_NO_DRIVER)
    return RuntimeError(f"CUDA is not available: {why}")


def _warn_device(method, line, device):
    if device is not None:
        warnings.warn(_DEPRECATED.format(method, line), DeprecationWarning, stacklevel=3)


def _pin_memory(self, device=None):
    """A copy of the tensor in pinned (page-locked) host memory, for faster copies to a GPU.
    Without an NVIDIA driver there is no pinned memory: PyTorch's error.

    >>> try:
    ...     ok = torch.tensor([1.0]).pin_memory().is_pinned()
    ... except RuntimeError as e:
    ...     ok = torch.cuda.is_available() or "NVIDIA driver" in str(e)
    >>> ok
    True
    """
    _warn_device("pin_memory", 46, device)
    _warn_device("is_pinned", 31, device)  # PyTorch's pin_memory asks is_pinned(device) first
    if device is not None:
        from ._device import device as _device

        if _device(device).type == "cpu":
            raise RuntimeError("CPU device type not an accelerator.")
    if self.is_meta or self.is_cuda:
        raise RuntimeError(f"cannot pin '{_device_type_name(self)}' only dense CPU tensors can be pinned")
    raise _accelerator_error()


def _is_pinned(self, device=None):
    """Whether the tensor is in pinned host memory (never, in leafgrad: see `pin_memory`).

    >>> torch.tensor([1.0]).is_pinned()
    False
    """
    _warn_device("is_pinned", 31, device)
    return False


def _shared_region(address):
    live = []
    found = False
    for start, length, ref in _SHARED:
        if ref() is None:
            continue
        live.append((start, length, ref))
        found = found or start <= address < start + max(length, 1)
    _SHARED[:] = live
    return found


def _is_shared(self):
    """Whether the tensor's memory is shared memory (after `share_memory_`; always True for
    CUDA tensors).

    >>> x = torch.tensor([1.0, 2.0])
    >>> x.is_shared()
    False
    >>> x.share_memory_().is_shared()
    True
    """
    if self.is_cuda:
        return True
    if self.is_meta:
        return False
    return _shared_region(self.untyped_storage().data_ptr())


def _move_to_shared(t):
    """Point `t` at a shared copy of its storage (same size, strides, offset)."""
    from .storage import UntypedStorage

    torch = _torch()
    old = t.untyped_storage()
    nbytes = old.nbytes()
    mapping = mmap.mmap(-1, max(nbytes, 1))
    array = np.frombuffer(mapping, dtype=np.uint8, count=nbytes)
    data = _core.from_numpy(array)
    data.copy_(old._data)
    _SHARED.append((array.ctypes.data, nbytes, weakref.ref(array)))
    with torch.no_grad():
        t.set_(UntypedStorage(data), t.storage_offset(), tuple(t.shape), t.stride())
    return data


def _share_memory_(self):
    """Move the tensor's memory into shared memory (see the module note); a no-op when it is
    there already, and for CUDA tensors. Returns the tensor.

    >>> x = torch.tensor([1.0, 2.0])
    >>> x.share_memory_()
    tensor([1., 2.])
    >>> x.is_shared()
    True
    """
    if self.is_cuda:
        return self
    if self.is_meta:
        raise RuntimeError("_share_fd_: only available on CPU")
    if _is_shared(self):
        return self
    base = self._base
    if base is not None and base.untyped_storage().data_ptr() == self.untyped_storage().data_ptr():
        from .storage import UntypedStorage

        data = _move_to_shared(base)
        with _torch().no_grad():
            self.set_(UntypedStorage(data), self.storage_offset(), tuple(self.shape), self.stride())
        return self
    _move_to_shared(self)
    return self


_install({"pin_memory": _pin_memory, "is_pinned": _is_pinned, "share_memory_": _share_memory_,
          "is_shared": _is_shared})
