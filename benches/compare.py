"""Side-by-side timings of leafgrad and PyTorch (when installed), in one run.

    python benches/compare.py [--quick] [--only TEXT] [--markdown]

Each workload runs in both libraries, alternating, after a warm-up; the table shows the median
time per iteration and the ratio leafgrad / PyTorch (lower is better). Workloads (a)-(f) run
both libraries with one thread, as the performance issue's targets assume; (g) and (h) say how
many (`set_num_threads` in each library).
Memory (i) and import (j) run in fresh subprocesses; (p) shows whether a pure-Python thread
keeps running while the other runs kernels (the GIL released around them).
"""
import argparse
import math
import os

# numpy (used to make identical weights) must not leave idle BLAS threads spinning on the two
# cores both libraries are measured on.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import statistics
import subprocess
import sys
import time


def _time(fn, iters):
    t0 = time.perf_counter_ns()
    for _ in range(iters):
        fn()
    return (time.perf_counter_ns() - t0) / iters


def mul_grad(lib):
    x = lib.tensor([1.5], requires_grad=True)
    y = lib.tensor([2.0], requires_grad=True)
    return lambda: x * y


def mul_no_grad(lib):
    x = lib.tensor([1.5], requires_grad=True)
    y = lib.tensor([2.0], requires_grad=True)
    ctx = lib.no_grad()
    ctx.__enter__()
    try:
        f = lambda: x * y  # noqa: E731
        f()
    finally:
        ctx.__exit__(None, None, None)

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
    F = sys.modules[lib.__name__ + ".nn.functional"]
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


def _same_weights(lib, shapes):
    import numpy as np

    rng = np.random.default_rng(0)
    return [lib.tensor(rng.standard_normal(s).astype(np.float32) * 0.05, requires_grad=True) for s in shapes]


def mlp_step(lib):
    import numpy as np

    F = sys.modules[lib.__name__ + ".nn.functional"]
    w1, b1, w2, b2, w3, b3 = _same_weights(lib, [(256, 784), (256,), (256, 256), (256,), (10, 256), (10,)])
    params = [w1, b1, w2, b2, w3, b3]
    rng = np.random.default_rng(1)
    x = lib.tensor(rng.standard_normal((64, 784)).astype(np.float32))
    y = lib.tensor(rng.integers(0, 10, 64))
    opt = sys.modules[lib.__name__ + ".optim"].SGD(params, lr=0.01)

    def run():
        h = F.relu(F.linear(x, w1, b1))
        h = F.relu(F.linear(h, w2, b2))
        loss = F.cross_entropy(F.linear(h, w3, b3), y)
        opt.zero_grad()
        loss.backward()
        opt.step()

    return run


def cnn_step(lib):
    import numpy as np

    F = sys.modules[lib.__name__ + ".nn.functional"]
    c1, cb1, c2, cb2, fw, fb = _same_weights(lib, [(8, 1, 3, 3), (8,), (16, 8, 3, 3), (16,), (10, 16 * 5 * 5), (10,)])
    params = [c1, cb1, c2, cb2, fw, fb]
    rng = np.random.default_rng(1)
    x = lib.tensor(rng.standard_normal((32, 1, 28, 28)).astype(np.float32))
    y = lib.tensor(rng.integers(0, 10, 32))
    opt = sys.modules[lib.__name__ + ".optim"].SGD(params, lr=0.01)

    def run():
        h = F.max_pool2d(F.relu(F.conv2d(x, c1, cb1)), 2)
        h = F.max_pool2d(F.relu(F.conv2d(h, c2, cb2)), 2)
        loss = F.cross_entropy(F.linear(h.flatten(1), fw, fb), y)
        opt.zero_grad()
        loss.backward()
        opt.step()

    return run


