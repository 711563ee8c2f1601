"""`torch.amp.GradScaler`: loss scaling for mixed-precision training, as PyTorch's.

Disabled (or for 'cuda' when CUDA is unavailable, with PyTorch's warning) `scale(x)` returns `x`,
`step(opt)` calls `opt.step()`, and `update`/`unscale_` do nothing; enabled, it multiplies losses
by the scale, unscales gradients, skips steps whose gradients hold infs or NaNs, and grows or
backs off the scale as PyTorch does.
"""
import math
import warnings
from collections import defaultdict

__all__ = ["GradScaler"]


def _torch():
    import leafgrad

    return leafgrad


def _cuda_available():
    try:
        return bool(_torch().cuda.is_available())
    except Exception:  # pragma: no cover - a broken CUDA install counts as none
        return False


_READY, _UNSCALED, _STEPPED = 0, 1, 2


def _fresh_state():
    return {"stage": _READY, "found_inf": None}


class GradScaler:
    """Loss scaling for mixed-precision training (PyTorch's `torch.amp.GradScaler`).

    For 'cuda' without CUDA it warns "torch.cuda.amp.GradScaler is enabled, but CUDA is not
    available.  Disabling." and behaves as disabled: `scale(x)` is `x`, `step(opt)` is
    `opt.step()`, `get_scale()` is 1.0 and `state_dict()` is `{}`.

    >>> scaler = torch.amp.GradScaler("cpu")
    >>> scaler.is_enabled(), scaler.get_scale()
    (True, 65536.0)
    >>> scaler.scale(torch.tensor(2.0))
    tensor(131072.)
    >>> torch.amp.GradScaler("cpu", enabled=False).scale(torch.tensor(2.0))
    tensor(2.)
    """

    def __init__(self, device="cuda", init_scale=2.0**16, growth_factor=2.0, backoff_factor=0.5,
                 growth_interval=2000, enabled=True):
        self._device = device
        self._enabled = enabled
        if device == "cuda" and enabled and not _cuda_available():
            warnings.warn(
                "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.",
                stacklevel=2,
            )
            self._enabled = False
        if self._enabled:
            if growth_factor <= 1.0:
                raise AssertionError("The growth factor must be > 1.0.")
            if backoff_factor >= 1.0:
                raise AssertionError("The backoff factor must be < 1.0.")
            self._init_scale = init_scale
            self._scale = None
            self._growth_factor = growth_factor
            self._backoff_factor = backoff_factor
            self._growth_interval = growth_interval
            self._init_growth_tracker = 0
            self._growth_tracker = None
            self._per_optimizer_states = defaultdict(_fresh_state)

    def _lazy_init(self):
        if self._scale is None:
            self._scale = float(self._init_scale)
            self._growth_tracker = int(self._init_growth_tracker)

    def _check(self, funcname):
        if self._scale is None:
            raise AssertionError(
                f"Attempted {funcname} but _scale is None.  "
                "This may indicate your script did not use scaler.scale(loss or outputs) earlier in the iteration."
            )

    def scale(self, outputs):
        """Multiply `outputs` (a tensor or an iterable of tensors) by the scale factor.

        >>> torch.amp.GradScaler("cpu", init_scale=4.0).scale([torch.tensor(1.0)])
        [tensor(4.)]
        """
        if not self._enabled:
            return outputs
        torch = _torch()
        self._lazy_init()
        if isinstance(outputs, torch.Tensor):
            return outputs * torch.tensor(self._scale, dtype=torch.float32, device=outputs.device)

        def apply(val):
            if isinstance(val, torch.Tensor):
                return val * torch.tensor(self._scale, dtype=torch.float32, device=val.device)
            if isinstance(val, (list, tuple)):
                return type(val)(apply(v) for v in val)
            if hasattr(val, "__iter__"):
                return map(apply, val)
            raise ValueError("outputs must be a Tensor or an iterable of Tensors")

        return apply(outputs)

    def unscale_(self, optimizer):
        """Divide the optimizer's gradients by the scale in place and record infs/NaNs.

        >>> p = torch.nn.Parameter(torch.ones(1))
        >>> opt = torch.optim.SGD([p], lr=0.1)
        >>> scaler = torch.amp.GradScaler("cpu", init_scale=8.0)
        >>> scaler.scale(p.sum()).backward()
        >>> scaler.unscale_(opt)
        >>> p.grad
        tensor([1.])
        """
        if not self._enabled:
            return
        torch = _torch()
        self._check("unscale_")
        state = self._per_optimizer_states[id(optimizer)]
        if state["stage"] == _UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since the last update().")
        if state["stage"] == _STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        inv = 1.0 / self._scale
        found = False
        with torch.no_grad():
            for group in optimizer.param_groups:
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    if p.grad.dtype == torch.float16:
                        raise ValueError("Attempting to unscale FP16 gradients.")
                    p.grad.mul_(inv)
                    if not bool(torch.isfinite(p.grad).all()):
                        found = True
        state["found_inf"] = found
        state["stage"] = _UNSCALED

    def step(self, optimizer, *args, **kwargs):
        """`optimizer.step()` on unscaled gradients, skipped if they hold infs or NaNs.

        >>> p = torch.nn.Parameter(torch.ones(1))
        >>> opt = torch.optim.SGD([p], lr=0.5)
        >>> scaler = torch.amp.GradScaler("cpu", enabled=False)
        >>> scaler.scale(p.sum()).backward()
        >>> scaler.step(opt); scaler.update()
        >>> p
        Parameter containing:
        tensor([0.5000], requires_grad=True)
        """
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is enabled.")
        self._check("step")
        state = self._per_optimizer_states[id(optimizer)]
        if state["stage"] == _STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if state["stage"] == _READY:
            self.unscale_(optimizer)
        retval = None
        if not state["found_inf"]:
            retval = optimizer.step(*args, **kwargs)
        state["stage"] = _STEPPED
        return retval

    def update(self, new_scale=None):
        """Grow the scale after `growth_interval` clean steps, back off after a skipped one.

        >>> scaler = torch.amp.GradScaler("cpu", enabled=False)
        >>> scaler.update()
        >>> scaler.get_scale()
        1.0
        """
        if not self._enabled:
            return
        torch = _torch()
        self._check("update")
        if new_scale is not None:
            if isinstance(new_scale, float):
                self._scale = new_scale
            else:
                reason = ("new_scale should be a float or a 1-element torch.cuda.FloatTensor or "
                          "torch.FloatTensor with requires_grad=False.")
                if not isinstance(new_scale, torch.Tensor) or new_scale.device.type != self._device:
                    raise AssertionError(reason)
                if new_scale.numel() != 1 or new_scale.requires_grad:
                    raise AssertionError(reason)
                self._scale = float(new_scale.item())
        else:
            founds = [s["found_inf"] for s in self._per_optimizer_states.values() if s["found_inf"] is not None]
            if not founds:
                raise AssertionError("No inf checks were recorded prior to update.")
            if any(founds):
                self._scale = float(torch.tensor(self._scale * self._backoff_factor, dtype=torch.float32))
                self._growth_tracker = 0
            else:
                self._growth_tracker += 1
                if self._growth_tracker == self._growth_interval:
                    grown = float(torch.tensor(self._scale * self._growth_factor, dtype=torch.float32))
                    if math.isfinite(grown):  # as PyTorch's _amp_update_scale_: never grow to inf
                        self._scale = grown
                    self._growth_tracker = 0
        self._per_optimizer_states = defaultdict(_fresh_state)

    def get_scale(self):
        """The current scale as a float (1.0 when disabled).

        >>> torch.amp.GradScaler("cpu", init_scale=1024.0).get_scale()
        1024.0
        """
        if self._enabled:
            return float(self._init_scale if self._scale is None else self._scale)
        return 1.0

    def get_growth_factor(self):
        return self._growth_factor

    def set_growth_factor(self, new_factor):
        self._growth_factor = new_factor

    def get_backoff_factor(self):
        return self._backoff_factor

    def set_backoff_factor(self, new_factor):
        self._backoff_factor = new_factor

    def get_growth_interval(self):
        return self._growth_interval

    def set_growth_interval(self, new_interval):
        self._growth_interval = new_interval

    def _get_growth_tracker(self):
        if self._enabled:
            return self._init_growth_tracker if self._growth_tracker is None else self._growth_tracker
        return 0

    def is_enabled(self):
        """Whether this scaler scales.

        >>> torch.amp.GradScaler("cpu").is_enabled()
        True
        """
        return self._enabled

    def state_dict(self):
        """The scaler's state (`{}` when disabled).

        >>> torch.amp.GradScaler("cpu").state_dict()
        {'scale': 65536.0, 'growth_factor': 2.0, 'backoff_factor': 0.5, 'growth_interval': 2000, '_growth_tracker': 0}
        """
        if self._enabled:
            return {
                "scale": self.get_scale(),
                "growth_factor": self._growth_factor,
                "backoff_factor": self._backoff_factor,
                "growth_interval": self._growth_interval,
                "_growth_tracker": self._get_growth_tracker(),
            }
        return {}

    def load_state_dict(self, state_dict):
        """Load a `state_dict()` (no-op when disabled).

        >>> s = torch.amp.GradScaler("cpu")
        >>> s.load_state_dict({'scale': 8.0, 'growth_factor': 2.0, 'backoff_factor': 0.5,
        ...                    'growth_interval': 10, '_growth_tracker': 3})
        >>> s.get_scale(), s.get_growth_interval()
        (8.0, 10)
        """
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError(
                "The source state dict is empty, possibly because it was saved "
                "from a disabled instance of GradScaler."
            )
        self._init_scale = state_dict["scale"]
        if self._scale is not None:
            self._scale = float(state_dict["scale"])
        self._growth_factor = state_dict["growth_factor"]
        self._backoff_factor = state_dict["backoff_factor"]
        self._growth_interval = state_dict["growth_interval"]
        self._init_growth_tracker = state_dict["_growth_tracker"]
        if self._growth_tracker is not None:
            self._growth_tracker = int(state_dict["_growth_tracker"])
