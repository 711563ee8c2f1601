"""What a DataLoader worker process runs (PyTorch's `torch/utils/data/_utils/worker.py`): its
seeds, `get_worker_info()`, the loop that turns index lists into batches, and the wrapper that
carries an exception and its traceback to the main process."""
import os
import queue
import random
import sys
import traceback
from dataclasses import dataclass

# How long a worker waits for an index before checking that the main process is alive (PyTorch's
# MP_STATUS_CHECK_INTERVAL); the main process checks its workers more often (dataloader.py).
MP_STATUS_CHECK_INTERVAL = 5.0


@dataclass(frozen=True, slots=True)
class WorkerInfo:
    """What `get_worker_info()` returns inside a worker: its `id` (0 to num_workers - 1),
    `num_workers`, the `seed` it seeded torch and `random` with (base seed + id), and its own
    copy of the `dataset` (PyTorch's class, with its `rng` and `worker_method` fields)."""

    id: int
    num_workers: int
    seed: int
    dataset: object
    rng: object = None
    worker_method: str = "multiprocessing"


_worker_info = None


@dataclass(frozen=True)
class _IterableDatasetStopIteration:
    """A worker's iterable dataset copy is exhausted."""

    worker_id: int


@dataclass(frozen=True)
class _ResumeIteration:
    """A persistent worker starts a new epoch."""

    seed: object = None


class KeyErrorMessage(str):
    """A str that is its own repr, so a re-raised KeyError shows its traceback readably."""

    __slots__ = ()

    def __repr__(self):
        return self


class ExceptionWrapper:
    """An exception and its formatted traceback, to raise again in another process (PyTorch's
    `torch._utils.ExceptionWrapper`)."""

    def __init__(self, exc_info=None, where="in background"):
        if exc_info is None:
            exc_info = sys.exc_info()
        self.exc_type = exc_info[0]
        self.exc_msg = "".join(traceback.format_exception(*exc_info))
        self.where = where

    def reraise(self):
        """Raise `exc_type("Caught <name> <where>.\\nOriginal Traceback ...")`."""
        msg = f"Caught {self.exc_type.__name__} {self.where}.\nOriginal {self.exc_msg}"
        if self.exc_type is KeyError:
            msg = KeyErrorMessage(msg)
        elif getattr(self.exc_type, "message", None):
            raise self.exc_type(message=msg)
        try:
            exception = self.exc_type(msg)
        except Exception:
            raise RuntimeError(msg) from None
        raise exception


def _generate_state(base_seed, worker_id):
    """The four 32-bit words a worker seeds numpy's global generator with: numpy's SeedSequence
    hashing of (worker_id, base_seed), as PyTorch computes it."""
    init_a, mult_a = 0x43B0D7E5, 0x931E8875
    init_b, mult_b = 0x8B51F9DD, 0x58F38DED
    mix_mult_l, mix_mult_r = 0xCA01F9DD, 0x4973F715
    xshift, mask32 = 16, 0xFFFFFFFF

    entropy = [worker_id, base_seed & mask32, base_seed >> 32, 0]
    hash_const_a = init_a

    def hashmix(value):
        nonlocal hash_const_a
        value = (value ^ hash_const_a) & mask32
        hash_const_a = (hash_const_a * mult_a) & mask32
        value = (value * hash_const_a) & mask32
        return (value ^ (value >> xshift)) & mask32

    def mix(x, y):
        result = ((mix_mult_l * x) - (mix_mult_r * y)) & mask32
        return (result ^ (result >> xshift)) & mask32

    pool = [hashmix(e) for e in entropy]
    for i_src in range(4):
        for i_dst in range(4):
            if i_src != i_dst:
                pool[i_dst] = mix(pool[i_dst], hashmix(pool[i_src]))

    hash_const_b = init_b
    state = []
    for value in pool:
        value = (value ^ hash_const_b) & mask32
        hash_const_b = (hash_const_b * mult_b) & mask32
        value = (value * hash_const_b) & mask32
        state.append((value ^ (value >> xshift)) & mask32)
    return state


class _ManagerWatchdog:
    """Whether the process that started this worker is still there."""

    def __init__(self):
        self.manager_pid = os.getppid()
        self.manager_dead = False

    def is_alive(self):
        if not self.manager_dead:
            self.manager_dead = os.getppid() != self.manager_pid
        return not self.manager_dead