def makemore_step(lib):
    """makemore part 2's MLP: embedding lookup, tanh layer, cross_entropy, manual SGD."""
    import numpy as np

    F = sys.modules[lib.__name__ + ".nn.functional"]
    C, w1, b1, w2, b2 = _same_weights(lib, [(27, 10), (30, 200), (200,), (200, 27), (27,)])
    params = [C, w1, b1, w2, b2]
    rng = np.random.default_rng(1)
    X = lib.tensor(rng.integers(0, 27, (32, 3)))
    Y = lib.tensor(rng.integers(0, 27, 32))

    def run():
        emb = C[X]
        h = lib.tanh(emb.view(-1, 30) @ w1 + b1)
        loss = F.cross_entropy(h @ w2 + b2, Y)
        for p in params:
            p.grad = None
        loss.backward()
        for p in params:
            p.data += -0.1 * p.grad

    return run


def _block(lib, C, n_head, T):
    """A pre-norm GPT block (causal self-attention, GELU MLP), written as minGPT/nanoGPT write it."""
    nn = lib.nn
    F = sys.modules[lib.__name__ + ".nn.functional"]

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.ln_1 = nn.LayerNorm(C)
            self.c_attn = nn.Linear(C, 3 * C)
            self.c_proj = nn.Linear(C, C)
            self.ln_2 = nn.LayerNorm(C)
            self.fc = nn.Linear(C, 4 * C)
            self.gelu = nn.GELU()
            self.proj = nn.Linear(4 * C, C)
            self.register_buffer("bias", lib.tril(lib.ones(T, T)).view(1, 1, T, T))

        def attn(self, x):
            B, T, C = x.size()
            q, k, v = self.c_attn(x).split(C, dim=2)
            k = k.view(B, T, n_head, C // n_head).transpose(1, 2)
            q = q.view(B, T, n_head, C // n_head).transpose(1, 2)
            v = v.view(B, T, n_head, C // n_head).transpose(1, 2)
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
            att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
            att = F.softmax(att, dim=-1)
            y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
            return self.c_proj(y)

        def forward(self, x):
            x = x + self.attn(self.ln_1(x))
            return x + self.proj(self.gelu(self.fc(self.ln_2(x))))

    return Block()


def _load_same(lib, model):
    import numpy as np

    rng = np.random.default_rng(0)
    with lib.no_grad():
        for p in model.parameters():
            p.copy_(lib.tensor(rng.standard_normal(tuple(p.shape)).astype(np.float32) * 0.05))


def block_step(lib):
    """One transformer block (B8 T32 C64, 4 heads) forward, backward and an AdamW step."""
    import numpy as np

    lib.manual_seed(0)
    block = _block(lib, 64, 4, 32)
    _load_same(lib, block)
    opt = lib.optim.AdamW(block.parameters(), lr=1e-3)
    x = lib.tensor(np.random.default_rng(1).standard_normal((8, 32, 64)).astype(np.float32))

    def run():
        loss = block(x).square().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()

    return run


def gpt_step(lib):
    """A small GPT's training step as the lecture programs write it: token and position
    embeddings, 4 blocks (C64, 4 heads), final LayerNorm, lm_head, cross_entropy over a 65-symbol
    vocabulary, B32 T16, AdamW."""
    import numpy as np

    nn = lib.nn
    F = sys.modules[lib.__name__ + ".nn.functional"]
    lib.manual_seed(0)
    V, T, C = 65, 16, 64

    class GPT(nn.Module):
        def __init__(self):
            super().__init__()
            self.tok = nn.Embedding(V, C)
            self.pos = nn.Embedding(T, C)
            self.blocks = nn.Sequential(*[_block(lib, C, 4, T) for _ in range(4)])
            self.ln_f = nn.LayerNorm(C)
            self.head = nn.Linear(C, V)

        def forward(self, idx, targets):
            B, T = idx.shape
            x = self.tok(idx) + self.pos(lib.arange(T))
            logits = self.head(self.ln_f(self.blocks(x)))
            return F.cross_entropy(logits.view(B * T, V), targets.view(B * T))

    model = GPT()
    _load_same(lib, model)
    opt = lib.optim.AdamW(model.parameters(), lr=1e-3)
    rng = np.random.default_rng(1)
    idx = lib.tensor(rng.integers(0, V, (32, T)))
    tgt = lib.tensor(rng.integers(0, V, (32, T)))

    def run():
        loss = model(idx, tgt)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()

    return run


def _part_input(lib, shape, seed):
    import numpy as np

    a = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    return lib.tensor(a, requires_grad=True)


def layer_norm_part(lib):
    F = sys.modules[lib.__name__ + ".nn.functional"]
    x = _part_input(lib, (32, 16, 64), 2)
    w = lib.ones(64, requires_grad=True)
    b = lib.zeros(64, requires_grad=True)

    def run():
        F.layer_norm(x, (64,), w, b).sum().backward()

    return run


def masked_softmax_part(lib):
    F = sys.modules[lib.__name__ + ".nn.functional"]
    x = _part_input(lib, (32, 4, 16, 16), 3)
    mask = lib.tril(lib.ones(16, 16)).view(1, 1, 16, 16) == 0

    def run():
        F.softmax(x.masked_fill(mask, float("-inf")), dim=-1).sum().backward()

    return run


def gelu_tanh_part(lib):
    F = sys.modules[lib.__name__ + ".nn.functional"]
    x = _part_input(lib, (32, 16, 256), 4)

    def run():
        F.gelu(x, approximate="tanh").sum().backward()

    return run


def gil_progress(lib):
    """A pure-Python thread counts while the main thread runs 20 matmuls (512^3, no_grad, one
    kernel thread): its rate is near its rate alone where the library releases the GIL around
    its kernels, and a fraction of it where the kernels hold the GIL."""
    import threading

    lib.set_num_threads(1)
    a = lib.rand(512, 512)
    state = {"done": False, "count": 0}

    def spin():
        n = 0
        while not state["done"]:
            n += 1
        state["count"] = n

    t = threading.Thread(target=spin)
    t0 = time.perf_counter()
    t.start()
    with lib.no_grad():
        for _ in range(20):
            a @ a
    elapsed = time.perf_counter() - t0
    state["done"] = True
    t.join()
    return state["count"] / elapsed / 1e6, elapsed


def _big(lib):
    a = lib.rand(16 * 1024 * 1024)
    b = lib.rand(16 * 1024 * 1024)
    return a, b


def add_16m(lib):
    a, b = _big(lib)
    out = lib.empty(16 * 1024 * 1024)
    return lambda: lib.add(a, b, out=out)


def exp_16m(lib):
    a, _ = _big(lib)
    return lambda: a.exp()


def sum_16m(lib):
    a, _ = _big(lib)
    return lambda: a.sum()


def matmul_1024(lib):
    a = lib.rand(1024, 1024)
    b = lib.rand(1024, 1024)
    return lambda: a @ b


def _exp_function(lib):
    class Exp(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, g):
            (y,) = ctx.saved_tensors
            return g * y

    return Exp


def custom_function(lib):
    """A user Function (exp with a hand-written backward), forward and backward."""
    Exp = _exp_function(lib)
    x = lib.tensor([0.5], requires_grad=True)

    def run():
        Exp.apply(x).backward()

    return run


def builtin_function(lib):
    """The same computation with the built-in exp, for comparison with (k)."""
    x = lib.tensor([0.5], requires_grad=True)

    def run():
        x.exp().backward()

    return run


def randn_16m(lib):
    lib.manual_seed(0)
    return lambda: lib.randn(16 * 1024 * 1024)


def rand_16m(lib):
    lib.manual_seed(0)
    return lambda: lib.rand(16 * 1024 * 1024)


def randint_1m(lib):
    lib.manual_seed(0)
    return lambda: lib.randint(0, 1000, (1024 * 1024,))


def multinomial_1(lib):
    """makemore's sampling step: one draw from 27 categories with a generator."""
    g = lib.Generator().manual_seed(2147483647)
    p = lib.rand(27, generator=g)
    return lambda: lib.multinomial(p, num_samples=1, replacement=True, generator=g).item()


def forward_ad_jvp(lib):
    """Forward-mode AD: one Jacobian-vector product of x * sin(x) on 100 elements."""
    fwAD = lib.autograd.forward_ad
    x = lib.linspace(-1, 1, 100)
    t = lib.ones(100)

    def run():
        with fwAD.dual_level():
            d = fwAD.make_dual(x, t)
            return fwAD.unpack_dual(d * d.sin()).tangent

    return run


def _dot_batch(lib):
    lib.manual_seed(0)
    return lib.randn(64, 16), lib.randn(64, 16)


def vmap_dot(lib):
    """func.vmap(dot) over a batch of 64 pairs of 16-vectors."""
    a, b = _dot_batch(lib)
    f = lib.func.vmap(lib.dot)
    return lambda: f(a, b)


def loop_dot(lib):
    """The same as a Python loop with stack, for comparison with vmap."""
    a, b = _dot_batch(lib)
    return lambda: lib.stack([lib.dot(a[i], b[i]) for i in range(64)])


def jacrev_tanh(lib):
    """func.jacrev of tanh at a 16-element point."""
    x = lib.linspace(-1, 1, 16)
    f = lib.func.jacrev(lib.tanh)
    return lambda: f(x)


# name: (factory, iterations, units per iteration, torch threads)
WORKLOADS = {
    "(a) x*y 1-element, requires_grad": (mul_grad, 20000, 1, 1),
    "(b) x*y 1-element, no_grad": (mul_no_grad, 20000, 1, 1),
    "(c) 1000-node chain fwd+bwd, per node": (chain_1000, 20, 1000, 1),
    "(d) seed 000 tutorial step": (tutorial_step, 2000, 1, 1),
    "(e) MLP 784-256-256-10 b64 SGD step": (mlp_step, 30, 1, 1),
    "(f) CNN (2 conv, 28x28, b32) SGD step": (cnn_step, 5, 1, 1),
    "(l) makemore MLP step (embedding, tanh, cross_entropy, b32)": (makemore_step, 300, 1, 1),
    "(m) transformer block B8 T32 C64 fwd+bwd+AdamW": (block_step, 30, 1, 1),
    "(n) GPT step B32 T16 C64, 4 heads, 4 layers": (gpt_step, 10, 1, 1),
    "(o) layer_norm fwd+bwd (32,16,64)": (layer_norm_part, 300, 1, 1),
    "(o) masked_fill+softmax fwd+bwd (32,4,16,16)": (masked_softmax_part, 300, 1, 1),
    "(o) tanh-GELU fwd+bwd (32,16,256)": (gelu_tanh_part, 300, 1, 1),
    "(g) add 16M float32 into out, 2 threads": (add_16m, 10, 1, 2),
    "(g) exp 16M float32, 2 threads": (exp_16m, 5, 1, 2),
    "(g) sum 16M float32, 2 threads": (sum_16m, 10, 1, 2),
    "(h) matmul 1024^3 float32, 1 thread": (matmul_1024, 5, 1, 1),
    "(h) matmul 1024^3 float32, 2 threads": (matmul_1024, 5, 1, 2),
    "(k) custom Function exp, fwd+bwd 1-element": (custom_function, 5000, 1, 1),
    "(k) built-in exp, fwd+bwd 1-element": (builtin_function, 5000, 1, 1),
    "(v) forward AD jvp, x*sin(x) 100-element": (forward_ad_jvp, 2000, 1, 1),
    "(v) func.vmap(dot), 64 x 16": (vmap_dot, 500, 1, 1),
    "(v) Python loop of dot, 64 x 16": (loop_dot, 500, 1, 1),
    "(v) func.jacrev(tanh), 16-element": (jacrev_tanh, 500, 1, 1),
    "(r) randn 16M float32": (randn_16m, 5, 1, 1),
    "(r) rand 16M float32": (rand_16m, 5, 1, 1),
    "(r) randint 1M int64": (randint_1m, 20, 1, 1),
    "(r) multinomial 1 of 27, generator": (multinomial_1, 5000, 1, 1),
}

MEMORY = r"""
import sys, importlib
lib = importlib.import_module(sys.argv[1])
def rss():
    for line in open('/proc/self/status'):
        if line.startswith('VmRSS:'):
            return int(line.split()[1]) * 1024
x = lib.tensor(0.5, requires_grad=True)
def step():
    y = x
    for _ in range(1000):
        y = y * 1.0001
    y.backward()
    x.grad = None
for _ in range(200):
    step()
before = rss()
for _ in range(int(sys.argv[2])):
    step()
print(rss() - before)
"""

IMPORT = r"""
import sys, time
t0 = time.perf_counter()
__import__(sys.argv[1])
t = time.perf_counter() - t0
for line in open('/proc/self/status'):
    if line.startswith('VmRSS:'):
        print(t, int(line.split()[1]) * 1024)
"""


def _sub(code, *args):
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True)
    return out.stdout.split()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    import leafgrad

    libs = {"leafgrad": leafgrad}
    try:
        import torch

        libs["torch"] = torch
    except ImportError:
        print("torch is not installed: leafgrad timings only", file=sys.stderr)
    repeats = 3 if args.quick else 7
    rows = []
    for name, (make, iters, per, threads) in WORKLOADS.items():
        if args.only and args.only not in name:
            continue
        for lib in libs.values():
            # the same thread count for both libraries
            lib.set_num_threads(threads)
        iters = max(1, iters // (4 if args.quick else 1))
        fns = {ln: make(lib) for ln, lib in libs.items()}
        for fn in fns.values():
            _time(fn, max(1, iters // 5))
        samples = {ln: [] for ln in fns}
        for _ in range(repeats):
            for ln, fn in fns.items():
                samples[ln].append(_time(fn, iters) / per)
        med = {ln: statistics.median(v) for ln, v in samples.items()}
        rows.append((name, med.get("leafgrad"), med.get("torch")))
        _print_row(rows[-1], args.markdown)
    if not args.only or "(p)" in args.only:
        for ln, lib in libs.items():
            rate, elapsed = gil_progress(lib)
            print(f"(p) a pure-Python thread's count rate during 20 matmuls 512^3 [{ln}]: "
                  f"{rate:.1f} M/s (the matmuls took {elapsed * 1e3:.0f} ms)")
    if not args.only or "(i)" in args.only:
        n = "2000" if args.quick else "10000"
        for ln in libs:
            growth = int(_sub(MEMORY, ln, n)[0])
            print(f"(i) RSS growth over {n} chain iterations [{ln}]: {growth / 1e6:.2f} MB")
    if not args.only or "(j)" in args.only:
        for ln in libs:
            runs = [tuple(map(float, _sub(IMPORT, ln))) for _ in range(5)]
            t = statistics.median(r[0] for r in runs)
            rss = statistics.median(r[1] for r in runs)
            print(f"(j) import [{ln}]: {t * 1e3:.1f} ms, RSS after import {rss / 1e6:.1f} MB")


def _fmt(ns):
    if ns is None:
        return "-"
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.2f} us"
    return f"{ns:.0f} ns"


def _print_row(row, markdown):
    name, lt, tt = row
    ratio = f"{lt / tt:.3f}" if lt and tt else "-"
    if markdown:
        print(f"| {name} | {_fmt(lt)} | {_fmt(tt)} | {ratio} |")
    else:
        print(f"{name:44} {_fmt(lt):>12} {_fmt(tt):>12} {ratio:>7}", flush=True)


if __name__ == "__main__":
    main()
