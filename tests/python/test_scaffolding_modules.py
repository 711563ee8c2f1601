"""Modules that training scripts import on their way to the maths: `torch.multiprocessing`
(spawn, sharing strategies, Hogwild through shared memory), `torch.utils.data.distributed`
(DistributedSampler's shares, PyTorch's for a seed), `torch.nn.attention` (sdpa_kernel's
flags) and `torch.nn.utils.stateless`. Expectations recorded from PyTorch 2.15; with
LEAFGRAD_TEST_TORCH=1 they run against it."""
import warnings

import pytest
from support import USING_TORCH

import leafgrad as torch
from leafgrad.utils.data import DataLoader, TensorDataset
from leafgrad.utils.data.distributed import DistributedSampler


def test_distributed_sampler_shares():
    ds = list(range(10))
    s = DistributedSampler(ds, num_replicas=3, rank=1, shuffle=True, seed=0)
    assert (list(s), len(s)) == ([1, 3, 8, 4], 4)
    s.set_epoch(1)
    assert list(s) == [6, 0, 3, 5]
    assert list(DistributedSampler(ds, num_replicas=3, rank=2, shuffle=False, drop_last=True)) == [2, 5, 8]
    assert list(DistributedSampler(ds, num_replicas=4, rank=3, shuffle=False)) == [3, 7, 1]
    # fewer items than replicas: the order wraps round as often as needed
    assert list(DistributedSampler(list(range(3)), num_replicas=8, rank=7, shuffle=True, seed=5)) == [1]
    with pytest.raises(ValueError, match=r"^Invalid rank 2, rank should be in the interval \[0, 1\]$"):
        DistributedSampler(ds, num_replicas=2, rank=2)
    d = TensorDataset(torch.arange(10.0))
    batches = [b[0].tolist() for b in DataLoader(d, batch_size=2, sampler=DistributedSampler(d, 2, 0, seed=1))]
    assert batches == [[5.0, 1.0], [0.0, 9.0], [7.0]]


@pytest.mark.skipif(USING_TORCH, reason="PyTorch has a process group API to ask")
def test_distributed_sampler_without_a_process_group():
    with pytest.raises(RuntimeError, match="^Requires distributed package to be available$"):
        DistributedSampler(list(range(4)))


def test_sdpa_kernel():
    from leafgrad.nn.attention import SDPBackend, sdpa_kernel

    cuda = torch.backends.cuda
    assert [(k, int(v)) for k, v in SDPBackend.__members__.items()] == [
        ("ERROR", -1), ("MATH", 0), ("FLASH_ATTENTION", 1), ("EFFICIENT_ATTENTION", 2), ("CUDNN_ATTENTION", 3),
        ("OVERRIDEABLE", 4)]
    assert str(SDPBackend.MATH) == "SDPBackend.MATH"
    with sdpa_kernel(SDPBackend.MATH):
        assert (cuda.flash_sdp_enabled(), cuda.math_sdp_enabled()) == (False, True)
        q = torch.ones(1, 2, 3, 4)
        assert torch.nn.functional.scaled_dot_product_attention(q, q, q).shape == (1, 2, 3, 4)
    with sdpa_kernel([SDPBackend.FLASH_ATTENTION, SDPBackend.MATH]):
        assert (cuda.flash_sdp_enabled(), cuda.mem_efficient_sdp_enabled(), cuda.cudnn_sdp_enabled()) == (
            True, False, False)
    assert cuda.flash_sdp_enabled() and cuda.mem_efficient_sdp_enabled() and cuda.cudnn_sdp_enabled()
    with pytest.raises(AssertionError, match="^Backend must be an instance of SDPBackend or a list of SDPBackend "
                                             "instances, got str$"):
        with sdpa_kernel("x"):
            pass


def test_stateless_functional_call():
    m = torch.nn.Linear(1, 1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y = torch.nn.utils.stateless.functional_call(m, {"weight": torch.ones(1, 1), "bias": torch.zeros(1)},
                                                     (torch.full((1, 1), 3.0),))
    assert y.tolist() == [[3.0]]
    assert [str(w.message) for w in caught if w.category is FutureWarning] == [
        "`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 and will be removed in a future "
        "version of PyTorch. Please use `torch.func.functional_call` instead which is a drop-in replacement."]


def _work(i, scale, q):
    q.put((i, float((torch.ones(3) * scale * i).sum())))


def _fail(i):
    if i == 1:
        raise ValueError("boom")


def _hogwild(rank, model):
    with torch.no_grad():
        model.weight.add_(1.0)


def test_multiprocessing():
    mp = torch.multiprocessing
    assert mp.get_sharing_strategy() == "file_descriptor"
    assert mp.get_all_sharing_strategies() == {"file_descriptor", "file_system"}
    with pytest.raises(AssertionError):
        mp.set_sharing_strategy("x")
    ctx = mp.get_context("spawn")
    q = ctx.SimpleQueue()
    mp.spawn(_work, args=(2.0, q), nprocs=2)
    assert sorted([q.get(), q.get()]) == [(0, 0.0), (1, 6.0)]
    with pytest.raises(mp.ProcessRaisedException) as info:
        mp.spawn(_fail, nprocs=2)
    assert str(info.value).startswith("\n\n-- Process 1 terminated with the following error:\nTraceback")
    assert "ValueError: boom" in str(info.value)
    # Hogwild: parameters in shared memory, updated by forked processes
    m = torch.nn.Linear(1, 1, bias=False)
    torch.nn.init.zeros_(m.weight)
    m.share_memory()
    fork = mp.get_context("fork")
    procs = [fork.Process(target=_hogwild, args=(r, m)) for r in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    assert m.weight.item() == 2.0
