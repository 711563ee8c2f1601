"""PyTorch's TORCH_WARN_ONCE: a warning given once per process, or every time after
`torch.set_warn_always(True)`."""
import warnings

_always = False
_given = set()


def set_warn_always(b):
    """Give the warnings PyTorch gives once per process every time (`b=True`) or once again.

    >>> torch.set_warn_always(True); torch.is_warn_always_enabled()
    True
    >>> torch.set_warn_always(False)
    """
    global _always
    _always = bool(b)


def is_warn_always_enabled():
    """Are once-per-process warnings given every time? (see `set_warn_always`)

    >>> torch.is_warn_always_enabled()
    False
    """
    return _always


def warn_once(key, message, category=UserWarning, stacklevel=2):
    """Warn with `message` the first time `key` is seen (every time under warn-always)."""
    if _always or key not in _given:
        _given.add(key)
        warnings.warn(message, category, stacklevel=stacklevel + 1)
