"""`nn.DataParallel`: on one device (or none) PyTorch's DataParallel calls the wrapped module
directly, and so does leafgrad's, which has at most one CUDA device to spread over."""
from .module import Module

__all__ = ["DataParallel"]


class DataParallel(Module):
    """Wraps `module` (as `self.module`, so state_dict keys start with "module."): calls it on
    the inputs, moved to `device_ids[0]` when that is a CUDA device (where the module must
    already be, as in PyTorch).

    >>> dp = torch.nn.DataParallel(torch.nn.Linear(2, 1))
    >>> list(dp.state_dict())
    ['module.weight', 'module.bias']
    >>> dp.module.out_features
    1
    """

    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        from ... import cuda

        self.module = module
        if not cuda.is_available():
            device_ids = []
        elif device_ids is None:
            device_ids = list(range(cuda.device_count()))
        self.device_ids = [d.index if hasattr(d, "index") else d for d in device_ids]
        self.output_device = self.device_ids[0] if output_device is None and self.device_ids else output_device
        self.dim = dim

    def forward(self, *inputs, **kwargs):
        if not self.device_ids:
            return self.module(*inputs, **kwargs)
        device = f"cuda:{self.device_ids[0]}"
        for t in list(self.module.parameters()) + list(self.module.buffers()):
            if str(t.device) != device:
                raise RuntimeError(f"module must have its parameters and buffers on device {device} "
                                   f"(device_ids[0]) but found one of them on device: {t.device}")

        def move(x):
            from ... import Tensor

            if isinstance(x, Tensor):
                return x.to(device)
            if isinstance(x, (list, tuple)):
                return type(x)(move(v) for v in x)
            if isinstance(x, dict):
                return {k: move(v) for k, v in x.items()}
            return x

        return self.module(*move(inputs), **move(kwargs))
