"""`torch.nn.attention`: choosing the kernels of `F.scaled_dot_product_attention`. leafgrad has
one implementation (PyTorch's math composition, see `scaled_dot_product_attention`), so the
choice only sets the `torch.backends.cuda.*_sdp_enabled()` flags, as PyTorch's context manager
does, and restores them after.

>>> with torch.nn.attention.sdpa_kernel(torch.nn.attention.SDPBackend.MATH):
...     torch.backends.cuda.flash_sdp_enabled(), torch.backends.cuda.math_sdp_enabled()
(False, True)
"""
import contextlib
import enum

from ...backends import cuda as _cuda

__all__ = ["SDPBackend", "sdpa_kernel"]


class SDPBackend(enum.IntEnum):
    """The kernels of scaled_dot_product_attention (PyTorch's values).

    >>> torch.nn.attention.SDPBackend.FLASH_ATTENTION
    <SDPBackend.FLASH_ATTENTION: 1>
    """
    ERROR = -1
    MATH = 0
    FLASH_ATTENTION = 1
    EFFICIENT_ATTENTION = 2
    CUDNN_ATTENTION = 3
    OVERRIDEABLE = 4

    def __str__(self):
        return f"SDPBackend.{self.name}"


_FLAGS = {SDPBackend.MATH: "math", SDPBackend.FLASH_ATTENTION: "flash",
          SDPBackend.EFFICIENT_ATTENTION: "mem_efficient", SDPBackend.CUDNN_ATTENTION: "cudnn",
          SDPBackend.OVERRIDEABLE: "overrideable"}


@contextlib.contextmanager
def sdpa_kernel(backends, set_priority=False):
    """Enable only `backends` (one SDPBackend or a list) for the block.

    >>> with torch.nn.attention.sdpa_kernel([torch.nn.attention.SDPBackend.MATH]):
    ...     torch.backends.cuda.mem_efficient_sdp_enabled()
    False
    """
    if isinstance(backends, SDPBackend):
        backends = [backends]
    if not isinstance(backends, (list, tuple, set)) or not all(isinstance(b, SDPBackend) for b in backends):
        raise AssertionError("Backend must be an instance of SDPBackend or a list of SDPBackend instances, got "
                             f"{type(backends).__name__}")
    before = dict(_cuda._SDP)
    wanted = {_FLAGS[b] for b in backends if b in _FLAGS}
    for name in _FLAGS.values():
        _cuda._SDP[name] = name in wanted
    try:
        yield {}
    finally:
        _cuda._SDP.update(before)
