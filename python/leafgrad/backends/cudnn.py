"""`torch.backends.cudnn`: leafgrad has no cuDNN; the flags are settable and have no effect.

Defaults as PyTorch's: `enabled` True, `benchmark` False, `deterministic` False,
`allow_tf32` True.

>>> torch.backends.cudnn.enabled, torch.backends.cudnn.deterministic
(True, False)
"""
enabled = True
benchmark = False
benchmark_limit = 10
deterministic = False
allow_tf32 = True

__all__ = ["is_available", "version", "enabled", "benchmark", "benchmark_limit", "deterministic",
           "allow_tf32"]


def is_available():
    """False: leafgrad's CUDA backend does not use cuDNN (PyTorch built with CUDA says True).

    >>> torch.backends.cudnn.is_available()
    False
    """
    return False


def version():
    """None: no cuDNN is loaded.

    >>> print(torch.backends.cudnn.version())
    None
    """
    return None
