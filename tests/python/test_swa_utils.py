"""`torch.optim.swa_utils`: AveragedModel (SWA by default, EMA through get_ema_multi_avg_fn or
avg_fn, buffers averaged or followed), update_bn, SWALR's learning rates and the avg functions'
errors, compared with PyTorch 2.15's bytes (sha256 recorded; LEAFGRAD_TEST_TORCH=1 runs it
against PyTorch, `python test_swa_utils.py` prints the table)."""
import hashlib

import pytest
import support  # noqa: F401  (with LEAFGRAD_TEST_TORCH=1, `leafgrad` below is PyTorch)

import leafgrad as torch
from leafgrad.optim.swa_utils import (SWALR, AveragedModel, get_ema_avg_fn, get_ema_multi_avg_fn,
                                      get_swa_multi_avg_fn, update_bn)

nn = torch.nn


def data(n, scale=1.0, shift=0):
    i = torch.arange(n, dtype=torch.float64) + shift
    return ((((i * 7919) % 1000) - 500) / 500 * scale).to(torch.float32)


def digest(t):
    return hashlib.sha256(t.detach().contiguous().numpy().tobytes()).hexdigest()[:16]


def model():
    return nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 2))


def set_weights(m, step):
    with torch.no_grad():
        for k, p in enumerate(m.parameters()):
            p.copy_(data(p.numel(), 1.0 + 0.1 * step, shift=17 * k + 31 * step).reshape(p.shape))
        for k, b in enumerate(m.buffers()):
            if b.is_floating_point():
                b.copy_(data(b.numel(), 0.5, shift=5 * k + step).abs().reshape(b.shape))


def cases():
    m = model()
    set_weights(m, 0)
    swa = AveragedModel(m)
    ema = AveragedModel(m, multi_avg_fn=get_ema_multi_avg_fn(0.9))
    ema1 = AveragedModel(m, avg_fn=get_ema_avg_fn(0.8), use_buffers=True)
    swa_multi = AveragedModel(m, multi_avg_fn=get_swa_multi_avg_fn())
    for step in range(5):
        set_weights(m, step)
        for avg in (swa, ema, ema1, swa_multi):
            avg.update_parameters(m)
    for name, avg in (("swa", swa), ("ema", ema), ("ema avg_fn with buffers", ema1), ("swa multi", swa_multi)):
        for i, p in enumerate(avg.state_dict().values()):
            yield f"{name} {i}", p


# name: sha256 of PyTorch 2.15's result bytes
RECORDED = {
    'swa 0': 'f13ee6ed54ea2aae',
    'swa 1': '671420f2c61cdb66',
    'swa 2': '16acfda651057db6',
    'swa 3': 'ceb585949695a1f5',
    'swa 4': '2b10742ada0aeddb',
    'swa 5': 'b0799d7a6fccf252',
    'swa 6': 'e80aa1722af123c6',
    'swa 7': 'af5570f5a1810b7a',
    'swa 8': '2330a164224f8bc0',
    'swa 9': 'dfe3c2abe661c74c',
    'ema 0': 'f13ee6ed54ea2aae',
    'ema 1': '9689dc7676cad6f1',
    'ema 2': '85a04f8957f4021e',
    'ema 3': 'a16a6e0a0af13848',
    'ema 4': '2919f4cdf9d44695',
    'ema 5': 'b0799d7a6fccf252',
    'ema 6': 'e80aa1722af123c6',
    'ema 7': 'af5570f5a1810b7a',
    'ema 8': '7e25b4b06d19f9d3',
    'ema 9': '098d19d9b6899a68',
    'ema avg_fn with buffers 0': 'f13ee6ed54ea2aae',
    'ema avg_fn with buffers 1': '2691e41bc5e1be85',
    'ema avg_fn with buffers 2': '5ebbc3ef7d33b47a',
    'ema avg_fn with buffers 3': '16fa20486fd00799',
    'ema avg_fn with buffers 4': '43fbade5d3a8369b',
    'ema avg_fn with buffers 5': '0e81431cae7f5fa6',
    'ema avg_fn with buffers 6': 'da1d1caedc75c4e8',
    'ema avg_fn with buffers 7': 'af5570f5a1810b7a',
    'ema avg_fn with buffers 8': 'fb4ad2c635fc7f66',
    'ema avg_fn with buffers 9': '3a8bcc8f11c21733',
    'swa multi 0': 'f13ee6ed54ea2aae',
    'swa multi 1': 'f2e74d11aa278fc8',
    'swa multi 2': '6ed3d419bfaedc66',
    'swa multi 3': '6eb40c9439cc1c2d',
    'swa multi 4': 'af2603306f5de320',
    'swa multi 5': 'b0799d7a6fccf252',
    'swa multi 6': 'e80aa1722af123c6',
    'swa multi 7': 'af5570f5a1810b7a',
    'swa multi 8': '2787785625621bcd',
    'swa multi 9': 'dfe3c2abe661c74c',
}


