"""`torch.nn.modules.batchnorm`: Batch normalisation layers, at the path PyTorch defines them in (their code lives
in the modules imported below)."""
from .normalization import BatchNorm1d, BatchNorm2d, BatchNorm3d, LazyBatchNorm1d, LazyBatchNorm2d, LazyBatchNorm3d

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LazyBatchNorm1d", "LazyBatchNorm2d", "LazyBatchNorm3d"]
