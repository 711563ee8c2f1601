"""Graph memory: no leaks across training-style loops, no recursion on long chains.

`leafgrad._core._arena_stats()` returns {'nodes': live backward nodes, 'tensors': live tensor
records}. The default run does 200 iterations of a 1,000-node chain; LEAFGRAD_LONG=1 runs the
full 10,000.
"""

import gc
import os

import leafgrad as torch
from support import leafgrad_only, run_isolated

LONG = os.environ.get("LEAFGRAD_LONG") == "1"
ITERATIONS = 10_000 if LONG else 200
CHAIN = 1_000


def arena():
    import leafgrad._core as core

    stats = core._arena_stats()
    return {"nodes": stats["nodes"], "tensors": stats["tensors"]}


def chain(x, n):
    y = x
    for i in range(n):
        y = y * 1.0001 if i % 2 else y + 0.5
    return y


@leafgrad_only
def test_arena_stats_shape():
    stats = arena()
    assert set(stats) == {"nodes", "tensors"}
    assert all(isinstance(v, int) and v >= 0 for v in stats.values())
    before = arena()
    t = torch.ones(3)
    assert arena()["tensors"] > before["tensors"]
    del t
    assert arena() == before


@leafgrad_only
def test_build_backward_loop_returns_arena_to_start():
    gc.collect()
    start = arena()
    for it in range(ITERATIONS):
        x = torch.tensor(1.0, requires_grad=True)
        y = chain(x, CHAIN)
        y.backward()
        assert x.grad is not None
        del x, y
        if it % 50 == 0:
            assert arena() == start, f"iteration {it}"
    gc.collect()
    assert arena() == start


@leafgrad_only
def test_arena_is_freed_without_the_garbage_collector():
    gc.collect()
    gc.disable()
    try:
        start = arena()
        for _ in range(20):
            w = torch.tensor([1.0, 2.0], requires_grad=True)
            loss = (chain(w, 100) * w).sum()
            loss.backward()
            w.grad = None
            del w, loss
        assert arena() == start
    finally:
        gc.enable()


@leafgrad_only
def test_graph_dropped_without_backward_is_freed():
    gc.collect()
    start = arena()
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = chain(x, CHAIN).sum()
    assert arena()["nodes"] >= CHAIN
    del y
    assert arena()["nodes"] <= start["nodes"] + 1  # at most x's AccumulateGrad may stay
    del x
    assert arena() == start


@leafgrad_only
def test_retained_graph_and_create_graph_grads_are_freed():
    gc.collect()
    start = arena()
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (chain(x, 100) ** 2).sum()
    y.backward(retain_graph=True)
    y.backward()
    (g,) = torch.autograd.grad((x**3).sum(), x, create_graph=True)
    g.sum().backward()
    del x, y, g
    gc.collect()
    assert arena() == start


LONG_CHAIN_SNIPPET = """
import sys
import leafgrad as torch
sys.setrecursionlimit(1000)
x = torch.tensor(1.0, requires_grad=True)
y = x
for _ in range(100_000):
    y = y * 1.0
y.backward()
print(x.grad.item())
del y
z = x
for _ in range(100_000):
    z = z + 0.0
del z
print("freed")
"""


def test_hundred_thousand_node_chain_builds_backprops_and_frees():
    # In a subprocess: a recursive free would overflow the native stack and kill the process.
    out, err = run_isolated(LONG_CHAIN_SNIPPET, timeout=300)
    assert out.split() == ["1.0", "freed"], err


@leafgrad_only
def test_hundred_thousand_node_chain_returns_arena_to_start():
    out, err = run_isolated(
        """
        import leafgrad as torch
        import leafgrad._core as core
        def stats():
            s = core._arena_stats()
            return (s["nodes"], s["tensors"])
        start = stats()
        x = torch.tensor(2.0, requires_grad=True)
        y = x
        for _ in range(100_000):
            y = y * 1.0
        print(stats()[0] - start[0] >= 100_000)
        y.backward()
        del x, y
        print(stats() == start)
        """,
        timeout=300,
    )
    assert out.split() == ["True", "True"], err
