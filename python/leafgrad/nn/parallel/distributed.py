"""`torch.nn.parallel.distributed`: `DistributedDataParallel`, importable but not constructible."""
from ..modules.module import Module

__all__ = ["DistributedDataParallel"]


class DistributedDataParallel(Module):
    """Raises RuntimeError when constructed: leafgrad has no distributed backend (see
    `torch.distributed`). Importing it (and `isinstance` checks) works.

    >>> torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(2, 2))
    Traceback (most recent call last):
    ...
    RuntimeError: leafgrad has no distributed backend: DistributedDataParallel cannot be constructed
    """

    def __init__(self, module, *args, **kwargs):
        raise RuntimeError(
            "leafgrad has no distributed backend: DistributedDataParallel cannot be constructed"
        )
