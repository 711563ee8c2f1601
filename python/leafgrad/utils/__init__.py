"""`torch.utils`: `checkpoint` (activation checkpointing), `data` (datasets and the DataLoader)."""
from . import checkpoint, data, hooks

__all__ = ["checkpoint", "data", "hooks"]
