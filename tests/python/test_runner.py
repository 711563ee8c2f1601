"""`python -m leafgrad run script.py [args]` runs an unchanged PyTorch script on leafgrad.

Each test writes a small script into tmp_path and runs it in a fresh interpreter, as a learner
would from the shell. leafgrad-only: PyTorch has no such command.
"""
import importlib.util
import subprocess
import sys
import textwrap

import pytest

from support import leafgrad_only

pytestmark = leafgrad_only

DOCS = "docs/differences.md"


def script(tmp_path, code, name="script.py"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(code), encoding="utf-8")
    return path


def leafgrad_cli(*args, cwd):
    return subprocess.run(
        [sys.executable, "-m", "leafgrad", *map(str, args)],
        capture_output=True, text=True, cwd=cwd, timeout=120,
    )


def run_script(tmp_path, code, *args):
    return leafgrad_cli("run", script(tmp_path, code), *args, cwd=tmp_path)


def test_torch_and_its_submodules_are_leafgrad(tmp_path):
    done = run_script(tmp_path, """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        import torch.optim as optim
        import torch.autograd
        from torch.utils.data import DataLoader, TensorDataset
        import leafgrad
        print(torch.__name__, torch is leafgrad, nn is leafgrad.nn, F is leafgrad.nn.functional)
        print(optim is leafgrad.optim, torch.autograd is leafgrad.autograd,
              DataLoader is leafgrad.utils.data.DataLoader)
        print(torch.ones(2) * 3)
        print(leafgrad.__spec__.name, nn.__spec__.name)
    """)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "leafgrad True True True",
        "True True True",
        "tensor([3., 3.])",
        "leafgrad leafgrad.nn",  # the modules keep their own specs
    ]


def test_argv_main_and_script_directory(tmp_path):
    script(tmp_path, "import torch\nVALUE = torch.__name__\n", name="helper.py")
    path = script(tmp_path, """
        import os, sys
        import helper  # next to the script: its directory is sys.path[0]
        print(sys.argv)
        print(__name__, helper.VALUE, os.path.samefile(sys.path[0], os.path.dirname(__file__)))
    """)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = leafgrad_cli("run", path, "--epochs", "2", "--help", cwd=elsewhere)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        repr([str(path), "--epochs", "2", "--help"]),  # options after the script are its own
        "__main__ leafgrad True",
    ]


@pytest.mark.parametrize("code, status, stderr", [
    ("print('done')", 0, ""),
    ("import sys; sys.exit(3)", 3, ""),
    ("import sys; sys.exit('bye')", 1, "bye\n"),
])
def test_exit_status_is_the_scripts(tmp_path, code, status, stderr):
    done = run_script(tmp_path, code)
    assert (done.returncode, done.stderr) == (status, stderr)


def test_missing_attribute_is_named(tmp_path):
    import leafgrad

    assert not hasattr(leafgrad, "nested")
    done = run_script(tmp_path, """
        import torch
        x = torch.ones(4)
        print("before")
        torch.nested.nested_tensor([x])
    """)
    assert done.returncode == 1
    assert done.stdout == "before\n"
    err = done.stderr
    assert err.startswith("Traceback (most recent call last):\n")
    assert 'script.py", line 5, in <module>' in err
    assert "runpy" not in err and "_runner" not in err  # the script's frames only
    assert "AttributeError: module 'leafgrad' has no attribute 'nested'" in err
    message = err[err.index("AttributeError"):]
    assert "`torch.nested`" in message and DOCS in message


def test_missing_submodule_is_named(tmp_path):
    assert importlib.util.find_spec("leafgrad.ao") is None
    done = run_script(tmp_path, "import torch.ao\n")
    assert done.returncode == 1
    assert "ModuleNotFoundError: No module named 'torch.ao'" in done.stderr
    assert "`torch.ao`" in done.stderr and DOCS in done.stderr


