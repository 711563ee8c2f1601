"""DataLoader with worker processes (num_workers > 0): PyTorch's batches in PyTorch's order, its
worker seeds and WorkerInfo, iterable dataset sharding, exceptions re-raised from a worker,
persistent workers, clean shutdown, and batches that arrive in shared memory instead of through
a pipe. The numbers drawn in workers are recorded from torch 2.15 (Linux, fork). With
LEAFGRAD_TEST_TORCH=1 the same tests run against torch."""
import gc
import multiprocessing
import os
import random
import sys
import time

import numpy as np
import pytest

from support import USING_TORCH, record_warnings, run_isolated

import leafgrad as torch
from leafgrad.utils.data import DataLoader, Dataset, IterableDataset, TensorDataset, get_worker_info

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork and /dev/shm: Linux")


def dataset():
    return TensorDataset(torch.arange(30.).reshape(10, 3), torch.arange(10))


def labels(loader):
    return [y.tolist() for _, y in loader]


def shared_blocks():
    """This process's DataLoader shared memory blocks in /dev/shm (leafgrad names them
    lgdl<main pid>_...; torch names them after the worker, so there all torch_ blocks count)."""
    prefix = "torch_" if USING_TORCH else f"lgdl{os.getpid()}_"
    return sorted(n for n in os.listdir("/dev/shm") if n.startswith(prefix))


def mapping_of(tensor):
    """The file /proc/self/maps says the tensor's memory is mapped from ('' if anonymous)."""
    address = tensor.data_ptr()
    with open("/proc/self/maps") as f:
        for line in f:
            parts = line.split(None, 5)
            lo, hi = (int(x, 16) for x in parts[0].split("-"))
            if lo <= address < hi:
                return parts[5].strip() if len(parts) > 5 else ""
    return None


def assert_no_workers_left():
    deadline = time.monotonic() + 5
    while multiprocessing.active_children() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert multiprocessing.active_children() == []


class Draws(Dataset):
    """Each sample: its index, the worker's id and seed offset, and one draw from the worker's
    torch, random and numpy generators."""

    def __len__(self):
        return 8

    def __getitem__(self, i):
        info = get_worker_info()
        return (i, info.id, info.seed - torch.initial_seed(), round(torch.rand(1).item(), 6),
                round(random.random(), 6), round(float(np.random.rand()), 6))


def as_list(batch):
    return batch


class Stream(IterableDataset):
    """0..n-1, split between workers by get_worker_info() (each worker iterates its own copy)."""

    def __init__(self, n, shard=True):
        self.n = n
        self.shard = shard

    def __iter__(self):
        info = get_worker_info()
        if info is None or not self.shard:
            return iter(range(self.n))
        return iter(range(info.id, self.n, info.num_workers))


