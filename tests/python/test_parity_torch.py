"""Parity with real PyTorch (issue 3): identical initial weights give the same losses to 1e-5 over
20 training steps, for an MLP and a CNN, with SGD (momentum) and with Adam.

Skipped when torch is not importable (and under LEAFGRAD_TEST_TORCH=1, where leafgrad *is* torch).
Run here with:  PYTHONPATH=python /work/torchvenv/bin/python -m pytest tests/python/test_parity_torch.py
"""

import numpy as np
import pytest
from support import USING_TORCH

if USING_TORCH:
    pytest.skip("leafgrad is aliased to torch: nothing to compare", allow_module_level=True)

torch = pytest.importorskip("torch")
import leafgrad  # noqa: E402  (the real leafgrad, next to real torch)

STEPS = 20
TOL = 1e-5


def mlp(lib):
    nn = lib.nn
    return nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 10))


class _CNN:
    """The CNN of examples/train_cnn.py, built with either library."""

    @staticmethod
    def build(lib):
        nn = lib.nn
        return nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Flatten(),
            nn.Linear(16 * 3 * 3, 32),
            nn.ReLU(),
            nn.Linear(32, 4),
        )


MODELS = {
    "mlp": (mlp, lambda rng, n: rng.standard_normal((n, 32)).astype(np.float32), 10, 64),
    "cnn": (_CNN.build, lambda rng, n: rng.standard_normal((n, 1, 12, 12)).astype(np.float32), 4, 32),
}

OPTIMIZERS = {
    "sgd_momentum": lambda lib, ps: lib.optim.SGD(ps, lr=0.05, momentum=0.9),
    "sgd_nesterov_wd": lambda lib, ps: lib.optim.SGD(ps, lr=0.05, momentum=0.9, nesterov=True, weight_decay=1e-3),
    "adam": lambda lib, ps: lib.optim.Adam(ps, lr=0.01),
    "adam_amsgrad_wd": lambda lib, ps: lib.optim.Adam(ps, lr=0.01, weight_decay=1e-2, amsgrad=True),
    "adamw": lambda lib, ps: lib.optim.AdamW(ps, lr=0.01),
}


@pytest.fixture(autouse=True)
def one_thread():
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def copy_weights(src_torch, dst_leafgrad):
    src = list(src_torch.named_parameters())
    dst = list(dst_leafgrad.named_parameters())
    assert [n for n, _ in src] == [n for n, _ in dst]
    with leafgrad.no_grad():
        for (_, tp), (_, lp) in zip(src, dst):
            lp.copy_(leafgrad.from_numpy(tp.detach().numpy().copy()))
    for (_, tp), (_, lp) in zip(src, dst):
        assert np.array_equal(tp.detach().numpy(), lp.detach().numpy())
        assert lp.is_leaf and lp.requires_grad


def train_losses(lib, model, opt, batches):
    F = lib.nn.functional
    losses = []
    for xb, yb in batches:
        opt.zero_grad()
        loss = F.cross_entropy(model(lib.from_numpy(xb)), lib.from_numpy(yb))
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


@pytest.mark.parametrize("opt_name", list(OPTIMIZERS))
@pytest.mark.parametrize("model_name", list(MODELS))
def test_same_losses_as_pytorch(model_name, opt_name):
    build, make_x, n_classes, batch = MODELS[model_name]
    rng = np.random.default_rng(0)
    xs = [make_x(rng, batch) for _ in range(STEPS)]
    teacher = rng.standard_normal((xs[0][0].size, n_classes))  # learnable labels: a random linear teacher
    batches = [(x, (x.reshape(batch, -1) @ teacher).argmax(1).astype(np.int64)) for x in xs]

    torch.manual_seed(0)
    t_model = build(torch)
    l_model = build(leafgrad)
    copy_weights(t_model, l_model)
    l_params = list(l_model.parameters())

    t_losses = train_losses(torch, t_model, OPTIMIZERS[opt_name](torch, t_model.parameters()), batches)
    l_losses = train_losses(leafgrad, l_model, OPTIMIZERS[opt_name](leafgrad, l_model.parameters()), batches)

    diffs = [abs(a - b) for a, b in zip(t_losses, l_losses)]
    assert max(diffs) <= TOL, list(zip(t_losses, l_losses))
    assert t_losses[-1] < t_losses[0]  # the runs actually trained
    # parameters are still the same leaf objects and agree with PyTorch's
    assert all(a is b for a, b in zip(l_model.parameters(), l_params))
    for (name, tp), (_, lp) in zip(t_model.named_parameters(), l_model.named_parameters()):
        assert lp.is_leaf and lp.grad_fn is None
        np.testing.assert_allclose(lp.detach().numpy(), tp.detach().numpy(), atol=1e-4, err_msg=name)


def test_default_initialisation_matches_pytorch_bounds():
    """Default Linear/Conv2d init: kaiming_uniform_(a=sqrt(5)) weights and U(-1/sqrt(fan_in), ..) biases,
    as PyTorch (the random streams differ, so compare bounds and spread)."""
    for lib in (torch, leafgrad):
        lib.manual_seed(0)
    pairs = [
        (torch.nn.Linear(400, 300), leafgrad.nn.Linear(400, 300), 400),
        (torch.nn.Conv2d(16, 32, 3), leafgrad.nn.Conv2d(16, 32, 3), 16 * 9),
    ]
    for t_mod, l_mod, fan_in in pairs:
        bound = 1 / np.sqrt(fan_in)
        for (name, tp), (_, lp) in zip(t_mod.named_parameters(), l_mod.named_parameters()):
            t, l_ = tp.detach().numpy(), lp.detach().numpy()
            assert t.shape == l_.shape and t.dtype == l_.dtype
            for values in (t, l_):
                assert np.abs(values).max() <= bound
                assert np.abs(values).max() > 0.9 * bound
            if name == "weight":  # large enough for the spread to be tight
                assert abs(l_.std() - bound / np.sqrt(3)) < 0.05 * bound / np.sqrt(3)
                assert abs(t.std() - bound / np.sqrt(3)) < 0.05 * bound / np.sqrt(3)
