"""Conformance cases (tests/conformance/cases) as parametrized tests.

Each case is a script written against plain PyTorch; `<name>.expected` is what PyTorch prints.
The vendored runner (tests/conformance/run.py, a copy of shared/conformance/run.py) runs a case
in a fresh interpreter with leafgrad aliased as `torch` and normalises the output (addresses,
torch's "Triggered internally" suffix). Under LEAFGRAD_TEST_TORCH=1 the cases run on real torch.
"""

import importlib.util
import os
import sys
from pathlib import Path

import pytest
from support import USING_TORCH

CONFORMANCE_DIR = Path(__file__).resolve().parent.parent / "conformance"

# Cases whose SPEC-derived expectation disagrees with the torch used for validation (2.15).
SPEC_VS_INSTALLED_TORCH = {
    "spec_complex_real_imag": "SPEC: RuntimeError for .imag of a real tensor; torch 2.15 raises TypeError",
}

# Behaviour leafgrad does not have yet, each named in the README's "Not yet" list.
LEAFGRAD_GAPS = {}


def load_runner():
    spec = importlib.util.spec_from_file_location(
        "leafgrad_conformance_run", CONFORMANCE_DIR / "run.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


runner = load_runner()
CASES = {name: (path, tags) for name, path, tags in runner.discover(None)}
MODULE = "" if USING_TORCH else "leafgrad"


def case_params():
    params = []
    for name, (_, tags) in CASES.items():
        marks = []
        if not USING_TORCH and name in LEAFGRAD_GAPS:
            marks.append(pytest.mark.xfail(strict=True, reason=LEAFGRAD_GAPS[name]))
        if USING_TORCH and name in SPEC_VS_INSTALLED_TORCH:
            marks.append(
                pytest.mark.xfail(strict=True, reason=SPEC_VS_INSTALLED_TORCH[name])
            )
        params.append(pytest.param(name, marks=marks, id=name))
    return params


@pytest.fixture(scope="session")
def case_outputs(request):
    """Run every selected case once, in parallel, and keep the normalised outputs."""
    selected = sorted(
        {
            item.callspec.params["name"]
            for item in request.session.items
            if getattr(item, "originalname", None) == "test_conformance_case"
        }
    )
    cases = [(name, CASES[name][0], CASES[name][1]) for name in selected]
    jobs = max(1, min(8, os.cpu_count() or 1))
    return runner.run_all(sys.executable, cases, MODULE, jobs)


@pytest.mark.parametrize("name", case_params())
def test_conformance_case(name, case_outputs):
    path, _ = CASES[name]
    expected = runner.normalise(
        path.with_suffix(".expected").read_text(encoding="utf-8")
    )
    actual = case_outputs[name]
    assert actual == expected


def test_case_files_are_complete():
    assert len(CASES) >= 70
    for name, (path, tags) in CASES.items():
        assert tags, f"{name} has no '# tags:' line"
        unknown = [t for t in tags if t not in runner.TAGS]
        assert not unknown, f"{name}: unknown tags {unknown}"
        expected = path.with_suffix(".expected")
        assert expected.exists(), f"{name} has no .expected file"
        text = expected.read_text(encoding="utf-8")
        for marker in ("UNCAUGHT", "TIMEOUT", "PRELUDE_ERROR", "EXIT "):
            assert not any(line.startswith(marker) for line in text.splitlines()), (
                name,
                marker,
            )
