"""`torch.cpu.amp`: PyTorch's deprecated spelling of `torch.amp.autocast('cpu')`."""
import warnings

from ..amp import autocast as _autocast

__all__ = ["autocast"]


class autocast(_autocast):
    """Deprecated: `torch.amp.autocast("cpu", ...)` (bfloat16 unless `dtype` says otherwise).

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     ctx = torch.cpu.amp.autocast()
    >>> print(w[0].category.__name__, w[0].message)
    FutureWarning `torch.cpu.amp.autocast(args...)` is deprecated. Please use `torch.amp.autocast('cpu', args...)` instead.
    """

    def __init__(self, enabled=True, dtype=None, cache_enabled=True):
        warnings.warn(
            "`torch.cpu.amp.autocast(args...)` is deprecated. "
            "Please use `torch.amp.autocast('cpu', args...)` instead.",
            FutureWarning,
            stacklevel=2,
        )
        if dtype is None:
            import leafgrad

            dtype = leafgrad.bfloat16
        super().__init__("cpu", enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)
