"""Forward-mode AD (`torch.autograd.forward_ad`): every op's Jacobian-vector product against
central differences, PyTorch's API and errors (texts recorded from PyTorch 2.15; the file also
runs against it with LEAFGRAD_TEST_TORCH=1), in-place writes and views, custom Functions' `jvp`,
gradcheck's `check_forward_ad` and `jacobian(strategy="forward-mode")`.

The op tables are the ones the backward checks use (test_gradcheck.py's FIRST_ORDER,
test_gradcheck_breadth.py's BREADTH, op_db's UNARY and BINARY): one new row there is checked
here too.
"""
import numpy as np
import pytest

import leafgrad as torch
import leafgrad.autograd.forward_ad as fwAD
from op_db import BINARY, UNARY
from support import USING_TORCH
from test_gradcheck import FIRST_ORDER, make_array, rng_for, to_np
from test_gradcheck_breadth import BREADTH

EPS = 1e-6
TOL = 1e-5

TABLE = {}
TABLE.update({f"first:{k}": v for k, v in FIRST_ORDER.items()})
TABLE.update({f"breadth:{k}": v for k, v in BREADTH.items()})
TABLE.update({f"op_db:{op.name}": (getattr(torch, op.name), [((3, 4), op.domain)]) for op in UNARY})
TABLE.update({
    f"op_db:{op.name}": (getattr(torch, op.name), [((3, 4), op.domains[0]), ((4,), op.domains[1])])
    for op in BINARY
})


def _outputs(out):
    outs = out if isinstance(out, (tuple, list)) else (out,)
    return [o for o in outs if isinstance(o, torch.Tensor) and (o.is_floating_point() or o.is_complex())]


def check_jvp(name, fn, specs):
    """fn's output tangents for a random tangent on every input, against the central difference
    of fn along those tangents."""
    rng = rng_for("fwad:" + name)
    arrays = [make_array(rng, shape, kind) for shape, kind in specs]
    tangents = [rng.uniform(-1.0, 1.0, size=a.shape) for a in arrays]
    with fwAD.dual_level():
        duals = [fwAD.make_dual(torch.tensor(a), torch.tensor(t)) for a, t in zip(arrays, tangents)]
        got = [fwAD.unpack_dual(o).tangent for o in _outputs(fn(*duals))]

    def at(sign):
        return [to_np(o) for o in _outputs(fn(*[torch.tensor(a + sign * EPS * t) for a, t in zip(arrays, tangents)]))]

    numeric = [(p - m) / (2 * EPS) for p, m in zip(at(1), at(-1))]
    assert len(got) == len(numeric), name
    for k, (g, n) in enumerate(zip(got, numeric)):
        assert g is not None, f"{name}: output {k} has no tangent"
        assert g.dtype == torch.float64, name
        np.testing.assert_allclose(to_np(g), n, rtol=TOL, atol=TOL, err_msg=f"{name}: output {k}")


@pytest.mark.parametrize("name", list(TABLE))
def test_jvp_matches_central_differences(name):
    fn, specs = TABLE[name]
    check_jvp(name, fn, specs)


def test_api_errors():
    x = torch.tensor([1.0, 2.0, 3.0])
    with pytest.raises(RuntimeError, match="no level exists, make sure to enter_dual_level"):
        fwAD.make_dual(x, torch.ones(3))
    assert fwAD.unpack_dual(x) == (x, None)
    with fwAD.dual_level() as level:
        assert level == 0
        with pytest.raises(RuntimeError, match="^Nested forward mode AD is not supported at the moment$"):
            with fwAD.dual_level():
                pass
        with pytest.raises(RuntimeError) as e:
            fwAD.make_dual(x, torch.ones(2))
        assert str(e.value) == (
            "Trying to set a forward gradient that has a different size than that of the original "
            "Tensor, this is not supported. Tensor is of size [3] while the given forward gradient "
            "is of size [2]."
        )
        with pytest.raises(ValueError, match="^Expected tangent to be floating point or complex, but got: torch.int64$"):
            fwAD.make_dual(x, torch.ones(3, dtype=torch.int64))
        with pytest.raises(ValueError, match="^Expected primal to be floating point or complex, but got: torch.int64$"):
            fwAD.make_dual(torch.tensor([1, 2]), torch.tensor([1, 2]))
        d = fwAD.make_dual(x, torch.ones(3))
        with pytest.raises(RuntimeError, match="^Making a dual Tensor based on a Tensor that already has a forward gradient at the same level 0 is not supported.$"):
            fwAD.make_dual(d, torch.ones(3))
        with pytest.raises(RuntimeError, match="Trying to exit a forward AD level that was not the last one"):
            fwAD.exit_dual_level(level=3)


