"""The parts of the GPU training steps (convolution, pooling, softmax, layer_norm, ...) timed
in leafgrad and PyTorch on one GPU, side by side; prints a markdown table.

    python benches/cuda_parts.py

Medians of 3 rounds of 30 calls (2 when one call takes over 50 ms), device synchronised
around each round; ratio = leafgrad / PyTorch (lower is better).
"""
import statistics
import time



def tm(lib, fn, iters=30):
    lib.cuda.synchronize(); t0 = time.perf_counter(); fn(); lib.cuda.synchronize()
    if time.perf_counter() - t0 > 0.05:
        iters = 2
    r = []
    for _ in range(3):
        lib.cuda.synchronize(); t0 = time.perf_counter_ns()
        for _ in range(iters):
            fn()
        lib.cuda.synchronize(); r.append((time.perf_counter_ns() - t0) / iters / 1e3)
    return statistics.median(r)


def parts(lib):
    F = lib.nn.functional
    lib.manual_seed(0)
    x = lib.ones(32, 1, 28, 28, device="cuda") * 0.1
    w = lib.randn(8, 1, 3, 3, device="cuda", requires_grad=True)
    b = lib.randn(8, device="cuda", requires_grad=True)
    y = F.conv2d(x, w, b, padding=1)
    g = lib.ones_like(y)
    a = lib.randn(32, 8, 28, 28, device="cuda", requires_grad=True)
    p = F.max_pool2d(a, 2)
    gp = lib.ones_like(p)
    big = lib.randn(64, 32, 28, 28, device="cuda", requires_grad=True)
    wb = lib.randn(64, 32, 3, 3, device="cuda", requires_grad=True)
    yb = F.conv2d(big, wb, padding=1)
    gb = lib.ones_like(yb)
    lin = lib.randn(32, 1568, device="cuda", requires_grad=True)
    lw = lib.randn(10, 1568, device="cuda", requires_grad=True)
    t = lib.tensor([i % 10 for i in range(32)]).cuda()
    return [
        ("conv2d fwd 32x1x28x28 -> 8", lambda: F.conv2d(x, w, b, padding=1)),
        ("conv2d fwd+bwd (w,b)", lambda: lib.autograd.grad(F.conv2d(x, w, b, padding=1), [w, b], g)),
        ("conv2d fwd 64x32x28x28 -> 64", lambda: F.conv2d(big, wb, padding=1)),
        ("conv2d fwd+bwd big (x,w)", lambda: lib.autograd.grad(F.conv2d(big, wb, padding=1), [big, wb], gb)),
        ("relu 32x8x28x28", lambda: F.relu(a)),
        ("max_pool2d fwd", lambda: F.max_pool2d(a, 2)),
        ("max_pool2d fwd+bwd", lambda: lib.autograd.grad(F.max_pool2d(a, 2), [a], gp)),
        ("linear+ce fwd+bwd", lambda: lib.autograd.grad(F.cross_entropy(F.linear(lin, lw), t), [lin, lw])),
        ("softmax 2048x784", lambda: F.softmax(big.view(2048, 784), -1)),
        ("layer_norm 2048x784 fwd", lambda: F.layer_norm(big.view(2048, 784), (784,))),
        ("sum dim0 2048x784", lambda: big.view(2048, 784).sum(0)),
        ("mul bcast (N,C,H,W)*(C,1,1)", lambda: big * b.repeat(4).view(32, 1, 1)),
    ]


def main():
    import torch

    import leafgrad

    print("| part | leafgrad µs | torch µs | ratio |\n|---|---|---|---|", flush=True)
    pl, pt = parts(leafgrad), parts(torch)
    for (n, fl), (_, ft) in zip(pl, pt):
        r = []
        for lib, f in ((leafgrad, fl), (torch, ft)):
            try:
                r.append(tm(lib, f))
            except Exception as e:
                print(n, lib.__name__, "failed", type(e).__name__, str(e)[:200]); r.append(None)
        a, b = r
        print(f"| {n} | {a and round(a,1)} | {b and round(b,1)} | {a and b and round(a/b,2)} |", flush=True)


if __name__ == "__main__":
    main()
