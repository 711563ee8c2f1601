"""torch.autograd.gradcheck / gradgradcheck as a user calls them: results, GradcheckError texts and
warnings recorded from torch 2.15 (the same tests run against it with LEAFGRAD_TEST_TORCH=1)."""
import pytest
from support import exact, record_warnings, warning_texts

import leafgrad as torch
from leafgrad.autograd import gradcheck, gradgradcheck
from leafgrad.autograd.function import once_differentiable
from leafgrad.autograd.gradcheck import GradcheckError


def dleaf(values):
    return torch.tensor(values, dtype=torch.float64, requires_grad=True)


class WrongSquare(torch.autograd.Function):
    """x ** 2 with the derivative 3x: wrong by half."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x * g


MISMATCH = """Jacobian mismatch for output 0 with respect to input 0,
numerical:tensor([[1.0000, 0.0000],
        [0.0000, 3.0000]], dtype=torch.float64)
analytical:tensor([[1.5000, 0.0000],
        [0.0000, 4.5000]], dtype=torch.float64)
"""


@pytest.mark.parametrize(
    "fn, args",
    [
        (torch.sin, lambda: (dleaf([0.5, 1.5]),)),
        (lambda a, b: a * b.exp(), lambda: (dleaf([0.5, -1.0]), dleaf([0.25, 2.0]))),
        (lambda a: a.max(0), lambda: (dleaf([1.0, -2.0, 3.0]),)),
        (lambda a, k: (a ** k).sum(), lambda: (dleaf([[1.0, 2.0], [3.0, 4.0]]), 3)),
        (lambda a: a.t().matmul(a), lambda: (dleaf([[1.0, 2.0], [3.0, 4.0]]),)),
        (lambda a: (a[0], a[1] * 2), lambda: (dleaf([1.0, 2.0]),)),
    ],
)
@pytest.mark.parametrize("fast", [False, True])
def test_correct_gradients_pass(fn, args, fast):
    assert gradcheck(fn, args(), fast_mode=fast) is True


def test_second_derivatives_pass():
    x = dleaf([0.5, 1.5])
    assert gradgradcheck(torch.sin, (x,)) is True
    assert gradgradcheck(lambda a, b: a * b.exp(), (x, dleaf([0.25, 2.0]))) is True
    assert gradgradcheck(torch.tanh, (x,), (dleaf([1.0, -1.0]),)) is True


def test_mismatch_raises_gradcheck_error_with_both_jacobians():
    x = dleaf([0.5, 1.5])
    with pytest.raises(GradcheckError) as e:
        gradcheck(WrongSquare.apply, (x,))
    assert str(e.value) == MISMATCH
    assert isinstance(e.value, RuntimeError)
    assert gradcheck(WrongSquare.apply, (x,), raise_exception=False) is False


def test_fast_mode_mismatch_names_the_pair_and_recomputes_in_slow_mode():
    x = dleaf([0.5, 1.5])
    with pytest.raises(RuntimeError) as e:
        gradcheck(WrongSquare.apply, (x,), fast_mode=True)
    text = str(e.value)
    assert text.startswith("Jacobian mismatch for output 0 with respect to input 0,\nnumerical:")
    assert "Below, we recompute numerical and analytical jacobians in slow mode" in text
    assert "The max per-element difference (slow mode) is: 1.5" in text


def test_input_rules():
    with pytest.raises(ValueError, match=exact(
        "gradcheck expects at least one input tensor to require gradient, but none of them have "
        "requires_grad=True."
    )):
        gradcheck(torch.sin, (torch.ones(2, dtype=torch.float64),))
    expanded = torch.ones(1, dtype=torch.float64, requires_grad=True).expand(3)
    with pytest.raises(RuntimeError, match=exact(
        "The 0th input has a dimension with stride 0. gradcheck only supports inputs that are "
        "non-overlapping to be able to compute the numerical gradients correctly. You should call "
        ".contiguous on the input before passing it to gradcheck."
    )):
        gradcheck(torch.sin, (expanded,))
    with record_warnings() as caught:
        ok = gradcheck(torch.exp, (torch.tensor([0.5], requires_grad=True),), eps=1e-3, atol=1e-2)
    assert ok is True
    assert warning_texts(caught, UserWarning) == [
        "Input #0 requires gradient and is not a double precision floating point or complex. This "
        "check will likely fail if all the inputs are not of double precision floating point or "
        "complex. "
    ]


def test_complex_inputs_and_outputs():
    z = torch.tensor([1 + 2j, 3 - 1j], dtype=torch.complex128, requires_grad=True)
    assert gradcheck(lambda a: a * a, (z,))
    assert gradcheck(lambda a: (a * a.conj()).real, (z,))
    assert gradcheck(lambda a: a.abs(), (z,), fast_mode=True)
    assert gradcheck(lambda a: a * a.exp(), (z,), fast_mode=True)
    assert gradgradcheck(lambda a: a * a, (z,))


def test_function_without_differentiable_outputs():
    x = dleaf([0.5, 1.5])
    with pytest.raises(RuntimeError, match=exact("Numerical gradient for function expected to be zero")):
        gradcheck(lambda a: a.detach() * 2, (x,))
    assert gradcheck(lambda a: a.detach().floor(), (dleaf([0.5, 1.5]),))


def test_backward_must_scale_with_grad_output():
    class IgnoresGrad(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return (x ** 2).sum()

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x

    with pytest.raises(RuntimeError, match=exact("backward not multiplied by grad_output")):
        gradcheck(IgnoresGrad.apply, (dleaf([0.5, 1.5]),))


def test_gradgradcheck_finds_a_wrong_second_derivative():
    class WrongSecond(torch.autograd.Function):
        """sin with the derivative written as cos(x) treated as a constant (no second order)."""

        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.sin()

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * x.detach().cos()

    x = dleaf([0.5, 1.5])
    assert gradcheck(WrongSecond.apply, (x,))
    assert gradgradcheck(WrongSecond.apply, (x,), raise_exception=False) is False


def test_once_differentiable_backward_refuses_gradgradcheck():
    class Square(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 2

        @staticmethod
        @once_differentiable
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g

    x = dleaf([0.5, 1.5])
    assert gradcheck(Square.apply, (x,))
    # the gradient is computed without a graph: its own analytical Jacobian is zero
    with pytest.raises(GradcheckError) as e:
        gradgradcheck(Square.apply, (x,))
    assert str(e.value).startswith("Jacobian mismatch for output 0 with respect to input 0,")
    assert str(e.value).endswith("analytical:tensor([[0., 0.],\n        [0., 0.]], dtype=torch.float64)\n")


def test_nondeterministic_backward_is_reported():
    state = {"n": 0}

    class Flaky(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            state["n"] += 1
            return g * (2 + 1e-3 * (state["n"] % 2))

    with pytest.raises(RuntimeError) as e:
        gradcheck(Flaky.apply, (dleaf([0.5]),), atol=1e-2)
    assert str(e.value).startswith(
        "Backward is not reentrant, i.e., running backward with same input and grad_output "
        "multiple times gives different values, although analytical gradient matches numerical "
        "gradient.The tolerance for nondeterminism was 0.0."
    )
    assert gradcheck(Flaky.apply, (dleaf([0.5]),), atol=1e-2, nondet_tol=1e-2)


def test_output_shape_that_depends_on_values_is_refused():
    def fn(x):
        return torch.cat([x, x]) if bool((x >= 1).all()) else x

    a = dleaf([1.0])
    for fast in (False, True):
        with pytest.raises(AssertionError, match="return outputs with the same shape when inputs are perturbed"):
            gradcheck(fn, (a,), fast_mode=fast)


def test_backward_that_cannot_take_an_undefined_gradient_is_reported():
    def fn(x):
        def hook(g):
            if g is None:
                raise RuntimeError("x is undefined")

        y = x.clone()
        y.register_hook(hook)
        return y

    x = dleaf([1.0])
    for fast in (False, True):
        with record_warnings() as caught:
            with pytest.raises(RuntimeError, match="^Expected backward function to handle undefined output grads"):
                gradcheck(fn, (x,), fast_mode=fast)
        assert any(t.startswith("Backwards compatibility: New undefined gradient support checking feature")
                   for t in warning_texts(caught, UserWarning))
        with record_warnings():
            assert gradcheck(fn, (x,), raise_exception=False, fast_mode=fast) is False
    assert gradcheck(fn, (x,), check_undefined_grad=False)
