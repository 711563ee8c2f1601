"""Autocast's state, as PyTorch keeps it: per thread, whether autocast is on for each device type
and its lower-precision dtype, whether the weight cast cache is used, and how deep the `autocast`
regions are nested; shared by all threads, the cache of cast weights (cleared when a thread leaves
its outermost region).

These are the functions PyTorch has at the top level (`torch.is_autocast_enabled`,
`torch.set_autocast_enabled`, `torch.get_autocast_dtype`, ...), with its deprecated per-device
spellings (`torch.is_autocast_cpu_enabled()`, ...). Turning autocast on for a device type makes
`_patch` put the casting wrappers on the ops autocast changes (see `_patch`).
"""
import re
import threading
import warnings

from .. import _core

# Autocast's device types (PyTorch's _AUTOCAST_SUPPORTED_DEVICES), highest dispatch priority
# first (a CUDA op also under CPU autocast is cast for CUDA first), and their default dtypes.
PRIORITY = ("privateuseone", "cuda", "mps", "xla", "hpu", "ipu", "xpu", "maia", "mtia", "cpu")
_DEFAULT_DTYPES = {
    "cpu": _core.bfloat16, "cuda": _core.float16, "mtia": _core.float16, "maia": _core.bfloat16,
    "xpu": _core.float16, "ipu": _core.float16, "hpu": _core.bfloat16, "xla": _core.bfloat16,
    "privateuseone": _core.float16, "mps": _core.float16,
}
_DEVICE_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga", "maia",
                 "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone")
_DEVICE_RE = re.compile(r"([a-zA-Z_]+)(?::([1-9]\d*|0))?")


class _Local(threading.local):
    enabled = ()  # the device types autocast is on for, in PRIORITY order
    cache_enabled = True
    nesting = 0
    held = frozenset()  # the device types whose ops this thread keeps patched (see _sync)

    def __init__(self):
        self.dtypes = dict(_DEFAULT_DTYPES)


tls = _Local()

# PyTorch's cache of lower-precision copies of float32 leaves that require grad: one for all
# threads, keyed by the source tensor (kept alive by the entry, so its id stays unique)
_CACHE = {}
_CACHE_LOCK = threading.Lock()


def cached(t, cast):
    """The cached cast of leaf `t`, made with `cast(t)` on a miss."""
    key = id(t)
    with _CACHE_LOCK:
        hit = _CACHE.get(key)
        if hit is not None:
            return hit[1]
    out = cast(t)
    with _CACHE_LOCK:
        return _CACHE.setdefault(key, (t, out))[1]


def parse_device_type(device_type, fname, position=1):
    """The type of a device string ('cuda:0' -> 'cuda'), with c10's errors for bad strings."""
    if not isinstance(device_type, str):
        raise TypeError(f"{fname}(): argument 'device_type' (position {position}) must be str, "
                        f"not {type(device_type).__name__}")
    m = _DEVICE_RE.fullmatch(device_type)
    if m is None:
        raise RuntimeError(f"Invalid device string: '{device_type}'")
    if m.group(1) not in _DEVICE_TYPES:
        raise RuntimeError(f"Expected one of {', '.join(_DEVICE_TYPES)} device type at start of device string: "
                           f"{device_type}")
    return m.group(1)


def _autocast_type(dev):
    if dev not in _DEFAULT_DTYPES:
        raise RuntimeError("unknown device type for autocast in get_autocast_dispatch_key_from_device_type")
    return dev


def _check_bool(value, fname, name, position):
    if not isinstance(value, bool):
        raise TypeError(f"{fname}(): argument '{name}' (position {position}) must be bool, "
                        f"not {type(value).__name__}")


def _sync():
    """Keep this thread's hold on the patched ops: a device type is held while autocast is on
    for it, and stays held until the outermost region is left (an `autocast(enabled=False)`
    inside an enabled region does not unpatch and repatch)."""
    held = frozenset(tls.enabled) | (tls.held if tls.nesting > 0 else frozenset())
    if held != tls.held:
        from . import _patch

        old, tls.held = tls.held, held
        _patch.hold(old, held)


