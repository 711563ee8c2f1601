"""`torch.backends.opt_einsum`: whether `torch.einsum` orders its contractions with the
`opt_einsum` package. leafgrad's einsum contracts left to right (PyTorch's order when that
package is absent, as here), so `is_available()` is False; `enabled` and `strategy` are flags
scripts may read and set, with PyTorch's checks.

>>> torch.backends.opt_einsum.is_available(), torch.backends.opt_einsum.strategy
(False, None)
"""
__all__ = ["is_available", "get_opt_einsum", "enabled", "strategy", "set_flags", "flags"]

enabled = False
strategy = None


def is_available():
    """False: leafgrad does not use the opt_einsum package."""
    return False


def get_opt_einsum():
    """The opt_einsum package if leafgrad used it: None."""
    return None


def set_flags(_enabled=None, _strategy=None):
    """Set `enabled` / `strategy`; returns the previous pair. Without opt_einsum, PyTorch
    refuses `enabled=True` and any strategy with these ValueErrors."""
    global enabled
    orig = (enabled, None)
    if _enabled is not None:
        if _enabled:
            raise ValueError(f"opt_einsum is not available, so setting `enabled` to {_enabled} will not reap the "
                             "benefits of calculating an optimal path for einsum. torch.einsum will fall back to "
                             "contracting from left to right. To enable this optimal path calculation, please install "
                             "opt-einsum.")
        enabled = False
    if _strategy is not None:
        raise ValueError(f"opt_einsum is not available, so setting `strategy` to {_strategy} will not be meaningful. "
                         "torch.einsum will bypass path calculation and simply contract from left to right. Please "
                         "install opt_einsum or unset `strategy`.")
    return orig


class flags:
    """`with torch.backends.opt_einsum.flags(enabled=..., strategy=...)`: set them for the block."""

    def __init__(self, enabled=None, strategy=None):
        self._new = (enabled, strategy)

    def __enter__(self):
        self._old = set_flags(*self._new)
        return self

    def __exit__(self, *exc):
        set_flags(*self._old)
        return False
