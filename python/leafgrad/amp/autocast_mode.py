"""`torch.autocast` (`torch.amp.autocast`): regions that run chosen ops in lower precision.

Inside an enabled region for a device type ('cpu': bfloat16 by default, or float16; 'cuda':
float16 by default), the ops on PyTorch's lists (`_ops`) cast their floating inputs on that
device: matmul-like ops and convolutions to the region's dtype, ops that need range to float32,
and `cat`/`stack`-like ops to their widest input. Casts are recorded (`ToCopyBackward0`), so
gradients reach the parameters in their own dtype; a float32 leaf that requires grad is cast
once per region and reused (cleared when the outermost region is left). Regions nest (an inner
one may turn autocast off or change the dtype), work as decorators, and are per thread.
"""
import collections
import contextlib
import functools
import warnings

from .. import _core
from ._state import (
    autocast_decrement_nesting,
    autocast_increment_nesting,
    clear_autocast_cache,
    get_autocast_dtype,
    is_autocast_cache_enabled,
    is_autocast_enabled,
    parse_device_type,
    set_autocast_cache_enabled,
    set_autocast_dtype,
    set_autocast_enabled,
)

__all__ = ["autocast_decorator", "autocast", "is_autocast_available", "custom_fwd", "custom_bwd"]

_AVAILABLE = ("cpu", "cuda", "mtia", "maia", "xpu", "ipu", "hpu", "xla", "privateuseone", "mps")


def _cuda_available():
    try:
        from .. import cuda

        return bool(cuda.is_available())
    except Exception:  # pragma: no cover - a broken CUDA install counts as none
        return False


def is_autocast_available(device_type):
    """Whether autocast supports `device_type` (a device type or string such as 'cuda:0').

    >>> torch.amp.is_autocast_available("cpu"), torch.amp.is_autocast_available("meta")
    (True, False)
    """
    return parse_device_type(device_type, "_is_autocast_available") in _AVAILABLE


def autocast_decorator(autocast_instance, func):
    """`func` run inside `autocast_instance` (what `@torch.autocast(...)` gives).

    >>> f = torch.amp.autocast_mode.autocast_decorator(torch.autocast("cpu"), torch.mm)
    >>> f(torch.ones(2, 2), torch.ones(2, 2)).dtype
    torch.bfloat16
    """
    @functools.wraps(func)
    def decorate_autocast(*args, **kwargs):
        with autocast_instance:
            return func(*args, **kwargs)

    decorate_autocast.__script_unsupported = "@autocast() decorator is not supported in script mode"
    return decorate_autocast


_PRIVATEUSE1_MESSAGE = (
    "Tried to use AMP with the `privateuseone` backend, but the backend has not registered a module or the "
    "module misses some necessary funcs. The backend should register a module by "
    "`torch._register_device_module`, and the module must have these funcs: \n"
    "`get_amp_supported_dtype() -> List[torch.dtype]`. \n"
)


class autocast:
    """A region (context manager or decorator) where ops run in mixed precision, per PyTorch's
    autocast op lists: under `autocast("cpu")` matmul-like ops and convolutions cast their
    float32 inputs to bfloat16 (`dtype=torch.float16` for float16), losses and some linear
    algebra run in float32, and the rest run in their inputs' dtype. 'cuda' without CUDA warns
    and disables itself; an unsupported dtype warns and disables the region.

    >>> lin = torch.nn.Linear(2, 2)
    >>> with torch.autocast("cpu"):
    ...     y = lin(torch.ones(1, 2))
    >>> y.dtype, y.grad_fn.name()
    (torch.bfloat16, 'AddmmBackward0')
    >>> y.float().sum().backward()
    >>> lin.weight.grad.dtype
    torch.float32
    >>> torch.amp.autocast("cpu").fast_dtype
    torch.bfloat16
    """

    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        self.fast_dtype = get_autocast_dtype(device_type) if dtype is None else dtype
        self.device = device_type
        if not is_autocast_available(self.device):
            raise RuntimeError(f"User specified an unsupported autocast device_type '{self.device}'")
        supported = [_core.bfloat16, _core.float16]
        if self.device == "privateuseone":
            raise AssertionError(_PRIVATEUSE1_MESSAGE)
        self._cache_enabled = is_autocast_cache_enabled() if cache_enabled is None else cache_enabled
        name = self.device.upper()
        if enabled:
            if self.device == "cuda":
                if not _cuda_available():
                    warnings.warn("CUDA is not available or torch_xla is imported. Disabling autocast.", stacklevel=2)
                    enabled = False
                elif self.fast_dtype == _core.bfloat16 and not _cuda_bf16_supported():
                    raise RuntimeError("Current CUDA Device does not support bfloat16. Please switch dtype to float16.")
            elif self.fast_dtype not in supported:
                warnings.warn(
                    f"In {name} autocast, but the target dtype is not supported. Disabling autocast.\n"
                    f"{name} Autocast only supports dtypes of " + ", ".join(map(str, supported)) + " currently.",
                    stacklevel=2,
                )
                enabled = False
        self._enabled = enabled

    def __enter__(self):
        self.prev_cache_enabled = is_autocast_cache_enabled()
        self.prev = is_autocast_enabled(self.device)
        self.prev_fastdtype = get_autocast_dtype(self.device)
        set_autocast_enabled(self.device, self._enabled)
        set_autocast_dtype(self.device, self.fast_dtype)
        autocast_increment_nesting()
        set_autocast_cache_enabled(self._cache_enabled)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        # the cache is dropped on leaving the outermost region
        if autocast_decrement_nesting() == 0:
            clear_autocast_cache()
        set_autocast_enabled(self.device, self.prev)
        set_autocast_dtype(self.device, self.prev_fastdtype)
        set_autocast_cache_enabled(self.prev_cache_enabled)
        return False

    def __call__(self, func):
        if not callable(func):
            raise TypeError(
                f"autocast()(func) requires a callable, but got {type(func).__name__}. "
                f"Did you mean to use autocast as a context manager? For example:\n"
                f"    with torch.autocast(device_type=...):\n"
                f"        output = model(input)"
            )
        return autocast_decorator(self, func)


