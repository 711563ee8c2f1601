"""Finite-difference checks of first and second derivatives (float64).

Each op is applied to small random float64 inputs (fixed numpy seed, tensors built with
torch.tensor(np_array)); the scalar L = sum(op(inputs) * W) with random weights W is
differentiated by autograd and by central differences (eps 1e-6), compared at tol 1e-5.
"""

import zlib

import leafgrad as torch
import leafgrad.nn.functional as F
import numpy as np
import pytest

EPS = 1e-6
TOL = 1e-5


def rng_for(name):
    return np.random.default_rng(zlib.crc32(name.encode()))


def make_array(rng, shape, kind):
    a = rng.uniform(-1.0, 1.0, size=shape)
    if kind == "pos":  # strictly positive, away from 0 (log, sqrt, pow bases, divisors)
        a = 0.5 + np.abs(a)
    elif kind == "away0":  # either sign, |a| >= 0.2 (abs, relu kinks)
        a = np.sign(a + 1e-12) * (0.2 + np.abs(a))
    elif kind == "inner":  # inside (-0.8, 0.8): away from the poles of erfinv at ±1
        a = 0.8 * a
    elif kind == "above1":  # in [1.2, 2.2]: acosh, away from its pole at 1
        a = 1.2 + np.abs(a)
    return np.asarray(a, dtype=np.float64)


def to_np(t):
    return np.array(t.detach().tolist(), dtype=np.float64)


def weighted_value(fn, arrays, weights):
    out = fn(*[torch.tensor(a) for a in arrays])
    return float(np.sum(to_np(out) * weights))


def numeric_grads(value_fn, arrays):
    grads = []
    for a in arrays:
        g = np.zeros_like(a)
        for idx in np.ndindex(a.shape):
            orig = a[idx]
            a[idx] = orig + EPS
            plus = value_fn(arrays)
            a[idx] = orig - EPS
            minus = value_fn(arrays)
            a[idx] = orig
            g[idx] = (plus - minus) / (2 * EPS)
        grads.append(g)
    return grads


def assert_close(analytic, numeric, what):
    assert analytic.shape == numeric.shape, what
    np.testing.assert_allclose(analytic, numeric, rtol=TOL, atol=TOL, err_msg=what)


def check_first_order(name, fn, specs):
    rng = rng_for(name)
    arrays = [make_array(rng, shape, kind) for shape, kind in specs]
    inputs = [torch.tensor(a.copy(), requires_grad=True) for a in arrays]
    out = fn(*inputs)
    assert out.dtype == torch.float64
    assert out.requires_grad and not out.is_leaf
    weights = make_array(rng, tuple(out.shape), "any")
    loss = (out * torch.tensor(weights)).sum()
    analytic = torch.autograd.grad(loss, inputs)
    numeric = numeric_grads(lambda arrs: weighted_value(fn, arrs, weights), arrays)
    for i, (ga, gn) in enumerate(zip(analytic, numeric)):
        assert ga.dtype == torch.float64
        assert tuple(ga.shape) == arrays[i].shape
        assert_close(to_np(ga), gn, f"{name}: input {i}")


A = "any"
P = "pos"
Z = "away0"

