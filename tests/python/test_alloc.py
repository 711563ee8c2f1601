"""Allocation failure: asking for more memory than exists raises RuntimeError, never aborts.

Every case runs in a child interpreter, so an abort (Rust's `handle_alloc_error`), a panic or
a kill shows up as a return code instead of taking the test run down. The RuntimeError must
carry the requested size in bytes (torch's text: "... you tried to allocate N bytes."), and the
process must carry on normally afterwards: arena back to its baseline, new tensors and a
backward pass still work.
"""

import json
import os
import subprocess
import sys
import textwrap

import pytest
from support import USING_TORCH

HERE = os.path.dirname(os.path.abspath(__file__))
TB = 2**40

# (id, statement, bytes the failing allocation asks for)
CASES = [
    ("empty 2**40", "torch.empty(2**40)", 4 * TB),
    ("zeros 1e6 x 1e6", "torch.zeros(10**6, 10**6)", 4 * 10**12),
    ("broadcast mul", "torch.ones(10**6, 1) * torch.ones(1, 10**6)", 4 * 10**12),
    (
        "broadcast add int64",
        "torch.ones(10**6, 1, dtype=torch.int64) + torch.ones(1, 10**6, dtype=torch.int64)",
        8 * 10**12,
    ),
    ("matmul outer", "torch.ones(10**6, 1) @ torch.ones(1, 10**6)", 4 * 10**12),
    ("float64 zeros", "torch.zeros(2**40, dtype=torch.float64)", 8 * TB),
    ("uint8 ones", "torch.ones(2**40, dtype=torch.uint8)", TB),
    ("bool full", "torch.full((2**20, 2**20), True)", TB),
    ("full float", "torch.full((2**20, 2**20), 1.5)", 4 * TB),
    ("expand contiguous", "torch.ones(3).expand(2**40, 3).contiguous()", 12 * TB),
    (
        "expand clone rg",
        "torch.ones(10**6, 1, requires_grad=True).expand(10**6, 10**6).clone()",
        4 * 10**12,
    ),
    ("expand exp", "torch.ones(10**6, 1).expand(10**6, 10**6).exp()", 4 * 10**12),
    ("repeat", "torch.ones(1).repeat(2**40)", 4 * TB),
    ("cat", "torch.cat([torch.ones(1).expand(2**40), torch.ones(1)])", 4 * TB + 4),
    ("stack", "torch.stack([torch.ones(1).expand(2**39)] * 2)", 4 * TB),
    ("new_zeros", "torch.ones(2).new_zeros(2**40)", 4 * TB),
    ("zeros_like of expanded", "torch.zeros_like(torch.ones(1).expand(2**40))", 4 * TB),
    ("Linear", "torch.nn.Linear(2**20, 2**20)", 4 * TB),
    (
        "backward of select on a huge expand",
        "x = torch.ones(10**6, 1, requires_grad=True); x.expand(10**6, 10**6)[0, 0].backward()",
        4 * 10**12,
    ),
]

CHILD_PRELUDE = """
import gc, json, re, sys
sys.path.insert(0, {here!r})
import support
import leafgrad as torch
{arena}

def attempt(name, fn):
    start = arena()
    out = {{"name": name}}
    try:
        fn()
        out["outcome"] = "no error"
    except RuntimeError as e:
        out["outcome"] = "RuntimeError"
        out["message"] = str(e)
    except BaseException as e:
        out["outcome"] = type(e).__name__
        out["message"] = str(e)[:300]
    gc.collect()
    out["arena_back"] = arena() == start
    # the process still works: new tensors, a backward pass
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    (w * w).sum().backward()
    out["after"] = w.grad.tolist()
    print("RESULT " + json.dumps(out), flush=True)
"""

ARENA_LEAFGRAD = """
def arena():
    s = torch._core._arena_stats()
    return (s["nodes"], s["tensors"])
"""
ARENA_TORCH = "def arena():\n    return None\n"


def _attempt_code(name, stmt):
    body = textwrap.indent(stmt.replace("; ", "\n"), "    ")
    return f"def _case():\n{body}\nattempt({name!r}, _case)\n"


def run_cases(cases, timeout=300):
    """Run (name, stmt) cases one after the other in one child; returns (rc, {name: result}, stderr)."""
    code = CHILD_PRELUDE.format(
        here=HERE, arena=ARENA_TORCH if USING_TORCH else ARENA_LEAFGRAD
    )
    code += "".join(_attempt_code(n, s) for n, s in cases)
    env = dict(os.environ, RUST_BACKTRACE="0")
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        timeout=timeout,
        env=env,
        check=False,
    )
    results = {}
    for line in proc.stdout.decode().splitlines():
        if line.startswith("RESULT "):
            r = json.loads(line[len("RESULT ") :])
            results[r["name"]] = r
    return proc.returncode, results, proc.stderr.decode("utf-8", "replace")


def run_case(stmt, timeout=120):
    rc, results, err = run_cases([("case", stmt)], timeout)
    return rc, results.get("case"), err


