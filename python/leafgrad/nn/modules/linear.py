"""`torch.nn.modules.linear`: Linear layers, at the path PyTorch defines them in (their code lives
in the modules imported below)."""
from .layers import Identity, LazyLinear, Linear
from .misc import Bilinear
from .attention import NonDynamicallyQuantizableLinear

__all__ = ["Bilinear", "Identity", "LazyLinear", "Linear", "NonDynamicallyQuantizableLinear"]
