"""`torch._dynamo`, as far as training scripts touch it around `torch.compile`: `config` flags
(kept; leafgrad captures no graphs, see `torch.compile`), `reset`, `list_backends`, and the
`exc.InvalidBackend` error of an unknown backend name.

>>> torch._dynamo.config.suppress_errors
False
"""
from .. import _compile
from ..compiler import allow_in_graph, disable, is_compiling, reset  # noqa: F401
from . import config, exc  # noqa: F401

__all__ = ["config", "exc", "reset", "list_backends", "is_compiling", "disable", "allow_in_graph"]

_DEBUG_BACKENDS = ("aot_eager", "aot_eager_decomp_partition", "eager")


def list_backends(exclude_tags=("debug", "experimental")):
    """The backend names `torch.compile` accepts (PyTorch 2.15's; the debug ones too with
    `exclude_tags=None`).

    >>> torch._dynamo.list_backends()
    ['cudagraphs', 'inductor', 'openxla', 'tvm']
    """
    names = list(_compile._BACKENDS)
    if exclude_tags:
        names = [b for b in names if b not in _DEBUG_BACKENDS]
    return sorted(names)
