"""The host block cache in front of the allocator (#21): a training step's large buffers are
reused instead of faulted in again every step; a reused block never leaks its old values into a
tensor that must start zeroed; the cache can be emptied and sized."""

import pytest

import leafgrad as torch
from leafgrad import _core

pytestmark = pytest.mark.skipif(not hasattr(_core, "_host_cache_info"), reason="leafgrad only")


def test_a_freed_large_buffer_serves_the_next_one_of_its_size():
    _core._host_cache_empty(256)
    _, _, hits0, _ = _core._host_cache_info()
    x = torch.full((300_000,), 7.0)  # 1.2 MB: above the 128 KiB threshold
    del x
    bytes_cached, blocks, _, _ = _core._host_cache_info()
    assert bytes_cached >= 1_200_000 and blocks >= 1
    z = torch.zeros(300_000)  # the same size: the cached block, zeroed again
    assert _core._host_cache_info()[2] > hits0
    assert z.sum().item() == 0.0 and z.abs().max().item() == 0.0
    e = torch.empty(300_000).fill_(1.5)
    assert e.sum().item() == 1.5 * 300_000


def test_the_cache_empties_and_can_be_turned_off():
    x = torch.ones(400_000)
    del x
    _core._host_cache_empty()
    assert _core._host_cache_info()[:2] == (0, 0)
    _core._host_cache_empty(0)  # capacity 0: nothing is kept
    y = torch.ones(400_000)
    del y
    assert _core._host_cache_info()[:2] == (0, 0)
    _core._host_cache_empty(256)


def test_small_buffers_are_not_cached():
    _core._host_cache_empty()
    x = torch.ones(1000)
    del x
    assert _core._host_cache_info()[:2] == (0, 0)


def test_training_loop_reuses_its_buffers():
    _core._host_cache_empty()
    w = torch.randn(256, 784, requires_grad=True)
    x = torch.randn(64, 784)
    for _ in range(3):
        (x @ w.t()).relu().sum().backward()
        w.grad = None
    _, _, hits, misses = _core._host_cache_info()
    for _ in range(5):
        (x @ w.t()).relu().sum().backward()
        w.grad = None
    _, _, hits2, misses2 = _core._host_cache_info()
    # every step's large buffer (w's 800 KB gradient) comes from the cache (a stray miss
    # allowed: a worker thread's buffer may be freed a moment after the next step asks for one);
    # the GEMM's packing space is faer's own and never reaches the allocator per call
    assert hits2 - hits >= 5 and misses2 - misses <= 2, (hits, misses, hits2, misses2)
