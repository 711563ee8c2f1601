"""`torch.mps` (Apple's Metal GPUs): leafgrad has no MPS backend. `is_available()` is False and
the calls that need the device raise PyTorch's errors for a build without MPS.

>>> torch.mps.is_available(), torch.mps.device_count()
(False, 0)
"""
__all__ = ["is_available", "device_count", "synchronize", "empty_cache", "manual_seed", "seed", "get_rng_state",
           "set_rng_state", "current_allocated_memory", "driver_allocated_memory", "recommended_max_memory",
           "set_per_process_memory_fraction"]


def is_available():
    """False: no MPS backend."""
    return False


def device_count():
    """0: no MPS device."""
    return 0


def _missing(what):
    raise RuntimeError(f"Cannot execute {what}() without MPS backend.")


def synchronize():
    """Raises: no MPS backend."""
    _missing("deviceSynchronize")


def empty_cache():
    """Raises: no MPS backend."""
    _missing("emptyCache")


def current_allocated_memory():
    """Raises: no MPS backend."""
    _missing("getCurrentAllocatedMemory")


def driver_allocated_memory():
    """Raises: no MPS backend."""
    _missing("getDriverAllocatedMemory")


def recommended_max_memory():
    """Raises: no MPS backend."""
    _missing("getRecommendedMaxMemory")


def set_per_process_memory_fraction(fraction):
    """Raises: no MPS backend."""
    _missing("setMemoryFraction")


def manual_seed(seed):
    """Does nothing without MPS (as PyTorch)."""
    return None


def seed():
    """Raises: no MPS backend."""
    _missing("getDefaultGenerator")


def get_rng_state(device="mps"):
    """Raises: no MPS backend."""
    _missing("getDefaultGenerator")


def set_rng_state(new_state, device="mps"):
    """Raises: no MPS backend."""
    _missing("getDefaultGenerator")
