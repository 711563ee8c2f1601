"""`torch.cuda.amp`: PyTorch's deprecated spellings of `torch.amp.autocast('cuda')` and
`torch.amp.GradScaler('cuda')` (each warns a FutureWarning, as PyTorch does).

`leafgrad.cuda` is a module, not a package: leafgrad registers this module as
`leafgrad.cuda.amp` in `sys.modules` (and as the attribute `leafgrad.cuda.amp`).
"""
import warnings

from . import GradScaler as _GradScaler
from . import autocast as _autocast

__all__ = ["autocast", "GradScaler"]


class autocast(_autocast):
    """Deprecated: `torch.amp.autocast("cuda", ...)` (float16 unless `dtype` says otherwise).

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     ctx = torch.cuda.amp.autocast(enabled=False)
    >>> print(w[0].category.__name__, w[0].message)
    FutureWarning `torch.cuda.amp.autocast(args...)` is deprecated. Please use `torch.amp.autocast('cuda', args...)` instead.
    """

    def __init__(self, enabled=True, dtype=None, cache_enabled=True):
        warnings.warn(
            "`torch.cuda.amp.autocast(args...)` is deprecated. "
            "Please use `torch.amp.autocast('cuda', args...)` instead.",
            FutureWarning,
            stacklevel=2,
        )
        if dtype is None:
            import leafgrad

            dtype = leafgrad.float16
        super().__init__("cuda", enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)


class GradScaler(_GradScaler):
    """Deprecated: `torch.amp.GradScaler("cuda", ...)`.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     s = torch.cuda.amp.GradScaler(enabled=False)
    >>> print(w[0].category.__name__, w[0].message)
    FutureWarning `torch.cuda.amp.GradScaler(args...)` is deprecated. Please use `torch.amp.GradScaler('cuda', args...)` instead.
    """

    def __init__(self, init_scale=2.0**16, growth_factor=2.0, backoff_factor=0.5,
                 growth_interval=2000, enabled=True):
        warnings.warn(
            "`torch.cuda.amp.GradScaler(args...)` is deprecated. "
            "Please use `torch.amp.GradScaler('cuda', args...)` instead.",
            FutureWarning,
            stacklevel=2,
        )
        super().__init__("cuda", init_scale=init_scale, growth_factor=growth_factor,
                         backoff_factor=backoff_factor, growth_interval=growth_interval,
                         enabled=enabled)
