"""Every row of op_db.py through every check. See op_db.py for the table."""
import leafgrad as torch
import numpy as np
import pytest
from op_db import BINARY, EDGES, PAIRS, RECORDED, RECORDED_BINARY, UNARY
from support import USING_TORCH
from test_gradcheck import check_first_order, check_second_order, make_array, rng_for

IDS = [op.name for op in UNARY]
BIDS = [op.name for op in BINARY]
CUDA = torch.cuda.is_available()


def samples(op, dtype=np.float64, shape=(3, 4)):
    a = make_array(rng_for("op_db:" + op.name), shape, op.domain)
    if np.dtype(dtype).kind == "c":
        b = make_array(rng_for("op_db:im:" + op.name), shape, "any")
        return (a + 0.5j * b).astype(dtype)
    return a.astype(dtype)


def values(t):
    return np.array(t.detach().cpu().tolist())


def same_floats(got, expected, rtol, what):
    """Equal to `rtol`, with NaN where expected has NaN and infinities and zeros of the same sign."""
    got, expected = np.asarray(got, dtype=np.float64), np.asarray(expected, dtype=np.float64)
    assert np.array_equal(np.isnan(got), np.isnan(expected)), (what, got, expected)
    special = np.isinf(expected) | (expected == 0)
    assert np.array_equal(got[special], expected[special]), (what, got, expected)
    assert np.array_equal(np.signbit(got[special]), np.signbit(expected[special])), (what, got, expected)
    finite = np.isfinite(expected) & ~special
    np.testing.assert_allclose(got[finite], expected[finite], rtol=rtol, atol=0, err_msg=what)


@pytest.mark.parametrize("op", UNARY, ids=IDS)
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_values_match_numpy(op, dtype):
    if dtype.startswith("complex") and not op.complex:
        pytest.skip("real only")
    a = samples(op, dtype)
    got = getattr(torch, op.name)(torch.tensor(a))
    assert got.dtype == getattr(torch, dtype)
    rtol = op.rtol32 if dtype in ("float32", "complex64") else 1e-12
    expected = op.ref(a.astype(np.complex128 if dtype.startswith("complex") else np.float64))
    np.testing.assert_allclose(values(got), expected, rtol=rtol, atol=rtol * 1e-2)


@pytest.mark.parametrize("op", UNARY, ids=IDS)
def test_integer_and_half_inputs(op):
    # integers and bools compute in the default float dtype; halves in float32, rounded once
    ints = torch.tensor([1, 2, 3])
    r = getattr(torch, op.name)(ints)
    assert r.dtype == torch.float32
    np.testing.assert_array_equal(values(r), values(getattr(torch, op.name)(ints.float())))  # NaN = NaN
    assert getattr(torch, op.name)(torch.tensor([True, False])).dtype == torch.float32
    for half, ulp in ((torch.float16, 2.0**-10), (torch.bfloat16, 2.0**-7)):
        x = torch.tensor(samples(op, shape=(5,))).to(half)
        r = getattr(torch, op.name)(x)
        assert r.dtype == half
        wide = getattr(torch, op.name)(x.float()).to(half)
        # leafgrad rounds once; PyTorch's scalar loop (a tensor's last elements, short of a
        # vector) computes some ops in half steps (rsqrt: sqrt, then 1/), one ulp apart
        np.testing.assert_allclose(values(r), values(wide), rtol=ulp, atol=0)
        if not USING_TORCH:
            assert values(r).tolist() == values(wide).tolist()


@pytest.mark.parametrize("op", UNARY, ids=IDS)
def test_edges_match_recorded_pytorch(op):
    node, expected, expected_grad = RECORDED[op.name]
    x = torch.tensor(EDGES, dtype=torch.float64, requires_grad=True)
    y = getattr(torch, op.name)(x)
    assert y.grad_fn.name() == node
    y.sum().backward()
    same_floats(values(y), expected, 1e-14, f"{op.name} values")
    same_floats(values(x.grad), expected_grad, 1e-14, f"{op.name} gradient")


@pytest.mark.parametrize("op", UNARY, ids=IDS)
def test_first_derivative(op):
    check_first_order("op_db:" + op.name, getattr(torch, op.name), [((3, 4), op.domain)])