def _cuda_bf16_supported():
    from .. import cuda

    check = getattr(cuda, "is_bf16_supported", None)
    return True if check is None else bool(check())


def _cast(value, device_type, dtype):
    """Tensors (in containers too) on `device_type` that are floating and not float64, cast."""
    if isinstance(value, _core.Tensor):
        eligible = value.is_floating_point() and value.device.type == device_type and value.dtype != _core.float64
        return value.to(dtype) if eligible else value
    if isinstance(value, (str, bytes)):
        return value
    if type(value).__module__ == "numpy" and type(value).__name__ == "ndarray":
        return value
    if isinstance(value, collections.abc.Mapping):
        return {_cast(k, device_type, dtype): _cast(v, device_type, dtype) for k, v in value.items()}
    if isinstance(value, collections.abc.Iterable):
        iterable = (_cast(v, device_type, dtype) for v in value)
        if isinstance(value, (list, tuple)):
            return type(value)(iterable)
        return iterable
    return value


def custom_fwd(fwd=None, *, device_type, cast_inputs=None):
    """Decorator for a custom autograd Function's `forward`: records autocast's state on `ctx`
    for `custom_bwd`; with `cast_inputs`, inside an enabled region it casts the floating tensor
    inputs to that dtype and runs `forward` with autocast off (outside a region it does nothing).

    >>> class Double(torch.autograd.Function):
    ...     @staticmethod
    ...     @torch.amp.custom_fwd(device_type="cpu", cast_inputs=torch.float32)
    ...     def forward(ctx, x):
    ...         return x @ x
    ...     @staticmethod
    ...     @torch.amp.custom_bwd(device_type="cpu")
    ...     def backward(ctx, g):
    ...         return g
    >>> with torch.autocast("cpu"):
    ...     Double.apply(torch.ones(2, 2, dtype=torch.bfloat16)).dtype
    torch.float32
    """
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if fwd is None:
        return functools.partial(custom_fwd, device_type=device_type, cast_inputs=cast_inputs)

    @functools.wraps(fwd)
    def decorate_fwd(*args, **kwargs):
        args[0]._dtype = get_autocast_dtype(device_type)
        if cast_inputs is None:
            args[0]._fwd_used_autocast = is_autocast_enabled(device_type)
            return fwd(*args, **kwargs)
        autocast_context = is_autocast_enabled(device_type)
        args[0]._fwd_used_autocast = False
        if autocast_context:
            with autocast(device_type=device_type, enabled=False):
                return fwd(*_cast(args, device_type, cast_inputs), **_cast(kwargs, device_type, cast_inputs))
        return fwd(*args, **kwargs)

    return decorate_fwd


def custom_bwd(bwd=None, *, device_type):
    """Decorator for a custom autograd Function's `backward`: runs it in the autocast state that
    `custom_fwd` recorded on `ctx` (on, with the forward's dtype, if the forward ran under it).

    >>> class Ctx: pass
    >>> ctx = Ctx()
    >>> with torch.autocast("cpu"):
    ...     _ = torch.amp.custom_fwd(lambda ctx, x: x, device_type="cpu")(ctx, 1)
    >>> torch.amp.custom_bwd(lambda ctx, g: torch.is_autocast_enabled("cpu"), device_type="cpu")(ctx, 5)
    True
    """
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if bwd is None:
        return functools.partial(custom_bwd, device_type=device_type)

    @functools.wraps(bwd)
    def decorate_bwd(*args, **kwargs):
        with autocast(device_type=device_type, enabled=args[0]._fwd_used_autocast, dtype=args[0]._dtype):
            return bwd(*args, **kwargs)

    return decorate_bwd


def _get_autocast_kwargs():
    """This thread's autocast state for CUDA and the CPU, as `torch.utils.checkpoint` saves it
    to recompute a forward pass under the same casts."""
    return [(dev, {"enabled": is_autocast_enabled(dev), "dtype": get_autocast_dtype(dev),
                   "cache_enabled": is_autocast_cache_enabled()}) for dev in ("cuda", "cpu")]


def _autocast_as(saved):
    """A context that runs its block in the state `_get_autocast_kwargs()` returned."""
    stack = contextlib.ExitStack()
    for dev, kwargs in saved:
        stack.enter_context(autocast(dev, **kwargs))
    return stack
