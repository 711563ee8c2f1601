"""`torch.jit` as PyTorch gives it with TorchScript disabled (`PYTORCH_JIT=0`, its documented
debugging mode): leafgrad has no TorchScript compiler, so `script` and `trace` hand back the
function or module they are given, which then runs eagerly with the same results, and the
TorchScript annotations (`ignore`, `unused`, `export`, `interface`, `annotate`, `Final`, ...)
are what they are in that mode. Each deprecated entry point gives PyTorch 2.15's FutureWarning.
Nothing is serialised: `torch.jit.save` needs a ScriptModule (PyTorch's AttributeError) and
`torch.jit.load` cannot read TorchScript archives.

>>> torch.jit.is_scripting()
False
"""
import builtins
import os
import typing
import warnings

__all__ = ["script", "trace", "trace_module", "script_method", "ignore", "unused", "export",
           "annotate", "Final", "is_scripting", "is_tracing", "fork", "wait", "save", "load", "ScriptModule",
           "ScriptFunction", "Attribute", "isinstance", "script_if_tracing"]

Final = typing.Final


def _deprecated(name, instead="`torch.compile` or `torch.export`"):
    warnings.warn(f"`torch.jit.{name}` is deprecated. Please switch to {instead}.", FutureWarning, stacklevel=3)


def script(obj, optimize=None, _frames_up=0, _rcb=None, example_inputs=None):
    """`obj` itself (a function, Module or class): TorchScript is off, as under `PYTORCH_JIT=0`.

    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", FutureWarning)
    ...     f = torch.jit.script(abs)
    >>> f(-3)
    3
    """
    _deprecated("script")
    return obj


def trace(func, example_inputs=None, optimize=None, check_trace=True, check_inputs=None, check_tolerance=1e-05,
          strict=True, _force_outplace=False, _module_class=None, _compilation_unit=None,
          example_kwarg_inputs=None, _store_inputs=True):
    """`func` itself (nothing is traced), as under `PYTORCH_JIT=0`.

    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", FutureWarning)
    ...     f = torch.jit.trace(abs, torch.tensor([-1.0]))
    >>> f(torch.tensor([-2.0]))
    tensor([2.])
    """
    _deprecated("trace")
    return func


def trace_module(mod, inputs, optimize=None, check_trace=True, check_inputs=None, check_tolerance=1e-05,
                 strict=True, _force_outplace=False, _module_class=None, _compilation_unit=None,
                 example_inputs_is_kwarg=False, _store_inputs=True):
    """`mod` itself (nothing is traced).

    >>> m = torch.nn.Linear(1, 1)
    >>> torch.jit.trace_module(m, {"forward": torch.ones(1, 1)}) is m
    True
    """
    return mod


def script_if_tracing(fn):
    """`fn` itself: nothing is ever traced.

    >>> def f(x): return -x
    >>> torch.jit.script_if_tracing(f)(-1)
    1
    """
    return fn


def script_method(fn):
    """`fn` itself.

    >>> def f(x): return -x
    >>> torch.jit.script_method(f) is f
    True
    """
    return fn


def ignore(drop=False, **kwargs):
    """Leave a function to Python (`@torch.jit.ignore` or `@torch.jit.ignore(drop=True)`): it is
    Python already.

    >>> def f(x): return -x
    >>> torch.jit.ignore(f)(-1)
    1
    """
    if callable(drop):
        return drop
    if drop:
        warnings.warn("ignore(True) has been deprecated. TorchScript will now drop the function call on "
                      "compilation. Use torch.jit.unused now. {}", category=FutureWarning, stacklevel=2)
    return lambda fn: fn


def unused(fn):
    """Mark a method TorchScript should not compile: `fn` itself.

    >>> def f(x): return x
    >>> torch.jit.unused(f) is f
    True
    """
    return fn


def export(fn):
    """Mark a method TorchScript should compile as an entry point: `fn` itself.

    >>> def f(x): return x
    >>> torch.jit.export(f) is f
    True
    """
    return fn


def annotate(the_type, the_value):
    """A type hint for TorchScript: `the_value` itself.

    >>> torch.jit.annotate(list, [])
    []
    """
    return the_value


