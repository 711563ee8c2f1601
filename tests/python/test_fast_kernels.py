"""The fast host kernels (#21): the worker pool behind `set_num_threads`, reductions over any
dims, matrix products split over threads, and the fused softmax / log_softmax / layer_norm /
GELU kernels with their one-pass gradients.

Each is checked against an independent float64 reference computed with numpy, on contiguous,
transposed and broadcast operands, below and above the size from which work is split over
threads (32768 elements), with one thread and with two. The fused gradients (taken when the
backward pass need not be differentiable) are also checked against the gradients the op path
gives under `create_graph=True`.
"""

import numpy as np
import pytest

import leafgrad as torch
import leafgrad.nn.functional as F

RNG = np.random.default_rng(21)
DTYPES = [("float32", 2e-5), ("float64", 1e-12)]


@pytest.fixture(params=[1, 2], ids=["1-thread", "2-threads"])
def threads(request):
    before = torch.get_num_threads()
    torch.set_num_threads(request.param)
    yield request.param
    torch.set_num_threads(before)


def close(actual, expected, tol):
    actual = np.asarray(actual, dtype=np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    assert actual.shape == expected.shape
    same = (actual == expected) | (np.isnan(actual) & np.isnan(expected))
    finite = np.isfinite(expected)
    assert (same | finite).all()
    scale = max(1.0, float(np.abs(np.where(finite, expected, 0)).max(initial=0.0)))
    with np.errstate(invalid="ignore"):
        err = np.where(same, 0.0, np.abs(actual - expected))
    assert err.max(initial=0.0) <= tol * scale


def test_thread_count_api():
    n = torch.get_num_threads()
    assert n >= 1
    torch.set_num_threads(1)
    assert torch.get_num_threads() == 1
    torch.set_num_threads(n)
    assert torch.get_num_threads() == n
    assert torch.get_num_interop_threads() >= 1
    for bad, text in [(0, "set_num_threads expects a positive integer"),
                      (-2, "set_num_threads expects a positive integer"),
                      (1.5, "set_num_threads expects an int, but got float"),
                      ("2", "set_num_threads expects an int, but got str"),
                      (True, "set_num_threads expects an int, but got bool")]:
        with pytest.raises(RuntimeError) as e:
            torch.set_num_threads(bad)
        assert str(e.value) == text


@pytest.mark.parametrize("dt,tol", DTYPES)
@pytest.mark.parametrize("shape", [(3, 4, 5), (40, 30, 64)])
def test_sum_mean_over_any_dims(threads, dt, tol, shape):
    a = RNG.standard_normal(shape).astype(dt)
    for src, arr in [(torch.tensor(a), a), (torch.tensor(a).transpose(0, 2), a.swapaxes(0, 2)),
                     (torch.tensor(a)[:, ::2], a[:, ::2])]:
        for dims in [None, 0, 1, 2, (0, 1), (1, 2), (0, 2), (0, 1, 2)]:
            got = src.sum() if dims is None else src.sum(dims)
            close(got.numpy(), arr.astype(np.float64).sum(axis=dims), tol)
            got = src.mean() if dims is None else src.mean(dims, keepdim=True)
            close(got.numpy(), arr.astype(np.float64).mean(axis=dims, keepdims=dims is not None), tol)


def test_sum_of_integers_and_empty_dims(threads):
    a = RNG.integers(-100, 100, (50, 700))
    t = torch.tensor(a)
    assert t.sum(0).tolist() == a.sum(0).tolist()
    assert t.t().sum(1).tolist() == a.sum(0).tolist()
    assert torch.zeros(0, 3).sum(0).tolist() == [0.0, 0.0, 0.0]
    assert torch.ones(2, 0).sum(1).tolist() == [0.0, 0.0]


@pytest.mark.parametrize("shape", [(4, 5, 6), (30, 40, 50)])
def test_max_min_along_a_dim(threads, shape):
    a = RNG.standard_normal(shape).astype(np.float32)
    a.flat[7] = np.nan
    for src, arr in [(torch.tensor(a), a), (torch.tensor(a).permute(2, 0, 1), a.transpose(2, 0, 1))]:
        for d in range(3):
            v, i = src.max(d)
            np.testing.assert_array_equal(v.numpy(), np.max(arr, axis=d))
            # the first NaN, else the first maximum, as PyTorch
            ref = np.where(np.isnan(arr).any(axis=d), np.argmax(np.isnan(arr), axis=d), np.argmax(arr, axis=d))
            np.testing.assert_array_equal(i.numpy(), ref)
            v, i = src.min(d)
            np.testing.assert_array_equal(v.numpy(), np.min(arr, axis=d))


@pytest.mark.parametrize("dt,tol", DTYPES)
def test_matmul_split_over_threads(threads, dt, tol):
    cases = [((7, 5), (5, 3)), ((300, 200), (200, 150)), ((20, 300), (300, 900)),
             ((6, 70, 80), (6, 80, 90)), ((1, 300, 200), (200, 250)), ((3, 1, 40, 50), (2, 50, 60))]
    for sa, sb in cases:
        a, b = RNG.standard_normal(sa).astype(dt), RNG.standard_normal(sb).astype(dt)
        close((torch.tensor(a) @ torch.tensor(b)).numpy(), np.matmul(a.astype("f8"), b.astype("f8")), tol * 10)
    # transposed operands and an integer product
    a, b = RNG.standard_normal((200, 300)).astype(dt), RNG.standard_normal((400, 300)).astype(dt)
    close((torch.tensor(a) @ torch.tensor(b).t()).numpy(), a.astype("f8") @ b.astype("f8").T, tol * 10)
    ia, ib = RNG.integers(-5, 5, (30, 40)), RNG.integers(-5, 5, (40, 20))
    assert (torch.tensor(ia) @ torch.tensor(ib)).tolist() == (ia @ ib).tolist()


def _softmax_ref(a, dim, log):
    a = a.astype(np.float64)
    s = a - a.max(axis=dim, keepdims=True)
    lse = np.log(np.exp(s).sum(axis=dim, keepdims=True))
    return s - lse if log else np.exp(s - lse)


def _grads(fn, x, g, create_graph):
    xt = torch.tensor(x, requires_grad=True)
    y = fn(xt)
    (gx,) = torch.autograd.grad(y, xt, torch.tensor(g), create_graph=create_graph)
    return y.detach().numpy(), gx.detach().numpy()


@pytest.mark.parametrize("dt,tol", DTYPES)
@pytest.mark.parametrize("log", [False, True], ids=["softmax", "log_softmax"])
@pytest.mark.parametrize("shape", [(2, 3, 5), (64, 8, 128)])
def test_softmax_kernels(threads, dt, tol, log, shape):
    a = (RNG.standard_normal(shape) * 3).astype(dt)
    g = RNG.standard_normal(shape).astype(dt)
    fn = F.log_softmax if log else F.softmax
    for dim in range(len(shape)):
        y, gx = _grads(lambda t: fn(t, dim=dim), a, g, False)
        close(y, _softmax_ref(a, dim, log), tol)
        # the op path (a differentiable gradient) agrees with the fused one
        y2, gx2 = _grads(lambda t: fn(t, dim=dim), a, g, True)
        close(gx, gx2, tol * 10)
        ref = _softmax_ref(a, dim, log)
        g64 = g.astype(np.float64)
        if log:
            want = g64 - np.exp(ref) * g64.sum(axis=dim, keepdims=True)
        else:
            want = ref * (g64 - (g64 * ref).sum(axis=dim, keepdims=True))
        close(gx, want, tol * 10)
    # a transposed (non-contiguous) input, and masked rows of -inf as attention masks make
    xt = torch.tensor(a).transpose(0, -1)
    close(fn(xt, dim=1).numpy(), _softmax_ref(a.swapaxes(0, -1), 1, log), tol)
    m = a.copy()
    m[..., 1:] = -np.inf
    close(fn(torch.tensor(m), dim=-1).numpy(), _softmax_ref(m, -1, log), tol)


def _layer_norm_ref(x, n_dims, w, b, eps=1e-5):
    x = x.astype(np.float64)
    axes = tuple(range(x.ndim - n_dims, x.ndim))
    mu = x.mean(axis=axes, keepdims=True)
    var = x.var(axis=axes, keepdims=True)
    y = (x - mu) / np.sqrt(var + eps)
    if w is not None:
        y = y * w
    if b is not None:
        y = y + b
    return y


@pytest.mark.parametrize("dt,tol", DTYPES)
@pytest.mark.parametrize("shape,norm", [((3, 4, 8), (8,)), ((2, 3, 4), (3, 4)), ((6,), (6,)),
                                        ((64, 32, 96), (96,))])
@pytest.mark.parametrize("affine", [True, False])
def test_layer_norm_kernels(threads, dt, tol, shape, norm, affine):
    x = (RNG.standard_normal(shape) * 2 + 0.5).astype(dt)
    g = RNG.standard_normal(shape).astype(dt)
    w = RNG.standard_normal(norm).astype(dt) if affine else None
    b = RNG.standard_normal(norm).astype(dt) if affine else None

    def run(create_graph):
        xt = torch.tensor(x, requires_grad=True)
        wt = torch.tensor(w, requires_grad=True) if affine else None
        bt = torch.tensor(b, requires_grad=True) if affine else None
        y = F.layer_norm(xt, norm, wt, bt)
        ins = [xt] + ([wt, bt] if affine else [])
        gs = torch.autograd.grad(y, ins, torch.tensor(g), create_graph=create_graph)
        return y.detach().numpy(), [t.detach().numpy() for t in gs]

    y, grads = run(False)
    close(y, _layer_norm_ref(x, len(norm), w, b), tol * 10)
    _, grads2 = run(True)
    for a, c in zip(grads, grads2):
        close(a, c, tol * 100)
    if affine:
        xhat = _layer_norm_ref(x, len(norm), None, None)
        lead = tuple(range(x.ndim - len(norm)))
        close(grads[1], (g.astype(np.float64) * xhat).sum(axis=lead), tol * 100)
        close(grads[2], g.astype(np.float64).sum(axis=lead), tol * 100)


@pytest.mark.parametrize("dt,tol", DTYPES)
@pytest.mark.parametrize("approximate", ["none", "tanh"])
@pytest.mark.parametrize("shape", [(5, 7), (64, 1024)])
def test_gelu_kernels(threads, dt, tol, approximate, shape):
    from math import erf

    x = (RNG.standard_normal(shape) * 3).astype(dt)
    g = RNG.standard_normal(shape).astype(dt)
    x64 = x.astype(np.float64)
    if approximate == "tanh":
        k = np.sqrt(2 / np.pi)
        t = np.tanh(k * (x64 + 0.044715 * x64 ** 3))
        ref = 0.5 * x64 * (1 + t)
        dref = 0.5 * (1 + t) + 0.5 * x64 * (1 - t * t) * k * (1 + 3 * 0.044715 * x64 ** 2)
    else:
        cdf = 0.5 * (1 + np.vectorize(erf)(x64 / np.sqrt(2)))
        ref = x64 * cdf
        dref = cdf + x64 * np.exp(-0.5 * x64 ** 2) / np.sqrt(2 * np.pi)
    y, gx = _grads(lambda t: F.gelu(t, approximate=approximate), x, g, False)
    close(y, ref, tol * 10)
    close(gx, g * dref, tol * 10)
    _, gx2 = _grads(lambda t: F.gelu(t, approximate=approximate), x, g, True)
    close(gx, gx2, tol * 10)
    # a transposed input keeps its layout, as PyTorch's elementwise results do
    xt = torch.tensor(x).t()
    out = F.gelu(xt, approximate=approximate)
    assert out.stride() == xt.stride()
    close(out.numpy(), ref.T, tol * 10)


def _has_avx512():
    try:
        flags = open("/proc/cpuinfo").read().split()
    except OSError:
        return False
    return all(f in flags for f in ("avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"))


@pytest.mark.skipif(not _has_avx512(), reason="PyTorch's float32 GELU values differ on CPUs without AVX-512")
def test_gelu_float32_gives_pytorchs_bits():
    # (x, gelu(x), gelu'(x)) from PyTorch 2.15 on x86 with AVX-512 (oneDNN's approximations:
    # not the correctly rounded values), as float32 bit patterns
    cases = [
        (0x3F800000, 0x3F57625E, 0x3F8AAA14), (0xBF800000, 0xBE227686, 0xBDAAA148),
        (0x40400000, 0x403FBDA4, 0x3F81876F), (0xC0400000, 0xBB84B7C0, 0xBC43B780),
        (0x3E800000, 0x3E1944D1, 0x3F3203FC), (0x00000000, 0x00000000, 0x3F000000),
        (0xBF4071C1, 0xBE2E0CEF, 0x37C94000), (0x40B33333, 0x40B33333, 0x3F800003),
        (0xC0B33333, 0x80000000, 0xB4C00000), (0x0DA24260, 0x0D224260, 0x3F000000),
    ]
    bits = np.array([c[0] for c in cases], dtype=np.uint32)
    x = torch.tensor(bits.view(np.float32), requires_grad=True)
    y = F.gelu(x)
    y.backward(torch.ones(len(cases)))
    assert y.detach().numpy().view(np.uint32).tolist() == [c[1] for c in cases]
    assert x.grad.numpy().view(np.uint32).tolist() == [c[2] for c in cases]
    # oneDNN's NaN at +-inf for a contiguous tensor; PyTorch's own kernel (one element, or a
    # strided view) gives inf there
    inf = float("inf")
    assert torch.isnan(F.gelu(torch.tensor([inf, -inf, 1.0]))[:2]).all()
    assert F.gelu(torch.tensor([inf])).item() == inf
    assert F.gelu(torch.tensor([inf, 1.0])[::2]).item() == inf


def test_double_backward_still_runs_through_ops():
    x = torch.tensor([[0.3, -1.2, 2.0]], dtype=torch.float64, requires_grad=True)
    for fn in [lambda t: F.softmax(t, dim=1), lambda t: F.log_softmax(t, dim=1),
               lambda t: F.layer_norm(t, (3,)), lambda t: F.gelu(t), lambda t: F.gelu(t, approximate="tanh")]:
        assert torch.autograd.gradgradcheck(lambda t: fn(t).pow(2).sum(), (x,))


def test_zero_dim_and_empty_inputs():
    for fn, want in [(F.softmax, 1.0), (F.log_softmax, 0.0)]:
        x = torch.tensor(2.5, requires_grad=True)
        y = fn(x, dim=0)
        assert y.shape == () and y.item() == want
        y.backward()
        assert x.grad.item() == 0.0
        assert fn(torch.zeros(0, 3), dim=1).shape == (0, 3)
        assert fn(torch.zeros(2, 0), dim=1).shape == (2, 0)
    assert F.gelu(torch.zeros(0)).shape == (0,)
    assert F.layer_norm(torch.zeros(0, 4), (4,)).shape == (0, 4)


def _conv_ref(x, w, b, stride, padding, dilation, groups):
    """conv2d in float64 with numpy: sum over taps of shifted, strided input slices."""
    x, w = x.astype(np.float64), w.astype(np.float64)
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    (sh, sw), (ph, pw), (dh, dw) = stride, padding, dilation
    xp = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    ho = (h + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    wo = (wd + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    out = np.zeros((n, o, ho, wo))
    og = o // groups
    for gi in range(groups):
        xg = xp[:, gi * cg:(gi + 1) * cg]
        wg = w[gi * og:(gi + 1) * og]
        for i in range(kh):
            for j in range(kw):
                patch = xg[:, :, i * dh:i * dh + sh * (ho - 1) + 1:sh, j * dw:j * dw + sw * (wo - 1) + 1:sw]
                out[:, gi * og:(gi + 1) * og] += np.einsum("nchw,oc->nohw", patch, wg[:, :, i, j])
    if b is not None:
        out += b.astype(np.float64)[None, :, None, None]
    return out


@pytest.mark.parametrize("dt,tol", DTYPES)
@pytest.mark.parametrize("cfg", [
    dict(n=2, c=3, o=4, hw=(7, 6), k=(3, 3), stride=(1, 1), padding=(0, 0), dilation=(1, 1), groups=1),
    dict(n=3, c=4, o=6, hw=(9, 8), k=(3, 2), stride=(2, 1), padding=(1, 1), dilation=(1, 2), groups=2),
    dict(n=1, c=2, o=2, hw=(5, 5), k=(1, 1), stride=(1, 1), padding=(0, 0), dilation=(1, 1), groups=2),
    dict(n=16, c=8, o=16, hw=(14, 14), k=(3, 3), stride=(1, 1), padding=(1, 1), dilation=(1, 1), groups=1),
    # padding wider than the kernel: whole rows and columns of taps read only padding
    dict(n=2, c=2, o=3, hw=(4, 5), k=(2, 2), stride=(3, 2), padding=(3, 4), dilation=(1, 3), groups=1),
])
@pytest.mark.parametrize("bias", [True, False])
def test_conv2d_kernels(threads, dt, tol, cfg, bias):
    x = RNG.standard_normal((cfg["n"], cfg["c"]) + cfg["hw"]).astype(dt)
    w = RNG.standard_normal((cfg["o"], cfg["c"] // cfg["groups"]) + cfg["k"]).astype(dt)
    b = RNG.standard_normal(cfg["o"]).astype(dt) if bias else None
    kw = {k: cfg[k] for k in ("stride", "padding", "dilation", "groups")}
    ref = _conv_ref(x, w, b, **kw)
    g = RNG.standard_normal(ref.shape).astype(dt)

    def run(create_graph, x=x):
        xt, wt = torch.tensor(x, requires_grad=True), torch.tensor(w, requires_grad=True)
        bt = torch.tensor(b, requires_grad=True) if bias else None
        y = F.conv2d(xt, wt, bt, **kw)
        ins = [xt, wt] + ([bt] if bias else [])
        return y.detach().numpy(), [t.detach().numpy() for t in torch.autograd.grad(y, ins, torch.tensor(g),
                                                                           create_graph=create_graph)]

    y, grads = run(False)
    close(y, ref, tol * 10)
    _, grads2 = run(True)
    for a, c in zip(grads, grads2):
        close(a, c, tol * 100)
    if bias:
        close(grads[2], g.astype(np.float64).sum(axis=(0, 2, 3)), tol * 100)
    # the weight's gradient is the correlation of the input with the output's gradient
    eps = 1e-3 if dt == "float32" else 1e-6
    d = RNG.standard_normal(w.shape)
    lhs = (grads[1].astype(np.float64) * d).sum()
    rhs = ((_conv_ref(x, w + eps * d, None, **kw) - _conv_ref(x, w - eps * d, None, **kw)) / (2 * eps) * g).sum()
    assert abs(lhs - rhs) <= 1e-3 * max(1.0, abs(rhs))
    # a non-contiguous input gives the same values
    xt = torch.tensor(np.ascontiguousarray(x.transpose(0, 1, 3, 2))).transpose(2, 3)
    close(F.conv2d(xt, torch.tensor(w), torch.tensor(b) if bias else None, **kw).numpy(), ref, tol * 10)


@pytest.mark.parametrize("dt", ["float32", "float64", "int64"])
def test_max_pool2d_plan(threads, dt):
    x = (RNG.standard_normal((4, 3, 9, 8)) * 10).astype(dt)
    if dt != "int64":
        x[0, 0, 1, 1] = np.nan
    xt = torch.tensor(x)
    for k, s, p, d in [(2, 2, 0, 1), (3, 2, 1, 1), (3, 1, 1, 2)]:
        out, idx = F.max_pool2d(xt, k, s, p, d, return_indices=True)
        ho, wo = out.shape[2], out.shape[3]
        xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (p, p), (p, p)), constant_values=-np.inf)
        for oy in range(ho):
            for ox in range(wo):
                win = xp[:, :, oy * s:oy * s + d * (k - 1) + 1:d, ox * s:ox * s + d * (k - 1) + 1:d]
                want = np.where(np.isnan(win).any(axis=(2, 3)), np.nan, win.max(axis=(2, 3)))
                np.testing.assert_array_equal(out[:, :, oy, ox].numpy().astype(np.float64), want)
        # the indices point at the values they report
        flat = x.reshape(4, 3, -1)
        picked = np.take_along_axis(flat, idx.numpy().reshape(4, 3, -1), axis=2).reshape(out.shape)
        np.testing.assert_array_equal(picked, out.numpy())
    if dt != "int64":
        xg = torch.tensor(x, requires_grad=True)
        F.max_pool2d(xg, 2).sum().backward()
        assert xg.grad.sum().item() == 4 * 3 * 4 * 4


@pytest.mark.parametrize("dt", ["float32", "float64", "float16", "bfloat16", "int8", "uint8", "int64"])
def test_max_pool2d_window_order(dt):
    # PyTorch's order (`v > best || isnan(v)`): the first of equal maxima, -0 equal to +0, a NaN
    # over numbers and a later NaN over an earlier one; indices recorded from PyTorch 2.15
    nan, inf = float("nan"), float("inf")
    rows = [[1., 1., nan, 2., 0., -0., 3., 3.],
            [-0., 0., nan, 5., -0., 0., 3., inf]]
    if dt in ("int8", "uint8", "int64"):
        rows = [[1, 1, 7, 2, 0, 0, 3, 3], [0, 1, 7, 5, 0, 0, 3, 4]]
    x = torch.tensor([[rows]], dtype=getattr(torch, dt))
    _, idx = F.max_pool2d(x, 2, return_indices=True)
    want = [0, 2, 4, 15] if dt in ("int8", "uint8", "int64") else [0, 10, 4, 15]
    assert idx.flatten().tolist() == want


def test_products_in_python_threads_give_the_serial_results():
    # without a graph to record, matmul and conv2d run with the GIL released: threads overlap
    import threading

    a = torch.tensor(RNG.standard_normal((8, 96, 128)).astype(np.float32))
    b = torch.tensor(RNG.standard_normal((128, 64)).astype(np.float32))
    x = torch.tensor(RNG.standard_normal((4, 3, 20, 20)).astype(np.float32))
    w = torch.tensor(RNG.standard_normal((5, 3, 3, 3)).astype(np.float32))
    with torch.no_grad():
        want = [(a @ b).numpy(), F.conv2d(x, w, padding=1).numpy()]
    got, errors = [], []

    def work():
        try:
            with torch.no_grad():
                for _ in range(10):
                    got.append([(a @ b).numpy(), F.conv2d(x, w, padding=1).numpy()])
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    ts = [threading.Thread(target=work) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(60)
    assert not errors and len(got) == 40
    for m, c in got:
        np.testing.assert_array_equal(m, want[0])
        np.testing.assert_array_equal(c, want[1])


def test_recorded_products_still_call_saved_tensor_hooks():
    # a product that records its node keeps the GIL: the pack hook (Python) runs inside it
    packed = []
    a = torch.ones(300, 300, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append(1) or t, lambda t: t):
        y = a @ a
    y.sum().backward()
    assert packed and a.grad.shape == (300, 300)


@pytest.mark.parametrize("dt", ["float32", "float64", "float16"])
def test_relu_gradient_is_a_select(dt):
    # relu's backward keeps g where x > 0 and gives 0 elsewhere, even for a NaN or infinite g
    # (a select, not a product); a NaN x passes g (PyTorch's `x <= 0 ? 0 : g`)
    nan, inf = float("nan"), float("inf")
    x = torch.tensor([[-1.0, 0.0, 2.0, nan], [3.0, -0.0, inf, -inf]], dtype=getattr(torch, dt), requires_grad=True)
    g = torch.tensor([[nan, inf, 5.0, 7.0], [-inf, nan, 2.0, 1.0]], dtype=getattr(torch, dt))
    for xs, gs in ((x, g), (x.t(), g.t())):
        (gx,) = torch.autograd.grad(F.relu(xs), x, gs)
        assert gx.tolist() == [[0.0, 0.0, 5.0, 7.0], [-inf, 0.0, 2.0, 0.0]]
        (gx2,) = torch.autograd.grad(F.relu(xs), x, gs, create_graph=True)
        assert gx2.tolist() == gx.tolist()


@pytest.mark.parametrize("dt", ["float32", "float64", "int8", "bool", "complex64", "float16"])
def test_cat_and_stack_copy_blocks(dt):
    # contiguous host inputs are copied in blocks (no view per input); inputs at an offset into
    # their storage, a non-contiguous one (the general path), 0-d and empty inputs
    base = (RNG.standard_normal((6, 4, 5)) * 3).astype(np.float64)
    if dt == "bool":
        base = base > 0
    elif dt == "complex64":
        base = base + 1j * base[::-1]
    arr = base.astype(dt)
    x = torch.tensor(arr)
    parts = [x[0], x[1:3].reshape(2, 4, 5)[1], x[5]]  # views at offsets, contiguous
    want = np.stack([arr[0], arr[2], arr[5]])
    for d in range(3):
        np.testing.assert_array_equal(torch.stack(parts, d).numpy(), np.stack([arr[0], arr[2], arr[5]], d))
    for d in range(2):
        np.testing.assert_array_equal(torch.cat(parts, d).numpy(), np.concatenate([arr[0], arr[2], arr[5]], d))
    np.testing.assert_array_equal(torch.stack(parts).numpy(), want)
    strided = x[:, 0, :]  # not contiguous
    assert not strided.is_contiguous()
    np.testing.assert_array_equal(torch.cat([x[0], strided], 0).numpy(), np.concatenate([arr[0], arr[:, 0, :]], 0))
    np.testing.assert_array_equal(torch.stack([x[0, 0, 0], x[1, 1, 1]]).numpy(), [arr[0, 0, 0], arr[1, 1, 1]])
    assert torch.cat([x[:0], x[:2]]).shape == (2, 4, 5)
    assert torch.stack([x[:, :0], x[:, :0]], 1).shape == (6, 2, 0, 5)


def test_cat_and_stack_gradients_after_block_copies():
    a = torch.arange(6.0, requires_grad=True)
    b = torch.arange(6.0, 12.0, requires_grad=True)
    y = torch.stack([a.view(2, 3), b.view(2, 3)], 1)
    assert y.grad_fn.name() == "StackBackward0" and y.shape == (2, 2, 3)
    (y * torch.arange(12.0).view(2, 2, 3)).sum().backward()
    assert a.grad.tolist() == [0.0, 1.0, 2.0, 6.0, 7.0, 8.0]
    assert b.grad.tolist() == [3.0, 4.0, 5.0, 9.0, 10.0, 11.0]
    z = torch.cat([a.view(2, 3), b.view(2, 3)], 1)
    assert z.grad_fn.name() == "CatBackward0" and z.tolist() == [[0.0, 1.0, 2.0, 6.0, 7.0, 8.0], [3.0, 4.0, 5.0, 9.0, 10.0, 11.0]]


def test_layer_norm_of_a_half_input_with_float32_weights_keeps_the_input_dtype():
    # PyTorch's mixed-type CPU layer norm: computed in float32, one NativeLayerNormBackward0,
    # the result and the input's gradient in the input's dtype, the weights' in float32
    x = torch.tensor([[1.5, -0.25, 3.0, 0.5], [2.0, 2.5, -1.0, 0.0]], dtype=torch.bfloat16, requires_grad=True)
    w = torch.tensor([0.5, 1.5, -1.0, 2.0], requires_grad=True)
    b = torch.tensor([0.1, 0.0, -0.2, 0.3], requires_grad=True)
    y = F.layer_norm(x, (4,), w, b)
    assert y.dtype == torch.bfloat16 and y.grad_fn.name() == "NativeLayerNormBackward0"
    ref = F.layer_norm(x.detach().float(), (4,), w.detach(), b.detach()).bfloat16()
    assert y.tolist() == ref.tolist()
    y.sum().backward()
    assert x.grad.dtype == torch.bfloat16 and w.grad.dtype == torch.float32
    assert b.grad.tolist() == [2.0, 2.0, 2.0, 2.0]
    assert F.layer_norm(x.detach().half(), (4,), w).dtype == torch.float16