def test_dual_tensors_and_their_repr():
    x = torch.tensor([1.0, 2.0, 3.0])
    t = torch.ones(3)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, t)
        assert d._base is x and d.is_leaf and not d.requires_grad
        assert repr(d) == "tensor([1., 2., 3.], tangent=tensor([1., 1., 1.]))"
        p, tangent = fwAD.unpack_dual(d)
        assert type(fwAD.unpack_dual(d)).__name__ == "UnpackedDualTensor"
        assert tangent is t  # the tangent as it was given (same layout)
        assert p._base is x and fwAD.unpack_dual(p).tangent is None
        y = d.sin() * 2
        assert repr(y) == "tensor([1.6829, 1.8186, 0.2822], tangent=tensor([ 1.0806, -0.8323, -1.9800]))"
        assert repr(fwAD.make_dual(torch.tensor(2.0), torch.tensor(5.0))) == "tensor(2., tangent=5.0)"
        assert repr(d.sum()) == "tensor(6., tangent=3.0)"
        strided = torch.ones(6)[::2]
        d2 = fwAD.make_dual(x, strided)
        assert fwAD.unpack_dual(d2).tangent is not strided  # copied into the primal's layout
        assert fwAD.unpack_dual(d2).tangent.stride() == (1,)
        with torch.no_grad():  # grad mode does not turn forward AD off
            z = d.exp()
        assert torch.allclose(fwAD.unpack_dual(z).tangent, x.exp())
        assert fwAD.unpack_dual(d.detach()).tangent is None
        assert fwAD.unpack_dual(torch.argmax(d)).tangent is None
        assert repr(d.double()) == (
            "tensor([1., 2., 3.], dtype=torch.float64,\n       tangent=tensor([1., 1., 1.], dtype=torch.float64))"
        )
    # leaving the level drops every tangent
    assert fwAD.unpack_dual(d).tangent is None and fwAD.unpack_dual(y).tangent is None
    assert repr(d) == "tensor([1., 2., 3.])"


def test_tangents_are_differentiable_when_the_primal_requires_grad():
    w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with fwAD.dual_level():
        d = fwAD.make_dual(w, torch.ones(3))
        assert type(d.grad_fn).__name__ == "ViewBackward0"
        q = (d * d).sum()
        tq = fwAD.unpack_dual(q).tangent
        assert tq.item() == 12.0 and tq.requires_grad
        tq.backward()  # d/dw of (2 w . 1)
    assert w.grad.tolist() == [2.0, 2.0, 2.0]


def test_inplace_writes_and_views():
    with fwAD.dual_level():
        base = torch.tensor([1.0, 2.0])
        t = torch.tensor([1.0, 1.0])
        d = fwAD.make_dual(base, t)
        d.mul_(3)
        # the tangent is updated in place, and the base of the dual gets none
        assert fwAD.unpack_dual(base).tangent is None and t.tolist() == [3.0, 3.0]
        v = d[1:]
        d.mul_(2)
        assert fwAD.unpack_dual(v).tangent.tolist() == [6.0]  # a view's tangent is a view
        b2 = torch.zeros(3)
        w = b2[1:]
        w.copy_(d)
        assert fwAD.unpack_dual(b2).tangent.tolist() == [0.0, 6.0, 6.0]
        assert fwAD.unpack_dual(w).tangent.tolist() == [6.0, 6.0]
        y = d.clone()
        y.mul_(2)
        assert t.tolist() == [6.0, 6.0] and fwAD.unpack_dual(y).tangent.tolist() == [12.0, 12.0]
        y2 = d.clone()
        y2[0] = 5.0
        assert fwAD.unpack_dual(y2).tangent.tolist() == [0.0, 6.0]
        a = torch.zeros(3)
        a.add_(fwAD.make_dual(torch.ones(3), torch.ones(3)))
        assert fwAD.unpack_dual(a).tangent.tolist() == [1.0, 1.0, 1.0]
        z = torch.zeros(2)
        z[0] = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 0.0]))[1]
        assert fwAD.unpack_dual(z).tangent.tolist() == [0.0, 0.0]


