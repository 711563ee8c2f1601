"""`torch.func`: grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian, vmap and
functional_call, with values and structures as PyTorch 2.15 gives them (the file also runs
against it with LEAFGRAD_TEST_TORCH=1)."""
import pytest

import leafgrad as torch
from leafgrad.func import functional_call, grad, grad_and_value, hessian, jacfwd, jacrev, jvp, vjp, vmap

X = [1.0, 2.0, -0.5]


def close(a, b):
    return torch.allclose(a, torch.tensor(b, dtype=a.dtype), atol=1e-6)


def test_grad_and_its_options():
    x = torch.tensor(X)
    g = grad(lambda x: (x ** 3).sum())(x)
    assert close(g, [3.0, 12.0, 0.75]) and not g.requires_grad
    gx, gy = grad(lambda a, b: (a * b).sum(), argnums=(0, 1))(x, x * 2)
    assert close(gx, [2.0, 4.0, -1.0]) and close(gy, X)
    g, aux = grad(lambda x: ((x ** 2).sum(), x.mean()), has_aux=True)(x)
    assert close(g, [2.0, 4.0, -1.0]) and close(aux, 2.5 / 3)
    g, value = grad_and_value(lambda x: (x ** 2).sum())(x)
    assert close(g, [2.0, 4.0, -1.0]) and close(value, 5.25)
    g, (value, aux) = grad_and_value(lambda x: ((x ** 2).sum(), {"m": x.mean()}), has_aux=True)(x)
    assert close(aux["m"], 2.5 / 3) and close(value, 5.25)
    with pytest.raises(RuntimeError, match="Expected tensors, got unsupported type <class 'str'>"):
        grad(lambda x: ((x ** 2).sum(), "aux"), has_aux=True)(x)
    # a dict of parameters in, a dict of gradients out
    g = grad(lambda p: (p["w"] * p["b"]).sum())({"w": torch.tensor([1.0, 2.0]), "b": torch.tensor([3.0, 4.0])})
    assert set(g) == {"w", "b"} and close(g["w"], [3.0, 4.0]) and close(g["b"], [1.0, 2.0])
    # an output that does not depend on the input: zeros
    assert close(grad(lambda x: torch.tensor(3.0))(x), [0.0, 0.0, 0.0])


def test_grad_errors():
    x = torch.tensor(X)
    with pytest.raises(RuntimeError, match=r"Expected f\(\*args\) to return a scalar Tensor, got tensor with 1 dims"):
        grad(lambda x: x * 2)(x)
    with pytest.raises(RuntimeError, match=r"Expected f\(\*args\) to return a Tensor, got <class 'float'>"):
        grad(lambda x: 2.0)(x)


def test_nested_and_composed_with_autograd():
    x = torch.tensor(X)
    # second derivative of sum(x^3) summed: d/dx sum(3x^2) = 6x
    assert close(grad(lambda x: grad(lambda y: (y ** 3).sum())(x).sum())(x), [6.0, 12.0, -3.0])
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    g = grad(lambda x: (x * w).sum())(x[:2])
    assert close(g.detach(), [1.0, 2.0]) and g.requires_grad  # differentiable w.r.t. w
    g.sum().backward()
    assert close(w.grad, [1.0, 1.0])


def test_vjp_and_jvp():
    x = torch.tensor([0.0, 1.0])
    out, fn = vjp(torch.sin, x)
    assert close(out, [0.0, 0.841471]) and close(fn(torch.ones(2))[0], [1.0, 0.540302])
    (gx, gy) = vjp(lambda a, b: a * b, x, x + 1)[1](torch.ones(2))
    assert close(gx, [1.0, 2.0]) and close(gy, [0.0, 1.0])
    out, t = jvp(torch.sin, (x,), (torch.ones(2),))
    assert close(out, [0.0, 0.841471]) and close(t, [1.0, 0.540302])
    out, t = jvp(lambda a, b: a * b, (x, x + 1), (torch.ones(2), torch.zeros(2)))
    assert close(t, [1.0, 2.0])
    with pytest.raises(RuntimeError, match="Tensor is of size \\[2\\] while the given forward gradient is of size \\[3\\]"):
        jvp(torch.sin, (x,), (torch.ones(3),))


def test_jacobians_and_hessian():
    x = torch.tensor(X)
    expected = torch.diag(torch.cos(x))
    assert torch.allclose(jacrev(torch.sin)(x), expected)
    assert torch.allclose(jacfwd(torch.sin)(x), expected)
    ja, jb = jacrev(lambda a, b: a * b, argnums=(0, 1))(x, x)
    assert torch.allclose(ja, torch.diag(x)) and torch.allclose(jb, torch.diag(x))
    ja, jb = jacfwd(lambda a, b: a * b, argnums=(0, 1))(x, x)
    assert torch.allclose(ja, torch.diag(x)) and torch.allclose(jb, torch.diag(x))
    h = hessian(lambda x: (x ** 3).sum())(x)
    assert torch.allclose(h, torch.diag(6 * x))
    # forward over forward (a jvp inside a jvp)
    jj = jacfwd(jacfwd(lambda x: x ** 3))(x)
    assert jj.shape == (3, 3, 3) and torch.allclose(jj[1, 1, 1], torch.tensor(12.0))
    assert jacrev(lambda x: (x.sum(), x * 2))(x)[1].shape == (3, 3)


def test_vmap():
    a = torch.arange(6.0).view(2, 3)
    assert close(vmap(torch.dot)(torch.ones(2, 3), a), [3.0, 12.0])
    assert torch.equal(vmap(lambda v: v * 2, in_dims=1)(a), (a * 2).t())
    assert torch.equal(vmap(lambda v, k: v * k, in_dims=(0, None))(a, 3.0), a * 3)
    assert torch.equal(vmap(lambda v: v.sum(), out_dims=0)(a), a.sum(1))
    b = vmap(jacrev(torch.sin))(torch.tensor([[0.0, 1.0], [2.0, 3.0]]))
    assert b.shape == (2, 2, 2) and torch.allclose(b[1], torch.diag(torch.cos(torch.tensor([2.0, 3.0]))))
    # per-sample gradients, the tutorial's use
    w = torch.tensor([0.5, -1.0, 2.0])
    xs = torch.tensor([[1.0, 2.0, 3.0], [0.0, 1.0, -1.0]])
    per_sample = vmap(grad(lambda w, x: (w * x).sum() ** 2), in_dims=(None, 0))(w, xs)
    assert torch.allclose(per_sample, torch.stack([2 * (w * xs[i]).sum() * xs[i] for i in range(2)]))
    with pytest.raises(ValueError, match="Expected all tensors to have the same size in the mapped dimension"):
        vmap(torch.add)(torch.ones(2), torch.ones(3))


def test_functional_call():
    torch.manual_seed(0)
    lin = torch.nn.Linear(2, 1)
    params = {"weight": torch.tensor([[1.0, 2.0]]), "bias": torch.tensor([0.5])}
    out = functional_call(lin, params, (torch.tensor([[1.0, 1.0]]),))
    assert close(out, [[3.5]])
    assert not torch.equal(lin.weight.detach(), params["weight"])  # the module's own are back
    g = grad(lambda p, x: functional_call(lin, p, (x,)).sum())(params, torch.ones(3, 2))
    assert close(g["weight"], [[3.0, 3.0]]) and close(g["bias"], [3.0])
