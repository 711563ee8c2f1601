"""`torch.backends.mps`: Apple's Metal backend; leafgrad has none."""
__all__ = ["is_available", "is_built"]


def is_available():
    """False: leafgrad has no MPS backend.

    >>> torch.backends.mps.is_available()
    False
    """
    return False


def is_built():
    """False: leafgrad is not built with MPS.

    >>> torch.backends.mps.is_built()
    False
    """
    return False
