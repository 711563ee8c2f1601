"""`torch._dynamo.config`: the flags scripts set (PyTorch's defaults). They are kept and have no
effect: leafgrad runs compiled models eagerly. Unknown names raise as PyTorch's config does."""
import sys
import types

_DEFAULTS = {
    "suppress_errors": False, "cache_size_limit": 8, "recompile_limit": 8, "accumulated_cache_size_limit": 256,
    "accumulated_recompile_limit": 256, "verbose": False, "capture_scalar_outputs": False,
    "capture_dynamic_output_shape_ops": False, "optimize_ddp": True, "automatic_dynamic_shapes": True,
    "assume_static_by_default": True, "guard_nn_modules": False, "inline_inbuilt_nn_modules": True,
}


class _Config(types.ModuleType):
    def __getattr__(self, name):
        if name in _DEFAULTS:
            return _DEFAULTS[name]
        raise AttributeError(f"torch._dynamo.config.{name} does not exist")

    def __setattr__(self, name, value):
        if name.startswith("__"):
            return super().__setattr__(name, value)
        if name not in _DEFAULTS:
            raise AttributeError(f"torch._dynamo.config.{name} does not exist")
        _DEFAULTS[name] = value


sys.modules[__name__].__class__ = _Config