@pytest.mark.parametrize("op", UNARY, ids=IDS)
def test_second_derivative(op):
    # the formula is written with ops: create_graph differentiates it again
    check_second_order(op.name, getattr(torch, op.name), [((2, 3), op.domain)], "op_db:second:" + op.name)


@pytest.mark.parametrize("op", UNARY, ids=IDS)
def test_inplace_form(op):
    a = samples(op)
    x = torch.tensor(a)
    y = x.clone()
    r = getattr(y, op.name + "_")()
    assert r is y and y._version == 1
    assert values(y).tolist() == values(getattr(torch, op.name)(x)).tolist()
    # in place on a non-leaf records the op's node; on a leaf that requires grad it is refused
    leaf = torch.tensor(a, requires_grad=True)
    z = leaf * 1
    getattr(z, op.name + "_")()
    assert z.grad_fn.name() == RECORDED[op.name][0]
    z.sum().backward()
    other = torch.tensor(a, requires_grad=True)
    getattr(torch, op.name)(other * 1).sum().backward()
    assert values(leaf.grad).tolist() == values(other.grad).tolist()
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place operation"):
        getattr(leaf, op.name + "_")()
    # integer tensors cannot hold the float result
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        getattr(torch.tensor([1, 2]), op.name + "_")()


@pytest.mark.parametrize("op", UNARY, ids=IDS)
def test_rejects_non_tensor(op):
    with pytest.raises(TypeError, match=rf"{op.name}\(\): argument 'input' \(position 1\) must be Tensor, not float"):
        getattr(torch, op.name)(1.0)


@pytest.mark.skipif(not CUDA, reason="needs CUDA (or LEAFGRAD_CUDA_EMULATION=1)")
@pytest.mark.parametrize("op", UNARY, ids=IDS)
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128", "float16"])
def test_cuda_matches_cpu(op, dtype):
    if dtype.startswith("complex") and not op.complex:
        pytest.skip("real only")
    a = samples(op, np.complex128 if dtype.startswith("complex") else np.float64)
    cpu = torch.tensor(a).to(getattr(torch, dtype)).requires_grad_(dtype != "float16")
    dev = cpu.detach().cuda().requires_grad_(cpu.requires_grad)
    rc, rd = getattr(torch, op.name)(cpu), getattr(torch, op.name)(dev.t().t())
    assert rd.device.type == "cuda" and rd.dtype == rc.dtype
    tol = 1e-3 if dtype == "float16" else (1e-5 if dtype in ("float32", "complex64") else 1e-12)
    np.testing.assert_allclose(values(rd), values(rc), rtol=tol, atol=tol)
    if cpu.requires_grad:
        (gc,) = torch.autograd.grad(rc.abs().sum() if rc.is_complex() else rc.sum(), [cpu])
        (gd,) = torch.autograd.grad(rd.abs().sum() if rd.is_complex() else rd.sum(), [dev])
        np.testing.assert_allclose(values(gd), values(gc), rtol=tol, atol=tol)


def _torch():
    """Real PyTorch beside leafgrad, when it is installed in the running interpreter."""
    if USING_TORCH:
        return None
    try:
        import importlib

        t = importlib.import_module("torch")
    except ImportError:
        return None
    return None if t is torch else t


@pytest.mark.parametrize("op", UNARY, ids=IDS)
def test_recorded_values_are_pytorchs(op):
    pt = _torch()
    if pt is None:
        pytest.skip("torch is not installed here")
    x = pt.tensor(EDGES, dtype=pt.float64, requires_grad=True)
    y = getattr(pt, op.name)(x)
    y.sum().backward()
    node, expected, expected_grad = RECORDED[op.name]
    assert type(y.grad_fn).__name__ == node
    # Bit for bit under the version the values were recorded from; another version (or its
    # build on another processor) may differ in the last bit of a few functions (an H200
    # machine's PyTorch 2.11 did for sqrt, tanh and log10).
    exact = pt.__version__.startswith("2.15")
    same_floats(y.detach().numpy(), expected, 0 if exact else 1e-15, op.name)
    same_floats(x.grad.numpy(), expected_grad, 0 if exact else 1e-15, op.name)
    for dtype in ("float32", "float64", "complex64", "complex128"):
        if dtype.startswith("complex") and not op.complex:
            continue
        a = samples(op, dtype)
        mine = values(getattr(torch, op.name)(torch.tensor(a)))
        theirs = getattr(pt, op.name)(pt.tensor(a)).numpy()
        tol = 2e-6 if dtype in ("float32", "complex64") else 1e-13
        np.testing.assert_allclose(mine, theirs, rtol=tol, atol=tol * 1e-2, err_msg=f"{op.name} {dtype}")


