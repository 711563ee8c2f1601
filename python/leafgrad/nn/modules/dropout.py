"""`torch.nn.modules.dropout`: Dropout layers, at the path PyTorch defines them in (their code lives
in the modules imported below)."""
from .layers import Dropout
from .misc import AlphaDropout, Dropout1d, Dropout2d, Dropout3d, FeatureAlphaDropout

__all__ = ["AlphaDropout", "Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "FeatureAlphaDropout"]
