"""`torch.utils.tensorboard.SummaryWriter`: scalars land in TensorBoard event files with
PyTorch's layout (one file per run directory, `add_scalars` in `<main>_<tag>` subdirectories,
the `brain.Event:2` header). Read back with leafgrad's own record reader, which checks every
CRC; LEAFGRAD_TEST_TORCH=1 runs the same test on PyTorch's writer (which needs the
tensorboard package), so the reader is checked against PyTorch's files too."""
import glob
import importlib.util
import os
from pathlib import Path

import pytest
import support  # noqa: F401  (with LEAFGRAD_TEST_TORCH=1, `leafgrad` below is PyTorch)

import leafgrad as torch

_spec = importlib.util.spec_from_file_location(
    "_lg_events", Path(__file__).resolve().parents[2] / "python" / "leafgrad" / "utils" / "tensorboard" / "_events.py")
events = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(events)


def _writer_class():
    try:
        return importlib.import_module(torch.__name__ + ".utils.tensorboard").SummaryWriter
    except ImportError:
        pytest.skip("PyTorch's SummaryWriter needs the tensorboard package")


def _runs(root):
    out = {}
    for path in sorted(glob.glob(os.path.join(root, "**", "events.out.tfevents.*"), recursive=True)):
        run = os.path.relpath(os.path.dirname(path), root)
        out[run] = [(e["step"], e.get("file_version"), e.get("scalars")) for e in events.read_events(path)]
    return out


def test_scalars_and_scalar_groups(tmp_path):
    SummaryWriter = _writer_class()
    w = SummaryWriter(str(tmp_path), filename_suffix=".x")
    assert w.get_logdir() == str(tmp_path)
    for step in range(3):
        w.add_scalar("Loss/train", torch.tensor(0.25 * step), step)
    w.add_scalar("lr", 0.1)
    w.add_scalars("run", {"a": 1.0, "b": torch.tensor([2.0])}, 7)
    w.close()
    header = (0, "brain.Event:2", None)
    assert _runs(str(tmp_path)) == {
        ".": [header, (0, None, [("Loss/train", 0.0)]), (1, None, [("Loss/train", 0.25)]),
              (2, None, [("Loss/train", 0.5)]), (0, None, [("lr", pytest.approx(0.1))])],
        "run_a": [header, (7, None, [("run", 1.0)])],
        "run_b": [header, (7, None, [("run", 2.0)])],
    }
    assert all(p.endswith(".x") for p in glob.glob(str(tmp_path / "**" / "events.*"), recursive=True))


def test_default_directory_flush_and_errors(tmp_path, monkeypatch):
    SummaryWriter = _writer_class()
    monkeypatch.chdir(tmp_path)
    with SummaryWriter(comment="_lr0.1") as w:
        w.add_scalar("x", 3, 5)
        w.flush()
        (run,) = os.listdir("runs")
        assert run.endswith("_lr0.1") and w.get_logdir() == os.path.join("runs", run)
        (path,) = glob.glob(os.path.join("runs", run, "events.out.tfevents.*"))
        assert [e.get("scalars") for e in events.read_events(path)] == [None, [("x", 3.0)]]
        with pytest.raises(AssertionError):
            w.add_scalar("bad", torch.ones(2), 0)


def test_records_are_framed_with_masked_crc32c():
    assert events.crc32c(b"123456789") == 0xE3069283
    rec = events.record(b"abc")
    assert len(rec) == 8 + 4 + 3 + 4 and rec[:8] == (3).to_bytes(8, "little")
