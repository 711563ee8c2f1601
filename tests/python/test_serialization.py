"""torch.save / torch.load in PyTorch's zip format: round trips (dtypes, views sharing memory,
parameters, state dicts with their metadata, optimizer state), a checkpoint written by torch
2.15 (recorded below) read back, weights_only, map_location, and, with a Python that has
PyTorch (LEAFGRAD_TORCH_PYTHON, or torch importable), PyTorch reading leafgrad's files. With
LEAFGRAD_TEST_TORCH=1 the same tests run against torch."""
import base64
import io
import os
import pickle
import shutil
import subprocess
import sys

import pytest

import leafgrad as torch

# torch.save by torch 2.15 of {"linear": nn.Linear(3, 2).state_dict() after manual_seed(0),
# "views": [base, base.t(), base[1:, 2]] with base = arange(12.).reshape(3, 4), "step": 7,
# "half": [1.5, -2.5] float16, "ints": [1, -2], "size": Size([2, 3]), "dtype": float64,
# "p": Parameter([0.5, 0.25])}
TORCH_CHECKPOINT = (
    "UEsDBAAACAgAAAAAAAAAAAAAAAAAAAAAAAAQABIAYXJjaGl2ZS9kYXRhLnBrbEZCDgBaWlpaWlpaWlpaWlpaWoACfXEAKFgG"
    "AAAAbGluZWFycQFjY29sbGVjdGlvbnMKT3JkZXJlZERpY3QKcQIpUnEDKFgGAAAAd2VpZ2h0cQRjdG9yY2guX3V0aWxzCl9y"
    "ZWJ1aWxkX3RlbnNvcl92MgpxBSgoWAcAAABzdG9yYWdlcQZjdG9yY2gKRmxvYXRTdG9yYWdlCnEHWAEAAAAwcQhYAwAAAGNw"
    "dXEJSwZ0cQpRSwBLAksDhnELSwNLAYZxDIloAilScQ10cQ5ScQ9YBAAAAGJpYXNxEGgFKChoBmgHWAEAAAAxcRFoCUsCdHES"
    "UUsASwKFcRNLAYVxFIloAilScRV0cRZScRd1fXEYWAkAAABfbWV0YWRhdGFxGWgCKVJxGlgAAAAAcRt9cRxYBwAAAHZlcnNp"
    "b25xHUsBc3NzYlgFAAAAdmlld3NxHl1xHyhoBSgoaAZoB1gBAAAAMnEgaAlLDHRxIVFLAEsDSwSGcSJLBEsBhnEjiWgCKVJx"
    "JHRxJVJxJmgFKChoBmgHaCBoCUsMdHEnUUsASwRLA4ZxKEsBSwSGcSmJaAIpUnEqdHErUnEsaAUoKGgGaAdoIGgJSwx0cS1R"
    "SwZLAoVxLksEhXEviWgCKVJxMHRxMVJxMmVYBAAAAHN0ZXBxM0sHWAQAAABoYWxmcTRoBSgoaAZjdG9yY2gKSGFsZlN0b3Jh"
    "Z2UKcTVYAQAAADNxNmgJSwJ0cTdRSwBLAoVxOEsBhXE5iWgCKVJxOnRxO1JxPFgEAAAAaW50c3E9aAUoKGgGY3RvcmNoCkxv"
    "bmdTdG9yYWdlCnE+WAEAAAA0cT9oCUsCdHFAUUsASwKFcUFLAYVxQoloAilScUN0cURScUVYBAAAAHNpemVxRmN0b3JjaApT"
    "aXplCnFHSwJLA4ZxSIVxSVJxSlgFAAAAZHR5cGVxS2N0b3JjaApmbG9hdDY0CnFMWAEAAABwcU1jdG9yY2guX3V0aWxzCl9y"
    "ZWJ1aWxkX3BhcmFtZXRlcgpxTmgFKChoBmgHWAEAAAA1cU9oCUsCdHFQUUsASwKFcVFLAYVxUoloAilScVN0cVRScVWIaAIp"
    "UnFWh3FXUnFYdS5QSwcIgEW51isDAAArAwAAUEsDBAAACAgAAAAAAAAAAAAAAAAAAAAAAAAXABAAYXJjaGl2ZS8uZm9ybWF0"
    "X3ZlcnNpb25GQgwAWlpaWlpaWlpaWlpaMVBLBwi379yDAQAAAAEAAABQSwMEAAAICAAAAAAAAAAAAAAAAAAAAAAAABoANwBh"
    "cmNoaXZlLy5zdG9yYWdlX2FsaWdubWVudEZCMwBaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpa"
    "WlpaWlpaWlo2NFBLBwg/d3HpAgAAAAIAAABQSwMEAAAICAAAAAAAAAAAAAAAAAAAAAAAABEAPwBhcmNoaXZlL2J5dGVvcmRl"
    "ckZCOwBaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWmxpdHRsZVBL"
    "BwiFPeMZBgAAAAYAAABQSwMEAAAICAAAAAAAAAAAAAAAAAAAAAAAAA4APgBhcmNoaXZlL2RhdGEvMEZCOgBaWlpaWlpaWlpa"
    "WlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpa6KONuxOTnj5+S/O+yYvZvrG0Y75TiR4+"
    "UEsHCMHXZ8YYAAAAGAAAAFBLAwQAAAgIAAAAAAAAAAAAAAAAAAAAAAAADgAsAGFyY2hpdmUvZGF0YS8xRkIoAFpaWlpaWlpa"
    "WlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpAazu8emHqPlBLBwjC8ONWCAAAAAgAAABQSwMEAAAICAAAAAAAAAAA"
    "AAAAAAAAAAAAAA4APABhcmNoaXZlL2RhdGEvMkZCOABaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpa"
    "WlpaWlpaWlpaWlpaWlpaWgAAAAAAAIA/AAAAQAAAQEAAAIBAAACgQAAAwEAAAOBAAAAAQQAAEEEAACBBAAAwQVBLBwh4fWY+"
    "MAAAADAAAABQSwMEAAAICAAAAAAAAAAAAAAAAAAAAAAAAA4AFABhcmNoaXZlL2RhdGEvM0ZCEABaWlpaWlpaWlpaWlpaWlpa"
    "AD4AwVBLBwig5dLjBAAAAAQAAABQSwMEAAAICAAAAAAAAAAAAAAAAAAAAAAAAA4AQABhcmNoaXZlL2RhdGEvNEZCPABaWlpa"
    "WlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWloBAAAAAAAAAP7/////////"
    "UEsHCC/aH8oQAAAAEAAAAFBLAwQAAAgIAAAAAAAAAAAAAAAAAAAAAAAADgA0AGFyY2hpdmUvZGF0YS81RkIwAFpaWlpaWlpa"
    "WlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWgAAAD8AAIA+UEsHCN51sbwIAAAACAAAAFBLAwQAAAgI"
    "AAAAAAAAAAAAAAAAAAAAAAAADwA7AGFyY2hpdmUvdmVyc2lvbkZCNwBaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpa"
    "WlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaMwpQSwcI0Z5nVQIAAAACAAAAUEsDBAAACAgAAAAAAAAAAAAAAAAAAAAAAAAeADIA"
    "YXJjaGl2ZS8uZGF0YS9zZXJpYWxpemF0aW9uX2lkRkIuAFpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpa"
    "WlpaWlpaWloxMjY4NTY3Mzk2OTY0NjQ2MjYxMTA3MjMzNzY0NjkzOTE2ODcxNDQ1UEsHCPclx98oAAAAKAAAAFBLAQIAAAAA"
    "CAgAAAAAAACARbnWKwMAACsDAAAQAAAAAAAAAAAAAAAAAAAAAABhcmNoaXZlL2RhdGEucGtsUEsBAgAAAAAICAAAAAAAALfv"
    "3IMBAAAAAQAAABcAAAAAAAAAAAAAAAAAewMAAGFyY2hpdmUvLmZvcm1hdF92ZXJzaW9uUEsBAgAAAAAICAAAAAAAAD93cekC"
    "AAAAAgAAABoAAAAAAAAAAAAAAAAA0QMAAGFyY2hpdmUvLnN0b3JhZ2VfYWxpZ25tZW50UEsBAgAAAAAICAAAAAAAAIU94xkG"
    "AAAABgAAABEAAAAAAAAAAAAAAAAAUgQAAGFyY2hpdmUvYnl0ZW9yZGVyUEsBAgAAAAAICAAAAAAAAMHXZ8YYAAAAGAAAAA4A"
    "AAAAAAAAAAAAAAAA1gQAAGFyY2hpdmUvZGF0YS8wUEsBAgAAAAAICAAAAAAAAMLw41YIAAAACAAAAA4AAAAAAAAAAAAAAAAA"
    "aAUAAGFyY2hpdmUvZGF0YS8xUEsBAgAAAAAICAAAAAAAAHh9Zj4wAAAAMAAAAA4AAAAAAAAAAAAAAAAA2AUAAGFyY2hpdmUv"
    "ZGF0YS8yUEsBAgAAAAAICAAAAAAAAKDl0uMEAAAABAAAAA4AAAAAAAAAAAAAAAAAgAYAAGFyY2hpdmUvZGF0YS8zUEsBAgAA"
    "AAAICAAAAAAAAC/aH8oQAAAAEAAAAA4AAAAAAAAAAAAAAAAA1AYAAGFyY2hpdmUvZGF0YS80UEsBAgAAAAAICAAAAAAAAN51"
    "sbwIAAAACAAAAA4AAAAAAAAAAAAAAAAAYAcAAGFyY2hpdmUvZGF0YS81UEsBAgAAAAAICAAAAAAAANGeZ1UCAAAAAgAAAA8A"
    "AAAAAAAAAAAAAAAA2AcAAGFyY2hpdmUvdmVyc2lvblBLAQIAAAAACAgAAAAAAAD3JcffKAAAACgAAAAeAAAAAAAAAAAAAAAA"
    "AFIIAABhcmNoaXZlLy5kYXRhL3NlcmlhbGl6YXRpb25faWRQSwYGLAAAAAAAAAAeAy0AAAAAAAAAAAAMAAAAAAAAAAwAAAAA"
    "AAAA+wIAAAAAAAD4CAAAAAAAAFBLBgcAAAAA8wsAAAAAAAABAAAAUEsFBgAAAAAMAAwA+wIAAPgIAAAAAA=="
)


