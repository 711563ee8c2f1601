"""Grad-mode context managers and decorators: no_grad, enable_grad, set_grad_enabled,
inference_mode. The switches themselves are thread-local in the core."""
import functools
import inspect
import sys

from . import _core

# bound once: entering and leaving a grad-mode block is on the per-op path of every
# `with torch.no_grad():` loop
_swap_grad = _core._swap_grad_enabled
_set_grad = _core._set_grad_enabled


def _wrap_generator(make_ctx, func):
    """Apply the mode only while the generator body runs, not between next() calls."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        gen = func(*args, **kwargs)
        try:
            with make_ctx():
                response = gen.send(None)
            while True:
                try:
                    request = yield response
                except GeneratorExit:
                    with make_ctx():
                        gen.close()
                    raise
                except BaseException:
                    with make_ctx():
                        response = gen.throw(*sys.exc_info())
                else:
                    with make_ctx():
                        response = gen.send(request)
        except StopIteration as e:
            return e.value

    return wrapper


class _DecoratorContextManager:
    def clone(self):
        return self.__class__()

    def __call__(self, func):
        if inspect.isclass(func):
            import warnings

            warnings.warn(
                "Decorating classes is deprecated and will be disabled in future versions. You "
                "should only decorate functions or methods. To preserve the current behavior of "
                "class decoration, you can directly decorate the `__init__` method and nothing else.",
                FutureWarning,
                stacklevel=2,
            )
            cls = func

            def func(*args, **kwargs):  # construction runs in the mode, as PyTorch's lambda
                return cls(*args, **kwargs)

        if inspect.isgeneratorfunction(func):
            return _wrap_generator(self.clone, func)

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with self.clone():
                return func(*args, **kwargs)

        return wrapper

    def __repr__(self):
        return f"<torch.autograd.grad_mode.{type(self).__name__} object at {hex(id(self))}>"


class no_grad(_DecoratorContextManager):
    """Ops inside do not record a graph; results are leaves with requires_grad=False.

    A context manager, or a decorator (also of generator functions).

    >>> x = torch.ones(2, requires_grad=True)
    >>> with torch.no_grad():
    ...     y = x * 2
    >>> y.requires_grad, y.is_leaf
    (False, True)
    >>> @torch.no_grad()
    ... def double(t):
    ...     return t * 2
    >>> double(x).requires_grad
    False
    """

    # (orig_func=None): a new instance, or a function decorated by one
    __new__ = staticmethod(_core._grad_ctx_new)
    # PyTorch's no_grad.__init__(self) takes no argument: `no_grad(None)` is its TypeError
    _init_takes_no_args = True

    def __enter__(self):
        self.prev = _swap_grad(False)

    def __exit__(self, exc_type, exc_value, traceback):
        _set_grad(self.prev)


class enable_grad(_DecoratorContextManager):
    """Turn recording back on inside no_grad (a context manager or a decorator).

    >>> x = torch.ones(2, requires_grad=True)
    >>> with torch.no_grad():
    ...     with torch.enable_grad():
    ...         y = x * 2
    >>> y.requires_grad
    True
    """

    __new__ = staticmethod(_core._grad_ctx_new)

    def __enter__(self):
        self.prev = _swap_grad(True)

    def __exit__(self, exc_type, exc_value, traceback):
        _set_grad(self.prev)


class set_grad_enabled(_DecoratorContextManager):
    """Sets the mode when constructed; as a context manager restores it on exit.

    >>> with torch.set_grad_enabled(False):
    ...     print(torch.is_grad_enabled())
    False
    >>> torch.is_grad_enabled()
    True
    >>> torch.set_grad_enabled(False)
    torch.autograd.grad_mode.set_grad_enabled(mode=False)
    >>> torch.is_grad_enabled()
    False
    >>> _ = torch.set_grad_enabled(True)
    """

    def __init__(self, mode):
        if not isinstance(mode, bool):
            raise TypeError(
                f"set_grad_enabled(): argument 'enabled' (position 1) must be bool, not {type(mode).__name__}"
            )
        self.prev = _core.is_grad_enabled()
        self.mode = mode
        _core._set_grad_enabled(mode)

    def __call__(self, func):
        _core._set_grad_enabled(self.prev)
        return super().__call__(func)

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        _core._set_grad_enabled(self.prev)

    def clone(self):
        return self.__class__(self.mode)

    def __repr__(self):
        return f"torch.autograd.grad_mode.set_grad_enabled(mode={self.mode})"


class inference_mode(_DecoratorContextManager):
    """Like no_grad, and results are inference tensors that autograd refuses later.

    >>> x = torch.ones(2, requires_grad=True)
    >>> with torch.inference_mode():
    ...     y = x * 2
    >>> y.requires_grad, y.is_inference()
    (False, True)
    >>> y.requires_grad_()
    Traceback (most recent call last):
      ...
    RuntimeError: Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.
    """

    def __new__(cls, mode=True):
        if isinstance(mode, bool):
            return super().__new__(cls)
        return cls()(mode)

    def __init__(self, mode=True):
        self.mode = mode

    def __enter__(self):
        self.prev = (_core.is_grad_enabled(), _core.is_inference_mode_enabled())
        # PyTorch's InferenceMode(mode): inference mode on means grad mode off, and off means on
        _core._set_inference_mode(bool(self.mode))
        _core._set_grad_enabled(not self.mode)

    def __exit__(self, *exc):
        _core._set_grad_enabled(self.prev[0])
        _core._set_inference_mode(self.prev[1])

    def clone(self):
        return self.__class__(self.mode)


_multithreading = [True]


class set_multithreading_enabled(_DecoratorContextManager):
    """Let backward run its work on worker threads (the default) or only on the calling
    thread, within the `with` block. leafgrad's engine always runs on the calling thread, as
    PyTorch's does for CPU-only graphs; the flag is kept for code that sets or reads it.

    >>> x = torch.ones(2, requires_grad=True)
    >>> with torch.autograd.set_multithreading_enabled(False):
    ...     x.sum().backward()
    >>> x.grad
    tensor([1., 1.])
    """

    def __init__(self, mode):
        if not isinstance(mode, bool):
            raise TypeError(
                f"set_multithreading_enabled(): argument 'enabled' (position 1) must be bool, not {type(mode).__name__}"
            )
        self.prev = _multithreading[0]
        self.mode = mode
        _multithreading[0] = mode

    def __call__(self, func):
        _multithreading[0] = self.prev
        return super().__call__(func)

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        _multithreading[0] = self.prev

    def clone(self):
        return self.__class__(self.mode)


def _is_multithreading_enabled():
    """Is backward allowed to use worker threads? (see `set_multithreading_enabled`)"""
    return _multithreading[0]
