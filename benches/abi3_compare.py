"""The per-op cost of the stable-ABI (abi3) wheel against the per-version wheel (issue 19).

Install each wheel into its own folder (`pip install --no-deps --target DIR WHEEL`), then
`python benches/abi3_compare.py DIR_VERSIONED DIR_ABI3`: each row runs in a fresh process
with one folder first on `sys.path`, the two alternating, and the best of the rounds is
kept. The rows are the binding-bound ones: what the limited API could make slower is the
call from Python into Rust (argument parsing, method lookup), not the kernels.
"""

import os
import subprocess
import sys

ROUNDS = 15

BODY = r"""
import sys, time
sys.path.insert(0, sys.argv[1])
sys.path.insert(1, sys.argv[2])
import leafgrad as lib
import compare
assert lib.__file__.startswith(sys.argv[1]), lib.__file__
x = lib.tensor([1.5, 2.0], requires_grad=True)
m = lib.randn(4, 4)
ROWS = {
    "x*y 1-element, requires_grad": compare.mul_grad(lib),
    "x*y 1-element, no_grad": compare.mul_no_grad(lib),
    "1000-node chain fwd+bwd, per node": compare.chain_1000(lib),
    "seed 000 tutorial step": compare.tutorial_step(lib),
    "makemore MLP step": compare.makemore_step(lib),
    "custom Function exp fwd+bwd": compare.custom_function(lib),
    "x.sum(dim=0) (keywords)": lambda: m.sum(dim=0),
    "x.cumsum(0) (a _KwAliased method)": lambda: m.cumsum(0),
    "x.shape": lambda: m.shape,
    "x[1] (indexing)": lambda: m[1],
    "torch.tensor([1.0, 2.0])": lambda: lib.tensor([1.0, 2.0]),
}
ITERS = {"1000-node chain fwd+bwd, per node": 20, "makemore MLP step": 300,
         "seed 000 tutorial step": 2000, "custom Function exp fwd+bwd": 5000}
lib.set_num_threads(1)
for name, fn in ROWS.items():
    n = ITERS.get(name, 20000)
    compare._time(fn, max(1, n // 5))
    per = 1000 if "per node" in name else 1
    print(name, "\t", compare._time(fn, n) / per)
"""


def main():
    dirs = {"versioned": sys.argv[1], "abi3": sys.argv[2]}
    here = os.path.dirname(os.path.abspath(__file__))
    best = {}
    for _ in range(ROUNDS):
        for label, d in dirs.items():
            out = subprocess.run([sys.executable, "-c", BODY, os.path.abspath(d), here],
                                 capture_output=True, text=True, check=True).stdout
            for line in out.splitlines():
                name, ns = line.split("\t")
                key = (name.strip(), label)
                best[key] = min(best.get(key, float("inf")), float(ns))
    print("| row | per-version wheel | abi3 wheel | abi3 / per-version |")
    print("|---|---|---|---|")
    for name in dict.fromkeys(n for n, _ in best):
        v, a = best[(name, "versioned")], best[(name, "abi3")]
        print(f"| {name} | {v / 1000:.2f} us | {a / 1000:.2f} us | {a / v:.3f} |")


if __name__ == "__main__":
    main()
