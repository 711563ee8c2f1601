"""torch.profiler / torch.autograd.profiler: events per call, nesting and self time, PyTorch's
table layout, schedules, traces, and that the instrumentation leaves nothing behind. Timings are
never asserted; structure is. Runs against PyTorch too (LEAFGRAD_TEST_TORCH=1) where the
behaviour is the same."""
import json
import os
import re

import pytest

import leafgrad as torch

IS_TORCH = torch.__name__ == "torch"


def test_autograd_profile_records_each_call_and_the_table():
    x = torch.randn(2, 3, requires_grad=True)
    y = torch.rand(2, 3, requires_grad=True)
    z = torch.ones(2, 3, requires_grad=True)
    with torch.autograd.profiler.profile() as prf:
        for _ in range(50):
            z = (z / x) * y
    keys = [e.key for e in prf.function_events]
    assert keys[:4] == ["aten::div", "aten::mul", "aten::div", "aten::mul"]
    avg = {e.key: e for e in prf.key_averages()}
    assert avg["aten::div"].count == 50 and avg["aten::mul"].count == 50
    assert isinstance(avg["aten::mul"].cpu_time_total, float) and avg["aten::mul"].cpu_time_total > 0
    table = prf.key_averages().table(sort_by="self_cpu_time_total")
    lines = table.split("\n")
    assert re.fullmatch(r"-{13}  (-{12}  ){6}", lines[0])
    assert lines[1] == ("         Name    Self CPU %      Self CPU   CPU total %     CPU total  CPU time avg"
                        "    # of Calls  ")
    assert {lines[3].split()[0], lines[4].split()[0]} == {"aten::div", "aten::mul"}
    assert lines[3].split()[-1] == "50"
    assert re.fullmatch(r"Self CPU time total: \d+\.\d{3}(us|ms|s)", lines[6]) and lines[7] == ""
    shares = [float(line.split()[1].rstrip("%")) for line in lines[3:5]]
    assert abs(sum(shares) - 100.0) < 0.05 and shares[0] >= shares[1]


def test_use_cuda_is_refused_as_in_pytorch():
    with pytest.raises(TypeError, match=r"profile.__init__\(\) got an unexpected keyword argument 'use_cuda'"):
        torch.autograd.profiler.profile(use_cuda=False)


def test_record_function_nests_and_shapes_are_recorded():
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU], record_shapes=True) as prof:
        with torch.profiler.record_function("model_inference"):
            a = torch.ones(4, 5)
            b = a.exp()
    events = prof.events()
    outer = next(e for e in events if e.key == "model_inference")
    inner = [e for e in events if e.key in ("aten::ones", "aten::exp")]
    assert len(inner) == 2 and all(e.cpu_parent is outer for e in inner)
    assert outer.cpu_time_total >= sum(e.cpu_time_total for e in inner)
    assert abs(outer.self_cpu_time_total - (outer.cpu_time_total - sum(e.cpu_time_total for e in inner))) < 1e-6
    exp = next(e for e in events if e.key == "aten::exp")
    assert exp.input_shapes == [[4, 5]]
    grouped = prof.key_averages(group_by_input_shape=True).table(sort_by="cpu_time_total", row_limit=10)
    assert "Input Shapes" in grouped.split("\n")[1] and grouped.split("\n")[3].split()[0] == "model_inference"
    assert b.shape == (4, 5)


def test_record_function_as_decorator_and_without_profiler():
    @torch.profiler.record_function("my_block")
    def f(t):
        return t * 2

    assert f(torch.ones(1)).tolist() == [2.0]  # no profiler: just runs
    with torch.autograd.profiler.profile() as prof:
        f(torch.ones(1))
    assert "my_block" in [e.key for e in prof.function_events]


def test_schedule_actions_match_pytorch():
    s = torch.profiler.schedule(wait=1, warmup=1, active=2)
    assert [s(i).name for i in range(8)] == ["NONE", "WARMUP", "RECORD", "RECORD_AND_SAVE"] * 2
    s = torch.profiler.schedule(wait=1, warmup=1, active=2, repeat=1)
    assert [s(i).name for i in range(6)] == ["NONE", "WARMUP", "RECORD", "RECORD_AND_SAVE", "NONE", "NONE"]
    with pytest.warns(UserWarning, match="won't be using warmup"):
        s = torch.profiler.schedule(wait=2, warmup=0, active=1, skip_first=3)
    assert [s(i).name for i in range(9)] == ["NONE"] * 5 + ["RECORD_AND_SAVE", "NONE", "NONE", "RECORD_AND_SAVE"]
    s = torch.profiler.schedule(wait=1, warmup=1, active=2, repeat=2, skip_first_wait=1)
    assert [s(i).name for i in range(9)] == ["WARMUP", "RECORD", "RECORD_AND_SAVE", "NONE", "WARMUP", "RECORD",
                                             "RECORD_AND_SAVE", "NONE", "NONE"]


def test_scheduled_profile_saves_each_cycle(tmp_path):
    saved = []
    sched = torch.profiler.schedule(wait=1, warmup=1, active=2, repeat=2)
    with torch.profiler.profile(schedule=sched, on_trace_ready=lambda p: saved.append(
            [e.key for e in p.key_averages()])) as prof:
        for _ in range(10):
            torch.ones(2).neg()
            prof.step()
    assert len(saved) == 2
    assert all(set(keys) >= {"aten::ones", "aten::neg"} for keys in saved)


def test_chrome_trace_and_tensorboard_handler(tmp_path):
    with torch.profiler.profile() as prof:
        torch.ones(3).sum()
    path = tmp_path / "trace.json"
    prof.export_chrome_trace(str(path))
    trace = json.loads(path.read_text())
    names = [e["name"] for e in trace["traceEvents"] if e.get("ph") == "X"]
    assert "aten::ones" in names and "aten::sum" in names
    handler = torch.profiler.tensorboard_trace_handler(str(tmp_path / "tb"), worker_name="w")
    with torch.profiler.profile(on_trace_ready=handler):
        torch.ones(3).sum()
    files = os.listdir(tmp_path / "tb")
    assert len(files) == 1 and files[0].startswith("w.") and files[0].endswith(".pt.trace.json")


@pytest.mark.skipif(IS_TORCH, reason="leafgrad's instrumentation")
def test_instrumentation_is_removed_and_backward_is_one_event():
    T = torch.Tensor
    before = {n: T.__dict__.get(n) for n in ("__mul__", "add", "exp", "backward")}
    fn_before = torch.exp
    x = torch.ones(2, requires_grad=True)
    with torch.autograd.profiler.profile() as prof:
        (x * 3).exp().sum().backward()
    assert [e.key for e in prof.function_events] == ["aten::mul", "aten::exp", "aten::sum", "autograd::backward"]
    assert {n: T.__dict__.get(n) for n in before} == before and torch.exp is fn_before
    assert x.grad is not None


def test_a_profile_never_entered_has_no_events():
    p = torch.autograd.profiler.profile()
    assert len(p.key_averages()) == 0 and len(p.function_events) == 0
