"""The DataLoader: batches of a dataset, in a sampler's order, put together by `collate_fn`.

`num_workers=0` loads in the calling process. `num_workers > 0` starts that many worker
processes (PyTorch's `_MultiProcessingDataLoaderIter`, with `multiprocessing`'s default start
method - fork on Linux - or `multiprocessing_context`): the main process sends each worker lists
of indices through its own queue, `prefetch_factor` batches ahead per worker, and hands out the
batches in the sampler's order (`in_order=True`) as they come back on one result queue. A worker
seeds `torch`, `random` and numpy as PyTorch's do (base seed drawn from the loader's generator,
plus its id), so random transforms draw PyTorch's numbers; `get_worker_info()` describes it,
`worker_init_fn(worker_id)` runs first, an iterable dataset is iterated by each worker's own copy,
and an exception in a worker is raised again in the main process with its original traceback.
Tensors in a batch come back through shared memory (`_shm.py`): the worker writes them once into
a POSIX shared memory block and the main process's batch tensor is that block, not a copy.
Workers stop at the end of each epoch, when the iterator is dropped, or (`persistent_workers`)
when the loader goes away."""
import atexit
import collections.abc
import copy
import itertools
import math
import multiprocessing
import multiprocessing.context
import os
import queue
import re
import warnings
import weakref

from . import _shm, _worker
from .dataset import IterableDataset
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler

__all__ = ["DataLoader", "default_collate", "default_convert", "get_worker_info"]

_COLLATE_ERROR = "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}"
_NP_STR_OBJ = re.compile(r"[SaUO]")


def get_worker_info():
    """Information about the current DataLoader worker process: None in the main process; in a
    worker, a `WorkerInfo` with its `id`, `num_workers`, `seed` (its torch and `random` seed) and
    `dataset` (the worker's own copy, e.g. to give each worker a shard of an IterableDataset).

    >>> torch.utils.data.get_worker_info() is None
    True
    >>> class Who(torch.utils.data.Dataset):
    ...     def __len__(self):
    ...         return 4
    ...     def __getitem__(self, i):
    ...         info = torch.utils.data.get_worker_info()
    ...         return torch.tensor([i, info.id, info.num_workers])
    >>> for batch in torch.utils.data.DataLoader(Who(), batch_size=2, num_workers=2):
    ...     print(batch.tolist())
    [[0, 0, 2], [1, 0, 2]]
    [[2, 1, 2], [3, 1, 2]]
    """
    return _worker._worker_info


