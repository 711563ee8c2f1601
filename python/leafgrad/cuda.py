"""`torch.cuda`: the CUDA devices leafgrad can use.

The wheel imports and runs everywhere: without an NVIDIA driver or device, `is_available()` is
False, `unavailable_reason()` says why, and moving a tensor to CUDA raises a RuntimeError with
that reason. Kernels are compiled by NVRTC at first use; NVRTC and cuBLAS come from the system's
CUDA or from PyPI (`pip install leafgrad[cuda]`: nvidia-cuda-nvrtc-cu12, nvidia-cublas-cu12).
"""
import ctypes
import glob
import os
import sys

from . import _core
from ._core import OutOfMemoryError  # noqa: F401  (torch.cuda.OutOfMemoryError is torch.OutOfMemoryError)

_PRELOADED = False


def _preload_libraries():
    """Load PyPI's NVRTC and cuBLAS (if installed) so the backend finds them by name."""
    global _PRELOADED
    if _PRELOADED:
        return
    _PRELOADED = True
    patterns = ("cuda_nvrtc/lib/libnvrtc.so.*", "cublas/lib/libcublasLt.so.*", "cublas/lib/libcublas.so.*")
    for base in sys.path:
        root = os.path.join(base, "nvidia")
        if not os.path.isdir(root):
            continue
        for pat in patterns:
            for lib in sorted(glob.glob(os.path.join(root, pat))):
                if "builtins" in lib or ".alt." in lib:
                    continue
                try:
                    ctypes.CDLL(lib, mode=ctypes.RTLD_GLOBAL)
                except OSError:
                    pass


def _status():
    _preload_libraries()
    return _core._cuda_status()


def is_available():
    """Whether a CUDA driver and at least one device can be used.

    >>> isinstance(torch.cuda.is_available(), bool)
    True
    """
    return _status()[0]


def device_count():
    """The number of CUDA devices (0 without a driver).

    >>> torch.cuda.device_count() >= 0
    True
    """
    return _status()[1]


def unavailable_reason():
    """Why CUDA cannot be used (None when it can). leafgrad only.

    >>> r = torch.cuda.unavailable_reason()
    >>> r is None or isinstance(r, str)
    True
    """
    return _status()[2]


def _lazy_init():
    ok, _, why = _status()
    if not ok:
        from ._tensor_memory import _NO_DRIVER

        # PyTorch's text without a driver; leafgrad's reason otherwise
        raise RuntimeError(_NO_DRIVER if "no NVIDIA driver" in why else f"CUDA is not available: {why}")


def current_device():
    """The index of the current device (always 0: leafgrad has no device switching).

    >>> torch.cuda.current_device() if torch.cuda.is_available() else 0
    0
    """
    _lazy_init()
    return 0


def _index(device):
    if device is None:
        return 0
    if isinstance(device, int):
        return device
    from ._device import device as _device

    d = _device(device)
    return 0 if d.index is None else d.index


def get_device_name(device=None):
    """The device's marketing name, e.g. 'NVIDIA H100 80GB HBM3'.

    >>> isinstance(torch.cuda.get_device_name() if torch.cuda.is_available() else "", str)
    True
    """
    _lazy_init()
    return _core._cuda_device_properties(_index(device))[0]


def get_device_capability(device=None):
    """The device's compute capability as (major, minor).

    >>> len(torch.cuda.get_device_capability() if torch.cuda.is_available() else (8, 0))
    2
    """
    _lazy_init()
    return tuple(_core._cuda_device_properties(_index(device))[1])


def synchronize(device=None):
    """Wait for every kernel queued on the device.

    >>> if torch.cuda.is_available():
    ...     torch.cuda.synchronize()
    """
    _lazy_init()
    _core._cuda_synchronize(_index(device))


def memory_allocated(device=None):
    """Bytes of device memory held by live tensors (leafgrad counts exact buffer sizes; PyTorch's
    caching allocator rounds them up).

    >>> torch.cuda.memory_allocated() >= 0
    True
    """
    if not is_available():
        return 0
    return _core._cuda_memory_allocated()


def _generator(device=None):
    """The default generator of `device` (an index, a name, a torch.device; None: the current
    device), CUDA being available."""
    _lazy_init()
    return _core._cuda_default_generator(_index(device))


def __getattr__(name):
    # `torch.cuda.default_generators`: one per device, () without CUDA (as PyTorch's before
    # its lazy initialisation)
    if name == "default_generators":
        if not is_available():
            return ()
        return tuple(_core._cuda_default_generator(i) for i in range(device_count()))
    raise AttributeError(f"module 'leafgrad.cuda' has no attribute '{name}'")


def manual_seed(seed):
    """Seed the current device's generator (its Philox offset back to 0). Without CUDA this
    does nothing, as in PyTorch.

    >>> torch.cuda.manual_seed(0)
    """
    seed = int(seed)
    if is_available():
        _generator().manual_seed(seed)


def manual_seed_all(seed):
    """Seed every device's generator (`torch.manual_seed` calls this too).

    >>> torch.cuda.manual_seed_all(0)
    """
    seed = int(seed)
    if is_available():
        for i in range(device_count()):
            _core._cuda_default_generator(i).manual_seed(seed)


def seed():
    """Seed the current device's generator from the operating system (returns None, as
    PyTorch's does).

    >>> torch.cuda.seed()
    """
    if is_available():
        _generator().seed()


def seed_all():
    """Seed every device's generator with one seed from the operating system.

    >>> torch.cuda.seed_all()
    """
    if is_available():
        s = _core._cuda_default_generator(0).seed()
        for i in range(1, device_count()):
            _core._cuda_default_generator(i).manual_seed(s)


def initial_seed():
    """The seed of the current device's generator.

    >>> if torch.cuda.is_available():
    ...     torch.cuda.manual_seed(3)
    ...     assert torch.cuda.initial_seed() == 3
    """
    return _generator().initial_seed()


def get_rng_state(device="cuda"):
    """A device generator's state: PyTorch's 16 bytes (the seed, then the Philox offset), a
    CPU `torch.uint8` tensor that loads in PyTorch's `set_rng_state` and back.

    >>> if torch.cuda.is_available():
    ...     s = torch.cuda.get_rng_state()
    ...     a = torch.rand(3, device="cuda")
    ...     torch.cuda.set_rng_state(s)
    ...     assert torch.equal(a, torch.rand(3, device="cuda"))
    """
    return _generator(device).get_state()


def get_rng_state_all():
    """Every device generator's state, in device order.

    >>> len(torch.cuda.get_rng_state_all()) == torch.cuda.device_count()
    True
    """
    return [get_rng_state(i) for i in range(device_count())] if is_available() else []


def set_rng_state(new_state, device="cuda"):
    """Load a device generator's state from `get_rng_state` (PyTorch's or leafgrad's).

    >>> if torch.cuda.is_available():
    ...     torch.cuda.set_rng_state(torch.cuda.get_rng_state())
    """
    _generator(device).set_state(new_state.clone())


def set_rng_state_all(new_states):
    """Load every device generator's state (a sequence in device order).

    >>> torch.cuda.set_rng_state_all(torch.cuda.get_rng_state_all())
    """
    for i, state in enumerate(new_states):
        set_rng_state(state, i)