def _matches(obj, target):
    origin, args = typing.get_origin(target), typing.get_args(target)
    if origin is None:
        if target in (list, dict, tuple) or target in (typing.List, typing.Dict, typing.Tuple):
            name = getattr(target, "__name__", None) or getattr(target, "_name", "").lower()
            raise RuntimeError(f"Attempted to use {name} without a contained type. Please add a contained type, "
                               f"e.g. {name}[int]")
        return builtins.isinstance(obj, target)
    if origin is typing.Union:
        return any(_matches(obj, a) for a in args)
    if not builtins.isinstance(obj, origin):
        return False
    if origin is list:
        return all(_matches(v, args[0]) for v in obj)
    if origin is dict:
        return all(_matches(k, args[0]) and _matches(v, args[1]) for k, v in obj.items())
    if origin is tuple:
        return len(obj) == len(args) and all(_matches(v, a) for v, a in zip(obj, args))
    return True


def isinstance(obj, target_type):
    """Whether `obj` is of a (container) type: `List[int]`, `Dict[str, Tensor]`, `Optional[T]`,
    ... with every element checked; a container type without element types is an error, as in
    PyTorch.

    >>> from typing import Dict, List
    >>> torch.jit.isinstance([1, 2], List[int]), torch.jit.isinstance([1], Dict[str, int])
    (True, False)
    """
    return _matches(obj, target_type)


def is_scripting():
    """False: code never runs as TorchScript in leafgrad.

    >>> torch.jit.is_scripting()
    False
    """
    return False


def is_tracing():
    """False: nothing is traced in leafgrad.

    >>> torch.jit.is_tracing()
    False
    """
    return False


class _Done:
    """The result of `fork`: computed at once; `wait()` returns it."""

    def __init__(self, value):
        self._value = value

    def wait(self):
        return self._value

    def done(self):
        return True


def fork(func, *args, **kwargs):
    """Run `func(*args, **kwargs)` (at once, as PyTorch does outside TorchScript) into a
    Future.

    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", FutureWarning)
    ...     torch.jit.wait(torch.jit.fork(abs, -2))
    2
    """
    warnings.warn("`torch.jit.fork` is deprecated. Please use `torch.compile` instead.", FutureWarning,
                  stacklevel=2)
    return _Done(func(*args, **kwargs))


def wait(future):
    """The value of a `fork` (see `fork`).

    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", FutureWarning)
    ...     torch.jit.wait(torch.jit.fork(max, 1, 2))
    2
    """
    warnings.warn("`torch.jit.wait` is deprecated. Please use `torch.compile` instead.", FutureWarning,
                  stacklevel=2)
    return future.wait()


class ScriptModule:
    """TorchScript's module class: nothing in leafgrad is one (`script` returns modules as they
    are), so `isinstance(m, torch.jit.ScriptModule)` is False, as under `PYTORCH_JIT=0`.

    >>> isinstance(torch.nn.Linear(1, 1), torch.jit.ScriptModule)
    False
    """


class ScriptFunction:
    """TorchScript's function class: nothing in leafgrad is one.

    >>> isinstance(abs, torch.jit.ScriptFunction)
    False
    """


def Attribute(value, type):  # noqa: N802  (PyTorch's name)
    """`torch.jit.Attribute(value, type)`: outside TorchScript, the value itself.

    >>> torch.jit.Attribute(3, int)
    3
    """
    return value


def save(m, f, _extra_files=None):
    """Save a ScriptModule: as under `PYTORCH_JIT=0`, `m` must have its own `save` method
    (PyTorch's AttributeError otherwise); use `torch.save(m.state_dict(), f)` for weights.

    >>> class Saver:
    ...     def save(self, f, _extra_files=None): print("saved to", f)
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", FutureWarning)
    ...     torch.jit.save(Saver(), "m.pt")
    saved to m.pt
    """
    _deprecated("save", "`torch.export`")
    m.save(f, _extra_files=_extra_files)


def load(f, map_location=None, _extra_files=None, _restore_shapes=False):
    """TorchScript archives cannot be read by leafgrad (there is no TorchScript interpreter):
    PyTorch's ValueError for a missing file, else a RuntimeError saying so.

    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", FutureWarning)
    ...     torch.jit.load("no/such/file.pt")
    Traceback (most recent call last):
    ...
    ValueError: The provided filename no/such/file.pt does not exist
    """
    _deprecated("load", "`torch.export`")
    if builtins.isinstance(f, (str, os.PathLike)) and not os.path.exists(f):
        raise ValueError(f"The provided filename {f} does not exist")
    raise RuntimeError("torch.jit.load: leafgrad cannot run TorchScript archives (it has no TorchScript "
                       "interpreter); load the weights with torch.load(state_dict_file) instead")