def roundtrip(obj, **load_kwargs):
    buf = io.BytesIO()
    torch.save(obj, buf)
    buf.seek(0)
    return torch.load(buf, **load_kwargs)


def test_reads_a_checkpoint_written_by_pytorch():
    ckpt = torch.load(io.BytesIO(base64.b64decode(TORCH_CHECKPOINT)))
    assert list(ckpt["linear"]) == ["weight", "bias"]
    lin = torch.nn.Linear(3, 2)
    lin.load_state_dict(ckpt["linear"])
    torch.manual_seed(0)
    assert torch.equal(lin.weight, torch.nn.Linear(3, 2).weight)  # PyTorch's init, bit for bit
    base, t, col = ckpt["views"]
    assert t.stride() == (1, 4) and col.storage_offset() == 6
    base[1, 2] = 100.
    assert t[2, 1].item() == 100. and col[0].item() == 100.  # one storage, as saved
    assert ckpt["step"] == 7 and ckpt["half"].dtype == torch.float16 and ckpt["half"].tolist() == [1.5, -2.5]
    assert ckpt["ints"].dtype == torch.int64 and ckpt["size"] == torch.Size([2, 3])
    assert ckpt["dtype"] is torch.float64
    assert isinstance(ckpt["p"], torch.nn.Parameter) and ckpt["p"].requires_grad


