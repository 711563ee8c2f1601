"""`torch.nn.modules.channelshuffle`: ChannelShuffle, at the path PyTorch defines them in (their code lives
in the modules imported below)."""
from .misc import ChannelShuffle

__all__ = ["ChannelShuffle"]
