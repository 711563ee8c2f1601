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


def _unavailable(*args, **kwargs):
    raise RuntimeError(_MESSAGE)


def init_process_group(*args, **kwargs):
    """Raises RuntimeError: leafgrad has no distributed backend.

    >>> torch.distributed.init_process_group("gloo")
    Traceback (most recent call last):
    ...
    RuntimeError: leafgrad has no distributed backend
    """
    _unavailable()


def destroy_process_group(*args, **kwargs):
    """Raises RuntimeError: leafgrad has no distributed backend.

    >>> torch.distributed.destroy_process_group()
    Traceback (most recent call last):
    ...
    RuntimeError: leafgrad has no distributed backend
    """
    _unavailable()


def get_rank(*args, **kwargs):
    """Raises RuntimeError: no process group exists (PyTorch raises ValueError when none is
    initialized).

    >>> torch.distributed.get_rank()
    Traceback (most recent call last):
    ...
    RuntimeError: leafgrad has no distributed backend
    """
    _unavailable()


def get_world_size(*args, **kwargs):
    """Raises RuntimeError (see `get_rank`).

    >>> torch.distributed.get_world_size()
    Traceback (most recent call last):
    ...
    RuntimeError: leafgrad has no distributed backend
    """
    _unavailable()


def barrier(*args, **kwargs):
    """Raises RuntimeError: leafgrad has no distributed backend.

    >>> torch.distributed.barrier()
    Traceback (most recent call last):
    ...
    RuntimeError: leafgrad has no distributed backend
    """
    _unavailable()


def all_reduce(*args, **kwargs):
    """Raises RuntimeError: leafgrad has no distributed backend.

    >>> torch.distributed.all_reduce(torch.ones(1))
    Traceback (most recent call last):
    ...
    RuntimeError: leafgrad has no distributed backend
    """
    _unavailable()


def all_gather(*args, **kwargs):
    """Raises RuntimeError: leafgrad has no distributed backend.

    >>> torch.distributed.all_gather([], torch.ones(1))
    Traceback (most recent call last):
    ...
    RuntimeError: leafgrad has no distributed backend
    """
    _unavailable()


def broadcast(*args, **kwargs):
    """Raises RuntimeError: leafgrad has no distributed backend.

    >>> torch.distributed.broadcast(torch.ones(1), 0)
    Traceback (most recent call last):
    ...
    RuntimeError: leafgrad has no distributed backend
    """
    _unavailable()


def reduce(*args, **kwargs):
    """Raises RuntimeError: leafgrad has no distributed backend.

    >>> torch.distributed.reduce(torch.ones(1), 0)
    Traceback (most recent call last):
    ...
    RuntimeError: leafgrad has no distributed backend
    """
    _unavailable()


def new_group(*args, **kwargs):
    """Raises RuntimeError: leafgrad has no distributed backend.

    >>> torch.distributed.new_group()
    Traceback (most recent call last):
    ...
    RuntimeError: leafgrad has no distributed backend
    """
    _unavailable()
