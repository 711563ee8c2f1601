"""Seeded fuzzing of the API with bad arguments.

Every call may succeed or raise, but what it raises must be an ordinary `Exception`
(TypeError, ValueError, RuntimeError, IndexError, ...). A Rust panic surfacing as pyo3's
`PanicException` (a BaseException) or any other non-Exception is a bug.
"""

import math
import random
import warnings

import leafgrad as torch
import leafgrad.nn.functional as F
import numpy as np
import pytest
from leafgrad import nn
from op_db import BINARY, ROUNDING, UNARY

N_CALLS = 3000


def value_pool():
    """Fresh arguments, good and bad, for one call."""
    x = torch.tensor([[1.0, -2.0, 3.0], [0.5, 0.0, -1.5]], requires_grad=True)
    return [
        None,
        True,
        0,
        1,
        2,
        -1,
        -3,
        7,
        100,
        2.5,
        -0.5,
        math.nan,
        math.inf,
        1 + 2j,
        "abc",
        "",
        b"xy",
        [],
        [1.0, 2.0],
        [[1.0], [2.0, 3.0]],
        (2, 3),
        (3, -1),
        (-2,),
        {"a": 1},
        object(),
        slice(None, None, -1),
        Ellipsis,
        np.array([1.0, 2.0]),
        np.array([[1, 2]], dtype=np.int32),
        np.zeros((0, 2)),
        torch.float32,
        torch.int64,
        x,
        x * 2,
        x.detach(),
        x[0],
        x.t(),
        torch.tensor(3.0),
        torch.tensor(2.0, requires_grad=True),
        torch.tensor([1, 2, 3]),
        torch.tensor([True, False]),
        torch.tensor([1 + 1j, 2 - 1j]),
        torch.zeros(0, 3),
        torch.ones(4, dtype=torch.float64, requires_grad=True),
        torch.ones(2, 3, 4),
    ]


def _setattr(obj, name, value):
    setattr(obj, name, value)


def _setitem(obj, key, value):
    obj[key] = value


def _no_grad_setitem(obj, key, value):
    with torch.no_grad():
        obj[key] = value


def _set_grad_enabled(v):
    try:
        torch.set_grad_enabled(v)
    finally:
        torch.set_grad_enabled(True)


