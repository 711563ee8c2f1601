"""`torch.backends`: switches for PyTorch's vendor backends (cuDNN, cuBLAS, MPS, oneDNN, OpenMP).

leafgrad has none of those libraries: every flag here is settable and starts at PyTorch's
default so that scripts which set or read them run, but no flag changes what leafgrad computes.
The `is_available()` functions report what leafgrad itself has (no cuDNN, MPS, oneDNN or OpenMP).

>>> torch.backends.cudnn.benchmark = True
>>> torch.backends.cudnn.benchmark
True
>>> torch.backends.cudnn.benchmark = False
"""
from . import cpu, cuda, cudnn, mkl, mkldnn, mps, openmp, opt_einsum

__all__ = ["cpu", "cuda", "cudnn", "mkl", "mkldnn", "mps", "openmp", "opt_einsum"]
