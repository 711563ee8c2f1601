"""`torch.version`: leafgrad implements PyTorch 2.15's API (`__version__` says so, with
leafgrad's own version as its local label); no CUDA toolkit is built in (`cuda` is None; the
CUDA backend loads the driver at run time).

>>> torch.version.__version__ >= "2.0", torch.version.leafgrad, torch.version.cuda
(True, '0.1.0', None)
"""
from .torch_version import TorchVersion

__all__ = ["__version__", "leafgrad", "cuda", "hip", "rocm", "xpu", "debug", "git_version"]

leafgrad = "0.1.0"
__version__ = TorchVersion("2.15.0+leafgrad." + leafgrad)
cuda = None
hip = None
rocm = None
xpu = None
debug = False
git_version = "unknown"
