"""Side-by-side timings of leafgrad and PyTorch (when installed) in one run.

    python benches/compare.py [--quick] [--only NAME]

Each workload runs in both libraries, alternating, after a warm-up; the table shows the median
time per iteration and the ratio leafgrad / PyTorch (lower is better). Torch runs with one
thread, as the targets in the performance issue assume.
"""
import argparse
import statistics
import sys
import time


def _median_time(fn, iters, repeats):
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter_ns()
        for _ in range(iters):
            fn()
        samples.append((time.perf_counter_ns() - t0) / iters)
    return statistics.median(samples)


def mul_grad(lib):
    x = lib.tensor([1.5], requires_grad=True)
    y = lib.tensor([2.0], requires_grad=True)
    return lambda: x * y


def mul_no_grad(lib):
    x = lib.tensor([1.5], requires_grad=True)
    y = lib.tensor([2.0], requires_grad=True)

    def run():
        with lib.no_grad():
            return x * y

    return run


def chain_1000(lib):
    x = lib.tensor(0.5, requires_grad=True)

    def run():
        y = x
        for _ in range(1000):
            y = y * 1.0001
        y.backward()
        x.grad = None

    return run


def tutorial_step(lib):
    import importlib

    F = importlib.import_module(lib.__name__ + ".nn.functional")
    x = lib.ones(1, 3)
    W = lib.ones(3, 2, requires_grad=True)
    b = lib.ones(1, 2, requires_grad=True)
    y = lib.ones(1, 2)

    def run():
        z = (x @ W) + b
        loss = F.mse_loss(F.relu(z), y)
        loss.backward()
        W.grad = None
        b.grad = None

    return run


WORKLOADS = {
    "(a) x*y 1-element, requires_grad": (mul_grad, 20000, 1),
    "(b) x*y 1-element, no_grad": (mul_no_grad, 20000, 1),
    "(c) 1000-node scalar chain fwd+bwd (per node)": (chain_1000, 20, 1000),
    "(d) seed 000 tutorial step": (tutorial_step, 2000, 1),
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only")
    args = ap.parse_args()
    import leafgrad

    libs = [("leafgrad", leafgrad)]
    try:
        import torch

        torch.set_num_threads(1)
        libs.append(("torch", torch))
    except ImportError:
        print("torch is not installed: leafgrad timings only", file=sys.stderr)
    repeats = 3 if args.quick else 7
    print(f"{'workload':48} {'leafgrad':>12} {'torch':>12} {'ratio':>7}")
    for name, (make, iters, per) in WORKLOADS.items():
        if args.only and args.only not in name:
            continue
        iters = max(1, iters // (4 if args.quick else 1))
        fns = {ln: make(lib) for ln, lib in libs}
        for fn in fns.values():
            _median_time(fn, max(1, iters // 10), 1)
        times = {ln: [] for ln in fns}
        for _ in range(repeats):
            for ln, fn in fns.items():
                times[ln].append(_median_time(fn, iters, 1) / per)
        med = {ln: statistics.median(v) for ln, v in times.items()}
        lt = med["leafgrad"]
        tt = med.get("torch")
        ratio = f"{lt / tt:7.3f}" if tt else "      -"
        tts = f"{tt:10.0f}ns" if tt else "           -"
        print(f"{name:48} {lt:10.0f}ns {tts} {ratio}")


if __name__ == "__main__":
    main()
