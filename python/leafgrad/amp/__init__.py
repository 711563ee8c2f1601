"""`torch.amp`: automatic mixed precision, as PyTorch's.

`autocast` (also `torch.autocast`) regions run the ops on PyTorch's autocast lists in lower
precision (bfloat16 on CPU by default, float16 on CUDA), others in float32, and concatenations in
their widest input type; see `autocast_mode`. `GradScaler` scales losses and unscales gradients
(`grad_scaler`). The thread-local state behind autocast (`torch.is_autocast_enabled`,
`torch.get_autocast_dtype`, ...) is in `_state`; `_ops` lists the ops and their policies,
`_cast` applies them, and `_patch` puts the casting wrappers on the ops while a region is open.

>>> with torch.amp.autocast("cpu"):
...     y = torch.nn.functional.linear(torch.ones(1, 2), torch.ones(3, 2))
...     loss = torch.nn.functional.mse_loss(y, torch.zeros(1, 3))
>>> y.dtype, loss.dtype
(torch.bfloat16, torch.float32)
"""
from . import autocast_mode, grad_scaler
from .autocast_mode import autocast, custom_bwd, custom_fwd, is_autocast_available
from .grad_scaler import GradScaler

__all__ = ["autocast", "GradScaler", "is_autocast_available", "custom_fwd", "custom_bwd"]