class _Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_forward(x)
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g

    @staticmethod
    def jvp(ctx, t):
        (x,) = ctx.saved_tensors
        return 2 * x * t


class _NoJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


class _WrongJvp(_Square):
    @staticmethod
    def jvp(ctx, t):
        (x,) = ctx.saved_tensors
        return 3 * x * t


def test_custom_function_jvp():
    x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    with fwAD.dual_level():
        d = fwAD.make_dual(x.detach(), torch.tensor([1.0, 0.5], dtype=torch.float64))
        y = _Square.apply(d)
        assert fwAD.unpack_dual(y).tangent.tolist() == [2.0, 2.0]
        with pytest.raises(NotImplementedError, match="You must implement the jvp function for custom autograd.Function to use it with forward mode AD."):
            _NoJvp.apply(d)
        # a Function given no dual input needs no jvp
        assert fwAD.unpack_dual(_NoJvp.apply(x.detach())).tangent is None
    assert torch.autograd.gradcheck(_Square.apply, (x,), check_forward_ad=True)
    with pytest.raises(RuntimeError, match="Jacobian computed with forward mode mismatch for output 0 with respect to input 0"):
        torch.autograd.gradcheck(_WrongJvp.apply, (x,), check_forward_ad=True, check_backward_ad=False)


def test_gradcheck_check_forward_ad():
    x = torch.tensor([0.3, -1.2, 2.0], dtype=torch.float64, requires_grad=True)
    y = torch.tensor([1.5, 0.7, -0.4], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda a, b: (a * b.exp(), a.sin()), (x, y), check_forward_ad=True)
    assert torch.autograd.gradcheck(lambda a: a.softmax(0), (x,), check_forward_ad=True, check_backward_ad=False)
    z = torch.tensor([0.5 + 1j, -1.0 + 0.25j], dtype=torch.complex128, requires_grad=True)
    assert torch.autograd.gradcheck(lambda c: c * c.conj().exp(), (z,), check_forward_ad=True)
    assert torch.autograd.gradcheck(lambda c: c.abs(), (z,), check_forward_ad=True)
    with pytest.raises(AssertionError, match="Expected at least one of check_forward_ad or check_backward_ad to be True"):
        torch.autograd.gradcheck(torch.sin, (x,), check_forward_ad=False, check_backward_ad=False)


def test_jacobian_and_hessian_in_forward_mode():
    F = torch.autograd.functional

    def f(a, b):
        return (a * b.sin(), (a ** 2).sum() * b)

    inputs = (torch.tensor([0.5, 1.5], dtype=torch.float64), torch.tensor([2.0, -1.0, 0.25], dtype=torch.float64)[:2])
    forward = F.jacobian(f, inputs, vectorize=True, strategy="forward-mode")
    reverse = F.jacobian(f, inputs)
    for row_f, row_r in zip(forward, reverse):
        for a, b in zip(row_f, row_r):
            assert a.shape == b.shape
            assert torch.allclose(a, b)
    with pytest.raises(NotImplementedError, match="only implemented for `vectorize=True`"):
        F.jacobian(f, inputs, strategy="forward-mode")

    def g(a):
        return (a ** 3).sum() * a[0]

    x = torch.tensor([1.0, 2.0, -0.5], dtype=torch.float64)
    h_fwd = F.hessian(g, x, vectorize=True, outer_jacobian_strategy="forward-mode")
    assert torch.allclose(h_fwd, F.hessian(g, x))


@pytest.mark.skipif(USING_TORCH, reason="leafgrad's own statement of its mechanism")
def test_every_recorded_op_has_a_jvp_without_a_formula_of_its_own():
    # the tangent comes from the op's backward formula: an op that records a node has one
    with fwAD.dual_level():
        d = fwAD.make_dual(torch.tensor([[1.0, -2.0], [0.5, 3.0]]), torch.ones(2, 2))
        for out in (d.t().matmul(d), d.cumsum(0), d.flip(1), d.max(0).values, torch.nn.functional.gelu(d)):
            assert fwAD.unpack_dual(out).tangent is not None
