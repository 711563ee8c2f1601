"""leafgrad's CUDA backend side by side with PyTorch's, on one GPU, in one run.

    python benches/cuda_compare.py [--markdown]

Needs a CUDA device and PyTorch built with CUDA. Each workload runs in both libraries,
alternating, after a warm-up; times are medians of per-iteration wall time with the device
synchronised at the end of each timed block; the ratio is leafgrad / PyTorch (lower is better).
"""
import argparse
import statistics
import time


def _time(lib, fn, iters):
    lib.cuda.synchronize()
    t0 = time.perf_counter_ns()
    for _ in range(iters):
        fn()
    lib.cuda.synchronize()
    return (time.perf_counter_ns() - t0) / iters


def small_mul(lib):
    x = lib.ones(1, device="cuda", requires_grad=True)
    y = lib.ones(1, device="cuda", requires_grad=True)
    return lambda: x * y


def add_16m(lib):
    x = lib.ones(4096, 4096, device="cuda")
    y = lib.ones(4096, 4096, device="cuda")
    return lambda: x + y


def exp_16m(lib):
    x = lib.ones(4096, 4096, device="cuda")
    return lambda: x.exp()


def sum_16m(lib):
    x = lib.ones(4096, 4096, device="cuda")
    return lambda: x.sum()


def sum_rows(lib):
    x = lib.ones(4096, 4096, device="cuda")
    return lambda: x.sum(1)


def transpose_copy(lib):
    x = lib.ones(4096, 4096, device="cuda")
    return lambda: x.t().contiguous()


def matmul_4096(lib):
    a = lib.ones(4096, 4096, device="cuda")
    b = lib.ones(4096, 4096, device="cuda")
    return lambda: a @ b


def mlp_step(lib):
    lib.manual_seed(0)
    nn = lib.nn
    model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 10)).cuda()
    opt = lib.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x = lib.ones(64, 784, device="cuda") * 0.01
    t = lib.tensor([i % 10 for i in range(64)]).cuda()

    def run():
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(x), t)
        loss.backward()
        opt.step()

    return run


def cnn_step(lib):
    lib.manual_seed(0)
    nn = lib.nn
    model = nn.Sequential(
        nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(8 * 14 * 14, 10)
    ).cuda()
    opt = lib.optim.SGD(model.parameters(), lr=0.01)
    x = lib.ones(32, 1, 28, 28, device="cuda") * 0.1
    t = lib.tensor([i % 10 for i in range(32)]).cuda()

    def run():
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), t).backward()
        opt.step()

    return run


WORKLOADS = [
    ("x*y, 1 element, requires_grad (per op)", small_mul, 2000),
    ("add 4096x4096 float32", add_16m, 50),
    ("exp 4096x4096 float32", exp_16m, 50),
    ("sum 4096x4096 float32 (all)", sum_16m, 50),
    ("sum 4096x4096 float32 (rows)", sum_rows, 50),
    ("t().contiguous() 4096x4096", transpose_copy, 50),
    ("matmul 4096x4096x4096 float32", matmul_4096, 10),
    ("MLP 784-256-256-10 SGD step, batch 64", mlp_step, 50),
    ("CNN conv-relu-pool-linear SGD step, batch 32", cnn_step, 10),
]


def fmt(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.0f} ns"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--markdown", action="store_true")
    p.add_argument("--rounds", type=int, default=5)
    args = p.parse_args()
    import torch

    import leafgrad

    rows = []
    for name, make, iters in WORKLOADS:
        fns = {}
        for lib in (leafgrad, torch):
            try:
                fns[lib.__name__] = (lib, make(lib))
                _time(lib, fns[lib.__name__][1], max(1, iters // 10))  # warm-up
            except Exception as e:  # a workload leafgrad cannot run is reported, not hidden
                fns[lib.__name__] = (lib, None)
                print(f"{name}: {lib.__name__} failed: {type(e).__name__}: {e}")
        times = {k: [] for k in fns}
        for _ in range(args.rounds):
            for k, (lib, fn) in fns.items():
                if fn is not None:
                    times[k].append(_time(lib, fn, iters))
        med = {k: statistics.median(v) for k, v in times.items() if v}
        ratio = med["leafgrad"] / med["torch"] if len(med) == 2 else float("nan")
        rows.append((name, med.get("leafgrad"), med.get("torch"), ratio))
    if args.markdown:
        print("| workload | leafgrad | PyTorch | ratio |\n| --- | --- | --- | --- |")
        for name, a, b, r in rows:
            print(f"| {name} | {fmt(a) if a else '-'} | {fmt(b) if b else '-'} | {r:.2f} |")
    else:
        for name, a, b, r in rows:
            print(f"{name:48s} {fmt(a) if a else '-':>10s} {fmt(b) if b else '-':>10s} {r:6.2f}")


if __name__ == "__main__":
    main()
