"""Soak: long training runs keep RSS flat and the arena at its baseline.

* A small MLP (4 -> 16 -> 16 -> 1, tanh) trained with Adam on a fixed regression problem for
  STEPS steps (default 300; LEAFGRAD_LONG=1: 100,000). After a warm-up, the arena
  (`leafgrad._core._arena_stats()`: live nodes and tensor records) must be identical after every
  step, and RSS (VmRSS from /proc/self/status) may not grow by more than a small allowance.
* Many graphs kept alive at once (shared leaves, shared subgraphs, retained graphs, some
  already backpropagated), then dropped in random order: the arena returns to its baseline.
Figures are printed (steps, RSS at warm-up and at the end, growth, arena sizes).
"""

import gc
import os
import random

import leafgrad as torch
import pytest
from support import USING_TORCH, leafgrad_only

LONG = os.environ.get("LEAFGRAD_LONG") == "1"
STEPS = 100_000 if LONG else 300
WARMUP = 50
# RSS allowance: allocator noise for a few hundred steps; for 100k steps a real leak of even
# one small tensor per step (>= 64 bytes * 100k = 6 MB) would exceed it.
RSS_ALLOWANCE_KB = 4096 if LONG else 8192
GRAPHS = 300 if LONG else 60

FIGURES = {}


def rss_kb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


def arena():
    if USING_TORCH:
        return None
    s = torch._core._arena_stats()
    return (s["nodes"], s["tensors"])


def make_model():
    torch.manual_seed(0)
    return torch.nn.Sequential(
        torch.nn.Linear(4, 16),
        torch.nn.Tanh(),
        torch.nn.Linear(16, 16),
        torch.nn.Tanh(),
        torch.nn.Linear(16, 1),
    )


def data():
    g = torch.manual_seed(1)  # noqa: F841
    x = torch.randn(64, 4)
    y = (x[:, :1] * 0.5 - x[:, 1:2] * x[:, 2:3] + x[:, 3:] * 0.25).tanh()
    return x, y


@pytest.mark.skipif(
    not os.path.exists("/proc/self/status"), reason="needs /proc (Linux)"
)
def test_training_soak_rss_flat_and_arena_at_baseline():
    model = make_model()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    x, y = data()
    losses = []
    base_arena = base_rss = None
    for step in range(STEPS):
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        if step % 50 == 0 or step == STEPS - 1:
            losses.append(loss.item())
        del loss
        if step == WARMUP:
            gc.collect()
            base_arena, base_rss = arena(), rss_kb()
        elif step > WARMUP and (step % 97 == 0 or step == STEPS - 1):
            assert arena() == base_arena, (
                f"step {step}: arena {arena()} != {base_arena}"
            )
    gc.collect()
    end_arena, end_rss = arena(), rss_kb()
    FIGURES["training"] = {
        "steps": STEPS,
        "rss_warmup_kb": base_rss,
        "rss_end_kb": end_rss,
        "rss_growth_kb": end_rss - base_rss,
        "arena": end_arena,
        "loss_first": round(losses[0], 5),
        "loss_last": round(losses[-1], 5),
    }
    assert end_arena == base_arena
    assert end_rss - base_rss <= RSS_ALLOWANCE_KB, FIGURES["training"]
    assert losses[-1] < losses[0] * 0.5, losses  # it really trained


def _graph(rng, leaves, shared):
    """One graph over the shared leaves; some use a shared subgraph, some are backpropagated."""
    a, b = rng.sample(leaves, 2)
    kind = rng.randrange(5)
    if kind == 0:
        out = (a * b).sum()
    elif kind == 1:
        out = (shared * a).tanh().sum()
    elif kind == 2:
        out = torch.stack([a.exp(), b.sin()]).logsumexp(0).sum()
    elif kind == 3:
        h = a
        for _ in range(rng.randrange(1, 30)):
            h = h * 0.9 + b.sigmoid()
        out = h.sum()
    else:
        out = (a @ b.t()).relu().mean()
    mode = rng.randrange(4)
    if mode == 1:
        out.backward()  # graph freed; the output tensor stays alive
    elif mode == 2:
        out.backward(retain_graph=True)  # graph retained
    elif mode == 3:
        torch.autograd.grad(
            out, [a], create_graph=True
        )  # a second-order graph, dropped
    return out


@leafgrad_only
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_many_graphs_dropped_in_random_order(seed):
    gc.collect()
    start = arena()
    rng = random.Random(seed)
    leaves = [torch.randn(3, 3, requires_grad=True) for _ in range(8)]
    shared = (leaves[0] + leaves[1]).reshape(
        3, 3
    )  # a subgraph many graphs hang on (saves nothing)
    graphs = [_graph(rng, leaves, shared) for _ in range(GRAPHS)]
    views = [g.view(1) for g in graphs[::3]]  # views keep their base's graph alive
    peak = arena()
    assert peak[0] > start[0]
    keep = graphs + views
    rng.shuffle(keep)
    del graphs, views
    while keep:
        keep.pop(rng.randrange(len(keep)))
    assert arena()[0] > start[0]  # leaves and the shared subgraph are still alive
    del shared
    for p in leaves:
        p.grad = None
    del leaves, p
    assert arena() == start, f"{arena()} != {start}"
    FIGURES.setdefault("graphs", []).append(
        {"seed": seed, "graphs": GRAPHS, "peak_arena": peak, "end_arena": start}
    )


@leafgrad_only
def test_training_loop_without_gc_keeps_arena_flat():
    """Reference counting alone frees every graph: no collector needed."""
    gc.collect()
    gc.disable()
    try:
        model = make_model()
        opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
        x, y = data()
        sizes = []
        for step in range(60):
            opt.zero_grad(set_to_none=step % 2 == 0)
            torch.nn.functional.mse_loss(model(x), y).backward()
            opt.step()
            if step >= 10:
                sizes.append(arena())
        assert len(set(sizes)) <= 2, sizes[:5]  # grads alternate between None and zeros
    finally:
        gc.enable()


def test_zz_report_soak_figures(capsys):
    with capsys.disabled():
        print(f"\n[soak] {FIGURES}")


def test_tensors_are_weak_referenceable():  # was a bug: no weakref support
    import weakref

    x = torch.ones(2)
    r = weakref.ref(x)
    assert r() is x
    del x
    gc.collect()
    assert r() is None