def check_result(result, nbytes, rc, err):
    assert result is not None, (
        f"child died (return code {rc}) before finishing this case:\n{err[-2000:]}"
    )
    assert result["outcome"] == "RuntimeError", result
    assert f"{nbytes} bytes" in result["message"], result["message"]
    assert result["arena_back"], (
        "arena not back to baseline after the failed allocation"
    )
    assert result["after"] == [2.0, 4.0]


def check(stmt, nbytes):
    rc, result, err = run_case(stmt)
    assert rc == 0, f"child died with return code {rc}:\n{err[-2000:]}"
    check_result(result, nbytes, rc, err)


@pytest.fixture(scope="module")
def batch():
    """All CASES in one child (one interpreter start instead of one per case)."""
    return run_cases([(name, stmt) for name, stmt, _ in CASES])


@pytest.mark.parametrize(
    "name,nbytes", [(n, b) for n, _, b in CASES], ids=[c[0] for c in CASES]
)
def test_huge_allocation_raises_runtime_error_with_size(batch, name, nbytes):
    rc, results, err = batch
    check_result(results.get(name), nbytes, rc, err)


def test_child_exits_cleanly(batch):
    rc, _, err = batch
    assert rc == 0, err[-2000:]


def test_message_matches_torch_wording(batch):
    message = batch[1]["empty 2**40"]["message"]
    # torch: "[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate
    # memory: you tried to allocate N bytes. Error code 12 (Cannot allocate memory)"
    assert message.startswith("[enforce fail at alloc_cpu.cpp"), message
    assert (
        f"DefaultCPUAllocator: can't allocate memory: you tried to allocate {4 * TB} bytes."
        in message
    )


def test_size_overflow_raises_runtime_error():
    # sizes whose byte count overflows 64 bits: an error before any allocation is attempted
    stmts = [
        "torch.ones(2**62)",
        "torch.zeros(2**31, 2**31, 4)",
        "torch.empty(2**62)",
        "torch.ones(2).repeat(2**62)",
        "torch.ones(2).expand(2**62, 2).clone()",
    ]
    rc, results, err = run_cases([(s, s) for s in stmts])
    assert rc == 0, err[-2000:]
    for stmt in stmts:
        assert results[stmt]["outcome"] == "RuntimeError", results[stmt]
        assert results[stmt]["after"] == [2.0, 4.0]


# ---------------------------------------------------------------- known bugs (strict xfail)


def bug(reason):
    return pytest.mark.xfail(not USING_TORCH, strict=True, reason="bug: " + reason)


FACTORY_ABORTS = [
    ("torch.arange(0, 2**40)", 8 * TB),
    ("torch.arange(2**40, dtype=torch.float32)", 4 * TB),
    ("torch.randn(2**40)", 4 * TB),
    ("torch.rand(2**40)", 4 * TB),
    ("torch.randint(0, 5, (2**40,))", 8 * TB),
    ("torch.randperm(2**40)", 8 * TB),
    ("torch.linspace(0, 1, 2**40)", 4 * TB),
]
FACTORY_IDS = [
    "arange",
    "arange f32",
    "randn",
    "rand",
    "randint",
    "randperm",
    "linspace",
]
FIXED_FACTORIES = {"arange", "arange f32", "randn", "rand", "randint", "randperm", "linspace"}


@pytest.mark.parametrize(
    "stmt,nbytes",
    [
        pytest.param(
            *case,
            id=name,
            marks=()
            if name in FIXED_FACTORIES
            else bug(
                "factories that fill through a Vec abort: 'memory allocation of N bytes failed'"
            ),
        )
        for case, name in zip(FACTORY_ABORTS, FACTORY_IDS)
    ],
)
def test_known_bug_factories_abort(stmt, nbytes):
    check(stmt, nbytes)


def test_known_bug_eye_capacity_overflow():
    check("torch.eye(2**30)", 4 * 2**60)


def test_overflowing_broadcast_message():  # was a bug: usize::MAX bytes were reported
    rc, result, err = run_case("torch.tensor([[1.0]]).expand(2**31, 2**31) + 1")
    assert rc == 0, err
    assert result["outcome"] == "RuntimeError"
    assert "18446744073709551615" not in result["message"], result["message"]


@pytest.mark.skipif(USING_TORCH, reason="leafgrad's index plans (PyTorch sizes its buffers differently)")
@pytest.mark.parametrize(
    "stmt, nbytes",
    [
        # the mask's host copy (2**40 bools) was an `expect` that panicked when it failed
        ("torch.zeros(1).expand(2**40)[torch.ones(1, dtype=torch.bool).expand(2**40)]", TB),
        ("torch.zeros(3)[torch.zeros(1, dtype=torch.int64).expand(2**38)]", 8 * 2**38),
    ],
)
def test_huge_index_tensors_raise_runtime_error(stmt, nbytes):
    check(stmt, nbytes)
