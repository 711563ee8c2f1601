"""Threads: concurrent training, a shared read-only model, per-thread grad modes, backward in one
thread while others create tensors, and no deadlock when a hook waits on another thread.

Every thread is a daemon joined with a timeout: a deadlock fails the test instead of hanging
the run. Results are compared with single-threaded reference runs (bitwise: same ops in the
same order must give the same floats).
"""

import gc
import os
import threading
import time

import leafgrad as torch
from support import USING_TORCH

LONG = os.environ.get("LEAFGRAD_LONG") == "1"
THREADS = 8 if LONG else 4
ITERS = 2000 if LONG else 60
JOIN_TIMEOUT = 600 if LONG else 60

FIGURES = {}


def run_threads(targets, timeout=JOIN_TIMEOUT):
    """Start one daemon thread per callable; join with a timeout; re-raise the first error."""
    errors = []

    def wrap(fn):
        def body():
            try:
                fn()
            except BaseException as exc:  # noqa: BLE001 - reported to the test
                errors.append(exc)

        return body

    threads = [threading.Thread(target=wrap(fn), daemon=True) for fn in targets]
    for t in threads:
        t.start()
    deadline = time.monotonic() + timeout
    for t in threads:
        t.join(max(0.0, deadline - time.monotonic()))
    alive = [t for t in threads if t.is_alive()]
    assert not alive, (
        f"{len(alive)} thread(s) still running after {timeout}s: deadlock or hang"
    )
    if errors:
        raise errors[0]


def arena():
    if USING_TORCH:
        return None
    s = torch._core._arena_stats()
    return (s["nodes"], s["tensors"])


def fixed_model(seed):
    torch.manual_seed(seed)
    model = torch.nn.Sequential(
        torch.nn.Linear(3, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1)
    )
    return model


def fixed_data(seed, n=32):
    torch.manual_seed(1000 + seed)
    x = torch.randn(n, 3)
    y = (x.sum(1, keepdim=True) * 0.3).sin()
    return x, y


def train(model, x, y, iters):
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.5)
    for _ in range(iters):
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
    return [p.detach().clone().tolist() for p in model.parameters()], loss.item()


def test_threads_train_their_own_models():
    gc.collect()
    start = arena()
    # models and data are built before the threads start (the global RNG is shared state)
    setups = [(fixed_model(s), *fixed_data(s)) for s in range(THREADS)]
    refs = [train(fixed_model(s), *fixed_data(s), ITERS) for s in range(THREADS)]
    results = [None] * THREADS

    def job(i):
        def body():
            results[i] = train(*setups[i], ITERS)

        return body

    t0 = time.perf_counter()
    run_threads([job(i) for i in range(THREADS)])
    FIGURES["train"] = {
        "threads": THREADS,
        "iterations": ITERS,
        "seconds": round(time.perf_counter() - t0, 2),
    }
    for i in range(THREADS):
        assert results[i] == refs[i], (
            f"thread {i}: parameters differ from the single-threaded run"
        )
        assert results[i][1] < 0.1
    setups = results = None
    gc.collect()
    assert arena() == start


def test_shared_read_only_model_forward_and_input_gradients():
    model = fixed_model(7)
    x, _ = fixed_data(7)
    params_before = [p.detach().clone().tolist() for p in model.parameters()]
    with torch.no_grad():
        ref_out = model(x).tolist()
    xr = x.clone().requires_grad_()
    (ref_gx,) = torch.autograd.grad(model(xr).sum(), xr)
    ref_gx = ref_gx.tolist()

    def reader(mode):
        def body():
            for _ in range(ITERS):
                if mode == "no_grad":
                    with torch.no_grad():
                        out = model(x)
                    assert not out.requires_grad
                    assert out.tolist() == ref_out
                else:  # graphs built concurrently over the same parameters; gradients w.r.t. inputs only
                    xi = x.clone().requires_grad_()
                    out = model(xi)
                    assert out.requires_grad
                    (gx,) = torch.autograd.grad(out.sum(), xi)
                    assert gx.tolist() == ref_gx

        return body

    run_threads([reader("no_grad" if i % 2 else "grad") for i in range(THREADS)])
    assert [p.detach().tolist() for p in model.parameters()] == params_before
    assert all(p.grad is None for p in model.parameters())
    FIGURES["shared_model"] = {"threads": THREADS, "iterations": ITERS}