FIRST_ORDER = {
    # arithmetic with tensors (broadcasting (3,1) x (1,4)) and Python scalars on both sides
    "add": (lambda a, b: a + b, [((3, 1), A), ((1, 4), A)]),
    "sub": (lambda a, b: a - b, [((3, 1), A), ((1, 4), A)]),
    "mul": (lambda a, b: a * b, [((3, 1), A), ((1, 4), A)]),
    "div": (lambda a, b: a / b, [((3, 1), A), ((1, 4), P)]),
    "add_same_shape": (lambda a, b: a + b, [((2, 3), A), ((2, 3), A)]),
    "mul_vector_row": (lambda a, b: a * b, [((2, 3), A), ((3,), A)]),
    "div_scalar_tensor": (lambda a, b: a / b, [((2, 3), A), ((), P)]),
    "add_scalar_right": (lambda a: a + 2.5, [((3,), A)]),
    "add_scalar_left": (lambda a: 2.5 + a, [((3,), A)]),
    "sub_scalar_right": (lambda a: a - 1.5, [((3,), A)]),
    "sub_scalar_left": (lambda a: 1.5 - a, [((3,), A)]),
    "mul_scalar_right": (lambda a: a * -3.0, [((3,), A)]),
    "mul_scalar_left": (lambda a: -3.0 * a, [((3,), A)]),
    "div_scalar_right": (lambda a: a / 4.0, [((3,), A)]),
    "div_scalar_left": (lambda a: 4.0 / a, [((3,), P)]),
    "neg": (lambda a: -a, [((2, 3), A)]),
    "neg_method": (lambda a: a.neg(), [((2, 3), A)]),
    # powers
    "pow_2": (lambda a: a**2, [((2, 3), A)]),
    "pow_3": (lambda a: a.pow(3), [((2, 3), A)]),
    "pow_half": (lambda a: a**0.5, [((2, 3), P)]),
    "pow_neg": (lambda a: a**-1.5, [((2, 3), P)]),
    "pow_tensor_tensor": (lambda a, b: a**b, [((2, 3), P), ((2, 3), A)]),
    "pow_tensor_tensor_bcast": (lambda a, b: a**b, [((3, 1), P), ((1, 4), A)]),
    "rpow_scalar": (lambda a: 2.0**a, [((2, 3), A)]),
    # unary elementwise (the declared float functions are op_db.py rows, checked by test_op_db.py)
    "relu": (lambda a: a.relu(), [((2, 3), Z)]),
    "F.relu": (lambda a: F.relu(a), [((2, 3), Z)]),
    "torch.relu": (lambda a: torch.relu(a), [((2, 3), Z)]),
    "abs": (lambda a: a.abs(), [((2, 3), Z)]),
    "torch.abs": (lambda a: torch.abs(a), [((2, 3), Z)]),
    # reductions
    "sum": (lambda a: a.sum(), [((2, 3), A)]),
    "sum_dim0": (lambda a: a.sum(0), [((2, 3), A)]),
    "sum_dim_neg": (lambda a: a.sum(-1), [((2, 3, 2), A)]),
    "sum_keepdim": (lambda a: a.sum(1, keepdim=True), [((2, 3), A)]),
    "torch.sum_dim": (lambda a: torch.sum(a, dim=1), [((2, 3), A)]),
    "mean": (lambda a: a.mean(), [((2, 3), A)]),
    "mean_dim": (lambda a: a.mean(1), [((2, 3), A)]),
    "mean_keepdim": (lambda a: a.mean(0, keepdim=True), [((2, 3), A)]),
    "torch.mean_dim": (lambda a: torch.mean(a, dim=-1), [((2, 3, 2), A)]),
    # matrix products
    "dot_1d_1d": (lambda a, b: a @ b, [((4,), A), ((4,), A)]),
    "mv_2d_1d": (lambda a, b: a @ b, [((3, 4), A), ((4,), A)]),
    "vm_1d_2d": (lambda a, b: a @ b, [((3,), A), ((3, 4), A)]),
    "mm_2d_2d": (lambda a, b: a @ b, [((2, 3), A), ((3, 4), A)]),
    "matmul_fn": (lambda a, b: torch.matmul(a, b), [((2, 3), A), ((3, 4), A)]),
    "mm_fn": (lambda a, b: torch.mm(a, b), [((2, 3), A), ((3, 4), A)]),
    "mm_method": (lambda a, b: a.mm(b), [((2, 3), A), ((3, 4), A)]),
    "batched_3d_2d": (lambda a, b: a @ b, [((2, 3, 4), A), ((4, 2), A)]),
    "batched_3d_3d": (lambda a, b: a @ b, [((2, 3, 4), A), ((2, 4, 2), A)]),
    "batched_bcast_left": (lambda a, b: a @ b, [((1, 3, 4), A), ((2, 4, 2), A)]),
    "batched_bcast_right": (lambda a, b: a @ b, [((2, 3, 4), A), ((1, 4, 2), A)]),
    "batched_bcast_4d": (lambda a, b: a @ b, [((2, 1, 2, 3), A), ((3, 3, 2), A)]),
    # movement
    "t": (lambda a: a.t(), [((2, 3), A)]),
    "T": (lambda a: a.T, [((2, 3), A)]),
    "transpose": (lambda a: a.transpose(0, 2), [((2, 3, 4), A)]),
    "permute": (lambda a: a.permute(2, 0, 1), [((2, 3, 4), A)]),
    "reshape": (lambda a: a.reshape(3, 2), [((2, 3), A)]),
    "reshape_noncontig": (lambda a: a.t().reshape(6), [((2, 3), A)]),
    "view": (lambda a: a.view(6), [((2, 3), A)]),
    "view_infer": (lambda a: a.view(-1, 2), [((2, 3, 2), A)]),
    "unsqueeze": (lambda a: a.unsqueeze(1), [((2, 3), A)]),
    "squeeze": (lambda a: a.squeeze(), [((2, 1, 3), A)]),
    "squeeze_dim": (lambda a: a.squeeze(1), [((2, 1, 3), A)]),
    "expand": (lambda a: a.expand(3, 4), [((3, 1), A)]),
    "expand_new_dim": (lambda a: a.expand(2, 3), [((3,), A)]),
    # indexing
    "index_0": (lambda a: a[0], [((3, 4), A)]),
    "index_col": (lambda a: a[:, 1], [((3, 4), A)]),
    "slice_rows": (lambda a: a[1:3], [((4, 3), A)]),
    "index_none": (lambda a: a[None], [((3, 4), A)]),
    "index_ellipsis": (lambda a: a[..., 0], [((2, 3, 4), A)]),
    "index_scalar": (lambda a: a[1, 2], [((3, 4), A)]),
    # conversions and copies
    "to_copy_float64": (lambda a: a.to(torch.float64, copy=True), [((2, 3), A)]),
    "clone": (lambda a: a.clone(), [((2, 3), A)]),
    # losses
    "mse_loss": (lambda a, b: F.mse_loss(a, b), [((2, 3), A), ((2, 3), A)]),
    "mse_loss_sum": (
        lambda a, b: F.mse_loss(a, b, reduction="sum"),
        [((2, 3), A), ((2, 3), A)],
    ),
    "mse_loss_none": (
        lambda a, b: F.mse_loss(a, b, reduction="none"),
        [((2, 3), A), ((2, 3), A)],
    ),
    "l1_loss": (lambda a, b: F.l1_loss(a, b + 3.0), [((2, 3), A), ((2, 3), A)]),
    "l1_loss_sum": (
        lambda a, b: F.l1_loss(a, b + 3.0, reduction="sum"),
        [((2, 3), A), ((2, 3), A)],
    ),
    # a small composite graph with fan-out
    "composite": (
        lambda a, b: ((a @ b).tanh() * a.sum(1, keepdim=True)).exp().mean(0),
        [((2, 3), A), ((3, 2), A)],
    ),
}


