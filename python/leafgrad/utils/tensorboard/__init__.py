"""`torch.utils.tensorboard`: `SummaryWriter` (scalars into TensorBoard event files)."""
from .writer import FileWriter, SummaryWriter

__all__ = ["FileWriter", "SummaryWriter"]
