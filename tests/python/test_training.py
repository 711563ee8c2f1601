"""The training examples (examples/train_mlp.py, examples/train_cnn.py) run end to end with short
settings and reach their accuracy thresholds (issue 3 "Examples and tests").

The examples are imported as modules (under LEAFGRAD_TEST_TORCH=1 their `import leafgrad` gets
real torch), and each is also run once as a script.
"""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import leafgrad as torch
import pytest
from leafgrad import nn
from support import USING_TORCH, leafgrad_only

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def load_example(name):
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module", autouse=True)
def one_thread():
    """Real torch on this small machine: tiny ops run far faster on one thread."""
    if not USING_TORCH:
        yield
        return
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.fixture(scope="module")
def mlp():
    return load_example("train_mlp")


@pytest.fixture(scope="module")
def cnn():
    return load_example("train_cnn")


def test_mlp_short_run_reaches_95_percent(mlp):
    lines = []
    result = mlp.train(epochs=20, log=lines.append)
    assert len(lines) == 20 and lines[0].startswith("epoch   1/20  loss ")
    assert result["test_acc"] >= 0.95, result
    assert result["train_acc"] >= 0.95, result
    for p in result["model"].parameters():
        assert p.is_leaf and p.requires_grad and p.grad_fn is None


def test_mlp_full_run_is_fast_and_accurate(mlp, capsys):
    result = mlp.main([])
    out = capsys.readouterr().out.splitlines()
    assert sum(line.startswith("epoch ") for line in out) == 60
    assert out[-1].startswith("final: train accuracy ")
    assert result["test_acc"] >= 0.95, result
    assert result["seconds"] < 30, result


def test_mlp_spirals_data(mlp):
    torch.manual_seed(0)
    X, y = mlp.make_spirals(50)
    assert X.shape == torch.Size([100, 2]) and y.shape == torch.Size([100])
    assert y.dtype == torch.int64 and y.sum().item() == 50


def test_cnn_short_run(cnn):
    lines = []
    result = cnn.train(epochs=3, log=lines.append)
    assert len(lines) == 3 and lines[0].startswith("epoch  1/3  loss ")
    assert result["test_acc"] >= 0.85, result
    assert result["loss"] < 0.6, result


def test_cnn_images_and_model(cnn):
    X, y = cnn.make_images(16, seed=3)
    assert X.shape == torch.Size([16, 1, 12, 12]) and X.dtype == torch.float32
    assert y.dtype == torch.int64 and 0 <= y.min().item() and y.max().item() <= 3
    model = cnn.SmallCNN()
    assert model(X).shape == torch.Size([16, 4])
    assert repr(model).startswith("SmallCNN(\n  (features): Sequential(\n    (0): Conv2d(1, 8, kernel_size=(3, 3)")
    assert isinstance(model.features[0], nn.Conv2d)


@leafgrad_only
@pytest.mark.parametrize("script, args", [
    ("train_mlp.py", ["--epochs", "2"]),
    ("train_cnn.py", ["--epochs", "1", "--train-size", "128", "--test-size", "64"]),
])
def test_examples_run_as_scripts(script, args):
    env = dict(os.environ)
    proc = subprocess.run([sys.executable, str(EXAMPLES / script), *args], capture_output=True, text=True,
                          timeout=120, env=env, check=False)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert sum(line.startswith("epoch ") for line in lines) == int(args[1])
    assert lines[-1].startswith("final: train accuracy ")