@pytest.mark.parametrize("name,value", list(cases()), ids=lambda v: v if isinstance(v, str) else "")
def test_pytorchs_bytes(name, value):
    assert digest(value) == RECORDED[name]


def test_averaged_model_basics():
    m = nn.Linear(2, 1)
    swa = AveragedModel(m)
    assert list(swa.state_dict()) == ["n_averaged", "module.weight", "module.bias"]
    assert swa.n_averaged.dtype == torch.int64 and int(swa.n_averaged) == 0
    swa.update_parameters(m)
    assert torch.equal(swa.module.weight, m.weight) and int(swa.n_averaged) == 1
    assert torch.equal(swa(torch.ones(1, 2)), m(torch.ones(1, 2)))
    with pytest.raises(AssertionError, match="^Only one of avg_fn and multi_avg_fn should be provided$"):
        AveragedModel(m, avg_fn=get_ema_avg_fn(), multi_avg_fn=get_ema_multi_avg_fn())
    with pytest.raises(ValueError, match=r"^Invalid decay value 2 provided. Please provide a value in \[0,1\] range.$"):
        get_ema_multi_avg_fn(2)


def test_update_bn():
    m = model()
    set_weights(m, 1)
    swa = AveragedModel(m)
    swa.update_parameters(m)
    x = data(6 * 4, 2.0).reshape(6, 4)
    update_bn([x[:3], (x[3:], None)], swa)
    bn = swa.module[1]
    # the cumulative average of the two batches' statistics, momentum restored (PyTorch 2.15's
    # values; its batch statistics are summed in double, leafgrad's in float: last bits differ)
    assert bn.momentum == 0.1 and int(bn.num_batches_tracked) == 2 and swa.training
    assert bn.running_mean.tolist() == pytest.approx(
        [-0.8521, -1.3276, 0.8077, 0.7986, 0.3232, 0.2585, 0.2494, -0.226], abs=2e-4)


def test_swalr():
    p = nn.Parameter(torch.zeros(1))
    opt = torch.optim.SGD([p], lr=0.1, momentum=0.9)
    sched = SWALR(opt, swa_lr=0.05, anneal_epochs=3)
    lrs = []
    for _ in range(5):
        opt.step()
        sched.step()
        lrs.append(opt.param_groups[0]["lr"])
    # PyTorch 2.15's values
    assert lrs == pytest.approx([0.0875, 0.0625, 0.05, 0.05, 0.05], rel=1e-12)
    opt2 = torch.optim.SGD([p], lr=1.0)
    lin = SWALR(opt2, swa_lr=[0.1], anneal_epochs=2, anneal_strategy="linear")
    opt2.step()
    lin.step()
    assert lin.get_last_lr() == [0.55]
    state = lin.state_dict()
    assert "anneal_func" not in state and state["_anneal_strategy"] == "linear"
    with pytest.raises(ValueError, match="^anneal_strategy must be one of 'cos' or 'linear', instead got x$"):
        SWALR(opt, 0.1, anneal_strategy="x")
    with pytest.raises(ValueError, match="^anneal_epochs must be equal or greater than 0, got -1$"):
        SWALR(opt, 0.1, anneal_epochs=-1)


if __name__ == "__main__":
    for name, value in cases():
        print(f"    {name!r}: {digest(value)!r},")
