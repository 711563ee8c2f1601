"""Process-wide switches that scripts set for speed or reproducibility: the float32 matmul
precision (TF32 on CUDA) and deterministic algorithms. leafgrad keeps and reports them as
PyTorch does; its kernels compute the same either way (no TF32, and its CPU and CUDA kernels
give the same result for the same input on every run), so they change no result."""
from ._warn import warn_once

__all__ = ["set_float32_matmul_precision", "get_float32_matmul_precision", "use_deterministic_algorithms",
           "are_deterministic_algorithms_enabled", "is_deterministic_algorithms_warn_only_enabled",
           "set_deterministic_debug_mode", "get_deterministic_debug_mode"]

_state = {"precision": "highest", "deterministic": False, "warn_only": False}


def set_float32_matmul_precision(precision):
    """Set the internal precision of float32 matrix products: "highest" (the default), "high" or
    "medium" (PyTorch may then use TF32 or bfloat16 on a GPU; leafgrad always computes in
    float32). `torch.backends.cuda.matmul.allow_tf32` follows it.

    >>> torch.set_float32_matmul_precision("high")
    >>> torch.get_float32_matmul_precision(), torch.backends.cuda.matmul.allow_tf32
    ('high', True)
    >>> torch.set_float32_matmul_precision("highest")
    """
    if not isinstance(precision, str):
        raise RuntimeError(f"set_float32_matmul_precision expects a str, but got {type(precision).__name__}")
    if precision not in ("highest", "high", "medium"):
        warn_once(("matmul precision", precision),
                  f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
                  "setFloat32MatmulPrecision call has no effect. (Triggered internally at "
                  "/__w/pytorch/pytorch/aten/src/ATen/Context.cpp:511.)", stacklevel=2)
        return
    _state["precision"] = precision


def get_float32_matmul_precision():
    """The float32 matmul precision set by `set_float32_matmul_precision` ("highest" at first).

    >>> torch.get_float32_matmul_precision()
    'highest'
    """
    return _state["precision"]


def _set_allow_tf32(value):
    """`torch.backends.cuda.matmul.allow_tf32 = value`, as PyTorch maps it onto the precision."""
    _state["precision"] = "high" if value else "highest"


def _bool_arg(fn, name, pos, value):
    if not isinstance(value, bool):
        raise TypeError(f"{fn}(): argument '{name}' (position {pos}) must be bool, not {type(value).__name__}")


def use_deterministic_algorithms(mode, *, warn_only=False):
    """Ask for deterministic algorithms only (kept and reported; every leafgrad kernel is
    deterministic already, so none raises or warns under it).

    >>> torch.use_deterministic_algorithms(True)
    >>> torch.are_deterministic_algorithms_enabled()
    True
    >>> torch.use_deterministic_algorithms(False)
    """
    _bool_arg("_set_deterministic_algorithms", "mode", 1, mode)
    if not isinstance(warn_only, bool):
        raise TypeError("_set_deterministic_algorithms(): argument 'warn_only' must be bool, not "
                        f"{type(warn_only).__name__}")
    _state["deterministic"] = mode
    _state["warn_only"] = warn_only


def are_deterministic_algorithms_enabled():
    """Whether `use_deterministic_algorithms(True)` is in force.

    >>> torch.are_deterministic_algorithms_enabled()
    False
    """
    return _state["deterministic"]


def is_deterministic_algorithms_warn_only_enabled():
    """Whether `use_deterministic_algorithms(True, warn_only=True)` is in force.

    >>> torch.is_deterministic_algorithms_warn_only_enabled()
    False
    """
    return _state["warn_only"]


_DEBUG_MODES = {"default": 0, "warn": 1, "error": 2}


def set_deterministic_debug_mode(debug_mode):
    """`use_deterministic_algorithms` by name or number: "default"/0 (off), "warn"/1
    (warn_only), "error"/2 (on).

    >>> torch.set_deterministic_debug_mode("warn")
    >>> torch.get_deterministic_debug_mode(), torch.are_deterministic_algorithms_enabled()
    (1, True)
    >>> torch.set_deterministic_debug_mode(0)
    """
    if isinstance(debug_mode, str):
        if debug_mode not in _DEBUG_MODES:
            raise RuntimeError("invalid value of debug_mode, expected one of `default`, `warn`, `error`, but got "
                               f"{debug_mode}")
        debug_mode = _DEBUG_MODES[debug_mode]
    if isinstance(debug_mode, bool) or not isinstance(debug_mode, int):
        raise TypeError(f"debug_mode must be str or int, but got {type(debug_mode)}")
    if debug_mode not in (0, 1, 2):
        raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got {debug_mode}")
    use_deterministic_algorithms(debug_mode != 0, warn_only=debug_mode == 1)


def get_deterministic_debug_mode():
    """0, 1 or 2 (see `set_deterministic_debug_mode`).

    >>> torch.get_deterministic_debug_mode()
    0
    """
    if not _state["deterministic"]:
        return 0
    return 1 if _state["warn_only"] else 2
