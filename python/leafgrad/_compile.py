"""`torch.compile` and `torch.compiler`: leafgrad has no graph capture (TorchDynamo) or code
generation (Inductor). `torch.compile` checks its arguments as PyTorch does and returns what
PyTorch returns: for a Module, an `OptimizedModule` around it (state_dict keys under
`_orig_mod.`, attributes forwarded), for a function, a wrapper. Both run the model eagerly, as
PyTorch's own `backend="eager"`: the same results, no speed-up. A custom backend (a callable
that would be given the captured graph) is refused: there is no graph to give it."""
import functools

__all__ = ["compile", "InvalidBackend", "TorchDynamoException"]

_MODES = ("default", "lite", "reduce-overhead", "max-autotune-no-cudagraphs", "max-autotune")
# torch._dynamo.list_backends() of PyTorch 2.15, and its debugging backends
_BACKENDS = ("inductor", "cudagraphs", "openxla", "tvm", "eager", "aot_eager", "aot_eager_decomp_partition")


class TorchDynamoException(RuntimeError):
    """`torch._dynamo.exc.TorchDynamoException`: the base of torch.compile's errors."""


class InvalidBackend(TorchDynamoException):
    """`torch._dynamo.exc.InvalidBackend`: a backend name PyTorch does not know."""


TorchDynamoException.__module__ = InvalidBackend.__module__ = "torch._dynamo.exc"


def _module_class():
    from .nn.modules.module import Module

    return Module


def _make_optimized_module():
    Module = _module_class()

    class OptimizedModule(Module):
        """What `torch.compile(module)` returns: the module under `_orig_mod`, called eagerly.

        >>> m = torch.compile(torch.nn.Linear(2, 1))
        >>> type(m).__name__, list(m.state_dict())
        ('OptimizedModule', ['_orig_mod.weight', '_orig_mod.bias'])
        """

        def __init__(self, mod):
            super().__init__()
            self._orig_mod = mod

        def forward(self, *args, **kwargs):
            return self._orig_mod(*args, **kwargs)

        def __getattr__(self, name):
            try:
                return super().__getattr__(name)
            except AttributeError:
                return getattr(self._modules["_orig_mod"], name)

    OptimizedModule.__module__ = "torch._dynamo.eval_frame"
    OptimizedModule.__qualname__ = "OptimizedModule"
    return OptimizedModule


_optimized = []


def _optimized_class():
    if not _optimized:
        _optimized.append(_make_optimized_module())
    return _optimized[0]


def _check(mode, options, backend):
    if mode is not None and options is not None:
        raise RuntimeError("Either mode or options can be specified, but both can't be specified at the same time.")
    if mode is not None and mode not in _MODES:
        raise RuntimeError(f"Unrecognized mode={mode}, should be one of: {', '.join(_MODES)}")
    if isinstance(backend, str) and backend not in _BACKENDS:
        raise InvalidBackend(f"Invalid backend: {backend!r}. See `torch._dynamo.list_backends()` for available "
                             "backends.")
    if backend is not None and not isinstance(backend, str):
        raise NotImplementedError("leafgrad has no graph capture (TorchDynamo): a custom torch.compile backend "
                                  "cannot be given a graph; leave backend= out to run the model eagerly")


def compile(model=None, *, fullgraph=False, dynamic=None, backend="inductor", mode=None, options=None, name=None,
            disable=False, **kwargs):
    """Return `model` (a Module or a function) ready to call as PyTorch's compiled one is: a
    Module comes back as an `OptimizedModule` (`_orig_mod`), a function as a wrapper. leafgrad
    runs it eagerly (PyTorch's `backend="eager"`): same results, no speed-up.
    `torch.compile(mode=...)` without a model is a decorator.

    >>> f = torch.compile(lambda x: x * 2)
    >>> f(torch.ones(2))
    tensor([2., 2.])
    """
    if model is None:
        def decorate(fn):
            return compile(fn, fullgraph=fullgraph, dynamic=dynamic, backend=backend, mode=mode,
                           options=options, name=name, disable=disable, **kwargs)

        return decorate
    if not callable(model):
        raise AssertionError(f"A callable function is expected, but {type(model)} is provided.")
    _check(mode, options, backend)
    if disable:
        return model
    if isinstance(model, _module_class()):
        return _optimized_class()(model)

    @functools.wraps(model)
    def compiled(*args, **kw):
        return model(*args, **kw)

    return compiled
