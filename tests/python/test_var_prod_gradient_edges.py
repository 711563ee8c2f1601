"""Gradients of var/std and prod at their edges, in PyTorch's formulas (`var_backward`,
`std_backward`, `prod_backward`): no degrees of freedom, a correction larger than the count,
complex inputs, zeros beside infinities, and an expanded view whose window is regenerated.
Values recorded from torch 2.15; with LEAFGRAD_TEST_TORCH=1 the same tests run against it."""
import math
import warnings

import pytest

import leafgrad as torch

INF, NAN = math.inf, math.nan


def grad_of(x, f, **kw):
    x = x.clone().requires_grad_()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        getattr(x, f)(**kw).sum().backward()
    return x.grad


def same(got, want):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        g, w = complex(g), complex(w)
        for a, b in ((g.real, w.real), (g.imag, w.imag)):
            assert (math.isnan(a) and math.isnan(b)) or a == b, (got, want)


@pytest.mark.parametrize("f, kw, want", [
    # no dim: grad * (NaN where x is the mean, else +inf), whatever the sign of x - mean
    ("var", dict(correction=2), [INF, INF]),
    ("std", dict(correction=2), [NAN, NAN]),
    ("var", dict(correction=3), [INF, INF]),
    # a dim: (2 / (N - c)) * grad * (x - mean), negative when c > N
    ("var", dict(dim=0, correction=2), [-INF, INF]),
    ("var", dict(dim=0, correction=3), [2.0, -2.0]),
    ("std", dict(dim=0, correction=3), [0.0, -0.0]),
])
def test_var_and_std_without_degrees_of_freedom(f, kw, want):
    same(grad_of(torch.tensor([1.0, 3.0]), f, **kw).tolist(), want)


@pytest.mark.parametrize("f", ["var", "std"])
def test_complex_zero_dim_gradient_has_no_imaginary_nan(f):
    g = grad_of(torch.tensor(0.97 + 0.87j), f, dim=-1)
    same([g.item()], [complex(NAN, 0.0)])
    g = grad_of(torch.tensor([0.97 + 0.87j]), f, dim=-1)
    same(g.tolist(), [complex(NAN, NAN)])
    g = grad_of(torch.tensor([0.97 + 0.87j, 1j]), f, correction=2)
    same(g.tolist(), [complex(INF if f == "var" else NAN, 0.0)] * 2)


def test_prod_with_a_zero_takes_every_group_without_division():
    x = torch.tensor([[2.0, -INF], [-0.0, 3.0]], requires_grad=True)
    x.prod(1).sum().backward()
    # the first row has no zero but an infinity: the product of the others, not inf / inf
    same(x.grad.flatten().tolist(), [-INF, 2.0, 3.0, -0.0])
    y = torch.tensor([2.0, 0.0, 0.0], requires_grad=True)
    (g,) = torch.autograd.grad(y.prod(), y, create_graph=True)
    same(g.tolist(), [0.0, 0.0, 0.0])
    (gg,) = torch.autograd.grad(g.sum(), y)
    same(gg.tolist(), [0.0, 2.0, 2.0])


def test_expanded_view_of_a_leaf_regenerated_after_a_version_bump():
    x = torch.tensor([1.5, 0.5], dtype=torch.float64, requires_grad=True)
    e = x.expand(2, -1)
    alias = x.narrow(0, 1, 0).detach()
    alias.sigmoid_()  # bumps the shared version: e's window is regenerated
    e.backward(torch.ones(2, 2), inputs=[x])
    assert x.grad.tolist() == [2.0, 2.0]