class _MapFetcher:
    def __init__(self, dataset, auto_collation, collate_fn, drop_last):
        self.dataset = dataset
        self.auto_collation = auto_collation
        self.collate_fn = collate_fn

    def fetch(self, index):
        if self.auto_collation:
            getitems = getattr(self.dataset, "__getitems__", None)
            if getitems:
                data = getitems(index)
            else:
                data = [self.dataset[i] for i in index]
        else:
            data = self.dataset[index]
        return self.collate_fn(data)


class _IterableFetcher:
    def __init__(self, dataset, auto_collation, collate_fn, drop_last):
        self.dataset_iter = iter(dataset)
        self.auto_collation = auto_collation
        self.collate_fn = collate_fn
        self.drop_last = drop_last
        self.ended = False

    def fetch(self, index):
        if self.ended:
            raise StopIteration
        if self.auto_collation:
            data = []
            for _ in index:
                try:
                    data.append(next(self.dataset_iter))
                except StopIteration:
                    self.ended = True
                    break
            if len(data) == 0 or (self.drop_last and len(data) < len(index)):
                raise StopIteration
        else:
            data = next(self.dataset_iter)
        return self.collate_fn(data)


def _make_fetcher(iterable, dataset, auto_collation, collate_fn, drop_last):
    kind = _IterableFetcher if iterable else _MapFetcher
    return kind(dataset, auto_collation, collate_fn, drop_last)


def _worker_loop(iterable, dataset_holder, index_queue, data_queue, done_event, auto_collation,
                 collate_fn, drop_last, base_seed, init_fn, worker_id, num_workers,
                 persistent_workers, shm_prefix):
    """A worker: seed, call `init_fn(worker_id)`, then answer each `(idx, indices)` from
    `index_queue` with `(idx, batch)` (packed into shared memory when `shm_prefix` is set) on
    `data_queue` until it gets None; `_ResumeIteration` starts a new epoch (persistent workers)."""
    global _worker_info
    dataset = dataset_holder.pop()
    sharer = None
    try:
        from ... import manual_seed, set_num_threads
        from . import _shm

        # one kernel thread per worker, as PyTorch; it also keeps kernels off the thread pool
        # the parent may have started before forking (its threads do not exist here)
        set_num_threads(1)
        seed = base_seed + worker_id
        random.seed(seed)
        manual_seed(seed)
        try:
            import numpy as np
        except ImportError:
            np = None
        if np is not None:
            np.random.seed(_generate_state(base_seed, worker_id))

        if shm_prefix is not None:
            sharer = _shm.Sharer(shm_prefix, worker_id)
        _worker_info = WorkerInfo(id=worker_id, num_workers=num_workers, seed=seed, dataset=dataset)

        init_exception = None
        try:
            if init_fn is not None:
                init_fn(worker_id)
            fetcher = _make_fetcher(iterable, dataset, auto_collation, collate_fn, drop_last)
        except Exception:
            init_exception = ExceptionWrapper(where=f"in DataLoader worker process {worker_id}")

        # an exhausted iterable dataset copy: skip work until the main process says stop (None)
        iteration_end = False
        watchdog = _ManagerWatchdog()
        while watchdog.is_alive():
            try:
                r = index_queue.get(timeout=MP_STATUS_CHECK_INTERVAL)
            except queue.Empty:
                if done_event.is_set():  # the main process stopped without a word: stop too
                    break
                continue
            if isinstance(r, _ResumeIteration):
                data_queue.put((r, None))
                iteration_end = False
                fetcher = _make_fetcher(iterable, dataset, auto_collation, collate_fn, drop_last)
                continue
            if r is None:
                break
            if done_event.is_set() or iteration_end:
                continue
            idx, index = r
            if init_exception is not None:
                data = init_exception
                init_exception = None
            else:
                try:
                    data = fetcher.fetch(index)
                    if sharer is not None:
                        data = sharer.pack(data)
                except Exception as e:
                    if isinstance(e, StopIteration) and iterable:
                        data = _IterableDatasetStopIteration(worker_id)
                        iteration_end = True
                    else:
                        data = ExceptionWrapper(where=f"in DataLoader worker process {worker_id}")
            data_queue.put((idx, data))
            del data, idx, index, r
    except KeyboardInterrupt:
        pass  # the main process raises it
    finally:
        _worker_info = None
        if sharer is not None:
            sharer.cleanup()
    if done_event.is_set():
        data_queue.cancel_join_thread()
        data_queue.close()
