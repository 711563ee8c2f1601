"""addcmul, addcdiv, lerp and add/sub with alpha round as PyTorch's CPU kernels (which fuse the
multiply-add), and linspace is PyTorch's kernel value for value: the hashes of their values were
recorded from torch 2.15 for inputs drawn from torch.manual_seed(0) (which leafgrad reproduces)."""
import math

import pytest

import leafgrad as torch

EXPR = ["x.addcmul(y, z, value=0.37)", "x.addcdiv(y, z, value=-1.3)", "x.lerp(y, 0.3)", "x.lerp(y, 0.77)",
        "x.lerp(y, z.sub(0.5))", "x.add(y, alpha=0.1)", "x.sub(y, alpha=2.7)", "torch.add(x, y, alpha=-0.01)"]
FUSED_HASHES = {'float32': [4124332698735123107, -656590250150125352, -3000853033307584911, 4844709532210514603, 8722810527877863118, -3928069596092302485, 8164446433739366905, 1487361275991677662], 'float64': [-4626465566497592150, -8562555783450491005, 6007165906184943656, -4226621037409067444, -6808868219077744443, 75593871417851503, 1692209949324958763, -9204918657349157191]}
LINSPACE_HASHES = {'float32': [2177544731959340351, 4460219778012252163, 2059122609868876585, 1876641492331881308], 'float64': [7862149650560593328, -5861712657526277703, 3848457892116279957, 3096086349374958392], 'int64': [-7680718066762752827, 8363268808772425503, -5043159077517151440, 2998387700239546459]}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_fused_values_are_pytorchs_bit_for_bit(dtype):
    torch.manual_seed(0)
    a, b, c = torch.randn(40), torch.randn(40), torch.rand(40) + 0.5
    x, y, z = (t.to(getattr(torch, dtype)) for t in (a, b, c))
    env = {"x": x, "y": y, "z": z, "torch": torch}
    assert [hash(tuple(eval(e, env).tolist())) for e in EXPR] == FUSED_HASHES[dtype]


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
def test_linspace_is_pytorchs_bit_for_bit(dtype):
    got = [hash(tuple(torch.linspace(s, e, n, dtype=getattr(torch, dtype)).tolist()))
           for (s, e, n) in [(-math.pi, math.pi, 2000), (0, 2 * math.pi, 25), (-3, 7, 5000), (-10, 10, 1001)]]
    assert got == LINSPACE_HASHES[dtype]


def test_nodes_gradients_and_integers():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    e = torch.tensor([3.0, 5.0], requires_grad=True)
    w = torch.tensor([0.2, 0.7], requires_grad=True)
    cases = [
        (lambda: torch.lerp(x, e, 0.3), "LerpBackward0", [[0.7, 0.7], [0.3, 0.3], None]),
        (lambda: torch.lerp(x, e, w), "LerpBackward1", [[0.8, 0.3], [0.2, 0.7], [2.0, 3.0]]),
        (lambda: torch.addcmul(x, e, w, value=2), "AddcmulBackward0", [[1.0, 1.0], [0.4, 1.4], [6.0, 10.0]]),
        (lambda: torch.addcdiv(x, e, w, value=-0.5), "AddcdivBackward0",
         [[1.0, 1.0], [-2.5, -0.714286], [37.499996, 5.102041]]),
    ]
    for f, node, grads in cases:
        y = f()
        got = torch.autograd.grad(y.sum(), [x, e, w], allow_unused=True)
        assert type(y.grad_fn).__name__ == node
        for g, want in zip(got, grads):
            assert (g is None) if want is None else g.tolist() == pytest.approx(want, abs=1e-6)
    r = torch.addcmul(torch.tensor([1, 2]), torch.tensor([3, 4]), torch.tensor([5, 6]), value=2)
    assert r.dtype == torch.int64 and r.tolist() == [31, 50]
    s = torch.tensor([1, 2]).add(torch.tensor([3, 4]), alpha=2)  # an int alpha keeps integers
    assert s.dtype == torch.int64 and s.tolist() == [7, 10]
    out = torch.empty(0)
    assert torch.lerp(torch.ones(2), torch.zeros(2), 0.25, out=out) is out and out.tolist() == [0.75, 0.75]
    m = torch.addcmul(torch.ones(2, 3), torch.tensor([1.0, 2.0, 3.0]), torch.tensor([[2.0], [3.0]]))
    assert m.tolist() == [[3.0, 5.0, 7.0], [4.0, 7.0, 10.0]]


@pytest.mark.parametrize("f, error, message", [
    (lambda: torch.ones(2).lerp(torch.ones(2).double(), 0.5), RuntimeError,
     "expected dtype float for `end` but got dtype double"),
    (lambda: torch.ones(2).lerp(torch.ones(2), torch.ones(2).double()), RuntimeError,
     "expected dtype float for `weight` but got dtype double"),
    (lambda: torch.tensor([1]).lerp(torch.tensor([1]), 0.5), NotImplementedError,
     "\"lerp_kernel_scalar\" not implemented for 'Long'"),
    (lambda: torch.ones(2).addcdiv(torch.tensor([1, 2]), torch.tensor([1, 2])), RuntimeError,
     "Integer division with addcdiv is no longer supported, and in a future  release addcdiv"),
])
def test_errors(f, error, message):
    with pytest.raises(error) as e:
        f()
    assert str(e.value).startswith(message)