def is_autocast_enabled(device_type=None):
    """Whether autocast is on for `device_type` in this thread ('cuda' when not given, as in
    PyTorch; inside an op that autocast casts, it is off for the op's own device type).

    >>> torch.is_autocast_enabled("cpu")
    False
    >>> with torch.autocast("cpu"):
    ...     torch.is_autocast_enabled("cpu"), torch.is_autocast_enabled()
    (True, False)
    """
    if device_type is None:
        return "cuda" in tls.enabled
    dev = _autocast_type(parse_device_type(device_type, "is_autocast_enabled"))
    return dev in tls.enabled


def set_autocast_enabled(device_type, enabled=None):
    """Turn autocast on or off for `device_type` in this thread (`set_autocast_enabled(enabled)`
    alone is for 'cuda'). `torch.autocast` calls it on entry and exit; called directly, ops are
    cast until it is turned off again.

    >>> torch.set_autocast_enabled("cpu", True)
    >>> (torch.ones(2, 2) @ torch.ones(2, 2)).dtype
    torch.bfloat16
    >>> torch.set_autocast_enabled("cpu", False)
    >>> (torch.ones(2, 2) @ torch.ones(2, 2)).dtype
    torch.float32
    """
    if enabled is None:
        _check_bool(device_type, "set_autocast_enabled", "enabled", 1)
        dev, enabled = "cuda", device_type
    else:
        dev = _autocast_type(parse_device_type(device_type, "set_autocast_enabled"))
        _check_bool(enabled, "set_autocast_enabled", "enabled", 2)
    if (dev in tls.enabled) != enabled:
        on = set(tls.enabled) ^ {dev}
        tls.enabled = tuple(d for d in PRIORITY if d in on)
        _sync()


def get_autocast_dtype(device_type):
    """The lower-precision dtype autocast uses for `device_type` in this thread (bfloat16 for
    'cpu' and float16 for 'cuda' unless a region or `set_autocast_dtype` changed it).

    >>> torch.get_autocast_dtype("cpu"), torch.get_autocast_dtype("cuda")
    (torch.bfloat16, torch.float16)
    >>> with torch.autocast("cpu", dtype=torch.float16):
    ...     torch.get_autocast_dtype("cpu")
    torch.float16
    """
    dev = parse_device_type(device_type, "get_autocast_dtype")
    if dev not in _DEFAULT_DTYPES:
        raise RuntimeError("unsupported scalarType")
    return tls.dtypes[dev]


def set_autocast_dtype(device_type, dtype):
    """Set the lower-precision dtype autocast uses for `device_type` in this thread (a device
    type autocast does not support is ignored, as in PyTorch).

    >>> torch.set_autocast_dtype("cpu", torch.float16)
    >>> torch.get_autocast_dtype("cpu")
    torch.float16
    >>> torch.set_autocast_dtype("cpu", torch.bfloat16)
    """
    dev = parse_device_type(device_type, "set_autocast_dtype")
    if not isinstance(dtype, _core.dtype):
        raise TypeError(f"set_autocast_dtype(): argument 'dtype' (position 2) must be torch.dtype, "
                        f"not {type(dtype).__name__}")
    if dev in _DEFAULT_DTYPES:
        tls.dtypes[dev] = dtype


def is_autocast_cache_enabled():
    """Whether autocast caches the casts of weights in this thread (True unless a region was
    entered with `cache_enabled=False` or `set_autocast_cache_enabled(False)` was called).

    >>> torch.is_autocast_cache_enabled()
    True
    """
    return tls.cache_enabled


