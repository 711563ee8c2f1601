"""The DataLoader: batches of a dataset, in a sampler's order, put together by `collate_fn`.

Loading happens in the calling process: `num_workers > 0` is accepted (with PyTorch's checks)
and loads the same batches in the same order without worker processes, so `get_worker_info()`
is None in the dataset's code and `worker_init_fn` is not called (docs/differences.md)."""
import collections.abc
import copy
import math
import re

from .dataset import IterableDataset
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler

__all__ = ["DataLoader", "default_collate", "default_convert", "get_worker_info"]

_COLLATE_ERROR = "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}"
_NP_STR_OBJ = re.compile(r"[SaUO]")


def get_worker_info():
    """Information about the current loader worker: None, as leafgrad loads in the main process.

    >>> torch.utils.data.get_worker_info() is None
    True
    """
    return None


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
    from ... import Tensor, as_tensor, float64, stack, tensor

    elem = batch[0]
    elem_type = type(elem)
    if isinstance(elem, Tensor):
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
        self.multiprocessing_context = multiprocessing_context
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
        self._initialized = True

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

        indices = iter(self._index_sampler)
        # PyTorch draws its workers' base seed from the loader's generator (or the default one)
        # each time iteration starts, before the sampler draws: the same draw keeps the streams
        # equal
        empty((), dtype=int64).random_(generator=self.generator)
        if self._iterable:
            return self._iter_stream(indices, iter(self.dataset))
        return self._iter_map(indices)

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