def test_round_trip_keeps_dtypes_layout_and_sharing():
    base = torch.arange(12.).reshape(3, 4)
    obj = {"views": [base, base.t(), base[1:, 2]], "c": torch.tensor([1 + 2j]),
           "bf": torch.tensor([1., -2.], dtype=torch.bfloat16), "u8": torch.tensor([255], dtype=torch.uint8),
           "b": torch.tensor([True, False]), "i32": torch.tensor([-1], dtype=torch.int32),
           "scalar": torch.tensor(3.5, dtype=torch.float64), "empty": torch.zeros(0),
           "rg": torch.ones(2, requires_grad=True), "nested": (1, [2.0, {"a": "b"}]),
           "device": torch.device("cpu")}
    out = roundtrip(obj)
    b, t, col = out["views"]
    assert torch.equal(b, base) and t.stride() == (1, 4) and col.tolist() == [6., 10.]
    b[2, 2] = -1.
    assert col[1].item() == -1.
    for k in ("c", "bf", "u8", "b", "i32", "scalar", "empty"):
        assert out[k].dtype == obj[k].dtype and torch.equal(out[k], obj[k]), k
    assert out["rg"].requires_grad and out["rg"].is_leaf
    assert out["nested"] == (1, [2.0, {"a": "b"}]) and out["device"] == torch.device("cpu")


