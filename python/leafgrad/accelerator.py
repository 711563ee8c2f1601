"""`torch.accelerator`: the device-agnostic face of the accelerator leafgrad was built for,
CUDA (as a CUDA build of PyTorch: `current_accelerator()` names CUDA even where no driver or
device is found, `is_available()` says whether one can be used)."""
from . import cuda as _cuda
from ._device import device as _device

__all__ = ["is_available", "current_accelerator", "device_count", "current_device_index", "set_device_index",
           "synchronize", "memory_allocated", "device_index"]


def is_available():
    """Whether the accelerator (CUDA) can be used: a driver and at least one device.

    >>> torch.accelerator.is_available() == torch.cuda.is_available()
    True
    """
    return _cuda.is_available()


def current_accelerator(check_available=False):
    """The accelerator's device type, `device(type='cuda')`; with `check_available=True`,
    None when it cannot be used.

    >>> torch.accelerator.current_accelerator()
    device(type='cuda')
    """
    if check_available and not _cuda.is_available():
        return None
    return _device("cuda")


def device_count():
    """The number of accelerator devices (0 without a driver).

    >>> torch.accelerator.device_count() == torch.cuda.device_count()
    True
    """
    return _cuda.device_count()


def current_device_index():
    """The index of the current accelerator device (0; an error without one).

    >>> torch.accelerator.current_device_index() if torch.accelerator.is_available() else 0
    0
    """
    return _cuda.current_device()


def set_device_index(device):
    """Makes `device` (an index, "cuda:i" or a `torch.device`) the current accelerator device;
    leafgrad has only device 0 current (an error without one).

    >>> if torch.accelerator.is_available():
    ...     torch.accelerator.set_device_index(0)
    """
    from ._device import check_device

    d = check_device(device if not isinstance(device, int) or isinstance(device, bool) else f"cuda:{device}")
    if d.index not in (None, 0):
        raise RuntimeError(f"leafgrad makes only CUDA device 0 current, got {d}")


def synchronize(device=None):
    """Waits for the accelerator's queued work (an error without one).

    >>> if torch.accelerator.is_available():
    ...     torch.accelerator.synchronize()
    """
    _cuda.synchronize(device)


def memory_allocated(device_index=None):
    """Bytes of accelerator memory held by live tensors (0 without a device).

    >>> torch.accelerator.memory_allocated() >= 0
    True
    """
    return _cuda.memory_allocated(device_index)


class device_index:
    """A context manager making `device` (an index; None: no change) the current accelerator
    device for its block.

    >>> with torch.accelerator.device_index(None):
    ...     pass
    """

    def __init__(self, device, /):
        self.idx = device

    def __enter__(self):
        if self.idx is not None:
            set_device_index(self.idx)

    def __exit__(self, *exc):
        return False
