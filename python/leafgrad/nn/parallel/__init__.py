"""`torch.nn.parallel`: `DataParallel` (leafgrad's single-device wrapper, also `nn.DataParallel`)
and `DistributedDataParallel`, which needs a process group and so cannot be built in leafgrad.
"""
from ..modules.parallel import DataParallel
from .distributed import DistributedDataParallel

__all__ = ["DataParallel", "DistributedDataParallel"]