def test_state_dicts_and_optimizer_state():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4), torch.nn.Linear(4, 1))
    opt = torch.optim.Adam(model.parameters(), lr=0.1)
    model(torch.randn(5, 3)).sum().backward()
    opt.step()
    sd = roundtrip(model.state_dict())
    assert list(sd) == list(model.state_dict())
    assert sd._metadata[""] == {"version": 1} and sd._metadata["1"] == {"version": 2}
    fresh = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4), torch.nn.Linear(4, 1))
    fresh.load_state_dict(sd)
    x = torch.randn(2, 3)
    model.eval(), fresh.eval()
    assert torch.equal(model(x), fresh(x))
    osd = roundtrip(opt.state_dict())
    assert osd["param_groups"][0]["lr"] == 0.1 and osd["param_groups"][0]["betas"] == (0.9, 0.999)
    assert torch.equal(osd["state"][0]["exp_avg"], opt.state_dict()["state"][0]["exp_avg"])


def test_paths_and_archive_name(tmp_path):
    import zipfile

    path = tmp_path / "model.pt"
    torch.save({"w": torch.ones(2)}, path)
    assert torch.load(path)["w"].tolist() == [1., 1.]
    names = zipfile.ZipFile(path).namelist()
    assert "model/data.pkl" in names and "model/data/0" in names and "model/version" in names
    torch.save(torch.ones(1), str(tmp_path / "x.bin"))
    assert torch.load(str(tmp_path / "x.bin")).tolist() == [1.]


class Custom:
    """A class a checkpoint may name (weights_only refuses to build it)."""


def test_weights_only_refuses_other_globals():
    buf = io.BytesIO()
    torch.save({"obj": Custom}, buf)
    buf.seek(0)
    with pytest.raises(pickle.UnpicklingError, match="Weights only load failed"):
        torch.load(buf)
    buf.seek(0)
    assert torch.load(buf, weights_only=False)["obj"] is Custom


def test_map_location():
    out = roundtrip({"w": torch.ones(2)}, map_location="cpu")
    assert out["w"].device == torch.device("cpu")
    seen = []
    out = roundtrip({"w": torch.ones(2)}, map_location=lambda storage, loc: seen.append(loc))
    assert seen == ["cpu"] and out["w"].tolist() == [1., 1.]


def _torch_python():
    p = os.environ.get("LEAFGRAD_TORCH_PYTHON")
    if p:
        return p
    try:
        import importlib.util

        return sys.executable if importlib.util.find_spec("torch") else None
    except Exception:  # pragma: no cover
        return None


def test_pytorch_reads_leafgrad_files(tmp_path):
    py = _torch_python()
    if py is None or shutil.which(py) is None and not os.path.exists(py):
        pytest.skip("no Python with PyTorch (set LEAFGRAD_TORCH_PYTHON)")
    base = torch.arange(6.).reshape(2, 3)
    torch.manual_seed(0)
    torch.save({"lin": torch.nn.Linear(3, 2).state_dict(), "v": [base, base.t()], "h": torch.tensor([0.5], dtype=torch.float16),
                "size": torch.Size([4]), "dt": torch.int32, "p": torch.nn.Parameter(torch.ones(1))}, tmp_path / "f.pt")
    code = (
        "import torch, sys\n"
        "d = torch.load(sys.argv[1])\n"
        "torch.manual_seed(0)\n"
        "assert torch.equal(d['lin']['weight'], torch.nn.Linear(3, 2).weight)\n"
        "d['v'][0][1, 0] = 9.\n"
        "assert d['v'][1][0, 1].item() == 9. and d['v'][1].stride() == (1, 3)\n"
        "assert d['h'].dtype == torch.float16 and d['size'] == torch.Size([4]) and d['dt'] is torch.int32\n"
        "assert isinstance(d['p'], torch.nn.Parameter)\n"
        "print('ok')\n"
    )
    r = subprocess.run([py, "-c", code, str(tmp_path / "f.pt")], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr
