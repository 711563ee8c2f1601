"""The typed API: python/leafgrad/_core.pyi describes the compiled module exactly.

`mypy.stubtest` imports `leafgrad._core` and compares every class, function, signature and
property against the stub (tests/stubtest_allowlist.txt lists the differences it may ignore,
each with its reason). A second check proves type checkers really read the stub: without
`py.typed` mypy ignores it and stubtest reports success on nothing. Needs mypy (skips without).
"""
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from support import USING_TORCH

if USING_TORCH:
    pytest.skip("leafgrad-only API; not present in torch", allow_module_level=True)

pytest.importorskip("mypy", reason="mypy is needed for stubtest (pip install mypy)")

import leafgrad

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = Path(leafgrad.__file__).parent
ALLOWLIST = ROOT / "tests" / "stubtest_allowlist.txt"


def run_mypy(args, cwd):
    # A fresh cwd keeps .mypy_cache out of the repository.
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=cwd, capture_output=True, text=True, timeout=300
    )


def test_stub_and_marker_ship_with_the_package():
    assert (PACKAGE / "_core.pyi").is_file()
    assert (PACKAGE / "py.typed").is_file()


def test_stubtest_passes(tmp_path):
    r = run_mypy(["mypy.stubtest", "--allowlist", str(ALLOWLIST), "leafgrad._core"], tmp_path)
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    assert "Success: no issues found in 1 module" in out, out


def test_mypy_reads_the_stub(tmp_path):
    program = textwrap.dedent(
        """
        import leafgrad._core as c
        t = c.Tensor([1.0])
        reveal_type(t.dim())
        reveal_type(t.grad_fn)
        reveal_type(t.size())
        reveal_type(c.is_grad_enabled())
        """
    )
    r = run_mypy(["mypy", "--no-incremental", "-c", program], tmp_path)
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    # Without the stub every type would be "Any"; mypy versions differ in spelling builtins.
    revealed = re.findall(r'Revealed type is "([^"]+)"', out)
    revealed = [re.sub(r"\bbuiltins\.", "", t) for t in revealed]
    assert revealed == ["int", "leafgrad._core.Node | None", "leafgrad._size.Size", "bool"] or \
        revealed == ["int", "Union[leafgrad._core.Node, None]", "leafgrad._size.Size", "bool"], out


def test_generated_stub_and_docs_are_current():
    """The declared ops' stub entries and docs/api.md lines are what tests/gen_stubs.py writes
    from the built module (run it after declaring an op)."""
    sys.path.insert(0, str(ROOT / "tests"))
    import gen_stubs

    for path, body in ((gen_stubs.STUB, gen_stubs.stub_lines()), (gen_stubs.API, gen_stubs.api_lines())):
        assert gen_stubs.rendered(path, body) == path.read_text(), (
            f"{path.name} is stale: run `python tests/gen_stubs.py`"
        )
