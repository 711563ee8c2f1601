"""`torch.compiler`: the switches scripts call around `torch.compile`. leafgrad never captures
graphs (see `torch.compile`), so nothing is ever being compiled and these are what PyTorch's are
outside a compiled region.

>>> torch.compiler.is_compiling()
False
"""
__all__ = ["is_compiling", "is_dynamo_compiling", "disable", "reset", "allow_in_graph", "assume_constant_result",
           "compile"]


def compile(*args, **kwargs):
    """`torch.compile` (the same function)."""
    from .._compile import compile as _compile

    return _compile(*args, **kwargs)


def is_compiling():
    """False: leafgrad runs every call eagerly."""
    return False


def is_dynamo_compiling():
    """False: leafgrad runs every call eagerly."""
    return False


def reset():
    """Forget compiled code: there is none in leafgrad."""


def disable(fn=None, recursive=True, *, reason=None):
    """Exclude `fn` from compilation (a decorator): leafgrad compiles nothing, so `fn` as is.

    >>> torch.compiler.disable(abs)(-2)
    2
    """
    if fn is None:
        return lambda f: f
    return fn


def allow_in_graph(fn):
    """Let `fn` into a captured graph: leafgrad captures none, so `fn` as is."""
    return fn


def assume_constant_result(fn):
    """Mark `fn`'s result as constant for graph capture: leafgrad captures none, so `fn` as is."""
    return fn
