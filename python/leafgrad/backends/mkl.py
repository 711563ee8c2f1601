"""`torch.backends.mkl`: Intel's oneMKL; leafgrad does not use it (`verbose` is a no-op scope)."""
__all__ = ["is_available", "verbose", "VERBOSE_OFF", "VERBOSE_ON"]

VERBOSE_OFF = 0
VERBOSE_ON = 1


def is_available():
    """False: leafgrad has no MKL (PyTorch's x86 builds say True; `torch.has_mkl` agrees).

    >>> torch.backends.mkl.is_available()
    False
    """
    return False


class verbose:
    """PyTorch's on-demand MKL verbose scope; leafgrad has no MKL to report, so it does nothing.

    >>> with torch.backends.mkl.verbose(torch.backends.mkl.VERBOSE_ON):
    ...     pass
    """

    def __init__(self, enable):
        self.enable = enable

    def __enter__(self):
        return None if self.enable == VERBOSE_OFF else self

    def __exit__(self, exc_type, exc_val, exc_tb):
        return False
