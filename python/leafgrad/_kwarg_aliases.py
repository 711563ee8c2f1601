"""The keyword spellings PyTorch's argument parser accepts besides a parameter's own name.

PyTorch's C++-bound functions and Tensor methods (not the ones written in Python, such as
`torch.norm` or `Tensor.split`) take NumPy's names: `axis=` for `dim=` and `keepdims=` for
`keepdim=` (`x.sum(axis=0)`, `torch.cat(ts, axis=1)`, `x.argmax(axis=1)`), and the functions
whose sizes come as separate arguments also take them as one keyword (`torch.zeros(size=(2,))`,
`x.view(size=(3, 2))`, `x.permute(dims=(1, 0))`). `install` wraps each leafgrad function and
method that has such a parameter but not the other spelling in `_core._KwAliased`, a C-level
callable (no Python frame: warnings still point at the caller's line) that renames the keywords
and calls the function.
"""

import functools
import inspect

from . import _core

# NumPy's names, as PyTorch's python_arg_parser maps them (numpy_compatibility_arg_names)
_NUMPY_NAMES = {"axis": "dim", "keepdims": "keepdim"}

# PyTorch functions and methods with a `dim` that are written in Python and so do not take
# NumPy's names (`torch.norm(x, axis=1)` is a TypeError there)
_PYTHON_IN_TORCH = {"norm", "split", "unflatten", "unique", "unique_consecutive", "stft", "istft",
                    "lu", "chain_matmul", "cdist", "tensordot", "einsum"}

# functions whose sizes come as separate arguments (`*size`) and the keyword PyTorch also takes
# them as
_VARARG_KEYWORD = {
    "zeros": "size", "ones": "size", "empty": "size", "rand": "size", "randn": "size",
    "new_zeros": "size", "new_ones": "size", "new_empty": "size",
    "view": "size", "expand": "size", "reshape": "shape", "permute": "dims", "flip": "dims",
    "repeat": "repeats", "tile": "dims",
}


def _params(fn):
    try:
        return inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return None


def _wrap(fn, name):
    """`fn` wrapped by `_core._KwAliased` when it lacks a spelling PyTorch takes, else `fn`."""
    if isinstance(fn, _core._KwAliased) or not callable(fn):
        return fn
    params = _params(fn)
    if params is None:
        return fn
    renames = []
    if name not in _PYTHON_IN_TORCH:
        renames = [(alias, own) for alias, own in _NUMPY_NAMES.items()
                   if own in params and alias not in params]
    vararg = _VARARG_KEYWORD.get(name)
    var = inspect.Parameter.VAR_POSITIONAL
    if vararg is not None and (all(p.kind != var for p in params.values())
                               or (vararg in params and params[vararg].kind != var)):
        vararg = None
    if not renames and vararg is None:
        return fn
    wrapper = _core._KwAliased(fn, name, renames, vararg)
    # the wrapped function's name, docstring and signature (`__wrapped__`)
    functools.update_wrapper(wrapper, fn)
    return wrapper


def install(namespace, tensor_class):
    """Wrap the package's functions (its globals) and `tensor_class`'s methods."""
    for name, fn in list(namespace.items()):
        if name.startswith("_") or isinstance(fn, type) or not callable(fn):
            continue
        if not (inspect.isfunction(fn) or inspect.isbuiltin(fn)):
            continue
        namespace[name] = _wrap(fn, name)
    for name in dir(tensor_class):
        if name.startswith("_"):
            continue
        fn = tensor_class.__dict__.get(name)
        if fn is None or isinstance(fn, (property, staticmethod, classmethod)):
            continue
        if not (inspect.isfunction(fn) or inspect.ismethoddescriptor(fn)):
            continue
        wrapped = _wrap(fn, name)
        if wrapped is not fn:
            setattr(tensor_class, name, wrapped)
