"""`torch.backends.cuda`: cuBLAS and attention switches; settable, without effect in leafgrad.

>>> torch.backends.cuda.matmul.allow_tf32
False
>>> torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction
True
"""
from .. import _global_flags

__all__ = ["matmul", "is_built", "flash_sdp_enabled", "mem_efficient_sdp_enabled",
           "math_sdp_enabled", "enable_flash_sdp", "enable_mem_efficient_sdp", "enable_math_sdp", "cudnn_sdp_enabled",
           "enable_cudnn_sdp"]


class cuBLASModule:
    """The `torch.backends.cuda.matmul` flags (PyTorch's defaults); unknown names raise
    AttributeError as in PyTorch.

    >>> torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction
    True
    """

    _DEFAULTS = {
        "allow_tf32": False,
        "allow_fp16_reduced_precision_reduction": True,
        "allow_bf16_reduced_precision_reduction": True,
        "allow_fp16_accumulation": False,
        "fp32_precision": "none",
    }

    def __init__(self):
        object.__setattr__(self, "_flags", dict(self._DEFAULTS))

    def __getattr__(self, name):
        flags = object.__getattribute__(self, "_flags")
        if name == "allow_tf32":  # PyTorch maps it onto the float32 matmul precision
            return _global_flags.get_float32_matmul_precision() != "highest"
        if name in flags:
            return flags[name]
        raise AttributeError("Unknown attribute " + name)

    def __setattr__(self, name, value):
        if name not in self._flags:
            raise AttributeError("Unknown attribute " + name)
        if name == "allow_tf32":
            _global_flags._set_allow_tf32(value)
        self._flags[name] = value


matmul = cuBLASModule()
_SDP = {"flash": True, "mem_efficient": True, "math": True, "cudnn": True, "overrideable": True}


def is_built():
    """Whether leafgrad was built with its CUDA backend (always: it loads CUDA at run time).

    >>> torch.backends.cuda.is_built()
    True
    """
    return True


def flash_sdp_enabled():
    """Flag only (leafgrad's attention has one implementation).

    >>> torch.backends.cuda.flash_sdp_enabled()
    True
    """
    return _SDP["flash"]


def mem_efficient_sdp_enabled():
    """Flag only.

    >>> torch.backends.cuda.mem_efficient_sdp_enabled()
    True
    """
    return _SDP["mem_efficient"]


def math_sdp_enabled():
    """Flag only.

    >>> torch.backends.cuda.math_sdp_enabled()
    True
    """
    return _SDP["math"]


def enable_flash_sdp(enabled):
    """Set the flag read by `flash_sdp_enabled()`.

    >>> torch.backends.cuda.enable_flash_sdp(True)
    """
    _SDP["flash"] = bool(enabled)


def enable_mem_efficient_sdp(enabled):
    """Set the flag read by `mem_efficient_sdp_enabled()`.

    >>> torch.backends.cuda.enable_mem_efficient_sdp(True)
    """
    _SDP["mem_efficient"] = bool(enabled)


def enable_math_sdp(enabled):
    """Set the flag read by `math_sdp_enabled()`.

    >>> torch.backends.cuda.enable_math_sdp(True)
    """
    _SDP["math"] = bool(enabled)


def cudnn_sdp_enabled():
    """Flag only.

    >>> torch.backends.cuda.cudnn_sdp_enabled()
    True
    """
    return _SDP["cudnn"]


def enable_cudnn_sdp(enabled):
    """Set the flag read by `cudnn_sdp_enabled()`.

    >>> torch.backends.cuda.enable_cudnn_sdp(True)
    """
    _SDP["cudnn"] = bool(enabled)
