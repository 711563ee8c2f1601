"""Anomaly mode: find the forward operation behind a failing backward.

While anomaly detection is on, every backward node remembers the Python stack of the forward call
that made it; when that node fails in backward, a warning shows that stack before the error is
raised, and (with `check_nan`, the default) a node whose gradient contains NaN fails with
"Function 'XBackward0' returned nan values in its 0th output.". Off, it costs nothing.

>>> x = torch.tensor([0.0, 1.0], requires_grad=True)
>>> with torch.autograd.set_detect_anomaly(True):
...     y = (x.sqrt() * torch.tensor([float("nan"), 1.0])).sum()
...     try:
...         y.backward()
...     except RuntimeError as e:
...         print(e)
Function 'MulBackward0' returned nan values in its 0th output.
"""
import os
import sys
import traceback
import warnings

from .. import _core

__all__ = ["detect_anomaly", "set_detect_anomaly"]

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _forward_trace():
    """The stack of the current forward call, without leafgrad's own frames."""
    frames = [f for f in traceback.extract_stack()[:-1] if not os.path.abspath(f.filename).startswith(_PACKAGE)]
    return "".join(traceback.format_list(frames))


def _no_forward_info(name):
    return (
        f"Error detected in {name}. No forward pass information available. Enable detect "
        "anomaly during forward pass for more information."
    )


def _report(name, trace, parents=()):
    """PyTorch's warnings for a failing node: where it was made, then, for each node whose
    backward made it (under create_graph), where that one was made."""
    if trace is None:
        text = _no_forward_info(name)
    else:
        text = f"Error detected in {name}. Traceback of forward call that caused the error:\n{trace}"
    _warn(text + " (Triggered internally at /__w/pytorch/pytorch/torch/csrc/autograd/python_anomaly_mode.cpp:108.)")
    for parent, parent_trace in parents:
        if parent_trace is None:
            text = _no_forward_info(parent)
        else:
            text = (f"Previous calculation was induced by {parent}. Traceback of forward call that "
                    f"induced the previous calculation:\n{parent_trace}")
        _warn("\n\n" + text + " (Triggered internally at /__w/pytorch/pytorch/torch/csrc/autograd/python_anomaly_mode.cpp:115.)")


def _warn(text):
    try:
        warnings.warn(text, UserWarning, stacklevel=3)
    except Exception:
        # warnings turned into errors must not replace the backward error: print it instead
        print("Warning: " + text, file=sys.stderr)


class detect_anomaly:
    """Context manager that turns anomaly detection on (with a warning that it is slow).

    >>> with torch.autograd.detect_anomaly(check_nan=False):
    ...     torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()
    (True, False)
    """

    def __init__(self, check_nan=True):
        self.prev = _core.is_anomaly_enabled()
        self.check_nan = check_nan
        self.prev_check_nan = _core.is_anomaly_check_nan_enabled()
        warnings.warn(
            "Anomaly Detection has been enabled. This mode will increase the runtime and should only "
            "be enabled for debugging.",
            stacklevel=2,
        )

    def __enter__(self):
        _core.set_anomaly_enabled(True, self.check_nan)

    def __exit__(self, *args):
        _core.set_anomaly_enabled(self.prev, self.prev_check_nan)


class set_detect_anomaly:
    """Turn anomaly detection on or off, as a function or a context manager.

    >>> _ = torch.autograd.set_detect_anomaly(True)
    >>> torch.is_anomaly_enabled()
    True
    >>> _ = torch.autograd.set_detect_anomaly(False)
    >>> torch.is_anomaly_enabled()
    False
    """

    def __init__(self, mode, check_nan=True):
        self.prev = _core.is_anomaly_enabled()
        self.prev_check_nan = _core.is_anomaly_check_nan_enabled()
        _core.set_anomaly_enabled(mode, check_nan)

    def __enter__(self):
        pass

    def __exit__(self, *args):
        _core.set_anomaly_enabled(self.prev, self.prev_check_nan)