def set_autocast_cache_enabled(enabled):
    """Turn autocast's weight cast cache on or off in this thread.

    >>> torch.set_autocast_cache_enabled(False)
    >>> torch.is_autocast_cache_enabled()
    False
    >>> torch.set_autocast_cache_enabled(True)
    """
    if not isinstance(enabled, bool):
        raise TypeError(f"enabled must be a bool (got {type(enabled).__name__})")
    tls.cache_enabled = enabled


def clear_autocast_cache():
    """Drop the cached casts of weights (`torch.autocast` does on leaving its outermost region).

    >>> torch.clear_autocast_cache()
    """
    with _CACHE_LOCK:
        _CACHE.clear()


def autocast_increment_nesting():
    """Count one more `autocast` region entered in this thread; returns the new depth.

    >>> torch.autocast_increment_nesting()
    1
    >>> torch.autocast_decrement_nesting()
    0
    """
    tls.nesting += 1
    return tls.nesting


def autocast_decrement_nesting():
    """Count one `autocast` region left in this thread; returns the new depth (0: outside all).

    >>> torch.autocast_increment_nesting(), torch.autocast_decrement_nesting()
    (1, 0)
    """
    tls.nesting -= 1
    if tls.nesting <= 0:
        _sync()
    return tls.nesting


_LINES = {("is", "cpu"): 901, ("set_enabled", "cpu"): 892, ("get", "cpu"): 1034, ("set_dtype", "cpu"): 985,
          ("get", "cuda"): 1025, ("set_dtype", "cuda"): 970, ("is", "xla"): 953, ("is", "ipu"): 927,
          ("get", "xla"): 1052, ("get", "ipu"): 1043, ("set_enabled", "xla"): 944, ("set_enabled", "ipu"): 918,
          ("set_dtype", "xla"): 1015, ("set_dtype", "ipu"): 1000}


def _deprecated(old, new, kind, dev):
    line = _LINES[(kind, dev)]
    warnings.warn(f"torch.{old} is deprecated. Please use torch.{new} instead. "
                  f"(Triggered internally at /__w/pytorch/pytorch/torch/csrc/autograd/init.cpp:{line}.)",
                  DeprecationWarning, stacklevel=3)


def _is_enabled_for(dev, name):
    def fn():
        _deprecated(f"{name}()", f"is_autocast_enabled('{dev}')", "is", dev)
        return dev in tls.enabled

    fn.__doc__ = (f"Deprecated: `torch.is_autocast_enabled('{dev}')` (warns a DeprecationWarning).\n\n"
                  f"    >>> import warnings\n    >>> with warnings.catch_warnings():\n"
                  f"    ...     warnings.simplefilter('ignore')\n    ...     torch.{name}()\n    False\n")
    return fn


def _set_enabled_for(dev, name):
    def fn(enabled):
        _deprecated(f"{name}(enabled)", f"set_autocast_enabled('{dev}', enabled)", "set_enabled", dev)
        set_autocast_enabled(dev, enabled)

    fn.__doc__ = (f"Deprecated: `torch.set_autocast_enabled('{dev}', enabled)` (warns a DeprecationWarning).\n\n"
                  f"    >>> import warnings\n    >>> with warnings.catch_warnings():\n"
                  f"    ...     warnings.simplefilter('ignore')\n    ...     torch.{name}(False)\n"
                  f"    >>> torch.is_autocast_enabled('{dev}')\n    False\n")
    return fn


def _get_dtype_for(dev, name):
    def fn():
        _deprecated(f"{name}()", f"get_autocast_dtype('{dev}')", "get", dev)
        return tls.dtypes[dev]

    fn.__doc__ = (f"Deprecated: `torch.get_autocast_dtype('{dev}')` (warns a DeprecationWarning).\n\n"
                  f"    >>> import warnings\n    >>> with warnings.catch_warnings():\n"
                  f"    ...     warnings.simplefilter('ignore')\n    ...     torch.{name}()\n"
                  f"    {_DEFAULT_DTYPES[dev]}\n")
    return fn


