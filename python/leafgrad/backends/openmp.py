"""`torch.backends.openmp`."""
__all__ = ["is_available"]


def is_available():
    """False: leafgrad does not use OpenMP (PyTorch's builds usually say True).

    >>> torch.backends.openmp.is_available()
    False
    """
    return False
