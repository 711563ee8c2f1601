"""`torch.utils`: `checkpoint` (activation checkpointing)."""
from . import checkpoint, hooks

__all__ = ["checkpoint", "hooks"]