def _set_dtype_for(dev, name):
    def fn(dtype):
        _deprecated(f"{name}(dtype)", f"set_autocast_dtype('{dev}', dtype)", "set_dtype", dev)
        set_autocast_dtype(dev, dtype)

    fn.__doc__ = (f"Deprecated: `torch.set_autocast_dtype('{dev}', dtype)` (warns a DeprecationWarning).\n\n"
                  f"    >>> import warnings\n    >>> with warnings.catch_warnings():\n"
                  f"    ...     warnings.simplefilter('ignore')\n    ...     torch.{name}({_DEFAULT_DTYPES[dev]})\n"
                  f"    >>> torch.get_autocast_dtype('{dev}')\n    {_DEFAULT_DTYPES[dev]}\n")
    return fn


def _named(fn, name):
    fn.__name__ = fn.__qualname__ = name
    return fn


is_autocast_cpu_enabled = _named(_is_enabled_for("cpu", "is_autocast_cpu_enabled"), "is_autocast_cpu_enabled")
set_autocast_cpu_enabled = _named(_set_enabled_for("cpu", "set_autocast_cpu_enabled"), "set_autocast_cpu_enabled")
get_autocast_cpu_dtype = _named(_get_dtype_for("cpu", "get_autocast_cpu_dtype"), "get_autocast_cpu_dtype")
set_autocast_cpu_dtype = _named(_set_dtype_for("cpu", "set_autocast_cpu_dtype"), "set_autocast_cpu_dtype")
get_autocast_gpu_dtype = _named(_get_dtype_for("cuda", "get_autocast_gpu_dtype"), "get_autocast_gpu_dtype")
set_autocast_gpu_dtype = _named(_set_dtype_for("cuda", "set_autocast_gpu_dtype"), "set_autocast_gpu_dtype")
is_autocast_xla_enabled = _named(_is_enabled_for("xla", "is_autocast_xla_enabled"), "is_autocast_xla_enabled")
set_autocast_xla_enabled = _named(_set_enabled_for("xla", "set_autocast_xla_enabled"), "set_autocast_xla_enabled")
get_autocast_xla_dtype = _named(_get_dtype_for("xla", "get_autocast_xla_dtype"), "get_autocast_xla_dtype")
set_autocast_xla_dtype = _named(_set_dtype_for("xla", "set_autocast_xla_dtype"), "set_autocast_xla_dtype")
is_autocast_ipu_enabled = _named(_is_enabled_for("ipu", "is_autocast_ipu_enabled"), "is_autocast_ipu_enabled")
set_autocast_ipu_enabled = _named(_set_enabled_for("ipu", "set_autocast_ipu_enabled"), "set_autocast_ipu_enabled")
get_autocast_ipu_dtype = _named(_get_dtype_for("ipu", "get_autocast_ipu_dtype"), "get_autocast_ipu_dtype")
set_autocast_ipu_dtype = _named(_set_dtype_for("ipu", "set_autocast_ipu_dtype"), "set_autocast_ipu_dtype")

__all__ = [
    "is_autocast_enabled", "set_autocast_enabled", "get_autocast_dtype", "set_autocast_dtype",
    "is_autocast_cache_enabled", "set_autocast_cache_enabled", "clear_autocast_cache",
    "autocast_increment_nesting", "autocast_decrement_nesting",
    "is_autocast_cpu_enabled", "set_autocast_cpu_enabled", "get_autocast_cpu_dtype", "set_autocast_cpu_dtype",
    "get_autocast_gpu_dtype", "set_autocast_gpu_dtype",
    "is_autocast_xla_enabled", "set_autocast_xla_enabled", "get_autocast_xla_dtype", "set_autocast_xla_dtype",
    "is_autocast_ipu_enabled", "set_autocast_ipu_enabled", "get_autocast_ipu_dtype", "set_autocast_ipu_dtype",
]