def test_grad_mode_is_per_thread():
    inside = threading.Event()
    release = threading.Event()
    seen = {}

    def holder():
        with torch.no_grad():
            inside.set()
            assert release.wait(JOIN_TIMEOUT)
            seen["holder inside"] = torch.is_grad_enabled()
            seen["holder op"] = (torch.ones(2, requires_grad=True) * 2).requires_grad
        seen["holder after"] = torch.is_grad_enabled()

    def other():
        assert inside.wait(JOIN_TIMEOUT)
        seen["other"] = torch.is_grad_enabled()
        seen["other op"] = (torch.ones(2, requires_grad=True) * 2).requires_grad
        torch.set_grad_enabled(False)  # only this thread
        seen["other disabled"] = torch.is_grad_enabled()
        release.set()

    run_threads([holder, other])
    assert seen == {
        "holder inside": False,
        "holder op": False,
        "holder after": True,
        "other": True,
        "other op": True,
        "other disabled": False,
    }
    assert torch.is_grad_enabled()


def test_new_threads_start_with_grad_enabled_and_no_inference_mode():
    seen = []

    def probe():
        seen.append((torch.is_grad_enabled(), torch.is_inference_mode_enabled()))

    with torch.no_grad():
        run_threads([probe])
    with torch.inference_mode():
        run_threads([probe])
    torch.set_grad_enabled(False)
    try:
        run_threads([probe])
    finally:
        torch.set_grad_enabled(True)
    assert seen == [(True, False)] * 3


def test_inference_mode_is_per_thread():
    inside = threading.Event()
    release = threading.Event()
    seen = {}

    def holder():
        with torch.inference_mode():
            inside.set()
            assert release.wait(JOIN_TIMEOUT)
            seen["holder"] = torch.ones(1).is_inference()

    def other():
        assert inside.wait(JOIN_TIMEOUT)
        seen["other"] = (
            torch.is_inference_mode_enabled(),
            torch.ones(1).is_inference(),
        )
        release.set()

    run_threads([holder, other])
    assert seen == {"holder": True, "other": (False, False)}


def test_backward_in_one_thread_while_others_create_tensors():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    chain = 2000 if LONG else 500
    rounds = 20 if LONG else 5
    stop = threading.Event()
    made = [0]

    def backprop():
        try:
            for _ in range(rounds):
                y = x
                for _ in range(chain):
                    y = y * 1.0001
                y.register_hook(
                    lambda g: time.sleep(0) or None
                )  # a Python call mid-backward
                y.sum().backward()
        finally:
            stop.set()

    def creator():
        while not stop.is_set():
            a = torch.randn(8, 8, requires_grad=True)
            b = (a @ a.t()).tanh().sum()
            b.backward()
            assert a.grad.shape == (8, 8)
            made[0] += 1

    run_threads([backprop] + [creator] * (THREADS - 1))
    expected = rounds * 1.0001**chain
    assert abs(x.grad[0].item() - expected) < 1e-3 * expected
    assert x.grad[0].item() == x.grad[1].item()
    FIGURES["backward_vs_creators"] = {
        "chain": chain,
        "rounds": rounds,
        "graphs_made_meanwhile": made[0],
    }


def test_concurrent_backward_into_one_leaf_accumulates():
    x = torch.ones(3, requires_grad=True)

    def job():
        for _ in range(ITERS):
            (x * 2).sum().backward()

    run_threads([job] * THREADS)
    assert x.grad.tolist() == [2.0 * ITERS * THREADS] * 3


def test_hook_waiting_on_another_threads_backward_does_not_deadlock():
    """Thread A's backward blocks in a hook until thread B has run a whole backward."""
    a_in_hook = threading.Event()
    b_done = threading.Event()
    result = {}

    def hook(g):
        a_in_hook.set()
        result["b finished while A was in its hook"] = b_done.wait(20)

    def thread_a():
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 3
        y.register_hook(hook)
        y.sum().backward()
        result["a grad"] = x.grad.tolist()

    def thread_b():
        assert a_in_hook.wait(JOIN_TIMEOUT)
        w = torch.tensor([4.0], requires_grad=True)
        (w * w).sum().backward()
        result["b grad"] = w.grad.tolist()
        b_done.set()

    run_threads([thread_a, thread_b])
    assert result == {
        "b finished while A was in its hook": True,
        "a grad": [3.0, 3.0],
        "b grad": [8.0],
    }


def test_zz_report_thread_figures(capsys):
    with capsys.disabled():
        print(f"\n[threads] {FIGURES}")
