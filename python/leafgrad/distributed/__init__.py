"""`torch.distributed`: leafgrad has no distributed backend.

`is_available()` is False (PyTorch's Linux builds say True) and `is_initialized()` is False, so
scripts that guard on either run single-process; everything that would start or use a process
group raises RuntimeError("leafgrad has no distributed backend").

>>> torch.distributed.is_available()
False
"""

__all__ = [
    "is_available", "is_initialized", "init_process_group", "destroy_process_group", "get_rank",
    "get_world_size", "barrier", "all_reduce", "all_gather", "broadcast", "reduce", "new_group",
    "is_torchelastic_launched",
]

_MESSAGE = "leafgrad has no distributed backend"


def is_available():
    """False: leafgrad cannot run process groups.

    >>> torch.distributed.is_available()
    False
    """
    return False


def is_initialized():
    """False: no process group is ever initialized.

    >>> torch.distributed.is_initialized()
    False
    """
    return False


def is_torchelastic_launched():
    """Whether the process was started by torchrun (TORCHELASTIC_RUN_ID is set), as PyTorch.

    >>> isinstance(torch.distributed.is_torchelastic_launched(), bool)
    True
    """
    import os

    return os.getenv("TORCHELASTIC_RUN_ID") is not None


def _unavailable(name, what="leafgrad has no distributed backend"):
    """A `torch.distributed.<name>` that raises RuntimeError: there is no process group."""

    def f(*args, **kwargs):
        raise RuntimeError(_MESSAGE)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"""Raises RuntimeError: {what}.

    >>> torch.distributed.{name}()
    Traceback (most recent call last):
    ...
    RuntimeError: leafgrad has no distributed backend
    """
    return f


init_process_group = _unavailable("init_process_group")
destroy_process_group = _unavailable("destroy_process_group")
# (PyTorch raises ValueError for these when no process group is initialized)
get_rank = _unavailable("get_rank", "no process group exists")
get_world_size = _unavailable("get_world_size", "no process group exists")
barrier = _unavailable("barrier")
all_reduce = _unavailable("all_reduce")
all_gather = _unavailable("all_gather")
broadcast = _unavailable("broadcast")
reduce = _unavailable("reduce")
new_group = _unavailable("new_group")
