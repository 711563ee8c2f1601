"""`torch.random`: the default generator and its state. leafgrad's CPU generator is PyTorch's
(mt19937, with PyTorch's conversions), so a seed gives PyTorch's numbers and a state from
`torch.get_rng_state()` loads in either. `manual_seed` and `seed` also seed every CUDA device's
generator (`leafgrad.cuda`), as PyTorch's do."""
import contextlib
import warnings

from . import _core
from ._core import Generator

__all__ = ["Generator", "default_generator", "fork_rng", "get_rng_state", "initial_seed",
           "manual_seed", "seed", "set_rng_state"]

default_generator = _core._default_generator()


def manual_seed(seed):
    """Seed the default generator; returns it. The same seed gives PyTorch's numbers.

    >>> _ = torch.manual_seed(0)
    >>> torch.rand(3)
    tensor([0.4963, 0.7682, 0.0885])
    """
    seed = int(seed)
    g = default_generator.manual_seed(seed)
    from . import cuda

    cuda.manual_seed_all(seed)
    return g


def seed():
    """Seed the default generator from the operating system; returns the seed.

    >>> s = torch.seed()
    >>> torch.initial_seed() == s
    True
    """
    s = default_generator.seed()
    from . import cuda

    cuda.manual_seed_all(s)
    return s


def initial_seed():
    """The seed the default generator was last seeded with.

    >>> _ = torch.manual_seed(7)
    >>> torch.initial_seed()
    7
    """
    return default_generator.initial_seed()


def get_rng_state():
    """The default generator's state: PyTorch's 5056-byte `torch.uint8` tensor.

    >>> s = torch.get_rng_state()
    >>> a = torch.rand(2)
    >>> _ = torch.set_rng_state(s)
    >>> torch.equal(a, torch.rand(2))
    True
    """
    return default_generator.get_state()


def set_rng_state(new_state):
    """Load the default generator's state from `get_rng_state()` (PyTorch's or leafgrad's).

    >>> _ = torch.manual_seed(0)
    >>> s = torch.get_rng_state()
    >>> _ = torch.rand(100)
    >>> torch.set_rng_state(s)
    >>> torch.rand(1)
    tensor([0.4963])
    """
    default_generator.set_state(new_state)


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices", device_type="cuda"):
    """Run a block and restore the default generator's state after it, and those of the CUDA
    devices in `devices` (None: every device).

    >>> _ = torch.manual_seed(0)
    >>> with torch.random.fork_rng():
    ...     _ = torch.rand(5)
    >>> torch.rand(1)
    tensor([0.4963])
    """
    if not enabled:
        yield
        return
    if device_type not in ("cuda", "cpu", "meta"):
        warnings.warn(f"fork_rng: leafgrad has no generator for device type {device_type!r}", stacklevel=3)
    from . import cuda

    if device_type == "cuda" and cuda.is_available():
        devices = list(range(cuda.device_count()) if devices is None else devices)
    else:
        devices = []
    state = get_rng_state()
    device_states = [cuda.get_rng_state(d) for d in devices]
    try:
        yield
    finally:
        set_rng_state(state)
        for d, s in zip(devices, device_states):
            cuda.set_rng_state(s, d)
