"""`torch.jit` as PyTorch 2.15 behaves with TorchScript disabled (`PYTORCH_JIT=0`): `script` and
`trace` return what they are given (with PyTorch's FutureWarnings), the annotations are
transparent, `jit.load` refuses archives. With LEAFGRAD_TEST_TORCH=1 the parts PyTorch shares
in its default mode run against it (the identities need PYTORCH_JIT=0 there)."""
import os
import typing
import warnings

import pytest
from support import USING_TORCH

import leafgrad as torch

JIT_OFF = not USING_TORCH or os.environ.get("PYTORCH_JIT") == "0"


def _future_warnings(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn()
    return result, [str(w.message) for w in caught if w.category is FutureWarning]


@pytest.mark.skipif(not JIT_OFF, reason="PyTorch compiles unless PYTORCH_JIT=0")
def test_script_and_trace_return_their_argument():
    def f(x):
        return x * 2

    m = torch.nn.Linear(2, 2)
    for call, obj, message in [
        (lambda: torch.jit.script(f), f, "`torch.jit.script` is deprecated. Please switch to `torch.compile` or "
                                         "`torch.export`."),
        (lambda: torch.jit.script(m), m, "`torch.jit.script` is deprecated. Please switch to `torch.compile` or "
                                         "`torch.export`."),
        (lambda: torch.jit.trace(f, torch.ones(2)), f, "`torch.jit.trace` is deprecated. Please switch to "
                                                       "`torch.compile` or `torch.export`."),
        (lambda: torch.jit.trace(m, torch.ones(1, 2)), m, "`torch.jit.trace` is deprecated. Please switch to "
                                                          "`torch.compile` or `torch.export`."),
    ]:
        result, messages = _future_warnings(call)
        assert result is obj and messages == [message]
    assert not isinstance(m, torch.jit.ScriptModule)
    # the returned module trains as before
    x = torch.ones(1, 2)
    traced = torch.jit.trace(m, x)
    traced(x).sum().backward()
    assert m.weight.grad.tolist() == [[1.0, 1.0], [1.0, 1.0]]


def test_annotations_are_transparent():
    assert torch.jit.is_scripting() is False and torch.jit.is_tracing() is False

    @torch.jit.ignore
    def g(x):
        return x + 1

    assert g(1) == 2
    _, messages = _future_warnings(lambda: torch.jit.ignore(drop=True))
    assert messages == ["ignore(True) has been deprecated. TorchScript will now drop the function call on "
                        "compilation. Use torch.jit.unused now. {}"]
    def h(x):
        return -x

    assert torch.jit.unused(h)(-1) == 1 and torch.jit.export(h) is h
    assert torch.jit.annotate(typing.List[int], []) == []
    assert torch.jit.isinstance([1], typing.List[int]) and not torch.jit.isinstance([1.5], typing.List[int])
    with pytest.raises(RuntimeError, match="^Attempted to use list without a contained type"):
        torch.jit.isinstance([1], list)
    value, messages = _future_warnings(lambda: torch.jit.wait(torch.jit.fork(abs, -2)))
    assert value == 2 and messages == ["`torch.jit.fork` is deprecated. Please use `torch.compile` instead.",
                                       "`torch.jit.wait` is deprecated. Please use `torch.compile` instead."]


def test_load_and_save(tmp_path):
    missing = str(tmp_path / "missing.pt")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        with pytest.raises(ValueError, match=f"^The provided filename {missing} does not exist$"):
            torch.jit.load(missing)
        if JIT_OFF:
            # a plain module has no TorchScript `save`, as under PYTORCH_JIT=0
            with pytest.raises(AttributeError):
                torch.jit.save(torch.nn.Linear(1, 1), str(tmp_path / "m.pt"))
