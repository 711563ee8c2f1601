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


class _Inner(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        return a * 2.0 + b

    @staticmethod
    def backward(ctx, g):
        g1, g2 = g.clone(), g.clone()
        g2[0] = g2[0] / 0 * 0  # NaN in the second output
        return g1, g2


class _Outer(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.sum(0, keepdim=True)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return _Inner.apply(g.expand(3), x)  # the line that makes _InnerBackward


def test_a_failure_in_a_double_backward_names_the_calculation_that_induced_it():
    x = torch.rand(3, requires_grad=True)
    with record_warnings() as caught:
        with pytest.raises(RuntimeError, match="Function '_InnerBackward' returned nan values in its 1th output."):
            with torch.autograd.detect_anomaly():
                out = _Outer.apply(x)  # the line that makes _OuterBackward
                (g,) = torch.autograd.grad(out, (x,), create_graph=True)
                g.sum().backward()
    texts = warning_texts(caught, UserWarning)[1:]
    assert len(texts) == 2
    assert texts[0].startswith("Error detected in _InnerBackward. Traceback of forward call that caused the error:")
    assert "_Inner.apply(g.expand(3), x)" in texts[0]
    assert texts[1].startswith(
        "\n\nPrevious calculation was induced by _OuterBackward. Traceback of forward call that induced "
        "the previous calculation:")
    assert "out = _Outer.apply(x)" in texts[1]


def test_metadata_lives_with_the_node_and_holds_the_parent():
    import gc
    import weakref

    class Foo:
        pass

    def make():
        x = torch.randn(2, 2, requires_grad=True)
        t = x.exp()
        with record_warnings():
            with torch.autograd.detect_anomaly():
                (grad,) = torch.autograd.grad(t, x, torch.ones_like(t), create_graph=True)
        assert type(grad.grad_fn.metadata["parent_"]).__name__ == "ExpBackward0"
        obj = Foo()
        t.grad_fn.metadata[0] = obj
        return t, weakref.ref(obj)

    t, ref = make()
    gc.collect()
    assert ref() is not None and t.grad_fn.metadata[0] is ref()
    del t
    gc.collect()
    assert ref() is None
    y = torch.ones(1, requires_grad=True) * 2
    y.grad_fn.metadata["k"] = 1
    assert y.grad_fn.metadata == {"k": 1} and "parent_" not in y.grad_fn.metadata
