"""`torch.cpu`: the CPU device module (leafgrad has one CPU device).

>>> torch.cpu.is_available(), torch.cpu.device_count()
(True, 1)
"""
from . import amp

__all__ = ["amp", "is_available", "device_count", "synchronize", "current_device"]


def is_available():
    """Always True.

    >>> torch.cpu.is_available()
    True
    """
    return True


def device_count():
    """Always 1.

    >>> torch.cpu.device_count()
    1
    """
    return 1


def synchronize(device=None):
    """Nothing to wait for on the CPU.

    >>> torch.cpu.synchronize()
    """


def current_device():
    """Always 'cpu'.

    >>> torch.cpu.current_device()
    'cpu'
    """
    return "cpu"