# ---- float functions of two tensors ------------------------------------------------------------


def pair(op, dtype=np.float64, shapes=((3, 4), (4,))):
    """Sample operands that broadcast: (3, 4) with (4,)."""
    rng = rng_for("op_db:" + op.name)
    return [make_array(rng, shape, kind).astype(dtype) for shape, kind in zip(shapes, op.domains)]


@pytest.mark.parametrize("op", BINARY, ids=BIDS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_binary_values_match_numpy(op, dtype):
    a, b = pair(op, dtype)
    got = getattr(torch, op.name)(torch.tensor(a), torch.tensor(b))
    assert got.dtype == getattr(torch, dtype) and tuple(got.shape) == (3, 4)
    rtol = op.rtol32 if dtype == "float32" else 1e-12
    np.testing.assert_allclose(values(got), op.ref(a.astype(np.float64), b.astype(np.float64)), rtol=rtol, atol=rtol * 1e-2)
    # the method, either operand order, and a 0-d operand (which does not widen the dtype)
    t = torch.tensor(a)
    assert values(getattr(t, op.name)(torch.tensor(b))).tolist() == values(got).tolist()
    zero_d = getattr(torch, op.name)(t, torch.tensor(0.5, dtype=torch.float64))
    assert zero_d.dtype == getattr(torch, dtype)


@pytest.mark.parametrize("op", BINARY, ids=BIDS)
def test_binary_dtypes(op):
    f32, f64 = torch.tensor([1.5, 2.0]), torch.tensor([0.5, 3.0], dtype=torch.float64)
    assert getattr(torch, op.name)(f32, f64).dtype == torch.float64
    assert getattr(torch, op.name)(f32, torch.tensor([1, 2])).dtype == torch.float32
    ints = [
        (torch.tensor([1, 2]), torch.tensor([3, 4]), "Long"),
        (torch.tensor([True]), torch.tensor([False]), "Bool"),
    ]
    refused = [] if op.ints else ints
    if op.ints:  # computed in float32, as the same values given as floats
        for a, b, _ in ints:
            r = getattr(torch, op.name)(a, b)
            assert r.dtype == torch.float32
            assert r.tolist() == getattr(torch, op.name)(a.float(), b.float()).tolist()
        r = getattr(torch, op.name)(torch.tensor([1], dtype=torch.uint8), f64)
        assert r.dtype == torch.float64
    if not op.torch_complex or not USING_TORCH:
        # (PyTorch computes logaddexp of complex tensors; leafgrad does not yet: differences.md)
        refused.append((torch.tensor([1 + 1j]), torch.tensor([2 + 0j]), "ComplexFloat"))
    for a, b, name in refused:
        with pytest.raises(NotImplementedError, match=f'"{op.name}_cpu" not implemented for \'{name}\''):
            getattr(torch, op.name)(a, b)
    for half in (torch.float16, torch.bfloat16):
        x, y = f32.to(half), torch.tensor([0.25, -1.0]).to(half)
        r = getattr(torch, op.name)(x, y)
        assert r.dtype == half
        expect = values(getattr(torch, op.name)(x.float(), y.float()).to(half))
        assert [repr(v) for v in values(r).tolist()] == [repr(v) for v in expect.tolist()]  # NaN too
    with pytest.raises(RuntimeError, match="The size of tensor a \\(2\\) must match the size of tensor b \\(3\\)"):
        getattr(torch, op.name)(f32, torch.ones(3))


@pytest.mark.parametrize("op", BINARY, ids=BIDS)
def test_binary_rejects_numbers(op):
    t = torch.tensor([1.0])
    if op.numbers:
        pytest.skip("PyTorch takes a number on either side (test_binary_numbers)")
    with pytest.raises(TypeError, match=rf"{op.name}\(\): argument 'other' \(position 2\) must be Tensor, not float"):
        getattr(torch, op.name)(t, 2.0)
    with pytest.raises(TypeError, match=rf"{op.name}\(\): argument 'input' \(position 1\) must be Tensor, not int"):
        getattr(torch, op.name)(2, t)
    with pytest.raises(TypeError, match=rf"{op.name}\(\): argument 'other' \(position 1\) must be Tensor, not float"):
        getattr(t, op.name)(2.0)


@pytest.mark.parametrize("op", [op for op in BINARY if op.numbers], ids=lambda op: op.name)
def test_binary_numbers(op):
    """PyTorch's Scalar overloads: a Python number on either side, each with its own node, as
    a 0-d operand that does not promote (an int tensor and a float number give float32)."""
    f = getattr(torch, op.name)
    t = torch.tensor([1.5, 2.5], requires_grad=True)
    num_self, num_other = op.numbers
    for y, node, expect in [(f(2.0, t), num_self, f(torch.tensor([2.0, 2.0]), t.detach())),
                            (f(t, 3.0), num_other, f(t.detach(), torch.tensor([3.0, 3.0]))),
                            (getattr(t, op.name)(3.0), num_other, f(t.detach(), torch.tensor([3.0, 3.0])))]:
        assert type(y.grad_fn).__name__ == node
        assert y.tolist() == expect.tolist()
        (g,) = torch.autograd.grad(y.sum(), t)
        assert torch.isfinite(g).all()
    r = f(torch.tensor([1, 2]), 2.5)
    assert r.dtype == torch.float32 and r.grad_fn is None
    out = torch.empty(2)
    assert f(2, torch.tensor([1.0, 3.0]), out=out) is out and out.tolist() == f(torch.tensor([2.0, 2.0]), torch.tensor([1.0, 3.0])).tolist()
    with pytest.raises(TypeError, match=rf"^{op.name}\(\) received an invalid combination of arguments - got \(int, int\)"):
        f(2, 3)
    with pytest.raises(TypeError, match=rf"^{op.name}\(\) received an invalid combination of arguments - got \(str\)"):
        getattr(t, op.name)("a")


@pytest.mark.parametrize("op", BINARY, ids=BIDS)
def test_binary_edges_match_recorded_pytorch(op):
    node, expected, grad_a, grad_b = RECORDED_BINARY[op.name]
    a = torch.tensor([p[0] for p in PAIRS], dtype=torch.float64, requires_grad=True)
    b = torch.tensor([p[1] for p in PAIRS], dtype=torch.float64, requires_grad=True)
    y = getattr(torch, op.name)(a, b)
    assert y.grad_fn.name() == node
    y.sum().backward()
    same_floats(values(y), expected, 1e-14, f"{op.name} values")
    same_floats(values(a.grad), grad_a, 1e-14, f"{op.name} gradient of input")
    same_floats(values(b.grad), grad_b, 1e-14, f"{op.name} gradient of other")


@pytest.mark.parametrize("op", BINARY, ids=BIDS)
def test_binary_derivatives(op):
    fn = getattr(torch, op.name)
    check_first_order("op_db:" + op.name, fn, [((3, 4), op.domains[0]), ((4,), op.domains[1])])
    # only the input that requires grad gets a gradient
    a, b = pair(op)
    x, y = torch.tensor(a, requires_grad=True), torch.tensor(b)
    fn(x, y).sum().backward()
    assert x.grad is not None and y.grad is None
    # second derivative of each input through create_graph, against central differences
    check_second_order(op.name, fn, [((2, 3), k) for k in op.domains], "op_db:second:" + op.name)


@pytest.mark.parametrize("op", BINARY, ids=BIDS)
def test_binary_inplace_form(op):
    a, b = pair(op)
    if not op.inplace:
        assert not hasattr(torch.tensor(a), op.name + "_")
        return
    x, other = torch.tensor(a), torch.tensor(b)
    y = x.clone()
    assert getattr(y, op.name + "_")(other) is y and y._version == 1
    assert values(y).tolist() == values(getattr(torch, op.name)(x, other)).tolist()
    leaf = torch.tensor(a, requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place operation"):
        getattr(leaf, op.name + "_")(other)
    z = leaf * 1
    getattr(z, op.name + "_")(other)
    assert z.grad_fn.name() == RECORDED_BINARY[op.name][0]
    with pytest.raises(RuntimeError, match="output with shape \\[4\\] doesn't match the broadcast shape \\[3, 4\\]"):
        getattr(torch.tensor(b), op.name + "_")(x)


@pytest.mark.skipif(not CUDA, reason="needs CUDA (or LEAFGRAD_CUDA_EMULATION=1)")
@pytest.mark.parametrize("op", BINARY, ids=BIDS)
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_binary_cuda_matches_cpu(op, dtype):
    a, b = pair(op)
    ca = torch.tensor(a).to(getattr(torch, dtype)).requires_grad_(dtype != "float16")
    cb = torch.tensor(b).to(getattr(torch, dtype))
    da = ca.detach().cuda().requires_grad_(ca.requires_grad)
    rc, rd = getattr(torch, op.name)(ca, cb), getattr(torch, op.name)(da.t().t(), cb.cuda())
    assert rd.device.type == "cuda" and rd.dtype == rc.dtype
    tol = 1e-3 if dtype == "float16" else (1e-5 if dtype == "float32" else 1e-12)
    np.testing.assert_allclose(values(rd), values(rc), rtol=tol, atol=tol)
    # a CPU 0-d operand travels as a scalar
    np.testing.assert_allclose(
        values(getattr(torch, op.name)(da.detach(), torch.tensor(0.75, dtype=ca.dtype))),
        values(getattr(torch, op.name)(ca.detach(), torch.tensor(0.75, dtype=ca.dtype))),
        rtol=tol,
        atol=tol,
    )
    if ca.requires_grad:
        (gc,) = torch.autograd.grad(rc.sum(), [ca])
        (gd,) = torch.autograd.grad(rd.sum(), [da])
        np.testing.assert_allclose(values(gd), values(gc), rtol=tol, atol=tol)
    ia, ib = torch.tensor([1, 2]).cuda(), torch.tensor([1, 2]).cuda()
    if op.ints:
        assert getattr(torch, op.name)(ia, ib).cpu().tolist() == getattr(torch, op.name)(ia.cpu(), ib.cpu()).tolist()
        return
    with pytest.raises(NotImplementedError, match=f'"{op.name}_cuda" not implemented for \'Long\''):
        getattr(torch, op.name)(ia, ib)


@pytest.mark.parametrize("op", BINARY, ids=BIDS)
def test_binary_recorded_values_are_pytorchs(op):
    pt = _torch()
    if pt is None:
        pytest.skip("torch is not installed here")
    a = pt.tensor([p[0] for p in PAIRS], dtype=pt.float64, requires_grad=True)
    b = pt.tensor([p[1] for p in PAIRS], dtype=pt.float64, requires_grad=True)
    y = getattr(pt, op.name)(a, b)
    y.sum().backward()
    node, expected, grad_a, grad_b = RECORDED_BINARY[op.name]
    assert type(y.grad_fn).__name__ == node
    same_floats(y.detach().numpy(), expected, 0, op.name)
    same_floats(a.grad.numpy(), grad_a, 0, op.name)
    same_floats(b.grad.numpy(), grad_b, 0, op.name)
    for dtype in ("float32", "float64"):
        x, w = pair(op, dtype)
        mine = values(getattr(torch, op.name)(torch.tensor(x), torch.tensor(w)))
        theirs = getattr(pt, op.name)(pt.tensor(x), pt.tensor(w)).numpy()
        tol = op.rtol32 if dtype == "float32" else 1e-13
        np.testing.assert_allclose(mine, theirs, rtol=tol, atol=tol * 1e-2, err_msg=f"{op.name} {dtype}")


@pytest.mark.parametrize("op", [o for o in UNARY if not o.complex], ids=[o.name for o in UNARY if not o.complex])
def test_complex_refused(op):
    # PyTorch's dispatch error (these are its "vml" CPU kernels)
    with pytest.raises(NotImplementedError, match=f"\"{op.name}_vml_cpu\" not implemented for 'ComplexFloat'"):
        getattr(torch, op.name)(torch.tensor([1 + 1j]))


# The rounding functions (ROUNDING in op_db.py).
from op_db import RECORDED_ROUNDING, ROUNDING, ROUNDING_EDGES  # noqa: E402

RIDS = [op.name for op in ROUNDING]


@pytest.mark.parametrize("op", ROUNDING, ids=RIDS)
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
def test_rounding_values_and_dtypes(op, dtype):
    a = np.concatenate([samples_rounding(op), np.array(ROUNDING_EDGES)])
    x = torch.tensor(a, dtype=torch.float64).to(getattr(torch, dtype))
    r = getattr(torch, op.name)(x)
    assert r.dtype == x.dtype
    # the rounded value of the stored (already rounded) input, exactly
    same_floats(values(r), op.ref(values(x)), 0, f"{op.name} {dtype}")


def samples_rounding(op):
    return make_array(rng_for("op_db:" + op.name), (40,), "any") * 7.0


@pytest.mark.parametrize("op", ROUNDING, ids=RIDS)
def test_rounding_edges_match_recorded_pytorch(op):
    node, expected, expected_grad = RECORDED_ROUNDING[op.name]
    x = torch.tensor(ROUNDING_EDGES, dtype=torch.float64, requires_grad=True)
    y = getattr(torch, op.name)(x)
    assert y.grad_fn.name() == node
    y.sum().backward()
    same_floats(values(y), expected, 0, f"{op.name} values")
    same_floats(values(x.grad), expected_grad, 0, f"{op.name} gradient")


@pytest.mark.parametrize("op", ROUNDING, ids=RIDS)
def test_rounding_of_integers_bools_and_complex(op):
    for dt in (torch.int64, torch.int32, torch.uint8):
        x = torch.tensor([3, 0, 7], dtype=dt)
        r = getattr(torch, op.name)(x)
        assert r.dtype == dt and values(r).tolist() == [3, 0, 7] and r.data_ptr() != x.data_ptr()
        y = x.clone()
        assert getattr(y, op.name + "_")() is y and values(y).tolist() == [3, 0, 7]
    with pytest.raises(NotImplementedError, match=f"^\"{op.name}_vml_cpu\" not implemented for 'Bool'$"):
        getattr(torch, op.name)(torch.tensor([True]))
    with pytest.raises(NotImplementedError, match="^" + __import__("re").escape(op.complex_error) + "$"):
        getattr(torch, op.name)(torch.tensor([1 + 1j]))


@pytest.mark.parametrize("op", ROUNDING, ids=RIDS)
def test_rounding_inplace_form_and_gradient(op):
    a = samples_rounding(op)
    y = torch.tensor(a)
    r = getattr(y, op.name + "_")()
    assert r is y and y._version == 1
    assert values(y).tolist() == op.ref(a).tolist()
    leaf = torch.tensor(a, requires_grad=True)
    z = leaf * 2
    getattr(z, op.name + "_")()
    assert z.grad_fn.name() == RECORDED_ROUNDING[op.name][0]
    z.sum().backward()
    assert values(leaf.grad).tolist() == [0.0] * len(a)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place operation"):
        getattr(leaf, op.name + "_")()
    with pytest.raises(TypeError, match=rf"{op.name}\(\): argument 'input' \(position 1\) must be Tensor, not float"):
        getattr(torch, op.name)(1.5)


@pytest.mark.skipif(not CUDA, reason="needs CUDA (or LEAFGRAD_CUDA_EMULATION=1)")
@pytest.mark.parametrize("op", ROUNDING, ids=RIDS)
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int64"])
def test_rounding_cuda_matches_cpu(op, dtype):
    a = np.concatenate([samples_rounding(op), np.array(ROUNDING_EDGES[:-4])])
    cpu = torch.tensor(a).to(getattr(torch, dtype))
    rc, rd = getattr(torch, op.name)(cpu), getattr(torch, op.name)(cpu.cuda().t())
    assert rd.device.type == "cuda" and rd.dtype == rc.dtype
    assert values(rd).tolist() == values(rc).tolist()


@pytest.mark.parametrize("op", ROUNDING, ids=RIDS)
def test_rounding_recorded_values_are_pytorchs(op):
    pt = _torch()
    if pt is None:
        pytest.skip("torch is not installed here")
    x = pt.tensor(ROUNDING_EDGES, dtype=pt.float64, requires_grad=True)
    y = getattr(pt, op.name)(x)
    y.sum().backward()
    node, expected, expected_grad = RECORDED_ROUNDING[op.name]
    assert y.grad_fn.name() == node
    same_floats(y.tolist(), expected, 0, op.name)
    same_floats(x.grad.tolist(), expected_grad, 0, op.name)
