"""`torch.multiprocessing`: Python's `multiprocessing` (every name of it), the tensor sharing
strategy switches, and `spawn`/`start_processes` to run a function in several processes.

Tensors travel between processes by pickling (a copy), except memory moved to shared memory with
`share_memory_()` before a fork, which parent and children share (Hogwild-style training with
the "fork" start method). PyTorch's reductions that share any CPU tensor through a queue without
copying are not there.

>>> torch.multiprocessing.get_sharing_strategy()
'file_descriptor'
"""
import multiprocessing
import traceback
from multiprocessing import *  # noqa: F401,F403  (torch.multiprocessing re-exports it)

__all__ = [*multiprocessing.__all__, "get_sharing_strategy", "set_sharing_strategy", "get_all_sharing_strategies",
           "spawn", "start_processes", "ProcessContext", "ProcessRaisedException", "ProcessExitedException"]

_STRATEGIES = {"file_descriptor", "file_system"}
_strategy = ["file_descriptor"]


def get_all_sharing_strategies():
    """The strategies PyTorch knows on Linux: {'file_descriptor', 'file_system'}.

    >>> sorted(torch.multiprocessing.get_all_sharing_strategies())
    ['file_descriptor', 'file_system']
    """
    return set(_STRATEGIES)


def get_sharing_strategy():
    """The strategy set by `set_sharing_strategy` (kept; see the module note).

    >>> torch.multiprocessing.get_sharing_strategy()
    'file_descriptor'
    """
    return _strategy[0]


def set_sharing_strategy(new_strategy):
    """Choose how PyTorch would share CPU tensors between processes (kept and reported).

    >>> torch.multiprocessing.set_sharing_strategy("file_system")
    >>> torch.multiprocessing.get_sharing_strategy()
    'file_system'
    >>> torch.multiprocessing.set_sharing_strategy("file_descriptor")
    """
    if new_strategy not in _STRATEGIES:
        raise AssertionError()
    _strategy[0] = new_strategy


class _ProcessException(Exception):
    """A spawned process failed."""

    def __init__(self, msg, error_index, error_pid):
        super().__init__(msg)
        self.msg = msg
        self.error_index = error_index
        self.error_pid = error_pid

    def __reduce__(self):
        return type(self), (self.msg, self.error_index, self.error_pid)


class ProcessRaisedException(_ProcessException):
    """A spawned process raised: the message holds its traceback.

    >>> torch.multiprocessing.ProcessRaisedException("msg", 1, 1234).error_index
    1
    """


class ProcessExitedException(_ProcessException):
    """A spawned process exited with a non-zero status.

    >>> torch.multiprocessing.ProcessExitedException("msg", 0, 1234, 3).exit_code
    3
    """

    def __init__(self, msg, error_index, error_pid, exit_code, signal_name=None):
        super().__init__(msg, error_index, error_pid)
        self.exit_code = exit_code
        self.signal_name = signal_name

    def __reduce__(self):
        return type(self), (self.msg, self.error_index, self.error_pid, self.exit_code, self.signal_name)


def _wrap(fn, i, args, error_queue):
    try:
        fn(i, *args)
    except KeyboardInterrupt:
        pass
    except Exception:
        error_queue.put(traceback.format_exc())
        raise SystemExit(1)


class ProcessContext:
    """The processes `start_processes` started; `join()` waits for them and raises for the first
    one that failed.

    >>> torch.multiprocessing.ProcessContext([], []).join()
    True
    """

    def __init__(self, processes, error_queues):
        self.processes = processes
        self.error_queues = error_queues

    def pids(self):
        return [p.pid for p in self.processes]

    def join(self, timeout=None):
        """True when every process has finished (after raising for a failed one)."""
        for p in self.processes:
            p.join(timeout)
        if any(p.is_alive() for p in self.processes):
            return False
        for i, (p, q) in enumerate(zip(self.processes, self.error_queues)):
            if not q.empty():
                for other in self.processes:
                    if other.is_alive():
                        other.terminate()
                msg = f"\n\n-- Process {i} terminated with the following error:\n{q.get()}"
                raise ProcessRaisedException(msg, i, p.pid)
            if p.exitcode:
                raise ProcessExitedException(f"process {i} terminated with exit code {p.exitcode}", i, p.pid,
                                             p.exitcode)
        return True


def start_processes(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    """Run `fn(i, *args)` for i in range(nprocs), each in a new process started by `start_method`;
    with `join`, wait for them all (raising ProcessRaisedException for a process that raised),
    else return their ProcessContext.

    >>> torch.multiprocessing.start_processes(print, nprocs=0) is None
    True
    """
    ctx = multiprocessing.get_context(start_method)
    processes, queues = [], []
    for i in range(nprocs):
        q = ctx.SimpleQueue()
        p = ctx.Process(target=_wrap, args=(fn, i, args, q), daemon=daemon)
        p.start()
        processes.append(p)
        queues.append(q)
    context = ProcessContext(processes, queues)
    if not join:
        return context
    while not context.join():
        pass
    return None


def spawn(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    """`start_processes` with the "spawn" start method (PyTorch's `mp.spawn`).

    >>> torch.multiprocessing.spawn(print, nprocs=0) is None
    True
    """
    return start_processes(fn, args, nprocs, join, daemon, start_method)