class Failing(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        if i == 2:
            raise ValueError("bad index 2")
        if i == 3:
            raise KeyError("k")
        return i


class Pids(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return torch.full((2048,), float(i)), os.getpid()


# ---------------------------------------------------------------- order and the random streams


def test_shuffled_batches_and_later_draws_are_pytorchs():
    torch.manual_seed(0)
    loader = DataLoader(dataset(), batch_size=4, shuffle=True, num_workers=2)
    # the same epochs, and the same default-generator draws after them, as without workers
    # (test_data.py records those from PyTorch)
    assert labels(loader) == [[6, 7, 1, 4], [2, 0, 9, 8], [3, 5]]
    assert round(torch.rand(1).item(), 6) == 0.307423
    assert labels(loader) == [[1, 3, 4, 7], [6, 8, 2, 5], [0, 9]]
    assert round(torch.rand(1).item(), 6) == 0.632306
    torch.manual_seed(0)
    single = labels(DataLoader(dataset(), batch_size=3, shuffle=True, drop_last=True))
    after_single = torch.rand(1).item()
    torch.manual_seed(0)
    loader = DataLoader(dataset(), batch_size=3, shuffle=True, drop_last=True, num_workers=2)
    assert len(loader) == 3
    assert labels(loader) == single == [[6, 7, 1], [4, 2, 0], [9, 8, 3]]
    assert torch.rand(1).item() == after_single
    assert len(iter(loader)) == 3
    gen = torch.Generator().manual_seed(5)
    torch.manual_seed(0)
    loader = DataLoader(dataset(), batch_size=2, shuffle=True, generator=gen, num_workers=2, prefetch_factor=1)
    assert labels(loader)[0] == [7, 4]
    assert round(torch.rand(1).item(), 6) == 0.496257


def test_batches_and_samples_without_batching():
    loader = DataLoader(dataset(), batch_size=None, num_workers=2)
    assert len(loader) == 10
    assert [(x.tolist(), y.item()) for x, y in loader][:2] == [([0., 1., 2.], 0), ([3., 4., 5.], 1)]
    rows = DataLoader([{"a": 1, "s": "x"}, {"a": 2, "s": "y"}, {"a": 3, "s": "z"}], batch_size=2, num_workers=1)
    out = list(rows)
    assert [b["a"].tolist() for b in out] == [[1, 2], [3]] and [b["s"] for b in out] == [["x", "y"], ["z"]]
    # in_order=False hands batches out as they arrive: all of them, once
    loader = DataLoader(dataset(), batch_size=2, num_workers=2, in_order=False)
    assert sorted(sum(labels(loader), [])) == list(range(10))


# ---------------------------------------------------------------- worker seeds and information


def test_worker_seeds_are_pytorchs():
    torch.manual_seed(123)
    loader = DataLoader(Draws(), batch_size=2, num_workers=2, collate_fn=as_list)
    batches = list(loader)
    # worker i: torch and random seeded with base_seed + i, numpy with PyTorch's _generate_state
    assert batches == [
        [(0, 0, 0, 0.768266, 0.842842, 0.479136), (1, 0, 0, 0.873832, 0.490974, 0.975636)],
        [(2, 1, 0, 0.914722, 0.796117, 0.125983), (3, 1, 0, 0.982351, 0.043832, 0.044238)],
        [(4, 0, 0, 0.145023, 0.136419, 0.032595), (5, 0, 0, 0.620461, 0.253398, 0.351429)],
        [(6, 1, 0, 0.187329, 0.668186, 0.395117), (7, 1, 0, 0.249149, 0.642407, 0.308383)],
    ]
    assert round(torch.rand(1).item(), 6) == 0.251671


def report_seed(worker_id):
    info = get_worker_info()
    # worker_init_fn runs in the worker, after seeding, with get_worker_info() filled in
    info.dataset.init = (worker_id, info.id, info.num_workers, info.seed, torch.initial_seed())


class Described(Dataset):
    init = None

    def __len__(self):
        return 4

    def __getitem__(self, i):
        info = get_worker_info()
        return info.dataset is self, type(info).__name__, self.init


def test_worker_info_and_worker_init_fn():
    assert get_worker_info() is None
    ds = Described()
    torch.manual_seed(1)
    out = list(DataLoader(ds, batch_size=2, num_workers=2, worker_init_fn=report_seed, collate_fn=as_list))
    (same0, name0, init0), (same1, _, init1) = out[0][0], out[1][0]
    assert same0 and same1 and name0 == "WorkerInfo"
    assert init0[:3] == (0, 0, 2) and init1[:3] == (1, 1, 2)
    assert init0[3] == init0[4] == init1[3] - 1 == init1[4] - 1  # seed: base_seed + worker id
    assert ds.init is None  # the worker changed its own copy of the dataset


# ---------------------------------------------------------------- iterable datasets


def test_iterable_dataset_sharded_by_worker_info():
    assert [b.tolist() for b in DataLoader(Stream(11), batch_size=3, num_workers=2)] == \
        [[0, 2, 4], [1, 3, 5], [6, 8, 10], [7, 9]]
    assert [b.tolist() for b in DataLoader(Stream(11), batch_size=3, num_workers=2, drop_last=True)] == \
        [[0, 2, 4], [1, 3, 5], [6, 8, 10]]
    assert list(DataLoader(Stream(5), batch_size=None, num_workers=2)) == [0, 1, 2, 3, 4]
    # without sharding each worker yields the whole dataset, as in PyTorch
    assert [b.tolist() for b in DataLoader(Stream(3, shard=False), batch_size=2, num_workers=2)] == \
        [[0, 1], [0, 1], [2], [2]]
    loader = DataLoader(Stream(7), batch_size=2, num_workers=2, persistent_workers=True)
    expected = [[0, 2], [1, 3], [4, 6], [5]]
    assert [b.tolist() for b in loader] == expected
    assert [b.tolist() for b in loader] == expected  # persistent workers start their copies over


# ---------------------------------------------------------------- errors


def raise_in_init(worker_id):
    raise RuntimeError(f"init {worker_id} failed")


def raised(exc_type, loader):
    """The exception iterating `loader` raises, without its traceback: the iterator (and its
    workers) go now rather than at the next garbage collection."""
    try:
        list(loader)
    except exc_type as e:
        e.__traceback__ = None
        return e
    pytest.fail(f"DID NOT RAISE {exc_type}")


def test_exceptions_in_workers_are_raised_with_pytorchs_wrapping():
    lines = str(raised(ValueError, DataLoader(Failing(), num_workers=2))).splitlines()
    assert lines[:2] == ["Caught ValueError in DataLoader worker process 0.",
                         "Original Traceback (most recent call last):"]
    assert lines[-1] == "ValueError: bad index 2"
    assert any("__getitem__" in line for line in lines)
    e = raised(KeyError, DataLoader(Failing(), num_workers=1, sampler=[3]))
    assert repr(e).splitlines()[0] == "KeyError(Caught KeyError in DataLoader worker process 0."
    assert str(e).splitlines()[-1] == "KeyError: 'k'"
    e = raised(RuntimeError, DataLoader(Failing(), num_workers=2, worker_init_fn=raise_in_init))
    assert str(e).splitlines()[0] == "Caught RuntimeError in DataLoader worker process 0."
    assert str(e).splitlines()[-1] == "RuntimeError: init 0 failed"
    assert_no_workers_left()


@pytest.mark.skipif(USING_TORCH, reason="PyTorch's workers wait 5 s for a None its finalized queues never send")
def test_iterator_freed_by_the_garbage_collector_stops_its_workers_at_once():
    with pytest.raises(ValueError) as e:
        list(DataLoader(Failing(), num_workers=2))
    del e  # the iterator is in a reference cycle through the traceback's frames
    gc.collect()
    assert_no_workers_left()


class Slow(Dataset):
    def __len__(self):
        return 2

    def __getitem__(self, i):
        time.sleep(0.3)
        return i


def test_timeout_and_argument_checks():
    assert str(raised(RuntimeError, DataLoader(Slow(), num_workers=1, timeout=0.05))) == \
        "DataLoader timed out after 0.05 seconds"
    with pytest.raises(ValueError, match=r"should specify a valid start method in \["):
        DataLoader(range(3), num_workers=1, multiprocessing_context="bogus")
    with pytest.raises(ValueError, match=r"^multiprocessing_context can only be used with multi-process loading "
                                         r"\(num_workers > 0\), but got num_workers=0$"):
        DataLoader(range(3), multiprocessing_context="spawn")
    with pytest.raises(TypeError, match="multiprocessing_context option should be a valid context object"):
        DataLoader(range(3), num_workers=1, multiprocessing_context=3)
    with pytest.raises(AssertionError, match="prefetch_factor must be greater than 0"):
        iter(DataLoader(range(3), num_workers=1, prefetch_factor=0))
    many = len(os.sched_getaffinity(0)) + 1
    with record_warnings() as caught:
        DataLoader(range(3), num_workers=many)
    assert [str(w.message).split(". ")[0] for w in caught] == \
        [f"This DataLoader will create {many} worker processes in total"]
    gc.collect()
    assert_no_workers_left()


# ---------------------------------------------------------------- worker lifetime


def test_persistent_workers_across_epochs():
    torch.manual_seed(5)
    loader = DataLoader(Pids(), batch_size=2, num_workers=2, persistent_workers=True)
    first = [(x[:, 0].tolist(), pid.tolist()) for x, pid in loader]
    # the base seed is drawn once, when the workers start: later epochs draw nothing
    after = torch.rand(1).item()
    torch.manual_seed(5)
    torch.empty((), dtype=torch.int64).random_()
    assert torch.rand(1).item() == after
    second = [(x[:, 0].tolist(), pid.tolist()) for x, pid in loader]
    assert first == second and [x for x, _ in first] == [[0., 1.], [2., 3.]]
    workers = {p for _, pid in first for p in pid}
    assert len(workers) == 2 and os.getpid() not in workers
    for x, _ in loader:  # an epoch left half way: the next one starts from the beginning
        break
    assert [x[:, 0].tolist() for x, _ in loader] == [[0., 1.], [2., 3.]]
    # a non-persistent loader starts new workers each epoch
    plain = DataLoader(Pids(), batch_size=2, num_workers=2)
    pids1 = {p for _, pid in plain for p in pid.tolist()}
    pids2 = {p for _, pid in plain for p in pid.tolist()}
    assert not pids1 & pids2
    del loader, x
    gc.collect()
    assert_no_workers_left()
    assert shared_blocks() == []


class Big(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, i):
        return torch.full((64, 64), float(i))


def test_no_processes_or_shared_memory_left_behind():
    assert shared_blocks() == []
    for x in DataLoader(Big(), batch_size=2, num_workers=2, prefetch_factor=4):
        time.sleep(0.2)  # the workers fill the result queue with blocks never received
        break
    assert_no_workers_left()  # the iterator was dropped mid-epoch: its workers are gone
    assert shared_blocks() == []
    assert x[:, 0, 0].tolist() == [0., 1.]  # the batch received lives on
    it = iter(DataLoader(Big(), batch_size=4, num_workers=2))
    next(it)
    del it
    assert_no_workers_left()
    assert shared_blocks() == []


def test_interpreter_exit_stops_workers_and_unlinks_blocks():
    # persistent workers and an epoch left half way when the program ends
    out, _ = run_isolated("""
        import os, time
        import leafgrad as torch
        from leafgrad.utils.data import DataLoader, Dataset

        class Big(Dataset):
            def __len__(self):
                return 64

            def __getitem__(self, i):
                return torch.full((64, 64), float(i)), os.getpid()

        persistent = DataLoader(Big(), batch_size=2, num_workers=2, persistent_workers=True)
        pids = {p for _, pid in persistent for p in pid.tolist()}
        it = iter(DataLoader(Big(), batch_size=2, num_workers=2, prefetch_factor=4))
        pids |= set(next(it)[1].tolist())
        time.sleep(0.2)
        print(os.getpid(), *pids)
    """)
    main, *workers = out.split()
    for pid in workers:
        assert not os.path.exists(f"/proc/{pid}") or open(f"/proc/{pid}/stat").read().split()[2] == "Z"
    prefixes = (f"lgdl{main}_",) + tuple(f"torch_{pid}_" for pid in workers)
    assert [n for n in os.listdir("/dev/shm") if n.startswith(prefixes)] == []


# ---------------------------------------------------------------- shared memory


def test_batches_arrive_in_shared_memory():
    x, y = next(iter(DataLoader(TensorDataset(torch.rand(8, 3, 32, 32), torch.arange(8)), batch_size=4, num_workers=1)))
    # the batch is not a copy read from a pipe: its memory is a (deleted) /dev/shm file the
    # worker wrote, mapped into this process
    where = mapping_of(x)
    assert where.startswith("/dev/shm/") and where.endswith("(deleted)"), where
    assert mapping_of(y).startswith("/dev/shm/")
    assert shared_blocks() == []  # unlinked already: the memory lives as long as the tensor
    view = x[1:3]
    del x
    gc.collect()
    assert view.shape == (2, 3, 32, 32) and mapping_of(view) == where
    view.add_(1)  # writable
    assert view.min().item() >= 1


class Odd(Dataset):
    def __len__(self):
        return 2

    def __getitem__(self, i):
        return (torch.ones(3, requires_grad=True), torch.ones(3, dtype=torch.bfloat16) * i,
                torch.arange(12.).reshape(3, 4).t(), torch.zeros(0), torch.zeros(3).expand(4, 3))


def test_tensors_of_every_kind_come_back_with_their_layout():
    out = list(DataLoader(Odd(), batch_size=None, num_workers=1))
    leaf, bf16, transposed, empty, expanded = out[1]
    assert leaf.requires_grad and leaf.is_leaf and leaf.tolist() == [1., 1., 1.]
    assert bf16.dtype == torch.bfloat16 and bf16.tolist() == [1., 1., 1.]
    assert transposed.stride() == (1, 4) and transposed.tolist() == torch.arange(12.).reshape(3, 4).t().tolist()
    assert empty.shape == (0,)
    assert expanded.shape == (4, 3) and expanded.stride() == (0, 1)
    # stacking samples that require grad fails in a worker, as in PyTorch (which stacks into
    # shared memory with out=)
    e = raised(RuntimeError, DataLoader(Odd(), batch_size=2, num_workers=1))
    assert str(e).splitlines()[-1] == ("RuntimeError: stack(): functions with out=... arguments don't support "
                                       "automatic differentiation, but one of the arguments requires grad.")


# ---------------------------------------------------------------- start methods


class Heavy(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        a = torch.rand(200, 200)
        return (a @ a).sum() + torch.rand(100000).exp().sum(), torch.get_num_threads()


def test_fork_after_heavy_work_in_the_parent():
    # kernels big enough to use the thread pool, in the parent right before it forks and in the
    # workers: a worker must not wait on pool threads that exist only in the parent
    for _ in range(2):
        a = torch.rand(400, 400)
        (a @ a).sum()
        torch.rand(300000).exp().sum()
        out = list(DataLoader(Heavy(), batch_size=2, num_workers=2, timeout=60))
        assert [n.tolist() for _, n in out] == [[1, 1], [1, 1]]  # one kernel thread per worker


def test_spawn_start_method():
    torch.manual_seed(3)
    loader = DataLoader(Draws(), batch_size=4, num_workers=1, collate_fn=as_list, multiprocessing_context="spawn")
    assert [b[0] for b in loader] == [(0, 0, 0, 0.287608, 0.217938, 0.879486), (4, 0, 0, 0.93601, 0.606256, 0.134565)]
