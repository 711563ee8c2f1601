"""Anomaly mode: torch.autograd.detect_anomaly / set_detect_anomaly, the NaN check and the
warning with the forward traceback of a failing node. Texts recorded from torch 2.15; with
LEAFGRAD_TEST_TORCH=1 the same tests run against it."""
import pytest
from support import exact, record_warnings, warning_texts

import leafgrad as torch

ENABLED = (
    "Anomaly Detection has been enabled. This mode will increase the runtime and should only be "
    "enabled for debugging."
)


def nan_product():
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    return (x.sqrt() * torch.tensor([float("nan"), 1.0])).sum()  # forward line of MulBackward0


def test_detect_anomaly_warns_and_restores_the_mode():
    assert not torch.is_anomaly_enabled() and torch.is_anomaly_check_nan_enabled()
    with record_warnings() as caught:
        with torch.autograd.detect_anomaly(check_nan=False):
            assert torch.is_anomaly_enabled() and not torch.is_anomaly_check_nan_enabled()
    assert warning_texts(caught, UserWarning) == [ENABLED]
    assert not torch.is_anomaly_enabled() and torch.is_anomaly_check_nan_enabled()
    torch.autograd.set_detect_anomaly(True)
    assert torch.is_anomaly_enabled()
    torch.autograd.set_detect_anomaly(False)
    assert not torch.is_anomaly_enabled()
    with torch.autograd.set_detect_anomaly(True, check_nan=False):
        assert torch.is_anomaly_enabled() and not torch.is_anomaly_check_nan_enabled()
    assert not torch.is_anomaly_enabled()


def test_nan_gradient_is_an_error_naming_the_node_and_its_forward_line():
    with torch.autograd.set_detect_anomaly(True):
        y = nan_product()
        with record_warnings() as caught:
            with pytest.raises(RuntimeError, match=exact("Function 'MulBackward0' returned nan values in its 0th output.")):
                y.backward()
    (text,) = warning_texts(caught, UserWarning)
    assert text.startswith("Error detected in MulBackward0. Traceback of forward call that caused the error:\n")
    assert "in nan_product\n" in text and "x.sqrt() * torch.tensor" in text


def test_without_anomaly_mode_nan_flows_and_without_check_nan_too():
    y = nan_product()
    y.backward()  # no error: NaN gradients are values like any other
    with torch.autograd.set_detect_anomaly(True, check_nan=False):
        nan_product().backward()


def test_failing_custom_backward_is_reported_with_its_forward():
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            raise ValueError("boom")

    x = torch.ones(2, requires_grad=True)
    with torch.autograd.set_detect_anomaly(True):
        y = F.apply(x).sum()  # the forward line shown
        with record_warnings() as caught:
            with pytest.raises(ValueError, match="boom"):
                y.backward()
    (text,) = warning_texts(caught, UserWarning)
    assert text.startswith("Error detected in FBackward. Traceback of forward call that caused the error:\n")
    assert "y = F.apply(x).sum()  # the forward line shown" in text


def test_nodes_made_outside_anomaly_mode_have_no_trace():
    y = nan_product()
    with torch.autograd.set_detect_anomaly(True):
        with record_warnings() as caught:
            with pytest.raises(RuntimeError):
                y.backward()
    assert warning_texts(caught, UserWarning) == [
        "Error detected in MulBackward0. No forward pass information available. Enable detect "
        "anomaly during forward pass for more information."
    ]


def test_report_goes_to_stderr_when_warnings_are_errors(capsys):
    import warnings

    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        with warnings.catch_warnings():
            with torch.autograd.set_detect_anomaly(True):
                warnings.simplefilter("error")
                a = torch.randn(5, requires_grad=True)
                d1 = a + 1
                d2 = d1 ** 2
                d1 += 1
                torch.autograd.grad(d2.sum(), a)
    assert "Error detected in PowBackward0" in capsys.readouterr().err