CALLS = [
    ("tensor", 1, lambda a: torch.tensor(a)),
    ("tensor(dtype)", 2, lambda a, b: torch.tensor(a, dtype=b)),
    ("tensor(rg)", 2, lambda a, b: torch.tensor(a, requires_grad=b)),
    ("ones", 1, lambda a: torch.ones(a)),
    ("zeros2", 2, lambda a, b: torch.zeros(a, b)),
    ("full", 2, lambda a, b: torch.full(a, b)),
    ("arange", 1, lambda a: torch.arange(a)),
    ("eye", 1, lambda a: torch.eye(a)),
    ("linspace", 3, lambda a, b, c: torch.linspace(a, b, c)),
    ("from_numpy", 1, lambda a: torch.from_numpy(a)),
    ("as_tensor", 1, lambda a: torch.as_tensor(a)),
    ("add", 2, lambda a, b: a + b),
    ("sub", 2, lambda a, b: a - b),
    ("mul", 2, lambda a, b: a * b),
    ("div", 2, lambda a, b: a / b),
    ("pow", 2, lambda a, b: a**b),
    ("matmul", 2, lambda a, b: a @ b),
    ("torch.matmul", 2, lambda a, b: torch.matmul(a, b)),
    ("torch.mm", 2, lambda a, b: torch.mm(a, b)),
    ("add_", 2, lambda a, b: a.add_(b)),
    ("mul_", 2, lambda a, b: a.mul_(b)),
    ("sum", 2, lambda a, b: a.sum(b)),
    ("mean", 2, lambda a, b: a.mean(b)),
    ("sum_keepdim", 3, lambda a, b, c: a.sum(b, keepdim=c)),
    ("view", 2, lambda a, b: a.view(b)),
    ("reshape", 2, lambda a, b: a.reshape(b)),
    ("transpose", 3, lambda a, b, c: a.transpose(b, c)),
    ("permute", 3, lambda a, b, c: a.permute(b, c)),
    ("unsqueeze", 2, lambda a, b: a.unsqueeze(b)),
    ("squeeze", 2, lambda a, b: a.squeeze(b)),
    ("expand", 3, lambda a, b, c: a.expand(b, c)),
    ("getitem", 2, lambda a, b: a[b]),
    ("setitem", 3, _setitem),
    ("no_grad_setitem", 3, _no_grad_setitem),
    ("to", 2, lambda a, b: a.to(b)),
    ("relu", 1, lambda a: F.relu(a)),
    ("mse_loss", 2, lambda a, b: F.mse_loss(a, b)),
    ("l1_loss", 2, lambda a, b: F.l1_loss(a, b)),
    ("requires_grad_", 2, lambda a, b: a.requires_grad_(b)),
    ("set requires_grad", 2, lambda a, b: _setattr(a, "requires_grad", b)),
    ("set grad", 2, lambda a, b: _setattr(a, "grad", b)),
    ("set data", 2, lambda a, b: _setattr(a, "data", b)),
    ("set is_leaf", 2, lambda a, b: _setattr(a, "is_leaf", b)),
    ("backward", 1, lambda a: a.backward()),
    ("backward(g)", 2, lambda a, b: a.backward(b)),
    ("backward(inputs)", 2, lambda a, b: a.backward(inputs=b)),
    ("autograd.grad", 2, lambda a, b: torch.autograd.grad(a, b)),
    ("autograd.grad(go)", 3, lambda a, b, c: torch.autograd.grad(a, b, c)),
    ("autograd.backward", 2, lambda a, b: torch.autograd.backward(a, b)),
    ("register_hook", 2, lambda a, b: a.register_hook(b)),
    ("retain_grad", 1, lambda a: a.retain_grad()),
    ("detach_", 1, lambda a: a.detach_()),
    ("item", 1, lambda a: a.item()),
    ("float", 1, lambda a: float(a)),
    ("bool", 1, lambda a: bool(a)),
    ("len", 1, lambda a: len(a)),
    ("tolist", 1, lambda a: a.tolist()),
    ("numpy", 1, lambda a: a.numpy()),
    ("repr", 1, lambda a: repr(a)),
    ("Parameter", 1, lambda a: nn.Parameter(a)),
    ("Linear", 2, lambda a, b: nn.Linear(a, b)),
    ("set_grad_enabled", 1, _set_grad_enabled),
]
# the declared ops, from the op table (op_db.py)
CALLS += [(op.name, 1, lambda a, n=op.name: getattr(torch, n)(a)) for op in UNARY + ROUNDING]
CALLS += [(op.name, 2, lambda a, b, n=op.name: getattr(torch, n)(a, b)) for op in BINARY]


def is_bug(exc):
    return type(exc).__name__ == "PanicException" or not isinstance(exc, Exception)


def describe(args):
    return ", ".join(type(a).__name__ for a in args)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_bad_arguments_raise_ordinary_exceptions(seed):
    rng = random.Random(seed)
    bugs = []
    raised = succeeded = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(N_CALLS // 3):
            name, arity, call = rng.choice(CALLS)
            pool = value_pool()
            args = [rng.choice(pool) for _ in range(arity)]
            try:
                call(*args)
                succeeded += 1
            except BaseException as exc:  # noqa: BLE001 - every exception is classified
                if is_bug(exc):
                    bugs.append(
                        f"{name}({describe(args)}) -> {type(exc).__name__}: {exc}"
                    )
                else:
                    raised += 1
            finally:
                if not torch.is_grad_enabled():
                    bugs.append(f"{name}({describe(args)}) left grad mode disabled")
                    torch.set_grad_enabled(True)
    assert not bugs, "\n".join(bugs[:10])
    # the fuzzer must actually exercise both paths
    assert raised > N_CALLS // 10
    assert succeeded > N_CALLS // 30


def test_library_still_works_after_fuzzing():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * x).sum().backward()
    assert x.grad.tolist() == [2.0, 4.0]
    assert torch.is_grad_enabled()
