"""`torch.__version__`'s type: a string that compares with version strings and tuples by its
release numbers, as PyTorch's `TorchVersion` does, so version-gated code (`torch.__version__ >=
"2.0"`, `>= (2, 1)`) works.

>>> v = torch.torch_version.TorchVersion("2.15.0+leafgrad.0.1.0")
>>> v >= "2.0", v >= (2, 1), v < "3", v.split("+")[0]
(True, True, True, '2.15.0')
"""
import re

__all__ = ["TorchVersion"]


def _release(v):
    """The leading release numbers of a version (a string, tuple or list), as a tuple of ints."""
    if isinstance(v, (tuple, list)):
        return tuple(int(x) for x in v)
    m = re.match(r"\s*v?(\d+(?:\.\d+)*)", str(v))
    if m is None:
        raise ValueError(f"Invalid version: {v!r}")
    return tuple(int(x) for x in m.group(1).split("."))


def _cmp(a, b):
    a, b = _release(a), _release(b)
    n = max(len(a), len(b))
    a, b = a + (0,) * (n - len(a)), b + (0,) * (n - len(b))
    return (a > b) - (a < b)


class TorchVersion(str):
    """A version string comparable with strings, tuples and other versions by release number
    (a local label such as `+leafgrad.0.1.0` does not take part, except in `==` with a string,
    which compares the text).

    >>> torch.torch_version.TorchVersion("2.15.0") > "2.9.1"
    True
    """

    def __eq__(self, other):
        if isinstance(other, str):
            return str.__eq__(self, other)
        return _cmp(self, other) == 0

    def __ne__(self, other):
        return not self.__eq__(other)

    def __lt__(self, other):
        return _cmp(self, other) < 0

    def __le__(self, other):
        return _cmp(self, other) <= 0

    def __gt__(self, other):
        return _cmp(self, other) > 0

    def __ge__(self, other):
        return _cmp(self, other) >= 0

    __hash__ = str.__hash__
