"""`torch.nn.modules.pixelshuffle`: PixelShuffle and PixelUnshuffle, at the path PyTorch defines them in (their code lives
in the modules imported below)."""
from .upsampling import PixelShuffle, PixelUnshuffle

__all__ = ["PixelShuffle", "PixelUnshuffle"]