def default_convert(data):
    """numpy arrays (in lists, tuples and dicts too) to tensors sharing their memory; the rest
    as it is (what a DataLoader without batching applies).

    >>> import numpy as np
    >>> torch.utils.data.default_convert([np.array([1, 2]), 3])
    [tensor([1, 2]), 3]
    """
    from ... import Tensor, as_tensor

    if isinstance(data, Tensor):
        return data
    elem_type = type(data)
    if elem_type.__module__ == "numpy" and elem_type.__name__ not in ("str_", "string_"):
        if elem_type.__name__ == "ndarray" and _NP_STR_OBJ.search(data.dtype.str) is not None:
            return data
        return as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        return _like_mapping(data, {k: default_convert(data[k]) for k in data})
    if isinstance(data, tuple) and hasattr(data, "_fields"):  # namedtuple
        return elem_type(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        return _like_sequence(data, [default_convert(d) for d in data])
    return data


def _like_mapping(elem, items):
    """The dict `items` in `elem`'s mapping type, as PyTorch keeps a sample's container type: a
    copy of a mutable mapping updated, else the type built from it, else a plain dict."""
    try:
        if isinstance(elem, collections.abc.MutableMapping):
            clone = copy.copy(elem)
            clone.update(items)
            return clone
        return type(elem)(items)
    except TypeError:
        return items


def _like_sequence(elem, values):
    """The list `values` in `elem`'s sequence type (see `_like_mapping`)."""
    try:
        if isinstance(elem, collections.abc.MutableSequence):
            clone = copy.copy(elem)
            for i, v in enumerate(values):
                clone[i] = v
            return clone
        return type(elem)(values)
    except TypeError:
        return values


def default_collate(batch):
    """Put a list of samples together into a batch, as PyTorch's default does: tensors stacked
    along a new first dim, numpy arrays and numbers as tensors (floats in float64), strings as
    lists, and dicts, tuples and lists element by element.

    >>> torch.utils.data.default_collate([(torch.tensor([1., 2.]), 0), (torch.tensor([3., 4.]), 1)])
    [tensor([[1., 2.],
            [3., 4.]]), tensor([0, 1])]
    >>> torch.utils.data.default_collate([{'x': 0.5, 'name': 'a'}, {'x': 1.5, 'name': 'b'}])
    {'x': tensor([0.5000, 1.5000], dtype=torch.float64), 'name': ['a', 'b']}
    """
    from ... import Tensor, as_tensor, float64, is_grad_enabled, stack, tensor

    elem = batch[0]
    elem_type = type(elem)
    if isinstance(elem, Tensor):
        if _worker._worker_info is not None and is_grad_enabled() and any(b.requires_grad for b in batch):
            # in a worker PyTorch stacks into shared memory with out=, which autograd refuses
            raise RuntimeError("stack(): functions with out=... arguments don't support automatic "
                               "differentiation, but one of the arguments requires grad.")
        return stack(batch, 0)
    if elem_type.__module__ == "numpy" and elem_type.__name__ not in ("str_", "string_"):
        if elem_type.__name__ in ("ndarray", "memmap"):
            if _NP_STR_OBJ.search(elem.dtype.str) is not None:
                raise TypeError(_COLLATE_ERROR.format(elem.dtype))
            return default_collate([as_tensor(b) for b in batch])
        if elem.shape == ():  # numpy scalars
            return as_tensor(batch)
    if isinstance(elem, float):
        return tensor(batch, dtype=float64)
    if isinstance(elem, int):
        return tensor(batch)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        return _like_mapping(elem, {key: default_collate([d[key] for d in batch]) for key in elem})
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # namedtuple
        return elem_type(*(default_collate(samples) for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        it = iter(batch)
        elem_size = len(next(it))
        if not all(len(e) == elem_size for e in it):
            raise RuntimeError("each element in list of batch should be of equal size")
        transposed = list(zip(*batch))
        collated = [default_collate(samples) for samples in transposed]
        return collated if isinstance(elem, tuple) else _like_sequence(elem, collated)
    raise TypeError(_COLLATE_ERROR.format(elem_type))


class _InfiniteConstantSampler(Sampler):
    """None forever: the 'indices' of an iterable dataset."""

    def __iter__(self):
        while True:
            yield None


class DataLoader:
    """Iterates over `dataset` in batches of `batch_size` (None: one sample at a time), in order
    or shuffled (`shuffle=True`, drawn from `generator` or the default generator as PyTorch
    draws), with a custom `sampler` or `batch_sampler`, `drop_last`, and `collate_fn` putting
    each batch together (default_collate).

    >>> torch.manual_seed(0)  # doctest: +ELLIPSIS
    <...Generator object at 0x...>
    >>> [b.tolist() for b in torch.utils.data.DataLoader(torch.arange(6), batch_size=4, shuffle=True)]
    [[0, 4, 3, 5], [2, 1]]
    """

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None,
                 num_workers=0, collate_fn=None, pin_memory=False, drop_last=False, timeout=0,
                 worker_init_fn=None, multiprocessing_context=None, generator=None, *,
                 prefetch_factor=None, persistent_workers=False, pin_memory_device="", in_order=True):
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError("prefetch_factor option could only be specified in multiprocessing."
                             "let num_workers > 0 to enable multiprocessing, otherwise set prefetch_factor to None.")
        elif num_workers > 0 and prefetch_factor is None:
            prefetch_factor = 2
        elif prefetch_factor is not None and prefetch_factor < 0:
            raise ValueError("prefetch_factor option should be non-negative")
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context  # checked by the property
        self.in_order = in_order
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable:
            if shuffle not in {False, None}:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified shuffle option, but got shuffle={shuffle}")
            if sampler is not None:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified sampler option, but got sampler={sampler}")
            if batch_sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified "
                                 f"batch_sampler option, but got batch_sampler={batch_sampler}")
        else:
            shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and drop_last")
            batch_size = None
            drop_last = False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with drop_last")
        if sampler is None:
            if self._iterable:
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        self._iterator = None  # the iterator that keeps persistent workers
        self._initialized = True
        self._check_worker_number_rationality()

    @property
    def multiprocessing_context(self):
        return self._multiprocessing_context

    @multiprocessing_context.setter
    def multiprocessing_context(self, multiprocessing_context):
        if multiprocessing_context is not None:
            if self.num_workers > 0:
                if isinstance(multiprocessing_context, str):
                    valid_start_methods = multiprocessing.get_all_start_methods()
                    if multiprocessing_context not in valid_start_methods:
                        raise ValueError(
                            "multiprocessing_context option should specify a valid start method in "
                            f"{valid_start_methods!r}, but got multiprocessing_context={multiprocessing_context!r}")
                    multiprocessing_context = multiprocessing.get_context(multiprocessing_context)
                if not isinstance(multiprocessing_context, multiprocessing.context.BaseContext):
                    raise TypeError(
                        "multiprocessing_context option should be a valid context object or a string specifying "
                        f"the start method, but got multiprocessing_context={multiprocessing_context}")
            else:
                raise ValueError("multiprocessing_context can only be used with multi-process loading "
                                 f"(num_workers > 0), but got num_workers={self.num_workers}")
        self._multiprocessing_context = multiprocessing_context

    def _check_worker_number_rationality(self):
        """PyTorch's warning when more workers than usable CPUs are asked for."""
        if not self.num_workers:
            return
        cpuset_checked = hasattr(os, "sched_getaffinity")
        max_num_worker_suggest = len(os.sched_getaffinity(0)) if cpuset_checked else os.cpu_count()
        if max_num_worker_suggest is None or self.num_workers > max_num_worker_suggest:
            if max_num_worker_suggest is not None:
                suggested = ("Our suggested max number of worker in current system is {}{}, which is smaller "
                             "than what this DataLoader is going to create.").format(
                    max_num_worker_suggest, "" if cpuset_checked else " (`cpuset` is not taken into account)")
            else:
                suggested = "DataLoader is not able to compute a suggested max number of worker in current system."
            warnings.warn(
                f"This DataLoader will create {self.num_workers} worker processes in total. {suggested} "
                "Please be aware that excessive worker creation might get DataLoader running slow or even freeze, "
                "lower the worker number to avoid potential slowness/freeze if necessary.", stacklevel=2)

    def __setattr__(self, attr, val):
        if getattr(self, "_initialized", False) and attr in (
                "batch_size", "batch_sampler", "sampler", "drop_last", "dataset", "persistent_workers"):
            raise ValueError(f"{attr} attribute should not be set after {self.__class__.__name__} is initialized")
        super().__setattr__(attr, val)

    @property
    def _auto_collation(self):
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        return self.batch_sampler if self._auto_collation else self.sampler

    def __iter__(self):
        from ... import empty, int64

        if self.num_workers == 0:
            _check_pin_memory(self, 2)
        if self.num_workers > 0:
            # persistent workers live in one iterator for the loader's lifetime (PyTorch)
            if self.persistent_workers:
                if self._iterator is None:
                    self._check_worker_number_rationality()
                    self._iterator = _MultiProcessingDataLoaderIter(self)
                else:
                    self._iterator._reset(self)
                return self._iterator
            self._check_worker_number_rationality()
            return _MultiProcessingDataLoaderIter(self)
        indices = iter(self._index_sampler)
        # PyTorch draws its workers' base seed from the loader's generator (or the default one)
        # each time iteration starts, before the sampler draws: the same draw keeps the streams
        # equal
        empty((), dtype=int64).random_(generator=self.generator)
        if self._iterable:
            return _SingleProcessDataLoaderIter(self, self._iter_stream(indices, iter(self.dataset)))
        return _SingleProcessDataLoaderIter(self, self._iter_map(indices))

    def _iter_map(self, indices):
        getitems = getattr(self.dataset, "__getitems__", None)
        for index in indices:
            if not self._auto_collation:
                yield self.collate_fn(self.dataset[index])
            elif callable(getitems):
                yield self.collate_fn(getitems(index))
            else:
                yield self.collate_fn([self.dataset[i] for i in index])

    def _iter_stream(self, indices, stream):
        for index in indices:
            if not self._auto_collation:
                try:
                    yield self.collate_fn(next(stream))
                except StopIteration:
                    return
                continue
            data = []
            for _ in index:
                try:
                    data.append(next(stream))
                except StopIteration:
                    break
            if len(data) == 0 or (self.drop_last and len(data) < len(index)):
                return
            yield self.collate_fn(data)
            if len(data) < len(index):
                return

    def __len__(self):
        if self._iterable:
            length = len(self.dataset)
            if self.batch_size is not None:
                length = length // self.batch_size if self.drop_last else math.ceil(length / self.batch_size)
            return length
        return len(self._index_sampler)


class _SingleProcessDataLoaderIter:
    """The iterator of a loader without workers, as PyTorch's (its name, `len()` of the batches
    the sampler gives, no `.next()` method): the batches are made as they are asked for.

    >>> it = iter(torch.utils.data.DataLoader(torch.arange(5), batch_size=2))
    >>> len(it), type(it).__name__, next(it)
    (3, '_SingleProcessDataLoaderIter', tensor([0, 1]))
    """

    def __init__(self, loader, batches):
        self._index_sampler = loader._index_sampler
        self._batches = batches
        self._num_yielded = 0

    def __iter__(self):
        return self

    def __next__(self):
        data = next(self._batches)
        self._num_yielded += 1
        return data

    def __len__(self):
        return len(self._index_sampler)

    def __getstate__(self):
        raise NotImplementedError("{} cannot be pickled", self.__class__.__name__)


# Iterators with workers. When the interpreter exits, each one still alive (persistent workers,
# an epoch not finished) stops its workers and unlinks its shared memory; multiprocessing's exit
# handler, which runs after this one, would kill them with batches in flight. Past that point
# (`_python_exiting`), an iterator's __del__ does nothing.
_live_iterators = weakref.WeakSet()
_python_exiting = False


def _shutdown_at_exit():
    global _python_exiting
    for iterator in list(_live_iterators):
        iterator._shutdown_workers()
    _python_exiting = True


atexit.register(_shutdown_at_exit)

# How often the main process, waiting for a batch, checks that its workers are alive.
_WORKER_CHECK_INTERVAL = 1.0

# The index queues of each live iterator. When the garbage collector frees an iterator caught
# in a reference cycle (one an exception's traceback holds, say), queues in the same cycle
# would have their feeder threads finalized first, and the None that tells a worker to exit
# would never be sent; kept reachable from here, they outlive the iterator's __del__.
_index_queues_of = {}


def _check_pin_memory(loader, stacklevel):
    """PyTorch's warning when an iterator starts with `pin_memory=True` and no accelerator
    (once per place it starts: the single-process and the worker-process iterator)."""
    from ... import cuda

    if loader.pin_memory and not cuda.is_available():
        warnings.warn("'pin_memory' argument is set as true but no accelerator is found, then device pinned "
                      "memory won't be used.", stacklevel=stacklevel)


class _MultiProcessingDataLoaderIter:
    """One pass (or, with persistent workers, every pass) over a DataLoader with worker
    processes: PyTorch's `_MultiProcessingDataLoaderIter`.

    Task `i` (the sampler's i-th index list) goes to worker `i % num_workers` (skipping workers
    whose iterable dataset copy ended) and comes back as `(i, batch)`; batches that arrive early
    wait in `_task_info` until their turn. Each worker has at most `prefetch_factor` tasks
    outstanding; each batch handed out sends the next task."""

    def __init__(self, loader):
        from ... import empty, int64

        _check_pin_memory(loader, 3)
        # everything _shutdown_workers looks at, first: __del__ runs even if a start fails
        self._shutdown = False
        self._owner_pid = os.getpid()
        self._workers = []
        self._index_queues = []
        self._workers_status = []
        self._shm_prefix = None

        self._dataset = loader.dataset
        self._iterable = loader._iterable
        self._auto_collation = loader._auto_collation
        self._drop_last = loader.drop_last
        self._index_sampler = loader._index_sampler
        self._num_workers = loader.num_workers
        self._timeout = loader.timeout
        self._collate_fn = loader.collate_fn
        self._sampler_iter = iter(self._index_sampler)
        # the workers' base seed: the same draw as the single-process loader makes, so the
        # default generator's stream is PyTorch's with and without workers
        self._base_seed = empty((), dtype=int64).random_(generator=loader.generator).item()
        self._persistent_workers = loader.persistent_workers
        self._num_yielded = 0
        self._prefetch_factor = loader.prefetch_factor
        self._in_order = loader.in_order
        if self._prefetch_factor <= 0:
            raise AssertionError("prefetch_factor must be greater than 0 for MultiProcessingDataLoaderIter")

        _live_iterators.add(self)
        context = loader.multiprocessing_context or multiprocessing
        if _shm.available():
            self._shm_prefix = _shm.new_prefix()
        self._worker_result_queue = context.Queue()
        self._data_queue = self._worker_result_queue
        self._workers_done_event = context.Event()
        for i in range(self._num_workers):
            index_queue = context.Queue()
            index_queue.cancel_join_thread()
            w = context.Process(
                target=_worker._worker_loop,
                args=(self._iterable, [self._dataset], index_queue, self._worker_result_queue,
                      self._workers_done_event, self._auto_collation, self._collate_fn,
                      self._drop_last, self._base_seed, loader.worker_init_fn, i,
                      self._num_workers, self._persistent_workers, self._shm_prefix))
            w.daemon = True
            w.start()
            self._index_queues.append(index_queue)
            self._workers.append(w)
            _index_queues_of[id(self)] = self._index_queues
        self._reset(loader, first_iter=True)

    def __iter__(self):
        return self

    def __len__(self):
        return len(self._index_sampler)

    def __getstate__(self):
        raise NotImplementedError("{} cannot be pickled", self.__class__.__name__)

    def _reset(self, loader, first_iter=False):
        self._sampler_iter = iter(self._index_sampler)
        self._num_yielded = 0
        self._send_idx = 0  # the next task to send
        self._rcvd_idx = 0  # the next task to hand out
        # task idx -> (worker_id,) while outstanding, (worker_id, data) once arrived early
        self._task_info = {}
        self._tasks_outstanding = 0
        # whether each worker still has work this epoch (an iterable dataset copy may end)
        self._workers_status = [True] * self._num_workers
        self._workers_num_tasks = [0] * self._num_workers
        self._worker_queue_idx_cycle = itertools.cycle(range(self._num_workers))
        if not first_iter:
            # persistent workers: start a new epoch and drop what the last one left behind
            for q in self._index_queues:
                q.put(_worker._ResumeIteration())
            resume_iteration_cnt = self._num_workers
            while resume_iteration_cnt > 0:
                return_idx, return_data = self._get_data()
                if isinstance(return_idx, _worker._ResumeIteration):
                    resume_iteration_cnt -= 1
        for _ in range(self._prefetch_factor * self._num_workers):
            self._try_put_index()

    def _try_get_data(self, timeout=_WORKER_CHECK_INTERVAL):
        """(True, (idx, data)) or, after `timeout` seconds without one, (False, None); raises
        when a worker died."""
        try:
            idx, data = self._data_queue.get(timeout=timeout)
        except Exception as e:
            failed_workers = []
            for worker_id, w in enumerate(self._workers):
                if self._workers_status[worker_id] and not w.is_alive():
                    failed_workers.append(w)
                    self._mark_worker_as_unavailable(worker_id)
            if failed_workers:
                pids_str = ", ".join(str(w.pid) for w in failed_workers)
                raise RuntimeError(f"DataLoader worker (pid(s) {pids_str}) exited unexpectedly") from e
            if isinstance(e, queue.Empty):
                return (False, None)
            raise
        if isinstance(data, _shm.Packed):
            data = _shm.unpack(data)
        return (True, (idx, data))

    def _get_data(self):
        if self._timeout > 0:
            success, data = self._try_get_data(self._timeout)
            if success:
                return data
            raise RuntimeError(f"DataLoader timed out after {self._timeout} seconds")
        while True:
            success, data = self._try_get_data()
            if success:
                return data

    def __next__(self):
        if self._sampler_iter is None:
            raise StopIteration
        data = self._next_data()
        self._num_yielded += 1
        return data

    def _next_data(self):
        while True:
            # skip tasks whose iterable worker ended before doing them
            while self._rcvd_idx < self._send_idx:
                info = self._task_info.get(self._rcvd_idx, None)
                if info:
                    worker_id = info[0]
                    if len(info) == 2 or self._workers_status[worker_id]:
                        break
                    del self._task_info[self._rcvd_idx]
                self._rcvd_idx += 1
            else:
                if not self._persistent_workers:
                    self._shutdown_workers()
                raise StopIteration

            if len(self._task_info[self._rcvd_idx]) == 2:
                worker_id, data = self._task_info.pop(self._rcvd_idx)
                self._rcvd_idx += 1
                return self._process_data(data, worker_id)

            idx, data = self._get_data()
            self._tasks_outstanding -= 1
            if self._iterable and isinstance(data, _worker._IterableDatasetStopIteration):
                if self._persistent_workers:
                    self._workers_status[data.worker_id] = False
                else:
                    self._mark_worker_as_unavailable(data.worker_id)
                self._try_put_index()
                continue
            if idx != self._rcvd_idx:
                if not self._in_order:
                    worker_id = self._task_info.pop(idx)[0]
                    return self._process_data(data, worker_id)
                self._task_info[idx] += (data,)
            else:
                worker_id = self._task_info.pop(idx)[0]
                self._rcvd_idx += 1
                return self._process_data(data, worker_id)

    def _try_put_index(self):
        max_tasks = self._prefetch_factor * self._num_workers
        try:
            index = next(self._sampler_iter)
        except StopIteration:
            return
        for _ in range(self._num_workers):  # the next worker with work left
            worker_queue_idx = next(self._worker_queue_idx_cycle)
            if self._workers_status[worker_queue_idx]:
                if self._in_order:
                    break
                if self._workers_num_tasks[worker_queue_idx] < max_tasks // sum(self._workers_status):
                    break
        else:
            return
        self._index_queues[worker_queue_idx].put((self._send_idx, index))
        self._task_info[self._send_idx] = (worker_queue_idx,)
        self._workers_num_tasks[worker_queue_idx] += 1
        self._tasks_outstanding += 1
        self._send_idx += 1

    def _process_data(self, data, worker_idx):
        self._workers_num_tasks[worker_idx] -= 1
        self._try_put_index()
        if isinstance(data, _worker.ExceptionWrapper):
            data.reraise()
        return data

    def _mark_worker_as_unavailable(self, worker_id, shutdown=False):
        """Tell worker `worker_id` to exit (None); it gets no more tasks."""
        self._index_queues[worker_id].put(None)
        self._workers_status[worker_id] = False

    def _shutdown_workers(self):
        """Stop the workers (each finishes its batch in hand and exits; one that does not is
        terminated) and unlink any shared memory block of a batch not received."""
        if _python_exiting or _worker is None:
            return
        # a forked worker may collect a copy of an earlier iterator: its workers are not ours
        if self._shutdown or os.getpid() != self._owner_pid:
            return
        self._shutdown = True
        try:
            if hasattr(self, "_workers_done_event"):
                self._workers_done_event.set()
            for worker_id in range(len(self._workers)):
                if self._persistent_workers or self._workers_status[worker_id]:
                    self._mark_worker_as_unavailable(worker_id, shutdown=True)
            for w in self._workers:
                w.join(timeout=_worker.MP_STATUS_CHECK_INTERVAL)
            for q in self._index_queues:
                q.cancel_join_thread()
                q.close()
        finally:
            for w in self._workers:
                if w.is_alive():
                    w.terminate()
                    w.join(timeout=_worker.MP_STATUS_CHECK_INTERVAL)
            if hasattr(self, "_worker_result_queue"):
                self._worker_result_queue.cancel_join_thread()
                self._worker_result_queue.close()
            _index_queues_of.pop(id(self), None)
            _shm.unlink_prefix(self._shm_prefix)

    def __del__(self):
        self._shutdown_workers()