@pytest.mark.parametrize("name", list(FIRST_ORDER))
def test_first_derivative(name):
    fn, specs = FIRST_ORDER[name]
    check_first_order(name, fn, specs)


@pytest.mark.parametrize(
    "convert, src, dst",
    [
        (lambda t: t.double(), np.float32, "float64"),
        (lambda t: t.to(torch.float64), np.float32, "float64"),
        (lambda t: t.to(torch.float32), np.float64, "float32"),
    ],
    ids=["double", "to_float64", "to_float32"],
)
def test_dtype_conversion_gradient_is_identity_in_leaf_dtype(convert, src, dst):
    a = np.array([[0.5, -1.25], [2.0, 0.75]], dtype=src)
    x = torch.tensor(a, requires_grad=True)
    y = convert(x)
    assert y.dtype == getattr(torch, dst)
    assert y.grad_fn.name() == "ToCopyBackward0"
    w = np.array([[1.5, -2.0], [0.25, 4.0]])
    (y * torch.tensor(w, dtype=y.dtype)).sum().backward()
    assert x.grad.dtype == x.dtype
    assert x.grad.tolist() == w.tolist()


SECOND_ORDER = {
    "mul_self": (lambda a: a * a, [((2, 3), A)]),
    "mul_pair": (lambda a, b: a * b * a, [((2, 3), A), ((2, 3), A)]),
    "pow_3": (lambda a: a**3, [((2, 3), A)]),
    "pow_tensor_tensor": (lambda a, b: a**b, [((2, 3), P), ((2, 3), A)]),
    "matmul_pair": (lambda a, b: a @ b, [((2, 3), A), ((3, 2), A)]),
    "matmul_square": (lambda a: a @ a, [((3, 3), A)]),
    "matmul_batched": (lambda a, b: (a @ b).tanh(), [((2, 2, 3), A), ((3, 2), A)]),
}


def first_grads(fn, inputs, weights, create_graph):
    out = fn(*inputs)
    loss = (out * torch.tensor(weights)).sum()
    return torch.autograd.grad(loss, inputs, create_graph=create_graph)


def check_second_order(name, fn, specs, seed):
    """Second derivatives through create_graph against central differences of the first ones
    (contracted with random vectors); returns the numeric second derivatives."""
    rng = rng_for(seed)
    arrays = [make_array(rng, shape, kind) for shape, kind in specs]
    inputs = [torch.tensor(a.copy(), requires_grad=True) for a in arrays]
    out_shape = tuple(fn(*[torch.tensor(a) for a in arrays]).shape)
    weights = make_array(rng, out_shape, A)
    vs = [make_array(rng, a.shape, A) for a in arrays]

    grads = first_grads(fn, inputs, weights, create_graph=True)
    assert all(g.requires_grad for g in grads)
    s = sum((g * torch.tensor(v)).sum() for g, v in zip(grads, vs))
    analytic = torch.autograd.grad(s, inputs, allow_unused=True)

    def contracted_first_grad(arrs):
        ts = [torch.tensor(a, requires_grad=True) for a in arrs]
        gs = first_grads(fn, ts, weights, create_graph=False)
        return float(sum(np.sum(to_np(g) * v) for g, v in zip(gs, vs)))

    numeric = numeric_grads(contracted_first_grad, arrays)
    for i, (ga, gn) in enumerate(zip(analytic, numeric)):
        ga = np.zeros_like(gn) if ga is None else to_np(ga)
        assert_close(ga, gn, f"{name}: second derivative, input {i}")
    return numeric


@pytest.mark.parametrize("name", list(SECOND_ORDER))
def test_second_derivative(name):
    fn, specs = SECOND_ORDER[name]
    numeric = check_second_order(name, fn, specs, "second:" + name)
    assert any(np.abs(gn).max() > 1e-3 for gn in numeric), (
        "second derivative is trivially zero"
    )
