"""What an op autocast changes does when called inside a region: PyTorch's autocast kernel.

`run(op, dtype_at, fn, args, kwargs)` casts the arguments on each region's device type by the
op's policy for it (`_ops`), and calls `fn` with autocast off for those device types while it
runs (PyTorch's ExcludeDispatchKeyGuard: ops the op is composed of are not cast again). A cast is a
recorded `Tensor.to` (ToCopyBackward0), so gradients reach the inputs in their own dtype; a
float32 leaf that requires grad is cast once per region (the weight cache, `_state.cached`).
"""
from .. import _core
from . import _ops
from ._state import cached, tls

_Tensor = _core.Tensor
_F32 = _core.float32
_CASTABLE = (_F32, _core.float16, _core.bfloat16)  # the floating dtypes but float64


def _type(t):
    return "cuda" if t.is_cuda else t.device.type


def _eligible(t, dev):
    return isinstance(t, _Tensor) and t.dtype in _CASTABLE and _type(t) == dev


def _cast(t, to, dev):
    """PyTorch's cached_cast of one argument."""
    dtype = t.dtype
    if dtype == to or dtype not in _CASTABLE or _type(t) != dev:
        return t
    if (dtype == _F32 and to == tls.dtypes[dev] and t.requires_grad and t.is_leaf and not t._is_view()
            and tls.cache_enabled and _core.is_grad_enabled()):
        return cached(t, lambda s: s.to(to))
    return t.to(to)


def _map(value, fn):
    """`fn` applied to a tensor argument, or to each tensor of a list or tuple of them."""
    if isinstance(value, _Tensor):
        return fn(value)
    if type(value) in (list, tuple) and any(isinstance(v, _Tensor) for v in value):
        return type(value)(fn(v) if isinstance(v, _Tensor) else v for v in value)
    return value


def _tensors(args, kwargs):
    for value in (*args, *kwargs.values()):
        if isinstance(value, _Tensor):
            yield value
        elif type(value) in (list, tuple):
            for v in value:
                if isinstance(v, _Tensor):
                    yield v


def _cast_all(args, kwargs, to, dev):
    def one(t):
        return _cast(t, to, dev)

    args = tuple([_map(a, one) for a in args])
    return args, ({k: _map(v, one) for k, v in kwargs.items()} if kwargs else kwargs)


def _widest(args, kwargs, dev):
    """PyTorch's promote_type: float32 wins over the region's dtype; float64 is ignored."""
    low = current = tls.dtypes[dev]
    for t in _tensors(args, kwargs):
        if not _eligible(t, dev):
            continue
        nxt = t.dtype
        if current == _F32 or nxt == _F32:
            current = _F32
        elif not (current == low and nxt == low):
            raise RuntimeError("Unexpected floating ScalarType in at::autocast::prioritize")
    return current


def _with_float_dtype(args, kwargs, dev, at):
    first = args[0] if args else kwargs.get("input", kwargs.get("self"))
    if not _eligible(first, dev):
        return args, kwargs
    if at is not None and len(args) > at:
        if args[at] is None:
            args = (*args[:at], _F32, *args[at + 1:])
        return args, kwargs
    if kwargs.get("dtype") is None:
        kwargs = dict(kwargs, dtype=_F32)
    return args, kwargs


def _apply(policy, dev, args, kwargs, at):
    if policy == _ops.LOWER:
        return _cast_all(args, kwargs, tls.dtypes[dev], dev)
    if policy == _ops.FP32:
        return _cast_all(args, kwargs, _F32, dev)
    if policy == _ops.PROMOTE:
        return _cast_all(args, kwargs, _widest(args, kwargs, dev), dev)
    if policy == _ops.OPT:
        return _with_float_dtype(args, kwargs, dev, at)
    if any(_type(t) == dev for t in _tensors(args, kwargs)):  # BANNED
        raise RuntimeError(_ops.BCE_BANNED)
    return args, kwargs


def run(op, at, fn, args, kwargs):
    """Call `fn(*args, **kwargs)`, the op `op`, as PyTorch's autocast kernels would: for each
    region's device type that has a policy for the op (highest priority first), the op's
    tensors on that device type are cast, and the op runs with autocast off for those types.
    (A policy changes nothing for tensors on other devices, so the op's own body runs with
    autocast off for a device type it has no tensor on too: no op it is composed of would get
    one.)"""
    enabled = tls.enabled
    policy = op.policy
    devs = [d for d in enabled if d in policy]
    if not devs or (op.when is not None and not op.when(args, kwargs)):
        return fn(*args, **kwargs)
    tls.enabled = () if len(devs) == len(enabled) else tuple(d for d in enabled if d not in devs)
    try:
        if not (kwargs and kwargs.get("out") is not None):  # (out= overloads have no autocast kernel)
            for dev in devs:
                args, kwargs = _apply(policy[dev], dev, args, kwargs, at)
        return fn(*args, **kwargs)
    finally:
        tls.enabled = enabled


def cast_args(name, *args):
    """`args` as autocast casts the arguments of op `name` (unchanged outside autocast): for ops
    leafgrad composes inline where PyTorch calls a kernel autocast knows (nn.LSTM's layers)."""
    if not tls.enabled:
        return args
    seen = []
    run(_ops.BY_NAME[name], None, lambda *a: seen.append(a), args, {})
    return seen[0]
