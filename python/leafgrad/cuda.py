"""`torch.cuda`: this build has no CUDA backend (it arrives with the CUDA issue)."""


def is_available():
    """Whether CUDA can be used: never in this build.

    >>> torch.cuda.is_available()
    False
    """
    return False


def device_count():
    """The number of CUDA devices: none in this build.

    >>> torch.cuda.device_count()
    0
    """
    return 0
