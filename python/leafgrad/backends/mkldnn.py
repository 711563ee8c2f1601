"""`torch.backends.mkldnn`: oneDNN; leafgrad does not use it (`enabled` is a flag only)."""
enabled = True

__all__ = ["is_available", "enabled"]


def is_available():
    """False: leafgrad has no oneDNN (PyTorch's x86 builds say True).

    >>> torch.backends.mkldnn.is_available()
    False
    """
    return False