def test_missing_imported_name_and_method_are_named(tmp_path):
    done = run_script(tmp_path, "from torch.nn import NoSuchLayer\n")
    assert done.returncode == 1
    assert "ImportError: cannot import name 'NoSuchLayer' from 'leafgrad.nn'" in done.stderr
    assert "`torch.nn.NoSuchLayer`" in done.stderr and DOCS in done.stderr

    done = run_script(tmp_path, "import torch\ntorch.ones(2).no_such_method()\n")
    assert done.returncode == 1
    assert "`torch.Tensor.no_such_method`" in done.stderr and DOCS in done.stderr


def test_a_script_may_catch_the_missing_name(tmp_path):
    done = run_script(tmp_path, """
        try:
            import torch.ao
        except ImportError as e:
            print("no ao:", e)
    """)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == "no ao: No module named 'torch.ao'\n"


@pytest.mark.parametrize("code, error", [
    ("d = {}\nd['k']\n", "KeyError: 'k'"),
    ("import torch\nx = None\nx.shape\n",
     "AttributeError: 'NoneType' object has no attribute 'shape'"),
    ("import torch\nclass Net(torch.nn.Module):\n    pass\nNet().no_such_layer\n",
     "AttributeError: 'Net' object has no attribute 'no_such_layer'"),
    ("import no_such_package_xyz\n", "ModuleNotFoundError: No module named 'no_such_package_xyz'"),
    ("import torch\ntorch.ones(2) + torch.ones(3)\n", "RuntimeError: The size of tensor a (2)"),
])
def test_other_errors_are_left_alone(tmp_path, code, error):
    done = run_script(tmp_path, code)
    assert done.returncode == 1
    assert done.stderr.startswith("Traceback (most recent call last):\n")
    assert error in done.stderr
    assert DOCS not in done.stderr and "leafgrad has no" not in done.stderr


def test_usage_and_version(tmp_path):
    import leafgrad

    for args in [(), ("--help",), ("-h",)]:
        done = leafgrad_cli(*args, cwd=tmp_path)
        assert done.returncode == 0 and done.stderr == ""
        assert done.stdout.startswith("usage: python -m leafgrad run SCRIPT [ARGS ...]\n")
    done = leafgrad_cli("--version", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (0, f"leafgrad {leafgrad.version.leafgrad} (PyTorch 2.15.0 API)\n")
    done = leafgrad_cli("tutorial.py", cwd=tmp_path)
    assert done.returncode == 2 and "python -m leafgrad run tutorial.py" in done.stderr
    done = leafgrad_cli("run", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.startswith("usage:")
    done = leafgrad_cli("run", "missing.py", cwd=tmp_path)
    assert done.returncode == 2 and "can't open file" in done.stderr


def test_run_in_process_restores_the_interpreter(tmp_path):
    import leafgrad

    path = script(tmp_path, """
        import sys, torch
        import torch.nn as nn
        seen = (list(sys.argv), torch.__name__, nn.__name__, __name__)
    """)
    argv, path0 = list(sys.argv), sys.path[0]
    torch_before = {k: v for k, v in sys.modules.items() if k == "torch" or k.startswith("torch.")}
    result = leafgrad.run(path, ["a", "b"])
    assert result["seen"] == ([str(path), "a", "b"], "leafgrad", "leafgrad.nn", "__main__")
    assert (sys.argv, sys.path[0]) == (argv, path0)
    torch_after = {k: v for k, v in sys.modules.items() if k == "torch" or k.startswith("torch.")}
    assert torch_after == torch_before

    missing = script(tmp_path, "import torch\ntorch.nested\n", name="missing.py")
    with pytest.raises(AttributeError) as info:
        leafgrad.run(missing)
    if sys.version_info >= (3, 11):
        assert any("`torch.nested`" in note and DOCS in note for note in info.value.__notes__)
    with pytest.raises(SystemExit) as info:
        leafgrad.run(script(tmp_path, "import sys; sys.exit(4)\n", name="exits.py"))
    assert info.value.code == 4
