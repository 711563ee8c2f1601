"""Shared helpers for the leafgrad pytest suite.

The suite is written against the PyTorch API (`import leafgrad as torch`). With
LEAFGRAD_TEST_TORCH=1 the same tests run against real PyTorch: `install_torch_alias`
makes `import leafgrad` resolve to `torch`, so every expectation can be validated
against the reference implementation.
"""

import os
import re
import subprocess
import sys
import textwrap
import warnings
from contextlib import contextmanager

import pytest

USING_TORCH = os.environ.get("LEAFGRAD_TEST_TORCH") == "1"

_SUBMODULES = (
    "functional",
    "nn",
    "nn.functional",
    "nn.init",
    "nn.parameter",
    "autograd",
    "autograd.function",
    "autograd.gradcheck",
    "autograd.functional",
    "optim",
    "utils",
    "utils.hooks",
    "utils.checkpoint",
)


def install_torch_alias():
    """Make `import leafgrad[.sub]` resolve to real torch (validation mode only)."""
    import importlib

    import torch

    sys.modules["leafgrad"] = torch
    for sub in _SUBMODULES:
        try:
            sys.modules["leafgrad." + sub] = importlib.import_module("torch." + sub)
        except ImportError:
            pass


if USING_TORCH:
    install_torch_alias()


def with_real_leafgrad(find, *, allow_module_level=False):
    """`find()` with the real leafgrad modules importable: under LEAFGRAD_TEST_TORCH=1, where
    `leafgrad` is aliased to torch in sys.modules, the alias is lifted while `find` runs (it may
    import leafgrad's modules and collect their doctest examples, which doctest looks up in
    sys.modules), then restored. Skips when leafgrad cannot be imported next to torch."""
    if not USING_TORCH:
        return find()
    from pathlib import Path

    def ours(k):
        return k == "leafgrad" or k.startswith("leafgrad.")

    saved = {k: v for k, v in sys.modules.items() if ours(k)}
    for k in saved:
        del sys.modules[k]
    source = str(Path(__file__).resolve().parents[2] / "python")
    sys.path.insert(0, source)
    try:
        return find()
    except ImportError as e:  # no built extension for this interpreter
        pytest.skip(f"leafgrad cannot be imported next to torch: {e}", allow_module_level=allow_module_level)
    finally:
        sys.path.remove(source)
        for k in [k for k in sys.modules if ours(k)]:
            del sys.modules[k]
        sys.modules.update(saved)


def spec_differs_from_installed_torch(reason):
    """SPEC (measured on torch 2.13) and the torch used for validation disagree.

    The test keeps SPEC's expectation; under LEAFGRAD_TEST_TORCH=1 it is an expected failure.
    """
    return pytest.mark.xfail(
        USING_TORCH, reason="SPEC vs installed torch: " + reason, strict=False
    )


# Tests that use API only leafgrad has (e.g. leafgrad._core._arena_stats) carry this mark.
leafgrad_only = pytest.mark.skipif(
    USING_TORCH, reason="leafgrad-only API; not present in torch"
)

# torch appends this to warnings raised from C++; leafgrad may or may not reproduce it.
_TRIGGERED = re.compile(r" \(Triggered internally at .*\)$", re.DOTALL)

NONLEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad field "
    "to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
    "access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
    "github.com/pytorch/pytorch/pull/30531 for more information."
)

SECOND_BACKWARD = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward."
)

NO_GRAD_FN = "element 0 of tensors does not require grad and does not have a grad_fn"

VERSION_HINT = (
    " Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
    "with torch.autograd.set_detect_anomaly(True, check_nan=False)."
)


def exact(text):
    """A `match=` pattern that accepts exactly `text` (whole message, nothing more)."""
    return "^" + re.escape(text) + r"\Z"


def grad_fn_name(t):
    """The class name of `t.grad_fn` (None for a leaf or a tensor without history)."""
    return None if t.grad_fn is None else type(t.grad_fn).__name__


def raises_exactly(fn, text, exc=RuntimeError):
    """`fn()` raises `exc` with exactly the message `text`."""
    with pytest.raises(exc) as e:
        fn()
    assert str(e.value) == text


def strip_triggered(text):
    """Drop torch's ' (Triggered internally at <path>:<line>.)' suffix, if any."""
    return _TRIGGERED.sub("", str(text))


@contextmanager
def record_warnings():
    """Record every warning raised in the block (filter 'always')."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield caught


def warning_texts(caught, category=None):
    return [
        strip_triggered(w.message)
        for w in caught
        if category is None or issubclass(w.category, category)
    ]


def nonleaf_warnings(caught):
    return [t for t in warning_texts(caught, UserWarning) if t == NONLEAF_GRAD_WARNING]


def run_isolated(code, timeout=120):
    """Run `code` in a fresh interpreter (for warn-once and default-filter behaviour).

    The snippet may `import leafgrad as torch`; under LEAFGRAD_TEST_TORCH=1 it gets real torch.
    Returns (stdout, stderr).
    """
    prelude = (
        "import sys\n"
        f"sys.path.insert(0, {os.path.dirname(os.path.abspath(__file__))!r})\n"
        "import support\n"
    )
    env = dict(os.environ)
    env.pop("PYTHONWARNINGS", None)
    env["PYTHONHASHSEED"] = "0"
    proc = subprocess.run(
        [sys.executable, "-c", prelude + textwrap.dedent(code)],
        capture_output=True,
        env=env,
        timeout=timeout,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")
    return proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8")


# ---- the bit-for-bit tests: deterministic inputs and digests of result bytes ----------------

def spread(n, scale=1.0, shift=0, dtype=None):
    """n deterministic values in [-scale, scale) (a multiplicative hash of the index, shifted by
    `shift`), float32 by default: inputs whose results the bits tests record from PyTorch."""
    import leafgrad as torch  # PyTorch under LEAFGRAD_TEST_TORCH=1

    i = torch.arange(n, dtype=torch.float64) + shift
    return ((((i * 7919) % 1000) - 500) / 500 * scale).to(dtype or torch.float32)


def digest(t):
    """The first 16 hex digits of the sha256 of a tensor's bytes (row-major)."""
    import hashlib

    return hashlib.sha256(t.detach().contiguous().numpy().tobytes()).hexdigest()[:16]


def mismatched(cases, recorded):
    """The names of the (name, tensor) cases whose digest is not the recorded one."""
    return [name for name, value in cases if digest(value) != recorded[name]]


def print_recorded(cases):
    """Prints the cases' digests as the lines of a RECORDED table."""
    for name, value in cases:
        print(f"    {name!r}: {digest(value)!r},")
